/* Benchmark of robots.txt matching: what one URL's check costs against files of the 500 KiB the
 * crawler reads at most, made to be costly, beside a site's ordinary file, all in one run.
 *
 *   bench_robots [ROUNDS]     (default 5; the median of the rounds is printed)
 *
 * Shapes: "wildcards" is some 8,000 rules of 50 bytes (a slash and a star first), pieces between
 * stars made of the same ten letters as a 2 KB path (no byte is missing, no literal start differs:
 * each rule is searched for piece by piece, and most fail only at a late piece); "literals" is as
 * many rules of 50 letters with no star; "site" is 200 rules of the kinds real sites write, against
 * a short path. Exit 1 when a check of any shape costs more than 1 ms at the median
 * (doc/behaviour.md, robots.txt). */
#include "core/core.h"
#include "parse/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

static int by_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* ms per check of each path, the median of rounds */
static double measure(const parse_robots *robots, char **paths, size_t n, int rounds) {
  double *ms = calloc((size_t)rounds, sizeof(*ms));
  for (int r = 0; r < rounds; r++) {
    double start = core_now();
    size_t allowed = 0;
    for (size_t i = 0; i < n; i++)
      allowed += parse_robots_allowed(robots, paths[i]);
    ms[r] = (core_now() - start) * 1000 / (double)n;
    if (allowed > n) /* keeps the calls */
      puts("");
  }
  qsort(ms, (size_t)rounds, sizeof(*ms), by_double);
  double median = ms[rounds / 2];
  free(ms);
  return median;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  if (rounds < 1)
    rounds = 1;
  enum { PATHS = 50, LONG_PATH = 2048 };
  uint64_t seed = 1;
  struct core_buf text;
  char *paths[PATHS];
  int status = 0;
  const char *shapes[] = {"wildcards", "literals", "site"};
  for (size_t shape = 0; shape < 3; shape++) {
    core_buf_init(&text, PARSE_ROBOTS_MAX_BYTES + 1024);
    core_buf_add(&text, "User-agent: *\n", 14);
    size_t rules = 0;
    while (shape < 2 ? text.len + 64 < PARSE_ROBOTS_MAX_BYTES : rules < 200) {
      char line[128];
      int n;
      if (shape == 0) {
        n = snprintf(line, sizeof(line), "Disallow: /");
        for (int i = 0; i < 50; i++)
          line[n++] = i % 6 == 0 ? '*' : (char)('a' + next(&seed) % 10);
      } else if (shape == 1) {
        n = snprintf(line, sizeof(line), "Disallow: /");
        for (int i = 0; i < 50; i++)
          line[n++] = (char)('a' + next(&seed) % 10);
      } else {
        static const char *const kinds[] = {"/private%zu/", "/*.php%zu$", "/search?q=%zu",
                                            "/a%zu/*/edit", "/tmp%zu"};
        n = snprintf(line, sizeof(line), "%s: ", rules % 7 ? "Disallow" : "Allow");
        n += snprintf(line + n, sizeof(line) - (size_t)n, kinds[rules % 5], rules);
      }
      line[n++] = '\n';
      core_buf_add(&text, line, (size_t)n);
      rules++;
    }
    parse_robots *robots;
    if (parse_robots_create(text.data, text.len, "crawl", &robots) != CORE_OK) {
      fprintf(stderr, "bench_robots: out of memory\n");
      return 1;
    }
    for (size_t i = 0; i < PATHS; i++) {
      size_t len = shape < 2 ? LONG_PATH : 40;
      paths[i] = malloc(len + 1);
      paths[i][0] = '/';
      for (size_t j = 1; j < len; j++)
        paths[i][j] = shape < 2 ? (char)('a' + next(&seed) % 10) : (char)('a' + next(&seed) % 26);
      paths[i][len] = '\0';
    }
    double ms = measure(robots, paths, PATHS, rounds);
    printf("%-9s %6zu rules, %4zu KiB, paths of %4zu B: %.4f ms a URL\n", shapes[shape], rules,
           text.len / 1024, strlen(paths[0]), ms);
    if (ms > 1.0)
      status = 1;
    for (size_t i = 0; i < PATHS; i++)
      free(paths[i]);
    parse_robots_destroy(robots);
    core_buf_free(&text);
  }
  return status;
}
