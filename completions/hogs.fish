complete -c hogs -s d -l depth -d 'Depth of the tree to show (the whole tree is always counted)' -r
complete -c hogs -s n -l number-of-lines -d 'Number of rows to show below the root [default: the terminal height less 10, at least 20; every row with -d]' -r
complete -c hogs -s X -l ignore-directory -d 'Do not count entries with this name anywhere below the paths, or this exact path if it contains a \'/\' (repeatable)' -r
complete -c hogs -s e -l filter -d 'Only count files whose path matches this regex (repeatable: any may match)' -r
complete -c hogs -s v -l invert-filter -d 'Do not count files whose path matches this regex (repeatable)' -r
complete -c hogs -s z -l min-size -d 'Only show entries bigger than this (e.g. 10M, 1.5Gi, 20K, 500); with -f a count' -r
complete -c hogs -s T -l threads -d 'Number of threads [default: the number of CPUs]' -r
complete -c hogs -s w -l terminal-width -d 'Width of the output [default: the terminal width, else 80]' -r
complete -c hogs -s o -l output-format -d 'How sizes are printed' -r -f -a "si\t'Powers of 1000 with K, M, G… suffixes'
b\t'Plain bytes'
k\t'Kibibytes (1024)'
m\t'Mebibytes'
g\t'Gibibytes'
t\t'Tebibytes'
kb\t'Kilobytes (1000)'
mb\t'Megabytes'
gb\t'Gigabytes'
tb\t'Terabytes'"
complete -c hogs -s O -l export -d 'Write the scan to FILE in ncdu\'s export format instead of showing it (\'-\' for stdout): JSON, which ncdu -f and gdu -f read, or as --export-format says or the name ends (.ncdu: ncdu 2\'s binary format, .zst: compressed JSON)' -r
complete -c hogs -l export-format -d 'With --export: the format to write (default: by FILE\'s name, .ncdu binary, .zst json.zst, else json)' -r -f -a "json\t'ncdu\'s JSON (ncdu -o): ncdu 1 and 2, gdu and hogs read it'
json.zst\t'The same JSON, zstd-compressed (ncdu -c -o)'
binary\t'ncdu 2\'s binary format (ncdu -O): ncdu 2.6+ browses it without loading it'"
complete -c hogs -s M -l mtime -d 'Only count files modified in this many days, as find(1): +N more than N days ago, N between N and N+1 days ago, -N less than N days ago' -r
complete -c hogs -s A -l atime -d 'As --mtime, with the last access time' -r
complete -c hogs -s y -l ctime -d 'As --mtime, with the last status change time' -r
complete -c hogs -s m -l filetime -d 'Show each entry\'s newest time (of a file inside, for a directory) instead of its size: a(ccess), c(hange) or m(odification); newest first, dates in local time' -r -f -a "a\t'Last access'
c\t'Last status change'
m\t'Last modification'"
complete -c hogs -l collapse -d 'Show this directory without its contents (still counted): a name anywhere, or a path if it contains a \'/\' (repeatable)' -r
complete -c hogs -s I -l ignore-all-in-file -d 'Do not count files whose path matches any regex in FILE (one per line), as with -v' -r
complete -c hogs -l files-from -d 'Scan the paths listed in FILE, one per line (\'-\' for stdin), as well as any given' -r
complete -c hogs -l files0-from -d 'Scan the paths listed in FILE, each ended by a NUL byte (\'-\' for stdin)' -r
complete -c hogs -s S -l stack-size -d 'Accepted for dust\'s users and ignored: hogs never recurses, so default stacks suffice' -r
complete -c hogs -l config -d 'Read settings from this TOML file instead of the default config file' -r
complete -c hogs -l import -d 'Show a scan saved in ncdu\'s JSON export format (hogs -O, ncdu -o, gdu -o) instead of scanning (\'-\' for stdin). Several files (repeated, or several after one --import) are scans of parts of a tree, merged: each placed at the path it was scanned at' -r
complete -c hogs -l diff -d 'Compare with a scan saved earlier (hogs -O, ncdu -o, gdu -o): what grew, shrank, appeared or went. The new scan is PATH, or another export: a PATH that is a regular file, or --import FILE' -r
complete -c hogs -l record -d 'Add the scan of PATH (or of the --import files, as one scan) to the history file DB (made if missing; docs/HISTORY.md): what changed since the previous scan of PATH is kept. Prints one line: the scan\'s id, root, total and change' -r
complete -c hogs -l history -d 'Read the history file DB: list its scans (-j: as JSON), or with --between, --trend, --prometheus, --forget-before' -r
complete -c hogs -l between -d 'With --history: what changed between scans A and B (ids, dates as 2026-11-01: the last scan on or before that day, or ages as 7d, 4w: the last scan at least that old; 0d the latest) of PATH\'s root, as --diff shows it [default: the two latest]' -r
complete -c hogs -l trend -d 'With --history: PATH\'s totals in every scan of its root, oldest first' -r
complete -c hogs -l forget-before -d 'With --history: remove the scans older than AGE (7d, 4w, 12m: months of 30 days, 1y) and shrink the file; the later scans answer as before' -r
complete -c hogs -l html -d 'Write the scan (or the --diff, the --by-owner view) as one self-contained HTML page with a zoomable treemap and a table (\'-\' for stdout)' -r
complete -c hogs -s r -l reverse -d 'Print the tree upside down: the root first, biggest entries at the top'
complete -c hogs -s s -l apparent-size -d 'Use apparent sizes (file lengths, as `du -b`) instead of disk usage'
complete -c hogs -s f -l filecount -d 'Count files and directories (inodes, as `du --inodes`) instead of bytes'
complete -c hogs -l extents -l real-size -d 'Count what files really hold on disk, by their extents: a block shared by reflinked copies or snapshots counts once, a compressed one at its compressed size (btrfs, as root); adds the columns Excl (freed by deleting it) and Shared. Slower: see docs/EXTENTS.md'
complete -c hogs -s x -l limit-filesystem -d 'Stay on the filesystems of the given paths'
complete -c hogs -s L -l dereference-links -d 'Follow symbolic links (each directory is still walked once)'
complete -c hogs -s i -l ignore-hidden -d 'Do not count hidden files and directories (names starting with \'.\')'
complete -c hogs -s b -l no-percent-bars -d 'No percent bars or percentages'
complete -c hogs -s B -l bars-on-right -d 'Fill the bars from the right (toward the percentages) instead of from the left'
complete -c hogs -s c -l no-colors -d 'No colours, even on a terminal'
complete -c hogs -s C -l force-colors -d 'Colours even when the output is not a terminal'
complete -c hogs -s p -l full-paths -d 'Show full paths instead of names'
complete -c hogs -s D -l only-dir -d 'Only show directories'
complete -c hogs -s F -l only-file -d 'Only show files (a flat list of the biggest files)'
complete -c hogs -s j -l output-json -d 'Print the tree as JSON'
complete -c hogs -s P -l no-progress -d 'No progress line while scanning'
complete -c hogs -l skip-total -d 'Do not show the top line: the total, or the path when only one is given'
complete -c hogs -l export-extended -d 'With --export: also write each entry\'s mtime, uid, gid and mode (ncdu\'s extended mode)'
complete -c hogs -s R -l screen-reader -d 'For screen readers: plain columns NAME DEPTH SIZE PERCENT, no tree drawing or bars (-p adds full paths)'
complete -c hogs -l dim -d 'Draw the tree guides and bars faint, so names and sizes stand out (with colours)'
complete -c hogs -s t -l file-types -d 'Group the files by extension: the biggest kinds, then the rest as (others)'
complete -c hogs -l by-owner -d 'Who is using it: the owners by usage (user name, else uid), hard links once, -e/-v applied; reads owners from the walk or an --export-extended scan. `hogs i`: the `o` key shows them'
complete -c hogs -l print-errors -d 'Name every path that could not be read (hogs always does; accepted for dust\'s users)'
complete -c hogs -l exit-zero -d 'Exit 0 even when something could not be read, as dust does (the errors are still named, and left out of the totals)'
complete -c hogs -l no-config -d 'Read no config file'
complete -c hogs -l import-keep-first -d 'With several --import files: where two parts overlap, keep what the one given first has (instead of an error)'
complete -c hogs -l diff-root-any -d 'With --diff: compare even when the two scans are of different directories'
complete -c hogs -l prometheus -d 'With --history: the latest scan of each root\'s directory sizes to depth -d (default 1) in Prometheus\' text format (for node_exporter\'s textfile collector)'
complete -c hogs -l no-delete -d '`hogs i`: turn deleting (d, t) off'
complete -c hogs -l print-marked -d '`hogs i`: on exit, print the marked paths to stdout, one per line'
complete -c hogs -s 0 -l null -d '`hogs i --print-marked`: end each path with a NUL byte instead of a newline (for `xargs -0`)'
complete -c hogs -l no-reverse -d 'Undo --reverse'
complete -c hogs -l no-apparent-size -d 'Undo --apparent-size'
complete -c hogs -l no-filecount -d 'Undo --filecount'
complete -c hogs -l no-extents -d 'Undo --extents'
complete -c hogs -l no-limit-filesystem -d 'Undo --limit-filesystem'
complete -c hogs -l no-dereference-links -d 'Undo --dereference-links'
complete -c hogs -l no-ignore-hidden -d 'Undo --ignore-hidden'
complete -c hogs -l percent-bars -d 'Undo --no-percent-bars'
complete -c hogs -l no-bars-on-right -d 'Undo --bars-on-right'
complete -c hogs -l colors -d 'Undo --no-colors'
complete -c hogs -l no-force-colors -d 'Undo --force-colors'
complete -c hogs -l no-full-paths -d 'Undo --full-paths'
complete -c hogs -l no-only-dir -d 'Undo --only-dir'
complete -c hogs -l no-only-file -d 'Undo --only-file'
complete -c hogs -l no-output-json -d 'Undo --output-json'
complete -c hogs -l progress -d 'Undo --no-progress'
complete -c hogs -l no-skip-total -d 'Undo --skip-total'
complete -c hogs -l no-export-extended -d 'Undo --export-extended'
complete -c hogs -l no-screen-reader -d 'Undo --screen-reader'
complete -c hogs -l no-dim -d 'Undo --dim'
complete -c hogs -l no-file-types -d 'Undo --file-types'
complete -c hogs -l no-by-owner -d 'Undo --by-owner'
complete -c hogs -l no-print-errors -d 'Undo --print-errors'
complete -c hogs -l no-exit-zero -d 'Undo --exit-zero'
complete -c hogs -l no-import-keep-first -d 'Undo --import-keep-first'
complete -c hogs -l no-diff-root-any -d 'Undo --diff-root-any'
complete -c hogs -l no-prometheus -d 'Undo --prometheus'
complete -c hogs -l delete -d 'Undo --no-delete'
complete -c hogs -l no-print-marked -d 'Undo --print-marked'
complete -c hogs -l no-null -d 'Undo --null'
complete -c hogs -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hogs -s V -l version -d 'Print version'
