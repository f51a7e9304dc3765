/* crawl/held.c: links held back until their level. What it offers the other files of the engine. */
#ifndef CRAWL_HELD_H
#define CRAWL_HELD_H

#include "crawl/crawl-int.h"

/* The links of a page fetched ahead of its level (see frontier_set_lookahead), held back until
 * the level comes: offered earlier, they could be found first at a depth too deep. They may be
 * many (up to four times --queue-memory), so each keeps only its printed form, in one buffer per
 * page, and is parsed again when offered. */
/* a link's text: a copy offered earlier holds its URL (see held.c) */
#define HELD_GONE UINT32_MAX
struct held_link {
  uint32_t text; /* offset of its kept form in the page's texts (see held.c), or HELD_GONE */
  int depth;
};
/* Tens of thousands wait at once in a polite crawl fetching ahead, the most at its last level
 * (doc/design.md, Memory): one allocation each, its URL inside, and counts of 32 bits, which a
 * page's texts bound (their offsets are 32 bits). */
struct held_page {
  struct held_page *next;
  struct held_link *links;
  /* a page that waits with a record (page) may still move up a level: the links it dropped
   * for a copy of the same level, to take back then, each noted as 8 bytes: the URL's hash, its
   * top byte the link's how (held.c) */
  uint64_t *dropped;
  struct core_buf texts; /* the links' printed forms, each ending in '\0' */
  struct spec *page;     /* a confirmed speculative page whose record waits with its links */
  uint64_t page_hash;    /* or its record waits in the stash: its URL's hash (speculate.c) */
  int depth;             /* the page's */
  uint32_t count, cap;
  uint32_t gone; /* links of count that are HELD_GONE */
  uint32_t dropped_count, dropped_cap;
  char from[]; /* the page */
};
/* Whether a record waits with hp's links (in memory or in the stash). */
static inline bool crawl__held_waits(const struct held_page *hp) {
  return hp->page || hp->page_hash;
}

/* The budget of fetching ahead, links held and speculative pages (see set_lookahead): twice the
 * shard's part of --queue-memory, which pays off in polite crawls, where what is merely queued
 * only waits. The queue of a crawl that fetches pages ahead spills at it too (crawl__shard_open):
 * a page fetched ahead must be found again in the queue. */
uint64_t crawl__held_ahead_budget(const struct shard *c);
/* Speculative pages: made in this crawl (speculate.c says so as it is prepared), and whether
 * they may be made now (set after each replay, within ten times the budget of their links). */
void crawl__held_speculate_on(struct shard *c);
bool crawl__held_speculates(const struct shard *c);
bool crawl__held_speculative_now(const struct shard *c);
/* The links kept with fetched speculative pages, of those held, as speculate.c keeps and lets
 * go of them. */
void crawl__held_spec_links_add(struct shard *c, size_t n);
void crawl__held_spec_links_remove(struct shard *c, size_t n);
size_t crawl__held_spec_links(const struct shard *c);

/* Held links */
/* A held page for the links of from (of depth), not yet queued; NULL when memory runs out. */
struct held_page *crawl__held_new(struct shard *c, const char *from, int depth);
/* Keeps url (a link of depth, found as how says) in hp; CORE_ENOMEM, hp as it was, when memory
 * runs out: the caller says so, once for a page's links. */
core_rc crawl__held_add(struct shard *c, struct held_page *hp, const char *url, int depth,
                        struct link_how how);
/* Queues a restored held page behind the others; its depth is pending until it is replayed. */
void crawl__held_queue(struct shard *c, struct held_page *hp);
/* Frees a held page (NULL is fine) and its links' count. */
void crawl__held_free(struct shard *c, struct held_page *hp);
/* Takes the next held page of the smallest depth, or NULL. */
struct held_page *crawl__held_take(struct shard *c);
/* Link i's printed form is the first n (returned) bytes of hp->from, then rest; how it was found
 * goes to *how. */
size_t crawl__held_text(const struct held_page *hp, size_t i, const char **rest,
                        struct link_how *how);
void crawl__held_at(struct held_page *hp, int depth); /* its page's depth turned out to be depth */
void crawl__held_seal(struct held_page *hp);          /* its links are all in: arrays shrink */
void crawl__held_append(struct shard *c, struct held_page *hp); /* kept, in depth order */
/* A queued held page whose page turned out shallower: it moves to depth, pending there. */
void crawl__held_move(struct shard *c, struct held_page *hp, int depth);
/* Replaying (intake.c's crawl__intake_replay_held pulls): the next held page whose level has come
 * (all: any), taken out of the held pages, or NULL; its link i, put together again (valid until
 * the next call) with how it was found, or NULL for a link an earlier copy offered; the page
 * done with (its depth released, freed); and once a replay ends, how far ahead pages may start
 * now. */
struct held_page *crawl__held_due(struct shard *c, bool all);
const char *crawl__held_link(struct shard *c, const struct held_page *hp, size_t i,
                             struct link_how *how);
void crawl__held_done(struct shard *c, struct held_page *hp);
void crawl__held_replayed(struct shard *c);
/* Frees the tables of held pages, once every held page was taken (crawl__held_take); again at
 * the shard's close, which changes nothing then. */
void crawl__held_close(struct shard *c);

/* Sets the held pages up for a shard (before it opens; memory running out is its fatal error),
 * and lets go of them at its end. */
void crawl__held_prepare(struct shard *c);
/* The shard's part of --queue-memory (0: none), which bounds the links held for pages fetched
 * ahead (crawl__held_ahead_budget); run.c hands it over once the held pages are set up. */
void crawl__held_set_queue_memory(struct shard *c, uint64_t queue_memory);
void crawl__held_free_all(struct shard *c);
/* Pages held, the links they hold in memory, the smallest depth of one (INT_MAX: none), and
 * whether a URL is held once (a polite crawl, crawl__held_prepare). */
size_t crawl__held_pages(const struct shard *c);
size_t crawl__held_links(const struct shard *c);
int crawl__held_min(const struct shard *c);
bool crawl__held_once(const struct shard *c);
/* n links are held in memory again (the stash gave a page back). */
void crawl__held_count_links(struct shard *c, size_t n);
/* The held page after hp (NULL: the first), by depth then in order; NULL after the last. */
struct held_page *crawl__held_next(const struct shard *c, const struct held_page *hp);
#endif
