//! HTTP payloads as a browser receives them.
//!
//! A WARC `response` record's block is a whole HTTP response as some tool
//! wrote it down: [`parse_head`] reads its status line and header fields
//! (CRLF or bare LF, folded lines, odd spacing), and [`decode_body`] undoes
//! the transfer and content codings (`chunked`, `gzip`, `deflate`, `br`,
//! `zstd`) the way browsers and warcio do, falling back to the raw bytes
//! when a declared coding does not apply. [`sniff_html`] is the MIME
//! Sniffing standard's HTML test for bodies that come with no type.
//!
//! ```
//! use htmltok_warc::http::{decode_body, parse_head};
//!
//! let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\
//!               Transfer-Encoding: chunked\r\n\r\n5\r\n<p>hi\r\n0\r\n\r\n";
//! let head = parse_head(block).unwrap();
//! assert_eq!(head.status, 200);
//! assert_eq!(head.content_type(), Some("text/html"));
//! let body = &block[head.body_start..];
//! let decoded = decode_body(&head, body, 1 << 20);
//! assert_eq!(decoded.bytes.bytes(body), b"<p>hi");
//! assert_eq!((decoded.failed, decoded.truncated), (None, false));
//! ```

use std::io::Read;
use std::ops::Range;

use flate2::{Decompress, FlushDecompress, Status};
use memchr::memchr;

/// The head of an HTTP response message.
///
/// ```
/// use htmltok_warc::http::parse_head;
///
/// let block = b"HTTP/1.0 404 Not Found\nServer : x\n  y\n\nbody";
/// let head = parse_head(block).unwrap();
/// assert_eq!(head.status, 404);
/// assert_eq!(head.headers, [("Server".to_string(), "x y".to_string())]);
/// assert_eq!(head.get("server"), Some("x y"));
/// assert_eq!(&block[head.body_start..], b"body");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The status line's code (e.g. 200, 404).
    pub status: u16,
    /// Header fields in order: names as written (trimmed), values trimmed,
    /// obs-folded continuation lines joined to the value with one space.
    pub headers: Vec<(String, String)>,
    /// Where the body starts in the block given to `parse_head`.
    pub body_start: usize,
}

impl Head {
    /// The first field named `name` (ASCII case-insensitive).
    ///
    /// ```
    /// use htmltok_warc::http::parse_head;
    ///
    /// let head = parse_head(b"HTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2\r\n\r\n").unwrap();
    /// assert_eq!(head.get("X-a"), Some("1"));
    /// assert_eq!(head.get("X-B"), None);
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The first `Content-Type` field's value, as written.
    ///
    /// ```
    /// use htmltok_warc::http::parse_head;
    ///
    /// let head = parse_head(b"HTTP/1.1 200 OK\ncontent-type:text/html; charset=utf-8\n\n").unwrap();
    /// assert_eq!(head.content_type(), Some("text/html; charset=utf-8"));
    /// ```
    pub fn content_type(&self) -> Option<&str> {
        self.get("Content-Type")
    }

    /// The codings listed by every field named `name` (`Transfer-Encoding`,
    /// `Content-Encoding`), in order, lower-cased, empty items dropped:
    /// several fields of one name are one comma-separated list.
    ///
    /// ```
    /// use htmltok_warc::http::parse_head;
    ///
    /// let head = parse_head(b"HTTP/1.1 200 OK\nContent-Encoding: GZIP,\nContent-Encoding: br\n\n").unwrap();
    /// assert_eq!(head.codings("content-encoding"), ["gzip", "br"]);
    /// ```
    pub fn codings(&self, name: &str) -> Vec<String> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .flat_map(|(_, v)| v.split(','))
            .map(|c| c.trim_matches([' ', '\t']).to_ascii_lowercase())
            .filter(|c| !c.is_empty())
            .collect()
    }
}

