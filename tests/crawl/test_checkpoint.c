/* Saving and loading what is left (crawl/checkpoint.c), built from that file and the files below
 * it (saved, referrers, archive, bridge, seed, held, depthcut, the intake's...), no stand-ins, over
 * a real frontier and seen filter and real files in a directory of its own: a --seen file keeps
 * every URL accepted, and the pages still queued and in flight come back from it in the next run;
 * a --state checkpoint that cannot be read gives way to the one before it, with a warning, and
 * when neither can the error names both; a save whose output cannot be written leaves the
 * checkpoint before in place and ends the crawl naming the output; a file holding another kind
 * of filter than --dedupe asks is refused; a crawl that ended with nothing left says so; links
 * on their way between shards that a --seen file holds are taken up by the next run. */
#include "crawl/checkpoint.h"
#include "crawl/life.h"
#include "crawl/host.h"
#include "crawl/mail.h"
#include "crawl/seed.h"
#include "crawl/intake.h"
#include "crawl/request.h"
#include "crawl/restore.h"
#include "crawl/saved.h"
#include "crawl/speculate.h"
#include "crawl/stash.h"
#include "tests/crawl/world.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

struct world {
  struct world_base b;
  char notes[4][512]; /* warnings, in order */
  size_t note_count;
  int flush_error;     /* the errno every flush of the output fails with; 0: none */
  char seen_path[512]; /* --seen's file, dir/seen */
};

static core_rc sink_url(void *writer, const char *url) {
  (void)writer, (void)url;
  return CORE_OK;
}

static core_rc sink_flush(void *writer, bool durable) {
  struct world *w = writer;
  (void)durable;
  return w->flush_error ? CORE_ESYS : CORE_OK;
}

static int sink_error(void *arg) {
  struct world *w = arg;
  return w->flush_error;
}

static void sink_note(void *arg, const char *text) {
  struct world *w = arg;
  if (w->note_count < 4)
    snprintf(w->notes[w->note_count++], sizeof(w->notes[0]), "%s", text);
}

/* A run of the crawl kept in dir (--state), or in the file dir/seen (--seen: state false), its
 * filter loaded or made by crawl__checkpoint_open_seen, which returned *rc. Its engine's parts
 * are made only when it opened. */
static struct world *world_new(const char *dir, bool state, bool resume, seen_kind dedupe,
                               core_rc *rc) {
  struct world *w = calloc(1, sizeof(*w));
  assert_non_null(w);
  snprintf(w->seen_path, sizeof(w->seen_path), "%s/seen", dir);
  w->b.cfg = (struct crawl_config){.depth = 5,
                                   .max_delay = 30,
                                   .max_url_length = 4096,
                                   .max_path_repeat = 3,
                                   .max_path_segments = 64,
                                   .max_redirs = 5,
                                   .max_pages = -1,
                                   .max_pages_per_host = -1,
                                   .state_dir = state ? (char *)dir : NULL,
                                   .state_resume = resume,
                                   .checkpoint = 60,
                                   .seen_file = state ? NULL : w->seen_path,
                                   .dedupe = dedupe,
                                   .dedupe_given = true,
                                   .fp_rate = 0.001};
  w->b.sink = (struct crawl_sink){.arg = w,
                                  .url = sink_url,
                                  .flush = sink_flush,
                                  .error = sink_error,
                                  .note = sink_note,
                                  .name = "standard output"};
  world_base_open(&w->b, w);
  struct shard *c = &w->b.shard;
  c->hooks.seed_found = world_no_seed_found;
  c->hooks.failed_record = world_failed_record_at_once;
  c->hooks.spec_record = world_spec_record;
  w->b.cfg.expect = 1000; /* a shard with no bounds of its own is bound by the whole */
  assert_int_equal(crawl__checkpoint_prepare(c), CORE_OK);
  assert_int_equal(crawl__restore_prepare(c), CORE_OK);
  *rc = crawl__checkpoint_open_seen(c);
  if (*rc != CORE_OK)
    return w;
  url_scope *scope;
  assert_int_equal(url_scope_create(URL_SCOPE_HOST, NULL, NULL, &scope), CORE_OK);
  assert_int_equal(url_scope_add_seed(scope, "127.0.0.2"), CORE_OK);
  crawl__mesh_set_scope(c->run, scope, NULL, 0); /* the run lets go of it */
  struct frontier_options opts = {.delay = 1, .max_delay = 30, .per_host = 1};
  world_intake_open(c, &opts, c->seen);
  assert_int_equal(crawl__request_open(c), CORE_OK);
  return w;
}

