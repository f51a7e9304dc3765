/* cli/help.c: --help, --version, and the default --skip-ext list they and the options share. */
#include "cli/cli-int.h"

#include <ares.h>
#include <curl/curl.h>
#include <libpsl.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Larbin's forbidden extensions plus today's equivalents (README, --skip-ext); not css, whose
 * links are read. */
const char cli_default_skip_ext[] =
    "tar,gz,tgz,zip,Z,rpm,deb,ps,dvi,pdf,png,jpg,jpeg,bmp,smi,tiff,gif,mov,avi,mpeg,mpg,mp3,qt,"
    "wav,ram,rm,jar,java,class,diff,doc,xls,ppt,mdb,rtf,exe,pps,so,psd,"
    "webp,svg,ico,js,woff,woff2,ttf,otf,mp4,webm,m4a,ogg,flac,iso,dmg,7z,rar,xz,bz2,zst,docx,"
    "xlsx,pptx,odt,apk,msi";

/* The default --skip-ext list, wrapped under its option in --help. */
static void print_skip_ext(FILE *out) {
  const char *indent = "                              ";
  size_t col = 0;
  fputs(indent, out);
  for (const char *p = cli_default_skip_ext; *p;) {
    size_t len = strcspn(p, ",");
    if (col && col + len + 1 > 50) {
      fprintf(out, "\n%s", indent);
      col = 0;
    }
    fprintf(out, "%s%.*s", col ? " " : "", (int)len, p);
    col += len + (col ? 1 : 0);
    p += len + (p[len] == ',');
  }
  fputc('\n', out);
}

static void print_help_keeping(FILE *out);

