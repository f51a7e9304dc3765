/* Link extraction with libxml2's HTML push parser and SAX callbacks: no tree is built, so memory
 * stays flat however large the page. */
#include "parse/parse.h"

#include "parse/decode.h"
#include "parse/parse-int.h"

#include <ctype.h>
#include <libxml/HTMLparser.h>
#include <libxml/threads.h>
#include <libxml/parserInternals.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The encoding is decided on the first bytes, as the HTML Standard's encoding sniffing does: a
 * BOM; else the Content-Type's charset; else a <meta> charset within them (the prescan); else
 * UTF-8 when they are valid UTF-8, windows-1252 when not (libxml2 alone took a page with no
 * declaration for Latin-1, which mangled UTF-8 paths and IDN hosts). A page not in UTF-8 is
 * decoded here (parse/decode.c) and libxml2 is told its input is UTF-8, so it neither reads a
 * <meta> of its own nor stops the page at a byte its decoder does not know. */
#define SNIFF_BYTES 1024

/* Parser contexts kept for the next page of a thread (parse_html_pool_create). Made anew, a
 * context and its dictionary of names cost a page 3 to 4% of a crawl's CPU (measured on the html
 * web, crawl -j 1): its allocations, and every element and attribute name hashed into a fresh
 * dictionary. A context is kept only while its dictionary is small: a page of made-up names
 * grows it, and such a context is freed rather than kept for good. */
enum { POOL_CONTEXTS = 64, POOL_DICT_NAMES = 2048, POOL_DICT_BYTES = 64 * 1024 };

struct parse_html_pool {
  htmlParserCtxtPtr idle[POOL_CONTEXTS];
  size_t count;
};

struct parse_html {
  htmlParserCtxtPtr ctxt;
  parse_html_pool *pool; /* where ctxt goes back, or NULL */
  parse_html_cb cb;
  void *arg;
  bool base_seen;
  /* the form being read, by its method: a submit button inside without a formmethod submits by
   * it (on_submitter) */
  enum { FORM_NONE, FORM_GET, FORM_OTHER } form;
  parse_css *style;   /* the <style> element being read, if any */
  bool scan_scripts;  /* --js: inline scripts' string literals are read too */
  bool anchors;       /* --check-fragments: ids and <a name>s are given too */
  parse_js *script;   /* the inline <script> being read, if any */
  bool out_of_memory; /* a style or script could not be read whole: the parse stopped there */
  parse_via via;      /* where the link being delivered was found */
  /* the Content-Type's charset, or NULL (none, or a label the Encoding Standard lacks) */
  const struct parse__encoding *declared;
  bool decided;              /* the encoding is set: bytes go to libxml2 */
  const char *query_charset; /* its name for a link's query, or NULL for UTF-8 */
  struct core_buf start;     /* the first bytes, until it is */
  parse__decoder *decoder;   /* a page not in UTF-8, turned into UTF-8 here; or NULL */
  struct core_buf held;      /* text held to be parsed in one call at the end */
  size_t hold;               /* how much may be held; past it, text is parsed as it comes */
  bool streaming;            /* held text went to libxml2 already */
  bool outgrew;              /* the page outgrew the hold: parsed as it came */
  /* libxml2's UTF-8 handler until its input takes it (NULL: not yet found, or taken): set, it
   * tells libxml2 the encoding is known, and <meta> is not read again there */
  xmlCharEncodingHandlerPtr encoder;
};

/* The elements whose start tags are read, and the attributes that carry their links
 * (doc/behaviour.md, Links). Every other element is looked at for a style attribute alone. */
enum element_kind { ELEMENT_LINKS, ELEMENT_BASE, ELEMENT_META, ELEMENT_FORM, ELEMENT_STYLE };

/* The attributes of one element that may each hold a link (img's src, lowsrc and longdesc). */
enum { ELEMENT_ATTRIBUTES = 3 };

struct element {
  const char *name;
  enum element_kind kind;
  parse_via via;
  /* with ELEMENT_LINKS, the attributes that hold a link, NULL after the last (a form and its
   * buttons, ELEMENT_FORM, are read by on_form and on_submitter) */
  const char *attributes[ELEMENT_ATTRIBUTES];
  const char *srcset; /* the attribute of a candidate list that holds more, or NULL */
};

/* The obsolete attributes a page may still carry are links too (img's lowsrc, as wget reads it;
 * the longdesc of img, iframe and frame, as wget2 does): a crawl is after every URL a site
 * names. */
