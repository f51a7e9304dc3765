/* Fates and records: every URL's one record through the sink (the shard's writer on it, and the
 * first shard's watch on a pipe's reader), the counts the summary gives, the broken links it
 * lists, and the engine's notes and errors. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/notes.h"
#include "crawl/report.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Memory past --queue-memory is the user's to know at once, not at the end. */
void crawl__report_spill_refused(struct shard *c) {
  int err = 0;
  if (!frontier_spill_refused(c->fr, &err) || !crawl__budget_warn_spill_once(c->run))
    return;
  crawl__notes_warn(
      c,
      "the queue's spill file in %s cannot be written (%s): queued URLs stay in memory "
      "past --queue-memory (TMPDIR names another directory)",
      core_temp_dir(), strerror(err ? err : EIO));
}

static const char *const fate_names[] = {
#define CRAWL_FATE_NAME(name, text) text,
    CRAWL_FATE_MAP(CRAWL_FATE_NAME)
#undef CRAWL_FATE_NAME
};

static const char *const cause_names[] = {
#define CRAWL_CAUSE_NAME(name, text) text,
    CRAWL_CAUSE_MAP(CRAWL_CAUSE_NAME)
#undef CRAWL_CAUSE_NAME
};

const char *crawl_fate_name(crawl_fate fate) {
  return fate < CRAWL_FATE_COUNT ? fate_names[fate] : "?";
}

const char *crawl_cause_name(crawl_cause cause) {
  return cause < CRAWL_CAUSE_COUNT ? cause_names[cause] : "?";
}

/* A shard's writer on the sink, and the watch on a pipe's reader (the first shard's). */
struct shard_out {
  void *writer;
  loop_watch *output_watch;
};

core_rc crawl__report_attach(struct shard *c, void *writer) {
  if (!(c->out = calloc(1, sizeof(*c->out))))
    return CORE_ENOMEM;
  c->out->writer = writer;
  return CORE_OK;
}

core_rc crawl__report_open(struct shard *c, int i) {
  void *writer;
  core_rc rc = c->sink->open(c->sink->arg, i, &writer);
  if (rc != CORE_OK)
    return rc;
  if ((rc = crawl__report_attach(c, writer)) != CORE_OK)
    c->sink->close(c->sink->arg, writer);
  return rc;
}

void crawl__report_close(struct shard *c) {
  if (!c->out)
    return;
  if (c->out->output_watch)
    loop_unwatch(c->loop, c->out->output_watch);
  if (c->out->writer && c->sink->close)
    c->sink->close(c->sink->arg, c->out->writer);
  free(c->out);
  c->out = NULL;
}

void *crawl__report_writer(const struct shard *c) {
  return c->out ? c->out->writer : NULL;
}

core_rc crawl__report_flush(const struct shard *c, bool sync) {
  return c->out && c->out->writer ? c->sink->flush(c->out->writer, sync) : CORE_OK;
}

void crawl__report_url(struct shard *c, const char *url) {
  crawl__report_check_output(c, c->sink->url(c->out->writer, url));
}

/* A pipe's reader that goes away shows as an error event on our end of it. */
static void on_output_event(void *arg, int fd, unsigned events) {
  (void)fd;
  struct shard *c = arg;
  if (!(events & LOOP_ERROR))
    return;
  loop_unwatch(c->loop, c->out->output_watch);
  c->out->output_watch = NULL;
  c->sink->reader_gone(c->sink->arg);
  crawl__report_check_output(c, CORE_ESYS);
}

core_rc crawl__report_watch_output(struct shard *c) {
  if (c->sink->watch_fd < 0)
    return CORE_OK; /* a file or a terminal has no reader to lose */
  /* no events asked for: epoll reports errors and hang-ups whatever the mask */
  return loop_watch_fd(c->loop, c->sink->watch_fd, 0, on_output_event, c, &c->out->output_watch);
}

/* A reader that went away (EPIPE) ends the crawl quietly; any other write error is fatal. */
void crawl__report_check_output(struct shard *c, core_rc rc) {
  if (rc == CORE_OK)
    return;
  int err = c->sink->error(c->sink->arg);
  if (err == EPIPE) {
    if (!crawl__life_stop(c))
      crawl__life_set_end(c, CRAWL_END_PIPE);
    crawl__life_set_stop(c, STOP_NOW);
  } else if (err) {
    crawl__notes_fatal(c, "cannot write %s: %s", c->sink->name, strerror(err));
  } else {
    crawl__notes_fatal(c, "cannot write %s: %s", c->sink->name, core_rc_str(rc));
  }
}

