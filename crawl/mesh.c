/* The shards of a crawl (-j N): each a thread with its own loop, fetch engine, frontier and seen
 * filter, owning the hosts whose name hashes to it. What they share is here, in struct crawl (the
 * public handle of crawl/crawl.h): the inboxes (which mail.c fills and empties: a link found by
 * one shard reaches its host's owner as a line of text), the depth gate across shards,
 * --ip-delay's clocks, the lock of the --warc file, the stop (crawl_stop), the test for the end
 * of the crawl, and what the run makes once for all: the scope and --no-parent's directories
 * (the first shard's, from the seeds), the cookie jar, --check-fragments' table. What they count
 * together (-n, -c, --rate) is budget.c's.
 *
 * Depths stay breadth first across shards: a link on its way counts as pending at the depth of the
 * page it was found on until its owner has queued it, and a shard's own pending depths are
 * published once per turn, after its outboxes are sent. A shard's pages wait for the smallest of
 * all of these (frontier_set_outside_gate). Everything the gate and the end of the crawl read is
 * under one lock, taken a few times per turn, so what a shard reads is one consistent picture.
 *
 * The crawl ends when every shard is idle (nothing queued, in flight or held) and every inbox is
 * empty: a shard becomes busy again only through a batch sent to it, and sending one marks the
 * receiver busy under the same lock, so the last shard to go idle sees the whole run idle.
 *
 * A save of --seen or --state holds every shard's part at one moment. With several shards each
 * (but the first, which saves) runs holding a turn lock of its own, and lets go of it only where
 * it waits: in its loop's wait and at the barriers. The first shard takes all the others' turns,
 * so each is between two turns, writes what they hold (links on their way between shards
 * included), and gives them back. */
#include "crawl/run-int.h"
#include "crawl/life.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

void crawl__mesh_wake(struct crawl *r, int i) {
  if (r->slots[i].shard && r->slots[i].shard->loop)
    loop_wake(r->slots[i].shard->loop);
}

void crawl__mesh_wake_others(struct crawl *r, int self) {
  for (int i = 0; i < r->count; i++)
    if (i != self)
      crawl__mesh_wake(r, i);
}

core_rc crawl__mesh_create(int shards, struct crawl **out) {
  struct crawl *r = calloc(1, sizeof(*r));
  if (!r || !(r->slots = calloc((size_t)shards, sizeof(*r->slots))) ||
      !(r->owned = calloc((size_t)shards, sizeof(*r->owned)))) {
    if (r)
      free(r->slots);
    free(r);
    return CORE_ENOMEM;
  }
  if (pthread_mutex_init(&r->lock, NULL) != 0) {
    free(r->owned);
    free(r->slots);
    free(r);
    return CORE_ESYS;
  }
  if (pthread_cond_init(&r->turn, NULL) != 0 || pthread_mutex_init(&r->warc_lock, NULL) != 0 ||
      pthread_mutex_init(&r->owners_lock, NULL) != 0) {
    pthread_mutex_destroy(&r->lock);
    free(r->owned);
    free(r->slots);
    free(r);
    return CORE_ESYS;
  }
  for (int i = 0; i < RUN_HOST_SLOTS; i++)
    atomic_init(&r->owners[i].hash, 0);
  r->count = shards;
  r->members = shards;
  r->nodes = 1;
  r->remote_min = r->sent_min = r->viewing_min = INT_MAX;
  r->cluster_gate = INT_MAX;
  for (int i = 0; i < shards; i++) {
    pthread_mutex_init(&r->slots[i].turn, NULL); /* cannot fail for a default mutex (POSIX) */
    r->slots[i].inbox_min = INT_MAX;
    r->slots[i].published = 0; /* until its first turn: it may hold seeds */
  }
  atomic_init(&r->pages_started, 0);
  atomic_init(&r->in_flight, 0);
  atomic_init(&r->spill_warned, false);
  atomic_init(&r->stash_warned, false);
  r->end = CRAWL_END_DONE;
  *out = r;
  return CORE_OK;
}

