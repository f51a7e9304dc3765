/* Fetching ahead of the depth gate (crawl/speculate.c), built from that file and the files below
 * it that it uses (held, stash, host, report, depthcut, mail, mesh, budget), over a real
 * frontier, with the hooks a shard is handed at set-up: a held link in scope, unseen, within
 * --depth and the budget is queued at its host as a speculative page, once; a page refused
 * (nofollow, too deep, out of scope, seen, a skipped extension, fetching ahead off, the budget
 * reached) is not queued; a fetched page's outcome and links wait in the stash and come back
 * whole when a link confirms it; its record is reported as kept, and a redirect it kept is
 * offered; a page cancelled before its fetch leaves the queue; a confirmed page waits at its
 * level, a redirect of the level above moves it up, and when its level comes it is reported at
 * its depth then and forgotten. */
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/life.h"
#include "crawl/mesh.h"
#include "crawl/report.h"
#include "crawl/speculate.h"
#include "crawl/stash.h"
#include "tests/crawl/world.h"
#include "tests/support/wrap_calloc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const struct link_how via_a = {VIA_PAGE + PARSE_VIA_A, true};

struct world {
  struct world_base b;
  struct world_record written[8]; /* records the sink wrote (--jsonl) */
  size_t written_count;
  struct world_record offered[8]; /* redirect targets offered back to intake (hooks.offer) */
  size_t offered_count;
};

static struct world *world_of(struct shard *c) {
  return (struct world *)((char *)c - offsetof(struct world, b.shard));
}

static core_rc sink_record(void *writer, const struct crawl_record *rec) {
  struct world *w = writer;
  assert_true(w->written_count < 8);
  world_record_copy(&w->written[w->written_count++], rec);
  return CORE_OK;
}

/* intake.c's hook in the engine: a redirect target a confirmed page kept, offered now */
static void offer(struct shard *c, const struct url *u, const char *from, int depth, int redirects,
                  enum offer_kind kind, struct link_how how) {
  (void)redirects, (void)how;
  assert_int_equal(kind, OFFER_REDIRECT);
  struct world *w = world_of(c);
  assert_true(w->offered_count < 8);
  struct world_record *r = &w->offered[w->offered_count++];
  snprintf(r->url, sizeof(r->url), "%s", u->text);
  snprintf(r->from, sizeof(r->from), "%s", from ? from : "-");
  r->depth = depth;
}

static void take(struct shard *c, enum link_kind kind, const struct url *u, const char *page,
                 int depth, int redirects, struct link_how how) {
  (void)c, (void)kind, (void)u, (void)page, (void)depth, (void)redirects, (void)how;
  fail_msg("a crawl of one shard hands no link between shards");
}

static struct world *world_new(void) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  w->b.cfg = (struct crawl_config){.depth = 5,
                                   .delay = 1, /* polite: fetching ahead is on */
                                   .max_delay = 30,
                                   .max_url_length = 4096,
                                   .max_path_repeat = 3,
                                   .max_path_segments = 64,
                                   .jsonl = true,
                                   .robots = false};
  assert_int_equal(core_list_add(&w->b.cfg.skip_ext, "pdf"), CORE_OK);
  w->b.sink.record = sink_record;
  world_base_open(&w->b, w);
  struct shard *c = &w->b.shard;
  c->hooks.offer = offer;
  c->hooks.spec_record = world_spec_record;
  c->hooks.failed_record = world_failed_record_at_once;
  world_filters_open(c, (const char *const[]){"a.test", NULL});
  struct frontier_options opts = {.delay = 1, .max_delay = 30, .per_host = 1};
  world_parts_open(c, &opts, NULL, take);
  crawl__speculate_prepare(c);
  assert_true(crawl__held_speculates(c));
  crawl__held_replayed(c); /* as after each replay: how far ahead pages may start */
  assert_true(crawl__held_speculative_now(c));
  return w;
}

static void world_free(struct world *w) {
  crawl__speculate_close(&w->b.shard); /* its entries may hold held pages */
  crawl__stash_close(&w->b.shard);
  world_parts_close(&w->b.shard);
  world_filters_close(&w->b.shard);
  core_list_free(&w->b.cfg.skip_ext);
  world_base_close(&w->b);
  free(w);
}

