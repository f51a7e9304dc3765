/* parse/html.c: links from every element doc/behaviour.md lists, from awkward HTML, in any
 * chunking. */
#include "parse/parse.h"

#include <iconv.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "tests/parse/html_events.h"
#include "tests/support/wrap_realloc.h"

static const char page[] =
    "<!DOCTYPE html><html><head>"
    "<base href=\"/base/\"><base href=\"/ignored/\">"
    "<link rel=stylesheet href=style.css>"
    "<meta http-equiv=\"Refresh\" content=\"5; URL='/next.html'\">"
    "<script src=\"app.js\"></script>"
    "</head><body>"
    "<A HREF=\"upper.html\">x</A>"
    "<a href='single.html'>y</a><a href=unquoted.html>z</a>"
    "<a name=anchor>no href</a>"
    "<area href=\"area.html\"><frame src=\"frame.html\"><iframe src=\"iframe.html\"></iframe>"
    "<img src=\"a.png\" srcset=\"b.png 2x, c,d.png 3x,e.png\">"
    "<picture><source srcset=\"f.webp 100w, g.webp 200w\" src=\"h.webp\"></picture>"
    "<embed src=\"i.swf\"><object data=\"j.pdf\"></object>"
    "<audio src=\"k.mp3\"></audio><video src=\"l.mp4\" poster=\"poster.jpg\"><track "
    "src=\"m.vtt\"></video>"
    "<a href=\"amp.html?a=1&amp;b=2\">entity</a>"
    "<p><a href=\"unclosed.html\">broken <b>nesting</p></a>"
    "<a href=\"tab\tnewline\n.html\">ws</a>"
    "<!-- <a href=\"comment.html\"> -->"
    "<a href=\"\">empty</a>"
    "</body></html>";

static const char want[] =
    "B:/base/|L:style.css|L:/next.html|L:app.js|L:upper.html|L:single.html|L:unquoted.html|"
    "L:area.html|L:frame.html|L:iframe.html|L:a.png|L:b.png|L:c,d.png|L:e.png|L:h.webp|"
    "L:f.webp|L:g.webp|L:i.swf|L:j.pdf|L:k.mp3|L:l.mp4|L:poster.jpg|L:m.vtt|L:amp.html?a=1&b=2|"
    "L:unclosed.html|L:tab\tnewline\n.html|L:|";

static void test_every_element_any_chunking(void **state) {
  (void)state;
  /* every chunk size (libxml2 2.9 lost the rest of a page split inside "</script>") */
  for (size_t chunk = 1; chunk <= sizeof(page); chunk++) {
    struct events ev;
    extract(page, chunk, NULL, &ev);
    if (strcmp(ev.text, want) != 0)
      fail_msg("chunk %zu:\n got %s\nwant %s", chunk, ev.text, want);
  }
}

/* As browsers do, content after </body> and </html> is read (injected scripts, footers), in any
 * chunking, with the end tags written in any case and with spaces or junk before their '>'. */
static void test_after_the_end(void **state) {
  (void)state;
  static const char doc[] = "<html><body><a href=\"in.html\">in</a></body></html>\n"
                            "<script src=\"late.js\"></script><a href=\"after.html\">after</a>"
                            "</BODY ></Html\n x=\"1\"><p><img src=\"later.png\"></p></bodyguard>"
                            "<a href=\"last.html\">last</a></html";
  static const char want_links[] = "L:in.html|L:late.js|L:after.html|L:later.png|L:last.html|";
  expect_in_any_chunking(doc, want_links);
}

/* A body cut short (--max-size) gives the links it holds whole, and none made up from what its
 * cut end leaves half written, whether it was held or streamed. Finished, the half url() of a
 * style sheet would be read as a whole one. */
