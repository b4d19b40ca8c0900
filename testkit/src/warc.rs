//! Web archives written by the tests themselves, byte for byte as real
//! tools write them: WARC 1.1, 1.0, 0.18 (ClueWeb09) and 0.17 records, ARC
//! v1 and v2 files, HTTP responses with their content and transfer codings,
//! in every container readers meet (plain, gzip per record or whole, LZ4
//! frames, zstd frames, the IIPC warc-zstd format with its dictionary), and
//! damaged copies of them.
//!
//! - [`Http`]: an HTTP message (a `response` or `request` block), its header
//!   lines exactly as given, its body really encoded ([`Coding`],
//!   [`Chunked`]).
//! - [`Record`]: one WARC record; [`ArcRecord`]: one ARC record.
//! - [`Archive`]: records in a [`Container`], with where each one starts
//!   in the output, and damaged copies ([`Archive::clipped`],
//!   [`Archive::corrupted`]).
//!
//! ```
//! use testkit::warc::{Archive, Container, Http, Record};
//!
//! let page = Http::response(200, "OK")
//!     .header("Content-Type", "text/html")
//!     .body("<title>hi</title>");
//! let mut archive = Archive::new(Container::GzipPerRecord);
//! archive.push(&Record::warcinfo("software: htmltok tests\r\n"));
//! let at = archive.push(&Record::response("http://example.com/", &page));
//! let file = archive.bytes();
//! assert_eq!(&file[at.start..at.start + 2], b"\x1f\x8b");
//! ```

use std::io::Write;
use std::ops::Range;

use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
use flate2::Compression;

/// The `WARC-Date` of records that set none.
pub const DEFAULT_DATE: &str = "2026-12-03T00:00:00Z";

/// The date, in ARC's `YYYYMMDDhhmmss`, of ARC records that set none.
pub const DEFAULT_ARC_DATE: &str = "20261203000000";

// ---------------------------------------------------------------------------
// HTTP messages.

/// A content coding (`Content-Encoding`), applied for real to a body.
///
/// ```
/// use testkit::warc::Coding;
///
/// assert_eq!(Coding::XGzip.name(), "x-gzip");
/// assert_eq!(&Coding::Gzip.encode(b"hello")[..2], b"\x1f\x8b");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    /// `gzip`: one gzip member.
    Gzip,
    /// `x-gzip`: the same bytes as [`Coding::Gzip`] under the old name.
    XGzip,
    /// `deflate` as RFC 9110 means it: a zlib stream (RFC 1950).
    Deflate,
    /// `deflate` as some servers send it: raw DEFLATE (RFC 1951), no zlib
    /// wrapper, under the same name.
    DeflateRaw,
    /// `br`: brotli.
    Br,
    /// `zstd`: one zstd frame.
    Zstd,
}

impl Coding {
    /// The name in the `Content-Encoding` header.
    ///
    /// ```
    /// use testkit::warc::Coding;
    ///
    /// assert_eq!(Coding::DeflateRaw.name(), "deflate");
    /// assert_eq!(Coding::Br.name(), "br");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::XGzip => "x-gzip",
            Coding::Deflate | Coding::DeflateRaw => "deflate",
            Coding::Br => "br",
            Coding::Zstd => "zstd",
        }
    }

    /// `bytes` encoded with this coding.
    ///
    /// ```
    /// use testkit::warc::Coding;
    ///
    /// // A zlib stream starts with CMF 0x78 (deflate, 32 KiB window).
    /// assert_eq!(Coding::Deflate.encode(b"hello")[0], 0x78);
    /// ```
    pub fn encode(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Coding::Gzip | Coding::XGzip => gzip_member(bytes),
            Coding::Deflate => {
                let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
                z.write_all(bytes).unwrap();
                z.finish().unwrap()
            }
            Coding::DeflateRaw => {
                let mut d = DeflateEncoder::new(Vec::new(), Compression::default());
                d.write_all(bytes).unwrap();
                d.finish().unwrap()
            }
            Coding::Br => {
                // A middling quality, as servers compress on the fly (the
                // slow maximum is for files compressed ahead of time).
                let mut br = brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
                br.write_all(bytes).unwrap();
                br.into_inner()
            }
            Coding::Zstd => zstd::bulk::compress(bytes, 3).unwrap(),
        }
    }
}

/// `Transfer-Encoding: chunked`: the body cut into chunks of given sizes.
///
/// The body is cut into pieces of `sizes` in order (zeros skipped, the
/// last piece clipped to what is left); whatever remains after them is one
/// more chunk. Each chunk is its size in lowercase hex, the extension if
/// any, the line end, the data and the line end; then the last chunk
/// `0` (with the extension too) and an empty line, no trailer fields.
///
/// ```
/// use testkit::warc::Chunked;
///
/// let chunked = Chunked::sizes(&[3]).extension(";x=1");
/// assert_eq!(chunked.encode(b"hello"), b"3;x=1\r\nhel\r\n2;x=1\r\nlo\r\n0;x=1\r\n\r\n");
/// assert_eq!(Chunked::sizes(&[]).lf_only().encode(b"hi"), b"2\nhi\n0\n\n");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chunked {
    sizes: Vec<usize>,
    extension: String,
    lf_only: bool,
}

impl Chunked {
    /// Chunks of these sizes (then one chunk of the rest).
    ///
    /// ```
    /// use testkit::warc::Chunked;
    ///
    /// assert_eq!(Chunked::sizes(&[1, 0, 9]).encode(b"abc"), b"1\r\na\r\n2\r\nbc\r\n0\r\n\r\n");
    /// ```
    pub fn sizes(sizes: &[usize]) -> Chunked {
        Chunked {
            sizes: sizes.to_vec(),
            ..Chunked::default()
        }
    }

    /// A chunk extension written after every size, e.g. `;name=value`.
    ///
    /// ```
    /// use testkit::warc::Chunked;
    ///
    /// assert!(Chunked::sizes(&[]).extension(";a").encode(b"x").starts_with(b"1;a\r\n"));
    /// ```
    pub fn extension(mut self, extension: &str) -> Chunked {
        self.extension = extension.to_owned();
        self
    }

    /// Size lines and chunk ends in bare LF, as some servers write them.
    ///
    /// ```
    /// use testkit::warc::Chunked;
    ///
    /// assert_eq!(Chunked::sizes(&[]).lf_only().encode(b""), b"0\n\n");
    /// ```
    pub fn lf_only(mut self) -> Chunked {
        self.lf_only = true;
        self
    }

