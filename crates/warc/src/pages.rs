//! The page layer: the HTML pages of an archive, with their provenance,
//! over the [record layer](crate::Records).
//!
//! The policy: a `response` (an ARC record of an `http:` or `https:`
//! URL) is a page when its HTTP head's MIME type, as a browser extracts
//! it, is HTML (`text/html`, `application/xhtml+xml`), or when it has
//! none and its body sniffs as HTML; a `resource` (any other ARC record)
//! when its own `Content-Type` is HTML, or sniffs so. A page's payload is
//! decoded as a browser receives it (chunked transfer coding; gzip,
//! deflate, br, zstd content codings). Every other record is
//! [`Skipped`] with its reason, and every page that is not whole is
//! followed by the [`ErrorKind::Truncated`] error that says why.

use std::io::{self, Read};

use crate::bytes::Bytes;
use crate::error::{Error, ErrorKind};
use crate::format::Format;
use crate::header::{Header, RecordType};
use crate::http;
use crate::records::{BlockEnd, Options, Record, Records};
use crate::source::Source;
use crate::stream::HEAD_PROBE;

/// What one archive record (or a stretch of bytes that is none) became.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// An HTML page.
    Page(Page),
    /// A record that holds no page, and why.
    Skipped(Skipped),
    /// Something that could not be read, or a page that is not whole (its
    /// [`ErrorKind::Truncated`] error right after it).
    Problem(Error),
}

/// An HTML page: a `response` record's HTTP payload, or a `resource`
/// record's content.
#[derive(Debug, PartialEq, Eq)]
pub struct Page {
    /// Its record's header: where it is, its type and fields (its target
    /// URI, record ID and date for the page's provenance).
    pub record: Header,
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
    /// The HTTP response's head (its status and header fields), for a
    /// `response` that is one.
    pub http: Option<http::Head>,
    /// Why the page is not whole, if it is not.
    pub truncated: Option<Truncated>,
    /// A declared coding that did not apply to the bytes (the body is then
    /// the bytes as they were before it), said in a few words. (A body so
    /// left by a content coding that is no page by [`http::not_a_page`] is
    /// no page: its record is an [`ErrorKind::Undecodable`] error.)
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
    /// The page is larger than [`Options::max_page`](crate::Options::max_page): cut there.
    TooLarge,
}

impl Truncated {
    /// What the [`ErrorKind::Truncated`] error that follows a page cut so
    /// says (one such error follows every page that is not whole).
    pub(crate) fn problem(&self) -> String {
        format!(
            "{} (its page is processed as far as it goes)",
            self.describe()
        )
    }

    /// A few words for a message.
    ///
    /// ```
    /// use htmltok_warc::Truncated;
    /// assert_eq!(Truncated::Declared("length".into()).describe(), "truncated by the crawler (length)");
    /// ```
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
    /// Its record's header.
    pub record: Header,
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
    ///
    /// ```
    /// assert_eq!(htmltok_warc::Skip::Revisit.as_str(), "revisit");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Skip::NotHtml => "non-HTML",
            Skip::Revisit => "revisit",
            Skip::NotAPage => "request/metadata",
        }
    }
}

/// An archive's HTML pages, in order, as [`Event`]s: every record a page
/// or a [`Skipped`] record, and every [`Error`] in its place.
///
/// ```
/// use htmltok_warc::{Event, Pages, Skip, Source};
/// let archive = b"WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n".to_vec();
/// let events: Vec<Event> = Pages::new(Source::from(archive)).unwrap().collect();
/// assert!(matches!(&events[..], [Event::Skipped(s)] if s.reason == Skip::NotAPage));
/// ```
#[derive(Debug)]
pub struct Pages {
    records: Records,
}

impl Pages {
    /// The pages of the archive `source`, its format told from its
    /// content (an [`ErrorKind::Unreadable`] error when it is none).
    pub fn new(source: Source) -> Result<Pages, Error> {
        Ok(Records::new(source)?.pages())
    }

