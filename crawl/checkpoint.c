/* Keeping a crawl across runs: --seen FILE (the seen filter, with the URLs still to fetch) and
 * --state DIR (the whole crawl, checkpointed crash-safely).
 *
 * Both save the seen filter with an attachment (seen_save: a temporary file, fsync, rename,
 * then the directory fsync'd, all under a checksum). The attachment is what the crawl still has
 * to do, a line each, in the layout saved.c reads and writes.
 *
 * A save is made between two events of the loop: every URL accepted by then is in the filter and
 * either settled (its output written out first) or in one of those lines, so a crash loses
 * nothing accepted before the last save, and what settled after it is done again.
 *
 * With several shards there is still one file: they share one filter (each asks it only about
 * its own hosts), and the first shard saves while every other is paused between two turns
 * (crawl__mesh_pause), writing each shard's lines and the links on their way between them. Each
 * line says what it is about, not which shard wrote it, so a run with another number of shards
 * loads the file too: crawl__restore_split hands each line to the shard that owns it now. */
#include "crawl/bridge.h"
#include "crawl/life.h"
#include "crawl/budget.h"
#include "crawl/archive.h"
#include "crawl/checkpoint.h"
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/referrers.h"
#include "crawl/report.h"
#include "crawl/request.h"
#include "crawl/restore.h"
#include "crawl/saved.h"
#include "crawl/seed.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* The saves of a shard (--seen FILE, --state DIR): where they go and when. */
struct shard_save {
  const char *path;             /* --seen FILE or --state's DIR/checkpoint; NULL for neither */
  char *state_path, *prev_path; /* --state: DIR/checkpoint and the one before it */
  double every;                 /* seconds between saves */
  loop_timer *timer;
  bool final;         /* the save at the run's end is being written */
  bool damaged;       /* DIR/checkpoint could not be read (the run goes on from the one before): the
                         next save must not keep it as the one before */
  bool seen_borrowed; /* the shard's seen filter is the first shard's, which lets go of it */
};

struct snapshot {
  FILE *out;
  double now;
  uint64_t pages;
  /* --seen: the queued pages' records are written at this stop (pending), so the next run
   * fetches them without one; in a save before (all a kill leaves) they are still owed */
  bool recorded;
};

static core_rc snap_host(void *arg, frontier_host *fh) {
  struct snapshot *s = arg;
  const struct host_data *hd = frontier_host_data(fh);
  double wait = frontier_host_next_time(fh) - s->now;
  if (hd && (wait > 0 || hd->pages_started))
    fprintf(s->out, "host %.3f %ld %s\n", wait > 0 ? wait : 0, hd->pages_started,
            frontier_host_origin(fh));
  return CORE_OK;
}

static core_rc snap_item(void *arg, frontier_host *fh, const struct frontier_item *item) {
  (void)fh;
  struct snapshot *s = arg;
  if (item->kind == FRONTIER_PAGE || item->kind == FRONTIER_SITEMAP) {
    crawl__saved_put_item(s->out, item, item->flags | (s->recorded ? ITEM_QUIET : 0), s->now);
    s->pages += item->kind == FRONTIER_PAGE;
  }
  /* a host's lookup and robots.txt are queued again when the next run meets the host */
  return CORE_OK;
}

static void put_unfed(struct shard *c, const struct url *u, void *arg) {
  const struct snapshot *s = arg;
  unsigned flags = ITEM_SEED | (unsigned)VIA_SEED << ITEM_VIA_SHIFT;
  /* a line without ITEM_QUIET owes the seed's record to the next run: not when this stop writes
   * it (pending), nor when an earlier run wrote it */
  if (s->recorded || crawl__seed_recorded_before(c, u))
    flags |= ITEM_QUIET;
  crawl__saved_put_page(s->out, FRONTIER_PAGE, 0, 0, 0, flags, 0, NULL, u->text);
}

/* One shard's lines: its counters (with --state), queues, requests in flight, held links and what
 * a limit left for the next run. Adds its queued pages to *pages. */
