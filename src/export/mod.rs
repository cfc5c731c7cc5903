//! Writing a scan for other tools: ncdu's JSON export format (`-O`).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rustc_hash::FxHashMap;

use crate::tree::{NodeId, Tree};
use crate::walk::{ErrorAt, ScanError};

/// Where an export goes. A file is written whole or not at all: the scan is written to a
/// temporary file beside it, which replaces the file only once the export is complete, so a
/// typo in the path to scan, a scan that fails or Ctrl-C never empties a scan kept for
/// `--diff`. Stdout and files that are not regular files (a pipe, `/dev/full`) are written
/// in place, as there is nothing to keep there.
pub enum ExportSink {
    Stdout(io::StdoutLock<'static>),
    InPlace(File),
    Staged { temp: StagedFile, target: PathBuf },
}

/// Why the export target cannot be written (worded by the run).
#[derive(Debug)]
pub enum TargetError {
    /// The file itself: a directory, a device that refuses writes, a path that cannot be
    /// resolved.
    Target(io::Error),
    /// No new file can be made in its directory (a read-only one, /proc): the export is
    /// written beside the file and renamed over it.
    Directory(PathBuf, io::Error),
}

/// What a temporary export file is called after the file it will replace, so that one left
/// by a process killed with SIGKILL says what it is: `.scan.json.unfinished-hogs-export-`.
/// The target's name is cut to leave room in a 255-byte name for the rest.
fn staged_prefix(target: &Path) -> Vec<u8> {
    let name = target.file_name().map_or(&b""[..], |n| n.as_bytes());
    let mut prefix = b".".to_vec();
    prefix.extend_from_slice(&name[..name.len().min(200)]);
    prefix.extend_from_slice(b".unfinished-hogs-export-");
    prefix
}

/// Removes the temporary files that exports to `target` by processes no longer running left
/// in `dir` (killed by SIGKILL or a crash of the machine, they could not clean up), and
/// those of older versions of hogs, named `.hogs-export-PID-N.tmp`. A file whose process may
/// be alive is left: it is being written.
fn remove_stale(dir: &Path, target: &Path) {
    let prefix = staged_prefix(target);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.as_bytes();
        let rest = name
            .strip_prefix(&prefix[..])
            .or_else(|| name.strip_prefix(&b".hogs-export-"[..]));
        let Some(pid) = rest
            .and_then(|r| r.strip_suffix(b".tmp"))
            .and_then(staged_pid)
        else {
            continue;
        };
        if !crate::sys::process_exists(pid) {
            let _ = std::fs::remove_file(dir.join(OsStr::from_bytes(name)));
        }
    }
}

/// The process id in `PID-N` (what follows the prefix of a temporary file's name).
fn staged_pid(rest: &[u8]) -> Option<u32> {
    let (pid, attempt) = rest.split_at(rest.iter().position(|&b| b == b'-')?);
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    if !digits(pid) || !digits(&attempt[1..]) {
        return None;
    }
    std::str::from_utf8(pid).ok()?.parse().ok()
}

/// A new file beside the target, removed when dropped unless it was renamed over the target.
pub struct StagedFile {
    file: File,
    path: PathBuf,
    renamed: bool,
}