static void test_cut_short(void **state) {
  (void)state;
  static const char doc[] =
      "<p><a href=\"one.html\">1</a> <img src=\"two.png\"><style>p{background:url(thr";
  for (size_t hold = 0; hold <= PARSE_HTML_HOLD; hold += PARSE_HTML_HOLD / 2) {
    for (size_t chunk = 1; chunk <= sizeof(doc); chunk++) {
      struct events ev = {0};
      parse_html *p;
      assert_int_equal(parse_html_create(NULL, collect, &ev, &p), CORE_OK);
      parse_html_hold(p, hold);
      for (size_t off = 0; off < sizeof(doc) - 1; off += chunk)
        assert_int_equal(
            parse_html_feed(p, doc + off,
                            off + chunk > sizeof(doc) - 1 ? sizeof(doc) - 1 - off : chunk),
            CORE_OK);
      assert_int_equal(parse_html_cut(p), CORE_OK);
      parse_html_destroy(p);
      if (strcmp(ev.text, "L:one.html|L:two.png|") != 0)
        fail_msg("hold %zu, chunk %zu: got %s", hold, chunk, ev.text);
    }
  }
  struct events ev;
  extract(doc, sizeof(doc), NULL, &ev);
  assert_string_equal(ev.text, "L:one.html|L:two.png|L:thr|");
}

/* 80 parts of 35 bytes, the hold at 2,048 bytes and, when said is not 0, the page's length said
 * to be that. The first 40 (1,400 bytes) are held: no event comes while they are fed. Then the
 * hold is set to hold_then (SIZE_MAX: left alone) and the other 40 are fed: their events come as
 * they are fed when the page outgrew the hold, at its end when held_to_end. Either way all 80
 * links come. */
static void hold_across(size_t said, size_t hold_then, bool held_to_end) {
  static const char part[] = "<p><a href=\"one.html\">one</a></p>\n"; /* 35 bytes */
  struct events ev = {0};
  parse_html *p;
  assert_int_equal(parse_html_create(NULL, collect, &ev, &p), CORE_OK);
  parse_html_hold(p, 2048);
  if (said)
    parse_html_expect(p, said);
  for (int i = 0; i < 40; i++) /* held, the encoding decided on the first 1,024 bytes */
    assert_int_equal(parse_html_feed(p, part, sizeof(part) - 1), CORE_OK);
  assert_int_equal(ev.len, 0);
  if (hold_then != SIZE_MAX)
    parse_html_hold(p, hold_then);
  for (int i = 0; i < 40; i++)
    assert_int_equal(parse_html_feed(p, part, sizeof(part) - 1), CORE_OK);
  if (held_to_end)
    assert_int_equal(ev.len, 0);
  else
    assert_true(ev.len > 0);
  assert_int_equal(parse_html_finish(p), CORE_OK);
  parse_html_destroy(p);
  size_t links = 0;
  for (const char *t = ev.text; (t = strstr(t, "L:one.html|")); t++)
    links++;
  assert_int_equal(links, 80);
}

/* A page is held only up to the hold: its events come at its end while it fits, and from inside
 * parse_html_feed once it outgrew it, so a long page is never held whole. */
static void test_hold_is_bounded(void **state) {
  (void)state;
  hold_across(0, SIZE_MAX, false);
}

/* The length a server says is a hint for the room held, not a bound: a page shorter than it,
 * or longer (a server that said too little), gives all its links, and the hold still decides
 * when it is parsed. */
static void test_expected_length_is_a_hint(void **state) {
  (void)state;
  hold_across(100, SIZE_MAX, false);
  hold_across(1400, SIZE_MAX, false);
  hold_across(4000, SIZE_MAX, false);
}

/* The hold may change as the page comes (a crawl grows it while its shard has room): raised
 * before the page outgrew it, the page stays held to its end; lowered, the next text sends what
 * is held to the parser and the page is parsed as it comes. */
static void test_hold_changed_midway(void **state) {
  (void)state;
  hold_across(0, 4096, true);
  hold_across(0, 0, false);
  hold_across(0, 1500, false);
}

/* CSS in a page: <style> (given by libxml2 in pieces) and style attributes, in any chunking; a
 * url() in the page's text is no link. */
static void test_css_in_html(void **state) {
  (void)state;
  static const char doc[] =
      "<html><head><style>@import \"s.css\"; p { background: url('p.png') } "
      "/* url(no.png) */</style></head><body><p>url(text.png)</p>"
      "<div style=\"background:url(div.png)\">x</div><STYLE>a{b:url(late.png)}</STYLE>"
      "</body></html>";
  static const char want_links[] = "L:s.css|L:p.png|L:div.png|L:late.png|";
  expect_in_any_chunking(doc, want_links);
}

/* A GET form's action is a link, without its query; POST and dialog forms, and an empty
 * action (the page itself), give none. */
