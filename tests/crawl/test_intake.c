/* The intake (crawl/intake.c), built from that file and the files below it that it hands URLs to
 * (held, speculate, stash, host, queries, depthcut, report, saved, fragments, referrers, mail,
 * mesh, budget), no stand-ins, over a real frontier and seen filter, with the hooks a shard is
 * handed at set-up: a page's links are printed once and queued at their host with their depth
 * and page, in the order found; a link out of scope, past -d, of a skipped extension, nofollow,
 * excluded by the user's filters or shaped like a spider trap is printed or not and gets the
 * fate the user reads in its record, and is never queued; the links of a page fetched ahead of
 * its level wait until the level comes, then are offered as found, and a page of that level done
 * before they are offered waits behind them; a redirect's target found first one level deeper
 * moves up to the redirect's depth; a link to a host whose lookups all failed fails at once; a page
 * fetched ahead without links, confirmed at its level, is reported and forgotten. */
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/mesh.h"
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

static const struct link_how via_a = {VIA_PAGE + PARSE_VIA_A, true};
static const struct link_how via_a_nofollow = {VIA_PAGE + PARSE_VIA_A, false};

struct world {
  struct world_base b;
  char printed[16][128]; /* URLs printed (no --jsonl) */
  size_t printed_count;
  struct world_records records; /* records written (--jsonl) */
};

static core_rc sink_url(void *writer, const char *url) {
  struct world *w = writer;
  assert_true(w->printed_count < 16);
  snprintf(w->printed[w->printed_count++], sizeof(w->printed[0]), "%s", url);
  return CORE_OK;
}

static core_rc sink_record(void *writer, const struct crawl_record *rec) {
  struct world *w = writer;
  world_records_add(&w->records, rec);
  return CORE_OK;
}

static void offer(struct shard *c, const struct url *u, const char *from, int depth, int redirects,
                  enum offer_kind kind, struct link_how how) {
  crawl__intake_offer(c, u, from, depth, redirects, kind, how);
}

/* A shard of one run whose links are printed (or, with jsonl, recorded); polite (a delay of 1 s),
 * it fetches pages ahead of their level. */
static struct world *world_make(bool jsonl, bool polite) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  w->b.cfg = (struct crawl_config){.depth = 3,
                                   .delay = polite ? 1 : 0,
                                   .max_delay = 30,
                                   .max_url_length = 4096,
                                   .max_path_repeat = 3,
                                   .max_path_segments = 64,
                                   .max_redirs = 5,
                                   .jsonl = jsonl,
                                   .robots = false};
  assert_int_equal(core_list_add(&w->b.cfg.skip_ext, "pdf"), CORE_OK);
  w->b.sink.url = sink_url;
  w->b.sink.record = sink_record;
  world_base_open(&w->b, w);
  struct shard *c = &w->b.shard;
  c->hooks.seed_found = world_no_seed_found;
  c->hooks.failed_record = world_failed_record_at_once;
  c->hooks.spec_record = world_spec_record;
  c->hooks.offer = offer;
  world_filters_open(c, (const char *const[]){"a.test", "b.test", NULL});
  struct frontier_options opts = {.delay = polite ? 1 : 0, .max_delay = 30, .per_host = 1};
  world_intake_open(c, &opts, c->seen);
  return w;
}

static struct world *world_new(bool jsonl) {
  return world_make(jsonl, false);
}

static void world_free(struct world *w) {
  world_intake_close(&w->b.shard);
  world_filters_close(&w->b.shard);
  core_list_free(&w->b.cfg.skip_ext);
  core_list_free(&w->b.cfg.reject_ext);
  for (size_t i = 0; i < w->b.cfg.exclude.count; i++)
    regfree(&w->b.cfg.exclude.items[i]);
  free(w->b.cfg.exclude.items);
  world_base_close(&w->b);
  free(w);
}

/* A page being fetched, as request.c makes one: its item (its URL, depth and page) and the depth
 * it holds in the frontier. */
struct page {
  struct request rq;
  struct url base;
};

