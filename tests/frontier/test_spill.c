/* frontier/spill.c: pages past --queue-memory wait in the spill file in their order, with their
 * fields; the budget shared among hosts; a file that refuses pages keeps them in memory;
 * redirect targets, draining and visits reach the pages on disk; the file closed with the
 * frontier. */
#include "frontier/frontier.h"
#include "seen/seen.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "frontier_test.h"
#include "temp_fd.h"

/* Every page came back: nothing queued, nothing left on disk, no error; f and its filter go. */
static void expect_drained(frontier *f) {
  assert_int_equal(frontier_queued(f), 0);
  assert_int_equal(frontier_spilled(f), 0);
  assert_int_equal(frontier_error(f), CORE_OK);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* The descriptors the process holds open. */
static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  assert_non_null(d);
  int n = 0;
  while (readdir(d))
    n++;
  closedir(d);
  return n;
}

/* Past the memory budget, pages wait in the spill file and come back in order, whole; the file
 * is closed with the frontier (unlinked, its room on the disk goes back only then). */
static void test_spill_keeps_order_and_fields(void **state) {
  (void)state;
  int fds = open_fds();
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
  assert_int_equal(open_fds(), fds);
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

/* A broad crawl: many hosts of a few pages each, more hosts than the budget's pages. Past the
 * budget a host keeps none of its pages in memory and reads its first back at its turn, so the
 * pages in memory stay within the budget, not every host's whole queue (a host's share was 64
 * pages whatever the hosts, then one page a host: 2,000 here). */
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
  assert_true(in_memory <= 500); /* the budget, though the hosts are more */
  static int next_page[HOSTS];
  memset(next_page, 0, sizeof(next_page));
  for (int got = 0; got < HOSTS * PAGES; got++) {
    frontier_host *h;
    struct frontier_item *item = frontier_pop(f, 1, &h);
    assert_non_null(item);
    assert_true(frontier_queued(f) - frontier_spilled(f) <= 500);
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

/* A host of a broad crawl waits with every page on disk (more hosts than the budget's pages):
 * its first page is read back only when it may start, not while a shallower level is pending,
 * its request is in flight, or its page's retry time has not come (each would bring back every
 * waiting host's page at once, and the memory with it); then it starts at its time, in order. */
static void test_host_on_disk_waits_there(void **state) {
  (void)state;
  frontier *f = spilling_frontier(2);
  frontier_host *a = host(f, "http://a.example"), *b = host(f, "http://b.example");
  host(f, "http://c.example"); /* three hosts, a budget of two pages: a share of none */
  frontier_push(f, a, page_at("http://a.example/0", 0));
  frontier_push(f, a, page_at("http://a.example/1", 0)); /* the budget's two pages */
  frontier_push(f, b, page_at("http://b.example/1", 1));
  frontier_push(f, b, page_at("http://b.example/2", 1));
  assert_int_equal(frontier_spilled(f), 2); /* b's, all of them */
  expect_pop(f, 1, "http://a.example/0");
  end(f, "http://a.example", FRONTIER_PAGE, 1);
  expect_pop(f, 1, "http://a.example/1");
  /* depth 0 is pending (a's page in flight): b's level waits, and b's pages on disk */
  expect_pop(f, 1, NULL);
  assert_int_equal(frontier_spilled(f), 2);
  end(f, "http://a.example", FRONTIER_PAGE, 1);
  expect_pop(f, 1, "http://b.example/1");
  /* b's request in flight (one at a time): its next page stays on disk */
  expect_pop(f, 1, NULL);
  assert_int_equal(frontier_spilled(f), 1);
  frontier_host *h = b;
  struct frontier_item ended = {.kind = FRONTIER_PAGE, .depth = 1};
  frontier_end(f, h, &ended, 1, 0);
  frontier_release(f, 1);
  /* a retry due at 50 goes to the back, on disk, behind b/2 */
  struct frontier_item *retry = page_at("http://b.example/1", 1);
  retry->not_before = 50;
  retry->attempts = 1;
  frontier_push(f, b, retry);
  assert_int_equal(frontier_spilled(f), 2);
  expect_pop(f, 2, "http://b.example/2");
  frontier_end(f, h, &ended, 2, 0);
  frontier_release(f, 1);
  assert_int_equal(frontier_spilled(f), 1);
  expect_pop(f, 10, NULL); /* read back at its turn, and not due: it waits, in memory now */
  assert_int_equal(frontier_spilled(f), 0);
  assert_true(frontier_next_ready(f) == 50);
  struct frontier_item *again = frontier_pop(f, 50, &h);
  assert_non_null(again);
  assert_string_equal(again->url, "http://b.example/1");
  assert_int_equal(again->attempts, 1);
  frontier_end(f, h, again, 50, 0);
  frontier_release(f, 1);
  frontier_item_free(again);
  expect_drained(f);
}

/* The spill file fails a read (a disk error; here the file cut short) when a host waiting wholly
 * on disk comes to its turn: the host is not tried again and again (its turn would come at once,
 * for good), the pages in memory still come, and frontier_error says why, for the crawl to stop
 * with it rather than lose the pages quietly. */
static void test_spill_read_failure_is_an_error(void **state) {
  (void)state;
  frontier *f = spilling_frontier(1);
  frontier_host *a = host(f, "http://a.example"), *b = host(f, "http://b.example");
  frontier_push(f, a, page_at("http://a.example/0", 0)); /* the budget's one page */
  frontier_push(f, b, page_at("http://b.example/0", 0)); /* a share of none: b's is on disk */
  assert_int_equal(frontier_spilled(f), 1);
  int fd = temp_file_fd("queue");
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, 0), 0);
  frontier_host *h;
  struct frontier_item *item;
  int popped = 0;
  while ((item = frontier_pop(f, 1, &h))) {
    assert_string_equal(item->url, "http://a.example/0");
    frontier_item_free(item);
    popped++;
  }
  assert_int_equal(popped, 1);
  assert_int_equal(frontier_error(f), CORE_ESYS);
  assert_true(frontier_next_ready(f) == INFINITY);
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* With more than one request a host at a time (-c), a host whose robots.txt is being fetched
 * leaves its pages on disk too: nothing of it may start before the rules are known. */
static void test_host_on_disk_waits_for_its_robots(void **state) {
  (void)state;
  struct frontier_options cfg = config();
  cfg.delay = 0;
  cfg.per_host = 4;
  cfg.queue_memory = 1;
  frontier *f;
  assert_int_equal(frontier_create(&cfg, new_seen_filter(&cfg), NULL, &f), CORE_OK);
  frontier_host *a = host(f, "http://a.example"), *b = host(f, "http://b.example");
  /* two hosts, a budget of one page: a share of none, and b's page takes the budget */
  push(f, a, FRONTIER_ROBOTS, "http://a.example/robots.txt");
  push(f, b, FRONTIER_ROBOTS, "http://b.example/robots.txt");
  frontier_push(f, b, page_at("http://b.example/0", 0));
  frontier_push(f, a, page_at("http://a.example/0", 0));
  frontier_push(f, a, page_at("http://a.example/1", 0));
  assert_int_equal(frontier_spilled(f), 2); /* a's pages, all of them */
  expect_pop(f, 1, "http://a.example/robots.txt");
  expect_pop(f, 1, "http://b.example/robots.txt");
  expect_pop(f, 1, NULL); /* the pages wait for the rules, a's on disk */
  assert_int_equal(frontier_spilled(f), 2);
  end(f, "http://a.example", FRONTIER_ROBOTS, 1);
  expect_pop(f, 1, "http://a.example/0");
  expect_pop(f, 1, "http://a.example/1"); /* two at a time now */
  end(f, "http://b.example", FRONTIER_ROBOTS, 1);
  expect_pop(f, 1, "http://b.example/0");
  end(f, "http://a.example", FRONTIER_PAGE, 1);
  end(f, "http://a.example", FRONTIER_PAGE, 1);
  end(f, "http://b.example", FRONTIER_PAGE, 1);
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
  expect_drained(f);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spill_keeps_order_and_fields),
      cmocka_unit_test(test_spill_shares_budget_among_many_hosts),
      cmocka_unit_test(test_host_on_disk_waits_there),
      cmocka_unit_test(test_spill_read_failure_is_an_error),
      cmocka_unit_test(test_host_on_disk_waits_for_its_robots),
      cmocka_unit_test(test_taking_every_page_in_memory_brings_spilled_back),
      cmocka_unit_test(test_take_deeper_from_disk),
      cmocka_unit_test(test_spill_refused_keeps_every_page),
      cmocka_unit_test(test_spill_drains),
      cmocka_unit_test(test_visit_reaches_spilled_pages),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
