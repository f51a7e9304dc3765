/* The stash of pages fetched ahead (crawl/stash.c), without the crawl around it: notes and pages
 * (or none) put and taken back whole in any order across many segments of the file; the file's room
 * given back as segments empty, so a long crawl's file holds about what is stashed; a page too
 * large for a segment, or a file that cannot be made, stays in memory (said once); a damaged file
 * is a fatal error, never a crash. Built with held.c, notes.c, budget.c and mesh.c, the files it
 * uses, not with stand-ins for them. */
#include "crawl/held.h"
#include "crawl/life.h"
#include "crawl/mesh.h"
#include "crawl/stash.h"

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

enum { SEGMENT = 64 * 1024 }; /* stash.c's STASH_SEGMENT */

/* ---- the shard around the stash ---- */

static struct crawl_config cfg;
static struct crawl_sink sink;
static struct crawl *run; /* one a case: the stash's warning is said once a run */
static char fatal_message[512];
static int warnings;
static char warning[512];

static void on_note(void *arg, const char *text) {
  (void)arg;
  snprintf(warning, sizeof(warning), "%s", text);
  warnings++;
}

/* ---- pages ---- */

/* Page n of a made-up web: from 1 to 80 links (a page's links), each a how byte, a shared byte
 * and the rest of its URL, as held.c keeps them. */
static struct held_page *make_page(struct shard *c, unsigned n) {
  char from[64];
  snprintf(from, sizeof(from), "http://h%u.web.test/p/%u.html", n % 97, n);
  struct held_page *hp = crawl__held_new(c, from, (int)(n % 7));
  size_t count = 1 + (n * 2654435761u) % 80;
  hp->links = calloc(count, sizeof(*hp->links));
  assert_non_null(hp->links);
  for (size_t i = 0; i < count; i++) {
    char text[64];
    int len = snprintf(text, sizeof(text), "%c%cp/%u-%zu.html", (char)(1 + i % 5), (char)20, n, i);
    hp->links[i] = (struct held_link){(uint32_t)hp->texts.len, hp->depth + 1};
    assert_int_equal(core_buf_add(&hp->texts, text, (size_t)len + 1), CORE_OK);
  }
  hp->count = hp->cap = count;
  crawl__held_count_links(c, count);
  return hp;
}

/* Whether hp is page n, whole. */
static void expect_page(struct shard *c, const struct held_page *hp, unsigned n) {
  struct held_page *want = make_page(c, n);
  assert_non_null(hp);
  assert_string_equal(hp->from, want->from);
  assert_int_equal(hp->depth, want->depth);
  assert_int_equal(hp->count, want->count);
  assert_int_equal(hp->texts.len, want->texts.len);
  assert_memory_equal(hp->texts.data, want->texts.data, want->texts.len);
  for (size_t i = 0; i < want->count; i++) {
    assert_int_equal(hp->links[i].text, want->links[i].text);
    assert_int_equal(hp->links[i].depth, want->links[i].depth);
  }
  crawl__held_free(c, want);
}

/* Bytes of the file on the disk (its holes take none). */
static uint64_t file_room(const struct shard *c) {
  struct stat st;
  assert_int_equal(fstat(crawl__stash_fd(c), &st), 0);
  return (uint64_t)st.st_blocks * 512;
}

/* Puts page n with its note ("note N", and no page for every tenth n); false when it stays. */
static bool put(struct shard *c, unsigned n, uint64_t *at) {
  char note[32];
  int len = snprintf(note, sizeof(note), "note %u", n);
  struct held_page *hp = n % 10 == 9 ? NULL : make_page(c, n);
  bool put = crawl__stash_put(c, note, (size_t)len, hp, at);
  if (!put)
    crawl__held_free(c, hp);
  return put;
}

/* Takes page n back, whole, with its note; its links are counted as held again. */
static void take(struct shard *c, uint64_t at, unsigned n) {
  const char *note;
  size_t note_len;
  struct held_page *hp;
  size_t held = crawl__held_links(c);
  assert_true(crawl__stash_take(c, at, &note, &note_len, &hp));
  char want[32];
  int len = snprintf(want, sizeof(want), "note %u", n);
  assert_int_equal(note_len, (size_t)len);
  assert_memory_equal(note, want, note_len);
  if (n % 10 == 9) {
    assert_null(hp);
    return;
  }
  expect_page(c, hp, n);
  assert_int_equal(crawl__held_links(c), held + hp->count);
  crawl__held_free(c, hp);
}

