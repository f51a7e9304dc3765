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
 * Confirmed, or accepted and fetched ahead of the gate (crawl__speculate_adopt), a page's depth can
 * still shrink by one: a redirect of the level above, answered later, may name it, and a redirect
 * target has the redirect's depth (doc/behaviour.md, Depth). So until the gate reaches its
 * level its record waits in the held page of its links, and the entry stays here, where the
 * redirect finds it (crawl__speculate_lower).
 *
 * A polite crawl of pages with dozens of links keeps tens of thousands of entries at once. So from
 * its request's end an entry waits in the stash (stash.c), a temporary file: its outcome, its
 * links, and once confirmed what it waits with. Only its URL's hash, its place there and the held
 * page it waits in stay in memory (struct spec_stashed, 24 bytes). It comes back when a link
 * confirms it (crawl__speculate_find), when its level comes (crawl__speculate_settle), or when a
 * redirect lowers it (crawl__speculate_lower). */
#include "crawl/held.h"
#include "crawl/life.h"
#include "crawl/host.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/report.h"
#include "crawl/speculate.h"
#include "crawl/stash.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* The shard's speculative pages. */
struct shard_spec {
  struct spec **table; /* their entries in memory, by URL */
  size_t buckets;
  size_t count; /* entries, in memory and stashed */
  /* entries in the stash (stash.c), by the URL's hash: open addressing, 0 an empty slot */
  struct spec_stashed {
    uint64_t hash;
    uint64_t at;               /* where in the stash */
    struct held_page *waiting; /* confirmed: the held page it waits in; NULL: not yet */
  } * stashed;
  size_t stashed_slots, stashed_count; /* stashed_slots a power of two, or 0 */
  struct core_buf note;                /* an outcome, put together for the stash */
};

enum { SPEC_BUCKETS_MIN = 1024 };

/* A URL's hash: its entry's bucket, and its stashed slot's key (never 0, an empty slot's). */
static uint64_t url_hash(const char *url) {
  uint64_t hash = XXH3_64bits(url, strlen(url));
  return hash ? hash : 1;
}

static size_t bucket(const struct shard *c, const char *url) {
  return url_hash(url) & (c->spec->buckets - 1);
}

/* The entry of url (of hash hash) in memory, or NULL. */
static struct spec *live_find(struct shard *c, const char *url, uint64_t hash) {
  if (!c->spec->table)
    return NULL;
  for (struct spec *e = c->spec->table[hash & (c->spec->buckets - 1)]; e; e = e->next)
    if (strcmp(e->url, url) == 0)
      return e;
  return NULL;
}

/* Stashed entries: an open-addressed table of the URL's hash, where its entry is in the stash and
 * the held page it waits in, 24 bytes a slot at up to 70% load, where an entry in memory takes
 * some 100 and its URL. */
static bool stashed_room(struct shard_spec *s) {
  if ((s->stashed_count + 1) * 10 <= s->stashed_slots * 7)
    return true;
  size_t n = s->stashed_slots ? s->stashed_slots * 2 : 1024;
  struct spec_stashed *grown = calloc(n, sizeof(*grown));
  if (!grown)
    return false;
  for (size_t i = 0; i < s->stashed_slots; i++) {
    size_t j = s->stashed[i].hash & (n - 1);
    while (s->stashed[i].hash && grown[j].hash)
      j = (j + 1) & (n - 1);
    if (s->stashed[i].hash)
      grown[j] = s->stashed[i];
  }
  free(s->stashed);
  s->stashed = grown;
  s->stashed_slots = n;
  return true;
}

/* Empties slot i, filling it from behind so every entry stays reachable from its hash's slot
 * (linear probing's deletion). */
