/* For the fuzz targets: what a parser reported, kept as text ("kind:value\n" each), so that two
 * runs over the same input, cut into other chunks, can be compared. Aborts when memory runs out:
 * a fuzz target has nothing better to do then. */
#ifndef CRAWL_TESTS_FUZZ_EVENTS_H
#define CRAWL_TESTS_FUZZ_EVENTS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fuzz_events {
  char *text;
  size_t len, cap;
};

static inline void fuzz_events_add(struct fuzz_events *e, int kind, const char *value, size_t len) {
  if (e->len + len + 16 > e->cap) {
    e->cap = (e->len + len + 16) * 2;
    if (!(e->text = realloc(e->text, e->cap)))
      abort();
  }
  e->len += (size_t)snprintf(e->text + e->len, 16, "%d:", kind);
  memcpy(e->text + e->len, value, len);
  e->len += len;
  e->text[e->len++] = '\n';
}

static inline bool fuzz_events_same(const struct fuzz_events *a, const struct fuzz_events *b) {
  return a->len == b->len && (!a->len || memcmp(a->text, b->text, a->len) == 0);
}

static inline void fuzz_events_free(struct fuzz_events *e) {
  free(e->text);
  *e = (struct fuzz_events){0};
}

#endif
