/* frontier/park.c: idle hosts parked in the host file and brought back as they were. */
#include "frontier/frontier.h"
#include "seen/seen.h"

#include <errno.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "temp_fd.h"
#include "tests/support/wrap_calloc.h"

/* A host's data as an owner would keep it: a count and the origin it was made for. */
struct data {
  long value;
  char origin[64];
};

/* The owner: which hosts may leave, and how often it was asked and made data again. */
struct owner {
  bool refuse_save; /* save says no */
  const char *keep; /* this host's leaves says no */
  int asked, loaded;
};

static bool leaves(void *arg, frontier_host *host) {
  struct owner *o = arg;
  o->asked++;
  return !o->keep || strcmp(o->keep, frontier_host_origin(host)) != 0;
}

static bool save(void *arg, const void *data, struct core_buf *out) {
  struct owner *o = arg;
  return !o->refuse_save && core_buf_add(out, data, sizeof(struct data)) == CORE_OK;
}

static bool load(void *arg, frontier_host *host, void *data, const void *bytes, size_t len) {
  struct owner *o = arg;
  assert_int_equal(len, sizeof(struct data));
  assert_ptr_equal(data, frontier_host_data(host));
  assert_ptr_equal(frontier_host_of_data(data), host);
  struct data *d = data;
  assert_int_equal(d->value, 0); /* zeroed, for the owner to fill */
  memcpy(d, bytes, sizeof(*d));
  assert_string_equal(d->origin, frontier_host_origin(host));
  o->loaded++;
  return true;
}

static seen_filter *the_seen;

static frontier *new_frontier(struct owner *o) {
  struct frontier_options cfg = {
      .delay = 1.0, .max_delay = 30, .per_host = 1, .host_data_size = sizeof(struct data)};
  assert_int_equal(seen_create(SEEN_BLOOM, 1000, 1e-6, 1, &the_seen), CORE_OK);
  frontier *f;
  assert_int_equal(frontier_create(&cfg, the_seen, NULL, &f), CORE_OK);
  struct frontier_parking parking = {o, leaves, save, load};
  frontier_set_parking(f, &parking);
  return f;
}

static void done(frontier *f) {
  frontier_destroy(f);
  seen_destroy(the_seen);
}

/* The host of origin, made with its data when new. */
static frontier_host *host(frontier *f, const char *origin, long value) {
  frontier_host *h;
  bool created;
  assert_int_equal(frontier_host_get(f, origin, &h, &created), CORE_OK);
  if (created) {
    struct data *d = frontier_host_data(h);
    assert_int_equal(d->value, 0); /* zeroed, for the owner to fill */
    assert_string_equal(d->origin, "");
    d->value = value;
    snprintf(d->origin, sizeof(d->origin), "%s", origin);
  }
  assert_string_equal(frontier_host_origin(h), origin); /* after the data, not over it */
  return h;
}

static long value_of(frontier_host *h) {
  return ((struct data *)frontier_host_data(h))->value;
}

static size_t park(frontier *f) {
  size_t parked;
  assert_int_equal(frontier_park_idle(f, &parked), CORE_OK);
  return parked;
}

/* One page of h fetched: popped at start, ended at end. */
static void fetch_one(frontier *f, frontier_host *h, const char *url, double start, double end) {
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, url, NULL, 0);
  assert_non_null(item);
  frontier_push(f, h, item);
  frontier_host *popped;
  item = frontier_pop(f, start, &popped);
  assert_non_null(item);
  assert_ptr_equal(popped, h);
  frontier_end(f, h, item, end, 0.01);
  frontier_release(f, 0);
  frontier_item_free(item);
}

/* The size of this process's host file (an unlinked crawl-hosts-* file among its descriptors);
 * -1 when it has none. */
static long host_file_size(int *fd_out) {
  int fd = temp_file_fd("hosts");
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0)
    return -1;
  if (fd_out)
    *fd_out = fd;
  return (long)st.st_size;
}

/* A parked host comes back as it was: its politeness (the gap after its last page, its
 * Crawl-delay, its address) and its data; it is counted as known all along. */
