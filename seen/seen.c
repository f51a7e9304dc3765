/* The seen-URL filter of --dedupe, in three variants:
 *
 *  bloom     a blocked Bloom filter (Putze, Sanders & Singler): every bit of a key falls in one
 *            block of contiguous memory, so a lookup costs about one cache miss. The block is one
 *            64-byte cache line unless the bound is so tight that one line costs more than 1.2x
 *            the classic optimum in bits (below about p = 1e-5); then two or four adjacent lines.
 *  counting  the same with 4-bit counters, so keys can be removed.
 *  exact     a hash set of 64-bit fingerprints: 24 bits of host fingerprint over 40 bits of URL
 *            fingerprint (Heritrix's layout).
 *
 * The Bloom variants grow as scalable Bloom filters (Almeida et al. 2007): when a layer is full a
 * new one, twice as large, is added with a quarter of the previous false-positive rate, so the
 * compound rate p/2 + p/8 + p/32 + ... stays below 2p/3, under p with room to spare, however
 * many keys arrive. */
#include "seen/seen-int.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <xxhash.h>

void *seen__table_alloc(size_t bytes) {
  const size_t huge = 2u << 20;
  size_t align = bytes >= 2 * huge ? huge : 64;
  size_t total = bytes + align + sizeof(void *);
  if (total < bytes)
    return NULL;
  /* calloc, not memset: a large block is fresh memory the kernel zeroes page by page as it is
   * first touched, so a filter sized for far more URLs than the crawl finds (--expect
   * 500000000: 2.4 GB) costs only the pages its URLs touch. The block it came in is kept just
   * before the table, for seen__table_free */
  char *raw = calloc(1, total);
  if (!raw)
    return NULL;
  uintptr_t at = ((uintptr_t)raw + sizeof(void *) + align - 1) & ~(uintptr_t)(align - 1);
  ((void **)at)[-1] = raw;
  /* huge pages for tables a crawl fills anyway; a larger one would take 2 MB for each URL's
   * first touch. A hint: without huge pages it still works */
  if (align == huge && bytes <= SEEN_TABLE_HUGE_MAX)
    madvise((void *)at, bytes / huge * huge, MADV_HUGEPAGE);
  return (void *)at;
}

void seen__table_free(void *table) {
  if (table)
    free(((void **)table)[-1]);
}

#define MAX_LAYERS 48

struct layer {
  uint64_t blocks;
  unsigned block_bits; /* slots per block: 512, 1024 or 2048 */
  unsigned k;
  unsigned counter_bits; /* 1 (bloom) or 4 (counting) */
  uint64_t capacity;     /* keys it was sized for */
  uint64_t count;        /* keys added */
  double fp;             /* its false-positive bound when full */
  uint64_t *words;
};

/* A hash set of nonzero 64-bit fingerprints, open addressing with linear probing. */
struct fpset {
  uint64_t *slots;
  uint64_t slot_count; /* a power of two (0 only until the first fpset_reserve) */
  uint64_t count;
};

struct seen_filter {
  seen_kind kind;
  uint64_t seed;
  double fp_rate;
  uint64_t expect;
  uint64_t count;
  struct layer layers[MAX_LAYERS];
  unsigned layer_count;
  struct fpset exact; /* exact: the fingerprints */
  /* keys marked to be forgotten at seen_forget_marked(): the two halves of the hash each
   * (counting), or the fingerprint (exact) */
  uint64_t *marks;
  size_t mark_words, mark_cap;
  /* seen_share: taken by every call, so the shards (threads) of a crawl can share the
   * filter; NULL for a filter of one thread */
  pthread_mutex_t *lock;
};

/* ---- sizing a blocked layer ---- */

/* x to the k, by squaring: sizing evaluates it some 100,000 times, where pow() was half of
 * the time a crawl took to start (k is at most 40, so the rounding is a few ulps). */
static double power_of(double x, unsigned k) {
  double r = 1;
  for (; k; k >>= 1, x *= x)
    if (k & 1)
      r *= x;
  return r;
}

/* Expected false-positive rate of a blocked filter with c bits per key and k probes: the block
 * load is Poisson with mean B/c, and a block holding j keys answers yes with the classic rate. */
