/* A shard's life: open (its loop, frontier, fetch engine and seeds), the loop with its saves and
 * progress, the end (the last links delivered, leftovers settled) and close. */
#include "crawl/archive.h"
#include "crawl/life.h"
#include "crawl/bridge.h"
#include "crawl/budget.h"
#include "crawl/checkpoint.h"
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/logins.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/referrers.h"
#include "crawl/report.h"
#include "crawl/request.h"
#include "crawl/restore.h"
#include "crawl/saved.h"
#include "crawl/schedule.h"
#include "crawl/seed.h"
#include "crawl/shard.h"
#include "crawl/speculate.h"
#include "crawl/stash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The status line's: its timer, and the estimate of what is left (frontier_busiest), looked for
 * twice a second at most. */
struct shard_progress {
  loop_timer *timer;
  double next, left;
  char host[128];
};

/* The status line: all shards' counts as of their last turn. */
static void on_progress(void *arg) {
  struct shard *c = arg;
  struct crawl_progress p;
  if (crawl__mail_shared(c))
    crawl__mesh_progress(c->run, &p);
  else
    p = crawl__shard_own_progress(c);
  p.elapsed = core_now() - crawl__life_start(c);
  c->sink->status(c->sink->arg, &p, false);
  loop_timer_start(c->progress->timer, core_now() + 0.5);
}

/* This shard's counts for the status line. */
struct crawl_progress crawl__shard_own_progress(struct shard *c) {
  struct crawl_progress p = {.pages = c->stats->pages,
                             .failed = c->stats->fates[CRAWL_FATE_FAILED],
                             .queued = frontier_queued(c->fr),
                             .spilled = frontier_spilled(c->fr),
                             .hosts = frontier_host_count(c->fr)};
  double now = core_now();
  struct shard_progress *s = c->progress; /* made first in crawl__shard_open, before its frontier */
  if (c->sink->status && now >= s->next) { /* every host looked at: not every turn */
    const char *origin;
    s->left = frontier_busiest(c->fr, &origin);
    snprintf(s->host, sizeof(s->host), "%s", origin ? origin : "");
    s->next = now + 0.5;
  }
  p.left = s->left;
  snprintf(p.left_host, sizeof(p.left_host), "%s", s->host);
  return p;
}

/* Sends what this shard found for the others and publishes its pending depths: the gate its
 * pages wait for is then the smallest depth pending anywhere. True when that gate rose. */
static bool share_turn(struct shard *c) {
  crawl__mail_flush(c);
  struct crawl_progress p = crawl__shard_own_progress(c);
  int before = frontier_gate(c->fr);
  frontier_set_outside_gate(c->fr, crawl__mesh_publish(c, &p));
  return frontier_gate(c->fr) > before;
}

/* Makes everything a shard needs: its loop, fetch engine, frontier, scope and filters; shard 0
 * also watches the output's reader. */
