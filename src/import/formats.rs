//! Which export a file is, found by its first bytes (never its name): ncdu 2's binary format
//! ([`crate::formats::ncdu_bin::is_binary`]), zstd-compressed JSON
//! (`ncdu -c -o`: a zstd frame, [`zstd::MAGIC`]), or JSON.
//!
//! JSON, compressed or not, is read as a stream. The binary format is read by random access
//! (its index is at the end): a file in place, and standard input too when it is a file
//! (`< x.ncdu`); from a pipe it is first copied to an unlinked temporary file (in `$TMPDIR`,
//! else /tmp), so the export is never held in memory whatever its size.

use std::fs::File;
use std::io::{self, Cursor, Read};
use std::os::fd::AsFd;
use std::path::PathBuf;

use super::ImportError;
use crate::formats::builder::{Import, Keep, Metadata, Mount, Sink};
use crate::formats::ncdu_bin::{self, is_binary};
use crate::formats::ncdu_json::{self as ncdu, zstd};

/// Reads the export `file` holds (standard input when `stdin`), whatever its format.
pub(super) fn read_any(mut file: File, keep: Keep) -> Result<Import, ImportError> {
    let mut head = [0u8; 8];
    let got = fill(&mut file, &mut head).map_err(ImportError::Io)?;
    let head = &head[..got];
    if is_binary(head) {
        let seekable = file.metadata().is_ok_and(|m| m.is_file());
        let file = if seekable {
            file
        } else {
            spool(head, &mut file).map_err(|e| {
                ImportError::Format(format!(
                    "cannot keep the binary export read from a pipe in a temporary file: {}",
                    super::ImportError::Io(e)
                ))
            })?
        };
        return ncdu_bin::read_binary(file, keep);
    }
    let stream = Cursor::new(head.to_vec()).chain(file);
    if head.starts_with(&zstd::MAGIC) {
        let decoder = zstd::decompressed(stream).map_err(ImportError::Io)?;
        return ncdu::read_keeping(decoder, keep);
    }
    ncdu::read_keeping(stream, keep)
}

/// Reads one part of a merge, whatever its format, into `sink` as `mount` says: a binary
/// part item by item from the file, a JSON part as a stream.
pub(super) fn read_part<'a>(
    mut file: File,
    sink: &'a mut Sink,
    mount: Mount<'a>,
) -> Result<Metadata, ImportError> {
    let mut head = [0u8; 8];
    let got = fill(&mut file, &mut head).map_err(ImportError::Io)?;
    let head = &head[..got];
    if is_binary(head) {
        return ncdu_bin::read_binary_part(file, sink, mount);
    }
    let stream = Cursor::new(head.to_vec()).chain(file);
    if head.starts_with(&zstd::MAGIC) {
        let decoder = zstd::decompressed(stream).map_err(ImportError::Io)?;
        return ncdu::read_part(decoder, sink, mount);
    }
    ncdu::read_part(stream, sink, mount)
}

/// The name of an export's root (the path it was scanned at), whatever its format.
pub(super) fn read_root_name(mut file: File, keep: Keep) -> Result<Vec<u8>, ImportError> {
    let mut head = [0u8; 8];
    let got = fill(&mut file, &mut head).map_err(ImportError::Io)?;
    let head = &head[..got];
    if is_binary(head) {
        return ncdu_bin::read_binary_root_name(file);
    }
    let stream = Cursor::new(head.to_vec()).chain(file);
    if head.starts_with(&zstd::MAGIC) {
        let decoder = zstd::decompressed(stream).map_err(ImportError::Io)?;
        return ncdu::read_root_name(decoder, keep);
    }
    ncdu::read_root_name(stream, keep)
}

/// Standard input as a file (a duplicate of descriptor 0).
pub(super) fn stdin() -> io::Result<File> {
    Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
}

/// Reads until `buf` is full or the input ends; returns how much was read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// `head` and the rest of `input` in a new temporary file, already unlinked.
fn spool(head: &[u8], input: &mut File) -> io::Result<File> {
    let mut temp = unlinked_temp("import")?;
    io::Write::write_all(&mut temp, head)?;
    io::copy(input, &mut temp)?;
    Ok(temp)
}

/// A new empty file in `$TMPDIR` (else `/tmp`), open to read and write and already unlinked:
/// nothing is left behind however the run ends. `what` names it while it has a name.
pub fn unlinked_temp(what: &str) -> io::Result<File> {
    let dir = std::env::var_os("TMPDIR")
        .map(PathBuf::from)
        .filter(|d| d.is_dir())
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    let mut attempt = 0;
    let (temp, path) = loop {
        let path = dir.join(format!(
            ".hogs-{what}-{}-{attempt}.ncdu",
            std::process::id()
        ));
        match File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => break (f, path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    };
    let _ = std::fs::remove_file(&path);
    Ok(temp)
}
