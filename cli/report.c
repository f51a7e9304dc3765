/* --report FILE: the broken links as a Markdown page a person reads or a CI posts
 * (doc/behaviour.md, The report). The engine hands over each failed URL's record with the pages
 * that link to it (from any shard's thread); at the end they are written grouped by page, pages in
 * the order their first broken link came, which is the order the crawl settled them. */
#include "cli/cli-int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define REPORT_LINKS_MAX 100000 /* broken links kept; past them the report counts the rest */

struct broken {
  char *url;
  char *why;      /* "HTTP 404", or "dns: Could not resolve host" */
  size_t pages;   /* referrers listed (up to CRAWL_REFERRERS_SHOWN) */
  uint64_t count; /* referrers in all */
};

/* One listing of a broken link under a page. */
struct mention {
  size_t page;   /* index into pages */
  size_t broken; /* index into links */
};

struct cli_report {
  pthread_mutex_t lock;
  char *path; /* NULL: standard output */
  int fd;
  struct broken *links;
  size_t count, cap;
  uint64_t left_out; /* past REPORT_LINKS_MAX */
  char **pages;      /* the referring pages, in the order first met; "" for seeds */
  size_t page_count, page_cap;
  size_t *slots; /* pages by hash: index + 1, 0 for none; twice as many slots as pages at least */
  size_t slot_count;
  struct mention *mentions;
  size_t mention_count, mention_cap;
  bool out_of_memory;
};

core_rc cli_report_create(const char *path, cli_report **out, char *err, size_t err_size) {
  cli_report *r = calloc(1, sizeof(*r));
  if (!r || pthread_mutex_init(&r->lock, NULL) != 0) {
    free(r);
    return CORE_ENOMEM;
  }
  r->fd = STDOUT_FILENO;
  if (strcmp(path, "-") != 0) {
    /* made now: a report that cannot be written is said before the crawl, not after it */
    r->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    r->path = r->fd >= 0 ? strdup(path) : NULL;
    if (r->fd < 0 || !r->path) {
      cli_set_err(err, err_size, "cannot write --report '%s': %s", path,
                  r->fd < 0 ? strerror(errno) : "out of memory");
      core_rc rc = r->fd < 0 ? CORE_ESYS : CORE_ENOMEM;
      if (r->fd >= 0)
        close(r->fd);
      pthread_mutex_destroy(&r->lock);
      free(r);
      return rc;
    }
  }
  *out = r;
  return CORE_OK;
}

static size_t *slot_of(size_t *slots, size_t slot_count, char **pages, const char *page) {
  size_t i = (size_t)XXH3_64bits(page, strlen(page)) & (slot_count - 1);
  while (slots[i] && strcmp(pages[slots[i] - 1], page) != 0)
    i = (i + 1) & (slot_count - 1);
  return &slots[i];
}

/* The index of page in pages, added when new. */
static bool page_index(cli_report *r, const char *page, size_t *at) {
  if (2 * (r->page_count + 1) > r->slot_count) { /* the table doubles, pages placed anew */
    size_t count = r->slot_count ? r->slot_count * 2 : 256;
    size_t *slots = calloc(count, sizeof(*slots));
    if (!slots)
      return false;
    for (size_t i = 0; i < r->page_count; i++)
      *slot_of(slots, count, r->pages, r->pages[i]) = i + 1;
    free(r->slots);
    r->slots = slots;
    r->slot_count = count;
  }
  size_t *slot = slot_of(r->slots, r->slot_count, r->pages, page);
  if (*slot) {
    *at = *slot - 1;
    return true;
  }
  char *copy = strdup(page);
  if (!copy ||
      !core_array_room((void **)&r->pages, &r->page_cap, r->page_count, sizeof(*r->pages), 64)) {
    free(copy);
    return false;
  }
  r->pages[r->page_count] = copy;
  *slot = r->page_count + 1;
  *at = r->page_count++;
  return true;
}

static bool mention(cli_report *r, const char *page, size_t broken) {
  size_t at;
  if (!page_index(r, page, &at) || !core_array_room((void **)&r->mentions, &r->mention_cap,
                                                    r->mention_count, sizeof(*r->mentions), 64))
    return false;
  r->mentions[r->mention_count++] = (struct mention){at, broken};
  return true;
}

