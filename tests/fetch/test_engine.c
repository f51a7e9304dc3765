/* The transfer engine against servers of this test on loopback: a host's address is handed to
 * curl until curl has it, and again when it changes; the handles of finished transfers are kept
 * for the next ones (a HEAD's too, with nothing of it left on the handle), and those a long run
 * of transfers never took are freed. */
#include "fetch/fetch.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/support/wrap_realloc.h"

enum { MAX_CLIENTS = 64 };

/* Two HTTP/1.1 servers on one port, at 127.0.0.1 (answering "A") and 127.0.0.2 ("B"), served by
 * one thread. A request for /close is answered with Connection: close, any other kept alive. */
struct servers {
  int listen[2];
  unsigned port;
  int stop[2]; /* a pipe: a byte on it ends the thread */
  pthread_t thread;
  struct client {
    int fd;
    int server;
    char buf[4096];
    size_t len;
  } clients[MAX_CLIENTS];
};

static int listen_on(const char *ip, unsigned port, unsigned *bound) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, ip, &sa.sin_addr);
  if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, 128) != 0) {
    close(fd);
    return -1;
  }
  socklen_t len = sizeof(sa);
  getsockname(fd, (struct sockaddr *)&sa, &len);
  *bound = ntohs(sa.sin_port);
  return fd;
}