static void test_parked_host_comes_back_as_it_was(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  frontier_host *a = host(f, "http://a", 7);
  host(f, "http://b", 8);
  frontier_host_set_crawl_delay(a, 10);
  assert_int_equal(frontier_host_set_ip(f, a, "10.0.0.1"), CORE_OK);
  fetch_one(f, a, "http://a/1", 0, 1); /* its next page not before 11 */
  assert_int_equal(park(f), 2);
  assert_int_equal(frontier_hosts_in_memory(f), 0);
  assert_int_equal(frontier_host_count(f), 2);
  assert_int_equal(o.asked, 2);

  a = frontier_host_find(f, "http://a");
  assert_non_null(a);
  assert_int_equal(o.loaded, 1);
  assert_int_equal(value_of(a), 7);
  assert_string_equal(frontier_host_addr(a), "10.0.0.1");
  assert_true(frontier_host_next_time(a) >= 11);
  struct frontier_item *item = frontier_item_new(FRONTIER_PAGE, "http://a/2", NULL, 0);
  frontier_push(f, a, item);
  frontier_host *popped;
  assert_null(frontier_pop(f, 10.9, &popped)); /* its Crawl-delay still holds */
  item = frontier_pop(f, 11, &popped);
  assert_non_null(item);
  assert_string_equal(item->url, "http://a/2");
  frontier_end(f, a, item, 12, 0.01);
  frontier_release(f, 0);
  frontier_item_free(item);
  assert_int_equal(frontier_hosts_in_memory(f), 1);
  assert_int_equal(frontier_host_count(f), 2);

  bool created;
  frontier_host *b;
  assert_int_equal(frontier_host_get(f, "http://b", &b, &created), CORE_OK);
  assert_false(created);
  assert_int_equal(value_of(b), 8);
  assert_null(frontier_host_find(f, "http://c")); /* never known */
  assert_int_equal(frontier_parked_lost(f), 0);
  done(f);
}

/* Only idle hosts park, and only those their owner lets go and can save. A host with sitemaps
 * queued (and no page) is not idle: they are in memory, and go nowhere when it parks. */
static void test_busy_and_kept_hosts_stay(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  frontier_host *queued = host(f, "http://queued", 1);
  frontier_host *flying = host(f, "http://flying", 2);
  host(f, "http://kept", 3);
  host(f, "http://idle", 4);
  frontier_host *sitemaps = host(f, "http://sitemaps", 5);
  frontier_push(f, flying, frontier_item_new(FRONTIER_PAGE, "http://flying/1", NULL, 0));
  frontier_host *popped;
  struct frontier_item *item = frontier_pop(f, 0, &popped);
  assert_non_null(item);
  assert_ptr_equal(popped, flying);
  frontier_push(f, queued, frontier_item_new(FRONTIER_PAGE, "http://queued/1", NULL, 0));
  frontier_push(f, sitemaps,
                frontier_item_new(FRONTIER_SITEMAP, "http://sitemaps/sitemap.xml", NULL, 0));
  o.keep = "http://kept";
  assert_int_equal(park(f), 1); /* idle alone */
  assert_int_equal(o.asked, 2); /* kept and idle: the busy ones are not asked */
  assert_int_equal(frontier_hosts_in_memory(f), 4);
  o.keep = NULL;
  o.refuse_save = true;
  assert_int_equal(park(f), 0); /* kept cannot be saved: it stays */
  assert_int_equal(frontier_host_count(f), 5);
  frontier_end(f, flying, item, 1, 0.01);
  frontier_release(f, 0);
  frontier_item_free(item);
  o.refuse_save = false;
  assert_int_equal(park(f), 2); /* kept and flying, now idle; queued and sitemaps keep theirs */
  assert_true(frontier_host_has_queued(sitemaps));
  assert_int_equal(value_of(frontier_host_find(f, "http://idle")), 4);
  assert_int_equal(value_of(frontier_host_find(f, "http://flying")), 2);
  assert_int_equal(value_of(frontier_host_find(f, "http://kept")), 3);
  done(f);
}

/* A host waiting for a lookup slot stays in memory even once nothing is queued for it (its
 * lookup drained, as when its name failed): the queue of waiting hosts still holds it, and it
 * comes back from there whole. */
static void test_host_waiting_for_a_lookup_stays(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  frontier_host *waiting = host(f, "http://waiting", 7);
  frontier_push(f, waiting, frontier_item_new(FRONTIER_RESOLVE, "waiting", NULL, 0));
  frontier_set_lookup_slots(f, 0, 0);
  frontier_host *popped;
  assert_null(frontier_pop(f, 0, &popped));
  assert_int_equal(frontier_lookups_waiting(f), 1);
  struct frontier_item *drained = frontier_drain_host(f, waiting);
  assert_non_null(drained);
  frontier_item_free(drained);
  assert_true(frontier_host_idle(waiting));
  assert_int_equal(park(f), 0); /* idle, but in the queue of waiting hosts */
  assert_int_equal(frontier_hosts_in_memory(f), 1);
  frontier_set_lookup_slots(f, 1, 1); /* handed back: nothing of it to pop */
  assert_int_equal(frontier_lookups_waiting(f), 0);
  assert_null(frontier_pop(f, 1, &popped));
  assert_int_equal(park(f), 1); /* out of the queue, it may park */
  assert_int_equal(value_of(frontier_host_find(f, "http://waiting")), 7);
  done(f);
}

