#!/usr/bin/env bash
# Refreshes the bundled libxml2 in subprojects/libxml2 from a checkout of GNOME/libxml2 at a release
# tag: copies the files the library build needs (the sources of the parser, HTML included, and
# their headers), no more. Our own meson.build there is kept; see the README's "Dependencies".
#   bash scripts/update-libxml2.sh PATH-TO-LIBXML2-CHECKOUT v2.15.3
set -euo pipefail
src=${1:?usage: update-libxml2.sh CHECKOUT TAG}
tag=${2:?usage: update-libxml2.sh CHECKOUT TAG}
dest="$(cd "$(dirname "$0")/.." && pwd)/subprojects/libxml2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$src" archive "$tag" | tar -x -C "$tmp"

# the library's sources: the parser core, and the HTML parser; nothing for XPath, schemas,
# catalogs, HTTP, readers, writers or the tools
sources="buf.c chvalid.c dict.c entities.c encoding.c error.c globals.c hash.c list.c parser.c
  parserInternals.c SAX2.c threads.c tree.c uri.c valid.c xmlIO.c xmlmemory.c xmlstring.c
  HTMLparser.c HTMLtree.c"

find "$dest" -mindepth 1 ! -name meson.build ! -name .clang-format -delete 2>/dev/null || true
mkdir -p "$dest/include/libxml" "$dest/include/private" "$dest/codegen"
for f in $sources libxml.h Copyright VERSION; do cp "$tmp/$f" "$dest/$f"; done
cp "$tmp"/include/libxml/*.h "$tmp/include/libxml/xmlversion.h.in" "$dest/include/libxml/"
cp "$tmp"/include/private/*.h "$dest/include/private/"
cp "$tmp"/codegen/*.inc "$dest/codegen/"
echo "$tag $(git -C "$src" rev-parse "$tag^{commit}")" >"$dest/SOURCE"
echo "subprojects/libxml2 now holds libxml2 $(cat "$dest/VERSION") ($tag)"
