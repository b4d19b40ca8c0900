//! Offsets in a decoded page mapped back to the page's bytes.
//!
//! Spans are offsets in the decoded UTF-8 text; a crawler that stores an
//! offset into the file it fetched needs the byte where the character
//! came from. For valid UTF-8 that is the same offset (after a byte order
//! mark). For other encodings the map keeps checkpoints: source and
//! decoded offsets where a fresh decoder reads on exactly as the decoder
//! that made the text did, because the byte before leaves no state behind.
//! A question decodes from the checkpoint before it, in bulk between such
//! points and byte by byte over the last stretch: its cost is bounded by
//! the checkpoints' spacing, not by the page.

use encoding_rs::{
    CoderResult, Decoder, Encoding, ISO_2022_JP, REPLACEMENT, UTF_16BE, UTF_16LE, UTF_8,
};

use super::{ascii_len, Decoded, Source};

/// Source bytes between checkpoints (at least: each is set at the first
/// clean point after this many).
const CHECKPOINT_EVERY: usize = 256;

/// Source bytes a question decodes at a time before it steps byte by byte
/// (at least: each stretch ends at a clean point).
const STRETCH: usize = 32;

/// Where a fresh decoder may start: the positions after which an
/// encoding's decoder holds no state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clean {
    /// Every position: one byte, one character.
    Everywhere,
    /// After an ASCII byte (UTF-8: a pending sequence ends in U+FFFD and
    /// the byte is read again, alone).
    AfterAscii,
    /// After an ASCII byte that is no digit: in the ASCII-compatible
    /// multi-byte encodings (Shift_JIS, EUC-JP, EUC-KR, Big5, GBK,
    /// gb18030) such a byte completes a character as its trail byte, or
    /// ends a malformed sequence (U+FFFD, then the byte read again, alone);
    /// a digit may be the second byte of a gb18030 four-byte sequence.
    AfterNonTrail,
    /// After a code unit that is no lead surrogate, an even number of
    /// bytes from where the decoder started.
    Utf16 { big_endian: bool },
    /// After `ESC ( B` and one byte that the ASCII mode passes through:
    /// the state of a fresh ISO-2022-JP decoder.
    Iso2022Jp,
    /// Nowhere but the start (the replacement encoding's text is one
    /// U+FFFD at most).
    Start,
}

impl Clean {
    fn of(encoding: &'static Encoding) -> Clean {
        if encoding == UTF_8 {
            Clean::AfterAscii
        } else if encoding == UTF_16LE || encoding == UTF_16BE {
            Clean::Utf16 {
                big_endian: encoding == UTF_16BE,
            }
        } else if encoding == ISO_2022_JP {
            Clean::Iso2022Jp
        } else if encoding == REPLACEMENT {
            Clean::Start
        } else if encoding.is_single_byte() {
            Clean::Everywhere
        } else {
            Clean::AfterNonTrail
        }
    }

    /// The first clean position at or after `from` (at most
    /// `bytes.len()`, which is not itself reported); `origin` is where the
    /// decoder started (UTF-16's units count from it).
    fn next(self, bytes: &[u8], from: usize, origin: usize) -> Option<usize> {
        let len = bytes.len();
        if from >= len {
            return None;
        }
        // A position `p` is clean by the byte before it, `bytes[p - 1]`.
        let after = |test: fn(u8) -> bool| {
            let first = from.max(origin + 1) - 1;
            bytes[first..]
                .iter()
                .position(|&b| test(b))
                .map(|i| first + i + 1)
                .filter(|&p| p < len)
        };
        match self {
            Clean::Everywhere => Some(from),
            Clean::AfterAscii => after(|b| b < 0x80),
            Clean::AfterNonTrail => after(|b| b < 0x80 && !b.is_ascii_digit()),
            Clean::Utf16 { big_endian } => {
                let mut p = from.max(origin + 2);
                p += (p - origin) % 2;
                while p < len {
                    let unit = if big_endian {
                        u16::from_be_bytes([bytes[p - 2], bytes[p - 1]])
                    } else {
                        u16::from_le_bytes([bytes[p - 2], bytes[p - 1]])
                    };
                    if !(0xD800..0xDC00).contains(&unit) {
                        return Some(p);
                    }
                    p += 2;
                }
                None
            }
            Clean::Iso2022Jp => {
                let passes = |b: u8| b < 0x80 && !matches!(b, 0x0E | 0x0F | 0x1B);
                let mut at = from.max(origin + 4) - 4;
                while let Some(i) = memchr::memmem::find(&bytes[at..], b"\x1b(B") {
                    let p = at + i + 4;
                    if p >= len {
                        return None;
                    }
                    if passes(bytes[p - 1]) {
                        return Some(p);
                    }
                    at += i + 1;
                }
                None
            }
            Clean::Start => None,
        }
    }
}

