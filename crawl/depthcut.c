/* The depth cut: URLs found one level beyond -d wait for their fate `depth` until no page within
 * the limit is pending, since a redirect of the last level may still reach one at its own depth
 * (doc/behaviour.md, Depth). */
#include "crawl/depthcut.h"
#include "crawl/notes.h"
#include "crawl/report.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* URLs one level beyond --depth (depthcut.c): their fate waits until no page within it is pending,
 * as a redirect of the last level may still reach one (which is then fetched at its depth). */
struct shard_cut {
  seen_filter *all;     /* every one of them (a Bloom filter) */
  seen_filter *rescued; /* those a redirect reached */
  FILE *records;        /* their records, to settle when the last level is done */
  uint64_t pending;
};

/* A URL one level beyond --depth: its record waits in a temporary file until no page within
 * the depth is pending (see settle_cut), for a redirect of the last level may still reach it. */
void crawl__depthcut_add(struct shard *c, const struct frontier_item *probe, const char *url,
                         const char *from, int depth) {
  bool fresh;
  if (depth != c->cfg->depth + 1 || c->cfg->depth >= INT_MAX - 1) {
    crawl__report_record(c, probe, url, from, depth, CRAWL_FATE_DEPTH, 0, NULL);
    return;
  }
  if (!c->cut && !(c->cut = calloc(1, sizeof(*c->cut)))) {
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  /* a Bloom filter: a false positive (one in a million) costs one fetch a redirect made again */
  if ((!c->cut->all && seen_create(SEEN_BLOOM, 4096, 1e-6, 0x5eed, &c->cut->all) != CORE_OK) ||
      seen_add(c->cut->all, url, strlen(url), &fresh) != CORE_OK) {
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  if (!c->cut->records && !(c->cut->records = tmpfile())) {
    crawl__report_record(c, probe, url, from, depth, CRAWL_FATE_DEPTH, 0,
                         NULL); /* no room to wait: as before */
    return;
  }
  fprintf(c->cut->records, "%u %s %s\n", probe->flags, from ? from : "-", url);
  c->cut->pending++;
}

/* A redirect within --depth reaching a URL cut one level beyond it: fetched after all, at the
 * redirect's depth (doc/behaviour.md, Depth: a redirect target keeps the depth of the URL that
 * redirected). */
bool crawl__depthcut_rescued(struct shard *c, const struct url *u, int depth) {
  size_t len = strlen(u->text);
  bool fresh;
  if (!c->cut || !c->cut->all || depth > c->cfg->depth || !seen_contains(c->cut->all, u->text, len))
    return false;
  if ((!c->cut->rescued && seen_create(SEEN_EXACT, 64, 0.5, 0, &c->cut->rescued) != CORE_OK) ||
      seen_add(c->cut->rescued, u->text, len, &fresh) != CORE_OK) {
    crawl__notes_fatal(c, "out of memory");
    return false;
  }
  return fresh;
}

/* Each URL cut and not rescued, with its flags and the page it was found on (NULL for none),
 * handed to take; the file is left at its end for the next cut. False when it cannot be read
 * back (errno set). */
static bool each_cut(struct shard *c,
                     void (*take)(struct shard *c, unsigned flags, const char *from,
                                  const char *url, void *arg),
                     void *arg) {
  if (fflush(c->cut->records) != 0 || fseek(c->cut->records, 0, SEEK_SET) != 0)
    return false;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, c->cut->records)) > 0) {
    if (line[len - 1] == '\n')
      line[len - 1] = '\0';
    char *save = NULL, *flags = strtok_r(line, " ", &save), *from = strtok_r(NULL, " ", &save);
    char *url = strtok_r(NULL, " ", &save);
    if (!url)
      continue;
    if (c->cut->rescued && seen_contains(c->cut->rescued, url, strlen(url)))
      continue;
    take(c, (unsigned)strtoul(flags, NULL, 10), strcmp(from, "-") ? from : NULL, url, arg);
  }
  free(line);
  bool read = !ferror(c->cut->records);
  return fseek(c->cut->records, 0, SEEK_END) == 0 && read;
}

static void record_cut(struct shard *c, unsigned flags, const char *from, const char *url,
                       void *arg) {
  (void)arg;
  struct frontier_item probe = {.flags = flags};
  crawl__report_record(c, &probe, url, from, c->cfg->depth + 1, CRAWL_FATE_DEPTH, 0, NULL);
}

/* The records of the URLs cut beyond --depth, once no page within it is pending (or at the end):
 * those a redirect reached were fetched instead. */
void crawl__depthcut_settle(struct shard *c) {
  if (!crawl__depthcut_pending(c))
    return;
  if (!each_cut(c, record_cut, NULL)) {
    crawl__notes_fatal(c, "cannot read back the URLs cut beyond --depth from a temporary file: %s",
                       strerror(errno));
    return;
  }
  c->cut->pending = 0;
  if (ftruncate(fileno(c->cut->records), 0) != 0 || fseek(c->cut->records, 0, SEEK_SET) != 0)
    crawl__notes_fatal(c, "cannot reuse a temporary file: %s", strerror(errno));
}

static void save_cut(struct shard *c, unsigned flags, const char *from, const char *url,
                     void *arg) {
  fprintf(arg, "cut %ld %u %s %s\n", c->cfg->depth + 1, flags, from ? from : "-", url);
}

bool crawl__depthcut_save(struct shard *c, FILE *out) {
  return !crawl__depthcut_pending(c) || each_cut(c, save_cut, out);
}

bool crawl__depthcut_pending(const struct shard *c) {
  return c->cut && c->cut->pending;
}

void crawl__depthcut_close(struct shard *c) {
  struct shard_cut *cut = c->cut;
  if (!cut)
    return;
  if (cut->records)
    fclose(cut->records);
  seen_destroy(cut->all);
  seen_destroy(cut->rescued);
  free(cut);
  c->cut = NULL;
}
