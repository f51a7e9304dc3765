/* The shards' hand-over (crawl/mesh.c), without the crawl around it: which shard owns a host, a
 * link on its way holding back the depth gate of every shard, the end of the crawl only when all
 * are idle with empty inboxes, -n shared, and what a save of every shard needs: the links on their
 * way written whole, and a pause that finds every other shard between two turns. Built with
 * budget.c and notes.c, the files mesh.c uses; where a link reaches its owner is the take function
 * given at attach, as run.c gives intake.c's, here one that records what reached it. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "tests/support/wrap_realloc.h"
#include "url/url.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- what reaches a shard, recorded by the callback given at attach ---- */

struct offered {
  char url[256];
  char from[256];
  int depth, redirects;
  enum offer_kind kind;
  struct link_how how;
};
static struct offered offers[64];
static int offer_count;
static int sitemap_count;
static int prefetch_count;

static void take(struct shard *c, enum link_kind kind, const struct url *u, const char *page,
                 int depth, int redirects, struct link_how how) {
  (void)c;
  if (kind == LINK_SITEMAP) {
    sitemap_count++;
    return;
  }
  if (kind == LINK_AHEAD) {
    prefetch_count++;
    return;
  }
  if (offer_count++ >= (int)(sizeof(offers) / sizeof(*offers)))
    return; /* counted only */
  struct offered *o = &offers[offer_count - 1];
  snprintf(o->url, sizeof(o->url), "%s", u->text);
  snprintf(o->from, sizeof(o->from), "%s", page ? page : "");
  o->depth = depth;
  o->redirects = redirects;
  o->kind = kind == LINK_REDIRECT ? OFFER_REDIRECT : OFFER_LINK;
  o->how = how;
}

/* ---- a run of shards with nothing but their loops and frontiers ---- */

struct fixture {
  int n;
  struct crawl *run;
  struct shard shards[4];
  char errs[4][256];
};

static struct fixture *make_run(int n) {
  struct fixture *f = calloc(1, sizeof(*f));
  assert_non_null(f);
  f->n = n;
  assert_int_equal(crawl__mesh_create(n, &f->run), CORE_OK);
  struct frontier_options opts = {.per_host = 1};
  for (int i = 0; i < n; i++) {
    struct shard *c = &f->shards[i];
    assert_int_equal(crawl__life_open(c, f->errs[i], sizeof(f->errs[i]), 0), CORE_OK);
    crawl__mesh_attach(f->run, i, c, take);
    assert_int_equal(loop_create(&c->loop), CORE_OK);
    assert_int_equal(frontier_create(&opts, NULL, NULL, &c->fr), CORE_OK);
    assert_int_equal(crawl__mail_open(c, n, 0), CORE_OK);
  }
  offer_count = sitemap_count = prefetch_count = 0;
  return f;
}

static void free_run(struct fixture *f) {
  for (int i = 0; i < f->n; i++) {
    struct shard *c = &f->shards[i];
    crawl__mail_close(c);
    frontier_destroy(c->fr);
    loop_destroy(c->loop);
    crawl__life_close(c);
  }
  crawl__mesh_destroy(f->run);
  free(f);
}

/* A host of the web.test domain that shard `want` owns. */
static void host_owned_by(struct shard *c, int want, char *out, size_t size) {
  for (int i = 0; i < 1000; i++) {
    snprintf(out, size, "h%d.web.test", i);
    if (crawl__mesh_owner(c, out) == want)
      return;
  }
  fail_msg("no host for shard %d", want);
}

static struct url url_on(const char *host, const char *path) {
  char text[300];
  snprintf(text, sizeof(text), "http://%s%s", host, path);
  struct url u;
  assert_int_equal(url_resolve(NULL, text, strlen(text), 4096, &u), CORE_OK);
  return u;
}

/* A followed link of an <a>, an image on a nofollow page, a redirect's target. */
static const struct link_how follow_a = {VIA_PAGE + PARSE_VIA_A, true},
                             nofollow_img = {VIA_PAGE + PARSE_VIA_IMG, false},
                             redirect = {VIA_REDIRECT, true};

static bool prefetch_sent(struct shard *c, const struct url *u) {
  return crawl__mail_send_if_foreign(c, u, "http://page.test/", 2, 0, LINK_AHEAD, follow_a);
}

/* The i-th offer the stand-in recorded is this one. */
static void expect_offer(int i, const char *url, const char *from, int depth, int redirects,
                         enum offer_kind kind, struct link_how how) {
  assert_string_equal(offers[i].url, url);
  assert_string_equal(offers[i].from, from);
  assert_int_equal(offers[i].depth, depth);
  assert_int_equal(offers[i].redirects, redirects);
  assert_int_equal(offers[i].kind, kind);
  assert_int_equal(offers[i].how.via, how.via);
  assert_int_equal(offers[i].how.follow, how.follow);
}

