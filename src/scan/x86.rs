//! x86-64 kernels: SSE2 (part of the x86-64 baseline, so always there) and
//! AVX2 (chosen once, at run time).
//!
//! Both kernels look at the first vector at offset 0, then at 64-byte blocks
//! (one branch per block), then at whole vectors, and finish with one
//! overlapping vector that ends exactly at the end of `hay`. Every load is an
//! unaligned load that lies entirely inside `hay`. AVX2 looks at a haystack
//! of 16 to 31 bytes as two overlapping 16-byte halves; anything shorter
//! than 16 bytes is scanned with the scalar table.
//!
//! Which kernel runs is decided once: the first call detects AVX2
//! (`is_x86_feature_detected!`) and caches the answer in an atomic, or the
//! check compiles away when the build already enables AVX2.
//!
//! Classifiers, each giving a vector whose byte has bit 7 set exactly where
//! the input byte is a landmark:
//! - compare-and-or: one `pcmpeqb` per byte of the set (padded by repeating
//!   the first byte) OR-ed together, plus a range test for A–Z;
//! - nibble table (AVX2 only, needs `pshufb`): `lo[b & 15] & hi[b >> 4]`
//!   is non-zero exactly for landmarks (see `Landmarks::new`); a saturating
//!   add of `0x7F` moves "non-zero" to bit 7.

use core::arch::x86_64::*;
use core::sync::atomic::{AtomicU8, Ordering};

use super::{Landmarks, Method};

/// `LEVEL` before detection.
const UNKNOWN: u8 = 0;
/// SSE2 only.
const BASELINE: u8 = 1;
/// AVX2 available.
const AVX2: u8 = 2;

/// What this CPU supports, detected once.
static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

#[cold]
#[inline(never)]
fn detect() -> u8 {
    let level = if is_x86_feature_detected!("avx2") {
        AVX2
    } else {
        BASELINE
    };
    LEVEL.store(level, Ordering::Relaxed);
    level
}

/// Whether the AVX2 kernel may run on this CPU.
#[inline(always)]
pub(super) fn has_avx2() -> bool {
    if cfg!(target_feature = "avx2") {
        return true;
    }
    // The answer of every call but the first, tested first: one
    // comparison on the way to the kernel.
    let level = LEVEL.load(Ordering::Relaxed);
    if level == AVX2 {
        return true;
    }
    level == UNKNOWN && detect() == AVX2
}

/// The best kernel for this CPU.
#[inline(always)]
pub(super) fn find(set: &Landmarks, hay: &[u8]) -> usize {
    if has_avx2() {
        // SAFETY: `has_avx2` checked (once, cached) that this CPU has AVX2.
        unsafe { avx2(set, hay) }
    } else {
        sse2(set, hay)
    }
}

/// The AVX2 kernel, or `None` when this CPU lacks AVX2 (for the
/// cross-check of tests and fuzzing).
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn find_avx2(set: &Landmarks, hay: &[u8]) -> Option<usize> {
    if has_avx2() {
        // SAFETY: `has_avx2` checked that this CPU has AVX2.
        Some(unsafe { avx2(set, hay) })
    } else {
        None
    }
}

// ----- SSE2 --------------------------------------------------------------

/// Offset of the first landmark of a [`Method::Few`] set in `chunk`, or 16
/// (SSE2 compare-and-or; small enough to inline into `Landmarks::find`).
#[inline(always)]
pub(super) fn head16(set: &Landmarks, chunk: &[u8; 16]) -> usize {
    // SAFETY: SSE2 is enabled on every x86-64 CPU. The loads read the
    // 16-byte arrays `chunk` and `set.splats[k]` whole.
    let m = unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr().cast());
        let s = |k: usize| _mm_loadu_si128(set.splats[k].as_ptr().cast());
        let e0 = _mm_cmpeq_epi8(v, s(0));
        let e1 = _mm_cmpeq_epi8(v, s(1));
        let e2 = _mm_cmpeq_epi8(v, s(2));
        let e3 = _mm_cmpeq_epi8(v, s(3));
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(e0, e1), _mm_or_si128(e2, e3)))
    };
    // Bit 16 stands for "none": trailing_zeros is then 16.
    (m as u32 | 1 << 16).trailing_zeros() as usize
}