static const struct element elements[] = {
    {"a", ELEMENT_LINKS, PARSE_VIA_A, {"href", "xlink:href"}, NULL}, /* SVG's, before SVG 2 */
    {"area", ELEMENT_LINKS, PARSE_VIA_AREA, {"href"}, NULL},
    {"audio", ELEMENT_LINKS, PARSE_VIA_AUDIO, {"src"}, NULL},
    {"base", ELEMENT_BASE, PARSE_VIA_A, {NULL}, NULL},
    {"blockquote", ELEMENT_LINKS, PARSE_VIA_CITE, {"cite"}, NULL},
    {"body", ELEMENT_LINKS, PARSE_VIA_IMG, {"background"}, NULL},
    {"button", ELEMENT_FORM, PARSE_VIA_FORM, {NULL}, NULL},
    {"del", ELEMENT_LINKS, PARSE_VIA_CITE, {"cite"}, NULL},
    {"embed", ELEMENT_LINKS, PARSE_VIA_EMBED, {"src"}, NULL},
    {"form", ELEMENT_FORM, PARSE_VIA_FORM, {NULL}, NULL},
    {"frame", ELEMENT_LINKS, PARSE_VIA_FRAME, {"src", "longdesc"}, NULL},
    {"iframe", ELEMENT_LINKS, PARSE_VIA_IFRAME, {"src", "longdesc"}, NULL},
    {"image", ELEMENT_LINKS, PARSE_VIA_IMG, {"href", "xlink:href"}, NULL}, /* SVG's */
    {"img", ELEMENT_LINKS, PARSE_VIA_IMG, {"src", "lowsrc", "longdesc"}, "srcset"},
    {"input", ELEMENT_FORM, PARSE_VIA_IMG, {NULL}, NULL}, /* on_submitter */
    {"ins", ELEMENT_LINKS, PARSE_VIA_CITE, {"cite"}, NULL},
    {"link", ELEMENT_LINKS, PARSE_VIA_LINK, {"href"}, "imagesrcset"}, /* preloads */
    {"meta", ELEMENT_META, PARSE_VIA_REFRESH, {NULL}, NULL},
    {"object", ELEMENT_LINKS, PARSE_VIA_OBJECT, {"data"}, NULL},
    {"q", ELEMENT_LINKS, PARSE_VIA_CITE, {"cite"}, NULL},
    {"script", ELEMENT_LINKS, PARSE_VIA_SCRIPT, {"src"}, NULL},
    {"source", ELEMENT_LINKS, PARSE_VIA_SOURCE, {"src"}, "srcset"},
    {"style", ELEMENT_STYLE, PARSE_VIA_CSS, {NULL}, NULL},
    {"table", ELEMENT_LINKS, PARSE_VIA_IMG, {"background"}, NULL},
    {"td", ELEMENT_LINKS, PARSE_VIA_IMG, {"background"}, NULL},
    {"th", ELEMENT_LINKS, PARSE_VIA_IMG, {"background"}, NULL},
    {"track", ELEMENT_LINKS, PARSE_VIA_TRACK, {"src"}, NULL},
    {"use", ELEMENT_LINKS, PARSE_VIA_IMG, {"href", "xlink:href"}, NULL}, /* an SVG sprite's */
    {"video", ELEMENT_LINKS, PARSE_VIA_VIDEO, {"src", "poster"}, NULL},
};

/* Every start tag of a page comes here, and most are none of the above (a span, a div): only
 * the entries of its first letter are looked at, where a table says they begin (elements[] is
 * sorted by name). Measured on the Python manual: comparing each name with every entry was 8% of
 * a crawl's CPU, and looking at every entry's first letter 2.5% of parsing. libxml2 gives names
 * in lower case. */
static const struct element *element_of(const char *name) {
  /* where each first letter's entries begin, plus one (0: none) */
  static const unsigned char first_entry[26] = {
      ['a' - 'a'] = 1,  ['b' - 'a'] = 4,  ['d' - 'a'] = 8,  ['e' - 'a'] = 9,  ['f' - 'a'] = 10,
      ['i' - 'a'] = 12, ['l' - 'a'] = 17, ['m' - 'a'] = 18, ['o' - 'a'] = 19, ['q' - 'a'] = 20,
      ['s' - 'a'] = 21, ['t' - 'a'] = 24, ['u' - 'a'] = 28, ['v' - 'a'] = 29};
  unsigned letter = (unsigned)(unsigned char)name[0] - 'a';
  if (letter >= 26 || !first_entry[letter])
    return NULL;
  for (size_t i = first_entry[letter] - 1u;
       i < sizeof(elements) / sizeof(elements[0]) && elements[i].name[0] == name[0]; i++)
    if (elements[i].name[1] == name[1] && strcmp(elements[i].name + 1, name + 1) == 0)
      return &elements[i];
  return NULL;
}

