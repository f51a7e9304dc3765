/* The intake: every URL found (a link, a redirect's target, a seed, a sitemap entry) is admitted
 * or not (scope, filters, trap guards), checked against the seen filter a batch at a time, and
 * settled: printed and queued, or given its fate at once. Depth order comes first: links of a
 * page fetched ahead of its level are held (held.c) until the gate reaches it. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/depthcut.h"
#include "crawl/fragments.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/queries.h"
#include "crawl/referrers.h"
#include "crawl/report.h"
#include "crawl/saved.h"
#include "crawl/speculate.h"

#include <stdlib.h>
#include <string.h>

/* Whether u, a URL new to the crawl whose path (path_len bytes) has a query, breaks
 * --max-query-variants, found on the page from (NULL for none). *hd is u's host, made when
 * needed; *failed is set when memory runs out. */
static bool query_trapped(struct shard *c, const struct url *u, const char *from, size_t path_len,
                          struct host_data **hd, bool *failed) {
  if (!from || strncmp(from, u->text, u->path_off) != 0 || from[u->path_off] != '/')
    return false; /* found on no page, or on another host's */
  if (!*hd && !(*hd = crawl__host_for(c, u)))
    return false; /* out of memory: the crawl ends as fatal */
  return crawl__queries_trapped(c, &(*hd)->queries, u, from, path_len, failed);
}

/* The spider-trap rule (doc/behaviour.md, Trap guards) a URL new to this crawl, found on the page
 * from, breaks, written into why, or false. *hd is u's host: looked up (and made, with its setup
 * steps) only for the query rule, which counts on it, as the URL is queued then anyway; a path
 * trap makes no host of its own. -v names the first rule a known host trips. */
static bool trapped(struct shard *c, const struct url *u, const char *from, struct host_data **hd,
                    char *why, size_t why_size) {
  const struct crawl_config *cfg = c->cfg;
  const char *path = u->text + u->path_off;
  switch (url_path_trap(path, cfg->max_path_repeat, cfg->max_path_segments)) {
    case URL_TRAP_REPEAT:
      snprintf(why, why_size, "--max-path-repeat %ld: a segment or a pair of them repeats",
               cfg->max_path_repeat);
      break;
    case URL_TRAP_SEGMENTS:
      snprintf(why, why_size, "--max-path-segments %ld: more path segments",
               cfg->max_path_segments);
      break;
    case URL_TRAP_NONE: {
      const char *query = strchr(path, '?');
      if (!query || cfg->max_query_variants <= 0)
        return false;
      bool failed = false;
      if (!query_trapped(c, u, from, (size_t)(query - path), hd, &failed)) {
        if (failed)
          crawl__notes_fatal(c, "out of memory");
        return false;
      }
      snprintf(why, why_size, "--max-query-variants %ld: more query strings under this path",
               crawl__queries_most((*hd)->queries, cfg));
      break;
    }
  }
  frontier_host *fh = *hd ? frontier_host_of_data(*hd) : frontier_host_find(c->fr, u->origin);
  struct host_data *known = fh ? frontier_host_data(fh) : NULL;
  if (!known || !known->trap_noted) {
    if (known)
      known->trap_noted = true;
    crawl__notes_verbose(c,
                         "%s: not following URLs that look like a spider trap (%s), the first %s",
                         u->host, why, u->text);
  }
  return true;
}

static bool regex_any(const struct crawl_regex_list *list, const char *text) {
  for (size_t i = 0; i < list->count; i++)
    if (regexec(&list->items[i], text, 0, NULL, 0) == 0)
      return true;
  return false;
}

/* --no-parent: whether u lies at or below the directory of a seed on its host. */
static bool under_a_seed(const struct shard *c, const struct url *u) {
  size_t origin_len = strlen(u->origin);
  const char *path = u->text + u->path_off;
  size_t dir_count;
  const char *const *dirs = crawl__mesh_seed_dirs(c->run, &dir_count);
  for (size_t i = 0; i < dir_count; i++) {
    const char *dir = dirs[i]; /* origin + directory, as seed.c's add_seed_dir makes it */
    if (strncmp(dir, u->origin, origin_len) == 0 && dir[origin_len] == '/' &&
        strncmp(path, dir + origin_len, strlen(dir + origin_len)) == 0)
      return true;
  }
  return false;
}

