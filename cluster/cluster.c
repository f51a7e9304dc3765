/* Redis streams as the links between the processes of a shared crawl: this node's entries read,
 * other nodes' sent and acknowledged, the cluster made, and Redis reached again after it was lost.
 * The connections are link.c's, the run's state view.c's, the job's leases and end job.c's.
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

/* ---- Redis back after a while (link.c lost it) ---- */

static void read_more(cluster *cl);
static void on_group(redisAsyncContext *ac, void *r, void *privdata);
static bool issue_append(cluster *cl, const struct unconfirmed *u);

static void on_back(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster *cl = privdata;
  const redisReply *reply = r;
  if (!cluster__reply_ok(cl, reply, "EXISTS"))
    return;
  if (!cl->back_asked || !cl->reader.ac)
    return; /* another part of this try failed: the next try is on its way */
  cl->back_asked = false;
  if (reply->type != REDIS_REPLY_INTEGER || reply->integer != 1) {
    /* started again without its data (no append-only file): the job's state is gone */
    cluster__fail(cl, "it answers again, but without the job's keys",
                  "restarted with no saved data?");
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
  cluster__link_close(&cl->writer);
  cluster__link_close(&cl->reader);
  if (core_now() - cl->lost_at > cl->opt.wait) {
    char waited[64];
    snprintf(waited, sizeof(waited), "waited %g s (--cluster-wait)", cl->opt.wait);
    cluster__fail(cl, cl->lost_why, waited);
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
  if (cluster__link_open(cl, &cl->writer, why, sizeof(why)) != CORE_OK ||
      cluster__link_open(cl, &cl->reader, why, sizeof(why)) != CORE_OK ||
      redisAsyncCommandArgv(cl->writer.ac, on_back, cl, 2, exists, NULL) != REDIS_OK ||
      redisAsyncCommandArgv(cl->reader.ac, on_group, cl, 6, group, NULL) != REDIS_OK)
    cluster__lost(cl, "cannot connect", why[0] ? why : NULL);
}

/* ---- reading ---- */

static core_rc remember_taken(cluster *cl, const char *id, const char *depth) {
  if (strlen(id) >= sizeof(cl->taken->id) || strlen(depth) >= sizeof(cl->taken->depth))
    return CORE_EFORMAT;
  if (cl->taken_count == cl->taken_cap) {
    size_t cap = cl->taken_cap ? cl->taken_cap * 2 : 64;
    struct taken *t = realloc(cl->taken, cap * sizeof(*t));
    if (!t) {
      cluster__fail(cl, "out of memory", NULL);
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
  if (!cluster__reply_ok(cl, reply, "XREADGROUP"))
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
    cluster__lost(cl, "cannot ask for entries", cl->reader.ac ? cl->reader.ac->errstr : NULL);
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
  if (cluster__reply_ok(cl, reply, "XGROUP CREATE"))
    read_more(cl);
}

/* ---- sending ---- */

static void on_added(redisAsyncContext *ac, void *r, void *privdata) {
  (void)ac;
  cluster *cl = privdata;
  if (!cluster__reply_ok(cl, r, "the append (XADD)"))
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
  cluster__node_key(&cl->opt.address, u->node, "links", stream, sizeof(stream));
  cluster__node_key(&cl->opt.address, u->node, "state", state, sizeof(state));
  if (u->depth == INT_MAX)
    snprintf(depth, sizeof(depth), "-");
  else
    snprintf(depth, sizeof(depth), "%d", u->depth);
  const char *argv[] = {"EVAL", cluster__send_script, "2", stream, state, u->data, depth};
  size_t lens[] = {
      4, strlen(cluster__send_script), 1, strlen(stream), strlen(state), u->len, strlen(depth)};
  if (redisAsyncCommandArgv(cl->writer.ac, on_added, cl, 7, argv, lens) != REDIS_OK) {
    cluster__lost(cl, "cannot append", cl->writer.ac ? cl->writer.ac->errstr : NULL);
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
  cluster__node_key(&cl->opt.address, opt->node, "links", cl->own_key, sizeof(cl->own_key));
  cluster__node_key(&cl->opt.address, opt->node, "state", cl->own_state, sizeof(cl->own_state));
  cluster__node_key(&cl->opt.address, opt->node, "taken", cl->own_taken, sizeof(cl->own_taken));
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
    rc = cluster__link_open(cl, &cl->writer, why, why_len);
  if (!rc)
    rc = cluster__link_open(cl, &cl->reader, why, why_len);
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
  cluster__link_close(&cl->writer);
  cluster__link_close(&cl->reader);
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
