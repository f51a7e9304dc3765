/* The shards' hand-over (cli/shard.c), without the crawl around it: which shard owns a host, a
 * link on its way holding back the depth gate of every shard, the end of the crawl only when all
 * are idle with empty inboxes, and -n shared. The crawl's own steps are stand-ins here that record
 * what reached them. */
#include "crawl/crawl-int.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- stand-ins for crawler.c and sitefiles.c ---- */

struct offered {
  char url[256];
  char from[256];
  int depth, redirects;
  enum offer_kind kind;
  bool follow;
};
static struct offered offers[64];
static int offer_count;
static int sitemap_count;

void crawl__offer_owned(struct shard *c, const struct core_url *u, const char *from, int depth,
                        int redirects, enum offer_kind kind, bool follow) {
  (void)c;
  struct offered *o = &offers[offer_count++];
  snprintf(o->url, sizeof(o->url), "%s", u->text);
  snprintf(o->from, sizeof(o->from), "%s", from ? from : "");
  o->depth = depth;
  o->redirects = redirects;
  o->kind = kind;
  o->follow = follow;
}

void crawl__queue_sitemap_url(struct shard *c, const struct core_url *u) {
  (void)c;
  (void)u;
  sitemap_count++;
}

static int prefetch_count;
void crawl__spec_consider(struct shard *c, const struct core_url *u, const char *from, int depth,
                          bool follow) {
  (void)c;
  (void)u;
  (void)from;
  (void)depth;
  (void)follow;
  prefetch_count++;
}

int crawl__shard_count(const struct crawl_config *cfg) {
  return (int)cfg->threads;
}

void crawl__fatal(struct shard *c, const char *fmt, ...) {
  (void)fmt;
  c->fatal = true;
  c->stop = 2;
}

/* ---- a run of shards with nothing but their loops and frontiers ---- */

struct fixture {
  int n;
  struct crawl *run;
  struct shard shards[4];
};

static struct fixture *make_run(int n) {
  struct fixture *f = calloc(1, sizeof(*f));
  assert_non_null(f);
  f->n = n;
  assert_int_equal(crawl__run_create(n, &f->run), CORE_OK);
  struct frontier_options opts = {.per_host = 1};
  for (int i = 0; i < n; i++) {
    struct shard *c = &f->shards[i];
    crawl__run_attach(f->run, i, c);
    assert_int_equal(loop_create(&c->loop), CORE_OK);
    assert_int_equal(frontier_create(&opts, NULL, NULL, &c->fr), CORE_OK);
    c->outboxes = calloc((size_t)n, sizeof(*c->outboxes));
    assert_non_null(c->outboxes);
    for (int k = 0; k < n; k++) {
      core_buf_init(&c->outboxes[k].buf, 1 << 20);
      c->outboxes[k].min = INT_MAX;
    }
  }
  offer_count = sitemap_count = prefetch_count = 0;
  return f;
}

static void free_run(struct fixture *f) {
  for (int i = 0; i < f->n; i++) {
    struct shard *c = &f->shards[i];
    for (int k = 0; k < f->n; k++)
      core_buf_free(&c->outboxes[k].buf);
    free(c->outboxes);
    frontier_destroy(c->fr);
    loop_destroy(c->loop);
  }
  crawl__run_destroy(f->run);
  free(f);
}

/* A host of the web.test domain that shard `want` owns. */
static void host_owned_by(struct shard *c, int want, char *out, size_t size) {
  for (int i = 0; i < 1000; i++) {
    snprintf(out, size, "h%d.web.test", i);
    if (crawl__owner(c, out) == want)
      return;
  }
  fail_msg("no host for shard %d", want);
}

static struct core_url url_on(const char *host, const char *path) {
  char text[300];
  snprintf(text, sizeof(text), "http://%s%s", host, path);
  struct core_url u;
  assert_int_equal(core_url_resolve(NULL, text, strlen(text), 4096, &u), CORE_OK);
  return u;
}

static bool prefetch_sent(struct shard *c, const struct core_url *u) {
  return crawl__send_if_foreign(c, u, "http://page.test/", 2, 0, 'P', true);
}

static int publish(struct shard *c) {
  struct crawl_progress p = {0};
  return crawl__shard_publish(c, &p);
}

static void test_owner_is_the_same_for_every_shard(void **state) {
  (void)state;
  struct fixture *f = make_run(4);
  int seen[4] = {0};
  for (int i = 0; i < 200; i++) {
    char host[64];
    snprintf(host, sizeof(host), "s%d.web.test", i);
    int owner = crawl__owner(&f->shards[0], host);
    assert_true(owner >= 0 && owner < 4);
    for (int k = 1; k < 4; k++)
      assert_int_equal(crawl__owner(&f->shards[k], host), owner);
    seen[owner]++;
  }
  for (int k = 0; k < 4; k++)
    assert_true(seen[k] > 20); /* the hosts of one domain spread over all shards */
  free_run(f);
}

