/* Seeds enter the queue a window at a time (doc/behaviour.md, Memory); what a run leaves queued is
 * settled or kept for the next run. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/intake.h"
#include "crawl/logins.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/report.h"
#include "crawl/request.h"
#include "crawl/restore.h"
#include "crawl/saved.h"
#include "crawl/seed.h"
#include "crawl/speculate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A shard's seeds (made by crawl__seed_all, let go of by crawl__seed_close). They enter the
 * frontier a window at a time, so a million seeds on a million hosts do not make a million hosts
 * at once: cfg->seeds before next were offered, each by the shard that owns it; while some wait
 * (unfed), depth 0 stays pending in the gate. */
struct shard_seeds {
  size_t next;
  /* the seeds this shard owns not offered yet (exact); a link to one makes it a seed at once, as
   * if it had been offered first. NULL once every seed was offered. */
  seen_filter *unfed;
  /* the seeds an earlier run saw whose records it still owes: a kill lost them, as it loses a
   * failed URL's record, which waits for the crawl's end (doc/behaviour.md, Resuming). Each is
   * recorded when offered, as a new seed is. NULL when there are none, and once all were
   * offered. */
  seen_filter *owed;
};

static void record_unfed(struct shard *c, const struct url *u, void *arg) {
  (void)arg;
  unsigned flags = ITEM_SEED | (unsigned)VIA_SEED << ITEM_VIA_SHIFT;
  /* as it would be were it offered (intake's settle): quiet when -A leaves it out, or when an
   * earlier run recorded it */
  if (!crawl__intake_printable(c, u) || crawl__seed_recorded_before(c, u))
    flags |= ITEM_QUIET;
  struct frontier_item probe = {.flags = flags};
  /* a URL the crawl took, as intake counts the seeds it offers: the summary's "URLs discovered"
   * is the sum of its fates */
  c->stats->discovered++;
  crawl__report_record(c, &probe, u->text, NULL, 0, CRAWL_FATE_PENDING, 0, NULL);
}

/* What is still in flight or queued was accepted: every one gets its record, unless the output
 * is gone or a --state crawl only pauses (its records come when it goes on). */

void crawl__seed_settle_leftovers(struct shard *c, bool with_records) {
  crawl_fate fate = crawl__life_end(c) == CRAWL_END_DONE &&
                            crawl__budget_pages_exhausted(c->run, c->cfg->max_pages)
                        ? CRAWL_FATE_LIMIT
                        : CRAWL_FATE_PENDING;
  if (with_records) /* a crawl stopped while seeds waited: never offered, so never printed */
    crawl__seed_unfed_each(c, record_unfed, NULL);
  struct request *rq;
  while ((rq = crawl__request_next(c, NULL))) {
    if (rq->item && rq->item->kind == FRONTIER_PAGE && with_records &&
        !(rq->item->flags & ITEM_SPEC))
      crawl__report_item(c, rq->item, CRAWL_FATE_PENDING, 0, NULL);
    crawl__request_free(rq);
  }
  struct held_page *hp;
  while ((hp = crawl__held_take(c))) {         /* kept by the save (--state), or offered already */
    if (crawl__held_waits(hp) && with_records) /* fetched: its record, without its links */
      crawl__speculate_settle(c, hp, false);
    crawl__held_free(c, hp);
  }
  crawl__held_close(c);
  frontier_host *fh;
  struct frontier_item *item;
  while ((item = frontier_drain(c->fr, &fh))) {
    if (item->kind == FRONTIER_PAGE && with_records && !(item->flags & ITEM_SPEC))
      crawl__report_item(
          c, item, crawl__intake_unfetched_fate(c, frontier_host_data(fh), item, fate), 0, NULL);
    frontier_item_free(item);
  }
  crawl__speculate_free_all(c); /* what was never confirmed was never accepted */
  crawl__depthcut_close(c);
}

/* A seed whose record the last run owes: recorded when it is offered. */
static core_rc owe_record(struct shard *c, const struct url *u) {
  bool first;
  core_rc rc = c->seeds->owed ? CORE_OK : seen_create(SEEN_EXACT, 16, 0.5, 0, &c->seeds->owed);
  return rc == CORE_OK ? seen_add(c->seeds->owed, u->text, strlen(u->text), &first) : rc;
}

