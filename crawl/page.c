/* The page handler: a response's head decides what its body is (HTML, CSS, script, sitemap or
 * nothing to read), the body streams into the link extractor, and its end settles the URL. */
#include "crawl/fragments.h"
#include "crawl/life.h"
#include "crawl/intake.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/page.h"
#include "crawl/referrers.h"
#include "crawl/report.h"
#include "crawl/request.h"
#include "crawl/speculate.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static bool is_html_type(const char *type) {
  size_t n = strcspn(type, "; \t");
  return (n == 9 && strncasecmp(type, "text/html", 9) == 0) ||
         (n == 21 && strncasecmp(type, "application/xhtml+xml", 21) == 0);
}

/* A script's Content-Type (the HTML Standard's JavaScript MIME types that servers send). */
static bool is_js_type(const char *type) {
  static const char *const types[] = {"application/javascript", "text/javascript",
                                      "application/x-javascript", "application/ecmascript",
                                      "text/ecmascript"};
  size_t n = strcspn(type, "; \t");
  for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
    if (strlen(types[i]) == n && strncasecmp(type, types[i], n) == 0)
      return true;
  return false;
}

static bool is_css_type(const char *type) {
  size_t n = strcspn(type, "; \t");
  return n == 8 && strncasecmp(type, "text/css", 8) == 0;
}

/* A link in a fetched style sheet, or (--js) script: resolved against the file's own URL. */
static void on_css_event(void *arg, parse_event event, const char *value, size_t len) {
  struct request *rq = arg;
  if (crawl__life_stop(rq->shard) == STOP_NOW || event != PARSE_LINK)
    return;
  struct link_how how = {VIA_PAGE + (rq->css ? PARSE_VIA_CSS : PARSE_VIA_JS), !rq->nofollow};
  crawl__intake_offer_link(rq, &rq->url, value, len, NULL, rq->item->depth + 1, how);
}

/* The charset parameter of a Content-Type, copied into out ("" when absent). */
static void type_charset(const char *type, char *out, size_t size) {
  out[0] = '\0';
  const char *p = strcasestr(type, "charset=");
  if (!p)
    return;
  p += 8;
  if (*p == '"')
    p++;
  size_t n = strcspn(p, "\"; \t");
  if (n >= size)
    return;
  memcpy(out, p, n);
  out[n] = '\0';
}

/* Whether an href names the page it is on: empty, or a fragment alone ("#section"), once the
 * spaces a URL parser strips are gone. Against the page's own URL (no <base>), such a link is the
 * page, seen already; a third of the Python manual's links are, and each was resolved and looked
 * up for nothing. */
static bool names_this_page(const char *href, size_t len) {
  size_t i = 0;
  while (i < len && (unsigned char)href[i] <= 0x20)
    i++;
  return i == len || href[i] == '#';
}

/* A page writes the same link again and again: the Python manual's pages write 334 links each,
 * 88 of them to distinct URLs once fragments are dropped. A link written as one the page offered
 * already (the same text up to any '#', found the same way, resolved against the same base in
 * the same charset) resolves to the same URL, which that first offer settled: it was seen then,
 * or turned away for what it is, and the page's referrer is the same. So it is offered once; the
 * record of where a URL was found keeps the first place, as it did.
 *
 * What was offered is kept as a 64-bit hash in one of 256 slots, by the hash: a later link whose
 * slot holds another is offered again (no harm: it is settled), and two links of one page with
 * one hash are not expected (the seen filter itself is allowed 1e-7 false positives a URL). On
 * the Python manual this took a crawl's CPU a page down 4-6%; it costs no allocation, so a page
 * whose links are all distinct pays a hash a link. A request starts with none (it is zeroed
 * when made), and takes one HTML body. */
static void written_forget(struct request *rq) {
  memset(rq->written, 0, sizeof(rq->written));
}

/* Whether the page offered this link (text up to any '#', how) already; notes it if not. */
static bool written_before(struct request *rq, const char *value, size_t len, struct link_how how,
                           const char *charset) {
  const char *hash_mark = memchr(value, '#', len);
  size_t n = hash_mark ? (size_t)(hash_mark - value) : len;
  if (charset != rq->written_charset) { /* a <meta> switched it: what came before differs */
    written_forget(rq);
    rq->written_charset = charset;
  }
  uint64_t seed = (unsigned char)crawl__mail_how_code(how); /* one letter for each way found */
  uint64_t hash = XXH3_64bits_withSeed(value, n, seed) | 1; /* 0: a free slot */
  uint64_t *slot = &rq->written[(hash >> 1) % (sizeof(rq->written) / sizeof(rq->written[0]))];
  if (*slot == hash)
    return true;
  *slot = hash;
  return false;
}

