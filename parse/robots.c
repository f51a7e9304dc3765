/* robots.txt as RFC 9309 says: groups chosen by product token, rules matched by the longest
 * pattern with Allow winning ties, "*" and "$" in patterns, percent-encoding normalised.
 *
 * What a URL's check costs is bounded (doc/behaviour.md, robots.txt): rules are kept longest
 * first, so the first that matches decides; a rule whose literal start is not the path's, or
 * that holds a byte the path lacks, is passed over at once; a pattern is matched piece by piece
 * (the text between its stars, each found with memmem after the last), so in time linear in the
 * path, where backtracking was quadratic; and the bytes of the path looked at for one URL are
 * capped (PARSE_ROBOTS_WORK_MAX). A file of thousands of long wildcard rules took 70 ms a URL
 * and stalled every other host of its shard. */
#include "parse/parse.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PATTERN 4096 /* longer rule values are ignored: no real site needs them */

struct rule {
  char *pattern;     /* normalised */
  uint32_t len;      /* at most 3 x MAX_PATTERN */
  uint32_t prefix;   /* the literal part before its first '*' (or '$') */
  uint64_t needs[4]; /* the bytes its literal parts hold: the path must hold each */
  bool allow;
};

struct rule_set {
  struct rule *rules;
  size_t count;
  double crawl_delay; /* < 0: none */
};

/* The file as it is read: both sets of groups, each piece in an allocation of its own. */
struct robots_draft {
  struct rule_set own; /* groups naming our product token, merged */
  struct rule_set any; /* the "*" groups, merged */
  bool have_own;
  char **sitemaps; /* as written */
  size_t sitemap_count;
};

/* What a host keeps: the set that applies and the sitemaps, in one allocation (the rules, then
 * the sitemaps' pointers, then every string), as a crawl of a million hosts keeps a million of
 * them; the draft of the same file took twice the bytes in eight allocations
 * (doc/design.md, Memory). */
