/* Links on their way between shards, and to other processes (--cluster): a link for another
 * shard's host is written into an outbox, one line per link, "KH DEPTH REDIRECTS FROM URL", and
 * the outboxes go to their owners' inboxes once per turn of the loop (or at 64 KB): a batch of
 * text lines, as could cross a network. The owner alone asks its seen filter whether the link is
 * new, so dedupe stays exact. Until its owner queues it, a link counts as pending at its finder's
 * depth (mesh.c's gate across shards reads the inboxes' smallest). A save writes what is on its
 * way as "transit" lines, and a link read back from one goes on to its owner. */
#include "crawl/run-int.h"
#include "crawl/life.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(VIA_COUNT <= 26, "a via is one letter in a line");
_Static_assert(VIA_COUNT <= 32, "a via is five bits of an item's flags");

char crawl__mail_how_code(struct link_how how) {
  return (char)((how.follow ? 'A' : 'a') + how.via);
}

bool crawl__mail_how_parse(char code, struct link_how *how) {
  if (code == '0' || code == '1') {
    *how = (struct link_how){VIA_NONE, code == '1'};
    return true;
  }
  bool follow = code >= 'A' && code < 'A' + VIA_COUNT;
  if (!follow && !(code >= 'a' && code < 'a' + VIA_COUNT))
    return false;
  *how = (struct link_how){(unsigned char)(code - (follow ? 'A' : 'a')), follow};
  return true;
}

/* A shard's outboxes (crawl__mail_open). */
struct shard_mail {
  struct shard_outbox *outboxes; /* one per shard */
  struct shard_outbox *remotes;  /* --cluster: one per process (this one's stays empty) */
  int shards;
  long nodes;
};

static struct shard_outbox *outboxes_new(size_t n) {
  struct shard_outbox *o = calloc(n, sizeof(*o));
  for (size_t k = 0; o && k < n; k++) {
    core_buf_init(&o[k].buf, SIZE_MAX / 2);
    o[k].min = INT_MAX;
  }
  return o;
}

static void outboxes_free(struct shard_outbox *o, size_t n) {
  for (size_t k = 0; o && k < n; k++)
    core_buf_free(&o[k].buf);
  free(o);
}

core_rc crawl__mail_open(struct shard *c, int shards, long nodes) {
  struct shard_mail *m = calloc(1, sizeof(*m));
  if (!m)
    return CORE_ENOMEM;
  *m = (struct shard_mail){.shards = shards, .nodes = nodes};
  if (!(m->outboxes = outboxes_new((size_t)shards)) ||
      (nodes > 0 && !(m->remotes = outboxes_new((size_t)nodes)))) {
    free(m->outboxes);
    free(m);
    return CORE_ENOMEM;
  }
  c->mail = m; /* whole or not at all: crawl__mail_shared says the outboxes are there */
  return CORE_OK;
}

void crawl__mail_close(struct shard *c) {
  struct shard_mail *m = c->mail;
  if (!m)
    return;
  outboxes_free(m->outboxes, (size_t)m->shards);
  outboxes_free(m->remotes, (size_t)m->nodes);
  free(m);
  c->mail = NULL;
}

bool crawl__mail_shared(const struct shard *c) {
  return c->mail != NULL;
}

size_t crawl__mail_outbox_room(const struct shard *c, int to) {
  return c->mail && to >= 0 && to < c->mail->shards ? c->mail->outboxes[to].buf.cap : 0;
}

static bool to_inbox(struct crawl *r, int to, const char *lines, size_t len, int min);

/* A shard's lines for shard to, sent on as one batch; false when out of memory. */
static bool flush_outbox(struct shard *c, int to) {
  struct shard_outbox *o = &c->mail->outboxes[to];
  if (!o->buf.len)
    return true;
  if (!to_inbox(c->run, to, o->buf.data, o->buf.len, o->min))
    return false;
  core_buf_reset(&o->buf);
  o->min = INT_MAX;
  return true;
}

