/* seen/seen.c and seen/seenfile.c: sizing, growth, the variants, and the --seen file. */
#include "core/core.h"
#include "seen/seen.h"

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cmocka.h>

static int key(char *buf, size_t size, const char *kind, unsigned i) {
  return snprintf(buf, size, "http://host%u.example/%s/%u/page.html?x=%u", i % 211, kind, i, i * 7);
}

/* Adds n keys, then returns the share of n other keys the filter claims to hold. */
static double measured_fp(seen_filter *s, unsigned n) {
  char k[128];
  for (unsigned i = 0; i < n; i++) {
    int len = key(k, sizeof(k), "in", i);
    bool fresh;
    assert_int_equal(seen_add(s, k, (size_t)len, &fresh), CORE_OK);
  }
  for (unsigned i = 0; i < n; i++) {
    int len = key(k, sizeof(k), "in", i);
    assert_true(seen_contains(s, k, (size_t)len)); /* never a false negative */
  }
  unsigned fp = 0;
  for (unsigned i = 0; i < n; i++) {
    int len = key(k, sizeof(k), "out", i);
    fp += seen_contains(s, k, (size_t)len);
  }
  return (double)fp / n;
}

/* A batch answers exactly as the same keys one at a time would, in order: a key repeated inside
 * the batch is new only once, and a layer added or a table grown midway loses nothing. */
static void test_batch_matches_one_at_a_time(void **state) {
  (void)state;
  const seen_kind kinds[] = {SEEN_BLOOM, SEEN_COUNTING, SEEN_EXACT};
  enum { N = 3000 };
  static char text[N][96];
  static const char *urls[N];
  static size_t lens[N];
  static bool batch_new[N], one_new[N], found[N];
  for (unsigned i = 0; i < N; i++) {
    /* every seventh key repeats one from a few places back, often within the same group */
    unsigned id = i % 7 == 6 ? i - 3 : i;
    lens[i] = (size_t)key(text[i], sizeof(text[i]), "batch", id);
    urls[i] = text[i];
  }
  for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
    seen_filter *batched, *single;
    /* sized for a tenth of the keys: the Bloom variants add layers, the exact table grows */
    assert_int_equal(seen_create(kinds[k], N / 10, 1e-3, 42, &batched), CORE_OK);
    assert_int_equal(seen_create(kinds[k], N / 10, 1e-3, 42, &single), CORE_OK);
    /* batches of uneven sizes, so groups end at every offset */
    for (size_t at = 0, step = 1; at < N; at += step, step = step * 3 % 97 + 1) {
      size_t n = at + step > N ? N - at : step;
      assert_int_equal(seen_add_batch(batched, n, urls + at, lens + at, batch_new + at), CORE_OK);
    }
    for (unsigned i = 0; i < N; i++)
      assert_int_equal(seen_add(single, urls[i], lens[i], &one_new[i]), CORE_OK);
    unsigned fresh = 0;
    for (unsigned i = 0; i < N; i++) {
      assert_int_equal(batch_new[i], one_new[i]);
      fresh += batch_new[i];
      if (i % 7 == 6)
        assert_false(batch_new[i]);
    }
    assert_true(fresh > N * 6 / 7 - 10); /* almost all distinct keys were new */
    struct seen_info a, b;
    seen_info(batched, &a);
    seen_info(single, &b);
    assert_int_equal(a.count, b.count);
    assert_int_equal(a.layers, b.layers);
    if (kinds[k] != SEEN_EXACT)
      assert_true(a.layers > 1);
    seen_contains_batch(batched, N, urls, lens, found);
    for (unsigned i = 0; i < N; i++)
      assert_true(found[i]);
    /* keys never added: the batch answers as single lookups do */
    for (unsigned i = 0; i < N; i++) {
      lens[i] = (size_t)key(text[i], sizeof(text[i]), "absent", i);
    }
    seen_contains_batch(batched, N, urls, lens, found);
    for (unsigned i = 0; i < N; i++)
      assert_int_equal(found[i], seen_contains(batched, urls[i], lens[i]));
    for (unsigned i = 0; i < N; i++) {
      unsigned id = i % 7 == 6 ? i - 3 : i;
      lens[i] = (size_t)key(text[i], sizeof(text[i]), "batch", id);
    }
    seen_destroy(batched);
    seen_destroy(single);
  }
}

