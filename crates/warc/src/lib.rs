//! Web archives as real crawlers write them: every HTML page out, with
//! where it came from, and nothing lost in silence.
//!
//! htmltok-warc reads WARC (versions 0.17, 0.18, 1.0 and 1.1) and ARC v1/v2
//! archives, plain or compressed (gzip per record or whole, LZ4 frames as
//! FastWARC writes them, Zstandard frames with or without the warc-zstd
//! dictionary), recognised by their content. Each record becomes an
//! [`Event`]: a [`Page`] (an HTML `response` or `resource`, its HTTP
//! payload decoded as a browser receives it: chunked transfer coding,
//! gzip, deflate, br and zstd content codings), a record [`Skipped`] for a
//! reason, or a [`Problem`]. A broken record costs only itself: reading
//! resumes at the next record the framing allows.
//!
//! ```
//! use htmltok_warc::{Event, Reader, Source};
//!
//! let body = "<title>Hi</title>";
//! let http = format!(
//!     "HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: {}\n\n{body}",
//!     body.len()
//! );
//! let archive = format!(
//!     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\n\
//!      Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
//!     http.len()
//! );
//! let mut pages = Vec::new();
//! for event in Reader::new(Source::from(archive.into_bytes())).unwrap() {
//!     match event {
//!         Event::Page(page) => pages.push((page.record.target_uri.clone(), page.status, page.body.to_vec())),
//!         Event::Skipped(_) => {}
//!         Event::Problem(problem) => panic!("{problem}"),
//!     }
//! }
//! assert_eq!(pages, [(Some("http://example.com/".to_owned()), Some(200), body.as_bytes().to_vec())]);
//! ```
//!
//! [`segment`] reads a `.warc.gz` on several threads at once, with exactly
//! the events of reading it in order.

#[cfg(test)]
mod archive_tests;
mod bytes;
mod frames;
mod gzip;
pub mod http;
mod reader;
pub mod segment;
mod source;
mod units;

pub use bytes::{page_buffer, recycle, Bytes};
pub use gzip::{decompress as gunzip, is_gzip, GunzipError};
pub use reader::{detect, detect_bytes, Format, Kind, Options, Reader};
pub use source::Source;
pub use units::Compression;

/// What one archive record (or a stretch of bytes that is none) became.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// An HTML page.
    Page(Page),
    /// A record that holds no page, and why.
    Skipped(Skipped),
    /// Something that could not be read.
    Problem(Problem),
}

/// Where a record is in its archive, and what its header says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordInfo {
    /// Its number in the archive, from 1 (every record counts, the
    /// `warcinfo` or ARC version block too, and a record lost with its
    /// broken gzip member or frame, which its problem names).
    pub number: u64,
    /// Its offset in the archive file: of the gzip member (or LZ4 or
    /// Zstandard frame) it starts in when the archive is compressed, else
    /// of the record itself.
    pub offset: u64,
    /// The `WARC-Type`, in lower case (`response`, `resource`, ...), or
    /// `arc` for an ARC record.
    pub kind: String,
    /// The `WARC-Target-URI` (angle brackets dropped), or an ARC record's
    /// URL.
    pub target_uri: Option<String>,
    /// The `WARC-Record-ID`, as written.
    pub record_id: Option<String>,
    /// The `WARC-Date`, or an ARC record's date (`YYYYMMDDhhmmss`).
    pub date: Option<String>,
}

/// An HTML page: a `response` record's HTTP payload, or a `resource`
/// record's content.
#[derive(Debug, PartialEq, Eq)]
pub struct Page {
    /// Its record.
    pub record: RecordInfo,
    /// The payload as the browser would have received it: HTTP transfer
    /// and content codings decoded, in whatever character encoding it is
    /// in.
    pub body: Bytes,
    /// The HTTP `Content-Type` (a `resource`'s own), whose charset is the
    /// transport's: for a response, the MIME type a browser extracts from
    /// all its `Content-Type` values ([`http::Head::mime_type`]), as the
    /// first field wrote it when that says the same, else serialized
    /// (`text/html;charset=koi8-r`); `None` when no value is a MIME type.
    pub content_type: Option<String>,
    /// The HTTP status code, for a `response`.
    pub status: Option<u16>,
    /// Why the page is not whole, if it is not.
    pub truncated: Option<Truncated>,
    /// A declared coding that did not apply to the bytes (the body is then
    /// the bytes as they were before it), said in a few words. (A body so
    /// left by a content coding that is no page by [`http::not_a_page`] is
    /// no page: its record is a [`ProblemKind::Undecodable`] problem.)
    pub coding_failed: Option<String>,
    /// Whether its declared content codings were undone
    /// ([`http::ContentCoding`]); `None` when it declares none (or is not
    /// an HTTP response).
    pub content_coding: Option<http::ContentCoding>,
}

