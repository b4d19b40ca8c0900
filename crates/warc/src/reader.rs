//! Reading an archive in order, record by record.
//!
//! Two layers: [`Stream`] is the archive's decompressed bytes with the
//! offset of the unit (gzip member, frame) each byte came from, and
//! [`Reader`] parses records out of it. The parser is lenient where real
//! writers are sloppy (bare LF line ends, folded header lines, blank lines
//! between records, any WARC version) and strict where a wrong guess would
//! lose pages: it never skips bytes without a [`Problem`] saying so, and
//! after a broken record it looks for the next record start at a line
//! start or a unit start.

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;

use crate::bytes::{page_buffer, Bytes};
use crate::http;
use crate::source::Source;
use crate::units::{Compression, Units};
use crate::{Event, Page, Problem, ProblemKind, RecordInfo, Skip, Skipped, Truncated};

/// WARC or ARC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// WARC, any version from 0.17 to 1.1.
    Warc,
    /// ARC, version 1 or 2 (the Internet Archive's format before WARC).
    Arc,
}

/// What an archive is: its kind and how it is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// WARC or ARC.
    pub kind: Kind,
    /// How it is compressed.
    pub compression: Compression,
}

/// How much of an archive's start is read to tell what it is.
const PROBE: usize = 64 << 10;

/// What the archive `source` is, from its content; `None` when it is not
/// one (a page, or anything else).
///
/// ```
/// use htmltok_warc::{detect, Compression, Format, Kind, Source};
/// let warc = Source::from(b"WARC/1.1\r\nWARC-Type: warcinfo\r\n".to_vec());
/// assert_eq!(detect(&warc).unwrap(), Some(Format { kind: Kind::Warc, compression: Compression::None }));
/// let page = Source::from(b"<!doctype html>".to_vec());
/// assert_eq!(detect(&page).unwrap(), None);
/// ```
pub fn detect(source: &Source) -> io::Result<Option<Format>> {
    let mut input = source.open_at(0)?;
    let mut head = Vec::with_capacity(PROBE);
    io::Read::read_to_end(&mut io::Read::take(&mut input, PROBE as u64), &mut head)?;
    Ok(detect_head(&head))
}

/// [`detect`] for bytes in memory (only their start is read), without
/// making them a [`Source`] first: for a caller that keeps the bytes as
/// they are when they are not an archive.
///
/// ```
/// use htmltok_warc::{detect_bytes, Compression, Format, Kind};
/// let warc = b"WARC/1.1\r\nWARC-Type: warcinfo\r\n";
/// assert_eq!(detect_bytes(warc), Some(Format { kind: Kind::Warc, compression: Compression::None }));
/// assert_eq!(detect_bytes(b"<!doctype html>"), None);
/// ```
pub fn detect_bytes(bytes: &[u8]) -> Option<Format> {
    detect_head(&bytes[..bytes.len().min(PROBE)])
}

/// [`detect`] on an archive's first bytes (at most `PROBE` of them).
fn detect_head(head: &[u8]) -> Option<Format> {
    let compression = Compression::of(head);
    let content = match compression {
        Compression::None => head.to_vec(),
        Compression::Gzip => crate::gzip::member_head(head, 16)?,
        Compression::Lz4 => {
            let mut out = Vec::new();
            let mut decoder = lz4_flex::frame::FrameDecoder::new(head);
            let _ = io::Read::read_to_end(&mut io::Read::take(&mut decoder, 16), &mut out);
            out
        }
        Compression::Zstd => {
            if head.starts_with(&crate::frames::ZSTD_DICTIONARY_MAGIC) {
                // The warc-zstd format's own mark.
                return Some(Format {
                    kind: Kind::Warc,
                    compression,
                });
            }
            let mut out = Vec::new();
            let decoded = std::panic::catch_unwind(|| {
                let decoder = ruzstd::decoding::StreamingDecoder::new(head).ok()?;
                let _ = io::Read::read_to_end(&mut io::Read::take(decoder, 16), &mut out);
                Some(out)
            });
            decoded.ok().flatten()?
        }
    };
    let kind = if starts_warc(&content) {
        Kind::Warc
    } else if content.starts_with(b"filedesc://") {
        Kind::Arc
    } else {
        return None;
    };
    Some(Format { kind, compression })
}

/// Whether `bytes` start a WARC record: `WARC/` and a digit.
pub(crate) fn starts_warc(bytes: &[u8]) -> bool {
    bytes.starts_with(b"WARC/") && bytes.get(5).is_some_and(u8::is_ascii_digit)
}

/// Whether `bytes` start an ARC record: a header line of five or ten
/// fields whose last is a length.
fn starts_arc(bytes: &[u8]) -> bool {
    match memchr::memchr(b'\n', bytes) {
        Some(end) => arc_header(&bytes[..end]).is_some(),
        // Only the line's start is there (a member's first bytes): a
        // URL's scheme.
        None => {
            let scheme = bytes
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            scheme > 0 && bytes.get(scheme) == Some(&b':')
        }
    }
}

/// The test of whether bytes start a record of `kind`.
pub(crate) fn record_start(kind: Kind) -> fn(&[u8]) -> bool {
    match kind {
        Kind::Warc => starts_warc,
        Kind::Arc => starts_arc,
    }
}

/// How a reader reads.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The largest page read whole (decoded): a larger one is cut there
    /// and marked [`Truncated::TooLarge`]. It bounds the reader's memory.
    pub max_page: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_page: 256 << 20,
        }
    }
}

/// The largest WARC header block (or ARC header line) read: a longer one
/// is broken.
const HEADER_LIMIT: usize = 1 << 20;

/// How much of a record's content is looked at to tell whether it is a
/// page before it is read or skipped.
const HEAD_PROBE: usize = 64 << 10;

/// The decompressed bytes of an archive, with the unit each came from.
pub(crate) struct Stream {
    /// Bytes read and not yet consumed start at `pos`.
    buf: Buf,
    pos: usize,
    /// Where each unit's bytes start in `buf`: (index, the unit's offset,
    /// the unit's bytes before that index). Only the last entry at or
    /// before `pos` matters; older ones are dropped as the buffer moves.
    units_at: VecDeque<(usize, u64, u64)>,
    units: Option<Units>,
    /// The units have ended (or there are none: a member in memory).
    ended: bool,
    /// The archive ends inside the unit at this offset; cleared once a
    /// problem or a page has said so.
    pub(crate) clipped: Option<u64>,
    plain: bool,
    /// The bytes the last [`Stream::line`] consumed, its line end too.
    line_consumed: usize,
    /// While a record's content is consumed: where in it another record
    /// seems to start.
    watch: Option<Watch>,
}

/// Another record's start seen inside a record's content: a record start
/// at a unit's start in a compressed archive, a WARC version line
/// anywhere in a plain one.
#[derive(Default)]
struct Watch {
    /// Content bytes consumed so far.
    consumed: u64,
    /// The first: its index in the content, its offset in the archive.
    first: Option<(u64, u64)>,
}

enum Buf {
    /// Refilled from the units.
    Own(Vec<u8>),
    /// One member's inflated bytes, shared with the pages found in it.
    Shared(Arc<Vec<u8>>),
}

impl Buf {
    fn bytes(&self) -> &[u8] {
        match self {
            Buf::Own(v) => v,
            Buf::Shared(v) => v,
        }
    }
}

/// Why the stream could not go on.
pub(crate) struct UnitError {
    /// The unit that failed.
    offset: u64,
    error: io::Error,
    /// It failed before handing on any of its bytes: the record it held
    /// is lost ([`Units::lost_a_record`]).
    lost_a_record: bool,
}

/// What [`Reader::skip_to_record`] skipped.
struct SkippedBytes {
    bytes: u64,
    /// They were all zero bytes (or none).
    zeros: bool,
    /// Where reading goes on, in words.
    next: String,
}

impl Stream {
    fn over_units(units: Units) -> Stream {
        Stream {
            plain: units.compression() == Compression::None,
            buf: Buf::Own(Vec::with_capacity(HEAD_PROBE * 2)),
            pos: 0,
            units_at: VecDeque::new(),
            units: Some(units),
            ended: false,
            clipped: None,
            line_consumed: 0,
            watch: None,
        }
    }

