/* crawl/logins.c: what the seeds' hosts alone are sent (doc/network.md, Logins). What it offers the
 * other files of the engine. */
#ifndef CRAWL_LOGINS_H
#define CRAWL_LOGINS_H

#include "crawl/crawl-int.h"

/* A seed as a URL, without the user:password@ it may hold (which crawl__logins_open keeps). */
core_rc crawl__logins_seed_url(const char *seed, size_t max_len, struct url *out);
/* The seeds' hosts this shard owns, with their logins: made only when something is to be sent
 * to them alone (-H Authorization, Cookie or Proxy-Authorization, --user, --netrc, a seed's
 * userinfo). */
core_rc crawl__logins_open(struct shard *c);
/* Whether anything goes to the seeds' origins alone: --user, --netrc, a secret -H header, a
 * seed's user:password@. */
bool crawl__logins_needed(const struct crawl_config *cfg);
void crawl__logins_close(struct shard *c);
/* What a request to scheme://host:port carries as one of the seeds' origins, or NULL when it is
 * none: a login belongs to its scheme, host and port. */
const struct fetch_login *crawl__logins_for(const struct shard *c, bool https, const char *host,
                                            unsigned port);

#endif
