/* How a shard goes and ends: how far it is from stopping, how it ends, its fatal error, when it
 * began, and whether it began at all. Every file of the engine asks; the few that change it do
 * so here (doc/design.md, The engine). */
#include "crawl/life.h"

#include <stdio.h>
#include <stdlib.h>

struct shard_life {
  enum shard_stop stop;
  crawl_end end;
  double start;
  double run_start;
  bool fatal;
  bool refused;
  bool begun;
  char *err; /* the run's, err_size bytes */
  size_t err_size;
};

core_rc crawl__life_open(struct shard *c, char *err, size_t err_size, double start) {
  struct shard_life *l = calloc(1, sizeof(*l));
  if (!l)
    return CORE_ENOMEM;
  *l = (struct shard_life){
      .end = CRAWL_END_DONE, .start = start, .run_start = start, .err = err, .err_size = err_size};
  c->life = l;
  return CORE_OK;
}

void crawl__life_close(struct shard *c) {
  free(c->life);
  c->life = NULL;
}

enum shard_stop crawl__life_stop(const struct shard *c) {
  return c->life->stop;
}

void crawl__life_set_stop(struct shard *c, enum shard_stop stop) {
  if (stop > c->life->stop)
    c->life->stop = stop;
}

crawl_end crawl__life_end(const struct shard *c) {
  return c->life->end;
}

void crawl__life_set_end(struct shard *c, crawl_end end) {
  c->life->end = end;
}

void crawl__life_fail(struct shard *c, const char *fmt, va_list ap) {
  struct shard_life *l = c->life;
  if (l->fatal)
    return;
  vsnprintf(l->err, l->err_size, fmt, ap);
  l->fatal = true;
  l->stop = STOP_NOW;
  l->end = CRAWL_END_FATAL;
}

bool crawl__life_fatal(const struct shard *c) {
  return c->life->fatal;
}

const char *crawl__life_err(const struct shard *c) {
  return c->life->err;
}

double crawl__life_start(const struct shard *c) {
  return c->life->start;
}

void crawl__life_set_start(struct shard *c, double start) {
  c->life->start = start;
}

double crawl__life_run_start(const struct shard *c) {
  return c->life->run_start;
}

bool crawl__life_refused(const struct shard *c) {
  return c->life->refused;
}

void crawl__life_set_refused(struct shard *c, bool refused) {
  c->life->refused = refused;
}

bool crawl__life_begun(const struct shard *c) {
  return c->life->begun;
}

void crawl__life_set_begun(struct shard *c, bool begun) {
  c->life->begun = begun;
}