    /// The records of one gzip member's inflated `bytes`, at `offset`.
    pub(crate) fn over_member(bytes: Arc<Vec<u8>>, offset: u64) -> Stream {
        Stream {
            plain: false,
            buf: Buf::Shared(bytes),
            pos: 0,
            units_at: VecDeque::from([(0, offset, 0)]),
            units: None,
            ended: true,
            clipped: None,
            line_consumed: 0,
            watch: None,
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf.bytes()[self.pos..]
    }

    /// Makes at least `n` bytes available, unless the stream ends first;
    /// returns what is available.
    fn fill(&mut self, n: usize) -> Result<&[u8], UnitError> {
        while self.available().len() < n && !self.ended {
            self.read_more()?;
        }
        Ok(self.available())
    }

    /// Reads more bytes from the current unit, or starts the next.
    fn read_more(&mut self) -> Result<(), UnitError> {
        let Buf::Own(buf) = &mut self.buf else {
            self.ended = true;
            return Ok(());
        };
        let Some(units) = self.units.as_mut() else {
            self.ended = true;
            return Ok(());
        };
        // Drop what is consumed once it is most of the buffer.
        if self.pos > 0 && self.pos >= buf.len() / 2 {
            let dropped = self.pos;
            buf.drain(..dropped);
            for entry in self.units_at.iter_mut() {
                if entry.0 < dropped {
                    entry.2 += (dropped - entry.0) as u64;
                    entry.0 = 0;
                } else {
                    entry.0 -= dropped;
                }
            }
            // Of the entries now at the buffer's start, only the last
            // says which unit its first byte is in.
            while self.units_at.len() > 1 && self.units_at[1].0 == 0 {
                self.units_at.pop_front();
            }
            self.pos = 0;
        }
        let unit = units.unit_start();
        let before = buf.len();
        let read = match units.read(buf) {
            Ok(read) => read,
            // The archive ends inside this unit: what it gave is all
            // there is (a clipped record is read as far as it goes).
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                self.ended = true;
                self.clipped = Some(unit);
                return Ok(());
            }
            Err(error) => {
                return Err(UnitError {
                    offset: unit,
                    error,
                    lost_a_record: units.lost_a_record(),
                })
            }
        };
        if read > 0 {
            if self.units_at.is_empty() {
                self.units_at.push_back((before, unit, 0));
            }
            return Ok(());
        }
        match units.next_unit() {
            Ok(true) => {
                let start = units.unit_start();
                self.units_at.push_back((buf.len(), start, 0));
                Ok(())
            }
            Ok(false) => {
                self.ended = true;
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                self.ended = true;
                self.clipped = Some(units.unit_start());
                Ok(())
            }
            Err(error) => Err(UnitError {
                offset: units.unit_start(),
                error,
                lost_a_record: units.lost_a_record(),
            }),
        }
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.buf.bytes().len() - self.pos);
        if self.watch.as_ref().is_some_and(|w| w.first.is_none()) {
            self.watch_over(n);
        }
        if let Some(watch) = &mut self.watch {
            watch.consumed += n as u64;
        }
        self.pos += n;
    }

    /// Looks for another record's start in the next `n` bytes, which a
    /// record's content is about to consume.
    fn watch_over(&mut self, n: usize) {
        let bytes = self.buf.bytes();
        let (start, end) = (self.pos, self.pos + n);
        let found = if self.plain {
            // A version line's bytes after the last consumed one are
            // looked at when they are there.
            let seen = (end + 24).min(bytes.len());
            memchr::memmem::find_iter(&bytes[start..seen], b"WARC/")
                .map(|i| start + i)
                .take_while(|&i| i < end)
                .find(|&i| is_version_line(&bytes[i..seen]))
        } else {
            self.units_at
                .iter()
                .map(|&(index, _, _)| index)
                .filter(|&index| index > start && index < end)
                .find(|&index| starts_warc(&bytes[index..]))
        };
        if let (Some(i), Some(watch)) = (found, self.watch.as_ref()) {
            let first = (watch.consumed + (i - start) as u64, self.offset_at(i));
            if let Some(watch) = &mut self.watch {
                watch.first = Some(first);
            }
        }
    }

    /// The unit of the byte at `at`: its entry.
    fn unit_at(&self, at: usize) -> (usize, u64, u64) {
        let mut here = (0, 0, 0);
        for &entry in &self.units_at {
            if entry.0 <= at {
                here = entry;
            } else {
                break;
            }
        }
        here
    }

    /// The offset a record starting at the next byte has: its unit's, or
    /// its own in a plain archive.
    fn offset_here(&self) -> u64 {
        self.offset_at(self.pos)
    }

    /// The offset a record starting at the buffer's byte `at` has.
    fn offset_at(&self, at: usize) -> u64 {
        let (index, unit, before) = self.unit_at(at);
        if self.plain {
            unit + before + (at - index) as u64
        } else {
            unit
        }
    }

    /// What a unit is called in a message.
    fn unit_name(&self) -> &'static str {
        match self.units.as_ref().map(Units::compression) {
            Some(Compression::Gzip) | None => "gzip member",
            Some(Compression::Lz4) => "LZ4 frame",
            Some(Compression::Zstd) => "Zstandard frame",
            Some(Compression::None) => "stretch of bytes",
        }
    }

    /// How many of the available bytes come before the next unit's
    /// first.
    fn before_next_unit(&self) -> usize {
        self.units_at
            .iter()
            .find(|&&(index, _, _)| index > self.pos)
            .map_or(self.available().len(), |&(index, _, _)| index - self.pos)
    }

    /// Whether a unit (gzip member, frame) starts at the next byte, in a
    /// compressed stream.
    fn at_unit_start(&self) -> bool {
        // An entry whose unit had bytes before its index is no start (the
        // buffer's first byte, after consumed bytes were dropped).
        !self.plain
            && self
                .units_at
                .iter()
                .any(|&(index, _, before)| index == self.pos && before == 0)
    }

    /// Consumes the next line, ending with LF or at the end of the stream,
    /// onto `out` (its line end dropped); `false` when there was none. A
    /// line longer than `limit` is an error.
    fn line(&mut self, out: &mut Vec<u8>, limit: usize) -> Result<LineEnd, UnitError> {
        let start = out.len();
        self.line_consumed = 0;
        loop {
            let available = self.fill(1)?;
            if available.is_empty() {
                return Ok(if out.len() > start {
                    LineEnd::Eof
                } else {
                    LineEnd::None
                });
            }
            let (n, found) = match memchr::memchr(b'\n', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let take = n.min(limit.saturating_sub(out.len() - start) + 1);
            out.extend_from_slice(&available[..take]);
            self.consume(take);
            self.line_consumed += take;
            if out.len() - start > limit {
                return Ok(LineEnd::TooLong);
            }
            if found && take == n {
                out.pop();
                if out.last() == Some(&b'\r') {
                    out.pop();
                }
                return Ok(LineEnd::Lf);
            }
        }
    }

    /// Skips `n` bytes; returns how many were there.
    fn skip(&mut self, n: u64) -> Result<u64, UnitError> {
        let mut left = n;
        while left > 0 {
            let available = self.fill(1)?.len();
            if available == 0 {
                break;
            }
            let k = usize::try_from(left).map_or(available, |l| l.min(available));
            self.consume(k);
            left -= k as u64;
        }
        Ok(n - left)
    }

    /// The next `n` bytes as a page's bytes (at most `limit` kept, the
    /// rest skipped); the count of bytes that were there.
    fn take(&mut self, n: u64, limit: usize) -> Result<(Bytes, u64), UnitError> {
        let keep = usize::try_from(n).map_or(limit, |n| n.min(limit));
        if let Buf::Shared(shared) = &self.buf {
            let have = (shared.len() - self.pos).min(keep);
            let bytes = Bytes::shared(Arc::clone(shared), self.pos..self.pos + have);
            self.consume(have);
            let skipped = self.skip(n - have as u64)?;
            return Ok((bytes, have as u64 + skipped));
        }
        let mut out = page_buffer(keep.min(HEAD_PROBE * 16));
        while out.len() < keep {
            let available = self.fill(1)?;
            if available.is_empty() {
                break;
            }
            let k = available.len().min(keep - out.len());
            out.extend_from_slice(&available[..k]);
            self.consume(k);
        }
        let have = out.len() as u64;
        let skipped = self.skip(n - have)?;
        Ok((Bytes::from(out), have + skipped))
    }

    /// After a unit failed: drops what is buffered and goes on at the next
    /// unit that starts a record (`None`: there is none).
    fn resync(
        &mut self,
        source: &Source,
        starts_record: fn(&[u8]) -> bool,
    ) -> io::Result<Option<u64>> {
        if let Buf::Own(buf) = &mut self.buf {
            buf.clear();
        }
        self.pos = 0;
        self.units_at.clear();
        let Some(units) = self.units.as_mut() else {
            self.ended = true;
            return Ok(None);
        };
        let next = units.resync(source, starts_record)?;
        match next {
            Some(_) => match units.next_unit() {
                Ok(true) => self.units_at.push_back((0, units.unit_start(), 0)),
                _ => self.ended = true,
            },
            None => self.ended = true,
        }
        Ok(next)
    }
}

