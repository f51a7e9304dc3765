/* frontier/frontier.c: per-host FIFO order, politeness gaps, setup steps first, the seen filter. */
#include "frontier/frontier.h"
#include "seen/seen.h"

#include <math.h>
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frontier_test.h"

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

static void push_lookup(frontier *f, frontier_host *h, const char *name, double not_before) {
  struct frontier_item *item = frontier_item_new(FRONTIER_RESOLVE, name, NULL, 0);
  assert_non_null(item);
  item->not_before = not_before;
  frontier_push(f, h, item);
}

/* Lookups past the owner's bound wait out of turn, first come first served, and come back as
 * slots are given, due when they come back: they never hold back a host whose page may start, a
 * page due before they come back goes first, and none is popped twice. */
static void test_lookups_wait_for_slots(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  const char *names[] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; i++) {
    char origin[16];
    snprintf(origin, sizeof(origin), "http://%s", names[i]);
    push_lookup(f, host(f, origin), names[i], 1 + i);
  }
  struct frontier_item *page = page_at("http://e/1", 0); /* e's address is known */
  page->not_before = 4.5;                                /* due after every lookup */
  frontier_push(f, host(f, "http://e"), page);
  frontier_set_lookup_slots(f, 1, 10);
  expect_pop(f, 10, "a");
  expect_pop(f, 10, "http://e/1"); /* b, c and d wait; e's page does not wait behind them */
  expect_pop(f, 10, NULL);
  assert_int_equal(frontier_lookups_waiting(f), 3);
  assert_true(isinf(frontier_next_ready(f))); /* waiting hosts do not wake the owner */
  end(f, "http://a", FRONTIER_RESOLVE, 10.1);
  struct frontier_item *late = page_at("http://h/1", 0); /* due while b and c wait */
  late->not_before = 10.05;
  frontier_push(f, host(f, "http://h"), late);
  frontier_set_lookup_slots(f, 2, 10.1);
  assert_int_equal(frontier_lookups_waiting(f), 1);
  expect_pop(f, 10.1, "http://h/1"); /* due before b's and c's lookups came back */
  expect_pop(f, 10.1, "b");
  expect_pop(f, 10.1, "c");
  expect_pop(f, 10.1, NULL);
  frontier_set_lookup_slots(f, 0, 10.2);
  push_lookup(f, host(f, "http://g"), "g", 5); /* comes after d, though due before it */
  expect_pop(f, 10.2, NULL);
  assert_int_equal(frontier_lookups_waiting(f), 2);
  frontier_set_lookup_slots(f, 1, 10.2);
  expect_pop(f, 10.2, "d");
  expect_pop(f, 10.2, NULL);
  frontier_set_lookup_slots(f, SIZE_MAX, 10.2); /* the rest at once */
  expect_pop(f, 10.2, "g");
  assert_int_equal(frontier_lookups_waiting(f), 0);
  assert_int_equal(frontier_queued(f), 0);
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
      cmocka_unit_test(test_destroy_frees_what_is_queued),
      cmocka_unit_test(test_lookups_wait_for_slots),
      cmocka_unit_test(test_take_deeper),
      cmocka_unit_test(test_take_deeper_in_long_queues),
      cmocka_unit_test(test_shallower_pages_go_before_deeper_ones),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
