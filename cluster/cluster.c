/* Redis streams as the links between the processes of a shared crawl.
 *
 * Two connections per node, both driven by the caller's event loop through hiredis's async API
 * (its event hooks become one loop watch per connection): one waits in XREADGROUP ... BLOCK for
 * this node's entries, and would hold up anything queued behind it, so the other carries the
 * appends (XADD) and acknowledgements (XACK). hiredis pipelines what is issued between two turns
 * of the loop on one connection.
 *
 * A batch stays ours until Redis confirms its XADD (replies come in the order of the commands, so
 * the oldest batch is the one confirmed): until then it is a link on its way, and a checkpoint
 * must hold it. A node starting again reads its pending entries (those delivered but never
 * acknowledged) before new ones: XREADGROUP with an id of 0 gives the consumer's own history. */
#include "cluster/cluster-int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

enum {
  DEFAULT_BATCH = 64 * 1024,
  DEFAULT_READ_COUNT = 64,
  READ_BLOCK_MS = 1000, /* an idle reader asks again once a second */
  KEY_MAX = 96,
};

/* ---- hiredis on our loop ---- */

struct redis_link {
  cluster *cl;
  event_loop *loop;
  redisAsyncContext *ac; /* NULL once hiredis has let go of it */
  loop_watch *watch;
  int fd;
  unsigned want; /* LOOP_READ | LOOP_WRITE as hiredis asked */
  bool connected;
};

struct unconfirmed {
  struct unconfirmed *next;
  int node;
  int depth; /* the smallest depth its lines hold back; INT_MAX: none */
  size_t len;
  char data[];
};

/* an entry given to this node, to be counted as taken at the next publish */
struct taken {
  char id[48];
  char depth[16]; /* as the entry holds it: a number, or "-" */
};

/* a view of every node's state, read twice (see cluster_view) */
struct node_state {
  long version;
  bool joined, idle, stop;
  long in_transit;
  int published;  /* its own smallest pending depth (0 until it joins) */
  int on_its_way; /* the smallest depth held back by entries on their way to it */
  long pages;     /* it has started, as it published */
};

struct cluster {
  event_loop *loop;
  struct cluster_options opt;
  struct cluster_handler handler;
  struct redis_link writer, reader;
  char own_key[KEY_MAX], own_state[KEY_MAX], own_taken[KEY_MAX];
  char consumer[32];
  struct core_buf *outboxes; /* one per node (this node's stays empty) */
  int *outbox_depth;         /* the smallest depth each outbox holds back; INT_MAX: none */
  /* given and not acknowledged yet, in the order given: the first taken_published of them are
   * counted taken in Redis; the first is the (entries_read - taken_count)th entry given */
  struct taken *taken;
  size_t taken_count, taken_cap, taken_published;
  unsigned long ack_mark; /* cluster_ack_through: entries before it may be acknowledged */
  bool published;         /* at least once, with the values below */
  int last_gate;
  bool last_idle, last_stop;
  bool asked_idle;        /* what the last publish was asked to say (idle waits for the history) */
  long pages, last_pages; /* cluster_set_pages, and as last published */
  /* cluster_view: two passes of reads over every node's state */
  bool viewing;
  int view_replies, view_tries;
  struct node_state *passes[2];
  void (*view_cb)(void *arg, const struct cluster_view *view);
  void *view_arg;
  struct unconfirmed *oldest, *newest;
  size_t unconfirmed_count;
  bool failed, destroying;
  /* opt.wait: Redis lost, tried again by retry from lost_at on, every pause (doubled each time,
   * up to 2 s) */
  bool reconnecting, back_asked; /* back_asked: a try is under way */
  double lost_at, pause;
  char lost_why[256];
  loop_timer *retry;
  bool reading, history; /* history: still reading our pending entries (id 0 onwards) */
  char after[64];        /* the id to read after while history */
  unsigned long entries_read;
};

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

