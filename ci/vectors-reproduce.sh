#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerating the golden vectors must reproduce the committed files byte
# for byte (Wycheproof's rule: a changed expected value is a new version).
set -eu
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" vectors gen "$tmp" > /dev/null
status=0
for f in "$tmp"/*.json; do
  b=$(basename "$f")
  if ! cmp -s "$f" "vectors/$b"; then
    echo "vectors-reproduce: vectors/$b differs from a fresh generation:"
    diff "vectors/$b" "$f" | head -20
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "vectors-reproduce: $(ls "$tmp" | wc -l) files reproduced byte for byte"
exit $status
