/* The table of options (cli/table.c) and what is made from it: getopt's spellings are unique,
 * --help (cli/help.c) shows every row at 80 columns, and the man page (doc/crawl.1) heads an
 * entry with each option under the section --help puts it in, as --help spells its value, and
 * names no option the table lacks. A wget spelling --help leaves out is in doc/wget.md. */
#include "cli/cli-int.h"
#include "cli/table.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* A file of the source tree (meson's test environment names its root), read whole. */
static char *read_source(const char *relative) {
  const char *root = getenv("CRAWL_SOURCE");
  assert_non_null(root);
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", root, relative);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  char *text = NULL;
  size_t size = 0;
  FILE *copy = open_memstream(&text, &size);
  assert_non_null(copy);
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    assert_int_equal(fwrite(buf, 1, n, copy), n);
  fclose(f);
  assert_int_equal(fclose(copy), 0);
  return text;
}

static char *help_text(void) {
  FILE *out = tmpfile();
  assert_non_null(out);
  cli_print_help(out);
  long size = ftell(out);
  assert_true(size > 0);
  rewind(out);
  char *text = malloc((size_t)size + 1);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)size, out), (size_t)size);
  text[size] = '\0';
  fclose(out);
  return text;
}

static bool shown(const struct cli_option *o) {
  return o->help || o->joined;
}

static void test_spellings_are_unique(void **state) {
  (void)state;
  assert_true(cli_option_count > 80);
  for (size_t i = 0; i < cli_option_count; i++) {
    const struct cli_option *o = &cli_options[i];
    assert_true(o->name && o->name[0] && o->name[0] != '-');
    if (o->letter_too)
      assert_true(o->id < 128 && isalpha(o->id));
    else
      assert_true(o->id >= OPT_SITEMAPS || isalpha(o->id));
    assert_true(o->complete != CLI_COMPLETE_WORDS || (o->words && o->value));
    assert_true(o->section < CLI_SECTIONS);
    if (o->joined) /* it joins a row shown before it, in the same section */
      assert_true(i > 0 && shown(&cli_options[i - 1]) && cli_options[i - 1].section == o->section);
    for (size_t j = 0; j < i; j++) {
      const struct cli_option *p = &cli_options[j];
      if (strcmp(p->name, o->name) == 0)
        fail_msg("--%s is in the table twice", o->name);
      if (p->letter_too && o->letter_too && p->id == o->id)
        fail_msg("-%c spells --%s and --%s", o->id, p->name, o->name);
      if (p->id == o->id && !p->value != !o->value) /* one switch case takes both */
        fail_msg("--%s and --%s share a case, one with a value", p->name, o->name);
    }
  }
}

static void test_help_shows_every_row(void **state) {
  (void)state;
  char *help = help_text();
  char *wget = read_source("doc/wget.md");
  int section = -1;
  const char *at = help;
  for (char *line = help, *end; *line; line = end + (*end == '\n')) {
    end = line + strcspn(line, "\n");
    if (end - line > 80)
      fail_msg("--help is wider than 80 columns: %.*s", (int)(end - line), line);
  }
  for (size_t i = 0; i < cli_option_count; i++) {
    const struct cli_option *o = &cli_options[i];
    char spelled[160];
    if (!shown(o)) { /* another row's text names it, or wget's table does */
      char letter[8];
      snprintf(spelled, sizeof(spelled), "--%s", o->name);
      snprintf(letter, sizeof(letter), "-%c", o->id);
      if (!strstr(help, spelled) && !strstr(wget, spelled) &&
          !(o->letter_too && strstr(help, letter)))
        fail_msg("%s is neither in --help nor in doc/wget.md", spelled);
      continue;
    }
    if ((int)o->section != section) { /* the heading, after the rows before it */
      section = (int)o->section;
      char heading[128];
      snprintf(heading, sizeof(heading), "\n%s", cli_sections[section].name);
      const char *found = strstr(at, heading);
      if (!found)
        fail_msg("--help has no heading %s where --%s is", heading + 1, o->name);
      at = found;
    }
    if (o->letter_too)
      snprintf(spelled, sizeof(spelled), "-%c, --%s%s%s", o->id, o->name, o->value ? " " : "",
               o->value ? o->value : "");
    else
      snprintf(spelled, sizeof(spelled), "--%s%s%s", o->name, o->value ? " " : "",
               o->value ? o->value : "");
    const char *found = strstr(at, spelled);
    if (!found)
      fail_msg("--help lacks '%s' in its order", spelled);
    at = found;
  }
  /* each default --skip-ext extension, as a word */
  for (const char *ext = cli_default_skip_ext; *ext;) {
    size_t n = strcspn(ext, ",");
    char word[40];
    snprintf(word, sizeof(word), " %.*s", (int)n, ext);
    const char *hit = strstr(help, word);
    while (hit && (hit[n + 1] != ' ' && hit[n + 1] != '\n'))
      hit = strstr(hit + 1, word);
    if (!hit)
      fail_msg("--help lacks the skipped extension %s", word + 1);
    ext += n + (ext[n] == ',');
  }
  free(wget);
  free(help);
}

