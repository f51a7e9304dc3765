/* The crawl itself: seeds into the frontier, the frontier into fetches, bodies into the link
 * extractor, links back into the frontier, every URL's fate into the output. This file is policy;
 * the mechanisms live in core/, parse/, fetch/, frontier/ and warc/. robots.txt is in sitefiles.c,
 * --seen and --state in checkpoint.c, --warc in archive.c, what the shards share in shard.c. */
#include "crawl/crawl-int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <xxhash.h>

static const struct fetch_handler page_handler;

void crawl__fatal(struct shard *c, const char *fmt, ...) {
  if (c->fatal)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, c->err_size, fmt, ap);
  va_end(ap);
  c->fatal = true;
  c->stop = 2;
  c->end = CRAWL_END_FATAL;
}

static void say(struct shard *c, const char *fmt, va_list ap) {
  char *text = NULL; /* as long as it is: a URL may be 2,048 bytes or more */
  if (vasprintf(&text, fmt, ap) >= 0) {
    c->sink->note(c->sink->arg, text);
    free(text);
  }
}

void crawl__note(struct shard *c, const char *fmt, ...) {
  if (!c->cfg->verbose || !c->sink->note)
    return;
  va_list ap;
  va_start(ap, fmt);
  say(c, fmt, ap);
  va_end(ap);
}

void crawl__warn(struct shard *c, const char *fmt, ...) {
  if (c->cfg->quiet || !c->sink->note)
    return;
  va_list ap;
  va_start(ap, fmt);
  say(c, fmt, ap);
  va_end(ap);
}

/* Memory past --queue-memory is the user's to know at once, not at the end. */
static void warn_spill_refused(struct shard *c) {
  int err = 0;
  if (!frontier_spill_refused(c->fr, &err) || !crawl__run_warn_spill_once(c->run))
    return;
  crawl__warn(c,
              "the queue's spill file in %s cannot be written (%s): queued URLs stay in memory "
              "past --queue-memory (TMPDIR names another directory)",
              core_temp_dir(), strerror(err ? err : EIO));
}

double crawl__backoff(const struct crawl_config *cfg, int attempts) {
  /* 0.5 s, 1 s, 2 s, ... capped by --max-delay */
  return fmin(cfg->max_delay, 0.5 * ldexp(1.0, attempts - 1));
}

double crawl__retry_at(struct shard *c, frontier_host *host, int attempts, double retry_after) {
  double now = core_now();
  double wait = crawl__backoff(c->cfg, attempts);
  if (retry_after >= 0) {
    /* the server asked the whole host to wait, not only this URL (never past --max-delay: the
     * callers give up on a longer wait, crawl__retry_after_too_long) */
    frontier_host_defer(c->fr, host, now + retry_after);
    wait = fmax(wait, retry_after);
  }
  return now + wait;
}

static const char *const fate_names[] = {
#define CRAWL_FATE_NAME(name, text) text,
    CRAWL_FATE_MAP(CRAWL_FATE_NAME)
#undef CRAWL_FATE_NAME
};

static const char *const cause_names[] = {
#define CRAWL_CAUSE_NAME(name, text) text,
    CRAWL_CAUSE_MAP(CRAWL_CAUSE_NAME)
#undef CRAWL_CAUSE_NAME
};

const char *crawl_fate_name(crawl_fate fate) {
  return fate < CRAWL_FATE_COUNT ? fate_names[fate] : "?";
}

const char *crawl_cause_name(crawl_cause cause) {
  return cause < CRAWL_CAUSE_COUNT ? cause_names[cause] : "?";
}

/* A reader that went away (EPIPE) ends the crawl quietly; any other write error is fatal. */
static void check_output(struct shard *c, core_rc rc) {
  if (rc == CORE_OK)
    return;
  int err = c->sink->error(c->sink->arg);
  if (err == EPIPE) {
    if (!c->stop)
      c->end = CRAWL_END_PIPE;
    c->stop = 2;
  } else if (err) {
    crawl__fatal(c, "cannot write %s: %s", c->sink->name, strerror(err));
  } else {
    crawl__fatal(c, "cannot write %s: %s", c->sink->name, core_rc_str(rc));
  }
}

/* The first broken links, for the summary; with -v each one as it is found. */
static void note_broken(struct shard *c, const struct crawl_record *rec) {
  struct crawl_stats *s = c->stats;
  if (rec->status)
    crawl__note(c, "broken link: %s (HTTP %ld), linked from %s", rec->url, rec->status,
                rec->from ? rec->from : "(a seed)");
  else
    crawl__note(c, "broken link: %s (%s: %s), linked from %s", rec->url,
                crawl_cause_name(rec->cause), rec->error ? rec->error : "failed",
                rec->from ? rec->from : "(a seed)");
  if (s->broken < CRAWL_BROKEN_SHOWN) {
    struct crawl_broken_link *b = &s->broken_links[s->broken];
    b->url = strdup(rec->url);
    b->from = rec->from ? strdup(rec->from) : NULL;
    b->status = rec->status;
    b->cause = rec->cause;
    if (!b->url || (rec->from && !b->from)) {
      free(b->url);
      free(b->from);
      *b = (struct crawl_broken_link){0};
      crawl__fatal(c, "out of memory");
      return;
    }
  }
  s->broken++;
}

const char *crawl__via_name(unsigned via) {
  switch (via) {
    case VIA_SEED:
      return "seed";
    case VIA_SITEMAP:
      return "sitemap";
    default:
      if (via >= VIA_REDIRECT && via < VIA_PAGE)
        return "redirect";
      return via >= VIA_PAGE ? parse_via_name((parse_via)(via - VIA_PAGE)) : NULL;
  }
}

/* Every settled fate passes here: counted, written as a record (unless ITEM_QUIET), and
 * remembered when --seen must forget it. flags are the URL's item flags (its via among them). */
static void report(struct shard *c, unsigned flags, struct crawl_record *rec) {
  rec->via = crawl__via_name(ITEM_VIA(flags));
  if (flags & ITEM_SPEC) { /* not accepted yet: reported when confirmed */
    crawl__spec_keep_record(c, rec);
    return;
  }
  struct crawl_stats *s = c->stats;
  s->fates[rec->fate]++;
  if (flags & ITEM_SEED) {
    s->seeds++;
    /* no response at all: DNS, connection, TLS, timeout, or its host's robots.txt */
    s->seeds_unreached += rec->fate == CRAWL_FATE_FAILED && !rec->status;
    s->seeds_http_failed += rec->fate == CRAWL_FATE_FAILED && rec->status >= 400;
  }
  if (rec->fate == CRAWL_FATE_FAILED) {
    s->failures[rec->cause]++;
    if (c->cfg->seen_file)
      crawl__remember_to_forget(c, rec->url);
    s->checked_broken += (flags & ITEM_HEAD) != 0;
    note_broken(c, rec); /* whatever the cause: a link that leads nowhere is broken */
  }
  if (c->cfg->jsonl && !(flags & ITEM_QUIET))
    check_output(c, c->sink->record(c->writer, rec));
}

/* A fate without a response: cause and error matter for CRAWL_FATE_FAILED only. */
static void record(struct shard *c, const struct frontier_item *item, const char *url,
                   const char *from, int depth, crawl_fate fate, crawl_cause cause,
                   const char *error) {
  if (item && item->kind == FRONTIER_SITEMAP)
    return; /* a sitemap is no discovered URL: it has no fate to report */
  if (item && (item->flags & ITEM_LEFT) && fate == CRAWL_FATE_LIMIT)
    return; /* an earlier run of this --state crawl reported it so, and counted it */
  struct crawl_record rec = {
      .url = url, .from = from, .depth = depth, .fate = fate, .cause = cause, .error = error};
  report(c, item ? item->flags : 0, &rec);
}

static void record_item(struct shard *c, const struct frontier_item *item, crawl_fate fate,
                        crawl_cause cause, const char *error) {
  record(c, item, item->url, item->from, item->depth, fate, cause, error);
}

/* --max-query-variants: how many query strings each path of one host has had, by the path's
 * hash: open addressing, a power of two of slots at most half full. A URL counts when it is new
 * to the seen filter, so a query string counts once. */
struct query_counts {
  struct query_slot {
    uint64_t hash; /* 0: empty */
    uint64_t count;
  } * slots;
  size_t cap, used;
};

static void query_counts_free(struct query_counts *q) {
  if (q)
    free(q->slots);
  free(q);
}

/* The count of path's query strings, made one more; 0 when memory runs out. */
static uint64_t query_counts_add(struct host_data *hd, const char *path, size_t len) {
  struct query_counts *q = hd->queries;
  if (!q && !(q = hd->queries = calloc(1, sizeof(*q))))
    return 0;
  if (2 * (q->used + 1) > q->cap) {
    size_t cap = q->cap ? 2 * q->cap : 16;
    struct query_slot *slots = calloc(cap, sizeof(*slots));
    if (!slots)
      return 0;
    for (size_t i = 0; i < q->cap; i++) {
      if (!q->slots[i].hash)
        continue;
      size_t j = (size_t)q->slots[i].hash & (cap - 1);
      while (slots[j].hash)
        j = (j + 1) & (cap - 1);
      slots[j] = q->slots[i];
    }
    free(q->slots);
    q->slots = slots;
    q->cap = cap;
  }
  uint64_t hash = XXH3_64bits(path, len);
  hash += !hash;
  size_t j = (size_t)hash & (q->cap - 1);
  while (q->slots[j].hash && q->slots[j].hash != hash)
    j = (j + 1) & (q->cap - 1);
  if (!q->slots[j].hash) {
    q->slots[j].hash = hash;
    q->used++;
  }
  return ++q->slots[j].count;
}

/* The spider-trap rule (README, Trap guards) a URL new to this crawl breaks, written into why,
 * or false. *hd is u's host: looked up (and made, with its setup steps) only for the query rule,
 * which counts on it, as the URL is queued then anyway; a path trap makes no host of its own.
 * -v names the first rule a known host trips. */
static bool trapped(struct shard *c, const struct core_url *u, struct host_data **hd, char *why,
                    size_t why_size) {
  const struct crawl_config *cfg = c->cfg;
  const char *path = u->text + u->path_off;
  switch (core_path_trap(path, cfg->max_path_repeat, cfg->max_path_segments)) {
    case CORE_TRAP_REPEAT:
      snprintf(why, why_size, "--max-path-repeat %ld: a segment or a pair of them repeats",
               cfg->max_path_repeat);
      break;
    case CORE_TRAP_SEGMENTS:
      snprintf(why, why_size, "--max-path-segments %ld: more path segments",
               cfg->max_path_segments);
      break;
    case CORE_TRAP_NONE: {
      const char *query = strchr(path, '?');
      if (!query || cfg->max_query_variants <= 0)
        return false;
      if (!*hd && !(*hd = crawl__host_for(c, u)))
        return false; /* out of memory: the crawl ends as fatal */
      uint64_t n = query_counts_add(*hd, path, (size_t)(query - path));
      if (!n) {
        crawl__fatal(c, "out of memory");
        return false;
      }
      if (n <= (uint64_t)cfg->max_query_variants)
        return false;
      snprintf(why, why_size, "--max-query-variants %ld: more query strings under this path",
               cfg->max_query_variants);
      break;
    }
  }
  frontier_host *fh = *hd ? (*hd)->fhost : frontier_host_find(c->fr, u->origin);
  struct host_data *known = fh ? frontier_host_data(fh) : NULL;
  if (!known || !known->trap_noted) {
    if (known)
      known->trap_noted = true;
    crawl__note(c, "%s: not following URLs that look like a spider trap (%s), the first %s",
                u->host, why, u->text);
  }
  return true;
}

static void free_host_data(void *p) {
  struct host_data *hd = p;
  query_counts_free(hd->queries);
  free(hd->host);
  free(hd->addr);
  free(hd->robots_error);
  parse_robots_destroy(hd->robots);
  frontier_item_free(hd->resolving);
  free(hd);
}

/* ---- discovery ---- */

static bool regex_any(const struct crawl_regex_list *list, const char *text) {
  for (size_t i = 0; i < list->count; i++)
    if (regexec(&list->items[i], text, 0, NULL, 0) == 0)
      return true;
  return false;
}

/* Whether a request to u goes through a proxy that looks its host up: then the crawl does not
 * (doc/network.md, Proxies). */
static bool proxy_resolves(const struct shard *c, const struct core_url *u) {
  struct fetch_proxies proxies = {c->cfg->proxy_http, c->cfg->proxy_https, c->cfg->noproxy};
  const char *proxy = fetch_proxy_for(&proxies, u->https, u->host);
  return proxy && fetch_proxy_resolves(proxy);
}

struct host_data *crawl__host_for(struct shard *c, const struct core_url *u) {
  frontier_host *fh;
  bool created;
  if (frontier_host_get(c->fr, u->origin, &fh, &created) != CORE_OK) {
    crawl__fatal(c, "out of memory");
    return NULL;
  }
  if (!created)
    return frontier_host_data(fh);
  struct host_data *hd = calloc(1, sizeof(*hd));
  if (!hd || !(hd->host = strdup(u->host))) {
    free(hd);
    crawl__fatal(c, "out of memory");
    return NULL;
  }
  hd->port = u->port;
  hd->host_is_ip = u->host_is_ip;
  hd->redirected_from = CORE_ADDR_NONE;
  hd->crawl = c;
  hd->fhost = fh;
  hd->robots_state = c->cfg->robots ? ROBOTS_PENDING : ROBOTS_KNOWN;
  frontier_host_set_data(fh, hd);
  bool looked_up = !hd->host_is_ip && !proxy_resolves(c, u);
  if (!looked_up) {
    /* an address, or a name only its proxy looks up: the host is its own --ip-delay group */
    frontier_host_set_ip(c->fr, fh, hd->host);
  } else {
    struct frontier_item *resolve = frontier_item_new(FRONTIER_RESOLVE, u->origin, NULL, 0);
    if (!resolve) {
      crawl__fatal(c, "out of memory");
      return NULL;
    }
    frontier_push(c->fr, fh, resolve);
  }
  /* robots.txt is queued once the address is known (on_host_resolved): a host waiting for its
   * lookup holds one item, not two, as a crawl of many seed hosts holds them all at once */
  if (c->cfg->robots && !looked_up && !crawl__queue_robots(c, fh, 0))
    return NULL;
  if (!c->cfg->robots)
    crawl__queue_sitemaps(c, hd); /* with robots.txt, they wait for its Sitemap lines */
  return hd;
}

