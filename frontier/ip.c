/* frontier/ip.c: the table of addresses (--ip-delay). The hosts of one address take turns, one
 * request at a time with the gap between. The address's clock is in a table that several
 * frontiers (the shards of a crawl, each on its own thread) may share: a pop claims the address
 * under the table's lock, its end gives it back with the gap. */
#include "frontier/frontier-int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

struct ip_slot {
  char *addr;
  _Atomic double next_time; /* read without the lock (heap keys), written under it */
  bool busy;                /* a request to it is in flight (under the table's lock) */
  struct ip_slot *next;     /* hash chain */
};

struct frontier_ip_table {
  pthread_mutex_t lock;
  struct ip_slot **buckets; /* grown at two addresses a bucket: a broad crawl meets many */
  size_t bucket_count, slot_count;
};

core_rc frontier_ip_table_create(frontier_ip_table **out) {
  frontier_ip_table *t = calloc(1, sizeof(*t));
  if (!t || !(t->buckets = calloc(1024, sizeof(*t->buckets)))) {
    free(t);
    return CORE_ENOMEM;
  }
  if (pthread_mutex_init(&t->lock, NULL) != 0) {
    free(t->buckets);
    free(t);
    return CORE_ESYS;
  }
  t->bucket_count = 1024;
  *out = t;
  return CORE_OK;
}

void frontier_ip_table_destroy(frontier_ip_table *t) {
  if (!t)
    return;
  for (size_t b = 0; b < t->bucket_count; b++) {
    while (t->buckets[b]) {
      struct ip_slot *s = t->buckets[b];
      t->buckets[b] = s->next;
      free(s->addr);
      free(s);
    }
  }
  pthread_mutex_destroy(&t->lock);
  free(t->buckets);
  free(t);
}

/* Twice the buckets, under the table's lock; the slots stay where they are (hosts point at
 * them). When memory runs out the chains grow longer instead. */
static void ip_table_grow(frontier_ip_table *t) {
  size_t n = t->bucket_count * 2;
  struct ip_slot **grown = calloc(n, sizeof(*grown));
  if (!grown)
    return;
  for (size_t b = 0; b < t->bucket_count; b++) {
    while (t->buckets[b]) {
      struct ip_slot *s = t->buckets[b];
      t->buckets[b] = s->next;
      size_t nb = (size_t)(XXH3_64bits(s->addr, strlen(s->addr)) % n);
      s->next = grown[nb];
      grown[nb] = s;
    }
  }
  free(t->buckets);
  t->buckets = grown;
  t->bucket_count = n;
}

/* The slot of addr, made on first sight; NULL when memory runs out. */
struct ip_slot *frontier__ip_slot(frontier_ip_table *t, const char *addr) {
  uint64_t hash = XXH3_64bits(addr, strlen(addr));
  pthread_mutex_lock(&t->lock);
  size_t b = (size_t)(hash % t->bucket_count);
  struct ip_slot *s = t->buckets[b];
  while (s && strcmp(s->addr, addr) != 0)
    s = s->next;
  if (!s) {
    s = calloc(1, sizeof(*s));
    if (s && (s->addr = strdup(addr))) {
      atomic_init(&s->next_time, 0);
      s->next = t->buckets[b];
      t->buckets[b] = s;
      if (++t->slot_count > 2 * t->bucket_count)
        ip_table_grow(t);
    } else {
      free(s);
      s = NULL;
    }
  }
  pthread_mutex_unlock(&t->lock);
  return s;
}

/* Takes the address for one request at now: false when one is in flight or its gap runs. */
bool frontier__ip_claim(frontier_ip_table *t, struct ip_slot *s, double now) {
  pthread_mutex_lock(&t->lock);
  bool free_now = !s->busy && atomic_load(&s->next_time) <= now;
  if (free_now)
    s->busy = true;
  pthread_mutex_unlock(&t->lock);
  return free_now;
}

/* Gives the address back; with a gap (a request ended at now), none starts before now + gap. */
void frontier__ip_release(frontier_ip_table *t, struct ip_slot *s, double until) {
  pthread_mutex_lock(&t->lock);
  s->busy = false;
  if (until > atomic_load(&s->next_time))
    atomic_store(&s->next_time, until);
  pthread_mutex_unlock(&t->lock);
}

double frontier__ip_next_time(const struct ip_slot *s) {
  return atomic_load_explicit(&s->next_time, memory_order_relaxed);
}

const char *frontier__ip_addr(const struct ip_slot *s) {
  return s->addr;
}
