/* The earliest moment any polite crawler from s0's root could first contact each host of the web:
 * a lower bound for benchmarks, which compare a crawl's time with the busiest host's requests back
 * to back and need to know how much of the difference no crawler can win back.
 *
 * With one request at a time per host and a gap of DELAY after each, a crawl that starts at 0:
 * - asks for a host's robots.txt no earlier than the first response that links the host (its
 *   discovery) and for its first page a DELAY later;
 * - fetches a page no earlier than a DELAY after the page on its own host that links it, or than
 *   the page on another host that links it (once the host is discovered and DELAY has passed);
 * - reaches a redirect's target two DELAYs after the page that links the redirect.
 * These are shortest paths (Dijkstra over the pages, in seconds); contention between pages of one
 * host is left out, so real crawls can only be later. A host's last request then comes no earlier
 * than its discovery plus (its requests - 1) x DELAY, which the benchmark takes from the log. */
#include "tests/testweb/web.h"

#include <stdio.h>
#include <stdlib.h>

struct heap_entry {
  double t;
  int page;
};

struct heap {
  struct heap_entry *e;
  size_t n, cap;
};

static int heap_push(struct heap *h, double t, int page) {
  if (h->n == h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 1024;
    struct heap_entry *grown = realloc(h->e, cap * sizeof(*grown));
    if (!grown)
      return -1;
    h->e = grown;
    h->cap = cap;
  }
  size_t i = h->n++;
  while (i > 0 && h->e[(i - 1) / 2].t > t) {
    h->e[i] = h->e[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->e[i] = (struct heap_entry){t, page};
  return 0;
}

static struct heap_entry heap_pop(struct heap *h) {
  struct heap_entry top = h->e[0], last = h->e[--h->n];
  size_t i = 0;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= h->n)
      break;
    if (child + 1 < h->n && h->e[child + 1].t < h->e[child].t)
      child++;
    if (h->e[child].t >= last.t)
      break;
    h->e[i] = h->e[child];
    i = child;
  }
  if (h->n)
    h->e[i] = last;
  return top;
}

int discovery_run(const struct web *w, double delay) {
  size_t pages = (size_t)w->hosts * (size_t)w->pages;
  double *fetch = malloc(pages * sizeof(*fetch));
  double *found = malloc((size_t)w->hosts * sizeof(*found));
  struct heap h = {0};
  int rc = 1;
  if (!fetch || !found)
    goto done;
  for (size_t i = 0; i < pages; i++)
    fetch[i] = -1;
  for (int i = 0; i < w->hosts; i++)
    found[i] = -1;
  found[0] = 0; /* s0's robots.txt at 0, its root page a delay later */
  if (heap_push(&h, delay, 0))
    goto done;
  while (h.n) {
    struct heap_entry top = heap_pop(&h);
    if (fetch[top.page] >= 0)
      continue;
    fetch[top.page] = top.t;
    int host = top.page / w->pages, page = top.page % w->pages;
    int count = web_link_count(w, host, page);
    for (int i = 0; i < count; i++) {
      struct web_link l;
      web_link_at(w, host, page, i, &l);
      if (l.kind != WEB_PAGE && l.kind != WEB_REDIRECT)
        continue;
      int target = l.host * w->pages + l.page;
      if (fetch[target] >= 0)
        continue;
      double t;
      if (l.host == host) {
        t = top.t + (l.kind == WEB_REDIRECT ? 2 : 1) * delay;
      } else {
        if (found[l.host] < 0)
          found[l.host] = top.t;
        t = found[l.host] + delay > top.t ? found[l.host] + delay : top.t;
      }
      if (heap_push(&h, t, target))
        goto done;
    }
  }
  for (int i = 0; i < w->hosts; i++)
    if (found[i] >= 0)
      printf("s%d.%s %.6f\n", i, w->domain, found[i]);
  rc = 0;
done:
  if (rc)
    fprintf(stderr, "testweb: out of memory\n");
  free(h.e);
  free(found);
  free(fetch);
  return rc;
}