static core_rc write_part(struct shard *c, FILE *out, double now, bool final, uint64_t *pages) {
  bool whole = c->cfg->state_dir != NULL;
  struct snapshot s = {out, now, crawl__saved_left_count(c),
                       !whole && final && crawl__life_end(c) != CRAWL_END_PIPE};
  if (whole) {
    struct crawl_stats_counter list[CRAWL_STATS_COUNTERS_MAX];
    size_t n;
    crawl__saved_counters(c->stats, list, &n);
    for (size_t i = 0; i < n; i++)
      fprintf(out, "stat %s %llu\n", list[i].name, (unsigned long long)*list[i].at);
    for (size_t i = 0; i < CRAWL_BROKEN_SHOWN && c->stats->broken_links[i].url; i++) {
      const struct crawl_broken_link *b = &c->stats->broken_links[i];
      fprintf(out, "broken %ld %s %s %d\n", b->status, b->from ? b->from : "-", b->url,
              (int)b->cause);
    }
  }
  core_rc rc = frontier_visit(c->fr, whole ? snap_host : NULL, snap_item, &s);
  for (const struct request *rq = crawl__request_next(c, NULL); rq && rc == CORE_OK; rq = rq->next)
    if (rq->item) /* started, not settled: fetched again */
      snap_item(&s, rq->host, rq->item);
  for (const struct held_page *hp = crawl__held_next(c, NULL); hp; hp = crawl__held_next(c, hp)) {
    fprintf(out, "held %d %s\n", hp->depth, hp->from);
    for (size_t i = 0; i < hp->count; i++) {
      if (hp->links[i].text == HELD_GONE) /* an earlier page holds it */
        continue;
      const char *rest;
      struct link_how how;
      int shared = (int)crawl__held_text(hp, i, &rest, &how);
      fprintf(out, "link %d %c %.*s%s\n", hp->links[i].depth, crawl__mail_how_code(how), shared,
              hp->from, rest);
    }
  }
  if (!whole) /* --seen: the seeds a stop left unoffered are left for the next run */
    crawl__seed_unfed_each(c, put_unfed, &s);
  /* the URLs cut beyond --depth are seen already: nothing but these lines keeps their records,
   * and the redirect of a page left here that would reach one, across a stop or a kill */
  if (rc == CORE_OK && (!crawl__saved_copy_left(c, out) || !crawl__depthcut_save(c, out)))
    rc = CORE_ESYS;
  /* the failed URLs whose records wait: a kill would lose the records (at the end they are
   * written, and the filter forgets the URLs) */
  if (rc == CORE_OK && !whole && !final && !crawl__saved_copy_waiting(c, out))
    rc = CORE_ESYS;
  *pages += s.pages;
  return rc;
}

/* Everything every shard still has to do, in a temporary file ready for seen_save (c is the
 * first shard; the others are paused or waiting at a barrier); NULL with errno set. */
