/* The synthetic web: every page, robots.txt and response is a pure function of the web's
 * parameters and the path, so the server and the ground-truth walker agree by construction. */
#include "tests/testweb/web.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: a small, well-mixed generator; one stream per page */
static uint64_t next_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t page_state(const struct web *w, int host, int page) {
  return w->seed * 1000003ull + (uint64_t)host * 7919ull * 1000003ull + (uint64_t)page * 31ull;
}

int web_host_index(const struct web *w, const char *host, bool *outside) {
  /* s<i>.<domain> are the web's hosts; x<j>.elsewhere.test lie outside its domain */
  char suffix[160];
  int i;
  int n = 0;
  *outside = false;
  if (sscanf(host, "s%d%n", &i, &n) == 1 && host[n] == '.') {
    snprintf(suffix, sizeof(suffix), ".%s", w->domain);
    if (strcasecmp(host + n, suffix) == 0 && i >= 0 && i < w->hosts)
      return i;
    return -1;
  }
  if (sscanf(host, "x%d%n", &i, &n) == 1 && strcasecmp(host + n, ".elsewhere.test") == 0 &&
      i >= 0 && i < WEB_OUTSIDE_HOSTS) {
    *outside = true;
    return i;
  }
  return -1;
}

void web_link_at(const struct web *w, int host, int page, int index, struct web_link *out) {
  uint64_t st = page_state(w, host, page) + (uint64_t)index * 0x100000001b3ull;
  uint64_t r = next_rand(&st);
  int pick = (int)(r % 100);
  int target = (int)(next_rand(&st) % (uint64_t)w->pages);
  int form = (int)(next_rand(&st) % 6);
  memset(out, 0, sizeof(*out));
  out->host = host;
  out->page = target;
  out->form = form;
  out->fragment = next_rand(&st) % 5 == 0;
  if (index == 0) {
    /* every page links to the next one, so the whole host is reachable */
    out->kind = WEB_PAGE;
    out->page = (page + 1) % w->pages;
    out->form = 2;
  } else if (w->html_only) { /* pages of this host, of the others, and a few out of the web */
    if (pick >= 97 - w->other_share && pick < 97) {
      out->host = (int)(next_rand(&st) % (uint64_t)w->hosts);
      out->form = pick < 93 ? 0 : 6;
    } else if (pick >= 97) {
      out->kind = WEB_OUTSIDE;
      out->host = (int)(next_rand(&st) % WEB_OUTSIDE_HOSTS);
      out->form = 0;
    }
  } else if (pick < 50) {
    out->kind = WEB_PAGE;
  } else if (pick < 64) {
    out->kind = WEB_PAGE;
    out->host = (int)(next_rand(&st) % (uint64_t)w->hosts);
    out->form = 0;
  } else if (pick < 67) {
    out->kind = WEB_OUTSIDE;
    out->host = (int)(next_rand(&st) % WEB_OUTSIDE_HOSTS);
    out->form = 0;
  } else if (pick < 71) {
    out->kind = WEB_PRIVATE;
  } else if (pick < 77) {
    out->kind = WEB_PDF;
  } else if (pick < 81) {
    out->kind = WEB_IMAGE;
  } else if (pick < 85) {
    out->kind = WEB_MISSING;
  } else if (pick < 89) {
    out->kind = WEB_REDIRECT;
  } else if (pick < 92) {
    out->kind = WEB_MAILTO;
  } else if (pick < 95) {
    out->kind = WEB_PAGE;
    out->form = 6; /* upper-case host name, explicit port */
    out->host = (int)(next_rand(&st) % (uint64_t)w->hosts);
  } else {
    out->kind = WEB_PAGE; /* repeated link to the page's own successor */
    out->page = (page + 1) % w->pages;
    out->form = 1;
  }
}

int web_link_count(const struct web *w, int host, int page) {
  uint64_t st = page_state(w, host, page) ^ 0xabcdefull;
  return 1 + (int)(next_rand(&st) % (uint64_t)(2 * w->links - 1));
}

