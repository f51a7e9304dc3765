/* Links in CSS: url() and @import, as CSS Syntax Level 3 tokenizes them. A byte-at-a-time state
 * machine, so a style sheet can be fed in chunks of any size and nothing but the URL being read
 * is kept: comments and strings are skipped wherever they fall (a "url(" inside either is no
 * link), escapes are decoded, and a URL longer than the cap is dropped. */
#include "parse/parse.h"
#include "parse/parse-int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CSS_URL_MAX 8192 /* longer URLs (data: images, mostly) are dropped */
#define CSS_IDENT_MAX 16 /* enough for "@import" and "url" */

enum css_state {
  CSS_NORMAL,
  CSS_SLASH,        /* after '/': a comment may start */
  CSS_COMMENT,      /* inside / * ... * / */
  CSS_COMMENT_STAR, /* a '*' inside a comment */
  CSS_IDENT,        /* reading a name or an at-keyword */
  CSS_STRING,       /* inside a quoted string */
  CSS_URL_START,    /* after "url(": white space, then a quote or the URL itself */
  CSS_URL,          /* inside an unquoted URL */
  CSS_URL_END,      /* white space after an unquoted URL, before ')' */
  CSS_BAD_URL,      /* a broken unquoted URL: skipped to ')' */
  CSS_ESCAPE        /* after a backslash in a string or an unquoted URL */
};

struct parse_css {
  parse_html_cb cb;
  void *arg;
  enum css_state state;
  enum css_state escaped_from; /* the state a backslash came from */
  char quote;
  bool capture;        /* the string being read is a URL (url("...") or @import "...") */
  bool string_in_url;  /* that string is url()'s argument: ')' follows */
  bool import_pending; /* after @import: a string next is its URL */
  char ident[CSS_IDENT_MAX];
  size_t ident_len;
  bool ident_long;
  bool ident_escape; /* the byte after a backslash in a name belongs to the name */
  unsigned long hex; /* an escape's code point so far */
  int hex_digits;
  struct core_buf url; /* the URL being read, escapes decoded */
  bool out_of_memory;  /* a URL could not be kept whole: feed and finish say so from then on */
};

core_rc parse_css_create(parse_html_cb cb, void *arg, parse_css **out) {
  parse_css *css = calloc(1, sizeof(*css));
  if (!css)
    return CORE_ENOMEM;
  css->cb = cb;
  css->arg = arg;
  core_buf_init(&css->url, CSS_URL_MAX);
  *out = css;
  return CORE_OK;
}

void parse_css_destroy(parse_css *css) {
  if (!css)
    return;
  core_buf_free(&css->url);
  free(css);
}

static bool is_name_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c >= 0x80;
}

/* Appends a byte of the URL; past the cap the URL is dropped (the buffer stays full). Lack of
 * memory is no cap: the URL would be handed over cut short, or lost without a word. */
static void url_add(parse_css *css, const char *data, size_t len) {
  if (core_buf_add(&css->url, data, len) == CORE_ENOMEM)
    css->out_of_memory = true;
}