static void page_open(struct world *w, struct page *p, const char *url, int depth) {
  memset(p, 0, sizeof(*p));
  p->rq.shard = &w->b.shard;
  p->rq.item = frontier_item_new(FRONTIER_PAGE, url, NULL, depth);
  assert_non_null(p->rq.item);
  p->rq.gate_depth = depth;
  frontier_hold(w->b.shard.fr, depth); /* popped: pending at its depth until released */
  assert_int_equal(url_resolve(NULL, url, strlen(url), 4096, &p->base), CORE_OK);
}

static void page_link(struct page *p, const char *href, struct link_how how) {
  crawl__intake_offer_link(&p->rq, &p->base, href, strlen(href), NULL, p->rq.item->depth + 1, how);
}

/* Its links flushed and the page done, as request.c ends one. */
static void page_close(struct world *w, struct page *p) {
  crawl__intake_flush(&p->rq);
  if (p->rq.held) { /* fetched ahead of its level: its links wait for it */
    crawl__held_seal(p->rq.held);
    crawl__held_append(&w->b.shard, p->rq.held);
  } else {
    frontier_release(w->b.shard.fr, p->rq.gate_depth);
  }
  frontier_item_free(p->rq.item);
  url_free(&p->base);
}

static void test_new_links_are_printed_once_and_queued_in_order(void **state) {
  (void)state;
  struct world *w = world_new(false);
  struct page p;
  page_open(w, &p, "http://a.test/", 0);
  page_link(&p, "one.html", via_a);
  page_link(&p, "http://b.test/two.html", via_a);
  page_link(&p, "/one.html#part", via_a); /* the same page */
  page_link(&p, "mailto:someone@a.test", via_a);
  page_close(w, &p);
  assert_int_equal(w->printed_count, 2);
  assert_string_equal(w->printed[0], "http://a.test/one.html");
  assert_string_equal(w->printed[1], "http://b.test/two.html");
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 2);
  assert_true(world_queued_at(&q, "http://a.test/one.html") >= 0);
  assert_true(world_queued_at(&q, "http://b.test/two.html") >= 0);
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(q.depth[i], 1);
    assert_string_equal(q.from[i], "http://a.test/");
  }
  assert_int_equal(w->b.stats.unparsable, 1);

  /* found again on another page: neither printed nor queued again */
  page_open(w, &p, "http://b.test/two.html", 1);
  page_link(&p, "http://a.test/one.html", via_a);
  page_link(&p, "three.html", via_a);
  page_close(w, &p);
  assert_int_equal(w->printed_count, 3);
  assert_string_equal(w->printed[2], "http://b.test/three.html");
  q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 3);
  assert_int_equal(w->b.stats.discovered, 3);
  world_free(w);
}

static void test_each_link_not_followed_gets_its_fate(void **state) {
  (void)state;
  struct world *w = world_new(true);
  assert_int_equal(core_list_add(&w->b.cfg.reject_ext, "zip"), CORE_OK);
  w->b.cfg.exclude.items = calloc(1, sizeof(regex_t));
  assert_non_null(w->b.cfg.exclude.items);
  assert_int_equal(regcomp(&w->b.cfg.exclude.items[0], "/private/", REG_EXTENDED | REG_NOSUB), 0);
  w->b.cfg.exclude.count = 1;
  struct page p;
  page_open(w, &p, "http://a.test/d/", 2);
  page_link(&p, "http://c.test/", via_a);       /* out of scope */
  page_link(&p, "deeper.html", via_a);          /* depth 3: within -d 3 */
  page_link(&p, "paper.pdf", via_a);            /* --skip-ext */
  page_link(&p, "hidden.html", via_a_nofollow); /* rel=nofollow */
  page_link(&p, "x/x/x/x/x/", via_a);           /* a spider trap */
  page_link(&p, "files.zip", via_a);            /* --reject-ext: never seen at all */
  page_link(&p, "/private/notes.html", via_a);  /* --exclude */
  page_close(w, &p);
  const struct world_record *r;
  assert_non_null(r = world_records_find(&w->records, "http://c.test/"));
  assert_int_equal(r->fate, CRAWL_FATE_OUTSIDE);
  assert_string_equal(r->from, "http://a.test/d/");
  assert_int_equal(r->depth, 3);
  assert_non_null(r = world_records_find(&w->records, "http://a.test/d/paper.pdf"));
  assert_int_equal(r->fate, CRAWL_FATE_SKIPPED);
  assert_non_null(r = world_records_find(&w->records, "http://a.test/d/hidden.html"));
  assert_int_equal(r->fate, CRAWL_FATE_ROBOTS);
  assert_non_null(r = world_records_find(&w->records, "http://a.test/d/x/x/x/x/x/"));
  assert_int_equal(r->fate, CRAWL_FATE_TRAP);
  assert_null(world_records_find(&w->records, "http://a.test/d/files.zip"));
  assert_null(world_records_find(&w->records, "http://a.test/private/notes.html"));
  assert_null(world_records_find(
      &w->records, "http://a.test/d/deeper.html")); /* queued: its record comes later */
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 1);
  assert_string_equal(q.urls[0], "http://a.test/d/deeper.html");
  assert_int_equal(q.depth[0], 3);

  /* one level further is past -d: not queued (the depth cut records it) */
  page_open(w, &p, "http://a.test/d/deeper.html", 3);
  page_link(&p, "deepest.html", via_a);
  page_close(w, &p);
  assert_int_equal(world_queued_pages(w->b.shard.fr).count, 1);
  world_free(w);
}