/// The SSE2 kernel: compare-and-or for every set (SSE2 has no byte shuffle).
pub(super) fn sse2(set: &Landmarks, hay: &[u8]) -> usize {
    match (set.method, set.bucket(), set.upper) {
        (Method::Few, _, _) => sse2_cmp::<4, false>(set, hay),
        (_, 8, false) => sse2_cmp::<8, false>(set, hay),
        (_, 8, true) => sse2_cmp::<8, true>(set, hay),
        (_, 12, false) => sse2_cmp::<12, false>(set, hay),
        (_, 12, true) => sse2_cmp::<12, true>(set, hay),
        (_, _, false) => sse2_cmp::<16, false>(set, hay),
        (_, _, true) => sse2_cmp::<16, true>(set, hay),
    }
}

/// 16-byte compare-and-or against the set's first `N` (padded) bytes, and
/// the range A–Z when `UPPER`.
fn sse2_cmp<const N: usize, const UPPER: bool>(set: &Landmarks, hay: &[u8]) -> usize {
    let len = hay.len();
    if len < 16 {
        return set.find_scalar(hay);
    }
    let p = hay.as_ptr();
    // SAFETY: SSE2 is enabled on every x86-64 CPU, so its intrinsics may
    // run. Every load below is a 16-byte unaligned load at `p + k` with
    // `k + 16 <= len` (stated at each one), so it reads only bytes of `hay`.
    unsafe {
        let splats: [__m128i; N] = core::array::from_fn(|k| _mm_set1_epi8(set.bytes[k] as i8));
        // Bytes A..=Z, shifted by `0x80 - b'A'`, are the signed bytes
        // -128..=-103; every other byte lands at -102 or above.
        let shift = _mm_set1_epi8((0x80 - b'A') as i8);
        let bound = _mm_set1_epi8(-128 + 26);
        let classify = |v: __m128i| {
            let mut m = _mm_cmpeq_epi8(v, splats[0]);
            for s in &splats[1..] {
                m = _mm_or_si128(m, _mm_cmpeq_epi8(v, *s));
            }
            if UPPER {
                m = _mm_or_si128(m, _mm_cmplt_epi8(_mm_add_epi8(v, shift), bound));
            }
            m
        };
        let load = |k: usize| _mm_loadu_si128(p.add(k) as *const __m128i);

        // 16 <= len.
        let m = _mm_movemask_epi8(classify(load(0)));
        if m != 0 {
            return m.trailing_zeros() as usize;
        }
        let mut i = 16;
        while i + 64 <= len {
            // i + 64 <= len.
            let a = classify(load(i));
            let b = classify(load(i + 16));
            let c = classify(load(i + 32));
            let d = classify(load(i + 48));
            let any = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
            if _mm_movemask_epi8(any) != 0 {
                let mask = (_mm_movemask_epi8(a) as u64)
                    | (_mm_movemask_epi8(b) as u64) << 16
                    | (_mm_movemask_epi8(c) as u64) << 32
                    | (_mm_movemask_epi8(d) as u64) << 48;
                return i + mask.trailing_zeros() as usize;
            }
            i += 64;
        }
        while i + 16 <= len {
            // i + 16 <= len.
            let m = _mm_movemask_epi8(classify(load(i)));
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i < len {
            // 16 <= len. Bytes before `i` hold no landmark, so the first set
            // bit of the overlapping vector is the first landmark at or
            // after `i`.
            let m = _mm_movemask_epi8(classify(load(len - 16)));
            if m != 0 {
                return len - 16 + m.trailing_zeros() as usize;
            }
        }
        len
    }
}

// ----- AVX2 --------------------------------------------------------------

/// The AVX2 kernel: compare-and-or for small sets, nibble table for the
/// rest.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2(set: &Landmarks, hay: &[u8]) -> usize {
    // The commonest sets first (text, quoted values), by the one test
    // their kernel needs.
    if set.exact_ok {
        // SAFETY: the caller guarantees AVX2.
        return unsafe { avx2_exact(set, hay) };
    }
    match set.method {
        // SAFETY: the caller guarantees AVX2.
        Method::Few if set.len == 3 => unsafe { avx2_three(set, hay) },
        // SAFETY: the caller guarantees AVX2.
        Method::Few => unsafe { avx2_few(set, hay) },
        // SAFETY: the caller guarantees AVX2.
        Method::Many => unsafe { avx2_nibble(set, hay) },
    }
}