static void reset(struct shard *c) {
  memset(c, 0, sizeof(*c));
  fatal_message[0] = warning[0] = '\0';
  warnings = 0;
  crawl__mesh_destroy(run);
  assert_int_equal(crawl__mesh_create(1, &run), CORE_OK);
  cfg = (struct crawl_config){.max_url_length = 4096};
  sink = (struct crawl_sink){.note = on_note};
  c->cfg = &cfg;
  c->run = run;
  c->sink = &sink;
  assert_int_equal(crawl__life_open(c, fatal_message, sizeof(fatal_message), 0), CORE_OK);
  crawl__held_prepare(c);
}

/* ---- cases ---- */

/* 3,000 pages (some 3 MB, dozens of segments) put, then taken back in a shuffled order: each as
 * it went in, its links counted as held again, and the emptied file keeps at most one segment. */
static void test_pages_come_back_whole(void **state) {
  (void)state;
  struct shard c;
  reset(&c);
  enum { PAGES = 3000 };
  uint64_t *at = calloc(PAGES, sizeof(*at));
  unsigned *order = calloc(PAGES, sizeof(*order));
  assert_non_null(at);
  assert_non_null(order);
  for (unsigned n = 0; n < PAGES; n++) {
    assert_true(put(&c, n, &at[n]));
    order[n] = n;
  }
  assert_int_equal(crawl__held_links(&c), 0); /* no longer held in memory */
  assert_true(file_room(&c) > 20 * SEGMENT);
  srand(7);
  for (unsigned n = PAGES - 1; n > 0; n--) {
    unsigned k = (unsigned)rand() % (n + 1), t = order[n];
    order[n] = order[k];
    order[k] = t;
  }
  for (unsigned i = 0; i < PAGES; i++)
    take(&c, at[order[i]], order[i]);
  assert_false(crawl__life_fatal(&c));
  assert_true(file_room(&c) <= SEGMENT);
  assert_int_equal(warnings, 0);
  crawl__stash_close(&c);
  crawl__held_free_all(&c);
  crawl__life_close(&c);
  free(at);
  free(order);
}

/* A long crawl: 40,000 pages (some 40 MB) pass through the stash, 200 at a time waiting. The file
 * keeps about what waits, not all that went through it; dropped pages free their room too. */
static void test_the_file_holds_what_waits(void **state) {
  (void)state;
  struct shard c;
  reset(&c);
  enum { PAGES = 40000, WAITING = 200 };
  uint64_t at[WAITING];
  uint64_t most = 0;
  for (unsigned n = 0; n < PAGES; n++) {
    if (n >= WAITING) { /* the oldest is confirmed, or (one in five) dropped */
      unsigned old = n - WAITING;
      if (old % 5 == 0) {
        crawl__stash_drop(&c, at[old % WAITING]);
      } else {
        take(&c, at[old % WAITING], old);
      }
    }
    assert_true(put(&c, n, &at[n % WAITING]));
    uint64_t room = file_room(&c);
    most = room > most ? room : most;
  }
  assert_false(crawl__life_fatal(&c));
  /* 200 pages of at most some 2.5 KB each, and the segments they share with the ones gone */
  assert_true(most <= 16 * SEGMENT);
  crawl__stash_close(&c);
  crawl__held_free_all(&c);
  crawl__life_close(&c);
}

/* The first segment emptied while later ones still keep pages: the pages put next go where no
 * page waits, so every page comes back whole. */
static void test_no_page_is_written_over(void **state) {
  (void)state;
  struct shard c;
  reset(&c);
  enum { PAGES = 400 };
  uint64_t at[PAGES];
  bool taken[PAGES] = {false};
  for (unsigned n = 0; n < PAGES / 2; n++)
    assert_true(put(&c, n, &at[n]));
  assert_true(at[PAGES / 2 - 1] >= 2 * SEGMENT);
  for (unsigned n = 0; n < PAGES / 2 && at[n] < SEGMENT; n++) {
    take(&c, at[n], n);
    taken[n] = true;
  }
  for (unsigned n = PAGES / 2; n < PAGES; n++)
    assert_true(put(&c, n, &at[n]));
  for (unsigned n = 0; n < PAGES; n++)
    if (!taken[n])
      take(&c, at[n], n);
  assert_false(crawl__life_fatal(&c));
  crawl__stash_close(&c);
  crawl__held_free_all(&c);
  crawl__life_close(&c);
}

