/* fetch: one event loop driving libcurl's multi interface and c-ares together. Names are resolved
 * by c-ares once per host and handed to curl, which never resolves them by itself; through a
 * proxy that resolves names they are not resolved here at all (curl resolves the proxy's own
 * name). */
#ifndef CRAWL_FETCH_H
#define CRAWL_FETCH_H

#include "core/core.h"
#include "loop/loop.h"

#include <netinet/in.h> /* INET6_ADDRSTRLEN: an address as inet_ntop writes it */

/* ---- Proxies ---- */
/* The proxies of a crawl: --proxy, or the environment's as curl reads it (cli/options.c). */
struct fetch_proxies {
  const char *http;    /* for http:// URLs; NULL: none */
  const char *https;   /* for https:// URLs; NULL: none */
  const char *noproxy; /* hosts reached directly: "*", or names (with their subdomains) and
                          addresses (with /BITS for a range), split by commas */
};
/* CORE_OK when curl can use proxy (a URL of scheme http, https, socks4, socks4a, socks5 or
 * socks5h, or a host[:port] taken as http); else CORE_EINVAL and why, which never quotes it
 * (it may hold a password). */
core_rc fetch_proxy_check(const char *proxy, const char **why);
/* Whether proxy is given host names and resolves them (http, https, socks4a, socks5h): the
 * crawl then does not look a host up itself. */
bool fetch_proxy_resolves(const char *proxy);
/* The proxy URL as it may be shown: without its user:password@. */
void fetch_proxy_shown(const char *proxy, char *out, size_t size);
/* The proxy a request to host (without brackets) goes through, or NULL to go directly. */
const char *fetch_proxy_for(const struct fetch_proxies *proxies, bool https, const char *host);

/* ---- Cookies ---- */
/* The crawl's one cookie jar: every transfer of every engine given it keeps the cookies servers
 * set and sends them back, as RFC 6265 says (curl's cookie engine), on any thread. */
typedef struct fetch_cookies fetch_cookies;
core_rc fetch_cookies_create(fetch_cookies **out);
/* Destroyed after every engine that used it. NULL is fine. */
void fetch_cookies_destroy(fetch_cookies *jar);
/* Adds the cookies of a file in the Netscape format curl and wget write (or of Set-Cookie lines);
 * CORE_ESYS with errno when it cannot be read. */
core_rc fetch_cookies_load(fetch_cookies *jar, const char *path);
/* Writes every cookie, session ones too, in the Netscape format: made mode 0600 beside path and
 * renamed over it. CORE_ESYS with errno when it cannot be written. */
core_rc fetch_cookies_save(fetch_cookies *jar, const char *path);

/* ---- The hosts file ---- */
/* /etc/hosts, read into a table: c-ares 1.18 reads the whole file again at every lookup (doc/
 * design.md, "The hosts file"). The table is read again only when the file changed (a look at
 * it, stat, at each lookup), so one serves every engine of a crawl, on any thread. */
typedef struct fetch_hosts fetch_hosts;
/* Reads path; one that is missing or cannot be read gives an empty table (c-ares passes over it
 * too). A line over 65,536 bytes is left out, and nothing past the first 256 MiB is read (a file
 * that never ends). CORE_ENOMEM only when memory runs out. */
core_rc fetch_hosts_load(const char *path, fetch_hosts **out);
/* The address the file gives name, as the engine took c-ares' answer from it, into addr: the
 * first IPv4 address of the lines that name it (in any case, first or as an alias), else their
 * first IPv6 address; false when no line names it. The file as it is now: read again first when
 * it changed since it was last read. */
bool fetch_hosts_find(fetch_hosts *hosts, const char *name, char addr[INET6_ADDRSTRLEN]);
void fetch_hosts_destroy(fetch_hosts *hosts);

/* ---- The engine ---- */
typedef struct fetch_engine fetch_engine;
/* What every transfer of an engine shares. The strings and lists are borrowed until
 * fetch_engine_destroy. */