static FILE *write_snapshot(struct shard *c, uint64_t *pages) {
  FILE *out = crawl__saved_temp_stream("save");
  if (!out)
    return NULL;
  double now = core_now();
  if (c->cfg->state_dir) { /* what the run counts once */
    fprintf(out, "stat pages_started %ld\n", crawl__budget_pages_started(c->run));
    uint64_t warc_bytes;
    if (crawl__archive_kept(c, &warc_bytes)) /* its records up to now stay */
      fprintf(out, "stat warc_bytes %llu\n", (unsigned long long)warc_bytes);
    uint64_t output_bytes; /* and so do the lines written up to now, flushed (save) */
    if (c->sink->kept && c->sink->kept(c->sink->arg, &output_bytes) == CORE_OK)
      fprintf(out, "stat output_bytes %llu\n", (unsigned long long)output_bytes);
    uint64_t links_bytes; /* and the link log's blocks, written with them (save) */
    if (crawl__referrers_kept(c, &links_bytes))
      fprintf(out, "stat links_bytes %llu\n", (unsigned long long)links_bytes);
    fprintf(out, "stat ms %.0f\n", (now - crawl__life_start(c)) * 1000);
    /* every seed before this one was offered (each shard feeds its own: the least of them) */
    size_t fed = c->cfg->seed_count;
    for (int i = 0; i < crawl__mesh_shards(c->run); i++)
      if (crawl__seed_next(crawl__mesh_shard(c->run, i)) < fed)
        fed = crawl__seed_next(crawl__mesh_shard(c->run, i));
    fprintf(out, "stat seeds_fed %zu\n", fed);
  }
  *pages = 0;
  core_rc rc = CORE_OK;
  int n = crawl__mesh_shards(c->run);
  for (int i = 0; i < n && rc == CORE_OK; i++)
    rc = write_part(crawl__mesh_shard(c->run, i), out, now, c->save->final, pages);
  if (n > 1 || crawl__mesh_is_cluster(c->run)) {
    crawl__mail_write_transit(c->run, out);
    crawl__bridge_write_transit(c, out);
  }
  /* a crawl that ended by itself with nothing left: continued, it says so and asks nothing */
  if (c->cfg->state_dir && c->save->final && !crawl__life_stop(c) &&
      crawl__life_end(c) == CRAWL_END_DONE && !*pages && !crawl__mesh_is_cluster(c->run))
    fprintf(out, "stat complete 1\n");
  if (rc != CORE_OK || fflush(out) != 0 || ferror(out)) {
    int saved = rc == CORE_OK || rc == CORE_ESYS ? errno : EIO;
    fclose(out);
    errno = saved;
    return NULL;
  }
  return out;
}

/* Saves the filter with everything still to do. With --state the save before stays beside it
 * (DIR/checkpoint.prev), for a checkpoint that cannot be read. */
static bool save(struct shard *c, uint64_t *pages) {
  const char *what = c->cfg->state_dir ? "--state" : "--seen";
  /* the URLs printed before this moment leave our buffers first: after a crash, the next run
   * does not print them again. Should one not be written (a full disk), the save would count as
   * settled a URL whose line is lost: the save before stays instead */
  for (int i = 0; i < crawl__mesh_shards(c->run); i++) {
    const struct shard *s = crawl__mesh_shard(c->run, i);
    if (crawl__report_flush(s, c->cfg->state_dir != NULL) != CORE_OK) {
      int err = s->sink->error(s->sink->arg);
      crawl__notes_warn(c, "%s not saved: %s could not be written%s", what, s->sink->name,
                        c->cfg->state_dir ? "; the checkpoint before stays" : "");
      /* the output is gone: a reader that left ends the crawl quietly (check_output), any
       * other error is the fatal one, named as such */
      if (err != EPIPE && !crawl__life_fatal(c))
        crawl__notes_fatal(c, "cannot write %s: %s", s->sink->name, strerror(err ? err : EIO));
      return false;
    }
  }
  /* the failed URLs' records waiting in the link log, as the lines printed */
  if (!crawl__referrers_flush_all(c, c->cfg->state_dir != NULL)) {
    crawl__notes_warn(c, "%s not saved: its link log could not be written%s", what,
                      c->cfg->state_dir ? "; the checkpoint before stays" : "");
    return false;
  }
  FILE *snap = write_snapshot(c, pages);
  if (!snap) {
    crawl__notes_warn(c, "%s: cannot write down the URLs still queued: %s", what, strerror(errno));
    return false;
  }
  /* a damaged checkpoint is not kept as the one before: the whole one stays there until a save
   * has taken the damaged one's place (a save that fails would leave two damaged files) */
  if (c->save->prev_path && !c->save->damaged) {
    unlink(c->save->prev_path);
    if (link(c->save->path, c->save->prev_path) != 0 && errno != ENOENT)
      crawl__notes_warn(c, "--state: cannot keep the checkpoint before: %s", strerror(errno));
  }
  char why[512] = "";
  core_rc rc = seen_save(c->seen, c->save->path, fileno(snap), why, sizeof(why));
  fclose(snap);
  if (rc == CORE_OK)
    c->save->damaged = false;
  fetch_cookies *cookies = crawl__mesh_cookies(c->run);
  if (rc == CORE_OK && cookies && c->cfg->state_dir) {
    /* the session the crawl has goes on with it; a jar not saved keeps the one before */
    char *path = crawl__saved_path_in(c->cfg->state_dir, "cookies");
    if (!path || fetch_cookies_save(cookies, path) != CORE_OK)
      crawl__notes_warn(c, "--state: cannot save the cookies: %s",
                        path ? strerror(errno) : "out of memory");
    free(path);
  }
  if (rc == CORE_OK)
    return true;
  crawl__notes_warn(c, "%s: %s%s", what, why[0] ? why : "out of memory",
                    c->save->prev_path ? "; the checkpoint before stays" : "");
  return false;
}

