/* url/url.c: links resolved into the printed form of doc/behaviour.md (WHATWG serialization, no
 * fragment).
 */
#include "url/url-int.h"
#include "url/url.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/url/url_standard_cases.h"

static const struct {
  const char *base;
  const char *href;
  const char *want; /* NULL: rejected */
} cases[] = {
    /* relative forms */
    {"http://example.com/a/b/c.html", "d.html", "http://example.com/a/b/d.html"},
    {"http://example.com/a/b/c.html", "./d.html", "http://example.com/a/b/d.html"},
    {"http://example.com/a/b/c.html", "../d.html", "http://example.com/a/d.html"},
    {"http://example.com/a/b/c.html", "../../../../d.html", "http://example.com/d.html"},
    {"http://example.com/a/b/c.html", "/d.html", "http://example.com/d.html"},
    {"http://example.com/a/b/c.html", "//other.org/x", "http://other.org/x"},
    {"https://example.com/a/b/c.html", "//other.org", "https://other.org/"},
    {"http://example.com/a/b/c.html", "?q=1", "http://example.com/a/b/c.html?q=1"},
    {"http://example.com/a/b/c.html?x=y", "", "http://example.com/a/b/c.html?x=y"},
    {"http://example.com/a/b/c.html?x=y", "#frag", "http://example.com/a/b/c.html?x=y"},
    {"http://example.com/a/", "b/../c", "http://example.com/a/c"},
    {"http://example.com/a/", "b/./c/.", "http://example.com/a/b/c/"},
    {"http://example.com/", "a#b#c", "http://example.com/a"},
    /* fragments are removed; nothing else is rewritten */
    {NULL, "http://example.com/x#top", "http://example.com/x"},
    {NULL, "http://example.com/x?b=2&a=1", "http://example.com/x?b=2&a=1"},
    {NULL, "http://example.com/x?", "http://example.com/x?"},
    {NULL, "http://example.com/a%2Fb", "http://example.com/a%2Fb"},
    /* scheme and host are lowercased; default ports dropped; empty path becomes "/" */
    {NULL, "HTTP://EXAMPLE.COM/Path", "http://example.com/Path"},
    {NULL, "http://Example.Com:80/", "http://example.com/"},
    {NULL, "https://example.com:443/x", "https://example.com/x"},
    {NULL, "http://example.com:8080", "http://example.com:8080/"},
    {NULL, "https://example.com:80/", "https://example.com:80/"},
    /* whitespace: trimmed at the ends, tabs and newlines removed inside */
    {"http://example.com/", "  /a.html \n", "http://example.com/a.html"},
    {"http://example.com/", "/a\tb\nc.html", "http://example.com/abc.html"},
    /* spaces and other characters percent-encoded with uppercase hex */
    {"http://example.com/", "/a b.html", "http://example.com/a%20b.html"},
    {"http://example.com/", "/q?a b", "http://example.com/q?a%20b"},
    {"http://example.com/", "/q?x=\"y\"", "http://example.com/q?x=%22y%22"},
    {"http://example.com/", "/q?it's", "http://example.com/q?it%27s"},
    {"http://example.com/", "/p<>", "http://example.com/p%3C%3E"},
    {"http://example.com/", "/caf\xc3\xa9", "http://example.com/caf%C3%A9"},
    {"http://example.com/", "/?q=caf\xc3\xa9", "http://example.com/?q=caf%C3%A9"},
    {"http://example.com/", "/100%", "http://example.com/100%"},
    {"http://example.com/", "/%41", "http://example.com/%41"},
    /* backslashes are slashes in http(s) URLs, but not in the query */
    {"http://example.com/a/", "..\\b", "http://example.com/b"},
    {NULL, "http:\\\\example.com\\x", "http://example.com/x"},
    {"http://example.com/", "/x?a\\b", "http://example.com/x?a\\b"},
    /* IPv4 and IPv6 hosts */
    {NULL, "http://0x7f.1/", "http://127.0.0.1/"},
    {NULL, "http://127.1/", "http://127.0.0.1/"},
    {NULL, "http://[::1]:8080/", "http://[::1]:8080/"},
    /* hosts are percent-decoded, then read as IPv4 when they end in a number */
    {NULL, "http:/%38", "http://0.0.0.8/"},
    {NULL, "http://%31%32%37.0.0.1/", "http://127.0.0.1/"},
    {NULL, "http://1.2.3.4.5/", NULL},
    {NULL, "http://0x100000000/", NULL},
    {NULL, "http://4294967295/", "http://255.255.255.255/"},
    /* forbidden host code points */
    {NULL, "http://a%00b/", NULL},
    {NULL, "http://a b/", NULL},
    {NULL, "http://a<b/", NULL},
    {NULL, "http://a\x7f/", NULL},
    /* slashes after a special scheme: any number; "http:x" is relative to an http base */
    {NULL, "http:/example.com/x", "http://example.com/x"},
    {NULL, "http:////example.com/x", "http://example.com/x"},
    {"http://example.com/a/b", "http:c", "http://example.com/a/c"},
    {"http://example.com/a/b", "http:/c", "http://example.com/c"},
    {"https://example.com/a/b", "http:c", "http://c/"},
    {"http://example.com/a/b", "///other.org/x", "http://other.org/x"},
    {"http://example.com/a/b", "http:", "http://example.com/a/b"},
    {"http://0p:/", "http:http:/@X", "http://0p/http:/@X"}, /* found by fuzzing */
    /* one slash or none after a special scheme: what follows is the host (the fast path, which
     * takes "https://" whole, must not take these) */
    {"http://example.com/", "https:x/host/path", "https://x/host/path"},
    {"http://example.com/", "https:/x/host/path", "https://x/host/path"},
    {"http://example.com/", "http:x/host/path", "http://example.com/x/host/path"},
    {"https://example.com/", "http:/x/host/path", "http://x/host/path"},
    {"http://example.com/a/b", "c:d", NULL}, /* another scheme */
    {"http://example.com/a/b", "./c:d", "http://example.com/a/c:d"},
    /* IDN host names become A-labels */
    {NULL,
     "http://b\xc3\xbc"
     "cher.de/",
     "http://xn--bcher-kva.de/"},
    /* other schemes are never printed */
    {"http://example.com/", "mailto:a@example.com", NULL},
    {"http://example.com/", "javascript:void(0)", NULL},
    {"http://example.com/", "data:text/html,hi", NULL},
    {"http://example.com/", "tel:+123", NULL},
    {"http://example.com/", "ftp://example.com/x", NULL},
    {NULL, "relative/only", NULL},
    {NULL, "http://exa mple.com/", NULL},
    {NULL, "http://example.com:99999/", NULL},
    {NULL, "http:///nohost", "http://nohost/"}, /* special schemes ignore extra slashes */
    {NULL, "http://", NULL},
    {NULL, "http://:/@y", NULL},       /* an empty host, found by fuzzing */
    {NULL, "", NULL},                  /* nothing at all, found by fuzzing */
    {NULL, "HTTP:\xcd\xbeH//x", NULL}, /* IDNA maps U+037E to ";", which curl cannot parse back */
    {NULL, "http://:80/x", NULL},
};

