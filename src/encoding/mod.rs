//! Character encodings: which one a page is in, and its text as UTF-8.
//!
//! A browser decides a page's encoding before it tokenizes (the HTML
//! Standard, 13.2.3 "The input byte stream"): a byte order mark first, then
//! the charset the transport gave (HTTP's `Content-Type`), then a prescan
//! of the first 1024 bytes for `<meta charset>` (or an XML declaration),
//! else a default. [`Sniffer`] makes that decision and decodes with
//! `encoding_rs`, which implements the WHATWG Encoding Standard's decoders.
//! The tokenizer then reads the decoded text, so spans and error positions
//! are offsets in that UTF-8 text, not in the original bytes.
//!
//! ```
//! use htmltok::encoding::{Sniffer, Source};
//! use htmltok::{Token, Tokenizer};
//!
//! // "Привет" in KOI8-R, declared by the page itself.
//! let page = b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4";
//! let decoded = Sniffer::new().decode(page);
//! assert_eq!(decoded.sniffed.encoding, encoding_rs::KOI8_R);
//! assert_eq!(decoded.sniffed.source, Source::Prescan);
//! let mut tok = Tokenizer::new(&decoded.text);
//! let mut text = String::new();
//! while let Some(token) = tok.next_token() {
//!     if let Token::Text(t) = token {
//!         text.push_str(t.text);
//!     }
//! }
//! assert_eq!(text, "Привет");
//! ```
//!
//! A stream decodes as it goes: see
//! [`StreamTokenizer::decoding`](crate::StreamTokenizer::decoding).
//!
//! Left out, as the standard allows: guessing from the bytes themselves
//! when nothing declares an encoding (the default is used instead), and
//! switching encodings when a `<meta>` after the first 1024 bytes declares
//! another one (which makes a browser reload the page).

mod input;
mod prescan;

pub(crate) use input::InputDecoder;
pub use prescan::prescan;

/// The encodings themselves (`encoding_rs::KOI8_R` and the others are its
/// statics), for callers that do not depend on `encoding_rs` directly.
pub use encoding_rs::Encoding;

use std::borrow::Cow;

use encoding_rs::{UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};

/// How many of a page's first bytes the prescan reads: the 1024 the
/// standard advises. A stream holds back its tokens until it has this
/// many bytes (or the input ends), to decide its encoding first.
pub const PRESCAN_LEN: usize = 1024;

/// Where a [`Sniffed`] encoding came from, in the order the standard
/// tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A byte order mark (UTF-8, UTF-16LE or UTF-16BE): it wins over
    /// everything, and is not part of the text.
    Bom,
    /// The charset the transport declared ([`Sniffer::transport`]).
    Transport,
    /// A `<meta>` element or an XML declaration in the first bytes
    /// ([`prescan`]).
    Prescan,
    /// Nothing declared one: the sniffer's default
    /// ([`Sniffer::default_encoding`]).
    Default,
}

/// The encoding a page is decoded with, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// What decided it.
    pub source: Source,
}

impl Sniffed {
    /// Bytes of byte order mark at the start of the input, which are not
    /// decoded.
    fn bom_len(&self) -> usize {
        match self.source {
            Source::Bom if self.encoding == UTF_8 => 3,
            Source::Bom => 2,
            _ => 0,
        }
    }
}

/// A page's text as UTF-8, from [`Sniffer::decode`].
#[derive(Clone, Debug)]
pub struct Decoded<'a> {
    /// The text: borrowed from the input when it was valid UTF-8 (after
    /// any byte order mark); bytes that are invalid in the encoding are
    /// U+FFFD.
    pub text: Cow<'a, str>,
    /// The encoding it was decoded from.
    pub sniffed: Sniffed,
}

/// Decides a page's encoding as a browser does, and decodes it.
///
/// ```
/// use htmltok::encoding::{Sniffer, Source};
///
/// let page = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2";
/// // The page's own declaration...
/// let sniffed = Sniffer::new().sniff(page);
/// assert_eq!((sniffed.encoding, sniffed.source), (encoding_rs::WINDOWS_1251, Source::Prescan));
/// // ...gives way to the transport's (an HTTP `Content-Type` charset)...
/// let http = Sniffer::new().transport_label("KOI8-R");
/// assert_eq!(http.sniff(page).encoding, encoding_rs::KOI8_R);
/// // ...which gives way to a byte order mark.
/// let bom = [&b"\xef\xbb\xbf"[..], page].concat();
/// assert_eq!(http.sniff(&bom).source, Source::Bom);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffer {
    transport: Option<&'static Encoding>,
    default: &'static Encoding,
}

impl Default for Sniffer {
    fn default() -> Self {
        Sniffer::new()
    }
}

impl Sniffer {
    /// No transport charset; windows-1252 when nothing declares an
    /// encoding, as browsers default to in most locales.
    pub fn new() -> Self {
        Sniffer {
            transport: None,
            default: WINDOWS_1252,
        }
    }

    /// The charset the transport declared, e.g. from an HTTP
    /// `Content-Type: text/html; charset=...` header: it wins over the
    /// page's own declaration, but not over a byte order mark.
    pub fn transport(self, encoding: &'static Encoding) -> Self {
        Sniffer {
            transport: Some(encoding),
            ..self
        }
    }

