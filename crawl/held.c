/* Links held back: a page fetched ahead of its level keeps its links until the depth gate
 * reaches that level, then they are offered in breadth-first order (doc/behaviour.md, Depth). */
#include "crawl/held.h"
#include "crawl/intake.h"
#include "crawl/notes.h"
#include "crawl/speculate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Sets a held page, and the links in it, at the depth its page turned out to have. */
void crawl__held_at(struct held_page *hp, int depth) {
  if (!hp)
    return;
  hp->depth = depth;
  for (size_t i = 0; i < hp->count; i++)
    hp->links[i].depth = depth + 1;
}

struct held_page *crawl__held_new(struct shard *c, const char *from, int depth) {
  struct held_page *hp = calloc(1, sizeof(*hp));
  if (!hp || !(hp->from = strdup(from))) {
    free(hp);
    crawl__fatal(c, "out of memory");
    return NULL;
  }
  /* at most the held-link budget of URLs at their longest */
  core_buf_init(&hp->texts, (size_t)c->queue_memory * (c->cfg->max_url_length + 1));
  hp->depth = depth;
  return hp;
}

void crawl__held_add(struct shard *c, struct held_page *hp, const char *url, int depth,
                     struct link_how how) {
  if (hp->count == hp->cap) {
    size_t cap = hp->cap ? hp->cap * 2 : 8;
    struct held_link *links = realloc(hp->links, cap * sizeof(*links));
    if (!links) {
      crawl__fatal(c, "out of memory");
      return;
    }
    hp->links = links;
    hp->cap = cap;
  }
  size_t at = hp->texts.len;
  if (core_buf_add(&hp->texts, url, strlen(url) + 1) != CORE_OK) {
    crawl__fatal(c, "out of memory");
    return;
  }
  hp->links[hp->count++] = (struct held_link){at, depth, how};
  c->held.links++;
}

/* A page's links are all in: its arrays shrink to what they hold, as held pages may wait long and
 * be many (a polite crawl fetching ahead keeps tens of thousands). */
void crawl__held_seal(struct held_page *hp) {
  if (hp->count == 0) {
    free(hp->links);
    hp->links = NULL;
    hp->cap = 0;
  } else if (hp->count < hp->cap) {
    struct held_link *links = realloc(hp->links, hp->count * sizeof(*links));
    if (links) {
      hp->links = links;
      hp->cap = hp->count;
    }
  }
  core_buf_shrink(&hp->texts);
}

void crawl__append_held(struct shard *c, struct held_page *hp) {
  if (hp->depth >= c->held.level_count) {
    int n = c->held.level_count ? c->held.level_count : 16;
    while (n <= hp->depth && n < INT_MAX / 2)
      n *= 2;
    struct held_level *grown =
        n > hp->depth ? realloc(c->held.levels, (size_t)n * sizeof(*grown)) : NULL;
    if (!grown) {
      /* its links are lost to the run: it is fatal, as any lack of memory */
      crawl__fatal(c, "out of memory");
      return;
    }
    memset(grown + c->held.level_count, 0, (size_t)(n - c->held.level_count) * sizeof(*grown));
    c->held.levels = grown;
    c->held.level_count = n;
  }
  struct held_level *l = &c->held.levels[hp->depth];
  hp->next = NULL;
  if (l->tail)
    l->tail->next = hp;
  else
    l->head = hp;
  l->tail = hp;
  c->held.pages++;
  if (hp->depth < c->held.min)
    c->held.min = hp->depth;
}

/* Takes hp, which follows prev (NULL: the first), out of its level. */
static void unlink_held(struct shard *c, struct held_page *hp, struct held_page *prev) {
  struct held_level *l = &c->held.levels[hp->depth];
  if (prev)
    prev->next = hp->next;
  else
    l->head = hp->next;
  if (l->tail == hp)
    l->tail = prev;
  hp->next = NULL;
  if (--c->held.pages == 0)
    c->held.min = INT_MAX;
  else
    while (!c->held.levels[c->held.min].head)
      c->held.min++;
}

