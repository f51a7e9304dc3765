/* --check-fragments (doc/behaviour.md, Fragments): a link whose #fragment names no element of
 * its target page is a broken link. Links and pages come in any order, from any shard (a page's
 * host is one shard's, the pages linking to it anyone's), so the run keeps what it needs in one
 * table, under a lock, and judges the links once the crawl has ended and every page it fetched
 * is known:
 *   pages: each HTML page fetched whole, by its URL's hash: the hashes of its ids and <a> names,
 *          sorted (8 bytes an anchor; the page is parsed once however many links point at it);
 *   links: every link with a fragment, as found: its target's and fragment's hashes, the page it
 *          is on and its text (in that page's own buffer). A page hands them over when it is
 *          done, in one go; they are only appended (no lookup per link: the crawl pays a few
 *          hashes a link). At the end each link is looked up, and only the broken ones are
 *          sorted, to tell each broken target and fragment once with all the pages linking to it.
 * A target the crawl did not fetch as HTML (out of scope, failed, not HTML, cut at --max-size)
 * is not judged: its own record says what became of it. */
#include "crawl/fragments.h"
#include "crawl/life.h"
#include "crawl/mesh.h"
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
 * where its text ("target#fragment") is in that page's texts. */
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

/* A page links were found on: its URL, and its links' texts, one after another (each
 * NUL-terminated), the buffer it filled while it was parsed. */
struct frag_from {
  char *url;
  char *texts;
};

