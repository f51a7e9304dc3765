/* Shared inside cli/: options, the output and the status line (the crawl's sink, main.c). */
#ifndef CRAWL_CLI_INT_H
#define CRAWL_CLI_INT_H

#include "core/core.h"
#include "crawl/crawl.h"
#include <stdio.h>

/* ---- options ---- */
/* CLI_NOMEM: memory ran out while parsing (err says so); no usage error, exit 1 */
typedef enum { CLI_RUN, CLI_EXIT_OK, CLI_USAGE, CLI_NOMEM } cli_parse_result;
/* Lines for standard error that parsing found worth saying (a seed file's lines skipped), for the
 * caller to show unless -q; freed with cli_notes_free. */
struct cli_notes {
  char **lines;
  size_t count;
};
void cli_notes_free(struct cli_notes *notes);
/* What the command line keeps for itself, beside the crawl's configuration: where the URLs go
 * and what standard error shows. */
struct cli_settings {
  char *output_file; /* -o; NULL: standard output */
  char *report_file; /* --report; "-": standard output */
  bool quiet;        /* -q: nothing on standard error but fatal errors */
  int progress;      /* --progress 1, --no-progress 0; -1: as the terminal allows */
};
/* Fills cfg and own from argv; notes (may be NULL) gets the lines worth saying. On CLI_USAGE a
 * one-line message is in err. */
/* from (may be NULL) says where each argument came from: a value refused on a line of the
 * configuration file is named by its FILE:LINE. seeds_kept: the seeds are had apart (a --state
 * crawl continued keeps its own), so -i FILE is passed over, not read. */
struct cli_args;
cli_parse_result cli_parse_options(int argc, char **argv, const struct cli_args *from,
                                   bool seeds_kept, struct crawl_config *cfg,
                                   struct cli_settings *own, struct cli_notes *notes, char *err,
                                   size_t err_size);
void cli_config_free(struct crawl_config *cfg, struct cli_settings *own);

/* groups.c: what the walk over the arguments (options.c) keeps from one option to the next,
 * beside the configuration, for the functions that take each group of options. */
struct cli_parse_state {
  struct crawl_config *cfg;
  struct cli_settings *own;
  struct cli_notes *notes;
  char *err;
  size_t err_size;
  char **argv;
  bool have_domains, have_skip, node_given;
  bool seeds_kept; /* -i passed over (cli_parse_options) */
  const char *user_agent, *proxy, *noproxy;
};

/* Takes option c (getopt's letter or the table's id) with its value arg into ps: CLI_RUN, or
 * CLI_USAGE with ps->err set (CLI_EXIT_OK for --help and --version). */
cli_parse_result cli_take_option(struct cli_parse_state *ps, int c, const char *arg);
/* Whether s holds a control byte (C0 or DEL; a tab passes when tab_allowed): one in a header's
 * value would end it or start another. */
bool cli_has_control(const char *s, bool tab_allowed);
/* Appends a copy of s to the list; false when memory runs out. */
bool cli_push_str(char ***list, size_t *count, const char *s);
/* Seeds from a file: one per line, blank lines and # comments skipped; so is a line that is no
 * seed URL, with a note naming it (as wget goes on past a bad line of its -i file): one bad line
 * of many does not end the run. */
bool cli_read_seeds(const char *path, struct crawl_config *cfg, struct cli_notes *notes, char *err,
                    size_t err_size);
/* A usage error from a function whose err and err_size are in scope: said, and returned. */
#define USAGE(...)                                                                                 \
  do {                                                                                             \
    cli_set_err(err, err_size, __VA_ARGS__);                                                       \
    return CLI_USAGE;                                                                              \
  } while (0)

/* ---- the configuration file ---- */
/* The arguments to parse: argv[0], the configuration file's options (from_file of them, each
 * with its FILE:LINE in where), then the command line's (where NULL). */
struct cli_args {
  int argc;
  char **argv;
  char **where;
  size_t from_file;
};
/* Reads the file --config names, none with --no-config, else $XDG_CONFIG_HOME/crawl/config or
 * ~/.config/crawl/config when it exists. CLI_USAGE (err says FILE:LINE) for a line that is no
 * option line or holds a password in a file others can read, or a --config file that cannot be
 * read. out borrows argv's strings; freed with cli_args_free. */
cli_parse_result cli_args_with_config(int argc, char **argv, struct cli_args *out, char *err,
                                      size_t err_size);
void cli_args_free(struct cli_args *args);
/* help.c: --help; crawl's version and those of libcurl, c-ares, libxml2 and libpsl in use;
 * the --skip-ext list of the defaults, a comma list. */
void cli_print_help(FILE *out);
void cli_print_version(FILE *out);
extern const char cli_default_skip_ext[];