struct held_page *crawl__held_take(struct shard *c) {
  if (!c->held.pages)
    return NULL;
  struct held_page *hp = c->held.levels[c->held.min].head;
  unlink_held(c, hp, NULL);
  return hp;
}

void crawl__held_move(struct shard *c, struct held_page *hp, int depth) {
  struct held_page *prev = NULL;
  for (struct held_page *p = c->held.levels[hp->depth].head; p != hp; p = p->next)
    prev = p;
  unlink_held(c, hp, prev);
  frontier_move_pending(c->fr, hp->depth, depth);
  crawl__held_at(hp, depth);
  crawl__append_held(c, hp);
}

void crawl__held_queue(struct shard *c, struct held_page *hp) {
  frontier_hold(c->fr, hp->depth);
  crawl__append_held(c, hp);
}

static void set_lookahead(struct shard *c);

void crawl__held_free(struct shard *c, struct held_page *hp) {
  if (!hp)
    return;
  c->held.links -= hp->count;
  core_buf_free(&hp->texts);
  free(hp->links);
  free(hp->from);
  free(hp);
}

/* Offers the links of pages done ahead of their level once the level has come (all of them
 * when nothing else is left to wait for), and lets pages run ahead while the held links stay
 * within the queue's memory budget. */
void crawl__replay_held(struct shard *c, bool all) {
  while (c->held.pages && (all || c->held.min <= frontier_gate(c->fr))) {
    struct held_page *hp = crawl__held_take(c);
    if (hp->page) /* a speculative page's record first, at the depth it has now */
      crawl__spec_settle(c, hp, c->stop != STOP_NOW);
    for (size_t i = 0; i < hp->count && c->stop != STOP_NOW && !c->fatal; i++) {
      /* a printed form parses again to the same URL (tests/fuzz/fuzz_url.c) */
      const struct held_link *l = &hp->links[i];
      const char *text = hp->texts.data + l->text;
      struct url u;
      core_rc rc = url_resolve_in(NULL, text, strlen(text), c->cfg->max_url_length, NULL, &u);
      if (rc == CORE_ENOMEM)
        crawl__fatal(c, "out of memory");
      if (rc)
        continue;
      crawl__offer(c, &u, hp->from, l->depth, 0, OFFER_LINK, l->how);
      url_free(&u);
    }
    frontier_release(c->fr, hp->depth);
    crawl__held_free(c, hp);
  }
  set_lookahead(c);
}

/* How far below the gate pages may start: one level while the links held back stay within the
 * queue's memory budget (off at it, on again at half of it: each switch revisits every host);
 * and every level, for speculative pages, while they stay within half of it and their kept links
 * within twice it (on again at half of each). A kept link costs its printed form and 16 bytes
 * (held_seal), a speculative page a few hundred: at the default budget of 100,000 they stay
 * within some 30 MB, and a polite crawl of 1,000 hosts x 30 pages never waits for them. */
static void set_lookahead(struct shard *c) {
  uint64_t budget = c->queue_memory ? c->queue_memory : UINT64_MAX / 2;
  size_t real = c->held.links - c->spec.links;
  /* each stop is counted: the summary names the option that raises the budget */
  if (real >= budget) {
    c->stats->ahead_stops += c->ahead;
    c->ahead = false;
  } else if (real <= budget / 2) {
    c->ahead = true;
  }
  if (c->spec.links >= budget * 2 || c->spec.count >= budget / 2) {
    c->stats->ahead_stops += c->spec.ahead;
    c->spec.ahead = false;
  } else if (c->spec.links <= budget && c->spec.count <= budget / 4) {
    c->spec.ahead = c->spec.on;
  }
  frontier_set_lookahead(c->fr, !c->ahead ? 0 : c->spec.ahead ? SPEC_LEVELS : 1);
}
