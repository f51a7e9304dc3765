/* libFuzzer: HTML link extraction in chunks. The first byte picks the chunk size; every link
 * reported is resolved against a base, as the crawler does. */
#include "parse/parse.h"

#include <locale.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct state {
  struct core_url base;
  size_t links;
};

static void on_event(void *arg, parse_event event, const char *value, size_t len) {
  struct state *st = arg;
  if (event != PARSE_LINK)
    return;
  struct core_url u;
  if (core_url_resolve(&st->base, value, len, 2048, &u) == CORE_OK)
    core_url_free(&u);
  st->links++;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static int ready;
  if (!ready) {
    setlocale(LC_CTYPE, "C.UTF-8");
    ready = 1;
  }
  if (size < 1)
    return 0;
  size_t chunk = 1 + data[0] % 64;
  const char *charset = data[0] & 0x80 ? "iso-8859-1" : NULL;
  struct state st = {0};
  if (core_url_resolve(NULL, "http://fuzz.test/dir/page.html", 30, 2048, &st.base) != CORE_OK)
    return 0;
  parse_html *html;
  if (parse_html_create(charset, on_event, &st, &html) == CORE_OK) {
    for (size_t off = 1; off < size; off += chunk)
      parse_html_feed(html, (const char *)data + off, off + chunk > size ? size - off : chunk);
    parse_html_finish(html);
    parse_html_destroy(html);
  }
  const char *url;
  size_t len;
  char content[256];
  size_t n = size - 1 < sizeof(content) - 1 ? size - 1 : sizeof(content) - 1;
  memcpy(content, data + 1, n);
  content[n] = '\0';
  (void)parse_refresh_url(content, &url, &len);
  core_url_free(&st.base);
  return 0;
}
