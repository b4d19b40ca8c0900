//! Character encodings: which one a page is in, and its text as UTF-8.
//!
//! A browser decides a page's encoding before it tokenizes (the HTML
//! Standard, "The input byte stream", `the-input-byte-stream`): a byte
//! order mark first, then the charset the transport gave (HTTP's
//! `Content-Type`), then a prescan of the first 1024 bytes for
//! `<meta charset>` (or an XML declaration), then a later `<meta>` that
//! declares one before the first non-ASCII byte (what the tree builder's
//! "change the encoding" does, without a reload: the ASCII before it reads
//! the same in every candidate encoding), then (where nothing declared one)
//! a guess from the bytes, else a default. Unless a byte order mark or the
//! transport decided, a `<meta>` in the head that declares another
//! encoding still changes it, after non-ASCII bytes too: a browser then
//! parses the page again, and so [`Sniffer::decode`] decodes it in the
//! declared encoding. [`Sniffer`] makes that decision ([`Source`] says
//! which step made it) and decodes with `encoding_rs`, which implements
//! the WHATWG Encoding Standard's decoders. The guess is Firefox's:
//! `chardetng`. The tokenizer then reads the decoded text, so spans and
//! error positions are offsets in that UTF-8 text, not in the original
//! bytes. A byte order mark is not part of the text.
//!
//! ```
//! use htmltok::encoding::{Sniffer, Source, KOI8_R};
//! use htmltok::{Token, Tokenizer};
//!
//! // "Привет" in KOI8-R, declared by the page itself.
//! let page = b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4";
//! let decoded = Sniffer::new().decode(page);
//! assert_eq!(decoded.sniffed.encoding, KOI8_R);
//! assert_eq!(decoded.sniffed.source, Source::Meta);
//! let mut tok = Tokenizer::new(&decoded.text);
//! let mut text = String::new();
//! while let Some(token) = tok.next_token() {
//!     if let Token::Text(t) = token {
//!         text.push_str(t.as_str());
//!     }
//! }
//! assert_eq!(text, "Привет");
//! ```
//!
//! A stream decodes as it goes: see
//! [`StreamTokenizer::decoding`](crate::StreamTokenizer::decoding).
//!
//! A page that declares nothing is guessed:
//!
//! ```
//! use htmltok::encoding::{Sniffer, Source};
//!
//! // "Привет, мир! Новости дня." in windows-1251, undeclared.
//! let page = b"<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xcd\xee\xe2\xee\xf1\xf2\xe8 \xe4\xed\xff.";
//! let decoded = Sniffer::new().url("https://news.example.ru/").decode(page);
//! assert_eq!(decoded.sniffed.source, Source::Guess);
//! assert_eq!(decoded.text, "<p>Привет, мир! Новости дня.");
//! // The standard's minimum (no statistical guess): the default.
//! let minimum = Sniffer::new().statistical_guess(false).sniff(page);
//! assert_eq!((minimum.encoding, minimum.source), (encoding_rs::WINDOWS_1252, Source::Default));
//! ```
//!
//! Once the page is decoded, a `<meta>` changes its encoding only in the
//! page's head (see [`Source::ChangedByMeta`]); the standard would also
//! change for one in the body, which would cost every page a second
//! reading to its end. A stream cannot take its tokens back: it reports
//! such a `<meta>` ([`Sniffed::declared_late`]) and goes on in the
//! encoding it decided. As the standard says, a declaration of the
//! encoding in use changes nothing, nor does any declaration in a UTF-16
//! page (it was not read as ASCII); a declared UTF-16 means UTF-8, and
//! `x-user-defined` windows-1252.
//!
//! Left out, as the standard allows: switching encodings when the bytes
//! after the guess's window contradict the guess (which makes a browser
//! reload the page).

mod decoder;
mod guess;
mod head;
mod prescan;
mod source_map;

pub(crate) use decoder::InputDecoder;
pub use prescan::prescan;
pub use source_map::SourceMap;

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

use guess::Tld;

