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
//! use htmltok::encoding::{Sniffer, Source, KOI8_R};
//! use htmltok::{Token, Tokenizer};
//!
//! // "Привет" in KOI8-R, declared by the page itself.
//! let page = b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4";
//! let decoded = Sniffer::new().decode(page);
//! assert_eq!(decoded.sniffed.encoding, KOI8_R);
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

/// The encodings themselves, for callers that do not depend on
/// `encoding_rs` directly: `Encoding::for_label(b"koi8-r")` finds one by
/// any of its labels, and each has a static below ([`KOI8_R`] and the
/// others, `encoding_rs`'s own).
pub use encoding_rs::Encoding;

/// Every encoding of the Encoding Standard, by the name of its static in
/// `encoding_rs`: `htmltok::encoding::WINDOWS_1252` is
/// `encoding_rs::WINDOWS_1252`.
pub use encoding_rs::{
    BIG5, EUC_JP, EUC_KR, GB18030, GBK, IBM866, ISO_2022_JP, ISO_8859_10, ISO_8859_13, ISO_8859_14,
    ISO_8859_15, ISO_8859_16, ISO_8859_2, ISO_8859_3, ISO_8859_4, ISO_8859_5, ISO_8859_6,
    ISO_8859_7, ISO_8859_8, ISO_8859_8_I, KOI8_R, KOI8_U, MACINTOSH, REPLACEMENT, SHIFT_JIS,
    UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1250, WINDOWS_1251, WINDOWS_1252, WINDOWS_1253,
    WINDOWS_1254, WINDOWS_1255, WINDOWS_1256, WINDOWS_1257, WINDOWS_1258, WINDOWS_874,
    X_MAC_CYRILLIC, X_USER_DEFINED,
};

use std::borrow::Cow;

/// How many of a page's first bytes the prescan reads: the 1024 the
/// standard advises. A stream holds back its tokens until it has this
/// many bytes (or the input ends), to decide its encoding first.
pub const PRESCAN_LEN: usize = 1024;

/// How many bytes from the first non-ASCII byte on are looked at to guess
/// UTF-8 ([`Source::Detected`]) when nothing declared an encoding. A
/// stream holds them back until they have arrived.
pub const DETECT_LEN: usize = 1024;

/// Where a [`Sniffed`] encoding came from, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A byte order mark (UTF-8, UTF-16LE or UTF-16BE): it wins over
    /// everything, and is not part of the text.
    Bom,
    /// The charset the transport declared ([`Sniffer::transport`]).
    Transport,
    /// A `<meta>` element or an XML declaration in the first
    /// [`PRESCAN_LEN`] bytes ([`prescan`]).
    Prescan,
    /// A `<meta>` start tag after the first [`PRESCAN_LEN`] bytes but
    /// before the first non-ASCII byte, as the tokenizer reads it: the
    /// standard's "change the encoding" while parsing, in the case where
    /// nothing decoded so far changes (ASCII reads the same in every
    /// ASCII-compatible encoding). Many pages declare their charset after
    /// a long `<head>` of scripts and styles.
    LateMeta,
    /// Nothing declared one, and the [`DETECT_LEN`] bytes from the first
    /// non-ASCII byte on are valid UTF-8: UTF-8 (the standard lets a
    /// browser guess here; pages in legacy encodings almost never read as
    /// valid UTF-8 for long).
    Detected,
    /// Nothing declared one and no guess: the sniffer's default
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

