/* WARC/1.1 records, written with one write() each, so a crash tears at most the last one (which
 * a --state crawl cuts away when it continues, see warc_open). Digests are SHA-1 from OpenSSL's
 * libcrypto (curl already loads it), in base32 as wget and Heritrix write them. */
#include "warc/warc.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

struct warc_writer {
  int fd;
  bool gzip;
  int error;              /* errno of the first write that failed */
  struct core_buf record; /* one record being put together */
  struct core_buf packed; /* and its gzip member */
};

core_rc warc_open(const char *path, bool append, uint64_t keep, bool gzip, bool owner_only,
                  warc_writer **out, char *why, size_t why_size) {
  int fd =
      open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? 0 : O_TRUNC), owner_only ? 0600 : 0644);
  if (fd < 0) {
    snprintf(why, why_size, "cannot open it: %s", strerror(errno));
    return CORE_ESYS;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    snprintf(why, why_size, "cannot open it: %s", strerror(errno));
    close(fd);
    return CORE_ESYS;
  }
  /* a pipe or a device (--warc >(gzip >x), /dev/null) is written as it comes: it has no length
   * to cut back or seek to, and its mode is not the crawl's to change */
  bool file = S_ISREG(st.st_mode);
  if (file && owner_only && fchmod(fd, 0600) != 0) { /* a file that was there keeps its mode */
    snprintf(why, why_size, "cannot make it private: %s", strerror(errno));
    close(fd);
    return CORE_ESYS;
  }
  if (file && append && (uint64_t)st.st_size > keep && ftruncate(fd, (off_t)keep) != 0) {
    snprintf(why, why_size, "cannot cut it back to its last checkpoint: %s", strerror(errno));
    close(fd);
    return CORE_ESYS;
  }
  if (file && lseek(fd, 0, SEEK_END) < 0) {
    snprintf(why, why_size, "cannot seek in it: %s", strerror(errno));
    close(fd);
    return CORE_ESYS;
  }
  warc_writer *w = calloc(1, sizeof(*w));
  if (!w) {
    close(fd);
    snprintf(why, why_size, "out of memory");
    return CORE_ENOMEM;
  }
  w->fd = fd;
  w->gzip = gzip;
  core_buf_init(&w->record, SIZE_MAX / 2);
  core_buf_init(&w->packed, SIZE_MAX / 2);
  *out = w;
  return CORE_OK;
}

core_rc warc_close(warc_writer *w) {
  if (!w)
    return CORE_OK;
  bool failed = w->error != 0;
  if (close(w->fd) != 0 && !failed) {
    w->error = errno;
    failed = true;
  }
  core_buf_free(&w->record);
  core_buf_free(&w->packed);
  free(w);
  return failed ? CORE_ESYS : CORE_OK;
}

int warc_errno(const warc_writer *w) {
  return w->error;
}

core_rc warc_sync(warc_writer *w, uint64_t *length) {
  struct stat st;
  if (fsync(w->fd) != 0 || fstat(w->fd, &st) != 0) {
    w->error = w->error ? w->error : errno;
    return CORE_ESYS;
  }
  *length = (uint64_t)st.st_size;
  return w->error ? CORE_ESYS : CORE_OK;
}

/* ---- digests and names ---- */

struct sha1 {
  EVP_MD_CTX *ctx;
};

static bool sha1_begin(struct sha1 *h) {
  h->ctx = EVP_MD_CTX_new();
  return h->ctx && EVP_DigestInit_ex(h->ctx, EVP_sha1(), NULL) == 1;
}

static void sha1_add(struct sha1 *h, const void *data, size_t len) {
  if (len)
    EVP_DigestUpdate(h->ctx, data, len);
}

/* "sha1:" and the digest in base32 (RFC 4648): 32 characters for 20 bytes. */
static void sha1_end(struct sha1 *h, char out[38]) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(h->ctx, d, &n);
  EVP_MD_CTX_free(h->ctx);
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  memcpy(out, "sha1:", 5);
  size_t o = 5;
  for (unsigned bit = 0; bit < 160; bit += 5) {
    unsigned byte = bit / 8, shift = bit % 8;
    unsigned v = (unsigned)d[byte] << 8 | (byte + 1 < 20 ? d[byte + 1] : 0);
    out[o++] = alphabet[(v >> (11 - shift)) & 31];
  }
  out[o] = '\0';
}

static void record_id(char out[48]) {
  unsigned char r[16];
  if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
    for (size_t i = 0; i < sizeof(r); i++) /* no entropy to be had: unique enough in a file */
      r[i] = (unsigned char)(rand() & 0xff);
  }
  r[6] = (r[6] & 0x0f) | 0x40; /* a version 4 UUID */
  r[8] = (r[8] & 0x3f) | 0x80;
  snprintf(out, 48,
           "<urn:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x>", r[0],
           r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14],
           r[15]);
}

