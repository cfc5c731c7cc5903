//! Reading ncdu 2's binary export format (`ncdu -O`, `hogs -O x.ncdu`) by random access:
//! [`BinFile`] reads the index at the end of the file once, then any block or any item by its
//! itemref on demand, through a small cache of decompressed blocks. Nothing else of the file
//! is held. The format is described in [`super::spec`].
//!
//! Every length and offset the file gives is checked against the file's real size before
//! anything is read or allocated, and a block's data against the size its zstd frame
//! declares (at most 16 MiB, as the format's offsets allow): a damaged or hostile file is an
//! error naming the block or item, never a panic or an allocation beyond the file's own size.

use std::fs::File;
use std::os::unix::fs::FileExt;

use super::cbor;
use super::spec::{self, block_frame, Item, DATA_BLOCK, INDEX_BLOCK, OFFSET_BITS, OFFSET_MASK};
use crate::formats::ImportError;

/// Decompressed blocks kept: a walk through the items reads mostly backwards through the
/// file, a block at a time.
const CACHED: usize = 8;

/// Where a binary export is read from: a file, or bytes in memory.
pub trait ReadAt {
    /// Fills `buf` from `offset`; the caller never reads past [`ReadAt::size`].
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()>;
    fn size(&self) -> std::io::Result<u64>;
}

impl ReadAt for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        FileExt::read_exact_at(self, buf, offset)
    }
    fn size(&self) -> std::io::Result<u64> {
        self.metadata().map(|m| m.len())
    }
}

impl ReadAt for &[u8] {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match self.get(start..).and_then(|s| s.get(..buf.len())) {
            Some(s) => {
                buf.copy_from_slice(s);
                Ok(())
            }
            None => Err(std::io::ErrorKind::UnexpectedEof.into()),
        }
    }
    fn size(&self) -> std::io::Result<u64> {
        Ok(self.len() as u64)
    }
}

/// Whether `head` (the first bytes of a file) starts a binary export.
pub fn is_binary(head: &[u8]) -> bool {
    spec::is_binary(head)
}

fn damaged(msg: impl Into<String>) -> ImportError {
    ImportError::Format(msg.into())
}

struct Cached {
    num: u32,
    used: u64,
    data: Vec<u8>,
}

/// An open binary export.
pub struct BinFile<S> {
    src: S,
    /// `offset << 24 | length` of each data block by number (0: none).
    index: Vec<u64>,
    root: u64,
    cache: Vec<Cached>,
    tick: u64,
    zstd: zstd::bulk::Decompressor<'static>,
}

impl<S: ReadAt> BinFile<S> {
    /// Checks the signature and reads the index block.
    pub fn open(src: S) -> Result<BinFile<S>, ImportError> {
        let size = src.size().map_err(ImportError::Io)?;
        let mut magic = [0u8; 8];
        if size < magic.len() as u64 || {
            src.read_exact_at(&mut magic, 0).map_err(ImportError::Io)?;
            !spec::is_binary(&magic)
        } {
            return Err(damaged(spec::NOT_BINARY));
        }
        let mut word = [0u8; 4];
        if size < 8 + 16 {
            return Err(damaged("truncated: the file ends before its index"));
        }
        src.read_exact_at(&mut word, size - 4)
            .map_err(ImportError::Io)?;
        let footer = u32::from_be_bytes(word);
        let len = u64::from(footer & 0x0fff_ffff);
        if footer >> 28 != INDEX_BLOCK || len < 16 || len % 8 != 0 || len > size - 8 {
            return Err(damaged(
                "truncated or damaged: the file does not end with an index block",
            ));
        }
        let mut raw = vec![0u8; len as usize];
        src.read_exact_at(&mut raw, size - len)
            .map_err(ImportError::Io)?;
        if raw[..4] != word {
            return Err(damaged(
                "truncated or damaged: the index block's header and footer differ",
            ));
        }
        let data_end = size - len;
        let words = raw[4..raw.len() - 4].chunks_exact(8);
        let mut index: Vec<u64> = words
            .map(|w| u64::from_be_bytes(w.try_into().expect("chunks of 8")))
            .collect();
        let root = index.pop().expect("len >= 16: a root itemref at least");
        for (num, &entry) in index.iter().enumerate() {
            let (off, blen) = (entry >> OFFSET_BITS, entry & OFFSET_MASK);
            if entry != 0 && (off < 8 || blen <= 12 || off + blen > data_end) {
                return Err(damaged(format!(
                    "the index puts block {num} outside the file (offset {off}, length {blen})"
                )));
            }
        }
        Ok(BinFile {
            src,
            index,
            root,
            cache: Vec::new(),
            tick: 0,
            zstd: zstd::bulk::Decompressor::new().map_err(ImportError::Io)?,
        })
    }