frontier_ip_table *crawl__mesh_ip_table(const struct crawl *r) {
  return r->ips;
}

const struct crawl_config *crawl__mesh_config(const struct crawl *r) {
  return r->cfg;
}

const struct crawl_sink *crawl__mesh_sink(const struct crawl *r) {
  return r->sink;
}

void crawl__mesh_set_scope(struct crawl *r, url_scope *scope, char **dirs, size_t dir_count) {
  r->scope = scope;
  r->seed_dirs = dirs;
  r->seed_dir_count = dir_count;
}

url_scope *crawl__mesh_scope(const struct crawl *r) {
  return r->scope;
}

const char *const *crawl__mesh_seed_dirs(const struct crawl *r, size_t *count) {
  *count = r->seed_dir_count;
  return (const char *const *)r->seed_dirs;
}

fetch_cookies *crawl__mesh_cookies(const struct crawl *r) {
  return r->cookies;
}

fetch_hosts *crawl__mesh_hosts_file(const struct crawl *r) {
  return r->hosts_file;
}

struct crawl_fragments *crawl__mesh_fragments(const struct crawl *r) {
  return r->fragments;
}

void crawl__mesh_set_running(struct crawl *r, bool running) {
  pthread_mutex_lock(&r->lock);
  r->running = running;
  pthread_mutex_unlock(&r->lock);
}

void crawl_stop(struct crawl *r, crawl_end end) {
  pthread_mutex_lock(&r->lock);
  if (r->stop && r->end != CRAWL_END_DONE) {
    r->stop = STOP_NOW; /* a second signal: stop at once */
  } else if (!r->stop) {
    r->stop = STOP_FINISHING;
    r->end = end;
  }
  if (r->running)
    for (int i = 0; i < r->count; i++)
      crawl__mesh_wake(r, i);
  pthread_mutex_unlock(&r->lock);
}

void crawl__mesh_time_up(struct crawl *r) {
  pthread_mutex_lock(&r->lock);
  if (!r->stop) { /* once, from whichever shard sees it first; never a second stop */
    r->stop = STOP_FINISHING;
    r->end = CRAWL_END_TIME;
    for (int i = 0; r->running && i < r->count; i++)
      crawl__mesh_wake(r, i);
  }
  pthread_mutex_unlock(&r->lock);
}

void crawl__mesh_destroy(struct crawl *r) {
  if (!r)
    return;
  for (int i = 0; i < r->count; i++) {
    struct shard_batch *b = r->slots[i].head;
    while (b) {
      struct shard_batch *next = b->next;
      free(b);
      b = next;
    }
    pthread_mutex_destroy(&r->slots[i].turn);
  }
  while (r->remote_head) {
    struct remote_batch *b = r->remote_head;
    r->remote_head = b->next;
    free(b);
  }
  pthread_cond_destroy(&r->turn);
  pthread_mutex_destroy(&r->warc_lock);
  pthread_mutex_destroy(&r->lock);
  pthread_mutex_destroy(&r->owners_lock);
  url_scope_destroy(r->scope);
  for (size_t i = 0; i < r->seed_dir_count; i++)
    free(r->seed_dirs[i]);
  free(r->seed_dirs);
  free(r->owned);
  free(r->slots);
  free(r);
}

int crawl__mesh_shards(const struct crawl *r) {
  return r->count;
}

void crawl__mesh_attach(struct crawl *r, int shard, struct shard *c, crawl_take_fn *take) {
  r->slots[shard].shard = c;
  r->slots[shard].take = take;
  c->run = r;
  c->shard = shard;
}

struct shard *crawl__mesh_shard(const struct crawl *r, int i) {
  return r->slots[i].shard;
}

void crawl__mesh_set_pausable(struct crawl *r) {
  r->pausable = r->count > 1;
}

void crawl__mesh_take_turn(struct shard *c) {
  struct crawl *r = c->run;
  if (!r->pausable || c->shard == 0)
    return;
  struct shard_slot *s = &r->slots[c->shard];
  pthread_mutex_lock(&s->turn);
  if (c->loop)
    loop_set_wait_lock(c->loop, &s->turn);
  pthread_mutex_lock(&r->lock);
  s->began = true;
  pthread_mutex_unlock(&r->lock);
}