bool crawl__seed_recorded_before(const struct shard *c, const struct url *u) {
  size_t len = strlen(u->text);
  /* a seed not offered yet is in the filter only when an earlier run put it there */
  return seen_contains(c->seen, u->text, len) &&
         !(c->seeds && c->seeds->owed && seen_contains(c->seeds->owed, u->text, len));
}

bool crawl__seed_owed(struct shard *c, const struct url *u) {
  return c->seeds && c->seeds->owed &&
         seen_remove(c->seeds->owed, u->text, strlen(u->text)) == CORE_OK;
}

/* Queues the URLs the last run left (--seen), apart from the seeds; each passes this run's scope
 * and filters again. */
static void take_up_leftovers(struct shard *c, const seen_filter *given) {
  FILE *resumable = crawl__restore_file(c);
  if (!resumable)
    return;
  rewind(resumable);
  char *line = NULL;
  size_t cap = 0;
  struct saved s;
  struct held_page *hp = NULL;
  while (!crawl__life_fatal(c) && crawl__saved_next(resumable, &line, &cap, &s)) {
    /* a held page's links were found, not yet offered: new to this run, and held again until
     * this run's gate reaches their page's level. Offered at once, one a level beyond --depth
     * would be cut and seen before a seed left waiting finds it within the limit. A URL cut
     * beyond -d is seen, its record waiting */
    if (crawl__restore_waiting(c, &s, &hp))
      continue;
    if (s.kind != SAVED_PAGE && s.kind != SAVED_CUT && /* a cut one within this run's -d */
        !(s.kind == SAVED_TRANSIT && (s.flags == LINK_FOUND || s.flags == LINK_REDIRECT)))
      continue; /* what else the last run had is set up again by this one */
    struct url u;
    if (url_seed(s.url, c->cfg->max_url_length, &u) != CORE_OK)
      continue;
    if (s.kind == SAVED_TRANSIT) { /* on its way to its owner, this shard */
      crawl__intake_offer(c, &u, s.from, s.depth, s.redirects,
                          s.flags == LINK_REDIRECT ? OFFER_REDIRECT : OFFER_LINK, s.how);
    } else {
      /* a line without ITEM_QUIET has no record yet: a URL cut beyond the last run's -d, whose
       * record waited (within this run's -d it is fetched, and recorded then), or a page queued
       * at a save that a kill left (a stop's save marks its pages: it records them pending) */
      bool unrecorded = !(s.flags & ITEM_QUIET);
      enum offer_kind kind = unrecorded ? OFFER_UNRECORDED : OFFER_RESUME;
      /* a seed the last run's stop left unoffered, and recorded (pending), never reached the
       * filter: it does now, so neither this run's seed nor this line records it again */
      bool fresh;
      if (!unrecorded && (s.flags & ITEM_SEED) &&
          frontier_mark_seen(c->fr, u.text, &fresh) != CORE_OK)
        crawl__notes_fatal(c, "out of memory");
      /* a run leaves each URL once (the queue holds none twice): only a seed can repeat one, and
       * it is offered as the seed, its record owed when the line says so */
      if (seen_contains(given, u.text, strlen(u.text))) {
        if (unrecorded && s.kind == SAVED_PAGE && owe_record(c, &u) != CORE_OK)
          crawl__notes_fatal(c, "out of memory");
      } else if (crawl__intake_admitted(c, &u, kind)) {
        c->stats->resumed++;
        crawl__intake_offer(c, &u, s.from, s.depth, 0, kind,
                            (struct link_how){(unsigned char)ITEM_VIA(s.flags), true});
      }
    }
    url_free(&u);
  }
  free(line);
  if (ferror(resumable))
    crawl__notes_fatal(c, "--seen: cannot read back the URLs the last run left: %s",
                       strerror(errno));
  /* the file keeps them until this run's next save replaces them */
}

/* --no-parent: the seed's origin and the directory of its path, up to its last '/', added to
 * dirs (count of them). */
static core_rc add_seed_dir(char ***dirs, size_t *count, const struct url *u) {
  const char *path = u->text + u->path_off;
  size_t dir_len = strcspn(path, "?");
  while (dir_len && path[dir_len - 1] != '/')
    dir_len--;
  size_t origin_len = strlen(u->origin);
  char *dir = malloc(origin_len + dir_len + 1);
  char **grown = dir ? realloc(*dirs, (*count + 1) * sizeof(*grown)) : NULL;
  if (!grown) {
    free(dir);
    return CORE_ENOMEM;
  }
  memcpy(dir, u->origin, origin_len);
  memcpy(dir + origin_len, path, dir_len);
  dir[origin_len + dir_len] = '\0';
  *dirs = grown;
  (*dirs)[(*count)++] = dir;
  return CORE_OK;
}

