/* URLs in the printed form of doc/behaviour.md (Output): the WHATWG URL Standard serialization
 * without fragment. curl's URL API parses and resolves; this file closes the gaps between it and
 * the standard. Plain links take the fast way (fast.c) and come here only when it declines. */
#include "url/url-int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <iconv.h>
#include <idn2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* WHATWG "C0 control or space": stripped from both ends of an input URL. */
static bool is_c0_or_space(unsigned char c) {
  return c <= 0x20;
}

static bool is_scheme_char(unsigned char c) {
  return isalnum(c) || c == '+' || c == '-' || c == '.';
}

/* Length of a leading "scheme:" (without the colon), or 0 when the input is relative. */
static size_t scheme_len(const char *s, size_t len) {
  if (!len || !isalpha((unsigned char)s[0]))
    return 0;
  for (size_t i = 1; i < len; i++) {
    if (s[i] == ':')
      return i;
    if (!is_scheme_char((unsigned char)s[i]))
      return 0;
  }
  return 0;
}

/* URL Standard, query percent-encode set (special schemes): C0 controls, space, " # < > ' and
 * bytes above 0x7E. */
static bool in_query_set(unsigned char c) {
  return c < 0x21 || c > 0x7e || c == '"' || c == '<' || c == '>' || c == '\'';
}

/* URL Standard, single- and double-dot segments include their percent-encoded forms ("%2e",
 * ".%2E", ...): the segment written since seg_start becomes "." or ".." so curl removes it. */
static void rewrite_dot_segment(struct core_buf *out, size_t seg_start) {
  size_t len = out->len - seg_start;
  if (len != 3 && len != 4 && len != 6)
    return; /* also keeps an empty buffer's NULL data out of the arithmetic below */
  const char *seg = out->data + seg_start;
  if (len == 3 && strncasecmp(seg, "%2e", 3) == 0) {
    out->len = seg_start + 1;
    out->data[seg_start] = '.';
  } else if ((len == 4 && (strncasecmp(seg, ".%2e", 4) == 0 || strncasecmp(seg, "%2e.", 4) == 0)) ||
             (len == 6 && strncasecmp(seg, "%2e%2e", 6) == 0)) {
    out->len = seg_start + 2;
    out->data[seg_start] = out->data[seg_start + 1] = '.';
  } else {
    return;
  }
  out->data[out->len] = '\0';
}

/* Length of the UTF-8 sequence at s (1 for a stray byte) and its code point. */
static size_t utf8_decode(const unsigned char *s, size_t len, unsigned long *cp) {
  size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
  if (n > len)
    n = 1;
  unsigned long v = n == 1 ? s[0] : s[0] & (0x3f >> (n - 1));
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) {
      *cp = s[0];
      return 1;
    }
    v = v << 6 | (s[i] & 0x3f);
  }
  *cp = v;
  return n;
}

/* A query's encoder: iconv's, and whether it is windows-1252's, whose U+0081, U+008D, U+008F,
 * U+0090 and U+009D the Encoding Standard encodes as the bytes of the same value where glibc's
 * table has no such characters. */
struct query_encoder {
  iconv_t cd; /* (iconv_t)-1: the query is UTF-8 */
  bool windows_1252;
};

static bool windows_1252_c1(unsigned long cp) {
  return cp == 0x81 || cp == 0x8d || cp == 0x8f || cp == 0x90 || cp == 0x9d;
}

/* URL Standard, query state with a non-UTF-8 encoding: the run of non-ASCII bytes at s is encoded
 * in charset and percent-encoded; a character charset lacks becomes "&#N;", percent-encoded too. */