/// How many of a page's first bytes the prescan reads: the 1024 the
/// standard advises. A stream holds back its tokens until it has this
/// many bytes (or the input ends), to decide its encoding first.
pub const PRESCAN_LEN: usize = 1024;

/// How many bytes from the first non-ASCII byte on the guess
/// ([`Source::Guess`]) reads when nothing declared an encoding, unless
/// [`Sniffer::guess_len`] says otherwise. A stream holds them back until
/// they have arrived. 4 KiB rather than the prescan's 1 KiB: a page whose
/// first kilobyte tells too little (ISO-8859-2 and windows-1250 share
/// most letters) is guessed right from four (tests/conformance/encodings.rs prints
/// the rate per encoding for both).
pub const DETECT_LEN: usize = 4096;

/// Input bytes decoded and tokenized at a time while [`Sniffer::sniff`]
/// reads a page's head: most heads end, or declare, within the first.
const HEAD_STEP: usize = 8 * 1024;

/// Where a [`Sniffed`] encoding came from, in the order they are tried.
///
/// One variant per rule of the standard's order, named as the command
/// line (`htmltok sniff`) names them ([`as_str`](Source::as_str)):
///
/// | variant | rule |
/// |---|---|
/// | [`Bom`](Source::Bom) | `bom` |
/// | [`Transport`](Source::Transport) | `transport` |
/// | [`Meta`](Source::Meta) | `meta` |
/// | [`LateMeta`](Source::LateMeta) | `late-meta` |
/// | [`Guess`](Source::Guess) | `guess` |
/// | [`Default`](Source::Default) | `default` |
/// | [`ChangedByMeta`](Source::ChangedByMeta) | `changed-by-meta` |
///
/// ```
/// use htmltok::encoding::{Sniffer, Source};
/// assert_eq!(Sniffer::new().sniff(b"\xef\xbb\xbfhi").source, Source::Bom);
/// assert_eq!(Sniffer::new().sniff(b"<meta charset=gbk>").source, Source::Meta);
/// assert_eq!(Sniffer::new().sniff(b"caf\xc3\xa9").source, Source::Guess);
/// assert_eq!(Sniffer::new().sniff(b"plain").source, Source::Default);
/// assert_eq!(Source::LateMeta.as_str(), "late-meta");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// A byte order mark (UTF-8, UTF-16LE or UTF-16BE): it wins over
    /// everything, and is not part of the text.
    Bom,
    /// The charset the transport declared ([`Sniffer::transport`]).
    Transport,
    /// A `<meta>` element or an XML declaration in the first
    /// [`PRESCAN_LEN`] bytes ([`prescan`]).
    Meta,
    /// A `<meta>` start tag after the first [`PRESCAN_LEN`] bytes but
    /// before the first non-ASCII byte, as the tokenizer reads it: the
    /// standard's "change the encoding" while parsing, in the case where
    /// nothing decoded so far changes (ASCII reads the same in every
    /// ASCII-compatible encoding). Many pages declare their charset after
    /// a long `<head>` of scripts and styles.
    LateMeta,
    /// Nothing declared one, and the page has a non-ASCII byte: the guess
    /// from the bytes. By `chardetng` from the
    /// [`DETECT_LEN`] bytes from the first non-ASCII byte on (or
    /// [`Sniffer::guess_len`]'s), with the URL's top-level domain as a
    /// hint ([`Sniffer::url`]): any of the legacy encodings it knows, or
    /// UTF-8 when those bytes are valid UTF-8. With
    /// [`Sniffer::statistical_guess`] off, only UTF-8 is guessed (when the
    /// bytes are valid UTF-8), as the standard's minimum.
    Guess,
    /// Nothing declared one and nothing to guess from: the page is pure
    /// ASCII (which every candidate reads the same), or, with
    /// [`Sniffer::statistical_guess`] off, not valid UTF-8. The sniffer's
    /// default ([`Sniffer::default_encoding`]).
    Default,
    /// A `<meta>` in the page's head declared another encoding than the
    /// one [`Meta`](Source::Meta), [`Guess`](Source::Guess) or
    /// [`Default`](Source::Default) chose, after bytes that read
    /// differently in the two: the standard's "change the encoding", which
    /// makes a browser parse the page again in the declared encoding, as
    /// [`Sniffer::decode`] decodes it. Only a whole page can be read again;
    /// a stream reports the declaration instead ([`Sniffed::declared_late`]).
    ChangedByMeta,
}

