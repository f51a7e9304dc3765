/* cli/help.c: --help (from the table of options, table.c), --version, and the default
 * --skip-ext list --help and the options share. */
#include "cli/cli-int.h"
#include "cli/table.h"

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

/* --help's columns: a description starts at DESC_COLUMN and its lines end by LINE_WIDTH. */
enum { DESC_COLUMN = 30, LINE_WIDTH = 80 };

/* Writes text's words from column *col on, wrapped at LINE_WIDTH to DESC_COLUMN; a word of
 * CLI_HELP_SKIP_EXT is the default --skip-ext list, one word an extension. */
static void print_words(FILE *out, const char *text, size_t *col) {
  while (*text) {
    text += strspn(text, " ");
    size_t len = strcspn(text, " ");
    if (!len)
      break;
    if (len == strlen(CLI_HELP_SKIP_EXT) && strncmp(text, CLI_HELP_SKIP_EXT, len) == 0) {
      for (const char *ext = cli_default_skip_ext; *ext;) {
        size_t n = strcspn(ext, ",");
        char word[32];
        snprintf(word, sizeof(word), "%.*s", (int)n, ext);
        print_words(out, word, col);
        ext += n + (ext[n] == ',');
      }
    } else {
      bool first = *col == DESC_COLUMN;
      if (!first && *col + 1 + len > LINE_WIDTH) {
        fprintf(out, "\n%*s", DESC_COLUMN, "");
        *col = DESC_COLUMN;
        first = true;
      }
      fprintf(out, "%s%.*s", first ? "" : " ", (int)len, text);
      *col += len + !first;
    }
    text += len;
  }
}

/* An option's spellings as --help heads its line: "  -d, --depth N|inf". */
static size_t print_head(FILE *out, const struct cli_option *o, bool first) {
  int n;
  if (o->letter_too)
    n = fprintf(out, first ? "  -%c, " : ", -%c, ", o->id);
  else if (first)
    n = fprintf(out, "      ");
  else
    n = fprintf(out, ", ");
  size_t width = n > 0 ? (size_t)n : 0; /* the columns written */
  n = fprintf(out, o->value ? "--%s %s" : "--%s", o->name, o->value);
  return width + (n > 0 ? (size_t)n : 0);
}

void cli_print_help(FILE *out) {
  fputs("Usage: crawl [OPTION]... [URL]...\n"
        "Crawl politely from the seed URLs and print every unique URL found, one a line.\n"
        "\n",
        out);
  int section = -1;
  for (size_t i = 0; i < cli_option_count; i++) {
    const struct cli_option *o = &cli_options[i];
    if (!o->help)
      continue;
    if ((int)o->section != section) {
      section = (int)o->section;
      const struct cli_section *s = &cli_sections[section];
      fprintf(out, s->note ? "%s (%s):\n" : "%s:\n", s->name, s->note);
    }
    size_t col = print_head(out, o, true);
    for (size_t j = i + 1; j < cli_option_count && cli_options[j].joined; j++)
      col += print_head(out, &cli_options[j], false);
    if (!*o->help) {
      fputc('\n', out);
      continue;
    }
    if (col + 2 > DESC_COLUMN)
      fputc('\n', out), col = 0;
    fprintf(out, "%*s", (int)(DESC_COLUMN - col), "");
    col = DESC_COLUMN;
    print_words(out, o->help, &col);
    fputc('\n', out);
  }
  fputs("\n"
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