struct fetch_options {
  const char *user_agent;
  const char *product_token; /* X-Robots-Tag directives named for a crawler apply if it is ours */
  char *const *headers;      /* extra request headers, "Name: value" */
  size_t header_count;
  double timeout, connect_timeout; /* seconds */
  bool insecure;                   /* no TLS verification */
  const char *cacert;              /* PEM file of CA certificates; NULL for the system's */
  long concurrency;                /* transfers in flight at most */
  long engines;                    /* engines sharing the process's descriptors (0 or 1: alone) */
  long per_host;                   /* transfers in flight to one host at most */
  /* seconds an idle connection waits for its host's next request before it is closed (a polite
   * crawl's gap and then some); 0: curl's own 118 */
  double idle_keep;
  const char *dns_servers; /* c-ares CSV, NULL for the system's configuration */
  char *const *resolves;   /* curl-style HOST:PORT:ADDR entries */
  size_t resolve_count;
  struct fetch_proxies proxies;
  fetch_cookies *cookies; /* borrowed; NULL: no cookies (--no-cookies) */
  /* borrowed; NULL: the engine reads /etc/hosts itself. Used where the system's order of lookups
   * (nsswitch.conf, as c-ares reads it) has the file. */
  fetch_hosts *hosts_file;
};
/* Descriptors set aside beside the transfers' sockets (doc/design.md, Connections): the
 * resolvers', the loops' and the crawl's files (FETCH_ENGINE_OTHER_FILES), and at least
 * FETCH_ENGINE_KEEP_LEAST connections each engine keeps idle. An engine keeps within its share
 * of the process's limit; the transfers in flight of all engines are for their caller to fit in
 * what is left. */
#define FETCH_ENGINE_OTHER_FILES 64
#define FETCH_ENGINE_KEEP_LEAST 16
/* opts is copied (its strings borrowed). */
core_rc fetch_engine_create(event_loop *loop, const struct fetch_options *opts, fetch_engine **out);
/* Aborts transfers in flight without calling their handlers. */
void fetch_engine_destroy(fetch_engine *engine);
/* The handles of finished transfers kept for the next ones (some 20 KB each): at most one per
 * transfer that may be in flight, and those none of the last 4096 transfers took are freed. */
size_t fetch_engine_idle_handles(const fetch_engine *engine);
/* curl's sockets open now, busy and idle: at most the transfers in flight and the connections
 * the engine keeps (doc/design.md, Connections), whatever order transfers start and end in. */
size_t fetch_engine_open_sockets(const fetch_engine *engine);

/* Called with the address text ("127.0.0.1", "::1"; borrowed for the call), or with rc =
 * CORE_EDNS and why in its place: the resolver's words ("Domain name not found"), static text
 * that lives as long as the program. */
typedef void (*fetch_resolve_cb)(void *arg, core_rc rc, const char *addr);
/* Resolves host: one query at a time per name, which every caller while it runs waits for;
 * answers are not kept (the caller keeps what it needs: the crawl asks once per host).
 * --resolve entries win: then *addr_now is set (borrowed until fetch_engine_destroy) and cb is
 * not called; otherwise *addr_now is NULL and cb runs once with the answer, from the loop or, for
 * names the hosts file answers, before fetch_resolve returns. */
core_rc fetch_resolve(fetch_engine *engine, const char *host, unsigned port, fetch_resolve_cb cb,
                      void *arg, const char **addr_now);

/* Parses one curl-style --resolve entry HOST:PORT:ADDR; addr is written without brackets. */
core_rc fetch_parse_resolve(const char *entry, char *host, size_t host_size, unsigned *port,
                            char *addr, size_t addr_size);

struct fetch_head {
  long status;
  const char *content_type; /* NULL when absent */
  const char *location;     /* raw Location header, NULL when absent */
  double retry_after;       /* seconds, < 0 when absent */
  bool nofollow;            /* X-Robots-Tag: nofollow or none */
  int64_t length;           /* the body's bytes as delivered (Content-Length, no coding), or -1 */
};

