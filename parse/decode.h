/* Inside parse/: a page's bytes decoded to UTF-8 as the Encoding Standard decodes them
 * (doc/behaviour.md, Character encodings): labels to encodings, a bad byte sequence to U+FFFD and
 * on, and the <meta> prescan of the HTML Standard's encoding sniffing. libxml2 is then given UTF-8
 * alone, so no decoding error of its own can stop a page half way. */
#ifndef CRAWL_PARSE_DECODE_H
#define CRAWL_PARSE_DECODE_H

#include "core/core.h"

#include <stdbool.h>
#include <stddef.h>

/* One of the Encoding Standard's encodings (static: never freed). */
struct parse__encoding;

/* The encoding a label names (ASCII white space around it and case ignored), or NULL when the
 * Encoding Standard knows no such label (utf-7, utf-32, ebcdic...: as if none were given). */
const struct parse__encoding *parse__encoding_for(const char *label, size_t len);
/* UTF-8 itself: the bytes go to libxml2 as they are. */
const struct parse__encoding *parse__encoding_utf8(void);
const struct parse__encoding *parse__encoding_windows_1252(void);
bool parse__encoding_is_utf8(const struct parse__encoding *enc);
bool parse__encoding_is_utf16(const struct parse__encoding *enc);
/* The name iconv knows for encoding a URL's query in this encoding (the URL Standard), or NULL
 * when a query is encoded in UTF-8 (UTF-8, UTF-16, replacement). */
const char *parse__encoding_query_charset(const struct parse__encoding *enc);

/* The HTML Standard's prescan of the first bytes for a <meta charset> or a <meta
 * http-equiv="content-type" content="...charset=...">: the encoding it names (UTF-16 read as
 * UTF-8, x-user-defined as windows-1252, as the standard says), or NULL. */
const struct parse__encoding *parse__meta_prescan(const char *s, size_t n);

/* A decoder's output goes to sink, in pieces. */
typedef core_rc (*parse__sink)(void *arg, const char *utf8, size_t len);
typedef struct parse__decoder parse__decoder;
/* A decoder for enc, which is not UTF-8. Caller frees with parse__decoder_destroy. CORE_ENOMEM
 * when memory (or iconv's own) ran out. */
core_rc parse__decoder_create(const struct parse__encoding *enc, parse__decoder **out);
/* Decodes the next chunk; a character cut by its end waits for the next one. last: the body
 * ended, and a character still cut becomes U+FFFD. Fails only with the sink's error. */
core_rc parse__decode(parse__decoder *dec, const char *data, size_t len, bool last,
                      parse__sink sink, void *arg);
void parse__decoder_destroy(parse__decoder *dec);

#endif