/* --no-parent: whether u lies at or below the directory of a seed on its host. */
static bool under_a_seed(const struct shard *c, const struct core_url *u) {
  size_t origin_len = strlen(u->origin);
  const char *path = u->text + u->path_off;
  for (size_t i = 0; i < c->seed_dir_count; i++) {
    const char *dir = c->seed_dirs[i]; /* origin + directory, as add_seed_dir makes it */
    if (strncmp(dir, u->origin, origin_len) == 0 && dir[origin_len] == '/' &&
        strncmp(path, dir + origin_len, strlen(dir + origin_len)) == 0)
      return true;
  }
  return false;
}

/* Whether a URL found (not a seed) passes the scope and the user's filters. */
static bool admitted(const struct shard *c, const struct core_url *u, enum offer_kind kind) {
  const struct crawl_config *cfg = c->cfg;
  if (kind == OFFER_SEED)
    return true;
  char ext[32];
  core_url_ext(u, ext, sizeof(ext));
  /* a link or redirect out of scope goes on, to be recorded once as outside (settle) */
  bool found = kind == OFFER_LINK || kind == OFFER_REDIRECT;
  if (!found && !core_scope_contains(c->scope, u->host))
    return false;
  if (cfg->no_parent && !under_a_seed(c, u) && (!found || core_scope_contains(c->scope, u->host)))
    return false;
  if (ext[0] && core_list_has(&cfg->reject_ext, ext))
    return false;
  if (cfg->match.count && !regex_any(&cfg->match, u->text)) {
    c->stats->match_dropped++; /* for the summary, when nothing matched at all */
    return false;
  }
  return !regex_any(&cfg->exclude, u->text);
}

/* A redirect target keeps the depth of the URL that redirected (CLI.md, Depth): found before as
 * a link one level deeper and still queued, it moves up to the redirect's depth. */
/* A page to queue, with its redirect hops so far and its flags; NULL (the crawl ended as fatal)
 * when memory runs out. */
static struct frontier_item *new_page(struct shard *c, const char *url, const char *from, int depth,
                                      int redirects, unsigned flags) {
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, from, depth);
  if (!item) {
    crawl__fatal(c, "out of memory");
    return NULL;
  }
  item->redirects = redirects;
  item->flags = flags;
  return item;
}

static void lower_queued(struct shard *c, const struct core_url *u, const char *from, int depth,
                         int redirects, struct link_how how) {
  frontier_host *fh = frontier_host_find(c->fr, u->origin);
  struct frontier_item *old = fh ? frontier_take_deeper(c->fr, fh, u->text, depth) : NULL;
  if (!old)
    return;
  /* from now on found by the redirect: its page and its via */
  unsigned flags = (old->flags & ~ITEM_VIA_MASK) | (unsigned)how.via << ITEM_VIA_SHIFT;
  struct frontier_item *item = new_page(c, u->text, from, depth, redirects, flags);
  if (!item) {
    frontier_push(c->fr, fh, old);
    return;
  }
  frontier_item_free(old);
  frontier_push(c->fr, fh, item);
}

static void offer(struct shard *c, const struct core_url *u, const char *from, int depth,
                  int redirects, enum offer_kind kind, struct link_how how);

static const struct link_how seed_how = {VIA_SEED, true};

/* A URL one level beyond --depth: its record waits in a temporary file until no page within
 * the depth is pending (see settle_cut), for a redirect of the last level may still reach it. */
static void cut(struct shard *c, const struct frontier_item *probe, const char *url,
                const char *from, int depth) {
  bool fresh;
  if (depth != c->cfg->depth + 1 || c->cfg->depth >= INT_MAX - 1) {
    record(c, probe, url, from, depth, CRAWL_FATE_DEPTH, 0, NULL);
    return;
  }
  /* a Bloom filter: a false positive (one in a million) costs one fetch a redirect made again */
  if ((!c->cut && core_seen_create(CORE_SEEN_BLOOM, 4096, 1e-6, 0x5eed, &c->cut) != CORE_OK) ||
      core_seen_add(c->cut, url, strlen(url), &fresh) != CORE_OK) {
    crawl__fatal(c, "out of memory");
    return;
  }
  if (!c->cut_records && !(c->cut_records = tmpfile())) {
    record(c, probe, url, from, depth, CRAWL_FATE_DEPTH, 0, NULL); /* no room to wait: as before */
    return;
  }
  fprintf(c->cut_records, "%u %s %s\n", probe->flags, from ? from : "-", url);
  c->cut_pending++;
}

/* A redirect within --depth reaching a URL cut one level beyond it: fetched after all, at the
 * redirect's depth (CLI.md: a redirect target keeps the depth of the URL that redirected). */
static bool rescued_from_cut(struct shard *c, const struct core_url *u, int depth) {
  size_t len = strlen(u->text);
  bool fresh;
  if (!c->cut || depth > c->cfg->depth || !core_seen_contains(c->cut, u->text, len))
    return false;
  if ((!c->rescued && core_seen_create(CORE_SEEN_EXACT, 64, 0.5, 0, &c->rescued) != CORE_OK) ||
      core_seen_add(c->rescued, u->text, len, &fresh) != CORE_OK) {
    crawl__fatal(c, "out of memory");
    return false;
  }
  return fresh;
}

/* The records of the URLs cut beyond --depth, once no page within it is pending (or at the end):
 * those a redirect reached were fetched instead. */
static void settle_cut(struct shard *c) {
  if (!c->cut_pending || fflush(c->cut_records) != 0)
    return;
  rewind(c->cut_records);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, c->cut_records)) > 0) {
    if (line[len - 1] == '\n')
      line[len - 1] = '\0';
    char *save = NULL, *flags = strtok_r(line, " ", &save), *from = strtok_r(NULL, " ", &save);
    char *url = strtok_r(NULL, " ", &save);
    if (!url)
      continue;
    if (c->rescued && core_seen_contains(c->rescued, url, strlen(url)))
      continue;
    struct frontier_item probe = {.flags = (unsigned)strtoul(flags, NULL, 10)};
    record(c, &probe, url, strcmp(from, "-") ? from : NULL, c->cfg->depth + 1, CRAWL_FATE_DEPTH, 0,
           NULL);
  }
  free(line);
  c->cut_pending = 0;
  if (ftruncate(fileno(c->cut_records), 0) != 0 || fseek(c->cut_records, 0, SEEK_SET) != 0)
    crawl__fatal(c, "cannot reuse a temporary file: %s", strerror(errno));
}

/* A URL settled without a fetch: a speculative fetch of it is dropped. */
static void settle_unfetched(struct shard *c, struct spec *spec, const struct frontier_item *probe,
                             const char *url, const char *from, int depth, crawl_fate fate,
                             crawl_cause cause, const char *error) {
  if (spec)
    crawl__spec_cancel(c, spec);
  record(c, probe, url, from, depth, fate, cause, error);
}

/* Sets a held page, and the links in it, at the depth its page turned out to have. */
static void held_at(struct held_page *hp, int depth) {
  if (!hp)
    return;
  hp->depth = depth;
  for (size_t i = 0; i < hp->count; i++)
    hp->links[i].depth = depth + 1;
}

/* A speculative page offered for real at depth: from now on an accepted page like any other.
 * Fetched already, its kept outcome is reported now, and its links are held for their level;
 * being fetched, it counts at its depth; queued, it is queued again at its depth. */
static void confirm(struct shard *c, struct spec *e, const char *from, int depth, int redirects,
                    unsigned flags) {
  if (e->done) {
    c->stats->speculated++;
    struct crawl_record rec = e->rec;
    rec.from = from;
    rec.depth = depth;
    report(c, flags, &rec);
    held_at(e->held, depth);
    if (e->held) {
      c->spec_links -= e->held->count;
      crawl__held_queue(c, e->held);
    }
    e->held = NULL;
    struct core_url target;
    if (e->redirect && c->stop != 2 &&
        core_url_resolve(NULL, e->redirect, strlen(e->redirect), SIZE_MAX / 4, &target) ==
            CORE_OK) {
      offer(c, &target, e->url, depth, e->redirects, OFFER_REDIRECT, e->redirect_how);
      core_url_free(&target);
    }
    crawl__spec_remove(c, e);
    return;
  }
  struct frontier_item *item = new_page(c, e->url, from, depth, redirects, flags);
  if (!item)
    return;
  if (e->rq) {
    struct request *rq = e->rq;
    item->attempts = rq->item->attempts;
    frontier_move_pending(c->fr, rq->gate_depth, depth);
    rq->gate_depth = depth;
    held_at(rq->held, depth);
    frontier_item_free(rq->item);
    rq->item = item;
    rq->spec = NULL;
    crawl__spec_remove(c, e);
    return;
  }
  frontier_host *host = e->host;
  struct frontier_item *old = frontier_take_deeper(c->fr, host, e->url, -1);
  if (old) {
    item->attempts = old->attempts;
    item->not_before = old->not_before;
    frontier_item_free(old);
  }
  crawl__spec_remove(c, e);
  frontier_push(c->fr, host, item);
}

/* An admitted URL after the seen filter: printed when fresh, then queued or given its fate. */
static void settle_outside(struct shard *c, const struct core_url *u, const char *from, int depth,
                           struct link_how how);

/* -A: whether a URL of extension ext is printed (and recorded), in scope or out of it. */
static bool accepted_ext(const struct crawl_config *cfg, const char *ext) {
  return !cfg->accept_ext.count || (ext[0] && core_list_has(&cfg->accept_ext, ext));
}

static bool seed_found_early(struct shard *c, const struct core_url *u);
static void settle_over_limit(struct shard *c, const struct host_data *hd,
                              struct frontier_item *item);

static void settle(struct shard *c, const struct core_url *u, bool fresh, const char *from,
                   int depth, int redirects, enum offer_kind kind, struct link_how how) {
  const struct crawl_config *cfg = c->cfg;
  if (fresh && (kind == OFFER_LINK || kind == OFFER_REDIRECT) && seed_found_early(c, u))
    return;
  /* out of scope: new ones only, checked once a URL, not on every link to it */
  if ((kind == OFFER_LINK || kind == OFFER_REDIRECT) &&
      (!fresh || !core_scope_contains(c->scope, u->host))) {
    if (fresh) {
      settle_outside(c, u, from, depth, how);
      return;
    }
    if (kind == OFFER_LINK)
      return; /* seen before: nothing to do, in scope or out */
  }
  /* seeds are always fetched, but printed only when new (--seen); so are the URLs an earlier
   * run left queued, which it printed */
  if (!fresh && kind == OFFER_REDIRECT)
    lower_queued(c, u, from, depth, redirects, how);
  bool rescue = !fresh && kind == OFFER_REDIRECT && rescued_from_cut(c, u, depth);
  if (!fresh && kind != OFFER_SEED && kind != OFFER_RESUME && !rescue)
    return;
  char ext[32];
  core_url_ext(u, ext, sizeof(ext));
  bool printable = accepted_ext(cfg, ext);
  if (fresh) {
    c->stats->discovered++;
    c->stats->printed += printable && kind != OFFER_SEED;
    if (printable && !cfg->jsonl)
      check_output(c, c->sink->url(c->writer, u->text));
  }
  struct frontier_item probe = {.flags = (printable && (fresh || rescue) ? 0 : ITEM_QUIET) |
                                         (kind == OFFER_SEED ? ITEM_SEED : 0) |
                                         (unsigned)how.via << ITEM_VIA_SHIFT};
  /* fetched already, ahead of its level, when it is a speculative page */
  struct spec *spec = fresh ? crawl__spec_find(c, u->text) : NULL;
  if (!how.follow) {
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_ROBOTS, 0, NULL);
    return;
  }
  if (kind == OFFER_REDIRECT && redirects > cfg->max_redirs) {
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_LIMIT, 0, NULL);
    return;
  }
  if (kind != OFFER_SEED && ext[0] && core_list_has(&cfg->skip_ext, ext)) {
    if (!cfg->check_skipped) {
      settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_SKIPPED, 0, NULL);
      return;
    }
    /* --check-skipped: a HEAD request, as polite as any other, whatever its depth; it has no
     * links to follow */
    probe.flags |= ITEM_HEAD;
  }
  if (depth > cfg->depth && !(probe.flags & ITEM_HEAD)) {
    if (spec)
      crawl__spec_cancel(c, spec);
    cut(c, &probe, u->text, from, depth);
    return;
  }
  if (u->unfetchable) {
    /* a URL as the Standard writes it (port 0, a host of punctuation) that no request reaches:
     * printed, and its fate says why it was not fetched */
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_FAILED, CRAWL_CAUSE_OTHER,
                     "no request can reach this URL");
    return;
  }
  /* a URL that would be fetched, found on a page or as a redirect's target: a spider trap? (one
   * cut by depth above is not, and makes no host) */
  struct host_data *hd = NULL;
  if (fresh && (kind == OFFER_LINK || kind == OFFER_REDIRECT)) {
    char why[128];
    if (trapped(c, u, &hd, why, sizeof(why))) {
      settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_TRAP, 0, why);
      return;
    }
  }
  if (spec) {
    confirm(c, spec, from, depth, redirects, probe.flags);
    return;
  }
  if (kind == OFFER_SEED && !hd && crawl__pages_exhausted(c) &&
      !frontier_host_find(c->fr, u->origin)) {
    /* a seed fed after -n was reached (feed_seeds): settled as its page would be once popped,
     * without making a host that would never be asked anything */
    struct frontier_item *item = new_page(c, u->text, from, depth, redirects, probe.flags);
    if (item)
      settle_over_limit(c, NULL, item);
    return;
  }
  if (!hd && !(hd = crawl__host_for(c, u)))
    return;
  if (!hd->reached) {
    hd->reached = true;
    if (how.via >= VIA_REDIRECT && how.via < VIA_PAGE)
      hd->redirected_from = (core_addr_kind)(how.via - VIA_REDIRECT);
  }
  if (hd->dead) {
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS,
                     "DNS lookup failed");
    return;
  }
  struct frontier_item *item = new_page(c, u->text, from, depth, redirects, probe.flags);
  if (!item || frontier_push_new(c->fr, hd->fhost, item) == CORE_OK)
    return;
  /* the spill file is at --queue-disk: the page is not queued, and says why */
  c->stats->queue_full++;
  if (!c->queue_disk_noted) {
    c->queue_disk_noted = true;
    crawl__note(c, "the queue's spill file is at --queue-disk: URLs found from now on are not "
                   "queued (fate limit) until it drains; a larger --queue-disk raises it");
  }
  record_item(c, item, CRAWL_FATE_LIMIT, 0, "--queue-disk: the queue's spill file is full");
  frontier_item_free(item);
}