    /// `body` in chunks.
    ///
    /// ```
    /// use testkit::warc::Chunked;
    ///
    /// assert_eq!(Chunked::sizes(&[16]).encode(&[b'x'; 17])[..4], *b"10\r\n");
    /// ```
    pub fn encode(&self, body: &[u8]) -> Vec<u8> {
        let eol: &[u8] = if self.lf_only { b"\n" } else { b"\r\n" };
        let mut out = Vec::new();
        let chunk = |out: &mut Vec<u8>, data: &[u8]| {
            write!(out, "{:x}{}", data.len(), self.extension).unwrap();
            out.extend_from_slice(eol);
            if !data.is_empty() {
                out.extend_from_slice(data);
                out.extend_from_slice(eol);
            }
        };
        let mut rest = body;
        for &size in &self.sizes {
            if size == 0 || rest.is_empty() {
                continue;
            }
            let (piece, after) = rest.split_at(size.min(rest.len()));
            chunk(&mut out, piece);
            rest = after;
        }
        if !rest.is_empty() {
            chunk(&mut out, rest);
        }
        chunk(&mut out, b"");
        out.extend_from_slice(eol);
        out
    }
}

/// An HTTP message as it travels: a start line, header lines exactly as
/// given and in order, an empty line, and the body with its codings
/// applied (content codings in order, then chunking).
///
/// Header lines end in CRLF, or in bare LF after [`Http::bare_lf`] (as in
/// ClueWeb09). [`Http::content_encoding`] and [`Http::chunked`] add their
/// header line where they are called and encode the body for real; a
/// header line added by hand encodes nothing (a lying `Content-Encoding`).
///
/// ```
/// use testkit::warc::{Chunked, Coding, Http};
///
/// let http = Http::response(200, "OK")
///     .line("Content-Type:text/html")
///     .header("X-Long", "first")
///     .line("\tcontinued")
///     .body("<p>hi")
///     .content_encoding(Coding::Gzip)
///     .chunked(Chunked::sizes(&[10]));
/// let bytes = http.to_bytes();
/// assert!(bytes.starts_with(
///     b"HTTP/1.1 200 OK\r\nContent-Type:text/html\r\nX-Long: first\r\n\tcontinued\r\n\
///       Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\na\r\n\x1f\x8b"
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Http {
    start: Vec<u8>,
    lines: Vec<Vec<u8>>,
    bare_lf: bool,
    body: Vec<u8>,
    codings: Vec<Coding>,
    chunked: Option<Chunked>,
    cut: Option<usize>,
}

impl Http {
    /// A response: `HTTP/1.1 {status} {reason}`.
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// assert_eq!(Http::response(404, "Not Found").to_bytes(), b"HTTP/1.1 404 Not Found\r\n\r\n");
    /// ```
    pub fn response(status: u16, reason: &str) -> Http {
        Http::start_line(format!("HTTP/1.1 {status} {reason}"))
    }

    /// A request: `{method} {target} HTTP/1.1`.
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// let get = Http::request("GET", "/a?b").header("Host", "example.com");
    /// assert_eq!(get.to_bytes(), b"GET /a?b HTTP/1.1\r\nHost: example.com\r\n\r\n");
    /// ```
    pub fn request(method: &str, target: &str) -> Http {
        Http::start_line(format!("{method} {target} HTTP/1.1"))
    }

    /// Any start line, as given (`HTTP/1.0 200`, `ICY 200 OK`, ...).
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// assert_eq!(Http::start_line("HTTP/1.0 200").to_bytes(), b"HTTP/1.0 200\r\n\r\n");
    /// ```
    pub fn start_line(line: impl AsRef<[u8]>) -> Http {
        Http {
            start: line.as_ref().to_vec(),
            lines: Vec::new(),
            bare_lf: false,
            body: Vec::new(),
            codings: Vec::new(),
            chunked: None,
            cut: None,
        }
    }

    /// A header line `{name}: {value}`.
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// let http = Http::response(200, "OK").header("Content-Type", "text/html");
    /// assert!(http.to_bytes().ends_with(b"\r\nContent-Type: text/html\r\n\r\n"));
    /// ```
    pub fn header(self, name: &str, value: &str) -> Http {
        self.line(format!("{name}: {value}"))
    }

    /// A header line exactly as given: odd spacing (`Content-Type:text/html`),
    /// a folded continuation (` more`), bytes that are not UTF-8, anything.
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// let http = Http::response(200, "OK").line(b"Server:\xff");
    /// assert!(http.to_bytes().ends_with(b"\r\nServer:\xff\r\n\r\n"));
    /// ```
    pub fn line(mut self, line: impl AsRef<[u8]>) -> Http {
        self.lines.push(line.as_ref().to_vec());
        self
    }

    /// The body before any coding.
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// assert!(Http::response(200, "OK").body("hi").to_bytes().ends_with(b"\r\n\r\nhi"));
    /// ```
    pub fn body(mut self, body: impl AsRef<[u8]>) -> Http {
        self.body = body.as_ref().to_vec();
        self
    }

    /// Adds `Content-Encoding: {coding}` here and encodes the body with it
    /// (after the codings added before it).
    ///
    /// ```
    /// use testkit::warc::{Coding, Http};
    ///
    /// let http = Http::response(200, "OK").body("hi").content_encoding(Coding::Br);
    /// let bytes = http.to_bytes();
    /// let at = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    /// assert_eq!(bytes[at..], Coding::Br.encode(b"hi"));
    /// ```
    pub fn content_encoding(mut self, coding: Coding) -> Http {
        self.codings.push(coding);
        self.header("Content-Encoding", coding.name())
    }

    /// Adds `Transfer-Encoding: chunked` here and sends the (content-coded)
    /// body in these chunks.
    ///
    /// ```
    /// use testkit::warc::{Chunked, Http};
    ///
    /// let http = Http::response(200, "OK").body("hi").chunked(Chunked::sizes(&[]));
    /// assert!(http.to_bytes().ends_with(b"chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"));
    /// ```
    pub fn chunked(mut self, chunked: Chunked) -> Http {
        self.chunked = Some(chunked);
        self.header("Transfer-Encoding", "chunked")
    }

    /// Start line, header lines and the empty line end in bare LF.
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// let http = Http::response(200, "OK").header("A", "b").bare_lf().body("x");
    /// assert_eq!(http.to_bytes(), b"HTTP/1.1 200 OK\nA: b\n\nx");
    /// ```
    pub fn bare_lf(mut self) -> Http {
        self.bare_lf = true;
        self
    }

