/* testweb: the loopback test web for crawl's tests, demo and benchmarks.
 *
 *   testweb serve [web options] [--log FILE] [--max-seconds N] [--dns-at 127.A.B.C:PORT]
 *                 [--addresses N]
 *       serves HTTP and DNS on 127.0.0.1 ports chosen by the kernel and prints
 *       "http PORT" and "dns PORT" on standard output; stops on SIGTERM/SIGINT, after N s, or
 *       when the thread that started it ends (a test killed by its runner leaves no web behind).
 *       --dns-at serves DNS at that loopback address and port instead: port 53 for a crawler
 *       that asks the system's resolver, whose resolv.conf names no port. --addresses N (2 to
 *       65,000) spreads the web's hosts over N loopback addresses, s<i> at 127.1.0.0 + 1 + i % N,
 *       each served on the same port (and 127.0.0.1 still), as a broad crawl meets servers: one
 *       address and port for all puts every connection on one four-tuple's ports.
 *   testweb truth [web options] --port PORT [--depth N] [--scope host|domain|any]
 *                 [--no-robots] [--sitemaps] [--no-parent] [--domains LIST]
 *                 [--exclude-domains LIST] [--match RE] [--exclude RE] [--max-url-length N]
 *                 SEED...
 *       prints every URL a crawl from SEED should print, each with its fate.
 *   testweb export [web options] --port PORT DIR
 *       writes the web's hosts as static files for a real server (DIR/<host>/index.html,
 *       p/N.html, robots.txt, f/N.pdf, img/N.png); redirects (/r/N) are the server's to make.
 *   testweb discovery [web options] --delay SECONDS
 *       prints each host reachable from s0's root with the earliest moment a crawler with that
 *       per-host delay could first contact it (discovery.c): a bound for benchmarks.
 *
 * Web options: --hosts N --pages N --links N --seed N --domain NAME --page-bytes N --html-only
 * (links to pages alone: of this host, of the others, and a few out of the web; no PDFs, images,
 * redirects, missing pages or private paths: the ordinary web of plain HTML) --other-share PCT
 * (with --html-only, the share of a page's links after its first that lead to the other hosts,
 * 0 to 97; 22 by default, 3 more leave the web, the rest stay on the page's host) --rich-markup
 * (the same links in the markup of a documentation site: classes, character references, code
 * blocks, tables, an inline style sheet and script, anchors to the page itself) --own-robots (each
 * host's robots.txt also disallows a path of its own, so that no two hosts' rules are the same).
 * Pages /directives/{nofollow,xrobots,refresh}.html on every host carry page-level directives.
 * /directives/video.html has a video with a poster; /directives/late.html has links after
 * </html>; /css/page.html links style sheets (/css/site.css, which imports /css/more.css);
 * /checker/index.html links images and PDFs that exist and that do not (for --check-skipped). HEAD
 * requests get the head alone. Special hosts under the domain: flaky.* answers 503 (Retry-After: 1)
 * to the first request for each path; robots5xx.* answers 503 for robots.txt; crawldelay.* has a
 * robots.txt with Crawl-delay: 0.5 and a few pages; dnsfail.* gets SERVFAIL from DNS; dnsflaky.*
 * gets SERVFAIL for a second from its first query, then its address. The log has a line per
 * request: start, end, host, path, status, method. */
#include "tests/testweb/web.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <regex.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define IN_CAP 16384
#define BODY_CAP (256 * 1024)

struct conn {
  int fd;
  char in[IN_CAP];
  size_t in_len;
  char *out;
  size_t out_len, out_off, out_cap;
  /* the response being written, for the log */
  double started;
  char host[128];
  char path[1024];
  int status;
  char method[16];
  bool head; /* a HEAD request: no body in the response */
  bool logging;
  bool close_after;
};

