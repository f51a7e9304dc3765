/* --cluster: the first shard's link to Redis (cluster/cluster.h), on its own loop.
 *
 * Every shard writes the links it finds for other processes' hosts into outboxes of their own,
 * which go to the run at each turn (mesh.c); the first shard appends them to Redis here, each
 * batch with the smallest depth it holds back. Entries for this process come back here too: each
 * line goes to the inbox of the shard that owns its host, where it counts in the depth gate as
 * any link between shards does.
 *
 * Once a turn (at most every VIEW_EVERY seconds) this process publishes its state (its smallest
 * pending depth, whether it is idle, whether it stops), which also counts the entries it took
 * since the last publish, acknowledges those entries, and asks for a view of the whole run. The
 * view's gate (what the other processes hold back) joins the gate the shards' pages wait for;
 * its end (every process idle, nothing on its way) ends this process; a stop asked by another
 * process stops this one as an interrupt would. */
#include "cluster/cluster.h"
#include "crawl/bridge.h"
#include "crawl/life.h"
#include "crawl/budget.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/restore.h"
#include "crawl/saved.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const double VIEW_EVERY = 0.002, IDLE_WAIT = 0.01;

struct bridge {
  struct shard *c;
  cluster *cl;
  bool view_pending;
  bool ended; /* a view showed the run done: the job's keys go at close */
  double view_at;
  struct shard_outbox *route; /* lines of one entry, by the shard that owns their host */
  unsigned long saved_mark;   /* the entries the last checkpoint holds */
  /* -n: pages leased from the run's limit in blocks (see lease_turn) */
  long lease_block;
  bool lease_reset, lease_pending;
  double lease_retry_at;
  long pages_seen; /* pages started as of pages_seen_at, when they last changed */
  double pages_seen_at;
};

static void on_batch(void *arg, const char *id, const char *lines, size_t len) {
  (void)id; /* the publish that counts it taken acknowledges it (ack_when_published) */
  struct bridge *b = arg;
  struct shard *c = b->c;
  struct crawl *r = c->run;
  int shards = crawl__mesh_shards(r);
  const char *p = lines, *end = lines + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      break; /* an entry holds whole lines; what is not one is not ours */
    /* "KH DEPTH REDIRECTS FROM URL": the URL is the last field */
    const char *url = nl;
    while (url > p && url[-1] != ' ')
      url--;
    long depth = p + 3 < nl ? strtol(p + 3, NULL, 10) : -1;
    struct url u;
    /* the parser that took it apart when it was sent: the same host, so the same owner (a
     * printed URL may hold userinfo, which a host cut out of the text would take along) */
    core_rc rc = url > p && depth >= 0 && depth < INT_MAX
                     ? url_resolve_in(NULL, url, (size_t)(nl - url), SIZE_MAX / 4, NULL, &u)
                     : CORE_EFORMAT;
    if (rc == CORE_ENOMEM) {
      crawl__notes_fatal(c, "out of memory");
      return;
    }
    if (rc == CORE_OK) {
      struct shard_outbox *o = &b->route[crawl__mesh_owner(c, u.host)];
      url_free(&u);
      if (core_buf_add(&o->buf, p, (size_t)(nl - p) + 1)) {
        crawl__notes_fatal(c, "out of memory");
        return;
      }
      int held = crawl__mail_line_holds((enum link_kind)p[0], (int)depth);
      if (held < o->min)
        o->min = held;
    }
    p = nl + 1;
  }
  for (int s = 0; s < shards; s++) {
    struct shard_outbox *o = &b->route[s];
    if (!o->buf.len)
      continue;
    crawl__mail_deliver(r, s, o->buf.data, o->buf.len, o->min);
    core_buf_reset(&o->buf);
    o->min = INT_MAX;
  }
}

static void on_error(void *arg, const char *message) {
  struct bridge *b = arg;
  const char *state = b->c->cfg->state_dir;
  if (state) /* its checkpoint is saved at the stop: the command that goes on from it */
    crawl__notes_fatal(b->c, "--cluster: %s; once Redis answers, 'crawl --state %s' goes on",
                       message, state);
  else
    crawl__notes_fatal(b->c, "--cluster: %s", message);
}

