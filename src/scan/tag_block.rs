//! A structural index of a tag's interior: 64 bytes classified at once into
//! two bitmasks, so that the tag fast path finds the end of an attribute
//! name or of a quoted value by looking at the next set bit instead of
//! starting a new scan at every landmark.
//!
//! Bit `i` of a mask stands for byte `i` of the 64-byte block:
//! - `names`: the bytes that end an attribute name, exactly the
//!   [`ATTR_NAME`](super::ATTR_NAME) set (whitespace with CR, `/`, `>`,
//!   `=`, `"`, `'`, `<`, NUL, A–Z);
//! - `quotes`: `"`, `'`, `&`, CR and NUL, the union of the two quoted
//!   values' sets: a value ends at the next bit whose byte is its own
//!   quote (the other quote is a stop that the caller steps over).
//!
//! [`classify_scalar`] is the definition; [`classify`] uses the AVX2 kernel
//! (`x86::tag_block_avx2`) where the CPU has it, else the definition.
//! The tag path holds a [`Classifier`] only where the kernel is there:
//! without it, it keeps its per-state scans, which cost less than the
//! scalar classification of 64 bytes.

use super::ATTR_NAME;

/// The classification of the 64 bytes from window offset `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TagBlock {
    /// Window offset of the block's first byte.
    pub(crate) base: usize,
    /// Bytes that end an attribute name.
    pub(crate) names: u64,
    /// `"`, `'`, `&`, CR, NUL.
    pub(crate) quotes: u64,
}

impl TagBlock {
    /// No block: every offset lies outside it (`offset - base`, wrapping,
    /// is at least 64 for every offset a window can have).
    pub(crate) const NONE: TagBlock = TagBlock {
        base: usize::MAX - 64,
        names: 0,
        quotes: 0,
    };
}

/// The vector kernel of [`classify`], as a value that exists only where the
/// CPU has it ([`Classifier::detect`]), so that a caller that holds one
/// calls the kernel with no check of its own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Classifier(());

impl Classifier {
    /// The kernel, if this CPU has it (see [`indexed`]).
    pub(crate) fn detect() -> Option<Classifier> {
        indexed().then_some(Classifier(()))
    }

