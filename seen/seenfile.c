/* The --seen file: a saved seen filter that a later run loads.
 *
 * Layout, every number little-endian:
 *   "CRWLSEEN"  u32 version (2)  u32 kind  u64 hash seed  f64 fp_rate  u64 expect  u64 count
 *   u32 layer_count  u32 zero  u64 slot_count (exact; else 0)
 *   per layer: u64 blocks  u32 block_bits  u32 k  u32 counter_bits  u32 zero  u64 capacity
 *              u64 count  f64 fp
 *   u64 attachment length
 *   the layers' words (or the exact variant's slots), u64 each
 *   the attachment: bytes the caller keeps with the filter
 *   u64 XXH3-64 of every byte before it
 * Version 1, written before attachments, has neither the length nor the bytes; it is read as a
 * file with an empty attachment.
 * A file is refused whole when anything is off: it is never read as empty, never overwritten. */
#include "seen/seen-int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define SEEN_MAGIC "CRWLSEEN"
#define SEEN_VERSION 2u
#define HEADER_BYTES 64u
#define LAYER_BYTES 48u
#define MAX_FILE_LAYERS 48u

static void say(char *why, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, size, fmt, ap);
  va_end(ap);
}

const char *seen_kind_name(seen_kind kind) {
  switch (kind) {
    case SEEN_BLOOM:
      return "bloom";
    case SEEN_COUNTING:
      return "counting";
    case SEEN_EXACT:
      return "exact";
  }
  return "unknown";
}

static void put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static uint64_t get64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static uint64_t double_bits(double d) {
  uint64_t v;
  memcpy(&v, &d, sizeof(v));
  return v;
}

static double bits_double(uint64_t v) {
  double d;
  memcpy(&d, &v, sizeof(d));
  return d;
}

/* Words go to disk little-endian; on a little-endian machine that is their memory layout. */
static void words_to_le(uint64_t *w, size_t n) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (size_t i = 0; i < n; i++)
    w[i] = __builtin_bswap64(w[i]);
#else
  (void)w;
  (void)n;
#endif
}

struct writer {
  FILE *f;
  XXH3_state_t *hash;
  bool failed;
};

static void emit(struct writer *w, const void *data, size_t len) {
  if (w->failed)
    return;
  XXH3_64bits_update(w->hash, data, len);
  if (fwrite(data, 1, len, w->f) != len)
    w->failed = true;
}

/* Writes words in chunks, converting byte order through a small buffer when needed. */
static void emit_words(struct writer *w, const uint64_t *words, uint64_t n) {
  uint64_t buf[4096];
  while (n && !w->failed) {
    size_t take = n < 4096 ? (size_t)n : 4096;
    memcpy(buf, words, take * sizeof(uint64_t));
    words_to_le(buf, take);
    emit(w, buf, take * sizeof(uint64_t));
    words += take;
    n -= take;
  }
}

/* Copies the attachment's whole contents into the file, a buffer at a time. */
static bool emit_attachment(struct writer *w, int fd, uint64_t len) {
  char buf[65536];
  for (uint64_t at = 0; at < len && !w->failed;) {
    size_t want = len - at < sizeof(buf) ? (size_t)(len - at) : sizeof(buf);
    ssize_t got = pread(fd, buf, want, (off_t)at);
    if (got == 0)
      errno = 0; /* it shrank since fstat */
    if (got <= 0)
      return false;
    emit(w, buf, (size_t)got);
    at += (uint64_t)got;
  }
  return true;
}

/* A save writes PATH.tmp.PID before renaming it over PATH (seen_remove_leftovers finds the ones
 * a killed process left by this infix). */
#define TEMP_INFIX ".tmp."

/* The temporary file a save writes before renaming it over path; caller frees. */
static char *temp_path(const char *path) {
  size_t len = strlen(path) + 32;
  char *tmp = malloc(len);
  if (tmp)
    snprintf(tmp, len, "%s" TEMP_INFIX "%ld", path, (long)getpid());
  return tmp;
}

/* Creates the temporary file a save writes (*tmp, which the caller frees): its descriptor, or -1
 * with why said (CORE_ENOMEM in *rc when the name could not be made). */