static void on_wait(void *arg, const char *message) {
  struct bridge *b = arg;
  crawl__notes_warn(b->c, "--cluster: %s; waiting for it up to %g s (--cluster-wait)", message,
                    b->c->cfg->cluster_wait);
}

static void on_back(void *arg) {
  struct bridge *b = arg;
  crawl__notes_warn(b->c, "--cluster: Redis answers again: the crawl goes on");
  /* what Redis counted of this node's lease is set again from the pages it began: a lease asked
   * for or given back while it was away may have been lost */
  b->lease_reset = false;
  b->lease_pending = false;
}

static void on_view(void *arg, const struct cluster_view *view) {
  struct bridge *b = arg;
  b->view_pending = false;
  if (!view->consistent)
    return; /* the next turn asks again */
  /* every page -n allows has been started: nothing leased is left anywhere */
  if (crawl__budget_pages_leased(b->c->run) && view->pages >= b->c->cfg->max_pages)
    crawl__budget_set_pages_final(b->c->run);
  if (view->done) {
    cluster_mark_ended(b->cl);
    b->ended = true;
  }
  crawl__mesh_view_read(b->c->run, view->others_gate, view->done);
  if (view->stop)
    crawl_stop(b->c->run, CRAWL_END_SIGINT);
}

static void send_remote(void *arg, int node, const char *lines, size_t len, int min) {
  struct bridge *b = arg;
  core_rc rc = cluster_send(b->cl, node, lines, len, min);
  if (rc && rc != CORE_ESYS) /* CORE_ESYS: on_error said why */
    crawl__notes_fatal(b->c, "--cluster: cannot send links: %s", core_rc_str(rc));
}

/* One line for each item: a name and the item, for items that may hold commas (patterns). */
static core_rc put_lines(struct core_buf *b, const char *name, const struct core_list *list) {
  core_rc rc = CORE_OK;
  for (size_t i = 0; i < list->count && rc == CORE_OK; i++) {
    rc = core_buf_add(b, name, strlen(name));
    rc = rc ? rc : core_buf_addc(b, ' ');
    rc = rc ? rc : core_buf_add(b, list->items[i], strcspn(list->items[i], "\n"));
    rc = rc ? rc : core_buf_addc(b, '\n');
  }
  return rc;
}

static core_rc put_list(struct core_buf *b, const char *name, const struct core_list *list) {
  core_rc rc = core_buf_add(b, name, strlen(name));
  for (size_t i = 0; i < list->count && rc == CORE_OK; i++) {
    rc = core_buf_addc(b, i ? ',' : ' ');
    if (rc == CORE_OK)
      rc = core_buf_add(b, list->items[i], strlen(list->items[i]));
  }
  return rc == CORE_OK ? core_buf_addc(b, '\n') : rc;
}

/* What decides which process owns a URL and what the crawl accepts, fetches and counts: every
 * process of a job must agree on it (a process with another --nodes would send links to the
 * wrong owners; one with another -d or scope would print another crawl; one with another
 * product token would obey another group of robots.txt; one with another --max-size or --js
 * would find other links). How each process paces itself (-w, -c, --rate) is its own. */
static core_rc job_options(const struct crawl_config *cfg, struct core_buf *b) {
  char text[768];
  snprintf(text, sizeof(text),
           "crawl-cluster-options 2\nnodes %ld\ndepth %ld\nmax-pages %ld\nmax-pages-per-host "
           "%ld\nscope %d\nno-parent %d\nrobots %d\nsitemaps %d\nmax-url-length %zu\n"
           "max-redirs %ld\nmax-path-repeat %ld\nmax-path-segments %ld\nmax-query-variants "
           "%ld\nmax-sitemaps %ld\nsitemap-depth %ld\nmax-size %llu\njs %d\ncheck-skipped "
           "%d\ncheck-outside %d\nallow-private %d\nproduct-token %s\n",
           cfg->nodes, cfg->depth, cfg->max_pages, cfg->max_pages_per_host, (int)cfg->scope_mode,
           cfg->no_parent, cfg->robots, cfg->sitemaps, cfg->max_url_length, cfg->max_redirs,
           cfg->max_path_repeat, cfg->max_path_segments, cfg->max_query_variants, cfg->max_sitemaps,
           cfg->sitemap_depth, (unsigned long long)cfg->max_size, cfg->js, cfg->check_skipped,
           cfg->check_outside, cfg->allow_private, cfg->product_token ? cfg->product_token : "");
  core_rc rc = core_buf_add(b, text, strlen(text));
  rc = rc ? rc : put_lines(b, "match", &cfg->match.texts);
  rc = rc ? rc : put_lines(b, "exclude", &cfg->exclude.texts);
  const struct core_list *lists[] = {&cfg->domains, &cfg->exclude_domains, &cfg->accept_ext,
                                     &cfg->reject_ext, &cfg->skip_ext};
  const char *names[] = {"domains", "exclude-domains", "accept", "reject", "skip-ext"};
  for (size_t i = 0; i < sizeof(lists) / sizeof(*lists) && rc == CORE_OK; i++)
    rc = put_list(b, names[i], lists[i]);
  return rc == CORE_OK ? core_buf_addc(b, '\0') : rc;
}

