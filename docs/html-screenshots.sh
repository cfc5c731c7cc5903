#!/usr/bin/env bash
# Makes the screenshots of `hogs --html` in docs/ (html-scan.png, html-diff.png,
# html-owner.png): builds a small demo project in a temporary directory (about 110 MB,
# removed at the end), writes a page of it, of a comparison with an earlier scan of it and of
# its owners, and has headless chromium draw each through tests/browser/report.js (the
# tests' playwright-core setup, 1280×900).
#
#   bash docs/html-screenshots.sh            (as root: the owners' page chowns files)
#
# Needs a build of hogs (HOGS=path, else target/*/{release,debug}/hogs, else cargo build),
# /usr/bin/chromium, node and tests/browser/node_modules (npm ci in tests/browser).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
[ "$(id -u)" = 0 ] || { echo "run as root: the owners' page needs files of other owners" >&2; exit 1; }
if [ -z "${HOGS:-}" ]; then
  target=${CARGO_TARGET_DIR:-target}
  HOGS=$(ls "$target"/*/release/hogs "$target"/*/debug/hogs 2>/dev/null | head -n1 || true)
  [ -n "$HOGS" ] || { cargo build && HOGS=$(ls "$target"/*/debug/hogs | head -n1); }
fi
[ -d tests/browser/node_modules/playwright-core ] || (cd tests/browser && npm ci --no-audit --no-fund)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# file PATH SIZE: a file of SIZE bytes with real blocks (fallocate where it can, else zeros)
file() {
  mkdir -p "$(dirname "$1")"
  fallocate -l "$2" "$1" 2>/dev/null || head -c "$2" /dev/zero > "$1"
}
M=$((1024 * 1024))
file project/data/raw/2026.csv $((12 * M))
file project/data/raw/2025.csv $((9 * M))
file project/data/raw/2024.csv $((8 * M))
file project/data/cache.bin $((3 * M))
file project/target/release/app $((12 * M))
file project/target/debug/app $((11 * M))
file project/media/intro.mp4 $((20 * M))
file project/media/photos/a.jpg $((3 * M))
file project/media/photos/b.jpg $((5 * M / 2))
file project/media/logo.png $((300 * 1024))
file project/logs/app.log $((8 * M))
file project/logs/old.log $((2 * M))
file project/docs/manual.pdf $((5 * M / 2))
file project/docs/README.md 12000
for i in $(seq 1 40); do
  file "project/src/mod$i.rs" $(((i * 7919 % 97 + 4) * 1024))
done
mkdir -p project/backup

shoot() { # PAGE PNG
  node "$repo/tests/browser/report.js" "$1" "{\"screenshot\": \"$repo/docs/$2\"}" > /dev/null
  echo "docs/$2"
}

"$HOGS" --html scan.html project
shoot scan.html html-scan.png

# a month later: the logs and the data grew, a photo and the debug build are gone
"$HOGS" -O old.json project
file project/logs/app.log $((14 * M))
file project/data/raw/2027.csv $((6 * M))
rm project/media/photos/b.jpg
rm -r project/target/debug
"$HOGS" --html diff.html --diff old.json project
shoot diff.html html-diff.png

chown -R daemon: project/data
chown -R www-data: project/media
chown -R nobody: project/logs
"$HOGS" --html owner.html --by-owner project
shoot owner.html html-owner.png
