/* The synthetic test web shared by the server and the ground-truth walker. */
#ifndef CRAWL_TESTWEB_WEB_H
#define CRAWL_TESTWEB_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <regex.h>
#include <strings.h>

#define WEB_OUTSIDE_HOSTS 3
#define WEB_ORPHANS 10 /* pages only the sitemaps list: /orphan/0.html ... */

struct web {
  uint64_t seed;
  int hosts;       /* s0.<domain> ... */
  int pages;       /* per host: "/" and /p/1.html ... */
  int links;       /* mean links per page */
  int page_bytes;  /* pages are padded with text to at least this size (0: no padding) */
  int port;        /* written into absolute links */
  bool html_only;  /* links to pages alone (--html-only) */
  int other_share; /* --html-only: percent of a page's links, after its first, to other hosts */
  bool rich;       /* the markup of a real site around the same links (--rich-markup) */
  bool own_robots; /* each host's robots.txt also disallows a path of its own (--own-robots) */
  char domain[128];
};

enum web_kind {
  WEB_PAGE,
  WEB_OUTSIDE,
  WEB_PRIVATE,
  WEB_PDF,
  WEB_IMAGE,
  WEB_MISSING,
  WEB_REDIRECT,
  WEB_MAILTO
};

struct web_link {
  enum web_kind kind;
  int host;
  int page;
  int form; /* how the href is written */
  bool fragment;
};

/* Index of a host name in the web, or -1; *outside for x<j>.elsewhere.test. */
int web_host_index(const struct web *w, const char *host, bool *outside);
int web_link_count(const struct web *w, int host, int page);
void web_link_at(const struct web *w, int host, int page, int index, struct web_link *out);
void web_link_url(const struct web *w, const struct web_link *l, char *out, size_t size);
void web_page_path(int page, char *out, size_t size);
/* Writes the page's HTML into out (truncated at size); returns its full length. */
size_t web_render_page(const struct web *w, int host, int page, char *out, size_t size);
int web_robots(const struct web *w, int host, char *out, size_t size);
/* The sitemap at path (/sitemaps/index.xml, /sitemaps/part.xml, /sitemap.xml), uncompressed;
 * 0 when there is none. */
size_t web_sitemap(const struct web *w, int host, const char *path, char *out, size_t size);
/* testweb discovery (discovery.c): prints each host reachable from s0's root with the earliest
 * moment a crawler with this per-host delay could first contact it; 0 when done. */
int discovery_run(const struct web *w, double delay);

/* testweb truth (truth.c): the crawl simulated in the crawler's own order, breadth first, with
 * the filters a crawl is given; prints every URL it should print, each with its fate. */
struct truth_url {
  char *url;
  int depth;
  const char *fate;
};

struct truth {
  struct web *web;
  int depth;
  int scope; /* 0 host, 1 domain, 2 any */
  bool robots;
  bool sitemaps;
  bool no_parent;
  bool outside;        /* --outside: links out of scope are URLs too, with the fate outside */
  const char *domains; /* -D: comma list of suffixes; NULL for --scope */
  const char *exclude_domains; /* --exclude-domains */
  regex_t *match, *exclude;    /* --match, --exclude (one each here) */
  size_t max_url_length;       /* --max-url-length: longer URLs are dropped; 0 for none */
  char parent_dirs[16][300];   /* --no-parent: each seed up to the last '/' of its path */
  int parent_dir_count;
  bool *host_queued; /* per web host: a URL of it was queued, so its sitemaps were read */
  char seed_host[160];
  struct truth_url *urls;
  size_t count, cap;
  size_t *slots; /* open addressing: index + 1 into urls, 0 when empty */
  size_t slot_count;
  size_t lowered; /* URLs whose depth a redirect lowered after a link had found them */
};
int truth_run(struct web *w, struct truth *filters, char **seeds, int seed_count);

/* testweb serve's DNS (dns.c). addresses: the hosts are spread over that many loopback
 * addresses (0 or 1: all at 127.0.0.1); now: the moment of the query, for dnsflaky.* */
struct web_dns {
  int addresses;
  double dnsflaky_first; /* when dnsflaky.* was first asked for; 0: not yet */
  double now;
};
/* host's address under --addresses (127.1.0.0 + 1 + host % addresses), in host order */
uint32_t web_dns_host_address(int addresses, int host);
/* The answer to the query q of n bytes into r; its length, or 0 to send none. */
size_t web_dns_answer(const struct web *w, struct web_dns *d, const unsigned char *q, size_t n,
                      unsigned char r[600]);
/* "127.A.B.C:PORT": loopback alone, never an address other machines reach */
bool web_dns_at(const char *v, uint32_t *addr, int *port);

/* Shared by the server and the walkers: the message and errno on standard error, exit 1; a
 * string's FNV-1a hash. */
void web_die(const char *what);
unsigned web_hash_str(const char *s);

#endif
