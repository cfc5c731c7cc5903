#!/usr/bin/env bash
# compare.sh - hogs against its peers, side by side, on synthetic and real trees.
#
# Usage: benches/compare.sh [options] [EXTRA_DIR...]
#
#   -m MODE   disk (default): total disk usage, checked against `du -sB1`
#             count: number of inodes, checked against `du -s --inodes`
#             (only tools with a count mode: hogs -f, du --inodes, dust -f, floor -c)
#   -r RUNS   timed runs per tool (default 10; 3 with -c)
#   -w N      warm-up runs per tool (default 3; 0 with -c)
#   -T LIST   synthetic trees, comma-separated (default
#             balanced,wide_flat,deep_narrow,links,big; "none" for EXTRA_DIRs only)
#   -d DIR    where the trees are generated (default /tmp/hogs-bench-trees)
#   -o DIR    hyperfine JSON, tool outputs, logs and report.md go here
#             (default /tmp/hogs-bench-results/DATE-MODE)
#   -t N      also time N-thread variants (-t1: single-threaded hogs -T 1,
#             dust -T 1, dua -t 1, pdu --threads=1, diskus -j 1, gdu -m 1;
#             floor1 is always there)
#   -p LIST   only these peers, comma-separated (hogs always runs), e.g. du,dust,floor2
#   -c        cold cache: drop the page cache before every timed run
#             (hyperfine --prepare; needs root and a writable /proc/sys/vm/drop_caches)
#   -s SECS   a tool whose first (checking) run takes longer than SECS is not
#             given to hyperfine; that single run is reported instead (default 15)
#   -S        skip the peak-RSS measurement
#   -B        do not run `cargo build --release` (use the existing binary)
#   -l        list the tools and their exact invocations, then exit
#   -h        this help
#   EXTRA_DIR real directories to measure as well (e.g. /usr ~/src/linux)
#
# Per tree: every tool runs once with its output kept, and the total it prints
# is compared with du's; then ONE hyperfine invocation (-N, no shell) times all
# tools; then peak RSS is the median of 3 runs under /usr/bin/time -f %M.
# The C "floor" walker (benches/floor.c: a minimal getdents64+fstatat walker,
# the syscall floor) is built from $FLOOR_SRC (default: floor.c next to this
# script) with gcc -O2 -pthread; without gcc or the file it is skipped.
# Needs: cargo, python3, hyperfine, GNU du; peers are optional.
# Environment: HOGS_BIN (binary to test), FLOOR_SRC, FLOOR_BIN,
#   DROP_CACHES_CMD (what -c runs before each timed run).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "compare.sh: $*" >&2; exit 2; }
note() { echo "compare.sh: $*" >&2; }

MODE=disk RUNS="" WARMUP="" TREES="balanced,wide_flat,deep_narrow,links,big"
TREE_DIR=/tmp/hogs-bench-trees OUT="" THREADS="" ONLY="" COLD=0 SLOW=15
NO_RSS=0 NO_BUILD=0 LIST=0
while getopts "m:r:w:T:d:o:t:p:cs:SBlh" opt; do
  case $opt in
    m) MODE=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    w) WARMUP=$OPTARG ;;
    T) TREES=$OPTARG ;;
    d) TREE_DIR=$OPTARG ;;
    o) OUT=$OPTARG ;;
    t) THREADS=$OPTARG ;;
    p) ONLY=$OPTARG ;;
    c) COLD=1 ;;
    s) SLOW=$OPTARG ;;
    S) NO_RSS=1 ;;
    B) NO_BUILD=1 ;;
    l) LIST=1 ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
EXTRA_DIRS=("$@")