static void test_sizing_within_bounds(void **state) {
  (void)state;
  const double rates[] = {1e-2, 1e-4, 1e-7};
  for (size_t i = 0; i < 3; i++) {
    seen_filter *s;
    assert_int_equal(seen_create(SEEN_BLOOM, 100000, rates[i], 7, &s), CORE_OK);
    struct seen_info info;
    seen_info(s, &info);
    double bits_per_key = info.bytes * 8.0 / 100000;
    double optimum = 1.44 * log2(1 / rates[i]);
    if (bits_per_key > 1.3 * optimum)
      fail_msg("p=%g: %.1f bits per key, over 1.3 x %.1f", rates[i], bits_per_key, optimum);
    assert_true(info.fp_bound <= rates[i]);
    assert_int_equal(info.layers, 1);
    /* 64-byte blocks wherever they fit the memory bound */
    if (rates[i] >= 1e-4)
      assert_int_equal(info.block_bytes, 64);
    seen_destroy(s);
  }
}

/* The false-positive rate of a blocked filter of c bits a key, k probes and blocks of block_bits,
 * summed whole (every block load up to far past its mean, each term from logs): the reference
 * the filter's sizing, which stops summing early, must meet. */
static double blocked_fp_whole(double c, unsigned k, unsigned block_bits) {
  double lambda = block_bits / c, sum = 0;
  double miss = log1p(-1.0 / block_bits);
  for (unsigned j = 0; j < 10 * lambda + 400; j++) {
    double pois = exp(-lambda + j * log(lambda) - lgamma(j + 1.0));
    sum += pois * pow(-expm1((double)k * j * miss), k);
  }
  return sum;
}

/* Each filter made for a bound meets it by the whole sum, with the bits and probes it has. */
static void test_sizing_meets_its_bound_summed_whole(void **state) {
  (void)state;
  const double rates[] = {1e-2, 3e-3, 1e-3, 1e-4};
  for (size_t i = 0; i < sizeof(rates) / sizeof(*rates); i++) {
    seen_filter *s;
    assert_int_equal(seen_create(SEEN_BLOOM, 1000000, rates[i], 7, &s), CORE_OK);
    struct seen_info info;
    seen_info(s, &info);
    double c = info.bytes * 8.0 / 1000000;
    double whole = blocked_fp_whole(c, info.hashes, info.block_bytes * 8);
    if (whole > info.fp_bound * (1 + 1e-9))
      fail_msg("p=%g: %.2f bits a key, %u probes: %.6g summed whole, over its bound %.6g", rates[i],
               c, info.hashes, whole, info.fp_bound);
    seen_destroy(s);
  }
}

static void test_measured_rate_under_bound(void **state) {
  (void)state;
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_BLOOM, 200000, 0.01, 3, &s), CORE_OK);
  double rate = measured_fp(s, 200000);
  if (rate > 0.01)
    fail_msg("measured %.5f over 0.01", rate);
  seen_destroy(s);
}

static void test_growth_keeps_bound(void **state) {
  (void)state;
  /* ten times the expected keys: layers are added and the compound rate stays under p */
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_BLOOM, 20000, 0.01, 5, &s), CORE_OK);
  double rate = measured_fp(s, 200000);
  struct seen_info info;
  seen_info(s, &info);
  assert_true(info.layers >= 4);
  assert_true(info.fp_bound <= 0.01);
  /* keys that hit a false positive when added are not counted: about p of them */
  assert_true(info.count <= 200000 && info.count >= 200000 * (1 - 0.01 * 2));
  if (rate > 0.01)
    fail_msg("measured %.5f over 0.01 with %u layers", rate, info.layers);
  seen_destroy(s);
}

