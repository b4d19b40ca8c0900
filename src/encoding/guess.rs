//! The guess: the standard's step where nothing declared an encoding and a
//! browser may "analyze the byte stream" before falling back to a default.
//! Firefox guesses there with `chardetng` (by the author of `encoding_rs`,
//! made for exactly this step), which this module feeds.
//!
//! What the guess reads is fixed, so that a stream and a whole page
//! guess alike: the two bytes before the first non-ASCII byte (chardetng
//! keeps that much context: a letter before `º` tells Spanish `n.º` from
//! other uses) and the [`Sniffer::guess_len`](super::Sniffer::guess_len)
//! bytes from the first non-ASCII byte on, or all of them when the input
//! ends sooner. Before the first non-ASCII byte there is nothing to tell
//! ASCII-compatible encodings apart: pure ASCII is not guessed (the default
//! decides, and reads it the same).

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, UTF_8};

/// Bytes of ASCII context before the first non-ASCII byte that the guess
/// is given.
pub(crate) const CONTEXT: usize = 2;

/// The encoding `window` (the input from its first non-ASCII byte, at most
/// the guess's length) looks like, given `context` (the up to [`CONTEXT`]
/// ASCII bytes before it); `last` when the input ends with `window`.
/// `None` for an empty window: nothing to guess from.
///
/// `statistical` off is the standard's minimum as htmltok had it before:
/// UTF-8 when the window is valid UTF-8 (a character cut at its end
/// allowed), else nothing.
pub(crate) fn guess(
    context: &[u8],
    window: &[u8],
    last: bool,
    tld: Option<&[u8]>,
    statistical: bool,
) -> Option<&'static Encoding> {
    if window.is_empty() {
        return None;
    }
    if !statistical {
        return reads_as_utf8(window).then_some(UTF_8);
    }
    // chardetng answers UTF-8 exactly when its UTF-8 candidate (encoding_rs's
    // decoder, the same validity as std's) met no error: checked here
    // first, since most undeclared pages are UTF-8 and the check runs at
    // memory speed, where chardetng runs all its candidates over each byte.
    if is_utf8(window, last) {
        return Some(UTF_8);
    }
    // ISO-2022-JP is never guessed: it is seven-bit, so a page in it is
    // pure ASCII here, and browsers do not guess it for pages that can run
    // scripts (it can hide markup from a filter that reads ASCII).
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(context, false);
    detector.feed(window, last);
    // UTF-8 allowed: a crawler wants valid UTF-8 found (a browser denies it
    // so that authors do not come to rely on it).
    Some(detector.guess(tld, Utf8Detection::Allow))
}

/// Whether `window` is valid UTF-8 as chardetng judges it: an incomplete
/// sequence at its end allowed unless the input ends there (`last`).
fn is_utf8(window: &[u8], last: bool) -> bool {
    match simdutf8::compat::from_utf8(window) {
        Ok(_) => true,
        Err(e) => !last && e.error_len().is_none(),
    }
}

/// Whether `window` is valid UTF-8, an incomplete sequence at its end
/// allowed (the window may cut one).
fn reads_as_utf8(window: &[u8]) -> bool {
    match std::str::from_utf8(window) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

/// The top-level domain a guess takes as its hint: the last label of a
/// host name, lower-case ASCII (an internationalized one in its Punycode
/// form, `xn--p1ai`), as chardetng wants it. Kept inline (a DNS label has
/// at most 63 bytes) so that a `Sniffer` stays `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tld {
    len: u8,
    bytes: [u8; 63],
}

impl Tld {
    /// `label` lower-cased, if it can be a DNS label in ASCII: 1 to 63
    /// bytes, no dot.
    pub(crate) fn new(label: &str) -> Option<Tld> {
        let label = label.as_bytes();
        if label.is_empty() || label.len() > 63 || !label.is_ascii() || label.contains(&b'.') {
            return None;
        }
        let mut bytes = [0; 63];
        bytes[..label.len()].copy_from_slice(label);
        bytes.make_ascii_lowercase();
        Some(Tld {
            len: label.len() as u8,
            bytes,
        })
    }