    /// Keeps only the first `n` bytes of the body as sent (codings
    /// applied): a connection that closed early, whose crawler stored what
    /// came. Header lines stay as given (a `Content-Length` of the whole
    /// body, say).
    ///
    /// ```
    /// use testkit::warc::{Coding, Http};
    ///
    /// let http = Http::response(200, "OK").body("hello").content_encoding(Coding::Gzip);
    /// let whole = http.encoded_body();
    /// assert_eq!(http.header("Content-Length", &whole.len().to_string()).cut_after(4).encoded_body(), whole[..4]);
    /// ```
    pub fn cut_after(mut self, n: usize) -> Http {
        self.cut = Some(n);
        self
    }

    /// The body as sent: content codings applied, then chunking.
    ///
    /// ```
    /// use testkit::warc::{Coding, Http};
    ///
    /// let http = Http::response(200, "OK").body("hi").content_encoding(Coding::Zstd);
    /// assert_eq!(http.encoded_body(), Coding::Zstd.encode(b"hi"));
    /// ```
    pub fn encoded_body(&self) -> Vec<u8> {
        let mut body = self.body.clone();
        for coding in &self.codings {
            body = coding.encode(&body);
        }
        let mut sent = match &self.chunked {
            Some(chunked) => chunked.encode(&body),
            None => body,
        };
        sent.truncate(self.cut.unwrap_or(usize::MAX));
        sent
    }

    /// The whole message.
    ///
    /// ```
    /// use testkit::warc::Http;
    ///
    /// let http = Http::response(200, "OK").header("A", "b").body("x");
    /// assert_eq!(http.to_bytes(), b"HTTP/1.1 200 OK\r\nA: b\r\n\r\nx");
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let eol: &[u8] = if self.bare_lf { b"\n" } else { b"\r\n" };
        let mut out = self.start.clone();
        out.extend_from_slice(eol);
        for line in &self.lines {
            out.extend_from_slice(line);
            out.extend_from_slice(eol);
        }
        out.extend_from_slice(eol);
        out.extend_from_slice(&self.encoded_body());
        out
    }
}

// ---------------------------------------------------------------------------
// WARC records.

/// A WARC header field's value; the automatic ones are filled in when the
/// record is written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Text(String),
    /// `<urn:uuid:...>` from the record's number in its archive.
    Id,
    /// The block's length.
    Length,
    /// The identical-payload-digest profile of the record's version.
    Profile,
}

/// One WARC record: the version line, header fields in order (each line
/// ending in CRLF), an empty line, the block, and the record end (CRLF
/// CRLF).
///
/// Constructors set `WARC-Type`, `WARC-Record-ID` (numbered by the
/// [`Archive`] unless [`Record::id`] sets it), `WARC-Date`
/// ([`DEFAULT_DATE`]), `WARC-Target-URI` where the type has one, and
/// `Content-Type` and `Content-Length` (computed unless
/// [`Record::content_length`] lies). A new field goes before
/// `Content-Type`/`Content-Length`; a field set again keeps its place.
///
/// A ClueWeb09 record (WARC/0.18 as Nutch wrote it), its HTTP headers in
/// bare LF:
///
/// ```
/// use testkit::warc::{Http, Record};
///
/// let http = Http::response(200, "OK")
///     .header("Content-Type", "text/html")
///     .bare_lf()
///     .body("<p>hi");
/// let record = Record::response("http://example.com/", &http)
///     .version("0.18")
///     .field("WARC-TREC-ID", "clueweb09-en0000-00-00000")
///     .field("Content-Type", "application/http;msgtype=response");
/// let bytes = record.to_bytes();
/// assert!(bytes.starts_with(b"WARC/0.18\r\nWARC-Type: response\r\n"));
/// assert!(bytes.ends_with(
///     b"WARC-TREC-ID: clueweb09-en0000-00-00000\r\n\
///       Content-Type: application/http;msgtype=response\r\nContent-Length: 46\r\n\r\n\
///       HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>hi\r\n\r\n"
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    version: String,
    fields: Vec<(String, Value)>,
    block: Vec<u8>,
    end: Vec<u8>,
}

impl Record {
    /// A record of any `WARC-Type`, with an empty block and no
    /// `Content-Type`.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::new("continuation").id("00000000-0000-4000-8000-000000000001");
    /// assert_eq!(
    ///     record.to_bytes(),
    ///     b"WARC/1.1\r\nWARC-Type: continuation\r\n\
    ///       WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n\
    ///       WARC-Date: 2026-12-03T00:00:00Z\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
    /// );
    /// ```
    pub fn new(kind: &str) -> Record {
        Record {
            version: "1.1".to_owned(),
            fields: vec![
                ("WARC-Type".to_owned(), Value::Text(kind.to_owned())),
                ("WARC-Record-ID".to_owned(), Value::Id),
                ("WARC-Date".to_owned(), Value::Text(DEFAULT_DATE.to_owned())),
                ("Content-Length".to_owned(), Value::Length),
            ],
            block: Vec::new(),
            end: b"\r\n\r\n".to_vec(),
        }
    }

    /// A `response`: the HTTP response is the block,
    /// `Content-Type: application/http; msgtype=response`.
    ///
    /// ```
    /// use testkit::warc::{Http, Record};
    ///
    /// let record = Record::response("http://example.com/", &Http::response(204, "No Content"));
    /// assert!(record.to_bytes().ends_with(
    ///     b"WARC-Target-URI: http://example.com/\r\n\
    ///       Content-Type: application/http; msgtype=response\r\nContent-Length: 27\r\n\r\n\
    ///       HTTP/1.1 204 No Content\r\n\r\n\r\n\r\n"
    /// ));
    /// ```
    pub fn response(uri: &str, http: &Http) -> Record {
        Record::new("response")
            .uri(uri)
            .content_type("application/http; msgtype=response")
            .block(http.to_bytes())
    }

    /// A `request`: `Content-Type: application/http; msgtype=request`.
    ///
    /// ```
    /// use testkit::warc::{Http, Record};
    ///
    /// let record = Record::request("http://example.com/", &Http::request("GET", "/"));
    /// let bytes = record.to_bytes();
    /// assert!(bytes.ends_with(b"msgtype=request\r\nContent-Length: 18\r\n\r\nGET / HTTP/1.1\r\n\r\n\r\n\r\n"));
    /// ```
    pub fn request(uri: &str, http: &Http) -> Record {
        Record::new("request")
            .uri(uri)
            .content_type("application/http; msgtype=request")
            .block(http.to_bytes())
    }

