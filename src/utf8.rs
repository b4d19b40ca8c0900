//! Lossy UTF-8 decoding: invalid sequences become U+FFFD exactly as
//! `String::from_utf8_lossy` replaces them, so that a whole document and a
//! stream (which decodes chunk by chunk) agree byte for byte.

use std::borrow::Cow;

/// Valid non-ASCII characters in a row after an error from which
/// stretches are tried as valid at once (simdutf8) again, as text in UTF-8
/// proper continues.
const VALID_RUN: u32 = 16;

/// The bytes from a non-ASCII character on checked as one valid stretch.
/// Sparse non-ASCII in ASCII text (a quote mark, an accented letter) needs
/// only a short stretch before the ASCII is copied in its own check again;
/// text in another script continues stretch after stretch.
const STRETCH: usize = 1024;

/// Appends `data` to `out`, each invalid sequence replaced by U+FFFD as
/// `String::from_utf8_lossy` replaces it, except an incomplete sequence at
/// the very end, which is handed back: a stream completes it with the next
/// chunk, a whole input ends it with one U+FFFD.
///
/// Runs of ASCII are appended in the pass that checks them
/// (`scan::ascii`): a check of the whole chunk and then a copy read every
/// byte twice. From a non-ASCII byte a stretch is checked by simdutf8, up
/// to its first error. After an error (a page in a legacy encoding has one
/// at every non-ASCII letter) characters are decoded one by one until a few
/// valid ones in a row: a search for the next error per error cost far more
/// than the character (simdutf8's set-up, and std's check to locate the
/// error); std's lossy decoding walks every byte.
pub(crate) fn push_lossy<'d>(out: &mut String, data: &'d [u8]) -> &'d [u8] {
    push_lossy_from(out, data, 0)
}

/// [`push_lossy`] for data whose first `valid` bytes are known to be valid.
fn push_lossy_from<'d>(out: &mut String, data: &'d [u8], valid: usize) -> &'d [u8] {
    out.push_str(simdutf8::basic::from_utf8(&data[..valid]).unwrap_or_default());
    let mut i = valid;
    let mut valid_in_a_row = VALID_RUN;
    while i < data.len() {
        i += crate::scan::ascii::push_ascii(out, &data[i..]);
        if i == data.len() {
            break;
        }
        if valid_in_a_row >= VALID_RUN {
            // A character cut at the stretch's end is checked again from
            // the whole input next.
            let stretch = &data[i..data.len().min(i + STRETCH)];
            match simdutf8::compat::from_utf8(stretch) {
                Ok(text) => {
                    out.push_str(text);
                    i += stretch.len();
                    continue;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    out.push_str(simdutf8::basic::from_utf8(&stretch[..valid]).unwrap_or_default());
                    i += valid;
                    if e.error_len().is_some() {
                        valid_in_a_row = 0;
                    }
                    if valid > 0 {
                        continue;
                    }
                }
            }
        }
        match decode(&data[i..]) {
            Decoded::Char(c, len) => {
                out.push(c);
                i += len;
                valid_in_a_row += 1;
            }
            Decoded::Invalid(len) => {
                out.push('\u{FFFD}');
                i += len;
                valid_in_a_row = 0;
            }
            Decoded::Incomplete => return &data[i..],
        }
    }
    &[]
}

/// One UTF-8 sequence at the start of `bytes` (whose first byte is not
/// ASCII).
enum Decoded {
    /// A character of this many bytes.
    Char(char, usize),
    /// An invalid sequence of this many bytes, replaced by one U+FFFD: its
    /// maximal valid prefix, or its first byte, as the standard's UTF-8
    /// decoder (and `from_utf8_lossy`) does.
    Invalid(usize),
    /// A valid prefix cut off by the end of `bytes`.
    Incomplete,
}