static double blocked_fp(double c, unsigned k, unsigned block_bits) {
  double lambda = block_bits / c;
  double sum = 0, log_pois = -lambda; /* log P(j = 0) */
  double miss = log1p(-1.0 / block_bits), log_lambda = log(lambda);
  /* P(j) from P(j - 1) by one product, where P(0) is a double (a mean under 700); else in logs */
  bool in_logs = lambda >= 700;
  double pois = in_logs ? 0 : exp(-lambda);
  for (unsigned j = 0; j < 4 * lambda + 100; j++) {
    if (in_logs) {
      if (j > 0)
        log_pois += log_lambda - log((double)j);
      pois = exp(log_pois);
    } else if (j > 0) {
      pois *= lambda / j;
    }
    /* past the mean the Poisson tail shrinks faster than geometrically: what is left cannot
     * move the sum (sizing a filter, at every start, took some 20 ms summing it all) */
    if (j > lambda && pois < sum * 1e-13)
      break;
    double fill = -expm1((double)k * j * miss);
    sum += pois * power_of(fill, k);
  }
  return sum;
}

double seen__optimum_bits(double fp) {
  return log2(1.0 / fp) / log(2.0);
}

/* The fewest bits per key (and the k) reaching fp with block_bits. A blocked filter never needs
 * fewer bits than the classic optimum, and past three times it is not worth having. */
static void size_blocked(double fp, unsigned block_bits, double *bits_per_key, unsigned *k_out) {
  double best_c = INFINITY;
  unsigned best_k = 1;
  double optimum = seen__optimum_bits(fp);
  for (unsigned k = 1; k <= 40; k++) { /* at most 40: probe_mul has 64 */
    double lo = 0.95 * optimum, hi = 3 * optimum;
    /* the bound falls as bits are added: a k that misses it with the fewest bits found so far
     * cannot do with fewer (and most k are out after one look instead of a bisection) */
    if (blocked_fp(isinf(best_c) ? hi : best_c, k, block_bits) > fp)
      continue;
    for (int it = 0; it < 40; it++) {
      double mid = (lo + hi) / 2;
      if (blocked_fp(mid, k, block_bits) <= fp)
        hi = mid;
      else
        lo = mid;
    }
    if (hi < best_c) {
      best_c = hi;
      best_k = k;
    }
  }
  *bits_per_key = best_c;
  *k_out = best_k;
}

static core_rc layer_init(struct layer *l, uint64_t capacity, double fp, unsigned counter_bits) {
  if (!(fp >= DBL_MIN)) /* a bound near the smallest double, quartered layer after layer */
    return CORE_EINVAL;
  static const unsigned block_sizes[] = {512, 1024, 2048};
  double c = 0;
  unsigned k = 1, block_bits = 2048;
  for (size_t i = 0; i < 3; i++) {
    size_blocked(fp, block_sizes[i], &c, &k);
    block_bits = block_sizes[i];
    if (c <= 1.2 * seen__optimum_bits(fp))
      break;
  }
  uint64_t slots = (uint64_t)ceil(c * (double)capacity);
  uint64_t blocks = (slots + block_bits - 1) / block_bits;
  if (blocks == 0 || blocks > (UINT64_C(1) << 40))
    return CORE_EINVAL;
  uint64_t words = seen__layer_word_count(blocks, block_bits, counter_bits);
  memset(l, 0, sizeof(*l));
  l->words = seen__table_alloc(words * sizeof(uint64_t)); /* blocks start on cache lines */
  if (!l->words)
    return CORE_ENOMEM;
  l->blocks = blocks;
  l->block_bits = block_bits;
  l->k = k;
  l->counter_bits = counter_bits;
  l->capacity = capacity;
  l->fp = fp;
  return CORE_OK;
}

static uint64_t layer_words(const struct layer *l) {
  return seen__layer_word_count(l->blocks, l->block_bits, l->counter_bits);
}

/* Probe positions of a key in layer i: a block from the low half of the hash (multiply-shift,
 * salted per layer), then slot i of the block from the top bits of the high half times the i-th
 * of these odd constants (multiply-shift hashing). The k multiplications are independent, so
 * they run in parallel; double hashing (a + i*b) would be cheaper still but is no good inside a
 * block: with 512 slots only 9 bits of a and b count, and its patterns, all arithmetic
 * progressions, overlap far more often than random ones. */
