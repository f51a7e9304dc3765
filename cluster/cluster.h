/* cluster: the links one process of a shared crawl (--cluster) hands to the others, through Redis
 * streams, and the state of the whole run that the depth gate and the end need. Node I reads the
 * stream "crawl:{JOB:I}:links" through the consumer group "crawl" as consumer "node-I"; whoever
 * finds a link for a host node I owns appends it there. Links travel as batches of text lines
 * (the lines the shards of one process already send each other), one stream entry per batch,
 * appended in pipelined commands on the caller's event loop. An entry read is pending in Redis
 * until its reader acknowledges it (cluster_ack), and a node that starts again is given its
 * pending entries first: what it had not made safe comes back.
 *
 * The run's state, for breadth-first depths and the end across processes: each entry carries the
 * smallest depth its links hold back, and counts in its receiver's state hash from the moment it
 * is appended (the append and the count are one script) until the receiver publishes that it
 * has taken it (cluster_publish, with the receiver's own smallest pending depth and whether it is
 * idle, in one script). cluster_view reads every node's state twice; when no version changed
 * between the passes, the second pass is one moment's picture: the gate is the smallest depth
 * pending anywhere, and the run is done when every node has joined, is idle, and nothing is on
 * its way to any. A node becomes busy again only by taking an entry, which counts until the
 * taker publishes, so no picture can show the run done while work remains. */
#ifndef CRAWL_CLUSTER_H
#define CRAWL_CLUSTER_H

#include "core/core.h"
#include "loop/loop.h"

enum { CLUSTER_MAX_NODES = 4096 };

/* redis://HOST[:PORT]/JOB as --cluster takes it (doc/behaviour.md, Cluster). */
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
  /* acknowledge each entry as soon as a publish counts it taken: a node with no checkpoint to
   * wait for (else cluster_ack_through, once a checkpoint holds it) */
  bool ack_when_published;
  /* Redis's time (microseconds) when this run of the node began (cluster_job_join): a stop
   * asked for before it belongs to an earlier run of the job, which this one goes on from */
  long long since_us;
  /* seconds to wait for a Redis lost mid-run (the connection gone, or Redis loading its data
   * again) before on_error: meanwhile links wait in the outboxes, and once Redis answers again
   * with the job's keys the cluster sends what it had not confirmed, reads its pending entries
   * again and counts its taken ones again (both harmless twice). 0: on_error at once */
  double wait;
};

typedef struct cluster cluster;