struct parse_robots {
  double crawl_delay; /* < 0: none */
  size_t users;       /* parse_robots_share: destroyed by its last user */
  size_t rule_count, sitemap_count;
  char **sitemaps;
  struct rule rules[];
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

/* What a check passes a rule over by: its literal start and the bytes it needs (pattern and len
 * set, needs all zero). */
static void index_rule(struct rule *r) {
  size_t literal = r->len && r->pattern[r->len - 1] == '$' ? r->len - 1 : r->len;
  size_t prefix = strcspn(r->pattern, "*");
  r->prefix = (uint32_t)(prefix < literal ? prefix : literal);
  for (size_t i = 0; i < literal; i++) {
    unsigned char c = (unsigned char)r->pattern[i];
    if (c != '*')
      r->needs[c >> 6] |= 1ull << (c & 63);
  }
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
  struct rule *r = &set->rules[set->count++];
  *r = (struct rule){
      .pattern = buf.data ? buf.data : strdup(""), .len = (uint32_t)buf.len, .allow = allow};
  if (!r->pattern)
    return CORE_ENOMEM;
  index_rule(r);
  return CORE_OK;
}

/* Longest first; Allow before Disallow on a tie: the first rule that matches is the answer. */
static int by_precedence(const void *a, const void *b) {
  const struct rule *x = a, *y = b;
  if (x->len != y->len)
    return x->len > y->len ? -1 : 1;
  return (int)y->allow - (int)x->allow;
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

static void draft_free(struct robots_draft *draft) {
  struct rule_set *sets[] = {&draft->own, &draft->any};
  for (size_t s = 0; s < 2; s++) {
    for (size_t i = 0; i < sets[s]->count; i++)
      free(sets[s]->rules[i].pattern);
    free(sets[s]->rules);
  }
  for (size_t i = 0; i < draft->sitemap_count; i++)
    free(draft->sitemaps[i]);
  free(draft->sitemaps);
}

void parse_robots_destroy(parse_robots *robots) {
  if (robots && --robots->users)
    return;
  free(robots);
}

parse_robots *parse_robots_share(parse_robots *robots) {
  robots->users++;
  return robots;
}

/* rules (count of them) and sitemaps in one block; the strings are copied. */
static parse_robots *pack(const struct rule *rules, size_t count, double crawl_delay,
                          char *const *sitemaps, size_t sitemap_count) {
  size_t bytes =
      sizeof(parse_robots) + count * sizeof(struct rule) + sitemap_count * sizeof(char *);
  for (size_t i = 0; i < count; i++)
    bytes += rules[i].len + 1;
  for (size_t i = 0; i < sitemap_count; i++)
    bytes += strlen(sitemaps[i]) + 1;
  parse_robots *robots = malloc(bytes);
  if (!robots)
    return NULL;
  robots->crawl_delay = crawl_delay;
  robots->users = 1;
  robots->rule_count = count;
  robots->sitemap_count = sitemap_count;
  robots->sitemaps = (char **)(robots->rules + count);
  char *text = (char *)(robots->sitemaps + sitemap_count);
  for (size_t i = 0; i < count; i++) {
    robots->rules[i] = rules[i];
    robots->rules[i].pattern = memcpy(text, rules[i].pattern, rules[i].len + 1);
    text += rules[i].len + 1;
  }
  for (size_t i = 0; i < sitemap_count; i++) {
    size_t n = strlen(sitemaps[i]) + 1;
    robots->sitemaps[i] = memcpy(text, sitemaps[i], n);
    text += n;
  }
  return robots;
}

parse_robots *parse_robots_without_sitemaps(parse_robots *robots) {
  if (!robots || !robots->sitemap_count || robots->users > 1) /* shared ones stay as they are */
    return robots;
  parse_robots *rules = pack(robots->rules, robots->rule_count, robots->crawl_delay, NULL, 0);
  if (!rules)
    return robots; /* they cost their bytes, nothing else */
  free(robots);
  return rules;
}

/* The saved form: a head, then each rule in the order of precedence as its allow byte, its
 * length and its pattern with the nul after it. Read back by the same build of the same program
 * (a temporary file), so in the machine's byte order. */
#define SAVED_MAGIC 0x31425452u /* "RTB1" */
struct saved_head {
  uint32_t magic;
  uint32_t rule_count;
  double crawl_delay;
};

core_rc parse_robots_save(const parse_robots *robots, struct core_buf *out) {
  struct saved_head head = {SAVED_MAGIC, (uint32_t)robots->rule_count, robots->crawl_delay};
  core_rc rc = core_buf_add(out, &head, sizeof(head));
  for (size_t i = 0; i < robots->rule_count && !rc; i++) {
    const struct rule *r = &robots->rules[i];
    uint8_t allow = r->allow;
    if (!(rc = core_buf_add(out, &allow, 1)) && !(rc = core_buf_add(out, &r->len, sizeof(r->len))))
      rc = core_buf_add(out, r->pattern, r->len + 1);
  }
  return rc;
}

core_rc parse_robots_load(const void *data, size_t len, parse_robots **out) {
  const char *p = data, *end = p + len;
  struct saved_head head;
  if (len < sizeof(head))
    return CORE_EFORMAT;
  memcpy(&head, p, sizeof(head));
  p += sizeof(head);
  /* each rule takes 6 bytes at least: a count beyond that is not the saved form */
  if (head.magic != SAVED_MAGIC || head.rule_count > (size_t)(end - p) / 6)
    return CORE_EFORMAT;
  struct rule *rules = calloc(head.rule_count ? head.rule_count : 1, sizeof(*rules));
  if (!rules)
    return CORE_ENOMEM;
  core_rc rc = CORE_OK;
  for (uint32_t i = 0; i < head.rule_count && !rc; i++) {
    struct rule *r = &rules[i];
    if (end - p < 5) {
      rc = CORE_EFORMAT;
      break;
    }
    r->allow = *p++ != 0;
    memcpy(&r->len, p, sizeof(r->len));
    p += sizeof(r->len);
    /* the pattern, its nul after it and none inside, as normalise leaves it */
    if (r->len > 3 * MAX_PATTERN || (size_t)(end - p) <= r->len || p[r->len] != '\0' ||
        memchr(p, '\0', r->len)) {
      rc = CORE_EFORMAT;
      break;
    }
    r->pattern = (char *)p;
    index_rule(r);
    p += r->len + 1;
  }
  if (!rc && p != end)
    rc = CORE_EFORMAT;
  parse_robots *robots = rc ? NULL : pack(rules, head.rule_count, head.crawl_delay, NULL, 0);
  free(rules);
  if (!rc && !robots)
    rc = CORE_ENOMEM;
  if (!rc)
    *out = robots;
  return rc;
}

core_rc parse_robots_create(const char *text, size_t len, const char *product_token,
                            parse_robots **out) {
  struct robots_draft draft = {.own.crawl_delay = -1, .any.crawl_delay = -1};
  struct robots_draft *robots = &draft;
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
  if (robots->own.count)
    qsort(robots->own.rules, robots->own.count, sizeof(struct rule), by_precedence);
  if (robots->any.count)
    qsort(robots->any.rules, robots->any.count, sizeof(struct rule), by_precedence);
  const struct rule_set *set = draft.have_own ? &draft.own : &draft.any;
  parse_robots *packed =
      rc ? NULL
         : pack(set->rules, set->count, set->crawl_delay, draft.sitemaps, draft.sitemap_count);
  draft_free(&draft);
  if (!packed)
    return rc ? rc : CORE_ENOMEM;
  *out = packed;
  return CORE_OK;
}

/* Does the rule match a prefix of path ("$" at the end of the pattern anchors it at the end)?
 * "*" matches any run of characters. Each piece between stars is found at its leftmost place
 * after the last (which leaves the most room for the rest, so no match is missed); the last
 * piece of an anchored pattern must end the path. *work counts the path's bytes looked at. */
static bool pattern_matches(const struct rule *r, const char *path, size_t len, size_t *work) {
  const char *pat = r->pattern;
  size_t plen = r->len;
  bool anchored = plen && pat[plen - 1] == '$';
  if (anchored)
    plen--;
  size_t i = r->prefix; /* the literal start was compared already */
  size_t s = i;
  if (i == plen)
    return !anchored || len == i;
  for (;;) {
    while (i < plen && pat[i] == '*')
      i++;
    if (i == plen)
      return true; /* a last star takes whatever is left, to the end too */
    const char *star = memchr(pat + i, '*', plen - i);
    size_t j = star ? (size_t)(star - pat) : plen, piece = j - i;
    if (j == plen && anchored) {
      *work += piece;
      return len - s >= piece && memcmp(path + len - piece, pat + i, piece) == 0;
    }
    *work += len - s;
    const char *found = memmem(path + s, len - s, pat + i, piece);
    if (!found)
      return false;
    s = (size_t)(found - path) + piece;
    i = j;
  }
}

bool parse_robots_allowed(const parse_robots *robots, const char *path) {
  bool allowed;
  parse_robots_check(robots, path, &allowed); /* lack of memory: disallowed, never allowed */
  return allowed;
}

core_rc parse_robots_check(const parse_robots *robots, const char *path, bool *out) {
  *out = true;
  if (!robots || strcmp(path, "/robots.txt") == 0)
    return CORE_OK;
  if (!robots->rule_count)
    return CORE_OK;
  struct core_buf norm;
  core_buf_init(&norm, 3 * strlen(path) + 1);
  if (normalise(path, strlen(path), &norm)) { /* taken as allowed, it would fetch a disallowed */
    core_buf_free(&norm);
    *out = false;
    return CORE_ENOMEM;
  }
  const char *p = norm.data ? norm.data : "";
  uint64_t has[4] = {0};
  for (size_t i = 0; i < norm.len; i++)
    has[(unsigned char)p[i] >> 6] |= 1ull << ((unsigned char)p[i] & 63);
  bool allowed = true;
  size_t work = 0;
  for (size_t i = 0; i < robots->rule_count; i++) {
    const struct rule *r = &robots->rules[i];
    if (r->prefix > norm.len || memcmp(r->pattern, p, r->prefix) != 0 || (r->needs[0] & ~has[0]) ||
        (r->needs[1] & ~has[1]) || (r->needs[2] & ~has[2]) || (r->needs[3] & ~has[3]))
      continue;
    if (work > PARSE_ROBOTS_WORK_MAX) { /* a file made to be costly: kept away from */
      allowed = false;
      break;
    }
    if (pattern_matches(r, p, norm.len, &work)) {
      allowed = r->allow; /* the longest: the rules are kept in that order */
      break;
    }
  }
  core_buf_free(&norm);
  *out = allowed;
  return CORE_OK;
}

double parse_robots_crawl_delay(const parse_robots *robots) {
  if (!robots)
    return -1;
  return robots->crawl_delay;
}

size_t parse_robots_sitemap_count(const parse_robots *robots) {
  return robots ? robots->sitemap_count : 0;
}

const char *parse_robots_sitemap(const parse_robots *robots, size_t index) {
  return index < robots->sitemap_count ? robots->sitemaps[index] : NULL;
}
