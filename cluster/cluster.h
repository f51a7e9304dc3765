/* cluster: the links one process of a shared crawl (--cluster) hands to the others, through Redis
 * streams. Node I reads the stream "crawl:JOB:I" through the consumer group "crawl" as consumer
 * "node-I"; whoever finds a link for a host node I owns appends it there. Links travel as batches
 * of text lines (the lines the shards of one process already send each other), one stream entry
 * per batch, appended with XADD in pipelined commands on the owner's event loop. An entry read is
 * pending in Redis until its reader acknowledges it (cluster_ack), and a node that starts again
 * is given its pending entries first: what it had not made safe comes back. */
#ifndef CRAWL_CLUSTER_H
#define CRAWL_CLUSTER_H

#include "core/core.h"
#include "loop/loop.h"

enum { CLUSTER_MAX_NODES = 4096 };

/* redis://HOST[:PORT]/JOB as CLI.md's --cluster takes it. */
struct cluster_address {
  char host[256]; /* a name or an address; IPv6 in brackets in the text, without them here */
  int port;       /* 6379 when the text has none */
  char job[65];   /* letters, digits, '-', '_' and '.', 1 to 64 of them */
};

/* CORE_OK, or CORE_EINVAL with why (a static string) saying what is wrong. */
core_rc cluster_address_parse(const char *text, struct cluster_address *out, const char **why);

struct cluster_options {
  struct cluster_address address;
  int nodes; /* 1 to CLUSTER_MAX_NODES */
  int node;  /* this one, 0 to nodes - 1 */
  /* an outbox is sent as soon as it holds this much, and whatever it holds at cluster_flush;
   * 0: 64 KiB */
  size_t batch_bytes;
  /* entries asked for per read; 0: 64 */
  int read_count;
};

typedef struct cluster cluster;

struct cluster_handler {
  /* A batch of lines for this node, each ending in '\n'; id names its entry for cluster_ack. Both
   * are borrowed for the call only. Called on the loop's thread, from inside the loop. */
  void (*on_batch)(void *arg, const char *id, const char *lines, size_t len);
  /* Redis is gone or refused a command; message says which and why. After it the cluster sends
   * and reads no more (what was not confirmed stays in cluster_each_unconfirmed). Once. */
  void (*on_error)(void *arg, const char *message);
  void *arg;
};

/* Connects (two connections: one for appends and acknowledgements, one that waits for reads),
 * creates the consumer group when it is missing, and starts reading this node's stream. The
 * loop is borrowed until cluster_destroy; handler is copied. A Redis that cannot be reached is
 * reported through on_error, or here as CORE_ESYS with why (of why_len bytes) saying so when
 * the connection fails at once; CORE_EINVAL for nodes or node out of range. */
core_rc cluster_create(event_loop *loop, const struct cluster_options *opt,
                       const struct cluster_handler *handler, cluster **out, char *why,
                       size_t why_len);
/* Drops what is not confirmed and closes both connections without calling the handler. NULL is
 * fine. Not from inside a handler's callback. */
void cluster_destroy(cluster *cl);

/* Appends lines (whole lines, each ending in '\n') to the outbox of node; sends it when it holds
 * batch_bytes. CORE_EINVAL for this node or one out of range, CORE_ESYS after on_error. */
core_rc cluster_send(cluster *cl, int node, const char *lines, size_t len);
/* Sends every outbox that holds anything. */
void cluster_flush(cluster *cl);
/* Acknowledges an entry on_batch gave this node and deletes it: Redis forgets it. */
core_rc cluster_ack(cluster *cl, const char *id);

/* Stops asking for entries (true) or starts again (false): a reader that has too much to do. */
void cluster_pause_reading(cluster *cl, bool paused);

/* Lines sent to other nodes that Redis has not confirmed yet, and lines still in the outboxes:
 * each batch with its node. A checkpoint writes these as links on their way. */
void cluster_each_unconfirmed(const cluster *cl,
                              void (*fn)(void *arg, int node, const char *lines, size_t len),
                              void *arg);
/* Batches sent whose confirmation has not come. */
size_t cluster_unconfirmed(const cluster *cl);
/* The entries on_batch has given this node so far. */
unsigned long cluster_entries_read(const cluster *cl);

#endif