/* What a continued node's checkpoint holds that it had not finished: pages and sitemaps queued,
 * held pages and their links, links on their way between its shards or to other nodes. */
struct unfinished {
  long pages, held, links;
};

static core_rc count_unfinished(FILE *saved, struct unfinished *u) {
  off_t at = ftello(saved);
  if (at < 0 || fseeko(saved, 0, SEEK_SET) != 0)
    return CORE_ESYS;
  char *line = NULL;
  size_t cap = 0;
  struct saved s;
  while (crawl__saved_next(saved, &line, &cap, &s)) {
    u->pages += s.kind == SAVED_PAGE || s.kind == SAVED_SITEMAP;
    u->held += s.kind == SAVED_HELD;
    u->links += s.kind == SAVED_LINK || s.kind == SAVED_TRANSIT;
  }
  free(line);
  bool failed = ferror(saved) != 0;
  clearerr(saved);
  /* where the restore reads from */
  return fseeko(saved, at, SEEK_SET) != 0 || failed ? CORE_ESYS : CORE_OK;
}

/* The job this node joins has ended: every node was idle and nothing was on its way. A new
 * crawl on it would end before it began; a --state node continued after it (killed while idle,
 * just before the others ended the job) had its part done when its state holds nothing
 * unfinished: it asks nothing and exits 0. When its state does, the job cannot take that up any
 * more: it stops, naming what would be lost, and leaves the state as it was. */
static core_rc join_ended(struct shard *c, const char *job) {
  struct unfinished u = {0};
  FILE *resumable = crawl__restore_file(c);
  if (!crawl__restore_continued(c) || !resumable) {
    crawl__notes_fatal(c, "--cluster: the job '%s' has ended; give the new crawl a new job name",
                       job);
    return CORE_EINVAL;
  }
  if (count_unfinished(resumable, &u) != CORE_OK) {
    crawl__notes_fatal(c, "--state: cannot read the checkpoint back: %s", strerror(errno));
    return CORE_ESYS;
  }
  if (u.pages || u.held || u.links) {
    crawl__notes_fatal(
        c,
        "--cluster: the job '%s' has ended, but this node's state holds what it had not "
        "finished (%ld queued pages, %ld held pages, %ld links on their way): the job "
        "cannot take them up any more, and they would be lost; the state is left as it "
        "was",
        job, u.pages, u.held, u.links);
    return CORE_EINVAL;
  }
  crawl__notes_warn(c, "--cluster: the job '%s' is complete, and so was this node's part of it",
                    job);
  for (int i = 0; i < crawl__mesh_shards(c->run); i++)
    crawl__restore_set_complete(crawl__mesh_shard(c->run, i));
  return CORE_OK;
}

/* Joins the job, waiting up to --cluster-wait for a Redis that does not answer yet (not started,
 * restarting, still loading its append-only file): tried again after cluster_next_pause's
 * pauses, the last try at the bound, and said once. A refusal (other options) is not waited on,
 * nor is a stop asked for meanwhile. */
