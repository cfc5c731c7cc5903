#!/usr/bin/env bash
# Writes the output of every view of hogs (bars, -j, -F, -t, --by-owner, -m, -R, filters, an
# export, an import and a diff) on the given trees into OUTDIR, one file each, so two builds can
# be compared byte for byte with `diff -r` (how a refactor shows it changed no output).
# Usage: benches/outputs.sh HOGS OUTDIR TREE...
set -u
hogs=$1 out=$2; shift 2
mkdir -p "$out"
views=(
  "-w 100 -d 1" "-w 100 -d 3" "-w 100 -f -d 1" "-w 100 -s -d 2" "-w 100 -n 40"
  "-w 100 -F -n 30" "-w 100 -t" "-w 100 --by-owner" "-w 100 -m m -d 2" "-w 100 -p -d 2"
  "-w 100 -R -d 2" "-w 100 -e \.c$ -d 2" "-w 100 -v \.o$ -d 2" "-w 100 -D -d 3" "-w 100 -z 100K -d 3"
  "-j -d 2" "-j -f -d 1" "-j -F" "-w 100 -r -d 2" "-w 100 -c -b -d 2" "-w 100 -x -d 1"
)
for t in "$@"; do
  name=$(basename "$t")
  i=0
  for v in "${views[@]}"; do
    i=$((i+1))
    # shellcheck disable=SC2086
    "$hogs" $v "$t" > "$out/$name.$i.out" 2> "$out/$name.$i.err"; echo "rc=$? $v" >> "$out/$name.$i.err"
  done
  "$hogs" -O - "$t" 2>/dev/null | sed 's/"timestamp":[0-9]*/"timestamp":0/' > "$out/$name.export"
  "$hogs" --export-extended -O - "$t" 2>/dev/null | sed 's/"timestamp":[0-9]*/"timestamp":0/' > "$out/$name.export-ext"
  "$hogs" -O "$out/$name.tmp.json" "$t" 2>/dev/null
  "$hogs" -w 100 --import "$out/$name.tmp.json" -d 2 > "$out/$name.import.out" 2>&1
  "$hogs" -w 100 --diff "$out/$name.tmp.json" "$t" > "$out/$name.diff.out" 2>&1
  "$hogs" -j --diff "$out/$name.tmp.json" "$t" > "$out/$name.diffj.out" 2>&1
  "$hogs" -O "$out/$name.bin.ncdu" "$t" 2>/dev/null
  "$hogs" --export-extended -O "$out/$name.bin-ext.ncdu" "$t" 2>/dev/null
  "$hogs" --html - "$t" 2>/dev/null | sed 's/"when":[0-9]*/"when":0/' > "$out/$name.html"
  rm -f "$out/$name.tmp.json"
done
