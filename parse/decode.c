/* Decoding a page to UTF-8 as the Encoding Standard does (doc/behaviour.md, Character
 * encodings). iconv does the legacy multi-byte and single-byte encodings; windows-1252, the one a
 * page with no declaration falls back to and the one "iso-8859-1" and "ascii" name, is decoded
 * here from its own table, because glibc's leaves five bytes undefined that the standard maps to
 * U+0081...U+009D. A byte sequence an encoding does not have becomes U+FFFD and decoding goes on,
 * where libxml2's own decoding stopped the page at the first one. */
#include "parse/decode.h"
#include "parse/parse-int.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum decode_kind {
  DECODE_UTF8,        /* nothing to do */
  DECODE_1252,        /* the table below */
  DECODE_USER,        /* x-user-defined: 0x80-0xFF to U+F780-U+F7FF */
  DECODE_ICONV,       /* iconv, from the name given */
  DECODE_REPLACEMENT, /* a whole body is one U+FFFD (ISO-2022-KR, HZ...: unsafe to decode) */
};

struct parse__encoding {
  const char *labels; /* the Encoding Standard's labels, each between spaces */
  enum decode_kind kind;
  const char *decode_as; /* iconv's name for decoding (DECODE_ICONV) */
  const char *query_as;  /* iconv's name for a URL's query, or NULL: UTF-8 */
};

/* The Encoding Standard's labels, grouped by encoding; the first entry is UTF-8, asked most. Where
 * the standard's encoding is a superset of the one of the same name, iconv is given the superset:
 * GBK decodes as gb18030, Big5 as Big5-HKSCS, Shift_JIS as Windows-31J, EUC-KR as windows-949. */
static const struct parse__encoding encodings[] = {
    {" unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8 ", DECODE_UTF8,
     NULL, NULL},
    {" 866 cp866 csibm866 ibm866 ", DECODE_ICONV, "IBM866", "IBM866"},
    {" csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2 ",
     DECODE_ICONV, "ISO-8859-2", "ISO-8859-2"},
    {" csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3 ",
     DECODE_ICONV, "ISO-8859-3", "ISO-8859-3"},
    {" csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4 ",
     DECODE_ICONV, "ISO-8859-4", "ISO-8859-4"},
    {" csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5"
     " iso_8859-5:1988 ",
     DECODE_ICONV, "ISO-8859-5", "ISO-8859-5"},
    {" arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e"
     " iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987 ",
     DECODE_ICONV, "ISO-8859-6", "ISO-8859-6"},
    {" csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597"
     " iso_8859-7 iso_8859-7:1987 sun_eu_greek ",
     DECODE_ICONV, "ISO-8859-7", "ISO-8859-7"},
    {" csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598"
     " iso_8859-8 iso_8859-8:1988 visual csiso88598i iso-8859-8-i logical ",
     DECODE_ICONV, "ISO-8859-8", "ISO-8859-8"},
    {" csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6 ", DECODE_ICONV,
     "ISO-8859-10", "ISO-8859-10"},
    {" iso-8859-13 iso8859-13 iso885913 ", DECODE_ICONV, "ISO-8859-13", "ISO-8859-13"},
    {" iso-8859-14 iso8859-14 iso885914 ", DECODE_ICONV, "ISO-8859-14", "ISO-8859-14"},
    {" csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9 ", DECODE_ICONV, "ISO-8859-15",
     "ISO-8859-15"},
    {" iso-8859-16 ", DECODE_ICONV, "ISO-8859-16", "ISO-8859-16"},
    {" cskoi8r koi koi8 koi8-r koi8_r ", DECODE_ICONV, "KOI8-R", "KOI8-R"},
    {" koi8-ru koi8-u ", DECODE_ICONV, "KOI8-U", "KOI8-U"},
    {" csmacintosh mac macintosh x-mac-roman ", DECODE_ICONV, "MACINTOSH", "MACINTOSH"},
    {" dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874 ", DECODE_ICONV, "CP874",
     "CP874"},
    {" cp1250 windows-1250 x-cp1250 ", DECODE_ICONV, "CP1250", "CP1250"},
    {" cp1251 windows-1251 x-cp1251 ", DECODE_ICONV, "CP1251", "CP1251"},
    {" ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1"
     " iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252 ",
     DECODE_1252, NULL, "windows-1252"},
    {" cp1253 windows-1253 x-cp1253 ", DECODE_ICONV, "CP1253", "CP1253"},
    {" cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5"
     " latin5 windows-1254 x-cp1254 ",
     DECODE_ICONV, "CP1254", "CP1254"},
    {" cp1255 windows-1255 x-cp1255 ", DECODE_ICONV, "CP1255", "CP1255"},
    {" cp1256 windows-1256 x-cp1256 ", DECODE_ICONV, "CP1256", "CP1256"},
    {" cp1257 windows-1257 x-cp1257 ", DECODE_ICONV, "CP1257", "CP1257"},
    {" cp1258 windows-1258 x-cp1258 ", DECODE_ICONV, "CP1258", "CP1258"},
    {" x-mac-cyrillic x-mac-ukrainian ", DECODE_ICONV, "MAC-CYRILLIC", "MAC-CYRILLIC"},
    {" chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk ",
     DECODE_ICONV, "GB18030", "GBK"},
    {" gb18030 ", DECODE_ICONV, "GB18030", "GB18030"},
    {" big5 big5-hkscs cn-big5 csbig5 x-x-big5 ", DECODE_ICONV, "BIG5-HKSCS", "BIG5-HKSCS"},
    {" cseucpkdfmtjapanese euc-jp x-euc-jp ", DECODE_ICONV, "EUC-JP", "EUC-JP"},
    {" csiso2022jp iso-2022-jp ", DECODE_ICONV, "ISO-2022-JP", "ISO-2022-JP"},
    {" csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis ", DECODE_ICONV,
     "WINDOWS-31J", "WINDOWS-31J"},
    {" cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601"
     " ksc_5601 windows-949 ",
     DECODE_ICONV, "CP949", "CP949"},
    {" csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement ",
     DECODE_REPLACEMENT, NULL, NULL},
    {" unicodefffe utf-16be ", DECODE_ICONV, "UTF-16BE", NULL},
    {" csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le ", DECODE_ICONV,
     "UTF-16LE", NULL},
    {" x-user-defined ", DECODE_USER, NULL, NULL},
};
enum { LABEL_MAX = 32 };