/* A link out of scope (README, Fates: outside): one record, printed only with
 * --print-outside. With --check-outside it is a checked link instead: requested once, politely,
 * HEAD (GET when HEAD is refused), its fate the answer's, its links not followed. */
static void settle_outside(struct shard *c, const struct core_url *u, const char *from, int depth,
                           struct link_how how) {
  const struct crawl_config *cfg = c->cfg;
  char ext[32];
  core_url_ext(u, ext, sizeof(ext));
  bool printable = accepted_ext(cfg, ext);
  if (printable && cfg->print_outside && !cfg->jsonl)
    check_output(c, c->sink->url(c->writer, u->text));
  struct frontier_item probe = {.flags = (printable ? 0 : ITEM_QUIET) | (unsigned)how.via
                                                                            << ITEM_VIA_SHIFT};
  if (!cfg->check_outside || u->unfetchable) {
    record(c, &probe, u->text, from, depth, CRAWL_FATE_OUTSIDE, 0, NULL);
    return;
  }
  struct host_data *hd = crawl__host_for(c, u);
  if (!hd)
    return;
  if (hd->dead) {
    record(c, &probe, u->text, from, depth, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS,
           "DNS lookup failed");
    return;
  }
  struct frontier_item *item = new_page(c, u->text, from, depth, 0, probe.flags | ITEM_HEAD);
  if (item)
    frontier_push(c->fr, hd->fhost, item);
}

/* A URL found: print it when it is new and in scope, then queue it or settle its fate. Another
 * shard's URL goes to that shard, which decides. */
static void offer(struct shard *c, const struct core_url *u, const char *from, int depth,
                  int redirects, enum offer_kind kind, struct link_how how) {
  if (!admitted(c, u, kind))
    return;
  if (c->outboxes && kind != OFFER_SEED && kind != OFFER_RESUME &&
      crawl__send_if_foreign(c, u, from, depth, redirects, kind == OFFER_REDIRECT ? 'R' : 'L', how))
    return;
  crawl__offer_owned(c, u, from, depth, redirects, kind, how);
}

void crawl__offer_owned(struct shard *c, const struct core_url *u, const char *from, int depth,
                        int redirects, enum offer_kind kind, struct link_how how) {
  bool fresh;
  if (frontier_mark_seen(c->fr, u->text, &fresh) != CORE_OK) {
    crawl__fatal(c, "out of memory");
    return;
  }
  settle(c, u, fresh, from, depth, redirects, kind, how);
}

/* href resolved against base into *u, or false with the reason counted (and noted with -v). */
static bool resolve_href(struct shard *c, const struct core_url *base, const char *href, size_t len,
                         const char *charset, const char *from, struct core_url *u) {
  core_rc rc = core_url_resolve_in(base, href, len, c->cfg->max_url_length, charset, u);
  /* a link's user:password@ is never printed, nor sent (doc/network.md, Logins) */
  if (rc == CORE_OK && strchr(u->text, '@') &&
      (rc = core_url_take_userinfo(u, NULL, NULL)) != CORE_OK)
    core_url_free(u);
  if (rc == CORE_OK)
    return true;
  if (rc == CORE_ETOOLONG) {
    c->stats->too_long++;
  } else if (rc == CORE_ENOMEM) {
    crawl__fatal(c, "out of memory");
  } else {
    /* other schemes (mailto:, javascript:) land here too: they are never printed */
    c->stats->unparsable++;
    if (c->cfg->verbose && len < 200)
      crawl__note(c, "not followed: '%.*s' on %s", (int)len, href, from ? from : "(seed)");
  }
  return false;
}

void crawl__offer_link(struct request *rq, const struct core_url *base, const char *href,
                       size_t len, const char *charset, int depth, struct link_how how) {
  struct shard *c = rq->crawl;
  struct link_batch *b = &rq->links;
  if (!resolve_href(c, base, href, len, charset, rq->item->url, &b->urls[b->count]))
    return;
  if (!admitted(c, &b->urls[b->count], OFFER_LINK)) {
    core_url_free(&b->urls[b->count]);
    return;
  }
  b->depth[b->count] = depth;
  b->how[b->count] = how;
  if (++b->count == LINK_BATCH)
    crawl__offer_links_flush(rq);
}

struct held_page *crawl__held_new(struct shard *c, const char *from, int depth) {
  struct held_page *hp = calloc(1, sizeof(*hp));
  if (!hp || !(hp->from = strdup(from))) {
    free(hp);
    crawl__fatal(c, "out of memory");
    return NULL;
  }
  /* at most the held-link budget of URLs at their longest */
  core_buf_init(&hp->texts, (size_t)c->queue_memory * (c->cfg->max_url_length + 1));
  hp->depth = depth;
  return hp;
}

void crawl__held_add(struct shard *c, struct held_page *hp, const char *url, int depth,
                     struct link_how how) {
  if (hp->count == hp->cap) {
    size_t cap = hp->cap ? hp->cap * 2 : 8;
    struct held_link *links = realloc(hp->links, cap * sizeof(*links));
    if (!links) {
      crawl__fatal(c, "out of memory");
      return;
    }
    hp->links = links;
    hp->cap = cap;
  }
  size_t at = hp->texts.len;
  if (core_buf_add(&hp->texts, url, strlen(url) + 1) != CORE_OK) {
    crawl__fatal(c, "out of memory");
    return;
  }
  hp->links[hp->count++] = (struct held_link){at, depth, how};
  c->held_links++;
}

/* A page's links are all in: its arrays shrink to what they hold, as held pages may wait long and
 * be many (a polite crawl fetching ahead keeps tens of thousands). */
static void held_seal(struct held_page *hp) {
  if (hp->count == 0) {
    free(hp->links);
    hp->links = NULL;
    hp->cap = 0;
  } else if (hp->count < hp->cap) {
    struct held_link *links = realloc(hp->links, hp->count * sizeof(*links));
    if (links) {
      hp->links = links;
      hp->cap = hp->count;
    }
  }
  core_buf_shrink(&hp->texts);
}

static void append_held(struct shard *c, struct held_page *hp) {
  if (hp->depth >= c->held_levels) {
    int n = c->held_levels ? c->held_levels : 16;
    while (n <= hp->depth && n < INT_MAX / 2)
      n *= 2;
    struct held_level *grown = n > hp->depth ? realloc(c->held, (size_t)n * sizeof(*grown)) : NULL;
    if (!grown) {
      /* its links are lost to the run: it is fatal, as any lack of memory */
      crawl__fatal(c, "out of memory");
      return;
    }
    memset(grown + c->held_levels, 0, (size_t)(n - c->held_levels) * sizeof(*grown));
    c->held = grown;
    c->held_levels = n;
  }
  struct held_level *l = &c->held[hp->depth];
  hp->next = NULL;
  if (l->tail)
    l->tail->next = hp;
  else
    l->head = hp;
  l->tail = hp;
  c->held_pages++;
  if (hp->depth < c->held_min)
    c->held_min = hp->depth;
}

struct held_page *crawl__held_take(struct shard *c) {
  if (!c->held_pages)
    return NULL;
  struct held_level *l = &c->held[c->held_min];
  struct held_page *hp = l->head;
  l->head = hp->next;
  if (!l->head)
    l->tail = NULL;
  hp->next = NULL;
  if (--c->held_pages == 0)
    c->held_min = INT_MAX;
  else
    while (!c->held[c->held_min].head)
      c->held_min++;
  return hp;
}

void crawl__held_queue(struct shard *c, struct held_page *hp) {
  frontier_hold(c->fr, hp->depth);
  append_held(c, hp);
}

/* The batch's printed forms and their lengths, as the seen filter takes a batch. */
static void batch_texts(const struct link_batch *b, const char *urls[], size_t lens[]) {
  for (size_t i = 0; i < b->count; i++) {
    urls[i] = b->urls[i].text;
    lens[i] = strlen(urls[i]);
  }
}

/* Moves the batch's links into rq's held page. */
static void hold_links(struct request *rq) {
  struct shard *c = rq->crawl;
  struct link_batch *b = &rq->links;
  if (!rq->held && !(rq->held = crawl__held_new(c, rq->item->url, rq->gate_depth)))
    return;
  /* a link seen already stays seen: offered later it would be dropped, so it is not held (most
   * links of a site lead to pages it knows) */
  const char *urls[LINK_BATCH];
  size_t lens[LINK_BATCH];
  bool seen[LINK_BATCH];
  batch_texts(b, urls, lens);
  core_seen_contains_batch(c->seen, b->count, urls, lens, seen);
  for (size_t i = 0; i < b->count && !c->fatal; i++) {
    if (seen[i])
      continue;
    crawl__held_add(c, rq->held, b->urls[i].text, b->depth[i], b->how[i]);
    crawl__spec_consider(c, &b->urls[i], rq->item->url, b->depth[i], b->how[i].follow);
  }
  for (size_t i = 0; i < b->count; i++)
    core_url_free(&b->urls[i]);
  b->count = 0;
}

void crawl__offer_links_flush(struct request *rq) {
  struct shard *c = rq->crawl;
  struct link_batch *b = &rq->links;
  if (b->count == 0)
    return;
  if (c->stop == 2) {
    /* stopping at once (a fatal error, a second signal, the output gone): nothing more is
     * printed or queued, and nothing is marked seen either, or a save would keep as seen a URL
     * no run ever queues. The page they came from is made again (page_done) */
    for (size_t i = 0; i < b->count; i++)
      core_url_free(&b->urls[i]);
    b->count = 0;
    return;
  }
  /* a page fetched ahead of its level holds its links back until the level comes */
  if (rq->gate_depth >= 0 && rq->item && !c->fatal &&
      (rq->held || rq->gate_depth > frontier_gate(c->fr))) {
    hold_links(rq);
    if (b->count == 0)
      return;
  }
  const char *from = rq->item ? rq->item->url : NULL; /* a retried request gave its item back */
  if (c->outboxes) {                                  /* links of other shards' hosts go to them */
    size_t kept = 0;
    for (size_t i = 0; i < b->count; i++) {
      if (crawl__send_if_foreign(c, &b->urls[i], from, b->depth[i], 0, 'L', b->how[i])) {
        core_url_free(&b->urls[i]);
        continue;
      }
      b->urls[kept] = b->urls[i];
      b->depth[kept] = b->depth[i];
      b->how[kept++] = b->how[i];
    }
    b->count = kept;
    if (!kept)
      return;
  }
  const char *urls[LINK_BATCH];
  size_t lens[LINK_BATCH];
  bool fresh[LINK_BATCH];
  batch_texts(b, urls, lens);
  if (frontier_mark_seen_batch(c->fr, b->count, urls, lens, fresh) != CORE_OK)
    crawl__fatal(c, "out of memory");
  for (size_t i = 0; i < b->count; i++) {
    settle(c, &b->urls[i], fresh[i], from, b->depth[i], 0, OFFER_LINK, b->how[i]);
    core_url_free(&b->urls[i]);
  }
  b->count = 0;
}

/* ---- requests ---- */

struct request *crawl__request_new(struct shard *c, frontier_host *host,
                                   struct frontier_item *item) {
  struct request *rq = calloc(1, sizeof(*rq));
  if (!rq)
    return NULL;
  rq->crawl = c;
  rq->host = host;
  rq->item = item;
  rq->gate_depth = item->kind == FRONTIER_PAGE ? item->depth : -1;
  rq->addr_kind = CORE_ADDR_NONE; /* until it is sent */
  core_buf_init(&rq->body, PARSE_ROBOTS_MAX_BYTES);
  rq->next = c->active;
  if (rq->next)
    rq->next->prev = rq;
  c->active = rq;
  return rq;
}

void crawl__request_free(struct request *rq) {
  struct shard *c = rq->crawl;
  crawl__offer_links_flush(rq); /* empty unless a parser was cut short: its links still count */
  if (rq->held)
    held_seal(rq->held);
  if (rq->spec)
    crawl__spec_request_ended(c, rq);
  if (rq->held) { /* its depth stays pending until its links are offered */
    append_held(c, rq->held);
  } else if (rq->gate_depth >= 0) {
    frontier_release(c->fr, rq->gate_depth);
  }
  if (rq->prev)
    rq->prev->next = rq->next;
  else
    c->active = rq->next;
  if (rq->next)
    rq->next->prev = rq->prev;
  parse_html_destroy(rq->html);
  parse_css_destroy(rq->css);
  parse_js_destroy(rq->js);
  parse_sitemap_destroy(rq->sitemap);
  core_url_free(&rq->url);
  core_url_free(&rq->base);
  core_buf_free(&rq->body);
  frontier_item_free(rq->item);
  free(rq);
}

