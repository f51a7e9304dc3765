/* Which proxy a request goes through (doc/network.md, Proxies). The choice is made here, once
 * per host, and curl is told it for each transfer (no_proxy included), so that the crawl knows
 * before a transfer whether it must look the host up itself: through a proxy that resolves
 * names it must not. */
#include "fetch/fetch.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The schemes curl takes for a proxy, and whether the proxy resolves the names it is given. */
static const struct {
  const char *scheme;
  bool resolves;
} proxy_schemes[] = {
    {"http", true},    {"https", true},   {"socks4a", true},
    {"socks5h", true}, {"socks4", false}, {"socks5", false},
};

/* The index of proxy's scheme in proxy_schemes (one without "://" is http, as in curl), or -1. */
static int scheme_of(const char *proxy) {
  const char *sep = strstr(proxy, "://");
  if (!sep)
    return 0;
  size_t n = (size_t)(sep - proxy);
  for (size_t i = 0; i < sizeof(proxy_schemes) / sizeof(*proxy_schemes); i++)
    if (strlen(proxy_schemes[i].scheme) == n && strncasecmp(proxy, proxy_schemes[i].scheme, n) == 0)
      return (int)i;
  return -1;
}

core_rc fetch_proxy_check(const char *proxy, const char **why) {
  const char *sep = strstr(proxy, "://");
  const char *host = sep ? sep + 3 : proxy;
  const char *at = strchr(host, '@'); /* user:password@ comes before the host */
  if (at && at < host + strcspn(host, "/"))
    host = at + 1;
  if (scheme_of(proxy) < 0)
    *why = "the scheme is none of http, https, socks4, socks4a, socks5, socks5h";
  else if (!*host || *host == '/' || *host == ':')
    *why = "it names no host";
  else if (strpbrk(proxy, " \t\r\n"))
    *why = "it holds white space";
  else
    return CORE_OK;
  return CORE_EINVAL;
}

void fetch_proxy_shown(const char *proxy, char *out, size_t size) {
  const char *authority = strstr(proxy, "://");
  authority = authority ? authority + 3 : proxy;
  size_t host_end = strcspn(authority, "/?#");
  const char *at = memchr(authority, '@', host_end);
  if (at)
    snprintf(out, size, "%.*s%s", (int)(authority - proxy), proxy, at + 1);
  else
    snprintf(out, size, "%s", proxy);
}

bool fetch_proxy_resolves(const char *proxy) {
  int i = scheme_of(proxy);
  return i >= 0 && proxy_schemes[i].resolves;
}

/* Whether an address entry of no_proxy ("10.0.0.0/8", "::1", "192.168.1.2") holds host, an
 * address literal; false for an entry that is no address. */
static bool address_matches(const char *entry, size_t len, const char *host) {
  char text[64];
  if (len >= sizeof(text))
    return false;
  memcpy(text, entry, len);
  text[len] = '\0';
  char *slash = strchr(text, '/');
  long bits = -1;
  if (slash) {
    char *end;
    *slash = '\0';
    bits = strtol(slash + 1, &end, 10);
    if (end == slash + 1 || *end)
      return false;
  }
  unsigned char want[16], have[16];
  int family = strchr(text, ':') ? AF_INET6 : AF_INET;
  size_t size = family == AF_INET6 ? 16 : 4;
  if (inet_pton(family, text, want) != 1 || inet_pton(family, host, have) != 1)
    return false;
  if (bits < 0 || bits > (long)size * 8)
    bits = (long)size * 8;
  size_t whole = (size_t)bits / 8;
  if (memcmp(want, have, whole) != 0)
    return false;
  unsigned rest = (unsigned)bits % 8;
  unsigned char mask = (unsigned char)(0xff << (8 - rest));
  return rest == 0 || (want[whole] & mask) == (have[whole] & mask);
}

/* no_proxy as curl reads it: "*" alone is every host; otherwise entries split by commas or
 * white space, each a name that holds itself and its subdomains (a leading dot changes nothing),
 * or an address, with /BITS for a range. Names compare without case. */
static bool bypassed(const char *noproxy, const char *host) {
  if (!noproxy)
    return false;
  size_t host_len = strlen(host);
  if (host_len && host[host_len - 1] == '.')
    host_len--;
  const char *p = noproxy;
  while (*p) {
    p += strspn(p, ", \t");
    size_t len = strcspn(p, ", \t");
    if (!len)
      break;
    const char *entry = p;
    p += len;
    if (len == 1 && entry[0] == '*')
      return true;
    if (address_matches(entry, len, host))
      return true;
    if (entry[0] == '.') {
      entry++;
      len--;
    }
    if (len && entry[len - 1] == '.')
      len--;
    if (!len || len > host_len)
      continue;
    if (strncasecmp(host + host_len - len, entry, len) == 0 &&
        (len == host_len || host[host_len - len - 1] == '.'))
      return true;
  }
  return false;
}

const char *fetch_proxy_for(const struct fetch_proxies *proxies, bool https, const char *host) {
  const char *proxy = https ? proxies->https : proxies->http;
  if (!proxy || !*proxy || bypassed(proxies->noproxy, host))
    return NULL;
  return proxy;
}
