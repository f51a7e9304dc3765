/* Scheduling (crawl/schedule.c), built from that file and the files below it that it hands items
 * to (request, sitefiles, seed, restore, logins and the intake's), no stand-ins, over a real
 * frontier, fetch engine and loop, with a handler of its own where page.c's and sitefiles.c's are
 * handed over at set-up: which queued page starts a request and which is settled without one. At
 * most -c requests run, one a host, each host's pages in their order; robots.txt rules, a host
 * that could not be looked up, --max-pages-per-host and -n each give a page its fate without a
 * request; a robots.txt past its age is fetched again before the page waits behind it; --rate
 * starts one and says when the next may; the shard is finished only with nothing queued or in
 * flight. The loop never runs: no request leaves the process. */
#include "crawl/budget.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/request.h"
#include "crawl/report.h"
#include "crawl/run-int.h"
#include "crawl/schedule.h"
#include "crawl/speculate.h"
#include "crawl/stash.h"
#include "tests/crawl/world.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct world {
  struct world_base b;
  struct world_records records; /* records written (--jsonl) */
  size_t handler_calls;         /* requests that ended without a transfer (failed to start) */
};

static core_rc sink_url(void *writer, const char *url) {
  (void)writer, (void)url;
  return CORE_OK;
}

static core_rc sink_record(void *writer, const struct crawl_record *rec) {
  struct world *w = writer;
  world_records_add(&w->records, rec);
  return CORE_OK;
}

static void offer(struct shard *c, const struct url *u, const char *from, int depth, int redirects,
                  enum offer_kind kind, struct link_how how) {
  (void)c, (void)u, (void)from, (void)depth, (void)redirects, (void)kind, (void)how;
  fail_msg("nothing is offered while scheduling");
}

/* page.c's and sitefiles.c's place: the loop never runs, so only a request that cannot start
 * (refused, or the engine would not take it) ends here, as the engine's handlers end one. */
static void on_done(void *arg, const struct fetch_result *result) {
  struct request *rq = arg;
  struct world *w = crawl__report_writer(rq->shard);
  (void)result;
  w->handler_calls++;
  frontier_end(rq->shard->fr, rq->host, rq->item, core_now(), 0);
  crawl__request_ended(rq->shard);
  crawl__request_free(rq);
}
static const struct fetch_handler handler = {.on_done = on_done};

/* A shard as shard.c opens one, politeness delay seconds between a host's requests, one request
 * a host at a time, robots.txt obeyed and records written. */
static struct world *world_new(double delay) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  w->b.cfg = (struct crawl_config){.depth = 5,
                                   .delay = delay,
                                   .max_delay = 30,
                                   .max_url_length = 4096,
                                   .max_path_repeat = 3,
                                   .max_path_segments = 64,
                                   .max_redirs = 5,
                                   .max_pages = -1,
                                   .max_pages_per_host = -1,
                                   .concurrency = 8,
                                   .per_host = 1,
                                   .jsonl = true,
                                   .robots = true};
  w->b.sink.url = sink_url;
  w->b.sink.record = sink_record;
  world_base_open(&w->b, w);
  struct shard *c = &w->b.shard;
  c->hooks.seed_found = world_no_seed_found;
  c->hooks.failed_record = world_failed_record_at_once;
  c->hooks.spec_record = world_spec_record;
  c->hooks.offer = offer;
  for (size_t kind = 0; kind <= FRONTIER_SITEMAP; kind++)
    c->hooks.handlers[kind] = &handler;
  assert_int_equal(loop_create(&c->loop), CORE_OK);
  struct fetch_options fetch_opts = {.concurrency = 8, .per_host = 1, .user_agent = "crawl-test"};
  assert_int_equal(fetch_engine_create(c->loop, &fetch_opts, &c->engine), CORE_OK);
  world_filters_open(c, (const char *const[]){"127.0.0.1", NULL});
  struct frontier_options opts = {.delay = delay, .max_delay = 30, .per_host = 1};
  world_intake_open(c, &opts, c->seen);
  assert_int_equal(crawl__request_open(c), CORE_OK);
  return w;
}