static const uint64_t probe_mul[64] = {
    0x3a34ce6380fc0bc5ull, 0xc05a677850dc981bull, 0x9e32cdf7948370bdull, 0xa7765f796f00bbefull,
    0xbbbb23fe6921fe53ull, 0x5bf0c31cacf1e17full, 0x3e1900a6529be043ull, 0x2a16cd9ed424ea1full,
    0x579593114410e049ull, 0x0a29f5fe3df351f1ull, 0x1b4897e079059ad3ull, 0x2d9cd179c9e412e1ull,
    0x315949173d12f7e1ull, 0x7c69b356b72b606full, 0xb6ec11f8caa9ebcfull, 0x841e03b1ed92f735ull,
    0x8898a5df2ba2ae99ull, 0xf810fea09e7eeaa5ull, 0x27a56de32b6a852dull, 0x141d3cdeb2a328a7ull,
    0xfa6c784c6c59c00full, 0x6bb8c0b28140b75full, 0xb3469baeabcf5fadull, 0xc03b1af969a981b9ull,
    0xec7c99144be2ac07ull, 0x52af400deb7b9dafull, 0x4e3c54f2f51f1e29ull, 0x7991820c21348dabull,
    0x16fda58f4606377dull, 0x1f2b3b8ec35c9e73ull, 0x88ba012f31187eb1ull, 0x38156c76ce316da3ull,
    0x568c3abe507f99c9ull, 0xfbb94b9c5aa35f85ull, 0x6357d4ce0564f16dull, 0x807b8e8b225d506dull,
    0xe94dd7b1c51efc33ull, 0xc78818d18f476c5bull, 0xafdd7f640cfb3147ull, 0x88e410d77db44e59ull,
    0x00871a89c7e149d3ull, 0xc32a37d735a6a5c3ull, 0x9814cde8cb99c6a3ull, 0x49fbb7b0c24a1147ull,
    0xed934cc988d7dd5dull, 0x5cdc4addde6b913dull, 0xa1708eaaf26cfbc9ull, 0xa7290a064d79dba7ull,
    0x7def499a20a56e27ull, 0x107532de91bfdb7full, 0xb01c7470f051b1d1ull, 0xaff67c257e344217ull,
    0x02774eed2cac1497ull, 0xc51c12415224ee63ull, 0x0d3f09b4649a477dull, 0xa5c44956672c538dull,
    0x7bd882afdda23261ull, 0x8492e86fef7afd01ull, 0x0fcd515a9fcba46bull, 0xb19e422e29164cddull,
    0x10cda2da6a6d40a3ull, 0xed515e82625cf1c7ull, 0xe8f457f3878b7139ull, 0x4b7d7f308ceb0775ull};

struct probe {
  const uint64_t *block; /* first word of the block */
  uint64_t first_slot;   /* index of its first slot */
  uint64_t high;
  unsigned shift; /* 64 - log2(block_bits) */
};

static struct probe probe_for(const struct layer *l, unsigned index, XXH128_hash_t h) {
  uint64_t mixed = h.low64 ^ (0x9e3779b97f4a7c15ull * (uint64_t)(index + 1));
  mixed *= 0xff51afd7ed558ccdull;
  mixed ^= mixed >> 33;
  uint64_t block = (uint64_t)(((unsigned __int128)mixed * l->blocks) >> 64);
  uint64_t first_slot = block * l->block_bits;
  struct probe p = {l->words + first_slot * l->counter_bits / 64, first_slot, h.high64,
                    64u - (unsigned)__builtin_ctz(l->block_bits)};
  return p;
}

/* Offset of probe i inside the block. */
static inline unsigned probe_offset(const struct probe *p, unsigned i) {
  return (unsigned)((p->high * probe_mul[i]) >> p->shift);
}

static unsigned counter_get(const struct layer *l, uint64_t slot) {
  return (unsigned)(l->words[slot >> 4] >> ((slot & 15) * 4)) & 15;
}