/// How a line ended.
#[derive(PartialEq, Eq)]
enum LineEnd {
    Lf,
    /// At the end of the stream, after some bytes.
    Eof,
    /// No line: the stream had ended.
    None,
    TooLong,
}

/// An archive's records, in order, as [`Event`]s.
///
/// ```
/// use htmltok_warc::{Event, Reader, Skip, Source};
/// let archive = b"WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n".to_vec();
/// let events: Vec<Event> = Reader::new(Source::from(archive)).unwrap().collect();
/// assert!(matches!(&events[..], [Event::Skipped(s)] if s.reason == Skip::NotAPage));
/// ```
pub struct Reader {
    source: Source,
    kind: Kind,
    stream: Stream,
    options: Options,
    /// Records read so far.
    records: u64,
    /// The last record's target URI (for a problem after it).
    last_uri: Option<String>,
    done: bool,
    /// A record whose version line was read at the end of another
    /// record's header line (that header was cut short): its offset.
    pending: Option<u64>,
    /// Events that follow the last one, in order.
    queued: VecDeque<Event>,
    /// Where the furthest return to a record seen inside another's
    /// content had read to: no return goes before it again, so nothing
    /// is read more than twice.
    horizon: u64,
    /// Scratch for header lines.
    line: Vec<u8>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("source", &self.source)
            .field("kind", &self.kind)
            .field("records", &self.records)
            .finish()
    }
}

/// Why an archive could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// The bytes are no archive this crate reads.
    NotAnArchive,
    /// Reading failed.
    Io(io::Error),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::NotAnArchive => write!(f, "not a WARC or ARC archive"),
            OpenError::Io(e) => write!(f, "cannot read: {e}"),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<io::Error> for OpenError {
    fn from(e: io::Error) -> OpenError {
        OpenError::Io(e)
    }
}

impl Reader {
    /// Reads the archive `source`, telling its format from its content.
    pub fn new(source: Source) -> Result<Reader, OpenError> {
        Reader::with_options(source, Options::default())
    }

    /// [`Reader::new`] with `options`.
    pub fn with_options(source: Source, options: Options) -> Result<Reader, OpenError> {
        let format = detect(&source)?.ok_or(OpenError::NotAnArchive)?;
        Ok(Reader::from_offset(source, format, 0, 0, options)?)
    }

    /// Reads `source`, an archive of `format`, from `offset` (a unit
    /// start), numbering its records after `records` earlier ones.
    pub fn from_offset(
        source: Source,
        format: Format,
        offset: u64,
        records: u64,
        options: Options,
    ) -> io::Result<Reader> {
        let units = Units::open(&source, offset, format.compression)?;
        Ok(Reader {
            stream: Stream::over_units(units),
            source,
            kind: format.kind,
            options,
            records,
            last_uri: None,
            done: false,
            pending: None,
            queued: VecDeque::new(),
            horizon: 0,
            line: Vec::new(),
        })
    }

