/* A shard for the engine's unit programs (world.h). */
#include "tests/crawl/world.h"
#include "crawl/mesh.h"
#include "crawl/life.h"
#include "crawl/report.h"
#include "crawl/run-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

void world_base_open(struct world_base *base, void *writer) {
  assert_int_equal(crawl__mesh_create(1, &base->run), CORE_OK);
  base->run->cfg = &base->cfg; /* the run's configuration is its one shard's, as run.c sets it */
  struct shard *c = &base->shard;
  c->cfg = &base->cfg;
  c->run = base->run;
  c->sink = &base->sink;
  assert_int_equal(crawl__report_attach(c, writer), CORE_OK);
  c->stats = &base->stats;
  assert_int_equal(crawl__life_open(c, base->err, sizeof(base->err), 0), CORE_OK);
}

void world_base_close(struct world_base *base) {
  for (size_t i = 0; i < CRAWL_BROKEN_SHOWN; i++) { /* as crawl_stats_free, which is run.c's */
    free(base->stats.broken_links[i].url);
    free(base->stats.broken_links[i].from);
  }
  crawl__report_close(&base->shard);
  crawl__life_close(&base->shard);
  crawl__mesh_destroy(base->run);
  assert_string_equal(base->err, "");
}

void world_filters_open(struct shard *c, const char *const *hosts) {
  url_scope *scope;
  assert_int_equal(url_scope_create(URL_SCOPE_HOST, NULL, NULL, &scope), CORE_OK);
  for (size_t i = 0; hosts[i]; i++)
    assert_int_equal(url_scope_add_seed(scope, hosts[i]), CORE_OK);
  crawl__mesh_set_scope(c->run, scope, NULL, 0); /* the run lets go of it */
  assert_int_equal(seen_create(SEEN_EXACT, 1000, 0.001, 1, &c->seen), CORE_OK);
}

void world_filters_close(struct shard *c) {
  seen_destroy(c->seen);
  c->seen = NULL;
}

bool world_no_seed_found(struct shard *c, const struct url *u) {
  (void)c, (void)u;
  return false;
}

bool world_failed_record_at_once(struct shard *c, const struct crawl_record *rec, unsigned flags) {
  (void)c, (void)rec, (void)flags;
  return false;
}

void world_record_copy(struct world_record *r, const struct crawl_record *rec) {
  snprintf(r->url, sizeof(r->url), "%s", rec->url);
  snprintf(r->from, sizeof(r->from), "%s", rec->from ? rec->from : "-");
  snprintf(r->via, sizeof(r->via), "%s", rec->via ? rec->via : "-");
  snprintf(r->type, sizeof(r->type), "%s", rec->type ? rec->type : "-");
  snprintf(r->error, sizeof(r->error), "%s", rec->error ? rec->error : "-");
  r->depth = rec->depth;
  r->status = rec->status;
  r->fate = rec->fate;
  r->cause = rec->cause;
}

void world_records_add(struct world_records *list, const struct crawl_record *rec) {
  assert_true(list->count < WORLD_RECORDS_MOST);
  world_record_copy(&list->at[list->count++], rec);
}

const struct world_record *world_records_find(const struct world_records *list, const char *url) {
  for (size_t i = 0; i < list->count; i++)
    if (!strcmp(list->at[i].url, url))
      return &list->at[i];
  return NULL;
}

static core_rc visit_item(void *arg, frontier_host *host, const struct frontier_item *item) {
  (void)host;
  struct world_queued *q = arg;
  if (item->kind != FRONTIER_PAGE)
    return CORE_OK;
  assert_true(q->count < WORLD_QUEUED_MOST);
  snprintf(q->urls[q->count], sizeof(q->urls[0]), "%s", item->url);
  snprintf(q->from[q->count], sizeof(q->from[0]), "%s", item->from ? item->from : "-");
  q->flags[q->count] = item->flags;
  q->depth[q->count++] = item->depth;
  return CORE_OK;
}

struct world_queued world_queued_pages(frontier *f) {
  struct world_queued q;
  memset(&q, 0, sizeof(q));
  assert_int_equal(frontier_visit(f, NULL, visit_item, &q), CORE_OK);
  return q;
}

int world_queued_at(const struct world_queued *q, const char *url) {
  for (size_t i = 0; i < q->count; i++)
    if (!strcmp(q->urls[i], url))
      return (int)i;
  return -1;
}