/* Whether the k bits of a key are set in its block. No early exit: the k tests are independent
 * loads from one block, and without branches nothing is mispredicted while the block is on its
 * way. Inlined once per block size, so the shift is a constant. */
static inline __attribute__((always_inline)) bool bits_set(const uint64_t *block, uint64_t high,
                                                           unsigned k, unsigned shift) {
  uint64_t all = 1;
  for (unsigned i = 0; i < k; i++) {
    unsigned off = (unsigned)((high * probe_mul[i]) >> shift);
    all &= block[off >> 6] >> (off & 63);
  }
  return all & 1;
}

static inline bool layer_contains(const struct layer *l, unsigned index, XXH128_hash_t h) {
  struct probe p = probe_for(l, index, h);
  if (l->counter_bits == 1) {
    switch (l->block_bits) {
      case 512:
        return bits_set(p.block, p.high, l->k, 64 - 9);
      case 1024:
        return bits_set(p.block, p.high, l->k, 64 - 10);
      default:
        return bits_set(p.block, p.high, l->k, p.shift);
    }
  }
  for (unsigned i = 0; i < l->k; i++)
    if (!counter_get(l, p.first_slot + probe_offset(&p, i)))
      return false;
  return true;
}

static void layer_add(struct layer *l, unsigned index, XXH128_hash_t h) {
  struct probe p = probe_for(l, index, h);
  for (unsigned i = 0; i < l->k; i++) {
    uint64_t slot = p.first_slot + probe_offset(&p, i);
    if (l->counter_bits == 1) {
      l->words[slot >> 6] |= UINT64_C(1) << (slot & 63);
    } else {
      unsigned shift = (unsigned)(slot & 15) * 4;
      uint64_t v = (l->words[slot >> 4] >> shift) & 15;
      if (v < 15) /* a saturated counter stays: it may stand for more keys than it can count */
        l->words[slot >> 4] += UINT64_C(1) << shift;
    }
  }
  l->count++;
}

static void layer_remove(struct layer *l, unsigned index, XXH128_hash_t h) {
  struct probe p = probe_for(l, index, h);
  for (unsigned i = 0; i < l->k; i++) {
    uint64_t slot = p.first_slot + probe_offset(&p, i);
    unsigned shift = (unsigned)(slot & 15) * 4;
    uint64_t v = (l->words[slot >> 4] >> shift) & 15;
    if (v > 0 && v < 15)
      l->words[slot >> 4] -= UINT64_C(1) << shift;
  }
  if (l->count)
    l->count--;
}

/* ---- the exact variant ---- */

static const char *url_host(const char *url, size_t len, size_t *host_len) {
  const char *p = memchr(url, ':', len);
  if (!p || (size_t)(p - url) + 3 > len || p[1] != '/' || p[2] != '/') {
    *host_len = 0;
    return url;
  }
  p += 3;
  size_t rest = len - (size_t)(p - url);
  size_t n = 0;
  if (rest && *p == '[') {
    while (n < rest && p[n] != ']')
      n++;
    n += n < rest;
  } else {
    while (n < rest && p[n] != ':' && p[n] != '/' && p[n] != '?')
      n++;
  }
  *host_len = n;
  return p;
}

uint64_t seen_fingerprint(uint64_t seed, const char *url, size_t len) {
  size_t host_len;
  const char *host = url_host(url, len, &host_len);
  uint64_t host_fp = XXH3_64bits_withSeed(host, host_len, seed) >> 40;
  uint64_t url_fp = XXH3_64bits_withSeed(url, len, seed ^ 0x5bd1e995u) & ((UINT64_C(1) << 40) - 1);
  uint64_t fp = host_fp << 40 | url_fp;
  return fp ? fp : 1; /* 0 marks an empty slot */
}

static uint64_t slot_index(uint64_t fp, uint64_t slot_count) {
  /* the top bits are the host: mix before indexing so one host does not crowd one region */
  return (fp * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctzll(slot_count));
}