/// Parses the head of the HTTP response at the start of `block`; `None` when
/// `block` does not start with an HTTP status line (`HTTP/` + version, a
/// 3-digit code; the reason phrase optional; `HTTP/` matched ASCII-case-insensitively).
///
/// Interim responses (`1xx` but `101`) followed by another response are
/// skipped, as a browser skips them: the head returned is the final one's,
/// and `body_start` is where its body starts.
///
/// ```
/// use htmltok_warc::http::parse_head;
///
/// assert!(parse_head(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").is_none());
/// let block = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\nx";
/// let head = parse_head(block).unwrap();
/// assert_eq!((head.status, head.get("a"), &block[head.body_start..]), (200, Some("b"), &b"x"[..]));
/// ```
pub fn parse_head(block: &[u8]) -> Option<Head> {
    let mut head = parse_one_head(block)?;
    loop {
        let interim = (100..200).contains(&head.status) && head.status != 101;
        let rest = &block[head.body_start..];
        if !interim || status_code(next_line(rest, 0).0).is_none() {
            return Some(head);
        }
        let next = parse_one_head(rest)?;
        head = Head {
            body_start: head.body_start + next.body_start,
            ..next
        };
    }
}

fn parse_one_head(block: &[u8]) -> Option<Head> {
    let (status_line, mut pos) = next_line(block, 0);
    let status = status_code(status_line)?;
    let mut headers: Vec<(String, String)> = Vec::new();
    // A folded line continues the field right above it, not one whose
    // line was skipped in between.
    let mut last_was_field = false;
    while pos < block.len() {
        let (line, next) = next_line(block, pos);
        pos = next;
        if line.is_empty() {
            return Some(Head {
                status,
                headers,
                body_start: pos,
            });
        }
        if matches!(line[0], b' ' | b'\t') {
            if let (true, Some((_, value))) = (last_was_field, headers.last_mut()) {
                let more = trim(line);
                if !more.is_empty() {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(&String::from_utf8_lossy(more));
                }
            }
            continue;
        }
        last_was_field = false;
        if let Some(colon) = memchr(b':', line) {
            let name = trim(&line[..colon]);
            if !name.is_empty() {
                let value = trim(&line[colon + 1..]);
                headers.push((
                    String::from_utf8_lossy(name).into_owned(),
                    String::from_utf8_lossy(value).into_owned(),
                ));
                last_was_field = true;
            }
        }
    }
    Some(Head {
        status,
        headers,
        body_start: block.len(),
    })
}

/// The line starting at `pos` without its CRLF or LF, and where the next
/// line starts (`block.len()` for a last line with no end).
fn next_line(block: &[u8], pos: usize) -> (&[u8], usize) {
    let rest = &block[pos..];
    let (line, next) = match memchr(b'\n', rest) {
        Some(i) => (&rest[..i], pos + i + 1),
        None => (rest, block.len()),
    };
    (line.strip_suffix(b"\r").unwrap_or(line), next)
}