    /// A `resource`: the page itself, under its own `Content-Type`.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::resource("file:///a.html", "text/html", "<p>hi");
    /// assert!(record.to_bytes().ends_with(b"Content-Type: text/html\r\nContent-Length: 5\r\n\r\n<p>hi\r\n\r\n"));
    /// ```
    pub fn resource(uri: &str, content_type: &str, body: impl AsRef<[u8]>) -> Record {
        Record::new("resource")
            .uri(uri)
            .content_type(content_type)
            .block(body)
    }

    /// A `metadata` record about `uri`.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::metadata("http://example.com/", "application/warc-fields", "via: x\r\n");
    /// assert!(record.to_bytes().starts_with(b"WARC/1.1\r\nWARC-Type: metadata\r\n"));
    /// ```
    pub fn metadata(uri: &str, content_type: &str, body: impl AsRef<[u8]>) -> Record {
        Record::new("metadata")
            .uri(uri)
            .content_type(content_type)
            .block(body)
    }

    /// A `warcinfo`: `Content-Type: application/warc-fields`, no target URI.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::warcinfo("software: tests\r\n");
    /// assert!(record.to_bytes().ends_with(
    ///     b"Content-Type: application/warc-fields\r\nContent-Length: 17\r\n\r\nsoftware: tests\r\n\r\n\r\n"
    /// ));
    /// ```
    pub fn warcinfo(fields: impl AsRef<[u8]>) -> Record {
        Record::new("warcinfo")
            .content_type("application/warc-fields")
            .block(fields)
    }

    /// A `revisit` of `refers_to_uri` as captured at `refers_to_date`, under
    /// the identical-payload-digest profile of the record's version
    /// (`http://netpreserve.org/warc/1.1/revisit/identical-payload-digest`
    /// for 1.1). Its block is empty; give it the HTTP headers with
    /// [`Record::http_block`].
    ///
    /// ```
    /// use testkit::warc::{Http, Record};
    ///
    /// let record = Record::revisit("http://example.com/", "http://example.com/", "2026-01-01T00:00:00Z")
    ///     .field("WARC-Payload-Digest", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    /// let bytes = record.to_bytes();
    /// assert!(bytes.ends_with(
    ///     b"WARC-Target-URI: http://example.com/\r\n\
    ///       WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n\
    ///       WARC-Refers-To-Target-URI: http://example.com/\r\n\
    ///       WARC-Refers-To-Date: 2026-01-01T00:00:00Z\r\n\
    ///       WARC-Payload-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ\r\n\
    ///       Content-Length: 0\r\n\r\n\r\n\r\n"
    /// ));
    /// let with_headers = record.http_block(&Http::response(200, "OK").header("Content-Type", "text/html"));
    /// assert!(with_headers.to_bytes().ends_with(b"\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n\r\n\r\n"));
    /// ```
    pub fn revisit(uri: &str, refers_to_uri: &str, refers_to_date: &str) -> Record {
        let mut record = Record::new("revisit").uri(uri);
        record.set("WARC-Profile", Value::Profile);
        record
            .field("WARC-Refers-To-Target-URI", refers_to_uri)
            .field("WARC-Refers-To-Date", refers_to_date)
    }

    /// The HTTP message as the block, with
    /// `Content-Type: application/http; msgtype=response` (for a `revisit`
    /// or a hand-made record).
    ///
    /// ```
    /// use testkit::warc::{Http, Record};
    ///
    /// let record = Record::new("response").http_block(&Http::response(200, "OK"));
    /// assert!(record.to_bytes().ends_with(b"msgtype=response\r\nContent-Length: 19\r\n\r\nHTTP/1.1 200 OK\r\n\r\n\r\n\r\n"));
    /// ```
    pub fn http_block(self, http: &Http) -> Record {
        self.content_type("application/http; msgtype=response")
            .block(http.to_bytes())
    }

    /// The version line's version: `1.1` (the default), `1.0`, `0.18`,
    /// `0.17`, or anything else.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// assert!(Record::warcinfo("").version("0.17").to_bytes().starts_with(b"WARC/0.17\r\n"));
    /// ```
    pub fn version(mut self, version: &str) -> Record {
        self.version = version.to_owned();
        self
    }

    /// Sets a header field: in its place if the record has it, else before
    /// `Content-Type`/`Content-Length`.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::resource("http://a/", "text/plain", "abc").field("WARC-Truncated", "length");
    /// assert!(record.to_bytes().ends_with(b"WARC-Truncated: length\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"));
    /// ```
    pub fn field(mut self, name: &str, value: &str) -> Record {
        self.set(name, Value::Text(value.to_owned()));
        self
    }

    /// Removes a header field (to write a record that lacks one).
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::warcinfo("").without("WARC-Date");
    /// assert!(!record.to_bytes().windows(9).any(|w| w == b"WARC-Date"));
    /// ```
    pub fn without(mut self, name: &str) -> Record {
        self.fields.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self
    }

    /// `WARC-Target-URI`.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::new("resource").uri("http://a/");
    /// assert!(record.to_bytes().ends_with(b"WARC-Target-URI: http://a/\r\nContent-Length: 0\r\n\r\n\r\n\r\n"));
    /// ```
    pub fn uri(self, uri: &str) -> Record {
        self.field("WARC-Target-URI", uri)
    }

    /// `WARC-Record-ID: <urn:uuid:{uuid}>`.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::warcinfo("").id("12345678-90ab-4cde-8f01-234567890abc");
    /// let id = b"WARC-Record-ID: <urn:uuid:12345678-90ab-4cde-8f01-234567890abc>\r\n";
    /// assert!(record.to_bytes().windows(id.len()).any(|w| w == id));
    /// ```
    pub fn id(self, uuid: &str) -> Record {
        self.field("WARC-Record-ID", &format!("<urn:uuid:{uuid}>"))
    }

    /// `WARC-Date`.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::warcinfo("").date("2009-03-65T08:43:19-0800");
    /// let date = b"\r\nWARC-Date: 2009-03-65T08:43:19-0800\r\n";
    /// assert!(record.to_bytes().windows(date.len()).any(|w| w == date));
    /// ```
    pub fn date(self, date: &str) -> Record {
        self.field("WARC-Date", date)
    }

    /// `Content-Type` of the block.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::new("resource").content_type("image/png");
    /// assert!(record.to_bytes().ends_with(b"Content-Type: image/png\r\nContent-Length: 0\r\n\r\n\r\n\r\n"));
    /// ```
    pub fn content_type(self, content_type: &str) -> Record {
        self.field("Content-Type", content_type)
    }

