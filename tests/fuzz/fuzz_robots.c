/* libFuzzer: robots.txt parsing and matching. Input: "token\npath\nrobots.txt body". */
#include "parse/parse.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const char *text = (const char *)data;
  const char *nl1 = memchr(text, '\n', size);
  const char *nl2 = nl1 ? memchr(nl1 + 1, '\n', size - (size_t)(nl1 + 1 - text)) : NULL;
  char *token = strndup(text, nl1 ? (size_t)(nl1 - text) : size);
  char *path = nl2 ? strndup(nl1 + 1, (size_t)(nl2 - nl1 - 1)) : strdup("/");
  const char *body = nl2 ? nl2 + 1 : text;
  size_t body_len = nl2 ? size - (size_t)(body - text) : size;
  char *product = token ? parse_product_token(token) : NULL;
  parse_robots *r;
  if (path && parse_robots_create(body, body_len, product ? product : "crawl", &r) == CORE_OK) {
    (void)parse_robots_allowed(r, path);
    (void)parse_robots_allowed(r, "/");
    (void)parse_robots_crawl_delay(r);
    for (size_t i = 0; i < parse_robots_sitemap_count(r); i++)
      (void)strlen(parse_robots_sitemap(r, i));
    parse_robots_destroy(r);
  }
  free(product);
  free(token);
  free(path);
  return 0;
}
