/* The transfer engine: curl's multi interface on the shared loop (the socket-action API, as in
 * curl's docs/examples/ephiperfifo.c). Bodies stream to the handler as they arrive. */
#include "fetch/fetch-int.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <arpa/inet.h>
#include <unistd.h>

#define MAX_HEADER_VALUE 8192

struct transfer {
  CURL *easy;
  fetch_engine *engine;
  const struct fetch_handler *handler;
  void *arg;
  struct curl_slist *resolve;
  struct handed *handed; /* its host's entry (counted in its in_flight), NULL with none */
  char content_type[256];
  char *location;
  double retry_after;
  bool nofollow;
  bool coded; /* a Content-Encoding: the Content-Length counts the coded bytes */
  bool head_delivered;
  bool out_of_memory; /* a callback could not keep the exchange for capture */
  bool want_body;
  bool truncated;
  uint64_t bytes;
  uint64_t max_size;
  /* with capture on: the exchange's raw heads and body */
  struct core_buf request, response, body;
  bool chunked; /* the last response head said Transfer-Encoding: chunked */
  bool plain;   /* its handle got no option of the request's own (login, HEAD): see idle_easy */
  bool keep_unopened;          /* keeps its connection, and curl has opened no socket for it yet */
  char error[CURL_ERROR_SIZE]; /* curl's own words for a failure (CURLOPT_ERRORBUFFER) */
  const char *proxy;           /* the proxy it goes through (the config's), or NULL */
  char said[CURL_ERROR_SIZE + 160]; /* a failure put in words here (transfer_error) */
  struct transfer *prev, *next;
};

/* What the loop watches for one of curl's sockets. curl stops watching a connection's socket
 * after every transfer (CURL_POLL_REMOVE: it goes idle in curl's cache) and watches it again for
 * the next one, two epoll_ctl calls a request that a crawl over kept-alive connections made for
 * nothing. A removed socket is parked instead: it stays in the epoll set with the events it had,
 * and watching it again for the same events costs no call. A parked socket that becomes ready
 * (its server closed it, say) leaves the set then, so it cannot wake the loop again and again;
 * and one that curl closes leaves it in close_socket, before its number can be used again. */
struct sock_watch {
  loop_watch *watch; /* NULL: not in the loop */
  unsigned events;
  bool parked; /* curl no longer asks for it */
};

/* An idle easy handle. A plain one holds the engine's options (set_engine_options) and, beside
 * them, only options every transfer sets again: the next plain request uses it as it is. One that
 * carried a login or a HEAD is reset first, so that no request inherits them. Not resetting
 * spares curl freeing and copying again its option strings, some 20 calls a request. */
struct idle_easy {
  CURL *easy;
  bool plain;
};

/* Which -H headers a request carries (fetch_engine's headers). */
enum header_set { HEADERS_NONE, HEADERS_PLAIN, HEADERS_SEED, HEADER_SETS };

struct fetch_engine {
  event_loop *loop;
  struct sock_watch *socks; /* by descriptor */
  size_t sock_count;
  struct fetch_options opts;
  CURLM *multi;
  /* easy handles of finished transfers, used again: making one and throwing it away per request
   * cost more than the request's own work (its buffers are allocated anew). But a handle keeps
   * some 20 KB (curl's 16 KB receive buffer among it), and a crawl busy at first with hundreds
   * of hosts at once settles later to a few dozen transfers in flight: the handles none of the
   * last IDLE_WINDOW transfers took are freed (take_idle_easy). */
  struct idle_easy *idle;
  size_t idle_count, idle_cap;
  size_t idle_least; /* the fewest idle since the window began: that many went unused */
  size_t window;     /* transfers started in it */
  loop_timer *timer;
  fetch__dns *dns;
  struct fetch__linger *linger; /* sockets closed, waiting for their server's close */
  struct fetch__handed handed;  /* the addresses curl was handed (handed.c) */
  /* the request's header lists, made once: by who is asked (none of -H for a redirect to
   * another origin, -H but the secret ones, all of -H for the seeds' hosts) and by whether the
   * connection is closed at the transfer's end (then "Connection: close" ends the list) */
  struct curl_slist *headers[HEADER_SETS][2];
  struct transfer *transfers;
  /* connections curl holds open, busy and idle (its sockets: opened and closed through us), and
   * how many it may hold before a transfer's connection is closed at its end (see
   * fetch_engine_create) */
  size_t open_sockets, keep_limit;
  size_t keeps_unopened; /* transfers in flight with keep_unopened */
  bool out_of_memory;    /* socket_cb could not watch a socket: curl stopped every transfer */
  fetch_capture_cb capture;
  void *capture_arg;
};

static void check_done(fetch_engine *engine);
static void fail_all(fetch_engine *engine);

