/* cluster/address.c: the address of a shared crawl, redis://HOST[:PORT]/JOB (doc/cluster.md). */
#include "cluster/cluster-int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool job_char(char c) {
  return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

core_rc cluster_address_parse(const char *text, struct cluster_address *out, const char **why) {
  static const char scheme[] = "redis://";
  memset(out, 0, sizeof(*out));
  *why = NULL;
  if (strncmp(text, scheme, sizeof(scheme) - 1)) {
    *why = "it must start with redis://";
    return CORE_EINVAL;
  }
  const char *p = text + sizeof(scheme) - 1, *host = p, *host_end;
  if (*p == '[') { /* an IPv6 address */
    host = p + 1;
    host_end = strchr(host, ']');
    if (!host_end) {
      *why = "an IPv6 address needs its closing ']'";
      return CORE_EINVAL;
    }
    p = host_end + 1;
  } else {
    while (*p && *p != ':' && *p != '/')
      p++;
    host_end = p;
  }
  size_t host_len = (size_t)(host_end - host);
  if (!host_len || host_len >= sizeof(out->host)) {
    *why = host_len ? "the host name is too long" : "it names no host";
    return CORE_EINVAL;
  }
  memcpy(out->host, host, host_len);
  out->port = 6379;
  if (*p == ':') {
    p++;
    long port = 0;
    int digits = 0;
    while (isdigit((unsigned char)*p) && digits < 6) {
      port = port * 10 + (*p++ - '0');
      digits++;
    }
    if (!digits || port < 1 || port > 65535 || (*p && *p != '/')) {
      *why = "the port must be a number from 1 to 65535";
      return CORE_EINVAL;
    }
    out->port = (int)port;
  }
  if (*p != '/' || !p[1]) {
    *why = "it names no job: redis://HOST[:PORT]/JOB";
    return CORE_EINVAL;
  }
  const char *job = p + 1;
  size_t job_len = strlen(job);
  if (job_len >= sizeof(out->job)) {
    *why = "the job name is longer than 64 characters";
    return CORE_EINVAL;
  }
  for (size_t i = 0; i < job_len; i++)
    if (!job_char(job[i])) {
      *why = "a job name holds only letters, digits, '-', '_' and '.'";
      return CORE_EINVAL;
    }
  memcpy(out->job, job, job_len);
  return CORE_OK;
}

/* A node's keys share one hash tag, so a Redis Cluster keeps them in one slot (the scripts touch
 * them together) while different nodes' keys spread over the slots. */
void cluster__node_key(const struct cluster_address *a, int node, const char *what, char *key,
                       size_t size) {
  snprintf(key, size, "crawl:{%s:%d}:%s", a->job, node, what);
}