static core_rc add_query_in_charset(struct core_buf *out, const struct query_encoder *enc,
                                    const char *s, size_t len) {
  iconv_t cd = enc->cd;
  size_t i = 0;
  core_rc rc = CORE_OK;
  while (i < len && !rc) {
    char buf[16];
    char *in = (char *)s + i, *outp = buf;
    unsigned long cp;
    size_t n = utf8_decode((const unsigned char *)s + i, len - i, &cp);
    size_t in_left = n, out_left = sizeof(buf);
    iconv(cd, NULL, NULL, NULL, NULL);
    if (enc->windows_1252 && windows_1252_c1(cp)) {
      rc = url__add_encoded(out, (unsigned char)cp, true);
    } else if (iconv(cd, &in, &in_left, &outp, &out_left) == (size_t)-1 || in_left) {
      /* "percent-encode after encoding": %26%23, the decimal digits as they are, %3B */
      char ref[32];
      int m = snprintf(ref, sizeof(ref), "%%26%%23%lu%%3B", cp);
      rc = core_buf_add(out, ref, (size_t)m);
    } else {
      for (char *p = buf; p < outp && !rc; p++)
        rc = url__add_encoded(out, (unsigned char)*p, true);
    }
    i += n;
  }
  return rc;
}

static size_t count_slashes(const char *s, size_t i, size_t len) {
  size_t n = 0;
  while (i + n < len && (s[i + n] == '/' || s[i + n] == '\\'))
    n++;
  return n;
}

/* Rewrites the raw href into input that curl resolves as a browser would: either
 * "scheme://authority/path?query" or a relative reference, percent-encoded as the URL Standard
 * says. base_scheme is the base URL's scheme, or NULL. */
static core_rc prepare(const char *href, size_t len, const char *base_scheme,
                       const struct query_encoder *enc, struct core_buf *out,
                       char carried[CARRIED_MAX]) {
  while (len && is_c0_or_space((unsigned char)href[0])) {
    href++;
    len--;
  }
  while (len && is_c0_or_space((unsigned char)href[len - 1]))
    len--;
  /* the standard removes every ASCII tab and newline before parsing */
  struct core_buf clean;
  core_buf_init(&clean, out->max);
  for (size_t i = 0; i < len; i++) {
    if (href[i] == '\t' || href[i] == '\n' || href[i] == '\r')
      continue;
    core_rc added = core_buf_addc(&clean, href[i]);
    if (added != CORE_OK) { /* too long, or out of memory: which one decides the crawl's fate */
      core_buf_free(&clean);
      return added;
    }
  }
  const char *s = clean.data ? clean.data : "";
  const char *hash = memchr(s, '#', clean.len); /* the fragment is dropped from the printed form */
  len = hash ? (size_t)(hash - s) : clean.len;
  core_rc rc = CORE_OK;
  size_t i = 0, slen = scheme_len(s, len);
  bool special = (slen == 4 && strncasecmp(s, "http", 4) == 0) ||
                 (slen == 5 && strncasecmp(s, "https", 5) == 0);
  bool authority = false;
  if (slen && !special) {
    /* another scheme: kept for the caller to refuse */
    for (; i < len && !rc; i++)
      rc = core_buf_addc(out, (char)tolower((unsigned char)s[i]));
    core_buf_free(&clean);
    return rc;
  }
  if (slen) {
    i = slen + 1;
    size_t slashes = count_slashes(s, i, len);
    bool same_as_base =
        base_scheme && strlen(base_scheme) == slen && strncasecmp(s, base_scheme, slen) == 0;
    if (same_as_base && slashes < 2) {
      /* "special relative or authority state": "http:x" is relative to an http base */
    } else {
      /* "special authority ignore slashes state": any number of / or \ */
      for (size_t j = 0; j < slen && !rc; j++)
        rc = core_buf_addc(out, (char)tolower((unsigned char)s[j]));
      rc = rc ? rc : core_buf_add(out, "://", 3);
      i += slashes;
      authority = true;
    }
  } else if (count_slashes(s, 0, len) >= 2) {
    /* scheme-relative: "//host", and for special schemes "\\host" or "///host" alike */
    rc = core_buf_add(out, "//", 2);
    i = count_slashes(s, 0, len);
    authority = true;
  }
  if (authority && !rc) {
    size_t a = i;
    while (i < len && s[i] != '/' && s[i] != '\\' && s[i] != '?')
      i++;
    rc = url__add_authority(out, s + a, i - a, carried);
  }
  if (!authority && !rc && i < len && s[i] != '/' && s[i] != '\\') {
    /* a relative path whose first segment holds ":" would read as a scheme ("http:x" once its
     * same-scheme prefix is gone): RFC 3986 4.2 writes it "./http:x" */
    size_t seg_end = i;
    while (seg_end < len && s[seg_end] != '/' && s[seg_end] != '\\' && s[seg_end] != '?')
      seg_end++;
    if (memchr(s + i, ':', seg_end - i))
      rc = core_buf_add(out, "./", 2);
  }
  /* the path goes through a segment buffer, so encoded dot segments can be recognised */
  size_t seg_start = out->len;
  bool query = false;
  for (; i < len && !rc; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!query && (c == '?' || c == '/' || c == '\\')) {
      rewrite_dot_segment(out, seg_start);
      /* for special schemes "\\" is "/" before the query */
      rc = core_buf_addc(out, c == '?' ? '?' : '/');
      query = c == '?';
      seg_start = out->len;
    } else if (query && c >= 0x80 && enc->cd != (iconv_t)-1) {
      size_t run = i;
      while (run < len && (unsigned char)s[run] >= 0x80)
        run++;
      rc = add_query_in_charset(out, enc, s + i, run - i);
      i = run - 1;
    } else {
      rc = url__add_encoded(out, c, query ? in_query_set(c) : url__in_path_set(c));
    }
  }
  if (!query && !rc)
    rewrite_dot_segment(out, seg_start);
  core_buf_free(&clean);
  return rc;
}

