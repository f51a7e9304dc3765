/* The hosts file as a table (fetch/hosts.c): the lines as c-ares reads them, the address the
 * engine took from its answer, the bounds on what is read, the file read again when it changes,
 * the engine answering from the table without asking DNS, and a table that cannot be read again
 * for lack of memory leaving the one before it to answer. */
#include "fetch/fetch.h"
#include "tests/support/wrap_realloc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

/* The table's answer, or NULL: held until the next call (one assertion reads it). */
static const char *find_in(fetch_hosts *h, const char *name) {
  static char found[INET6_ADDRSTRLEN];
  return fetch_hosts_find(h, name, found) ? found : NULL;
}

/* The file of the table load_text made last: it stays while the table is asked (a table looks
 * at its file at each lookup, and one removed reads as empty), and goes with drop. */
static char text_path[64];

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* A new empty file at text_path, open. */
static int new_text_file(void) {
  snprintf(text_path, sizeof(text_path), "/tmp/crawl-test-hosts-XXXXXX");
  int fd = mkstemp(text_path);
  assert_true(fd >= 0);
  return fd;
}

static fetch_hosts *load_text(const char *text) {
  close(new_text_file());
  write_text(text_path, text);
  fetch_hosts *h = NULL;
  assert_int_equal(fetch_hosts_load(text_path, &h), CORE_OK);
  return h;
}

static void drop(fetch_hosts *h) {
  fetch_hosts_destroy(h);
  unlink(text_path);
}

