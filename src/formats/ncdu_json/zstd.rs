//! ncdu's JSON export format compressed with zstd (`ncdu -c -o`, `--export-format json-zst`):
//! one zstd frame around the JSON, its encoder and decoder side by side.

use std::io::{self, BufReader, Read, Write};

/// The first bytes of a zstd frame.
pub const MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// ncdu 2.8's default level for `-c`.
const LEVEL: i32 = 4;

/// Writes what `write` writes into `out`, compressed.
pub fn write_compressed<W: Write>(
    out: W,
    write: impl FnOnce(&mut zstd::stream::write::Encoder<'static, W>) -> io::Result<()>,
) -> io::Result<()> {
    let mut z = zstd::stream::write::Encoder::new(out, LEVEL)?;
    // a flipped bit inside the compressed data may still decode: the checksum makes the
    // reader refuse it (ncdu 2.8 reads such frames; its own, without one, stay readable)
    z.include_checksum(true)?;
    write(&mut z)?;
    z.finish().map(drop)
}

/// `input` decompressed, its errors saying they are the compression's.
pub fn decompressed<R: Read>(input: R) -> io::Result<Unzstd<BufReader<R>>> {
    zstd::stream::read::Decoder::new(input).map(Unzstd)
}

/// A zstd stream whose errors say they are the compression's.
pub struct Unzstd<R: io::BufRead>(zstd::stream::read::Decoder<'static, R>);

impl<R: io::BufRead> Read for Unzstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            let kind = e.kind();
            io::Error::new(kind, format!("the zstd compression is damaged: {e}"))
        })
    }
}
