/* An allocator that fails once, on purpose (tests/README.md, Out of memory): loaded with
 * LD_PRELOAD into crawl, it counts the allocations that crawl's own code asks for (malloc,
 * calloc, realloc, strdup, strndup called from the executable, not from libcurl or libxml2) and
 * makes the one numbered CRAWL_FAIL_ALLOC return NULL. With CRAWL_ALLOC_COUNT=FILE it writes the
 * count to FILE at exit, so a case knows how many there are to fail. CRAWL_FAIL_ALLOC_TRACE=1
 * writes the failing call's stack to standard error. CRAWL_ALLOC_SITES and CRAWL_FAIL_SITE do the
 * same by call site (below). CRAWL_FAIL_THREAD does it to a thread's start (below).
 *
 * The real allocator is glibc's (__libc_malloc and its kin), so nothing here allocates. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr, RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

static uintptr_t text_start, text_end; /* the executable's code */
static uintptr_t load_base;            /* where it is loaded: sites are addresses from there */
static long fail_at = -1;              /* -1: read from the environment; 0: never */
static long counted;
static int main_returned; /* what runs after main is not crawl's: a coverage build's counters */

/* Call sites: an allocation's return address, as an address in the executable's file (what
 * addr2line -e crawl reads), names the call in crawl that asked for it. CRAWL_ALLOC_SITES=FILE
 * writes every site that allocated and how many times, "ADDRESS CALLS" (hexadecimal, decimal) a
 * line, at exit; CRAWL_FAIL_SITE=ADDRESS[:N] makes that site's Nth allocation (the first by
 * default) fail, so that a case can fail each site in a crawl with too many allocations to fail
 * each. Kept as address + 1 (0: none), in a table filled without a lock (threads allocate). */
enum { SITES = 8192 };
static uintptr_t sites[SITES];
static long site_calls[SITES];
static int record_sites;
static uintptr_t fail_site;
static long fail_site_call = 1, fail_site_calls;

static void note_site(uintptr_t key) {
  size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 51) & (SITES - 1);
  for (size_t probes = 0; probes < SITES; probes++, i = (i + 1) & (SITES - 1)) {
    uintptr_t seen = __atomic_load_n(&sites[i], __ATOMIC_ACQUIRE);
    if (seen == key || (!seen && (__atomic_compare_exchange_n(&sites[i], &seen, key, 0,
                                                              __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
                                  seen == key))) {
      __atomic_add_fetch(&site_calls[i], 1, __ATOMIC_RELAXED);
      return;
    }
  }
}

static int find_executable(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  load_base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      text_start = info->dlpi_addr + ph->p_vaddr;
      text_end = text_start + ph->p_memsz;
    }
  }
  return 1; /* the first object is the executable */
}

/* Whether this allocation, asked for from caller, is the one to fail. */
static int should_fail(const void *caller) {
  if (fail_at < 0) {
    const char *v = getenv("CRAWL_FAIL_ALLOC");
    long n = v ? strtol(v, NULL, 10) : 0;
    const char *site = getenv("CRAWL_FAIL_SITE"); /* ADDRESS[:N], N the call that fails */
    char *rest = NULL;
    fail_site = site ? (uintptr_t)strtoull(site, &rest, 16) + 1 : 0;
    if (rest && *rest == ':')
      fail_site_call = strtol(rest + 1, NULL, 10);
    record_sites = getenv("CRAWL_ALLOC_SITES") != NULL;
    dl_iterate_phdr(find_executable, NULL);
    __atomic_store_n(&fail_at, n > 0 ? n : 0, __ATOMIC_SEQ_CST);
  }
  uintptr_t at = (uintptr_t)caller;
  if (at < text_start || at >= text_end || __atomic_load_n(&main_returned, __ATOMIC_SEQ_CST))
    return 0;
  uintptr_t key = at - load_base + 1; /* the address addr2line -e crawl reads */
  if (record_sites)
    note_site(key);
  long n = __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
  bool site_fails = key == fail_site &&
                    __atomic_add_fetch(&fail_site_calls, 1, __ATOMIC_SEQ_CST) == fail_site_call;
  if (n != fail_at && !site_fails)
    return 0;
  if (getenv("CRAWL_FAIL_ALLOC_TRACE")) { /* where it failed: addr2line -e crawl ADDRESS... */
    void *frames[16];
    int depth = backtrace(frames, 16);
    backtrace_symbols_fd(frames, depth, 2);
  }
  errno = ENOMEM; /* as glibc's allocator says it */
  return 1;
}