    /// The block; `Content-Length` is its length unless overridden.
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::new("resource").block("four");
    /// assert!(record.to_bytes().ends_with(b"Content-Length: 4\r\n\r\nfour\r\n\r\n"));
    /// ```
    pub fn block(mut self, block: impl AsRef<[u8]>) -> Record {
        self.block = block.as_ref().to_vec();
        self
    }

    /// A `Content-Length` of `length` whatever the block's length (a lie,
    /// as a truncating or buggy writer leaves).
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// let record = Record::new("resource").block("four").content_length(400);
    /// assert!(record.to_bytes().ends_with(b"Content-Length: 400\r\n\r\nfour\r\n\r\n"));
    /// ```
    pub fn content_length(self, length: usize) -> Record {
        self.field("Content-Length", &length.to_string())
    }

    /// What follows the block instead of CRLF CRLF (nothing, bare LFs, ...).
    ///
    /// ```
    /// use testkit::warc::Record;
    ///
    /// assert!(Record::new("resource").block("x").end("\n").to_bytes().ends_with(b"\r\n\r\nx\n"));
    /// ```
    pub fn end(mut self, end: impl AsRef<[u8]>) -> Record {
        self.end = end.as_ref().to_vec();
        self
    }

    /// The record's bytes, its automatic `WARC-Record-ID` numbered 0 (in an
    /// [`Archive`] the number is the record's position).
    ///
    /// ```
    /// use testkit::warc::{record_id, Record};
    ///
    /// let bytes = Record::warcinfo("").to_bytes();
    /// let id = format!("WARC-Record-ID: {}\r\n", record_id(0));
    /// assert!(bytes.windows(id.len()).any(|w| w == id.as_bytes()));
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_numbered(0)
    }

    /// The record's bytes, an automatic `WARC-Record-ID` being
    /// [`record_id`]`(n)`.
    ///
    /// ```
    /// use testkit::warc::{record_id, Record};
    ///
    /// let bytes = Record::warcinfo("").to_bytes_numbered(7);
    /// let id = record_id(7);
    /// assert!(bytes.windows(id.len()).any(|w| w == id.as_bytes()));
    /// ```
    pub fn to_bytes_numbered(&self, n: usize) -> Vec<u8> {
        let mut out = format!("WARC/{}\r\n", self.version).into_bytes();
        for (name, value) in &self.fields {
            let value = match value {
                Value::Text(text) => text.clone(),
                Value::Id => record_id(n),
                Value::Length => self.block.len().to_string(),
                Value::Profile => format!(
                    "http://netpreserve.org/warc/{}/revisit/identical-payload-digest",
                    self.version
                ),
            };
            write!(out, "{name}: {value}\r\n").unwrap();
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.block);
        out.extend_from_slice(&self.end);
        out
    }

    fn set(&mut self, name: &str, value: Value) {
        if let Some(field) = self
            .fields
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            field.1 = value;
            return;
        }
        let at = self
            .fields
            .iter()
            .position(|(n, _)| {
                n.eq_ignore_ascii_case("Content-Type") || n.eq_ignore_ascii_case("Content-Length")
            })
            .unwrap_or(self.fields.len());
        self.fields.insert(at, (name.to_owned(), value));
    }
}

/// The automatic `WARC-Record-ID` of the record numbered `n`:
/// `<urn:uuid:00000000-0000-4000-8000-{n:012}>`.
///
/// ```
/// use testkit::warc::record_id;
///
/// assert_eq!(record_id(12), "<urn:uuid:00000000-0000-4000-8000-000000000012>");
/// ```
pub fn record_id(n: usize) -> String {
    format!("<urn:uuid:00000000-0000-4000-8000-{n:012}>")
}

// ---------------------------------------------------------------------------
// ARC records.

/// One ARC record: the header line `URL IP-address Archive-date
/// Content-type Archive-length` (ARC v1; v2 puts `Result-code Checksum
/// Location Offset Filename` before the length) ending in LF, `length`
/// bytes of content (for an http URL the whole HTTP response), and an LF.
///
/// ```
/// use testkit::warc::{ArcRecord, Http};
///
/// let http = Http::response(200, "OK").header("Content-Type", "text/html").body("hi");
/// let record = ArcRecord::new("http://example.com/", "text/html", http.to_bytes()).ip("93.184.216.34");
/// assert_eq!(
///     record.to_bytes(),
///     b"http://example.com/ 93.184.216.34 20261203000000 text/html 46\n\
///       HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nhi\n"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArcRecord {
    url: String,
    ip: String,
    date: String,
    content_type: String,
    v2: Option<[String; 5]>,
    content: Vec<u8>,
    length: Option<usize>,
}

impl ArcRecord {
    /// A record of `content` fetched from `url`, from IP `192.0.2.1` at
    /// [`DEFAULT_ARC_DATE`].
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// let record = ArcRecord::new("dns:example.com", "text/dns", "x");
    /// assert_eq!(record.to_bytes(), b"dns:example.com 192.0.2.1 20261203000000 text/dns 1\nx\n");
    /// ```
    pub fn new(url: &str, content_type: &str, content: impl AsRef<[u8]>) -> ArcRecord {
        ArcRecord {
            url: url.to_owned(),
            ip: "192.0.2.1".to_owned(),
            date: DEFAULT_ARC_DATE.to_owned(),
            content_type: content_type.to_owned(),
            v2: None,
            content: content.as_ref().to_vec(),
            length: None,
        }
    }

    /// The ARC v1 version block that starts a file: `filedesc://{name}`
    /// from `0.0.0.0`, `text/plain`, its content `1 0 {origin}` and the
    /// line naming the URL record's fields (Heritrix puts its XML metadata
    /// after them: build that one with [`ArcRecord::new`]). Its length
    /// counts the last LF; pywb's count one less and write the same bytes:
    /// [`ArcRecord::length`] of 63 for the example below.
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// assert_eq!(
    ///     ArcRecord::version_block("a.arc", "Org").to_bytes(),
    ///     b"filedesc://a.arc 0.0.0.0 20261203000000 text/plain 64\n\
    ///       1 0 Org\nURL IP-address Archive-date Content-type Archive-length\n\n"
    /// );
    /// ```
    pub fn version_block(name: &str, origin: &str) -> ArcRecord {
        let content =
            format!("1 0 {origin}\nURL IP-address Archive-date Content-type Archive-length\n");
        ArcRecord::new(&format!("filedesc://{name}"), "text/plain", content).ip("0.0.0.0")
    }

