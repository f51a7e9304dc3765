/* Continuing a kept crawl (crawl/restore.c), built from that file and the files below it that
 * it fills (saved.c's lines, held.c, host.c, depthcut.c, budget.c, mesh.c), over a real frontier,
 * with the link hook a shard is handed at attach: every line of a checkpoint comes back where it
 * was (pages and sitemaps queued with their depth, attempts, redirects, flags and wait, a host's
 * pages and gap, held pages with their links, counters added up, broken links, links on their
 * way offered, URLs cut past the depth cut again or queued when the depth now reaches them), a
 * damaged line is passed over without losing the others, the seed to feed from is read first,
 * and with several shards each line goes to the shard that owns its host. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/mesh.h"
#include "crawl/restore.h"
#include "crawl/saved.h"
#include "tests/crawl/world.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct taken {
  enum link_kind kind;
  int depth, redirects;
  char page[128], url[128];
};

struct world {
  struct world_base b;
  struct taken taken[8];
  size_t taken_count;
};

/* The hook a shard is handed at attach (intake.c's in the engine): a link that reached its
 * owner. */
static void take(struct shard *c, enum link_kind kind, const struct url *u, const char *page,
                 int depth, int redirects, struct link_how how) {
  (void)how;
  struct world *w = (struct world *)((char *)c - offsetof(struct world, b.shard)); /* its world */
  assert_true(w->taken_count < 8);
  struct taken *t = &w->taken[w->taken_count++];
  *t = (struct taken){kind, depth, redirects, "", ""};
  snprintf(t->page, sizeof(t->page), "%s", page ? page : "-");
  snprintf(t->url, sizeof(t->url), "%s", u->text);
}

static struct world *world_new(int depth) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  w->b.cfg = (struct crawl_config){
      .depth = depth, .max_delay = 30, .max_url_length = 4096, .seed_count = 5, .robots = false};
  world_base_open(&w->b, NULL);
  struct shard *c = &w->b.shard;
  struct frontier_options opts = {.delay = 1, .max_delay = 30, .per_host = 1};
  world_parts_open(c, &opts, NULL, take);
  assert_int_equal(crawl__restore_prepare(c), CORE_OK);
  return w;
}

static void world_free(struct world *w) {
  struct shard *c = &w->b.shard;
  world_parts_close(c);
  crawl__restore_close(c);
  world_base_close(&w->b);
  free(w);
}

/* A checkpoint of these lines, loaded as the shard's save. */
static void load_save(struct shard *c, const char *lines) {
  FILE *f = crawl__restore_file_make(c);
  assert_non_null(f);
  assert_int_equal(fputs(lines, f) >= 0, true);
  assert_int_equal(fflush(f), 0);
  rewind(f);
}

struct queued {
  const struct frontier_item *items[16];
  size_t count;
};

static core_rc visit_item(void *arg, frontier_host *host, const struct frontier_item *item) {
  (void)host;
  struct queued *q = arg;
  if (item->kind != FRONTIER_PAGE && item->kind != FRONTIER_SITEMAP)
    return CORE_OK; /* a host's lookup, queued when the host was first seen */
  assert_true(q->count < 16);
  q->items[q->count++] = item;
  return CORE_OK;
}

static const struct frontier_item *queued_item(struct queued *q, const char *url) {
  for (size_t i = 0; i < q->count; i++)
    if (!strcmp(q->items[i]->url, url))
      return q->items[i];
  return NULL;
}

