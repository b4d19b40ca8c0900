//! A `.warc.gz` file inflated on several threads at once, its gzip
//! members in order: how an archive is read when its members cannot be
//! read one by one (`segment.rs` falls back to it), and the gzip member
//! reading that `segment.rs` shares.
//!
//! Inflating is inherently serial within one gzip member, but a WARC
//! archive is written one member per record (as Common Crawl does), and
//! members can be inflated independently once their starts are known. The
//! starts are not written anywhere, so they are guessed: near every
//! [`SEGMENT`] bytes of the compressed file, the first place where a gzip
//! header begins and inflates to `WARC/` is taken as a member start, and
//! each such segment is inflated on a thread of its own, ahead of the
//! reader.
//!
//! A guess can be wrong: a record's compressed payload may hold a gzip
//! file of its own, stored as it is (a crawled `.warc.gz`). The guesses
//! are only ever used once proven: the segment before a guessed start is
//! inflated member by member until a member ends at or past that start,
//! and the next segment's output is read only if a member ended exactly
//! there. Otherwise the speculative segments that began too early are
//! dropped and inflating goes on from the true member end, so the output
//! is always what inflating the whole file in order gives (see
//! `tests/cli.rs`, which hides such a stored gzip member in a record).
//!
//! Errors keep their order: a truncated or broken member ends the stream
//! with its error after every byte inflated before it.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};

use flate2::bufread::GzDecoder;

use crate::read::Bytes;

/// Compressed bytes a segment spans (the distance between guessed member
/// starts): large enough that a segment is ~ a hundred pages' work and
/// a thread's start is nothing beside it, small enough that two threads
/// share even a small archive (the corpus's 6 MB make 6 segments).
pub(crate) const SEGMENT: u64 = 256 << 10;

/// How far past a segment's nominal end a member start is looked for;
/// without one there (one long member, or a file not cut per record), the
/// segment simply goes on until some member ends past that point.
const REACH: u64 = 1 << 20;

/// Inflated bytes a chunk holds at most. Whole members go into a chunk
/// (a new chunk is begun before a member when less than [`ROOM`] is left),
/// so that a record's page lies in one chunk and is handed on as a part
/// of it instead of copied out ([`Current`]).
const CHUNK: usize = 1 << 20;

/// The room a chunk must have left to begin a member in it: most pages
/// are smaller. A member that outgrows its chunk moves to a larger one
/// (the part inflated so far copied once, or the block grown in place),
/// up to [`MAX_CHUNK`].
const ROOM: usize = 256 << 10;

/// The largest chunk: a member larger than that (one gzip member for a
/// whole archive) goes on in the next chunk instead, and the page that
/// spans the two is copied out. It bounds what a segment holds in flight
/// ((`AHEAD` + 1) chunks) whatever the members inflate to.
#[cfg(not(test))]
const MAX_CHUNK: usize = 8 << 20;
/// Small in the tests, so that a test's member outgrows it.
#[cfg(test)]
const MAX_CHUNK: usize = 4 << 20;

/// Chunks a segment's thread may be ahead of the reader: a speculative
/// segment's output (256 KiB compressed is ~1.5 MiB of HTML) fits, so it
/// is usually finished before it is read.
const AHEAD: usize = 4;

/// What a segment's thread sends.
enum Msg {
    /// A chunk of inflated data.
    Data(Vec<u8>),
    /// The segment is done: the offset in the compressed file where its
    /// last member ended (at or past where the next segment starts).
    End(u64),
    /// The stream is broken here (after the data sent before).
    Failed(io::Error),
}

/// A segment being inflated: from a member start (`start`) until a
/// member ends at or past `stop`.
struct Segment {
    start: u64,
    stop: Stop,
    msgs: mpsc::Receiver<Msg>,
}

/// Where a segment stops.
#[derive(Clone, Copy)]
enum Stop {
    /// At the first member end at or past a guessed member start, where
    /// the next segment starts.
    Guess(u64),
    /// At the first member end at or past this offset: no guess was found
    /// in reach.
    Past(u64),
}

impl Stop {
    fn at(self) -> u64 {
        match self {
            Stop::Guess(at) | Stop::Past(at) => at,
        }
    }
}