const char *parse_via_name(parse_via via) {
  static const char *const names[PARSE_VIA_COUNT] = {
      [PARSE_VIA_A] = "a",           [PARSE_VIA_AREA] = "area",     [PARSE_VIA_LINK] = "link",
      [PARSE_VIA_FRAME] = "frame",   [PARSE_VIA_IFRAME] = "iframe", [PARSE_VIA_IMG] = "img",
      [PARSE_VIA_SCRIPT] = "script", [PARSE_VIA_EMBED] = "embed",   [PARSE_VIA_SOURCE] = "source",
      [PARSE_VIA_AUDIO] = "audio",   [PARSE_VIA_VIDEO] = "video",   [PARSE_VIA_TRACK] = "track",
      [PARSE_VIA_OBJECT] = "object", [PARSE_VIA_FORM] = "form",     [PARSE_VIA_REFRESH] = "refresh",
      [PARSE_VIA_CSS] = "css",       [PARSE_VIA_JS] = "js",         [PARSE_VIA_CITE] = "cite"};
  return (unsigned)via < PARSE_VIA_COUNT ? names[via] : NULL;
}

parse_via parse_html_link_via(const parse_html *html) {
  return html->via;
}

static void emit(struct parse_html *html, parse_event event, const char *value, size_t len) {
  html->cb(html->arg, event, value, len);
}

static void emit_link(struct parse_html *html, parse_via via, const char *value, size_t len) {
  html->via = via;
  html->cb(html->arg, PARSE_LINK, value, len);
}

/* The srcset grammar of the HTML Standard: comma-separated candidates, each a URL followed by
 * optional descriptors; a URL may itself contain commas but not end with one. */
static void emit_srcset(struct parse_html *html, parse_via via, const char *s) {
  size_t i = 0, n = strlen(s);
  while (i < n) {
    while (i < n && (parse__is_space(s[i]) || s[i] == ','))
      i++;
    size_t start = i;
    while (i < n && !parse__is_space(s[i]))
      i++;
    size_t end = i;
    bool trailing_comma = false;
    while (end > start && s[end - 1] == ',') {
      end--;
      trailing_comma = true;
    }
    if (end > start)
      emit_link(html, via, s + start, end - start);
    if (trailing_comma)
      continue;
    /* skip the descriptors up to the next comma outside parentheses */
    int depth = 0;
    while (i < n) {
      if (s[i] == '(')
        depth++;
      else if (s[i] == ')' && depth > 0)
        depth--;
      else if (s[i] == ',' && depth == 0)
        break;
      i++;
    }
  }
}

bool parse_html_sniff(const char *data, size_t len) {
  static const char *const tags[] = {"<!DOCTYPE HTML",
                                     "<HTML",
                                     "<HEAD",
                                     "<SCRIPT",
                                     "<IFRAME",
                                     "<H1",
                                     "<DIV",
                                     "<FONT",
                                     "<TABLE",
                                     "<A",
                                     "<STYLE",
                                     "<TITLE",
                                     "<B",
                                     "<BODY",
                                     "<BR",
                                     "<P",
                                     "<!--"};
  size_t i = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  while (i < len && parse__is_space(data[i]))
    i++;
  for (size_t t = 0; t < sizeof(tags) / sizeof(*tags); t++) {
    size_t n = strlen(tags[t]);
    if (len - i > n && strncasecmp(data + i, tags[t], n) == 0 &&
        (data[i + n] == ' ' || data[i + n] == '>'))
      return true;
  }
  return false;
}

bool parse_refresh_url(const char *content, const char **url, size_t *len) {
  const char *p = content;
  /* the HTML Standard's "shared declarative refresh steps" (doc/behaviour.md, Links): a delay
   * that begins with a digit or '.' (without one it is no refresh at all), then whitespace, ;
   * or , (anything else ends it), then url= */
  while (parse__is_space(*p))
    p++;
  if (!isdigit((unsigned char)*p) && *p != '.')
    return false;
  while (isdigit((unsigned char)*p) || *p == '.')
    p++;
  if (*p != ';' && *p != ',' && !parse__is_space(*p))
    return false; /* the end (the page itself again) or not a delay */
  while (parse__is_space(*p))
    p++;
  if (*p == ';' || *p == ',')
    p++;
  while (parse__is_space(*p))
    p++;
  if (strncasecmp(p, "url", 3) == 0) {
    const char *q = p + 3;
    while (parse__is_space(*q))
      q++;
    if (*q == '=') {
      q++;
      while (parse__is_space(*q))
        q++;
      p = q;
    }
  }
  char quote = 0;
  if (*p == '"' || *p == '\'')
    quote = *p++;
  size_t n = quote ? strcspn(p, quote == '"' ? "\"" : "'") : strlen(p);
  while (n && parse__is_space(p[n - 1]))
    n--;
  if (!n)
    return false;
  *url = p;
  *len = n;
  return true;
}

