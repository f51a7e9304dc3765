/* What the seeds' origins alone are sent (doc/network.md, Logins): --user, --netrc, a seed's own
 * user:password@, and the -H headers that carry secrets. A link or redirect to any other scheme,
 * host or port gets none of them, as curl keeps credentials from other origins on redirects: an
 * https seed's login never goes out in clear to http on the same host and port. The password in
 * a seed is taken out of the URL, so that no output holds it. */
#include "crawl/logins.h"
#include "crawl/mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the seeds' hosts alone are sent (logins.c). */
struct shard_logins {
  struct seed_login *table; /* the seeds' hosts this shard owns, by key */
  size_t count;
};

struct seed_login {
  char *key; /* "scheme host port" */
  struct fetch_login login;
  char *user, *password; /* a seed's own userinfo, owned; else the config's */
};

core_rc crawl__logins_seed_url(const char *seed, size_t max_len, struct url *out) {
  core_rc rc = url_seed(seed, max_len, out);
  if (rc == CORE_OK && strchr(out->text, '@') &&
      (rc = url_take_userinfo(out, NULL, NULL)) != CORE_OK)
    url_free(out);
  return rc;
}

static char *login_key(bool https, const char *host, unsigned port) {
  char *key = NULL;
  return asprintf(&key, "%s %s %u", https ? "https" : "http", host, port) < 0 ? NULL : key;
}

static int by_key(const void *a, const void *b) {
  return strcmp(((const struct seed_login *)a)->key, ((const struct seed_login *)b)->key);
}

static void free_login(struct seed_login *l) {
  free(l->key);
  free(l->user);
  if (l->password)
    explicit_bzero(l->password, strlen(l->password));
  free(l->password);
}

bool crawl__logins_needed(const struct crawl_config *cfg) {
  if (cfg->user || cfg->netrc)
    return true;
  for (size_t i = 0; i < cfg->header_count; i++)
    if (fetch_header_is_secret(cfg->headers[i]))
      return true;
  for (size_t i = 0; i < cfg->seed_count; i++)
    if (strchr(cfg->seeds[i], '@'))
      return true; /* perhaps a userinfo: crawl__logins_open tells */
  return false;
}

core_rc crawl__logins_open(struct shard *c) {
  const struct crawl_config *cfg = c->cfg;
  if (!crawl__logins_needed(cfg))
    return CORE_OK;
  struct seed_login *list = calloc(cfg->seed_count ? cfg->seed_count : 1, sizeof(*list));
  if (!list)
    return CORE_ENOMEM;
  size_t n = 0;
  core_rc rc = CORE_OK;
  for (size_t i = 0; i < cfg->seed_count && rc == CORE_OK; i++) {
    struct url u;
    if (url_seed(cfg->seeds[i], cfg->max_url_length, &u) != CORE_OK)
      continue; /* refused before the crawl began */
    struct seed_login *l = &list[n];
    if ((rc = url_take_userinfo(&u, &l->user, &l->password)) == CORE_OK &&
        crawl__mesh_owner(c, u.host) == c->shard &&
        crawl__mesh_node_of(c->run, u.host) == (int)cfg->node) {
      if (!(l->key = login_key(u.https, u.host, u.port)))
        rc = CORE_ENOMEM;
      /* the seed's own login first, else --user, else the netrc file's */
      l->login.user = l->user ? l->user : cfg->user;
      l->login.password = l->user ? l->password : cfg->password;
      l->login.netrc = cfg->netrc;
      l->login.netrc_file = cfg->netrc_file;
      n++;
    } else {
      free_login(l);
      memset(l, 0, sizeof(*l));
    }
    url_free(&u);
  }
  if (rc != CORE_OK) {
    for (size_t i = 0; i <= n && i < cfg->seed_count; i++)
      free_login(&list[i]);
    free(list);
    return rc;
  }
  qsort(list, n, sizeof(*list), by_key);
  if (!(c->logins = malloc(sizeof(*c->logins)))) {
    for (size_t i = 0; i < n; i++)
      free_login(&list[i]);
    free(list);
    return CORE_ENOMEM;
  }
  c->logins->table = list;
  c->logins->count = n; /* a host seeded twice: bsearch finds one of them */
  return CORE_OK;
}

void crawl__logins_close(struct shard *c) {
  if (!c->logins)
    return;
  for (size_t i = 0; i < c->logins->count; i++)
    free_login(&c->logins->table[i]);
  free(c->logins->table);
  free(c->logins);
  c->logins = NULL;
}

const struct fetch_login *crawl__logins_for(const struct shard *c, bool https, const char *host,
                                            unsigned port) {
  if (!c->logins || !c->logins->count)
    return NULL;
  char key[300];
  if ((size_t)snprintf(key, sizeof(key), "%s %s %u", https ? "https" : "http", host, port) >=
      sizeof(key))
    return NULL; /* longer than any host name */
  struct seed_login probe = {.key = key};
  const struct seed_login *l =
      bsearch(&probe, c->logins->table, c->logins->count, sizeof(*l), by_key);
  return l ? &l->login : NULL;
}
