/* Continuing a kept crawl: the lines of a checkpoint handed to the shards that own them now, and
 * each shard's queue, hosts, counters and held links set up again from them. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/restore.h"
#include "crawl/saved.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a shard continues from: the last save as loaded, and what it says of the run before. */
struct shard_resume {
  FILE *file;           /* the save's lines (a temporary file); NULL: nothing was loaded */
  bool continued;       /* a --state crawl continued from its checkpoint */
  bool complete;        /* and that crawl had ended with nothing left: no request is made */
  uint64_t warc_keep;   /* --warc's length at the checkpoint continued from (UINT64_MAX: all) */
  uint64_t output_keep; /* the same for -o FILE (crawl__checkpoint_cut_output) */
  uint64_t links_keep;  /* the same for --jsonl's link log, DIR/links (referrers.c) */
  size_t seeds_fed;     /* the seeds before this one were offered by the run continued from */
};

core_rc crawl__restore_prepare(struct shard *c) {
  if (!(c->resume = calloc(1, sizeof(*c->resume))))
    return CORE_ENOMEM;
  c->resume->warc_keep = c->resume->output_keep = c->resume->links_keep = UINT64_MAX;
  return CORE_OK;
}

void crawl__restore_close(struct shard *c) {
  if (!c->resume)
    return;
  if (c->resume->file)
    fclose(c->resume->file);
  free(c->resume);
  c->resume = NULL;
}

FILE *crawl__restore_file_make(struct shard *c) {
  if (!c->resume->file)
    c->resume->file = crawl__saved_temp_stream("resume");
  return c->resume->file;
}

FILE *crawl__restore_file(const struct shard *c) {
  return c->resume ? c->resume->file : NULL;
}

void crawl__restore_set_continued(struct shard *c) {
  c->resume->continued = true;
}

bool crawl__restore_continued(const struct shard *c) {
  return c->resume && c->resume->continued;
}

void crawl__restore_start_over(struct shard *c) {
  c->resume->warc_keep = c->resume->output_keep = c->resume->links_keep = 0;
}

void crawl__restore_set_complete(struct shard *c) {
  c->resume->complete = true;
}

bool crawl__restore_complete(const struct shard *c) {
  return c->resume && c->resume->complete;
}

uint64_t crawl__restore_warc_keep(const struct shard *c) {
  return c->resume ? c->resume->warc_keep : UINT64_MAX;
}

uint64_t crawl__restore_output_keep(const struct shard *c) {
  return c->resume ? c->resume->output_keep : UINT64_MAX;
}

uint64_t crawl__restore_links_keep(const struct shard *c) {
  return c->resume ? c->resume->links_keep : UINT64_MAX;
}

static void restore_host(struct shard *c, const struct saved *s, double now) {
  struct url u;
  if (url_resolve(NULL, s->url, strlen(s->url), SIZE_MAX / 4, &u) != CORE_OK)
    return;
  struct host_data *hd = crawl__host_for(c, &u);
  url_free(&u);
  if (!hd)
    return;
  hd->pages_started = (long)s->value;
  if (s->wait > 0) /* its politeness gap runs on across the restart */
    frontier_host_defer(c->fr, frontier_host_of_data(hd), now + fmin(s->wait, c->cfg->max_delay));
}

static void restore_item(struct shard *c, const struct saved *s, double now) {
  struct url u;
  core_rc rc = url_resolve(NULL, s->url, strlen(s->url), SIZE_MAX / 4, &u);
  if (rc) {
    if (rc == CORE_ENOMEM)
      crawl__notes_fatal(c, "out of memory");
    return;
  }
  struct host_data *hd = crawl__host_for(c, &u);
  frontier_kind kind = s->kind == SAVED_SITEMAP ? FRONTIER_SITEMAP : FRONTIER_PAGE;
  struct frontier_item *item = hd ? frontier_item_new(kind, u.text, s->from, s->depth) : NULL;
  if (hd && !item)
    crawl__notes_fatal(c, "out of memory");
  if (item) {
    item->attempts = s->attempts;
    item->redirects = s->redirects;
    item->flags = s->flags;
    item->not_before = s->wait > 0 ? now + s->wait : 0;
    if (kind == FRONTIER_SITEMAP)
      crawl__host_sitemap_restored(c, u.text);
    frontier_push(c->fr, frontier_host_of_data(hd), item);
  }
  url_free(&u);
}