void *malloc(size_t size) {
  return should_fail(__builtin_return_address(0)) ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
  return should_fail(__builtin_return_address(0)) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
  return should_fail(__builtin_return_address(0)) ? NULL : __libc_realloc(p, size);
}

char *strdup(const char *s) {
  if (should_fail(__builtin_return_address(0)))
    return NULL;
  size_t len = strlen(s) + 1;
  char *copy = __libc_malloc(len);
  return copy ? memcpy(copy, s, len) : NULL;
}

char *strndup(const char *s, size_t max) {
  if (should_fail(__builtin_return_address(0)))
    return NULL;
  size_t len = strnlen(s, max);
  char *copy = __libc_malloc(len + 1);
  if (!copy)
    return NULL;
  memcpy(copy, s, len);
  copy[len] = '\0';
  return copy;
}

/* CRAWL_FAIL_THREAD=N: the Nth thread crawl's own code starts (the signal watcher is the first,
 * then the shards after the first) fails to start with EAGAIN, as when the system has no room for
 * another, so that a case can see a shard that cannot run end the crawl instead of hanging it. */
typedef int (*create_function)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*run)(void *), void *arg) {
  static long started;
  create_function create = (create_function)dlsym(RTLD_NEXT, "pthread_create");
  const char *v = getenv("CRAWL_FAIL_THREAD");
  if (!text_end)
    dl_iterate_phdr(find_executable, NULL);
  uintptr_t at = (uintptr_t)__builtin_return_address(0);
  if (v && at >= text_start && at < text_end &&
      __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST) == strtol(v, NULL, 10))
    return EAGAIN;
  return create(thread, attr, run, arg);
}

/* main, wrapped so that the allocations after it returns are not counted: libgcov, linked into
 * the executable of a coverage build (meson -Db_coverage=true), allocates as it writes its
 * counters at exit, and failing those crashed libgcov, not crawl. */
typedef int (*main_function)(int, char **, char **);
static main_function real_main;

static int counted_main(int argc, char **argv, char **envp) {
  int rc = real_main(argc, argv, envp);
  __atomic_store_n(&main_returned, 1, __ATOMIC_SEQ_CST);
  return rc;
}

typedef int (*start_function)(main_function, int, char **, void (*)(void), void (*)(void),
                              void (*)(void), void *);

int __libc_start_main(main_function main, int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end);

int __libc_start_main(main_function main, int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
  start_function start = (start_function)dlsym(RTLD_NEXT, "__libc_start_main");
  real_main = main;
  return start(counted_main, argc, argv, init, fini, rtld_fini, stack_end);
}

__attribute__((destructor)) static void write_count(void) {
  const char *where = getenv("CRAWL_ALLOC_SITES");
  FILE *out = where ? fopen(where, "w") : NULL;
  if (out) {
    for (size_t i = 0; i < SITES; i++)
      if (sites[i])
        fprintf(out, "%lx %ld\n", (unsigned long)(sites[i] - 1), site_calls[i]);
    fclose(out);
  }
  const char *path = getenv("CRAWL_ALLOC_COUNT");
  if (!path)
    return;
  FILE *f = fopen(path, "w"); /* its buffer comes from the executable's caller: not counted */
  if (f) {
    fprintf(f, "%ld\n", __atomic_load_n(&counted, __ATOMIC_SEQ_CST));
    fclose(f);
  }
}