static core_rc add_locked(cli_report *r, const struct crawl_record *rec) {
  if (r->count >= REPORT_LINKS_MAX) {
    r->left_out++;
    return CORE_OK;
  }
  if (!core_array_room((void **)&r->links, &r->cap, r->count, sizeof(*r->links), 64))
    return CORE_ENOMEM;
  struct broken *b = &r->links[r->count];
  memset(b, 0, sizeof(*b));
  int n = rec->status  ? asprintf(&b->why, "HTTP %ld", rec->status)
          : rec->error ? asprintf(&b->why, "%s: %s", crawl_cause_name(rec->cause), rec->error)
                       : asprintf(&b->why, "%s", crawl_cause_name(rec->cause));
  b->url = n >= 0 ? strdup(rec->url) : NULL;
  if (n < 0 || !b->url) {
    if (n >= 0)
      free(b->why);
    return CORE_ENOMEM;
  }
  b->pages = rec->linked_known ? rec->linked_from_n : 0;
  b->count = rec->linked_known ? rec->linked_count : 0;
  r->count++;
  bool ok = true;
  if (!b->pages) /* a seed, or a URL whose pages are not known: under its first page */
    ok = mention(r, rec->from ? rec->from : "", r->count - 1);
  for (size_t i = 0; ok && i < b->pages; i++)
    ok = mention(r, rec->linked_from[i], r->count - 1);
  return ok ? CORE_OK : CORE_ENOMEM;
}

core_rc cli_report_add(cli_report *r, const struct crawl_record *rec) {
  pthread_mutex_lock(&r->lock);
  core_rc rc = add_locked(r, rec);
  if (rc)
    r->out_of_memory = true;
  pthread_mutex_unlock(&r->lock);
  return rc;
}

/* A URL as Markdown code: backticks around it, two when it holds one. */
static void put_code(FILE *f, const char *url) {
  if (strchr(url, '`'))
    fprintf(f, "`` %s ``", url);
  else
    fprintf(f, "`%s`", url);
}

static int by_page(const void *a, const void *b) {
  const struct mention *x = a, *y = b;
  return x->page != y->page ? (x->page < y->page ? -1 : 1)
                            : (x->broken < y->broken ? -1 : x->broken > y->broken);
}

core_rc cli_report_write(cli_report *r, const struct crawl_stats *stats, bool interrupted) {
  pthread_mutex_lock(&r->lock);
  qsort(r->mentions, r->mention_count, sizeof(*r->mentions), by_page);
  int fd = dup(r->fd);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    if (fd >= 0)
      close(fd);
    pthread_mutex_unlock(&r->lock);
    return CORE_ESYS;
  }
  uint64_t broken = r->count + r->left_out;
  size_t pages = 0;
  for (size_t i = 0; i < r->mention_count; i++)
    pages += i == 0 || r->mentions[i].page != r->mentions[i - 1].page;
  char when[32] = "";
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm))
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
  fprintf(f, "# Broken links\n\n");
  fprintf(f, "%llu broken link%s on %zu page%s%s (crawl %s, %s)\n\n", (unsigned long long)broken,
          broken == 1 ? "" : "s", pages, pages == 1 ? "" : "s",
          interrupted ? ", from a crawl stopped before its end" : "", CRAWL_VERSION, when);
  fprintf(f, "| | |\n|---|---:|\n| pages fetched | %llu |\n| URLs discovered | %llu |\n",
          (unsigned long long)stats->pages, (unsigned long long)stats->discovered);
  fprintf(f, "| broken links | %llu |\n| pages holding them | %zu |\n", (unsigned long long)broken,
          pages);
  for (int i = 0; i < CRAWL_CAUSE_COUNT; i++)
    if (stats->failures[i])
      fprintf(f, "| broken: %s | %llu |\n", crawl_cause_name((crawl_cause)i),
              (unsigned long long)stats->failures[i]);
  for (size_t i = 0; i < r->mention_count; i++) {
    const struct mention *m = &r->mentions[i];
    if (i == 0 || m->page != r->mentions[i - 1].page) {
      const char *page = r->pages[m->page];
      fputs("\n## ", f);
      if (*page)
        put_code(f, page);
      else
        fputs("Seeds", f);
      fputs("\n\n", f);
    }
    const struct broken *b = &r->links[m->broken];
    fputs("- ", f);
    put_code(f, b->url);
    fprintf(f, ": %s", b->why);
    if (b->count > b->pages && b->pages)
      fprintf(f, " (linked from %llu pages; %zu listed here)", (unsigned long long)b->count,
              b->pages);
    fputc('\n', f);
  }
  if (r->left_out)
    fprintf(f, "\n%llu more broken links are not listed: the first %d are (--jsonl has all)\n",
            (unsigned long long)r->left_out, REPORT_LINKS_MAX);
  bool ok = !ferror(f);
  ok = fclose(f) == 0 && ok;
  pthread_mutex_unlock(&r->lock);
  return ok ? CORE_OK : CORE_ESYS;
}

const char *cli_report_name(const cli_report *r) {
  return r->path ? r->path : "standard output";
}

void cli_report_destroy(cli_report *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->count; i++) {
    free(r->links[i].url);
    free(r->links[i].why);
  }
  for (size_t i = 0; i < r->page_count; i++)
    free(r->pages[i]);
  free(r->links);
  free(r->pages);
  free(r->slots);
  free(r->mentions);
  if (r->path)
    close(r->fd);
  free(r->path);
  pthread_mutex_destroy(&r->lock);
  free(r);
}