static void unwatch_sock(fetch_engine *engine, struct sock_watch *sw) {
  loop_unwatch(engine->loop, sw->watch);
  *sw = (struct sock_watch){0};
}

static void on_socket_event(void *arg, int fd, unsigned events) {
  fetch_engine *engine = arg;
  struct sock_watch *sw = &engine->socks[fd];
  if (sw->parked) { /* curl does not want it now: it looks again when it reuses the connection */
    unwatch_sock(engine, sw);
    return;
  }
  int mask = (events & LOOP_READ ? CURL_CSELECT_IN : 0) |
             (events & LOOP_WRITE ? CURL_CSELECT_OUT : 0) |
             (events & LOOP_ERROR ? CURL_CSELECT_ERR : 0);
  int running;
  curl_multi_socket_action(engine->multi, fd, mask, &running);
  check_done(engine);
  fail_all(engine);
}

static void on_curl_timer(void *arg) {
  fetch_engine *engine = arg;
  int running;
  curl_multi_socket_action(engine->multi, CURL_SOCKET_TIMEOUT, 0, &running);
  check_done(engine);
  fail_all(engine);
}

/* CURLMOPT_SOCKETFUNCTION: curl says which sockets to watch for what. */
static int socket_cb(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp) {
  fetch_engine *engine = userp;
  if (s < 0)
    return -1;
  if ((size_t)s >= engine->sock_count) {
    if (what == CURL_POLL_REMOVE)
      return 0;
    size_t count = engine->sock_count ? engine->sock_count : 64;
    while (count <= (size_t)s)
      count *= 2;
    struct sock_watch *grown = realloc(engine->socks, count * sizeof(*grown));
    if (!grown) {
      engine->out_of_memory = true; /* curl stops every transfer: see fail_all */
      return -1;
    }
    memset(grown + engine->sock_count, 0, (count - engine->sock_count) * sizeof(*grown));
    engine->socks = grown;
    engine->sock_count = count;
  }
  struct sock_watch *sw = &engine->socks[s];
  if (what == CURL_POLL_REMOVE) {
    sw->parked = sw->watch != NULL;
    return 0;
  }
  unsigned events = (what & CURL_POLL_IN ? LOOP_READ : 0) | (what & CURL_POLL_OUT ? LOOP_WRITE : 0);
  sw->parked = false;
  if (sw->watch && sw->events == events)
    return 0;
  if (sw->watch) {
    if (loop_watch_set(engine->loop, sw->watch, events) != CORE_OK) {
      engine->out_of_memory = true; /* epoll_ctl's lack of kernel memory, or of ours */
      return -1;
    }
  } else if (loop_watch_fd(engine->loop, s, events, on_socket_event, engine, &sw->watch) !=
             CORE_OK) {
    sw->watch = NULL;
    engine->out_of_memory = true;
    return -1;
  }
  sw->events = events;
  return 0;
}

/* CURLOPT_OPENSOCKETFUNCTION, handed the transfer: curl's sockets are counted, for the
 * connections it keeps. A transfer that keeps its connection counts among those kept from its
 * start (fetch_start) to its first socket, then by its socket. */
static curl_socket_t open_socket(void *clientp, curlsocktype purpose,
                                 struct curl_sockaddr *address) {
  struct transfer *t = clientp;
  fetch_engine *engine = t->engine;
  (void)purpose;
  int fd = socket(address->family, address->socktype, address->protocol);
  if (fd < 0)
    return CURL_SOCKET_BAD;
  engine->open_sockets++;
  if (t->keep_unopened) {
    t->keep_unopened = false;
    engine->keeps_unopened--;
  }
  return fd;
}

/* CURLOPT_CLOSESOCKETFUNCTION: a socket leaves the loop before its number is free again, and is
 * closed once its server has closed its side (linger.c). */
static int close_socket(void *clientp, curl_socket_t s) {
  fetch_engine *engine = clientp;
  if (engine->open_sockets)
    engine->open_sockets--;
  if (s >= 0 && (size_t)s < engine->sock_count && engine->socks[s].watch)
    unwatch_sock(engine, &engine->socks[s]);
  fetch__linger_close(engine->linger, s);
  return 0;
}

/* CURLMOPT_TIMERFUNCTION: only arms our timer; curl is called later, from the loop. */
static int timer_cb(CURLM *multi, long timeout_ms, void *userp) {
  fetch_engine *engine = userp;
  if (timeout_ms < 0)
    loop_timer_stop(engine->timer);
  else
    loop_timer_start(engine->timer, core_now() + (double)timeout_ms / 1000.0);
  return 0;
}

/* -H headers that carry secrets go to the seeds' hosts alone, as curl keeps them from other
 * hosts on redirects: Authorization, Cookie, Proxy-Authorization. */
