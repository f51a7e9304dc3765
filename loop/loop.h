/* loop: one event loop per thread: fd watches on an epoll set, timers, a hook that runs before
 * each wait, and a wakeup that another thread may send (an eventfd, coalesced). */
#ifndef CRAWL_LOOP_H
#define CRAWL_LOOP_H

#include "core/core.h"

#include <pthread.h>

enum { LOOP_READ = 1, LOOP_WRITE = 2, LOOP_ERROR = 4 };

typedef struct event_loop event_loop;
typedef struct loop_watch loop_watch;
typedef struct loop_timer loop_timer;
typedef void (*loop_io_cb)(void *arg, int fd, unsigned events);
typedef void (*loop_timer_cb)(void *arg);
typedef void (*loop_cb)(void *arg);

core_rc loop_create(event_loop **out);
/* Frees the loop, its watches and its timers. */
void loop_destroy(event_loop *loop);

/* The watch is owned by the loop; it stays valid until loop_unwatch. */
core_rc loop_watch_fd(event_loop *loop, int fd, unsigned events, loop_io_cb cb, void *arg,
                      loop_watch **out);
core_rc loop_watch_set(event_loop *loop, loop_watch *watch, unsigned events);
/* Stops the watch at once; its memory is freed after the current batch of events, so a reused fd
 * number never reaches a stale owner. */
void loop_unwatch(event_loop *loop, loop_watch *watch);

/* Timers are owned by the loop: freed with it, or by loop_timer_destroy. */
core_rc loop_timer_create(event_loop *loop, loop_timer_cb cb, void *arg, loop_timer **out);
/* Fires once at deadline (core_now() seconds), replacing any earlier setting. */
void loop_timer_start(loop_timer *timer, double deadline);
void loop_timer_stop(loop_timer *timer);
/* Stops and frees the timer (NULL is fine). Not from inside its own callback. */
void loop_timer_destroy(event_loop *loop, loop_timer *timer);

/* cb runs at the start of every loop_run_once, before the wait is worked out: where work that
 * events made ready is started (Redis's beforeSleep). NULL removes it. */
void loop_before_wait(event_loop *loop, loop_cb cb, void *arg);
/* cb runs on the loop's thread after loop_wake (once however many wakes came). */
void loop_on_wake(event_loop *loop, loop_cb cb, void *arg);
/* Ends the loop's current or next wait soon. The one call that is safe from any thread. */
void loop_wake(event_loop *loop);

/* lock (borrowed until the loop is destroyed; NULL for none) is held by the loop's thread while
 * it runs, and let go of only while loop_run_once waits: another thread that takes it finds the
 * loop between two batches of callbacks, and holds it there until it lets go. */
void loop_set_wait_lock(event_loop *loop, pthread_mutex_t *lock);

/* Waits up to max_wait seconds (or to the earliest timer, or a wake), then runs the ready
 * callbacks. */
core_rc loop_run_once(event_loop *loop, double max_wait);

#endif