static core_rc join_waiting(struct shard *c, struct cluster_options *opt, const char *options,
                            bool *ended, char *err, size_t err_size) {
  double deadline = core_now() + c->cfg->cluster_wait, pause = cluster_next_pause(0);
  bool waited = false;
  for (;;) {
    core_rc rc = cluster_job_join(&opt->address, options, ended, &opt->since_us, err, err_size);
    crawl__mesh_sync_stop(c);
    double left = deadline - core_now();
    if (rc != CORE_ESYS || crawl__life_stop(c) != STOP_NONE || left <= 0) {
      if (waited && rc == CORE_OK)
        crawl__notes_warn(c, "--cluster: Redis answers: the crawl goes on");
      return rc;
    }
    if (!waited)
      crawl__notes_warn(c, "--cluster: %s; waiting for it up to %g s (--cluster-wait)", err,
                        c->cfg->cluster_wait);
    waited = true;
    double nap = pause < left ? pause : left; /* the last try is at the bound */
    struct timespec ts = {.tv_sec = (time_t)nap,
                          .tv_nsec = (long)((nap - (double)(time_t)nap) * 1e9)};
    nanosleep(&ts, NULL);
    pause = cluster_next_pause(pause);
  }
}

core_rc crawl__bridge_open(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  /* with a checkpoint, an entry is acknowledged once a checkpoint holds its links */
  struct cluster_options opt = {.nodes = (int)cfg->nodes,
                                .node = (int)cfg->node,
                                .ack_when_published = !cfg->seen_file && !cfg->state_dir,
                                .wait = cfg->cluster_wait};
  const char *why;
  if (cluster_address_parse(cfg->cluster, &opt.address, &why) != CORE_OK) {
    crawl__notes_fatal(c, "--cluster: %s", why);
    return CORE_EINVAL;
  }
  char err[512] = "";
  bool ended = false;
  struct core_buf options;
  core_buf_init(&options, 1 << 20);
  core_rc rc = job_options(cfg, &options);
  if (rc == CORE_OK)
    rc = join_waiting(c, &opt, options.data, &ended, err, sizeof(err));
  core_buf_free(&options);
  if (rc == CORE_OK && ended)
    return join_ended(c, opt.address.job);
  struct bridge *b = rc == CORE_OK ? calloc(1, sizeof(*b)) : NULL;
  int shards = crawl__mesh_shards(c->run);
  if (rc == CORE_OK && (!b || !(b->route = calloc((size_t)shards, sizeof(*b->route))))) {
    free(b);
    b = NULL;
    rc = CORE_ENOMEM;
  }
  if (b) {
    b->c = c;
    for (int s = 0; s < shards; s++) {
      core_buf_init(&b->route[s].buf, SIZE_MAX / 4);
      b->route[s].min = INT_MAX;
    }
    c->bridge = b;
    struct cluster_handler handler = {.on_batch = on_batch,
                                      .on_error = on_error,
                                      .on_wait = on_wait,
                                      .on_back = on_back,
                                      .arg = b};
    rc = cluster_create(c->loop, &opt, &handler, &b->cl, err, sizeof(err));
  }
  if (rc) {
    if (err[0])
      crawl__notes_fatal(c, "--cluster: %s", err);
    else
      crawl__notes_fatal(c, "--cluster: cannot start: %s", core_rc_str(rc));
  }
  return rc;
}

static void on_lease(void *arg, long granted) {
  struct bridge *b = arg;
  b->lease_pending = false;
  if (granted > 0)
    crawl__budget_lease_add(b->c->run, granted);
  else /* nothing left to lease now: another process may give some back */
    b->lease_retry_at = core_now() + LEASE_WAIT;
}

/* -n across processes: a process busy with pages leases a block of them when its lease runs low,
 * and one that is idle, or has started nothing for LEASE_HELD seconds (its pages may be waiting
 * for the depths of a process that waits for a lease), gives back what it holds, for the others
 * to use. Started again, it first gives back what its last run leased and never began (its
 * checkpoint says what it began). */