bool fetch_header_is_secret(const char *header) {
  static const char *const names[] = {"Authorization", "Cookie", "Proxy-Authorization"};
  size_t len = strcspn(header, ":;");
  while (len && (header[len - 1] == ' ' || header[len - 1] == '\t'))
    len--;
  for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
    if (strlen(names[i]) == len && strncasecmp(header, names[i], len) == 0)
      return true;
  return false;
}

/* The header list of one set, for a connection kept or closed. A connection the engine closes
 * at the transfer's end says so in its request (RFC 9112, 9.6): the server then closes first and
 * keeps the closed connection's TIME_WAIT, not the crawl, whose source ports to one address run
 * out otherwise (doc/design.md, Connections; linger.c waits for that close). A -H header that
 * names Connection itself is left to say it. */
static core_rc make_headers(const struct fetch_options *cfg, enum header_set set, bool closing,
                            struct curl_slist **out) {
  struct curl_slist *list = NULL;
  bool says_connection = false;
  for (size_t i = 0; set != HEADERS_NONE && i < cfg->header_count; i++) {
    /* the seeds' hosts get every header, the others all but the secret ones */
    if (set == HEADERS_PLAIN && fetch_header_is_secret(cfg->headers[i]))
      continue;
    says_connection |= strncasecmp(cfg->headers[i], "Connection:", 11) == 0;
    struct curl_slist *grown = curl_slist_append(list, cfg->headers[i]);
    if (!grown)
      goto fail;
    list = grown;
  }
  if (closing && !says_connection) {
    struct curl_slist *grown = curl_slist_append(list, "Connection: close");
    if (!grown)
      goto fail;
    list = grown;
  }
  *out = list;
  return CORE_OK;
fail:
  curl_slist_free_all(list);
  return CORE_ENOMEM;
}

static void free_headers(fetch_engine *engine) {
  for (int set = 0; set < HEADER_SETS; set++)
    for (int closing = 0; closing < 2; closing++)
      curl_slist_free_all(engine->headers[set][closing]);
}

