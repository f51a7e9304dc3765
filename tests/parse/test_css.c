/* parse/css.c: url() and @import as CSS Syntax Level 3 reads them, in any chunking. */
#include "parse/parse.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/wrap_realloc.h"

struct links {
  char text[16384];
  size_t len;
};

static void collect(void *arg, parse_event event, const char *value, size_t len) {
  struct links *l = arg;
  int n = snprintf(l->text + l->len, sizeof(l->text) - l->len, "%.*s|", (int)len, value);
  if (n > 0)
    l->len += (size_t)n;
}

static void scan(const char *css, size_t len, size_t chunk, struct links *out) {
  memset(out, 0, sizeof(*out));
  parse_css *p;
  assert_int_equal(parse_css_create(collect, out, &p), CORE_OK);
  for (size_t off = 0; off < len; off += chunk)
    assert_int_equal(parse_css_feed(p, css + off, off + chunk > len ? len - off : chunk), CORE_OK);
  assert_int_equal(parse_css_finish(p), CORE_OK);
  parse_css_destroy(p);
}

static const char sheet[] =
    "@charset \"utf-8\";\n"
    "@import \"imp.css\";\n"
    "@IMPORT url(imp2.css) screen;\n"
    "@import 'single.css' print;\n"
    "/* url(commented.png) @import \"no.css\"; */\n"
    "a { background: url(a.png) no-repeat; content: \"url(in-string.png)\" }\n"
    "b { background: URL( \"b c.png\" ) }\n"
    "c { background: url('q\\'x.png') }\n"
    "d { background: url(\\61 b.png); cursor: url(a\\,b.cur), auto }\n"
    "e { background: url(\"\\0000e9t\\00E9.png\") }\n"
    "f { background: url(bad space.png) } g { background: url(after-bad.png) }\n"
    "h { background: url(a\"b.png) } i { background: myurl(no.png) url (no2.png) }\n"
    "j { background-image: image-set(url(set1x.png) 1x, url(set2x.png) 2x) }\n"
    "k { background: url( ) url(\"\") }\n"
    "l { background: url(\"multi\\\nline.png\") }\n"
    "m { src: url(font.woff2) format(\"woff2\") }\n"
    "#a\\\"b { background: url(escaped-quote.png) }\n"
    "n { background: url(end.png";

static const char want[] = "imp.css|imp2.css|single.css|a.png|b c.png|q'x.png|ab.png|a,b.cur|"
                           "\xc3\xa9t\xc3\xa9.png|after-bad.png|set1x.png|set2x.png|"
                           "multiline.png|font.woff2|escaped-quote.png|end.png|";

static void test_links_in_any_chunking(void **state) {
  (void)state;
  for (size_t chunk = 1; chunk <= sizeof(sheet); chunk++) {
    struct links got;
    scan(sheet, sizeof(sheet) - 1, chunk, &got);
    if (strcmp(got.text, want) != 0)
      fail_msg("chunk %zu:\n got %s\nwant %s", chunk, got.text, want);
  }
}

static void test_long_urls_dropped(void **state) {
  (void)state;
  size_t n = 20000;
  char *css = malloc(n + 128);
  assert_non_null(css);
  int len = snprintf(css, 64, "a{background:url(data:image/png;base64,");
  memset(css + len, 'A', n);
  snprintf(css + len + n, 64, ")} b{background:url(short.png)}");
  struct links got;
  scan(css, strlen(css), 4096, &got);
  assert_string_equal(got.text, "short.png|");
  free(css);
}

static void test_style_attribute(void **state) {
  (void)state;
  struct links got = {0};
  const char *attr = "background: url( 'x.png' ) ; list-style: url(y.png)";
  assert_int_equal(parse_css_scan(attr, strlen(attr), collect, &got), CORE_OK);
  assert_string_equal(got.text, "x.png|y.png|");
}

/* How a sheet ends decides what its last token was: an escape inside a URL earlier in the sheet
 * must not make a string open at the end a URL, and an escape open at the end of a URL ends it. */
