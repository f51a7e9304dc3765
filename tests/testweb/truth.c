/* testweb truth: every URL a crawl from the seeds should print, each with its fate and depth,
 * found by walking the web as the crawler does (breadth first, robots.txt and the filters
 * obeyed, sitemaps read when a host is first queued). */
#include "tests/testweb/web.h"

#include <regex.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether host (n bytes) equals one of a comma list's suffixes or ends with "." + one. */
static bool host_under(const char *host, size_t n, const char *list) {
  while (*list) {
    size_t len = strcspn(list, ",");
    if (len && len <= n && strncasecmp(host + n - len, list, len) == 0 &&
        (n == len || host[n - len - 1] == '.'))
      return true;
    list += len + (list[len] == ',');
  }
  return false;
}

/* A URL the crawler would take at all: not too long (dropped as it is resolved). */
static bool truth_takes(struct truth *t, const char *url) {
  return !t->max_url_length || strlen(url) <= t->max_url_length;
}

/* --match and --exclude, which every link found passes or not, in scope or out of it */
static bool truth_filters_pass(struct truth *t, const char *url) {
  if (t->match && regexec(t->match, url, 0, NULL, 0) != 0)
    return false;
  return !(t->exclude && regexec(t->exclude, url, 0, NULL, 0) == 0);
}

/* The scope of hosts: --scope, -D, --exclude-domains */
static bool truth_host_in_scope(struct truth *t, const char *url) {
  const char *host = url + 7;
  size_t n = strcspn(host, ":/");
  if (t->exclude_domains && host_under(host, n, t->exclude_domains))
    return false;
  if (t->domains && t->scope != 2)
    return host_under(host, n, t->domains);
  if (t->scope == 2)
    return true;
  if (t->scope == 0)
    return strlen(t->seed_host) == n && strncmp(host, t->seed_host, n) == 0;
  char suffix[160];
  int len = snprintf(suffix, sizeof(suffix), ".%s", t->web->domain);
  return n > (size_t)len && strncmp(host + n - (size_t)len, suffix, (size_t)len) == 0;
}

/* --no-parent, which -D and --scope any leave out */
static bool truth_under_parent(struct truth *t, const char *url) {
  if (!t->no_parent || t->scope == 2 || t->domains)
    return true;
  for (int i = 0; i < t->parent_dir_count; i++)
    if (strncmp(url, t->parent_dirs[i], strlen(t->parent_dirs[i])) == 0)
      return true;
  return false;
}

static void truth_add(struct truth *t, const char *url, int depth);

/* With --sitemaps, a host's sitemaps are read when its first URL is queued for fetching: their
 * orphan pages are seeds (depth 0). */
static void truth_host_queued(struct truth *t, const char *url, int depth) {
  size_t plen = strlen(url);
  bool skipped =
      plen > 4 && (strcmp(url + plen - 4, ".pdf") == 0 || strcmp(url + plen - 4, ".png") == 0);
  if (!t->sitemaps || skipped || depth > t->depth)
    return;
  char name[160];
  snprintf(name, sizeof(name), "%.*s", (int)strcspn(url + 7, ":/"), url + 7);
  bool outside;
  int hi = web_host_index(t->web, name, &outside);
  if (hi < 0 || outside || t->host_queued[hi])
    return;
  t->host_queued[hi] = true;
  /* without robots.txt the crawler knows only /sitemap.xml, which lists the second half */
  for (int i = t->robots ? 0 : WEB_ORPHANS / 2; i < WEB_ORPHANS; i++) {
    char orphan[300];
    snprintf(orphan, sizeof(orphan), "http://%s:%d/orphan/%d.html", name, t->web->port, i);
    truth_add(t, orphan, 0);
  }
}

