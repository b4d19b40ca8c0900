//! Lossy UTF-8 decoding: invalid sequences become U+FFFD exactly as
//! `String::from_utf8_lossy` replaces them, so that a whole document and a
//! stream (which decodes chunk by chunk) agree byte for byte.

/// A valid stretch shorter than this counts as "errors close together".
const SHORT: usize = 32;
/// After this many short stretches in a row, std's check finds the errors.
const DENSE: u32 = 8;

/// Appends `data` to `out`, each invalid sequence replaced by U+FFFD as
/// `String::from_utf8_lossy` replaces it, except an incomplete sequence at
/// the very end, which is handed back: a stream completes it with the next
/// chunk, a whole input ends it with one U+FFFD.
///
/// Valid input is checked once by simdutf8. Invalid input goes from error
/// to error: simdutf8 finds the next one and the valid stretch before it is
/// copied whole (std's lossy decoding walks every byte, about 7.5
/// instructions a byte on the corpus's legacy pages). Where errors come
/// close together (a page in a legacy CJK encoding has one every few
/// bytes) simdutf8's set-up per search costs more than std's plain check,
/// which then takes over until a long valid stretch comes again.
pub(crate) fn push_lossy<'d>(out: &mut String, mut data: &'d [u8]) -> &'d [u8] {
    if let Ok(text) = simdutf8::basic::from_utf8(data) {
        out.push_str(text);
        return &[];
    }
    let mut short_runs = 0;
    loop {
        let (valid_up_to, error_len) = if short_runs < DENSE {
            match simdutf8::compat::from_utf8(data) {
                Ok(text) => {
                    out.push_str(text);
                    return &[];
                }
                Err(e) => (e.valid_up_to(), e.error_len()),
            }
        } else {
            match std::str::from_utf8(data) {
                Ok(text) => {
                    out.push_str(text);
                    return &[];
                }
                Err(e) => (e.valid_up_to(), e.error_len()),
            }
        };
        let (valid, rest) = data.split_at(valid_up_to);
        // Checked again to make it a `str`: this costs less than a
        // byte-by-byte walk, and only input that needs repair pays it.
        out.push_str(std::str::from_utf8(valid).unwrap_or_default());
        let Some(bad) = error_len else {
            return rest;
        };
        out.push('\u{FFFD}');
        data = &rest[bad..];
        short_runs = if valid.len() < SHORT {
            short_runs + 1
        } else {
            0
        };
    }
}

/// `String::from_utf8_lossy(input)` into a new string, by [`push_lossy`].
pub(crate) fn repaired(input: &[u8]) -> String {
    let mut out = String::with_capacity(input.len() + input.len() / 2);
    if !push_lossy(&mut out, input).is_empty() {
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
            repaired(input),
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
            prop_assert_eq!(repaired(&bytes), String::from_utf8_lossy(&bytes));
        }
    }
}