/* A host parked again goes back to its place: the file does not grow with the times it parks.
 * A parked host is visited as a copy. */
static void test_parked_again_in_place_and_visited(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  host(f, "http://a", 1);
  host(f, "http://b", 2);
  assert_int_equal(park(f), 2);
  long size = host_file_size(NULL);
  assert_true(size > 0);
  for (int round = 0; round < 5; round++) {
    frontier_host *a = frontier_host_find(f, "http://a");
    assert_non_null(a);
    ((struct data *)frontier_host_data(a))->value = 10 + round; /* changed in memory: kept */
    assert_int_equal(park(f), 1);
  }
  assert_int_equal(host_file_size(NULL), size);
  assert_int_equal(value_of(frontier_host_find(f, "http://a")), 14);
  assert_int_equal(frontier_hosts_in_memory(f), 1);
  done(f);
}

static core_rc sum_values(void *arg, frontier_host *host) {
  *(long *)arg += value_of(host);
  return CORE_OK;
}

static void test_visit_reaches_parked_hosts(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  host(f, "http://a", 1);
  host(f, "http://b", 20);
  assert_int_equal(park(f), 2);
  host(f, "http://c", 300);
  long sum = 0;
  assert_int_equal(frontier_visit(f, sum_values, NULL, &sum), CORE_OK);
  assert_int_equal(sum, 321);
  assert_int_equal(frontier_hosts_in_memory(f), 1); /* visited, not brought back */
  done(f);
}

/* Thousands of hosts parked and brought back in another order: the index grows and keeps each
 * reachable as others leave it. */
static void test_many_hosts_park_and_come_back(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  enum { HOSTS = 5000 };
  char origin[64];
  for (long i = 0; i < HOSTS; i++) {
    snprintf(origin, sizeof(origin), "http://h%ld.test", i);
    host(f, origin, i);
  }
  assert_int_equal(park(f), HOSTS);
  for (long k = 0; k < HOSTS; k++) {
    long i = (k * 7919) % HOSTS; /* every one once, out of order */
    snprintf(origin, sizeof(origin), "http://h%ld.test", i);
    frontier_host *h = frontier_host_find(f, origin);
    assert_non_null(h);
    assert_int_equal(value_of(h), i);
    if (k % 2) /* this one and the one before */
      assert_int_equal(park(f), 2);
  }
  assert_int_equal(frontier_host_count(f), HOSTS);
  assert_int_equal(frontier_hosts_in_memory(f), 0);
  for (long i = HOSTS - 1; i >= 0; i--) { /* parked again, every one still found */
    snprintf(origin, sizeof(origin), "http://h%ld.test", i);
    frontier_host *h = frontier_host_find(f, origin);
    assert_non_null(h);
    assert_int_equal(value_of(h), i);
  }
  assert_int_equal(frontier_hosts_in_memory(f), HOSTS);
  done(f);
}

/* No host file can be made: parking fails once, says why, and hosts stay in memory; their owner
 * is still asked at each look. */
static void test_no_host_file(void **state) {
  (void)state;
  const char *saved = getenv("TMPDIR");
  char *before = saved ? strdup(saved) : NULL;
  setenv("TMPDIR", "/nonexistent/crawl-test", 1);
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  host(f, "http://a", 1);
  size_t parked;
  assert_int_equal(frontier_park_idle(f, &parked), CORE_ESYS);
  assert_int_equal(parked, 0);
  assert_int_equal(frontier_park_idle(f, &parked), CORE_OK); /* said once */
  assert_int_equal(o.asked, 2);
  assert_int_equal(frontier_hosts_in_memory(f), 1);
  assert_int_equal(value_of(frontier_host_find(f, "http://a")), 1);
  done(f);
  if (before)
    setenv("TMPDIR", before, 1);
  else
    unsetenv("TMPDIR");
  free(before);
}

/* The host file stops taking records (a file size limit standing in for a full disk): the host
 * that could not be written stays in memory, as it was, parking stops for the run and says why
 * once, and those parked before still come back. */