    /// The block of the 64 bytes `chunk`, which start at window offset
    /// `base`: [`classify`] without its check.
    #[inline(always)]
    pub(crate) fn block(self, base: usize, chunk: &[u8; 64]) -> TagBlock {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Classifier` is made only by `detect`, where
        // `has_avx2` said that this CPU has AVX2.
        let (names, quotes) = unsafe { super::x86::tag_block_avx2(chunk) };
        #[cfg(not(target_arch = "x86_64"))]
        let (names, quotes) = classify_scalar(chunk);
        TagBlock {
            base,
            names,
            quotes,
        }
    }
}

/// Whether `b` ends an attribute name (bit of `names`).
#[cfg_attr(
    all(target_arch = "x86_64", not(any(test, feature = "fuzzing"))),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn is_name_stop(b: u8) -> bool {
    ATTR_NAME.table[b as usize]
}

/// Whether `b` is a stop of a quoted value (bit of `quotes`).
#[cfg_attr(
    all(target_arch = "x86_64", not(any(test, feature = "fuzzing"))),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn is_quote_stop(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'&' | b'\r' | 0)
}

/// The definition: `(names, quotes)` of `chunk`, a byte at a time.
#[cfg_attr(
    all(target_arch = "x86_64", not(any(test, feature = "fuzzing"))),
    allow(dead_code)
)]
pub(crate) fn classify_scalar(chunk: &[u8; 64]) -> (u64, u64) {
    let mut names = 0u64;
    let mut quotes = 0u64;
    for (i, &b) in chunk.iter().enumerate() {
        names |= u64::from(is_name_stop(b)) << i;
        quotes |= u64::from(is_quote_stop(b)) << i;
    }
    (names, quotes)
}

/// Whether [`classify`] has a vector kernel on this CPU (AVX2).
#[inline(always)]
pub(crate) fn indexed() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        super::x86::has_avx2()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `(names, quotes)` of `chunk`: the AVX2 kernel where the CPU has it, else
/// the definition.
#[cfg(any(test, feature = "fuzzing"))]
#[inline(always)]
pub(crate) fn classify(chunk: &[u8; 64]) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    if super::x86::has_avx2() {
        // SAFETY: `has_avx2` checked (once, cached) that this CPU has AVX2.
        return unsafe { super::x86::tag_block_avx2(chunk) };
    }
    classify_scalar(chunk)
}

/// Checks [`classify`] against [`classify_scalar`] for every 64-byte window
/// of `hay` (for the fuzz targets and tests).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn tag_block_agrees(hay: &[u8]) -> Result<(), String> {
    for start in 0..hay.len().saturating_sub(63) {
        let chunk: &[u8; 64] = hay[start..start + 64].try_into().expect("64 bytes");
        let (want, got) = (classify_scalar(chunk), classify(chunk));
        if want != got {
            return Err(format!(
                "tag block at {start}: kernel {got:x?}, definition {want:x?}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_masks_are_the_name_set_and_the_quoted_value_sets() {
        for b in 0..=255u8 {
            assert_eq!(is_name_stop(b), ATTR_NAME.contains(b), "{b:#04x}");
            let quoted = super::super::ATTR_VALUE_DOUBLE.contains(b)
                || super::super::ATTR_VALUE_SINGLE.contains(b);
            assert_eq!(is_quote_stop(b), quoted, "{b:#04x}");
        }
    }

    /// Every byte value at every position of a block, among fillers that
    /// are near misses (neighbours of the landmarks, the same with bit 7).
    #[test]
    fn every_byte_value_at_every_position_is_classified_like_the_definition() {
        let fill = [b'a', b'@', b'[', 0x80, 0xFF, b'!', b'.', 0x1F, 0x21, b'?'];
        for f in fill {
            for pos in 0..64 {
                for b in 0..=255u8 {
                    let mut chunk = [f; 64];
                    chunk[pos] = b;
                    let (names, quotes) = classify(&chunk);
                    assert_eq!(
                        (names, quotes),
                        classify_scalar(&chunk),
                        "{b:#04x} at {pos}"
                    );
                    assert_eq!(names >> pos & 1 == 1, is_name_stop(b), "{b:#04x} at {pos}");
                    assert_eq!(
                        quotes >> pos & 1 == 1,
                        is_quote_stop(b),
                        "{b:#04x} at {pos}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_tag_is_classified() {
        let mut chunk = [b' '; 64];
        let tag = b"a href=\"x&y\" Class='z\"' data-n=1\r\0>";
        chunk[..tag.len()].copy_from_slice(tag);
        let (names, quotes) = classify(&chunk);
        let at = |m: u64| (0..64).filter(|i| m >> i & 1 == 1).collect::<Vec<_>>();
        let spaces: Vec<usize> = (tag.len()..64).collect();
        // Offsets: `a`0 ` `1 `href`2-5 `=`6 `"`7 `x`8 `&`9 `y`10 `"`11
        // ` `12 `Class`13-17 `=`18 `'`19 `z`20 `"`21 `'`22 ` `23
        // `data-n`24-29 `=`30 `1`31 CR 32 NUL 33 `>`34, then spaces.
        let mut want_names = vec![1, 6, 7, 11, 12, 13, 18, 19, 21, 22, 23, 30, 32, 33, 34];
        want_names.extend(&spaces);
        assert_eq!(at(names), want_names);
        assert_eq!(at(quotes), vec![7, 9, 11, 19, 21, 22, 32, 33]);
    }

    #[test]
    fn the_kernel_is_used_where_the_cpu_has_it() {
        #[cfg(target_arch = "x86_64")]
        assert_eq!(indexed(), std::is_x86_feature_detected!("avx2"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn random_blocks_agree_with_the_definition(
            hay in prop::collection::vec(
                prop_oneof![
                    4 => prop::sample::select(
                        b"<>&\"'=/-?!]` \t\n\x0c\r\0AZaz@[".to_vec()
                    ),
                    1 => any::<u8>(),
                ],
                64..200,
            )
        ) {
            prop_assert_eq!(tag_block_agrees(&hay), Ok(()));
        }
    }
}
