/* Asynchronous name resolution with c-ares inside the shared loop: one query per name at a time,
 * however many ask while it runs. The answer goes to those who asked, who keep it (the crawl keeps
 * a host's address with the host): the table holds only queries in flight and the --resolve
 * entries, where it held every name of a broad crawl for the run (doc/design.md, Memory). c-ares
 * tells the loop which sockets to watch through its sock_state_cb. The hosts file is asked here,
 * from the table hosts.c keeps (read again when the file changes), in the place the system's order
 * gives it; c-ares, which would read the whole file at every lookup, is told to leave it out
 * (doc/design.md, "The hosts file"). */
#include "fetch/fetch-int.h"

#include <arpa/inet.h>
#include <ares.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#define DNS_BUCKETS 4096

struct waiter {
  fetch_resolve_cb cb;
  void *arg;
  struct waiter *next;
};

struct entry {
  char *host;
  char *addr; /* a --resolve entry's; NULL for a query in flight */
  struct waiter *waiters;
  struct entry *next;
};

struct sock_watch {
  int fd;
  loop_watch *watch;
  struct sock_watch *next;
};

struct fetch__dns {
  event_loop *loop;
  ares_channel channel;
  loop_timer *timer;
  struct sock_watch *socks;
  struct entry *buckets[DNS_BUCKETS];
  char *const *resolves;
  size_t resolve_count;
  fetch_hosts *hosts;     /* NULL: the system's order has no hosts file */
  fetch_hosts *own_hosts; /* the table read here when none was lent */
  bool hosts_first;       /* the file before DNS (the usual "hosts: files dns") */
  bool no_dns;            /* the order has the file alone */
};

struct lookup {
  fetch__dns *dns;
  struct entry *entry;
};

static void rearm(fetch__dns *dns) {
  struct timeval tv;
  if (ares_timeout(dns->channel, NULL, &tv))
    loop_timer_start(dns->timer, core_now() + (double)tv.tv_sec + (double)tv.tv_usec / 1e6);
  else
    loop_timer_stop(dns->timer);
}

static void on_sock_event(void *arg, int fd, unsigned events) {
  fetch__dns *dns = arg;
  ares_process_fd(dns->channel, events & (LOOP_READ | LOOP_ERROR) ? fd : ARES_SOCKET_BAD,
                  events & LOOP_WRITE ? fd : ARES_SOCKET_BAD);
  rearm(dns);
}

