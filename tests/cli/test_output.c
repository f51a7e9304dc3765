/* What standard output gets (cli/output.c), built from that file and the status line's: whole
 * lines, a URL or a record each, even when memory runs out while one is written (the crawl then
 * ends, and what it printed up to there is read by a program: doc/behaviour.md, Failures); and
 * the status line's words and width. */
#include "cli/cli-int.h"
#include "tests/support/wrap_realloc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <cmocka.h>

/* An output to a temporary file, and what the file holds once it is flushed. */
struct sink {
  FILE *file;
  cli_output *out;
};

static void sink_open(struct sink *s, bool jsonl) {
  assert_non_null(s->file = tmpfile());
  assert_int_equal(cli_output_create(fileno(s->file), "test", jsonl, NULL, &s->out), CORE_OK);
}

/* The file's text (the caller frees it); the output is destroyed. */
static char *sink_close(struct sink *s) {
  assert_int_equal(cli_output_flush(s->out), CORE_OK);
  cli_output_destroy(s->out);
  struct stat st; /* the output writes to the descriptor, not through the stream */
  assert_int_equal(fstat(fileno(s->file), &st), 0);
  size_t size = (size_t)st.st_size;
  char *text = calloc(1, size + 1);
  assert_non_null(text);
  assert_int_equal(pread(fileno(s->file), text, size, 0), (ssize_t)size);
  fclose(s->file);
  return text;
}

/* A URL whose line needs more room only for its newline: its text fits in the buffer's first
 * 64 bytes after the first line, the newline does not. */
static void test_url_without_memory_is_not_printed_in_part(void **state) {
  (void)state;
  const char *first = "http://a.test/one"; /* 18 bytes with its newline */
  char fills[64];
  snprintf(fills, sizeof(fills), "http://a.test/%0*d", 45 - 14, 7); /* 45: 18 + 45 + NUL = 64 */
  assert_int_equal(strlen(fills), 45);
  struct sink s;
  sink_open(&s, false);
  assert_int_equal(cli_output_url(s.out, first), CORE_OK);
  wrap_realloc_fail_in(1);
  assert_int_equal(cli_output_url(s.out, fills), CORE_ENOMEM);
  assert_false(wrap_realloc_pending());
  assert_int_equal(cli_output_url(s.out, "http://a.test/three"), CORE_OK);
  char *text = sink_close(&s);
  assert_string_equal(text, "http://a.test/one\nhttp://a.test/three\n");
  free(text);
}

/* A URL longer than the whole buffer (16 MiB; --max-url-length allows 1 MiB) is refused, once,
 * where flushing and trying again would go on for ever; the output goes on. */
static void test_line_longer_than_the_buffer_is_refused(void **state) {
  (void)state;
  size_t len = 17u << 20;
  char *huge = malloc(len + 1);
  assert_non_null(huge);
  memcpy(huge, "http://a.test/", 14);
  memset(huge + 14, 'x', len - 14);
  huge[len] = '\0';
  struct sink s;
  sink_open(&s, false);
  assert_int_equal(cli_output_url(s.out, "http://a.test/one"), CORE_OK);
  assert_int_equal(cli_output_url(s.out, huge), CORE_ETOOLONG);
  assert_int_equal(cli_output_url(s.out, "http://a.test/two"), CORE_OK);
  char *text = sink_close(&s);
  assert_string_equal(text, "http://a.test/one\nhttp://a.test/two\n");
  free(text);
  free(huge);
}

/* A record's line, written whole with no failure. */
static char *record_line(const struct crawl_record *rec) {
  struct sink s;
  sink_open(&s, true);
  assert_int_equal(cli_output_record(s.out, rec), CORE_OK);
  return sink_close(&s);
}

/* Memory running out at each growth of the buffer while a record is written, one at a time: the
 * record is not printed at all, and the next one is printed whole after the lines before. */
static void test_record_without_memory_is_not_printed_in_part(void **state) {
  (void)state;
  const char *linked[] = {"http://a.test/", "http://a.test/other"};
  struct crawl_record head = {.url = "http://a.test/", .via = "seed", .settled = 1.7e9},
                      full = {.url = "http://a.test/page \"quoted\"",
                              .from = "http://a.test/",
                              .via = "a",
                              .depth = 1,
                              .fate = CRAWL_FATE_FAILED,
                              .cause = CRAWL_CAUSE_HTTP,
                              .status = 404,
                              .type = "text/html; charset=utf-8",
                              .bytes = 1234,
                              .ms = 5.5,
                              .error = "HTTP 404",
                              .linked_known = true,
                              .linked_from = linked,
                              .linked_from_n = 2,
                              .linked_count = 2,
                              .settled = 1.7e9},
                      tail = {.url = "http://a.test/last", .via = "a", .settled = 1.7e9};
  char *want_head = record_line(&head), *want_full = record_line(&full),
       *want_tail = record_line(&tail);
  assert_true(strlen(want_full) > 256); /* it grows the buffer several times */
  int failed = 0;
  for (long n = 1;; n++) {
    struct sink s;
    sink_open(&s, true);
    assert_int_equal(cli_output_record(s.out, &head), CORE_OK);
    wrap_realloc_fail_in(n);
    core_rc rc = cli_output_record(s.out, &full);
    bool failing = !wrap_realloc_pending();
    wrap_realloc_fail_in(0);
    assert_int_equal(rc, failing ? CORE_ENOMEM : CORE_OK);
    assert_int_equal(cli_output_record(s.out, &tail), CORE_OK);
    char *text = sink_close(&s);
    char want[4096];
    snprintf(want, sizeof(want), "%s%s%s", want_head, failing ? "" : want_full, want_tail);
    assert_string_equal(text, want);
    free(text);
    if (!failing)
      break;
    failed++;
  }
  assert_true(failed >= 2);
  free(want_head);
  free(want_full);
  free(want_tail);
}

