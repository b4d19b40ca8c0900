//! Gzip: `.gz` pages and gzip-compressed standard input. (WARC archives
//! are decompressed by fastwarc's own reader, on zlib-rs too.)
//!
//! flate2 runs on the zlib-rs backend (features in Cargo.toml), as
//! fastwarc does: inflating the corpus as a WARC of one gzip member per
//! page (`examples/make_warc.rs`: 6.1 MB to 35.2 MB) took a median 190 ms
//! with zlib-rs against 217 ms with miniz_oxide (flate2's default), in
//! three alternating runs of 11 each on 2026-12-03, a busy machine (load
//! 7-9 on 2 cores; `gzip -dc` took 307 ms on the same file).

use std::io::Read;

use flate2::read::MultiGzDecoder;

/// Whether `bytes` start like a gzip stream.
pub(crate) fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The decompressed content of the gzip stream `bytes` (all its members,
/// as `gzip -d` reads them); an error names what is wrong.
pub(crate) fn decompress(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4));
    match MultiGzDecoder::new(bytes).read_to_end(&mut out) {
        Ok(_) => Ok(out),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Err("truncated gzip stream".into())
        }
        Err(e) => Err(format!("broken gzip stream: {e}")),
    }
}

/// A gzip file inflated as a stream, for the WARC reader. fastwarc's own
/// gzip reader ends quietly where a file is cut in the middle of a member;
/// this one fails there (`UnexpectedEof`), so a truncated last record is
/// reported, not lost.
///
/// It seeks only as far as a reader needs to tell its position
/// (`SeekFrom::Current(0)`): fastwarc seeks otherwise only to verify
/// digests, which the page commands do not ask for.
pub(crate) struct Inflated<R> {
    inner: MultiGzDecoder<R>,
    pos: u64,
}

impl Inflated<std::io::BufReader<std::fs::File>> {
    pub(crate) fn open(path: &std::path::Path) -> std::io::Result<Self> {
        let file = std::fs::File::open(path)?;
        Ok(Inflated::new(std::io::BufReader::with_capacity(
            1 << 20,
            file,
        )))
    }
}

impl<R: std::io::BufRead> Inflated<R> {
    pub(crate) fn new(compressed: R) -> Self {
        Inflated {
            inner: MultiGzDecoder::new(compressed),
            pos: 0,
        }
    }
}

impl<R: std::io::BufRead> Read for Inflated<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R> std::io::Seek for Inflated<R> {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        match to {
            std::io::SeekFrom::Current(0) => Ok(self.pos),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "a gzip stream is read forward only",
            )),
        }
    }
}

/// Whether the gzip stream `bytes` starts with `prefix` once inflated.
pub(crate) fn inflates_to(bytes: &[u8], prefix: &[u8]) -> bool {
    let mut head = vec![0; prefix.len()];
    MultiGzDecoder::new(bytes).read_exact(&mut head).is_ok() && head == prefix
}