const struct parse__encoding *parse__encoding_for(const char *label, size_t len) {
  while (len && parse__is_space(*label))
    label++, len--;
  while (len && parse__is_space(label[len - 1]))
    len--;
  if (!len || len > LABEL_MAX)
    return NULL;
  char key[LABEL_MAX + 3];
  key[0] = ' ';
  for (size_t i = 0; i < len; i++) {
    if (label[i] == ' ' || !label[i])
      return NULL; /* one word: " a b " would match two labels */
    key[i + 1] = (char)tolower((unsigned char)label[i]);
  }
  key[len + 1] = ' ';
  key[len + 2] = '\0';
  for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++)
    if (strstr(encodings[i].labels, key))
      return &encodings[i];
  return NULL;
}

const struct parse__encoding *parse__encoding_utf8(void) {
  return &encodings[0];
}

const struct parse__encoding *parse__encoding_windows_1252(void) {
  for (size_t i = 0;;
       i++) /* the table has it: asked for a page of no declaration, no labels read */
    if (encodings[i].kind == DECODE_1252)
      return &encodings[i];
}

bool parse__encoding_is_utf8(const struct parse__encoding *enc) {
  return enc->kind == DECODE_UTF8;
}

bool parse__encoding_is_utf16(const struct parse__encoding *enc) {
  return enc->kind == DECODE_ICONV && strncmp(enc->decode_as, "UTF-16", 6) == 0;
}

const char *parse__encoding_query_charset(const struct parse__encoding *enc) {
  return enc->query_as;
}

/* ---- the <meta> prescan ---- */

struct slice {
  const char *p;
  size_t n;
};

static bool slice_is(struct slice s, const char *word) {
  return s.n == strlen(word) && strncasecmp(s.p, word, s.n) == 0;
}

/* The HTML Standard's "get an attribute" at *at, within [.., end): false at the tag's end ('>',
 * consumed) or the input's. */