impl Source {
    /// The rule's name on the command line: `bom`, `transport`, `meta`,
    /// `late-meta`, `guess`, `default` or `changed-by-meta`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Bom => "bom",
            Source::Transport => "transport",
            Source::Meta => "meta",
            Source::LateMeta => "late-meta",
            Source::Guess => "guess",
            Source::Default => "default",
            Source::ChangedByMeta => "changed-by-meta",
        }
    }

    /// Whether a `<meta>` read while parsing may still change the
    /// encoding: the standard's confidence "tentative".
    fn is_tentative(self) -> bool {
        matches!(self, Source::Meta | Source::Guess | Source::Default)
    }
}

// The variants' names before they took the command line's words, kept so
// that code written against them still builds.
#[allow(non_upper_case_globals)]
impl Source {
    /// Renamed [`Source::Meta`].
    #[deprecated(note = "renamed `Source::Meta`")]
    #[doc(hidden)]
    pub const Prescan: Source = Source::Meta;
    /// Renamed [`Source::Guess`].
    #[deprecated(note = "renamed `Source::Guess`")]
    #[doc(hidden)]
    pub const Detected: Source = Source::Guess;
}

/// The encoding a page is decoded with, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// What decided it.
    pub source: Source,
    /// Only from a stream ([`StreamTokenizer::sniffed`](crate::StreamTokenizer::sniffed)):
    /// the encoding a `<meta>` in the page's head declared after the
    /// stream had decided on another one, on a rule a declaration may
    /// overrule ([`Source::Meta`], [`Source::Guess`], [`Source::Default`]).
    /// A browser would parse the page again in it; a stream has handed
    /// out its tokens, so it goes on in `encoding`, and says so here. The
    /// whole page, [`Sniffer::decode`]d, is in this encoding
    /// ([`Source::ChangedByMeta`]). `None` for a whole page, and when no
    /// `<meta>` declared another encoding.
    ///
    /// ```
    /// use htmltok::encoding::{Sniffer, Source, ISO_8859_2, WINDOWS_1252};
    /// use htmltok::{Config, StreamTokenizer};
    ///
    /// // "Zażółć" in ISO-8859-2, declared only after a kilobyte of comment.
    /// let mut page = b"<title>Za\xbf\xf3\xb3\xe6</title><!--".to_vec();
    /// page.extend([b'-'; 1024]);
    /// page.extend(b"-><meta charset=iso-8859-2><p>");
    /// let sniffer = Sniffer::new().statistical_guess(false);
    ///
    /// let whole = sniffer.decode(&page);
    /// assert_eq!((whole.sniffed.encoding, whole.sniffed.source), (ISO_8859_2, Source::ChangedByMeta));
    /// assert!(whole.text.starts_with("<title>Zażółć</title>"));
    ///
    /// let mut stream = StreamTokenizer::decoding(sniffer, Config::new());
    /// for chunk in page.chunks(100) {
    ///     stream.feed(chunk);
    ///     while stream.next_token().is_some() {}
    /// }
    /// stream.finish();
    /// while stream.next_token().is_some() {}
    /// let sniffed = stream.sniffed().unwrap();
    /// assert_eq!((sniffed.encoding, sniffed.source), (WINDOWS_1252, Source::Default));
    /// assert_eq!(sniffed.declared_late, Some(ISO_8859_2));
    /// ```
    pub declared_late: Option<&'static Encoding>,
}

impl Sniffed {
    /// `encoding` by `source`, with nothing declared late.
    fn by(encoding: &'static Encoding, source: Source) -> Sniffed {
        Sniffed {
            encoding,
            source,
            declared_late: None,
        }
    }

