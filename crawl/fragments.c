/* --check-fragments (doc/behaviour.md, Fragments): a link whose #fragment names no element of
 * its target page is a broken link. Links and pages come in any order, from any shard (a page's
 * host is one shard's, the pages linking to it anyone's), so the run keeps what it needs in one
 * table, under a lock, and judges the links once the crawl has ended and every page it fetched
 * is known:
 *   pages: each HTML page fetched whole, by its URL's hash: the hashes of its ids and <a> names,
 *          sorted (8 bytes an anchor; the page is parsed once however many links point at it);
 *   links: every link with a fragment, as found: its target's and fragment's hashes, the page it
 *          is on and its text. A page hands them over when it is done, in one go; they are only
 *          appended (no lookup per link: the crawl pays a few hashes a link), and sorted at the
 *          end, where each distinct target and fragment is judged once.
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

/* A link found: its target, its fragment (decoded), the page it is on (an index into froms),
 * where its text ("target#fragment") is in texts, and its order among the links. */
struct frag_link {
  uint64_t target, anchor;
  uint64_t text;
  uint32_t from;
  uint32_t depth;
  uint8_t via;
};

/* An open-addressing index of the pages: a URL's hash to its position + 1 (0: free); two pages
 * of one 64-bit hash are not expected. */
struct slot {
  uint64_t key;
  size_t at;
};

struct crawl_fragments {
  pthread_mutex_t lock;
  struct frag_page *pages;
  size_t page_count, page_cap;
  struct slot *slots;
  size_t slot_count; /* a power of two, twice the pages at least */
  struct frag_link *links;
  size_t link_count, link_cap;
  char **froms; /* the pages links were found on, in the order they handed them over */
  size_t from_count, from_cap;
  struct core_buf texts;
};

core_rc crawl__fragments_create(struct crawl_fragments **out) {
  struct crawl_fragments *f = calloc(1, sizeof(*f));
  if (!f || pthread_mutex_init(&f->lock, NULL) != 0) {
    free(f);
    return CORE_ENOMEM;
  }
  core_buf_init(&f->texts, SIZE_MAX / 2);
  *out = f;
  return CORE_OK;
}

void crawl__fragments_destroy(struct crawl_fragments *f) {
  if (!f)
    return;
  for (size_t i = 0; i < f->page_count; i++)
    free(f->pages[i].anchors);
  for (size_t i = 0; i < f->from_count; i++)
    free(f->froms[i]);
  free(f->pages);
  free(f->slots);
  free(f->links);
  free(f->froms);
  core_buf_free(&f->texts);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

static struct slot *slot_of(struct slot *slots, size_t count, uint64_t key) {
  size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 17) & (count - 1);
  while (slots[i].at && slots[i].key != key)
    i = (i + 1) & (count - 1);
  return &slots[i];
}