    /// The records of one gzip member's inflated bytes (for the parallel
    /// reader), numbered from 1.
    pub(crate) fn over_member(bytes: Arc<Vec<u8>>, offset: u64, kind: Kind) -> Reader {
        Reader {
            stream: Stream::over_member(bytes, offset),
            source: Source::Memory(Arc::from(&[][..])),
            kind,
            options: Options::default(),
            records: 0,
            last_uri: None,
            done: false,
            pending: None,
            queued: VecDeque::new(),
            horizon: 0,
            line: Vec::new(),
        }
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Whether the last event left the stream at a record boundary with
    /// nothing after it (for the parallel reader: the member was whole
    /// records).
    pub(crate) fn ended_cleanly(&mut self) -> bool {
        matches!(self.stream.fill(1), Ok(b) if b.is_empty())
    }

    fn starts_record(&self) -> fn(&[u8]) -> bool {
        record_start(self.kind)
    }

    /// A problem in the record whose header was read last.
    fn problem(&self, offset: u64, kind: ProblemKind, what: String) -> Event {
        Event::Problem(Problem {
            record: (self.records > 0).then_some(self.records),
            offset,
            target_uri: self.last_uri.clone(),
            kind,
            what,
        })
    }

    /// A problem between records (or in a record whose header could not
    /// be read): named by its offset and the record before it.
    fn problem_between(&self, offset: u64, kind: ProblemKind, what: String) -> Event {
        let what = match self.records {
            0 => format!("{what} (before the first record)"),
            n => format!("{what} (after record {n})"),
        };
        Event::Problem(Problem {
            record: None,
            offset,
            target_uri: None,
            kind,
            what,
        })
    }

    /// The event for a unit that failed, after which reading resumes at
    /// the next unit that starts a record; `in_record` when it failed in
    /// a record whose header was read (or begun). A unit that failed
    /// between records before any of its bytes were read took a record
    /// with it: that record counts, so that the records after it are
    /// numbered by their places in the archive, and the problem names it
    /// (it stays a problem between records: no header of it was read).
    fn unit_failed(&mut self, e: UnitError, what: &str, in_record: bool) -> Event {
        let lost = !in_record && e.lost_a_record;
        // The lost record is named by its number, which it takes below.
        let what = if lost {
            format!("record {}", self.records + 1)
        } else {
            what.to_owned()
        };
        let cause = match e.error.kind() {
            io::ErrorKind::UnexpectedEof => "the archive ends inside it".to_owned(),
            _ => e.error.to_string(),
        };
        let resumed = match self.stream.resync(&self.source, self.starts_record()) {
            Ok(Some(at)) => format!("reading resumed at offset {at}"),
            Ok(None) => "no record after it: the rest of the archive is skipped".to_owned(),
            Err(e) => format!("the rest of the archive is skipped ({e})"),
        };
        let kind = match e.error.kind() {
            io::ErrorKind::UnexpectedEof => ProblemKind::Truncated,
            _ => ProblemKind::Broken,
        };
        let unit = self.stream.unit_name();
        let what = format!(
            "{what} in a broken {unit} at offset {} ({cause}); {resumed}",
            e.offset
        );
        let event = if in_record {
            self.problem(e.offset, kind, what)
        } else if lost {
            self.records += 1;
            Event::Problem(Problem {
                record: None,
                offset: e.offset,
                target_uri: None,
                kind,
                what,
            })
        } else {
            self.problem_between(e.offset, kind, what)
        };
        if self.stream.ended && self.stream.available().is_empty() {
            self.done = true;
        }
        event
    }

    /// The next event.
    fn step(&mut self) -> Option<Event> {
        if let Some(event) = self.queued.pop_front() {
            return Some(event);
        }
        if self.done {
            return None;
        }
        if let Some(offset) = self.pending.take() {
            return Some(self.warc_record(offset, true));
        }
        {
            // Blank lines between records (the two CRLFs that end one,
            // and more from sloppier writers).
            loop {
                match self.stream.fill(1) {
                    Err(e) => return Some(self.unit_failed(e, "bytes after a record", false)),
                    Ok([]) => {
                        self.done = true;
                        // A unit cut by the archive's end that gave no
                        // record (or only blank lines): said here.
                        return self.stream.clipped.take().map(|at| {
                            let unit = self.stream.unit_name();
                            self.problem_between(
                                at,
                                ProblemKind::Truncated,
                                format!("the archive ends inside the {unit} at offset {at}"),
                            )
                        });
                    }
                    Ok(bytes) => {
                        let blank = bytes
                            .iter()
                            .position(|b| !matches!(b, b'\r' | b'\n'))
                            .unwrap_or(bytes.len());
                        if blank == 0 {
                            break;
                        }
                        self.stream.consume(blank);
                    }
                }
            }
            let offset = self.stream.offset_here();
            let probe = match self.stream.fill(12) {
                Ok(probe) => probe,
                Err(e) => return Some(self.unit_failed(e, "a record", false)),
            };
            let starts = match self.kind {
                Kind::Warc => starts_warc(probe),
                // Any other line is read as a header, to say what is wrong
                // with it; a NUL, which never starts one (it starts with a
                // URL), is padding or a crashed writer's zeros.
                Kind::Arc => probe.first() != Some(&0),
            };
            if !starts {
                return self.not_a_record(offset);
            }
            Some(match self.kind {
                Kind::Warc => self.warc_record(offset, false),
                Kind::Arc => self.arc_record(offset),
            })
        }
    }

    /// Bytes where a record should start: skipped to the next line (or
    /// unit) that starts one, with a problem saying so. Zero bytes to the
    /// end of a plain archive are none: padding to a block (a tar file,
    /// a preallocating writer), the archive's end.
    fn not_a_record(&mut self, offset: u64) -> Option<Event> {
        match self.skip_to_record(false) {
            Ok(skip) if skip.zeros && self.stream.plain && self.stream.available().is_empty() => {
                self.done = true;
                None
            }
            Ok(skip) => Some(self.problem_between(
                offset,
                ProblemKind::Broken,
                format!(
                    "{} bytes that are not a record; skipped to {}",
                    skip.bytes, skip.next
                ),
            )),
            Err(event) => Some(*event),
        }
    }

    /// [`Reader::not_a_record`] after `consumed` bytes were read at
    /// `offset`: a whole line when `line_read` (a record may start right
    /// after it).
    fn not_a_record_after(&mut self, offset: u64, consumed: u64, line_read: bool) -> Event {
        match self.skip_to_record(line_read) {
            Ok(skip) => self.problem_between(
                offset,
                ProblemKind::Broken,
                format!(
                    "{} bytes that are not a record; skipped to {}",
                    consumed + skip.bytes,
                    skip.next
                ),
            ),
            Err(event) => *event,
        }
    }

    /// A record whose header cannot be read (`what` is wrong with it):
    /// skipped to the next record, one problem.
    fn unreadable_header(&mut self, offset: u64, what: &str) -> Event {
        match self.skip_to_record(true) {
            Ok(skip) => self.problem(
                offset,
                ProblemKind::Broken,
                format!(
                    "{what}; the record is skipped ({} more bytes, to {})",
                    skip.bytes, skip.next
                ),
            ),
            Err(event) => *event,
        }
    }

    /// Skips to the next line (or unit) that starts a record (`here`:
    /// unless the stream is at one already): the bytes skipped, and where
    /// reading goes on, in words; or the event of a unit that failed.
    fn skip_to_record(&mut self, here: bool) -> Result<SkippedBytes, Box<Event>> {
        let mut skipped: u64 = 0;
        let mut zeros = true;
        let starts_record = self.starts_record();
        let warc = self.kind == Kind::Warc;
        let at_record = match self.stream.fill(64) {
            Err(e) => {
                return Err(Box::new(self.unit_failed(
                    e,
                    "bytes that are not a record",
                    false,
                )))
            }
            Ok(next) => next.is_empty() || starts_record(next),
        };
        if here && at_record {
            return Ok(SkippedBytes {
                bytes: 0,
                zeros,
                next: self.next_record_words(),
            });
        }
        loop {
            // Up to the next line start, or the next unit's start, or a
            // WARC version line inside the line (bytes without a line end
            // right before a record: a crashed writer's zeros, a record
            // longer than its Content-Length).
            let step = match self.stream.fill(1) {
                Err(e) => {
                    return Err(Box::new(self.unit_failed(
                        e,
                        "bytes that are not a record",
                        false,
                    )))
                }
                Ok([]) => break,
                Ok(_) => {
                    let next_unit = self.stream.before_next_unit();
                    let available = self.stream.available();
                    let line = memchr::memchr(b'\n', available).map_or(available.len(), |i| i + 1);
                    let line = line.min(next_unit);
                    let version = || {
                        memchr::memmem::find_iter(&available[..line], b"WARC/")
                            .find(|&i| i > 0 && is_version_line(&available[i..]))
                    };
                    // A run of zeros by itself, so that a record right
                    // after it is found: a crashed writer's zeros need no
                    // line end after them.
                    let zeros = available[..line].iter().take_while(|&&b| b == 0).count();
                    match warc.then(version).flatten() {
                        Some(i) => i,
                        None if zeros > 0 => zeros,
                        None => line.max(1),
                    }
                }
            };
            zeros = zeros && self.stream.available()[..step].iter().all(|&b| b == 0);
            self.stream.consume(step);
            skipped += step as u64;
            match self.stream.fill(64) {
                Err(e) => {
                    return Err(Box::new(self.unit_failed(
                        e,
                        "bytes that are not a record",
                        false,
                    )))
                }
                Ok(next) if next.is_empty() || starts_record(next) => break,
                Ok(_) => {}
            }
        }
        Ok(SkippedBytes {
            bytes: skipped,
            zeros,
            next: self.next_record_words(),
        })
    }

    /// Where reading goes on, in words.
    fn next_record_words(&self) -> String {
        if self.stream.available().is_empty() {
            "the end of the archive".to_owned()
        } else {
            format!("the next record at offset {}", self.stream.offset_here())
        }
    }

    /// The WARC record at the stream's position (at its fields, when
    /// `version_read`: its version line ended the line before).
    fn warc_record(&mut self, offset: u64, version_read: bool) -> Event {
        // The header block: the version line, fields, an empty line.
        self.last_uri = None;
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut size = 0;
        let mut first = !version_read;
        loop {
            let line_offset = self.stream.offset_here();
            self.line.clear();
            let end = match self.stream.line(&mut self.line, HEADER_LIMIT) {
                Ok(end) => end,
                Err(e) => {
                    // The record begun counts, as one the archive's end
                    // cuts in its header does.
                    self.records += 1;
                    self.last_uri = None;
                    return self.unit_failed(e, "a WARC header", true);
                }
            };
            size += self.line.len() + 2;
            match end {
                LineEnd::Lf if first => {
                    first = false;
                    continue;
                }
                LineEnd::Lf if self.line.is_empty() => break,
                LineEnd::Lf => {
                    if let Some(at) = version_line_at(&self.line) {
                        // Another record starts inside this header: a
                        // writer that died here appended it on restart.
                        // This record is lost; that one is read next.
                        let next = if self.stream.plain {
                            line_offset + at as u64
                        } else {
                            line_offset
                        };
                        self.records += 1;
                        self.pending = Some(next);
                        return self.problem(
                            offset,
                            ProblemKind::Broken,
                            format!(
                                "a WARC header cut short by the start of another record at offset {next}; the record is skipped"
                            ),
                        );
                    }
                }
                LineEnd::TooLong => {
                    self.records += 1;
                    return self.unreadable_header(offset, "a WARC header line longer than 1 MiB");
                }
                LineEnd::Eof | LineEnd::None => {
                    self.records += 1;
                    self.done = true;
                    return self.problem(
                        offset,
                        ProblemKind::Truncated,
                        "the archive ends inside a WARC header".into(),
                    );
                }
            }
            if size > HEADER_LIMIT {
                self.records += 1;
                return self.unreadable_header(offset, "a WARC header larger than 1 MiB");
            }
            add_field(&mut fields, &self.line);
        }
        self.records += 1;
        let get = |name: &str| {
            fields
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        let target_uri = get("WARC-Target-URI").map(|uri| {
            let uri = uri.trim();
            uri.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .unwrap_or(uri)
                .to_owned()
        });
        let info = RecordInfo {
            number: self.records,
            offset,
            kind: get("WARC-Type").unwrap_or("").to_ascii_lowercase(),
            target_uri,
            record_id: get("WARC-Record-ID").map(str::to_owned),
            date: get("WARC-Date").map(str::to_owned),
        };
        self.last_uri.clone_from(&info.target_uri);
        let length = get("Content-Length").and_then(|v| v.trim().parse::<u64>().ok());
        let Some(length) = length else {
            return self.unreadable_header(offset, "a WARC record without a valid Content-Length");
        };
        let declared = get("WARC-Truncated").map(|why| Truncated::Declared(why.trim().to_owned()));
        let record_type = get("Content-Type").map(str::to_owned);
        match info.kind.as_str() {
            "response" => self.content(info, length, Content::Http(record_type), declared),
            "resource" => self.content(info, length, Content::Resource(record_type), declared),
            "revisit" => self.skip_content(info, length, Skip::Revisit),
            _ => self.skip_content(info, length, Skip::NotAPage),
        }
    }

    /// The ARC record at the stream's position.
    fn arc_record(&mut self, offset: u64) -> Event {
        self.last_uri = None;
        self.line.clear();
        let end = match self.stream.line(&mut self.line, HEADER_LIMIT) {
            Ok(end) => end,
            Err(e) => return self.unit_failed(e, "an ARC header", false),
        };
        let header = (end != LineEnd::TooLong)
            .then(|| arc_header(&self.line))
            .flatten();
        let Some(header) = header else {
            if end == LineEnd::Eof {
                self.done = true;
                self.records += 1;
                return self.problem(
                    offset,
                    ProblemKind::Truncated,
                    "the archive ends inside an ARC header".into(),
                );
            }
            // A line that is no header: the next may be one.
            let consumed = self.stream.line_consumed as u64;
            return self.not_a_record_after(offset, consumed, end == LineEnd::Lf);
        };
        self.records += 1;
        let info = RecordInfo {
            number: self.records,
            offset,
            kind: "arc".into(),
            target_uri: Some(header.url.clone()),
            record_id: None,
            date: header.date,
        };
        self.last_uri.clone_from(&info.target_uri);
        let url = header.url.to_ascii_lowercase();
        if url.starts_with("filedesc:") {
            self.skip_content(info, header.length, Skip::NotAPage)
        } else if url.starts_with("http:") || url.starts_with("https:") {
            self.content(
                info,
                header.length,
                Content::Http(header.content_type),
                None,
            )
        } else {
            self.content(
                info,
                header.length,
                Content::Resource(header.content_type),
                None,
            )
        }
    }

    /// Starts watching a record's content for another record's start,
    /// when the reader can go back to one (a WARC archive, plain or
    /// gzip, read from its source).
    fn watch(&mut self) {
        let reopens = self.kind == Kind::Warc
            && self.stream.units.as_ref().is_some_and(|units| {
                matches!(units.compression(), Compression::None | Compression::Gzip)
            });
        self.stream.watch = reopens.then(Watch::default);
    }

    /// Whether the stream is at a record's end: blank lines, then another
    /// record or the archive's end.
    fn ends_here(&mut self) -> bool {
        match self.stream.fill(64) {
            Ok(bytes) => match bytes.iter().position(|b| !matches!(b, b'\r' | b'\n')) {
                None => true,
                Some(i) => starts_warc(&bytes[i..]),
            },
            Err(e) => {
                let problem = self.unit_failed(e, "bytes after a record", false);
                self.queued.push_back(problem);
                true
            }
        }
    }

    /// After a record's content, `read` of its `length` bytes: when it
    /// ran into another record (its end is not where the archive or the
    /// next record is, and another record started inside it), reading
    /// goes back to that record. The index in the content where it
    /// starts, and the problem that says so.
    fn overran(
        &mut self,
        watch: Option<Watch>,
        read: u64,
        length: u64,
        offset: u64,
    ) -> Option<(u64, Event)> {
        let (index, at) = watch?.first?;
        if at < self.horizon || (read == length && self.ends_here()) {
            return None;
        }
        let compression = self.stream.units.as_ref()?.compression();
        let units = Units::open(&self.source, at, compression).ok()?;
        self.horizon = self.stream.offset_here().max(at);
        self.stream = Stream::over_units(units);
        self.done = false;
        let what = format!(
            "its Content-Length ({length}) runs into another record, at offset {at}: the record is read to there, and reading goes on at that record"
        );
        Some((index, self.problem(offset, ProblemKind::Broken, what)))
    }

    /// After a WARC record's whole content (its `length` declared bytes,
    /// at `offset`): whether the record goes on past them, its
    /// `Content-Length` too short. It does when the bytes right after
    /// the content (in its unit, when compressed) are there and are
    /// neither the blank lines that end a record (two line ends: what
    /// follows them is between records) nor another record. Those bytes
    /// are then skipped to the next record, and the problem that says so
    /// is returned.
    fn goes_on(&mut self, length: u64, offset: u64) -> Option<Event> {
        if self.kind != Kind::Warc || !self.queued.is_empty() {
            return None;
        }
        if let Err(e) = self.stream.fill(64) {
            let problem = self.unit_failed(e, "bytes after a record", false);
            self.queued.push_back(problem);
            return None;
        }
        if self.stream.at_unit_start() {
            // The record's unit ended with its content.
            return None;
        }
        let bytes = self.stream.available();
        let here = if self.stream.plain {
            bytes
        } else {
            &bytes[..self.stream.before_next_unit().min(bytes.len())]
        };
        let blank = here.iter().position(|b| !matches!(b, b'\r' | b'\n'))?;
        let line_ends = here[..blank].iter().filter(|&&b| b == b'\n').count();
        if line_ends >= 2 || starts_warc(&here[blank..]) {
            return None;
        }
        Some(match self.skip_to_record(false) {
            Ok(SkippedBytes {
                bytes: skipped,
                next,
                ..
            }) => self.problem(
                offset,
                ProblemKind::Broken,
                format!(
                    "the record goes on past its Content-Length ({length}): its page is read to there, and the {skipped} bytes after it are skipped to {next}"
                ),
            ),
            Err(event) => *event,
        })
    }

    /// A record that holds no page: its content skipped.
    fn skip_content(&mut self, info: RecordInfo, length: u64, reason: Skip) -> Event {
        self.watch();
        let skipped = self.stream.skip(length);
        let watch = self.stream.watch.take();
        if let Ok(read) = skipped {
            if let Some((_, problem)) = self.overran(watch, read, length, info.offset) {
                return problem;
            }
        }
        match skipped {
            Err(e) => self.unit_failed(e, "a record's content", true),
            Ok(read) if read < length => {
                self.done = true;
                self.problem(
                    info.offset,
                    ProblemKind::Truncated,
                    format!("the archive ends inside this record ({read} of its {length} bytes are there)"),
                )
            }
            Ok(_) => Event::Skipped(Skipped {
                record: info,
                reason,
            }),
        }
    }

    /// A `response` (HTTP) or `resource` record's content: a page if it
    /// is HTML, else skipped.
    fn content(
        &mut self,
        info: RecordInfo,
        length: u64,
        content: Content,
        declared: Option<Truncated>,
    ) -> Event {
        let probe_len = usize::try_from(length).map_or(HEAD_PROBE, |l| l.min(HEAD_PROBE));
        let probe = match self.stream.fill(probe_len) {
            Ok(probe) => &probe[..probe.len().min(probe_len)],
            Err(e) => return self.unit_failed(e, "a record's content", true),
        };
        // The first line of an `HTTP/` block that is no status line.
        let mut bad_status = None;
        // Where the probe's HTTP head ended, and its MIME type: the page's
        // head is parsed again from the page's bytes, which start with the
        // probe's, and when it ends where the probe's did it is the same
        // head (read from the same bytes), whose MIME type is not
        // extracted a second time.
        let mut probed: Option<(usize, Option<http::MimeType>)> = None;
        let (is_page, http) = match &content {
            Content::Http(record_type) => match http::parse_head(probe) {
                Some(head) => {
                    let body = probe.get(head.body_start..).unwrap_or_default();
                    let mime_type = head.mime_type();
                    let page = match &mime_type {
                        Some(mime) => is_html(mime.essence()),
                        None => http::sniff_html(body),
                    };
                    probed = Some((head.body_start, mime_type));
                    (page, true)
                }
                // Not HTTP (a DNS lookup, a non-HTTP URL's response):
                // its own content type says what it is.
                None => {
                    if probe
                        .get(..5)
                        .is_some_and(|p| p.eq_ignore_ascii_case(b"HTTP/"))
                    {
                        let line = probe.split(|b| *b == b'\n').next().unwrap_or_default();
                        let line = &line[..line.len().min(100)];
                        bad_status = Some(String::from_utf8_lossy(line).trim_end().to_owned());
                    }
                    (record_type.as_deref().is_some_and(is_html), false)
                }
            },
            Content::Resource(record_type) => {
                match record_type.as_deref().filter(|ct| !ct.trim().is_empty()) {
                    Some(ct) => (is_html(ct), false),
                    None => (http::sniff_html(probe), false),
                }
            }
        };
        if !is_page {
            let offset = info.offset;
            return match (self.skip_content(info, length, Skip::NotHtml), bad_status) {
                // An HTTP response whose status line cannot be read: said,
                // not counted as a non-HTML page.
                (Event::Skipped(_), Some(line)) => self.problem(
                    offset,
                    ProblemKind::Broken,
                    format!("an HTTP response whose status line {line:?} cannot be read; skipped"),
                ),
                (event, _) => event,
            };
        }
        self.watch();
        let taken = self.stream.take(length, self.options.max_page);
        let watch = self.stream.watch.take();
        let (mut bytes, read) = match taken {
            Ok(taken) => taken,
            Err(e) => return self.unit_failed(e, "a page", true),
        };
        let mut truncated = declared;
        // The problem that says the page is cut, when the reader said so
        // already (another record inside it, a Content-Length too short).
        let mut said = false;
        if let Some((index, mut problem)) = self.overran(watch, read, length, info.offset) {
            // The record's bytes are those before the other record (and
            // the blank lines that end a record, if they are there).
            let mut end = usize::try_from(index).map_or(bytes.len(), |i| i.min(bytes.len()));
            if bytes[..end].ends_with(b"\r\n\r\n") {
                end -= 4;
            }
            bytes = bytes.narrow(0..end);
            truncated = Some(Truncated::NextRecord {
                read: index,
                declared: length,
            });
            if let Event::Problem(p) = &mut problem {
                p.kind = ProblemKind::Truncated;
            }
            said = true;
            self.queued.push_back(problem);
        } else if read < length {
            self.done = true;
            truncated = Some(Truncated::ArchiveEnds {
                read,
                declared: length,
            });
        } else {
            if let Some(mut problem) = self.goes_on(length, info.offset) {
                if truncated.is_none() {
                    truncated = Some(Truncated::ContentLengthShort { declared: length });
                    if let Event::Problem(p) = &mut problem {
                        p.kind = ProblemKind::Truncated;
                    }
                    said = true;
                }
                self.queued.push_back(problem);
            }
            if (bytes.len() as u64) < read {
                truncated = truncated.or(Some(Truncated::TooLarge));
            }
        }
        let record_type = match &content {
            Content::Http(t) | Content::Resource(t) => t.clone(),
        };
        let head = if http { http::parse_head(&bytes) } else { None };
        // Not HTTP, or (unreachable in practice: the probe was HTTP) no
        // head in the whole record.
        let Some(head) = head else {
            return self.page(
                Page {
                    record: info,
                    body: bytes,
                    content_type: record_type,
                    status: None,
                    truncated,
                    coding_failed: None,
                    content_coding: None,
                },
                said,
            );
        };
        let body_start = head.body_start.min(bytes.len());
        let decoded = http::decode_body(&head, &bytes[body_start..], self.options.max_page);
        if decoded.truncated && truncated.is_none() {
            // A head and no body under a Content-Length: the response to
            // a HEAD request, when its request record says so.
            if body_start == bytes.len() && self.head_request_follows(&info) {
                return Event::Skipped(Skipped {
                    record: info,
                    reason: Skip::NotAPage,
                });
            }
            // Cut at the largest page, or by the payload's own end.
            let len = match &decoded.bytes {
                http::BodyBytes::Verbatim(range) => range.len(),
                http::BodyBytes::Decoded(bytes) => bytes.len(),
            };
            truncated = Some(if len >= self.options.max_page {
                Truncated::TooLarge
            } else {
                Truncated::Payload
            });
        }
        // A content coding that failed leaves bytes that may be no page (a
        // transfer coding that failed alone, `chunked` over a body stored
        // unchunked, leaves the page).
        if let (Some(failed), Some(http::ContentCoding::Failed)) =
            (&decoded.failed, decoded.content_coding)
        {
            let stored = decoded.bytes.bytes(&bytes[body_start..]);
            if let Some(why) = http::not_a_page(stored) {
                let what = format!("{failed}, and its bytes as stored are no page: {why}; skipped");
                return self.problem(info.offset, ProblemKind::Undecodable, what);
            }
        }
        let body = match decoded.bytes {
            http::BodyBytes::Verbatim(range) => {
                bytes.narrow(body_start + range.start..body_start + range.end)
            }
            http::BodyBytes::Decoded(decoded) => {
                bytes.recycle();
                Bytes::from(decoded)
            }
        };
        let mime_type = match probed {
            Some((end, mime_type)) if end == head.body_start => {
                debug_assert_eq!(mime_type, head.mime_type());
                mime_type
            }
            _ => head.mime_type(),
        };
        self.page(
            Page {
                record: info,
                body,
                content_type: head.page_content_type(mime_type),
                status: Some(head.status),
                truncated,
                coding_failed: decoded.failed,
                content_coding: decoded.content_coding,
            },
            said,
        )
    }

    /// The event of `page`; a page that is not whole is followed by the
    /// problem that says why (unless it was `said` already, queued), so
    /// that every cut is said once, whatever cut it.
    fn page(&mut self, page: Page, said: bool) -> Event {
        if let (Some(cut), false) = (&page.truncated, said) {
            let what = cut.problem();
            let problem = self.problem(page.record.offset, ProblemKind::Truncated, what);
            // Before what was queued after the record's bytes.
            self.queued.push_front(problem);
        }
        Event::Page(page)
    }

    /// Whether the next record is the `request` of the response `info`
    /// (its `WARC-Concurrent-To` or its target URI) and its method is
    /// `HEAD`. Looked at without consuming it, within the first
    /// [`HEAD_PROBE`] bytes after the record; a unit that fails there is
    /// queued as the problem it is.
    fn head_request_follows(&mut self, info: &RecordInfo) -> bool {
        if self.kind != Kind::Warc {
            return false;
        }
        let bytes = match self.stream.fill(HEAD_PROBE) {
            Ok(bytes) => bytes,
            Err(e) => {
                let problem = self.unit_failed(e, "bytes after a record", false);
                self.queued.push_back(problem);
                return false;
            }
        };
        let start = bytes
            .iter()
            .position(|b| !matches!(b, b'\r' | b'\n'))
            .unwrap_or(bytes.len());
        let record = &bytes[start..];
        if !starts_warc(record) {
            return false;
        }
        let mut fields = Vec::new();
        let mut pos = 0;
        let block = loop {
            let Some(len) = memchr::memchr(b'\n', &record[pos..]) else {
                return false;
            };
            let line = &record[pos..pos + len];
            pos += len + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                break &record[pos..];
            }
            add_field(&mut fields, line);
        };
        let field = |name: &str| {
            fields
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().trim_start_matches('<').trim_end_matches('>'))
        };
        let id = info
            .record_id
            .as_deref()
            .map(|id| id.trim().trim_start_matches('<').trim_end_matches('>'));
        let its_request = field("WARC-Type").is_some_and(|t| t.eq_ignore_ascii_case("request"))
            && ((id.is_some() && field("WARC-Concurrent-To") == id)
                || (info.target_uri.is_some()
                    && field("WARC-Target-URI") == info.target_uri.as_deref()));
        its_request && block.starts_with(b"HEAD ")
    }
}

