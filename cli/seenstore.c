/* --seen: the seen filter kept in a file across runs, with the URLs a run left queued.
 *
 * A run that ends with URLs still queued (stopped by a signal, or cut short by --max-pages or
 * --max-pages-per-host) keeps them in the file's attachment, one per line as
 * "DEPTH FROM URL" (FROM is "-" for none; printed URLs hold no spaces). The filter already holds
 * them, so without this the next run would never fetch them; with it, the next run queues them
 * after its seeds, without printing them again. */
#include "cli/crawl-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

void cli__remember_to_forget(struct crawl *c, const char *url) {
  /* a plain Bloom filter cannot remove (CORE_EINVAL): what failed stays recorded */
  if (core_seen_mark_forget(c->seen, url, strlen(url)) == CORE_ENOMEM)
    cli__fatal(c, "out of memory");
}

/* An unlinked temporary file for leftovers, loaded or left: they may be many, so not in memory. */
static FILE *temp_stream(const char *name) {
  int fd = core_temp_fd(name);
  FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
  if (!f && fd >= 0)
    close(fd);
  return f;
}

void cli__leave_for_next_run(struct crawl *c, const struct frontier_item *item) {
  if (!c->cfg->seen_file || item->kind != FRONTIER_PAGE || c->leftovers_lost)
    return;
  if (!c->leftovers && !(c->leftovers = temp_stream("left"))) {
    c->leftovers_lost = true;
    return;
  }
  fprintf(c->leftovers, "%d %s %s\n", item->depth, item->from ? item->from : "-", item->url);
  c->stats->left++;
}

bool cli__next_leftover(struct crawl *c, char **line, size_t *cap, struct leftover *out) {
  ssize_t len;
  while ((len = getline(line, cap, c->resumable)) > 0) {
    char *text = *line, *save = NULL;
    if (text[len - 1] == '\n')
      text[len - 1] = 0;
    char *depth = strtok_r(text, " ", &save);
    char *from = strtok_r(NULL, " ", &save);
    char *url = strtok_r(NULL, " ", &save);
    char *end;
    long d = depth ? strtol(depth, &end, 10) : -1;
    /* written by this code, under a checksum: a line that does not parse is skipped */
    if (!url || d < 0 || d > 1000000000 || *end)
      continue;
    out->depth = (int)d;
    out->from = strcmp(from, "-") ? from : NULL;
    out->url = url;
    return true;
  }
  return false;
}

/* ---- --seen ---- */

static uint64_t random_seed(void) {
  uint64_t seed = 0;
  if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
    seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
  return seed;
}

core_rc cli__open_seen(struct crawl *c) {
  const struct crawl_config *cfg = c->cfg;
  char why[256] = "";
  if (cfg->seen_file && core_seen_check_writable(cfg->seen_file, why, sizeof(why)) != CORE_OK) {
    cli__fatal(c, "--seen '%s': %s", cfg->seen_file, why[0] ? why : "out of memory");
    return CORE_ESYS;
  }
  if (cfg->seen_file) {
    if (!(c->resumable = temp_stream("resume"))) {
      cli__fatal(c, "--seen '%s': cannot make a temporary file: %s", cfg->seen_file,
                 strerror(errno));
      return CORE_ESYS;
    }
    core_rc rc = core_seen_load(cfg->seen_file, &c->seen, fileno(c->resumable), why, sizeof(why));
    if (rc == CORE_OK) {
      struct core_seen_info info;
      core_seen_info(c->seen, &info);
      if (cfg->dedupe_given && info.kind != cfg->dedupe) {
        cli__fatal(c,
                   "--seen '%s': it holds a %s filter, not %s (run with --dedupe %s or use another "
                   "file)",
                   cfg->seen_file, core_seen_kind_name(info.kind), core_seen_kind_name(cfg->dedupe),
                   core_seen_kind_name(info.kind));
        return CORE_EFORMAT;
      }
      return CORE_OK;
    }
    if (rc != CORE_ENOTFOUND) {
      cli__fatal(c, "--seen '%s': %s", cfg->seen_file, rc == CORE_ENOMEM ? "out of memory" : why);
      return rc;
    }
  }
  core_rc rc = core_seen_create(cfg->dedupe, cfg->expect, cfg->fp_rate, random_seed(), &c->seen);
  if (rc)
    cli__fatal(c, "cannot create the seen filter: %s", core_rc_str(rc));
  return rc;
}

/* Saves the filter with the URLs left for the next run (the contents of left, may be NULL). */
static bool save_seen(struct crawl *c, FILE *left) {
  char why[512] = "";
  if (left && (fflush(left) != 0 || ferror(left))) {
    if (!c->cfg->quiet)
      fprintf(stderr, "crawl: --seen: cannot keep the URLs left queued: %s\n", strerror(errno));
    return false;
  }
  int fd = left ? fileno(left) : -1;
  if (core_seen_save(c->seen, c->cfg->seen_file, fd, why, sizeof(why)) == CORE_OK)
    return true;
  if (!c->cfg->quiet)
    fprintf(stderr, "crawl: --seen: %s\n", why[0] ? why : "out of memory");
  return false;
}

void cli__on_save_timer(void *arg) {
  struct crawl *c = arg;
  /* until the run ends, what it will leave is unknown: the earlier run's leftovers stand, so a
   * crash costs at most fetching some of them twice */
  save_seen(c, c->resumable);
  fetch_timer_start(c->save_timer, core_now() + SAVE_EVERY);
}

/* The last save: a filter that can remove first forgets what failed, so the next run tries those
 * URLs again (the saves before kept them: the run itself still counts them seen); the URLs left
 * queued go with it. */
void cli__final_save(struct crawl *c) {
  if (core_seen_forget_marked(c->seen) != CORE_OK && !c->fatal)
    cli__fatal(c, "out of memory");
  if (c->leftovers_lost && !c->fatal)
    cli__fatal(c, "--seen '%s': cannot make a temporary file for the URLs left queued",
               c->cfg->seen_file);
  else if (!save_seen(c, c->leftovers) && !c->fatal) {
    cli__fatal(c, "--seen '%s' could not be saved", c->cfg->seen_file);
  }
}
