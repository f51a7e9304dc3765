/* fetch/handed.c: the addresses handed to curl are kept while transfers use them and up to the
 * limit; past it the entries idle longest are taken back, each by one "-HOST:PORT" line, in the
 * order they went idle; an entry asked for again is the same one, and a new address makes it to
 * be handed again. */
#include "fetch/fetch-int.h"

#include <curl/curl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* What a transfer's start does: the entry, one more in flight. */
static struct handed *start(struct fetch__handed *t, const char *host, const char *addr) {
  struct handed *h = fetch__handed_entry(t, host, 80, addr);
  assert_non_null(h);
  h->in_flight++;
  return h;
}

/* The lines taken back since the last call, joined by spaces ("" for none). */
static void expect_taken_back(struct fetch__handed *t, const char *want) {
  char got[256] = "";
  struct curl_slist *lines = fetch__handed_taken_back(t);
  for (struct curl_slist *l = lines; l; l = l->next)
    snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", *got ? " " : "", l->data);
  curl_slist_free_all(lines);
  assert_string_equal(got, want);
}

static void test_idle_longest_taken_back(void **state) {
  (void)state;
  struct fetch__handed t = {.limit = 2};
  struct handed *a = start(&t, "a", "10.0.0.1"), *b = start(&t, "b", "10.0.0.2");
  struct handed *c = start(&t, "c", "10.0.0.3");
  expect_taken_back(&t, "");                       /* three, all in flight: none goes */
  assert_ptr_equal(start(&t, "a", "10.0.0.1"), a); /* a second transfer to a */
  fetch__handed_done(&t, a);
  expect_taken_back(&t, ""); /* a still has one in flight */
  fetch__handed_done(&t, a);
  expect_taken_back(&t, "-a:80"); /* idle, and one over the limit */
  fetch__handed_done(&t, b);
  fetch__handed_done(&t, c);
  expect_taken_back(&t, "");                       /* two, at the limit */
  assert_ptr_equal(start(&t, "b", "10.0.0.2"), b); /* b busy again: out of the idle list */
  struct handed *d = start(&t, "d", "10.0.0.4");
  fetch__handed_done(&t, d);
  expect_taken_back(&t, "-c:80"); /* c went idle before d; b is busy */
  fetch__handed_done(&t, b);
  struct handed *e = start(&t, "e", "10.0.0.5");
  fetch__handed_done(&t, e);
  expect_taken_back(&t, "-d:80");
  assert_int_equal(t.count, 2);
  fetch__handed_free(&t);
}

static void test_address_changed_is_handed_again(void **state) {
  (void)state;
  struct fetch__handed t = {.limit = 8};
  struct handed *a = start(&t, "a", "10.0.0.1");
  a->used = true; /* a transfer resolved through it */
  fetch__handed_done(&t, a);
  assert_ptr_equal(start(&t, "a", "10.0.0.1"), a);
  assert_true(a->used);
  fetch__handed_done(&t, a);
  assert_ptr_equal(start(&t, "a", "10.0.0.9"), a);
  assert_false(a->used); /* curl must be handed the new one */
  assert_string_equal(a->addr, "10.0.0.9");
  fetch__handed_done(&t, a);
  char long_addr[INET6_ADDRSTRLEN + 8];
  memset(long_addr, '1', sizeof(long_addr) - 1);
  long_addr[sizeof(long_addr) - 1] = '\0';
  assert_null(fetch__handed_entry(&t, "b", 80, long_addr)); /* handed every time instead */
  long_addr[INET6_ADDRSTRLEN] = '\0'; /* one more than an address printed, with its NUL */
  assert_null(fetch__handed_entry(&t, "b", 80, long_addr));
  long_addr[INET6_ADDRSTRLEN - 1] = '\0'; /* the longest an address is printed */
  struct handed *b = fetch__handed_entry(&t, "b", 80, long_addr);
  assert_non_null(b);
  assert_string_equal(b->addr, long_addr);
  fetch__handed_free(&t);
}

static void test_many_hosts_found_again(void **state) {
  (void)state;
  enum { HOSTS = 300 };
  struct fetch__handed t = {.limit = HOSTS};
  struct handed *made[HOSTS];
  char host[32];
  for (int i = 0; i < HOSTS; i++) {
    snprintf(host, sizeof(host), "h%d.test", i);
    made[i] = start(&t, host, "127.0.0.1");
    fetch__handed_done(&t, made[i]);
  }
  for (int i = 0; i < HOSTS; i++) { /* the table grew past 64 slots: each is where it was */
    snprintf(host, sizeof(host), "h%d.test", i);
    assert_ptr_equal(fetch__handed_entry(&t, host, 80, "127.0.0.1"), made[i]);
    assert_null(fetch__handed_entry(&t, host, 80, "127.0.0.1")->older);
  }
  assert_ptr_not_equal(fetch__handed_entry(&t, "h1.test", 8080, "127.0.0.1"), made[1]);
  expect_taken_back(&t, "");
  fetch__handed_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_idle_longest_taken_back),
      cmocka_unit_test(test_address_changed_is_handed_again),
      cmocka_unit_test(test_many_hosts_found_again),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
