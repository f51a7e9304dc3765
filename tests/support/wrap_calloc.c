/* tests/support/wrap_calloc.h: the calloc of a program linked with --wrap=calloc. */
#include "tests/support/wrap_calloc.h"

#include <stddef.h>

void *__real_calloc(size_t count, size_t size);
void *__wrap_calloc(size_t count, size_t size);

static long fail_in; /* the tests drive one thread: no lock */

void *__wrap_calloc(size_t count, size_t size) {
  if (fail_in && --fail_in == 0)
    return NULL;
  return __real_calloc(count, size);
}

void wrap_calloc_fail_in(long n) {
  fail_in = n;
}

bool wrap_calloc_pending(void) {
  return fail_in != 0;
}
