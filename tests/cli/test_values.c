/* The values options take (cli/values.c, doc/behaviour.md, Option values), built from that file
 * alone: whole numbers within their range, seconds, durations with a unit, sizes with a unit,
 * extension lists as wget users write them; everything else refused, never read as something
 * near it. */
#include "cli/cli-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void test_whole_numbers_within_their_range(void **state) {
  (void)state;
  long v = -7;
  assert_true(cli_parse_long("0", 0, 10, &v));
  assert_int_equal(v, 0);
  assert_true(cli_parse_long("10", 0, 10, &v));
  assert_int_equal(v, 10);
  assert_true(cli_parse_long("-3", -5, 5, &v));
  assert_int_equal(v, -3);
  v = 42;
  const char *refused[] = {"11", "-1", "", "5x", "5.0", "0x10", "99999999999999999999", "ten"};
  for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
    assert_false(cli_parse_long(refused[i], 0, 10, &v));
    assert_int_equal(v, 42); /* untouched */
  }
}

static void test_seconds(void **state) {
  (void)state;
  double v = -1;
  assert_true(cli_parse_seconds("1.5", 60, &v));
  assert_true(v == 1.5);
  assert_true(cli_parse_seconds("0", 60, &v));
  assert_true(v == 0);
  assert_true(cli_parse_seconds("60", 60, &v));
  assert_true(v == 60);
  const char *refused[] = {"-0.5", "inf", "nan", "1e400", "61", "1s", "", "."};
  for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
    assert_false(cli_parse_seconds(refused[i], 60, &v));
}

static void test_durations_with_units(void **state) {
  (void)state;
  const struct {
    const char *text;
    double seconds;
  } taken[] = {{"90", 90},     {"90s", 90}, {"250ms", 0.25}, {"2m", 120},
               {"1.5h", 5400}, {"0", 0},    {"0.5", 0.5}};
  for (size_t i = 0; i < sizeof(taken) / sizeof(*taken); i++) {
    double v = -1;
    assert_true(cli_parse_duration(taken[i].text, 86400, &v));
    assert_true(v > taken[i].seconds - 1e-9 && v < taken[i].seconds + 1e-9);
  }
  double v = 7;
  /* the most is 1 h here: 2h and 3600.5s are past it */
  const char *refused[] = {"3d", "-1s", "", "m", "1.5 h", "1hh", "inf", "nan", "2h", "3600.5s"};
  for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
    assert_false(cli_parse_duration(refused[i], 3600, &v));
  assert_true(v == 7);
  assert_true(cli_parse_duration("1h", 3600, &v));
  assert_true(v == 3600);
}

static void test_sizes_with_units(void **state) {
  (void)state;
  const struct {
    const char *text;
    uint64_t bytes;
  } taken[] = {{"512", 512},
               {"4k", 4096},
               {"4K", 4096},
               {"2M", 2097152},
               {"2m", 2097152},
               {"1G", 1073741824},
               {"16777216G", (uint64_t)1 << 54}};
  for (size_t i = 0; i < sizeof(taken) / sizeof(*taken); i++) {
    uint64_t v = 0;
    assert_true(cli_parse_size(taken[i].text, &v));
    assert_true(v == taken[i].bytes);
  }
  uint64_t v = 9;
  const char *refused[] = {
      "0", "-1", "1.5M", "4kb", "4T", "", "k", "18446744073709551615G", "99999999999999999999"};
  for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
    assert_false(cli_parse_size(refused[i], &v));
  assert_true(v == 9);
}

static void test_extension_lists_as_wget_writes_them(void **state) {
  (void)state;
  struct core_list list = {0};
  char err[256] = "";
  assert_true(cli_parse_ext_list("pdf,.zip,*.tar.gz", &list, "--skip-ext", err, sizeof(err)));
  assert_int_equal(list.count, 3);
  assert_string_equal(list.items[0], "pdf");
  assert_string_equal(list.items[1], "zip");
  assert_string_equal(list.items[2], "tar.gz");
  /* a second list adds to the first */
  assert_true(cli_parse_ext_list("PNG", &list, "--skip-ext", err, sizeof(err)));
  assert_int_equal(list.count, 4);
  const char *refused[] = {"*.*", "a/b", "tar..gz", "pdf.", "*", "*pdf", "p?f", "a b", "*."};
  for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
    err[0] = '\0';
    assert_false(cli_parse_ext_list(refused[i], &list, "-R", err, sizeof(err)));
    char want[128];
    snprintf(want, sizeof(want), "invalid value '%s' for -R", refused[i]);
    assert_non_null(strstr(err, want));
  }
  core_list_free(&list);
}

static void test_error_cut_to_size(void **state) {
  (void)state;
  char err[8];
  cli_set_err(err, sizeof(err), "a message of %d words", 5);
  assert_string_equal(err, "a messa");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_numbers_within_their_range),
      cmocka_unit_test(test_seconds),
      cmocka_unit_test(test_durations_with_units),
      cmocka_unit_test(test_sizes_with_units),
      cmocka_unit_test(test_extension_lists_as_wget_writes_them),
      cmocka_unit_test(test_error_cut_to_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
