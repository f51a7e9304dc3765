/* libFuzzer: loading a --seen file. The input is the file, except that its last 8 bytes are
 * replaced by the checksum of the rest, so that mutations reach the checks after the checksum
 * (refusing a bad checksum has unit tests of its own). A file that loads must be usable: the
 * filter answers, grows, saves and loads back the same. */
#include "core/core.h"
#include "seen/seen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void fill(int fd, const void *data, size_t size) {
  if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
    abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static char path[4096], again[4096 + 8];
  static int file_fd = -1, left_fd = -1;
  if (file_fd < 0) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof(path), "%s/crawl-fuzz-seen-XXXXXX", dir && *dir ? dir : "/tmp");
    file_fd = mkstemp(path);
    snprintf(again, sizeof(again), "%s.again", path);
    left_fd = core_temp_fd("fuzz-left");
    if (file_fd < 0 || left_fd < 0)
      abort();
  }
  unsigned char *file = malloc(size + 1);
  memcpy(file, data, size);
  if (size >= 16) {
    uint64_t sum = XXH3_64bits(file, size - 8);
    for (int i = 0; i < 8; i++)
      file[size - 8 + (size_t)i] = (unsigned char)(sum >> (8 * i));
  }
  fill(file_fd, file, size);
  fill(left_fd, NULL, 0);
  seen_filter *s = NULL;
  char why[256] = "";
  core_rc rc = seen_load(path, &s, left_fd, why, sizeof(why));
  if (rc == CORE_OK) {
    const char *urls[] = {"http://a.example/", "http://b.example/x?y", "https://[::1]:8080/"};
    for (size_t i = 0; i < 3; i++) {
      bool fresh;
      (void)seen_contains(s, urls[i], strlen(urls[i]));
      if (seen_add(s, urls[i], strlen(urls[i]), &fresh) == CORE_OK &&
          !seen_contains(s, urls[i], strlen(urls[i])))
        abort(); /* a loaded filter must not lose what it was given */
    }
    struct seen_info before, after;
    seen_info(s, &before);
    seen_filter *back = NULL;
    if (seen_save(s, again, left_fd, why, sizeof(why)) == CORE_OK) {
      if (seen_load(again, &back, -1, why, sizeof(why)) != CORE_OK)
        abort(); /* what a filter saves, it loads */
      seen_info(back, &after);
      if (after.count != before.count || after.bytes != before.bytes || after.kind != before.kind)
        abort();
      seen_destroy(back);
      unlink(again);
    }
    seen_destroy(s);
  } else if (s || (!why[0] && rc != CORE_ENOMEM)) {
    abort(); /* a refusal says why and hands nothing out */
  }
  free(file);
  return 0;
}
