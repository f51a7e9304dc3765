/* crawl/notes.c: the engine's words to its user. What it offers the other files of the engine. */
#ifndef CRAWL_NOTES_H
#define CRAWL_NOTES_H

#include "crawl/crawl-int.h"

/* Ends the crawl as fatal, with the error (printf-style) the run reports; the first one wins. */
void crawl__notes_fatal(struct shard *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A -v note: one line, only with -v. */
void crawl__notes_verbose(struct shard *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A line on standard error, unless -q: what the user must know while the crawl runs. */
void crawl__notes_warn(struct shard *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