static void test_form_actions(void **state) {
  (void)state;
  static const char doc[] =
      "<html><body><form action=\"/search?q=old#top\"><input name=q></form>"
      "<FORM METHOD=GET ACTION=\" /find \"></FORM><form method=post action=/buy></form>"
      "<form method=dialog action=/d></form><form action=\"\"></form><form></form>"
      "<form method=\"\" action=\"list.html\"></form></body></html>";
  static const char want_links[] = "L:/search|L:/find|L:list.html|";
  expect_in_any_chunking(doc, want_links);
}

/* The other attributes the HTML Standard gives a URL: the source a blockquote, q, del or ins
 * cites; an image's or frame's long description and an image's low-resolution copy (obsolete, as
 * wget reads them); a submit button's formaction where its submission is GET, by its formmethod or
 * else its form's method (a reset or plain button submits nothing, nor one outside a form or
 * naming its form elsewhere that does not say GET itself). */
static void test_cited_described_and_submitted(void **state) {
  (void)state;
  static const char doc[] =
      "<html><body><blockquote cite=\"/quoted.html\"><q cite=q.html>x</q></blockquote>"
      "<del cite=why-del.html>a</del><ins cite=\"why-ins.html\" cite=second.html>b</ins>"
      "<img src=i.png lowsrc=low.png longdesc=desc.html><iframe src=f.html longdesc=fdesc.html>"
      "</iframe><form method=post action=/buy><button formaction=/buy2>b</button>"
      "<button formmethod=GET formaction=/got>g</button>"
      "<input type=submit formmethod=dialog formaction=/dialog></form>"
      "<form action=/search><button formaction=\" /other?x=1#top\">go</button>"
      "<button type=reset formaction=/reset>r</button><button type=BUTTON formaction=/s>s</button>"
      "<button formmethod=post formaction=/post>p</button><input type=submit formaction=/submit>"
      "<input type=image src=btn.png formaction=/image><input type=text formaction=/text>"
      "<button type=odd formaction=/odd>o</button><button form=f2 formaction=/owner>f</button>"
      "<button form=f2 formmethod=get formaction=/owned>f</button></form>"
      "<button formaction=/outside>o</button><button formmethod=get formaction=/named>n</button>"
      "</body></html>";
  static const char want_links[] =
      "L:/quoted.html|L:q.html|L:why-del.html|L:why-ins.html|L:i.png|L:low.png|L:desc.html|"
      "L:f.html|L:fdesc.html|L:/got|L:/search|L:/other|L:/submit|L:btn.png|L:/image|L:/odd|"
      "L:/owned|L:/named|";
  expect_in_any_chunking(doc, want_links);
}

static void test_nofollow(void **state) {
  (void)state;
  struct events ev;
  extract("<html><head><meta name=\"ROBOTS\" content=\"noindex, NOFOLLOW\"></head>"
          "<body><a href=x>x</a></body></html>",
          16, NULL, &ev);
  assert_string_equal(ev.text, "N:|L:x|");
  extract("<meta name=robots content=\"index,follow\"><a href=y>y</a>", 16, NULL, &ev);
  assert_string_equal(ev.text, "L:y|");
}

/* Elements whose content is text, as the HTML Standard tokenizes them (libxml2 does since
 * 2.14): a link written inside title, textarea, xmp, noembed, iframe, plaintext or script is no
 * link, in any chunking; an iframe's own src is, and CSS in style elements and attributes is
 * read. */
static void test_text_only_elements(void **state) {
  (void)state;
  static const char doc[] =
      "<html><head><title><a href=\"title.html\">t</a></title>"
      "<style><a href=\"style.html\"></a> @import \"sheet.css\";</style>"
      "<script><a href=\"script.html\"></a></script></head><body>"
      "<textarea><a href=\"textarea.html\">x</a></textarea>"
      "<xmp><img src=\"xmp.png\"></xmp>"
      "<noembed><a href=\"noembed.html\">x</a></noembed>"
      "<iframe src=\"frame.html\"><a href=\"iframe.html\">x</a></iframe>"
      "<p style=\"background: url(bg.png)\"><a href=\"real.html\">x</a></p>"
      "<plaintext><a href=\"plaintext.html\">x</a></plaintext><a href=\"after.html\">";
  static const char want_links[] = "L:sheet.css|L:frame.html|L:bg.png|L:real.html|";
  expect_in_any_chunking(doc, want_links);
}