/* The links on their way as a save writes them (the caller frees the text). */
static char *transit_lines(struct fixture *f) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  assert_non_null(out);
  crawl__mail_write_transit(f->run, out);
  fclose(out);
  return text;
}

static int publish(struct shard *c) {
  struct crawl_progress p = {0};
  return crawl__mesh_publish(c, &p);
}

static void test_owner_is_the_same_for_every_shard(void **state) {
  (void)state;
  struct fixture *f = make_run(4);
  int seen[4] = {0};
  for (int i = 0; i < 200; i++) {
    char host[64];
    snprintf(host, sizeof(host), "s%d.web.test", i);
    int owner = crawl__mesh_owner(&f->shards[0], host);
    assert_true(owner >= 0 && owner < 4);
    for (int k = 1; k < 4; k++)
      assert_int_equal(crawl__mesh_owner(&f->shards[k], host), owner);
    seen[owner]++;
  }
  for (int k = 0; k < 4; k++)
    assert_true(seen[k] > 20); /* the hosts of one domain spread over all shards */
  free_run(f);
}

/* A crawl of a few hosts keeps every shard busy: two hosts each for two shards, whatever their
 * hashes, and each host's owner is the same whichever shard asks and however often. */
static void test_few_hosts_spread_over_shards(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  static const char *const hosts[] = {"docs0.python.test", "docs1.python.test", "docs2.python.test",
                                      "docs3.python.test"};
  int owned[2] = {0}, first[4];
  for (int i = 0; i < 4; i++) {
    first[i] = crawl__mesh_owner(&f->shards[i % 2], hosts[i]);
    owned[first[i]]++;
  }
  assert_int_equal(owned[0], 2);
  assert_int_equal(owned[1], 2);
  for (int round = 0; round < 3; round++)
    for (int i = 0; i < 4; i++)
      for (int k = 0; k < 2; k++)
        assert_int_equal(crawl__mesh_owner(&f->shards[k], hosts[i]), first[i]);
  free_run(f);
}

static void test_link_reaches_its_owner_whole(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  char mine[64], theirs[64];
  host_owned_by(a, 0, mine, sizeof(mine));
  host_owned_by(a, 1, theirs, sizeof(theirs));
  struct url own = url_on(mine, "/x"), other = url_on(theirs, "/p?q=1%20");
  assert_false(crawl__mail_send_if_foreign(a, &own, NULL, 1, 0, LINK_FOUND, follow_a));
  /* numbers of several digits, nines among them, written and read back as they were */
  assert_true(crawl__mail_send_if_foreign(a, &other, "http://from.test/a%20b", 1999, 19,
                                          LINK_REDIRECT, nofollow_img));
  assert_true(crawl__mail_send_if_foreign(a, &other, NULL, 0, 0, LINK_SITEMAP, follow_a));
  assert_false(crawl__mail_outbox_empty(a));
  crawl__mail_flush(a);
  assert_true(crawl__mail_outbox_empty(a));
  crawl__mail_receive(b);
  assert_int_equal(offer_count, 1);
  expect_offer(0, other.text, "http://from.test/a%20b", 1999, 19, OFFER_REDIRECT, nofollow_img);
  assert_int_equal(sitemap_count, 1);
  url_free(&own);
  url_free(&other);
  free_run(f);
}

/* Lines as a Redis entry may hold them when no crawl wrote them (--cluster: another process's
 * word): only a whole line with numbers in range reaches the owner. */