static void test_resolution_table(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct url base, out;
    memset(&base, 0, sizeof(base));
    if (cases[i].base)
      assert_int_equal(url_resolve(NULL, cases[i].base, strlen(cases[i].base), 2048, &base),
                       CORE_OK);
    core_rc rc =
        url_resolve(cases[i].base ? &base : NULL, cases[i].href, strlen(cases[i].href), 2048, &out);
    if (cases[i].want) {
      if (rc != CORE_OK)
        fail_msg("case %zu '%s': %s", i, cases[i].href, core_rc_str(rc));
      if (strcmp(out.text, cases[i].want) != 0)
        fail_msg("case %zu '%s': got '%s', want '%s'", i, cases[i].href, out.text, cases[i].want);
      url_free(&out);
    } else if (rc == CORE_OK) {
      fail_msg("case %zu '%s': accepted as '%s'", i, cases[i].href, out.text);
    }
    url_free(&base);
  }
}

/* Every case derived from the URL Standard's test vectors agrees, refusals included. */
static void test_url_standard_table(void **state) {
  (void)state;
  size_t n = url_standard_case_count, disagree = 0;
  assert_true(n >= 300);
  for (size_t i = 0; i < n; i++) {
    struct url base, u;
    memset(&base, 0, sizeof(base));
    const char *b = url_standard_cases[i].base;
    if (b)
      assert_int_equal(url_resolve(NULL, b, strlen(b), 4096, &base), CORE_OK);
    core_rc rc = url_resolve(b ? &base : NULL, url_standard_cases[i].input,
                             url_standard_cases[i].input_len, 4096, &u);
    const char *got = rc == CORE_OK ? u.text : NULL, *want = url_standard_cases[i].want;
    bool agree = (got == NULL) == (want == NULL) && (!got || strcmp(got, want) == 0);
    if (!agree) {
      print_message("case %zu base %s input '%s': got %s, want %s\n", i, b ? b : "(none)",
                    url_standard_cases[i].input, got ? got : "(refused)",
                    want ? want : "(refused)");
      disagree++;
    }
    if (rc == CORE_OK)
      url_free(&u);
    url_free(&base);
  }
  assert_int_equal(disagree, 0);
}