void crawl__checkpoint_on_timer(void *arg) {
  struct shard *c = arg; /* the first shard */
  uint64_t pages;
  if (crawl__mesh_pause(c->run)) {
    unsigned long mark = crawl__bridge_mark(c);
    if (save(c, &pages))
      crawl__bridge_saved(c, mark);
    crawl__mesh_resume(c->run);
  }
  loop_timer_start(c->save->timer, core_now() + c->save->every);
}

void crawl__checkpoint_cut_output(struct shard *c) {
  uint64_t keep = crawl__restore_output_keep(c);
  if (!c->cfg->state_resume || keep == UINT64_MAX || !c->sink->cut_back)
    return;
  if (c->sink->cut_back(c->sink->arg, keep) != CORE_OK)
    crawl__notes_fatal(c, "cannot cut %s back to its last checkpoint: %s", c->sink->name,
                       strerror(errno));
}

void crawl__checkpoint_final(struct shard *c) {
  /* c is the first shard, the others wait at a barrier. A filter that can remove forgets what
   * failed, so the next run tries it again (the saves before kept it: the run itself still counts
   * it seen); a --state crawl is one crawl */
  if (!c->cfg->state_dir && seen_forget_marked(c->seen) != CORE_OK && !crawl__life_fatal(c))
    crawl__notes_fatal(c, "out of memory");
  uint64_t pages = 0;
  unsigned long mark = crawl__bridge_mark(c);
  bool saved = false;
  c->save->final = true;
  if (crawl__saved_left_lost(c) && !crawl__life_fatal(c))
    crawl__notes_fatal(c, "%s: cannot make a temporary file for the URLs left queued",
                       c->cfg->state_dir ? "--state" : "--seen");
  else if (!(saved = save(c, &pages)) && !crawl__life_fatal(c))
    crawl__notes_fatal(c, "%s '%s' could not be saved", c->cfg->state_dir ? "--state" : "--seen",
                       c->cfg->state_dir ? c->cfg->state_dir : c->save->path);
  else
    c->stats->left = pages;
  if (saved)
    crawl__bridge_saved(c, mark);
}

core_rc crawl__checkpoint_cookies_open(const struct crawl_config *cfg, fetch_cookies **out,
                                       char *err, size_t err_size) {
  *out = NULL;
  if (cfg->no_cookies)
    return CORE_OK;
  fetch_cookies *jar;
  core_rc rc = fetch_cookies_create(&jar);
  if (rc != CORE_OK) {
    snprintf(err, err_size, "cannot start: out of memory");
    return rc;
  }
  if (cfg->load_cookies && (rc = fetch_cookies_load(jar, cfg->load_cookies)) != CORE_OK) {
    snprintf(err, err_size, "--load-cookies: cannot read '%s': %s", cfg->load_cookies,
             rc == CORE_ESYS ? strerror(errno) : core_rc_str(rc));
    fetch_cookies_destroy(jar);
    return rc;
  }
  char *kept =
      cfg->state_dir && cfg->state_resume ? crawl__saved_path_in(cfg->state_dir, "cookies") : NULL;
  struct stat st; /* there, and not a link (curl would follow it) */
  if (kept && lstat(kept, &st) == 0) {
    if (!S_ISLNK(st.st_mode)) {
      rc = fetch_cookies_load(jar, kept);
    } else {
      errno = ELOOP;
      rc = CORE_ESYS;
    }
  }
  if (rc != CORE_OK) {
    snprintf(err, err_size, "--state: cannot read the cookies '%s': %s", kept,
             rc == CORE_ESYS ? core_open_error(errno) : core_rc_str(rc));
    fetch_cookies_destroy(jar);
    free(kept);
    return rc;
  }
  free(kept);
  *out = jar;
  return CORE_OK;
}

