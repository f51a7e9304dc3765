/* A --state directory: the options kept in DIR/options, and the lock that keeps one crawl at a
 * time on a directory or a --seen file. */
#include "crawl/saved.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIR/options, each word ending in '\0': "crawl-options 2", the count of the command line's
 * arguments in decimal, the arguments, then the seeds, however they were given (so a run that
 * continues reads no -i file or standard input again: the file may be gone, or say something else
 * by then). "crawl-options 1", of older crawls, has the arguments alone. */
#define OPTIONS_MAGIC "crawl-options 2"
#define OPTIONS_MAGIC_ARGS_ONLY "crawl-options 1"

static void say(char *why, size_t size, const char *fmt, const char *a, const char *b) {
  snprintf(why, size, fmt, a, b);
}

core_rc crawl_state_begin(const char *dir, int argc, char **argv, char *const *seeds,
                          size_t seed_count, char *why, size_t why_size) {
  struct stat st;
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    say(why, why_size, "cannot make the directory: %s%s", strerror(errno), "");
    return CORE_ESYS;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    say(why, why_size, "not a directory%s%s", "", "");
    return CORE_EINVAL;
  }
  const char *unsafe = core_dir_unsafe(dir);
  if (unsafe) {
    say(why, why_size, "%s%s", unsafe, "");
    return CORE_EINVAL;
  }
  char *path = crawl__saved_path_in(dir, "options"),
       *ckpt = crawl__saved_path_in(dir, "checkpoint"), *tmp = NULL;
  core_rc rc = path && ckpt ? CORE_OK : CORE_ENOMEM;
  if (rc == CORE_OK && (access(path, F_OK) == 0 || access(ckpt, F_OK) == 0)) {
    say(why, why_size,
        "it holds a crawl already: run 'crawl --state %s' with no seed URLs to continue it, or "
        "give another directory%s",
        dir, "");
    rc = CORE_EINVAL;
  }
  /* 0600: the command line may hold secrets (a proxy's password, an Authorization header) */
  FILE *f = rc == CORE_OK ? core_file_begin(path, &tmp) : NULL;
  if (rc == CORE_OK && !f) {
    say(why, why_size, "cannot write '%s.tmp': %s", path, strerror(errno));
    rc = CORE_ESYS;
  }
  if (f) {
    fwrite(OPTIONS_MAGIC, 1, sizeof(OPTIONS_MAGIC), f);
    fprintf(f, "%d%c", argc, '\0');
    for (int i = 0; i < argc; i++)
      fwrite(argv[i], 1, strlen(argv[i]) + 1, f);
    for (size_t i = 0; i < seed_count; i++)
      fwrite(seeds[i], 1, strlen(seeds[i]) + 1, f);
    /* as a checkpoint: the bytes reach the disk before the name */
    if (core_file_commit(f, tmp, path) != CORE_OK) {
      say(why, why_size, "cannot write '%s': %s", path, strerror(errno));
      rc = CORE_ESYS;
    } else {
      int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
      }
    }
  }
  if (rc == CORE_ENOMEM)
    say(why, why_size, "out of memory%s%s", "", "");
  free(path);
  free(ckpt);
  return rc;
}

void crawl_state_unbegin(const char *dir) {
  char *options = crawl__saved_path_in(dir, "options");
  if (options)
    unlink(options); /* a link planted there goes, never its target */
  free(options);
}

void crawl_state_kept_free(struct crawl_state_kept *kept) {
  core_strs_free(kept->args, kept->count);
  core_strs_free(kept->seeds, kept->seed_count);
  *kept = (struct crawl_state_kept){0};
}

/* The count of arguments, a word of digits, or -1. */
static long args_count(const char *word) {
  char *end;
  errno = 0;
  long n = strtol(word, &end, 10);
  return word[0] >= '0' && word[0] <= '9' && !*end && !errno && n <= INT_MAX ? n : -1;
}