static int create_temp(const char *path, char **tmp, core_rc *rc, char *why, size_t why_size) {
  *rc = CORE_ENOMEM;
  if (!(*tmp = temp_path(path)))
    return -1;
  /* never through a link planted under that name (a symlink would have the save write wherever
   * it points), nor into a file another process holds open */
  int fd = core_create_private(*tmp);
  if (fd < 0) {
    say(why, why_size, "cannot create '%s': %s", *tmp, strerror(errno));
    free(*tmp);
    *tmp = NULL;
    *rc = CORE_ESYS;
  }
  return fd;
}

size_t seen_remove_leftovers(const char *path) {
  char *dir_copy = strdup(path), *base_copy = strdup(path);
  DIR *d = dir_copy && base_copy ? opendir(dirname(dir_copy)) : NULL;
  size_t removed = 0;
  if (d) {
    const char *base = basename(base_copy);
    size_t n = strlen(base);
    char own[32];
    snprintf(own, sizeof(own), "%ld", (long)getpid());
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (strncmp(e->d_name, base, n) != 0 ||
          strncmp(e->d_name + n, TEMP_INFIX, strlen(TEMP_INFIX)) != 0)
        continue;
      const char *pid = e->d_name + n + strlen(TEMP_INFIX); /* within the name: it matched */
      if (!*pid || pid[strspn(pid, "0123456789")] != '\0' || strcmp(pid, own) == 0)
        continue;
      if (unlinkat(dirfd(d), e->d_name, 0) == 0)
        removed++;
    }
    closedir(d);
  }
  free(dir_copy);
  free(base_copy);
  return removed;
}

core_rc seen_check_writable(const char *path, char *why, size_t why_size) {
  char *tmp;
  core_rc rc;
  int fd = create_temp(path, &tmp, &rc, why, why_size);
  if (fd < 0)
    return rc;
  close(fd);
  unlink(tmp);
  free(tmp);
  return CORE_OK;
}