    /// The ARC v2 version block: v2 fields (`200 - - 0 {name}`) in its
    /// header line, `2 0 {origin}`, and the v2 field names.
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// let bytes = ArcRecord::version_block_v2("a.arc", "Org").to_bytes();
    /// assert!(bytes.starts_with(b"filedesc://a.arc 0.0.0.0 20261203000000 text/plain 200 - - 0 a.arc 110\n2 0 Org\n"));
    /// ```
    pub fn version_block_v2(name: &str, origin: &str) -> ArcRecord {
        let content = format!(
            "2 0 {origin}\nURL IP-address Archive-date Content-type Result-code Checksum \
             Location Offset Filename Archive-length\n"
        );
        ArcRecord::new(&format!("filedesc://{name}"), "text/plain", content)
            .ip("0.0.0.0")
            .v2("200", "-", "-", 0, name)
    }

    /// The IP address field.
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// assert!(ArcRecord::new("http://a/", "text/html", "").ip("10.0.0.1").to_bytes().starts_with(b"http://a/ 10.0.0.1 "));
    /// ```
    pub fn ip(mut self, ip: &str) -> ArcRecord {
        self.ip = ip.to_owned();
        self
    }

    /// The archive date, `YYYYMMDDhhmmss`.
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// let record = ArcRecord::new("http://a/", "text/html", "").date("19961104142103");
    /// assert!(record.to_bytes().starts_with(b"http://a/ 192.0.2.1 19961104142103 "));
    /// ```
    pub fn date(mut self, date: &str) -> ArcRecord {
        self.date = date.to_owned();
        self
    }

    /// An ARC v2 header line: these fields between the content type and the
    /// length.
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// let record = ArcRecord::new("http://a/", "text/html", "x").v2("200", "ABC", "-", 1234, "a.arc");
    /// assert_eq!(record.to_bytes(), b"http://a/ 192.0.2.1 20261203000000 text/html 200 ABC - 1234 a.arc 1\nx\n");
    /// ```
    pub fn v2(
        mut self,
        result_code: &str,
        checksum: &str,
        location: &str,
        offset: u64,
        filename: &str,
    ) -> ArcRecord {
        self.v2 = Some([
            result_code.to_owned(),
            checksum.to_owned(),
            location.to_owned(),
            offset.to_string(),
            filename.to_owned(),
        ]);
        self
    }

    /// A length field of `length` whatever the content's length.
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// assert!(ArcRecord::new("http://a/", "text/html", "x").length(9).to_bytes().ends_with(b" 9\nx\n"));
    /// ```
    pub fn length(mut self, length: usize) -> ArcRecord {
        self.length = Some(length);
        self
    }

    /// The record's bytes.
    ///
    /// ```
    /// use testkit::warc::ArcRecord;
    ///
    /// assert!(ArcRecord::new("http://a/", "text/html", "hi").to_bytes().ends_with(b" text/html 2\nhi\n"));
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{} {} {} {}",
            self.url, self.ip, self.date, self.content_type
        );
        if let Some(fields) = &self.v2 {
            for field in fields {
                out.push(' ');
                out.push_str(field);
            }
        }
        let length = self.length.unwrap_or(self.content.len());
        let mut out = format!("{out} {length}\n").into_bytes();
        out.extend_from_slice(&self.content);
        out.push(b'\n');
        out
    }
}

// ---------------------------------------------------------------------------
// Containers and archives.

/// A zstd dictionary (the format of RFC 8878 section 5), for
/// [`Container::ZstdDictionary`].
///
/// ```
/// use testkit::warc::ZstdDictionary;
///
/// let dictionary = ZstdDictionary::for_tests();
/// assert_eq!(&dictionary.as_bytes()[..4], b"\x37\xa4\x30\xec");
/// assert!(dictionary.id() >= 32768);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZstdDictionary(Vec<u8>);

impl ZstdDictionary {
    /// A dictionary trained by zstd on these samples (at least 8 or so:
    /// zstd refuses fewer), of at most 8 KiB; its ID is zstd's, from the
    /// dictionary's content.
    ///
    /// ```
    /// use testkit::warc::ZstdDictionary;
    ///
    /// let samples: Vec<Vec<u8>> = (0..20).map(|n| format!("<p>page {n} of the site</p>").into_bytes()).collect();
    /// let dictionary = ZstdDictionary::train(&samples);
    /// assert!(dictionary.as_bytes().len() <= 8192);
    /// ```
    pub fn train(samples: &[Vec<u8>]) -> ZstdDictionary {
        match zstd::dict::from_samples(samples, 8192) {
            Ok(bytes) => ZstdDictionary(bytes),
            Err(e) => panic!("zstd could not train a dictionary on the samples: {e}"),
        }
    }

    /// A dictionary trained on 64 small WARC response records.
    ///
    /// ```
    /// use testkit::warc::ZstdDictionary;
    ///
    /// assert_eq!(ZstdDictionary::for_tests(), ZstdDictionary::for_tests());
    /// ```
    pub fn for_tests() -> ZstdDictionary {
        let samples: Vec<Vec<u8>> = (0..64)
            .map(|n| {
                let http = Http::response(200, "OK")
                    .header("Content-Type", "text/html; charset=utf-8")
                    .header("Server", "nginx")
                    .body(format!(
                        "<!doctype html><html><head><title>Page {n}</title></head>\
                         <body><p>Paragraph {n} of the test site.</p></body></html>"
                    ));
                Record::response(&format!("http://example.com/{n}"), &http).to_bytes_numbered(n)
            })
            .collect();
        ZstdDictionary::train(&samples)
    }

    /// The same dictionary under another ID (the ID is a header field; `0`
    /// makes zstd leave it out of the frames).
    ///
    /// ```
    /// use testkit::warc::ZstdDictionary;
    ///
    /// assert_eq!(ZstdDictionary::for_tests().with_id(200).id(), 200);
    /// ```
    pub fn with_id(mut self, id: u32) -> ZstdDictionary {
        self.0[4..8].copy_from_slice(&id.to_le_bytes());
        self
    }

    /// The dictionary ID (bytes 4..8, little-endian).
    ///
    /// ```
    /// use testkit::warc::ZstdDictionary;
    ///
    /// let dictionary = ZstdDictionary::for_tests();
    /// assert_eq!(dictionary.id().to_le_bytes(), dictionary.as_bytes()[4..8]);
    /// ```
    pub fn id(&self) -> u32 {
        u32::from_le_bytes(self.0[4..8].try_into().unwrap())
    }