void url_free(struct url *url) {
  if (!url)
    return;
  free(url->text);
  if (!url->packed) {
    free(url->host);
    free(url->origin);
  }
  curl_url_cleanup(url->handle);
  memset(url, 0, sizeof(*url));
}

/* URL Standard, IPv6 serializer: lowercase hex pieces, the first longest run of two or more zero
 * pieces compressed to "::", never the dotted IPv4 tail some libraries print. */
static bool serialize_ipv6(const char *bracketed, char *out, size_t size) {
  char inner[64];
  size_t len = strlen(bracketed);
  if (len < 3 || len - 2 >= sizeof(inner))
    return false;
  memcpy(inner, bracketed + 1, len - 2);
  inner[len - 2] = '\0';
  unsigned char a[16];
  if (inet_pton(AF_INET6, inner, a) != 1)
    return false;
  unsigned pieces[8];
  for (int i = 0; i < 8; i++)
    pieces[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    int j = i;
    while (j < 8 && pieces[j] == 0)
      j++;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j > i ? j : i + 1;
  }
  size_t n = 0;
  out[n++] = '[';
  for (int i = 0; i < 8; i++) {
    if (i == best) {
      n += (size_t)snprintf(out + n, size - n, i == 0 ? "::" : ":");
      i += best_len - 1;
      continue;
    }
    n += (size_t)snprintf(out + n, size - n, "%x%s", pieces[i], i < 7 ? ":" : "");
  }
  snprintf(out + n, size - n, "]");
  return true;
}

/* Sets the handle's host to value and reads it back into *host, so the two never disagree. */
static bool replace_host(CURLU *h, char **host, const char *value) {
  if (curl_url_set(h, CURLUPART_HOST, value, 0) != CURLUE_OK)
    return false;
  curl_free(*host);
  *host = NULL;
  return curl_url_get(h, CURLUPART_HOST, host, 0) == CURLUE_OK;
}

/* For a host that is not all ASCII, the Standard's domain to ASCII runs UTS #46 ToASCII, which
 * decodes every "xn--" label and rejects it unless the decoded label is valid: Punycode that
 * decodes, not to plain ASCII, and only code points that the mapping leaves as they are. A label
 * passes here when it decodes and curl's own way of turning a U-label into ASCII (libidn2,
 * non-transitional with a transitional fallback) gives back the same label: a mapped code point
 * ("xn--pokxncvks" decodes to circled numbers that map to digits) or a disallowed one changes it or
 * fails. Takes a lowercase host. */