/// The inflated content of a `.warc.gz`, read in order while its segments
/// are inflated ahead on other threads.
pub(crate) struct Members {
    path: PathBuf,
    /// For looking for member starts, and the buffer it reads into.
    probe: File,
    probe_buf: Vec<u8>,
    len: u64,
    /// Segments started, in order; the first is being read.
    segments: VecDeque<Segment>,
    /// How many segments may be in flight.
    threads: usize,
    /// The chunk being read, shared with the pages found in it.
    chunk: Arc<Vec<u8>>,
    at: usize,
    current: Current,
    pos: u64,
    ended: bool,
    /// Segments started, and those dropped for a wrong guess (for tests).
    started: usize,
    wrong: usize,
}

impl Members {
    /// Starts inflating the gzip file at `path` from `start`, which must
    /// be a member start (0, or where a member was seen to end), on up to
    /// `threads` threads.
    pub(crate) fn open_from(path: &Path, start: u64, threads: usize) -> io::Result<Self> {
        let probe = File::open(path)?;
        let len = probe.metadata()?.len();
        let mut members = Members {
            path: path.to_owned(),
            probe,
            probe_buf: Vec::new(),
            len,
            segments: VecDeque::new(),
            threads: threads.max(1),
            chunk: Arc::default(),
            at: 0,
            current: Current::default(),
            pos: 0,
            ended: false,
            started: 0,
            wrong: 0,
        };
        let stop = members.stop_after(start);
        members.start(start, stop)?;
        members.speculate();
        Ok(members)
    }

    /// Where a segment starting at `start` ends: the first guessed member
    /// start from `start + SEGMENT` on, within [`REACH`].
    fn stop_after(&mut self, start: u64) -> Stop {
        match guess_after(&mut self.probe, &mut self.probe_buf, self.len, start) {
            Ok(at) => Stop::Guess(at),
            Err(to) => Stop::Past(to),
        }
    }

    /// Starts a thread inflating from `start`.
    fn start(&mut self, start: u64, stop: Stop) -> io::Result<()> {
        let (send, msgs) = mpsc::sync_channel(AHEAD);
        let mut file = File::open(&self.path)?;
        file.seek(SeekFrom::Start(start))?;
        std::thread::Builder::new()
            .name("htmltok-inflate".into())
            .spawn(move || {
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    inflate_segment(file, start, stop.at(), &send)
                }));
                if run.is_err() {
                    let _ = send.send(Msg::Failed(io::Error::other(
                        "internal error while inflating (the rest of the stream skipped)",
                    )));
                }
            })?;
        self.segments.push_back(Segment { start, stop, msgs });
        self.started += 1;
        Ok(())
    }

    /// Starts segments at guessed member starts after the last one, up to
    /// `threads` in flight. A failure to start one only loses the head
    /// start: the segment before goes on past it.
    fn speculate(&mut self) {
        while self.segments.len() < self.threads {
            let Some(last) = self.segments.back() else {
                return;
            };
            let Stop::Guess(start) = last.stop else {
                return;
            };
            let stop = self.stop_after(start);
            if self.start(start, stop).is_err() {
                return;
            }
        }
    }

    /// The segment being read ended at `end`: go on with the one starting
    /// there, dropping those that started too early (wrong guesses), or
    /// start one at `end`.
    fn next_segment(&mut self, end: u64) -> io::Result<()> {
        self.segments.pop_front();
        // Dropping a segment's receiver stops its thread at its next send.
        while self.segments.front().is_some_and(|s| s.start < end) {
            self.segments.pop_front();
            self.wrong += 1;
        }
        if end >= self.len {
            self.segments.clear();
            self.ended = true;
            return Ok(());
        }
        if self.segments.front().is_none_or(|s| s.start != end) {
            // `end` is a true member end, so a true member start; it
            // stops where the next speculative segment starts, if any.
            let stop = match self.segments.front() {
                Some(next) => Stop::Guess(next.start),
                None => self.stop_after(end),
            };
            let later = std::mem::take(&mut self.segments);
            self.start(end, stop)?;
            self.segments.extend(later);
        }
        self.speculate();
        Ok(())
    }
}

