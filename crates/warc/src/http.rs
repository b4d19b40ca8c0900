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

    /// The values of every field named `name` (ASCII case-insensitively),
    /// in order.
    fn values<'h>(&'h self, name: &'h str) -> impl Iterator<Item = &'h str> + 'h {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
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

    /// The MIME type a browser takes from the `Content-Type` fields: the
    /// Fetch standard's "extract a MIME type" over all of them. Their
    /// values are one comma-separated list (commas inside quoted strings
    /// do not split it); the last item that parses as a MIME type and is
    /// not `*/*` wins, keeping the `charset` of the items before it of the
    /// same essence when it has none of its own. `None` when there is no
    /// `Content-Type` field or no item parses, as a browser then sniffs.
    ///
    /// Unlike [`content_type`](Head::content_type), this is how a browser
    /// reads the fields: what decides whether a response is an HTML page,
    /// and which charset its transport declares.
    ///
    /// ```
    /// use htmltok_warc::http::parse_head;
    ///
    /// let head = parse_head(b"HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Type: text/html\n\n").unwrap();
    /// assert_eq!(head.content_type(), Some("text/plain"));
    /// assert_eq!(head.mime_type().unwrap().essence(), "text/html");
    ///
    /// let head = parse_head(b"HTTP/1.1 200 OK\nContent-Type: text/html, text/html; charset=KOI8-R\n\n").unwrap();
    /// let mime = head.mime_type().unwrap();
    /// assert_eq!((mime.essence(), mime.charset()), ("text/html", Some("KOI8-R")));
    /// assert_eq!(mime.to_string(), "text/html;charset=KOI8-R");
    ///
    /// let head = parse_head(b"HTTP/1.1 200 OK\nContent-Type: html\n\n").unwrap();
    /// assert_eq!(head.mime_type(), None);
    /// ```
    pub fn mime_type(&self) -> Option<MimeType> {
        let fields: Vec<&str> = self.values("Content-Type").collect();
        match fields[..] {
            [] => return None,
            // One value (the common case): what the loop below makes of
            // it, without joining and splitting.
            [only] if !only.contains(',') => {
                return MimeType::parse(only).filter(|m| m.essence() != "*/*");
            }
            _ => {}
        }
        let joined = fields.join(", ");
        let mut charset: Option<String> = None;
        let mut essence: Option<String> = None;
        let mut mime_type = None;
        for value in split_header_value(&joined) {
            let Some(mut parsed) = MimeType::parse(value) else {
                continue;
            };
            if parsed.essence() == "*/*" {
                continue;
            }
            if essence.as_deref() != Some(parsed.essence()) {
                charset = parsed.charset().map(str::to_owned);
                essence = Some(parsed.essence().to_owned());
            } else if parsed.charset().is_none() {
                if let Some(charset) = &charset {
                    parsed
                        .parameters
                        .push(("charset".to_owned(), charset.clone()));
                }
            }
            mime_type = Some(parsed);
        }
        mime_type
    }

    /// The `Content-Type` a page is handed on with: the first field's
    /// value as written when it says what `mime_type` (this head's
    /// [`mime_type`](Head::mime_type), extracted once by the caller)
    /// says, else that MIME type serialized; `None` when there is none.
    pub(crate) fn page_content_type(&self, mime_type: Option<MimeType>) -> Option<String> {
        let mime_type = mime_type?;
        let mut fields = self.values("Content-Type");
        if let (Some(only), None) = (fields.next(), fields.next()) {
            if !only.contains(',') {
                // `mime_type` is this value parsed: it says the same.
                return Some(only.to_owned());
            }
        }
        match self.content_type() {
            Some(first) if MimeType::parse(first).as_ref() == Some(&mime_type) => {
                Some(first.to_owned())
            }
            _ => Some(mime_type.to_string()),
        }
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
        self.values(name)
            .flat_map(|v| v.split(','))
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

/// A MIME type as the MIME Sniffing standard parses it: a type and a
/// subtype, ASCII-lowercased, and parameters in order (names
/// lowercased, values as given, quoted ones unquoted).
///
/// Its `Display` is the standard's serialization.
///
/// ```
/// use htmltok_warc::http::MimeType;
///
/// let mime = MimeType::parse(" Text/HTML ; Charset=\"Shift_JIS\"; x=(y) ").unwrap();
/// assert_eq!(mime.essence(), "text/html");
/// assert_eq!(mime.charset(), Some("Shift_JIS"));
/// assert_eq!(mime.parameter("X"), Some("(y)"));
/// assert_eq!(mime.to_string(), "text/html;charset=Shift_JIS;x=\"(y)\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MimeType {
    /// `type/subtype`, lowercased.
    essence: String,
    /// Names lowercased; each name once.
    parameters: Vec<(String, String)>,
}

impl MimeType {
    /// Parses `input` by the MIME Sniffing standard's "parse a MIME
    /// type": `None` when its type or subtype is empty or not an HTTP
    /// token. Parameters that are not `name=value` with a token name and
    /// a value of quoted-string characters are left out, and so is any
    /// later one of a name already seen.
    ///
    /// ```
    /// use htmltok_warc::http::MimeType;
    ///
    /// assert_eq!(MimeType::parse("text/html;").unwrap().to_string(), "text/html");
    /// let mime = MimeType::parse("text/html;charset=gbk;charset=utf-8;a;b=").unwrap();
    /// assert_eq!(mime.to_string(), "text/html;charset=gbk");
    /// assert_eq!(MimeType::parse("text/html;charset=\"shift_jis\"iso-2022-jp").unwrap().charset(), Some("shift_jis"));
    /// assert_eq!(MimeType::parse("text / html"), None);
    /// assert_eq!(MimeType::parse("html"), None);
    /// ```
    pub fn parse(input: &str) -> Option<MimeType> {
        let input = input.trim_matches(is_http_whitespace);
        let bytes = input.as_bytes();
        let slash = memchr(b'/', bytes)?;
        let type_ = &input[..slash];
        let subtype_end = memchr(b';', &bytes[slash + 1..]).map_or(bytes.len(), |i| slash + 1 + i);
        let subtype = input[slash + 1..subtype_end].trim_end_matches(is_http_whitespace);
        if !is_token(type_) || !is_token(subtype) {
            return None;
        }
        let mut mime = MimeType {
            essence: format!("{type_}/{subtype}").to_ascii_lowercase(),
            parameters: Vec::new(),
        };
        let mut pos = subtype_end;
        while pos < bytes.len() {
            pos += 1; // The ';'.
            while pos < bytes.len() && matches!(bytes[pos], b'\t' | b'\n' | b'\r' | b' ') {
                pos += 1;
            }
            let name_end = bytes[pos..]
                .iter()
                .position(|b| matches!(b, b';' | b'='))
                .map_or(bytes.len(), |i| pos + i);
            let name = input[pos..name_end].to_ascii_lowercase();
            pos = name_end;
            if pos < bytes.len() {
                if bytes[pos] == b';' {
                    continue;
                }
                pos += 1; // The '='.
            }
            if pos >= bytes.len() {
                break;
            }
            let value = if bytes[pos] == b'"' {
                let (value, end) = quoted_string_value(input, pos);
                pos = memchr(b';', &bytes[end..]).map_or(bytes.len(), |i| end + i);
                value
            } else {
                let end = memchr(b';', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
                let value = input[pos..end].trim_end_matches(is_http_whitespace);
                pos = end;
                if value.is_empty() {
                    continue;
                }
                value.to_owned()
            };
            if is_token(&name)
                && value.chars().all(is_quoted_string_char)
                && mime.parameter(&name).is_none()
            {
                mime.parameters.push((name, value));
            }
        }
        Some(mime)
    }

    /// `type/subtype`, lowercased.
    ///
    /// ```
    /// use htmltok_warc::http::MimeType;
    ///
    /// assert_eq!(MimeType::parse("Application/XHTML+XML").unwrap().essence(), "application/xhtml+xml");
    /// ```
    pub fn essence(&self) -> &str {
        &self.essence
    }

    /// The value of the parameter `name` (ASCII case-insensitive).
    ///
    /// ```
    /// use htmltok_warc::http::MimeType;
    ///
    /// let mime = MimeType::parse("text/plain;Format=Flowed").unwrap();
    /// assert_eq!((mime.parameter("format"), mime.parameter("delsp")), (Some("Flowed"), None));
    /// ```
    pub fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `charset` parameter's value, as given.
    ///
    /// ```
    /// use htmltok_warc::http::MimeType;
    ///
    /// assert_eq!(MimeType::parse("text/html; charset=EUC-JP").unwrap().charset(), Some("EUC-JP"));
    /// assert_eq!(MimeType::parse("text/html; charset=").unwrap().charset(), None);
    /// ```
    pub fn charset(&self) -> Option<&str> {
        self.parameter("charset")
    }
}

impl std::fmt::Display for MimeType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.essence)?;
        for (name, value) in &self.parameters {
            write!(f, ";{name}=")?;
            if !value.is_empty() && is_token(value) {
                f.write_str(value)?;
            } else {
                f.write_str("\"")?;
                for c in value.chars() {
                    if matches!(c, '"' | '\\') {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            }
        }
        Ok(())
    }
}

fn is_http_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' ')
}