/* Valid to the Standard but out of reach of any request: printed exactly, marked unfetchable, and
 * links resolve against them as against any other URL. */
static void test_unfetchable(void **state) {
  (void)state;
  struct url u, v;
  const char *zero = "http://f:0/c";
  assert_int_equal(url_resolve(NULL, zero, strlen(zero), 2048, &u), CORE_OK);
  assert_string_equal(u.text, "http://f:0/c");
  assert_string_equal(u.origin, "http://f:0");
  assert_true(u.unfetchable);
  assert_int_equal(url_resolve(&u, "d?e", 3, 2048, &v), CORE_OK);
  assert_string_equal(v.text, "http://f:0/d?e"); /* port 0 keeps its handle: links resolve */
  url_free(&v);
  url_free(&u);

  const char *odd = "HTTP://us%40er:pw@A%21B.Example:81/p?q";
  assert_int_equal(url_resolve(NULL, odd, strlen(odd), 2048, &u), CORE_OK);
  assert_string_equal(u.text, "http://us%40er:pw@a!b.example:81/p?q");
  assert_string_equal(u.host, "a!b.example");
  assert_string_equal(u.origin, "http://a!b.example:81");
  assert_int_equal(u.path_off, strlen("http://us%40er:pw@a!b.example:81"));
  assert_true(u.unfetchable);
  assert_false(u.host_is_ip);
  assert_int_equal(url_resolve(&u, "x", 1, 2048, &v), CORE_OK);
  assert_string_equal(v.text, "http://us%40er:pw@a!b.example:81/x");
  assert_true(v.unfetchable);
  url_free(&v);
  assert_int_equal(url_resolve(&u, "http://other.example/", 21, 2048, &v), CORE_OK);
  assert_string_equal(v.text, "http://other.example/");
  assert_false(v.unfetchable);
  url_free(&v);
  assert_int_equal(url_resolve(&u, "", 0, 2048, &v), CORE_OK);
  assert_string_equal(v.text, u.text);
  url_free(&v);
  assert_int_equal(url_resolve(&u, "//c(d)/x", 8, 2048, &v), CORE_OK);
  assert_string_equal(v.text, "http://c(d)/x");
  url_free(&v);
  url_free(&u);

  const char *plain = "http://a-b.example/";
  assert_int_equal(url_resolve(NULL, plain, strlen(plain), 2048, &u), CORE_OK);
  assert_false(u.unfetchable);
  url_free(&u);
  /* a forbidden code point next to the carried punctuation still refuses the host */
  assert_int_equal(url_resolve(NULL, "http://a!b|c/", 13, 2048, &u), CORE_EURL);
  assert_int_equal(url_resolve(NULL, "http://a!b%25c/", 15, 2048, &u), CORE_EURL);
}

/* In a host with non-ASCII in it, xn-- labels are decoded and checked as UTS #46 ToASCII does: the
 * host is refused when one is not valid Punycode, decodes to plain ASCII, or holds code points the
 * mapping would change. An all-ASCII host is only lowercased (the Standard since whatwg/url#914).
 */
static void test_a_labels(void **state) {
  (void)state;
  const struct {
    const char *in, *want;
  } labels[] = {
      {"http://XN--N3H.example/", "http://xn--n3h.example/"},
      {"http://xn--6qqa088eba/x", "http://xn--6qqa088eba/x"},
      {"http://www.xn--fa-hia.example/", "http://www.xn--fa-hia.example/"},
      /* an ASCII host is only lowercased, whatever its A-labels hold (whatwg/url#914) */
      {"http://xn--pokxncvks.example/", "http://xn--pokxncvks.example/"},
      {"http://XN--A.example/", "http://xn--a.example/"},
      {"https://xn--/", "https://xn--/"},
      /* a host with non-ASCII in it goes through ToASCII, which checks every A-label */
      {"http://xn--pokxncvks.b\xc3\xa4r.example/", NULL}, /* circled numbers: mapped */
      {"http://xn--a.\xc3\x9f/", NULL},                   /* decodes to a control character */
      {"http://xn--zz.b\xc3\xa4r/", NULL},                /* not Punycode */
      {"http://xn--abc-.b\xc3\xa4r/", NULL},              /* decodes to plain "abc" */
      {"http://xn--zca.\xc3\x9f/", "http://xn--zca.xn--zca/"},
  };
  for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
    struct url u;
    core_rc rc = url_resolve(NULL, labels[i].in, strlen(labels[i].in), 2048, &u);
    if (!labels[i].want) {
      if (rc == CORE_OK)
        fail_msg("'%s' was accepted as %s", labels[i].in, u.text);
      continue;
    }
    assert_int_equal(rc, CORE_OK);
    assert_string_equal(u.text, labels[i].want);
    url_free(&u);
  }
}

