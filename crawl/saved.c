/* The lines a save holds (checkpoint.c writes a save, restore.c and seed.c read it back): each
 * what the crawl still has to do, one a line:
 *   page DEPTH ATTEMPTS REDIRECTS FLAGS WAIT FROM URL     a queued or in-flight page
 *   sitemap DEPTH ATTEMPTS REDIRECTS FLAGS WAIT FROM URL  a queued sitemap
 *   held DEPTH FROM          a page fetched ahead of its level; its links, not yet offered,
 *   link DEPTH HOW URL       follow it one a line
 *   host WAIT STARTED ORIGIN (--state) seconds until the host may be contacted; pages started
 *   stat NAME VALUE          (--state) a counter
 *   broken STATUS FROM URL CAUSE  (--state) a broken link the summary lists (STATUS 0: none)
 *   transit KH DEPTH REDIRECTS FROM URL   a link on its way from one shard to its owner (mesh.c)
 *   cut DEPTH FLAGS FROM URL  (--state) a URL one level beyond --depth, waiting for its record
 *                            until the last level is done (depthcut.c)
 * HOW (H) is one letter, where the link was found and whether to follow it (crawl__mail_how_code);
 * FLAGS hold where a page was found too (ITEM_VIA). FROM is "-" for none; printed URLs hold no
 * spaces; WAIT is in seconds from the save. Files written before this layout hold "DEPTH FROM URL"
 * lines, read as pages.
 *
 * Here too the files they go to (DIR/NAME, unlinked temporary files) and the pages a limit
 * kept from being fetched, which wait in a file of their own until the next save. */
#include "crawl/notes.h"
#include "crawl/saved.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Pages a limit kept from being fetched, for the next run (saved.c) */
struct shard_left {
  FILE *file; /* made when needed */
  uint64_t count;
  bool lost; /* that file could not be made */
  /* --seen: the failed URLs whose records wait for the run's end (crawl__saved_record_waits) */
  FILE *waiting;
  bool waiting_unmade; /* that file could not be made (said once) */
};

/* c's left pages, made at the first need; NULL (the crawl ended as fatal) when memory runs out. */
static struct shard_left *left_of(struct shard *c) {
  if (!c->left && !(c->left = calloc(1, sizeof(*c->left))))
    crawl__notes_fatal(c, "out of memory"); /* the next run would lose what it keeps */
  return c->left;
}

/* DIR/NAME, allocated; NULL when memory runs out. */
char *crawl__saved_path_in(const char *dir, const char *name) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *p = malloc(len);
  if (p)
    snprintf(p, len, "%s/%s", dir, name);
  return p;
}

/* An unlinked temporary file: what a save holds may be large, so not in memory. */
FILE *crawl__saved_temp_stream(const char *name) {
  int fd = core_temp_fd(name);
  FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
  if (!f && fd >= 0)
    close(fd);
  return f;
}

void crawl__saved_put_page(FILE *out, frontier_kind kind, int depth, int attempts, int redirects,
                           unsigned flags, double wait, const char *from, const char *url) {
  fprintf(out, "%s %d %d %d %u %.3f %s %s\n", kind == FRONTIER_SITEMAP ? "sitemap" : "page", depth,
          attempts, redirects, flags, wait, from ? from : "-", url);
}

void crawl__saved_put_item(FILE *out, const struct frontier_item *item, unsigned flags,
                           double now) {
  double wait = item->not_before > now ? item->not_before - now : 0;
  crawl__saved_put_page(out, item->kind, item->depth, item->attempts, item->redirects, flags, wait,
                        item->from, item->url);
}

void crawl__saved_leave(struct shard *c, const struct frontier_item *item) {
  if ((!c->cfg->seen_file && !c->cfg->state_dir) || item->kind != FRONTIER_PAGE ||
      (c->left && c->left->lost))
    return;
  if (!left_of(c))
    return;
  if (!c->left->file && !(c->left->file = crawl__saved_temp_stream("left"))) {
    c->left->lost = true;
    return;
  }
  /* --state: a later run of the same crawl meets the same limits, unless its options raise
   * them; --seen: a later run is a new crawl, which fetches the page without a second record
   * (this run wrote its record: doc/behaviour.md, Resuming) */
  crawl__saved_put_item(c->left->file, item,
                        item->flags | (c->cfg->state_dir ? ITEM_LEFT : ITEM_QUIET), core_now());
  c->left->count++;
}

