/* The pages that link to each failed URL: the linked_from of its --jsonl record (doc/behaviour.md,
 * Records). Most links to a URL are found while it waits in the queue, where the seen filter
 * drops them; keeping their pages in memory would grow with the crawl. So every page's links go
 * to a log on disk as 64-bit hashes of their printed form (8 bytes a link, each link once a page),
 * and the records of failed URLs wait in the same log. At the end the log is read back, for a
 * slice of the failed URLs at a time, and each record is written with its referrers. With
 * --state the log is DIR/links, cut back to each checkpoint's length as -o is, so the records
 * that wait there live through a crash.
 *
 * The log is a sequence of blocks, in this machine's byte order (the file never leaves it):
 *   'P' u32 LEN u32 N, the page's URL (LEN bytes), N u64 hashes   a page and the links on it
 *   'F' u32 LEN, LEN bytes: a failed URL's record (put_record)    a record waiting */
#include "crawl/mesh.h"
#include "crawl/life.h"
#include "crawl/notes.h"
#include "crawl/referrers.h"
#include "crawl/report.h"
#include "crawl/saved.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define REFERRERS_FLUSH_AT (64 * 1024) /* a shard's buffer goes to the file at this size */
#define SETTLE_SLICE 2048              /* failed URLs matched in one reading of the log */
#define READ_CHUNK (256 * 1024)

enum { BLOCK_PAGE = 'P', BLOCK_FAILED = 'F' };

struct referrer_log {
  int fd;
  char *path; /* DIR/links; NULL: a temporary file */
  pthread_mutex_t lock;
  uint64_t size;    /* bytes written whole */
  atomic_int error; /* errno of the first write that failed: nothing is written after it */
  bool settled;     /* the records were written: a failure from now on is written at once */
};

/* --jsonl: the pages linking to each URL, logged until the failed ones' records are written
 * (referrers.c). */
struct shard_referrers {
  struct referrer_log *log; /* the run's, opened and closed by the first shard; NULL: none */
  bool shared;              /* it is the first shard's */
  struct core_buf buf;      /* this shard's part not yet written to the file */
};

static const char *log_name(const struct referrer_log *log) {
  return log->path ? log->path : "the temporary file of the failed URLs' referrers";
}