    /// [`Pages::new`] with `options`.
    pub fn with_options(source: Source, options: Options) -> Result<Pages, Error> {
        Ok(Records::with_options(source, options)?.pages())
    }

    /// The pages of a stream read once, as it comes (standard input):
    /// [`Pages::new`] of [`Source::from_reader`].
    pub fn from_reader(reader: impl Read + Send + 'static) -> Result<Pages, Error> {
        Pages::new(Source::from_reader(reader))
    }

    /// Reads `source`, an archive of `format`, from `offset` (a unit
    /// start), numbering its records after `records` earlier ones.
    pub fn from_offset(
        source: Source,
        format: Format,
        offset: u64,
        records: u64,
        options: Options,
    ) -> io::Result<Pages> {
        Ok(Records::from_offset(source, format, offset, records, options)?.pages())
    }

    pub(crate) fn over(records: Records) -> Pages {
        Pages { records }
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.records.records()
    }

    /// Whether the last event left the stream at a record boundary with
    /// nothing after it (for the parallel reader: the member was whole
    /// records).
    pub(crate) fn ended_cleanly(&mut self) -> bool {
        self.records.ended_cleanly()
    }
}

impl Iterator for Pages {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        let max_page = self.records.options().max_page();
        let pool = self.records.options().pool().clone();
        loop {
            let record = match self.records.next_record()? {
                Ok(record) => record,
                Err(error) => return Some(Event::Problem(error)),
            };
            // A record that gives no event of its own (its block lost, or
            // cut: its error is queued) gives the next item.
            let policy = Policy {
                max_page,
                pool: &pool,
            };
            if let Some(event) = policy.event(record) {
                return Some(event);
            }
        }
    }
}

/// What a record's content is.
enum Content {
    /// An HTTP response.
    Http,
    /// The page itself.
    Resource,
}

/// Which records are pages, and how a page is read.
struct Policy<'p> {
    max_page: usize,
    pool: &'p crate::Pool,
}

