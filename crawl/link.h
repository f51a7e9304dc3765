/* What the engine's files say of a link (doc/design.md, The engine's pipeline): where it was
 * found and whether it may be followed, the flags its queued item carries, how links travel in
 * batches and between shards, and how one is offered. Included by crawl-int.h. */
#ifndef CRAWL_LINK_H
#define CRAWL_LINK_H

#include "crawl/crawl.h"
#include "parse/parse.h"
#include "url/url.h"

/* An item's flags (frontier_item's) */
#define ITEM_QUIET 1u /* not printed (-A, or a seed an earlier run recorded): no record */
#define ITEM_SEED 2u  /* a seed: when no seed gets a response, the exit status says so */
#define ITEM_HEAD 4u  /* --check-skipped: a HEAD request for a URL in --skip-ext */
#define ITEM_SPEC 8u  /* a speculative page (speculate.c): not accepted yet */
/* Left by a limit in a --state crawl, its limit record written: the same limit met again in a
 * later run writes no second record */
#define ITEM_LEFT 16u
/* With ITEM_HEAD: asked again with GET, as the server refused HEAD (405, 501) */
#define ITEM_GET 32u
/* Where the URL was found (enum via) rides in an item's flags from here up. */
#define ITEM_VIA_SHIFT 8
#define ITEM_VIA_MASK (0x1fu << ITEM_VIA_SHIFT)
#define ITEM_VIA(flags) (((flags)&ITEM_VIA_MASK) >> ITEM_VIA_SHIFT)

/* Links found on one page or sitemap, held until the seen filter checks them together: one
 * batch lets the filter's cache misses overlap (seen_add_batch). Flushed after every chunk
 * parsed, so nothing waits on the network. */
enum { LINK_BATCH = 32 };

/* Where a URL was found, as --jsonl's via names it (crawl__report_via_name): VIA_NONE when not
 * known (a link an older version saved); a redirect, VIA_REDIRECT plus the url_addr_kind of the
 * host that redirected (URL_ADDR_NONE: not known, a proxy connected), checked where its target is
 * fetched (doc/network.md, Private addresses); or past VIA_PAGE one of a page's parse_via. The
 * number rides in an item's flags and in the lines between shards and in saves
 * (crawl__mail_how_code): values are only ever appended. */
enum via {
  VIA_NONE,
  VIA_SEED,
  VIA_SITEMAP,
  VIA_REDIRECT,
  VIA_PAGE = VIA_REDIRECT + URL_ADDR_NONE + 1
};
#define VIA_COUNT (VIA_PAGE + PARSE_VIA_COUNT)
/* How a link was found, carried with it to its fate: where, and whether it may be followed (not
 * when its page said nofollow). */
struct link_how {
  unsigned char via;
  bool follow;
};

struct link_batch {
  struct url urls[LINK_BATCH];
  int depth[LINK_BATCH];
  struct link_how how[LINK_BATCH];
  size_t count;
};

/* What a link on its way between shards (or processes, or in a save's transit line) is. The
 * values are the letters that start its line, so they are only ever appended. */
enum link_kind {
  LINK_FOUND = 'L',    /* a link on a page */
  LINK_REDIRECT = 'R', /* a redirect's target */
  LINK_SITEMAP = 'S',  /* a sitemap to queue */
  LINK_AHEAD = 'P'     /* a held link, for its owner to fetch ahead (speculate.c) */
};

/* OFFER_RESUME: a URL an earlier run left queued (--seen), recorded and printed already.
 * OFFER_UNRECORDED: one an earlier run printed but left without its --jsonl record: cut beyond
 * its -d at a stop, or queued at its last save before a kill (doc/behaviour.md, Resuming) */
enum offer_kind { OFFER_SEED, OFFER_LINK, OFFER_REDIRECT, OFFER_RESUME, OFFER_UNRECORDED };

#endif
