/* Links held back (crawl/held.c), built from held.c and notes.c over a real frontier, pulled
 * back as intake.c pulls them (crawl__held_due, _link, _done): a held page comes back only when
 * the depth gate reaches its level, levels in depth order and pages of a level first in first
 * out; in a polite crawl each URL is held once, by the page that comes first (a shallower copy
 * takes over from a deeper one); a page that turns out shallower moves up a level; links come
 * back with how they were found; the links' count follows what is held. */
#include "crawl/held.h"
#include "crawl/life.h"
#include "seen/seen.h"
#include "tests/support/wrap_realloc.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const struct link_how via_a = {VIA_PAGE + PARSE_VIA_A, true};
static const struct link_how via_img = {VIA_PAGE + PARSE_VIA_IMG, false};

struct world {
  struct crawl_config cfg;
  struct crawl_stats stats;
  struct shard shard;
  char err[256];
};

static struct world *world_new(bool polite) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  w->cfg.max_url_length = 4096;
  w->cfg.delay = polite ? 1 : 0; /* held once: a polite crawl */
  struct frontier_options opts = {.delay = w->cfg.delay, .per_host = 1};
  assert_int_equal(frontier_create(&opts, NULL, NULL, &w->shard.fr), CORE_OK);
  assert_int_equal(seen_create(SEEN_EXACT, 1000, 0.001, 1, &w->shard.seen), CORE_OK);
  w->shard.cfg = &w->cfg;
  w->shard.stats = &w->stats;
  assert_int_equal(crawl__life_open(&w->shard, w->err, sizeof(w->err), 0), CORE_OK);
  crawl__held_prepare(&w->shard);
  return w;
}

static void world_free(struct world *w) {
  struct held_page *hp;
  while ((hp = crawl__held_take(&w->shard)))
    crawl__held_free(&w->shard, hp);
  crawl__held_close(&w->shard);
  assert_int_equal(crawl__held_links(&w->shard), 0);
  crawl__held_free_all(&w->shard);
  frontier_destroy(w->shard.fr);
  seen_destroy(w->shard.seen);
  crawl__life_close(&w->shard);
  assert_string_equal(w->err, "");
  free(w);
}

/* A page of depth fetched ahead, holding links (NULL-ended), queued as intake.c queues one:
 * its depth pending until it is replayed. */
static void hold(struct world *w, const char *from, int depth, const char *const *links,
                 struct link_how how) {
  struct held_page *hp = crawl__held_new(&w->shard, from, depth);
  assert_non_null(hp);
  for (size_t i = 0; links[i]; i++)
    crawl__held_add(&w->shard, hp, links[i], depth + 1, how);
  crawl__held_seal(hp);
  crawl__held_queue(&w->shard, hp);
}

/* What the next due page gives back, "from: url url ..." ("" when none is due). */
static void replay(struct world *w, bool all, char *out, size_t size) {
  out[0] = '\0';
  struct held_page *hp = crawl__held_due(&w->shard, all);
  if (!hp)
    return;
  size_t used = (size_t)snprintf(out, size, "%s %d:", hp->from, hp->depth);
  for (size_t i = 0; i < hp->count; i++) {
    struct link_how how;
    const char *text = crawl__held_link(&w->shard, hp, i, &how);
    if (!text)
      continue;
    assert_int_equal(hp->links[i].depth, hp->depth + 1);
    used += (size_t)snprintf(out + used, size - used, " %s%s", text, how.follow ? "" : "!");
  }
  crawl__held_done(&w->shard, hp);
  crawl__held_replayed(&w->shard);
}

static void test_levels_in_order_when_the_gate_comes(void **state) {
  (void)state;
  struct world *w = world_new(false);
  frontier_hold(w->shard.fr, 0); /* a page of depth 0 is still being fetched */
  hold(w, "http://a.test/deep", 2, (const char *[]){"http://a.test/d1", NULL}, via_a);
  hold(w, "http://a.test/one", 1, (const char *[]){"http://a.test/o1", NULL}, via_a);
  hold(w, "http://a.test/two", 1, (const char *[]){"http://a.test/t1", NULL}, via_img);
  assert_int_equal(crawl__held_pages(&w->shard), 3);
  assert_int_equal(crawl__held_links(&w->shard), 3);
  char got[512];
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, ""); /* level 0 pending: nothing is due */
  frontier_release(w->shard.fr, 0);
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/one 1: http://a.test/o1");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/two 1: http://a.test/t1!");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/deep 2: http://a.test/d1");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "");
  assert_int_equal(crawl__held_pages(&w->shard), 0);
  assert_int_equal(crawl__held_links(&w->shard), 0);
  assert_int_equal(frontier_gate(w->shard.fr), INT_MAX);
  world_free(w);
}