static void test_links_of_a_page_ahead_of_its_level_wait_for_it(void **state) {
  (void)state;
  struct world *w = world_new(false);
  struct shard *c = &w->b.shard;
  struct page shallow, ahead;
  page_open(w, &shallow, "http://a.test/", 0); /* its level, 0, is the gate */
  page_open(w, &ahead, "http://b.test/", 1);   /* fetched one level ahead of it */
  bool was_new;
  assert_int_equal(seen_add(w->b.shard.seen, "http://b.test/known.html", 24, &was_new), CORE_OK);
  page_link(&ahead, "later.html", via_a);
  page_link(&ahead, "http://a.test/both.html", via_a);
  page_link(&ahead, "known.html", via_a); /* seen already: dropped, not held */
  page_close(w, &ahead);
  assert_int_equal(w->printed_count, 0); /* held: neither printed nor queued */
  assert_int_equal(world_queued_pages(w->b.shard.fr).count, 0);
  assert_int_equal(crawl__held_links(c), 2);

  /* the shallower page finds one of them first, one level up */
  page_link(&shallow, "both.html", via_a);
  page_close(w, &shallow);
  assert_int_equal(w->printed_count, 1);
  assert_string_equal(w->printed[0], "http://a.test/both.html");

  /* level 1 comes: the held links are offered as found, the one known already dropped */
  crawl__intake_replay_held(c, false);
  assert_int_equal(crawl__held_pages(c), 0);
  assert_int_equal(w->printed_count, 2);
  assert_string_equal(w->printed[1], "http://b.test/later.html");
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 2);
  int both = world_queued_at(&q, "http://a.test/both.html"),
      later = world_queued_at(&q, "http://b.test/later.html");
  assert_true(both >= 0 && later >= 0);
  assert_int_equal(q.depth[both], 1);
  assert_string_equal(q.from[both], "http://a.test/");
  assert_int_equal(q.depth[later], 2);
  assert_string_equal(q.from[later], "http://b.test/");
  world_free(w);
}

/* The gate can rise between a replay of held links and a request's end (another shard's level
 * ending in between): a page of the level done then waits behind the pages held before it, so
 * that a link both found is credited to the one fetched first, as in a crawl where the gate rose
 * earlier or later. */
