/* What parse/'s files share inside the folder. */
#ifndef CRAWL_PARSE_INT_H
#define CRAWL_PARSE_INT_H

#include <stdbool.h>

/* ASCII white space as the HTML and CSS standards (and the Encoding Standard's labels) know it:
 * space, tab, line feed, form feed, carriage return. (XML's, in sitemaps, has no form feed.) */
static inline bool parse__is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

#endif
