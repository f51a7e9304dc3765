/* An allocator that fails once, on purpose (tests/README.md, Out of memory): loaded with
 * LD_PRELOAD into crawl, it counts the allocations that crawl's own code asks for (malloc,
 * calloc, realloc, strdup, strndup called from the executable, not from libcurl or libxml2) and
 * makes the one numbered CRAWL_FAIL_ALLOC return NULL. With CRAWL_ALLOC_COUNT=FILE it writes the
 * count to FILE at exit, so a case knows how many there are to fail. CRAWL_FAIL_ALLOC_TRACE=1
 * writes the failing call's stack to standard error.
 *
 * The real allocator is glibc's (__libc_malloc and its kin), so nothing here allocates. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr, RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

static uintptr_t text_start, text_end; /* the executable's code */
static long fail_at = -1;              /* -1: read from the environment; 0: never */
static long counted;
static int main_returned; /* what runs after main is not crawl's: a coverage build's counters */

static int find_executable(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
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
    dl_iterate_phdr(find_executable, NULL);
    __atomic_store_n(&fail_at, n > 0 ? n : 0, __ATOMIC_SEQ_CST);
  }
  uintptr_t at = (uintptr_t)caller;
  if (at < text_start || at >= text_end || __atomic_load_n(&main_returned, __ATOMIC_SEQ_CST))
    return 0;
  long n = __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
  if (n != fail_at)
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
  const char *path = getenv("CRAWL_ALLOC_COUNT");
  if (!path)
    return;
  FILE *f = fopen(path, "w"); /* its buffer comes from the executable's caller: not counted */
  if (f) {
    fprintf(f, "%ld\n", __atomic_load_n(&counted, __ATOMIC_SEQ_CST));
    fclose(f);
  }
}
