//! The portable kernel: SWAR ("SIMD within a register") over `u64` words.
//!
//! Used on targets without a vector kernel of our own, and tested on every
//! target. Entirely safe code: words are read with `u64::from_le_bytes`, so
//! byte `k` of a word is byte `k` of the slice on every target, and the first
//! landmark is the lowest set bit of a word's mask.
//!
//! The byte tests are exact per byte (no carries cross byte boundaries), so a
//! mask has bit 7 of byte `k` set exactly when byte `k` is a landmark.

use super::{Landmarks, Method};

const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

/// Bit 7 set in each byte of `x` that is zero, nothing else.
///
/// `(x & 0x7F) + 0x7F` is at most `0xFE` per byte, so there is no carry
/// into the next byte; its bit 7 is set when the low seven bits are not all
/// zero, and `| x` adds the byte's own bit 7.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// Bit 7 set in each byte of `x` that is an ASCII upper-case letter.
///
/// With `t` the low seven bits (at most `0x7F`), `t + 0x3F` reaches bit 7
/// exactly when `t >= 0x41` and `t + 0x25` exactly when `t >= 0x5B`; neither
/// sum exceeds `0xFF`, so no carry crosses a byte. The byte's own bit 7 must
/// be clear.
#[inline(always)]
fn upper_bytes(x: u64) -> u64 {
    let t = x & LOW7;
    let ge_a = t + ONES * 0x3F;
    let gt_z = t + ONES * 0x25;
    ge_a & !gt_z & !x & HIGH
}

/// Bit 7 set in each byte of `word` that is in the set: compare-and-or
/// against `N` byte values (the set's bytes, padded by repeating the first)
/// and, when `UPPER`, the range A–Z.
#[inline(always)]
fn classify<const N: usize, const UPPER: bool>(splats: &[u64; N], word: u64) -> u64 {
    let mut m = 0;
    for &s in splats {
        m |= zero_bytes(word ^ s);
    }
    if UPPER {
        m |= upper_bytes(word);
    }
    m
}

#[inline(always)]
fn word_at(hay: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&hay[i..i + 8]);
    u64::from_le_bytes(w)
}

fn scan<const N: usize, const UPPER: bool>(set: &Landmarks, hay: &[u8]) -> usize {
    let splats: [u64; N] = core::array::from_fn(|k| ONES * u64::from(set.bytes[k]));
    let len = hay.len();
    let mut i = 0;
    // Two words per step: one branch per 16 bytes.
    while i + 16 <= len {
        let a = classify::<N, UPPER>(&splats, word_at(hay, i));
        let b = classify::<N, UPPER>(&splats, word_at(hay, i + 8));
        if a | b != 0 {
            return if a != 0 {
                i + (a.trailing_zeros() / 8) as usize
            } else {
                i + 8 + (b.trailing_zeros() / 8) as usize
            };
        }
        i += 16;
    }
    if i + 8 <= len {
        let a = classify::<N, UPPER>(&splats, word_at(hay, i));
        if a != 0 {
            return i + (a.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    // Fewer than eight bytes left: no bytes before `i` are landmarks, so an
    // overlapping final word finds the first one in the tail.
    if i < len && len >= 8 {
        let a = classify::<N, UPPER>(&splats, word_at(hay, len - 8));
        return if a != 0 {
            len - 8 + (a.trailing_zeros() / 8) as usize
        } else {
            len
        };
    }
    i + set.find_scalar(&hay[i..])
}

/// Offset of the first landmark of a [`Method::Few`] set in `chunk`, or 16.
#[inline(always)]
pub(super) fn head16(set: &Landmarks, chunk: &[u8; 16]) -> usize {
    let splats: [u64; 4] = core::array::from_fn(|k| ONES * u64::from(set.bytes[k]));
    let a = classify::<4, false>(&splats, word_at(chunk, 0));
    if a != 0 {
        return (a.trailing_zeros() / 8) as usize;
    }
    let b = classify::<4, false>(&splats, word_at(chunk, 8));
    // No bit set gives 64 / 8 = 8.
    8 + (b.trailing_zeros() / 8) as usize
}

/// Offset of the first landmark of `set` in `hay`, or `hay.len()`.
pub(super) fn find(set: &Landmarks, hay: &[u8]) -> usize {
    match (set.method, set.bucket(), set.upper) {
        (Method::Few, _, _) => scan::<4, false>(set, hay),
        (_, 8, false) => scan::<8, false>(set, hay),
        (_, 8, true) => scan::<8, true>(set, hay),
        (_, 12, false) => scan::<12, false>(set, hay),
        (_, 12, true) => scan::<12, true>(set, hay),
        (_, _, false) => scan::<16, false>(set, hay),
        (_, _, true) => scan::<16, true>(set, hay),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_of(w: u64) -> [u8; 8] {
        w.to_le_bytes()
    }

    #[test]
    fn byte_tests_are_exact_for_every_byte_in_every_lane() {
        for b in 0..=255u8 {
            for lane in 0..8 {
                // The other lanes hold values that provoke carries/borrows.
                for fill in [0x00u8, 0x01, 0x40, 0x41, 0x5A, 0x5B, 0x7F, 0x80, 0xFF] {
                    let mut w = [fill; 8];
                    w[lane] = b;
                    let x = u64::from_le_bytes(w);
                    let z = bytes_of(zero_bytes(x));
                    let u = bytes_of(upper_bytes(x));
                    for k in 0..8 {
                        assert_eq!(z[k] == 0x80, w[k] == 0, "zero {w:?} lane {k}");
                        assert!(z[k] == 0 || z[k] == 0x80);
                        assert_eq!(u[k] == 0x80, w[k].is_ascii_uppercase(), "upper {w:?}");
                        assert!(u[k] == 0 || u[k] == 0x80);
                    }
                }
            }
        }
    }
}
