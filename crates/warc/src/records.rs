//! The record layer: an archive's records in order, each with its header
//! and its block, and everything that is no record said as an [`Error`].
//!
//! [`Records`] parses records out of a [`Stream`] (the archive's
//! decompressed bytes, with the offset of the unit each came from). The
//! parser is lenient where real writers are sloppy (bare LF line ends,
//! folded header lines, blank lines between records, any WARC version)
//! and strict where a wrong guess would lose records: it never skips
//! bytes without an error saying so, and after a broken record it looks
//! for the next record start at a line start or a unit start.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::sync::Arc;

use crate::arc;
use crate::bytes::{Bytes, Pool};
use crate::error::{Error, ErrorKind};
use crate::format::{detect, record_start, starts_warc, Format, Kind};
use crate::header::{is_version_line, version_line_at, version_of, Fields, Header, Version};
use crate::http;
use crate::source::Source;
use crate::stream::{LineEnd, Stream, UnitError, Watch, HEAD_PROBE};
use crate::units::{Compression, Units};

/// How a reader reads.
///
/// ```
/// use htmltok_warc::{Options, Pool};
/// let options = Options::default().with_max_page(1 << 20).with_pool(Pool::new());
/// assert_eq!(options.max_page(), 1 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    max_page: usize,
    pool: Pool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_page: 256 << 20,
            pool: Pool::default(),
        }
    }
}

impl Options {
    /// The largest page read whole (decoded), 256 MiB unless set: a larger
    /// one is cut there and marked
    /// [`Truncated::TooLarge`](crate::Truncated::TooLarge). It bounds the
    /// reader's memory.
    pub fn max_page(&self) -> usize {
        self.max_page
    }

    /// These options with the largest page `max_page`.
    pub fn with_max_page(self, max_page: usize) -> Options {
        Options { max_page, ..self }
    }

    /// The pool pages' buffers come from (and go back to when
    /// [recycled](Bytes::recycle)).
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// These options with the buffers of `pool`: one pool shared by the
    /// readers and page threads of a program saves a fresh buffer per
    /// page.
    pub fn with_pool(self, pool: Pool) -> Options {
        Options { pool, ..self }
    }
}

/// The largest WARC header block (or ARC header line) read: a longer one
/// is broken.
pub(crate) const HEADER_LIMIT: usize = 1 << 20;

/// An archive's records, in order: each a [`Record`] (its header, and
/// its block to read or to leave), or an [`Error`] for what is no record.
///
/// A broken record costs only itself: reading resumes at the next record
/// the framing allows, with an error that says what was skipped. The
/// errors of a record come after it; those between records in their
/// place.
///
/// ```
/// use std::io::Read;
/// use htmltok_warc::{RecordType, Records, Source};
///
/// let archive = b"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: file:///a.txt\r\n\
///                 Content-Length: 5\r\n\r\nhello\r\n\r\n".to_vec();
/// let mut records = Records::new(Source::from(archive)).unwrap();
/// while let Some(item) = records.next_record() {
///     let mut record = item.unwrap();
///     assert_eq!(record.header().record_type(), &RecordType::Resource);
///     let mut block = String::new();
///     record.block().read_to_string(&mut block).unwrap();
///     assert_eq!(block, "hello");
/// }
/// ```
pub struct Records {
    source: Source,
    kind: Kind,
    compression: Compression,
    pub(crate) stream: Stream,
    options: Options,
    /// Records read so far, every one counted: a record lost with its
    /// broken unit too.
    records: u64,
    /// The last record whose header was read (or begun): its number and
    /// target URI, which an error in it names.
    last: Option<(u64, Option<String>)>,
    done: bool,
    /// A record whose version line was read at the end of another
    /// record's header line (that header was cut short): its offset, and
    /// the version.
    pending: Option<(u64, Version)>,
    /// Errors that follow the last item, in order.
    queued: VecDeque<Error>,
    /// Where the furthest return to a record seen inside another's
    /// content had read to: no return goes before it again, so nothing
    /// is read more than twice.
    horizon: u64,
    /// Scratch for header lines.
    line: Vec<u8>,
    /// The record handed out last, while its block is not ended.
    open: Option<Open>,
}

/// A record handed out: where its block is.
struct Open {
    offset: u64,
    length: u64,
    /// Bytes of the block consumed so far (kept or skipped).
    read: u64,
    /// A unit failed inside the block: it is lost, and said so.
    lost: bool,
    /// How it ended, once it has.
    end: Option<BlockEnd>,
}

/// How a record's block ended (see [`Record::end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockEnd {
    /// The block was there whole, and the record ended after it.
    Whole,
    /// The archive ends inside the block: `read` of its `declared`
    /// bytes are there. A [`ErrorKind::Truncated`] error says so next.
    ArchiveEnds {
        /// Bytes of the block in the archive.
        read: u64,
        /// Its `Content-Length`.
        declared: u64,
    },
    /// Another record starts `read` bytes into the block's `declared`
    /// ones (a writer that stopped there and appended another record
    /// later, or a wrong `Content-Length`): reading goes back to that
    /// record, and an error says so next.
    NextRecord {
        /// Bytes of the block before the other record.
        read: u64,
        /// Its `Content-Length`.
        declared: u64,
    },
    /// The block went on past its `declared` bytes (a `Content-Length`
    /// too short), which the [page layer](crate::Pages) reads its pages
    /// to, saying so; the record layer says the bytes after them are no
    /// record.
    ContentLengthShort {
        /// Its `Content-Length`.
        declared: u64,
    },
    /// A unit (gzip member, frame) broke inside the block: it is lost,
    /// and an error says so next.
    Lost,
}