core_rc crawl_state_load_args(const char *dir, struct crawl_state_kept *kept, char *why,
                              size_t why_size) {
  *kept = (struct crawl_state_kept){0};
  const char *unsafe = core_dir_unsafe(dir);
  if (unsafe) {
    say(why, why_size, "%s%s", unsafe, "");
    return CORE_EINVAL;
  }
  char *path = crawl__saved_path_in(dir, "options");
  FILE *f = path ? core_open_read(path) : NULL;
  if (!f) {
    core_rc rc = !path ? CORE_ENOMEM : errno == ENOENT ? CORE_ENOTFOUND : CORE_ESYS;
    say(why, why_size, "cannot read '%s': %s", path ? path : dir, core_open_error(errno));
    free(path);
    return rc;
  }
  char *word = NULL;
  size_t cap = 0, words = 0;
  ssize_t len;
  core_rc rc = CORE_OK;
  bool with_seeds = false;
  long argc = -1; /* with seeds: the arguments before them */
  while (rc == CORE_OK && (len = getdelim(&word, &cap, '\0', f)) > 0) {
    if (word[len - 1] != '\0') { /* cut short: not written by a whole save */
      rc = CORE_EFORMAT;
    } else if (words == 0) {
      with_seeds = strcmp(word, OPTIONS_MAGIC) == 0;
      rc = with_seeds || strcmp(word, OPTIONS_MAGIC_ARGS_ONLY) == 0 ? CORE_OK : CORE_EFORMAT;
    } else if (with_seeds && words == 1) {
      rc = (argc = args_count(word)) < 0 ? CORE_EFORMAT : CORE_OK;
    } else if (!with_seeds || kept->count < (size_t)argc) {
      rc = core_strs_push(&kept->args, &kept->count, word);
    } else {
      rc = core_strs_push(&kept->seeds, &kept->seed_count, word);
    }
    words++;
  }
  /* a crawl is begun with one seed at least (a count past the words leaves none) */
  if (rc == CORE_OK && (words == 0 || ferror(f) || (with_seeds && !kept->seed_count)))
    rc = ferror(f) ? CORE_ESYS : CORE_EFORMAT;
  if (rc != CORE_OK) {
    say(why, why_size, "'%s' %s", path,
        rc == CORE_EFORMAT  ? "is not an options file this crawl wrote"
        : rc == CORE_ENOMEM ? "could not be read: out of memory"
                            : "could not be read");
    crawl_state_kept_free(kept);
  }
  free(word);
  fclose(f);
  free(path);
  return rc;
}

core_rc crawl_lock_take(const char *path, bool dir, int *fd, char *why, size_t why_size) {
  *fd = -1;
  size_t len = strlen(path) + 8;
  char *name = malloc(len);
  if (!name) {
    snprintf(why, why_size, "out of memory");
    return CORE_ENOMEM;
  }
  snprintf(name, len, dir ? "%s/lock" : "%s.lock", path);
  int lock = open(name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (lock < 0) {
    snprintf(why, why_size, "cannot have its lock '%s': %s", name, core_open_error(errno));
    free(name);
    return CORE_ESYS;
  }
  if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    char pid[32] = "";
    ssize_t n = e == EWOULDBLOCK ? pread(lock, pid, sizeof(pid) - 1, 0) : -1;
    pid[n > 0 ? n : 0] = '\0';
    pid[strcspn(pid, "\n")] = '\0';
    if (e == EWOULDBLOCK)
      snprintf(why, why_size, "is in use by process %s (it holds '%s')", pid[0] ? pid : "?", name);
    else
      snprintf(why, why_size, "cannot lock '%s': %s", name, strerror(e));
    close(lock);
    free(name);
    return e == EWOULDBLOCK ? CORE_EINVAL : CORE_ESYS;
  }
  /* the PID is for the message of a crawl refused; the lock itself is the flock */
  char pid[32];
  int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
  if (ftruncate(lock, 0) != 0 || pwrite(lock, pid, (size_t)n, 0) != n) {
    /* the lock holds without it */
  }
  free(name);
  *fd = lock;
  return CORE_OK;
}