void web_page_path(int page, char *out, size_t size) {
  if (page == 0)
    snprintf(out, size, "/");
  else
    snprintf(out, size, "/p/%d.html", page);
}

/* The canonical URL of a link's target (what a crawler prints). */
void web_link_url(const struct web *w, const struct web_link *l, char *out, size_t size) {
  switch (l->kind) {
    case WEB_PAGE: {
      char path[64];
      web_page_path(l->page, path, sizeof(path));
      snprintf(out, size, "http://s%d.%s:%d%s", l->host, w->domain, w->port, path);
      return;
    }
    case WEB_OUTSIDE:
      snprintf(out, size, "http://x%d.elsewhere.test:%d/p/%d.html", l->host, w->port, l->page);
      return;
    case WEB_PRIVATE:
      snprintf(out, size, "http://s%d.%s:%d/private/%d.html", l->host, w->domain, w->port, l->page);
      return;
    case WEB_PDF:
      snprintf(out, size, "http://s%d.%s:%d/f/%d.pdf", l->host, w->domain, w->port, l->page);
      return;
    case WEB_IMAGE:
      snprintf(out, size, "http://s%d.%s:%d/img/%d.png", l->host, w->domain, w->port, l->page);
      return;
    case WEB_MISSING:
      snprintf(out, size, "http://s%d.%s:%d/missing/%d.html", l->host, w->domain, w->port, l->page);
      return;
    case WEB_REDIRECT:
      snprintf(out, size, "http://s%d.%s:%d/r/%d", l->host, w->domain, w->port, l->page);
      return;
    case WEB_MAILTO:
      out[0] = '\0';
      return;
  }
}

/* The link as written in the page: one of several equivalent forms of the canonical URL. */
static void link_href(const struct web *w, int from_page, const struct web_link *l, char *out,
                      size_t size) {
  char canon[256];
  web_link_url(w, l, canon, sizeof(canon));
  const char *frag = l->fragment ? "#section" : "";
  if (l->kind == WEB_MAILTO) {
    snprintf(out, size, l->page % 2 ? "mailto:someone@example.org" : "javascript:void(0)");
    return;
  }
  if (l->kind == WEB_OUTSIDE || l->form == 0) {
    snprintf(out, size, "%s%s", canon, frag);
    return;
  }
  if (l->form == 6) {
    char path[64];
    web_page_path(l->page, path, sizeof(path));
    char upper[160];
    snprintf(upper, sizeof(upper), "S%d.%s", l->host, w->domain);
    for (char *p = upper; *p; p++)
      if (*p >= 'a' && *p <= 'z')
        *p = (char)(*p - 32);
    snprintf(out, size, "HTTP://%s:%d%s%s", upper, w->port, path, frag);
    return;
  }
  /* the path part after "http://host:port", then written relative to the linking page */
  const char *path = strchr(canon + 7, '/');
  bool under_p = from_page != 0; /* pages other than 0 live in /p/ */
  char rel[256];
  if (strcmp(path, "/") == 0)
    snprintf(rel, sizeof(rel), "/");
  else if (!under_p)
    snprintf(rel, sizeof(rel), "%s", path + 1);
  else if (strncmp(path, "/p/", 3) == 0)
    snprintf(rel, sizeof(rel), "%s", path + 3);
  else
    snprintf(rel, sizeof(rel), "..%s", path);
  switch (l->form) {
    case 1:
    case 5:
      snprintf(out, size, "%s%s", path, frag); /* root-relative */
      return;
    case 2:
      snprintf(out, size, "%s%s", rel, frag); /* document-relative */
      return;
    case 3:
      /* ../ form: from "/" it is clamped at the root, from /p/ it climbs one level */
      snprintf(out, size, "..%s%s", path, frag);
      return;
    default:
      snprintf(out, size, "%s%s%s", rel[0] == '/' || rel[0] == '.' ? "" : "./", rel, frag);
      return;
  }
}

#define PUT(...)                                                                                   \
  do {                                                                                             \
    int n_ = snprintf(out + len, len < size ? size - len : 0, __VA_ARGS__);                        \
    if (n_ > 0)                                                                                    \
      len += (size_t)n_;                                                                           \
  } while (0)

