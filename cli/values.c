/* cli/values.c: the values options take (doc/behaviour.md, Option values): whole numbers in a
 * range, seconds, durations with a unit, sizes with a unit, lists of extensions; and the error
 * message every option's refusal is written with (cli_set_err). */
#include "cli/cli-int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void cli_set_err(char *err, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, size, fmt, ap);
  va_end(ap);
}

bool cli_parse_long(const char *s, long min, long max, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max)
    return false;
  *out = v;
  return true;
}

bool cli_parse_seconds(const char *s, double max, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v) || v < 0 || v > max)
    return false;
  *out = v;
  return true;
}

/* A duration (doc/behaviour.md, Option values: s, ms, m, h; a plain number is seconds) in seconds,
 * up to max. */
bool cli_parse_duration(const char *s, double max, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || !isfinite(v) || v < 0)
    return false;
  static const struct {
    const char *unit;
    double seconds;
  } units[] = {{"", 1}, {"s", 1}, {"ms", 0.001}, {"m", 60}, {"h", 3600}};
  for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
    if (strcmp(end, units[i].unit) == 0) {
      v *= units[i].seconds;
      if (v > max)
        return false;
      *out = v;
      return true;
    }
  return false;
}

bool cli_parse_size(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || s[0] == '-')
    return false;
  uint64_t mult = 1;
  if (*end == 'k' || *end == 'K')
    mult = 1024;
  else if (*end == 'm' || *end == 'M')
    mult = 1024 * 1024;
  else if (*end == 'g' || *end == 'G')
    mult = 1024ull * 1024 * 1024;
  if (mult != 1)
    end++;
  if (*end || v == 0 || v > UINT64_MAX / mult)
    return false;
  *out = v * mult;
  return true;
}

/* An extension list as wget users write it: "pdf", ".pdf" and "*.pdf" alike, and extensions of
 * more than one part ("tar.gz", which takes a.tar.gz and not a.gz). An empty part is passed over
 * ("pdf," typed with a trailing comma; an empty list is no list, as --skip-ext '' is
 * documented). Anything else that would silently match nothing (a wildcard, a slash, a dot at an
 * end) is a usage error. */
bool cli_parse_ext_list(const char *arg, struct core_list *list, const char *opt, char *err,
                        size_t err_size) {
  size_t first = list->count;
  if (core_list_parse(arg, list) != CORE_OK) {
    cli_set_err(err, err_size, "out of memory");
    return false;
  }
  for (size_t i = first; i < list->count; i++) {
    if (list->items[i][0] == '*' && list->items[i][1] == '.') {
      char *bare = strdup(list->items[i] + 2);
      if (!bare) {
        cli_set_err(err, err_size, "out of memory");
        return false;
      }
      free(list->items[i]);
      list->items[i] = bare;
    }
    const char *ext = list->items[i];
    size_t len = strlen(ext);
    if (!len || strpbrk(ext, "*?[]/\\ \t") || ext[0] == '.' || ext[len - 1] == '.' ||
        strstr(ext, "..")) {
      cli_set_err(err, err_size,
                  "invalid value '%s' for %s: extensions such as pdf, .pdf or *.pdf, separated by "
                  "commas",
                  arg, opt);
      return false;
    }
  }
  return true;
}
