/* frontier/spill.c: the spill file. Past --queue-memory pages in memory, a host's further pages
 * go to the back of its chain in one unlinked temporary file, and come back when its pages in
 * memory run out (frontier.c's refill); order within a host is kept. */
#include "frontier/frontier-int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A spilled page: this header, then the URL, then from (from_len is UINT32_MAX for none). */
struct spill_record {
  uint64_t next;      /* offset + 1 of the host's next spilled page; 0: the last */
  int32_t next_depth; /* that page's depth */
  uint32_t flags;
  double not_before;
  uint32_t url_len, from_len;
  int32_t depth, attempts, redirects;
  int32_t taken; /* read back out of turn (frontier__spill_take_deeper): its turn passes it over */
};

static core_rc spill_open(frontier *f) {
  int fd = core_temp_fd("queue");
  if (fd < 0)
    return CORE_ESYS;
  f->spill_fd = fd;
  return CORE_OK;
}

/* Appends item to the back of host's chain; on success the item is no longer needed. */
core_rc frontier__spill_append(frontier *f, struct frontier_host *h,
                               const struct frontier_item *item) {
  if (f->spill_fd < 0 && spill_open(f) != CORE_OK)
    return CORE_ESYS;
  size_t url_len = strlen(item->url), from_len = item->from ? strlen(item->from) : 0;
  if (url_len >= UINT32_MAX || from_len >= UINT32_MAX)
    return CORE_EINVAL;
  struct spill_record rec;
  memset(&rec, 0, sizeof(rec)); /* its padding too: no stale stack bytes go to the file */
  rec.flags = item->flags;
  rec.not_before = item->not_before;
  rec.url_len = (uint32_t)url_len;
  rec.from_len = item->from ? (uint32_t)from_len : UINT32_MAX;
  rec.depth = item->depth;
  rec.attempts = item->attempts;
  rec.redirects = item->redirects;
  uint64_t at = f->spill_end;
  /* one write of the record: a broad crawl spills most of its pages, and each write is a call
   * into the kernel */
  size_t size = sizeof(rec) + url_len + from_len;
  char stack[1024], *buf = size <= sizeof(stack) ? stack : malloc(size);
  if (!buf)
    return CORE_ENOMEM;
  memcpy(buf, &rec, sizeof(rec));
  memcpy(buf + sizeof(rec), item->url, url_len);
  if (item->from)
    memcpy(buf + sizeof(rec) + url_len, item->from, from_len);
  core_rc rc = core_write_at(f->spill_fd, buf, size, at);
  if (buf != stack)
    free(buf);
  /* link it from the previous last page: only now is it part of the chain */
  uint64_t link = at + 1;
  struct spill_record linked = {.next = link, .next_depth = item->depth};
  if (!rc && h->spill_tail)
    rc = core_write_at(f->spill_fd, &linked, offsetof(struct spill_record, flags),
                       h->spill_tail - 1);
  if (rc)
    return rc;
  f->spill_end = at + sizeof(rec) + url_len + from_len;
  if (!h->spill_head) {
    h->spill_head = link;
    h->spill_head_depth = item->depth;
  }
  h->spill_tail = link;
  h->spill_tail_depth = item->depth;
  h->spilled++;
  f->spilled++;
  f->spilled_ever++;
  return CORE_OK;
}

/* Reads the spilled page at offset at into a new item; *next is the offset + 1 of the host's
 * next spilled page (0: none) and *next_depth its depth. */
static core_rc spill_read(frontier *f, uint64_t at, struct frontier_item **out, uint64_t *next,
                          int *next_depth, bool *taken) {
  struct spill_record rec;
  core_rc rc = core_read_at(f->spill_fd, &rec, sizeof(rec), at);
  if (rc)
    return rc;
  size_t from_len = rec.from_len == UINT32_MAX ? 0 : rec.from_len;
  struct frontier_item *item =
      frontier__item_alloc(rec.url_len, rec.from_len != UINT32_MAX, from_len);
  if (!item)
    return CORE_ENOMEM;
  char *url = item->url, *from = item->from;
  /* the URL and from lie one after the other on disk, and in the item with a '\0' between:
   * one read of both, and from moved up past its '\0' */
  rc = core_read_at(f->spill_fd, url, rec.url_len + from_len, at + sizeof(rec));
  if (from && !rc)
    memmove(from, url + rec.url_len, from_len);
  if (rc) {
    free(item);
    return rc;
  }
  url[rec.url_len] = '\0';
  if (from)
    from[from_len] = '\0';
  item->kind = FRONTIER_PAGE;
  item->depth = rec.depth;
  item->attempts = rec.attempts;
  item->redirects = rec.redirects;
  item->not_before = rec.not_before;
  item->flags = rec.flags;
  *next = rec.next;
  *next_depth = rec.next_depth;
  if (taken)
    *taken = rec.taken != 0;
  *out = item;
  return CORE_OK;
}

