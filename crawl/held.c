/* Links held back: a page fetched ahead of its level keeps its links until the depth gate
 * reaches that level, then they are offered in breadth-first order (doc/behaviour.md, Depth).
 *
 * A URL is held once. Offered again after its first copy in replay order (the smallest depth,
 * then the page queued first), a link finds its URL seen and does nothing, so a queued page
 * keeps only the links no earlier queued page holds, and a later page with a shallower copy
 * takes the URL over (the deeper copy becomes HELD_GONE). Where pages link each other's
 * next level (30 links a page, most to the same few URLs) that makes held links many times
 * fewer, and the held-link budget of --queue-memory lasts as long. A page that waits with a
 * record (a redirect may still move it up a level) drops a link for a copy of its own level only
 * by noting its hash, and takes it back if it moves. The copies are an open-addressed table by
 * the URL's hash. Only in polite crawls: with no delay held links are few and soon offered, and
 * the table would cost more memory than it saves (10 MB more at 100,000 pages).
 *
 * A link is kept in its page's texts as one byte for how it was found, one for the length of
 * what its printed form shares with its page's URL, and the rest: a page's links mostly share
 * its scheme, host and much of its path, so that one of 40 bytes keeps some 14. With the offset
 * and depth of struct held_link, a link held costs some 22 bytes, where a polite crawl of pages
 * with 30 links each holds a million of them at once. */
#include "crawl/held.h"
#include "crawl/life.h"
#include "crawl/notes.h"
#include "seen/seen.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* Pages done ahead of their level (held.c), by their depth, each level first in first out: a level
 * is offered when the gate reaches it, whatever deeper pages were done before. */
struct shard_held {
  struct held_level {
    struct held_page *head, *tail;
  } * levels;
  int level_count; /* entries of levels */
  int min;         /* the smallest depth with a held page; INT_MAX for none */
  size_t pages;
  size_t links;
  /* every URL held in a queued page, once: where its first copy in replay order is (held.c) */
  struct held_copy {
    struct held_page *page; /* NULL: a free slot */
    uint32_t link;
    uint32_t hash; /* the low half of the URL's: its slot, and most of what tells URLs apart */
  } * copies;
  size_t copy_slots, copy_count; /* copy_slots a power of two, or 0 */
  struct core_buf scratch;       /* a held link's printed form, put together (held.c) */
  bool once; /* URLs held once (a polite crawl: with no delay held links are few and brief) */
  /* how far below the depth gate pages may start, decided after each replay by the links held
   * in memory (set_lookahead) */
  bool level;        /* one level below (their links held) */
  bool speculative;  /* speculative pages further down (speculate.c) */
  bool spec_on;      /* speculative pages are made in this crawl (crawl__held_speculate_on) */
  size_t spec_links; /* of the links held, those kept with fetched speculative pages */
  uint64_t budget;   /* of links held for pages fetched ahead (crawl__held_ahead_budget) */
};

/* Sets a held page, and the links in it, at the depth its page turned out to have. */
void crawl__held_at(struct held_page *hp, int depth) {
  if (!hp)
    return;
  hp->depth = depth;
  for (size_t i = 0; i < hp->count; i++)
    hp->links[i].depth = depth + 1;
}

struct held_page *crawl__held_new(struct shard *c, const char *from, int depth) {
  size_t from_len = strlen(from);
  struct held_page *hp = calloc(1, sizeof(*hp) + from_len + 1);
  if (!hp) {
    crawl__notes_fatal(c, "out of memory");
    return NULL;
  }
  memcpy(hp->from, from, from_len + 1);
  /* at most the held-link budget of URLs at their longest, and within a link's offset */
  uint64_t budget = crawl__held_ahead_budget(c), per_link = (uint64_t)c->cfg->max_url_length + 3;
  uint64_t most = budget < (HELD_GONE - 1) / per_link ? budget * per_link : HELD_GONE - 1;
  core_buf_init(&hp->texts, (size_t)most);
  hp->depth = depth;
  return hp;
}