static void test_counting_remove(void **state) {
  (void)state;
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_COUNTING, 10000, 1e-4, 9, &s), CORE_OK);
  char k[128];
  /* only keys that were added may be removed (a counting filter's rule; the crawler keeps it by
   * forgetting only URLs it queued as new) */
  static bool added[10000];
  unsigned removed = 0;
  for (unsigned i = 0; i < 10000; i++) {
    int len = key(k, sizeof(k), "in", i);
    assert_int_equal(seen_add(s, k, (size_t)len, &added[i]), CORE_OK);
  }
  for (unsigned i = 0; i < 10000; i += 2) {
    int len = key(k, sizeof(k), "in", i);
    if (!added[i])
      continue;
    assert_int_equal(seen_remove(s, k, (size_t)len), CORE_OK);
    removed++;
  }
  unsigned still = 0;
  for (unsigned i = 0; i < 10000; i++) {
    int len = key(k, sizeof(k), "in", i);
    bool present = seen_contains(s, k, (size_t)len);
    if (i % 2 && added[i])
      assert_true(present); /* removing one key never removes another */
    else if (i % 2 == 0 && added[i])
      still += present;
  }
  assert_true(still < 10); /* removed keys are gone but for false positives */
  struct seen_info info;
  seen_info(s, &info);
  unsigned total = 0;
  for (unsigned i = 0; i < 10000; i++)
    total += added[i];
  assert_int_equal(info.count, total - removed);
  seen_destroy(s);

  assert_int_equal(seen_create(SEEN_BLOOM, 100, 0.01, 1, &s), CORE_OK);
  assert_int_equal(seen_remove(s, "x", 1), CORE_EINVAL);
  seen_destroy(s);
}

/* Marks take effect at seen_forget_marked(), not before; a key marked twice is no error. */
static void test_forget_marked_later(void **state) {
  (void)state;
  seen_kind kinds[] = {SEEN_COUNTING, SEEN_EXACT};
  for (size_t i = 0; i < 2; i++) {
    seen_filter *s;
    assert_int_equal(seen_create(kinds[i], 500, 1e-5, 3, &s), CORE_OK);
    char k[128];
    for (unsigned j = 0; j < 3000; j++) { /* past expect: several layers, a grown table */
      int len = key(k, sizeof(k), "in", j);
      bool fresh;
      assert_int_equal(seen_add(s, k, (size_t)len, &fresh), CORE_OK);
    }
    for (unsigned j = 0; j < 3000; j += 5) {
      int len = key(k, sizeof(k), "in", j);
      assert_int_equal(seen_mark_forget(s, k, (size_t)len), CORE_OK);
      assert_true(seen_contains(s, k, (size_t)len));
    }
    int len = key(k, sizeof(k), "in", 0);
    assert_int_equal(seen_mark_forget(s, k, (size_t)len), CORE_OK);
    assert_int_equal(seen_forget_marked(s), CORE_OK);
    unsigned still = 0;
    for (unsigned j = 0; j < 3000; j++) {
      len = key(k, sizeof(k), "in", j);
      bool present = seen_contains(s, k, (size_t)len);
      if (j % 5)
        assert_true(present);
      else
        still += present;
    }
    assert_true(still <= 1); /* gone, but for a rare false positive in counting */
    struct seen_info info;
    seen_info(s, &info);
    assert_int_equal(info.count, 3000 - 600);
    seen_destroy(s);
  }
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_BLOOM, 100, 0.01, 1, &s), CORE_OK);
  assert_int_equal(seen_mark_forget(s, "x", 1), CORE_EINVAL);
  seen_destroy(s);
}