/* One of h's spilled pages is back in memory: its count goes down, and with the last of them
 * the host's chain ends (pages taken out of turn may be left in it) and, with the run's last,
 * the file starts over. */
static void spill_gone(frontier *f, struct frontier_host *h) {
  if (--h->spilled == 0)
    h->spill_head = h->spill_tail = 0;
  if (--f->spilled == 0 && ftruncate(f->spill_fd, 0) == 0)
    f->spill_end = 0;
}

/* Reads host's first spilled page back into a new item, passing over those taken already. */
core_rc frontier__spill_take(frontier *f, struct frontier_host *h, struct frontier_item **out) {
  struct frontier_item *item;
  bool taken;
  do {
    uint64_t next;
    int next_depth;
    core_rc rc = spill_read(f, h->spill_head - 1, &item, &next, &next_depth, &taken);
    if (rc)
      return rc;
    h->spill_head = next;
    h->spill_head_depth = next_depth;
    if (taken)
      frontier_item_free(item);
  } while (taken);
  spill_gone(f, h);
  *out = item;
  return CORE_OK;
}

/* Pages a host may have on disk for frontier_take_deeper to look through them: a redirect's
 * target queued deeper moves up even when it waits on disk, as it does in memory, while that
 * costs a few reads (a host of a broad crawl has a few pages; with one page a host in memory,
 * most of them wait on disk). Past it, a target on disk keeps its depth. */
#define SPILL_SCAN_MAX 256

/* url among host's spilled pages, read back when it is deeper than depth, its record marked
 * taken; NULL when it is not there (or could not be read: the error is kept). */
struct frontier_item *frontier__spill_take_deeper(frontier *f, struct frontier_host *h,
                                                  const char *url, int depth) {
  if (!h->spilled || h->spilled > SPILL_SCAN_MAX)
    return NULL;
  size_t url_len = strlen(url);
  char *text = malloc(url_len + 1);
  core_rc rc = text ? CORE_OK : CORE_ENOMEM;
  struct frontier_item *item = NULL;
  for (uint64_t at = h->spill_head; at && !rc && !item;) {
    struct spill_record rec;
    if ((rc = core_read_at(f->spill_fd, &rec, sizeof(rec), at - 1)))
      break;
    if (!rec.taken && rec.url_len == url_len && rec.depth > depth &&
        !(rc = core_read_at(f->spill_fd, text, url_len, at - 1 + sizeof(rec))) &&
        memcmp(text, url, url_len) == 0) {
      uint64_t next;
      int next_depth;
      int32_t taken = 1;
      if (!(rc = spill_read(f, at - 1, &item, &next, &next_depth, NULL)) &&
          (rc = core_write_at(f->spill_fd, &taken, sizeof(taken),
                              at - 1 + offsetof(struct spill_record, taken)))) {
        frontier_item_free(item);
        item = NULL;
      }
      if (item && at == h->spill_head) {
        h->spill_head = next;
        h->spill_head_depth = next_depth;
      }
      if (item)
        spill_gone(f, h);
    }
    at = rec.next;
  }
  free(text);
  if (rc && rc != CORE_ENOMEM)
    f->spill_error = rc;
  return item;
}

uint64_t frontier__spill_size(const struct frontier_item *item) {
  return sizeof(struct spill_record) + strlen(item->url) + (item->from ? strlen(item->from) : 0);
}

core_rc frontier__spill_visit(frontier *f, struct frontier_host *h, frontier_item_visitor on_item,
                              void *arg) {
  core_rc rc = CORE_OK;
  for (uint64_t at = h->spill_head; at && !rc;) {
    struct frontier_item *item;
    int depth;
    bool taken;
    if ((rc = spill_read(f, at - 1, &item, &at, &depth, &taken)) == CORE_OK) {
      rc = taken ? CORE_OK : on_item(arg, h, item); /* taken out of turn: not queued here */
      frontier_item_free(item);
    }
  }
  return rc;
}
