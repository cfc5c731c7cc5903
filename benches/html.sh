#!/usr/bin/env bash
# The limits of `hogs --html` on a tree of 5 million entries (issue 36): the page's size, the
# time to write it against `hogs -d 1` on the same tree, and the time a headless chromium
# takes to open it and draw its rectangles.
#
#   bash benches/html.sh [TREES_DIR] [TREE]     (defaults: /tmp/hogs-bench-trees big5m)
#
# Needs a release build (cargo build --release; HOGS=path to name another binary),
# /usr/bin/chromium and tests/browser/node_modules (npm ci in tests/browser). The tree is built by
# benches/gen-trees.py when missing (8 minutes and 4.2 GB for big5m).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
trees=${1:-/tmp/hogs-bench-trees}
tree=${2:-big5m}
target=${CARGO_TARGET_DIR:-target}
hogs=${HOGS:-$(ls "$target"/*/release/hogs "$target"/release/hogs 2>/dev/null | head -n1)}
[ -x "$hogs" ] || { echo "no release build: cargo build --release" >&2; exit 1; }
[ -e "$trees/.$tree.done" ] || python3 benches/gen-trees.py -j 2 "$trees" "$tree"
page=$(mktemp --suffix=.html)
trap 'rm -f "$page"' EXIT

# interleaved (benches/interleave.py): on a shared machine a drift in speed hits both alike
echo "== write: hogs -d 1 against hogs --html (warm cache, -T default), medians of ${ROUNDS:-7}"
python3 benches/interleave.py "${ROUNDS:-7}" \
  "$hogs -d 1 $trees/$tree" \
  "$hogs --html $page $trees/$tree"

echo "== the page"
ls -l "$page" | awk '{printf "%s bytes (%.2f MiB)\n", $5, $5 / 1048576}'
grep -o '"nodes":\[' "$page" >/dev/null && echo "entries held: $(grep -c '^\[' "$page")"

echo "== open in headless chromium (load to rectangles drawn), 5 runs"
for _ in 1 2 3 4 5; do
  node tests/browser/report.js "$page" '{}' |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["loadMs"], "ms,", len(r["first"]["rects"]), "top rectangles,", r["first"]["nested"], "nested")'
done