static void test_all_when_nothing_else_is_left(void **state) {
  (void)state;
  struct world *w = world_new(false);
  frontier_hold(w->shard.fr, 0);
  hold(w, "http://a.test/p", 3, (const char *[]){"http://a.test/x", NULL}, via_a);
  char got[256];
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "");
  replay(w, true, got, sizeof(got)); /* at the end, every held page comes */
  assert_string_equal(got, "http://a.test/p 3: http://a.test/x");
  frontier_release(w->shard.fr, 0);
  world_free(w);
}

static void test_each_url_once_in_a_polite_crawl(void **state) {
  (void)state;
  struct world *w = world_new(true);
  frontier_hold(w->shard.fr, 0);
  hold(w, "http://a.test/p2", 2, (const char *[]){"http://a.test/same", "http://a.test/b", NULL},
       via_a);
  /* a shallower page holding the same URL comes first, and takes it over */
  hold(w, "http://a.test/p1", 1, (const char *[]){"http://a.test/same", "http://a.test/a", NULL},
       via_a);
  /* one of the same level, later, drops its copy */
  hold(w, "http://a.test/q1", 1, (const char *[]){"http://a.test/a", "http://a.test/c", NULL},
       via_a);
  assert_int_equal(crawl__held_links(&w->shard), 4);
  frontier_release(w->shard.fr, 0);
  char got[512];
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/p1 1: http://a.test/same http://a.test/a");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/q1 1: http://a.test/c");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/p2 2: http://a.test/b");
  assert_int_equal(crawl__held_links(&w->shard), 0);
  world_free(w);
}

static void test_copies_kept_without_politeness(void **state) {
  (void)state;
  struct world *w = world_new(false); /* few and brief: every copy is kept */
  frontier_hold(w->shard.fr, 0);
  hold(w, "http://a.test/p1", 1, (const char *[]){"http://a.test/same", NULL}, via_a);
  hold(w, "http://a.test/q1", 1, (const char *[]){"http://a.test/same", NULL}, via_a);
  frontier_release(w->shard.fr, 0);
  char got[256];
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/p1 1: http://a.test/same");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/q1 1: http://a.test/same");
  world_free(w);
}

static void test_page_moves_up_a_level(void **state) {
  (void)state;
  struct world *w = world_new(true);
  frontier_hold(w->shard.fr, 0);
  hold(w, "http://a.test/r", 3, (const char *[]){"http://a.test/moved", NULL}, via_a);
  hold(w, "http://a.test/s", 2, (const char *[]){"http://a.test/stays", NULL}, via_a);
  /* a redirect of level 0 named it: its page is of depth 1, and comes first */
  struct held_page *r = NULL;
  for (struct held_page *hp = crawl__held_next(&w->shard, NULL); hp && !r;
       hp = crawl__held_next(&w->shard, hp))
    if (!strcmp(hp->from, "http://a.test/r"))
      r = hp;
  assert_non_null(r);
  crawl__held_move(&w->shard, r, 1);
  frontier_release(w->shard.fr, 0);
  char got[256];
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/r 1: http://a.test/moved");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/s 2: http://a.test/stays");
  world_free(w);
}

/* A page whose record waits with its links (a speculative page, confirmed) drops a URL a page of
 * its level holds first; moved up a level, it comes before that page, and takes the URL back. */
static void test_moved_page_takes_back_what_it_dropped(void **state) {
  (void)state;
  struct world *w = world_new(true);
  frontier_hold(w->shard.fr, 0);
  hold(w, "http://a.test/first", 2, (const char *[]){"http://a.test/x", "http://a.test/a", NULL},
       via_a);
  struct held_page *waits = crawl__held_new(&w->shard, "http://a.test/waits", 2);
  assert_non_null(waits);
  waits->page_hash = 1; /* its record waits in the stash */
  crawl__held_add(&w->shard, waits, "http://a.test/x", 3, via_img);
  crawl__held_add(&w->shard, waits, "http://a.test/b", 3, via_a);
  crawl__held_seal(waits);
  crawl__held_queue(&w->shard, waits);
  assert_int_equal(crawl__held_links(&w->shard), 3); /* its x dropped for the first page's */
  crawl__held_move(&w->shard, waits, 1);
  assert_int_equal(crawl__held_links(&w->shard), 3);
  frontier_release(w->shard.fr, 0);
  char got[256];
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/waits 1: http://a.test/b http://a.test/x!");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/first 2: http://a.test/a");
  world_free(w);
}