/* Seed pages pending at once, at most, over the shards: enough to keep every slot of -c busy on
 * hosts of one request at a time, and few enough that hosts are made as they are reached. */
static size_t seed_window(const struct shard *c) {
  size_t window = 4 * (size_t)c->cfg->concurrency;
  window = window < 1024 ? 1024 : window;
  return window / (size_t)crawl__mesh_shards(c->run) + 1;
}

bool crawl__seed_waiting(const struct shard *c) {
  return c->seeds && c->seeds->unfed;
}

size_t crawl__seed_next(const struct shard *c) {
  return c->seeds ? c->seeds->next : 0;
}

/* Whether cfg->seeds[i] parses into *u as a seed this shard owns and has not offered yet (and
 * takes it off that list when take); *u is to be freed when true. */
static bool unfed_seed(struct shard *c, size_t i, bool take, struct url *u) {
  core_rc rc = crawl__logins_seed_url(c->cfg->seeds[i], c->cfg->max_url_length, u);
  if (rc == CORE_ENOMEM) /* the seed would be lost: the crawl ends, and a --state run keeps it */
    crawl__notes_fatal(c, "out of memory");
  if (rc != CORE_OK) /* one that is no URL was refused at the start */
    return false;
  bool unfed = take ? seen_remove(c->seeds->unfed, u->text, strlen(u->text)) == CORE_OK
                    : seen_contains(c->seeds->unfed, u->text, strlen(u->text));
  if (!unfed)
    url_free(u);
  return unfed;
}

/* Every seed was offered: depth 0 is no longer held for them. */
static void seeds_fed(struct shard *c) {
  seen_destroy(c->seeds->unfed);
  c->seeds->unfed = NULL;
  seen_destroy(c->seeds->owed); /* every seed was offered, the owed ones to be recorded */
  c->seeds->owed = NULL;
  c->seeds->next = c->cfg->seed_count;
  frontier_release(c->fr, 0);
}

/* Offers the next seeds this shard owns while fewer than seed_window pages of depth 0 are
 * pending (all of them once -n is reached: settle makes no host for them then). */
void crawl__seed_feed(struct shard *c) {
  if (!crawl__seed_waiting(c) || crawl__life_stop(c) || crawl__life_fatal(c))
    return; /* a stopped crawl leaves them to the save (write_part) or to its continuation */
  bool all = crawl__budget_pages_exhausted(c->run, c->cfg->max_pages);
  size_t window = seed_window(c) + 1; /* the hold counts as one pending page */
  while (c->seeds->next < c->cfg->seed_count && !crawl__life_fatal(c) &&
         (all || frontier_pending(c->fr, 0) < window)) {
    struct url u;
    if (unfed_seed(c, c->seeds->next++, true, &u)) {
      crawl__intake_offer(c, &u, NULL, 0, 0, OFFER_SEED, crawl__intake_seed_how);
      url_free(&u);
    }
  }
  if (c->seeds->next == c->cfg->seed_count)
    seeds_fed(c);
}

/* A link to a seed not offered yet: it is offered as the seed now, as if it had come first. */
bool crawl__seed_found_early(struct shard *c, const struct url *u) {
  if (!crawl__seed_waiting(c) || seen_remove(c->seeds->unfed, u->text, strlen(u->text)) != CORE_OK)
    return false;
  crawl__intake_settle(c, u, true, NULL, 0, 0, OFFER_SEED, crawl__intake_seed_how);
  return true;
}

void crawl__seed_unfed_each(struct shard *c, void (*fn)(struct shard *, const struct url *, void *),
                            void *arg) {
  for (size_t i = crawl__seed_next(c); crawl__seed_waiting(c) && i < c->cfg->seed_count; i++) {
    struct url u;
    if (unfed_seed(c, i, false, &u)) {
      fn(c, &u, arg);
      url_free(&u);
    }
  }
}

/* The scope and --no-parent's directories, made by the first shard from every seed and read by
 * all (shard_open makes the shards one after the other, before any runs); the run keeps them. */