static const char *attr(const xmlChar **atts, const char *name) {
  for (size_t i = 0; atts && atts[i]; i += 2)
    if (strcasecmp((const char *)atts[i], name) == 0)
      return atts[i + 1] ? (const char *)atts[i + 1] : "";
  return NULL;
}

static bool has_token(const char *list, const char *token) {
  size_t tlen = strlen(token);
  for (const char *p = list; *p;) {
    while (*p && (parse__is_space(*p) || *p == ','))
      p++;
    size_t n = 0;
    while (p[n] && !parse__is_space(p[n]) && p[n] != ',')
      n++;
    if (n == tlen && strncasecmp(p, token, n) == 0)
      return true;
    p += n;
  }
  return false;
}

static void on_text(void *ctx, const xmlChar *text, int len);

/* An inline script whose type is JavaScript: none, a JavaScript MIME type, or "module" (the HTML
 * Standard's script types); a JSON or template block is not code. */
static bool script_is_js(const xmlChar **atts) {
  const char *type = attr(atts, "type");
  if (attr(atts, "src"))
    return false; /* its text is not run: the file it names is fetched as a link */
  if (!type || !*type)
    return true;
  static const char *const types[] = {"text/javascript",          "application/javascript",
                                      "application/ecmascript",   "text/ecmascript",
                                      "application/x-javascript", "module"};
  for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
    if (strcasecmp(type, types[i]) == 0)
      return true;
  return false;
}

/* Lack of memory inside a style or script: the parse stops, and finish says why (a sheet's links
 * lost without a word would be a crawl that is not the whole one). rc is what the step gave. */
static void stop_if_out_of_memory(struct parse_html *html, core_rc rc) {
  if (rc != CORE_ENOMEM)
    return;
  html->out_of_memory = true;
  xmlStopParser(html->ctxt);
}

/* Text is asked for only inside <style>: a page's text is most of its bytes, and handing it over
 * costs (measured: 8% of the crawl's CPU with the callbacks always set). */
static void text_wanted(htmlParserCtxtPtr ctxt, bool wanted) {
  ctxt->sax->characters = wanted ? on_text : NULL;
  ctxt->sax->cdataBlock = wanted ? on_text : NULL;
}

/* A form's method or a button's formmethod: GET unless it says POST or dialog (the HTML
 * Standard's invalid and missing value default). */
static bool method_is_get(const char *method) {
  return !method || (strcasecmp(method, "post") != 0 && strcasecmp(method, "dialog") != 0);
}

/* Where a GET submission goes: a page to link to, without the query its data would replace
 * (doc/network.md, Links users miss); a POST one is never made. */
static void emit_submission(struct parse_html *html, const char *action) {
  size_t len = strcspn(action, "?#");
  while (len && parse__is_space(action[len - 1]))
    len--;
  const char *start = action;
  while (len && parse__is_space(*start)) {
    start++;
    len--;
  }
  if (len) /* an empty action is the page itself */
    emit_link(html, PARSE_VIA_FORM, start, len);
}

static void on_form(struct parse_html *html, const xmlChar **atts) {
  html->form = method_is_get(attr(atts, "method")) ? FORM_GET : FORM_OTHER;
  const char *action = attr(atts, "action");
  if (action && html->form == FORM_GET)
    emit_submission(html, action);
}

/* A submit button's formaction (the HTML Standard's Submit Button and Image Button states): the
 * submission goes there, by its formmethod or else its form owner's method. Without a formmethod,
 * a button outside a form, or one that names its form (form=, which may be any form of the page),
 * has an owner whose method is not known here, or none: not followed. An <input type=image>'s
 * src is an image; any other input's src is ignored. */
static void on_submitter(struct parse_html *html, const char *name, const xmlChar **atts) {
  const char *type = attr(atts, "type");
  if (name[0] == 'i') { /* input: a submit button only of type submit or image */
    bool image = type && strcasecmp(type, "image") == 0;
    const char *src = image ? attr(atts, "src") : NULL;
    if (src)
      emit_link(html, PARSE_VIA_IMG, src, strlen(src));
    if (!image && !(type && strcasecmp(type, "submit") == 0))
      return;
  } else if (type && (strcasecmp(type, "reset") == 0 || strcasecmp(type, "button") == 0)) {
    return; /* a button is a submit button unless its type says otherwise */
  }
  const char *action = attr(atts, "formaction");
  const char *method = attr(atts, "formmethod");
  if (action && (method ? method_is_get(method) : html->form == FORM_GET && !attr(atts, "form")))
    emit_submission(html, action);
}

