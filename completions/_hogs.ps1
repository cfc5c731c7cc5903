
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'hogs' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'hogs'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'hogs' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Depth of the tree to show (the whole tree is always counted)')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'Depth of the tree to show (the whole tree is always counted)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Number of lines to show [default: fit the terminal height]')
            [CompletionResult]::new('--number-of-lines', '--number-of-lines', [CompletionResultType]::ParameterName, 'Number of lines to show [default: fit the terminal height]')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Do not count entries with this name anywhere below the paths, or this exact path if it contains a ''/'' (repeatable)')
            [CompletionResult]::new('--ignore-directory', '--ignore-directory', [CompletionResultType]::ParameterName, 'Do not count entries with this name anywhere below the paths, or this exact path if it contains a ''/'' (repeatable)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Only count files whose path matches this regex (repeatable: any may match)')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Only count files whose path matches this regex (repeatable: any may match)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Do not count files whose path matches this regex (repeatable)')
            [CompletionResult]::new('--invert-filter', '--invert-filter', [CompletionResultType]::ParameterName, 'Do not count files whose path matches this regex (repeatable)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'Only show entries at least this big (e.g. 10M, 1.5Gi, 20K, 500); with -f a count')
            [CompletionResult]::new('--min-size', '--min-size', [CompletionResultType]::ParameterName, 'Only show entries at least this big (e.g. 10M, 1.5Gi, 20K, 500); with -f a count')
            [CompletionResult]::new('-T', '-T ', [CompletionResultType]::ParameterName, 'Number of threads [default: the number of CPUs]')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Number of threads [default: the number of CPUs]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Width of the output [default: the terminal width, else 80]')
            [CompletionResult]::new('--terminal-width', '--terminal-width', [CompletionResultType]::ParameterName, 'Width of the output [default: the terminal width, else 80]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How sizes are printed')
            [CompletionResult]::new('--output-format', '--output-format', [CompletionResultType]::ParameterName, 'How sizes are printed')
            [CompletionResult]::new('-O', '-O ', [CompletionResultType]::ParameterName, 'Write the scan to FILE in ncdu''s JSON export format instead of showing it (''-'' for stdout); ncdu -f and gdu -f read it')
            [CompletionResult]::new('--export', '--export', [CompletionResultType]::ParameterName, 'Write the scan to FILE in ncdu''s JSON export format instead of showing it (''-'' for stdout); ncdu -f and gdu -f read it')
            [CompletionResult]::new('-M', '-M ', [CompletionResultType]::ParameterName, 'Only count files modified in this many days, as find(1): +N more than N days ago, N between N and N+1 days ago, -N less than N days ago')
            [CompletionResult]::new('--mtime', '--mtime', [CompletionResultType]::ParameterName, 'Only count files modified in this many days, as find(1): +N more than N days ago, N between N and N+1 days ago, -N less than N days ago')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'As --mtime, with the last access time')
            [CompletionResult]::new('--atime', '--atime', [CompletionResultType]::ParameterName, 'As --mtime, with the last access time')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'As --mtime, with the last status change time')
            [CompletionResult]::new('--ctime', '--ctime', [CompletionResultType]::ParameterName, 'As --mtime, with the last status change time')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Show each entry''s newest time (of a file inside, for a directory) instead of its size: a(ccess), c(hange) or m(odification); newest first, dates in UTC')
            [CompletionResult]::new('--filetime', '--filetime', [CompletionResultType]::ParameterName, 'Show each entry''s newest time (of a file inside, for a directory) instead of its size: a(ccess), c(hange) or m(odification); newest first, dates in UTC')
            [CompletionResult]::new('--collapse', '--collapse', [CompletionResultType]::ParameterName, 'Show this directory without its contents (still counted): a name anywhere, or a path if it contains a ''/'' (repeatable)')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'Do not count files whose path matches any regex in FILE (one per line), as with -v')
            [CompletionResult]::new('--ignore-all-in-file', '--ignore-all-in-file', [CompletionResultType]::ParameterName, 'Do not count files whose path matches any regex in FILE (one per line), as with -v')
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Scan the paths listed in FILE, one per line (''-'' for stdin), as well as any given')
            [CompletionResult]::new('--files0-from', '--files0-from', [CompletionResultType]::ParameterName, 'Scan the paths listed in FILE, each ended by a NUL byte (''-'' for stdin)')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Accepted for dust''s users and ignored: hogs never recurses, so default stacks suffice')
            [CompletionResult]::new('--stack-size', '--stack-size', [CompletionResultType]::ParameterName, 'Accepted for dust''s users and ignored: hogs never recurses, so default stacks suffice')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this TOML file instead of the default config file')
            [CompletionResult]::new('--import', '--import', [CompletionResultType]::ParameterName, 'Show a scan saved in ncdu''s JSON export format (hogs -O, ncdu -o, gdu -o) instead of scanning (''-'' for stdin)')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Compare with a scan saved earlier (hogs -O, ncdu -o, gdu -o): what grew, shrank, appeared or went. The new scan is PATH, or another export: a PATH that is a regular file, or --import FILE')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Print the tree upside down: the root first, biggest entries at the top')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Print the tree upside down: the root first, biggest entries at the top')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Use apparent sizes (file lengths, as `du -b`) instead of disk usage')
            [CompletionResult]::new('--apparent-size', '--apparent-size', [CompletionResultType]::ParameterName, 'Use apparent sizes (file lengths, as `du -b`) instead of disk usage')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Count files and directories (inodes, as `du --inodes`) instead of bytes')
            [CompletionResult]::new('--filecount', '--filecount', [CompletionResultType]::ParameterName, 'Count files and directories (inodes, as `du --inodes`) instead of bytes')
            [CompletionResult]::new('--extents', '--extents', [CompletionResultType]::ParameterName, 'Count what files really hold on disk, by their extents: a block shared by reflinked copies or snapshots counts once, a compressed one at its compressed size (btrfs, as root); adds the columns Excl (freed by deleting it) and Shared. Slower: see docs/EXTENTS.md')
            [CompletionResult]::new('--real-size', '--real-size', [CompletionResultType]::ParameterName, 'Count what files really hold on disk, by their extents: a block shared by reflinked copies or snapshots counts once, a compressed one at its compressed size (btrfs, as root); adds the columns Excl (freed by deleting it) and Shared. Slower: see docs/EXTENTS.md')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Stay on the filesystems of the given paths')
            [CompletionResult]::new('--limit-filesystem', '--limit-filesystem', [CompletionResultType]::ParameterName, 'Stay on the filesystems of the given paths')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (each directory is still walked once)')
            [CompletionResult]::new('--dereference-links', '--dereference-links', [CompletionResultType]::ParameterName, 'Follow symbolic links (each directory is still walked once)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Do not count hidden files and directories (names starting with ''.'')')
            [CompletionResult]::new('--ignore-hidden', '--ignore-hidden', [CompletionResultType]::ParameterName, 'Do not count hidden files and directories (names starting with ''.'')')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'No percent bars or percentages')
            [CompletionResult]::new('--no-percent-bars', '--no-percent-bars', [CompletionResultType]::ParameterName, 'No percent bars or percentages')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Fill the bars from the left (toward the names) instead of from the right')
            [CompletionResult]::new('--bars-on-right', '--bars-on-right', [CompletionResultType]::ParameterName, 'Fill the bars from the left (toward the names) instead of from the right')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'No colours, even on a terminal')
            [CompletionResult]::new('--no-colors', '--no-colors', [CompletionResultType]::ParameterName, 'No colours, even on a terminal')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Colours even when the output is not a terminal')
            [CompletionResult]::new('--force-colors', '--force-colors', [CompletionResultType]::ParameterName, 'Colours even when the output is not a terminal')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Show full paths instead of names')
            [CompletionResult]::new('--full-paths', '--full-paths', [CompletionResultType]::ParameterName, 'Show full paths instead of names')
            [CompletionResult]::new('-D', '-D ', [CompletionResultType]::ParameterName, 'Only show directories')
            [CompletionResult]::new('--only-dir', '--only-dir', [CompletionResultType]::ParameterName, 'Only show directories')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Only show files (a flat list of the biggest files)')
            [CompletionResult]::new('--only-file', '--only-file', [CompletionResultType]::ParameterName, 'Only show files (a flat list of the biggest files)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Print the tree as JSON')
            [CompletionResult]::new('--output-json', '--output-json', [CompletionResultType]::ParameterName, 'Print the tree as JSON')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'No progress line while scanning')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress line while scanning')
            [CompletionResult]::new('--skip-total', '--skip-total', [CompletionResultType]::ParameterName, 'Do not show the total line when several paths are given')
            [CompletionResult]::new('--export-extended', '--export-extended', [CompletionResultType]::ParameterName, 'With --export: also write each entry''s mtime, uid, gid and mode (ncdu''s extended mode)')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'For screen readers: plain columns NAME DEPTH SIZE PERCENT, no tree drawing or bars (-p adds full paths)')
            [CompletionResult]::new('--screen-reader', '--screen-reader', [CompletionResultType]::ParameterName, 'For screen readers: plain columns NAME DEPTH SIZE PERCENT, no tree drawing or bars (-p adds full paths)')
            [CompletionResult]::new('--dim', '--dim', [CompletionResultType]::ParameterName, 'Draw the tree guides and bars faint, so names and sizes stand out (with colours)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Group the files by extension: the biggest kinds, then the rest as (others)')
            [CompletionResult]::new('--file-types', '--file-types', [CompletionResultType]::ParameterName, 'Group the files by extension: the biggest kinds, then the rest as (others)')
            [CompletionResult]::new('--print-errors', '--print-errors', [CompletionResultType]::ParameterName, 'Name every path that could not be read (hogs always does; accepted for dust''s users)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--diff-root-any', '--diff-root-any', [CompletionResultType]::ParameterName, 'With --diff: compare even when the two scans are of different directories')
            [CompletionResult]::new('--no-delete', '--no-delete', [CompletionResultType]::ParameterName, '`hogs i`: turn deleting (d, t) off')
            [CompletionResult]::new('--print-marked', '--print-marked', [CompletionResultType]::ParameterName, '`hogs i`: on exit, print the marked paths to stdout, one per line')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, '`hogs i --print-marked`: end each path with a NUL byte instead of a newline (for `xargs -0`)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, '`hogs i --print-marked`: end each path with a NUL byte instead of a newline (for `xargs -0`)')
            [CompletionResult]::new('--no-reverse', '--no-reverse', [CompletionResultType]::ParameterName, 'Undo --reverse')
            [CompletionResult]::new('--no-apparent-size', '--no-apparent-size', [CompletionResultType]::ParameterName, 'Undo --apparent-size')
            [CompletionResult]::new('--no-filecount', '--no-filecount', [CompletionResultType]::ParameterName, 'Undo --filecount')
            [CompletionResult]::new('--no-extents', '--no-extents', [CompletionResultType]::ParameterName, 'Undo --extents')
            [CompletionResult]::new('--no-limit-filesystem', '--no-limit-filesystem', [CompletionResultType]::ParameterName, 'Undo --limit-filesystem')
            [CompletionResult]::new('--no-dereference-links', '--no-dereference-links', [CompletionResultType]::ParameterName, 'Undo --dereference-links')
            [CompletionResult]::new('--no-ignore-hidden', '--no-ignore-hidden', [CompletionResultType]::ParameterName, 'Undo --ignore-hidden')
            [CompletionResult]::new('--percent-bars', '--percent-bars', [CompletionResultType]::ParameterName, 'Undo --no-percent-bars')
            [CompletionResult]::new('--no-bars-on-right', '--no-bars-on-right', [CompletionResultType]::ParameterName, 'Undo --bars-on-right')
            [CompletionResult]::new('--colors', '--colors', [CompletionResultType]::ParameterName, 'Undo --no-colors')
            [CompletionResult]::new('--no-force-colors', '--no-force-colors', [CompletionResultType]::ParameterName, 'Undo --force-colors')
            [CompletionResult]::new('--no-full-paths', '--no-full-paths', [CompletionResultType]::ParameterName, 'Undo --full-paths')
            [CompletionResult]::new('--no-only-dir', '--no-only-dir', [CompletionResultType]::ParameterName, 'Undo --only-dir')
            [CompletionResult]::new('--no-only-file', '--no-only-file', [CompletionResultType]::ParameterName, 'Undo --only-file')
            [CompletionResult]::new('--no-output-json', '--no-output-json', [CompletionResultType]::ParameterName, 'Undo --output-json')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Undo --no-progress')
            [CompletionResult]::new('--no-skip-total', '--no-skip-total', [CompletionResultType]::ParameterName, 'Undo --skip-total')
            [CompletionResult]::new('--no-export-extended', '--no-export-extended', [CompletionResultType]::ParameterName, 'Undo --export-extended')
            [CompletionResult]::new('--no-screen-reader', '--no-screen-reader', [CompletionResultType]::ParameterName, 'Undo --screen-reader')
            [CompletionResult]::new('--no-dim', '--no-dim', [CompletionResultType]::ParameterName, 'Undo --dim')
            [CompletionResult]::new('--no-file-types', '--no-file-types', [CompletionResultType]::ParameterName, 'Undo --file-types')
            [CompletionResult]::new('--no-print-errors', '--no-print-errors', [CompletionResultType]::ParameterName, 'Undo --print-errors')
            [CompletionResult]::new('--no-diff-root-any', '--no-diff-root-any', [CompletionResultType]::ParameterName, 'Undo --diff-root-any')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Undo --no-delete')
            [CompletionResult]::new('--no-print-marked', '--no-print-marked', [CompletionResultType]::ParameterName, 'Undo --print-marked')
            [CompletionResult]::new('--no-null', '--no-null', [CompletionResultType]::ParameterName, 'Undo --null')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