/// The decoded offsets of a page's text mapped back to the bytes it was
/// decoded from: [`Decoded::source_map`].
///
/// A character's source offset is where its bytes start: the first byte
/// after those of the characters before it (an ISO-2022-JP escape
/// sequence counts with the character after it, as does a byte order
/// mark with the first). An offset inside a character maps as the
/// character's start; the end of the text maps to the end of the bytes.
///
/// For valid UTF-8 the map is the identity (after a byte order mark) and
/// costs nothing. For other encodings it holds a checkpoint every
/// kilobyte or so of source, made by decoding the page once more when
/// the map is built; each [`source_offset`](Self::source_offset) decodes
/// at most from one checkpoint to the next.
///
/// ```
/// use htmltok::encoding::Sniffer;
/// use htmltok::{Token, Tokenizer};
///
/// // "日本" in Shift_JIS: two bytes a character, three once decoded.
/// let bytes = b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b<a href=/x>";
/// let decoded = Sniffer::new().decode(bytes);
/// let map = decoded.source_map(bytes).unwrap();
/// let mut tok = Tokenizer::new(&*decoded.text);
/// while let Some(token) = tok.next_token() {
///     if let Token::StartTag(tag) = token {
///         if tag.name() == "a" {
///             let start = tag.span().start;
///             assert_eq!(start, 33); // in the UTF-8 text
///             assert_eq!(map.source_offset(start), 31); // in the file
///             assert_eq!(&bytes[31..][..2], b"<a");
///         }
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct SourceMap<'a> {
    bytes: &'a [u8],
    text: &'a str,
    encoding: &'static Encoding,
    clean: Clean,
    /// Decoded offsets below this map one to one onto `start` on: the
    /// bytes were the text itself.
    identity: usize,
    /// Source bytes before the text (a byte order mark).
    start: usize,
    /// Where the decoder starts: the identity's end.
    origin: usize,
    /// `(source, decoded)` offsets where a fresh decoder reads on as the
    /// text was decoded, in order; the first is `(origin, identity)`.
    checkpoints: Vec<(usize, usize)>,
}

impl<'a> Decoded<'a> {
    /// The map from offsets in [`text`](Self::text) back to offsets in
    /// `bytes`, which must be the bytes this text was decoded from
    /// (`None` when they are not: the map decodes them again, and checks
    /// that the text comes out). See [`SourceMap`].
    ///
    /// ```
    /// use htmltok::encoding::Sniffer;
    ///
    /// let bytes = b"\xef\xbb\xbf<p>caf\xc3\xa9</p>"; // UTF-8 with a byte order mark
    /// let decoded = Sniffer::new().decode(bytes);
    /// let map = decoded.source_map(bytes).unwrap();
    /// assert_eq!(decoded.text.find("</p>"), Some(8));
    /// assert_eq!(map.source_offset(8), 11);
    /// assert!(decoded.source_map(b"<p>other bytes").is_none());
    /// ```
    pub fn source_map<'s>(&'s self, bytes: &'s [u8]) -> Option<SourceMap<'s>> {
        SourceMap::build(
            bytes,
            &self.text,
            self.sniffed.encoding,
            self.sniffed.bom_len(),
            self.sniffed.source,
        )
    }
}