static void test_exact_fingerprints(void **state) {
  (void)state;
  const char *a1 = "http://a.example/one", *a2 = "https://a.example:8080/two?x";
  const char *b1 = "http://b.example/one";
  uint64_t f1 = seen_fingerprint(42, a1, strlen(a1));
  uint64_t f2 = seen_fingerprint(42, a2, strlen(a2));
  uint64_t f3 = seen_fingerprint(42, b1, strlen(b1));
  assert_true(f1 >> 40 == f2 >> 40); /* one host: the same top 24 bits */
  assert_true(f1 >> 40 != f3 >> 40);
  assert_true((f1 & ((1ull << 40) - 1)) != (f2 & ((1ull << 40) - 1)));
  assert_true(f1 != seen_fingerprint(43, a1, strlen(a1))); /* keyed by the seed */

  seen_filter *s;
  assert_int_equal(seen_create(SEEN_EXACT, 1000, 1e-7, 1, &s), CORE_OK);
  char k[128];
  /* past the expected count the table grows; no key is lost and none is invented */
  assert_true(measured_fp(s, 50000) == 0);
  for (unsigned i = 0; i < 50000; i += 3) {
    int len = key(k, sizeof(k), "in", i);
    assert_int_equal(seen_remove(s, k, (size_t)len), CORE_OK);
  }
  for (unsigned i = 0; i < 50000; i++) {
    int len = key(k, sizeof(k), "in", i);
    assert_int_equal(seen_contains(s, k, (size_t)len), i % 3 != 0);
  }
  seen_destroy(s);
}

/* A path of this process's own in the temporary directory, written into path (the caller's: two
 * names in use at once must not share a buffer). */
enum { TEMP_PATH_MAX = 256 };
static const char *temp_path(char path[TEMP_PATH_MAX], const char *name) {
  snprintf(path, TEMP_PATH_MAX, "%s/crawl-test-%d-%s", core_temp_dir(), (int)getpid(), name);
  return path;
}

/* A temporary file holding len bytes of text. */
static int fd_holding(const char *text, size_t len) {
  int fd = core_temp_fd("test");
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, len), (ssize_t)len);
  return fd;
}

/* The whole contents of fd, NUL-terminated; its length in *len. */
static char *fd_contents(int fd, size_t *len) {
  off_t size = lseek(fd, 0, SEEK_END);
  assert_true(size >= 0);
  char *text = malloc((size_t)size + 1);
  assert_int_equal(pread(fd, text, (size_t)size, 0), size);
  text[size] = 0;
  *len = (size_t)size;
  return text;
}

static void test_round_trips(void **state) {
  (void)state;
  seen_kind kinds[] = {SEEN_BLOOM, SEEN_COUNTING, SEEN_EXACT};
  for (size_t i = 0; i < 3; i++) {
    seen_filter *s, *loaded;
    assert_int_equal(seen_create(kinds[i], 2000, 1e-5, 99, &s), CORE_OK);
    char k[128];
    for (unsigned j = 0; j < 9000; j++) { /* past expect: several layers */
      int len = key(k, sizeof(k), "in", j);
      bool fresh;
      assert_int_equal(seen_add(s, k, (size_t)len, &fresh), CORE_OK);
    }
    char why[256] = "";
    char path_buf[TEMP_PATH_MAX];
    const char *path = temp_path(path_buf, "roundtrip");
    /* the attachment comes back byte for byte, zero bytes included, and larger than any buffer */
    size_t big = 200000;
    char *sent = malloc(big);
    for (size_t j = 0; j < big; j++)
      sent[j] = (char)(j * 7 % 251);
    int out = fd_holding(sent, big), in = core_temp_fd("test");
    assert_int_equal(seen_save(s, path, out, why, sizeof(why)), CORE_OK);
    assert_int_equal(seen_load(path, &loaded, in, why, sizeof(why)), CORE_OK);
    size_t got_len;
    char *got = fd_contents(in, &got_len);
    assert_int_equal(got_len, big);
    assert_memory_equal(got, sent, big);
    free(got);
    free(sent);
    close(out);
    close(in);
    struct seen_info a, b;
    seen_info(s, &a);
    seen_info(loaded, &b);
    assert_int_equal(a.kind, b.kind);
    assert_int_equal(a.count, b.count);
    assert_int_equal(a.layers, b.layers);
    assert_int_equal(a.bytes, b.bytes);
    assert_int_equal(a.seed, b.seed);
    for (unsigned j = 0; j < 9000; j++) {
      int len = key(k, sizeof(k), "in", j);
      assert_true(seen_contains(loaded, k, (size_t)len));
      len = key(k, sizeof(k), "out", j);
      assert_int_equal(seen_contains(loaded, k, (size_t)len), seen_contains(s, k, (size_t)len));
    }
    /* the loaded filter goes on growing */
    bool fresh;
    assert_int_equal(seen_add(loaded, "http://new.example/", 19, &fresh), CORE_OK);
    assert_true(fresh);
    seen_destroy(s);
    seen_destroy(loaded);
    unlink(path);
  }
}

