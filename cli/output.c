/* Standard output as a pipe-friendly stream: whole lines, flushed after every turn of the loop,
 * so a reader sees each URL promptly. A reader that goes away (EPIPE) ends the crawl quietly; any
 * other write error (a full disk) is the caller's to report. */
#include "cli/cli-int.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_FLUSH_AT (64 * 1024)
#define OUTPUT_MAX (16 * 1024 * 1024)

/* What the outputs writing to one descriptor share (cli_output_create_sibling): a lock, so each
 * buffer of whole lines is written whole, and the first write error, which ends them all. */
struct output_target {
  pthread_mutex_t lock;
  atomic_int error; /* errno of the write that failed; nothing is written after one */
};

struct cli_output {
  int fd;
  const char *name;
  bool jsonl;
  struct output_target *target; /* owned by the first output, borrowed by its siblings */
  bool owns_target;
  cli_status *status;
  struct core_buf buf;
};

static int output_error(const cli_output *out) {
  return atomic_load_explicit(&out->target->error, memory_order_relaxed);
}

core_rc cli_output_create(int fd, const char *name, bool jsonl, cli_status *status,
                          cli_output **out) {
  cli_output *o = calloc(1, sizeof(*o));
  struct output_target *t = o ? calloc(1, sizeof(*t)) : NULL;
  if (!t || pthread_mutex_init(&t->lock, NULL) != 0) {
    free(t);
    free(o);
    return CORE_ENOMEM;
  }
  atomic_init(&t->error, 0);
  o->fd = fd;
  o->name = name;
  o->jsonl = jsonl;
  o->target = t;
  o->owns_target = true;
  o->status = status;
  core_buf_init(&o->buf, OUTPUT_MAX);
  *out = o;
  return CORE_OK;
}

core_rc cli_output_create_sibling(cli_output *first, cli_output **out) {
  cli_output *o = calloc(1, sizeof(*o));
  if (!o)
    return CORE_ENOMEM;
  *o = *first;
  o->owns_target = false;
  core_buf_init(&o->buf, OUTPUT_MAX);
  *out = o;
  return CORE_OK;
}

/* The length of the UTF-8 sequence at s (n bytes left) that is a printable character, or 0: a
 * byte that starts no valid sequence, or a control character (C0, DEL, C1). */
static size_t printable_utf8(const unsigned char *s, size_t n) {
  if (s[0] < 0x20 || s[0] == 0x7f)
    return 0;
  if (s[0] == 0xc2 && n > 1 && s[1] < 0xa0)
    return 0; /* U+0080 to U+009F: C1 controls, CSI among them */
  return core_utf8_char(s, n);
}

/* text on the terminal as it is, but for its control characters and bytes that are no UTF-8,
 * written \xHH: a note may quote a page's bytes (an href, a Content-Type), which must not move
 * the cursor, clear the screen, set the window title or ring the bell. */
static void put_for_terminal(FILE *f, const char *text) {
  const unsigned char *s = (const unsigned char *)text;
  size_t n = strlen(text);
  while (n) {
    size_t len = printable_utf8(s, n);
    if (len) {
      fwrite(s, 1, len, f);
    } else {
      fprintf(f, "\\x%02x", s[0]);
      len = 1;
    }
    s += len;
    n -= len;
  }
}

void cli_output_note(cli_output *out, const char *text) {
  pthread_mutex_lock(&out->target->lock);
  cli_status_hide(out->status); /* a whole line of its own, not after the status line */
  fputs("crawl: ", stderr);
  put_for_terminal(stderr, text);
  fputc('\n', stderr);
  cli_status_show(out->status);
  pthread_mutex_unlock(&out->target->lock);
}

void cli_output_set_status(cli_output *out, const char *text, bool final) {
  pthread_mutex_lock(&out->target->lock);
  if (final)
    cli_status_finish(out->status, text);
  else
    cli_status_set(out->status, text);
  pthread_mutex_unlock(&out->target->lock);
}

int cli_output_fd(const cli_output *out) {
  return out->fd;
}

const char *cli_output_name(const cli_output *out) {
  return out->name;
}

