/* For the fuzz targets: a printed URL must be a fixed point, so that nothing could merge or
 * split two URLs later: resolving it again gives the same string and the same parts. Aborts,
 * naming the URL, when it is not. */
#ifndef CRAWL_TESTS_FUZZ_FIXED_POINT_H
#define CRAWL_TESTS_FUZZ_FIXED_POINT_H

#include "core/core.h"
#include "url/url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void fuzz_check_fixed_point(const struct url *u) {
  struct url again;
  if (url_resolve(NULL, u->text, strlen(u->text), 1 << 20, &again) != CORE_OK) {
    fprintf(stderr, "printed form does not parse: %s\n", u->text);
    abort();
  }
  if (strcmp(again.text, u->text) != 0) {
    fprintf(stderr, "not a fixed point: %s -> %s\n", u->text, again.text);
    abort();
  }
  /* the parts describe the printed form: a host put back around curl must be in both */
  if (!strstr(u->text, u->host) || strcmp(again.host, u->host) != 0 ||
      again.unfetchable != u->unfetchable) {
    fprintf(stderr, "parts disagree: %s host %s / %s\n", u->text, u->host, again.host);
    abort();
  }
  url_free(&again);
}

#endif
