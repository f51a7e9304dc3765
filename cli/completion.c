/* cli/completion.c: writes bash's completion of crawl to standard output, from the table of
 * options (table.c); meson runs it at build and installs what it writes, so the completion
 * offers every option --help names and completes each value as its row says. */
#include "cli/table.h"

#include <stdio.h>
#include <string.h>

/* The spellings of row i as a case pattern: "-d|--depth". */
static void print_spellings(const struct cli_option *o) {
  if (o->letter_too)
    printf("-%c|", o->id);
  printf("--%s", o->name);
}

/* One case of the value before the word completed: the rows that complete as kind (and, for
 * words, offer these words), then what to offer. */
static void print_case(enum cli_complete kind, const char *words, const char *reply) {
  int n = 0;
  for (size_t i = 0; i < cli_option_count; i++) {
    const struct cli_option *o = &cli_options[i];
    if (!o->value || o->complete != kind || (words && strcmp(o->words, words) != 0))
      continue;
    printf(n++ ? "|" : "    ");
    print_spellings(o);
  }
  if (!n)
    return;
  if (words)
    printf(")\n      COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n      return ;;\n", words);
  else if (reply)
    printf(")\n      COMPREPLY=($(compgen %s -- \"$cur\"))\n      return ;;\n", reply);
  else
    printf(")\n      return ;;\n");
}

int main(void) {
  printf("# bash completion for crawl, made from its table of options (cli/table.c)\n"
         "_crawl() {\n"
         "  local cur prev\n"
         "  cur=${COMP_WORDS[COMP_CWORD]}\n"
         "  prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  case $prev in\n");
  print_case(CLI_COMPLETE_FILE, NULL, "-f");
  print_case(CLI_COMPLETE_DIR, NULL, "-d");
  for (size_t i = 0; i < cli_option_count; i++) { /* each list of words once, at its first row */
    const struct cli_option *o = &cli_options[i];
    bool first = o->value && o->complete == CLI_COMPLETE_WORDS;
    for (size_t j = 0; first && j < i; j++)
      first = !(cli_options[j].value && cli_options[j].complete == CLI_COMPLETE_WORDS &&
                strcmp(cli_options[j].words, o->words) == 0);
    if (first)
      print_case(CLI_COMPLETE_WORDS, o->words, NULL);
  }
  print_case(CLI_COMPLETE_NONE, NULL, NULL); /* a value nothing completes: offer no option */
  printf("  esac\n"
         "  if [[ $cur == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"");
  size_t col = 0;
  for (size_t i = 0; i < cli_option_count; i++) {
    if (col > 80) {
      printf("\n      ");
      col = 0;
    }
    col += (size_t)printf("%s--%s", i ? " " : "", cli_options[i].name);
  }
  printf("\n     ");
  for (size_t i = 0; i < cli_option_count; i++)
    if (cli_options[i].letter_too)
      printf(" -%c", cli_options[i].id);
  printf("\" -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -F _crawl crawl\n");
  return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