/* The requests still in flight end as their handler would end them, then the shard goes. */
static void world_free(struct world *w) {
  struct shard *c = &w->b.shard;
  fetch_engine_destroy(c->engine); /* no handler is called */
  struct request *rq;
  while ((rq = crawl__request_next(c, NULL))) {
    frontier_end(c->fr, rq->host, rq->item, core_now(), 0);
    crawl__request_ended(c);
    crawl__request_free(rq);
  }
  crawl__request_close(c);
  world_intake_close(c);
  world_filters_close(c);
  loop_destroy(c->loop);
  world_base_close(&w->b);
  free(w);
}

/* The host of origin as after its robots.txt was fetched at when: rules of that text (NULL: the
 * file had none). */
static struct host_data *host_known(struct world *w, const char *origin, const char *robots_txt,
                                    double when) {
  struct shard *c = &w->b.shard;
  struct url u;
  assert_int_equal(url_resolve(NULL, origin, strlen(origin), 4096, &u), CORE_OK);
  w->b.cfg.robots = false; /* made without its robots.txt queued: the test gives its rules */
  struct host_data *hd = crawl__host_for(c, &u);
  w->b.cfg.robots = true;
  url_free(&u);
  assert_non_null(hd);
  assert_int_equal(hd->robots_state, ROBOTS_KNOWN);
  if (robots_txt) {
    parse_robots *rules;
    assert_int_equal(parse_robots_create(robots_txt, strlen(robots_txt), "crawl", &rules), CORE_OK);
    crawl__host_set_rules(hd, rules);
  }
  hd->robots_time = when;
  return hd;
}

/* A page of hd queued (a link found on a page of the level above). */
static void queue_page(struct world *w, struct host_data *hd, const char *url, int depth) {
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, "http://127.0.0.1/", depth);
  assert_non_null(item);
  assert_int_equal(frontier_push_new(w->b.shard.fr, frontier_host_of_data(hd), item), CORE_OK);
}

/* The URLs of the requests in flight, in the order they started. */
static size_t started(struct world *w, const char *urls[8]) {
  size_t n = 0;
  for (struct request *rq = crawl__request_next(&w->b.shard, NULL); rq; rq = rq->next) {
    assert_true(n < 8);
    urls[n++] = rq->item->url;
  }
  for (size_t i = 0; i < n / 2; i++) { /* the list is newest first */
    const char *t = urls[i];
    urls[i] = urls[n - 1 - i];
    urls[n - 1 - i] = t;
  }
  return n;
}

static bool is_started(struct world *w, const char *url) {
  const char *urls[8];
  size_t n = started(w, urls);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(urls[i], url))
      return true;
  return false;
}

/* The request for url ends as page.c ends one: its host's gap begins, its slot of -c is free. */
static void end_request(struct world *w, const char *url) {
  struct shard *c = &w->b.shard;
  for (struct request *rq = crawl__request_next(c, NULL); rq; rq = rq->next) {
    if (strcmp(rq->item->url, url))
      continue;
    frontier_end(c->fr, rq->host, rq->item, core_now(), 0.01);
    crawl__request_ended(c);
    crawl__request_free(rq);
    return;
  }
  fail_msg("no request for %s", url);
}

static void test_at_most_c_requests_and_one_a_host(void **state) {
  (void)state;
  struct world *w = world_new(1);
  w->b.cfg.concurrency = 3;
  const char *hosts[] = {"http://127.0.0.2:9", "http://127.0.0.3:9", "http://127.0.0.4:9",
                         "http://127.0.0.5:9"};
  char first[4][64], second[4][64];
  for (size_t i = 0; i < 4; i++) {
    struct host_data *hd = host_known(w, hosts[i], NULL, core_now());
    snprintf(first[i], sizeof(first[i]), "%s/a.html", hosts[i]);
    snprintf(second[i], sizeof(second[i]), "%s/b.html", hosts[i]);
    queue_page(w, hd, first[i], 1);
    queue_page(w, hd, second[i], 1);
  }
  crawl__schedule(&w->b.shard);
  const char *urls[8];
  assert_int_equal(started(w, urls), 3);
  assert_int_equal(crawl__request_in_flight(&w->b.shard), 3);
  size_t idle_host = 4;
  for (size_t i = 0; i < 4; i++) {
    assert_false(is_started(w, second[i])); /* each host's pages in their order */
    if (!is_started(w, first[i]))
      idle_host = i;
  }
  assert_true(idle_host < 4);
  assert_false(crawl__schedule_finished(&w->b.shard));

  /* one ends: its slot goes to the host that had none, not to its own next page, which waits
   * for the host's gap */
  size_t ended = idle_host == 0 ? 1 : 0;
  end_request(w, first[ended]);
  crawl__schedule(&w->b.shard);
  assert_int_equal(started(w, urls), 3);
  assert_true(is_started(w, first[idle_host]));
  assert_false(is_started(w, second[ended]));
  assert_int_equal(w->records.count, 0);
  assert_int_equal(w->handler_calls, 0);
  world_free(w);
}