static void answers_as_c_ares_did(void **state) {
  (void)state;
  fetch_hosts *h = load_text("# a comment line\n"
                             "\n"
                             "   \t\n"
                             "127.0.0.1\tlocalhost\n"
                             "  10.0.0.1  Mixed.Example  alias-one.example\talias-two.example\n"
                             "10.0.0.2 mixed.example later.example\n"
                             "fe80::1 both.example\n"
                             "10.1.1.1 both.example # comment.example\n"
                             "0:0:0:0:0:0:0:1 six.example\n"
                             "2001:db8::2 six.example\n"
                             "999.1.1.1 bad.example\n"
                             "010.1.1.1 octal.example\n"
                             "fe80::1%eth0 zone.example\n"
                             "10.0.0.9\n"
                             "10.0.0.10 #only-a-comment.example\n"
                             "10.0.0.11 last.example"); /* no newline at the end */
  static const struct {
    const char *name, *addr;
  } cases[] = {
      {"localhost", "127.0.0.1"},
      {"mixed.example", "10.0.0.1"}, /* the first line that names it */
      {"MIXED.EXAMPLE", "10.0.0.1"}, /* any case */
      {"alias-one.example", "10.0.0.1"},
      {"alias-two.example", "10.0.0.1"}, /* after a tab */
      {"later.example", "10.0.0.2"},
      {"both.example", "10.1.1.1"}, /* IPv4 first, though IPv6 came first */
      {"six.example", "::1"},       /* written as inet_ntop writes it */
      {"comment.example", NULL},
      {"bad.example", NULL},
      {"octal.example", NULL},
      {"zone.example", NULL},
      {"only-a-comment.example", NULL},
      {"#only-a-comment.example", NULL},
      {"last.example", "10.0.0.11"},
      {"nowhere.example", NULL},
      {"", NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
    const char *got = find_in(h, cases[i].name);
    if (!cases[i].addr && got)
      fail_msg("%s: %s, where no line names it", cases[i].name, got);
    if (cases[i].addr && (!got || strcmp(got, cases[i].addr) != 0))
      fail_msg("%s: %s, not %s", cases[i].name, got ? got : "none", cases[i].addr);
  }
  drop(h);
}

/* A blocklist's size: every name stays, long lines and long names too. */
static void holds_a_blocklist(void **state) {
  (void)state;
  size_t names = 50000, cap = names * 40 + 12000;
  char *text = malloc(cap), *p = text;
  assert_non_null(text);
  for (size_t i = 0; i < names; i++)
    p += sprintf(p, "0.0.0.0 ad%zu.tracker.example\n", i);
  p += sprintf(p, "10.2.3.4");
  for (int i = 0; i < 300; i++)
    p += sprintf(p, " n%d.many.example", i);
  *p++ = '\n';
  p += sprintf(p, "10.2.3.5 ");
  for (int i = 0; i < 600; i++)
    *p++ = 'a' + i % 26;
  p += sprintf(p, ".example\n");
  *p = '\0';
  fetch_hosts *h = load_text(text);
  char name[64];
  for (size_t i = 0; i < names; i += 997) {
    snprintf(name, sizeof(name), "ad%zu.tracker.example", i);
    assert_string_equal(find_in(h, name), "0.0.0.0");
  }
  assert_string_equal(find_in(h, "ad49999.tracker.example"), "0.0.0.0");
  assert_null(find_in(h, "ad50000.tracker.example"));
  assert_string_equal(find_in(h, "n299.many.example"), "10.2.3.4");
  char *long_name = strstr(text, "10.2.3.5 ") + 9;
  *strchr(long_name, '\n') = '\0';
  assert_string_equal(find_in(h, long_name), "10.2.3.5");
  drop(h);
  free(text);
}

/* However many names, a name the file lacks is looked for and not found: the table never fills. */
static void a_name_it_lacks_is_not_found_at_any_size(void **state) {
  (void)state;
  for (size_t names = 1; names <= 1024; names *= 2) {
    char *text = malloc(names * 32 + 1), *p = text;
    assert_non_null(text);
    for (size_t i = 0; i < names; i++)
      p += sprintf(p, "10.0.0.1 n%zu.example\n", i);
    *p = '\0';
    fetch_hosts *h = load_text(text);
    assert_string_equal(find_in(h, "n0.example"), "10.0.0.1");
    for (size_t i = names; i < names + 64; i++) {
      char name[32];
      snprintf(name, sizeof(name), "n%zu.example", i);
      assert_null(find_in(h, name));
    }
    drop(h);
    free(text);
  }
}

/* A first line longer than all the room the table began with: the room grows to hold it. */
static void a_long_first_name_is_held(void **state) {
  (void)state;
  size_t len = 5000;
  char *text = malloc(len + 64), *name = text + 9;
  assert_non_null(text);
  memcpy(text, "10.3.4.5 ", 9);
  for (size_t i = 0; i < len; i++)
    name[i] = (char)('a' + i % 26);
  strcpy(name + len, "\n10.3.4.6 short.example\n");
  fetch_hosts *h = load_text(text);
  name[len] = '\0';
  assert_string_equal(find_in(h, name), "10.3.4.5");
  assert_string_equal(find_in(h, "short.example"), "10.3.4.6");
  drop(h);
  free(text);
}

/* A line of 65,536 bytes is read; one byte more and the line is left out whole, never cut into
 * names that were not all written, and the next line is read as ever. */
static void an_overlong_line_is_left_out(void **state) {
  (void)state;
  enum { MAX = 65536 };
  static const char head[] = "10.5.0.1 cut.example ";
  static char text[MAX + 64], filler[MAX];
  for (size_t extra = 0; extra <= 1; extra++) {
    size_t fill = MAX + extra - (sizeof(head) - 1);
    memset(filler, 'a', fill);
    filler[fill] = '\0';
    snprintf(text, sizeof(text), "%s%s\n10.5.0.2 next.example\n", head, filler);
    assert_int_equal(strchr(text, '\n') - text, MAX + extra);
    fetch_hosts *h = load_text(text);
    if (extra) {
      assert_null(find_in(h, "cut.example"));
      assert_null(find_in(h, filler));
    } else {
      assert_string_equal(find_in(h, "cut.example"), "10.5.0.1");
      assert_string_equal(find_in(h, filler), "10.5.0.1");
    }
    assert_string_equal(find_in(h, "next.example"), "10.5.0.2");
    drop(h);
  }
  /* a line of three times the bound is left out to its end: what lies past twice the bound is
   * no line of its own */
  static char longer[3 * MAX + 64];
  memset(longer, 'a', 2 * MAX);
  memcpy(longer, head, sizeof(head) - 1);
  snprintf(longer + 2 * MAX, sizeof(longer) - 2 * MAX, "10.5.0.3 tail.example\n");
  fetch_hosts *h = load_text(longer);
  assert_null(find_in(h, "cut.example"));
  assert_null(find_in(h, "tail.example"));
  drop(h);
}

/* A file that never ends (a hosts file bound to a device) is read up to its bound and the crawl
 * goes on: the load returns, holding nothing, instead of taking all memory. */
static void a_file_that_never_ends_is_bounded(void **state) {
  (void)state;
  fetch_hosts *h = NULL;
  assert_int_equal(fetch_hosts_load("/dev/zero", &h), CORE_OK);
  assert_null(find_in(h, "localhost"));
  fetch_hosts_destroy(h);
}

/* The file changes under a running crawl (a user adds a line, a tool writes a new file in its
 * place, or removes it): the next lookup answers from the file as it is, as c-ares did, reading
 * it at every lookup. */
static void a_changed_file_is_read_again(void **state) {
  (void)state;
  fetch_hosts *h = load_text("10.6.0.1 moved.example\n");
  assert_string_equal(find_in(h, "moved.example"), "10.6.0.1");
  /* written again in place, one line longer */
  write_text(text_path, "10.6.0.2 moved.example\n10.6.0.3 added.example\n");
  assert_string_equal(find_in(h, "moved.example"), "10.6.0.2");
  assert_string_equal(find_in(h, "added.example"), "10.6.0.3");
  /* written again in place to the same size, as an editor saves it: its time alone changed (set
   * a second on, so that the file system's clock, however coarse, tells them apart) */
  write_text(text_path, "10.6.0.7 moved.example\n10.6.0.3 added.example\n");
  struct stat st;
  assert_int_equal(stat(text_path, &st), 0);
  struct timespec later[2] = {st.st_atim, {st.st_mtim.tv_sec + 1, st.st_mtim.tv_nsec}};
  assert_int_equal(utimensat(AT_FDCWD, text_path, later, 0), 0);
  assert_string_equal(find_in(h, "moved.example"), "10.6.0.7");
  /* a new file renamed into its place, of the same size as the last */
  char next[80];
  snprintf(next, sizeof(next), "%s.next", text_path);
  write_text(next, "10.6.0.4 moved.example\n10.6.0.5 later.example\n");
  assert_int_equal(rename(next, text_path), 0);
  assert_string_equal(find_in(h, "moved.example"), "10.6.0.4");
  assert_null(find_in(h, "added.example"));
  /* removed: nothing is named (DNS answers, as when there was no file) */
  unlink(text_path);
  assert_null(find_in(h, "moved.example"));
  write_text(text_path, "10.6.0.6 back.example\n");
  assert_string_equal(find_in(h, "back.example"), "10.6.0.6");
  drop(h);
}

/* Memory running out while a changed file is read again: the table read before still answers,
 * and the next lookup reads the file again. */
static void a_table_that_cannot_be_read_again_still_answers(void **state) {
  (void)state;
  fetch_hosts *h = load_text("10.6.0.1 kept.example\n");
  assert_string_equal(find_in(h, "kept.example"), "10.6.0.1");
  char text[2048] = "", line[96];
  for (int i = 0; i < 20; i++) { /* more names than the table's first room for text holds */
    snprintf(line, sizeof(line), "10.6.1.%d a-name-long-enough-to-need-more-room-%d.example\n", i,
             i);
    strcat(text, line);
  }
  write_text(text_path, text);
  wrap_realloc_fail_in(1);
  assert_string_equal(find_in(h, "kept.example"), "10.6.0.1");
  assert_false(wrap_realloc_pending());
  assert_string_equal(find_in(h, "a-name-long-enough-to-need-more-room-19.example"), "10.6.1.19");
  assert_null(find_in(h, "kept.example"));
  drop(h);
}

/* Two shards' lookups while the file is put in place again and again (a new file renamed over it,
 * as tools write it): each answer is one the file gave at some time, never a table read halfway
 * or one freed under it (ASan, TSan), and once the writes stop the last file answers. */
struct racing_lookups {
  fetch_hosts *hosts;
  atomic_bool stop;
  atomic_int bad;
  atomic_long lookups;
};

static void *look_up_until_stopped(void *arg) {
  struct racing_lookups *r = arg;
  char addr[INET6_ADDRSTRLEN];
  while (!atomic_load(&r->stop)) {
    if (!fetch_hosts_find(r->hosts, "steady.example", addr) || strcmp(addr, "10.9.9.9") != 0)
      atomic_fetch_add(&r->bad, 1);
    if (!fetch_hosts_find(r->hosts, "moving.example", addr) || strncmp(addr, "10.9.0.", 7) != 0)
      atomic_fetch_add(&r->bad, 1);
    atomic_fetch_add(&r->lookups, 1);
  }
  return NULL;
}

static void lookups_go_on_while_the_file_changes(void **state) {
  (void)state;
  fetch_hosts *h = load_text("10.9.0.0 moving.example\n10.9.9.9 steady.example\n");
  struct racing_lookups r = {.hosts = h};
  pthread_t threads[2];
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&threads[i], NULL, look_up_until_stopped, &r), 0);
  char next[80], text[96];
  snprintf(next, sizeof(next), "%s.next", text_path);
  for (int version = 1; version <= 200; version++) {
    snprintf(text, sizeof(text), "10.9.0.%d moving.example\n10.9.9.9 steady.example\n", version);
    write_text(next, text);
    assert_int_equal(rename(next, text_path), 0);
    /* each version is met by a lookup before the next is written: of three rounds ended from
     * now, one at least began after the rename (two threads, one round each under way) */
    long seen = atomic_load(&r.lookups);
    while (atomic_load(&r.lookups) < seen + 3)
      sched_yield();
  }
  atomic_store(&r.stop, true);
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_join(threads[i], NULL), 0);
  assert_int_equal(atomic_load(&r.bad), 0);
  assert_string_equal(find_in(h, "moving.example"), "10.9.0.200");
  drop(h);
}