struct server {
  struct web web;
  int epfd, listen_fd, dns_fd, sig_fd;
  struct web_dns dns; /* dns.c's: --addresses (hosts spread over that many loopback addresses)
                       * and when dnsflaky.* was first asked for */
  int *more_fds;      /* the listening sockets of those addresses */
  FILE *log;
  unsigned char flaky_seen[65536];
  unsigned long requests;
  char *body; /* scratch for rendering */
};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool out_add(struct conn *c, const char *data, size_t len) {
  if (c->out_len + len > c->out_cap) {
    size_t cap = c->out_cap ? c->out_cap : 8192;
    while (cap < c->out_len + len)
      cap *= 2;
    char *grown = realloc(c->out, cap);
    if (!grown)
      return false;
    c->out = grown;
    c->out_cap = cap;
  }
  memcpy(c->out + c->out_len, data, len);
  c->out_len += len;
  return true;
}

static void respond(struct conn *c, int status, const char *type, const char *extra,
                    const char *body, size_t body_len) {
  const char *reason = status == 200   ? "OK"
                       : status == 301 ? "Moved Permanently"
                       : status == 404 ? "Not Found"
                       : status == 503 ? "Service Unavailable"
                                       : "Bad Request";
  char head[1024];
  int n = snprintf(head, sizeof(head),
                   "HTTP/1.1 %d %s\r\nServer: testweb\r\nContent-Type: %s\r\n"
                   "Content-Length: %zu\r\n%s%s\r\n",
                   status, reason, type, body_len, extra ? extra : "",
                   c->close_after ? "Connection: close\r\n" : "");
  out_add(c, head, (size_t)n);
  if (!c->head)
    out_add(c, body, body_len);
  c->status = status;
}

/* A host outside the web: its pages, each with no links. */
static void handle_outside(struct conn *c, char *body, const char *path) {
  int page;
  char tail[8];
  if (sscanf(path, "/p/%d.htm%1[l]", &page, tail) == 2) {
    int n = snprintf(body, BODY_CAP, "<html><body>outside page %d</body></html>\n", page);
    respond(c, 200, "text/html", NULL, body, (size_t)n);
  } else {
    respond(c, 404, "text/plain", NULL, "not found\n", 10);
  }
}

/* The hosts of the domain that are not the web's: one that fails once a path, one with a
 * Crawl-delay, one whose robots.txt is down; any other is unknown. */
static void handle_special_host(struct server *s, struct conn *c, const char *host,
                                const char *path) {
  struct web *w = &s->web;
  char special[160];
  snprintf(special, sizeof(special), "flaky.%s", w->domain);
  if (strcasecmp(host, special) == 0) {
    unsigned slot = web_hash_str(path) % sizeof(s->flaky_seen);
    if (!s->flaky_seen[slot]++) {
      respond(c, 503, "text/plain", "Retry-After: 1\r\n", "try again\n", 10);
      return;
    }
    if (strcmp(path, "/robots.txt") == 0) {
      respond(c, 404, "text/plain", NULL, "none\n", 5);
      return;
    }
    const char *html = "<html><body><a href=\"/p/1.html\">one</a></body></html>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
    return;
  }
  snprintf(special, sizeof(special), "crawldelay.%s", w->domain);
  if (strcasecmp(host, special) == 0) {
    if (strcmp(path, "/robots.txt") == 0) {
      const char *robots = "User-agent: *\nCrawl-delay: 0.5\nDisallow: /private/\n";
      respond(c, 200, "text/plain", NULL, robots, strlen(robots));
    } else {
      const char *html = "<html><body><a href=\"/p/1.html\">1</a><a href=\"/p/2.html\">2</a>"
                         "<a href=\"/p/3.html\">3</a></body></html>\n";
      respond(c, 200, "text/html", NULL, html, strlen(html));
    }
    return;
  }
  snprintf(special, sizeof(special), "robots5xx.%s", w->domain);
  if (strcasecmp(host, special) == 0) {
    if (strcmp(path, "/robots.txt") == 0)
      respond(c, 503, "text/plain", NULL, "down\n", 5);
    else
      respond(c, 200, "text/html", NULL, "<html></html>\n", 14);
    return;
  }
  respond(c, 404, "text/plain", NULL, "unknown host\n", 13);
}