static void test_host_file_write_fails(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  host(f, "http://a", 1);
  assert_int_equal(park(f), 1);
  long size = host_file_size(NULL);
  struct rlimit was;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
  struct rlimit full = {(rlim_t)size, was.rlim_max};
  void (*had)(int) = signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG */
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &full), 0);
  host(f, "http://b", 2);
  size_t parked;
  core_rc rc = frontier_park_idle(f, &parked);
  int why = errno;
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
  signal(SIGXFSZ, had);
  assert_int_equal(rc, CORE_ESYS);
  assert_int_equal(why, EFBIG);
  assert_int_equal(parked, 0);
  assert_int_equal(park(f), 0); /* said once; no more parking */
  assert_int_equal(frontier_hosts_in_memory(f), 1);
  assert_int_equal(value_of(frontier_host_find(f, "http://b")), 2);
  assert_int_equal(value_of(frontier_host_find(f, "http://a")), 1);
  assert_int_equal(frontier_host_count(f), 2);
  done(f);
}

/* The index of parked hosts cannot grow (memory runs out as it would double): parking stops at
 * the host that found it full and says so; that host and those after it stay in memory as they
 * were, those parked before still come back, and a later sweep parks them all. */
static void test_index_that_cannot_grow(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  enum { HOSTS = 800, FIRST = 768 }; /* the index's first 1,024 slots take 768 */
  char origin[64];
  for (long i = 0; i < HOSTS; i++) {
    snprintf(origin, sizeof(origin), "http://h%ld.test", i);
    host(f, origin, i);
  }
  wrap_calloc_fail_in(2); /* the index made, then its doubling */
  size_t parked;
  assert_int_equal(frontier_park_idle(f, &parked), CORE_ENOMEM);
  assert_false(wrap_calloc_pending());
  assert_int_equal(parked, FIRST);
  assert_int_equal(frontier_hosts_in_memory(f), HOSTS - FIRST);
  assert_int_equal(frontier_host_count(f), HOSTS);
  for (long i = 0; i < HOSTS; i++) {
    snprintf(origin, sizeof(origin), "http://h%ld.test", i);
    frontier_host *h = frontier_host_find(f, origin);
    assert_non_null(h);
    assert_int_equal(value_of(h), i);
  }
  assert_int_equal(park(f), HOSTS);
  assert_int_equal(frontier_hosts_in_memory(f), 0);
  done(f);
}

/* A record damaged on disk is not taken for the host: it is forgotten, counted, and the host is
 * made anew when it comes again. */
static void test_damaged_record_forgotten(void **state) {
  (void)state;
  struct owner o = {0};
  frontier *f = new_frontier(&o);
  host(f, "http://a", 1);
  assert_int_equal(park(f), 1);
  int fd = -1;
  long size = host_file_size(&fd);
  assert_true(size > 0 && fd >= 0);
  char byte = 'x';
  assert_int_equal(pwrite(fd, &byte, 1, size - 3), 1); /* in its data */
  assert_null(frontier_host_find(f, "http://a"));
  assert_int_equal(frontier_parked_lost(f), 1);
  assert_int_equal(frontier_host_count(f), 0);
  frontier_host *h;
  bool created;
  assert_int_equal(frontier_host_get(f, "http://a", &h, &created), CORE_OK);
  assert_true(created);
  assert_int_equal(o.loaded, 0);
  done(f);
}

/* An owner's data is room in the host's own allocation, at most FRONTIER_HOST_DATA_MAX bytes. */
static void test_data_beyond_its_bound_is_refused(void **state) {
  (void)state;
  struct frontier_options cfg = {.per_host = 1, .host_data_size = FRONTIER_HOST_DATA_MAX + 1};
  frontier *f = NULL;
  assert_int_equal(frontier_create(&cfg, NULL, NULL, &f), CORE_EINVAL);
  assert_null(f);
  cfg.host_data_size = 0; /* none: a host has no data */
  assert_int_equal(frontier_create(&cfg, NULL, NULL, &f), CORE_OK);
  frontier_host *h;
  bool created;
  assert_int_equal(frontier_host_get(f, "http://a.test", &h, &created), CORE_OK);
  assert_null(frontier_host_data(h));
  assert_string_equal(frontier_host_origin(h), "http://a.test");
  frontier_destroy(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parked_host_comes_back_as_it_was),
      cmocka_unit_test(test_data_beyond_its_bound_is_refused),
      cmocka_unit_test(test_busy_and_kept_hosts_stay),
      cmocka_unit_test(test_host_waiting_for_a_lookup_stays),
      cmocka_unit_test(test_parked_again_in_place_and_visited),
      cmocka_unit_test(test_visit_reaches_parked_hosts),
      cmocka_unit_test(test_many_hosts_park_and_come_back),
      cmocka_unit_test(test_index_that_cannot_grow),
      cmocka_unit_test(test_no_host_file),
      cmocka_unit_test(test_host_file_write_fails),
      cmocka_unit_test(test_damaged_record_forgotten),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
