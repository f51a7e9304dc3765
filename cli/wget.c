/* cli/wget.c: wget's spellings that getopt cannot take as they are (-np, -nv) and its -e
 * commands (doc/wget.md). */
#include "cli/cli-int.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* wget's -np: getopt would read it as -n p. */
bool cli_has_wget_np(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "-np") == 0)
      return true;
  return false;
}

/* wget's -nv (--no-verbose), which getopt would read as -n v: given its long name. */
void cli_spell_wget_nv(int argc, char **argv) {
  static char no_verbose[] = "--no-verbose";
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "-nv") == 0)
      argv[i] = no_verbose;
}

/* wget's -e COMMAND: robots=on|off is taken (as wget reads a boolean); any other command is
 * refused naming crawl's option for it, where there is one. */
bool cli_wget_command(const char *command, struct crawl_config *cfg, char *err, size_t err_size) {
  static const struct {
    const char *name, *ours;
  } others[] = {{"wait", "--delay"},
                {"waitretry", "--delay"},
                {"tries", "--retries (or -t)"},
                {"timeout", "--timeout (or -T)"},
                {"readtimeout", "--timeout"},
                {"connecttimeout", "--connect-timeout"},
                {"useragent", "--user-agent"},
                {"useproxy", "--proxy"},
                {"httpproxy", "--proxy"},
                {"httpsproxy", "--proxy"},
                {"noproxy", "--noproxy"},
                {"level", "--depth"},
                {"recursive", "nothing: a crawl is recursive"},
                {"randomwait", "--random-wait"},
                {"noparent", "--no-parent"},
                {"spanhosts", "--scope any, or --domains"},
                {"domains", "--domains"},
                {"excludedomains", "--exclude-domains"},
                {"accept", "--accept-ext"},
                {"reject", "--reject-ext"},
                {"acceptregex", "--match"},
                {"rejectregex", "--exclude"},
                {"checkcertificate", "--insecure"},
                {"cacertificate", "--cacert"},
                {"maxredirect", "--max-redirs"},
                {"header", "--header"},
                {"cookies", "--no-cookies"},
                {"loadcookies", "--load-cookies"},
                {"savecookies", "--save-cookies"},
                {"netrc", "--netrc"},
                {"user", "--user"},
                {"password", "--user"},
                {"httpuser", "--user"},
                {"httppassword", "--user"},
                {"input", "--input"},
                {"quiet", "--quiet"},
                {"verbose", "--verbose"},
                {"quota", "--max-pages"}};
  /* wget's names ignore case, '-' and '_' ("use_proxy", "usePROXY"); space around '=' too */
  char name[32];
  size_t n = 0;
  const char *p = command;
  while (*p == ' ' || *p == '\t')
    p++;
  for (; *p && *p != '=' && *p != ' ' && *p != '\t'; p++)
    if (*p != '-' && *p != '_' && n + 1 < sizeof(name))
      name[n++] = (char)tolower((unsigned char)*p);
  name[n] = '\0';
  while (*p == ' ' || *p == '\t')
    p++;
  const char *value = *p == '=' ? p + 1 : NULL;
  while (value && (*value == ' ' || *value == '\t'))
    value++;
  if (strcmp(name, "robots") == 0 && value) {
    size_t len = strcspn(value, " \t");
    bool on = (len == 2 && strncasecmp(value, "on", 2) == 0) ||
              (len == 3 && strncasecmp(value, "yes", 3) == 0) || (len == 1 && value[0] == '1');
    bool off = (len == 3 && strncasecmp(value, "off", 3) == 0) ||
               (len == 2 && strncasecmp(value, "no", 2) == 0) || (len == 1 && value[0] == '0');
    if ((on || off) && value[len + strspn(value + len, " \t")] == '\0') {
      cfg->robots = on;
      return true;
    }
    cli_set_err(err, err_size, "invalid value '%s' for -e robots: on or off", value);
    return false;
  }
  for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
    if (strcmp(name, others[i].name) == 0) {
      cli_set_err(err, err_size, "-e '%s': crawl takes only robots=on|off this way; use %s",
                  command, others[i].ours);
      return false;
    }
  cli_set_err(err, err_size, "-e '%s': crawl takes only wget's robots=on|off this way", command);
  return false;
}
