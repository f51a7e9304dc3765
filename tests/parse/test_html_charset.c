/* parse/html.c: character encodings: a page decoded from the charset its header, a <meta> or its
 * first bytes give (doc/behaviour.md, Character encodings), bad bytes decoded on, and the charset
 * reported for its links' queries. */
#include "parse/parse.h"

#include <iconv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "tests/parse/html_events.h"

static void test_legacy_charset(void **state) {
  (void)state;
  /* "caf\xe9" in ISO-8859-1 comes out as UTF-8 */
  struct events ev;
  extract("<html><body><a href=\"caf\xe9.html\">x</a></body></html>", 5, "iso-8859-1", &ev);
  assert_string_equal(ev.text, "L:caf\xc3\xa9.html|");
  extract("<html><head><meta charset=\"iso-8859-1\"></head><body><a href=\"caf\xe9.html\">x</a>"
          "</body></html>",
          4096, NULL, &ev);
  assert_string_equal(ev.text, "L:caf\xc3\xa9.html|");
}

/* The charset a page is decoded from, as its links' queries are encoded in it: the header's, a
 * <meta>'s, or the one sniffed; NULL for UTF-8, and for UTF-16, whose queries are UTF-8. */
static const char *charset_of(const char *doc, size_t len, const char *declared, char *out,
                              size_t size) {
  parse_html *p;
  struct events ev;
  memset(&ev, 0, sizeof(ev));
  assert_int_equal(parse_html_create(declared, collect, &ev, &p), CORE_OK);
  assert_int_equal(parse_html_feed(p, doc, len), CORE_OK);
  assert_int_equal(parse_html_finish(p), CORE_OK);
  const char *name = parse_html_charset(p);
  if (name)
    snprintf(out, size, "%s", name);
  parse_html_destroy(p);
  return name ? out : NULL;
}

static void test_charset_reported(void **state) {
  (void)state;
  char name[64];
  static const char plain[] = "<p><a href=x>x</a>";
  static const char meta[] = "<meta charset=\"ISO-8859-2\"><a href=x>x</a>";
  static const char latin[] = "<p><a href=\"caf\xe9\">x</a>";
  static const char utf16[] = "\xff\xfe<\0a\0>\0";
  /* the Encoding Standard's label iso-8859-1 names windows-1252 */
  assert_string_equal(charset_of(plain, strlen(plain), "iso-8859-1", name, sizeof(name)),
                      "windows-1252");
  /* a label the standard lacks is as none: the bytes are sniffed */
  assert_null(charset_of(plain, strlen(plain), "utf-7", name, sizeof(name)));
  assert_string_equal(charset_of(latin, strlen(latin), "utf-32", name, sizeof(name)),
                      "windows-1252");
  assert_string_equal(charset_of(plain, strlen(plain), " Shift_JIS ", name, sizeof(name)),
                      "WINDOWS-31J");
  assert_string_equal(charset_of(plain, strlen(plain), "gb2312", name, sizeof(name)), "GBK");
  assert_true(strcasecmp(charset_of(meta, strlen(meta), NULL, name, sizeof(name)), "ISO-8859-2") ==
              0);
  assert_null(charset_of(plain, strlen(plain), NULL, name, sizeof(name)));
  assert_null(charset_of(plain, strlen(plain), "utf-8", name, sizeof(name)));
  assert_string_equal(charset_of(latin, strlen(latin), NULL, name, sizeof(name)), "windows-1252");
  assert_null(charset_of(utf16, sizeof(utf16) - 1, "iso-8859-1", name, sizeof(name)));
}

/* The forms of <meta http-equiv=content-type content=...> the HTML Standard reads ("extracting a
 * character encoding from a meta element"): quoted or not, spaces around '=', cut at ';', an
 * unclosed quote or a missing '=' giving nothing, http-equiv and content both needed. */
