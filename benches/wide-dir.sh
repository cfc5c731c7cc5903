#!/usr/bin/env bash
# One directory of 200,000 empty files (issue 40 items 5 and 8): its streamed export
# (`hogs -O`, against ncdu 2.8's `-O` when NCDU2 names one), and `--import w.ncdu -d 1`
# read on demand against the same file loaded whole (HOGS_DEBUG_IMPORT=load): wall time and
# peak RSS (/usr/bin/time), outputs compared byte for byte.
#
#   bash benches/wide-dir.sh [DIR] [FILES]     (defaults: /tmp/hogs-wide 200000)
#
# Needs a release build (cargo build --release; HOGS=path to name another binary).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${1:-/tmp/hogs-wide}
files=${2:-200000}
target=${CARGO_TARGET_DIR:-target}
hogs=${HOGS:-$(ls "$target"/*/release/hogs "$target"/release/hogs 2>/dev/null | head -n1)}
[ -x "$hogs" ] || { echo "no release build: cargo build --release" >&2; exit 1; }
if [ ! -e "$dir/.done-$files" ]; then
  mkdir -p "$dir/w"
  python3 -c "
import os, sys
d = sys.argv[1]
for i in range(int(sys.argv[2])):
    open(os.path.join(d, 'f%d' % i), 'w').close()
" "$dir/w" "$files"
  touch "$dir/.done-$files"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
t() { /usr/bin/time -f "%e s %M KiB" "$@"; }

echo "== export (-O), $files files in one directory"
for r in 1 2; do
  printf 'hogs -O     run %s: ' "$r"; t "$hogs" -O "$out/w.ncdu" "$dir/w" 2>&1 | tail -1
  if [ -n "${NCDU2:-}" ]; then
    printf 'ncdu 2.8 -O run %s: ' "$r"; t "$NCDU2" -O "$out/n.ncdu" "$dir/w" 2>&1 | tail -1
  fi
done
echo "== --import w.ncdu -d 1 (every row)"
for r in 1 2; do
  printf 'on demand run %s: ' "$r"; t "$hogs" --import "$out/w.ncdu" -d 1 2>&1 >"$out/lazy" | tail -1
  printf 'loaded    run %s: ' "$r"
  HOGS_DEBUG_IMPORT=load t "$hogs" --import "$out/w.ncdu" -d 1 2>&1 >"$out/load" | tail -1
  cmp "$out/lazy" "$out/load" && echo "outputs identical ($(wc -l <"$out/load") lines)"
done
