/* For unit programs linked with -Wl,--wrap=realloc (tests/meson.build): the Nth realloc after
 * arming returns NULL, so that a test can fail every growth of what it drives, one at a time.
 * Every realloc of the program's own objects passes here, a static libxml2's too. */
#ifndef CRAWL_TESTS_WRAP_REALLOC_H
#define CRAWL_TESTS_WRAP_REALLOC_H

#include <stdbool.h>

/* The nth realloc from now fails (0: none). */
void wrap_realloc_fail_in(long n);
/* Whether one is still to fail: false once it has, or when none was asked for. */
bool wrap_realloc_pending(void);

#endif