static bool a_labels_valid(const char *host) {
  for (const char *label = host; *label;) {
    size_t len = strcspn(label, ".");
    if (len >= 4 && memcmp(label, "xn--", 4) == 0) {
      char *ace = strndup(label, len), *unicode = NULL, *again = NULL;
      bool ok = ace && idn2_to_unicode_8z8z(ace, &unicode, 0) == IDN2_OK && unicode;
      if (ok && idn2_lookup_u8((const uint8_t *)unicode, (uint8_t **)&again,
                               IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL) != IDN2_OK) {
        again = NULL;
        ok = idn2_lookup_u8((const uint8_t *)unicode, (uint8_t **)&again, IDN2_TRANSITIONAL) ==
             IDN2_OK;
      }
      ok = ok && again && strcasecmp(again, ace) == 0;
      idn2_free(again);
      idn2_free(unicode);
      free(ace);
      if (!ok)
        return false;
    }
    label += len + (label[len] == '.');
  }
  return true;
}

/* Whether the handle's host, as given (before curl's IDNA), is all ASCII. */
static bool host_was_ascii(CURLU *h) {
  char *raw = NULL;
  bool ascii = false;
  if (curl_url_get(h, CURLUPART_HOST, &raw, 0) == CURLUE_OK && raw) {
    ascii = true;
    for (const char *p = raw; *p; p++)
      if ((unsigned char)*p >= 0x80)
        ascii = false;
  }
  curl_free(raw);
  return ascii;
}

static bool has_zone_id(CURLU *h) {
  char *zone = NULL;
  bool has = curl_url_get(h, CURLUPART_ZONEID, &zone, 0) == CURLUE_OK && zone && *zone;
  curl_free(zone);
  return has;
}

