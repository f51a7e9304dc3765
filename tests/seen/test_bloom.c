/* seen/bloom.c: sizing by the standard formulas and a measured false-positive rate. */
#include "core/core.h"
#include "seen/seen.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void test_sizing(void **state) {
  (void)state;
  seen_bloom *b;
  assert_int_equal(seen_bloom_create(1000000, 1e-7, &b), CORE_OK);
  /* m = n ln(1/p) / (ln 2)^2 = 33.55 bits per key; k = (m/n) ln 2 = 23.25 -> 23 */
  double bits_per_key = (double)seen_bloom_bits(b) / 1e6;
  assert_true(bits_per_key > 33.5 && bits_per_key < 33.6);
  assert_int_equal(seen_bloom_hashes(b), 23);
  seen_bloom_destroy(b);
  /* another bound, another size: 9.585 bits per key, k = 6.64 -> 7 */
  assert_int_equal(seen_bloom_create(1000000, 0.01, &b), CORE_OK);
  bits_per_key = (double)seen_bloom_bits(b) / 1e6;
  assert_true(bits_per_key > 9.5 && bits_per_key < 9.7);
  assert_int_equal(seen_bloom_hashes(b), 7);
  seen_bloom_destroy(b);
  /* a loose bound: p = 1/2 wants k = 1 exactly; p = 0.9 wants k = 0.15, which rounds to none,
   * and a filter of no hash would call every key seen: one at least */
  assert_int_equal(seen_bloom_create(1000, 0.5, &b), CORE_OK);
  assert_int_equal(seen_bloom_hashes(b), 1);
  seen_bloom_destroy(b);
  assert_int_equal(seen_bloom_create(1000, 0.9, &b), CORE_OK);
  assert_int_equal(seen_bloom_hashes(b), 1);
  seen_bloom_destroy(b);
  assert_int_equal(seen_bloom_create(0, 0.01, &b), CORE_EINVAL);
  assert_int_equal(seen_bloom_create(10, 0, &b), CORE_EINVAL);
  assert_int_equal(seen_bloom_create(10, 1, &b), CORE_EINVAL);
}

static void test_no_false_negatives_and_fp_rate(void **state) {
  (void)state;
  const unsigned n = 100000;
  const double p = 0.01;
  seen_bloom *b;
  assert_int_equal(seen_bloom_create(n, p, &b), CORE_OK);
  char key[64];
  for (unsigned i = 0; i < n; i++) {
    int len = snprintf(key, sizeof(key), "http://host%u.example/page/%u.html", i % 97, i);
    bool fresh;
    assert_int_equal(seen_bloom_add(b, key, (size_t)len, &fresh), CORE_OK);
  }
  for (unsigned i = 0; i < n; i++) {
    int len = snprintf(key, sizeof(key), "http://host%u.example/page/%u.html", i % 97, i);
    assert_true(seen_bloom_contains(b, key, (size_t)len));
    bool fresh;
    seen_bloom_add(b, key, (size_t)len, &fresh);
    assert_false(fresh); /* a URL is never new twice */
  }
  unsigned fp = 0, trials = 200000;
  for (unsigned i = 0; i < trials; i++) {
    int len = snprintf(key, sizeof(key), "http://other%u.example/x/%u", i % 89, i);
    fp += seen_bloom_contains(b, key, (size_t)len);
  }
  double rate = (double)fp / trials;
  /* the bound holds with room for sampling noise: 3 standard deviations */
  double sigma = sqrt(p * (1 - p) / trials);
  if (rate > p + 3 * sigma)
    fail_msg("false-positive rate %.5f above %.5f", rate, p);
  seen_bloom_destroy(b);
}

/* The batched lookup the benchmarks compare with says what one lookup at a time says, for every
 * key of a batch whose size is no multiple of its groups (37 keys: groups of 16, 16 and 5). */
static void test_batch_as_one_at_a_time(void **state) {
  (void)state;
  seen_bloom *b;
  assert_int_equal(seen_bloom_create(50, 0.05, &b), CORE_OK);
  enum { N = 37 };
  char text[N][40];
  const char *keys[N];
  size_t lens[N];
  bool found[N];
  for (unsigned i = 0; i < N; i++) {
    lens[i] = (size_t)snprintf(text[i], sizeof(text[i]), "http://batch.example/%u", i);
    keys[i] = text[i];
    bool fresh;
    if (i % 3 == 0) /* a third of them added */
      assert_int_equal(seen_bloom_add(b, keys[i], lens[i], &fresh), CORE_OK);
  }
  seen_bloom_contains_batch(b, N, keys, lens, found);
  unsigned yes = 0;
  for (unsigned i = 0; i < N; i++) {
    if (found[i] != seen_bloom_contains(b, keys[i], lens[i]))
      fail_msg("key %u: batched %d, alone %d", i, found[i], !found[i]);
    if (i % 3 == 0 && !found[i])
      fail_msg("key %u was added but is not found", i);
    yes += found[i];
  }
  assert_true(yes < N); /* not every key: the lookups look */
  seen_bloom_destroy(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sizing),
      cmocka_unit_test(test_no_false_negatives_and_fp_rate),
      cmocka_unit_test(test_batch_as_one_at_a_time),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
