/* Scope rules (doc/behaviour.md, Scope): same host as a seed, same registrable domain as a seed
 * (libpsl), any host, or an explicit list of domain suffixes; minus the excluded suffixes. */
#include "url/url.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <libpsl.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* The seeds' hosts or domains, lowercase: open addressing, a power of two of slots at most half
 * full, as a crawl may have a million seed hosts and every link asks. */
struct key_set {
  char **slots; /* owned keys; NULL: empty */
  size_t cap, count;
};

struct url_scope {
  url_scope_mode mode;
  const struct core_list *domains;
  const struct core_list *exclude;
  const psl_ctx_t *psl;
  struct key_set seed_keys; /* seed hosts (host mode) or their registrable domains */
};

static size_t key_slot(const struct key_set *set, const char *key) {
  size_t mask = set->cap - 1, i = XXH3_64bits(key, strlen(key)) & mask;
  while (set->slots[i] && strcmp(set->slots[i], key) != 0)
    i = (i + 1) & mask;
  return i;
}

static bool key_set_has(const struct key_set *set, const char *key) {
  return set->cap && set->slots[key_slot(set, key)];
}

static void lower_in_place(char *text) {
  for (char *p = text; *p; p++)
    *p = (char)tolower((unsigned char)*p);
}

/* Takes key (allocated) when it is new; frees it otherwise, or on failure. */
static core_rc key_set_add(struct key_set *set, char *key) {
  lower_in_place(key);
  if (key_set_has(set, key)) {
    free(key);
    return CORE_OK;
  }
  if (2 * (set->count + 1) > set->cap) {
    struct key_set grown = {calloc(set->cap ? 2 * set->cap : 16, sizeof(char *)),
                            set->cap ? 2 * set->cap : 16, set->count};
    if (!grown.slots) {
      free(key);
      return CORE_ENOMEM;
    }
    for (size_t i = 0; i < set->cap; i++)
      if (set->slots[i])
        grown.slots[key_slot(&grown, set->slots[i])] = set->slots[i];
    free(set->slots);
    *set = grown;
  }
  set->slots[key_slot(set, key)] = key;
  set->count++;
  return CORE_OK;
}

static void key_set_free(struct key_set *set) {
  for (size_t i = 0; i < set->cap; i++)
    free(set->slots[i]);
  free(set->slots);
  *set = (struct key_set){0};
}

/* Whether host (or domain), in any case, is one of the keys. */
static bool key_set_has_host(const struct key_set *set, const char *host) {
  char buf[256]; /* DNS caps a name at 253 bytes: a longer one is copied to the heap */
  size_t len = strlen(host);
  char *lower = len < sizeof(buf) ? memcpy(buf, host, len + 1) : strdup(host);
  if (!lower)
    return false;
  lower_in_place(lower);
  bool has = key_set_has(set, lower);
  if (lower != buf)
    free(lower);
  return has;
}

core_rc url_scope_create(url_scope_mode mode, const struct core_list *domains,
                         const struct core_list *exclude, url_scope **out) {
  url_scope *scope = calloc(1, sizeof(*scope));
  if (!scope)
    return CORE_ENOMEM;
  scope->mode = mode;
  scope->domains = domains;
  scope->exclude = exclude;
  scope->psl = psl_builtin();
  if (!scope->psl) {
    free(scope);
    return CORE_ENOMEM;
  }
  *out = scope;
  return CORE_OK;
}

static bool is_ip_literal(const char *host) {
  unsigned char addr[16];
  return inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1;
}

/* host's registrable domain, the end of host itself (libpsl points into it): nothing is
 * allocated, so asking whether a link is in scope cannot fail. */
static const char *domain_of(const url_scope *scope, const char *host) {
  /* an IP address or a single-label host is its own domain (doc/behaviour.md, Scope) */
  if (is_ip_literal(host) || !strchr(host, '.'))
    return host;
  const char *domain = psl_registrable_domain(scope->psl, host);
  /* a host that is itself a public suffix has no registrable domain: it stands for itself */
  return domain ? domain : host;
}

char *url_scope_domain(const url_scope *scope, const char *host) {
  return strdup(domain_of(scope, host));
}

