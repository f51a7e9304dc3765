/* The event loop: one epoll set for every socket (curl's and c-ares's) and a short list of timers.
 * There are only a handful of timers (curl, c-ares, the scheduler), so a list scan beats a heap. */
#include "fetch/fetch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

struct fetch_watch {
  int fd;
  bool dead;
  fetch_io_cb cb;
  void *arg;
  struct fetch_watch *next_dead;
};

struct fetch_timer {
  double deadline;
  bool active;
  fetch_timer_cb cb;
  void *arg;
  struct fetch_timer *next;
};

struct fetch_loop {
  int epfd;
  struct fetch_timer *timers;
  struct fetch_watch *dead; /* unwatched during this batch, freed after it */
};

core_rc fetch_loop_create(fetch_loop **out) {
  fetch_loop *loop = calloc(1, sizeof(*loop));
  if (!loop)
    return CORE_ENOMEM;
  loop->epfd = epoll_create1(EPOLL_CLOEXEC);
  if (loop->epfd < 0) {
    free(loop);
    return CORE_ESYS;
  }
  *out = loop;
  return CORE_OK;
}

static void free_dead(fetch_loop *loop) {
  while (loop->dead) {
    struct fetch_watch *w = loop->dead;
    loop->dead = w->next_dead;
    free(w);
  }
}

void fetch_loop_destroy(fetch_loop *loop) {
  if (!loop)
    return;
  free_dead(loop);
  while (loop->timers) {
    struct fetch_timer *t = loop->timers;
    loop->timers = t->next;
    free(t);
  }
  close(loop->epfd);
  free(loop);
}

static uint32_t to_epoll(unsigned events) {
  return (events & FETCH_READ ? EPOLLIN : 0) | (events & FETCH_WRITE ? EPOLLOUT : 0);
}

core_rc fetch_loop_watch(fetch_loop *loop, int fd, unsigned events, fetch_io_cb cb, void *arg,
                         fetch_watch **out) {
  struct fetch_watch *w = calloc(1, sizeof(*w));
  if (!w)
    return CORE_ENOMEM;
  w->fd = fd;
  w->cb = cb;
  w->arg = arg;
  struct epoll_event ev = {.events = to_epoll(events), .data.ptr = w};
  if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
    free(w);
    return CORE_ESYS;
  }
  *out = w;
  return CORE_OK;
}

core_rc fetch_loop_watch_set(fetch_loop *loop, fetch_watch *watch, unsigned events) {
  struct epoll_event ev = {.events = to_epoll(events), .data.ptr = watch};
  return epoll_ctl(loop->epfd, EPOLL_CTL_MOD, watch->fd, &ev) == 0 ? CORE_OK : CORE_ESYS;
}

void fetch_loop_unwatch(fetch_loop *loop, fetch_watch *watch) {
  if (!watch || watch->dead)
    return;
  /* the fd may be closed already (c-ares closes before telling): then epoll dropped it itself */
  epoll_ctl(loop->epfd, EPOLL_CTL_DEL, watch->fd, NULL);
  watch->dead = true;
  watch->next_dead = loop->dead;
  loop->dead = watch;
}

core_rc fetch_loop_timer(fetch_loop *loop, fetch_timer_cb cb, void *arg, fetch_timer **out) {
  struct fetch_timer *t = calloc(1, sizeof(*t));
  if (!t)
    return CORE_ENOMEM;
  t->cb = cb;
  t->arg = arg;
  t->next = loop->timers;
  loop->timers = t;
  *out = t;
  return CORE_OK;
}

void fetch_timer_start(fetch_timer *timer, double deadline) {
  timer->deadline = deadline;
  timer->active = true;
}

void fetch_timer_stop(fetch_timer *timer) {
  timer->active = false;
}

core_rc fetch_loop_run_once(fetch_loop *loop, double max_wait) {
  double now = core_now();
  double wait = max_wait;
  for (struct fetch_timer *t = loop->timers; t; t = t->next)
    if (t->active && t->deadline - now < wait)
      wait = t->deadline - now;
  int timeout_ms = wait <= 0 ? 0 : (int)ceil(wait * 1000.0);
  struct epoll_event events[256];
  int n = epoll_wait(loop->epfd, events, 256, timeout_ms);
  if (n < 0 && errno != EINTR)
    return CORE_ESYS;
  for (int i = 0; i < n; i++) {
    struct fetch_watch *w = events[i].data.ptr;
    if (w->dead)
      continue;
    unsigned ev = (events[i].events & (EPOLLIN | EPOLLHUP) ? FETCH_READ : 0) |
                  (events[i].events & EPOLLOUT ? FETCH_WRITE : 0) |
                  (events[i].events & (EPOLLERR | EPOLLHUP) ? FETCH_ERROR : 0);
    w->cb(w->arg, w->fd, ev);
  }
  /* timers fire once; a callback may re-arm its own timer or others */
  now = core_now();
  for (struct fetch_timer *t = loop->timers; t; t = t->next) {
    if (t->active && t->deadline <= now) {
      t->active = false;
      t->cb(t->arg);
    }
  }
  free_dead(loop);
  return CORE_OK;
}
