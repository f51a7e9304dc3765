/* What the shards of a run count together (crawl/budget.c), built from that file with mesh.c
 * (the run it counts in): -n never lets more pages start than it allows, however many threads
 * take them at once, nor with --cluster more than the lease from Redis; -c holds the requests in
 * flight to its number; --rate spaces requests strictly and gives back a turn no request used;
 * a failing spill file or stash is said once a run. */
#include "crawl/budget.h"
#include "crawl/mesh.h"
#include "crawl/run-int.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

static struct crawl *new_run(const struct crawl_config *cfg) {
  struct crawl *r = NULL;
  assert_int_equal(crawl__mesh_create(1, &r), CORE_OK);
  r->cfg = cfg;
  return r;
}

struct taker {
  struct crawl *run;
  long max_pages;
  long taken;
};

static void *take_pages(void *arg) {
  struct taker *t = arg;
  while (crawl__budget_take_page(t->run, t->max_pages))
    t->taken++;
  return NULL;
}

/* -n 10000 taken by four threads at once: 10,000 pages in all, never one more. */
static void test_max_pages_across_threads(void **state) {
  (void)state;
  struct crawl_config cfg = {.max_pages = 10000};
  struct crawl *r = new_run(&cfg);
  enum { THREADS = 4 };
  pthread_t threads[THREADS];
  struct taker takers[THREADS];
  for (int i = 0; i < THREADS; i++) {
    takers[i] = (struct taker){r, cfg.max_pages, 0};
    assert_int_equal(pthread_create(&threads[i], NULL, take_pages, &takers[i]), 0);
  }
  long total = 0;
  for (int i = 0; i < THREADS; i++) {
    assert_int_equal(pthread_join(threads[i], NULL), 0);
    total += takers[i].taken;
  }
  assert_int_equal(total, 10000);
  assert_int_equal(crawl__budget_pages_started(r), 10000);
  assert_true(crawl__budget_pages_exhausted(r, cfg.max_pages));
  assert_false(crawl__budget_take_page(r, cfg.max_pages));
  crawl__mesh_destroy(r);
}

/* No -n (< 0): every page may start, and the budget is never exhausted; a continued crawl's
 * pages count against -n from where it was. */
static void test_no_limit_and_a_continued_count(void **state) {
  (void)state;
  struct crawl_config cfg = {.max_pages = -1};
  struct crawl *r = new_run(&cfg);
  for (int i = 0; i < 1000; i++)
    assert_true(crawl__budget_take_page(r, -1));
  assert_false(crawl__budget_pages_exhausted(r, -1));
  assert_int_equal(crawl__budget_pages_started(r), 1000);
  crawl__budget_set_pages_started(r, 7); /* a --state crawl had started 7 */
  assert_true(crawl__budget_take_page(r, 9));
  assert_true(crawl__budget_take_page(r, 9));
  assert_false(crawl__budget_take_page(r, 9));
  assert_true(crawl__budget_pages_exhausted(r, 9));
  assert_false(crawl__budget_pages_exhausted(r, 10));
  crawl__mesh_destroy(r);
}

/* With --cluster, -n is leased from the run in Redis: no page starts beyond the lease, whatever
 * -n says here; a lease taken back leaves none; the budget is exhausted only once the run says
 * its pages are final. */
