/* Benchmark of the seen filters, all in one run on the same keys:
 * blocked Bloom (crawl's default), classic Bloom (k independent positions), counting, exact,
 * and Larbin's single hash into a 64,000,000-bit table.
 *
 *   bench_seen [KEYS]     (default 10,000,000 URL-like keys of about 60 bytes)
 *
 * For p = 1e-2, 1e-4 and 1e-7 it prints bits per key against the classic optimum 1.44 log2(1/p),
 * the false-positive rate measured on as many other keys (and on more, streamed, where 20/p is
 * larger, up to 200 million), and inserts and lookups per second with hashing included. */
#include "core/core.h"
#include "seen/seen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define STRIDE 64

struct keys {
  char *text; /* n slots of STRIDE bytes */
  unsigned char *len;
  size_t n;
};

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int make_keys(struct keys *k, size_t n, uint64_t seed) {
  k->n = n;
  k->text = malloc(n * STRIDE);
  k->len = malloc(n);
  if (!k->text || !k->len)
    return -1;
  for (size_t i = 0; i < n; i++) {
    uint64_t a = splitmix(&seed), b = splitmix(&seed);
    int len =
        snprintf(k->text + i * STRIDE, STRIDE, "https://www.h%05u.example.com/a/%08x/%08x.html",
                 (unsigned)(a % 50000), (unsigned)(b >> 32), (unsigned)b);
    k->len[i] = (unsigned char)len;
  }
  return 0;
}

static double now(void) {
  return core_now();
}

struct result {
  double bits_per_key, fp, insert_rate, hit_rate, hit_batch_rate, miss_batch_rate;
  unsigned layers;
};

/* ---- the filters behind one interface ---- */

enum kind { BLOCKED, CLASSIC, COUNTING, EXACT };
static const char *names[] = {"blocked (crawl)", "classic", "counting", "exact"};

struct filter {
  enum kind kind;
  seen_filter *seen;
  seen_bloom *bloom;
};

static int filter_create(struct filter *f, enum kind kind, size_t expect, double p) {
  f->kind = kind;
  f->seen = NULL;
  f->bloom = NULL;
  if (kind == CLASSIC)
    return seen_bloom_create(expect, p, &f->bloom) == CORE_OK ? 0 : -1;
  seen_kind sk = kind == BLOCKED ? SEEN_BLOOM : kind == COUNTING ? SEEN_COUNTING : SEEN_EXACT;
  return seen_create(sk, expect, p, 12345, &f->seen) == CORE_OK ? 0 : -1;
}

static void filter_add(struct filter *f, const char *key, size_t len) {
  bool fresh;
  if (f->bloom)
    seen_bloom_add(f->bloom, key, len, &fresh);
  else
    seen_add(f->seen, key, len, &fresh);
}

static bool filter_has(const struct filter *f, const char *key, size_t len) {
  return f->bloom ? seen_bloom_contains(f->bloom, key, len) : seen_contains(f->seen, key, len);
}

/* Looks every key up in batches, as the crawler does with the links of a page; returns the
 * number found. */
static size_t filter_has_batched(const struct filter *f, const struct keys *k) {
  enum { CHUNK = 256 };
  const char *urls[CHUNK];
  size_t lens[CHUNK], found_count = 0;
  bool found[CHUNK];
  for (size_t at = 0; at < k->n; at += CHUNK) {
    size_t m = k->n - at < CHUNK ? k->n - at : CHUNK;
    for (size_t i = 0; i < m; i++) {
      urls[i] = k->text + (at + i) * STRIDE;
      lens[i] = k->len[at + i];
    }
    if (f->bloom)
      seen_bloom_contains_batch(f->bloom, m, urls, lens, found);
    else
      seen_contains_batch(f->seen, m, urls, lens, found);
    for (size_t i = 0; i < m; i++)
      found_count += found[i];
  }
  return found_count;
}

