/* The lines of a save (crawl/saved.c), built from that file with the few it uses (notes.c,
 * report.c's names, mesh.c's letters of how a link was found): every kind of line written as a
 * checkpoint writes it is read back as it was; lines as an earlier version wrote them keep their
 * flags and where each link was found; lines of the layout before this one are read as pages; a
 * line damaged in any field is refused, never read as something near it; the counters a checkpoint
 * keeps have names of their own, one for every count; pages left by a limit go to the next run's
 * save, with ITEM_LEFT under --state only. */
#include "crawl/mesh.h"
#include "crawl/saved.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Line text parsed into *out: a copy, which *out's strings point into (freed by the caller). */
static char *parse(const char *text, struct saved *out, bool *ok) {
  char *copy = strdup(text);
  assert_non_null(copy);
  *ok = crawl__saved_parse(copy, out);
  return copy;
}

static void test_a_page_line_read_back(void **state) {
  (void)state;
  struct frontier_item *item =
      frontier_item_new(FRONTIER_PAGE, "http://a.test/p?q=1", "http://a.test/", 7);
  assert_non_null(item);
  item->attempts = 2;
  item->redirects = 3;
  item->not_before = 105.25;
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  assert_non_null(out);
  crawl__saved_put_item(out, item, ITEM_SEED | ITEM_QUIET, 100.0);
  item->kind = FRONTIER_SITEMAP;
  item->from = NULL; /* a seed's sitemap: found on no page (the item's own string stays its) */
  crawl__saved_put_item(out, item, 0, 200.0); /* due already: no wait */
  assert_int_equal(fclose(out), 0);
  rewind(out = fmemopen(text, size, "r"));
  char *line = NULL;
  size_t cap = 0;
  struct saved s;
  assert_true(crawl__saved_next(out, &line, &cap, &s));
  assert_int_equal(s.kind, SAVED_PAGE);
  assert_int_equal(s.depth, 7);
  assert_int_equal(s.attempts, 2);
  assert_int_equal(s.redirects, 3);
  assert_int_equal(s.flags, ITEM_SEED | ITEM_QUIET);
  assert_true(s.wait > 5.249 && s.wait < 5.251);
  assert_string_equal(s.from, "http://a.test/");
  assert_string_equal(s.url, "http://a.test/p?q=1");
  assert_true(crawl__saved_next(out, &line, &cap, &s));
  assert_int_equal(s.kind, SAVED_SITEMAP);
  assert_null(s.from);
  assert_true(s.wait == 0);
  assert_false(crawl__saved_next(out, &line, &cap, &s));
  fclose(out);
  free(line);
  free(text);
  frontier_item_free(item);
}

/* Lines as versions since 91ac7d4 wrote them, numbers and all: a crawl continued with --state
 * by a newer version reads where each link was found as the one that saved it knew it (the via
 * rides in the flags from bit 8, its numbers only ever appended: crawl/link.h). */
static void test_lines_of_an_earlier_version(void **state) {
  (void)state;
  const struct {
    const char *line;
    unsigned low_flags;
    const char *via;
  } lines[] = {
      {"page 0 0 0 258 0.000 - http://a.test/", ITEM_SEED, "seed"},
      {"page 1 0 0 512 0.000 - http://a.test/page", 0, "sitemap"},
      {"page 2 1 1 768 1.500 http://a.test/old http://a.test/new", 0, "redirect"},
      {"page 2 0 0 3328 0.000 http://a.test/ http://a.test/i.png", 0, "img"},
      {"page 3 0 0 2049 0.000 http://a.test/ http://a.test/q", ITEM_QUIET, "a"},
  };
  for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
    struct saved s;
    bool ok;
    char *copy = parse(lines[i].line, &s, &ok);
    assert_true(ok);
    assert_int_equal(s.flags & ~ITEM_VIA_MASK, lines[i].low_flags);
    const char *via = crawl__report_via_name(ITEM_VIA(s.flags));
    assert_non_null(via);
    assert_string_equal(via, lines[i].via);
    free(copy);
  }
}