/* --check-fragments: a page's anchors, at most this many (a page of more is not judged) */
#define ANCHORS_MAX (1u << 20)

static void keep_anchor(struct request *rq, const char *value, size_t len) {
  if (rq->anchors.lost)
    return;
  if (rq->anchors.count == ANCHORS_MAX) {
    rq->anchors.lost = true; /* more than a page's share: the page is not judged */
    return;
  }
  if (!core_array_room((void **)&rq->anchors.hash, &rq->anchors.cap, rq->anchors.count,
                       sizeof(*rq->anchors.hash), 64)) {
    crawl__notes_fatal(rq->shard,
                       "out of memory"); /* not a long page: the crawl would be another */
    rq->anchors.lost = true;
    return;
  }
  rq->anchors.hash[rq->anchors.count++] = crawl__fragments_hash(value, len);
}

/* --check-fragments: a link with a #fragment that is not offered (it names this page, or the
 * page offered its target already with another fragment), kept with its target resolved here;
 * an offered one is kept by crawl__intake_offer_link, which resolves it anyway. */
static void keep_fragment_link(struct request *rq, const struct url *base, const char *value,
                               size_t len, const char *charset, struct link_how how) {
  struct shard *c = rq->shard;
  const char *mark = memchr(value, '#', len);
  if (!mark)
    return;
  struct url target;
  if (url_resolve_in(base, value, (size_t)(mark - value), c->cfg->max_url_length, charset,
                     &target) != CORE_OK)
    return; /* no URL, another scheme: said for the link itself */
  crawl__fragments_of_link(rq, target.text, value, len, how);
  url_free(&target);
}

static void on_html_event(void *arg, parse_event event, const char *value, size_t len) {
  struct request *rq = arg;
  struct shard *c = rq->shard;
  if (crawl__life_stop(c) == STOP_NOW)
    return;
  switch (event) {
    case PARSE_ANCHOR:
      keep_anchor(rq, value, len);
      return;
    case PARSE_NOFOLLOW:
      rq->nofollow = true;
      return;
    case PARSE_BASE:
      if (rq->base.text) /* only the first counts */
        return;
      if (url_resolve_in(&rq->url, value, len, c->cfg->max_url_length, parse_html_charset(rq->html),
                         &rq->base) != CORE_OK)
        memset(&rq->base, 0, sizeof(rq->base));
      else
        written_forget(rq); /* the links before it were resolved against the page's URL */
      return;
    case PARSE_LINK: {
      const struct url *base = rq->base.text ? &rq->base : &rq->url;
      struct link_how how = {VIA_PAGE + parse_html_link_via(rq->html), !rq->nofollow};
      const char *charset = parse_html_charset(rq->html);
      if (!rq->base.text && names_this_page(value, len)) {
        if (c->cfg->check_fragments) /* the page itself: its URL is the target */
          crawl__fragments_of_link(rq, rq->url.text, value, len, how);
        return;
      }
      if (written_before(rq, value, len, how, charset)) {
        if (c->cfg->check_fragments)
          keep_fragment_link(rq, base, value, len, charset, how);
        return;
      }
      crawl__intake_offer_link(rq, base, value, len, charset, rq->item->depth + 1, how);
      return;
    }
  }
}

/* What a shard's pages may hold past PARSE_HTML_HOLD, all together (doc/behaviour.md, Memory):
 * a long page is held whole while the room is there, and parsed whole at its end, which costs
 * less than parsing it as it comes (measured on the Python manual, where pages of 256 KB to
 * 2.5 MB hold a third of the bytes: 9% of the parse). */
#define LONG_HOLD_ROOM (4u << 20)

/* The page's text will come to bytes (what came so far, or the length its head said): its hold
 * grows to that, in steps of PARSE_HTML_HOLD at least, while the shard's room lasts. When it does
 * not, the page is parsed as it comes from its next text on, and gives its room back. A page cut
 * at --max-size is held up to the cut. */
static void hold_up_to(struct request *rq, uint64_t bytes) {
  struct shard *c = rq->shard;
  if (bytes > c->cfg->max_size)
    bytes = c->cfg->max_size;
  if (rq->streams || bytes <= PARSE_HTML_HOLD + rq->long_hold)
    return;
  uint64_t want = bytes - PARSE_HTML_HOLD;
  if (want < rq->long_hold + PARSE_HTML_HOLD)
    want = rq->long_hold + PARSE_HTML_HOLD;
  if (crawl__request_hold_long(rq, (size_t)want, LONG_HOLD_ROOM)) {
    parse_html_hold(rq->html, PARSE_HTML_HOLD + rq->long_hold);
    return;
  }
  rq->streams = true;
  parse_html_hold(rq->html, 0); /* what it holds goes to libxml2 with the next text */
}