/* The line the 256 MiB bound falls in is left out too: its start alone would be a name that was
 * never written. A sparse file: its zeros take no disk. */
static void the_line_at_the_bound_is_left_out(void **state) {
  (void)state;
  const off_t bound = (off_t)256 * 1024 * 1024;
  const char *line = "\n10.7.0.1 strad|dle.example\n";
  off_t at = bound - (off_t)(strchr(line, '|') - line); /* the bound falls at the '|' */
  int fd = new_text_file();
  assert_int_equal(ftruncate(fd, at), 0);
  assert_int_equal(pwrite(fd, "\n10.7.0.2 before.example", 24, at - 200), 24);
  assert_int_equal(pwrite(fd, line, strlen(line), at), (ssize_t)strlen(line));
  close(fd);
  fetch_hosts *h = NULL;
  assert_int_equal(fetch_hosts_load(text_path, &h), CORE_OK);
  assert_string_equal(find_in(h, "before.example"), "10.7.0.2"); /* read up to the bound */
  assert_null(find_in(h, "strad"));
  assert_null(find_in(h, "strad|dle.example"));
  drop(h);
}

static void a_missing_file_is_empty(void **state) {
  (void)state;
  fetch_hosts *h = NULL;
  assert_int_equal(fetch_hosts_load("/nonexistent/crawl-test/hosts", &h), CORE_OK);
  assert_null(find_in(h, "localhost"));
  fetch_hosts_destroy(h);
}

