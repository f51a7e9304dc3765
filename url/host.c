/* Hosts as the URL Standard reads them, before curl sees them: the authority written out
 * (userinfo, an IPv4 host in any of its forms, the port), and the punctuation curl refuses in a
 * host that the Standard allows, carried past curl (url.c's finish puts it back). */
#include "url/url-int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* URL Standard, userinfo percent-encode set: the path set and / : ; = @ [ \ ] ^ | */
static bool in_userinfo_set(unsigned char c) {
  return url__in_path_set(c) || c == '?' || c == '#' || (c < 0x80 && strchr("/:;=@[\\]^|", c));
}

/* URL Standard, IPv4 number parser: 0x for hex, a leading 0 for octal. */
static bool ipv4_number(const char *s, size_t len, uint64_t *out) {
  if (!len)
    return false;
  unsigned radix = 10;
  if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    radix = 16;
    s += 2;
    len -= 2;
  } else if (len >= 2 && s[0] == '0') {
    radix = 8;
    s++;
    len--;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    int d = core_hex_digit(s[i]);
    if (d < 0 || (unsigned)d >= radix)
      return false;
    v = v * radix + (unsigned)d;
    if (v > UINT64_C(0xffffffffff))
      v = UINT64_C(0xffffffffff); /* already too large for any part: keep it so */
  }
  *out = v;
  return true;
}

/* URL Standard, "ends in a number" and the IPv4 parser. Returns 1 with the address in *addr, 0 when
 * host is a domain, -1 when it must be an IPv4 address but is not a valid one. */
int url__parse_ipv4(const char *host, size_t len, uint32_t *addr) {
  const char *parts[8];
  size_t lens[8], n = 0, start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i == len || host[i] == '.') {
      if (n == 8)
        return 0; /* too many labels for a number; a long domain */
      parts[n] = host + start;
      lens[n++] = i - start;
      start = i + 1;
    }
  }
  if (n > 1 && lens[n - 1] == 0)
    n--; /* one trailing dot is allowed */
  const char *last = parts[n - 1];
  size_t last_len = lens[n - 1];
  bool digits = last_len > 0;
  for (size_t i = 0; i < last_len; i++)
    digits = digits && last[i] >= '0' && last[i] <= '9';
  uint64_t value;
  if (!digits && !ipv4_number(last, last_len, &value))
    return 0;
  if (n > 4)
    return -1;
  uint64_t nums[4] = {0};
  for (size_t i = 0; i < n; i++)
    if (!ipv4_number(parts[i], lens[i], &nums[i]))
      return -1;
  for (size_t i = 0; i + 1 < n; i++)
    if (nums[i] > 255)
      return -1;
  if (nums[n - 1] >= (UINT64_C(1) << (8 * (5 - n))))
    return -1;
  uint64_t v = nums[n - 1];
  for (size_t i = 0; i + 1 < n; i++)
    v += nums[i] << (8 * (3 - i));
  *addr = (uint32_t)v;
  return 1;
}

/* The punctuation the Standard allows in a domain (it is no forbidden domain code point) but
 * curl's host name check refuses. */
bool url__curl_refuses_in_host(char c) {
  return c && strchr("!$&'()*+,;=`{}\"", c) != NULL;
}

/* Emits the authority "userinfo@host:port" as the URL Standard would serialize it, as far as that
 * can be done before curl: userinfo split at the last "@" and percent-encoded, empty user and
 * password dropped, an IPv4 host read by the Standard's rules, the port's leading zeros gone.
 * Domain names (percent-decoding, IDNA) are left to curl, except an ASCII one with punctuation
 * curl refuses: that one is written to carried (lowercase, as domain to ASCII leaves it) and
 * CARRIED_HOST goes to curl in its place. */