/* libxml2 reads the page as the HTML Standard's tokenizer does, tag by tag, with no tree built
 * (doc/behaviour.md, Links): a start tag in a place a tree builder would drop it (a second <body>,
 * whose attributes a browser adds to the first; a <head> inside the body) still gives its links,
 * as do elements after stray end tags, and a <style> or <script> left open at the end. */
static void test_tags_as_written(void **state) {
  (void)state;
  static const char doc[] =
      "<html><head></head><body><p>x</p></div></table></a>"
      "<head><link rel=stylesheet href=late.css></head>"
      "<body style=\"background:url(body.png)\"><html style=\"background:url(html.png)\">"
      "<table><a href=\"in-table.html\">t</a><tr><td><img src=\"cell.png\"></table>"
      "<svg><a href=\"svg.html\">s</a></svg><style>a{b:url(open.png)}";
  static const char want_links[] =
      "L:late.css|L:body.png|L:html.png|L:in-table.html|L:cell.png|L:svg.html|L:open.png|";
  expect_in_any_chunking(doc, want_links);
}

static void test_garbage_does_not_crash(void **state) {
  (void)state;
  char junk[4096];
  unsigned seed = 12345;
  for (int round = 0; round < 50; round++) {
    for (size_t i = 0; i < sizeof(junk) - 1; i++) {
      seed = seed * 1103515245u + 12345u;
      const char alphabet[] = "<>a =\"'/href\0\xff\xfe&#;!-";
      junk[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
    }
    junk[sizeof(junk) - 1] = '\0';
    struct events ev;
    extract(junk, 13, NULL, &ev);
  }
}

static void test_refresh_content(void **state) {
  (void)state;
  const char *url;
  size_t len;
  assert_true(parse_refresh_url("0; url=/a", &url, &len));
  assert_int_equal(len, 2);
  assert_memory_equal(url, "/a", 2);
  assert_true(parse_refresh_url("3;URL=\"/b c\"", &url, &len));
  assert_memory_equal(url, "/b c", 4);
  assert_true(parse_refresh_url("5, /d", &url, &len));
  assert_memory_equal(url, "/d", 2);
  assert_false(parse_refresh_url("5", &url, &len));
  assert_false(parse_refresh_url("", &url, &len));
  assert_false(parse_refresh_url("soon; url=/x", &url, &len));
  /* whitespace alone may part the delay from the URL; a delay may begin with '.' */
  assert_true(parse_refresh_url("5 url=/e", &url, &len));
  assert_memory_equal(url, "/e", 2);
  assert_true(parse_refresh_url(" .5\t/f", &url, &len));
  assert_memory_equal(url, "/f", 2);
  /* no delay, or something else after it: not a refresh */
  assert_false(parse_refresh_url(";;;url=/x", &url, &len));
  assert_false(parse_refresh_url("; url=/x", &url, &len));
  assert_false(parse_refresh_url("5x; url=/x", &url, &len));
}

/* Each link says where it was found: its element, a refresh, a form, CSS or a script. */
struct vias {
  parse_html *html;
  char text[1024];
  size_t len;
};

static void collect_via(void *arg, parse_event event, const char *value, size_t len) {
  struct vias *v = arg;
  if (event != PARSE_LINK)
    return;
  const char *name = parse_via_name(parse_html_link_via(v->html));
  int n = snprintf(v->text + v->len, sizeof(v->text) - v->len, "%s:%.*s|", name ? name : "?",
                   (int)len, value);
  if (n > 0)
    v->len += (size_t)n;
}

static void test_link_via(void **state) {
  (void)state;
  static const char html[] =
      "<link href=s.css><meta http-equiv=refresh content=\"1;url=r\"><style>b{x:url(st)}</style>"
      "<a href=a style=\"x:url(sa)\"><img src=i srcset=\"i2 2x\"><form action=f></form>"
      "<video src=v poster=p></video><script>go('/j.html')</script><script src=x.js></script>"
      "<iframe src=fr></iframe><object data=o></object><source srcset=so><area href=ar>"
      "<body background=bg><table background=tb><td background=td><th background=th></table>"
      "<input type=IMAGE src=in><input src=no><input type=text src=no2>"
      "<svg><a xlink:href=xa>x</a><image href=ih xlink:href=ix></image><use xlink:href=s.svg#i>"
      "</use></svg><link rel=preload as=image imagesrcset=\"p1 1x, p2 2x\" srcset=no3>"
      "<img imagesrcset=no4><q cite=qc>q</q><form><button formaction=bf>b</button></form>"
      "<img src=i3 longdesc=d lowsrc=l>";
  /* background images, image buttons and SVG's images and sprites are images; a preload's
   * candidates are the link's, and each element reads its own candidate list alone */
  static const char expected[] =
      "link:s.css|refresh:r|css:st|css:sa|a:a|img:i|img:i2|form:f|video:v|"
      "video:p|js:/j.html|script:x.js|iframe:fr|object:o|source:so|area:ar|"
      "img:bg|img:tb|img:td|img:th|img:in|a:xa|img:ih|img:ix|img:s.svg#i|link:p1|link:p2|"
      "cite:qc|form:bf|img:i3|img:l|img:d|";
  for (size_t chunk = 1; chunk <= sizeof(html); chunk = chunk * 3 + 1) {
    struct vias v = {0};
    assert_int_equal(parse_html_create(NULL, collect_via, &v, &v.html), CORE_OK);
    parse_html_scan_scripts(v.html);
    parse_html_hold(v.html, chunk); /* the first chunk is held, the rest streams */
    for (size_t off = 0; off < sizeof(html) - 1; off += chunk) {
      size_t n = off + chunk > sizeof(html) - 1 ? sizeof(html) - 1 - off : chunk;
      assert_int_equal(parse_html_feed(v.html, html + off, n), CORE_OK);
    }
    assert_int_equal(parse_html_finish(v.html), CORE_OK);
    parse_html_destroy(v.html);
    assert_string_equal(v.text, expected);
  }
  assert_null(parse_via_name(PARSE_VIA_COUNT));
}

/* A page's events through a parser from pool (NULL: one of its own), in chunks, with the hold
 * lowered to nothing after the first (streamed); unfinished leaves it as a transfer that failed
 * midway leaves it, destroyed without parse_html_finish. */
static void extract_in(parse_html_pool *pool, const char *doc, size_t len, size_t chunk,
                       const char *charset, bool unfinished, struct events *ev) {
  memset(ev, 0, sizeof(*ev));
  parse_html *p;
  assert_int_equal(parse_html_create_in(pool, charset, collect, ev, &p), CORE_OK);
  for (size_t off = 0; off < len; off += chunk) {
    assert_int_equal(parse_html_feed(p, doc + off, off + chunk > len ? len - off : chunk), CORE_OK);
    parse_html_hold(p, 0);
    if (unfinished && off + chunk >= len / 2)
      break;
  }
  if (!unfinished)
    assert_int_equal(parse_html_finish(p), CORE_OK);
  parse_html_destroy(p);
}

/* A parser taken from a pool starts as a new one does, whatever the page before it left in it:
 * its encoding, its base, a page left halfway inside a tag or a script, a page of made-up names. */
static void test_pooled_parsers_start_clean(void **state) {
  (void)state;
  static const char utf16[] = "\xff\xfe<\0a\0 \0h\0r\0e\0f\0=\0u\0.\0h\0t\0m\0l\0>\0";
  char names[4096];
  size_t n = 0;
  for (int i = 0; n + 40 < sizeof(names); i++)
    n += (size_t)snprintf(names + n, sizeof(names) - n, "<x%d y%d=1><a href=n%d>", i, i, i);
  const struct {
    const char *doc;
    size_t len;
    const char *charset;
  } docs[] = {
      {page, sizeof(page) - 1, NULL},
      {"<meta charset=\"iso-8859-2\"><a href=\"\xb1.html?q=\xb1\">x</a>", 0, NULL},
      {"<a href=\"caf\xe9.html\">x</a><script>var a = '<a href=s.html>", 0, "iso-8859-1"},
      {utf16, sizeof(utf16) - 1, NULL},
      {"<a href=\"caf\xc3\xa9.html\">x</a><textarea><a href=no.html>", 0, NULL},
      {"<base href=\"/b/\"><a href=\"x.html\"><a href=\"y.html", 0, NULL},
      {names, n, NULL},
      {"<a href=plain.html>", 0, NULL},
  };
  size_t count = sizeof(docs) / sizeof(docs[0]), lens[sizeof(docs) / sizeof(docs[0])];
  for (size_t i = 0; i < count; i++)
    lens[i] = docs[i].len ? docs[i].len : strlen(docs[i].doc);
  parse_html_pool *pool;
  assert_int_equal(parse_html_pool_create(&pool), CORE_OK);
  for (int round = 0; round < 3; round++) {
    for (size_t i = 0; i < count; i++) {
      size_t len = lens[i], before = (i + 1) % count;
      for (size_t chunk = 7; chunk <= len + 7; chunk += len) {
        /* another page first, left halfway in the second round, so that this one takes the
         * parser it used */
        struct events left, pooled, fresh;
        extract_in(pool, docs[before].doc, lens[before], chunk, docs[before].charset, round == 1,
                   &left);
        extract_in(pool, docs[i].doc, len, chunk, docs[i].charset, false, &pooled);
        extract_in(NULL, docs[i].doc, len, chunk, docs[i].charset, false, &fresh);
        if (strcmp(pooled.text, fresh.text) != 0)
          fail_msg("round %d, page %zu, chunk %zu:\n pooled %s\n  fresh %s", round, i, chunk,
                   pooled.text, fresh.text);
      }
    }
  }
  parse_html_pool_destroy(pool);
  parse_html_pool_destroy(NULL);
}

/* Memory running out while a page's <style> (or a style attribute) is read: the page says so
 * and the crawl ends (doc/behaviour.md), or it is as if nothing happened. Never the sheet's links,
 * or the page's after it, lost without a word. */
static void test_out_of_memory_in_styles_said(void **state) {
  (void)state;
  char doc[2048], path[400];
  memset(path, 'x', sizeof(path) - 1);
  path[0] = '/';
  path[sizeof(path) - 1] = '\0';
  snprintf(doc, sizeof(doc),
           "<p style=\"background:url(/attr.png)\"><style>a{b:url(%s)} c{d:url(/c.png)}</style>"
           "<a href=\"/after\">after</a>",
           path);
  char whole[600];
  snprintf(whole, sizeof(whole), "L:/attr.png|L:%s|L:/c.png|L:/after|", path);
  long said = 0;
  for (long n = 1;; n++) {
    struct events ev;
    memset(&ev, 0, sizeof(ev));
    parse_html *p;
    assert_int_equal(parse_html_create(NULL, collect, &ev, &p), CORE_OK);
    parse_html_hold(p, 0); /* streamed, as a page past the hold is */
    wrap_realloc_fail_in(n);
    core_rc rc = CORE_OK;
    for (size_t off = 0; off < strlen(doc) && !rc; off += 13)
      rc = parse_html_feed(p, doc + off, strlen(doc) - off < 13 ? strlen(doc) - off : 13);
    if (!rc)
      rc = parse_html_finish(p);
    bool none_failed = wrap_realloc_pending();
    wrap_realloc_fail_in(0);
    parse_html_destroy(p);
    if (rc == CORE_OK) {
      if (strcmp(ev.text, whole) != 0)
        fail_msg("realloc %ld failed without a word:\n got %s\nwant %s", n, ev.text, whole);
      if (none_failed)
        break;
      continue;
    }
    said++;
    assert_int_equal(rc, CORE_ENOMEM);
    if (strncmp(whole, ev.text, ev.len) != 0)
      fail_msg("realloc %ld: a link made up:\n got %s\nwant %s", n, ev.text, whole);
  }
  assert_true(said >= 2); /* the sheet's long URL grew more than once */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_element_any_chunking),
      cmocka_unit_test(test_after_the_end),
      cmocka_unit_test(test_cut_short),
      cmocka_unit_test(test_hold_is_bounded),
      cmocka_unit_test(test_expected_length_is_a_hint),
      cmocka_unit_test(test_hold_changed_midway),
      cmocka_unit_test(test_css_in_html),
      cmocka_unit_test(test_form_actions),
      cmocka_unit_test(test_cited_described_and_submitted),
      cmocka_unit_test(test_nofollow),
      cmocka_unit_test(test_text_only_elements),
      cmocka_unit_test(test_tags_as_written),
      cmocka_unit_test(test_garbage_does_not_crash),
      cmocka_unit_test(test_refresh_content),
      cmocka_unit_test(test_link_via),
      cmocka_unit_test(test_pooled_parsers_start_clean),
      cmocka_unit_test(test_out_of_memory_in_styles_said),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
