//! Gzip: `.gz` pages, and gzip streams read as a whole (standard input,
//! an archive not named `.warc.gz`). A `.warc.gz` file is inflated member
//! by member on several threads instead (`members`).
//!
//! flate2 runs on the zlib-rs backend (features in Cargo.toml), as
//! fastwarc does: inflating the corpus as a WARC of one gzip member per
//! page (`examples/make_warc.rs`: 6.1 MB to 35.2 MB) took a median 190 ms
//! with zlib-rs against 217 ms with miniz_oxide (flate2's default), in
//! three alternating runs of 11 each on 2026-12-03, a busy machine (load
//! 7-9 on 2 cores; `gzip -dc` took 307 ms on the same file).

use std::io::{self, BufRead, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

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

/// How much inflated data one chunk of [`Inflating`] holds: small enough
/// that the first pages reach the workers early, large enough that the
/// channel's cost per chunk is nothing.
const CHUNK: usize = 256 * 1024;

/// How many chunks the inflating thread may be ahead of the reader (so
/// at most `(AHEAD + 2) × CHUNK` bytes are in flight).
const AHEAD: usize = 32;

/// A gzip stream ([`Inflated`]) inflated on a thread of its own, read in
/// chunks. Inflating is most of the work of reading a `.warc.gz`
/// (zlib-rs), and the reading thread is what the workers wait for: apart,
/// the inflate runs alone on a core while the WARC records are parsed
/// and copied out on the reading thread. Chunks go back to the inflating
/// thread once read, so their memory is mapped once.
///
/// An error (a truncated or broken stream) comes after every byte
/// inflated before it, and ends the stream.
pub(crate) struct Inflating {
    chunks: mpsc::Receiver<io::Result<(Vec<u8>, usize)>>,
    spent: mpsc::SyncSender<Vec<u8>>,
    chunk: Vec<u8>,
    /// How much of `chunk` is inflated data, and how much of that read.
    filled: usize,
    at: usize,
    pos: u64,
    ended: bool,
}

impl Inflating {
    /// Starts inflating `stream` on a new thread.
    pub(crate) fn start<R: BufRead + Send + 'static>(stream: Inflated<R>) -> io::Result<Self> {
        let (to_reader, chunks) = mpsc::sync_channel(AHEAD);
        let (spent, recycled) = mpsc::sync_channel(AHEAD + 2);
        std::thread::Builder::new()
            .name("htmltok-inflate".into())
            .spawn(move || {
                let mut stream = stream;
                let run = catch_unwind(AssertUnwindSafe(|| {
                    inflate_chunks(&mut stream, &to_reader, &recycled)
                }));
                if run.is_err() {
                    let _ = to_reader.send(Err(io::Error::other(
                        "internal error while inflating (the rest of the stream skipped)",
                    )));
                }
            })?;
        Ok(Inflating {
            chunks,
            spent,
            chunk: Vec::new(),
            filled: 0,
            at: 0,
            pos: 0,
            ended: false,
        })
    }
}

/// The inflating thread: fills chunks (reused ones when the reader has
/// given some back) and sends them on until the stream ends, fails, or the
/// reader is gone.
fn inflate_chunks<R: BufRead>(
    stream: &mut Inflated<R>,
    to_reader: &mpsc::SyncSender<io::Result<(Vec<u8>, usize)>>,
    recycled: &mpsc::Receiver<Vec<u8>>,
) {
    loop {
        // A chunk's length stays CHUNK (zeroed once, when new): only
        // `filled` says how much of it is data.
        let mut chunk = recycled.try_recv().unwrap_or_else(|_| vec![0; CHUNK]);
        let mut filled = 0;
        let mut failed = None;
        while filled < CHUNK {
            match stream.read(&mut chunk[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        let end = filled < CHUNK;
        if filled > 0 && to_reader.send(Ok((chunk, filled))).is_err() {
            return;
        }
        if let Some(e) = failed {
            let _ = to_reader.send(Err(e));
            return;
        }
        if end {
            return;
        }
    }
}

/// `Read::read` for a reader whose data is in its own buffer
/// (`BufRead`): a copy from it.
pub(crate) fn read_from_buffer(reader: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

impl Read for Inflating {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_from_buffer(self, buf)
    }
}

impl BufRead for Inflating {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.filled && !self.ended {
            let spent = std::mem::take(&mut self.chunk);
            if !spent.is_empty() {
                // Dropped instead when the thread has ended or has enough.
                let _ = self.spent.try_send(spent);
            }
            (self.filled, self.at) = (0, 0);
            match self.chunks.recv() {
                Ok(Ok((chunk, filled))) => (self.chunk, self.filled) = (chunk, filled),
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                // The thread ended: the stream's end.
                Err(_) => self.ended = true,
            }
        }
        Ok(&self.chunk[self.at..self.filled])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.filled - self.at);
        self.at += n;
        self.pos += n as u64;
    }
}

impl std::io::Seek for Inflating {
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
