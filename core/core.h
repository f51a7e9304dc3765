/* core: result codes, bounded buffers, URLs in their printed form, scope rules and the seen
 * filter (with its file). Nothing here runs an event loop. */
#ifndef CRAWL_CORE_H
#define CRAWL_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct Curl_URL;

typedef enum {
  CORE_OK = 0,
  CORE_ENOMEM,   /* an allocation failed */
  CORE_EINVAL,   /* an argument is out of its range */
  CORE_EURL,     /* a URL that cannot be parsed, or not http/https */
  CORE_ETOOLONG, /* input longer than its cap */
  CORE_ESYS,     /* a system call failed; errno says why */
  CORE_EFORMAT,  /* a file or message is malformed */
  CORE_EDNS,     /* name resolution failed */
  CORE_ENOTFOUND /* nothing matched */
} core_rc;

const char *core_rc_str(core_rc rc);

/* The value of a hex digit, or -1. */
int core_hex_digit(char c);

/* Seconds on the monotonic clock. */
double core_now(void);

/* A growable byte buffer with a cap fixed at init: appends past max fail with CORE_ETOOLONG.
 * The buffer owns data; free it with core_buf_free. The contents stay NUL-terminated. */
struct core_buf {
  char *data;
  size_t len;
  size_t cap;
  size_t max;
};
void core_buf_init(struct core_buf *buf, size_t max);
core_rc core_buf_add(struct core_buf *buf, const void *data, size_t len);
core_rc core_buf_addc(struct core_buf *buf, char c);
/* Room for at least size bytes (a NUL after them included) in one allocation, within max + 1. */
core_rc core_buf_reserve(struct core_buf *buf, size_t size);
/* Gives back the room the contents do not use (a buffer that will not grow again). */
void core_buf_shrink(struct core_buf *buf);
void core_buf_reset(struct core_buf *buf);
void core_buf_free(struct core_buf *buf);

/* The length (1 to 4) of the UTF-8 character at s, n bytes left, as RFC 3629 allows it (no
 * overlong form, no surrogate, nothing past U+10FFFF); 0 when s starts none, or n cuts it short.
 * Reads no byte past the first that does not continue it, so a NUL-terminated s may pass n = 4. */
size_t core_utf8_char(const unsigned char *s, size_t n);

/* An unlinked temporary file in $TMPDIR (or /tmp), named crawl-NAME-XXXXXX while it is made,
 * open for reading and writing; -1 with errno set when it cannot be made. */
int core_temp_fd(const char *name);
/* Where core_temp_fd makes its files: $TMPDIR, or /tmp when that is unset or empty. */
const char *core_temp_dir(void);

/* A new file of our own named name, mode 0600, for writing: never opened through a link planted
 * under that name, nor shared with a process that holds it open (a leftover of that name is
 * removed first). Its descriptor, or -1 with errno set. */
int core_create_private(const char *name);
/* A file written whole, then put in place of path: made by core_create_private as "PATH.tmp"
 * (*tmp, for core_file_commit). NULL with errno set. */
FILE *core_file_begin(const char *path, char **tmp);
/* Puts what core_file_begin made in place once its bytes are on disk (fflush, fsync, rename), so
 * that a crash leaves path as it was or whole; on any failure removes the temporary file. Closes
 * f and frees tmp either way. CORE_ESYS with errno set when it could not. */
core_rc core_file_commit(FILE *f, char *tmp, const char *path);

/* ---- URLs ---- */

/* A URL in its printed form (doc/behaviour.md, Output): WHATWG serialization, fragment removed.
 * text and host are owned by the struct; release with core_url_free. */
struct core_url {
  char *text;              /* the printed form */
  char *host;              /* lowercase host; IPv6 without brackets */
  char *origin;            /* scheme://host[:port], the key for per-host state */
  unsigned port;           /* explicit or default port */
  bool https;              /* scheme is https (else http) */
  size_t path_off;         /* offset in text of the path (starts with '/') */
  bool host_is_ip;         /* host is an IPv4 or IPv6 literal: no DNS lookup */
  bool unfetchable;        /* valid, but no request can reach it: port 0, or a host of
                            * punctuation curl refuses ("a!b"); it has no handle */
  struct Curl_URL *handle; /* curl's parsed form, kept to resolve links against this URL */
  bool packed;             /* host and origin live in text's allocation (one to free) */
};

/* Resolves href (href_len bytes, not necessarily NUL-terminated) against base (NULL when href must
 * be absolute; a bare "example.com" seed is accepted only through core_url_seed). Only http and
 * https results are accepted. max_len caps the printed form (CORE_ETOOLONG beyond it). */
