/* cluster/cluster.c against a real redis-server on a loopback port chosen at run time: the
 * address as --cluster takes it, batches reaching their node whole and in order, a full outbox
 * sent without a flush, entries not acknowledged given again to a node that starts again, and a
 * Redis that is not there or goes away reported as an error with the batches it did not confirm
 * still held. */
#include "cluster/cluster.h"
#include "tests/support/redisd.h"

#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static void redis_start(struct redisd *r) {
  char why[256];
  if (!redisd_start(r, why, sizeof(why)))
    fail_msg("%s", why);
}

/* ---- a node ---- */

struct node {
  cluster *cl;
  char got[1 << 16];
  size_t got_len;
  int batches;
  char ids[16][64];
  char error[512];
};

static void on_batch(void *arg, const char *id, const char *lines, size_t len) {
  struct node *n = arg;
  assert_true(n->got_len + len < sizeof(n->got));
  memcpy(n->got + n->got_len, lines, len);
  n->got_len += len;
  n->got[n->got_len] = '\0';
  if (n->batches < 16)
    snprintf(n->ids[n->batches], sizeof(n->ids[0]), "%s", id);
  n->batches++;
}

static void on_error(void *arg, const char *message) {
  struct node *n = arg;
  assert_string_equal(n->error, ""); /* once */
  snprintf(n->error, sizeof(n->error), "%s", message);
}

static const struct cluster_handler *handler_of(struct node *n) {
  static _Thread_local struct cluster_handler h;
  h = (struct cluster_handler){.on_batch = on_batch, .on_error = on_error, .arg = n};
  return &h;
}

static core_rc node_start(event_loop *loop, int port, const char *job, int nodes, int index,
                          size_t batch_bytes, struct node *n, char *why) {
  memset(n, 0, sizeof(*n));
  struct cluster_options opt = {.nodes = nodes, .node = index, .batch_bytes = batch_bytes};
  snprintf(opt.address.host, sizeof(opt.address.host), "127.0.0.1");
  opt.address.port = port;
  snprintf(opt.address.job, sizeof(opt.address.job), "%s", job);
  return cluster_create(loop, &opt, handler_of(n), &n->cl, why, 256);
}