/// The AVX2 scan loop around a classifier: `$setup` statements (constants,
/// run once), then an expression of a loaded 256-bit vector `$v`, and the
/// same for a 128-bit vector `$n` (used for haystacks of 16 to 31 bytes).
/// The classifier expressions are pasted at each use, so they are inlined
/// into the `#[target_feature]` function (a closure might not be). Must be
/// expanded inside a function with AVX2 enabled; returns from it.
macro_rules! avx2_scan {
    (
        $set:expr, $hay:expr,
        setup { $($setup:tt)* }
        wide |$v:ident| $wide:expr,
        narrow |$n:ident| $narrow:expr $(,)?
    ) => {{
        let hay: &[u8] = $hay;
        let len = hay.len();
        if len < 16 {
            return $set.find_scalar(hay);
        }
        let p = hay.as_ptr();
        // SAFETY: the enclosing function is compiled with AVX2 (which
        // implies SSSE3 and SSE2), and its caller checked that the CPU has
        // AVX2. Every load from `hay` is unaligned, at `p + k` with
        // `k + 32 <= len` (256-bit) or `k + 16 <= len` (128-bit), as stated
        // at each one, so it reads only bytes of `hay`; the `$setup` loads
        // read 16-byte arrays whole.
        unsafe {
            $($setup)*
            macro_rules! wide {
                ($k:expr) => {{
                    let $v = _mm256_loadu_si256(p.add($k) as *const __m256i);
                    $wide
                }};
            }
            if len < 32 {
                // 16 <= len < 32: the first 16 bytes, then the last 16.
                macro_rules! narrow {
                    ($k:expr) => {{
                        let $n = _mm_loadu_si128(p.add($k) as *const __m128i);
                        $narrow
                    }};
                }
                let m = _mm_movemask_epi8(narrow!(0));
                if m != 0 {
                    return m.trailing_zeros() as usize;
                }
                let m = _mm_movemask_epi8(narrow!(len - 16));
                return if m != 0 {
                    len - 16 + m.trailing_zeros() as usize
                } else {
                    len
                };
            }
            // 32 <= len.
            let m = _mm256_movemask_epi8(wide!(0)) as u32;
            if m != 0 {
                return m.trailing_zeros() as usize;
            }
            let mut i = 32;
            // Long runs (text): 128 bytes a step, one test for all four
            // vectors.
            while i + 128 <= len {
                // i + 128 <= len.
                let a = wide!(i);
                let b = wide!(i + 32);
                let c = wide!(i + 64);
                let d = wide!(i + 96);
                let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
                if _mm256_movemask_epi8(any) != 0 {
                    let low = (_mm256_movemask_epi8(a) as u32 as u64)
                        | (_mm256_movemask_epi8(b) as u32 as u64) << 32;
                    if low != 0 {
                        return i + low.trailing_zeros() as usize;
                    }
                    let high = (_mm256_movemask_epi8(c) as u32 as u64)
                        | (_mm256_movemask_epi8(d) as u32 as u64) << 32;
                    return i + 64 + high.trailing_zeros() as usize;
                }
                i += 128;
            }
            while i + 64 <= len {
                // i + 64 <= len.
                let a = wide!(i);
                let b = wide!(i + 32);
                if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                    let mask = (_mm256_movemask_epi8(a) as u32 as u64)
                        | (_mm256_movemask_epi8(b) as u32 as u64) << 32;
                    return i + mask.trailing_zeros() as usize;
                }
                i += 64;
            }
            if i + 32 <= len {
                // i + 32 <= len.
                let m = _mm256_movemask_epi8(wide!(i)) as u32;
                if m != 0 {
                    return i + m.trailing_zeros() as usize;
                }
                i += 32;
            }
            if i < len {
                // 32 <= len. Bytes before `i` hold no landmark, so the
                // first set bit of the overlapping vector is the first
                // landmark at or after `i`.
                let m = _mm256_movemask_epi8(wide!(len - 32)) as u32;
                if m != 0 {
                    return len - 32 + m.trailing_zeros() as usize;
                }
            }
            len
        }
    }};
}