/* A fatal error the run met is the test's to read: taken off before the run goes. */
static void world_free(struct world *w) {
  struct shard *c = &w->b.shard;
  if (c->fr) {
    struct request *rq;
    while ((rq = crawl__request_next(c, NULL)))
      crawl__request_free(rq);
    crawl__request_close(c);
    world_intake_close(c);
  }
  if (c->loop)
    loop_destroy(c->loop);    /* and the saves' timer */
  crawl__checkpoint_close(c); /* the seen filter with it */
  crawl__restore_close(c);
  crawl__saved_left_close(c);
  w->b.err[0] = '\0';
  world_base_close(&w->b);
  free(w);
}

/* A link found on the seed's page, as the intake takes one: printed, seen, queued. */
static void offer(struct world *w, const char *url) {
  struct url u;
  assert_int_equal(url_resolve(NULL, url, strlen(url), 4096, &u), CORE_OK);
  const struct link_how how = {VIA_PAGE + PARSE_VIA_A, true};
  crawl__intake_offer(&w->b.shard, &u, "http://127.0.0.2:9/", 1, 0, OFFER_LINK, how);
  url_free(&u);
}

/* The saves' timer made, as shard.c makes it, url accepted and the first checkpoint written by
 * the timer. */
static void first_checkpoint(struct world *w, const char *url) {
  struct shard *c = &w->b.shard;
  assert_int_equal(loop_create(&c->loop), CORE_OK);
  assert_int_equal(crawl__checkpoint_timer_open(c), CORE_OK);
  offer(w, url);
  crawl__checkpoint_on_timer(c);
}

/* The next page popped and its request made, as scheduling makes one: in flight, not settled. */
static void start_next(struct world *w) {
  struct shard *c = &w->b.shard;
  frontier_host *fh;
  struct frontier_item *item = frontier_pop(c->fr, core_now(), &fh);
  assert_non_null(item);
  assert_int_equal(item->kind, FRONTIER_PAGE);
  assert_non_null(crawl__request_new(c, fh, item));
}

static bool seen(struct world *w, const char *url) {
  return seen_contains(w->b.shard.seen, url, strlen(url));
}

/* What the loaded file says is left, its lines as saved. */
static char *left_lines(struct world *w) {
  FILE *f = crawl__restore_file(&w->b.shard);
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long size = ftell(f);
  assert_true(size >= 0);
  char *text = calloc(1, (size_t)size + 1);
  assert_non_null(text);
  rewind(f);
  assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
  return text;
}