core_rc fetch_engine_create(event_loop *loop, const struct fetch_options *cfg, fetch_engine **out) {
  fetch_engine *engine = calloc(1, sizeof(*engine));
  if (!engine)
    return CORE_ENOMEM;
  engine->loop = loop;
  engine->opts = *cfg;
  core_rc rc = fetch__dns_create(loop, cfg->dns_servers, cfg->resolves, cfg->resolve_count,
                                 cfg->hosts_file, &engine->dns);
  if (rc) {
    free(engine);
    return rc;
  }
  rc = CORE_ENOMEM;
  if (loop_timer_create(loop, on_curl_timer, engine, &engine->timer))
    goto fail;
  for (int set = 0; set < HEADER_SETS; set++)
    for (int closing = 0; closing < 2; closing++)
      if (make_headers(cfg, (enum header_set)set, closing, &engine->headers[set][closing]))
        goto fail;
  engine->multi = curl_multi_init();
  engine->idle_cap = (size_t)cfg->concurrency;
  engine->idle = calloc(engine->idle_cap, sizeof(*engine->idle));
  if (!engine->multi || !engine->idle)
    goto fail;
  curl_multi_setopt(engine->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
  curl_multi_setopt(engine->multi, CURLMOPT_SOCKETDATA, engine);
  curl_multi_setopt(engine->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
  curl_multi_setopt(engine->multi, CURLMOPT_TIMERDATA, engine);
  /* Connections (doc/design.md, Connections): curl 7.88 walks its whole connection cache when a
   * transfer that kept its connection leaves the multi handle, and again, for the oldest, each
   * time a connection is made or returned with the cache full: at a few hundred connections
   * that was most of a broad crawl's CPU. So the engine keeps the cache small itself: a
   * transfer keeps its connection only when its host has more queued and fewer than keep_limit
   * connections are open; curl's own limits are set above what that allows, so that they never
   * walk the cache (the crawl keeps its transfers in flight within --concurrency). The idle
   * ones kept are never so many that busy and idle together would run out of descriptors. */
  long keep = cfg->concurrency * 4 + 64 < 256 ? cfg->concurrency * 4 + 64 : 256;
  long engines = cfg->engines > 1 ? cfg->engines : 1;
  keep = keep / engines > 4 ? keep / engines : 4; /* the shards' engines keep that in all */
  size_t linger_most = FETCH__LINGER_MOST;
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    /* the shards' engines share the process's descriptors: each keeps to its part */
    rlim_t mine = rl.rlim_cur / (rlim_t)engines;
    long others = cfg->concurrency + FETCH_ENGINE_OTHER_FILES;
    if ((rlim_t)(keep + others) > mine)
      keep = mine > (rlim_t)(others + FETCH_ENGINE_KEEP_LEAST) ? (long)mine - others
                                                               : FETCH_ENGINE_KEEP_LEAST;
    /* sockets waiting for their server's close (linger.c) only in descriptors left over */
    rlim_t used = (rlim_t)(keep + others);
    if (mine < used + linger_most)
      linger_most = mine > used ? (size_t)(mine - used) : 0;
  }
  if (fetch__linger_create(loop, linger_most, &engine->linger))
    goto fail;
  engine->keep_limit = (size_t)keep;
  engine->handed.limit = engine->keep_limit; /* a host whose connection is kept needs none */
  /* open at most keep_limit when a transfer starts, and each in flight may add one */
  curl_multi_setopt(engine->multi, CURLMOPT_MAXCONNECTS, keep + cfg->concurrency + 16);
  *out = engine;
  return CORE_OK;
fail:
  curl_multi_cleanup(engine->multi);
  fetch__linger_destroy(engine->linger);
  free(engine->idle);
  free_headers(engine);
  fetch__dns_destroy(engine->dns);
  free(engine);
  return rc;
}

/* Takes t out of the multi handle and the list; its memory stays until release_transfer. */
static void detach_transfer(struct transfer *t) {
  fetch_engine *engine = t->engine;
  if (t->prev)
    t->prev->next = t->next;
  else
    engine->transfers = t->next;
  if (t->next)
    t->next->prev = t->prev;
  curl_multi_remove_handle(engine->multi, t->easy);
}

/* Keeps the easy handle for the next transfer while there is room (at most one per transfer that
 * may be in flight), else frees it. */
static void recycle_easy(fetch_engine *engine, CURL *easy, bool plain) {
  fetch__cookies_detach(engine->opts.cookies, easy); /* before curl_easy_reset: see there */
  if (engine->idle_count < engine->idle_cap)
    engine->idle[engine->idle_count++] = (struct idle_easy){easy, plain};
  else
    curl_easy_cleanup(easy);
}

enum { IDLE_WINDOW = 4096 }; /* transfers: a few seconds of a busy crawl, far more of a slow one */

/* A transfer takes an idle handle, or NULL when there is none. At the end of each window, the
 * handles that stayed idle all through it are freed. */
static struct idle_easy take_idle_easy(fetch_engine *engine) {
  struct idle_easy easy = {NULL, false};
  if (engine->idle_count)
    easy = engine->idle[--engine->idle_count];
  if (engine->idle_count < engine->idle_least)
    engine->idle_least = engine->idle_count;
  if (++engine->window >= IDLE_WINDOW) {
    for (size_t n = engine->idle_least; n > 0; n--)
      curl_easy_cleanup(engine->idle[--engine->idle_count].easy);
    engine->idle_least = engine->idle_count;
    engine->window = 0;
  }
  return easy;
}

size_t fetch_engine_idle_handles(const fetch_engine *engine) {
  return engine->idle_count;
}

size_t fetch_engine_open_sockets(const fetch_engine *engine) {
  return engine->open_sockets;
}

static void release_transfer(struct transfer *t) {
  if (t->keep_unopened)
    t->engine->keeps_unopened--; /* it reused a connection, or never connected */
  core_buf_free(&t->request);
  core_buf_free(&t->response);
  core_buf_free(&t->body);
  recycle_easy(t->engine, t->easy, t->plain);
  curl_slist_free_all(t->resolve);
  fetch__handed_done(&t->engine->handed, t->handed);
  free(t->location);
  free(t);
}

void fetch_engine_destroy(fetch_engine *engine) {
  if (!engine)
    return;
  while (engine->transfers) {
    struct transfer *t = engine->transfers;
    detach_transfer(t);
    release_transfer(t);
  }
  while (engine->idle_count)
    curl_easy_cleanup(engine->idle[--engine->idle_count].easy);
  free(engine->idle);
  curl_multi_cleanup(engine->multi); /* closes its connections, each through close_socket */
  fetch__linger_destroy(engine->linger);
  fetch__handed_free(&engine->handed);
  for (size_t fd = 0; fd < engine->sock_count; fd++)
    if (engine->socks[fd].watch)
      unwatch_sock(engine, &engine->socks[fd]);
  free(engine->socks);
  free_headers(engine);
  fetch__dns_destroy(engine->dns);
  loop_timer_stop(engine->timer);
  free(engine);
}

core_rc fetch_resolve(fetch_engine *engine, const char *host, unsigned port, fetch_resolve_cb cb,
                      void *arg, const char **addr_now) {
  return fetch__dns_resolve(engine->dns, host, port, cb, arg, addr_now);
}

static size_t header_cb(char *buffer, size_t size, size_t nitems, void *userdata) {
  struct transfer *t = userdata;
  size_t len = size * nitems;
  const char *v;
  size_t vlen;
  bool status_line = len >= 5 && strncmp(buffer, "HTTP/", 5) == 0;
  if (t->engine->capture) {
    if (status_line)
      core_buf_reset(&t->response);
    if (core_buf_add(&t->response, buffer, len) != CORE_OK) {
      t->out_of_memory = true; /* the record would lack its head: check_done says why */
      return 0;
    }
  }
  if (status_line) {
    /* a new response head (after a 1xx): forget the previous one */
    t->content_type[0] = '\0';
    free(t->location);
    t->location = NULL;
    t->retry_after = -1;
    t->nofollow = false;
    t->coded = false;
    t->chunked = false;
  } else if (fetch__header_is(buffer, len, "content-encoding", &v, &vlen)) {
    t->coded = !(vlen == 8 && strncasecmp(v, "identity", 8) == 0);
  } else if (fetch__header_is(buffer, len, "transfer-encoding", &v, &vlen)) {
    t->chunked = fetch__list_has(v, vlen, "chunked");
  } else if (fetch__header_is(buffer, len, "content-type", &v, &vlen)) {
    if (vlen >= sizeof(t->content_type))
      vlen = sizeof(t->content_type) - 1;
    memcpy(t->content_type, v, vlen);
    t->content_type[vlen] = '\0';
  } else if (fetch__header_is(buffer, len, "location", &v, &vlen) && vlen <= MAX_HEADER_VALUE) {
    free(t->location);
    if (!(t->location = strndup(v, vlen))) {
      t->out_of_memory = true; /* a redirect without its target: the transfer ends, said so */
      return 0;
    }
  } else if (fetch__header_is(buffer, len, "retry-after", &v, &vlen)) {
    double seconds = fetch__retry_after(v, vlen, time(NULL));
    if (seconds >= 0) /* one that cannot be read leaves an earlier one as it was */
      t->retry_after = seconds;
  } else if (fetch__header_is(buffer, len, "x-robots-tag", &v, &vlen)) {
    if (fetch__x_robots_nofollow(v, vlen, t->engine->opts.product_token))
      t->nofollow = true; /* one header of several is enough */
  }
  return len;
}

static void fill_head(struct transfer *t, struct fetch_head *head) {
  long status = 0;
  curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
  head->status = status;
  head->content_type = t->content_type[0] ? t->content_type : NULL;
  head->location = t->location;
  head->retry_after = t->retry_after;
  head->nofollow = t->nofollow;
  curl_off_t length = -1;
  if (t->coded ||
      curl_easy_getinfo(t->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) != CURLE_OK)
    length = -1;
  head->length = length;
}

static void deliver_head(struct transfer *t) {
  if (t->head_delivered)
    return;
  t->head_delivered = true;
  struct fetch_head head;
  fill_head(t, &head);
  t->want_body = t->handler->on_head(t->arg, &head);
}

static size_t write_cb(char *data, size_t size, size_t nmemb, void *userdata) {
  struct transfer *t = userdata;
  size_t len = size * nmemb;
  deliver_head(t);
  size_t room = t->max_size - t->bytes;
  size_t take = len < room ? len : (size_t)room;
  if (take && t->want_body)
    t->handler->on_body(t->arg, data, take);
  if (take && t->engine->capture && core_buf_add(&t->body, data, take) != CORE_OK) {
    t->out_of_memory = true;     /* check_done says why */
    return CURL_WRITEFUNC_ERROR; /* ends the transfer (CURLE_WRITE_ERROR) */
  }
  t->bytes += take;
  if (take < len) {
    t->truncated = true;
    return CURL_WRITEFUNC_ERROR; /* ends the transfer: the body is cut at --max-size */
  }
  return len;
}

/* Whether t's receive error is a chunked body curl could not take apart ("Illegal or missing
 * hexadecimal sequence in chunked-encoding"): curl 7.88 ends it with CURLE_RECV_ERROR, as it ends
 * a connection that failed, but no system call failed and its words name the chunks. The server
 * broke HTTP; asking again gets the same body (doc/behaviour.md, The summary). */
static bool broken_chunks(struct transfer *t) {
  long os_errno = 0;
  if (!t->chunked || !strstr(t->error, "chunk"))
    return false;
  curl_easy_getinfo(t->easy, CURLINFO_OS_ERRNO, &os_errno);
  return os_errno == 0;
}

static fetch_error classify(struct transfer *t, CURLcode code) {
  switch (code) {
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_UNSUPPORTED_PROTOCOL: /* for an http(s) URL: a reply that is no HTTP (0.9) */
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_OUT_OF_MEMORY: /* see transfer_error */
      return FETCH_EPROTOCOL;
    case CURLE_COULDNT_CONNECT:
    case CURLE_RECV_ERROR:
      return broken_chunks(t) ? FETCH_EPROTOCOL : FETCH_ECONNECT;
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return FETCH_ECONNECT;
    case CURLE_OPERATION_TIMEDOUT:
      return FETCH_ETIMEOUT;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
      return FETCH_ETLS;
    default:
      return FETCH_EOTHER;
  }
}

/* What went wrong, in words for a record. curl 7.88 ends a transfer whose response head is past
 * its limit (a header line over 100 KB) with "Out of memory", and says no more: the crawler's
 * own memory is not curl's to run out of, so that is said for what it is. Through a proxy, curl
 * connects to nothing but the proxy, so a connection that fails is the proxy's: it is named
 * (doc/network.md, Proxies), as wget names it, where curl's words named no one. A protocol
 * error is said in curl's own words where it has some; the rest as curl names them. */
static const char *transfer_error(struct transfer *t, CURLcode code, fetch_error error) {
  if (code == CURLE_OUT_OF_MEMORY)
    return "response head past curl's limit (curl: out of memory)";
  /* curl 7.88 leaves out why a connection failed, which says whose it was: the system's words
   * follow its own, as wget gives them ("Connection refused", "Too many open files") */
  long os_errno = 0;
  if (code == CURLE_COULDNT_CONNECT)
    curl_easy_getinfo(t->easy, CURLINFO_OS_ERRNO, &os_errno);
  const char *os_said = os_errno ? strerrordesc_np((int)os_errno) : NULL;
  bool proxy = t->proxy && (code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_PROXY);
  if (proxy || os_said) {
    char shown[256] = "";
    if (proxy)
      fetch_proxy_shown(t->proxy, shown, sizeof(shown));
    snprintf(t->said, sizeof(t->said), "%s%s%s%s%s%s%s", proxy ? "the proxy " : "", shown,
             proxy ? ": " : "", curl_easy_strerror(code), os_said ? " (" : "",
             os_said ? os_said : "", os_said ? ")" : "");
    return t->said;
  }
  if (error == FETCH_EPROTOCOL && t->error[0])
    return t->error;
  return curl_easy_strerror(code);
}

static void capture(struct transfer *t) {
  const char *url = NULL, *ip = NULL;
  curl_easy_getinfo(t->easy, CURLINFO_EFFECTIVE_URL, &url);
  curl_easy_getinfo(t->easy, CURLINFO_PRIMARY_IP, &ip);
  struct fetch_capture c = {url ? url : "",   ip ? ip : "",    t->request.data, t->request.len,
                            t->response.data, t->response.len, t->body.data,    t->body.len,
                            t->chunked,       t->truncated};
  t->engine->capture(t->engine->capture_arg, &c);
}

/* CURLOPT_DEBUGFUNCTION: the request head as curl sends it. */
static int debug_cb(CURL *easy, curl_infotype type, char *data, size_t size, void *userp) {
  (void)easy;
  struct transfer *t = userp;
  if (type == CURLINFO_HEADER_OUT) {
    core_buf_reset(&t->request); /* only the last request of the transfer counts */
    if (core_buf_add(&t->request, data, size) != CORE_OK)
      t->out_of_memory = true; /* curl cannot be stopped from here: check_done ends it */
  }
  return 0;
}

void fetch_engine_capture(fetch_engine *engine, fetch_capture_cb cb, void *arg) {
  engine->capture = cb;
  engine->capture_arg = arg;
}

/* After socket_cb failed, curl 7.88 marks the multi handle dead and goes on with none of its
 * transfers: each ends now with FETCH_ENOMEM (its owner ends the crawl, keeping the URL), and
 * with every handle removed the multi handle takes new ones again. */
static void fail_all(fetch_engine *engine) {
  if (!engine->out_of_memory)
    return;
  engine->out_of_memory = false;
  while (engine->transfers) {
    struct transfer *t = engine->transfers;
    struct fetch_result res;
    memset(&res, 0, sizeof(res));
    fill_head(t, &res.head);
    res.error = FETCH_ENOMEM;
    res.error_text = "out of memory";
    detach_transfer(t);
    t->handler->on_done(t->arg, &res);
    release_transfer(t);
  }
}

static void check_done(fetch_engine *engine) {
  CURLMsg *msg;
  int left;
  while ((msg = curl_multi_info_read(engine->multi, &left))) {
    if (msg->msg != CURLMSG_DONE)
      continue;
    struct transfer *t = NULL;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
    CURLcode code = msg->data.result;
    struct fetch_result res;
    memset(&res, 0, sizeof(res));
    bool ok =
        !t->out_of_memory && (code == CURLE_OK || (code == CURLE_WRITE_ERROR && t->truncated));
    if (ok)
      deliver_head(t);
    fill_head(t, &res.head);
    res.error = ok ? FETCH_OK : t->out_of_memory ? FETCH_ENOMEM : classify(t, code);
    res.error_text = ok                 ? NULL
                     : t->out_of_memory ? "out of memory"
                                        : transfer_error(t, code, res.error);
    res.bytes = t->bytes;
    res.truncated = t->truncated;
    curl_off_t total_us = 0;
    curl_easy_getinfo(t->easy, CURLINFO_TOTAL_TIME_T, &total_us);
    res.seconds = (double)total_us / 1e6;
    const char *ip = NULL; /* an address tried: curl had loaded the entry into its cache */
    if (t->handed && curl_easy_getinfo(t->easy, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK && ip &&
        *ip && strcmp(ip, t->handed->addr) == 0)
      t->handed->used = true;
    /* detached before the handler runs, so the handler may start the next transfer; the
     * result's strings live in t until the handler returns */
    detach_transfer(t);
    if (ok && engine->capture)
      capture(t);
    t->handler->on_done(t->arg, &res);
    release_transfer(t);
  }
}

/* An IPv4 address (an IPv6 one cannot be the host of a CURLOPT_RESOLVE entry in curl 7.88: the
 * host ends at its first colon). */
static bool is_address(const char *host) {
  struct in_addr bytes;
  return inet_pton(AF_INET, host, &bytes) == 1;
}

/* The options that are the same for every transfer of the engine. */
static void set_engine_options(fetch_engine *engine, CURL *e) {
  const struct fetch_options *cfg = &engine->opts;
  curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket); /* its data: each transfer */
  curl_easy_setopt(e, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
  curl_easy_setopt(e, CURLOPT_CLOSESOCKETDATA, engine);
  /* curl 7.88 walks its whole DNS cache at the end of every transfer to drop expired entries,
   * and the cache holds an entry for every host handed (struct handed): at 100,000 hosts a
   * quarter of the crawl's CPU. Its entries never expire; they are its own lookups only when a
   * proxy resolves names (one) or a host is an address */
  curl_easy_setopt(e, CURLOPT_DNS_CACHE_TIMEOUT, -1L);
  if (cfg->idle_keep > 0)
    curl_easy_setopt(e, CURLOPT_MAXAGE_CONN, (long)(cfg->idle_keep + 0.999));
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, header_cb);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, write_cb);
  curl_easy_setopt(e, CURLOPT_USERAGENT, cfg->user_agent);
  if (engine->capture) {
    curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, debug_cb);
    curl_easy_setopt(e, CURLOPT_VERBOSE, 1L); /* the debug function runs only so */
  } else {
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, ""); /* every coding curl can decode */
  }
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(cfg->timeout * 1000.0));
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(cfg->connect_timeout * 1000.0));
  /* doc/behaviour.md, Failures: a transfer that moves less than 1 KB in 10 seconds is abandoned */
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 102L);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, 10L);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  /* curl keeps a receive buffer this size for each transfer: 16 KB by default, 16 MB at -c 1000,
   * where pages are a few KB (bench/README.md, Broad crawls: -c 1000's peak) */
  curl_easy_setopt(e, CURLOPT_BUFFERSIZE, 8192L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  /* HTTP/2 when the server offers it (ALPN; curl's default for https): with --per-host > 1 a
   * request waits for the host's connection to tell whether it multiplexes, rather than opening
   * a connection of its own beside it */
  if (cfg->per_host > 1)
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
  /* curl reads neither *_proxy nor no_proxy from the environment: the proxy is the crawl's */
  curl_easy_setopt(e, CURLOPT_NOPROXY, "");
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, cfg->insecure ? 0L : 1L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, cfg->insecure ? 0L : 2L);
  /* an https:// proxy is checked as a server is (without a proxy, these are not read) */
  curl_easy_setopt(e, CURLOPT_PROXY_SSL_VERIFYPEER, cfg->insecure ? 0L : 1L);
  curl_easy_setopt(e, CURLOPT_PROXY_SSL_VERIFYHOST, cfg->insecure ? 0L : 2L);
  if (cfg->cacert) {
    curl_easy_setopt(e, CURLOPT_CAINFO, cfg->cacert);
    curl_easy_setopt(e, CURLOPT_PROXY_CAINFO, cfg->cacert);
  }
}

