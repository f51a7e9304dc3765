/* libFuzzer: links in JavaScript string literals (--js). The first byte picks a chunk size; the
 * links found feeding the script in those chunks must be the links found feeding it whole (the
 * scanner keeps its state across chunks). Each link must look like one (no white space, no
 * quote, at most the scanner's 2 KiB), and, as no escape but "\/" is taken, must be in the
 * input as written, its slashes perhaps escaped: the scanner invents nothing. */
#include "parse/parse.h"
#include "tests/fuzz/events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct links {
  struct fuzz_events found;
  const unsigned char *input;
  size_t input_len;
};

/* Whether link occurs in the input with each '/' written as "/" or "\/". */
static bool in_input(const struct links *l, const char *link, size_t len) {
  for (size_t start = 0; start < l->input_len; start++) {
    size_t i = start, j = 0;
    while (j < len && i < l->input_len) {
      if (link[j] == '/' && l->input[i] == '\\' && i + 1 < l->input_len && l->input[i + 1] == '/')
        i += 2;
      else if ((unsigned char)link[j] == l->input[i])
        i++;
      else
        break;
      j++;
    }
    if (j == len)
      return true;
  }
  return false;
}

static void collect(void *arg, parse_event event, const char *value, size_t len) {
  struct links *l = arg;
  if (event != PARSE_LINK || len < 2 || len > 2048) {
    fprintf(stderr, "a link of %zu bytes\n", len);
    abort();
  }
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)value[i] <= 0x20 || value[i] == '"' || value[i] == '\'' || value[i] == '`') {
      fprintf(stderr, "a link with byte 0x%02x\n", (unsigned char)value[i]);
      abort();
    }
  if (!in_input(l, value, len)) {
    fprintf(stderr, "a link that is not in the input: %.*s\n", (int)len, value);
    abort();
  }
  fuzz_events_add(&l->found, event, value, len);
}

static void scan(const unsigned char *data, size_t size, size_t chunk, struct links *out) {
  parse_js *js;
  out->input = data;
  out->input_len = size;
  if (parse_js_create(collect, out, &js) != CORE_OK)
    abort();
  for (size_t off = 0; off < size; off += chunk)
    parse_js_feed(js, (const char *)data + off, off + chunk > size ? size - off : chunk);
  parse_js_finish(js);
  parse_js_destroy(js);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  size_t chunk = 1 + data[0] % 64;
  struct links whole = {0}, pieces = {0};
  scan(data + 1, size - 1, size, &whole);
  scan(data + 1, size - 1, chunk, &pieces);
  if (!fuzz_events_same(&whole.found, &pieces.found)) {
    fprintf(stderr, "links differ between chunkings (chunk %zu)\n", chunk);
    abort();
  }
  fuzz_events_free(&whole.found);
  fuzz_events_free(&pieces.found);
  return 0;
}