/* Whether fp is in the set; *where is its slot, or the empty slot that ends its probe chain. */
static bool fpset_find(const struct fpset *set, uint64_t fp, uint64_t *where) {
  uint64_t mask = set->slot_count - 1;
  for (uint64_t i = slot_index(fp, set->slot_count);; i = (i + 1) & mask) {
    if (set->slots[i] == fp) {
      *where = i;
      return true;
    }
    if (set->slots[i] == 0) {
      *where = i;
      return false;
    }
  }
}

static core_rc fpset_resize(struct fpset *set, uint64_t slot_count) {
  uint64_t *slots = seen__table_alloc(slot_count * sizeof(uint64_t));
  if (!slots)
    return CORE_ENOMEM;
  struct fpset grown = {slots, slot_count, set->count};
  for (uint64_t i = 0; i < set->slot_count; i++) {
    if (set->slots[i]) {
      uint64_t where;
      fpset_find(&grown, set->slots[i], &where);
      grown.slots[where] = set->slots[i];
    }
  }
  seen__table_free(set->slots);
  *set = grown;
  return CORE_OK;
}

/* Room for expect fingerprints at a load factor of at most 3/4. */
static core_rc fpset_reserve(struct fpset *set, uint64_t expect) {
  uint64_t n = set->slot_count ? set->slot_count : 1024;
  while (n < expect + expect / 3)
    n *= 2;
  return n == set->slot_count ? CORE_OK : fpset_resize(set, n);
}

/* Adds fp (nonzero); *was_new says whether it was absent. */
static core_rc fpset_insert(struct fpset *set, uint64_t fp, bool *was_new) {
  uint64_t where;
  *was_new = false;
  if (fpset_find(set, fp, &where))
    return CORE_OK;
  if ((set->count + 1) * 4 > set->slot_count * 3) {
    core_rc rc = fpset_reserve(set, set->count + 1);
    if (rc)
      return rc;
    fpset_find(set, fp, &where);
  }
  set->slots[where] = fp;
  set->count++;
  *was_new = true;
  return CORE_OK;
}

static bool fpset_remove(struct fpset *set, uint64_t fp) {
  uint64_t where;
  if (!fpset_find(set, fp, &where))
    return false;
  /* backward-shift deletion keeps every probe chain unbroken */
  uint64_t mask = set->slot_count - 1, hole = where;
  for (uint64_t i = (hole + 1) & mask; set->slots[i]; i = (i + 1) & mask) {
    uint64_t home = slot_index(set->slots[i], set->slot_count);
    if (((i - home) & mask) >= ((i - hole) & mask)) {
      set->slots[hole] = set->slots[i];
      hole = i;
    }
  }
  set->slots[hole] = 0;
  set->count--;
  return true;
}

/* ---- the filter ---- */

core_rc seen_create(seen_kind kind, uint64_t expect, double fp_rate, uint64_t seed,
                    seen_filter **out) {
  if (expect == 0 || !(fp_rate > 0 && fp_rate < 1))
    return CORE_EINVAL;
  seen_filter *s = calloc(1, sizeof(*s));
  if (!s)
    return CORE_ENOMEM;
  s->kind = kind;
  s->seed = seed;
  s->fp_rate = fp_rate;
  s->expect = expect;
  core_rc rc;
  if (kind == SEEN_EXACT) {
    rc = fpset_reserve(&s->exact, expect);
  } else {
    /* the first layer takes half the bound; each later layer a quarter of its predecessor's */
    rc = layer_init(&s->layers[0], expect, fp_rate / 2, kind == SEEN_COUNTING ? 4 : 1);
    s->layer_count = rc ? 0 : 1;
  }
  if (rc) {
    seen_destroy(s);
    return rc;
  }
  *out = s;
  return CORE_OK;
}

void seen_destroy(seen_filter *s) {
  if (!s)
    return;
  if (s->lock) {
    pthread_mutex_destroy(s->lock);
    free(s->lock);
  }
  for (unsigned i = 0; i < s->layer_count; i++)
    seen__table_free(s->layers[i].words);
  seen__table_free(s->exact.slots);
  free(s->marks);
  free(s);
}

static XXH128_hash_t key_hash(const seen_filter *s, const char *url, size_t len) {
  return XXH3_128bits_withSeed(url, len, s->seed);
}