/// A page's text as UTF-8, from [`Sniffer::decode`]. A tokenizer takes the
/// text as it is, borrowed or owned:
/// [`Tokenizer::from_text(decoded.text, config)`](crate::Tokenizer::from_text)
/// (or [`Tokenizer::decode`](crate::Tokenizer::decode) in one step).
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
/// use htmltok::encoding::{Sniffer, Source, KOI8_R, WINDOWS_1251};
///
/// let page = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2";
/// // The page's own declaration...
/// let sniffed = Sniffer::new().sniff(page);
/// assert_eq!((sniffed.encoding, sniffed.source), (WINDOWS_1251, Source::Prescan));
/// // ...gives way to the transport's (an HTTP `Content-Type` charset)...
/// let http = Sniffer::new().transport_label("KOI8-R");
/// assert_eq!(http.sniff(page).encoding, KOI8_R);
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
    /// [`Encoding::for_label`] to find out whether one does.
    ///
    /// ```
    /// use htmltok::encoding::{Encoding, Sniffer, WINDOWS_1252};
    /// assert_eq!(Sniffer::new().transport_label("latin1"), Sniffer::new().transport(WINDOWS_1252));
    /// assert_eq!(Encoding::for_label(b" latin1 "), Some(WINDOWS_1252));
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

    /// The encoding of the page `bytes`: a byte order mark, the transport's
    /// charset, a declaration in the first [`PRESCAN_LEN`] bytes, a later
    /// `<meta>` before the first non-ASCII byte, valid UTF-8 after it, or
    /// the default ([`Source`] has the details).
    pub fn sniff(&self, bytes: &[u8]) -> Sniffed {
        if let Some(early) = self.sniff_early(bytes) {
            return early;
        }
        let ascii = ascii_len(bytes);
        self.sniff_late(late_meta(&bytes[..ascii]), &bytes[ascii..])
    }

    /// What the first bytes decide: a byte order mark, the transport's
    /// charset, the prescan. `prefix` is the whole input or at least
    /// [`PRESCAN_LEN`] bytes of it.
    pub(crate) fn sniff_early(&self, prefix: &[u8]) -> Option<Sniffed> {
        let found = |encoding, source| Some(Sniffed { encoding, source });
        if let Some((encoding, _)) = Encoding::for_bom(prefix) {
            return found(encoding, Source::Bom);
        }
        if let Some(encoding) = self.transport {
            return found(encoding, Source::Transport);
        }
        let head = &prefix[..prefix.len().min(PRESCAN_LEN)];
        prescan(head).and_then(|encoding| found(encoding, Source::Prescan))
    }

    /// What decides when the first bytes do not: a `<meta>` found in the
    /// ASCII before `rest` (the input from its first non-ASCII byte; at
    /// least [`DETECT_LEN`] bytes of it, or all), else a guess from `rest`.
    pub(crate) fn sniff_late(&self, meta: Option<&'static Encoding>, rest: &[u8]) -> Sniffed {
        let (encoding, source) = match meta {
            Some(encoding) => (encoding, Source::LateMeta),
            None if !rest.is_empty() && reads_as_utf8(&rest[..rest.len().min(DETECT_LEN)]) => {
                (UTF_8, Source::Detected)
            }
            None => (self.default, Source::Default),
        };
        Sniffed { encoding, source }
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
        } else if matches!(
            sniffed.source,
            Source::Bom | Source::Transport | Source::Prescan
        ) {
            sniffed.encoding.decode_without_bom_handling(body).0
        } else {
            // Decided at the first non-ASCII byte: the ASCII before it was
            // read as it is (what a stream has handed out by then), the
            // rest is decoded.
            let ascii = ascii_len(body);
            let (rest, _) = sniffed.encoding.decode_without_bom_handling(&body[ascii..]);
            let mut text = String::with_capacity(ascii + rest.len());
            text.push_str(std::str::from_utf8(&body[..ascii]).unwrap_or_default());
            text.push_str(&rest);
            Cow::Owned(text)
        };
        Decoded { text, sniffed }
    }
}

/// Bytes of ASCII at the start of `bytes`.
pub(crate) fn ascii_len(bytes: &[u8]) -> usize {
    // Word-sized blocks first: `is_ascii` on a block is a few instructions.
    let mut at = 0;
    for block in bytes.chunks(32) {
        if !block.is_ascii() {
            return at
                + block
                    .iter()
                    .position(|b| !b.is_ascii())
                    .unwrap_or(block.len());
        }
        at += block.len();
    }
    at
}

