/* The run, as crawl/crawl.h offers it: crawl_create, crawl_run (its shards as threads, their
 * statistics merged into one summary) and crawl_destroy. */
#include "crawl/run-int.h"
#include "crawl/archive.h"
#include "crawl/budget.h"
#include "crawl/checkpoint.h"
#include "crawl/fragments.h"
#include "crawl/held.h"
#include "crawl/intake.h"
#include "crawl/life.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/page.h"
#include "crawl/referrers.h"
#include "crawl/report.h"
#include "crawl/request.h"
#include "crawl/restore.h"
#include "crawl/saved.h"
#include "crawl/seed.h"
#include "crawl/shard.h"
#include "crawl/sitefiles.h"
#include "crawl/speculate.h"

/* The most shards a crawl runs: more threads than that would only share the same cores. */
#define SHARDS_MAX 256

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void crawl_stats_free(struct crawl_stats *stats) {
  for (size_t i = 0; i < CRAWL_BROKEN_SHOWN; i++) {
    free(stats->broken_links[i].url);
    free(stats->broken_links[i].from);
  }
  memset(stats->broken_links, 0, sizeof(stats->broken_links));
}

int crawl_shard_count(const struct crawl_config *cfg) {
  return cfg->threads < 1 ? 1 : cfg->threads > SHARDS_MAX ? SHARDS_MAX : (int)cfg->threads;
}