/// Non-empty and all HTTP token code points.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// An HTTP quoted-string token code point: tab, printable ASCII, or
/// U+0080 to U+00FF (header bytes here are UTF-8 decoded, not
/// isomorphically, so other bytes above 0x7F come as U+FFFD and fail).
fn is_quoted_string_char(c: char) -> bool {
    matches!(c, '\t' | ' '..='~' | '\u{80}'..='\u{ff}')
}

/// Fetch's "collect an HTTP quoted string" with its extract-value flag
/// set, from the `"` at `pos`: the unescaped value and where it ends
/// (after the closing quote, or the end of `input`).
fn quoted_string_value(input: &str, pos: usize) -> (String, usize) {
    let mut value = String::new();
    let mut chars = input[pos + 1..].char_indices();
    let mut end = input.len();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                end = pos + 1 + i + 1;
                break;
            }
            '\\' => match chars.next() {
                Some((_, escaped)) => value.push(escaped),
                None => value.push('\\'),
            },
            c => value.push(c),
        }
    }
    (value, end)
}

/// Fetch's "get, decode, and split" of one header value: the items of a
/// comma-separated list, commas inside quoted strings not splitting it,
/// each trimmed of tabs and spaces (quoted strings kept as written).
fn split_header_value(input: &str) -> Vec<&str> {
    let bytes = input.as_bytes();
    let mut values = Vec::new();
    let (mut start, mut pos) = (0, 0);
    loop {
        while pos < bytes.len() && !matches!(bytes[pos], b'"' | b',') {
            pos += 1;
        }
        if pos < bytes.len() && bytes[pos] == b'"' {
            pos = quoted_string_value(input, pos).1;
            if pos < bytes.len() {
                continue;
            }
        }
        values.push(input[start..pos].trim_matches([' ', '\t']));
        if pos >= bytes.len() {
            return values;
        }
        pos += 1; // The ','.
        start = pos;
    }
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

/// What became of a response's content codings (its `Content-Encoding`
/// values other than `identity`), for a body that has bytes to decode.
///
/// ```
/// use htmltok_warc::http::{decode_body, parse_head, ContentCoding};
///
/// let coding = |block: &[u8]| {
///     let head = parse_head(block).unwrap();
///     decode_body(&head, &block[head.body_start..], 1 << 20).content_coding
/// };
/// assert_eq!(coding(b"HTTP/1.1 200 OK\r\n\r\n<p>plain"), None);
/// assert_eq!(coding(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n<p>not br"), Some(ContentCoding::Failed));
/// assert_eq!(ContentCoding::Failed.as_str(), "failed");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContentCoding {
    /// Every declared content coding was undone: the body is what they
    /// encoded.
    Applied,
    /// A declared content coding did not apply to the bytes (or is
    /// unknown, or a transfer coding under it could not be undone): the
    /// body is the bytes as they were before it.
    Failed,
}

impl ContentCoding {
    /// The word for it in the command line's JSON and in Python:
    /// `applied` or `failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContentCoding::Applied => "applied",
            ContentCoding::Failed => "failed",
        }
    }
}

/// A decoded body: see [`decode_body`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    /// The body's bytes, decoded (or as they were, where they needed no
    /// decoding or a coding failed).
    pub bytes: BodyBytes,
    /// Whether the declared content codings were undone; `None` when
    /// there were none (or only `identity`), or no bytes to undo them on
    /// (a response to a HEAD request, a 204 or 304).
    pub content_coding: Option<ContentCoding>,
    /// A declared coding that did not apply to the bytes, said in a few words
    /// (e.g. "content coding gzip: invalid gzip header"); the bytes are then
    /// the body as it was before that coding (the raw body), as browsers
    /// and warcio fall back. When more than one did not apply, their notes
    /// are joined with "; ".
    pub failed: Option<String>,
    /// The body is incomplete: the input ended inside a chunk or a
    /// compressed stream (what was decoded before the cut is kept), or
    /// before the `Content-Length` that frames it, or the decoded size
    /// reached `limit` and was cut there.
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
/// - A body shorter than its `Content-Length` (when no Transfer-Encoding
///   frames it instead, and the status allows a body: not 1xx, 204 or
///   304) is `truncated` too: the connection closed before its end, and
///   the crawler stored what came (wget does, without `WARC-Truncated`).
///   A response to a HEAD request, stored with no body under the
///   `Content-Length` a GET would have had, reads so as well: only its
///   request record tells it apart, which the archive reader looks at.
///   A longer body is left as it is.
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
        truncated: framed_length(head).is_some_and(|length| (body.len() as u64) < length),
        content_undone: false,
    };
    let mut content_coding = None;
    if !body.is_empty() {
        let transfer = head.codings("Transfer-Encoding");
        let content = head.codings("Content-Encoding");
        let steps = transfer
            .iter()
            .rev()
            .map(|c| ("transfer", c))
            .chain(content.iter().rev().map(|c| ("content", c)));
        let mut stopped = false;
        for (kind, coding) in steps {
            if !state.apply(kind, coding, body, limit) {
                stopped = true;
                break;
            }
        }
        // A stop before the content codings leaves them all undone; a
        // chunked body of no bytes leaves them nothing to undo.
        if stopped && content.iter().any(|c| c != "identity") {
            content_coding = Some(ContentCoding::Failed);
        } else if state.content_undone {
            content_coding = Some(ContentCoding::Applied);
        }
    }
    let Decoding {
        mut cur,
        failed,
        mut truncated,
        ..
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
        content_coding,
        failed: (!failed.is_empty()).then(|| failed.join("; ")),
        truncated,
    }
}

/// The length of the body by the head's `Content-Length`, when that is
/// what frames it: no Transfer-Encoding, a status whose response has a
/// body, and every value (of every field) one and the same number.
fn framed_length(head: &Head) -> Option<u64> {
    if !head.codings("Transfer-Encoding").is_empty()
        || (100..200).contains(&head.status)
        || head.status == 204
        || head.status == 304
    {
        return None;
    }
    let mut length = None;
    for value in head.values("Content-Length").flat_map(|v| v.split(',')) {
        let value = value.trim_matches([' ', '\t']);
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n = value.parse::<u64>().ok()?;
        if length.is_some_and(|l| l != n) {
            return None;
        }
        length = Some(n);
    }
    length
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
    /// A content coding was undone on bytes.
    content_undone: bool,
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
            let before = std::mem::replace(&mut self.cur, Cur::Part(0..0));
            self.cur = match (out.data, before) {
                (Pieces::One(r), Cur::Part(base)) => {
                    Cur::Part(base.start + r.start..base.start + r.end)
                }
                (Pieces::One(r), Cur::Owned(mut bytes)) => {
                    bytes.truncate(r.end);
                    bytes.drain(..r.start);
                    Cur::Owned(bytes)
                }
                (Pieces::Many(bytes), _) => Cur::Owned(bytes),
            };
            // A body stored unchunked is still the body the other codings
            // apply to.
            return true;
        }
        match decompress(coding, input, limit) {
            Ok(out) => {
                self.truncated |= out.truncated;
                self.content_undone |= kind == "content";
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
    const MAGIC: u32 = 0xFD2F_B528;
    let mut rest = input;
    let mut frames = 0;
    loop {
        let Some(magic) = rest.get(..4) else {
            return Ok(if frames > 0 { End::Complete } else { End::Cut });
        };
        let magic = u32::from_le_bytes([magic[0], magic[1], magic[2], magic[3]]);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            let Some(len) = rest.get(4..8) else {
                return Ok(End::Cut);
            };
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            let Some(after) = rest.get(8usize.saturating_add(len)..) else {
                return Ok(End::Cut);
            };
            rest = after;
            frames += 1;
            continue;
        }
        if magic != MAGIC {
            if frames > 0 {
                return Ok(End::Complete);
            }
            return Err("not a zstd frame".into());
        }
        match zstd_window(rest) {
            None => return Ok(End::Cut),
            Some(window) if window > ZSTD_MAX_WINDOW => {
                return Err(format!("window of {window} bytes, over the 8 MiB allowed"))
            }
            Some(_) => {}
        }
        let before = sink.bytes.len();
        let (taken, end) = zstd_frame(rest, sink)?;
        match end {
            End::Complete => {}
            End::Full => return Ok(End::Full),
            End::Cut => {
                // ruzstd hands out a frame's output only past the window it
                // keeps, or at the frame's end: the cut frame is decoded
                // again, made to end after its last whole block.
                sink.bytes.truncate(before);
                if let Some(frame) = zstd_whole_blocks(rest) {
                    if let Ok((_, End::Full)) = zstd_frame(&frame, sink) {
                        return Ok(End::Full);
                    }
                }
                return Ok(End::Cut);
            }
        }
        rest = &rest[taken..];
        frames += 1;
    }
}

