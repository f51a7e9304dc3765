/* libFuzzer: the fast way of resolving a link against the full way through curl's URL API.
 * Input: "base\nhref". Whenever the fast way takes a reference, both must give the same result
 * code and, on success, the same printed form and parts; and a URL the fast way made (which
 * keeps no curl handle) must serve as a base exactly as the full way's own result does. */
#include "url/url-int.h"
#include "url/url.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void expect_same(const char *what, const struct url *a, const struct url *b) {
  if (strcmp(a->text, b->text) != 0 || strcmp(a->host, b->host) != 0 ||
      strcmp(a->origin, b->origin) != 0 || a->port != b->port || a->https != b->https ||
      a->path_off != b->path_off || a->host_is_ip != b->host_is_ip ||
      a->unfetchable != b->unfetchable) {
    fprintf(stderr, "%s: fast %s (%s) and full %s (%s) differ\n", what, a->text, a->origin, b->text,
            b->origin);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static int ready;
  if (!ready) {
    setlocale(LC_CTYPE, "C.UTF-8");
    ready = 1;
  }
  const char *text = (const char *)data;
  const char *nl = memchr(text, '\n', size);
  if (!nl)
    return 0;
  size_t base_len = (size_t)(nl - text);
  const char *href = nl + 1;
  size_t href_len = size - base_len - 1;
  struct url base, alone_fast, alone_full;
  bool handled;
  /* without a base: only an absolute reference can be taken */
  core_rc alone_rc = url__resolve_fast(NULL, text, base_len, 4096, &alone_fast, &handled);
  if (handled) {
    if (alone_rc != url__resolve_full(NULL, text, base_len, 4096, NULL, &alone_full)) {
      fprintf(stderr, "result codes differ without a base\n");
      abort();
    }
    if (alone_rc == CORE_OK) {
      expect_same("alone", &alone_fast, &alone_full);
      url_free(&alone_fast);
      url_free(&alone_full);
    }
  }
  if (url__resolve_full(NULL, text, base_len, 4096, NULL, &base) != CORE_OK)
    return 0;
  size_t max_len = 16 + (size_t)(data[0] % 128); /* small caps too: the two must cut alike */
  for (int capped = 0; capped < 2; capped++) {
    size_t cap = capped ? max_len : 4096;
    struct url fast, full;
    core_rc fast_rc = url__resolve_fast(&base, href, href_len, cap, &fast, &handled);
    if (!handled)
      continue;
    core_rc full_rc = url__resolve_full(&base, href, href_len, cap, NULL, &full);
    if (fast_rc != full_rc) {
      fprintf(stderr, "result codes differ: fast %d, full %d\n", fast_rc, full_rc);
      abort();
    }
    if (fast_rc != CORE_OK)
      continue;
    expect_same("link", &fast, &full);
    /* the fast result as a base: the same answers as the full result as a base */
    static const char *const next[] = {"x.html", "../y/z", "/r?q", "//h.example/", "?q"};
    for (size_t i = 0; i < sizeof(next) / sizeof(next[0]); i++) {
      struct url a, b;
      core_rc ra = url__resolve_full(&fast, next[i], strlen(next[i]), 4096, NULL, &a);
      core_rc rb = url__resolve_full(&full, next[i], strlen(next[i]), 4096, NULL, &b);
      if (ra != rb) {
        fprintf(stderr, "as a base, %s: %d and %d\n", fast.text, ra, rb);
        abort();
      }
      if (ra == CORE_OK) {
        expect_same("as a base", &a, &b);
        url_free(&a);
        url_free(&b);
      }
    }
    url_free(&fast);
    url_free(&full);
  }
  url_free(&base);
  return 0;
}