/* The first broken links, for the summary; with -v each one as it is found. */
static void note_broken(struct shard *c, const struct crawl_record *rec) {
  struct crawl_stats *s = c->stats;
  if (rec->status)
    crawl__notes_verbose(c, "broken link: %s (HTTP %ld), linked from %s", rec->url, rec->status,
                         rec->from ? rec->from : "(a seed)");
  else
    crawl__notes_verbose(c, "broken link: %s (%s: %s), linked from %s", rec->url,
                         crawl_cause_name(rec->cause), rec->error ? rec->error : "failed",
                         rec->from ? rec->from : "(a seed)");
  if (s->broken < CRAWL_BROKEN_SHOWN) {
    struct crawl_broken_link *b = &s->broken_links[s->broken];
    b->url = strdup(rec->url);
    b->from = rec->from ? strdup(rec->from) : NULL;
    b->status = rec->status;
    b->cause = rec->cause;
    if (!b->url || (rec->from && !b->from)) {
      free(b->url);
      free(b->from);
      *b = (struct crawl_broken_link){0};
      crawl__notes_fatal(c, "out of memory");
      return;
    }
  }
  s->broken++;
}

const char *crawl__report_via_name(unsigned via) {
  switch (via) {
    case VIA_SEED:
      return "seed";
    case VIA_SITEMAP:
      return "sitemap";
    default:
      if (via >= VIA_REDIRECT && via < VIA_PAGE)
        return "redirect";
      return via >= VIA_PAGE ? parse_via_name((parse_via)(via - VIA_PAGE)) : NULL;
  }
}

/* A URL that failed: forgotten before the last save when the filter can remove (--seen). */
static void remember_to_forget(struct shard *c, const char *url) {
  /* a plain Bloom filter cannot remove (CORE_EINVAL): what failed stays recorded */
  if (seen_mark_forget(c->seen, url, strlen(url)) == CORE_ENOMEM)
    crawl__notes_fatal(c, "out of memory");
}

/* Every settled fate passes here: counted, written as a record (unless ITEM_QUIET), and
 * remembered when --seen must forget it. flags are the URL's item flags (its via among them). */
void crawl__report(struct shard *c, unsigned flags, struct crawl_record *rec) {
  rec->via = crawl__report_via_name(ITEM_VIA(flags));
  if (flags & ITEM_SPEC) { /* not accepted yet: reported when confirmed */
    c->hooks.spec_record(c, rec);
    return;
  }
  struct crawl_stats *s = c->stats;
  s->fates[rec->fate]++;
  if (flags & ITEM_SEED) {
    s->seeds++;
    /* no response at all: DNS, connection, TLS, timeout, or its host's robots.txt */
    s->seeds_unreached += rec->fate == CRAWL_FATE_FAILED && !rec->status;
    s->seeds_http_failed += rec->fate == CRAWL_FATE_FAILED && rec->status >= 400;
  }
  if (rec->fate == CRAWL_FATE_FAILED) {
    s->failures[rec->cause]++;
    if (c->cfg->seen_file)
      remember_to_forget(c, rec->url);
    note_broken(c, rec); /* whatever the cause: a link that leads nowhere is broken */
  }
  bool failed = rec->fate == CRAWL_FATE_FAILED;
  if ((!c->cfg->jsonl && !(failed && c->cfg->report)) || (flags & ITEM_QUIET))
    return;
  /* a failed URL's record waits until every page linking to it is known (referrers.c) */
  if (failed && c->hooks.failed_record(c, rec, flags))
    return;
  crawl__report_write(c, rec);
}

void crawl__report_write(struct shard *c, const struct crawl_record *rec) {
  if (c->cfg->jsonl)
    crawl__report_check_output(c, c->sink->record(c->out->writer, rec));
  if (c->cfg->report && rec->fate == CRAWL_FATE_FAILED && c->sink->broken &&
      c->sink->broken(c->sink->arg, rec) != CORE_OK)
    crawl__notes_fatal(c, "out of memory"); /* the report would lack a broken link */
}

/* A fate without a response: cause and error matter for CRAWL_FATE_FAILED only. */
void crawl__report_record(struct shard *c, const struct frontier_item *item, const char *url,
                          const char *from, int depth, crawl_fate fate, crawl_cause cause,
                          const char *error) {
  if (item && item->kind == FRONTIER_SITEMAP)
    return; /* a sitemap is no discovered URL: it has no fate to report */
  if (item && (item->flags & ITEM_LEFT) && fate == CRAWL_FATE_LIMIT)
    return; /* an earlier run of this --state crawl reported it so, and counted it */
  struct crawl_record rec = {
      .url = url, .from = from, .depth = depth, .fate = fate, .cause = cause, .error = error};
  crawl__report(c, item ? item->flags : 0, &rec);
}

void crawl__report_item(struct shard *c, const struct frontier_item *item, crawl_fate fate,
                        crawl_cause cause, const char *error) {
  crawl__report_record(c, item, item->url, item->from, item->depth, fate, cause, error);
}
