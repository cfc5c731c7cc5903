//! A directory's listing as the history keeps it: its own facts, then its entries in the
//! order the scan gave them (a subdirectory by name only: it has its own row), in varints,
//! compressed with zstd when that makes it smaller. Kept in the order given so that a scan
//! read back counts each hard link at the name the scan counted.

use crate::tree::{EntryKind, Node, StatExtra};

const ENTRY: u8 = 1;
const SUBDIR: u8 = 2;
const FAILED: u8 = 3;

/// The first byte of a stored listing: how the rest is kept.
const RAW: u8 = 0;
const ZSTD: u8 = 1;
/// Compressed with the root's dictionary (the `dict` table).
const ZSTD_DICT: u8 = 2;

/// zstd's level: a listing is small, and compressed once.
const LEVEL: i32 = 12;

/// Below this, zstd's frame costs more than it saves.
const COMPRESS_FROM: usize = 48;

/// One entry of a listing, as read back.
pub enum Item<'a> {
    Entry {
        node: Node,
        name: &'a [u8],
        key: (u64, u64),
        extra: Option<StatExtra>,
        links: Option<u32>,
    },
    Subdir(&'a [u8]),
    Failed(&'a [u8]),
}

/// What a directory says of itself.
pub struct Own {
    pub node: Node,
    pub key: (u64, u64),
    pub extra: Option<StatExtra>,
}

/// A listing being written.
#[derive(Default)]
pub struct Writer {
    pub buf: Vec<u8>,
    /// The directory's device: an entry's is written as how it differs (0, one byte, nearly
    /// always).
    dev: u64,
}

impl Writer {
    pub fn own(&mut self, node: &Node, key: (u64, u64), extra: Option<StatExtra>) {
        self.dev = key.0;
        self.node(node);
        self.uint(key.0);
        self.uint(key.1);
        self.extra(extra);
    }

    pub fn entry(
        &mut self,
        node: &Node,
        name: &[u8],
        key: (u64, u64),
        extra: Option<StatExtra>,
        links: Option<u32>,
    ) {
        self.buf.push(ENTRY);
        self.name(name);
        self.node(node);
        self.uint(key.0 ^ self.dev);
        self.uint(key.1);
        self.uint(links.map_or(0, |n| u64::from(n) + 1));
        self.extra(extra);
    }

    pub fn subdir(&mut self, name: &[u8]) {
        self.buf.push(SUBDIR);
        self.name(name);
    }

    pub fn failed(&mut self, name: &[u8]) {
        self.buf.push(FAILED);
        self.name(name);
    }

    fn node(&mut self, node: &Node) {
        self.buf.push(node.kind() as u8);
        self.buf.push(node.flags());
        self.uint(node.disk);
        self.uint(node.apparent);
        self.int(node.mtime);
    }

    fn extra(&mut self, extra: Option<StatExtra>) {
        let Some(x) = extra else {
            self.buf.push(0);
            return;
        };
        self.buf.push(1);
        for v in [x.uid, x.gid, x.mode] {
            self.uint(u64::from(v));
        }
        self.int(x.atime);
        self.int(x.ctime);
    }

    fn name(&mut self, name: &[u8]) {
        self.uint(name.len() as u64);
        self.buf.extend_from_slice(name);
    }

    fn uint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }
}

/// The most a stored listing may grow to when read (a damaged file must not take all memory):
/// far above any real directory's (a name, its sizes and facts: under 400 bytes an entry).
const MAX_LISTING: usize = 4 << 30;

/// How a root's listings are compressed: with its dictionary, once it has one.
pub struct Codec {
    dict: bool,
    comp: zstd::bulk::Compressor<'static>,
    decomp: zstd::bulk::Decompressor<'static>,
}

impl Codec {
    pub fn new(dict: Option<&[u8]>) -> std::io::Result<Codec> {
        Ok(match dict {
            Some(d) => Codec {
                dict: true,
                comp: zstd::bulk::Compressor::with_dictionary(LEVEL, d)?,
                decomp: zstd::bulk::Decompressor::with_dictionary(d)?,
            },
            None => Codec {
                dict: false,
                comp: zstd::bulk::Compressor::new(LEVEL)?,
                decomp: zstd::bulk::Decompressor::new()?,
            },
        })
    }

    /// A dictionary trained on `samples` (raw listings of a first scan), if they are enough.
    pub fn train(samples: &[Vec<u8>]) -> Option<Vec<u8>> {
        let total: usize = samples.iter().map(Vec::len).sum();
        if samples.len() < 64 || total < 64 * 1024 {
            return None;
        }
        zstd::dict::from_samples(samples, (total / 64).clamp(4096, 64 * 1024)).ok()
    }

