/* Parked hosts (frontier.h, frontier_park_idle; doc/design.md, Memory). An idle host's fields and
 * its owner's data go to the host file, an unlinked temporary file, and an index by its origin's
 * 64-bit hash keeps where (16 bytes a slot, at most three quarters of the slots used). A host
 * parked again goes back to the place of its last record when the new one has the same size, as
 * it has unless its data changed size, so the file holds about one record a host however often
 * each parks.
 *
 * A record is its head (its size, its origin's length, a checksum of the rest), the host's fields
 * as they were in memory, its origin and its data. Among the fields is a pointer, its address's
 * slot in the table of addresses, which lives as long as the table; the queues' pointers are
 * NULL, as the host was idle. The file is this process's alone and goes with it. */
#include "frontier/frontier-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

struct record_head {
  uint32_t size; /* of the whole record */
  uint32_t origin_len;
  uint64_t check; /* XXH3 of the bytes after the head */
};

#define HOST_FIELDS offsetof(struct frontier_host, rest)
#define SIZE_BITS 16
#define RECORD_MAX ((1u << SIZE_BITS) - 1)
#define PLACE(offset, size) ((offset) << SIZE_BITS | (size))
#define PLACE_OFFSET(at) ((at) >> SIZE_BITS)
#define PLACE_SIZE(at) ((size_t)((at)&RECORD_MAX))

void frontier_set_parking(frontier *f, const struct frontier_parking *parking) {
  f->parked.ops = *parking;
  f->parked.on = true;
  core_buf_init(&f->parked.buf, RECORD_MAX);
}

uint64_t frontier_parked_lost(const frontier *f) {
  return f->parked.lost;
}

void frontier__parked_free(frontier *f) {
  struct frontier_parked *p = &f->parked;
  free(p->slots);
  p->slots = NULL;
  p->slot_count = p->count = 0;
  if (p->fd >= 0)
    close(p->fd);
  p->fd = -1;
  core_buf_free(&p->buf);
}

/* Room in the index for one more; false when it cannot grow. */
static bool slots_room(struct frontier_parked *p) {
  if ((p->count + 1) * 4 <= p->slot_count * 3)
    return true;
  size_t n = p->slot_count ? p->slot_count * 2 : 1024, mask = n - 1;
  struct parked_slot *grown = calloc(n, sizeof(*grown));
  if (!grown)
    return false;
  for (size_t i = 0; i < p->slot_count; i++) {
    if (!p->slots[i].at)
      continue;
    size_t j = p->slots[i].hash & mask;
    while (grown[j].at)
      j = (j + 1) & mask;
    grown[j] = p->slots[i];
  }
  free(p->slots);
  p->slots = grown;
  p->slot_count = n;
  return true;
}

/* Empties slot i; the slots after it move up so that each stays reachable from its hash's slot
 * (linear probing's deletion). */
static void slot_remove(struct frontier_parked *p, size_t i) {
  size_t mask = p->slot_count - 1;
  p->slots[i].at = 0;
  p->count--;
  for (size_t k = (i + 1) & mask; p->slots[k].at; k = (k + 1) & mask) {
    size_t home = p->slots[k].hash & mask;
    if (((k - home) & mask) >= ((k - i) & mask)) {
      p->slots[i] = p->slots[k];
      p->slots[k].at = 0;
      i = k;
    }
  }
}

static uint64_t record_check(const char *record, size_t size) {
  return XXH3_64bits(record + sizeof(struct record_head), size - sizeof(struct record_head));
}

/* Writes h's record (its data saved by the owner) and puts it in the index. CORE_ENOTFOUND when
 * the owner could not save its data, or the record would be too large: h stays. */
static core_rc write_record(frontier *f, struct frontier_host *h, uint64_t hash) {
  struct frontier_parked *p = &f->parked;
  struct core_buf *buf = &p->buf;
  const char *origin = frontier__origin(h);
  size_t origin_len = strlen(origin);
  struct record_head head = {0, (uint32_t)origin_len, 0};
  buf->len = 0;
  if (core_buf_add(buf, &head, sizeof(head)) || core_buf_add(buf, h, HOST_FIELDS) ||
      core_buf_add(buf, origin, origin_len) ||
      !p->ops.save(p->ops.arg, frontier__host_data(h), buf))
    return CORE_ENOTFOUND;
  if (!slots_room(p))
    return CORE_ENOMEM;
  head.size = (uint32_t)buf->len;
  head.check = record_check(buf->data, buf->len);
  memcpy(buf->data, &head, sizeof(head));
  if (p->fd < 0 && (p->fd = core_temp_fd("hosts")) < 0)
    return CORE_ESYS;
  /* over its last record when it is of the same size, else at the end */
  bool in_place = h->parked_at && PLACE_SIZE(h->parked_at) == buf->len;
  uint64_t at = in_place ? PLACE_OFFSET(h->parked_at) : p->end;
  if (core_write_at(p->fd, buf->data, buf->len, at))
    return CORE_ESYS;
  if (at == p->end)
    p->end += buf->len;
  size_t mask = p->slot_count - 1, i = hash & mask;
  while (p->slots[i].at)
    i = (i + 1) & mask;
  p->slots[i] = (struct parked_slot){hash, PLACE(at, buf->len)};
  p->count++;
  return CORE_OK;
}