static bool parse_int(const char *s, long long min, long long max, long long *out) {
  char *end;
  if (!s)
    return false;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max)
    return false;
  *out = v;
  return true;
}

static bool parse_wait(const char *s, double *out) {
  char *end;
  if (!s)
    return false;
  double v = strtod(s, &end);
  if (end == s || *end || !(v >= 0 && v <= 1e9))
    return false;
  *out = v;
  return true;
}

static const char *or_null(const char *from) {
  return from && strcmp(from, "-") ? from : NULL;
}

/* One line (no newline), cut into words; false when it is not one of the layout's. */
bool crawl__saved_parse(char *text, struct saved *out) {
  char *save = NULL;
  char *f[9] = {0}; /* one more than the longest line: a word too many is damage */
  size_t n = 0;
  for (char *w = strtok_r(text, " ", &save); w && n < 9; w = strtok_r(NULL, " ", &save))
    f[n++] = w;
  long long a, b, d, flags;
  *out = (struct saved){0};
  if (n == 8 && (!strcmp(f[0], "page") || !strcmp(f[0], "sitemap")) &&
      parse_int(f[1], 0, 1000000000, &d) && parse_int(f[2], 0, 1000, &a) &&
      parse_int(f[3], 0, 1000, &b) && parse_int(f[4], 0, UINT32_MAX, &flags) &&
      parse_wait(f[5], &out->wait)) {
    out->kind = f[0][0] == 'p' ? SAVED_PAGE : SAVED_SITEMAP;
    out->depth = (int)d;
    out->attempts = (int)a;
    out->redirects = (int)b;
    out->flags = (unsigned)flags;
    out->from = or_null(f[6]);
    out->url = f[7];
    return true;
  }
  if (n == 3 && !strcmp(f[0], "held") && parse_int(f[1], 0, 1000000000, &d)) {
    out->kind = SAVED_HELD;
    out->depth = (int)d;
    out->from = f[2];
    return true;
  }
  if (n == 4 && !strcmp(f[0], "link") && parse_int(f[1], 0, 1000000000, &d) && strlen(f[2]) == 1 &&
      crawl__mail_how_parse(f[2][0], &out->how)) {
    out->kind = SAVED_LINK;
    out->depth = (int)d;
    out->url = f[3];
    return true;
  }
  if (n == 4 && !strcmp(f[0], "host") && parse_wait(f[1], &out->wait) &&
      parse_int(f[2], 0, INT64_MAX, &out->value)) {
    out->kind = SAVED_HOST;
    out->url = f[3];
    return true;
  }
  if (n == 3 && !strcmp(f[0], "stat") && parse_int(f[2], 0, INT64_MAX, &out->value)) {
    out->kind = SAVED_STAT;
    out->url = f[1];
    return true;
  }
  if ((n == 4 || (n == 5 && parse_int(f[4], 0, CRAWL_CAUSE_COUNT - 1, &flags))) &&
      !strcmp(f[0], "broken") && parse_int(f[1], 0, 999, &out->value)) {
    out->kind = SAVED_BROKEN;
    out->flags = n == 5 ? (unsigned)flags : CRAWL_CAUSE_HTTP; /* the cause, older files' HTTP */
    out->from = or_null(f[2]);
    out->url = f[3];
    return true;
  }
  if (n == 6 && !strcmp(f[0], "transit") && strlen(f[1]) == 2 && strchr("LRSP", f[1][0]) &&
      crawl__mail_how_parse(f[1][1], &out->how) && parse_int(f[2], 0, 1000000000, &d) &&
      parse_int(f[3], 0, 1000, &b)) {
    out->kind = SAVED_TRANSIT;
    out->flags = (unsigned char)f[1][0];
    out->depth = (int)d;
    out->redirects = (int)b;
    out->from = or_null(f[4]);
    out->url = f[5];
    return true;
  }
  if (n == 5 && !strcmp(f[0], "cut") && parse_int(f[1], 0, 1000000000, &d) &&
      parse_int(f[2], 0, UINT32_MAX, &flags)) {
    out->kind = SAVED_CUT;
    out->depth = (int)d;
    out->flags = (unsigned)flags;
    out->from = or_null(f[3]);
    out->url = f[4];
    return true;
  }
  if (n == 3 && parse_int(f[0], 0, 1000000000, &d)) { /* the layout before this one */
    out->kind = SAVED_PAGE;
    out->depth = (int)d;
    out->from = or_null(f[1]);
    out->url = f[2];
    return true;
  }
  return false;
}

