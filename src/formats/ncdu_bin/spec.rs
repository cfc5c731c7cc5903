//! The facts of ncdu 2's binary export format that its writer ([`super::BinWriter`]) and its
//! reader (`read.rs`) share: the file's signature, the block headers, the item keys
//! and entry types, and one item as a plain struct.
//!
//! A file is the signature, then blocks, each framed by a 4-byte big-endian header and an
//! equal footer (the block's type in the top 4 bits, its whole length below). A data block
//! (type 0) is a 32-bit block number and one zstd frame; the index block (type 1) comes last:
//! for each block number, `offset << 24 | length` (0: no such block), then the root's
//! itemref. An item is a CBOR map with small integer keys, found by its itemref,
//! `block << 24 | offset` in the block's decompressed data. A directory's `sub` is its last
//! child; each entry's `prev` the sibling written before it; children are written before their
//! directory.

/// The first bytes of every binary export.
pub const MAGIC: &[u8; 8] = b"\xbfncduEX1";

/// Why a file that does not start with [`MAGIC`] is not read.
pub const NOT_BINARY: &str = "not an ncdu binary export (no \\xbfncduEX1 at the start)";

/// Whether `head` (a file's first bytes) starts like a binary export.
pub fn is_binary(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// Block types (the top 4 bits of a block's header and footer).
pub const DATA_BLOCK: u32 = 0;
pub const INDEX_BLOCK: u32 = 1;

/// The largest length a block's header can say (28 bits).
pub const BLOCK_LEN_MAX: u64 = (1 << 28) - 1;
/// Itemrefs and index entries keep an offset in their low 24 bits: no block's data, nor any
/// compressed block, may reach 16 MiB.
pub const OFFSET_BITS: u32 = 24;
pub const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

/// A block's header or footer.
pub fn block_frame(kind: u32, len: u32) -> [u8; 4] {
    ((kind << 28) | (len & 0x0fff_ffff)).to_be_bytes()
}

/// The item keys (CBOR map keys), as ncdu 2.8 defines them.
pub mod key {
    pub const TYPE: u64 = 0;
    pub const NAME: u64 = 1;
    pub const PREV: u64 = 2;
    pub const ASIZE: u64 = 3;
    pub const DSIZE: u64 = 4;
    pub const DEV: u64 = 5;
    pub const RDERR: u64 = 6;
    pub const CUMASIZE: u64 = 7;
    pub const CUMDSIZE: u64 = 8;
    pub const SHRASIZE: u64 = 9;
    pub const SHRDSIZE: u64 = 10;
    pub const ITEMS: u64 = 11;
    pub const SUB: u64 = 12;
    pub const INO: u64 = 13;
    pub const NLINK: u64 = 14;
    pub const UID: u64 = 15;
    pub const GID: u64 = 16;
    pub const MODE: u64 = 17;
    pub const MTIME: u64 = 18;
}

/// Entry types (the value of [`key::TYPE`]); the negative ones are entries with nothing but a
/// name: not read, or left out.
pub mod etype {
    pub const DIR: i64 = 0;
    pub const REG: i64 = 1;
    /// Not a regular file (a symlink, a device, a FIFO, a socket).
    pub const NONREG: i64 = 2;
    /// A file with more than one name: it carries `ino` and `nlink`.
    pub const LINK: i64 = 3;
    /// Could not be read (stat failed).
    pub const ERR: i64 = -1;
    /// Left out by an exclude pattern.
    pub const PATTERN: i64 = -2;
    /// On another filesystem.
    pub const OTHERFS: i64 = -3;
    /// A kernel filesystem (/proc, /sys) left out.
    pub const KERNFS: i64 = -4;
}

/// One item, every field the format defines (`None`: absent from the map).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Item {
    pub etype: i64,
    pub name: Vec<u8>,
    pub prev: Option<u64>,
    pub asize: Option<u64>,
    pub dsize: Option<u64>,
    /// A directory's device, when it is the root or differs from its parent's.
    pub dev: Option<u64>,
    /// A directory: `Some(true)` its listing could not be read, `Some(false)` something
    /// below it could not.
    pub rderr: Option<bool>,
    pub cumasize: Option<u64>,
    pub cumdsize: Option<u64>,
    pub shrasize: Option<u64>,
    pub shrdsize: Option<u64>,
    /// A directory: how many entries are below it, at any depth.
    pub items: Option<u64>,
    /// A directory: its last child.
    pub sub: Option<u64>,
    pub ino: Option<u64>,
    pub nlink: Option<u64>,
    pub uid: Option<u64>,
    pub gid: Option<u64>,
    pub mode: Option<u64>,
    pub mtime: Option<u64>,
}

impl Item {
    /// Empties the item for the next one, keeping the name's allocation.
    pub fn clear(&mut self) {
        let mut name = std::mem::take(&mut self.name);
        name.clear();
        *self = Item {
            name,
            ..Item::default()
        };
    }
}

/// CBOR major types.
pub mod major {
    pub const POS: u8 = 0;
    pub const NEG: u8 = 1;
    pub const BYTES: u8 = 2;
    pub const TEXT: u8 = 3;
    pub const ARRAY: u8 = 4;
    pub const MAP: u8 = 5;
    pub const TAG: u8 = 6;
    pub const SIMPLE: u8 = 7;
}

/// CBOR's simple values false and true.
pub const FALSE: u64 = 20;
pub const TRUE: u64 = 21;
