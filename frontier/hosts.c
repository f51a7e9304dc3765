/* frontier/hosts.c: the table of hosts in memory, by their origin's hash (a chain a bucket, grown
 * to as many buckets as hosts), and what a host's queues say of it. */
#include "frontier/frontier-int.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static core_rc grow_hosts(frontier *f) {
  size_t n = f->host_buckets * 2;
  struct frontier_host **table = calloc(n, sizeof(*table));
  if (!table)
    return CORE_ENOMEM;
  for (size_t b = 0; b < f->host_buckets; b++) {
    while (f->hosts[b]) {
      struct frontier_host *h = f->hosts[b];
      f->hosts[b] = h->next;
      const char *origin = frontier__origin(h);
      size_t nb = (size_t)(XXH3_64bits(origin, strlen(origin)) % n);
      h->next = table[nb];
      table[nb] = h;
    }
  }
  free(f->hosts);
  f->hosts = table;
  f->host_buckets = n;
  return CORE_OK;
}

struct frontier_host *frontier__host_new(const frontier *f, const char *origin, size_t origin_len) {
  size_t data = (size_t)f->data_words * 8;
  struct frontier_host *h = calloc(1, HOST_DATA_AT + data + origin_len + 1);
  if (!h)
    return NULL;
  h->data_words = f->data_words;
  memcpy(frontier__origin(h), origin, origin_len);
  return h;
}

void frontier__host_free(const frontier *f, struct frontier_host *h) {
  if (f->release_data && h->data_words)
    f->release_data(frontier__host_data(h));
  free(h);
}

/* The slot of a host's origin in the table of hosts in memory. */
static size_t bucket_of(const frontier *f, uint64_t hash) {
  return (size_t)(hash % f->host_buckets);
}

struct frontier_host *frontier__host_in_memory(const frontier *f, const char *origin,
                                               uint64_t hash) {
  for (struct frontier_host *h = f->hosts[bucket_of(f, hash)]; h; h = h->next)
    if (strcmp(frontier__origin(h), origin) == 0)
      return h;
  return NULL;
}

void frontier__host_link(frontier *f, struct frontier_host *h, uint64_t hash) {
  if (f->host_count >= f->host_buckets)
    grow_hosts(f); /* when it cannot, the chains grow longer instead */
  size_t b = bucket_of(f, hash);
  h->next = f->hosts[b];
  f->hosts[b] = h;
  f->host_count++;
}

bool frontier_host_has_queued(const frontier_host *host) {
  return host->head || host->sitemap_head || host->spill_head;
}

unsigned frontier_host_in_flight(const frontier_host *host) {
  return host->in_flight + host->setup_in_flight;
}

bool frontier_host_idle(const frontier_host *host) {
  return !frontier_host_has_queued(host) && !frontier_host_in_flight(host);
}