static void test_parts(void **state) {
  (void)state;
  struct url u;
  const char *text = "https://WWW.Example.org:8443/dir/File.TAR.GZ?x=1#f";
  assert_int_equal(url_resolve(NULL, text, strlen(text), 2048, &u), CORE_OK);
  assert_string_equal(u.text, "https://www.example.org:8443/dir/File.TAR.GZ?x=1");
  assert_string_equal(u.host, "www.example.org");
  assert_string_equal(u.origin, "https://www.example.org:8443");
  assert_int_equal(u.port, 8443);
  assert_true(u.https);
  assert_string_equal(u.text + u.path_off, "/dir/File.TAR.GZ?x=1");
  char ext[16];
  url_ext(&u, ext, sizeof(ext));
  assert_string_equal(ext, "tar.gz");
  url_ext(&u, ext, 4); /* too long: the longest ending after a dot that fits */
  assert_string_equal(ext, "gz");
  url_ext(&u, ext, 2);
  assert_string_equal(ext, "");
  assert_false(u.host_is_ip);
  url_free(&u);

  /* a host that becomes an IPv4 address only after IDNA: every part says so, not only the text */
  const char *wide = "http://\xef\xbc\x90\xef\xbc\xb8\xef\xbd\x83\xef\xbc\x90\xef\xbc\x8e"
                     "\xef\xbc\x90\xef\xbc\x92\xef\xbc\x95\xef\xbc\x90\xef\xbc\x8e\xef\xbc\x90"
                     "\xef\xbc\x91:8080/x";
  assert_int_equal(url_resolve(NULL, wide, strlen(wide), 2048, &u), CORE_OK);
  assert_string_equal(u.text, "http://192.168.0.1:8080/x");
  assert_string_equal(u.host, "192.168.0.1");
  assert_string_equal(u.origin, "http://192.168.0.1:8080");
  assert_true(u.host_is_ip);
  url_free(&u);

  assert_int_equal(url_resolve(NULL, "http://[::1]/a.", 15, 2048, &u), CORE_OK);
  assert_string_equal(u.host, "::1");
  assert_true(u.host_is_ip);
  url_ext(&u, ext, sizeof(ext));
  assert_string_equal(ext, "");
  url_free(&u);
}

static void test_document_charset(void **state) {
  (void)state;
  static const struct {
    const char *charset, *href, *want;
  } charset_cases[] = {
      /* the query is encoded in the page's encoding; the path is always UTF-8 */
      {"windows-1252", "/caf\xc3\xa9?q=caf\xc3\xa9", "http://e.com/caf%C3%A9?q=caf%E9"},
      {"ISO-8859-1", "?\xc3\xbc=\xc3\xa4", "http://e.com/dir/page?%FC=%E4"},
      {"ISO-8859-1", "?euro=\xe2\x82\xac", "http://e.com/dir/page?euro=%26%238364%3B"},
      {"windows-1252", "?euro=\xe2\x82\xac", "http://e.com/dir/page?euro=%80"},
      {"Shift_JIS", "?q=\xe3\x81\x82", "http://e.com/dir/page?q=%82%A0"},
      {"UTF-8", "?q=\xc3\xa9", "http://e.com/dir/page?q=%C3%A9"},
      {NULL, "?q=\xc3\xa9", "http://e.com/dir/page?q=%C3%A9"},
      {"windows-1252", "?plain=ascii", "http://e.com/dir/page?plain=ascii"},
      /* the Encoding Standard's windows-1252 has U+0081, U+008D, U+008F, U+0090, U+009D */
      {"windows-1252", "?c1=\xc2\x81\xc2\x8d\xc2\x8f\xc2\x90\xc2\x9d\xe2\x82\xac",
       "http://e.com/dir/page?c1=%81%8D%8F%90%9D%80"},
  };
  struct url base;
  assert_int_equal(url_resolve(NULL, "http://e.com/dir/page", 21, 2048, &base), CORE_OK);
  for (size_t i = 0; i < sizeof(charset_cases) / sizeof(charset_cases[0]); i++) {
    struct url u;
    core_rc rc = url_resolve_in(&base, charset_cases[i].href, strlen(charset_cases[i].href), 2048,
                                charset_cases[i].charset, &u);
    if (rc != CORE_OK)
      fail_msg("charset case %zu: %s", i, core_rc_str(rc));
    if (strcmp(u.text, charset_cases[i].want) != 0)
      fail_msg("charset case %zu: got %s, want %s", i, u.text, charset_cases[i].want);
    url_free(&u);
  }
  url_free(&base);
}