/* length: the body's, from its head, or -1 when unknown. */
static bool start_html(struct request *rq, const char *charset, int64_t length) {
  if (parse_html_create_in(crawl__request_html_pool(rq->shard), charset, on_html_event, rq,
                           &rq->html) !=
      CORE_OK) { /* memory alone: the page's links would be lost without a word */
    rq->html = NULL;
    crawl__notes_fatal(rq->shard, "out of memory");
    return false;
  }
  if (rq->shard->cfg->js)
    parse_html_scan_scripts(rq->html);
  if (rq->shard->cfg->check_fragments)
    parse_html_anchors(rq->html);
  if (length > 0) {
    hold_up_to(rq, (uint64_t)length);
    parse_html_expect(rq->html, (size_t)length);
  }
  return true;
}

static void feed_html(struct request *rq, const char *data, size_t len) {
  rq->html_bytes += len;
  hold_up_to(rq, rq->html_bytes);
  /* only memory fails (a bad byte decodes as U+FFFD): the page's later links would be lost */
  if (parse_html_feed(rq->html, data, len) != CORE_OK)
    crawl__notes_fatal(rq->shard, "out of memory");
}

/* A type that says nothing: the body's first bytes tell (the MIME Sniffing Standard's unknown
 * types), as wget and browsers do. */
static bool is_unknown_type(const char *type) {
  size_t n = strcspn(type, "; \t");
  return n == 0 || (n == 15 && strncasecmp(type, "unknown/unknown", 15) == 0) ||
         (n == 19 && strncasecmp(type, "application/unknown", 19) == 0) ||
         (n == 3 && strncmp(type, "*/*", 3) == 0);
}

/* The first bytes of a body of no known type are in: parsed as HTML if they look like it. */
static void sniffed(struct request *rq) {
  rq->sniffing = false;
  if (parse_html_sniff(rq->body.data, rq->body.len) && start_html(rq, NULL, -1))
    feed_html(rq, rq->body.data, rq->body.len);
  core_buf_reset(&rq->body);
}

static bool page_head(void *arg, const struct fetch_head *head) {
  struct request *rq = arg;
  rq->status = head->status;
  snprintf(rq->type, sizeof(rq->type), "%s", head->content_type ? head->content_type : "");
  rq->nofollow = head->nofollow;
  bool parse = head->status >= 200 && head->status < 300 && !(rq->item->flags & ITEM_HEAD);
  if (parse && is_unknown_type(rq->type)) {
    rq->sniffing = true; /* page_body decides */
    return true;
  }
  if (parse && is_css_type(head->content_type)) {
    if (parse_css_create(on_css_event, rq, &rq->css) != CORE_OK) {
      rq->css = NULL;
      crawl__notes_fatal(rq->shard, "out of memory");
      return false;
    }
    return true;
  }
  if (parse && rq->shard->cfg->js && is_js_type(head->content_type)) {
    if (parse_js_create(on_css_event, rq, &rq->js) != CORE_OK) { /* links as a sheet's */
      rq->js = NULL;
      crawl__notes_fatal(rq->shard, "out of memory");
      return false;
    }
    return true;
  }
  if (!parse || !is_html_type(head->content_type))
    return false;
  char charset[64];
  type_charset(head->content_type, charset, sizeof(charset));
  return start_html(rq, charset[0] ? charset : NULL, head->length);
}

static void page_body(void *arg, const char *data, size_t len) {
  struct request *rq = arg;
  if (rq->sniffing) {
    size_t take = PARSE_SNIFF_BYTES - rq->body.len;
    take = take < len ? take : len;
    if (core_buf_add(&rq->body, data, take) != CORE_OK) {
      crawl__notes_fatal(rq->shard, "out of memory"); /* the page would be sniffed on half of it */
      return;
    }
    if (rq->body.len < PARSE_SNIFF_BYTES)
      return;
    sniffed(rq);
    data += take;
    len -= take;
  }
  if (rq->html)
    feed_html(rq, data, len);
  else if (rq->css && parse_css_feed(rq->css, data, len) == CORE_ENOMEM)
    crawl__notes_fatal(rq->shard, "out of memory"); /* the sheet's later links would be lost */
  else if (rq->js)
    parse_js_feed(rq->js, data, len);
  crawl__intake_flush(rq);
}

