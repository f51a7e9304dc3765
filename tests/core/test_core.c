/* core/core.c: what a UTF-8 character is (RFC 3629, section 4's table), byte by byte at each
 * boundary, for the output's escaping and the decoders that rely on it. */
#include "core/core.h"

#include <setjmp.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static void test_utf8_boundaries(void **state) {
  (void)state;
  static const struct {
    const char *bytes;
    size_t n, want; /* n: the bytes left; want: the character's length, 0 for none */
  } cases[] = {
      {"A", 0, 0}, /* nothing left */
      {"A", 1, 1},
      {"\x7f", 1, 1},
      {"\x80", 1, 0}, /* a continuation byte cannot start one */
      {"\xbf", 1, 0},
      {"\xc0\x80", 2, 0}, /* overlong NUL */
      {"\xc1\xbf", 2, 0}, /* overlong U+007F */
      {"\xc2\x80", 2, 2}, /* U+0080 */
      {"\xdf\xbf", 2, 2}, /* U+07FF */
      {"\xc2\x7f", 2, 0}, /* no continuation */
      {"\xc2\xc0", 2, 0},
      {"\xc2\x80", 1, 0},         /* cut short by n */
      {"\xc2", 1, 0},             /* cut short */
      {"\xe0\x9f\xbf", 3, 0},     /* overlong U+07FF */
      {"\xe0\xa0\x80", 3, 3},     /* U+0800 */
      {"\xe2\x82\xac", 3, 3},     /* U+20AC */
      {"\xe2\x82\xac", 2, 0},     /* cut short by n */
      {"\xe2\x28\xa1", 3, 0},     /* second byte no continuation */
      {"\xe2\x82\x28", 3, 0},     /* third byte no continuation */
      {"\xed\x9f\xbf", 3, 3},     /* U+D7FF */
      {"\xed\xa0\x80", 3, 0},     /* U+D800, a surrogate */
      {"\xed\xbf\xbf", 3, 0},     /* U+DFFF */
      {"\xee\x80\x80", 3, 3},     /* U+E000 */
      {"\xef\xbf\xbf", 3, 3},     /* U+FFFF */
      {"\xf0\x8f\xbf\xbf", 4, 0}, /* overlong U+FFFF */
      {"\xf0\x90\x80\x80", 4, 4}, /* U+10000 */
      {"\xf3\xbf\xbf\xbf", 4, 4},
      {"\xf4\x8f\xbf\xbf", 4, 4}, /* U+10FFFF */
      {"\xf4\x90\x80\x80", 4, 0}, /* past U+10FFFF */
      {"\xf5\x80\x80\x80", 4, 0},
      {"\xff", 1, 0},
      {"\xf0\x90\x80\x80", 3, 0}, /* cut short by n */
      {"\xf0\x90\x80", 4, 0},     /* cut short by its NUL */
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    size_t got = core_utf8_char((const unsigned char *)cases[i].bytes, cases[i].n);
    if (got != cases[i].want)
      fail_msg("case %zu (n %zu): length %zu, want %zu", i, cases[i].n, got, cases[i].want);
  }
}

/* Extension lists (-A, -R, --skip-ext) against a URL's extensions as url_ext gives them: an
 * entry takes the whole of them or an ending after a dot, never a part that is not an ending. */
static void test_extension_lists(void **state) {
  (void)state;
  struct core_list list = {0};
  assert_int_equal(core_list_parse("pdf,.tar.gz,*.min.js", &list), CORE_OK);
  /* "*.min.js" is parse_ext_list's to bare; here the list holds what it was given */
  assert_true(core_list_has_ext(&list, "pdf"));
  assert_true(core_list_has_ext(&list, "v2.pdf"));
  assert_true(core_list_has_ext(&list, "tar.gz"));
  assert_true(core_list_has_ext(&list, "backup.tar.gz"));
  assert_false(core_list_has_ext(&list, "gz"));      /* tar.gz takes a.tar.gz, not a.gz */
  assert_false(core_list_has_ext(&list, "tar"));     /* nor a.tar */
  assert_false(core_list_has_ext(&list, "pdf.bak")); /* an ending, not a part */
  assert_false(core_list_has_ext(&list, "xpdf"));
  assert_false(core_list_has_ext(&list, ""));
  core_list_free(&list);
}

/* An array's room: made at the minimum, doubled when full, left alone while it has room. */
static void test_array_room(void **state) {
  (void)state;
  int *items = NULL;
  size_t cap = 0;
  assert_true(core_array_room((void **)&items, &cap, 0, sizeof(*items), 4));
  assert_int_equal(cap, 4);
  int *first = items;
  for (size_t n = 0; n < 4; n++) {
    assert_true(core_array_room((void **)&items, &cap, n, sizeof(*items), 4));
    items[n] = (int)n;
  }
  assert_ptr_equal(items, first); /* room enough: not moved */
  assert_true(core_array_room((void **)&items, &cap, 4, sizeof(*items), 4));
  assert_int_equal(cap, 8);
  for (int n = 0; n < 4; n++)
    assert_int_equal(items[n], n); /* kept through the move */
  size_t huge = SIZE_MAX / 2 + 1;
  assert_false(core_array_room((void **)&items, &huge, huge, sizeof(*items), 4));
  free(items);
}

