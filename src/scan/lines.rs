//! Counting line breaks and UTF-16 code units in bulk, for line/column
//! positions (`crate::position`): a stream moves its line index over every
//! byte it drops, so these run over whole documents.
//!
//! Each count has its plain definition here (a fold the compiler partly
//! vectorises) and an AVX2 kernel in `x86`, chosen at run time; the kernels
//! are tested against the definitions.

/// Whether `b` is a line break given the byte before it: a CR, or an LF
/// that does not end a CRLF.
#[inline(always)]
fn is_break(prev: u8, b: u8) -> u8 {
    u8::from((b == b'\r') | ((b == b'\n') & (prev != b'\r')))
}

/// The number of line breaks in `bytes` (`after_cr`: the byte before them
/// was a CR, so an LF first ends no line).
pub(crate) fn line_breaks(bytes: &[u8], after_cr: bool) -> usize {
    let Some(&first) = bytes.first() else {
        return 0;
    };
    let first = usize::from(is_break(if after_cr { b'\r' } else { 0 }, first));
    #[cfg(target_arch = "x86_64")]
    if let Some(n) = super::x86::breaks_after_first(bytes) {
        return first + n;
    }
    first + breaks_after_first_from(bytes, 1)
}

/// Line breaks among `bytes[from..]`, each byte tested with its
/// predecessor in `bytes` (`from >= 1`): 32 at a time into `u8` counters,
/// a fold over two arrays that the compiler vectorises.
pub(super) fn breaks_after_first_from(bytes: &[u8], from: usize) -> usize {
    let mut n = 0;
    let mut k = from - 1;
    while let (Some(prev), Some(cur)) = (
        bytes[k..].first_chunk::<32>(),
        bytes.get(k + 1..).and_then(|b| b.first_chunk::<32>()),
    ) {
        let mut sum = 0u8;
        for i in 0..32 {
            sum += is_break(prev[i], cur[i]);
        }
        n += usize::from(sum);
        k += 32;
    }
    for i in k + 1..bytes.len() {
        n += usize::from(is_break(bytes[i - 1], bytes[i]));
    }
    n
}

/// The UTF-16 code units of `bytes`, whole characters: a UTF-8
/// continuation byte adds nothing, a 4-byte lead two, anything else one.
pub(crate) fn utf16_units(bytes: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(n) = super::x86::utf16_units(bytes) {
        return n;
    }
    utf16_units_scalar(bytes)
}