/// The guessed member start that ends a segment beginning at `start` in
/// a file of `len` bytes: the first from `start + SEGMENT` on, within
/// [`REACH`]; else `Err` with where the search gave up (`len` when the
/// file ends before).
fn guess_after(probe: &mut File, buf: &mut Vec<u8>, len: u64, start: u64) -> Result<u64, u64> {
    let from = start.saturating_add(SEGMENT);
    if from >= len {
        return Err(len);
    }
    let to = from.saturating_add(REACH).min(len);
    find_member_start(probe, buf, from, to).ok_or(to)
}

/// Inflates members from `start` until one ends at or past `stop` (or
/// the file ends), sending the output in chunks; gives up quietly when the
/// reader has gone.
fn inflate_segment(file: File, start: u64, stop: u64, send: &mpsc::SyncSender<Msg>) {
    let mut input = Counted {
        inner: BufReader::with_capacity(64 * 1024, file),
        pos: start,
    };
    let mut member = Member::new();
    let mut chunk = crate::read::page_buffer(CHUNK);
    let mut first = start == 0;
    loop {
        let at_end = match input.fill_buf() {
            Ok(rest) => rest.is_empty(),
            Err(e) => {
                let _ = flush(send, chunk);
                let _ = send.send(Msg::Failed(e));
                return;
            }
        };
        // A file's first member is read even when there is none: an empty
        // file is a broken gzip stream, as inflating it in order says.
        if !first && (at_end || input.pos >= stop) {
            if flush(send, chunk) {
                let _ = send.send(Msg::End(input.pos));
            }
            return;
        }
        first = false;
        if chunk.capacity() - chunk.len() < ROOM {
            if !flush(send, chunk) {
                return;
            }
            chunk = crate::read::page_buffer(CHUNK);
        }
        if let Err(e) = member.inflate(&mut input, &mut chunk, &mut |full, start| {
            outgrown(full, start, send)
        }) {
            let _ = flush(send, chunk);
            let _ = send.send(Msg::Failed(e));
            return;
        }
    }
}

/// `chunk` is full, with a member begun at `start` in it: gives it room
/// to go on, and says where the member begins now (`None` when the reader
/// has gone).
fn outgrown(chunk: &mut Vec<u8>, start: usize, send: &mpsc::SyncSender<Msg>) -> Option<usize> {
    let partial = chunk.len() - start;
    let size = CHUNK.max(partial.saturating_mul(2));
    if start == 0 && size <= MAX_CHUNK {
        // The member is all there is: grown in place (a large block's
        // realloc moves pages, not bytes).
        chunk.reserve_exact(size - chunk.len());
        return Some(0);
    }
    // Moved whole to a larger chunk, or, too large to keep whole, split
    // where it is: either way it goes on at the new chunk's start.
    let whole = size <= MAX_CHUNK;
    let mut next = crate::read::page_buffer(if whole { size } else { CHUNK });
    if whole {
        next.extend_from_slice(&chunk[start..]);
        chunk.truncate(start);
    }
    flush(send, std::mem::replace(chunk, next)).then_some(0)
}

/// Sends `chunk` if it holds data; false when the reader has gone.
fn flush(send: &mpsc::SyncSender<Msg>, chunk: Vec<u8>) -> bool {
    chunk.is_empty() || send.send(Msg::Data(chunk)).is_ok()
}

/// One gzip member's inflating (RFC 1952): the header read past, the
/// deflate data inflated straight into a chunk's spare room (no zeroing,
/// no copy), the trailer's CRC-32 and length checked. flate2's
/// `GzDecoder` inflates only into a slice (which must be zeroed first)
/// and its state is made anew per member.
pub(crate) struct Member {
    inflate: flate2::Decompress,
    crc: flate2::Crc,
}

/// The flags of a gzip header.
const FHCRC: u8 = 2;
const FEXTRA: u8 = 4;
const FNAME: u8 = 8;
const FCOMMENT: u8 = 16;

impl Member {
    pub(crate) fn new() -> Self {
        Member {
            inflate: flate2::Decompress::new(false),
            crc: flate2::Crc::new(),
        }
    }