/* Room for one more page in the index: when it doubles, the pages are placed anew. */
static bool slot_room(struct crawl_fragments *f) {
  if (2 * (f->page_count + 1) <= f->slot_count)
    return true;
  size_t count = f->slot_count ? f->slot_count * 2 : 1024;
  struct slot *slots = calloc(count, sizeof(*slots));
  if (!slots)
    return false;
  for (size_t i = 0; i < f->slot_count; i++)
    if (f->slots[i].at)
      *slot_of(slots, count, f->slots[i].key) = f->slots[i];
  free(f->slots);
  f->slots = slots;
  f->slot_count = count;
  return true;
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
  uint64_t *copy = count ? malloc(count * sizeof(*copy)) : NULL;
  if (count && !copy)
    return CORE_ENOMEM;
  if (count)
    memcpy(copy, anchors, count * sizeof(*copy));
  pthread_mutex_lock(&f->lock);
  core_rc rc = CORE_ENOMEM;
  if (core_array_room((void **)&f->pages, &f->page_cap, f->page_count, sizeof(*f->pages), 256) &&
      slot_room(f)) {
    struct slot *slot = slot_of(f->slots, f->slot_count, hash);
    if (!slot->at) {
      f->pages[f->page_count] = (struct frag_page){hash, copy, count};
      *slot = (struct slot){hash, ++f->page_count};
      copy = NULL;
    } /* else fetched again (a retry that came through): its first anchors stand */
    rc = CORE_OK;
  }
  pthread_mutex_unlock(&f->lock);
  free(copy);
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

void crawl__fragments_of_link(struct request *rq, const char *target, const char *href, size_t len,
                              struct link_how how) {
  struct shard *c = rq->shard;
  const char *mark = memchr(href, '#', len);
  if (!mark || c->fatal)
    return;
  size_t after = len - (size_t)(mark - href) - 1;
  while (after && (unsigned char)mark[after] <= 0x20) /* what a URL parser strips */
    after--;
  char decoded[1024];
  size_t n;
  if (!checkable(mark + 1, after, decoded, sizeof(decoded), &n))
    return;
  /* kept with the page until it is done (crawl__fragments_hand_over) */
  size_t target_len = strlen(target);
  struct core_buf *texts = &rq->fragments.texts;
  if (!rq->fragments.texts.max)
    core_buf_init(texts, SIZE_MAX / 2);
  uint64_t at = texts->len;
  if (!core_array_room((void **)&rq->fragments.links, &rq->fragments.cap, rq->fragments.count,
                       sizeof(*rq->fragments.links), 16) ||
      core_buf_add(texts, target, target_len) || core_buf_addc(texts, '#') ||
      core_buf_add(texts, mark + 1, after) || core_buf_addc(texts, '\0')) {
    crawl__fatal(c, "out of memory");
    return;
  }
  rq->fragments.links[rq->fragments.count++] =
      (struct frag_link){.target = XXH3_64bits(target, target_len),
                         .anchor = XXH3_64bits(decoded, n),
                         .text = at,
                         .depth = (uint32_t)(rq->item->depth + 1),
                         .via = how.via};
}

void crawl__fragments_hand_over(struct request *rq) {
  struct shard *c = rq->shard;
  struct crawl_fragments *f = c->fragments;
  size_t count = rq->fragments.count;
  if (!f || !count)
    return;
  char *from = strdup(rq->url.text);
  bool ok = from != NULL;
  pthread_mutex_lock(&f->lock);
  uint64_t base = f->texts.len;
  ok = ok && f->from_count < UINT32_MAX &&
       core_array_room((void **)&f->froms, &f->from_cap, f->from_count, sizeof(*f->froms), 256);
  while (ok && f->link_cap - f->link_count < count)
    ok = core_array_room((void **)&f->links, &f->link_cap, f->link_cap, sizeof(*f->links), 256);
  ok = ok && core_buf_add(&f->texts, rq->fragments.texts.data, rq->fragments.texts.len) == CORE_OK;
  if (ok) {
    uint32_t page = (uint32_t)f->from_count;
    f->froms[f->from_count++] = from;
    from = NULL;
    for (size_t i = 0; i < count; i++) {
      struct frag_link l = rq->fragments.links[i];
      l.from = page;
      l.text += base;
      f->links[f->link_count++] = l;
    }
  }
  pthread_mutex_unlock(&f->lock);
  free(from);
  rq->fragments.count = 0;
  if (!ok)
    crawl__fatal(c, "out of memory");
}

void crawl__fragments_forget(struct request *rq) {
  free(rq->fragments.links);
  core_buf_free(&rq->fragments.texts);
  memset(&rq->fragments, 0, sizeof(rq->fragments));
}

static const struct frag_page *page_of(const struct crawl_fragments *f, uint64_t hash) {
  if (!f->slot_count)
    return NULL;
  size_t at = slot_of(f->slots, f->slot_count, hash)->at;
  return at ? &f->pages[at - 1] : NULL;
}

/* The links by target and fragment, then by the page they are on (the order pages came). */
static int by_link(const void *a, const void *b) {
  const struct frag_link *x = a, *y = b;
  if (x->target != y->target)
    return x->target < y->target ? -1 : 1;
  if (x->anchor != y->anchor)
    return x->anchor < y->anchor ? -1 : 1;
  return x->from < y->from ? -1 : x->from > y->from;
}

/* A broken one: where its run of links starts, and its first page (the order they are told). */
struct broken {
  size_t first;
  uint32_t from;
};

static int by_from(const void *a, const void *b) {
  const struct broken *x = a, *y = b;
  return x->from != y->from ? (x->from < y->from ? -1 : 1)
                            : (x->first > y->first) - (x->first < y->first);
}

static void report_one(struct crawl_fragments *f, struct shard *c, size_t first, size_t end) {
  const struct frag_link *l = &f->links[first];
  const char *from[CRAWL_REFERRERS_SHOWN];
  size_t from_n = 0;
  uint64_t count = 0;
  for (size_t i = first; i < end; i++)
    if (i == first || f->links[i].from != f->links[i - 1].from) { /* each page once */
      if (from_n < CRAWL_REFERRERS_SHOWN)
        from[from_n++] = f->froms[f->links[i].from];
      count++;
    }
  const char *url = f->texts.data + l->text;
  const char *fragment = strchr(url, '#') + 1;
  char *error = NULL;
  if (asprintf(&error, "no element with id or name '%s' on the page", fragment) < 0) {
    crawl__fatal(c, "out of memory");
    return;
  }
  struct crawl_record rec = {.url = url,
                             .from = from[0],
                             .depth = (int)l->depth,
                             .fate = CRAWL_FATE_FAILED,
                             .cause = CRAWL_CAUSE_FRAGMENT,
                             .error = error,
                             .linked_known = true,
                             .linked_from = from,
                             .linked_from_n = from_n,
                             .linked_count = count};
  crawl__report(c, ((unsigned)l->via << ITEM_VIA_SHIFT) & ITEM_VIA_MASK, &rec);
  free(error);
}

void crawl__fragments_judge(struct crawl_fragments *f, struct shard *c) {
  pthread_mutex_lock(&f->lock);
  qsort(f->links, f->link_count, sizeof(*f->links), by_link);
  struct broken *broken = NULL;
  size_t broken_count = 0, broken_cap = 0;
  for (size_t i = 0, end; i < f->link_count; i = end) {
    const struct frag_link *l = &f->links[i];
    for (end = i + 1; end < f->link_count && f->links[end].target == l->target &&
                      f->links[end].anchor == l->anchor;
         end++)
      ;
    const struct frag_page *p = page_of(f, l->target);
    if (!p || bsearch(&l->anchor, p->anchors, p->count, sizeof(*p->anchors), by_value))
      continue; /* not fetched as HTML, or there */
    if (!core_array_room((void **)&broken, &broken_cap, broken_count, sizeof(*broken), 64)) {
      crawl__fatal(c, "out of memory");
      break;
    }
    broken[broken_count++] = (struct broken){i, l->from};
  }
  /* told in the order the crawl met them: by the first page that links to each */
  qsort(broken, broken_count, sizeof(*broken), by_from);
  for (size_t k = 0; k < broken_count && !c->fatal; k++) {
    size_t end = broken[k].first + 1;
    while (end < f->link_count && f->links[end].target == f->links[broken[k].first].target &&
           f->links[end].anchor == f->links[broken[k].first].anchor)
      end++;
    report_one(f, c, broken[k].first, end);
  }
  free(broken);
  pthread_mutex_unlock(&f->lock);
}