static void test_every_kind_of_line(void **state) {
  (void)state;
  struct link_how followed = {VIA_PAGE + PARSE_VIA_A, true};
  char held[64], link[96], transit[128];
  snprintf(held, sizeof(held), "held 4 http://a.test/x");
  snprintf(link, sizeof(link), "link 5 %c ab/c.html", crawl__mail_how_code(followed));
  snprintf(transit, sizeof(transit), "transit R%c 2 1 http://a.test/m http://b.test/",
           crawl__mail_how_code(followed));
  struct {
    const char *text;
    enum saved_kind kind;
  } lines[] = {
      {held, SAVED_HELD},
      {link, SAVED_LINK},
      {"host 1.500 42 http://a.test:8080", SAVED_HOST},
      {"stat pages_started 77", SAVED_STAT},
      {"broken 404 http://a.test/ http://a.test/gone", SAVED_BROKEN},
      {"broken 0 - http://a.test/dns 3", SAVED_BROKEN},
      {transit, SAVED_TRANSIT},
      {"cut 9 2 http://a.test/ http://a.test/deep", SAVED_CUT},
      {"3 http://a.test/ http://a.test/old", SAVED_PAGE}, /* the layout before this one */
  };
  for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
    struct saved s;
    bool ok;
    char *copy = parse(lines[i].text, &s, &ok);
    if (!ok || s.kind != lines[i].kind)
      fail_msg("'%s' read as kind %d (%s)", lines[i].text, s.kind, ok ? "taken" : "refused");
    free(copy);
  }
  struct saved s;
  bool ok;
  char *copy = parse(link, &s, &ok);
  assert_int_equal(s.depth, 5);
  assert_int_equal(s.how.via, followed.via);
  assert_true(s.how.follow);
  assert_string_equal(s.url, "ab/c.html");
  free(copy);
  copy = parse("host 1.500 42 http://a.test:8080", &s, &ok);
  assert_true(s.wait == 1.5);
  assert_int_equal(s.value, 42);
  assert_string_equal(s.url, "http://a.test:8080");
  free(copy);
  copy = parse("broken 0 - http://a.test/dns 3", &s, &ok);
  assert_int_equal(s.value, 0);
  assert_int_equal(s.flags, 3); /* its cause */
  assert_null(s.from);
  free(copy);
  copy = parse("broken 404 http://a.test/ http://a.test/gone", &s, &ok);
  assert_int_equal(s.flags, CRAWL_CAUSE_HTTP); /* an older file's, which kept no cause */
  free(copy);
  copy = parse(transit, &s, &ok);
  assert_int_equal(s.flags, LINK_REDIRECT);
  assert_int_equal(s.depth, 2);
  assert_int_equal(s.redirects, 1);
  assert_string_equal(s.from, "http://a.test/m");
  assert_string_equal(s.url, "http://b.test/");
  free(copy);
}

/* A field out of its range, a word missing or one too many, a letter where a number goes: the
 * line is refused (a save under a checksum was damaged, or is not one). */
static void test_damaged_lines_refused(void **state) {
  (void)state;
  const char *refused[] = {
      "page 1 0 0 0 0.000 - ",                        /* no URL */
      "page 1 0 0 0 0.000 - http://a.test/ extra",    /* one word too many */
      "page -1 0 0 0 0.000 - http://a.test/",         /* a negative depth */
      "page 1 1001 0 0 0.000 - http://a.test/",       /* attempts past their most */
      "page 1 0 0 4294967296 0.000 - http://a.test/", /* flags past 32 bits */
      "page 1 0 0 0 soon - http://a.test/",           /* a wait that is no number */
      "page 1 0 0 0 -1.000 - http://a.test/",         /* a negative wait */
      "page x 0 0 0 0.000 - http://a.test/",          /* a depth that is no number */
      "held x http://a.test/",                        /* the same, held */
      "link 1 ?? ab",                                 /* two letters for how */
      "stat pages -5",                                /* a negative count */
      "broken 1000 - http://a.test/",                 /* no status is 1000 */
      "broken 404 - http://a.test/ 999",              /* no such cause */
      "transit X1 1 0 - http://a.test/",              /* no such kind */
      "cut 1 2 -",                                    /* no URL */
      "",                                             /* nothing */
      "1 http://a.test/",                             /* the old layout, a field short */
  };
  for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
    struct saved s;
    bool ok;
    char *copy = parse(refused[i], &s, &ok);
    if (ok)
      fail_msg("'%s' was taken as kind %d", refused[i], s.kind);
    free(copy);
  }
}

/* The counters a checkpoint keeps: each count of crawl_stats once, under a name of its own. */
static void test_counters_named_once(void **state) {
  (void)state;
  struct crawl_stats stats = {0};
  struct crawl_stats_counter counters[CRAWL_STATS_COUNTERS_MAX];
  size_t n = 0;
  crawl__saved_counters(&stats, counters, &n);
  assert_int_equal(n, 15 + CRAWL_FATE_COUNT + CRAWL_CAUSE_COUNT);
  for (size_t i = 0; i < n; i++) {
    assert_true(counters[i].name[0] && !strchr(counters[i].name, ' '));
    assert_true((char *)counters[i].at >= (char *)&stats &&
                (char *)counters[i].at < (char *)&stats + sizeof(stats));
    for (size_t j = 0; j < i; j++) {
      assert_string_not_equal(counters[i].name, counters[j].name);
      assert_ptr_not_equal(counters[i].at, counters[j].at);
    }
  }
}

/* What copy appends to a save, in *text (*size bytes), opened to be read back. */
static FILE *copied(struct shard *c, bool (*copy)(struct shard *, FILE *), char **text,
                    size_t *size) {
  FILE *out = open_memstream(text, size);
  assert_non_null(out);
  assert_true(copy(c, out));
  assert_int_equal(fclose(out), 0);
  out = fmemopen(*text, *size ? *size : 1, "r"); /* fmemopen refuses a size of 0 */
  assert_non_null(out);
  return out;
}