/// What a record's content is.
enum Content {
    /// An HTTP response (its record's own content type beside it).
    Http(Option<String>),
    /// The page itself, of this content type.
    Resource(Option<String>),
}

impl Iterator for Reader {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        self.step()
    }
}

/// Whether `version` (after `WARC/`) is a version: `1.1`, `0.17`, ...
fn is_version(version: &[u8]) -> bool {
    version.first().is_some_and(u8::is_ascii_digit)
        && version.iter().all(|&b| b.is_ascii_digit() || b == b'.')
}

/// Where a WARC version line (`WARC/1.1`) that ends `line` starts in
/// it: a record started there, cutting the header `line` is in.
fn version_line_at(line: &[u8]) -> Option<usize> {
    // The version is the line's tail of digits and dots, so `WARC/` can
    // only be right before it: a look at a few bytes, where a search of
    // every header line of every record (`memmem::rfind` builds its
    // searcher per call) was a good part of reading an archive of small
    // records.
    let version = line
        .iter()
        .rev()
        .take_while(|&&b| b.is_ascii_digit() || b == b'.')
        .count();
    let at = line.len().checked_sub(version + 5)?;
    (line[at..at + 5] == *b"WARC/" && is_version(&line[at + 5..])).then_some(at)
}

/// Whether `bytes` start with a WARC version line, its line end included
/// (looked for in the first 32 bytes: a version line is short).
fn is_version_line(bytes: &[u8]) -> bool {
    let Some(end) = memchr::memchr(b'\n', &bytes[..bytes.len().min(32)]) else {
        return false;
    };
    let line = &bytes[..end];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"WARC/").is_some_and(is_version)
}

