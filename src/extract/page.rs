//! A page's bytes to its decoded text, with the encoding and why.

use std::borrow::Cow;

use crate::encoding::{Encoding, Sniffed, Sniffer, Source, SourceMap};

#[cfg(feature = "links")]
use super::{links_with, Link, LinkOptions};
#[cfg(feature = "text")]
use super::{main_content_with, text, MainOptions, PageText};

/// The `charset` parameter of a `Content-Type` header value, or the value
/// itself when it is a bare label (no `/`, no `;`).
///
/// Parameters are read as the Fetch standard's MIME type parser reads
/// them: a quoted value runs to its closing quote (a `;` inside it splits
/// nothing; what follows the quote up to the next `;` is dropped), the
/// first `charset` parameter with a value is the one. Quotes around the
/// value are dropped; a quoted value that escapes a character with a
/// backslash, which no label needs, is not unescaped: it gives `None`.
/// Whether the label names an encoding is the sniffer's business.
///
/// ```
/// use htmltok::extract::charset_param;
/// assert_eq!(charset_param("text/html; charset=Shift_JIS"), Some("Shift_JIS"));
/// assert_eq!(charset_param("text/html;Charset=\"utf-8\";q=1"), Some("utf-8"));
/// assert_eq!(charset_param("text/html"), None);
/// assert_eq!(charset_param("koi8-r"), Some("koi8-r"));
/// // A quoted value runs to its closing quote: a `;` in it splits nothing.
/// assert_eq!(charset_param("text/html; foo=\"a;charset=koi8-r\"; charset=utf-8"), Some("utf-8"));
/// assert_eq!(charset_param("text/html; charset=\"utf-8;x\""), Some("utf-8;x"));
/// assert_eq!(charset_param("text/html; charset=\"utf-8\"x; charset=gbk"), Some("utf-8"));
/// assert_eq!(charset_param("text/html; charset=; charset=gbk"), Some("gbk"));
/// ```
pub fn charset_param(content_type: &str) -> Option<&str> {
    let value = content_type.trim();
    if !value.contains(['/', ';', '=']) {
        return (!value.is_empty()).then_some(value);
    }
    let bytes = value.as_bytes();
    // The next `;` at or after `from`, or the end.
    let semicolon = |from: usize| {
        bytes[from..]
            .iter()
            .position(|&b| b == b';')
            .map_or(bytes.len(), |i| from + i)
    };
    let mut pos = semicolon(0);
    while pos < bytes.len() {
        pos += 1; // The `;`.
        let name_end = bytes[pos..]
            .iter()
            .position(|&b| matches!(b, b';' | b'='))
            .map_or(bytes.len(), |i| pos + i);
        let is_charset = value[pos..name_end].trim().eq_ignore_ascii_case("charset");
        pos = name_end;
        if pos == bytes.len() || bytes[pos] == b';' {
            continue;
        }
        pos += 1; // The `=`.
        while pos < bytes.len() && matches!(bytes[pos], b' ' | b'\t') {
            pos += 1;
        }
        if bytes.get(pos) == Some(&b'"') {
            // A quoted string: to the closing quote, a backslash taking
            // the byte after it (never a quote's: UTF-8 continuation
            // bytes are no ASCII).
            let start = pos + 1;
            let mut end = start;
            let mut escaped = false;
            while end < bytes.len() && bytes[end] != b'"' {
                if bytes[end] == b'\\' {
                    escaped = true;
                    end += 1;
                }
                end += 1;
            }
            let end = end.min(bytes.len());
            if is_charset {
                let quoted = &value[start..end];
                return (!escaped && !quoted.is_empty()).then_some(quoted);
            }
            pos = semicolon(end);
        } else {
            let end = semicolon(pos);
            let unquoted = value[pos..end].trim();
            pos = end;
            if is_charset && !unquoted.is_empty() {
                return Some(unquoted);
            }
        }
    }
    None
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
/// it whole (`transport` as for [`Page::decode`]; [`Sniffer::sniff`] has
/// the rules).
///
/// ```
/// use htmltok::extract::{sniff, Source};
/// let (encoding, source) = sniff(b"<meta charset=euc-jp>", Some("text/html; charset=Shift_JIS"));
/// assert_eq!((encoding.name(), source), ("Shift_JIS", Source::Transport));
/// assert_eq!(source.as_str(), "transport");
/// ```
pub fn sniff(bytes: &[u8], transport: Option<&str>) -> (&'static Encoding, Source) {
    let sniffed = sniffer(transport).sniff(bytes);
    (sniffed.encoding, sniffed.source)
}

/// A page decoded as a browser decodes it, ready for [`links`](super::links) and
/// [`text()`].
#[derive(Clone, Debug)]
pub struct Page<'a> {
    /// The page's text (borrowed from the bytes when they were valid
    /// UTF-8). Link offsets are byte offsets in it.
    pub html: Cow<'a, str>,
    /// The encoding it was decoded from.
    pub encoding: &'static Encoding,
    /// What decided the encoding (`htmltok sniff` prints
    /// [`Source::as_str`]).
    pub source: Source,
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
            source: decoded.sniffed.source,
        }
    }

    /// The map from offsets in [`html`](Self::html) (link offsets, spans)
    /// back to offsets in `bytes`, the bytes the page was decoded from;
    /// `None` if they are not ([`Decoded::source_map`](crate::encoding::Decoded::source_map)
    /// has the rules).
    ///
    /// ```
    /// use htmltok::extract::Page;
    /// let bytes = b"<p>\xcf\xf0\xe8\xe2\xe5\xf2 <a href=/x>";
    /// let page = Page::decode(bytes, Some("text/html; charset=windows-1251"));
    /// let offset = page.html.find("<a").unwrap();
    /// assert_eq!((offset, page.source_map(bytes).unwrap().source_offset(offset)), (16, 10));
    /// ```
    pub fn source_map<'s>(&'s self, bytes: &'s [u8]) -> Option<SourceMap<'s>> {
        let sniffed = Sniffed {
            encoding: self.encoding,
            source: self.source,
            declared_late: None,
        };
        SourceMap::build(
            bytes,
            &self.html,
            self.encoding,
            sniffed.bom_len(),
            self.source,
        )
    }

    /// The encoding's name as `encoding_rs` spells it (`UTF-8`,
    /// `windows-1252`, `Shift_JIS`, `GBK`, …).
    pub fn encoding_name(&self) -> &'static str {
        self.encoding.name()
    }

    #[cfg(feature = "links")]
    /// [`links`](super::links) of this page, the queries of its URLs in its encoding,
    /// scripting on: [`links_with`] with [`link_options`](Self::link_options).
    pub fn links(&self, base: Option<&url::Url>) -> Vec<Link> {
        links_with(&self.html, base, self.link_options())
    }

    #[cfg(feature = "links")]
    /// The [`LinkOptions`] of this page: its encoding, scripting on; for
    /// [`links_with`] with other options (scripting off).
    ///
    /// ```
    /// use htmltok::extract::{links_with, Page};
    /// let page = Page::decode(b"<noscript><img src=/a.jpg></noscript>", None);
    /// assert!(page.links(None).is_empty());
    /// let off = links_with(&page.html, None, page.link_options().scripting(false));
    /// assert_eq!(off[0].raw, "/a.jpg");
    /// ```
    pub fn link_options(&self) -> LinkOptions {
        LinkOptions::new().encoding(self.encoding)
    }

    /// [`text()`] of this page.
    #[cfg(feature = "text")]
    pub fn text(&self) -> PageText {
        text(&self.html)
    }

    /// [`main_content_with`] of this page: its title and the text of its
    /// main content.
    ///
    /// ```
    /// use htmltok::extract::{MainOptions, Page};
    /// let page = Page::decode(b"<nav><a href=/>Home</a></nav><article><p>The story.</p></article>", None);
    /// assert_eq!(page.main_content(MainOptions::new()).text, "The story.");
    /// ```
    #[cfg(feature = "text")]
    pub fn main_content(&self, options: MainOptions) -> PageText {
        main_content_with(&self.html, options)
    }
}