#define SHARED_MAX UCHAR_MAX /* what one byte counts of a link's start shared with its page */
#define HOW_FOLLOW 0x80      /* a kept link's how byte: its via, and this bit when followed */
_Static_assert(VIA_COUNT <= HOW_FOLLOW, "a via fits the how byte of a kept link");

/* How a link was found, from its how byte. */
static struct link_how how_of(unsigned char code) {
  return (struct link_how){(unsigned char)(code & ~HOW_FOLLOW), (code & HOW_FOLLOW) != 0};
}

/* How the link kept at offset at of hp's texts was found. */
static struct link_how held_how(const struct held_page *hp, size_t at) {
  return how_of((unsigned char)hp->texts.data[at]);
}

size_t crawl__held_text(const struct held_page *hp, size_t i, const char **rest,
                        struct link_how *how) {
  const char *kept = hp->texts.data + hp->links[i].text;
  *how = held_how(hp, hp->links[i].text);
  *rest = kept + 2;
  return (unsigned char)kept[1];
}

/* Whether the link kept at offset at of hp's texts is text. */
static bool held_is(const struct held_page *hp, size_t at, const char *text) {
  const char *kept = hp->texts.data + at;
  size_t shared = (unsigned char)kept[1];
  /* the shared part holds no NUL: where text is shorter, strncmp differs before its end */
  return strncmp(hp->from, text, shared) == 0 && strcmp(kept + 2, text + shared) == 0;
}

/* The printed form of the link kept at offset at of hp's texts, put together in the held
 * links' scratch buffer (valid until the next call). crawl__held_add made room there for every
 * link it kept, and the buffer never shrinks, so this needs no memory of its own. */
static const char *held_whole(struct shard_held *h, const struct held_page *hp, size_t at) {
  const char *kept = hp->texts.data + at;
  size_t shared = (unsigned char)kept[1], rest = strlen(kept + 2);
  memcpy(h->scratch.data, hp->from, shared);
  memcpy(h->scratch.data + shared, kept + 2, rest + 1);
  h->scratch.len = shared + rest;
  return h->scratch.data;
}

core_rc crawl__held_add(struct shard *c, struct held_page *hp, const char *url, int depth,
                        struct link_how how) {
  if (hp->count == hp->cap) {
    if (hp->cap > UINT32_MAX / 2)
      return CORE_ENOMEM; /* never: the texts' 32-bit offsets run out first */
    uint32_t cap = hp->cap ? hp->cap * 2 : 8;
    struct held_link *links = realloc(hp->links, cap * sizeof(*links));
    if (!links)
      return CORE_ENOMEM;
    hp->links = links;
    hp->cap = cap;
  }
  size_t shared = 0;
  while (shared < SHARED_MAX && url[shared] && url[shared] == hp->from[shared])
    shared++;
  size_t len = strlen(url);
  size_t at = hp->texts.len;
  unsigned char code = (unsigned char)(how.via | (how.follow ? HOW_FOLLOW : 0));
  /* room to put it together again (held_whole) is made now, where a failure can be told */
  if (core_buf_reserve(&c->held->scratch, len + 1) != CORE_OK ||
      core_buf_addc(&hp->texts, (char)code) != CORE_OK ||
      core_buf_addc(&hp->texts, (char)shared) != CORE_OK ||
      core_buf_add(&hp->texts, url + shared, len - shared + 1) != CORE_OK) {
    core_buf_cut(&hp->texts, at);
    return CORE_ENOMEM;
  }
  hp->links[hp->count++] = (struct held_link){(uint32_t)at, depth};
  c->held->links++;
  return CORE_OK;
}

/* A page's links are all in: its arrays shrink to what they hold, as held pages may wait long and
 * be many (a polite crawl fetching ahead keeps tens of thousands). */
void crawl__held_seal(struct held_page *hp) {
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
  /* the notes of links a waiting page dropped (keep_first_copies): when that fails they stay */
  if (hp->dropped_count < hp->dropped_cap) {
    uint64_t *cut = realloc(hp->dropped, hp->dropped_count * sizeof(*hp->dropped));
    if (cut) {
      hp->dropped = cut;
      hp->dropped_cap = hp->dropped_count;
    }
  }
}

static uint64_t copy_hash(const char *text) {
  return XXH3_64bits(text, strlen(text));
}

