//! Writing ncdu 2's binary export format (`-O FILE.ncdu`, `--export-format binary`), which
//! `ncdu -f` browses without loading it and `hogs --import` reads. The format is described in
//! [`spec`].
//!
//! [`BinWriter`] takes items one at a time, children before their directory, and returns each
//! one's itemref for the `prev` of its next sibling and the `sub` of its directory: a writer
//! that needs nothing of the tree but the directories still open, so a walk could feed it as
//! directories finish. [`write_tree`] feeds it a finished tree.

mod cbor;
pub mod lazy;
mod load;
mod read;
pub mod spec;
mod stream;
mod tree;
mod walked;

use std::io::{self, Write};

pub(crate) use load::{kind_and_flags, read_binary_part, read_binary_root_name};
pub use load::{read_binary, read_binary_walked};
pub use read::{is_binary, BinFile, ReadAt};
pub use stream::StreamWriter;
pub use tree::{write_tree, write_view};
pub use walked::{WalkEnd, WalkWriter};

use spec::{block_frame, Item, DATA_BLOCK, INDEX_BLOCK, MAGIC, OFFSET_BITS};

/// zstd's level for the blocks: ncdu 2.8's default.
const LEVEL: i32 = 4;

/// The most an item other than its name can take: the map's start and end, and each key
/// (one byte) with the longest value (nine).
const ITEM_MAX: usize = 2 + 19 * 10;

/// How much data goes into a block, by its number: as ncdu 2.8 does, larger blocks as the
/// file grows, so the index stays small and a reader's cache of blocks covers more entries.
fn block_size(num: u32) -> usize {
    match num {
        n if n < 1 << 20 => 64 << 10,
        n if n < 2 << 20 => 128 << 10,
        n if n < 4 << 20 => 256 << 10,
        n if n < 8 << 20 => 512 << 10,
        n if n < 16 << 20 => 1024 << 10,
        _ => 2048 << 10,
    }
}

/// A compressor of blocks: each frame carries its content checksum, so that a reader
/// refuses a flipped bit inside compressed data, which may still decode (ncdu 2.8 reads such
/// frames; its own carry none, and a reader takes both).
fn compressor() -> io::Result<zstd::bulk::Compressor<'static>> {
    let mut zstd = zstd::bulk::Compressor::new(LEVEL)?;
    zstd.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    Ok(zstd)
}

/// Writes an export: the signature at once, each data block as it fills, the index at
/// [`BinWriter::finish`].
pub struct BinWriter<W: Write> {
    fill: Filler,
    out: Output<W>,
    zstd: zstd::bulk::Compressor<'static>,
}

/// The block being filled with items.
struct Filler {
    buf: Vec<u8>,
    /// Its number.
    num: u32,
    /// A fixed block size (tests), instead of [`block_size`].
    fixed: Option<usize>,
}

/// A block filled, not yet compressed.
struct Block {
    num: u32,
    data: Vec<u8>,
}

/// The file: blocks are written in whatever order they are compressed (the index says where
/// each one is), which lets a streamed walk compress outside its lock.
struct Output<W: Write> {
    out: W,
    /// `offset << 24 | length` of every block written, by number.
    index: Vec<u64>,
    /// Bytes written so far.
    written: u64,
}

impl<W: Write> BinWriter<W> {
    pub fn new(out: W) -> io::Result<Self> {
        Self::with_block_size(out, None)
    }

    /// A writer whose blocks hold at most `size` bytes of items (any item still fits).
    pub fn with_block_size(mut out: W, size: Option<usize>) -> io::Result<Self> {
        out.write_all(MAGIC)?;
        Ok(BinWriter {
            fill: Filler {
                buf: Vec::new(),
                num: 0,
                fixed: size,
            },
            out: Output {
                out,
                index: Vec::new(),
                written: MAGIC.len() as u64,
            },
            zstd: compressor()?,
        })
    }

    /// Writes `item` and returns its itemref.
    pub fn item(&mut self, item: &Item) -> io::Result<u64> {
        if let Some(block) = self.fill.make_room(item)? {
            self.out.block(&mut self.zstd, &block)?;
        }
        self.fill.push(item)
    }

    /// Writes the last block and the index, naming `root` the root item; gives the output
    /// back (to be flushed and renamed by the caller).
    pub fn finish(mut self, root: u64) -> io::Result<W> {
        if let Some(block) = self.fill.take()? {
            self.out.block(&mut self.zstd, &block)?;
        }
        self.out.finish(root)
    }
}

impl Filler {
    fn capacity(&self) -> usize {
        self.fixed.unwrap_or_else(|| block_size(self.num))
    }

    /// The block, if `item` does not fit in it: a new one is begun.
    fn make_room(&mut self, item: &Item) -> io::Result<Option<Block>> {
        let need = item.name.len() + ITEM_MAX;
        if !self.buf.is_empty() && self.buf.len() + need > self.capacity() {
            return self.take();
        }
        Ok(None)
    }

    /// Appends `item` (with room made for it) and returns its itemref.
    fn push(&mut self, item: &Item) -> io::Result<u64> {
        let need = item.name.len() + ITEM_MAX;
        if self.buf.len() + need >= 1 << OFFSET_BITS {
            return Err(io::Error::other("a name too long for the format"));
        }
        let itemref = (u64::from(self.num) << OFFSET_BITS) | self.buf.len() as u64;
        cbor::encode(&mut self.buf, item, itemref);
        Ok(itemref)
    }