[[ $MODE == disk || $MODE == count ]] || die "-m: 'disk' or 'count', not '$MODE'"
if ((COLD)); then RUNS=${RUNS:-3} WARMUP=${WARMUP:-0}; else RUNS=${RUNS:-10} WARMUP=${WARMUP:-3}; fi
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "-r: a positive number, not '$RUNS'"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "-w: a number, not '$WARMUP'"
[[ -z $THREADS || $THREADS =~ ^[1-9][0-9]*$ ]] || die "-t: a positive number, not '$THREADS'"
[[ $SLOW =~ ^[0-9]+([.][0-9]+)?$ ]] || die "-s: seconds, not '$SLOW'"
for d in "${EXTRA_DIRS[@]}"; do [[ -d $d ]] || die "not a directory: $d"; done

HOGS_BIN="${HOGS_BIN:-}"   # default: the newest release build (found after building)
FLOOR_SRC="${FLOOR_SRC:-$HERE/floor.c}"
# the default binary is named after the source's checksum: another floor.c
# (an older one, or one from FLOOR_SRC) never stands in for this one
FLOOR_SUM=$( { cksum 2>/dev/null < "$FLOOR_SRC" || echo none; } | cut -d' ' -f1)
FLOOR_BIN="${FLOOR_BIN:-/tmp/hogs-bench-bin/floor-$FLOOR_SUM}"
HOGS_Q=$HOGS_BIN FLOOR_Q=$FLOOR_BIN  # unquoted copies; invocation() quotes them
DROP_CACHES_CMD="${DROP_CACHES_CMD:-sync; echo 3 > /proc/sys/vm/drop_caches}"

# ------------------------------------------------------------------ tools
# Every tool in the order it is timed; hogs first. The *_tN variants are only
# used with -t N. floor1/floor2 are the C floor walker with 1 and 2 threads.
TOOLS=(hogs du dust dua pdu diskus gdu ncdu floor1 floor2)
TVARIANTS=(hogs dust dua pdu diskus gdu floor)

# invocation TOOL PATH -> the command line timed (and, except ncdu, checked);
# empty when TOOL has nothing for MODE. Output-format flags are part of the
# timed command so that exactly what is timed is what is checked; they only
# change how one number is printed.
invocation() {
  local tool=$1 p n="" HOGS_BIN FLOOR_BIN
  p=$(printf '%q' "$2")
  HOGS_BIN=$(printf '%q' "$HOGS_Q") FLOOR_BIN=$(printf '%q' "$FLOOR_Q")
  if [[ $tool == *_t* ]]; then n=${tool##*_t}; tool=${tool%_t*}; fi
  case $MODE:$tool in
    disk:hogs)   echo "$HOGS_BIN ${n:+-T $n }-d 0 -P -o b $p" ;;
    disk:du)     echo "du -s -B1 $p" ;;
    disk:dust)   echo "dust ${n:+-T $n }-d 0 -P -n 1 -o b $p" ;;
    disk:dua)    echo "dua ${n:+-t $n }-f bytes aggregate $p" ;;
    disk:pdu)    echo "pdu ${n:+--threads=$n }-H -b plain --max-depth=1 $p" ;;
    disk:diskus) echo "diskus ${n:+-j $n }$p" ;;
    disk:gdu)    echo "gdu ${n:+-m $n }-n -p -s --no-prefix $p" ;;
    disk:ncdu)   echo "ncdu -0 -o /dev/null $p" ;;
    disk:floor1) echo "$FLOOR_BIN $p" ;;
    disk:floor2) echo "$FLOOR_BIN -t 2 $p" ;;
    disk:floor)  echo "$FLOOR_BIN -t $n $p" ;;
    count:hogs)   echo "$HOGS_BIN ${n:+-T $n }-f -d 0 -P -o b $p" ;;
    count:du)     echo "du -s --inodes $p" ;;
    count:dust)   echo "dust ${n:+-T $n }-f -d 0 -P -n 1 $p" ;;
    count:floor1) echo "$FLOOR_BIN -c $p" ;;
    count:floor2) echo "$FLOOR_BIN -c -t 2 $p" ;;
    count:floor)  echo "$FLOOR_BIN -c -t $n $p" ;;
    *) echo "" ;;
  esac
}