static void start_node(event_loop *loop, int port, const char *job, int nodes, int index,
                       size_t batch_bytes, struct node *n) {
  char why[256];
  assert_int_equal(node_start(loop, port, job, nodes, index, batch_bytes, n, why), CORE_OK);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Turns the loop until *done holds, for at most seconds; says whether it held. */
static bool run_until(event_loop *loop, bool (*done)(void *), void *arg, double seconds) {
  double end = now() + seconds;
  while (!done(arg)) {
    if (now() > end)
      return false;
    assert_int_equal(loop_run_once(loop, 0.02), CORE_OK);
  }
  return true;
}

struct want {
  struct node *n;
  size_t len;
};

static bool has_len(void *arg) {
  struct want *w = arg;
  return w->n->got_len >= w->len;
}

static bool has_error(void *arg) {
  return ((struct node *)arg)->error[0] != '\0';
}

static bool settled(void *arg) {
  return cluster_settled(((struct node *)arg)->cl);
}

static bool confirmed(void *arg) {
  return cluster_unconfirmed(((struct node *)arg)->cl) == 0;
}

/* ---- tests ---- */

static void test_address_as_the_option_takes_it(void **state) {
  (void)state;
  struct cluster_address a;
  const char *why;
  assert_int_equal(cluster_address_parse("redis://127.0.0.1:7000/crawl-1", &a, &why), CORE_OK);
  assert_string_equal(a.host, "127.0.0.1");
  assert_int_equal(a.port, 7000);
  assert_string_equal(a.job, "crawl-1");
  assert_int_equal(cluster_address_parse("redis://queue.example/j_2.x", &a, &why), CORE_OK);
  assert_string_equal(a.host, "queue.example");
  assert_int_equal(a.port, 6379);
  assert_string_equal(a.job, "j_2.x");
  assert_int_equal(cluster_address_parse("redis://[::1]:6380/j", &a, &why), CORE_OK);
  assert_string_equal(a.host, "::1");
  assert_int_equal(a.port, 6380);
  const char *bad[] = {"http://127.0.0.1/j", "redis://127.0.0.1", "redis://127.0.0.1/",
                       "redis:///j",         "redis://h:0/j",     "redis://h:65536/j",
                       "redis://h:12ab/j",   "redis://h:/j",      "redis://h/a/b",
                       "redis://h/a b",      "redis://[::1/j",    "redis://h:99999999999/j"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    why = NULL;
    if (cluster_address_parse(bad[i], &a, &why) != CORE_EINVAL)
      fail_msg("%s was taken", bad[i]);
    assert_non_null(why);
  }
  char long_job[100];
  snprintf(long_job, sizeof(long_job), "redis://h/%065d", 0);
  assert_int_equal(cluster_address_parse(long_job, &a, &why), CORE_EINVAL);
}

static void test_batches_reach_their_node_whole_and_in_order(void **state) {
  struct redisd *r = *state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node *n = calloc(3, sizeof(*n));
  for (int i = 0; i < 3; i++)
    start_node(loop, r->port, "order", 3, i, 0, &n[i]);
  const char *one = "L1 0 -1 - http://a.test/1\nL1 0 -1 - http://a.test/2\n";
  const char *two = "R0 3 1 http://b.test/ http://a.test/3\n";
  assert_int_equal(cluster_send(n[0].cl, 1, one, strlen(one), 0), CORE_OK);
  cluster_flush(n[0].cl);
  assert_int_equal(cluster_send(n[0].cl, 1, two, strlen(two), 0), CORE_OK);
  assert_int_equal(cluster_send(n[0].cl, 2, two, strlen(two), 0), CORE_OK);
  assert_int_equal(cluster_send(n[2].cl, 1, one, strlen(one), 0), CORE_OK);
  cluster_flush(n[0].cl);
  cluster_flush(n[2].cl);
  struct want w1 = {&n[1], 2 * strlen(one) + strlen(two)}, w2 = {&n[2], strlen(two)};
  assert_true(run_until(loop, has_len, &w1, 5));
  assert_true(run_until(loop, has_len, &w2, 5));
  assert_true(run_until(loop, confirmed, &n[0], 5));
  /* node 0's two batches in their order; node 2's may come before, after or between them */
  const char *first = strstr(n[1].got, one), *second = strstr(n[1].got, two);
  assert_non_null(first);
  assert_non_null(second);
  assert_int_equal(n[1].batches, 3);
  assert_int_equal(n[1].got_len, w1.len);
  assert_string_equal(n[2].got, two);
  assert_int_equal(n[0].got_len, 0);
  for (int i = 0; i < 3; i++)
    assert_string_equal(n[i].error, "");
  /* a node's own stream, or one that does not exist, takes nothing */
  assert_int_equal(cluster_send(n[0].cl, 0, one, strlen(one), 0), CORE_EINVAL);
  assert_int_equal(cluster_send(n[0].cl, 3, one, strlen(one), 0), CORE_EINVAL);
  assert_int_equal(cluster_send(n[0].cl, -1, one, strlen(one), 0), CORE_EINVAL);
  for (int i = 0; i < 3; i++)
    cluster_destroy(n[i].cl);
  free(n);
  loop_destroy(loop);
}

static void test_a_full_outbox_goes_without_a_flush(void **state) {
  struct redisd *r = *state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node *n = calloc(2, sizeof(*n));
  start_node(loop, r->port, "full", 2, 0, 100, &n[0]);
  start_node(loop, r->port, "full", 2, 1, 100, &n[1]);
  char line[64];
  size_t sent = 0;
  for (int i = 0; i < 10; i++) {
    int len = snprintf(line, sizeof(line), "L1 1 0 - http://x.test/page-%d\n", i);
    assert_int_equal(cluster_send(n[0].cl, 1, line, (size_t)len, 0), CORE_OK);
    sent += (size_t)len;
  }
  /* no flush: what passed 100 bytes is on its way, the rest waits for one */
  struct want w = {&n[1], 100};
  assert_true(run_until(loop, has_len, &w, 5));
  assert_true(n[1].got_len < sent);
  assert_true(n[1].batches >= 2);
  cluster_flush(n[0].cl);
  w.len = sent;
  assert_true(run_until(loop, has_len, &w, 5));
  assert_int_equal(n[1].got_len, sent);
  assert_non_null(strstr(n[1].got, "http://x.test/page-0\n"));
  assert_non_null(strstr(n[1].got, "http://x.test/page-9\n"));
  cluster_destroy(n[0].cl);
  cluster_destroy(n[1].cl);
  free(n);
  loop_destroy(loop);
}

static void test_entries_not_acknowledged_come_again(void **state) {
  struct redisd *r = *state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node *n = calloc(3, sizeof(*n));
  start_node(loop, r->port, "again", 2, 0, 0, &n[0]);
  start_node(loop, r->port, "again", 2, 1, 0, &n[1]);
  const char *a = "L1 0 -1 - http://y.test/a\n", *b = "L1 0 -1 - http://y.test/b\n";
  cluster_send(n[0].cl, 1, a, strlen(a), 0);
  cluster_flush(n[0].cl);
  cluster_send(n[0].cl, 1, b, strlen(b), 0);
  cluster_flush(n[0].cl);
  struct want w = {&n[1], strlen(a) + strlen(b)};
  assert_true(run_until(loop, has_len, &w, 5));
  assert_int_equal(n[1].batches, 2);
  assert_int_equal(cluster_ack(n[1].cl, n[1].ids[0]), CORE_OK); /* a is safe, b is not */
  /* the ack reaches Redis before the node goes: a third node on the job waits for it */
  const char *c = "L1 0 -1 - http://y.test/c\n";
  cluster_send(n[1].cl, 0, c, strlen(c), 0);
  cluster_flush(n[1].cl);
  struct want w0 = {&n[0], strlen(c)};
  assert_true(run_until(loop, has_len, &w0, 5));
  cluster_destroy(n[1].cl);

  /* node 1 again, as after a crash: b first, then what is new */
  start_node(loop, r->port, "again", 2, 1, 0, &n[2]);
  w = (struct want){&n[2], strlen(b)};
  assert_true(run_until(loop, has_len, &w, 5));
  assert_string_equal(n[2].got, b);
  const char *d = "L1 0 -1 - http://y.test/d\n";
  cluster_send(n[0].cl, 1, d, strlen(d), 0);
  cluster_flush(n[0].cl);
  w.len = strlen(b) + strlen(d);
  assert_true(run_until(loop, has_len, &w, 5));
  assert_int_equal(strncmp(n[2].got + strlen(b), d, strlen(d)), 0);
  assert_null(strstr(n[2].got, "http://y.test/a"));
  cluster_destroy(n[0].cl);
  cluster_destroy(n[2].cl);
  free(n);
  loop_destroy(loop);
}

static void test_no_redis_is_a_clear_error(void **state) {
  (void)state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node n;
  char why[512];
  int port = redisd_free_port(); /* nothing listens there */
  core_rc rc = node_start(loop, port, "none", 2, 0, 0, &n, why);
  if (rc == CORE_OK) {
    assert_true(run_until(loop, has_error, &n, 5));
    snprintf(why, sizeof(why), "%s", n.error);
    cluster_destroy(n.cl);
  } else {
    assert_int_equal(rc, CORE_ESYS);
  }
  char where[64];
  snprintf(where, sizeof(where), "Redis at 127.0.0.1:%d: cannot connect", port);
  if (!strstr(why, where))
    fail_msg("the error was '%s'", why);
  loop_destroy(loop);
}

struct held {
  int node;
  char lines[256];
  size_t len;
};

static void collect(void *arg, int node, const char *lines, size_t len) {
  struct held *h = arg;
  h->node = node;
  assert_true(h->len + len < sizeof(h->lines));
  memcpy(h->lines + h->len, lines, len);
  h->len += len;
}

static void test_redis_gone_keeps_what_it_did_not_confirm(void **state) {
  (void)state;
  struct redisd own;
  redis_start(&own);
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node n;
  start_node(loop, own.port, "gone", 2, 0, 0, &n);
  const char *a = "L1 0 -1 - http://z.test/a\n";
  cluster_send(n.cl, 1, a, strlen(a), 0);
  cluster_flush(n.cl);
  assert_true(run_until(loop, confirmed, &n, 5));
  redisd_stop(&own);
  const char *b = "L1 0 -1 - http://z.test/b\n";
  cluster_send(n.cl, 1, b, strlen(b), 0);
  cluster_flush(n.cl);
  assert_true(run_until(loop, has_error, &n, 5));
  char where[64];
  snprintf(where, sizeof(where), "Redis at 127.0.0.1:%d: ", own.port);
  if (!strstr(n.error, where))
    fail_msg("the error was '%s'", n.error);
  /* b was never confirmed: it is still held, for a checkpoint to keep */
  struct held held = {0};
  cluster_each_unconfirmed(n.cl, collect, &held);
  assert_int_equal(held.node, 1);
  assert_string_equal(held.lines, b);
  assert_int_equal(cluster_send(n.cl, 1, a, strlen(a), 0), CORE_ESYS);
  cluster_destroy(n.cl);
  loop_destroy(loop);
}

/* ---- the run's state ---- */

struct seen_view {
  bool got;
  struct cluster_view view;
};

static void on_view(void *arg, const struct cluster_view *view) {
  struct seen_view *v = arg;
  v->view = *view;
  v->got = true;
}

static bool view_came(void *arg) {
  return ((struct seen_view *)arg)->got;
}

/* The run's state as node n sees it now (asked after everything n sent before). */
static struct cluster_view view_from(event_loop *loop, struct node *n) {
  struct seen_view v = {0};
  assert_true(cluster_view(n->cl, on_view, &v));
  assert_true(run_until(loop, view_came, &v, 5));
  assert_true(v.view.consistent);
  return v.view;
}

/* Asks again until the view shows gate and done (another node's publish is on its own
 * connection), for at most 5 s. */
static struct cluster_view wait_view(event_loop *loop, struct node *n, int joined, int gate,
                                     bool done) {
  double end = now() + 5;
  struct cluster_view v;
  do {
    v = view_from(loop, n);
    if (v.joined == joined && v.gate == gate && v.done == done)
      return v;
    loop_run_once(loop, 0.01);
  } while (now() < end);
  fail_msg("the view stayed at %d joined, gate %d, done %d (wanted %d, %d, %d)", v.joined, v.gate,
           v.done, joined, gate, done);
  return v;
}

static void test_the_gate_and_the_end_across_nodes(void **state) {
  struct redisd *r = *state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node *n = calloc(3, sizeof(*n));
  for (int i = 0; i < 3; i++)
    start_node(loop, r->port, "gate", 3, i, 0, &n[i]);
  /* nobody has joined: every depth is held, and the run is not done */
  struct cluster_view v = view_from(loop, &n[0]);
  assert_int_equal(v.joined, 0);
  assert_int_equal(v.gate, 0);
  assert_false(v.done);
  /* node 0 has the seed at depth 0; the others have nothing yet */
  assert_int_equal(cluster_publish(n[0].cl, 0, false, false), CORE_OK);
  assert_int_equal(cluster_publish(n[1].cl, INT_MAX, true, false), CORE_OK);
  v = wait_view(loop, &n[0], 2, 0, false);
  assert_int_equal(v.joined, 2);
  /* a node that has not joined keeps the run from ending, even with the others idle */
  assert_int_equal(cluster_publish(n[0].cl, INT_MAX, true, false), CORE_OK);
  v = view_from(loop, &n[0]);
  assert_false(v.done);
  assert_int_equal(v.gate, 0);
  assert_int_equal(cluster_publish(n[2].cl, INT_MAX, true, false), CORE_OK);
  v = wait_view(loop, &n[0], 3, INT_MAX, true);
  assert_int_equal(v.joined, 3);

  /* node 0 finds links for node 1 (held at depth 2) and node 2 (at 4), then is idle: they count
   * from the moment they are appended */
  assert_int_equal(cluster_publish(n[0].cl, 1, false, false), CORE_OK);
  const char *l1 = "L1 3 0 - http://n1.test/\n", *l2 = "L1 5 0 - http://n2.test/\n";
  assert_int_equal(cluster_send(n[0].cl, 1, l1, strlen(l1), 2), CORE_OK);
  assert_int_equal(cluster_send(n[0].cl, 2, l2, strlen(l2), 4), CORE_OK);
  cluster_flush(n[0].cl);
  assert_int_equal(cluster_publish(n[0].cl, INT_MAX, true, false), CORE_OK);
  v = view_from(loop, &n[0]);
  assert_int_equal(v.gate, 2);
  assert_false(v.done);
  assert_int_equal(v.in_transit, 2);
  struct want w1 = {&n[1], strlen(l1)}, w2 = {&n[2], strlen(l2)};
  assert_true(run_until(loop, has_len, &w1, 5));
  assert_true(run_until(loop, has_len, &w2, 5));
  /* given to their nodes, they still count until those publish */
  v = view_from(loop, &n[0]);
  assert_int_equal(v.gate, 2);
  assert_int_equal(v.in_transit, 2);
  /* node 1 has queued its link at depth 3: its own gate holds it now */
  assert_int_equal(cluster_publish(n[1].cl, 3, false, false), CORE_OK);
  v = wait_view(loop, &n[0], 3, 3, false);
  assert_int_equal(v.in_transit, 1);
  assert_int_equal(cluster_publish(n[2].cl, 5, false, false), CORE_OK);
  v = wait_view(loop, &n[0], 3, 3, false);
  assert_int_equal(cluster_publish(n[1].cl, INT_MAX, true, false), CORE_OK);
  v = wait_view(loop, &n[0], 3, 5, false);
  assert_int_equal(cluster_publish(n[2].cl, INT_MAX, true, false), CORE_OK);
  v = wait_view(loop, &n[0], 3, INT_MAX, true);
  assert_int_equal(v.in_transit, 0);
  for (int i = 0; i < 3; i++) {
    assert_string_equal(n[i].error, "");
    cluster_destroy(n[i].cl);
  }
  free(n);
  loop_destroy(loop);
}

static void test_an_entry_given_again_counts_once(void **state) {
  struct redisd *r = *state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node *n = calloc(3, sizeof(*n));
  start_node(loop, r->port, "once", 2, 0, 0, &n[0]);
  start_node(loop, r->port, "once", 2, 1, 0, &n[1]);
  const char *l = "L1 2 0 - http://once.test/\n";
  assert_int_equal(cluster_send(n[0].cl, 1, l, strlen(l), 1), CORE_OK);
  cluster_flush(n[0].cl);
  assert_int_equal(cluster_publish(n[0].cl, INT_MAX, true, false), CORE_OK);
  struct want w = {&n[1], strlen(l)};
  assert_true(run_until(loop, has_len, &w, 5));
  /* taken and published, but not acknowledged (not in a checkpoint yet) when node 1 dies */
  assert_int_equal(cluster_publish(n[1].cl, 1, false, false), CORE_OK);
  wait_view(loop, &n[0], 2, 1, false);
  cluster_destroy(n[1].cl);
  start_node(loop, r->port, "once", 2, 1, 0, &n[2]);
  w = (struct want){&n[2], strlen(l)};
  assert_true(run_until(loop, has_len, &w, 5));
  assert_string_equal(n[2].got, l);
  assert_int_equal(cluster_publish(n[2].cl, INT_MAX, true, false), CORE_OK);
  struct cluster_view v = wait_view(loop, &n[0], 2, INT_MAX, true);
  assert_int_equal(v.in_transit, 0);
  /* acknowledged, it is gone for good */
  assert_int_equal(cluster_ack(n[2].cl, n[2].ids[0]), CORE_OK);
  assert_true(run_until(loop, settled, &n[2], 5));
  cluster_destroy(n[2].cl);
  start_node(loop, r->port, "once", 2, 1, 0, &n[1]);
  for (int i = 0; i < 20; i++)
    loop_run_once(loop, 0.01);
  assert_int_equal(n[1].got_len, 0);
  v = view_from(loop, &n[0]);
  assert_int_equal(v.in_transit, 0);
  cluster_destroy(n[0].cl);
  cluster_destroy(n[1].cl);
  free(n);
  loop_destroy(loop);
}

/* A node with a checkpoint acknowledges what the checkpoint holds (cluster_ack_mark before it,
 * cluster_ack_through once it is safe), and nothing given after the mark: started again, it is
 * given only that. Its idleness waits for what it is given again. */
static void test_acknowledged_once_a_checkpoint_holds_it(void **state) {
  struct redisd *r = *state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node *n = calloc(3, sizeof(*n));
  start_node(loop, r->port, "mark", 2, 0, 0, &n[0]);
  start_node(loop, r->port, "mark", 2, 1, 0, &n[1]);
  const char *a = "L1 1 0 - http://a.test/\n", *b = "L1 1 0 - http://b.test/\n";
  assert_int_equal(cluster_send(n[0].cl, 1, a, strlen(a), 0), CORE_OK);
  cluster_flush(n[0].cl);
  struct want w = {&n[1], strlen(a)};
  assert_true(run_until(loop, has_len, &w, 5));
  unsigned long mark = cluster_ack_mark(n[1].cl); /* a checkpoint begins: it holds a */
  assert_int_equal(cluster_send(n[0].cl, 1, b, strlen(b), 0), CORE_OK);
  cluster_flush(n[0].cl);
  w.len = strlen(a) + strlen(b);
  assert_true(run_until(loop, has_len, &w, 5));
  /* safe on disk before node 1 published a: it is acknowledged once the publish counts it */
  cluster_ack_through(n[1].cl, mark);
  assert_int_equal(cluster_publish(n[1].cl, 0, false, false), CORE_OK);
  assert_true(run_until(loop, settled, &n[1], 5));
  cluster_destroy(n[1].cl);
  start_node(loop, r->port, "mark", 2, 1, 0, &n[2]);
  assert_int_equal(cluster_publish(n[2].cl, INT_MAX, true, false), CORE_OK);
  w = (struct want){&n[2], strlen(b)};
  assert_true(run_until(loop, has_len, &w, 5));
  assert_string_equal(n[2].got, b);
  assert_int_equal(n[2].batches, 1);
  /* b taken (its link queued and done), and counted once; the idleness held back while it was
   * read again is published once the history has been read */
  assert_int_equal(cluster_publish(n[2].cl, INT_MAX, true, false), CORE_OK);
  assert_int_equal(cluster_publish(n[0].cl, INT_MAX, true, false), CORE_OK);
  struct cluster_view v = wait_view(loop, &n[0], 2, INT_MAX, true);
  assert_int_equal(v.in_transit, 0);
  for (int i = 0; i < 3; i += 2) {
    assert_string_equal(n[i].error, "");
    cluster_destroy(n[i].cl);
  }
  free(n);
  loop_destroy(loop);
}

static void test_nodes_out_of_range(void **state) {
  (void)state;
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct node n;
  char why[256];
  assert_int_equal(node_start(loop, 1, "j", 0, 0, 0, &n, why), CORE_EINVAL);
  assert_int_equal(node_start(loop, 1, "j", 3, 3, 0, &n, why), CORE_EINVAL);
  assert_int_equal(node_start(loop, 1, "j", 3, -1, 0, &n, why), CORE_EINVAL);
  assert_int_equal(node_start(loop, 1, "j", CLUSTER_MAX_NODES + 1, 0, 0, &n, why), CORE_EINVAL);
  loop_destroy(loop);
}

static int group_setup(void **state) {
  struct redisd *r = calloc(1, sizeof(*r));
  redis_start(r);
  *state = r;
  return 0;
}

static int group_teardown(void **state) {
  redisd_stop(*state);
  free(*state);
  return 0;
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_address_as_the_option_takes_it),
      cmocka_unit_test(test_batches_reach_their_node_whole_and_in_order),
      cmocka_unit_test(test_a_full_outbox_goes_without_a_flush),
      cmocka_unit_test(test_entries_not_acknowledged_come_again),
      cmocka_unit_test(test_no_redis_is_a_clear_error),
      cmocka_unit_test(test_redis_gone_keeps_what_it_did_not_confirm),
      cmocka_unit_test(test_the_gate_and_the_end_across_nodes),
      cmocka_unit_test(test_an_entry_given_again_counts_once),
      cmocka_unit_test(test_acknowledged_once_a_checkpoint_holds_it),
      cmocka_unit_test(test_nodes_out_of_range),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
