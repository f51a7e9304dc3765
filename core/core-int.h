/* Shared inside core/: the seen filter's parts that its file format needs. */
#ifndef CRAWL_CORE_INT_H
#define CRAWL_CORE_INT_H

#include "core/core.h"

/* Zeroed memory for a filter's table, cache-line aligned; tables of 4 MiB and more are aligned to
 * 2 MiB and asked to live in huge pages, so random probes miss the TLB less. Free with free(). */
void *core__table_alloc(size_t bytes);
/* Frees what core__table_alloc gave (NULL is fine). */
void core__table_free(void *table);
/* The largest table given huge pages (see core__table_alloc). */
#define CORE_TABLE_HUGE_MAX ((size_t)16 << 20)

/* URL resolution's two ways (core_url_resolve_in takes the first that applies): the fast one
 * sets *handled when it could resolve href by itself (its result, or CORE_ETOOLONG, is final);
 * the full one goes through curl's URL API and takes every input. The fast one's results keep no
 * curl handle (handle is NULL). */
core_rc core__url_resolve_fast(const struct core_url *base, const char *href, size_t href_len,
                               size_t max_len, struct core_url *out, bool *handled);
core_rc core__url_resolve_full(const struct core_url *base, const char *href, size_t href_len,
                               size_t max_len, const char *charset, struct core_url *out);

/* 1.44 log2(1/p): bits per key of a classic Bloom filter at its best k. */
double core__seen_optimum_bits(double fp);

struct core__seen_layer_view {
  uint64_t blocks;
  unsigned block_bits;
  unsigned k;
  unsigned counter_bits;
  uint64_t capacity;
  uint64_t count;
  double fp;
  const uint64_t *words;
  uint64_t word_count;
};

struct core__seen_header {
  core_seen_kind kind;
  uint64_t seed;
  double fp_rate;
  uint64_t expect;
  uint64_t count;
  unsigned layer_count;
  uint64_t slot_count; /* exact */
};

/* core_seen_share's lock (nothing for a filter of one thread), and what its holder may call. */
void core__seen_lock(const core_seen *s);
void core__seen_unlock(const core_seen *s);
void core__seen_info_locked(const core_seen *s, struct core_seen_info *info);

/* A view of layer i (borrowed until the filter changes), or NULL past the last. */
const struct core__seen_layer_view *core__seen_layer(const core_seen *s, unsigned i,
                                                     struct core__seen_layer_view *view);
void core__seen_exact(const core_seen *s, const uint64_t **slots, uint64_t *slot_count);
/* Builds a filter from loaded parts; takes ownership of layer_words[i] and slots. */
core_rc core__seen_assemble(const struct core__seen_header *hdr,
                            const struct core__seen_layer_view *layers, uint64_t **layer_words,
                            uint64_t *slots, core_seen **out);
uint64_t core__seen_layer_word_count(uint64_t blocks, unsigned block_bits, unsigned counter_bits);

#endif
