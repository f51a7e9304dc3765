/* The status line: one line on standard error, redrawn in place (carriage return, then erase to
 * the end of the line). Anything else written to that terminal must start at column 0 and leave
 * the line whole: the -v notes, and standard output when it is the same terminal, hide the status
 * line first and show it again after. */
#include "cli/cli-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERASE_LINE "\r\033[K"

static const char *plural(uint64_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* The time first, as wget2's progress bar shows it. */
void cli_status_text(const struct crawl_progress *p, char *text, size_t size) {
  double elapsed = p->elapsed;
  unsigned long secs = elapsed > 0 ? (unsigned long)elapsed : 0;
  char clock[32];
  if (secs >= 3600)
    snprintf(clock, sizeof(clock), "%lu:%02lu:%02lu", secs / 3600, secs / 60 % 60, secs % 60);
  else
    snprintf(clock, sizeof(clock), "%lu:%02lu", secs / 60, secs % 60);
  int n =
      snprintf(text, size, "%s %llu %s, %.0f pages/s, %zu queued (%zu on disk), %zu %s, %llu %s",
               clock, (unsigned long long)p->pages, plural(p->pages, "page", "pages"),
               elapsed > 0 ? (double)p->pages / elapsed : 0.0, p->queued, p->spilled, p->hosts,
               plural(p->hosts, "host", "hosts"), (unsigned long long)p->failed,
               plural(p->failed, "error", "errors"));
  /* a polite crawl's time left, at least: the busiest host's queue at its pace, and that host
   * (a crawl without delays has no such floor worth a word) */
  if (p->left >= 1 && p->left_host[0] && n > 0 && (size_t)n < size) {
    unsigned long left = (unsigned long)(p->left + 0.5);
    char when[32];
    if (left >= 3600)
      snprintf(when, sizeof(when), "%lu:%02lu:%02lu", left / 3600, left / 60 % 60, left % 60);
    else
      snprintf(when, sizeof(when), "%lu:%02lu", left / 60, left % 60);
    snprintf(text + n, size - (size_t)n, ", %s left at least (%s)", when, p->left_host);
  }
}

struct cli_status {
  bool enabled;
  bool shares_terminal; /* standard output is standard error's terminal */
  bool shown;           /* the text is on the screen now */
  bool hidden;          /* cleared by cli_status_hide, to be drawn again */
  char text[256];
};

bool cli_same_terminal(int a, int b) {
  struct stat sa, sb;
  return isatty(a) && isatty(b) && fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
         sa.st_rdev == sb.st_rdev;
}

core_rc cli_status_create(bool enabled, int out_fd, cli_status **out) {
  cli_status *s = calloc(1, sizeof(*s));
  if (!s)
    return CORE_ENOMEM;
  s->enabled = enabled;
  s->shares_terminal = enabled && cli_same_terminal(out_fd, STDERR_FILENO);
  *out = s;
  return CORE_OK;
}

void cli_status_destroy(cli_status *status) {
  free(status);
}

bool cli_status_enabled(const cli_status *status) {
  return status && status->enabled;
}

bool cli_status_shares_terminal(const cli_status *status) {
  return status && status->shares_terminal;
}

static void draw(cli_status *status, const char *end) {
  /* cut to the terminal's width, asked at each draw so that a resize (SIGWINCH) counts from the
   * next one: a line that wrapped would leave a row behind at every redraw. The last column
   * stays free, as some terminals wrap on it */
  int len = (int)strlen(status->text);
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && len > ws.ws_col - 1)
    len = ws.ws_col - 1;
  /* one write, so a reader of the terminal never sees half a line */
  fprintf(stderr, ERASE_LINE "%.*s%s", len, status->text, end);
}

void cli_status_set(cli_status *status, const char *text) {
  if (!cli_status_enabled(status))
    return;
  snprintf(status->text, sizeof(status->text), "%s", text);
  if (status->hidden)
    return; /* drawn by cli_status_show */
  draw(status, "");
  status->shown = true;
}

void cli_status_hide(cli_status *status) {
  if (!status || !status->shown)
    return;
  fputs(ERASE_LINE, stderr);
  status->shown = false;
  status->hidden = true;
}

void cli_status_show(cli_status *status) {
  if (!status || !status->hidden)
    return;
  status->hidden = false;
  draw(status, "");
  status->shown = true;
}

void cli_status_finish(cli_status *status, const char *text) {
  if (!cli_status_enabled(status))
    return;
  snprintf(status->text, sizeof(status->text), "%s", text);
  draw(status, "\n");
  status->shown = status->hidden = false;
}