impl StagedFile {
    /// Creates `.NAME.unfinished-hogs-export-PID-N.tmp` in `dir` for the target `NAME` (a
    /// name no other file has: `O_EXCL`), readable by others unless the umask says otherwise,
    /// as `File::create` makes files.
    fn create(dir: &Path, target: &Path) -> io::Result<StagedFile> {
        let pid = std::process::id();
        let prefix = staged_prefix(target);
        let mut attempt = 0;
        loop {
            let mut name = prefix.clone();
            name.extend_from_slice(format!("{pid}-{attempt}.tmp").as_bytes());
            let path = dir.join(OsStr::from_bytes(&name));
            match File::options()
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(&path)
            {
                Ok(file) => {
                    return Ok(StagedFile {
                        file,
                        path,
                        renamed: false,
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Writes the file's data to the disk and renames it over `target`.
    fn rename_over(mut self, target: &Path) -> io::Result<()> {
        self.file.sync_all()?;
        std::fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens the export target before the scan starts, so that a path that cannot be written
/// fails at once rather than after a long walk. `-` is stdout.
pub fn open_target(file: &OsStr) -> Result<ExportSink, TargetError> {
    if file.as_bytes() == b"-" {
        return Ok(ExportSink::Stdout(io::stdout().lock()));
    }
    // the file a symlink names is replaced, not the symlink
    let target = match std::fs::canonicalize(file) {
        Ok(resolved) => resolved,
        Err(e) if e.kind() == io::ErrorKind::NotFound => PathBuf::from(file),
        Err(e) => return Err(TargetError::Target(e)),
    };
    match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() && !m.is_dir() => {
            let file = File::options().write(true).open(&target);
            return file.map(ExportSink::InPlace).map_err(TargetError::Target);
        }
        Ok(m) if m.is_dir() => {
            let is_dir = io::Error::from_raw_os_error(crate::sys::Errno::ISDIR.raw_os_error());
            return Err(TargetError::Target(is_dir));
        }
        _ => {}
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    remove_stale(dir, &target);
    let temp = StagedFile::create(dir, &target)
        .map_err(|e| TargetError::Directory(dir.to_path_buf(), e))?;
    remove_on_interrupt(&temp.path);
    Ok(ExportSink::Staged { temp, target })
}

/// Ctrl-C (or SIGTERM, SIGHUP) during the scan ends the process without unwinding: a
/// thread that waits for those signals removes the temporary file first, then exits with the
/// shell's status for the signal. The target was never touched.
fn remove_on_interrupt(temp: &Path) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return; // the default action then ends the process; only the temporary file stays
    };
    let temp = temp.to_path_buf();
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            let _ = std::fs::remove_file(&temp);
            std::process::exit(128 + sig);
        }
    });
}

impl ExportSink {
    /// Makes the export the file's contents (the rename); dropping an unfinished sink
    /// removes the temporary file and leaves the target as it was.
    pub fn finish(self) -> io::Result<()> {
        match self {
            ExportSink::Stdout(mut out) => out.flush(),
            ExportSink::InPlace(mut file) => file.flush(),
            ExportSink::Staged { temp, target } => temp.rename_over(&target),
        }
    }
}

/// An [`ExportSink`] that is a file: one the threads of a streamed walk may write through.
pub enum FileSink {
    InPlace(File),
    Staged { temp: StagedFile, target: PathBuf },
}

impl ExportSink {
    /// The sink as a [`FileSink`]; stdout (whose lock stays on this thread) is given back.
    pub fn into_file(self) -> Result<FileSink, ExportSink> {
        match self {
            ExportSink::InPlace(file) => Ok(FileSink::InPlace(file)),
            ExportSink::Staged { temp, target } => Ok(FileSink::Staged { temp, target }),
            stdout => Err(stdout),
        }
    }
}

impl FileSink {
    /// The temporary file the export is written to, when it is one (not a target written in
    /// place).
    pub fn staged_path(&self) -> Option<&Path> {
        match self {
            FileSink::InPlace(_) => None,
            FileSink::Staged { temp, .. } => Some(&temp.path),
        }
    }

    /// See [`ExportSink::finish`].
    pub fn finish(self) -> io::Result<()> {
        match self {
            FileSink::InPlace(file) => ExportSink::InPlace(file).finish(),
            FileSink::Staged { temp, target } => ExportSink::Staged { temp, target }.finish(),
        }
    }
}

impl Write for FileSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            FileSink::InPlace(file) => file.write(buf),
            FileSink::Staged { temp, .. } => temp.file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            FileSink::InPlace(file) => file.flush(),
            FileSink::Staged { temp, .. } => temp.file.flush(),
        }
    }
}

impl Write for ExportSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            ExportSink::Stdout(out) => out.write(buf),
            ExportSink::InPlace(file) => file.write(buf),
            ExportSink::Staged { temp, .. } => temp.file.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            ExportSink::Stdout(out) => out.write_all(buf),
            ExportSink::InPlace(file) => file.write_all(buf),
            ExportSink::Staged { temp, .. } => temp.file.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            ExportSink::Stdout(out) => out.flush(),
            ExportSink::InPlace(file) => file.flush(),
            ExportSink::Staged { temp, .. } => temp.file.flush(),
        }
    }
}

/// The name ncdu gives the scanned directory: the directory the walk read (a path given is
/// followed when it is a symlink), as an absolute path through no symlink and without `..`,
/// so that a merge places the part where it is (`d/../a` and a link to `a` are `a`). A path
/// that cannot be resolved (gone since the walk) is made absolute lexically.
pub fn root_name(typed: &OsStr) -> Vec<u8> {
    let mut name = std::fs::canonicalize(Path::new(typed))
        .or_else(|_| std::path::absolute(Path::new(typed)))
        .map(|p| p.into_os_string().into_vec())
        .unwrap_or_else(|_| typed.as_bytes().to_vec());
    while name.len() > 1 && name.last() == Some(&b'/') {
        name.pop();
    }
    name
}

/// Seconds since the epoch (0 if the clock is before it).
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The entries of each directory that could not be stat'ed (an export lists them as errors
/// beside the rest), by the directory's node; refuses a top that is not a directory.
pub(crate) fn failed_entries<'e>(
    tree: &Tree,
    root: NodeId,
    errors: &'e [ScanError],
) -> io::Result<FxHashMap<NodeId, Vec<&'e [u8]>>> {
    if !tree.node(root).is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the ncdu format needs a directory at the top",
        ));
    }
    let mut failed: FxHashMap<NodeId, Vec<&[u8]>> = FxHashMap::default();
    for e in errors {
        if let ErrorAt::Entry(parent, name) = &e.at {
            failed.entry(*parent).or_default().push(name);
        }
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_name_is_absolute_without_trailing_slash() {
        let cwd = std::env::current_dir().expect("cwd");
        let cwd = cwd.as_os_str().as_bytes();
        assert_eq!(root_name(OsStr::new(".")), cwd);
        let mut want = cwd.to_vec();
        want.extend_from_slice(b"/a/b");
        assert_eq!(root_name(OsStr::new("a/b/")), want);
        assert_eq!(root_name(OsStr::new("/")), b"/");
        assert_eq!(root_name(OsStr::new("/x//")), b"/x");
        // resolved where it exists: `..` and symlinks gone
        let tmp = std::env::temp_dir().canonicalize().expect("temp dir");
        let mut via = tmp.as_os_str().as_bytes().to_vec();
        via.extend_from_slice(b"/../");
        let up = tmp.parent().expect("a parent").as_os_str().as_bytes();
        assert_eq!(root_name(OsStr::from_bytes(&via)), up);
    }
}
