/* cluster/: what its files share: the cluster's state (struct cluster, which only cluster/ sees),
 * its connections (link.c), and the Lua scripts the nodes run in Redis with the name of their
 * consumer group (scripts.c), which cluster.c, view.c and job.c run. */
#ifndef CRAWL_CLUSTER_INT_H
#define CRAWL_CLUSTER_INT_H

#include "cluster/cluster.h"

#include "core/core.h"
#include "loop/loop.h"

#include <hiredis/async.h>

enum {
  DEFAULT_BATCH = 64 * 1024,
  DEFAULT_READ_COUNT = 64,
  READ_BLOCK_MS = 1000, /* an idle reader asks again once a second */
  KEY_MAX = 96,
};

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

/* link.c: a connection to Redis on the cluster's loop; opened (why says what failed) and closed
 * (its callbacks see cl->destroying and do nothing). */
core_rc cluster__link_open(cluster *cl, struct redis_link *l, char *why, size_t why_len);
void cluster__link_close(struct redis_link *l);
/* link.c: the cluster fails once (its handler's on_error); Redis is lost for a while (waited for
 * up to opt.wait, else it fails); a reply checked, false (having failed or lost) when it is none
 * or an error. */
void cluster__fail(cluster *cl, const char *what, const char *detail);
void cluster__lost(cluster *cl, const char *what, const char *detail);
bool cluster__reply_ok(cluster *cl, const redisReply *reply, const char *command);
/* address.c: the key of a node's stream, state or taken set in the job at a. */
void cluster__node_key(const struct cluster_address *a, int node, const char *what, char *key,
                       size_t size);

/* The consumer group every node reads its stream through. */
extern const char cluster__group[];
/* KEYS: the receiver's stream and state; ARGV: the lines, the depth they hold back. */
extern const char cluster__send_script[];
/* KEYS: this node's state and taken set; ARGV: gate, idle, stop, pages, then id and depth pairs. */
extern const char cluster__publish_script[];
/* KEYS: the job's hash of pages leased; ARGV: the node, the change, the limit. */
extern const char cluster__lease_script[];
/* KEYS: this node's stream and taken set; ARGV: the group, the id. */
extern const char cluster__ack_script[];

#endif