static double filter_bytes(const struct filter *f, unsigned *layers) {
  if (f->bloom) {
    *layers = 1;
    return (double)seen_bloom_bits(f->bloom) / 8;
  }
  struct seen_info info;
  seen_info(f->seen, &info);
  *layers = info.layers;
  return (double)info.bytes;
}

static void filter_destroy(struct filter *f) {
  seen_bloom_destroy(f->bloom);
  seen_destroy(f->seen);
}

/* Fills filters[0..count) with the in keys and measures them. The machine is shared and its
 * speed drifts over seconds, so the lookup passes are interleaved across the filters, three
 * rounds of them, and each filter's fastest pass counts: every filter sees the same weather. */
static void run(const enum kind *kinds, size_t count, size_t expect, double p,
                const struct keys *in, const struct keys *out, struct result *results) {
  struct filter f[4];
  double hit_time[4], hit_batch_time[4], miss_batch_time[4];
  size_t fps[4];
  for (size_t j = 0; j < count; j++) {
    if (filter_create(&f[j], kinds[j], expect, p) != 0) {
      fprintf(stderr, "cannot create %s\n", names[kinds[j]]);
      exit(1);
    }
    double t0 = now();
    for (size_t i = 0; i < in->n; i++)
      filter_add(&f[j], in->text + i * STRIDE, in->len[i]);
    results[j] = (struct result){.insert_rate = (double)in->n / (now() - t0)};
    hit_time[j] = hit_batch_time[j] = miss_batch_time[j] = INFINITY;
  }
  for (int round = 0; round < 3; round++) {
    for (size_t j = 0; j < count; j++) {
      double a = now();
      size_t hits = 0;
      for (size_t i = 0; i < in->n; i++)
        hits += filter_has(&f[j], in->text + i * STRIDE, in->len[i]);
      double b = now();
      size_t batch_hits = filter_has_batched(&f[j], in);
      double c = now();
      fps[j] = filter_has_batched(&f[j], out);
      double d = now();
      if (hits != in->n || batch_hits != in->n) {
        fprintf(stderr, "%s: false negatives\n", names[kinds[j]]);
        exit(1);
      }
      hit_time[j] = fmin(hit_time[j], b - a);
      hit_batch_time[j] = fmin(hit_batch_time[j], c - b);
      miss_batch_time[j] = fmin(miss_batch_time[j], d - c);
    }
  }
  for (size_t j = 0; j < count; j++) {
    /* a rate of 1e-7 needs far more than 10 million trials to be measured: stream extra keys */
    size_t trials = out->n, want = (size_t)fmin(20 / p, 2e8);
    uint64_t extra_seed = 3;
    char extra[STRIDE];
    for (; trials < want; trials++) {
      uint64_t a = splitmix(&extra_seed), b = splitmix(&extra_seed);
      int len = snprintf(extra, sizeof(extra), "https://www.h%05u.example.com/z/%08x/%08x.html",
                         (unsigned)(a % 50000), (unsigned)(b >> 32), (unsigned)b);
      fps[j] += filter_has(&f[j], extra, (size_t)len);
    }
    struct result *r = &results[j];
    r->bits_per_key = filter_bytes(&f[j], &r->layers) * 8 / (double)in->n;
    r->fp = (double)fps[j] / (double)trials;
    r->hit_rate = (double)in->n / hit_time[j];
    r->hit_batch_rate = (double)in->n / hit_batch_time[j];
    r->miss_batch_rate = (double)out->n / miss_batch_time[j];
    filter_destroy(&f[j]);
  }
}

/* Larbin's "seen" table: one hash of the URL sets one bit of 64,000,000. */
static double larbin_fp(const struct keys *in, size_t n_in, const struct keys *out) {
  const uint64_t bits = 64000000;
  uint64_t *table = calloc(bits / 64 + 1, sizeof(uint64_t));
  if (!table)
    exit(1);
  for (size_t i = 0; i < n_in; i++) {
    uint64_t b = XXH3_64bits(in->text + i * STRIDE, in->len[i]) % bits;
    table[b >> 6] |= UINT64_C(1) << (b & 63);
  }
  size_t fps = 0;
  for (size_t i = 0; i < out->n; i++) {
    uint64_t b = XXH3_64bits(out->text + i * STRIDE, out->len[i]) % bits;
    fps += (table[b >> 6] >> (b & 63)) & 1;
  }
  free(table);
  return (double)fps / (double)out->n;
}

