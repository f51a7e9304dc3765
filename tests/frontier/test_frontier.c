/* frontier/frontier.c: per-host FIFO order, politeness gaps, setup steps first, the seen filter. */
#include "frontier/frontier.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static struct crawl_config config(void) {
  struct crawl_config cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.delay = 1.0;
  cfg.max_delay = 30;
  cfg.per_host = 1;
  cfg.concurrency = 64;
  cfg.expect = 1000;
  cfg.fp_rate = 1e-6;
  return cfg;
}

static core_seen *the_seen;

static core_seen *seen_filter(const struct crawl_config *cfg) {
  assert_int_equal(core_seen_create(CORE_SEEN_BLOOM, cfg->expect, cfg->fp_rate, 1, &the_seen),
                   CORE_OK);
  return the_seen;
}

static frontier_host *host(frontier *f, const char *origin) {
  frontier_host *h;
  bool created;
  assert_int_equal(frontier_host_get(f, origin, &h, &created), CORE_OK);
  return h;
}

static void push(frontier *f, frontier_host *h, frontier_kind kind, const char *url) {
  struct frontier_item *item = frontier_item_new(kind, url, NULL, 0);
  assert_non_null(item);
  frontier_push(f, h, item);
}

static void expect_pop(frontier *f, double now, const char *url) {
  frontier_host *h;
  struct frontier_item *item = frontier_pop(f, now, &h);
  if (!url) {
    if (item)
      fail_msg("at %.2f popped %s, want nothing", now, item->url);
    return;
  }
  if (!item)
    fail_msg("at %.2f popped nothing, want %s", now, url);
  assert_string_equal(item->url, url);
  frontier_item_free(item);
}

static void end(frontier *f, const char *origin, frontier_kind kind, double now) {
  frontier_end(f, host(f, origin), kind, now, 0.01);
}

static void test_fifo_and_delay(void **state) {
  (void)state;
  struct crawl_config cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a");
  push(f, a, FRONTIER_PAGE, "http://a/1");
  push(f, a, FRONTIER_PAGE, "http://a/2");
  assert_int_equal(frontier_queued(f), 2);
  expect_pop(f, 100.0, "http://a/1");
  expect_pop(f, 100.0, NULL); /* one in flight per host */
  end(f, "http://a", FRONTIER_PAGE, 100.5);
  assert_true(fabs(frontier_next_ready(f) - 101.5) < 1e-9); /* end + delay */
  expect_pop(f, 101.4, NULL);
  expect_pop(f, 101.5, "http://a/2");
  end(f, "http://a", FRONTIER_PAGE, 101.6);
  assert_true(isinf(frontier_next_ready(f)));
  frontier_destroy(f);
  core_seen_destroy(the_seen);
}

static void test_hosts_interleave_by_time(void **state) {
  (void)state;
  struct crawl_config cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a"), *b = host(f, "http://b");
  push(f, a, FRONTIER_PAGE, "http://a/1");
  push(f, a, FRONTIER_PAGE, "http://a/2");
  push(f, b, FRONTIER_PAGE, "http://b/1");
  push(f, b, FRONTIER_PAGE, "http://b/2");
  expect_pop(f, 10, "http://a/1");
  expect_pop(f, 10, "http://b/1");
  end(f, "http://b", FRONTIER_PAGE, 10.1);
  end(f, "http://a", FRONTIER_PAGE, 10.2);
  expect_pop(f, 11.15, "http://b/2"); /* b's gap ends first */
  expect_pop(f, 11.15, NULL);
  expect_pop(f, 11.2, "http://a/2");
  frontier_destroy(f);
  core_seen_destroy(the_seen);
}