static void test_pages_leased_from_the_cluster(void **state) {
  (void)state;
  struct crawl_config cfg = {.max_pages = 100};
  struct crawl *r = new_run(&cfg);
  r->pages_leased = true; /* as run.c sets it for --cluster with -n */
  assert_true(crawl__budget_pages_leased(r));
  assert_false(crawl__budget_take_page(r, 100)); /* nothing leased yet */
  crawl__budget_lease_add(r, 3);
  assert_int_equal(crawl__budget_lease_left(r), 3);
  for (int i = 0; i < 3; i++)
    assert_true(crawl__budget_take_page(r, 100));
  assert_false(crawl__budget_take_page(r, 100));
  assert_int_equal(crawl__budget_pages_started(r), 3);
  assert_false(crawl__budget_pages_exhausted(r, 100)); /* the run may lease more */
  crawl__budget_lease_add(r, 5);
  assert_true(crawl__budget_take_page(r, 100));
  assert_int_equal(crawl__budget_lease_take_back(r), 4);
  assert_int_equal(crawl__budget_lease_left(r), 0);
  assert_false(crawl__budget_take_page(r, 100));
  crawl__budget_set_pages_final(r);
  assert_true(crawl__budget_pages_final(r));
  assert_true(crawl__budget_pages_exhausted(r, 100));
  crawl__mesh_destroy(r);
}

/* -c 3: three slots, then none until one is given back; a request begun without a slot counts
 * too. */
static void test_requests_in_flight(void **state) {
  (void)state;
  struct crawl_config cfg = {.concurrency = 3};
  struct crawl *r = new_run(&cfg);
  for (int i = 0; i < 3; i++) {
    assert_false(crawl__budget_slots_full(r, 3));
    assert_true(crawl__budget_take_slot(r, 3));
  }
  assert_true(crawl__budget_slots_full(r, 3));
  assert_false(crawl__budget_take_slot(r, 3));
  crawl__budget_give_slot(r, 3, 0);
  assert_false(crawl__budget_slots_full(r, 3));
  crawl__budget_count_slot(r); /* begun without one: full again */
  assert_true(crawl__budget_slots_full(r, 3));
  assert_false(crawl__budget_take_slot(r, 3));
  crawl__mesh_destroy(r);
}

/* --rate 4: a turn each 0.25 s, strictly (a burst after a pause starts no faster); a turn given
 * back with no request made lets the next start at once, unless another was taken since. */
static void test_rate_spaces_requests(void **state) {
  (void)state;
  struct crawl_config cfg = {.rate = 4};
  struct crawl *r = new_run(&cfg);
  double next = 0;
  assert_true(crawl__budget_take_rate(r, 100.0, &next));
  assert_true(next == 100.25);
  assert_false(crawl__budget_take_rate(r, 100.1, &next));
  assert_true(next == 100.25);
  assert_true(crawl__budget_take_rate(r, 100.25, &next));
  assert_true(next == 100.5);
  assert_true(crawl__budget_take_rate(r, 200.0, &next)); /* after a pause: one, then spaced */
  assert_false(crawl__budget_take_rate(r, 200.0, &next));
  crawl__budget_give_rate(r, 200.25); /* the turn at 200.0 made no request */
  assert_true(crawl__budget_take_rate(r, 200.0, &next));
  double taken = next;
  assert_true(crawl__budget_take_rate(r, taken, &next));
  crawl__budget_give_rate(r, taken); /* another was taken since: nothing changes */
  assert_false(crawl__budget_take_rate(r, taken, &next));
  crawl__mesh_destroy(r);
  struct crawl_config none = {.rate = 0};
  r = new_run(&none);
  for (int i = 0; i < 100; i++)
    assert_true(crawl__budget_take_rate(r, 5.0, &next));
  crawl__mesh_destroy(r);
}

static void test_failures_said_once(void **state) {
  (void)state;
  struct crawl_config cfg = {0};
  struct crawl *r = new_run(&cfg);
  assert_true(crawl__budget_warn_spill_once(r));
  assert_false(crawl__budget_warn_spill_once(r));
  assert_true(crawl__budget_warn_stash_once(r)); /* each its own */
  assert_false(crawl__budget_warn_stash_once(r));
  crawl__mesh_destroy(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_max_pages_across_threads),
      cmocka_unit_test(test_no_limit_and_a_continued_count),
      cmocka_unit_test(test_pages_leased_from_the_cluster),
      cmocka_unit_test(test_requests_in_flight),
      cmocka_unit_test(test_rate_spaces_requests),
      cmocka_unit_test(test_failures_said_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