/// What [`Records::skip_to_record`] skipped.
struct SkippedBytes {
    bytes: u64,
    /// They were all zero bytes (or none).
    zeros: bool,
    /// Where reading goes on, in words.
    next: String,
}

/// What one step of reading found.
enum Step {
    Record(Header),
    Error(Error),
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records")
            .field("source", &self.source)
            .field("kind", &self.kind)
            .field("records", &self.records)
            .finish()
    }
}

impl Records {
    /// Reads the archive `source`, telling its format from its content.
    ///
    /// An error is [`ErrorKind::Unreadable`]: `source` is no archive
    /// (WARC or ARC, plain or compressed with gzip, LZ4 or Zstandard), or
    /// cannot be read.
    pub fn new(source: Source) -> Result<Records, Error> {
        Records::with_options(source, Options::default())
    }

    /// [`Records::new`] with `options`.
    pub fn with_options(source: Source, options: Options) -> Result<Records, Error> {
        let format = detect(&source)?.ok_or_else(|| {
            Error::unreadable(
                "not a WARC or ARC archive (nor one compressed with gzip, LZ4 or Zstandard)".into(),
                None,
            )
        })?;
        Ok(Records::from_offset(source, format, 0, 0, options)?)
    }

    /// The records of a stream read once, as it comes (standard input):
    /// [`Records::new`] of [`Source::from_reader`].
    pub fn from_reader(reader: impl Read + Send + 'static) -> Result<Records, Error> {
        Records::new(Source::from_reader(reader))
    }

    /// Reads `source`, an archive of `format`, from `offset` (a unit
    /// start), numbering its records after `records` earlier ones.
    pub fn from_offset(
        source: Source,
        format: Format,
        offset: u64,
        records: u64,
        options: Options,
    ) -> io::Result<Records> {
        let units = Units::open(&source, offset, format.compression)?;
        Ok(Records::over(
            Stream::over_units(units),
            source,
            format,
            records,
            options,
        ))
    }

    /// The records of one gzip member's inflated `bytes` at `offset` (for
    /// the parallel reader), numbered from 1.
    pub(crate) fn over_member(
        bytes: Arc<Vec<u8>>,
        offset: u64,
        format: Format,
        options: Options,
    ) -> Records {
        let source = Source::from(Arc::<[u8]>::from(&[][..]));
        Records::over(
            Stream::over_member(bytes, offset),
            source,
            format,
            0,
            options,
        )
    }

    fn over(
        stream: Stream,
        source: Source,
        format: Format,
        records: u64,
        options: Options,
    ) -> Records {
        Records {
            stream,
            source,
            kind: format.kind,
            compression: format.compression,
            options,
            records,
            last: None,
            done: false,
            pending: None,
            queued: VecDeque::new(),
            horizon: 0,
            line: Vec::new(),
            open: None,
        }
    }

    /// The archive's format.
    pub fn format(&self) -> Format {
        Format {
            kind: self.kind,
            compression: self.compression,
        }
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The options it reads with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Its pages: the [page layer](crate::Pages) over these records.
    pub fn pages(self) -> crate::Pages {
        crate::Pages::over(self)
    }

    /// The next record, or the next error; `None` at the archive's end.
    ///
    /// The block of the record handed out before, if it was not read to
    /// its end, is skipped first (its errors come then).
    pub fn next_record(&mut self) -> Option<Result<Record<'_>, Error>> {
        if self.open.is_some() {
            self.finish(false, false);
            self.open = None;
        }
        if let Some(error) = self.queued.pop_front() {
            return Some(Err(error));
        }
        match self.step()? {
            Step::Error(error) => Some(Err(error)),
            Step::Record(header) => {
                self.begin(&header);
                Some(Ok(Record {
                    records: self,
                    header,
                    http: None,
                }))
            }
        }
    }

    /// Whether the last item left the stream at a record boundary with
    /// nothing after it (for the parallel reader: the member was whole
    /// records).
    pub(crate) fn ended_cleanly(&mut self) -> bool {
        matches!(self.stream.fill(1), Ok(b) if b.is_empty())
    }

    fn starts_record(&self) -> fn(&[u8]) -> bool {
        record_start(self.kind)
    }

    /// An error in the record whose header was read last.
    fn error(&self, offset: u64, kind: ErrorKind, what: String) -> Error {
        let (record, uri) = match &self.last {
            Some((n, uri)) => (Some(*n), uri.clone()),
            None => (None, None),
        };
        Error::at(kind, record, offset, uri, what)
    }

    /// An error between records (or in a record whose header could not
    /// be read): named by its offset and the record before it.
    fn error_between(&self, offset: u64, kind: ErrorKind, what: String) -> Error {
        let what = match self.records {
            0 => format!("{what} (before the first record)"),
            n => format!("{what} (after record {n})"),
        };
        Error::at(kind, None, offset, None, what)
    }

    /// A record begins: the next, numbered so, named by `uri`.
    fn count(&mut self, uri: Option<String>) {
        self.records += 1;
        self.last = Some((self.records, uri));
    }

