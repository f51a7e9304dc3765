/* The stash: what a speculative page keeps until its level comes (its outcome, its held links
 * and, once confirmed, its record), in a temporary file (doc/behaviour.md, Fetching ahead).
 *
 * An entry is written once, whole (when its page's request ends, or when it is confirmed), and
 * read back once (when it is confirmed, or its level comes); most come back in about the order
 * they went in. So the file is cut
 * into segments of STASH_SEGMENT bytes, no entry straddling two, and each segment counts the
 * entries it still keeps: one that keeps none gives its room back to the file system (a hole
 * punched in it), so the file holds about what is stashed, not all that ever was. An entry larger
 * than a segment (thousands of links) stays in memory, as does every one once the file cannot be
 * made or written (a full disk): the stash saves memory, and losing it loses nothing else. */
#include "crawl/budget.h"
#include "crawl/held.h"
#include "crawl/notes.h"
#include "crawl/stash.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { STASH_SEGMENT = 64 * 1024 };

/* An entry in the file: this head, the note, then (with a page) its links, its texts, and its URL
 * and a NUL. */
struct stash_head {
  uint32_t note;  /* bytes of the note */
  uint32_t count; /* links */
  uint32_t texts; /* bytes of texts */
  uint32_t from;  /* bytes of the page's URL; STASH_NO_PAGE: no page */
  int32_t depth;
};
#define STASH_NO_PAGE UINT32_MAX

/* The shard's stash: made at its first entry. */
struct shard_stash {
  int fd;
  bool open;           /* fd is the file's */
  bool broken;         /* it could not be made or written: no page goes there any more */
  uint64_t end;        /* where the next page goes */
  uint32_t *live;      /* pages kept in each segment of the file */
  size_t segments;     /* entries of live */
  struct core_buf buf; /* a page, put together or read back */
};

/* No entry goes to the file any more; those in it stay readable. Said once for the run. */
static void give_up(struct shard *c, const char *why) {
  c->stash->broken = true;
  if (!crawl__budget_warn_stash_once(c->run))
    return;
  crawl__notes_warn(
      c,
      "no room for pages fetched ahead in a temporary file in %s (%s): what they keep "
      "for their confirmation stays in memory",
      core_temp_dir(), why);
}

/* Segment seg keeps no entry: its room goes back to the file system, and when it is the one being
 * written, it is written again from its start (so the one being written keeps an entry, or is
 * empty from where end is). A file system that cannot punch holes keeps the room. */
static void segment_empty(struct shard_stash *s, size_t seg) {
  uint64_t start = (uint64_t)seg * STASH_SEGMENT;
  if (s->end > start && s->end <= start + STASH_SEGMENT)
    s->end = start;
  if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)start, STASH_SEGMENT)) {
    /* the room stays taken until the file is closed: nothing is lost */
  }
}

static void free_place(struct shard_stash *s, uint64_t at) {
  size_t seg = (size_t)(at / STASH_SEGMENT);
  if (seg < s->segments && s->live[seg] && --s->live[seg] == 0)
    segment_empty(s, seg);
}

/* Room in live for segment seg; false when memory runs out. */
static bool live_room(struct shard_stash *s, size_t seg) {
  if (seg < s->segments)
    return true;
  size_t n = s->segments ? s->segments : 64;
  while (n <= seg)
    n *= 2;
  uint32_t *grown = realloc(s->live, n * sizeof(*grown));
  if (!grown)
    return false;
  memset(grown + s->segments, 0, (n - s->segments) * sizeof(*grown));
  s->live = grown;
  s->segments = n;
  return true;
}

