/* tests/support/wrap_realloc.h: the realloc of a program linked with --wrap=realloc. */
#include "tests/support/wrap_realloc.h"

#include <stddef.h>

void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);

static long fail_in; /* the tests drive one thread: no lock */

void *__wrap_realloc(void *p, size_t size) {
  if (fail_in && --fail_in == 0)
    return NULL;
  return __real_realloc(p, size);
}

void wrap_realloc_fail_in(long n) {
  fail_in = n;
}

bool wrap_realloc_pending(void) {
  return fail_in != 0;
}
