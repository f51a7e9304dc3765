/* Standard output as a pipe-friendly stream: whole lines, flushed after every turn of the loop,
 * so a reader sees each URL promptly. A reader that goes away (EPIPE) ends the crawl quietly; any
 * other write error (a full disk) is the caller's to report. */
#include "cli/cli-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUTPUT_FLUSH_AT (64 * 1024)
#define OUTPUT_MAX (16 * 1024 * 1024)

static const char *const fate_names[] = {
#define CLI_FATE_NAME(name, text) text,
    CLI_FATE_MAP(CLI_FATE_NAME)
#undef CLI_FATE_NAME
};

static const char *const cause_names[] = {
#define CLI_CAUSE_NAME(name, text) text,
    CLI_CAUSE_MAP(CLI_CAUSE_NAME)
#undef CLI_CAUSE_NAME
};

const char *cli_fate_name(cli_fate fate) {
  return fate < CLI_FATE_COUNT ? fate_names[fate] : "?";
}

const char *cli_cause_name(cli_cause cause) {
  return cause < CLI_CAUSE_COUNT ? cause_names[cause] : "?";
}

struct cli_output {
  int fd;
  const char *name;
  bool jsonl;
  int error; /* errno of the write that failed; nothing is written after one */
  cli_status *status;
  struct core_buf buf;
};

core_rc cli_output_create(int fd, const char *name, bool jsonl, cli_status *status,
                          cli_output **out) {
  cli_output *o = calloc(1, sizeof(*o));
  if (!o)
    return CORE_ENOMEM;
  o->fd = fd;
  o->name = name;
  o->jsonl = jsonl;
  o->status = status;
  core_buf_init(&o->buf, OUTPUT_MAX);
  *out = o;
  return CORE_OK;
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
  free(out);
}

bool cli_output_closed(const cli_output *out) {
  return out->error == EPIPE;
}

int cli_output_errno(const cli_output *out) {
  return out->error;
}

void cli_output_reader_gone(cli_output *out) {
  if (!out->error)
    out->error = EPIPE;
  core_buf_reset(&out->buf);
}

core_rc cli_output_flush(cli_output *out) {
  if (out->buf.len && !out->error && cli_status_shares_terminal(out->status))
    cli_status_hide(out->status); /* the URLs start at column 0, not after the status line */
  size_t done = 0;
  while (done < out->buf.len && !out->error) {
    ssize_t n = write(out->fd, out->buf.data + done, out->buf.len - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN) {
        /* a non-blocking reader's pipe is full: wait for it rather than drop lines */
        usleep(1000);
        continue;
      }
      out->error = errno ? errno : EIO;
      break;
    }
    done += (size_t)n;
  }
  core_buf_reset(&out->buf);
  cli_status_show(out->status);
  return out->error ? CORE_ESYS : CORE_OK;
}

static core_rc maybe_flush(cli_output *out) {
  return out->buf.len >= OUTPUT_FLUSH_AT ? cli_output_flush(out) : CORE_OK;
}

core_rc cli_output_url(cli_output *out, const char *url) {
  if (out->error)
    return CORE_ESYS;
  core_rc rc = core_buf_add(&out->buf, url, strlen(url));
  if (!rc)
    rc = core_buf_addc(&out->buf, '\n');
  if (rc == CORE_ETOOLONG && (rc = cli_output_flush(out)) == CORE_OK)
    return cli_output_url(out, url);
  return rc ? rc : maybe_flush(out);
}

static core_rc add_str(struct core_buf *b, const char *s) {
  return core_buf_add(b, s, strlen(s));
}

/* A JSON string (RFC 8259): quotes, backslash and control characters escaped; bytes that are not
 * valid UTF-8 are replaced by U+FFFD so the line stays valid JSON. */
static core_rc add_json_string(struct core_buf *b, const char *s) {
  static const char hex[] = "0123456789abcdef";
  core_rc rc = core_buf_addc(b, '"');
  const unsigned char *p = (const unsigned char *)s;
  while (*p && !rc) {
    unsigned char c = *p;
    if (c == '"' || c == '\\') {
      char esc[2] = {'\\', (char)c};
      rc = core_buf_add(b, esc, 2);
      p++;
    } else if (c < 0x20) {
      char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      rc = core_buf_add(b, esc, 6);
      p++;
    } else if (c < 0x80) {
      rc = core_buf_addc(b, (char)c);
      p++;
    } else {
      size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      size_t ok = n;
      for (size_t i = 1; i < n && ok; i++)
        if ((p[i] & 0xc0) != 0x80)
          ok = 0;
      if (ok) {
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

core_rc cli_output_record(cli_output *out, const struct cli_record *rec) {
  if (out->error)
    return CORE_ESYS;
  struct core_buf *b = &out->buf;
  size_t mark = b->len;
  char num[64];
  core_rc rc = add_str(b, "{\"url\":");
  rc = rc ? rc : add_json_string(b, rec->url);
  rc = rc ? rc : add_str(b, ",\"from\":");
  rc = rc ? rc : rec->from ? add_json_string(b, rec->from) : add_str(b, "null");
  snprintf(num, sizeof(num), ",\"depth\":%d,\"fate\":", rec->depth);
  rc = rc ? rc : add_str(b, num);
  rc = rc ? rc : add_json_string(b, cli_fate_name(rec->fate));
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
  rc = rc ? rc : add_str(b, "}\n");
  if (rc == CORE_ETOOLONG) {
    b->len = mark;
    if ((rc = cli_output_flush(out)) == CORE_OK)
      return cli_output_record(out, rec);
  }
  return rc ? rc : maybe_flush(out);
}