/* values.c: a whole number from min to max; a number of seconds from 0 to max; a duration
 * (s, ms, m, h; a plain number is seconds) from 0 to max; bytes with k, M or G; a comma list
 * of extensions as wget users write them (pdf, .pdf, *.pdf), err naming opt when it is not. */
bool cli_parse_long(const char *s, long min, long max, long *out);
bool cli_parse_seconds(const char *s, double max, double *out);
bool cli_parse_duration(const char *s, double max, double *out);
bool cli_parse_size(const char *s, uint64_t *out);
bool cli_parse_ext_list(const char *arg, struct core_list *list, const char *opt, char *err,
                        size_t err_size);
/* values.c: err gets the message, cut to size. */
void cli_set_err(char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* wget.c: whether argv holds wget's -np (which getopt would read as -n p); wget's -nv given its
 * long name in argv; wget's -e COMMAND taken into cfg, or refused in err naming crawl's option. */
bool cli_has_wget_np(int argc, char **argv);
void cli_spell_wget_nv(int argc, char **argv);
bool cli_wget_command(const char *command, struct crawl_config *cfg, char *err, size_t err_size);

/* ---- the report of broken links (--report) ---- */
typedef struct cli_report cli_report;
/* path "-" is standard output; another is made (truncated) now. CORE_ESYS with err set when it
 * cannot be. */
core_rc cli_report_create(const char *path, cli_report **out, char *err, size_t err_size);
/* A failed URL's record (the engine's sink->broken), from any thread. */
core_rc cli_report_add(cli_report *report, const struct crawl_record *rec);
/* Writes the report: totals, then each page with its broken links. */
core_rc cli_report_write(cli_report *report, const struct crawl_stats *stats, bool interrupted);
const char *cli_report_name(const cli_report *report);
void cli_report_destroy(cli_report *report);

/* ---- the status line (--progress) ---- */
/* A line on standard error redrawn in place. When standard output is the same terminal, the
 * output hides it before writing URLs and shows it again after, so no line mixes the two. */
typedef struct cli_status cli_status;
/* Whether descriptors a and b are the same terminal. */
bool cli_same_terminal(int a, int b);
/* out_fd is the output's descriptor, to tell whether it shares standard error's terminal. */
core_rc cli_status_create(bool enabled, int out_fd, cli_status **out);
void cli_status_destroy(cli_status *status);
bool cli_status_enabled(const cli_status *status);
/* Draws text (one line, no newline) in place of the last one. */
void cli_status_set(cli_status *status, const char *text);
/* The status line's words for p: "1:05 312 pages, 48 pages/s, 1,200 queued (0 on disk), 3 hosts,
 * 1 error". */
void cli_status_text(const struct crawl_progress *p, char *text, size_t size);
/* Clears the line from the screen, when shown, so that other text can start at column 0. */
void cli_status_hide(cli_status *status);
/* Draws the last text again after cli_status_hide. */
void cli_status_show(cli_status *status);
/* Whether output to out_fd must hide the line first. */
bool cli_status_shares_terminal(const cli_status *status);
/* Draws text and leaves it on the screen, ending the line. */
void cli_status_finish(cli_status *status, const char *text);

/* ---- output ---- */
typedef struct cli_output cli_output;
/* fd is borrowed (stdout or the -o file); name ("standard output", or the file) is borrowed for
 * messages; status may be NULL and is borrowed. */
core_rc cli_output_create(int fd, const char *name, bool jsonl, cli_status *status,
                          cli_output **out);
/* Another output to first's descriptor, with its own buffer (one per shard): each flush writes
 * whole lines, never between another's, and a write error ends them all. Destroyed before first. */
core_rc cli_output_create_sibling(cli_output *first, cli_output **out);
void cli_output_destroy(cli_output *out);
/* Draws the status line (cli_status_set, or cli_status_finish when final), never in the middle of
 * a flush. */
void cli_output_set_status(cli_output *out, const char *text, bool final);
/* A line on standard error ("crawl: " and text), never in the middle of a flush or the status
 * line. */
void cli_output_note(cli_output *out, const char *text);
int cli_output_fd(const cli_output *out);
const char *cli_output_name(const cli_output *out);
/* Plain mode: one URL per line. */
core_rc cli_output_url(cli_output *out, const char *url);

core_rc cli_output_record(cli_output *out, const struct crawl_record *rec);
/* Writes what is buffered. CORE_ESYS on a write error: cli_output_errno says which. */
core_rc cli_output_flush(cli_output *out);
/* The reader went away (seen by the loop before any write failed): like EPIPE from write(). */
void cli_output_reader_gone(cli_output *out);
/* The reader went away (EPIPE): a quiet end, unlike any other write error. */
bool cli_output_closed(const cli_output *out);
/* The errno of the write that failed, or 0. */
int cli_output_errno(const cli_output *out);

#endif
