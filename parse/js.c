/* URLs and paths in JavaScript string literals (doc/network.md, Links users miss): a scanner
 * that knows enough of the language not to take code for a string or a string for code. It
 * follows strings ('', "", and the text of template literals between their substitutions),
 * comments, and regular expression literals, told from division by the token before the '/'
 * (as ECMAScript's grammar does for the common cases); everything else is code. A string is a
 * link when it looks like one: an http(s) URL, or a path starting with "/", "./" or "../",
 * without white space or characters no URL holds unescaped. Fed in chunks of any size: the
 * state (and the one string being read, at most JS_STRING_MAX bytes) carries over. */
#include "parse/parse.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { JS_STRING_MAX = 2048, JS_NESTING_MAX = 32 };

typedef enum {
  CODE,
  SLASH,         /* a '/' in code: a comment, a regex or division, told by the next byte */
  STRING,        /* inside '' or "" (quote says which) */
  STRING_ESCAPE, /* after a backslash in a string */
  TEMPLATE,      /* inside `...`, outside ${} */
  TEMPLATE_ESCAPE,
  TEMPLATE_DOLLAR, /* after a '$' in a template: '{' opens a substitution */
  LINE_COMMENT,
  BLOCK_COMMENT,
  BLOCK_STAR, /* a '*' in a block comment */
  REGEX,
  REGEX_ESCAPE,
  REGEX_CLASS,
  REGEX_CLASS_ESCAPE
} js_state;

struct parse_js {
  parse_html_cb cb;
  void *arg;
  js_state state;
  char quote;
  bool regex_ok;   /* a '/' now starts a regex, not division */
  char word[12];   /* the identifier being read (keywords before a regex) */
  size_t word_len; /* SIZE_MAX: longer than any keyword */
  bool in_word;    /* the last byte of code was part of an identifier or number */
  bool tainted;    /* the string has something a plain URL text cannot be (\u, \x, ${}) */
  bool overflow;   /* the string outgrew JS_STRING_MAX */
  char text[JS_STRING_MAX];
  size_t len;
  /* the code of template substitutions: braces open in each, innermost last */
  int braces[JS_NESTING_MAX];
  int depth;
};

core_rc parse_js_create(parse_html_cb cb, void *arg, parse_js **out) {
  struct parse_js *js = calloc(1, sizeof(*js));
  if (!js)
    return CORE_ENOMEM;
  js->cb = cb;
  js->arg = arg;
  js->regex_ok = true;
  *out = js;
  return CORE_OK;
}

void parse_js_destroy(parse_js *js) {
  free(js);
}

/* After an identifier: a keyword after which an expression (so a regex) comes. */
static bool keyword_before_expression(const struct parse_js *js) {
  static const char *const words[] = {"return", "typeof",     "case",  "do",     "else",
                                      "in",     "of",         "new",   "delete", "void",
                                      "throw",  "instanceof", "yield", "await"};
  if (js->word_len == SIZE_MAX)
    return false;
  for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
    if (strlen(words[i]) == js->word_len && memcmp(words[i], js->word, js->word_len) == 0)
      return true;
  return false;
}

static bool is_word_byte(unsigned char c) {
  return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/* Whether a string's text is a URL or a path worth offering. */
static bool looks_like_link(const char *s, size_t n) {
  if (n < 2)
    return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c <= 0x20 || c == 0x7f || strchr("<>\"'`{}|\\^", c))
      return false;
  }
  if ((n > 7 && strncmp(s, "http://", 7) == 0) || (n > 8 && strncmp(s, "https://", 8) == 0))
    return true;
  if (s[0] == '/' && s[1] == '/') /* protocol-relative: a host must follow */
    return n > 2 && isalnum((unsigned char)s[2]);
  if (s[0] == '/')
    return isalnum((unsigned char)s[1]) || s[1] == '_' || s[1] == '.' || s[1] == '~';
  return (n > 2 && strncmp(s, "./", 2) == 0) || (n > 3 && strncmp(s, "../", 3) == 0);
}

static void string_begin(struct parse_js *js) {
  js->len = 0;
  js->tainted = js->overflow = false;
}

static void string_add(struct parse_js *js, char c) {
  if (js->len < JS_STRING_MAX)
    js->text[js->len++] = c;
  else
    js->overflow = true;
}

static void string_end(struct parse_js *js) {
  if (!js->tainted && !js->overflow && looks_like_link(js->text, js->len))
    js->cb(js->arg, PARSE_LINK, js->text, js->len);
  js->len = 0;
}