/* The man page's text with its font changes and escapes gone: "\fB\-\-input\fR" is
 * "--input", quotes dropped (a value is quoted one way there and another in --help). */
static void plain(const char *in, char *out, size_t size) {
  size_t n = 0;
  for (const char *p = in; *p && *p != '\n' && n + 1 < size; p++) {
    if (p[0] == '\\' && p[1] == 'f' && p[2]) {
      p += 2;
      continue;
    }
    if (p[0] == '\\' && p[1] == '-') {
      out[n++] = '-';
      p++;
      continue;
    }
    if (*p == '"' || *p == '\'')
      continue;
    out[n++] = *p;
  }
  out[n] = '\0';
}

/* Whether a heading (plain) names --name as a whole word: not --name-more. */
static const char *names(const char *heading, const char *spelling) {
  size_t len = strlen(spelling);
  for (const char *hit = strstr(heading, spelling); hit; hit = strstr(hit + 1, spelling)) {
    bool starts = hit == heading || hit[-1] == ' ';
    bool ends = !isalnum((unsigned char)hit[len]) && hit[len] != '-';
    if (starts && ends)
      return hit;
  }
  return NULL;
}

static void test_man_page_heads_every_option(void **state) {
  (void)state;
  char *man = read_source("doc/crawl.1");
  char *options = strstr(man, "\n.SH OPTIONS\n");
  assert_non_null(options);
  char *after = strstr(options + 1, "\n.SH ");
  assert_non_null(after);
  *after = '\0';
  enum { MOST = 200 };
  char headings[MOST][512];
  int heading_section[MOST];
  size_t count = 0;
  int section = -1;
  for (char *line = options + 1; line && *line; line = strchr(line, '\n'), line += !!line) {
    if (strncmp(line, ".SS ", 4) == 0) {
      section = -1;
      for (int s = 0; s < CLI_SECTIONS; s++)
        if (strncmp(line + 4, cli_sections[s].name, strlen(cli_sections[s].name)) == 0)
          section = s;
      if (section < 0)
        fail_msg("the man page's section '%.20s' is none of --help's", line + 4);
    } else if (strncmp(line, ".TP\n", 4) == 0 && count < MOST) {
      plain(line + 4, headings[count], sizeof(headings[count]));
      heading_section[count++] = section;
    }
  }
  assert_true(count > 60);
  for (size_t i = 0; i < cli_option_count; i++) {
    const struct cli_option *o = &cli_options[i];
    char spelled[128];
    snprintf(spelled, sizeof(spelled), "--%s", o->name);
    size_t h = 0;
    const char *hit = NULL;
    for (; h < count && !(hit = names(headings[h], spelled)); h++)
      ;
    if (!shown(o)) /* a spelling the man page may name in another entry's text */
      continue;
    if (!hit)
      fail_msg("the man page heads no entry with %s", spelled);
    if (heading_section[h] != (int)o->section)
      fail_msg("%s is under %s in --help but not in the man page", spelled,
               cli_sections[o->section].name);
    if (o->value) {
      char value[128];
      plain(o->value, value, sizeof(value));
      if (strncmp(hit + strlen(spelled), " ", 1) != 0 ||
          strncmp(hit + strlen(spelled) + 1, value, strlen(value)) != 0)
        fail_msg("the man page spells '%s' as '%s'", spelled, headings[h]);
    }
    char letter[8];
    snprintf(letter, sizeof(letter), "-%c", o->id);
    if (o->letter_too && !names(headings[h], letter))
      fail_msg("the man page's '%s' lacks %s", headings[h], letter);
  }
  /* and names no option the table lacks */
  for (size_t h = 0; h < count; h++)
    for (const char *p = strstr(headings[h], "--"); p; p = strstr(p + 2, "--")) {
      size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
      bool known = false;
      for (size_t i = 0; i < cli_option_count && !known; i++)
        known = strlen(cli_options[i].name) == len && strncmp(cli_options[i].name, p + 2, len) == 0;
      if (!known)
        fail_msg("the man page heads an entry with --%.*s, which crawl does not take", (int)len,
                 p + 2);
    }
  free(man);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spellings_are_unique),
      cmocka_unit_test(test_help_shows_every_row),
      cmocka_unit_test(test_man_page_heads_every_option),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