void crawl__shard_open(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  core_rc rc;
  if (!(c->progress = calloc(1, sizeof(*c->progress)))) {
    crawl__notes_fatal(c, "cannot start: out of memory");
    return;
  }
  if (crawl__checkpoint_open_seen(c) != CORE_OK)
    return; /* a --seen file that cannot be used is refused, never overwritten */
  struct fetch_options fetch_opts = {.user_agent = cfg->user_agent,
                                     .product_token = cfg->product_token,
                                     .headers = cfg->headers,
                                     .header_count = cfg->header_count,
                                     .timeout = cfg->timeout,
                                     .connect_timeout = cfg->connect_timeout,
                                     .insecure = cfg->insecure,
                                     .cacert = cfg->cacert,
                                     .concurrency = cfg->concurrency,
                                     .engines = crawl__mesh_shards(c->run),
                                     .per_host = cfg->per_host,
                                     /* a polite host's next request comes a gap later */
                                     .idle_keep = 2 * cfg->delay + 5,
                                     .dns_servers = cfg->dns_servers,
                                     .resolves = cfg->resolves,
                                     .resolve_count = cfg->resolve_count,
                                     .proxies = {cfg->proxy_http, cfg->proxy_https, cfg->noproxy},
                                     .cookies = crawl__mesh_cookies(c->run),
                                     .hosts_file = crawl__mesh_hosts_file(c->run)};
  struct frontier_options frontier_opts = {
      .delay = cfg->delay,
      .delay_factor = cfg->delay_factor,
      .max_delay = cfg->max_delay,
      .ip_delay = cfg->ip_delay,
      .random_wait = cfg->random_wait,
      .ip_table = crawl__mesh_ip_table(c->run),
      .per_host = cfg->per_host,
      /* the ahead budget: a page fetched ahead must be found again in the queue (speculate.c) */
      .queue_memory = crawl__held_speculates(c) && crawl__budget_queue_memory(c)
                          ? crawl__held_ahead_budget(c)
                          : crawl__budget_queue_memory(c),
      .queue_disk = crawl__budget_queue_disk(c),
      .host_data_size = sizeof(struct host_data)};
  bool first = c->shard == 0;
  if ((rc = loop_create(&c->loop)) ||
      (rc = fetch_engine_create(c->loop, &fetch_opts, &c->engine)) ||
      (rc = frontier_create(&frontier_opts, c->seen, crawl__host_release, &c->fr)) ||
      (rc = crawl__seed_open_scope(c)) ||
      (rc = loop_timer_create(c->loop, on_progress, c, &c->progress->timer)) ||
      (rc = crawl__checkpoint_timer_open(c)) || (rc = crawl__logins_open(c)) ||
      (rc = crawl__host_open(c)) || (rc = crawl__request_open(c)) ||
      (rc = first ? crawl__report_watch_output(c) : CORE_OK)) {
    if (rc == CORE_EINVAL && cfg->dns_servers && !c->engine)
      crawl__notes_fatal(c, "cannot use --dns-server '%s'", cfg->dns_servers);
    else if (rc == CORE_ESYS && (errno == EMFILE || errno == ENFILE)) /* every shard opens some */
      crawl__notes_fatal(c, "cannot start: %s (ulimit -n; fewer shards, -j, open fewer)",
                         strerror(errno));
    else
      crawl__notes_fatal(c, "cannot start: %s", core_rc_str(rc));
    return;
  }
  if (crawl__mail_shared(c))
    frontier_set_outside_gate(c->fr, 0); /* until the others have said what they hold */
  if (first && cfg->cluster)
    crawl__bridge_open(c); /* a Redis that cannot be reached is a fatal error */
}

static void shard_loop(struct shard *c) {
  bool shared = crawl__mail_shared(c);
  if (c->sink->status && c->shard == 0)
    loop_timer_start(c->progress->timer, core_now() + 0.5);
  crawl__checkpoint_timer_start(c);
  if (crawl__seed_all(c) != CORE_OK)
    crawl__notes_fatal(c, "cannot queue the seeds: out of memory");
  /* a crawl of one shard (of a --cluster too: it has outboxes) read its checkpoint just now */
  if (!crawl__life_fatal(c) && crawl__mesh_shards(c->run) == 1) {
    /* the checkpoint says how much of each file stays; nothing was written to them yet (the
     * first flush comes after a turn) */
    crawl__checkpoint_cut_output(c);
    crawl__archive_open(c, crawl__restore_warc_keep(c));
    if (!crawl__restore_complete(c))
      crawl__referrers_open(c, crawl__restore_links_keep(c));
  }
  /* after its files are open, as with several shards, whose --warc opens before they run: one
   * refused (a --warc in a directory that does not exist) is a crawl that could not start, and
   * saves nothing (all_begun) */
  crawl__life_set_begun(c, !crawl__life_fatal(c));
  /* a crawl continued once complete asks nothing */
  while (!crawl__life_fatal(c) && !crawl__restore_complete(c)) {
    crawl__mesh_sync_stop(c); /* a stop asked for by crawl_stop or by another shard */
    if (crawl__life_stop(c) == STOP_NOW || (shared && crawl__mesh_done(c)))
      break;
    if (shared)
      crawl__mail_receive(c);
    crawl__schedule(c);
    crawl__host_let_idle_go(c, core_now());
    bool again = shared && share_turn(c);
    double most = c->bridge ? crawl__bridge_turn(c) : 1.0;
    crawl__report_spill_refused(c);
    crawl__report_check_output(c, crawl__report_flush(c, false));
    crawl__mesh_sync_stop(c);
    if (crawl__schedule_finished(c) && (!shared || crawl__life_stop(c) == STOP_NOW ||
                                        (crawl__mail_outbox_empty(c) && crawl__mesh_idle(c))))
      break;
    double now = core_now();
    double wait = frontier_next_ready(c->fr) - now;
    if (c->cfg->max_time > 0) { /* --max-time: the run ends as an interrupt would, in time */
      double left = crawl__life_run_start(c) + c->cfg->max_time - now;
      if (left <= 0 && !crawl__life_stop(c))
        crawl__mesh_time_up(c->run);
      if (left > 0 && wait > left)
        wait = left;
    }
    double rate_next = crawl__budget_rate_next(c->run);
    if (rate_next > now && wait < rate_next - now)
      wait = rate_next - now; /* --rate: nothing starts before then */
    /* a stop, or every slot of -c taken: only an event moves it on. most is at most 1 s, and
     * with --cluster the first shard asks Redis how the run goes sooner */
    if (crawl__life_stop(c) || crawl__budget_slots_full(c->run, c->cfg->concurrency))
      wait = most;
    if (wait > most)
      wait = most;
    if (again)
      wait = 0; /* pages the gate held may start now */
    if (loop_run_once(c->loop, wait < 0 ? 0 : wait) != CORE_OK)
      crawl__notes_fatal(c, "event loop failed: %s", strerror(errno));
  }
  crawl__mesh_sync_stop(c); /* a fatal error stops the others */
}

