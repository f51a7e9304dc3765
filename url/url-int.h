/* Shared inside url/: the two ways of resolving a link (fast.c's and url.c's). */
#ifndef CRAWL_URL_INT_H
#define CRAWL_URL_INT_H

#include "url/url.h"

/* URL resolution's two ways (url_resolve_in takes the first that applies): the fast one
 * sets *handled when it could resolve href by itself (its result, or CORE_ETOOLONG, is final);
 * the full one goes through curl's URL API and takes every input. The fast one's results keep no
 * curl handle (handle is NULL). */
core_rc url__resolve_fast(const struct url *base, const char *href, size_t href_len, size_t max_len,
                          struct url *out, bool *handled);
core_rc url__resolve_full(const struct url *base, const char *href, size_t href_len, size_t max_len,
                          const char *charset, struct url *out);

#endif
