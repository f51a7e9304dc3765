/* robots.txt as RFC 9309 says: groups chosen by product token, rules matched by the longest
 * pattern with Allow winning ties, "*" and "$" in patterns, percent-encoding normalised. */
#include "parse/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PATTERN 4096 /* longer rule values are ignored: no real site needs them */

struct rule {
  char *pattern; /* normalised */
  size_t len;
  bool allow;
};

struct rule_set {
  struct rule *rules;
  size_t count;
  double crawl_delay; /* < 0: none */
};

struct parse_robots {
  struct rule_set own; /* groups naming our product token, merged */
  struct rule_set any; /* the "*" groups, merged */
  bool have_own;
  char **sitemaps; /* as written */
  size_t sitemap_count;
};

static bool is_unreserved(unsigned char c) {
  return isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

/* RFC 9309 2.2.2: percent-encoded unreserved characters are decoded, octets outside US-ASCII are
 * percent-encoded, and escapes are compared with uppercase hex. Applied to patterns and paths. */
static core_rc normalise(const char *s, size_t len, struct core_buf *out) {
  static const char hex[] = "0123456789ABCDEF";
  core_rc rc = CORE_OK;
  for (size_t i = 0; i < len && !rc; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '%' && i + 2 < len && core_hex_digit(s[i + 1]) >= 0 && core_hex_digit(s[i + 2]) >= 0) {
      unsigned char d = (unsigned char)(core_hex_digit(s[i + 1]) * 16 + core_hex_digit(s[i + 2]));
      if (is_unreserved(d)) {
        rc = core_buf_addc(out, (char)d);
      } else {
        char enc[3] = {'%', hex[d >> 4], hex[d & 15]};
        rc = core_buf_add(out, enc, 3);
      }
      i += 2;
    } else if (c >= 0x80 || c <= 0x20) {
      char enc[3] = {'%', hex[c >> 4], hex[c & 15]};
      rc = core_buf_add(out, enc, 3);
    } else {
      rc = core_buf_addc(out, (char)c);
    }
  }
  return rc;
}

static core_rc add_rule(struct rule_set *set, const char *value, size_t len, bool allow) {
  struct core_buf buf;
  core_buf_init(&buf, 3 * MAX_PATTERN);
  core_rc rc = normalise(value, len, &buf);
  if (rc) {
    core_buf_free(&buf);
    return rc == CORE_ETOOLONG ? CORE_OK : rc;
  }
  struct rule *grown = realloc(set->rules, (set->count + 1) * sizeof(*grown));
  if (!grown) {
    core_buf_free(&buf);
    return CORE_ENOMEM;
  }
  set->rules = grown;
  set->rules[set->count++] = (struct rule){buf.data ? buf.data : strdup(""), buf.len, allow};
  return set->rules[set->count - 1].pattern ? CORE_OK : CORE_ENOMEM;
}

char *parse_product_token(const char *user_agent) {
  size_t n = 0;
  while (isalpha((unsigned char)user_agent[n]) || user_agent[n] == '_' || user_agent[n] == '-')
    n++;
  return n ? strndup(user_agent, n) : NULL;
}

static bool agent_matches(const char *value, size_t len, const char *token) {
  size_t n = 0;
  while (n < len && (isalpha((unsigned char)value[n]) || value[n] == '_' || value[n] == '-'))
    n++;
  return n == strlen(token) && n > 0 && strncasecmp(value, token, n) == 0;
}

static void trim(const char **s, size_t *len) {
  while (*len && isspace((unsigned char)**s)) {
    (*s)++;
    (*len)--;
  }
  while (*len && isspace((unsigned char)(*s)[*len - 1]))
    (*len)--;
}

void parse_robots_destroy(parse_robots *robots) {
  if (!robots)
    return;
  struct rule_set *sets[] = {&robots->own, &robots->any};
  for (size_t s = 0; s < 2; s++) {
    for (size_t i = 0; i < sets[s]->count; i++)
      free(sets[s]->rules[i].pattern);
    free(sets[s]->rules);
  }
  for (size_t i = 0; i < robots->sitemap_count; i++)
    free(robots->sitemaps[i]);
  free(robots->sitemaps);
  free(robots);
}