static const struct fetch_handler *handler_for(frontier_kind kind) {
  switch (kind) {
    case FRONTIER_ROBOTS:
      return &crawl__robots_handler;
    case FRONTIER_SITEMAP:
      return &crawl__sitemap_handler;
    default:
      return &page_handler;
  }
}

static const char *addr_kind_name(core_addr_kind kind) {
  switch (kind) {
    case CORE_ADDR_PUBLIC:
      return "public";
    case CORE_ADDR_PRIVATE:
      return "private";
    case CORE_ADDR_LINK_LOCAL:
      return "link-local";
    case CORE_ADDR_LOOPBACK:
      return "loopback";
    default:
      return "unknown";
  }
}

/* The kind of address of the host whose redirect led to rq (a robots.txt's hop: the host's own;
 * a robots.txt: the one that led to its host first; a page: the one its via keeps), or
 * CORE_ADDR_NONE when rq is no redirect's or it is not known. */
static core_addr_kind redirected_from(const struct request *rq) {
  const struct frontier_item *item = rq->item;
  unsigned via = ITEM_VIA(item->flags);
  const struct host_data *hd = frontier_host_data(rq->host);
  if (item->kind == FRONTIER_ROBOTS && item->redirects > 0) {
    const char *ip = hd->host_is_ip ? hd->host : hd->addr;
    return ip ? core_addr_kind_of(ip) : CORE_ADDR_NONE;
  }
  if (item->kind == FRONTIER_ROBOTS)
    return hd->redirected_from;
  if (item->kind == FRONTIER_PAGE && via >= VIA_REDIRECT && via < VIA_PAGE)
    return (core_addr_kind)(via - VIA_REDIRECT);
  return CORE_ADDR_NONE;
}

/* A redirect into a machine's own networks (a private, link-local or loopback address) from a
 * host outside that kind of network is refused unless --allow-private (doc/network.md, Private
 * addresses): a public site cannot make the crawler ask a router, a cloud's metadata service or
 * a local admin page. */
static bool refused_inside(const struct request *rq, const char *ip, char *why, size_t size) {
  if (rq->crawl->cfg->allow_private || rq->addr_kind == CORE_ADDR_PUBLIC ||
      rq->addr_kind == CORE_ADDR_NONE)
    return false;
  core_addr_kind from = redirected_from(rq);
  if (from == CORE_ADDR_NONE || from == rq->addr_kind)
    return false;
  snprintf(why, size,
           "redirected from a %s address to the %s address %s (--allow-private allows it)",
           addr_kind_name(from), addr_kind_name(rq->addr_kind), ip);
  return true;
}

/* Whether rq follows a redirect to another origin than the one that sent it: it gets none of
 * the user's -H headers then (doc/network.md, Private addresses). */
static bool crosses_origin(const struct request *rq) {
  const struct frontier_item *item = rq->item;
  if (item->kind == FRONTIER_ROBOTS)
    return item->redirects > 0 && strcmp(rq->url.origin, frontier_host_origin(rq->host)) != 0;
  unsigned via = ITEM_VIA(item->flags);
  if (item->kind != FRONTIER_PAGE || via < VIA_REDIRECT || via >= VIA_PAGE || !item->from)
    return false;
  size_t n = strlen(rq->url.origin); /* a printed URL starts with its origin */
  return strncmp(item->from, rq->url.origin, n) != 0 || item->from[n] != '/';
}

static void launch(struct request *rq, const char *addr) {
  struct shard *c = rq->crawl;
  frontier_kind kind = rq->item->kind;
  const char *ip = rq->url.host_is_ip ? rq->url.host : addr;
  rq->addr_kind = ip ? core_addr_kind_of(ip) : CORE_ADDR_NONE;
  char why[192];
  if (refused_inside(rq, ip, why, sizeof(why))) {
    crawl__request_failed_to_start(rq, FETCH_EOTHER, why);
    return;
  }
  struct fetch_request fr = {
      .url = rq->url.text,
      .host = rq->url.host,
      .port = rq->url.port,
      .addr = rq->url.host_is_ip ? NULL : addr,
      .max_size = kind == FRONTIER_ROBOTS    ? PARSE_ROBOTS_MAX_BYTES
                  : kind == FRONTIER_SITEMAP ? PARSE_SITEMAP_MAX_BYTES
                                             : c->cfg->max_size,
      .head_only = (rq->item->flags & (ITEM_HEAD | ITEM_GET)) == ITEM_HEAD,
      .no_user_headers = crosses_origin(rq),
      .handler = handler_for(kind),
      .arg = rq,
      .login = crawl__login_for(c, rq->url.host, rq->url.port),
  };
  if (fetch_start(c->engine, &fr) != CORE_OK)
    crawl__request_failed_to_start(rq, FETCH_EOTHER, "cannot start the transfer");
}

static void on_request_resolved(void *arg, core_rc rc, const char *addr) {
  struct request *rq = arg;
  rq->crawl->lookups_in_flight--;
  if (rc)
    crawl__request_failed_to_start(rq, FETCH_EDNS, "DNS lookup failed");
  else
    launch(rq, addr);
}

/* Starts rq, looking its host up first when it is not the queue's own (a redirected robots.txt). */
void crawl__start_request(struct shard *c, struct request *rq) {
  struct host_data *hd = frontier_host_data(rq->host);
  crawl__request_began(c);
  if (proxy_resolves(c, &rq->url)) {
    launch(rq, NULL);
    return;
  }
  if (rq->url.host_is_ip || (strcmp(rq->url.host, hd->host) == 0 && rq->url.port == hd->port)) {
    launch(rq, hd->addr);
    return;
  }
  const char *addr_now;
  c->lookups_in_flight++;
  if (fetch_resolve(c->engine, rq->url.host, rq->url.port, on_request_resolved, rq, &addr_now)) {
    c->lookups_in_flight--;
    crawl__request_failed_to_start(rq, FETCH_EDNS, "DNS lookup failed");
  } else if (addr_now) {
    c->lookups_in_flight--;
    launch(rq, addr_now);
  }
}

bool crawl__is_transient_status(long status) {
  return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 ||
         status == 504;
}

void crawl__http_error(const struct shard *c, long status, double retry_after, char *out,
                       size_t size) {
  if (retry_after > c->cfg->max_delay)
    snprintf(out, size, "HTTP %ld, Retry-After %.0f s beyond --max-delay", status, retry_after);
  else
    snprintf(out, size, "HTTP %ld", status);
}

bool crawl__retry_after_too_long(struct shard *c, frontier_host *host, double retry_after) {
  if (retry_after <= c->cfg->max_delay)
    return false;
  /* the server asks for longer than --max-delay: asking again sooner would be rude, waiting
   * that long is more than the user allows; the URL is given up, and its host still rests what
   * it may */
  frontier_host_defer(c->fr, host, core_now() + c->cfg->max_delay);
  return true;
}

bool crawl__retry(struct shard *c, struct request *rq, double retry_after) {
  struct frontier_item *item = rq->item;
  if (item->attempts >= c->cfg->retries || c->stop || (rq->spec && rq->spec->cancelled) ||
      crawl__retry_after_too_long(c, rq->host, retry_after))
    return false;
  item->attempts++;
  c->stats->retries++;
  item->not_before = crawl__retry_at(c, rq->host, item->attempts, retry_after);
  frontier_push(c->fr, rq->host, item);
  rq->item = NULL;
  return true;
}

crawl_cause crawl__cause_of(fetch_error error) {
  switch (error) {
    case FETCH_EDNS:
      return CRAWL_CAUSE_DNS;
    case FETCH_ECONNECT:
      return CRAWL_CAUSE_CONNECT;
    case FETCH_ETIMEOUT:
      return CRAWL_CAUSE_TIMEOUT;
    case FETCH_ETLS:
      return CRAWL_CAUSE_TLS;
    case FETCH_EPROTOCOL:
      return CRAWL_CAUSE_PROTOCOL;
    default:
      return CRAWL_CAUSE_OTHER;
  }
}

bool crawl__is_transient_error(fetch_error error) {
  return error == FETCH_EDNS || error == FETCH_ECONNECT || error == FETCH_ETIMEOUT;
}

/* ---- pages ---- */

static bool is_html_type(const char *type) {
  size_t n = strcspn(type, "; \t");
  return (n == 9 && strncasecmp(type, "text/html", 9) == 0) ||
         (n == 21 && strncasecmp(type, "application/xhtml+xml", 21) == 0);
}

/* A script's Content-Type (the HTML Standard's JavaScript MIME types that servers send). */
static bool is_js_type(const char *type) {
  static const char *const types[] = {"application/javascript", "text/javascript",
                                      "application/x-javascript", "application/ecmascript",
                                      "text/ecmascript"};
  size_t n = strcspn(type, "; \t");
  for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
    if (strlen(types[i]) == n && strncasecmp(type, types[i], n) == 0)
      return true;
  return false;
}

static bool is_css_type(const char *type) {
  size_t n = strcspn(type, "; \t");
  return n == 8 && strncasecmp(type, "text/css", 8) == 0;
}

/* A link in a fetched style sheet, or (--js) script: resolved against the file's own URL. */
static void on_css_event(void *arg, parse_event event, const char *value, size_t len) {
  struct request *rq = arg;
  if (rq->crawl->stop == 2 || event != PARSE_LINK)
    return;
  struct link_how how = {VIA_PAGE + (rq->css ? PARSE_VIA_CSS : PARSE_VIA_JS), !rq->nofollow};
  crawl__offer_link(rq, &rq->url, value, len, NULL, rq->item->depth + 1, how);
}

/* The charset parameter of a Content-Type, copied into out ("" when absent). */
static void type_charset(const char *type, char *out, size_t size) {
  out[0] = '\0';
  const char *p = strcasestr(type, "charset=");
  if (!p)
    return;
  p += 8;
  if (*p == '"')
    p++;
  size_t n = strcspn(p, "\"; \t");
  if (n >= size)
    return;
  memcpy(out, p, n);
  out[n] = '\0';
}

static void on_html_event(void *arg, parse_event event, const char *value, size_t len) {
  struct request *rq = arg;
  struct shard *c = rq->crawl;
  if (c->stop == 2)
    return;
  switch (event) {
    case PARSE_NOFOLLOW:
      rq->nofollow = true;
      return;
    case PARSE_BASE:
      if (!rq->base.text && core_url_resolve_in(&rq->url, value, len, c->cfg->max_url_length,
                                                parse_html_charset(rq->html), &rq->base) != CORE_OK)
        memset(&rq->base, 0, sizeof(rq->base));
      return;
    case PARSE_LINK: {
      const struct core_url *base = rq->base.text ? &rq->base : &rq->url;
      struct link_how how = {VIA_PAGE + parse_html_link_via(rq->html), !rq->nofollow};
      crawl__offer_link(rq, base, value, len, parse_html_charset(rq->html), rq->item->depth + 1,
                        how);
      return;
    }
  }
}

static bool start_html(struct request *rq, const char *charset) {
  if (parse_html_create(charset, on_html_event, rq, &rq->html) != CORE_OK) {
    rq->html = NULL;
    return false;
  }
  if (rq->crawl->cfg->js)
    parse_html_scan_scripts(rq->html);
  return true;
}

/* A type that says nothing: the body's first bytes tell (the MIME Sniffing Standard's unknown
 * types), as wget and browsers do. */
static bool is_unknown_type(const char *type) {
  size_t n = strcspn(type, "; \t");
  return n == 0 || (n == 15 && strncasecmp(type, "unknown/unknown", 15) == 0) ||
         (n == 19 && strncasecmp(type, "application/unknown", 19) == 0) ||
         (n == 3 && strncmp(type, "*/*", 3) == 0);
}

/* The first bytes of a body of no known type are in: parsed as HTML if they look like it. */
static void sniffed(struct request *rq) {
  rq->sniffing = false;
  if (parse_html_sniff(rq->body.data, rq->body.len) && start_html(rq, NULL))
    parse_html_feed(rq->html, rq->body.data, rq->body.len);
  core_buf_reset(&rq->body);
}

static bool page_head(void *arg, const struct fetch_head *head) {
  struct request *rq = arg;
  rq->status = head->status;
  snprintf(rq->type, sizeof(rq->type), "%s", head->content_type ? head->content_type : "");
  rq->nofollow = head->nofollow;
  bool parse = head->status >= 200 && head->status < 300 && !(rq->item->flags & ITEM_HEAD);
  if (parse && is_unknown_type(rq->type)) {
    rq->sniffing = true; /* page_body decides */
    return true;
  }
  if (parse && is_css_type(head->content_type)) {
    if (parse_css_create(on_css_event, rq, &rq->css) != CORE_OK) {
      rq->css = NULL;
      return false;
    }
    return true;
  }
  if (parse && rq->crawl->cfg->js && is_js_type(head->content_type)) {
    if (parse_js_create(on_css_event, rq, &rq->js) != CORE_OK) { /* links as a sheet's */
      rq->js = NULL;
      return false;
    }
    return true;
  }
  if (!parse || !is_html_type(head->content_type))
    return false;
  char charset[64];
  type_charset(head->content_type, charset, sizeof(charset));
  return start_html(rq, charset[0] ? charset : NULL);
}

static void page_body(void *arg, const char *data, size_t len) {
  struct request *rq = arg;
  if (rq->sniffing) {
    size_t take = PARSE_SNIFF_BYTES - rq->body.len;
    take = take < len ? take : len;
    if (core_buf_add(&rq->body, data, take) != CORE_OK || rq->body.len < PARSE_SNIFF_BYTES)
      return;
    sniffed(rq);
    data += take;
    len -= take;
  }
  if (rq->html)
    parse_html_feed(rq->html, data, len);
  else if (rq->css)
    parse_css_feed(rq->css, data, len);
  else if (rq->js)
    parse_js_feed(rq->js, data, len);
  crawl__offer_links_flush(rq);
}