/// Adds the header line `line` to `fields`: `Name: value`, or a folded
/// continuation of the last field (a line starting with a space or tab).
fn add_field(fields: &mut Vec<(String, String)>, line: &[u8]) {
    let text = String::from_utf8_lossy(line);
    if text.starts_with([' ', '\t']) {
        if let Some((_, value)) = fields.last_mut() {
            value.push(' ');
            value.push_str(text.trim());
        }
        return;
    }
    if let Some((name, value)) = text.split_once(':') {
        fields.push((name.trim().to_owned(), value.trim().to_owned()));
    }
}

/// An ARC record's header line.
struct ArcHeader {
    url: String,
    date: Option<String>,
    content_type: Option<String>,
    length: u64,
}

/// Parses an ARC header line: `URL IP DATE TYPE LENGTH` (version 1), or
/// `URL IP DATE TYPE CODE CHECKSUM LOCATION OFFSET FILENAME LENGTH`
/// (version 2).
///
/// The URL comes as the crawler found it: it may hold spaces (the other
/// fields are then counted from the line's end) and bytes that are not
/// UTF-8 (read as U+FFFD, as a WARC header's are).
fn arc_header(line: &[u8]) -> Option<ArcHeader> {
    let text = String::from_utf8_lossy(line);
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let n = fields.len();
    let digits = |f: &str| f.bytes().all(|b| b.is_ascii_digit());
    // The header if `after` fields follow the URL (4 in version 1, 9 in
    // version 2): its date is a number.
    let parse = |after: usize| -> Option<ArcHeader> {
        if n <= after {
            return None;
        }
        let length = fields[n - 1].parse().ok()?;
        let date = fields[n - after + 1];
        if !digits(date) {
            return None;
        }
        // The URL: the line from its first field to the end of the field
        // before the IP address, spaces and all.
        let offset = |f: &str| f.as_ptr() as usize - text.as_ptr() as usize;
        let last = fields[n - after - 1];
        let url = &text[offset(fields[0])..offset(last) + last.len()];
        Some(ArcHeader {
            url: url.to_owned(),
            date: Some(date.to_owned()),
            content_type: Some(fields[n - after + 2])
                .filter(|t| *t != "-" && !t.eq_ignore_ascii_case("no-type"))
                .map(str::to_owned),
            length,
        })
    };
    // Ten fields are version 2 when its date is where it should be. A
    // longer line (a URL with spaces) is version 2 only when the fields
    // that must be numbers in it are: a date of twelve digits and more, a
    // result code, an offset; else version 1.
    let v2 = n == 10
        || n > 10
            && digits(fields[n - 3])
            && fields[n - 8].len() >= 12
            && digits(fields[n - 8])
            && (fields[n - 6] == "-" || fields[n - 6].len() == 3 && digits(fields[n - 6]));
    if v2 {
        if let Some(header) = parse(9) {
            return Some(header);
        }
    }
    parse(4)
}

