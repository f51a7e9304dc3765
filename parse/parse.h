/* parse: link extraction from HTML as it streams in (libxml2's push parser) and from CSS,
 * robots.txt (RFC 9309) and sitemaps. Mechanisms only: what to fetch next is the frontier's and the
 * crawler's business. */
#ifndef CRAWL_PARSE_H
#define CRAWL_PARSE_H

#include "core/core.h"

/* ---- HTML ---- */
typedef enum {
  PARSE_LINK,     /* a URL reference to resolve against the current base */
  PARSE_BASE,     /* the document's first <base href>: later links resolve against it */
  PARSE_NOFOLLOW, /* <meta name="robots" content="nofollow">: links are printed, not followed */
  PARSE_ANCHOR    /* (parse_html_anchors) an element's id, or an <a>'s name: a fragment's target */
} parse_event;

/* value is borrowed for the duration of the call and is not NUL-terminated. */
typedef void (*parse_html_cb)(void *arg, parse_event event, const char *value, size_t len);

/* Where a link was found: the element whose attribute held it, a <meta> refresh, a GET form's
 * action, or a style sheet or a script (inside a page or fetched on its own). Values are only
 * ever appended: saved crawls keep them as numbers. */
typedef enum {
  PARSE_VIA_A,
  PARSE_VIA_AREA,
  PARSE_VIA_LINK,
  PARSE_VIA_FRAME,
  PARSE_VIA_IFRAME,
  PARSE_VIA_IMG,
  PARSE_VIA_SCRIPT,
  PARSE_VIA_EMBED,
  PARSE_VIA_SOURCE,
  PARSE_VIA_AUDIO,
  PARSE_VIA_VIDEO,
  PARSE_VIA_TRACK,
  PARSE_VIA_OBJECT,
  PARSE_VIA_FORM,
  PARSE_VIA_REFRESH,
  PARSE_VIA_CSS,
  PARSE_VIA_JS,
  PARSE_VIA_CITE, /* the source a blockquote, q, del or ins cites */
  PARSE_VIA_COUNT
} parse_via;
/* Its name in records: the element's ("a", "img"), "refresh", "css", "js" or "cite". */
const char *parse_via_name(parse_via via);

typedef struct parse_html parse_html;
/* charset is the HTTP header's declared character set, or NULL to let the document say
 * (<meta charset>, BOM; UTF-8 otherwise). */
core_rc parse_html_create(const char *charset, parse_html_cb cb, void *arg, parse_html **out);
/* The parser's state kept from one page to the next, so that a page does not build it anew. A
 * pool belongs to one thread, and outlives every parse_html made in it. */
typedef struct parse_html_pool parse_html_pool;
core_rc parse_html_pool_create(parse_html_pool **out);
/* Called first in each thread that parses: makes the parsers' state for the thread, which they
 * would otherwise make on first use and abort the process if memory ran out then. */
core_rc parse_thread_begin(void);
void parse_html_pool_destroy(parse_html_pool *pool);
/* parse_html_create, with the parser taken from pool (NULL: a parser of its own). */
core_rc parse_html_create_in(parse_html_pool *pool, const char *charset, parse_html_cb cb,
                             void *arg, parse_html **out);
/* Feeds the next chunk of the body. */
core_rc parse_html_feed(parse_html *html, const char *data, size_t len);
/* The character set the document is being decoded from (from the HTTP header, a BOM or
 * <meta charset>), or NULL for UTF-8. Borrowed until parse_html_destroy. */
const char *parse_html_charset(const parse_html *html);
/* Where the PARSE_LINK being delivered was found; asked from inside the callback. */
parse_via parse_html_link_via(const parse_html *html);
/* --js: the text of inline scripts is scanned too (parse_js). Before the first feed. */
void parse_html_scan_scripts(parse_html *html);
/* --check-fragments: every id attribute, and the name of each <a>, comes as a PARSE_ANCHOR.
 * Before the first feed. */