static void stashed_remove(struct shard_spec *s, size_t i) {
  size_t mask = s->stashed_slots - 1;
  s->stashed[i].hash = 0;
  s->stashed_count--;
  for (size_t k = (i + 1) & mask; s->stashed[k].hash; k = (k + 1) & mask) {
    size_t home = s->stashed[k].hash & mask;
    if (((k - home) & mask) >= ((k - i) & mask)) {
      s->stashed[i] = s->stashed[k];
      s->stashed[k].hash = 0;
      i = k;
    }
  }
}

/* Whether url has an entry, in memory or stashed (by its hash alone: a URL that shares another's
 * 64-bit hash is not expected, and would only not be fetched ahead). */
static bool spec_known(struct shard *c, const char *url) {
  uint64_t hash = url_hash(url);
  if (live_find(c, url, hash))
    return true;
  if (!c->spec->stashed_count)
    return false;
  size_t mask = c->spec->stashed_slots - 1;
  for (size_t i = hash & mask; c->spec->stashed[i].hash; i = (i + 1) & mask)
    if (c->spec->stashed[i].hash == hash)
      return true;
  return false;
}

static struct spec *bring_back(struct shard *c, const char *url, uint64_t hash, bool waiting);

struct spec *crawl__speculate_find(struct shard *c, const char *url) {
  uint64_t hash = url_hash(url);
  struct spec *e = live_find(c, url, hash);
  /* a confirmed one waiting in the stash is never found fresh again */
  return e ? e : bring_back(c, url, hash, false);
}

/* Puts e in its bucket. */
static void link_entry(struct shard *c, struct spec *e) {
  size_t b = bucket(c, e->url);
  e->next = c->spec->table[b];
  c->spec->table[b] = e;
}

/* Twice the buckets once the entries in memory outnumber them twice (they do where the stash
 * cannot be had: then every page fetched ahead stays in memory, tens of thousands), so a lookup
 * stays short; nothing when memory runs out (the chains only grow longer). */
static void grow_buckets(struct shard *c) {
  size_t live = c->spec->count - c->spec->stashed_count, n = c->spec->buckets * 2;
  struct spec **grown = live > n ? calloc(n, sizeof(*grown)) : NULL;
  if (!grown)
    return;
  for (size_t b = 0; b < c->spec->buckets; b++)
    while (c->spec->table[b]) {
      struct spec *e = c->spec->table[b];
      c->spec->table[b] = e->next;
      size_t to = url_hash(e->url) & (n - 1);
      e->next = grown[to];
      grown[to] = e;
    }
  free(c->spec->table);
  c->spec->table = grown;
  c->spec->buckets = n;
}

/* Takes e out of its bucket. */
static void unlink_entry(struct shard *c, struct spec *e) {
  struct spec **pp = &c->spec->table[bucket(c, e->url)];
  while (*pp != e)
    pp = &(*pp)->next;
  *pp = e->next;
}

static void free_outcome(struct spec_outcome *o) {
  if (!o)
    return;
  free(o->type);
  free(o->location);
  free(o->error);
  free(o->redirect);
  free(o);
}

/* e's outcome, made when it is first kept; NULL when memory runs out (fatal). */
static struct spec_outcome *outcome_of(struct shard *c, struct spec *e) {
  if (!e->outcome && !(e->outcome = calloc(1, sizeof(*e->outcome))))
    crawl__notes_fatal(c, "out of memory");
  return e->outcome;
}

/* Frees e, which is out of its bucket. */
static void free_entry(struct shard *c, struct spec *e) {
  if (e->held) {
    crawl__held_spec_links_remove(c, e->held->count);
    crawl__held_free(c, e->held);
  }
  free_outcome(e->outcome);
  free(e->from);
  free(e);
}

void crawl__speculate_remove(struct shard *c, struct spec *e) {
  unlink_entry(c, e);
  c->spec->count--;
  free_entry(c, e);
}