core_rc frontier_park_idle(frontier *f, size_t *parked) {
  struct frontier_parked *p = &f->parked;
  *parked = 0;
  if (!p->on)
    return CORE_OK;
  core_rc broke = CORE_OK;
  int why = 0;
  for (size_t b = 0; b < f->host_buckets; b++) {
    struct frontier_host **link = &f->hosts[b];
    while (*link) {
      struct frontier_host *h = *link;
      /* once the file is broken, leaves is still asked: the owner may shed what it can */
      /* a host waiting for a lookup is in that queue (lookups.c) whatever it has queued */
      core_rc rc =
          !frontier_host_idle(h) || h->lookup_waiting || !p->ops.leaves(p->ops.arg, h) || p->broken
              ? CORE_ENOTFOUND
              : write_record(f, h, XXH3_64bits(frontier__origin(h), strlen(frontier__origin(h))));
      if (rc == CORE_ESYS) {
        why = errno;
        p->broken = true;
        broke = rc;
      } else if (rc == CORE_ENOMEM) {
        return rc;
      }
      if (rc) {
        link = &h->next;
        continue;
      }
      *link = h->next;
      f->host_count--;
      frontier__heap_leave(f, h); /* an idle host is out of it already */
      frontier__host_free(f, h);
      (*parked)++;
    }
  }
  errno = why;
  return broke;
}

/* Whether the size bytes read at record are a whole record, as written. */
static bool record_ok(const char *record, size_t size) {
  struct record_head head;
  if (size < sizeof(head) + HOST_FIELDS)
    return false;
  memcpy(&head, record, sizeof(head));
  return head.size == size && head.origin_len <= size - sizeof(head) - HOST_FIELDS &&
         head.check == record_check(record, size);
}

/* The host of the record read into the buffer (and checked), its data made again by the owner,
 * out of every table; NULL when memory runs out. */
static struct frontier_host *host_of(const frontier *f, struct frontier_parked *p) {
  const char *record = p->buf.data;
  struct record_head head;
  memcpy(&head, record, sizeof(head));
  struct frontier_host *h =
      frontier__host_new(f, record + sizeof(head) + HOST_FIELDS, head.origin_len);
  if (!h)
    return NULL;
  memcpy(h, record + sizeof(head), HOST_FIELDS);
  h->data_words = f->data_words;
  h->head = h->tail = h->sitemap_head = h->sitemap_tail = h->split = NULL;
  h->next = NULL;
  h->heap_index = HEAP_NONE;
  h->lookup_waiting = false;
  size_t data_at = sizeof(head) + HOST_FIELDS + head.origin_len;
  if (!p->ops.load(p->ops.arg, h, frontier__host_data(h), record + data_at, head.size - data_at)) {
    free(h);
    return NULL;
  }
  return h;
}

/* Reads the record of slot i into the buffer: CORE_OK, CORE_ENOMEM, or CORE_EFORMAT when it does
 * not read back whole. */
static core_rc read_record(struct frontier_parked *p, size_t i) {
  size_t size = PLACE_SIZE(p->slots[i].at);
  p->buf.len = 0;
  if (core_buf_reserve(&p->buf, size))
    return CORE_ENOMEM;
  if (core_read_at(p->fd, p->buf.data, size, PLACE_OFFSET(p->slots[i].at)) ||
      !record_ok(p->buf.data, size))
    return CORE_EFORMAT;
  return CORE_OK;
}

struct frontier_host *frontier__unpark(frontier *f, const char *origin, uint64_t hash,
                                       core_rc *rc) {
  struct frontier_parked *p = &f->parked;
  *rc = CORE_OK;
  size_t origin_len = strlen(origin);
  for (size_t mask = p->slot_count - 1, i = hash & mask; p->count && p->slots[i].at;) {
    if (p->slots[i].hash != hash) {
      i = (i + 1) & mask;
      continue;
    }
    core_rc read = read_record(p, i);
    if (read == CORE_ENOMEM) {
      *rc = read;
      return NULL;
    }
    if (read) { /* a damaged file: the host is forgotten, and made anew should it come */
      slot_remove(p, i);
      p->lost++;
      continue; /* slot i holds the next one now */
    }
    struct record_head head;
    memcpy(&head, p->buf.data, sizeof(head));
    if (head.origin_len != origin_len ||
        memcmp(p->buf.data + sizeof(head) + HOST_FIELDS, origin, origin_len) != 0) {
      i = (i + 1) & mask; /* another origin of the same hash */
      continue;
    }
    struct frontier_host *h = host_of(f, p);
    if (!h) {
      *rc = CORE_ENOMEM; /* it stays parked */
      return NULL;
    }
    h->parked_at = p->slots[i].at;
    slot_remove(p, i);
    frontier__host_link(f, h, hash);
    return h;
  }
  return NULL;
}

core_rc frontier__visit_parked(frontier *f, frontier_host_visitor on_host, void *arg) {
  struct frontier_parked *p = &f->parked;
  for (size_t i = 0; i < p->slot_count; i++) {
    if (!p->slots[i].at)
      continue;
    core_rc rc = read_record(p, i);
    if (rc == CORE_EFORMAT)
      continue; /* forgotten when it is asked for */
    if (rc)
      return rc;
    struct frontier_host *h = host_of(f, p);
    if (!h)
      return CORE_ENOMEM;
    rc = on_host(arg, h);
    frontier__host_free(f, h);
    if (rc)
      return rc;
  }
  return CORE_OK;
}
