/* --resolve entries as curl writes them, HOST:PORT:ADDR: IPv4 and IPv6 addresses (the latter
 * bare or in brackets), and what is refused (doc/network.md). */
#include "fetch/fetch.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void reads_both_families(void **state) {
  (void)state;
  static const struct {
    const char *entry, *host, *addr;
    unsigned port;
  } good[] = {
      {"a.test:80:127.0.0.1", "a.test", "127.0.0.1", 80},
      {"b.test:8443:[::1]", "b.test", "::1", 8443},
      {"c.test:443:2001:db8::7", "c.test", "2001:db8::7", 443},
      {"d.test:65535:[2001:db8::1:2]", "d.test", "2001:db8::1:2", 65535},
  };
  for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
    char host[256], addr[64];
    unsigned port = 0;
    if (fetch_parse_resolve(good[i].entry, host, sizeof(host), &port, addr, sizeof(addr)) !=
        CORE_OK)
      fail_msg("%s was refused", good[i].entry);
    assert_string_equal(host, good[i].host);
    assert_string_equal(addr, good[i].addr);
    assert_int_equal(port, good[i].port);
  }
}

static void refuses_what_is_no_address(void **state) {
  (void)state;
  static const char *bad[] = {"a.test:80:localhost",    "a.test:80:",          "a.test:0:127.0.0.1",
                              "a.test:65536:127.0.0.1", "a.test:x:127.0.0.1",  "a.test:80",
                              "a.test:80:[]",           "a.test:80:1.2.3.4.5", "a.test:80:[::1"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    char host[256], addr[64];
    unsigned port;
    if (fetch_parse_resolve(bad[i], host, sizeof(host), &port, addr, sizeof(addr)) != CORE_EINVAL)
      fail_msg("%s was taken", bad[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reads_both_families),
      cmocka_unit_test(refuses_what_is_no_address),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
