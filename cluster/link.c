/* cluster/link.c: a connection to Redis driven by the caller's event loop (hiredis's async
 * event hooks become one loop watch per connection), and what a cluster does when Redis fails
 * it: an error reply fails the cluster once, a lost connection or a loading Redis is waited for
 * (cluster.c's on_retry tries again). */
#include "cluster/cluster-int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

static void update_watch(struct redis_link *l) {
  if (!l->want || l->fd < 0) {
    if (l->watch) {
      loop_unwatch(l->loop, l->watch);
      l->watch = NULL;
    }
    return;
  }
  if (l->watch)
    loop_watch_set(l->loop, l->watch, l->want);
}

static void on_link_io(void *arg, int fd, unsigned events) {
  (void)fd;
  struct redis_link *l = arg;
  /* an error or hang-up is handled by whichever direction hiredis waits on: it sees it there */
  if (l->ac && (l->want & LOOP_WRITE) && (events & (LOOP_WRITE | LOOP_ERROR)))
    redisAsyncHandleWrite(l->ac);
  if (l->ac && (l->want & LOOP_READ) && (events & (LOOP_READ | LOOP_ERROR)))
    redisAsyncHandleRead(l->ac);
}

static void want_events(struct redis_link *l, unsigned want) {
  l->want = want;
  if (want && !l->watch && l->fd >= 0) {
    if (loop_watch_fd(l->loop, l->fd, want, on_link_io, l, &l->watch))
      l->watch = NULL; /* cannot happen but by ENOMEM; the command then never completes */
    return;
  }
  update_watch(l);
}

static void ev_add_read(void *data) {
  struct redis_link *l = data;
  want_events(l, l->want | LOOP_READ);
}

static void ev_del_read(void *data) {
  struct redis_link *l = data;
  want_events(l, l->want & ~(unsigned)LOOP_READ);
}

static void ev_add_write(void *data) {
  struct redis_link *l = data;
  want_events(l, l->want | LOOP_WRITE);
}

static void ev_del_write(void *data) {
  struct redis_link *l = data;
  want_events(l, l->want & ~(unsigned)LOOP_WRITE);
}

static void ev_cleanup(void *data) {
  struct redis_link *l = data;
  want_events(l, 0);
  l->ac = NULL;
}

/* ---- failing once ---- */

void cluster__fail(cluster *cl, const char *what, const char *detail) {
  if (cl->failed || cl->destroying)
    return;
  cl->failed = true;
  char message[1024];
  snprintf(message, sizeof(message), "Redis at %s:%d: %s%s%s", cl->opt.address.host,
           cl->opt.address.port, what, detail ? ": " : "", detail ? detail : "");
  if (cl->handler.on_error)
    cl->handler.on_error(cl->handler.arg, message);
}

/* A reply that is no reply (the connection went), or Redis loading its data, loses Redis for a
 * while (lost); any other error reply fails the cluster. */
bool cluster__reply_ok(cluster *cl, const redisReply *reply, const char *command) {
  if (cl->destroying)
    return false;
  if (!reply) {
    cluster__lost(cl, "the connection was lost during", command);
    return false;
  }
  if (reply->type == REDIS_REPLY_ERROR && !strncmp(reply->str, "LOADING", 7)) {
    cluster__lost(cl, "it is loading its data", NULL);
    return false;
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    char what[64];
    snprintf(what, sizeof(what), "%s was refused", command);
    cluster__fail(cl, what, reply->str);
    return false;
  }
  return true;
}

static void on_connect(const redisAsyncContext *ac, int status) {
  struct redis_link *l = ac->data;
  if (status == REDIS_OK) {
    l->connected = true;
    return;
  }
  cluster__lost(l->cl, "cannot connect", ac->errstr);
}

/* hiredis 0.14 says REDIS_OK only of a link freed by link_close (redisAsyncFree), as the cluster
 * ends or a try to reach Redis again begins: nothing is lost then. Redis closing the connection
 * is an error (its end of file). */
static void on_disconnect(const redisAsyncContext *ac, int status) {
  struct redis_link *l = ac->data;
  l->ac = NULL;
  if (status != REDIS_OK)
    cluster__lost(l->cl, "the connection was lost", ac->errstr);
}

core_rc cluster__link_open(cluster *cl, struct redis_link *l, char *why, size_t why_len) {
  l->cl = cl;
  l->loop = cl->loop;
  l->fd = -1;
  redisAsyncContext *ac = redisAsyncConnect(cl->opt.address.host, cl->opt.address.port);
  if (!ac)
    return CORE_ENOMEM;
  if (ac->err) {
    snprintf(why, why_len, "Redis at %s:%d: cannot connect: %s", cl->opt.address.host,
             cl->opt.address.port, ac->errstr);
    redisAsyncFree(ac);
    return CORE_ESYS;
  }
  l->ac = ac;
  l->fd = ac->c.fd;
  ac->data = l;
  ac->ev.data = l;
  ac->ev.addRead = ev_add_read;
  ac->ev.delRead = ev_del_read;
  ac->ev.addWrite = ev_add_write;
  ac->ev.delWrite = ev_del_write;
  ac->ev.cleanup = ev_cleanup;
  redisAsyncSetConnectCallback(ac, on_connect);
  redisAsyncSetDisconnectCallback(ac, on_disconnect);
  return CORE_OK;
}

void cluster__link_close(struct redis_link *l) {
  if (l->ac)
    redisAsyncFree(l->ac); /* its callbacks see cl->destroying and do nothing */
  l->ac = NULL;
  want_events(l, 0);
}

/* Redis does not answer: the connection went, or it is loading its data. With opt.wait the
 * cluster tries again (on_retry) until it answers or the wait runs out; without, it fails. Called
 * from inside hiredis's callbacks too: the links are closed and opened again by the timer. */
double cluster_next_pause(double pause) {
  if (pause <= 0)
    return 0.1;
  return pause * 2 > 2 ? 2 : pause * 2;
}

void cluster__lost(cluster *cl, const char *what, const char *detail) {
  if (cl->failed || cl->destroying)
    return;
  if (!cl->retry) { /* --cluster-wait 0: made without the timer, nothing is waited for */
    cluster__fail(cl, what, detail);
    return;
  }
  if (!cl->reconnecting) {
    cl->reconnecting = true;
    cl->lost_at = core_now();
    cl->pause = cluster_next_pause(0);
    snprintf(cl->lost_why, sizeof(cl->lost_why), "%s%s%s", what, detail ? ": " : "",
             detail ? detail : "");
    char message[600];
    snprintf(message, sizeof(message), "Redis at %s:%d: %s", cl->opt.address.host,
             cl->opt.address.port, cl->lost_why);
    if (cl->handler.on_wait)
      cl->handler.on_wait(cl->handler.arg, message);
    loop_timer_start(cl->retry, core_now()); /* the links are closed there, not in a callback */
    return;
  }
  if (cl->back_asked) { /* this try failed: the next one after the pause */
    cl->back_asked = false;
    loop_timer_start(cl->retry, core_now() + cl->pause);
    cl->pause = cluster_next_pause(cl->pause);
  }
}