/* A key as the filter sees it: the halves of its 128-bit hash (Bloom variants) or its
 * fingerprint (exact). The halves are kept apart: side by side, GCC copies them out of the hash's
 * two return registers into one vector register through the stack, and the 16-byte load of two
 * 8-byte stores cannot be forwarded; that stall cost a third of a lookup. */
struct hashed {
  uint64_t low, fp, high;
};

static inline XXH128_hash_t halves(const struct hashed *k) {
  XXH128_hash_t h = {k->low, k->high};
  return h;
}

static struct hashed hash_key(const seen_filter *s, const char *url, size_t len) {
  struct hashed k = {0, 0, 0};
  if (s->kind == SEEN_EXACT) {
    k.fp = seen_fingerprint(s->seed, url, len);
  } else {
    XXH128_hash_t h = key_hash(s, url, len);
    k.low = h.low64;
    k.high = h.high64;
  }
  return k;
}

/* The layer holding the key's bits, newest first (the newest is the largest and the most likely
 * to hold a recent key), or -1. */
static int layer_holding(const seen_filter *s, const struct hashed *k) {
  for (unsigned i = s->layer_count; i-- > 0;)
    if (layer_contains(&s->layers[i], i, halves(k)))
      return (int)i;
  return -1;
}

static bool contains_hashed(const seen_filter *s, const struct hashed *k) {
  if (s->kind == SEEN_EXACT) {
    uint64_t where;
    return fpset_find(&s->exact, k->fp, &where);
  }
  return layer_holding(s, k) >= 0;
}

static core_rc add_hashed(seen_filter *s, const struct hashed *k, bool *was_new) {
  *was_new = false;
  if (s->kind == SEEN_EXACT) {
    core_rc rc = fpset_insert(&s->exact, k->fp, was_new);
    s->count += *was_new;
    return rc;
  }
  if (layer_holding(s, k) >= 0)
    return CORE_OK;
  struct layer *last = &s->layers[s->layer_count - 1];
  if (last->count >= last->capacity) {
    if (s->layer_count == MAX_LAYERS)
      return CORE_ENOMEM;
    core_rc rc = layer_init(&s->layers[s->layer_count], last->capacity * 2, last->fp / 4,
                            last->counter_bits);
    if (rc)
      return rc;
    last = &s->layers[s->layer_count++];
  }
  layer_add(last, s->layer_count - 1, halves(k));
  s->count++;
  *was_new = true;
  return CORE_OK;
}

core_rc seen_share(seen_filter *s) {
  if (s->lock)
    return CORE_OK;
  pthread_mutex_t *lock = malloc(sizeof(*lock));
  if (!lock)
    return CORE_ENOMEM;
  if (pthread_mutex_init(lock, NULL) != 0) {
    free(lock);
    return CORE_ESYS;
  }
  s->lock = lock;
  return CORE_OK;
}

void seen__lock(const seen_filter *s) {
  if (s->lock)
    pthread_mutex_lock(s->lock);
}

void seen__unlock(const seen_filter *s) {
  if (s->lock)
    pthread_mutex_unlock(s->lock);
}

bool seen_contains(const seen_filter *s, const char *url, size_t len) {
  struct hashed k = hash_key(s, url, len);
  seen__lock(s);
  bool found = contains_hashed(s, &k);
  seen__unlock(s);
  return found;
}

core_rc seen_add(seen_filter *s, const char *url, size_t len, bool *was_new) {
  struct hashed k = hash_key(s, url, len);
  seen__lock(s);
  core_rc rc = add_hashed(s, &k, was_new);
  seen__unlock(s);
  return rc;
}

/* ---- batches ----
 * One lookup is a chain: hash, address, load, test. The core overlaps only the few chains that
 * fit in its reorder window, so with one key at a time a miss to memory is mostly waited out. A
 * batch hashes a group of keys and asks for all their blocks first; by the time the tests run,
 * the group's misses have been in flight together. Sixteen keys keep the misses of the largest
 * blocks (four lines, below p = 1e-5) near what one core can have outstanding. */
enum { BATCH_GROUP = 16, PREFETCH_LAYERS = 4 };

