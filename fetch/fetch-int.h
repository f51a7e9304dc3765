/* Shared inside fetch/: the DNS cache used by the engine, the cookie jar a transfer uses, and
 * the reading of a response's header lines (head.c). */
#ifndef CRAWL_FETCH_INT_H
#define CRAWL_FETCH_INT_H

#include "fetch/fetch.h"

#include <time.h>

typedef struct fetch__dns fetch__dns;
/* servers: c-ares CSV ("127.0.0.1:5353,[::1]:53") or NULL for the system's configuration.
 * resolves: curl-style HOST:PORT:ADDR entries, borrowed until destroy. */
core_rc fetch__dns_create(event_loop *loop, const char *servers, char *const *resolves,
                          size_t resolve_count, fetch__dns **out);
void fetch__dns_destroy(fetch__dns *dns);
core_rc fetch__dns_resolve(fetch__dns *dns, const char *host, unsigned port, fetch_resolve_cb cb,
                           void *arg, const char **addr_now);

/* Puts easy (a CURL handle) on the jar; nothing when jar is NULL (--no-cookies). */
void fetch__cookies_attach(fetch_cookies *jar, void *easy);
/* Takes easy off the jar again, before it is reset or closed. */
void fetch__cookies_detach(fetch_cookies *jar, void *easy);

/* head.c. Whether line (len bytes, its CR LF too) is header name (case aside), and then its
 * value, spaces and the line's end trimmed. */
bool fetch__header_is(const char *line, size_t len, const char *name, const char **value,
                      size_t *value_len);
/* Whether a header's comma-separated list holds word (case aside). */
bool fetch__list_has(const char *v, size_t len, const char *word);
/* Whether an X-Robots-Tag value (doc/behaviour.md, robots.txt) tells our crawler, product_token
 * (NULL: none named), not to follow the page's links: a "nofollow" or "none" directive, for all
 * crawlers, or after our name and a colon ("otherbot: nofollow" is another's). */
bool fetch__x_robots_nofollow(const char *v, size_t len, const char *product_token);
/* A Retry-After value in seconds from now: a number of seconds, or an HTTP-date (0 when it has
 * passed); -1 when it is neither. */
double fetch__retry_after(const char *v, size_t len, time_t now);

#endif
