//! Finding the next byte that may start a character the input stream
//! reports (control characters and noncharacters), for the parse errors of
//! "preprocessing the input stream" (`tokenizer::machine::errors`).
//!
//! Unlike the landmark sets, this set has non-ASCII bytes (UTF-8 lead
//! bytes), so it has its own tables and kernel: [`is_suspect`] is the
//! definition, [`find_scalar`] the plain search, and [`find`] uses the
//! AVX2 kernel (`x86::avx2_suspects`, a nibble table over whole bytes)
//! where the CPU has it, else [`find_blocks`], which the compiler
//! vectorises with the baseline instruction set.

/// Whether `b` may start a character the input stream reports: C0 controls
/// other than whitespace and NUL, DEL, and the UTF-8 lead bytes of C1
/// controls (0xC2), of U+FDD0..U+FDEF and U+FFFE/U+FFFF (0xEF), and of the
/// supplementary planes' noncharacters (0xF0..0xF4).
///
/// Comparisons only, combined without branches, so that a loop over a block
/// of bytes compiles to vector code (see [`find_blocks`]).
#[inline(always)]
pub(crate) const fn is_suspect(b: u8) -> bool {
    let c0_control =
        (b.wrapping_sub(1) < 0x1F) & (b != b'\t') & (b != b'\n') & (b != 0x0C) & (b != b'\r');
    c0_control | (b == 0x7F) | (b == 0xC2) | (b == 0xEF) | (b.wrapping_sub(0xF0) < 5)
}

/// Offset of the first suspect byte of `hay`, or `hay.len()`: the
/// definition the kernels are held to.
pub(crate) fn find_scalar(hay: &[u8]) -> usize {
    hay.iter().position(|&b| is_suspect(b)).unwrap_or(hay.len())
}

/// [`find_scalar`] as the method the x86 kernels' scan loop calls for
/// haystacks shorter than a vector.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Definition;

impl Definition {
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn find_scalar(&self, hay: &[u8]) -> usize {
        find_scalar(hay)
    }
}

/// Offset of the first suspect byte of `hay`, or `hay.len()`.
///
/// With errors on, this runs over every byte of a page once: the AVX2
/// kernel takes a fraction of the instructions of the compiler's vectors
/// of [`find_blocks`] (SSE2 only).
#[inline]
pub(crate) fn find(hay: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = super::x86::suspects(hay) {
        return k;
    }
    find_blocks(hay)
}

/// [`find`] in safe code the compiler vectorises: a block of 32 bytes is
/// tested as a whole (suspects are rare outside CJK text), and only a
/// block that has one is searched byte by byte.
pub(crate) fn find_blocks(hay: &[u8]) -> usize {
    const BLOCK: usize = 32;
    let any = |block: &[u8; BLOCK]| block.iter().fold(false, |any, &b| any | is_suspect(b));
    let mut offset = 0;
    while let Some(block) = hay.get(offset..).and_then(|h| h.first_chunk::<BLOCK>()) {
        if any(block) {
            break;
        }
        offset += BLOCK;
    }
    let rest = &hay[offset..];
    if rest.len() < BLOCK {
        // The last, partial block (at the end of the window, or of a short
        // stretch): padded with a byte that is no suspect.
        let mut padded = [b' '; BLOCK];
        padded[..rest.len()].copy_from_slice(rest);
        if !any(&padded) {
            return hay.len();
        }
    }
    rest.iter()
        .position(|&b| is_suspect(b))
        .map_or(hay.len(), |k| offset + k)
}