/* Always inlined: as a function of its own it has no visible effect, and GCC drops the calls. */
static inline __attribute__((always_inline)) void prefetch_key(const seen_filter *s,
                                                               const struct hashed *k) {
  if (s->kind == SEEN_EXACT) {
    __builtin_prefetch(&s->exact.slots[slot_index(k->fp, s->exact.slot_count)]);
    return;
  }
  unsigned stop = s->layer_count > PREFETCH_LAYERS ? s->layer_count - PREFETCH_LAYERS : 0;
  for (unsigned i = s->layer_count; i-- > stop;) {
    const struct layer *l = &s->layers[i];
    struct probe p = probe_for(l, i, halves(k));
    if (l->counter_bits == 1) {
      for (unsigned line = 0; line < l->block_bits / 512; line++)
        __builtin_prefetch(p.block + line * 8);
    } else { /* a counter block spans up to 16 lines: ask only for those the probes touch */
      for (unsigned j = 0; j < l->k; j++)
        __builtin_prefetch(&l->words[(p.first_slot + probe_offset(&p, j)) >> 4]);
    }
  }
}

/* Hashes the group of keys from at (up to BATCH_GROUP of them) and asks for their memory;
 * returns how many. */
static size_t hash_group(const seen_filter *s, size_t at, size_t n, const char *const urls[],
                         const size_t lens[], struct hashed keys[BATCH_GROUP]) {
  size_t group = n - at < BATCH_GROUP ? n - at : BATCH_GROUP;
  for (size_t i = 0; i < group; i++) {
    keys[i] = hash_key(s, urls[at + i], lens[at + i]);
    prefetch_key(s, &keys[i]);
  }
  return group;
}

core_rc seen_add_batch(seen_filter *s, size_t n, const char *const urls[], const size_t lens[],
                       bool was_new[]) {
  struct hashed keys[BATCH_GROUP];
  core_rc rc = CORE_OK;
  seen__lock(s);
  for (size_t at = 0; at < n && rc == CORE_OK; at += BATCH_GROUP) {
    size_t group = hash_group(s, at, n, urls, lens, keys);
    /* in order, so a key repeated within the batch is new only the first time; a layer added
     * or a table grown midway costs a prefetch, never an answer */
    for (size_t i = 0; i < group && rc == CORE_OK; i++)
      rc = add_hashed(s, &keys[i], &was_new[at + i]);
  }
  seen__unlock(s);
  return rc;
}

void seen_contains_batch(const seen_filter *s, size_t n, const char *const urls[],
                         const size_t lens[], bool found[]) {
  struct hashed keys[BATCH_GROUP];
  seen__lock(s);
  for (size_t at = 0; at < n; at += BATCH_GROUP) {
    size_t group = hash_group(s, at, n, urls, lens, keys);
    for (size_t i = 0; i < group; i++)
      found[at + i] = contains_hashed(s, &keys[i]);
  }
  seen__unlock(s);
}

static core_rc remove_hashed(seen_filter *s, const struct hashed *k) {
  if (s->kind == SEEN_EXACT) {
    if (!fpset_remove(&s->exact, k->fp))
      return CORE_ENOTFOUND;
  } else {
    int i = layer_holding(s, k);
    if (i < 0)
      return CORE_ENOTFOUND;
    layer_remove(&s->layers[i], (unsigned)i, halves(k));
  }
  if (s->count)
    s->count--;
  return CORE_OK;
}

core_rc seen_remove(seen_filter *s, const char *url, size_t len) {
  if (s->kind == SEEN_BLOOM)
    return CORE_EINVAL;
  struct hashed k = hash_key(s, url, len);
  seen__lock(s);
  core_rc rc = remove_hashed(s, &k);
  seen__unlock(s);
  return rc;
}

/* Counting needs the whole hash to find its counters again; exact only the fingerprint. */
static size_t mark_width(const seen_filter *s) {
  return s->kind == SEEN_EXACT ? 1 : 2;
}

