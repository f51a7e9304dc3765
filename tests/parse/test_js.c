/* parse/js.c: URLs and paths in string literals, and nothing taken from comments, regular
 * expressions, template substitutions or code, in any chunking. */
#include "parse/parse.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

struct found {
  char text[4096];
  size_t len;
};

static void collect(void *arg, parse_event event, const char *value, size_t len) {
  struct found *f = arg;
  assert_int_equal(event, PARSE_LINK);
  int n = snprintf(f->text + f->len, sizeof(f->text) - f->len, "%.*s|", (int)len, value);
  if (n > 0)
    f->len += (size_t)n;
}

static void scan(const char *code, size_t chunk, struct found *f) {
  memset(f, 0, sizeof(*f));
  parse_js *js;
  assert_int_equal(parse_js_create(collect, f, &js), CORE_OK);
  size_t len = strlen(code);
  for (size_t off = 0; off < len; off += chunk)
    assert_int_equal(parse_js_feed(js, code + off, off + chunk > len ? len - off : chunk), CORE_OK);
  assert_int_equal(parse_js_finish(js), CORE_OK);
  parse_js_destroy(js);
}

static void expect_links(const char *code, const char *want) {
  for (size_t chunk = 1; chunk <= strlen(code) + 1; chunk++) {
    struct found f;
    scan(code, chunk, &f);
    if (strcmp(f.text, want) != 0)
      fail_msg("chunk %zu of %s:\n got %s\nwant %s", chunk, code, f.text, want);
  }
}

static void strings_that_are_links(void **state) {
  (void)state;
  expect_links("fetch(\"/api/items\"); var a = 'https://cdn.example/x.js';"
               "load(`./part.html`); go('../up/page'); img.src = \"//img.example/a.png\";"
               "var j = \"http:\\/\\/esc.example\\/p\";",
               "/api/items|https://cdn.example/x.js|./part.html|../up/page|//img.example/a.png|"
               "http://esc.example/p|");
}

static void strings_that_are_not(void **state) {
  (void)state;
  expect_links("var a = 'hello world', b = '/', c = 'a/b', d = '/ x', e = \"<div>\","
               "f = 'text/html', g = '//', h = '/\\u0041', i = `/api/${id}/x`, j = '/ok';",
               "/ok|");
}

static void comments_and_regexes(void **state) {
  (void)state;
  expect_links("// fetch('/line-comment')\n/* '/block-comment' */ var r = /'\\/not-a-string'/g;"
               "var s = x.replace(/[\"/]/, '') ; var d = a / 2 / '/after-division';"
               "if (ok) return /\"re/.test(s) ? '/yes' : 0; t = `${'/inside'}` + '/after';",
               "/after-division|/yes|/inside|/after|");
}

static void unterminated_and_nested(void **state) {
  (void)state;
  expect_links("var a = '/broken\nvar b = '/fine';", "/fine|");
  expect_links("x = `a${ {k: `b${'/deep'}`} }c` ; y = '/end'", "/deep|/end|");
  expect_links("var s = '/never-closed", "");
  /* substitutions nest 32 deep; the 33rd ${ is read as the template's text, and a string in it
   * is no code's string (the depth it would need has no room) */
  for (int n = 32; n <= 33; n++) {
    char code[512] = "x = ";
    for (int i = 0; i < n; i++)
      strcat(code, "`${");
    strcat(code, "'/deep'");
    for (int i = 0; i < n; i++)
      strcat(code, "}`");
    expect_links(code, n == 32 ? "/deep|" : "");
  }
}

/* Every shape looks_like_link takes and every one it turns away, one string each, so that each
 * of its tests decides alone. */
static void each_shape_alone(void **state) {
  (void)state;
  static const struct {
    const char *code, *want;
  } shapes[] = {
      {"a = '/_private'", "/_private|"},
      {"a = '/.well-known/x'", "/.well-known/x|"},
      {"a = '/~user/'", "/~user/|"},
      {"a = '/9'", "/9|"},
      {"a = '/-x'", ""},
      {"a = '/?q=1'", ""},
      {"a = '//h'", "//h|"},
      {"a = '//-h'", ""},
      {"a = 'http://'", ""},
      {"a = 'http://h'", "http://h|"},
      {"a = 'https://'", ""},
      {"a = 'https://h'", "https://h|"},
      {"a = 'https:/host/p'", ""}, /* one slash: a URL parser would take it, no author wrote it */
      {"a = 'http:/host/p'", ""},
      {"a = 'httpx://h'", ""},
      {"a = './'", ""},
      {"a = './x'", "./x|"},
      {"a = '../'", ""},
      {"a = '../x'", "../x|"},
      {"a = '.../x'", ""},
      {"a = 'x'", ""},
      {"a = '/a b'", ""},
      {"a = '/a\\tb'", ""},
      {"a = '/a|b'", ""},
      {"a = '/a^b'", ""},
      {"a = '/a{b'", ""},
      {"a = '/caf\xc3\xa9'", "/caf\xc3\xa9|"},
  };
  for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
    expect_links(shapes[i].code, shapes[i].want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(strings_that_are_links), cmocka_unit_test(strings_that_are_not),
      cmocka_unit_test(comments_and_regexes),   cmocka_unit_test(unterminated_and_nested),
      cmocka_unit_test(each_shape_alone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
