#include "redisd.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int redisd_free_port(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof(a);
  int port = -1;
  if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
      !getsockname(fd, (struct sockaddr *)&a, &len))
    port = ntohs(a.sin_port);
  if (fd >= 0)
    close(fd);
  return port;
}

static bool accepts(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET,
                          .sin_port = htons((uint16_t)port),
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  bool ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
  if (fd >= 0)
    close(fd);
  return ok;
}

bool redisd_start(struct redisd *r, char *why, size_t why_len) {
  r->pid = 0;
  r->port = redisd_free_port();
  if (r->port < 0) {
    snprintf(why, why_len, "no free port on 127.0.0.1");
    return false;
  }
  char port[16];
  snprintf(port, sizeof(port), "%d", r->port);
  r->pid = fork();
  if (r->pid < 0) {
    snprintf(why, why_len, "fork failed");
    return false;
  }
  if (r->pid == 0) {
    /* it dies with its parent, and a test that crashes leaves no server holding its pipes */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    execlp("redis-server", "redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "",
           "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning", "--dir", "/tmp",
           (char *)NULL);
    _exit(127);
  }
  for (int i = 0; i < 500; i++) {
    if (accepts(r->port))
      return true;
    int status;
    if (waitpid(r->pid, &status, WNOHANG) == r->pid) {
      r->pid = 0;
      snprintf(why, why_len, "redis-server did not start (scripts/install-deps.sh installs it)");
      return false;
    }
    usleep(10000);
  }
  redisd_stop(r);
  snprintf(why, why_len, "redis-server did not listen on port %d within 5 s", r->port);
  return false;
}

void redisd_stop(struct redisd *r) {
  if (r->pid > 0) {
    kill(r->pid, SIGKILL);
    waitpid(r->pid, NULL, 0);
    r->pid = 0;
  }
}