static void test_seed_forms(void **state) {
  (void)state;
  struct url u;
  assert_int_equal(url_seed("example.com", 2048, &u), CORE_OK);
  assert_string_equal(u.text, "http://example.com/");
  url_free(&u);
  assert_int_equal(url_seed("example.com:8080/x", 2048, &u), CORE_OK);
  assert_string_equal(u.text, "http://example.com:8080/x");
  url_free(&u);
  assert_int_equal(url_seed("https://example.com", 2048, &u), CORE_OK);
  assert_string_equal(u.text, "https://example.com/");
  url_free(&u);
  assert_int_not_equal(url_seed("ftp://example.com/", 2048, &u), CORE_OK);
  assert_int_equal(url_seed("localhost:8080", 2048, &u), CORE_OK);
  assert_string_equal(u.text, "http://localhost:8080/");
  url_free(&u);
  /* a scheme, not a host with a password: refused, never fetched with Basic auth "mailto:x" */
  assert_int_equal(url_seed("mailto:x@example.com", 2048, &u), CORE_EURL);
  assert_int_equal(url_seed("javascript:alert(1)", 2048, &u), CORE_EURL);
  assert_int_equal(url_seed("example.com:80x", 2048, &u), CORE_EURL);
}

static void test_max_length(void **state) {
  (void)state;
  char href[300];
  memset(href, 'a', sizeof(href) - 1);
  href[sizeof(href) - 1] = '\0';
  struct url base, u;
  assert_int_equal(url_resolve(NULL, "http://e.com/", 13, 2048, &base), CORE_OK);
  assert_int_equal(url_resolve(&base, href, strlen(href), 100, &u), CORE_ETOOLONG);
  assert_int_equal(url_resolve(&base, href, strlen(href), 400, &u), CORE_OK);
  url_free(&u);
  url_free(&base);
}

/* The fast way takes the plain links most pages are made of, and gives what the full way
 * (curl's URL API) gives; what it cannot take it leaves, and the full way decides. */
