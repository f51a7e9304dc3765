/* frontier/frontier.c: the table of addresses (--ip-delay) as a broad crawl fills it. */
#include "frontier/frontier.h"
#include "seen/seen.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* 20,000 hosts on 10,000 addresses, two hosts an address (the table grows many times past its
 * first 1,024 buckets): each host keeps its address, and the two hosts of an address still take
 * turns, a gap apart, whichever was made first. */
static void test_many_addresses(void **state) {
  (void)state;
  enum { ADDRESSES = 10000 };
  struct frontier_options cfg = {.delay = 0, .ip_delay = 2, .max_delay = 30, .per_host = 1};
  seen_filter *seen;
  assert_int_equal(seen_create(SEEN_BLOOM, 1000, 1e-6, 1, &seen), CORE_OK);
  frontier *f;
  assert_int_equal(frontier_create(&cfg, seen, NULL, &f), CORE_OK);
  static frontier_host *hosts[2 * ADDRESSES];
  char origin[64], addr[32];
  for (int i = 0; i < 2 * ADDRESSES; i++) {
    bool created;
    snprintf(origin, sizeof(origin), "http://h%d.test", i);
    assert_int_equal(frontier_host_get(f, origin, &hosts[i], &created), CORE_OK);
    snprintf(addr, sizeof(addr), "10.%d.%d.%d", i % ADDRESSES / 65536, i % ADDRESSES / 256 % 256,
             i % ADDRESSES % 256);
    assert_int_equal(frontier_host_set_ip(f, hosts[i], addr), CORE_OK);
  }
  for (int i = 0; i < 2 * ADDRESSES; i++) {
    snprintf(addr, sizeof(addr), "10.%d.%d.%d", i % ADDRESSES / 65536, i % ADDRESSES / 256 % 256,
             i % ADDRESSES % 256);
    assert_string_equal(frontier_host_addr(hosts[i]), addr);
    /* one string an address, shared by its two hosts */
    if (i >= ADDRESSES)
      assert_ptr_equal(frontier_host_addr(hosts[i]), frontier_host_addr(hosts[i - ADDRESSES]));
  }
  int a = 4321, b = a + ADDRESSES; /* one address */
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, "http://h4321.test/", NULL, 0);
  frontier_push(f, hosts[a], item);
  item = frontier_item_new(FRONTIER_PAGE, "http://h14321.test/", NULL, 0);
  frontier_push(f, hosts[b], item);
  frontier_host *popped;
  struct frontier_item *first = frontier_pop(f, 0, &popped);
  assert_non_null(first);
  assert_null(frontier_pop(f, 0.5, &popped)); /* the address is busy */
  frontier_end(f, popped, first, 1, 0.01);
  frontier_release(f, 0);
  frontier_item_free(first);
  assert_null(frontier_pop(f, 2.9, &popped)); /* its gap runs */
  struct frontier_item *second = frontier_pop(f, 3, &popped);
  assert_non_null(second);
  frontier_item_free(second);
  frontier_destroy(f);
  seen_destroy(seen);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_many_addresses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
