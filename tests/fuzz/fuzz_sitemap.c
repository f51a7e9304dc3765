/* libFuzzer: sitemap parsing, plain or gzip, in chunks picked by the first byte. */
#include "parse/parse.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void on_entry(void *arg, parse_sitemap_event event, const char *loc) {
  size_t *n = arg;
  *n += strlen(loc) + (size_t)event;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  size_t chunk = 1 + data[0] % 128;
  size_t total = 0;
  parse_sitemap *sm;
  if (parse_sitemap_create(on_entry, &total, &sm) != CORE_OK)
    return 0;
  for (size_t off = 1; off < size; off += chunk)
    parse_sitemap_feed(sm, (const char *)data + off, off + chunk > size ? size - off : chunk);
  parse_sitemap_finish(sm);
  (void)parse_sitemap_count(sm);
  parse_sitemap_destroy(sm);
  return 0;
}