static void print_row(const char *label, double p, const struct result *r) {
  double optimum = 1.44 * log2(1 / p);
  printf("| %s | %g | %.1f | %.1f | %.2f | %.2e | %u | %.2fM | %.2fM | %.2fM | %.2fM |\n", label, p,
         r->bits_per_key, optimum, r->bits_per_key / optimum, r->fp, r->layers,
         r->insert_rate / 1e6, r->hit_rate / 1e6, r->hit_batch_rate / 1e6,
         r->miss_batch_rate / 1e6);
  fflush(stdout);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
  if (n < 1000) {
    fprintf(stderr, "usage: bench_seen [KEYS >= 1000]\n");
    return 2;
  }
  struct keys in, out;
  if (make_keys(&in, n, 1) || make_keys(&out, n, 2)) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  printf("%zu keys of about %d bytes; false positives measured on at least %zu other keys "
         "(20/p where that is more, up to 200 million)\n\n",
         n, (int)in.len[0], n);
  printf("| filter | p | bits/key | 1.44 log2(1/p) | ratio | measured FP | layers | inserts/s | "
         "lookups/s, present, one by one | lookups/s, present, batched | lookups/s, absent, "
         "batched |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  const double rates[] = {1e-2, 1e-4, 1e-7};
  struct result blocked[3], classic[3];
  const enum kind all[] = {BLOCKED, CLASSIC, COUNTING, EXACT};
  for (size_t i = 0; i < 3; i++) {
    struct result r[4];
    run(all, 4, n, rates[i], &in, &out, r);
    blocked[i] = r[0];
    classic[i] = r[1];
    for (int kind = BLOCKED; kind <= EXACT; kind++)
      print_row(names[kind], rates[i], &r[kind]);
  }
  /* growth: sized for a tenth of the keys, it adds layers and keeps the bound */
  for (size_t i = 0; i < 3; i++) {
    struct result r;
    run(all, 1, n / 10, rates[i], &in, &out, &r);
    char label[64];
    snprintf(label, sizeof(label), "blocked, --expect %zu", n / 10);
    print_row(label, rates[i], &r);
  }
  printf("\nPresent-key lookups, blocked against classic, at 1e-2 / 1e-4 / 1e-7:\n");
  printf("  one by one, both:                %.1fx / %.1fx / %.1fx\n",
         blocked[0].hit_rate / classic[0].hit_rate, blocked[1].hit_rate / classic[1].hit_rate,
         blocked[2].hit_rate / classic[2].hit_rate);
  printf("  batched, both:                   %.1fx / %.1fx / %.1fx\n",
         blocked[0].hit_batch_rate / classic[0].hit_batch_rate,
         blocked[1].hit_batch_rate / classic[1].hit_batch_rate,
         blocked[2].hit_batch_rate / classic[2].hit_batch_rate);
  printf("  blocked batched, classic one by one: %.1fx / %.1fx / %.1fx\n",
         blocked[0].hit_batch_rate / classic[0].hit_rate,
         blocked[1].hit_batch_rate / classic[1].hit_rate,
         blocked[2].hit_batch_rate / classic[2].hit_rate);
  printf("\nLarbin (one hash, 64,000,000 bits): FP %.2e at 1,000,000 URLs, %.2e at %zu URLs\n",
         larbin_fp(&in, n < 1000000 ? n : 1000000, &out), larbin_fp(&in, n, &out), n);
  free(in.text);
  free(in.len);
  free(out.text);
  free(out.len);
  return 0;
}