/* A page fetched ahead, confirmed long after it was fetched, waits for its level: what it links
 * and was seen meanwhile is let go as it is queued (offered, it would do nothing), and what is
 * still unknown stays. A page that does not wait keeps its links as they were held. */
static void test_waiting_page_lets_go_of_links_seen_since(void **state) {
  (void)state;
  struct world *w = world_new(true);
  frontier_hold(w->shard.fr, 0);
  const char *known = "http://a.test/known";
  bool fresh;
  assert_int_equal(seen_add(w->shard.seen, known, strlen(known), &fresh), CORE_OK);
  assert_true(fresh);
  struct held_page *waits = crawl__held_new(&w->shard, "http://a.test/waits", 1);
  assert_non_null(waits);
  waits->page_hash = 1; /* its record waits in the stash */
  crawl__held_add(&w->shard, waits, known, 2, via_a);
  crawl__held_add(&w->shard, waits, "http://a.test/new", 2, via_a);
  crawl__held_seal(waits);
  crawl__held_queue(&w->shard, waits);
  assert_int_equal(crawl__held_links(&w->shard), 1);
  hold(w, "http://a.test/plain", 1, (const char *[]){known, NULL}, via_a);
  assert_int_equal(crawl__held_links(&w->shard), 2);
  frontier_release(w->shard.fr, 0);
  char got[256];
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/waits 1: http://a.test/new");
  replay(w, false, got, sizeof(got));
  assert_string_equal(got, "http://a.test/plain 1: http://a.test/known");
  world_free(w);
}

/* The same two pages, with each growth of held.c's tables failing in turn while the waiting
 * page is queued (the note of a dropped link among them): nothing is lost, a link whose drop
 * could not be noted is kept by the page, and both pages' links still come out. */
static void test_failed_growth_while_queued_loses_no_link(void **state) {
  (void)state;
  for (long n = 1;; n++) {
    struct world *w = world_new(true);
    frontier_hold(w->shard.fr, 0);
    hold(w, "http://a.test/first", 2, (const char *[]){"http://a.test/x", "http://a.test/a", NULL},
         via_a);
    struct held_page *waits = crawl__held_new(&w->shard, "http://a.test/waits", 2);
    assert_non_null(waits);
    waits->page_hash = 1;
    crawl__held_add(&w->shard, waits, "http://a.test/x", 3, via_img);
    crawl__held_add(&w->shard, waits, "http://a.test/b", 3, via_a);
    crawl__held_seal(waits);
    wrap_realloc_fail_in(n);
    crawl__held_queue(&w->shard, waits);
    bool failed = !wrap_realloc_pending();
    wrap_realloc_fail_in(0);
    size_t links = crawl__held_links(&w->shard);
    assert_true(links == 3 || (failed && links == 4));
    frontier_release(w->shard.fr, 0);
    char got[2][256];
    replay(w, true, got[0], sizeof(got[0]));
    replay(w, true, got[1], sizeof(got[1]));
    const char *waits_got = strstr(got[0], "/waits ") ? got[0] : got[1];
    const char *first_got = waits_got == got[0] ? got[1] : got[0];
    assert_non_null(strstr(waits_got, "http://a.test/b"));
    assert_non_null(strstr(first_got, "http://a.test/a"));
    assert_non_null(strstr(first_got, "http://a.test/x") ? first_got : strstr(waits_got, "/x"));
    world_free(w);
    if (!failed)
      break; /* every growth of the queueing has failed once */
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_levels_in_order_when_the_gate_comes),
      cmocka_unit_test(test_all_when_nothing_else_is_left),
      cmocka_unit_test(test_each_url_once_in_a_polite_crawl),
      cmocka_unit_test(test_copies_kept_without_politeness),
      cmocka_unit_test(test_page_moves_up_a_level),
      cmocka_unit_test(test_moved_page_takes_back_what_it_dropped),
      cmocka_unit_test(test_failed_growth_while_queued_loses_no_link),
      cmocka_unit_test(test_waiting_page_lets_go_of_links_seen_since),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