/* Fills out from a parsed handle (takes ownership of it). */
static core_rc finish(CURLU *h, size_t max_len, bool empty_query, const char *carried,
                      struct url *out) {
  char *scheme = NULL, *host = NULL, *port = NULL, *curl_text = NULL;
  struct core_buf joined = {0};
  core_rc rc = CORE_EURL;
  memset(out, 0, sizeof(*out));
  if (curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK)
    goto done;
  bool https = strcmp(scheme, "https") == 0;
  if (!https && strcmp(scheme, "http") != 0)
    goto done;
  if (curl_url_get(h, CURLUPART_HOST, &host, CURLU_PUNYCODE) != CURLUE_OK || !*host)
    goto done;
  if (strcmp(host, CARRIED_HOST) != 0)
    carried = ""; /* the base's carried host, but the reference named a host of its own */
  /* the Standard's forbidden domain code points; and the punctuation curl refuses, when IDNA
   * made it out of non-ASCII input (a fullwidth "!"): add_authority carries only ASCII hosts
   * around curl, so this printed form would not parse again */
  if (host[0] != '[')
    for (const char *p = host; *p; p++)
      if (url__forbidden_domain_char((unsigned char)*p) || url__curl_refuses_in_host(*p))
        goto done;
  /* the host parser of the standard lowercases ASCII; curl keeps the case it was given */
  bool changed = false;
  for (char *p = host; *p; p++) {
    if (isupper((unsigned char)*p)) {
      *p = (char)tolower((unsigned char)*p);
      changed = true;
    }
  }
  if (changed && !replace_host(h, &host, host))
    goto done;
  /* an ASCII domain is only lowercased, whatever its "xn--" labels hold (URL Standard, domain
   * to ASCII, since whatwg/url#914: web compatibility); one that came with non-ASCII is not */
  if (host[0] != '[' && !host_was_ascii(h) && !a_labels_valid(host))
    goto done;
  if (host[0] == '[' && (strchr(host, '%') || has_zone_id(h)))
    goto done; /* the Standard's IPv6 parser has no zone identifiers: "%" fails it */
  /* the Standard checks for an IPv4 address after IDNA too ("xn--ls8h.123" ends in a number) */
  uint32_t v4;
  int ip = host[0] == '[' ? 0 : url__parse_ipv4(host, strlen(host), &v4);
  if (ip < 0)
    goto done;
  char quad[16];
  if (ip > 0) {
    snprintf(quad, sizeof(quad), "%u.%u.%u.%u", v4 >> 24, (v4 >> 16) & 255, (v4 >> 8) & 255,
             v4 & 255);
    if (strcmp(quad, host) != 0 && !replace_host(h, &host, quad))
      goto done;
  }
  char v6[64];
  if (host[0] == '[') {
    if (!serialize_ipv6(host, v6, sizeof(v6)))
      goto done;
    if (strcmp(v6, host) != 0 && !replace_host(h, &host, v6))
      goto done;
  }
  if (curl_url_get(h, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK)
    goto done;
  if (curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0) != CURLUE_OK)
    goto done;
  if (curl_url_get(h, CURLUPART_URL, &curl_text, CURLU_NO_DEFAULT_PORT | CURLU_PUNYCODE) !=
      CURLUE_OK)
    goto done;
  /* from here on, the host and text printed: curl's, or with the carried host put back */
  const char *name = host, *text = curl_text;
  if (carried[0]) {
    /* in place of CARRIED_HOST: after "://" and the userinfo's last "@" */
    const char *auth = strstr(curl_text, "://") + 3, *at = NULL;
    for (const char *p = auth; *p && *p != '/'; p++)
      if (*p == '@')
        at = p;
    const char *start = at ? at + 1 : auth;
    size_t clen = strlen(CARRIED_HOST);
    if (strncmp(start, CARRIED_HOST, clen) != 0)
      goto done;
    core_buf_init(&joined, SIZE_MAX / 2);
    if (core_buf_add(&joined, curl_text, (size_t)(start - curl_text)) ||
        core_buf_add(&joined, carried, strlen(carried)) ||
        core_buf_add(&joined, start + clen, strlen(start + clen))) {
      rc = CORE_ENOMEM;
      goto done;
    }
    name = carried;
    text = joined.data;
  }
  /* the standard keeps an empty query ("x?"); curl drops it */
  bool add_q = empty_query && !strchr(text, '?');
  size_t len = strlen(text) + add_q;
  if (len > max_len) {
    rc = CORE_ETOOLONG;
    goto done;
  }
  unsigned long portnum = strtoul(port, NULL, 10);
  bool is_v6 = name[0] == '[';
  size_t hlen = strlen(name);
  const char *after = strstr(text, "://");
  const char *path = after ? strchr(after + 3, '/') : NULL;
  /* port 0 is a port to the Standard; no connection can be made to it */
  if (!path || (portnum == 0 && strcmp(port, "0") != 0) || portnum > 65535)
    goto done;
  rc = CORE_ENOMEM;
  out->text = malloc(len + 1);
  if (out->text)
    snprintf(out->text, len + 1, "%s%s", text, add_q ? "?" : "");
  out->host = is_v6 ? strndup(name + 1, hlen - 2) : strdup(name);
  bool default_port = portnum == (https ? 443u : 80u);
  size_t olen = strlen(scheme) + 3 + hlen + 7;
  out->origin = malloc(olen);
  if (!out->text || !out->host || !out->origin)
    goto fail;
  if (default_port)
    snprintf(out->origin, olen, "%s://%s", scheme, name);
  else
    snprintf(out->origin, olen, "%s://%s:%lu", scheme, name, portnum);
  out->port = (unsigned)portnum;
  out->https = https;
  out->path_off = (size_t)(path - text);
  unsigned char addr[16];
  out->host_is_ip = is_v6 || inet_pton(AF_INET, out->host, addr) == 1;
  out->unfetchable = carried[0] || portnum == 0;
  out->handle = h; /* with CARRIED_HOST in it, when carried: url_resolve_in knows */
  h = NULL;
  rc = CORE_OK;
  goto done;
fail:
  url_free(out);
done:
  curl_url_cleanup(h);
  curl_free(scheme);
  curl_free(host);
  curl_free(port);
  curl_free(curl_text);
  core_buf_free(&joined);
  return rc;
}

