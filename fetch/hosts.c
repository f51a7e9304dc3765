/* The hosts file, read into a table, and again only when it changed (doc/design.md, "The hosts
 * file"). c-ares 1.18 opens and parses the whole file again at every lookup; with the blocklists
 * some users keep there (a hundred thousand lines and more) each new host of a broad crawl cost a
 * parse of megabytes. The table answers as c-ares answered and the engine took it: a name, in any
 * case, as a line's first name or an alias, has the first IPv4 address of the lines that name it,
 * or else their first IPv6 address. Lines go as c-ares reads them: "#" starts a comment, an address
 * that is neither IPv4 nor IPv6 leaves its line out. Two bounds c-ares did not keep, so that a file
 * that never ends (a device, a pipe) cannot take all memory: a line longer than HOSTS_LINE_MAX is
 * left out whole, and nothing past the first HOSTS_FILE_MAX bytes is read. */
#include "fetch/fetch.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Far above any line a name service reads (a name is 253 bytes at most, a line holds one address
 * and its names) and any blocklist kept there (the largest are tens of megabytes). */
enum { HOSTS_LINE_MAX = 64 * 1024 };
#define HOSTS_FILE_MAX ((size_t)256 * 1024 * 1024)

struct hosts_slot {
  uint32_t name;   /* offsets into text; 0: a free slot (name) or no such address (v4, v6) */
  uint32_t v4, v6; /* addresses as inet_ntop writes them */
};

struct hosts_table {
  char *text; /* every name (lower case) and address, each ended by a NUL; offset 0 unused */
  size_t len, cap;
  struct hosts_slot *slots; /* open addressing, linear probing, at most half full */
  size_t mask;              /* the slot count less one (a power of two) */
  size_t count;
  uint32_t last_addr; /* the address stored last: lines of a blocklist share one */
};

static bool is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

static char lower(char ch) {
  return ch >= 'A' && ch <= 'Z' ? (char)(ch + 32) : ch;
}

/* text's offset of a copy of s, or 0 when memory runs out or text would pass 4 GB */
static uint32_t store(struct hosts_table *h, const char *s) {
  size_t n = strlen(s) + 1;
  if (h->len + n > UINT32_MAX)
    return 0;
  if (h->len + n > h->cap) {
    size_t cap = h->cap * 2 >= h->len + n ? h->cap * 2 : h->len + n;
    char *grown = realloc(h->text, cap);
    if (!grown)
      return 0;
    h->text = grown;
    h->cap = cap;
  }
  memcpy(h->text + h->len, s, n);
  uint32_t at = (uint32_t)h->len;
  h->len += n;
  return at;
}

/* name's slot, or the free one where it would go; name in any case (FNV-1a of its lower case) */
static struct hosts_slot *slot_of(const struct hosts_table *h, const char *name) {
  uint64_t hash = 14695981039346656037u;
  for (const char *p = name; *p; p++)
    hash = (hash ^ (unsigned char)lower(*p)) * 1099511628211u;
  size_t i = (size_t)(hash ^ hash >> 32) & h->mask; /* FNV's low bits alone mix poorly */
  while (h->slots[i].name && strcasecmp(h->text + h->slots[i].name, name) != 0)
    i = (i + 1) & h->mask;
  return &h->slots[i];
}

static bool grow(struct hosts_table *h) {
  size_t count = (h->mask + 1) * 2;
  struct hosts_slot *old = h->slots;
  size_t old_count = h->mask + 1;
  if (!(h->slots = calloc(count, sizeof(*h->slots)))) {
    h->slots = old;
    return false;
  }
  h->mask = count - 1;
  for (size_t i = 0; i < old_count; i++)
    if (old[i].name)
      *slot_of(h, h->text + old[i].name) = old[i];
  free(old);
  return true;
}

/* Adds one line's names; CORE_ENOMEM when memory runs out. */
static core_rc add_line(struct hosts_table *h, char *line) {
  char *p = strchr(line, '#');
  if (p)
    *p = '\0';
  for (p = line; is_space(*p); p++)
    ;
  const char *addr = p;
  while (*p && !is_space(*p))
    p++;
  if (!*p)
    return CORE_OK; /* empty, or an address with no name */
  *p++ = '\0';
  unsigned char bin[16];
  char text[INET6_ADDRSTRLEN];
  int family = inet_pton(AF_INET, addr, bin) == 1    ? AF_INET
               : inet_pton(AF_INET6, addr, bin) == 1 ? AF_INET6
                                                     : 0;
  if (!family || !inet_ntop(family, bin, text, sizeof(text)))
    return CORE_OK;
  for (;;) {
    while (is_space(*p))
      p++;
    if (!*p)
      return CORE_OK;
    char *name = p;
    for (; *p && !is_space(*p); p++)
      *p = lower(*p);
    if (*p)
      *p++ = '\0';
    if ((h->count + 1) * 2 > h->mask + 1 && !grow(h))
      return CORE_ENOMEM;
    struct hosts_slot *s = slot_of(h, name);
    if (!s->name) {
      if (!(s->name = store(h, name)))
        return CORE_ENOMEM;
      h->count++;
    }
    uint32_t *want = family == AF_INET ? &s->v4 : &s->v6;
    if (*want)
      continue; /* an earlier line's address wins */
    if (!h->last_addr || strcmp(h->text + h->last_addr, text) != 0)
      if (!(h->last_addr = store(h, text)))
        return CORE_ENOMEM;
    *want = h->last_addr;
  }
}

