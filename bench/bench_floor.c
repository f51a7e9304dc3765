/* The floor the parser sets: libxml2's HTML parser, its tokenizer alone, with a SAX handler that
 * does nothing, reading each page whole where it lies as parse/html.c reads a page it held (its
 * fastest), with one parser context for all pages as a crawl's shard keeps its parsers
 * (parse_html_pool), CPU time per page. Beside it, the same pages through parse/html.c (our link
 * extraction, callbacks included), so the distance between the bare parser and ours is measured
 * on the same bytes in the same run.
 *
 *   find DIR -name '*.html' | bench_floor      (prints "floor_ms NUM" and "parse_html_ms NUM") */
#include "parse/parse.h"

#include <libxml/HTMLparser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 5

struct page {
  char *data;
  size_t len;
};

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bare_start(void *ctx, const xmlChar *name, const xmlChar **atts) {
  (void)ctx;
  (void)name;
  (void)atts;
}

static void quiet(void *ctx, const char *msg, ...) {
  (void)ctx;
  (void)msg;
}

static htmlParserCtxtPtr bare_context(void) {
  htmlSAXHandler sax;
  memset(&sax, 0, sizeof(sax));
  sax.startElement = bare_start;
  sax.error = quiet;
  sax.warning = quiet;
  return htmlNewSAXParserCtxt(&sax, NULL);
}

static void bare_parse(htmlParserCtxtPtr ctxt, const struct page *p) {
  htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                               HTML_PARSE_NONET | HTML_PARSE_COMPACT | HTML_PARSE_HTML5);
  xmlParserInputPtr input = xmlNewInputFromMemory(
      NULL, p->data, p->len, XML_INPUT_BUF_STATIC | XML_INPUT_BUF_ZERO_TERMINATED);
  if (input)
    htmlCtxtParseDocument(ctxt, input);
}

static void count_link(void *arg, parse_event event, const char *value, size_t len) {
  (void)event;
  (void)value;
  *(size_t *)arg += len > 0;
}

static size_t our_parse(parse_html_pool *pool, const struct page *p) {
  size_t links = 0;
  parse_html *html;
  if (parse_html_create_in(pool, NULL, count_link, &links, &html) != CORE_OK)
    return 0;
  /* held whole, as a crawl holds a long page while its shard has room (crawl/page.c) */
  if (p->len > PARSE_HTML_HOLD)
    parse_html_hold(html, p->len);
  parse_html_expect(html, p->len);
  parse_html_feed(html, p->data, p->len);
  parse_html_finish(html);
  parse_html_destroy(html);
  return links;
}

int main(void) {
  struct page *pages = NULL;
  size_t count = 0, cap = 0;
  char name[4096];
  while (fgets(name, sizeof(name), stdin)) {
    name[strcspn(name, "\n")] = '\0';
    FILE *f = fopen(name, "rb");
    if (!f)
      continue;
    if (count == cap) {
      cap = cap ? cap * 2 : 1024;
      pages = realloc(pages, cap * sizeof(*pages));
      if (!pages)
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    pages[count].data = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!pages[count].data)
      return 1;
    pages[count].len = fread(pages[count].data, 1, (size_t)len, f);
    pages[count].data[pages[count].len] = '\0'; /* read where it lies, as a string */
    fclose(f);
    count++;
  }
  if (!count) {
    fprintf(stderr, "bench_floor: no pages (give their file names on standard input)\n");
    return 2;
  }
  xmlInitParser();
  htmlParserCtxtPtr ctxt = bare_context();
  parse_html_pool *pool;
  if (!ctxt || parse_html_pool_create(&pool) != CORE_OK)
    return 1;
  double bare = 1e9, ours = 1e9;
  size_t links = 0;
  for (int round = 0; round < ROUNDS; round++) {
    /* interleaved, the fastest round of each: a slow spell of the machine hits both alike */
    double t0 = cpu_now();
    for (size_t i = 0; i < count; i++)
      bare_parse(ctxt, &pages[i]);
    double t1 = cpu_now();
    links = 0;
    for (size_t i = 0; i < count; i++)
      links += our_parse(pool, &pages[i]);
    double t2 = cpu_now();
    if (t1 - t0 < bare)
      bare = t1 - t0;
    if (t2 - t1 < ours)
      ours = t2 - t1;
  }
  printf("pages %zu\nlinks %zu\nfloor_ms %.4f\nparse_html_ms %.4f\n", count, links,
         bare * 1000 / (double)count, ours * 1000 / (double)count);
  htmlFreeParserCtxt(ctxt);
  parse_html_pool_destroy(pool);
  for (size_t i = 0; i < count; i++)
    free(pages[i].data);
  free(pages);
  xmlCleanupParser();
  return 0;
}