/* The page's links, written at out + len in the page's markup; the new length. */
static size_t put_links(const struct web *w, int host, int page, char *out, size_t len,
                        size_t size) {
  int count = web_link_count(w, host, page);
  for (int i = 0; i < count; i++) {
    struct web_link l;
    web_link_at(w, host, page, i, &l);
    char href[300];
    link_href(w, page, &l, href, sizeof(href));
    if (!w->rich && l.kind == WEB_IMAGE)
      PUT("<p><img src=\"%s\" alt=\"image\"></p>\n", href);
    else if (!w->rich)
      PUT("<p>Item %d: <a href=\"%s\">link %d</a> some words of filler text</p>\n", i, href, i);
    else if (l.kind == WEB_IMAGE)
      PUT("<li><figure class=\"align-center\" id=\"fig-%d\"><img alt=\"Figure %d: a diagram\" "
          "src=\"%s\" style=\"width: 480px;\" loading=\"lazy\" />\n"
          "<figcaption><p><span class=\"caption-text\">Figure %d &ndash; as drawn</span></p>"
          "</figcaption></figure></li>\n",
          i, i, href, i);
    else
      PUT("<li class=\"toctree-l%d\"><a class=\"reference %s\" href=\"%s\" title=\"Item "
          "%d\"><code class=\"xref py py-func docutils literal notranslate\"><span "
          "class=\"pre\">item_%d()</span></code> &#8211; item&nbsp;%d</a></li>\n",
          1 + i % 3, i % 2 ? "internal" : "external", href, i, i, i);
  }
  return len;
}

/* The same links in the markup of a real site (--rich-markup): a head of meta tags, an inline
 * style sheet and script, a navigation bar of same-page anchors, links inside lists with classes
 * and titles, and between them the prose of documentation: inline code, character references,
 * highlighted code blocks, tables and comments. The links a crawler finds are the plain page's:
 * the anchors lead to the page itself. The build guided by a profile trains on it
 * (scripts/build-pgo.sh), so that the tokenizer's paths for attributes, references and nested
 * inline elements are laid out as hot, as real pages use them. */