void crawl__speculate_free_all(struct shard *c) {
  if (!c->spec)
    return;
  for (size_t b = 0; c->spec->table && b < c->spec->buckets; b++)
    while (c->spec->table[b])
      crawl__speculate_remove(c, c->spec->table[b]);
  free(c->spec->table);
  c->spec->table = NULL;
  for (size_t i = 0; i < c->spec->stashed_slots; i++)
    if (c->spec->stashed[i].hash)
      crawl__stash_drop(c, c->spec->stashed[i].at);
  free(c->spec->stashed);
  c->spec->stashed = NULL;
  c->spec->stashed_slots = c->spec->stashed_count = 0;
  c->spec->count = 0;
  core_buf_free(&c->spec->note);
}

/* A new entry for url, in the table (counted when count); NULL when memory runs out. */
static struct spec *spec_insert(struct shard *c, const char *url, size_t len, frontier_host *host,
                                bool count) {
  if (!c->spec->table) {
    c->spec->buckets = SPEC_BUCKETS_MIN;
    if (!(c->spec->table = calloc(c->spec->buckets, sizeof(*c->spec->table))))
      return NULL;
    /* a note longer than a segment of the stash does not go there (its strings are URLs) */
    core_buf_init(&c->spec->note, (size_t)c->cfg->max_url_length * 5 + 4096);
  }
  struct spec *e = calloc(1, sizeof(*e) + len + 1);
  if (!e)
    return NULL;
  memcpy(e->url, url, len);
  e->url[len] = '\0';
  e->host = host;
  link_entry(c, e);
  c->spec->count += count;
  grow_buckets(c);
  return e;
}

void crawl__speculate_consider(struct shard *c, const struct url *u, const char *from, int depth,
                               bool follow) {
  const struct crawl_config *cfg = c->cfg;
  /* within the budget of fetching ahead (twice --queue-memory): under it in speculative pages,
   * their kept links under ten times it (see set_lookahead), and never so many queued that a
   * page would go to the spill file, at the budget (a speculative page must be found again in the
   * queue): a quarter of it is left for what the crawl queues meanwhile */
  uint64_t budget = crawl__held_ahead_budget(c);
  if (!crawl__held_speculates(c) || !follow || depth > cfg->depth || u->unfetchable ||
      crawl__life_fatal(c) || crawl__life_stop(c))
    return;
  if (!url_scope_contains(crawl__mesh_scope(c->run), u->host))
    return; /* out of scope: recorded when its level comes, never fetched ahead */
  /* another shard's host is fetched by its owner alone, which keeps its politeness: the owner
   * is asked to fetch it ahead, and decides by its own budget */
  if (crawl__mail_send_if_foreign(c, u, from, depth, 0, LINK_AHEAD,
                                  (struct link_how){VIA_NONE, true}))
    return;
  if (!crawl__held_speculative_now(c) || c->spec->count >= budget || frontier_spilled(c->fr) ||
      frontier_queued(c->fr) >= budget / 4 * 3)
    return;
  size_t len = strlen(u->text);
  if (seen_contains(c->seen, u->text, len) || spec_known(c, u->text))
    return;
  char ext[64];
  url_ext(u, ext, sizeof(ext));
  if (ext[0] && core_list_has_ext(&cfg->skip_ext, ext))
    return;
  if (url_path_trap(u->text + u->path_off, cfg->max_path_repeat, cfg->max_path_segments) !=
      URL_TRAP_NONE)
    return; /* a spider trap is not followed (settle gives its fate), nor fetched ahead */
  struct host_data *hd = crawl__host_for(c, u);
  if (!hd || hd->dead || crawl__host_robots_excludes(c, hd, u->text + u->path_off))
    return; /* an excluded page is never fetched: its level settles it */
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, u->text, from, depth);
  struct spec *e = item ? spec_insert(c, u->text, len, frontier_host_of_data(hd), true) : NULL;
  if (!e) {
    frontier_item_free(item);
    return; /* it is fetched in its turn instead */
  }
  item->flags = ITEM_SPEC;
  item->stays_in_memory = true; /* confirm() takes it out to queue it at its level */
  frontier_push(c->fr, frontier_host_of_data(hd), item);
}

