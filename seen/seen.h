/* seen: the filters that say whether a URL was seen before: a classic Bloom filter (the
 * benchmarks' baseline) and the seen filter of --dedupe (blocked Bloom, counting, exact), with its
 * file (--seen, and the checkpoints of --state). */
#ifndef CRAWL_SEEN_H
#define CRAWL_SEEN_H

#include "core/core.h"

/* ---- A classic Bloom filter: k independent positions (the benchmarks' baseline) ---- */
typedef struct seen_bloom seen_bloom;
/* Sized for expect keys at false-positive rate fp_rate: m = n ln(1/p) / (ln 2)^2, k = (m/n) ln 2.
 */
core_rc seen_bloom_create(uint64_t expect, double fp_rate, seen_bloom **out);
/* Sets the key's bits; *was_new is true when at least one was clear (the key was not seen). */
core_rc seen_bloom_add(seen_bloom *bloom, const void *key, size_t len, bool *was_new);
bool seen_bloom_contains(const seen_bloom *bloom, const void *key, size_t len);
void seen_bloom_contains_batch(const seen_bloom *bloom, size_t n, const char *const keys[],
                               const size_t lens[], bool found[]);
uint64_t seen_bloom_bits(const seen_bloom *bloom);
unsigned seen_bloom_hashes(const seen_bloom *bloom);
void seen_bloom_destroy(seen_bloom *bloom);

/* ---- The seen-URL filter of --dedupe and --seen ---- */
typedef enum { SEEN_BLOOM = 1, SEEN_COUNTING = 2, SEEN_EXACT = 3 } seen_kind;
typedef struct seen_filter seen_filter;
/* Sized for expect URLs with a compound false-positive bound fp_rate (Bloom variants); it grows
 * past expect. seed keys the hash functions (kept in the saved file). */
core_rc seen_create(seen_kind kind, uint64_t expect, double fp_rate, uint64_t seed,
                    seen_filter **out);
void seen_destroy(seen_filter *seen);
/* From now on every call takes the filter's lock, so the threads of one crawl may share it. */
core_rc seen_share(seen_filter *seen);
/* Records url; *was_new says whether it was absent before. */
core_rc seen_add(seen_filter *seen, const char *url, size_t len, bool *was_new);
bool seen_contains(const seen_filter *seen, const char *url, size_t len);
/* The same on n keys in order (a key repeated in the batch is new only the first time), with
 * the memory of all of them requested before the first is tested, so their misses overlap. */
core_rc seen_add_batch(seen_filter *seen, size_t n, const char *const urls[], const size_t lens[],
                       bool was_new[]);
void seen_contains_batch(const seen_filter *seen, size_t n, const char *const urls[],
                         const size_t lens[], bool found[]);
/* Forgets url now (counting and exact; CORE_EINVAL for bloom): CORE_ENOTFOUND when it is not
 * recorded. */
core_rc seen_remove(seen_filter *seen, const char *url, size_t len);
/* Marks url to be forgotten later, by seen_forget_marked() (counting and exact; CORE_EINVAL
 * for bloom): until then it counts as seen, so a run can forget what failed when it ends without
 * meeting those URLs again as new in the meantime. A mark costs 16 bytes or fewer. */
core_rc seen_mark_forget(seen_filter *seen, const char *url, size_t len);
core_rc seen_forget_marked(seen_filter *seen);
struct seen_info {
  seen_kind kind;
  uint64_t count, expect, bytes, seed;
  unsigned layers, hashes, block_bytes;
  double fp_rate;  /* the bound asked for */
  double fp_bound; /* the sum of the layers' bounds, at most fp_rate */
};
void seen_info(const seen_filter *seen, struct seen_info *info);
/* The exact variant's fingerprint: 24 bits of host over 40 bits of URL. */
uint64_t seen_fingerprint(uint64_t seed, const char *url, size_t len);
/* Saves crash-safely: a temporary file beside path, fsync, rename, fsync of the directory.
 * The whole contents of attachment_fd (read with pread from offset 0; -1 for none) are kept in
 * the file with the filter, under the same checksum. On failure why says what went wrong. */
core_rc seen_save(const seen_filter *seen, const char *path, int attachment_fd, char *why,
                  size_t why_size);
/* Whether seen_save can write path: makes and removes the temporary file it would make,
 * so a run learns at its start, not at its end, that its filter could not be kept. */
core_rc seen_check_writable(const char *path, char *why, size_t why_size);
/* Removes the temporary files of saves of path that never were renamed into place
 * ("PATH.tmp.PID", left by a process killed while saving; a checkpoint's may be as large as the
 * filter). Only under path's lock, which no other process then holds: none of them is being
 * written. Returns how many it removed. */
size_t seen_remove_leftovers(const char *path);
/* Loads a saved filter, writing its attachment to attachment_fd (-1: skipped). A missing file is
 * CORE_ENOTFOUND; a truncated, corrupt, foreign or incompatible one is CORE_EFORMAT with the
 * problem in why, and what was written to attachment_fd is then to be thrown away. */
core_rc seen_load(const char *path, seen_filter **out, int attachment_fd, char *why,
                  size_t why_size);
const char *seen_kind_name(seen_kind kind);

#endif