static size_t render_rich(const struct web *w, int host, int page, char *out, size_t size) {
  size_t len = 0;
  PUT("<!DOCTYPE html>\n<html lang=\"en\" data-content_root=\"../\">\n<head>\n"
      "<meta charset=\"utf-8\" />\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\" />\n"
      "<meta property=\"og:title\" content=\"Page %d &#8212; s%d\" />\n"
      "<title>Page %d &#8212; s%d &amp; friends</title>\n"
      "<style type=\"text/css\">\nbody { font: 16px/1.5 sans-serif; margin: 0 auto; }\n"
      "div.highlight pre { background: #f8f8f8; padding: 0.5em; }\n"
      "table.docutils td, table.docutils th { border: 1px solid #ccc; }\n</style>\n"
      "<script type=\"text/javascript\">\n"
      "  var DOCUMENTATION_OPTIONS = { VERSION: '3.%d', HAS_SOURCE: true, page: %d };\n"
      "  if (window.innerWidth < 720 && document.body) { document.body.className += ' narrow'; }\n"
      "</script>\n",
      page, host, page, host, page % 13, page);
  if (!w->html_only)
    PUT("<link rel=\"stylesheet\" href=\"/img/%d.png\" type=\"text/css\" />\n", page);
  PUT("</head>\n");
  PUT("<body>\n<div class=\"related\" role=\"navigation\" aria-label=\"Related\">\n"
      "<h3>Navigation</h3>\n<ul>\n"
      "<li class=\"right\" style=\"margin-right: 10px\"><a href=\"#index\" title=\"General "
      "Index\" accesskey=\"I\">index</a></li>\n"
      "<li class=\"right\"><a href=\"#modules\" title=\"Modules\">modules</a> |</li>\n"
      "<li class=\"nav-item nav-item-0\"><a href=\"#top\">s%d &#187;</a></li>\n"
      "</ul>\n</div>\n<!-- the document begins here -->\n"
      "<div class=\"document\">\n<div class=\"body\" role=\"main\">\n"
      "<section id=\"page-%d\">\n<h1>Page %d<a class=\"headerlink\" href=\"#page-%d\" "
      "title=\"Link to this heading\">&#182;</a></h1>\n",
      host, page, page, page);
  PUT("<div class=\"toctree-wrapper compound\">\n<ul>\n");
  len = put_links(w, host, page, out, len, size);
  PUT("</ul>\n</div>\n");
  /* prose, up to --page-bytes */
  for (int i = 0; (int)len < w->page_bytes - 16; i++) {
    switch (i % 4) {
      case 0:
        PUT("<p>The function <code class=\"docutils literal notranslate\"><span "
            "class=\"pre\">item_%d()</span></code> returns a <em>new</em> list &#8212; it "
            "doesn&#8217;t change its argument &lt;x&gt; &amp; never raises "
            "<a class=\"reference internal\" href=\"#exc-%d\" title=\"exc\"><code "
            "class=\"xref py py-exc docutils literal notranslate\"><span "
            "class=\"pre\">ValueError</span></code></a>.</p>\n",
            i, i);
        break;
      case 1:
        PUT("<div class=\"highlight-python3 notranslate\"><div class=\"highlight\"><pre><span>"
            "</span><span class=\"gp\">&gt;&gt;&gt; </span><span class=\"k\">for</span> "
            "<span class=\"n\">x</span> <span class=\"ow\">in</span> <span "
            "class=\"nb\">range</span><span class=\"p\">(</span><span "
            "class=\"mi\">%d</span><span class=\"p\">):</span>\n"
            "<span class=\"gp\">... </span>    <span class=\"nb\">print</span><span "
            "class=\"p\">(</span><span class=\"sa\">f</span><span class=\"s2\">&quot;</span>"
            "<span class=\"si\">{</span><span class=\"n\">x</span><span "
            "class=\"si\">}</span><span class=\"s2\">&quot;</span><span "
            "class=\"p\">)</span>\n</pre></div>\n</div>\n",
            i + 2);
        break;
      case 2:
        PUT("<table class=\"docutils align-default\">\n<thead>\n<tr class=\"row-odd\"><th "
            "class=\"head\"><p>Operation</p></th>\n<th class=\"head\"><p>Result</p></th>\n"
            "</tr>\n</thead>\n<tbody>\n<tr class=\"row-even\"><td><p><code class=\"docutils "
            "literal notranslate\"><span class=\"pre\">x</span> <span class=\"pre\">%%</span> "
            "<span class=\"pre\">%d</span></code></p></td>\n<td><p>remainder of <em>x</em> "
            "&#247; %d</p></td>\n</tr>\n</tbody>\n</table>\n",
            i + 1, i + 1);
        break;
      default:
        PUT("<!-- paragraph %d --><dl class=\"py function\">\n<dt class=\"sig sig-object py\" "
            "id=\"item_%d\"><span class=\"sig-name descname\"><span "
            "class=\"pre\">item_%d</span></span><span class=\"sig-paren\">(</span><em "
            "class=\"sig-param\"><span class=\"n\"><span class=\"pre\">x</span></span></em>"
            "<span class=\"sig-paren\">)</span></dt>\n<dd><p>Words a page carries between "
            "its links, with <strong>bold</strong> and <br/>breaks; they give the parser "
            "bytes to read and nothing to follow.</p></dd></dl>\n",
            i, i, i);
    }
  }
  PUT("</section>\n</div>\n</div>\n<div class=\"footer\">&copy; Copyright 2001-2026. "
      "<span id=\"last-updated\"></span></div>\n</body>\n</html>\n");
  return len;
}

