/* frontier/frontier.c: per-host FIFO order, politeness gaps, setup steps first, the seen filter. */
#include "frontier/frontier.h"
#include "seen/seen.h"

#include <math.h>
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <errno.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct frontier_options config(void) {
  struct frontier_options cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.delay = 1.0;
  cfg.max_delay = 30;
  cfg.per_host = 1;
  return cfg;
}

static seen_filter *the_seen;

static seen_filter *new_seen_filter(const struct frontier_options *cfg) {
  (void)cfg;
  assert_int_equal(seen_create(SEEN_BLOOM, 1000, 1e-6, 1, &the_seen), CORE_OK);
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
  struct frontier_item ended = {.kind = kind}; /* the tests' pages are all of depth 0 */
  frontier_end(f, host(f, origin), &ended, now, 0.01);
  if (kind == FRONTIER_PAGE)
    frontier_release(f, 0);
}

static void test_fifo_and_delay(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
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
  seen_destroy(the_seen);
}

static void test_hosts_interleave_by_time(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
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
  seen_destroy(the_seen);
}

/* Many hosts whose gaps end in a scrambled order: each is given out exactly when its gap ends,
 * earliest first, and frontier_next_ready always names the earliest (the host heap's order, at
 * every size from 64 down). */
static void test_many_hosts_by_time(void **state) {
  (void)state;
  enum { HOSTS = 64 };
  struct frontier_options cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  char origin[HOSTS][16], url[32];
  for (int i = 0; i < HOSTS; i++) {
    snprintf(origin[i], sizeof(origin[i]), "http://h%d", i);
    frontier_host *h = host(f, origin[i]);
    snprintf(url, sizeof(url), "%.15s/1", origin[i]);
    push(f, h, FRONTIER_PAGE, url);
    snprintf(url, sizeof(url), "%.15s/2", origin[i]);
    push(f, h, FRONTIER_PAGE, url);
  }
  for (int i = 0; i < HOSTS; i++) {
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 100, &h);
    assert_non_null(item);
    frontier_item_free(item);
  }
  expect_pop(f, 100, NULL);
  /* host i ends at 100 + rank(i) / 100, rank a permutation of 0..63 (37 is prime to 64) */
  for (int i = 0; i < HOSTS; i++)
    end(f, origin[i], FRONTIER_PAGE, 100 + (double)((i * 37) % HOSTS) / 100);
  for (int rank = 0; rank < HOSTS; rank++) {
    int i = 0;
    while ((i * 37) % HOSTS != rank)
      i++;
    double ready = 101 + (double)rank / 100; /* its end and the 1 s delay */
    if (fabs(frontier_next_ready(f) - ready) > 1e-9)
      fail_msg("rank %d: next ready %.4f, want %.4f", rank, frontier_next_ready(f), ready);
    expect_pop(f, ready - 0.001, NULL);
    snprintf(url, sizeof(url), "%.15s/2", origin[i]);
    expect_pop(f, ready, url);
  }
  frontier_destroy(f);
  seen_destroy(the_seen);
}

static void test_setup_steps_first_and_block(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.per_host = 4;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
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
  seen_destroy(the_seen);
}

/* A lookup retried after robots.txt was queued goes back in front of it: robots.txt cannot be
 * fetched without the host's address. */
static void test_lookup_retry_before_robots(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a");
  push(f, a, FRONTIER_RESOLVE, "resolve");
  push(f, a, FRONTIER_ROBOTS, "http://a/robots.txt");
  push(f, a, FRONTIER_PAGE, "http://a/1");
  frontier_host *h;
  struct frontier_item *lookup = frontier_pop(f, 5, &h);
  assert_string_equal(lookup->url, "resolve");
  frontier_end(f, a, lookup, 5.1, 0); /* it failed: back in the queue, to be tried again */
  lookup->not_before = 5.6;
  frontier_push(f, a, lookup);
  expect_pop(f, 5.2, NULL); /* not robots.txt: the lookup is first, and not due yet */
  expect_pop(f, 5.6, "resolve");
  end(f, "http://a", FRONTIER_RESOLVE, 5.7);
  expect_pop(f, 5.7, "http://a/robots.txt");
  frontier_destroy(f);
  seen_destroy(the_seen);
}