/* A host's sitemap served gzipped as a file, not as a transfer encoding: the crawler must
 * inflate it itself. */
static void respond_gzip_sitemap(struct server *s, struct conn *c, int hi) {
  char *xml = malloc(BODY_CAP);
  size_t n = xml ? web_sitemap(&s->web, hi, "/sitemaps/part.xml", xml, BODY_CAP) : 0;
  z_stream z;
  memset(&z, 0, sizeof(z));
  if (n && deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK) {
    z.next_in = (unsigned char *)xml;
    z.avail_in = (uInt)n;
    z.next_out = (unsigned char *)s->body;
    z.avail_out = BODY_CAP;
    deflate(&z, Z_FINISH);
    respond(c, 200, "application/gzip", NULL, s->body, BODY_CAP - z.avail_out);
    deflateEnd(&z);
  } else {
    respond(c, 500, "text/plain", NULL, "gzip failed\n", 12);
  }
  free(xml);
}

static void handle(struct server *s, struct conn *c, const char *host, const char *path) {
  struct web *w = &s->web;
  bool outside;
  int hi = web_host_index(w, host, &outside);
  int page;
  char tail[8];
  if (outside) {
    handle_outside(c, s->body, path);
    return;
  }
  if (hi < 0) {
    handle_special_host(s, c, host, path);
    return;
  }
  char q[1024];
  snprintf(q, sizeof(q), "%s", path);
  q[strcspn(q, "?")] = '\0';
  if (strcmp(q, "/robots.txt") == 0) {
    int n = web_robots(w, hi, s->body, BODY_CAP);
    respond(c, 200, "text/plain", NULL, s->body, (size_t)n);
  } else if (strcmp(q, "/") == 0 ||
             (sscanf(q, "/p/%d.htm%1[l]", &page, tail) == 2 && page > 0 && page < w->pages)) {
    if (strcmp(q, "/") == 0)
      page = 0;
    size_t n = web_render_page(w, hi, page, s->body, BODY_CAP);
    respond(c, 200, "text/html; charset=utf-8", NULL, s->body, n < BODY_CAP ? n : BODY_CAP);
  } else if (strcmp(q, "/directives/nofollow.html") == 0) {
    const char *html =
        "<html><head><meta name=\"robots\" content=\"noindex, nofollow\"></head>"
        "<body><a href=\"/p/1.html\">1</a><a href=\"/p/2.html\">2</a></body></html>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
  } else if (strcmp(q, "/directives/xrobots.html") == 0) {
    const char *html = "<html><body><a href=\"/p/3.html\">3</a></body></html>\n";
    respond(c, 200, "text/html", "X-Robots-Tag: nofollow\r\n", html, strlen(html));
  } else if (strcmp(q, "/charset/header.html") == 0) {
    /* ISO-8859-1 by the HTTP header: e-acute is the byte E9 in the path and the query */
    const char *html = "<html><body><a href=\"/p/1.html?q=caf\xe9\">q</a>"
                       "<a href=\"/caf\xe9.html\">path</a></body></html>\n";
    respond(c, 200, "text/html; charset=ISO-8859-1", NULL, html, strlen(html));
  } else if (strcmp(q, "/charset/meta.html") == 0) {
    /* windows-1252 by <meta charset>: the byte 80 is the euro sign */
    const char *html = "<html><head><meta charset=\"windows-1252\"></head><body>"
                       "<a href=\"/p/2.html?price=\x80\">euro</a></body></html>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
  } else if (strcmp(q, "/css/page.html") == 0) {
    /* style sheets, a <style> element and a style attribute, with links relative to each */
    const char *html = "<html><head><link rel=\"stylesheet\" href=\"site.css\">"
                       "<style>body { background: url(/img/7.png) }</style></head><body>"
                       "<div style=\"background: url('../img/8.png')\">x</div></body></html>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
  } else if (strcmp(q, "/css/site.css") == 0) {
    const char *css = "@import \"more.css\";\n/* url(/img/99.png) */\n"
                      "a { background: url(../img/9.png) }\n";
    respond(c, 200, "text/css", NULL, css, strlen(css));
  } else if (strcmp(q, "/css/more.css") == 0) {
    const char *css = "b { background: url(\"/img/10.png\") }\n"
                      "@font-face { src: url(fonts/f.woff2) format(\"woff2\") }\n";
    respond(c, 200, "text/css; charset=utf-8", NULL, css, strlen(css));
  } else if (strcmp(q, "/directives/late.html") == 0) {
    /* content after the end of the document, as injected scripts and footers put it */
    const char *html = "<html><body><p>page</p></body></html>\n"
                       "<script src=\"/late.js\"></script><a href=\"/p/5.html\">footer</a>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
  } else if (strcmp(q, "/directives/video.html") == 0) {
    const char *html = "<html><body><video src=\"/media/clip.mp4\" poster=\"/media/poster.jpg\">"
                       "</video></body></html>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
  } else if (strcmp(q, "/checker/index.html") == 0) {
    /* two images and two PDFs, one of each missing */
    const char *html = "<html><body><img src=\"/img/1.png\"><img src=\"/img/broken.png\">"
                       "<a href=\"/f/2.pdf\">a</a><a href=\"/f/gone.pdf\">b</a></body></html>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
  } else if (strcmp(q, "/directives/refresh.html") == 0) {
    const char *html = "<html><head><meta http-equiv=\"Refresh\" content=\"0; URL='/p/4.html'\">"
                       "</head><body>moving</body></html>\n";
    respond(c, 200, "text/html", NULL, html, strlen(html));
  } else if (strcmp(q, "/sitemaps/part.xml.gz") == 0) {
    respond_gzip_sitemap(s, c, hi);
  } else if (web_sitemap(w, hi, q, s->body, BODY_CAP) > 0) {
    respond(c, 200, "application/xml", NULL, s->body, web_sitemap(w, hi, q, s->body, BODY_CAP));
  } else if (sscanf(q, "/orphan/%d.htm%1[l]", &page, tail) == 2 && page >= 0 &&
             page < WEB_ORPHANS) {
    int n = snprintf(s->body, BODY_CAP, "<html><body>orphan %d</body></html>\n", page);
    respond(c, 200, "text/html", NULL, s->body, (size_t)n);
  } else if (sscanf(q, "/private/%d.htm%1[l]", &page, tail) == 2) {
    int n = snprintf(s->body, BODY_CAP, "<html><body>private %d</body></html>\n", page);
    respond(c, 200, "text/html", NULL, s->body, (size_t)n);
  } else if (sscanf(q, "/f/%d.pd%1[f]", &page, tail) == 2) {
    memset(s->body, 'x', 1024);
    memcpy(s->body, "%PDF-1.4\n", 9);
    respond(c, 200, "application/pdf", NULL, s->body, 1024);
  } else if (sscanf(q, "/img/%d.pn%1[g]", &page, tail) == 2) {
    memset(s->body, 0, 256);
    memcpy(s->body, "\x89PNG\r\n\x1a\n", 8);
    respond(c, 200, "image/png", NULL, s->body, 256);
  } else if (sscanf(q, "/r/%d", &page) == 1 && page >= 0 && page < w->pages) {
    char loc[128], target[64];
    web_page_path(page, target, sizeof(target));
    snprintf(loc, sizeof(loc), "Location: %s\r\n", target);
    respond(c, 301, "text/html", loc, "<html>moved</html>\n", 19);
  } else {
    respond(c, 404, "text/html", NULL, "<html><body>not here</body></html>\n", 35);
  }
}