static void write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  fclose(f);
}

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  rewind(f);
  unsigned char *data = malloc(*len);
  assert_int_equal(fread(data, 1, *len, f), *len);
  fclose(f);
  return data;
}

static void expect_refused(const char *path, const char *words) {
  seen_filter *s = NULL;
  char why[256] = "";
  core_rc rc = seen_load(path, &s, -1, why, sizeof(why));
  if (rc != CORE_EFORMAT || !strstr(why, words))
    fail_msg("expected refusal with '%s', got rc %d '%s'", words, rc, why);
  assert_null(s);
}

static void test_refused_files(void **state) {
  (void)state;
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_COUNTING, 1000, 1e-3, 5, &s), CORE_OK);
  char why[256];
  char good_buf[TEMP_PATH_MAX], bad_buf[TEMP_PATH_MAX], missing[TEMP_PATH_MAX];
  const char *good = temp_path(good_buf, "good");
  static const char left[] = "1 http://a.example/ http://a.example/b\n";
  int left_fd = fd_holding(left, strlen(left));
  assert_int_equal(seen_save(s, good, left_fd, why, sizeof(why)), CORE_OK);
  close(left_fd);
  seen_destroy(s);
  size_t len;
  unsigned char *data = read_file(good, &len);
  const char *bad = temp_path(bad_buf, "bad");

  assert_int_equal(seen_load(temp_path(missing, "missing"), &s, -1, why, sizeof(why)),
                   CORE_ENOTFOUND);
  write_file(bad, "", 0);
  expect_refused(bad, "not a crawl seen file");
  write_file(bad, "#!/bin/sh\necho hello\n", 21);
  expect_refused(bad, "not a crawl seen file");
  size_t cuts[] = {8, 40, 64, 100, 116, len / 2, len - 20, len - 1}; /* len - 20: the attachment */
  for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
    write_file(bad, data, cuts[i]);
    expect_refused(bad, "truncated");
  }
  unsigned char *longer = malloc(len + 5);
  memcpy(longer, data, len);
  memcpy(longer + len, "extra", 5);
  write_file(bad, longer, len + 5);
  expect_refused(bad, "expected");
  free(longer);
  /* one flipped bit anywhere in the body */
  size_t spots[] = {70, 130, len / 2, len - 9, len - 1};
  for (size_t i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
    data[spots[i]] ^= 0x10;
    write_file(bad, data, len);
    expect_refused(bad, spots[i] < 112 ? "" : "checksum");
    data[spots[i]] ^= 0x10;
  }
  /* a layer unlike any this code builds: its capacity, count or bound off the chain that
   * starts at expect and p/2, or more keys than the classic optimum's bits allow */
  size_t layer_fields[] = {64 + 24, 64 + 34, 64 + 40};
  for (size_t i = 0; i < 3; i++) {
    data[layer_fields[i]] ^= 0x01;
    write_file(bad, data, len);
    expect_refused(bad, "corrupt layer 0 header");
    data[layer_fields[i]] ^= 0x01;
  }
  /* each field of the layer's shape out of what this code builds, one at a time: the block
   * size (256 bits, too few for the keys; 4096 and 768, enough bits but no size this code
   * builds), the number of hashes (0, 65), the counter width, the number of blocks (0) */
  static const struct {
    size_t at, len;
    uint64_t value;
  } shapes[] = {{64 + 8, 4, 256}, {64 + 8, 4, 4096}, {64 + 8, 4, 768}, {64 + 12, 4, 0},
                {64 + 12, 4, 65}, {64 + 16, 4, 3},   {64 + 0, 8, 0}};
  for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
    unsigned char was[8];
    memcpy(was, data + shapes[i].at, shapes[i].len);
    for (size_t b = 0; b < shapes[i].len; b++) /* little-endian, as the file is */
      data[shapes[i].at + b] = (unsigned char)(shapes[i].value >> (8 * b));
    write_file(bad, data, len);
    expect_refused(bad, "corrupt layer 0 header");
    memcpy(data + shapes[i].at, was, shapes[i].len);
  }
  data[32 + 2] ^= 0x10; /* expect and the layer's capacity both 2^20 larger: on the chain, but */
  data[64 + 24 + 2] ^= 0x10; /* far more keys than its bits can hold at its bound */
  write_file(bad, data, len);
  expect_refused(bad, "corrupt layer 0 header");
  data[32 + 2] ^= 0x10;
  data[64 + 24 + 2] ^= 0x10;
  data[8] = 3; /* a future format version */
  write_file(bad, data, len);
  expect_refused(bad, "format version 3");
  data[8] = 2;
  /* the attachment's length, after the one layer's header, larger than the file */
  data[112 + 6] = 1;
  write_file(bad, data, len);
  expect_refused(bad, "corrupt header");
  data[112 + 6] = 0;
  data[12] = 9; /* an unknown kind */
  write_file(bad, data, len);
  expect_refused(bad, "unknown filter kind");
  data[12] = 2;
  write_file(bad, data, len); /* restored: loads again */
  int in = core_temp_fd("test");
  assert_int_equal(seen_load(bad, &s, in, why, sizeof(why)), CORE_OK);
  size_t got_len;
  char *got = fd_contents(in, &got_len);
  assert_string_equal(got, left);
  free(got);
  close(in);
  seen_destroy(s);
  /* a version 1 file (no attachment: neither its length nor its bytes) still loads */
  size_t words = len - 112 - 8 - strlen(left) - 8;
  unsigned char *v1 = malloc(len);
  memcpy(v1, data, 112);
  memcpy(v1 + 112, data + 120, words);
  v1[8] = 1;
  uint64_t sum = XXH3_64bits(v1, 112 + words);
  for (int i = 0; i < 8; i++)
    v1[112 + words + (size_t)i] = (unsigned char)(sum >> (8 * i));
  write_file(bad, v1, 112 + words + 8);
  in = core_temp_fd("test");
  assert_int_equal(seen_load(bad, &s, in, why, sizeof(why)), CORE_OK);
  assert_int_equal(lseek(in, 0, SEEK_END), 0);
  close(in);
  seen_destroy(s);
  free(v1);
  /* a directory is not a file */
  char dir_buf[TEMP_PATH_MAX];
  const char *dir = temp_path(dir_buf, "dir");
  mkdir(dir, 0700);
  assert_int_not_equal(seen_load(dir, &s, -1, why, sizeof(why)), CORE_OK);
  rmdir(dir);
  free(data);
  unlink(good);
  unlink(bad);
}