size_t web_render_page(const struct web *w, int host, int page, char *out, size_t size) {
  if (w->rich)
    return render_rich(w, host, page, out, size);
  size_t len = 0;
  PUT("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>s%d page %d</title>", host,
      page);
  if (w->html_only) /* no requisite to skip: the page's links are all there is */
    PUT("</head>\n<body><h1>Page %d</h1>\n", page);
  else
    PUT("<link rel=\"stylesheet\" href=\"/img/%d.png\"></head>\n<body><h1>Page %d</h1>\n", page,
        page);
  len = put_links(w, host, page, out, len, size);
  /* filler prose, so pages can have the size of real ones (--page-bytes) */
  for (int i = 0; (int)len < w->page_bytes - 16; i++)
    PUT("<p>Paragraph %d of filler text, the kind of words a page carries between its links; "
        "it gives the parser bytes to read and nothing to follow.</p>\n",
        i);
  PUT("</body></html>\n");
  return len;
}
#undef PUT

int web_robots(const struct web *w, int host, char *out, size_t size) {
  char own[64] = ""; /* under /private/ already: the same pages are disallowed */
  if (w->own_robots)
    snprintf(own, sizeof(own), "Disallow: /private/own-%d/\n", host);
  return snprintf(out, size,
                  "# test web robots.txt\n"
                  "User-agent: otherbot\n"
                  "Disallow: /\n"
                  "\n"
                  "User-agent: *\n"
                  "Disallow: /private/\n"
                  "%s"
                  "Allow: /private/public\n"
                  "\n"
                  "Sitemap: http://s%d.%s:%d/sitemaps/index.xml\n",
                  own, host, w->domain, w->port);
}

size_t web_sitemap(const struct web *w, int host, const char *path, char *out, size_t size) {
  const char *ns = "http://www.sitemaps.org/schemas/sitemap/0.9";
  int n = -1;
  if (strcmp(path, "/sitemaps/index.xml") == 0) {
    n = snprintf(out, size,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"%s\">\n"
                 "<sitemap><loc>http://s%d.%s:%d/sitemaps/part.xml.gz</loc></sitemap>\n"
                 "<sitemap><loc>http://x0.elsewhere.test:%d/sitemap.xml</loc></sitemap>\n"
                 "</sitemapindex>\n",
                 ns, host, w->domain, w->port, w->port);
  } else if (strcmp(path, "/sitemaps/part.xml") == 0) {
    /* a namespace prefix, white space around <loc>, CDATA: all read the same */
    n = snprintf(out, size, "<?xml version=\"1.0\"?>\n<sm:urlset xmlns:sm=\"%s\">\n", ns);
    for (int i = 0; i < WEB_ORPHANS / 2 && n > 0 && (size_t)n < size; i++)
      n += snprintf(
          out + n, size - (size_t)n,
          i % 2 ? "<sm:url><sm:loc>\n  http://s%d.%s:%d/orphan/%d.html\n</sm:loc></sm:url>\n"
                : "<sm:url><sm:loc><![CDATA[http://s%d.%s:%d/orphan/%d.html]]></sm:loc>"
                  "<sm:lastmod>2026-01-01</sm:lastmod></sm:url>\n",
          host, w->domain, w->port, i);
    if (n > 0 && (size_t)n < size)
      n += snprintf(out + n, size - (size_t)n, "</sm:urlset>\n");
  } else if (strcmp(path, "/sitemap.xml") == 0) {
    n = snprintf(out, size, "<?xml version=\"1.0\"?>\n<urlset xmlns=\"%s\">\n", ns);
    for (int i = WEB_ORPHANS / 2; i < WEB_ORPHANS && n > 0 && (size_t)n < size; i++)
      n += snprintf(out + n, size - (size_t)n,
                    "<url><loc>http://s%d.%s:%d/orphan/%d.html</loc></url>\n", host, w->domain,
                    w->port, i);
    if (n > 0 && (size_t)n < size)
      n += snprintf(out + n, size - (size_t)n, "</urlset>\n");
  }
  return n > 0 ? (size_t)n : 0;
}

void web_die(const char *what) {
  fprintf(stderr, "testweb: %s: %s\n", what, strerror(errno));
  exit(1);
}

unsigned web_hash_str(const char *s) {
  unsigned h = 2166136261u;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}
