/* parse/sitemap.c: urlsets and indexes, plain or gzipped, in any chunking, within the limits. */
#include "parse/parse.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "tests/support/wrap_realloc.h"

struct entries {
  size_t urls, indexes;
  char text[4096];
  size_t len;
};

static void collect(void *arg, parse_sitemap_event event, const char *loc) {
  struct entries *e = arg;
  if (event == PARSE_SITEMAP_URL)
    e->urls++;
  else
    e->indexes++;
  int n = snprintf(e->text + e->len, sizeof(e->text) - e->len, "%c:%s|",
                   event == PARSE_SITEMAP_URL ? 'U' : 'I', loc);
  if (n > 0 && e->len + (size_t)n < sizeof(e->text))
    e->len += (size_t)n;
}

static parse_sitemap *feed_all(const char *data, size_t len, size_t chunk, struct entries *e,
                               core_rc *last) {
  memset(e, 0, sizeof(*e));
  parse_sitemap *sm;
  assert_int_equal(parse_sitemap_create(collect, e, &sm), CORE_OK);
  *last = CORE_OK;
  for (size_t off = 0; off < len; off += chunk) {
    core_rc rc = parse_sitemap_feed(sm, data + off, off + chunk > len ? len - off : chunk);
    if (rc)
      *last = rc;
  }
  parse_sitemap_finish(sm);
  return sm;
}

