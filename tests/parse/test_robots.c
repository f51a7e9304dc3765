/* parse/robots.c: RFC 9309 group selection and path matching. */
#include "parse/parse.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/wrap_realloc.h"

#include "tests/parse/robots_cases.h"

static const char site[] = "# comment line\n"
                           "User-agent: *\n"
                           "Disallow: /private/\n"
                           "Allow: /private/public\n"
                           "Disallow: /*.php$\n"
                           "Disallow: /search\n"
                           "Allow: /search/about\n"
                           "Disallow: /a%3cd\n"
                           "Disallow: /caf\xc3\xa9\n"
                           "Disallow: /tilde%7E/\n"
                           "Disallow: /same\n"
                           "Allow: /same\n"
                           "Disallow: /*/deep/*/x\n"
                           "Crawl-delay: 2.5\n"
                           "\n"
                           "User-agent: crawl\n"
                           "User-agent: other\n"
                           "Disallow: /no-crawl\n"
                           "Disallow: /private/  # comment after a rule\n"
                           "\n"
                           "User-agent: CRAWL\n"
                           "Disallow: /also-no-crawl\n"
                           "Crawl-delay: 7\n"
                           "Sitemap: https://example.com/sitemap.xml\n"
                           "\n"
                           "User-agent: googlebot\n"
                           "Disallow: /\n";

static const struct {
  const char *token;
  const char *path;
  bool allowed;
} cases[] = {
    /* the "*" group applies to a product token no group names */
    {"zbot", "/", true},
    {"zbot", "/private/", false},
    {"zbot", "/private/x.html", false},
    {"zbot", "/private", true},
    {"zbot", "/private/public", true}, /* longer Allow wins */
    {"zbot", "/private/public/more", true},
    {"zbot", "/index.php", false}, /* $ anchors */
    {"zbot", "/index.php?x=1", true},
    {"zbot", "/dir/index.php", false},
    {"zbot", "/search", false},
    {"zbot", "/search?q=1", false},
    {"zbot", "/searching", false}, /* prefix match */
    {"zbot", "/search/about", true},
    {"zbot", "/same", true},   /* equal length: Allow wins the tie */
    {"zbot", "/a%3Cd", false}, /* percent-encoding compared case-insensitively */
    {"zbot", "/a%3cd", false},
    {"zbot", "/caf%C3%A9", false}, /* UTF-8 in the file matches its encoded form */
    {"zbot", "/tilde~/x", false},  /* %7E is the unreserved "~" */
    {"zbot", "/a/deep/b/x", false},
    {"zbot", "/a/deep/b/y", true},
    {"zbot", "/robots.txt", true}, /* always allowed */
    /* our own groups, merged, case-insensitive; the "*" group no longer applies */
    {"crawl", "/no-crawl", false},
    {"crawl", "/also-no-crawl", false},
    {"crawl", "/search", true},
    {"crawl", "/private/x", false},
    {"Crawl", "/no-crawl/page", false},
    {"other", "/no-crawl", false},
    {"other", "/also-no-crawl", true},
    {"googlebot", "/anything", false},
    {"googlebot", "/robots.txt", true},
};

static void test_matching_table(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    parse_robots *r;
    assert_int_equal(parse_robots_create(site, strlen(site), cases[i].token, &r), CORE_OK);
    if (parse_robots_allowed(r, cases[i].path) != cases[i].allowed)
      fail_msg("case %zu: %s %s should be %s", i, cases[i].token, cases[i].path,
               cases[i].allowed ? "allowed" : "disallowed");
    parse_robots_destroy(r);
  }
}

static void test_rfc9309_table(void **state) {
  (void)state;
  size_t n = robots_case_count;
  assert_true(n >= 150);
  for (size_t i = 0; i < n; i++) {
    parse_robots *r;
    char *token = parse_product_token(robots_cases[i].agent);
    assert_non_null(token);
    assert_int_equal(
        parse_robots_create(robots_cases[i].robots, strlen(robots_cases[i].robots), token, &r),
        CORE_OK);
    if (parse_robots_allowed(r, robots_cases[i].path) != robots_cases[i].allowed)
      fail_msg("case %zu: %s %s should be %s", i, robots_cases[i].agent, robots_cases[i].path,
               robots_cases[i].allowed ? "allowed" : "disallowed");
    parse_robots_destroy(r);
    free(token);
  }
}