/// Whether `window` is valid UTF-8, an incomplete sequence at its end
/// allowed (the window may cut one).
fn reads_as_utf8(window: &[u8]) -> bool {
    match std::str::from_utf8(window) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

/// The encoding the first `<meta>` start tag in the ASCII text `ascii`
/// declares, as the tree builder reads it (see [`meta_declares`]).
fn late_meta(ascii: &[u8]) -> Option<&'static Encoding> {
    let text = std::str::from_utf8(ascii).ok()?;
    let mut tok = crate::Tokenizer::new(text);
    while let Some(token) = tok.next_token() {
        if let crate::Token::StartTag(tag) = token {
            if let Some(found) = meta_declares(&tag) {
                return Some(found);
            }
        }
    }
    None
}

/// The encoding a start tag declares if it is a `<meta>` that does, by
/// the tree builder's rule for `meta` in the standard ("in head"): a
/// `charset` attribute naming an encoding, else `http-equiv=Content-Type`
/// with a `content` that names one. UTF-16 becomes UTF-8 and
/// `x-user-defined` windows-1252, as "change the encoding" says.
pub(crate) fn meta_declares(tag: &crate::Tag<'_>) -> Option<&'static Encoding> {
    if tag.name != "meta" {
        return None;
    }
    let found = match tag
        .attribute("charset")
        .and_then(|v| Encoding::for_label(v.as_bytes()))
    {
        Some(found) => found,
        None => {
            let equiv = tag.attribute("http-equiv")?;
            if !equiv.eq_ignore_ascii_case("content-type") {
                return None;
            }
            let content = tag.attribute("content")?.to_ascii_lowercase();
            prescan::encoding_from_content(content.as_bytes())?
        }
    };
    Some(as_declared(found))
}

/// A declared encoding as a page in an ASCII-compatible encoding can mean
/// it: UTF-16 is UTF-8 (the declaration was read as ASCII), and
/// `x-user-defined` is windows-1252.
fn as_declared(encoding: &'static Encoding) -> &'static Encoding {
    if is_utf16(encoding) {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
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
    fn a_declaration_past_the_prescan() {
        let mut page = vec![b' '; PRESCAN_LEN - 10];
        page.extend_from_slice(b"<meta charset=koi8-r>");
        // Cut by the prescan's end, read whole by the tokenizer.
        let late = Sniffer::new().sniff(&page);
        assert_eq!((late.encoding, late.source), (KOI8_R, Source::LateMeta));
        page.drain(..20);
        assert_eq!(Sniffer::new().sniff(&page).source, Source::Prescan);
        // After a non-ASCII byte it comes too late (a browser would reload).
        let mut after = vec![b' '; PRESCAN_LEN];
        after.extend_from_slice(b"\xe9<meta charset=koi8-r>");
        assert_eq!(Sniffer::new().sniff(&after).source, Source::Default);
        // Inside a script it is text, as the tree builder reads it.
        let mut script = vec![b' '; PRESCAN_LEN];
        script.extend_from_slice(b"<script>x='<meta charset=koi8-r>'</script>");
        assert_eq!(Sniffer::new().sniff(&script).source, Source::Default);
        // The pragma form, with the tokenizer's (not lower-cased) values.
        let mut pragma = vec![b' '; PRESCAN_LEN];
        pragma.extend_from_slice(
            b"<META HTTP-EQUIV=Content-Type CONTENT='text/html; Charset=KOI8-R'>",
        );
        assert_eq!(Sniffer::new().sniff(&pragma).encoding, KOI8_R);
    }

    #[test]
    fn guessing_utf8() {
        let mut page = b"<p>caf\xc3\xa9".to_vec();
        assert_eq!(Sniffer::new().sniff(&page).source, Source::Detected);
        // A character cut by the guess's window does not count against it.
        let mut long = vec![b'a'; 10];
        long.extend("é".repeat(DETECT_LEN / 2 - 1).as_bytes());
        long.extend("€".as_bytes());
        assert_eq!(Sniffer::new().sniff(&long).source, Source::Detected);
        page.push(0xff);
        assert_eq!(Sniffer::new().sniff(&page).source, Source::Default);
        assert_eq!(ascii_len(b"abc\xc3"), 3);
        assert_eq!(ascii_len(&[b'a'; 100]), 100);
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
