/* The engine's words to its user: a fatal error (which stops the crawl), -v notes and warnings,
 * each one line through the sink. */
#include "crawl/notes.h"
#include "crawl/life.h"

#include <stdarg.h>
#include <stdlib.h>

void crawl__notes_fatal(struct shard *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  crawl__life_fail(c, fmt, ap);
  va_end(ap);
}

static void say(struct shard *c, const char *fmt, va_list ap) {
  char *text = NULL; /* as long as it is: a URL may be 2,048 bytes or more */
  if (vasprintf(&text, fmt, ap) >= 0) {
    c->sink->note(c->sink->arg, text);
    free(text);
  }
}

void crawl__notes_verbose(struct shard *c, const char *fmt, ...) {
  if (!c->cfg->verbose || !c->sink->note)
    return;
  va_list ap;
  va_start(ap, fmt);
  say(c, fmt, ap);
  va_end(ap);
}

void crawl__notes_warn(struct shard *c, const char *fmt, ...) {
  if (!c->sink->note) /* -q: none */
    return;
  va_list ap;
  va_start(ap, fmt);
  say(c, fmt, ap);
  va_end(ap);
}
