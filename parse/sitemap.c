/* Sitemaps (sitemaps.org): <urlset> and <sitemapindex> files, plain or gzipped, parsed as they
 * stream in with libxml2's SAX push parser and zlib, so memory stays flat whatever their size.
 * The protocol's limits (50,000 URLs, 50 MB uncompressed) are enforced. */
#include "parse/parse.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_LOC 8192 /* a <loc> longer than this is no URL we would keep */

struct parse_sitemap {
  xmlParserCtxtPtr ctxt;
  parse_sitemap_cb cb;
  void *arg;
  enum { START, PLAIN, GZIP } format;
  z_stream z;
  bool z_ready;
  bool in_loc;
  bool in_url;     /* inside <url> */
  bool in_sitemap; /* inside <sitemap> */
  bool loc_too_long;
  bool out_of_memory; /* a <loc> could not be kept: the parse stops, and says why */
  struct core_buf loc;
  size_t count;
  uint64_t bytes; /* uncompressed */
  bool stopped;
  /* The first error libxml2 met, for -v: a sitemap that yields fewer entries than its author
   * meant (a cut file, a tag closed by another's name, an entity past libxml2's bound) says
   * why. */
  int error_line; /* 0: none yet */
  char error[160];
};

/* Namespaces and prefixes vary ("sm:loc"): compare local names. */
static const char *local_name(const xmlChar *name) {
  const char *n = (const char *)name;
  const char *colon = strrchr(n, ':');
  return colon ? colon + 1 : n;
}

static void on_start(void *ctx, const xmlChar *name, const xmlChar **atts) {
  xmlParserCtxtPtr ctxt = ctx;
  struct parse_sitemap *sm = ctxt->_private;
  const char *n = local_name(name);
  if (strcmp(n, "url") == 0) {
    sm->in_url = true;
  } else if (strcmp(n, "sitemap") == 0) {
    sm->in_sitemap = true;
  } else if (strcmp(n, "loc") == 0 && (sm->in_url || sm->in_sitemap)) {
    sm->in_loc = true;
    sm->loc_too_long = false;
    core_buf_reset(&sm->loc);
  }
}

