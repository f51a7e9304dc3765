/* Hosts waiting for a lookup. The owner runs a bounded number of DNS lookups at once
 * (frontier_set_lookup_slots); a host whose turn is its lookup when none may start leaves the
 * heap for a queue of its own here, first come first served, and goes back to the heap as
 * lookups end, due at that moment: behind whatever was due before it, as a page that came due
 * then would be. Without the queue such a host went back to the heap to be popped again 5 ms
 * later: on a broad crawl at -c 1000 thousands of new hosts wait at once, and popping them over
 * and over was 8% of the crawl's CPU. Handed back at their first keys, they went ahead of every
 * page due and the broad web took 4% longer (doc/design.md, Lookups waiting their turn). */
#include "frontier/frontier-int.h"

#include <math.h>
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

void frontier_set_lookup_slots(frontier *f, size_t slots, double now) {
  struct frontier_lookups *q = &f->lookups;
  q->slots = slots;
  /* as many go back as may start, due by now, pages due before them still ahead of them; each a
   * hair after the one before it, the last at now, so that the heap keeps their order */
  size_t back = slots < q->len ? slots : q->len;
  double due = now;
  for (size_t n = 1; n < back; n++)
    due = nextafter(due, -INFINITY);
  for (size_t n = 0; n < back; n++) {
    struct frontier_host *h = q->hosts[q->head];
    q->head = (q->head + 1) % q->cap;
    q->len--;
    h->lookup_waiting = false;
    if (h->head && h->head->not_before < due)
      h->head->not_before = due;
    due = nextafter(due, INFINITY);
    frontier__update(f, h);
  }
}

size_t frontier_lookups_waiting(const frontier *f) {
  return f->lookups.len;
}

void frontier__lookups_free(frontier *f) {
  free(f->lookups.hosts);
}