/* The end of a crawl of several shards: the links still on their way (held ones offered now, those
 * of requests cut short) reach their owners before anything is settled, in rounds until no shard
 * sends more. */
static void deliver_last_links(struct shard *c) {
  if (c->cfg->seen_file || c->cfg->state_dir) {
    /* the save keeps the requests cut short, to be made again, and settle_leftovers ends them
     * after it; what their parsers found so far goes on its way now */
    for (struct request *rq = crawl__request_next(c, NULL); rq; rq = rq->next)
      crawl__intake_flush(rq);
  } else {
    struct request *rq;
    while ((rq = crawl__request_next(c, NULL))) {
      bool records = crawl__life_end(c) != CRAWL_END_PIPE;
      if (rq->item && rq->item->kind == FRONTIER_PAGE && records && !(rq->item->flags & ITEM_SPEC))
        crawl__report_item(c, rq->item, CRAWL_FATE_PENDING, 0, NULL);
      crawl__request_free(rq);
    }
  }
  for (int round = 0;; round++) {
    crawl__mail_flush(c);
    crawl__mesh_barrier(c->run, c->shard);
    crawl__mail_receive(c);
    if (!crawl__mesh_any(c->run, c->shard, round, !crawl__mail_outbox_empty(c)))
      break;
  }
}

/* Whether every shard has its part of the crawl in memory: its seeds queued or its part of the
 * checkpoint restored. Until then a save would hold less than the checkpoint it replaces, so
 * none is made: a run that cannot start (Redis down, a fatal error) leaves the files as they
 * were. Read after a barrier, which orders it after each shard's own write. */
static bool all_begun(const struct crawl *r) {
  for (int i = 0; i < crawl__mesh_shards(r); i++)
    if (!crawl__mesh_shard(r, i)->fr || !crawl__life_begun(crawl__mesh_shard(r, i)))
      return false;
  return true;
}

