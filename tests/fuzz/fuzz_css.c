/* libFuzzer: CSS link extraction. The first byte picks a chunk size; the links found feeding
 * the sheet in those chunks must be the links found feeding it whole (the scanner keeps its
 * state across chunks), and none may be longer than the scanner's cap. */
#include "parse/parse.h"
#include "tests/fuzz/events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void collect(void *arg, parse_event event, const char *value, size_t len) {
  if (event != PARSE_LINK || len == 0 || len >= 8192) {
    fprintf(stderr, "a link of %zu bytes\n", len);
    abort();
  }
  fuzz_events_add(arg, event, value, len);
}

static void scan(const unsigned char *data, size_t size, size_t chunk, struct fuzz_events *out) {
  parse_css *css;
  if (parse_css_create(collect, out, &css) != CORE_OK)
    abort();
  for (size_t off = 0; off < size; off += chunk)
    parse_css_feed(css, (const char *)data + off, off + chunk > size ? size - off : chunk);
  parse_css_finish(css);
  parse_css_destroy(css);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  size_t chunk = 1 + data[0] % 64;
  struct fuzz_events whole = {0}, pieces = {0};
  scan(data + 1, size - 1, size, &whole);
  scan(data + 1, size - 1, chunk, &pieces);
  if (!fuzz_events_same(&whole, &pieces)) {
    fprintf(stderr, "links differ between chunkings (chunk %zu)\n", chunk);
    abort();
  }
  fuzz_events_free(&whole);
  fuzz_events_free(&pieces);
  return 0;
}