/* A dropped link's note: its URL's hash with the link's how byte in place of the top byte. Two
 * URLs of the same 56 bits are not expected, as of the same 64. */
#define DROPPED_HASH (UINT64_MAX >> 8)

/* The slot of text's copy (of text NULL: the first whose whole hash agrees with hash's low 56
 * bits, put together again from the copy where the kept half agrees), or the free slot where it
 * would go. */
static struct held_copy *copy_slot(struct shard_held *h, const char *text, uint64_t hash) {
  size_t mask = h->copy_slots - 1;
  for (size_t i = (uint32_t)hash & mask;; i = (i + 1) & mask) {
    struct held_copy *k = &h->copies[i];
    if (!k->page)
      return k;
    if (k->hash != (uint32_t)hash)
      continue;
    size_t at = k->page->links[k->link].text;
    if (text ? held_is(k->page, at, text)
             : ((copy_hash(held_whole(h, k->page, at)) ^ hash) & DROPPED_HASH) == 0)
      return k;
  }
}

/* Room for one more copy (at most 70% of the slots taken, where linear probing stays short: a
 * slot costs 16 bytes, and a polite crawl of 30 links a page holds 100,000 URLs and more at
 * once); false when memory runs out. */
static bool copies_room(struct shard_held *h) {
  if ((h->copy_count + 1) * 10 <= h->copy_slots * 7)
    return true;
  size_t n = h->copy_slots ? h->copy_slots * 2 : 1024;
  struct held_copy *grown = calloc(n, sizeof(*grown));
  if (!grown)
    return false;
  for (size_t i = 0; i < h->copy_slots; i++) {
    const struct held_copy *k = &h->copies[i];
    size_t j = k->hash & (n - 1);
    while (k->page && grown[j].page)
      j = (j + 1) & (n - 1);
    if (k->page)
      grown[j] = *k;
  }
  free(h->copies);
  h->copies = grown;
  h->copy_slots = n;
  return true;
}

/* Forgets the copies hp holds (it is being replayed). A free slot is filled from behind, so
 * that every copy stays reachable from its hash's slot (linear probing's deletion). */
static void forget_copies(struct shard_held *h, struct held_page *hp) {
  size_t mask = h->copy_slots - 1;
  for (size_t l = 0; h->copy_slots && l < hp->count; l++) {
    if (hp->links[l].text == HELD_GONE)
      continue;
    size_t j = copy_hash(held_whole(h, hp, hp->links[l].text)) & mask;
    while (h->copies[j].page && !(h->copies[j].page == hp && h->copies[j].link == l))
      j = (j + 1) & mask;
    if (!h->copies[j].page)
      continue; /* not held as a copy (the table could not grow) */
    h->copies[j].page = NULL;
    h->copy_count--;
    for (size_t k = (j + 1) & mask; h->copies[k].page; k = (k + 1) & mask) {
      size_t home = h->copies[k].hash & mask;
      if (((k - home) & mask) >= ((k - j) & mask)) {
        h->copies[j] = h->copies[k];
        h->copies[k].page = NULL;
        j = k;
      }
    }
  }
}

/* Notes a link a waiting page dropped, of URL hash hash and how byte code; false when memory
 * runs out (then it is kept). The list doubles as it grows (a page of many links all held
 * elsewhere drops every one of them), and is cut to what it holds once the page is queued:
 * at a broad crawl's last level tens of thousands of pages wait with a few such notes each. */
static bool note_dropped(struct held_page *hp, uint64_t hash, unsigned char code) {
  if (hp->dropped_count == hp->dropped_cap) {
    if (hp->dropped_cap > UINT32_MAX / 2)
      return false; /* never: no page has that many links */
    uint32_t cap = hp->dropped_cap ? 2 * hp->dropped_cap : 4;
    uint64_t *grown = realloc(hp->dropped, cap * sizeof(*hp->dropped));
    if (!grown) /* the caller keeps the link in hp */
      return false;
    hp->dropped = grown;
    hp->dropped_cap = cap;
  }
  hp->dropped[hp->dropped_count++] = (hash & DROPPED_HASH) | (uint64_t)code << 56;
  return true;
}