static uint64_t random_seed(void) {
  uint64_t seed = 0;
  if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
    seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
  return seed;
}

/* Loads the filter and what was still to do from path (the one before, prev, when path cannot
 * be read). */
static core_rc load(struct shard *c, const char *path, const char *prev, char *why,
                    size_t why_size) {
  FILE *resumable = crawl__restore_file(c);
  core_rc rc = seen_load(path, &c->seen, fileno(resumable), why, why_size);
  if (rc == CORE_OK || !prev || rc == CORE_ENOMEM)
    return rc;
  /* torn or damaged (a disk that lied about fsync): the checkpoint before it is whole */
  c->save->damaged = rc != CORE_ENOTFOUND;
  if (ftruncate(fileno(resumable), 0) != 0 || fseek(resumable, 0, SEEK_SET) != 0)
    return CORE_ESYS;
  char prev_why[256] = "";
  core_rc before = seen_load(prev, &c->seen, fileno(resumable), prev_why, sizeof(prev_why));
  if (before == CORE_ENOTFOUND && rc != CORE_ENOTFOUND) { /* why names the damaged checkpoint */
    size_t len = strlen(why);
    snprintf(why + len, why_size - len, "; there is no checkpoint before it to continue from");
    return rc;
  }
  if (before == CORE_OK && c->save->damaged) /* said once there is one to continue from */
    crawl__notes_warn(c, "--state: '%s': %s; continuing from the checkpoint before it", path, why);
  if (before != CORE_OK && before != CORE_ENOMEM) { /* both unreadable: name the one before too */
    char damaged[256];
    snprintf(damaged, sizeof(damaged), "%s", why);
    snprintf(why, why_size, "%s; the checkpoint before it, '%s', cannot be read either: %s",
             damaged, prev, prev_why);
  }
  return before;
}

/* The filter that every shard asks, each about its own hosts, when there are several. */
static core_rc share(struct shard *c, bool shared) {
  core_rc rc = shared ? seen_share(c->seen) : CORE_OK;
  if (rc)
    crawl__notes_fatal(c, "cannot share the seen filter: %s", core_rc_str(rc));
  return rc;
}

