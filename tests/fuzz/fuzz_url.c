/* libFuzzer: URL resolution. Input: "base\nhref". Checks that the printed form is a fixed point:
 * resolving it again gives the same string (nothing could merge or split two URLs later). */
#include "core/core.h"
#include "url/url.h"
#include "tests/fuzz/fixed_point.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static int ready;
  if (!ready) {
    setlocale(LC_CTYPE, "C.UTF-8");
    ready = 1;
  }
  const char *text = (const char *)data;
  const char *nl = memchr(text, '\n', size);
  size_t base_len = nl ? (size_t)(nl - text) : size;
  struct url base;
  bool have_base = url_resolve(NULL, text, base_len, 4096, &base) == CORE_OK;
  if (have_base)
    fuzz_check_fixed_point(&base);
  if (nl) {
    struct url u;
    const char *href = nl + 1;
    size_t href_len = size - base_len - 1;
    if (url_resolve(have_base ? &base : NULL, href, href_len, 4096, &u) == CORE_OK) {
      char ext[32];
      url_ext(&u, ext, sizeof(ext));
      fuzz_check_fixed_point(&u);
      url_free(&u);
    }
    char *seed = strndup(href, href_len);
    if (seed && url_seed(seed, 4096, &u) == CORE_OK)
      url_free(&u);
    free(seed);
  }
  if (have_base)
    url_free(&base);
  return 0;
}
