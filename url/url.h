/* url: URLs in their printed form (the WHATWG URL Standard's serialization, without fragment;
 * curl's URL API closed to the Standard), the kinds of addresses a host may be, spider-trap rules
 * on paths, and the scope (libpsl). */
#ifndef CRAWL_URL_H
#define CRAWL_URL_H

#include "core/core.h"

struct Curl_URL;

/* ---- URLs ---- */

/* A URL in its printed form (doc/behaviour.md, Output): WHATWG serialization, fragment removed.
 * text and host are owned by the struct; release with url_free. */
struct url {
  char *text;              /* the printed form */
  char *host;              /* lowercase host; IPv6 without brackets */
  char *origin;            /* scheme://host[:port], the key for per-host state */
  unsigned port;           /* explicit or default port */
  bool https;              /* scheme is https (else http) */
  size_t path_off;         /* offset in text of the path (starts with '/') */
  bool host_is_ip;         /* host is an IPv4 or IPv6 literal: no DNS lookup */
  bool unfetchable;        /* valid, but no request can reach it: port 0, or a host of
                            * punctuation curl refuses ("a!b"); it has no handle */
  struct Curl_URL *handle; /* curl's parsed form, kept to resolve links against this URL */
  bool packed;             /* host and origin live in text's allocation (one to free) */
};

/* Resolves href (href_len bytes, not necessarily NUL-terminated) against base (NULL when href must
 * be absolute; a bare "example.com" seed is accepted only through url_seed). Only http and
 * https results are accepted. max_len caps the printed form (CORE_ETOOLONG beyond it). */
core_rc url_resolve(const struct url *base, const char *href, size_t href_len, size_t max_len,
                    struct url *out);
/* The same for a link in a document encoded in charset (NULL for UTF-8): the URL Standard encodes
 * the query in the document's encoding, characters it cannot represent as "&#N;". */
core_rc url_resolve_in(const struct url *base, const char *href, size_t href_len, size_t max_len,
                       const char *charset, struct url *out);
/* A seed as typed by a user: "example.com" means "http://example.com/". */
core_rc url_seed(const char *text, size_t max_len, struct url *out);
void url_free(struct url *url);
/* Takes the userinfo ("user:password@") out of url, which is then the same URL without it (a
 * crawl prints no password). When user and password are not NULL they get the decoded parts
 * (NULL when there was no userinfo; *password NULL when it had no ':'), to free. CORE_ENOMEM
 * leaves url as it was. */
core_rc url_take_userinfo(struct url *url, char **user, char **password);
/* Copies the lowercase extensions of the last path segment into ext: what follows its first dot
 * ("tar.gz" for "a.tar.gz"), or, when that does not fit, what follows the first later dot that
 * does; "" when it has none. Query and fragment are ignored. core_list_has_ext matches them. */
void url_ext(const struct url *url, char *ext, size_t ext_size);

/* ---- Scope ---- */
typedef enum { URL_SCOPE_HOST, URL_SCOPE_DOMAIN, URL_SCOPE_ANY, URL_SCOPE_LIST } url_scope_mode;
typedef struct url_scope url_scope;
/* domains (for URL_SCOPE_LIST) and exclude are borrowed until url_scope_destroy. */
core_rc url_scope_create(url_scope_mode mode, const struct core_list *domains,
                         const struct core_list *exclude, url_scope **out);
core_rc url_scope_add_seed(url_scope *scope, const char *host);
bool url_scope_contains(const url_scope *scope, const char *host);
/* The registrable domain of host, per the Public Suffix List (doc/behaviour.md,
 * Scope). Caller frees. */
char *url_scope_domain(const url_scope *scope, const char *host);
void url_scope_destroy(url_scope *scope);

/* Where an IP address (v4 or v6, text without brackets) leads: the public Internet, or a network
 * of the machine's own that a redirect from a public host must not reach without --allow-private
 * (doc/network.md, Private addresses). */
typedef enum {
  URL_ADDR_PUBLIC,
  URL_ADDR_PRIVATE,    /* RFC 1918, RFC 6598 (carrier-grade NAT), unique local fc00::/7 */
  URL_ADDR_LINK_LOCAL, /* 169.254.0.0/16 (where clouds answer metadata), fe80::/10 */
  URL_ADDR_LOOPBACK,   /* 127.0.0.0/8, ::1, and the unspecified 0.0.0.0 and ::, which reach it */
  URL_ADDR_NONE        /* not an IP address */
} url_addr_kind;
url_addr_kind url_addr_kind_of(const char *ip);

/* Spider-trap rules on a URL's path (doc/behaviour.md, Trap guards): the rule the path breaks, or
 * URL_TRAP_NONE. path runs from its first '/' to its end or a '?' or '#'. A path breaks
 * URL_TRAP_REPEAT when one segment, or one pair of segments, comes more than max_repeat times in
 * a row (/a/a/a, /a/b/a/b/a/b at 2), and URL_TRAP_SEGMENTS when it has more than max_segments
 * segments. 0 turns a rule off. */
typedef enum { URL_TRAP_NONE, URL_TRAP_REPEAT, URL_TRAP_SEGMENTS } url_trap;
url_trap url_path_trap(const char *path, long max_repeat, long max_segments);

#endif
