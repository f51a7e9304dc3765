/* The configuration file (doc/behaviour.md, Configuration file): long options, one a line, read
 * before the command line, which therefore wins. It is turned into arguments ahead of the
 * command line's, so that one parse checks both alike; each argument from the file remembers
 * its FILE:LINE for the message when its value is refused. */
#include "cli/cli-int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define LINE_MAX_BYTES (64 * 1024) /* a regex or a header, not a file of seeds */

/* --config FILE (or --config=FILE) and --no-config, before any "--": the file to read, NULL for
 * none, or the default's place. */
static const char *chosen_file(int argc, char **argv, bool *none) {
  const char *file = NULL;
  *none = false;
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--no-config") == 0) {
      *none = true;
    } else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
      file = argv[++i];
      *none = false;
    } else if (strncmp(argv[i], "--config=", 9) == 0) {
      file = argv[i] + 9;
      *none = false;
    }
  }
  return file;
}

/* $XDG_CONFIG_HOME/crawl/config, else ~/.config/crawl/config; NULL when neither can be named. */
static char *default_file(void) {
  const char *xdg = getenv("XDG_CONFIG_HOME");
  const char *home = getenv("HOME");
  char *path = NULL;
  int n = xdg && xdg[0] == '/' ? asprintf(&path, "%s/crawl/config", xdg)
          : home && home[0]    ? asprintf(&path, "%s/.config/crawl/config", home)
                               : -1;
  return n < 0 ? NULL : path;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t len = strlen(s);
  while (len &&
         (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' || s[len - 1] == '\n'))
    s[--len] = '\0';
  return s;
}

/* Whether an option line holds a password: a login, a proxy's, or a credential header. */
static bool holds_secret(const char *name, const char *value) {
  if (!value)
    return false;
  if (strcmp(name, "user") == 0)
    return strchr(value, ':') != NULL;
  if (strcmp(name, "proxy") == 0) {
    const char *at = strchr(value, '@');
    const char *scheme = strstr(value, "://");
    const char *from = scheme ? scheme + 3 : value;
    return at && memchr(from, ':', (size_t)(at - from)) != NULL;
  }
  if (strcmp(name, "header") == 0)
    return strncasecmp(value, "authorization:", 14) == 0 ||
           strncasecmp(value, "proxy-authorization:", 20) == 0 ||
           strncasecmp(value, "cookie:", 7) == 0;
  return false;
}

static bool push(struct cli_args *a, char *arg, char *where) {
  char **argv = realloc(a->argv, ((size_t)a->argc + 2) * sizeof(*argv));
  if (argv)
    a->argv = argv;
  char **wheres = realloc(a->where, ((size_t)a->argc + 2) * sizeof(*wheres));
  if (wheres)
    a->where = wheres;
  if (!argv || !wheres)
    return false;
  a->argv[a->argc] = arg;
  a->where[a->argc] = where;
  a->argc++;
  a->argv[a->argc] = NULL;
  a->where[a->argc] = NULL;
  return true;
}

/* One line of the file: "name = value", "name" alone for an option without one, blank, or a
 * comment ('#' first). */
static cli_parse_result take_line(struct cli_args *a, const char *file, size_t line_no, char *line,
                                  bool private_file, char *err, size_t err_size) {
  char *s = trim(line);
  if (!*s || *s == '#')
    return CLI_RUN;
  char *eq = strchr(s, '=');
  char *value = NULL;
  if (eq) {
    *eq = '\0';
    value = trim(eq + 1);
  }
  char *name = trim(s);
  if (strncmp(name, "--", 2) == 0) /* written as on the command line: the same option */
    name += 2;
  if (!*name || name[0] == '-' || strpbrk(name, " \t")) {
    cli_set_err(err, err_size,
                "%s:%zu: not an option line: write one long option a line, such as "
                "'delay = 0.5'",
                file, line_no);
    return CLI_USAGE;
  }
  if (strcmp(name, "config") == 0 || strcmp(name, "no-config") == 0) {
    cli_set_err(err, err_size, "%s:%zu: --%s is for the command line", file, line_no, name);
    return CLI_USAGE;
  }
  if (holds_secret(name, value) && !private_file) {
    cli_set_err(
        err, err_size,
        "%s:%zu: a password in a file others can read: make it the owner's alone (chmod 600 "
        "'%s')",
        file, line_no, file);
    return CLI_USAGE;
  }
  char *arg = NULL, *where = NULL;
  if ((value ? asprintf(&arg, "--%s=%s", name, value) : asprintf(&arg, "--%s", name)) < 0)
    arg = NULL;
  if (!arg || asprintf(&where, "%s:%zu", file, line_no) < 0)
    where = NULL;
  if (!arg || !where || !push(a, arg, where)) {
    free(arg);
    free(where);
    cli_set_err(err, err_size, "out of memory");
    return CLI_NOMEM;
  }
  a->from_file++;
  return CLI_RUN;
}

static cli_parse_result read_file(struct cli_args *a, const char *file, bool must_exist, char *err,
                                  size_t err_size) {
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT && !must_exist)
    return CLI_RUN;
  /* any file that reads is one of options: /dev/null (none) or a pipe (--config <(...)), whose
   * lines are bounded as a file's are; a directory fails at its first read (EISDIR) */
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) != 0) {
    int why = errno;
    close(fd);
    fd = -1;
    errno = why;
  }
  FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
  char *line = f ? malloc(LINE_MAX_BYTES + 1) : NULL;
  if (!line) {
    int saved = f ? ENOMEM : errno;
    if (f)
      fclose(f);
    else if (fd >= 0)
      close(fd);
    cli_set_err(err, err_size, "configuration file '%s': %s", file, strerror(saved));
    return saved == ENOMEM ? CLI_NOMEM : CLI_USAGE;
  }
  bool private_file = (st.st_mode & 077) == 0;
  size_t line_no = 0;
  ssize_t len;
  cli_parse_result rc = CLI_RUN;
  errno = 0;
  while (rc == CLI_RUN && (len = core_read_line(f, line, LINE_MAX_BYTES, NULL)) >= 0) {
    line_no++;
    if ((size_t)len > LINE_MAX_BYTES || memchr(line, '\0', (size_t)len)) {
      cli_set_err(err, err_size, "%s:%zu: not an option line (%s)", file, line_no,
                  (size_t)len > LINE_MAX_BYTES ? "longer than 64 KiB" : "a NUL byte");
      rc = CLI_USAGE;
      break;
    }
    rc = take_line(a, file, line_no, line, private_file, err, err_size);
    errno = 0;
  }
  if (rc == CLI_RUN && ferror(f)) {
    cli_set_err(err, err_size, "configuration file '%s': %s", file,
                errno ? strerror(errno) : "cannot be read");
    rc = errno == ENOMEM ? CLI_NOMEM : CLI_USAGE;
  }
  free(line);
  fclose(f);
  return rc;
}

cli_parse_result cli_args_with_config(int argc, char **argv, struct cli_args *out, char *err,
                                      size_t err_size) {
  memset(out, 0, sizeof(*out));
  if (!push(out, argv[0], NULL)) {
    cli_set_err(err, err_size, "out of memory");
    return CLI_NOMEM;
  }
  bool none;
  const char *given = chosen_file(argc, argv, &none);
  char *fallback = NULL;
  cli_parse_result rc = CLI_RUN;
  if (!none) {
    fallback = given ? NULL : default_file();
    const char *file = given ? given : fallback;
    if (file)
      rc = read_file(out, file, given != NULL, err, err_size);
  }
  free(fallback);
  for (int i = 1; rc == CLI_RUN && i < argc; i++)
    if (!push(out, argv[i], NULL)) {
      cli_set_err(err, err_size, "out of memory");
      rc = CLI_NOMEM;
    }
  if (rc != CLI_RUN)
    cli_args_free(out);
  return rc;
}

void cli_args_free(struct cli_args *a) {
  for (size_t i = 1; i <= a->from_file && a->argv && a->where; i++) {
    free(a->argv[i]);
    free(a->where[i]);
  }
  free(a->argv);
  free(a->where);
  memset(a, 0, sizeof(*a));
}