    /// The dictionary's bytes.
    ///
    /// ```
    /// use testkit::warc::ZstdDictionary;
    ///
    /// assert!(ZstdDictionary::for_tests().as_bytes().len() > 256);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// How an [`Archive`] stores its records.
///
/// ```
/// use testkit::warc::{Archive, Container, Record};
///
/// let mut archive = Archive::new(Container::Lz4PerRecord);
/// archive.push(&Record::warcinfo(""));
/// assert_eq!(&archive.bytes()[..4], b"\x04\x22\x4d\x18");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Container {
    /// The records as they are (`.warc`, `.arc`).
    Plain,
    /// One gzip member per record (`.warc.gz` as the standard advises and
    /// Common Crawl writes; `.arc.gz`).
    GzipPerRecord,
    /// The whole file one gzip member.
    GzipWhole,
    /// One LZ4 frame per record (`.warc.lz4`, as FastWARC writes), with
    /// the reference library's default frame options: 64 KiB linked
    /// blocks, no checksums, no content size.
    Lz4PerRecord,
    /// One zstd frame per record, each with its content size and checksum
    /// (`.warc.zst` without a dictionary).
    ZstdPerRecord,
    /// The IIPC warc-zstd format with a dictionary: a skippable frame
    /// (magic `0x184D2A5D`, little-endian u32 length) holding the
    /// dictionary, itself zstd-compressed if `compressed`; then one zstd
    /// frame per record compressed with it, each naming its ID and with
    /// its content size and checksum.
    ZstdDictionary {
        /// The dictionary.
        dictionary: ZstdDictionary,
        /// Whether the skippable frame holds it as a zstd frame.
        compressed: bool,
    },
}

/// Records written one after another into a [`Container`], remembering
/// where each one's bytes are.
///
/// ```
/// use testkit::warc::{Archive, ArcRecord, Container, Http};
///
/// // An .arc.gz as the Internet Archive wrote it.
/// let page = Http::response(200, "OK").header("Content-Type", "text/html").body("<p>1996");
/// let archive = Archive::arc(
///     Container::GzipPerRecord,
///     &[
///         ArcRecord::version_block("IA-000001.arc", "Alexa Internet"),
///         ArcRecord::new("http://example.com/", "text/html", page.to_bytes()),
///     ],
/// );
/// assert_eq!(archive.offsets().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Archive {
    container: Container,
    /// The file so far; for [`Container::GzipWhole`] what it compresses.
    out: Vec<u8>,
    spans: Vec<Range<usize>>,
}

impl Archive {
    /// An empty archive (for [`Container::ZstdDictionary`], just the
    /// dictionary's frame).
    ///
    /// ```
    /// use testkit::warc::{Archive, Container, ZstdDictionary};
    ///
    /// let dictionary = ZstdDictionary::for_tests();
    /// let size = dictionary.as_bytes().len() as u32;
    /// let archive = Archive::new(Container::ZstdDictionary { dictionary, compressed: false });
    /// assert_eq!(archive.bytes()[..4], 0x184D2A5Du32.to_le_bytes());
    /// assert_eq!(archive.bytes()[4..8], size.to_le_bytes());
    /// ```
    pub fn new(container: Container) -> Archive {
        let mut out = Vec::new();
        if let Container::ZstdDictionary {
            dictionary,
            compressed,
        } = &container
        {
            let data = if *compressed {
                zstd_frame(dictionary.as_bytes(), None)
            } else {
                dictionary.as_bytes().to_vec()
            };
            out.extend_from_slice(&0x184D_2A5Du32.to_le_bytes());
            out.extend_from_slice(&u32::try_from(data.len()).unwrap().to_le_bytes());
            out.extend_from_slice(&data);
        }
        Archive {
            container,
            out,
            spans: Vec::new(),
        }
    }

    /// An archive of these WARC records.
    ///
    /// ```
    /// use testkit::warc::{Archive, Container, Record};
    ///
    /// let archive = Archive::warc(Container::Plain, &[Record::warcinfo(""), Record::warcinfo("")]);
    /// assert_eq!(archive.offsets()[1], Record::warcinfo("").to_bytes().len());
    /// ```
    pub fn warc(container: Container, records: &[Record]) -> Archive {
        let mut archive = Archive::new(container);
        for record in records {
            archive.push(record);
        }
        archive
    }

    /// An archive of these ARC records (the version block first, as a
    /// rule).
    ///
    /// ```
    /// use testkit::warc::{Archive, ArcRecord, Container};
    ///
    /// let archive = Archive::arc(Container::Plain, &[ArcRecord::version_block("a.arc", "Org")]);
    /// assert!(archive.bytes().starts_with(b"filedesc://a.arc "));
    /// ```
    pub fn arc(container: Container, records: &[ArcRecord]) -> Archive {
        let mut archive = Archive::new(container);
        for record in records {
            archive.push_arc(record);
        }
        archive
    }

    /// Adds a WARC record (an automatic record ID numbered by its position
    /// among the entries); returns its span (see [`Archive::spans`]).
    ///
    /// ```
    /// use testkit::warc::{record_id, Archive, Container, Record};
    ///
    /// let mut archive = Archive::new(Container::Plain);
    /// archive.push(&Record::warcinfo(""));
    /// let second = archive.push(&Record::warcinfo(""));
    /// assert_eq!(archive.bytes()[second], Record::warcinfo("").to_bytes_numbered(1));
    /// ```
    pub fn push(&mut self, record: &Record) -> Range<usize> {
        let bytes = record.to_bytes_numbered(self.spans.len());
        self.push_raw(&bytes)
    }

    /// Adds an ARC record; returns its span.
    ///
    /// ```
    /// use testkit::warc::{Archive, ArcRecord, Container};
    ///
    /// let mut archive = Archive::new(Container::Plain);
    /// let span = archive.push_arc(&ArcRecord::version_block("a.arc", "Org"));
    /// assert_eq!(span.start, 0);
    /// ```
    pub fn push_arc(&mut self, record: &ArcRecord) -> Range<usize> {
        self.push_raw(&record.to_bytes())
    }