static void on_timer(void *arg) {
  fetch__dns *dns = arg;
  ares_process_fd(dns->channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
  rearm(dns);
}

static void on_sock_state(void *data, ares_socket_t fd, int readable, int writable) {
  fetch__dns *dns = data;
  struct sock_watch **pp = &dns->socks;
  while (*pp && (*pp)->fd != fd)
    pp = &(*pp)->next;
  unsigned events = (readable ? LOOP_READ : 0) | (writable ? LOOP_WRITE : 0);
  if (!events) {
    if (*pp) {
      struct sock_watch *s = *pp;
      *pp = s->next;
      loop_unwatch(dns->loop, s->watch);
      free(s);
    }
    return;
  }
  if (*pp) {
    loop_watch_set(dns->loop, (*pp)->watch, events);
    return;
  }
  struct sock_watch *s = calloc(1, sizeof(*s));
  if (!s)
    return; /* the query times out instead */
  s->fd = fd;
  if (loop_watch_fd(dns->loop, fd, events, on_sock_event, dns, &s->watch) != CORE_OK) {
    free(s);
    return;
  }
  s->next = dns->socks;
  dns->socks = s;
}

core_rc fetch_parse_resolve(const char *entry, char *host, size_t host_size, unsigned *port,
                            char *addr, size_t addr_size) {
  const char *c1 = strchr(entry, ':');
  const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (!c1 || !c2 || c1 == entry || (size_t)(c1 - entry) >= host_size)
    return CORE_EINVAL;
  char *end;
  unsigned long p = strtoul(c1 + 1, &end, 10);
  if (end != c2 || p == 0 || p > 65535)
    return CORE_EINVAL;
  const char *a = c2 + 1;
  size_t alen = strlen(a);
  if (alen >= 2 && a[0] == '[' && a[alen - 1] == ']') {
    a++;
    alen -= 2;
  }
  if (alen == 0 || alen >= addr_size)
    return CORE_EINVAL;
  memcpy(addr, a, alen);
  addr[alen] = '\0';
  unsigned char bin[16];
  if (inet_pton(AF_INET, addr, bin) != 1 && inet_pton(AF_INET6, addr, bin) != 1)
    return CORE_EINVAL;
  memcpy(host, entry, (size_t)(c1 - entry));
  host[c1 - entry] = '\0';
  *port = (unsigned)p;
  return CORE_OK;
}

/* A channel with its options, and lookups when not NULL; dns->channel NULL when it fails. */
static core_rc channel_open(fetch__dns *dns, const char *servers, const char *lookups) {
  struct ares_options opts;
  memset(&opts, 0, sizeof(opts));
  opts.sock_state_cb = on_sock_state;
  opts.sock_state_cb_data = dns;
  opts.timeout = 3000;
  opts.tries = 2;
  int mask = ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES;
  if (lookups) {
    opts.lookups = (char *)lookups; /* copied by c-ares */
    mask |= ARES_OPT_LOOKUPS;
  }
  if (ares_init_options(&dns->channel, &opts, mask) != ARES_SUCCESS) {
    dns->channel = NULL;
    return CORE_EDNS;
  }
  if (servers && ares_set_servers_ports_csv(dns->channel, servers) != ARES_SUCCESS) {
    ares_destroy(dns->channel);
    dns->channel = NULL;
    return CORE_EINVAL;
  }
  return CORE_OK;
}

/* Where the system's order of lookups, as c-ares read it ("fb": the file, then DNS), has the
 * hosts file, the table takes its place and the channel is opened again without it. */
static core_rc hosts_take_over(fetch__dns *dns, const char *servers, fetch_hosts *lent) {
  struct ares_options saved;
  int saved_mask = 0;
  if (ares_save_options(dns->channel, &saved, &saved_mask) != ARES_SUCCESS)
    return CORE_ENOMEM;
  char order[8] = "", *o = order;
  bool file = false;
  for (const char *p = saved.lookups ? saved.lookups : "fb"; *p && o < order + 7; p++) {
    if (*p == 'f' && !file) {
      file = true;
      dns->hosts_first = o == order;
    } else if (*p == 'b') {
      *o++ = 'b';
    }
  }
  *o = '\0';
  ares_destroy_options(&saved);
  if (!file)
    return CORE_OK;
  if (!lent) {
    core_rc rc = fetch_hosts_load("/etc/hosts", &dns->own_hosts);
    if (rc != CORE_OK)
      return rc;
    lent = dns->own_hosts;
  }
  dns->hosts = lent;
  dns->no_dns = !order[0];
  ares_destroy(dns->channel);
  return channel_open(dns, servers, order[0] ? order : NULL);
}

core_rc fetch__dns_create(event_loop *loop, const char *servers, char *const *resolves,
                          size_t resolve_count, fetch_hosts *hosts, fetch__dns **out) {
  fetch__dns *dns = calloc(1, sizeof(*dns));
  if (!dns)
    return CORE_ENOMEM;
  dns->loop = loop;
  dns->resolves = resolves;
  dns->resolve_count = resolve_count;
  core_rc rc = channel_open(dns, servers, NULL);
  if (rc == CORE_OK)
    rc = hosts_take_over(dns, servers, hosts);
  if (rc == CORE_OK)
    rc = loop_timer_create(loop, on_timer, dns, &dns->timer);
  if (rc != CORE_OK) {
    if (dns->channel)
      ares_destroy(dns->channel);
    fetch_hosts_destroy(dns->own_hosts);
    free(dns);
    return rc;
  }
  *out = dns;
  return CORE_OK;
}

void fetch__dns_destroy(fetch__dns *dns) {
  if (!dns)
    return;
  ares_destroy(dns->channel); /* cancels lookups: their callbacks see ARES_EDESTRUCTION */
  loop_timer_stop(dns->timer);
  for (size_t b = 0; b < DNS_BUCKETS; b++) {
    while (dns->buckets[b]) {
      struct entry *e = dns->buckets[b];
      dns->buckets[b] = e->next;
      while (e->waiters) {
        struct waiter *w = e->waiters;
        e->waiters = w->next;
        free(w);
      }
      free(e->host);
      free(e->addr);
      free(e);
    }
  }
  while (dns->socks) {
    struct sock_watch *s = dns->socks;
    dns->socks = s->next;
    loop_unwatch(dns->loop, s->watch);
    free(s);
  }
  fetch_hosts_destroy(dns->own_hosts);
  free(dns);
}

/* The hosts file's answer for host into addr, as c-ares gave it: "localhost" is the loopback
 * address when the file does not name it (RFC 6761, 6.3). False: none. */
static bool hosts_answer(const fetch__dns *dns, const char *host, char addr[INET6_ADDRSTRLEN]) {
  if (fetch_hosts_find(dns->hosts, host, addr))
    return true;
  if (strcmp(host, "localhost") != 0)
    return false;
  snprintf(addr, INET6_ADDRSTRLEN, "127.0.0.1");
  return true;
}

static struct entry **find(fetch__dns *dns, const char *host) {
  size_t b = XXH3_64bits(host, strlen(host)) % DNS_BUCKETS;
  struct entry **pp = &dns->buckets[b];
  while (*pp && strcmp((*pp)->host, host) != 0)
    pp = &(*pp)->next;
  return pp;
}

static void on_answer(void *arg, int status, int timeouts, struct ares_addrinfo *res) {
  struct lookup *lk = arg;
  fetch__dns *dns = lk->dns;
  struct entry *e = lk->entry;
  free(lk);
  if (status == ARES_EDESTRUCTION) {
    if (res)
      ares_freeaddrinfo(res);
    return; /* the whole cache is being freed */
  }
  char text[INET6_ADDRSTRLEN] = "";
  /* prefer IPv4: loopback test webs and most servers answer there first */
  for (int family = AF_INET; res && family && !text[0]; family = family == AF_INET ? AF_INET6 : 0) {
    for (struct ares_addrinfo_node *n = res->nodes; n; n = n->ai_next) {
      if (n->ai_family != family)
        continue;
      const void *src = family == AF_INET
                            ? (const void *)&((struct sockaddr_in *)n->ai_addr)->sin_addr
                            : (const void *)&((struct sockaddr_in6 *)n->ai_addr)->sin6_addr;
      inet_ntop(family, src, text, sizeof(text));
      break;
    }
  }
  if (res)
    ares_freeaddrinfo(res);
  /* an order of "dns files": the file after DNS has failed */
  if (!text[0] && dns->hosts && !dns->hosts_first)
    hosts_answer(dns, e->host, text);
  const char *addr = text;
  struct waiter *waiters = e->waiters;
  core_rc rc = addr[0] ? CORE_OK : CORE_EDNS;
  /* c-ares' texts are its static table's */
  const char *why = status != ARES_SUCCESS ? ares_strerror(status) : "no address in the answer";
  /* out of the table before the callbacks: one that asks for the name again starts a query */
  struct entry **pp = find(dns, e->host);
  *pp = e->next;
  free(e->host);
  free(e);
  while (waiters) {
    struct waiter *w = waiters;
    waiters = w->next;
    w->cb(w->arg, rc, rc ? why : addr);
    free(w);
  }
}

core_rc fetch__dns_resolve(fetch__dns *dns, const char *host, unsigned port, fetch_resolve_cb cb,
                           void *arg, const char **addr_now) {
  *addr_now = NULL;
  for (size_t i = 0; i < dns->resolve_count; i++) {
    char rhost[256], raddr[INET6_ADDRSTRLEN];
    unsigned rport;
    if (fetch_parse_resolve(dns->resolves[i], rhost, sizeof(rhost), &rport, raddr, sizeof(raddr)) ==
            CORE_OK &&
        rport == port && strcasecmp(rhost, host) == 0) {
      /* cache it under a key that cannot collide with a host name */
      char key[300];
      snprintf(key, sizeof(key), "%s:%u", host, port);
      struct entry **pp = find(dns, key);
      if (!*pp) {
        struct entry *e = calloc(1, sizeof(*e));
        if (!e || !(e->host = strdup(key)) || !(e->addr = strdup(raddr))) {
          if (e)
            free(e->host);
          free(e);
          return CORE_ENOMEM;
        }
        *pp = e;
      }
      *addr_now = (*pp)->addr;
      return CORE_OK;
    }
  }
  if (dns->hosts && (dns->hosts_first || dns->no_dns)) {
    char addr[INET6_ADDRSTRLEN];
    bool found = hosts_answer(dns, host, addr);
    if (found || dns->no_dns) {
      cb(arg, found ? CORE_OK : CORE_EDNS, found ? addr : ares_strerror(ARES_ENOTFOUND));
      return CORE_OK;
    }
  }
  struct entry **pp = find(dns, host);
  struct entry *e = *pp;
  struct waiter *w = calloc(1, sizeof(*w));
  if (!w)
    return CORE_ENOMEM;
  w->cb = cb;
  w->arg = arg;
  if (e) {
    w->next = e->waiters;
    e->waiters = w;
    return CORE_OK;
  }
  e = calloc(1, sizeof(*e));
  struct lookup *lk = calloc(1, sizeof(*lk));
  if (!e || !lk || !(e->host = strdup(host))) {
    free(e);
    free(lk);
    free(w);
    return CORE_ENOMEM;
  }
  e->waiters = w;
  *pp = e;
  lk->dns = dns;
  lk->entry = e;
  struct ares_addrinfo_hints hints;
  memset(&hints, 0, sizeof(hints));
  hints.ai_family = AF_UNSPEC;
  /* unsorted: c-ares sorts the answer by RFC 6724 by connecting a UDP socket to each address (five
   * system calls an address, most of a broad crawl's DNS cost), and on_answer takes the first
   * IPv4 address whatever the order; an address that cannot be reached fails at curl's connect,
   * as the host's other failures do (doc/design.md, Connections) */
  hints.ai_flags = ARES_AI_NOSORT;
  ares_getaddrinfo(dns->channel, host, NULL, &hints, on_answer, lk);
  rearm(dns);
  return CORE_OK;
}