typedef enum {
  FETCH_OK,        /* a response was received (any status) */
  FETCH_ECONNECT,  /* connection refused, reset or closed early */
  FETCH_ETIMEOUT,  /* --timeout, --connect-timeout or the low-speed limit */
  FETCH_ETLS,      /* certificate or handshake failure */
  FETCH_EDNS,      /* the name could not be resolved (reported by the caller of fetch_resolve) */
  FETCH_EPROTOCOL, /* the server broke HTTP: a head past curl's limit, a reply that is no HTTP */
  FETCH_EOTHER,
  FETCH_ENOMEM /* the crawler's memory ran out: curl could not go on with any transfer */
} fetch_error;

struct fetch_result {
  fetch_error error;
  const char *error_text; /* for error != FETCH_OK */
  struct fetch_head head;
  uint64_t bytes; /* body bytes delivered after decompression */
  double seconds; /* from the start of the transfer to its last byte */
  bool truncated; /* the body was cut at max_size */
};

struct fetch_handler {
  /* The response head, before any body byte. Returning false discards the body. */
  bool (*on_head)(void *arg, const struct fetch_head *head);
  /* Runs inside curl's write callback: it must not call into fetch. */
  void (*on_body)(void *arg, const char *data, size_t len);
  /* Runs from the loop when the transfer has ended; the result is borrowed for the call. */
  void (*on_done)(void *arg, const struct fetch_result *result);
};

/* What a request to one of the seeds' hosts carries (doc/network.md, Logins): the secret -H
 * headers always, and a login: user and password (Basic), or the netrc file's. */
struct fetch_login {
  const char *user;     /* NULL: none */
  const char *password; /* NULL: empty */
  bool netrc;           /* with no user: the login of ~/.netrc or netrc_file for the host */
  const char *netrc_file;
};

/* Whether a -H header ("Name: value") is one that only the seeds' hosts get: Authorization,
 * Cookie, Proxy-Authorization. */
bool fetch_header_is_secret(const char *header);

struct fetch_request {
  const char *url;  /* printed form, borrowed for the call */
  const char *host; /* without brackets */
  unsigned port;
  /* from fetch_resolve; NULL when host is an IP literal or its proxy resolves names
   * (fetch_proxy_resolves) */
  const char *addr;
  uint64_t max_size;
  bool head_only;       /* a HEAD request: the response head, no body */
  bool no_user_headers; /* none of the -H headers: a redirect to another origin */
  /* the host has more requests queued: its connection is kept for them, while the engine keeps
   * few enough (doc/design.md, Connections); otherwise it is closed when the transfer ends */
  bool more_for_host;
  const struct fetch_login *login;     /* to one of the seeds' hosts; NULL otherwise */
  const struct fetch_handler *handler; /* borrowed until on_done */
  void *arg;
};

core_rc fetch_start(fetch_engine *engine, const struct fetch_request *request);

/* ---- Capture (--warc): each exchange as it went over the wire ---- */
struct fetch_capture {
  const char *url;
  const char *ip; /* the server's address, "" when unknown */
  const char *request;
  size_t request_len; /* the request head as sent */
  const char *response;
  size_t response_len; /* the final response head as received (after any 1xx), status line on */
  const char *body;
  size_t body_len; /* the body as received: content codings kept (see below), transfer
                    * coding removed */
  bool chunked;    /* the response came with Transfer-Encoding: chunked */
  bool truncated;  /* the body was cut at max_size */
};
typedef void (*fetch_capture_cb)(void *arg, const struct fetch_capture *capture);
/* From now on every transfer that gets a response is handed to cb before its handler's on_done.
 * Bodies are then asked for without content coding (no Accept-Encoding), so that what is kept
 * is what the server sent and what the handlers read is the same bytes. */
void fetch_engine_capture(fetch_engine *engine, fetch_capture_cb cb, void *arg);

#endif
