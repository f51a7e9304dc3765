/* The HTML tests' shared helpers (html_events.h). */
#include "tests/parse/html_events.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

void collect(void *arg, parse_event event, const char *value, size_t len) {
  struct events *ev = arg;
  const char *tag = event == PARSE_LINK ? "L" : event == PARSE_BASE ? "B" : "N";
  int n =
      snprintf(ev->text + ev->len, sizeof(ev->text) - ev->len, "%s:%.*s|", tag, (int)len, value);
  if (n > 0)
    ev->len += (size_t)n;
}

void extract_n(const char *html, size_t len, size_t chunk, const char *charset, struct events *ev) {
  memset(ev, 0, sizeof(*ev));
  parse_html *p;
  assert_int_equal(parse_html_create(charset, collect, ev, &p), CORE_OK);
  /* a page is held and parsed in one call at its end, parsed as it streams in, or held in part
   * and then streamed (it outgrew the hold): all three give the same events */
  if (chunk < len)
    parse_html_hold(p, chunk % 2 ? 0 : len / 2);
  for (size_t off = 0; off < len; off += chunk)
    assert_int_equal(parse_html_feed(p, html + off, off + chunk > len ? len - off : chunk),
                     CORE_OK);
  assert_int_equal(parse_html_finish(p), CORE_OK);
  parse_html_destroy(p);
}

void extract(const char *html, size_t chunk, const char *charset, struct events *ev) {
  extract_n(html, strlen(html), chunk, charset, ev);
}

void expect_in_any_chunking(const char *doc, const char *want) {
  for (size_t chunk = 1; chunk <= strlen(doc) + 1; chunk++) {
    struct events ev;
    extract(doc, chunk, NULL, &ev);
    if (strcmp(ev.text, want) != 0)
      fail_msg("chunk %zu:\n got %s\nwant %s", chunk, ev.text, want);
  }
}