void cli_print_help(FILE *out) {
  fputs("Usage: crawl [OPTION]... [URL]...\n"
        "Crawl politely from the seed URLs and print every unique URL found, one a line.\n"
        "\n"
        "Seeds:\n"
        "  -i, --input FILE            read seeds from FILE, one per line ('-' is stdin)\n"
        "      --sitemaps              also seed from each in-scope host's sitemaps\n"
        "      --max-sitemaps N        sitemaps fetched per host, indexes included (1000)\n"
        "      --sitemap-depth N       sitemap index levels followed (2)\n"
        "Scope:\n"
        "      --scope host|domain|any\n"
        "                              the same host as a seed, its registrable domain,\n"
        "                              or any (domain)\n"
        "  -D, --domains LIST          hosts equal to or under these suffixes (replaces\n"
        "                              --scope)\n"
        "      --exclude-domains LIST  hosts under these suffixes are out of scope\n"
        "  -A, --accept-ext LIST       print only URLs with these extensions\n"
        "  -R, --reject-ext LIST       drop URLs with these extensions\n"
        "      --skip-ext LIST         never fetch these extensions (still printed);\n"
        "                              default:\n",
        out);
  print_skip_ext(out);
  fputs("                              (extensions as pdf, .pdf or *.pdf)\n"
        "      --match REGEX           keep only URLs matching REGEX (repeatable)\n"
        "      --exclude REGEX         drop URLs matching REGEX (repeatable)\n"
        "      --no-parent             only URLs at or below a seed's directory, on its\n"
        "                              host\n"
        "  -d, --depth N|inf           fetch pages up to N links from a seed (3); wget's\n"
        "                              -l, --level mean it too, and -r is taken (a no-op)\n"
        "  -n, --max-pages N           stop after N fetched pages\n"
        "      --max-pages-per-host N  at most N fetched pages per host\n"
        "      --max-url-length N      drop longer URLs (2048)\n"
        "      --max-path-repeat N     do not follow a path repeating a segment or a pair\n"
        "                              of them more than N times in a row (2; 0: off)\n"
        "      --max-path-segments N   do not follow a path of more segments (32; 0: off)\n"
        "      --max-query-variants N  per host, follow at most N query strings under one\n"
        "                              path grown one from another (1000; 0: off)\n"
        "Politeness (durations take s, ms, m, h: 500ms; a plain number is seconds):\n"
        "  -w, --delay SECONDS         gap between requests to one host (1); also --wait\n"
        "      --random-wait           each gap --delay times a random 0.5 to 1.5\n"
        "      --rate N                at most N requests a second in all\n"
        "      --max-time DURATION     end the crawl then; what is left is pending (exit\n"
        "                              0)\n"
        "      --delay-factor F        wait F times the last response time when longer\n"
        "                              (0)\n"
        "      --max-delay SECONDS     cap for Crawl-delay and the adaptive delay; a\n"
        "                              longer Retry-After fails its URL (30)\n"
        "      --ip-delay SECONDS      the same gap per server IP address (0)\n"
        "      --per-host N            requests in flight per host (1)\n"
        "  -c, --concurrency N         requests in flight in total (64)\n"
        "      --no-robots             ignore robots.txt\n"
        "  -U, --user-agent STRING     User-Agent header (crawl/" CRAWL_VERSION ")\n"
        "Fetching:\n"
        "  -T, --timeout SECONDS       whole-request limit (30)\n"
        "      --connect-timeout SECONDS\n"
        "                              (10)\n"
        "      --retries N             retries of transient failures (3)\n"
        "      --max-size BYTES        cut bodies at this size; k, M, G suffixes (10M)\n"
        "      --max-redirs N          redirect hops followed (5)\n"
        "      --check-skipped         HEAD requests for --skip-ext URLs: a link checker\n"
        "                              (exit 8 when any link is broken)\n"
        "      --fail-on-broken        exit 8 when any URL failed (a broken link)\n"
        "      --print-outside         print links out of scope too (--jsonl records them\n"
        "                              always, fate outside)\n"
        "      --check-fragments       a link's #fragment must name an id of its HTML\n"
        "                              target (exit 8 when one is broken)\n"
        "      --check-outside         request each link out of scope once (HEAD, then\n"
        "                              GET on 405/501): fetched or failed, its links not\n"
        "                              followed\n"
        "      --js                    links in scripts' strings too; .js files are\n"
        "                              fetched\n"
        "      --allow-private         follow redirects into private, link-local or\n"
        "                              loopback addresses from hosts outside them\n"
        "  -H, --header 'Name: value'  extra request header (repeatable)\n"
        "  -k, --insecure              do not verify TLS certificates\n"
        "      --cacert FILE           verify servers against the CA certificates in FILE\n"
        "      --resolve HOST:PORT:ADDR\n"
        "                              use ADDR for HOST:PORT (repeatable)\n"
        "      --dns-server ADDR[:PORT][,...]\n"
        "                              name servers to ask\n"
        "      --proxy URL             every request through this proxy: http, https,\n"
        "                              socks4, socks4a, socks5, socks5h ('' for none;\n"
        "                              else the environment's http_proxy, https_proxy,\n"
        "                              ALL_PROXY)\n"
        "      --noproxy LIST          hosts reached directly: names (with their\n"
        "                              subdomains), addresses, ADDR/BITS, or '*' (else\n"
        "                              no_proxy)\n"
        "      --load-cookies FILE     start with the cookies of FILE (Netscape format)\n"
        "      --save-cookies FILE     write every cookie to FILE at the end (mode 0600)\n"
        "      --no-cookies            neither keep nor send cookies\n"
        "      --user USER[:PASSWORD]  log in to the seeds' hosts (asks for a password\n"
        "                              left out, on the terminal)\n"
        "      --netrc, --netrc-file FILE\n"
        "                              logins for the seeds' hosts from ~/.netrc or FILE\n",
        out);
  print_help_keeping(out);
}