    /// Adds any bytes as an entry of their own (a member, a frame): a
    /// broken record, garbage between records. Returns its span.
    ///
    /// ```
    /// use testkit::warc::{Archive, Container};
    ///
    /// let mut archive = Archive::new(Container::Plain);
    /// archive.push_raw(b"this is not a record\r\n\r\n");
    /// assert_eq!(archive.bytes(), b"this is not a record\r\n\r\n");
    /// ```
    pub fn push_raw(&mut self, bytes: &[u8]) -> Range<usize> {
        let encoded = match &self.container {
            Container::Plain | Container::GzipWhole => bytes.to_vec(),
            Container::GzipPerRecord => gzip_member(bytes),
            Container::Lz4PerRecord => {
                let options = lz4_flex::frame::FrameInfo::new()
                    .block_size(lz4_flex::frame::BlockSize::Max64KB)
                    .block_mode(lz4_flex::frame::BlockMode::Linked);
                let mut lz4 = lz4_flex::frame::FrameEncoder::with_frame_info(options, Vec::new());
                lz4.write_all(bytes).unwrap();
                lz4.finish().unwrap()
            }
            Container::ZstdPerRecord => zstd_frame(bytes, None),
            Container::ZstdDictionary { dictionary, .. } => zstd_frame(bytes, Some(dictionary)),
        };
        let start = self.out.len();
        self.out.extend_from_slice(&encoded);
        self.spans.push(start..self.out.len());
        start..self.out.len()
    }

    /// Each entry's bytes in [`Archive::bytes`]: its gzip member, LZ4 or
    /// zstd frame, or plain record. For [`Container::GzipWhole`], where
    /// records have no member of their own, their spans in the
    /// decompressed stream.
    ///
    /// ```
    /// use testkit::warc::{Archive, Container, Record};
    ///
    /// let archive = Archive::warc(Container::ZstdPerRecord, &[Record::warcinfo(""), Record::warcinfo("")]);
    /// let spans = archive.spans();
    /// assert_eq!((spans[0].start, spans[0].end), (0, spans[1].start));
    /// assert_eq!(spans[1].end, archive.bytes().len());
    /// ```
    pub fn spans(&self) -> &[Range<usize>] {
        &self.spans
    }

    /// Where each entry starts (see [`Archive::spans`]).
    ///
    /// ```
    /// use testkit::warc::{Archive, Container, Record};
    ///
    /// let archive = Archive::warc(Container::GzipPerRecord, &[Record::warcinfo(""), Record::warcinfo("")]);
    /// let bytes = archive.bytes();
    /// assert!(archive.offsets().iter().all(|&at| bytes[at..].starts_with(b"\x1f\x8b\x08")));
    /// ```
    pub fn offsets(&self) -> Vec<usize> {
        self.spans.iter().map(|span| span.start).collect()
    }

    /// The archive file.
    ///
    /// ```
    /// use std::io::Read;
    /// use testkit::warc::{Archive, Container, Record};
    ///
    /// let records = [Record::warcinfo("a"), Record::warcinfo("b")];
    /// let whole = Archive::warc(Container::GzipWhole, &records).bytes();
    /// let mut plain = Vec::new();
    /// flate2::read::GzDecoder::new(&whole[..]).read_to_end(&mut plain).unwrap();
    /// assert_eq!(plain, Archive::warc(Container::Plain, &records).bytes());
    /// ```
    pub fn bytes(&self) -> Vec<u8> {
        match self.container {
            Container::GzipWhole => gzip_member(&self.out),
            _ => self.out.clone(),
        }
    }

    /// The archive file cut after `at` bytes (a download or copy that
    /// stopped).
    ///
    /// ```
    /// use testkit::warc::{Archive, Container, Record};
    ///
    /// let archive = Archive::warc(Container::GzipPerRecord, &[Record::warcinfo("a"), Record::warcinfo("b")]);
    /// let last = archive.spans()[1].clone();
    /// let cut = archive.clipped(last.start + last.len() / 2);
    /// assert_eq!(cut.len(), last.start + last.len() / 2);
    /// ```
    pub fn clipped(&self, at: usize) -> Vec<u8> {
        let mut bytes = self.bytes();
        bytes.truncate(at);
        bytes
    }

    /// The archive file with entry `index` damaged inside: four bytes in the
    /// middle of its member or frame (or plain record) inverted, its header and trailer
    /// intact, every other entry as it was. A gzip or zstd decoder notices
    /// (the data no longer decodes or its checksum fails); an LZ4 frame has
    /// no checksum by default, so its record may just come out wrong.
    ///
    /// Panics for [`Container::GzipWhole`] (no member per record) and for
    /// an entry under 40 bytes.
    ///
    /// ```
    /// use testkit::warc::{Archive, Container, Record};
    ///
    /// let records = [Record::warcinfo("a"), Record::warcinfo("b"), Record::warcinfo("c")];
    /// let archive = Archive::warc(Container::GzipPerRecord, &records);
    /// let broken = archive.corrupted(1);
    /// let (good, bad) = (archive.bytes(), archive.spans()[1].clone());
    /// assert_eq!(broken[..bad.start], good[..bad.start]);
    /// assert_ne!(broken[bad.clone()], good[bad.clone()]);
    /// assert_eq!(broken[bad.end..], good[bad.end..]);
    /// ```
    pub fn corrupted(&self, index: usize) -> Vec<u8> {
        assert!(
            self.container != Container::GzipWhole,
            "a whole-file gzip has no member per record to corrupt"
        );
        let span = self.spans[index].clone();
        assert!(
            span.len() >= 40,
            "entry {index} is too small to corrupt inside"
        );
        let mut bytes = self.bytes();
        let middle = span.start + span.len() / 2;
        for byte in &mut bytes[middle - 2..middle + 2] {
            *byte = !*byte;
        }
        bytes
    }
}

/// `bytes` as one gzip member (no name, mtime 0), as the WARC standard
/// advises per record.
///
/// ```
/// use testkit::warc::gzip_member;
///
/// let member = gzip_member(b"hello");
/// assert_eq!(member[..4], *b"\x1f\x8b\x08\x00");
/// ```
pub fn gzip_member(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// One zstd frame with the content size and checksum the warc-zstd format
/// asks for, compressed with the dictionary if any.
fn zstd_frame(bytes: &[u8], dictionary: Option<&ZstdDictionary>) -> Vec<u8> {
    let mut zstd = match dictionary {
        Some(dictionary) => zstd::bulk::Compressor::with_dictionary(3, dictionary.as_bytes()),
        None => zstd::bulk::Compressor::new(3),
    }
    .unwrap();
    zstd.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))
        .unwrap();
    zstd.set_parameter(zstd::zstd_safe::CParameter::ContentSizeFlag(true))
        .unwrap();
    zstd.compress(bytes).unwrap()
}
