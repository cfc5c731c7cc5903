//! The export formats hogs reads and writes, one folder each with its spec, reader and
//! writer side by side: ncdu's JSON export format ([`ncdu_json`]) and ncdu 2's binary format
//! ([`ncdu_bin`]).

pub mod builder;
pub mod ncdu_bin;
pub mod ncdu_json;

use std::fmt;
use std::io;

use ncdu_json::lexer::Pos;

/// Why a file could not be imported. Nothing is returned with it: a partial tree is never
/// passed off as the scan.
#[derive(Debug)]
pub enum ImportError {
    /// Reading failed.
    Io(io::Error),
    /// The input is not a valid export; `pos` is where the problem was found.
    Syntax { pos: Pos, message: String },
    /// The input is in a form hogs does not read (compressed, ncdu's binary format); the
    /// message says how to convert it.
    Unsupported(&'static str),
    /// The input lacks what was asked of it (the times a filter reads): why.
    Missing(&'static str),
    /// Parts of a merge that cannot go together, or a part that failed: the whole message.
    Merge(String),
    /// A binary export that is damaged: what is wrong, and where (block, item).
    Format(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Io(e) => match e.raw_os_error() {
                Some(errno) => f.write_str(&crate::sys::describe(errno)),
                None => write!(f, "{e}"),
            },
            ImportError::Syntax { pos, message } => write!(
                f,
                "line {}, column {} (byte {}): {message}",
                pos.line, pos.column, pos.offset
            ),
            ImportError::Unsupported(why) | ImportError::Missing(why) => f.write_str(why),
            ImportError::Merge(msg) => f.write_str(msg),
            ImportError::Format(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for ImportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ImportError::Io(e) => Some(e),
            _ => None,
        }
    }
}