static bool next_attribute(const char **at, const char *end, struct slice *name,
                           struct slice *value) {
  const char *p = *at;
  while (p < end && (parse__is_space(*p) || *p == '/'))
    p++;
  if (p >= end || *p == '>') {
    *at = p < end ? p + 1 : end;
    return false;
  }
  name->p = p++; /* a first '=' belongs to the name */
  while (p < end && *p != '=' && *p != '>' && *p != '/' && !parse__is_space(*p))
    p++;
  name->n = (size_t)(p - name->p);
  value->p = p;
  value->n = 0;
  while (p < end && parse__is_space(*p))
    p++;
  if (p >= end || *p != '=') {
    *at = p;
    return true;
  }
  p++;
  while (p < end && parse__is_space(*p))
    p++;
  if (p < end && (*p == '"' || *p == '\'')) {
    const char *close = memchr(p + 1, *p, (size_t)(end - p - 1));
    if (!close) {
      *at = end;
      return false; /* the value runs past what is scanned */
    }
    value->p = p + 1;
    value->n = (size_t)(close - p - 1);
    *at = close + 1;
    return true;
  }
  value->p = p;
  while (p < end && !parse__is_space(*p) && *p != '>')
    p++;
  value->n = (size_t)(p - value->p);
  *at = p;
  return true;
}

/* The HTML Standard's "extracting a character encoding from a meta element", from content. */
static const struct parse__encoding *content_charset(struct slice content) {
  const char *p = content.p, *end = content.p + content.n;
  for (;;) {
    while (p + 7 <= end && strncasecmp(p, "charset", 7) != 0)
      p++;
    if (p + 7 > end)
      return NULL;
    p += 7;
    while (p < end && parse__is_space(*p))
      p++;
    if (p >= end || *p != '=')
      continue;
    p++;
    while (p < end && parse__is_space(*p))
      p++;
    if (p >= end)
      return NULL;
    if (*p == '"' || *p == '\'') {
      const char *close = memchr(p + 1, *p, (size_t)(end - p - 1));
      return close ? parse__encoding_for(p + 1, (size_t)(close - p - 1)) : NULL;
    }
    const char *v = p;
    while (p < end && !parse__is_space(*p) && *p != ';')
      p++;
    return parse__encoding_for(v, (size_t)(p - v));
  }
}

/* One <meta> tag's attributes, from after its name: the encoding it declares, or NULL. */
static const struct parse__encoding *meta_tag(const char **at, const char *end) {
  bool got_pragma = false, need_pragma = false, decided = false, seen_charset = false,
       seen_content = false, seen_equiv = false;
  const struct parse__encoding *enc = NULL;
  struct slice name, value;
  while (next_attribute(at, end, &name, &value)) {
    if (slice_is(name, "http-equiv") && !seen_equiv) {
      seen_equiv = true;
      got_pragma = slice_is(value, "content-type");
    } else if (slice_is(name, "content") && !seen_content) {
      seen_content = true;
      if (!enc) {
        const struct parse__encoding *found = content_charset(value);
        if (found) {
          enc = found;
          need_pragma = true;
          decided = true;
        }
      }
    } else if (slice_is(name, "charset") && !seen_charset) {
      seen_charset = true;
      enc = parse__encoding_for(value.p, value.n);
      need_pragma = false;
      decided = true;
    }
  }
  if (!decided || !enc || (need_pragma && !got_pragma))
    return NULL;
  if (parse__encoding_is_utf16(enc))
    return parse__encoding_utf8();
  return enc->kind == DECODE_USER ? parse__encoding_windows_1252() : enc;
}