    /// The error of a unit that failed, after which reading resumes at
    /// the next unit that starts a record; `in_record` when it failed in
    /// a record whose header was read (or begun). A unit that failed
    /// between records before any of its bytes were read took a record
    /// with it: that record counts, so that the records after it are
    /// numbered by their places in the archive, and the error names it
    /// (it stays an error between records: no header of it was read).
    fn unit_failed(&mut self, e: UnitError, what: &str, in_record: bool) -> Error {
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
            io::ErrorKind::UnexpectedEof => ErrorKind::Truncated,
            _ => ErrorKind::Broken,
        };
        let unit = self.stream.unit_name();
        let what = format!(
            "{what} in a broken {unit} at offset {} ({cause}); {resumed}",
            e.offset
        );
        let error = if in_record {
            self.error(e.offset, kind, what)
        } else if lost {
            self.records += 1;
            Error::at(kind, None, e.offset, None, what)
        } else {
            self.error_between(e.offset, kind, what)
        };
        if self.stream.ended && self.stream.available().is_empty() {
            self.done = true;
        }
        error
    }

    /// [`Records::unit_failed`] in the open record's block: it is lost,
    /// and the error queued.
    fn block_failed(&mut self, e: UnitError, what: &str) {
        let error = self.unit_failed(e, what, true);
        self.queued.push_back(error);
        if let Some(open) = &mut self.open {
            open.lost = true;
            open.end = Some(BlockEnd::Lost);
        }
        self.stream.watch = None;
    }

    /// The next record's header, or error.
    fn step(&mut self) -> Option<Step> {
        if self.done {
            return None;
        }
        if let Some((offset, version)) = self.pending.take() {
            return Some(self.warc_record(offset, Some(version)));
        }
        // Blank lines between records (the two CRLFs that end one, and
        // more from sloppier writers).
        loop {
            match self.stream.fill(1) {
                Err(e) => {
                    let error = self.unit_failed(e, "bytes after a record", false);
                    return Some(Step::Error(error));
                }
                Ok([]) => {
                    self.done = true;
                    // A unit cut by the archive's end that gave no record
                    // (or only blank lines): said here.
                    return self.stream.clipped.take().map(|at| {
                        let unit = self.stream.unit_name();
                        Step::Error(self.error_between(
                            at,
                            ErrorKind::Truncated,
                            format!("the archive ends inside the {unit} at offset {at}"),
                        ))
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
            Err(e) => return Some(Step::Error(self.unit_failed(e, "a record", false))),
        };
        let starts = match self.kind {
            Kind::Warc => starts_warc(probe),
            // Any other line is read as a header, to say what is wrong
            // with it; a NUL, which never starts one (it starts with a
            // URL), is padding or a crashed writer's zeros.
            Kind::Arc => probe.first() != Some(&0),
        };
        if !starts {
            return self.not_a_record(offset).map(Step::Error);
        }
        Some(match self.kind {
            Kind::Warc => self.warc_record(offset, None),
            Kind::Arc => self.arc_record(offset),
        })
    }

    /// Bytes where a record should start: skipped to the next line (or
    /// unit) that starts one, with an error saying so. Zero bytes to the
    /// end of a plain archive are none: padding to a block (a tar file,
    /// a preallocating writer), the archive's end.
    fn not_a_record(&mut self, offset: u64) -> Option<Error> {
        match self.skip_to_record(false) {
            Ok(skip) if skip.zeros && self.stream.plain && self.stream.available().is_empty() => {
                self.done = true;
                None
            }
            Ok(skip) => Some(self.error_between(
                offset,
                ErrorKind::Broken,
                format!(
                    "{} bytes that are not a record; skipped to {}",
                    skip.bytes, skip.next
                ),
            )),
            Err(error) => Some(error),
        }
    }

    /// [`Records::not_a_record`] after `consumed` bytes were read at
    /// `offset`: a whole line when `line_read` (a record may start right
    /// after it).
    fn not_a_record_after(&mut self, offset: u64, consumed: u64, line_read: bool) -> Error {
        match self.skip_to_record(line_read) {
            Ok(skip) => self.error_between(
                offset,
                ErrorKind::Broken,
                format!(
                    "{} bytes that are not a record; skipped to {}",
                    consumed + skip.bytes,
                    skip.next
                ),
            ),
            Err(error) => error,
        }
    }

    /// A record whose header cannot be read (`what` is wrong with it):
    /// skipped to the next record, one error.
    fn unreadable_header(&mut self, offset: u64, what: &str) -> Error {
        match self.skip_to_record(true) {
            Ok(skip) => self.error(
                offset,
                ErrorKind::Broken,
                format!(
                    "{what}; the record is skipped ({} more bytes, to {})",
                    skip.bytes, skip.next
                ),
            ),
            Err(error) => error,
        }
    }

    /// Skips to the next line (or unit) that starts a record (`here`:
    /// unless the stream is at one already): the bytes skipped, and where
    /// reading goes on, in words; or the error of a unit that failed.
    fn skip_to_record(&mut self, here: bool) -> Result<SkippedBytes, Error> {
        let mut skipped: u64 = 0;
        let mut zeros = true;
        let starts_record = self.starts_record();
        let warc = self.kind == Kind::Warc;
        let at_record = match self.stream.fill(64) {
            Err(e) => return Err(self.unit_failed(e, "bytes that are not a record", false)),
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
                Err(e) => return Err(self.unit_failed(e, "bytes that are not a record", false)),
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
                Err(e) => return Err(self.unit_failed(e, "bytes that are not a record", false)),
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

    /// The WARC record at the stream's position (at its fields, when its
    /// `version` was read: its version line ended the line before).
    fn warc_record(&mut self, offset: u64, version: Option<Version>) -> Step {
        // The header block: the version line, fields, an empty line.
        self.last = None;
        let mut fields = Fields::default();
        let mut size = 0;
        let mut version = version;
        loop {
            let line_offset = self.stream.offset_here();
            self.line.clear();
            let end = match self.stream.line(&mut self.line, HEADER_LIMIT) {
                Ok(end) => end,
                Err(e) => {
                    // The record begun counts, as one the archive's end
                    // cuts in its header does.
                    self.count(None);
                    return Step::Error(self.unit_failed(e, "a WARC header", true));
                }
            };
            size += self.line.len() + 2;
            match end {
                LineEnd::Lf if version.is_none() => {
                    version = Some(version_of(&self.line));
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
                        self.count(None);
                        self.pending = Some((next, version_of(&self.line[at..])));
                        return Step::Error(self.error(
                            offset,
                            ErrorKind::Broken,
                            format!(
                                "a WARC header cut short by the start of another record at offset {next}; the record is skipped"
                            ),
                        ));
                    }
                }
                LineEnd::TooLong => {
                    self.count(None);
                    return Step::Error(
                        self.unreadable_header(offset, "a WARC header line longer than 1 MiB"),
                    );
                }
                LineEnd::Eof | LineEnd::None => {
                    self.count(None);
                    self.done = true;
                    return Step::Error(self.error(
                        offset,
                        ErrorKind::Truncated,
                        "the archive ends inside a WARC header".into(),
                    ));
                }
            }
            if size > HEADER_LIMIT {
                self.count(None);
                return Step::Error(
                    self.unreadable_header(offset, "a WARC header larger than 1 MiB"),
                );
            }
            fields.add_line(&self.line);
        }
        let mut header = Header {
            number: self.records + 1,
            offset,
            version: version.unwrap_or(Version::Warc(String::new())),
            record_type: crate::RecordType::parse(fields.get("WARC-Type").unwrap_or("")),
            fields,
            length: 0,
        };
        self.count(header.target_uri().map(str::to_owned));
        let length = header.fields.get("Content-Length");
        let Some(length) = length.and_then(|v| v.trim().parse::<u64>().ok()) else {
            return Step::Error(
                self.unreadable_header(offset, "a WARC record without a valid Content-Length"),
            );
        };
        header.length = length;
        Step::Record(header)
    }

    /// The ARC record at the stream's position.
    fn arc_record(&mut self, offset: u64) -> Step {
        self.last = None;
        self.line.clear();
        let end = match self.stream.line(&mut self.line, HEADER_LIMIT) {
            Ok(end) => end,
            Err(e) => return Step::Error(self.unit_failed(e, "an ARC header", false)),
        };
        let header = (end != LineEnd::TooLong)
            .then(|| arc::header(&self.line))
            .flatten();
        let Some(header) = header else {
            if end == LineEnd::Eof {
                self.done = true;
                self.count(None);
                return Step::Error(self.error(
                    offset,
                    ErrorKind::Truncated,
                    "the archive ends inside an ARC header".into(),
                ));
            }
            // A line that is no header: the next may be one.
            let consumed = self.stream.line_consumed as u64;
            return Step::Error(self.not_a_record_after(offset, consumed, end == LineEnd::Lf));
        };
        let url = header.fields.get("URL").unwrap_or_default();
        let header = Header {
            number: self.records + 1,
            offset,
            version: Version::Arc(header.version),
            record_type: arc::record_type(url),
            length: header.length,
            fields: header.fields,
        };
        self.count(header.target_uri().map(str::to_owned));
        Step::Record(header)
    }

    /// Opens the block of the record `header`, watching it for another
    /// record's start when the reader can go back to one (a WARC archive,
    /// plain or gzip, read from its source).
    fn begin(&mut self, header: &Header) {
        let reopens = self.kind == Kind::Warc
            && self.stream.units.as_ref().is_some_and(|units| {
                matches!(units.compression(), Compression::None | Compression::Gzip)
            });
        self.stream.watch = reopens.then(Watch::default);
        self.open = Some(Open {
            offset: header.offset,
            length: header.length,
            read: 0,
            lost: false,
            end: None,
        });
    }

    /// Bytes of the open block not yet consumed.
    fn left(&self) -> u64 {
        self.open.as_ref().map_or(0, |open| open.length - open.read)
    }

    /// At least `n` bytes of the open block (fewer if it or the stream is
    /// shorter), without consuming them; `None` when a unit failed in it.
    fn peek(&mut self, n: usize) -> Option<&[u8]> {
        if self.open.as_ref().is_none_or(|open| open.lost) {
            return None;
        }
        let n = usize::try_from(self.left()).map_or(n, |left| left.min(n));
        match self.stream.fill(n) {
            Ok(_) => {
                let available = self.stream.available();
                Some(&available[..available.len().min(n)])
            }
            Err(e) => {
                self.block_failed(e, "a record's content");
                None
            }
        }
    }

    /// The rest of the open block, at most `limit` bytes of it kept (the
    /// rest skipped); `None` when a unit failed in it (`what` it was, in
    /// the error's words).
    fn take(&mut self, limit: usize, what: &str) -> Option<Bytes> {
        if self.open.as_ref().is_none_or(|open| open.lost) {
            return None;
        }
        let left = self.left();
        match self.stream.take(left, limit, &self.options.pool) {
            Ok((bytes, read)) => {
                if let Some(open) = &mut self.open {
                    open.read += read;
                }
                Some(bytes)
            }
            Err(e) => {
                self.block_failed(e, what);
                None
            }
        }
    }

    /// Ends the open block: skips what is left of it, and says how it
    /// ended. An error that says so is queued (in the words of a page's
    /// cut, of kind [`ErrorKind::Truncated`], when `page`: but for the
    /// archive's end, which the page layer says itself). Only a `page`
    /// is looked at for a `Content-Length` too short (`declared`: the
    /// record says it is truncated, which that cut then is not).
    pub(crate) fn finish(&mut self, page: bool, declared: bool) -> BlockEnd {
        let Some(open) = &self.open else {
            return BlockEnd::Whole;
        };
        if let Some(end) = open.end {
            return end;
        }
        let (offset, length) = (open.offset, open.length);
        let skipped = self.stream.skip(length - open.read);
        let watch = self.stream.watch.take();
        let read = match skipped {
            Ok(n) => open.read + n,
            Err(e) => {
                let what = if page { "a page" } else { "a record's content" };
                self.block_failed(e, what);
                return BlockEnd::Lost;
            }
        };
        let end = if let Some((index, mut error)) = self.overran(watch, read, length, offset) {
            if page {
                error.kind = ErrorKind::Truncated;
            }
            self.queued.push_back(error);
            BlockEnd::NextRecord {
                read: index,
                declared: length,
            }
        } else if read < length {
            self.done = true;
            if !page {
                let error = self.error(
                    offset,
                    ErrorKind::Truncated,
                    format!("the archive ends inside this record ({read} of its {length} bytes are there)"),
                );
                self.queued.push_back(error);
            }
            BlockEnd::ArchiveEnds {
                read,
                declared: length,
            }
        } else {
            match self.goes_on(page, length, offset) {
                Some((mut error, unit)) => {
                    if !declared {
                        error.kind = ErrorKind::Truncated;
                    }
                    self.queued.push_back(error);
                    self.queued.extend(unit);
                    BlockEnd::ContentLengthShort { declared: length }
                }
                None => BlockEnd::Whole,
            }
        };
        if let Some(open) = &mut self.open {
            open.read = read;
            open.end = Some(end);
        }
        end
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
                let error = self.unit_failed(e, "bytes after a record", false);
                self.queued.push_back(error);
                true
            }
        }
    }

    /// After a record's content, `read` of its `length` bytes: when it
    /// ran into another record (its end is not where the archive or the
    /// next record is, and another record started inside it), reading
    /// goes back to that record. The index in the content where it
    /// starts, and the error that says so.
    fn overran(
        &mut self,
        watch: Option<Watch>,
        read: u64,
        length: u64,
        offset: u64,
    ) -> Option<(u64, Error)> {
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
        Some((index, self.error(offset, ErrorKind::Broken, what)))
    }

    /// After a WARC record's whole content (its `length` declared bytes,
    /// at `offset`), when it is a `page`: whether the record goes on past
    /// them, its `Content-Length` too short. It does when the bytes right
    /// after the content (in its unit, when compressed) are there and are
    /// neither the blank lines that end a record (two line ends: what
    /// follows them is between records) nor another record. Those bytes
    /// are then skipped to the next record, and the error that says so
    /// is returned, named by the record; then the error of a unit that
    /// broke after them, if one did, to be said after it.
    fn goes_on(&mut self, page: bool, length: u64, offset: u64) -> Option<(Error, Option<Error>)> {
        if !page || self.kind != Kind::Warc || !self.queued.is_empty() {
            return None;
        }
        // A unit that breaks after the record's own leaves the bytes of
        // the record's unit to look at: the record may go on in them.
        let failed = self.stream.fill(64).err();
        if failed.is_none() && self.stream.at_unit_start() {
            // The record's unit ended with its content.
            return None;
        }
        let bytes = self.stream.available();
        let here = if self.stream.plain {
            bytes
        } else {
            &bytes[..self.stream.before_next_unit().min(bytes.len())]
        };
        let goes_on = here
            .iter()
            .position(|b| !matches!(b, b'\r' | b'\n'))
            .is_some_and(|blank| {
                let line_ends = here[..blank].iter().filter(|&&b| b == b'\n').count();
                line_ends < 2 && !starts_warc(&here[blank..])
            });
        let went_on = |records: &Records, after: String| {
            records.error(
                offset,
                ErrorKind::Broken,
                format!(
                    "the record goes on past its Content-Length ({length}): its page is read to there, and {after}"
                ),
            )
        };
        let broke = "the bytes after it run into a broken unit".to_owned();
        if let Some(e) = failed {
            let error = goes_on.then(|| went_on(self, broke));
            let unit = self.unit_failed(e, "bytes after a record", false);
            return match error {
                Some(error) => Some((error, Some(unit))),
                None => {
                    self.queued.push_back(unit);
                    None
                }
            };
        }
        if !goes_on {
            return None;
        }
        Some(match self.skip_to_record(false) {
            Ok(SkippedBytes {
                bytes: skipped,
                next,
                ..
            }) => (
                went_on(
                    self,
                    format!("the {skipped} bytes after it are skipped to {next}"),
                ),
                None,
            ),
            Err(unit) => (went_on(self, broke), Some(unit)),
        })
    }

    /// Whether the next record, looked at without consuming it within
    /// the first [`HEAD_PROBE`] bytes after the record `header` (whose
    /// block is ended), is a WARC header whose `fields` and block's start
    /// `is` says yes to. A unit that fails there is queued as the error
    /// it is.
    pub(crate) fn next_header_is(&mut self, is: impl FnOnce(&Fields, &[u8]) -> bool) -> bool {
        if self.kind != Kind::Warc {
            return false;
        }
        let bytes = match self.stream.fill(HEAD_PROBE) {
            Ok(bytes) => bytes,
            Err(e) => {
                let error = self.unit_failed(e, "bytes after a record", false);
                self.queued.push_back(error);
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
        let mut fields = Fields::default();
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
            fields.add_line(line);
        };
        is(&fields, block)
    }

    /// Queues `error` to come before anything queued by the record layer.
    pub(crate) fn queue_first(&mut self, error: Error) {
        self.queued.push_front(error);
    }
}

/// A record: its header, and its block to read (with
/// [`Record::block`], [`Record::read_block`]) or to leave (the next
/// [`Records::next_record`] skips it).
///
/// ```
/// use htmltok_warc::{BlockEnd, Records};
///
/// let http = "HTTP/1.1 404 Not Found\r\nServer: x\r\n\r\ngone";
/// let archive = format!(
///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\n\
///      Content-Length: {}\r\n\r\n{http}\r\n\r\n",
///     http.len()
/// );
/// let mut records = Records::new(archive.into_bytes().into()).unwrap();
/// let mut record = records.next_record().unwrap().unwrap();
/// let head = record.http().unwrap();
/// assert_eq!((head.status, head.get("server")), (404, Some("x")));
/// assert_eq!(&record.read_block(1024).unwrap()[..], http.as_bytes());
/// assert_eq!(record.end(), BlockEnd::Whole);
/// ```
pub struct Record<'r> {
    records: &'r mut Records,
    header: Header,
    /// The HTTP head, once looked for.
    http: Option<Option<http::Head>>,
}

impl std::fmt::Debug for Record<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record")
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl<'r> Record<'r> {
    /// Its header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Its header, the record left (its block is skipped by the next
    /// [`Records::next_record`]).
    pub fn into_header(self) -> Header {
        self.header
    }

    /// The head of the HTTP response its block holds (read from the
    /// block's start, without consuming it), for a `response` or
    /// `revisit` record (an ARC record of an `http:` or `https:` URL);
    /// `None` when the block starts with no HTTP status line, or the
    /// record is of another type.
    pub fn http(&mut self) -> Option<&http::Head> {
        if self.http.is_none() {
            let head = match self.header.record_type {
                crate::RecordType::Response | crate::RecordType::Revisit => self.read_head(),
                _ => None,
            };
            self.http = Some(head);
        }
        self.http.as_ref().and_then(Option::as_ref)
    }

    /// The HTTP head at the block's start: looked for in its first
    /// [`HEAD_PROBE`] bytes, or up to [`HEADER_LIMIT`] when it goes on
    /// past them.
    fn read_head(&mut self) -> Option<http::Head> {
        let length = self.header.length;
        let probe = self.records.peek(HEAD_PROBE)?;
        let head = http::parse_head(probe)?;
        if head.body_start < probe.len() || probe.len() as u64 >= length {
            return Some(head);
        }
        http::parse_head(self.records.peek(HEADER_LIMIT)?)
    }

    /// The block, to read as it comes (a [`Read`] and [`BufRead`] that
    /// ends with the block). A broken unit inside it is an I/O error, and
    /// the [`Error`] that says what was lost is the next item of
    /// [`Records::next_record`].
    pub fn block(&mut self) -> Block<'_> {
        Block {
            records: self.records,
        }
    }

    /// The rest of the block, at most `limit` bytes of it kept (the rest
    /// skipped: [`Record::end`] still says how many were there). `None`
    /// when a broken unit lost it: the [`Error`] that says so is the next
    /// item of [`Records::next_record`].
    pub fn read_block(&mut self, limit: usize) -> Option<Bytes> {
        self.records.take(limit, "a record's content")
    }

    /// At least `n` bytes of the block's rest (fewer when it is shorter),
    /// without consuming them.
    pub(crate) fn peek(&mut self, n: usize) -> Option<&[u8]> {
        self.records.peek(n)
    }

    /// The rest of the block as a page's bytes (at most `limit` kept).
    pub(crate) fn take_page(&mut self, limit: usize) -> Option<Bytes> {
        self.records.take(limit, "a page")
    }

    /// Bytes of the block consumed so far (kept or skipped).
    pub(crate) fn read(&self) -> u64 {
        self.records.open.as_ref().map_or(0, |open| open.read)
    }

    /// The records this one is read from.
    pub(crate) fn records(&mut self) -> &mut Records {
        self.records
    }

    /// The records this one is read from, and its header.
    pub(crate) fn into_parts(self) -> (&'r mut Records, Header) {
        (self.records, self.header)
    }

    /// Skips the rest of the block, and says how it ended. What went wrong
    /// (an archive that ends inside it, another record that starts inside
    /// it) is said by the next item of [`Records::next_record`].
    pub fn end(&mut self) -> BlockEnd {
        self.records.finish(false, false)
    }
}

/// A record's block, read as it comes: see [`Record::block`].
pub struct Block<'a> {
    records: &'a mut Records,
}