bool crawl__cut_short(struct request *rq) {
  /* its parser's links were dropped since the crawl began stopping at once (a fatal error ends
   * one turn of the loop in which this answer came too): reported fetched, it would take them
   * along. It stays among the requests cut short, which a --state save keeps to be made again,
   * and the end reports as pending */
  return rq->crawl->stop == 2;
}

static void page_done(void *arg, const struct fetch_result *res) {
  struct request *rq = arg;
  struct shard *c = rq->crawl;
  struct frontier_item *item = rq->item;
  double now = core_now();
  crawl__request_ended(c);
  frontier_end(c->fr, rq->host, item, now, res->seconds);
  if (crawl__cut_short(rq))
    return;
  if (res->error != FETCH_OK) {
    crawl__note(c, "%s: %s", item->url, res->error_text);
    if (!(crawl__is_transient_error(res->error) && crawl__retry(c, rq, -1)))
      record_item(c, item, CRAWL_FATE_FAILED, crawl__cause_of(res->error), res->error_text);
    crawl__request_free(rq);
    return;
  }
  c->stats->pages++;
  c->stats->bytes += res->bytes;
  /* a body cut at --max-size ends in the middle of something: finishing would hand over the
   * half of a tag or url() as if it were whole (a made-up link), so what was cut is dropped */
  if (rq->sniffing) /* a body of no known type, shorter than what is sniffed */
    sniffed(rq);
  if (rq->html && !res->truncated)
    parse_html_finish(rq->html);
  else if (rq->css && !res->truncated)
    parse_css_finish(rq->css);
  else if (rq->js && !res->truncated)
    parse_js_finish(rq->js);
  crawl__offer_links_flush(rq);
  long status = res->head.status;
  bool head = (item->flags & (ITEM_HEAD | ITEM_GET)) == ITEM_HEAD;
  crawl__note(c, "%s%s -> %ld %s %llu B %.0f ms%s", head ? "HEAD " : "", item->url, status,
              rq->type[0] ? rq->type : "-", (unsigned long long)res->bytes, res->seconds * 1000,
              res->truncated ? " (cut)" : "");
  if (crawl__is_transient_status(status) && crawl__retry(c, rq, res->head.retry_after)) {
    crawl__request_free(rq);
    return;
  }
  if (head && (status == 405 || status == 501) && !c->stop) {
    /* a server that refuses HEAD is asked with GET, in the link's next turn on its host */
    item->flags |= ITEM_GET;
    frontier_push(c->fr, rq->host, item);
    rq->item = NULL;
    crawl__request_free(rq);
    return;
  }
  struct crawl_record rec = {.url = item->url,
                             .from = item->from,
                             .depth = item->depth,
                             .fate = CRAWL_FATE_FETCHED,
                             .status = status,
                             .type = rq->type[0] ? rq->type : NULL,
                             .bytes = res->bytes,
                             .ms = res->seconds * 1000};
  char error[96];
  if (status >= 400 || status < 100) {
    crawl__http_error(c, status, res->head.retry_after, error, sizeof(error));
    rec.fate = CRAWL_FATE_FAILED;
    rec.cause = CRAWL_CAUSE_HTTP;
    rec.error = error;
  }
  /* a redirect's record names its target, which is then offered like a link */
  struct core_url target = {0};
  bool redirect = status >= 300 && status < 400 && res->head.location &&
                  resolve_href(c, &rq->url, res->head.location, strlen(res->head.location), NULL,
                               item->url, &target);
  rec.location = redirect ? target.text : NULL;
  report(c, item->flags, &rec);
  /* its target remembers what kind of address sent it there (crawl__start_request checks) */
  struct link_how how = {(unsigned char)(VIA_REDIRECT + rq->addr_kind), true};
  if (redirect && (item->flags & ITEM_SPEC))
    crawl__spec_keep_redirect(c, item->url, target.text, item->redirects + 1, how);
  else if (redirect)
    offer(c, &target, item->url, item->depth, item->redirects + 1, OFFER_REDIRECT, how);
  core_url_free(&target);
  crawl__request_free(rq);
}

static const struct fetch_handler page_handler = {page_head, page_body, page_done};

void crawl__request_failed_to_start(struct request *rq, fetch_error error, const char *why) {
  struct fetch_result res = {.error = error, .error_text = why};
  handler_for(rq->item->kind)->on_done(rq, &res);
}

/* ---- DNS ---- */

static void drain_dead_host(struct shard *c, struct host_data *hd) {
  struct frontier_item *item;
  while ((item = frontier_drain_host(c->fr, hd->fhost))) {
    if (item->kind == FRONTIER_PAGE)
      record_item(c, item, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS, "DNS lookup failed");
    frontier_item_free(item);
  }
}

static void on_host_resolved(void *arg, core_rc rc, const char *addr) {
  struct host_data *hd = arg;
  struct shard *c = hd->crawl;
  struct frontier_item *item = hd->resolving;
  hd->resolving = NULL;
  c->lookups_in_flight--;
  frontier_end(c->fr, hd->fhost, item, core_now(), 0);
  if (rc == CORE_OK) {
    frontier_item_free(item);
    if (!(hd->addr = strdup(addr)) || frontier_host_set_ip(c->fr, hd->fhost, addr) != CORE_OK)
      crawl__fatal(c, "out of memory");
    else if (c->cfg->robots && hd->robots_state == ROBOTS_PENDING)
      crawl__queue_robots(c, hd->fhost, 0);
    return;
  }
  crawl__note(c, "%s: DNS lookup failed", hd->host);
  if (hd->dns_attempts < c->cfg->retries && !c->stop) {
    hd->dns_attempts++;
    c->stats->retries++;
    item->not_before = core_now() + crawl__backoff(c->cfg, hd->dns_attempts);
    frontier_push(c->fr, hd->fhost, item);
    return;
  }
  frontier_item_free(item);
  hd->dead = true;
  drain_dead_host(c, hd);
}

static void start_lookup(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  struct host_data *hd = frontier_host_data(fh);
  hd->resolving = item;
  c->lookups_in_flight++;
  const char *addr_now;
  core_rc rc = fetch_resolve(c->engine, hd->host, hd->port, on_host_resolved, hd, &addr_now);
  if (rc || addr_now)
    on_host_resolved(hd, rc ? CORE_EDNS : CORE_OK, addr_now);
}

/* ---- scheduling ---- */

static void release_page(struct shard *c, const struct frontier_item *item);

bool crawl__pages_exhausted(const struct shard *c) {
  if (crawl__run_pages_leased(c->run)) /* the whole run's -n, which the bridge reads */
    return crawl__run_pages_final(c->run);
  return c->cfg->max_pages >= 0 && crawl__run_pages_started(c->run) >= c->cfg->max_pages;
}

/* -n with --cluster: a page waits while this process has no page leased and the run may still
 * lease it one (another process may give back what it will not use). */
static bool wait_for_lease(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  if (!crawl__run_pages_leased(c->run) || crawl__run_pages_final(c->run) ||
      crawl__run_lease_left(c->run) > 0)
    return false;
  frontier_cancel(c->fr, fh, item);
  release_page(c, item); /* and pending again once pushed back */
  item->not_before = core_now() + LEASE_WAIT;
  frontier_push(c->fr, fh, item);
  return true;
}

/* A popped page settled here, without a request: it no longer holds its depth. */
static void release_page(struct shard *c, const struct frontier_item *item) {
  if (item->kind == FRONTIER_PAGE)
    frontier_release(c->fr, item->depth);
}

/* The path and query of a printed URL: from the first '/' after its authority (a printed
 * userinfo has its '/' percent-encoded). */
static const char *path_of(const char *url) {
  const char *authority = strstr(url, "://");
  const char *path = authority ? strchr(authority + 3, '/') : NULL;
  return path ? path : "/";
}

/* The fate of a queued page settled without a request (a limit reached, the crawl stopped):
 * when a rule of its host's robots.txt, already at hand, excludes it, that is its fate, as in a
 * crawl without the limit or the stop (README, Fates); otherwise the one given. */
static crawl_fate unfetched_fate(const struct shard *c, const struct host_data *hd,
                                 const struct frontier_item *item, crawl_fate fate) {
  if (c->cfg->robots && hd && hd->robots_state == ROBOTS_KNOWN &&
      !parse_robots_allowed(hd->robots, path_of(item->url)))
    return CRAWL_FATE_ROBOTS;
  return fate;
}

/* A page a limit keeps from being fetched (hd NULL: its host was never made): its record, and
 * it is left for a later run that raises the limit. Frees item. */
static void settle_over_limit(struct shard *c, const struct host_data *hd,
                              struct frontier_item *item) {
  crawl_fate fate = unfetched_fate(c, hd, item, CRAWL_FATE_LIMIT);
  if (fate == CRAWL_FATE_LIMIT)
    crawl__leave_for_next_run(c, item);
  record_item(c, item, fate, 0, NULL);
  frontier_item_free(item);
}

static void start_page(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  struct host_data *hd = frontier_host_data(fh);
  const struct crawl_config *cfg = c->cfg;
  if (hd->dead) {
    frontier_cancel(c->fr, fh, item);
    release_page(c, item);
    record_item(c, item, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS, "DNS lookup failed");
    frontier_item_free(item);
    return;
  }
  if (item->kind == FRONTIER_PAGE && wait_for_lease(c, fh, item))
    return;
  if (crawl__pages_exhausted(c) ||
      (cfg->max_pages_per_host >= 0 && hd->pages_started >= cfg->max_pages_per_host)) {
    frontier_cancel(c->fr, fh, item);
    release_page(c, item);
    settle_over_limit(c, hd, item);
    return;
  }
  if (cfg->robots && hd->robots_state != ROBOTS_PENDING &&
      core_now() - hd->robots_time > ROBOTS_MAX_AGE) {
    /* the cached robots.txt is too old: fetch it again before this page, which waits behind */
    frontier_cancel(c->fr, fh, item);
    release_page(c, item); /* and pending again once pushed back */
    hd->robots_state = ROBOTS_PENDING;
    hd->robots_attempts = 0;
    if (crawl__queue_robots(c, fh, 0))
      frontier_push(c->fr, fh, item);
    else
      frontier_item_free(item);
    return;
  }
  struct request *rq = crawl__request_new(c, fh, item);
  if (rq && (item->flags & ITEM_SPEC) && (rq->spec = crawl__spec_find(c, item->url)))
    rq->spec->rq = rq;
  core_rc rc = rq ? core_url_resolve(NULL, item->url, strlen(item->url), SIZE_MAX / 4, &rq->url)
                  : CORE_ENOMEM;
  if (rc) {
    frontier_cancel(c->fr, fh, item);
    if (rc == CORE_ENOMEM) {
      crawl__fatal(c, "out of memory");
    } else {
      /* a printed URL always parses again (fuzzed); should one not, it fails alone */
      record_item(c, item, CRAWL_FATE_FAILED, CRAWL_CAUSE_OTHER, "unusable URL");
    }
    if (rq) {
      crawl__request_free(rq);
    } else {
      release_page(c, item);
      frontier_item_free(item);
    }
    return;
  }
  const char *path = rq->url.text + rq->url.path_off;
  if (hd->robots_state == ROBOTS_DISALLOW_ALL) {
    /* not a rule: the host's robots.txt could not be fetched, which is a failure to report */
    frontier_cancel(c->fr, fh, item);
    record_item(c, item, CRAWL_FATE_FAILED, hd->robots_cause, hd->robots_error);
    crawl__request_free(rq);
    return;
  }
  if (!parse_robots_allowed(hd->robots, path)) {
    frontier_cancel(c->fr, fh, item);
    record_item(c, item, CRAWL_FATE_ROBOTS, 0, NULL);
    crawl__request_free(rq);
    return;
  }
  if (!crawl__run_take_page(c->run, cfg->max_pages)) {
    /* another shard took the last page -n allowed (or leased) since the check above */
    frontier_cancel(c->fr, fh, item);
    if (!crawl__pages_exhausted(c)) { /* --cluster: it waits for the next lease */
      rq->item = NULL;
      crawl__request_free(rq); /* its depth is no longer pending ... */
      item->not_before = core_now() + LEASE_WAIT;
      frontier_push(c->fr, fh, item); /* ... until pushed back */
      return;
    }
    crawl__leave_for_next_run(c, item);
    record_item(c, item, CRAWL_FATE_LIMIT, 0, NULL);
    crawl__request_free(rq);
    return;
  }
  hd->pages_started++;
  crawl__start_request(c, rq);
}

static void set_lookahead(struct shard *c);

void crawl__held_free(struct shard *c, struct held_page *hp) {
  if (!hp)
    return;
  c->held_links -= hp->count;
  core_buf_free(&hp->texts);
  free(hp->links);
  free(hp->from);
  free(hp);
}

/* Offers the links of pages done ahead of their level once the level has come (all of them
 * when nothing else is left to wait for), and lets pages run ahead while the held links stay
 * within the queue's memory budget. */
static void replay_held(struct shard *c, bool all) {
  while (c->held_pages && (all || c->held_min <= frontier_gate(c->fr))) {
    struct held_page *hp = crawl__held_take(c);
    for (size_t i = 0; i < hp->count && c->stop != 2 && !c->fatal; i++) {
      /* a printed form parses again to the same URL (tests/fuzz/fuzz_url.c) */
      const struct held_link *l = &hp->links[i];
      const char *text = hp->texts.data + l->text;
      struct core_url u;
      core_rc rc = core_url_resolve_in(NULL, text, strlen(text), c->cfg->max_url_length, NULL, &u);
      if (rc == CORE_ENOMEM)
        crawl__fatal(c, "out of memory");
      if (rc)
        continue;
      offer(c, &u, hp->from, l->depth, 0, OFFER_LINK, l->how);
      core_url_free(&u);
    }
    frontier_release(c->fr, hp->depth);
    crawl__held_free(c, hp);
  }
  set_lookahead(c);
}

