/* --check-fragments (doc/behaviour.md, Fragments): a link whose #fragment names no element of
 * its target page is a broken link. Links and pages come in any order, from any shard (a page's
 * host is one shard's, the pages linking to it anyone's), so the run keeps one table of each,
 * under a lock, and the links are judged once the crawl has ended and every page it fetched is
 * known:
 *   pages: each HTML page fetched whole, by its URL's hash: the hashes of its ids and <a> names,
 *          sorted (8 bytes an anchor; the page is parsed once however many links point at it);
 *   links: each distinct target and fragment, with the first pages that link to it and how many.
 * A target the crawl did not fetch as HTML (out of scope, failed, not HTML, cut at --max-size)
 * is not judged: its own record says what became of it. */
#include "crawl/fragments.h"
#include "crawl/notes.h"
#include "crawl/report.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

struct frag_page {
  uint64_t hash; /* of the URL */
  uint64_t *anchors;
  size_t count;
};

/* Strings in links are interned (a site's pages link the same targets from the same pages
 * thousands of times): kept once, in blocks, found by their hash. */
struct frag_link {
  uint64_t hash;   /* of the target URL */
  uint64_t anchor; /* of the decoded fragment */
  const char *target, *fragment;
  uint64_t count; /* pages linking to it */
  uint32_t refs;  /* its first referrer in refs, + 1 (0: none) */
  uint8_t refs_n; /* up to CRAWL_REFERRERS_SHOWN */
  uint8_t via;
  int32_t depth;
};

/* A page linking to a link's target: a chain of them for each link, most of one. */
struct frag_ref {
  const char *page;
  uint32_t next; /* + 1 (0: the last) */
};

/* An open-addressing index from a 64-bit key to an entry's position + 1 (0: free); the key is
 * kept beside it, so that a probe reads the entries only on a match. */
struct index {
  struct slot {
    uint64_t key;
    size_t at;
  } * slots;
  size_t size; /* a power of two, twice the entries at least */
};

struct block {
  struct block *next;
  size_t used, size;
  char text[];
};

struct crawl_fragments {
  pthread_mutex_t lock;
  struct frag_page *pages;
  size_t page_count, page_cap;
  struct index page_index;
  struct frag_link *links;
  size_t link_count, link_cap;
  struct index link_index;
  struct frag_ref *refs;
  size_t ref_count, ref_cap;
  const char **strings; /* interned */
  size_t string_count, string_cap;
  struct index string_index;
  struct block *blocks;
};

core_rc crawl__fragments_create(struct crawl_fragments **out) {
  struct crawl_fragments *f = calloc(1, sizeof(*f));
  if (!f || pthread_mutex_init(&f->lock, NULL) != 0) {
    free(f);
    return CORE_ENOMEM;
  }
  *out = f;
  return CORE_OK;
}

void crawl__fragments_destroy(struct crawl_fragments *f) {
  if (!f)
    return;
  for (size_t i = 0; i < f->page_count; i++)
    free(f->pages[i].anchors);
  while (f->blocks) {
    struct block *next = f->blocks->next;
    free(f->blocks);
    f->blocks = next;
  }
  free(f->pages);
  free(f->links);
  free(f->refs);
  free(f->strings);
  free(f->page_index.slots);
  free(f->link_index.slots);
  free(f->string_index.slots);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

static uint64_t link_key(uint64_t target, uint64_t anchor) {
  return target ^ (anchor * 0x9e3779b97f4a7c15ull);
}

/* The slot of key: the one holding it (same key, and same entry as same() says), or the free
 * one where it goes. */
static struct slot *slot_of(const struct index *ix, uint64_t key,
                            bool (*same)(const void *arg, size_t at), const void *arg) {
  size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 17) & (ix->size - 1);
  while (ix->slots[i].at && (ix->slots[i].key != key || !same(arg, ix->slots[i].at - 1)))
    i = (i + 1) & (ix->size - 1);
  return &ix->slots[i];
}

static bool any(const void *arg, size_t at) {
  (void)arg;
  (void)at;
  return true; /* 64-bit keys: two pages or links of one key are not expected */
}

/* Room for one more entry in ix: when it doubles, its slots are placed anew. */
static bool index_room(struct index *ix, size_t count) {
  if (2 * (count + 1) <= ix->size)
    return true;
  struct index grown = {NULL, ix->size ? ix->size * 2 : 1024};
  if (!(grown.slots = calloc(grown.size, sizeof(*grown.slots))))
    return false;
  for (size_t i = 0; i < ix->size; i++)
    if (ix->slots[i].at)
      *slot_of(&grown, ix->slots[i].key, any, NULL) = ix->slots[i];
  free(ix->slots);
  *ix = grown;
  return true;
}