/* end is read just before the write that completes the response: read after it, a preemption
 * of this process would stretch the request and shrink the measured gap to the next one. */
static void log_done(struct server *s, struct conn *c, double end) {
  if (s->log) { /* line by line: a case waits for a count of requests (wait_served) */
    fprintf(s->log, "%.6f %.6f %s %s %d %s\n", c->started, end, c->host, c->path, c->status,
            c->method);
    fflush(s->log);
  }
  c->logging = false;
}

static void close_conn(struct server *s, struct conn *c) {
  epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  free(c->out);
  free(c);
}

/* Writes what is pending; false when the connection is finished. */
static bool flush_out(struct server *s, struct conn *c) {
  double before_last_write = now_s();
  while (c->out_off < c->out_len) {
    before_last_write = now_s();
    ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
    if (n < 0) {
      if (errno == EAGAIN) {
        /* output alone until the response is out: a client sending more than it reads would
         * keep EPOLLIN ready while its input buffer is full, and the loop would spin */
        struct epoll_event ev = {.events = EPOLLOUT, .data.ptr = c};
        epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
        return true;
      }
      return false;
    }
    c->out_off += (size_t)n;
  }
  c->out_off = c->out_len = 0;
  if (c->logging)
    log_done(s, c, before_last_write);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
  epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
  return !c->close_after;
}