bool crawl__saved_next(FILE *in, char **line, size_t *cap, struct saved *out) {
  ssize_t len;
  while ((len = getline(line, cap, in)) > 0) {
    if ((*line)[len - 1] == '\n')
      (*line)[len - 1] = 0;
    /* written by this code, under a checksum: a line that does not parse is skipped */
    if (crawl__saved_parse(*line, out))
      return true;
  }
  return false;
}

void crawl__saved_counters(struct crawl_stats *s, struct crawl_stats_counter *out, size_t *n) {
  struct crawl_stats_counter fixed[] = {{"pages", &s->pages},
                                        {"discovered", &s->discovered},
                                        {"seeds", &s->seeds},
                                        {"seeds_unreached", &s->seeds_unreached},
                                        {"too_long", &s->too_long},
                                        {"unparsable", &s->unparsable},
                                        {"retries", &s->retries},
                                        {"spilled", &s->spilled},
                                        {"bytes", &s->bytes},
                                        {"broken", &s->broken},
                                        {"queue_full", &s->queue_full},
                                        {"seeds_http_failed", &s->seeds_http_failed},
                                        {"printed", &s->printed},
                                        {"match_dropped", &s->match_dropped},
                                        {"runs", &s->runs}};
  size_t k = 0;
  for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
    out[k++] = fixed[i];
  for (int i = 0; i < CRAWL_FATE_COUNT; i++) {
    snprintf(out[k].name, sizeof(out[k].name), "fate.%s", crawl_fate_name((crawl_fate)i));
    out[k++].at = &s->fates[i];
  }
  for (int i = 0; i < CRAWL_CAUSE_COUNT; i++) {
    snprintf(out[k].name, sizeof(out[k].name), "cause.%s", crawl_cause_name((crawl_cause)i));
    out[k++].at = &s->failures[i];
  }
  *n = k;
}

/* Appends what from holds to out; false on a read or write error. */
static bool copy_stream(FILE *from, FILE *out) {
  if (!from)
    return true;
  if (fflush(from) != 0)
    return false;
  char buf[65536];
  off_t at = 0;
  ssize_t got;
  while ((got = pread(fileno(from), buf, sizeof(buf), at)) > 0) {
    if (fwrite(buf, 1, (size_t)got, out) != (size_t)got)
      return false;
    at += got;
  }
  return got == 0;
}

bool crawl__saved_copy_left(struct shard *c, FILE *out) {
  return !c->left || copy_stream(c->left->file, out);
}

void crawl__saved_record_waits(struct shard *c, const struct crawl_record *rec, unsigned flags) {
  if (!c->cfg->seen_file || c->cfg->state_dir || !left_of(c) || c->left->waiting_unmade)
    return;
  if (!c->left->waiting && !(c->left->waiting = crawl__saved_temp_stream("waiting"))) {
    c->left->waiting_unmade = true;
    crawl__notes_warn(c,
                      "--seen: cannot make a temporary file (%s): the records of failed URLs "
                      "would not outlive a kill",
                      strerror(errno));
    return;
  }
  crawl__saved_put_page(c->left->waiting, FRONTIER_PAGE, rec->depth, 0, 0, flags & ~ITEM_QUIET, 0,
                        rec->from, rec->url);
}

bool crawl__saved_copy_waiting(struct shard *c, FILE *out) {
  return !c->left || copy_stream(c->left->waiting, out);
}

uint64_t crawl__saved_left_count(const struct shard *c) {
  return c->left ? c->left->count : 0;
}

bool crawl__saved_left_lost(const struct shard *c) {
  return c->left && c->left->lost;
}

void crawl__saved_left_close(struct shard *c) {
  if (!c->left)
    return;
  if (c->left->file)
    fclose(c->left->file);
  if (c->left->waiting)
    fclose(c->left->waiting);
  free(c->left);
  c->left = NULL;
}
