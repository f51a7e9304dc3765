/* The floor the transfers set: libcurl fetching a crawl's requests and nothing else, as its users
 * drive it (curl_multi_perform and curl_multi_poll), one request in flight per host as crawl's
 * default, keep-alive connections, an easy handle per host used again, names handed to curl
 * (CURLOPT_RESOLVE), bodies thrown away.
 * What crawl spends per page above this plus the parser's floor is its own.
 *
 * With --flat N, the floor of a broad crawl instead: the URLs taken in their order, N in flight
 * whatever their host, each connected to ADDR (CURLOPT_CONNECT_TO) with its own name in the
 * request; with --fresh each on a connection of its own, closed after it, as a polite crawl of
 * many hosts must (a host's next request comes a gap later, thousands of others between).
 *
 *   bench_fetch [--flat N [--fresh]] ADDR < URLS
 *     (one URL a line; prints "requests N" and "cpu_s SECONDS") */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

struct host {
  char name[256];
  long port;
  char **urls;
  size_t count, next;
  CURL *easy; /* its handle, made for its first request */
  struct curl_slist *resolve;
};

static size_t discard(char *data, size_t size, size_t nmemb, void *arg) {
  (void)data;
  (void)arg;
  return size * nmemb;
}

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
         (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* "http://HOST:PORT/..." into name and port; 0 when the URL is not of that form. */
static int split_url(const char *url, char *name, size_t size, long *port) {
  const char *p = strstr(url, "://");
  if (!p)
    return 0;
  p += 3;
  size_t n = strcspn(p, ":/");
  if (n == 0 || n >= size)
    return 0;
  memcpy(name, p, n);
  name[n] = '\0';
  *port = p[n] == ':' ? strtol(p + n + 1, NULL, 10) : 80;
  return 1;
}

/* A handle with what every request of the bench asks: crawl's headers, bodies thrown away, no
 * proxy from the environment. */
static CURL *easy_new(void) {
  CURL *e = curl_easy_init();
  if (!e)
    return NULL;
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(e, CURLOPT_USERAGENT, "crawl/0.1.0");
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROXY, "");
  return e;
}

/* Runs multi as libcurl's users drive it (curl_multi_perform, curl_multi_poll) until no transfer
 * is left; each that ends is taken off and handed to next, which may add one again. The
 * transfers ended, or -1 when next failed. */
static long drive(CURLM *multi, int (*next)(CURLM *multi, CURL *ended, void *arg), void *arg) {
  long ended = 0;
  int running = 1;
  while (running) {
    curl_multi_perform(multi, &running);
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(multi, &left))) {
      if (msg->msg != CURLMSG_DONE)
        continue;
      if (msg->data.result != CURLE_OK)
        fprintf(stderr, "bench_fetch: %s\n", curl_easy_strerror(msg->data.result));
      CURL *e = msg->easy_handle;
      curl_multi_remove_handle(multi, e);
      ended++;
      if (next(multi, e, arg))
        return -1;
      running = 1;
    }
    if (running)
      curl_multi_poll(multi, NULL, 0, 1000, NULL);
  }
  return ended;
}

static int start(CURLM *multi, struct host *h) {
  if (h->next == h->count)
    return 0;
  CURL *e = h->easy; /* a host's handle is used again, with the options it has */
  if (e) {
    curl_easy_setopt(e, CURLOPT_URL, h->urls[h->next++]);
    return curl_multi_add_handle(multi, e) == CURLM_OK ? 0 : -1;
  }
  if (!(e = easy_new()))
    return -1;
  curl_easy_setopt(e, CURLOPT_URL, h->urls[h->next++]);
  curl_easy_setopt(e, CURLOPT_RESOLVE, h->resolve);
  curl_easy_setopt(e, CURLOPT_PRIVATE, h);
  h->easy = e;
  return curl_multi_add_handle(multi, e) == CURLM_OK ? 0 : -1;
}

/* The host mode's next transfer: the ended one's host's next URL, on the same handle. */
static int next_of_host(CURLM *multi, CURL *ended, void *arg) {
  (void)arg;
  struct host *h;
  curl_easy_getinfo(ended, CURLINFO_PRIVATE, (char **)&h);
  return start(multi, h);
}

struct flat {
  char **urls;
  size_t count, next;
};

/* --flat's next transfer: the list's next URL, on the handle that ended. */
static int next_of_list(CURLM *multi, CURL *ended, void *arg) {
  struct flat *f = arg;
  if (f->next == f->count)
    return 0;
  curl_easy_setopt(ended, CURLOPT_URL, f->urls[f->next++]);
  return curl_multi_add_handle(multi, ended) == CURLM_OK ? 0 : -1;
}