struct wanted {
  const struct crawl_fragments *f;
  const char *text;
  size_t len;
};

static bool same_string(const void *arg, size_t at) {
  const struct wanted *w = arg;
  const char *s = w->f->strings[at];
  return strncmp(s, w->text, w->len) == 0 && s[w->len] == '\0';
}

/* text[0, len) kept once; NULL when memory ran out. */
static const char *intern(struct crawl_fragments *f, const char *text, size_t len) {
  uint64_t key = XXH3_64bits(text, len);
  struct wanted w = {f, text, len};
  if (!core_array_room((void **)&f->strings, &f->string_cap, f->string_count, sizeof(*f->strings),
                       256) ||
      !index_room(&f->string_index, f->string_count))
    return NULL;
  struct slot *slot = slot_of(&f->string_index, key, same_string, &w);
  if (slot->at)
    return f->strings[slot->at - 1];
  if (!f->blocks || f->blocks->size - f->blocks->used < len + 1) {
    size_t size = len + 1 > 65536 ? len + 1 : 65536;
    struct block *b = malloc(sizeof(*b) + size);
    if (!b)
      return NULL;
    *b = (struct block){f->blocks, 0, size};
    f->blocks = b;
  }
  char *copy = f->blocks->text + f->blocks->used;
  f->blocks->used += len + 1;
  memcpy(copy, text, len);
  copy[len] = '\0';
  f->strings[f->string_count] = copy;
  *slot = (struct slot){key, ++f->string_count};
  return copy;
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

uint64_t crawl__fragment_hash(const char *text, size_t len) {
  return XXH3_64bits(text, len);
}

core_rc crawl__fragments_page(struct crawl_fragments *f, const char *url, uint64_t *anchors,
                              size_t count) {
  qsort(anchors, count, sizeof(*anchors), by_value);
  uint64_t hash = XXH3_64bits(url, strlen(url));
  pthread_mutex_lock(&f->lock);
  core_rc rc = CORE_ENOMEM;
  if (core_array_room((void **)&f->pages, &f->page_cap, f->page_count, sizeof(*f->pages), 256) &&
      index_room(&f->page_index, f->page_count)) {
    struct slot *slot = slot_of(&f->page_index, hash, any, NULL);
    uint64_t *copy = count && !slot->at ? malloc(count * sizeof(*copy)) : NULL;
    if (slot->at) { /* fetched again (a retry that came through): its first anchors stand */
      rc = CORE_OK;
    } else if (!count || copy) {
      if (count)
        memcpy(copy, anchors, count * sizeof(*copy));
      f->pages[f->page_count] = (struct frag_page){hash, copy, count};
      *slot = (struct slot){hash, ++f->page_count};
      rc = CORE_OK;
    }
  }
  pthread_mutex_unlock(&f->lock);
  return rc;
}

/* What an href's fragment names, or false when it names the page itself (empty, "top") or is a
 * text fragment (":~:text=", which no id holds). decoded gets the percent-decoded bytes, as the
 * HTML Standard compares them with ids. */
static bool checkable(const char *fragment, size_t len, char *decoded, size_t size, size_t *out) {
  if (!len || (len >= 3 && strncmp(fragment, ":~:", 3) == 0))
    return false;
  size_t n = 0;
  for (size_t i = 0; i < len && n < size; i++) {
    int hi, lo;
    if (fragment[i] == '%' && i + 2 < len && (hi = core_hex_digit(fragment[i + 1])) >= 0 &&
        (lo = core_hex_digit(fragment[i + 2])) >= 0) {
      decoded[n++] = (char)(hi * 16 + lo);
      i += 2;
    } else {
      decoded[n++] = fragment[i];
    }
  }
  if (n == size)
    return false; /* longer than any id worth a word */
  *out = n;
  return !(n == 3 && strncasecmp(decoded, "top", 3) == 0);
}

/* Under the lock: a link kept, or the page added to its referrers. */
static core_rc add_link(struct crawl_fragments *f, const char *target, const char *fragment,
                        size_t len, const char *page, int depth, unsigned via) {
  char decoded[1024];
  size_t n;
  if (!checkable(fragment, len, decoded, sizeof(decoded), &n))
    return CORE_OK;
  size_t target_len = strlen(target);
  uint64_t hash = XXH3_64bits(target, target_len), anchor = XXH3_64bits(decoded, n);
  uint64_t key = link_key(hash, anchor);
  if (!core_array_room((void **)&f->links, &f->link_cap, f->link_count, sizeof(*f->links), 256) ||
      !index_room(&f->link_index, f->link_count) ||
      !core_array_room((void **)&f->refs, &f->ref_cap, f->ref_count, sizeof(*f->refs), 256) ||
      f->ref_count >= UINT32_MAX)
    return CORE_ENOMEM;
  struct slot *slot = slot_of(&f->link_index, key, any, NULL);
  struct frag_link *l = &f->links[slot->at ? slot->at - 1 : f->link_count];
  if (!slot->at) {
    *l = (struct frag_link){.hash = hash, .anchor = anchor, .via = (uint8_t)via, .depth = depth};
    if (!(l->target = intern(f, target, target_len)) || !(l->fragment = intern(f, fragment, len)))
      return CORE_ENOMEM;
    *slot = (struct slot){key, ++f->link_count};
  }
  /* interned: one page, one pointer; a page past the first ten is counted each time */
  for (uint32_t r = l->refs; r; r = f->refs[r - 1].next)
    if (f->refs[r - 1].page == page)
      return CORE_OK;
  l->count++;
  if (l->refs_n < CRAWL_REFERRERS_SHOWN) { /* at the chain's head: reversed when written */
    f->refs[f->ref_count] = (struct frag_ref){page, l->refs};
    l->refs = (uint32_t)++f->ref_count;
    l->refs_n++;
  }
  return CORE_OK;
}

void crawl__fragments_of_link(struct request *rq, const char *target, const char *href, size_t len,
                              struct link_how how) {
  struct shard *c = rq->shard;
  const char *mark = memchr(href, '#', len);
  if (!mark || c->fatal)
    return;
  size_t after = len - (size_t)(mark - href) - 1;
  while (after && (unsigned char)mark[after] <= 0x20) /* what a URL parser strips */
    after--;
  struct crawl_fragments *f = c->fragments;
  pthread_mutex_lock(&f->lock);
  if (!rq->anchors.from) /* the page's URL, kept once for all its links */
    rq->anchors.from = intern(f, rq->url.text, strlen(rq->url.text));
  core_rc rc = rq->anchors.from ? add_link(f, target, mark + 1, after, rq->anchors.from,
                                           rq->item->depth + 1, how.via)
                                : CORE_ENOMEM;
  pthread_mutex_unlock(&f->lock);
  if (rc != CORE_OK)
    crawl__fatal(c, "out of memory");
}

static const struct frag_page *page_of(const struct crawl_fragments *f, uint64_t hash) {
  if (!f->page_index.size)
    return NULL;
  size_t at = slot_of(&f->page_index, hash, any, NULL)->at;
  return at ? &f->pages[at - 1] : NULL;
}

void crawl__fragments_judge(struct crawl_fragments *f, struct shard *c) {
  pthread_mutex_lock(&f->lock);
  for (size_t i = 0; i < f->link_count && !c->fatal; i++) {
    const struct frag_link *l = &f->links[i];
    const struct frag_page *p = page_of(f, l->hash);
    if (!p || bsearch(&l->anchor, p->anchors, p->count, sizeof(*p->anchors), by_value))
      continue; /* not fetched as HTML, or there */
    char *url = NULL, *error = NULL;
    if (asprintf(&url, "%s#%s", l->target, l->fragment) < 0)
      url = NULL;
    if (!url || asprintf(&error, "no element with id or name '%s' on the page", l->fragment) < 0) {
      free(url);
      crawl__fatal(c, "out of memory");
      break;
    }
    const char *from[CRAWL_REFERRERS_SHOWN];
    size_t from_n = l->refs_n;
    uint32_t r = l->refs;
    for (size_t k = from_n; k-- > 0 && r; r = f->refs[r - 1].next)
      from[k] = f->refs[r - 1].page; /* the chain runs newest first */
    struct crawl_record rec = {.url = url,
                               .from = from_n ? from[0] : NULL,
                               .depth = l->depth,
                               .fate = CRAWL_FATE_FAILED,
                               .cause = CRAWL_CAUSE_FRAGMENT,
                               .error = error,
                               .linked_known = true,
                               .linked_from = from,
                               .linked_from_n = from_n,
                               .linked_count = l->count};
    crawl__report(c, (l->via << ITEM_VIA_SHIFT) & ITEM_VIA_MASK, &rec);
    free(url);
    free(error);
  }
  pthread_mutex_unlock(&f->lock);
}
