/* The options taken into the configuration, a group at a time (seeds and scope, limits and pace,
 * the network, what is kept and output), each value checked: a bad one is a usage error.
 * options.c walks the command line and hands each option here. */
#include "cli/cli-int.h"
#include "cli/table.h"
#include "cluster/cluster.h"
#include "fetch/fetch.h"
#include "parse/parse.h"

#include <ares.h>

#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <limits.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
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

bool cli_has_control(const char *s, bool tab_allowed) {
  for (const char *p = s; *p; p++)
    if (((unsigned char)*p < 0x20 && !(tab_allowed && *p == '\t')) || *p == 0x7f)
      return true;
  return false;
}

bool cli_push_str(char ***list, size_t *count, const char *s) {
  return core_strs_push(list, count, s) == CORE_OK;
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

/* A seed line's bound: the longest --max-url-length and room for the blanks around it. */
enum { SEED_LINE_MAX = (1 << 20) + 1024 };
/* Lines skipped are each said up to this many, then counted: a file of garbage (a binary file given
 * by mistake, /dev/urandom) costs a bounded list of notes, not one a line. */
enum { SEED_NOTES_MAX = 20 };

/* A note about the seeds, kept for main to show; false when out of memory. */
static bool note_seeds(struct cli_notes *notes, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool note_seeds(struct cli_notes *notes, const char *fmt, ...) {
  if (!notes)
    return true;
  char *note = NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&note, fmt, ap);
  va_end(ap);
  bool ok = n >= 0 && cli_push_str(&notes->lines, &notes->count, note);
  free(n >= 0 ? note : NULL);
  return ok;
}

bool cli_read_seeds(const char *path, struct crawl_config *cfg, struct cli_notes *notes, char *err,
                    size_t err_size) {
  FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
  const char *name = in == stdin ? "standard input" : path;
  if (!in) {
    cli_set_err(err, err_size, "cannot read seeds from '%s': %s", path, strerror(errno));
    return false;
  }
  /* lines are read with their bound as they are read, so that a file that never ends one
   * (/dev/zero) takes no more memory than a long URL */
  char *line = malloc(SEED_LINE_MAX + 1);
  ssize_t n;
  bool nomem = !line, refused = false;
  long number = 0, skipped = 0;
  while (!nomem && !refused && (n = core_read_line(in, line, SEED_LINE_MAX, NULL)) >= 0) {
    number++;
    if (n > SEED_LINE_MAX) {
      cli_set_err(err, err_size, "%s:%ld: a line longer than 1 MiB: not a file of seed URLs", name,
                  number);
      refused = true;
      break;
    }
    char *s = line;
    while (*s == ' ' || *s == '\t')
      s++;
    size_t len = (size_t)n - (size_t)(s - line);
    while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
      s[--len] = '\0';
    if (!len || s[0] == '#')
      continue;
    bool has_nul = memchr(s, '\0', len) != NULL; /* the URL would be cut there */
    core_rc rc = has_nul ? CORE_EURL : CORE_OK;
    struct url u;
    if (rc == CORE_OK && (rc = url_seed(s, cfg->max_url_length, &u)) == CORE_OK)
      url_free(&u);
    if (rc == CORE_OK)
      nomem = !cli_push_str(&cfg->seeds, &cfg->seed_count, s);
    else if (rc == CORE_ENOMEM)
      nomem = true;
    else if (++skipped <= SEED_NOTES_MAX)
      nomem = !note_seeds(notes, "%s:%ld: not a seed URL, skipped: '%.200s' (%s)", name, number, s,
                          has_nul ? "a NUL byte" : core_rc_str(rc));
  }
  if (!nomem && !refused && ferror(in)) {
    cli_set_err(err, err_size, "cannot read seeds from '%s': %s", name, strerror(errno));
    refused = true;
  }
  if (!nomem && !refused && skipped > SEED_NOTES_MAX)
    nomem = !note_seeds(notes, "%s: %ld more lines that are no seed URL skipped", name,
                        skipped - SEED_NOTES_MAX);
  free(line);
  if (in != stdin)
    fclose(in);
  if (nomem)
    cli_set_err(err, err_size, "out of memory");
  return !nomem && !refused;
}

/* --dns-server as c-ares reads it, checked before the crawl starts so that a bad value is a usage
 * error: a channel of its own takes the list (and is gone again). */
static bool dns_servers_valid(const char *csv) {
  /* c-ares reads a port of 0 as none given (53): a server written with :0 was not meant */
  for (const char *item = csv; item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
    size_t len = strcspn(item, ",");
    const char *close = memchr(item, ']', len);
    const char *colon =
        close ? memchr(close, ':', len - (size_t)(close - item)) : memchr(item, ':', len);
    if (colon && !close && memchr(colon + 1, ':', len - (size_t)(colon + 1 - item)))
      colon = NULL; /* a bare IPv6 address, no port */
    if (colon && strspn(colon + 1, "0") == len - (size_t)(colon + 1 - item))
      return false;
  }
  ares_channel channel;
  struct ares_options opts = {0};
  if (!*csv || ares_init_options(&channel, &opts, 0) != ARES_SUCCESS)
    return *csv != '\0'; /* no channel here: the engine, which makes one, says what is wrong */
  bool ok = ares_set_servers_ports_csv(channel, csv) == ARES_SUCCESS;
  ares_destroy(channel);
  return ok;
}

/* Whether a file an option names can be read, checked when the option is read rather than when
 * the crawl has begun (or at every TLS handshake): NULL, or why not. A directory opens, but no
 * file of cookies, certificates or logins is read from it. A pipe or socket (a FIFO, <(...)) is
 * refused: curl reads these files again (the certificates at a TLS connection, the logins at each
 * request, the cookies once checked and once loaded), and a pipe gives its bytes once, or blocks
 * the crawl when nobody writes it; opened without waiting, the check itself never blocks. */
static const char *unreadable(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return strerror(errno);
  struct stat st;
  int why = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
  bool pipe = !why && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
  close(fd);
  if (pipe)
    return "a pipe, read only once, where a file read again is needed";
  return why ? strerror(why) : NULL;
}

/* A list's items hold no white space: "png jpg" is a list typed with a space for a comma. */
static bool spaceless(const struct core_list *list) {
  for (size_t i = 0; i < list->count; i++)
    if (strpbrk(list->items[i], " \t\n"))
      return false;
  return true;
}

/* What a header's name is made of: a token (RFC 9110, 5.6.2). */
static const char token_chars[] =
    "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* An option group's answer for an option that is not one of its own. */
enum { NOT_MINE = -1 };

/* Options of seeds, sitemaps, scope and filters: NOT_MINE for the others. */
static int seed_scope_option(struct cli_parse_state *ps, int c, const char *arg) {
  struct crawl_config *cfg = ps->cfg;
  struct cli_notes *notes = ps->notes;
  char *err = ps->err;
  size_t err_size = ps->err_size;
  switch (c) {
    case 'i':
      if (!ps->seeds_kept && !cli_read_seeds(arg, cfg, notes, err, err_size))
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
static int limit_pace_option(struct cli_parse_state *ps, int c, const char *arg) {
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
static int network_option(struct cli_parse_state *ps, int c, const char *arg) {
  struct crawl_config *cfg = ps->cfg;
  char *err = ps->err;
  size_t err_size = ps->err_size;
  switch (c) {
    case OPT_MAX_SIZE:
      if (!cli_parse_size(arg, &cfg->max_size))
        USAGE("invalid value '%s' for --max-size: bytes, 1 or more, with an optional k, M or G",
              arg);
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
      /* no control byte but a tab (RFC 9110, 5.5): a line break would end the header there and
       * start another, a NUL cut it short. Such a value is not echoed */
      if (cli_has_control(arg, true))
        USAGE("invalid value for --header: it holds a control byte (a line break, say), which no "
              "header may");
      if (!strchr(arg, ':') || arg[0] == ':')
        USAGE("invalid value '%s' for --header: use 'Name: value'", arg);
      /* a field name is a token (RFC 9110, 5.1): a space in it is a header servers refuse (400)
       * on every request, or read as something else */
      if (strspn(arg, token_chars) != (size_t)(strchr(arg, ':') - arg))
        USAGE("invalid value '%s' for --header: the name before ':' is letters, digits and "
              "!#$%%&'*+-.^_`|~ alone",
              arg);
      if (!cli_push_str(&cfg->headers, &cfg->header_count, arg))
        USAGE("out of memory");
      break;
    case 'k':
      cfg->insecure = true;
      break;
    case OPT_CACERT: {
      const char *why = unreadable(arg);
      if (why)
        USAGE("invalid value '%s' for --cacert: %s", arg, why);
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
      if (!cli_push_str(&cfg->resolves, &cfg->resolve_count, arg))
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
      const char *why = unreadable(arg);
      if (why)
        USAGE("invalid value '%s' for --netrc-file: %s", arg, why);
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
static int keeping_output_option(struct cli_parse_state *ps, int c, const char *arg) {
  struct crawl_config *cfg = ps->cfg;
  struct cli_settings *own = ps->own;
  char *err = ps->err;
  size_t err_size = ps->err_size;
  char **argv = ps->argv;
  switch (c) {
    case OPT_LOAD_COOKIES: {
      const char *why = unreadable(arg);
      if (why)
        USAGE("invalid value '%s' for --load-cookies: %s", arg, why);
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

cli_parse_result cli_take_option(struct cli_parse_state *ps, int c, const char *arg) {
  int rc = seed_scope_option(ps, c, arg);
  if (rc == NOT_MINE)
    rc = limit_pace_option(ps, c, arg);
  if (rc == NOT_MINE)
    rc = network_option(ps, c, arg);
  if (rc == NOT_MINE)
    rc = keeping_output_option(ps, c, arg);
  return (cli_parse_result)rc;
}