/* Keeps of hp's links those whose URL no earlier queued page holds, and takes over the URLs
 * held only deeper; the kept texts move down over the dropped ones. */
static void keep_first_copies(struct shard *c, struct held_page *hp) {
  struct shard_held *h = c->held;
  size_t kept = 0, out = 0;
  for (size_t l = 0; l < hp->count; l++) {
    struct held_link link = hp->links[l];
    char *kept_at = hp->texts.data + link.text;
    size_t len = 2 + strlen(kept_at + 2) + 1; /* as kept: how, what it shares, the rest, NUL */
    const char *text = held_whole(h, hp, link.text);
    /* a page fetched ahead waits long for its confirmation, and by then most of what it links
     * is known: a URL seen since stays seen, and offered it would do nothing (the last level of
     * a broad crawl confirms tens of thousands of such pages at once) */
    if (crawl__held_waits(hp) && seen_contains(c->seen, text, h->scratch.len)) {
      h->links--;
      continue;
    }
    uint64_t hash = copy_hash(text);
    struct held_copy *k = copies_room(h) ? copy_slot(h, text, hash) : NULL;
    if (k && k->page && k->page->depth <= hp->depth &&
        (!crawl__held_waits(hp) || k->page->depth < hp->depth ||
         note_dropped(hp, hash, (unsigned char)*kept_at))) {
      h->links--; /* offered earlier by k's page */
      continue;
    }
    memmove(hp->texts.data + out, kept_at, len);
    link.text = (uint32_t)out;
    out += len;
    hp->links[kept] = link;
    if (k && k->page && k->page->depth > hp->depth) { /* held deeper: this copy comes first */
      k->page->links[k->link].text = HELD_GONE;
      k->page->gone++;
      h->links--;
      *k = (struct held_copy){hp, (uint32_t)kept, (uint32_t)hash};
    } else if (k && !k->page) {
      h->copy_count++;
      *k = (struct held_copy){hp, (uint32_t)kept, (uint32_t)hash};
    }
    kept++;
  }
  hp->count = kept;
  hp->texts.len = out;
  crawl__held_seal(hp);
}

/* hp moved up a level: a URL it dropped for a copy of its old level, offered later than hp
 * now, comes back to hp (a 64-bit hash names it: two URLs of one hash are not expected). */
static void take_back_dropped(struct shard *c, struct held_page *hp) {
  struct shard_held *h = c->held;
  for (size_t d = 0; h->copy_slots && d < hp->dropped_count && !crawl__life_fatal(c); d++) {
    struct held_copy *k = copy_slot(h, NULL, hp->dropped[d]);
    if (!k->page || k->page == hp || k->page->depth <= hp->depth)
      continue;
    struct held_page *from = k->page;
    /* in the scratch buffer, which held_add only makes room in: it has room for it already */
    crawl__held_add(c, hp, held_whole(h, from, from->links[k->link].text), hp->depth + 1,
                    how_of((unsigned char)(hp->dropped[d] >> 56)));
    if (crawl__life_fatal(c))
      return;
    from->links[k->link].text = HELD_GONE;
    from->gone++;
    h->links--;
    *k = (struct held_copy){hp, (uint32_t)(hp->count - 1), k->hash};
  }
  free(hp->dropped);
  hp->dropped = NULL;
  hp->dropped_count = hp->dropped_cap = 0;
}

static void link_held(struct shard *c, struct held_page *hp);

void crawl__held_append(struct shard *c, struct held_page *hp) {
  if (hp->depth >= c->held->level_count) {
    int n = c->held->level_count ? c->held->level_count : 16;
    while (n <= hp->depth && n < INT_MAX / 2)
      n *= 2;
    struct held_level *grown =
        n > hp->depth ? realloc(c->held->levels, (size_t)n * sizeof(*grown)) : NULL;
    if (!grown) {
      /* its links are lost to the run: it is fatal, as any lack of memory */
      crawl__notes_fatal(c, "out of memory");
      return;
    }
    memset(grown + c->held->level_count, 0, (size_t)(n - c->held->level_count) * sizeof(*grown));
    c->held->levels = grown;
    c->held->level_count = n;
  }
  if (c->held->once && hp->count < UINT32_MAX)
    keep_first_copies(c, hp);
  link_held(c, hp);
}

