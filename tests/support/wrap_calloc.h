/* For unit programs linked with -Wl,--wrap=calloc (tests/meson.build): the Nth calloc after
 * arming returns NULL, so that a test can fail the making of what it drives (a host, say).
 * Every calloc of the program's own objects passes here; the shared libraries' do not. */
#ifndef CRAWL_TESTS_WRAP_CALLOC_H
#define CRAWL_TESTS_WRAP_CALLOC_H

#include <stdbool.h>

/* The nth calloc from now fails (0: none). */
void wrap_calloc_fail_in(long n);
/* Whether one is still to fail: false once it has, or when none was asked for. */
bool wrap_calloc_pending(void);

#endif
