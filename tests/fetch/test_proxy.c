/* The proxy a request goes through: the scheme check, which proxies look names up, and no_proxy
 * as curl reads it (doc/network.md, Proxies). */
#include "fetch/fetch.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void checks_schemes_without_quoting(void **state) {
  (void)state;
  const char *why = NULL;
  const char *good[] = {
      "http://127.0.0.1:3128", "HTTPS://proxy.example", "proxy.example:3128", "socks4://p",
      "socks4a://p",           "socks5://u:pw@p:1080",  "socks5h://p"};
  for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
    assert_int_equal(fetch_proxy_check(good[i], &why), CORE_OK);
  const char *bad[] = {"ftp://p",      "gopher://u:hunter2@p", "http://",
                       "http://u:pw@", "http://:3128",         "http://p q"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    why = NULL;
    assert_int_equal(fetch_proxy_check(bad[i], &why), CORE_EINVAL);
    assert_non_null(why);
    assert_null(strstr(why, "hunter2"));
  }
}

static void knows_which_proxies_resolve(void **state) {
  (void)state;
  assert_true(fetch_proxy_resolves("http://p"));
  assert_true(fetch_proxy_resolves("p:3128"));
  assert_true(fetch_proxy_resolves("https://p"));
  assert_true(fetch_proxy_resolves("socks4a://p"));
  assert_true(fetch_proxy_resolves("SOCKS5H://p"));
  assert_false(fetch_proxy_resolves("socks5://p"));
  assert_false(fetch_proxy_resolves("socks4://p"));
}

static const char *through(const char *noproxy, bool https, const char *host) {
  struct fetch_proxies p = {"http://h", "http://s", noproxy};
  return fetch_proxy_for(&p, https, host);
}

static void picks_by_scheme(void **state) {
  (void)state;
  assert_string_equal(through(NULL, false, "a.example"), "http://h");
  assert_string_equal(through(NULL, true, "a.example"), "http://s");
  struct fetch_proxies only_http = {"http://h", NULL, NULL};
  assert_null(fetch_proxy_for(&only_http, true, "a.example"));
  struct fetch_proxies empty = {"", "", NULL};
  assert_null(fetch_proxy_for(&empty, false, "a.example"));
}

static void no_proxy_names(void **state) {
  (void)state;
  assert_null(through("*", false, "a.example"));
  assert_null(through("example.org", false, "example.org"));
  assert_null(through("example.org", false, "www.Example.ORG"));
  assert_null(through(".example.org", false, "www.example.org"));
  assert_null(through(".example.org", false, "example.org"));
  assert_null(through("example.org.", false, "example.org"));
  assert_null(through("other.test, example.org", true, "a.example.org."));
  assert_null(through("other.test example.org", true, "a.example.org"));
  /* a suffix that is no whole label, another name, a list with no match */
  assert_non_null(through("example.org", false, "badexample.org"));
  assert_non_null(through("www.example.org", false, "example.org"));
  assert_non_null(through("a,b,,c", false, "example.org"));
  assert_non_null(through("", false, "example.org"));
  assert_non_null(through("*.example.org", false, "www.example.org")); /* no wildcards */
}

static void no_proxy_addresses(void **state) {
  (void)state;
  assert_null(through("127.0.0.1", false, "127.0.0.1"));
  assert_null(through("10.0.0.0/8", false, "10.200.3.4"));
  assert_non_null(through("10.0.0.0/8", false, "11.0.0.1"));
  assert_null(through("192.168.1.0/23", false, "192.168.0.77"));
  assert_non_null(through("192.168.1.0/23", false, "192.168.2.1"));
  assert_null(through("::1", false, "::1"));
  assert_null(through("fd00::/8", false, "fdab::1"));
  assert_non_null(through("fd00::/8", false, "fe80::1"));
  assert_non_null(through("10.0.0.0/8", false, "ten.example"));
  assert_non_null(through("10.0.0.0/x", false, "10.0.0.1"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(checks_schemes_without_quoting),
      cmocka_unit_test(knows_which_proxies_resolve),
      cmocka_unit_test(picks_by_scheme),
      cmocka_unit_test(no_proxy_names),
      cmocka_unit_test(no_proxy_addresses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
