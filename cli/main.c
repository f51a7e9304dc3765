/* crawl: a polite web crawler for the command line. */
#include "cli/cli-int.h"

#include <ares.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <libxml/parser.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void print_summary(const struct crawl_config *cfg, const struct cli_stats *s) {
  double rate = s->seconds > 0 ? (double)s->pages / s->seconds : 0;
  fprintf(stderr,
          "crawl: %llu pages fetched, %llu URLs discovered, %.1f MB in %.2f s (%.1f pages/s)\n",
          (unsigned long long)s->pages, (unsigned long long)s->discovered, (double)s->bytes / 1e6,
          s->seconds, rate);
  fprintf(stderr,
          "crawl: failures: %llu dns, %llu connect, %llu timeout, %llu tls, %llu http, %llu other; "
          "%llu robots exclusions; %llu retries; %llu too long; %llu not followed\n",
          (unsigned long long)s->failed_dns, (unsigned long long)s->failed_connect,
          (unsigned long long)s->failed_timeout, (unsigned long long)s->failed_tls,
          (unsigned long long)s->failed_http, (unsigned long long)s->failed_other,
          (unsigned long long)s->robots_excluded, (unsigned long long)s->retries,
          (unsigned long long)s->too_long, (unsigned long long)s->unparsable);
  if (s->spilled)
    fprintf(stderr, "crawl: %llu queued URLs waited on disk (past --queue-memory)\n",
            (unsigned long long)s->spilled);
  if (s->resumed)
    fprintf(stderr, "crawl: %llu URLs the last run left queued were queued again (--seen)\n",
            (unsigned long long)s->resumed);
  if (s->left)
    fprintf(stderr, "crawl: %llu queued URLs left for the next run (--seen)\n",
            (unsigned long long)s->left);
}

int main(int argc, char **argv) {
  /* curl converts IDN host names through the locale: it must be able to read UTF-8 */
  if (!setlocale(LC_CTYPE, "C.UTF-8"))
    setlocale(LC_CTYPE, "");
  struct crawl_config cfg;
  char err[512] = "";
  cli_parse_result parsed = cli_parse_options(argc, argv, &cfg, err, sizeof(err));
  if (parsed != CLI_RUN) {
    if (parsed == CLI_USAGE)
      fprintf(stderr, "crawl: %s\nTry 'crawl --help' for more information.\n", err);
    cli_config_free(&cfg);
    return parsed == CLI_USAGE ? 2 : 0;
  }
  /* a seed that is not a URL is a bad value, so a usage error */
  for (size_t i = 0; i < cfg.seed_count; i++) {
    struct core_url u;
    core_rc rc = core_url_seed(cfg.seeds[i], cfg.max_url_length, &u);
    if (rc) {
      fprintf(stderr,
              "crawl: invalid seed URL '%s': %s\nTry 'crawl --help' for more information.\n",
              cfg.seeds[i], core_rc_str(rc));
      cli_config_free(&cfg);
      return 2;
    }
    core_url_free(&u);
  }
  /* a reader that goes away shows up as EPIPE from write(), not as a signal */
  signal(SIGPIPE, SIG_IGN);
  int fd = STDOUT_FILENO;
  if (cfg.output_file) {
    fd = open(cfg.output_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      fprintf(stderr, "crawl: cannot open '%s': %s\n", cfg.output_file, strerror(errno));
      cli_config_free(&cfg);
      return 1;
    }
  }
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || ares_library_init(ARES_LIB_INIT_ALL)) {
    fprintf(stderr, "crawl: cannot initialise libcurl or c-ares\n");
    cli_config_free(&cfg);
    return 1;
  }
  xmlInitParser();
  cli_output *out = NULL;
  int status = 1;
  struct cli_stats stats;
  if (cli_output_create(fd, cfg.jsonl, &out) != CORE_OK) {
    fprintf(stderr, "crawl: out of memory\n");
  } else {
    cli_end end = cli_crawl(&cfg, out, &stats, err, sizeof(err));
    switch (end) {
      case CLI_END_DONE:
        status = 0;
        break;
      case CLI_END_PIPE:
        status = 0; /* `crawl ... | head` is a normal way to end */
        break;
      case CLI_END_SIGINT:
        status = 130;
        break;
      case CLI_END_SIGTERM:
        status = 143;
        break;
      case CLI_END_FATAL:
        fprintf(stderr, "crawl: %s\n", err);
        status = 1;
        break;
    }
    if (!cfg.quiet && end != CLI_END_PIPE && end != CLI_END_FATAL)
      print_summary(&cfg, &stats);
  }
  cli_output_destroy(out);
  if (fd != STDOUT_FILENO && close(fd) != 0 && status == 0) {
    fprintf(stderr, "crawl: cannot write '%s': %s\n", cfg.output_file, strerror(errno));
    status = 1;
  }
  xmlCleanupParser();
  ares_library_cleanup();
  curl_global_cleanup();
  cli_config_free(&cfg);
  return status;
}