/* Handles every complete request in the input buffer, one response at a time. */
static bool process(struct server *s, struct conn *c) {
  while (c->out_len == 0) {
    char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!end) {
      if (c->in_len == IN_CAP)
        return false; /* a head larger than we accept */
      return true;
    }
    size_t head_len = (size_t)(end - c->in) + 4;
    char head[IN_CAP + 1];
    memcpy(head, c->in, head_len);
    head[head_len] = '\0';
    memmove(c->in, c->in + head_len, c->in_len - head_len);
    c->in_len -= head_len;
    char method[16], target[1024], version[16];
    if (sscanf(head, "%15s %1023s %15s", method, target, version) != 3)
      return false;
    char host[128] = "";
    const char *h = strcasestr(head, "\r\nHost:");
    if (h) {
      h += 7;
      while (*h == ' ')
        h++;
      size_t n = strcspn(h, ":\r");
      snprintf(host, sizeof(host), "%.*s", (int)(n < sizeof(host) ? n : sizeof(host) - 1), h);
    }
    const char *path = target;
    /* absolute-form, as a client talking to a proxy sends it */
    if (strncmp(target, "http://", 7) == 0) {
      const char *auth = target + 7;
      size_t n = strcspn(auth, ":/");
      snprintf(host, sizeof(host), "%.*s", (int)(n < sizeof(host) ? n : sizeof(host) - 1), auth);
      path = strchr(auth, '/');
      if (!path)
        path = "/";
    }
    for (char *p = host; *p; p++)
      if (*p >= 'A' && *p <= 'Z')
        *p = (char)(*p + 32);
    c->close_after = strcmp(version, "HTTP/1.0") == 0 || strcasestr(head, "\r\nConnection: close");
    c->head = strcmp(method, "HEAD") == 0;
    snprintf(c->method, sizeof(c->method), "%s", method);
    c->started = now_s();
    snprintf(c->host, sizeof(c->host), "%s", host);
    snprintf(c->path, sizeof(c->path), "%s", path);
    c->logging = true;
    s->requests++;
    handle(s, c, host, path);
    if (!flush_out(s, c))
      return false;
  }
  return true;
}

static void on_conn(struct server *s, struct conn *c, uint32_t events) {
  /* a hang-up or an error comes whatever is watched: the write that follows finds it */
  if ((events & EPOLLOUT) || ((events & (EPOLLHUP | EPOLLERR)) && c->out_off < c->out_len)) {
    if (!flush_out(s, c)) {
      close_conn(s, c);
      return;
    }
  }
  if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
    for (;;) {
      if (c->in_len == IN_CAP)
        break;
      ssize_t n = read(c->fd, c->in + c->in_len, IN_CAP - c->in_len);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        close_conn(s, c);
        return;
      }
      if (n < 0)
        break;
      c->in_len += (size_t)n;
    }
  }
  if (!process(s, c))
    close_conn(s, c);
}

