//! Where an archive's bytes come from: a file, bytes in memory, or a
//! stream read once (standard input); read forward with the position
//! known, and reopened at an offset (a segment, a resync).
//!
//! A stream cannot be reopened, so the bytes it gave are kept for a while:
//! the last [`LOOK_BACK`] bytes read, which is as far back as a reader
//! goes (to a broken gzip member's start to look for the next member, to
//! a record found inside another's content, to a frame's start after its
//! layout was measured) in all but archives broken over a larger stretch.

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// An archive's bytes: a file, bytes already in memory, or a stream.
///
/// A file is opened anew by each reader (segments read it on several
/// threads at once); a stream ([`Source::from_reader`]) is read once, as
/// it comes, keeping its last [`LOOK_BACK`] bytes for going back over.
///
/// ```
/// use htmltok_warc::Source;
/// let source = Source::from(b"WARC/1.1\r\n".to_vec());
/// assert_eq!(source.len().unwrap(), 10);
/// ```
#[derive(Clone)]
pub struct Source(Origin);

#[derive(Clone)]
enum Origin {
    Path(Arc<Path>),
    Memory(Arc<[u8]>),
    Stream(Arc<Mutex<Spool>>),
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Origin::Path(path) => f.debug_tuple("Path").field(path).finish(),
            Origin::Memory(bytes) => write!(f, "Memory({} bytes)", bytes.len()),
            Origin::Stream(_) => f.write_str("Stream"),
        }
    }
}

impl From<Vec<u8>> for Source {
    fn from(bytes: Vec<u8>) -> Source {
        Source(Origin::Memory(bytes.into()))
    }
}

impl From<Arc<[u8]>> for Source {
    fn from(bytes: Arc<[u8]>) -> Source {
        Source(Origin::Memory(bytes))
    }
}

impl From<&Path> for Source {
    fn from(path: &Path) -> Source {
        Source(Origin::Path(path.into()))
    }
}

impl From<PathBuf> for Source {
    fn from(path: PathBuf) -> Source {
        Source(Origin::Path(path.into()))
    }
}

/// How much of the file a reader buffers.
const BUFFER: usize = 64 << 10;

/// How many of a stream's last bytes are kept for a reader to go back
/// over: as much as a unit held whole until verified, so that a broken
/// one of any size a reader holds can be looked through again.
pub const LOOK_BACK: usize = 64 << 20;

impl Source {
    /// A stream read once, as it comes (standard input, a socket, a
    /// decompressor): nothing is read until a reader asks for it, and
    /// only its last [`LOOK_BACK`] bytes are kept.
    ///
    /// Reading it gives the events of reading the same bytes from a file,
    /// but where going back over a broken stretch would reach more than
    /// [`LOOK_BACK`] bytes back: there the bytes are gone, and the reader
    /// says so and goes on from what it still has. It cannot be read in
    /// [segments](crate::segment) (its length is not known in advance).
    ///
    /// ```
    /// use htmltok_warc::{Records, Source};
    ///
    /// let archive = &b"WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n"[..];
    /// let mut records = Records::new(Source::from_reader(archive)).unwrap();
    /// assert_eq!(records.next_record().unwrap().unwrap().header().number(), 1);
    /// assert!(records.next_record().is_none());
    /// ```
    pub fn from_reader(reader: impl Read + Send + 'static) -> Source {
        Source(Origin::Stream(Arc::new(Mutex::new(Spool {
            reader: Box::new(reader),
            kept: VecDeque::new(),
            start: 0,
            ended: false,
            failed: None,
            scratch: Vec::new(),
        }))))
    }

    /// Its length in bytes (an error for a stream, whose length is not
    /// known before its end).
    pub fn len(&self) -> io::Result<u64> {
        match &self.0 {
            Origin::Path(path) => Ok(std::fs::metadata(path)?.len()),
            Origin::Memory(bytes) => Ok(bytes.len() as u64),
            Origin::Stream(_) => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "the length of a stream is not known before its end",
            )),
        }
    }

    /// Whether it has no bytes (an error for a stream, as [`Source::len`]).
    pub fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Whether it is a stream, read once.
    pub(crate) fn is_stream(&self) -> bool {
        matches!(self.0, Origin::Stream(_))
    }

    /// A buffered reader from `offset` on.
    pub(crate) fn open_at(&self, offset: u64) -> io::Result<Counted<Input>> {
        let mut input = match &self.0 {
            Origin::Path(path) => Input::File(BufReader::with_capacity(BUFFER, File::open(path)?)),
            Origin::Memory(bytes) => Input::Memory(Cursor::new(Arc::clone(bytes))),
            Origin::Stream(spool) => {
                let kept = lock(spool).start;
                if offset < kept {
                    return Err(io::Error::other(format!(
                        "the stream's bytes before offset {kept} are gone (a stream's last {} MiB are kept)",
                        LOOK_BACK >> 20
                    )));
                }
                Input::Stream(StreamInput {
                    spool: Arc::clone(spool),
                    pos: offset,
                    buf: Vec::new(),
                    at: 0,
                })
            }
        };
        input.seek(SeekFrom::Start(offset))?;
        Ok(Counted::new(input, offset))
    }

    /// A reader at the end, which gives nothing.
    pub(crate) fn open_end(&self) -> io::Result<Counted<Input>> {
        match &self.0 {
            Origin::Stream(spool) => {
                let end = lock(spool).end();
                Ok(Counted::new(
                    Input::Memory(Cursor::new(Arc::from(&[][..]))),
                    end,
                ))
            }
            _ => self.open_at(self.len()?),
        }
    }
}