# what a tool's number means when it differs from du's, known causes
known_difference() {
  case $MODE:${1%_t*} in
    disk:pdu) echo "pdu: hard links deduplicated only with -H (used here)" ;;
    disk:gdu) echo "gdu counts every directory as 4096 bytes, whatever it really occupies" ;;
    disk:dua) echo "dua leaves out the root directory itself" ;;
    count:dust) echo "dust -f counts files only (no directories)" ;;
    count:floor*) echo "floor -c counts names, so hard links count once per name" ;;
    *) echo "" ;;
  esac
}

# total TOOL STDOUT_FILE -> the number TOOL printed
total_of() {
  case ${1%_t*} in
    dua) # one line per child of the root, then "N b total" when there are several
      awk '$3 == "total" { t = $1 } { s += $1 } END { print (t != "" ? t : s) }' "$2" ;;
    ncdu) ncdu_total < "$2" ;;
    *) # first number on the first line (du, hogs -o b, dust -o b "NB", dust -f "2,000", ...)
      awk 'NR == 1 { gsub(/[,B]/, "", $1); print $1; exit }' "$2" ;;
  esac
}

# ncdu's export (JSON) on stdin -> disk usage, hard links (hlnkc) once per (dev, ino)
ncdu_total() {
  python3 -c '
import json, sys
sys.setrecursionlimit(100000)   # the export nests as deep as the tree
root = json.load(sys.stdin)[3]
total, seen, todo = 0, set(), [(root, None)]
while todo:
    node, dev = todo.pop()
    info, kids = (node[0], node[1:]) if isinstance(node, list) else (node, ())
    dev = info.get("dev", dev)
    if not (info.get("hlnkc") and (dev, info.get("ino")) in seen):
        total += info.get("dsize", 0)
    if info.get("hlnkc"):
        seen.add((dev, info.get("ino")))
    todo.extend((k, dev) for k in kids)
print(total)'
}

version_of() {
  case $1 in
    hogs)   "$HOGS_BIN" --version 2>/dev/null | head -1 ;;
    du)     du --version | head -1 ;;
    dust|dua|pdu|diskus) "$1" --version 2>/dev/null | head -1 ;;
    gdu)    gdu --version 2>/dev/null | awk '/^Version/ { print "gdu " $2 }' ;;
    ncdu)   ncdu -v 2>/dev/null | head -1 ;;
    floor)  echo "floor ($(basename "$FLOOR_SRC"), $(gcc --version | head -1))" ;;
  esac
}

# the tools to run, in order, with availability decided once
pick_tools() {
  local t base c
  local -a want=("${TOOLS[@]}")
  if [[ -n $THREADS ]]; then
    for t in "${TVARIANTS[@]}"; do
      [[ $t == floor && ($THREADS == 1 || $THREADS == 2) ]] && continue   # floor1/floor2 exist
      want+=("${t}_t$THREADS")
    done
  fi
  PICKED=()
  for t in "${want[@]}"; do
    base=${t%_t*}; base=${base%[12]}
    if [[ -n $ONLY && $base != hogs && ",$ONLY," != *",${t},"* && ",$ONLY," != *",${base},"* ]]; then
      continue
    fi
    c=$(invocation "$t" PATH)
    [[ -n $c ]] || continue
    case $base in
      hogs) ;;
      floor) [[ -x $FLOOR_BIN ]] || continue ;;
      *) command -v "$base" >/dev/null || continue ;;
    esac
    PICKED+=("$t")
  done
}

if ((LIST)); then
  for t in "${TOOLS[@]}" "${TVARIANTS[@]/%/_tN}"; do
    c=$(invocation "${t/_tN/_t1}" PATH); [[ -n $c ]] || continue
    [[ $t == *_tN ]] && c=$(invocation "${t/_tN/_t9}" PATH | sed 's/\b9\b/N/')
    printf '%-10s %s\n' "$t" "$c"
  done
  exit 0
fi