/* How far below the gate pages may start: one level while the links held back stay within the
 * queue's memory budget (off at it, on again at half of it: each switch revisits every host);
 * and every level, for speculative pages, while they stay within half of it and their kept links
 * within twice it (on again at half of each). A kept link costs its printed form and 16 bytes
 * (held_seal), a speculative page a few hundred: at the default budget of 100,000 they stay
 * within some 30 MB, and a polite crawl of 1,000 hosts x 30 pages never waits for them. */
static void set_lookahead(struct shard *c) {
  uint64_t budget = c->queue_memory ? c->queue_memory : UINT64_MAX / 2;
  size_t real = c->held_links - c->spec_links;
  if (real >= budget)
    c->ahead = false;
  else if (real <= budget / 2)
    c->ahead = true;
  if (c->spec_links >= budget * 2 || c->spec_count >= budget / 2)
    c->spec_ahead = false;
  else if (c->spec_links <= budget && c->spec_count <= budget / 4)
    c->spec_ahead = c->spec_on;
  frontier_set_lookahead(c->fr, !c->ahead ? 0 : c->spec_ahead ? SPEC_LEVELS : 1);
}

static void pop_and_start(struct shard *c);

static bool seeds_waiting(const struct shard *c);

static bool idle(const struct shard *c) {
  return !seeds_waiting(c) && c->requests_in_flight == 0 && c->lookups_in_flight == 0 &&
         frontier_queued(c->fr) == 0;
}

/* Whether replay_held has links to offer now. */
static bool replay_due(const struct shard *c) {
  return c->held_pages && (c->held_min <= frontier_gate(c->fr) || idle(c));
}

static void feed_seeds(struct shard *c);

static void schedule(struct shard *c) {
  /* pages settled without a request (robots.txt rules, limits) can move the gate or leave the
   * crawl idle: their held links are offered in the same turn, not after a wait */
  for (int round = 0; round < 8; round++) {
    feed_seeds(c);
    pop_and_start(c);
    if (c->stop || c->fatal || !replay_due(c))
      break;
  }
  if (c->cut_pending && frontier_gate(c->fr) > c->cfg->depth)
    settle_cut(c);
  if (frontier_error(c->fr) != CORE_OK)
    crawl__fatal(c, "cannot read queued URLs back from their temporary file: %s",
                 core_rc_str(frontier_error(c->fr)));
}

void crawl__request_began(struct shard *c) {
  c->requests_in_flight++;
  if (c->slot_held)
    c->slot_held = false; /* the request has it now */
  else
    crawl__run_count_slot(c->run); /* begun elsewhere: counted all the same, so its end balances */
}

void crawl__request_ended(struct shard *c) {
  c->requests_in_flight--;
  crawl__run_give_slot(c->run, c->cfg->concurrency, c->shard);
}

/* The slot pop_and_start took, when no request took it. */
static void give_slot_back(struct shard *c) {
  if (!c->slot_held)
    return;
  c->slot_held = false;
  crawl__run_give_slot(c->run, c->cfg->concurrency, c->shard);
}

/* Offers the held links whose level has come, then starts what the frontier has ready. */
static void pop_and_start(struct shard *c) {
  double now = core_now();
  /* -n across processes reached: what pages fetched ahead found goes to its owners now, while
   * every process still runs (see finished) */
  replay_held(c, (idle(c) && !c->outboxes) ||
                     (crawl__run_pages_leased(c->run) && crawl__run_pages_final(c->run)));
  /* a slot of -c (shared by the shards) is held for each item popped, and kept by the request
   * it starts */
  while (!c->stop && crawl__run_take_slot(c->run, c->cfg->concurrency)) {
    c->slot_held = true;
    /* --rate: a turn is taken before the pop (so no item goes back to its queue out of order)
     * and given back when what was popped makes no request */
    double rate_next;
    if (!crawl__run_take_rate(c->run, now, &rate_next)) {
      c->rate_until = rate_next;
      give_slot_back(c);
      break;
    }
    frontier_host *fh;
    struct frontier_item *item = frontier_pop(c->fr, now, &fh);
    if (!item || item->kind == FRONTIER_RESOLVE)
      crawl__run_give_rate(c->run, rate_next);
    if (!item) {
      give_slot_back(c);
      break;
    }
    switch (item->kind) {
      case FRONTIER_RESOLVE:
        if (crawl__pages_exhausted(c)) { /* no page of it will be fetched: its pages settle */
          frontier_cancel(c->fr, fh, item);
          frontier_item_free(item);
        } else if (c->lookups_in_flight >= c->lookups_max) {
          /* a burst of queries overflows a resolver's socket, and each lost one costs a
           * timeout: the lookup waits for one in flight to end */
          frontier_cancel(c->fr, fh, item);
          item->not_before = now + 0.005;
          frontier_push(c->fr, fh, item);
        } else {
          start_lookup(c, fh, item);
        }
        break;
      case FRONTIER_ROBOTS:
        if (crawl__pages_exhausted(c)) {
          frontier_cancel(c->fr, fh, item);
          frontier_item_free(item);
        } else {
          crawl__start_robots(c, fh, item);
        }
        break;
      case FRONTIER_PAGE:
      case FRONTIER_SITEMAP:
        start_page(c, fh, item);
        break;
    }
    give_slot_back(c); /* no request began: a lookup, or settled without one */
  }
}

static bool finished(const struct shard *c) {
  if (c->stop == 2)
    return true;
  if (c->requests_in_flight)
    return false;
  if (c->stop)
    return true;
  if (crawl__pages_exhausted(c)) /* with --cluster, once the links held back went their way */
    return !crawl__run_pages_leased(c->run) || !c->held_pages;
  return !seeds_waiting(c) && frontier_queued(c->fr) == 0 && c->lookups_in_flight == 0 &&
         !c->held_pages;
}

/* ---- progress and the output's reader ---- */

static void own_progress(const struct shard *c, struct crawl_progress *p);