static void warc_date(char out[32]) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- records ---- */

struct part {
  const void *data;
  size_t len;
};

static bool add(struct core_buf *b, const void *data, size_t len) {
  return core_buf_add(b, data, len) == CORE_OK;
}

static bool addf(struct core_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool addf(struct core_buf *b, const char *fmt, ...) {
  char text[2048];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(text, sizeof(text), fmt, ap);
  va_end(ap);
  return n >= 0 && (size_t)n < sizeof(text) && add(b, text, (size_t)n);
}

static core_rc write_all(warc_writer *w, const char *data, size_t len) {
  while (len) {
    ssize_t n = write(w->fd, data, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (!w->error)
        w->error = n < 0 ? errno : EIO;
      return CORE_ESYS;
    }
    data += n;
    len -= (size_t)n;
  }
  return CORE_OK;
}

/* The record put together in w->record goes out, gzipped on its own when asked. */
static core_rc emit(warc_writer *w) {
  if (!w->gzip)
    return write_all(w, w->record.data, w->record.len);
  z_stream z;
  memset(&z, 0, sizeof(z));
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return CORE_ENOMEM;
  size_t bound = deflateBound(&z, w->record.len);
  core_buf_reset(&w->packed);
  core_rc rc = CORE_OK;
  if (w->packed.cap < bound + 1) {
    char *grown = realloc(w->packed.data, bound + 1);
    if (!grown)
      rc = CORE_ENOMEM;
    else {
      w->packed.data = grown;
      w->packed.cap = bound + 1;
    }
  }
  if (rc == CORE_OK) {
    z.next_in = (unsigned char *)w->record.data;
    z.avail_in = (uInt)w->record.len;
    z.next_out = (unsigned char *)w->packed.data;
    z.avail_out = (uInt)bound;
    rc = deflate(&z, Z_FINISH) == Z_STREAM_END ? CORE_OK : CORE_ENOMEM;
  }
  size_t packed = bound - z.avail_out;
  deflateEnd(&z);
  return rc ? rc : write_all(w, w->packed.data, packed);
}

/* Puts a record together in w->record: its header (with extra lines), then the block parts. */
static core_rc put_record(warc_writer *w, const char *type, const char *id, const char *date,
                          const char *extra, const char *content_type, const struct part *parts,
                          size_t part_count, const char *block_digest) {
  size_t len = 0;
  for (size_t i = 0; i < part_count; i++)
    len += parts[i].len;
  struct core_buf *b = &w->record;
  core_buf_reset(b);
  bool ok = addf(b, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: %s\r\nWARC-Date: %s\r\n", type,
                 id, date) &&
            add(b, extra, strlen(extra)) &&
            (!block_digest || addf(b, "WARC-Block-Digest: %s\r\n", block_digest)) &&
            addf(b, "Content-Type: %s\r\nContent-Length: %zu\r\n\r\n", content_type, len);
  for (size_t i = 0; ok && i < part_count; i++)
    ok = add(b, parts[i].data, parts[i].len);
  ok = ok && add(b, "\r\n\r\n", 4);
  return ok ? emit(w) : CORE_ENOMEM;
}

core_rc warc_write_info(warc_writer *w, const char *fields) {
  char id[48], date[32];
  record_id(id);
  warc_date(date);
  struct part p = {fields, strlen(fields)};
  return put_record(w, "warcinfo", id, date, "", "application/warc-fields", &p, 1, NULL);
}

/* URIs in WARC headers are bare (WARC 1.1 dropped the angle brackets); a URL with a space or a
 * line break in it cannot be one, and no printed URL has them. */
static bool header_safe(const char *s) {
  return !strpbrk(s, "\r\n");
}

/* The headers whose values are credentials (doc/network.md, WARC): a request record keeps their
 * names and leaves their values out, and its WARC-Redacted-Headers field names them, so that an
 * archive can be shared without the logins that made it. */
static const char *const secret_headers[] = {"Authorization", "Proxy-Authorization", "Cookie"};

/* The request head as sent, with each secret header's value left out ("Cookie:"), into out; the
 * names of those left out, ", " between them, into names. */
static core_rc redact_request(const char *req, size_t len, struct core_buf *out, char *names,
                              size_t names_size) {
  enum { SECRETS = sizeof(secret_headers) / sizeof(*secret_headers) };
  bool left_out[SECRETS] = {false};
  const char *p = req, *end = req + len;
  core_rc rc = CORE_OK;
  while (p < end && rc == CORE_OK) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *next = eol ? eol + 1 : end;
    const char *colon = memchr(p, ':', (size_t)(next - p));
    int secret = -1; /* the request line (p == req) is no header */
    for (int i = 0; colon && p != req && i < SECRETS; i++) {
      size_t n = strlen(secret_headers[i]);
      if ((size_t)(colon - p) == n && strncasecmp(p, secret_headers[i], n) == 0)
        secret = i;
    }
    if (secret < 0) {
      rc = core_buf_add(out, p, (size_t)(next - p));
    } else {
      /* the name and its colon, then the line's end as it was */
      const char *line_end = next > p && next[-1] == '\n' ? next - 1 : next;
      if (line_end > p && line_end[-1] == '\r')
        line_end--;
      rc = core_buf_add(out, p, (size_t)(colon - p) + 1);
      if (rc == CORE_OK)
        rc = core_buf_add(out, line_end, (size_t)(next - line_end));
      left_out[secret] = true;
    }
    p = next;
  }
  names[0] = '\0';
  for (int i = 0; i < SECRETS; i++) {
    size_t used = strlen(names);
    if (left_out[i])
      snprintf(names + used, names_size - used, "%s%s", used ? ", " : "", secret_headers[i]);
  }
  return rc;
}

