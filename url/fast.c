/* url/fast.c: the fast way of resolving a link.
 * Most links on most pages are plain: a relative or root-relative path, or an absolute URL
 * spelled exactly as its page's origin, made of characters that no step of the URL Standard's
 * parser changes. For those the result is the base's scheme and authority, the merged path with
 * its dot segments removed, and the query, put together as strings. Anything else goes the full
 * way, through curl's URL API (measured: that way, with its allocations, cost a third of the
 * crawl's CPU). A differential fuzz target (tests/fuzz/fuzz_url_fast.c) holds the two to the
 * same answers. */
#include "url/url-int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The longest merged path the fast path takes (it goes through a stack buffer when it has dot
 * segments); longer ones go the full way. */
enum { MERGED_MAX = 1024 };

/* What each byte of a plain reference is to the fast path. PLAIN: a character that neither the
 * path nor the query state percent-encodes or otherwise rewrites (no '%', whose "%2e" would be a
 * dot segment; no '\', a slash in special URLs; no ':' or '\'', which a scheme or the special
 * query set would treat apart). A table: this runs on every byte of every link of every page. */
enum { REF_OTHER, REF_PLAIN, REF_SLASH, REF_QUERY, REF_FRAGMENT };
static const unsigned char ref_class[256] = {
    ['a' ... 'z'] = REF_PLAIN, ['A' ... 'Z'] = REF_PLAIN, ['0' ... '9'] = REF_PLAIN,
    ['-'] = REF_PLAIN,         ['.'] = REF_PLAIN,         ['_'] = REF_PLAIN,
    ['~'] = REF_PLAIN,         ['='] = REF_PLAIN,         ['&'] = REF_PLAIN,
    ['+'] = REF_PLAIN,         [','] = REF_PLAIN,         [';'] = REF_PLAIN,
    ['!'] = REF_PLAIN,         ['*'] = REF_PLAIN,         ['('] = REF_PLAIN,
    [')'] = REF_PLAIN,         ['@'] = REF_PLAIN,         ['$'] = REF_PLAIN,
    ['/'] = REF_SLASH,         ['?'] = REF_QUERY,         ['#'] = REF_FRAGMENT};

/* Writes the path (which starts with '/', len bytes) to out with its "." and ".." segments
 * resolved as the Standard's path state does; returns the length written, at most len + 1 (a
 * last "." or ".." segment leaves a '/'). */
static size_t put_path_without_dots(char *out, const char *path, size_t len) {
  size_t n = 0, i = 1;
  for (;;) {
    size_t end = i;
    while (end < len && path[end] != '/')
      end++;
    size_t seg = end - i;
    bool last = end == len;
    if (seg == 2 && path[i] == '.' && path[i + 1] == '.') {
      /* shorten the path: drop its last segment, never the root */
      while (n > 0 && out[n - 1] != '/')
        n--;
      if (n > 0)
        n--;
      if (last)
        out[n++] = '/';
    } else if (seg == 1 && path[i] == '.') {
      if (last)
        out[n++] = '/';
    } else {
      out[n++] = '/';
      memcpy(out + n, path + i, seg);
      n += seg;
    }
    if (last)
      break;
    i = end + 1;
  }
  if (n == 0)
    out[n++] = '/';
  return n;
}

static bool dot_segment(const char *seg, size_t len) {
  return (len == 1 && seg[0] == '.') || (len == 2 && seg[0] == '.' && seg[1] == '.');
}

/* What a merged path holds: an empty segment ("//"), a "." or ".." one. */
struct path_shape {
  bool empty, dot;
};

/* The segment of s from seg ended at the '/' at end: empty, a dot segment, or neither. */
static void segment_ended(struct path_shape *shape, const char *s, size_t seg, size_t end) {
  if (end == seg)
    shape->empty = true;
  else
    shape->dot |= dot_segment(s + seg, end - seg);
}

/* The directory of a base's path (up to its last '/' before any query; "/" at least, as every
 * path starts with one): its length, and the shape of the segments it holds whole. */
static size_t base_directory(const char *path, struct path_shape *shape) {
  size_t dir = 1, seg = 1;
  for (size_t i = 1; path[i] && path[i] != '?'; i++) {
    if (path[i] != '/')
      continue;
    segment_ended(shape, path, seg, i);
    seg = dir = i + 1;
  }
  return dir;
}