# ------------------------------------------------------------------ setup
command -v hyperfine >/dev/null || die "hyperfine is needed (apt-get install hyperfine)"
command -v python3 >/dev/null || die "python3 is needed"
if ((COLD)); then
  [[ -w /proc/sys/vm/drop_caches ]] || die "-c needs root and a writable /proc/sys/vm/drop_caches"
fi

if ((!NO_BUILD)); then
  note "building hogs: cargo build --release (in $REPO)"
  (cd "$REPO" && cargo build --release --quiet)
fi
if [[ -z $HOGS_BIN ]]; then
  # .cargo/config.toml names the host as the target (a static binary): the build is then in
  # target/<host triple>/release; without that file, in target/release
  target_dir=${CARGO_TARGET_DIR:-$REPO/target}
  host=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
  HOGS_BIN=$target_dir/release/hogs
  if [[ -n $host && -x $target_dir/$host/release/hogs ]] &&
    [[ ! -x $HOGS_BIN || $target_dir/$host/release/hogs -nt $HOGS_BIN ]]; then
    HOGS_BIN=$target_dir/$host/release/hogs
  fi
fi
[[ -x $HOGS_BIN ]] || die "no hogs binary at $HOGS_BIN (build it, or set HOGS_BIN)"

if [[ -f $FLOOR_SRC ]]; then
  if [[ ! -x $FLOOR_BIN || $FLOOR_SRC -nt $FLOOR_BIN ]]; then
    mkdir -p "$(dirname "$FLOOR_BIN")"
    gcc -O2 -pthread -o "$FLOOR_BIN" "$FLOOR_SRC" || { note "could not build floor"; rm -f "$FLOOR_BIN"; }
  fi
else
  note "no $FLOOR_SRC: the C floor walker is skipped"
  FLOOR_BIN=/nonexistent/floor
fi
FLOOR_Q=$FLOOR_BIN

pick_tools
for t in "${TOOLS[@]}"; do
  base=${t%[12]}
  [[ " ${PICKED[*]} " == *" $t "* ]] && continue
  if [[ -z $(invocation "$t" PATH) ]]; then
    [[ -z $ONLY ]] && note "$t: no $MODE mode, skipped"
  elif [[ -z $ONLY || ",$ONLY," == *",$t,"* || ",$ONLY," == *",$base,"* ]]; then
    note "$t: not installed, skipped"
  fi
done

# targets: "label<TAB>path"
TARGETS=()
if [[ $TREES != none && -n $TREES ]]; then
  IFS=, read -r -a tree_list <<< "$TREES"
  python3 "$HERE/gen-trees.py" "$TREE_DIR" "${tree_list[@]}" >&2
  for t in "${tree_list[@]}"; do TARGETS+=("$t"$'\t'"$TREE_DIR/$t"); done