/* Whether a URL found (not a seed) passes the scope and the user's filters. */
bool crawl__intake_admitted(const struct shard *c, const struct url *u, enum offer_kind kind) {
  const struct crawl_config *cfg = c->cfg;
  if (kind == OFFER_SEED)
    return true;
  /* a link or redirect out of scope goes on, to be recorded once as outside (settle) */
  bool found = kind == OFFER_LINK || kind == OFFER_REDIRECT;
  if (!found && !url_scope_contains(crawl__mesh_scope(c->run), u->host))
    return false;
  if (cfg->no_parent && !under_a_seed(c, u) &&
      (!found || url_scope_contains(crawl__mesh_scope(c->run), u->host)))
    return false;
  if (cfg->reject_ext.count) { /* every link of every page comes here: the extension only then */
    char ext[64];
    url_ext(u, ext, sizeof(ext));
    if (ext[0] && core_list_has_ext(&cfg->reject_ext, ext))
      return false;
  }
  if (cfg->match.count && !regex_any(&cfg->match, u->text)) {
    c->stats->match_dropped++; /* for the summary, when nothing matched at all */
    return false;
  }
  return !regex_any(&cfg->exclude, u->text);
}

/* A redirect target keeps the depth of the URL that redirected (doc/behaviour.md, Depth): found
 * before as a link one level deeper and still queued, it moves up to the redirect's depth. */
/* A page to queue, with its redirect hops so far and its flags; NULL (the crawl ended as fatal)
 * when memory runs out. */
static struct frontier_item *new_page(struct shard *c, const char *url, const char *from, int depth,
                                      int redirects, unsigned flags) {
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, from, depth);
  if (!item) {
    crawl__notes_fatal(c, "out of memory");
    return NULL;
  }
  item->redirects = redirects;
  item->flags = flags;
  return item;
}

/* The flags of a page a redirect reached: from now on found by the redirect, its page and its
 * via. */
static unsigned found_by_redirect(const struct frontier_item *old, struct link_how how) {
  return (old->flags & ~ITEM_VIA_MASK) | (unsigned)how.via << ITEM_VIA_SHIFT;
}

static void lower_queued(struct shard *c, const struct url *u, const char *from, int depth,
                         int redirects, struct link_how how) {
  frontier_host *fh = frontier_host_find(c->fr, u->origin);
  struct frontier_item *old = fh ? frontier_take_deeper(c->fr, fh, u->text, depth) : NULL;
  if (!old)
    return;
  struct frontier_item *item =
      new_page(c, u->text, from, depth, redirects, found_by_redirect(old, how));
  if (!item) {
    frontier_push(c->fr, fh, old);
    return;
  }
  frontier_item_free(old);
  frontier_push(c->fr, fh, item);
}

/* The same for a page in flight ahead of the gate (-c and the one level of lookahead let a page
 * start before the level above is done): it counts at depth from now on, and so do its links. */
static bool lower_in_flight(struct shard *c, const struct url *u, const char *from, int depth,
                            int redirects, struct link_how how) {
  if (!c->hooks.in_flight_next)
    return false;
  for (struct request *rq = c->hooks.in_flight_next(c, NULL); rq; rq = rq->next) {
    struct frontier_item *old = rq->item;
    if (!old || old->kind != FRONTIER_PAGE || (old->flags & ITEM_SPEC) || rq->gate_depth <= depth ||
        strcmp(old->url, u->text) != 0)
      continue;
    struct frontier_item *item =
        new_page(c, u->text, from, depth, redirects, found_by_redirect(old, how));
    if (!item)
      return true;
    item->attempts = old->attempts;
    frontier_move_pending(c->fr, rq->gate_depth, depth);
    rq->gate_depth = depth;
    crawl__held_at(rq->held, depth);
    frontier_item_free(old);
    rq->item = item;
    return true;
  }
  return false;
}