/// Byte `k` of a [`Method::Few`] set in all 32 lanes, from the set's
/// stored 16-byte splat: one broadcast load, where a byte loaded and then
/// broadcast takes three instructions (the kernels' setup runs at every
/// call, and most calls return at their first vector).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn splat(set: &Landmarks, k: usize) -> __m256i {
    // SAFETY: the load reads the 16-byte array `set.splats[k]` whole
    // (unaligned); AVX2 is enabled here and checked by the caller.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(set.splats[k].as_ptr().cast())) }
}

/// A set whose bytes have distinct low nibbles (`Landmarks::exact_ok`:
/// the data state's `<`, `&`, CR, the quoted values' sets): one shuffle
/// and one compare per vector, where the compare-and-or kernels take one
/// compare per byte and an OR between each two.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_exact(set: &Landmarks, hay: &[u8]) -> usize {
    let exact = &set.exact;
    avx2_scan!(
        set, hay,
        setup {
            let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(exact.as_ptr().cast()));
        }
        wide |v| _mm256_cmpeq_epi8(_mm256_shuffle_epi8(t, v), v),
        narrow |v| _mm_cmpeq_epi8(_mm_shuffle_epi8(_mm256_castsi256_si128(t), v), v),
    )
}

/// A set of three bytes (the data state's `<`, `&`, CR): one compare less
/// per vector than `avx2_few`, on the longest runs of all, text.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_three(set: &Landmarks, hay: &[u8]) -> usize {
    avx2_scan!(
        set, hay,
        setup {
            let w0 = splat(set, 0);
            let w1 = splat(set, 1);
            let w2 = splat(set, 2);
        }
        wide |v| _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, w0), _mm256_cmpeq_epi8(v, w1)),
            _mm256_cmpeq_epi8(v, w2),
        ),
        narrow |v| _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm256_castsi256_si128(w0)),
                _mm_cmpeq_epi8(v, _mm256_castsi256_si128(w1)),
            ),
            _mm_cmpeq_epi8(v, _mm256_castsi256_si128(w2)),
        ),
    )
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_few(set: &Landmarks, hay: &[u8]) -> usize {
    avx2_scan!(
        set, hay,
        setup {
            let w0 = splat(set, 0);
            let w1 = splat(set, 1);
            let w2 = splat(set, 2);
            let w3 = splat(set, 3);
        }
        wide |v| _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, w0), _mm256_cmpeq_epi8(v, w1)),
            _mm256_or_si256(_mm256_cmpeq_epi8(v, w2), _mm256_cmpeq_epi8(v, w3)),
        ),
        narrow |v| _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm256_castsi256_si128(w0)),
                _mm_cmpeq_epi8(v, _mm256_castsi256_si128(w1)),
            ),
            _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm256_castsi256_si128(w2)),
                _mm_cmpeq_epi8(v, _mm256_castsi256_si128(w3)),
            ),
        ),
    )
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_nibble(set: &Landmarks, hay: &[u8]) -> usize {
    let lo_table = &set.lo_nibble;
    let hi_table = &set.hi_nibble;
    avx2_scan!(
        set, hay,
        setup {
            let lo = _mm256_broadcastsi128_si256(_mm_loadu_si128(lo_table.as_ptr().cast()));
            let hi = _mm256_broadcastsi128_si256(_mm_loadu_si128(hi_table.as_ptr().cast()));
            let low4 = _mm256_set1_epi8(0x0F);
            let to_bit7 = _mm256_set1_epi8(0x7F);
        }
        // `pshufb` gives 0 for an index byte with bit 7 set, so bytes 0x80..
        // need no masking for the low-nibble lookup (and their high nibble,
        // 8 to 15, maps to 0). A saturating add of 0x7F sets bit 7 exactly
        // where `l & h` is non-zero.
        wide |v| {
            let l = _mm256_shuffle_epi8(lo, v);
            let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
            _mm256_adds_epu8(_mm256_and_si256(l, h), to_bit7)
        },
        narrow |v| {
            let l = _mm_shuffle_epi8(_mm256_castsi256_si128(lo), v);
            let h = _mm_shuffle_epi8(
                _mm256_castsi256_si128(hi),
                _mm_and_si128(_mm_srli_epi16(v, 4), _mm256_castsi256_si128(low4)),
            );
            _mm_adds_epu8(_mm_and_si128(l, h), _mm256_castsi256_si128(to_bit7))
        },
    )
}