static void test_robots_rules_settle_a_page_without_a_request(void **state) {
  (void)state;
  struct world *w = world_new(1);
  struct host_data *ruled =
      host_known(w, "http://127.0.0.2:9", "User-agent: *\nDisallow: /private/\n", core_now());
  queue_page(w, ruled, "http://127.0.0.2:9/private/x.html", 1);
  queue_page(w, ruled, "http://127.0.0.2:9/open.html", 1);
  /* a host whose robots.txt could not be fetched: its pages fail with why */
  struct host_data *unreached = host_known(w, "http://127.0.0.3:9", NULL, core_now());
  unreached->robots_state = ROBOTS_DISALLOW_ALL;
  unreached->robots_cause = CRAWL_CAUSE_CONNECT;
  unreached->robots_error = strdup("robots.txt: Connection refused");
  assert_non_null(unreached->robots_error);
  queue_page(w, unreached, "http://127.0.0.3:9/page.html", 1);

  crawl__schedule(&w->b.shard);
  const char *urls[8];
  assert_int_equal(started(w, urls), 1);
  assert_string_equal(urls[0], "http://127.0.0.2:9/open.html");
  assert_int_equal(w->records.count, 2);
  const struct world_record *r =
      world_records_find(&w->records, "http://127.0.0.2:9/private/x.html");
  assert_non_null(r);
  assert_int_equal(r->fate, CRAWL_FATE_ROBOTS);
  assert_int_equal(r->depth, 1);
  r = world_records_find(&w->records, "http://127.0.0.3:9/page.html");
  assert_non_null(r);
  assert_int_equal(r->fate, CRAWL_FATE_FAILED);
  assert_int_equal(r->cause, CRAWL_CAUSE_CONNECT);
  assert_string_equal(r->error, "robots.txt: Connection refused");
  assert_int_equal(frontier_queued(w->b.shard.fr), 0);
  world_free(w);
}

static void test_pages_of_a_dead_host_fail_with_the_lookups_error(void **state) {
  (void)state;
  struct world *w = world_new(1);
  struct host_data *hd = host_known(w, "http://127.0.0.2:9", NULL, core_now());
  hd->dead = "Domain name not found";
  queue_page(w, hd, "http://127.0.0.2:9/a.html", 1);
  queue_page(w, hd, "http://127.0.0.2:9/b.html", 1);
  crawl__schedule(&w->b.shard);
  assert_null(crawl__request_next(&w->b.shard, NULL));
  assert_int_equal(w->records.count, 2);
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(w->records.at[i].fate, CRAWL_FATE_FAILED);
    assert_int_equal(w->records.at[i].cause, CRAWL_CAUSE_DNS);
    assert_string_equal(w->records.at[i].error, "DNS lookup failed: Domain name not found");
  }
  assert_true(crawl__schedule_finished(&w->b.shard));
  world_free(w);
}

