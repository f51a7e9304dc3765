/* libFuzzer: robots.txt parsing and matching.
 *
 * The input, "token\npath\nrobots.txt body", is parsed as it is and asked about path (no crash,
 * no leak). Then the same bytes build a robots.txt whose answers are known: an "other" group
 * that disallows everything, and a "*" group of up to 8 Allow and Disallow rules, with patterns
 * and paths over an alphabet that normalisation leaves alone. The parser must give, for each
 * path, the answer of a reference matcher written here another way (a table over pattern and
 * path positions, where the parser scans with backtracking): the rule with the longest pattern
 * that matches wins, Allow on a tie (RFC 9309 2.2.2), "*" matches any run of characters and a
 * final "$" the end of the path; no matching rule allows. For the product token "other" every
 * path is disallowed. The rules saved and loaded again give the same answers, and the input
 * itself is given to the loader, which refuses or loads it. */
#include "parse/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define MAX_RULES 8
#define MAX_PATTERN_LEN 12
#define MAX_PATH_LEN 24

struct rule {
  char pattern[MAX_PATTERN_LEN + 1];
  size_t len;
  bool allow;
};

/* Whether pattern matches a prefix of path (all of it when the pattern ends in '$'). */
static bool reference_matches(const char *pat, size_t plen, const char *path, size_t slen) {
  bool anchored = plen && pat[plen - 1] == '$';
  if (anchored)
    plen--;
  /* m[i][j]: pat[i..] matches a prefix of path[j..] (all of it when anchored) */
  bool m[MAX_PATTERN_LEN + 1][MAX_PATH_LEN + 1];
  for (size_t i = plen + 1; i-- > 0;)
    for (size_t j = slen + 1; j-- > 0;) {
      if (i == plen)
        m[i][j] = !anchored || j == slen;
      else if (pat[i] == '*')
        m[i][j] = m[i + 1][j] || (j < slen && m[i][j + 1]);
      else
        m[i][j] = j < slen && pat[i] == path[j] && m[i + 1][j + 1];
    }
  return m[0][0];
}

static bool reference_allowed(const struct rule *rules, size_t count, const char *path) {
  size_t best = 0;
  bool allowed = true, found = false;
  for (size_t i = 0; i < count; i++) {
    if (!reference_matches(rules[i].pattern, rules[i].len, path, strlen(path)))
      continue;
    if (!found || rules[i].len > best || (rules[i].len == best && rules[i].allow)) {
      best = rules[i].len;
      allowed = rules[i].allow;
      found = true;
    }
  }
  return allowed;
}

static void check_rules(const unsigned char *data, size_t size) {
  static const char pattern_chars[] = "/ab.?=*$";
  static const char path_chars[] = "/ab.?=";
  struct rule rules[MAX_RULES];
  size_t count = 0, at = 0;
  char body[MAX_RULES * (MAX_PATTERN_LEN + 16) + 64];
  size_t blen = (size_t)snprintf(body, sizeof(body),
                                 "User-agent: other\nDisallow: /\n\n"
                                 "User-agent: *\n");
  while (count < MAX_RULES && at < size && data[at] != 0xff) {
    struct rule *r = &rules[count++];
    unsigned char head = data[at++];
    r->allow = head & 1;
    r->len = 1 + (size_t)(head >> 1) % MAX_PATTERN_LEN;
    /* a pattern starts with '/' or '*', as RFC 9309 has them */
    r->pattern[0] = head & 2 ? '*' : '/';
    for (size_t i = 1; i < r->len; i++)
      r->pattern[i] = at < size ? pattern_chars[data[at++] % (sizeof(pattern_chars) - 1)] : 'a';
    r->pattern[r->len] = '\0';
    blen += (size_t)snprintf(body + blen, sizeof(body) - blen, "%s: %s\n",
                             r->allow ? "Allow" : "Disallow", r->pattern);
  }
  at += at < size; /* the 0xff that ended the rules */
  parse_robots *any, *other;
  if (parse_robots_create(body, blen, "crawl", &any) != CORE_OK)
    abort();
  if (parse_robots_create(body, blen, "Other", &other) != CORE_OK)
    abort();
  /* and the same rules saved and loaded again, as a crawl keeps an idle host's */
  struct core_buf saved;
  core_buf_init(&saved, 1 << 20);
  parse_robots *loaded;
  if (parse_robots_save(any, &saved) != CORE_OK ||
      parse_robots_load(saved.data, saved.len, &loaded) != CORE_OK)
    abort();
  core_buf_free(&saved);
  for (int p = 0; p < 4 && at < size; p++) {
    char path[MAX_PATH_LEN + 1] = "/";
    size_t len = 1 + data[at++] % (MAX_PATH_LEN - 1);
    for (size_t i = 1; i < len; i++)
      path[i] = at < size ? path_chars[data[at++] % (sizeof(path_chars) - 1)] : 'b';
    path[len] = '\0';
    bool want = reference_allowed(rules, count, path);
    if (parse_robots_allowed(any, path) != want) {
      fprintf(stderr, "robots.txt:\n%.*spath %s: the parser says %s, the reference %s\n", (int)blen,
              body, path, want ? "disallowed" : "allowed", want ? "allowed" : "disallowed");
      abort();
    }
    if (parse_robots_allowed(loaded, path) != want) {
      fprintf(stderr, "robots.txt:\n%.*spath %s: the rules loaded again say otherwise\n", (int)blen,
              body, path);
      abort();
    }
    if (parse_robots_allowed(other, path)) {
      fprintf(stderr, "robots.txt:\n%.*spath %s: allowed to the group that disallows all\n",
              (int)blen, body, path);
      abort();
    }
  }
  parse_robots_destroy(any);
  parse_robots_destroy(loaded);
  parse_robots_destroy(other);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const char *text = (const char *)data;
  const char *nl1 = memchr(text, '\n', size);
  const char *nl2 = nl1 ? memchr(nl1 + 1, '\n', size - (size_t)(nl1 + 1 - text)) : NULL;
  char *token = strndup(text, nl1 ? (size_t)(nl1 - text) : size);
  char *path = nl2 ? strndup(nl1 + 1, (size_t)(nl2 - nl1 - 1)) : strdup("/");
  const char *body = nl2 ? nl2 + 1 : text;
  size_t body_len = nl2 ? size - (size_t)(body - text) : size;
  char *product = token ? parse_product_token(token) : NULL;
  parse_robots *r;
  if (path && parse_robots_create(body, body_len, product ? product : "crawl", &r) == CORE_OK) {
    (void)parse_robots_allowed(r, path);
    (void)parse_robots_allowed(r, "/");
    (void)parse_robots_crawl_delay(r);
    for (size_t i = 0; i < parse_robots_sitemap_count(r); i++)
      (void)strlen(parse_robots_sitemap(r, i));
    parse_robots_destroy(r);
  }
  /* the input as a saved form: refused or loaded, never read past */
  if (parse_robots_load(data, size, &r) == CORE_OK) {
    (void)parse_robots_allowed(r, "/a");
    parse_robots_destroy(r);
  }
  free(product);
  free(token);
  free(path);
  check_rules(data, size);
  return 0;
}