/* "scheme://host[:port]" of an absolute reference whose scheme and authority the Standard prints
 * as they are but for ASCII case: http or https, a host of letters, digits, '-' and '.' that no
 * host parser step changes but lowercasing (not a number, no A-label, no empty label), and a port
 * other than the scheme's default. Returns that prefix's length (0 for anything else) and fills
 * the parts; upper says whether the prefix holds an uppercase letter to lower. */
struct plain_authority {
  bool https, upper;
  size_t host_off, host_len;
  unsigned port;
};

static char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

/* byte is the letter lower (a lowercase ASCII letter) in either case: lower itself, or lower
 * with 0x20 cleared; no other byte sets 0x20 to give lower */
static bool is_letter_of(char byte, char lower) {
  return (byte | 0x20) == lower;
}

enum { HOST_OTHER, HOST_PLAIN, HOST_UPPER, HOST_X, HOST_DOT, HOST_END };
static const unsigned char host_class[256] = {['a' ... 'w'] = HOST_PLAIN,
                                              ['x'] = HOST_X,
                                              ['y' ... 'z'] = HOST_PLAIN,
                                              ['0' ... '9'] = HOST_PLAIN,
                                              ['-'] = HOST_PLAIN,
                                              ['A' ... 'W'] = HOST_UPPER,
                                              ['X'] = HOST_X,
                                              ['Y' ... 'Z'] = HOST_UPPER,
                                              ['.'] = HOST_DOT,
                                              [':'] = HOST_END,
                                              ['/'] = HOST_END};

static size_t plain_authority(const char *s, size_t len, struct plain_authority *a) {
  /* the first byte alone turns away every relative reference but those starting with 'h' */
  if (len <= 7 || !is_letter_of(s[0], 'h') || !is_letter_of(s[1], 't') ||
      !is_letter_of(s[2], 't') || !is_letter_of(s[3], 'p'))
    return 0;
  size_t i;
  if (s[4] == ':' && s[5] == '/' && s[6] == '/') {
    a->https = false;
    i = 7;
  } else if (len > 8 && is_letter_of(s[4], 's') && s[5] == ':' && s[6] == '/' && s[7] == '/') {
    a->https = true;
    i = 8;
  } else {
    return 0;
  }
  /* the scheme is letters: uppercase ones are those without 0x20 */
  a->upper = !(s[0] & s[1] & s[2] & s[3] & (a->https ? s[4] : 0x20) & 0x20);
  a->host_off = i;
  size_t label = i; /* start of the current label */
  for (; i < len; i++) {
    unsigned char kind = host_class[(unsigned char)s[i]];
    if (kind == HOST_PLAIN)
      continue;
    if (kind == HOST_END)
      break;
    if (kind == HOST_DOT) {
      if (i == label)
        return 0; /* an empty label */
      label = i + 1;
    } else if (kind == HOST_UPPER) {
      a->upper = true;
    } else if (kind == HOST_X) {
      a->upper |= s[i] == 'X';
      /* A-labels are checked the full way, in either case */
      if (i + 4 <= len && is_letter_of(s[i + 1], 'n') && s[i + 2] == '-' && s[i + 3] == '-')
        return 0;
    } else {
      return 0;
    }
  }
  a->host_len = i - a->host_off;
  char first = i == label ? 0 : ascii_lower(s[label]);
  if (!a->host_len || a->host_len > 253 || first < 'a' || first > 'z')
    return 0; /* empty, too long, a trailing dot, or a last label that may be a number */
  a->port = a->https ? 443 : 80;
  if (i < len && s[i] == ':') {
    size_t digits = ++i;
    unsigned long port = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9' && i - digits < 6)
      port = port * 10 + (unsigned long)(s[i++] - '0');
    if (i == digits || s[digits] == '0' || port > 65535 || port == a->port)
      return 0; /* empty, zero or leading zeros, too large, or the default: printed otherwise */
    a->port = (unsigned)port;
  }
  return i < len && s[i] == '/' ? i : 0;
}

