/* The depth cut (crawl/depthcut.c) built from its own file and the ones below it that it uses
 * (report.c, notes.c, budget.c, mesh.c), no stand-ins: a URL one level beyond -d waits for its
 * record until the cut is settled, and is recorded once then, with where it was found; one
 * further is recorded at once; a redirect within -d rescues a URL cut (once), which then gets no
 * depth record; a save holds the URLs still waiting, in the save's "cut" lines; the file is used
 * again after a settle. */
#include "crawl/depthcut.h"
#include "crawl/mesh.h"
#include "tests/crawl/world.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

enum { DEPTH = 2, MOST = 16 };

struct world {
  struct world_base b;
  struct world_record records[MOST];
  size_t count;
};

static core_rc on_record(void *writer, const struct crawl_record *rec) {
  struct world *w = writer;
  assert_true(w->count < MOST);
  world_record_copy(&w->records[w->count++], rec);
  return CORE_OK;
}

static struct world *world_new(void) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  w->b.cfg.depth = DEPTH;
  w->b.cfg.jsonl = true;
  w->b.sink.record = on_record;
  world_base_open(&w->b, w);
  return w;
}

static void world_free(struct world *w) {
  crawl__depthcut_close(&w->b.shard);
  assert_false(crawl__depthcut_pending(&w->b.shard));
  world_base_close(&w->b);
  free(w);
}

/* A link found on from at depth: its item's flags say it was found by an <a> element. */
static void cut(struct world *w, const char *url, const char *from, int depth) {
  struct frontier_item probe = {.flags = (unsigned)(VIA_PAGE + PARSE_VIA_A) << ITEM_VIA_SHIFT};
  crawl__depthcut_add(&w->b.shard, &probe, url, from, depth);
}

static bool rescued(struct world *w, const char *text, int depth) {
  struct url u;
  assert_int_equal(url_resolve(NULL, text, strlen(text), 4096, &u), CORE_OK);
  bool r = crawl__depthcut_rescued(&w->b.shard, &u, depth);
  url_free(&u);
  return r;
}

static void test_waits_then_recorded_once(void **state) {
  (void)state;
  struct world *w = world_new();
  cut(w, "http://a.test/deep", "http://a.test/p", DEPTH + 1);
  assert_true(crawl__depthcut_pending(&w->b.shard));
  assert_int_equal(w->count, 0); /* its record waits */
  crawl__depthcut_settle(&w->b.shard);
  assert_false(crawl__depthcut_pending(&w->b.shard));
  assert_int_equal(w->count, 1);
  assert_string_equal(w->records[0].url, "http://a.test/deep");
  assert_string_equal(w->records[0].from, "http://a.test/p");
  assert_string_equal(w->records[0].via, "a");
  assert_int_equal(w->records[0].depth, DEPTH + 1);
  assert_int_equal(w->records[0].fate, CRAWL_FATE_DEPTH);
  assert_int_equal(w->b.stats.fates[CRAWL_FATE_DEPTH], 1);
  crawl__depthcut_settle(&w->b.shard); /* nothing more */
  assert_int_equal(w->count, 1);
  /* the file serves the next cut too, emptied: what it held before is not recorded again */
  cut(w, "http://a.test/second-of-a-longer-name", "http://a.test/p", DEPTH + 1);
  cut(w, "http://a.test/third", "http://a.test/p", DEPTH + 1);
  crawl__depthcut_settle(&w->b.shard);
  assert_int_equal(w->count, 3);
  cut(w, "http://a.test/next", NULL, DEPTH + 1);
  crawl__depthcut_settle(&w->b.shard);
  assert_int_equal(w->count, 4);
  assert_string_equal(w->records[3].url, "http://a.test/next");
  assert_string_equal(w->records[3].from, "-");
  assert_string_equal(w->b.err, "");
  world_free(w);
}

static void test_further_recorded_at_once(void **state) {
  (void)state;
  struct world *w = world_new();
  cut(w, "http://a.test/far", "http://a.test/p", DEPTH + 2);
  assert_false(crawl__depthcut_pending(&w->b.shard));
  assert_int_equal(w->count, 1);
  assert_int_equal(w->records[0].depth, DEPTH + 2);
  assert_int_equal(w->records[0].fate, CRAWL_FATE_DEPTH);
  world_free(w);
}

static void test_redirect_rescues_once(void **state) {
  (void)state;
  struct world *w = world_new();
  assert_false(rescued(w, "http://a.test/x", DEPTH)); /* nothing was cut */
  cut(w, "http://a.test/x", "http://a.test/p", DEPTH + 1);
  cut(w, "http://a.test/y", "http://a.test/p", DEPTH + 1);
  assert_false(rescued(w, "http://a.test/x", DEPTH + 1)); /* a redirect beyond -d rescues none */
  assert_false(rescued(w, "http://a.test/z", DEPTH));     /* never cut */
  assert_true(rescued(w, "http://a.test/x", DEPTH));
  assert_false(rescued(w, "http://a.test/x", DEPTH)); /* fetched once */
  crawl__depthcut_settle(&w->b.shard);
  assert_int_equal(w->count, 1); /* the rescued one was fetched instead */
  assert_string_equal(w->records[0].url, "http://a.test/y");
  world_free(w);
}

static void test_save_holds_those_waiting(void **state) {
  (void)state;
  struct world *w = world_new();
  FILE *out = tmpfile();
  assert_non_null(out);
  assert_true(crawl__depthcut_save(&w->b.shard, out)); /* none: nothing written */
  assert_int_equal(ftell(out), 0);
  cut(w, "http://a.test/one", "http://a.test/p", DEPTH + 1);
  cut(w, "http://a.test/two", NULL, DEPTH + 1);
  assert_true(rescued(w, "http://a.test/two", DEPTH));
  assert_true(crawl__depthcut_save(&w->b.shard, out));
  char text[512] = "";
  rewind(out);
  size_t n = fread(text, 1, sizeof(text) - 1, out);
  text[n] = '\0';
  char want[256];
  snprintf(want, sizeof(want), "cut %d %u http://a.test/p http://a.test/one\n", DEPTH + 1,
           (unsigned)(VIA_PAGE + PARSE_VIA_A) << ITEM_VIA_SHIFT);
  assert_string_equal(text, want);
  fclose(out);
  assert_int_equal(w->count, 0); /* a save writes no record */
  /* and the URLs still wait: written once, when settled */
  crawl__depthcut_settle(&w->b.shard);
  assert_int_equal(w->count, 1);
  world_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_waits_then_recorded_once),
      cmocka_unit_test(test_further_recorded_at_once),
      cmocka_unit_test(test_redirect_rescues_once),
      cmocka_unit_test(test_save_holds_those_waiting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