static void test_fast_path(void **state) {
  (void)state;
  static const struct {
    const char *base, *href, *want; /* want NULL: the fast way must leave it */
  } links[] = {
      {"http://a.example/b/c.html", "d.html", "http://a.example/b/d.html"},
      {"http://a.example/b/c.html", "/p/3.html#x", "http://a.example/p/3.html"},
      {"http://a.example/b/c.html", "../d/./e.html", "http://a.example/d/e.html"},
      {"http://a.example/b/c.html", "../../../x", "http://a.example/x"},
      {"http://a.example/b/c.html", "..", "http://a.example/"},
      {"http://a.example/b/c/", ".", "http://a.example/b/c/"},
      {"http://a.example:8080/b/?q", "e?x=1&y=2", "http://a.example:8080/b/e?x=1&y=2"},
      {"https://u:p@a.example/b", "c?", "https://u:p@a.example/c?"},
      {"http://a.example/b/c", "http://a.example/p/1.html", "http://a.example/p/1.html"},
      {"http://10.0.0.1/x/y", "z.png", "http://10.0.0.1/x/z.png"},
      {"http://a.example/b/c", "http://b.example:8080/x/../y#z", "http://b.example:8080/y"},
      {"http://a.example/b/c", "https://c-d.example/", "https://c-d.example/"},
      {"http://a.example/b/c", "HTTP://A.example/p", "http://a.example/p"},
      {"http://a.example/b/c", "HttpS://WWW.B-C.Example:8443/P?Q",
       "https://www.b-c.example:8443/P?Q"},
      {"http://a.example/b/c", "http://XN--n3h.example/x", NULL},
      {"http://a.example/b/c", "http://b.Xn--n3h/x", NULL},
      {"http://a.example/b/c", "HTTP://B.0X1/x", NULL},
      {"http://a.example/b/c", "http://b.example:80/x", NULL},
      {"http://a.example/b/c", "http://b.example:08/x", NULL},
      {"http://a.example/b/c", "http://1.2.3.4/x", NULL},
      {"http://a.example/b/c", "http://b.0x1/x", NULL},
      {"http://a.example/b/c", "http://b.example./x", NULL},
      {"http://a.example/b/c", "http://xn--n3h.example/x", NULL},
      {"http://a.example/b/c", "http://u@b.example/x", NULL},
      {"http://a.example/b/c", "http://b.example", NULL},
      {"http://a.example/b/c", "//other.example/p", NULL},
      {"http://a.example/b/c", "%2e%2e/x", NULL},
      {"http://a.example/b/c", "a\\b", NULL},
      {"http://a.example/b/c", "a b", NULL},
      {"http://a.example/b/c", "caf\xc3\xa9", NULL},
      {"http://a.example/b/c", "?q", NULL},
      {"http://a.example/b/c", "#only", NULL},
      {"http://a.example/b/c", "mailto:x@a.example", NULL},
      {"http://a.example/b/c", "a//b", NULL},
      {"http://a.example/b/c", "./?q", NULL},
  };
  for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
    struct url base, fast, full;
    assert_int_equal(url_resolve(NULL, links[i].base, strlen(links[i].base), 4096, &base), CORE_OK);
    bool handled;
    core_rc rc =
        url__resolve_fast(&base, links[i].href, strlen(links[i].href), 4096, &fast, &handled);
    if (!links[i].want) {
      if (handled)
        fail_msg("%s + %s: the fast way took it", links[i].base, links[i].href);
      url_free(&base);
      continue;
    }
    if (!handled || rc != CORE_OK)
      fail_msg("%s + %s: the fast way left it (rc %d)", links[i].base, links[i].href, rc);
    assert_int_equal(
        url__resolve_full(&base, links[i].href, strlen(links[i].href), 4096, NULL, &full), CORE_OK);
    assert_string_equal(fast.text, links[i].want);
    assert_string_equal(full.text, links[i].want);
    assert_string_equal(fast.host, full.host);
    assert_string_equal(fast.origin, full.origin);
    assert_int_equal(fast.port, full.port);
    assert_int_equal(fast.path_off, full.path_off);
    assert_null(fast.handle);
    /* a result of the fast way serves as a base like any other */
    struct url next;
    assert_int_equal(url_resolve(&fast, "//h.example/x", 13, 4096, &next), CORE_OK);
    assert_string_equal(next.text, fast.https ? "https://h.example/x" : "http://h.example/x");
    url_free(&next);
    url_free(&fast);
    url_free(&full);
    url_free(&base);
  }
  /* an absolute reference needs no base */
  struct url alone;
  bool took;
  assert_int_equal(url__resolve_fast(NULL, "http://b.example:81/p?q", 23, 4096, &alone, &took),
                   CORE_OK);
  assert_true(took);
  assert_string_equal(alone.text, "http://b.example:81/p?q");
  assert_string_equal(alone.origin, "http://b.example:81");
  assert_string_equal(alone.host, "b.example");
  assert_int_equal(alone.port, 81);
  url_free(&alone);
  /* the cap applies to the result, as the full way applies it */
  struct url base, u;
  bool handled;
  assert_int_equal(url_resolve(NULL, "http://a.example/bb/cc/", 23, 4096, &base), CORE_OK);
  assert_int_equal(url__resolve_fast(&base, "../../x", 7, 18, &u, &handled), CORE_OK);
  assert_true(handled);
  assert_string_equal(u.text, "http://a.example/x");
  url_free(&u);
  assert_int_equal(url__resolve_fast(&base, "../../xy", 8, 18, &u, &handled), CORE_ETOOLONG);
  assert_true(handled);
  url_free(&base);
}

static void test_addr_kinds(void **state) {
  (void)state;
  static const struct {
    const char *ip;
    url_addr_kind kind;
  } addrs[] = {
      {"93.184.216.34", URL_ADDR_PUBLIC},
      {"8.8.8.8", URL_ADDR_PUBLIC},
      {"172.32.0.1", URL_ADDR_PUBLIC},
      {"100.128.0.1", URL_ADDR_PUBLIC},
      /* each private range's first byte decides with its second: the same second byte after
       * another first is public */
      {"8.16.0.1", URL_ADDR_PUBLIC},
      {"9.168.0.1", URL_ADDR_PUBLIC},
      {"1.64.0.1", URL_ADDR_PUBLIC},
      {"172.15.255.255", URL_ADDR_PUBLIC},
      {"192.169.0.1", URL_ADDR_PUBLIC},
      {"100.63.255.255", URL_ADDR_PUBLIC},
      {"169.253.0.1", URL_ADDR_PUBLIC},
      {"1.254.0.1", URL_ADDR_PUBLIC},
      {"0.0.0.1", URL_ADDR_PRIVATE},
      {"127.0.0.1", URL_ADDR_LOOPBACK},
      {"127.255.1.2", URL_ADDR_LOOPBACK},
      {"0.0.0.0", URL_ADDR_LOOPBACK},
      {"::1", URL_ADDR_LOOPBACK},
      {"::", URL_ADDR_LOOPBACK},
      {"::ffff:127.0.0.1", URL_ADDR_LOOPBACK},
      {"10.77.0.3", URL_ADDR_PRIVATE},
      {"172.16.5.4", URL_ADDR_PRIVATE},
      {"172.31.255.255", URL_ADDR_PRIVATE},
      {"192.168.1.1", URL_ADDR_PRIVATE},
      {"100.64.0.1", URL_ADDR_PRIVATE},
      {"fd00::5", URL_ADDR_PRIVATE},
      {"169.254.169.254", URL_ADDR_LINK_LOCAL},
      {"fe80::1", URL_ADDR_LINK_LOCAL},
      {"::ffff:169.254.1.1", URL_ADDR_LINK_LOCAL},
      {"2001:db8::1", URL_ADDR_PUBLIC},
      {"example.org", URL_ADDR_NONE},
      {"", URL_ADDR_NONE},
      {"[::1]", URL_ADDR_NONE},
  };
  for (size_t i = 0; i < sizeof(addrs) / sizeof(*addrs); i++) {
    if (url_addr_kind_of(addrs[i].ip) != addrs[i].kind)
      fail_msg("%s: %d, not %d", addrs[i].ip, url_addr_kind_of(addrs[i].ip), addrs[i].kind);
  }
}