static void on_meta(struct parse_html *html, const xmlChar **atts) {
  const char *equiv = attr(atts, "http-equiv");
  const char *content = attr(atts, "content");
  const char *meta_name = attr(atts, "name");
  const char *url;
  size_t len;
  if (equiv && content && strcasecmp(equiv, "refresh") == 0 &&
      parse_refresh_url(content, &url, &len))
    emit_link(html, PARSE_VIA_REFRESH, url, len);
  if (meta_name && content && strcasecmp(meta_name, "robots") == 0 &&
      (has_token(content, "nofollow") || has_token(content, "none")))
    emit(html, PARSE_NOFOLLOW, "", 0);
}

/* Keeps av in values when an is one of el's link attributes; whether it was. */
static bool link_attribute(const struct element *el, const char *an, const char *av,
                           const char *values[ELEMENT_ATTRIBUTES]) {
  for (size_t k = 0; k < ELEMENT_ATTRIBUTES && el->attributes[k]; k++)
    if (an[0] == el->attributes[k][0] && strcmp(an, el->attributes[k]) == 0) {
      values[k] = av;
      return true;
    }
  return false;
}

static void on_start(void *ctx, const xmlChar *name_x, const xmlChar **atts) {
  htmlParserCtxtPtr ctxt = ctx;
  struct parse_html *html = ctxt->_private;
  const char *name = (const char *)name_x;
  if (!name)
    return;
  const struct element *el = element_of(name);
  if (el && el->kind == ELEMENT_STYLE && !html->style) {
    core_rc rc = parse_css_create(html->cb, html->arg, &html->style);
    if (rc != CORE_OK) {
      html->style = NULL;
      stop_if_out_of_memory(html, rc);
      return;
    }
    text_wanted(ctxt, true);
  }
  if (el && el->via == PARSE_VIA_SCRIPT && html->scan_scripts && !html->script && !html->style &&
      script_is_js(atts)) {
    core_rc rc = parse_js_create(html->cb, html->arg, &html->script);
    if (rc != CORE_OK) {
      html->script = NULL;
      stop_if_out_of_memory(html, rc);
      return;
    }
    text_wanted(ctxt, true);
  }
  if (!atts && !el)
    return;
  /* one pass over the attributes; the first of each name counts, as in the HTML Standard,
   * whose tokenizer drops the others (libxml2's does); a <form> without any still begins a GET
   * form */
  const char *style = NULL, *values[ELEMENT_ATTRIBUTES] = {NULL}, *srcset = NULL;
  bool links = el && el->kind == ELEMENT_LINKS;
  bool named = html->anchors && name[0] == 'a' && name[1] == '\0';
  for (size_t i = 0; atts && atts[i]; i += 2) {
    const char *an = (const char *)atts[i];
    const char *av = atts[i + 1] ? (const char *)atts[i + 1] : "";
    /* a fragment names an element by its id, or an <a> by its name (the HTML Standard's
     * indicated part of the document) */
    if (html->anchors && *av &&
        ((an[0] == 'i' && an[1] == 'd' && an[2] == '\0') || (named && strcmp(an, "name") == 0)))
      emit(html, PARSE_ANCHOR, av, strlen(av));
    if (!style && an[0] == 's' && strcmp(an, "style") == 0)
      style = av;
    else if (!links)
      continue;
    else if (!link_attribute(el, an, av, values) && el->srcset && an[0] == el->srcset[0] &&
             strcmp(an, el->srcset) == 0)
      srcset = av;
  }
  if (style) {
    html->via = PARSE_VIA_CSS;
    stop_if_out_of_memory(html, parse_css_scan(style, strlen(style), html->cb, html->arg));
  }
  if (!el)
    return;
  switch (el->kind) {
    case ELEMENT_BASE: {
      const char *href = attr(atts, "href");
      if (href && !html->base_seen) {
        html->base_seen = true; /* only the first base element counts */
        emit(html, PARSE_BASE, href, strlen(href));
      }
      return;
    }
    case ELEMENT_META:
      on_meta(html, atts);
      return;
    case ELEMENT_FORM:
      if (name[0] == 'f')
        on_form(html, atts);
      else
        on_submitter(html, name, atts);
      return;
    case ELEMENT_STYLE:
      return;
    case ELEMENT_LINKS:
      break;
  }
  for (size_t k = 0; k < ELEMENT_ATTRIBUTES; k++)
    if (values[k])
      emit_link(html, el->via, values[k], strlen(values[k]));
  if (srcset)
    emit_srcset(html, el->via, srcset);
}