struct cluster_handler {
  /* A batch of lines for this node, each ending in '\n'; id names its entry for cluster_ack. Both
   * are borrowed for the call only. Called on the loop's thread, from inside the loop. */
  void (*on_batch)(void *arg, const char *id, const char *lines, size_t len);
  /* Redis is gone or refused a command; message says which and why. After it the cluster sends
   * and reads no more (what was not confirmed stays in cluster_each_unconfirmed). Once. */
  void (*on_error)(void *arg, const char *message);
  /* Optional: Redis was lost and is being waited for (message says why), then answers again.
   * Each once per outage. */
  void (*on_wait)(void *arg, const char *message);
  void (*on_back)(void *arg);
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
/* The pause before the next try to reach Redis, at start or lost mid-run, after a pause of that
 * many seconds (0: before the first retry): 0.1 s, then twice as long each time, up to 2 s. */
double cluster_next_pause(double pause);
/* Drops what is not confirmed and closes both connections without calling the handler. NULL is
 * fine. Not from inside a handler's callback. */
void cluster_destroy(cluster *cl);

/* Appends lines (whole lines, each ending in '\n') to the outbox of node; sends it when it holds
 * batch_bytes. depth: the smallest depth these lines hold back until their owner has them
 * (INT_MAX: none). CORE_EINVAL for this node or one out of range, CORE_ESYS after on_error. */
core_rc cluster_send(cluster *cl, int node, const char *lines, size_t len, int depth);
/* Sends every outbox that holds anything. */
void cluster_flush(cluster *cl);
/* Acknowledges an entry on_batch gave this node and deletes it: Redis forgets it. */
core_rc cluster_ack(cluster *cl, const char *id);

/* For a node that keeps a checkpoint: cluster_ack_mark before it saves names every entry given
 * so far (their lines are in what it saves); once the save is safe, cluster_ack_through(mark)
 * acknowledges them (each as soon as a publish has counted it taken). What a node never
 * acknowledged is given again when it starts again, and a node holds back its idleness until
 * it has read all of that again. */
unsigned long cluster_ack_mark(const cluster *cl);
void cluster_ack_through(cluster *cl, unsigned long mark);

/* Publishes this node's smallest pending depth (INT_MAX: none), whether it is idle and whether it
 * stops (an interrupt the others take up), and counts every entry on_batch gave since the last
 * publish as taken: call it once what those entries hold is covered by gate (queued, or counted
 * pending in this process). Nothing is sent when nothing changed since the last publish (a
 * needless change of version would make the others' views read again). */
core_rc cluster_publish(cluster *cl, int gate, bool idle, bool stop);

struct cluster_view {
  int gate;        /* the smallest depth pending in any node or on its way to one; INT_MAX: none */
  int others_gate; /* the same but for this node's own published depth (its own to know) */
  bool stop;       /* a node asked the run to stop (since since_us) */
  bool done;       /* at one moment: every node joined and idle, none stopped, and nothing on
                      its way */
  bool consistent; /* false: the state kept changing under 16 reads; gate is then 0, done false */
  int joined;      /* nodes that have published at least once */
  long in_transit; /* entries appended and not yet published as taken, over all nodes */
  long pages;      /* pages started, as every node published it (cluster_set_pages) */
};
/* Reads the run's state; cb gets it on the loop's thread. false (and no call) while an earlier
 * view is still being read, or after on_error. */
bool cluster_view(cluster *cl, void (*cb)(void *arg, const struct cluster_view *view), void *arg);

/* -n across nodes: the job's limit is leased to the nodes in blocks, so that no page waits for a
 * round trip. cluster_lease asks for change more pages (granted what the limit leaves over every
 * node's leases, perhaps 0), or with a negative change gives back what this node will not use;
 * cb gets what was granted. cluster_lease_reset makes this node's lease what it has started
 * (pages): a node started again gives back what its last run leased and never began. A node
 * publishes the pages it has started (cluster_set_pages, sent with the next publish); a view
 * sums them, so every node knows when the limit is reached and nothing leased is left. */
core_rc cluster_lease(cluster *cl, long limit, long change, void (*cb)(void *arg, long granted),
                      void *arg);
core_rc cluster_lease_reset(cluster *cl, long pages);
void cluster_set_pages(cluster *cl, long pages);

/* Marks the job ended (every node saw the run done), so that no later run takes its state for
 * its own. */
core_rc cluster_mark_ended(cluster *cl);
/* Once this node has seen its job end: empties its stream (every entry was acknowledged, or the
 * job could not have ended) and forgets its taken set, and has Redis drop the job's keys, this
 * node's and the job's own, CLUSTER_FORGET_SECONDS later (until then a later run under the
 * name is told the job has ended). */
enum { CLUSTER_FORGET_SECONDS = 7 * 24 * 3600 };
core_rc cluster_forget(cluster *cl);
/* Before a node starts, over one blocking connection: whether the job has ended (*ended, and
 * nothing else is asked); Redis's clock (now_us, for since_us); and the options every process
 * of the job must share (options: lines of text that say what the crawl is). The first process
 * to start keeps its own in Redis; one whose options differ gets CORE_EINVAL, with why naming
 * the first line that differs. CORE_ESYS with why when Redis cannot be reached or refuses. */
core_rc cluster_job_join(const struct cluster_address *address, const char *options, bool *ended,
                         long long *now_us, char *why, size_t why_len);

/* Lines sent to other nodes that Redis has not confirmed yet, and lines still in the outboxes:
 * each batch with its node. A checkpoint writes these as links on their way. */
void cluster_each_unconfirmed(const cluster *cl,
                              void (*fn)(void *arg, int node, const char *lines, size_t len),
                              void *arg);
/* Batches sent whose confirmation has not come. */
size_t cluster_unconfirmed(const cluster *cl);
/* Every append, acknowledgement and publish sent has its answer: a node may stop without
 * leaving any of them half done. */
bool cluster_settled(const cluster *cl);
/* The entries on_batch has given this node so far. */
unsigned long cluster_entries_read(const cluster *cl);

#endif