static const char urlset[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    "  <url><loc>http://a.test/1</loc><lastmod>2026-01-01</lastmod></url>\n"
    "  <url><loc>\n    http://a.test/2?x=1&amp;y=2\n  </loc></url>\n"
    "  <url><loc><![CDATA[http://a.test/3]]></loc></url>\n"
    "  <url><priority>0.5</priority></url>\n"
    "  <url><lastmod>2026-01-01</lastmod><priority>0.5</priority><loc>http://a.test/4</loc></url>\n"
    "  <loc>http://a.test/not-in-a-url-element</loc>\n"
    "</urlset>\n";

static const char index_file[] =
    "<sm:sitemapindex xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
    "<sm:sitemap><sm:loc>http://a.test/s1.xml.gz</sm:loc></sm:sitemap>"
    "<sm:sitemap><sm:loc>http://a.test/s2.xml</sm:loc></sm:sitemap>"
    "</sm:sitemapindex>";

static void test_urlset_any_chunking(void **state) {
  (void)state;
  size_t chunks[] = {1, 3, 64, sizeof(urlset)};
  for (size_t i = 0; i < 4; i++) {
    struct entries e;
    core_rc rc;
    parse_sitemap *sm = feed_all(urlset, strlen(urlset), chunks[i], &e, &rc);
    assert_int_equal(rc, CORE_OK);
    /* a <loc> after its <url>'s other children counts too: sitemaps.org sets no order */
    assert_string_equal(e.text, "U:http://a.test/1|U:http://a.test/2?x=1&y=2|U:http://a.test/3|"
                                "U:http://a.test/4|");
    assert_int_equal(parse_sitemap_count(sm), 4);
    assert_false(parse_sitemap_truncated(sm));
    parse_sitemap_destroy(sm);
  }
}

static void test_index_with_prefixes(void **state) {
  (void)state;
  struct entries e;
  core_rc rc;
  parse_sitemap *sm = feed_all(index_file, strlen(index_file), 7, &e, &rc);
  assert_string_equal(e.text, "I:http://a.test/s1.xml.gz|I:http://a.test/s2.xml|");
  parse_sitemap_destroy(sm);
}

static size_t gzip(const char *in, size_t len, unsigned char *out, size_t cap) {
  z_stream z;
  memset(&z, 0, sizeof(z));
  assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  z.next_in = (unsigned char *)in;
  z.avail_in = (uInt)len;
  z.next_out = out;
  z.avail_out = (uInt)cap;
  assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
  size_t n = cap - z.avail_out;
  deflateEnd(&z);
  return n;
}

static void test_gzipped(void **state) {
  (void)state;
  unsigned char gz[4096];
  size_t n = gzip(urlset, strlen(urlset), gz, sizeof(gz));
  size_t chunks[] = {2, 5, sizeof(gz)};
  for (size_t i = 0; i < 3; i++) {
    struct entries e;
    core_rc rc;
    parse_sitemap *sm = feed_all((const char *)gz, n, chunks[i], &e, &rc);
    assert_int_equal(rc, CORE_OK);
    assert_int_equal(e.urls, 4);
    parse_sitemap_destroy(sm);
  }
  /* corrupt gzip: reported, and nothing crashes */
  gz[n / 2] ^= 0xff;
  gz[n / 2 + 1] ^= 0xff;
  struct entries e;
  core_rc rc;
  parse_sitemap *sm = feed_all((const char *)gz, n, n, &e, &rc);
  assert_int_equal(rc, CORE_EFORMAT);
  parse_sitemap_destroy(sm);
}

static void test_url_limit(void **state) {
  (void)state;
  size_t cap = 60000 * 48;
  char *big = malloc(cap);
  assert_non_null(big);
  size_t len = (size_t)snprintf(big, cap, "<urlset>");
  for (int i = 0; i < 50010; i++)
    len += (size_t)snprintf(big + len, cap - len, "<url><loc>http://a.test/%d</loc></url>", i);
  len += (size_t)snprintf(big + len, cap - len, "</urlset>");
  struct entries e;
  core_rc rc;
  parse_sitemap *sm = feed_all(big, len, 65536, &e, &rc);
  assert_int_equal(e.urls, PARSE_SITEMAP_MAX_URLS);
  assert_true(parse_sitemap_truncated(sm));
  parse_sitemap_destroy(sm);
  free(big);
}

static void test_size_limit(void **state) {
  (void)state;
  /* 50 MB of white space before the last entry: the entry is past the limit */
  size_t chunk = 1 << 20;
  char *spaces = malloc(chunk);
  assert_non_null(spaces);
  memset(spaces, ' ', chunk);
  struct entries e;
  memset(&e, 0, sizeof(e));
  parse_sitemap *sm;
  assert_int_equal(parse_sitemap_create(collect, &e, &sm), CORE_OK);
  const char *head = "<urlset><url><loc>http://a.test/first</loc></url>";
  assert_int_equal(parse_sitemap_feed(sm, head, strlen(head)), CORE_OK);
  core_rc rc = CORE_OK;
  for (int i = 0; i < 51 && rc == CORE_OK; i++)
    rc = parse_sitemap_feed(sm, spaces, chunk);
  assert_int_equal(rc, CORE_ETOOLONG);
  const char *tail = "<url><loc>http://a.test/late</loc></url></urlset>";
  assert_int_equal(parse_sitemap_feed(sm, tail, strlen(tail)), CORE_ETOOLONG);
  parse_sitemap_finish(sm);
  assert_int_equal(e.urls, 1);
  assert_true(parse_sitemap_truncated(sm));
  parse_sitemap_destroy(sm);
  free(spaces);
}

/* Memory running out anywhere in a sitemap's parse: either the parse says so (the crawl ends,
 * doc/behaviour.md) with the entries before it given whole, or it is as if nothing happened.
 * Never an entry lost without a word: a <loc> whose growth failed is not a long <loc>. */
static void test_out_of_memory_said(void **state) {
  (void)state;
  char xml[2048];
  char long_loc[600];
  memset(long_loc, 'x', sizeof(long_loc) - 1);
  memcpy(long_loc, "http://a.test/", 14);
  long_loc[sizeof(long_loc) - 1] = '\0';
  snprintf(xml, sizeof(xml),
           "<urlset><url><loc>http://a.test/1</loc></url><url><loc>%s</loc></url>"
           "<url><loc>http://a.test/3</loc></url></urlset>",
           long_loc);
  char whole[800];
  snprintf(whole, sizeof(whole), "U:http://a.test/1|U:%s|U:http://a.test/3|", long_loc);
  long said = 0;
  for (long n = 1;; n++) {
    struct entries e;
    memset(&e, 0, sizeof(e));
    parse_sitemap *sm;
    assert_int_equal(parse_sitemap_create(collect, &e, &sm), CORE_OK);
    wrap_realloc_fail_in(n);
    core_rc rc = CORE_OK;
    for (size_t off = 0; off < strlen(xml) && !rc; off += 9) /* the crawl stops at the first */
      rc = parse_sitemap_feed(sm, xml + off, strlen(xml) - off < 9 ? strlen(xml) - off : 9);
    if (!rc)
      rc = parse_sitemap_finish(sm);
    bool none_failed = wrap_realloc_pending();
    wrap_realloc_fail_in(0);
    parse_sitemap_destroy(sm);
    if (rc == CORE_OK) {
      assert_string_equal(e.text, whole);
      if (none_failed)
        break;
      continue;
    }
    said++;
    assert_int_equal(rc, CORE_ENOMEM);
    assert_true(strncmp(whole, e.text, e.len) == 0);
  }
  assert_true(said >= 2); /* the long <loc> grew more than once */
}

static void test_hostile_input(void **state) {
  (void)state;
  const char *inputs[] = {
      "",
      "not xml at all",
      "<urlset><url><loc>http://a.test/unclosed",
      "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
      "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]><urlset><url><loc>&c;</loc></url></urlset>",
      "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><urlset><url><loc>&e;</loc>"
      "</url></urlset>",
      "\x1f\x8bgarbage that claims to be gzip",
  };
  for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
    struct entries e;
    core_rc rc;
    parse_sitemap *sm = feed_all(inputs[i], strlen(inputs[i]), 5, &e, &rc);
    assert_null(strstr(e.text, "root:")); /* no file was read */
    parse_sitemap_destroy(sm);
  }
}

