/* Shared inside fetch/: the DNS cache used by the engine, the cookie jar a transfer uses, the
 * addresses curl was handed (handed.c), and the reading of a response's header lines (head.c). */
#ifndef CRAWL_FETCH_INT_H
#define CRAWL_FETCH_INT_H

#include "fetch/fetch.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct curl_slist;

typedef struct fetch__dns fetch__dns;
/* servers: c-ares CSV ("127.0.0.1:5353,[::1]:53") or NULL for the system's configuration.
 * resolves: curl-style HOST:PORT:ADDR entries, hosts the hosts file's table (NULL: read here),
 * both borrowed until destroy. */
core_rc fetch__dns_create(event_loop *loop, const char *servers, char *const *resolves,
                          size_t resolve_count, fetch_hosts *hosts, fetch__dns **out);
void fetch__dns_destroy(fetch__dns *dns);
core_rc fetch__dns_resolve(fetch__dns *dns, const char *host, unsigned port, fetch_resolve_cb cb,
                           void *arg, const char **addr_now);

/* Puts easy (a CURL handle) on the jar; nothing when jar is NULL (--no-cookies). */
void fetch__cookies_attach(fetch_cookies *jar, void *easy);
/* Takes easy off the jar again, before it is reset or closed. */
void fetch__cookies_detach(fetch_cookies *jar, void *easy);

/* handed.c: a host's address as curl was handed it (CURLOPT_RESOLVE), while the table keeps it. */
struct handed {
  char *host;
  unsigned port;
  char addr[INET6_ADDRSTRLEN];
  bool used;          /* a transfer handed it has resolved through it */
  unsigned in_flight; /* transfers to it, counted by the engine: while any, it stays */
  struct handed *next;
  struct handed *older, *newer; /* in the idle list, while in_flight is 0 */
};

/* The entries (a chained table by host and port, grown at one entry a slot), those with no
 * transfer in flight oldest first, and the "-HOST:PORT" lines of those taken back, for the next
 * transfer to hand curl (appended to at the last: curl_slist_append walks the whole list). Zeroed
 * is empty; limit is set by the engine. */
struct fetch__handed {
  struct handed **slots;
  size_t slot_count, count, limit;
  struct handed *idle_oldest, *idle_newest;
  struct curl_slist *taken_back, *taken_back_last;
};
/* The entry of host and port, made when there is none, out of the idle list; NULL when memory
 * runs out or the address is longer than any an address is printed as (then it is handed every
 * time). An address other than the one handed makes it to be handed again (used is cleared:
 * curl replaces its cache entry). */
struct handed *fetch__handed_entry(struct fetch__handed *t, const char *host, unsigned port,
                                   const char *addr);
/* A transfer to h's host has ended (h NULL: it had none): with none left in flight h goes idle,
 * and past the limit the entries idle longest are taken back (freed, their lines queued). */
void fetch__handed_done(struct fetch__handed *t, struct handed *h);
/* The lines queued since the last call, the caller's now (NULL: none). */
struct curl_slist *fetch__handed_taken_back(struct fetch__handed *t);
void fetch__handed_free(struct fetch__handed *t);

/* linger.c: sockets curl has closed, whose server is yet to close its side. */
struct fetch__linger;
#define FETCH__LINGER_MOST 32
/* At most most sockets wait (FETCH__LINGER_MOST at most; 0: each is closed at once). */
core_rc fetch__linger_create(event_loop *loop, size_t most, struct fetch__linger **out);
/* Closes fd once its server has closed its side (a response to "Connection: close" is followed
 * by the server's FIN), so that the TIME_WAIT is the server's; at once when it has already,
 * when too many wait, or past a short bound (doc/design.md, Connections). */
void fetch__linger_close(struct fetch__linger *l, int fd);
/* Closes every socket still waiting, and frees l. */
void fetch__linger_destroy(struct fetch__linger *l);

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