static void test_lines_out_of_range_are_not_taken(void **state) {
  (void)state;
  struct fixture *f = make_run(1);
  struct shard *a = &f->shards[0];
  static const char lines[] = "Lb 1 0 - http://h.test/ok\n"
                              "Lb -1 0 - http://h.test/negative-depth\n"
                              "Lb 1 -3 - http://h.test/negative-redirects\n"
                              "Lb 99999999999 0 - http://h.test/huge-depth\n"
                              "Lb 1 99999999999 - http://h.test/huge-redirects\n"
                              "Lb 1 0 http://h.test/no-from\n"
                              "L? 1 0 - http://h.test/bad-how\n"
                              "Lb 2 5 http://h.test/p http://h.test/ok2\n";
  crawl__mail_deliver(f->run, 0, lines, sizeof(lines) - 1, 0);
  crawl__mail_receive(a);
  assert_int_equal(offer_count, 2);
  assert_string_equal(offers[0].url, "http://h.test/ok");
  assert_string_equal(offers[1].url, "http://h.test/ok2");
  assert_int_equal(offers[1].redirects, 5);
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
  struct url u = url_on(host_b, "/deep");
  assert_true(crawl__mail_send_if_foreign(a, &u, "http://page.test/", 4, 0, LINK_FOUND, follow_a));
  /* a page to fetch ahead is no accepted page: it holds no depth back */
  assert_true(prefetch_sent(a, &u));
  /* sent and a's page done (nothing pending at a any more): the link still holds depth 3 */
  crawl__mail_flush(a);
  assert_int_equal(publish(a), 3);
  assert_int_equal(publish(c), 3);
  /* b takes it: until b publishes, the link still counts */
  crawl__mail_receive(b);
  assert_int_equal(publish(c), 3);
  assert_int_equal(offers[0].depth, 4);
  assert_int_equal(prefetch_count, 1);
  publish(b); /* the stand-in queued nothing: b holds nothing */
  assert_int_equal(publish(c), INT_MAX);
  url_free(&u);
  free_run(f);
}

/* A shard that sends many links in one turn (a held level replayed at once) hands them on in
 * batches as they come: its outbox stays small, and the owner may take them before the turn ends,
 * every one whole and in order, the gate held meanwhile at their depth. */
static void test_many_links_go_in_batches(void **state) {
  (void)state;
  struct fixture *f = make_run(3);
  struct shard *a = &f->shards[0], *b = &f->shards[1], *c = &f->shards[2];
  publish(a); /* nothing anywhere yet */
  publish(b);
  assert_int_equal(publish(c), INT_MAX);
  char theirs[64];
  host_owned_by(a, 1, theirs, sizeof(theirs));
  enum { LINKS = 5000 };
  for (int i = 0; i < LINKS; i++) {
    char path[64];
    snprintf(path, sizeof(path), "/a/rather/long/path/to/page/%d.html", i);
    struct url u = url_on(theirs, path);
    assert_true(crawl__mail_send_if_foreign(a, &u, "http://page.test/of/its/links.html", 3, 0,
                                            LINK_FOUND, follow_a));
    url_free(&u);
  }
  /* some 400 KB of lines: all but the last batch's worth is in b's inbox already */
  assert_true(crawl__mail_outbox_room(a, 1) <= 256 * 1024);
  assert_int_equal(publish(c), 2);
  crawl__mail_receive(b);
  int before_flush = offer_count;
  assert_true(before_flush > LINKS / 2 && before_flush < LINKS);
  crawl__mail_flush(a);
  crawl__mail_receive(b);
  assert_int_equal(offer_count, LINKS);
  expect_offer(0, offers[0].url, "http://page.test/of/its/links.html", 3, 0, OFFER_LINK, follow_a);
  assert_non_null(strstr(offers[0].url, "/page/0.html"));
  assert_non_null(strstr(offers[63].url, "/page/63.html"));
  publish(a);
  publish(b);
  assert_int_equal(publish(c), INT_MAX);
  free_run(f);
}

static void test_the_run_ends_only_when_all_are_idle_and_empty(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  char host_b[64];
  host_owned_by(a, 1, host_b, sizeof(host_b));
  struct url u = url_on(host_b, "/");
  /* b goes idle; a, busy, sends it a link, then goes idle: b is busy again, the run goes on */
  assert_false(crawl__mesh_idle(b));
  assert_true(crawl__mail_send_if_foreign(a, &u, NULL, 1, 0, LINK_FOUND, follow_a));
  crawl__mail_flush(a);
  assert_false(crawl__mesh_idle(a));
  assert_false(crawl__mesh_done(a));
  assert_false(crawl__mesh_idle(b)); /* its inbox is not empty */
  crawl__mail_receive(b);
  assert_true(crawl__mesh_idle(b));
  assert_true(crawl__mesh_done(a));
  url_free(&u);
  free_run(f);
}

static void test_pages_limit_is_shared(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  int taken = 0;
  for (int i = 0; i < 10; i++)
    taken += crawl__budget_take_page(f->run, 7);
  assert_int_equal(taken, 7);
  assert_int_equal(crawl__budget_pages_started(f->run), 7);
  assert_true(crawl__budget_take_page(f->run, -1)); /* no limit */
  free_run(f);
}