static void test_every_line_comes_back(void **state) {
  (void)state;
  struct world *w = world_new(4);
  struct shard *c = &w->b.shard;
  char held_link[64], transit[128];
  snprintf(held_link, sizeof(held_link), "link 4 %c x.html\nlink 4 %c y.html\n",
           crawl__mail_how_code((struct link_how){VIA_PAGE + PARSE_VIA_A, true}),
           crawl__mail_how_code((struct link_how){VIA_PAGE + PARSE_VIA_IMG, false}));
  snprintf(transit, sizeof(transit), "transit R%c 2 1 http://a.test/m http://b.test/t\n",
           crawl__mail_how_code((struct link_how){VIA_REDIRECT, true}));
  char text[2048];
  snprintf(text, sizeof(text),
           "stat seeds_fed 3\n"
           "stat pages_started 40\n"
           "stat pages 17\n"
           "stat fate.fetched 9\n"
           "stat warc_bytes 1234\n"
           "stat output_bytes 567\n"
           "stat links_bytes 89\n"
           "stat ms 5000\n"
           "page 1 0 0 2 0.000 http://a.test/ http://a.test/p1\n"
           "page 2 2 3 0 2.500 http://a.test/p1 http://a.test/p2\n"
           "this line was damaged\n"
           "sitemap 0 0 0 0 0.000 - http://a.test/sitemap.xml\n"
           "host 1.500 5 http://a.test\n"
           "held 3 http://a.test/p2\n"
           "%s"
           "broken 404 http://a.test/ http://a.test/gone\n"
           "%s"
           "cut 5 0 http://a.test/p2 http://a.test/deep\n"
           "cut 4 0 http://a.test/p2 http://a.test/reached\n",
           held_link, transit);
  load_save(c, text);
  double before = core_now();
  assert_int_equal(crawl__restore_seeds_fed(c), 3);
  crawl__restore(c);
  assert_false(crawl__life_fatal(c));
  /* queued as they were, and the cut URL the depth now reaches */
  struct queued q = {.count = 0};
  assert_int_equal(frontier_visit(c->fr, NULL, visit_item, &q), CORE_OK);
  assert_int_equal(q.count, 4);
  const struct frontier_item *p1 = queued_item(&q, "http://a.test/p1");
  const struct frontier_item *p2 = queued_item(&q, "http://a.test/p2");
  const struct frontier_item *map = queued_item(&q, "http://a.test/sitemap.xml");
  const struct frontier_item *reached = queued_item(&q, "http://a.test/reached");
  assert_non_null(p1);
  assert_non_null(p2);
  assert_non_null(map);
  assert_non_null(reached);
  assert_int_equal(p1->depth, 1);
  assert_int_equal(p1->flags, 2);
  assert_string_equal(p1->from, "http://a.test/");
  assert_true(p1->not_before == 0);
  assert_int_equal(p2->depth, 2);
  assert_int_equal(p2->attempts, 2);
  assert_int_equal(p2->redirects, 3);
  assert_true(p2->not_before >= before + 2.5 && p2->not_before <= core_now() + 2.5);
  assert_int_equal(map->kind, FRONTIER_SITEMAP);
  assert_null(map->from);
  assert_int_equal(reached->depth, 4);
  /* the URL past the depth cut is cut again */
  assert_true(crawl__depthcut_pending(c));
  /* the host's pages and its gap */
  struct url u;
  assert_int_equal(url_resolve(NULL, "http://a.test/", 14, 4096, &u), CORE_OK);
  struct host_data *hd = crawl__host_for(c, &u);
  url_free(&u);
  assert_non_null(hd);
  assert_int_equal(hd->pages_started, 5);
  assert_true(frontier_host_next_time(frontier_host_of_data(hd)) >= before + 1.5);
  /* the held page and both its links */
  assert_int_equal(crawl__held_pages(c), 1);
  assert_int_equal(crawl__held_links(c), 2);
  struct held_page *hp = crawl__held_next(c, NULL);
  assert_non_null(hp);
  assert_int_equal(hp->depth, 3);
  assert_string_equal(hp->from, "http://a.test/p2");
  /* counters added to this run's, the run's own set */
  assert_int_equal(w->b.stats.pages, 17);
  assert_int_equal(w->b.stats.fates[CRAWL_FATE_FETCHED], 9);
  assert_int_equal(crawl__budget_pages_started(w->b.run), 40);
  assert_int_equal(crawl__restore_warc_keep(c), 1234); /* how much of each file stays */
  assert_int_equal(crawl__restore_output_keep(c), 567);
  assert_int_equal(crawl__restore_links_keep(c), 89);
  assert_true(crawl__life_start(c) <= core_now() - 5 + 0.001 && crawl__life_start(c) >= before - 5);
  /* the broken link, and the link that was on its way */
  assert_string_equal(w->b.stats.broken_links[0].url, "http://a.test/gone");
  assert_string_equal(w->b.stats.broken_links[0].from, "http://a.test/");
  assert_int_equal(w->b.stats.broken_links[0].status, 404);
  assert_int_equal(w->taken_count, 1);
  assert_int_equal(w->taken[0].kind, LINK_REDIRECT);
  assert_int_equal(w->taken[0].depth, 2);
  assert_int_equal(w->taken[0].redirects, 1);
  assert_string_equal(w->taken[0].page, "http://a.test/m");
  assert_string_equal(w->taken[0].url, "http://b.test/t");
  world_free(w);
}