const struct link_how crawl__intake_seed_how = {VIA_SEED, true};

/* A URL settled without a fetch: a speculative fetch of it is dropped. */
static void settle_unfetched(struct shard *c, struct spec *spec, const struct frontier_item *probe,
                             const char *url, const char *from, int depth, crawl_fate fate,
                             crawl_cause cause, const char *error) {
  if (spec)
    crawl__speculate_cancel(c, spec);
  crawl__report_record(c, probe, url, from, depth, fate, cause, error);
}

/* A speculative page offered for real at depth: from now on an accepted page like any other.
 * Fetched already, its kept outcome is reported, and its links are held for their level; but
 * while the gate has not reached depth, a redirect of the level above may still reach it and give
 * it that level (as lower_queued does for a queued page), so then its record waits with its links
 * until the level comes. Being fetched, it counts at its depth; queued, it is queued again at
 * its depth. */
static void confirm(struct shard *c, struct spec *e, const char *from, int depth, int redirects,
                    unsigned flags) {
  if (e->done) {
    struct held_page *hp = crawl__speculate_take_links(c, e);
    if (depth > frontier_gate(c->fr)) {
      if (!hp && !(hp = crawl__held_new(c, e->url, depth)))
        return;
      crawl__held_at(hp, depth);
      if (crawl__speculate_wait(c, e, hp, from, flags))
        crawl__held_queue(c, hp);
      else
        crawl__held_free(c, hp);
      return;
    }
    crawl__speculate_report(c, e, from, depth, flags, true);
    crawl__held_at(hp, depth);
    if (hp)
      crawl__held_queue(c, hp);
    crawl__speculate_remove(c, e);
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
    crawl__held_at(rq->held, depth);
    frontier_item_free(rq->item);
    rq->item = item;
    rq->spec = NULL;
    crawl__speculate_remove(c, e);
    return;
  }
  frontier_host *host = e->host;
  struct frontier_item *old = frontier_take_deeper(c->fr, host, e->url, -1);
  if (old) {
    item->attempts = old->attempts;
    item->not_before = old->not_before;
    frontier_item_free(old);
  }
  crawl__speculate_remove(c, e);
  frontier_push(c->fr, host, item);
}

/* An admitted URL after the seen filter: printed when fresh, then queued or given its fate. */
static void settle_outside(struct shard *c, const struct url *u, const char *from, int depth,
                           struct link_how how);

/* -A: whether a URL of extension ext is printed (and recorded), in scope or out of it. */
static bool accepted_ext(const struct crawl_config *cfg, const char *ext) {
  return !cfg->accept_ext.count || (ext[0] && core_list_has_ext(&cfg->accept_ext, ext));
}

bool crawl__intake_printable(const struct shard *c, const struct url *u) {
  char ext[64];
  url_ext(u, ext, sizeof(ext));
  return accepted_ext(c->cfg, ext);
}