    /// Inflates the member at the start of `input` onto the end of
    /// `chunk`; when `chunk` is full, `full` makes room (given where the
    /// member begins in it, it says where it begins after), or says the
    /// reader has gone.
    pub(crate) fn inflate(
        &mut self,
        input: &mut Counted,
        chunk: &mut Vec<u8>,
        full: &mut dyn FnMut(&mut Vec<u8>, usize) -> Option<usize>,
    ) -> io::Result<()> {
        skip_header(input)?;
        self.inflate.reset(false);
        self.crc.reset();
        let mut size: u32 = 0;
        let mut start = chunk.len();
        loop {
            if chunk.len() == chunk.capacity() {
                match full(chunk, start) {
                    Some(now) => start = now,
                    // Nothing more is wanted.
                    None => return Err(io::Error::other("the reader has gone")),
                }
            }
            let data = input.fill_buf()?;
            if data.is_empty() {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let (in_before, out_before) = (self.inflate.total_in(), chunk.len());
            let status = self
                .inflate
                .decompress_vec(data, chunk, flate2::FlushDecompress::None)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
            let used = usize::try_from(self.inflate.total_in() - in_before).unwrap_or(usize::MAX);
            input.consume(used);
            if used == 0 && chunk.len() == out_before {
                // Room and input, and no progress: zlib's "buffer error",
                // which a well-formed stream never gives here.
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "corrupt deflate stream",
                ));
            }
            let new = &chunk[out_before..];
            self.crc.update(new);
            // ISIZE is the length modulo 2^32.
            size = size.wrapping_add(new.len() as u32);
            if status == flate2::Status::StreamEnd {
                break;
            }
        }
        let mut trailer = [0; 8];
        input.read_exact(&mut trailer)?;
        let (crc, isize) = trailer.split_at(4);
        if crc != self.crc.sum().to_le_bytes() || isize != size.to_le_bytes() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "corrupt gzip stream: its checksum or length does not match",
            ));
        }
        Ok(())
    }
}

/// Reads past a gzip member's header.
fn skip_header(input: &mut Counted) -> io::Result<()> {
    let mut fixed = [0; 10];
    input.read_exact(&mut fixed)?;
    if fixed[..3] != [0x1f, 0x8b, 8] || fixed[3] & 0xe0 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "invalid gzip header",
        ));
    }
    let flags = fixed[3];
    if flags & FEXTRA != 0 {
        let mut len = [0; 2];
        input.read_exact(&mut len)?;
        skip(input, u16::from_le_bytes(len).into())?;
    }
    if flags & FNAME != 0 {
        skip_past_nul(input)?;
    }
    if flags & FCOMMENT != 0 {
        skip_past_nul(input)?;
    }
    if flags & FHCRC != 0 {
        skip(input, 2)?;
    }
    Ok(())
}