static char *copy_or_null(const char *s, bool *failed) {
  char *copy = s ? strdup(s) : NULL;
  *failed |= s && !copy;
  return copy;
}

void crawl__speculate_keep_record(struct shard *c, const struct crawl_record *rec) {
  struct spec *e = live_find(c, rec->url, url_hash(rec->url));
  struct spec_outcome *o;
  if (!e || e->cancelled || e->done || !(o = outcome_of(c, e)))
    return;
  bool failed = false;
  o->fate = (unsigned char)rec->fate;
  o->cause = (unsigned char)rec->cause;
  o->status = (int)rec->status;
  o->bytes = rec->bytes;
  o->ms = rec->ms;
  /* settled now, reported once confirmed: its record says now, not then (doc/behaviour.md) */
  o->settled = rec->settled > 0 ? rec->settled : core_wall_now();
  o->type = copy_or_null(rec->type, &failed);
  o->location = copy_or_null(rec->location, &failed);
  o->error = copy_or_null(rec->error, &failed);
  e->done = true;
  if (failed)
    crawl__notes_fatal(c, "out of memory");
}

void crawl__speculate_keep_redirect(struct shard *c, const char *url, const char *target,
                                    int redirects, struct link_how how) {
  struct spec *e = live_find(c, url, url_hash(url));
  struct spec_outcome *o;
  if (!e || e->cancelled || !(o = outcome_of(c, e)))
    return;
  free(o->redirect);
  if (!(o->redirect = strdup(target)))
    crawl__notes_fatal(c, "out of memory");
  o->redirects = redirects;
  o->redirect_how = how;
}

bool crawl__speculate_adopt(struct shard *c, struct request *rq) {
  const struct crawl_config *cfg = c->cfg;
  struct frontier_item *item = rq->item;
  if (!cfg->jsonl || rq->spec || (item->flags & ITEM_SPEC) ||
      rq->gate_depth <= frontier_gate(c->fr) || cfg->seen_file || cfg->state_dir ||
      crawl__life_stop(c) == STOP_NOW || spec_known(c, item->url))
    return false;
  struct spec *e = spec_insert(c, item->url, strlen(item->url), rq->host, true);
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
      !crawl__speculate_wait(c, e, rq->held, item->from, item->flags & ~ITEM_SPEC))
    crawl__speculate_remove(c, e); /* out of memory (fatal already) */
}

/* An entry as the stash keeps it: this head, then its strings' bytes in the order of len. */
struct outcome_note {
  uint64_t bytes;
  double ms, settled;
  int32_t status, redirects;
  uint32_t len[6]; /* type, location, error, redirect, from, URL; NOTE_NONE: NULL */
  uint32_t flags;
  unsigned char fate, cause, via, follow, accepted;
};
#define NOTE_NONE UINT32_MAX

/* e (its URL, outcome, and what it waits with) as a note in buf; false when it cannot be (out of
 * memory, a string past 4 GB). */
static bool note_entry(const struct spec *e, struct core_buf *buf) {
  const struct spec_outcome *o = e->outcome;
  const char *strings[6] = {o->type, o->location, o->error, o->redirect, e->from, e->url};
  struct outcome_note n = {.bytes = o->bytes,
                           .ms = o->ms,
                           .settled = o->settled,
                           .status = o->status,
                           .redirects = o->redirects,
                           .flags = e->flags,
                           .fate = o->fate,
                           .cause = o->cause,
                           .via = o->redirect_how.via,
                           .follow = o->redirect_how.follow,
                           .accepted = e->accepted};
  size_t len[6];
  for (int i = 0; i < 6; i++) {
    len[i] = strings[i] ? strlen(strings[i]) : 0;
    if (len[i] >= NOTE_NONE)
      return false; /* past 4 GB: no URL (1 MiB at most) or header (curl's 100 KB) is */
    n.len[i] = strings[i] ? (uint32_t)len[i] : NOTE_NONE;
  }
  core_buf_reset(buf);
  if (core_buf_add(buf, &n, sizeof(n)) != CORE_OK)
    return false;
  for (int i = 0; i < 6; i++)
    if (strings[i] && core_buf_add(buf, strings[i], len[i]) != CORE_OK)
      return false;
  return true;
}