/* A sitemap that is not well-formed XML keeps the entries libxml2 recovers (all those before its
 * first error, at least), and that error is told with its line; a well-formed one tells none,
 * however it was chunked. */
static void test_first_error_told(void **state) {
  (void)state;
  static const struct {
    const char *xml;
    size_t entries;
    int line;        /* 0: well-formed; -1: an error at a line libxml2 chooses */
    const char *has; /* a word of libxml2's message */
  } cases[] = {
      {"<html><body><a href=\"/x\">not a sitemap</a></body></html>", 0, 0, NULL},
      {"<urlset><url><loc>http://a.test/1</loc></url>\n<url><loc>http://a.test/2</loc>"
       "</url>\n<url><loc>http://a.test/3</loc></u>\n<url><loc>&nothere;</loc></url>\n"
       "</urlset>",
       3, 3, "mismatch"}, /* the first of two errors */
      {"<!DOCTYPE urlset [<!ENTITY home \"http://a.test/\">]>\n<urlset>\n"
       "<url><loc>http://a.test/1</loc></url>\n<url><loc>&home;</loc></url>\n</urlset>",
       2, 0, NULL},
      {"<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
       "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d "
       "\"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">"
       "<!ENTITY f \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY g "
       "\"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">"
       "<!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">]>\n<urlset><url><loc>http://a.test/1</loc>"
       "</url>\n<url><loc>&h;</loc></url></urlset>",
       1, -1, "amplification"},
      {"<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n<urlset>\n<url><loc>&e;</loc>"
       "</url><url><loc>http://a.test/z</loc></url></urlset>",
       1, 3, "'e'"},
      {"not xml at all", 0, 1, NULL},
  };
  size_t chunks[] = {1, 7, 4096};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
      struct entries e;
      core_rc rc;
      parse_sitemap *sm = feed_all(cases[i].xml, strlen(cases[i].xml), chunks[k], &e, &rc);
      int line = 0;
      const char *why = parse_sitemap_error(sm, &line);
      assert_int_equal(parse_sitemap_count(sm), cases[i].entries);
      if (!cases[i].line) {
        assert_null(why);
      } else {
        assert_non_null(why);
        if (cases[i].line > 0)
          assert_int_equal(line, cases[i].line);
        assert_true(line >= 1);
        assert_true(why[0] && !strchr(why, '\n'));
        if (cases[i].has)
          assert_non_null(strstr(why, cases[i].has));
        assert_null(strstr(why, ", see ")); /* libxml2's pointers to its own API are cut */
      }
      parse_sitemap_destroy(sm);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_urlset_any_chunking),
      cmocka_unit_test(test_index_with_prefixes),
      cmocka_unit_test(test_gzipped),
      cmocka_unit_test(test_url_limit),
      cmocka_unit_test(test_size_limit),
      cmocka_unit_test(test_out_of_memory_said),
      cmocka_unit_test(test_hostile_input),
      cmocka_unit_test(test_first_error_told),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