void crawl__intake_settle(struct shard *c, const struct url *u, bool fresh, const char *from,
                          int depth, int redirects, enum offer_kind kind, struct link_how how) {
  const struct crawl_config *cfg = c->cfg;
  if (fresh && (kind == OFFER_LINK || kind == OFFER_REDIRECT) && c->hooks.seed_found(c, u))
    return;
  /* out of scope: new ones only, checked once a URL, not on every link to it */
  if ((kind == OFFER_LINK || kind == OFFER_REDIRECT) &&
      (!fresh || !url_scope_contains(crawl__mesh_scope(c->run), u->host))) {
    if (fresh) {
      settle_outside(c, u, from, depth, how);
      return;
    }
    if (kind == OFFER_LINK)
      return; /* seen before: nothing to do, in scope or out */
  }
  /* seeds are always fetched, but printed only when new (--seen); so are the URLs an earlier
   * run left queued, which it printed */
  /* a redirect's target found first one level deeper: it moves up, wherever it waits */
  if (!fresh && kind == OFFER_REDIRECT && !crawl__speculate_lower(c, u->text, from, depth, how) &&
      !lower_in_flight(c, u, from, depth, redirects, how))
    lower_queued(c, u, from, depth, redirects, how);
  bool rescue = !fresh && kind == OFFER_REDIRECT && crawl__depthcut_rescued(c, u, depth);
  if (!fresh && (kind == OFFER_LINK || kind == OFFER_REDIRECT) && !rescue)
    return;
  char ext[64];
  url_ext(u, ext, sizeof(ext));
  bool printable = accepted_ext(cfg, ext);
  /* a URL the crawl takes: new to it, or a seed or leftover an earlier run (--seen) saw, fetched
   * again, whose fate counts as every other's (the summary's fates add up to its discovered) */
  if (fresh || kind == OFFER_SEED || kind == OFFER_RESUME || kind == OFFER_UNRECORDED)
    c->stats->discovered++;
  if (fresh) {
    c->stats->printed += printable && kind != OFFER_SEED;
    if (printable && !cfg->jsonl)
      crawl__report_url(c, u->text);
  }
  /* a record no run has written */
  bool owed = fresh || rescue || kind == OFFER_UNRECORDED ||
              (kind == OFFER_SEED && c->hooks.seed_owed && c->hooks.seed_owed(c, u));
  struct frontier_item probe = {.flags = (printable && owed ? 0 : ITEM_QUIET) |
                                         (kind == OFFER_SEED ? ITEM_SEED : 0) |
                                         (unsigned)how.via << ITEM_VIA_SHIFT};
  /* fetched already, ahead of its level, when it is a speculative page */
  struct spec *spec = fresh ? crawl__speculate_find(c, u->text) : NULL;
  if (!how.follow) {
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_ROBOTS, 0, NULL);
    return;
  }
  if (kind == OFFER_REDIRECT && redirects > cfg->max_redirs) {
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_LIMIT, 0, NULL);
    return;
  }
  if (kind != OFFER_SEED && ext[0] && core_list_has_ext(&cfg->skip_ext, ext)) {
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
      crawl__speculate_cancel(c, spec);
    crawl__depthcut_add(c, &probe, u->text, from, depth);
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
    if (trapped(c, u, from, &hd, why, sizeof(why))) {
      settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_TRAP, 0, why);
      return;
    }
  }
  if (spec) {
    confirm(c, spec, from, depth, redirects, probe.flags);
    return;
  }
  if (kind == OFFER_SEED && !hd && crawl__budget_pages_exhausted(c->run, c->cfg->max_pages) &&
      !frontier_host_find(c->fr, u->origin)) {
    /* a seed fed after -n was reached (feed_seeds): settled as its page would be once popped,
     * without making a host that would never be asked anything */
    struct frontier_item *item = new_page(c, u->text, from, depth, redirects, probe.flags);
    if (item)
      crawl__intake_settle_over_limit(c, NULL, item);
    return;
  }
  if (!hd && !(hd = crawl__host_for(c, u)))
    return;
  if (!hd->reached) {
    hd->reached = true;
    if (how.via >= VIA_REDIRECT && how.via < VIA_PAGE)
      hd->redirected_from = (url_addr_kind)(how.via - VIA_REDIRECT);
  }
  if (hd->dead) {
    char why[HOST_DNS_ERROR_MAX];
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS,
                     crawl__host_dns_error(hd->dead, why, sizeof(why)));
    return;
  }
  if (!cfg->jsonl && crawl__host_robots_excludes(c, hd, u->text + u->path_off)) {
    /* queued, it would wait for its host's turn only to be dropped, and hold its level (the
     * depth gate) and the crawl's end until then. With --jsonl, whose records say depths, it
     * is queued: a redirect of the level above may still give it that level (lower_queued) */
    settle_unfetched(c, spec, &probe, u->text, from, depth, CRAWL_FATE_ROBOTS, 0, NULL);
    return;
  }
  struct frontier_item *item = new_page(c, u->text, from, depth, redirects, probe.flags);
  if (!item || frontier_push_new(c->fr, frontier_host_of_data(hd), item) == CORE_OK)
    return;
  /* the spill file is at --queue-disk: the page is not queued, and says why */
  c->stats->queue_full++;
  if (crawl__budget_disk_full_once(c))
    crawl__notes_verbose(
        c, "the queue's spill file is at --queue-disk: URLs found from now on are not "
           "queued (fate limit) until it drains; a larger --queue-disk raises it");
  crawl__report_item(c, item, CRAWL_FATE_LIMIT, 0, "--queue-disk: the queue's spill file is full");
  frontier_item_free(item);
}

