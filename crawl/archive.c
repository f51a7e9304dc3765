/* --warc FILE: every exchange the crawl makes, robots.txt and sitemaps included, as WARC/1.1
 * records (warc/). The engine hands each one over as it went over the wire (fetch_engine_capture).
 * A --state crawl that continues appends, after cutting the file back to its length at the last
 * checkpoint: the exchanges after it are made again. */
#include "crawl/archive.h"
#include "crawl/life.h"
#include "crawl/logins.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A shard's --warc file: its own, or the first shard's (shared, which that one closes). */
struct shard_archive {
  warc_writer *writer;
  bool shared;
};

static void archive(void *arg, const struct fetch_capture *x) {
  struct shard *c = arg;
  if (!c->archive || crawl__life_fatal(c))
    return;
  struct warc_exchange e = {x->url,          x->ip,   x->request,  x->request_len, x->response,
                            x->response_len, x->body, x->body_len, x->chunked,     x->truncated};
  crawl__mesh_warc_lock(c->run); /* one exchange's two records stay together */
  core_rc rc = warc_write_exchange(c->archive->writer, &e);
  int err = warc_errno(c->archive->writer);
  crawl__mesh_warc_unlock(c->run);
  if (rc == CORE_ESYS)
    crawl__notes_fatal(c, "cannot write '%s': %s", c->cfg->warc_file, strerror(err));
  else if (rc == CORE_ENOMEM)
    crawl__notes_fatal(c, "out of memory");
  /* CORE_EINVAL: a URL no header can hold; curl sends no such request */
}

/* Whether the crawl sends credentials (doc/network.md, WARC): its archive then holds pages
 * behind them, and is made for its owner alone. */
static bool carries_logins(const struct crawl_config *cfg) {
  return crawl__logins_needed(cfg) || cfg->load_cookies ||
         (cfg->proxy_http && strchr(cfg->proxy_http, '@')) ||
         (cfg->proxy_https && strchr(cfg->proxy_https, '@'));
}

core_rc crawl__archive_open(struct shard *c, uint64_t keep) {
  const struct crawl_config *cfg = c->cfg;
  if (!cfg->warc_file)
    return CORE_OK;
  size_t len = strlen(cfg->warc_file);
  bool gzip = len > 3 && strcmp(cfg->warc_file + len - 3, ".gz") == 0;
  char why[256] = "";
  /* a --state crawl syncs the file at each checkpoint and, continued, cuts it back to its length
   * then: a pipe or a device has neither (warc.c writes one as it comes, for any other crawl) */
  struct stat st;
  if (cfg->state_dir && stat(cfg->warc_file, &st) == 0 && !S_ISREG(st.st_mode)) {
    crawl__notes_fatal(c,
                       "--warc '%s': not a regular file, which --state needs (a continued crawl "
                       "cuts it back to its last checkpoint)",
                       cfg->warc_file);
    return CORE_EINVAL;
  }
  if (!(c->archive = calloc(1, sizeof(*c->archive)))) {
    crawl__notes_fatal(c, "out of memory");
    return CORE_ENOMEM;
  }
  core_rc rc = warc_open(cfg->warc_file, cfg->state_resume, keep, gzip, carries_logins(cfg),
                         &c->archive->writer, why, sizeof(why));
  if (rc) {
    crawl__notes_fatal(c, "--warc '%s': %s", cfg->warc_file, why);
    return rc;
  }
  const curl_version_info_data *curl = curl_version_info(CURLVERSION_NOW);
  char fields[1024];
  snprintf(fields, sizeof(fields),
           "software: crawl/%s (libcurl %s)\r\nformat: WARC File Format 1.1\r\n"
           "conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/"
           "warc-1.1/\r\nrobots: %s\r\nhttp-header-user-agent: %s\r\n",
           CRAWL_VERSION, curl->version, cfg->robots ? "obey" : "ignore", cfg->user_agent);
  rc = warc_write_info(c->archive->writer, fields);
  if (rc) {
    crawl__notes_fatal(c, "cannot write '%s': %s", cfg->warc_file,
                       rc == CORE_ESYS ? strerror(warc_errno(c->archive->writer))
                                       : "out of memory");
    return rc;
  }
  fetch_engine_capture(c->engine, archive, c);
  return CORE_OK;
}

void crawl__archive_share(struct shard *first, struct shard *c) {
  if (!first->archive || !first->archive->writer)
    return;
  if (!(c->archive = calloc(1, sizeof(*c->archive)))) {
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  c->archive->writer = first->archive->writer;
  c->archive->shared = true;
  fetch_engine_capture(c->engine, archive, c);
}

bool crawl__archive_kept(struct shard *c, uint64_t *bytes) {
  return c->archive && c->archive->writer && warc_sync(c->archive->writer, bytes) == CORE_OK;
}

void crawl__archive_close(struct shard *c) {
  struct shard_archive *a = c->archive;
  c->archive = NULL;
  warc_writer *writer = a && !a->shared ? a->writer : NULL;
  free(a);
  if (!writer)
    return;
  int err = warc_errno(writer);
  core_rc rc = warc_close(writer);
  if (rc && !crawl__life_fatal(c))
    crawl__notes_fatal(c, "cannot write '%s': %s", c->cfg->warc_file, strerror(err ? err : errno));
}
