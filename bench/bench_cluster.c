/* Links per second through one Redis: node 0 hands links to node 1 (both here, on one loop and
 * one core; redis-server, started here on a loopback port, has the other), in batches of several
 * sizes; node 1 publishes what it took once a turn of the loop, which acknowledges it. A link
 * is a line as the shards send them, about 80 bytes. At most a window of batches is unconfirmed at
 * once, as a crawl that waits for Redis. Usage: bench_cluster [LINKS]   (default 1000000; the
 * one-link-per-entry row sends a tenth) */
#include "cluster/cluster.h"
#include "tests/support/redisd.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct receiver {
  cluster *cl;
  long links;
  bool failed;
};

static void on_batch(void *arg, const char *id, const char *lines, size_t len) {
  struct receiver *r = arg;
  for (const char *p = lines; (p = memchr(p, '\n', (size_t)(lines + len - p))); p++)
    r->links++;
  (void)id; /* acknowledged by the publish that counts it taken */
}

static void on_error(void *arg, const char *message) {
  fprintf(stderr, "bench_cluster: %s\n", message);
  *(bool *)arg = true;
}

static void on_receiver_error(void *arg, const char *message) {
  on_error(&((struct receiver *)arg)->failed, message);
}

static double cpu_self(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
         (double)u.ru_stime.tv_usec / 1e6;
}

static double cpu_of(pid_t pid) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  unsigned long utime = 0, stime = 0;
  /* the name (field 2) holds no spaces here: redis-server */
  int n = fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime);
  fclose(f);
  return n == 2 ? (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK) : 0;
}

static int run(const struct redisd *redis, const char *job, size_t batch_bytes, long links,
               size_t window) {
  event_loop *loop;
  if (loop_create(&loop))
    return 1;
  struct cluster_options opt = {
      .nodes = 2, .node = 0, .batch_bytes = batch_bytes, .ack_when_published = true};
  snprintf(opt.address.host, sizeof(opt.address.host), "127.0.0.1");
  opt.address.port = redis->port;
  snprintf(opt.address.job, sizeof(opt.address.job), "%s", job);
  bool send_failed = false;
  struct receiver rx = {0};
  struct cluster_handler to_sender = {.on_batch = on_batch,
                                      .on_error = on_error,
                                      .arg = &send_failed},
                         to_receiver = {
                             .on_batch = on_batch, .on_error = on_receiver_error, .arg = &rx};
  cluster *tx;
  char why[512];
  if (cluster_create(loop, &opt, &to_sender, &tx, why, sizeof(why))) {
    fprintf(stderr, "bench_cluster: %s\n", why);
    return 1;
  }
  opt.node = 1;
  if (cluster_create(loop, &opt, &to_receiver, &rx.cl, why, sizeof(why))) {
    fprintf(stderr, "bench_cluster: %s\n", why);
    return 1;
  }
  double redis_before = cpu_of(redis->pid), self_before = cpu_self(), start = core_now();
  char line[128];
  long sent = 0;
  unsigned long published = 0;
  while (rx.links < links && !send_failed && !rx.failed) {
    while (sent < links && cluster_unconfirmed(tx) < window) {
      int len = snprintf(line, sizeof(line),
                         "L1 3 0 http://host-%ld.test/page-%ld.html "
                         "http://host-%ld.test/dir/page-%ld.html\n",
                         sent % 50, sent, (sent * 7) % 50, sent * 3);
      cluster_send(tx, 1, line, (size_t)len, 2);
      sent++;
      if (sent == links)
        cluster_flush(tx);
    }
    loop_run_once(loop, 0.01);
    /* as a crawl does once a turn: what node 1 was given is now counted as taken */
    if (cluster_entries_read(rx.cl) != published) {
      published = cluster_entries_read(rx.cl);
      cluster_publish(rx.cl, INT_MAX, false, false);
    }
  }
  double wall = core_now() - start, self = cpu_self() - self_before;
  double redis_cpu = cpu_of(redis->pid) - redis_before;
  for (int i = 0; i < 20; i++) /* the last acknowledgements */
    loop_run_once(loop, 0.005);
  cluster_destroy(tx);
  cluster_destroy(rx.cl);
  loop_destroy(loop);
  if (send_failed || rx.failed)
    return 1;
  printf("| %zu | %ld | %.2f | %.0f | %.1f | %.2f | %.2f |\n", batch_bytes, links, wall,
         (double)links / wall, (double)links * 80 / wall / 1e6, self, redis_cpu);
  return 0;
}

int main(int argc, char **argv) {
  long links = argc > 1 ? atol(argv[1]) : 1000000;
  if (links < 1000) {
    fprintf(stderr, "usage: bench_cluster [LINKS >= 1000]\n");
    return 2;
  }
  struct redisd redis;
  char why[256];
  if (!redisd_start(&redis, why, sizeof(why))) {
    fprintf(stderr, "bench_cluster: %s\n", why);
    return 1;
  }
  printf("links through one Redis (redis-server on 127.0.0.1:%d), node 0 to node 1 on one "
         "loop, every entry acknowledged; a link is a line of about 80 bytes\n\n",
         redis.port);
  printf("| batch bytes | links | wall s | links/s | MB/s | crawl CPU s | redis CPU s |\n");
  printf("|---|---|---|---|---|---|---|\n");
  int rc = run(&redis, "one-per-entry", 1, links / 10, 1024);
  if (!rc)
    rc = run(&redis, "batch-4k", 4096, links, 256);
  if (!rc)
    rc = run(&redis, "batch-64k", 65536, links, 64);
  redisd_stop(&redis);
  return rc;
}