/* An escape's code point, as UTF-8: zero, surrogates and values past Unicode are U+FFFD. */
static void url_add_code_point(parse_css *css, unsigned long cp) {
  if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
    cp = 0xfffd;
  char u[4];
  size_t n;
  if (cp < 0x80) {
    u[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    u[0] = (char)(0xc0 | (cp >> 6));
    u[1] = (char)(0x80 | (cp & 0x3f));
    n = 2;
  } else if (cp < 0x10000) {
    u[0] = (char)(0xe0 | (cp >> 12));
    u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    u[2] = (char)(0x80 | (cp & 0x3f));
    n = 3;
  } else {
    u[0] = (char)(0xf0 | (cp >> 18));
    u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    u[3] = (char)(0x80 | (cp & 0x3f));
    n = 4;
  }
  url_add(css, u, n);
}

/* The URL read is complete: given to the callback unless it was empty or too long. */
static void url_done(parse_css *css, bool keep) {
  if (keep && !css->out_of_memory && css->url.len && css->url.len < CSS_URL_MAX)
    css->cb(css->arg, PARSE_LINK, css->url.data, css->url.len);
  core_buf_reset(&css->url);
}

static void ident_done(parse_css *css, unsigned char next) {
  bool is_url = !css->ident_long && css->ident_len == 3 && next == '(' &&
                strncasecmp(css->ident, "url", 3) == 0;
  bool is_import =
      !css->ident_long && css->ident_len == 7 && strncasecmp(css->ident, "@import", 7) == 0;
  css->import_pending = is_import;
  css->state = is_url ? CSS_URL_START : CSS_NORMAL;
}

/* One byte; returns false when the byte must be read again in the new state. */
static bool step(parse_css *css, unsigned char c) {
  switch (css->state) {
    case CSS_NORMAL:
      if (c == '/') {
        css->state = CSS_SLASH;
      } else if (c == '"' || c == '\'') {
        css->quote = (char)c;
        css->capture = css->import_pending;
        css->string_in_url = false;
        css->import_pending = false;
        css->state = CSS_STRING;
      } else if (c == '@' || is_name_char(c) || c == '\\') {
        css->import_pending = false; /* the next token is no string: @import took none */
        css->ident[0] = (char)c;
        css->ident_len = 1;
        css->ident_long = c == '\\'; /* an escaped name is never "url" or "@import" here */
        css->ident_escape = c == '\\';
        css->state = CSS_IDENT;
      } else if (!parse__is_space((char)c)) {
        css->import_pending = false;
      }
      return true;
    case CSS_SLASH:
      if (c == '*') {
        css->state = CSS_COMMENT;
        return true;
      }
      css->state = CSS_NORMAL;
      css->import_pending = false;
      return false;
    case CSS_COMMENT:
      if (c == '*')
        css->state = CSS_COMMENT_STAR;
      return true;
    case CSS_COMMENT_STAR:
      css->state = c == '/' ? CSS_NORMAL : c == '*' ? CSS_COMMENT_STAR : CSS_COMMENT;
      return true;
    case CSS_IDENT:
      if (css->ident_escape && c != '\n' && c != '\r' && c != '\f') {
        css->ident_escape = false; /* "a\\"b" is a name, not the start of a string */
        return true;
      }
      css->ident_escape = false;
      if (c == '\\') {
        css->ident_escape = css->ident_long = true;
        return true;
      }
      if (is_name_char(c)) {
        if (css->ident_len < CSS_IDENT_MAX)
          css->ident[css->ident_len++] = (char)c;
        else
          css->ident_long = true;
        return true;
      }
      ident_done(css, c);
      return c == '(' && css->state == CSS_URL_START; /* "(" of url( is read; else again */
    case CSS_STRING:
      if (c == (unsigned char)css->quote) {
        url_done(css, css->capture);
        css->state = css->string_in_url ? CSS_URL_END : CSS_NORMAL;
      } else if (c == '\\') {
        css->escaped_from = CSS_STRING;
        css->hex_digits = 0;
        css->hex = 0;
        css->state = CSS_ESCAPE;
      } else if (c == '\n' || c == '\r' || c == '\f') {
        url_done(css, false); /* a bad string: no URL */
        css->state = CSS_NORMAL;
      } else if (css->capture) {
        char ch = (char)c;
        url_add(css, &ch, 1);
      }
      return true;
    case CSS_URL_START:
      if (parse__is_space((char)c))
        return true;
      if (c == '"' || c == '\'') {
        css->quote = (char)c;
        css->capture = true;
        css->string_in_url = true;
        css->state = CSS_STRING;
        return true;
      }
      css->state = CSS_URL;
      return false;
    case CSS_URL:
      if (c == ')') {
        url_done(css, true);
        css->state = CSS_NORMAL;
      } else if (parse__is_space((char)c)) {
        css->state = CSS_URL_END;
      } else if (c == '\\') {
        css->escaped_from = CSS_URL;
        css->hex_digits = 0;
        css->hex = 0;
        css->state = CSS_ESCAPE;
      } else if (c == '"' || c == '\'' || c == '(' || c < 0x20 || c == 0x7f) {
        url_done(css, false);
        css->state = CSS_BAD_URL;
      } else {
        char ch = (char)c;
        url_add(css, &ch, 1);
      }
      return true;
    case CSS_URL_END:
      if (parse__is_space((char)c))
        return true;
      url_done(css, c == ')');
      css->state = c == ')' ? CSS_NORMAL : CSS_BAD_URL;
      return true;
    case CSS_BAD_URL:
      if (c == ')')
        css->state = CSS_NORMAL;
      return true;
    case CSS_ESCAPE: {
      int h = core_hex_digit((char)c);
      if (h >= 0 && css->hex_digits < 6) {
        css->hex = css->hex * 16 + (unsigned long)h;
        css->hex_digits++;
        return true;
      }
      css->state = css->escaped_from;
      bool capturing = css->escaped_from == CSS_URL || css->capture;
      if (css->hex_digits) {
        if (capturing)
          url_add_code_point(css, css->hex);
        return parse__is_space((char)c); /* one white space after a hex escape belongs to it */
      }
      if (c == '\n' || c == '\r' || c == '\f') {
        if (css->escaped_from == CSS_URL) { /* no escaped newline in a URL */
          url_done(css, false);
          css->state = CSS_BAD_URL;
        }
        return true; /* in a string: a continued line */
      }
      if (capturing) {
        char ch = (char)c;
        url_add(css, &ch, 1);
      }
      return true;
    }
  }
  return true;
}

core_rc parse_css_feed(parse_css *css, const char *data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)data[i];
    if (!step(css, c))
      step(css, c); /* read again in the state it led to, which always takes it */
  }
  return css->out_of_memory ? CORE_ENOMEM : CORE_OK;
}

core_rc parse_css_finish(parse_css *css) {
  /* the end of the sheet closes an unquoted URL ("url(x" at the very end is x) */
  if (css->state == CSS_URL || css->state == CSS_URL_END)
    url_done(css, true);
  else if (css->state == CSS_ESCAPE && css->escaped_from == CSS_URL) {
    /* "url(a\" at the end is a, then U+FFFD: the escape is valid, its code point is the end's
     * (0 stands for U+FFFD here) */
    url_add_code_point(css, css->hex_digits ? css->hex : 0);
    url_done(css, true);
  } else if (css->state == CSS_STRING || (css->state == CSS_ESCAPE && css->capture)) {
    /* an unclosed string at the end of the sheet is closed; a backslash just before the end
     * adds nothing, hex digits after one their code point */
    if (css->state == CSS_ESCAPE && css->hex_digits)
      url_add_code_point(css, css->hex);
    url_done(css, css->capture);
  }
  css->state = CSS_NORMAL;
  core_buf_reset(&css->url);
  return css->out_of_memory ? CORE_ENOMEM : CORE_OK;
}

core_rc parse_css_scan(const char *text, size_t len, parse_html_cb cb, void *arg) {
  parse_css *css;
  core_rc rc = parse_css_create(cb, arg, &css);
  if (rc)
    return rc;
  parse_css_feed(css, text, len);
  rc = parse_css_finish(css); /* which says whether memory ran out in either */
  parse_css_destroy(css);
  return rc;
}