core_rc parse_robots_create(const char *text, size_t len, const char *product_token,
                            parse_robots **out) {
  parse_robots *robots = calloc(1, sizeof(*robots));
  if (!robots)
    return CORE_ENOMEM;
  robots->own.crawl_delay = -1;
  robots->any.crawl_delay = -1;
  if (len > PARSE_ROBOTS_MAX_BYTES)
    len = PARSE_ROBOTS_MAX_BYTES;
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
    text += 3;
    len -= 3;
  }
  /* a group is a run of user-agent lines and the rules after it; a user-agent line after a rule
   * starts the next group */
  bool in_agents = false, group_own = false, group_any = false;
  core_rc rc = CORE_OK;
  size_t pos = 0;
  while (pos < len && !rc) {
    size_t eol = pos;
    while (eol < len && text[eol] != '\n' && text[eol] != '\r')
      eol++;
    const char *line = text + pos;
    size_t line_len = eol - pos;
    pos = eol + 1;
    const char *hash = memchr(line, '#', line_len);
    if (hash)
      line_len = (size_t)(hash - line);
    const char *colon = memchr(line, ':', line_len);
    if (!colon)
      continue;
    const char *key = line, *value = colon + 1;
    size_t key_len = (size_t)(colon - line), value_len = line_len - key_len - 1;
    trim(&key, &key_len);
    trim(&value, &value_len);
#define KEY_IS(k) (key_len == sizeof(k) - 1 && strncasecmp(key, k, key_len) == 0)
    if (KEY_IS("user-agent")) {
      if (!in_agents) {
        group_own = group_any = false;
        in_agents = true;
      }
      if (value_len == 1 && value[0] == '*')
        group_any = true;
      else if (product_token && agent_matches(value, value_len, product_token))
        group_own = true;
      if (group_own)
        robots->have_own = true;
      continue;
    }
    if (KEY_IS("sitemap")) {
      /* sitemaps belong to no group */
      if (value_len) {
        char **grown = realloc(robots->sitemaps, (robots->sitemap_count + 1) * sizeof(*grown));
        char *url = grown ? strndup(value, value_len) : NULL;
        if (grown)
          robots->sitemaps = grown;
        if (url)
          robots->sitemaps[robots->sitemap_count++] = url;
        else
          rc = CORE_ENOMEM;
      }
      continue;
    }
    bool allow = KEY_IS("allow"), disallow = KEY_IS("disallow"), delay = KEY_IS("crawl-delay");
    if (!allow && !disallow && !delay)
      continue;
    in_agents = false;
    struct rule_set *targets[2] = {group_own ? &robots->own : NULL,
                                   group_any ? &robots->any : NULL};
    for (size_t t = 0; t < 2 && !rc; t++) {
      if (!targets[t])
        continue;
      if (delay) {
        char num[32];
        if (value_len && value_len < sizeof(num)) {
          memcpy(num, value, value_len);
          num[value_len] = '\0';
          char *end;
          double d = strtod(num, &end);
          if (end != num && d >= 0 && targets[t]->crawl_delay < 0)
            targets[t]->crawl_delay = d;
        }
      } else if (value_len && value_len <= MAX_PATTERN) {
        /* an empty Disallow disallows nothing: it adds no rule */
        rc = add_rule(targets[t], value, value_len, allow);
      }
    }
#undef KEY_IS
  }
  if (rc) {
    parse_robots_destroy(robots);
    return rc;
  }
  *out = robots;
  return CORE_OK;
}

/* Does pattern match a prefix of path ("$" at the end of pattern anchors it at the end)? "*"
 * matches any run of characters; the greedy-with-backtrack scan is O(len(pattern) * len(path)). */
static bool pattern_matches(const char *pat, size_t plen, const char *path, size_t len) {
  bool anchored = plen && pat[plen - 1] == '$';
  if (anchored)
    plen--;
  size_t p = 0, s = 0, star_p = (size_t)-1, star_s = 0;
  while (s < len || p < plen) {
    if (p < plen && pat[p] == '*') {
      star_p = p++;
      star_s = s;
      continue;
    }
    if (p == plen && !anchored)
      return true; /* the pattern is a prefix of what remains */
    if (p < plen && s < len && pat[p] == path[s]) {
      p++;
      s++;
      continue;
    }
    if (star_p != (size_t)-1 && star_s < len) {
      p = star_p + 1;
      s = ++star_s;
      continue;
    }
    return false;
  }
  return true;
}

bool parse_robots_allowed(const parse_robots *robots, const char *path) {
  if (!robots || strcmp(path, "/robots.txt") == 0)
    return true;
  const struct rule_set *set = robots->have_own ? &robots->own : &robots->any;
  if (!set->count)
    return true;
  struct core_buf norm;
  core_buf_init(&norm, 3 * strlen(path) + 1);
  if (normalise(path, strlen(path), &norm)) {
    core_buf_free(&norm);
    return true;
  }
  const char *p = norm.data ? norm.data : "";
  size_t best_len = 0;
  bool best_allow = true, found = false;
  for (size_t i = 0; i < set->count; i++) {
    const struct rule *r = &set->rules[i];
    if (!pattern_matches(r->pattern, r->len, p, norm.len))
      continue;
    if (!found || r->len > best_len || (r->len == best_len && r->allow && !best_allow)) {
      best_len = r->len;
      best_allow = r->allow;
      found = true;
    }
  }
  core_buf_free(&norm);
  return best_allow;
}

double parse_robots_crawl_delay(const parse_robots *robots) {
  if (!robots)
    return -1;
  return robots->have_own ? robots->own.crawl_delay : robots->any.crawl_delay;
}

size_t parse_robots_sitemap_count(const parse_robots *robots) {
  return robots ? robots->sitemap_count : 0;
}

const char *parse_robots_sitemap(const parse_robots *robots, size_t index) {
  return index < robots->sitemap_count ? robots->sitemaps[index] : NULL;
}