static void add_stats(struct crawl_stats *sum, struct crawl_stats *s) {
  struct crawl_stats_counter a[CRAWL_STATS_COUNTERS_MAX], b[CRAWL_STATS_COUNTERS_MAX];
  size_t n, m;
  crawl__saved_counters(sum, a, &n);
  crawl__saved_counters(s, b, &m);
  for (size_t i = 0; i < n && i < m; i++)
    *a[i].at += *b[i].at;
  sum->resumed += s->resumed;
  sum->left += s->left;
  sum->speculated += s->speculated;
  sum->ahead_stops += s->ahead_stops;
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

core_rc crawl_create(const struct crawl_config *cfg, const struct crawl_sink *sink,
                     struct crawl **out) {
  core_rc rc = crawl__mesh_create(crawl_shard_count(cfg), out);
  if (rc == CORE_OK) {
    (*out)->cfg = cfg;
    (*out)->sink = sink;
    if (cfg->cluster) {
      (*out)->nodes = (int)cfg->nodes;
      (*out)->node = (int)cfg->node;
      (*out)->cluster_gate = 0; /* until the first view: the others may hold seeds */
      (*out)->pages_leased = cfg->max_pages >= 0;
    }
    /* one table for every shard, read again only when the file changes: a blocklist there may
     * be megabytes (fetch/hosts.c) */
    rc = fetch_hosts_load("/etc/hosts", &(*out)->hosts_file);
    if (rc == CORE_OK && cfg->ip_delay > 0)
      rc = frontier_ip_table_create(&(*out)->ips);
    if (rc != CORE_OK) {
      fetch_hosts_destroy((*out)->hosts_file);
      crawl__mesh_destroy(*out);
      *out = NULL;
    }
  }
  return rc;
}

void crawl_destroy(struct crawl *r) {
  if (r) {
    frontier_ip_table_destroy(r->ips);
    fetch_hosts_destroy(r->hosts_file);
  }
  crawl__mesh_destroy(r);
}

/* The status line's last drawing: the whole crawl's counts, every shard's queue and hosts. */
static void last_status(const struct crawl_sink *sink, struct shard *shards, int n,
                        const struct crawl_stats *stats) {
  struct crawl_progress sum = {0};
  for (int i = 0; i < n; i++) {
    if (shards[i].fr) {
      struct crawl_progress p = crawl__shard_own_progress(&shards[i]);
      sum.queued += p.queued;
      sum.spilled += p.spilled;
      sum.hosts += p.hosts;
    }
  }
  sum.pages = stats->pages;
  sum.failed = stats->fates[CRAWL_FATE_FAILED];
  sum.elapsed = stats->seconds;
  sink->status(sink->arg, &sum, true);
}

/* What a later stage of the engine hands back to an earlier one goes through what the earlier
 * one is given here (doc/design.md, The engine's pipeline), never by calling it by name. */
static void wire_hooks(struct shard *c) {
  struct shard_hooks *h = &c->hooks;
  h->handlers[FRONTIER_PAGE] = &crawl__page_handler;
  h->handlers[FRONTIER_RESOLVE] = &crawl__page_handler; /* never a request: a lookup */
  h->handlers[FRONTIER_ROBOTS] = &crawl__sitefiles_robots_handler;
  h->handlers[FRONTIER_SITEMAP] = &crawl__sitefiles_sitemap_handler;
  h->spec_record = crawl__speculate_keep_record;
  h->failed_record = crawl__referrers_keep_failed;
  h->seed_found = crawl__seed_found_early;
  h->seed_owed = crawl__seed_owed;
  h->offer = crawl__intake_offer;
  h->in_flight_next = crawl__request_next;
}

/* Shard i of n, its fields set, made ready to open: its share of the budgets, its writer, and
 * its outboxes to the other shards and processes. A failure is the shard's fatal error
 * (crawl__notes_fatal), which ends the run before any shard's loop begins. */
static void shard_prepare(struct crawl *run, struct shard *c, int i, int n) {
  const struct crawl_config *cfg = c->cfg;
  wire_hooks(c);
  crawl__mesh_attach(run, i, c, crawl__intake_take_owned);
  if (crawl__checkpoint_prepare(c) != CORE_OK || crawl__restore_prepare(c) != CORE_OK ||
      crawl__budget_bounds_prepare(c, n, i) != CORE_OK)
    crawl__notes_fatal(c, "cannot start: out of memory"); /* the rest is made, then let go */
  crawl__held_prepare(c);
  crawl__held_set_queue_memory(c, crawl__budget_queue_memory(c));
  crawl__speculate_prepare(c); /* after the held links' */
  crawl__referrers_prepare(c);
  if (crawl__report_open(c, i) != CORE_OK) {
    crawl__notes_fatal(c, "cannot start: out of memory");
    return;
  }
  /* links for the other shards' hosts, and with --cluster for the other processes' */
  if ((n > 1 || cfg->cluster) && crawl__mail_open(c, n, cfg->cluster ? cfg->nodes : 0) != CORE_OK)
    crawl__notes_fatal(c, "cannot start: out of memory");
}

static void shards_free(struct shard *shards, struct crawl_stats *stats, char *errs, int n) {
  for (int i = 0; shards && i < n; i++)
    crawl__life_close(&shards[i]);
  free(shards);
  free(stats);
  free(errs);
}

/* The run's n shards, with their counts and their error texts (err_size bytes each), each with
 * its life open first: its fatal error is how whatever comes after fails. False, with nothing
 * made, when memory ran out. */
static bool shards_make(struct crawl *run, int n, size_t err_size, double start,
                        struct shard **shards, struct crawl_stats **stats, char **errs) {
  *shards = calloc((size_t)n, sizeof(**shards));
  *stats = calloc((size_t)n, sizeof(**stats));
  *errs = calloc((size_t)n, err_size);
  bool made = *shards && *stats && *errs;
  for (int i = 0; made && i < n; i++) {
    (*shards)[i] = (struct shard){
        .cfg = crawl__mesh_config(run), .sink = crawl__mesh_sink(run), .stats = &(*stats)[i]};
    made =
        crawl__life_open(&(*shards)[i], *errs + (size_t)i * err_size, err_size, start) == CORE_OK;
  }
  if (!made)
    shards_free(*shards, *stats, *errs, n);
  return made;
}

/* A start that ran out of memory: what it made goes, and err says why. */
static crawl_end start_failed(fetch_cookies *jar, struct crawl_fragments *fragments, char *err,
                              size_t err_size) {
  fetch_cookies_destroy(jar);
  crawl__fragments_destroy(fragments);
  snprintf(err, err_size, "cannot start: out of memory");
  return CRAWL_END_FATAL;
}

crawl_end crawl_run(struct crawl *run, struct crawl_stats *stats, char *err, size_t err_size) {
  const struct crawl_config *cfg = crawl__mesh_config(run);
  const struct crawl_sink *sink = crawl__mesh_sink(run);
  int n = crawl__mesh_shards(run);
  double start = core_now();
  memset(stats, 0, sizeof(*stats));
  err[0] = '\0';
  fetch_cookies *cookies; /* one jar for every shard: a session is the crawl's, not a thread's */
  if (crawl__checkpoint_cookies_open(cfg, &cookies, err, err_size) != CORE_OK)
    return CRAWL_END_FATAL;
  struct crawl_fragments *fragments = NULL; /* --check-fragments: one table, every shard's */
  struct shard *shards;
  struct crawl_stats *shard_stats;
  char *errs;
  if ((cfg->check_fragments && crawl__fragments_create(&fragments) != CORE_OK) ||
      !shards_make(run, n, err_size, start, &shards, &shard_stats, &errs))
    return start_failed(cookies, fragments, err, err_size);
  run->cookies = cookies;
  run->fragments = fragments;
  shard_stats[0].runs = 1; /* a continued --state crawl adds those before (the first shard's) */
  for (int i = 0; i < n; i++)
    shard_prepare(run, &shards[i], i, n);
  /* every shard is made here, before any runs: crawl_stop may wake their loops from now on */
  for (int i = 0; i < n; i++)
    if (!crawl__life_fatal(&shards[i]))
      crawl__shard_open(&shards[i]);
  if (n > 1 && (cfg->seen_file || cfg->state_dir)) {
    /* one save for all: each shard takes up its part of the last one, and is paused for the
     * next ones */
    core_rc rc = crawl__restore_file(&shards[0]) ? crawl__restore_split(shards, n) : CORE_OK;
    if (rc != CORE_OK)
      crawl__notes_fatal(&shards[0], "%s: cannot hand the saved URLs to the shards: %s",
                         cfg->state_dir ? "--state" : "--seen", core_rc_str(rc));
    crawl__mesh_set_pausable(run);
  }
  crawl__mesh_set_running(run, true);
  /* --warc: one file, opened here before any shard runs (with one shard, after its checkpoint is
   * read, in shard_loop) */
  if (n > 1 && !crawl__life_fatal(&shards[0]))
    crawl__checkpoint_cut_output(&shards[0]);
  if (n > 1 && !crawl__life_fatal(&shards[0]) &&
      crawl__archive_open(&shards[0], crawl__restore_warc_keep(&shards[0])) == CORE_OK)
    for (int i = 1; i < n; i++)
      if (shards[i].engine)
        crawl__archive_share(&shards[0], &shards[i]);
  pthread_t threads[CRAWL_THREADS_MAX];
  bool started[CRAWL_THREADS_MAX] = {false};
  /* a shard that could not open (a refused --cluster join, say) or a failed start ends the run
   * before any shard's loop begins: none of them may make a request */
  bool refused = false;
  for (int i = 0; i < n; i++)
    if (crawl__life_fatal(&shards[i])) {
      crawl__mesh_sync_stop(&shards[i]);
      refused = true;
    }
  for (int i = 0; i < n; i++)
    crawl__life_set_refused(&shards[i], refused && !crawl__life_fatal(&shards[i]));
  /* --jsonl's link log, one for all; not touched by a run that cannot start, whose checkpoint
   * may not have been read (it says how much of DIR/links stays) */
  if (n > 1 && !refused) {
    if (!crawl__restore_complete(&shards[0]))
      crawl__referrers_open(&shards[0], crawl__restore_links_keep(&shards[0]));
    for (int i = 1; i < n; i++)
      crawl__referrers_share(&shards[0], &shards[i]);
  }
  for (int i = 1; i < n && i < CRAWL_THREADS_MAX; i++) {
    if (pthread_create(&threads[i], NULL, crawl__shard_main, &shards[i]) == 0) {
      started[i] = true;
    } else {
      /* a shard that cannot run would leave its hosts uncrawled: the crawl stops */
      crawl__notes_fatal(&shards[0], "cannot start a thread for shard %d: %s", i, strerror(errno));
      crawl__mesh_leave(run);
    }
  }
  crawl__shard_main(&shards[0]);
  for (int i = 1; i < n; i++)
    if (started[i])
      pthread_join(threads[i], NULL);
  crawl_end end = n > 1 ? crawl__mesh_end(run) : crawl__life_end(&shards[0]);
  if (n > 1)
    for (int i = 0; i < n && end != CRAWL_END_FATAL; i++)
      if (crawl__life_fatal(&shards[i]))
        end = CRAWL_END_FATAL;
  /* every page is in now: the links with a fragment are judged, their records written by the
   * first shard (its writer is open until crawl__shard_close) */
  if (fragments && end != CRAWL_END_FATAL && end != CRAWL_END_PIPE &&
      !crawl__life_refused(&shards[0])) {
    crawl__fragments_judge(fragments, &shards[0]);
    crawl__report_check_output(&shards[0], crawl__report_flush(&shards[0], false));
    if (crawl__life_fatal(&shards[0])) {
      end = CRAWL_END_FATAL;
      if (!err[0])
        snprintf(err, err_size, "%s", crawl__life_err(&shards[0]));
    }
  }
  for (int i = 0; i < n; i++) {
    if (crawl__life_fatal(&shards[i]) && !err[0])
      snprintf(err, err_size, "%s", crawl__life_err(&shards[i]));
    if (n > 1 && shards[i].fr) /* -v: how the hosts, and so the work, were spread */
      crawl__notes_verbose(&shards[0], "shard %d of %d: %llu pages of %zu hosts", i + 1, n,
                           (unsigned long long)shard_stats[i].pages,
                           frontier_host_count(shards[i].fr));
    add_stats(stats, &shard_stats[i]);
    crawl_stats_free(&shard_stats[i]);
  }
  /* the time of all its runs, as its counts are (a --state crawl's start is set back by what
   * its runs before took) */
  double began = crawl__life_start(&shards[0]);
  stats->seconds = core_now() - (began < start ? began : start);
  stats->complete = crawl__restore_complete(&shards[0]);
  crawl__mesh_set_running(run, false);
  if (sink->status && end != CRAWL_END_PIPE && shards[0].fr)
    last_status(sink, shards, n, stats);
  for (int i = n - 1; i >= 0; i--)
    crawl__shard_close(&shards[i]);
  /* after every transfer: the jar as the crawl leaves it, stopped or not */
  if (cookies && cfg->save_cookies && fetch_cookies_save(cookies, cfg->save_cookies) != CORE_OK &&
      end != CRAWL_END_FATAL) {
    snprintf(err, err_size, "--save-cookies: cannot write '%s': %s", cfg->save_cookies,
             strerror(errno));
    end = CRAWL_END_FATAL;
  }
  fetch_cookies_destroy(cookies);
  crawl__fragments_destroy(fragments);
  run->cookies = NULL;
  run->fragments = NULL;
  shards_free(shards, shard_stats, errs, n);
  return end;
}
