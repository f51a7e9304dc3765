/* The event loop: one epoll set for every socket (curl's and c-ares's) and a short list of timers.
 * There are only a handful of timers (curl, c-ares, the scheduler), so a list scan beats a heap.
 * A wake is an eventfd in the set, written only when a flag says no wake is pending yet (libuv's
 * uv_async_send): a thousand wakes before the loop looks cost one write and one read. */
#include "loop/loop.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct loop_watch {
  int fd;
  bool dead;
  loop_io_cb cb;
  void *arg;
  struct loop_watch *next_dead;
};

struct loop_timer {
  double deadline;
  bool active;
  loop_timer_cb cb;
  void *arg;
  struct loop_timer *next;
};

struct event_loop {
  int epfd;
  struct loop_timer *timers;
  struct loop_watch *dead; /* unwatched during this batch, freed after it */
  loop_cb before_wait, woken;
  void *before_wait_arg, *woken_arg;
  int wake_fd;
  loop_watch *wake_watch;
  atomic_int wake_pending;
  pthread_mutex_t *wait_lock; /* loop_set_wait_lock: let go of during the wait */
};

static void on_wake_fd(void *arg, int fd, unsigned events) {
  (void)events;
  event_loop *loop = arg;
  uint64_t count;
  /* one read takes the whole count and zeroes it (eventfd(2)): a second would only say EAGAIN */
  ssize_t n = read(fd, &count, sizeof(count));
  (void)n; /* nothing to read (EAGAIN) is nothing lost */
  /* cleared before the callback: a wake sent while it runs brings it back */
  atomic_store(&loop->wake_pending, 0);
  if (loop->woken)
    loop->woken(loop->woken_arg);
}

core_rc loop_create(event_loop **out) {
  event_loop *loop = calloc(1, sizeof(*loop));
  if (!loop)
    return CORE_ENOMEM;
  loop->epfd = epoll_create1(EPOLL_CLOEXEC);
  loop->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  atomic_init(&loop->wake_pending, 0);
  core_rc rc =
      loop->epfd < 0 || loop->wake_fd < 0
          ? CORE_ESYS
          : loop_watch_fd(loop, loop->wake_fd, LOOP_READ, on_wake_fd, loop, &loop->wake_watch);
  if (rc != CORE_OK) { /* the watch's lack of memory is said as such */
    if (loop->epfd >= 0)
      close(loop->epfd);
    if (loop->wake_fd >= 0)
      close(loop->wake_fd);
    free(loop);
    return rc;
  }
  *out = loop;
  return CORE_OK;
}

void loop_before_wait(event_loop *loop, loop_cb cb, void *arg) {
  loop->before_wait = cb;
  loop->before_wait_arg = arg;
}

void loop_on_wake(event_loop *loop, loop_cb cb, void *arg) {
  loop->woken = cb;
  loop->woken_arg = arg;
}

void loop_wake(event_loop *loop) {
  if (atomic_exchange(&loop->wake_pending, 1))
    return; /* one is on its way */
  uint64_t one = 1;
  ssize_t n = write(loop->wake_fd, &one, sizeof(one));
  (void)n; /* EAGAIN: the counter is full, so a wake is pending anyway */
}

static void free_dead(event_loop *loop) {
  while (loop->dead) {
    struct loop_watch *w = loop->dead;
    loop->dead = w->next_dead;
    free(w);
  }
}

void loop_destroy(event_loop *loop) {
  if (!loop)
    return;
  loop_unwatch(loop, loop->wake_watch);
  close(loop->wake_fd);
  free_dead(loop);
  while (loop->timers) {
    struct loop_timer *t = loop->timers;
    loop->timers = t->next;
    free(t);
  }
  close(loop->epfd);
  free(loop);
}

static uint32_t to_epoll(unsigned events) {
  return (events & LOOP_READ ? EPOLLIN : 0) | (events & LOOP_WRITE ? EPOLLOUT : 0);
}

core_rc loop_watch_fd(event_loop *loop, int fd, unsigned events, loop_io_cb cb, void *arg,
                      loop_watch **out) {
  struct loop_watch *w = calloc(1, sizeof(*w));
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

core_rc loop_watch_set(event_loop *loop, loop_watch *watch, unsigned events) {
  struct epoll_event ev = {.events = to_epoll(events), .data.ptr = watch};
  return epoll_ctl(loop->epfd, EPOLL_CTL_MOD, watch->fd, &ev) == 0 ? CORE_OK : CORE_ESYS;
}

void loop_unwatch(event_loop *loop, loop_watch *watch) {
  if (!watch || watch->dead)
    return;
  /* the fd may be closed already (c-ares closes before telling): then epoll dropped it itself */
  epoll_ctl(loop->epfd, EPOLL_CTL_DEL, watch->fd, NULL);
  watch->dead = true;
  watch->next_dead = loop->dead;
  loop->dead = watch;
}

core_rc loop_timer_create(event_loop *loop, loop_timer_cb cb, void *arg, loop_timer **out) {
  struct loop_timer *t = calloc(1, sizeof(*t));
  if (!t)
    return CORE_ENOMEM;
  t->cb = cb;
  t->arg = arg;
  t->next = loop->timers;
  loop->timers = t;
  *out = t;
  return CORE_OK;
}

void loop_timer_start(loop_timer *timer, double deadline) {
  timer->deadline = deadline;
  timer->active = true;
}

void loop_timer_stop(loop_timer *timer) {
  timer->active = false;
}

void loop_timer_destroy(event_loop *loop, loop_timer *timer) {
  for (loop_timer **pp = &loop->timers; timer && *pp; pp = &(*pp)->next) {
    if (*pp == timer) {
      *pp = timer->next;
      free(timer);
      return;
    }
  }
}

void loop_set_wait_lock(event_loop *loop, pthread_mutex_t *lock) {
  loop->wait_lock = lock;
}

core_rc loop_run_once(event_loop *loop, double max_wait) {
  if (loop->before_wait)
    loop->before_wait(loop->before_wait_arg);
  double now = core_now();
  double wait = max_wait;
  for (struct loop_timer *t = loop->timers; t; t = t->next)
    if (t->active && t->deadline - now < wait)
      wait = t->deadline - now;
  int timeout_ms = wait <= 0 ? 0 : (int)ceil(wait * 1000.0);
  struct epoll_event events[256];
  if (loop->wait_lock)
    pthread_mutex_unlock(loop->wait_lock);
  int n = epoll_wait(loop->epfd, events, 256, timeout_ms);
  int wait_errno = errno;
  if (loop->wait_lock)
    pthread_mutex_lock(loop->wait_lock);
  if (n < 0 && wait_errno != EINTR) {
    errno = wait_errno;
    return CORE_ESYS;
  }
  for (int i = 0; i < n; i++) {
    struct loop_watch *w = events[i].data.ptr;
    if (w->dead)
      continue;
    unsigned ev = (events[i].events & (EPOLLIN | EPOLLHUP) ? LOOP_READ : 0) |
                  (events[i].events & EPOLLOUT ? LOOP_WRITE : 0) |
                  (events[i].events & (EPOLLERR | EPOLLHUP) ? LOOP_ERROR : 0);
    w->cb(w->arg, w->fd, ev);
  }
  /* timers fire once; a callback may re-arm its own timer or others */
  now = core_now();
  for (struct loop_timer *t = loop->timers; t; t = t->next) {
    if (t->active && t->deadline <= now) {
      t->active = false;
      t->cb(t->arg);
    }
  }
  free_dead(loop);
  return CORE_OK;
}