core_rc fetch_start(fetch_engine *engine, const struct fetch_request *rq) {
  const struct fetch_options *cfg = &engine->opts;
  struct transfer *t = calloc(1, sizeof(*t));
  if (!t)
    return CORE_ENOMEM;
  t->engine = engine;
  t->handler = rq->handler;
  t->arg = rq->arg;
  t->retry_after = -1;
  t->max_size = rq->max_size;
  /* the seeds' hosts alone get credentials and the secret headers (doc/network.md, Logins) */
  const struct fetch_login *login = rq->login;
  bool has_login = login && (login->user || login->netrc);
  t->plain = !has_login && !rq->head_only;
  struct idle_easy idle = take_idle_easy(engine);
  t->easy = idle.easy;
  if (t->easy && !idle.plain)
    curl_easy_reset(t->easy);
  else if (!t->easy)
    t->easy = curl_easy_init();
  if (!t->easy) {
    free(t);
    return CORE_ENOMEM;
  }
  if (!idle.plain)
    set_engine_options(engine, t->easy);
  /* curl is handed the address, until it has it: it never resolves by itself. The entries
   * taken back go first: curl reads the list in order, at the transfer's start, before any
   * transfer added after this one starts (so a host taken back and asked for again at once is
   * handed again after). */
  /* the proxy is the crawl's choice, made before the lookup it may spare (fetch_proxy_for):
   * curl is told it, or none */
  const char *proxy =
      fetch_proxy_for(&cfg->proxies, strncasecmp(rq->url, "https:", 6) == 0, rq->host);
  /* a host that is an IPv4 address, reached without a proxy, is handed as itself: curl would
   * cache an entry of its own for it, which nothing takes back */
  const char *addr = rq->addr ? rq->addr : !proxy && is_address(rq->host) ? rq->host : NULL;
  struct handed *h = addr ? fetch__handed_entry(&engine->handed, rq->host, rq->port, addr) : NULL;
  if (h)
    h->in_flight++;
  t->handed = h;
  t->resolve = fetch__handed_taken_back(&engine->handed);
  if (addr && (!h || !h->used)) {
    char entry[512];
    bool v6 = strchr(addr, ':') != NULL;
    snprintf(entry, sizeof(entry), v6 ? "%s:%u:[%s]" : "%s:%u:%s", rq->host, rq->port, addr);
    struct curl_slist *grown = curl_slist_append(t->resolve, entry);
    if (!grown) {
      recycle_easy(engine, t->easy, false);
      curl_slist_free_all(t->resolve);
      fetch__handed_done(&engine->handed, h);
      free(t);
      return CORE_ENOMEM;
    }
    t->resolve = grown;
  }
  CURL *e = t->easy;
  /* set on every transfer, NULL too: curl reads the list at each transfer's start, and the
   * last transfer's list is freed */
  curl_easy_setopt(e, CURLOPT_RESOLVE, t->resolve);
  curl_easy_setopt(e, CURLOPT_URL, rq->url);
  /* the transfers started in one turn of the loop open their sockets later, in curl's next
   * step: those that will keep theirs count already, or a burst of starts (a host's answers
   * arriving together, or --resolve) could each keep one and idle past keep_limit */
  bool closing =
      !(rq->more_for_host && engine->open_sockets + engine->keeps_unopened < engine->keep_limit);
  curl_easy_setopt(e, CURLOPT_FORBID_REUSE, closing ? 1L : 0L);
  curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, t);
  curl_easy_setopt(e, CURLOPT_PRIVATE, t);
  t->error[0] = '\0';
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
  enum header_set set = rq->no_user_headers ? HEADERS_NONE : login ? HEADERS_SEED : HEADERS_PLAIN;
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, engine->headers[set][closing]);
  if (login && login->user) {
    curl_easy_setopt(e, CURLOPT_USERNAME, login->user);
    curl_easy_setopt(e, CURLOPT_PASSWORD, login->password ? login->password : "");
    curl_easy_setopt(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
  } else if (login && login->netrc) {
    curl_easy_setopt(e, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
    if (login->netrc_file)
      curl_easy_setopt(e, CURLOPT_NETRC_FILE, login->netrc_file);
  }
  fetch__cookies_attach(cfg->cookies, e);
  if (engine->capture) {
    /* heads of any size curl takes (it caps them itself); the body within max_size */
    core_buf_init(&t->request, 1 << 20);
    core_buf_init(&t->response, 1 << 20);
    core_buf_init(&t->body, rq->max_size + 1);
    curl_easy_setopt(e, CURLOPT_DEBUGDATA, t);
  }
  if (rq->head_only)
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  curl_easy_setopt(e, CURLOPT_PROXY, proxy ? proxy : "");
  t->proxy = proxy;
  if (curl_multi_add_handle(engine->multi, e) != CURLM_OK) {
    recycle_easy(engine, e, false);
    curl_slist_free_all(t->resolve);
    fetch__handed_done(&engine->handed, h);
    free(t);
    return CORE_ENOMEM;
  }
  t->keep_unopened = !closing;
  engine->keeps_unopened += !closing;
  t->next = engine->transfers;
  if (t->next)
    t->next->prev = t;
  engine->transfers = t;
  return CORE_OK;
}