    /// The root directory's itemref.
    pub fn root(&self) -> u64 {
        self.root
    }

    /// How many block numbers the index has.
    pub fn blocks(&self) -> usize {
        self.index.len()
    }

    /// The decompressed data of block `num`.
    pub fn block(&mut self, num: u32) -> Result<&[u8], ImportError> {
        self.tick += 1;
        let at = match self.cache.iter().position(|c| c.num == num) {
            Some(at) => at,
            None => self.load(num)?,
        };
        let cached = &mut self.cache[at];
        cached.used = self.tick;
        Ok(&cached.data)
    }

    /// Reads, checks and decompresses block `num` into the cache; returns where it is.
    fn load(&mut self, num: u32) -> Result<usize, ImportError> {
        let entry = self.index.get(num as usize).copied().unwrap_or(0);
        if entry == 0 {
            return Err(damaged(format!("block {num} is not in the file's index")));
        }
        let (off, len) = (entry >> OFFSET_BITS, entry & OFFSET_MASK);
        let mut raw = vec![0u8; len as usize];
        self.src
            .read_exact_at(&mut raw, off)
            .map_err(ImportError::Io)?;
        let frame = block_frame(DATA_BLOCK, len as u32);
        let n = raw.len();
        if raw[..4] != frame || raw[n - 4..] != frame || raw[4..8] != num.to_be_bytes() {
            return Err(damaged(format!(
                "block {num} (at byte {off}) is damaged: its header, number or footer is wrong"
            )));
        }
        let compressed = &raw[8..n - 4];
        let size = match zstd::zstd_safe::get_frame_content_size(compressed) {
            Ok(Some(s)) if s > 0 && s <= OFFSET_MASK => s as usize,
            _ => {
                return Err(damaged(format!(
                    "block {num} (at byte {off}) is damaged: not a zstd frame of a known size under 16 MiB"
                )))
            }
        };
        let data = match self.zstd.decompress(compressed, size) {
            Ok(d) if d.len() == size => d,
            _ => {
                return Err(damaged(format!(
                    "block {num} (at byte {off}) is damaged: its zstd frame does not decompress"
                )))
            }
        };
        let slot = Cached {
            num,
            used: self.tick,
            data,
        };
        if self.cache.len() < CACHED {
            self.cache.push(slot);
            return Ok(self.cache.len() - 1);
        }
        let oldest = (0..self.cache.len())
            .min_by_key(|&i| self.cache[i].used)
            .expect("the cache is full");
        self.cache[oldest] = slot;
        Ok(oldest)
    }

    /// Reads the item `itemref` points at into `item`.
    pub fn item(&mut self, itemref: u64, item: &mut Item) -> Result<(), ImportError> {
        let num = u32::try_from(itemref >> OFFSET_BITS)
            .map_err(|_| damaged(format!("item {itemref:#x} points outside the file")))?;
        let data = self.block(num)?;
        if (itemref & OFFSET_MASK) as usize >= data.len() {
            return Err(damaged(format!(
                "item {itemref:#x} points past the end of block {num}"
            )));
        }
        self.parse(num, itemref, item).map(drop)
    }

    /// Reads the item `itemref` points at in block `num` (read) into `item`; where it ends.
    fn parse(&mut self, num: u32, itemref: u64, item: &mut Item) -> Result<usize, ImportError> {
        let data = self.block(num)?;
        cbor::parse_item(data, itemref, item)
            .map_err(|why| damaged(format!("item {itemref:#x} (block {num}) is damaged: {why}")))
    }

    /// Reads the root item into `item`. It is written last (after everything below it: by
    /// ncdu 2.8 and hogs), so it ends its block: a root reference damaged in the index that
    /// still lands on an item, which would show another tree, is refused.
    pub fn root_item(&mut self, item: &mut Item) -> Result<(), ImportError> {
        let root = self.root;
        self.item(root, item)?;
        let num = (root >> OFFSET_BITS) as u32;
        let end = self.parse(num, root, item)?;
        if end != self.block(num)?.len() {
            return Err(damaged(format!(
                "the root item {root:#x} is not the last of its block: the index's root \
                 reference is damaged"
            )));
        }
        Ok(())
    }

    /// The size of block `num`'s data once read (0 before), for marking items seen.
    pub fn block_len(&mut self, num: u32) -> Result<usize, ImportError> {
        self.block(num).map(<[u8]>::len)
    }
}
