/* cluster/job.c: the job as a whole: -n's pages leased across nodes, a node joining (the
 * options every node must share), the job marked ended, and its keys forgotten. */
#include "cluster/cluster-int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

void cluster_set_pages(cluster *cl, long pages) {
  cl->pages = pages;
}

struct lease_call {
  cluster *cl;
  void (*cb)(void *arg, long granted);
  void *arg;
};

static void on_leased(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  struct lease_call *call = privdata;
  const redisReply *reply = r;
  if (cluster__reply_ok(call->cl, reply, "the lease of pages") && call->cb)
    call->cb(call->arg, reply->type == REDIS_REPLY_INTEGER ? (long)reply->integer : 0);
  else if (call->cl->reconnecting && call->cb) /* none granted: asked again later */
    call->cb(call->arg, 0);
  free(call);
}

core_rc cluster_lease(cluster *cl, long limit, long change, void (*cb)(void *arg, long granted),
                      void *arg) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return CORE_ESYS;
  struct lease_call *call = malloc(sizeof(*call));
  if (!call)
    return CORE_ENOMEM;
  *call = (struct lease_call){cl, cb, arg};
  char key[KEY_MAX], node[16], change_text[24], limit_text[24];
  snprintf(key, sizeof(key), "crawl:{%s}:pages", cl->opt.address.job);
  snprintf(node, sizeof(node), "%d", cl->opt.node);
  snprintf(change_text, sizeof(change_text), "%ld", change);
  snprintf(limit_text, sizeof(limit_text), "%ld", limit);
  const char *argv[] = {"EVAL", cluster__lease_script, "1", key, node, change_text, limit_text};
  if (redisAsyncCommandArgv(cl->writer.ac, on_leased, call, 7, argv, NULL) != REDIS_OK) {
    free(call);
    cluster__lost(cl, "cannot lease pages", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

/* The reply to a write of the job's keys (a lease reset, its end marked). */
static void on_written(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster__reply_ok(privdata, r, "a write of the job's keys");
}

core_rc cluster_lease_reset(cluster *cl, long pages) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return CORE_ESYS;
  char key[KEY_MAX], node[16], value[24];
  snprintf(key, sizeof(key), "crawl:{%s}:pages", cl->opt.address.job);
  snprintf(node, sizeof(node), "%d", cl->opt.node);
  snprintf(value, sizeof(value), "%ld", pages);
  const char *argv[] = {"HSET", key, node, value};
  if (redisAsyncCommandArgv(cl->writer.ac, on_written, cl, 4, argv, NULL) != REDIS_OK) {
    cluster__lost(cl, "cannot reset the lease of pages",
                  cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

/* ---- a job's end ---- */

static void ended_key(const struct cluster_address *a, char *key, size_t size) {
  snprintf(key, size, "crawl:{%s}:ended", a->job);
}

core_rc cluster_mark_ended(cluster *cl) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return CORE_ESYS;
  char key[KEY_MAX];
  ended_key(&cl->opt.address, key, sizeof(key));
  const char *argv[] = {"SET", key, "1"};
  if (redisAsyncCommandArgv(cl->writer.ac, on_written, cl, 3, argv, NULL) != REDIS_OK) {
    cluster__lost(cl, "cannot mark the job ended", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

static void on_forgotten(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster__reply_ok(privdata, r, "the clean-up of the ended job");
}

core_rc cluster_forget(cluster *cl) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return CORE_ESYS;
  /* the stream is emptied, not deleted: the reader may still wait on it, and a deleted key
   * would wake it with an error */
  const char *trim[] = {"XTRIM", cl->own_key, "MAXLEN", "0"};
  const char *drop[] = {"DEL", cl->own_taken};
  bool ok = redisAsyncCommandArgv(cl->writer.ac, on_forgotten, cl, 4, trim, NULL) == REDIS_OK &&
            redisAsyncCommandArgv(cl->writer.ac, on_forgotten, cl, 2, drop, NULL) == REDIS_OK;
  char ttl[16], pages[KEY_MAX], options[KEY_MAX], ended[KEY_MAX];
  snprintf(ttl, sizeof(ttl), "%d", CLUSTER_FORGET_SECONDS);
  snprintf(pages, sizeof(pages), "crawl:{%s}:pages", cl->opt.address.job);
  snprintf(options, sizeof(options), "crawl:{%s}:options", cl->opt.address.job);
  ended_key(&cl->opt.address, ended, sizeof(ended));
  const char *keys[] = {cl->own_key, cl->own_state, pages, options, ended};
  for (size_t i = 0; ok && i < sizeof(keys) / sizeof(*keys); i++) {
    const char *argv[] = {"EXPIRE", keys[i], ttl};
    ok = redisAsyncCommandArgv(cl->writer.ac, on_forgotten, cl, 3, argv, NULL) == REDIS_OK;
  }
  if (!ok) {
    cluster__lost(cl, "cannot forget the ended job", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

/* A blocking command's reply that is no reply or an error: why says which, false. */
static bool sync_reply_ok(const struct cluster_address *a, redisContext *rc,
                          const redisReply *reply, const char *command, char *why, size_t why_len) {
  if (reply && reply->type != REDIS_REPLY_ERROR)
    return true;
  snprintf(why, why_len, "Redis at %s:%d: %s failed: %s", a->host, a->port, command,
           reply ? reply->str : rc->errstr);
  return false;
}

/* The options' first line that differs from theirs, as "'ours' here, 'theirs' in the process
 * that began it" into why. */
static void say_options_differ(const struct cluster_address *a, const char *ours,
                               const char *theirs, char *why, size_t why_len) {
  const char *x = ours, *y = theirs;
  while (*x && *x == *y) {
    x++;
    y++;
  }
  while (x > ours && x[-1] != '\n')
    x--;
  while (y > theirs && y[-1] != '\n')
    y--;
  snprintf(why, why_len,
           "the job '%s' runs with other options: '%.*s' here, '%.*s' in the process that began it",
           a->job, (int)strcspn(x, "\n"), x, (int)strcspn(y, "\n"), y);
}

core_rc cluster_job_join(const struct cluster_address *address, const char *options, bool *ended,
                         long long *now_us, char *why, size_t why_len) {
  *ended = false;
  *now_us = 0;
  snprintf(why, why_len, "%s", "");
  struct timeval timeout = {.tv_sec = 5};
  redisContext *rc = redisConnectWithTimeout(address->host, address->port, timeout);
  if (!rc || rc->err) {
    snprintf(why, why_len, "Redis at %s:%d: cannot connect: %s", address->host, address->port,
             rc ? rc->errstr : "out of memory");
    redisFree(rc);
    return CORE_ESYS;
  }
  redisSetTimeout(rc, timeout);
  char key[KEY_MAX];
  ended_key(address, key, sizeof(key));
  core_rc result = CORE_ESYS;
  redisReply *reply = redisCommand(rc, "EXISTS %s", key);
  if (!sync_reply_ok(address, rc, reply, "EXISTS", why, why_len) ||
      reply->type != REDIS_REPLY_INTEGER)
    goto done;
  *ended = reply->integer == 1;
  if (*ended) { /* nothing more to ask: the caller refuses the job */
    result = CORE_OK;
    goto done;
  }
  freeReplyObject(reply);
  reply = redisCommand(rc, "TIME");
  if (!sync_reply_ok(address, rc, reply, "TIME", why, why_len) ||
      reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
      reply->element[0]->type != REDIS_REPLY_STRING ||
      reply->element[1]->type != REDIS_REPLY_STRING)
    goto done;
  *now_us = strtoll(reply->element[0]->str, NULL, 10) * 1000000 +
            strtoll(reply->element[1]->str, NULL, 10);
  freeReplyObject(reply);
  snprintf(key, sizeof(key), "crawl:{%s}:options", address->job);
  /* the first process to start writes them; every other compares */
  reply = redisCommand(rc, "SET %s %s NX GET", key, options);
  if (!sync_reply_ok(address, rc, reply, "SET", why, why_len) ||
      (reply->type != REDIS_REPLY_NIL && reply->type != REDIS_REPLY_STRING))
    goto done;
  result = CORE_OK;
  if (reply->type == REDIS_REPLY_STRING && strcmp(reply->str, options)) {
    say_options_differ(address, options, reply->str, why, why_len);
    result = CORE_EINVAL;
  }
done:
  if (result == CORE_ESYS && !why[0])
    snprintf(why, why_len, "Redis at %s:%d: an answer of the wrong type", address->host,
             address->port);
  freeReplyObject(reply);
  redisFree(rc);
  return result;
}