impl std::fmt::Debug for Block<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Block")
            .field("left", &self.records.left())
            .finish()
    }
}

impl BufRead for Block<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let records = &mut *self.records;
        if records.open.as_ref().is_none_or(|open| open.end.is_some()) {
            return match records.open.as_ref().and_then(|open| open.end) {
                Some(BlockEnd::Lost) => Err(io::Error::other(
                    "the block is lost in a broken unit (the next record's error says so)",
                )),
                _ => Ok(&[]),
            };
        }
        let left = records.left();
        if left == 0 {
            return Ok(&[]);
        }
        if let Err(e) = records.stream.fill(1) {
            records.block_failed(e, "a record's content");
            return Err(io::Error::other(
                "the block is lost in a broken unit (the next record's error says so)",
            ));
        }
        let available = records.stream.available();
        let n = usize::try_from(left).map_or(available.len(), |l| l.min(available.len()));
        Ok(&records.stream.available()[..n])
    }

    fn consume(&mut self, n: usize) {
        let n = usize::try_from(self.records.left()).map_or(n, |l| l.min(n));
        self.records.stream.consume(n);
        if let Some(open) = &mut self.records.open {
            open.read += n as u64;
        }
    }
}

impl Read for Block<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let data = self.fill_buf()?;
        let n = data.len().min(out.len());
        out[..n].copy_from_slice(&data[..n]);
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RecordType;
    use testkit::warc::{ArcRecord, Archive, Container, Http, Record as Written};

    /// One record of every type, each with a block of its own.
    fn every_type() -> Vec<Written> {
        let page = Http::response(200, "OK")
            .header("Content-Type", "text/html")
            .body("<p>a");
        let request = Http::request("GET", "/").header("Host", "a.example");
        let headers = Http::response(304, "Not Modified").header("ETag", "x");
        vec![
            Written::warcinfo("software: test\r\n"),
            Written::request("http://a.example/", &request),
            Written::response("http://a.example/", &page),
            Written::metadata("http://a.example/", "application/warc-fields", "via: x\r\n"),
            Written::revisit(
                "http://a.example/",
                "http://a.example/",
                "2026-01-01T00:00:00Z",
            )
            .http_block(&headers),
            Written::resource("file:///a.txt", "text/plain", "hello"),
            Written::new("conversion").block("converted"),
            Written::new("continuation").block("rest"),
            Written::new("X-Mine").block("mine").version("1.0"),
        ]
    }

    /// The block `written` holds: its bytes after the header, as many as
    /// its Content-Length says.
    fn block_of(written: &Written) -> Vec<u8> {
        let bytes = written.to_bytes();
        let start = memchr::memmem::find(&bytes, b"\r\n\r\n").unwrap() + 4;
        bytes[start..bytes.len() - 4].to_vec()
    }

    #[test]
    fn every_record_of_every_container_with_its_header_and_block() {
        let written = every_type();
        let types = [
            RecordType::Warcinfo,
            RecordType::Request,
            RecordType::Response,
            RecordType::Metadata,
            RecordType::Revisit,
            RecordType::Resource,
            RecordType::Conversion,
            RecordType::Continuation,
            RecordType::Unknown("X-Mine".into()),
        ];
        for container in [
            Container::Plain,
            Container::GzipPerRecord,
            Container::GzipWhole,
            Container::Lz4PerRecord,
            Container::ZstdPerRecord,
        ] {
            let archive = Archive::warc(container.clone(), &written);
            let per_record = !matches!(container, Container::Plain | Container::GzipWhole);
            let mut records = Records::new(Source::from(archive.bytes())).unwrap();
            let mut n = 0;
            while let Some(item) = records.next_record() {
                let mut record = item.unwrap_or_else(|e| panic!("{container:?}: {e}"));
                let header = record.header().clone();
                assert_eq!(header.number(), n as u64 + 1);
                assert_eq!(header.record_type(), &types[n], "{container:?}");
                let version = if n == 8 { "1.0" } else { "1.1" };
                assert_eq!(header.version(), &Version::Warc(version.into()));
                if per_record || container == Container::Plain {
                    assert_eq!(header.offset(), archive.offsets()[n] as u64);
                }
                assert_eq!(
                    header.fields().get("warc-type"),
                    Some(types[n].as_str()),
                    "{container:?}"
                );
                let status = record.http().map(|head| head.status);
                let want = match n {
                    2 => Some(200),
                    4 => Some(304),
                    _ => None,
                };
                assert_eq!(status, want, "{container:?}: record {n}");
                let block = record.read_block(usize::MAX).unwrap();
                assert_eq!(&block[..], &block_of(&written[n])[..], "{container:?}");
                assert_eq!(record.end(), BlockEnd::Whole);
                n += 1;
            }
            assert_eq!(n, written.len(), "{container:?}");
        }
    }

    #[test]
    fn a_block_reads_as_it_comes_or_is_left() {
        use std::io::Read;
        let body = "<p>".to_owned() + &"x".repeat(200_000);
        let written = [
            Written::resource("http://a.example/", "text/html", &body),
            Written::resource("http://b.example/", "text/html", "<p>b"),
            Written::resource("http://c.example/", "text/html", &body),
        ];
        let archive = Archive::warc(Container::GzipPerRecord, &written);
        let mut records = Records::new(Source::from(archive.bytes())).unwrap();
        // Read through a `Read` in small pieces.
        let mut record = records.next_record().unwrap().unwrap();
        let mut block = Vec::new();
        let mut piece = [0; 1000];
        loop {
            let n = record.block().read(&mut piece).unwrap();
            if n == 0 {
                break;
            }
            block.extend_from_slice(&piece[..n]);
        }
        assert_eq!(block, body.as_bytes());
        // Part read, the rest skipped by the next record.
        let mut record = records.next_record().unwrap().unwrap();
        let mut start = [0; 2];
        record.block().read_exact(&mut start).unwrap();
        assert_eq!(&start, b"<p");
        // Not read at all; kept to a limit: what was there is said.
        let mut record = records.next_record().unwrap().unwrap();
        assert_eq!(record.header().target_uri(), Some("http://c.example/"));
        assert_eq!(&record.read_block(3).unwrap()[..], b"<p>");
        assert_eq!(record.end(), BlockEnd::Whole);
        assert!(records.next_record().is_none());
    }

    #[test]
    fn what_is_no_record_comes_as_an_error_in_its_place() {
        let written = [
            Written::resource("http://a.example/", "text/plain", "a"),
            Written::resource("http://b.example/", "text/plain", "b"),
        ];
        let archive = Archive::warc(Container::Plain, &written);
        let bytes = archive.bytes();
        let mut broken = bytes[..archive.offsets()[1]].to_vec();
        broken.extend_from_slice(b"garbage\r\n");
        broken.extend_from_slice(&bytes[archive.offsets()[1]..]);
        // The archive ends inside the last record.
        broken.truncate(broken.len() - 5);
        let mut records = Records::new(Source::from(broken)).unwrap();
        let mut seen = Vec::new();
        while let Some(item) = records.next_record() {
            seen.push(match item {
                Ok(mut record) => format!("{:?}", record.end()),
                Err(error) => format!("{}: {}", error.kind(), error.message()),
            });
        }
        let at = archive.offsets()[1] + 9;
        assert_eq!(
            seen,
            [
                "Whole".to_owned(),
                format!(
                    "broken: 9 bytes that are not a record; skipped to the next record at offset {at} (after record 1)"
                ),
                "ArchiveEnds { read: 0, declared: 1 }".to_owned(),
                "truncated: the archive ends inside this record (0 of its 1 bytes are there)"
                    .to_owned(),
            ]
        );
    }

    #[test]
    fn a_lost_block_is_said_once_by_the_next_item() {
        use std::io::{Read, Write};
        // A record across gzip members of 64 KiB (a writer that compressed
        // the archive in blocks), the second member broken: the header
        // comes from the first, the block is lost in the second.
        let written = [
            Written::resource("http://a.example/", "text/plain", "x".repeat(200_000)),
            Written::resource("http://b.example/", "text/plain", "b"),
        ];
        let plain = Archive::warc(Container::Plain, &written).bytes();
        let mut members = Vec::new();
        for (i, block) in plain.chunks(64 << 10).enumerate() {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(block).unwrap();
            let mut member = gz.finish().unwrap();
            if i == 1 {
                // Its CRC-32 no longer matches.
                let at = member.len() - 8;
                member[at] ^= 1;
            }
            members.extend_from_slice(&member);
        }
        let mut records = Records::new(Source::from(members)).unwrap();
        let mut record = records.next_record().unwrap().unwrap();
        assert_eq!(record.header().target_uri(), Some("http://a.example/"));
        let mut block = Vec::new();
        assert!(record.block().read_to_end(&mut block).is_err());
        assert!(block.len() < 200_000);
        assert_eq!(record.end(), BlockEnd::Lost);
        assert!(record.read_block(10).is_none());
        let error = records.next_record().unwrap().unwrap_err();
        assert_eq!((error.kind(), error.record()), (ErrorKind::Broken, Some(1)));
        assert!(
            error
                .message()
                .starts_with("a record's content in a broken gzip member"),
            "{error}"
        );
    }

    #[test]
    fn arc_records_have_their_header_line_fields() {
        let archive = Archive::arc(
            Container::Plain,
            &[
                ArcRecord::version_block("x.arc", "test"),
                ArcRecord::new("http://a.example/", "text/html", "HTTP/1.0 200 OK\n\n<p>a"),
                ArcRecord::new("dns:a.example", "text/dns", "a.example. 1 IN A 1.2.3.4"),
            ],
        );
        let mut records = Records::new(Source::from(archive.bytes())).unwrap();
        let mut seen = Vec::new();
        while let Some(item) = records.next_record() {
            let mut record = item.unwrap();
            let status = record.http().map(|head| head.status);
            let header = record.header();
            assert!(header.is_arc() && header.version() == &Version::Arc(1));
            assert!(header.date().is_some() && header.record_id().is_none());
            seen.push((
                header.record_type().clone(),
                header.target_uri().map(str::to_owned),
                status,
            ));
        }
        assert_eq!(seen[0].0, RecordType::Warcinfo);
        assert_eq!(
            seen[1..],
            [
                (
                    RecordType::Response,
                    Some("http://a.example/".into()),
                    Some(200)
                ),
                (RecordType::Resource, Some("dns:a.example".into()), None)
            ]
        );
    }

    #[test]
    fn a_stream_reads_as_the_same_bytes_in_memory() {
        let written = every_type();
        for container in [
            Container::Plain,
            Container::GzipPerRecord,
            Container::ZstdPerRecord,
        ] {
            let bytes = Archive::warc(container.clone(), &written).bytes();
            let headers = |source: Source| {
                let mut records = Records::new(source).unwrap();
                let mut headers = Vec::new();
                while let Some(item) = records.next_record() {
                    headers.push(item.map(|record| record.into_header()));
                }
                headers
            };
            let stream = Source::from_reader(std::io::Cursor::new(bytes.clone()));
            assert_eq!(
                headers(stream),
                headers(Source::from(bytes)),
                "{container:?}"
            );
        }
    }
}
