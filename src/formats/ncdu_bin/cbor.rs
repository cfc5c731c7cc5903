//! The subset of CBOR an ncdu binary export holds, written ([`encode`]) and read
//! ([`parse_item`]) here: one item is a map (definite or not) of small integer keys to
//! integers, byte or text strings and simple values. Anything else under an unknown key is
//! skipped, nested at most [`DEPTH_MAX`] deep; nothing is read past the block.

use super::spec::{key, major, Item, FALSE, OFFSET_BITS, OFFSET_MASK, TRUE};

/// How deep a skipped value may nest: no item the format defines nests at all.
const DEPTH_MAX: usize = 16;

/// A CBOR head: major type, argument, and whether it is the indefinite-length form.
#[derive(Clone, Copy)]
struct Head {
    major: u8,
    arg: u64,
    indef: bool,
}

impl Head {
    /// The "break" that ends an indefinite-length map or array.
    fn is_break(self) -> bool {
        self.major == major::SIMPLE && self.indef
    }
}

struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn bytes(&mut self, n: u64) -> Result<&[u8], String> {
        let left = self.buf.len() - self.pos;
        if n > left as u64 {
            return Err("the item runs past the end of its block".into());
        }
        let start = self.pos;
        self.pos += n as usize;
        Ok(&self.buf[start..self.pos])
    }

    fn raw_head(&mut self) -> Result<Head, String> {
        let b = self.bytes(1)?[0];
        let (major, info) = (b >> 5, b & 0x1f);
        let arg = match info {
            0..=23 => u64::from(info),
            24 => u64::from(self.bytes(1)?[0]),
            25..=27 => {
                let n = 1u64 << (info - 24);
                self.bytes(n)?.iter().fold(0, |v, &b| v << 8 | u64::from(b))
            }
            31 if major != major::POS && major != major::NEG && major != major::TAG => {
                return Ok(Head {
                    major,
                    arg: 0,
                    indef: true,
                })
            }
            _ => return Err(format!("a malformed CBOR value (byte {b:#04x})")),
        };
        Ok(Head {
            major,
            arg,
            indef: false,
        })
    }

    /// The next head, tags skipped.
    fn head(&mut self) -> Result<Head, String> {
        loop {
            let h = self.raw_head()?;
            if h.major != major::TAG {
                return Ok(h);
            }
        }
    }

    /// Skips the value whose head was just read.
    fn skip(&mut self, h: Head, depth: usize) -> Result<(), String> {
        if depth > DEPTH_MAX {
            return Err("a value nested too deep".into());
        }
        if h.indef && h.major != major::SIMPLE {
            loop {
                let next = self.head()?;
                if next.is_break() {
                    return Ok(());
                }
                self.skip(next, depth + 1)?;
            }
        }
        match h.major {
            major::BYTES | major::TEXT => self.bytes(h.arg).map(drop),
            major::ARRAY | major::MAP => {
                let per = if h.major == major::MAP { 2 } else { 1 };
                // every value takes a byte at least: a count past the block is damage
                let n = h.arg.saturating_mul(per);
                if n > (self.buf.len() - self.pos) as u64 {
                    return Err("the item runs past the end of its block".into());
                }
                for _ in 0..n {
                    let v = self.head()?;
                    self.skip(v, depth + 1)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

fn unsigned(h: Head, what: &str) -> Result<u64, String> {
    match h {
        Head {
            major: major::POS,
            indef: false,
            arg,
        } => Ok(arg),
        _ => Err(format!("\"{what}\" is not a whole number")),
    }
}

/// An itemref: whole, or (negative) a distance back from `at` in the same block.
fn itemref(h: Head, at: u64, what: &str) -> Result<u64, String> {
    match (h.major, h.indef) {
        (major::POS, false) => Ok(h.arg),
        (major::NEG, false) if h.arg < at & OFFSET_MASK => Ok(at - h.arg - 1),
        _ => Err(format!("\"{what}\" is not a reference to an item")),
    }
}

/// Reads the item that starts at `data[at & OFFSET_MASK]` (`at` its itemref) into `item`;
/// returns where it ends.
pub(super) fn parse_item(data: &[u8], at: u64, item: &mut Item) -> Result<usize, String> {
    item.clear();
    let mut c = Cursor {
        buf: data,
        pos: (at & OFFSET_MASK) as usize,
    };
    let map = c.head()?;
    if map.major != major::MAP {
        return Err("not an item (a CBOR map)".into());
    }
    let mut left = (!map.indef).then_some(map.arg);
    let (mut has_type, mut has_name) = (false, false);
    loop {
        match &mut left {
            Some(0) => break,
            Some(n) => *n -= 1,
            None => {}
        }
        let k = c.head()?;
        if left.is_none() && k.is_break() {
            break;
        }
        if k.major != major::POS || k.indef || k.arg > key::MTIME {
            c.skip(k, 1)?;
            let v = c.head()?;
            c.skip(v, 1)?;
            continue;
        }
        let v = c.head()?;
        let n = |what| unsigned(v, what).map(Some);
        match k.arg {
            key::TYPE => {
                item.etype = match (v.major, v.indef) {
                    (major::POS, false) if v.arg <= i64::MAX as u64 => v.arg as i64,
                    (major::NEG, false) if v.arg <= i64::MAX as u64 => -1 - v.arg as i64,
                    _ => return Err("\"type\" is not a whole number".into()),
                };
                has_type = true;
            }
            key::NAME => {
                if v.indef || !matches!(v.major, major::BYTES | major::TEXT) {
                    return Err("\"name\" is not a string".into());
                }
                item.name.clear();
                item.name.extend_from_slice(c.bytes(v.arg)?);
                has_name = true;
            }
            key::PREV => item.prev = Some(itemref(v, at, "prev")?),
            key::SUB => item.sub = Some(itemref(v, at, "sub")?),
            key::RDERR => item.rderr = Some(v.major == major::SIMPLE && v.arg == TRUE),
            key::ASIZE => item.asize = n("asize")?,
            key::DSIZE => item.dsize = n("dsize")?,
            key::DEV => item.dev = n("dev")?,
            key::CUMASIZE => item.cumasize = n("cumasize")?,
            key::CUMDSIZE => item.cumdsize = n("cumdsize")?,
            key::SHRASIZE => item.shrasize = n("shrasize")?,
            key::SHRDSIZE => item.shrdsize = n("shrdsize")?,
            key::ITEMS => item.items = n("items")?,
            key::INO => item.ino = n("ino")?,
            key::NLINK => item.nlink = n("nlink")?,
            key::UID => item.uid = n("uid")?,
            key::GID => item.gid = n("gid")?,
            key::MODE => item.mode = n("mode")?,
            _ => item.mtime = n("mtime")?,
        }
    }
    if !has_type {
        return Err("an item without a type".into());
    }
    if !has_name || item.name.is_empty() {
        return Err("an item without a name".into());
    }
    Ok(c.pos)
}

/// A CBOR head: major type and argument, in the shortest form.
pub(super) fn head(out: &mut Vec<u8>, major: u8, arg: u64) {
    let m = major << 5;
    match arg {
        0..=23 => out.push(m | arg as u8),
        24..=0xff => out.extend_from_slice(&[m | 24, arg as u8]),
        0x100..=0xffff => {
            out.push(m | 25);
            out.extend_from_slice(&(arg as u16).to_be_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(m | 26);
            out.extend_from_slice(&(arg as u32).to_be_bytes());
        }
        _ => {
            out.push(m | 27);
            out.extend_from_slice(&arg.to_be_bytes());
        }
    }
}

/// A reference to another item: within this block as a distance back from `at` (small,
/// compresses well), else the whole itemref.
fn reference(out: &mut Vec<u8>, k: u64, target: Option<u64>, at: u64) {
    let Some(target) = target else { return };
    head(out, major::POS, k);
    if target >> OFFSET_BITS == at >> OFFSET_BITS && target < at {
        head(out, major::NEG, at - target - 1);
    } else {
        head(out, major::POS, target);
    }
}

/// One item as an indefinite-length CBOR map, in key order.
pub(super) fn encode(out: &mut Vec<u8>, item: &Item, at: u64) {
    out.push(major::MAP << 5 | 31);
    head(out, major::POS, key::TYPE);
    if item.etype >= 0 {
        head(out, major::POS, item.etype as u64);
    } else {
        head(out, major::NEG, (-1 - item.etype) as u64);
    }
    head(out, major::POS, key::NAME);
    head(out, major::BYTES, item.name.len() as u64);
    out.extend_from_slice(&item.name);
    reference(out, key::PREV, item.prev, at);
    let number = |out: &mut Vec<u8>, k: u64, v: Option<u64>| {
        if let Some(v) = v {
            head(out, major::POS, k);
            head(out, major::POS, v);
        }
    };
    number(out, key::ASIZE, item.asize);
    number(out, key::DSIZE, item.dsize);
    number(out, key::DEV, item.dev);
    if let Some(err) = item.rderr {
        head(out, major::POS, key::RDERR);
        let v = if err { TRUE } else { FALSE };
        head(out, major::SIMPLE, v);
    }
    number(out, key::CUMASIZE, item.cumasize);
    number(out, key::CUMDSIZE, item.cumdsize);
    number(out, key::SHRASIZE, item.shrasize);
    number(out, key::SHRDSIZE, item.shrdsize);
    number(out, key::ITEMS, item.items);
    reference(out, key::SUB, item.sub, at);
    number(out, key::INO, item.ino);
    number(out, key::NLINK, item.nlink);
    number(out, key::UID, item.uid);
    number(out, key::GID, item.gid);
    number(out, key::MODE, item.mode);
    number(out, key::MTIME, item.mtime);
    out.push(major::SIMPLE << 5 | 31);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Result<Item, String> {
        let mut item = Item::default();
        parse_item(bytes, 0, &mut item).map(|_| item)
    }

    #[test]
    fn heads_take_the_shortest_form() {
        let enc = |major, arg| {
            let mut v = Vec::new();
            head(&mut v, major, arg);
            v
        };
        assert_eq!(enc(major::POS, 23), [0x17]);
        assert_eq!(enc(major::POS, 24), [0x18, 24]);
        assert_eq!(enc(major::NEG, 499), [0x39, 0x01, 0xf3]);
        assert_eq!(enc(major::POS, 0x10000), [0x1a, 0, 1, 0, 0]);
        assert_eq!(
            enc(major::POS, u64::MAX),
            [0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        );
    }

    #[test]
    fn definite_and_indefinite_maps_unknown_keys_skipped() {
        // {0: 1, 1: b"ab", 40: [1, {}], 3: 500}
        let def = b"\xa4\x00\x01\x01\x42ab\x18\x28\x82\x01\xa0\x03\x19\x01\xf4";
        let item = parse(def).expect("valid");
        assert_eq!(
            (item.etype, &item.name[..], item.asize),
            (1, &b"ab"[..], Some(500))
        );
        // the same, indefinite, with a tag and an indefinite array under an unknown key
        let indef = b"\xbf\x00\x20\x01\x61x\x13\xc1\x9f\x01\xff\xff";
        let item = parse(indef).expect("valid");
        assert_eq!((item.etype, &item.name[..]), (-1, &b"x"[..]));
    }

    #[test]
    fn damage_is_an_error_never_a_panic() {
        for bad in [
            &b""[..],
            b"\x01",
            b"\xbf\x00\x01",
            b"\xbf\x01\x45ab\xff",
            b"\xa1\x00",
            b"\xbf\x00\x01\x01\x41a\x02\x20\xff", // prev before the start of the block
            b"\xbf\x00\x01\xff",                  // no name
            b"\xbf\x01\x41a\xff",                 // no type
            b"\xbf\x14\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f\x9f",
            b"\xbf\x14\x9b\xff\xff\xff\xff\xff\xff\xff\xff",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
