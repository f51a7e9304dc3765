/* fetch/linger.c: a socket curl closes is closed after its server has closed its side, so that
 * the TIME_WAIT is the server's (doc/design.md, Connections): kept open while the server's side
 * is, closed at its FIN; at once when the server had closed already, when the connection was
 * never made, or when as many wait as may; and past the bound, closed all the same. Over real
 * TCP connections on loopback, driven by a real loop. */
#include "fetch/fetch-int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

struct pair {
  int client, server;
};

static int listener(struct sockaddr_in *addr) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(fd >= 0);
  *addr = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof(*addr);
  assert_int_equal(bind(fd, (struct sockaddr *)addr, len), 0);
  assert_int_equal(listen(fd, 64), 0);
  assert_int_equal(getsockname(fd, (struct sockaddr *)addr, &len), 0);
  return fd;
}

static struct pair connect_pair(int listen_fd, const struct sockaddr_in *addr) {
  struct pair p = {socket(AF_INET, SOCK_STREAM, 0), -1};
  assert_true(p.client >= 0);
  assert_int_equal(connect(p.client, (const struct sockaddr *)addr, sizeof(*addr)), 0);
  p.server = accept(listen_fd, NULL, NULL);
  assert_true(p.server >= 0);
  return p;
}

static bool is_open(int fd) {
  return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

/* Runs the loop until fd is closed, at most until a deadline far past the linger's bound. */
static void run_until_closed(event_loop *loop, int fd) {
  double give_up = core_now() + 30;
  while (is_open(fd) && core_now() < give_up)
    assert_int_equal(loop_run_once(loop, 0.5), CORE_OK);
  assert_false(is_open(fd));
}

/* A loop, a linger on it and a listening socket on loopback. */
struct bench {
  event_loop *loop;
  struct fetch__linger *linger;
  struct sockaddr_in addr;
  int listen_fd;
};

static struct bench bench_open(size_t most) {
  struct bench b;
  assert_int_equal(loop_create(&b.loop), CORE_OK);
  assert_int_equal(fetch__linger_create(b.loop, most, &b.linger), CORE_OK);
  b.listen_fd = listener(&b.addr);
  return b;
}

/* The linger is the test's to destroy, as part of what it tests. */
static void bench_close(struct bench *b) {
  close(b->listen_fd);
  loop_destroy(b->loop);
}

static void test_closed_after_the_server(void **state) {
  (void)state;
  struct bench b = bench_open(FETCH__LINGER_MOST);

  /* open both ways: it waits for the server */
  struct pair p = connect_pair(b.listen_fd, &b.addr);
  fetch__linger_close(b.linger, p.client);
  assert_true(is_open(p.client));
  assert_int_equal(loop_run_once(b.loop, 0), CORE_OK);
  assert_true(is_open(p.client));
  close(p.server); /* the server closes first */
  struct pollfd fin = {.fd = p.client, .events = POLLIN};
  assert_int_equal(poll(&fin, 1, 10000), 1); /* its FIN has come: the loop's next turn closes */
  assert_int_equal(loop_run_once(b.loop, 0), CORE_OK);
  assert_false(is_open(p.client));

  /* the server closed already (CLOSE_WAIT): closed at once */
  p = connect_pair(b.listen_fd, &b.addr);
  close(p.server);
  fin.fd = p.client;
  assert_int_equal(poll(&fin, 1, 10000), 1);
  fetch__linger_close(b.linger, p.client);
  assert_false(is_open(p.client));

  /* never connected: closed at once */
  int bare = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(bare >= 0);
  fetch__linger_close(b.linger, bare);
  assert_false(is_open(bare));

  /* a server that never closes: closed past the bound all the same */
  p = connect_pair(b.listen_fd, &b.addr);
  double start = core_now();
  fetch__linger_close(b.linger, p.client);
  run_until_closed(b.loop, p.client);
  assert_true(core_now() - start >= 0.9);
  close(p.server);

  fetch__linger_destroy(b.linger);
  bench_close(&b);
}

/* Closes 40 connections open both ways through a linger that lets most wait: how many wait;
 * the linger's end closes them all. */
static size_t waiting_of(size_t most) {
  struct bench b = bench_open(most);
  struct pair p[40];
  size_t waiting = 0;
  for (size_t i = 0; i < 40; i++) {
    p[i] = connect_pair(b.listen_fd, &b.addr);
    fetch__linger_close(b.linger, p[i].client);
    waiting += is_open(p[i].client);
  }
  fetch__linger_destroy(b.linger);
  for (size_t i = 0; i < 40; i++) {
    assert_false(is_open(p[i].client));
    close(p[i].server);
  }
  bench_close(&b);
  return waiting;
}

/* As many wait as the engine's descriptors leave room for, 32 at most: the next is closed at
 * once. */
static void test_few_wait_and_the_end_closes_them(void **state) {
  (void)state;
  assert_int_equal(waiting_of(FETCH__LINGER_MOST), 32);
  assert_int_equal(waiting_of(100), 32);
  assert_int_equal(waiting_of(5), 5);
  assert_int_equal(waiting_of(0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_closed_after_the_server),
      cmocka_unit_test(test_few_wait_and_the_end_closes_them),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