static void test_a_page_done_after_a_held_one_of_its_level_waits_behind_it(void **state) {
  (void)state;
  struct world *w = world_new(false);
  struct shard *c = &w->b.shard;
  struct page shallow, first, second;
  page_open(w, &shallow, "http://a.test/", 0);
  page_open(w, &first, "http://a.test/first.html", 1);
  page_link(&first, "both.html", via_a);
  page_link(&first, "first-only.html", via_a);
  page_close(w, &first); /* ahead of the gate, 0: held */
  page_close(w, &shallow);
  assert_int_equal(frontier_gate(c->fr), 1); /* risen, and nothing replayed yet */
  page_open(w, &second, "http://a.test/second.html", 1);
  page_link(&second, "both.html", via_a);
  page_link(&second, "second-only.html", via_a);
  page_close(w, &second);
  assert_int_equal(w->printed_count, 0); /* behind the first: neither printed nor queued */
  assert_int_equal(world_queued_pages(c->fr).count, 0);
  assert_int_equal(crawl__held_pages(c), 2);

  crawl__intake_replay_held(c, false);
  assert_int_equal(crawl__held_pages(c), 0);
  assert_int_equal(w->printed_count, 3); /* in the order found */
  assert_string_equal(w->printed[0], "http://a.test/both.html");
  assert_string_equal(w->printed[1], "http://a.test/first-only.html");
  assert_string_equal(w->printed[2], "http://a.test/second-only.html");
  struct world_queued q = world_queued_pages(c->fr);
  assert_int_equal(q.count, 3);
  int both = world_queued_at(&q, "http://a.test/both.html");
  assert_true(both >= 0);
  assert_string_equal(q.from[both], "http://a.test/first.html");
  world_free(w);
}

static void test_a_redirect_target_found_deeper_moves_up(void **state) {
  (void)state;
  struct world *w = world_new(true);
  struct page p;
  page_open(w, &p, "http://a.test/deep/", 2);
  page_link(&p, "target.html", via_a);
  page_close(w, &p);
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 1);
  assert_int_equal(q.depth[0], 3);

  /* a redirect of depth 1 names it: it takes the redirect's depth and is found by it */
  struct url u;
  const char *target = "http://a.test/deep/target.html";
  assert_int_equal(url_resolve(NULL, target, strlen(target), 4096, &u), CORE_OK);
  crawl__intake_offer(&w->b.shard, &u, "http://a.test/moved", 1, 1, OFFER_REDIRECT,
                      (struct link_how){VIA_REDIRECT, true});
  q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 1);
  assert_string_equal(q.urls[0], target);
  assert_int_equal(q.depth[0], 1);
  assert_string_equal(q.from[0], "http://a.test/moved");
  /* a redirect from deeper changes nothing */
  crawl__intake_offer(&w->b.shard, &u, "http://a.test/d/e/f", 3, 1, OFFER_REDIRECT,
                      (struct link_how){VIA_REDIRECT, true});
  q = world_queued_pages(w->b.shard.fr);
  assert_int_equal(q.count, 1);
  assert_int_equal(q.depth[0], 1);
  url_free(&u);
  world_free(w);
}

static void test_a_link_to_a_host_whose_lookups_failed_fails_at_once(void **state) {
  (void)state;
  struct world *w = world_new(true);
  struct shard *c = &w->b.shard;
  struct url host;
  assert_int_equal(url_resolve(NULL, "http://b.test/", 14, 4096, &host), CORE_OK);
  struct host_data *hd = crawl__host_for(c, &host);
  assert_non_null(hd);
  hd->dead = "Domain name not found"; /* every lookup of b.test failed (on_host_resolved) */
  url_free(&host);
  struct page p;
  page_open(w, &p, "http://a.test/", 0);
  page_link(&p, "http://b.test/one.html", via_a);
  page_link(&p, "two.html", via_a);
  page_close(w, &p);
  /* its fate is known: it is not queued to wait for a host that has no address */
  const struct world_record *r = world_records_find(&w->records, "http://b.test/one.html");
  assert_non_null(r);
  assert_int_equal(r->fate, CRAWL_FATE_FAILED);
  assert_int_equal(r->cause, CRAWL_CAUSE_DNS);
  assert_string_equal(r->error, "DNS lookup failed: Domain name not found");
  assert_string_equal(r->from, "http://a.test/");
  assert_int_equal(r->depth, 1);
  struct world_queued q = world_queued_pages(c->fr);
  assert_int_equal(q.count, 1);
  assert_string_equal(q.urls[0], "http://a.test/two.html");
  world_free(w);
}

