/* crawl/mail.c: links on their way between shards and to other processes, as lines: outboxes,
 * inboxes, what a save writes of them. What it offers the other files of the engine. */
#ifndef CRAWL_MAIL_H
#define CRAWL_MAIL_H

#include "crawl/crawl-int.h"

#include <stdio.h>

/* Links for one other shard or process, sent once per turn. */
struct shard_outbox {
  struct core_buf buf;
  int min; /* the smallest depth its links count at; INT_MAX: none */
};

/* A shard's outboxes to the other shards of a run of shards shards, and with --cluster to its
 * nodes processes (nodes 0 without); made when links can leave the shard, which
 * crawl__mail_shared then says; a failure is ENOMEM. Let go of by crawl__mail_close. */
core_rc crawl__mail_open(struct shard *c, int shards, long nodes);
void crawl__mail_close(struct shard *c);
bool crawl__mail_shared(const struct shard *c);
/* What its outbox to shard to holds room for: a batch goes to its owner before it grows far. */
size_t crawl__mail_outbox_room(const struct shard *c, int to);

/* While paused: the links on their way between shards (inboxes and outboxes) and to other
 * processes (--cluster), as saved lines "transit KH DEPTH REDIRECTS FROM URL". */
void crawl__mail_write_transit(struct crawl *r, FILE *out);
/* Each line of text (len bytes of lines ending in '\n') as "transit LINE". */
void crawl__mail_put_transit(FILE *out, const char *text, size_t len);
/* A link on its way, taken up by this shard (its host's owner); page NULL for none. */
void crawl__mail_take_link(struct shard *c, enum link_kind kind, struct link_how how, int depth,
                           int redirects, const char *page, const char *url);
/* The same for a link a save kept on its way: one for another process's host (--cluster) goes
 * on to that process. */
void crawl__mail_take_saved_link(struct shard *c, enum link_kind kind, struct link_how how,
                                 int depth, int redirects, const char *page, const char *url);
/* --cluster, from the first shard (bridge.c): takes the links found for other processes, each
 * batch with the smallest depth it holds back; they count as sent until a view asked for after
 * them is read. */
void crawl__mail_take_remote(struct crawl *r,
                             void (*fn)(void *arg, int node, const char *lines, size_t len,
                                        int min),
                             void *arg);
/* Lines from another process for shard to (its inbox; min as in an outbox). */
void crawl__mail_deliver(struct crawl *r, int to, const char *lines, size_t len, int min);
/* Sends u to its owner when that is another shard and returns true; false when it is this shard's
 * own. */
bool crawl__mail_send_if_foreign(struct shard *c, const struct url *u, const char *from, int depth,
                                 int redirects, enum link_kind kind, struct link_how how);
/* The depth a link on its way holds back (INT_MAX: none): kind and depth as in its line. */
int crawl__mail_line_holds(enum link_kind kind, int depth);
/* Hands the outboxes to their owners. */
void crawl__mail_flush(struct shard *c);
bool crawl__mail_outbox_empty(const struct shard *c);
/* Offers what other shards sent. */
void crawl__mail_receive(struct shard *c);

#endif