static void test_link_reaches_its_owner_whole(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  char mine[64], theirs[64];
  host_owned_by(a, 0, mine, sizeof(mine));
  host_owned_by(a, 1, theirs, sizeof(theirs));
  struct core_url own = url_on(mine, "/x"), other = url_on(theirs, "/p?q=1%20");
  assert_false(crawl__send_if_foreign(a, &own, NULL, 1, 0, 'L', true));
  assert_true(crawl__send_if_foreign(a, &other, "http://from.test/a%20b", 4, 2, 'R', false));
  assert_true(crawl__send_if_foreign(a, &other, NULL, 0, 0, 'S', true));
  assert_false(crawl__shard_outbox_empty(a));
  crawl__shard_flush(a);
  assert_true(crawl__shard_outbox_empty(a));
  crawl__shard_receive(b);
  assert_int_equal(offer_count, 1);
  assert_string_equal(offers[0].url, other.text);
  assert_string_equal(offers[0].from, "http://from.test/a%20b");
  assert_int_equal(offers[0].depth, 4);
  assert_int_equal(offers[0].redirects, 2);
  assert_int_equal(offers[0].kind, OFFER_REDIRECT);
  assert_false(offers[0].follow);
  assert_int_equal(sitemap_count, 1);
  core_url_free(&own);
  core_url_free(&other);
  free_run(f);
}

/* The gate: a link on its way counts at its page's depth for every shard, until its owner has
 * queued it and said so. */
static void test_link_in_transit_holds_the_gate(void **state) {
  (void)state;
  struct fixture *f = make_run(3);
  struct shard *a = &f->shards[0], *b = &f->shards[1], *c = &f->shards[2];
  /* nothing anywhere: each says so */
  publish(a);
  publish(b);
  assert_int_equal(publish(c), INT_MAX);
  char host_b[64];
  host_owned_by(a, 1, host_b, sizeof(host_b));
  struct core_url u = url_on(host_b, "/deep");
  assert_true(crawl__send_if_foreign(a, &u, "http://page.test/", 4, 0, 'L', true));
  /* a page to fetch ahead is no accepted page: it holds no depth back */
  assert_true(prefetch_sent(a, &u));
  /* sent and a's page done (nothing pending at a any more): the link still holds depth 3 */
  crawl__shard_flush(a);
  assert_int_equal(publish(a), 3);
  assert_int_equal(publish(c), 3);
  /* b takes it: until b publishes, the link still counts */
  crawl__shard_receive(b);
  assert_int_equal(publish(c), 3);
  assert_int_equal(offers[0].depth, 4);
  assert_int_equal(prefetch_count, 1);
  publish(b); /* the stand-in queued nothing: b holds nothing */
  assert_int_equal(publish(c), INT_MAX);
  core_url_free(&u);
  free_run(f);
}

static void test_the_run_ends_only_when_all_are_idle_and_empty(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  char host_b[64];
  host_owned_by(a, 1, host_b, sizeof(host_b));
  struct core_url u = url_on(host_b, "/");
  /* b goes idle; a, busy, sends it a link, then goes idle: b is busy again, the run goes on */
  assert_false(crawl__shard_idle(b));
  assert_true(crawl__send_if_foreign(a, &u, NULL, 1, 0, 'L', true));
  crawl__shard_flush(a);
  assert_false(crawl__shard_idle(a));
  assert_false(crawl__run_done(a));
  assert_false(crawl__shard_idle(b)); /* its inbox is not empty */
  crawl__shard_receive(b);
  assert_true(crawl__shard_idle(b));
  assert_true(crawl__run_done(a));
  core_url_free(&u);
  free_run(f);
}

static void test_pages_limit_is_shared(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  int taken = 0;
  for (int i = 0; i < 10; i++)
    taken += crawl__run_take_page(f->run, 7);
  assert_int_equal(taken, 7);
  assert_int_equal(crawl__run_pages_started(f->run), 7);
  assert_true(crawl__run_take_page(f->run, -1)); /* no limit */
  free_run(f);
}

static void test_stop_reaches_every_shard(void **state) {
  (void)state;
  struct fixture *f = make_run(3);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  a->stop = 1;
  a->end = CRAWL_END_SIGINT;
  crawl__shard_sync_stop(a);
  crawl__shard_sync_stop(b);
  assert_int_equal(b->stop, 1);
  assert_int_equal(b->end, CRAWL_END_SIGINT);
  b->stop = 2; /* a second signal */
  crawl__shard_sync_stop(b);
  crawl__shard_sync_stop(a);
  assert_int_equal(a->stop, 2);
  assert_int_equal(crawl__run_end(f->run), CRAWL_END_SIGINT);
  free_run(f);
}

/* crawl_stop, as main's signal thread calls it: the first lets what is in flight finish, the
 * second stops at once, and the end says which signal came first. */
static void test_crawl_stop_twice(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  crawl__run_set_running(f->run, true);
  crawl_stop(f->run, CRAWL_END_SIGTERM);
  crawl__shard_sync_stop(a);
  assert_int_equal(a->stop, 1);
  assert_int_equal(a->end, CRAWL_END_SIGTERM);
  crawl_stop(f->run, CRAWL_END_SIGINT);
  crawl__shard_sync_stop(b);
  assert_int_equal(b->stop, 2);
  assert_int_equal(b->end, CRAWL_END_SIGTERM);
  crawl__run_set_running(f->run, false);
  free_run(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_owner_is_the_same_for_every_shard),
      cmocka_unit_test(test_link_reaches_its_owner_whole),
      cmocka_unit_test(test_link_in_transit_holds_the_gate),
      cmocka_unit_test(test_the_run_ends_only_when_all_are_idle_and_empty),
      cmocka_unit_test(test_pages_limit_is_shared),
      cmocka_unit_test(test_stop_reaches_every_shard),
      cmocka_unit_test(test_crawl_stop_twice),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