bool crawl__restore_waiting(struct shard *c, const struct saved *s, struct held_page **hp) {
  switch (s->kind) {
    case SAVED_HELD:
      /* its depth stays pending until its links are offered, as before the stop */
      if ((*hp = crawl__held_new(c, s->from, s->depth)))
        crawl__held_queue(c, *hp);
      return true;
    case SAVED_LINK:
      if (*hp && crawl__held_add(c, *hp, s->url, s->depth, s->how) != CORE_OK)
        crawl__notes_fatal(c, "out of memory");
      return true;
    case SAVED_CUT: {
      /* cut again, for a redirect of the last level may still reach it; one within this run's
       * -d is the caller's, to queue */
      if (s->depth <= c->cfg->depth)
        return false;
      struct frontier_item probe = {.flags = s->flags};
      crawl__depthcut_add(c, &probe, s->url, s->from, s->depth);
      return true;
    }
    default:
      return false;
  }
}

/* The seed to feed from, of a "stat seeds_fed" line (checked: the seeds are the saved ones). */
static size_t seeds_fed_at(long long value, size_t seed_count) {
  return value < 0 ? 0 : (unsigned long long)value < seed_count ? (size_t)value : seed_count;
}

/* A counter line that says how much of a file the run continued from stays (--warc's, -o's,
 * the link log's), kept in r; whether s was one. */
static bool restore_keep(struct shard_resume *r, const struct saved *s) {
  uint64_t *keep = !strcmp(s->url, "warc_bytes")     ? &r->warc_keep
                   : !strcmp(s->url, "output_bytes") ? &r->output_keep
                   : !strcmp(s->url, "links_bytes")  ? &r->links_keep
                                                     : NULL;
  if (keep)
    *keep = (uint64_t)s->value;
  return keep != NULL;
}

static void restore_counter(struct shard *c, const struct saved *s, double now) {
  if (!strcmp(s->url, "pages_started")) {
    crawl__budget_set_pages_started(c->run, (long)s->value);
    return;
  }
  if (restore_keep(c->resume, s))
    return;
  if (!strcmp(s->url, "complete")) {
    c->resume->complete = !crawl__mesh_is_cluster(c->run);
    return;
  }
  if (!strcmp(s->url, "seeds_fed"))
    return;                    /* crawl__restore_seeds_fed read it */
  if (!strcmp(s->url, "ms")) { /* the crawl's time so far counts on */
    crawl__life_set_start(c, now - (double)s->value / 1000);
    return;
  }
  /* each shard that wrote the checkpoint counted its own: this run's first shard adds them up */
  struct crawl_stats_counter list[CRAWL_STATS_COUNTERS_MAX];
  size_t n;
  crawl__saved_counters(c->stats, list, &n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i].name, s->url))
      *list[i].at += (uint64_t)s->value;
}

static void restore_broken(struct shard *c, const struct saved *s) {
  for (size_t i = 0; i < CRAWL_BROKEN_SHOWN; i++) {
    struct crawl_broken_link *b = &c->stats->broken_links[i];
    if (b->url)
      continue;
    b->url = strdup(s->url);
    b->from = s->from ? strdup(s->from) : NULL;
    b->status = (long)s->value;
    b->cause = (crawl_cause)s->flags;
    if (!b->url || (s->from && !b->from))
      crawl__notes_fatal(c, "out of memory");
    return;
  }
}

size_t crawl__restore_seeds_fed(struct shard *c) {
  FILE *f = c->resume->file;
  if (!f)
    return c->resume->seeds_fed;
  rewind(f);
  char *line = NULL;
  size_t cap = 0;
  struct saved s;
  /* the run's counters come first (write_snapshot): the reading stops where they end */
  while (crawl__saved_next(f, &line, &cap, &s) && s.kind == SAVED_STAT)
    if (!strcmp(s.url, "seeds_fed"))
      c->resume->seeds_fed = seeds_fed_at(s.value, c->cfg->seed_count);
  free(line);
  return c->resume->seeds_fed;
}

void crawl__restore(struct shard *c) {
  FILE *f = c->resume->file;
  if (!f)
    return;
  rewind(f);
  char *line = NULL;
  size_t cap = 0;
  struct saved s;
  struct held_page *hp = NULL;
  double now = core_now();
  while (!crawl__life_fatal(c) && crawl__saved_next(f, &line, &cap, &s)) {
    if (crawl__restore_waiting(c, &s, &hp))
      continue;
    switch (s.kind) {
      case SAVED_PAGE:
      case SAVED_SITEMAP:
      case SAVED_CUT: /* one within this run's -d: fetched now */
        restore_item(c, &s, now);
        break;
      case SAVED_HELD: /* taken up above, as a --seen run's leftovers are */
      case SAVED_LINK:
        break;
      case SAVED_HOST:
        restore_host(c, &s, now);
        break;
      case SAVED_STAT:
        restore_counter(c, &s, now);
        break;
      case SAVED_BROKEN:
        restore_broken(c, &s);
        break;
      case SAVED_TRANSIT: /* offered now, as its owner would have when it arrived */
        crawl__mail_take_saved_link(c, (enum link_kind)s.flags, s.how, s.depth, s.redirects, s.from,
                                    s.url);
        break;
    }
  }
  free(line);
  if (ferror(f))
    crawl__notes_fatal(c, "--state: cannot read back the checkpoint: %s", strerror(errno));
}

