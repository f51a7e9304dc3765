/* Hosts waiting for a lookup, first come first served. The owner runs a bounded number of DNS
 * lookups at once (frontier_set_lookup_slots); a host whose turn is its lookup when none may
 * start leaves the heap for this queue, and frontier.c hands hosts back to the heap from its
 * head as lookups end. Without it such a host went back to the heap to be popped again 5 ms
 * later: on a broad crawl at -c 1000 thousands of new hosts wait at once, and popping them over
 * and over was 8% of the crawl's CPU (doc/design.md, Connections). */
#include "frontier/frontier-int.h"

#include <stdlib.h>

core_rc frontier__lookup_wait(frontier *f, struct frontier_host *h) {
  struct frontier_lookups *q = &f->lookups;
  if (q->len == q->cap) {
    size_t cap = q->cap ? q->cap * 2 : 64;
    struct frontier_host **grown = malloc(cap * sizeof(*grown));
    if (!grown)
      return CORE_ENOMEM;
    for (size_t i = 0; i < q->len; i++) /* unrolled from the ring, oldest first */
      grown[i] = q->hosts[(q->head + i) % q->cap];
    free(q->hosts);
    q->hosts = grown;
    q->cap = cap;
    q->head = 0;
  }
  q->hosts[(q->head + q->len++) % q->cap] = h;
  h->lookup_waiting = true;
  return CORE_OK;
}

struct frontier_host *frontier__lookup_next(frontier *f) {
  struct frontier_lookups *q = &f->lookups;
  if (!q->len)
    return NULL;
  struct frontier_host *h = q->hosts[q->head];
  q->head = (q->head + 1) % q->cap;
  q->len--;
  h->lookup_waiting = false;
  return h;
}

size_t frontier_lookups_waiting(const frontier *f) {
  return f->lookups.len;
}

void frontier__lookups_free(frontier *f) {
  free(f->lookups.hosts);
}