/// [`utf16_units`] by its definition, summed in `u8` counters over blocks
/// of 127 bytes (at most 2 a byte), which the compiler vectorises.
pub(super) fn utf16_units_scalar(bytes: &[u8]) -> usize {
    bytes
        .chunks(127)
        .map(|block| {
            let units: u8 = block
                .iter()
                .map(|&b| ((b as i8) >= -0x40) as u8 + (b >= 0xF0) as u8)
                .sum();
            usize::from(units)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breaks_by_definition(bytes: &[u8], after_cr: bool) -> usize {
        let mut prev = if after_cr { b'\r' } else { 0 };
        let mut n = 0;
        for &b in bytes {
            n += usize::from(b == b'\r' || (b == b'\n' && prev != b'\r'));
            prev = b;
        }
        n
    }

    fn units_by_definition(bytes: &[u8]) -> usize {
        std::str::from_utf8(bytes)
            .unwrap()
            .chars()
            .map(char::len_utf16)
            .sum()
    }

    #[test]
    fn line_breaks_count_cr_lf_and_crlf_once_at_every_position() {
        for len in 0..140 {
            for at in 0..len {
                for (x, y) in [
                    (b'\n', b'\n'),
                    (b'\r', b'\n'),
                    (b'\r', b'\r'),
                    (b'\n', b'\r'),
                ] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = x;
                    if at + 1 < len {
                        bytes[at + 1] = y;
                    }
                    bytes[len - 1 - at / 2] = y;
                    for after_cr in [false, true] {
                        let want = breaks_by_definition(&bytes, after_cr);
                        assert_eq!(line_breaks(&bytes, after_cr), want, "{bytes:?} {after_cr}");
                        if len > 0 {
                            let first =
                                usize::from(is_break(if after_cr { b'\r' } else { 0 }, bytes[0]));
                            assert_eq!(first + breaks_after_first_from(&bytes, 1), want);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn line_breaks_count_long_inputs_with_and_without_crs() {
        // Past the kernel's 128-byte blocks and its counters' 63 blocks:
        // pages of LFs only, and pages where a CR, a CRLF or an LF sits on
        // each side of a block's edge (blocks start at offsets 1 + 128k)
        // among blocks without any CR.
        // Under Miri, which checks the kernel's loads, a few blocks.
        let len = 128 * if cfg!(miri) { 3 } else { 70 } + 77;
        let mut lf_only = vec![b'a'; len];
        for i in (0..len).step_by(37) {
            lf_only[i] = b'\n';
        }
        // Every byte a break: the counters fill as fast as they can.
        let mut inputs = vec![lf_only.clone(), vec![b'\n'; len], vec![b'\r'; len]];
        for edge in [0, 1, 2, 127, 128, 129, 130, 128 * 63, 128 * 63 + 1] {
            if edge + 1 >= len {
                continue;
            }
            for (x, y) in [(b'\r', b'\n'), (b'\r', b'a'), (b'a', b'\n'), (b'\r', b'\r')] {
                let mut bytes = lf_only.clone();
                bytes[edge] = x;
                bytes[edge + 1] = y;
                // A CR at the end of a block, and the next block free of CRs.
                bytes[len - 129] = b'\r';
                inputs.push(bytes);
            }
        }
        for bytes in &inputs {
            for cut in [0, 1, 5, 128, 129, 200] {
                let part = &bytes[cut..];
                for after_cr in [false, true] {
                    assert_eq!(
                        line_breaks(part, after_cr),
                        breaks_by_definition(part, after_cr),
                        "from {cut}, after a CR {after_cr}"
                    );
                }
            }
        }
    }

    #[test]
    fn utf16_units_count_long_runs_of_ascii_and_of_astral_characters() {
        // Blocks of ASCII and blocks of other characters, past the
        // kernel's 128-byte blocks, and a run of astral characters long
        // enough to fill its counters (their leads fall in the same byte of
        // every vector) before they are emptied.
        let text = format!(
            "{}{}{}{}{}",
            "a".repeat(300),
            "\u{1F600}".repeat(1300),
            "b".repeat(500),
            "\u{e9}\u{20AC}x\u{1F600}".repeat(50),
            "c".repeat(129)
        );
        let bytes = text.as_bytes();
        for start in (0..140).chain([300, 301, 302, 303, 5500]) {
            for end in [
                bytes.len(),
                bytes.len() - 1,
                bytes.len() - 100,
                5300,
                5199,
                5201,
            ] {
                let (Some(part), true) = (text.get(start..end), start <= end) else {
                    continue;
                };
                assert_eq!(
                    utf16_units(part.as_bytes()),
                    units_by_definition(part.as_bytes()),
                    "{start}..{end}"
                );
            }
        }
    }

    #[test]
    fn utf16_units_count_whole_characters_at_every_length() {
        let text: String = (0..300)
            .map(|i| match i % 7 {
                0 => 'a',
                1 => '\u{e9}',
                2 => '\u{20AC}',
                3 => '\u{1F600}',
                4 => '\n',
                5 => '\u{FFFD}',
                _ => 'z',
            })
            .collect();
        // Under Miri, which checks the kernel's loads, every 17th cut.
        for (cut, _) in text.char_indices().step_by(if cfg!(miri) { 17 } else { 1 }) {
            for (start, _) in text[..cut].char_indices().step_by(13) {
                let bytes = &text.as_bytes()[start..cut];
                assert_eq!(
                    utf16_units(bytes),
                    units_by_definition(bytes),
                    "{start}..{cut}"
                );
                assert_eq!(utf16_units_scalar(bytes), units_by_definition(bytes));
            }
        }
    }
}