static void test_scope(void **state) {
  (void)state;
  struct core_list none = {0};
  url_scope *scope;
  assert_int_equal(url_scope_create(URL_SCOPE_DOMAIN, &none, &none, &scope), CORE_OK);
  assert_int_equal(url_scope_add_seed(scope, "www.example.co.uk"), CORE_OK);
  assert_int_equal(url_scope_add_seed(scope, "a.x.test"), CORE_OK);
  assert_true(url_scope_contains(scope, "shop.example.co.uk"));
  assert_false(url_scope_contains(scope, "other.co.uk"));
  assert_true(url_scope_contains(scope, "b.x.test")); /* unlisted suffix: the default rule */
  assert_false(url_scope_contains(scope, "y.test"));
  char *d = url_scope_domain(scope, "localhost");
  assert_string_equal(d, "localhost");
  free(d);
  d = url_scope_domain(scope, "127.0.0.1");
  assert_string_equal(d, "127.0.0.1");
  free(d);
  url_scope_destroy(scope);

  struct core_list domains = {0}, exclude = {0};
  assert_int_equal(core_list_parse("example.org, .test.net", &domains), CORE_OK);
  assert_int_equal(core_list_parse("bad.example.org", &exclude), CORE_OK);
  assert_int_equal(url_scope_create(URL_SCOPE_LIST, &domains, &exclude, &scope), CORE_OK);
  assert_true(url_scope_contains(scope, "example.org"));
  assert_true(url_scope_contains(scope, "a.example.org"));
  assert_false(url_scope_contains(scope, "notexample.org"));
  assert_true(url_scope_contains(scope, "x.test.net"));
  assert_false(url_scope_contains(scope, "bad.example.org"));
  assert_false(url_scope_contains(scope, "x.bad.example.org"));
  url_scope_destroy(scope);
  core_list_free(&domains);
  core_list_free(&exclude);

  assert_int_equal(url_scope_create(URL_SCOPE_HOST, &none, &none, &scope), CORE_OK);
  assert_int_equal(url_scope_add_seed(scope, "a.example.org"), CORE_OK);
  assert_true(url_scope_contains(scope, "a.example.org"));
  assert_false(url_scope_contains(scope, "b.example.org"));
  url_scope_destroy(scope);
}

/* A password is taken out of the URL and given back decoded; the URL is the same without it. */
static void test_take_userinfo(void **state) {
  (void)state;
  static const struct {
    const char *in, *out, *user, *password;
  } userinfo_cases[] = {
      {"http://alice:s3cret@a.example/x?q", "http://a.example/x?q", "alice", "s3cret"},
      {"https://bob@a.example:8443/", "https://a.example:8443/", "bob", NULL},
      {"http://al%20ice:p%40ss:w@a.example/", "http://a.example/", "al ice", "p@ss:w"},
      {"http://:only@a.example/", "http://a.example/", "", "only"},
      {"http://a.example/@not-userinfo", "http://a.example/@not-userinfo", NULL, NULL},
  };
  for (size_t i = 0; i < sizeof(userinfo_cases) / sizeof(*userinfo_cases); i++) {
    struct url u;
    assert_int_equal(
        url_resolve(NULL, userinfo_cases[i].in, strlen(userinfo_cases[i].in), 4096, &u), CORE_OK);
    char *user, *password;
    assert_int_equal(url_take_userinfo(&u, &user, &password), CORE_OK);
    assert_string_equal(u.text, userinfo_cases[i].out);
    assert_string_equal(u.host, "a.example");
    if (userinfo_cases[i].user)
      assert_string_equal(user, userinfo_cases[i].user);
    else
      assert_null(user);
    if (userinfo_cases[i].password)
      assert_string_equal(password, userinfo_cases[i].password);
    else
      assert_null(password);
    free(user);
    free(password);
    url_free(&u);
  }
}