/* A checkpoint's seed count past this run's seeds (the seeds were changed): every seed was fed. */
static void test_seeds_fed_within_the_seeds(void **state) {
  (void)state;
  struct world *w = world_new(4);
  load_save(&w->b.shard, "stat seeds_fed 99\npage 0 0 0 0 0.000 - http://a.test/\n");
  assert_int_equal(crawl__restore_seeds_fed(&w->b.shard), 5);
  world_free(w);
}

/* The hook of shards that are not a world's: splitting a save offers nothing. */
static void take_none(struct shard *c, enum link_kind kind, const struct url *u, const char *page,
                      int depth, int redirects, struct link_how how) {
  (void)c, (void)kind, (void)page, (void)depth, (void)redirects, (void)how;
  fail_msg("a link offered while a save was split: %s", u->text);
}

/* Two shards: each page, host and cut line goes to the shard that owns its host, a held page
 * with its links to one shard, counters to the first. */
static void test_split_by_owner(void **state) {
  (void)state;
  struct crawl_config cfg = {.depth = 4, .max_url_length = 4096, .seed_count = 0};
  struct crawl *run;
  assert_int_equal(crawl__mesh_create(2, &run), CORE_OK);
  struct shard shards[2] = {{.cfg = &cfg, .run = run}, {.cfg = &cfg, .run = run}};
  crawl__mesh_attach(run, 0, &shards[0], take_none);
  crawl__mesh_attach(run, 1, &shards[1], take_none);
  for (int i = 0; i < 2; i++)
    assert_int_equal(crawl__restore_prepare(&shards[i]), CORE_OK);
  /* hosts until both shards own one */
  char hosts[2][32] = {"", ""};
  for (int i = 0; i < 100 && (!hosts[0][0] || !hosts[1][0]); i++) {
    char h[32];
    snprintf(h, sizeof(h), "h%d.test", i);
    int owner = crawl__mesh_owner(&shards[0], h);
    assert_true(owner == 0 || owner == 1);
    if (!hosts[owner][0])
      snprintf(hosts[owner], sizeof(hosts[owner]), "%s", h);
  }
  assert_true(hosts[0][0] && hosts[1][0]);
  char text[1024];
  snprintf(text, sizeof(text),
           "stat pages 3\n"
           "page 1 0 0 0 0.000 - http://%s/a\n"
           "page 1 0 0 0 0.000 - http://%s/b\n"
           "host 0.000 2 http://%s\n"
           "held 2 http://%s/a\n"
           "link 3 A c.html\n"
           "cut 9 0 - http://%s/deep\n",
           hosts[0], hosts[1], hosts[1], hosts[0], hosts[1]);
  load_save(&shards[0], text);
  assert_int_equal(crawl__restore_split(shards, 2), CORE_OK);
  char *want[2];
  asprintf(&want[0],
           "stat pages 3\npage 1 0 0 0 0.000 - http://%s/a\nheld 2 http://%s/a\n"
           "link 3 A c.html\n",
           hosts[0], hosts[0]);
  asprintf(&want[1],
           "page 1 0 0 0 0.000 - http://%s/b\nhost 0.000 2 http://%s\n"
           "cut 9 0 - http://%s/deep\n",
           hosts[1], hosts[1], hosts[1]);
  for (int i = 0; i < 2; i++) {
    FILE *f = crawl__restore_file(&shards[i]);
    assert_non_null(f);
    rewind(f);
    char got[1024] = "";
    size_t n = fread(got, 1, sizeof(got) - 1, f);
    got[n] = '\0';
    assert_string_equal(got, want[i]);
    free(want[i]);
  }
  for (int i = 0; i < 2; i++)
    crawl__restore_close(&shards[i]);
  crawl__mesh_destroy(run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_line_comes_back),
      cmocka_unit_test(test_seeds_fed_within_the_seeds),
      cmocka_unit_test(test_split_by_owner),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