void crawl__mesh_give_turn(struct shard *c) {
  struct crawl *r = c->run;
  if (!r->pausable || c->shard == 0)
    return;
  if (c->loop)
    loop_set_wait_lock(c->loop, NULL);
  pthread_mutex_unlock(&r->slots[c->shard].turn);
}

/* Around a wait at a barrier: the shard lets go of its turn while it waits. */
static void let_go(struct crawl *r, int self) {
  if (r->pausable && self > 0)
    pthread_mutex_unlock(&r->slots[self].turn);
}

static void take_back(struct crawl *r, int self) {
  if (r->pausable && self > 0)
    pthread_mutex_lock(&r->slots[self].turn);
}

bool crawl__mesh_pause(struct crawl *r) {
  if (!r->pausable)
    return true;
  pthread_mutex_lock(&r->lock);
  bool all = true;
  for (int i = 1; i < r->count; i++)
    all &= r->slots[i].began;
  pthread_mutex_unlock(&r->lock);
  if (!all) /* a shard that has not begun may still have its part of a checkpoint to restore */
    return false;
  /* only the first shard pauses, and in one order: no two pausers wait for each other */
  for (int i = 1; i < r->count; i++)
    pthread_mutex_lock(&r->slots[i].turn);
  return true;
}

void crawl__mesh_resume(struct crawl *r) {
  for (int i = r->count - 1; r->pausable && i >= 1; i--)
    pthread_mutex_unlock(&r->slots[i].turn);
}

void crawl__mesh_warc_lock(struct crawl *r) {
  pthread_mutex_lock(&r->warc_lock);
}

void crawl__mesh_warc_unlock(struct crawl *r) {
  pthread_mutex_unlock(&r->warc_lock);
}

/* By the host name: every politeness rule of doc/behaviour.md (--delay, Crawl-delay, --per-host,
 * robots.txt) is per host, so each stays whole in one shard, and a site of many hosts spreads over
 * all of them. XXH3 has no seed: every run, and every process of a cluster, agrees. With --cluster
 * the same hash picks the process first (hash mod nodes) and then its shard (the rest of the hash),
 * so each process may run any number of shards. */
int crawl__mesh_node_of(const struct crawl *r, const char *host) {
  return r->nodes == 1 ? 0 : (int)(XXH3_64bits(host, strlen(host)) % (uint64_t)r->nodes);
}

bool crawl__mesh_is_cluster(const struct crawl *r) {
  return r->cfg && r->cfg->cluster;
}

/* A host's owner among this process's shards by its hash alone (doc/design.md, Shards). */
static int hashed_owner(const struct crawl *r, uint64_t h) {
  return (int)((h / (uint64_t)r->nodes) % (uint64_t)r->count);
}

/* The host's slot among the run's first hosts, or the free slot where it would go. */
static struct host_owner *owner_slot(struct crawl *r, uint64_t h, uint64_t *found) {
  for (size_t i = h % RUN_HOST_SLOTS;; i = (i + 1) % RUN_HOST_SLOTS) {
    *found = atomic_load_explicit(&r->owners[i].hash, memory_order_acquire);
    if (*found == h || *found == 0)
      return &r->owners[i];
  }
}

/* Among the first RUN_HOST_SLOTS * 3/4 hosts a run meets, each in scope goes to the shard that
 * owns the fewest of them: a crawl of a few hosts spreads over all shards, which their hashes
 * alone do not promise (the four host names of the Python manual's benchmark hash three to one
 * shard of two, and -j 2 ran at 0.67 of its possible rate). The others met then keep a slot too,
 * placed by hash, so no later link to them takes the lock. Past those, the hash decides, which
 * spreads many hosts evenly. Once given, an owner never changes within the run. */