static void shard_end(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  /* in-flight transfers end here without their handlers: settle_leftovers records them */
  fetch_engine_destroy(c->engine);
  c->engine = NULL;
  crawl__mesh_barrier(c->run, c->shard); /* no shard writes to the --warc file any more */
  crawl__archive_close(c);
  /* a crawl that stops before its end keeps its held links held when it saves (--state,
   * --seen): their level has not come, and a page still pending above it may find one of them
   * at a smaller depth, within --depth where the held one is cut beyond it. Any other offers
   * them now: they are found links, printed and then queued or settled like the rest */
  bool pausing = cfg->state_dir && crawl__life_end(c) != CRAWL_END_DONE;
  bool keep_held = (cfg->state_dir || cfg->seen_file) && crawl__life_end(c) != CRAWL_END_DONE;
  if (c->fr && !keep_held)
    crawl__intake_replay_held(c, true);
  if (crawl__mesh_shards(c->run) > 1)
    deliver_last_links(c);
  /* no redirect comes any more: the URLs cut beyond --depth are settled. A crawl that saves
   * and stops before its end keeps them waiting in the save, for the next run (a redirect of a
   * page it left may still reach one: doc/behaviour.md, Depth) */
  if (c->fr && crawl__life_end(c) != CRAWL_END_PIPE && !keep_held)
    crawl__depthcut_settle(c);
  c->stats->spilled += c->fr ? frontier_spilled_ever(c->fr) : 0;
  int spill_error = 0;
  c->stats->spill_refused += c->fr ? frontier_spill_refused(c->fr, &spill_error) : 0;
  if (spill_error && !c->stats->spill_error)
    c->stats->spill_error = spill_error;
  /* first: it keeps what is still to do. The first shard saves every shard's part, while the
   * others wait between two barriers */
  int shards = crawl__mesh_shards(c->run);
  bool saving = cfg->seen_file || cfg->state_dir;
  /* a crawl that ended with -n spent settles its queued pages before the save, as the limit
   * would have at their turn: the save then holds their records and counts, and keeps the pages
   * for the next run as already settled (ITEM_LEFT), which settles them the same way again
   * without a second record */
  if (c->fr && saving && crawl__life_end(c) == CRAWL_END_DONE &&
      crawl__budget_pages_exhausted(c->run, cfg->max_pages))
    crawl__seed_leave_queued(c);
  /* the final save is the last: the loop still turns after it (crawl__bridge_close waits on it
   * for Redis), and a periodic save then would read the other shards' queues while they free
   * them (a crash, seen as SIGSEGV in snap_host with --cluster -j 4) */
  crawl__checkpoint_timer_stop(c);
  if (saving && shards > 1)
    crawl__mesh_barrier(c->run, c->shard);
  if (c->shard == 0 && saving && all_begun(c->run) && c->seen) {
    /* a --state crawl at its end writes the records that waited for their referrers, before
     * the save that says it is complete; a paused one keeps them waiting in DIR/links */
    if (cfg->state_dir && crawl__life_end(c) == CRAWL_END_DONE)
      crawl__referrers_settle(c);
    crawl__checkpoint_final(c);
  }
  if (saving && shards > 1)
    crawl__mesh_barrier(c->run, c->shard);
  if (c->fr)
    crawl__seed_settle_leftovers(c, crawl__life_end(c) != CRAWL_END_PIPE && !pausing);
  if (c->fr && frontier_error(c->fr) != CORE_OK)
    crawl__notes_fatal(c, "cannot read queued URLs back from their temporary file: %s",
                       core_rc_str(frontier_error(c->fr)));
  if (crawl__life_end(c) != CRAWL_END_PIPE)
    crawl__report_check_output(c, crawl__report_flush(c, false));
  /* any other crawl, stopped or not, writes them now: every page it parsed is known */
  if (crawl__referrers_logged(c) && !cfg->state_dir) {
    if (shards > 1)
      crawl__mesh_barrier(c->run, c->shard);
    if (c->shard == 0 && crawl__life_end(c) != CRAWL_END_PIPE) {
      crawl__referrers_settle(c);
      crawl__report_check_output(c, crawl__report_flush(c, false));
    }
  }
}

void crawl__shard_close(struct shard *c) {
  crawl__bridge_close(c); /* on its loop, which is still there */
  crawl__logins_close(c);
  crawl__checkpoint_close(c); /* the seen filter, unless it is the first shard's */
  crawl__restore_close(c);
  crawl__saved_left_close(c);
  crawl__depthcut_close(c); /* settled by then, or let go: a shard that never ran */
  crawl__held_free_all(c);
  crawl__speculate_close(c);
  crawl__stash_close(c);
  crawl__request_close(c);
  crawl__host_close(c);
  crawl__referrers_close(c);
  frontier_destroy(c->fr);
  crawl__seed_close(c);
  fetch_engine_destroy(c->engine);
  crawl__report_close(c); /* before the loop: its watch on a pipe's reader is the loop's */
  loop_destroy(c->loop);
  crawl__mail_close(c);
  crawl__budget_bounds_close(c);
  free(c->progress); /* its timer went with the loop */
  c->progress = NULL;
}

/* A shard's whole crawl, on its own thread (shard 0 on the caller's). */
void *crawl__shard_main(void *arg) {
  struct shard *c = arg;
  crawl__mesh_take_turn(c);
  if (parse_thread_begin() != CORE_OK)
    crawl__notes_fatal(c, "out of memory");
  if (!crawl__life_fatal(c) && !crawl__life_refused(c))
    shard_loop(c);
  else
    crawl__mesh_sync_stop(c);
  shard_end(c);
  crawl__mesh_give_turn(c);
  return NULL;
}
