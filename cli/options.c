/* The command line of the README's option table (doc/behaviour.md says how
 * each behaves). Every value is checked; a bad one is a usage error. */
#include "cli/cli-int.h"
#include "cli/table.h"
#include "cluster/cluster.h"
#include "fetch/fetch.h"
#include "parse/parse.h"

#include <ares.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* A path option: not empty; the last one given wins. */
static bool set_path(char **field, const char *arg, const char *opt, const char *what, char *err,
                     size_t err_size) {
  if (!*arg) {
    cli_set_err(err, err_size, "invalid value '' for %s: %s", opt, what);
    return false;
  }
  free(*field);
  if (!(*field = strdup(arg))) {
    cli_set_err(err, err_size, "out of memory");
    return false;
  }
  return true;
}

static bool push_str(char ***list, size_t *count, const char *s) {
  char **grown = realloc(*list, (*count + 1) * sizeof(*grown));
  if (!grown)
    return false;
  *list = grown;
  if (!(grown[*count] = strdup(s)))
    return false;
  (*count)++;
  return true;
}

static bool push_regex(struct crawl_regex_list *list, const char *pattern, char *err,
                       size_t err_size, const char *opt) {
  regex_t *grown = realloc(list->items, (list->count + 1) * sizeof(*grown));
  if (!grown) {
    cli_set_err(err, err_size, "out of memory");
    return false;
  }
  list->items = grown;
  int rc = regcomp(&grown[list->count], pattern, REG_EXTENDED | REG_NOSUB);
  if (rc) {
    char msg[128];
    regerror(rc, &grown[list->count], msg, sizeof(msg));
    cli_set_err(err, err_size, "invalid regular expression for %s '%s': %s", opt, pattern, msg);
    return false;
  }
  if (core_list_add(&list->texts, pattern) != CORE_OK) {
    regfree(&grown[list->count]);
    cli_set_err(err, err_size, "out of memory");
    return false;
  }
  list->count++;
  return true;
}

void cli_notes_free(struct cli_notes *notes) {
  for (size_t i = 0; i < notes->count; i++)
    free(notes->lines[i]);
  free(notes->lines);
  notes->lines = NULL;
  notes->count = 0;
}

/* Seeds from a file: one per line, blank lines and # comments skipped; so is a line that is no
 * seed URL, with a note naming it (as wget goes on past a bad line of its -i file): one bad line
 * of many does not end the run. */