fn decode(bytes: &[u8]) -> Decoded {
    let b = bytes[0];
    // The sequence's length and the range of its second byte.
    let (len, second) = match b {
        0xC2..=0xDF => (2, 0x80..=0xBF),
        0xE0 => (3, 0xA0..=0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
        0xED => (3, 0x80..=0x9F),
        0xF0 => (4, 0x90..=0xBF),
        0xF1..=0xF3 => (4, 0x80..=0xBF),
        0xF4 => (4, 0x80..=0x8F),
        _ => return Decoded::Invalid(1),
    };
    let mut code = u32::from(b) & (0x7F >> len);
    for k in 1..len {
        let Some(&c) = bytes.get(k) else {
            return Decoded::Incomplete;
        };
        let fits = if k == 1 {
            second.contains(&c)
        } else {
            (0x80..=0xBF).contains(&c)
        };
        if !fits {
            return Decoded::Invalid(k);
        }
        code = code << 6 | u32::from(c & 0x3F);
    }
    Decoded::Char(char::from_u32(code).unwrap_or('\u{FFFD}'), len)
}

/// `String::from_utf8_lossy(input)`, borrowed when `input` is valid.
pub(crate) fn lossy(input: &[u8]) -> Cow<'_, str> {
    // The plain check is much faster than the lossy one on valid input, and
    // simdutf8's is faster than std's, whose check was a noticeable part of
    // the tokenizer's instructions on an article page. The compat check
    // stops at the first error, where the repair begins.
    match simdutf8::compat::from_utf8(input) {
        Ok(s) => Cow::Borrowed(s),
        Err(e) => Cow::Owned(repaired(input, e.valid_up_to())),
    }
}

/// `String::from_utf8_lossy(input)` into a new string, by [`push_lossy`],
/// for input whose first `valid` bytes are known to be valid UTF-8.
pub(crate) fn repaired(input: &[u8], valid: usize) -> String {
    let mut out = String::with_capacity(input.len() + input.len() / 2);
    if !push_lossy_from(&mut out, input, valid.min(input.len())).is_empty() {
        // A sequence cut off by the end of input: one U+FFFD.
        out.push('\u{FFFD}');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{push_lossy, repaired};
    use proptest::prelude::*;

    fn same_as_std(input: &[u8]) {
        assert_eq!(
            repaired(input, 0),
            String::from_utf8_lossy(input),
            "input {input:?}"
        );
    }

    #[test]
    fn repair_equals_std_lossy_for_sparse_and_dense_errors() {
        // Windows-1252 letters in ASCII text (sparse), GBK-like pairs
        // (dense, past the switch to std), and the two mixed, cut at every
        // length so that truncated sequences end the input too.
        let sparse = b"caf\xe9 na\xefve r\xe9sum\xe9 ".repeat(20);
        let dense = b"\xc4\xe3\xba\xc3 \xca\xc0\xbd\xe7 ".repeat(20);
        let valid = "ok \u{e9}\u{4e16}\u{1F600} ".repeat(20).into_bytes();
        let mut mixed = Vec::new();
        for part in [&sparse, &valid, &dense, &valid, &sparse] {
            mixed.extend_from_slice(part);
        }
        for len in 0..=mixed.len() {
            same_as_std(&mixed[..len]);
        }
        same_as_std(b"\xf0\x9f\x98");
        same_as_std(b"a\xed\xa0\x80b\xf4\x90\x80\x80c\xc0\xafd");
    }

    #[test]
    fn an_incomplete_sequence_at_the_end_is_handed_back() {
        let mut out = String::new();
        assert_eq!(push_lossy(&mut out, b"a\xffb\xe4\xb8"), b"\xe4\xb8");
        assert_eq!(out, "a\u{FFFD}b");
        let mut out = String::new();
        assert_eq!(push_lossy(&mut out, b"ok\xf0\x9f\x98\x80"), b"");
        assert_eq!(out, "ok\u{1F600}");
    }

    proptest! {
        #[test]
        fn repair_equals_std_lossy(bytes in prop::collection::vec(
            prop_oneof![
                4 => 0x20u8..0x7f,
                1 => 0x80u8..=0xff,
                1 => Just(0xe4u8),
                1 => Just(0xf0u8),
            ],
            0..400,
        )) {
            prop_assert_eq!(repaired(&bytes, 0), String::from_utf8_lossy(&bytes));
            let valid = std::str::from_utf8(&bytes).map_or_else(|e| e.valid_up_to(), str::len);
            prop_assert_eq!(repaired(&bytes, valid), String::from_utf8_lossy(&bytes));
        }
    }
}