const struct parse__encoding *parse__meta_prescan(const char *s, size_t n) {
  const char *p = s, *end = s + n;
  while (p < end) {
    size_t left = (size_t)(end - p);
    if (*p != '<') {
      const char *lt = memchr(p, '<', left);
      p = lt ? lt : end;
      continue;
    }
    if (left >= 4 && memcmp(p, "<!--", 4) == 0) { /* "<!-->" ends there too */
      const char *close = NULL;
      for (const char *q = p + 2; q + 3 <= end && !close; q++)
        if (memcmp(q, "-->", 3) == 0)
          close = q;
      p = close ? close + 3 : end;
    } else if (left >= 6 && strncasecmp(p + 1, "meta", 4) == 0 &&
               (parse__is_space(p[5]) || p[5] == '/')) {
      p += 5;
      const struct parse__encoding *enc = meta_tag(&p, end);
      if (enc)
        return enc;
    } else if (left >= 2 && (isalpha((unsigned char)p[1]) ||
                             (p[1] == '/' && left >= 3 && isalpha((unsigned char)p[2])))) {
      /* another tag: its attributes are passed over, a '>' inside their values too */
      p++;
      while (p < end && !parse__is_space(*p) && *p != '>')
        p++;
      struct slice name, value;
      while (next_attribute(&p, end, &name, &value))
        ;
    } else if (left >= 2 && (p[1] == '!' || p[1] == '/' || p[1] == '?')) {
      const char *gt = memchr(p, '>', left);
      p = gt ? gt + 1 : end;
    } else {
      p++;
    }
  }
  return NULL;
}

/* ---- decoders ---- */

/* windows-1252's 0x80-0x9F (the Encoding Standard's index); 0xA0-0xFF are U+00A0-U+00FF */
static const unsigned short cp1252_high[32] = {
    0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008d, 0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
    0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178};

enum { CARRY_MAX = 16, OUT_ROOM = 4096 };

struct parse__decoder {
  const struct parse__encoding *enc;
  iconv_t cd;            /* DECODE_ICONV */
  size_t unit;           /* bytes passed over after a bad sequence (2 for UTF-16) */
  char carry[CARRY_MAX]; /* the start of a character cut by a chunk's end */
  size_t carry_len;
  bool replaced; /* DECODE_REPLACEMENT: its one U+FFFD was given */
};

static const char replacement[] = "\xef\xbf\xbd";

core_rc parse__decoder_create(const struct parse__encoding *enc, parse__decoder **out) {
  struct parse__decoder *dec = calloc(1, sizeof(*dec));
  if (!dec)
    return CORE_ENOMEM;
  dec->enc = enc;
  dec->cd = (iconv_t)-1;
  dec->unit = 1;
  if (enc->kind == DECODE_ICONV) {
    dec->cd = iconv_open("UTF-8", enc->decode_as);
    if (dec->cd == (iconv_t)-1) { /* glibc has every name above: only a lack of memory fails */
      free(dec);
      return CORE_ENOMEM;
    }
    if (parse__encoding_is_utf16(enc))
      dec->unit = 2;
  }
  *out = dec;
  return CORE_OK;
}

void parse__decoder_destroy(parse__decoder *dec) {
  if (!dec)
    return;
  if (dec->cd != (iconv_t)-1)
    iconv_close(dec->cd);
  free(dec);
}

static size_t put_utf8(char *o, unsigned cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xc0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  o[0] = (char)(0xe0 | (cp >> 12));
  o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
  o[2] = (char)(0x80 | (cp & 0x3f));
  return 3;
}

/* A single-byte table: runs of ASCII go on where they lie, the rest through out. */
static core_rc decode_table(parse__decoder *dec, const char *data, size_t len, parse__sink sink,
                            void *arg) {
  const unsigned char *u = (const unsigned char *)data;
  size_t i = 0;
  while (i < len) {
    size_t run = i;
    while (run < len && u[run] < 0x80)
      run++;
    core_rc rc = run > i ? sink(arg, data + i, run - i) : CORE_OK;
    if (rc)
      return rc;
    char out[OUT_ROOM];
    size_t o = 0;
    for (i = run; i < len && u[i] >= 0x80 && o + 3 <= sizeof(out); i++) {
      unsigned cp = dec->enc->kind == DECODE_USER ? 0xf780u + (u[i] - 0x80u)
                    : u[i] < 0xa0                 ? cp1252_high[u[i] - 0x80]
                                                  : u[i];
      o += put_utf8(out + o, cp);
    }
    if (o && (rc = sink(arg, out, o)))
      return rc;
  }
  return CORE_OK;
}