struct answer {
  int calls;
  core_rc rc;
  char addr[64];
};

static void on_resolved(void *arg, core_rc rc, const char *addr) {
  struct answer *a = arg;
  a->calls++;
  a->rc = rc;
  snprintf(a->addr, sizeof(a->addr), "%s", addr);
}

/* Whether this system's order of lookups asks the file first, as Debian's nsswitch.conf does. */
static bool files_first(void) {
  FILE *f = fopen("/etc/nsswitch.conf", "r");
  if (!f)
    return true; /* c-ares' default, "fb" */
  char line[512];
  bool first = true;
  while (fgets(line, sizeof(line), f))
    if (strncmp(line, "hosts:", 6) == 0)
      first = strncmp(line + 6 + strspn(line + 6, " \t"), "files", 5) == 0;
  fclose(f);
  return first;
}

/* The engine answers a name the file has at once, from the table it was lent, without a query:
 * its DNS server here is a port where nothing answers. */
static void the_engine_asks_the_table_first(void **state) {
  (void)state;
  if (!files_first())
    skip();
  fetch_hosts *h = load_text("10.9.8.7 only-in-the-file.test\n::1 v6.test\n");
  event_loop *loop;
  assert_int_equal(loop_create(&loop), CORE_OK);
  struct fetch_options opts = {.user_agent = "crawl-test",
                               .timeout = 10,
                               .connect_timeout = 5,
                               .concurrency = 4,
                               .per_host = 4,
                               .dns_servers = "127.0.0.1:9",
                               .hosts_file = h};
  fetch_engine *engine;
  assert_int_equal(fetch_engine_create(loop, &opts, &engine), CORE_OK);
  static const struct {
    const char *name, *addr;
  } names[] = {{"only-in-the-file.test", "10.9.8.7"},
               {"v6.test", "::1"},
               {"localhost", "127.0.0.1"}}; /* not in this file: the loopback all the same */
  for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
    struct answer a = {0};
    const char *now = NULL;
    assert_int_equal(fetch_resolve(engine, names[i].name, 80, on_resolved, &a, &now), CORE_OK);
    assert_null(now);
    assert_int_equal(a.calls, 1);
    assert_int_equal(a.rc, CORE_OK);
    assert_string_equal(a.addr, names[i].addr);
  }
  /* a name the file lacks goes to DNS: no answer before fetch_resolve returns */
  struct answer a = {0};
  const char *now = NULL;
  assert_int_equal(fetch_resolve(engine, "not-in-the-file.test", 80, on_resolved, &a, &now),
                   CORE_OK);
  assert_int_equal(a.calls, 0);
  fetch_engine_destroy(engine);
  loop_destroy(loop);
  drop(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(answers_as_c_ares_did),
      cmocka_unit_test(holds_a_blocklist),
      cmocka_unit_test(a_name_it_lacks_is_not_found_at_any_size),
      cmocka_unit_test(a_long_first_name_is_held),
      cmocka_unit_test(an_overlong_line_is_left_out),
      cmocka_unit_test(a_file_that_never_ends_is_bounded),
      cmocka_unit_test(the_line_at_the_bound_is_left_out),
      cmocka_unit_test(a_changed_file_is_read_again),
      cmocka_unit_test(a_table_that_cannot_be_read_again_still_answers),
      cmocka_unit_test(lookups_go_on_while_the_file_changes),
      cmocka_unit_test(a_missing_file_is_empty),
      cmocka_unit_test(the_engine_asks_the_table_first),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
