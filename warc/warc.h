/* warc: WARC/1.1 files (ISO 28500:2017): a warcinfo record, then a request and a response record
 * for each exchange, with SHA-1 digests in base32; each record its own gzip member when asked. */
#ifndef CRAWL_WARC_H
#define CRAWL_WARC_H

#include "core/core.h"

typedef struct warc_writer warc_writer;

/* Opens path for writing records: a new file (truncated) or, with append, after what it holds,
 * first cut back to keep bytes when it is longer (the part a crash left after the last
 * checkpoint; UINT64_MAX keeps everything). gzip: each record a gzip member of its own.
 * owner_only: the file is made mode 0600 (an archive of pages behind a login). */
core_rc warc_open(const char *path, bool append, uint64_t keep, bool gzip, bool owner_only,
                  warc_writer **out, char *why, size_t why_size);
/* Flushes nothing (records are written whole, one write each) and closes; CORE_ESYS when the
 * last writes or the close failed. */
core_rc warc_close(warc_writer *w);

/* The warcinfo record: fields are "name: value\r\n" lines. */
core_rc warc_write_info(warc_writer *w, const char *fields);

struct warc_exchange {
  const char *url;
  const char *ip; /* "" when unknown */
  const char *request;
  size_t request_len;
  const char *response;
  size_t response_len; /* the head, ending in its blank line */
  const char *body;
  size_t body_len;
  bool chunked;   /* the head says Transfer-Encoding: chunked: the body is written as one chunk */
  bool truncated; /* cut at a size limit (WARC-Truncated: length) */
};
/* A response record and the request record that goes with it. The request record leaves out the
 * values of Authorization, Proxy-Authorization and Cookie, and names the headers it left them out
 * of in a WARC-Redacted-Headers field. */
core_rc warc_write_exchange(warc_writer *w, const struct warc_exchange *x);

/* Makes what is written durable (fsync) and gives the file's length. */
core_rc warc_sync(warc_writer *w, uint64_t *length);
/* errno of the write that failed, 0 for none. */
int warc_errno(const warc_writer *w);

#endif