core_rc seen_mark_forget(seen_filter *s, const char *url, size_t len) {
  if (s->kind == SEEN_BLOOM)
    return CORE_EINVAL;
  size_t width = mark_width(s);
  struct hashed k = hash_key(s, url, len);
  seen__lock(s);
  if (s->mark_cap - s->mark_words < width) {
    size_t cap = s->mark_cap ? s->mark_cap * 2 : 256;
    uint64_t *grown = realloc(s->marks, cap * sizeof(*grown));
    if (!grown) {
      seen__unlock(s);
      return CORE_ENOMEM;
    }
    s->marks = grown;
    s->mark_cap = cap;
  }
  uint64_t *m = s->marks + s->mark_words;
  if (width == 1) {
    m[0] = k.fp;
  } else {
    m[0] = k.low;
    m[1] = k.high;
  }
  s->mark_words += width;
  seen__unlock(s);
  return CORE_OK;
}

core_rc seen_forget_marked(seen_filter *s) {
  size_t width = mark_width(s);
  core_rc rc = CORE_OK;
  seen__lock(s);
  for (size_t at = 0; at < s->mark_words && rc != CORE_ENOMEM; at += width) {
    struct hashed k = {s->marks[at], s->marks[at], width == 2 ? s->marks[at + 1] : 0};
    rc = remove_hashed(s, &k); /* a key marked twice is gone the second time: not an error */
  }
  free(s->marks);
  s->marks = NULL;
  s->mark_words = s->mark_cap = 0;
  seen__unlock(s);
  return rc == CORE_ENOMEM ? rc : CORE_OK;
}

void seen__info_locked(const seen_filter *s, struct seen_info *info) {
  info->kind = s->kind;
  info->count = s->count;
  info->layers = s->layer_count;
  info->fp_rate = s->fp_rate;
  info->expect = s->expect;
  info->seed = s->seed;
  if (s->kind == SEEN_EXACT) {
    info->bytes = s->exact.slot_count * sizeof(uint64_t);
    return;
  }
  for (unsigned i = 0; i < s->layer_count; i++) {
    info->bytes += layer_words(&s->layers[i]) * sizeof(uint64_t);
    info->fp_bound += s->layers[i].fp;
  }
  info->block_bytes = s->layers[0].block_bits * s->layers[0].counter_bits / 8;
  info->hashes = s->layers[0].k;
}

void seen_info(const seen_filter *s, struct seen_info *info) {
  memset(info, 0, sizeof(*info));
  seen__lock(s);
  seen__info_locked(s, info);
  seen__unlock(s);
}

/* ---- persistence: the layout is in seen-int.h ---- */

const struct seen__layer_view *seen__layer(const seen_filter *s, unsigned i,
                                           struct seen__layer_view *view) {
  if (i >= s->layer_count)
    return NULL;
  const struct layer *l = &s->layers[i];
  *view =
      (struct seen__layer_view){l->blocks, l->block_bits, l->k,     l->counter_bits, l->capacity,
                                l->count,  l->fp,         l->words, layer_words(l)};
  return view;
}

void seen__exact(const seen_filter *s, const uint64_t **slots, uint64_t *slot_count) {
  *slots = s->exact.slots;
  *slot_count = s->exact.slot_count;
}

core_rc seen__assemble(const struct seen__header *hdr, const struct seen__layer_view *layers,
                       uint64_t **layer_words, uint64_t *slots, seen_filter **out) {
  seen_filter *s = calloc(1, sizeof(*s));
  if (!s)
    return CORE_ENOMEM;
  s->kind = hdr->kind;
  s->seed = hdr->seed;
  s->fp_rate = hdr->fp_rate;
  s->expect = hdr->expect;
  s->count = hdr->count;
  if (hdr->kind == SEEN_EXACT) {
    s->exact = (struct fpset){slots, hdr->slot_count, hdr->count};
  } else {
    for (unsigned i = 0; i < hdr->layer_count; i++) {
      const struct seen__layer_view *v = &layers[i];
      s->layers[i] = (struct layer){v->blocks,   v->block_bits, v->k,  v->counter_bits,
                                    v->capacity, v->count,      v->fp, layer_words[i]};
    }
    s->layer_count = hdr->layer_count;
  }
  *out = s;
  return CORE_OK;
}

/* Sizes for a (validated) header, so a loader can check lengths before allocating. */
uint64_t seen__layer_word_count(uint64_t blocks, unsigned block_bits, unsigned counter_bits) {
  return blocks * block_bits * counter_bits / 64;
}
