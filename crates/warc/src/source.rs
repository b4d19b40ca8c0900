//! Where an archive's bytes come from: a file, or bytes in memory
//! (standard input, a test, a fuzz case); read forward with the position
//! known, and reopened at an offset (a segment, a resync).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An archive's bytes: a file, or bytes already in memory.
///
/// ```
/// use htmltok_warc::Source;
/// let source = Source::from(b"WARC/1.1\r\n".to_vec());
/// assert_eq!(source.len().unwrap(), 10);
/// ```
#[derive(Clone, Debug)]
pub enum Source {
    /// A file, opened anew by each reader (segments read it in parallel).
    Path(Arc<Path>),
    /// Bytes in memory.
    Memory(Arc<[u8]>),
}

impl From<Vec<u8>> for Source {
    fn from(bytes: Vec<u8>) -> Source {
        Source::Memory(bytes.into())
    }
}

impl From<&Path> for Source {
    fn from(path: &Path) -> Source {
        Source::Path(path.into())
    }
}

impl From<PathBuf> for Source {
    fn from(path: PathBuf) -> Source {
        Source::Path(path.into())
    }
}

/// How much of the file a reader buffers.
const BUFFER: usize = 64 << 10;

impl Source {
    /// Its length in bytes.
    pub fn len(&self) -> io::Result<u64> {
        match self {
            Source::Path(path) => Ok(std::fs::metadata(path)?.len()),
            Source::Memory(bytes) => Ok(bytes.len() as u64),
        }
    }

    /// Whether it has no bytes.
    pub fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// A buffered reader from `offset` on.
    pub(crate) fn open_at(&self, offset: u64) -> io::Result<Counted<Input>> {
        let mut input = match self {
            Source::Path(path) => Input::File(BufReader::with_capacity(BUFFER, File::open(path)?)),
            Source::Memory(bytes) => Input::Memory(Cursor::new(Arc::clone(bytes))),
        };
        input.seek(SeekFrom::Start(offset))?;
        Ok(Counted::new(input, offset))
    }
}

/// A [`Source`] opened: a buffered file or a cursor over memory.
pub(crate) enum Input {
    File(BufReader<File>),
    Memory(Cursor<Arc<[u8]>>),
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::File(file) => file.read(buf),
            Input::Memory(cursor) => cursor.read(buf),
        }
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Input::File(file) => file.fill_buf(),
            Input::Memory(cursor) => cursor.fill_buf(),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Input::File(file) => file.consume(n),
            Input::Memory(cursor) => cursor.consume(n),
        }
    }
}

impl Seek for Input {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            Input::File(file) => file.seek(to),
            Input::Memory(cursor) => cursor.seek(to),
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
