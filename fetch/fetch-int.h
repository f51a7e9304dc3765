/* Shared inside fetch/: the DNS cache used by the engine, and the cookie jar a transfer uses. */
#ifndef CRAWL_FETCH_INT_H
#define CRAWL_FETCH_INT_H

#include "fetch/fetch.h"

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

#endif
