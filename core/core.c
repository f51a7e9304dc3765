/* Result codes, the clock, bounded buffers and comma lists. */
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *core_rc_str(core_rc rc) {
  switch (rc) {
    case CORE_OK:
      return "success";
    case CORE_ENOMEM:
      return "out of memory";
    case CORE_EINVAL:
      return "invalid argument";
    case CORE_EURL:
      return "not a usable http or https URL";
    case CORE_ETOOLONG:
      return "too long";
    case CORE_ESYS:
      return "system error";
    case CORE_EFORMAT:
      return "malformed data";
    case CORE_EDNS:
      return "name resolution failed";
    case CORE_ENOTFOUND:
      return "not found";
  }
  return "unknown error";
}

int core_hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

double core_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double core_wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void core_buf_init(struct core_buf *buf, size_t max) {
  buf->data = NULL;
  buf->len = 0;
  buf->cap = 0;
  buf->max = max;
}

core_rc core_buf_add(struct core_buf *buf, const void *data, size_t len) {
  if (len > buf->max - buf->len)
    return CORE_ETOOLONG;
  if (buf->len + len + 1 > buf->cap) {
    size_t cap = buf->cap ? buf->cap : 64;
    while (cap < buf->len + len + 1)
      cap *= 2;
    if (cap - 1 > buf->max) /* not cap > max + 1: max may be SIZE_MAX, for no cap */
      cap = buf->max + 1;
    char *grown = realloc(buf->data, cap);
    if (!grown)
      return CORE_ENOMEM;
    buf->data = grown;
    buf->cap = cap;
  }
  if (len)
    memcpy(buf->data + buf->len, data, len);
  buf->len += len;
  buf->data[buf->len] = '\0';
  return CORE_OK;
}

bool core_array_room(void **items, size_t *cap, size_t count, size_t size, size_t min) {
  if (count < *cap)
    return true;
  if (*cap > SIZE_MAX / 2 / size || min > SIZE_MAX / size)
    return false; /* doubled, it would not fit a size_t's bytes */
  size_t want = *cap ? *cap * 2 : min;
  void *grown = realloc(*items, want * size);
  if (!grown)
    return false;
  *items = grown;
  *cap = want;
  return true;
}

/* Moves the value at root down the max-heap of the first n values until no child is larger. */
static void sift_down(uint64_t *values, size_t root, size_t n) {
  uint64_t value = values[root];
  for (size_t child; (child = 2 * root + 1) < n; root = child) {
    if (child + 1 < n && values[child + 1] > values[child])
      child++;
    if (values[child] <= value)
      break;
    values[root] = values[child];
  }
  values[root] = value;
}

/* Insertion for a few values; heapsort past them, which no order of the input makes slower (the
 * hashes sorted here come from a page's author). */
void core_sort_u64(uint64_t *values, size_t n) {
  if (n <= 16) {
    for (size_t i = 1; i < n; i++) {
      uint64_t value = values[i];
      size_t j = i;
      for (; j && values[j - 1] > value; j--)
        values[j] = values[j - 1];
      values[j] = value;
    }
    return;
  }
  for (size_t root = n / 2; root-- > 0;)
    sift_down(values, root, n);
  for (size_t end = n - 1; end > 0; end--) {
    uint64_t largest = values[0];
    values[0] = values[end];
    values[end] = largest;
    sift_down(values, 0, end);
  }
}

core_rc core_buf_reserve(struct core_buf *buf, size_t size) {
  if (size <= buf->cap)
    return CORE_OK;
  if (size - 1 > buf->max)
    return CORE_ETOOLONG;
  char *grown = realloc(buf->data, size);
  if (!grown)
    return CORE_ENOMEM;
  if (!buf->data)
    grown[0] = '\0';
  buf->data = grown;
  buf->cap = size;
  return CORE_OK;
}

void core_buf_shrink(struct core_buf *buf) {
  if (!buf->data || buf->len + 1 >= buf->cap)
    return;
  char *shrunk = realloc(buf->data, buf->len + 1);
  if (shrunk) { /* else it keeps its room: nothing is lost */
    buf->data = shrunk;
    buf->cap = buf->len + 1;
  }
}

