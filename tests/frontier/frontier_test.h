/* What the frontier's unit tests share (test_frontier.c, test_spill.c): a configuration, the
 * seen filter, and short ways to make hosts, push, pop and end. */
#ifndef CRAWL_TESTS_FRONTIER_TEST_H
#define CRAWL_TESTS_FRONTIER_TEST_H

#include "frontier/frontier.h"
#include "seen/seen.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static inline struct frontier_options config(void) {
  struct frontier_options cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.delay = 1.0;
  cfg.max_delay = 30;
  cfg.per_host = 1;
  return cfg;
}

static seen_filter *the_seen;

static inline seen_filter *new_seen_filter(const struct frontier_options *cfg) {
  (void)cfg;
  assert_int_equal(seen_create(SEEN_BLOOM, 1000, 1e-6, 1, &the_seen), CORE_OK);
  return the_seen;
}

static inline frontier_host *host(frontier *f, const char *origin) {
  frontier_host *h;
  bool created;
  assert_int_equal(frontier_host_get(f, origin, &h, &created), CORE_OK);
  return h;
}

static inline void push(frontier *f, frontier_host *h, frontier_kind kind, const char *url) {
  struct frontier_item *item = frontier_item_new(kind, url, NULL, 0);
  assert_non_null(item);
  frontier_push(f, h, item);
}

static inline void expect_pop(frontier *f, double now, const char *url) {
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

static inline void end(frontier *f, const char *origin, frontier_kind kind, double now) {
  struct frontier_item ended = {.kind = kind}; /* the tests' pages are all of depth 0 */
  frontier_end(f, host(f, origin), &ended, now, 0.01);
  if (kind == FRONTIER_PAGE)
    frontier_release(f, 0);
}

static inline struct frontier_item *page_at(const char *url, int depth) {
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, NULL, depth);
  assert_non_null(item);
  return item;
}

#endif