static void test_crawl_delay_and_defer(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.max_delay = 5;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
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
  seen_destroy(the_seen);
}

/* --ip-delay 2, no --delay: hosts a and b on one address, a page queued on each. */
static frontier *two_hosts_one_address(void) {
  struct frontier_options cfg = config();
  cfg.delay = 0;
  cfg.ip_delay = 2;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a"), *b = host(f, "http://b");
  assert_int_equal(frontier_host_set_ip(f, a, "10.0.0.1"), CORE_OK);
  assert_int_equal(frontier_host_set_ip(f, b, "10.0.0.1"), CORE_OK);
  push(f, a, FRONTIER_PAGE, "http://a/1");
  push(f, b, FRONTIER_PAGE, "http://b/1");
  return f;
}

static void test_ip_delay(void **state) {
  (void)state;
  frontier *f = two_hosts_one_address();
  expect_pop(f, 0, "http://a/1");
  end(f, "http://a", FRONTIER_PAGE, 1);
  /* b's key was made before a's request ended: it is corrected at pop time */
  expect_pop(f, 2.9, NULL);
  expect_pop(f, 3, "http://b/1");
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* One request at a time per address, the gap between (doc/behaviour.md: the same gap as --delay): b
 * does not start while a's request to their address is in flight, however early its own key. */
static void test_ip_delay_takes_turns(void **state) {
  (void)state;
  frontier *f = two_hosts_one_address();
  expect_pop(f, 0, "http://a/1");
  expect_pop(f, 0.5, NULL); /* a's request is in flight */
  end(f, "http://a", FRONTIER_PAGE, 4);
  expect_pop(f, 5.9, NULL);
  expect_pop(f, 6, "http://b/1");
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* The shards of a crawl: two frontiers share one table of addresses, so their hosts of one
 * address take turns as hosts of one frontier do. */
static void test_ip_delay_across_frontiers(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 0;
  cfg.ip_delay = 2;
  frontier_ip_table *ips;
  assert_int_equal(frontier_ip_table_create(&ips), CORE_OK);
  cfg.ip_table = ips;
  frontier *f1, *f2;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f1), CORE_OK);
  assert_int_equal(frontier_create(&cfg, the_seen, NULL, &f2), CORE_OK);
  frontier_host *a = host(f1, "http://a"), *b = host(f2, "http://b");
  assert_int_equal(frontier_host_set_ip(f1, a, "10.0.0.1"), CORE_OK);
  assert_int_equal(frontier_host_set_ip(f2, b, "10.0.0.1"), CORE_OK);
  push(f1, a, FRONTIER_PAGE, "http://a/1");
  push(f2, b, FRONTIER_PAGE, "http://b/1");
  push(f2, b, FRONTIER_PAGE, "http://b/2");
  expect_pop(f2, 0, "http://b/1");
  expect_pop(f1, 0, NULL); /* b's request, in the other frontier, is in flight */
  end(f2, "http://b", FRONTIER_PAGE, 1);
  expect_pop(f1, 2.9, NULL);
  expect_pop(f1, 3, "http://a/1");
  expect_pop(f2, 3.5, NULL); /* now a's */
  end(f1, "http://a", FRONTIER_PAGE, 3.5);
  expect_pop(f2, 5.5, "http://b/2");
  frontier_destroy(f1);
  frontier_destroy(f2);
  frontier_ip_table_destroy(ips);
  seen_destroy(the_seen);
}

static void test_seen_and_drain(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
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
  seen_destroy(the_seen);
}

static struct frontier_item *page_at(const char *url, int depth) {
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, NULL, depth);
  assert_non_null(item);
  return item;
}

/* Breadth first across hosts: no page starts while a shallower one is queued or being fetched
 * anywhere, however the hosts' delays fall; within a host, a retry of the current depth goes
 * behind that depth's pages and before deeper ones. */
