/* The seen filter: a Bloom filter of m bits and k hash functions, with the k positions of a key
 * derived from one 128-bit xxh3 hash by double hashing (Kirsch & Mitzenmacher): h1 + i*h2. */
#include "seen/seen-int.h"

#include <math.h>
#include <stdlib.h>
#include <xxhash.h>

struct seen_bloom {
  uint64_t *words;
  uint64_t bits;   /* m */
  unsigned hashes; /* k */
};

core_rc seen_bloom_create(uint64_t expect, double fp_rate, seen_bloom **out) {
  if (expect == 0 || !(fp_rate > 0.0 && fp_rate < 1.0))
    return CORE_EINVAL;
  double ln2 = log(2.0);
  double m = ceil((double)expect * log(1.0 / fp_rate) / (ln2 * ln2));
  if (m > 1e15)
    return CORE_EINVAL;
  seen_bloom *bloom = calloc(1, sizeof(*bloom));
  if (!bloom)
    return CORE_ENOMEM;
  bloom->bits = ((uint64_t)m + 63) & ~(uint64_t)63;
  bloom->hashes = (unsigned)lround(m / (double)expect * ln2);
  if (bloom->hashes < 1)
    bloom->hashes = 1;
  bloom->words = seen__table_alloc(bloom->bits / 8);
  if (!bloom->words) {
    free(bloom);
    return CORE_ENOMEM;
  }
  *out = bloom;
  return CORE_OK;
}

core_rc seen_bloom_add(seen_bloom *bloom, const void *key, size_t len, bool *was_new) {
  XXH128_hash_t h = XXH3_128bits(key, len);
  uint64_t h1 = h.low64, h2 = h.high64 | 1;
  bool fresh = false;
  for (unsigned i = 0; i < bloom->hashes; i++) {
    uint64_t bit = (h1 + (uint64_t)i * h2) % bloom->bits;
    uint64_t mask = (uint64_t)1 << (bit & 63);
    if (!(bloom->words[bit >> 6] & mask)) {
      bloom->words[bit >> 6] |= mask;
      fresh = true;
    }
  }
  *was_new = fresh;
  return CORE_OK;
}

bool seen_bloom_contains(const seen_bloom *bloom, const void *key, size_t len) {
  XXH128_hash_t h = XXH3_128bits(key, len);
  uint64_t h1 = h.low64, h2 = h.high64 | 1;
  for (unsigned i = 0; i < bloom->hashes; i++) {
    uint64_t bit = (h1 + (uint64_t)i * h2) % bloom->bits;
    if (!(bloom->words[bit >> 6] & ((uint64_t)1 << (bit & 63))))
      return false;
  }
  return true;
}

/* For a fair baseline, the classic filter gets the same batching as the blocked one: each group
 * of keys is hashed and all k words of each are requested before any is tested. */
void seen_bloom_contains_batch(const seen_bloom *bloom, size_t n, const char *const keys[],
                               const size_t lens[], bool found[]) {
  enum { GROUP = 16 };
  for (size_t at = 0; at < n; at += GROUP) {
    size_t group = n - at < GROUP ? n - at : GROUP;
    uint64_t h1[GROUP], h2[GROUP];
    for (size_t j = 0; j < group; j++) {
      XXH128_hash_t h = XXH3_128bits(keys[at + j], lens[at + j]);
      h1[j] = h.low64;
      h2[j] = h.high64 | 1;
      for (unsigned i = 0; i < bloom->hashes; i++)
        __builtin_prefetch(&bloom->words[((h1[j] + (uint64_t)i * h2[j]) % bloom->bits) >> 6]);
    }
    for (size_t j = 0; j < group; j++) {
      bool all = true;
      for (unsigned i = 0; i < bloom->hashes && all; i++) {
        uint64_t bit = (h1[j] + (uint64_t)i * h2[j]) % bloom->bits;
        all = (bloom->words[bit >> 6] >> (bit & 63)) & 1;
      }
      found[at + j] = all;
    }
  }
}

uint64_t seen_bloom_bits(const seen_bloom *bloom) {
  return bloom->bits;
}

unsigned seen_bloom_hashes(const seen_bloom *bloom) {
  return bloom->hashes;
}

void seen_bloom_destroy(seen_bloom *bloom) {
  if (!bloom)
    return;
  seen__table_free(bloom->words);
  free(bloom);
}
