/* Hosts (crawl/host.c), built from that file and the files below it that it uses (queries,
 * report, held, depthcut, mail, mesh, budget), over a real frontier: hosts whose robots.txt
 * says the same share one copy of its rules once those rules are met a second time, and a host
 * whose rules differ keeps its own (doc/design.md, Memory). */
#include "crawl/host.h"
#include "tests/crawl/world.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void take(struct shard *c, enum link_kind kind, const struct url *u, const char *page,
                 int depth, int redirects, struct link_how how) {
  (void)c, (void)kind, (void)u, (void)page, (void)depth, (void)redirects, (void)how;
  fail_msg("a crawl of one shard hands no link between shards");
}

static struct world_base *world_new(void) {
  struct world_base *b = calloc(1, sizeof(*b));
  assert_non_null(b);
  b->cfg = (struct crawl_config){.depth = 5,
                                 .delay = 1,
                                 .max_delay = 30,
                                 .max_url_length = 4096,
                                 .jsonl = true,
                                 .robots = true};
  world_base_open(b, b);
  struct shard *c = &b->shard;
  c->hooks.failed_record = world_failed_record_at_once;
  world_filters_open(c, (const char *const[]){"a.test", "b.test", "c.test", "d.test", NULL});
  struct frontier_options opts = {.delay = 1, .max_delay = 30, .per_host = 1};
  world_parts_open(c, &opts, NULL, take);
  return b;
}

static void world_free(struct world_base *b) {
  world_parts_close(&b->shard);
  world_filters_close(&b->shard);
  world_base_close(b);
  free(b);
}

/* The host of url, its rules read from text, offered for sharing as sitefiles.c does once a
 * robots.txt is read. */
static struct host_data *host_with_rules(struct shard *c, const char *url, const char *text) {
  struct url u;
  assert_int_equal(url_resolve(NULL, url, strlen(url), 4096, &u), CORE_OK);
  struct host_data *hd = crawl__host_for(c, &u);
  url_free(&u);
  assert_non_null(hd);
  parse_robots *robots;
  assert_int_equal(parse_robots_create(text, strlen(text), "crawl", &robots), CORE_OK);
  crawl__host_set_rules(hd, robots);
  crawl__host_share_rules(c, hd);
  return hd;
}

static void test_hosts_of_the_same_rules_share_them(void **state) {
  (void)state;
  struct world_base *b = world_new();
  struct shard *c = &b->shard;
  const char *same = "User-agent: *\nDisallow: /private/\n";
  /* the same rules and more: a copy of the first's saved bytes would begin like these */
  const char *more = "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n";
  struct host_data *a = host_with_rules(c, "http://a.test/", same);
  struct host_data *hb = host_with_rules(c, "http://b.test/", same);
  struct host_data *hc = host_with_rules(c, "http://c.test/", same);
  struct host_data *hd = host_with_rules(c, "http://d.test/", more);
  /* met once, the first keeps its own; met again, the table keeps the second's for the rest */
  assert_ptr_not_equal(a->robots, hb->robots);
  assert_ptr_equal(hc->robots, hb->robots);
  assert_ptr_not_equal(hd->robots, hb->robots);
  /* each host still answers by its own rules */
  assert_false(parse_robots_allowed(a->robots, "/private/x"));
  assert_false(parse_robots_allowed(hc->robots, "/private/x"));
  assert_true(parse_robots_allowed(hc->robots, "/tmp/x"));
  assert_false(parse_robots_allowed(hd->robots, "/tmp/x"));
  world_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hosts_of_the_same_rules_share_them),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