    /// The top-level domain of `url`'s host: `https://www.example.co.jp:8080/x`
    /// gives `jp`. `None` when there is no host name (no `scheme://`, an IP
    /// address) or its last label is not ASCII.
    pub(crate) fn of_url(url: &str) -> Option<Tld> {
        let (_, rest) = url.trim().split_once("://")?;
        let authority = rest.split(['/', '?', '#', '\\']).next()?;
        let host = authority.rsplit('@').next()?;
        if host.starts_with('[') {
            return None; // IPv6
        }
        let host = host.split(':').next()?.trim_end_matches('.');
        let label = host.rsplit('.').next()?;
        if label.bytes().all(|b| b.is_ascii_digit()) {
            return None; // IPv4
        }
        Tld::new(label)
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_domains_from_urls() {
        let tld = |url| Tld::of_url(url).map(|t| String::from_utf8(t.as_bytes().to_vec()).unwrap());
        assert_eq!(
            tld("https://www.Example.CO.JP:8080/x?y#z").as_deref(),
            Some("jp")
        );
        assert_eq!(
            tld("http://user:pw@news.example.ru./").as_deref(),
            Some("ru")
        );
        assert_eq!(tld("http://example.xn--p1ai").as_deref(), Some("xn--p1ai"));
        assert_eq!(tld("http://192.168.0.1/"), None);
        assert_eq!(tld("http://[::1]:80/"), None);
        assert_eq!(tld("http://пример.рф/"), None);
        assert_eq!(tld("example.com"), None);
        assert_eq!(Tld::new("a.b"), None);
        assert_eq!(Tld::new(&"x".repeat(64)), None);
    }

    #[test]
    fn nothing_to_guess_from_without_a_non_ascii_byte() {
        assert_eq!(guess(b"", b"", true, None, true), None);
        assert_eq!(guess(b"ab", b"", false, None, false), None);
    }

    #[test]
    fn the_standard_minimum_guesses_only_utf8() {
        let gbk = b"\xd6\xd0\xce\xc4\xcd\xf8\xd2\xb3";
        assert_eq!(guess(b"", gbk, true, None, false), None);
        assert_eq!(
            guess(b"", "中文".as_bytes(), true, None, false),
            Some(UTF_8)
        );
        // A character cut by the window does not count against it.
        assert_eq!(
            guess(b"", b"\xc3\xa9\xe4\xb8", false, None, false),
            Some(UTF_8)
        );
    }

    /// The shortcut for UTF-8 answers as chardetng itself would.
    #[test]
    fn the_utf8_shortcut_is_chardetngs_answer() {
        let chardetng = |window: &[u8], last| {
            let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
            detector.feed(window, last);
            detector.guess(None, Utf8Detection::Allow) == UTF_8
        };
        let cases: [&[u8]; 8] = [
            "é".as_bytes(),
            "日本語".as_bytes(),
            b"\xe6\x97",
            b"\xc3\xa9 \xe6",
            b"\xed\xa0\x80",
            b"\xc0\xaf",
            b"\xf4\x90\x80\x80",
            b"\xe9t\xe9",
        ];
        for case in cases {
            for last in [false, true] {
                assert_eq!(
                    is_utf8(case, last),
                    chardetng(case, last),
                    "{case:?} {last}"
                );
            }
        }
    }

    #[test]
    fn the_statistical_guess_and_its_hint() {
        let (sjis, _, _) =
            encoding_rs::SHIFT_JIS.encode("日本語のテキストです。東京の天気は晴れ。");
        assert_eq!(
            guess(b"", &sjis, true, None, true),
            Some(encoding_rs::SHIFT_JIS)
        );
        assert_eq!(guess(b"", "中文".as_bytes(), true, None, true), Some(UTF_8));
        // A word too short to tell windows-1251 ("дом") from the other
        // single-byte encodings: the TLD decides.
        let tld = Tld::new("ru").unwrap();
        let dom = b"\xe4\xee\xec";
        assert_ne!(
            guess(b"", dom, true, None, true),
            Some(encoding_rs::WINDOWS_1251)
        );
        assert_eq!(
            guess(b"", dom, true, Some(tld.as_bytes()), true),
            Some(encoding_rs::WINDOWS_1251)
        );
    }
}