core_rc warc_write_exchange(warc_writer *w, const struct warc_exchange *x) {
  if (!header_safe(x->url) || !header_safe(x->ip))
    return CORE_EINVAL;
  char response_id[48], request_id[48], date[32], head_chunk[32];
  record_id(response_id);
  record_id(request_id);
  warc_date(date);
  /* the body was received with its transfer coding removed: as one chunk it is chunked again,
   * so that the block still reads as the head says */
  size_t chunk_len = 0;
  if (x->chunked)
    chunk_len = (size_t)snprintf(head_chunk, sizeof(head_chunk), "%zx\r\n", x->body_len);
  struct part parts[5];
  size_t n = 0;
  parts[n++] = (struct part){x->response, x->response_len};
  if (x->chunked && x->body_len)
    parts[n++] = (struct part){head_chunk, chunk_len};
  parts[n++] = (struct part){x->body, x->body_len};
  if (x->chunked)
    parts[n++] = (struct part){x->body_len ? "\r\n0\r\n\r\n" : "0\r\n\r\n", x->body_len ? 7u : 5u};
  struct sha1 block, payload;
  if (!sha1_begin(&block) || !sha1_begin(&payload))
    return CORE_ENOMEM;
  for (size_t i = 0; i < n; i++)
    sha1_add(&block, parts[i].data, parts[i].len);
  sha1_add(&payload, x->body, x->body_len);
  char block_digest[38], payload_digest[38];
  sha1_end(&block, block_digest);
  sha1_end(&payload, payload_digest);
  char extra[4096];
  int e =
      snprintf(extra, sizeof(extra), "WARC-Target-URI: %s\r\n%s%s%sWARC-Payload-Digest: %s\r\n%s",
               x->url, x->ip[0] ? "WARC-IP-Address: " : "", x->ip, x->ip[0] ? "\r\n" : "",
               payload_digest, x->truncated ? "WARC-Truncated: length\r\n" : "");
  if (e < 0 || (size_t)e >= sizeof(extra))
    return CORE_EINVAL;
  core_rc rc = put_record(w, "response", response_id, date, extra,
                          "application/http;msgtype=response", parts, n, block_digest);
  if (rc)
    return rc;
  struct core_buf head;
  core_buf_init(&head, x->request_len + 1);
  char redacted[128] = "";
  if (redact_request(x->request, x->request_len, &head, redacted, sizeof(redacted)) != CORE_OK) {
    core_buf_free(&head);
    return CORE_ENOMEM;
  }
  struct sha1 req;
  if (!sha1_begin(&req)) {
    core_buf_free(&head);
    return CORE_ENOMEM;
  }
  sha1_add(&req, head.data, head.len);
  char request_digest[38];
  sha1_end(&req, request_digest);
  e = snprintf(extra, sizeof(extra),
               "WARC-Target-URI: %s\r\n%s%s%sWARC-Concurrent-To: %s\r\n%s%s%s", x->url,
               x->ip[0] ? "WARC-IP-Address: " : "", x->ip, x->ip[0] ? "\r\n" : "", response_id,
               redacted[0] ? "WARC-Redacted-Headers: " : "", redacted, redacted[0] ? "\r\n" : "");
  if (e < 0 || (size_t)e >= sizeof(extra)) {
    core_buf_free(&head);
    return CORE_EINVAL;
  }
  struct part p = {head.data, head.len};
  rc = put_record(w, "request", request_id, date, extra, "application/http;msgtype=request", &p, 1,
                  request_digest);
  core_buf_free(&head);
  return rc;
}