/* Sorting hashes: every length across the switch from insertion to heapsort, in orders that
 * are sorted, reversed, all equal and scrambled, each checked against qsort's answer. */
static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static void test_sort_u64(void **state) {
  (void)state;
  enum { MAX = 200 };
  uint64_t values[MAX], want[MAX];
  uint64_t mix = 0x9e3779b97f4a7c15ull;
  for (size_t n = 0; n <= MAX; n++)
    for (int order = 0; order < 5; order++) {
      for (size_t i = 0; i < n; i++) {
        mix ^= mix << 13, mix ^= mix >> 7, mix ^= mix << 17;
        values[i] = order == 0   ? i
                    : order == 1 ? n - i
                    : order == 2 ? 7
                    : order == 3 ? mix % 5 /* many equal */
                                 : mix | (i & 1 ? 1ull << 63 : 0);
      }
      memcpy(want, values, n * sizeof(*values));
      qsort(want, n, sizeof(*want), by_value);
      core_sort_u64(values, n);
      if (n)
        assert_memory_equal(values, want, n * sizeof(*values));
    }
}

/* A buffer cut back to an earlier length holds what it held then, NUL after it, and grows again
 * from there; a length at or past its own leaves it as it is. */
static void test_buf_cut(void **state) {
  (void)state;
  struct core_buf b;
  core_buf_init(&b, 1000);
  core_buf_cut(&b, 0); /* nothing yet: no room to write a NUL in either */
  assert_int_equal(core_buf_add(&b, "line one\n", 9), CORE_OK);
  size_t before = b.len;
  assert_int_equal(core_buf_add(&b, "half of a", 9), CORE_OK);
  core_buf_cut(&b, before);
  assert_int_equal(b.len, 9);
  assert_string_equal(b.data, "line one\n");
  core_buf_cut(&b, 50);
  assert_string_equal(b.data, "line one\n");
  assert_int_equal(core_buf_add(&b, "two\n", 4), CORE_OK);
  assert_string_equal(b.data, "line one\ntwo\n");
  core_buf_free(&b);
}

/* Lines in bounded memory (core_read_line): whole lines without their '\n', a last line without
 * one, a line longer than the bound cut with its rest left for the next read, and a budget of
 * bytes that ends the file, even in the middle of a line. */
static void test_read_line(void **state) {
  (void)state;
  char text[] = "one\n\nabcdefgh\nlast";
  FILE *f = fmemopen(text, strlen(text), "r");
  assert_non_null(f);
  char line[6];
  assert_int_equal(core_read_line(f, line, 5, NULL), 3);
  assert_string_equal(line, "one");
  assert_int_equal(core_read_line(f, line, 5, NULL), 0);
  assert_string_equal(line, "");
  assert_int_equal(core_read_line(f, line, 5, NULL), 6); /* past 5: cut */
  assert_string_equal(line, "abcde");
  assert_int_equal(core_read_line(f, line, 5, NULL), 3); /* its rest, not a byte lost */
  assert_string_equal(line, "fgh");
  assert_int_equal(core_read_line(f, line, 5, NULL), 4);
  assert_string_equal(line, "last");
  assert_int_equal(core_read_line(f, line, 5, NULL), -1);
  rewind(f);
  size_t left = 6; /* "one\n" and two bytes of the next line but one */
  assert_int_equal(core_read_line(f, line, 5, &left), 3);
  assert_int_equal(left, 2);
  assert_int_equal(core_read_line(f, line, 5, &left), 0);
  assert_int_equal(core_read_line(f, line, 5, &left), 6); /* cut by the budget */
  assert_string_equal(line, "a");
  assert_int_equal(left, 0);
  assert_int_equal(core_read_line(f, line, 5, &left), -1);
  rewind(f);
  left = 4; /* a line of exactly the bound whose '\n' is the last byte allowed: whole */
  assert_int_equal(core_read_line(f, line, 3, &left), 3);
  assert_int_equal(core_read_line(f, line, 3, &left), -1);
  left = 5; /* the next line past the bound: the byte looked at past it is given back */
  assert_int_equal(core_read_line(f, line, 3, &left), 0);
  assert_int_equal(core_read_line(f, line, 3, &left), 4);
  assert_string_equal(line, "abc");
  assert_int_equal(left, 1);
  assert_int_equal(core_read_line(f, line, 5, NULL), 5); /* the rest, from the byte given back */
  assert_string_equal(line, "defgh");
  fclose(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_utf8_boundaries), cmocka_unit_test(test_extension_lists),
      cmocka_unit_test(test_array_room),      cmocka_unit_test(test_sort_u64),
      cmocka_unit_test(test_buf_cut),         cmocka_unit_test(test_read_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