/* Puts hp at the end of its level. */
static void link_held(struct shard *c, struct held_page *hp) {
  struct held_level *l = &c->held->levels[hp->depth];
  hp->next = NULL;
  if (l->tail)
    l->tail->next = hp;
  else
    l->head = hp;
  l->tail = hp;
  c->held->pages++;
  if (hp->depth < c->held->min)
    c->held->min = hp->depth;
}

/* Takes hp, which follows prev (NULL: the first), out of its level. */
static void unlink_held(struct shard *c, struct held_page *hp, struct held_page *prev) {
  struct held_level *l = &c->held->levels[hp->depth];
  if (prev)
    prev->next = hp->next;
  else
    l->head = hp->next;
  if (l->tail == hp)
    l->tail = prev;
  hp->next = NULL;
  if (--c->held->pages == 0)
    c->held->min = INT_MAX;
  else
    while (!c->held->levels[c->held->min].head)
      c->held->min++;
}

struct held_page *crawl__held_take(struct shard *c) {
  if (!c->held->pages)
    return NULL;
  struct held_page *hp = c->held->levels[c->held->min].head;
  unlink_held(c, hp, NULL);
  return hp;
}

void crawl__held_move(struct shard *c, struct held_page *hp, int depth) {
  struct held_page *prev = NULL;
  for (struct held_page *p = c->held->levels[hp->depth].head; p != hp; p = p->next)
    prev = p;
  unlink_held(c, hp, prev);
  frontier_move_pending(c->fr, hp->depth, depth);
  crawl__held_at(hp, depth);
  link_held(c, hp); /* its levels exist, and its links were kept once already */
  take_back_dropped(c, hp);
}

void crawl__held_queue(struct shard *c, struct held_page *hp) {
  frontier_hold(c->fr, hp->depth);
  crawl__held_append(c, hp);
}

static void set_lookahead(struct shard *c);

void crawl__held_free(struct shard *c, struct held_page *hp) {
  if (!hp)
    return;
  c->held->links -= hp->count - hp->gone;
  core_buf_free(&hp->texts);
  free(hp->dropped);
  free(hp->links);
  free(hp);
}

struct held_page *crawl__held_due(struct shard *c, bool all) {
  if (!c->held->pages || !(all || c->held->min <= frontier_gate(c->fr)))
    return NULL;
  struct held_page *hp = crawl__held_take(c);
  forget_copies(c->held, hp);
  return hp;
}

const char *crawl__held_link(struct shard *c, const struct held_page *hp, size_t i,
                             struct link_how *how) {
  const struct held_link *l = &hp->links[i];
  if (l->text == HELD_GONE)
    return NULL; /* an earlier copy offered it */
  *how = held_how(hp, l->text);
  return held_whole(c->held, hp, l->text);
}

void crawl__held_done(struct shard *c, struct held_page *hp) {
  frontier_release(c->fr, hp->depth);
  crawl__held_free(c, hp);
}

void crawl__held_replayed(struct shard *c) {
  set_lookahead(c);
}

/* How far below the gate pages may start: one level while the links held back stay within the
 * budget of fetching ahead, or twice it in a polite crawl, where each URL is held once (off
 * there, on again at half: each switch revisits every host; with no delay, pages held are soon
 * offered and a crawl this far ahead is busy anyway, and it would hold 7 MB more at 100,000
 * pages); and every level, for speculative pages, while their links kept in memory (those the
 * stash could not take, stash.c) stay within ten times it (on again at five). Speculative pages
 * themselves are made only while they number under the budget (crawl__speculate_consider), but
 * those made are still fetched past that: their number does not grow by fetching them, and hosts
 * would wait for the gate instead.
 *
 * The budget is twice the shard's part of --queue-memory, 50,000 at the default with two
 * shards. A held link costs some 22 bytes (see the top of this file), plus 16 to 23 for its slot
 * of the copies' table when it is not speculative; a speculative page some 100 bytes and its
 * URL while it is queued or fetched, and 24 once it waits in the stash (speculate.c) with its
 * links. So at the most, a shard's fetching ahead holds some 5 MB of other held links, a few MB
 * of speculative pages, and the pages' notes in the stash's file. A polite crawl of 1,000 hosts
 * whose pages carry 30 links each, most of them to the same pages of their host, needs most of
 * that to keep every host busy (bench/README.md, Polite crawls). */
