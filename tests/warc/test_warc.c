/* WARC files (warc/warc.c) read back as an archive's reader would: records that parse one after
 * the other by their Content-Length, the response before its request and tied to it, digests of
 * known bodies, credentials left out of the request record and named, a chunked body kept as the
 * head says, one gzip member a record, a file cut back to its last checkpoint and appended to,
 * the owner-only mode, and a URL that cannot be a header refused without a byte written. */
#include "warc/warc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#define BODY "hello"
#define BODY_DIGEST "sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N" /* of "hello", base32 */
#define EMPTY_DIGEST "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"
#define RESPONSE_HEAD "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"
#define REQUEST_HEAD                                                                               \
  "GET /a HTTP/1.1\r\nHost: a.test\r\nAuthorization: Basic c2VjcmV0\r\n"                           \
  "Cookie: session=s3cr3t\r\nAccept: */*\r\n\r\n"

struct record {
  char head[2048]; /* the header lines, from "WARC/1.1" to the blank line */
  char *block;
  size_t block_len;
};

static char dir[] = "/tmp/crawl-test-warc-XXXXXX";
static char path[256];

static int setup(void **state) {
  (void)state;
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/out.warc", dir);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  unlink(path);
  return rmdir(dir);
}

static char *read_file(size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  char *data = NULL;
  size_t cap = 0, n = 0, got;
  do {
    assert_non_null(data = realloc(data, cap += 65536));
    got = fread(data + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *len = n;
  return data;
}

/* The value of a header field of a record, copied into out; false when it has none. */
static bool field(const struct record *r, const char *name, char *out, size_t size) {
  char key[64];
  snprintf(key, sizeof(key), "\r\n%s: ", name);
  const char *at = strstr(r->head, key);
  if (!at)
    return false;
  at += strlen(key);
  size_t len = strcspn(at, "\r");
  snprintf(out, size, "%.*s", (int)len, at);
  return true;
}

/* Reads the records of data one after the other, each by its Content-Length; all of data must be
 * records. */
static size_t parse(char *data, size_t len, struct record *out, size_t most) {
  size_t n = 0, at = 0;
  while (at < len) {
    assert_true(n < most);
    struct record *r = &out[n++];
    assert_memory_equal(data + at, "WARC/1.1\r\n", 10);
    const char *end = strstr(data + at, "\r\n\r\n");
    assert_non_null(end);
    size_t head_len = (size_t)(end - (data + at)) + 2;
    assert_true(head_len < sizeof(r->head));
    memcpy(r->head, data + at, head_len);
    r->head[head_len] = '\0';
    char value[64];
    assert_true(field(r, "Content-Length", value, sizeof(value)));
    r->block_len = strtoull(value, NULL, 10);
    r->block = data + at + head_len + 2;
    assert_true(r->block + r->block_len + 4 <= data + len);
    assert_memory_equal(r->block + r->block_len, "\r\n\r\n", 4);
    at = (size_t)(r->block + r->block_len + 4 - data);
  }
  return n;
}

static warc_writer *open_writer(bool append, uint64_t keep, bool gzip, bool owner_only) {
  warc_writer *w = NULL;
  char why[256];
  assert_int_equal(warc_open(path, append, keep, gzip, owner_only, &w, why, sizeof(why)), CORE_OK);
  return w;
}

static struct warc_exchange exchange(const char *url, const char *body, bool chunked) {
  return (struct warc_exchange){.url = url,
                                .ip = "127.0.0.1",
                                .request = REQUEST_HEAD,
                                .request_len = strlen(REQUEST_HEAD),
                                .response = RESPONSE_HEAD,
                                .response_len = strlen(RESPONSE_HEAD),
                                .body = body,
                                .body_len = strlen(body),
                                .chunked = chunked};
}

static void test_records_read_back(void **state) {
  (void)state;
  warc_writer *w = open_writer(false, UINT64_MAX, false, false);
  assert_int_equal(warc_write_info(w, "software: crawl\r\nformat: WARC File Format 1.1\r\n"),
                   CORE_OK);
  struct warc_exchange x = exchange("http://a.test/a", BODY, false);
  assert_int_equal(warc_write_exchange(w, &x), CORE_OK);
  assert_int_equal(warc_close(w), CORE_OK);
  size_t len;
  char *data = read_file(&len);
  struct record r[8];
  assert_int_equal(parse(data, len, r, 8), 3);
  char type[64], value[128], id[64];
  assert_true(field(&r[0], "WARC-Type", type, sizeof(type)));
  assert_string_equal(type, "warcinfo");
  assert_memory_equal(r[0].block, "software: crawl\r\n", 17);
  /* the response first: its head and body as received, its payload's digest that of the body */
  assert_true(field(&r[1], "WARC-Type", type, sizeof(type)));
  assert_string_equal(type, "response");
  assert_true(field(&r[1], "WARC-Target-URI", value, sizeof(value)));
  assert_string_equal(value, "http://a.test/a");
  assert_true(field(&r[1], "WARC-IP-Address", value, sizeof(value)));
  assert_string_equal(value, "127.0.0.1");
  assert_true(field(&r[1], "WARC-Payload-Digest", value, sizeof(value)));
  assert_string_equal(value, BODY_DIGEST);
  assert_int_equal(r[1].block_len, strlen(RESPONSE_HEAD BODY));
  assert_memory_equal(r[1].block, RESPONSE_HEAD BODY, r[1].block_len);
  assert_true(field(&r[1], "WARC-Record-ID", id, sizeof(id)));
  assert_int_equal(strlen(id), strlen("<urn:uuid:00000000-0000-4000-8000-000000000000>"));
  /* then its request, tied to it */
  assert_true(field(&r[2], "WARC-Type", type, sizeof(type)));
  assert_string_equal(type, "request");
  assert_true(field(&r[2], "WARC-Concurrent-To", value, sizeof(value)));
  assert_string_equal(value, id);
  assert_true(field(&r[2], "WARC-Record-ID", value, sizeof(value)));
  assert_string_not_equal(value, id);
  assert_false(field(&r[0], "WARC-Truncated", value, sizeof(value)));
  free(data);
}

static void test_credentials_left_out_and_named(void **state) {
  (void)state;
  warc_writer *w = open_writer(false, UINT64_MAX, false, false);
  struct warc_exchange x = exchange("http://a.test/a", BODY, false);
  assert_int_equal(warc_write_exchange(w, &x), CORE_OK);
  assert_int_equal(warc_close(w), CORE_OK);
  size_t len;
  char *data = read_file(&len);
  struct record r[4];
  assert_int_equal(parse(data, len, r, 4), 2);
  const char *kept = "GET /a HTTP/1.1\r\nHost: a.test\r\nAuthorization:\r\nCookie:\r\n"
                     "Accept: */*\r\n\r\n";
  assert_int_equal(r[1].block_len, strlen(kept));
  assert_memory_equal(r[1].block, kept, r[1].block_len);
  char value[128];
  assert_true(field(&r[1], "WARC-Redacted-Headers", value, sizeof(value)));
  assert_string_equal(value, "Authorization, Cookie");
  /* nowhere in the file */
  assert_null(memmem(data, len, "c2VjcmV0", 8));
  assert_null(memmem(data, len, "s3cr3t", 6));
  free(data);
}

static void test_chunked_body_kept_as_its_head_says(void **state) {
  (void)state;
  warc_writer *w = open_writer(false, UINT64_MAX, false, false);
  struct warc_exchange x = exchange("http://a.test/c", BODY, true);
  struct warc_exchange none = exchange("http://a.test/e", "", true);
  assert_int_equal(warc_write_exchange(w, &x), CORE_OK);
  assert_int_equal(warc_write_exchange(w, &none), CORE_OK);
  assert_int_equal(warc_close(w), CORE_OK);
  size_t len;
  char *data = read_file(&len);
  struct record r[8];
  assert_int_equal(parse(data, len, r, 8), 4);
  const char *one = RESPONSE_HEAD "5\r\n" BODY "\r\n0\r\n\r\n";
  assert_int_equal(r[0].block_len, strlen(one));
  assert_memory_equal(r[0].block, one, r[0].block_len);
  char value[128];
  assert_true(field(&r[0], "WARC-Payload-Digest", value, sizeof(value)));
  assert_string_equal(value, BODY_DIGEST); /* of the body, not of its chunk */
  const char *empty = RESPONSE_HEAD "0\r\n\r\n";
  assert_int_equal(r[2].block_len, strlen(empty));
  assert_memory_equal(r[2].block, empty, r[2].block_len);
  assert_true(field(&r[2], "WARC-Payload-Digest", value, sizeof(value)));
  assert_string_equal(value, EMPTY_DIGEST);
  free(data);
}

static void test_gzip_one_member_a_record(void **state) {
  (void)state;
  warc_writer *w = open_writer(false, UINT64_MAX, true, false);
  assert_int_equal(warc_write_info(w, "software: crawl\r\n"), CORE_OK);
  struct warc_exchange x = exchange("http://a.test/a", BODY, false);
  x.truncated = true;
  assert_int_equal(warc_write_exchange(w, &x), CORE_OK);
  assert_int_equal(warc_close(w), CORE_OK);
  size_t len;
  char *packed = read_file(&len);
  size_t cap = 1 << 20, n = 0;
  char *data = malloc(cap);
  assert_non_null(data);
  z_stream z;
  memset(&z, 0, sizeof(z));
  assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = (unsigned char *)packed;
  z.avail_in = (uInt)len;
  int members = 0;
  while (z.avail_in > 0) {
    z.next_out = (unsigned char *)data + n;
    z.avail_out = (uInt)(cap - n);
    int rc = inflate(&z, Z_NO_FLUSH);
    n = cap - z.avail_out;
    assert_true(rc == Z_OK || rc == Z_STREAM_END);
    if (rc == Z_STREAM_END) {
      members++;
      assert_int_equal(inflateReset(&z), Z_OK);
    }
  }
  inflateEnd(&z);
  struct record r[8];
  assert_int_equal(parse(data, n, r, 8), 3);
  assert_int_equal(members, 3);
  char value[64];
  assert_true(field(&r[1], "WARC-Truncated", value, sizeof(value)));
  assert_string_equal(value, "length");
  free(data);
  free(packed);
}

static void test_cut_back_to_the_checkpoint_then_appended(void **state) {
  (void)state;
  warc_writer *w = open_writer(false, UINT64_MAX, false, false);
  assert_int_equal(warc_write_info(w, "software: crawl\r\n"), CORE_OK);
  uint64_t checkpoint;
  assert_int_equal(warc_sync(w, &checkpoint), CORE_OK);
  struct warc_exchange lost = exchange("http://a.test/lost", BODY, false);
  assert_int_equal(warc_write_exchange(w, &lost), CORE_OK);
  assert_int_equal(warc_close(w), CORE_OK);
  /* the run continues from the checkpoint: what came after it goes, what it writes follows */
  w = open_writer(true, checkpoint, false, false);
  struct warc_exchange again = exchange("http://a.test/again", BODY, false);
  assert_int_equal(warc_write_exchange(w, &again), CORE_OK);
  assert_int_equal(warc_close(w), CORE_OK);
  size_t len;
  char *data = read_file(&len);
  struct record r[8];
  assert_int_equal(parse(data, len, r, 8), 3);
  char value[128];
  assert_true(field(&r[1], "WARC-Target-URI", value, sizeof(value)));
  assert_string_equal(value, "http://a.test/again");
  assert_null(memmem(data, len, "/lost", 5));
  free(data);
  /* appending with everything kept keeps everything */
  w = open_writer(true, UINT64_MAX, false, false);
  assert_int_equal(warc_close(w), CORE_OK);
  data = read_file(&len);
  assert_int_equal(parse(data, len, r, 8), 3);
  free(data);
}

static void test_owner_only_mode(void **state) {
  (void)state;
  FILE *f = fopen(path, "w"); /* there before, readable by all */
  assert_non_null(f);
  fclose(f);
  assert_int_equal(chmod(path, 0644), 0);
  warc_writer *w = open_writer(false, UINT64_MAX, false, true);
  assert_int_equal(warc_close(w), CORE_OK);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
}

static void test_unusable_url_refused_unwritten(void **state) {
  (void)state;
  warc_writer *w = open_writer(false, UINT64_MAX, false, false);
  struct warc_exchange x = exchange("http://a.test/a\r\nWARC-Type: forged", BODY, false);
  assert_int_equal(warc_write_exchange(w, &x), CORE_EINVAL);
  uint64_t length;
  assert_int_equal(warc_sync(w, &length), CORE_OK);
  assert_int_equal(length, 0);
  assert_int_equal(warc_close(w), CORE_OK);
}

static void test_unopenable_path_said(void **state) {
  (void)state;
  warc_writer *w = NULL;
  char why[256] = "";
  char missing[300];
  snprintf(missing, sizeof(missing), "%s/no/such/dir/out.warc", dir);
  assert_int_equal(warc_open(missing, false, UINT64_MAX, false, false, &w, why, sizeof(why)),
                   CORE_ESYS);
  assert_null(w);
  assert_non_null(strstr(why, "cannot open it"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_records_read_back),
      cmocka_unit_test(test_credentials_left_out_and_named),
      cmocka_unit_test(test_chunked_body_kept_as_its_head_says),
      cmocka_unit_test(test_gzip_one_member_a_record),
      cmocka_unit_test(test_cut_back_to_the_checkpoint_then_appended),
      cmocka_unit_test(test_owner_only_mode),
      cmocka_unit_test(test_unusable_url_refused_unwritten),
      cmocka_unit_test(test_unopenable_path_said),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