impl<'a> SourceMap<'a> {
    /// The map of `text`, decoded from `bytes` in `encoding` as
    /// [`Sniffer::decode`](super::Sniffer::decode) decodes by `source`,
    /// `start` bytes of byte order mark first; `None` if it does not
    /// come out.
    pub(crate) fn build(
        bytes: &'a [u8],
        text: &'a str,
        encoding: &'static Encoding,
        start: usize,
        source: Source,
    ) -> Option<SourceMap<'a>> {
        let body = bytes.get(start..)?;
        let decoded_whole = encoding == UTF_8
            || matches!(
                source,
                Source::Bom | Source::Transport | Source::Meta | Source::ChangedByMeta
            );
        // The text's start that is the bytes themselves: all of valid
        // UTF-8, or the ASCII a decision at the first non-ASCII byte read
        // as it is.
        let identity = if encoding == UTF_8 && body == text.as_bytes() {
            body.len()
        } else if decoded_whole {
            0
        } else {
            ascii_len(body)
        };
        if text.as_bytes().get(..identity)? != &body[..identity] {
            return None;
        }
        let origin = start + identity;
        let mut map = SourceMap {
            bytes,
            text,
            encoding,
            clean: Clean::of(encoding),
            identity,
            start,
            origin,
            checkpoints: vec![(origin, identity)],
        };
        map.checkpoint()?;
        Some(map)
    }

    /// Decodes the bytes after the identity once, checking them against
    /// the text and setting the checkpoints.
    fn checkpoint(&mut self) -> Option<()> {
        let len = self.bytes.len();
        let text = self.text.as_bytes();
        let mut decoder = self.encoding.new_decoder_without_bom_handling();
        let (mut pos, mut out) = (self.origin, self.identity);
        let mut scratch = [0u8; 1024];
        while pos < len {
            let end = self
                .clean
                .next(self.bytes, pos + CHECKPOINT_EVERY, self.origin)
                .unwrap_or(len);
            let mut check = |piece: &[u8]| {
                let ok = text.get(out..out + piece.len()) == Some(piece);
                out += piece.len();
                ok
            };
            if !decode(
                &mut decoder,
                &self.bytes[pos..end],
                end == len,
                &mut scratch,
                &mut check,
            ) {
                return None;
            }
            pos = end;
            if pos < len {
                self.checkpoints.push((pos, out));
            }
        }
        (out == text.len()).then_some(())
    }

    /// The offset in the bytes where the character at `offset` of the
    /// text starts (see [`SourceMap`]); the bytes' length for `offset` at
    /// or past the text's end.
    pub fn source_offset(&self, offset: usize) -> usize {
        if offset >= self.text.len() {
            return self.bytes.len();
        }
        let mut d = offset;
        while !self.text.is_char_boundary(d) {
            d -= 1;
        }
        if d < self.identity {
            return self.start + d;
        }
        let i = self.checkpoints.partition_point(|&(_, t)| t <= d) - 1;
        let (mut pos, mut out) = self.checkpoints[i];
        if out == d {
            return pos;
        }
        let len = self.bytes.len();
        let limit = self.checkpoints.get(i + 1).map_or(len, |&(s, _)| s);
        let mut scratch = [0u8; 256];
        // In stretches from clean point to clean point while the text
        // they make stays short of `d`...
        let mut decoder = self.encoding.new_decoder_without_bom_handling();
        let end = loop {
            let end = self
                .clean
                .next(self.bytes, pos + STRETCH, self.origin)
                .map_or(limit, |p| p.min(limit));
            let made = count(
                &mut decoder,
                &self.bytes[pos..end],
                end == len,
                &mut scratch,
            );
            if out + made >= d || end == limit {
                break end;
            }
            pos = end;
            out += made;
        };
        // ...then, by halves, the first offset in the last stretch after
        // which the text reaches `d`: each probe decodes from the
        // stretch's clean start.
        let (mut below, mut reaches) = (pos, end);
        while reaches - below > 1 {
            let mid = below + (reaches - below) / 2;
            let mut decoder = self.encoding.new_decoder_without_bom_handling();
            let made = count(
                &mut decoder,
                &self.bytes[pos..mid],
                mid == len,
                &mut scratch,
            );
            if out + made >= d {
                reaches = mid;
            } else {
                below = mid;
            }
        }
        reaches
    }

    /// The encoding the text was decoded from.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }
}

/// Decodes `src` with `decoder`, handing the UTF-8 to `sink` piece by
/// piece; `false` as soon as `sink` does.
fn decode(
    decoder: &mut Decoder,
    mut src: &[u8],
    last: bool,
    scratch: &mut [u8],
    sink: &mut dyn FnMut(&[u8]) -> bool,
) -> bool {
    loop {
        let (result, read, written, _) = decoder.decode_to_utf8(src, scratch, last);
        if !sink(&scratch[..written]) {
            return false;
        }
        src = &src[read..];
        if result == CoderResult::InputEmpty {
            return true;
        }
    }
}

