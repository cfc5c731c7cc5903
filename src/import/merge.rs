//! `--import A.json B.json …`: scans of parts of a tree, made apart (on other machines, in
//! parallel jobs), merged into one scan.
//!
//! Each part is placed at the path its export was scanned at (the root's name, an absolute
//! path), and the parts are joined under their common ancestor. The directories between that
//! ancestor and the parts' roots were scanned by no part: they get no size of their own and
//! are marked [`flags::UNSCANNED`](crate::tree::flags::UNSCANNED) (an export writes them with
//! `"unscanned":true`, a key other readers skip).
//!
//! A part whose root is inside another part is placed into it, where that part has no entry
//! of the name: the outer part was scanned with the inner part's directory left out (`-X`),
//! which is how the files directly in the top directories are covered (docs/SPLIT-SCANS.md),
//! or listed it only as not entered (`"excluded"`: another filesystem with `-x`).
//! Where the outer part does list the inner part's root, or two parts are of the same
//! directory, the parts overlap: an error naming both, unless `--import-keep-first`, which
//! keeps what the part given first has and leaves the other's out (said in a note).
//!
//! The parts are read one after the other into one tree, each part's entries where they
//! belong as they are read ([`Sink`]): a merge holds the merged tree and nothing more
//! (each file is opened twice: once for its root's name, once for its entries). A hard link
//! whose `(dev, ino)` was met in a part read before counts nothing, as in one export.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::os::unix::ffi::OsStrExt;

use super::formats;
use super::{ImportError, Keep};
use crate::error::say;
use crate::formats::builder::{Graft, Meet, Metadata, Mount, Sink, Streamed};
use crate::render::escape::shown;
use crate::walk::Scan;

/// One directory of the tree the parts' roots make, from `/` down.
struct Spot {
    name: Vec<u8>,
    parent: usize,
    /// Sorted by name.
    kids: Vec<usize>,
    /// The part scanned at this path (`None`: none, or it was left out).
    part: Option<usize>,
    /// A part being read listed an entry here (so it is not read into the directory again
    /// when that closes).
    met: bool,
}

struct Merge<'f> {
    files: &'f [OsString],
    spots: Vec<Spot>,
    keep_first: bool,
    to_terminal: bool,
    /// The parts being read, innermost last.
    reading: Vec<usize>,
    /// What each part read says of itself (`None`: not read, left out).
    read: Vec<Option<Metadata>>,
}

/// Merges the exports `files` (two or more) into one scan. The error is the one line to
/// print.
pub fn merge(
    files: &[OsString],
    keep_first: bool,
    to_terminal: bool,
    keep: Keep,
) -> Result<Scan, String> {
    let mut sink = Sink::new(keep);
    merge_into(files, keep_first, to_terminal, keep, &mut sink)?;
    Ok(sink.into_scan())
}

/// Merges the exports `files` into the binary export `to` as they are read, holding no tree:
/// only the directories open, a few blocks of a binary part, and the `(dev, ino)` of the hard
/// links met. Errors the parts record are reported as met and counted in what is returned.
pub fn merge_to_binary(
    files: &[OsString],
    keep_first: bool,
    to_terminal: bool,
    to: Streamed,
) -> Result<Streamed, String> {
    let mut sink = Sink::streaming(to);
    merge_into(files, keep_first, to_terminal, Keep::ALL, &mut sink)?;
    Ok(sink.into_streamed().expect("a streaming sink"))
}

fn merge_into(
    files: &[OsString],
    keep_first: bool,
    to_terminal: bool,
    keep: Keep,
    sink: &mut Sink,
) -> Result<(), String> {
    let mut m = Merge {
        files,
        spots: vec![Spot {
            name: b"/".to_vec(),
            parent: 0,
            kids: Vec::new(),
            part: None,
            met: false,
        }],
        keep_first,
        to_terminal,
        reading: Vec::new(),
        read: vec![None; files.len()],
    };
    for (i, file) in files.iter().enumerate() {
        if file.as_bytes() == b"-" {
            return Err(
                "cannot merge '-': stdin can only be imported alone (save it to a file)".into(),
            );
        }
        let root = File::open(file)
            .map_err(ImportError::Io)
            .and_then(|f| formats::read_root_name(f, keep))
            .map_err(|e| format!("cannot import '{}': {e}", m.shown(file)))?;
        let Some(parts) = components(&root) else {
            return Err(format!(
                "cannot merge '{}': its root '{}' is not an absolute path without '..' (as hogs -O and ncdu -o write)",
                m.shown(file),
                shown(&root, to_terminal)
            ));
        };
        let spot = m.insert(&parts);
        match m.spots[spot].part {
            None => m.spots[spot].part = Some(i),
            Some(j) if keep_first => say(format!(
                "note: '{}' left out: '{}', given first, is a scan of the same directory ({})",
                m.shown(file),
                m.shown(&files[j]),
                m.path_shown(spot)
            )),
            Some(j) => {
                return Err(format!(
                    "cannot merge '{}' and '{}': both are scans of {} (--import-keep-first keeps the first)",
                    m.shown(&files[j]),
                    m.shown(file),
                    m.path_shown(spot)
                ))
            }
        }
    }
    // the common ancestor: down from / while one way leads on and no part is here
    let mut top = 0;
    while m.spots[top].part.is_none() && m.spots[top].kids.len() == 1 {
        top = m.spots[top].kids[0];
    }
    m.emit(sink, top, true).map_err(|e| match e {
        ImportError::Merge(msg) => msg,
        other => other.to_string(),
    })?;
    m.warn_blind_links();
    Ok(())
}