/* One byte of code (not inside a string, comment or regex). */
static void code_byte(struct parse_js *js, unsigned char c) {
  bool word = is_word_byte(c);
  if (word) {
    if (!js->in_word)
      js->word_len = 0;
    if (js->word_len != SIZE_MAX && js->word_len < sizeof(js->word))
      js->word[js->word_len++] = (char)c;
    else
      js->word_len = SIZE_MAX;
    js->in_word = true;
    return;
  }
  if (js->in_word) /* an identifier, number or keyword just ended */
    js->regex_ok = keyword_before_expression(js);
  js->in_word = false;
  switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '\f':
    case '\v':
      return; /* white space leaves the token before as it was */
    case '"':
    case '\'':
      js->state = STRING;
      js->quote = (char)c;
      string_begin(js);
      return;
    case '`':
      js->state = TEMPLATE;
      string_begin(js);
      return;
    case '/':
      js->state = SLASH;
      return;
    case '{':
      if (js->depth)
        js->braces[js->depth - 1]++;
      js->regex_ok = true;
      return;
    case '}':
      if (js->depth && js->braces[js->depth - 1]-- == 0) {
        js->depth--; /* the end of a template's substitution: its text goes on */
        js->state = TEMPLATE;
        js->tainted = true; /* what follows is no URL's start */
        js->len = 0;
        return;
      }
      js->regex_ok = true;
      return;
    case ')':
    case ']':
      js->regex_ok = false; /* (a) / b: division */
      return;
    default:
      js->regex_ok = true; /* after an operator or punctuator, an expression */
      return;
  }
}

static void scan_byte(struct parse_js *js, unsigned char c) {
  switch (js->state) {
    case CODE:
      code_byte(js, c);
      return;
    case SLASH:
      if (c == '/') {
        js->state = LINE_COMMENT;
      } else if (c == '*') {
        js->state = BLOCK_COMMENT;
      } else if (js->regex_ok) {
        js->state = REGEX;
        scan_byte(js, c);
      } else {
        js->state = CODE; /* division */
        js->regex_ok = true;
        code_byte(js, c);
      }
      return;
    case STRING:
      if (c == (unsigned char)js->quote) {
        js->state = CODE;
        js->regex_ok = false;
        string_end(js);
      } else if (c == '\\') {
        js->state = STRING_ESCAPE;
      } else if (c == '\n' || c == '\r') {
        js->state = CODE; /* unterminated: no string */
        js->len = 0;
      } else {
        string_add(js, (char)c);
      }
      return;
    case STRING_ESCAPE:
    case TEMPLATE_ESCAPE:
      /* "\/" is "/" (JSON in scripts writes it so); other escapes make no plain URL */
      if (c == '/')
        string_add(js, '/');
      else
        js->tainted = true;
      js->state = js->state == STRING_ESCAPE ? STRING : TEMPLATE;
      return;
    case TEMPLATE:
      if (c == '`') {
        js->state = CODE;
        js->regex_ok = false;
        string_end(js);
      } else if (c == '\\') {
        js->state = TEMPLATE_ESCAPE;
      } else if (c == '$') {
        js->state = TEMPLATE_DOLLAR;
      } else {
        string_add(js, (char)c);
      }
      return;
    case TEMPLATE_DOLLAR:
      if (c == '{' && js->depth < JS_NESTING_MAX) {
        js->braces[js->depth++] = 0;
        js->state = CODE;
        js->regex_ok = true;
        js->in_word = false;
        js->tainted = true; /* a substitution: the text is no whole URL */
        return;
      }
      string_add(js, '$');
      js->state = TEMPLATE;
      if (c == '{')
        js->tainted = true; /* nested too deep: the rest reads as text */
      scan_byte(js, c);
      return;
    case LINE_COMMENT:
      if (c == '\n' || c == '\r') {
        js->state = CODE;
        js->in_word = false;
      }
      return;
    case BLOCK_COMMENT:
      if (c == '*')
        js->state = BLOCK_STAR;
      return;
    case BLOCK_STAR:
      js->state = c == '/' ? CODE : c == '*' ? BLOCK_STAR : BLOCK_COMMENT;
      if (js->state == CODE)
        js->in_word = false;
      return;
    case REGEX:
      if (c == '/') {
        js->state = CODE;
        js->regex_ok = false; /* its flags, then an operator */
        js->in_word = false;
        js->word_len = SIZE_MAX;
      } else if (c == '\\') {
        js->state = REGEX_ESCAPE;
      } else if (c == '[') {
        js->state = REGEX_CLASS;
      } else if (c == '\n' || c == '\r') {
        js->state = CODE; /* no regex after all */
        js->regex_ok = true;
      }
      return;
    case REGEX_ESCAPE:
      js->state = REGEX;
      return;
    case REGEX_CLASS:
      if (c == ']')
        js->state = REGEX;
      else if (c == '\\')
        js->state = REGEX_CLASS_ESCAPE;
      else if (c == '\n' || c == '\r')
        js->state = CODE;
      return;
    case REGEX_CLASS_ESCAPE:
      js->state = REGEX_CLASS;
      return;
  }
}

core_rc parse_js_feed(parse_js *js, const char *data, size_t len) {
  for (size_t i = 0; i < len; i++)
    scan_byte(js, (unsigned char)data[i]);
  return CORE_OK;
}

core_rc parse_js_finish(parse_js *js) {
  /* an unterminated string or template at the end is no string */
  js->len = 0;
  js->state = CODE;
  return CORE_OK;
}