/* An exact filter's file refused after its table was read (one flipped bit: the checksum): the
 * table it had read is freed, not kept or leaked (the sanitizers' run sees a leak). */
static void test_exact_file_refused_after_its_table(void **state) {
  (void)state;
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_EXACT, 1000, 1e-7, 1, &s), CORE_OK);
  char k[64];
  for (unsigned i = 0; i < 100; i++) {
    int len = key(k, sizeof(k), "x", i);
    bool fresh;
    assert_int_equal(seen_add(s, k, (size_t)len, &fresh), CORE_OK);
  }
  char why[256], path_buf[TEMP_PATH_MAX];
  const char *path = temp_path(path_buf, "exact");
  assert_int_equal(seen_save(s, path, -1, why, sizeof(why)), CORE_OK);
  seen_destroy(s);
  size_t len;
  unsigned char *data = read_file(path, &len);
  data[len - 12] ^= 0x01; /* in the table, before the checksum */
  write_file(path, data, len);
  expect_refused(path, "checksum");
  free(data);
  unlink(path);
}

/* A link planted where a save writes its temporary file (PATH.tmp.PID) is not followed: the file
 * it points to stays as it was, and the saved file is a file of its own, readable by its owner
 * alone (it may name private URLs). */
static void test_save_ignores_planted_link(void **state) {
  (void)state;
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_BLOOM, 1000, 1e-3, 5, &s), CORE_OK);
  char path[256], victim[300], planted[300], why[256] = "";
  temp_path(path, "planted");
  snprintf(victim, sizeof(victim), "%s.victim", path);
  snprintf(planted, sizeof(planted), "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(victim, "w");
  assert_non_null(f);
  fputs("keep me\n", f);
  fclose(f);
  assert_int_equal(symlink(victim, planted), 0);
  assert_int_equal(seen_save(s, path, -1, why, sizeof(why)), CORE_OK);
  size_t len;
  unsigned char *kept = read_file(victim, &len);
  assert_int_equal(len, 8);
  assert_memory_equal(kept, "keep me\n", 8);
  free(kept);
  struct stat st;
  assert_int_equal(lstat(path, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(st.st_mode & 0777, 0600);
  assert_int_equal(lstat(planted, &st), -1); /* gone, as a save leaves no temporary file */
  unlink(path);
  unlink(victim);
  seen_destroy(s);
}

static void test_save_failure_keeps_old_file(void **state) {
  (void)state;
  seen_filter *s;
  assert_int_equal(seen_create(SEEN_BLOOM, 1000, 1e-3, 5, &s), CORE_OK);
  char why[256] = "";
  assert_int_equal(seen_save(s, "/nonexistent-dir/x.seen", -1, why, sizeof(why)), CORE_ESYS);
  assert_non_null(strstr(why, "nonexistent-dir"));
  /* an attachment that cannot be read fails the save, and the file saved before stays whole */
  char path_buf[TEMP_PATH_MAX];
  const char *path = temp_path(path_buf, "kept");
  assert_int_equal(seen_save(s, path, -1, why, sizeof(why)), CORE_OK);
  size_t before_len, after_len;
  unsigned char *before = read_file(path, &before_len);
  int left = fd_holding("0 - http://a.example/\n", 21);
  char name[64];
  snprintf(name, sizeof(name), "/proc/self/fd/%d", left);
  int write_only = open(name, O_WRONLY);
  assert_true(write_only >= 0);
  why[0] = 0;
  assert_int_equal(seen_save(s, path, write_only, why, sizeof(why)), CORE_ESYS);
  assert_non_null(strstr(why, "cannot read what goes with it"));
  unsigned char *after = read_file(path, &after_len);
  assert_int_equal(after_len, before_len);
  assert_memory_equal(after, before, before_len);
  free(before);
  free(after);
  close(write_only);
  close(left);
  unlink(path);
  seen_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sizing_within_bounds),
      cmocka_unit_test(test_sizing_meets_its_bound_summed_whole),
      cmocka_unit_test(test_measured_rate_under_bound),
      cmocka_unit_test(test_growth_keeps_bound),
      cmocka_unit_test(test_batch_matches_one_at_a_time),
      cmocka_unit_test(test_counting_remove),
      cmocka_unit_test(test_forget_marked_later),
      cmocka_unit_test(test_exact_fingerprints),
      cmocka_unit_test(test_exact_file_refused_after_its_table),
      cmocka_unit_test(test_round_trips),
      cmocka_unit_test(test_refused_files),
      cmocka_unit_test(test_save_failure_keeps_old_file),
      cmocka_unit_test(test_save_ignores_planted_link),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