static void test_every_ending(void **state) {
  (void)state;
  static const struct {
    const char *css, *want;
  } endings[] = {
      {"a { background: url(x\\79 .png) } b { content: \"url(open.png", "xy.png|"},
      {"a { background: url(x\\79 .png) } b { background: url(\"quoted.png", "xy.png|quoted.png|"},
      {"a { background: url(x\\79 .png) } b { background: url(ab\\63", "xy.png|abc|"},
      {"a { background: url(x\\79 .png) } b { background: url(ab\\", "xy.png|ab\xef\xbf\xbd|"},
      {"a { background: url(x\\79 .png) } b { background: url(\"ab\\63", "xy.png|abc|"},
      {"a { background: url(x\\79 .png) } b { background: url(\"ab\\", "xy.png|ab|"},
      {"a { background: url(x\\79 .png) } /* url(comment.png", "xy.png|"},
  };
  for (size_t i = 0; i < sizeof(endings) / sizeof(endings[0]); i++)
    for (size_t chunk = 1; chunk <= strlen(endings[i].css); chunk++) {
      struct links got;
      scan(endings[i].css, strlen(endings[i].css), chunk, &got);
      if (strcmp(got.text, endings[i].want) != 0)
        fail_msg("ending %zu, chunk %zu:\n got %s\nwant %s", i, chunk, got.text, endings[i].want);
    }
}

/* A function is url( only when its whole name is url: any name character before it (a letter,
 * a digit, '_', '-', a non-ASCII byte) makes another function, whose argument is no link. */
/* Memory running out while a URL grows: the sheet says so, and no URL is handed over cut short
 * (a byte dropped from its middle is a made-up link). */
static void test_out_of_memory_said(void **state) {
  (void)state;
  char css[512];
  char long_url[300];
  memset(long_url, 'x', sizeof(long_url) - 1);
  long_url[0] = '/';
  long_url[sizeof(long_url) - 1] = '\0';
  snprintf(css, sizeof(css), "a{b:url(%s)} c{d:url('/after')} e{f:url(/end", long_url);
  char whole[400];
  snprintf(whole, sizeof(whole), "%s|/after|/end|", long_url);
  long failed = 0;
  for (long n = 1;; n++) {
    struct links got;
    memset(&got, 0, sizeof(got));
    parse_css *p;
    assert_int_equal(parse_css_create(collect, &got, &p), CORE_OK);
    wrap_realloc_fail_in(n);
    core_rc fed = CORE_OK;
    for (size_t off = 0; off < strlen(css); off += 7) { /* a URL's growth across chunks too */
      core_rc rc = parse_css_feed(p, css + off, strlen(css) - off < 7 ? strlen(css) - off : 7);
      fed = fed ? fed : rc;
    }
    core_rc finished = parse_css_finish(p);
    bool none_failed = wrap_realloc_pending();
    wrap_realloc_fail_in(0);
    parse_css_destroy(p);
    if (none_failed) { /* past the sheet's last growth: the whole sheet */
      assert_int_equal(fed, CORE_OK);
      assert_int_equal(finished, CORE_OK);
      assert_string_equal(got.text, whole);
      break;
    }
    failed++;
    assert_int_equal(finished, CORE_ENOMEM); /* said at the end, whenever it ran out */
    /* what was handed over is a start of the whole list, each URL whole */
    assert_true(strncmp(whole, got.text, got.len) == 0);
    assert_true(got.len == 0 || got.text[got.len - 1] == '|');
  }
  assert_true(failed >= 3); /* the long URL grew more than once */
}

static void test_names_that_are_not_url(void **state) {
  (void)state;
  static const char *const names[] = {"x", "X", "2", "_", "-", "\xc3\xa9", "a9"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    char css[128];
    snprintf(css, sizeof(css), "a { background: %surl(no.png) url(yes.png) }", names[i]);
    struct links got;
    scan(css, strlen(css), strlen(css), &got);
    if (strcmp(got.text, "yes.png|") != 0)
      fail_msg("%s: got %s", css, got.text);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_links_in_any_chunking),  cmocka_unit_test(test_long_urls_dropped),
      cmocka_unit_test(test_style_attribute),        cmocka_unit_test(test_every_ending),
      cmocka_unit_test(test_names_that_are_not_url), cmocka_unit_test(test_out_of_memory_said),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