static void fail(cluster *cl, const char *what, const char *detail) {
  if (cl->failed || cl->destroying)
    return;
  cl->failed = true;
  char message[1024];
  snprintf(message, sizeof(message), "Redis at %s:%d: %s%s%s", cl->opt.address.host,
           cl->opt.address.port, what, detail ? ": " : "", detail ? detail : "");
  if (cl->handler.on_error)
    cl->handler.on_error(cl->handler.arg, message);
}

static void lost(cluster *cl, const char *what, const char *detail);

/* A reply that is no reply (the connection went), or Redis loading its data, loses Redis for a
 * while (lost); any other error reply fails the cluster. */
static bool reply_ok(cluster *cl, const redisReply *reply, const char *command) {
  if (cl->destroying)
    return false;
  if (!reply) {
    lost(cl, "the connection was lost during", command);
    return false;
  }
  if (reply->type == REDIS_REPLY_ERROR && !strncmp(reply->str, "LOADING", 7)) {
    lost(cl, "it is loading its data", NULL);
    return false;
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    char what[64];
    snprintf(what, sizeof(what), "%s was refused", command);
    fail(cl, what, reply->str);
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
  lost(l->cl, "cannot connect", ac->errstr);
}

/* hiredis 0.14 says REDIS_OK only of a link freed by link_close (redisAsyncFree), as the cluster
 * ends or a try to reach Redis again begins: nothing is lost then. Redis closing the connection
 * is an error (its end of file). */
static void on_disconnect(const redisAsyncContext *ac, int status) {
  struct redis_link *l = ac->data;
  l->ac = NULL;
  if (status != REDIS_OK)
    lost(l->cl, "the connection was lost", ac->errstr);
}

static core_rc link_open(cluster *cl, struct redis_link *l, char *why, size_t why_len) {
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

static void link_close(struct redis_link *l) {
  if (l->ac)
    redisAsyncFree(l->ac); /* its callbacks see cl->destroying and do nothing */
  l->ac = NULL;
  want_events(l, 0);
}

/* ---- Redis lost for a while ---- */

static void read_more(cluster *cl);
static void on_group(redisAsyncContext *ac, void *r, void *privdata);
static bool issue_append(cluster *cl, const struct unconfirmed *u);

/* Redis does not answer: the connection went, or it is loading its data. With opt.wait the
 * cluster tries again (on_retry) until it answers or the wait runs out; without, it fails. Called
 * from inside hiredis's callbacks too: the links are closed and opened again by the timer. */
double cluster_next_pause(double pause) {
  if (pause <= 0)
    return 0.1;
  return pause * 2 > 2 ? 2 : pause * 2;
}

static void lost(cluster *cl, const char *what, const char *detail) {
  if (cl->failed || cl->destroying)
    return;
  if (!cl->retry) { /* --cluster-wait 0: made without the timer, nothing is waited for */
    fail(cl, what, detail);
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

static void on_back(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster *cl = privdata;
  const redisReply *reply = r;
  if (!reply_ok(cl, reply, "EXISTS"))
    return;
  if (!cl->back_asked || !cl->reader.ac)
    return; /* another part of this try failed: the next try is on its way */
  cl->back_asked = false;
  if (reply->type != REDIS_REPLY_INTEGER || reply->integer != 1) {
    /* started again without its data (no append-only file): the job's state is gone */
    fail(cl, "it answers again, but without the job's keys", "restarted with no saved data?");
    return;
  }
  cl->reconnecting = false;
  /* what it had not confirmed goes again (a second copy of an append that Redis had made is
   * harmless: its links are deduplicated, and its count is taken twice as it was made twice) */
  for (const struct unconfirmed *u = cl->oldest; u && !cl->failed; u = u->next)
    if (!issue_append(cl, u))
      return;
  if (cl->handler.on_back)
    cl->handler.on_back(cl->handler.arg);
}

/* A try to reach Redis again: both links opened anew, the job's options key asked for (on_back)
 * and the consumer group made again when missing (then reading goes on, pending entries first).
 * The state is published again from scratch at the caller's next publish. */
static void on_retry(void *arg) {
  cluster *cl = arg;
  if (cl->failed || cl->destroying || !cl->reconnecting)
    return;
  link_close(&cl->writer);
  link_close(&cl->reader);
  if (core_now() - cl->lost_at > cl->opt.wait) {
    char waited[64];
    snprintf(waited, sizeof(waited), "waited %g s (--cluster-wait)", cl->opt.wait);
    fail(cl, cl->lost_why, waited);
    return;
  }
  cl->reading = false;
  cl->history = true; /* entries given and lost on their way come again with the pending ones */
  snprintf(cl->after, sizeof(cl->after), "0");
  cl->published = false;
  cl->taken_published = 0; /* counted again: the taken set keeps each from counting twice */
  char why[256] = "";
  char options[KEY_MAX];
  snprintf(options, sizeof(options), "crawl:{%s}:options", cl->opt.address.job);
  const char *exists[] = {"EXISTS", options};
  const char *group[] = {"XGROUP", "CREATE", cl->own_key, cluster__group, "0", "MKSTREAM"};
  cl->back_asked = true;
  if (link_open(cl, &cl->writer, why, sizeof(why)) != CORE_OK ||
      link_open(cl, &cl->reader, why, sizeof(why)) != CORE_OK ||
      redisAsyncCommandArgv(cl->writer.ac, on_back, cl, 2, exists, NULL) != REDIS_OK ||
      redisAsyncCommandArgv(cl->reader.ac, on_group, cl, 6, group, NULL) != REDIS_OK)
    lost(cl, "cannot connect", why[0] ? why : NULL);
}

/* ---- reading ---- */

static core_rc remember_taken(cluster *cl, const char *id, const char *depth) {
  if (strlen(id) >= sizeof(cl->taken->id) || strlen(depth) >= sizeof(cl->taken->depth))
    return CORE_EFORMAT;
  if (cl->taken_count == cl->taken_cap) {
    size_t cap = cl->taken_cap ? cl->taken_cap * 2 : 64;
    struct taken *t = realloc(cl->taken, cap * sizeof(*t));
    if (!t) {
      fail(cl, "out of memory", NULL);
      return CORE_ENOMEM;
    }
    cl->taken = t;
    cl->taken_cap = cap;
  }
  struct taken *t = &cl->taken[cl->taken_count++];
  snprintf(t->id, sizeof(t->id), "%s", id);
  snprintf(t->depth, sizeof(t->depth), "%s", depth);
  return CORE_OK;
}

static void deliver_entries(cluster *cl, const redisReply *entries) {
  for (size_t i = 0; i < entries->elements && !cl->destroying; i++) {
    const redisReply *e = entries->element[i];
    if (e->type != REDIS_REPLY_ARRAY || e->elements < 2 ||
        e->element[0]->type != REDIS_REPLY_STRING)
      continue;
    const char *id = e->element[0]->str;
    if (cl->history)
      snprintf(cl->after, sizeof(cl->after), "%s", id);
    const redisReply *fields = e->element[1];
    if (fields->type != REDIS_REPLY_ARRAY) { /* an entry deleted from the stream: nothing left */
      cluster_ack(cl, id);
      continue;
    }
    const redisReply *lines = NULL, *depth = NULL;
    for (size_t f = 0; f + 1 < fields->elements; f += 2) {
      const redisReply *name = fields->element[f], *value = fields->element[f + 1];
      if (name->type != REDIS_REPLY_STRING || value->type != REDIS_REPLY_STRING)
        continue;
      if (!strcmp(name->str, "l"))
        lines = value;
      else if (!strcmp(name->str, "d"))
        depth = value;
    }
    if (!lines || !depth || remember_taken(cl, id, depth->str))
      continue; /* not ours to read (or no memory: it comes again after a restart) */
    cl->entries_read++;
    cl->handler.on_batch(cl->handler.arg, id, lines->str, lines->len);
  }
}

static void on_read(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster *cl = privdata;
  const redisReply *reply = r;
  cl->reading = false;
  if (!reply_ok(cl, reply, "XREADGROUP"))
    return;
  size_t delivered = 0;
  /* nil: the wait ran out; else [[key, [[id, [field, value ...]] ...]]] */
  if (reply->type == REDIS_REPLY_ARRAY && reply->elements >= 1) {
    const redisReply *stream = reply->element[0];
    if (stream->type == REDIS_REPLY_ARRAY && stream->elements >= 2 &&
        stream->element[1]->type == REDIS_REPLY_ARRAY) {
      delivered = stream->element[1]->elements;
      deliver_entries(cl, stream->element[1]);
    }
  }
  if (cl->history && !delivered) {
    cl->history = false; /* every pending entry is given again: now the new ones */
    /* the idleness held back, unless entries came that the caller's next publish covers */
    if (cl->published && cl->asked_idle && !cl->last_idle && cl->taken_count == cl->taken_published)
      cluster_publish(cl, cl->last_gate, true, cl->last_stop);
  }
  read_more(cl);
}

static void read_more(cluster *cl) {
  if (cl->reading || cl->failed || cl->destroying || !cl->reader.ac)
    return;
  char count[16], block[16];
  snprintf(count, sizeof(count), "%d", cl->opt.read_count);
  snprintf(block, sizeof(block), "%d", READ_BLOCK_MS);
  const char *argv[] = {"XREADGROUP",
                        "GROUP",
                        cluster__group,
                        cl->consumer,
                        "COUNT",
                        count,
                        "BLOCK",
                        block,
                        "STREAMS",
                        cl->own_key,
                        cl->history ? cl->after : ">"};
  if (redisAsyncCommandArgv(cl->reader.ac, on_read, cl, (int)(sizeof(argv) / sizeof(*argv)), argv,
                            NULL) != REDIS_OK) {
    lost(cl, "cannot ask for entries", cl->reader.ac ? cl->reader.ac->errstr : NULL);
    return;
  }
  cl->reading = true;
}

static void on_group(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster *cl = privdata;
  const redisReply *reply = r;
  if (cl->destroying)
    return;
  /* BUSYGROUP: an earlier run of this node, or another node, made it */
  if (reply && reply->type == REDIS_REPLY_ERROR && !strncmp(reply->str, "BUSYGROUP", 9)) {
    read_more(cl);
    return;
  }
  if (reply_ok(cl, reply, "XGROUP CREATE"))
    read_more(cl);
}

/* ---- sending ---- */

/* A node's keys share one hash tag, so a Redis Cluster keeps them in one slot (the scripts touch
 * them together) while different nodes' keys spread over the slots. */
static void node_key(const cluster *cl, int node, const char *what, char *key, size_t size) {
  snprintf(key, size, "crawl:{%s:%d}:%s", cl->opt.address.job, node, what);
}

static void on_added(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster *cl = privdata;
  if (!reply_ok(cl, r, "the append (XADD)"))
    return; /* the batch stays unconfirmed, for a checkpoint to keep */
  struct unconfirmed *u = cl->oldest;
  if (!u)
    return;
  cl->oldest = u->next;
  if (!cl->oldest)
    cl->newest = NULL;
  cl->unconfirmed_count--;
  free(u);
}

/* Sends u's lines to its node's stream; false when the link is going (lost says so). */
static bool issue_append(cluster *cl, const struct unconfirmed *u) {
  char stream[KEY_MAX], state[KEY_MAX], depth[16];
  node_key(cl, u->node, "links", stream, sizeof(stream));
  node_key(cl, u->node, "state", state, sizeof(state));
  if (u->depth == INT_MAX)
    snprintf(depth, sizeof(depth), "-");
  else
    snprintf(depth, sizeof(depth), "%d", u->depth);
  const char *argv[] = {"EVAL", cluster__send_script, "2", stream, state, u->data, depth};
  size_t lens[] = {
      4, strlen(cluster__send_script), 1, strlen(stream), strlen(state), u->len, strlen(depth)};
  if (redisAsyncCommandArgv(cl->writer.ac, on_added, cl, 7, argv, lens) != REDIS_OK) {
    lost(cl, "cannot append", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return false;
  }
  return true;
}

static core_rc send_outbox(cluster *cl, int node) {
  struct core_buf *o = &cl->outboxes[node];
  if (!o->len)
    return CORE_OK;
  if (cl->failed)
    return CORE_ESYS;
  if (cl->reconnecting || !cl->writer.ac)
    return CORE_OK; /* it waits in the outbox (a checkpoint holds it) until Redis answers */
  struct unconfirmed *u = malloc(sizeof(*u) + o->len);
  if (!u)
    return CORE_ENOMEM;
  u->next = NULL;
  u->node = node;
  u->depth = cl->outbox_depth[node];
  u->len = o->len;
  memcpy(u->data, o->data, o->len);
  if (!issue_append(cl, u)) {
    free(u);
    return cl->failed ? CORE_ESYS : CORE_OK; /* lost: the outbox keeps it */
  }
  if (cl->newest)
    cl->newest->next = u;
  else
    cl->oldest = u;
  cl->newest = u;
  cl->unconfirmed_count++;
  core_buf_reset(o);
  cl->outbox_depth[node] = INT_MAX;
  return CORE_OK;
}

core_rc cluster_send(cluster *cl, int node, const char *lines, size_t len, int depth) {
  if (node < 0 || node >= cl->opt.nodes || node == cl->opt.node || depth < 0)
    return CORE_EINVAL;
  if (cl->failed)
    return CORE_ESYS;
  core_rc rc = core_buf_add(&cl->outboxes[node], lines, len);
  if (rc)
    return rc;
  if (depth < cl->outbox_depth[node])
    cl->outbox_depth[node] = depth;
  return cl->outboxes[node].len >= cl->opt.batch_bytes ? send_outbox(cl, node) : CORE_OK;
}

void cluster_flush(cluster *cl) {
  for (int node = 0; node < cl->opt.nodes && !cl->failed; node++)
    send_outbox(cl, node);
}

static void on_acked(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  reply_ok(privdata, r, "the acknowledgement (XACK)");
}

core_rc cluster_ack(cluster *cl, const char *id) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return CORE_ESYS;
  const char *argv[] = {"EVAL",        cluster__ack_script, "2", cl->own_key,
                        cl->own_taken, cluster__group,      id};
  if (redisAsyncCommandArgv(cl->writer.ac, on_acked, cl, 7, argv, NULL) != REDIS_OK) {
    lost(cl, "cannot acknowledge", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

/* ---- the state of the run ---- */

static void on_published(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  reply_ok(privdata, r, "the publish of this node's state");
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
    lost(cl, "cannot publish this node's state", cl->writer.ac ? cl->writer.ac->errstr : NULL);
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
  if (!reply_ok(cl, r, "the read of the run's state (HGETALL)")) {
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
      node_key(cl, n, "state", key, sizeof(key));
      const char *argv[] = {"HGETALL", key};
      if (redisAsyncCommandArgv(cl->writer.ac, on_view_part, cl, 2, argv, NULL) != REDIS_OK) {
        lost(cl, "cannot read the run's state", cl->writer.ac ? cl->writer.ac->errstr : NULL);
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

/* ---- -n across nodes ---- */

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
  if (reply_ok(call->cl, reply, "the lease of pages") && call->cb)
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
    lost(cl, "cannot lease pages", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

core_rc cluster_lease_reset(cluster *cl, long pages) {
  if (cl->failed || cl->reconnecting || !cl->writer.ac)
    return CORE_ESYS;
  char key[KEY_MAX], node[16], value[24];
  snprintf(key, sizeof(key), "crawl:{%s}:pages", cl->opt.address.job);
  snprintf(node, sizeof(node), "%d", cl->opt.node);
  snprintf(value, sizeof(value), "%ld", pages);
  const char *argv[] = {"HSET", key, node, value};
  if (redisAsyncCommandArgv(cl->writer.ac, on_published, cl, 4, argv, NULL) != REDIS_OK) {
    lost(cl, "cannot reset the lease of pages", cl->writer.ac ? cl->writer.ac->errstr : NULL);
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
  if (redisAsyncCommandArgv(cl->writer.ac, on_published, cl, 3, argv, NULL) != REDIS_OK) {
    lost(cl, "cannot mark the job ended", cl->writer.ac ? cl->writer.ac->errstr : NULL);
    return CORE_ESYS;
  }
  return CORE_OK;
}

static void on_forgotten(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  reply_ok(privdata, r, "the clean-up of the ended job");
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
    lost(cl, "cannot forget the ended job", cl->writer.ac ? cl->writer.ac->errstr : NULL);
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

/* ---- life ---- */

core_rc cluster_create(event_loop *loop, const struct cluster_options *opt,
                       const struct cluster_handler *handler, cluster **out, char *why,
                       size_t why_len) {
  snprintf(why, why_len, "%s", "");
  if (opt->nodes < 1 || opt->nodes > CLUSTER_MAX_NODES || opt->node < 0 ||
      opt->node >= opt->nodes || !handler->on_batch)
    return CORE_EINVAL;
  cluster *cl = calloc(1, sizeof(*cl));
  if (!cl)
    return CORE_ENOMEM;
  cl->loop = loop;
  cl->writer.fd = cl->reader.fd = -1;
  cl->opt = *opt;
  if (!cl->opt.batch_bytes)
    cl->opt.batch_bytes = DEFAULT_BATCH;
  if (cl->opt.read_count <= 0)
    cl->opt.read_count = DEFAULT_READ_COUNT;
  cl->handler = *handler;
  cl->history = true;
  cl->pages = cl->last_pages = 0;
  snprintf(cl->after, sizeof(cl->after), "0");
  node_key(cl, opt->node, "links", cl->own_key, sizeof(cl->own_key));
  node_key(cl, opt->node, "state", cl->own_state, sizeof(cl->own_state));
  node_key(cl, opt->node, "taken", cl->own_taken, sizeof(cl->own_taken));
  snprintf(cl->consumer, sizeof(cl->consumer), "node-%d", opt->node);
  cl->outboxes = calloc((size_t)opt->nodes, sizeof(*cl->outboxes));
  cl->outbox_depth = malloc((size_t)opt->nodes * sizeof(*cl->outbox_depth));
  cl->passes[0] = calloc((size_t)opt->nodes, sizeof(*cl->passes[0]));
  cl->passes[1] = calloc((size_t)opt->nodes, sizeof(*cl->passes[1]));
  if (!cl->outboxes || !cl->outbox_depth || !cl->passes[0] || !cl->passes[1]) {
    cluster_destroy(cl);
    return CORE_ENOMEM;
  }
  for (int node = 0; node < opt->nodes; node++)
    cl->outbox_depth[node] = INT_MAX;
  /* a batch may pass batch_bytes by the lines of one call; the cap only stops a runaway */
  for (int node = 0; node < opt->nodes; node++)
    core_buf_init(&cl->outboxes[node], SIZE_MAX / 4);
  core_rc rc = opt->wait > 0 ? loop_timer_create(loop, on_retry, cl, &cl->retry) : CORE_OK;
  if (!rc)
    rc = link_open(cl, &cl->writer, why, why_len);
  if (!rc)
    rc = link_open(cl, &cl->reader, why, why_len);
  if (!rc) {
    const char *argv[] = {"XGROUP", "CREATE", cl->own_key, cluster__group, "0", "MKSTREAM"};
    if (redisAsyncCommandArgv(cl->reader.ac, on_group, cl, 6, argv, NULL) != REDIS_OK)
      rc = CORE_ENOMEM;
  }
  if (rc) {
    cluster_destroy(cl);
    return rc;
  }
  *out = cl;
  return CORE_OK;
}

void cluster_destroy(cluster *cl) {
  if (!cl)
    return;
  cl->destroying = true;
  link_close(&cl->writer);
  link_close(&cl->reader);
  if (cl->retry)
    loop_timer_destroy(cl->loop, cl->retry);
  while (cl->oldest) {
    struct unconfirmed *u = cl->oldest;
    cl->oldest = u->next;
    free(u);
  }
  for (int node = 0; cl->outboxes && node < cl->opt.nodes; node++)
    core_buf_free(&cl->outboxes[node]);
  free(cl->outboxes);
  free(cl->outbox_depth);
  free(cl->passes[0]);
  free(cl->passes[1]);
  free(cl->taken);
  free(cl);
}
