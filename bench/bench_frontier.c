/* The frontier's cost to pick the next host, against the number of hosts: the same number of
 * pages spread over 10, 1,000 and 100,000 hosts, each popped, ended and released as a crawl
 * does (no delay, one request per host at a time, 64 in flight), nanoseconds per page.
 *
 *   bench_frontier [PAGES]      (default 1,000,000) */
#include "frontier/frontier.h"
#include "seen/seen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ns per page to queue and to take out `pages` pages over `hosts` hosts */
static int run(size_t hosts, size_t pages, double *push_ns, double *pick_ns) {
  struct frontier_options cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.delay = 0;
  cfg.max_delay = 30;
  cfg.per_host = 1;
  cfg.queue_memory = pages + 1; /* all in memory: the pick is measured, not the spill file */
  seen_filter *seen;
  frontier *f;
  if (seen_create(SEEN_BLOOM, pages, 1e-4, 1, &seen) || frontier_create(&cfg, seen, NULL, &f))
    return 1;
  frontier_host **hs = calloc(hosts, sizeof(*hs));
  char url[128];
  for (size_t h = 0; h < hosts; h++) {
    bool created;
    snprintf(url, sizeof(url), "http://h%zu.example", h);
    if (frontier_host_get(f, url, &hs[h], &created))
      return 1;
  }
  double t0 = now_s();
  for (size_t i = 0; i < pages; i++) {
    size_t h = i % hosts;
    snprintf(url, sizeof(url), "http://h%zu.example/p/%zu.html", h, i);
    struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, NULL, 0);
    if (!item)
      return 1;
    frontier_push(f, hs[h], item);
  }
  double t1 = now_s();
  /* up to 64 in flight: pop until the window is full, then end the oldest */
  struct frontier_item *window[64];
  frontier_host *window_host[64];
  size_t in_flight = 0, done = 0, head = 0;
  double now = 1.0;
  while (done < pages) {
    frontier_host *h;
    struct frontier_item *item = in_flight < 64 ? frontier_pop(f, now, &h) : NULL;
    if (item) {
      size_t slot = (head + in_flight) % 64;
      window[slot] = item;
      window_host[slot] = h;
      in_flight++;
      continue;
    }
    if (!in_flight)
      return 1; /* nothing ready and nothing in flight: the frontier lost pages */
    now += 1e-6;
    frontier_end(f, window_host[head], window[head], now, 0);
    frontier_release(f, window[head]->depth);
    frontier_item_free(window[head]);
    head = (head + 1) % 64;
    in_flight--;
    done++;
  }
  double t2 = now_s();
  *push_ns = (t1 - t0) * 1e9 / (double)pages;
  *pick_ns = (t2 - t1) * 1e9 / (double)pages;
  frontier_destroy(f);
  seen_destroy(seen);
  free(hs);
  return 0;
}

int main(int argc, char **argv) {
  size_t pages = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
  printf("| hosts | pages | queue ns per page | pop + end ns per page |\n|---|---|---|---|\n");
  const size_t host_counts[] = {10, 1000, 100000};
  for (size_t i = 0; i < 3; i++) {
    /* the fastest of three runs: the first one also pays for the heap's growth */
    double push_ns = 1e18, pick_ns = 1e18;
    for (int round = 0; round < 3; round++) {
      double push, pick;
      if (run(host_counts[i], pages, &push, &pick)) {
        fprintf(stderr, "bench_frontier: failed at %zu hosts\n", host_counts[i]);
        return 1;
      }
      push_ns = push < push_ns ? push : push_ns;
      pick_ns = pick < pick_ns ? pick : pick_ns;
    }
    printf("| %zu | %zu | %.0f | %.0f |\n", host_counts[i], pages, push_ns, pick_ns);
  }
  return 0;
}
