/* core: result codes, bounded buffers, the clock, UTF-8, comma lists, temporary and private files.
 * What every module below the engine may use; nothing here runs an event loop. */
#ifndef CRAWL_CORE_H
#define CRAWL_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef enum {
  CORE_OK = 0,
  CORE_ENOMEM,   /* an allocation failed */
  CORE_EINVAL,   /* an argument is out of its range */
  CORE_EURL,     /* a URL that cannot be parsed, or not http/https */
  CORE_ETOOLONG, /* input longer than its cap */
  CORE_ESYS,     /* a system call failed; errno says why */
  CORE_EFORMAT,  /* a file or message is malformed */
  CORE_EDNS,     /* name resolution failed */
  CORE_ENOTFOUND /* nothing matched */
} core_rc;

const char *core_rc_str(core_rc rc);

/* The value of a hex digit, or -1. */
int core_hex_digit(char c);

/* Seconds on the monotonic clock. */
double core_now(void);
/* Seconds since the epoch (the wall clock): when something happened, for a record. */
double core_wall_now(void);

/* A growable byte buffer with a cap fixed at init: appends past max fail with CORE_ETOOLONG.
 * The buffer owns data; free it with core_buf_free. The contents stay NUL-terminated. */
struct core_buf {
  char *data;
  size_t len;
  size_t cap;
  size_t max;
};
void core_buf_init(struct core_buf *buf, size_t max);
core_rc core_buf_add(struct core_buf *buf, const void *data, size_t len);
core_rc core_buf_addc(struct core_buf *buf, char c);
/* Room for at least size bytes (a NUL after them included) in one allocation, within max + 1. */
core_rc core_buf_reserve(struct core_buf *buf, size_t size);
/* Room for one more item of size bytes in an array of count (capacity *cap) at *items: it
 * doubles when full (from min items). False when memory ran out: the array is left as it was. */
bool core_array_room(void **items, size_t *cap, size_t count, size_t size, size_t min);
/* Sorts n values in ascending order, in place, in O(n log n) steps whatever their order. For the
 * short arrays of hashes a page keeps, where qsort's call for each comparison costs the most. */
void core_sort_u64(uint64_t *values, size_t n);
/* Gives back the room the contents do not use (a buffer that will not grow again). */
void core_buf_shrink(struct core_buf *buf);
void core_buf_reset(struct core_buf *buf);
/* Keeps the first len bytes (len at most the length): what was added after them, the part of
 * a line a failed add left, is dropped. */
void core_buf_cut(struct core_buf *buf, size_t len);
void core_buf_free(struct core_buf *buf);

/* The length (1 to 4) of the UTF-8 character at s, n bytes left, as RFC 3629 allows it (no
 * overlong form, no surrogate, nothing past U+10FFFF); 0 when s starts none, or n cuts it short.
 * Reads no byte past the first that does not continue it, so a NUL-terminated s may pass n = 4. */
size_t core_utf8_char(const unsigned char *s, size_t n);

/* An unlinked temporary file in $TMPDIR (or /tmp), named crawl-NAME-XXXXXX while it is made,
 * open for reading and writing; -1 with errno set when it cannot be made. */
int core_temp_fd(const char *name);
/* Where core_temp_fd makes its files: $TMPDIR, or /tmp when that is unset or empty. */
const char *core_temp_dir(void);
/* All len bytes at offset at of fd, written or read, through short counts and EINTR; CORE_ESYS
 * with errno set when they cannot be (ENOSPC: a write that took nothing, EIO: the file ends
 * before them). */
core_rc core_write_at(int fd, const void *data, size_t len, uint64_t at);
core_rc core_read_at(int fd, void *data, size_t len, uint64_t at);

/* A new file of our own named name, mode 0600, for writing: never opened through a link planted
 * under that name, nor shared with a process that holds it open (a leftover of that name is
 * removed first). Its descriptor, or -1 with errno set. */
int core_create_private(const char *name);
/* An existing file opened for reading, never through a symbolic link at path (a link planted in a
 * --state directory or at a --seen file's name would have crawl read or write another file).
 * NULL with errno set: ELOOP for a link, which core_open_error words. */
FILE *core_open_read(const char *path);
/* strerror, but a symbolic link refused (ELOOP from O_NOFOLLOW) is said as such. */
const char *core_open_error(int err);
/* Whether a directory others may write to, so that they could plant files (links) in it (world
 * writable, or writable by a group other than the user's own), or something that is no directory:
 * NULL when neither, else why (static text). */
const char *core_dir_unsafe(const char *dir);
/* A file written whole, then put in place of path: made by core_create_private as "PATH.tmp"
 * (*tmp, for core_file_commit). NULL with errno set. */
FILE *core_file_begin(const char *path, char **tmp);
/* Puts what core_file_begin made in place once its bytes are on disk (fflush, fsync, rename), so
 * that a crash leaves path as it was or whole; on any failure removes the temporary file. Closes
 * f and frees tmp either way. With tmp NULL, f was opened on path itself (a device or a pipe,
 * which has neither fsync nor rename): flushed and closed alone. CORE_ESYS with errno set (the
 * first failure's) when it could not. */
core_rc core_file_commit(FILE *f, char *tmp, const char *path);

/* ---- Lines of a file, in bounded memory ---- */
/* The next line of f into line (max bytes and a NUL; its '\n' not kept): its length; max + 1 when
 * the line goes on past max bytes or past *left (line then holds its first max bytes, the rest is
 * left unread); -1 at the end of the file. left, when not NULL, is what the file may still give,
 * counted down by every byte read. A device or pipe that never ends a line (/dev/zero) so costs
 * max bytes, not all memory. f is read unlocked: no other thread may use it meanwhile. */
ssize_t core_read_line(FILE *f, char *line, size_t max, size_t *left);

/* ---- Lists of strings kept as given (seeds, headers) ---- */
/* Appends a copy of s to *list, of *count entries. */
core_rc core_strs_push(char ***list, size_t *count, const char *s);
void core_strs_free(char **list, size_t count);

/* ---- Comma lists (extensions, domain suffixes) ---- */
struct core_list {
  char **items; /* owned, lowercase */
  size_t count;
};
core_rc core_list_parse(const char *comma_list, struct core_list *out);
core_rc core_list_add(struct core_list *list, const char *item);
bool core_list_has(const struct core_list *list, const char *item);
/* Whether list holds exts ("tar.gz", as url_ext gives them) or one of its endings after a dot
 * ("gz"): -A tar.gz and -A gz both take a.tar.gz. */
bool core_list_has_ext(const struct core_list *list, const char *exts);
/* Takes every item equal to item (without case) out of list. */
void core_list_remove(struct core_list *list, const char *item);
void core_list_free(struct core_list *list);
/* True when host equals one of the suffixes or ends with "." + one. */
bool core_list_host_match(const struct core_list *suffixes, const char *host);

#endif