core_rc core_buf_addc(struct core_buf *buf, char c) {
  return core_buf_add(buf, &c, 1);
}

void core_buf_reset(struct core_buf *buf) {
  buf->len = 0;
  if (buf->data)
    buf->data[0] = '\0';
}

void core_buf_cut(struct core_buf *buf, size_t len) {
  if (len >= buf->len)
    return;
  buf->len = len;
  buf->data[len] = '\0';
}

void core_buf_free(struct core_buf *buf) {
  free(buf->data);
  core_buf_init(buf, buf->max);
}

size_t core_utf8_char(const unsigned char *s, size_t n) {
  if (!n)
    return 0;
  unsigned char c = s[0];
  if (c < 0x80)
    return 1;
  size_t len = c >= 0xf0 && c < 0xf5   ? 4
               : c >= 0xe0 && c < 0xf0 ? 3
               : c >= 0xc2 && c < 0xe0 ? 2
                                       : 0;
  if (!len || n < 2 || (s[1] & 0xc0) != 0x80)
    return 0;
  /* RFC 3629's table: E0 A0-BF, ED 80-9F, F0 90-BF, F4 80-8F */
  if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
      (c == 0xf4 && s[1] > 0x8f))
    return 0;
  for (size_t i = 2; i < len; i++)
    if (i >= n || (s[i] & 0xc0) != 0x80)
      return 0;
  return len;
}

core_rc core_strs_push(char ***list, size_t *count, const char *s) {
  char **grown = realloc(*list, (*count + 1) * sizeof(*grown));
  if (!grown)
    return CORE_ENOMEM;
  *list = grown;
  if (!(grown[*count] = strdup(s)))
    return CORE_ENOMEM;
  (*count)++;
  return CORE_OK;
}

void core_strs_free(char **list, size_t count) {
  for (size_t i = 0; i < count; i++)
    free(list[i]);
  free(list);
}

core_rc core_list_add(struct core_list *list, const char *item) {
  core_rc rc = core_strs_push(&list->items, &list->count, item);
  if (rc != CORE_OK)
    return rc;
  for (char *p = list->items[list->count - 1]; *p; p++)
    *p = (char)tolower((unsigned char)*p);
  return CORE_OK;
}

core_rc core_list_parse(const char *comma_list, struct core_list *out) {
  const char *p = comma_list;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    while (len && isspace((unsigned char)*p)) {
      p++;
      len--;
    }
    while (len && isspace((unsigned char)p[len - 1]))
      len--;
    /* ".pdf" and "pdf" mean the same extension; "a.com" and ".a.com" the same suffix */
    if (len && *p == '.') {
      p++;
      len--;
    }
    if (len) {
      char *item = strndup(p, len);
      if (!item)
        return CORE_ENOMEM;
      core_rc rc = core_list_add(out, item);
      free(item);
      if (rc)
        return rc;
    }
    if (!end)
      break;
    p = end + 1;
  }
  return CORE_OK;
}

bool core_list_has(const struct core_list *list, const char *item) {
  /* the items are lowercase: one whose first letter differs is passed over without a call (the
   * --skip-ext list, some 70 extensions, is asked about every URL found new) */
  char first = (char)tolower((unsigned char)item[0]);
  for (size_t i = 0; i < list->count; i++)
    if (list->items[i][0] == first && strcasecmp(list->items[i], item) == 0)
      return true;
  return false;
}

bool core_list_has_ext(const struct core_list *list, const char *exts) {
  for (const char *p = exts; p; p = strchr(p, '.'), p = p ? p + 1 : NULL)
    if (*p && core_list_has(list, p))
      return true;
  return false;
}

void core_list_remove(struct core_list *list, const char *item) {
  size_t kept = 0;
  for (size_t i = 0; i < list->count; i++) {
    if (strcasecmp(list->items[i], item) == 0)
      free(list->items[i]);
    else
      list->items[kept++] = list->items[i];
  }
  list->count = kept;
}

bool core_list_host_match(const struct core_list *suffixes, const char *host) {
  size_t host_len = strlen(host);
  for (size_t i = 0; i < suffixes->count; i++) {
    const char *s = suffixes->items[i];
    size_t len = strlen(s);
    if (host_len == len && strcasecmp(host, s) == 0)
      return true;
    if (host_len > len && host[host_len - len - 1] == '.' &&
        strcasecmp(host + host_len - len, s) == 0)
      return true;
  }
  return false;
}