/* A host's data lives in its frontier host and is named by its origin: the same host each time
 * its URLs come, its name as they give it (an IPv6 address without its brackets), its port. */
static void test_a_host_is_named_by_its_origin(void **state) {
  (void)state;
  struct world *w = world_new(false);
  struct shard *c = &w->b.shard;
  const struct {
    const char *url, *origin, *name;
    unsigned port;
  } hosts[] = {
      {"http://a.test:8080/x", "http://a.test:8080", "a.test", 8080},
      {"https://b.test/", "https://b.test", "b.test", 443},
      {"http://[::1]:81/", "http://[::1]:81", "::1", 81},
      {"http://127.0.0.1/", "http://127.0.0.1", "127.0.0.1", 80},
  };
  for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
    struct url u;
    assert_int_equal(url_seed(hosts[i].url, 4096, &u), CORE_OK);
    struct host_data *hd = crawl__host_for(c, &u);
    assert_non_null(hd);
    assert_ptr_equal(crawl__host_for(c, &u), hd);
    frontier_host *fh = frontier_host_of_data(hd);
    assert_ptr_equal(frontier_host_data(fh), hd);
    assert_string_equal(frontier_host_origin(fh), hosts[i].origin);
    size_t len;
    const char *name = crawl__host_name(hd, &len);
    assert_int_equal(len, strlen(hosts[i].name));
    assert_memory_equal(name, hosts[i].name, len);
    assert_int_equal(hd->port, hosts[i].port);
    url_free(&u);
  }
  world_free(w);
}

/* A page fetched ahead of its level that found no links, confirmed by a redirect once the gate is
 * at the redirect's level: reported at once, at that depth and from the redirect, and forgotten;
 * there are no links of it to hold. */
static void test_a_page_fetched_ahead_without_links_is_reported_when_confirmed(void **state) {
  (void)state;
  struct world *w = world_make(true, true);
  struct shard *c = &w->b.shard;
  struct page shallow;
  page_open(w, &shallow, "http://a.test/moved", 1); /* level 1 is the gate */
  const char *leaf = "http://a.test/leaf.html";
  struct url u;
  assert_int_equal(url_resolve(NULL, leaf, strlen(leaf), 4096, &u), CORE_OK);
  crawl__speculate_consider(c, &u, "http://a.test/p", 2, true); /* a held link of level 2 */
  assert_non_null(crawl__speculate_find(c, leaf));
  world_fetch_ahead(c, leaf, NULL, NULL, via_a); /* it found no links: it holds none */
  assert_int_equal(w->records.count, 0);         /* not confirmed yet */

  crawl__intake_offer(c, &u, "http://a.test/moved", 1, 1, OFFER_REDIRECT,
                      (struct link_how){VIA_REDIRECT, true});
  const struct world_record *r = world_records_find(&w->records, leaf);
  assert_non_null(r);
  assert_int_equal(r->fate, CRAWL_FATE_FETCHED);
  assert_int_equal(r->status, 200);
  assert_int_equal(r->depth, 1);
  assert_string_equal(r->from, "http://a.test/moved");
  assert_null(crawl__speculate_find(c, leaf));
  assert_int_equal(crawl__held_pages(c), 0);
  assert_int_equal(frontier_pending(c->fr, 1), 1); /* the shallow page's alone */
  assert_int_equal(world_queued_pages(c->fr).count, 0);
  url_free(&u);
  page_close(w, &shallow);
  world_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_new_links_are_printed_once_and_queued_in_order),
      cmocka_unit_test(test_each_link_not_followed_gets_its_fate),
      cmocka_unit_test(test_links_of_a_page_ahead_of_its_level_wait_for_it),
      cmocka_unit_test(test_a_page_done_after_a_held_one_of_its_level_waits_behind_it),
      cmocka_unit_test(test_a_redirect_target_found_deeper_moves_up),
      cmocka_unit_test(test_a_link_to_a_host_whose_lookups_failed_fails_at_once),
      cmocka_unit_test(test_a_page_fetched_ahead_without_links_is_reported_when_confirmed),
      cmocka_unit_test(test_a_host_is_named_by_its_origin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
