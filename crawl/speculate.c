/* Speculative fetches: a polite crawl that finishes each depth before the next waits, at every
 * level, for the host slowest to finish it, while the others idle. So the links of a page fetched
 * ahead of its level, which are held back until the level comes (their depth is not known yet:
 * a shallower page may still link them), are fetched already, as speculative pages: not in the
 * seen filter, not printed, their outcome and their own links kept aside. When the held link is
 * offered for real, in breadth-first order, the URL is confirmed at the depth it has then (never
 * more than the speculative one) and its kept outcome is reported as if it had just happened;
 * a URL that turns out to have another fate (a nofollow link reached it first) is dropped.
 *
 * Only pages within --depth are speculated (a confirmed depth is never larger), never beyond the
 * queue's memory budget, and not with --seen or --state, whose saves keep only accepted URLs.
 * The depth gate keeps every unconfirmed page's level unsettled: the held page that names it is
 * pending one level up, so its links are always held (checked in intake.c).
 *
 * Confirmed, or accepted and fetched ahead of the gate (crawl__spec_adopt), a page's depth can
 * still shrink by one: a redirect of the level above, answered later, may name it, and a redirect
 * target has the redirect's depth (doc/behaviour.md, Depth). So until the gate reaches its
 * level its record waits in the held page of its links, and the entry stays here, where the
 * redirect finds it (crawl__spec_lower). */
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/report.h"
#include "crawl/speculate.h"
#include "crawl/stash.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

enum { SPEC_BUCKETS_MIN = 1024 };

static size_t bucket(const struct shard *c, const char *url) {
  return XXH3_64bits(url, strlen(url)) & (c->spec.buckets - 1);
}

struct spec *crawl__spec_find(struct shard *c, const char *url) {
  if (!c->spec.table)
    return NULL;
  for (struct spec *e = c->spec.table[bucket(c, url)]; e; e = e->next)
    if (strcmp(e->url, url) == 0)
      return e;
  return NULL;
}

void crawl__spec_remove(struct shard *c, struct spec *e) {
  struct spec **pp = &c->spec.table[bucket(c, e->url)];
  while (*pp != e)
    pp = &(*pp)->next;
  *pp = e->next;
  c->spec.count--;
  if (e->stashed) {
    crawl__stash_drop(c, e->stashed_at);
  } else if (e->held) {
    c->spec.links -= e->held->count;
    crawl__held_free(c, e->held);
  }
  free(e->type);
  free(e->location);
  free(e->error);
  free(e->redirect);
  free(e->from);
  free(e);
}

void crawl__spec_free_all(struct shard *c) {
  for (size_t b = 0; c->spec.table && b < c->spec.buckets; b++)
    while (c->spec.table[b])
      crawl__spec_remove(c, c->spec.table[b]);
  free(c->spec.table);
  c->spec.table = NULL;
}

/* A new entry for url, in the table; NULL when memory runs out. */
static struct spec *spec_insert(struct shard *c, const char *url, int depth, frontier_host *host) {
  if (!c->spec.table) {
    c->spec.buckets = SPEC_BUCKETS_MIN;
    if (!(c->spec.table = calloc(c->spec.buckets, sizeof(*c->spec.table))))
      return NULL;
  }
  size_t len = strlen(url);
  struct spec *e = calloc(1, sizeof(*e) + len + 1);
  if (!e)
    return NULL;
  memcpy(e->url, url, len + 1);
  e->depth = depth;
  e->host = host;
  size_t b = bucket(c, e->url);
  e->next = c->spec.table[b];
  c->spec.table[b] = e;
  c->spec.count++;
  return e;
}