void cli_output_destroy(cli_output *out) {
  if (!out)
    return;
  core_buf_free(&out->buf);
  if (out->owns_target) {
    pthread_mutex_destroy(&out->target->lock);
    free(out->target);
  }
  free(out);
}

bool cli_output_closed(const cli_output *out) {
  return output_error(out) == EPIPE;
}

int cli_output_errno(const cli_output *out) {
  return output_error(out);
}

void cli_output_reader_gone(cli_output *out) {
  int none = 0;
  atomic_compare_exchange_strong(&out->target->error, &none, EPIPE);
  core_buf_reset(&out->buf);
}

core_rc cli_output_flush(cli_output *out) {
  if (!out->buf.len)
    return output_error(out) ? CORE_ESYS : CORE_OK;
  pthread_mutex_lock(&out->target->lock);
  if (!output_error(out) && cli_status_shares_terminal(out->status))
    cli_status_hide(out->status); /* the URLs start at column 0, not after the status line */
  size_t done = 0;
  while (done < out->buf.len && !output_error(out)) {
    ssize_t n = write(out->fd, out->buf.data + done, out->buf.len - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN) {
        /* a non-blocking reader's pipe is full: wait for it rather than drop lines */
        usleep(1000);
        continue;
      }
      atomic_store(&out->target->error, errno ? errno : EIO);
      break;
    }
    done += (size_t)n;
  }
  core_buf_reset(&out->buf);
  cli_status_show(out->status);
  pthread_mutex_unlock(&out->target->lock);
  return output_error(out) ? CORE_ESYS : CORE_OK;
}

static core_rc maybe_flush(cli_output *out) {
  return out->buf.len >= OUTPUT_FLUSH_AT ? cli_output_flush(out) : CORE_OK;
}

/* A line added from mark on failed with *rc: none of it is left to be written, out of memory
 * too, so the output stays whole lines. True when it is to be added again, into the buffer
 * flushed empty: it did not fit beside the lines before it. One that fits no empty buffer fails
 * for good. */
static bool add_again(cli_output *out, size_t mark, core_rc *rc) {
  core_buf_cut(&out->buf, mark);
  return *rc == CORE_ETOOLONG && mark && (*rc = cli_output_flush(out)) == CORE_OK;
}

core_rc cli_output_url(cli_output *out, const char *url) {
  if (output_error(out))
    return CORE_ESYS;
  size_t mark = out->buf.len;
  core_rc rc = core_buf_add(&out->buf, url, strlen(url));
  if (!rc)
    rc = core_buf_addc(&out->buf, '\n');
  if (rc && add_again(out, mark, &rc))
    return cli_output_url(out, url);
  return rc ? rc : maybe_flush(out);
}

static core_rc add_str(struct core_buf *b, const char *s) {
  return core_buf_add(b, s, strlen(s));
}

/* code point cp as the JSON escape \uXXXX */
static core_rc add_json_escape(struct core_buf *b, unsigned cp) {
  static const char hex[] = "0123456789abcdef";
  char esc[6] = {'\\', 'u', hex[cp >> 12 & 15], hex[cp >> 8 & 15], hex[cp >> 4 & 15], hex[cp & 15]};
  return core_buf_add(b, esc, sizeof(esc));
}

/* A JSON string (RFC 8259): quotes, backslash and control characters escaped; bytes that are not
 * valid UTF-8 are replaced by U+FFFD so the line stays valid JSON. DEL, the C1 controls and the
 * line and paragraph separators are escaped too, though JSON allows them raw: a record shown on a
 * terminal cannot drive it, and a reader that splits lines at U+0085 or U+2028 (Python's
 * splitlines, a JavaScript source) still sees one record a line. */