    /// Bytes of byte order mark at the start of the input, which are not
    /// decoded.
    pub(crate) fn bom_len(&self) -> usize {
        match self.source {
            Source::Bom if self.encoding == UTF_8 => 3,
            Source::Bom => 2,
            _ => 0,
        }
    }

    /// Whether a `<meta>` in the head may still change the encoding: a
    /// rule the standard calls tentative, and not UTF-16 (which no
    /// declaration read as ASCII can be right about).
    pub(crate) fn may_change(&self) -> bool {
        self.source.is_tentative() && !is_utf16(self.encoding)
    }
}

/// A page's text as UTF-8, from [`Sniffer::decode`]. A tokenizer takes it
/// as it is, borrowed or owned (it converts to an [`Input`](crate::Input)):
/// `Tokenizer::with_config(decoded, config)`
/// ([`Input::decode`](crate::Input::decode) decodes with the default
/// sniffer in one step).
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
/// assert_eq!((sniffed.encoding, sniffed.source), (WINDOWS_1251, Source::Meta));
/// // ...gives way to the transport's (an HTTP `Content-Type` charset)...
/// let http = Sniffer::new().transport_label("KOI8-R");
/// assert_eq!(http.sniff(page).encoding, KOI8_R);
/// // ...which gives way to a byte order mark.
/// let bom = [&b"\xef\xbb\xbf"[..], page].concat();
/// assert_eq!(http.sniff(&bom).source, Source::Bom);
/// // Without a declaration, the bytes are guessed from.
/// let undeclared = &page[b"<meta charset=windows-1251>".len()..];
/// let guessed = Sniffer::new().tld("ru").sniff(undeclared);
/// assert_eq!((guessed.encoding, guessed.source), (encoding_rs::WINDOWS_1251, Source::Guess));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffer {
    transport: Option<&'static Encoding>,
    default: &'static Encoding,
    /// The guess's hint.
    tld: Option<Tld>,
    /// Bytes from the first non-ASCII byte on that the guess reads.
    guess_len: usize,
    /// chardetng's guess, or only UTF-8's.
    statistical: bool,
}

impl Default for Sniffer {
    fn default() -> Self {
        Sniffer::new()
    }
}