uint64_t crawl__held_ahead_budget(const struct shard *c) {
  return c->held ? c->held->budget : UINT64_MAX / 2;
}

void crawl__held_set_queue_memory(struct shard *c, uint64_t queue_memory) {
  if (c->held)
    c->held->budget = queue_memory ? 2 * queue_memory : UINT64_MAX / 2;
}

static void set_lookahead(struct shard *c) {
  uint64_t budget = crawl__held_ahead_budget(c);
  struct shard_held *h = c->held;
  /* the speculative pages' links are among those held */
  size_t real = h->links > h->spec_links ? h->links - h->spec_links : 0;
  /* each stop is counted: the summary names the option that raises the budget */
  uint64_t most = c->held->once ? budget * 2 : budget;
  if (real >= most) {
    c->stats->ahead_stops += h->level;
    h->level = false;
  } else if (real <= most / 2) {
    h->level = true;
  }
  if (h->spec_links >= budget * 10) {
    c->stats->ahead_stops += h->speculative;
    h->speculative = false;
  } else if (h->spec_links <= budget * 5) {
    h->speculative = h->spec_on;
  }
  frontier_set_lookahead(c->fr, !h->level ? 0 : h->speculative ? SPEC_LEVELS : 1);
}

void crawl__held_close(struct shard *c) {
  if (!c->held)
    return;
  core_buf_free(&c->held->scratch);
  free(c->held->levels);
  c->held->levels = NULL;
  c->held->level_count = 0;
  free(c->held->copies);
  c->held->copies = NULL;
  c->held->copy_slots = c->held->copy_count = 0;
}

void crawl__held_free_all(struct shard *c) {
  crawl__held_close(c);
  free(c->held);
  c->held = NULL;
}

size_t crawl__held_pages(const struct shard *c) {
  return c->held ? c->held->pages : 0;
}

size_t crawl__held_links(const struct shard *c) {
  return c->held ? c->held->links : 0;
}

void crawl__held_count_links(struct shard *c, size_t n) {
  c->held->links += n;
}

int crawl__held_min(const struct shard *c) {
  return c->held ? c->held->min : INT_MAX;
}

bool crawl__held_once(const struct shard *c) {
  return c->held && c->held->once;
}

void crawl__held_speculate_on(struct shard *c) {
  if (c->held)
    c->held->spec_on = true;
}

bool crawl__held_speculates(const struct shard *c) {
  return c->held && c->held->spec_on;
}

bool crawl__held_speculative_now(const struct shard *c) {
  return c->held && c->held->speculative;
}

void crawl__held_spec_links_add(struct shard *c, size_t n) {
  c->held->spec_links += n;
}

void crawl__held_spec_links_remove(struct shard *c, size_t n) {
  c->held->spec_links -= n;
}

size_t crawl__held_spec_links(const struct shard *c) {
  return c->held ? c->held->spec_links : 0;
}

struct held_page *crawl__held_next(const struct shard *c, const struct held_page *hp) {
  if (hp && hp->next)
    return hp->next;
  for (int level = hp ? hp->depth + 1 : 0; c->held && level < c->held->level_count; level++)
    if (c->held->levels[level].head)
      return c->held->levels[level].head;
  return NULL;
}

void crawl__held_prepare(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  if (!(c->held = calloc(1, sizeof(*c->held)))) {
    crawl__notes_fatal(c, "cannot start: out of memory");
    return;
  }
  c->held->min = INT_MAX;
  c->held->budget = UINT64_MAX / 2; /* no --queue-memory, until crawl__held_set_queue_memory */
  c->held->level = true;
  core_buf_init(&c->held->scratch, SIZE_MAX);
  c->held->once = cfg->delay > 0 || cfg->delay_factor > 0 || cfg->ip_delay > 0;
}