/* The text of a <style> or inline <script> element (libxml2 gives it as CDATA or as characters,
 * in pieces). */
static void on_text(void *ctx, const xmlChar *text, int len) {
  htmlParserCtxtPtr ctxt = ctx;
  struct parse_html *html = ctxt->_private;
  html->via = html->style ? PARSE_VIA_CSS : PARSE_VIA_JS;
  if (html->style && len > 0) /* lack of memory is kept by the sheet, said at its end */
    parse_css_feed(html->style, (const char *)text, (size_t)len);
  else if (html->script && len > 0)
    parse_js_feed(html->script, (const char *)text, (size_t)len);
}

static void on_end(void *ctx, const xmlChar *name) {
  htmlParserCtxtPtr ctxt = ctx;
  struct parse_html *html = ctxt->_private;
  if (html->script && name && strcmp((const char *)name, "script") == 0) {
    html->via = PARSE_VIA_JS;
    parse_js_finish(html->script);
    parse_js_destroy(html->script);
    html->script = NULL;
    text_wanted(ctxt, false);
  }
  if (html->style && name && strcmp((const char *)name, "style") == 0) {
    html->via = PARSE_VIA_CSS;
    stop_if_out_of_memory(html, parse_css_finish(html->style));
    parse_css_destroy(html->style);
    html->style = NULL;
    text_wanted(ctxt, false);
  }
  if (html->form && name && strcmp((const char *)name, "form") == 0)
    html->form = FORM_NONE;
}

static void on_error(void *ctx, const char *msg, ...) {
  /* malformed HTML is the norm on the web: libxml2 recovers, and we stay quiet */
}

core_rc parse_thread_begin(void) {
  /* libxml2 makes its state for a thread on first use, and aborts the process when memory runs
   * out then; made now, that lack is said and ends the crawl as any other */
  return xmlCheckThreadLocalStorage() == 0 ? CORE_OK : CORE_ENOMEM;
}

core_rc parse_html_pool_create(parse_html_pool **out) {
  *out = calloc(1, sizeof(**out));
  return *out ? CORE_OK : CORE_ENOMEM;
}

void parse_html_pool_destroy(parse_html_pool *pool) {
  if (!pool)
    return;
  while (pool->count)
    htmlFreeParserCtxt(pool->idle[--pool->count]);
  free(pool);
}

/* A context with this file's SAX handler: one of the pool's, or a new one. Its input comes
 * later: the page itself, whole (parse_whole), or a push input once it is parsed as it comes
 * (stream_held); either way libxml2 resets what the last page left in it. */
static htmlParserCtxtPtr take_context(parse_html_pool *pool) {
  if (pool && pool->count)
    return pool->idle[--pool->count];
  htmlSAXHandler sax;
  memset(&sax, 0, sizeof(sax));
  sax.startElement = on_start;
  sax.endElement = on_end;
  sax.error = on_error;
  sax.warning = on_error;
  return htmlNewSAXParserCtxt(&sax, NULL);
}

static void give_back_context(parse_html_pool *pool, htmlParserCtxtPtr ctxt) {
  if (pool && pool->count < POOL_CONTEXTS && xmlDictSize(ctxt->dict) <= POOL_DICT_NAMES &&
      xmlDictGetUsage(ctxt->dict) <= POOL_DICT_BYTES) {
    htmlCtxtReset(ctxt); /* frees the page's input and document now, not when next used */
    ctxt->_private = NULL;
    pool->idle[pool->count++] = ctxt;
  } else {
    htmlFreeParserCtxt(ctxt);
  }
}

core_rc parse_html_create(const char *charset, parse_html_cb cb, void *arg, parse_html **out) {
  return parse_html_create_in(NULL, charset, cb, arg, out);
}

core_rc parse_html_create_in(parse_html_pool *pool, const char *charset, parse_html_cb cb,
                             void *arg, parse_html **out) {
  struct parse_html *html = calloc(1, sizeof(*html));
  if (!html)
    return CORE_ENOMEM;
  html->ctxt = take_context(pool);
  if (!html->ctxt) {
    free(html);
    return CORE_ENOMEM;
  }
  html->pool = pool;
  html->ctxt->_private = html;
  html->cb = cb;
  html->arg = arg;
  /* HTML_PARSE_HTML5: the tokenizer alone, a start event per start tag as written, with none of
   * the tree-building guesses (implied and auto-closed elements, dropped misplaced tags) that
   * nothing here uses; measured: 27% less CPU per page (bench_floor, the html web) */
  htmlCtxtUseOptions(html->ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                     HTML_PARSE_NONET | HTML_PARSE_COMPACT | HTML_PARSE_HTML5);
  core_buf_init(&html->start, SIZE_MAX / 2);
  core_buf_init(&html->held, SIZE_MAX / 2);
  html->hold = PARSE_HTML_HOLD;
  if (charset)
    html->declared = parse__encoding_for(charset, strlen(charset));
  *out = html;
  return CORE_OK;
}

