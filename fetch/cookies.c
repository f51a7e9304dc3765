/* The crawl's cookie jar (doc/network.md, Cookies): curl's cookie engine, RFC 6265 as curl keeps
 * it, in one share that every transfer of every engine uses, whatever the thread. Reading and
 * writing files is curl's format too (Netscape); only the writing is ours, to make the file
 * private and whole. */
#include "fetch/fetch-int.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fetch_cookies {
  CURLSH *share;
  pthread_mutex_t lock; /* the share holds cookies alone: one lock is enough */
};

static void lock_cb(CURL *handle, curl_lock_data data, curl_lock_access access, void *arg) {
  (void)handle, (void)data, (void)access;
  pthread_mutex_lock(&((struct fetch_cookies *)arg)->lock);
}

static void unlock_cb(CURL *handle, curl_lock_data data, void *arg) {
  (void)handle, (void)data;
  pthread_mutex_unlock(&((struct fetch_cookies *)arg)->lock);
}

core_rc fetch_cookies_create(fetch_cookies **out) {
  *out = NULL;
  struct fetch_cookies *jar = calloc(1, sizeof(*jar));
  if (!jar)
    return CORE_ENOMEM;
  if (pthread_mutex_init(&jar->lock, NULL) != 0) {
    free(jar);
    return CORE_ENOMEM;
  }
  if (!(jar->share = curl_share_init()) ||
      curl_share_setopt(jar->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE) != CURLSHE_OK ||
      curl_share_setopt(jar->share, CURLSHOPT_LOCKFUNC, lock_cb) != CURLSHE_OK ||
      curl_share_setopt(jar->share, CURLSHOPT_UNLOCKFUNC, unlock_cb) != CURLSHE_OK ||
      curl_share_setopt(jar->share, CURLSHOPT_USERDATA, jar) != CURLSHE_OK) {
    fetch_cookies_destroy(jar);
    return CORE_ENOMEM;
  }
  *out = jar;
  return CORE_OK;
}

void fetch_cookies_destroy(fetch_cookies *jar) {
  if (!jar)
    return;
  if (jar->share)
    curl_share_cleanup(jar->share);
  pthread_mutex_destroy(&jar->lock);
  free(jar);
}

/* Puts easy on the jar with the cookie engine on: the share gives it the jar's cookies, and
 * CURLOPT_COOKIEFILE "" (no file) turns the engine on. */
static bool put_on(fetch_cookies *jar, CURL *easy) {
  return curl_easy_setopt(easy, CURLOPT_SHARE, jar->share) == CURLE_OK &&
         curl_easy_setopt(easy, CURLOPT_COOKIEFILE, "") == CURLE_OK;
}

/* An easy handle on the jar, for reading or writing it outside any transfer. */
static CURL *jar_handle(fetch_cookies *jar) {
  CURL *easy = curl_easy_init();
  if (easy && !put_on(jar, easy)) {
    curl_easy_cleanup(easy);
    easy = NULL;
  }
  return easy;
}

core_rc fetch_cookies_load(fetch_cookies *jar, const char *path) {
  /* curl passes over a file it cannot read without a word: a missing file is said here */
  FILE *f = fopen(path, "r");
  if (!f)
    return CORE_ESYS;
  fclose(f);
  CURL *easy = jar_handle(jar);
  if (!easy)
    return CORE_ENOMEM;
  core_rc rc = curl_easy_setopt(easy, CURLOPT_COOKIEFILE, path) == CURLE_OK &&
                       curl_easy_setopt(easy, CURLOPT_COOKIELIST, "RELOAD") == CURLE_OK
                   ? CORE_OK
                   : CORE_ENOMEM;
  curl_easy_cleanup(easy);
  return rc;
}

void fetch__cookies_attach(fetch_cookies *jar, void *easy) {
  if (!jar)
    return;
  put_on(jar, easy); /* a handle that fails here sends no cookie: nothing worse */
}

void fetch__cookies_detach(fetch_cookies *jar, void *easy) {
  /* curl (7.88) keeps each CURLOPT_COOKIEFILE name in a list that curl_easy_reset forgets
   * without freeing: NULL frees it (and leaves the jar itself alone, as it is shared) */
  if (jar)
    curl_easy_setopt(easy, CURLOPT_COOKIEFILE, NULL);
}

core_rc fetch_cookies_save(fetch_cookies *jar, const char *path) {
  CURL *easy = jar_handle(jar);
  struct curl_slist *list = NULL;
  if (!easy || curl_easy_getinfo(easy, CURLINFO_COOKIELIST, &list) != CURLE_OK) {
    curl_easy_cleanup(easy);
    return CORE_ENOMEM;
  }
  curl_easy_cleanup(easy);
  /* a file is written beside it, then renamed: a crash leaves the file before or after, never
   * half of it. What is there and no file (/dev/null, a pipe) is written as it is, as curl writes
   * its jar there: a file renamed over it would replace the device itself. A symbolic link is
   * never written through (a --state directory's cookies): the rename replaces the link. */
  struct stat st;
  bool in_place = lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode);
  char *tmp = NULL;
  int fd = in_place ? open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
  FILE *f = !in_place ? core_file_begin(path, &tmp) : fd >= 0 ? fdopen(fd, "w") : NULL;
  if (in_place && fd >= 0 && !f) {
    int why = errno;
    close(fd);
    errno = why;
  }
  core_rc rc = CORE_ESYS;
  if (f) {
    fputs("# Netscape HTTP Cookie File\n# Written by crawl: its cookies, private to you.\n\n", f);
    for (const struct curl_slist *l = list; l; l = l->next)
      fprintf(f, "%s\n", l->data);
    rc = core_file_commit(f, tmp, path); /* in place, tmp is NULL */
  }
  int saved = errno;
  curl_slist_free_all(list);
  errno = saved;
  return rc;
}