/// The nibble tables of the vector kernel, `(LO, HI)`: byte `b` is a
/// suspect exactly when `LO[b & 15] & HI[b >> 4] != 0`.
///
/// Built from [`is_suspect`]: the bytes with high nibble `h` form a row
/// (the set of their low nibbles); rows that are alike share one bit,
/// `HI[h]` is that bit, and `LO[l]` has the bits of the rows that hold
/// `l`. Exact because each `HI[h]` is a single bit and every row with that
/// bit is the same row. The set has five distinct rows, within eight bits.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const NIBBLES: ([u8; 16], [u8; 16]) = {
    let mut rows = [0u16; 16];
    let mut b = 0;
    while b < 256 {
        if is_suspect(b as u8) {
            rows[b >> 4] |= 1 << (b & 15);
        }
        b += 1;
    }
    let (mut lo, mut hi) = ([0u8; 16], [0u8; 16]);
    let mut next_bit = 0;
    let mut h = 0;
    while h < 16 {
        if rows[h] != 0 {
            // The bit of an earlier row that is the same, else a new one.
            let mut bit = 0u8;
            let mut g = 0;
            while g < h {
                if rows[g] == rows[h] {
                    bit = hi[g];
                }
                g += 1;
            }
            if bit == 0 {
                assert!(next_bit < 8, "more than eight distinct rows");
                bit = 1 << next_bit;
                next_bit += 1;
            }
            hi[h] = bit;
            let mut l = 0;
            while l < 16 {
                if rows[h] & 1 << l != 0 {
                    lo[l] |= bit;
                }
                l += 1;
            }
        }
        h += 1;
    }
    (lo, hi)
};

/// Checks [`find`] and [`find_blocks`] against [`find_scalar`] at every
/// start offset of `hay` (for the fuzz targets' kernel cross-check).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn suspects_agree(hay: &[u8]) -> Result<(), String> {
    for start in 0..=hay.len() {
        let h = &hay[start..];
        let want = find_scalar(h);
        for (name, got) in [("find", find(h)), ("find_blocks", find_blocks(h))] {
            if got != want {
                return Err(format!(
                    "suspects: from offset {start} of {}, {name} gave {got}, scalar {want}",
                    hay.len()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suspect bytes, listed as the standard's definitions give them.
    fn suspect_by_definition(b: u8) -> bool {
        let c0_control = (0x01..=0x1F).contains(&b) && ![0x09, 0x0A, 0x0C, 0x0D].contains(&b);
        // Lead bytes of U+0080..U+009F, U+FDD0..U+FDEF / U+FFFE..U+FFFF,
        // and of every plane above the first (U+1FFFE.. U+10FFFF).
        c0_control || b == 0x7F || b == 0xC2 || b == 0xEF || (0xF0..=0xF4).contains(&b)
    }

    #[test]
    fn suspects_are_the_listed_bytes() {
        let (lo, hi) = NIBBLES;
        for b in 0..=255u8 {
            assert_eq!(is_suspect(b), suspect_by_definition(b), "byte {b:#04x}");
            let by_nibbles = lo[usize::from(b & 15)] & hi[usize::from(b >> 4)] != 0;
            assert_eq!(
                by_nibbles,
                suspect_by_definition(b),
                "nibbles, byte {b:#04x}"
            );
        }
    }

    #[test]
    fn every_search_finds_the_first_at_every_position() {
        // Every suspect byte, at every offset of haystacks around the
        // vector and block sizes, before another suspect; the bytes around
        // them are near misses (whitespace, NUL, other lead bytes).
        let fillers = [b'x', b'\t', 0, 0xC3, 0xEE, 0xF5, 0x80, b'\r', 0x7E];
        for len in [
            0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200,
        ] {
            for &fill in &fillers {
                let plain = vec![fill; len];
                assert_eq!(find(&plain), len);
                assert_eq!(find_blocks(&plain), len);
            }
            for at in 0..len {
                for b in (0..=255u8).filter(|&b| suspect_by_definition(b)) {
                    let mut hay: Vec<u8> = (0..len).map(|i| fillers[i % fillers.len()]).collect();
                    hay[at] = b;
                    if at + 1 < len {
                        hay[len - 1] = 0x01;
                    }
                    assert_eq!(find(&hay), at, "find: byte {b:#04x} at {at} of {len}");
                    assert_eq!(
                        find_blocks(&hay),
                        at,
                        "find_blocks: byte {b:#04x} at {at} of {len}"
                    );
                }
            }
        }
    }

    #[test]
    fn suspects_agree_on_text() {
        let text = "a\u{1}b\t\u{7f}c\u{80}d\u{fdd0}e\u{fffe}\u{1fffe}f€ü日本語\r\n\u{c}".repeat(9);
        assert!(suspects_agree(text.as_bytes()).is_ok());
    }
}
