/* cluster/view.c: the state of the run in Redis: this node's published (its gate, whether it is
 * idle or stopping, its pages, the entries it took), and every node's read back twice for a
 * consistent view, from which the caller tells whether the whole crawl is done. */
#include "cluster/cluster-int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

static void on_published(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster__reply_ok(privdata, r, "the publish of this node's state");
}

static void on_acked(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster__reply_ok(privdata, r, "the acknowledgement (XACK)");
}

core_rc cluster_ack(cluster *cl, const char *id) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return CORE_ESYS;
  const char *argv[] = {"EVAL",        cluster__ack_script, "2", cl->own_key,
                        cl->own_taken, cluster__group,      id};
  if (redisAsyncCommandArgv(cl->writer.ac, on_acked, cl, 7, argv, NULL) != REDIS_OK) {
    cluster__lost(cl, "cannot acknowledge", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

/* Acknowledges the entries both counted taken and allowed by ack_mark, oldest first: the ACK
 * after the publish that counted the entry (one connection keeps the order), so the taken set
 * loses the id only once it is in it. */
static void ack_ready(cluster *cl) {
  unsigned long first = cl->entries_read - cl->taken_count;
  size_t k = cl->ack_mark > first ? (size_t)(cl->ack_mark - first) : 0;
  if (k > cl->taken_published)
    k = cl->taken_published;
  size_t done = 0;
  while (done < k && cluster_ack(cl, cl->taken[done].id) == CORE_OK)
    done++;
  if (!done)
    return;
  memmove(cl->taken, cl->taken + done, (cl->taken_count - done) * sizeof(*cl->taken));
  cl->taken_count -= done;
  cl->taken_published -= done;
}

unsigned long cluster_ack_mark(const cluster *cl) {
  return cl->entries_read;
}

void cluster_ack_through(cluster *cl, unsigned long mark) {
  if (mark > cl->ack_mark)
    cl->ack_mark = mark;
  if (!cl->failed)
    ack_ready(cl);
}

core_rc cluster_publish(cluster *cl, int gate, bool idle, bool stop) {
  if (cl->failed)
    return CORE_ESYS;
  if (cl->reconnecting || !cl->writer.ac)
    return CORE_OK; /* published again once Redis answers (published is false then) */
  /* entries given before a restart and never acknowledged come first: until they are read again,
   * this node holds work it does not know of yet */
  cl->asked_idle = idle;
  idle = idle && !cl->history;
  size_t fresh = cl->taken_count - cl->taken_published;
  if (cl->published && !fresh && gate == cl->last_gate && idle == cl->last_idle &&
      stop == cl->last_stop && cl->pages == cl->last_pages)
    return CORE_OK;
  size_t argc = 9 + 2 * fresh;
  const char **argv = malloc(argc * sizeof(*argv));
  if (!argv)
    return CORE_ENOMEM;
  char gate_text[16];
  if (gate == INT_MAX)
    snprintf(gate_text, sizeof(gate_text), "-");
  else
    snprintf(gate_text, sizeof(gate_text), "%d", gate < 0 ? 0 : gate);
  argv[0] = "EVAL";
  argv[1] = cluster__publish_script;
  argv[2] = "2";
  argv[3] = cl->own_state;
  argv[4] = cl->own_taken;
  argv[5] = gate_text;
  argv[6] = idle ? "1" : "0";
  argv[7] = stop ? "1" : "0";
  char pages_text[24];
  snprintf(pages_text, sizeof(pages_text), "%ld", cl->pages > 0 ? cl->pages : 0);
  argv[8] = pages_text;
  argc = 9;
  for (size_t i = cl->taken_published; i < cl->taken_count; i++) {
    argv[argc++] = cl->taken[i].id;
    argv[argc++] = cl->taken[i].depth;
  }
  int rc = redisAsyncCommandArgv(cl->writer.ac, on_published, cl, (int)argc, argv, NULL);
  free(argv);
  if (rc != REDIS_OK) {
    cluster__lost(cl, "cannot publish this node's state",
                  cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  cl->published = true;
  cl->last_gate = gate;
  cl->last_idle = idle;
  cl->last_stop = stop;
  cl->last_pages = cl->pages;
  cl->taken_published = cl->taken_count;
  if (cl->opt.ack_when_published)
    cl->ack_mark = cl->entries_read;
  ack_ready(cl);
  return CORE_OK;
}

static void read_state(const redisReply *reply, long long since_us, struct node_state *out) {
  *out = (struct node_state){.published = 0}; /* a node not joined yet holds every depth */
  long depth_min = LONG_MAX;
  bool have_gate = false;
  long gate = 0;
  for (size_t f = 0; reply->type == REDIS_REPLY_ARRAY && f + 1 < reply->elements; f += 2) {
    const redisReply *name = reply->element[f], *value = reply->element[f + 1];
    if (name->type != REDIS_REPLY_STRING || value->type != REDIS_REPLY_STRING)
      continue;
    const char *n = name->str;
    long number = strtol(value->str, NULL, 10);
    if (!strcmp(n, "v"))
      out->version = number;
    else if (!strcmp(n, "n"))
      out->in_transit = number;
    else if (!strcmp(n, "p"))
      out->pages = number > 0 ? number : 0;
    else if (!strcmp(n, "idle"))
      out->idle = number == 1;
    else if (!strcmp(n, "stop"))
      out->stop = strtoll(value->str, NULL, 10) > since_us;
    else if (!strcmp(n, "gate")) {
      have_gate = true;
      gate = strcmp(value->str, "-") ? number : LONG_MAX;
    } else if (n[0] == 'd' && number > 0) {
      long d = strtol(n + 1, NULL, 10);
      if (d < depth_min)
        depth_min = d;
    }
  }
  out->joined = have_gate;
  if (!have_gate) {
    out->idle = false;
    gate = 0;
  }
  out->published = gate > INT_MAX ? INT_MAX : (int)gate;
  out->on_its_way = depth_min > INT_MAX ? INT_MAX : (int)depth_min;
}

static void ask_view(cluster *cl);

static void on_view_part(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster *cl = privdata;
  if (!cluster__reply_ok(cl, r, "the read of the run's state (HGETALL)")) {
    bool was_viewing = cl->viewing;
    cl->viewing = false;
    if (was_viewing && cl->reconnecting) { /* no view now: the caller asks again later */
      struct cluster_view none = {.consistent = false};
      cl->view_cb(cl->view_arg, &none);
    }
    return;
  }
  int nodes = cl->opt.nodes, i = cl->view_replies++;
  read_state(r, cl->opt.since_us, &cl->passes[i / nodes][i % nodes]);
  if (cl->view_replies < 2 * nodes)
    return;
  cl->viewing = false;
  bool same = true;
  for (int n = 0; n < nodes; n++)
    if (cl->passes[0][n].version != cl->passes[1][n].version)
      same = false;
  if (!same && ++cl->view_tries < 16) {
    ask_view(cl);
    return;
  }
  /* nothing changed between the passes: at the moment between them, every node's state was
   * what the second pass read, together (a double collect) */
  struct cluster_view view = {
      .gate = INT_MAX, .others_gate = INT_MAX, .done = same, .consistent = same};
  for (int n = 0; n < nodes; n++) {
    const struct node_state *s = &cl->passes[1][n];
    int gate = s->published < s->on_its_way ? s->published : s->on_its_way;
    if (gate < view.gate)
      view.gate = gate;
    /* this node's own pending depths are its own to know, fresher than what it published */
    int other = n == cl->opt.node ? s->on_its_way : gate;
    if (other < view.others_gate)
      view.others_gate = other;
    if (s->joined)
      view.joined++;
    if (s->stop)
      view.stop = true;
    view.in_transit += s->in_transit;
    view.pages += s->pages;
    /* a stopped node is idle too, but its job is paused, not done: it may go on (--state) */
    if (!s->joined || !s->idle || s->in_transit > 0 || s->stop)
      view.done = false;
  }
  if (!same)
    view.gate = view.others_gate = 0;
  cl->view_cb(cl->view_arg, &view);
}

static void ask_view(cluster *cl) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return;
  cl->viewing = true;
  cl->view_replies = 0;
  char key[KEY_MAX];
  /* on one connection to one Redis, the second pass's reads run after every read of the first */
  for (int pass = 0; pass < 2; pass++)
    for (int n = 0; n < cl->opt.nodes; n++) {
      cluster__node_key(&cl->opt.address, n, "state", key, sizeof(key));
      const char *argv[] = {"HGETALL", key};
      if (redisAsyncCommandArgv(cl->writer.ac, on_view_part, cl, 2, argv, NULL) != REDIS_OK) {
        cluster__lost(cl, "cannot read the run's state",
                      cl->writer.ac ? cl->writer.ac->errstr : NULL);
        return;
      }
    }
}

bool cluster_view(cluster *cl, void (*cb)(void *arg, const struct cluster_view *view), void *arg) {
  if (cl->viewing || cl->failed || cl->reconnecting)
    return false;
  cl->view_cb = cb;
  cl->view_arg = arg;
  cl->view_tries = 0;
  ask_view(cl);
  return cl->viewing;
}

void cluster_each_unconfirmed(const cluster *cl,
                              void (*fn)(void *arg, int node, const char *lines, size_t len),
                              void *arg) {
  for (const struct unconfirmed *u = cl->oldest; u; u = u->next)
    fn(arg, u->node, u->data, u->len);
  for (int node = 0; node < cl->opt.nodes; node++)
    if (cl->outboxes[node].len)
      fn(arg, node, cl->outboxes[node].data, cl->outboxes[node].len);
}

size_t cluster_unconfirmed(const cluster *cl) {
  return cl->unconfirmed_count;
}

bool cluster_settled(const cluster *cl) {
  return !cl->writer.ac || !cl->writer.ac->replies.head;
}

unsigned long cluster_entries_read(const cluster *cl) {
  return cl->entries_read;
}