void parse_html_anchors(parse_html *html);
/* Ends the document: remaining events are delivered. A page of up to PARSE_HTML_HOLD bytes of
 * text is held until then and parsed whole, which is faster; a longer one is parsed as it
 * comes, its events delivered from inside parse_html_feed. CORE_ENOMEM when memory ran out (the
 * rest of the page's events are lost). */
core_rc parse_html_finish(parse_html *html);
#define PARSE_HTML_HOLD (256 * 1024)
/* How much is held (0: nothing, every chunk is parsed as it comes). Before the first feed, or
 * later: raised while the page has not outgrown it, or lowered, and then the next feed parses
 * what is held and the page is parsed as it comes from there. */
void parse_html_hold(parse_html *html, size_t bytes);
/* Whether the page outgrew its hold and was parsed as it came, not whole at its end. */
bool parse_html_outgrew(const parse_html *html);
/* The body's length, when the server said it: a page that fits the hold is given its room at
 * once, not grown to it. Before the first feed, after parse_html_hold. */
void parse_html_expect(parse_html *html, size_t length);
/* The body was cut short (--max-size): what is held is parsed as far as a stream cut there would
 * be, the half tag at its end dropped rather than finished into a made-up link. */
core_rc parse_html_cut(parse_html *html);
void parse_html_destroy(parse_html *html);

/* Whether a body served with no known type is HTML, by its first bytes (at most
 * PARSE_SNIFF_BYTES): the MIME Sniffing Standard's rules for an unknown type, white space and then
 * a tag that starts HTML ("<!DOCTYPE HTML", "<html", "<body", "<p", "<!--"...) ended by a space or
 * '>'. A UTF-8 byte order mark before it is passed over. */
#define PARSE_SNIFF_BYTES 512
bool parse_html_sniff(const char *data, size_t len);

/* Extracts the URL of a <meta http-equiv="refresh"> content value ("5; url=/next"). Sets *url and
 * *len to a slice of content; returns false when there is none. */
bool parse_refresh_url(const char *content, const char **url, size_t *len);

/* ---- CSS ---- */
/* Links in a style sheet, a <style> element or a style attribute: url() and @import (CSS Syntax
 * Level 3; comments and strings skipped, escapes decoded), each given to cb as PARSE_LINK. Fed in
 * chunks of any size; only the URL being read is kept (at most 8 KiB, longer ones dropped). */
typedef struct parse_css parse_css;
core_rc parse_css_create(parse_html_cb cb, void *arg, parse_css **out);
core_rc parse_css_feed(parse_css *css, const char *data, size_t len);
/* Ends the sheet: a URL still open at its end is given. */
core_rc parse_css_finish(parse_css *css);
void parse_css_destroy(parse_css *css);
/* The same for a whole text at once (a style attribute). */
core_rc parse_css_scan(const char *text, size_t len, parse_html_cb cb, void *arg);

/* ---- JavaScript (--js) ---- */
/* URLs and paths in the string literals of a script (parse/js.c says which), each given to cb
 * as PARSE_LINK; comments, regular expressions and template substitutions are skipped. Fed in
 * chunks of any size. */
typedef struct parse_js parse_js;
core_rc parse_js_create(parse_html_cb cb, void *arg, parse_js **out);
core_rc parse_js_feed(parse_js *js, const char *data, size_t len);
core_rc parse_js_finish(parse_js *js);
void parse_js_destroy(parse_js *js);

/* ---- Sitemaps (sitemaps.org protocol) ---- */
#define PARSE_SITEMAP_MAX_URLS 50000               /* per sitemap file */
#define PARSE_SITEMAP_MAX_BYTES (50 * 1024 * 1024) /* uncompressed, per sitemap file */

typedef enum {
  PARSE_SITEMAP_URL,  /* <urlset><url><loc> */
  PARSE_SITEMAP_INDEX /* <sitemapindex><sitemap><loc>: another sitemap */
} parse_sitemap_event;

/* loc is borrowed for the call, NUL-terminated, surrounding white space removed. */
typedef void (*parse_sitemap_cb)(void *arg, parse_sitemap_event event, const char *loc);

