/* frontier/index.c: the pages in memory by URL, so that a redirect target queued before as a
 * deeper link is found, and moved up to the redirect's depth, however long its host's queue
 * (frontier_take_deeper). Open addressing, linear probing, each slot with its URL's hash. */
#include "frontier/frontier-int.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static uint64_t url_hash(const char *url) {
  return XXH3_64bits(url, strlen(url));
}

static void index_put(frontier *f, struct frontier_item *item, uint64_t hash) {
  size_t mask = f->index_cap - 1, i = (size_t)hash & mask;
  while (f->index[i].item)
    i = (i + 1) & mask;
  f->index[i] = (struct index_slot){item, hash};
  f->index_count++;
}

void frontier__index_add(frontier *f, struct frontier_item *item) {
  if (f->index_off)
    return;
  if ((f->index_count + 1) * 4 > f->index_cap * 3) {
    size_t cap = f->index_cap ? f->index_cap * 2 : 1024;
    struct index_slot *old = f->index, *grown = calloc(cap, sizeof(*grown));
    size_t old_cap = f->index_cap;
    if (!grown) { /* redirect targets keep their links' depth from now on; nothing is lost */
      free(f->index);
      f->index = NULL;
      f->index_cap = f->index_count = 0;
      f->index_off = true;
      return;
    }
    f->index = grown;
    f->index_cap = cap;
    f->index_count = 0;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].item)
        index_put(f, old[i].item, old[i].hash);
    free(old);
  }
  index_put(f, item, url_hash(item->url));
}

void frontier__index_remove(frontier *f, const struct frontier_item *item) {
  if (f->index_off)
    return;
  size_t mask = f->index_cap - 1, i = (size_t)url_hash(item->url) & mask;
  while (f->index[i].item != item)
    i = (i + 1) & mask;
  /* backward shift: a later entry whose home is not between the hole and itself moves into the
   * hole, so every probe still reaches what it looks for */
  for (size_t j = (i + 1) & mask; f->index[j].item; j = (j + 1) & mask) {
    size_t home = (size_t)f->index[j].hash & mask;
    if (((j - home) & mask) >= ((j - i) & mask)) {
      f->index[i] = f->index[j];
      i = j;
    }
  }
  f->index[i].item = NULL;
  f->index_count--;
}

struct frontier_item *frontier__index_find(const frontier *f, const char *url) {
  if (f->index_off || !f->index_count)
    return NULL;
  uint64_t hash = url_hash(url);
  size_t mask = f->index_cap - 1;
  for (size_t i = (size_t)hash & mask; f->index[i].item; i = (i + 1) & mask)
    if (f->index[i].hash == hash && strcmp(f->index[i].item->url, url) == 0)
      return f->index[i].item;
  return NULL;
}