static void table_destroy(struct hosts_table *h) {
  if (!h)
    return;
  free(h->text);
  free(h->slots);
  free(h);
}

/* The table of the file at path as it is now (empty when it is missing or cannot be read). */
static core_rc table_read(const char *path, struct hosts_table **out) {
  struct hosts_table *h = calloc(1, sizeof(*h));
  if (!h || !(h->slots = calloc(64, sizeof(*h->slots))) || !(h->text = malloc(256))) {
    table_destroy(h);
    return CORE_ENOMEM;
  }
  h->mask = 63;
  h->cap = 256;
  h->text[0] = '\0';
  h->len = 1;
  core_rc rc = CORE_OK;
  /* one that cannot be read is passed over, as c-ares passes over it (and asks DNS) */
  FILE *f = fopen(path, "re");
  if (f) {
    char *line = malloc(HOSTS_LINE_MAX + 1);
    size_t left = HOSTS_FILE_MAX;
    ssize_t len;
    if (!line)
      rc = CORE_ENOMEM;
    while (rc == CORE_OK && (len = core_read_line(f, line, HOSTS_LINE_MAX, &left)) >= 0) {
      if (len <= HOSTS_LINE_MAX) {
        rc = add_line(h, line);
        continue;
      }
      while (len > HOSTS_LINE_MAX) /* the rest of a long line, dropped a piece at a time */
        len = core_read_line(f, line, HOSTS_LINE_MAX, &left);
    }
    free(line);
    fclose(f);
  }
  if (rc != CORE_OK) {
    table_destroy(h);
    return rc;
  }
  *out = h;
  return CORE_OK;
}

static const char *table_find(const struct hosts_table *h, const char *name) {
  const struct hosts_slot *s = slot_of(h, name);
  if (!s->name)
    return NULL;
  return h->text + (s->v4 ? s->v4 : s->v6);
}

/* What says the file changed: a new file put in its place, or the same written again. */
struct file_id {
  bool exists;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
};

static struct file_id file_id_of(const char *path) {
  struct stat st;
  struct file_id id = {0};
  if (stat(path, &st) == 0)
    id = (struct file_id){true, st.st_dev, st.st_ino, st.st_size, st.st_mtim};
  return id;
}

static bool same_file(const struct file_id *a, const struct file_id *b) {
  return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
         a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec;
}

struct fetch_hosts {
  char *path;
  pthread_mutex_t lock; /* the shards' engines ask from their threads */
  struct hosts_table *table;
  struct file_id id; /* of the file the table was read from */
};

core_rc fetch_hosts_load(const char *path, fetch_hosts **out) {
  fetch_hosts *hosts = calloc(1, sizeof(*hosts));
  if (!hosts)
    return CORE_ENOMEM;
  if (pthread_mutex_init(&hosts->lock, NULL) != 0) {
    free(hosts);
    return CORE_ENOMEM;
  }
  hosts->id = file_id_of(path); /* before the read: a change while it reads is read again */
  core_rc rc = (hosts->path = strdup(path)) ? table_read(path, &hosts->table) : CORE_ENOMEM;
  if (rc != CORE_OK) {
    fetch_hosts_destroy(hosts);
    return rc;
  }
  *out = hosts;
  return CORE_OK;
}

bool fetch_hosts_find(fetch_hosts *hosts, const char *name, char addr[INET6_ADDRSTRLEN]) {
  /* read again when it changed, as c-ares and the C library read it at every lookup. The file is
   * looked at and read outside the lock, so that another shard's lookups go on meanwhile (a file
   * of a blocklist's 100,000 lines takes tens of milliseconds); when memory runs out the table
   * read last still answers, and the next lookup tries again */
  struct file_id now = file_id_of(hosts->path);
  struct hosts_table *fresh = NULL; /* left as it is when the read fails */
  pthread_mutex_lock(&hosts->lock);
  if (!same_file(&now, &hosts->id)) {
    pthread_mutex_unlock(&hosts->lock);
    table_read(hosts->path, &fresh);
    pthread_mutex_lock(&hosts->lock);
    /* another lookup may have put in the same file's table meanwhile; should two changes cross,
     * the older table answers until the next lookup sees the file differ from it */
    if (fresh && !same_file(&now, &hosts->id)) {
      struct hosts_table *old = hosts->table;
      hosts->table = fresh;
      hosts->id = now;
      fresh = old;
    }
  }
  const char *found = table_find(hosts->table, name);
  if (found)
    snprintf(addr, INET6_ADDRSTRLEN, "%s", found);
  pthread_mutex_unlock(&hosts->lock);
  table_destroy(fresh); /* the one put out, or a read not needed */
  return found != NULL;
}

void fetch_hosts_destroy(fetch_hosts *hosts) {
  if (!hosts)
    return;
  table_destroy(hosts->table);
  free(hosts->path);
  pthread_mutex_destroy(&hosts->lock);
  free(hosts);
}
