#!/usr/bin/env bash
# memory-curve.sh - peak RSS and wall time of every hogs view that keeps the whole tree, on
# trees of growing size: the curve of issue 26 (bytes an entry, and whether they stay flat).
#
# Usage: HOGS=path/to/hogs benches/memory-curve.sh [options] TREE...
#
#   -r RUNS   runs of each view on each tree (default 3); medians are shown
#   -v LIST   views, comma-separated (default: all, in this order):
#               d1      hogs -d 1 TREE                 (the bars; output to /dev/null)
#               f       hogs -f -d 1 TREE              (entry counts)
#               j       hogs -j TREE > /dev/null       (JSON)
#               O       hogs -O EXPORT TREE            (ncdu export, kept for import and diff)
#               import  hogs --import EXPORT -d 1
#               diff    hogs --diff EXPORT TREE        (the export against a new walk)
#               i       hogs i TREE                    (in a detached tmux pane)
#               Obin    hogs -O EXPORT.ncdu TREE       (the walk streamed to a binary export:
#                       no tree held, its peak must not grow with the tree)
#               browse  hogs --import EXPORT.ncdu -d 2 (a binary export read on demand, not
#                       loaded: made untimed first unless Obin runs; its peak must not grow)
#               ibrowse hogs i --import EXPORT.ncdu    (the same, browsed; in tmux as `i`)
#               merge   hogs --import PARTS -O MERGED.ncdu  (merge to binary: each directory
#                       directly in TREE exported to binary first, untimed, one part each;
#                       streamed, its peak must not grow with the parts)
#   -o DIR    exports, raw results and the table go here (default /tmp/hogs-memory-curve)
#   -S        measure nothing: print the table of the runs in DIR/runs.tsv (a run still going,
#             or runs.tsv files put together); no TREE, no HOGS needed
#   -h        this help
#   TREE      directories, e.g. the trees big big1m big2m big5m of benches/gen-trees.py
#
# Every command but `i` runs under /usr/bin/time -f '%e %M': wall seconds and peak RSS
# (KiB). `hogs i TREE` runs in a 120x40 pane of a tmux server of the script's own (socket in
# DIR); once the status line has its entry count and no longer says "scanning" the scan is
# done: the time is taken then (polled every 50 ms from before the pane was started), and
# VmHWM from /proc/PID/status half a second later; then `q` is sent. Runs go in rounds (each
# round runs every view once on a tree) so that a drift of the machine's speed is shared.
# Entries are `du --inodes -s TREE` (the tree's own directory included).
#
# Prints a Markdown table (view, tree, entries, median peak RSS in MiB, bytes an entry =
# RSS / entries, median seconds) and, per view, a SLOPE line: the least-squares line of RSS
# and of time against entries over the trees given, i.e. the marginal bytes an entry (the
# fixed baseline, the program and its buffers, is the intercept) and seconds per million
# entries, and how far the worst tree is off that line. The table also goes to DIR/curve.md,
# every single run to DIR/runs.tsv.
# Needs: bash, coreutils, python3, tmux (for `i`), /usr/bin/time (package `time`).
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "memory-curve.sh: $*" >&2; exit 2; }
note() { echo "memory-curve.sh: $*" >&2; }

ALL_VIEWS=d1,f,j,O,import,diff,i,Obin,browse,ibrowse,merge
RUNS=3 VIEWS=$ALL_VIEWS OUT=/tmp/hogs-memory-curve SUMMARY=0
while getopts "r:v:o:Sh" opt; do
  case $opt in
    r) RUNS=$OPTARG ;;
    v) VIEWS=$OPTARG ;;
    o) OUT=$OPTARG ;;
    S) SUMMARY=1 ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