/* The shard that owns the host of a saved URL or origin (the first when it does not parse: that
 * shard skips it, as any line it cannot use). */
static int owner_of(struct shard *c, const char *url) {
  struct url u;
  if (url_resolve_in(NULL, url, strlen(url), SIZE_MAX / 4, NULL, &u) != CORE_OK)
    return 0;
  int owner = crawl__mesh_owner(c, u.host);
  url_free(&u);
  return owner;
}

core_rc crawl__restore_split(struct shard *shards, int n) {
  if (n < 1)
    return CORE_EINVAL;
  for (int i = 0; i < n; i++)
    if (!shards[i].resume) /* a shard that could not be prepared: the run ends */
      return CORE_ENOMEM;
  FILE *all = shards[0].resume->file;
  FILE **parts = calloc((size_t)n, sizeof(*parts));
  if (!parts)
    return CORE_ENOMEM;
  core_rc rc = CORE_OK;
  for (int i = 0; i < n && rc == CORE_OK; i++)
    if (!(parts[i] = crawl__saved_temp_stream("resume")))
      rc = CORE_ESYS;
  char *line = NULL, *copy = NULL;
  size_t cap = 0, copy_cap = 0;
  ssize_t len;
  int held_to = 0, held_count = 0;
  rewind(all);
  while (rc == CORE_OK && (len = getline(&line, &cap, all)) > 0) {
    if ((size_t)len + 1 > copy_cap) {
      char *grown = realloc(copy, (size_t)len + 1);
      if (!grown) {
        rc = CORE_ENOMEM;
        break;
      }
      copy = grown;
      copy_cap = (size_t)len + 1;
    }
    /* the copy is cut into words; the line itself is written out whole */
    memcpy(copy, line, (size_t)len + 1);
    if (copy[len - 1] == '\n')
      copy[len - 1] = 0;
    struct saved sv;
    int to = 0;
    if (crawl__saved_parse(copy, &sv)) {
      switch (sv.kind) {
        case SAVED_PAGE:
        case SAVED_SITEMAP:
        case SAVED_HOST:
        case SAVED_TRANSIT:
        case SAVED_CUT: /* cut by the shard that owns its host, which a redirect to it reaches */
          to = owner_of(&shards[0], sv.url);
          break;
        case SAVED_HELD: /* a held page and its links, to the shards in turn */
          held_to = held_count++ % n;
          to = held_to;
          break;
        case SAVED_LINK:
          to = held_to;
          break;
        case SAVED_STAT:
          /* the first shard opens the --warc file, and cuts -o and the link log back */
          (void)restore_keep(shards[0].resume, &sv);
          if (!strcmp(sv.url, "complete")) /* every shard has nothing to do */
            for (int i = 0; i < n; i++)
              shards[i].resume->complete = !crawl__mesh_is_cluster(shards[i].run);
          if (!strcmp(sv.url, "seeds_fed")) /* and each feeds its seeds from there on */
            for (int i = 0; i < n; i++)
              shards[i].resume->seeds_fed = seeds_fed_at(sv.value, shards[i].cfg->seed_count);
          to = 0;
          break;
        case SAVED_BROKEN:
          to = 0;
          break;
      }
    }
    if (fwrite(line, 1, (size_t)len, parts[to]) != (size_t)len)
      rc = CORE_ESYS;
  }
  free(line);
  free(copy);
  if (rc == CORE_OK && ferror(all))
    rc = CORE_ESYS;
  for (int i = 0; i < n && rc == CORE_OK; i++)
    if (fflush(parts[i]) != 0)
      rc = CORE_ESYS;
  for (int i = 0; i < n; i++) {
    if (rc == CORE_OK) {
      if (shards[i].resume->file)
        fclose(shards[i].resume->file);
      shards[i].resume->file = parts[i];
    } else if (parts[i]) {
      fclose(parts[i]);
    }
  }
  free(parts);
  return rc;
}