/* Offers text as a held link of depth, found on from, followed or not. */
static void consider(struct world *w, const char *text, const char *from, int depth, bool follow) {
  struct url u;
  assert_int_equal(url_resolve(NULL, text, strlen(text), 4096, &u), CORE_OK);
  crawl__speculate_consider(&w->b.shard, &u, from, depth, follow);
  url_free(&u);
}

static void test_a_held_link_is_fetched_ahead_once(void **state) {
  (void)state;
  struct world *w = world_new();
  consider(w, "http://a.test/x.html", "http://a.test/", 2, true);
  consider(w, "http://a.test/x.html", "http://a.test/other", 3, true); /* known already */
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 1);
  assert_string_equal(q.urls[0], "http://a.test/x.html");
  assert_int_equal(q.depth[0], 2);
  assert_true(q.flags[0] & ITEM_SPEC);
  struct spec *e = crawl__speculate_find(&w->b.shard, "http://a.test/x.html");
  assert_non_null(e);
  assert_false(e->done);
  assert_null(crawl__speculate_find(&w->b.shard, "http://a.test/y.html"));
  world_free(w);
}

static void test_what_is_not_fetched_ahead(void **state) {
  (void)state;
  struct world *w = world_new();
  consider(w, "http://a.test/nofollow", "http://a.test/", 2, false);
  consider(w, "http://a.test/deep", "http://a.test/", 6, true);      /* past --depth 5 */
  consider(w, "http://b.test/out", "http://a.test/", 2, true);       /* out of scope */
  consider(w, "http://a.test/paper.pdf", "http://a.test/", 2, true); /* --skip-ext */
  consider(w, "http://a.test/a/a/a/a/a", "http://a.test/", 2, true); /* a spider trap */
  bool was_new;
  assert_int_equal(seen_add(w->b.shard.seen, "http://a.test/seen", 18, &was_new), CORE_OK);
  consider(w, "http://a.test/seen", "http://a.test/", 2, true);
  assert_int_equal(world_queued_pages(w->b.shard.fr).count, 0);
  /* fetching ahead turned off (the speculative pages' links past ten times their budget, as
   * held.c finds after a replay): nothing more; on again under five times it */
  struct shard *c = &w->b.shard;
  crawl__held_set_queue_memory(c, 1000); /* a budget of 2,000 */
  crawl__held_spec_links_add(c, 20000);
  crawl__held_replayed(c);
  assert_false(crawl__held_speculative_now(c));
  consider(w, "http://a.test/later", "http://a.test/", 2, true);
  assert_int_equal(world_queued_pages(c->fr).count, 0);
  crawl__held_spec_links_remove(c, 9000);
  crawl__held_replayed(c);
  assert_false(crawl__held_speculative_now(c)); /* 11,000: still above five times */
  crawl__held_spec_links_remove(c, 11000);
  crawl__held_replayed(c);
  assert_true(crawl__held_speculative_now(c));
  consider(w, "http://a.test/later", "http://a.test/", 2, true);
  assert_int_equal(world_queued_pages(c->fr).count, 1);
  world_free(w);
}

/* A host that cannot be made for want of memory while its link is considered: nothing is
 * fetched ahead and the shard ends for want of memory (doc/behaviour.md, Failures). */
static void test_no_memory_for_a_new_host(void **state) {
  (void)state;
  struct world *w = world_new();
  struct url u;
  const char *text = "http://a.test/x.html";
  assert_int_equal(url_resolve(NULL, text, strlen(text), 4096, &u), CORE_OK);
  wrap_calloc_fail_in(1); /* the host's, the first allocation the link needs */
  crawl__speculate_consider(&w->b.shard, &u, "http://a.test/", 2, true);
  assert_false(wrap_calloc_pending());
  url_free(&u);
  assert_true(crawl__life_fatal(&w->b.shard));
  assert_string_equal(w->b.err, "out of memory");
  w->b.err[0] = '\0'; /* the world's end checks for no other */
  assert_int_equal(world_queued_pages(w->b.shard.fr).count, 0);
  assert_null(crawl__speculate_find(&w->b.shard, text));
  world_free(w);
}

static void consider_page(struct world *w, int i) {
  char url[64];
  snprintf(url, sizeof(url), "http://a.test/q%d", i);
  consider(w, url, "http://a.test/", 2, true);
}