static void lease_turn(struct bridge *b, bool idle, double now) {
  static const double LEASE_HELD = 0.2;
  struct crawl *r = b->c->run;
  long limit = b->c->cfg->max_pages, started = crawl__budget_pages_started(r);
  if (started != b->pages_seen || !b->pages_seen_at) {
    b->pages_seen = started;
    b->pages_seen_at = now;
  }
  if (!b->lease_reset) {
    if (cluster_lease_reset(b->cl, crawl__budget_pages_started(r)) != CORE_OK)
      return;
    b->lease_reset = true;
    b->lease_block = limit / (4 * (long)b->c->cfg->nodes);
    b->lease_block = b->lease_block < 1 ? 1 : b->lease_block > 256 ? 256 : b->lease_block;
  }
  bool held = crawl__budget_lease_left(r) > 0 && now - b->pages_seen_at > LEASE_HELD;
  if (idle || held) {
    long unused = crawl__budget_lease_take_back(r);
    if (unused > 0 && cluster_lease(b->cl, limit, -unused, NULL, NULL) != CORE_OK)
      return;
    if (held) { /* the others first */
      b->lease_retry_at = now + LEASE_HELD;
      b->pages_seen_at = now;
    }
  } else if (!crawl__budget_pages_final(r) && !b->lease_pending && now >= b->lease_retry_at &&
             crawl__budget_lease_left(r) <= b->lease_block / 2) {
    if (cluster_lease(b->cl, limit, b->lease_block, on_lease, b) == CORE_OK)
      b->lease_pending = true;
  }
}

double crawl__bridge_turn(struct shard *c) {
  struct bridge *b = c->bridge;
  if (!b || !b->cl || crawl__life_fatal(c))
    return IDLE_WAIT;
  crawl__mail_take_remote(c->run, send_remote, b);
  cluster_flush(b->cl);
  double now = core_now();
  bool due = !b->view_pending && now - b->view_at >= VIEW_EVERY;
  bool leased = crawl__budget_pages_leased(c->run);
  int gate = INT_MAX;
  bool idle = false;
  if (due || leased) /* the process's state is read (under the run's lock) when it is needed */
    crawl__mesh_node_state(c->run, &gate, &idle);
  if (leased)
    lease_turn(b, idle || crawl__life_stop(c), now);
  if (!due)
    return b->view_pending ? IDLE_WAIT : VIEW_EVERY - (now - b->view_at);
  cluster_set_pages(b->cl, crawl__budget_pages_started(c->run));
  if (cluster_publish(b->cl, gate, idle && !crawl__life_stop(c),
                      crawl__life_stop(c) != STOP_NONE) != CORE_OK)
    return IDLE_WAIT;
  crawl__mesh_view_asked(c->run);
  if (cluster_view(b->cl, on_view, b)) {
    b->view_pending = true;
    b->view_at = now;
  }
  return IDLE_WAIT;
}

unsigned long crawl__bridge_mark(struct shard *c) {
  return c->bridge && c->bridge->cl ? cluster_ack_mark(c->bridge->cl) : 0;
}

static void put_unconfirmed(void *arg, int node, const char *lines, size_t len) {
  (void)node; /* each line names its URL, whose host names its node */
  crawl__mail_put_transit(arg, lines, len);
}

void crawl__bridge_write_transit(struct shard *c, FILE *out) {
  if (c->bridge && c->bridge->cl)
    cluster_each_unconfirmed(c->bridge->cl, put_unconfirmed, out);
}

void crawl__bridge_saved(struct shard *c, unsigned long mark) {
  struct bridge *b = c->bridge;
  if (!b || !b->cl)
    return;
  /* one checkpoint late: the run after a torn checkpoint loads the one before it */
  cluster_ack_through(b->cl, b->saved_mark);
  b->saved_mark = mark;
}

void crawl__bridge_close(struct shard *c) {
  struct bridge *b = c->bridge;
  if (!b)
    return;
  if (b->cl && !crawl__life_fatal(c)) {
    /* the last publish and acknowledgements reach Redis before this process goes */
    int gate;
    bool idle;
    crawl__mesh_node_state(c->run, &gate, &idle);
    crawl__mail_take_remote(c->run, send_remote, b);
    cluster_flush(b->cl);
    cluster_set_pages(b->cl, crawl__budget_pages_started(c->run));
    /* a stopped process is not idle: what it has not done waits for it (--state) */
    cluster_publish(b->cl, gate, idle && !crawl__life_stop(c), crawl__life_stop(c) != STOP_NONE);
    if (b->ended) /* the job's streams emptied, its keys gone a week later */
      cluster_forget(b->cl);
    double end = core_now() + 5;
    while (!cluster_settled(b->cl) && core_now() < end && !crawl__life_fatal(c))
      loop_run_once(c->loop, 0.05);
  }
  cluster_destroy(b->cl);
  for (int s = 0; s < crawl__mesh_shards(c->run); s++)
    core_buf_free(&b->route[s].buf);
  free(b->route);
  free(b);
  c->bridge = NULL;
}