void crawl__spec_consider(struct shard *c, const struct url *u, const char *from, int depth,
                          bool follow) {
  const struct crawl_config *cfg = c->cfg;
  /* within the budget of fetching ahead (twice --queue-memory): under it in speculative pages,
   * their kept links under ten times it (see set_lookahead), and never so many queued that a
   * page would go to the spill file, at the budget (a speculative page must be found again in the
   * queue): a quarter of it is left for what the crawl queues meanwhile */
  uint64_t budget = crawl__ahead_budget(c);
  if (!c->spec.on || !follow || depth > cfg->depth || u->unfetchable || c->fatal || c->stop)
    return;
  if (!url_scope_contains(c->scope, u->host))
    return; /* out of scope: recorded when its level comes, never fetched ahead */
  /* another shard's host is fetched by its owner alone, which keeps its politeness: the owner
   * is asked to fetch it ahead, and decides by its own budget */
  if (crawl__send_if_foreign(c, u, from, depth, 0, LINK_AHEAD, (struct link_how){VIA_NONE, true}))
    return;
  if (!c->spec.ahead || c->spec.count >= budget || frontier_spilled(c->fr) ||
      frontier_queued(c->fr) >= budget / 4 * 3)
    return;
  size_t len = strlen(u->text);
  if (seen_contains(c->seen, u->text, len) || crawl__spec_find(c, u->text))
    return;
  char ext[32];
  url_ext(u, ext, sizeof(ext));
  if (ext[0] && core_list_has(&cfg->skip_ext, ext))
    return;
  if (url_path_trap(u->text + u->path_off, cfg->max_path_repeat, cfg->max_path_segments) !=
      URL_TRAP_NONE)
    return; /* a spider trap is not followed (settle gives its fate), nor fetched ahead */
  struct host_data *hd = crawl__host_for(c, u);
  if (!hd || hd->dead)
    return;
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, u->text, from, depth);
  struct spec *e = item ? spec_insert(c, u->text, depth, hd->fhost) : NULL;
  if (!e) {
    frontier_item_free(item);
    return; /* it is fetched in its turn instead */
  }
  item->flags = ITEM_SPEC;
  frontier_push(c->fr, hd->fhost, item);
}

static char *copy_or_null(const char *s, bool *failed) {
  char *copy = s ? strdup(s) : NULL;
  *failed |= s && !copy;
  return copy;
}

void crawl__spec_keep_record(struct shard *c, const struct crawl_record *rec) {
  struct spec *e = crawl__spec_find(c, rec->url);
  if (!e || e->cancelled || e->done)
    return;
  bool failed = false;
  e->fate = (unsigned char)rec->fate;
  e->cause = (unsigned char)rec->cause;
  e->status = (int)rec->status;
  e->bytes = rec->bytes;
  e->ms = rec->ms;
  e->settled = rec->settled;
  e->type = copy_or_null(rec->type, &failed);
  e->location = copy_or_null(rec->location, &failed);
  e->error = copy_or_null(rec->error, &failed);
  e->done = true;
  if (failed)
    crawl__fatal(c, "out of memory");
}

void crawl__spec_keep_redirect(struct shard *c, const char *url, const char *target, int redirects,
                               struct link_how how) {
  struct spec *e = crawl__spec_find(c, url);
  if (!e || e->cancelled)
    return;
  free(e->redirect);
  if (!(e->redirect = strdup(target)))
    crawl__fatal(c, "out of memory");
  e->redirects = redirects;
  e->redirect_how = how;
}

bool crawl__spec_adopt(struct shard *c, struct request *rq) {
  const struct crawl_config *cfg = c->cfg;
  struct frontier_item *item = rq->item;
  if (!cfg->jsonl || rq->spec || (item->flags & ITEM_SPEC) ||
      rq->gate_depth <= frontier_gate(c->fr) || cfg->seen_file || cfg->state_dir ||
      c->stop == STOP_NOW || crawl__spec_find(c, item->url))
    return false;
  struct spec *e = spec_insert(c, item->url, rq->gate_depth, rq->host);
  if (!e)
    return false; /* reported now instead */
  e->accepted = true;
  e->rq = rq;
  rq->spec = e;
  item->flags |= ITEM_SPEC;
  return true;
}

/* An adopted page's request ends: its held page, with no links if it found none, keeps its
 * record and stays pending at its depth (crawl__request_free appends it). */
static void adopted_ended(struct shard *c, struct request *rq) {
  struct spec *e = rq->spec;
  rq->spec = NULL;
  e->rq = NULL;
  const struct frontier_item *item = rq->item;
  if (!e->done || (!rq->held && !(rq->held = crawl__held_new(c, e->url, rq->gate_depth))) ||
      !crawl__spec_wait(c, e, rq->held, item->from, item->flags & ~ITEM_SPEC))
    crawl__spec_remove(c, e); /* out of memory (fatal already) */
}