int crawl__mesh_owner(struct shard *c, const char *host) {
  struct crawl *r = c->run;
  if (r->count == 1)
    return 0;
  uint64_t h = XXH3_64bits(host, strlen(host)), found;
  h += h == 0; /* 0 marks a free slot */
  struct host_owner *slot = owner_slot(r, h, &found);
  if (found == h)
    return slot->owner;
  pthread_mutex_lock(&r->owners_lock);
  slot = owner_slot(r, h, &found); /* another shard may have given it meanwhile */
  int owner;
  if (found == h) {
    owner = slot->owner;
  } else if (r->owners_used >= RUN_HOST_SLOTS * 3 / 4) {
    owner = hashed_owner(r, h);
  } else {
    owner = hashed_owner(r, h);
    /* a host of another process, or out of scope, fetches nothing here: no load to spread */
    if (crawl__mesh_node_of(r, host) == r->node &&
        (!r->scope || url_scope_contains(r->scope, host))) {
      for (int i = 0; i < r->count; i++)
        if (r->owned[i] < r->owned[owner])
          owner = i;
      r->owned[owner]++;
    }
    slot->owner = owner;
    atomic_store_explicit(&slot->hash, h, memory_order_release);
    r->owners_used++;
  }
  pthread_mutex_unlock(&r->owners_lock);
  return owner;
}

void crawl__mesh_view_asked(struct crawl *r) {
  pthread_mutex_lock(&r->lock);
  if (r->sent_min < r->viewing_min)
    r->viewing_min = r->sent_min;
  r->sent_min = INT_MAX;
  pthread_mutex_unlock(&r->lock);
}

void crawl__mesh_view_read(struct crawl *r, int gate, bool done) {
  pthread_mutex_lock(&r->lock);
  bool rose = gate > r->cluster_gate;
  r->cluster_gate = gate;
  r->viewing_min = INT_MAX;
  if (done)
    r->done = true;
  pthread_mutex_unlock(&r->lock);
  if (rose || done)
    crawl__mesh_wake_others(r, 0);
}

void crawl__mesh_node_state(struct crawl *r, int *gate, bool *idle) {
  pthread_mutex_lock(&r->lock);
  int g = r->remote_min;
  if (r->sent_min < g)
    g = r->sent_min;
  if (r->viewing_min < g)
    g = r->viewing_min;
  bool all_idle = r->idle_count == r->count && !r->remote_head;
  for (int i = 0; i < r->count; i++) {
    const struct shard_slot *s = &r->slots[i];
    if (s->published < g)
      g = s->published;
    if (s->inbox_min < g)
      g = s->inbox_min;
    if (s->head)
      all_idle = false;
  }
  pthread_mutex_unlock(&r->lock);
  *gate = g;
  *idle = all_idle;
}

int crawl__mesh_publish(struct shard *c, const struct crawl_progress *progress) {
  struct crawl *r = c->run;
  struct shard_slot *self = &r->slots[c->shard];
  int local = frontier_local_gate(c->fr);
  pthread_mutex_lock(&r->lock);
  int before = self->published < self->inbox_min ? self->published : self->inbox_min;
  self->published = local;
  if (!self->head)
    self->inbox_min = INT_MAX; /* what was taken is queued (in local) by now */
  self->progress = *progress;
  int after = local < self->inbox_min ? local : self->inbox_min;
  int outside = self->inbox_min;
  /* --cluster: what other processes hold, and what is on its way to them from this one */
  int remote[] = {r->remote_min, r->sent_min, r->viewing_min, r->cluster_gate};
  for (size_t i = 0; i < sizeof(remote) / sizeof(*remote); i++)
    if (remote[i] < outside)
      outside = remote[i];
  for (int i = 0; i < r->count; i++) {
    const struct shard_slot *s = &r->slots[i];
    if (i == c->shard)
      continue;
    if (s->published < outside)
      outside = s->published;
    if (s->inbox_min < outside)
      outside = s->inbox_min;
  }
  pthread_mutex_unlock(&r->lock);
  if (after > before)
    crawl__mesh_wake_others(r, c->shard); /* their gate may move */
  return outside;
}