/* A link out of scope (doc/behaviour.md, Scope): one record, printed only with
 * --print-outside. With --check-outside it is a checked link instead: requested once, politely,
 * HEAD (GET when HEAD is refused), its fate the answer's, its links not followed. */
static void settle_outside(struct shard *c, const struct url *u, const char *from, int depth,
                           struct link_how how) {
  const struct crawl_config *cfg = c->cfg;
  bool printable = crawl__intake_printable(c, u);
  if (printable && cfg->print_outside && !cfg->jsonl)
    crawl__report_url(c, u->text);
  struct frontier_item probe = {.flags = (printable ? 0 : ITEM_QUIET) | (unsigned)how.via
                                                                            << ITEM_VIA_SHIFT};
  if (!cfg->check_outside || u->unfetchable) {
    crawl__report_record(c, &probe, u->text, from, depth, CRAWL_FATE_OUTSIDE, 0, NULL);
    return;
  }
  struct host_data *hd = crawl__host_for(c, u);
  if (!hd)
    return;
  if (hd->dead) {
    char why[HOST_DNS_ERROR_MAX];
    crawl__report_record(c, &probe, u->text, from, depth, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS,
                         crawl__host_dns_error(hd->dead, why, sizeof(why)));
    return;
  }
  struct frontier_item *item = new_page(c, u->text, from, depth, 0, probe.flags | ITEM_HEAD);
  if (item)
    frontier_push(c->fr, frontier_host_of_data(hd), item);
}

/* A URL found: print it when it is new and in scope, then queue it or settle its fate. Another
 * shard's URL goes to that shard, which decides. */
void crawl__intake_offer(struct shard *c, const struct url *u, const char *from, int depth,
                         int redirects, enum offer_kind kind, struct link_how how) {
  if (!crawl__intake_admitted(c, u, kind))
    return;
  if (crawl__mail_shared(c) && (kind == OFFER_LINK || kind == OFFER_REDIRECT) &&
      crawl__mail_send_if_foreign(c, u, from, depth, redirects,
                                  kind == OFFER_REDIRECT ? LINK_REDIRECT : LINK_FOUND, how))
    return;
  crawl__intake_offer_owned(c, u, from, depth, redirects, kind, how);
}