/* The entry a note of len bytes holds, back in memory with its outcome (not counted again: a
 * stashed entry counts as one); NULL when memory runs out, or the note is not one (fatal either
 * way). */
static struct spec *entry_from_note(struct shard *c, const char *note, size_t len) {
  struct outcome_note n;
  struct spec_outcome *o = calloc(1, sizeof(*o));
  if (!o) {
    crawl__notes_fatal(c, "out of memory");
    return NULL;
  }
  bool failed = len < sizeof(n), nomem = false; /* damaged, or memory ran out */
  if (!failed)
    memcpy(&n, note, sizeof(n));
  char *from = NULL;
  char **strings[5] = {&o->type, &o->location, &o->error, &o->redirect, &from};
  size_t at = sizeof(n);
  for (int i = 0; i < 6 && !failed && !nomem; i++) {
    if (n.len[i] == NOTE_NONE)
      failed = i == 5; /* every entry has a URL */
    else if (n.len[i] > len - at)
      failed = true;
    else if (i < 5 && !(*strings[i] = strndup(note + at, n.len[i])))
      nomem = true;
    else if (i < 5)
      at += n.len[i];
  }
  struct spec *e = failed || nomem ? NULL : spec_insert(c, note + at, n.len[5], NULL, false);
  if (!e) {
    free_outcome(o);
    free(from);
    crawl__notes_fatal(c, failed ? "a page fetched ahead came back from its temporary file damaged"
                                 : "out of memory");
    return NULL;
  }
  o->bytes = n.bytes;
  o->ms = n.ms;
  o->settled = n.settled;
  o->status = n.status;
  o->redirects = n.redirects;
  o->redirect_how = (struct link_how){n.via, n.follow != 0};
  o->fate = n.fate;
  o->cause = n.cause;
  e->outcome = o;
  e->from = from;
  e->flags = n.flags;
  e->accepted = n.accepted != 0;
  e->done = true;
  return e;
}

/* The entry stashed at at, back in memory with its outcome and links; NULL when it cannot be
 * read back (fatal). */
static struct spec *materialize(struct shard *c, uint64_t at) {
  const char *note;
  size_t note_len;
  struct held_page *hp;
  if (!crawl__stash_take(c, at, &note, &note_len, &hp))
    return NULL;
  struct spec *e = entry_from_note(c, note, note_len);
  if (!e) {
    crawl__held_free(c, hp);
    return NULL;
  }
  e->held = hp;
  crawl__held_spec_links_add(c, hp ? hp->count : 0);
  return e;
}

/* Puts done entry e (and hp, its links; NULL: none) in the stash, e waiting in held page waiting
 * (NULL: not confirmed yet): e and hp go, e's URL's hash and place stay in memory (e is still
 * counted). False when they stay as they are. */
static bool stash_entry(struct shard *c, struct spec *e, struct held_page *hp,
                        struct held_page *waiting) {
  uint64_t at;
  if (!e->outcome || !stashed_room(c->spec) || !note_entry(e, &c->spec->note) ||
      !crawl__stash_put(c, c->spec->note.data, c->spec->note.len, hp, &at))
    return false;
  uint64_t hash = url_hash(e->url);
  size_t mask = c->spec->stashed_slots - 1, i = hash & mask;
  while (c->spec->stashed[i].hash)
    i = (i + 1) & mask;
  c->spec->stashed[i] = (struct spec_stashed){hash, at, waiting};
  c->spec->stashed_count++;
  if (waiting) {
    waiting->page = NULL;
    waiting->page_hash = hash;
  }
  e->waiting = NULL;
  unlink_entry(c, e);
  free_entry(c, e);
  return true;
}

