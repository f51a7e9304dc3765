/* Sockets curl has closed whose server is yet to close its side. A request after which the
 * engine closes its connection says "Connection: close" (engine.c), and the server closes right
 * after its response; but curl closes the socket as soon as it has read the response, and where
 * that comes before the server's FIN (a server descheduled between its last write and its close,
 * a FIN a packet behind the data) the crawl's side still closes first and keeps the TIME_WAIT: a
 * source port held for a minute. So a socket whose connection is still open both ways stays open
 * a little longer, watched, and is closed when the server has closed (it turns readable: its FIN,
 * or data, which makes our close a reset), after LINGER_SECONDS, or at once when as many
 * already wait as the engine's descriptors leave room for (FETCH__LINGER_MOST at most;
 * doc/design.md, Connections). */
#include "fetch/fetch-int.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LINGER_SECONDS 1.0

struct lingering {
  int fd;
  double deadline;
  loop_watch *watch;
};

struct fetch__linger {
  event_loop *loop;
  loop_timer *timer;
  struct lingering waiting[FETCH__LINGER_MOST]; /* in the order they came: deadlines' order */
  size_t count, most;
};

static void close_waiting(struct fetch__linger *l, size_t i) {
  loop_unwatch(l->loop, l->waiting[i].watch);
  close(l->waiting[i].fd);
  memmove(&l->waiting[i], &l->waiting[i + 1], (l->count - i - 1) * sizeof(*l->waiting));
  l->count--;
}

static void arm(struct fetch__linger *l) {
  if (l->count)
    loop_timer_start(l->timer, l->waiting[0].deadline);
  else
    loop_timer_stop(l->timer);
}

static void on_ready(void *arg, int fd, unsigned events) {
  (void)events;
  struct fetch__linger *l = arg;
  for (size_t i = 0; i < l->count; i++) {
    if (l->waiting[i].fd == fd) {
      close_waiting(l, i);
      break;
    }
  }
  arm(l);
}

static void on_deadline(void *arg) {
  struct fetch__linger *l = arg;
  double now = core_now();
  while (l->count && l->waiting[0].deadline <= now + 0.001)
    close_waiting(l, 0);
  arm(l);
}

core_rc fetch__linger_create(event_loop *loop, size_t most, struct fetch__linger **out) {
  struct fetch__linger *l = calloc(1, sizeof(*l));
  if (!l)
    return CORE_ENOMEM;
  l->loop = loop;
  l->most = most < FETCH__LINGER_MOST ? most : FETCH__LINGER_MOST;
  if (loop_timer_create(loop, on_deadline, l, &l->timer) != CORE_OK) {
    free(l);
    return CORE_ENOMEM;
  }
  *out = l;
  return CORE_OK;
}

/* Whether fd is a TCP connection open both ways: one the server closed is in CLOSE_WAIT (our
 * close is then no active close), one never made (a connect given up) is not ESTABLISHED. */
static bool open_both_ways(int fd) {
  struct tcp_info info;
  socklen_t len = sizeof(info);
  return getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0 &&
         len >= offsetof(struct tcp_info, tcpi_state) + sizeof(info.tcpi_state) &&
         info.tcpi_state == TCP_ESTABLISHED;
}

void fetch__linger_close(struct fetch__linger *l, int fd) {
  if (!l || l->count >= l->most || !open_both_ways(fd)) {
    close(fd);
    return;
  }
  struct lingering *w = &l->waiting[l->count];
  if (loop_watch_fd(l->loop, fd, LOOP_READ, on_ready, l, &w->watch) != CORE_OK) {
    close(fd);
    return;
  }
  w->fd = fd;
  w->deadline = core_now() + LINGER_SECONDS;
  if (l->count++ == 0)
    arm(l);
}

void fetch__linger_destroy(struct fetch__linger *l) {
  if (!l)
    return;
  while (l->count)
    close_waiting(l, l->count - 1);
  loop_timer_stop(l->timer); /* the loop frees it, as the engine's own */
  free(l);
}