// ----- line breaks and UTF-16 units (see `lines`) -----------------------

/// `lines::breaks_after_first` by AVX2, or `None` without AVX2.
pub(super) fn breaks_after_first(bytes: &[u8]) -> Option<usize> {
    if has_avx2() {
        // SAFETY: `has_avx2` checked that this CPU has AVX2.
        Some(unsafe { avx2_breaks_after_first(bytes) })
    } else {
        None
    }
}

/// `lines::utf16_units` by AVX2, or `None` without AVX2.
pub(super) fn utf16_units(bytes: &[u8]) -> Option<usize> {
    if has_avx2() {
        // SAFETY: `has_avx2` checked that this CPU has AVX2.
        Some(unsafe { avx2_utf16_units(bytes) })
    } else {
        None
    }
}

/// `ascii::push_ascii` by AVX2, or `None` without AVX2.
pub(super) fn push_ascii(out: &mut String, data: &[u8]) -> Option<usize> {
    if has_avx2() {
        // SAFETY: `has_avx2` checked that this CPU has AVX2.
        Some(unsafe { avx2_push_ascii(out, data) })
    } else {
        None
    }
}

/// Appends the ASCII run `data` starts with to `out`: each 32-byte block is
/// stored into `out`'s spare capacity as it is loaded, and the length is
/// moved over the block's ASCII bytes only.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_push_ascii(out: &mut String, data: &[u8]) -> usize {
    let len = data.len();
    out.reserve(len);
    let src = data.as_ptr();
    // SAFETY: AVX2 is enabled and was checked by the caller. Only ASCII
    // bytes come within the string's length (`set_len` moves it over the
    // bytes before the first one with bit 7 set), so it stays UTF-8; the
    // other bytes of a stored block lie in spare capacity, which holds
    // anything. `reserve` made room for `len` bytes after the old length:
    // every store (32 bytes at `k` with `k + 32 <= len`, or one byte at
    // `k < len`) is inside it, and every load reads 32 bytes of `data` at
    // `k + 32 <= len`, or one at `k < len`.
    unsafe {
        let vec = out.as_mut_vec();
        let old = vec.len();
        let dst = vec.as_mut_ptr().add(old);
        let mut k = 0;
        while k + 64 <= len {
            let a = _mm256_loadu_si256(src.add(k) as *const __m256i);
            let b = _mm256_loadu_si256(src.add(k + 32) as *const __m256i);
            _mm256_storeu_si256(dst.add(k) as *mut __m256i, a);
            _mm256_storeu_si256(dst.add(k + 32) as *mut __m256i, b);
            if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                break;
            }
            k += 64;
        }
        while k + 32 <= len {
            let a = _mm256_loadu_si256(src.add(k) as *const __m256i);
            _mm256_storeu_si256(dst.add(k) as *mut __m256i, a);
            let high = _mm256_movemask_epi8(a) as u32;
            if high != 0 {
                k += high.trailing_zeros() as usize;
                vec.set_len(old + k);
                return k;
            }
            k += 32;
        }
        while k < len && *src.add(k) < 0x80 {
            *dst.add(k) = *src.add(k);
            k += 1;
        }
        vec.set_len(old + k);
        k
    }
}

// ----- input-stream suspects (see `suspects`) ---------------------------

/// `suspects::find` by AVX2, or `None` without AVX2.
pub(super) fn suspects(hay: &[u8]) -> Option<usize> {
    if has_avx2() {
        // SAFETY: `has_avx2` checked that this CPU has AVX2.
        Some(unsafe { avx2_suspects(hay) })
    } else {
        None
    }
}

