/* crawl/mesh.c: what the shards of a crawl share: the depth gate across shards, the pause a save
 * needs, stop and the end, the scope, the cookie jar and --check-fragments' table (-n, -c and
 * --rate are budget.c's; links on their way, mail.c's). What it offers the other files of the
 * engine. */
#ifndef CRAWL_MESH_H
#define CRAWL_MESH_H

#include "crawl/crawl-int.h"

core_rc crawl__mesh_create(int shards, struct crawl **out);
const struct crawl_config *crawl__mesh_config(const struct crawl *r);
const struct crawl_sink *crawl__mesh_sink(const struct crawl *r);
/* --ip-delay's clocks, which every shard's frontier shares; NULL without it. */
frontier_ip_table *crawl__mesh_ip_table(const struct crawl *r);
/* The run's cookie jar (NULL: --no-cookies) and --check-fragments' table (NULL without it), which
 * crawl_run makes for all its shards and lets go of after them. */
fetch_cookies *crawl__mesh_cookies(const struct crawl *r);
struct crawl_fragments *crawl__mesh_fragments(const struct crawl *r);
/* /etc/hosts (fetch/hosts.c: read again when it changes), which every shard's engine asks. */
fetch_hosts *crawl__mesh_hosts_file(const struct crawl *r);
/* The run's scope (NULL until the first shard made it) and --no-parent's directories, each a
 * seed's origin and the directory of its path ("http://a.example/docs/"): handed over by the
 * first shard as it opens (seed.c), read by every shard, let go of with the run. */
void crawl__mesh_set_scope(struct crawl *r, url_scope *scope, char **dirs, size_t dir_count);
url_scope *crawl__mesh_scope(const struct crawl *r);
const char *const *crawl__mesh_seed_dirs(const struct crawl *r, size_t *count);
/* Whether the shards' loops exist (crawl_stop wakes them only then). */
void crawl__mesh_set_running(struct crawl *r, bool running);
void crawl__mesh_destroy(struct crawl *r);
int crawl__mesh_shards(const struct crawl *r);
void crawl__mesh_attach(struct crawl *r, int shard, struct shard *c, crawl_take_fn *take);
/* Shard i (NULL until attached). */
struct shard *crawl__mesh_shard(const struct crawl *r, int i);
/* --max-time ran out: the run stops as an interrupt stops it, once (CRAWL_END_TIME). */
void crawl__mesh_time_up(struct crawl *r);

/* --seen and --state with several shards: every shard but the first runs holding its turn, from
 * crawl__mesh_take_turn (on its thread, its loop made) to crawl__mesh_give_turn, and lets go of it
 * only where it waits (its loop's wait, the barriers). */
void crawl__mesh_set_pausable(struct crawl *r);
void crawl__mesh_take_turn(struct shard *c);
void crawl__mesh_give_turn(struct shard *c);
/* From the first shard only: takes every other shard's turn, so none runs until crawl__mesh_resume
 * and what each holds may be read. False (nothing taken) while a shard has not begun. */
bool crawl__mesh_pause(struct crawl *r);
void crawl__mesh_resume(struct crawl *r);
/* The shard that owns host in its process (always 0 for a crawl of one). */
int crawl__mesh_owner(struct shard *c, const char *host);
/* The process of a --cluster crawl that owns host (0 without --cluster). */
int crawl__mesh_node_of(const struct crawl *r, const char *host);
bool crawl__mesh_is_cluster(const struct crawl *r);
void crawl__mesh_view_asked(struct crawl *r);
/* A view of the run came: gate, what other processes hold back; done, the whole run's end. */
void crawl__mesh_view_read(struct crawl *r, int gate, bool done);
/* This process's smallest pending depth (links for other processes included) and whether every
 * shard is idle with nothing on its way. */
void crawl__mesh_node_state(struct crawl *r, int *gate, bool *idle);
/* Publishes the shard's pending depths and counts (after crawl__mail_flush); returns the smallest
 * depth pending elsewhere. */
int crawl__mesh_publish(struct shard *c, const struct crawl_progress *progress);
/* The shard has nothing left to do: true when no shard has (the crawl is over). */
bool crawl__mesh_idle(struct shard *c);
bool crawl__mesh_done(struct shard *c);
/* Shares this shard's stop with all, or takes up one another shard asked for. */
void crawl__mesh_sync_stop(struct shard *c);
crawl_end crawl__mesh_end(struct crawl *r);
void crawl__mesh_progress(struct crawl *r, struct crawl_progress *sum);
/* Waits until every shard has called it (nothing to wait for with one shard); self, the caller,
 * lets go of its turn meanwhile. */
void crawl__mesh_barrier(struct crawl *r, int self);
/* Around each write to the --warc file, which the shards share. */
void crawl__mesh_warc_lock(struct crawl *r);
void crawl__mesh_warc_unlock(struct crawl *r);
/* A shard that never ran (its thread could not start): the barriers stop waiting for it. */
void crawl__mesh_leave(struct crawl *r);
/* A barrier that also tells whether any shard passed mine as true; round counts from 0. */
bool crawl__mesh_any(struct crawl *r, int self, int round, bool mine);
/* The shards' loops woken: shard i, or all but self. */
void crawl__mesh_wake(struct crawl *r, int i);
void crawl__mesh_wake_others(struct crawl *r, int self);

#endif