static void test_crawl_delay_and_sitemaps(void **state) {
  (void)state;
  parse_robots *r;
  assert_int_equal(parse_robots_create(site, strlen(site), "zbot", &r), CORE_OK);
  assert_true(parse_robots_crawl_delay(r) == 2.5);
  assert_int_equal(parse_robots_sitemap_count(r), 1);
  assert_string_equal(parse_robots_sitemap(r, 0), "https://example.com/sitemap.xml");
  parse_robots_destroy(r);
  assert_int_equal(parse_robots_create(site, strlen(site), "crawl", &r), CORE_OK);
  assert_true(parse_robots_crawl_delay(r) == 7);
  parse_robots_destroy(r);
}

/* The rules kept without the Sitemap lines, as a crawl keeps them once it has read those: every
 * case of the table and the Crawl-delay answer as before, and no sitemap is left. */
static void test_without_sitemaps(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    parse_robots *r;
    assert_int_equal(parse_robots_create(site, strlen(site), cases[i].token, &r), CORE_OK);
    double delay = parse_robots_crawl_delay(r);
    assert_int_equal(parse_robots_sitemap_count(r), 1);
    r = parse_robots_without_sitemaps(r);
    assert_int_equal(parse_robots_sitemap_count(r), 0);
    assert_true(parse_robots_crawl_delay(r) == delay);
    if (parse_robots_allowed(r, cases[i].path) != cases[i].allowed)
      fail_msg("case %zu: %s %s should be %s", i, cases[i].token, cases[i].path,
               cases[i].allowed ? "allowed" : "disallowed");
    parse_robots_destroy(r);
  }
}

/* Rules shared by hosts whose robots.txt says the same: each user's destroy lets go of its
 * share, and the rules answer every case until the last of them (under a sanitizer, a use after
 * the free, or a leak, would fail here); a shared copy keeps its Sitemap lines, as another user
 * may still read them. */
static void test_shared_by_its_users(void **state) {
  (void)state;
  parse_robots *r;
  assert_int_equal(parse_robots_create(site, strlen(site), "crawl", &r), CORE_OK);
  assert_ptr_equal(parse_robots_share(r), r);
  assert_ptr_equal(parse_robots_share(r), r); /* three users */
  assert_ptr_equal(parse_robots_without_sitemaps(r), r);
  assert_int_equal(parse_robots_sitemap_count(r), 1);
  for (int user = 0; user < 3; user++) {
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
      if (!strcmp(cases[i].token, "crawl") &&
          parse_robots_allowed(r, cases[i].path) != cases[i].allowed)
        fail_msg("user %d, case %zu: %s", user, i, cases[i].path);
    parse_robots_destroy(r);
  }
  parse_robots_destroy(NULL);
}

/* Rules saved and loaded again, as a crawl keeps an idle host's on disk: every case of the
 * table and the Crawl-delay answer as before, and the Sitemap lines are not kept. */
static void test_saved_and_loaded(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    parse_robots *r, *again;
    assert_int_equal(parse_robots_create(site, strlen(site), cases[i].token, &r), CORE_OK);
    struct core_buf saved;
    core_buf_init(&saved, 1 << 20);
    assert_int_equal(parse_robots_save(r, &saved), CORE_OK);
    assert_int_equal(parse_robots_load(saved.data, saved.len, &again), CORE_OK);
    assert_true(parse_robots_crawl_delay(again) == parse_robots_crawl_delay(r));
    assert_int_equal(parse_robots_sitemap_count(again), 0);
    if (parse_robots_allowed(again, cases[i].path) != cases[i].allowed)
      fail_msg("case %zu: %s %s should be %s once loaded", i, cases[i].token, cases[i].path,
               cases[i].allowed ? "allowed" : "disallowed");
    core_buf_free(&saved);
    parse_robots_destroy(again);
    parse_robots_destroy(r);
  }
}

/* Bytes save did not write are refused, never read as rules: each shorter piece of a saved
 * form, one byte more, another head, a pattern without its nul or with one inside; a file of no
 * rules loads as allowing everything. */