static void on_chars(void *ctx, const xmlChar *ch, int len) {
  xmlParserCtxtPtr ctxt = ctx;
  struct parse_sitemap *sm = ctxt->_private;
  if (!sm->in_loc || sm->loc_too_long)
    return;
  core_rc rc = core_buf_add(&sm->loc, ch, (size_t)len);
  if (rc == CORE_ETOOLONG) {
    sm->loc_too_long = true;
  } else if (rc == CORE_ENOMEM) { /* not a long <loc>: the entries after it would be lost */
    sm->out_of_memory = true;
    xmlStopParser(ctxt);
  }
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void on_end(void *ctx, const xmlChar *name) {
  xmlParserCtxtPtr ctxt = ctx;
  struct parse_sitemap *sm = ctxt->_private;
  const char *n = local_name(name);
  if (strcmp(n, "loc") == 0 && sm->in_loc) {
    sm->in_loc = false;
    char *p = sm->loc.data ? sm->loc.data : "";
    size_t len = sm->loc.len;
    while (len && is_space(*p)) {
      p++;
      len--;
    }
    while (len && is_space(p[len - 1]))
      p[--len] = '\0';
    if (!len || sm->loc_too_long || sm->stopped)
      return;
    if (sm->count >= PARSE_SITEMAP_MAX_URLS) {
      sm->stopped = true;
      return;
    }
    sm->count++;
    sm->cb(sm->arg, sm->in_url ? PARSE_SITEMAP_URL : PARSE_SITEMAP_INDEX, p);
  } else if (strcmp(n, "url") == 0) {
    sm->in_url = false;
  } else if (strcmp(n, "sitemap") == 0) {
    sm->in_sitemap = false;
  }
}

/* A sitemap with errors still yields the entries before them (XML_PARSE_RECOVER); the first
 * error is kept to be told. */
static void on_error(void *arg, const xmlError *e) {
  struct parse_sitemap *sm = arg;
  if (sm->error_line || e->level < XML_ERR_ERROR)
    return;
  const char *msg = e->message ? e->message : "malformed";
  size_t n = strcspn(msg, "\n");
  const char *see = strstr(msg, ", see "); /* a pointer to libxml2's API, no help to a user */
  if (see && (size_t)(see - msg) < n)
    n = (size_t)(see - msg);
  if (n >= sizeof(sm->error))
    n = sizeof(sm->error) - 1;
  memcpy(sm->error, msg, n);
  sm->error[n] = '\0';
  sm->error_line = e->line > 0 ? e->line : 1;
}

core_rc parse_sitemap_create(parse_sitemap_cb cb, void *arg, parse_sitemap **out) {
  struct parse_sitemap *sm = calloc(1, sizeof(*sm));
  if (!sm)
    return CORE_ENOMEM;
  xmlSAXHandler sax;
  memset(&sax, 0, sizeof(sax));
  sax.startElement = on_start;
  sax.endElement = on_end;
  sax.characters = on_chars;
  sax.cdataBlock = on_chars;
  sm->ctxt = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
  if (!sm->ctxt) {
    free(sm);
    return CORE_ENOMEM;
  }
  /* no network, no external entities, no entity expansion bombs; errors to on_error alone */
  xmlCtxtUseOptions(sm->ctxt,
                    XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_RECOVER | XML_PARSE_NOCDATA);
  xmlCtxtSetErrorHandler(sm->ctxt, on_error, sm);
  sm->ctxt->_private = sm;
  sm->cb = cb;
  sm->arg = arg;
  core_buf_init(&sm->loc, MAX_LOC);
  *out = sm;
  return CORE_OK;
}

/* libxml2 stops a document whose allocation failed as it stops a malformed one: the difference
 * is the error it keeps, and it decides whether the crawl can go on (the entries after it would
 * be lost without a word). */
static bool ran_out(const struct parse_sitemap *sm) {
  return sm->out_of_memory || (sm->ctxt && sm->ctxt->errNo == XML_ERR_NO_MEMORY);
}

/* Hands XML to libxml2, up to the size limit. */
static core_rc feed_xml(struct parse_sitemap *sm, const char *data, size_t len) {
  if (sm->stopped)
    return CORE_ETOOLONG;
  if (len > PARSE_SITEMAP_MAX_BYTES - sm->bytes) {
    len = (size_t)(PARSE_SITEMAP_MAX_BYTES - sm->bytes);
    sm->stopped = true;
  }
  sm->bytes += len;
  while (len) {
    int n = len > (1u << 20) ? (1 << 20) : (int)len;
    xmlParseChunk(sm->ctxt, data, n, 0);
    if (ran_out(sm))
      return CORE_ENOMEM;
    data += n;
    len -= (size_t)n;
  }
  return sm->stopped ? CORE_ETOOLONG : CORE_OK;
}

core_rc parse_sitemap_feed(parse_sitemap *sm, const char *data, size_t len) {
  if (!len)
    return CORE_OK;
  if (sm->format == START) {
    /* gzip's magic bytes; a first chunk of one byte is taken as plain XML (it cannot be gzip) */
    bool gz = len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
    sm->format = gz ? GZIP : PLAIN;
    if (gz) {
      if (inflateInit2(&sm->z, 15 + 32) != Z_OK)
        return CORE_ENOMEM;
      sm->z_ready = true;
    }
  }
  if (sm->format == PLAIN)
    return feed_xml(sm, data, len);
  unsigned char out[16384];
  sm->z.next_in = (unsigned char *)data;
  sm->z.avail_in = (uInt)len;
  while (sm->z.avail_in && !sm->stopped) {
    sm->z.next_out = out;
    sm->z.avail_out = sizeof(out);
    int zr = inflate(&sm->z, Z_NO_FLUSH);
    size_t produced = sizeof(out) - sm->z.avail_out;
    core_rc rc = produced ? feed_xml(sm, (const char *)out, produced) : CORE_OK;
    if (rc)
      return rc;
    if (zr == Z_STREAM_END)
      break;
    if (zr == Z_MEM_ERROR)
      return CORE_ENOMEM;
    if (zr != Z_OK && zr != Z_BUF_ERROR)
      return CORE_EFORMAT; /* corrupt gzip: what came before it is kept */
  }
  return sm->stopped ? CORE_ETOOLONG : CORE_OK;
}

core_rc parse_sitemap_finish(parse_sitemap *sm) {
  xmlParseChunk(sm->ctxt, NULL, 0, 1);
  return ran_out(sm) ? CORE_ENOMEM : CORE_OK;
}

size_t parse_sitemap_count(const parse_sitemap *sm) {
  return sm->count;
}

bool parse_sitemap_truncated(const parse_sitemap *sm) {
  return sm->stopped;
}

const char *parse_sitemap_error(const parse_sitemap *sm, int *line) {
  if (!sm->error_line)
    return NULL;
  *line = sm->error_line;
  return sm->error;
}

void parse_sitemap_destroy(parse_sitemap *sm) {
  if (!sm)
    return;
  if (sm->ctxt) {
    if (sm->ctxt->myDoc)
      xmlFreeDoc(sm->ctxt->myDoc);
    xmlFreeParserCtxt(sm->ctxt);
  }
  if (sm->z_ready)
    inflateEnd(&sm->z);
  core_buf_free(&sm->loc);
  free(sm);
}
