/* URL resolution cases derived from the URL Standard's test vectors; the table itself is
 * generated data in url_standard_cases.c (tests/url/gen_url_cases.py). */
#ifndef CRAWL_TESTS_URL_STANDARD_CASES_H
#define CRAWL_TESTS_URL_STANDARD_CASES_H

#include <stddef.h>

struct url_standard_case {
  const char *base; /* NULL: the input must be absolute */
  const char *input;
  size_t input_len; /* inputs may hold NUL */
  const char *want; /* NULL: refused */
};

extern const struct url_standard_case url_standard_cases[];
extern const size_t url_standard_case_count;

#endif