/* A fetched page's links, which wait for its confirmation: in the stash, or, where they cannot go
 * there, in memory within the budget of fetching ahead. */
static void keep_links(struct shard *c, struct spec *e, struct held_page *hp) {
  if (hp && crawl__stash_put(c, hp, &e->stashed_at)) {
    e->stashed = true;
    return;
  }
  e->held = hp;
  c->spec.links += hp ? hp->count : 0;
}

struct held_page *crawl__spec_take_links(struct shard *c, struct spec *e) {
  struct held_page *hp = NULL;
  if (e->stashed) {
    hp = crawl__stash_take(c, e->stashed_at);
    e->stashed = false;
  } else if ((hp = e->held)) {
    c->spec.links -= hp->count;
  }
  e->held = NULL;
  return hp;
}

void crawl__spec_request_ended(struct shard *c, struct request *rq) {
  struct spec *e = rq->spec;
  if (e->accepted) {
    adopted_ended(c, rq);
    return;
  }
  rq->spec = NULL;
  e->rq = NULL;
  if (rq->item && !e->cancelled) { /* fetched: its links wait with it for its confirmation */
    keep_links(c, e, rq->held);
  } else /* dropped, or given back for a retry (queued again) */
    crawl__held_free(c, rq->held);
  rq->held = NULL;
  if (rq->item && e->cancelled)
    crawl__spec_remove(c, e);
  frontier_release(c->fr, rq->gate_depth);
  rq->gate_depth = -1;
}

void crawl__spec_cancel(struct shard *c, struct spec *e) {
  if (e->rq) {
    e->cancelled = true; /* dropped when its request ends */
    return;
  }
  if (!e->done) {
    struct frontier_item *old = frontier_take_deeper(c->fr, e->host, e->url, -1);
    frontier_item_free(old);
  }
  crawl__spec_remove(c, e);
}

void crawl__spec_report(struct shard *c, struct spec *e, const char *from, int depth,
                        unsigned flags, bool offer_redirect) {
  c->stats->speculated += !e->accepted;
  struct crawl_record rec = {.url = e->url,
                             .from = from,
                             .depth = depth,
                             .fate = (crawl_fate)e->fate,
                             .cause = (crawl_cause)e->cause,
                             .status = e->status,
                             .type = e->type,
                             .bytes = e->bytes,
                             .ms = e->ms,
                             .location = e->location,
                             .error = e->error,
                             .settled = e->settled};
  crawl__report(c, flags, &rec);
  struct url target;
  if (offer_redirect && e->redirect && c->stop != STOP_NOW &&
      url_resolve(NULL, e->redirect, strlen(e->redirect), SIZE_MAX / 4, &target) == CORE_OK) {
    crawl__offer(c, &target, e->url, depth, e->redirects, OFFER_REDIRECT, e->redirect_how);
    url_free(&target);
  }
}

bool crawl__spec_wait(struct shard *c, struct spec *e, struct held_page *hp, const char *from,
                      unsigned flags) {
  if (from && !(e->from = strdup(from))) {
    crawl__fatal(c, "out of memory");
    return false;
  }
  e->flags = flags;
  e->waiting = hp;
  hp->page = e;
  return true;
}

void crawl__spec_settle(struct shard *c, struct held_page *hp, bool offer_redirect) {
  struct spec *e = hp->page;
  hp->page = NULL;
  crawl__spec_report(c, e, e->from, hp->depth, e->flags, offer_redirect);
  e->waiting = NULL;
  crawl__spec_remove(c, e);
}

bool crawl__spec_lower(struct shard *c, const char *url, const char *from, int depth,
                       struct link_how how) {
  struct spec *e = crawl__spec_find(c, url);
  if (!e || !e->waiting || e->waiting->depth <= depth)
    return false;
  char *copy = from ? strdup(from) : NULL;
  if (from && !copy) {
    crawl__fatal(c, "out of memory");
    return false;
  }
  /* from now on found by the redirect: its page and its via, as a queued page moved up */
  free(e->from);
  e->from = copy;
  e->flags = (e->flags & ~ITEM_VIA_MASK) | (unsigned)how.via << ITEM_VIA_SHIFT;
  crawl__held_move(c, e->waiting, depth);
  return true;
}