/* ---- DNS (dns.c): one answer a query ---- */
static void on_dns(struct server *s) {
  unsigned char q[512], r[600];
  struct sockaddr_storage from;
  socklen_t flen = sizeof(from);
  ssize_t n;
  while ((n = recvfrom(s->dns_fd, q, sizeof(q), 0, (struct sockaddr *)&from, &flen)) > 0) {
    s->dns.now = now_s();
    size_t rlen = web_dns_answer(&s->web, &s->dns, q, (size_t)n, r);
    if (rlen)
      sendto(s->dns_fd, r, rlen, 0, (struct sockaddr *)&from, flen);
    flen = sizeof(from);
  }
}

/* addr: in host order, within 127.0.0.0/8 */
static int bind_loopback(int type, uint32_t addr, int *port) {
  int fd = socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    web_die("socket");
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)*port)};
  a.sin_addr.s_addr = htonl(addr);
  if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
    web_die("bind");
  socklen_t len = sizeof(a);
  getsockname(fd, (struct sockaddr *)&a, &len);
  *port = ntohs(a.sin_port);
  return fd;
}

static void accept_all(struct server *s, int listen_fd) {
  int fd;
  while ((fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
    struct conn *c = calloc(1, sizeof(*c));
    if (!c) {
      close(fd);
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    c->fd = fd;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
  }
}

static int serve(struct server *s, const char *log_path, double max_seconds, int want_port,
                 uint32_t dns_addr, int dns_port) {
  /* killed with whatever started it: a runner that kills a test on its timeout kills the test's
   * process, and an orphaned web would hold a core or a port until --max-seconds */
  pid_t parent = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
    return 1;
  s->body = malloc(BODY_CAP);
  if (!s->body)
    web_die("malloc");
  if (log_path && !(s->log = fopen(log_path, "w")))
    web_die("log");
  int http_port = want_port;
  s->listen_fd = bind_loopback(SOCK_STREAM, INADDR_LOOPBACK, &http_port);
  if (listen(s->listen_fd, 1024) != 0)
    web_die("listen");
  s->dns_fd = bind_loopback(SOCK_DGRAM, dns_addr, &dns_port);
  s->web.port = http_port;
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGTERM);
  sigprocmask(SIG_BLOCK, &mask, NULL);
  s->sig_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  signal(SIGPIPE, SIG_IGN);
  s->epfd = epoll_create1(EPOLL_CLOEXEC);
  int tags[3] = {0, 1, 2};
  int fds[3] = {s->listen_fd, s->dns_fd, s->sig_fd};
  for (int i = 0; i < 3; i++) {
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &tags[i]};
    epoll_ctl(s->epfd, EPOLL_CTL_ADD, fds[i], &ev);
  }
  if (s->dns.addresses > 1 && !(s->more_fds = calloc((size_t)s->dns.addresses, sizeof(int))))
    web_die("calloc");
  for (int k = 0; s->dns.addresses > 1 && k < s->dns.addresses; k++) {
    int port = http_port;
    s->more_fds[k] = bind_loopback(SOCK_STREAM, web_dns_host_address(s->dns.addresses, k), &port);
    if (listen(s->more_fds[k], 1024) != 0)
      web_die("listen");
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &s->more_fds[k]};
    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->more_fds[k], &ev);
  }
  printf("http %d\ndns %d\n", http_port, dns_port);
  fflush(stdout);
  double deadline = now_s() + max_seconds;
  bool running = true;
  while (running && now_s() < deadline) {
    struct epoll_event events[256];
    int n = epoll_wait(s->epfd, events, 256, 200);
    for (int i = 0; i < n; i++) {
      void *p = events[i].data.ptr;
      bool more =
          s->more_fds && (int *)p >= s->more_fds && (int *)p < s->more_fds + s->dns.addresses;
      if (p == &tags[0] || more) {
        accept_all(s, more ? *(int *)p : s->listen_fd);
      } else if (p == &tags[1]) {
        on_dns(s);
      } else if (p == &tags[2]) {
        running = false;
      } else {
        on_conn(s, p, events[i].events);
      }
    }
  }
  if (s->log)
    fclose(s->log);
  fprintf(stderr, "testweb: served %lu requests\n", s->requests);
  return 0;
}

