//! What a whole-document tokenizer reads: [`Input`], text borrowed or owned.

use std::borrow::Cow;

use crate::encoding::{Decoded, Sniffer};

/// The text a [`Tokenizer`](crate::Tokenizer) reads: `&str`, `String` and
/// `Cow<str>` convert to it as they are (an owned `String` gives a
/// `Tokenizer<'static>`); bytes go through one of the two explicit ways
/// to text, [`from_utf8_lossy`](Self::from_utf8_lossy) for bytes that
/// should be UTF-8 and [`decode`](Self::decode) for a page in an unknown
/// encoding (or a [`Decoded`] page from a configured [`Sniffer`]).
///
/// ```
/// use htmltok::encoding::Sniffer;
/// use htmltok::{Input, OwnedToken, Tokenizer};
///
/// let text = |input: Input<'_>| -> Vec<OwnedToken> { Tokenizer::new(input).owned().collect() };
/// let expected = [OwnedToken::Text("café".into()), OwnedToken::Eof];
/// assert_eq!(text("café".into()), expected);
/// assert_eq!(text(String::from("café").into()), expected);
/// // Bytes that should be UTF-8: invalid sequences become U+FFFD.
/// assert_eq!(text(Input::from_utf8_lossy(b"caf\xc3\xa9")), expected);
/// // A page in an unknown encoding, decided as a browser decides it.
/// assert_eq!(text(Input::decode(b"caf\xe9")), expected);
/// // With the transport's charset (an HTTP `Content-Type`).
/// let decoded = Sniffer::new().transport_label("iso-8859-1").decode(b"caf\xe9");
/// assert_eq!(text(decoded.into()), expected);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input<'a> {
    pub(crate) text: Cow<'a, str>,
}

impl<'a> Input<'a> {
    /// Bytes that should be UTF-8: invalid sequences are replaced by
    /// U+FFFD (as the standard's UTF-8 decoder does, and as
    /// `String::from_utf8_lossy` does), so no unrepaired byte reaches the
    /// tokenizer. Borrowed when the bytes are valid. Nothing else is
    /// decided about them: a byte order mark is kept, as a U+FEFF
    /// character; [`decode`](Self::decode) drops it.
    ///
    /// ```
    /// use htmltok::{Input, Token, Tokenizer};
    /// let mut tok = Tokenizer::new(Input::from_utf8_lossy(b"caf\xE9"));
    /// assert!(matches!(tok.next_token(), Some(Token::Text(t)) if t.as_str() == "caf\u{FFFD}"));
    /// ```
    pub fn from_utf8_lossy(bytes: &'a [u8]) -> Input<'a> {
        Input {
            text: crate::utf8::lossy(bytes),
        }
    }

    /// The bytes of a page in an unknown encoding, decoded as a browser
    /// decodes them: [`Sniffer::new`]'s [`decode`](Sniffer::decode) (a
    /// byte order mark, a `<meta>` declaration, a guess from the bytes,
    /// else windows-1252). A charset from HTTP goes through a sniffer
    /// ([`Sniffer::transport_label`]), whose [`Decoded`] page converts to
    /// an `Input` too. The text is borrowed from `bytes` when they were
    /// UTF-8; positions are offsets in the decoded text.
    ///
    /// ```
    /// use htmltok::{Input, OwnedToken, Tokenizer};
    /// // "Grüße" in windows-1252, which nothing declares.
    /// let tokens: Vec<_> = Tokenizer::new(Input::decode(b"<p>Gr\xfc\xdfe")).owned().collect();
    /// assert_eq!(tokens[1], OwnedToken::Text("Grüße".into()));
    /// ```
    pub fn decode(bytes: &'a [u8]) -> Input<'a> {
        Sniffer::new().decode(bytes).into()
    }

    /// The text.
    ///
    /// ```
    /// assert_eq!(htmltok::Input::from("<p>").as_str(), "<p>");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl<'a> From<&'a str> for Input<'a> {
    fn from(text: &'a str) -> Input<'a> {
        Input {
            text: Cow::Borrowed(text),
        }
    }
}

impl<'a> From<&'a String> for Input<'a> {
    fn from(text: &'a String) -> Input<'a> {
        Input {
            text: Cow::Borrowed(text),
        }
    }
}

impl From<String> for Input<'static> {
    fn from(text: String) -> Input<'static> {
        Input {
            text: Cow::Owned(text),
        }
    }
}

impl<'a> From<Cow<'a, str>> for Input<'a> {
    fn from(text: Cow<'a, str>) -> Input<'a> {
        Input { text }
    }
}

impl<'a> From<&'a Cow<'a, str>> for Input<'a> {
    fn from(text: &'a Cow<'a, str>) -> Input<'a> {
        Input {
            text: Cow::Borrowed(text),
        }
    }
}

impl<'a> From<Decoded<'a>> for Input<'a> {
    /// The decoded text, as it is (owned exactly when decoding made a new
    /// string).
    fn from(decoded: Decoded<'a>) -> Input<'a> {
        Input { text: decoded.text }
    }
}