static void test_setup_steps_first_and_block(void **state) {
  (void)state;
  struct crawl_config cfg = config();
  cfg.per_host = 4;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a");
  push(f, a, FRONTIER_PAGE, "http://a/1");
  push(f, a, FRONTIER_RESOLVE, "resolve");
  push(f, a, FRONTIER_ROBOTS, "http://a/robots.txt");
  expect_pop(f, 5, "resolve");
  expect_pop(f, 5, NULL); /* nothing while the lookup runs */
  end(f, "http://a", FRONTIER_RESOLVE, 5.1);
  expect_pop(f, 5.1, "http://a/robots.txt"); /* a lookup is no request: no gap */
  expect_pop(f, 5.1, NULL);                  /* pages wait for robots.txt */
  end(f, "http://a", FRONTIER_ROBOTS, 5.2);
  expect_pop(f, 6.1, NULL);
  expect_pop(f, 6.2, "http://a/1"); /* robots.txt counts for the delay */
  frontier_destroy(f);
  core_seen_destroy(the_seen);
}

static void test_crawl_delay_and_defer(void **state) {
  (void)state;
  struct crawl_config cfg = config();
  cfg.max_delay = 5;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a");
  frontier_host_set_crawl_delay(a, 60); /* capped at --max-delay */
  push(f, a, FRONTIER_PAGE, "http://a/1");
  push(f, a, FRONTIER_PAGE, "http://a/2");
  push(f, a, FRONTIER_PAGE, "http://a/3");
  expect_pop(f, 0, "http://a/1");
  end(f, "http://a", FRONTIER_PAGE, 1);
  expect_pop(f, 5.9, NULL);
  expect_pop(f, 6, "http://a/2");
  end(f, "http://a", FRONTIER_PAGE, 6);
  frontier_host_defer(f, a, 20); /* Retry-After */
  expect_pop(f, 19, NULL);
  expect_pop(f, 20, "http://a/3");
  frontier_destroy(f);
  core_seen_destroy(the_seen);
}

static void test_ip_delay(void **state) {
  (void)state;
  struct crawl_config cfg = config();
  cfg.delay = 0;
  cfg.ip_delay = 2;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a"), *b = host(f, "http://b");
  assert_int_equal(frontier_host_set_ip(f, a, "10.0.0.1"), CORE_OK);
  assert_int_equal(frontier_host_set_ip(f, b, "10.0.0.1"), CORE_OK);
  push(f, a, FRONTIER_PAGE, "http://a/1");
  push(f, b, FRONTIER_PAGE, "http://b/1");
  expect_pop(f, 0, "http://a/1");
  end(f, "http://a", FRONTIER_PAGE, 1);
  /* b's key was made before a's request ended: it is corrected at pop time */
  expect_pop(f, 2.9, NULL);
  expect_pop(f, 3, "http://b/1");
  frontier_destroy(f);
  core_seen_destroy(the_seen);
}

static void test_seen_and_drain(void **state) {
  (void)state;
  struct crawl_config cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, seen_filter(&cfg), NULL, &f), CORE_OK);
  bool fresh;
  assert_int_equal(frontier_mark_seen(f, "http://a/1", &fresh), CORE_OK);
  assert_true(fresh);
  assert_int_equal(frontier_mark_seen(f, "http://a/1", &fresh), CORE_OK);
  assert_false(fresh);
  for (int i = 0; i < 50; i++) {
    char origin[32], url[64];
    snprintf(origin, sizeof(origin), "http://h%d", i % 7);
    snprintf(url, sizeof(url), "%s/%d", origin, i);
    push(f, host(f, origin), FRONTIER_PAGE, url);
  }
  assert_int_equal(frontier_host_count(f), 7);
  size_t drained = 0;
  frontier_host *h;
  struct frontier_item *item;
  while ((item = frontier_drain(f, &h))) {
    drained++;
    frontier_item_free(item);
  }
  assert_int_equal(drained, 50);
  assert_int_equal(frontier_queued(f), 0);
  frontier_destroy(f);
  core_seen_destroy(the_seen);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fifo_and_delay),
      cmocka_unit_test(test_hosts_interleave_by_time),
      cmocka_unit_test(test_setup_steps_first_and_block),
      cmocka_unit_test(test_crawl_delay_and_defer),
      cmocka_unit_test(test_ip_delay),
      cmocka_unit_test(test_seen_and_drain),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