core_rc url__resolve_fast(const struct url *base, const char *href, size_t href_len, size_t max_len,
                          struct url *out, bool *handled) {
  *handled = false;
  /* a reference longer than the full way reads (fragment included) is its to refuse */
  if (!href_len || href_len > max_len + 64)
    return CORE_OK;
  /* where "scheme://authority" comes from: the reference itself, or the base as it prints */
  struct plain_authority own = {0};
  size_t own_len = plain_authority(href, href_len, &own);
  bool relative = !own_len;
  if (relative && (!base || !base->text || base->unfetchable))
    return CORE_OK;
  const char *prefix = relative ? base->text : href;
  size_t prefix_len = relative ? base->path_off : own_len;
  size_t start = relative ? 0 : own_len;
  bool rooted = href[start] == '/';
  if (rooted && start + 1 < href_len && href[start + 1] == '/')
    return CORE_OK; /* another authority */
  /* One pass over the reference: its bytes are plain, its path ends at '?' or '#', its query at
   * '#' (the fragment is not printed), and each path segment is looked at as it ends. A relative
   * path that does not start with '/' continues the base's directory, whose last '/' begins its
   * first segment. */
  struct path_shape shape = {false, false};
  size_t i = rooted ? start + 1 : start, seg = i;
  unsigned char kind = REF_OTHER;
  for (; i < href_len; i++) {
    kind = ref_class[(unsigned char)href[i]];
    if (kind == REF_PLAIN)
      continue;
    if (kind != REF_SLASH)
      break;
    segment_ended(&shape, href, seg, i);
    seg = i + 1;
  }
  size_t path_end = i;
  shape.dot |= dot_segment(href + seg, path_end - seg);
  const char *query = NULL;
  if (i < href_len && kind == REF_QUERY) {
    query = href + i;
    for (i++; i < href_len; i++) {
      kind = ref_class[(unsigned char)href[i]];
      if (kind == REF_FRAGMENT || kind == REF_OTHER)
        break;
    }
  }
  if (i < href_len && kind == REF_OTHER)
    return CORE_OK;
  size_t len = i; /* the reference without its fragment */
  if (len == start || path_end == start)
    return CORE_OK; /* the base itself, or its path with another query: the full way */
  /* the merged path: the reference's own when it starts with '/', else after the base's
   * directory (its path up to the last '/', its query left out) */
  const char *base_path = relative ? base->text + base->path_off : "";
  size_t dir = rooted ? 0 : base_directory(base_path, &shape);
  size_t merged_len = dir + (path_end - start);
  if (merged_len >= MERGED_MAX)
    return CORE_OK; /* long paths go the full way */
  if (shape.empty || (query && shape.dot)) {
    /* empty segments, and dot segments before a query: curl's merge and the Standard's differ
     * there, so the full way decides */
    return CORE_OK;
  }
  /* the printed form, then its host and origin, in one allocation: only dot segments may make
   * the printed form shorter than this */
  size_t host_len = relative ? strlen(base->host) : own.host_len;
  size_t origin_len = relative ? strlen(base->origin) : own_len; /* no userinfo, default port */
  size_t text_max = prefix_len + merged_len + 1 + (len - path_end);
  *handled = true;
  char *text = malloc(text_max + host_len + origin_len + 3);
  if (!text)
    return CORE_ENOMEM;
  memcpy(text, prefix, prefix_len);
  if (!relative && own.upper) { /* the Standard lowercases the scheme and an ASCII host */
    for (size_t k = 0; k < prefix_len; k++)
      text[k] = ascii_lower(text[k]);
    prefix = text; /* the host and origin below are read from the lowered copy */
  }
  size_t text_len = prefix_len;
  if (shape.dot) {
    /* the merged path on the stack, then written without its dot segments */
    char merged[MERGED_MAX];
    memcpy(merged, base_path, dir);
    memcpy(merged + dir, href + start, path_end - start);
    text_len += put_path_without_dots(text + text_len, merged, merged_len);
  } else {
    memcpy(text + text_len, base_path, dir);
    memcpy(text + text_len + dir, href + start, path_end - start);
    text_len += merged_len;
  }
  if (query) {
    memcpy(text + text_len, query, len - path_end);
    text_len += len - path_end;
  }
  text[text_len] = '\0';
  if (text_len > max_len) {
    free(text);
    return CORE_ETOOLONG; /* as the full way caps it */
  }
  const char *host = relative ? base->host : prefix + own.host_off;
  const char *origin = relative ? base->origin : prefix;
  memset(out, 0, sizeof(*out));
  out->text = text; /* the allocation moves to out */
  out->host = text + text_len + 1;
  memcpy(out->host, host, host_len);
  out->host[host_len] = '\0';
  out->origin = out->host + host_len + 1;
  memcpy(out->origin, origin, origin_len);
  out->origin[origin_len] = '\0';
  out->packed = true;
  out->path_off = prefix_len;
  if (relative) {
    out->port = base->port;
    out->https = base->https;
    out->host_is_ip = base->host_is_ip;
  } else {
    out->port = own.port;
    out->https = own.https;
  }
  return CORE_OK;
}