static void test_saved_form_checked(void **state) {
  (void)state;
  static const char text[] = "User-agent: *\nDisallow: /x\nAllow: /x/ok\nCrawl-delay: 3\n";
  parse_robots *r, *again;
  assert_int_equal(parse_robots_create(text, strlen(text), "crawl", &r), CORE_OK);
  struct core_buf saved;
  core_buf_init(&saved, 4096);
  assert_int_equal(parse_robots_save(r, &saved), CORE_OK);
  for (size_t len = 0; len < saved.len; len++) {
    char *piece = malloc(len ? len : 1); /* exactly: a read past it is AddressSanitizer's */
    assert_non_null(piece);
    memcpy(piece, saved.data, len);
    if (parse_robots_load(piece, len, &again) != CORE_EFORMAT)
      fail_msg("%zu bytes of %zu loaded", len, saved.len);
    free(piece);
  }
  char *copy = malloc(saved.len + 1);
  assert_non_null(copy);
  memcpy(copy, saved.data, saved.len);
  copy[saved.len] = '\0';
  assert_int_equal(parse_robots_load(copy, saved.len + 1, &again), CORE_EFORMAT);
  copy[0] ^= 1; /* the head */
  assert_int_equal(parse_robots_load(copy, saved.len, &again), CORE_EFORMAT);
  copy[0] ^= 1;
  char *nul = memchr(copy + 16 + 5, '\0', saved.len - 16 - 5); /* the first pattern's */
  assert_non_null(nul);
  *nul = 'y';
  assert_int_equal(parse_robots_load(copy, saved.len, &again), CORE_EFORMAT);
  *nul = '\0';
  copy[16 + 5 + 1] = '\0'; /* inside it */
  assert_int_equal(parse_robots_load(copy, saved.len, &again), CORE_EFORMAT);
  free(copy);
  assert_int_equal(parse_robots_load(saved.data, saved.len, &again), CORE_OK);
  assert_false(parse_robots_allowed(again, "/x/no"));
  assert_true(parse_robots_allowed(again, "/x/ok"));
  assert_true(parse_robots_crawl_delay(again) == 3);
  parse_robots_destroy(again);
  parse_robots_destroy(r);
  core_buf_free(&saved);
  assert_int_equal(parse_robots_create("", 0, "crawl", &r), CORE_OK);
  core_buf_init(&saved, 4096);
  assert_int_equal(parse_robots_save(r, &saved), CORE_OK);
  assert_int_equal(parse_robots_load(saved.data, saved.len, &again), CORE_OK);
  assert_true(parse_robots_allowed(again, "/anything"));
  assert_true(parse_robots_crawl_delay(again) < 0);
  parse_robots_destroy(again);
  parse_robots_destroy(r);
  core_buf_free(&saved);
}

/* Memory running out while the rules and sitemaps of a file are kept: the file says so (the
 * crawl ends, doc/behaviour.md), or every rule and sitemap is there. */
static void test_out_of_memory_said(void **state) {
  (void)state;
  static const char text[] = "Sitemap: http://a.test/1.xml\n"
                             "User-agent: *\nDisallow: /x\nDisallow: /y\nAllow: /x/ok\n"
                             "Sitemap: http://a.test/2.xml\nSitemap: http://a.test/3.xml\n";
  long said = 0;
  for (long n = 1;; n++) {
    parse_robots *r = NULL;
    wrap_realloc_fail_in(n);
    core_rc rc = parse_robots_create(text, strlen(text), "crawl", &r);
    bool none_failed = wrap_realloc_pending();
    wrap_realloc_fail_in(0);
    if (rc == CORE_ENOMEM) {
      said++;
      continue;
    }
    assert_int_equal(rc, CORE_OK);
    assert_int_equal(parse_robots_sitemap_count(r), 3);
    assert_string_equal(parse_robots_sitemap(r, 2), "http://a.test/3.xml");
    assert_false(parse_robots_allowed(r, "/y"));
    assert_true(parse_robots_allowed(r, "/x/ok"));
    parse_robots_destroy(r);
    if (none_failed)
      break;
  }
  assert_true(said >= 4); /* the rules' table and the sitemaps' list grew more than once */
}

static void test_empty_and_odd_files(void **state) {
  (void)state;
  const char *files[] = {"",
                         "garbage without colons\n\n",
                         "Disallow: /\n",
                         "User-agent: *\nDisallow:\n",
                         "\xEF\xBB\xBFUser-agent: *\r\nDisallow: /x\r\n",
                         "User-agent: *\nDisallow: /x\0\nDisallow: /y\n"};
  const bool root_allowed[] = {true, true, true, true, true, true};
  for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
    parse_robots *r;
    assert_int_equal(parse_robots_create(files[i], strlen(files[i]), "crawl", &r), CORE_OK);
    assert_int_equal(parse_robots_allowed(r, "/"), root_allowed[i]);
    parse_robots_destroy(r);
  }
  parse_robots *r;
  const char *bom = "\xEF\xBB\xBFUser-agent: *\r\nDisallow: /x\r\n";
  assert_int_equal(parse_robots_create(bom, strlen(bom), "crawl", &r), CORE_OK);
  assert_false(parse_robots_allowed(r, "/x"));
  parse_robots_destroy(r);
  /* a rule without a group before it belongs to no one */
  const char *orphan = "Disallow: /\nUser-agent: *\nDisallow: /y\n";
  assert_int_equal(parse_robots_create(orphan, strlen(orphan), "crawl", &r), CORE_OK);
  assert_true(parse_robots_allowed(r, "/x"));
  assert_false(parse_robots_allowed(r, "/y"));
  parse_robots_destroy(r);
  /* an empty value ends with its line: the next line, without a colon, is no part of it, so
   * an empty User-agent names no one, not the word below it */
  const char *empty = "User-agent:\n crawl\nDisallow: /secret\n";
  assert_int_equal(parse_robots_create(empty, strlen(empty), "crawl", &r), CORE_OK);
  assert_true(parse_robots_allowed(r, "/secret"));
  parse_robots_destroy(r);
}