core_rc url_resolve(const struct url *base, const char *href, size_t href_len, size_t max_len,
                    struct url *out) {
  return url_resolve_in(base, href, href_len, max_len, NULL, out);
}

core_rc url_resolve_in(const struct url *base, const char *href, size_t href_len, size_t max_len,
                       const char *charset, struct url *out) {
  bool handled;
  core_rc fast = url__resolve_fast(base, href, href_len, max_len, out, &handled);
  if (handled)
    return fast;
  return url__resolve_full(base, href, href_len, max_len, charset, out);
}

core_rc url__resolve_full(const struct url *base, const char *href, size_t href_len, size_t max_len,
                          const char *charset, struct url *out) {
  /* a converter only when the query may need one: a legacy charset and non-ASCII input */
  struct query_encoder enc = {(iconv_t)-1, false};
  if (charset && strcasecmp(charset, "utf-8") != 0 && strcasecmp(charset, "utf8") != 0) {
    for (size_t i = 0; i < href_len; i++) {
      if ((unsigned char)href[i] >= 0x80) {
        enc.cd = iconv_open(charset, "UTF-8");
        enc.windows_1252 =
            strcasecmp(charset, "windows-1252") == 0 || strcasecmp(charset, "cp1252") == 0;
        break;
      }
    }
  }
  struct core_buf prepared;
  core_buf_init(&prepared, max_len + 64);
  char carried[CARRIED_MAX] = "";
  core_rc rc = prepare(href, href_len, base ? (base->https ? "https" : "http") : NULL, &enc,
                       &prepared, carried);
  if (!carried[0] && base && base->unfetchable && base->handle &&
      strlen(base->host) < CARRIED_MAX) {
    /* a base whose handle holds CARRIED_HOST: a reference without a host of its own takes the
     * base's real one */
    char *handle_host = NULL;
    if (curl_url_get(base->handle, CURLUPART_HOST, &handle_host, 0) == CURLUE_OK &&
        strcmp(handle_host, CARRIED_HOST) == 0)
      strcpy(carried, base->host);
    curl_free(handle_host);
  }
  if (enc.cd != (iconv_t)-1)
    iconv_close(enc.cd);
  if (rc) {
    core_buf_free(&prepared);
    return rc;
  }
  if (!prepared.data) {
    /* an empty reference, or a fragment alone, names the base document itself */
    core_buf_free(&prepared);
    if (!base || !base->text)
      return CORE_EURL;
    return url_resolve(NULL, base->text, strlen(base->text), max_len, out);
  }
  size_t slen = scheme_len(prepared.data, prepared.len);
  if (slen && !((slen == 4 && strncmp(prepared.data, "http", 4) == 0) ||
                (slen == 5 && strncmp(prepared.data, "https", 5) == 0))) {
    core_buf_free(&prepared);
    return CORE_EURL; /* mailto:, javascript:, data:, tel:, ftp: are never printed */
  }
  CURLU *h = base && base->handle ? curl_url_dup(base->handle) : curl_url();
  if (!h) {
    core_buf_free(&prepared);
    return CORE_ENOMEM;
  }
  /* a base made by the fast path keeps no handle: its printed form parses to the same URL */
  if (base && !base->handle && base->text && curl_url_set(h, CURLUPART_URL, base->text, 0)) {
    curl_url_cleanup(h);
    core_buf_free(&prepared);
    return CORE_EURL;
  }
  CURLUcode uc = curl_url_set(h, CURLUPART_URL, prepared.data, 0);
  const char *q = strchr(prepared.data, '?');
  bool empty_query = q && q[1] == '\0';
  core_buf_free(&prepared);
  if (uc != CURLUE_OK) {
    curl_url_cleanup(h);
    return uc == CURLUE_OUT_OF_MEMORY ? CORE_ENOMEM : CORE_EURL;
  }
  return finish(h, max_len, empty_query, carried, out);
}