/* ---- export: the web as files, for a static server ---- */

static void write_file(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
    web_die(path);
}

static void make_dir(const char *path) {
  if (mkdir(path, 0755) != 0 && errno != EEXIST)
    web_die(path);
}

static int export_web(struct server *s, const char *dir) {
  struct web *w = &s->web;
  s->body = malloc(BODY_CAP);
  if (!s->body)
    web_die("malloc");
  char path[4096];
  char binary[1024];
  make_dir(dir);
  for (int h = 0; h < w->hosts; h++) {
    char host[200];
    snprintf(host, sizeof(host), "%s/s%d.%s", dir, h, w->domain);
    make_dir(host);
    const char *subdirs[] = {"p", "f", "img"};
    for (size_t i = 0; i < 3; i++) {
      snprintf(path, sizeof(path), "%s/%s", host, subdirs[i]);
      make_dir(path);
    }
    int n = web_robots(w, h, s->body, BODY_CAP);
    snprintf(path, sizeof(path), "%s/robots.txt", host);
    write_file(path, s->body, (size_t)n);
    for (int page = 0; page < w->pages; page++) {
      size_t len = web_render_page(w, h, page, s->body, BODY_CAP);
      if (page == 0)
        snprintf(path, sizeof(path), "%s/index.html", host);
      else
        snprintf(path, sizeof(path), "%s/p/%d.html", host, page);
      write_file(path, s->body, len < BODY_CAP ? len : BODY_CAP);
      if (w->html_only)
        continue; /* nothing links a PDF or an image */
      memset(binary, 'x', sizeof(binary));
      memcpy(binary, "%PDF-1.4\n", 9);
      snprintf(path, sizeof(path), "%s/f/%d.pdf", host, page);
      write_file(path, binary, sizeof(binary));
      memset(binary, 0, 256);
      memcpy(binary, "\x89PNG\r\n\x1a\n", 8);
      snprintf(path, sizeof(path), "%s/img/%d.png", host, page);
      write_file(path, binary, 256);
    }
  }
  return 0;
}

static void usage(void) {
  fprintf(
      stderr,
      "usage: testweb serve|truth|export|discovery [--hosts N] [--pages N] [--links N] [--seed N] "
      "[--domain D] [--page-bytes N] [--html-only] [--other-share PCT] [--rich-markup] "
      "[--own-robots] [--port P] "
      "[--log FILE] "
      "[--max-seconds S] [--dns-at 127.A.B.C:PORT] [--addresses N] "
      "[--delay S] "
      "[--depth N] [--scope host|domain|any] [--no-robots] [--sitemaps] [--no-parent] "
      "[--domains LIST] [--exclude-domains LIST] [--match RE] [--exclude RE] "
      "[--max-url-length N] [SEED...]\n");
  exit(2);
}