    /// A listing as stored.
    pub fn store(&mut self, raw: &[u8]) -> std::io::Result<Vec<u8>> {
        if raw.len() >= COMPRESS_FROM || self.dict {
            let z = self.comp.compress(raw)?;
            if z.len() < raw.len() {
                let mut out = Vec::with_capacity(z.len() + 1);
                out.push(if self.dict { ZSTD_DICT } else { ZSTD });
                out.extend_from_slice(&z);
                return Ok(out);
            }
        }
        let mut out = Vec::with_capacity(raw.len() + 1);
        out.push(RAW);
        out.extend_from_slice(raw);
        Ok(out)
    }

    /// A stored listing, read.
    pub fn load(&mut self, stored: &[u8]) -> Result<Reader, String> {
        let buf = match stored.split_first() {
            Some((&RAW, rest)) => rest.to_vec(),
            Some((&(ZSTD | ZSTD_DICT), rest)) if self.dict || stored[0] == ZSTD => {
                let size = zstd::zstd_safe::get_frame_content_size(rest)
                    .ok()
                    .flatten()
                    .filter(|&n| n <= MAX_LISTING as u64)
                    .ok_or("a damaged listing")?;
                let decoded = match stored[0] {
                    ZSTD => zstd::bulk::decompress(rest, size as usize),
                    _ => self.decomp.decompress(rest, size as usize),
                };
                decoded.map_err(|e| e.to_string())?
            }
            _ => return Err("a damaged listing".into()),
        };
        Ok(Reader { buf, at: 0, dev: 0 })
    }
}

/// A listing read back: its own facts, then its items.
pub struct Reader {
    buf: Vec<u8>,
    at: usize,
    dev: u64,
}

impl Reader {
    pub fn own(&mut self) -> Option<Own> {
        let node = self.node()?;
        let key = (self.uint()?, self.uint()?);
        self.dev = key.0;
        let extra = self.extra()?;
        Some(Own { node, key, extra })
    }

    /// The next item; `None` at the end. `Err` when the listing is damaged.
    pub fn next_item(&mut self) -> Result<Option<Item<'_>>, String> {
        if self.at >= self.buf.len() {
            return Ok(None);
        }
        self.item()
            .map(Some)
            .ok_or_else(|| "a damaged listing".into())
    }

    fn item(&mut self) -> Option<Item<'_>> {
        let tag = self.byte()?;
        let (start, len) = self.name_span()?;
        match tag {
            ENTRY => {
                let node = self.node()?;
                let key = (self.uint()? ^ self.dev, self.uint()?);
                let links = self.uint()?.checked_sub(1).map(|n| n as u32);
                let extra = self.extra()?;
                let name = &self.buf[start..start + len];
                Some(Item::Entry {
                    node,
                    name,
                    key,
                    extra,
                    links,
                })
            }
            SUBDIR => Some(Item::Subdir(&self.buf[start..start + len])),
            FAILED => Some(Item::Failed(&self.buf[start..start + len])),
            _ => None,
        }
    }

    fn name_span(&mut self) -> Option<(usize, usize)> {
        let len = usize::try_from(self.uint()?).ok()?;
        let start = self.at;
        let end = start.checked_add(len).filter(|&e| e <= self.buf.len())?;
        self.at = end;
        Some((start, len))
    }

    fn node(&mut self) -> Option<Node> {
        let kind = match self.byte()? {
            0 => EntryKind::Dir,
            1 => EntryKind::File,
            2 => EntryKind::Symlink,
            _ => EntryKind::Other,
        };
        let flags = self.byte()?;
        let (disk, apparent, mtime) = (self.uint()?, self.uint()?, self.int()?);
        Some(Node::new(kind, disk, apparent, mtime, flags))
    }

    fn extra(&mut self) -> Option<Option<StatExtra>> {
        if self.byte()? == 0 {
            return Some(None);
        }
        let small = |v: u64| u32::try_from(v).ok();
        let uid = small(self.uint()?)?;
        let gid = small(self.uint()?)?;
        let mode = small(self.uint()?)?;
        let (atime, ctime) = (self.int()?, self.int()?);
        Some(Some(StatExtra {
            uid,
            gid,
            mode,
            atime,
            ctime,
        }))
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.buf.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn uint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }

    fn int(&mut self) -> Option<i64> {
        let u = self.uint()?;
        Some(((u >> 1) as i64) ^ -((u & 1) as i64))
    }
}