core_rc url_scope_add_seed(url_scope *scope, const char *host) {
  char *key = scope->mode == URL_SCOPE_DOMAIN ? url_scope_domain(scope, host) : strdup(host);
  return key ? key_set_add(&scope->seed_keys, key) : CORE_ENOMEM;
}

bool url_scope_contains(const url_scope *scope, const char *host) {
  if (scope->exclude && core_list_host_match(scope->exclude, host))
    return false;
  switch (scope->mode) {
    case URL_SCOPE_ANY:
      return true;
    case URL_SCOPE_LIST:
      return scope->domains && core_list_host_match(scope->domains, host);
    case URL_SCOPE_HOST:
      return key_set_has_host(&scope->seed_keys, host);
    case URL_SCOPE_DOMAIN:
      return key_set_has_host(&scope->seed_keys, domain_of(scope, host));
  }
  return false;
}

void url_scope_destroy(url_scope *scope) {
  if (!scope)
    return;
  key_set_free(&scope->seed_keys);
  free(scope);
}

/* Segments are compared by their bytes as printed: /a/%61 are two segments, not a repeat. */
#define TRAP_SEGMENTS_SEEN 256 /* the repeat rule looks at the first this many segments */

static bool same_segment(const char *path, const size_t *start, const size_t *len, size_t i,
                         size_t j) {
  return len[i] == len[j] && memcmp(path + start[i], path + start[j], len[i]) == 0;
}

url_trap url_path_trap(const char *path, long max_repeat, long max_segments) {
  size_t start[TRAP_SEGMENTS_SEEN], len[TRAP_SEGMENTS_SEEN];
  size_t count = 0, segments = 0;
  for (const char *p = path; *p == '/';) {
    const char *seg = p + 1;
    size_t n = strcspn(seg, "/?#");
    if (count < TRAP_SEGMENTS_SEEN) {
      start[count] = (size_t)(seg - path);
      len[count++] = n;
    }
    segments++;
    p = seg + n;
  }
  if (max_segments > 0 && segments > (size_t)max_segments)
    return URL_TRAP_SEGMENTS;
  if (max_repeat <= 0)
    return URL_TRAP_NONE;
  /* a block of p segments repeated k times in a row: segment j equals segment j + p along a run
   * of p * (k - 1) positions */
  for (size_t period = 1; period <= 2; period++) {
    size_t run = 0;
    for (size_t j = 0; j + period < count; j++) {
      run = same_segment(path, start, len, j, j + period) ? run + 1 : 0;
      if (run / period + 1 > (size_t)max_repeat)
        return URL_TRAP_REPEAT;
    }
  }
  return URL_TRAP_NONE;
}
static url_addr_kind v4_kind(const unsigned char a[4]) {
  if (a[0] == 127 || (a[0] == 0 && !a[1] && !a[2] && !a[3]))
    return URL_ADDR_LOOPBACK;
  if (a[0] == 169 && a[1] == 254)
    return URL_ADDR_LINK_LOCAL;
  if (a[0] == 10 || a[0] == 0 || (a[0] == 172 && (a[1] & 0xf0) == 16) ||
      (a[0] == 192 && a[1] == 168) || (a[0] == 100 && (a[1] & 0xc0) == 64))
    return URL_ADDR_PRIVATE;
  return URL_ADDR_PUBLIC;
}

url_addr_kind url_addr_kind_of(const char *ip) {
  unsigned char a[16];
  if (inet_pton(AF_INET, ip, a) == 1)
    return v4_kind(a);
  if (inet_pton(AF_INET6, ip, a) != 1)
    return URL_ADDR_NONE;
  static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (memcmp(a, mapped, 12) == 0) /* ::ffff:a.b.c.d is that IPv4 address */
    return v4_kind(a + 12);
  static const unsigned char zero[15] = {0};
  if (memcmp(a, zero, 15) == 0 && (a[15] == 1 || a[15] == 0))
    return URL_ADDR_LOOPBACK;
  if ((a[0] & 0xfe) == 0xfc)
    return URL_ADDR_PRIVATE;
  if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
    return URL_ADDR_LINK_LOCAL;
  return URL_ADDR_PUBLIC;
}