static void test_meta_content_forms(void **state) {
  (void)state;
  static const struct {
    const char *meta, *want; /* want NULL: no encoding from the meta */
  } cases[] = {
      {"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-2\">",
       "ISO-8859-2"},
      {"<meta http-equiv=content-type content=\"text/html; charset='iso-8859-2'\">", "ISO-8859-2"},
      {"<meta content='text/html; charset=\"iso-8859-2\"' http-equiv=Content-Type>", "ISO-8859-2"},
      {"<meta http-equiv=content-type content=\"text/html; CHARSET = iso-8859-2 \">", "ISO-8859-2"},
      {"<meta http-equiv=content-type content=\"text/html;charset=iso-8859-2;x=y\">", "ISO-8859-2"},
      {"<meta http-equiv=content-type content=\"charset; charset=iso-8859-2\">", "ISO-8859-2"},
      {"<meta http-equiv=content-type content=\"text/html; charset='iso-8859-2\">", NULL},
      {"<meta http-equiv=content-type content=\"text/html; charset\">", NULL},
      {"<meta http-equiv=content-type content=\"text/html; charset=\">", NULL},
      {"<meta content=\"text/html; charset=iso-8859-2\">", NULL},
      {"<meta http-equiv=refresh content=\"text/html; charset=iso-8859-2\">", NULL},
      /* the prescan passes over comments; "<!-->" and "<!--->" end where they begin */
      {"<!-- <meta charset=\"iso-8859-2\"> -->", NULL},
      {"<!--><meta charset=\"iso-8859-2\">", "ISO-8859-2"},
      {"<!---><meta charset=\"iso-8859-2\"> -->", "ISO-8859-2"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char doc[256], name[64];
    snprintf(doc, sizeof(doc), "%s<p><a href=x>x</a>", cases[i].meta);
    const char *got = charset_of(doc, strlen(doc), NULL, name, sizeof(name));
    if (cases[i].want ? !got || strcasecmp(got, cases[i].want) != 0 : got != NULL)
      fail_msg("%s: got %s, want %s", cases[i].meta, got ? got : "none",
               cases[i].want ? cases[i].want : "none");
  }
}

/* A byte sequence the page's encoding does not have is U+FFFD, and the page goes on (the Encoding
 * Standard's decoders): the links after it are found, in any chunking, whether the Content-Type
 * or a <meta> named the encoding. */
static void test_bad_bytes_decode_on(void **state) {
  (void)state;
  static const struct {
    const char *charset, *doc, *want;
  } cases[] = {
      {"shift_jis", "<p>\x82</p><a href=\"/fine\">x</a>", "L:/fine|"},
      {"euc-jp", "<p>\xa4</p><a href=\"/fine\">x</a>", "L:/fine|"},
      {"gbk", "<p>\x81</p><a href=\"/fine\">x</a>", "L:/fine|"},
      {"gb18030", "<p>\x81\x30</p><a href=\"/fine\">x</a>", "L:/fine|"},
      {"big5", "<p>\xa4</p><a href=\"/fine\">x</a>", "L:/fine|"},
      {"euc-kr", "<p>\xb0</p><a href=\"/fine\">x</a>", "L:/fine|"},
      {"iso-2022-jp", "<p>\x1b$B\x7f\x1b(B</p><a href=\"/fine\">x</a>", "L:/fine|"},
      /* the character before the bad byte and after it are decoded: \x82\xa0 is U+3042 */
      {"shift_jis", "<a href=\"/\x82\xa0\x82<\x82\xa0\">x</a>",
       "L:/\xe3\x81\x82\xef\xbf\xbd<\xe3\x81\x82|"},
      {NULL,
       "<html><head><meta charset=\"shift_jis\"></head><body><p>\x82</p>"
       "<a href=\"/after1\">a</a><p>\xff\xff</p><a href=\"/after2\">b</a>",
       "L:/after1|L:/after2|"},
      {NULL,
       "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=euc-kr\">"
       "<p>\xb0</p><a href=\"/after\">a</a>",
       "L:/after|"},
      /* characters of different lead bytes cut by every chunking: each is joined with its own
       * start, never with bytes left from an earlier one */
      {"shift_jis", "<a href=\"/\x93\xfa\x96\x7b\x82\xa0\">x</a>",
       "L:/\xe6\x97\xa5\xe6\x9c\xac\xe3\x81\x82|"},
      {"euc-jp", "<a href=\"/\xc6\xfc\xcb\xdc\">x</a>", "L:/\xe6\x97\xa5\xe6\x9c\xac|"},
      /* a cut character at the page's end */
      {"shift_jis", "<a href=\"/fine\">x</a>\x82", "L:/fine|"},
      /* the replacement encoding: the whole page is one U+FFFD, as browsers read it */
      {"iso-2022-kr", "<a href=\"/never\">x</a>", ""},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    size_t len = strlen(cases[i].doc);
    for (size_t chunk = 1; chunk <= len + 1; chunk++) {
      struct events ev;
      extract(cases[i].doc, chunk, cases[i].charset, &ev);
      if (strcmp(ev.text, cases[i].want) != 0)
        fail_msg("case %zu, chunk %zu:\n got %s\nwant %s", i, chunk, ev.text, cases[i].want);
    }
    /* a page that short is decoded at its end, in one piece: after 1,100 spaces (the first
     * 1,024 bytes are held to find the encoding in) it is decoded chunk by chunk as it streams */
    if (!cases[i].charset)
      continue; /* a <meta> so far in would not count */
    char padded[2048];
    snprintf(padded, sizeof(padded), "%1100s%s", "", cases[i].doc);
    for (size_t chunk = 1; chunk <= 40; chunk++) {
      struct events ev;
      extract(padded, chunk, cases[i].charset, &ev);
      if (strcmp(ev.text, cases[i].want) != 0)
        fail_msg("case %zu after spaces, chunk %zu:\n got %s\nwant %s", i, chunk, ev.text,
                 cases[i].want);
    }
  }
}

/* Fills the stack below the caller with v: what a function left there is gone before the next
 * call, as it would be after any other work of a crawl between two chunks of a page. */
static void __attribute__((noinline)) scribble_stack(unsigned char v) {
  volatile unsigned char junk[1 << 16];
  for (size_t i = 0; i < sizeof(junk); i++)
    junk[i] = v;
}

/* A character cut between chunks is joined from the start kept for it, not from what the stack
 * happened to hold: the stack is scribbled on between every two chunks. */
static void test_cut_characters_joined_from_what_was_kept(void **state) {
  (void)state;
  static const struct {
    const char *charset, *doc, *want;
  } cases[] = {
      {"shift_jis", "<a href=\"/\x93\xfa\x96\x7b\x82\xa0\">x</a>",
       "L:/\xe6\x97\xa5\xe6\x9c\xac\xe3\x81\x82|"},
      {"euc-jp", "<a href=\"/\xc6\xfc\xcb\xdc\">x</a>", "L:/\xe6\x97\xa5\xe6\x9c\xac|"},
      /* four bytes each: U+0080 and U+0081 */
      {"gb18030", "<a href=\"/\x81\x30\x81\x30\x81\x30\x81\x31\">x</a>", "L:/\xc2\x80\xc2\x81|"},
  };
  /* past the first 1,024 bytes, which are held to find the encoding in: the rest streams */
  char doc[2048];
  memset(doc, ' ', 1100);
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    snprintf(doc + 1100, sizeof(doc) - 1100, "%s", cases[i].doc);
    size_t len = strlen(doc);
    for (size_t chunk = 1; chunk <= 3; chunk++) {
      struct events ev;
      memset(&ev, 0, sizeof(ev));
      parse_html *p;
      assert_int_equal(parse_html_create(cases[i].charset, collect, &ev, &p), CORE_OK);
      parse_html_hold(p, 0);
      for (size_t off = 0; off < len; off += chunk) {
        scribble_stack((unsigned char)(0x80 + off));
        assert_int_equal(parse_html_feed(p, doc + off, len - off < chunk ? len - off : chunk),
                         CORE_OK);
      }
      assert_int_equal(parse_html_finish(p), CORE_OK);
      parse_html_destroy(p);
      if (strcmp(ev.text, cases[i].want) != 0)
        fail_msg("case %zu, chunk %zu:\n got %s\nwant %s", i, chunk, ev.text, cases[i].want);
    }
  }
}

