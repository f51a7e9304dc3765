/* Shared inside seen/: the filters' tables, and the parts of the seen filter its file format
 * needs. */
#ifndef CRAWL_SEEN_INT_H
#define CRAWL_SEEN_INT_H

#include "seen/seen.h"

/* Zeroed memory for a filter's table, cache-line aligned; tables of 4 MiB and more are aligned to
 * 2 MiB and asked to live in huge pages, so random probes miss the TLB less. Free with free(). */
void *seen__table_alloc(size_t bytes);
/* Frees what seen__table_alloc gave (NULL is fine). */
void seen__table_free(void *table);
/* The largest table given huge pages (see seen__table_alloc). */
#define SEEN_TABLE_HUGE_MAX ((size_t)16 << 20)

/* 1.44 log2(1/p): bits per key of a classic Bloom filter at its best k. */
double seen__optimum_bits(double fp);

struct seen__layer_view {
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

struct seen__header {
  seen_kind kind;
  uint64_t seed;
  double fp_rate;
  uint64_t expect;
  uint64_t count;
  unsigned layer_count;
  uint64_t slot_count; /* exact */
};

/* seen_share's lock (nothing for a filter of one thread), and what its holder may call. */
void seen__lock(const seen_filter *s);
void seen__unlock(const seen_filter *s);
void seen__info_locked(const seen_filter *s, struct seen_info *info);

/* A view of layer i (borrowed until the filter changes), or NULL past the last. */
const struct seen__layer_view *seen__layer(const seen_filter *s, unsigned i,
                                           struct seen__layer_view *view);
void seen__exact(const seen_filter *s, const uint64_t **slots, uint64_t *slot_count);
/* Builds a filter from loaded parts; takes ownership of layer_words[i] and slots. */
core_rc seen__assemble(const struct seen__header *hdr, const struct seen__layer_view *layers,
                       uint64_t **layer_words, uint64_t *slots, seen_filter **out);
uint64_t seen__layer_word_count(uint64_t blocks, unsigned block_bits, unsigned counter_bits);

#endif
