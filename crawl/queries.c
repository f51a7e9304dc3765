/* --max-query-variants (doc/behaviour.md, Trap guards): per path of one host, how far its query
 * strings were grown one from another. A URL new to the seen filter, with a query, found on a
 * page of the same host, makes its path's chain one more than the chain of the page's path, if
 * that is more: a calendar whose every day links the next counts each day, and so do two paths
 * whose pages link each other's next query; the items of a listing count one more than the
 * listing, so a catalogue of any size under one path is crawled whole. Kept by the path's hash:
 * open addressing, a power of two of slots at most half full. A host's counts are its
 * host_data's (host.c frees them with it). */
#include "crawl/notes.h"
#include "crawl/queries.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

struct query_path {
  uint64_t hash;  /* of the path; 0: an empty slot */
  uint32_t chain; /* how far its query strings were grown */
  uint32_t grown; /* query strings found on a page of this same path */
  uint32_t hops;  /* paths a query string carried here unchanged went through, at most */
};

struct query_counts {
  struct query_path *slots;
  size_t cap, used;
  /* a query string was carried on through QUERY_CARRY_HOPS paths to one that grows its own: the
   * trap of doc/behaviour.md, and every path of the host keeps QUERY_TRAP_VARIANTS from then on */
  bool carrying;
};

/* A query carried unchanged through this many paths to one whose pages grow more than
 * QUERY_TRAP_VARIANTS query strings of their own is a trap's: a calendar whose every day links
 * the next and a path one step further with the same day. A site carries a query through two or
 * three paths (an item's id to its reviews and their print page), whose pages link no query
 * strings of their own path, and a language or a sort order along many, with few values. */
#define QUERY_CARRY_HOPS 4
#define QUERY_TRAP_VARIANTS 20

void crawl__queries_free(struct query_counts *q) {
  if (q)
    free(q->slots);
  free(q);
}

static uint64_t query_path_hash(const char *path, size_t len) {
  uint64_t hash = XXH3_64bits(path, len);
  return hash + !hash;
}

static size_t query_path_slot(const struct query_counts *q, uint64_t hash) {
  size_t j = (size_t)hash & (q->cap - 1);
  while (q->slots[j].hash && q->slots[j].hash != hash)
    j = (j + 1) & (q->cap - 1);
  return j;
}

/* The entry of a path (len bytes) of q's host, made when new; NULL when memory runs out. */
static struct query_path *query_path_add(struct query_counts *q, const char *path, size_t len) {
  if (2 * (q->used + 1) > q->cap) {
    struct query_counts bigger = {.cap = q->cap ? 2 * q->cap : 16};
    if (!(bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots))))
      return NULL;
    for (size_t i = 0; i < q->cap; i++)
      if (q->slots[i].hash)
        bigger.slots[query_path_slot(&bigger, q->slots[i].hash)] = q->slots[i];
    free(q->slots);
    q->slots = bigger.slots;
    q->cap = bigger.cap;
  }
  uint64_t hash = query_path_hash(path, len);
  struct query_path *e = &q->slots[query_path_slot(q, hash)];
  if (!e->hash) {
    e->hash = hash;
    q->used++;
  }
  return e;
}

/* The entry of a path (len bytes) of q's host, or NULL for one never counted. */
static const struct query_path *query_path_find(const struct query_counts *q, const char *path,
                                                size_t len) {
  if (!q->cap)
    return NULL;
  const struct query_path *e = &q->slots[query_path_slot(q, query_path_hash(path, len))];
  return e->hash ? e : NULL;
}

long crawl__queries_most(const struct query_counts *q, const struct crawl_config *cfg) {
  return q->carrying && cfg->max_query_variants > QUERY_TRAP_VARIANTS ? QUERY_TRAP_VARIANTS
                                                                      : cfg->max_query_variants;
}

bool crawl__queries_trapped(struct shard *c, struct query_counts **qp, const struct url *u,
                            const char *from, size_t path_len, bool *failed) {
  const char *path = u->text + u->path_off;
  const char *query = path + path_len + 1;
  const char *from_path = from + u->path_off;
  size_t from_path_len = strcspn(from_path, "?#");
  bool same_path = from_path_len == path_len && !memcmp(from_path, path, path_len);
  bool carried = !same_path && from_path[from_path_len] == '?' &&
                 !strcmp(from_path + from_path_len + 1, query);
  struct query_counts *q = *qp;
  if (!q && !(q = *qp = calloc(1, sizeof(*q)))) {
    *failed = true;
    return false;
  }
  const struct query_path *before = query_path_find(q, from_path, from_path_len);
  uint32_t chain = before ? before->chain + 1 : 1, hops = before ? before->hops + 1 : 1;
  struct query_path *e = query_path_add(q, path, path_len);
  if (!e) {
    *failed = true;
    return false;
  }
  if (chain > e->chain)
    e->chain = chain;
  if (same_path)
    e->grown++;
  else if (carried && hops > e->hops)
    e->hops = hops;
  if (e->hops >= QUERY_CARRY_HOPS && e->grown > QUERY_TRAP_VARIANTS && !q->carrying) {
    q->carrying = true;
    crawl__notes_verbose(
        c,
        "%s: a query string carried on from path to path grows new ones on each (a "
        "calendar, a session id): at most %d query strings a path from now on",
        u->host, QUERY_TRAP_VARIANTS);
  }
  return e->chain > (uint64_t)crawl__queries_most(q, c->cfg);
}