static void test_the_budget_bounds_pages_fetched_ahead(void **state) {
  (void)state;
  struct world *w = world_new();
  crawl__held_set_queue_memory(&w->b.shard, 4); /* a budget of 8 pages fetched ahead (twice it) */
  for (int i = 0; i < 8; i++)
    consider_page(w, i);
  /* queued while the queue holds under three quarters of the budget, the host's lookup
   * counted: q0 to q4 */
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 5);
  assert_string_equal(q.urls[4], "http://a.test/q4");
  assert_null(crawl__speculate_find(&w->b.shard, "http://a.test/q5"));
  /* fetched, they leave the queue but still wait for their confirmation, and count: three more,
   * then the budget is reached */
  for (int i = 0; i < 5; i++) {
    char url[64];
    snprintf(url, sizeof(url), "http://a.test/q%d", i);
    world_fetch_ahead(&w->b.shard, url, NULL, NULL, via_a);
  }
  for (int i = 8; i < 12; i++)
    consider_page(w, i);
  q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 3);
  assert_string_equal(q.urls[2], "http://a.test/q10");
  assert_null(crawl__speculate_find(&w->b.shard, "http://a.test/q11"));
  assert_non_null(crawl__speculate_find(&w->b.shard, "http://a.test/q0")); /* from the stash */
  world_free(w);
}

static void test_a_page_cancelled_before_its_fetch_leaves_the_queue(void **state) {
  (void)state;
  struct world *w = world_new();
  consider(w, "http://a.test/x", "http://a.test/", 2, true);
  consider(w, "http://a.test/y", "http://a.test/", 2, true);
  crawl__speculate_cancel(&w->b.shard, crawl__speculate_find(&w->b.shard, "http://a.test/x"));
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 1);
  assert_string_equal(q.urls[0], "http://a.test/y");
  assert_null(crawl__speculate_find(&w->b.shard, "http://a.test/x"));
  /* known no more: offered again, it is fetched ahead again */
  consider(w, "http://a.test/x", "http://a.test/", 2, true);
  assert_int_equal(world_queued_pages(w->b.shard.fr).count, 2);
  world_free(w);
}

/* Its item taken from the queue into a request of its depth, its record and a redirect kept
 * (report.c hands them over), its links held, and the request ended. */
static void test_a_fetched_page_waits_in_the_stash_and_comes_back_whole(void **state) {
  (void)state;
  struct world *w = world_new();
  struct shard *c = &w->b.shard;
  consider(w, "http://a.test/x", "http://a.test/", 2, true);
  static const char *const links[] = {"http://a.test/x/1", "http://a.test/x/2", NULL};
  world_fetch_ahead(c, "http://a.test/x", links, NULL, via_a);
  assert_int_equal(w->written_count, 0); /* not reported: not confirmed yet */
  assert_true(crawl__stash_fd(c) >= 0);  /* it went to the stash */
  assert_int_equal(crawl__held_spec_links(c), 0);

  struct spec *e = crawl__speculate_find(c, "http://a.test/x");
  assert_non_null(e);
  assert_true(e->done);
  assert_int_equal(crawl__held_spec_links(c), 2);
  struct held_page *hp = crawl__speculate_take_links(c, e);
  assert_int_equal(crawl__held_spec_links(c), 0);
  assert_non_null(hp);
  assert_int_equal(hp->count, 2);
  struct link_how how;
  assert_string_equal(crawl__held_link(c, hp, 0, &how), "http://a.test/x/1");
  assert_int_equal(how.via, via_a.via);
  assert_string_equal(crawl__held_link(c, hp, 1, &how), "http://a.test/x/2");
  crawl__held_free(c, hp);

  /* confirmed at depth 1 by a link of the seed: its record as kept, at the depth it has now */
  crawl__speculate_report(c, e, "http://a.test/", 1, 0, true);
  assert_int_equal(w->written_count, 1);
  assert_string_equal(w->written[0].url, "http://a.test/x");
  assert_string_equal(w->written[0].from, "http://a.test/");
  assert_int_equal(w->written[0].depth, 1);
  assert_int_equal(w->written[0].status, 200);
  assert_string_equal(w->written[0].type, "text/html");
  assert_int_equal(w->offered_count, 0);
  assert_int_equal(w->b.stats.speculated, 1);
  crawl__speculate_remove(c, e);
  assert_null(crawl__speculate_find(c, "http://a.test/x"));
  world_free(w);
}