/* Text to libxml2 as it comes. Since 2.14 its push parser gives the same links however the page
 * is cut into chunks, and reads on after </body> and </html> as browsers do. */
static void parse_text(parse_html *html, const char *data, size_t len) {
  /* libxml2 takes an int length: very large chunks go in pieces */
  while (len) {
    int n = len > (1u << 20) ? (1 << 20) : (int)len;
    htmlParseChunk(html->ctxt, data, n, 0);
    data += n;
    len -= (size_t)n;
  }
}

/* Text in the document's encoding (UTF-8 for a UTF-16 page), held while the page is short. A
 * page parsed whole is parsed faster: a chunk that may end inside a tag makes libxml2 look for
 * each tag's end before it reads the tag (measured on the Python manual: 15% of the parser's
 * time), and read where it lies (parse_whole) it is not copied into libxml2's buffers. A longer
 * page is parsed as it comes, through a push input, so memory stays bounded. */
static void stream_held(parse_html *html) {
  html->streaming = true;
  /* a new context takes a push input in one call, that resets what nothing has used yet */
  xmlCtxtResetPush(html->ctxt, NULL, 0, NULL, NULL);
  if (html->encoder)
    xmlSwitchToEncoding(html->ctxt, html->encoder); /* which takes it */
  html->encoder = NULL;
  if (html->held.len)
    parse_text(html, html->held.data, html->held.len);
  core_buf_free(&html->held);
}

/* Whether libxml2 stopped for lack of memory: it then parses no further, and the page's later
 * links would be lost without a word. */
static bool ran_out(const parse_html *html) {
  return html->out_of_memory || (html->ctxt && html->ctxt->errNo == XML_ERR_NO_MEMORY);
}

/* The page held whole, parsed where it lies (core_buf keeps a NUL after its bytes). */
static core_rc parse_whole(parse_html *html) {
  xmlParserInputPtr input = xmlNewInputFromMemory(
      NULL, html->held.data, html->held.len, XML_INPUT_BUF_STATIC | XML_INPUT_BUF_ZERO_TERMINATED);
  if (!input)
    return CORE_ENOMEM;
  xmlCharEncodingHandlerPtr encoder = html->encoder;
  html->encoder = NULL;
  if (encoder && xmlInputSetEncodingHandler(input, encoder) != XML_ERR_OK) { /* it took it */
    xmlFreeInputStream(input);
    return CORE_ENOMEM; /* only memory fails for a handler libxml2 found */
  }
  htmlCtxtParseDocument(html->ctxt, input); /* which frees it */
  return ran_out(html) ? CORE_ENOMEM : CORE_OK;
}

static core_rc feed_text(parse_html *html, const char *data, size_t len) {
  if (!html->streaming) {
    if (html->held.len + len <= html->hold && core_buf_add(&html->held, data, len) == CORE_OK)
      return CORE_OK;
    html->outgrew = true;
    stream_held(html);
  }
  parse_text(html, data, len);
  return ran_out(html) ? CORE_ENOMEM : CORE_OK;
}

static core_rc sink_text(void *arg, const char *data, size_t len) {
  return feed_text(arg, data, len);
}

static core_rc feed_decided(parse_html *html, const char *data, size_t len) {
  return html->decoder ? parse__decode(html->decoder, data, len, false, sink_text, html)
                       : feed_text(html, data, len);
}

/* Whether s holds nothing but UTF-8 (a character cut at its end, where more may follow, too). */
static bool valid_utf8(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    size_t len = core_utf8_char(u + i, n - i);
    if (!len) { /* wrong, or cut by the end: then some continuation makes it whole */
      size_t cut = n - i;
      unsigned char whole[4];
      for (unsigned fill = 0x80; cut < 4 && fill <= 0xa0; fill += 0x10) {
        memcpy(whole, u + i, cut);
        memset(whole + cut, (int)fill, 4 - cut);
        if (core_utf8_char(whole, 4) > cut)
          return true;
      }
      return false;
    }
    i += len;
  }
  return true;
}