void core_list_free(struct core_list *list) {
  core_strs_free(list->items, list->count);
  list->items = NULL;
  list->count = 0;
}

const char *core_temp_dir(void) {
  const char *dir = getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

static core_rc positioned_io(int fd, bool writing, char *p, size_t len, uint64_t at) {
  while (len) {
    ssize_t n = writing ? pwrite(fd, p, len, (off_t)at) : pread(fd, p, len, (off_t)at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = writing ? ENOSPC : EIO;
      return CORE_ESYS;
    }
    p += n;
    len -= (size_t)n;
    at += (uint64_t)n;
  }
  return CORE_OK;
}

core_rc core_write_at(int fd, const void *data, size_t len, uint64_t at) {
  return positioned_io(fd, true, (char *)data, len, at); /* pwrite only reads it */
}

core_rc core_read_at(int fd, void *data, size_t len, uint64_t at) {
  return positioned_io(fd, false, data, len, at);
}

int core_temp_fd(const char *name) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/crawl-%s-XXXXXX", core_temp_dir(), name);
  int fd = mkstemp(path);
  if (fd >= 0)
    unlink(path); /* nothing is left behind, whatever way the crawl ends */
  return fd;
}

int core_create_private(const char *name) {
  int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = open(name, flags, 0600);
  /* unlink removes a planted link itself, not its target */
  if (fd < 0 && errno == EEXIST && unlink(name) == 0)
    fd = open(name, flags, 0600);
  return fd;
}

FILE *core_open_read(const char *path) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f && fd >= 0) {
    int saved = errno;
    close(fd);
    errno = saved;
  }
  return f;
}

ssize_t core_read_line(FILE *f, char *line, size_t max, size_t *left) {
  size_t len = 0;
  int ch = EOF;
  while ((!left || *left > 0) && (ch = getc_unlocked(f)) != EOF) {
    if (left)
      (*left)--;
    if (ch == '\n')
      break;
    if (len == max) {
      ungetc(ch, f); /* the rest of the line unread, this byte too */
      if (left)
        (*left)++;
      line[len] = '\0';
      return (ssize_t)max + 1;
    }
    line[len++] = (char)ch;
  }
  line[len] = '\0';
  if (ch == EOF && len == 0)
    return -1;
  return ch == '\n' || ch == EOF ? (ssize_t)len : (ssize_t)max + 1; /* else cut by *left */
}

const char *core_open_error(int err) {
  return err == ELOOP ? "it is a symbolic link, which crawl does not follow" : strerror(err);
}

const char *core_dir_unsafe(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0)
    return NULL; /* said by whatever opens it next */
  if (!S_ISDIR(st.st_mode))
    return "not a directory"; /* --state /dev/null: its mode is no directory's to judge */
  /* a group of the user's own (Debian's user private groups, umask 002) is no one else */
  bool group_others = (st.st_mode & S_IWGRP) && st.st_gid != getegid();
  if ((st.st_mode & S_IWOTH) || group_others)
    return "others may write to it, and so plant links in it: make it private (chmod 700) or "
           "give another directory";
  return NULL;
}

FILE *core_file_begin(const char *path, char **tmp) {
  if (asprintf(tmp, "%s.tmp", path) < 0) {
    *tmp = NULL;
    errno = ENOMEM;
    return NULL;
  }
  int fd = core_create_private(*tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    int saved = errno;
    if (fd >= 0) {
      close(fd);
      unlink(*tmp);
    }
    free(*tmp);
    *tmp = NULL;
    errno = saved;
  }
  return f;
}

core_rc core_file_commit(FILE *f, char *tmp, const char *path) {
  /* errno stays the first failure's: a failed write is why, not the close after it */
  bool ok = fflush(f) == 0 && !ferror(f) && (!tmp || fsync(fileno(f)) == 0);
  int saved = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && tmp && rename(tmp, path) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok && tmp)
    unlink(tmp);
  free(tmp);
  errno = saved;
  return ok ? CORE_OK : CORE_ESYS;
}
