/* struct crawl, the run: what the shards of a crawl share (its handle is crawl/crawl.h's crawl).
 * Seen inside only by the files that keep it: run.c (its making and its end), mesh.c (links between
 * shards, the gate, pauses, the stop and the end) and budget.c (-n, -c, --rate). */
#ifndef CRAWL_RUN_INT_H
#define CRAWL_RUN_INT_H

#include "crawl/crawl-int.h"

#include <stdatomic.h>

struct shard_batch {
  struct shard_batch *next;
  size_t len;
  char data[]; /* lines "KH DEPTH REDIRECTS FROM URL\n"; FROM "-" for none */
};

struct shard_slot {
  struct shard *shard;
  crawl_take_fn *take;  /* where the links that reach it go */
  pthread_mutex_t turn; /* held by its thread except where it waits (see crawl__mesh_pause) */
  bool began;           /* its thread holds its turn: it may be paused */
  struct shard_batch *head, *tail; /* the inbox */
  int inbox_min;                   /* smallest depth its inbox's links count at; INT_MAX: none */
  int published;                   /* smallest depth pending in the shard, as of its last turn */
  bool idle;
  struct crawl_progress progress; /* its counts, as of its last turn */
};

/* The first hosts a run meets, each with its shard (crawl__mesh_owner). A slot is free while its
 * hash is 0; once set it never changes, so it is read without the lock. */
#define RUN_HOST_SLOTS 256
struct host_owner {
  _Atomic uint64_t hash;
  int owner;
};

struct crawl {
  const struct crawl_config *cfg;
  const struct crawl_sink *sink;
  double rate_next;        /* --rate: when the next request may start, under lock */
  bool running;            /* the shards' loops exist: crawl_stop may wake them */
  frontier_ip_table *ips;  /* --ip-delay's clocks, one per address, for every shard's frontier */
  fetch_cookies *cookies;  /* one jar for every shard (crawl_run's); NULL: --no-cookies */
  fetch_hosts *hosts_file; /* /etc/hosts, every shard's engine's (read again when it changes) */
  struct crawl_fragments *fragments; /* --check-fragments: one table, every shard's (crawl_run's) */
  /* the scope and --no-parent's directories, made from the seeds by the first shard as it
   * opens (seed.c), read by all, let go of with the run */
  url_scope *scope;
  char **seed_dirs;
  size_t seed_dir_count;
  int count;
  pthread_mutex_t lock;
  pthread_mutex_t owners_lock;
  struct host_owner owners[RUN_HOST_SLOTS]; /* filled under owners_lock, to 3/4 at most */
  int owners_used;
  int *owned;                /* in-scope hosts of owners given to each shard, under owners_lock */
  pthread_mutex_t warc_lock; /* the --warc writer, which all shards share */
  struct shard_slot *slots;
  int idle_count;
  bool done;
  enum shard_stop stop; /* the largest any shard asked for */
  crawl_end end;
  atomic_long pages_started; /* -n: pages started by all shards */
  /* -n with --cluster: the pages this process may still start, leased from Redis (bridge.c), and
   * whether the whole run has started all -n allows */
  bool pages_leased;
  atomic_long pages_lease;
  atomic_bool pages_final;
  atomic_long in_flight;    /* -c: requests in flight in all shards */
  atomic_bool spill_warned; /* a spill file could not be written, and it was said */
  atomic_bool stash_warned; /* the same of a stash of links fetched ahead (stash.c) */
  bool pausable;            /* the shards run holding their turns (crawl__mesh_set_pausable) */
  /* the barrier of the crawl's end (crawl__mesh_barrier), and the answers of crawl__mesh_any */
  pthread_cond_t turn;
  int members, arrived;
  unsigned long generation;
  int votes[3];
  /* --cluster (see bridge.c): links for hosts other processes own, on their way to the first
   * shard, which appends them to Redis; and what the other processes hold back */
  int nodes, node;
  struct remote_batch *remote_head, *remote_tail;
  int remote_min;   /* the smallest depth the remote batches hold back; INT_MAX: none */
  int sent_min;     /* appended since the last view was asked for; INT_MAX: none */
  int viewing_min;  /* appended before the view being read was asked for */
  int cluster_gate; /* the last view's: the smallest depth pending in other processes */
};

struct remote_batch {
  struct remote_batch *next;
  int node, min;
  size_t len;
  char data[];
};

#endif