/// The names of an absolute path, `.` and empty ones dropped; `None`: not absolute, or `..`.
fn components(path: &[u8]) -> Option<Vec<&[u8]>> {
    if path.first() != Some(&b'/') {
        return None;
    }
    let names: Vec<&[u8]> = path
        .split(|&b| b == b'/')
        .filter(|n| !n.is_empty() && *n != b".")
        .collect();
    (!names.contains(&&b".."[..])).then_some(names)
}

impl Merge<'_> {
    fn shown(&self, file: &OsStr) -> String {
        shown(file.as_bytes(), self.to_terminal)
    }

    /// The spot of a path, made as needed.
    fn insert(&mut self, names: &[&[u8]]) -> usize {
        let mut at = 0;
        for name in names {
            let spots = &self.spots;
            let found = self.spots[at]
                .kids
                .binary_search_by(|&k| spots[k].name.as_slice().cmp(name));
            at = match found {
                Ok(i) => self.spots[at].kids[i],
                Err(i) => {
                    let new = self.spots.len();
                    self.spots.push(Spot {
                        name: name.to_vec(),
                        parent: at,
                        kids: Vec::new(),
                        part: None,
                        met: false,
                    });
                    self.spots[at].kids.insert(i, new);
                    new
                }
            };
        }
        at
    }

    fn kid(&self, at: usize, name: &[u8]) -> Option<usize> {
        let kids = &self.spots[at].kids;
        kids.binary_search_by(|&k| self.spots[k].name.as_slice().cmp(name))
            .ok()
            .map(|i| kids[i])
    }

    /// The path of a spot, for a message.
    fn path_shown(&self, spot: usize) -> String {
        shown(&self.path(spot), self.to_terminal)
    }

    /// The absolute path of a spot.
    fn path(&self, spot: usize) -> Vec<u8> {
        let mut chain = Vec::new();
        let mut s = spot;
        while s != 0 {
            chain.push(s);
            s = self.spots[s].parent;
        }
        let mut path = Vec::new();
        for s in chain.into_iter().rev() {
            path.push(b'/');
            path.extend_from_slice(&self.spots[s].name);
        }
        if path.is_empty() {
            path.push(b'/');
        }
        path
    }

    /// The parts at and below a spot, in the order they were given.
    fn parts_below(&self, spot: usize) -> Vec<usize> {
        let mut found = Vec::new();
        let mut todo = vec![spot];
        while let Some(s) = todo.pop() {
            found.extend(self.spots[s].part);
            todo.extend(&self.spots[s].kids);
        }
        found.sort_unstable();
        found
    }

    /// Reads what belongs at `spot` into the directory open in the sink: its part, or a
    /// directory no part scanned with what is below it. `root`: it is the merge's root.
    fn emit(&mut self, sink: &mut Sink, spot: usize, root: bool) -> Result<(), ImportError> {
        if let Some(i) = self.spots[spot].part {
            let name = self.spots[spot].name.clone();
            self.reading.push(i);
            let files = self.files;
            let file = &files[i];
            let read = File::open(file).map_err(ImportError::Io).and_then(|f| {
                let mount = Mount {
                    at: spot,
                    name: (!root).then_some(name.as_slice()),
                    graft: self,
                };
                formats::read_part(f, sink, mount)
            });
            self.reading.pop();
            return read
                .map(|meta| self.read[i] = Some(meta))
                .map_err(|e| match e {
                    ImportError::Merge(_) => e,
                    other => ImportError::Merge(format!(
                        "cannot import '{}': {other}",
                        self.shown(&self.files[i])
                    )),
                });
        }
        if self.parts_below(spot).is_empty() {
            return Ok(()); // its parts were left out
        }
        if root {
            sink.unscanned_dir(&self.path(spot), true);
        } else {
            sink.unscanned_dir(&self.spots[spot].name.clone(), false);
        }
        self.closing(sink, spot)?;
        sink.out.close();
        Ok(())
    }

    /// Warns where a part cannot say which of its files are hard links (gdu marks none, and
    /// writes no inode numbers) while another part has some: a file linked from both is
    /// counted in each, and nothing in the files tells which. A part from hogs or ncdu that
    /// marks none has none (they mark every file with more than one link).
    fn warn_blind_links(&self) {
        let parts = || self.read.iter().enumerate();
        let Some(linked) =
            parts().find_map(|(i, m)| m.as_ref().filter(|m| m.hard_links > 0).map(|_| i))
        else {
            return;
        };
        for (i, meta) in parts() {
            let Some(meta) = meta else { continue };
            let writer = meta.progname.as_deref().unwrap_or("its writer");
            if meta.hard_links > 0 || meta.binary || matches!(writer, "hogs" | "ncdu") {
                continue;
            }
            say(format!(
                "warning: '{}' marks no hard links ({writer} records none): a file it shares with '{}' is counted in both",
                self.shown(&self.files[i]),
                self.shown(&self.files[linked])
            ));
        }
    }

    /// Says what `--import-keep-first` left out.
    fn note(&self, msg: String) {
        say(format!("note: {msg}"));
    }
}