static void truth_add(struct truth *t, const char *url, int depth) {
  if (!url[0] || !truth_takes(t, url) || !truth_filters_pass(t, url))
    return;
  bool outside = !truth_host_in_scope(t, url);
  if ((outside && !t->outside) || (!outside && !truth_under_parent(t, url)))
    return;
  if (2 * (t->count + 1) > t->slot_count) {
    size_t n = t->slot_count ? t->slot_count * 2 : 4096;
    size_t *slots = calloc(n, sizeof(*slots));
    if (!slots)
      web_die("calloc");
    for (size_t i = 0; i < t->count; i++) {
      size_t j = web_hash_str(t->urls[i].url) % n;
      while (slots[j])
        j = (j + 1) % n;
      slots[j] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_count = n;
  }
  size_t j = web_hash_str(url) % t->slot_count;
  for (; t->slots[j]; j = (j + 1) % t->slot_count) {
    struct truth_url *known = &t->urls[t->slots[j] - 1];
    if (strcmp(known->url, url) == 0) {
      /* a redirect target, found before as a link one level deeper, has the redirect's depth */
      if (!known->fate && depth < known->depth) {
        known->depth = depth;
        t->lowered++;
      }
      return;
    }
  }
  t->slots[j] = t->count + 1;
  if (t->count == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 1024;
    t->urls = realloc(t->urls, t->cap * sizeof(*t->urls));
    if (!t->urls)
      web_die("realloc");
  }
  /* out of scope: recorded where first found, never fetched */
  t->urls[t->count++] = (struct truth_url){strdup(url), depth, outside ? "outside" : NULL};
  if (!outside)
    truth_host_queued(t, url, depth);
}

/* Visits urls[i]: its fate, and the URLs it leads to. */
static void truth_visit(struct truth *t, size_t i) {
  struct web *w = t->web;
  struct truth_url *u = &t->urls[i];
  const char *host = u->url + 7;
  char name[160];
  snprintf(name, sizeof(name), "%.*s", (int)strcspn(host, ":/"), host);
  const char *path = strchr(host, '/');
  bool outside;
  int hi = web_host_index(w, name, &outside);
  int page;
  char tail[8];
  size_t plen = strlen(path);
  if ((plen > 4 && strcmp(path + plen - 4, ".pdf") == 0) ||
      (plen > 4 && strcmp(path + plen - 4, ".png") == 0)) {
    u->fate = "skipped";
    return;
  }
  if (u->depth > t->depth) {
    u->fate = "depth";
    return;
  }
  if (t->robots && !outside && strncmp(path, "/private/", 9) == 0) {
    u->fate = "robots";
    return;
  }
  if (outside || hi < 0) {
    u->fate = outside ? "fetched" : "failed";
    return;
  }
  if (sscanf(path, "/orphan/%d.htm%1[l]", &page, tail) == 2 && page >= 0 && page < WEB_ORPHANS) {
    u->fate = "fetched";
    return;
  }
  if (strcmp(path, "/") == 0 ||
      (sscanf(path, "/p/%d.htm%1[l]", &page, tail) == 2 && page > 0 && page < w->pages)) {
    if (strcmp(path, "/") == 0)
      page = 0;
    u->fate = "fetched";
    int d = u->depth + 1;
    char url[300];
    if (!w->html_only) { /* the page's style sheet link, to an image */
      snprintf(url, sizeof(url), "http://s%d.%s:%d/img/%d.png", hi, w->domain, w->port, page);
      truth_add(t, url, d);
    }
    int count = web_link_count(w, hi, page);
    for (int k = 0; k < count; k++) {
      struct web_link l;
      web_link_at(w, hi, page, k, &l);
      web_link_url(w, &l, url, sizeof(url));
      truth_add(t, url, d);
    }
    return;
  }
  if (sscanf(path, "/r/%d", &page) == 1 && page >= 0 && page < w->pages) {
    u->fate = "fetched";
    char target[64], url[300];
    web_page_path(page, target, sizeof(target));
    snprintf(url, sizeof(url), "http://%s:%d%s", name, w->port, target);
    int d = u->depth; /* a redirect target keeps the depth of the URL that redirected */
    truth_add(t, url, d);
    return;
  }
  u->fate = strncmp(path, "/private/", 9) == 0 ? "fetched" : "failed";
}

int truth_run(struct web *w, struct truth *filters, char **seeds, int seed_count) {
  struct truth t = *filters;
  t.web = w;
  int scope = t.scope;
  for (int i = 0; i < seed_count && i < 16; i++) {
    char *dir = t.parent_dirs[t.parent_dir_count++];
    snprintf(dir, sizeof(t.parent_dirs[0]), "%s", seeds[i]);
    char *path = strchr(dir + 7, '/');
    char *last = path ? strrchr(path, '/') : NULL;
    if (last)
      last[1] = '\0';
  }
  t.host_queued = calloc((size_t)w->hosts, sizeof(bool));
  if (!t.host_queued)
    web_die("calloc");
  const char *h = seeds[0] + 7;
  snprintf(t.seed_host, sizeof(t.seed_host), "%.*s", (int)strcspn(h, ":/"), h);
  for (int i = 0; i < seed_count; i++) {
    t.scope = 2; /* seeds are always in scope */
    truth_add(&t, seeds[i], 0);
    t.scope = scope;
  }
  /* breadth first, as the crawler goes: the shallowest level left, in the order its URLs were
   * found (a redirect target joins the level of the URL that redirected; sitemap seeds found
   * late bring level 0 back), so every URL has its smallest depth */
  for (;;) {
    int level = INT_MAX;
    for (size_t i = 0; i < t.count; i++)
      if (!t.urls[i].fate && t.urls[i].depth < level)
        level = t.urls[i].depth;
    if (level == INT_MAX)
      break;
    for (size_t i = 0; i < t.count; i++) /* t.count grows as the level adds to itself */
      if (!t.urls[i].fate && t.urls[i].depth == level)
        truth_visit(&t, i);
  }

  if (t.lowered)
    fprintf(stderr, "testweb: %zu redirect targets were found as links one level deeper first\n",
            t.lowered);
  for (size_t i = 0; i < t.count; i++) {
    printf("%s %s %d\n", t.urls[i].url, t.urls[i].fate, t.urls[i].depth);
    free(t.urls[i].url);
  }
  free(t.urls);
  free(t.slots);
  free(t.host_queued);
  return 0;
}