core_rc url_seed(const char *text, size_t max_len, struct url *out) {
  size_t len = strlen(text);
  size_t slen = scheme_len(text, len);
  /* "example.com" and "example.com:8080/x" are host names, not schemes: what follows their ':'
   * is a port, digits up to a '/' or the end; "mailto:a@b.example" has a scheme, which is not
   * http or https (CORE_EURL), and is no host "mailto" with a password */
  size_t digits = slen ? strspn(text + slen + 1, "0123456789") : 0;
  bool port = digits && (text[slen + 1 + digits] == '/' || text[slen + 1 + digits] == '\0');
  bool has_scheme =
      slen && ((len > slen + 2 && text[slen + 1] == '/' && text[slen + 2] == '/') || !port);
  if (has_scheme)
    return url_resolve(NULL, text, len, max_len, out);
  size_t with_len = len + 8;
  char *with = malloc(with_len);
  if (!with)
    return CORE_ENOMEM;
  snprintf(with, with_len, "http://%s", text);
  core_rc rc = url_resolve(NULL, with, strlen(with), max_len, out);
  free(with);
  return rc;
}

void url_ext(const struct url *url, char *ext, size_t ext_size) {
  ext[0] = '\0';
  const char *path = url->text + url->path_off;
  size_t end = strcspn(path, "?#");
  size_t start = end;
  while (start > 0 && path[start - 1] != '/')
    start--;
  if (end == start || path[end - 1] == '.')
    return; /* "a." has none */
  /* after the first dot, or a later one when that is too long for ext */
  const char *dot = memchr(path + start, '.', end - start);
  while (dot && (size_t)(path + end - dot - 1) >= ext_size)
    dot = memchr(dot + 1, '.', (size_t)(path + end - dot - 1));
  if (!dot)
    return;
  size_t n = (size_t)(path + end - dot - 1);
  for (size_t j = 0; j < n; j++)
    ext[j] = (char)tolower((unsigned char)dot[1 + j]);
  ext[n] = '\0';
}

/* Percent-decoded copy of text[0, len). */
static char *decoded(const char *text, size_t len) {
  char *out = malloc(len + 1), *o = out;
  if (!out)
    return NULL;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '%' && i + 2 < len && isxdigit((unsigned char)text[i + 1]) &&
        isxdigit((unsigned char)text[i + 2])) {
      char hex[3] = {text[i + 1], text[i + 2], '\0'};
      *o++ = (char)strtol(hex, NULL, 16);
      i += 2;
    } else {
      *o++ = text[i];
    }
  }
  *o = '\0';
  return out;
}

core_rc url_take_userinfo(struct url *url, char **user, char **password) {
  if (user)
    *user = *password = NULL;
  const char *start = strstr(url->text, "://");
  if (!start)
    return CORE_OK;
  start += 3;
  size_t authority = strcspn(start, "/?#");
  const char *at = NULL;
  for (const char *p = start; p < start + authority; p++)
    if (*p == '@')
      at = p;
  if (!at)
    return CORE_OK;
  if (user) {
    size_t user_len = strcspn(start, ":@");
    const char *colon = start[user_len] == ':' && start + user_len < at ? start + user_len : NULL;
    *user = decoded(start, colon ? (size_t)(colon - start) : (size_t)(at - start));
    *password = colon ? decoded(colon + 1, (size_t)(at - colon - 1)) : NULL;
    if (!*user || (colon && !*password)) {
      free(*user);
      free(*password);
      *user = *password = NULL;
      return CORE_ENOMEM;
    }
  }
  size_t scheme = (size_t)(start - url->text);
  char *text = malloc(strlen(url->text) + 1);
  if (!text)
    return CORE_ENOMEM;
  memcpy(text, url->text, scheme);
  strcpy(text + scheme, at + 1);
  struct url bare;
  core_rc rc = url_resolve(NULL, text, strlen(text), SIZE_MAX / 4, &bare);
  free(text);
  if (rc != CORE_OK) { /* what was a URL with a userinfo is one without */
    if (user) {
      free(*user);
      free(*password);
      *user = *password = NULL;
    }
    return rc == CORE_ENOMEM ? CORE_ENOMEM : rc;
  }
  url_free(url);
  *url = bare;
  return CORE_OK;
}