/// Why a page is not whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Truncated {
    /// The record says so (`WARC-Truncated`: `length`, `time`,
    /// `disconnect`, ...): the crawler stopped reading the page.
    Declared(String),
    /// The archive ends inside the record: `read` of its `declared` bytes
    /// are there.
    ArchiveEnds {
        /// Bytes of the record's content in the archive.
        read: u64,
        /// Its `Content-Length`.
        declared: u64,
    },
    /// Another record starts `read` bytes into the record's `declared`
    /// ones (a writer that stopped there and appended another record
    /// later, or a wrong `Content-Length`): the page is read to there.
    NextRecord {
        /// Bytes of the record's content before the other record.
        read: u64,
        /// Its `Content-Length`.
        declared: u64,
    },
    /// The record goes on past its `declared` bytes (a `Content-Length`
    /// too short): what follows them in the archive is neither the
    /// CRLF CRLF that ends a record nor another record, nor the end of
    /// its gzip member (or frame). The page is read to its
    /// `Content-Length`; the bytes after it, to the next record, are
    /// skipped with a problem that says so.
    ContentLengthShort {
        /// Its `Content-Length`.
        declared: u64,
    },
    /// The HTTP payload ends inside a chunk or a compressed stream, or
    /// before its `Content-Length` (a connection that closed early: the
    /// crawler stored what came).
    Payload,
    /// The page is larger than [`Options::max_page`]: cut there.
    TooLarge,
}

impl Truncated {
    /// What the [`ProblemKind::Truncated`] problem that follows a page cut
    /// so says (one such problem follows every page that is not whole).
    pub(crate) fn problem(&self) -> String {
        format!(
            "{} (its page is processed as far as it goes)",
            self.describe()
        )
    }

    /// A few words for a message.
    pub fn describe(&self) -> String {
        match self {
            Truncated::Declared(why) => format!("truncated by the crawler ({why})"),
            Truncated::ArchiveEnds { read, declared } => format!(
                "the archive ends inside this record ({read} of its {declared} bytes are there)"
            ),
            Truncated::NextRecord { read, declared } => format!(
                "another record starts {read} bytes into this record's {declared}: it is cut there"
            ),
            Truncated::ContentLengthShort { declared } => {
                format!("the record goes on past its Content-Length ({declared}): it is cut there")
            }
            Truncated::Payload => {
                "its HTTP payload ends inside a chunk or compressed stream, or before its Content-Length".into()
            }
            Truncated::TooLarge => "larger than the largest page read: cut there".into(),
        }
    }
}

/// A record that holds no page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its record.
    pub record: RecordInfo,
    /// Why it is no page.
    pub reason: Skip,
}

/// Why a record holds no page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Skip {
    /// A `response` or `resource` that is not HTML (an image, a PDF, a
    /// DNS lookup).
    NotHtml,
    /// A `revisit`: the page was seen before, and no payload is stored.
    Revisit,
    /// A `request`, `metadata`, `warcinfo`, `conversion` or
    /// `continuation` record, an ARC version block, or a response to a
    /// `HEAD` request (a head and no body, by definition; told by the
    /// `request` record that follows it, as warcio, warcprox, Heritrix
    /// and browser-based crawlers write them).
    NotAPage,
}

impl Skip {
    /// The word for it in a summary.
    pub fn as_str(self) -> &'static str {
        match self {
            Skip::NotHtml => "non-HTML",
            Skip::Revisit => "revisit",
            Skip::NotAPage => "request/metadata",
        }
    }
}

/// What could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The record it is in, if its header could be read (a problem
    /// between records says which record it follows).
    pub record: Option<u64>,
    /// Where it is: the offset of the record, or of the bytes that are
    /// none.
    pub offset: u64,
    /// The record's target URI, if known.
    pub target_uri: Option<String>,
    /// Broken or truncated.
    pub kind: ProblemKind,
    /// What is wrong, and where reading resumed.
    pub what: String,
}

/// The kinds of [`Problem`], as a summary counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// Bytes that are not what the format says: a broken gzip member, a
    /// header without a length, bytes between records, an HTTP response
    /// whose status line cannot be read.
    Broken,
    /// A record is not whole: the archive ends inside it, or it is a page
    /// cut for any [`Truncated`] reason (the page comes first, and this
    /// problem, which says why, right after it: one for each such page).
    Truncated,
    /// An HTML response whose declared content coding did not apply to its
    /// bytes, which are no page as stored either ([`http::not_a_page`]): a
    /// compressed stream cut before its first output, say. Its record
    /// gives no page.
    Undecodable,
}

impl ProblemKind {
    /// The word for it in a summary.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Broken => "broken",
            ProblemKind::Truncated => "truncated",
            ProblemKind::Undecodable => "undecodable",
        }
    }
}

impl Problem {
    /// Where it is: `record N (offset X, URI)`, or `offset X` between
    /// records.
    pub fn location(&self) -> String {
        match (self.record, &self.target_uri) {
            (Some(n), Some(uri)) => format!("record {n} (offset {}, {uri})", self.offset),
            (Some(n), None) => format!("record {n} (offset {})", self.offset),
            (None, _) => format!("offset {}", self.offset),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location(), self.what)
    }
}