static core_rc save_locked(const seen_filter *seen, const char *path, int attachment_fd, char *why,
                           size_t why_size) {
  struct seen_info info;
  seen__info_locked(seen, &info);
  uint64_t attachment_len = 0;
  if (attachment_fd >= 0) {
    struct stat st;
    if (fstat(attachment_fd, &st) != 0) {
      say(why, why_size, "cannot read what goes with it: %s", strerror(errno));
      return CORE_ESYS;
    }
    attachment_len = (uint64_t)st.st_size;
  }
  char *tmp;
  core_rc created;
  int fd = create_temp(path, &tmp, &created, why, why_size);
  if (fd < 0)
    return created;
  struct writer w = {fdopen(fd, "wb"), XXH3_createState(), false};
  if (!w.f || !w.hash) {
    if (w.f)
      fclose(w.f);
    else
      close(fd);
    XXH3_freeState(w.hash);
    unlink(tmp);
    free(tmp);
    return CORE_ENOMEM;
  }
  XXH3_64bits_reset(w.hash);
  unsigned char head[HEADER_BYTES] = {0};
  const uint64_t *slots = NULL;
  uint64_t slot_count = 0;
  if (info.kind == SEEN_EXACT)
    seen__exact(seen, &slots, &slot_count);
  memcpy(head, SEEN_MAGIC, 8);
  put32(head + 8, SEEN_VERSION);
  put32(head + 12, (uint32_t)info.kind);
  put64(head + 16, info.seed);
  put64(head + 24, double_bits(info.fp_rate));
  put64(head + 32, info.expect);
  put64(head + 40, info.count);
  put32(head + 48, info.layers);
  put64(head + 56, slot_count);
  emit(&w, head, sizeof(head));
  struct seen__layer_view v;
  for (unsigned i = 0; seen__layer(seen, i, &v); i++) {
    unsigned char lh[LAYER_BYTES] = {0};
    put64(lh, v.blocks);
    put32(lh + 8, v.block_bits);
    put32(lh + 12, v.k);
    put32(lh + 16, v.counter_bits);
    put64(lh + 24, v.capacity);
    put64(lh + 32, v.count);
    put64(lh + 40, double_bits(v.fp));
    emit(&w, lh, sizeof(lh));
  }
  unsigned char length_bytes[8];
  put64(length_bytes, attachment_len);
  emit(&w, length_bytes, sizeof(length_bytes));
  for (unsigned i = 0; seen__layer(seen, i, &v); i++)
    emit_words(&w, v.words, v.word_count);
  if (slots)
    emit_words(&w, slots, slot_count);
  bool unreadable = attachment_len && !emit_attachment(&w, attachment_fd, attachment_len);
  int read_errno = errno;
  w.failed |= unreadable;
  unsigned char tail[8];
  put64(tail, XXH3_64bits_digest(w.hash));
  XXH3_freeState(w.hash);
  if (!w.failed && fwrite(tail, 1, 8, w.f) != 8)
    w.failed = true;
  int saved_errno = errno;
  /* the data reaches the disk before the name does: a crash leaves the old file or the new */
  if (!w.failed && (fflush(w.f) != 0 || fsync(fileno(w.f)) != 0)) {
    w.failed = true;
    saved_errno = errno;
  }
  if (fclose(w.f) != 0 && !w.failed) {
    w.failed = true;
    saved_errno = errno;
  }
  if (w.failed || rename(tmp, path) != 0) {
    if (!w.failed)
      saved_errno = errno;
    if (unreadable)
      say(why, why_size, "cannot read what goes with it: %s",
          read_errno ? strerror(read_errno) : "it shrank while being read");
    else
      say(why, why_size, "cannot write '%s': %s", path, strerror(saved_errno));
    unlink(tmp);
    free(tmp);
    return CORE_ESYS;
  }
  free(tmp);
  char *dir_copy = strdup(path);
  if (dir_copy) {
    int dfd = open(dirname(dir_copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
    free(dir_copy);
  }
  return CORE_OK;
}

core_rc seen_save(const seen_filter *seen, const char *path, int attachment_fd, char *why,
                  size_t why_size) {
  seen__lock(seen); /* a shared filter does not change while its bits are written */
  core_rc rc = save_locked(seen, path, attachment_fd, why, why_size);
  seen__unlock(seen);
  return rc;
}

struct reader {
  FILE *f;
  XXH3_state_t *hash;
};

static bool take(struct reader *r, void *data, size_t len) {
  if (fread(data, 1, len, r->f) != len)
    return false;
  XXH3_64bits_update(r->hash, data, len);
  return true;
}

static bool take_words(struct reader *r, uint64_t *words, uint64_t n) {
  while (n) {
    size_t chunk = n < (1u << 20) ? (size_t)n : (1u << 20);
    if (!take(r, words, chunk * sizeof(uint64_t)))
      return false; /* the file shrank as it was read: stdio keeps EOF, every later read fails */
    words_to_le(words, chunk); /* the same swap turns little-endian back into host order */
    words += chunk;
    n -= chunk;
  }
  return true;
}

/* Reads len attachment bytes on to fd (or past them, when fd is -1). */
static core_rc take_attachment(struct reader *r, int fd, uint64_t len) {
  char buf[65536];
  while (len) {
    size_t chunk = len < sizeof(buf) ? (size_t)len : sizeof(buf);
    if (!take(r, buf, chunk))
      return CORE_EFORMAT;
    for (size_t done = 0; fd >= 0 && done < chunk;) {
      ssize_t put = write(fd, buf + done, chunk - done);
      if (put < 0 && errno != EINTR)
        return CORE_ESYS;
      done += put > 0 ? (size_t)put : 0;
    }
    len -= chunk;
  }
  return CORE_OK;
}

/* Whether a file's header, of format version, is one this crawl reads and its filter could
 * have written (else why says what is wrong). */
static bool header_ok(const struct seen__header *hdr, uint32_t version, char *why,
                      size_t why_size) {
  if (version != 1 && version != SEEN_VERSION) {
    say(why, why_size, "format version %u; this crawl reads versions 1 to %u", version,
        SEEN_VERSION);
    return false;
  }
  bool exact = hdr->kind == SEEN_EXACT;
  if (hdr->kind != SEEN_BLOOM && hdr->kind != SEEN_COUNTING && !exact) {
    say(why, why_size, "unknown filter kind %u", (unsigned)hdr->kind);
    return false;
  }
  if (!(hdr->fp_rate >= DBL_MIN && hdr->fp_rate < 1) || hdr->expect == 0 ||
      (exact ? hdr->layer_count != 0 || hdr->slot_count < 1024 || hdr->slot_count > (1ull << 40) ||
                   (hdr->slot_count & (hdr->slot_count - 1)) || hdr->count >= hdr->slot_count
             : hdr->layer_count == 0 || hdr->layer_count > MAX_FILE_LAYERS || hdr->slot_count)) {
    say(why, why_size, "corrupt header");
    return false;
  }
  return true;
}

/* Whether an exact filter's table holds as many entries as its header counts (else why says). */
static bool slots_count_ok(const struct seen__header *hdr, const uint64_t *slots, char *why,
                           size_t why_size) {
  uint64_t used = 0;
  for (uint64_t i = 0; i < hdr->slot_count; i++)
    used += slots[i] != 0;
  if (used != hdr->count)
    say(why, why_size, "corrupt (count %llu, %llu entries)", (unsigned long long)hdr->count,
        (unsigned long long)used);
  return used == hdr->count;
}

enum layer_heads { HEADS_OK, HEADS_CUT, HEADS_CORRUPT };

/* Reads and checks the header of each of hdr's layers into layers, adding the bytes of their
 * tables to *expected: HEADS_CUT when the file ends first, HEADS_CORRUPT (said in why) when one
 * is not what the filter would have built. */
static enum layer_heads take_layer_heads(struct reader *r, const struct seen__header *hdr,
                                         struct seen__layer_view *layers, uint64_t *expected,
                                         char *why, size_t why_size) {
  unsigned want_counter = hdr->kind == SEEN_COUNTING ? 4 : 1;
  /* the layers a filter builds: the first sized for expect at p/2, each next one for twice the
   * keys at a quarter of the rate (exact in binary floating point, so compared exactly) */
  double chain_fp = hdr->fp_rate / 2;
  uint64_t chain_capacity = hdr->expect;
  for (unsigned i = 0; i < hdr->layer_count; i++) {
    unsigned char lh[LAYER_BYTES];
    if (!take(r, lh, sizeof(lh)))
      return HEADS_CUT;
    struct seen__layer_view *v = &layers[i];
    v->blocks = get64(lh);
    v->block_bits = get32(lh + 8);
    v->k = get32(lh + 12);
    v->counter_bits = get32(lh + 16);
    v->capacity = get64(lh + 24);
    v->count = get64(lh + 32);
    v->fp = bits_double(get64(lh + 40));
    bool block_ok = v->block_bits == 512 || v->block_bits == 1024 || v->block_bits == 2048;
    /* at least the classic optimum's bits per key: a layer that claims more keys would make the
     * next layer, sized from its capacity, far larger than the file */
    bool roomy = (double)v->capacity * seen__optimum_bits(v->fp) <=
                 (double)v->blocks * v->block_bits * (1 + 1e-9);
    if (!block_ok || v->counter_bits != want_counter || v->k < 1 || v->k > 64 || v->blocks < 1 ||
        v->blocks > (1ull << 40) || v->fp != chain_fp || v->capacity != chain_capacity ||
        v->count > v->capacity || !roomy || chain_capacity > (1ull << 50)) {
      say(why, why_size, "corrupt layer %u header", i);
      return HEADS_CORRUPT;
    }
    chain_fp /= 4;
    chain_capacity *= 2;
    v->word_count = seen__layer_word_count(v->blocks, v->block_bits, v->counter_bits);
    *expected += v->word_count * 8;
  }
  return HEADS_OK;
}

core_rc seen_load(const char *path, seen_filter **out, int attachment_fd, char *why,
                  size_t why_size) {
  FILE *f = core_open_read(path);
  if (!f) {
    if (errno == ENOENT)
      return CORE_ENOTFOUND;
    say(why, why_size, "cannot read it: %s", core_open_error(errno));
    return CORE_ESYS;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    say(why, why_size, "not a regular file");
    fclose(f);
    return CORE_EFORMAT;
  }
  uint64_t size = (uint64_t)st.st_size;
  struct reader r = {f, XXH3_createState()};
  struct seen__layer_view layers[MAX_FILE_LAYERS];
  uint64_t *words[MAX_FILE_LAYERS] = {0};
  uint64_t *slots = NULL, attachment_len = 0;
  unsigned loaded = 0;
  core_rc rc = CORE_EFORMAT;
  if (!r.hash) {
    fclose(f);
    return CORE_ENOMEM;
  }
  XXH3_64bits_reset(r.hash);
  unsigned char head[HEADER_BYTES];
  if (size < 8 || !take(&r, head, size < HEADER_BYTES ? (size_t)size : HEADER_BYTES) ||
      memcmp(head, SEEN_MAGIC, 8) != 0) {
    say(why, why_size, "not a crawl seen file");
    goto done;
  }
  if (size < HEADER_BYTES) {
    say(why, why_size, "truncated (%llu bytes)", (unsigned long long)size);
    goto done;
  }
  struct seen__header hdr = {
      .kind = (seen_kind)get32(head + 12),
      .seed = get64(head + 16),
      .fp_rate = bits_double(get64(head + 24)),
      .expect = get64(head + 32),
      .count = get64(head + 40),
      .layer_count = get32(head + 48),
      .slot_count = get64(head + 56),
  };
  uint32_t version = get32(head + 8);
  bool exact = hdr.kind == SEEN_EXACT;
  if (!header_ok(&hdr, version, why, why_size))
    goto done;
  /* every length is checked against the file's size before anything is allocated */
  bool has_attachment = version >= 2;
  uint64_t expected =
      HEADER_BYTES + 8 + (uint64_t)hdr.layer_count * LAYER_BYTES + (has_attachment ? 8 : 0);
  if (size < expected) {
    say(why, why_size, "truncated (%llu bytes)", (unsigned long long)size);
    goto done;
  }
  switch (take_layer_heads(&r, &hdr, layers, &expected, why, why_size)) {
    case HEADS_CUT:
      goto truncated;
    case HEADS_CORRUPT:
      goto done;
    case HEADS_OK:
      break;
  }
  if (exact)
    expected += hdr.slot_count * 8;
  if (has_attachment) {
    unsigned char length_bytes[8];
    if (!take(&r, length_bytes, sizeof(length_bytes)))
      goto truncated;
    attachment_len = get64(length_bytes);
    if (attachment_len > size) {
      say(why, why_size, "corrupt header (an attachment of %llu bytes)",
          (unsigned long long)attachment_len);
      goto done;
    }
    expected += attachment_len;
  }
  if (size != expected) {
    if (size < expected)
      say(why, why_size, "truncated (%llu of %llu bytes)", (unsigned long long)size,
          (unsigned long long)expected);
    else
      say(why, why_size, "has %llu bytes where %llu were expected", (unsigned long long)size,
          (unsigned long long)expected);
    goto done;
  }
  rc = CORE_ENOMEM;
  for (; loaded < hdr.layer_count; loaded++) {
    words[loaded] = seen__table_alloc(layers[loaded].word_count * sizeof(uint64_t));
    if (!words[loaded])
      goto done;
    if (!take_words(&r, words[loaded], layers[loaded].word_count))
      goto truncated;
  }
  if (exact) {
    slots = seen__table_alloc(hdr.slot_count * sizeof(uint64_t));
    if (!slots)
      goto done;
    if (!take_words(&r, slots, hdr.slot_count))
      goto truncated;
  }
  rc = take_attachment(&r, attachment_fd, attachment_len);
  if (rc == CORE_EFORMAT)
    goto truncated;
  if (rc) {
    say(why, why_size, "cannot keep what goes with it: %s", strerror(errno));
    goto done;
  }
  unsigned char tail[8];
  uint64_t digest = XXH3_64bits_digest(r.hash);
  if (fread(tail, 1, 8, f) != 8)
    goto truncated;
  rc = CORE_EFORMAT;
  if (get64(tail) != digest) {
    say(why, why_size, "corrupt (checksum mismatch)");
    goto done;
  }
  if (exact && !slots_count_ok(&hdr, slots, why, why_size))
    goto done;
  rc = seen__assemble(&hdr, layers, words, slots, out);
  if (rc == CORE_OK) {
    /* the filter owns the arrays now */
    memset(words, 0, sizeof(words));
    loaded = 0;
    slots = NULL;
  }
  goto done;
truncated:
  rc = CORE_EFORMAT;
  say(why, why_size, "truncated while reading");
done:
  for (unsigned i = 0; i < loaded; i++)
    seen__table_free(words[i]);
  if (loaded < MAX_FILE_LAYERS)
    seen__table_free(words[loaded]); /* a layer allocated but not finished */
  seen__table_free(slots);

  XXH3_freeState(r.hash);
  fclose(f);
  return rc;
}
