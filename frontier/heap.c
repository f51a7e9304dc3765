/* frontier/heap.c: the hosts with something that may start, in a binary min-heap by the
 * earliest time each may (its key), so that a pop looks at the top alone and a key's change
 * costs O(log hosts). */
#include "frontier/frontier-int.h"

#include <math.h>
#include <stdlib.h>

static void heap_set(frontier *f, size_t i, struct frontier_host *h) {
  f->heap[i] = h;
  h->heap_index = (uint32_t)i;
}

static void heap_up(frontier *f, size_t i) {
  struct frontier_host *h = f->heap[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (f->heap[parent]->key <= h->key)
      break;
    heap_set(f, i, f->heap[parent]);
    i = parent;
  }
  heap_set(f, i, h);
}

static void heap_down(frontier *f, size_t i) {
  struct frontier_host *h = f->heap[i];
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= f->heap_len)
      break;
    if (child + 1 < f->heap_len && f->heap[child + 1]->key < f->heap[child]->key)
      child++;
    if (f->heap[child]->key >= h->key)
      break;
    heap_set(f, i, f->heap[child]);
    i = child;
  }
  heap_set(f, i, h);
}

void frontier__heap_leave(frontier *f, struct frontier_host *h) {
  size_t i = h->heap_index;
  if (i == HEAP_NONE)
    return;
  h->heap_index = HEAP_NONE;
  struct frontier_host *last = f->heap[--f->heap_len];
  if (i == f->heap_len)
    return;
  heap_set(f, i, last);
  heap_up(f, i);
  heap_down(f, last->heap_index);
}

static core_rc heap_insert(frontier *f, struct frontier_host *h) {
  if (f->heap_len >= HEAP_NONE) /* a host's heap_index has 32 bits (frontier-int.h) */
    return CORE_ENOMEM;
  if (f->heap_len == f->heap_cap) {
    size_t cap = f->heap_cap ? f->heap_cap * 2 : 64;
    struct frontier_host **grown = realloc(f->heap, cap * sizeof(*grown));
    if (!grown)
      return CORE_ENOMEM;
    f->heap = grown;
    f->heap_cap = cap;
  }
  heap_set(f, f->heap_len++, h);
  heap_up(f, h->heap_index);
  return CORE_OK;
}

void frontier__heap_place(frontier *f, struct frontier_host *h, double key) {
  if (isinf(key)) {
    frontier__heap_leave(f, h);
    return;
  }
  if (h->heap_index == HEAP_NONE) {
    h->key = key;
    if (heap_insert(f, h) != CORE_OK)
      h->heap_index = HEAP_NONE; /* retried at the host's next update */
    return;
  }
  double old = h->key;
  h->key = key;
  if (key < old)
    heap_up(f, h->heap_index);
  else
    heap_down(f, h->heap_index);
}

struct frontier_host *frontier__heap_top(const frontier *f) {
  return f->heap_len ? f->heap[0] : NULL;
}