core_rc url__add_authority(struct core_buf *out, const char *a, size_t len,
                           char carried[CARRIED_MAX]) {
  core_rc rc = CORE_OK;
  const char *at = NULL;
  for (size_t i = 0; i < len; i++)
    if (a[i] == '@')
      at = a + i;
  const char *hp = a;
  size_t hp_len = len;
  if (at) {
    size_t ui_len = (size_t)(at - a);
    const char *colon = memchr(a, ':', ui_len);
    size_t user_len = colon ? (size_t)(colon - a) : ui_len;
    size_t pass_len = colon ? ui_len - user_len - 1 : 0;
    for (size_t i = 0; i < user_len && !rc; i++)
      rc = url__add_encoded(out, (unsigned char)a[i], in_userinfo_set((unsigned char)a[i]));
    if (pass_len && !rc) {
      rc = core_buf_addc(out, ':');
      for (size_t i = 0; i < pass_len && !rc; i++)
        rc = url__add_encoded(out, (unsigned char)colon[1 + i],
                              in_userinfo_set((unsigned char)colon[1 + i]));
    }
    if ((user_len || pass_len) && !rc)
      rc = core_buf_addc(out, '@');
    hp = at + 1;
    hp_len = len - ui_len - 1;
  }
  /* the host ends at the port's colon (after the brackets of an IPv6 address) */
  size_t host_len = hp_len;
  if (hp_len && hp[0] == '[') {
    const char *close = memchr(hp, ']', hp_len);
    if (!close)
      return CORE_EURL;
    host_len = (size_t)(close - hp) + 1;
    if (host_len < hp_len && hp[host_len] != ':')
      return CORE_EURL;
  } else {
    const char *colon = memchr(hp, ':', hp_len);
    if (colon)
      host_len = (size_t)(colon - hp);
  }
  if (!host_len)
    return CORE_EURL; /* http and https URLs need a host */
  for (size_t i = 0; i < hp_len; i++)
    if ((unsigned char)hp[i] < 0x20 || hp[i] == 0x7f)
      return CORE_EURL; /* forbidden domain code points; a NUL would also cut curl's string */
  /* an ASCII host that ends in a number is an IPv4 address, after percent-decoding */
  char decoded[CARRIED_MAX];
  size_t dlen = 0;
  bool ascii = hp[0] != '[';
  for (size_t i = 0; i < host_len && ascii; i++) {
    char c = hp[i];
    if (c == '%' && i + 2 < host_len && core_hex_digit(hp[i + 1]) >= 0 &&
        core_hex_digit(hp[i + 2]) >= 0) {
      c = (char)(core_hex_digit(hp[i + 1]) * 16 + core_hex_digit(hp[i + 2]));
      i += 2;
    }
    if ((unsigned char)c >= 0x80 || dlen + 1 >= sizeof(decoded))
      ascii = false;
    else
      decoded[dlen++] = c;
  }
  uint32_t v4;
  int ip = ascii && dlen ? url__parse_ipv4(decoded, dlen, &v4) : 0;
  if (ip < 0)
    return CORE_EURL;
  bool carry = false;
  for (size_t i = 0; ascii && ip == 0 && i < dlen; i++)
    carry = carry || url__curl_refuses_in_host(decoded[i]);
  if (carry) {
    for (size_t i = 0; i < dlen; i++) {
      if (url__forbidden_domain_char((unsigned char)decoded[i]))
        return CORE_EURL;
      carried[i] = (char)tolower((unsigned char)decoded[i]);
    }
    carried[dlen] = '\0';
    rc = rc ? rc : core_buf_add(out, CARRIED_HOST, strlen(CARRIED_HOST));
  } else if (ip > 0) {
    char quad[16];
    int m = snprintf(quad, sizeof(quad), "%u.%u.%u.%u", v4 >> 24, (v4 >> 16) & 255, (v4 >> 8) & 255,
                     v4 & 255);
    rc = rc ? rc : core_buf_add(out, quad, (size_t)m);
  } else {
    rc = rc ? rc : core_buf_add(out, hp, host_len);
  }
  if (host_len < hp_len && !rc) {
    /* the port: digits only; leading zeros dropped; empty means the default */
    const char *port = hp + host_len + 1;
    size_t plen = hp_len - host_len - 1;
    for (size_t i = 0; i < plen; i++)
      if (port[i] < '0' || port[i] > '9')
        return CORE_EURL;
    while (plen > 1 && port[0] == '0') {
      port++;
      plen--;
    }
    if (plen > 5)
      return CORE_EURL;
    if (plen) {
      rc = core_buf_addc(out, ':');
      rc = rc ? rc : core_buf_add(out, port, plen);
    }
  }
  return rc;
}
