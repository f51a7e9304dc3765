/* --seen: the seen filter kept in a file across runs. */
#include "cli/crawl-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

void cli__remember_to_forget(struct crawl *c, const char *url) {
  if (c->forget_count == c->forget_cap) {
    size_t cap = c->forget_cap ? c->forget_cap * 2 : 64;
    char **grown = realloc(c->forget, cap * sizeof(*grown));
    if (!grown) {
      cli__fatal(c, "out of memory");
      return;
    }
    c->forget = grown;
    c->forget_cap = cap;
  }
  if (!(c->forget[c->forget_count] = strdup(url)))
    cli__fatal(c, "out of memory");
  else
    c->forget_count++;
}

/* ---- --seen ---- */

static uint64_t random_seed(void) {
  uint64_t seed = 0;
  if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
    seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
  return seed;
}

/* With --seen, a filter that can remove URLs forgets those that failed or were left pending, so
 * the next run tries them again. The kind is the filter's own: a loaded file's, when no
 * --dedupe was given. */
static void decide_forgetting(struct crawl *c) {
  struct core_seen_info info;
  core_seen_info(c->seen, &info);
  c->forget_unfinished = c->cfg->seen_file && info.kind != CORE_SEEN_BLOOM;
}

static core_rc load_or_create_seen(struct crawl *c) {
  const struct crawl_config *cfg = c->cfg;
  char why[256] = "";
  if (cfg->seen_file) {
    core_rc rc = core_seen_load(cfg->seen_file, &c->seen, why, sizeof(why));
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

core_rc cli__open_seen(struct crawl *c) {
  core_rc rc = load_or_create_seen(c);
  if (rc == CORE_OK)
    decide_forgetting(c);
  return rc;
}

static bool save_seen(struct crawl *c) {
  char why[512] = "";
  if (core_seen_save(c->seen, c->cfg->seen_file, why, sizeof(why)) == CORE_OK)
    return true;
  if (!c->cfg->quiet)
    fprintf(stderr, "crawl: --seen: %s\n", why[0] ? why : "out of memory");
  return false;
}

void cli__on_save_timer(void *arg) {
  struct crawl *c = arg;
  save_seen(c);
  fetch_timer_start(c->save_timer, core_now() + SAVE_EVERY);
}

/* The last save: a filter that can remove first forgets what failed or was left pending, so the
 * next run tries those URLs again. */
void cli__final_save(struct crawl *c) {
  for (size_t i = 0; i < c->forget_count; i++) {
    core_seen_remove(c->seen, c->forget[i], strlen(c->forget[i]));
    free(c->forget[i]);
  }
  free(c->forget);
  c->forget = NULL;
  c->forget_count = 0;
  if (!save_seen(c) && !c->fatal) {
    cli__fatal(c, "--seen '%s' could not be saved", c->cfg->seen_file);
  }
}