static const char *plural(uint64_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* "1:05 312 pages, 48 pages/s, 1,200 queued (0 on disk), 3 hosts, 1 error": the time first, as
 * wget2's progress bar shows it */
static void progress_text(const struct crawl_progress *p, double elapsed, char *text, size_t size) {
  unsigned long secs = elapsed > 0 ? (unsigned long)elapsed : 0;
  char clock[32];
  if (secs >= 3600)
    snprintf(clock, sizeof(clock), "%lu:%02lu:%02lu", secs / 3600, secs / 60 % 60, secs % 60);
  else
    snprintf(clock, sizeof(clock), "%lu:%02lu", secs / 60, secs % 60);
  snprintf(text, size, "%s %llu %s, %.0f pages/s, %zu queued (%zu on disk), %zu %s, %llu %s", clock,
           (unsigned long long)p->pages, plural(p->pages, "page", "pages"),
           elapsed > 0 ? (double)p->pages / elapsed : 0.0, p->queued, p->spilled, p->hosts,
           plural(p->hosts, "host", "hosts"), (unsigned long long)p->failed,
           plural(p->failed, "error", "errors"));
}

/* The status line: all shards' counts as of their last turn. */
static void on_progress(void *arg) {
  struct shard *c = arg;
  struct crawl_progress p;
  if (c->outboxes)
    crawl__run_progress(c->run, &p);
  else
    own_progress(c, &p);
  char text[256];
  progress_text(&p, core_now() - c->start, text, sizeof(text));
  c->sink->status(c->sink->arg, text, false);
  loop_timer_start(c->progress_timer, core_now() + 0.5);
}

/* A pipe's reader that goes away shows as an error event on our end of it: the crawl stops at
 * once, though nothing may be written for a long while (-A with a rare extension). */
static void on_output_event(void *arg, int fd, unsigned events) {
  struct shard *c = arg;
  if (!(events & LOOP_ERROR))
    return;
  loop_unwatch(c->loop, c->output_watch);
  c->output_watch = NULL;
  c->sink->reader_gone(c->sink->arg);
  check_output(c, CORE_ESYS);
}

static core_rc watch_output(struct shard *c) {
  if (c->sink->watch_fd < 0)
    return CORE_OK; /* a file or a terminal has no reader to lose */
  /* no events asked for: epoll reports errors and hang-ups whatever the mask */
  return loop_watch_fd(c->loop, c->sink->watch_fd, 0, on_output_event, c, &c->output_watch);
}

/* ---- the run ---- */

static void record_unfed(struct shard *c, const char *url, void *arg) {
  (void)arg;
  struct frontier_item probe = {.flags = ITEM_SEED | (unsigned)VIA_SEED << ITEM_VIA_SHIFT};
  record(c, &probe, url, NULL, 0, CRAWL_FATE_PENDING, 0, NULL);
}

/* What is still in flight or queued was accepted: every one gets its record, unless the output
 * is gone or a --state crawl only pauses (its records come when it goes on). */

static void settle_leftovers(struct shard *c, bool with_records) {
  crawl_fate fate =
      c->end == CRAWL_END_DONE && crawl__pages_exhausted(c) ? CRAWL_FATE_LIMIT : CRAWL_FATE_PENDING;
  if (with_records) /* a crawl stopped while seeds waited: never offered, so never printed */
    crawl__seeds_unfed_each(c, record_unfed, NULL);
  while (c->active) {
    struct request *rq = c->active;
    if (rq->item && rq->item->kind == FRONTIER_PAGE && with_records &&
        !(rq->item->flags & ITEM_SPEC))
      record_item(c, rq->item, CRAWL_FATE_PENDING, 0, NULL);
    crawl__request_free(rq);
  }
  struct held_page *hp;
  while ((hp = crawl__held_take(c))) /* kept by the save (--state), or offered already */
    crawl__held_free(c, hp);
  free(c->held);
  c->held = NULL;
  c->held_levels = 0;
  frontier_host *fh;
  struct frontier_item *item;
  while ((item = frontier_drain(c->fr, &fh))) {
    if (item->kind == FRONTIER_PAGE && with_records && !(item->flags & ITEM_SPEC))
      record_item(c, item, unfetched_fate(c, frontier_host_data(fh), item, fate), 0, NULL);
    frontier_item_free(item);
  }
  crawl__spec_free_all(c); /* what was never confirmed was never accepted */
  if (c->cut_records)
    fclose(c->cut_records);
  c->cut_records = NULL;
  core_seen_destroy(c->cut);
  core_seen_destroy(c->rescued);
  c->cut = c->rescued = NULL;
}

/* Queues the URLs the last run left (--seen), after the seeds and apart from any of them; each
 * passes this run's scope and filters again. */
static void take_up_leftovers(struct shard *c, const core_seen *given) {
  if (!c->resumable)
    return;
  rewind(c->resumable);
  char *line = NULL;
  size_t cap = 0;
  struct saved s;
  const char *held_from = NULL;
  char *from_copy = NULL;
  while (!c->fatal && crawl__next_saved(c->resumable, &line, &cap, &s)) {
    if (s.kind == SAVED_HELD) { /* its links were found, not yet offered: new to this run */
      free(from_copy);
      held_from = from_copy = strdup(s.from);
      continue;
    }
    if (s.kind != SAVED_PAGE && s.kind != SAVED_LINK &&
        !(s.kind == SAVED_TRANSIT && (s.flags == 'L' || s.flags == 'R')))
      continue; /* what else the last run had is set up again by this one */
    struct core_url u;
    if (core_url_seed(s.url, c->cfg->max_url_length, &u) != CORE_OK)
      continue;
    if (s.kind == SAVED_LINK) {
      if (held_from)
        offer(c, &u, held_from, s.depth, 0, OFFER_LINK, s.how);
    } else if (s.kind == SAVED_TRANSIT) { /* on its way to its owner, this shard */
      offer(c, &u, s.from, s.depth, s.redirects, s.flags == 'R' ? OFFER_REDIRECT : OFFER_LINK,
            s.how);
    } else if (!core_seen_contains(given, u.text, strlen(u.text)) &&
               admitted(c, &u, OFFER_RESUME)) {
      /* a run leaves each URL once (the queue holds none twice): only a seed can repeat one */
      c->stats->resumed++;
      offer(c, &u, s.from, s.depth, 0, OFFER_RESUME,
            (struct link_how){(unsigned char)ITEM_VIA(s.flags), true});
    }
    core_url_free(&u);
  }
  free(from_copy);
  free(line);
  if (ferror(c->resumable))
    crawl__fatal(c, "--seen: cannot read back the URLs the last run left: %s", strerror(errno));
  /* the file keeps them until this run's next save replaces them */
}

/* --no-parent: the seed's origin and the directory of its path, up to its last '/'. */
static core_rc add_seed_dir(struct shard *c, const struct core_url *u) {
  const char *path = u->text + u->path_off;
  size_t dir_len = strcspn(path, "?");
  while (dir_len && path[dir_len - 1] != '/')
    dir_len--;
  size_t origin_len = strlen(u->origin);
  char *dir = malloc(origin_len + dir_len + 1);
  char **grown = dir ? realloc(c->seed_dirs, (c->seed_dir_count + 1) * sizeof(*grown)) : NULL;
  if (!grown) {
    free(dir);
    return CORE_ENOMEM;
  }
  memcpy(dir, u->origin, origin_len);
  memcpy(dir + origin_len, path, dir_len);
  dir[origin_len + dir_len] = '\0';
  c->seed_dirs = grown;
  c->seed_dirs[c->seed_dir_count++] = dir;
  return CORE_OK;
}

/* Seed pages pending at once, at most, over the shards: enough to keep every slot of -c busy on
 * hosts of one request at a time, and few enough that hosts are made as they are reached. */
static size_t seed_window(const struct shard *c) {
  size_t window = 4 * (size_t)c->cfg->concurrency;
  window = window < 1024 ? 1024 : window;
  return window / (size_t)crawl__run_shards(c->run) + 1;
}

static bool seeds_waiting(const struct shard *c) {
  return c->seeds_unfed != NULL;
}

/* Whether cfg->seeds[i] parses into *u as a seed this shard owns and has not offered yet (and
 * takes it off that list when take); *u is to be freed when true. */
static bool unfed_seed(struct shard *c, size_t i, bool take, struct core_url *u) {
  if (crawl__seed_url(c->cfg->seeds[i], c->cfg->max_url_length, u) != CORE_OK)
    return false;
  bool unfed = take ? core_seen_remove(c->seeds_unfed, u->text, strlen(u->text)) == CORE_OK
                    : core_seen_contains(c->seeds_unfed, u->text, strlen(u->text));
  if (!unfed)
    core_url_free(u);
  return unfed;
}

/* Every seed was offered: depth 0 is no longer held for them. */
static void seeds_fed(struct shard *c) {
  core_seen_destroy(c->seeds_unfed);
  c->seeds_unfed = NULL;
  c->seed_next = c->cfg->seed_count;
  frontier_release(c->fr, 0);
}

/* Offers the next seeds this shard owns while fewer than seed_window pages of depth 0 are
 * pending (all of them once -n is reached: settle makes no host for them then). */
static void feed_seeds(struct shard *c) {
  if (!seeds_waiting(c) || c->stop || c->fatal)
    return; /* a stopped crawl leaves them to the save (write_part) or to its continuation */
  bool all = crawl__pages_exhausted(c);
  size_t window = seed_window(c) + 1; /* the hold counts as one pending page */
  while (c->seed_next < c->cfg->seed_count && !c->fatal &&
         (all || frontier_pending(c->fr, 0) < window)) {
    struct core_url u;
    if (unfed_seed(c, c->seed_next++, true, &u)) {
      offer(c, &u, NULL, 0, 0, OFFER_SEED, seed_how);
      core_url_free(&u);
    }
  }
  if (c->seed_next == c->cfg->seed_count)
    seeds_fed(c);
}

/* A link to a seed not offered yet: it is offered as the seed now, as if it had come first. */
static bool seed_found_early(struct shard *c, const struct core_url *u) {
  if (!seeds_waiting(c) || core_seen_remove(c->seeds_unfed, u->text, strlen(u->text)) != CORE_OK)
    return false;
  settle(c, u, true, NULL, 0, 0, OFFER_SEED, seed_how);
  return true;
}

void crawl__seeds_unfed_each(struct shard *c, void (*fn)(struct shard *, const char *, void *),
                             void *arg) {
  for (size_t i = c->seed_next; seeds_waiting(c) && i < c->cfg->seed_count; i++) {
    struct core_url u;
    if (unfed_seed(c, i, false, &u)) {
      fn(c, u.text, arg);
      core_url_free(&u);
    }
  }
}

/* The scope, made by the first shard from every seed and read by all (shard_open makes the
 * shards one after the other, before any runs). */
static core_rc open_scope(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  if (c->shard > 0) {
    c->scope = crawl__run_shard(c->run, 0)->scope;
    c->scope_borrowed = true;
    return c->scope ? CORE_OK : CORE_EINVAL;
  }
  core_rc rc = core_scope_create(cfg->scope_mode, &cfg->domains, &cfg->exclude_domains, &c->scope);
  for (size_t i = 0; i < cfg->seed_count && rc == CORE_OK; i++) {
    struct core_url u;
    if ((rc = crawl__seed_url(cfg->seeds[i], cfg->max_url_length, &u)) != CORE_OK) {
      crawl__fatal(c, "invalid seed URL: %s", core_rc_str(rc)); /* it may hold a password */
      return rc;
    }
    rc = core_scope_add_seed(c->scope, u.host);
    core_url_free(&u);
  }
  return rc;
}

static core_rc seed_all(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  for (size_t i = 0; i < cfg->seed_count && cfg->no_parent; i++) {
    struct core_url u;
    core_rc rc = crawl__seed_url(cfg->seeds[i], cfg->max_url_length, &u);
    if (rc == CORE_OK) {
      rc = add_seed_dir(c, &u);
      core_url_free(&u);
    }
    if (rc == CORE_ENOMEM)
      return rc;
  }
  if (c->restored) /* the seeds before it were offered by an earlier run */
    crawl__restore_seeds_fed(c);
  /* the seeds this shard offers (and with --cluster, its process does), each once: a seed given
   * twice is one seed. A continued crawl leaves out those its seen filter has: they were offered
   * before the save, whatever the order of the shards that offered them */
  core_rc rc = core_seen_create(CORE_SEEN_EXACT, cfg->seed_count, 0.5, 0, &c->seeds_unfed);
  for (size_t i = c->seed_next; i < cfg->seed_count && rc == CORE_OK && !c->fatal; i++) {
    struct core_url u;
    bool first;
    if (crawl__seed_url(cfg->seeds[i], cfg->max_url_length, &u) != CORE_OK)
      continue;
    if (crawl__owner(c, u.host) == c->shard && crawl__node_of(c->run, u.host) == (int)cfg->node &&
        !(c->restored && core_seen_contains(c->seen, u.text, strlen(u.text))))
      rc = core_seen_add(c->seeds_unfed, u.text, strlen(u.text), &first);
    core_url_free(&u);
  }
  if (rc != CORE_OK || c->fatal) {
    core_seen_destroy(c->seeds_unfed);
    c->seeds_unfed = NULL;
    return rc;
  }
  /* after the list is made: a link restored to a seed not offered yet makes it a seed at once */
  if (c->restored)
    crawl__restore(c);
  frontier_hold(c->fr, 0); /* depth 1 waits for every seed, as if all had been queued first */
  feed_seeds(c);           /* the first window now */
  if (c->restored)
    return CORE_OK;
  /* the URLs the last run left (--seen) are taken up apart from the seeds */
  core_seen *given;
  rc = core_seen_create(CORE_SEEN_EXACT, cfg->seed_count, 0.5, 0, &given);
  for (size_t i = 0; i < cfg->seed_count && rc == CORE_OK && c->resumable; i++) {
    struct core_url u;
    bool first;
    if (crawl__seed_url(cfg->seeds[i], cfg->max_url_length, &u) != CORE_OK)
      continue;
    rc = core_seen_add(given, u.text, strlen(u.text), &first);
    core_url_free(&u);
  }
  if (rc == CORE_OK)
    take_up_leftovers(c, given);
  core_seen_destroy(given);
  return rc;
}

void crawl_stats_free(struct crawl_stats *stats) {
  for (size_t i = 0; i < CRAWL_BROKEN_SHOWN; i++) {
    free(stats->broken_links[i].url);
    free(stats->broken_links[i].from);
  }
  memset(stats->broken_links, 0, sizeof(stats->broken_links));
}

/* The most shards a crawl runs: more threads than that would only share the same cores. */
#define SHARDS_MAX 256

/* This shard's counts for the status line. */
static void own_progress(const struct shard *c, struct crawl_progress *p) {
  p->pages = c->stats->pages;
  p->failed = c->stats->fates[CRAWL_FATE_FAILED];
  p->queued = frontier_queued(c->fr);
  p->spilled = frontier_spilled(c->fr);
  p->hosts = frontier_host_count(c->fr);
}

/* Sends what this shard found for the others and publishes its pending depths: the gate its
 * pages wait for is then the smallest depth pending anywhere. True when that gate rose. */
static bool share_turn(struct shard *c) {
  struct crawl_progress p;
  crawl__shard_flush(c);
  own_progress(c, &p);
  int before = frontier_gate(c->fr);
  frontier_set_outside_gate(c->fr, crawl__shard_publish(c, &p));
  return frontier_gate(c->fr) > before;
}

/* Makes everything a shard needs: its loop, fetch engine, frontier, scope and filters; shard 0
 * also watches the output's reader. */
static void shard_open(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  core_rc rc;
  if (crawl__open_seen(c) != CORE_OK)
    return; /* a --seen file that cannot be used is refused, never overwritten */
  struct fetch_options fetch_opts = {.user_agent = cfg->user_agent,
                                     .headers = cfg->headers,
                                     .header_count = cfg->header_count,
                                     .timeout = cfg->timeout,
                                     .connect_timeout = cfg->connect_timeout,
                                     .insecure = cfg->insecure,
                                     .cacert = cfg->cacert,
                                     .concurrency = cfg->concurrency,
                                     .engines = crawl__run_shards(c->run),
                                     .per_host = cfg->per_host,
                                     .dns_servers = cfg->dns_servers,
                                     .resolves = cfg->resolves,
                                     .resolve_count = cfg->resolve_count,
                                     .proxies = {cfg->proxy_http, cfg->proxy_https, cfg->noproxy},
                                     .cookies = c->cookies};
  struct frontier_options frontier_opts = {.delay = cfg->delay,
                                           .delay_factor = cfg->delay_factor,
                                           .max_delay = cfg->max_delay,
                                           .ip_delay = cfg->ip_delay,
                                           .random_wait = cfg->random_wait,
                                           .ip_table = crawl__run_ip_table(c->run),
                                           .per_host = cfg->per_host,
                                           .queue_memory = c->queue_memory,
                                           .queue_disk = c->queue_disk};
  bool first = c->shard == 0;
  if ((rc = loop_create(&c->loop)) ||
      (rc = fetch_engine_create(c->loop, &fetch_opts, &c->engine)) ||
      (rc = frontier_create(&frontier_opts, c->seen, free_host_data, &c->fr)) ||
      (rc = open_scope(c)) ||
      (rc = loop_timer_create(c->loop, on_progress, c, &c->progress_timer)) ||
      (rc = loop_timer_create(c->loop, crawl__on_save_timer, c, &c->save_timer)) ||
      (rc = cfg->sitemaps ? core_seen_create(CORE_SEEN_EXACT, 1024, 0.5, 0, &c->sitemaps_seen)
                          : CORE_OK) ||
      (rc = crawl__logins_open(c)) || (rc = first ? watch_output(c) : CORE_OK)) {
    if (rc == CORE_EINVAL && cfg->dns_servers && !c->engine)
      crawl__fatal(c, "cannot use --dns-server '%s'", cfg->dns_servers);
    else
      crawl__fatal(c, "cannot start: %s", core_rc_str(rc));
    return;
  }
  if (c->outboxes)
    frontier_set_outside_gate(c->fr, 0); /* until the others have said what they hold */
  if (first && cfg->cluster)
    crawl__bridge_open(c); /* a Redis that cannot be reached is a fatal error */
}

static void shard_loop(struct shard *c) {
  bool shared = c->outboxes != NULL;
  if (c->sink->status && c->shard == 0)
    loop_timer_start(c->progress_timer, core_now() + 0.5);
  if (c->save_path && c->shard == 0) /* the first shard saves for all */
    loop_timer_start(c->save_timer, core_now() + c->save_every);
  if (seed_all(c) != CORE_OK)
    crawl__fatal(c, "cannot queue the seeds: out of memory");
  c->begun = !c->fatal;
  if (!c->fatal && !shared) {
    crawl__cut_output(c); /* nothing was written yet: the first flush comes after a turn */
    crawl__open_warc(c);  /* after the checkpoint was read: it says how much of the file stays */
  }
  while (!c->fatal && !c->complete) { /* a crawl continued once complete asks nothing */
    crawl__shard_sync_stop(c);        /* a stop asked for by crawl_stop or by another shard */
    if (c->stop == 2 || (shared && crawl__run_done(c)))
      break;
    if (shared)
      crawl__shard_receive(c);
    schedule(c);
    bool again = shared && share_turn(c);
    double most = c->bridge ? crawl__bridge_turn(c) : 1.0;
    warn_spill_refused(c);
    check_output(c, c->sink->flush(c->writer, false));
    crawl__shard_sync_stop(c);
    if (finished(c) &&
        (!shared || c->stop == 2 || (crawl__shard_outbox_empty(c) && crawl__shard_idle(c))))
      break;
    double now = core_now();
    double wait = frontier_next_ready(c->fr) - now;
    if (c->cfg->max_time > 0) { /* --max-time: the run ends as an interrupt would, in time */
      double left = c->run_start + c->cfg->max_time - now;
      if (left <= 0 && !c->stop)
        crawl__run_time_up(c->run);
      if (left > 0 && wait > left)
        wait = left;
    }
    if (c->rate_until > now && wait < c->rate_until - now)
      wait = c->rate_until - now; /* --rate: nothing starts before then */
    if (wait > 1.0 || c->stop || crawl__run_slots_full(c->run, c->cfg->concurrency))
      wait = 1.0;
    if (wait > most)
      wait = most; /* --cluster: the first shard asks Redis how the run goes */
    if (again)
      wait = 0; /* pages the gate held may start now */
    if (loop_run_once(c->loop, wait < 0 ? 0 : wait) != CORE_OK)
      crawl__fatal(c, "event loop failed: %s", strerror(errno));
  }
  crawl__shard_sync_stop(c); /* a fatal error stops the others */
}

/* The end of a crawl of several shards: the links still on their way (held ones offered now, those
 * of requests cut short) reach their owners before anything is settled, in rounds until no shard
 * sends more. */
static void deliver_last_links(struct shard *c) {
  if (c->save_path) {
    /* the save keeps the requests cut short, to be made again, and settle_leftovers ends them
     * after it; what their parsers found so far goes on its way now */
    for (struct request *rq = c->active; rq; rq = rq->next)
      crawl__offer_links_flush(rq);
  } else {
    while (c->active) {
      struct request *rq = c->active;
      bool records = c->end != CRAWL_END_PIPE;
      if (rq->item && rq->item->kind == FRONTIER_PAGE && records && !(rq->item->flags & ITEM_SPEC))
        record_item(c, rq->item, CRAWL_FATE_PENDING, 0, NULL);
      crawl__request_free(rq);
    }
  }
  for (int round = 0;; round++) {
    crawl__shard_flush(c);
    crawl__run_barrier(c->run, c->shard);
    crawl__shard_receive(c);
    if (!crawl__run_any(c->run, c->shard, round, !crawl__shard_outbox_empty(c)))
      break;
  }
}

/* Whether every shard has its part of the crawl in memory: its seeds queued or its part of the
 * checkpoint restored. Until then a save would hold less than the checkpoint it replaces, so
 * none is made: a run that cannot start (Redis down, a fatal error) leaves the files as they
 * were. Read after a barrier, which orders it after each shard's own write. */
static bool all_begun(const struct crawl *r) {
  for (int i = 0; i < crawl__run_shards(r); i++)
    if (!crawl__run_shard(r, i)->fr || !crawl__run_shard(r, i)->begun)
      return false;
  return true;
}

static void shard_end(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  /* in-flight transfers end here without their handlers: settle_leftovers records them */
  fetch_engine_destroy(c->engine);
  c->engine = NULL;
  crawl__run_barrier(c->run, c->shard); /* no shard writes to the --warc file any more */
  crawl__close_warc(c);
  /* a --state crawl that stops before its end keeps its held links held; any other offers them
   * now: they are found links, printed and then queued or settled like the rest */
  bool pausing = cfg->state_dir && c->end != CRAWL_END_DONE;
  if (c->fr && !pausing)
    replay_held(c, true);
  if (crawl__run_shards(c->run) > 1)
    deliver_last_links(c);
  if (c->fr && c->end != CRAWL_END_PIPE)
    settle_cut(c); /* no redirect comes any more: the URLs cut beyond --depth are settled */
  c->stats->spilled += c->fr ? frontier_spilled_ever(c->fr) : 0;
  int spill_error = 0;
  c->stats->spill_refused += c->fr ? frontier_spill_refused(c->fr, &spill_error) : 0;
  if (spill_error && !c->stats->spill_error)
    c->stats->spill_error = spill_error;
  /* first: it keeps what is still to do. The first shard saves every shard's part, while the
   * others wait between two barriers */
  int shards = crawl__run_shards(c->run);
  bool saving = cfg->seen_file || cfg->state_dir;
  /* the final save is the last: the loop still turns after it (crawl__bridge_close waits on it
   * for Redis), and a periodic save then would read the other shards' queues while they free
   * them (a crash, seen as SIGSEGV in snap_host with --cluster -j 4) */
  if (c->save_timer)
    loop_timer_stop(c->save_timer);
  if (saving && shards > 1)
    crawl__run_barrier(c->run, c->shard);
  if (c->shard == 0 && c->save_path && all_begun(c->run) && c->seen)
    crawl__final_save(c);
  if (saving && shards > 1)
    crawl__run_barrier(c->run, c->shard);
  if (c->fr)
    settle_leftovers(c, c->end != CRAWL_END_PIPE && !pausing);
  if (c->fr && frontier_error(c->fr) != CORE_OK)
    crawl__fatal(c, "cannot read queued URLs back from their temporary file: %s",
                 core_rc_str(frontier_error(c->fr)));
  if (c->writer && c->end != CRAWL_END_PIPE)
    check_output(c, c->sink->flush(c->writer, false));
}

static void shard_close(struct shard *c) {
  crawl__bridge_close(c); /* on its loop, which is still there */
  crawl__logins_close(c);
  if (!c->seen_borrowed)
    core_seen_destroy(c->seen);
  core_seen_destroy(c->sitemaps_seen);
  if (c->resumable)
    fclose(c->resumable);
  if (c->leftovers)
    fclose(c->leftovers);
  free(c->state_path);
  free(c->prev_path);
  frontier_destroy(c->fr);
  if (!c->scope_borrowed)
    core_scope_destroy(c->scope);
  if (c->output_watch)
    loop_unwatch(c->loop, c->output_watch);
  for (size_t i = 0; i < c->seed_dir_count; i++)
    free(c->seed_dirs[i]);
  free(c->seed_dirs);
  core_seen_destroy(c->seeds_unfed);
  fetch_engine_destroy(c->engine);
  loop_destroy(c->loop);
  if (c->writer)
    c->sink->close(c->sink->arg, c->writer);
  if (c->outboxes)
    for (int i = 0; i < crawl__run_shards(c->run); i++)
      core_buf_free(&c->outboxes[i].buf);
  free(c->outboxes);
  if (c->remotes)
    for (long i = 0; i < c->cfg->nodes; i++)
      core_buf_free(&c->remotes[i].buf);
  free(c->remotes);
}

/* A shard's whole crawl, on its own thread (shard 0 on the caller's). */
static void *shard_main(void *arg) {
  struct shard *c = arg;
  crawl__run_take_turn(c);
  if (!c->fatal)
    shard_loop(c);
  else
    crawl__shard_sync_stop(c);
  shard_end(c);
  crawl__run_give_turn(c);
  return NULL;
}

/* How many shards: -j. */
int crawl__shard_count(const struct crawl_config *cfg) {
  return cfg->threads < 1 ? 1 : cfg->threads > SHARDS_MAX ? SHARDS_MAX : (int)cfg->threads;
}

/* Its part of a total shared among n shards (shard i of them), at least 1. */
static uint64_t part_of(uint64_t total, int n, int i) {
  uint64_t part = total / (uint64_t)n + ((uint64_t)i < total % (uint64_t)n);
  return part ? part : 1;
}

static void add_stats(struct crawl_stats *sum, struct crawl_stats *s) {
  struct crawl_stats_counter a[CRAWL_STATS_COUNTERS_MAX], b[CRAWL_STATS_COUNTERS_MAX];
  size_t n, m;
  crawl__stats_counters(sum, a, &n);
  crawl__stats_counters(s, b, &m);
  for (size_t i = 0; i < n && i < m; i++)
    *a[i].at += *b[i].at;
  sum->resumed += s->resumed;
  sum->left += s->left;
  sum->speculated += s->speculated;
  sum->spill_refused += s->spill_refused;
  if (!sum->spill_error)
    sum->spill_error = s->spill_error;
  /* the first broken links of each shard, in shard order, up to what the summary shows */
  uint64_t shown = sum->broken - s->broken; /* before this shard's were added */
  for (size_t i = 0; i < CRAWL_BROKEN_SHOWN && s->broken_links[i].url; i++) {
    if (shown < CRAWL_BROKEN_SHOWN) {
      sum->broken_links[shown++] = s->broken_links[i];
      s->broken_links[i] = (struct crawl_broken_link){0};
    }
  }
}

crawl_end crawl_run(struct crawl *run, struct crawl_stats *stats, char *err, size_t err_size) {
  const struct crawl_config *cfg = crawl__run_config(run);
  const struct crawl_sink *sink = crawl__run_sink(run);
  int n = crawl__run_shards(run);
  double start = core_now();
  memset(stats, 0, sizeof(*stats));
  err[0] = '\0';
  fetch_cookies *cookies; /* one jar for every shard: a session is the crawl's, not a thread's */
  if (crawl__cookies_open(cfg, &cookies, err, err_size) != CORE_OK)
    return CRAWL_END_FATAL;
  struct shard *shards = calloc((size_t)n, sizeof(*shards));
  struct crawl_stats *shard_stats = calloc((size_t)n, sizeof(*shard_stats));
  char *errs = calloc((size_t)n, err_size);
  if (!shards || !shard_stats || !errs) {
    free(shards);
    free(shard_stats);
    free(errs);
    fetch_cookies_destroy(cookies);
    snprintf(err, err_size, "cannot start: out of memory");
    return CRAWL_END_FATAL;
  }
  shard_stats[0].runs = 1; /* a continued --state crawl adds those before (the first shard's) */
  for (int i = 0; i < n; i++) {
    struct shard *c = &shards[i];
    *c = (struct shard){.cfg = cfg,
                        .sink = sink,
                        .stats = &shard_stats[i],
                        .err = errs + (size_t)i * err_size,
                        .err_size = err_size,
                        .cookies = cookies};
    crawl__run_attach(run, i, c);
    c->warc_keep = c->output_keep = UINT64_MAX;
    c->held_min = INT_MAX;
    c->ahead = true;
    /* speculative pages pay off when hosts would otherwise wait for the gate between their
     * politeness gaps; with no gap the crawl is busy anyway, and they would only cost CPU.
     * --seen and --state save what was accepted, which a speculative page is not, yet */
    c->spec_on = (cfg->delay > 0 || cfg->delay_factor > 0 || cfg->ip_delay > 0) &&
                 !cfg->seen_file && !cfg->state_dir &&
                 !(cfg->cluster && cfg->max_pages >= 0); /* pages leased: only accepted ones */
    c->end = CRAWL_END_DONE;
    c->start = c->run_start = start;
    c->lookups_max = n > 1 ? (size_t)part_of(LOOKUPS_MAX, n, i) : LOOKUPS_MAX;
    c->queue_memory = cfg->queue_memory ? part_of(cfg->queue_memory, n, i) : 0;
    c->queue_disk = cfg->queue_disk ? part_of(cfg->queue_disk, n, i) : 0;
    /* with --seen or --state the shards share one filter (checkpoint.c) */
    c->seen_expect =
        n > 1 && !cfg->seen_file && !cfg->state_dir ? part_of(cfg->expect, n, i) : cfg->expect;
    if (sink->open(sink->arg, i, &c->writer) != CORE_OK) {
      c->writer = NULL;
      crawl__fatal(c, "cannot start: out of memory");
      continue;
    }
    if (n > 1 || cfg->cluster) {
      c->outboxes = calloc((size_t)n, sizeof(*c->outboxes));
      if (!c->outboxes) {
        crawl__fatal(c, "cannot start: out of memory");
        continue;
      }
      for (int k = 0; k < n; k++) {
        core_buf_init(&c->outboxes[k].buf, SIZE_MAX / 2);
        c->outboxes[k].min = INT_MAX;
      }
    }
    if (cfg->cluster) { /* links for the other processes' hosts */
      c->remotes = calloc((size_t)cfg->nodes, sizeof(*c->remotes));
      if (!c->remotes) {
        crawl__fatal(c, "cannot start: out of memory");
        continue;
      }
      for (long k = 0; k < cfg->nodes; k++) {
        core_buf_init(&c->remotes[k].buf, SIZE_MAX / 2);
        c->remotes[k].min = INT_MAX;
      }
    }
  }
  /* every shard is made here, before any runs: crawl_stop may wake their loops from now on */
  for (int i = 0; i < n; i++)
    if (!shards[i].fatal)
      shard_open(&shards[i]);
  if (n > 1 && (cfg->seen_file || cfg->state_dir)) {
    /* one save for all: each shard takes up its part of the last one, and is paused for the
     * next ones */
    core_rc rc = shards[0].resumable ? crawl__split_saved(shards, n) : CORE_OK;
    if (rc != CORE_OK)
      crawl__fatal(&shards[0], "%s: cannot hand the saved URLs to the shards: %s",
                   cfg->state_dir ? "--state" : "--seen", core_rc_str(rc));
    crawl__run_set_pausable(run);
  }
  crawl__run_set_running(run, true);
  /* --warc: one file, opened here before any shard runs (with one shard, after its checkpoint is
   * read, in shard_loop) */
  if (n > 1 && !shards[0].fatal)
    crawl__cut_output(&shards[0]);
  if (n > 1 && !shards[0].fatal && crawl__open_warc(&shards[0]) == CORE_OK)
    for (int i = 1; i < n; i++)
      if (shards[i].engine)
        crawl__share_warc(&shards[0], &shards[i]);
  pthread_t *threads = n > 1 ? calloc((size_t)n, sizeof(*threads)) : NULL;
  bool *started = n > 1 ? calloc((size_t)n, sizeof(*started)) : NULL;
  if (n > 1 && (!threads || !started))
    crawl__fatal(&shards[0], "cannot start: out of memory");
  for (int i = 1; i < n && threads && started; i++) {
    if (pthread_create(&threads[i], NULL, shard_main, &shards[i]) == 0) {
      started[i] = true;
    } else {
      /* a shard that cannot run would leave its hosts uncrawled: the crawl stops */
      crawl__fatal(&shards[0], "cannot start a thread for shard %d: %s", i, strerror(errno));
      crawl__run_leave(run);
    }
  }
  shard_main(&shards[0]);
  for (int i = 1; i < n; i++)
    if (started && started[i])
      pthread_join(threads[i], NULL);
  crawl_end end = n > 1 ? crawl__run_end(run) : shards[0].end;
  if (n > 1)
    for (int i = 0; i < n && end != CRAWL_END_FATAL; i++)
      if (shards[i].fatal)
        end = CRAWL_END_FATAL;
  for (int i = 0; i < n; i++) {
    if (shards[i].fatal && !err[0])
      snprintf(err, err_size, "%s", shards[i].err);
    add_stats(stats, &shard_stats[i]);
    crawl_stats_free(&shard_stats[i]);
  }
  /* the time of all its runs, as its counts are (a --state crawl's start is set back by what
   * its runs before took) */
  stats->seconds = core_now() - (shards[0].start < start ? shards[0].start : start);
  stats->complete = shards[0].complete;
  crawl__run_set_running(run, false);
  if (sink->status && end != CRAWL_END_PIPE && shards[0].fr) {
    struct crawl_progress sum = {0};
    for (int i = 0; i < n; i++) {
      struct crawl_progress p;
      if (shards[i].fr) {
        own_progress(&shards[i], &p);
        sum.queued += p.queued;
        sum.spilled += p.spilled;
        sum.hosts += p.hosts;
      }
    }
    sum.pages = stats->pages;
    sum.failed = stats->fates[CRAWL_FATE_FAILED];
    char text[256];
    progress_text(&sum, stats->seconds, text, sizeof(text));
    sink->status(sink->arg, text, true);
  }
  for (int i = n - 1; i >= 0; i--)
    shard_close(&shards[i]);
  /* after every transfer: the jar as the crawl leaves it, stopped or not */
  if (cookies && cfg->save_cookies && fetch_cookies_save(cookies, cfg->save_cookies) != CORE_OK &&
      end != CRAWL_END_FATAL) {
    snprintf(err, err_size, "--save-cookies: cannot write '%s': %s", cfg->save_cookies,
             strerror(errno));
    end = CRAWL_END_FATAL;
  }
  fetch_cookies_destroy(cookies);
  free(threads);
  free(started);
  free(shard_stats);
  free(errs);
  free(shards);
  return end;
}