/* An outbox is sent on once it holds this much, without waiting for the end of the turn: a held
 * level replayed at once, or a page of many links, would otherwise pile up megabytes twice over
 * (the outbox, kept at its largest, and its copy in the inbox) before its owner takes any */
#define OUTBOX_BATCH_BYTES (64 * 1024)

/* Writes n in decimal at out; the end. */
static char *put_decimal(char *out, int n) {
  char digits[12];
  size_t len = 0;
  unsigned v = n < 0 ? 0u - (unsigned)n : (unsigned)n;
  do
    digits[len++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  if (n < 0)
    *out++ = '-';
  while (len)
    *out++ = digits[--len];
  return out;
}

/* A line's head, "KH DEPTH REDIRECTS " (out has room for 64), written by hand: snprintf was half
 * of what sending a link to its owner cost. Its length. */
static size_t line_head(char *out, enum link_kind kind, char how, int depth, int redirects) {
  char *p = out;
  *p++ = (char)kind;
  *p++ = how;
  *p++ = ' ';
  p = put_decimal(p, depth);
  *p++ = ' ';
  p = put_decimal(p, redirects);
  *p++ = ' ';
  return (size_t)(p - out);
}

bool crawl__mail_send_if_foreign(struct shard *c, const struct url *u, const char *from, int depth,
                                 int redirects, enum link_kind kind, struct link_how how) {
  struct shard_outbox *o;
  int to = -1; /* a shard of this process; -1 for another process */
  if (!c->mail)
    return false; /* a crawl of one: every host is its own */
  int node = crawl__mesh_node_of(c->run, u->host);
  if (node != c->run->node) {
    o = &c->mail->remotes[node];
  } else {
    to = crawl__mesh_owner(c, u->host);
    if (to == c->shard)
      return false;
    o = &c->mail->outboxes[to];
  }
  char head[64];
  size_t n = line_head(head, kind, crawl__mail_how_code(how), depth, redirects);
  const char *f = from ? from : "-";
  size_t before = o->buf.len;
  if (core_buf_add(&o->buf, head, n) || core_buf_add(&o->buf, f, strlen(f)) ||
      core_buf_addc(&o->buf, ' ') || core_buf_add(&o->buf, u->text, strlen(u->text)) ||
      core_buf_addc(&o->buf, '\n')) {
    /* no part of a line is left: its owner, or a save's transit lines, would read it whole */
    core_buf_cut(&o->buf, before);
    crawl__notes_fatal(c, "out of memory");
    return true;
  }
  int held = crawl__mail_line_holds(kind, depth);
  if (held < o->min)
    o->min = held;
  /* the owner may take them now: this is what the end of the turn would send */
  if (to >= 0 && o->buf.len >= OUTBOX_BATCH_BYTES && !flush_outbox(c, to))
    crawl__notes_fatal(c, "out of memory");
  return true;
}

/* Until its owner queues it, a page counts as pending at its finder's depth (a sitemap, as any
 * setup step, holds no depth back; nor does a page to fetch ahead, not accepted yet). */
int crawl__mail_line_holds(enum link_kind kind, int depth) {
  if (kind == LINK_SITEMAP || kind == LINK_AHEAD)
    return INT_MAX;
  return depth > 0 ? depth - 1 : 0;
}

/* A batch of lines into shard to's inbox, counting at depth min; false when out of memory. */
static bool to_inbox(struct crawl *r, int to, const char *lines, size_t len, int min) {
  struct shard_batch *b = malloc(sizeof(*b) + len);
  if (!b)
    return false;
  b->next = NULL;
  b->len = len;
  memcpy(b->data, lines, len);
  struct shard_slot *s = &r->slots[to];
  pthread_mutex_lock(&r->lock);
  if (s->tail)
    s->tail->next = b;
  else
    s->head = b;
  s->tail = b;
  if (min < s->inbox_min)
    s->inbox_min = min;
  if (s->idle) { /* busy again: the run cannot end before this batch is taken */
    s->idle = false;
    r->idle_count--;
  }
  pthread_mutex_unlock(&r->lock);
  crawl__mesh_wake(r, to);
  return true;
}

/* Lines for other processes go to the first shard, which appends them to Redis (bridge.c). */
static void flush_remotes(struct shard *c) {
  struct crawl *r = c->run;
  for (int node = 0; c->mail && c->mail->remotes && node < r->nodes; node++) {
    struct shard_outbox *o = &c->mail->remotes[node];
    if (!o->buf.len)
      continue;
    struct remote_batch *b = malloc(sizeof(*b) + o->buf.len);
    if (!b) {
      crawl__notes_fatal(c, "out of memory");
      return;
    }
    *b = (struct remote_batch){.node = node, .min = o->min, .len = o->buf.len};
    memcpy(b->data, o->buf.data, o->buf.len);
    pthread_mutex_lock(&r->lock);
    if (r->remote_tail)
      r->remote_tail->next = b;
    else
      r->remote_head = b;
    r->remote_tail = b;
    if (o->min < r->remote_min)
      r->remote_min = o->min;
    pthread_mutex_unlock(&r->lock);
    if (c->shard != 0)
      crawl__mesh_wake(r, 0);
    core_buf_reset(&o->buf);
    o->min = INT_MAX;
  }
}

void crawl__mail_flush(struct shard *c) {
  struct crawl *r = c->run;
  if (!c->mail)
    return;
  flush_remotes(c);
  for (int to = 0; to < r->count; to++) {
    if (!flush_outbox(c, to)) {
      crawl__notes_fatal(c, "out of memory");
      return;
    }
  }
}

bool crawl__mail_outbox_empty(const struct shard *c) {
  for (int to = 0; c->mail && to < c->run->count; to++)
    if (c->mail->outboxes[to].buf.len)
      return false;
  for (int node = 0; c->mail && c->mail->remotes && node < c->run->nodes; node++)
    if (c->mail->remotes[node].buf.len)
      return false;
  return true;
}

void crawl__mail_take_remote(struct crawl *r,
                             void (*fn)(void *arg, int node, const char *lines, size_t len,
                                        int min),
                             void *arg) {
  pthread_mutex_lock(&r->lock);
  struct remote_batch *b = r->remote_head;
  r->remote_head = r->remote_tail = NULL;
  /* they count as sent from here, until a view asked for after their append has read them */
  if (r->remote_min < r->sent_min)
    r->sent_min = r->remote_min;
  r->remote_min = INT_MAX;
  pthread_mutex_unlock(&r->lock);
  while (b) {
    struct remote_batch *next = b->next;
    fn(arg, b->node, b->data, b->len, b->min);
    free(b);
    b = next;
  }
}

static void take_line(struct shard *c, char *line) {
  enum link_kind kind = (enum link_kind)line[0];
  struct link_how how;
  if (!kind || !crawl__mail_how_parse(line[1], &how))
    return;
  char *p = line + 2, *end;
  long depth = strtol(p, &end, 10);
  long redirects = strtol(end, &end, 10);
  /* a line from Redis (--cluster) is another process's word: numbers out of range are no line
   * any crawl wrote (a negative count of redirects would let a chain run on past --max-redirs) */
  if (*end != ' ' || depth < 0 || depth >= INT_MAX || redirects < 0 || redirects >= INT_MAX)
    return;
  char *from = end + 1, *url = strchr(from, ' ');
  if (!url)
    return;
  *url++ = '\0';
  crawl__mail_take_link(c, kind, how, (int)depth, (int)redirects, strcmp(from, "-") ? from : NULL,
                        url);
}

static void take_link(struct shard *c, enum link_kind kind, struct link_how how, int depth,
                      int redirects, const char *page, const char *url, bool saved) {
  struct url u;
  /* a printed form parses again to the same URL (tests/fuzz/fuzz_url.c), mostly by the fast
   * way (tests/fuzz/fuzz_url_fast.c) */
  core_rc rc = url_resolve_in(NULL, url, strlen(url), SIZE_MAX / 4, NULL, &u);
  if (rc == CORE_ENOMEM)
    crawl__notes_fatal(c, "out of memory");
  if (rc)
    return;
  /* a link a save kept on its way goes on to its owner, which may now be another shard or, for
   * links to other processes, another node (one from an inbox is this shard's own) */
  if (saved && c->mail && crawl__mail_send_if_foreign(c, &u, page, depth, redirects, kind, how)) {
    url_free(&u);
    return;
  }
  c->run->slots[c->shard].take(c, kind, &u, page, depth, redirects, how);
  url_free(&u);
}

void crawl__mail_take_link(struct shard *c, enum link_kind kind, struct link_how how, int depth,
                           int redirects, const char *page, const char *url) {
  take_link(c, kind, how, depth, redirects, page, url, false);
}

void crawl__mail_take_saved_link(struct shard *c, enum link_kind kind, struct link_how how,
                                 int depth, int redirects, const char *page, const char *url) {
  take_link(c, kind, how, depth, redirects, page, url, true);
}

void crawl__mail_put_transit(FILE *out, const char *text, size_t len) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
    fputs("transit ", out);
    fwrite(p, 1, n, out);
    if (!nl)
      fputc('\n', out);
    p += n;
  }
}

