/* cluster/: what its files share. scripts.c holds the Lua scripts the nodes run in Redis and the
 * name of their consumer group; cluster.c runs them. */
#ifndef CRAWL_CLUSTER_INT_H
#define CRAWL_CLUSTER_INT_H

#include "cluster/cluster.h"

/* The consumer group every node reads its stream through. */
extern const char cluster__group[];
/* KEYS: the receiver's stream and state; ARGV: the lines, the depth they hold back. */
extern const char cluster__send_script[];
/* KEYS: this node's state and taken set; ARGV: gate, idle, stop, pages, then id and depth pairs. */
extern const char cluster__publish_script[];
/* KEYS: the job's hash of pages leased; ARGV: the node, the change, the limit. */
extern const char cluster__lease_script[];
/* KEYS: this node's stream and taken set; ARGV: the group, the id. */
extern const char cluster__ack_script[];

#endif