    /// [`transport`](Self::transport) by a label as it appears in a header
    /// (`"utf8"`, `"Shift_JIS"`, `" latin1 "`: any of the Encoding
    /// Standard's labels, in any case). A label that names no encoding is
    /// ignored, as browsers ignore it; use
    /// [`Encoding::for_label`](encoding_rs::Encoding::for_label) to find
    /// out whether one does.
    ///
    /// ```
    /// use htmltok::encoding::Sniffer;
    /// assert_eq!(Sniffer::new().transport_label("latin1"), Sniffer::new().transport(encoding_rs::WINDOWS_1252));
    /// assert_eq!(Sniffer::new().transport_label("no-such-charset"), Sniffer::new());
    /// ```
    pub fn transport_label(self, label: &str) -> Self {
        match Encoding::for_label(label.as_bytes()) {
            Some(encoding) => self.transport(encoding),
            None => self,
        }
    }

    /// The encoding to use when nothing declares one (windows-1252 unless
    /// set). A crawler that knows a site's language can pick that locale's
    /// legacy encoding here, as a browser in that locale does.
    pub fn default_encoding(self, encoding: &'static Encoding) -> Self {
        Sniffer {
            default: encoding,
            ..self
        }
    }

    /// The encoding of a page that starts with `prefix` (its first
    /// [`PRESCAN_LEN`] bytes are read; fewer if the page is shorter).
    pub fn sniff(&self, prefix: &[u8]) -> Sniffed {
        if let Some((encoding, _)) = Encoding::for_bom(prefix) {
            return Sniffed {
                encoding,
                source: Source::Bom,
            };
        }
        if let Some(encoding) = self.transport {
            return Sniffed {
                encoding,
                source: Source::Transport,
            };
        }
        let head = &prefix[..prefix.len().min(PRESCAN_LEN)];
        match prescan(head) {
            Some(encoding) => Sniffed {
                encoding,
                source: Source::Prescan,
            },
            None => Sniffed {
                encoding: self.default,
                source: Source::Default,
            },
        }
    }

    /// Sniffs the whole page `bytes` and decodes it. A UTF-8 page is
    /// repaired exactly as [`Tokenizer::from_bytes`](crate::Tokenizer::from_bytes)
    /// repairs it (and borrowed when valid); other encodings are decoded
    /// by `encoding_rs`.
    pub fn decode<'a>(&self, bytes: &'a [u8]) -> Decoded<'a> {
        let sniffed = self.sniff(bytes);
        let body = &bytes[sniffed.bom_len()..];
        let text = if sniffed.encoding == UTF_8 {
            crate::utf8::lossy(body)
        } else {
            sniffed.encoding.decode_without_bom_handling(body).0
        };
        Decoded { text, sniffed }
    }
}

/// Whether `encoding` is one of the two UTF-16s (which a `<meta>` cannot
/// declare: its bytes were read as ASCII).
fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == UTF_16BE || encoding == UTF_16LE
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{KOI8_R, SHIFT_JIS};

    #[test]
    fn the_order_of_the_sources() {
        let meta = b"<meta charset=koi8-r>".as_slice();
        let bom16 = [&b"\xff\xfe"[..], meta].concat();
        let sniffer = Sniffer::new().transport(SHIFT_JIS);
        assert_eq!(
            sniffer.sniff(&bom16),
            Sniffed {
                encoding: UTF_16LE,
                source: Source::Bom
            }
        );
        assert_eq!(sniffer.sniff(meta).source, Source::Transport);
        assert_eq!(Sniffer::new().sniff(meta).encoding, KOI8_R);
        assert_eq!(
            Sniffer::new().sniff(b"<p>plain"),
            Sniffed {
                encoding: WINDOWS_1252,
                source: Source::Default
            }
        );
        assert_eq!(
            Sniffer::new()
                .default_encoding(SHIFT_JIS)
                .sniff(b"<p>")
                .encoding,
            SHIFT_JIS
        );
    }

    #[test]
    fn a_declaration_past_the_prescan_is_not_seen() {
        let mut page = vec![b' '; PRESCAN_LEN - 10];
        page.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(Sniffer::new().sniff(&page).source, Source::Default);
        page.drain(..20);
        assert_eq!(Sniffer::new().sniff(&page).encoding, KOI8_R);
    }

    #[test]
    fn decoding_drops_the_bom_and_decodes_the_rest() {
        let d = Sniffer::new().decode(b"\xef\xbb\xbf<p>caf\xc3\xa9");
        assert_eq!((&*d.text, d.sniffed.source), ("<p>café", Source::Bom));
        let d = Sniffer::new().decode(b"\xfe\xff\0<\0p\0>\0\xe9");
        assert_eq!((&*d.text, d.sniffed.encoding), ("<p>é", UTF_16BE));
        // windows-1252 by default: 0x80 is the euro sign.
        assert_eq!(Sniffer::new().decode(b"<p>\x80").text, "<p>€");
        // UTF-8 declared: invalid bytes repaired as from_utf8_lossy does.
        let bad = b"<meta charset=utf-8>\xe2\x82<p>\xff";
        assert_eq!(
            Sniffer::new().decode(bad).text,
            String::from_utf8_lossy(bad)
        );
        assert!(is_utf16(UTF_16LE) && !is_utf16(UTF_8));
    }
}
