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
      size_t nb = (size_t)(XXH3_64bits(h->origin, strlen(h->origin)) % n);
      h->next = table[nb];
      table[nb] = h;
    }
  }
  free(f->hosts);
  f->hosts = table;
  f->host_buckets = n;
  return CORE_OK;
}

/* The slot of a host's origin in the table of hosts in memory. */
static size_t bucket_of(const frontier *f, uint64_t hash) {
  return (size_t)(hash % f->host_buckets);
}

struct frontier_host *frontier__host_in_memory(const frontier *f, const char *origin,
                                               uint64_t hash) {
  for (struct frontier_host *h = f->hosts[bucket_of(f, hash)]; h; h = h->next)
    if (strcmp(h->origin, origin) == 0)
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