static void test_a_kept_redirect_is_offered_when_confirmed(void **state) {
  (void)state;
  struct world *w = world_new();
  struct shard *c = &w->b.shard;
  consider(w, "http://a.test/old", "http://a.test/", 2, true);
  world_fetch_ahead(c, "http://a.test/old", NULL, "http://a.test/new", via_a);
  struct spec *e = crawl__speculate_find(c, "http://a.test/old");
  assert_non_null(e);
  crawl__speculate_report(c, e, "http://a.test/", 2, 0, true);
  assert_int_equal(w->written_count, 1);
  assert_int_equal(w->written[0].status, 301);
  assert_int_equal(w->offered_count, 1);
  assert_string_equal(w->offered[0].url, "http://a.test/new");
  assert_string_equal(w->offered[0].from, "http://a.test/old");
  assert_int_equal(w->offered[0].depth, 2);
  /* reported without its redirect (a page settled another way): none offered */
  crawl__speculate_report(c, e, "http://a.test/", 2, 0, false);
  assert_int_equal(w->offered_count, 1);
  crawl__speculate_remove(c, e);
  world_free(w);
}

static void test_a_confirmed_page_waits_for_its_level_and_moves_up(void **state) {
  (void)state;
  struct world *w = world_new();
  struct shard *c = &w->b.shard;
  consider(w, "http://a.test/x", "http://a.test/p", 3, true);
  world_fetch_ahead(c, "http://a.test/x", NULL, NULL, via_a);
  struct spec *e = crawl__speculate_find(c, "http://a.test/x");
  assert_non_null(e);
  /* confirmed at depth 3, a level the gate has not reached: it waits with its held page */
  struct held_page *hp = crawl__held_new(c, "http://a.test/x", 3);
  assert_true(crawl__speculate_wait(c, e, hp, "http://a.test/p", 0));
  crawl__held_queue(c, hp);
  assert_true(crawl__held_waits(hp));
  assert_int_equal(frontier_pending(c->fr, 3), 1);

  /* a redirect of depth 2 reaches it: it moves up, found by the redirect from now on */
  assert_false(crawl__speculate_lower(c, "http://a.test/x", "http://a.test/r", 3, via_a));
  assert_true(crawl__speculate_lower(c, "http://a.test/x", "http://a.test/r", 2,
                                     (struct link_how){VIA_REDIRECT, true}));
  assert_int_equal(hp->depth, 2);
  assert_int_equal(frontier_pending(c->fr, 3), 0);
  assert_int_equal(frontier_pending(c->fr, 2), 1);
  assert_false(crawl__speculate_lower(c, "http://a.test/y", "http://a.test/r", 1, via_a));

  /* its level comes: reported at depth 2, from the redirect, and forgotten */
  assert_ptr_equal(crawl__held_due(c, false), hp);
  crawl__speculate_settle(c, hp, true);
  assert_int_equal(w->written_count, 1);
  assert_string_equal(w->written[0].url, "http://a.test/x");
  assert_string_equal(w->written[0].from, "http://a.test/r");
  assert_int_equal(w->written[0].depth, 2);
  assert_false(crawl__held_waits(hp));
  crawl__held_done(c, hp);
  assert_int_equal(frontier_pending(c->fr, 2), 0);
  assert_null(crawl__speculate_find(c, "http://a.test/x"));
  world_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_held_link_is_fetched_ahead_once),
      cmocka_unit_test(test_what_is_not_fetched_ahead),
      cmocka_unit_test(test_no_memory_for_a_new_host),
      cmocka_unit_test(test_the_budget_bounds_pages_fetched_ahead),
      cmocka_unit_test(test_a_page_cancelled_before_its_fetch_leaves_the_queue),
      cmocka_unit_test(test_a_fetched_page_waits_in_the_stash_and_comes_back_whole),
      cmocka_unit_test(test_a_kept_redirect_is_offered_when_confirmed),
      cmocka_unit_test(test_a_confirmed_page_waits_for_its_level_and_moves_up),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