bool crawl__mesh_idle(struct shard *c) {
  struct crawl *r = c->run;
  struct shard_slot *self = &r->slots[c->shard];
  pthread_mutex_lock(&r->lock);
  if (!self->head && !self->idle) {
    self->idle = true;
    /* with --cluster the end is the whole run's, which the first shard reads from Redis */
    if (++r->idle_count == r->count && !crawl__mesh_is_cluster(r))
      r->done = true;
  }
  bool done = r->done;
  pthread_mutex_unlock(&r->lock);
  if (done)
    crawl__mesh_wake_others(r, c->shard);
  return done;
}

bool crawl__mesh_done(struct shard *c) {
  struct crawl *r = c->run;
  pthread_mutex_lock(&r->lock);
  bool done = r->done;
  pthread_mutex_unlock(&r->lock);
  return done;
}

void crawl__mesh_sync_stop(struct shard *c) {
  struct crawl *r = c->run;
  bool raised = false;
  pthread_mutex_lock(&r->lock);
  enum shard_stop stop = crawl__life_stop(c);
  if (stop > r->stop) {
    r->stop = stop;
    if (r->end == CRAWL_END_DONE || crawl__life_end(c) == CRAWL_END_FATAL)
      r->end = crawl__life_end(c);
    raised = true;
  } else if (r->stop > stop) {
    crawl__life_set_stop(c, r->stop);
    if (crawl__life_end(c) == CRAWL_END_DONE)
      crawl__life_set_end(c, r->end);
  }
  pthread_mutex_unlock(&r->lock);
  if (raised)
    crawl__mesh_wake_others(r, c->shard);
}

crawl_end crawl__mesh_end(struct crawl *r) {
  pthread_mutex_lock(&r->lock);
  crawl_end end = r->end;
  pthread_mutex_unlock(&r->lock);
  return end;
}

void crawl__mesh_progress(struct crawl *r, struct crawl_progress *sum) {
  *sum = (struct crawl_progress){0};
  pthread_mutex_lock(&r->lock);
  for (int i = 0; i < r->count; i++) {
    const struct crawl_progress *p = &r->slots[i].progress;
    sum->pages += p->pages;
    sum->failed += p->failed;
    sum->queued += p->queued;
    sum->spilled += p->spilled;
    sum->hosts += p->hosts;
    if (p->left > sum->left) { /* the shards work at once: the slowest holds the crawl up */
      sum->left = p->left;
      snprintf(sum->left_host, sizeof(sum->left_host), "%s", p->left_host);
    }
  }
  pthread_mutex_unlock(&r->lock);
}

static void barrier_locked(struct crawl *r) {
  unsigned long generation = r->generation;
  if (++r->arrived >= r->members) {
    r->arrived = 0;
    r->generation++;
    pthread_cond_broadcast(&r->turn);
    return;
  }
  while (generation == r->generation)
    pthread_cond_wait(&r->turn, &r->lock);
}

void crawl__mesh_barrier(struct crawl *r, int self) {
  let_go(r, self);
  pthread_mutex_lock(&r->lock);
  barrier_locked(r);
  pthread_mutex_unlock(&r->lock);
  take_back(r, self);
}

void crawl__mesh_leave(struct crawl *r) {
  pthread_mutex_lock(&r->lock);
  if (--r->members > 0 && r->arrived >= r->members) {
    r->arrived = 0;
    r->generation++;
    pthread_cond_broadcast(&r->turn);
  }
  pthread_mutex_unlock(&r->lock);
}

/* Three slots: round k counts in slot k % 3 and clears the next one, which no shard can still be
 * reading (all of them passed round k - 1's barrier after reading round k - 2's answer). */
bool crawl__mesh_any(struct crawl *r, int self, int round, bool mine) {
  int slot = round % 3;
  let_go(r, self);
  pthread_mutex_lock(&r->lock);
  r->votes[(slot + 1) % 3] = 0;
  r->votes[slot] += mine;
  barrier_locked(r);
  bool any = r->votes[slot] > 0;
  pthread_mutex_unlock(&r->lock);
  take_back(r, self);
  return any;
}