struct crawl_fragments {
  pthread_mutex_t lock;
  struct frag_page *pages;
  size_t page_count, page_cap;
  struct slot *slots;
  size_t slot_count;       /* a power of two, twice the pages at least */
  struct frag_link *links; /* by the page they are on, in the order pages handed them over */
  size_t link_count, link_cap;
  struct frag_from *froms; /* in the order they handed their links over */
  size_t from_count, from_cap;
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
  for (size_t i = 0; i < f->from_count; i++) {
    free(f->froms[i].url);
    free(f->froms[i].texts);
  }
  free(f->pages);
  free(f->slots);
  free(f->links);
  free(f->froms);
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

uint64_t crawl__fragments_hash(const char *text, size_t len) {
  return XXH3_64bits(text, len);
}

core_rc crawl__fragments_page(struct crawl_fragments *f, const char *url, uint64_t *anchors,
                              size_t count) {
  core_sort_u64(anchors, count);
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
  if (!mark || crawl__life_fatal(c))
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
  if (!texts->max) /* the first: room for the links of a page of documentation, at one go */
    core_buf_init(texts, SIZE_MAX / 2);
  uint64_t at = texts->len;
  if (!core_array_room((void **)&rq->fragments.links, &rq->fragments.cap, rq->fragments.count,
                       sizeof(*rq->fragments.links), 64) ||
      (!at && core_buf_reserve(texts, 4096) != CORE_OK) ||
      core_buf_add(texts, target, target_len) || core_buf_addc(texts, '#') ||
      core_buf_add(texts, mark + 1, after) || core_buf_addc(texts, '\0')) {
    crawl__notes_fatal(c, "out of memory");
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
  struct crawl_fragments *f = crawl__mesh_fragments(c->run);
  size_t count = rq->fragments.count;
  if (!f || !count)
    return;
  char *from = strdup(rq->url.text);
  bool ok = from != NULL;
  core_buf_shrink(&rq->fragments.texts); /* kept to the end of the run */
  pthread_mutex_lock(&f->lock);
  ok = ok && f->from_count < UINT32_MAX &&
       core_array_room((void **)&f->froms, &f->from_cap, f->from_count, sizeof(*f->froms), 256);
  while (ok && f->link_cap - f->link_count < count)
    ok = core_array_room((void **)&f->links, &f->link_cap, f->link_cap, sizeof(*f->links), 256);
  if (ok) {
    uint32_t page = (uint32_t)f->from_count;
    f->froms[f->from_count++] = (struct frag_from){from, rq->fragments.texts.data};
    from = NULL;
    core_buf_init(&rq->fragments.texts, 0); /* its buffer is the table's now */
    for (size_t i = 0; i < count; i++) {
      struct frag_link l = rq->fragments.links[i];
      l.from = page;
      f->links[f->link_count++] = l;
    }
  }
  pthread_mutex_unlock(&f->lock);
  free(from);
  rq->fragments.count = 0;
  if (!ok)
    crawl__notes_fatal(c, "out of memory");
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

static bool has_anchor(const struct frag_page *p, uint64_t anchor) {
  size_t low = 0, high = p->count; /* the anchors are sorted: the first not below anchor */
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (p->anchors[middle] < anchor)
      low = middle + 1;
    else
      high = middle;
  }
  return low < p->count && p->anchors[low] == anchor;
}

/* A broken link: its target and fragment, and its place in the table's links (which is also the
 * order of the pages they are on). */
struct broken {
  uint64_t target, anchor;
  size_t at;
};

/* By target and fragment, then in the order they were found. */
static int by_link(const void *a, const void *b) {
  const struct broken *x = a, *y = b;
  if (x->target != y->target)
    return x->target < y->target ? -1 : 1;
  if (x->anchor != y->anchor)
    return x->anchor < y->anchor ? -1 : 1;
  return (x->at > y->at) - (x->at < y->at);
}

/* A broken target and fragment: its run in the sorted broken links. */
struct run {
  size_t first, end;
  size_t at; /* its first link's place: the order the crawl met them */
};

static int by_first_link(const void *a, const void *b) {
  const struct run *x = a, *y = b;
  return (x->at > y->at) - (x->at < y->at);
}

/* One broken target and fragment, the n links to it found (in the order found). */
static void report_one(struct crawl_fragments *f, struct shard *c, const struct broken *links,
                       size_t n) {
  const struct frag_link *l = &f->links[links[0].at];
  const char *from[CRAWL_REFERRERS_SHOWN];
  size_t from_n = 0;
  uint64_t count = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t page = f->links[links[i].at].from;
    if (i == 0 || page != f->links[links[i - 1].at].from) { /* each page once */
      if (from_n < CRAWL_REFERRERS_SHOWN)
        from[from_n++] = f->froms[page].url;
      count++;
    }
  }
  const char *url = f->froms[l->from].texts + l->text;
  const char *fragment = strchr(url, '#') + 1;
  char *error = NULL;
  if (asprintf(&error, "no element with id or name '%s' on the page", fragment) < 0) {
    crawl__notes_fatal(c, "out of memory");
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
  struct broken *broken = NULL;
  size_t broken_count = 0, broken_cap = 0;
  for (size_t i = 0; i < f->link_count; i++) {
    const struct frag_link *l = &f->links[i];
    const struct frag_page *p = page_of(f, l->target);
    if (!p || has_anchor(p, l->anchor))
      continue; /* not fetched as HTML, or there */
    if (!core_array_room((void **)&broken, &broken_cap, broken_count, sizeof(*broken), 64)) {
      crawl__notes_fatal(c, "out of memory");
      break;
    }
    broken[broken_count++] = (struct broken){l->target, l->anchor, i};
  }
  qsort(broken, broken_count, sizeof(*broken), by_link);
  struct run *runs = NULL;
  size_t run_count = 0, run_cap = 0;
  for (size_t i = 0, end; i < broken_count && !crawl__life_fatal(c); i = end) {
    for (end = i + 1; end < broken_count && broken[end].target == broken[i].target &&
                      broken[end].anchor == broken[i].anchor;
         end++)
      ;
    if (!core_array_room((void **)&runs, &run_cap, run_count, sizeof(*runs), 64)) {
      crawl__notes_fatal(c, "out of memory");
      break;
    }
    runs[run_count++] = (struct run){i, end, broken[i].at};
  }
  /* told in the order the crawl met them: by the first link to each */
  qsort(runs, run_count, sizeof(*runs), by_first_link);
  for (size_t k = 0; k < run_count && !crawl__life_fatal(c); k++)
    report_one(f, c, broken + runs[k].first, runs[k].end - runs[k].first);
  free(runs);
  free(broken);
  pthread_mutex_unlock(&f->lock);
}
