/* robots.txt matching cases derived from RFC 9309: each file below, then (agent, path, allowed)
 * checks against it. Read by test_robots.c. */
#include "tests/parse/robots_cases.h"

/* 2.2.1 groups: product tokens matched case-insensitively, "*" as fallback, groups for one agent
 * merged, several user-agent lines sharing one group. */
static const char groups_txt[] = "user-agent: FooBot\n"
                                 "disallow: /foo\n"
                                 "\n"
                                 "User-Agent: barbot\n"
                                 "User-Agent: BazBot\n"
                                 "Disallow: /shared\n"
                                 "\n"
                                 "user-agent: *\n"
                                 "disallow: /everyone\n"
                                 "\n"
                                 "user-agent: foobot\n"
                                 "disallow: /second-group\n"
                                 "allow: /everyone\n";

/* 2.2.2 rules: longest match wins, Allow wins a tie, empty Disallow allows, paths are
 * case-sensitive and include the query. */
static const char rules_txt[] = "User-agent: *\n"
                                "Disallow: /private\n"
                                "Allow: /private/open\n"
                                "Disallow: /private/open/closed\n"
                                "Disallow: /tie\n"
                                "Allow: /tie\n"
                                "Disallow: /Case\n"
                                "Disallow: /search?q=\n"
                                "Disallow: /dir/\n"
                                "Allow: /dir/page.html\n"
                                "Disallow:\n";

/* 2.2.3 special characters: "*" any run, "$" end of path; "$" elsewhere and "#" comments. */
static const char special_txt[] = "User-agent: *\n"
                                  "Disallow: /*.php$\n"
                                  "Disallow: /*/secret/\n"
                                  "Disallow: /fish*\n"
                                  "Allow: /fish*.html$\n"
                                  "Disallow: /exact$\n"
                                  "Disallow: /**/double\n"
                                  "Disallow: /a$b\n"
                                  "Disallow: /wild*card*end\n"
                                  "Disallow: /comment # the rest is a comment\n";

/* 2.1 / 2.2.2 percent-encoding: unreserved characters compare decoded, everything else encoded,
 * hex case-insensitively; UTF-8 in the file matches its encoded form. */
static const char encoding_txt[] = "User-agent: *\n"
                                   "Disallow: /%7Etilde/\n"
                                   "Disallow: /a%2fb\n"
                                   "Disallow: /caf\xc3\xa9\n"
                                   "Disallow: /space%20here\n"
                                   "Disallow: /%E2%82%AC\n"
                                   "Disallow: /plus+sign\n"
                                   "Disallow: /line%0aend\n"
                                   "Disallow: /v%30\n"
                                   "Disallow: /end%4\n";

/* Format: case-insensitive keys, optional spaces, CR/CRLF line ends, rules outside a group
 * ignored, lines without a colon ignored, other records ignored. */
static const char format_txt[] = "Disallow: /before-any-group\r\n"
                                 "  USER-AGENT  :  *  \r"
                                 "DISALLOW:/nospace\r\n"
                                 "disallow :   /spaced   \n"
                                 "this line has no colon\n"
                                 "Sitemap: https://example.com/sitemap.xml\n"
                                 "Crawl-delay: 3\n"
                                 "Host: example.com\n"
                                 "Noindex: /ignored-record\n"
                                 "Allow: /nospace/but-this\n";

/* A file with groups only for others: everything is allowed to us. */
static const char others_txt[] = "User-agent: otherbot\n"
                                 "Disallow: /\n"
                                 "\n"
                                 "User-agent: anotherbot\n"
                                 "Disallow: /private\n";

/* Everything disallowed to everyone but robots.txt itself. */
static const char closed_txt[] = "User-agent: *\n"
                                 "Disallow: /\n";

/* The product token is a prefix before a version or comment on the user-agent line. */
static const char versions_txt[] = "User-agent: crawl/2.0\n"
                                   "Disallow: /versioned\n"
                                   "\n"
                                   "User-agent: crawl-extended\n"
                                   "Disallow: /extended\n"
                                   "\n"
                                   "User-agent: *\n"
                                   "Disallow: /star\n";