typedef struct parse_sitemap parse_sitemap;
core_rc parse_sitemap_create(parse_sitemap_cb cb, void *arg, parse_sitemap **out);
/* Feeds the next chunk: XML, or gzip-compressed XML (recognised by its magic bytes). Past the
 * protocol's limits the rest is ignored and CORE_ETOOLONG returned; CORE_EFORMAT for corrupt
 * gzip data, CORE_ENOMEM when memory ran out (then, and only then, entries were lost). */
core_rc parse_sitemap_feed(parse_sitemap *sitemap, const char *data, size_t len);
/* The end of the document: CORE_ENOMEM when memory ran out, else CORE_OK. */
core_rc parse_sitemap_finish(parse_sitemap *sitemap);
/* How many <loc> entries were reported, and whether a limit cut the file. */
size_t parse_sitemap_count(const parse_sitemap *sitemap);
bool parse_sitemap_truncated(const parse_sitemap *sitemap);
/* The first error in the XML (libxml2's words) and its line, or NULL where there was none. */
const char *parse_sitemap_error(const parse_sitemap *sitemap, int *line);
void parse_sitemap_destroy(parse_sitemap *sitemap);

/* ---- robots.txt (RFC 9309) ---- */
#define PARSE_ROBOTS_MAX_BYTES (500 * 1024) /* the parse limit of RFC 9309, section 2.5 */

typedef struct parse_robots parse_robots;
/* Parses the first PARSE_ROBOTS_MAX_BYTES of text and keeps the rules of the groups that apply to
 * product_token (case-insensitively), or of the "*" groups when none names it. */
core_rc parse_robots_create(const char *text, size_t len, const char *product_token,
                            parse_robots **out);
/* path is the URL's path and query ("/a/b?c"); /robots.txt itself is always allowed. A check
 * that would look at more than PARSE_ROBOTS_WORK_MAX bytes of the path in all (only a file made
 * to be costly: thousands of long wildcard rules that each nearly match) stops there and calls
 * the URL disallowed. */
#define PARSE_ROBOTS_WORK_MAX (1u << 20)
bool parse_robots_allowed(const parse_robots *robots, const char *path);
/* The same, with lack of memory said (CORE_ENOMEM, *allowed false) where parse_robots_allowed
 * calls the URL disallowed: a crawl must not take it for a rule. */
core_rc parse_robots_check(const parse_robots *robots, const char *path, bool *allowed);
/* Crawl-delay of the applicable group in seconds, or a negative number when it has none. */
double parse_robots_crawl_delay(const parse_robots *robots);
size_t parse_robots_sitemap_count(const parse_robots *robots);
/* Borrowed until parse_robots_destroy. */
const char *parse_robots_sitemap(const parse_robots *robots, size_t index);
/* The same rules without the Sitemap lines, once they have been read: robots is freed and the
 * copy returned (robots itself, as it is, when memory runs out). A crawl of many hosts keeps one
 * for each. */
parse_robots *parse_robots_without_sitemaps(parse_robots *robots);
/* The rules and Crawl-delay (not the Sitemap lines) as bytes appended to out, and rules made
 * again from such bytes: a crawl of many hosts keeps an idle host's rules on disk, not in memory
 * (doc/design.md, Memory). load answers CORE_EFORMAT for bytes save did not write. */
core_rc parse_robots_save(const parse_robots *robots, struct core_buf *out);
core_rc parse_robots_load(const void *data, size_t len, parse_robots **out);
/* One more user of robots, which stays until the last of them destroys it: hosts whose robots.txt
 * says the same share one copy. The count is not atomic: the users are of one thread. */
parse_robots *parse_robots_share(parse_robots *robots);
void parse_robots_destroy(parse_robots *robots);

/* The product token of a User-Agent value: its leading run of letters, '_' and '-' ("Foo Bar/1.0"
 * gives "Foo"). Caller frees; NULL when there is no such run. */
char *parse_product_token(const char *user_agent);

#endif
