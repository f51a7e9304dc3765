/* robots.txt matching cases derived from RFC 9309, the table in robots_cases.c: a file, an
 * agent, a path, and whether the file allows that agent the path. */
#ifndef CRAWL_TESTS_PARSE_ROBOTS_CASES_H
#define CRAWL_TESTS_PARSE_ROBOTS_CASES_H

#include <stdbool.h>
#include <stddef.h>

struct robots_case {
  const char *robots;
  const char *agent;
  const char *path;
  bool allowed;
};

extern const struct robots_case robots_cases[];
extern const size_t robots_case_count;

#endif
