//! A page's bytes to its decoded text, with the encoding and why.

use std::borrow::Cow;

use crate::encoding::{Encoding, Sniffer, Source};

use super::{links_with, text, Link, LinkOptions, PageText};

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

    /// The encoding's name as `encoding_rs` spells it (`UTF-8`,
    /// `windows-1252`, `Shift_JIS`, `GBK`, …).
    pub fn encoding_name(&self) -> &'static str {
        self.encoding.name()
    }

    /// [`links`](super::links) of this page, the queries of its URLs in its encoding,
    /// scripting on: [`links_with`] with [`link_options`](Self::link_options).
    pub fn links(&self, base: Option<&url::Url>) -> Vec<Link> {
        links_with(&self.html, base, self.link_options())
    }

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
    pub fn text(&self) -> PageText {
        text(&self.html)
    }
}