/* Decides the encoding on the first n bytes of the page (s), then hands them on. */
static core_rc decide(parse_html *html, const char *s, size_t n) {
  html->decided = true;
  if (!n) /* an empty page: nothing to decide on, nothing to hand on */
    return CORE_OK;
  size_t skip = 0;
  const unsigned char *u = (const unsigned char *)s;
  const struct parse__encoding *enc = html->declared;
  if (n >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
    enc = parse__encoding_utf8();
    skip = 3;
  } else if (n >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff))) {
    enc = parse__encoding_for(u[0] == 0xff ? "utf-16le" : "utf-16be", 8);
    skip = 2;
  } else if (!enc) {
    size_t head = n < SNIFF_BYTES ? n : SNIFF_BYTES;
    enc = parse__meta_prescan(s, head);
    if (!enc)
      enc = valid_utf8(s, head) ? parse__encoding_utf8() : parse__encoding_windows_1252();
  }
  html->query_charset = parse__encoding_query_charset(enc);
  if (!parse__encoding_is_utf8(enc) && parse__decoder_create(enc, &html->decoder) != CORE_OK)
    return CORE_ENOMEM;
  html->encoder = xmlFindCharEncodingHandler("UTF-8");
  if (!html->encoder)
    return CORE_ENOMEM; /* libxml2 has UTF-8 built in: only memory fails */
  return feed_decided(html, s + skip, n - skip);
}

/* The bytes held in start, once there are enough of them or the page has ended. */
static core_rc decide_held(parse_html *html) {
  core_rc rc = decide(html, html->start.data, html->start.len);
  core_buf_free(&html->start);
  return rc;
}

core_rc parse_html_feed(parse_html *html, const char *data, size_t len) {
  if (html->decided)
    return feed_decided(html, data, len);
  /* a first chunk that holds enough is decided on where it is: most pages, so no copy */
  if (!html->start.len && len >= SNIFF_BYTES)
    return decide(html, data, len);
  if (core_buf_add(&html->start, data, len) != CORE_OK)
    return CORE_ENOMEM;
  return html->start.len < SNIFF_BYTES ? CORE_OK : decide_held(html);
}

const char *parse_html_charset(const parse_html *html) {
  return html->query_charset;
}

core_rc parse_html_finish(parse_html *html) {
  if (!html->decided && decide_held(html) != CORE_OK)
    return CORE_ENOMEM;
  if (html->decoder && /* a character cut by the page's end */
      parse__decode(html->decoder, NULL, 0, true, sink_text, html) != CORE_OK)
    return CORE_ENOMEM;
  core_rc rc = CORE_OK;
  if (html->streaming)
    htmlParseChunk(html->ctxt, NULL, 0, 1);
  else if (html->held.len)
    rc = parse_whole(html);
  if (ran_out(html))
    rc = CORE_ENOMEM;
  core_buf_free(&html->held);
  html->streaming = true;
  if (html->style) { /* a <style> left open at the end of the page */
    html->via = PARSE_VIA_CSS;
    if (parse_css_finish(html->style) == CORE_ENOMEM)
      rc = CORE_ENOMEM;
    parse_css_destroy(html->style);
    html->style = NULL;
  }
  if (html->script) { /* so is a <script> (--js) */
    html->via = PARSE_VIA_JS;
    parse_js_finish(html->script);
    parse_js_destroy(html->script);
    html->script = NULL;
  }
  return rc;
}

core_rc parse_html_cut(parse_html *html) {
  if (!html->decided && decide_held(html) != CORE_OK)
    return CORE_ENOMEM;
  if (!html->streaming) /* not one tag more than a stream cut there gives */
    stream_held(html);
  return CORE_OK;
}

void parse_html_hold(parse_html *html, size_t bytes) {
  html->hold = bytes;
}

bool parse_html_outgrew(const parse_html *html) {
  return html->outgrew;
}

void parse_html_expect(parse_html *html, size_t length) {
  /* a failure only leaves the room to grow as the page comes */
  if (length && length <= html->hold && !html->held.len)
    (void)core_buf_reserve(&html->held, length + 1);
}

void parse_html_destroy(parse_html *html) {
  if (!html)
    return;
  if (html->ctxt) {
    if (html->ctxt->myDoc)
      xmlFreeDoc(html->ctxt->myDoc);
    html->ctxt->myDoc = NULL;
    give_back_context(html->pool, html->ctxt);
  }
  core_buf_free(&html->start);
  core_buf_free(&html->held);
  if (html->encoder)
    xmlCharEncCloseFunc(html->encoder);
  parse__decoder_destroy(html->decoder);
  parse_css_destroy(html->style);
  parse_js_destroy(html->script);
  free(html);
}

void parse_html_anchors(parse_html *html) {
  html->anchors = true;
}

void parse_html_scan_scripts(parse_html *html) {
  html->scan_scripts = true;
}
