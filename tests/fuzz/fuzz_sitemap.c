/* libFuzzer: sitemap parsing, plain or gzip, in chunks picked by the first byte. No input may
 * crash or leak, and for a well-formed XML file (libxml2 reads one that is not in its recovery
 * mode, where a chunk boundary may change what it drops):
 *   - the entries reported feeding the file in those chunks are those reported feeding it whole;
 *   - when it is plain ASCII with no '&' (so no encoding, entity or character reference could
 *     make a character up), every entry reported occurs in its character data: the input with
 *     CDATA markers, comments and processing instructions taken out and its line ends made
 *     "\n", as XML reads it. The parser invents no URL. */
#include "parse/parse.h"
#include "tests/fuzz/events.h"

#include <libxml/parser.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct entries {
  const unsigned char *input; /* when every entry must occur in it */
  size_t input_len;
  struct fuzz_events events;
};

static void on_entry(void *arg, parse_sitemap_event event, const char *loc) {
  struct entries *e = arg;
  size_t n = strlen(loc);
  if (e->input && n && !memmem(e->input, e->input_len, loc, n)) {
    fprintf(stderr, "an entry not in the input: %s\n", loc);
    abort();
  }
  fuzz_events_add(&e->events, (int)event, loc, n);
}

static void parse(const unsigned char *data, size_t size, size_t chunk, struct entries *e) {
  parse_sitemap *sm;
  if (parse_sitemap_create(on_entry, e, &sm) != CORE_OK)
    abort();
  for (size_t off = 0; off < size; off += chunk)
    parse_sitemap_feed(sm, (const char *)data + off, off + chunk > size ? size - off : chunk);
  parse_sitemap_finish(sm);
  (void)parse_sitemap_count(sm);
  parse_sitemap_destroy(sm);
}

static bool starts(const unsigned char *at, const unsigned char *end, const char *with) {
  size_t n = strlen(with);
  return (size_t)(end - at) >= n && memcmp(at, with, n) == 0;
}

/* The character data of an XML text as bytes (see above): out has room for len bytes. */
static size_t character_data(const unsigned char *in, size_t len, unsigned char *out) {
  const unsigned char *end = in + len;
  size_t n = 0;
  while (in < end) {
    const char *close = NULL;
    size_t open = 0;
    if (starts(in, end, "<![CDATA[")) {
      in += 9;
      while (in < end && !starts(in, end, "]]>"))
        out[n++] = *in++;
      in += in < end ? 3 : 0;
      continue;
    }
    if (starts(in, end, "<!--")) {
      open = 4;
      close = "-->";
    } else if (starts(in, end, "<?")) {
      open = 2;
      close = "?>";
    }
    if (close) {
      in += open;
      while (in < end && !starts(in, end, close))
        in++;
      in += in < end ? strlen(close) : 0;
      continue;
    }
    if (*in == '\r') {
      out[n++] = '\n';
      in += starts(in, end, "\r\n") ? 2 : 1;
      continue;
    }
    out[n++] = *in++;
  }
  return n;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  size_t chunk = 1 + data[0] % 128;
  const unsigned char *body = data + 1;
  size_t body_len = size - 1;
  xmlDocPtr doc = xmlReadMemory((const char *)body, (int)body_len, NULL, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  bool well_formed = doc != NULL;
  xmlFreeDoc(doc);
  /* gzip starts 1f 8b, so ASCII alone rules it out */
  bool plain = well_formed && !memchr(body, '&', body_len);
  for (size_t i = 0; i < body_len && plain; i++)
    plain = body[i] < 0x80 && body[i] != 0;
  unsigned char *text = malloc(body_len + 1);
  if (!text)
    abort();
  size_t text_len = character_data(body, body_len, text);
  struct entries pieces = {plain ? text : NULL, text_len, {0}};
  struct entries whole = {NULL, 0, {0}};
  parse(body, body_len, chunk, &pieces);
  parse(body, body_len, body_len ? body_len : 1, &whole);
  if (well_formed && !fuzz_events_same(&pieces.events, &whole.events)) {
    fprintf(stderr, "entries differ between chunkings (chunk %zu)\n", chunk);
    abort();
  }
  fuzz_events_free(&pieces.events);
  fuzz_events_free(&whole.events);
  free(text);
  return 0;
}