/* --flat: the URLs as one list, in flight `slots` at a time on as many handles. */
static int run_flat(const char *addr, long slots, int fresh) {
  char **urls = NULL;
  size_t count = 0;
  char line[4096];
  while (fgets(line, sizeof(line), stdin)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0])
      continue;
    char **grown = realloc(urls, (count + 1) * sizeof(*grown));
    if (!grown || !(grown[count] = strdup(line)))
      return 1;
    count++;
    urls = grown;
  }
  char target[300];
  snprintf(target, sizeof(target), "::%s:", addr); /* any host, any port: to addr, that port */
  struct curl_slist *connect_to = curl_slist_append(NULL, target);
  curl_global_init(CURL_GLOBAL_DEFAULT);
  double began = cpu_seconds();
  CURLM *multi = curl_multi_init();
  CURL **handles = calloc((size_t)slots, sizeof(*handles));
  if (!handles || !connect_to)
    return 1;
  struct flat list = {urls, count, 0};
  for (long i = 0; i < slots && list.next < count; i++) {
    CURL *e = handles[i] = easy_new();
    if (!e)
      return 1;
    curl_easy_setopt(e, CURLOPT_CONNECT_TO, connect_to);
    curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, (long)fresh);
    curl_easy_setopt(e, CURLOPT_FORBID_REUSE, (long)fresh);
    if (next_of_list(multi, e, &list))
      return 1;
  }
  long requests = drive(multi, next_of_list, &list);
  if (requests < 0)
    return 1;
  double ended = cpu_seconds();
  for (long i = 0; i < slots; i++)
    curl_easy_cleanup(handles[i]);
  curl_multi_cleanup(multi);
  printf("requests %ld\ncpu_s %.4f\n", requests, ended - began);
  for (size_t i = 0; i < count; i++)
    free(urls[i]);
  free(urls);
  free(handles);
  curl_slist_free_all(connect_to);
  curl_global_cleanup();
  return 0;
}

int main(int argc, char **argv) {
  long flat = 0;
  int fresh = 0;
  int arg = 1;
  for (; arg < argc - 1; arg++) {
    if (strcmp(argv[arg], "--flat") == 0 && arg + 1 < argc - 1)
      flat = strtol(argv[++arg], NULL, 10);
    else if (strcmp(argv[arg], "--fresh") == 0)
      fresh = 1;
    else
      break;
  }
  if (arg != argc - 1 || (fresh && flat < 1) || (flat < 0)) {
    fprintf(stderr, "usage: bench_fetch [--flat N [--fresh]] ADDR < URLS\n");
    return 2;
  }
  if (flat > 0)
    return run_flat(argv[arg], flat, fresh);
  struct host *hosts = NULL;
  size_t host_count = 0;
  char line[4096];
  while (fgets(line, sizeof(line), stdin)) {
    line[strcspn(line, "\r\n")] = '\0';
    char name[256];
    long port;
    if (!split_url(line, name, sizeof(name), &port))
      continue;
    struct host *h = NULL;
    for (size_t i = 0; i < host_count && !h; i++)
      if (strcmp(hosts[i].name, name) == 0 && hosts[i].port == port)
        h = &hosts[i];
    if (!h) {
      struct host *grown = realloc(hosts, (host_count + 1) * sizeof(*grown));
      if (!grown)
        return 1;
      hosts = grown;
      h = &hosts[host_count++];
      memset(h, 0, sizeof(*h));
      snprintf(h->name, sizeof(h->name), "%s", name);
      h->port = port;
      char entry[512];
      snprintf(entry, sizeof(entry), "%s:%ld:%s", name, port, argv[arg]);
      h->resolve = curl_slist_append(NULL, entry);
    }
    char **grown = realloc(h->urls, (h->count + 1) * sizeof(*grown));
    if (!grown || !(grown[h->count] = strdup(line)))
      return 1;
    h->urls = grown;
    h->count++;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  double began = cpu_seconds();
  CURLM *multi = curl_multi_init();
  for (size_t i = 0; i < host_count; i++)
    if (start(multi, &hosts[i]))
      return 1;
  long requests = drive(multi, next_of_host, NULL);
  if (requests < 0)
    return 1;
  double ended = cpu_seconds();
  for (size_t i = 0; i < host_count; i++)
    curl_easy_cleanup(hosts[i].easy);
  curl_multi_cleanup(multi);
  printf("requests %ld\ncpu_s %.4f\n", requests, ended - began);
  for (size_t i = 0; i < host_count; i++) {
    for (size_t j = 0; j < hosts[i].count; j++)
      free(hosts[i].urls[j]);
    free(hosts[i].urls);
    curl_slist_free_all(hosts[i].resolve);
  }
  free(hosts);
  curl_global_cleanup();
  return 0;
}
