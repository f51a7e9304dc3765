/* fetch/head.c: header lines read as the engine's header callback reads them (which header, its
 * value trimmed), list words, X-Robots-Tag's nofollow for us and not for others, Retry-After. */
#include "fetch/fetch-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static bool header(const char *line, const char *name, const char *want) {
  const char *v;
  size_t len;
  if (!fetch__header_is(line, strlen(line), name, &v, &len))
    return false;
  assert_int_equal(len, strlen(want));
  assert_memory_equal(v, want, len);
  return true;
}

static void test_header_is(void **state) {
  (void)state;
  assert_true(header("Content-Type:  text/html \r\n", "content-type", "text/html"));
  assert_true(header("LOCATION:\t/a b\t\r\n", "location", "/a b"));
  assert_true(header("Location:\r\n", "location", ""));
  assert_false(header("Content-Types: x\r\n", "content-type", ""));
  assert_false(header("Content-Type x\r\n", "content-type", ""));
  assert_false(header("Content-Typ", "content-type", ""));
}

static bool has(const char *list, const char *word) {
  return fetch__list_has(list, strlen(list), word);
}

static void test_list_has(void **state) {
  (void)state;
  assert_true(has("chunked", "chunked"));
  assert_true(has("gzip, Chunked", "chunked"));
  assert_true(has("chunked,gzip", "chunked"));
  assert_false(has("notchunked", "chunked"));
  assert_false(has("chunkedx, gzip", "chunked"));
  assert_false(has("", "chunked"));
}

static bool nofollow(const char *value, const char *token) {
  return fetch__x_robots_nofollow(value, strlen(value), token);
}

static void test_x_robots_tag(void **state) {
  (void)state;
  assert_true(nofollow("nofollow", "crawl"));
  assert_true(nofollow("NoFollow", NULL));
  assert_true(nofollow("noindex, nofollow", "crawl"));
  assert_true(nofollow("noindex,\tnofollow\t,noarchive", "crawl")); /* tabs around a word too */
  assert_true(nofollow("crawl:\tnofollow\t", "crawl"));
  assert_true(nofollow("none", "crawl"));
  assert_false(nofollow("noindex", "crawl"));
  assert_false(nofollow("nofollowing", "crawl"));
  assert_false(nofollow("nofo", "crawl")); /* a directive is the whole word, not a part */
  assert_false(nofollow("noai, noarchive", "crawl"));
  assert_false(nofollow("", "crawl"));
  /* a crawler's name holds for the rest of the value */
  assert_false(nofollow("otherbot: nofollow", "crawl"));
  assert_false(nofollow("otherbot: noindex, nofollow", "crawl"));
  assert_true(nofollow("crawl: nofollow", "crawl"));
  assert_true(nofollow("crawl : noindex, nofollow", "crawl"));
  assert_true(nofollow("otherbot: noindex, crawl: nofollow", "crawl"));
  assert_false(nofollow("crawl: noindex, otherbot: nofollow", "crawl"));
  assert_false(nofollow("crawl: nofollow", NULL)); /* no name of ours: only what is for all */
  /* a directive with a value of its own names no crawler */
  assert_true(nofollow("unavailable_after: 2030-01-01, nofollow", "crawl"));
  assert_false(nofollow("max-snippet: 20", "crawl"));
  assert_false(nofollow("max-snippet: 20, noindex", "crawl"));
}

static double retry(const char *value, time_t now) {
  return fetch__retry_after(value, strlen(value), now);
}

static void test_retry_after(void **state) {
  (void)state;
  const time_t date = 1445412480; /* Wed, 21 Oct 2015 07:28:00 GMT */
  assert_true(retry("120", date) == 120);
  assert_true(retry("0", date) == 0);
  assert_true(retry("1.5", date) == 1.5);
  assert_true(retry("Wed, 21 Oct 2015 07:28:00 GMT", date - 30) == 30);
  assert_true(retry("Wed, 21 Oct 2015 07:28:00 GMT", date + 30) == 0); /* passed already */
  assert_true(retry("-5", date) < 0);
  assert_true(retry("soon", date) < 0);
  assert_true(retry("", date) < 0);
  char longer[80];
  memset(longer, '1', sizeof(longer) - 1);
  longer[sizeof(longer) - 1] = '\0';
  assert_true(retry(longer, date) < 0); /* longer than any value it reads */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_header_is),
      cmocka_unit_test(test_list_has),
      cmocka_unit_test(test_x_robots_tag),
      cmocka_unit_test(test_retry_after),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