static void test_stop_reaches_every_shard(void **state) {
  (void)state;
  struct fixture *f = make_run(3);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  crawl__life_set_stop(a, STOP_FINISHING);
  crawl__life_set_end(a, CRAWL_END_SIGINT);
  crawl__mesh_sync_stop(a);
  crawl__mesh_sync_stop(b);
  assert_int_equal(crawl__life_stop(b), STOP_FINISHING);
  assert_int_equal(crawl__life_end(b), CRAWL_END_SIGINT);
  crawl__life_set_stop(b, STOP_NOW); /* a second signal */
  crawl__mesh_sync_stop(b);
  crawl__mesh_sync_stop(a);
  assert_int_equal(crawl__life_stop(a), STOP_NOW);
  assert_int_equal(crawl__mesh_end(f->run), CRAWL_END_SIGINT);
  free_run(f);
}

/* crawl_stop, as main's signal thread calls it: the first lets what is in flight finish, the
 * second stops at once, and the end says which signal came first. */
static void test_crawl_stop_twice(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  crawl__mesh_set_running(f->run, true);
  crawl_stop(f->run, CRAWL_END_SIGTERM);
  crawl__mesh_sync_stop(a);
  assert_int_equal(crawl__life_stop(a), 1);
  assert_int_equal(crawl__life_end(a), CRAWL_END_SIGTERM);
  crawl_stop(f->run, CRAWL_END_SIGINT);
  crawl__mesh_sync_stop(b);
  assert_int_equal(crawl__life_stop(b), 2);
  assert_int_equal(crawl__life_end(b), CRAWL_END_SIGTERM);
  crawl__mesh_set_running(f->run, false);
  free_run(f);
}

/* A save writes the links on their way (in an inbox, or still in an outbox) as lines that, taken
 * up by their owner, give the same offers as the hand-over itself. */
static void test_links_in_transit_are_saved_whole(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  char theirs[64];
  host_owned_by(a, 1, theirs, sizeof(theirs));
  struct url sent = url_on(theirs, "/sent?a=1%20"), held = url_on(theirs, "/held");
  assert_true(
      crawl__mail_send_if_foreign(a, &sent, "http://from.test/a", 3, 2, LINK_REDIRECT, redirect));
  crawl__mail_flush(a); /* in b's inbox */
  assert_true(
      crawl__mail_send_if_foreign(a, &held, NULL, 5, 0, LINK_FOUND, nofollow_img)); /* a's outbox */
  char *text = transit_lines(f);
  /* taken up as a restore would: each line by its owner */
  int lines = 0;
  for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save), lines++) {
    char kf[3], from[256], url[256];
    int depth, redirects;
    assert_int_equal(
        sscanf(line, "transit %2s %d %d %255s %255s", kf, &depth, &redirects, from, url), 5);
    struct link_how how;
    assert_true(crawl__mail_how_parse(kf[1], &how));
    crawl__mail_take_link(b, kf[0], how, depth, redirects, strcmp(from, "-") ? from : NULL, url);
  }
  free(text);
  assert_int_equal(lines, 2);
  assert_int_equal(offer_count, 2);
  expect_offer(0, sent.text, "http://from.test/a", 3, 2, OFFER_REDIRECT, redirect);
  expect_offer(1, held.text, "", 5, 0, OFFER_LINK, nofollow_img);
  url_free(&sent);
  url_free(&held);
  free_run(f);
}

/* Out of memory while a link is written to its owner's outbox: the crawl ends, and no part of
 * the line stays there, where a save would write it as a link on its way and the owner would
 * read it joined to the next. */
static void test_link_without_memory_leaves_no_part(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  struct shard *a = &f->shards[0], *b = &f->shards[1];
  char theirs[64], long_from[200];
  host_owned_by(a, 1, theirs, sizeof(theirs));
  snprintf(long_from, sizeof(long_from), "http://from.test/%0150d", 0);
  struct url first = url_on(theirs, "/first"), second = url_on(theirs, "/second");
  assert_true(crawl__mail_send_if_foreign(a, &first, NULL, 1, 0, LINK_FOUND, follow_a));
  /* the line's head fits in the outbox's room; its page's long URL asks for more and gets none */
  wrap_realloc_fail_in(1);
  assert_true(crawl__mail_send_if_foreign(a, &second, long_from, 1, 0, LINK_FOUND, follow_a));
  assert_false(wrap_realloc_pending());
  assert_true(crawl__life_fatal(a));
  assert_string_equal(crawl__life_err(a), "out of memory");
  char *text = transit_lines(f);
  char want[300];
  snprintf(want, sizeof(want), "transit %c%c 1 0 - %s\n", LINK_FOUND,
           crawl__mail_how_code(follow_a), first.text);
  assert_string_equal(text, want);
  free(text);
  crawl__mail_flush(a);
  crawl__mail_receive(b);
  assert_int_equal(offer_count, 1);
  expect_offer(0, first.text, "", 1, 0, OFFER_LINK, follow_a);
  url_free(&first);
  url_free(&second);
  free_run(f);
}

