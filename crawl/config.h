/* The crawl's configuration: filled once by its caller (the command line), then passed down
 * read-only as const struct crawl_config *. Included through crawl/crawl.h. What only the command
 * line uses (-o, -q, --progress) is not here but in cli/. */
#ifndef CRAWL_CRAWL_CONFIG_H
#define CRAWL_CRAWL_CONFIG_H

#include "core/core.h"
#include "url/url.h"
#include "seen/seen.h"

#include <regex.h>

struct crawl_regex_list {
  regex_t *items;
  struct core_list texts; /* the patterns as given, item for item: a cluster's job compares them */
  size_t count;
};

/* -j at most: the threads' table is kept on the stack, so starting them cannot run out of memory */
#define CRAWL_THREADS_MAX 256

struct crawl_config {
  /* seeds */
  char **seeds; /* as typed; owned */
  size_t seed_count;
  bool sitemaps;
  long max_sitemaps;  /* sitemaps fetched per host at most, indexes included */
  long sitemap_depth; /* index levels followed: 0, the host's own sitemaps alone */

  /* scope */
  url_scope_mode scope_mode;
  struct core_list domains; /* -D */
  struct core_list exclude_domains;
  struct core_list accept_ext; /* -A; empty means every URL is printed */
  struct core_list reject_ext; /* -R */
  struct core_list skip_ext;   /* never fetched, still printed */
  struct crawl_regex_list match;
  struct crawl_regex_list exclude;
  bool no_parent;          /* only URLs at or below a seed's directory, on the seed's host */
  long depth;              /* INT_MAX: no limit (-d inf) */
  long max_pages;          /* < 0: no limit */
  long max_pages_per_host; /* < 0: no limit */
  uint64_t queue_memory;   /* queued pages kept in memory; the rest spill to a file (0: all) */
  uint64_t queue_disk;     /* bytes the spill file may take (0: no limit) */
  size_t max_url_length;
  /* spider-trap guards (doc/behaviour.md, Trap guards); 0 turns one off */
  long max_path_repeat;
  long max_path_segments;
  long max_query_variants; /* per host and path */

  /* politeness */
  double delay;
  double delay_factor;
  double max_delay;
  double ip_delay;
  bool random_wait; /* each gap of -w times a random factor in [0.5, 1.5] */
  double rate;      /* --rate: requests a second over the whole crawl; 0: no cap */
  double max_time;  /* --max-time: seconds this run may take; 0: no limit */
  long per_host;
  long concurrency;
  long threads; /* -j: shards, one thread each */
  /* --cluster: one crawl shared by several processes through Redis (NULL: this one alone) */
  char *cluster;       /* redis://HOST[:PORT]/JOB, as given */
  long nodes;          /* --nodes */
  long node;           /* --node: this one, 0 to nodes - 1 */
  double cluster_wait; /* --cluster-wait: seconds to wait for Redis, at start or lost mid-run */
  bool robots;
  char *user_agent;
  char *product_token; /* derived from user_agent, for robots.txt groups */

  /* fetching */
  double timeout;
  double connect_timeout;
  long retries;
  uint64_t max_size;
  long max_redirs;
  bool check_skipped;   /* HEAD requests for the URLs --skip-ext keeps from being fetched */
  bool js;              /* --js: links in scripts' string literals; .js files fetched */
  bool allow_private;   /* redirects may lead into a machine's own networks (doc/network.md) */
  bool fail_on_broken;  /* exit 8 when any URL failed, as wget does for a broken link */
  bool print_outside;   /* links out of scope are printed too (they always get a record) */
  bool check_fragments; /* a link's #fragment must name an id of its fetched HTML target */
  bool check_outside;   /* and requested once, HEAD, as checked links */
  char **headers;
  size_t header_count;
  bool insecure;
  char *cacert;    /* PEM file of CA certificates, or NULL for the system's */
  char **resolves; /* HOST:PORT:ADDR */
  size_t resolve_count;
  char *dns_servers;
  /* proxies: --proxy for both schemes, or the environment's (cli/options.c); NULL: none */
  char *proxy_http;
  char *proxy_https;
  char *noproxy; /* --noproxy, or the environment's no_proxy */
  /* credentials for the seeds' hosts alone (doc/network.md, Logins): --user, --netrc */
  char *user;     /* NULL: none */
  char *password; /* with user; "" when none was given and there was no terminal to ask */
  bool netrc;
  char *netrc_file; /* NULL: ~/.netrc */
  /* cookies: one jar for the crawl unless no_cookies; files in the Netscape format */
  bool no_cookies;
  char *load_cookies;
  char *save_cookies;

  /* state (--state): the directory, the seconds between checkpoints, and whether this run
   * continues the crawl kept there (no seeds given: the options are the ones saved there) */
  char *state_dir;
  double checkpoint;
  bool checkpoint_given; /* also the interval of --seen's saves */
  bool state_resume;

  char *warc_file;
  /* dedupe */
  char *seen_file;
  seen_kind dedupe;
  bool dedupe_given; /* else a loaded --seen file's kind is used */
  uint64_t expect;
  double fp_rate;

  /* output */
  bool jsonl;   /* each URL's record instead of its line */
  bool report;  /* --report: each failed URL's record, with its referrers, to sink->broken */
  bool verbose; /* -v: the notes */
};

#endif