core_rc crawl__seed_open_scope(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  if (c->shard > 0)
    return crawl__mesh_scope(c->run) ? CORE_OK : CORE_EINVAL;
  url_scope *scope = NULL;
  char **dirs = NULL;
  size_t dir_count = 0;
  core_rc rc = url_scope_create(cfg->scope_mode, &cfg->domains, &cfg->exclude_domains, &scope);
  for (size_t i = 0; i < cfg->seed_count && rc == CORE_OK; i++) {
    struct url u;
    if ((rc = crawl__logins_seed_url(cfg->seeds[i], cfg->max_url_length, &u)) != CORE_OK) {
      crawl__notes_fatal(c, "invalid seed URL: %s", core_rc_str(rc)); /* it may hold a password */
      break;
    }
    rc = url_scope_add_seed(scope, u.host);
    if (rc == CORE_OK && cfg->no_parent)
      rc = add_seed_dir(&dirs, &dir_count, &u);
    url_free(&u);
  }
  if (rc != CORE_OK) {
    url_scope_destroy(scope);
    for (size_t i = 0; i < dir_count; i++)
      free(dirs[i]);
    free(dirs);
    return rc;
  }
  crawl__mesh_set_scope(c->run, scope, dirs, dir_count);
  return CORE_OK;
}

core_rc crawl__seed_all(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  if (!c->seeds && !(c->seeds = calloc(1, sizeof(*c->seeds))))
    return CORE_ENOMEM;
  bool continued = crawl__restore_continued(c);
  if (continued) /* the seeds before it were offered by an earlier run */
    c->seeds->next = crawl__restore_seeds_fed(c);
  /* One pass over the seeds, each parsed once, makes:
   * - with --no-parent, every seed's directory;
   * - the seeds this shard offers (and with --cluster, its process does), each once: a seed
   *   given twice is one seed. A continued crawl leaves out those its seen filter has: they were
   *   offered before the save, whatever the order of the shards that offered them;
   * - with the URLs a --seen file's last run left, every seed, which they are taken up apart
   *   from. */
  seen_filter *given = NULL;
  core_rc rc = seen_create(SEEN_EXACT, cfg->seed_count, 0.5, 0, &c->seeds->unfed);
  if (rc == CORE_OK && !continued && crawl__restore_file(c))
    rc = seen_create(SEEN_EXACT, cfg->seed_count, 0.5, 0, &given);
  for (size_t i = 0; i < cfg->seed_count && rc == CORE_OK && !crawl__life_fatal(c); i++) {
    struct url u;
    bool first;
    core_rc parsed = crawl__logins_seed_url(cfg->seeds[i], cfg->max_url_length, &u);
    if (parsed == CORE_ENOMEM) { /* skipped, the seed would be lost */
      rc = parsed;
      break;
    }
    if (parsed != CORE_OK) /* one that is no URL was refused at the start */
      continue;
    if (i >= c->seeds->next && crawl__mesh_owner(c, u.host) == c->shard &&
        crawl__mesh_node_of(c->run, u.host) == (int)cfg->node &&
        !(continued && seen_contains(c->seen, u.text, strlen(u.text))))
      rc = seen_add(c->seeds->unfed, u.text, strlen(u.text), &first);
    if (rc == CORE_OK && given)
      rc = seen_add(given, u.text, strlen(u.text), &first);
    url_free(&u);
  }
  if (rc != CORE_OK || crawl__life_fatal(c)) {
    seen_destroy(c->seeds->unfed);
    c->seeds->unfed = NULL;
    seen_destroy(given);
    return rc;
  }
  /* after the list is made: a link restored to a seed not offered yet makes it a seed at once */
  if (continued)
    crawl__restore(c);
  frontier_hold(c->fr, 0); /* depth 1 waits for every seed, as if all had been queued first */
  /* the URLs the last run left (--seen), before the first window of seeds: they say which seeds
   * still owe their records */
  if (given)
    take_up_leftovers(c, given);
  seen_destroy(given);
  crawl__seed_feed(c);
  return CORE_OK;
}

void crawl__seed_close(struct shard *c) {
  if (c->seeds) {
    seen_destroy(c->seeds->unfed);
    seen_destroy(c->seeds->owed);
  }
  free(c->seeds);
  c->seeds = NULL;
}

void crawl__seed_leave_queued(struct shard *c) {
  frontier_host *fh;
  struct frontier_item *item;
  while ((item = frontier_drain(c->fr, &fh))) {
    if (item->kind == FRONTIER_PAGE && !(item->flags & ITEM_SPEC))
      crawl__intake_settle_over_limit(c, frontier_host_data(fh), item);
    else
      frontier_item_free(item);
  }
}
