//! A record's header: its WARC named fields (or an ARC header line's
//! fields, named as the ARC format names them), its type and version, and
//! where it is; and the WARC header block's lines as real writers write
//! them (folded lines, version lines cut into by a restarted writer).

use std::fmt;

/// A record's type: a WARC record's `WARC-Type`, or what an ARC record
/// is (its version block a [`Warcinfo`](RecordType::Warcinfo), a record
/// of an `http:` or `https:` URL a [`Response`](RecordType::Response),
/// any other a [`Resource`](RecordType::Resource)).
///
/// ```
/// use htmltok_warc::RecordType;
/// assert_eq!(RecordType::parse("Response"), RecordType::Response);
/// assert_eq!(RecordType::parse("x-crawl-log"), RecordType::Unknown("x-crawl-log".into()));
/// assert_eq!(RecordType::Revisit.as_str(), "revisit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RecordType {
    /// `warcinfo`: about the archive itself (an ARC file's version block).
    Warcinfo,
    /// `response`: what a server sent (an HTTP response, a DNS answer).
    Response,
    /// `resource`: a resource without the protocol around it (a file).
    Resource,
    /// `request`: what the crawler sent.
    Request,
    /// `metadata`: about another record.
    Metadata,
    /// `revisit`: a resource seen before, its payload not stored again.
    Revisit,
    /// `conversion`: another record's content in another form.
    Conversion,
    /// `continuation`: the rest of a record segmented over several.
    Continuation,
    /// Any other type, as written (empty when the record has no
    /// `WARC-Type`).
    Unknown(String),
}

impl RecordType {
    /// The type a `WARC-Type` value names (ASCII case-insensitively).
    pub fn parse(value: &str) -> RecordType {
        const KNOWN: [(&str, RecordType); 8] = [
            ("warcinfo", RecordType::Warcinfo),
            ("response", RecordType::Response),
            ("resource", RecordType::Resource),
            ("request", RecordType::Request),
            ("metadata", RecordType::Metadata),
            ("revisit", RecordType::Revisit),
            ("conversion", RecordType::Conversion),
            ("continuation", RecordType::Continuation),
        ];
        KNOWN
            .into_iter()
            .find(|(name, _)| value.eq_ignore_ascii_case(name))
            .map_or_else(|| RecordType::Unknown(value.to_owned()), |(_, t)| t)
    }

    /// Its name: the standard's (lower case), or an unknown one's as
    /// written.
    pub fn as_str(&self) -> &str {
        match self {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            RecordType::Resource => "resource",
            RecordType::Request => "request",
            RecordType::Metadata => "metadata",
            RecordType::Revisit => "revisit",
            RecordType::Conversion => "conversion",
            RecordType::Continuation => "continuation",
            RecordType::Unknown(name) => name,
        }
    }
}

impl fmt::Display for RecordType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The format and version a record is written in.
///
/// ```
/// use htmltok_warc::Version;
/// assert_eq!(Version::Warc("1.1".into()).to_string(), "WARC/1.1");
/// assert_eq!(Version::Arc(2).to_string(), "ARC v2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// WARC, with the version its first line names (`1.1`, `1.0`, `0.17`;
    /// any digits and dots).
    Warc(String),
    /// ARC, version 1 or 2 (told by the number of fields of its header
    /// line).
    Arc(u8),
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Warc(version) => write!(f, "WARC/{version}"),
            Version::Arc(version) => write!(f, "ARC v{version}"),
        }
    }
}

/// A header's fields in the order written: names as written, looked up
/// ASCII case-insensitively; values trimmed, a folded line joined to its
/// field's value with one space.
///
/// ```
/// use htmltok_warc::Records;
///
/// let archive = b"WARC/1.1\r\nWARC-Type: metadata\r\nX-Note: a\r\n  b\r\nx-note: c\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
/// let mut records = Records::new(archive.to_vec().into()).unwrap();
/// let record = records.next_record().unwrap().unwrap();
/// let fields = record.header().fields();
/// assert_eq!(fields.get("X-NOTE"), Some("a b"));
/// assert_eq!(fields.get_all("x-note").collect::<Vec<_>>(), ["a b", "c"]);
/// assert_eq!(fields.iter().map(|(name, _)| name).collect::<Vec<_>>(), ["WARC-Type", "X-Note", "x-note", "Content-Length"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    /// The value of the first field named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The values of every field named `name`, in order.
    pub fn get_all<'f>(&'f self, name: &'f str) -> impl Iterator<Item = &'f str> + 'f {
        self.0
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every field, `(name, value)`, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// How many fields there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds a field.
    pub(crate) fn push(&mut self, name: String, value: String) {
        self.0.push((name, value));
    }

    /// Adds the header line `line`: `Name: value`, or a folded
    /// continuation of the last field (a line starting with a space or
    /// tab).
    pub(crate) fn add_line(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        if text.starts_with([' ', '\t']) {
            if let Some((_, value)) = self.0.last_mut() {
                value.push(' ');
                value.push_str(text.trim());
            }
            return;
        }
        if let Some((name, value)) = text.split_once(':') {
            self.push(name.trim().to_owned(), value.trim().to_owned());
        }
    }
}