void crawl__referrers_open(struct shard *c, uint64_t keep) {
  const struct crawl_config *cfg = c->cfg;
  if ((!cfg->jsonl && !cfg->report) || !c->referrers)
    return;
  struct referrer_log *log = calloc(1, sizeof(*log));
  if (!log || pthread_mutex_init(&log->lock, NULL) != 0) {
    free(log);
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  if (!cfg->state_dir) {
    log->fd = core_temp_fd("links");
    if (log->fd < 0) {
      crawl__notes_warn(c,
                        "--jsonl: no temporary file in %s for the links of pages (%s): records of "
                        "failed URLs are written without linked_from",
                        core_temp_dir(), strerror(errno));
      pthread_mutex_destroy(&log->lock);
      free(log);
      return;
    }
    c->referrers->log = log;
    return;
  }
  /* the checkpoint says how much of the file stays: what came after it is made again */
  if (!cfg->state_resume || keep == UINT64_MAX)
    keep = 0;
  struct stat st;
  log->path = crawl__saved_path_in(cfg->state_dir, "links");
  /* never through a link planted at its name (doc/behaviour.md, State) */
  log->fd = log->path ? open(log->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600) : -1;
  c->referrers->log = log; /* closed by crawl__referrers_close, whatever follows */
  if (!log->path) {
    crawl__notes_fatal(c, "out of memory");
  } else if (log->fd < 0 || fstat(log->fd, &st) != 0) {
    crawl__notes_fatal(c, "--state: cannot open '%s': %s", log->path, core_open_error(errno));
  } else if ((uint64_t)st.st_size < keep) {
    crawl__notes_fatal(c,
                       "--state: '%s' holds %lld bytes, fewer than the %llu its checkpoint counts: "
                       "the file was damaged",
                       log->path, (long long)st.st_size, (unsigned long long)keep);
  } else if (ftruncate(log->fd, (off_t)keep) != 0) {
    crawl__notes_fatal(c, "--state: cannot cut '%s' back to its checkpoint: %s", log->path,
                       strerror(errno));
  }
  log->size = keep;
}

void crawl__referrers_share(struct shard *first, struct shard *c) {
  if (!c->referrers || !first->referrers)
    return;
  c->referrers->log = first->referrers->log;
  c->referrers->shared = true;
}

void crawl__referrers_close(struct shard *c) {
  struct shard_referrers *r = c->referrers;
  c->referrers = NULL;
  if (!r)
    return;
  core_buf_free(&r->buf);
  struct referrer_log *log = r->log;
  bool shared = r->shared;
  free(r);
  if (!log || shared)
    return;
  if (log->fd >= 0)
    close(log->fd);
  pthread_mutex_destroy(&log->lock);
  free(log->path);
  free(log);
}

/* buf to the end of the file, whole or not at all: a write cut short is taken back, and the
 * buffer keeps it (crawl__referrers_settle reads what is left there too). */
static bool write_buffer(struct referrer_log *log, struct core_buf *buf) {
  if (!buf->len)
    return true;
  pthread_mutex_lock(&log->lock);
  size_t done = 0;
  while (!log->error && done < buf->len) {
    ssize_t n = pwrite(log->fd, buf->data + done, buf->len - done, (off_t)(log->size + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      atomic_store(&log->error, n < 0 && errno ? errno : ENOSPC);
      if (ftruncate(log->fd, (off_t)log->size) != 0) {
        /* the torn part stays past size, which every reading stops at */
      }
      break;
    }
    done += (size_t)n;
  }
  bool ok = !log->error;
  if (ok)
    log->size += buf->len;
  pthread_mutex_unlock(&log->lock);
  if (ok)
    core_buf_reset(buf);
  return ok;
}

static void flush_own(struct shard *c) {
  if (c->referrers->buf.len >= REFERRERS_FLUSH_AT &&
      !write_buffer(c->referrers->log, &c->referrers->buf))
    crawl__notes_fatal(c, "cannot write %s: %s", log_name(c->referrers->log),
                       strerror(c->referrers->log->error));
}

bool crawl__referrers_flush_all(struct shard *c, bool durable) {
  struct referrer_log *log = c->referrers ? c->referrers->log : NULL;
  if (!log)
    return true;
  bool ok = true;
  for (int i = 0; i < crawl__mesh_shards(c->run) && ok; i++)
    ok = write_buffer(log, &crawl__mesh_shard(c->run, i)->referrers->buf);
  if (ok && durable && fdatasync(log->fd) != 0)
    atomic_store(&log->error, errno ? errno : EIO);
  ok = ok && !log->error;
  if (!ok && !crawl__life_fatal(c))
    crawl__notes_fatal(c, "cannot write %s: %s", log_name(log), strerror(log->error));
  return ok;
}

bool crawl__referrers_kept(const struct shard *c, uint64_t *bytes) {
  /* once its records are written, nothing in it is needed again: a crawl continued after (a
   * --cluster node's) starts it anew rather than write them twice */
  if (!crawl__referrers_logged(c) || c->referrers->log->settled)
    return false;
  *bytes = c->referrers->log->size;
  return true;
}

static uint64_t link_hash(const char *url) {
  return XXH3_64bits(url, strlen(url));
}

void crawl__referrers_link(struct request *rq, const char *url) {
  struct shard *c = rq->shard;
  if (!crawl__referrers_logged(c) || !rq->item)
    return;
  if (rq->linked.count == rq->linked.cap) {
    size_t cap = rq->linked.cap ? 2 * rq->linked.cap : 32;
    uint64_t *hash = realloc(rq->linked.hash, cap * sizeof(*hash));
    if (!hash) {
      crawl__notes_fatal(c, "out of memory");
      return;
    }
    rq->linked.hash = hash;
    rq->linked.cap = cap;
  }
  rq->linked.hash[rq->linked.count++] = link_hash(url);
}

void crawl__referrers_page_done(struct request *rq) {
  struct shard *c = rq->shard;
  size_t n = rq->linked.count;
  /* after a write failed (the crawl ends as fatal) only the records are kept, in the buffer */
  if (n && rq->item && crawl__referrers_logged(c) && !c->referrers->log->settled &&
      !atomic_load(&c->referrers->log->error)) {
    /* a page that links to a URL three times is one referrer */
    core_sort_u64(rq->linked.hash, n);
    size_t kept = 1;
    for (size_t i = 1; i < n; i++)
      if (rq->linked.hash[i] != rq->linked.hash[kept - 1])
        rq->linked.hash[kept++] = rq->linked.hash[i];
    const char *url = rq->item->url;
    uint32_t head[2] = {(uint32_t)strlen(url), (uint32_t)kept};
    struct core_buf *b = &c->referrers->buf;
    core_rc rc = core_buf_addc(b, BLOCK_PAGE);
    rc = rc ? rc : core_buf_add(b, head, sizeof(head));
    rc = rc ? rc : core_buf_add(b, url, head[0]);
    rc = rc ? rc : core_buf_add(b, rq->linked.hash, kept * sizeof(uint64_t));
    if (rc)
      crawl__notes_fatal(c, "out of memory");
    else
      flush_own(c);
  }
  free(rq->linked.hash);
  rq->linked.hash = NULL;
  rq->linked.count = rq->linked.cap = 0;
}

/* Its length, then the string with its NUL, read back in place (take_string); UINT32_MAX for
 * NULL. */
static core_rc put_string(struct core_buf *b, const char *s) {
  uint32_t len = s ? (uint32_t)strlen(s) : UINT32_MAX;
  core_rc rc = core_buf_add(b, &len, sizeof(len));
  return rc || !s ? rc : core_buf_add(b, s, (size_t)len + 1);
}

/* What a record holds, and when it was settled. */
struct record_numbers {
  uint64_t hash;
  int64_t status;
  uint64_t bytes;
  double ms, settled;
  int32_t depth;
  uint32_t fate, cause;
};

static core_rc put_record(struct core_buf *b, const struct crawl_record *rec) {
  struct record_numbers n = {.hash = link_hash(rec->url),
                             .status = rec->status,
                             .bytes = rec->bytes,
                             .ms = rec->ms,
                             .settled = rec->settled > 0 ? rec->settled : core_wall_now(),
                             .depth = rec->depth,
                             .fate = (uint32_t)rec->fate,
                             .cause = (uint32_t)rec->cause};
  size_t mark = b->len;
  uint32_t len = 0;
  core_rc rc = core_buf_addc(b, BLOCK_FAILED);
  rc = rc ? rc : core_buf_add(b, &len, sizeof(len));
  rc = rc ? rc : core_buf_add(b, &n, sizeof(n));
  const char *strings[] = {rec->url, rec->from, rec->via, rec->type, rec->location, rec->error};
  for (size_t i = 0; i < sizeof(strings) / sizeof(*strings) && !rc; i++)
    rc = put_string(b, strings[i]);
  if (rc) {
    b->len = mark;
    return rc;
  }
  len = (uint32_t)(b->len - mark - 1 - sizeof(len));
  memcpy(b->data + mark + 1, &len, sizeof(len));
  return CORE_OK;
}

bool crawl__referrers_keep_failed(struct shard *c, const struct crawl_record *rec, unsigned flags) {
  if (!crawl__referrers_logged(c) || c->referrers->log->settled)
    return false;
  if (put_record(&c->referrers->buf, rec) != CORE_OK) {
    crawl__notes_fatal(c, "out of memory");
    return false; /* written at once, then: it is not lost */
  }
  flush_own(c);
  crawl__saved_record_waits(c, rec, flags); /* --seen: a kill would lose it */
  return true;
}

/* Reading the log back: the file up to its length written whole, then what a shard's buffer kept
 * (a write failed). */
struct log_reader {
  int fd; /* -1: mem */
  const char *mem;
  uint64_t pos, end;
  char *chunk;
  size_t chunk_len, chunk_pos;
};

static bool read_bytes(struct log_reader *r, void *out, size_t n) {
  if (r->end - r->pos < n)
    return false;
  if (r->fd < 0) {
    if (out)
      memcpy(out, r->mem + r->pos, n);
    r->pos += n;
    return true;
  }
  char *to = out;
  while (n) {
    if (r->chunk_pos == r->chunk_len) {
      uint64_t want = r->end - r->pos < READ_CHUNK ? r->end - r->pos : READ_CHUNK;
      ssize_t got = pread(r->fd, r->chunk, (size_t)want, (off_t)r->pos);
      if (got <= 0)
        return false;
      r->chunk_len = (size_t)got;
      r->chunk_pos = 0;
    }
    size_t take = r->chunk_len - r->chunk_pos < n ? r->chunk_len - r->chunk_pos : n;
    if (to) {
      memcpy(to, r->chunk + r->chunk_pos, take);
      to += take;
    }
    r->chunk_pos += take;
    r->pos += take;
    n -= take;
  }
  return true;
}

/* The failed URLs of one slice: their records, and the pages found linking to each. */
struct slice {
  uint64_t first;  /* index of its first failed URL in the log */
  uint64_t failed; /* failed URLs met in this reading */
  struct entry {
    uint64_t hash, count;
    size_t record, record_len;          /* in records */
    size_t from[CRAWL_REFERRERS_SHOWN]; /* in pages: each a NUL-terminated URL */
    size_t from_n;
  } * entries;
  size_t count;
  uint32_t *table; /* entry index + 1 by hash, open addressing; 0: empty */
  size_t table_size;
  struct core_buf records, pages, scratch;
  uint64_t *hashes;
  bool nomem; /* a record could not be kept: the crawl ends as fatal */
};

static struct entry *find_entry(struct slice *s, uint64_t hash) {
  size_t i = (size_t)hash & (s->table_size - 1);
  for (; s->table[i]; i = (i + 1) & (s->table_size - 1))
    if (s->entries[s->table[i] - 1].hash == hash)
      return &s->entries[s->table[i] - 1];
  return NULL;
}

static void add_entry(struct slice *s, uint64_t hash, const char *record, size_t len) {
  struct entry *e = &s->entries[s->count];
  *e = (struct entry){.hash = hash, .record = s->records.len, .record_len = len};
  if (core_buf_add(&s->records, record, len) != CORE_OK) {
    s->nomem = true;
    return;
  }
  size_t i = (size_t)hash & (s->table_size - 1);
  while (s->table[i] && s->entries[s->table[i] - 1].hash != hash)
    i = (i + 1) & (s->table_size - 1);
  if (!s->table[i]) /* the same URL failing twice (never, short of a hash's collision) */
    s->table[i] = (uint32_t)s->count + 1;
  s->count++;
}

/* A page linking to e: counted, and named while fewer than CRAWL_REFERRERS_SHOWN are. */
static void add_referrer(struct slice *s, struct entry *e, const char *page, size_t len) {
  for (size_t i = 0; i < e->from_n; i++)
    if (!strcmp(s->pages.data + e->from[i], page))
      return; /* the same page logged twice: once again after a redirect of its own */
  e->count++;
  if (e->from_n == CRAWL_REFERRERS_SHOWN)
    return;
  size_t at = s->pages.len;
  if (core_buf_add(&s->pages, page, len + 1) == CORE_OK)
    e->from[e->from_n++] = at;
  else
    s->nomem = true; /* a record short of a page that links it: said, as any lack of memory */
}

/* One reading of r: with pages false, the records of the slice's failed URLs are taken; with
 * pages true, the pages linking to them. False when the log is damaged. */
static bool read_log(struct slice *s, struct log_reader *r, bool pages) {
  unsigned char kind;
  while (read_bytes(r, &kind, 1)) {
    uint32_t head[2];
    if (kind == BLOCK_FAILED) {
      if (!read_bytes(r, head, sizeof(uint32_t)) || head[0] < sizeof(struct record_numbers))
        return false;
      bool wanted = !pages && s->failed >= s->first && s->count < SETTLE_SLICE;
      s->failed++;
      if (!wanted) {
        if (!read_bytes(r, NULL, head[0]))
          return false;
        continue;
      }
      core_buf_reset(&s->scratch);
      if (core_buf_reserve(&s->scratch, head[0]) != CORE_OK) {
        s->nomem = true;
        return false;
      }
      if (!read_bytes(r, s->scratch.data, head[0]))
        return false;
      uint64_t hash;
      memcpy(&hash, s->scratch.data, sizeof(hash));
      add_entry(s, hash, s->scratch.data, head[0]);
    } else if (kind == BLOCK_PAGE) {
      if (!read_bytes(r, head, sizeof(head)))
        return false;
      if (!pages) {
        if (!read_bytes(r, NULL, head[0] + (uint64_t)head[1] * sizeof(uint64_t)))
          return false;
        continue;
      }
      core_buf_reset(&s->scratch);
      if (core_buf_reserve(&s->scratch, head[0] + 1) != CORE_OK) {
        s->nomem = true;
        return false;
      }
      if (!read_bytes(r, s->scratch.data, head[0]))
        return false;
      s->scratch.data[head[0]] = '\0';
      for (uint32_t left = head[1]; left;) {
        uint32_t n = left < 1024 ? left : 1024;
        if (!read_bytes(r, s->hashes, n * sizeof(uint64_t)))
          return false;
        for (uint32_t i = 0; i < n; i++) {
          struct entry *e = find_entry(s, s->hashes[i]);
          if (e)
            add_referrer(s, e, s->scratch.data, head[0]);
        }
        left -= n;
      }
    } else {
      return false;
    }
  }
  return r->pos == r->end;
}

/* Every source in turn: the file, then each shard's buffer. */
static bool read_all(struct shard *c, struct slice *s, bool pages, char *chunk) {
  struct referrer_log *log = c->referrers->log;
  struct log_reader file = {.fd = log->fd, .end = log->size, .chunk = chunk};
  bool whole = read_log(s, &file, pages);
  for (int i = 0; i < crawl__mesh_shards(c->run); i++) {
    const struct core_buf *b = &crawl__mesh_shard(c->run, i)->referrers->buf;
    struct log_reader mem = {.fd = -1, .mem = b->data, .end = b->len};
    whole = read_log(s, &mem, pages) && whole;
  }
  return whole;
}

static const char *take_string(const char **p, const char *end) {
  uint32_t len;
  if (end - *p < (ptrdiff_t)sizeof(len))
    return NULL;
  memcpy(&len, *p, sizeof(len));
  *p += sizeof(len);
  if (len == UINT32_MAX || (size_t)(end - *p) <= len || (*p)[len] != '\0')
    return NULL;
  const char *s = *p;
  *p += (size_t)len + 1;
  return s;
}

/* The slice's records, each with its referrers, their strings read where they are kept. */
static void write_slice(struct shard *c, struct slice *s) {
  /* a crawl stopped at once (a fatal error) still writes them: only an output that failed
   * (its reader gone, a full disk) ends the writing */
  for (size_t k = 0; k < s->count && !c->sink->error(c->sink->arg); k++) {
    struct entry *e = &s->entries[k];
    const char *p = s->records.data + e->record, *end = p + e->record_len;
    struct record_numbers n;
    memcpy(&n, p, sizeof(n));
    p += sizeof(n);
    const char *strings[6];
    for (size_t i = 0; i < 6; i++)
      strings[i] = take_string(&p, end);
    if (!strings[0])
      continue;
    const char *from[CRAWL_REFERRERS_SHOWN];
    for (size_t i = 0; i < e->from_n; i++)
      from[i] = s->pages.data + e->from[i];
    struct crawl_record rec = {.url = strings[0],
                               .from = strings[1],
                               .via = strings[2],
                               .type = strings[3],
                               .location = strings[4],
                               .error = strings[5],
                               .depth = n.depth,
                               .fate = (crawl_fate)n.fate,
                               .cause = (crawl_cause)n.cause,
                               .status = (long)n.status,
                               .bytes = n.bytes,
                               .ms = n.ms,
                               .settled = n.settled,
                               .linked_known = true,
                               .linked_from = from,
                               .linked_from_n = e->from_n,
                               .linked_count = e->count};
    crawl__report_write(c, &rec);
  }
}

void crawl__referrers_settle(struct shard *c) {
  struct referrer_log *log = c->referrers ? c->referrers->log : NULL;
  if (!log || log->settled)
    return;
  crawl__referrers_flush_all(c, false); /* what cannot be written is read from the buffers */
  log->settled = true;
  struct slice s = {.table_size = 2 * SETTLE_SLICE};
  s.entries = calloc(SETTLE_SLICE, sizeof(*s.entries));
  s.table = calloc(s.table_size, sizeof(*s.table));
  s.hashes = malloc(1024 * sizeof(*s.hashes));
  char *chunk = malloc(READ_CHUNK);
  core_buf_init(&s.records, SIZE_MAX / 2);
  core_buf_init(&s.pages, SIZE_MAX / 2);
  core_buf_init(&s.scratch, SIZE_MAX / 2);
  if (!s.entries || !s.table || !s.hashes || !chunk) {
    crawl__notes_fatal(c, "out of memory");
  } else {
    bool whole = true;
    for (;; s.first += SETTLE_SLICE) {
      s.failed = s.count = 0;
      memset(s.table, 0, s.table_size * sizeof(*s.table));
      core_buf_reset(&s.records);
      core_buf_reset(&s.pages);
      whole = read_all(c, &s, false, chunk) && whole;
      if (!s.count)
        break;
      s.failed = 0;
      whole = read_all(c, &s, true, chunk) && whole;
      write_slice(c, &s);
      if (s.count < SETTLE_SLICE || c->sink->error(c->sink->arg))
        break;
    }
    if (s.nomem)
      crawl__notes_fatal(c, "out of memory");
    else if (!whole)
      crawl__notes_warn(c, "%s could not be read whole: records after its damage are missing",
                        log_name(log));
  }
  core_buf_free(&s.records);
  core_buf_free(&s.pages);
  core_buf_free(&s.scratch);
  free(chunk);
  free(s.hashes);
  free(s.table);
  free(s.entries);
}

void crawl__referrers_prepare(struct shard *c) {
  if (!(c->referrers = calloc(1, sizeof(*c->referrers)))) {
    crawl__notes_fatal(c, "cannot start: out of memory");
    return;
  }
  core_buf_init(&c->referrers->buf, SIZE_MAX / 2);
}

bool crawl__referrers_logged(const struct shard *c) {
  return c->referrers && c->referrers->log;
}
