/* --max-query-variants' counts (crawl/queries.c) built from their own file with notes.c, the crawl
 * around them left out: a calendar whose every day links the next is cut at the bound, a
 * catalogue of any size under one listing is not, and a query string carried from path to path
 * to one that grows its own (a session id, a calendar one step further) brings every path of the
 * host down to QUERY_TRAP_VARIANTS, said once with -v. */
#include "crawl/notes.h"
#include "crawl/life.h"
#include "crawl/queries.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

enum { TRAP_VARIANTS = 20 }; /* queries.c's QUERY_TRAP_VARIANTS */

struct heard {
  int notes;
  char last[512];
};

static void on_note(void *arg, const char *text) {
  struct heard *h = arg;
  h->notes++;
  snprintf(h->last, sizeof(h->last), "%s", text);
}

struct world {
  struct crawl_config cfg;
  struct crawl_sink sink;
  struct heard heard;
  struct shard shard;
  struct query_counts *counts; /* one host's */
  char err[256];
};

static struct world *world_new(long max_variants) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  w->cfg.max_query_variants = max_variants;
  w->cfg.verbose = true;
  w->sink.note = on_note;
  w->sink.arg = &w->heard;
  w->shard.cfg = &w->cfg;
  w->shard.sink = &w->sink;
  assert_int_equal(crawl__life_open(&w->shard, w->err, sizeof(w->err), 0), CORE_OK);
  return w;
}

static void world_free(struct world *w) {
  crawl__queries_free(w->counts);
  crawl__life_close(&w->shard);
  free(w);
}

/* Whether url, new to the crawl and found on the page from (of the same host), is trapped. */
static bool trapped(struct world *w, const char *url, const char *from) {
  struct url u;
  assert_int_equal(url_resolve(NULL, url, strlen(url), 4096, &u), CORE_OK);
  const char *path = u.text + u.path_off;
  const char *query = strchr(path, '?');
  assert_non_null(query);
  bool failed = false;
  bool result =
      crawl__queries_trapped(&w->shard, &w->counts, &u, from, (size_t)(query - path), &failed);
  assert_false(failed);
  url_free(&u);
  return result;
}

static void test_calendar_cut_at_the_bound(void **state) {
  (void)state;
  struct world *w = world_new(5);
  char url[64], from[64] = "http://a.test/cal";
  for (int day = 1; day <= 8; day++) {
    snprintf(url, sizeof(url), "http://a.test/cal?d=%d", day);
    /* each day is one more than the day that linked it: days 1 to 5 pass, then none */
    assert_int_equal(trapped(w, url, from), day > 5);
    snprintf(from, sizeof(from), "%s", url);
  }
  assert_int_equal(w->heard.notes, 0);
  world_free(w);
}

static void test_catalogue_crawled_whole(void **state) {
  (void)state;
  struct world *w = world_new(5);
  assert_false(trapped(w, "http://a.test/list?page=1", "http://a.test/"));
  char url[64];
  for (int id = 1; id <= 1000; id++) {
    snprintf(url, sizeof(url), "http://a.test/item?id=%d", id);
    /* every item is one more than its listing, however many there are */
    assert_false(trapped(w, url, "http://a.test/list?page=1"));
  }
  /* the next page of the listing grows the listing's own chain by one */
  assert_false(trapped(w, "http://a.test/list?page=2", "http://a.test/list?page=1"));
  assert_int_equal(crawl__queries_most(w->counts, &w->cfg), 5);
  world_free(w);
}

static void test_carried_query_brings_the_host_down(void **state) {
  (void)state;
  struct world *w = world_new(100);
  /* a session id carried unchanged through four paths ... */
  const char *paths[] = {"a", "b", "c", "d", "e"};
  char url[64], from[64] = "http://a.test/";
  for (size_t i = 0; i < 5; i++) {
    snprintf(url, sizeof(url), "http://a.test/%s?s=1", paths[i]);
    assert_false(trapped(w, url, from));
    snprintf(from, sizeof(from), "%s", url);
  }
  assert_int_equal(crawl__queries_most(w->counts, &w->cfg), 100);
  /* ... to one that grows query strings of its own: past TRAP_VARIANTS the host is a trap's */
  for (int s = 2; s <= TRAP_VARIANTS + 2; s++) {
    snprintf(url, sizeof(url), "http://a.test/e?s=%d", s);
    trapped(w, url, "http://a.test/e?s=1");
  }
  assert_int_equal(w->heard.notes, 1);
  assert_non_null(strstr(w->heard.last, "a.test: a query string carried on"));
  assert_int_equal(crawl__queries_most(w->counts, &w->cfg), TRAP_VARIANTS);
  /* every path of the host from now on, said no more */
  char prev[64] = "http://a.test/other";
  int passed = 0;
  for (int k = 1; k <= 40; k++) {
    snprintf(url, sizeof(url), "http://a.test/other?k=%d", k);
    passed += !trapped(w, url, prev);
    snprintf(prev, sizeof(prev), "%s", url);
  }
  assert_int_equal(passed, TRAP_VARIANTS);
  assert_int_equal(w->heard.notes, 1);
  world_free(w);
}

static void test_grown_without_carrying_keeps_the_bound(void **state) {
  (void)state;
  struct world *w = world_new(100);
  /* many query strings grown on one path, none carried from another: no trap of the kind */
  for (int s = 1; s <= 3 * TRAP_VARIANTS; s++) {
    char url[64];
    snprintf(url, sizeof(url), "http://a.test/search?q=%d", s);
    assert_false(trapped(w, url, "http://a.test/search?q=0"));
  }
  assert_int_equal(crawl__queries_most(w->counts, &w->cfg), 100);
  assert_int_equal(w->heard.notes, 0);
  world_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_calendar_cut_at_the_bound),
      cmocka_unit_test(test_catalogue_crawled_whole),
      cmocka_unit_test(test_carried_query_brings_the_host_down),
      cmocka_unit_test(test_grown_without_carrying_keeps_the_bound),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