static core_rc decode_iconv(parse__decoder *dec, const char *data, size_t len, bool last,
                            parse__sink sink, void *arg) {
  /* a cut character's start, and then the chunk: only the first bytes are copied for it */
  char joined[CARRY_MAX * 2];
  const char *rest = data;
  size_t rest_len = len;
  core_rc rc = CORE_OK;
  while (dec->carry_len && rc == CORE_OK && (rest_len || last)) {
    size_t take = rest_len < CARRY_MAX ? rest_len : CARRY_MAX;
    memcpy(joined, dec->carry, dec->carry_len);
    memcpy(joined + dec->carry_len, rest, take);
    size_t had = dec->carry_len, n = had + take;
    char *p = joined;
    size_t left = n;
    dec->carry_len = 0;
    /* decoded as far as the joined bytes go; what they leave is a character still cut */
    char out[CARRY_MAX * 8], *o = out;
    size_t room = sizeof(out);
    size_t done = iconv(dec->cd, &p, &left, &o, &room);
    int err = errno;
    if (o > out)
      rc = sink(arg, out, (size_t)(o - out));
    size_t used = n - left;
    if (done == (size_t)-1 && err == EILSEQ) {
      rc = rc ? rc : sink(arg, replacement, 3);
      used += left < dec->unit ? left : dec->unit;
    } else if (done == (size_t)-1 && err == EINVAL) {
      if (take == rest_len && !last) { /* still cut, and the chunk all in it: it waits on */
        memcpy(dec->carry, p, left);
        dec->carry_len = left;
        return rc;
      }
      if (take == rest_len) { /* cut by the body's end */
        rc = rc ? rc : sink(arg, replacement, 3);
        used = n;
      } else if (used < had) { /* no character is that long: the first byte was bad */
        rc = rc ? rc : sink(arg, replacement, 3);
        used += dec->unit < had - used ? dec->unit : had - used;
      }
    }
    if (used < had) { /* the bad sequence lay in the carried bytes: the rest of them again */
      memmove(dec->carry, dec->carry + used, had - used);
      dec->carry_len = had - used;
    } else {
      rest += used - had;
      rest_len -= used - had;
    }
  }
  char *p = (char *)rest;
  size_t left = rest_len;
  while (left && rc == CORE_OK) {
    char out[OUT_ROOM], *o = out;
    size_t room = sizeof(out);
    size_t done = iconv(dec->cd, &p, &left, &o, &room);
    int err = errno;
    if (o > out)
      rc = sink(arg, out, (size_t)(o - out));
    if (done != (size_t)-1)
      break;
    if (err == EILSEQ) {
      rc = rc ? rc : sink(arg, replacement, 3);
      size_t skip = left < dec->unit ? left : dec->unit;
      p += skip;
      left -= skip;
    } else if (err == EINVAL) { /* a character cut at the end */
      if (last || left > CARRY_MAX) {
        rc = rc ? rc : sink(arg, replacement, 3);
        left = 0;
      }
      break;
    }
    /* E2BIG: out was full, the loop goes on */
  }
  if (left && !last) {
    memcpy(dec->carry, p, left);
    dec->carry_len = left;
  }
  if (last) { /* a stateful encoding (ISO-2022-JP) ends in its first state */
    char out[16], *o = out;
    size_t room = sizeof(out);
    if (iconv(dec->cd, NULL, NULL, &o, &room) != (size_t)-1 && o > out && rc == CORE_OK)
      rc = sink(arg, out, (size_t)(o - out));
  }
  return rc;
}

core_rc parse__decode(parse__decoder *dec, const char *data, size_t len, bool last,
                      parse__sink sink, void *arg) {
  if (!data) /* the body's end: no bytes, and no pointer to move on */
    data = "";
  switch (dec->enc->kind) {
    case DECODE_UTF8:
      return len ? sink(arg, data, len) : CORE_OK;
    case DECODE_1252:
    case DECODE_USER:
      return decode_table(dec, data, len, sink, arg);
    case DECODE_REPLACEMENT:
      if (dec->replaced || !len)
        return CORE_OK;
      dec->replaced = true;
      return sink(arg, replacement, 3);
    case DECODE_ICONV:
      break;
  }
  return decode_iconv(dec, data, len, last, sink, arg);
}
