/* frontier/item.c: a queued item and its strings in one allocation. */
#include "frontier/frontier-int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* An item and its strings in one allocation (a queue may hold a hundred thousand of them):
 * url_len and from_len bytes of room, each with its '\0'; from is NULL when has_from is false. */
struct frontier_item *frontier__item_alloc(size_t url_len, bool has_from, size_t from_len) {
  size_t size = offsetof(struct frontier_item, url) + url_len + 1 + (has_from ? from_len + 1 : 0);
  if (size < sizeof(struct frontier_item)) /* never less than the type the pointer says it is */
    size = sizeof(struct frontier_item);
  struct frontier_item *item = calloc(1, size);
  if (!item)
    return NULL;
  item->from = has_from ? item->url + url_len + 1 : NULL;
  return item;
}

struct frontier_item *frontier_item_new(frontier_kind kind, const char *url, const char *from,
                                        int depth) {
  size_t url_len = strlen(url), from_len = from ? strlen(from) : 0;
  struct frontier_item *item = frontier__item_alloc(url_len, from != NULL, from_len);
  if (!item)
    return NULL;
  item->kind = kind;
  item->depth = depth;
  memcpy(item->url, url, url_len + 1);
  if (from)
    memcpy(item->from, from, from_len + 1);
  return item;
}

void frontier_item_free(struct frontier_item *item) {
  free(item); /* its strings with it */
}