void crawl__mail_write_transit(struct crawl *r, FILE *out) {
  pthread_mutex_lock(&r->lock);
  for (int i = 0; i < r->count; i++)
    for (const struct shard_batch *b = r->slots[i].head; b; b = b->next)
      crawl__mail_put_transit(out, b->data, b->len);
  for (const struct remote_batch *b = r->remote_head; b; b = b->next)
    crawl__mail_put_transit(out, b->data, b->len);
  pthread_mutex_unlock(&r->lock);
  for (int i = 0; i < r->count; i++) {
    const struct shard *c = r->slots[i].shard;
    for (int to = 0; c && c->mail && to < r->count; to++)
      crawl__mail_put_transit(out, c->mail->outboxes[to].buf.data, c->mail->outboxes[to].buf.len);
    for (int node = 0; c && c->mail && c->mail->remotes && node < r->nodes; node++)
      crawl__mail_put_transit(out, c->mail->remotes[node].buf.data, c->mail->remotes[node].buf.len);
  }
}

void crawl__mail_receive(struct shard *c) {
  struct crawl *r = c->run;
  struct shard_slot *s = &r->slots[c->shard];
  /* stopping at once (a fatal error, a second signal): the batches stay in the inbox, where the
   * last save (--state, --seen) finds them as links on their way, instead of being dropped */
  if (crawl__life_stop(c) == STOP_NOW || crawl__life_fatal(c))
    return;
  pthread_mutex_lock(&r->lock);
  struct shard_batch *b = s->head;
  s->head = s->tail = NULL;
  /* inbox_min stays until the next publish: the links count there until then */
  pthread_mutex_unlock(&r->lock);
  while (b) {
    struct shard_batch *next = b->next;
    char *p = b->data, *end = b->data + b->len;
    while (p < end && crawl__life_stop(c) != STOP_NOW && !crawl__life_fatal(c)) {
      char *nl = memchr(p, '\n', (size_t)(end - p));
      *nl = '\0';
      take_line(c, p);
      p = nl + 1;
    }
    if (p < end) { /* it stopped at once meanwhile: what is left goes back, for the save */
      b->len = (size_t)(end - p);
      memmove(b->data, p, b->len);
      struct shard_batch *last = b;
      while (last->next)
        last = last->next;
      pthread_mutex_lock(&r->lock);
      last->next = s->head;
      if (!s->head)
        s->tail = last;
      s->head = b;
      pthread_mutex_unlock(&r->lock);
      return;
    }
    free(b);
    b = next;
  }
}

void crawl__mail_deliver(struct crawl *r, int to, const char *lines, size_t len, int min) {
  if (!to_inbox(r, to, lines, len, min))
    crawl__notes_fatal(r->slots[0].shard, "out of memory");
}