impl<'f> IntoIterator for &'f Fields {
    type Item = (&'f str, &'f str);
    type IntoIter = Box<dyn Iterator<Item = (&'f str, &'f str)> + 'f>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// A record's header: where the record is, what it is, and its fields.
///
/// For an ARC record the fields are its header line's, named as the ARC
/// format names them: `URL`, `IP-address`, `Archive-date`,
/// `Content-type`, `Archive-length` (version 1), with `Result-code`,
/// `Checksum`, `Location`, `Offset` and `Filename` before the length in
/// version 2.
///
/// ```
/// use htmltok_warc::{Records, RecordType, Version};
///
/// let archive = b"WARC/1.1\r\nWARC-Type: request\r\nWARC-Target-URI: <http://a.example/>\r\n\
///                 WARC-Date: 2024-01-02T03:04:05Z\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
/// let mut records = Records::new(archive.to_vec().into()).unwrap();
/// let record = records.next_record().unwrap().unwrap();
/// let header = record.header();
/// assert_eq!((header.number(), header.offset()), (1, 0));
/// assert_eq!(header.version(), &Version::Warc("1.1".into()));
/// assert_eq!(header.record_type(), &RecordType::Request);
/// assert_eq!(header.target_uri(), Some("http://a.example/"));
/// assert_eq!(header.date(), Some("2024-01-02T03:04:05Z"));
/// assert_eq!(header.content_length(), 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub(crate) number: u64,
    pub(crate) offset: u64,
    pub(crate) version: Version,
    pub(crate) record_type: RecordType,
    pub(crate) fields: Fields,
    pub(crate) length: u64,
}

impl Header {
    /// Its number in the archive, from 1 (every record counts, the
    /// `warcinfo` or ARC version block too, and a record lost with its
    /// broken gzip member or frame, which its error names).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Its offset in the archive file: of the gzip member (or LZ4 or
    /// Zstandard frame) it starts in when the archive is compressed, else
    /// of the record itself.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The format and version it is written in.
    pub fn version(&self) -> &Version {
        &self.version
    }

    /// Whether it is an ARC record.
    pub fn is_arc(&self) -> bool {
        matches!(self.version, Version::Arc(_))
    }

    /// Its type.
    pub fn record_type(&self) -> &RecordType {
        &self.record_type
    }

    /// Its fields, in order.
    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    /// The length of its block (`Content-Length`, an ARC record's
    /// length).
    pub fn content_length(&self) -> u64 {
        self.length
    }

    /// The `WARC-Target-URI` (angle brackets dropped), or an ARC record's
    /// URL.
    pub fn target_uri(&self) -> Option<&str> {
        if self.is_arc() {
            return self.fields.get("URL");
        }
        self.fields.get("WARC-Target-URI").map(|uri| {
            let uri = uri.trim();
            uri.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .unwrap_or(uri)
        })
    }

    /// The `WARC-Record-ID`, as written (an ARC record has none).
    pub fn record_id(&self) -> Option<&str> {
        self.fields.get("WARC-Record-ID").filter(|_| !self.is_arc())
    }

    /// The `WARC-Date`, or an ARC record's date (`YYYYMMDDhhmmss`).
    pub fn date(&self) -> Option<&str> {
        match self.is_arc() {
            true => self.fields.get("Archive-date"),
            false => self.fields.get("WARC-Date"),
        }
    }

    /// The record's own `Content-Type` (of its block: for a `response`,
    /// `application/http; msgtype=response`), or an ARC record's content
    /// type (`None` for its `-` or `no-type`).
    pub fn content_type(&self) -> Option<&str> {
        match self.is_arc() {
            true => self
                .fields
                .get("Content-type")
                .filter(|t| *t != "-" && !t.eq_ignore_ascii_case("no-type")),
            false => self.fields.get("Content-Type"),
        }
    }

    /// Why the crawler did not store the whole record, when it says so
    /// (`WARC-Truncated`: `length`, `time`, `disconnect`, `unspecified`).
    pub fn truncated(&self) -> Option<&str> {
        self.fields.get("WARC-Truncated").map(str::trim)
    }

    /// Adds `base` to its number.
    pub(crate) fn renumber(&mut self, base: u64) {
        self.number += base;
    }
}

/// Whether `version` (after `WARC/`) is a version: `1.1`, `0.17`, ...
pub(crate) fn is_version(version: &[u8]) -> bool {
    version.first().is_some_and(u8::is_ascii_digit)
        && version.iter().all(|&b| b.is_ascii_digit() || b == b'.')
}

/// Where a WARC version line (`WARC/1.1`) that ends `line` starts in
/// it: a record started there, cutting the header `line` is in.
pub(crate) fn version_line_at(line: &[u8]) -> Option<usize> {
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
pub(crate) fn is_version_line(bytes: &[u8]) -> bool {
    let Some(end) = memchr::memchr(b'\n', &bytes[..bytes.len().min(32)]) else {
        return false;
    };
    let line = &bytes[..end];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"WARC/").is_some_and(is_version)
}

/// The version a WARC record's first line names (after `WARC/`), as
/// written.
pub(crate) fn version_of(line: &[u8]) -> Version {
    let version = line.get(5..).unwrap_or_default();
    Version::Warc(String::from_utf8_lossy(version).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn record_types_are_told_by_name_whatever_their_case() {
        for name in [
            "warcinfo",
            "response",
            "resource",
            "request",
            "metadata",
            "revisit",
            "conversion",
            "continuation",
        ] {
            let parsed = RecordType::parse(&name.to_ascii_uppercase());
            assert!(!matches!(parsed, RecordType::Unknown(_)), "{name}");
            assert_eq!(parsed.as_str(), name);
        }
        assert_eq!(RecordType::parse("").as_str(), "");
        assert_eq!(RecordType::parse("X-Mine").to_string(), "X-Mine");
    }

    #[test]
    fn folded_lines_join_the_field_above() {
        let mut fields = Fields::default();
        for line in [&b"A: 1"[..], b" two", b"\tthree ", b"no colon", b"B:x"] {
            fields.add_line(line);
        }
        assert_eq!(
            fields.iter().collect::<Vec<_>>(),
            [("A", "1 two three"), ("B", "x")]
        );
    }
}