(($# || SUMMARY)) || { usage >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "-r: a positive number, not '$RUNS'"
IFS=, read -r -a views <<< "$VIEWS"
for v in "${views[@]}"; do
  [[ ,$ALL_VIEWS, == *",$v,"* ]] || die "-v: unknown view '$v' (known: $ALL_VIEWS)"
done
# in the listed order, whatever order -v gave: O before import and diff
ordered=()
for v in ${ALL_VIEWS//,/ }; do [[ " ${views[*]} " == *" $v "* ]] && ordered+=("$v"); done
views=("${ordered[@]}")

# the table and the slopes of the runs in $RUNS_TSV, to stdout and $OUT/curve.md
summary() {
{
  if ((SUMMARY)); then
    echo "from \`$RUNS_TSV\` ($(date -u -r "$RUNS_TSV" '+%Y-%m-%d %H:%M UTC')), medians"
  else
    echo "hogs: \`$HOGS\` ($("$HOGS" --version 2>/dev/null | head -1)) ·" \
      "$(date -u '+%Y-%m-%d %H:%M UTC') · $(nproc) CPUs · load $(cut -d' ' -f1-3 /proc/loadavg) ·" \
      "medians of $RUNS runs"
  fi
  echo
  python3 - "$RUNS_TSV" "$(printf '%s,' "${views[@]}")" <<'PY'
import statistics, sys

rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
views = [v for v in sys.argv[2].split(",") if v]
names = {"d1": "-d 1", "f": "-f -d 1", "j": "-j", "O": "-O", "import": "--import -d 1",
         "diff": "--diff EXPORT TREE", "i": "i", "Obin": "-O x.ncdu", "browse": "--import x.ncdu -d 2",
         "ibrowse": "i --import x.ncdu", "merge": "--import PARTS -O x.ncdu"}
runs = {}
for view, tree, entries, _run, kib, secs in rows:
    runs.setdefault((view, tree, int(entries)), []).append((int(kib), float(secs)))
print("| view | tree | entries | peak RSS MiB | bytes/entry | seconds |")
print("|---|---|--:|--:|--:|--:|")
points = {}
for view in views:
    for (v, tree, entries), rs in sorted(runs.items(), key=lambda kv: kv[0][2]):
        if v != view:
            continue
        kib = statistics.median(k for k, _ in rs)
        secs = statistics.median(s for _, s in rs)
        points.setdefault(view, []).append((entries, kib * 1024, secs))
        print(f"| `hogs {names[view]}` | {tree} | {entries:,} | {kib / 1024:.1f} | "
              f"{kib * 1024 / entries:.1f} | {secs:.2f} |")
print()


def fit(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = my - b * mx
    worst = max(abs(y - (a + b * x)) / y for x, y in zip(xs, ys)) if all(ys) else float("nan")
    return a, b, worst


for view in views:
    pts = sorted(points.get(view, []))
    if not pts:
        continue
    if len({e for e, _, _ in pts}) < 2:
        print(f"SLOPE `hogs {names[view]}`: needs trees of two sizes or more")
        continue
    xs = [e for e, _, _ in pts]
    a, b, worst = fit(xs, [m for _, m, _ in pts])
    ta, tb, tworst = fit(xs, [s for _, _, s in pts])
    print(f"SLOPE `hogs {names[view]}`: {b:.1f} bytes/entry (fixed {a / 2**20:.1f} MiB, "
          f"worst tree {worst * 100:.1f}% off the line); {tb * 1e6:.2f} s per million entries "
          f"(fixed {ta:.2f} s, worst {tworst * 100:.1f}% off); {len(pts)} trees, "
          f"{min(xs):,}..{max(xs):,} entries")
PY
} | tee "$OUT/curve.md"
}

if ((SUMMARY)); then
  OUT=$(cd "$OUT" && pwd) RUNS_TSV=$OUT/runs.tsv
  [[ -s $RUNS_TSV ]] || die "-S: no runs in $RUNS_TSV"
  summary
  exit 0
fi
[[ -n ${HOGS:-} ]] || die "set HOGS to the hogs binary to measure"
[[ -x $HOGS ]] || die "HOGS=$HOGS is not an executable"
HOGS=$(cd "$(dirname "$HOGS")" && pwd)/$(basename "$HOGS")
[[ -x /usr/bin/time ]] || die "/usr/bin/time is needed (apt-get install time)"
command -v python3 >/dev/null || die "python3 is needed"
if [[ " ${views[*]} " =~ " "(i|ibrowse)" " ]]; then
  command -v tmux >/dev/null || die "tmux is needed for the view 'i' (or leave it out: -v)"
fi
trees=()
for d in "$@"; do
  [[ -d $d ]] || die "not a directory: $d"
  trees+=("$(cd "$d" && pwd)")
done

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RUNS_TSV=$OUT/runs.tsv
SOCK=$OUT/tmux.sock
: > "$RUNS_TSV"
cleanup() { if [[ -S $SOCK ]]; then tmux -S "$SOCK" kill-server 2>/dev/null || true; rm -f "$SOCK"; fi; }
trap cleanup EXIT

# the command line of VIEW on TREE (EXPORT: its export), shell-quoted, for eval
command_of() {
  local h t e
  h=$(printf '%q' "$HOGS") t=$(printf '%q' "$2") e=$(printf '%q' "$3")
  case $1 in
    d1) echo "$h -d 1 $t" ;;
    f) echo "$h -f -d 1 $t" ;;
    j) echo "$h -j $t" ;;
    O) echo "$h -O $e $t" ;;
    import) echo "$h --import $e -d 1" ;;
    diff) echo "$h --diff $e $t" ;;
    i) echo "$h i $t" ;;
    Obin) echo "$h -O $e.ncdu $t" ;;
    browse) echo "$h --import $e.ncdu -d 2" ;;
    ibrowse) echo "$h i --import $e.ncdu" ;;
    merge) local parts
      parts=$(printf '%q' "$3.parts")
      echo "$h --import $parts/*.ncdu -O $parts/merged.ncdu" ;;
  esac
}