int main(int argc, char **argv) {
  if (argc < 2)
    usage();
  struct server s;
  memset(&s, 0, sizeof(s));
  struct web *w = &s.web;
  w->seed = 1;
  w->hosts = 20;
  w->pages = 500;
  w->links = 8;
  w->other_share = 22;
  snprintf(w->domain, sizeof(w->domain), "web.test");
  const char *log_path = NULL;
  double max_seconds = 600, delay = -1;
  int port = 0, dns_port = 0;
  uint32_t dns_addr = INADDR_LOOPBACK;
  struct truth filters = {.depth = 1000000, .scope = 1, .robots = true};
  regex_t match, exclude;
  char **seeds = calloc((size_t)argc, sizeof(char *));
  int seed_count = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--no-robots") == 0) {
      filters.robots = false;
      continue;
    }
    if (strcmp(a, "--sitemaps") == 0) {
      filters.sitemaps = true;
      continue;
    }
    if (strcmp(a, "--no-parent") == 0) {
      filters.no_parent = true;
      continue;
    }
    if (strcmp(a, "--outside") == 0) {
      filters.outside = true;
      continue;
    }
    if (strcmp(a, "--html-only") == 0) {
      w->html_only = true;
      continue;
    }
    if (strcmp(a, "--rich-markup") == 0) {
      w->rich = true;
      continue;
    }
    if (strcmp(a, "--own-robots") == 0) {
      w->own_robots = true;
      continue;
    }
    if (a[0] != '-') {
      seeds[seed_count++] = argv[i];
      continue;
    }
    if (!v)
      usage();
    i++;
    if (strcmp(a, "--hosts") == 0)
      w->hosts = atoi(v);
    else if (strcmp(a, "--pages") == 0)
      w->pages = atoi(v);
    else if (strcmp(a, "--links") == 0)
      w->links = atoi(v);
    else if (strcmp(a, "--seed") == 0)
      w->seed = strtoull(v, NULL, 10);
    else if (strcmp(a, "--page-bytes") == 0)
      w->page_bytes = atoi(v);
    else if (strcmp(a, "--other-share") == 0 && atoi(v) >= 0 && atoi(v) <= 97)
      w->other_share = atoi(v);
    else if (strcmp(a, "--domain") == 0)
      snprintf(w->domain, sizeof(w->domain), "%s", v);
    else if (strcmp(a, "--port") == 0)
      port = atoi(v);
    else if (strcmp(a, "--log") == 0)
      log_path = v;
    else if (strcmp(a, "--delay") == 0)
      delay = atof(v);
    else if (strcmp(a, "--max-seconds") == 0)
      max_seconds = atof(v);
    else if (strcmp(a, "--addresses") == 0 && atoi(v) >= 1 && atoi(v) <= 65000)
      s.dns.addresses = atoi(v);
    else if (strcmp(a, "--dns-at") == 0) {
      if (!web_dns_at(v, &dns_addr, &dns_port))
        usage();
    } else if (strcmp(a, "--depth") == 0)
      filters.depth = atoi(v);
    else if (strcmp(a, "--scope") == 0)
      filters.scope = strcmp(v, "host") == 0 ? 0 : strcmp(v, "any") == 0 ? 2 : 1;
    else if (strcmp(a, "--domains") == 0)
      filters.domains = v;
    else if (strcmp(a, "--exclude-domains") == 0)
      filters.exclude_domains = v;
    else if (strcmp(a, "--max-url-length") == 0)
      filters.max_url_length = (size_t)atol(v);
    else if (strcmp(a, "--match") == 0 && !filters.match &&
             regcomp(&match, v, REG_EXTENDED | REG_NOSUB) == 0)
      filters.match = &match;
    else if (strcmp(a, "--exclude") == 0 && !filters.exclude &&
             regcomp(&exclude, v, REG_EXTENDED | REG_NOSUB) == 0)
      filters.exclude = &exclude;
    else
      usage();
  }
  if (w->hosts < 1 || w->pages < 1 || w->links < 1)
    usage();
  int rc;
  if (strcmp(argv[1], "serve") == 0) {
    rc = serve(&s, log_path, max_seconds, port, dns_addr, dns_port);
  } else if (strcmp(argv[1], "export") == 0 && seed_count == 1 && port > 0) {
    w->port = port;
    rc = export_web(&s, seeds[0]);
  } else if (strcmp(argv[1], "discovery") == 0 && delay >= 0) {
    rc = discovery_run(w, delay);
  } else if (strcmp(argv[1], "truth") == 0 && seed_count > 0 && port > 0) {
    w->port = port;
    rc = truth_run(w, &filters, seeds, seed_count);
  } else {
    usage();
    rc = 2;
  }
  if (filters.match)
    regfree(filters.match);
  if (filters.exclude)
    regfree(filters.exclude);
  free(seeds);
  free(s.body);
  free(s.more_fds);
  return rc;
}