/// The input-stream suspects (`suspects::is_suspect`) by the nibble tables
/// `suspects::NIBBLES`. Unlike the landmark sets, this set has bytes of
/// 0x80 and up, so the low nibble is masked before its lookup (`pshufb`
/// gives 0 for an index byte with bit 7 set).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_suspects(hay: &[u8]) -> usize {
    let (lo_table, hi_table) = &super::suspects::NIBBLES;
    avx2_scan!(
        super::suspects::Definition, hay,
        setup {
            let lo = _mm256_broadcastsi128_si256(_mm_loadu_si128(lo_table.as_ptr().cast()));
            let hi = _mm256_broadcastsi128_si256(_mm_loadu_si128(hi_table.as_ptr().cast()));
            let low4 = _mm256_set1_epi8(0x0F);
            let to_bit7 = _mm256_set1_epi8(0x7F);
        }
        // A saturating add of 0x7F sets bit 7 exactly where `l & h` is
        // non-zero.
        wide |v| {
            let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, low4));
            let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
            _mm256_adds_epu8(_mm256_and_si256(l, h), to_bit7)
        },
        narrow |v| {
            let low4 = _mm256_castsi256_si128(low4);
            let l = _mm_shuffle_epi8(_mm256_castsi256_si128(lo), _mm_and_si128(v, low4));
            let h = _mm_shuffle_epi8(
                _mm256_castsi256_si128(hi),
                _mm_and_si128(_mm_srli_epi16(v, 4), low4),
            );
            _mm_adds_epu8(_mm_and_si128(l, h), _mm256_castsi256_si128(to_bit7))
        },
    )
}

/// Bytes `bytes[i]`, `i >= 1`, that are a CR, or an LF after a byte that
/// is not a CR, 128 at a time: four vectors compared with LF and CR. Most
/// pages have no CR, so a block without one (and not right after one)
/// counts its LFs alone; a block with one also compares the same bytes one
/// position back, to leave out the LF of a CRLF. The matches (-1 each, at
/// most 4 a block in each byte) are summed in byte counters that are
/// emptied every 63 blocks; the tail goes 32 bytes at a time, then byte by
/// byte.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_breaks_after_first(bytes: &[u8]) -> usize {
    let len = bytes.len();
    let p = bytes.as_ptr();
    let mut n = 0usize;
    let mut k = 1;
    // The byte before block `k` is a CR: an LF at `k` ends no line.
    let mut after_cr = bytes.first() == Some(&b'\r');
    // SAFETY: AVX2 is enabled and was checked by the caller. A block's
    // loads are at `p + k + 32 * i` and `p + k - 1 + 32 * i` for `i < 4`,
    // with `k >= 1` and `k + 128 <= len`; a tail vector's at `p + k` and
    // `p + k - 1` with `k + 32 <= len`: each reads 32 bytes inside `bytes`.
    unsafe {
        let cr = _mm256_set1_epi8(b'\r' as i8);
        let lf = _mm256_set1_epi8(b'\n' as i8);
        while k + 128 <= len {
            let mut counts = _mm256_setzero_si256();
            let mut blocks = 0;
            while blocks < 63 && k + 128 <= len {
                // Macros rather than closures: a closure does not take on
                // this function's target features on every supported Rust.
                macro_rules! at {
                    ($i:expr) => {
                        _mm256_loadu_si256(p.add(k + 32 * $i) as *const __m256i)
                    };
                }
                let (c0, c1, c2, c3) = (at!(0), at!(1), at!(2), at!(3));
                let (l0, l1, l2, l3) = (
                    _mm256_cmpeq_epi8(c0, lf),
                    _mm256_cmpeq_epi8(c1, lf),
                    _mm256_cmpeq_epi8(c2, lf),
                    _mm256_cmpeq_epi8(c3, lf),
                );
                let (r0, r1, r2, r3) = (
                    _mm256_cmpeq_epi8(c0, cr),
                    _mm256_cmpeq_epi8(c1, cr),
                    _mm256_cmpeq_epi8(c2, cr),
                    _mm256_cmpeq_epi8(c3, cr),
                );
                let any_cr = _mm256_or_si256(_mm256_or_si256(r0, r1), _mm256_or_si256(r2, r3));
                let breaks = if !after_cr && _mm256_testz_si256(any_cr, any_cr) == 1 {
                    _mm256_add_epi8(_mm256_add_epi8(l0, l1), _mm256_add_epi8(l2, l3))
                } else {
                    macro_rules! before {
                        ($i:expr) => {
                            _mm256_cmpeq_epi8(
                                _mm256_loadu_si256(p.add(k - 1 + 32 * $i) as *const __m256i),
                                cr,
                            )
                        };
                    }
                    let b0 = _mm256_or_si256(r0, _mm256_andnot_si256(before!(0), l0));
                    let b1 = _mm256_or_si256(r1, _mm256_andnot_si256(before!(1), l1));
                    let b2 = _mm256_or_si256(r2, _mm256_andnot_si256(before!(2), l2));
                    let b3 = _mm256_or_si256(r3, _mm256_andnot_si256(before!(3), l3));
                    after_cr = *p.add(k + 127) == b'\r';
                    _mm256_add_epi8(_mm256_add_epi8(b0, b1), _mm256_add_epi8(b2, b3))
                };
                // Matches are -1: the counters count down, and are
                // negated when emptied (subtracting them made LLVM turn
                // each mask into 0 or 1 first, an AND a vector).
                counts = _mm256_add_epi8(counts, breaks);
                blocks += 1;
                k += 128;
            }
            n += sum_bytes(_mm256_sub_epi8(_mm256_setzero_si256(), counts));
        }
        let mut counts = _mm256_setzero_si256();
        while k + 32 <= len {
            let cur = _mm256_loadu_si256(p.add(k) as *const __m256i);
            let prev = _mm256_loadu_si256(p.add(k - 1) as *const __m256i);
            let lone_lf =
                _mm256_andnot_si256(_mm256_cmpeq_epi8(prev, cr), _mm256_cmpeq_epi8(cur, lf));
            let breaks = _mm256_or_si256(_mm256_cmpeq_epi8(cur, cr), lone_lf);
            counts = _mm256_sub_epi8(counts, breaks);
            k += 32;
        }
        n += sum_bytes(counts);
    }
    n + super::lines::breaks_after_first_from(bytes, k)
}