# one run of a view but i: sets SECS and KIB
run_timed() { # CMD LOG
  local tf=$OUT/.time rc=0
  eval "/usr/bin/time -f '%e %M' -o $(printf '%q' "$tf") $1" > /dev/null 2> "$2" || rc=$?
  ((rc == 0)) || { tail -3 "$2" >&2; die "exit $rc: $1 (log: $2)"; }
  read -r SECS KIB < <(tail -1 "$tf")
  [[ $KIB =~ ^[0-9]+$ ]] || die "no reading from /usr/bin/time for: $1"
}

# one run of `hogs i TREE` in tmux: sets SECS and KIB
run_tui() { # VIEW TREE EXPORT LOG
  local cmd t0 t1 pid screen status waited=0
  cmd=$(command_of "$1" "$2" "$3")
  shift 2
  tmux -S "$SOCK" kill-session -t curve 2>/dev/null || true
  t0=$(date +%s.%N)
  tmux -S "$SOCK" new-session -d -s curve -x 120 -y 40 "exec $cmd 2> $(printf '%q' "$2")"
  pid=$(tmux -S "$SOCK" display-message -p -t curve '#{pane_pid}')
  local comm  # the binary's name as the kernel keeps it (15 bytes at most)
  comm=$(basename "$HOGS" | cut -c1-15)
  for _ in $(seq 100); do  # the pane's shell execs hogs
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$comm" ]] && break
    sleep 0.05
  done
  [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$comm" ]] || die "the pane's process $pid is not $comm"
  while :; do
    screen=$(tmux -S "$SOCK" capture-pane -p -t curve 2>/dev/null) ||
      die "hogs i ended early (log: $2)"
    status=$(grep -m1 -E ' entries · ' <<< "$screen" || true)  # the status line, near the top
    if [[ -n $status && $status != *scanning* ]]; then break; fi
    sleep 0.05
    waited=$((waited + 1))
    ((waited < 12000)) || die "hogs i $1: still scanning after 10 minutes"
  done
  t1=$(date +%s.%N)
  SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  sleep 0.5
  KIB=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
  [[ $KIB =~ ^[0-9]+$ ]] || die "no VmHWM for hogs i (pid $pid)"
  printf '%s\n' "$screen" > "$2.screen"
  tmux -S "$SOCK" send-keys -t curve q
  for _ in $(seq 200); do [[ -e /proc/$pid ]] || return 0; sleep 0.05; done
  note "hogs i (pid $pid) did not end on q; killing it"
  kill "$pid" 2>/dev/null || true
}

note "hogs: $HOGS ($("$HOGS" --version 2>/dev/null | head -1))"
declare -A ENTRIES
for tree in "${trees[@]}"; do
  ENTRIES[$tree]=$(du --inodes -s "$tree" | cut -f1)
  label=$(basename "$tree")
  note "== $label: ${ENTRIES[$tree]} entries"
  export_file=$OUT/$label.json
  if [[ " ${views[*]} " != *" O "* && " ${views[*]} " =~ " "(import|diff)" " ]]; then
    note "export for import/diff (untimed): $(command_of O "$tree" "$export_file")"
    "$HOGS" -O "$export_file" "$tree" > /dev/null
  fi
  if [[ " ${views[*]} " != *" Obin "* && " ${views[*]} " =~ " "(browse|ibrowse)" " ]]; then
    note "binary export for browse (untimed): $(command_of Obin "$tree" "$export_file")"
    "$HOGS" -O "$export_file.ncdu" "$tree" > /dev/null
  fi
  if [[ " ${views[*]} " == *" merge "* ]]; then
    note "binary parts for merge (untimed): each directory in $tree"
    rm -rf "$export_file.parts" && mkdir -p "$export_file.parts"
    n=0
    for d in "$tree"/*/; do
      n=$((n + 1))
      "$HOGS" -O "$export_file.parts/$n.ncdu" "${d%/}" > /dev/null
    done
  fi
  for ((r = 1; r <= RUNS; r++)); do
    for v in "${views[@]}"; do
      log=$OUT/$label.$v.$r.log
      if [[ $v == i || $v == ibrowse ]]; then
        run_tui "$v" "$tree" "$export_file" "$log"
      else
        run_timed "$(command_of "$v" "$tree" "$export_file")" "$log"
      fi
      note "run $r/$RUNS $v: $SECS s, $KIB KiB"
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$label" "${ENTRIES[$tree]}" "$r" "$KIB" "$SECS" >> "$RUNS_TSV"
    done
  done
done

summary
note "table: $OUT/curve.md, runs: $RUNS_TSV"