core_rc core_url_resolve(const struct core_url *base, const char *href, size_t href_len,
                         size_t max_len, struct core_url *out);
/* The same for a link in a document encoded in charset (NULL for UTF-8): the URL Standard encodes
 * the query in the document's encoding, characters it cannot represent as "&#N;". */
core_rc core_url_resolve_in(const struct core_url *base, const char *href, size_t href_len,
                            size_t max_len, const char *charset, struct core_url *out);
/* A seed as typed by a user: "example.com" means "http://example.com/". */
core_rc core_url_seed(const char *text, size_t max_len, struct core_url *out);
void core_url_free(struct core_url *url);
/* Takes the userinfo ("user:password@") out of url, which is then the same URL without it (a
 * crawl prints no password). When user and password are not NULL they get the decoded parts
 * (NULL when there was no userinfo; *password NULL when it had no ':'), to free. CORE_ENOMEM
 * leaves url as it was. */
core_rc core_url_take_userinfo(struct core_url *url, char **user, char **password);
/* Copies the lowercase extension of the last path segment (without the dot) into ext, or "" when
 * it has none. Query and fragment are ignored. */
void core_url_ext(const struct core_url *url, char *ext, size_t ext_size);

/* ---- Comma lists (extensions, domain suffixes) ---- */
struct core_list {
  char **items; /* owned, lowercase */
  size_t count;
};
core_rc core_list_parse(const char *comma_list, struct core_list *out);
core_rc core_list_add(struct core_list *list, const char *item);
bool core_list_has(const struct core_list *list, const char *item);
/* Takes every item equal to item (without case) out of list. */
void core_list_remove(struct core_list *list, const char *item);
void core_list_free(struct core_list *list);
/* True when host equals one of the suffixes or ends with "." + one. */
bool core_list_host_match(const struct core_list *suffixes, const char *host);

/* ---- Scope ---- */
typedef enum {
  CORE_SCOPE_HOST,
  CORE_SCOPE_DOMAIN,
  CORE_SCOPE_ANY,
  CORE_SCOPE_LIST
} core_scope_mode;
typedef struct core_scope core_scope;
/* domains (for CORE_SCOPE_LIST) and exclude are borrowed until core_scope_destroy. */
core_rc core_scope_create(core_scope_mode mode, const struct core_list *domains,
                          const struct core_list *exclude, core_scope **out);
core_rc core_scope_add_seed(core_scope *scope, const char *host);
bool core_scope_contains(const core_scope *scope, const char *host);
/* The registrable domain of host, per the Public Suffix List (doc/behaviour.md,
 * Scope). Caller frees. */
char *core_scope_domain(const core_scope *scope, const char *host);
void core_scope_destroy(core_scope *scope);

/* Where an IP address (v4 or v6, text without brackets) leads: the public Internet, or a network
 * of the machine's own that a redirect from a public host must not reach without --allow-private
 * (doc/network.md, Private addresses). */
typedef enum {
  CORE_ADDR_PUBLIC,
  CORE_ADDR_PRIVATE,    /* RFC 1918, RFC 6598 (carrier-grade NAT), unique local fc00::/7 */
  CORE_ADDR_LINK_LOCAL, /* 169.254.0.0/16 (where clouds answer metadata), fe80::/10 */
  CORE_ADDR_LOOPBACK,   /* 127.0.0.0/8, ::1, and the unspecified 0.0.0.0 and ::, which reach it */
  CORE_ADDR_NONE        /* not an IP address */
} core_addr_kind;
core_addr_kind core_addr_kind_of(const char *ip);

/* Spider-trap rules on a URL's path (doc/behaviour.md, Trap guards): the rule the path breaks, or
 * CORE_TRAP_NONE. path runs from its first '/' to its end or a '?' or '#'. A path breaks
 * CORE_TRAP_REPEAT when one segment, or one pair of segments, comes more than max_repeat times in
 * a row (/a/a/a, /a/b/a/b/a/b at 2), and CORE_TRAP_SEGMENTS when it has more than max_segments
 * segments. 0 turns a rule off. */
typedef enum { CORE_TRAP_NONE, CORE_TRAP_REPEAT, CORE_TRAP_SEGMENTS } core_trap;
core_trap core_path_trap(const char *path, long max_repeat, long max_segments);