/// Decodes the zstd frame at the start of `input`: how many bytes it took,
/// and how it ended.
fn zstd_frame(input: &[u8], sink: &mut Sink) -> Result<(usize, End), String> {
    use ruzstd::decoding::StreamingDecoder;
    let mut src = Tracked {
        rest: input,
        wanted_more: false,
    };
    let cut_or = |src: &Tracked<'_>, e: String| {
        if src.wanted_more {
            Ok((input.len(), End::Cut))
        } else {
            Err(e)
        }
    };
    let mut decoder = match StreamingDecoder::new(&mut src) {
        Ok(decoder) => decoder,
        Err(e) => return cut_or(&src, e.to_string()),
    };
    loop {
        let result = decoder.read(sink.space());
        if !sink.commit(*result.as_ref().unwrap_or(&0)) {
            return Ok((input.len(), End::Full));
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
    drop(decoder);
    Ok((input.len() - src.rest.len(), End::Complete))
}

/// The cut zstd frame at the start of `frame` remade into a whole one: its
/// header without the checksum flag, its whole blocks, the last of them
/// marked last (RFC 8878). `None` when no block is whole.
fn zstd_whole_blocks(frame: &[u8]) -> Option<Vec<u8>> {
    let descriptor = *frame.get(4)?;
    let single_segment = descriptor & 0x20 != 0;
    let dict_len = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let size_len = [usize::from(single_segment), 2, 4, 8][usize::from(descriptor >> 6)];
    let mut pos = 5 + usize::from(!single_segment) + dict_len + size_len;
    let mut last = None;
    while let Some(header) = frame.get(pos..pos + 3) {
        let header = u32::from_le_bytes([header[0], header[1], header[2], 0]);
        let stored = match (header >> 1) & 3 {
            1 => 1, // RLE: one byte repeated.
            3 => break,
            _ => (header >> 3) as usize,
        };
        let end = pos + 3 + stored;
        if end > frame.len() {
            break;
        }
        last = Some((pos, end));
        pos = end;
        if header & 1 != 0 {
            break;
        }
    }
    let (last_start, end) = last?;
    let mut whole = frame[..end].to_vec();
    whole[4] &= !0x04;
    whole[last_start] |= 1;
    Some(whole)
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

/// Why `bytes`, a body as stored under a declared coding that did not
/// apply to it, are no page, if they are none: a compressed stream cut
/// before its first output, or one the crawler mangled, whose bytes would
/// be read as text in some guessed encoding.
///
/// A page is text with markup in its first 1024 bytes: none of the bytes
/// the MIME Sniffing standard calls binary data bytes (the control
/// characters but TAB, LF, FF, CR and ESC: a NUL, which makes a file
/// binary for the command line, among them), and a `<`. Bytes that start
/// with a UTF-16 byte order mark are text. A page stored as it is under a
/// lying `Content-Encoding` (ClueWeb09's false gzip headers) passes.
///
/// ```
/// use htmltok_warc::http::not_a_page;
///
/// assert_eq!(not_a_page(b"\n<!DOCTYPE html><p>as stored"), None);
/// assert!(not_a_page(b"\x1b\x93\x01\xc8\x7f\xe1\x02\x0c").unwrap().starts_with("binary"));
/// assert!(not_a_page(b"k\xe9\x8a\xf3=+").unwrap().starts_with("no markup"));
/// ```
pub fn not_a_page(bytes: &[u8]) -> Option<String> {
    if bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") {
        return None;
    }
    let head = &bytes[..bytes.len().min(1024)];
    let binary = |b: u8| matches!(b, 0x00..=0x08 | 0x0b | 0x0e..=0x1a | 0x1c..=0x1f);
    if let Some(at) = head.iter().position(|&b| binary(b)) {
        return Some(format!(
            "binary (byte {at} is 0x{:02x}, a control character no text has)",
            head[at]
        ));
    }
    if memchr(b'<', head).is_none() {
        return Some(format!(
            "no markup (no `<` in its first {} bytes)",
            head.len()
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
    use flate2::{Compression, GzBuilder};
    use testkit::rng::XorShift;

    fn field(name: &str, value: &str) -> (String, String) {
        (name.to_string(), value.to_string())
    }

    /// Text that compresses, but not to nothing: lines with numbers.
    fn text(len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 64);
        let mut n = 0u64;
        while out.len() < len {
            n = n
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            writeln!(out, "<p>line {} of the page, {:x}</p>", out.len(), n >> 40).unwrap();
        }
        out.truncate(len);
        out
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn raw_deflate(data: &[u8]) -> Vec<u8> {
        let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn brotli(data: &[u8]) -> Vec<u8> {
        let mut w = ::brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
        w.write_all(data).unwrap();
        w.into_inner()
    }

    fn zstd(data: &[u8]) -> Vec<u8> {
        ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
    }

    /// A response block: the head's lines, a blank line, the body.
    fn block(lines: &[&str], body: &[u8]) -> Vec<u8> {
        let mut out = b"HTTP/1.1 200 OK\r\n".to_vec();
        for line in lines {
            out.extend_from_slice(line.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(body);
        out
    }

    /// The block's body decoded: the bytes, `failed`, `truncated`.
    fn decode(block: &[u8], limit: usize) -> (Vec<u8>, Option<String>, bool) {
        let head = parse_head(block).expect("an HTTP response");
        let body = &block[head.body_start..];
        let out = decode_body(&head, body, limit);
        (out.bytes.bytes(body).to_vec(), out.failed, out.truncated)
    }

    /// The body decoded with one Content-Encoding, without limit.
    fn decoded_as(coding: &str, body: &[u8]) -> (Vec<u8>, Option<String>, bool) {
        decode(
            &block(&[&format!("Content-Encoding: {coding}")], body),
            usize::MAX,
        )
    }

    fn head_of(block: &[u8]) -> Head {
        parse_head(block).expect("an HTTP response")
    }

    // ---- heads ----

    #[test]
    fn crlf_head() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello";
        let head = head_of(block);
        assert_eq!(head.status, 200);
        assert_eq!(
            head.headers,
            [
                field("Content-Type", "text/html"),
                field("Content-Length", "5")
            ]
        );
        assert_eq!(head.body_start, block.len() - 5);
        assert_eq!(head.content_type(), Some("text/html"));
        assert_eq!(head.get("CONTENT-LENGTH"), Some("5"));
    }

    #[test]
    fn lf_and_mixed_heads() {
        let block = b"HTTP/1.0 200 OK\nA: 1\nB: 2\n\nbody";
        let head = head_of(block);
        assert_eq!(head.headers, [field("A", "1"), field("B", "2")]);
        assert_eq!(&block[head.body_start..], b"body");

        let block = b"HTTP/1.1 200 OK\r\nA: 1\nB: 2\r\n\nbody\r\n\r\nmore";
        let head = head_of(block);
        assert_eq!(head.headers, [field("A", "1"), field("B", "2")]);
        assert_eq!(&block[head.body_start..], b"body\r\n\r\nmore");

        // A blank line of CR LF after LF-only lines.
        let block = b"HTTP/1.1 200 OK\nA: 1\n\r\nbody";
        assert_eq!(&block[head_of(block).body_start..], b"body");
    }

    #[test]
    fn folded_lines_join_with_one_space() {
        let block = b"HTTP/1.1 200 OK\r\nX-Long: a\r\n b\r\n\t\tc  \r\nY: z\r\n\r\n";
        let head = head_of(block);
        assert_eq!(head.headers, [field("X-Long", "a b c"), field("Y", "z")]);

        // A fold under an empty value, a fold of only spaces, a fold before
        // any field and a fold under a skipped line.
        let block = b"HTTP/1.1 200 OK\n  orphan\nE:\n v\nF: w\n   \nno colon here\n lost\n\n";
        let head = head_of(block);
        assert_eq!(head.headers, [field("E", "v"), field("F", "w")]);
    }

    #[test]
    fn odd_spacing_and_lines_without_colon() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type:text/html\r\n\
            Content-Type :  text/plain \r\n\tnot-a-field\r\njunk line\r\n\
            : no name\r\nX-Empty:\r\nX-Colons: a:b:c\r\n\r\n";
        let head = head_of(block);
        assert_eq!(
            head.headers,
            [
                field("Content-Type", "text/html"),
                field("Content-Type", "text/plain not-a-field"),
                field("X-Empty", ""),
                field("X-Colons", "a:b:c"),
            ]
        );
        assert_eq!(head.content_type(), Some("text/html"));
        assert_eq!(head.body_start, block.len());
    }

    #[test]
    fn head_without_blank_line_is_the_whole_block() {
        let block = b"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2";
        let head = head_of(block);
        assert_eq!(head.headers, [field("A", "1"), field("B", "2")]);
        assert_eq!(head.body_start, block.len());

        let head = head_of(b"HTTP/1.1 304 Not Modified");
        assert_eq!(
            (head.status, head.headers.len(), head.body_start),
            (304, 0, 25)
        );

        let head = head_of(b"HTTP/1.1 204 No Content\r\n");
        assert_eq!((head.status, head.body_start), (204, 25));
    }

    #[test]
    fn status_lines() {
        let status = |line: &[u8]| parse_head(line).map(|h| h.status);
        assert_eq!(status(b"HTTP/1.1 404 Not Found\r\n\r\n"), Some(404));
        assert_eq!(status(b"http/1.0 503 Service Unavailable\n\n"), Some(503));
        assert_eq!(status(b"Http/1.1 200\r\n\r\n"), Some(200));
        assert_eq!(status(b"HTTP/2 200\r\n\r\n"), Some(200));
        assert_eq!(status(b"HTTP/1.1  301\tMoved\r\n\r\n"), Some(301));
        assert_eq!(status(b"HTTP/1.1 999 \r\n\r\n"), Some(999));
        for not_http in [
            &b""[..],
            b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
            b"20160101000000\nexample.com.\t300\tIN\tA\t93.184.216.34\n",
            b"HTTP/1.1 20 OK\r\n\r\n",
            b"HTTP/1.1 2000 OK\r\n\r\n",
            b"HTTP/1.1 20x OK\r\n\r\n",
            b"HTTP/1.1200 OK\r\n\r\n",
            b"HTTP/ 200 OK\r\n\r\n",
            b"HTTP/x 200 OK\r\n\r\n",
            b"HTTPS/1.1 200 OK\r\n\r\n",
            b"ICY 200 OK\r\n\r\n",
            b" HTTP/1.1 200 OK\r\n\r\n",
            b"\r\nHTTP/1.1 200 OK\r\n\r\n",
            b"HTTP/1.1\r\n200 OK\r\n\r\n",
        ] {
            assert_eq!(
                status(not_http),
                None,
                "{:?}",
                String::from_utf8_lossy(not_http)
            );
        }
    }

    #[test]
    fn interim_responses_are_skipped_but_not_101() {
        let block = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n\
                      HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody";
        let head = head_of(block);
        assert_eq!(
            (head.status, head.headers.clone()),
            (200, vec![field("A", "b")])
        );
        assert_eq!(&block[head.body_start..], b"body");

        let block = b"HTTP/1.1 101 Switching Protocols\r\n\r\nHTTP/1.1 200 OK\r\n\r\n";
        assert_eq!(head_of(block).status, 101);
        // A 100 alone is what there is.
        let block = b"HTTP/1.1 100 Continue\r\n\r\nnot a response";
        let head = head_of(block);
        assert_eq!(
            (head.status, &block[head.body_start..]),
            (100, &b"not a response"[..])
        );
    }

    #[test]
    fn non_utf8_headers_are_lossy() {
        let head = head_of(b"HTTP/1.1 200 OK\r\nX-\xff: caf\xe9\r\n\r\n");
        assert_eq!(head.headers, [field("X-\u{fffd}", "caf\u{fffd}")]);
    }

    #[test]
    fn many_header_lines() {
        let mut block = b"HTTP/1.1 200 OK\n".to_vec();
        for i in 0..100_000 {
            writeln!(block, "X-{i}: {i}").unwrap();
        }
        block.extend_from_slice(b"\nbody");
        let head = head_of(&block);
        assert_eq!(head.headers.len(), 100_000);
        assert_eq!(head.headers[99_999], field("X-99999", "99999"));
        assert_eq!(&block[head.body_start..], b"body");
    }

    #[test]
    fn codings_are_collected_from_every_field() {
        let head = head_of(b"HTTP/1.1 200 OK\nTransfer-Encoding: gzip , Chunked\nContent-Encoding:\nContent-Encoding: ,X-GZIP,,\n\n");
        assert_eq!(head.codings("transfer-encoding"), ["gzip", "chunked"]);
        assert_eq!(head.codings("Content-Encoding"), ["x-gzip"]);
        assert!(head.codings("Other").is_empty());
    }

    // ---- chunked ----

    fn chunked(body: &[u8]) -> Vec<u8> {
        block(&["Transfer-Encoding: chunked"], body)
    }

    #[test]
    fn chunked_basic() {
        let out = decode(
            &chunked(b"4\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\n\r\n"),
            100,
        );
        assert_eq!(out, (b"Wikipedia in\r\n\r\nchunks.".to_vec(), None, false));
    }

    #[test]
    fn one_chunk_needs_no_copy() {
        let block = chunked(b"5\r\nhello\r\n0\r\n\r\n");
        let head = head_of(&block);
        let body = &block[head.body_start..];
        assert_eq!(
            decode_body(&head, body, 100).bytes,
            BodyBytes::Verbatim(3..8)
        );
    }

    #[test]
    fn chunk_extensions_case_and_spaces() {
        let out = decode(
            &chunked(b"4;name=value\r\nWiki\r\n 5 ; ext ; more\r\npedia\r\na\t\r\n0123456789\r\nB\r\nABCDEFGHIJK\r\n0;last\r\n\r\n"),
            100,
        );
        assert_eq!(
            out,
            (b"Wikipedia0123456789ABCDEFGHIJK".to_vec(), None, false)
        );
    }

    #[test]
    fn chunked_lf_only_and_missing_line_ends() {
        let out = decode(&chunked(b"4\nWiki\n5\npedia\n0\n\n"), 100);
        assert_eq!(out, (b"Wikipedia".to_vec(), None, false));
        // The line end after the data left out.
        let out = decode(&chunked(b"4\r\nWiki5\r\npedia0\r\n\r\n"), 100);
        assert_eq!(out, (b"Wikipedia".to_vec(), None, false));
        // The last chunk with no line end at all.
        let out = decode(&chunked(b"4\r\nWiki\r\n0"), 100);
        assert_eq!(out, (b"Wiki".to_vec(), None, false));
    }

    #[test]
    fn chunked_trailers_and_what_follows_are_ignored() {
        let out = decode(
            &chunked(b"4\r\nWiki\r\n0\r\nX-Trailer: 1\r\nX-Other: 2\r\n\r\ngarbage"),
            100,
        );
        assert_eq!(out, (b"Wiki".to_vec(), None, false));
    }

    #[test]
    fn body_short_of_its_content_length_is_truncated() {
        let status = |line: &str, fields: &[&str], body: &[u8]| {
            let mut block = format!("HTTP/1.1 {line}\r\n").into_bytes();
            for field in fields {
                block.extend_from_slice(format!("{field}\r\n").as_bytes());
            }
            block.extend_from_slice(b"\r\n");
            block.extend_from_slice(body);
            decode(&block, 100)
        };
        let ok = |fields: &[&str], body: &[u8]| status("200 OK", fields, body);
        // Cut: what came is kept, and said not whole; nothing at all too.
        assert_eq!(
            ok(&["Content-Length: 9"], b"<p>hi"),
            (b"<p>hi".to_vec(), None, true)
        );
        assert_eq!(ok(&["Content-Length: 9"], b""), (vec![], None, true));
        // Whole, or longer (left as it is); an empty body of length 0.
        assert!(!ok(&["Content-Length: 5"], b"<p>hi").2);
        assert!(!ok(&["Content-Length: 2"], b"<p>hi").2);
        assert!(!ok(&["Content-Length: 0"], b"").2);
        // Under a content coding: the coded bytes are what it counts.
        let gz = gzip(b"<p>hello");
        let field = format!("Content-Length: {}", gz.len() + 1);
        let out = ok(&["Content-Encoding: gzip", &field], &gz);
        assert_eq!(out, (b"<p>hello".to_vec(), None, true));
        // Repeated, the same number: framed; different or not a number: not.
        assert!(ok(&["Content-Length: 9", "Content-Length: 9"], b"x").2);
        assert!(ok(&["Content-Length: 9, 9"], b"x").2);
        assert!(!ok(&["Content-Length: 9", "Content-Length: 8"], b"x").2);
        assert!(!ok(&["Content-Length: 9x"], b"x").2);
        assert!(!ok(&["Content-Length: -9"], b"x").2);
        assert!(!ok(&["Content-Length: "], b"x").2);
        // Chunked framing wins over Content-Length.
        let out = ok(
            &["Transfer-Encoding: chunked", "Content-Length: 99"],
            b"2\r\nhi\r\n0\r\n\r\n",
        );
        assert_eq!(out, (b"hi".to_vec(), None, false));
        // Statuses with no body.
        for line in ["204 No Content", "304 Not Modified", "103 Early Hints"] {
            assert!(!status(line, &["Content-Length: 9"], b"").2, "{line}");
        }
        assert!(status("404 Not Found", &["Content-Length: 9"], b"").2);
    }

    #[test]
    fn chunked_ending_early_is_truncated() {
        // Inside a chunk's data.
        let out = decode(&chunked(b"4\r\nWiki\r\na\r\n01234"), 100);
        assert_eq!(out, (b"Wiki01234".to_vec(), None, true));
        // Right after a size line.
        let out = decode(&chunked(b"4\r\nWiki\r\na\r\n"), 100);
        assert_eq!(out, (b"Wiki".to_vec(), None, true));
        // Between chunks, with no last chunk.
        let out = decode(&chunked(b"4\r\nWiki\r\n"), 100);
        assert_eq!(out, (b"Wiki".to_vec(), None, true));
        // Inside a size line.
        let out = decode(&chunked(b"4\r\nWiki\r\n1"), 100);
        assert_eq!(out, (b"Wiki".to_vec(), None, true));
        // Inside the first chunk.
        let out = decode(&chunked(b"10\r\nabc"), 100);
        assert_eq!(out, (b"abc".to_vec(), None, true));
    }

    #[test]
    fn chunked_broken_in_the_middle_keeps_the_rest_raw() {
        let (bytes, failed, truncated) =
            decode(&chunked(b"4\r\nWiki\r\nzz\r\nrest\r\n0\r\n\r\n"), 100);
        assert_eq!(bytes, b"Wikizz\r\nrest\r\n0\r\n\r\n");
        assert!(failed.unwrap().starts_with("transfer coding chunked: "));
        assert!(!truncated);
        // An extra blank line between chunks is a break too.
        let (bytes, failed, _) = decode(&chunked(b"4\r\nWiki\r\n\r\n5\r\npedia\r\n0\r\n\r\n"), 100);
        assert_eq!(bytes, b"Wiki\r\n5\r\npedia\r\n0\r\n\r\n");
        assert!(failed.is_some());
    }

    #[test]
    fn not_chunked_from_the_start_is_raw() {
        for body in [
            &b"<!DOCTYPE html><p>stored dechunked"[..],
            b"abc",
            b"0 items\r\n",
            b"\r\n5\r\nhello",
        ] {
            let block = chunked(body);
            let head = head_of(&block);
            let out = decode_body(&head, &block[head.body_start..], 100);
            assert_eq!(out.bytes, BodyBytes::Verbatim(0..body.len()));
            assert!(out.failed.unwrap().starts_with("transfer coding chunked: "));
            assert!(!out.truncated);
        }
    }

    #[test]
    fn huge_chunk_sizes_do_not_overflow() {
        for size in [
            "ffffffffffffffffffffffffffffffff",
            "10000000000000000",
            "7fffffffffffffff",
        ] {
            let body = format!("{size}\r\nabc");
            let out = decode(&chunked(body.as_bytes()), 100);
            assert_eq!(out, (b"abc".to_vec(), None, true), "{size}");
        }
    }

    #[test]
    fn many_tiny_chunks() {
        let mut body = Vec::new();
        let mut want = Vec::new();
        for i in 0..200_000u32 {
            let byte = b'a' + (i % 26) as u8;
            body.extend_from_slice(&[b'1', b'\r', b'\n', byte, b'\r', b'\n']);
            want.push(byte);
        }
        body.extend_from_slice(b"0\r\n\r\n");
        assert_eq!(decode(&chunked(&body), usize::MAX), (want, None, false));
    }

    #[test]
    fn empty_bodies_with_codings_are_empty() {
        for lines in [
            &["Transfer-Encoding: chunked"][..],
            &["Content-Encoding: gzip"],
            &[
                "Content-Encoding: br, zstd",
                "Transfer-Encoding: gzip, chunked",
            ],
            &["Content-Encoding: bogus"],
        ] {
            let block = block(lines, b"");
            let head = head_of(&block);
            let out = decode_body(&head, b"", 100);
            assert_eq!(
                out,
                Body {
                    bytes: BodyBytes::Verbatim(0..0),
                    content_coding: None,
                    failed: None,
                    truncated: false
                }
            );
        }
        // Chunked down to nothing, then a coding on nothing.
        let out = decode(
            &block(
                &["Transfer-Encoding: chunked", "Content-Encoding: gzip"],
                b"0\r\n\r\n",
            ),
            100,
        );
        assert_eq!(out, (Vec::new(), None, false));
    }

    #[test]
    fn chunked_under_another_transfer_coding() {
        // Not what RFC 9112 allows, but undone in the order listed.
        let body = gzip(b"4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n");
        let out = decode(&block(&["Transfer-Encoding: chunked, gzip"], &body), 100);
        assert_eq!(out, (b"Wikipedia".to_vec(), None, false));
        let body = gzip(b"4\r\nWiki\r\n0\r\n\r\n");
        let out = decode(&block(&["Transfer-Encoding: chunked, gzip"], &body), 100);
        assert_eq!(out, (b"Wiki".to_vec(), None, false));
    }

    #[test]
    fn chunked_then_content_coded() {
        let page = text(50_000);
        let gz = gzip(&page);
        let mut body = Vec::new();
        for piece in gz.chunks(1000) {
            write!(body, "{:x}\r\n", piece.len()).unwrap();
            body.extend_from_slice(piece);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(b"0\r\n\r\n");
        let lines = ["Transfer-Encoding: chunked", "Content-Encoding: gzip"];
        assert_eq!(
            decode(&block(&lines, &body), usize::MAX),
            (page.clone(), None, false)
        );
        // The same as a transfer coding.
        let lines = ["Transfer-Encoding: gzip, chunked"];
        assert_eq!(
            decode(&block(&lines, &body), usize::MAX),
            (page.clone(), None, false)
        );
        // Stored dechunked, header kept: the content coding still applies.
        let lines = ["Transfer-Encoding: chunked", "Content-Encoding: gzip"];
        let (bytes, failed, truncated) = decode(&block(&lines, &gz), usize::MAX);
        assert_eq!((bytes, truncated), (page, false));
        assert!(failed
            .unwrap()
            .starts_with("transfer coding chunked: no chunk size"));
    }

    // ---- content codings ----

    #[test]
    fn gzip_and_x_gzip() {
        let page = text(100_000);
        for coding in ["gzip", "x-gzip", "GZip", " gzip "] {
            assert_eq!(
                decoded_as(coding, &gzip(&page)),
                (page.clone(), None, false),
                "{coding}"
            );
        }
    }

    #[test]
    fn gzip_members_and_header_fields() {
        let (a, b) = (text(3000), b"second member".to_vec());
        let mut body = gzip(&a);
        let mut e = GzBuilder::new()
            .filename("page.html")
            .comment("a comment")
            .extra(vec![1, 2, 3, 4])
            .write(Vec::new(), Compression::fast());
        e.write_all(&b).unwrap();
        body.extend(e.finish().unwrap());
        body.extend(gzip(b""));
        let want = [a.as_slice(), b.as_slice()].concat();
        assert_eq!(decoded_as("gzip", &body), (want.clone(), None, false));
        // Bytes after the last member that are no member are dropped.
        body.extend_from_slice(b"\0\0\r\ntrailing");
        assert_eq!(decoded_as("gzip", &body), (want, None, false));
    }

    #[test]
    fn gzip_trailer_is_not_checked() {
        let page = text(2000);
        let mut body = gzip(&page);
        let n = body.len();
        body[n - 8] ^= 0xff; // The CRC-32.
        assert_eq!(decoded_as("gzip", &body), (page.clone(), None, false));
        body.truncate(n - 8);
        assert_eq!(decoded_as("gzip", &body), (page, None, false));
    }

    #[test]
    fn deflate_zlib_and_raw() {
        let page = text(100_000);
        assert_eq!(
            decoded_as("deflate", &zlib(&page)),
            (page.clone(), None, false)
        );
        assert_eq!(
            decoded_as("deflate", &raw_deflate(&page)),
            (page.clone(), None, false)
        );
        // A tiny raw stream: one stored block, "hi".
        let stored = [1, 2, 0, 0xfd, 0xff, b'h', b'i'];
        assert_eq!(
            decoded_as("deflate", &stored),
            (b"hi".to_vec(), None, false)
        );
    }

    #[test]
    fn brotli_and_zstd() {
        let page = text(100_000);
        assert_eq!(
            decoded_as("br", &brotli(&page)),
            (page.clone(), None, false)
        );
        assert_eq!(
            decoded_as("zstd", &zstd(&page)),
            (page.clone(), None, false)
        );
        assert_eq!(
            decoded_as("br", &brotli(b"x")),
            (b"x".to_vec(), None, false)
        );
    }

    /// A zstd frame of one raw block holding `data` (RFC 8878: no checksum,
    /// not single-segment, the given window descriptor).
    fn zstd_raw_frame(window_descriptor: u8, data: &[u8]) -> Vec<u8> {
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, window_descriptor];
        let header = (data.len() as u32) << 3 | 1; // Raw, last block.
        frame.extend_from_slice(&header.to_le_bytes()[..3]);
        frame.extend_from_slice(data);
        frame
    }

    #[test]
    fn zstd_frames_skippable_frames_and_windows() {
        let mut body = zstd_raw_frame(0x50, b"hello ");
        body.extend_from_slice(&[0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
        body.extend(zstd(b"world"));
        assert_eq!(
            decoded_as("zstd", &body),
            (b"hello world".to_vec(), None, false)
        );
        // 8 MiB windows pass, 16 MiB ones do not.
        let body = zstd_raw_frame(0x68, b"8 MiB");
        assert_eq!(decoded_as("zstd", &body), (b"8 MiB".to_vec(), None, false));
        let body = zstd_raw_frame(0x70, b"16 MiB");
        let (bytes, failed, _) = decoded_as("zstd", &body);
        assert_eq!(bytes, body);
        assert!(failed.unwrap().contains("window"));
        // A single-segment frame whose content size is its window.
        let mut single = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, 3];
        single.extend_from_slice(&[(3 << 3 | 1) as u8, 0, 0]);
        single.extend_from_slice(b"abc");
        assert_eq!(decoded_as("zstd", &single), (b"abc".to_vec(), None, false));
    }

    #[test]
    fn stacked_codings_are_undone_last_first() {
        let page = text(20_000);
        assert_eq!(
            decoded_as("gzip, br", &brotli(&gzip(&page))),
            (page.clone(), None, false)
        );
        let lines = [
            "Content-Encoding: deflate",
            "Content-Encoding: zstd, identity",
        ];
        assert_eq!(
            decode(&block(&lines, &zstd(&zlib(&page))), usize::MAX),
            (page, None, false)
        );
    }

    #[test]
    fn lying_codings_leave_the_body_raw() {
        let html =
            b"<!DOCTYPE html>\n<html><head><title>t</title></head><body>plain</body></html>\n";
        for coding in ["gzip", "x-gzip", "deflate", "br", "zstd"] {
            let block = block(&[&format!("Content-Encoding: {coding}")], html);
            let head = head_of(&block);
            let out = decode_body(&head, &block[head.body_start..], 1000);
            assert_eq!(out.bytes, BodyBytes::Verbatim(0..html.len()), "{coding}");
            let failed = out.failed.unwrap();
            assert!(
                failed.starts_with(&format!("content coding {coding}: ")),
                "{failed}"
            );
            assert!(!out.truncated);
        }
        let (_, failed, _) = decoded_as("gzip", html);
        assert_eq!(failed.unwrap(), "content coding gzip: invalid gzip header");
    }

    #[test]
    fn content_coding_says_applied_failed_or_none() {
        let page = b"<p>a page".as_slice();
        let coding = |lines: &[&str], body: &[u8]| {
            let block = block(lines, body);
            let head = head_of(&block);
            decode_body(&head, &block[head.body_start..], 1000).content_coding
        };
        let ce = |c: &str| format!("Content-Encoding: {c}");
        assert_eq!(coding(&[], page), None);
        assert_eq!(coding(&[&ce("identity")], page), None);
        assert_eq!(
            coding(&["Transfer-Encoding: chunked"], b"3\r\nabc\r\n0\r\n\r\n"),
            None
        );
        assert_eq!(
            coding(&[&ce("gzip")], &gzip(page)),
            Some(ContentCoding::Applied)
        );
        assert_eq!(
            coding(&[&ce("gzip, br")], &brotli(&gzip(page))),
            Some(ContentCoding::Applied)
        );
        // A layer that fails, outer or inner; an unknown coding.
        assert_eq!(coding(&[&ce("br")], page), Some(ContentCoding::Failed));
        assert_eq!(
            coding(&[&ce("gzip, br")], &brotli(page)),
            Some(ContentCoding::Failed)
        );
        assert_eq!(
            coding(&[&ce("compress")], page),
            Some(ContentCoding::Failed)
        );
        // A transfer coding that stops the decoding before them.
        assert_eq!(
            coding(&["Transfer-Encoding: foo", &ce("gzip")], &gzip(page)),
            Some(ContentCoding::Failed)
        );
        // Nothing to decode: a HEAD response, a chunked body of nothing.
        assert_eq!(coding(&[&ce("gzip"), "Content-Length: 20"], b""), None);
        assert_eq!(
            coding(&["Transfer-Encoding: chunked", &ce("gzip")], b"0\r\n\r\n"),
            None
        );
    }

    #[test]
    fn not_a_page_takes_text_with_markup_and_nothing_else() {
        for page in [
            &b"<html>"[..],
            b"  \r\n\x0c\t<!-- x -->",
            b"Some text before <b>markup</b>",
            "<p>\u{1b}$B legacy escapes and caf\u{e9}".as_bytes(),
            b"\xef\xbb\xbf<p>a UTF-8 byte order mark",
            b"\xff\xfe<\x00p\x00>\x00",
        ] {
            assert_eq!(not_a_page(page), None, "{page:?}");
        }
        for (bytes, why) in [
            (&b"\x1f\x8b\x08\x00<p>"[..], "binary (byte 0 is 0x1f"),
            (b"<p>\x00", "binary (byte 3 is 0x00"),
            (b"", "no markup"),
            (b"\x8b\x7f\xe1=", "no markup"),
        ] {
            let got = not_a_page(bytes).unwrap_or_default();
            assert!(got.starts_with(why), "{bytes:?}: {got}");
        }
        // Only the first 1024 bytes are looked at.
        let mut late = vec![b' '; 1024];
        late.extend_from_slice(b"<p>\x00");
        assert!(not_a_page(&late).unwrap().starts_with("no markup"));
    }

    #[test]
    fn a_failing_inner_coding_keeps_the_outer_one_undone() {
        // Content-Encoding: gzip, br where the br layer holds plain text.
        let (bytes, failed, truncated) = decoded_as("gzip, br", &brotli(b"<p>not gzip"));
        assert_eq!((bytes, truncated), (b"<p>not gzip".to_vec(), false));
        assert_eq!(failed.unwrap(), "content coding gzip: invalid gzip header");
    }

    #[test]
    fn corrupt_stream_after_a_good_header_is_raw() {
        // A gzip header, then a deflate block of the reserved type 3.
        let mut body = gzip(b"")[..10].to_vec();
        body.extend_from_slice(&[0x07, 1, 2, 3, 4, 5, 6, 7, 8]);
        let (bytes, failed, truncated) = decoded_as("gzip", &body);
        assert_eq!((bytes, truncated), (body, false));
        assert!(failed.unwrap().starts_with("content coding gzip: "));
    }

    #[test]
    fn truncated_streams_keep_their_output() {
        // Large enough for zstd, whose blocks (up to 128 KiB of output)
        // come out whole or not at all.
        let page = text(1_000_000);
        for (coding, encoded) in [
            ("gzip", gzip(&page)),
            ("deflate", zlib(&page)),
            ("br", brotli(&page)),
            ("zstd", zstd(&page)),
        ] {
            let (bytes, failed, truncated) = decoded_as(coding, &encoded[..encoded.len() / 2]);
            assert_eq!((failed, truncated), (None, true), "{coding}");
            assert!(
                !bytes.is_empty() && bytes.len() < page.len(),
                "{coding}: {}",
                bytes.len()
            );
            assert_eq!(bytes, page[..bytes.len()], "{coding}");
        }
    }

    #[test]
    fn cut_zstd_frames_give_their_whole_blocks() {
        // Three raw blocks and a content checksum (not checked), RFC 8878.
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x50];
        for (data, last) in [(b"abc", 0), (b"def", 0), (b"ghi", 1)] {
            frame.extend_from_slice(&[3 << 3 | last, 0, 0]);
            frame.extend_from_slice(data);
        }
        frame.extend_from_slice(&[1, 2, 3, 4]);
        let n = frame.len();
        assert_eq!(
            decoded_as("zstd", &frame),
            (b"abcdefghi".to_vec(), None, false)
        );
        assert_eq!(
            decoded_as("zstd", &frame[..n - 2]),
            (b"abcdefghi".to_vec(), None, true)
        );
        assert_eq!(
            decoded_as("zstd", &frame[..n - 6]),
            (b"abcdef".to_vec(), None, true)
        );
        assert_eq!(
            decoded_as("zstd", &frame[..n - 10]),
            (b"abcdef".to_vec(), None, true)
        );
        assert_eq!(
            decoded_as("zstd", &frame[..n - 11]),
            (b"abc".to_vec(), None, true)
        );
        // A whole frame before the cut one stays.
        let mut two = zstd(b"first ");
        two.extend_from_slice(&frame[..n - 6]);
        assert_eq!(
            decoded_as("zstd", &two),
            (b"first abcdef".to_vec(), None, true)
        );
    }

    #[test]
    fn streams_cut_before_any_output_are_raw() {
        let page = text(5000);
        for (coding, encoded) in [
            ("gzip", gzip(&page)[..12].to_vec()),
            ("gzip", vec![0x1f, 0x8b]),
            ("deflate", zlib(&page)[..3].to_vec()),
            ("zstd", zstd(&page)[..6].to_vec()),
            ("zstd", vec![0x28, 0xb5, 0x2f]),
        ] {
            let (bytes, failed, truncated) = decoded_as(coding, &encoded);
            assert_eq!((bytes, truncated), (encoded, false), "{coding}");
            assert!(failed
                .unwrap()
                .starts_with(&format!("content coding {coding}: ")));
        }
    }

    #[test]
    fn unknown_and_identity_codings() {
        let body = b"\x1f\x9d\x90 compressed by compress(1)";
        let block_of = |coding: &str| block(&[&format!("Content-Encoding: {coding}")], body);
        for coding in ["compress", "x-compress", "utf-8", "gzip, foo"] {
            let block = block_of(coding);
            let head = head_of(&block);
            let out = decode_body(&head, &block[head.body_start..], 1000);
            assert_eq!(out.bytes, BodyBytes::Verbatim(0..body.len()));
            let failed = out.failed.unwrap();
            assert!(failed.contains("unknown coding"), "{failed}");
            assert!(failed.starts_with("content coding "), "{failed}");
        }
        for coding in ["identity", "", "Identity , identity"] {
            let block = block_of(coding);
            let head = head_of(&block);
            let out = decode_body(&head, &block[head.body_start..], 1000);
            assert_eq!(
                (out.bytes, out.failed, out.truncated),
                (BodyBytes::Verbatim(0..body.len()), None, false)
            );
        }
        // An unknown transfer coding stops the content codings too.
        let (bytes, failed, _) = decode(
            &block(&["Transfer-Encoding: foo", "Content-Encoding: gzip"], body),
            1000,
        );
        assert_eq!(bytes, body);
        assert!(failed
            .unwrap()
            .starts_with("transfer coding foo: unknown coding"));
    }

    /// A zstd frame of `blocks` RLE blocks, each 128 KiB of `byte`.
    fn zstd_rle_bomb(blocks: usize, byte: u8) -> Vec<u8> {
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50];
        for i in 0..blocks {
            let last = u32::from(i + 1 == blocks);
            let header = (128 * 1024) << 3 | 1 << 1 | last; // RLE.
            frame.extend_from_slice(&header.to_le_bytes()[..3]);
            frame.push(byte);
        }
        frame
    }

    #[test]
    fn bombs_stop_at_the_limit() {
        let member = gzip(&vec![0; 1 << 20]);
        let gz_bomb = member.repeat(16);
        let limit = 1_000_000;
        for (coding, bomb, byte) in [
            ("gzip", gz_bomb.clone(), 0),
            ("deflate", raw_deflate(&vec![7; 4 << 20]), 7),
            ("br", brotli(&vec![b'a'; 4 << 20]), b'a'),
            ("zstd", zstd_rle_bomb(64, b'z'), b'z'),
        ] {
            assert!(bomb.len() < 100_000, "{coding}: {}", bomb.len());
            let block = block(&[&format!("Content-Encoding: {coding}")], &bomb);
            let head = head_of(&block);
            let out = decode_body(&head, &block[head.body_start..], limit);
            assert_eq!(
                (out.failed.as_deref(), out.truncated),
                (None, true),
                "{coding}"
            );
            let BodyBytes::Decoded(bytes) = out.bytes else {
                panic!("{coding}: not decoded");
            };
            assert_eq!(bytes.len(), limit, "{coding}");
            assert!(bytes.iter().all(|b| *b == byte), "{coding}");
            assert!(
                bytes.capacity() <= limit + 1,
                "{coding}: {}",
                bytes.capacity()
            );
        }
        // The whole zstd bomb is 8 MiB of one byte.
        let out = decoded_as("zstd", &zstd_rle_bomb(64, b'z'));
        assert_eq!((out.0.len(), out.1, out.2), (8 << 20, None, false));
    }

    #[test]
    fn the_limit_is_exact() {
        let page = text(1000);
        for coding in ["gzip", "deflate", "br", "zstd"] {
            let encoded = match coding {
                "gzip" => gzip(&page),
                "deflate" => zlib(&page),
                "br" => brotli(&page),
                _ => zstd(&page),
            };
            let block = block(&[&format!("Content-Encoding: {coding}")], &encoded);
            assert_eq!(
                decode(&block, 1000),
                (page.clone(), None, false),
                "{coding}"
            );
            assert_eq!(
                decode(&block, 999),
                (page[..999].to_vec(), None, true),
                "{coding}"
            );
            assert_eq!(decode(&block, 0), (Vec::new(), None, true), "{coding}");
        }
        // Plain and chunked bodies are cut too.
        let block_plain = block(&[], b"0123456789");
        assert_eq!(
            decode(&block_plain, 10),
            (b"0123456789".to_vec(), None, false)
        );
        assert_eq!(decode(&block_plain, 4), (b"0123".to_vec(), None, true));
        let block_chunked = chunked(b"3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n");
        assert_eq!(decode(&block_chunked, 4), (b"abcd".to_vec(), None, true));
    }

    #[test]
    fn plain_bodies_are_not_copied() {
        let block = block(&["Content-Type: text/html"], b"<p>hi");
        let head = head_of(&block);
        let out = decode_body(&head, &block[head.body_start..], 100);
        assert_eq!(
            out,
            Body {
                bytes: BodyBytes::Verbatim(0..5),
                content_coding: None,
                failed: None,
                truncated: false
            }
        );
    }

    // ---- sniffing ----

    #[test]
    fn sniff_html_positives() {
        for tag in [
            "<!DOCTYPE HTML",
            "<HTML",
            "<HEAD",
            "<SCRIPT",
            "<IFRAME",
            "<H1",
            "<DIV",
            "<FONT",
            "<TABLE",
            "<A",
            "<STYLE",
            "<TITLE",
            "<B",
            "<BODY",
            "<BR",
            "<P",
            "<!--",
        ] {
            for end in [" ", ">"] {
                for case in [tag.to_string(), tag.to_ascii_lowercase()] {
                    let bytes = format!("{case}{end}rest");
                    assert!(sniff_html(bytes.as_bytes()), "{bytes}");
                    let spaced = format!("\t\n\x0c\r {case}{end}");
                    assert!(sniff_html(spaced.as_bytes()), "{spaced:?}");
                }
            }
        }
        assert!(sniff_html(b"<!doctype html>"));
        assert!(sniff_html(
            b"<!DocType Html PUBLIC \"-//W3C//DTD HTML 4.01//EN\">"
        ));
        assert!(sniff_html(b"<hTmL lang=en>"));
        assert!(sniff_html(b"<!-- comment -->"));
        // Leading whitespace up to the end of the resource header.
        let mut bytes = vec![b' '; 1439];
        bytes.extend_from_slice(b"<html>");
        assert!(sniff_html(&bytes));
    }

    #[test]
    fn sniff_html_negatives() {
        for bytes in [
            &b""[..],
            b"   ",
            b"<html", // No tag-terminating byte.
            b"<htmlx>",
            b"<html\n>", // LF does not terminate a tag here.
            b"<b\t>",
            b"<br/>",
            b"<h2>",
            b"<pre>",
            b"<abbr>",
            b"<!---->", // "<!--" must be followed by space or ">".
            b"<!doctypehtml>",
            b"<!DOCTYPE  html>",
            b"<?xml version=\"1.0\"?><html>",
            b"\xef\xbb\xbf<html>", // A BOM is not whitespace.
            b"\0<html>",
            b"\x0b<html>", // VT is not a whitespace byte.
            b"text <html>",
            b"{\"html\": 1}",
            b"%PDF-1.4 <html>",
        ] {
            assert!(!sniff_html(bytes), "{:?}", String::from_utf8_lossy(bytes));
        }
        // Past the resource header (1445 bytes), nothing counts.
        let mut bytes = vec![b' '; 1440];
        bytes.extend_from_slice(b"<html>");
        assert!(!sniff_html(&bytes));
    }

    // ---- any input ----

    #[test]
    fn random_and_mutated_inputs_never_panic_and_respect_the_limit() {
        let page = text(3000);
        let codings = [
            "gzip", "x-gzip", "deflate", "br", "zstd", "identity", "bogus", "gzip, br",
        ];
        let seeds: Vec<Vec<u8>> = vec![
            block(&["Content-Type: text/html"], &page),
            chunked(b"4\r\nWiki\r\n5;x\r\npedia\r\n0\r\nT: 1\r\n\r\n"),
            block(&["Content-Encoding: gzip"], &gzip(&page)),
            block(&["Content-Encoding: gzip"], &gzip(&vec![0; 300_000])),
            block(&["Content-Encoding: deflate"], &zlib(&page)),
            block(&["Content-Encoding: deflate"], &raw_deflate(&page)),
            block(&["Content-Encoding: br"], &brotli(&page)),
            block(&["Content-Encoding: br"], &brotli(&vec![1; 300_000])),
            block(&["Content-Encoding: zstd"], &zstd(&page)),
            block(&["Content-Encoding: zstd"], &zstd_rle_bomb(3, 0)),
            block(
                &["Transfer-Encoding: chunked", "Content-Encoding: gzip"],
                b"a\r\n\x1f\x8b\x08\0\0\0\0\0\0\xff\r\n0\r\n\r\n",
            ),
        ];
        let mut rng = XorShift::new(0x5eed);
        for round in 0..4000 {
            let mut input = match rng.below(4) {
                0 => {
                    let len = rng.below(300);
                    (0..len).map(|_| rng.next_u64() as u8).collect()
                }
                1 => {
                    // A head with random codings over a random or coded body.
                    let te = if rng.below(2) == 0 {
                        "chunked"
                    } else {
                        "gzip, chunked"
                    };
                    let ce = codings[rng.below(codings.len())];
                    let body: Vec<u8> = match rng.below(3) {
                        0 => (0..rng.below(200)).map(|_| rng.next_u64() as u8).collect(),
                        1 => seeds[rng.below(seeds.len())].clone(),
                        _ => page[..rng.below(page.len())].to_vec(),
                    };
                    block(
                        &[
                            &format!("Transfer-Encoding: {te}"),
                            &format!("Content-Encoding: {ce}"),
                        ],
                        &body,
                    )
                }
                _ => seeds[rng.below(seeds.len())].clone(),
            };
            // Mutations: flipped bytes, cuts, inserted runs.
            for _ in 0..rng.below(4) {
                if input.is_empty() {
                    break;
                }
                let at = rng.below(input.len());
                match rng.below(3) {
                    0 => input[at] ^= 1 << rng.below(8),
                    1 => input.truncate(at),
                    _ => {
                        let run: Vec<u8> =
                            (0..rng.below(8)).map(|_| rng.next_u64() as u8).collect();
                        input.splice(at..at, run);
                    }
                }
            }
            let limit = [0, 1, 7, 100, 4096, 100_000, usize::MAX][rng.below(7)];
            let Some(head) = parse_head(&input) else {
                continue;
            };
            assert!(head.body_start <= input.len(), "round {round}");
            let body = &input[head.body_start..];
            let out = decode_body(&head, body, limit);
            match &out.bytes {
                BodyBytes::Verbatim(range) => {
                    assert!(
                        range.start <= range.end && range.end <= body.len(),
                        "round {round}"
                    )
                }
                BodyBytes::Decoded(bytes) => assert!(
                    bytes.capacity() <= limit.max(1 << 17).saturating_mul(2),
                    "round {round}"
                ),
            }
            assert!(out.bytes.bytes(body).len() <= limit, "round {round}");
        }
    }

    // ---- MIME types ----

    /// What `mime_type` extracts from a head with `lines`, serialized.
    fn extracted(lines: &[&str]) -> Option<String> {
        head_of(&block(lines, b""))
            .mime_type()
            .map(|m| m.to_string())
    }

    #[test]
    fn extract_a_mime_type_as_the_fetch_standard_shows() {
        // The examples under "extract a MIME type" (Fetch, § 3.2.7,
        // `Content-Type` header), output serialized.
        for (lines, expected) in [
            (
                &["Content-Type: text/plain;charset=gbk, text/html"][..],
                "text/html",
            ),
            (
                &["Content-Type: text/html;charset=gbk;a=b, text/html;x=y"],
                "text/html;x=y;charset=gbk",
            ),
            (
                &[
                    "Content-Type: text/html;charset=gbk;a=b",
                    "Content-Type: text/html;x=y",
                ],
                "text/html;x=y;charset=gbk",
            ),
            (
                &[
                    "Content-Type: text/html;charset=gbk",
                    "Content-Type: x/x",
                    "Content-Type: text/html;x=y",
                ],
                "text/html;x=y",
            ),
            (
                &["Content-Type: text/html", "Content-Type: cannot-parse"],
                "text/html",
            ),
            (
                &["Content-Type: text/html", "Content-Type: */*"],
                "text/html",
            ),
            (&["Content-Type: text/html", "Content-Type:"], "text/html"),
        ] {
            assert_eq!(extracted(lines).as_deref(), Some(expected), "{lines:?}");
        }
    }

    #[test]
    fn one_content_type_value_is_extracted_as_among_others() {
        // One field without a comma takes a short way: it must give what
        // the general way gives when a value that is no MIME type follows.
        for value in [
            "text/html",
            " TEXT/HTML ; Charset=\"UTF-8\" ",
            "text/html;charset=gbk;a=b",
            "*/*",
            "cannot-parse",
            "text/html charset=utf-8",
            "",
            "text/html;charset=\"a;b\"",
        ] {
            let alone = format!("Content-Type: {value}");
            let head = head_of(&block(&[alone.as_str()], b""));
            let general = extracted(&[alone.as_str(), "Content-Type: nonsense"]);
            assert_eq!(
                head.mime_type().map(|m| m.to_string()),
                general,
                "{value:?}"
            );
            assert_eq!(
                head.page_content_type(head.mime_type()),
                general.is_some().then(|| value.trim().to_owned()),
                "{value:?}"
            );
        }
    }

    #[test]
    fn extract_a_mime_type_over_several_fields_and_lists() {
        for (lines, expected) in [
            (
                &["Content-Type: text/plain", "Content-Type: text/html"][..],
                Some("text/html"),
            ),
            (
                &["Content-Type: text/html, text/html; charset=koi8-r"],
                Some("text/html;charset=koi8-r"),
            ),
            (
                &[
                    "Content-Type: text/html; charset=koi8-r",
                    "content-type: text/html",
                ],
                Some("text/html;charset=koi8-r"),
            ),
            (
                &["Content-Type: text/html", "X-Content-Type: text/plain"],
                Some("text/html"),
            ),
            (
                &["Content-Type: TEXT/HTML; CHARSET=GBK"],
                Some("text/html;charset=GBK"),
            ),
            // The charset carried over is the first of a run of one
            // essence: a later one of that essence applies to its own
            // value only.
            (
                &["Content-Type: text/html;charset=gbk, text/html;charset=utf-8, text/html"],
                Some("text/html;charset=gbk"),
            ),
            (
                &["Content-Type: text/html;charset=gbk, text/html;charset=utf-8"],
                Some("text/html;charset=utf-8"),
            ),
            (
                &["Content-Type: text/html;charset=gbk, text/plain, text/html"],
                Some("text/html"),
            ),
            // A comma in a quoted string does not split the list.
            (
                &[r#"Content-Type: text/html;x=",text/plain""#],
                Some(r#"text/html;x=",text/plain""#),
            ),
            (
                &[
                    "Content-Type: text/html;charset=gbk",
                    r#"Content-Type: text/html;x=",text/plain"#,
                ],
                Some(r#"text/html;x=",text/plain";charset=gbk"#),
            ),
            (
                &["Content-Type: text/plain;charset=gbk, text/html;charset=windows-1254"],
                Some("text/html;charset=windows-1254"),
            ),
            // Nothing parses, or nothing is there: no MIME type.
            (&["Content-Type: html"], None),
            (&["Content-Type: */*, cannot-parse, "], None),
            (&["Content-Type:"], None),
            (&["X-Type: text/html"], None),
        ] {
            assert_eq!(extracted(lines).as_deref(), expected, "{lines:?}");
        }
    }

    #[test]
    fn get_decode_and_split_as_the_fetch_standard_shows() {
        // The examples under "get, decode, and split" (Fetch, § 2.2.2).
        for (value, expected) in [
            ("nosniff,", &["nosniff", ""][..]),
            ("", &[""]),
            (r#"text/html;", x/x"#, &[r#"text/html;", x/x"#]),
            (r#"x/x;test="hi",y/y"#, &[r#"x/x;test="hi""#, "y/y"]),
            ("x / x,,,1", &["x / x", "", "", "1"]),
            (r#""1,2", 3"#, &[r#""1,2""#, "3"]),
            (r#"a="b\",c", d"#, &[r#"a="b\",c""#, "d"]),
        ] {
            assert_eq!(split_header_value(value), expected, "{value:?}");
        }
    }

    #[test]
    fn parse_a_mime_type_as_the_mime_sniffing_standard_says() {
        for (input, expected) in [
            ("text/html", Some("text/html")),
            (" \t\r\nText/HTML;\n", Some("text/html")),
            ("text/html ;charset=gbk", Some("text/html;charset=gbk")),
            ("text/html; charset=gbk", Some("text/html;charset=gbk")),
            // Leading whitespace in a value is part of it.
            (
                "text/html;charset= gbk",
                Some(r#"text/html;charset=" gbk""#),
            ),
            ("text/html;charset=gbk ", Some("text/html;charset=gbk")),
            (r#"text/html;charset="gbk""#, Some("text/html;charset=gbk")),
            (r#"text/html;charset="gbk"#, Some("text/html;charset=gbk")),
            (
                r#"text/html;charset="shift_jis"iso-2022-jp"#,
                Some("text/html;charset=shift_jis"),
            ),
            (r#"text/html;charset="""#, Some(r#"text/html;charset="""#)),
            (r#"text/html;a="b\"c\\d""#, Some(r#"text/html;a="b\"c\\d""#)),
            (r#"text/html;a="\"#, Some(r#"text/html;a="\\""#)),
            (
                "text/html;charset=gbk;charset=utf-8",
                Some("text/html;charset=gbk"),
            ),
            (
                "text/html;charset=();charset=GBK",
                Some(r#"text/html;charset="()""#),
            ),
            ("text/html;test;charset=gbk", Some("text/html;charset=gbk")),
            (
                "text/html;charset=;charset=gbk",
                Some("text/html;charset=gbk"),
            ),
            (
                "text/html;x y=1;=2;charset=gbk",
                Some("text/html;charset=gbk"),
            ),
            ("text/html;a=\u{e9}", Some("text/html;a=\"\u{e9}\"")),
            ("text/html;a=\u{100};b=c", Some("text/html;b=c")),
            (
                "text/html;charset=gbk(",
                Some(r#"text/html;charset="gbk(""#),
            ),
            ("x/x;a=b/c", Some(r#"x/x;a="b/c""#)),
            ("*/*", Some("*/*")),
            ("text", None),
            ("text/", None),
            ("/html", None),
            ("te xt/html", None),
            ("text/ html", None),
            ("text/html, text/plain", None),
            ("text/h\u{e9}", None),
            ("", None),
        ] {
            assert_eq!(
                MimeType::parse(input).map(|m| m.to_string()).as_deref(),
                expected,
                "{input:?}"
            );
        }
    }

    #[test]
    fn a_page_keeps_its_content_type_as_written_when_it_says_the_same() {
        let page_type = |lines: &[&str]| {
            let head = head_of(&block(lines, b""));
            head.page_content_type(head.mime_type())
        };
        for (lines, expected) in [
            (
                &["Content-Type: text/html; charset=utf-8"][..],
                Some("text/html; charset=utf-8"),
            ),
            (
                &[
                    "Content-Type: text/html; charset=koi8-r",
                    "Content-Type: text/html",
                ],
                Some("text/html; charset=koi8-r"),
            ),
            (
                &["Content-Type: text/plain", "Content-Type: text/html"],
                Some("text/html"),
            ),
            (
                &["Content-Type: text/html, text/html; charset=koi8-r"],
                Some("text/html;charset=koi8-r"),
            ),
            (&["Content-Type: html"], None),
            (&[], None),
        ] {
            assert_eq!(page_type(lines).as_deref(), expected, "{lines:?}");
        }
    }
}