    /// The block filled so far, if it holds anything; the next one is begun.
    fn take(&mut self) -> io::Result<Option<Block>> {
        if self.buf.is_empty() {
            return Ok(None);
        }
        let num = self.num;
        self.num = num
            .checked_add(1)
            .ok_or_else(|| io::Error::other("too many blocks"))?;
        let next = Vec::with_capacity(self.capacity());
        let data = std::mem::replace(&mut self.buf, next);
        Ok(Some(Block { num, data }))
    }
}

impl Block {
    /// The block compressed, as its frame's payload.
    fn compress(&self, zstd: &mut zstd::bulk::Compressor<'static>) -> io::Result<Vec<u8>> {
        zstd.compress(&self.data)
    }
}

impl<W: Write> Output<W> {
    /// Compresses `block` and writes it.
    fn block(
        &mut self,
        zstd: &mut zstd::bulk::Compressor<'static>,
        block: &Block,
    ) -> io::Result<()> {
        let frame = block.compress(zstd)?;
        self.frame(block.num, &frame)
    }

    /// Writes block `num`, compressed, wherever the file has got to.
    fn frame(&mut self, num: u32, frame: &[u8]) -> io::Result<()> {
        let len = frame.len() + 12;
        if len as u64 > spec::OFFSET_MASK || self.written >= 1 << 40 {
            return Err(io::Error::other("a block too large for the format"));
        }
        let len32 = len as u32;
        self.out.write_all(&block_frame(DATA_BLOCK, len32))?;
        self.out.write_all(&num.to_be_bytes())?;
        self.out.write_all(frame)?;
        self.out.write_all(&block_frame(DATA_BLOCK, len32))?;
        let at = num as usize;
        if self.index.len() <= at {
            self.index.resize(at + 1, 0);
        }
        self.index[at] = (self.written << OFFSET_BITS) | len as u64;
        self.written += len as u64;
        Ok(())
    }

    /// Writes the index, naming `root` the root item, once every block is written.
    fn finish(mut self, root: u64) -> io::Result<W> {
        let len = 4 + 8 * self.index.len() as u64 + 8 + 4;
        if len > spec::BLOCK_LEN_MAX {
            return Err(io::Error::other("too many blocks for the index"));
        }
        let mut index = Vec::with_capacity(len as usize);
        index.extend_from_slice(&block_frame(INDEX_BLOCK, len as u32));
        for entry in &self.index {
            index.extend_from_slice(&entry.to_be_bytes());
        }
        index.extend_from_slice(&root.to_be_bytes());
        index.extend_from_slice(&block_frame(INDEX_BLOCK, len as u32));
        self.out.write_all(&index)?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A streamed walk writes its blocks in the order they are compressed, not numbered: a
    /// file whose blocks lie in reverse holds, item for item, what the file written in order
    /// holds (the index places each block).
    #[test]
    fn blocks_written_out_of_order_read_back_as_written_in_order() {
        use crate::formats::ncdu_bin::BinFile;
        let items: Vec<Item> = (0..60u64)
            .map(|i| Item {
                etype: spec::etype::REG,
                name: format!("file{i}").into_bytes(),
                asize: Some(i * 1000),
                dsize: Some(i * 4096),
                ..Item::default()
            })
            .collect();
        let mut ordered = BinWriter::with_block_size(Vec::new(), Some(200)).expect("a Vec");
        let mut fill = Filler {
            buf: Vec::new(),
            num: 0,
            fixed: Some(200),
        };
        let (mut refs, mut blocks, mut prev) = (Vec::new(), Vec::new(), None);
        for item in &items {
            let item = Item {
                prev,
                ..item.clone()
            };
            let at = ordered.item(&item).expect("to a Vec");
            blocks.extend(fill.make_room(&item).expect("room"));
            assert_eq!(fill.push(&item).expect("pushed"), at);
            refs.push(at);
            prev = Some(at);
        }
        let root = Item {
            etype: spec::etype::DIR,
            name: b"/r".to_vec(),
            sub: prev,
            items: Some(items.len() as u64),
            ..Item::default()
        };
        let root_ref = ordered.item(&root).expect("to a Vec");
        blocks.extend(fill.make_room(&root).expect("room"));
        assert_eq!(fill.push(&root).expect("pushed"), root_ref);
        refs.push(root_ref);
        blocks.extend(fill.take().expect("the last block"));
        assert!(blocks.len() > 10, "{} blocks", blocks.len());
        let ordered = ordered.finish(root_ref).expect("to a Vec");
        let mut out = Output {
            out: MAGIC.to_vec(),
            index: Vec::new(),
            written: MAGIC.len() as u64,
        };
        let mut zstd = compressor().expect("zstd");
        for block in blocks.iter().rev() {
            out.block(&mut zstd, block).expect("to a Vec");
        }
        let reversed = out.finish(root_ref).expect("to a Vec");
        assert_ne!(reversed, ordered);
        let mut a = BinFile::open(&ordered[..]).expect("in order");
        let mut b = BinFile::open(&reversed[..]).expect("reversed");
        assert_eq!((a.root(), a.blocks()), (b.root(), b.blocks()));
        let (mut x, mut y) = (Item::default(), Item::default());
        for &at in &refs {
            a.item(at, &mut x).expect("read in order");
            b.item(at, &mut y).expect("read reversed");
            assert_eq!(x, y, "item {at:#x}");
        }
    }

    #[test]
    fn an_empty_export_is_the_signature_and_the_index() {
        let out = BinWriter::new(Vec::new())
            .and_then(|w| w.finish(0))
            .expect("write to a Vec");
        let mut want = MAGIC.to_vec();
        want.extend_from_slice(&[0x10, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 16]);
        assert_eq!(out, want);
    }
}