static void test_depth_gate(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 1;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a"), *b = host(f, "http://b");
  frontier_push(f, a, page_at("http://a/0", 0));
  frontier_push(f, a, page_at("http://a/0b", 0));
  frontier_push(f, b, page_at("http://b/1", 1));
  frontier_host *h;
  struct frontier_item *item = frontier_pop(f, 0, &h);
  assert_string_equal(item->url, "http://a/0");
  /* b is ready, but a's second depth-0 page waits for a's delay: b waits with it */
  assert_null(frontier_pop(f, 0.5, &h));
  frontier_end(f, a, item, 0.5, 0.01);
  frontier_release(f, 0);
  frontier_item_free(item);
  assert_null(frontier_pop(f, 1.0, &h));
  assert_true(frontier_next_ready(f) == 1.5);
  item = frontier_pop(f, 1.5, &h);
  assert_string_equal(item->url, "http://a/0b");
  /* while it is being fetched, its links may still come: b still waits */
  assert_null(frontier_pop(f, 1.6, &h));
  frontier_push(f, a, page_at("http://a/1", 1));
  /* it fails and is retried: behind a's other depth-0 pages (none), before a/1 */
  frontier_end(f, a, item, 1.7, 0.01);
  item->not_before = 0;
  frontier_push(f, a, item);
  frontier_release(f, 0);
  item = frontier_pop(f, 2.7, &h);
  assert_string_equal(item->url, "http://a/0b");
  assert_null(frontier_pop(f, 2.7, &h)); /* b's page is deeper */
  frontier_end(f, a, item, 2.8, 0.01);
  assert_null(frontier_pop(f, 2.8, &h)); /* ended, but its links are not offered yet */
  frontier_release(f, 0);
  frontier_item_free(item);
  /* depth 0 done: depth 1 goes, on both hosts */
  item = frontier_pop(f, 2.8, &h);
  assert_string_equal(item->url, "http://b/1");
  frontier_end(f, b, item, 2.8, 0.01);
  frontier_release(f, 1);
  frontier_item_free(item);
  item = frontier_pop(f, 3.8, &h);
  assert_string_equal(item->url, "http://a/1");
  frontier_end(f, a, item, 3.8, 0.01);
  frontier_release(f, 1);
  frontier_item_free(item);
  assert_int_equal(frontier_queued(f), 0);
  /* a shallower page queued later (a sitemap's seeds) holds the deeper ones back again */
  frontier_push(f, b, page_at("http://b/3", 3));
  frontier_push(f, a, page_at("http://a/seed", 0));
  item = frontier_pop(f, 10, &h);
  assert_string_equal(item->url, "http://a/seed");
  assert_null(frontier_pop(f, 10, &h));
  frontier_cancel(f, a, item);
  frontier_release(f, 0);
  frontier_item_free(item);
  /* with the lookahead, one level deeper may start: a page of depth 4 while 3 is pending */
  frontier_push(f, a, page_at("http://a/4", 4));
  item = frontier_pop(f, 10, &h);
  assert_string_equal(item->url, "http://b/3");
  assert_null(frontier_pop(f, 20, &h));
  frontier_set_lookahead(f, 1);
  struct frontier_item *ahead = frontier_pop(f, 20, &h);
  assert_string_equal(ahead->url, "http://a/4");
  assert_int_equal(frontier_gate(f), 3);
  frontier_release(f, 3);
  assert_int_equal(frontier_gate(f), 4); /* the page ahead is pending until released */
  frontier_release(f, 4);
  assert_int_equal(frontier_gate(f), INT_MAX);
  frontier_item_free(ahead);
  frontier_item_free(item);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* A page whose depth falls between spilled pages cannot be put in its place: its host leaves
 * the depth gate until its queue empties, so nothing waits forever behind it. */
static void test_depth_gate_spill_out_of_order(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 0;
  cfg.queue_memory = 1;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a");
  char url[64];
  for (int i = 0; i < 200; i++) { /* one in memory, the rest spilled: depth 1, then depth 3 */
    snprintf(url, sizeof(url), "http://a/%d", i);
    frontier_push(f, a, page_at(url, i < 100 ? 1 : 3));
  }
  assert_true(frontier_spilled(f) > 0);
  frontier_push(f, a, page_at("http://a/between", 2));
  int popped = 0;
  frontier_host *h;
  struct frontier_item *item;
  while ((item = frontier_pop(f, 1, &h))) {
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    frontier_item_free(item);
    popped++;
  }
  assert_int_equal(popped, 201);
  assert_int_equal(frontier_queued(f), 0);
  assert_int_equal(frontier_gate(f), INT_MAX);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* Every page came back: nothing queued, nothing left on disk, no error; f and its filter go. */
static void expect_drained(frontier *f) {
  assert_int_equal(frontier_queued(f), 0);
  assert_int_equal(frontier_spilled(f), 0);
  assert_int_equal(frontier_error(f), CORE_OK);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* Past the memory budget, pages wait in the spill file and come back in order, whole. */
static void test_spill_keeps_order_and_fields(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 0;
  cfg.queue_memory = 100; /* pages in memory across hosts; each host keeps at least 64 */
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example"), *b = host(f, "http://b.example");
  enum { N = 3000 };
  char url[128], from[128];
  for (int i = 0; i < N; i++) {
    frontier_host *h = i % 3 ? a : b;
    snprintf(url, sizeof(url), "http://%c.example/%d.html", i % 3 ? 'a' : 'b', i);
    snprintf(from, sizeof(from), "http://%c.example/from/%d", i % 3 ? 'a' : 'b', i);
    struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, i % 7 ? from : NULL, i);
    assert_non_null(item);
    item->attempts = i % 4;
    item->redirects = i % 5;
    item->flags = (unsigned)i * 3u;
    item->not_before = i % 11 ? 0 : 0.5;
    frontier_push(f, h, item);
  }
  assert_int_equal(frontier_queued(f), N);
  assert_true(frontier_spilled(f) > N / 2); /* most of them are on disk */
  /* each host gives its pages back in the order they came, every field intact; a retry pushed
   * midway, as deep as the deepest, goes to the back, behind everything spilled */
  int next_a = 1, next_b = 0;
  bool again_seen = false;
  for (int got = 0; got < N + 1; got++) {
    if (got == 10) {
      struct frontier_item *again =
          frontier_item_new(FRONTIER_PAGE, "http://b.example/again", NULL, N);
      assert_non_null(again);
      frontier_push(f, b, again);
    }
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    if (strcmp(item->url, "http://b.example/again") == 0) {
      assert_true(next_b >= N); /* every other page of b came first */
      again_seen = true;
      frontier_item_free(item);
      continue;
    }
    int i = item->depth;
    if (h == a) {
      assert_int_equal(i, next_a);
      next_a += next_a % 3 == 1 ? 1 : 2;
    } else {
      assert_ptr_equal(h, b);
      assert_int_equal(i, next_b);
      next_b += 3;
    }
    snprintf(url, sizeof(url), "http://%c.example/%d.html", i % 3 ? 'a' : 'b', i);
    assert_string_equal(item->url, url);
    if (i % 7) {
      snprintf(from, sizeof(from), "http://%c.example/from/%d", i % 3 ? 'a' : 'b', i);
      assert_string_equal(item->from, from);
    } else {
      assert_null(item->from);
    }
    assert_int_equal(item->attempts, i % 4);
    assert_int_equal(item->redirects, i % 5);
    assert_int_equal(item->flags, (unsigned)i * 3u);
    assert_true(item->not_before == (i % 11 ? 0 : 0.5));
    assert_int_equal(item->kind, FRONTIER_PAGE);
    frontier_item_free(item);
  }
  assert_true(again_seen);
  expect_drained(f);
}

/* A frontier with no delay and a budget of queue_memory pages in memory, the spill tests'. */
static frontier *spilling_frontier(uint64_t queue_memory) {
  struct frontier_options cfg = config();
  cfg.delay = 0;
  cfg.queue_memory = queue_memory;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  return f;
}

/* A broad crawl: many hosts of a few pages each. Past the budget a host keeps one page in
 * memory and brings one back at a time, so the pages in memory stay near the budget or the
 * host count, not every host's whole queue (a host's share was 64 pages whatever the hosts). */
static void test_spill_shares_budget_among_many_hosts(void **state) {
  (void)state;
  frontier *f = spilling_frontier(500);
  enum { HOSTS = 2000, PAGES = 5 };
  static frontier_host *hosts[HOSTS];
  char url[128];
  for (int i = 0; i < HOSTS; i++) {
    snprintf(url, sizeof(url), "http://h%d.example", i);
    hosts[i] = host(f, url);
  }
  for (int p = 0; p < PAGES; p++)
    for (int i = 0; i < HOSTS; i++) {
      snprintf(url, sizeof(url), "http://h%d.example/%d", i, p);
      push(f, hosts[i], FRONTIER_PAGE, url);
    }
  assert_int_equal(frontier_queued(f), HOSTS * PAGES);
  size_t in_memory = frontier_queued(f) - frontier_spilled(f);
  assert_true(in_memory <= HOSTS); /* one a host: the budget is under the hosts' count */
  static int next_page[HOSTS];
  memset(next_page, 0, sizeof(next_page));
  for (int got = 0; got < HOSTS * PAGES; got++) {
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    assert_true(frontier_queued(f) - frontier_spilled(f) <= HOSTS);
    int i, p;
    assert_int_equal(sscanf(item->url, "http://h%d.example/%d", &i, &p), 2);
    assert_ptr_equal(h, hosts[i]);
    assert_int_equal(p, next_page[i]++); /* each host's pages in the order they came */
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, 0);
    frontier_item_free(item);
  }
  for (int i = 0; i < HOSTS; i++)
    assert_int_equal(next_page[i], PAGES);
  expect_drained(f);
}

/* Every page a host has in memory taken out (fetched ahead, or moved up by a redirect): its
 * spilled pages come back, or nothing would bring them back and the crawl would stall. */
static void test_taking_every_page_in_memory_brings_spilled_back(void **state) {
  (void)state;
  frontier *f = spilling_frontier(1);
  frontier_host *a = host(f, "http://a.example");
  enum { N = 200 };
  char url[64];
  for (int i = 0; i < N; i++) {
    snprintf(url, sizeof(url), "http://a.example/%d", i);
    push(f, a, FRONTIER_PAGE, url);
  }
  size_t in_memory = frontier_queued(f) - frontier_spilled(f);
  assert_true(in_memory > 0 && frontier_spilled(f) > 0);
  for (size_t i = 0; i < in_memory; i++) { /* the first pages are the ones in memory */
    snprintf(url, sizeof(url), "http://a.example/%zu", i);
    struct frontier_item *taken = frontier_take_deeper(f, a, url, -1);
    assert_non_null(taken);
    frontier_item_free(taken);
  }
  for (size_t i = in_memory; i < N; i++) {
    snprintf(url, sizeof(url), "http://a.example/%zu", i);
    expect_pop(f, 1, url);
    end(f, "http://a.example", FRONTIER_PAGE, 1);
  }
  expect_pop(f, 1, NULL);
  expect_drained(f);
}

static core_rc collect_visit(void *arg, frontier_host *h, const struct frontier_item *item) {
  (void)h;
  int *seen = arg;
  int i;
  assert_int_equal(sscanf(item->url, "http://a.example/%d", &i), 1);
  seen[i]++;
  return CORE_OK;
}

/* A redirect's target queued deeper moves up when it waits on disk too: frontier_take_deeper
 * reads it back and its record is passed over at its turn and by a visit (a checkpoint), so it
 * is neither lost nor fetched twice. One that is not deeper, or was taken already, stays. */
static void test_take_deeper_from_disk(void **state) {
  (void)state;
  frontier *f = spilling_frontier(1);
  frontier_host *a = host(f, "http://a.example");
  enum { N = 100 };
  char url[64];
  for (int i = 0; i < N; i++) {
    snprintf(url, sizeof(url), "http://a.example/%d", i);
    frontier_push(f, a, page_at(url, 5));
  }
  assert_int_equal(frontier_spilled(f), N - 1); /* one host, a budget of one: one in memory */
  assert_null(frontier_take_deeper(f, a, "http://a.example/50", 5)); /* not deeper */
  int taken[] = {50, 1, 99}; /* the middle, the first on disk, the last */
  for (size_t t = 0; t < 3; t++) {
    snprintf(url, sizeof(url), "http://a.example/%d", taken[t]);
    struct frontier_item *item = frontier_take_deeper(f, a, url, 3);
    assert_non_null(item);
    assert_string_equal(item->url, url);
    assert_int_equal(item->depth, 5);
    frontier_item_free(item);
    assert_null(frontier_take_deeper(f, a, url, 3)); /* once */
  }
  assert_int_equal(frontier_queued(f), N - 3);
  assert_int_equal(frontier_spilled(f), N - 4);
  int seen[N] = {0};
  assert_int_equal(frontier_visit(f, NULL, collect_visit, seen), CORE_OK);
  for (int i = 0; i < N; i++)
    assert_int_equal(seen[i], i == 50 || i == 1 || i == 99 ? 0 : 1);
  for (int i = 0; i < N; i++) {
    if (i == 50 || i == 1 || i == 99)
      continue;
    snprintf(url, sizeof(url), "http://a.example/%d", i);
    expect_pop(f, 1, url);
    end(f, "http://a.example", FRONTIER_PAGE, 1);
    frontier_release(f, 5);
  }
  expect_pop(f, 1, NULL);
  expect_drained(f);
}

/* A spill file that stops taking pages (a full disk, here a file size limit): the pages it
 * refused stay in memory, counted and said why, and every page comes back once. (Not in the
 * order they came: the refused ones wait in memory, ahead of those on disk.) */
static void test_spill_refused_keeps_every_page(void **state) {
  (void)state;
  struct rlimit was;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
  struct rlimit small = {64 * 1024, was.rlim_max};
  void (*had)(int) = signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG */
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  struct frontier_options cfg = config();
  cfg.delay = 0;
  cfg.queue_memory = 100;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example");
  enum { N = 3000 }; /* about 190 KB of spill records: the file takes the first third */
  char url[128];
  for (int i = 0; i < N; i++) {
    snprintf(url, sizeof(url), "http://a.example/%d.html", i);
    struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, NULL, 0);
    assert_non_null(item);
    frontier_push(f, a, item);
  }
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
  signal(SIGXFSZ, had);
  int why = 0;
  uint64_t refused = frontier_spill_refused(f, &why);
  assert_true(refused > N / 3); /* the limit was reached */
  assert_true(frontier_spilled(f) > 0 && frontier_spilled(f) < N - refused);
  assert_int_equal(why, EFBIG);
  assert_int_equal(frontier_queued(f), N);
  static bool back[N];
  memset(back, 0, sizeof(back));
  for (int i = 0; i < N; i++) {
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    int n = -1;
    assert_int_equal(sscanf(item->url, "http://a.example/%d.html", &n), 1);
    assert_true(n >= 0 && n < N && !back[n]);
    back[n] = true;
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    frontier_item_free(item);
  }
  assert_int_equal(frontier_queued(f), 0);
  assert_int_equal(frontier_error(f), CORE_OK);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* A frontier ended with pages and sitemaps still queued frees them all (the sanitizers' run sees
 * a leak): a crawl stopped by -n or a signal ends so. */
static void test_destroy_frees_what_is_queued(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a");
  push(f, a, FRONTIER_PAGE, "http://a/1");
  push(f, a, FRONTIER_SITEMAP, "http://a/sitemap.xml");
  push(f, a, FRONTIER_SITEMAP, "http://a/sitemap2.xml");
  assert_int_equal(frontier_queued(f), 3);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* Draining (the end of a crawl, a host whose lookup failed) reaches spilled pages too. */
static void test_spill_drains(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.queue_memory = 1;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example"), *b = host(f, "http://b.example");
  char url[64];
  for (int i = 0; i < 500; i++) {
    snprintf(url, sizeof(url), "http://x.example/%d", i);
    push(f, i < 300 ? a : b, FRONTIER_PAGE, url);
  }
  assert_true(frontier_spilled(f) > 0);
  int n = 0;
  struct frontier_item *item;
  while ((item = frontier_drain_host(f, a))) {
    snprintf(url, sizeof(url), "http://x.example/%d", n++);
    assert_string_equal(item->url, url);
    frontier_item_free(item);
  }
  assert_int_equal(n, 300);
  frontier_host *h;
  while ((item = frontier_drain(f, &h))) {
    assert_ptr_equal(h, b);
    snprintf(url, sizeof(url), "http://x.example/%d", n++);
    assert_string_equal(item->url, url);
    frontier_item_free(item);
  }
  assert_int_equal(n, 500);
  assert_int_equal(frontier_queued(f), 0);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* A checkpoint visits every queued page, those on disk included, in each host's order, and
 * changes nothing. */
struct visited {
  int count[2];
  int next[2];
  frontier_host *a;
};

static core_rc count_visit(void *arg, frontier_host *h, const struct frontier_item *item) {
  struct visited *v = arg;
  int which = h == v->a ? 0 : 1;
  if (item->kind != FRONTIER_PAGE)
    return CORE_OK;
  char url[64];
  snprintf(url, sizeof(url), "http://x.example/%d", v->next[which]);
  assert_string_equal(item->url, url);
  v->next[which]++;
  v->count[which]++;
  return CORE_OK;
}

static void test_visit_reaches_spilled_pages(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.queue_memory = 1;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example"), *b = host(f, "http://b.example");
  char url[64];
  push(f, a, FRONTIER_ROBOTS, "http://a.example/robots.txt");
  for (int i = 0; i < 500; i++) {
    snprintf(url, sizeof(url), "http://x.example/%d", i);
    push(f, i < 300 ? a : b, FRONTIER_PAGE, url);
  }
  assert_true(frontier_spilled(f) > 0);
  struct visited v = {{0, 0}, {0, 300}, a};
  for (int round = 0; round < 2; round++) { /* twice: the first visit took nothing */
    v.count[0] = v.count[1] = 0;
    v.next[0] = 0;
    v.next[1] = 300;
    assert_int_equal(frontier_visit(f, NULL, count_visit, &v), CORE_OK);
    assert_int_equal(v.count[0], 300);
    assert_int_equal(v.count[1], 200);
  }
  assert_int_equal(frontier_queued(f), 501);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* A redirect target queued before as a deeper link moves up to the redirect's depth, and the
 * depth gate counts it there; found however far back in a long queue, and never in another
 * host's queue. */
static void test_take_deeper(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 0;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example");
  const char *urls[] = {"http://a.example/1", "http://a.example/2", "http://a.example/3"};
  int depths[] = {1, 2, 2};
  for (int i = 0; i < 3; i++) {
    struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, urls[i], NULL, depths[i]);
    assert_non_null(item);
    frontier_push(f, a, item);
  }
  assert_null(frontier_take_deeper(f, a, "http://a.example/3", 2)); /* not deeper */
  assert_null(frontier_take_deeper(f, a, "http://a.example/9", 1)); /* not queued */
  frontier_host *b = host(f, "http://b.example");
  assert_null(frontier_take_deeper(f, b, "http://a.example/3", 1)); /* not that host's */
  struct frontier_item *old = frontier_take_deeper(f, a, "http://a.example/3", 1);
  assert_non_null(old);
  assert_int_equal(old->depth, 2);
  frontier_item_free(old);
  assert_int_equal(frontier_queued(f), 2);
  struct frontier_item *moved = frontier_item_new(FRONTIER_PAGE, "http://a.example/3", NULL, 1);
  frontier_push(f, a, moved);
  /* depth 1 first: /1, then /3 ahead of /2 */
  const char *want[] = {"http://a.example/1", "http://a.example/3", "http://a.example/2"};
  for (int i = 0; i < 3; i++) {
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    assert_string_equal(item->url, want[i]);
    assert_int_equal(frontier_gate(f), i < 2 ? 1 : 2);
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    frontier_item_free(item);
  }
  assert_int_equal(frontier_gate(f), INT_MAX);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* The index of pages in memory follows every change of the queues: 5,000 pages of one host (the
 * index grows, entries shift back as others leave), each taken from the middle or popped, in
 * order, and what is left comes out whole. */
static void test_take_deeper_in_long_queues(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 0;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example");
  enum { N = 5000 };
  char url[64];
  for (int i = 0; i < N; i++) {
    snprintf(url, sizeof(url), "http://a.example/%d", i);
    frontier_push(f, a, frontier_item_new(FRONTIER_PAGE, url, NULL, 2));
  }
  /* every third page, from the back of the queue to its front */
  for (int i = N - 1; i >= 0; i--) {
    snprintf(url, sizeof(url), "http://a.example/%d", i);
    struct frontier_item *old = frontier_take_deeper(f, a, url, i % 3 == 0 ? 1 : 2);
    assert_true((old != NULL) == (i % 3 == 0));
    if (old) {
      assert_string_equal(old->url, url);
      assert_null(frontier_take_deeper(f, a, url, 1)); /* gone */
    }
    frontier_item_free(old);
  }
  for (int i = 0; i < N; i++) {
    if (i % 3 == 0)
      continue;
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    snprintf(url, sizeof(url), "http://a.example/%d", i);
    assert_string_equal(item->url, url);
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    frontier_item_free(item);
    if (i % 7 == 1 && i + 1 < N && (i + 1) % 3) { /* one taken while others are popped */
      snprintf(url, sizeof(url), "http://a.example/%d", i + 1);
      struct frontier_item *moved = frontier_take_deeper(f, a, url, 1);
      assert_non_null(moved);
      moved->depth = 1;
      frontier_push(f, a, moved); /* shallower than the rest: next */
    }
  }
  assert_int_equal(frontier_queued(f), 0);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* Pages of a smaller depth queued behind deeper ones go before them, in the order they came, also
 * while the first deeper page is popped under them and when a page of another depth comes. */
static void test_shallower_pages_go_before_deeper_ones(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 0;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example");
  char url[64];
  for (int i = 0; i < 50; i++) {
    snprintf(url, sizeof(url), "http://a.example/b%d", i);
    frontier_push(f, a, frontier_item_new(FRONTIER_PAGE, url, NULL, 2));
  }
  const char *steps[] = {"+a0:1", "+a1:1", "-a0",   "+a2:1", "-a1",   "-a2", "-b0", "+a3:1",
                         "-a3",   "+c0:3", "+a4:1", "+d0:2", "+a5:1", "-a4", "-a5"};
  for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
    const char *step = steps[i];
    if (step[0] == '+') {
      snprintf(url, sizeof(url), "http://a.example/%.*s", (int)(strchr(step, ':') - step - 1),
               step + 1);
      frontier_push(f, a, frontier_item_new(FRONTIER_PAGE, url, NULL, atoi(strchr(step, ':') + 1)));
      continue;
    }
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    snprintf(url, sizeof(url), "http://a.example/%s", step + 1);
    assert_string_equal(item->url, url);
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    frontier_item_free(item);
  }
  /* what is left: b1 to b49, then d0 (depth 2, last of its depth), then c0 (depth 3) */
  for (int i = 1; i <= 51; i++) {
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    if (i < 50)
      snprintf(url, sizeof(url), "http://a.example/b%d", i);
    else
      snprintf(url, sizeof(url), "http://a.example/%s", i == 50 ? "d0" : "c0");
    assert_string_equal(item->url, url);
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    frontier_item_free(item);
  }
  assert_int_equal(frontier_queued(f), 0);
  /* none deeper than depth 1 was left; a deeper page comes, then one of depth 1: before it */
  frontier_push(f, a, frontier_item_new(FRONTIER_PAGE, "http://a.example/x", NULL, 2));
  frontier_push(f, a, frontier_item_new(FRONTIER_PAGE, "http://a.example/y", NULL, 1));
  const char *last[] = {"http://a.example/y", "http://a.example/x"};
  for (int i = 0; i < 2; i++) {
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    assert_string_equal(item->url, last[i]);
    frontier_end(f, h, item, 1, 0);
    frontier_release(f, item->depth);
    frontier_item_free(item);
  }
  frontier_destroy(f);
  seen_destroy(the_seen);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fifo_and_delay),
      cmocka_unit_test(test_hosts_interleave_by_time),
      cmocka_unit_test(test_many_hosts_by_time),
      cmocka_unit_test(test_setup_steps_first_and_block),
      cmocka_unit_test(test_lookup_retry_before_robots),
      cmocka_unit_test(test_crawl_delay_and_defer),
      cmocka_unit_test(test_ip_delay),
      cmocka_unit_test(test_ip_delay_takes_turns),
      cmocka_unit_test(test_ip_delay_across_frontiers),
      cmocka_unit_test(test_seen_and_drain),
      cmocka_unit_test(test_depth_gate),
      cmocka_unit_test(test_depth_gate_spill_out_of_order),
      cmocka_unit_test(test_spill_keeps_order_and_fields),
      cmocka_unit_test(test_spill_shares_budget_among_many_hosts),
      cmocka_unit_test(test_taking_every_page_in_memory_brings_spilled_back),
      cmocka_unit_test(test_take_deeper_from_disk),
      cmocka_unit_test(test_spill_refused_keeps_every_page),
      cmocka_unit_test(test_destroy_frees_what_is_queued),
      cmocka_unit_test(test_spill_drains),
      cmocka_unit_test(test_visit_reaches_spilled_pages),
      cmocka_unit_test(test_take_deeper),
      cmocka_unit_test(test_take_deeper_in_long_queues),
      cmocka_unit_test(test_shallower_pages_go_before_deeper_ones),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