/* Pages a limit left: each goes to the next run's save as a page line, marked ITEM_LEFT under
 * --state (the same limit met again writes no second record) and ITEM_QUIET under --seen (this
 * run recorded it: the next fetches it without a record); sitemaps and a crawl that saves
 * nothing leave none. */
static void test_pages_left_for_the_next_run(void **state) {
  (void)state;
  for (int with_state = 0; with_state < 2; with_state++) {
    struct crawl_config cfg = {0};
    struct shard c = {.cfg = &cfg};
    struct frontier_item *page = frontier_item_new(FRONTIER_PAGE, "http://a.test/n", NULL, 2);
    struct frontier_item *map = frontier_item_new(FRONTIER_SITEMAP, "http://a.test/s.xml", NULL, 0);
    assert_non_null(page);
    assert_non_null(map);
    page->flags = ITEM_SEED;
    crawl__saved_leave(&c, page); /* nothing saved: nothing left */
    assert_int_equal(crawl__saved_left_count(&c), 0);
    if (with_state) /* a crawl that saves: --state DIR, or --seen FILE */
      cfg.state_dir = "/nonexistent-dir";
    else
      cfg.seen_file = "/nonexistent-dir/seen";
    crawl__saved_leave(&c, page);
    crawl__saved_leave(&c, map);
    crawl__saved_leave(&c, page);
    assert_int_equal(crawl__saved_left_count(&c), 2);
    assert_false(crawl__saved_left_lost(&c));
    char *text = NULL;
    size_t size = 0;
    FILE *out = copied(&c, crawl__saved_copy_left, &text, &size);
    char *line = NULL;
    size_t cap = 0;
    struct saved s;
    for (int k = 0; k < 2; k++) {
      assert_true(crawl__saved_next(out, &line, &cap, &s));
      assert_int_equal(s.kind, SAVED_PAGE);
      assert_string_equal(s.url, "http://a.test/n");
      assert_int_equal(s.flags, ITEM_SEED | (with_state ? ITEM_LEFT : ITEM_QUIET));
    }
    assert_false(crawl__saved_next(out, &line, &cap, &s));
    fclose(out);
    free(line);
    free(text);
    crawl__saved_left_close(&c);
    assert_int_equal(crawl__saved_left_count(&c), 0);
    frontier_item_free(page);
    frontier_item_free(map);
  }
  char *path = crawl__saved_path_in("/var/x", "links");
  assert_string_equal(path, "/var/x/links");
  free(path);
}

/* A failed URL whose record waits for the run's end: under --seen its page line (from, depth, its
 * via, no ITEM_QUIET: no record yet) is kept for the saves before the end; under --state, whose
 * link log outlives a kill, and in a crawl that saves nothing, none. */
static void test_failed_records_waiting(void **state) {
  (void)state;
  for (int mode = 0; mode < 3; mode++) { /* --seen, --state, neither */
    struct crawl_config cfg = {.seen_file = mode == 0 ? "/nonexistent-dir/seen" : NULL,
                               .state_dir = mode == 1 ? "/nonexistent-dir" : NULL};
    struct shard c = {.cfg = &cfg};
    struct crawl_record rec = {.url = "http://a.test/gone",
                               .from = "http://a.test/",
                               .depth = 3,
                               .fate = CRAWL_FATE_FAILED};
    unsigned flags = (unsigned)VIA_PAGE << ITEM_VIA_SHIFT; /* found as a link */
    crawl__saved_record_waits(&c, &rec, flags);
    rec.url = "http://a.test/lost";
    crawl__saved_record_waits(&c, &rec, flags | ITEM_SEED);
    char *text = NULL;
    size_t size = 0;
    FILE *out = copied(&c, crawl__saved_copy_waiting, &text, &size);
    char *line = NULL;
    size_t cap = 0;
    struct saved s;
    if (mode == 0) {
      const char *urls[] = {"http://a.test/gone", "http://a.test/lost"};
      for (int k = 0; k < 2; k++) {
        assert_true(crawl__saved_next(out, &line, &cap, &s));
        assert_int_equal(s.kind, SAVED_PAGE);
        assert_string_equal(s.url, urls[k]);
        assert_string_equal(s.from, "http://a.test/");
        assert_int_equal(s.depth, 3);
        assert_int_equal(s.flags, flags | (k ? ITEM_SEED : 0));
      }
    }
    assert_false(size && crawl__saved_next(out, &line, &cap, &s));
    assert_int_equal(crawl__saved_left_count(&c), 0); /* no page was left by a limit */
    fclose(out);
    free(line);
    free(text);
    crawl__saved_left_close(&c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_page_line_read_back),
      cmocka_unit_test(test_lines_of_an_earlier_version),
      cmocka_unit_test(test_every_kind_of_line),
      cmocka_unit_test(test_damaged_lines_refused),
      cmocka_unit_test(test_counters_named_once),
      cmocka_unit_test(test_pages_left_for_the_next_run),
      cmocka_unit_test(test_failed_records_waiting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