/// The bytes of UTF-8 `src` decodes to.
fn count(decoder: &mut Decoder, src: &[u8], last: bool, scratch: &mut [u8]) -> usize {
    let mut made = 0;
    decode(decoder, src, last, scratch, &mut |piece| {
        made += piece.len();
        true
    });
    made
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::Sniffer;
    use encoding_rs::*;

    /// Feeds `bytes[from..]` to a fresh decoder one byte at a time: the
    /// text's length after each prefix (the last flushed), an oracle that
    /// knows nothing of checkpoints.
    fn made_after_each_byte(encoding: &'static Encoding, bytes: &[u8], from: usize) -> Vec<usize> {
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let mut scratch = [0u8; 64];
        let mut made = vec![0];
        let mut total = 0;
        for q in from..bytes.len() {
            total += count(
                &mut decoder,
                &bytes[q..q + 1],
                q + 1 == bytes.len(),
                &mut scratch,
            );
            made.push(total);
        }
        made
    }

    /// Every character boundary of the text, mapped by the map and by the
    /// oracle (the first source offset after which the text reaches it).
    fn check_against_oracle(bytes: &[u8], decoded: &Decoded<'_>, from: usize, identity: usize) {
        let map = decoded
            .source_map(bytes)
            .expect("the bytes decode to the text");
        let made = made_after_each_byte(decoded.sniffed.encoding, bytes, from);
        let text = &decoded.text;
        for (d, _) in text.char_indices() {
            let want = if d < identity {
                d + (from - identity)
            } else {
                from + made.iter().position(|&m| identity + m >= d).unwrap()
            };
            assert_eq!(
                map.source_offset(d),
                want,
                "offset {d} of {}",
                decoded.sniffed.encoding.name()
            );
        }
        assert_eq!(map.source_offset(text.len()), bytes.len());
        assert_eq!(map.source_offset(usize::MAX), bytes.len());
    }

    /// A text of the characters of `alphabet` that `encoding` has, and of
    /// markup, long enough for many checkpoints.
    fn text_for(encoding: &'static Encoding, alphabet: &str, seed: u64) -> String {
        let markup = [
            "<p>",
            "</a>",
            " ",
            "\n",
            "<a href=\"/x?q=",
            "\">",
            "0",
            "9",
            ":",
            "@",
        ];
        let chars: Vec<char> = alphabet
            .chars()
            .filter(|&c| {
                // Characters that come back as they went (ISO-2022-JP
                // writes half-width katakana full-width).
                let one = c.to_string();
                let bytes = encode(encoding, &one);
                encoding.decode_without_bom_handling(&bytes).0 == one
            })
            .collect();
        let mut state = seed;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut text = String::new();
        while text.len() < 6000 {
            let r = next();
            if r % 3 == 0 {
                text.push_str(markup[(r / 3) as usize % markup.len()]);
            } else {
                for _ in 0..r % 7 {
                    text.push(chars[(next() % chars.len() as u64) as usize]);
                }
            }
        }
        text
    }

    fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        if encoding == UTF_16LE || encoding == UTF_16BE {
            let units = text.encode_utf16();
            return if encoding == UTF_16LE {
                units.flat_map(u16::to_le_bytes).collect()
            } else {
                units.flat_map(u16::to_be_bytes).collect()
            };
        }
        encoding.encode(text).0.into_owned()
    }

    const ALPHABET: &str =
        "日本語のテキストｶﾀｶﾅ한국어中文繁體字國語ПриветЖжΩαβé€‚😀𠀋\u{F780}\u{F7FF}";

    fn encodings() -> [&'static Encoding; 15] {
        [
            SHIFT_JIS,
            EUC_JP,
            EUC_KR,
            BIG5,
            GBK,
            GB18030,
            ISO_2022_JP,
            UTF_16LE,
            UTF_16BE,
            WINDOWS_1251,
            KOI8_R,
            WINDOWS_1252,
            ISO_8859_7,
            X_USER_DEFINED,
            UTF_8,
        ]
    }

    #[test]
    fn every_character_of_valid_text_maps_to_where_its_bytes_start() {
        for (n, encoding) in encodings().into_iter().enumerate() {
            let text = text_for(encoding, ALPHABET, 0x9E37_79B9 + n as u64);
            let bytes = encode(encoding, &text);
            let decoded = Sniffer::new().transport(encoding).decode(&bytes);
            assert_eq!(decoded.text, text, "{}", encoding.name());
            let map = decoded.source_map(&bytes).unwrap();
            let decode_prefix = |q: usize, last: bool| {
                let mut decoder = encoding.new_decoder_without_bom_handling();
                let mut out = String::with_capacity(q * 4 + 16);
                let _ = decoder.decode_to_string(&bytes[..q], &mut out, last);
                out
            };
            let mut previous = 0;
            for (d, _) in text.char_indices() {
                let q = map.source_offset(d);
                assert!(q >= previous);
                previous = q;
                // The bytes before it are the text before it...
                assert_eq!(
                    decode_prefix(q, true),
                    text[..d],
                    "{} at {d}",
                    encoding.name()
                );
                // ...and one byte fewer makes less (it is the first such
                // offset).
                if d > 0 {
                    assert!(
                        decode_prefix(q - 1, false).len() < d,
                        "{} at {d}",
                        encoding.name()
                    );
                }
            }
            check_against_oracle(&bytes, &decoded, 0, 0);
            if encoding != UTF_8 {
                assert!(map.checkpoints.len() > 2, "{}", encoding.name());
            }
        }
    }

    #[test]
    fn malformed_bytes_map_as_a_decoder_reads_them() {
        // Markup, escapes, leads, trails in the ASCII range (`@`, `A`),
        // surrogates, cut sequences.
        let pieces: [&[u8]; 20] = [
            b"<a href=x>",
            b" ",
            b"\n",
            b"0",
            b":",
            b"\x1b(B",
            b"\x1b$B",
            b"\x1b(J",
            b"\x1b",
            b"\x81",
            b"\x81\x30",
            b"\x81\x30\x81",
            b"\xd8\x00",
            b"\xdc",
            b"\xa4\xa2",
            b"\xe3\x81",
            b"\x89@",
            b"\x88A",
            b"@",
            b"\x8e",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for encoding in encodings() {
            for _ in 0..4 {
                let mut bytes = Vec::new();
                while bytes.len() < 5000 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    bytes.extend_from_slice(pieces[(state % 20) as usize]);
                    if state % 5 == 0 {
                        bytes.push((state >> 8) as u8);
                    }
                }
                // No byte order mark: the transport decides.
                if Encoding::for_bom(&bytes).is_some() {
                    bytes.insert(0, b' ');
                }
                let decoded = Sniffer::new().transport(encoding).decode(&bytes);
                check_against_oracle(&bytes, &decoded, 0, 0);
            }
        }
    }

    #[test]
    fn a_byte_order_mark_and_the_ascii_a_guess_reads_as_it_is() {
        let bytes = "\u{FEFF}<p>café</p>".as_bytes();
        let decoded = Sniffer::new().decode(bytes);
        assert_eq!(decoded.source_map(bytes).unwrap().source_offset(3), 6);
        check_against_oracle(bytes, &decoded, 3, 0);

        let mut bytes = b"\xff\xfe".to_vec();
        bytes.extend("<p>日本".encode_utf16().flat_map(u16::to_le_bytes));
        let decoded = Sniffer::new().decode(&bytes);
        assert_eq!(decoded.sniffed.source, Source::Bom);
        check_against_oracle(&bytes, &decoded, 2, 0);

        // Undeclared windows-1251: the ASCII before the first non-ASCII
        // byte is the text itself, the rest is decoded.
        let bytes = b"<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xcd\xee\xe2\xee\xf1\xf2\xe8 \xe4\xed\xff.";
        let decoded = Sniffer::new().decode(bytes);
        assert_eq!(decoded.sniffed.source, Source::Guess);
        check_against_oracle(bytes, &decoded, 3, 3);
        assert_eq!(decoded.source_map(bytes).unwrap().source_offset(5), 4);

        // Invalid UTF-8, repaired.
        let bytes = b"<p>a\xffb\xe3\x81<c\xf0\x9f\x98\x80d";
        let decoded = Sniffer::new().transport(UTF_8).decode(bytes);
        check_against_oracle(bytes, &decoded, 0, 0);
    }

    #[test]
    fn other_bytes_than_those_decoded_make_no_map() {
        let bytes = b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b";
        let decoded = Sniffer::new().decode(bytes);
        assert!(decoded.source_map(bytes).is_some());
        assert!(decoded.source_map(&bytes[..bytes.len() - 1]).is_none());
        assert!(decoded.source_map(b"").is_none());
        let utf8 = Sniffer::new().decode(b"\xef\xbb\xbfabc");
        assert!(utf8.source_map(b"\xef\xbb").is_none());
        assert!(utf8.source_map(b"\xef\xbb\xbfabd").is_none());
    }

    #[test]
    fn the_replacement_encoding_maps_its_one_character_to_the_start() {
        let bytes = b"<p>anything";
        let decoded = Sniffer::new().transport(REPLACEMENT).decode(bytes);
        assert_eq!(decoded.text, "\u{FFFD}");
        let map = decoded.source_map(bytes).unwrap();
        assert_eq!(
            (
                map.source_offset(0),
                map.source_offset(1),
                map.source_offset(3)
            ),
            (0, 0, 11)
        );
    }
}