static void test_path_traps(void **state) {
  (void)state;
  static const struct {
    const char *path;
    long repeat, segments;
    url_trap want;
  } traps[] = {
      {"/", 2, 32, URL_TRAP_NONE},
      {"/a/a", 2, 32, URL_TRAP_NONE},
      {"/a/a/a", 2, 32, URL_TRAP_REPEAT},
      {"/a/a/a", 3, 32, URL_TRAP_NONE},
      {"/x/a/a/a/y", 2, 32, URL_TRAP_REPEAT},
      {"/a/b/a/b", 2, 32, URL_TRAP_NONE},
      {"/a/b/a/b/", 2, 32, URL_TRAP_NONE},
      {"/a/b/a/b/a", 2, 32, URL_TRAP_NONE}, /* two and a half */
      {"/a/b/a/b/a/b", 2, 32, URL_TRAP_REPEAT},
      {"/x/a/b/a/b/a/b?q=1", 2, 32, URL_TRAP_REPEAT},
      {"/a/b/a/b/a/b", 0, 32, URL_TRAP_NONE},       /* the rule turned off */
      {"/a/b/c/a/b/c/a/b/c", 2, 32, URL_TRAP_NONE}, /* triples are not looked for */
      {"/2024/01/01/news.html", 2, 32, URL_TRAP_NONE},
      {"/a/a/b?x=/a/a/a", 2, 32, URL_TRAP_NONE}, /* the query is no path */
      {"/a/a/b#/a/a/a", 2, 32, URL_TRAP_NONE},
      {"/a/aa/a", 2, 32, URL_TRAP_NONE},
      {"/1/2/3/4", 2, 4, URL_TRAP_NONE},
      {"/1/2/3/4/5", 2, 4, URL_TRAP_SEGMENTS},
      {"/1/2/3/4/", 2, 4, URL_TRAP_SEGMENTS}, /* the empty last segment counts */
      {"/1/2/3/4/5", 2, 0, URL_TRAP_NONE},
  };
  for (size_t i = 0; i < sizeof(traps) / sizeof(traps[0]); i++) {
    url_trap got = url_path_trap(traps[i].path, traps[i].repeat, traps[i].segments);
    if (got != traps[i].want)
      fail_msg("%s (repeat %ld, segments %ld): %d, want %d", traps[i].path, traps[i].repeat,
               traps[i].segments, (int)got, (int)traps[i].want);
  }
  /* more segments than the repeat rule looks at */
  char deep[4096] = "";
  for (int i = 0; i < 600; i++)
    snprintf(deep + strlen(deep), sizeof(deep) - strlen(deep), "/s%d", i);
  assert_int_equal(url_path_trap(deep, 2, 32), URL_TRAP_SEGMENTS);
  assert_int_equal(url_path_trap(deep, 2, 0), URL_TRAP_NONE);
}

/* A list's items match whole, in any ASCII case (the --skip-ext and -A/-R lists). */
static void test_list_has(void **state) {
  (void)state;
  struct core_list exts = {0};
  assert_int_equal(core_list_parse("pdf,Z,tar.gz,jpg", &exts), CORE_OK);
  assert_true(core_list_has(&exts, "pdf"));
  assert_true(core_list_has(&exts, "PDF"));
  assert_true(core_list_has(&exts, "z"));
  assert_true(core_list_has(&exts, "Tar.GZ"));
  assert_true(core_list_has(&exts, "jPg"));
  assert_false(core_list_has(&exts, "pd"));
  assert_false(core_list_has(&exts, "pdfx"));
  assert_false(core_list_has(&exts, "zz"));
  assert_false(core_list_has(&exts, "jpeg"));
  assert_false(core_list_has(&exts, ""));
  core_list_free(&exts);
}

int main(void) {
  setlocale(LC_CTYPE, "C.UTF-8");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resolution_table),
      cmocka_unit_test(test_url_standard_table),
      cmocka_unit_test(test_parts),
      cmocka_unit_test(test_a_labels),
      cmocka_unit_test(test_unfetchable),
      cmocka_unit_test(test_seed_forms),
      cmocka_unit_test(test_document_charset),
      cmocka_unit_test(test_max_length),
      cmocka_unit_test(test_fast_path),
      cmocka_unit_test(test_scope),
      cmocka_unit_test(test_addr_kinds),
      cmocka_unit_test(test_path_traps),
      cmocka_unit_test(test_take_userinfo),
      cmocka_unit_test(test_list_has),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