void crawl__intake_offer_owned(struct shard *c, const struct url *u, const char *from, int depth,
                               int redirects, enum offer_kind kind, struct link_how how) {
  bool fresh;
  if (frontier_mark_seen(c->fr, u->text, &fresh) != CORE_OK) {
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  crawl__intake_settle(c, u, fresh, from, depth, redirects, kind, how);
}

void crawl__intake_take_owned(struct shard *c, enum link_kind kind, const struct url *u,
                              const char *page, int depth, int redirects, struct link_how how) {
  if (kind == LINK_SITEMAP)
    crawl__host_queue_sitemap_url(c, u, depth);
  else if (kind == LINK_AHEAD)
    crawl__speculate_consider(c, u, page, depth, how.follow);
  else
    crawl__intake_offer_owned(c, u, page, depth, redirects,
                              kind == LINK_REDIRECT ? OFFER_REDIRECT : OFFER_LINK, how);
}

/* href resolved against base into *u, or false with the reason counted (and noted with -v). */
bool crawl__intake_resolve_href(struct shard *c, const struct url *base, const char *href,
                                size_t len, const char *charset, const char *from, struct url *u) {
  core_rc rc = url_resolve_in(base, href, len, c->cfg->max_url_length, charset, u);
  /* a link's user:password@ is never printed, nor sent (doc/network.md, Logins); it can only be
   * before the path, where an '@' is looked for */
  if (rc == CORE_OK && memchr(u->text, '@', u->path_off) &&
      (rc = url_take_userinfo(u, NULL, NULL)) != CORE_OK)
    url_free(u);
  if (rc == CORE_OK)
    return true;
  if (rc == CORE_ETOOLONG) {
    c->stats->too_long++;
  } else if (rc == CORE_ENOMEM) {
    crawl__notes_fatal(c, "out of memory");
  } else {
    /* other schemes (mailto:, javascript:) land here too: they are never printed */
    c->stats->unparsable++;
    if (c->cfg->verbose && len < 200)
      crawl__notes_verbose(c, "not followed: '%.*s' on %s", (int)len, href, from ? from : "(seed)");
  }
  return false;
}

void crawl__intake_offer_link(struct request *rq, const struct url *base, const char *href,
                              size_t len, const char *charset, int depth, struct link_how how) {
  struct shard *c = rq->shard;
  struct link_batch *b = &rq->links;
  if (!crawl__intake_resolve_href(c, base, href, len, charset, rq->item->url, &b->urls[b->count]))
    return;
  if (!crawl__intake_admitted(c, &b->urls[b->count], OFFER_LINK)) {
    url_free(&b->urls[b->count]);
    return;
  }
  if (c->cfg->check_fragments) /* its #fragment, judged against its target at the end */
    crawl__fragments_of_link(rq, b->urls[b->count].text, href, len, how);
  b->depth[b->count] = depth;
  b->how[b->count] = how;
  if (++b->count == LINK_BATCH)
    crawl__intake_flush(rq);
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
  struct shard *c = rq->shard;
  struct link_batch *b = &rq->links;
  if (!rq->held && !(rq->held = crawl__held_new(c, rq->item->url, rq->gate_depth)))
    return;
  /* a link seen already stays seen: offered later it would be dropped, so it is not held (most
   * links of a site lead to pages it knows) */
  const char *urls[LINK_BATCH];
  size_t lens[LINK_BATCH];
  bool seen[LINK_BATCH];
  batch_texts(b, urls, lens);
  seen_contains_batch(c->seen, b->count, urls, lens, seen);
  core_rc rc = CORE_OK;
  for (size_t i = 0; i < b->count && rc == CORE_OK && !crawl__life_fatal(c); i++) {
    if (seen[i])
      continue;
    rc = crawl__held_add(c, rq->held, b->urls[i].text, b->depth[i], b->how[i]);
    if (rc == CORE_OK)
      crawl__speculate_consider(c, &b->urls[i], rq->item->url, b->depth[i], b->how[i].follow);
  }
  if (rc != CORE_OK)
    crawl__notes_fatal(c, "out of memory");
  for (size_t i = 0; i < b->count; i++)
    url_free(&b->urls[i]);
  b->count = 0;
}

void crawl__intake_flush(struct request *rq) {
  struct shard *c = rq->shard;
  struct link_batch *b = &rq->links;
  if (b->count == 0)
    return;
  if (crawl__life_stop(c) == STOP_NOW) {
    /* stopping at once (a fatal error, a second signal, the output gone): nothing more is
     * printed or queued, and nothing is marked seen either, or a save would keep as seen a URL
     * no run ever queues. The page they came from is made again (page_done) */
    for (size_t i = 0; i < b->count; i++)
      url_free(&b->urls[i]);
    b->count = 0;
    return;
  }
  for (size_t i = 0; i < b->count; i++) /* each link names its page, seen before or not */
    crawl__referrers_link(rq, b->urls[i].text);
  /* a page fetched ahead of its level holds its links back until the level comes; so does a
   * page done after such a page of its level or one above was held, until that one is offered:
   * the gate can rise between the replay of held pages and a request's end (another shard's
   * level ending), and its links would go before those of a page fetched before it */
  if (rq->gate_depth >= 0 && rq->item && !crawl__life_fatal(c) &&
      (rq->held || rq->gate_depth > frontier_gate(c->fr) || crawl__held_min(c) <= rq->gate_depth)) {
    hold_links(rq);
    if (b->count == 0)
      return;
  }
  const char *from = rq->item ? rq->item->url : NULL; /* a retried request gave its item back */
  if (crawl__mail_shared(c)) {                        /* links of other shards' hosts go to them */
    size_t kept = 0;
    for (size_t i = 0; i < b->count; i++) {
      if (crawl__mail_send_if_foreign(c, &b->urls[i], from, b->depth[i], 0, LINK_FOUND,
                                      b->how[i])) {
        url_free(&b->urls[i]);
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
    crawl__notes_fatal(c, "out of memory");
  for (size_t i = 0; i < b->count; i++) {
    crawl__intake_settle(c, &b->urls[i], fresh[i], from, b->depth[i], 0, OFFER_LINK, b->how[i]);
    url_free(&b->urls[i]);
  }
  b->count = 0;
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
 * crawl without the limit or the stop (doc/behaviour.md, Records); otherwise the one given. */
crawl_fate crawl__intake_unfetched_fate(struct shard *c, struct host_data *hd,
                                        const struct frontier_item *item, crawl_fate fate) {
  bool allowed = true; /* lack of memory: the fate given, which makes no rule up */
  if (c->cfg->robots && hd && hd->robots_state == ROBOTS_KNOWN &&
      parse_robots_check(crawl__host_rules(c, hd), path_of(item->url), &allowed) == CORE_OK &&
      !allowed)
    return CRAWL_FATE_ROBOTS;
  return fate;
}

/* A page a limit keeps from being fetched (hd NULL: its host was never made): its record, and
 * it is left for a later run that raises the limit. Frees item. */
void crawl__intake_settle_over_limit(struct shard *c, struct host_data *hd,
                                     struct frontier_item *item) {
  crawl_fate fate = crawl__intake_unfetched_fate(c, hd, item, CRAWL_FATE_LIMIT);
  if (fate == CRAWL_FATE_LIMIT)
    crawl__saved_leave(c, item);
  crawl__report_item(c, item, fate, 0, NULL);
  frontier_item_free(item);
}

/* Offers the links of pages done ahead of their level once the level has come (all of them
 * when nothing else is left to wait for), and lets pages run ahead while the held links stay
 * within the queue's memory budget. */
void crawl__intake_replay_held(struct shard *c, bool all) {
  struct held_page *hp;
  while ((hp = crawl__held_due(c, all))) {
    if (crawl__held_waits(hp)) /* a speculative page's record first, at its depth now */
      crawl__speculate_settle(c, hp, crawl__life_stop(c) != STOP_NOW);
    for (size_t i = 0; i < hp->count && crawl__life_stop(c) != STOP_NOW && !crawl__life_fatal(c);
         i++) {
      /* a printed form parses again to the same URL (tests/fuzz/fuzz_url.c) */
      struct link_how how;
      const char *text = crawl__held_link(c, hp, i, &how);
      if (!text)
        continue;
      struct url u;
      core_rc rc = url_resolve_in(NULL, text, strlen(text), c->cfg->max_url_length, NULL, &u);
      if (rc == CORE_ENOMEM)
        crawl__notes_fatal(c, "out of memory");
      if (rc)
        continue;
      crawl__intake_offer(c, &u, hp->from, hp->links[i].depth, 0, OFFER_LINK, how);
      url_free(&u);
    }
    crawl__held_done(c, hp);
  }
  crawl__held_replayed(c);
}
