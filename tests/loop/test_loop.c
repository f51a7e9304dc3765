/* loop/loop.c: watches, timers (also destroyed), the hook before each wait, and wakes sent from
 * another thread, which end a wait at once and coalesce. */
#include "loop/loop.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

struct counts {
  int io, timer, before, woken;
  unsigned last_events;
};

static void on_io(void *arg, int fd, unsigned events) {
  struct counts *c = arg;
  char buf[16];
  ssize_t n = read(fd, buf, sizeof(buf)); /* one byte was written */
  (void)n;
  c->io++;
  c->last_events = events;
}

static void on_timer(void *arg) {
  ((struct counts *)arg)->timer++;
}

static void on_before(void *arg) {
  ((struct counts *)arg)->before++;
}

static void on_woken(void *arg) {
  ((struct counts *)arg)->woken++;
}

static void test_watch_and_timers(void **state) {
  (void)state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct counts c = {0};
  int p[2];
  assert_int_equal(pipe(p), 0);
  loop_watch *w;
  assert_int_equal(loop_watch_fd(loop, p[0], LOOP_READ, on_io, &c, &w), CORE_OK);
  loop_timer *soon, *gone;
  assert_int_equal(loop_timer_create(loop, on_timer, &c, &soon), CORE_OK);
  assert_int_equal(loop_timer_create(loop, on_timer, &c, &gone), CORE_OK);
  loop_before_wait(loop, on_before, &c);
  assert_int_equal(write(p[1], "x", 1), 1);
  assert_int_equal(loop_run_once(loop, 1.0), CORE_OK);
  assert_int_equal(c.io, 1);
  assert_true(c.last_events & LOOP_READ);
  assert_int_equal(c.before, 1);
  /* a destroyed timer never fires; the other one fires once, and the wait ends for it */
  loop_timer_start(soon, core_now() + 0.02);
  loop_timer_start(gone, core_now() + 0.01);
  loop_timer_destroy(loop, gone);
  double t0 = core_now();
  assert_int_equal(loop_run_once(loop, 5.0), CORE_OK);
  assert_true(core_now() - t0 < 1.0);
  assert_int_equal(c.timer, 1);
  assert_int_equal(loop_run_once(loop, 0.01), CORE_OK);
  assert_int_equal(c.timer, 1);
  assert_int_equal(c.before, 3);
  loop_unwatch(loop, w);
  assert_int_equal(write(p[1], "y", 1), 1);
  assert_int_equal(loop_run_once(loop, 0.01), CORE_OK);
  assert_int_equal(c.io, 1); /* unwatched */
  close(p[0]);
  close(p[1]);
  loop_destroy(loop);
}

struct waker {
  event_loop *loop;
  int wakes;
  useconds_t delay;
};

static void *wake_later(void *arg) {
  struct waker *k = arg;
  usleep(k->delay);
  for (int i = 0; i < k->wakes; i++)
    loop_wake(k->loop);
  return NULL;
}

static void test_wake_from_another_thread(void **state) {
  (void)state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct counts c = {0};
  loop_on_wake(loop, on_woken, &c);
  /* a wait of 10 s ends as soon as the other thread wakes the loop, and 1,000 wakes sent before
   * the loop looks are one */
  struct waker k = {loop, 1000, 50000};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, wake_later, &k), 0);
  double t0 = core_now();
  while (c.woken == 0 && core_now() - t0 < 10)
    assert_int_equal(loop_run_once(loop, 10.0), CORE_OK);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_true(core_now() - t0 < 5.0);
  assert_int_equal(loop_run_once(loop, 0.05), CORE_OK);
  assert_true(c.woken >= 1 && c.woken <= 2); /* one, or two if the loop looked midway */
  int before = c.woken;
  assert_int_equal(loop_run_once(loop, 0.05), CORE_OK);
  assert_int_equal(c.woken, before); /* nothing pending any more */
  /* a wake sent while nothing waits is kept for the next wait */
  loop_wake(loop);
  assert_int_equal(loop_run_once(loop, 5.0), CORE_OK);
  assert_int_equal(c.woken, before + 1);
  loop_destroy(loop);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_watch_and_timers),
      cmocka_unit_test(test_wake_from_another_thread),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