/// The sum of the 32 unsigned bytes of `v`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn sum_bytes(v: __m256i) -> usize {
    // SAFETY: AVX2 is enabled and was checked by the caller; no memory is
    // touched.
    unsafe {
        let sums = _mm256_sad_epu8(v, _mm256_setzero_si256());
        let mut lanes = [0u64; 4];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sums);
        lanes.iter().sum::<u64>() as usize
    }
}

/// UTF-16 code units of whole characters: one per byte that is no UTF-8
/// continuation byte, and one more per lead byte of a 4-byte character
/// (signed compares: continuation bytes are -128..=-65, 4-byte leads
/// -16..=-1, ASCII is positive). 128 bytes at a time: a block of ASCII,
/// the usual case, is its length; any other block counts its matches (-1
/// each, at most 8 a block in each byte) in byte counters emptied every 31
/// such blocks. The tail goes 32 bytes at a time, then byte by byte.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2_utf16_units(bytes: &[u8]) -> usize {
    let len = bytes.len();
    let p = bytes.as_ptr();
    let mut n = 0usize;
    let mut k = 0;
    // SAFETY: AVX2 is enabled and was checked by the caller. Each load is
    // at `p + k + 32 * i` with `k + 32 * (i + 1) <= len`, inside `bytes`.
    unsafe {
        let not_continuation = _mm256_set1_epi8(-0x41);
        let below_four_byte = _mm256_set1_epi8(-0x11);
        let zero = _mm256_setzero_si256();
        // The matches of `v`, -1 or -2 in each byte but continuation bytes.
        macro_rules! units {
            ($v:expr) => {{
                let v = $v;
                let lead = _mm256_cmpgt_epi8(v, not_continuation);
                let astral = _mm256_and_si256(
                    _mm256_cmpgt_epi8(v, below_four_byte),
                    _mm256_cmpgt_epi8(zero, v),
                );
                _mm256_add_epi8(lead, astral)
            }};
        }
        macro_rules! at {
            ($i:expr) => {
                _mm256_loadu_si256(p.add(k + 32 * $i) as *const __m256i)
            };
        }
        // Counting down (see `avx2_breaks_after_first`).
        let mut counts = zero;
        let mut blocks = 0;
        while k + 128 <= len {
            let (v0, v1, v2, v3) = (at!(0), at!(1), at!(2), at!(3));
            let any = _mm256_or_si256(_mm256_or_si256(v0, v1), _mm256_or_si256(v2, v3));
            if _mm256_movemask_epi8(any) == 0 {
                n += 128;
            } else {
                let block = _mm256_add_epi8(
                    _mm256_add_epi8(units!(v0), units!(v1)),
                    _mm256_add_epi8(units!(v2), units!(v3)),
                );
                counts = _mm256_add_epi8(counts, block);
                blocks += 1;
                if blocks == 31 {
                    n += sum_bytes(_mm256_sub_epi8(zero, counts));
                    counts = zero;
                    blocks = 0;
                }
            }
            k += 128;
        }
        // At most three vectors more, two each at most.
        while k + 32 <= len {
            counts = _mm256_add_epi8(counts, units!(at!(0)));
            k += 32;
        }
        n += sum_bytes(_mm256_sub_epi8(zero, counts));
    }
    n + super::lines::utf16_units_scalar(&bytes[k..])
}

