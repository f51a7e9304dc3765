/* The command line of the README's option table (doc/behaviour.md says how each behaves): the
 * defaults, getopt's spellings made from the table of options (table.c), the walk over the
 * arguments (each option taken by groups.c), what holds across options, the proxies from the
 * environment, and the configuration freed. */
#include "cli/cli-int.h"
#include "cli/table.h"
#include "fetch/fetch.h"
#include "parse/parse.h"

#include <getopt.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void cli_notes_free(struct cli_notes *notes) {
  for (size_t i = 0; i < notes->count; i++)
    free(notes->lines[i]);
  free(notes->lines);
  notes->lines = NULL;
  notes->count = 0;
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
                                      bool seeds_kept, struct crawl_config *cfg,
                                      struct cli_settings *own, struct cli_notes *notes, char *err,
                                      size_t err_size);

cli_parse_result cli_parse_options(int argc, char **argv, const struct cli_args *from,
                                   bool seeds_kept, struct crawl_config *cfg,
                                   struct cli_settings *own, struct cli_notes *notes, char *err,
                                   size_t err_size) {
  set_defaults(cfg, own); /* first: whatever fails, cli_config_free may follow */
  struct getopt_spellings how;
  if (!getopt_spellings_make(&how)) {
    cli_set_err(err, err_size, "out of memory");
    return CLI_NOMEM;
  }
  cli_parse_result parsed =
      parse_options(argc, argv, &how, seeds_kept, cfg, own, notes, err, err_size);
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

static cli_parse_result parse_options(int argc, char **argv, const struct getopt_spellings *how,
                                      bool seeds_kept, struct crawl_config *cfg,
                                      struct cli_settings *own, struct cli_notes *notes, char *err,
                                      size_t err_size) {
  struct cli_parse_state ps = {.cfg = cfg,
                               .own = own,
                               .notes = notes,
                               .err = err,
                               .err_size = err_size,
                               .argv = argv,
                               .seeds_kept = seeds_kept,
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
    cli_parse_result rc = cli_take_option(&ps, c, arg);
    if (rc != CLI_RUN)
      return rc;
  }
  for (int i = optind; i < argc; i++)
    if (!cli_push_str(&cfg->seeds, &cfg->seed_count, argv[i]))
      USAGE("out of memory");
  /* `echo URL | crawl`: with no seed, the seeds come from standard input when it is no terminal
   * (as -i -); a crawl continued from --state has its own */
  if (!cfg->seed_count && !cfg->state_dir && !isatty(STDIN_FILENO) &&
      !cli_read_seeds("-", cfg, notes, err, err_size))
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
      !cli_push_str(&notes->lines, &notes->count,
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
  if (cli_has_control(ps.user_agent, false)) /* CR or LF would add headers of its own */
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

static void free_regexes(struct crawl_regex_list *list) {
  for (size_t i = 0; i < list->count; i++)
    regfree(&list->items[i]);
  free(list->items);
  core_list_free(&list->texts);
}

void cli_config_free(struct crawl_config *cfg, struct cli_settings *own) {
  core_strs_free(cfg->seeds, cfg->seed_count);
  core_list_free(&cfg->domains);
  core_list_free(&cfg->exclude_domains);
  core_list_free(&cfg->accept_ext);
  core_list_free(&cfg->reject_ext);
  core_list_free(&cfg->skip_ext);
  free_regexes(&cfg->match);
  free_regexes(&cfg->exclude);
  free(cfg->user_agent);
  free(cfg->product_token);
  core_strs_free(cfg->headers, cfg->header_count);
  core_strs_free(cfg->resolves, cfg->resolve_count);
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