static void test_parse_limit(void **state) {
  (void)state;
  /* rules past the first 500 KiB are not read */
  size_t len = PARSE_ROBOTS_MAX_BYTES + 100;
  char *text = malloc(len + 1);
  assert_non_null(text);
  memset(text, '#', len);
  const char *head = "User-agent: *\nDisallow: /a\n";
  memcpy(text, head, strlen(head));
  text[strlen(head)] = '\n';
  const char *tail = "\nDisallow: /b\n";
  memcpy(text + len - strlen(tail), tail, strlen(tail));
  text[len] = '\0';
  parse_robots *r;
  assert_int_equal(parse_robots_create(text, len, "crawl", &r), CORE_OK);
  assert_false(parse_robots_allowed(r, "/a"));
  assert_true(parse_robots_allowed(r, "/b"));
  parse_robots_destroy(r);
  free(text);
}

static void test_product_token(void **state) {
  (void)state;
  char *t = parse_product_token("Foo Bar/1.0");
  assert_string_equal(t, "Foo");
  free(t);
  t = parse_product_token("crawl/0.1.0");
  assert_string_equal(t, "crawl");
  free(t);
  t = parse_product_token("my_bot-2/1");
  assert_string_equal(t, "my_bot-");
  free(t);
  assert_null(parse_product_token("/1.0"));
}

/* A file made to be costly (RFC 9309's 500 KiB of long wildcard rules that each nearly match a
 * long path): the check of one URL looks at no more than PARSE_ROBOTS_WORK_MAX bytes of it and
 * calls the URL disallowed when it would need more, where a few of the same rules, within the
 * bound, answer as the RFC says. (bench/bench_robots measures the time: 64 -> 0.4 ms a URL.) */
static void test_costly_file_bounded(void **state) {
  (void)state;
  uint64_t seed = 1;
  char *text = malloc(PARSE_ROBOTS_MAX_BYTES + 128);
  assert_non_null(text);
  size_t n = (size_t)sprintf(text, "User-agent: *\n"), few = 0;
  while (n + 64 < PARSE_ROBOTS_MAX_BYTES) {
    n += (size_t)sprintf(text + n, "Disallow: /");
    for (int i = 0; i < 50; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      text[n++] = i % 6 == 0 ? '*' : (char)('a' + (seed >> 33) % 10);
    }
    text[n++] = '\n';
    if (!few && n > 2000)
      few = n; /* some 30 rules */
  }
  char path[2049];
  path[0] = '/';
  for (int i = 1; i < 2048; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    path[i] = (char)('k' + (seed >> 33) % 10); /* none of the rules' letters: none matches */
  }
  path[2048] = '\0';
  /* the pieces are searched for only when every byte of the rule is in the path: give it them */
  memcpy(path + 1, "abcdefghij", 10);
  parse_robots *all, *some;
  assert_int_equal(parse_robots_create(text, n, "crawl", &all), CORE_OK);
  assert_int_equal(parse_robots_create(text, few, "crawl", &some), CORE_OK);
  assert_true(parse_robots_allowed(some, path)); /* within the bound: no rule matches */
  assert_false(parse_robots_allowed(all, path)); /* past it: kept away from */
  assert_true(parse_robots_allowed(all, "/robots.txt"));
  parse_robots_destroy(all);
  parse_robots_destroy(some);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matching_table),
      cmocka_unit_test(test_rfc9309_table),
      cmocka_unit_test(test_crawl_delay_and_sitemaps),
      cmocka_unit_test(test_without_sitemaps),
      cmocka_unit_test(test_shared_by_its_users),
      cmocka_unit_test(test_saved_and_loaded),
      cmocka_unit_test(test_saved_form_checked),
      cmocka_unit_test(test_out_of_memory_said),
      cmocka_unit_test(test_empty_and_odd_files),
      cmocka_unit_test(test_parse_limit),
      cmocka_unit_test(test_product_token),
      cmocka_unit_test(test_costly_file_bounded),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