/* ---- A classic Bloom filter: k independent positions (the benchmarks' baseline) ---- */
typedef struct core_bloom core_bloom;
/* Sized for expect keys at false-positive rate fp_rate: m = n ln(1/p) / (ln 2)^2, k = (m/n) ln 2.
 */
core_rc core_bloom_create(uint64_t expect, double fp_rate, core_bloom **out);
/* Sets the key's bits; *was_new is true when at least one was clear (the key was not seen). */
core_rc core_bloom_add(core_bloom *bloom, const void *key, size_t len, bool *was_new);
bool core_bloom_contains(const core_bloom *bloom, const void *key, size_t len);
void core_bloom_contains_batch(const core_bloom *bloom, size_t n, const char *const keys[],
                               const size_t lens[], bool found[]);
uint64_t core_bloom_bits(const core_bloom *bloom);
unsigned core_bloom_hashes(const core_bloom *bloom);
void core_bloom_destroy(core_bloom *bloom);

/* ---- The seen-URL filter of --dedupe and --seen ---- */
typedef enum { CORE_SEEN_BLOOM = 1, CORE_SEEN_COUNTING = 2, CORE_SEEN_EXACT = 3 } core_seen_kind;
typedef struct core_seen core_seen;
/* Sized for expect URLs with a compound false-positive bound fp_rate (Bloom variants); it grows
 * past expect. seed keys the hash functions (kept in the saved file). */
core_rc core_seen_create(core_seen_kind kind, uint64_t expect, double fp_rate, uint64_t seed,
                         core_seen **out);
void core_seen_destroy(core_seen *seen);
/* From now on every call takes the filter's lock, so the threads of one crawl may share it. */
core_rc core_seen_share(core_seen *seen);
/* Records url; *was_new says whether it was absent before. */
core_rc core_seen_add(core_seen *seen, const char *url, size_t len, bool *was_new);
bool core_seen_contains(const core_seen *seen, const char *url, size_t len);
/* The same on n keys in order (a key repeated in the batch is new only the first time), with
 * the memory of all of them requested before the first is tested, so their misses overlap. */
core_rc core_seen_add_batch(core_seen *seen, size_t n, const char *const urls[],
                            const size_t lens[], bool was_new[]);
void core_seen_contains_batch(const core_seen *seen, size_t n, const char *const urls[],
                              const size_t lens[], bool found[]);
/* Forgets url now (counting and exact; CORE_EINVAL for bloom): CORE_ENOTFOUND when it is not
 * recorded. */
core_rc core_seen_remove(core_seen *seen, const char *url, size_t len);
/* Marks url to be forgotten later, by core_seen_forget_marked() (counting and exact; CORE_EINVAL
 * for bloom): until then it counts as seen, so a run can forget what failed when it ends without
 * meeting those URLs again as new in the meantime. A mark costs 16 bytes or fewer. */
core_rc core_seen_mark_forget(core_seen *seen, const char *url, size_t len);
core_rc core_seen_forget_marked(core_seen *seen);
struct core_seen_info {
  core_seen_kind kind;
  uint64_t count, expect, bytes, seed;
  unsigned layers, hashes, block_bytes;
  double fp_rate;  /* the bound asked for */
  double fp_bound; /* the sum of the layers' bounds, at most fp_rate */
};
void core_seen_info(const core_seen *seen, struct core_seen_info *info);
/* The exact variant's fingerprint: 24 bits of host over 40 bits of URL. */
uint64_t core_seen_fingerprint(uint64_t seed, const char *url, size_t len);
/* Saves crash-safely: a temporary file beside path, fsync, rename, fsync of the directory.
 * The whole contents of attachment_fd (read with pread from offset 0; -1 for none) are kept in
 * the file with the filter, under the same checksum. On failure why says what went wrong. */
core_rc core_seen_save(const core_seen *seen, const char *path, int attachment_fd, char *why,
                       size_t why_size);
/* Whether core_seen_save can write path: makes and removes the temporary file it would make,
 * so a run learns at its start, not at its end, that its filter could not be kept. */
core_rc core_seen_check_writable(const char *path, char *why, size_t why_size);
/* Loads a saved filter, writing its attachment to attachment_fd (-1: skipped). A missing file is
 * CORE_ENOTFOUND; a truncated, corrupt, foreign or incompatible one is CORE_EFORMAT with the
 * problem in why, and what was written to attachment_fd is then to be thrown away. */
core_rc core_seen_load(const char *path, core_seen **out, int attachment_fd, char *why,
                       size_t why_size);
const char *core_seen_kind_name(core_seen_kind kind);

#endif