fi
for d in "${EXTRA_DIRS[@]}"; do TARGETS+=("$d"$'\t'"$(cd "$d" && pwd)"); done
((${#TARGETS[@]})) || die "nothing to measure (-T none and no EXTRA_DIR)"

OUT="${OUT:-/tmp/hogs-bench-results/$(date +%Y%m%d-%H%M%S)-$MODE}"
mkdir -p "$OUT"
# hogs is timed as installed, like the peers (cargo install and package managers copy the
# binary): the linker writes its output through mmap, and a binary whose page cache was
# filled that way started 9% slower than a copy of the same file (1.03 against 0.94 ms on
# an empty directory, interleaved, 400 rounds; after a drop of the caches both 1.05).
mkdir -p "$OUT/bin"
cp "$HOGS_BIN" "$OUT/bin/hogs" || die "cannot copy $HOGS_BIN to $OUT/bin"
HOGS_BIN=$OUT/bin/hogs HOGS_Q=$OUT/bin/hogs
REPORT="$OUT/report.md"

# ------------------------------------------------------------------ header
{
  cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
  fs=$(df -PT "$TREE_DIR" 2>/dev/null | awk 'NR == 2 { print $2 " on " $7 " (" $1 ")" }')
  mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
  echo "# hogs vs peers: $MODE mode, $( ((COLD)) && echo cold || echo warm) cache"
  echo
  echo "$(date '+%Y-%m-%d %H:%M %Z') · $(nproc) CPUs · ${cpu:-unknown CPU} · $mem RAM ·" \
    "Linux $(uname -r) · trees on ${fs:-?} · hyperfine -N, $WARMUP warm-up + $RUNS runs$( ((COLD)) && echo ", caches dropped before each run")"
  echo
  printf 'versions:'
  seen=" "
  for t in "${PICKED[@]}"; do
    b=${t%_t*}; b=${b%[12]}
    [[ $seen == *" $b "* ]] && continue
    seen+="$b "
    printf ' %s;' "$(version_of "$b")"
  done
  printf ' %s\n\n' "$(hyperfine --version)"
  echo "commands (PATH = the tree):"
  echo
  bt='`'
  for t in "${PICKED[@]}"; do printf -- '- %s%s%s: %s%s%s\n' "$bt" "$t" "$bt" "$bt" "$(invocation "$t" PATH)" "$bt"; done
  echo
} | tee "$REPORT"

# ------------------------------------------------------------------ per tree
# elapsed seconds of a command run through eval, stdout/stderr to files
run_once() { # CMD OUT ERR -> sets RC and SECS
  local t0 t1
  t0=$(date +%s.%N)
  RC=0
  eval "timeout 600 $1" > "$2" 2> "$3" || RC=$?
  t1=$(date +%s.%N)
  SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
}

peak_rss_kb() { # CMD -> median of 3 max-RSS readings in KiB
  local tmp="$OUT/.rss.tmp"
  for _ in 1 2 3; do
    eval "/usr/bin/time -f %M -o $(printf '%q' "$tmp") $1" > /dev/null 2>&1 || true
    tail -1 "$tmp" 2>/dev/null || echo ""
  done | sort -n | sed -n 2p
}

for target in "${TARGETS[@]}"; do
  label=${target%%$'\t'*} path=${target#*$'\t'}
  safe=$(printf '%s' "$label" | tr -c 'A-Za-z0-9_.-' '_')
  dir="$OUT/$safe"; mkdir -p "$dir"
  note "== $label ($path)"

  # reference total
  if [[ $MODE == disk ]]; then ref=$(du -s -B1 "$path" 2>/dev/null | awk '{ print $1 }') || true
  else ref=$(du -s --inodes "$path" 2>/dev/null | awk '{ print $1 }') || true; fi

  # 1. check run: each tool once, its total compared with du's
  : > "$dir/tools.tsv"
  args=()
  for t in "${PICKED[@]}"; do
    cmd=$(invocation "$t" "$path")
    check=$cmd
    [[ ${t%_t*} == ncdu ]] && check=${cmd/-o \/dev\/null/-o-}
    run_once "$check" "$dir/$t.out" "$dir/$t.err"
    tot=""; ((RC == 0 || RC == 1)) && tot=$(total_of "$t" "$dir/$t.out" 2>/dev/null || true)
    status=ok
    ((RC == 0)) || status="exit $RC: $(head -c 200 "$dir/$t.err" | tr '\t\n' '  ')"
    single=""
    if ((RC >= 124)); then
      note "$t failed ($status), not timed"
    elif awk -v s="$SECS" -v l="$SLOW" 'BEGIN { exit !(s > l) }'; then
      note "$t took ${SECS}s (> -s $SLOW): reported from that single run, not timed by hyperfine"
      single=$SECS
    else
      args+=(-n "$t" "$cmd")
    fi
    rss=""
    if ((!NO_RSS)) && [[ -z $single && $RC -lt 124 && -x /usr/bin/time ]]; then rss=$(peak_rss_kb "$cmd"); fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "${tot:-?}" "$status" "$single" "${rss:-}" \
      "$(known_difference "$t")" "$cmd" >> "$dir/tools.tsv"
  done

  # 2. one hyperfine invocation with every tool
  json="$dir/hyperfine.json"
  rm -f "$json"
  if ((${#args[@]})); then
    prep=()
    ((COLD)) && prep=(--prepare "sh -c $(printf '%q' "$DROP_CACHES_CMD")")
    note "timing $((${#args[@]} / 3)) tools: $WARMUP warm-up + $RUNS runs each (log: $dir/hyperfine.log)"
    hyperfine -N -i --style basic -w "$WARMUP" -r "$RUNS" "${prep[@]}" \
      --export-json "$json" "${args[@]}" > "$dir/hyperfine.log" 2>&1 \
      || { tail -5 "$dir/hyperfine.log" >&2; die "hyperfine failed on $label, see $dir/hyperfine.log"; }
  fi

  # 3. the table
  python3 - "$label" "$path" "$MODE" "$ref" "$dir/tools.tsv" "$json" <<'PY' | tee -a "$REPORT"
import json, os, statistics, sys

label, path, mode, ref, tools_tsv, json_path = sys.argv[1:]
rows = []
for line in open(tools_tsv):
    name, total, status, single, rss, why, cmd = line.rstrip("\n").split("\t")
    rows.append(dict(name=name, total=total, status=status, single=single, rss=rss, why=why))
timings = {}
if os.path.exists(json_path):
    for r in json.load(open(json_path))["results"]:
        times = r["times"]
        timings[r["command"]] = (statistics.median(times) * 1000, min(times) * 1000)
for r in rows:
    if r["name"] in timings:
        r["med"], r["min"] = timings[r["name"]]
    elif r["single"]:
        r["med"] = r["min"] = float(r["single"]) * 1000
    else:
        r["med"] = r["min"] = None

def kind(name):
    base = name.split("_t")[0]
    return "hogs" if base == "hogs" else "floor" if base.startswith("floor") else "peer"

def med(name):
    return next((r["med"] for r in rows if r["name"] == name), None)

hogs = med("hogs")
peers = [r for r in rows if kind(r["name"]) == "peer" and r["med"] is not None]
best = min(peers, key=lambda r: r["med"]) if peers else None
floor2 = med("floor2")

def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "-"

unit = "bytes" if mode == "disk" else "inodes"
print(f"## {label}\n")
print(f"`{path}` · du: {ref or '?'} {unit}"
      + (f" · fastest peer: {best['name']} ({best['med']:.1f} ms)" if best else "") + "\n")
print("| tool | median ms | min ms | × hogs | × best peer | × floor2 | peak RSS MB | total = du |")
print("|---|--:|--:|--:|--:|--:|--:|:-:|")
notes = []
order = sorted(rows, key=lambda r: (r["med"] is None, r["med"] or 0))
for r in order:
    n = r["name"]
    if r["total"] == ref and ref:
        ok = "✓"
    else:
        ok = f"✗ {r['total']}"
        diff = ""
        if r["total"].isdigit() and ref.isdigit():
            diff = f" ({int(r['total']) - int(ref):+d} vs du)"
        notes.append(f"- {n}: reported {r['total']}{diff}" + (f"; {r['why']}" if r["why"] else ""))
    if r["status"] != "ok":
        notes.append(f"- {n}: {r['status']}")
    if r["single"]:
        notes.append(f"- {n}: a single run of {float(r['single']):.1f} s (slower than the -s limit), not timed by hyperfine")
    fmt = lambda v: "-" if v is None else f"{v:.1f}"
    rss = f"{int(r['rss']) / 1024:.1f}" if r["rss"].isdigit() else "-"
    shown = f"**{n}**" if kind(n) == "hogs" else n
    print(f"| {shown} | {fmt(r['med'])}{' (1 run)' if r['single'] else ''} | {fmt(r['min'])} | "
          f"{ratio(r['med'], hogs)} | {ratio(r['med'], best['med'] if best else None)} | "
          f"{ratio(r['med'], floor2)} | {rss} | {ok} |")
print()
if notes:
    print("\n".join(notes) + "\n")
PY
done
note "report: $REPORT (raw data in $OUT)"