/* Where a link was found and whether to follow it travel as one letter; lines older versions
 * wrote ("0", "1") still read, anything else is refused. */
static void test_link_how_is_one_letter_both_ways(void **state) {
  (void)state;
  for (unsigned via = 0; via < VIA_COUNT; via++)
    for (int follow = 0; follow < 2; follow++) {
      struct link_how how = {(unsigned char)via, follow == 1}, back = {0};
      char code = crawl__mail_how_code(how);
      assert_true(isalpha((unsigned char)code));
      assert_true(crawl__mail_how_parse(code, &back));
      assert_int_equal(back.via, via);
      assert_int_equal(back.follow, follow == 1);
    }
  struct link_how old;
  assert_true(crawl__mail_how_parse('1', &old));
  assert_true(old.follow && old.via == VIA_NONE);
  assert_true(crawl__mail_how_parse('0', &old));
  assert_false(old.follow);
  assert_false(crawl__mail_how_parse('A' + VIA_COUNT, &old));
  assert_false(crawl__mail_how_parse('a' + VIA_COUNT, &old));
  assert_false(crawl__mail_how_parse('2', &old));
  assert_false(crawl__mail_how_parse('\0', &old));
}

/* The second shard of a pausable run, on its own thread: turns that change its state (a count,
 * plain memory: ThreadSanitizer would see a race if a pause did not hold it), with its loop's
 * wait between them; at the end it waits at a barrier, as a shard does at the crawl's end. */
struct turner {
  struct shard *c;
  long turns;
  atomic_bool stop;
};

static void *turn_loop(void *arg) {
  struct turner *t = arg;
  crawl__mesh_take_turn(t->c);
  while (!atomic_load(&t->stop)) {
    t->turns++;
    loop_run_once(t->c->loop, 0.001);
  }
  crawl__mesh_barrier(t->c->run, t->c->shard);
  crawl__mesh_give_turn(t->c);
  return NULL;
}

static void test_pause_holds_every_other_shard_between_turns(void **state) {
  (void)state;
  struct fixture *f = make_run(2);
  crawl__mesh_set_pausable(f->run);
  /* a shard that has not begun may still have a checkpoint to restore: no pause yet */
  assert_false(crawl__mesh_pause(f->run));
  struct turner t = {.c = &f->shards[1]};
  atomic_init(&t.stop, false);
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, turn_loop, &t), 0);
  int tries = 0;
  while (!crawl__mesh_pause(f->run)) {
    assert_true(++tries < 10000);
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  long before = t.turns; /* read only while paused */
  struct timespec wait = {0, 30000000};
  nanosleep(&wait, NULL);
  assert_int_equal(t.turns, before); /* paused: no turn ran */
  crawl__mesh_resume(f->run);
  for (tries = 0;; tries++) { /* resumed: it runs again */
    assert_true(tries < 10000);
    nanosleep(&wait, NULL);
    assert_true(crawl__mesh_pause(f->run));
    long now = t.turns;
    crawl__mesh_resume(f->run);
    if (now > before)
      break;
  }
  atomic_store(&t.stop, true);
  /* waiting at a barrier, the shard lets go of its turn: a pause still comes through */
  for (tries = 0;; tries++) {
    assert_true(tries < 10000);
    assert_true(crawl__mesh_pause(f->run));
    crawl__mesh_resume(f->run);
    if (tries > 3)
      break;
    nanosleep(&wait, NULL);
  }
  crawl__mesh_barrier(f->run, 0);
  assert_int_equal(pthread_join(thread, NULL), 0);
  free_run(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_owner_is_the_same_for_every_shard),
      cmocka_unit_test(test_few_hosts_spread_over_shards),
      cmocka_unit_test(test_link_reaches_its_owner_whole),
      cmocka_unit_test(test_lines_out_of_range_are_not_taken),
      cmocka_unit_test(test_link_in_transit_holds_the_gate),
      cmocka_unit_test(test_many_links_go_in_batches),
      cmocka_unit_test(test_the_run_ends_only_when_all_are_idle_and_empty),
      cmocka_unit_test(test_pages_limit_is_shared),
      cmocka_unit_test(test_stop_reaches_every_shard),
      cmocka_unit_test(test_crawl_stop_twice),
      cmocka_unit_test(test_links_in_transit_are_saved_whole),
      cmocka_unit_test(test_link_without_memory_leaves_no_part),
      cmocka_unit_test(test_link_how_is_one_letter_both_ways),
      cmocka_unit_test(test_pause_holds_every_other_shard_between_turns),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
