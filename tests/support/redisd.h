/* A redis-server of a test's or a benchmark's own, on a loopback port chosen at run time, with
 * nothing saved to disk; started and stopped by the caller. */
#ifndef CRAWL_TESTS_REDISD_H
#define CRAWL_TESTS_REDISD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct redisd {
  pid_t pid;
  int port;
};

/* A free port on 127.0.0.1 (bound, read back and let go of), or -1. */
int redisd_free_port(void);
/* Starts redis-server and waits (at most 5 s) until it accepts connections; false with why. */
bool redisd_start(struct redisd *r, char *why, size_t why_len);
/* Kills it (SIGKILL, as a crash would) and reaps it; nothing when it is not running. */
void redisd_stop(struct redisd *r);

#endif