/* A page larger than a segment stays in memory, the caller's still; no warning. */
static void test_a_page_too_large_stays(void **state) {
  (void)state;
  struct shard c;
  reset(&c);
  struct held_page *hp = crawl__held_new(&c, "http://big.web.test/", 0);
  char text[200];
  memset(text, 'x', sizeof(text) - 1);
  text[sizeof(text) - 1] = '\0';
  size_t count = 2 * SEGMENT / sizeof(text);
  hp->links = calloc(count, sizeof(*hp->links));
  assert_non_null(hp->links);
  for (size_t i = 0; i < count; i++) {
    hp->links[i] = (struct held_link){(uint32_t)hp->texts.len, 1};
    assert_int_equal(core_buf_add(&hp->texts, text, sizeof(text)), CORE_OK);
  }
  hp->count = hp->cap = count;
  uint64_t at = 0;
  assert_false(crawl__stash_put(&c, "note", 4, hp, &at));
  assert_int_equal(hp->count, count); /* untouched */
  assert_int_equal(warnings, 0);
  assert_false(crawl__life_fatal(&c));
  /* and the next, small page goes to the file as ever */
  assert_true(put(&c, 1, &at));
  crawl__held_free(&c, hp);
  take(&c, at, 1);
  crawl__stash_close(&c);
  crawl__held_free_all(&c);
  crawl__life_close(&c);
}

/* $TMPDIR names no directory: pages stay in memory, each the caller's still, and it is said once,
 * naming the directory and why. */
static void test_no_file_keeps_pages_in_memory(void **state) {
  (void)state;
  struct shard c;
  reset(&c);
  char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
  setenv("TMPDIR", "/nonexistent-crawl-stash-dir", 1);
  for (unsigned n = 0; n < 3; n++) {
    struct held_page *hp = make_page(&c, n);
    uint64_t at = 0;
    assert_false(crawl__stash_put(&c, "note", 4, hp, &at));
    expect_page(&c, hp, n);
    crawl__held_free(&c, hp);
  }
  if (old)
    setenv("TMPDIR", old, 1);
  else
    unsetenv("TMPDIR");
  free(old);
  assert_int_equal(warnings, 1);
  assert_non_null(strstr(warning, "/nonexistent-crawl-stash-dir (No such file or directory)"));
  assert_false(crawl__life_fatal(&c));
  crawl__stash_close(&c);
  crawl__held_free_all(&c);
  crawl__life_close(&c);
}

/* The file cut short, or overwritten with nonsense: taking a page back is a fatal error that says
 * why, with no page made. */
static void test_a_damaged_file_is_fatal(void **state) {
  (void)state;
  struct shard c;
  reset(&c);
  uint64_t first, second;
  assert_true(put(&c, 1, &first));
  assert_true(put(&c, 2, &second));
  /* nonsense where the second page's head is: counts far past a segment */
  unsigned char junk[16];
  memset(junk, 0xff, sizeof(junk));
  assert_int_equal(pwrite(crawl__stash_fd(&c), junk, sizeof(junk), (off_t)second),
                   (ssize_t)sizeof(junk));
  const char *note;
  size_t note_len;
  struct held_page *hp;
  assert_false(crawl__stash_take(&c, second, &note, &note_len, &hp));
  assert_null(hp);
  assert_true(crawl__life_fatal(&c));
  assert_non_null(strstr(fatal_message, "cannot read back a page fetched ahead"));
  assert_non_null(strstr(fatal_message, "Invalid argument"));
  /* cut before the first page's end */
  crawl__life_close(&c); /* a life of its own again: the next failure is fatal anew */
  assert_int_equal(crawl__life_open(&c, fatal_message, sizeof(fatal_message), 0), CORE_OK);
  assert_int_equal(ftruncate(crawl__stash_fd(&c), (off_t)(first + 20)), 0);
  assert_false(crawl__stash_take(&c, first, &note, &note_len, &hp));
  assert_null(hp);
  assert_true(crawl__life_fatal(&c));
  assert_non_null(strstr(fatal_message, "Input/output error"));
  crawl__stash_close(&c);
  crawl__held_free_all(&c);
  crawl__life_close(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pages_come_back_whole),
      cmocka_unit_test(test_the_file_holds_what_waits),
      cmocka_unit_test(test_no_page_is_written_over),
      cmocka_unit_test(test_a_page_too_large_stays),
      cmocka_unit_test(test_no_file_keeps_pages_in_memory),
      cmocka_unit_test(test_a_damaged_file_is_fatal),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  crawl__mesh_destroy(run);
  return failed;
}
