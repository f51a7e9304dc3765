/* tests/frontier: a descriptor of this process's unlinked temporary file of the kind name
 * (core_temp_fd's crawl-NAME-*: "queue" the spill file, "hosts" the host file), found among its
 * open descriptors; -1 when it has none. */
#ifndef CRAWL_TESTS_FRONTIER_TEMP_FD_H
#define CRAWL_TESTS_FRONTIER_TEMP_FD_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline int temp_file_fd(const char *name) {
  DIR *dir = opendir("/proc/self/fd");
  if (!dir)
    return -1;
  char kind[64];
  snprintf(kind, sizeof(kind), "/crawl-%s-", name);
  int fd = -1;
  struct dirent *e;
  while ((e = readdir(dir))) {
    char path[300], target[512];
    snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n <= 0)
      continue;
    target[n] = '\0';
    if (strstr(target, kind))
      fd = atoi(e->d_name);
  }
  closedir(dir);
  return fd;
}

#endif