static void make_dir(char *dir, size_t size) {
  snprintf(dir, size, "%s/crawl-checkpoint-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static void test_seen_file_keeps_what_is_left_for_the_next_run(void **state) {
  (void)state;
  char dir[256];
  make_dir(dir, sizeof(dir));
  core_rc rc;
  struct world *w = world_new(dir, false, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  offer(w, "http://127.0.0.2:9/one.html");
  offer(w, "http://127.0.0.2:9/two.html");
  offer(w, "http://127.0.0.2:9/three.html");
  start_next(w); /* one.html in flight */
  crawl__checkpoint_final(&w->b.shard);
  assert_string_equal(w->b.err, "");
  assert_int_equal(w->b.stats.left, 3);
  world_free(w);

  w = world_new(dir, false, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  assert_true(seen(w, "http://127.0.0.2:9/one.html"));
  assert_true(seen(w, "http://127.0.0.2:9/three.html"));
  assert_false(seen(w, "http://127.0.0.2:9/four.html"));
  char *text = left_lines(w);
  const char *pages[] = {"http://127.0.0.2:9/one.html", "http://127.0.0.2:9/two.html",
                         "http://127.0.0.2:9/three.html"};
  for (size_t i = 0; i < 3; i++) {
    char line[128];
    snprintf(line, sizeof(line), " http://127.0.0.2:9/ %s\n", pages[i]);
    assert_non_null(strstr(text, line));
  }
  assert_non_null(strstr(text, "page 1 0 0 "));
  assert_null(strstr(text, "stat ")); /* --seen: a new crawl, with counts of its own */
  free(text);
  world_free(w);
  remove_dir(dir);
}

static void test_state_continues_from_the_checkpoint_before_a_damaged_one(void **state) {
  (void)state;
  char dir[256], path[300];
  make_dir(dir, sizeof(dir));
  core_rc rc;
  struct world *w = world_new(dir, true, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  struct shard *c = &w->b.shard;
  first_checkpoint(w, "http://127.0.0.2:9/one.html");
  offer(w, "http://127.0.0.2:9/two.html");
  crawl__checkpoint_final(c); /* the last; the first is now the one before */
  assert_string_equal(w->b.err, "");
  world_free(w);

  /* the last checkpoint torn in its middle */
  snprintf(path, sizeof(path), "%s/checkpoint", dir);
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long size = ftell(f);
  assert_true(size > 64);
  assert_int_equal(fseek(f, size / 2, SEEK_SET), 0);
  assert_int_equal(fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, f), 8);
  assert_int_equal(fclose(f), 0);
  w = world_new(dir, true, true, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  assert_true(crawl__restore_continued(&w->b.shard));
  assert_true(seen(w, "http://127.0.0.2:9/one.html"));
  assert_false(seen(w, "http://127.0.0.2:9/two.html")); /* accepted after the one before */
  assert_int_equal(w->note_count, 1);
  assert_non_null(strstr(w->notes[0], "continuing from the checkpoint before it"));
  assert_non_null(strstr(w->notes[0], path));
  world_free(w);

  /* the one before damaged as well: the error names both */
  snprintf(path, sizeof(path), "%s/checkpoint.prev", dir);
  assert_int_equal(truncate(path, 20), 0);
  w = world_new(dir, true, true, SEEN_EXACT, &rc);
  assert_int_not_equal(rc, CORE_OK);
  assert_true(crawl__life_fatal(&w->b.shard));
  assert_non_null(strstr(w->b.err, "cannot be read either"));
  assert_non_null(strstr(w->b.err, path));
  world_free(w);
  remove_dir(dir);
}

static void test_a_save_whose_output_fails_keeps_the_checkpoint_before(void **state) {
  (void)state;
  char dir[256], path[300];
  make_dir(dir, sizeof(dir));
  core_rc rc;
  struct world *w = world_new(dir, true, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  struct shard *c = &w->b.shard;
  first_checkpoint(w, "http://127.0.0.2:9/one.html");
  snprintf(path, sizeof(path), "%s/checkpoint", dir);
  struct stat before;
  assert_int_equal(stat(path, &before), 0);
  offer(w, "http://127.0.0.2:9/two.html");
  w->flush_error = ENOSPC; /* the URL printed last may be lost: no save may count it settled */
  crawl__checkpoint_final(c);
  assert_true(crawl__life_fatal(c));
  assert_non_null(strstr(w->b.err, "cannot write standard output"));
  assert_non_null(strstr(w->b.err, strerror(ENOSPC)));
  struct stat after;
  assert_int_equal(stat(path, &after), 0);
  assert_int_equal(after.st_ino, before.st_ino);
  assert_int_equal(after.st_size, before.st_size);
  world_free(w);

  w = world_new(dir, true, true, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  assert_true(seen(w, "http://127.0.0.2:9/one.html"));
  assert_false(seen(w, "http://127.0.0.2:9/two.html"));
  world_free(w);
  remove_dir(dir);
}

static void test_a_file_of_another_kind_than_dedupe_is_refused(void **state) {
  (void)state;
  char dir[256];
  make_dir(dir, sizeof(dir));
  core_rc rc;
  struct world *w = world_new(dir, false, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  offer(w, "http://127.0.0.2:9/one.html");
  crawl__checkpoint_final(&w->b.shard);
  world_free(w);
  w = world_new(dir, false, false, SEEN_BLOOM, &rc);
  assert_int_equal(rc, CORE_EFORMAT);
  assert_true(crawl__life_fatal(&w->b.shard));
  assert_non_null(strstr(w->b.err, "it holds a exact filter, not bloom"));
  world_free(w);
  remove_dir(dir);
}

static void test_a_crawl_ended_with_nothing_left_says_so(void **state) {
  (void)state;
  char dir[256];
  make_dir(dir, sizeof(dir));
  core_rc rc;
  struct world *w = world_new(dir, true, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  crawl__life_set_end(&w->b.shard, CRAWL_END_DONE);
  crawl__checkpoint_final(&w->b.shard);
  world_free(w);
  w = world_new(dir, true, true, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  char *text = left_lines(w);
  assert_non_null(strstr(text, "stat complete 1\n"));
  free(text);
  /* with a page still queued it is not complete */
  offer(w, "http://127.0.0.2:9/one.html");
  crawl__life_set_end(&w->b.shard, CRAWL_END_DONE);
  crawl__checkpoint_final(&w->b.shard);
  world_free(w);
  w = world_new(dir, true, true, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  text = left_lines(w);
  assert_null(strstr(text, "stat complete"));
  assert_non_null(strstr(text, "http://127.0.0.2:9/one.html\n"));
  free(text);
  world_free(w);
  remove_dir(dir);
}

/* A --seen file saved by a crawl of several shards may hold links on their way between them
 * (transit lines: a page's link, a redirect's target): the next run offers each, however many
 * shards it has. A save of one shard has none, so they are added to its attachment here, as
 * such a crawl writes them. */
static void test_links_on_their_way_in_a_seen_file_are_taken_up(void **state) {
  (void)state;
  char dir[256], path[300];
  make_dir(dir, sizeof(dir));
  snprintf(path, sizeof(path), "%s/seen", dir);
  core_rc rc;
  struct world *w = world_new(dir, false, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  offer(w, "http://127.0.0.2:9/one.html");
  crawl__checkpoint_final(&w->b.shard);
  assert_string_equal(w->b.err, "");
  world_free(w);

  seen_filter *filter;
  char why[256];
  FILE *lines = tmpfile();
  assert_non_null(lines);
  assert_int_equal(seen_load(path, &filter, fileno(lines), why, sizeof(why)), CORE_OK);
  assert_int_equal(fseek(lines, 0, SEEK_END), 0);
  const struct link_how found = {VIA_PAGE + PARSE_VIA_A, true}, moved = {VIA_REDIRECT, true};
  fprintf(lines, "transit %c%c 1 0 http://127.0.0.2:9/ http://127.0.0.2:9/linked.html\n",
          LINK_FOUND, crawl__mail_how_code(found));
  fprintf(lines, "transit %c%c 1 1 http://127.0.0.2:9/old.html http://127.0.0.2:9/target.html\n",
          LINK_REDIRECT, crawl__mail_how_code(moved));
  /* the sixth redirect of a chain, past --max-redirs (5): taken up as a redirect, not fetched */
  fprintf(lines, "transit %c%c 1 6 http://127.0.0.2:9/r5.html http://127.0.0.2:9/far.html\n",
          LINK_REDIRECT, crawl__mail_how_code(moved));
  assert_int_equal(fflush(lines), 0);
  assert_int_equal(seen_save(filter, path, fileno(lines), why, sizeof(why)), CORE_OK);
  seen_destroy(filter);
  fclose(lines);

  w = world_new(dir, false, false, SEEN_EXACT, &rc);
  assert_int_equal(rc, CORE_OK);
  char *seeds[] = {"http://127.0.0.2:9/"};
  w->b.cfg.seeds = seeds;
  w->b.cfg.seed_count = 1;
  assert_false(seen(w, "http://127.0.0.2:9/linked.html"));
  assert_int_equal(crawl__seed_all(&w->b.shard), CORE_OK);
  assert_string_equal(w->b.err, "");
  assert_true(seen(w, "http://127.0.0.2:9/linked.html"));
  assert_true(seen(w, "http://127.0.0.2:9/target.html"));
  assert_true(seen(w, "http://127.0.0.2:9/one.html")); /* and the page it left queued */
  struct world_queued q = world_queued_pages(w->b.shard.fr);
  assert_true(world_queued_at(&q, "http://127.0.0.2:9/linked.html") >= 0);
  assert_true(world_queued_at(&q, "http://127.0.0.2:9/target.html") >= 0);
  assert_int_equal(world_queued_at(&q, "http://127.0.0.2:9/far.html"), -1);
  crawl__seed_close(&w->b.shard);
  w->b.cfg.seeds = NULL;
  w->b.cfg.seed_count = 0;
  world_free(w);
  remove_dir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seen_file_keeps_what_is_left_for_the_next_run),
      cmocka_unit_test(test_state_continues_from_the_checkpoint_before_a_damaged_one),
      cmocka_unit_test(test_a_save_whose_output_fails_keeps_the_checkpoint_before),
      cmocka_unit_test(test_a_file_of_another_kind_than_dedupe_is_refused),
      cmocka_unit_test(test_a_crawl_ended_with_nothing_left_says_so),
      cmocka_unit_test(test_links_on_their_way_in_a_seen_file_are_taken_up),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
