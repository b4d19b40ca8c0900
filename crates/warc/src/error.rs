//! What could not be read, as a typed error.

use std::fmt;
use std::io;
use std::sync::Arc;

/// Something in an archive that could not be read or is not whole, or an
/// input that could not be read at all.
///
/// Reading goes on after every kind but [`ErrorKind::Unreadable`]: the
/// [record layer](crate::Records) and the [page layer](crate::Pages) hand
/// each one on in its place, between the records around it, and resume at
/// the next record the framing allows.
///
/// ```
/// use htmltok_warc::{ErrorKind, Records, Source};
///
/// let archive = b"WARC/1.1\r\nWARC-Type: resource\r\n\r\n<p>no length\r\n\r\n".to_vec();
/// let mut records = Records::new(Source::from(archive)).unwrap();
/// let error = records.next_record().unwrap().unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::Broken);
/// assert_eq!((error.record(), error.offset()), (Some(1), Some(0)));
/// assert!(error.to_string().starts_with("record 1 (offset 0): a WARC record without a valid Content-Length"));
/// let _: &dyn std::error::Error = &error;
/// ```
#[derive(Clone, Debug)]
pub struct Error {
    pub(crate) kind: ErrorKind,
    pub(crate) record: Option<u64>,
    pub(crate) offset: Option<u64>,
    pub(crate) target_uri: Option<String>,
    pub(crate) message: String,
    pub(crate) io: Option<Arc<io::Error>>,
}

/// The kinds of [`Error`], as a summary counts them (the command line's
/// summary and the Python package's `ArchiveProblem.kind` use their
/// [names](ErrorKind::as_str)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Bytes that are not what the format says: a broken gzip member, a
    /// header without a length, bytes between records, an HTTP response
    /// whose status line cannot be read.
    Broken,
    /// A record is not whole: the archive ends inside it, or (in the page
    /// layer) it is a page cut for any [`Truncated`](crate::Truncated)
    /// reason (the page comes first, and this error, which says why, right
    /// after it: one for each such page).
    Truncated,
    /// An HTML response whose declared content coding did not apply to its
    /// bytes, which are no page as stored either
    /// ([`http::not_a_page`](crate::http::not_a_page)): a compressed stream
    /// cut before its first output, say. Its record gives no page.
    Undecodable,
    /// The input could not be read at all: it is no archive this crate
    /// reads, or reading it failed before its first record.
    Unreadable,
}

impl ErrorKind {
    /// The word for it in a summary.
    ///
    /// ```
    /// assert_eq!(htmltok_warc::ErrorKind::Undecodable.as_str(), "undecodable");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Broken => "broken",
            ErrorKind::Truncated => "truncated",
            ErrorKind::Undecodable => "undecodable",
            ErrorKind::Unreadable => "unreadable",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Error {
    /// An error of `kind` in an archive: in the record numbered `record`
    /// (`None` between records), at `offset`.
    pub(crate) fn at(
        kind: ErrorKind,
        record: Option<u64>,
        offset: u64,
        target_uri: Option<String>,
        message: String,
    ) -> Error {
        Error {
            kind,
            record,
            offset: Some(offset),
            target_uri,
            message,
            io: None,
        }
    }

    /// An input that could not be read at all.
    pub(crate) fn unreadable(message: String, io: Option<io::Error>) -> Error {
        Error {
            kind: ErrorKind::Unreadable,
            record: None,
            offset: None,
            target_uri: None,
            message,
            io: io.map(Arc::new),
        }
    }

    /// Reading the input failed before its first record.
    pub(crate) fn io(e: io::Error) -> Error {
        Error::unreadable(format!("cannot read: {e}"), Some(e))
    }

    /// Its kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The record it is in, numbered from 1, if its header could be read
    /// (an error between records names the record it follows in its
    /// [message](Error::message)).
    pub fn record(&self) -> Option<u64> {
        self.record
    }

    /// Where it is in the archive: the offset of its record (of the gzip
    /// member, LZ4 or Zstandard frame the record starts in when the
    /// archive is compressed), or of the bytes that are none. `None` for
    /// an [`ErrorKind::Unreadable`] input.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// Its record's target URI, if known.
    pub fn target_uri(&self) -> Option<&str> {
        self.target_uri.as_deref()
    }

    /// What is wrong, and where reading resumed.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where it is: `record N (offset X, URI)`, `record N (offset X)`, or
    /// `offset X` between records; empty for an unreadable input.
    ///
    /// ```
    /// use htmltok_warc::Records;
    ///
    /// let mut records = Records::new(b"WARC/1.0\r\n\r\n".to_vec().into()).unwrap();
    /// assert_eq!(records.next_record().unwrap().unwrap_err().location(), "record 1 (offset 0)");
    /// ```
    pub fn location(&self) -> String {
        match (self.record, self.offset, &self.target_uri) {
            (Some(n), Some(at), Some(uri)) => format!("record {n} (offset {at}, {uri})"),
            (Some(n), Some(at), None) => format!("record {n} (offset {at})"),
            (_, Some(at), _) => format!("offset {at}"),
            (_, None, _) => String::new(),
        }
    }

    /// `self` with `base` added to its record number.
    pub(crate) fn renumber(&mut self, base: u64) {
        if let Some(n) = &mut self.record {
            *n += base;
        }
    }
}

impl PartialEq for Error {
    /// Errors are equal when they say the same: the I/O error behind one,
    /// if any, is compared by its kind.
    fn eq(&self, other: &Error) -> bool {
        (
            self.kind,
            self.record,
            self.offset,
            &self.target_uri,
            &self.message,
        ) == (
            other.kind,
            other.record,
            other.offset,
            &other.target_uri,
            &other.message,
        ) && self.io.as_ref().map(|e| e.kind()) == other.io.as_ref().map(|e| e.kind())
    }
}

impl Eq for Error {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(_) => write!(f, "{}: {}", self.location(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::io(e)
    }
}
