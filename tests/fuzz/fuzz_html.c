/* libFuzzer: HTML link extraction in chunks. The first byte picks the chunk size and the
 * charset (and how the hold changes as the page comes). Properties:
 *   - every link that resolves against the page, as the crawler resolves it, gives an absolute
 *     http(s) URL whose printed form parses again to itself;
 *   - the links reported feeding the page in those chunks are the links reported feeding it
 *     whole: libxml2's tokenizer (2.14 and newer, which the build requires) keeps its state
 *     across chunks, as pages stream in. */
#include "parse/parse.h"
#include "url/url.h"
#include "tests/fuzz/events.h"
#include "tests/fuzz/fixed_point.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct state {
  struct url base;
  struct fuzz_events events;
};

static void check_printed(const struct url *u) {
  if (strncmp(u->text, "http://", 7) != 0 && strncmp(u->text, "https://", 8) != 0) {
    fprintf(stderr, "a link of another scheme: %s\n", u->text);
    abort();
  }
  fuzz_check_fixed_point(u);
}

static void on_event(void *arg, parse_event event, const char *value, size_t len) {
  struct state *st = arg;
  fuzz_events_add(&st->events, (int)event, value, len);
  if (event != PARSE_LINK)
    return;
  struct url u;
  if (url_resolve(&st->base, value, len, 2048, &u) == CORE_OK) {
    check_printed(&u);
    url_free(&u);
  }
}

/* How the hold changes as the page comes, as a crawl changes it (crawl/page.c): not at all;
 * grown ahead of the text, with the length said; or lowered to nothing halfway. */
enum hold_change { HOLD_FIXED, HOLD_GROWN, HOLD_LOWERED };

static void parse(parse_html_pool *pool, const unsigned char *data, size_t size, size_t chunk,
                  size_t hold, enum hold_change change, const char *charset, struct state *st) {
  parse_html *html;
  if (parse_html_create_in(pool, charset, on_event, st, &html) != CORE_OK)
    return;
  parse_html_hold(html, hold);
  if (change == HOLD_GROWN)
    parse_html_expect(html, size);
  for (size_t off = 0; off < size; off += chunk) {
    size_t n = off + chunk > size ? size - off : chunk;
    if (change == HOLD_GROWN && off + n > hold)
      parse_html_hold(html, hold = off + n + 2 * chunk);
    else if (change == HOLD_LOWERED && off >= size / 2)
      parse_html_hold(html, 0);
    parse_html_feed(html, (const char *)data + off, n);
  }
  parse_html_finish(html);
  parse_html_destroy(html);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static int ready;
  /* kept from run to run, as a shard keeps its parsers from page to page: each run's pieces are
   * parsed by a parser the runs before it used */
  static parse_html_pool *pool;
  if (!ready) {
    setlocale(LC_CTYPE, "C.UTF-8");
    if (parse_html_pool_create(&pool) != CORE_OK)
      abort();
    ready = 1;
  }
  if (size < 1)
    return 0;
  (void)parse_html_sniff((const char *)data + 1, size - 1); /* reads within the bytes it has */
  size_t chunk = 1 + data[0] % 64;
  const char *charset = data[0] & 0x80 ? "iso-8859-1" : NULL;
  struct state pieces = {0}, whole = {0};
  if (url_resolve(NULL, "http://fuzz.test/dir/page.html", 30, 2048, &pieces.base) != CORE_OK ||
      url_resolve(NULL, "http://fuzz.test/dir/page.html", 30, 2048, &whole.base) != CORE_OK)
    abort();
  /* in pieces, by a pooled parser, streamed from the first byte or once a few chunks are held,
   * the hold changed as the page comes by a rule the chunk's size picks; whole, by a new parser,
   * held and parsed in the one call that ends it */
  enum hold_change change = (enum hold_change)(chunk % 3);
  parse(pool, data + 1, size - 1, chunk, data[0] & 0x40 ? 3 * chunk : 0, change, charset, &pieces);
  parse(NULL, data + 1, size - 1, size, PARSE_HTML_HOLD, HOLD_FIXED, charset, &whole);
  if (!fuzz_events_same(&pieces.events, &whole.events)) {
    fprintf(stderr, "links differ between chunkings (chunk %zu):\n%.*s---\n%.*s\n", chunk,
            (int)pieces.events.len, pieces.events.text ? pieces.events.text : "",
            (int)whole.events.len, whole.events.text ? whole.events.text : "");
    abort();
  }
  fuzz_events_free(&pieces.events);
  fuzz_events_free(&whole.events);
  url_free(&pieces.base);
  url_free(&whole.base);
  const char *url;
  size_t len;
  char content[256];
  size_t n = size - 1 < sizeof(content) - 1 ? size - 1 : sizeof(content) - 1;
  memcpy(content, data + 1, n);
  content[n] = '\0';
  (void)parse_refresh_url(content, &url, &len);
  return 0;
}