core_rc crawl__checkpoint_open_seen(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  const char *what = cfg->state_dir ? "--state" : "--seen";
  char why[1024] = "";
  if (cfg->state_dir) {
    c->save->every = cfg->checkpoint;
    if (!(c->save->state_path = crawl__saved_path_in(cfg->state_dir, "checkpoint")) ||
        !(c->save->prev_path = crawl__saved_path_in(cfg->state_dir, "checkpoint.prev"))) {
      crawl__notes_fatal(c, "out of memory");
      return CORE_ENOMEM;
    }
    c->save->path = c->save->state_path;
  } else if (cfg->seen_file) {
    c->save->every = cfg->checkpoint_given ? cfg->checkpoint : SAVE_EVERY;
    c->save->path = cfg->seen_file;
  }
  if (c->save->path && c->shard > 0) {
    /* the first shard's filter: it loaded the file (crawl__restore_split hands this shard its
     * part), and it saves it */
    const struct shard *first = crawl__mesh_shard(c->run, 0);
    if (!first->seen) {
      crawl__notes_fatal(c, "cannot start: the first shard could not open %s", what);
      return CORE_EINVAL;
    }
    c->seen = first->seen;
    c->save->seen_borrowed = true;
    if (crawl__restore_continued(first))
      crawl__restore_set_continued(c);
    return CORE_OK;
  }
  bool shared = c->save->path && crawl__mesh_shards(c->run) > 1;
  if (c->save->path && seen_check_writable(c->save->path, why, sizeof(why)) != CORE_OK) {
    crawl__notes_fatal(c, "%s '%s': %s", what, c->save->path, why[0] ? why : "out of memory");
    return CORE_ESYS;
  }
  if (c->save->path) {
    if (!crawl__restore_file_make(c)) {
      crawl__notes_fatal(c, "%s '%s': cannot make a temporary file: %s", what, c->save->path,
                         strerror(errno));
      return CORE_ESYS;
    }
    /* under the lock: a save's temporary file left by a killed process is no one's now */
    size_t leftovers = seen_remove_leftovers(c->save->path);
    if (leftovers)
      crawl__notes_verbose(c, "%s: removed %zu temporary file%s a killed run left beside '%s'",
                           what, leftovers, leftovers == 1 ? "" : "s", c->save->path);
    core_rc rc = load(c, c->save->path, c->save->prev_path, why, sizeof(why));
    if (rc == CORE_OK) {
      struct seen_info info;
      seen_info(c->seen, &info);
      if (cfg->dedupe_given && info.kind != cfg->dedupe) {
        crawl__notes_fatal(
            c,
            "%s '%s': it holds a %s filter, not %s (run with --dedupe %s or use another "
            "file)",
            what, c->save->path, seen_kind_name(info.kind), seen_kind_name(cfg->dedupe),
            seen_kind_name(info.kind));
        return CORE_EFORMAT;
      }
      if (cfg->state_dir)
        crawl__restore_set_continued(c);
      return share(c, shared);
    }
    if (rc != CORE_ENOTFOUND) {
      crawl__notes_fatal(c, "%s '%s': %s", what, c->save->path,
                         rc == CORE_ENOMEM ? "out of memory" : why);
      return rc;
    }
    /* killed before its first checkpoint: the crawl begins again, and every exchange the --warc
     * file holds (perhaps a torn one last) is made again */
    if (cfg->state_resume)
      crawl__notes_warn(
          c,
          "--state '%s': the crawl kept there was stopped before its first checkpoint: "
          "it starts over from its seeds",
          cfg->state_dir);
    crawl__restore_start_over(c);
  }
  core_rc rc =
      seen_create(cfg->dedupe, crawl__budget_seen_expect(c), cfg->fp_rate, random_seed(), &c->seen);
  if (rc)
    crawl__notes_fatal(c, "cannot create the seen filter: %s", core_rc_str(rc));
  return rc ? rc : share(c, shared);
}

core_rc crawl__checkpoint_prepare(struct shard *c) {
  c->save = calloc(1, sizeof(*c->save));
  return c->save ? CORE_OK : CORE_ENOMEM;
}

core_rc crawl__checkpoint_timer_open(struct shard *c) {
  if (!c->save)
    return CORE_ENOMEM; /* crawl__checkpoint_prepare could not make it */
  return loop_timer_create(c->loop, crawl__checkpoint_on_timer, c, &c->save->timer);
}

void crawl__checkpoint_timer_start(struct shard *c) {
  if (c->save && c->save->path && c->shard == 0) /* the first shard saves for all */
    loop_timer_start(c->save->timer, core_now() + c->save->every);
}

void crawl__checkpoint_timer_stop(struct shard *c) {
  if (c->save && c->save->timer)
    loop_timer_stop(c->save->timer);
}

void crawl__checkpoint_close(struct shard *c) {
  if (!c->save || !c->save->seen_borrowed)
    seen_destroy(c->seen);
  c->seen = NULL;
  if (!c->save)
    return;
  free(c->save->state_path);
  free(c->save->prev_path);
  free(c->save); /* its timer is the loop's */
  c->save = NULL;
}