/* --help from "Dedupe:" on: what a crawl keeps, its scale, its output. */
static void print_help_keeping(FILE *out) {
  fputs("Dedupe:\n"
        "      --seen FILE             keep the seen-URL filter in FILE across runs, with\n"
        "                              the URLs a run left queued, which the next run\n"
        "                              fetches\n"
        "      --dedupe bloom|counting|exact\n"
        "                              the filter: Bloom, counting Bloom, fingerprints\n"
        "                              (bloom)\n"
        "      --expect N              expected distinct URLs, to size the filter\n"
        "                              (1000000)\n"
        "      --fp-rate P             false-positive bound of the filter (1e-7)\n"
        "      --queue-memory N        queued URLs kept in memory; the rest wait in a\n"
        "                              temporary file in $TMPDIR; pages fetched ahead of\n"
        "                              their depth stop at twice it (50000)\n"
        "      --queue-disk SIZE       the most that file may take; URLs past it are not\n"
        "                              queued (fate limit); k, M, G suffixes (4G; 0: no\n"
        "                              limit)\n"
        "State:\n"
        "      --state DIR             keep the whole crawl in DIR, crash-safely; 'crawl\n"
        "                              --state DIR' with no seeds continues it\n"
        "      --checkpoint SECONDS    seconds between checkpoints of --state (30), or\n"
        "                              between saves of --seen when given (60)\n"
        "      --warc FILE             also write every request and response to FILE as\n"
        "                              WARC/1.1 (each record gzipped when FILE ends in\n"
        "                              .gz)\n"
        "Scale:\n"
        "  -j, --threads N             shards, one event loop per thread, each owning a\n"
        "                              part of the hosts (the number of CPU cores)\n"
        "      --cluster redis://HOST[:PORT]/JOB\n"
        "                              share the crawl among processes through Redis,\n"
        "                              each owning a part of the hosts\n"
        "      --nodes N, --node I     the number of processes, and which one this is\n"
        "      --cluster-wait DURATION\n"
        "                              how long to wait for a Redis that cannot be\n"
        "                              reached or is loading, at start or lost mid-run\n"
        "                              (60s)\n"
        "Output:\n"
        "  -o, --output FILE           write there instead of standard output\n"
        "      --jsonl                 one JSON object per URL with its fate: url, from\n"
        "                              (the page it was found on), via, depth, fate, and\n"
        "                              as they apply status, type, bytes, ms (the whole\n"
        "                              request), location, error, linked_from, time (see\n"
        "                              crawl(1), RECORDS)\n"
        "      --report FILE           the broken links as Markdown, grouped by the page\n"
        "                              that holds them, at the end (-: standard output)\n"
        "  -q, --quiet                 nothing on standard error but fatal errors\n"
        "  -v, --verbose               one line per request on standard error\n"
        "      --progress, --no-progress\n"
        "                              live status line on standard error (default: when\n"
        "                              URLs go to a file or that terminal, not a pipe)\n"
        "      --config FILE           options read before these (default:\n"
        "                              $XDG_CONFIG_HOME/crawl/config,\n"
        "                              ~/.config/crawl/config)\n"
        "      --no-config             read no configuration file\n"
        "  -h, --help, -V, --version\n"
        "\n"
        "wget's spellings are taken where they mean the same: --spider, -nv,\n"
        "-e robots=off, -t, --accept-regex, --no-check-certificate and more\n"
        "(doc/wget.md).\n"
        "Each option and each count of the summary in full: man crawl, and the README and\n"
        "doc/ of crawl's source, whose issue tracker takes bug reports.\n",
        out);
}

void cli_print_version(FILE *out) {
  /* the libraries in use at run time, which may be newer than the ones built against */
  const curl_version_info_data *curl = curl_version_info(CURLVERSION_NOW);
  long xml = strtol(xmlParserVersion, NULL, 10); /* "21503" is 2.15.3 */
#ifdef CRAWL_LIBXML2_BUNDLED
  const char *xml_copy = " (bundled)"; /* built in from subprojects/, not the system's */
#else
  const char *xml_copy = "";
#endif
  fprintf(out, "crawl %s\nlibcurl %s, c-ares %s, libxml2 %ld.%ld.%ld%s, libpsl %s\n", CRAWL_VERSION,
          curl ? curl->version : "?", ares_version(NULL), xml / 10000, xml / 100 % 100, xml % 100,
          xml_copy, psl_get_version());
}