/* Every encoding the Encoding Standard names decodes with the system's iconv, and its query
 * charset is one iconv can encode to: a name glibc lacks would fail every page in it. */
static void test_every_encoding_decodes(void **state) {
  (void)state;
  static const char *const names[] = {
      "ibm866",        "iso-8859-2",   "iso-8859-3",     "iso-8859-4",   "iso-8859-5",
      "iso-8859-6",    "iso-8859-7",   "iso-8859-8",     "iso-8859-8-i", "iso-8859-10",
      "iso-8859-13",   "iso-8859-14",  "iso-8859-15",    "iso-8859-16",  "koi8-r",
      "koi8-u",        "macintosh",    "windows-874",    "windows-1250", "windows-1251",
      "windows-1252",  "windows-1253", "windows-1254",   "windows-1255", "windows-1256",
      "windows-1257",  "windows-1258", "x-mac-cyrillic", "gbk",          "gb18030",
      "big5",          "euc-jp",       "iso-2022-jp",    "shift_jis",    "euc-kr",
      "x-user-defined"};
  static const char doc[] = "<p>\xa4\xa2</p><a href=\"/x\">x</a>";
  for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
    struct events ev;
    extract(doc, 5, names[i], &ev);
    if (strcmp(ev.text, "L:/x|") != 0)
      fail_msg("%s: %s", names[i], ev.text);
    char name[64];
    const char *query = charset_of(doc, strlen(doc), names[i], name, sizeof(name));
    if (query) {
      iconv_t cd = iconv_open(query, "UTF-8");
      if (cd == (iconv_t)-1)
        fail_msg("%s: iconv cannot encode a query in %s", names[i], query);
      iconv_close(cd);
    }
  }
}

/* windows-1252 as the Encoding Standard has it: the five bytes glibc leaves undefined are
 * U+0081, U+008D, U+008F, U+0090 and U+009D, and the rest of 0x80-0x9F its own characters. */