static void test_page_limits_settle_what_is_over_them(void **state) {
  (void)state;
  /* --max-pages-per-host 1: the host's second page, due once the first ended, is not fetched */
  struct world *w = world_new(0);
  w->b.cfg.max_pages_per_host = 1;
  struct host_data *hd = host_known(w, "http://127.0.0.2:9", NULL, core_now());
  queue_page(w, hd, "http://127.0.0.2:9/a.html", 1);
  queue_page(w, hd, "http://127.0.0.2:9/b.html", 1);
  crawl__schedule(&w->b.shard);
  const char *urls[8];
  assert_int_equal(started(w, urls), 1);
  assert_string_equal(urls[0], "http://127.0.0.2:9/a.html");
  end_request(w, "http://127.0.0.2:9/a.html");
  crawl__schedule(&w->b.shard);
  assert_null(crawl__request_next(&w->b.shard, NULL));
  assert_int_equal(w->records.count, 1);
  assert_string_equal(w->records.at[0].url, "http://127.0.0.2:9/b.html");
  assert_int_equal(w->records.at[0].fate, CRAWL_FATE_LIMIT);
  world_free(w);

  /* -n 2 over three hosts: two pages start, the third is left */
  w = world_new(0);
  w->b.cfg.max_pages = 2;
  for (int i = 2; i <= 4; i++) {
    char origin[32], url[48];
    snprintf(origin, sizeof(origin), "http://127.0.0.%d:9", i);
    snprintf(url, sizeof(url), "%s/a.html", origin);
    queue_page(w, host_known(w, origin, NULL, core_now()), url, 1);
  }
  crawl__schedule(&w->b.shard);
  assert_int_equal(started(w, urls), 2);
  assert_int_equal(w->records.count, 1);
  assert_int_equal(w->records.at[0].fate, CRAWL_FATE_LIMIT);
  assert_false(is_started(w, w->records.at[0].url));
  assert_int_equal(frontier_queued(w->b.shard.fr), 0);
  world_free(w);
}

static void test_an_old_robots_txt_is_fetched_again_before_the_page(void **state) {
  (void)state;
  struct world *w = world_new(1);
  struct host_data *hd = host_known(w, "http://127.0.0.2:9", "User-agent: *\nDisallow: /a\n",
                                    core_now() - ROBOTS_MAX_AGE - 60);
  queue_page(w, hd, "http://127.0.0.2:9/a.html", 1);
  crawl__schedule(&w->b.shard);
  const char *urls[8];
  assert_int_equal(started(w, urls), 1);
  assert_string_equal(urls[0], "http://127.0.0.2:9/robots.txt");
  /* the page waits behind it, undecided by the old rules */
  assert_int_equal(w->records.count, 0);
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 1);
  assert_string_equal(q.urls[0], "http://127.0.0.2:9/a.html");
  assert_int_equal(hd->robots_state, ROBOTS_PENDING);
  world_free(w);
}

static void test_rate_starts_one_and_says_when_the_next_may(void **state) {
  (void)state;
  struct world *w = world_new(0);
  w->b.cfg.rate = 2; /* requests a second */
  for (int i = 2; i <= 4; i++) {
    char origin[32], url[48];
    snprintf(origin, sizeof(origin), "http://127.0.0.%d:9", i);
    snprintf(url, sizeof(url), "%s/a.html", origin);
    queue_page(w, host_known(w, origin, NULL, core_now()), url, 1);
  }
  double before = core_now();
  crawl__schedule(&w->b.shard);
  const char *urls[8];
  assert_int_equal(started(w, urls), 1);
  double next = crawl__budget_rate_next(w->b.shard.run); /* what the shard's loop waits for */
  assert_true(next >= before + 0.5);
  assert_true(next <= core_now() + 0.5);
  assert_int_equal(frontier_queued(w->b.shard.fr), 2); /* the others wait in their queues */
  assert_int_equal(w->records.count, 0);
  world_free(w);
}

static void test_finished_only_with_nothing_queued_or_in_flight(void **state) {
  (void)state;
  struct world *w = world_new(1);
  assert_true(crawl__schedule_finished(&w->b.shard));
  struct host_data *hd = host_known(w, "http://127.0.0.2:9", NULL, core_now());
  queue_page(w, hd, "http://127.0.0.2:9/a.html", 1);
  assert_false(crawl__schedule_finished(&w->b.shard));
  crawl__schedule(&w->b.shard);
  assert_true(is_started(w, "http://127.0.0.2:9/a.html"));
  assert_false(crawl__schedule_finished(&w->b.shard));
  end_request(w, "http://127.0.0.2:9/a.html");
  assert_true(crawl__schedule_finished(&w->b.shard));
  world_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_at_most_c_requests_and_one_a_host),
      cmocka_unit_test(test_robots_rules_settle_a_page_without_a_request),
      cmocka_unit_test(test_pages_of_a_dead_host_fail_with_the_lookups_error),
      cmocka_unit_test(test_page_limits_settle_what_is_over_them),
      cmocka_unit_test(test_an_old_robots_txt_is_fetched_again_before_the_page),
      cmocka_unit_test(test_rate_starts_one_and_says_when_the_next_may),
      cmocka_unit_test(test_finished_only_with_nothing_queued_or_in_flight),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
