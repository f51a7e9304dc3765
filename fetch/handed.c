/* The addresses handed to curl (CURLOPT_RESOLVE), by host and port, and which of them to take
 * back. curl keeps such an entry in the multi handle's DNS cache for good (since 7.75, one
 * without a '+' never expires), so once a transfer has used it, the host's next requests go
 * without: curl parsed the entry again for every request (sscanf, an address structure, the cache
 * entry replaced), some 2% of a crawl's CPU. But curl 7.88's cache is a table of 71 chains that
 * never grows, searched at every transfer's start: at 15,000 hosts a tenth of a broad crawl's CPU
 * went to walking them. So the engine keeps at most limit entries (as many as connections it
 * keeps: a host whose connection is kept needs none): past it, those of the hosts idle longest
 * (no transfer in flight) are taken back, by a "-HOST:PORT" line on the next transfer's list
 * (doc/design.md, Connections). */
#include "fetch/fetch-int.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static size_t handed_slot(const char *host, unsigned port, size_t slots) {
  return (XXH3_64bits(host, strlen(host)) + port) & (slots - 1);
}

static void idle_unlink(struct fetch__handed *t, struct handed *h) {
  *(h->older ? &h->older->newer : &t->idle_oldest) = h->newer;
  *(h->newer ? &h->newer->older : &t->idle_newest) = h->older;
  h->older = h->newer = NULL;
}

void fetch__handed_done(struct fetch__handed *t, struct handed *h) {
  if (!h || --h->in_flight)
    return;
  h->older = t->idle_newest;
  h->newer = NULL;
  *(h->older ? &h->older->newer : &t->idle_oldest) = h;
  t->idle_newest = h;
  while (t->count > t->limit && t->idle_oldest) {
    struct handed *old = t->idle_oldest;
    idle_unlink(t, old);
    struct handed **at = &t->slots[handed_slot(old->host, old->port, t->slot_count)];
    while (*at != old)
      at = &(*at)->next;
    *at = old->next;
    t->count--;
    char line[512];
    snprintf(line, sizeof(line), "-%s:%u", old->host, old->port);
    struct curl_slist *node = curl_slist_append(NULL, line);
    if (node) { /* else curl keeps the entry: only its memory */
      *(t->taken_back_last ? &t->taken_back_last->next : &t->taken_back) = node;
      t->taken_back_last = node;
    }
    free(old->host);
    free(old);
  }
}

struct handed *fetch__handed_entry(struct fetch__handed *t, const char *host, unsigned port,
                                   const char *addr) {
  if (strlen(addr) >= sizeof(((struct handed *)NULL)->addr))
    return NULL;
  if (t->count >= t->slot_count) {
    size_t n = t->slot_count ? t->slot_count * 2 : 64;
    struct handed **grown = calloc(n, sizeof(*grown));
    if (!grown)
      return NULL;
    for (size_t i = 0; i < t->slot_count; i++)
      for (struct handed *h = t->slots[i], *next; h; h = next) {
        next = h->next;
        size_t at = handed_slot(h->host, h->port, n);
        h->next = grown[at];
        grown[at] = h;
      }
    free(t->slots);
    t->slots = grown;
    t->slot_count = n;
  }
  struct handed **at = &t->slots[handed_slot(host, port, t->slot_count)];
  for (struct handed *h = *at; h; h = h->next)
    if (h->port == port && strcmp(h->host, host) == 0) {
      if (strcmp(h->addr, addr) != 0) {
        strcpy(h->addr, addr);
        h->used = false;
      }
      if (!h->in_flight)
        idle_unlink(t, h);
      return h;
    }
  struct handed *h = calloc(1, sizeof(*h));
  if (!h || !(h->host = strdup(host))) {
    free(h);
    return NULL;
  }
  h->port = port;
  strcpy(h->addr, addr);
  h->next = *at;
  *at = h;
  t->count++;
  return h;
}

struct curl_slist *fetch__handed_taken_back(struct fetch__handed *t) {
  struct curl_slist *lines = t->taken_back;
  t->taken_back = t->taken_back_last = NULL;
  return lines;
}

void fetch__handed_free(struct fetch__handed *t) {
  for (size_t i = 0; i < t->slot_count; i++)
    for (struct handed *h = t->slots[i], *next; h; h = next) {
      next = h->next;
      free(h->host);
      free(h);
    }
  free(t->slots);
  curl_slist_free_all(t->taken_back);
  *t = (struct fetch__handed){0};
}