/* The entry stashed in slot slot (which is free then), back in memory as it was, and when it
 * waits, in its held page again; NULL when it cannot be read back (fatal). */
static struct spec *bring_back_slot(struct shard *c, size_t slot) {
  struct held_page *hp = c->spec->stashed[slot].waiting;
  uint64_t at = c->spec->stashed[slot].at;
  stashed_remove(c->spec, slot);
  if (hp)
    hp->page_hash = 0;
  struct spec *e = materialize(c, at);
  if (e && hp) {
    e->waiting = hp;
    hp->page = e;
  }
  return e;
}

/* The stashed entry of url (of hash hash), confirmed and waiting for its level (waiting) or not
 * confirmed yet, back in memory; NULL when there is none, or it cannot be read back (fatal).
 * Another URL of the same hash met on the way comes back too, and stays in memory, where it is
 * found in its turn. */
static struct spec *bring_back(struct shard *c, const char *url, uint64_t hash, bool waiting) {
  if (!c->spec->stashed_count)
    return NULL;
  size_t mask = c->spec->stashed_slots - 1;
  for (size_t i = hash & mask; c->spec->stashed[i].hash && !crawl__life_fatal(c);) {
    if (c->spec->stashed[i].hash != hash || (c->spec->stashed[i].waiting != NULL) != waiting) {
      i = (i + 1) & mask;
      continue;
    }
    struct spec *e = bring_back_slot(c, i); /* slot i now holds the next one to look at, if any */
    if (e && strcmp(e->url, url) == 0)
      return e;
  }
  return NULL;
}

/* A fetched page's outcome and links, which wait for its confirmation: in the stash, where only
 * its URL's hash and its place stay in memory (the entry goes), or, where they cannot go there,
 * in memory (its links within the budget of fetching ahead). */
static void keep_fetched(struct shard *c, struct spec *e, struct held_page *hp) {
  if (e->done && stash_entry(c, e, hp, NULL))
    return;
  e->held = hp;
  crawl__held_spec_links_add(c, hp ? hp->count : 0);
}

struct held_page *crawl__speculate_take_links(struct shard *c, struct spec *e) {
  struct held_page *hp = e->held;
  if (hp)
    crawl__held_spec_links_remove(c, hp->count);
  e->held = NULL;
  return hp;
}

void crawl__speculate_request_ended(struct shard *c, struct request *rq) {
  struct spec *e = rq->spec;
  if (e->accepted) {
    adopted_ended(c, rq);
    return;
  }
  rq->spec = NULL;
  e->rq = NULL;
  struct held_page *hp = rq->held;
  rq->held = NULL;
  if (rq->item && !e->cancelled) { /* fetched: its links wait with it for its confirmation */
    keep_fetched(c, e, hp);        /* which may free e */
  } else {                         /* dropped, or given back for a retry (queued again) */
    crawl__held_free(c, hp);
    if (rq->item)
      crawl__speculate_remove(c, e);
  }
  frontier_release(c->fr, rq->gate_depth);
  rq->gate_depth = -1;
}

void crawl__speculate_cancel(struct shard *c, struct spec *e) {
  if (e->rq) {
    e->cancelled = true; /* dropped when its request ends */
    return;
  }
  if (!e->done) {
    struct frontier_item *old = frontier_take_deeper(c->fr, e->host, e->url, -1);
    frontier_item_free(old);
  }
  crawl__speculate_remove(c, e);
}