// ----- Tag blocks ---------------------------------------------------------

/// The tag block classifier (`tag_block::classify`) over 64 bytes:
/// `(names, quotes)`, bit `i` for byte `i`.
///
/// Exact-match tables: `_mm256_shuffle_epi8(t, v)` gives `t[v & 15]` for an
/// ASCII byte and 0 for a byte with bit 7 set, and a table holds, at each
/// low nibble, the one byte of its set with that low nibble (or `0xFF`,
/// which no lookup gives back), so comparing the lookup with `v` is
/// membership. Whitespace (`\t \n \x0c \r` and space) and `\0 " ' < = > /`
/// need two tables (their low nibbles collide); `" ' & \r \0` have distinct
/// low nibbles, one table. A–Z is a signed range test.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tag_block_avx2(chunk: &[u8; 64]) -> (u64, u64) {
    const NONE: i8 = -1;
    let p = chunk.as_ptr();
    // SAFETY: AVX2 is enabled and was checked by the caller. The two loads
    // read bytes 0..32 and 32..64 of the 64-byte array `chunk`.
    unsafe {
        // Pasted, not closures: a closure might not be inlined into this
        // `#[target_feature]` function.
        macro_rules! table {
            ($($b:expr),*) => {
                _mm256_broadcastsi128_si256(_mm_setr_epi8($($b as i8),*))
            };
        }
        let n = NONE as u8;
        let ws = table!(b' ', n, n, n, n, n, n, n, n, b'\t', b'\n', n, 0x0C, b'\r', n, n);
        let punct = table!(0, n, b'"', n, n, n, n, b'\'', n, n, n, n, b'<', b'=', b'>', b'/');
        let quote = table!(0, n, b'"', n, n, n, b'&', b'\'', n, n, n, n, n, b'\r', n, n);
        // A..=Z shifted by `0x80 - b'A'` are the signed bytes -128..=-103.
        let shift = _mm256_set1_epi8((0x80 - b'A') as i8);
        let bound = _mm256_set1_epi8(-128 + 26);
        macro_rules! half {
            ($v:expr) => {{
                let v = $v;
                let ws = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(ws, v), v);
                let punct = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(punct, v), v);
                let upper = _mm256_cmpgt_epi8(bound, _mm256_add_epi8(v, shift));
                let names = _mm256_or_si256(_mm256_or_si256(ws, punct), upper);
                let quotes = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(quote, v), v);
                (
                    _mm256_movemask_epi8(names) as u32 as u64,
                    _mm256_movemask_epi8(quotes) as u32 as u64,
                )
            }};
        }
        let (n0, q0) = half!(_mm256_loadu_si256(p.cast()));
        let (n1, q1) = half!(_mm256_loadu_si256(p.add(32).cast()));
        (n0 | n1 << 32, q0 | q1 << 32)
    }
}