/// A stream's bytes as far as they were read, the last [`LOOK_BACK`] of
/// them kept.
struct Spool {
    reader: Box<dyn Read + Send>,
    kept: VecDeque<u8>,
    /// The offset of `kept`'s first byte.
    start: u64,
    ended: bool,
    /// A read that failed: every read past it fails so.
    failed: Option<(io::ErrorKind, String)>,
    scratch: Vec<u8>,
}

fn lock(spool: &Mutex<Spool>) -> MutexGuard<'_, Spool> {
    spool
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Spool {
    /// The offset after the last byte read from the stream.
    fn end(&self) -> u64 {
        self.start + self.kept.len() as u64
    }

    /// Copies bytes from `pos` on into `out`: 0 at the stream's end.
    fn read_at(&mut self, pos: u64, out: &mut [u8]) -> io::Result<usize> {
        if pos < self.start {
            return Err(io::Error::other(format!(
                "the stream's bytes before offset {} are gone (a stream's last {} MiB are kept)",
                self.start,
                LOOK_BACK >> 20
            )));
        }
        while pos >= self.end() {
            if self.ended {
                return Ok(0);
            }
            if let Some((kind, what)) = &self.failed {
                return Err(io::Error::new(*kind, what.clone()));
            }
            self.read_more();
        }
        let i = usize::try_from(pos - self.start).unwrap_or(usize::MAX);
        let (front, back) = self.kept.as_slices();
        let from = match front.get(i..) {
            Some(rest) if !rest.is_empty() => rest,
            _ => &back[i - front.len()..],
        };
        let n = from.len().min(out.len());
        out[..n].copy_from_slice(&from[..n]);
        Ok(n)
    }

    /// Reads the stream's next bytes, forgetting those more than
    /// [`LOOK_BACK`] behind them.
    fn read_more(&mut self) {
        self.scratch.resize(BUFFER, 0);
        match self.reader.read(&mut self.scratch) {
            Ok(0) => self.ended = true,
            Ok(n) => self.kept.extend(&self.scratch[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => self.failed = Some((e.kind(), e.to_string())),
        }
        let excess = self.kept.len().saturating_sub(LOOK_BACK);
        if excess > 0 {
            self.kept.drain(..excess);
            self.start += excess as u64;
        }
    }
}

/// A reader of a stream's kept bytes, from any offset still kept.
pub(crate) struct StreamInput {
    spool: Arc<Mutex<Spool>>,
    /// The offset of `buf`'s first byte.
    pos: u64,
    buf: Vec<u8>,
    /// Bytes of `buf` consumed.
    at: usize,
}

impl Read for StreamInput {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let data = self.fill_buf()?;
        let n = data.len().min(out.len());
        out[..n].copy_from_slice(&data[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for StreamInput {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.buf.len() {
            self.pos += self.at as u64;
            self.at = 0;
            self.buf.resize(BUFFER, 0);
            let read = lock(&self.spool).read_at(self.pos, &mut self.buf);
            let n = *read.as_ref().unwrap_or(&0);
            self.buf.truncate(n);
            read?;
        }
        Ok(&self.buf[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.buf.len());
    }
}

impl Seek for StreamInput {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let here = self.pos + self.at as u64;
        let to = match to {
            SeekFrom::Start(to) => to,
            SeekFrom::Current(by) => here.checked_add_signed(by).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "a seek before the start")
            })?,
            SeekFrom::End(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "a stream has no known end to seek from",
                ))
            }
        };
        self.pos = to;
        self.buf.clear();
        self.at = 0;
        Ok(to)
    }
}

/// A [`Source`] opened: a buffered file or a cursor over memory.
pub(crate) enum Input {
    File(BufReader<File>),
    Memory(Cursor<Arc<[u8]>>),
    Stream(StreamInput),
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::File(file) => file.read(buf),
            Input::Memory(cursor) => cursor.read(buf),
            Input::Stream(stream) => stream.read(buf),
        }
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Input::File(file) => file.fill_buf(),
            Input::Memory(cursor) => cursor.fill_buf(),
            Input::Stream(stream) => stream.fill_buf(),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Input::File(file) => file.consume(n),
            Input::Memory(cursor) => cursor.consume(n),
            Input::Stream(stream) => stream.consume(n),
        }
    }
}

impl Seek for Input {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            Input::File(file) => file.seek(to),
            Input::Memory(cursor) => cursor.seek(to),
            Input::Stream(stream) => stream.seek(to),
        }
    }
}

/// A buffered reader that knows its offset in the archive.
pub(crate) struct Counted<R> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Counted<R> {
    /// `inner`, whose next byte is at `pos`.
    pub(crate) fn new(inner: R, pos: u64) -> Counted<R> {
        Counted { inner, pos }
    }

    /// The offset of the next byte.
    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// Skips `n` bytes; fails at the end of the input.
    pub(crate) fn skip(&mut self, mut n: u64) -> io::Result<()> {
        while n > 0 {
            let data = self.fill_buf()?;
            if data.is_empty() {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let k = usize::try_from(n).map_or(data.len(), |n| n.min(data.len()));
            self.consume(k);
            n -= k as u64;
        }
        Ok(())
    }
}

impl<R: BufRead + Seek> Counted<R> {
    /// Goes to `offset`.
    pub(crate) fn seek_to(&mut self, offset: u64) -> io::Result<()> {
        self.inner.seek(SeekFrom::Start(offset))?;
        self.pos = offset;
        Ok(())
    }
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        loop {
            match self.inner.fill_buf() {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // The borrow checker needs the buffer fetched again.
                Ok(_) => break,
                Err(e) => return Err(e),
            }
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.pos += n as u64;
    }
}