fn trim(bytes: &[u8]) -> &[u8] {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let start = bytes
        .iter()
        .position(|b| !is_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

/// The code of a status line `HTTP/<digits>[.<digits>] <3 digits>[ reason]`.
fn status_code(line: &[u8]) -> Option<u16> {
    if line.len() < 5 || !line[..5].eq_ignore_ascii_case(b"HTTP/") {
        return None;
    }
    let mut i = 5;
    if !line.get(i).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    while line
        .get(i)
        .is_some_and(|b| b.is_ascii_digit() || *b == b'.')
    {
        i += 1;
    }
    let spaces = i;
    while matches!(line.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let digits = line.get(i..i + 3)?;
    if i == spaces
        || !digits.iter().all(u8::is_ascii_digit)
        || !matches!(line.get(i + 3), None | Some(b' ' | b'\t'))
    {
        return None;
    }
    Some(digits.iter().fold(0, |n, d| n * 10 + u16::from(d - b'0')))
}

/// A decoded body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyBytes {
    /// The body needed no decoding: it is `body[range]` of the slice given
    /// (lets the caller share the buffer instead of copying).
    Verbatim(Range<usize>),
    /// The decoded bytes.
    Decoded(Vec<u8>),
}

impl BodyBytes {
    /// The bytes, given the `body` slice that was decoded.
    ///
    /// ```
    /// use htmltok_warc::http::BodyBytes;
    ///
    /// assert_eq!(BodyBytes::Verbatim(1..3).bytes(b"abcd"), b"bc");
    /// assert_eq!(BodyBytes::Decoded(b"x".to_vec()).bytes(b"abcd"), b"x");
    /// ```
    pub fn bytes<'a>(&'a self, body: &'a [u8]) -> &'a [u8] {
        match self {
            BodyBytes::Verbatim(range) => &body[range.clone()],
            BodyBytes::Decoded(bytes) => bytes,
        }
    }
}

/// A decoded body: see [`decode_body`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    pub bytes: BodyBytes,
    /// A declared coding that did not apply to the bytes, said in a few words
    /// (e.g. "content coding gzip: invalid gzip header"); the bytes are then
    /// the body as it was before that coding (the raw body), as browsers
    /// and warcio fall back. When more than one did not apply, their notes
    /// are joined with "; ".
    pub failed: Option<String>,
    /// The body is incomplete: the input ended inside a chunk or a
    /// compressed stream (what was decoded before the cut is kept), or the
    /// decoded size reached `limit` and was cut there.
    pub truncated: bool,
}

/// Decodes `body` (the bytes after the head) by the head's
/// Transfer-Encoding, then its Content-Encoding; never more than `limit`
/// decoded bytes.
///
/// - `chunked` is undone leniently (LF line ends, chunk extensions, a
///   missing CRLF after a chunk's data). A body that does not start with a
///   chunk size was stored unchunked: it is taken as it is (`failed` says
///   so) and the content codings still apply to it. Framing that breaks
///   later keeps the chunks before the break and the rest raw, as warcio
///   does.
/// - Codings are undone from the last listed to the first: `gzip` and
///   `x-gzip` (members one after another; bytes after the last member that
///   do not start another are ignored, and the trailer is not checked),
///   `deflate` (zlib-wrapped, or raw when the zlib header is not there),
///   `br`, `zstd` (windows up to 8 MiB, the HTTP coding's limit);
///   `identity` does nothing. A coding that fails or is unknown stops the
///   decoding there: the bytes are what they were before it, and `failed`
///   names it. A stream cut short gives what it decoded before the cut,
///   `truncated`.
///
/// Memory stays within the input, `limit` (twice over for stacked codings)
/// and each decoder's window.
///
/// ```
/// use htmltok_warc::http::{decode_body, parse_head, BodyBytes};
///
/// let block = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n<html>not gzip";
/// let head = parse_head(block).unwrap();
/// let body = &block[head.body_start..];
/// let decoded = decode_body(&head, body, 1 << 20);
/// assert_eq!(decoded.bytes, BodyBytes::Verbatim(0..body.len()));
/// assert!(decoded.failed.unwrap().starts_with("content coding gzip: "));
///
/// // The limit cuts even an undecoded body.
/// let decoded = decode_body(&head, body, 6);
/// assert_eq!((decoded.bytes.bytes(body), decoded.truncated), (&b"<html>"[..], true));
/// ```
pub fn decode_body(head: &Head, body: &[u8], limit: usize) -> Body {
    let mut state = Decoding {
        cur: Cur::Part(0..body.len()),
        failed: Vec::new(),
        truncated: false,
    };
    if !body.is_empty() {
        let transfer = head.codings("Transfer-Encoding");
        let content = head.codings("Content-Encoding");
        let steps = transfer
            .iter()
            .rev()
            .map(|c| ("transfer", c))
            .chain(content.iter().rev().map(|c| ("content", c)));
        for (kind, coding) in steps {
            if !state.apply(kind, coding, body, limit) {
                break;
            }
        }
    }
    let Decoding {
        mut cur,
        failed,
        mut truncated,
    } = state;
    match &mut cur {
        Cur::Part(range) if range.len() > limit => {
            range.end = range.start + limit;
            truncated = true;
        }
        Cur::Owned(bytes) if bytes.len() > limit => {
            bytes.truncate(limit);
            truncated = true;
        }
        _ => {}
    }
    Body {
        bytes: match cur {
            Cur::Part(range) => BodyBytes::Verbatim(range),
            Cur::Owned(bytes) => BodyBytes::Decoded(bytes),
        },
        failed: (!failed.is_empty()).then(|| failed.join("; ")),
        truncated,
    }
}

/// The bytes between two codings: still a part of the body given, or new.
enum Cur {
    Part(Range<usize>),
    Owned(Vec<u8>),
}

struct Decoding {
    cur: Cur,
    failed: Vec<String>,
    truncated: bool,
}

impl Decoding {
    /// Undoes one coding; false when the codings under it cannot be undone.
    fn apply(&mut self, kind: &str, coding: &str, body: &[u8], limit: usize) -> bool {
        let input = match &self.cur {
            Cur::Part(range) => &body[range.clone()],
            Cur::Owned(bytes) => bytes.as_slice(),
        };
        // Nothing to decode is nothing decoded (HEAD, 204 and 304
        // responses declare codings for a body they do not have).
        if input.is_empty() || coding == "identity" {
            return true;
        }
        if kind == "transfer" && coding == "chunked" {
            let out = dechunk(input);
            self.truncated |= out.truncated;
            if let Some(note) = out.failed {
                self.failed.push(format!("transfer coding chunked: {note}"));
            }
            self.cur = match (out.data, &self.cur) {
                (Pieces::One(r), Cur::Part(base)) => {
                    Cur::Part(base.start + r.start..base.start + r.end)
                }
                (Pieces::One(r), Cur::Owned(bytes)) => Cur::Owned(bytes[r].to_vec()),
                (Pieces::Many(bytes), _) => Cur::Owned(bytes),
            };
            // A body stored unchunked is still the body the other codings
            // apply to.
            return true;
        }
        match decompress(coding, input, limit) {
            Ok(out) => {
                self.truncated |= out.truncated;
                self.cur = Cur::Owned(out.bytes);
                true
            }
            Err(note) => {
                self.failed.push(format!("{kind} coding {coding}: {note}"));
                false
            }
        }
    }
}

/// Where the chunks' data is in the input.
enum Pieces {
    /// One contiguous range (one chunk, or none): no copy needed.
    One(Range<usize>),
    Many(Vec<u8>),
}

impl Pieces {
    fn push(&mut self, input: &[u8], range: Range<usize>) {
        if range.start == range.end {
            return;
        }
        match self {
            Pieces::One(first) if first.start == first.end => *first = range,
            Pieces::One(first) if first.end == range.start => first.end = range.end,
            Pieces::One(first) => {
                let mut bytes = Vec::with_capacity(first.len() + range.len());
                bytes.extend_from_slice(&input[first.clone()]);
                bytes.extend_from_slice(&input[range]);
                *self = Pieces::Many(bytes);
            }
            Pieces::Many(bytes) => bytes.extend_from_slice(&input[range]),
        }
    }
}

struct Dechunked {
    data: Pieces,
    failed: Option<String>,
    truncated: bool,
}

/// Undoes `chunked` on a non-empty `input`.
fn dechunk(input: &[u8]) -> Dechunked {
    let mut data = Pieces::One(0..0);
    let mut pos = 0;
    let mut first = true;
    let done = |data, failed, truncated| Dechunked {
        data,
        failed,
        truncated,
    };
    loop {
        if pos == input.len() {
            // No last chunk: the message was cut between chunks.
            return done(data, None, true);
        }
        let (line, next) = next_line(input, pos);
        let ended = input[next - 1] == b'\n';
        let size = chunk_size(line);
        match size {
            Some(0) => return done(data, None, false),
            Some(size) if ended => {
                pos = next;
                let avail = input.len() - pos;
                if size > avail {
                    data.push(input, pos..input.len());
                    return done(data, None, true);
                }
                data.push(input, pos..pos + size);
                pos += size;
                // The line end after the data is often missing in
                // captures; the next size line starts right there then.
                if input[pos..].starts_with(b"\r\n") {
                    pos += 2;
                } else if input[pos..].starts_with(b"\n") {
                    pos += 1;
                }
                first = false;
            }
            // A size line cut by the end of the input.
            Some(_) if !first => return done(data, None, true),
            _ if first => {
                let note = "no chunk size at the start: the body is not chunked";
                return done(Pieces::One(0..input.len()), Some(note.into()), false);
            }
            _ => {
                data.push(input, pos..input.len());
                let note = format!("bad chunk size line at byte {pos}: the rest is kept raw");
                return done(data, Some(note), false);
            }
        }
    }
}

/// The size on a chunk size line: hex digits between optional spaces or
/// tabs, then nothing or a `;` and extensions. Sizes too big for `usize`
/// saturate (the input ends inside such a chunk anyway).
fn chunk_size(line: &[u8]) -> Option<usize> {
    let mut i = 0;
    while matches!(line.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let start = i;
    let mut size: usize = 0;
    while let Some(digit) = line.get(i).and_then(|b| (*b as char).to_digit(16)) {
        size = size.saturating_mul(16).saturating_add(digit as usize);
        i += 1;
    }
    if i == start {
        return None;
    }
    while matches!(line.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    matches!(line.get(i), None | Some(b';')).then_some(size)
}

/// What a decompressor made.
struct Out {
    bytes: Vec<u8>,
    truncated: bool,
}

/// How far a stream went.
enum End {
    /// The stream ended where it should.
    Complete,
    /// The input ended inside the stream.
    Cut,
    /// The output reached the limit.
    Full,
}

/// Decompressed output that never grows past `limit`.
struct Sink {
    bytes: Vec<u8>,
    limit: usize,
    /// Where the free space handed out by `space` starts.
    mark: usize,
}

/// How much output space a decoder gets at a time.
const STEP: usize = 64 * 1024;

impl Sink {
    fn new(limit: usize) -> Sink {
        Sink {
            bytes: Vec::new(),
            limit,
            mark: 0,
        }
    }

    /// Free space for a decoder to write into, to be followed by `commit`.
    /// It reaches one byte past the limit: a decoder that writes there has
    /// more to give than the limit allows.
    fn space(&mut self) -> &mut [u8] {
        let len = self.bytes.len();
        let room = (self.limit - len).saturating_add(1).min(STEP);
        if self.bytes.capacity() - len < room {
            // Growth doubles, but never past the limit: a near-limit body
            // must not cost twice the limit.
            let cap = self.limit.saturating_add(1);
            let want = len.max(room).min(cap - len).max(room);
            self.bytes.reserve_exact(want);
        }
        self.mark = len;
        self.bytes.resize(len + room, 0);
        &mut self.bytes[len..]
    }

    /// Keeps the first `n` bytes written into `space`; false once the
    /// limit is exceeded (the output is then cut at the limit).
    fn commit(&mut self, n: usize) -> bool {
        self.bytes.truncate(self.mark + n);
        if self.bytes.len() > self.limit {
            self.bytes.truncate(self.limit);
            return false;
        }
        true
    }

    fn out(self, end: End, coding: &str) -> Result<Out, String> {
        match end {
            End::Cut if self.bytes.is_empty() => Err(format!(
                "the input ended inside the {coding} stream before any output"
            )),
            End::Complete => Ok(Out {
                bytes: self.bytes,
                truncated: false,
            }),
            End::Cut | End::Full => Ok(Out {
                bytes: self.bytes,
                truncated: true,
            }),
        }
    }
}

/// Undoes one content coding (`identity` excluded) on non-empty `input`.
fn decompress(coding: &str, input: &[u8], limit: usize) -> Result<Out, String> {
    let mut sink = Sink::new(limit);
    let end = match coding {
        "gzip" | "x-gzip" => gunzip(input, &mut sink)?,
        "deflate" => {
            let zlib = input.len() >= 2
                && input[0] & 0x0f == 8
                && input[0] >> 4 <= 7
                && (u16::from(input[0]) << 8 | u16::from(input[1])) % 31 == 0;
            let mut inflater = Decompress::new(zlib);
            inflate(&mut inflater, input, &mut sink)?.1
        }
        "br" => unbrotli(input, &mut sink)?,
        "zstd" => unzstd(input, &mut sink)?,
        _ => return Err("unknown coding, left as it is".into()),
    };
    sink.out(end, coding)
}

/// Inflates the stream at the start of `input`; how many bytes it took,
/// and how it ended.
fn inflate(
    inflater: &mut Decompress,
    input: &[u8],
    sink: &mut Sink,
) -> Result<(usize, End), String> {
    let mut pos = 0;
    loop {
        let (in_before, out_before) = (inflater.total_in(), inflater.total_out());
        let status = inflater.decompress(&input[pos..], sink.space(), FlushDecompress::None);
        // Both counts are bounded by the slices just given.
        let taken = (inflater.total_in() - in_before) as usize;
        let made = (inflater.total_out() - out_before) as usize;
        pos += taken;
        let room = sink.commit(made);
        // Past the limit, whatever comes next does not matter.
        if !room {
            return Ok((pos, End::Full));
        }
        match status {
            Err(e) => return Err(e.to_string()),
            Ok(Status::StreamEnd) => return Ok((pos, End::Complete)),
            Ok(_) if taken == 0 && made == 0 => {
                return if pos == input.len() {
                    Ok((pos, End::Cut))
                } else {
                    Err("the deflate stream stalled".into())
                };
            }
            Ok(_) => {}
        }
    }
}

/// Undoes gzip: members one after another. The header is read here, not
/// by flate2's gzip reader, so that a cut stream can be told from a
/// corrupt one and so that a wrong or missing trailer does not discard
/// what inflated well.
fn gunzip(input: &[u8], sink: &mut Sink) -> Result<End, String> {
    let mut pos = 0;
    loop {
        let start = match gzip_header(&input[pos..]) {
            Header::Complete(len) => pos + len,
            Header::Cut => return Ok(End::Cut),
            Header::Invalid if pos > 0 => return Ok(End::Complete),
            Header::Invalid => return Err("invalid gzip header".into()),
        };
        let mut inflater = Decompress::new(false);
        let (taken, end) = inflate(&mut inflater, &input[start..], sink)?;
        if !matches!(end, End::Complete) {
            return Ok(end);
        }
        // The CRC-32 and size trailer.
        pos = (start + taken + 8).min(input.len());
        // Bytes after a member that do not start another are ignored, as
        // browsers ignore them.
        if !input[pos..].starts_with(&[0x1f, 0x8b]) {
            return Ok(End::Complete);
        }
    }
}

enum Header {
    Complete(usize),
    Cut,
    Invalid,
}

/// The length of the gzip member header at the start of `bytes` (RFC 1952).
fn gzip_header(bytes: &[u8]) -> Header {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    if bytes.len() < 10 {
        let magic = [0x1f, 0x8b, 8];
        let n = bytes.len().min(3);
        return if bytes[..n] == magic[..n] {
            Header::Cut
        } else {
            Header::Invalid
        };
    }
    if bytes[..3] != [0x1f, 0x8b, 8] || bytes[3] & 0xe0 != 0 {
        return Header::Invalid;
    }
    let flags = bytes[3];
    let mut pos = 10;
    if flags & FEXTRA != 0 {
        let Some(len) = bytes.get(pos..pos + 2) else {
            return Header::Cut;
        };
        pos += 2 + usize::from(u16::from_le_bytes([len[0], len[1]]));
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            match bytes.get(pos..).and_then(|rest| memchr(0, rest)) {
                Some(nul) => pos += nul + 1,
                None => return Header::Cut,
            }
        }
    }
    if flags & FHCRC != 0 {
        pos += 2;
    }
    if pos > bytes.len() {
        return Header::Cut;
    }
    Header::Complete(pos)
}

/// Undoes br. Bytes after the end of the stream are ignored.
fn unbrotli(input: &[u8], sink: &mut Sink) -> Result<End, String> {
    use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};
    let mut state = BrotliState::new(
        StandardAlloc::default(),
        StandardAlloc::default(),
        StandardAlloc::default(),
    );
    let (mut avail_in, mut in_offset, mut total_out) = (input.len(), 0, 0);
    loop {
        let space = sink.space();
        let (mut avail_out, mut out_offset) = (space.len(), 0);
        let result = BrotliDecompressStream(
            &mut avail_in,
            &mut in_offset,
            input,
            &mut avail_out,
            &mut out_offset,
            space,
            &mut total_out,
            &mut state,
        );
        if !sink.commit(out_offset) {
            return Ok(End::Full);
        }
        match result {
            BrotliResult::ResultSuccess => return Ok(End::Complete),
            BrotliResult::ResultFailure => {
                return Err(format!("invalid brotli stream ({:?})", state.error_code))
            }
            BrotliResult::NeedsMoreInput => return Ok(End::Cut),
            BrotliResult::NeedsMoreOutput => {}
        }
    }
}

/// The window the `zstd` content coding allows (RFC 9659): frames that
/// need more are refused, as browsers refuse them, which also bounds what
/// the decoder holds besides the output.
const ZSTD_MAX_WINDOW: u64 = 8 << 20;

/// The input for ruzstd, noting whether it was asked for bytes past its end.
struct Tracked<'a> {
    rest: &'a [u8],
    wanted_more: bool,
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.len() > self.rest.len() {
            self.wanted_more = true;
        }
        self.rest.read(buf)
    }
}