void crawl__speculate_report(struct shard *c, struct spec *e, const char *from, int depth,
                             unsigned flags, bool offer_redirect) {
  const struct spec_outcome *o = e->outcome;
  if (!o)
    return; /* it could not be read back: the crawl ends with that error */
  c->stats->speculated += !e->accepted;
  struct crawl_record rec = {.url = e->url,
                             .from = from,
                             .depth = depth,
                             .fate = (crawl_fate)o->fate,
                             .cause = (crawl_cause)o->cause,
                             .status = o->status,
                             .type = o->type,
                             .bytes = o->bytes,
                             .ms = o->ms,
                             .location = o->location,
                             .error = o->error,
                             .settled = o->settled};
  crawl__report(c, flags, &rec);
  struct url target;
  if (offer_redirect && o->redirect && crawl__life_stop(c) != STOP_NOW &&
      url_resolve(NULL, o->redirect, strlen(o->redirect), SIZE_MAX / 4, &target) == CORE_OK) {
    c->hooks.offer(c, &target, e->url, depth, o->redirects, OFFER_REDIRECT, o->redirect_how);
    url_free(&target);
  }
}

bool crawl__speculate_wait(struct shard *c, struct spec *e, struct held_page *hp, const char *from,
                           unsigned flags) {
  if (from && !(e->from = strdup(from))) {
    crawl__notes_fatal(c, "out of memory");
    return false;
  }
  e->flags = flags;
  e->waiting = hp;
  hp->page = e;
  /* it waits for its level in the stash (its links are queued in hp meanwhile) */
  stash_entry(c, e, NULL, hp);
  return true;
}

void crawl__speculate_settle(struct shard *c, struct held_page *hp, bool offer_redirect) {
  if (hp->page_hash) { /* in the stash: the slot of its hash that names hp */
    size_t mask = c->spec->stashed_slots - 1, i = hp->page_hash & mask;
    while (c->spec->stashed[i].hash && c->spec->stashed[i].waiting != hp)
      i = (i + 1) & mask;
    if (!c->spec->stashed[i].hash)
      crawl__notes_fatal(c, "the record of a page fetched ahead was lost"); /* never expected */
    if (!c->spec->stashed[i].hash || !bring_back_slot(c, i))
      return; /* not read back: the crawl ends with that error */
  }
  struct spec *e = hp->page;
  hp->page = NULL;
  crawl__speculate_report(c, e, e->from, hp->depth, e->flags, offer_redirect);
  e->waiting = NULL;
  crawl__speculate_remove(c, e);
}

bool crawl__speculate_lower(struct shard *c, const char *url, const char *from, int depth,
                            struct link_how how) {
  uint64_t hash = url_hash(url);
  struct spec *e = live_find(c, url, hash);
  if (!e) /* waiting in the stash: back in memory, to move */
    e = bring_back(c, url, hash, true);
  if (!e || !e->waiting || e->waiting->depth <= depth)
    return false;
  char *copy = from ? strdup(from) : NULL;
  if (from && !copy) {
    crawl__notes_fatal(c, "out of memory");
    return false;
  }
  /* from now on found by the redirect: its page and its via, as a queued page moved up */
  free(e->from);
  e->from = copy;
  e->flags = (e->flags & ~ITEM_VIA_MASK) | (unsigned)how.via << ITEM_VIA_SHIFT;
  crawl__held_move(c, e->waiting, depth);
  return true;
}

void crawl__speculate_close(struct shard *c) {
  crawl__speculate_free_all(c);
  free(c->spec);
  c->spec = NULL;
}

void crawl__speculate_prepare(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  if (!(c->spec = calloc(1, sizeof(*c->spec)))) {
    crawl__notes_fatal(c, "cannot start: out of memory");
    return;
  }
  /* speculative pages pay off when hosts would otherwise wait for the gate between their
   * politeness gaps; with no gap the crawl is busy anyway, and they would only cost CPU (held
   * links are held once, crawl__held_once, exactly then). --seen and --state save what was
   * accepted, which a speculative page is not, yet */
  if (crawl__held_once(c) && !cfg->seen_file && !cfg->state_dir &&
      !(cfg->cluster && cfg->max_pages >= 0)) /* pages leased: only accepted ones */
    crawl__held_speculate_on(c);
}