const struct robots_case robots_cases[] = {
    /* groups */
    {groups_txt, "foobot", "/foo", false},
    {groups_txt, "FOOBOT", "/foo", false},
    {groups_txt, "FooBot", "/foo/bar", false},
    {groups_txt, "foobot", "/second-group", false},
    {groups_txt, "foobot", "/everyone", true},
    {groups_txt, "foobot", "/shared", true},
    {groups_txt, "foobot", "/", true},
    {groups_txt, "foobot", "/fo", true},
    {groups_txt, "barbot", "/shared", false},
    {groups_txt, "barbot", "/shared/deeper", false},
    {groups_txt, "barbot", "/foo", true},
    {groups_txt, "barbot", "/everyone", true},
    {groups_txt, "bazbot", "/shared", false},
    {groups_txt, "BAZBOT", "/shared", false},
    {groups_txt, "bazbot", "/second-group", true},
    {groups_txt, "quxbot", "/everyone", false},
    {groups_txt, "quxbot", "/everyone/x", false},
    {groups_txt, "quxbot", "/foo", true},
    {groups_txt, "quxbot", "/shared", true},
    {groups_txt, "quxbot", "/", true},
    {groups_txt, "foo", "/foo", true},
    {groups_txt, "foobotx", "/foo", true},
    {groups_txt, "foobotx", "/everyone", false},
    /* rules */
    {rules_txt, "crawl", "/", true},
    {rules_txt, "crawl", "/private", false},
    {rules_txt, "crawl", "/private/", false},
    {rules_txt, "crawl", "/privateer", false},
    {rules_txt, "crawl", "/private/x", false},
    {rules_txt, "crawl", "/private/open", true},
    {rules_txt, "crawl", "/private/open/", true},
    {rules_txt, "crawl", "/private/open/page", true},
    {rules_txt, "crawl", "/private/open/closed", false},
    {rules_txt, "crawl", "/private/open/closed/x", false},
    {rules_txt, "crawl", "/private/opener", true},
    {rules_txt, "crawl", "/priv", true},
    {rules_txt, "crawl", "/tie", true},
    {rules_txt, "crawl", "/tie/x", true},
    {rules_txt, "crawl", "/Case", false},
    {rules_txt, "crawl", "/case", true},
    {rules_txt, "crawl", "/CASE", true},
    {rules_txt, "crawl", "/Case/sub", false},
    {rules_txt, "crawl", "/search?q=x", false},
    {rules_txt, "crawl", "/search?q=", false},
    {rules_txt, "crawl", "/search?p=1", true},
    {rules_txt, "crawl", "/search", true},
    {rules_txt, "crawl", "/dir/", false},
    {rules_txt, "crawl", "/dir/other.html", false},
    {rules_txt, "crawl", "/dir/page.html", true},
    {rules_txt, "crawl", "/dir/page.html?x", true},
    {rules_txt, "crawl", "/dir", true},
    {rules_txt, "crawl", "/robots.txt", true},
    {rules_txt, "crawl", "/anything/else", true},
    /* special characters */
    {special_txt, "crawl", "/index.php", false},
    {special_txt, "crawl", "/dir/index.php", false},
    {special_txt, "crawl", "/index.php?x=1", true},
    {special_txt, "crawl", "/index.php/", true},
    {special_txt, "crawl", "/index.phps", true},
    {special_txt, "crawl", "/.php", false},
    {special_txt, "crawl", "/a/secret/", false},
    {special_txt, "crawl", "/a/b/secret/x", false},
    {special_txt, "crawl", "/secret/", true},
    {special_txt, "crawl", "/a/secret", true},
    {special_txt, "crawl", "/fish", false},
    {special_txt, "crawl", "/fish.html", true},
    {special_txt, "crawl", "/fishheads/yum.html", true},
    {special_txt, "crawl", "/fishheads", false},
    {special_txt, "crawl", "/fish.html?id=1", false},
    {special_txt, "crawl", "/Fish", true},
    {special_txt, "crawl", "/exact", false},
    {special_txt, "crawl", "/exact/", true},
    {special_txt, "crawl", "/exactly", true},
    {special_txt, "crawl", "/x/y/double", false},
    {special_txt, "crawl", "/double", true},
    {special_txt, "crawl", "/a$b", false},
    {special_txt, "crawl", "/a$bc", false},
    {special_txt, "crawl", "/ab", true},
    {special_txt, "crawl", "/wildXcardYend", false},
    {special_txt, "crawl", "/wildcardend", false},
    {special_txt, "crawl", "/wildcardend/more", false},
    {special_txt, "crawl", "/wildcard", true},
    {special_txt, "crawl", "/wild/card", true},
    {special_txt, "crawl", "/comment", false},
    {special_txt, "crawl", "/comment/x", false},
    {special_txt, "crawl", "/commen", true},
    /* percent-encoding */
    {encoding_txt, "crawl", "/~tilde/", false},
    {encoding_txt, "crawl", "/%7Etilde/", false},
    {encoding_txt, "crawl", "/%7etilde/x", false},
    {encoding_txt, "crawl", "/tilde/", true},
    {encoding_txt, "crawl", "/a%2fb", false},
    {encoding_txt, "crawl", "/a%2Fb", false},
    {encoding_txt, "crawl", "/a/b", true},
    {encoding_txt, "crawl", "/caf%C3%A9", false},
    {encoding_txt, "crawl", "/caf%c3%a9/menu", false},
    {encoding_txt, "crawl", "/cafe", true},
    {encoding_txt, "crawl", "/space%20here", false},
    {encoding_txt, "crawl", "/space%20", true},
    {encoding_txt, "crawl", "/%E2%82%AC", false},
    {encoding_txt, "crawl", "/%e2%82%ac/price", false},
    {encoding_txt, "crawl", "/plus+sign", false},
    {encoding_txt, "crawl", "/plus%2Bsign", true},
    {encoding_txt, "crawl", "/plus", true},
    /* escapes whose digits are 0, and one cut short by the end */
    {encoding_txt, "crawl", "/line%0Aend", false},
    {encoding_txt, "crawl", "/line%0aend", false},
    {encoding_txt, "crawl", "/line%0Bend", true},
    {encoding_txt, "crawl", "/v0/x", false},
    {encoding_txt, "crawl", "/v%30", false},
    {encoding_txt, "crawl", "/v1", true},
    {encoding_txt, "crawl", "/end%4", false},
    {encoding_txt, "crawl", "/end%41", true}, /* that is /endA */
    {encoding_txt, "crawl", "/end%4x", false},
    {encoding_txt, "crawl", "/end%3", true},
    /* format */
    {format_txt, "crawl", "/before-any-group", true},
    {format_txt, "crawl", "/nospace", false},
    {format_txt, "crawl", "/nospace/x", false},
    {format_txt, "crawl", "/nospace/but-this", true},
    {format_txt, "crawl", "/spaced", false},
    {format_txt, "crawl", "/spaced/x", false},
    {format_txt, "crawl", "/ignored-record", true},
    {format_txt, "crawl", "/", true},
    {format_txt, "anybot", "/nospace", false},
    /* groups only for others */
    {others_txt, "crawl", "/", true},
    {others_txt, "crawl", "/private", true},
    {others_txt, "otherbot", "/", false},
    {others_txt, "otherbot", "/x", false},
    {others_txt, "OtherBot", "/x", false},
    {others_txt, "anotherbot", "/private", false},
    {others_txt, "anotherbot", "/", true},
    /* closed */
    {closed_txt, "crawl", "/", false},
    {closed_txt, "crawl", "/x", false},
    {closed_txt, "crawl", "/index.html", false},
    {closed_txt, "crawl", "/robots.txt", true},
    {closed_txt, "anybot", "/a/b/c", false},
    /* versions on user-agent lines */
    {versions_txt, "crawl", "/versioned", false},
    {versions_txt, "crawl", "/extended", true},
    {versions_txt, "crawl", "/star", true},
    {versions_txt, "CRAWL", "/versioned/x", false},
    {versions_txt, "crawl-extended", "/extended", false},
    {versions_txt, "crawl-extended", "/versioned", true},
    {versions_txt, "crawl-extended", "/star", true},
    {versions_txt, "crawler", "/star", false},
    {versions_txt, "crawler", "/versioned", true},
    {versions_txt, "other", "/star", false},
    /* the empty file and nonsense files allow everything */
    {"", "crawl", "/", true},
    {"", "crawl", "/anything", true},
    {"\n\n\n", "crawl", "/x", true},
    {"# only a comment\n", "crawl", "/x", true},
    {"<html><body>Not found</body></html>", "crawl", "/x", true},
    {"User-agent: *\n", "crawl", "/x", true},
    {"User-agent: *\nAllow: /\n", "crawl", "/x", true},
    {"User-agent: *\nDisallow: /\nAllow: /\n", "crawl", "/x", true},
    {"User-agent: *\nDisallow: /x\nUser-agent: crawl\n", "crawl", "/x", true},
    {"User-agent: crawl\nUser-agent: *\nDisallow: /x\n", "crawl", "/x", false},
    {"User-agent: *\nDisallow: /x\n\nUser-agent: crawl\nAllow: /y\n", "crawl", "/x", true},
    {"User-agent: *\nDisallow: /x\n\nUser-agent: crawl\nAllow: /y\n", "other", "/x", false},
    {"User-agent:*\nDisallow:/x\n", "crawl", "/x", false},
    {"User-agent: *\nDisallow: /x\n", "crawl", "/X", true},
    {"User-agent: *\nDisallow: *\n", "crawl", "/anything", false},
    {"User-agent: *\nDisallow: /$\n", "crawl", "/", false},
    {"User-agent: *\nDisallow: /$\n", "crawl", "/page", true},
    {"User-agent: *\nDisallow: /\nAllow: /$\n", "crawl", "/", true},
    {"User-agent: *\nDisallow: /\nAllow: /$\n", "crawl", "/page", false},
    {"User-agent: *\nDisallow: /*\nAllow: /ok\n", "crawl", "/ok", true},
    {"User-agent: *\nDisallow: /*\nAllow: /ok\n", "crawl", "/no", false},
};

const size_t robots_case_count = sizeof(robots_cases) / sizeof(robots_cases[0]);