/* Answers every whole request in c's buffer; false when the connection is to close. */
static bool answer(struct client *c) {
  char *end;
  while ((end = memmem(c->buf, c->len, "\r\n\r\n", 4)) != NULL) {
    bool closing = strncmp(c->buf, "GET /close ", 11) == 0;
    char reply[256];
    int n;
    if (strncmp(c->buf, "GET /gzip ", 10) == 0) { /* "A", gzipped: 21 bytes on the wire */
      static const char head[] = "HTTP/1.1 200 OK\r\nContent-Length: 21\r\nContent-Encoding: "
                                 "gzip\r\nContent-Type: text/plain\r\n\r\n";
      static const char body[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff\x73\x04\x00\x8b\x9e"
                                 "\xd9\xd3\x01\x00\x00\x00";
      n = (int)(sizeof(head) - 1 + sizeof(body) - 1);
      memcpy(reply, head, sizeof(head) - 1);
      memcpy(reply + sizeof(head) - 1, body, sizeof(body) - 1);
    } else if (strncmp(c->buf, "HEAD ", 5) == 0) { /* the head a GET would have, no body */
      n = snprintf(reply, sizeof(reply),
                   "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Type: text/plain\r\n\r\n");
    } else if (strncmp(c->buf, "GET /identity ", 14) == 0) {
      n = snprintf(reply, sizeof(reply),
                   "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Encoding: identity\r\n"
                   "Content-Type: text/plain\r\n\r\nA");
    } else if (strncmp(c->buf, "GET /chunked ", 13) == 0) {
      n = snprintf(reply, sizeof(reply),
                   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: "
                   "text/plain\r\n\r\n1\r\nA\r\n0\r\n\r\n");
    } else {
      n = snprintf(reply, sizeof(reply),
                   "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Type: text/plain\r\n%s\r\n%c",
                   closing ? "Connection: close\r\n" : "", c->server ? 'B' : 'A');
    }
    if (write(c->fd, reply, (size_t)n) != n || closing)
      return false;
    size_t used = (size_t)(end + 4 - c->buf);
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
  }
  return c->len < sizeof(c->buf);
}

static void *serve(void *arg) {
  struct servers *s = arg;
  for (;;) {
    struct pollfd fds[3 + MAX_CLIENTS];
    int at[3 + MAX_CLIENTS];
    nfds_t n = 0;
    fds[n++] = (struct pollfd){.fd = s->stop[0], .events = POLLIN};
    for (int i = 0; i < 2; i++)
      fds[n++] = (struct pollfd){.fd = s->listen[i], .events = POLLIN};
    for (int i = 0; i < MAX_CLIENTS; i++)
      if (s->clients[i].fd >= 0) {
        at[n] = i;
        fds[n++] = (struct pollfd){.fd = s->clients[i].fd, .events = POLLIN};
      }
    if (poll(fds, n, 10000) <= 0 || fds[0].revents)
      return NULL; /* asked to stop, or ten idle seconds: the test is over */
    for (int i = 0; i < 2; i++) {
      if (!fds[1 + i].revents)
        continue;
      int fd = accept(s->listen[i], NULL, NULL);
      struct client *free_slot = NULL;
      for (int k = 0; k < MAX_CLIENTS && !free_slot; k++)
        if (s->clients[k].fd < 0)
          free_slot = &s->clients[k];
      if (fd >= 0 && !free_slot)
        close(fd);
      else if (fd >= 0)
        *free_slot = (struct client){.fd = fd, .server = i};
    }
    for (nfds_t k = 3; k < n; k++) {
      if (!fds[k].revents)
        continue;
      struct client *c = &s->clients[at[k]];
      ssize_t got = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
      if (got > 0)
        c->len += (size_t)got;
      if (got <= 0 || !answer(c)) {
        close(c->fd);
        c->fd = -1;
        c->len = 0;
      }
    }
  }
}

static int servers_start(void **state) {
  struct servers *s = calloc(1, sizeof(*s));
  if (!s)
    return -1;
  for (int i = 0; i < MAX_CLIENTS; i++)
    s->clients[i].fd = -1;
  s->listen[0] = listen_on("127.0.0.1", 0, &s->port);
  unsigned same;
  s->listen[1] = s->listen[0] >= 0 ? listen_on("127.0.0.2", s->port, &same) : -1;
  if (s->listen[1] < 0 || pipe(s->stop) != 0 || pthread_create(&s->thread, NULL, serve, s)) {
    print_error("cannot start the test servers on 127.0.0.1 and 127.0.0.2\n");
    return -1;
  }
  *state = s;
  return 0;
}

static int servers_stop(void **state) {
  struct servers *s = *state;
  if (write(s->stop[1], "x", 1) != 1)
    return -1;
  pthread_join(s->thread, NULL);
  for (int i = 0; i < MAX_CLIENTS; i++)
    if (s->clients[i].fd >= 0)
      close(s->clients[i].fd);
  close(s->listen[0]);
  close(s->listen[1]);
  close(s->stop[0]);
  close(s->stop[1]);
  free(s);
  return 0;
}

/* ---- the client side ---- */

struct outcome {
  int done;
  int64_t length; /* the head's */
  fetch_error error;
  char body[8];
  size_t len;
};

static bool on_head(void *arg, const struct fetch_head *head) {
  struct outcome *o = arg;
  o->length = head->length;
  return head->status == 200;
}

static void on_body(void *arg, const char *data, size_t len) {
  struct outcome *o = arg;
  for (size_t i = 0; i < len && o->len < sizeof(o->body) - 1; i++)
    o->body[o->len++] = data[i];
}

static void on_done(void *arg, const struct fetch_result *result) {
  struct outcome *o = arg;
  o->error = result->error;
  o->done++;
}

static const struct fetch_handler handler = {on_head, on_body, on_done};

struct user {
  event_loop *loop;
  fetch_engine *engine;
};

/* An engine of concurrency transfers, sharing the process's descriptors with engines - 1 others
 * (0: alone). */
static void client_open_shared(struct user *cl, long concurrency, long engines) {
  assert_int_equal(loop_create(&cl->loop), CORE_OK);
  struct fetch_options opts = {.user_agent = "crawl-test",
                               .timeout = 10,
                               .connect_timeout = 5,
                               .concurrency = concurrency,
                               .engines = engines,
                               .per_host = concurrency};
  assert_int_equal(fetch_engine_create(cl->loop, &opts, &cl->engine), CORE_OK);
}

static void client_open(struct user *cl, long concurrency) {
  client_open_shared(cl, concurrency, 0);
}

static void client_close(struct user *cl) {
  fetch_engine_destroy(cl->engine);
  loop_destroy(cl->loop);
}

/* Starts a GET (or a HEAD) of path from host (reached at addr) on the servers' port. */
static void start_request(struct user *cl, const struct servers *s, const char *host,
                          const char *addr, const char *path, bool head_only, struct outcome *o) {
  char url[128];
  snprintf(url, sizeof(url), "http://%s:%u%s", host, s->port, path);
  *o = (struct outcome){0};
  struct fetch_request rq = {.url = url,
                             .host = host,
                             .port = s->port,
                             .addr = addr,
                             .max_size = 1 << 20,
                             .head_only = head_only,
                             .handler = &handler,
                             .arg = o};
  assert_int_equal(fetch_start(cl->engine, &rq), CORE_OK);
}

static void start(struct user *cl, const struct servers *s, const char *host, const char *addr,
                  const char *path, struct outcome *o) {
  start_request(cl, s, host, addr, path, false, o);
}

/* Turns the loop until every outcome of os is done (ten seconds at most). */
static void wait_all(struct user *cl, struct outcome *os, size_t n) {
  double until = core_now() + 10;
  for (;;) {
    size_t done = 0;
    for (size_t i = 0; i < n; i++)
      done += os[i].done > 0;
    if (done == n)
      return;
    assert_true(core_now() < until);
    loop_run_once(cl->loop, 0.1);
  }
}

/* One GET, waited for: the body the server answered with. */
static const char *get(struct user *cl, const struct servers *s, const char *host, const char *addr,
                       const char *path, struct outcome *o) {
  start(cl, s, host, addr, path, o);
  wait_all(cl, o, 1);
  assert_int_equal(o->done, 1);
  assert_int_equal(o->error, FETCH_OK);
  return o->body;
}

/* The name is one no resolver knows (.invalid): every request reaches a server only through the
 * address the engine was given, and curl keeps it after the first. A new address for the host is
 * handed again: a new connection (Connection: close) reaches the other server. */
static void hands_each_address_until_curl_has_it(void **state) {
  struct servers *s = *state;
  struct user cl;
  client_open(&cl, 4);
  struct outcome o;
  for (int i = 0; i < 5; i++)
    assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/close", &o), "A");
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.2", "/close", &o), "B");
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.2", "/close", &o), "B");
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/close", &o), "A");
  /* another host on the same address and port has its own entry */
  assert_string_equal(get(&cl, s, "g.invalid", "127.0.0.2", "/close", &o), "B");
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/", &o), "A");
  assert_string_equal(get(&cl, s, "g.invalid", "127.0.0.2", "/", &o), "B");
  client_close(&cl);
}

/* 16 transfers at once leave 16 handles idle. Transfers one at a time then take one of them
 * each, so 15 are never taken. Windows of 4096 transfers count from the engine's start: in the
 * first the handles were not there yet, all through the second 15 stayed idle, and those 15 are
 * freed at its end, when the 8192nd transfer starts. */
static void frees_handles_a_long_run_never_took(void **state) {
  struct servers *s = *state;
  struct user cl;
  client_open(&cl, 16);
  struct outcome os[16];
  for (int i = 0; i < 16; i++)
    start(&cl, s, "h.invalid", "127.0.0.1", "/", &os[i]);
  wait_all(&cl, os, 16);
  for (int i = 0; i < 16; i++)
    assert_string_equal(os[i].body, "A");
  assert_int_equal(fetch_engine_idle_handles(cl.engine), 16);
  for (int started = 16; started < 8191; started++)
    get(&cl, s, "h.invalid", "127.0.0.1", "/", &os[0]);
  assert_int_equal(fetch_engine_idle_handles(cl.engine), 16);
  get(&cl, s, "h.invalid", "127.0.0.1", "/", &os[0]); /* the 8192nd */
  assert_int_equal(fetch_engine_idle_handles(cl.engine), 1);
  client_close(&cl);
}

/* 48 transfers to 48 hosts, each with more queued for its host, started in one go: none has a
 * socket yet when the next is started. Those that keep their connection count from their start,
 * so no more stay open once all are done than the engine keeps (16 here: the engine shares the
 * process's descriptors with 15 others, doc/design.md, Connections), where counting open sockets
 * alone let each of the 48 keep its own. */
static void keeps_no_more_connections_than_its_bound(void **state) {
  struct servers *s = *state;
  enum { HOSTS = 48 };
  struct user cl;
  client_open_shared(&cl, HOSTS, 16);
  struct outcome os[HOSTS];
  char hosts[HOSTS][32], urls[HOSTS][64];
  for (int i = 0; i < HOSTS; i++) {
    snprintf(hosts[i], sizeof(hosts[i]), "h%d.invalid", i);
    snprintf(urls[i], sizeof(urls[i]), "http://%s:%u/", hosts[i], s->port);
    os[i] = (struct outcome){0};
    struct fetch_request rq = {.url = urls[i],
                               .host = hosts[i],
                               .port = s->port,
                               .addr = "127.0.0.1",
                               .max_size = 1 << 20,
                               .more_for_host = true,
                               .handler = &handler,
                               .arg = &os[i]};
    assert_int_equal(fetch_start(cl.engine, &rq), CORE_OK);
  }
  wait_all(&cl, os, HOSTS);
  for (int i = 0; i < HOSTS; i++)
    assert_string_equal(os[i].body, "A");
  assert_int_equal(fetch_engine_open_sockets(cl.engine), FETCH_ENGINE_KEEP_LEAST);
  client_close(&cl);
}

/* The length a head tells is the body's as delivered: Content-Length when the body comes as it
 * is (no coding, or "identity"), unknown (-1) when it is chunked or coded (curl decodes it: the
 * length counts other bytes). */
static void tells_the_body_length_only_when_it_is_known(void **state) {
  struct servers *s = *state;
  struct user cl;
  client_open(&cl, 4);
  struct outcome o;
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/", &o), "A");
  assert_int_equal(o.length, 1);
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/gzip", &o), "A");
  assert_int_equal(o.length, -1);
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/chunked", &o), "A");
  assert_int_equal(o.length, -1);
  assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/identity", &o), "A");
  assert_int_equal(o.length, 1);
  client_close(&cl);
}

/* A HEAD request's handle goes back to the idle ones like any other, and the next GET takes it
 * (it is the only one): that GET still gets its body, so nothing of the HEAD stayed on it. */
static void a_head_leaves_nothing_on_its_handle(void **state) {
  struct servers *s = *state;
  struct user cl;
  client_open(&cl, 4);
  struct outcome o;
  start_request(&cl, s, "h.invalid", "127.0.0.1", "/", true, &o);
  wait_all(&cl, &o, 1);
  assert_int_equal(o.error, FETCH_OK);
  assert_int_equal(o.len, 0);
  assert_int_equal(fetch_engine_idle_handles(cl.engine), 1);
  for (int i = 0; i < 3; i++)
    assert_string_equal(get(&cl, s, "h.invalid", "127.0.0.1", "/", &o), "A");
  client_close(&cl);
}

struct captured {
  int count;
  bool whole; /* the request head, the response head and the body, each complete */
};

static void on_capture(void *arg, const struct fetch_capture *c) {
  struct captured *k = arg;
  k->count++;
  k->whole = c->request_len > 4 && strncmp(c->request, "GET /chunked HTTP/1.1\r\n", 23) == 0 &&
             memcmp(c->request + c->request_len - 4, "\r\n\r\n", 4) == 0 && c->response_len > 4 &&
             strncmp(c->response, "HTTP/1.1 200 OK\r\n", 17) == 0 &&
             memcmp(c->response + c->response_len - 4, "\r\n\r\n", 4) == 0 && c->body_len == 1 &&
             c->body[0] == 'A' && c->chunked;
}

/* With capture on (--warc), memory running out while an exchange is kept: the transfer ends
 * with FETCH_ENOMEM (its owner ends the crawl, doc/behaviour.md), or the exchange is kept whole.
 * Never a record without its request or its head, and never a lack of memory that passes for
 * the server's failure (that would be the page's, and the crawl would go on without it). */
static void capture_is_whole_or_says_memory_ran_out(void **state) {
  struct servers *s = *state;
  long said = 0;
  for (long n = 1;; n++) {
    struct user cl;
    client_open(&cl, 4);
    struct captured k = {0};
    fetch_engine_capture(cl.engine, on_capture, &k);
    wrap_realloc_fail_in(n);
    struct outcome o;
    start(&cl, s, "h.invalid", "127.0.0.1", "/chunked", &o);
    wait_all(&cl, &o, 1);
    bool none_failed = wrap_realloc_pending();
    wrap_realloc_fail_in(0);
    client_close(&cl);
    if (o.error == FETCH_ENOMEM) {
      said++;
      continue;
    }
    assert_int_equal(o.error, FETCH_OK);
    assert_int_equal(k.count, 1);
    assert_true(k.whole);
    assert_string_equal(o.body, "A");
    if (none_failed)
      break;
  }
  assert_true(said >= 2); /* the request's head, the response's, the body: each was failed */
}

int main(void) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hands_each_address_until_curl_has_it),
      cmocka_unit_test(frees_handles_a_long_run_never_took),
      cmocka_unit_test(keeps_no_more_connections_than_its_bound),
      cmocka_unit_test(tells_the_body_length_only_when_it_is_known),
      cmocka_unit_test(a_head_leaves_nothing_on_its_handle),
      cmocka_unit_test(capture_is_whole_or_says_memory_ran_out),
  };
  int failed = cmocka_run_group_tests(tests, servers_start, servers_stop);
  curl_global_cleanup();
  return failed;
}