fn skip(input: &mut Counted, mut n: usize) -> io::Result<()> {
    while n > 0 {
        let data = input.fill_buf()?;
        if data.is_empty() {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let k = data.len().min(n);
        input.consume(k);
        n -= k;
    }
    Ok(())
}

/// Skips a zero-terminated field (a name, a comment), however long,
/// without keeping it.
fn skip_past_nul(input: &mut Counted) -> io::Result<()> {
    loop {
        let data = input.fill_buf()?;
        if data.is_empty() {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        match memchr::memchr(0, data) {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = data.len();
                input.consume(n);
            }
        }
    }
}

/// A buffered reader that knows its offset in the file.
pub(crate) struct Counted {
    pub(crate) inner: BufReader<File>,
    pub(crate) pos: u64,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl BufRead for Counted {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.pos += n as u64;
    }
}

/// The first offset in `from..to` of `file` where a gzip member starts
/// that inflates to a WARC record.
pub(crate) fn find_member_start(
    file: &mut File,
    buf: &mut Vec<u8>,
    from: u64,
    to: u64,
) -> Option<u64> {
    // Read in windows overlapping by as much as a check reads after a
    // candidate, so that a candidate near a window's end is checked whole.
    const WINDOW: usize = 64 * 1024;
    const CHECK: usize = 4 * 1024;
    buf.resize(WINDOW + CHECK, 0);
    let mut at = from;
    while at < to {
        file.seek(SeekFrom::Start(at)).ok()?;
        let n = read_full(file, buf).ok()?;
        let window = &buf[..n];
        let scan_len = usize::try_from(to - at).map_or(WINDOW, |left| left.min(WINDOW));
        let mut i = 0;
        while let Some(hit) = memchr::memmem::find(&window[i..scan_len.min(n)], &[0x1f, 0x8b, 8]) {
            let candidate = i + hit;
            let end = (candidate + CHECK).min(n);
            if starts_warc_member(&window[candidate..end]) {
                return Some(at + candidate as u64);
            }
            i = candidate + 1;
        }
        if n < buf.len() {
            return None;
        }
        at += WINDOW as u64;
    }
    None
}

/// Reads until `buf` is full or the file ends.
fn read_full(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Whether `bytes` start a gzip member (deflate, no reserved flags) whose
/// content starts with `WARC/`.
fn starts_warc_member(bytes: &[u8]) -> bool {
    if bytes.len() < 10 || bytes[..3] != [0x1f, 0x8b, 8] || bytes[3] & 0xe0 != 0 {
        return false;
    }
    let mut head = [0; 5];
    GzDecoder::new(bytes).read_exact(&mut head).is_ok() && &head == b"WARC/"
}

impl Read for Members {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        crate::gz::read_from_buffer(self, buf)
    }
}

impl BufRead for Members {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.chunk.len() && !self.ended {
            self.at = 0;
            let spent = std::mem::take(&mut self.chunk);
            self.current.set(None);
            // A chunk no page holds goes back to the buffers.
            if let Ok(spent) = Arc::try_unwrap(spent) {
                crate::read::recycle(spent);
            }
            let msg = match self.segments.front() {
                // Every way out of a segment's thread sends its last word
                // first; without one, the stream cannot go on.
                Some(segment) => segment.msgs.recv().unwrap_or_else(|_| {
                    Msg::Failed(io::Error::other("internal error while inflating"))
                }),
                None => Msg::End(self.len),
            };
            match msg {
                Msg::Data(chunk) => {
                    self.chunk = Arc::new(chunk);
                    self.current.set(Some(Arc::clone(&self.chunk)));
                }
                Msg::End(end) => {
                    if let Err(e) = self.next_segment(end) {
                        self.segments.clear();
                        self.ended = true;
                        return Err(e);
                    }
                }
                Msg::Failed(e) => {
                    self.segments.clear();
                    self.ended = true;
                    return Err(e);
                }
            }
        }
        Ok(&self.chunk[self.at..])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.chunk.len() - self.at);
        self.at += n;
        self.pos += n as u64;
    }
}

/// The chunk a [`Members`] is reading, for the WARC reader to hand a page
/// on as a part of it ([`Current::part`]) instead of copying it out.
#[derive(Clone, Default)]
pub(crate) struct Current(Arc<Mutex<Option<Arc<Vec<u8>>>>>);

impl Current {
    /// A handle on `chunk` alone.
    pub(crate) fn of(chunk: Arc<Vec<u8>>) -> Current {
        Current(Arc::new(Mutex::new(Some(chunk))))
    }

    fn set(&self, chunk: Option<Arc<Vec<u8>>>) {
        if let Ok(mut current) = self.0.lock() {
            *current = chunk;
        }
    }

    /// `bytes` as a part of the current chunk, if they are in it (the
    /// slice a reader over the chunk gave); else `None`.
    pub(crate) fn part(&self, bytes: &[u8]) -> Option<Bytes> {
        let current = self.0.lock().ok()?;
        let chunk = current.as_ref()?;
        // Only addresses are compared; the part is taken by index, so a
        // wrong answer here could only hand on wrong bytes, and it cannot
        // be wrong: a live slice inside the chunk's range is in the chunk.
        let start = (bytes.as_ptr() as usize).checked_sub(chunk.as_ptr() as usize)?;
        let end = start.checked_add(bytes.len())?;
        (end <= chunk.len()).then(|| Bytes::Shared(Arc::clone(chunk), start..end))
    }
}

impl Members {
    /// The handle on the chunk being read.
    pub(crate) fn current(&self) -> Current {
        self.current.clone()
    }
}

impl Seek for Members {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match to {
            SeekFrom::Current(0) => Ok(self.pos),
            _ => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a gzip stream is read forward only",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;
    use std::io::Write;

