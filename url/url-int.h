/* Shared inside url/: the two ways of resolving a link (fast.c's and url.c's), the percent-encode
 * sets and the reading of hosts (host.c). */
#ifndef CRAWL_URL_INT_H
#define CRAWL_URL_INT_H

#include "url/url.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Stands in for a host curl refuses but the Standard allows; url.c's finish puts the real one
 * back. The .invalid name is reserved (RFC 2606) and never fetched; only a link that names it on
 * a page whose own host was carried would read as that page's host. */
#define CARRIED_HOST "carried-host.invalid"
#define CARRIED_MAX 256

/* Percent-encode sets of the URL Standard, for the special schemes http and https: the path's, C0
 * controls, space, " # < > ? ` { } and bytes above 0x7E (the query's is url.c's, the userinfo's
 * host.c's). */
static inline bool url__in_path_set(unsigned char c) {
  return c < 0x21 || c > 0x7e || c == '"' || c == '<' || c == '>' || c == '`' || c == '{' ||
         c == '}';
}
/* URL Standard, "forbidden domain code point": never part of a valid domain. */
static inline bool url__forbidden_domain_char(unsigned char c) {
  return c <= 0x20 || c == 0x7f || (c < 0x80 && strchr("#%/:<>?@[\\]^|", c));
}

/* c to out, as %XX when encode. */
static inline core_rc url__add_encoded(struct core_buf *out, unsigned char c, bool encode) {
  static const char hex[] = "0123456789ABCDEF";
  if (!encode)
    return core_buf_addc(out, (char)c);
  char enc[3] = {'%', hex[c >> 4], hex[c & 15]};
  return core_buf_add(out, enc, 3);
}

/* host.c. URL Standard, "ends in a number" and the IPv4 parser: 1 with the address in *addr, 0
 * when host is a domain, -1 when it must be an IPv4 address but is not a valid one. */
int url__parse_ipv4(const char *host, size_t len, uint32_t *addr);
/* The punctuation the Standard allows in a domain (it is no forbidden domain code point) but
 * curl's host name check refuses. */
bool url__curl_refuses_in_host(char c);
/* Writes the authority "userinfo@host:port" of a (len bytes) to out as the URL Standard would
 * serialize it, as far as that can be done before curl; an ASCII host with punctuation curl
 * refuses goes to carried and CARRIED_HOST to out in its place. */
core_rc url__add_authority(struct core_buf *out, const char *a, size_t len,
                           char carried[CARRIED_MAX]);

/* URL resolution's two ways (url_resolve_in takes the first that applies): the fast one
 * sets *handled when it could resolve href by itself (its result, or CORE_ETOOLONG, is final);
 * the full one goes through curl's URL API and takes every input. The fast one's results keep no
 * curl handle (handle is NULL). */
core_rc url__resolve_fast(const struct url *base, const char *href, size_t href_len, size_t max_len,
                          struct url *out, bool *handled);
core_rc url__resolve_full(const struct url *base, const char *href, size_t href_len, size_t max_len,
                          const char *charset, struct url *out);

#endif