impl Sniffer {
    /// No transport charset; a statistical guess from [`DETECT_LEN`]
    /// bytes with no hint when nothing declares an encoding; windows-1252
    /// when there is nothing to guess from, as browsers default to in most
    /// locales.
    pub fn new() -> Self {
        Sniffer {
            transport: None,
            default: WINDOWS_1252,
            tld: None,
            guess_len: DETECT_LEN,
            statistical: true,
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

    /// The page's URL, whose top-level domain is the guess's hint: an
    /// undeclared page from a `.jp` host leans to Shift_JIS, one from
    /// `.ru` to windows-1251, as in a browser. A URL without a host name
    /// (or with an IP address, or a non-ASCII top-level domain: give its
    /// Punycode form to [`tld`](Self::tld)) gives no hint.
    ///
    /// ```
    /// use htmltok::encoding::Sniffer;
    /// assert_eq!(Sniffer::new().url("https://www.example.co.jp/news/"), Sniffer::new().tld("jp"));
    /// assert_eq!(Sniffer::new().url("http://192.0.2.1/"), Sniffer::new());
    /// ```
    pub fn url(self, url: &str) -> Self {
        Sniffer {
            tld: Tld::of_url(url),
            ..self
        }
    }

    /// The guess's hint as a top-level domain (`"jp"`, `"RU"`,
    /// `"xn--p1ai"`: the last label of a host name, in ASCII, any case).
    /// Anything that cannot be one (a dot, non-ASCII, more than 63 bytes)
    /// gives no hint.
    pub fn tld(self, tld: &str) -> Self {
        Sniffer {
            tld: Tld::new(tld),
            ..self
        }
    }

    /// How many bytes from the first non-ASCII byte on the guess reads:
    /// [`DETECT_LEN`] unless set, and never fewer than the prescan's
    /// [`PRESCAN_LEN`]. More make a better guess for pages whose first
    /// non-ASCII bytes tell little, at the price of a stream holding that
    /// many bytes back before its first token after them (and of the time
    /// the guess takes, linear in them).
    ///
    /// ```
    /// use htmltok::encoding::{Sniffer, PRESCAN_LEN};
    /// assert_eq!(Sniffer::new().guess_len(10), Sniffer::new().guess_len(PRESCAN_LEN));
    /// ```
    pub fn guess_len(self, len: usize) -> Self {
        Sniffer {
            guess_len: len.max(PRESCAN_LEN),
            ..self
        }
    }

    /// Whether to guess a legacy encoding from the bytes (`chardetng`, on
    /// by default), or only UTF-8 when the bytes are valid UTF-8, and else
    /// take the default: the standard's minimum, and htmltok's behaviour
    /// before it guessed.
    ///
    /// ```
    /// use htmltok::encoding::{Sniffer, Source};
    /// // "日本語" in Shift_JIS.
    /// let page = b"<p>\x93\xfa\x96\x7b\x8c\xea";
    /// assert_eq!(Sniffer::new().tld("jp").sniff(page).encoding, encoding_rs::SHIFT_JIS);
    /// let minimum = Sniffer::new().tld("jp").statistical_guess(false);
    /// assert_eq!(minimum.sniff(page).source, Source::Default);
    /// assert_eq!(minimum.sniff("<p>日本語".as_bytes()).encoding, encoding_rs::UTF_8);
    /// ```
    pub fn statistical_guess(self, on: bool) -> Self {
        Sniffer {
            statistical: on,
            ..self
        }
    }

    /// The encoding of the page `bytes`: a byte order mark, the transport's
    /// charset, a declaration in the first [`PRESCAN_LEN`] bytes, a later
    /// `<meta>` before the first non-ASCII byte, a guess from the bytes
    /// from there on, or the default; then, unless a byte order mark or
    /// the transport decided, a `<meta>` in the page's head that declares
    /// another encoding ([`Source`] has the details). The last step
    /// tokenizes the page up to the end of its head (or its first `<meta>`
    /// that declares an encoding), decoding only that much.
    pub fn sniff(&self, bytes: &[u8]) -> Sniffed {
        let sniffed = self.sniff_before_parsing(bytes);
        match self.declared_in_head(bytes, sniffed) {
            Some(encoding) => Sniffed::by(encoding, Source::ChangedByMeta),
            None => sniffed,
        }
    }

    /// The standard's encoding sniffing algorithm, what is decided before
    /// the page is parsed.
    fn sniff_before_parsing(&self, bytes: &[u8]) -> Sniffed {
        if let Some(early) = self.sniff_early(bytes) {
            return early;
        }
        let ascii = ascii_len(bytes);
        let context = &bytes[ascii.saturating_sub(guess::CONTEXT)..ascii];
        self.sniff_late(late_meta(&bytes[..ascii]), context, &bytes[ascii..])
    }

    /// The encoding the first `<meta>` of the head of `bytes` declares
    /// ([`head::Head`]), as the page reads in `sniffed`'s encoding, if
    /// `sniffed` may change and it is another one.
    ///
    /// The page is decoded and tokenized as a stream, chunk by chunk, so
    /// that only its head is: the whole page's tokens would be read once
    /// more by the caller.
    fn declared_in_head(&self, bytes: &[u8], sniffed: Sniffed) -> Option<&'static Encoding> {
        if !sniffed.may_change() {
            return None;
        }
        // A rule that decided after the ASCII start read it as it is; the
        // `<meta>` tags in it were looked at (`late_meta`), so a page that
        // is all ASCII has none left to find.
        let ascii = match sniffed.source {
            Source::Guess | Source::Default => ascii_len(bytes),
            _ => 0,
        };
        if ascii == bytes.len() {
            return None;
        }
        let mut stream = crate::StreamTokenizer::new();
        let mut watch = head::Head::default();
        let mut decoder = (sniffed.encoding != UTF_8)
            .then(|| sniffed.encoding.new_decoder_without_bom_handling());
        let mut text = String::new();
        let (before, after) = bytes.split_at(ascii);
        let mut pieces = before
            .chunks(HEAD_STEP)
            .map(|c| (c, false))
            .chain(after.chunks(HEAD_STEP).map(|c| (c, true)));
        loop {
            let piece = pieces.next();
            let ended = piece.is_none();
            match (piece, decoder.as_mut()) {
                (Some((chunk, true)), Some(decoder)) => {
                    text.clear();
                    decoder::decode(decoder, &mut text, chunk, false);
                    stream.feed(text.as_bytes());
                }
                (Some((chunk, _)), _) => stream.feed(chunk),
                (None, decoder) => {
                    if let Some(decoder) = decoder {
                        text.clear();
                        decoder::decode(decoder, &mut text, &[], true);
                        stream.feed(text.as_bytes());
                    }
                    stream.finish();
                }
            }
            while let Some(token) = stream.next_token() {
                match watch.see(&token) {
                    Some(head::Seen::Declares(found)) => {
                        return (found != sniffed.encoding).then_some(found);
                    }
                    Some(head::Seen::End) => return None,
                    None => {}
                }
            }
            if ended {
                return None;
            }
        }
    }

    /// What the first bytes decide: a byte order mark, the transport's
    /// charset, the prescan. `prefix` is the whole input or at least
    /// [`PRESCAN_LEN`] bytes of it.
    pub(crate) fn sniff_early(&self, prefix: &[u8]) -> Option<Sniffed> {
        if let Some((encoding, _)) = Encoding::for_bom(prefix) {
            return Some(Sniffed::by(encoding, Source::Bom));
        }
        if let Some(encoding) = self.transport {
            return Some(Sniffed::by(encoding, Source::Transport));
        }
        let head = &prefix[..prefix.len().min(PRESCAN_LEN)];
        prescan(head).map(|encoding| Sniffed::by(encoding, Source::Meta))
    }

    /// What decides when the first bytes do not: a `<meta>` found in the
    /// ASCII before `rest`, else a guess from `rest` (the input from its
    /// first non-ASCII byte: at least [`guess_len`](Self::guess_len)
    /// bytes of it, or all) after `context` (the up to two ASCII bytes
    /// before it), else the default.
    pub(crate) fn sniff_late(
        &self,
        meta: Option<&'static Encoding>,
        context: &[u8],
        rest: &[u8],
    ) -> Sniffed {
        let found = Sniffed::by;
        if let Some(encoding) = meta {
            return found(encoding, Source::LateMeta);
        }
        // The window and whether the input ends with it depend only on
        // `rest`'s length, which a stream knows as the whole page does:
        // it decides once `guess_len` bytes are held, or at the end.
        let window = &rest[..rest.len().min(self.guess_len)];
        let last = rest.len() < self.guess_len;
        let tld = self.tld.as_ref().map(Tld::as_bytes);
        match guess::guess(context, window, last, tld, self.statistical) {
            Some(encoding) => found(encoding, Source::Guess),
            None => found(self.default, Source::Default),
        }
    }

    /// Bytes from the first non-ASCII byte on that the guess reads.
    pub(crate) fn guess_window(&self) -> usize {
        self.guess_len
    }

    /// Sniffs the whole page `bytes` (as [`sniff`](Self::sniff) does, so a
    /// `<meta>` in the head that declares another encoding is followed:
    /// [`Source::ChangedByMeta`]) and decodes it. A UTF-8 page is
    /// repaired exactly as [`Input::from_utf8_lossy`](crate::Input::from_utf8_lossy)
    /// repairs it (and borrowed when valid); other encodings are decoded
    /// by `encoding_rs`.
    pub fn decode<'a>(&self, bytes: &'a [u8]) -> Decoded<'a> {
        let sniffed = self.sniff(bytes);
        let body = &bytes[sniffed.bom_len()..];
        let text = if sniffed.encoding == UTF_8 {
            crate::utf8::lossy(body)
        } else if matches!(
            sniffed.source,
            Source::Bom | Source::Transport | Source::Meta | Source::ChangedByMeta
        ) {
            sniffed.encoding.decode_without_bom_handling(body).0
        } else {
            // Decided at the first non-ASCII byte: the ASCII before it was
            // read as it is (what a stream has handed out by then), the
            // rest is decoded.
            let ascii = ascii_len(body);
            if ascii == body.len() {
                // All ASCII: the text is the bytes (a copy of a large page
                // was most of what decoding it cost).
                return Decoded {
                    text: Cow::Borrowed(std::str::from_utf8(body).unwrap_or_default()),
                    sniffed,
                };
            }
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

/// The encoding the first `<meta>` start tag in the ASCII text `ascii`
/// declares, as the tree builder reads it (see [`meta_declares`]).
///
/// Such a tag starts with the bytes `<meta` (in any case), so the
/// tokenizer runs only up to the last of them, and not at all without
/// one: a full pass over an undeclared all-ASCII page (where `ascii` is
/// the whole page) cost more instructions than tokenizing the page, which
/// `decode`'s caller then does again; with a `<meta>` only in the head, it
/// reads the head. The search goes backwards from the end, so it passes
/// over the `<`s after the last `<meta` only.
pub(crate) fn late_meta(ascii: &[u8]) -> Option<&'static Encoding> {
    let last = memchr::memrchr_iter(b'<', ascii).find(|&lt| {
        ascii
            .get(lt + 1..lt + 5)
            .is_some_and(|name| name.eq_ignore_ascii_case(b"meta"))
    })?;
    let text = std::str::from_utf8(ascii).ok()?;
    let mut tok = crate::Tokenizer::new(text);
    while let Some(token) = tok.next_token() {
        if token.span().is_some_and(|span| span.start > last) {
            break;
        }
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
    if tag.name() != "meta" {
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
        assert_eq!(sniffer.sniff(&bom16), Sniffed::by(UTF_16LE, Source::Bom));
        assert_eq!(sniffer.sniff(meta).source, Source::Transport);
        assert_eq!(Sniffer::new().sniff(meta).encoding, KOI8_R);
        assert_eq!(
            Sniffer::new().sniff(b"<p>plain"),
            Sniffed::by(WINDOWS_1252, Source::Default)
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
    fn the_late_meta_search_stops_at_the_last_meta_bytes() {
        let page = |tail: &str| {
            let mut page = vec![b' '; PRESCAN_LEN];
            page.extend_from_slice(tail.as_bytes());
            Sniffer::new().sniff(&page)
        };
        // A declaring tag before other `<meta` bytes (a later tag, a
        // comment, a cut tag at the end): found.
        for tail in [
            "<meta charset=koi8-r><meta name=a content=b>",
            "<meta charset=koi8-r><!-- <meta charset=utf-8> -->",
            "<META CHARSET=KOI8-R><p><meta",
        ] {
            assert_eq!(page(tail).source, Source::LateMeta, "{tail}");
            assert_eq!(page(tail).encoding, KOI8_R, "{tail}");
        }
        // The first declaring tag wins, also with the last `<meta` after it.
        let two = page("<meta name=x><meta charset=koi8-r><meta charset=iso-8859-5>");
        assert_eq!(two.encoding, KOI8_R);
        // No `<meta` bytes, or only ones that start no tag: the default.
        for tail in [
            "<p>charset=koi8-r",
            "<!-- <meta charset=koi8-r> -->",
            "<metal charset=koi8-r>",
        ] {
            assert_eq!(page(tail).source, Source::Default, "{tail}");
        }
    }

    #[test]
    fn a_declaration_past_the_prescan() {
        let mut page = vec![b' '; PRESCAN_LEN - 10];
        page.extend_from_slice(b"<meta charset=koi8-r>");
        // Cut by the prescan's end, read whole by the tokenizer.
        let late = Sniffer::new().sniff(&page);
        assert_eq!((late.encoding, late.source), (KOI8_R, Source::LateMeta));
        page.drain(..20);
        assert_eq!(Sniffer::new().sniff(&page).source, Source::Meta);
        // After a non-ASCII byte, in the head: the page is read again in
        // it (as a browser reloads it).
        let mut after = vec![b' '; PRESCAN_LEN];
        after.extend_from_slice(b"<title>\xe9</title><meta charset=koi8-r>");
        let changed = Sniffer::new().sniff(&after);
        assert_eq!(
            (changed.encoding, changed.source),
            (KOI8_R, Source::ChangedByMeta)
        );
        // In the body (the text before it began one), it does not count:
        // the guess decides.
        let mut body = vec![b' '; PRESCAN_LEN];
        body.extend_from_slice(b"\xe9<meta charset=koi8-r>");
        assert_eq!(Sniffer::new().sniff(&body).source, Source::Guess);
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
    fn guessing() {
        let guessed = |encoding| Sniffed::by(encoding, Source::Guess);
        // A character cut by the guess's window does not count against it.
        let mut long = vec![b'a'; 10];
        long.extend("é".repeat(DETECT_LEN / 2 - 1).as_bytes());
        long.extend("€".as_bytes());
        for statistical in [true, false] {
            let sniffer = Sniffer::new().statistical_guess(statistical);
            assert_eq!(sniffer.sniff(b"<p>caf\xc3\xa9"), guessed(UTF_8));
            assert_eq!(sniffer.sniff(&long), guessed(UTF_8));
            // Nothing to guess from.
            assert_eq!(sniffer.sniff(b"<p>plain").source, Source::Default);
        }
        // Not UTF-8: guessed, or (the standard's minimum) the default.
        let page = b"<p>caf\xe9 cr\xe8me br\xfbl\xe9e, \x93fran\xe7ais\x94";
        assert_eq!(Sniffer::new().sniff(page), guessed(WINDOWS_1252));
        let minimum = Sniffer::new().statistical_guess(false);
        assert_eq!(minimum.sniff(page).source, Source::Default);
        // The guess reads `guess_len` bytes from the first non-ASCII one:
        // Shift_JIS after 1024 bytes of "CAFÉ" (windows-1252, and valid
        // Shift_JIS: half-width katakana) is not seen...
        let japanese = "日本語のテキストです。東京の天気は晴れ。".repeat(DETECT_LEN / 10);
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&japanese);
        let mut late = b"<p>".to_vec();
        for _ in 0..=DETECT_LEN / 5 {
            late.extend_from_slice(b"CAF\xc9 ");
        }
        late.extend_from_slice(&sjis);
        assert_ne!(Sniffer::new().sniff(&late).encoding, SHIFT_JIS);
        // ...unless the caller allows more.
        let more = Sniffer::new().guess_len(4 * DETECT_LEN);
        assert_eq!(more.sniff(&late), guessed(SHIFT_JIS));
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

    /// "Borrowed from the input when it was valid UTF-8": also a page all
    /// ASCII whose encoding was guessed (no declaration, no BOM), which
    /// was copied whole.
    #[test]
    fn ascii_pages_are_borrowed_whatever_decided_their_encoding() {
        let page = b"<title>plain</title><p>only ASCII &eacute; here";
        for sniffer in [
            Sniffer::new(),
            Sniffer::new().transport_label("iso-8859-2"),
            Sniffer::new().transport_label("utf-8"),
        ] {
            let d = sniffer.decode(page);
            assert!(matches!(d.text, Cow::Borrowed(_)), "{:?}", d.sniffed);
            assert_eq!(d.text.as_bytes(), page);
        }
        let d = Sniffer::new().decode(b"<meta charset=koi8-r><p>ascii");
        assert!(matches!(d.text, Cow::Borrowed(_)));
        // Not when a byte is not ASCII.
        let d = Sniffer::new().decode(b"<p>caf\xe9");
        assert!(matches!(d.text, Cow::Owned(_)));
        assert_eq!(d.text, "<p>caf\u{e9}");
    }
}