/// Whether a `Content-Type` value names an HTML page.
pub(crate) fn is_html(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("text/html")
        || essence.eq_ignore_ascii_case("application/xhtml+xml")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Skip;

    #[test]
    fn a_version_line_at_a_line_end_is_found_as_by_a_search() {
        // The definition: the last `WARC/` of the line, followed by a
        // version to the line's end. Every sequence of up to five pieces.
        let definition = |line: &[u8]| {
            let at = memchr::memmem::rfind(line, b"WARC/")?;
            is_version(&line[at + 5..]).then_some(at)
        };
        let pieces: [&[u8]; 6] = [b"WARC/", b"1", b".", b"x", b"W", b"/"];
        let mut lines: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = lines.clone();
        for _ in 0..5 {
            let mut next = Vec::new();
            for line in &last {
                for piece in pieces {
                    next.push([line.as_slice(), piece].concat());
                }
            }
            lines.extend(next.iter().cloned());
            last = next;
        }
        for line in &lines {
            assert_eq!(
                version_line_at(line),
                definition(line),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
        assert_eq!(version_line_at(b"x: yWARC/1.1"), Some(4));
    }

    fn record(headers: &str, content: &str) -> String {
        format!(
            "WARC/1.0\r\n{headers}Content-Length: {}\r\n\r\n{content}\r\n\r\n",
            content.len()
        )
    }

    fn events(archive: &[u8]) -> Vec<Event> {
        Reader::new(Source::from(archive.to_vec()))
            .unwrap()
            .collect()
    }

    fn page_of(event: &Event) -> (&str, &[u8], u64, u64) {
        match event {
            Event::Page(p) => (
                p.record.target_uri.as_deref().unwrap_or(""),
                &p.body[..],
                p.record.number,
                p.record.offset,
            ),
            other => panic!("not a page: {other:?}"),
        }
    }

    #[test]
    fn plain_records_with_offsets_and_numbers() {
        let info = record("WARC-Type: warcinfo\r\n", "software: test\r\n");
        let page = record(
            "WARC-Type: response\r\nWARC-Target-URI: <http://a.example/>\r\n",
            "HTTP/1.1 200 OK\nContent-Type: text/html; charset=utf-8\n\n<p>a",
        );
        let image = record(
            "WARC-Type: response\r\nWARC-Target-URI: http://a.example/i.png\r\n",
            "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\nPNG",
        );
        let archive = format!("{info}{page}{image}");
        let got = events(archive.as_bytes());
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            matches!(&got[0], Event::Skipped(s) if s.reason == Skip::NotAPage && s.record.number == 1)
        );
        assert_eq!(
            page_of(&got[1]),
            ("http://a.example/", &b"<p>a"[..], 2, info.len() as u64)
        );
        assert!(
            matches!(&got[2], Event::Skipped(s) if s.reason == Skip::NotHtml && s.record.offset == (info.len() + page.len()) as u64)
        );
    }

    #[test]
    fn bytes_between_records_cost_nothing_else() {
        let a = record(
            "WARC-Type: resource\r\nWARC-Target-URI: http://a/\r\nContent-Type: text/html\r\n",
            "<p>a",
        );
        let b = record(
            "WARC-Type: resource\r\nWARC-Target-URI: http://b/\r\nContent-Type: text/html\r\n",
            "<p>b",
        );
        let archive = format!("{a}garbage line\nmore garbage\r\n{b}");
        let got = events(archive.as_bytes());
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(page_of(&got[0]).1, b"<p>a");
        match &got[1] {
            Event::Problem(p) => {
                assert_eq!(p.kind, ProblemKind::Broken);
                assert_eq!(p.record, None);
                assert!(p.what.contains("after record 1"), "{p}");
                assert_eq!(p.offset, a.len() as u64);
                assert!(
                    p.what
                        .contains(&format!("next record at offset {}", a.len() + 27)),
                    "{p}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            page_of(&got[2]),
            ("http://b/", &b"<p>b"[..], 2, (a.len() + 27) as u64)
        );
    }

    #[test]
    fn a_record_without_a_length_is_a_problem_and_the_next_is_read() {
        let a = "WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/html\r\n\r\n<p>lost\r\n\r\n";
        let b = record(
            "WARC-Type: resource\r\nWARC-Target-URI: http://b/\r\nContent-Type: text/html\r\n",
            "<p>b",
        );
        let got = events(format!("{a}{b}").as_bytes());
        // One problem, for the record and its content skipped.
        let next = format!("next record at offset {}", a.len());
        assert!(
            matches!(&got[0], Event::Problem(p) if p.what.contains("Content-Length") && p.what.contains(&next)),
            "{got:?}"
        );
        assert_eq!(page_of(&got[1]).1, b"<p>b");
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn a_version_line_is_looked_for_in_a_few_bytes() {
        assert!(is_version_line(b"WARC/1.1\r\nWARC-Type: response"));
        assert!(is_version_line(b"WARC/0.17\n"));
        assert!(!is_version_line(b"WARC/1.1 and more\r\n"));
        assert!(!is_version_line(b"WARC/1.1"));
        // Not past 32 bytes, however far the line goes: skipping bytes
        // full of `WARC/` stays linear.
        let long = [&b"WARC/1."[..], &[b'1'; 40], b"\r\n"].concat();
        assert!(!is_version_line(&long));
    }

    #[test]
    fn a_clipped_page_is_read_as_far_as_it_goes() {
        let a = record(
            "WARC-Type: resource\r\nWARC-Target-URI: http://a/\r\nContent-Type: text/html\r\n",
            "<p>all of it",
        );
        let cut = a.len() - 10;
        let got = events(&a.as_bytes()[..cut]);
        match &got[..] {
            // The page, then the problem that says it is cut.
            [Event::Page(p), Event::Problem(cut)] => {
                assert_eq!(cut.kind, ProblemKind::Truncated);
                assert!(cut.what.starts_with("the archive ends inside this record"));
                assert_eq!(&p.body[..], b"<p>all");
                assert_eq!(
                    p.truncated,
                    Some(Truncated::ArchiveEnds {
                        read: 6,
                        declared: 12
                    })
                );
            }
            other => panic!("{other:?}"),
        }
        // Cut inside the header: a truncated problem.
        let got = events(&a.as_bytes()[..30]);
        assert!(
            matches!(&got[..], [Event::Problem(p)] if p.kind == ProblemKind::Truncated),
            "{got:?}"
        );
    }

    #[test]
    fn a_head_longer_than_the_probe_gives_the_content_type_of_the_whole_head() {
        // The probe (the first 64 KiB) sees the first Content-Type; the
        // page's head, read whole, a second one that adds a charset.
        let pad = "a".repeat(HEAD_PROBE + 100);
        let http = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Pad: {pad}\r\n\
             Content-Type: text/html; charset=koi8-r\r\n\r\n<p>x"
        );
        let short = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=gbk\r\n\r\n<p>y";
        let archive = [&http, short]
            .map(|http| {
                record(
                    "WARC-Type: response\r\nWARC-Target-URI: http://a/\r\n",
                    http,
                )
            })
            .concat();
        let got = events(archive.as_bytes());
        let types: Vec<_> = got
            .iter()
            .map(|event| match event {
                Event::Page(page) => (page.content_type.clone(), page.body.to_vec()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            types,
            [
                (
                    Some("text/html;charset=koi8-r".to_owned()),
                    b"<p>x".to_vec()
                ),
                (Some("text/html; charset=gbk".to_owned()), b"<p>y".to_vec())
            ]
        );
    }

    #[test]
    fn arc_records() {
        let body = "HTTP/1.0 200 OK\nContent-Type: text/html\n\n<p>arc";
        let version = "1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n";
        let archive = format!(
            "filedesc://x.arc 0.0.0.0 19961104142103 text/plain {}\n{version}\n\
             http://a.example/ 127.0.0.1 19961104142103 text/html {}\n{body}\n",
            version.len(),
            body.len()
        );
        let got = events(archive.as_bytes());
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(matches!(&got[0], Event::Skipped(s) if s.reason == Skip::NotAPage));
        assert_eq!(page_of(&got[1]).1, b"<p>arc");
        assert_eq!(page_of(&got[1]).2, 2);
    }

    #[test]
    fn arc_urls_with_spaces_or_bytes_that_are_not_utf8_are_read() {
        // Crawlers of the ARC years wrote URLs as they found them: with
        // spaces, and in the page's own encoding. The other fields are
        // counted from the line's end.
        let page = |url: &[u8], v2: bool| {
            let body = "HTTP/1.0 200 OK\nContent-Type: text/html\n\n<p>arc";
            let fields = if v2 {
                format!(
                    "127.0.0.1 19961104142103 text/html 200 - - 0 x.arc {}",
                    body.len()
                )
            } else {
                format!("127.0.0.1 19961104142103 text/html {}", body.len())
            };
            let mut line = url.to_vec();
            line.extend_from_slice(format!(" {fields}\n{body}\n").as_bytes());
            let version = "1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n";
            let mut archive = format!(
                "filedesc://x.arc 0.0.0.0 19961104142103 text/plain {}\n{version}\n",
                version.len()
            )
            .into_bytes();
            archive.extend_from_slice(&line);
            let got = events(&archive);
            assert_eq!(got.len(), 2, "{got:?}");
            let Event::Page(page) = &got[1] else {
                panic!("{got:?}")
            };
            assert_eq!(&page.body[..], b"<p>arc");
            assert_eq!(page.status, Some(200));
            page.record.target_uri.clone().unwrap()
        };
        for v2 in [false, true] {
            let spaced = b"http://a.example/q?t=Two Words&x= 1 2 3 4 5 6 7 8 9";
            assert_eq!(page(spaced, v2).as_bytes(), spaced, "v2: {v2}");
            // Six pieces: ten fields in version 1.
            let six = b"http://a.example/a b c d e f";
            assert_eq!(page(six, v2).as_bytes(), six, "v2: {v2}");
            assert_eq!(
                page(b"http://a.example/\xe9t\xe9", v2),
                "http://a.example/\u{fffd}t\u{fffd}"
            );
            assert_eq!(page(b"http://a.example/", v2), "http://a.example/");
        }
        // Fields that are no header from either end are none.
        for line in [
            &b"http://a.example/ 127.0.0.1 1996110414210x text/html 5"[..],
            b"http://a.example/ 127.0.0.1 19961104142103 text/html",
            b"127.0.0.1 19961104142103 text/html 5",
        ] {
            assert!(
                arc_header(line).is_none(),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn anything_else_is_not_an_archive() {
        assert!(matches!(
            Reader::new(Source::from(b"<html>".to_vec())),
            Err(OpenError::NotAnArchive)
        ));
        assert!(matches!(
            Reader::new(Source::from(Vec::new())),
            Err(OpenError::NotAnArchive)
        ));
    }
}