static void page_done(void *arg, const struct fetch_result *res) {
  struct request *rq = arg;
  struct shard *c = rq->shard;
  struct frontier_item *item = rq->item;
  double now = core_now();
  crawl__request_ended(c);
  frontier_end(c->fr, rq->host, item, now, res->seconds);
  if (res->error == FETCH_ENOMEM) /* ends the crawl at once: the page is asked again */
    crawl__notes_fatal(c, "out of memory");
  if (crawl__request_cut_short(rq))
    return;
  if (res->error != FETCH_OK) {
    crawl__notes_verbose(c, "%s: %s", item->url, res->error_text);
    if (!(crawl__request_transient_error(res->error) && crawl__request_retry(c, rq, -1))) {
      crawl__speculate_adopt(c, rq); /* a failure ahead of the gate waits for its level too */
      crawl__report_item(c, item, CRAWL_FATE_FAILED, crawl__request_cause_of(res->error),
                         res->error_text);
    }
    crawl__request_free(rq);
    return;
  }
  c->stats->pages++;
  c->stats->bytes += res->bytes;
  /* a body cut at --max-size ends in the middle of something: finishing would hand over the
   * half of a tag or url() as if it were whole (a made-up link), so what was cut is dropped */
  if (rq->sniffing) /* a body of no known type, shorter than what is sniffed */
    sniffed(rq);
  if (rq->html) { /* only memory fails: its links would be lost to the run, as any lack of it */
    if ((res->truncated ? parse_html_cut(rq->html) : parse_html_finish(rq->html)) != CORE_OK)
      crawl__notes_fatal(c, "out of memory");
  } else if (rq->css && !res->truncated) {
    if (parse_css_finish(rq->css) == CORE_ENOMEM)
      crawl__notes_fatal(c, "out of memory");
  } else if (rq->js && !res->truncated)
    parse_js_finish(rq->js);
  crawl__intake_flush(rq);
  long status = res->head.status;
  bool head = (item->flags & (ITEM_HEAD | ITEM_GET)) == ITEM_HEAD;
  crawl__notes_verbose(c, "%s%s -> %ld %s %llu B %.0f ms%s%s", head ? "HEAD " : "", item->url,
                       status, rq->type[0] ? rq->type : "-", (unsigned long long)res->bytes,
                       res->seconds * 1000, res->truncated ? " (cut)" : "",
                       rq->html && parse_html_outgrew(rq->html) ? " (parsed as it came)" : "");
  if (crawl__request_transient_status(status) &&
      crawl__request_retry(c, rq, res->head.retry_after)) {
    crawl__request_free(rq);
    return;
  }
  if (head && (status == 405 || status == 501) && !crawl__life_stop(c)) {
    /* a server that refuses HEAD is asked with GET, in the link's next turn on its host */
    item->flags |= ITEM_GET;
    frontier_push(c->fr, rq->host, item);
    rq->item = NULL;
    crawl__request_free(rq);
    return;
  }
  struct crawl_record rec = {.url = item->url,
                             .from = item->from,
                             .depth = item->depth,
                             .fate = CRAWL_FATE_FETCHED,
                             .status = status,
                             .type = rq->type[0] ? rq->type : NULL,
                             .bytes = res->bytes,
                             .ms = res->seconds * 1000};
  char error[96];
  if (status >= 400 || status < 100) {
    crawl__request_http_error(c, status, res->head.retry_after, error, sizeof(error));
    rec.fate = CRAWL_FATE_FAILED;
    rec.cause = CRAWL_CAUSE_HTTP;
    rec.error = error;
  }
  /* a redirect's record names its target, which is then offered like a link */
  struct url target = {0};
  bool redirect = status >= 300 && status < 400 && res->head.location &&
                  crawl__intake_resolve_href(c, &rq->url, res->head.location,
                                             strlen(res->head.location), NULL, item->url, &target);
  rec.location = redirect ? target.text : NULL;
  if (redirect) /* its target is a link found there (doc/behaviour.md, Records) */
    crawl__referrers_link(rq, target.text);
  crawl__speculate_adopt(c, rq); /* ahead of the gate: its record waits for its level */
  crawl__report(c, item->flags, &rec);
  /* its anchors, for the links to it with a fragment: a page whole, of a response that is one */
  if (c->cfg->check_fragments && rq->html && !res->truncated && !rq->anchors.lost &&
      status >= 200 && status < 300 &&
      crawl__fragments_page(crawl__mesh_fragments(c->run), item->url, rq->anchors.hash,
                            rq->anchors.count) != CORE_OK)
    crawl__notes_fatal(c, "out of memory");
  /* its target remembers what kind of address sent it there (crawl__request_start checks) */
  struct link_how how = {(unsigned char)(VIA_REDIRECT + rq->addr_kind), true};
  if (redirect && (item->flags & ITEM_SPEC))
    crawl__speculate_keep_redirect(c, item->url, target.text, item->redirects + 1, how);
  else if (redirect)
    crawl__intake_offer(c, &target, item->url, item->depth, item->redirects + 1, OFFER_REDIRECT,
                        how);
  url_free(&target);
  crawl__request_free(rq);
}

const struct fetch_handler crawl__page_handler = {page_head, page_body, page_done};