/// Undoes zstd: frames one after another, skippable frames skipped. Bytes
/// after the last frame that do not start another are ignored.
fn unzstd(input: &[u8], sink: &mut Sink) -> Result<End, String> {
    use ruzstd::decoding::StreamingDecoder;
    const MAGIC: u32 = 0xFD2F_B528;
    let mut src = Tracked {
        rest: input,
        wanted_more: false,
    };
    let mut frames = 0;
    loop {
        let Some(magic) = src.rest.get(..4) else {
            return Ok(if frames > 0 { End::Complete } else { End::Cut });
        };
        let magic = u32::from_le_bytes([magic[0], magic[1], magic[2], magic[3]]);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            let Some(len) = src.rest.get(4..8) else {
                return Ok(End::Cut);
            };
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            let Some(rest) = src.rest.get(8usize.saturating_add(len)..) else {
                return Ok(End::Cut);
            };
            src.rest = rest;
            frames += 1;
            continue;
        }
        if magic != MAGIC {
            if frames > 0 {
                return Ok(End::Complete);
            }
            return Err("not a zstd frame".into());
        }
        match zstd_window(src.rest) {
            None => return Ok(End::Cut),
            Some(window) if window > ZSTD_MAX_WINDOW => {
                return Err(format!("window of {window} bytes, over the 8 MiB allowed"))
            }
            Some(_) => {}
        }
        let cut_or = |src: &Tracked<'_>, e: String| {
            if src.wanted_more {
                Ok(End::Cut)
            } else {
                Err(e)
            }
        };
        let mut decoder = match StreamingDecoder::new(&mut src) {
            Ok(decoder) => decoder,
            Err(e) => {
                let e = e.to_string();
                return cut_or(&src, e);
            }
        };
        loop {
            let result = decoder.read(sink.space());
            let made = *result.as_ref().unwrap_or(&0);
            if !sink.commit(made) {
                return Ok(End::Full);
            }
            match result {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    let e = e.to_string();
                    drop(decoder);
                    return cut_or(&src, e);
                }
            }
        }
        frames += 1;
    }
}