static void test_windows_1252_table(void **state) {
  (void)state;
  struct events ev;
  extract("<a href=\"/\x81\x8d\x8f\x90\x9d\x80\x9f\xff\">x</a>", 3, "windows-1252", &ev);
  assert_string_equal(ev.text, "L:/\xc2\x81\xc2\x8d\xc2\x8f\xc2\x90\xc2\x9d\xe2\x82\xac"
                               "\xc5\xb8\xc3\xbf|");
}
/* No charset declared: UTF-8 when the first bytes are valid UTF-8, windows-1252 when not; a
 * <meta> charset among them wins over that guess. */
static void test_undeclared_encoding_is_sniffed(void **state) {
  (void)state;
  struct events ev;
  for (size_t chunk = 1; chunk < 64; chunk += 7) {
    extract("<html><body><a href=\"caf\xc3\xa9.html\">x</a><a href=\"http://b\xc3\xbc"
            "cher.example/\">y</a></body></html>",
            chunk, NULL, &ev);
    assert_string_equal(ev.text, "L:caf\xc3\xa9.html|L:http://b\xc3\xbc"
                                 "cher.example/|");
    extract("<p><a href=\"caf\xe9\x80.html\">x</a>", chunk, NULL, &ev);
    assert_string_equal(ev.text, "L:caf\xc3\xa9\xe2\x82\xac.html|"); /* \x80 is the euro sign */
    extract("<meta charset=windows-1252><a href=\"\xc3\xa9.html\">x</a>", chunk, NULL, &ev);
    assert_string_equal(ev.text, "L:\xc3\x83\xc2\xa9.html|");
  }
  /* a character cut at the end of the first 1,024 bytes is UTF-8 still */
  char long_page[2048] = "<p>x";
  size_t n = strlen(long_page);
  while (n < 1022) {
    memcpy(long_page + n, "\xc3\xa9", 2);
    n += 2;
  }
  assert_int_equal(n, 1022); /* the euro sign is cut at byte 1,024 */
  memcpy(long_page + n, "\xe2\x82\xac<a href=\"\xc3\xa9\">x</a>", 16);
  extract(long_page, 4096, NULL, &ev);
  assert_string_equal(ev.text, "L:\xc3\xa9|");
}

/* A BOM decides the encoding, over the Content-Type's charset: UTF-16 in either byte order, in
 * any chunking (characters and surrogate pairs cut between chunks); a lone surrogate is U+FFFD. */
static void test_bom_decides(void **state) {
  (void)state;
  /* "<a href=" "caf\u00e9\U0001F600" "\ud800" "x.html>" as UTF-16 */
  static const unsigned short units[] = {'<', 'a', ' ', 'h',    'r',    'e',    'f',    '=',
                                         'c', 'a', 'f', 0x00e9, 0xd83d, 0xde00, 0xd800, 'x',
                                         '.', 'h', 't', 'm',    'l',    '>'};
  size_t count = sizeof(units) / sizeof(*units);
  char le[64], be[64];
  le[0] = (char)0xff, le[1] = (char)0xfe, be[0] = (char)0xfe, be[1] = (char)0xff;
  for (size_t i = 0; i < count; i++) {
    le[2 + 2 * i] = (char)(units[i] & 0xff), le[3 + 2 * i] = (char)(units[i] >> 8);
    be[2 + 2 * i] = (char)(units[i] >> 8), be[3 + 2 * i] = (char)(units[i] & 0xff);
  }
  const char decoded[] = "L:caf\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx.html|";
  struct events ev;
  for (size_t chunk = 1; chunk <= 2 + 2 * count; chunk++) {
    extract_n(le, 2 + 2 * count, chunk, NULL, &ev);
    assert_string_equal(ev.text, decoded);
    extract_n(be, 2 + 2 * count, chunk, "iso-8859-1", &ev);
    assert_string_equal(ev.text, decoded);
  }
  extract("\xef\xbb\xbf<a href=\"caf\xc3\xa9\">x</a>", 3, "iso-8859-1", &ev);
  assert_string_equal(ev.text, "L:caf\xc3\xa9|");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_legacy_charset),
      cmocka_unit_test(test_charset_reported),
      cmocka_unit_test(test_meta_content_forms),
      cmocka_unit_test(test_bad_bytes_decode_on),
      cmocka_unit_test(test_windows_1252_table),
      cmocka_unit_test(test_every_encoding_decodes),
      cmocka_unit_test(test_undeclared_encoding_is_sniffed),
      cmocka_unit_test(test_bom_decides),
      cmocka_unit_test(test_cut_characters_joined_from_what_was_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