bool crawl__stash_put(struct shard *c, const void *note, size_t note_len, struct held_page *hp,
                      uint64_t *at) {
  if (!c->stash && !(c->stash = calloc(1, sizeof(*c->stash))))
    return false; /* out of memory: it stays there */
  struct shard_stash *s = c->stash;
  size_t from = hp ? strlen(hp->from) : 0;
  size_t size = sizeof(struct stash_head) + note_len +
                (hp ? hp->count * sizeof(*hp->links) + hp->texts.len + from + 1 : 0);
  /* a page queued already (copies, dropped links, a record) is no longer only its links */
  if (s->broken || size > STASH_SEGMENT ||
      (hp && (hp->gone || hp->dropped_count || crawl__held_waits(hp))))
    return false;
  if (!s->open) {
    s->fd = core_temp_fd("ahead");
    if (s->fd < 0) {
      give_up(c, strerror(errno));
      return false;
    }
    s->open = true;
    core_buf_init(&s->buf, STASH_SEGMENT);
  }
  uint64_t pos = s->end;
  if (pos % STASH_SEGMENT + size > STASH_SEGMENT) /* into the next segment, whole */
    pos += STASH_SEGMENT - pos % STASH_SEGMENT;
  size_t seg = (size_t)(pos / STASH_SEGMENT);
  struct stash_head head = {(uint32_t)note_len, 0, 0, STASH_NO_PAGE, 0};
  if (hp) {
    head.count = (uint32_t)hp->count;
    head.texts = (uint32_t)hp->texts.len;
    head.from = (uint32_t)from;
    head.depth = hp->depth;
  }
  core_buf_reset(&s->buf);
  if (!live_room(s, seg) || core_buf_add(&s->buf, &head, sizeof(head)) != CORE_OK ||
      core_buf_add(&s->buf, note, note_len) != CORE_OK ||
      (hp && (core_buf_add(&s->buf, hp->links, hp->count * sizeof(*hp->links)) != CORE_OK ||
              core_buf_add(&s->buf, hp->texts.data, hp->texts.len) != CORE_OK ||
              core_buf_add(&s->buf, hp->from, from + 1) != CORE_OK)))
    return false; /* out of memory: it stays there */
  if (core_write_at(s->fd, s->buf.data, s->buf.len, pos) != CORE_OK) {
    give_up(c, strerror(errno));
    return false;
  }
  s->live[seg]++;
  s->end = pos + size;
  *at = pos;
  crawl__held_free(c, hp); /* and its links are no longer counted as held in memory */
  return true;
}

/* Reads the entry stashed at at into the stash's buffer, its head to *head; false with errno set
 * when it cannot (EINVAL: what is there is not an entry this file was given). */
static bool read_entry(struct shard_stash *s, uint64_t at, struct stash_head *head) {
  if (core_read_at(s->fd, head, sizeof(*head), at) != CORE_OK)
    return false;
  bool page = head->from != STASH_NO_PAGE;
  uint64_t rest =
      (uint64_t)head->note +
      (page ? (uint64_t)head->count * sizeof(struct held_link) + head->texts + head->from + 1 : 0);
  if (at % STASH_SEGMENT + sizeof(*head) + rest > STASH_SEGMENT) {
    errno = EINVAL;
    return false;
  }
  core_buf_reset(&s->buf);
  if (core_buf_reserve(&s->buf, (size_t)rest) != CORE_OK) {
    errno = ENOMEM;
    return false;
  }
  if (core_read_at(s->fd, s->buf.data, (size_t)rest, at + sizeof(*head)) != CORE_OK)
    return false;
  if (page && s->buf.data[rest - 1] != '\0') {
    errno = EINVAL;
    return false;
  }
  return true;
}

bool crawl__stash_take(struct shard *c, uint64_t at, const char **note, size_t *note_len,
                       struct held_page **page) {
  struct shard_stash *s = c->stash;
  struct stash_head head;
  *page = NULL;
  if (!read_entry(s, at, &head)) {
    crawl__notes_fatal(c, "cannot read back a page fetched ahead from a temporary file in %s: %s",
                       core_temp_dir(), strerror(errno));
    return false;
  }
  free_place(s, at);
  *note = s->buf.data;
  *note_len = head.note;
  if (head.from == STASH_NO_PAGE)
    return true;
  const char *links = s->buf.data + head.note;
  const char *texts = links + (size_t)head.count * sizeof(struct held_link);
  struct held_page *hp = crawl__held_new(c, texts + head.texts, head.depth);
  if (!hp)
    return false;
  hp->links = head.count ? malloc(head.count * sizeof(*hp->links)) : NULL;
  if ((head.count && !hp->links) || core_buf_add(&hp->texts, texts, head.texts) != CORE_OK) {
    crawl__held_free(c, hp);
    crawl__notes_fatal(c, "out of memory");
    return false;
  }
  if (head.count)
    memcpy(hp->links, links, head.count * sizeof(*hp->links));
  hp->count = hp->cap = head.count;
  crawl__held_count_links(c, head.count);
  core_buf_shrink(&hp->texts);
  *page = hp;
  return true;
}

void crawl__stash_drop(struct shard *c, uint64_t at) {
  free_place(c->stash, at);
}

int crawl__stash_fd(const struct shard *c) {
  return c->stash && c->stash->open ? c->stash->fd : -1;
}

void crawl__stash_close(struct shard *c) {
  struct shard_stash *s = c->stash;
  if (!s)
    return;
  if (s->open)
    close(s->fd);
  free(s->live);
  core_buf_free(&s->buf);
  free(s);
  c->stash = NULL;
}