    /// A WARC record's bytes (only its start matters to [`Members`]).
    fn record(n: usize, body: &[u8]) -> Vec<u8> {
        let mut out = format!(
            "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:x:{n}>\r\n\
             Content-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        out.extend_from_slice(body);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    fn member(bytes: &[u8], level: Compression) -> Vec<u8> {
        let mut gz = GzEncoder::new(Vec::new(), level);
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    /// Letters that compress to about 60%, so that a few records make
    /// several segments.
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b'a' + (x % 26) as u8
            })
            .collect()
    }

    /// What `Members` gives for `bytes` (through a file), with its error
    /// kind if it failed, and its counters.
    fn through_members(name: &str, bytes: &[u8]) -> (Vec<u8>, Option<io::ErrorKind>, usize, usize) {
        let path =
            std::env::temp_dir().join(format!("htmltok-members-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let mut members = Members::open_from(&path, 0, 3).unwrap();
        let mut out = Vec::new();
        let error = members.read_to_end(&mut out).err().map(|e| e.kind());
        let _ = std::fs::remove_file(&path);
        (out, error, members.started, members.wrong)
    }

    /// What inflating `bytes` in order gives.
    fn in_order(bytes: &[u8]) -> (Vec<u8>, Option<io::ErrorKind>) {
        let mut out = Vec::new();
        let error = flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .err()
            .map(|e| e.kind());
        (out, error)
    }

    fn assert_same(name: &str, bytes: &[u8]) -> (usize, usize) {
        let (out, error, started, wrong) = through_members(name, bytes);
        let (expected, expected_error) = in_order(bytes);
        assert_eq!(error, expected_error, "{name}");
        assert!(
            out == expected,
            "{name}: {} bytes against {}",
            out.len(),
            expected.len()
        );
        (started, wrong)
    }

    /// Records of noise, one member each, `mib` MiB of them compressed.
    fn archive(mib: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut n = 0;
        while out.len() < mib << 20 {
            out.extend(member(
                &record(n, &noise(n as u64, 50_000)),
                Compression::default(),
            ));
            n += 1;
        }
        out
    }

    #[test]
    fn several_segments_inflate_as_in_order() {
        let (started, wrong) = assert_same("plain", &archive(4));
        assert!(started >= 4, "{started} segments");
        assert_eq!(wrong, 0);
    }

    /// A record holding gzip members of WARC records, stored as they are
    /// (level 0, as an incompressible `.warc.gz` payload would be), across
    /// the places where segments are guessed: the guesses land inside it,
    /// are found wrong, and the output is still what inflating in order
    /// gives.
    #[test]
    fn a_wrong_guess_is_dropped() {
        let mut inner = Vec::new();
        for n in 0..40_000 {
            inner.extend(member(&record(n, b"<p>inner"), Compression::default()));
        }
        assert!(inner.len() > 2 << 20);
        let mut bytes = archive(1);
        bytes.extend(member(&record(1, &inner), Compression::none()));
        bytes.extend(archive(2));
        let (started, wrong) = assert_same("stored", &bytes);
        assert!(wrong >= 1, "{started} segments, {wrong} dropped");
    }

    /// A member that outgrows its chunk moves to a larger one (3 MiB);
    /// one larger than the largest chunk is split (5 MiB); either way
    /// between records of their own.
    #[test]
    fn long_members() {
        for (n, len) in [(3, 3 << 20), (5, 5 << 20)] {
            let mut bytes = archive(1);
            bytes.extend(member(&record(n, &noise(7, len)), Compression::default()));
            bytes.extend(archive(1));
            assert_same("long", &bytes);
            let alone = member(&record(n, &noise(7, len)), Compression::default());
            assert_same("long alone", &alone);
        }
    }

    #[test]
    fn truncated_garbage_and_empty() {
        let bytes = archive(3);
        for cut in [bytes.len() - 10, bytes.len() / 2 + 77, 5] {
            assert_same("cut", &bytes[..cut]);
        }
        let mut garbage = archive(2);
        garbage.extend_from_slice(b"not gzip at all");
        assert_same("garbage", &garbage);
        assert_same("empty", b"");
    }
}