static core_rc add_json_string(struct core_buf *b, const char *s) {
  core_rc rc = core_buf_addc(b, '"');
  const unsigned char *p = (const unsigned char *)s;
  while (*p && !rc) {
    unsigned char c = *p;
    if (c == '"' || c == '\\') {
      char esc[2] = {'\\', (char)c};
      rc = core_buf_add(b, esc, 2);
      p++;
    } else if (c < 0x20 || c == 0x7f) {
      rc = add_json_escape(b, c);
      p++;
    } else if (c < 0x80) {
      rc = core_buf_addc(b, (char)c);
      p++;
    } else {
      size_t n = core_utf8_char(p, 4);          /* the NUL ends a cut sequence */
      if (n == 2 && c == 0xc2 && p[1] < 0xa0) { /* U+0080 to U+009F */
        rc = add_json_escape(b, p[1]);
        p += n;
      } else if (n == 3 && c == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
        rc = add_json_escape(b, p[2] == 0xa8 ? 0x2028 : 0x2029);
        p += n;
      } else if (n) {
        rc = core_buf_add(b, p, n);
        p += n;
      } else {
        rc = add_str(b, "\\ufffd");
        p++;
      }
    }
  }
  return rc ? rc : core_buf_addc(b, '"');
}

core_rc cli_output_record(cli_output *out, const struct crawl_record *rec) {
  if (output_error(out))
    return CORE_ESYS;
  struct core_buf *b = &out->buf;
  size_t mark = b->len;
  char num[64];
  core_rc rc = add_str(b, "{\"url\":");
  rc = rc ? rc : add_json_string(b, rec->url);
  rc = rc ? rc : add_str(b, ",\"from\":");
  rc = rc ? rc : rec->from ? add_json_string(b, rec->from) : add_str(b, "null");
  rc = rc ? rc : add_str(b, ",\"via\":");
  rc = rc ? rc : rec->via ? add_json_string(b, rec->via) : add_str(b, "null");
  snprintf(num, sizeof(num), ",\"depth\":%d,\"fate\":", rec->depth);
  rc = rc ? rc : add_str(b, num);
  rc = rc ? rc : add_json_string(b, crawl_fate_name(rec->fate));
  if (!rc && rec->status) {
    snprintf(num, sizeof(num), ",\"status\":%ld,\"type\":", rec->status);
    rc = add_str(b, num);
    rc = rc ? rc : rec->type ? add_json_string(b, rec->type) : add_str(b, "null");
    snprintf(num, sizeof(num), ",\"bytes\":%llu,\"ms\":%.1f", (unsigned long long)rec->bytes,
             rec->ms);
    rc = rc ? rc : add_str(b, num);
  }
  if (!rc && rec->location) {
    rc = add_str(b, ",\"location\":");
    rc = rc ? rc : add_json_string(b, rec->location);
  }
  if (!rc && rec->error) {
    rc = add_str(b, ",\"error\":");
    rc = rc ? rc : add_json_string(b, rec->error);
  }
  if (!rc && rec->linked_known) {
    rc = add_str(b, ",\"linked_from\":[");
    for (size_t i = 0; i < rec->linked_from_n && !rc; i++) {
      rc = i ? core_buf_addc(b, ',') : CORE_OK;
      rc = rc ? rc : add_json_string(b, rec->linked_from[i]);
    }
    snprintf(num, sizeof(num), "],\"linked_from_count\":%llu",
             (unsigned long long)rec->linked_count);
    rc = rc ? rc : add_str(b, num);
  }
  if (!rc) { /* when the fate was settled: most records are written then, a failed one later */
    struct timespec now;
    struct tm utc;
    clock_gettime(CLOCK_REALTIME, &now);
    if (rec->settled > 0) {
      now.tv_sec = (time_t)rec->settled;
      now.tv_nsec = (long)((rec->settled - (double)now.tv_sec) * 1e9);
    }
    gmtime_r(&now.tv_sec, &utc);
    char stamp[64];
    strftime(stamp, sizeof(stamp), ",\"time\":\"%Y-%m-%dT%H:%M:%S", &utc);
    rc = add_str(b, stamp);
    snprintf(stamp, sizeof(stamp), ".%03ldZ\"", now.tv_nsec / 1000000);
    rc = rc ? rc : add_str(b, stamp);
  }
  rc = rc ? rc : add_str(b, "}\n");
  if (rc && add_again(out, mark, &rc))
    return cli_output_record(out, rec);
  return rc ? rc : maybe_flush(out);
}
