//! A page's bytes to its decoded text, with the encoding and why.

use std::borrow::Cow;

use crate::encoding::{Encoding, Sniffer, Source};

use super::{links, text, Link, PageText};

/// What decided a page's encoding, named as `htmltok sniff` prints it.
///
/// ```
/// use htmltok::extract::{Page, Rule};
/// assert_eq!(Page::decode(b"\xef\xbb\xbfhi", None).rule, Rule::Bom);
/// assert_eq!(Page::decode(b"<meta charset=gbk>", None).rule, Rule::Meta);
/// assert_eq!(Page::decode(b"caf\xc3\xa9", None).rule, Rule::Guess);
/// assert_eq!(Page::decode(b"plain", None).rule, Rule::Default);
/// assert_eq!(Rule::LateMeta.as_str(), "late-meta");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A byte order mark.
    Bom,
    /// The charset the transport declared (HTTP `Content-Type`, or the
    /// caller's override).
    Transport,
    /// A `<meta>` or XML declaration in the first 1024 bytes.
    Meta,
    /// A `<meta>` after the first 1024 bytes, before any non-ASCII byte.
    LateMeta,
    /// Guessed from the bytes themselves.
    Guess,
    /// Nothing decided: the default, windows-1252.
    Default,
}

impl Rule {
    /// The sniffer's [`Source`] as a rule. The one place that maps them:
    /// a new way of deciding is one more line here.
    pub fn from_source(source: Source) -> Rule {
        match source {
            Source::Bom => Rule::Bom,
            Source::Transport => Rule::Transport,
            Source::Prescan => Rule::Meta,
            Source::LateMeta => Rule::LateMeta,
            Source::Detected => Rule::Guess,
            Source::Default => Rule::Default,
        }
    }

    /// `bom`, `transport`, `meta`, `late-meta`, `guess` or `default`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Bom => "bom",
            Rule::Transport => "transport",
            Rule::Meta => "meta",
            Rule::LateMeta => "late-meta",
            Rule::Guess => "guess",
            Rule::Default => "default",
        }
    }
}

/// The `charset` parameter of a `Content-Type` header value, or the value
/// itself when it is a bare label (no `/`, no `;`).
///
/// Parameters are split as HTTP writes them; quotes around the value are
/// dropped. Whether the label names an encoding is the sniffer's business.
///
/// ```
/// use htmltok::extract::charset_param;
/// assert_eq!(charset_param("text/html; charset=Shift_JIS"), Some("Shift_JIS"));
/// assert_eq!(charset_param("text/html;Charset=\"utf-8\";q=1"), Some("utf-8"));
/// assert_eq!(charset_param("text/html"), None);
/// assert_eq!(charset_param("koi8-r"), Some("koi8-r"));
/// ```
pub fn charset_param(content_type: &str) -> Option<&str> {
    let value = content_type.trim();
    if !value.contains(['/', ';', '=']) {
        return (!value.is_empty()).then_some(value);
    }
    value.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .map_or(value, |v| v.split('"').next().unwrap_or(v));
        (!value.is_empty()).then_some(value)
    })
}

/// A sniffer with `transport` (a `Content-Type` value or a bare label) as
/// the transport's charset.
fn sniffer(transport: Option<&str>) -> Sniffer {
    match transport.and_then(charset_param) {
        Some(label) => Sniffer::new().transport_label(label),
        None => Sniffer::new(),
    }
}

/// The encoding of the page `bytes` and what decided it, without decoding
/// it (`transport` as for [`Page::decode`]).
///
/// ```
/// use htmltok::extract::{sniff, Rule};
/// let (encoding, rule) = sniff(b"<meta charset=euc-jp>", Some("text/html; charset=Shift_JIS"));
/// assert_eq!((encoding.name(), rule), ("Shift_JIS", Rule::Transport));
/// ```
pub fn sniff(bytes: &[u8], transport: Option<&str>) -> (&'static Encoding, Rule) {
    let sniffed = sniffer(transport).sniff(bytes);
    (sniffed.encoding, Rule::from_source(sniffed.source))
}

/// A page decoded as a browser decodes it, ready for [`links`] and
/// [`text()`].
#[derive(Clone, Debug)]
pub struct Page<'a> {
    /// The page's text (borrowed from the bytes when they were valid
    /// UTF-8). Link offsets are byte offsets in it.
    pub html: Cow<'a, str>,
    /// The encoding it was decoded from.
    pub encoding: &'static Encoding,
    /// What decided the encoding.
    pub rule: Rule,
}

impl<'a> Page<'a> {
    /// Decodes `bytes`; `transport` is a `Content-Type` header value or a
    /// bare charset label (see [`charset_param`]), which wins over the
    /// page's own `<meta>` but not over a byte order mark. A label that
    /// names no encoding is ignored, as browsers ignore it.
    pub fn decode(bytes: &'a [u8], transport: Option<&str>) -> Page<'a> {
        Page::decode_with(bytes, sniffer(transport))
    }

    /// Decodes `bytes` with a sniffer set up by the caller (a default
    /// encoding for a locale, a transport encoding already looked up).
    pub fn decode_with(bytes: &'a [u8], sniffer: Sniffer) -> Page<'a> {
        let decoded = sniffer.decode(bytes);
        Page {
            html: decoded.text,
            encoding: decoded.sniffed.encoding,
            rule: Rule::from_source(decoded.sniffed.source),
        }
    }

    /// The encoding's name as `encoding_rs` spells it (`UTF-8`,
    /// `windows-1252`, `Shift_JIS`, `GBK`, …).
    pub fn encoding_name(&self) -> &'static str {
        self.encoding.name()
    }

    /// [`links`] of this page.
    pub fn links(&self, base: Option<&url::Url>) -> Vec<Link> {
        links(&self.html, base)
    }

    /// [`text()`] of this page.
    pub fn text(&self) -> PageText {
        text(&self.html)
    }
}