impl Graft for Merge<'_> {
    fn meet(
        &mut self,
        at: usize,
        name: &[u8],
        is_dir: bool,
        excluded: Option<bool>,
    ) -> Result<Meet, ImportError> {
        let Some(k) = self.kid(at, name) else {
            return Ok(Meet::Plain);
        };
        let filled = self.spots[k].part.is_some() || !self.parts_below(k).is_empty();
        if excluded.is_some() && filled {
            // not scanned there (-X, another filesystem with -x): what scanned it is read in
            // its place, where the directory lists it, so that a hard link it shares with
            // what follows counts where du counts it
            self.spots[k].met = true;
            return Ok(Meet::Fill(k));
        }
        let Some(&reading) = self.reading.last() else {
            return Ok(Meet::Plain);
        };
        let this = self.shown(&self.files[reading]);
        let path = self.path_shown(k);
        if let Some(j) = self.spots[k].part {
            let other = self.shown(&self.files[j]);
            if !self.keep_first {
                return Err(ImportError::Merge(format!(
                    "cannot merge '{this}' and '{other}': both scanned {path} (scan it in one only: -X {path} in the other, or --import-keep-first)"
                )));
            }
            if j < reading {
                self.note(format!(
                    "{path} of '{this}' left out: '{other}', given first, scanned it"
                ));
                return Ok(Meet::Skip); // read into this directory when it closes
            }
            self.note(format!(
                "'{other}' left out: '{this}', given first, also scanned {path}"
            ));
            self.spots[k].part = None;
        }
        self.spots[k].met = true;
        if self.spots[k].kids.is_empty() {
            return Ok(Meet::Plain);
        }
        if is_dir {
            return Ok(Meet::Descend(k));
        }
        // a file where parts below need a directory
        let below = self.parts_below(k);
        let Some(&first) = below.first() else {
            return Ok(Meet::Plain);
        };
        let other = self.shown(&self.files[first]);
        if !self.keep_first {
            return Err(ImportError::Merge(format!(
                "cannot merge '{this}' and '{other}': '{this}' has a file at {path}, where '{other}' scanned a directory"
            )));
        }
        if first < reading {
            self.spots[k].met = false;
            self.note(format!(
                "{path} of '{this}' left out: '{other}', given first, scanned a directory there"
            ));
            return Ok(Meet::Skip);
        }
        let mut todo = vec![k];
        while let Some(s) = todo.pop() {
            if let Some(j) = self.spots[s].part.take() {
                self.note(format!(
                    "'{}' left out: '{this}', given first, has a file at {path}",
                    self.shown(&self.files[j])
                ));
            }
            todo.extend(&self.spots[s].kids);
        }
        Ok(Meet::Plain)
    }

    fn fill(&mut self, sink: &mut Sink, at: usize) -> Result<(), ImportError> {
        self.emit(sink, at, false)
    }

    fn unfilled_by(&self) -> Option<Vec<u8>> {
        let &reading = self.reading.last()?;
        (self.files.len() > 1).then(|| self.files[reading].as_bytes().to_vec())
    }

    fn closing(&mut self, sink: &mut Sink, at: usize) -> Result<(), ImportError> {
        let kids = self.spots[at].kids.clone();
        for k in kids {
            if !self.spots[k].met {
                self.emit(sink, k, false)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn root_paths_split_into_names() {
        let names =
            |p: &[u8]| components(p).map(|v| v.iter().map(|n| n.to_vec()).collect::<Vec<_>>());
        assert_eq!(
            names(b"/a//b/./c/"),
            Some(vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()])
        );
        assert_eq!(names(b"/"), Some(vec![]));
        assert_eq!(names(b"a/b"), None);
        assert_eq!(names(b"/a/../b"), None);
    }
}