impl Policy<'_> {
    /// The event of `record`, if it gives one by itself.
    fn event(&self, record: Record<'_>) -> Option<Event> {
        match record.header().record_type() {
            RecordType::Response => self.content(record, Content::Http),
            RecordType::Resource => self.content(record, Content::Resource),
            RecordType::Revisit => skip(record, Skip::Revisit),
            _ => skip(record, Skip::NotAPage),
        }
    }

    /// A `response` (HTTP) or `resource` record's content: a page if it
    /// is HTML, else skipped.
    fn content(&self, mut record: Record<'_>, content: Content) -> Option<Event> {
        let header = record.header();
        let length = header.content_length();
        let declared = header
            .truncated()
            .map(|why| Truncated::Declared(why.to_owned()));
        let record_type = header.content_type().map(str::to_owned);
        let probe = record.peek(HEAD_PROBE)?;
        // The first line of an `HTTP/` block that is no status line.
        let mut bad_status = None;
        // Where the probe's HTTP head ended, and its MIME type: the page's
        // head is parsed again from the page's bytes, which start with the
        // probe's, and when it ends where the probe's did it is the same
        // head (read from the same bytes), whose MIME type is not
        // extracted a second time.
        let mut probed: Option<(usize, Option<http::MimeType>)> = None;
        let (is_page, http) = match content {
            Content::Http => match http::parse_head(probe) {
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
            Content::Resource => match record_type.as_deref().filter(|ct| !ct.trim().is_empty()) {
                Some(ct) => (is_html(ct), false),
                None => (http::sniff_html(probe), false),
            },
        };
        if !is_page {
            return match (record.end(), bad_status) {
                // An HTTP response whose status line cannot be read: said,
                // not counted as a non-HTML page.
                (BlockEnd::Whole, Some(line)) => Some(Event::Problem(error_in(
                    record.header(),
                    ErrorKind::Broken,
                    format!("an HTTP response whose status line {line:?} cannot be read; skipped"),
                ))),
                (BlockEnd::Whole, None) => Some(skipped(record, Skip::NotHtml)),
                _ => None,
            };
        }
        let mut bytes = record.take_page(self.max_page)?;
        let read = record.read();
        let mut truncated = declared;
        // The error that says the page is cut, when the record layer
        // said so already (another record inside it, a Content-Length
        // too short).
        let mut said = false;
        match record.records().finish(true, truncated.is_some()) {
            BlockEnd::NextRecord { read: index, .. } => {
                // The record's bytes are those before the other record
                // (and the blank lines that end a record, if they are
                // there).
                let mut end = usize::try_from(index).map_or(bytes.len(), |i| i.min(bytes.len()));
                if bytes[..end].ends_with(b"\r\n\r\n") {
                    end -= 4;
                }
                bytes = bytes.narrow(0..end);
                truncated = Some(Truncated::NextRecord {
                    read: index,
                    declared: length,
                });
                said = true;
            }
            BlockEnd::ArchiveEnds { read, .. } => {
                truncated = Some(Truncated::ArchiveEnds {
                    read,
                    declared: length,
                });
            }
            end @ (BlockEnd::Whole | BlockEnd::ContentLengthShort { .. }) => {
                if end != BlockEnd::Whole && truncated.is_none() {
                    truncated = Some(Truncated::ContentLengthShort { declared: length });
                    said = true;
                }
                if (bytes.len() as u64) < read {
                    truncated = truncated.or(Some(Truncated::TooLarge));
                }
            }
            BlockEnd::Lost => return None,
        }
        let head = if http { http::parse_head(&bytes) } else { None };
        // Not HTTP, or (unreachable in practice: the probe was HTTP) no
        // head in the whole record.
        let Some(head) = head else {
            let (records, header) = record.into_parts();
            return Some(page(
                records,
                Page {
                    record: header,
                    body: bytes,
                    content_type: record_type,
                    status: None,
                    http: None,
                    truncated,
                    coding_failed: None,
                    content_coding: None,
                },
                said,
            ));
        };
        let body_start = head.body_start.min(bytes.len());
        let decoded = http::decode_body(&head, &bytes[body_start..], self.max_page);
        if decoded.truncated && truncated.is_none() {
            // A head and no body under a Content-Length: the response to
            // a HEAD request, when its request record says so.
            if body_start == bytes.len() && head_request_follows(&mut record) {
                return Some(skipped(record, Skip::NotAPage));
            }
            // Cut at the largest page, or by the payload's own end.
            let len = match &decoded.bytes {
                http::BodyBytes::Verbatim(range) => range.len(),
                http::BodyBytes::Decoded(bytes) => bytes.len(),
            };
            truncated = Some(if len >= self.max_page {
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
                return Some(Event::Problem(error_in(
                    record.header(),
                    ErrorKind::Undecodable,
                    what,
                )));
            }
        }
        let body = match decoded.bytes {
            http::BodyBytes::Verbatim(range) => {
                bytes.narrow(body_start + range.start..body_start + range.end)
            }
            http::BodyBytes::Decoded(decoded) => {
                bytes.recycle();
                Bytes::from(decoded).pooled(self.pool)
            }
        };
        let mime_type = match probed {
            Some((end, mime_type)) if end == head.body_start => {
                debug_assert_eq!(mime_type, head.mime_type());
                mime_type
            }
            _ => head.mime_type(),
        };
        let (records, header) = record.into_parts();
        Some(page(
            records,
            Page {
                record: header,
                body,
                content_type: head.page_content_type(mime_type),
                status: Some(head.status),
                truncated,
                coding_failed: decoded.failed,
                content_coding: decoded.content_coding,
                http: Some(head),
            },
            said,
        ))
    }
}

/// A record that holds no page, for `reason`: skipped, unless its block
/// did not end whole (its error is queued).
fn skip(mut record: Record<'_>, reason: Skip) -> Option<Event> {
    (record.end() == BlockEnd::Whole).then(|| skipped(record, reason))
}

fn skipped(record: Record<'_>, reason: Skip) -> Event {
    Event::Skipped(Skipped {
        record: record.into_header(),
        reason,
    })
}

/// An error in the record of `header`.
fn error_in(header: &Header, kind: ErrorKind, what: String) -> Error {
    Error::at(
        kind,
        Some(header.number()),
        header.offset(),
        header.target_uri().map(str::to_owned),
        what,
    )
}

/// The event of `page`; a page that is not whole is followed by the
/// error that says why (unless it was `said` already, queued), so that
/// every cut is said once, whatever cut it.
fn page(records: &mut Records, page: Page, said: bool) -> Event {
    if let (Some(cut), false) = (&page.truncated, said) {
        let error = error_in(&page.record, ErrorKind::Truncated, cut.problem());
        // Before what was queued after the record's bytes.
        records.queue_first(error);
    }
    Event::Page(page)
}

/// Whether the record after the response `record` is its `request` (its
/// `WARC-Concurrent-To` names the response, or its target URI is the
/// response's) and its method is `HEAD`.
fn head_request_follows(record: &mut Record<'_>) -> bool {
    let unbracket = |v: &str| {
        v.trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_owned()
    };
    let id = record.header().record_id().map(unbracket);
    let uri = record.header().target_uri().map(str::to_owned);
    record.records().next_header_is(|fields, block| {
        let field = |name: &str| fields.get(name).map(unbracket);
        let its_request = field("WARC-Type").is_some_and(|t| t.eq_ignore_ascii_case("request"))
            && ((id.is_some() && field("WARC-Concurrent-To") == id)
                || (uri.is_some() && field("WARC-Target-URI") == uri));
        its_request && block.starts_with(b"HEAD ")
    })
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

    fn record(headers: &str, content: &str) -> String {
        format!(
            "WARC/1.0\r\n{headers}Content-Length: {}\r\n\r\n{content}\r\n\r\n",
            content.len()
        )
    }

    fn events(archive: &[u8]) -> Vec<Event> {
        Pages::new(Source::from(archive.to_vec()))
            .unwrap()
            .collect()
    }

    fn page_of(event: &Event) -> (&str, &[u8], u64, u64) {
        match event {
            Event::Page(p) => (
                p.record.target_uri().unwrap_or(""),
                &p.body[..],
                p.record.number(),
                p.record.offset(),
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
            matches!(&got[0], Event::Skipped(s) if s.reason == Skip::NotAPage && s.record.number() == 1)
        );
        assert_eq!(
            page_of(&got[1]),
            ("http://a.example/", &b"<p>a"[..], 2, info.len() as u64)
        );
        assert!(
            matches!(&got[2], Event::Skipped(s) if s.reason == Skip::NotHtml && s.record.offset() == (info.len() + page.len()) as u64)
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
                assert_eq!(p.kind(), ErrorKind::Broken);
                assert_eq!(p.record(), None);
                assert!(p.message().contains("after record 1"), "{p}");
                assert_eq!(p.offset(), Some(a.len() as u64));
                assert!(
                    p.message()
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
            matches!(&got[0], Event::Problem(p) if p.message().contains("Content-Length") && p.message().contains(&next)),
            "{got:?}"
        );
        assert_eq!(page_of(&got[1]).1, b"<p>b");
        assert_eq!(got.len(), 2);
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
                assert_eq!(cut.kind(), ErrorKind::Truncated);
                assert!(cut
                    .message()
                    .starts_with("the archive ends inside this record"));
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
            matches!(&got[..], [Event::Problem(p)] if p.kind() == ErrorKind::Truncated),
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
            page.record.target_uri().unwrap().to_owned()
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
    }

    #[test]
    fn anything_else_is_not_an_archive() {
        for bytes in [b"<html>".to_vec(), Vec::new()] {
            let error = Pages::new(Source::from(bytes)).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::Unreadable);
            assert_eq!(
                error.to_string(),
                "not a WARC or ARC archive (nor one compressed with gzip, LZ4 or Zstandard)"
            );
        }
    }
}
