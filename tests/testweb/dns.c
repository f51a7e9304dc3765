/* The test web's DNS (testweb serve): every name under .test has an A record, 127.0.0.1 or, with
 * --addresses, its host's own loopback address; other names are NXDOMAIN; dnsfail.* gets
 * SERVFAIL, and dnsflaky.* SERVFAIL for its first second. One query in, one answer out: the
 * server's loop reads and sends. */
#include "tests/testweb/web.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t web_dns_host_address(int addresses, int host) {
  return (127u << 24 | 1u << 16) + 1u + (uint32_t)(host % addresses);
}

/* The question's name, lower case, into name; its end in q, or 0 when the query is not one
 * question of a name that fits. */
static size_t question_name(const unsigned char *q, size_t n, char name[256]) {
  size_t pos = 12, nl = 0;
  while (pos < n && q[pos]) {
    size_t len = q[pos];
    if (len > 63 || pos + 1 + len > n || nl + len + 1 >= 256)
      return 0;
    if (nl)
      name[nl++] = '.';
    for (size_t i = 0; i < len; i++) {
      char ch = (char)q[pos + 1 + i];
      name[nl++] = ch >= 'A' && ch <= 'Z' ? (char)(ch + 32) : ch;
    }
    pos += 1 + len;
  }
  name[nl] = '\0';
  return pos + 5 > n ? 0 : pos;
}

size_t web_dns_answer(const struct web *w, struct web_dns *d, const unsigned char *q, size_t n,
                      unsigned char r[600]) {
  if (n < 12 || n > 512 || (q[2] & 0x80) || q[4] != 0 || q[5] != 1)
    return 0;
  char name[256];
  size_t pos = question_name(q, n, name);
  if (!pos)
    return 0;
  size_t qend = pos + 5;
  unsigned qtype = (unsigned)(q[pos + 1] << 8 | q[pos + 2]);
  memcpy(r, q, qend);
  r[2] = 0x84 | (q[2] & 0x01); /* response, authoritative, RD copied */
  r[3] = 0x00;
  r[4] = 0;
  r[5] = 1;
  r[6] = r[7] = r[8] = r[9] = r[10] = r[11] = 0;
  size_t rlen = qend;
  char fail[160], flaky[160];
  snprintf(fail, sizeof(fail), "dnsfail.%s", w->domain);
  snprintf(flaky, sizeof(flaky), "dnsflaky.%s", w->domain);
  if (strcmp(name, flaky) == 0 && !d->dnsflaky_first)
    d->dnsflaky_first = d->now;
  bool flaky_failing = strcmp(name, flaky) == 0 && d->now - d->dnsflaky_first < 1.0;
  size_t len = strlen(name);
  bool under_test = len > 5 && strcmp(name + len - 5, ".test") == 0;
  if (strcmp(name, fail) == 0 || flaky_failing) {
    r[3] = 0x02; /* SERVFAIL */
  } else if (!under_test || strncmp(name, "nxdomain", 8) == 0) {
    r[3] = 0x03; /* NXDOMAIN */
  } else if (qtype == 1) {
    unsigned char answer[] = {0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1};
    bool outside = true;
    int host = d->addresses > 1 ? web_host_index(w, name, &outside) : -1;
    if (host >= 0 && !outside) {
      uint32_t a = web_dns_host_address(d->addresses, host);
      answer[13] = (unsigned char)(a >> 16);
      answer[14] = (unsigned char)(a >> 8);
      answer[15] = (unsigned char)a;
    }
    memcpy(r + rlen, answer, sizeof(answer));
    rlen += sizeof(answer);
    r[7] = 1;
  }
  return rlen;
}

bool web_dns_at(const char *v, uint32_t *addr, int *port) {
  char text[32];
  const char *colon = strrchr(v, ':');
  struct in_addr in;
  if (!colon || (size_t)(colon - v) >= sizeof(text))
    return false;
  memcpy(text, v, (size_t)(colon - v));
  text[colon - v] = '\0';
  char *end;
  long p = strtol(colon + 1, &end, 10);
  if (inet_pton(AF_INET, text, &in) != 1 || (ntohl(in.s_addr) >> 24) != 127 || *end || p < 1 ||
      p > 65535)
    return false;
  *addr = ntohl(in.s_addr);
  *port = (int)p;
  return true;
}