/* The status line's words (cli/status.c): the counts in the singular and plural, and a polite
 * crawl's time left at least, with its host, only from a second on (less is no floor worth a
 * word), as a clock of minutes or of hours. */
static void test_status_line_words(void **state) {
  (void)state;
  char text[256];
  struct crawl_progress p = {.elapsed = 65, .pages = 130, .queued = 1200, .hosts = 3, .failed = 1};
  cli_status_text(&p, text, sizeof(text));
  assert_string_equal(text, "1:05 130 pages, 2 pages/s, 1200 queued (0 on disk), 3 hosts, 1 error");
  p = (struct crawl_progress){.elapsed = 3725, .pages = 1, .hosts = 1, .failed = 2};
  cli_status_text(&p, text, sizeof(text));
  assert_string_equal(text, "1:02:05 1 page, 0 pages/s, 0 queued (0 on disk), 1 host, 2 errors");
  p = (struct crawl_progress){.elapsed = 10, .pages = 10, .hosts = 1, .left = 0.6};
  snprintf(p.left_host, sizeof(p.left_host), "http://slow.test");
  cli_status_text(&p, text, sizeof(text));
  assert_null(strstr(text, "left"));
  p.left = 90.4;
  cli_status_text(&p, text, sizeof(text));
  assert_non_null(strstr(text, ", 1:30 left at least (http://slow.test)"));
  p.left = 7300;
  cli_status_text(&p, text, sizeof(text));
  assert_non_null(strstr(text, ", 2:01:40 left at least (http://slow.test)"));
  p.left_host[0] = '\0'; /* no host of a polite pace */
  cli_status_text(&p, text, sizeof(text));
  assert_null(strstr(text, "left"));
}

/* The status line drawn on a terminal 40 columns wide (a pseudo-terminal as standard error):
 * a line of 40 columns or more is cut to 39, the last left free as some terminals wrap on it, and a
 * shorter one is drawn whole; each draw first erases the row. */
static void test_status_line_fits_the_terminal(void **state) {
  (void)state;
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  assert_true(master >= 0);
  assert_int_equal(grantpt(master), 0);
  assert_int_equal(unlockpt(master), 0);
  int terminal = open(ptsname(master), O_RDWR | O_NOCTTY);
  assert_true(terminal >= 0);
  struct termios raw; /* no translation of the newline, so the bytes read are those written */
  assert_int_equal(tcgetattr(terminal, &raw), 0);
  cfmakeraw(&raw);
  assert_int_equal(tcsetattr(terminal, TCSANOW, &raw), 0);
  struct winsize size = {.ws_row = 24, .ws_col = 40};
  assert_int_equal(ioctl(terminal, TIOCSWINSZ, &size), 0);
  int saved_stderr = dup(STDERR_FILENO);
  assert_true(saved_stderr >= 0);
  assert_int_equal(dup2(terminal, STDERR_FILENO), STDERR_FILENO);

  cli_status *status = NULL;
  assert_int_equal(cli_status_create(true, terminal, &status), CORE_OK);
  char longer[101], shorter[] = "short";
  memset(longer, 'x', 100);
  longer[100] = '\0';
  cli_status_set(status, longer);
  cli_status_set(status, shorter);
  char forty[41]; /* one column too many */
  memset(forty, 'z', 40);
  forty[40] = '\0';
  cli_status_set(status, forty);
  longer[0] = 'y';
  cli_status_finish(status, longer);
  cli_status_destroy(status);
  assert_int_equal(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
  close(saved_stderr);

  /* what the terminal got, up to the finishing newline (a pseudo-terminal hands writes on a
   * moment later: wait for them) */
  char got[512];
  size_t len = 0;
  while (len < sizeof(got) - 1 && !memchr(got, '\n', len)) {
    struct pollfd p = {.fd = master, .events = POLLIN};
    assert_int_equal(poll(&p, 1, 10000), 1);
    ssize_t n = read(master, got + len, sizeof(got) - 1 - len);
    assert_true(n > 0);
    len += (size_t)n;
  }
  got[len] = '\0';
  char want[512];
  snprintf(want, sizeof(want), "\r\033[K%.39s\r\033[Kshort\r\033[K%.39s\r\033[Ky%.38s\n",
           longer + 1, forty, longer + 1);
  assert_string_equal(got, want);
  close(terminal);
  close(master);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_url_without_memory_is_not_printed_in_part),
      cmocka_unit_test(test_record_without_memory_is_not_printed_in_part),
      cmocka_unit_test(test_line_longer_than_the_buffer_is_refused),
      cmocka_unit_test(test_status_line_words),
      cmocka_unit_test(test_status_line_fits_the_terminal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
