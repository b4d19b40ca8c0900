//! aarch64 kernel: NEON (part of the aarch64 baseline; this module is only
//! compiled when the target enables it).
//!
//! The same loop as the x86 kernels: the first 16 bytes, then 64-byte
//! blocks (one branch per block), then whole vectors, then one overlapping
//! vector ending exactly at the end of `hay`; shorter haystacks use the
//! scalar table. Every load lies entirely inside `hay`.
//!
//! NEON has no `movemask`; `shrn #4` narrows a 0x00/0xFF byte mask to a
//! 64-bit word with four bits per byte, so the first landmark is
//! `trailing_zeros / 4`.
//!
//! Classifiers, each giving 0xFF exactly where the byte is a landmark:
//! compare-and-or for small sets, the nibble table (`tbl`) for the rest.

use core::arch::aarch64::*;

use super::{Landmarks, Method};

/// Offset of the first landmark of `set` in `hay`, or `hay.len()`.
pub(super) fn find(set: &Landmarks, hay: &[u8]) -> usize {
    match set.method {
        Method::Few => few(set, hay),
        Method::Many => nibble(set, hay),
    }
}

/// Offset of the first landmark of a [`Method::Few`] set in `chunk`, or 16
/// (compare-and-or; small enough to inline into `Landmarks::find`).
#[inline(always)]
pub(super) fn head16(set: &Landmarks, chunk: &[u8; 16]) -> usize {
    // SAFETY: NEON is enabled for this target; the loads read the 16-byte
    // arrays `chunk` and `set.splats[k]` whole.
    let bits = unsafe {
        let v = vld1q_u8(chunk.as_ptr());
        let e0 = vceqq_u8(v, vld1q_u8(set.splats[0].as_ptr()));
        let e1 = vceqq_u8(v, vld1q_u8(set.splats[1].as_ptr()));
        let e2 = vceqq_u8(v, vld1q_u8(set.splats[2].as_ptr()));
        let e3 = vceqq_u8(v, vld1q_u8(set.splats[3].as_ptr()));
        let m = vorrq_u8(vorrq_u8(e0, e1), vorrq_u8(e2, e3));
        vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
            m,
        ))))
    };
    // Four bits per byte; no bit set gives 64 / 4 = 16.
    (bits.trailing_zeros() / 4) as usize
}

/// The NEON scan loop around a classifier expression of the loaded vector
/// `$v`. Returns from the enclosing function.
macro_rules! neon_scan {
    ($set:expr, $hay:expr, |$v:ident| $classify:expr) => {{
        let hay: &[u8] = $hay;
        let len = hay.len();
        if len < 16 {
            return $set.find_scalar(hay);
        }
        let p = hay.as_ptr();
        // SAFETY: NEON is enabled for this target (the module is compiled
        // only with `target_feature = "neon"`), so its intrinsics may run.
        // Every load is a 16-byte load at `p + k` with `k + 16 <= len`, as
        // stated at each one, so it reads only bytes of `hay`.
        unsafe {
            let classify = |k: usize| {
                let $v = vld1q_u8(p.add(k));
                $classify
            };
            // Four bits per byte, set where the byte of `m` is 0xFF.
            let bits = |m: uint8x16_t| -> u64 {
                vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
                    m,
                ))))
            };
            // 16 <= len.
            let m = bits(classify(0));
            if m != 0 {
                return (m.trailing_zeros() / 4) as usize;
            }
            let mut i = 16;
            while i + 64 <= len {
                // i + 64 <= len.
                let a = classify(i);
                let b = classify(i + 16);
                let c = classify(i + 32);
                let d = classify(i + 48);
                let any = vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d));
                if vmaxvq_u8(any) != 0 {
                    for (k, v) in [a, b, c, d].into_iter().enumerate() {
                        let m = bits(v);
                        if m != 0 {
                            return i + 16 * k + (m.trailing_zeros() / 4) as usize;
                        }
                    }
                }
                i += 64;
            }
            while i + 16 <= len {
                // i + 16 <= len.
                let m = bits(classify(i));
                if m != 0 {
                    return i + (m.trailing_zeros() / 4) as usize;
                }
                i += 16;
            }
            if i < len {
                // 16 <= len. Bytes before `i` hold no landmark, so the first
                // set bit is the first landmark at or after `i`.
                let m = bits(classify(len - 16));
                if m != 0 {
                    return len - 16 + (m.trailing_zeros() / 4) as usize;
                }
            }
            len
        }
    }};
}

/// Compare-and-or against the set's four (padded) bytes.
fn few(set: &Landmarks, hay: &[u8]) -> usize {
    let [b0, b1, b2, b3, ..] = set.bytes;
    neon_scan!(set, hay, |v| {
        let e0 = vceqq_u8(v, vdupq_n_u8(b0));
        let e1 = vceqq_u8(v, vdupq_n_u8(b1));
        let e2 = vceqq_u8(v, vdupq_n_u8(b2));
        let e3 = vceqq_u8(v, vdupq_n_u8(b3));
        vorrq_u8(vorrq_u8(e0, e1), vorrq_u8(e2, e3))
    })
}

/// Nibble table: `lo[b & 15] & hi[b >> 4]` is non-zero exactly for
/// landmarks.
fn nibble(set: &Landmarks, hay: &[u8]) -> usize {
    let lo_table = set.lo_nibble;
    let hi_table = set.hi_nibble;
    neon_scan!(set, hay, |v| {
        // 16-byte loads of the two 16-byte tables.
        let lo = vld1q_u8(lo_table.as_ptr());
        let hi = vld1q_u8(hi_table.as_ptr());
        let l = vqtbl1q_u8(lo, vandq_u8(v, vdupq_n_u8(0x0F)));
        let h = vqtbl1q_u8(hi, vshrq_n_u8::<4>(v));
        vtstq_u8(l, h)
    })
}
