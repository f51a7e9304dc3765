/* A response's header lines, read: which header a line is and its value trimmed, a word in a
 * comma-separated list, an X-Robots-Tag that says nofollow to us, and Retry-After in seconds. The
 * engine's header callback (engine.c) keeps what these find. */
#include "fetch/fetch-int.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

bool fetch__header_is(const char *line, size_t len, const char *name, const char **value,
                      size_t *value_len) {
  size_t n = strlen(name);
  if (len <= n || strncasecmp(line, name, n) != 0 || line[n] != ':')
    return false;
  const char *v = line + n + 1;
  size_t vlen = len - n - 1;
  while (vlen && (*v == ' ' || *v == '\t')) {
    v++;
    vlen--;
  }
  while (vlen &&
         (v[vlen - 1] == '\r' || v[vlen - 1] == '\n' || v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
    vlen--;
  *value = v;
  *value_len = vlen;
  return true;
}

bool fetch__list_has(const char *v, size_t len, const char *word) {
  size_t wl = strlen(word);
  for (size_t i = 0; i + wl <= len; i++) {
    bool start_ok = i == 0 || v[i - 1] == ' ' || v[i - 1] == ',';
    bool end_ok = i + wl == len || v[i + wl] == ' ' || v[i + wl] == ',';
    if (start_ok && end_ok && strncasecmp(v + i, word, wl) == 0)
      return true;
  }
  return false;
}

static bool span_is(const char *s, size_t len, const char *word) {
  return len == strlen(word) && strncasecmp(s, word, len) == 0;
}

/* doc/behaviour.md, robots.txt: the name before a colon holds for the rest of the value, and a
 * directive with a value of its own after a colon names no crawler. */
bool fetch__x_robots_nofollow(const char *v, size_t len, const char *product_token) {
  static const char *const valued[] = {"unavailable_after", "max-snippet", "max-image-preview",
                                       "max-video-preview"};
  bool ours = true;
  for (size_t at = 0; at < len;) {
    size_t end = at;
    while (end < len && v[end] != ',')
      end++;
    const char *p = v + at, *q = v + end;
    at = end + 1;
    while (p < q && (*p == ' ' || *p == '\t'))
      p++;
    const char *colon = memchr(p, ':', (size_t)(q - p));
    if (colon) {
      size_t name_len = (size_t)(colon - p);
      while (name_len && (p[name_len - 1] == ' ' || p[name_len - 1] == '\t'))
        name_len--;
      bool is_valued = false;
      for (size_t i = 0; i < sizeof(valued) / sizeof(*valued); i++)
        is_valued = is_valued || span_is(p, name_len, valued[i]);
      if (is_valued)
        continue;
      ours = product_token && span_is(p, name_len, product_token);
      p = colon + 1;
      while (p < q && (*p == ' ' || *p == '\t'))
        p++;
    }
    while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
      q--;
    if (ours && (span_is(p, (size_t)(q - p), "nofollow") || span_is(p, (size_t)(q - p), "none")))
      return true;
  }
  return false;
}

double fetch__retry_after(const char *v, size_t len, time_t now) {
  char text[64];
  if (len >= sizeof(text))
    return -1;
  memcpy(text, v, len);
  text[len] = '\0';
  char *end;
  double seconds = strtod(text, &end);
  if (end != text && *end == '\0' && seconds >= 0)
    return seconds;
  time_t when = curl_getdate(text, NULL); /* an HTTP-date */
  if (when <= 0)
    return -1;
  double delta = difftime(when, now);
  return delta > 0 ? delta : 0;
}