/// The window size a zstd frame header declares; `None` when the header
/// is cut. The frame's magic number is at the start of `frame`.
fn zstd_window(frame: &[u8]) -> Option<u64> {
    let descriptor = *frame.get(4)?;
    let single_segment = descriptor & 0x20 != 0;
    if !single_segment {
        let byte = *frame.get(5)?;
        let base = 1u64 << (10 + (byte >> 3));
        return Some(base + base / 8 * u64::from(byte & 7));
    }
    // A single segment's window is its content size.
    let dict_len = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let size_len = [1, 2, 4, 8][usize::from(descriptor >> 6)];
    let at = 5 + dict_len;
    let field = frame.get(at..at + size_len)?;
    let mut le = [0u8; 8];
    le[..size_len].copy_from_slice(field);
    let size = u64::from_le_bytes(le);
    Some(if size_len == 2 { size + 256 } else { size })
}

/// Whether `bytes` look like HTML by the WHATWG MIME Sniffing standard's
/// rules for an unknown type (the HTML patterns of "identifying a resource
/// with an unknown MIME type": leading whitespace skipped, then
/// case-insensitively `<!DOCTYPE HTML`, `<HTML`, `<HEAD`, `<SCRIPT`, `<IFRAME`,
/// `<H1`, `<DIV`, `<FONT`, `<TABLE`, `<A`, `<STYLE`, `<TITLE`, `<B`, `<BODY`,
/// `<BR`, `<P`, `<!--`, each followed by a tag-terminating byte (space or `>`)).
/// Used for records that carry no Content-Type at all.
///
/// As the standard says, only the resource header (the first 1445 bytes)
/// is looked at, and a byte order mark is not whitespace.
///
/// ```
/// use htmltok_warc::http::sniff_html;
///
/// assert!(sniff_html(b"\r\n  <!doctype html>"));
/// assert!(sniff_html(b"<p>"));
/// assert!(!sniff_html(b"<html"));
/// assert!(!sniff_html(b"<?xml version=\"1.0\"?><html>"));
/// ```
pub fn sniff_html(bytes: &[u8]) -> bool {
    const PATTERNS: [&[u8]; 17] = [
        b"<!DOCTYPE HTML",
        b"<HTML",
        b"<HEAD",
        b"<SCRIPT",
        b"<IFRAME",
        b"<H1",
        b"<DIV",
        b"<FONT",
        b"<TABLE",
        b"<A",
        b"<STYLE",
        b"<TITLE",
        b"<B",
        b"<BODY",
        b"<BR",
        b"<P",
        b"<!--",
    ];
    let header = &bytes[..bytes.len().min(1445)];
    let start = header
        .iter()
        .position(|b| !matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' '))
        .unwrap_or(header.len());
    let rest = &header[start..];
    PATTERNS.iter().any(|pattern| {
        rest.len() > pattern.len()
            && rest[..pattern.len()].eq_ignore_ascii_case(pattern)
            && matches!(rest[pattern.len()], b' ' | b'>')
    })
}