static bool read_seeds(const char *path, struct crawl_config *cfg, struct cli_notes *notes,
                       char *err, size_t err_size) {
  FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
  if (!in) {
    cli_set_err(err, err_size, "cannot read seeds from '%s': %s", path, strerror(errno));
    return false;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  bool ok = true;
  long number = 0;
  while (ok && (n = getline(&line, &cap, in)) >= 0) {
    number++;
    char *s = line;
    while (*s == ' ' || *s == '\t')
      s++;
    size_t len = strlen(s);
    while (len &&
           (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
      s[--len] = '\0';
    if (!len || s[0] == '#')
      continue;
    struct url u;
    core_rc rc = url_seed(s, cfg->max_url_length, &u);
    if (rc == CORE_OK) {
      url_free(&u);
    } else if (rc != CORE_ENOMEM) {
      char *note = NULL;
      if (notes &&
          asprintf(&note, "%s:%ld: not a seed URL, skipped: '%.200s' (%s)",
                   strcmp(path, "-") == 0 ? "standard input" : path, number, s,
                   core_rc_str(rc)) >= 0 &&
          !push_str(&notes->lines, &notes->count, note))
        ok = false;
      free(note);
      continue;
    }
    ok = ok && push_str(&cfg->seeds, &cfg->seed_count, s);
  }
  free(line);
  if (in != stdin)
    fclose(in);
  if (!ok)
    cli_set_err(err, err_size, "out of memory");
  return ok;
}

/* --dns-server as c-ares reads it, checked before the crawl starts so that a bad value is a usage
 * error: a channel of its own takes the list (and is gone again). */
static bool dns_servers_valid(const char *csv) {
  ares_channel channel;
  struct ares_options opts = {0};
  if (!*csv || ares_init_options(&channel, &opts, 0) != ARES_SUCCESS)
    return *csv != '\0'; /* no channel here: the engine, which makes one, says what is wrong */
  bool ok = ares_set_servers_ports_csv(channel, csv) == ARES_SUCCESS;
  ares_destroy(channel);
  return ok;
}

static void set_defaults(struct crawl_config *cfg, struct cli_settings *own) {
  memset(cfg, 0, sizeof(*cfg));
  *own = (struct cli_settings){.progress = -1};
  cfg->scope_mode = URL_SCOPE_DOMAIN;
  cfg->depth = 3;
  cfg->max_pages = -1;
  cfg->max_pages_per_host = -1;
  cfg->queue_memory = 50000;
  cfg->queue_disk = UINT64_C(4) << 30;
  cfg->max_url_length = 2048;
  cfg->max_path_repeat = 2;
  cfg->max_path_segments = 32;
  cfg->max_query_variants = 1000;
  cfg->delay = 1;
  cfg->max_delay = 30;
  cfg->per_host = 1;
  cfg->concurrency = 64;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  cfg->threads = cores < 1 ? 1 : cores > 256 ? 256 : cores;
  cfg->robots = true;
  cfg->timeout = 30;
  cfg->connect_timeout = 10;
  cfg->retries = 3;
  cfg->max_size = 10 * 1024 * 1024;
  cfg->max_redirs = 5;
  cfg->max_sitemaps = 1000;
  cfg->sitemap_depth = 2;
  cfg->expect = 1000000;
  cfg->fp_rate = 1e-7;
  cfg->dedupe = SEEN_BLOOM;
  cfg->checkpoint = 30;
  cfg->cluster_wait = 60;
}

/* The first of the environment's variables names that is set and not empty, its name in *name. */
static const char *env_first(const char *const names[], size_t n, const char **name) {
  for (size_t i = 0; i < n; i++) {
    const char *v = getenv(names[i]);
    if (v && *v) {
      *name = names[i];
      return v;
    }
  }
  return NULL;
}

/* The proxies (doc/network.md, Proxies): --proxy for both schemes ('' for none), else the
 * environment's as curl reads it: http_proxy (never HTTP_PROXY, which a CGI request can set),
 * https_proxy or HTTPS_PROXY, then all_proxy or ALL_PROXY; --noproxy, else no_proxy or NO_PROXY.
 * false with err set when a variable's proxy is none curl takes (the value is not quoted: it may
 * hold a password) or memory runs out. */
static bool set_proxies(struct crawl_config *cfg, const char *proxy, const char *noproxy, char *err,
                        size_t err_size) {
  static const char *const http_names[] = {"http_proxy", "all_proxy", "ALL_PROXY"};
  static const char *const https_names[] = {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"};
  static const char *const no_names[] = {"no_proxy", "NO_PROXY"};
  const char *http_from = "--proxy", *https_from = "--proxy", *unused;
  const char *http = proxy, *https = proxy;
  if (!proxy) {
    http = env_first(http_names, 3, &http_from);
    https = env_first(https_names, 4, &https_from);
  }
  if (!noproxy)
    noproxy = env_first(no_names, 2, &unused);
  const char *const values[] = {http, https}, *const from[] = {http_from, https_from};
  for (int i = 0; i < 2; i++) {
    const char *why;
    if (values[i] && *values[i] && fetch_proxy_check(values[i], &why) != CORE_OK) {
      cli_set_err(err, err_size, "invalid proxy in the environment's %s: %s", from[i], why);
      return false;
    }
  }
  if ((http && *http && !(cfg->proxy_http = strdup(http))) ||
      (https && *https && !(cfg->proxy_https = strdup(https))) ||
      (noproxy && *noproxy && !(cfg->noproxy = strdup(noproxy)))) {
    cli_set_err(err, err_size, "out of memory");
    return false;
  }
  return true;
}

/* Whether the long option getopt_long has just taken was typed as a prefix of its name rather
 * than the name (getopt takes unique prefixes, so `--timeo=3` would be --timeout): the
 * length of the name typed, or 0 when it was whole. The option is at argv[next - 1] (next is
 * optind), or just before its value given apart. */
static int abbreviation(char **argv, int next, const struct option *opt) {
  const char *text = argv[next - 1 - (optarg && optarg == argv[next - 1])];
  if (strncmp(text, "--", 2) != 0)
    return 0;
  size_t len = strcspn(text + 2, "=");
  bool whole = strlen(opt->name) == len && strncmp(text + 2, opt->name, len) == 0;
  return whole ? 0 : (int)(len < 200 ? len : 200);
}

/* A list's items hold no white space: "png jpg" is a list typed with a space for a comma. */
static bool spaceless(const struct core_list *list) {
  for (size_t i = 0; i < list->count; i++)
    if (strpbrk(list->items[i], " \t\n"))
      return false;
  return true;
}

#define USAGE(...)                                                                                 \
  do {                                                                                             \
    cli_set_err(err, err_size, __VA_ARGS__);                                                       \
    return CLI_USAGE;                                                                              \
  } while (0)

/* getopt's spellings, made from the table of options: its long options (NULL-ended) and its
 * letters, each followed by ':' when it takes a value. */
struct getopt_spellings {
  struct option *longs;
  char letters[128];
};

static bool getopt_spellings_make(struct getopt_spellings *out) {
  out->longs = calloc(cli_option_count + 1, sizeof(*out->longs));
  if (!out->longs)
    return false;
  size_t n = 0;
  out->letters[n++] = ':'; /* a missing value is ':', not '?' */
  for (size_t i = 0; i < cli_option_count; i++) {
    const struct cli_option *o = &cli_options[i];
    int has_arg = o->value ? required_argument : no_argument;
    out->longs[i] = (struct option){o->name, has_arg, NULL, o->id};
    if (o->letter_too && n + 3 <= sizeof(out->letters)) {
      out->letters[n++] = (char)o->id;
      if (o->value)
        out->letters[n++] = ':';
    }
  }
  out->letters[n] = '\0';
  return true;
}

static cli_parse_result parse_options(int argc, char **argv, const struct getopt_spellings *how,
                                      struct crawl_config *cfg, struct cli_settings *own,
                                      struct cli_notes *notes, char *err, size_t err_size);

cli_parse_result cli_parse_options(int argc, char **argv, const struct cli_args *from,
                                   struct crawl_config *cfg, struct cli_settings *own,
                                   struct cli_notes *notes, char *err, size_t err_size) {
  set_defaults(cfg, own); /* first: whatever fails, cli_config_free may follow */
  struct getopt_spellings how;
  if (!getopt_spellings_make(&how)) {
    cli_set_err(err, err_size, "out of memory");
    return CLI_NOMEM;
  }
  cli_parse_result parsed = parse_options(argc, argv, &how, cfg, own, notes, err, err_size);
  free(how.longs);
  /* every "out of memory" of the parse, whatever step met it, is no usage error */
  if (parsed == CLI_USAGE && strcmp(err, "out of memory") == 0)
    return CLI_NOMEM;
  /* the argument getopt took last: a line of the configuration file names its FILE:LINE */
  int at = optind - 1;
  if (parsed == CLI_USAGE && from && at >= 1 && (size_t)at <= from->from_file && from->where[at]) {
    char told[512];
    snprintf(told, sizeof(told), "%s", err);
    cli_set_err(err, err_size, "%s: %s", from->where[at], told);
  }
  return parsed;
}

/* What parse_options keeps from one option to the next, beside the configuration, for the
 * functions that take each group of options. */
struct parse_state {
  struct crawl_config *cfg;
  struct cli_settings *own;
  struct cli_notes *notes;
  char *err;
  size_t err_size;
  char **argv;
  bool have_domains, have_skip, node_given;
  const char *user_agent, *proxy, *noproxy;
};

/* An option group's answer for an option that is not one of its own. */
enum { NOT_MINE = -1 };

/* Options of seeds, sitemaps, scope and filters: NOT_MINE for the others. */
static int seed_scope_option(struct parse_state *ps, int c, const char *arg) {
  struct crawl_config *cfg = ps->cfg;
  struct cli_notes *notes = ps->notes;
  char *err = ps->err;
  size_t err_size = ps->err_size;
  switch (c) {
    case 'i':
      if (!read_seeds(arg, cfg, notes, err, err_size))
        return CLI_USAGE;
      break;
    case OPT_SITEMAPS:
      cfg->sitemaps = true;
      break;
    case OPT_MAX_SITEMAPS:
      if (!cli_parse_long(arg, 1, 1000000, &cfg->max_sitemaps))
        USAGE("invalid value '%s' for --max-sitemaps: a whole number from 1 to 1000000", arg);
      break;
    case OPT_SITEMAP_DEPTH:
      if (!cli_parse_long(arg, 0, 100, &cfg->sitemap_depth))
        USAGE("invalid value '%s' for --sitemap-depth: a whole number from 0 to 100", arg);
      break;
    case OPT_SCOPE:
      if (strcmp(arg, "host") == 0)
        cfg->scope_mode = URL_SCOPE_HOST;
      else if (strcmp(arg, "domain") == 0)
        cfg->scope_mode = URL_SCOPE_DOMAIN;
      else if (strcmp(arg, "any") == 0)
        cfg->scope_mode = URL_SCOPE_ANY;
      else
        USAGE("invalid value '%s' for --scope: use host, domain or any", arg);
      break;
    case 'D':
      if (core_list_parse(arg, &cfg->domains) || !cfg->domains.count || !spaceless(&cfg->domains))
        USAGE("invalid value '%s' for --domains: a comma list of domains", arg);
      ps->have_domains = true;
      break;
    case OPT_EXCLUDE_DOMAINS:
      if (core_list_parse(arg, &cfg->exclude_domains))
        USAGE("out of memory");
      if (!spaceless(&cfg->exclude_domains))
        USAGE("invalid value '%s' for --exclude-domains: a comma list of domains", arg);
      break;
    case 'A':
      if (!cli_parse_ext_list(arg, &cfg->accept_ext, "--accept-ext", err, err_size))
        return CLI_USAGE;
      break;
    case 'R':
      if (!cli_parse_ext_list(arg, &cfg->reject_ext, "--reject-ext", err, err_size))
        return CLI_USAGE;
      break;
    case OPT_SKIP_EXT:
      core_list_free(&cfg->skip_ext);
      if (!cli_parse_ext_list(arg, &cfg->skip_ext, "--skip-ext", err, err_size))
        return CLI_USAGE;
      ps->have_skip = true;
      break;
    case OPT_NO_PARENT:
      cfg->no_parent = true;
      break;
    case OPT_CHECK_SKIPPED:
      cfg->check_skipped = true;
      break;
    case OPT_MATCH:
      if (!push_regex(&cfg->match, arg, err, err_size, "--match"))
        return CLI_USAGE;
      break;
    case OPT_EXCLUDE:
      if (!push_regex(&cfg->exclude, arg, err, err_size, "--exclude"))
        return CLI_USAGE;
      break;
    case 'r': /* wget's -r: a crawl is recursive anyway */
      break;
    default:
      return NOT_MINE;
  }
  return CLI_RUN;
}

/* Options of limits, pacing and requests: NOT_MINE for the others. */
static int limit_pace_option(struct parse_state *ps, int c, const char *arg) {
  struct crawl_config *cfg = ps->cfg;
  char *err = ps->err;
  size_t err_size = ps->err_size;
  long l;
  switch (c) {
    case 'd':
    case 'l':
      if (strcmp(arg, "inf") == 0)
        cfg->depth = INT_MAX; /* as wget's -l inf: no limit */
      else if (!cli_parse_long(arg, 0, 1000000, &cfg->depth))
        USAGE("invalid value '%s' for --depth: a whole number from 0, or inf", arg);
      break;
    case 'n':
      if (!cli_parse_long(arg, 1, LONG_MAX, &cfg->max_pages))
        USAGE("invalid value '%s' for --max-pages: a whole number from 1", arg);
      break;
    case OPT_MAX_PAGES_PER_HOST:
      if (!cli_parse_long(arg, 1, LONG_MAX, &cfg->max_pages_per_host))
        USAGE("invalid value '%s' for --max-pages-per-host: a whole number from 1", arg);
      break;
    case OPT_MAX_URL_LENGTH:
      if (!cli_parse_long(arg, 16, 1 << 20, &l))
        USAGE("invalid value '%s' for --max-url-length: a whole number from 16 to 1048576", arg);
      cfg->max_url_length = (size_t)l;
      break;
    case OPT_MAX_PATH_REPEAT:
      if (!cli_parse_long(arg, 0, 1000000, &cfg->max_path_repeat))
        USAGE("invalid value '%s' for --max-path-repeat: a whole number, 0 for no limit", arg);
      break;
    case OPT_MAX_PATH_SEGMENTS:
      if (!cli_parse_long(arg, 0, 1000000, &cfg->max_path_segments))
        USAGE("invalid value '%s' for --max-path-segments: a whole number, 0 for no limit", arg);
      break;
    case OPT_MAX_QUERY_VARIANTS:
      if (!cli_parse_long(arg, 0, LONG_MAX, &cfg->max_query_variants))
        USAGE("invalid value '%s' for --max-query-variants: a whole number, 0 for no limit", arg);
      break;
    case 'w':
      if (!cli_parse_duration(arg, 86400, &cfg->delay))
        USAGE("invalid value '%s' for --delay: a duration such as 2, 500ms, 1.5s, 10m or 1h, 0 "
              "or more, up to a day",
              arg);
      break;
    case OPT_DELAY_FACTOR:
      if (!cli_parse_seconds(arg, 1000, &cfg->delay_factor))
        USAGE("invalid value '%s' for --delay-factor: a number from 0", arg);
      break;
    case OPT_MAX_DELAY:
      if (!cli_parse_duration(arg, 86400, &cfg->max_delay))
        USAGE("invalid value '%s' for --max-delay: a duration such as 2, 500ms, 1.5s, 10m or 1h, "
              "0 or more, up to a day",
              arg);
      break;
    case OPT_IP_DELAY:
      if (!cli_parse_duration(arg, 86400, &cfg->ip_delay))
        USAGE("invalid value '%s' for --ip-delay: a duration such as 2, 500ms, 1.5s, 10m or 1h, "
              "0 or more, up to a day",
              arg);
      break;
    case OPT_PER_HOST:
      if (!cli_parse_long(arg, 1, 1000, &cfg->per_host))
        USAGE("invalid value '%s' for --per-host: a whole number from 1 to 1000", arg);
      break;
    case 'c':
      if (!cli_parse_long(arg, 1, 10000, &cfg->concurrency))
        USAGE("invalid value '%s' for --concurrency: a whole number from 1 to 10000", arg);
      break;
    case 'j':
      if (!cli_parse_long(arg, 1, CRAWL_THREADS_MAX, &cfg->threads))
        USAGE("invalid value '%s' for --threads: a whole number from 1 to 256", arg);
      break;
    case OPT_NO_ROBOTS:
      cfg->robots = false;
      break;
    case 'U':
      ps->user_agent = arg;
      break;
    case 'T':
      if (!cli_parse_duration(arg, 86400, &cfg->timeout) || cfg->timeout < 0.001)
        USAGE("invalid value '%s' for --timeout: a duration such as 2, 500ms, 1.5s, 10m or 1h, "
              "more than 0, up to a day",
              arg);
      break;
    case OPT_CONNECT_TIMEOUT:
      if (!cli_parse_duration(arg, 86400, &cfg->connect_timeout) || cfg->connect_timeout < 0.001)
        USAGE("invalid value '%s' for --connect-timeout: a duration such as 2, 500ms, 1.5s, 10m "
              "or 1h, more than 0, up to a day",
              arg);
      break;
    case OPT_RETRIES:
      if (!cli_parse_long(arg, 0, 100, &cfg->retries))
        USAGE("invalid value '%s' for --retries: a whole number from 0 to 100", arg);
      break;
    case 't': /* wget's tries count the first: -t 3 is --retries 2; 0 and inf, no end, the most */
      if (strcmp(arg, "0") == 0 || strcmp(arg, "inf") == 0)
        cfg->retries = 100;
      else if (cli_parse_long(arg, 1, 101, &cfg->retries))
        cfg->retries--;
      else
        USAGE("invalid value '%s' for --tries: a whole number from 1 to 101 (0 or inf: 101)", arg);
      break;
    case 'e':
      if (!cli_wget_command(arg, cfg, err, err_size))
        return CLI_USAGE;
      break;
    case OPT_WGET_NOTHING:
    case OPT_CONFIG: /* read before the others (config.c) */
    case OPT_NO_CONFIG:
      break;
    default:
      return NOT_MINE;
  }
  return CLI_RUN;
}

/* Options of the network (headers, TLS, DNS, proxies, logins) and of link checks: NOT_MINE
 * for the others. */
static int network_option(struct parse_state *ps, int c, const char *arg) {
  struct crawl_config *cfg = ps->cfg;
  char *err = ps->err;
  size_t err_size = ps->err_size;
  switch (c) {
    case OPT_MAX_SIZE:
      if (!cli_parse_size(arg, &cfg->max_size))
        USAGE("invalid value '%s' for --max-size: bytes, with an optional k, M or G", arg);
      break;
    case OPT_MAX_REDIRS:
      if (!cli_parse_long(arg, 0, 100, &cfg->max_redirs))
        USAGE("invalid value '%s' for --max-redirs: a whole number from 0 to 100", arg);
      break;
    case 'H':
      if (arg[0] == '-') /* wget's -H takes no value: `-H -D x` */
        USAGE("invalid value '%s' for --header: use 'Name: value' (wget's -H, to span hosts, "
              "is --scope any, or -D DOMAINS)",
              arg);
      if (!strchr(arg, ':') || arg[0] == ':' || strpbrk(arg, "\r\n"))
        USAGE("invalid value '%s' for --header: use 'Name: value'", arg);
      if (!push_str(&cfg->headers, &cfg->header_count, arg))
        USAGE("out of memory");
      break;
    case 'k':
      cfg->insecure = true;
      break;
    case OPT_CACERT: {
      FILE *f = fopen(arg, "r"); /* refused now, not at every TLS handshake */
      if (!f)
        USAGE("invalid value '%s' for --cacert: %s", arg, strerror(errno));
      fclose(f);
      free(cfg->cacert);
      if (!(cfg->cacert = strdup(arg)))
        USAGE("out of memory");
      break;
    }
    case OPT_RESOLVE: {
      char host[256], addr[64];
      unsigned port;
      if (fetch_parse_resolve(arg, host, sizeof(host), &port, addr, sizeof(addr)) != CORE_OK)
        USAGE("invalid value '%s' for --resolve: use HOST:PORT:ADDRESS", arg);
      if (!push_str(&cfg->resolves, &cfg->resolve_count, arg))
        USAGE("out of memory");
      break;
    }
    case OPT_DNS_SERVER:
      if (!dns_servers_valid(arg))
        USAGE("invalid value '%s' for --dns-server: ADDR[:PORT][,...], each ADDR an IPv4 or "
              "IPv6 address ([ADDR]:PORT for IPv6 with a port)",
              arg);
      free(cfg->dns_servers);
      if (!(cfg->dns_servers = strdup(arg))) /* the system's resolver would be asked instead */
        USAGE("out of memory");
      break;
    case OPT_PROXY: {
      const char *why;
      if (*arg && fetch_proxy_check(arg, &why) != CORE_OK)
        USAGE("invalid value for --proxy: %s", why); /* not quoted: it may hold a password */
      ps->proxy = arg;
      break;
    }
    case OPT_NOPROXY:
      ps->noproxy = arg;
      break;
    case OPT_NO_COOKIES:
      cfg->no_cookies = true;
      break;
    case OPT_USER: {
      size_t name = strcspn(arg, ":");
      if (!name)
        USAGE("invalid value for --user: USER[:PASSWORD], USER not empty");
      free(cfg->user);
      free(cfg->password);
      cfg->user = strndup(arg, name);
      cfg->password = arg[name] ? strdup(arg + name + 1) : NULL;
      if (!cfg->user || (arg[name] && !cfg->password))
        USAGE("out of memory");
      break;
    }
    case OPT_NETRC:
      cfg->netrc = true;
      break;
    case OPT_RATE:
      if (!cli_parse_seconds(arg, 1e6, &cfg->rate) || cfg->rate < 0.001)
        USAGE("invalid value '%s' for --rate: requests per second, more than 0", arg);
      break;
    case OPT_JS:
      cfg->js = true;
      break;
    case OPT_ALLOW_PRIVATE:
      cfg->allow_private = true;
      break;
    case OPT_FAIL_ON_BROKEN:
      cfg->fail_on_broken = true;
      break;
    case OPT_PRINT_OUTSIDE:
      cfg->print_outside = true;
      break;
    case OPT_CHECK_OUTSIDE:
      cfg->check_outside = true;
      break;
    case OPT_CHECK_FRAGMENTS:
      cfg->check_fragments = true;
      break;
    case OPT_RANDOM_WAIT:
      cfg->random_wait = true;
      break;
    case OPT_MAX_TIME:
      if (!cli_parse_duration(arg, 365 * 86400.0, &cfg->max_time) || cfg->max_time < 0.001)
        USAGE("invalid value '%s' for --max-time: %s, more than 0", arg,
              "a duration such as 90, 30s, 10m or 2h");
      break;
    case OPT_NETRC_FILE: {
      FILE *f = fopen(arg, "r");
      if (!f)
        USAGE("invalid value '%s' for --netrc-file: %s", arg, strerror(errno));
      fclose(f);
      if (!set_path(&cfg->netrc_file, arg, "--netrc-file", "a file name", err, err_size))
        return CLI_USAGE;
      cfg->netrc = true;
      break;
    }
    default:
      return NOT_MINE;
  }
  return CLI_RUN;
}

/* Options of cookies kept, --seen, --state, WARC, the cluster, the filter and output; any other is
 * unknown. */
static int keeping_output_option(struct parse_state *ps, int c, const char *arg) {
  struct crawl_config *cfg = ps->cfg;
  struct cli_settings *own = ps->own;
  char *err = ps->err;
  size_t err_size = ps->err_size;
  char **argv = ps->argv;
  switch (c) {
    case OPT_LOAD_COOKIES: {
      FILE *f = fopen(arg, "r"); /* refused now, not when the crawl has begun */
      if (!f)
        USAGE("invalid value '%s' for --load-cookies: %s", arg, strerror(errno));
      fclose(f);
      if (!set_path(&cfg->load_cookies, arg, "--load-cookies", "a file name", err, err_size))
        return CLI_USAGE;
      break;
    }
    case OPT_SAVE_COOKIES:
      if (!set_path(&cfg->save_cookies, arg, "--save-cookies", "a file name", err, err_size))
        return CLI_USAGE;
      break;
    case OPT_SEEN:
      if (!set_path(&cfg->seen_file, arg, "--seen", "a file name", err, err_size))
        return CLI_USAGE;
      break;
    case OPT_STATE:
      if (!set_path(&cfg->state_dir, arg, "--state", "a directory", err, err_size))
        return CLI_USAGE;
      break;
    case OPT_WARC:
      if (!set_path(&cfg->warc_file, arg, "--warc", "a file name", err, err_size))
        return CLI_USAGE;
      break;
    case OPT_CLUSTER: {
      struct cluster_address address;
      const char *why;
      if (cluster_address_parse(arg, &address, &why) != CORE_OK)
        USAGE("invalid value '%s' for --cluster: %s", arg, why);
      free(cfg->cluster);
      cfg->cluster = strdup(arg);
      if (!cfg->cluster)
        USAGE("out of memory");
      break;
    }
    case OPT_NODES:
      if (!cli_parse_long(arg, 1, CLUSTER_MAX_NODES, &cfg->nodes))
        USAGE("invalid value '%s' for --nodes: a whole number from 1 to %d", arg,
              CLUSTER_MAX_NODES);
      break;
    case OPT_NODE:
      if (!cli_parse_long(arg, 0, CLUSTER_MAX_NODES - 1, &cfg->node))
        USAGE("invalid value '%s' for --node: a whole number from 0 to --nodes minus 1", arg);
      ps->node_given = true;
      break;
    case OPT_CLUSTER_WAIT:
      if (!cli_parse_duration(arg, 86400, &cfg->cluster_wait))
        USAGE("invalid value '%s' for --cluster-wait: %s, 0 to a day", arg,
              "a duration such as 90, 30s, 10m or 2h");
      break;
    case OPT_CHECKPOINT:
      if (!cli_parse_duration(arg, 86400, &cfg->checkpoint) || cfg->checkpoint < 0.1)
        USAGE("invalid value '%s' for --checkpoint: seconds, at least 0.1", arg);
      cfg->checkpoint_given = true;
      break;
    case OPT_DEDUPE: {
      /* the names are the filter's own, as the --seen file and its messages spell them */
      const seen_kind kinds[] = {SEEN_BLOOM, SEEN_COUNTING, SEEN_EXACT};
      cfg->dedupe_given = false;
      for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (strcmp(arg, seen_kind_name(kinds[i])) == 0) {
          cfg->dedupe = kinds[i];
          cfg->dedupe_given = true;
        }
      }
      if (!cfg->dedupe_given)
        USAGE("invalid value '%s' for --dedupe: use bloom, counting or exact", arg);
      break;
    }
    case OPT_EXPECT: {
      long n;
      if (!cli_parse_long(arg, 1, 1L << 40, &n))
        USAGE("invalid value '%s' for --expect: a whole number from 1", arg);
      cfg->expect = (uint64_t)n;
      break;
    }
    case OPT_QUEUE_DISK:
      if (!cli_parse_size(arg, &cfg->queue_disk))
        USAGE("invalid value '%s' for --queue-disk: bytes, with k, M or G, 0 for no limit", arg);
      break;
    case OPT_QUEUE_MEMORY: {
      long n;
      if (!cli_parse_long(arg, 1, 1L << 40, &n))
        USAGE("invalid value '%s' for --queue-memory: a whole number from 1", arg);
      cfg->queue_memory = (uint64_t)n;
      break;
    }
    case OPT_FP_RATE: {
      double p;
      /* below 1e-15 a filter would take over 70 bits a URL for no difference anyone sees */
      if (!cli_parse_seconds(arg, 1, &p) || p < 1e-15 || p >= 0.5)
        USAGE("invalid value '%s' for --fp-rate: a probability from 1e-15 to below 0.5", arg);
      cfg->fp_rate = p;
      break;
    }
    case 'o':
      free(own->output_file);
      if (!(own->output_file = strdup(arg))) /* standard output would be written instead */
        USAGE("out of memory");
      break;
    case OPT_JSONL:
      cfg->jsonl = true;
      break;
    case OPT_REPORT:
      if (!*arg)
        USAGE("invalid value '' for --report: a file, or - for standard output");
      free(own->report_file);
      if (!(own->report_file = strdup(arg)))
        USAGE("out of memory");
      cfg->report = true;
      break;
    case 'q':
      own->quiet = true;
      break;
    case 'v':
      cfg->verbose = true;
      break;
    case OPT_PROGRESS:
      own->progress = 1;
      break;
    case OPT_NO_PROGRESS:
      own->progress = 0;
      break;
    case 'h':
      cli_print_help(stdout);
      return CLI_EXIT_OK;
    case 'V':
      cli_print_version(stdout);
      return CLI_EXIT_OK;
    case ':':
      USAGE("option '%s' needs a value", argv[optind - 1]);
    default:
      if (optopt && optopt < 256)
        USAGE("unknown option '-%c'", optopt);
      USAGE("unknown option '%s'", argv[optind - 1]);
  }
  return CLI_RUN;
}

static cli_parse_result parse_options(int argc, char **argv, const struct getopt_spellings *how,
                                      struct crawl_config *cfg, struct cli_settings *own,
                                      struct cli_notes *notes, char *err, size_t err_size) {
  struct parse_state ps = {.cfg = cfg,
                           .own = own,
                           .notes = notes,
                           .err = err,
                           .err_size = err_size,
                           .argv = argv,
                           .user_agent = "crawl/" CRAWL_VERSION};
  int c;
  opterr = 0;
  optind = 1;
  if (cli_has_wget_np(argc, argv))
    USAGE("unknown option '-np': crawl's is --no-parent");
  cli_spell_wget_nv(argc, argv);
  int index;
  while ((index = -1, c = getopt_long(argc, argv, how->letters, how->longs, &index)) != -1) {
    const char *arg = optarg;
    int typed = index >= 0 ? abbreviation(argv, optind, &how->longs[index]) : 0;
    if (typed) /* the name alone: a value after '=' may be a secret */
      USAGE("unknown option '--%.*s': long options are given by their full names (--%s?)", typed,
            argv[optind - 1 - (optarg && optarg == argv[optind - 1])] + 2, how->longs[index].name);
    int rc = seed_scope_option(&ps, c, arg);
    if (rc == NOT_MINE)
      rc = limit_pace_option(&ps, c, arg);
    if (rc == NOT_MINE)
      rc = network_option(&ps, c, arg);
    if (rc == NOT_MINE)
      rc = keeping_output_option(&ps, c, arg);
    if (rc != CLI_RUN)
      return (cli_parse_result)rc;
  }
  for (int i = optind; i < argc; i++)
    if (!push_str(&cfg->seeds, &cfg->seed_count, argv[i]))
      USAGE("out of memory");
  /* `echo URL | crawl`: with no seed, the seeds come from standard input when it is no terminal
   * (as -i -); a crawl continued from --state has its own */
  if (!cfg->seed_count && !cfg->state_dir && !isatty(STDIN_FILENO) &&
      !read_seeds("-", cfg, notes, err, err_size))
    return CLI_USAGE;
  if (!cfg->seed_count && !cfg->state_dir)
    USAGE("no seed URL given");
  if (cfg->state_dir && cfg->seen_file)
    USAGE("--seen and --state do not go together: --state keeps the seen filter itself");
  if (!cfg->cluster && (cfg->nodes || ps.node_given))
    USAGE("--nodes and --node go with --cluster");
  if (cfg->cluster) {
    if (!cfg->nodes || !ps.node_given)
      USAGE("--cluster needs --nodes N and --node I (0 to N-1)");
    if (cfg->node >= cfg->nodes)
      USAGE("invalid value '%ld' for --node: a whole number from 0 to %ld", cfg->node,
            cfg->nodes - 1);
  }
  if (!set_proxies(cfg, ps.proxy, ps.noproxy, err, err_size))
    return CLI_USAGE;
  if (cfg->ip_delay > 0 && notes &&
      ((cfg->proxy_http && fetch_proxy_resolves(cfg->proxy_http)) ||
       (cfg->proxy_https && fetch_proxy_resolves(cfg->proxy_https))) &&
      !push_str(&notes->lines, &notes->count,
                "--ip-delay does not apply to hosts reached through a proxy that looks their "
                "names up: their addresses are not known here, so each host keeps its own gap"))
    USAGE("out of memory");
  if (ps.have_domains)
    cfg->scope_mode = URL_SCOPE_LIST;
  if (!ps.have_skip && core_list_parse(cli_default_skip_ext, &cfg->skip_ext))
    USAGE("out of memory");
  if (!ps.have_skip && cfg->js) /* --js reads scripts: .js files are fetched (a list given stays) */
    core_list_remove(&cfg->skip_ext, "js");
  if (!*ps.user_agent)
    USAGE("invalid value '' for --user-agent: it must not be empty");
  for (const char *p = ps.user_agent; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) /* CR or LF would add headers of its own */
      USAGE("invalid value for --user-agent: it must not hold control characters (CR, LF, ...)");
  if (!(cfg->user_agent = strdup(ps.user_agent)))
    USAGE("out of memory");
  cfg->product_token = parse_product_token(ps.user_agent);
  bool has_token = isalpha((unsigned char)ps.user_agent[0]) || ps.user_agent[0] == '_' ||
                   ps.user_agent[0] == '-';
  if (!cfg->product_token && has_token)
    USAGE("out of memory");
  if (!cfg->product_token)
    USAGE("invalid value '%s' for --user-agent: it must start with a product token (letters, "
          "'_' or '-')",
          ps.user_agent);
  return CLI_RUN;
}

static void free_strs(char **list, size_t count) {
  for (size_t i = 0; i < count; i++)
    free(list[i]);
  free(list);
}

static void free_regexes(struct crawl_regex_list *list) {
  for (size_t i = 0; i < list->count; i++)
    regfree(&list->items[i]);
  free(list->items);
  core_list_free(&list->texts);
}

void cli_config_free(struct crawl_config *cfg, struct cli_settings *own) {
  free_strs(cfg->seeds, cfg->seed_count);
  core_list_free(&cfg->domains);
  core_list_free(&cfg->exclude_domains);
  core_list_free(&cfg->accept_ext);
  core_list_free(&cfg->reject_ext);
  core_list_free(&cfg->skip_ext);
  free_regexes(&cfg->match);
  free_regexes(&cfg->exclude);
  free(cfg->user_agent);
  free(cfg->product_token);
  free_strs(cfg->headers, cfg->header_count);
  free_strs(cfg->resolves, cfg->resolve_count);
  free(cfg->dns_servers);
  free(cfg->proxy_http);
  free(cfg->proxy_https);
  free(cfg->noproxy);
  free(cfg->load_cookies);
  free(cfg->user);
  if (cfg->password) /* a secret: not left in freed memory */
    explicit_bzero(cfg->password, strlen(cfg->password));
  free(cfg->password);
  free(cfg->netrc_file);
  free(cfg->save_cookies);
  free(cfg->cacert);
  free(cfg->seen_file);
  free(cfg->state_dir);
  free(cfg->warc_file);
  free(cfg->cluster);
  memset(cfg, 0, sizeof(*cfg));
  free(own->output_file);
  free(own->report_file);
  *own = (struct cli_settings){0};
}
