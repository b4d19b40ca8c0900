//! Landmark scanning: finding the next byte that a run state must look at.
//!
//! Each run state of the tokenizer (Data, RCDATA, attribute values, comments,
//! tag names, …) has a *landmark set*: the bytes at which the state's scalar
//! rules do something other than "append this character". Everything before
//! the first landmark is one run, handled as a single slice. The sets live
//! here, in one place, so that a state's landmarks sit beside each other and
//! can be held against its rules in `tokenizer::machine`.
//!
//! Every set contains `\r` (newline normalisation) and, where the state
//! treats NUL specially, `\0`.
//!
//! Invariant relied on by the tokenizer: every landmark is an ASCII byte, so
//! a run never ends inside a UTF-8 sequence.
//!
//! # How [`Landmarks::find`] searches
//!
//! Runs are short and every call starts a new search (a landmark every
//! ~10–100 bytes in text, every ~3 bytes inside tags), so the start of a
//! search is done inline, without a call or a run-time feature check:
//!
//! - a small set ([`Method::Few`]: up to four bytes, no A–Z — text, attribute
//!   values, comments, script) tests its first 16 bytes as one vector of the
//!   target's baseline instruction set (SSE2, NEON, or two SWAR words);
//! - a large set ([`Method::Many`]: tag and attribute names, unquoted values)
//!   looks up its first [`PREFIX`] bytes in the 256-entry table.
//!
//! Only a longer run calls a vector kernel, from the next byte on:
//! - x86-64: AVX2 when the CPU has it (detected once, at run time, and
//!   cached), else SSE2 ([`x86`]);
//! - aarch64: NEON ([`neon`]);
//! - anything else: SWAR over `u64` words ([`swar`]); sets of twelve bytes
//!   or more use the table there, which is faster than SWAR for them.
//!
//! Kernels classify a vector by compare-and-or (small sets) or with a nibble
//! table (`pshufb` / `tbl`, large sets); SSE2 and SWAR, which have no byte
//! shuffle, compare against every byte of a large set instead. Each kernel
//! checks the first vector on its own, then 64-byte blocks with one branch
//! each, and ends with an overlapping vector that stops exactly at the end
//! of the haystack (so no load leaves it); shorter haystacks use the table.
//!
//! Measured on real pages (the tokenizer's own sequence of calls replayed),
//! this beats `memchr`/`memchr2`/`memchr3` for the small sets, mostly by
//! the cost of starting a search, so `memchr` is kept only as a reference
//! kernel for tests and benchmarks (`benches/scan.rs`).
//!
//! [`lines`] counts line breaks and UTF-16 units in bulk for line/column
//! positions, with AVX2 kernels of its own.
//!
//! The crate's `unsafe` code lives in this module's kernels (and in one
//! fenced helper outside it, `token::unchecked`); each block says why it
//! is sound. Every landmark kernel is tested against
//! [`Landmarks::find_scalar`], the plain definition, for every set, and the
//! counting kernels against the definitions in [`lines`].

pub(crate) mod ascii;
pub(crate) mod lines;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
pub(crate) mod suspects;
pub(crate) mod tag_block;
// The portable kernel: the search itself where no vector kernel of ours
// exists; elsewhere only a reference that the cross-check (tests, fuzzing)
// holds the vector kernels against.
#[cfg(any(
    test,
    feature = "fuzzing",
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    ))
))]
mod swar;
#[cfg(target_arch = "x86_64")]
mod x86;

/// Bytes of a [`Method::Many`] set that [`Landmarks::find`] looks up one by
/// one before it calls a vector kernel. Runs inside tags are mostly 1–5
/// bytes; on the tokenizer's calls replayed from real pages, 8 to 16 were
/// equally good, 4 or 24 and more slower.
const PREFIX: usize = 8;

/// How the vector kernels classify a set's bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Method {
    /// At most four bytes and no A–Z: compare against each byte and OR.
    Few,
    /// Larger sets: a nibble-table classifier where the machine has a byte
    /// shuffle, compare-and-or against every byte where it has not.
    Many,
}

/// A set of landmark bytes.
pub(crate) struct Landmarks {
    /// Membership of every byte: the scalar definition of the set.
    table: [bool; 256],
    /// The listed bytes, padded to 16 by repeating the first one (so a
    /// compare-and-or over any prefix of at least `len` of them is exact).
    bytes: [u8; 16],
    /// How many bytes were listed. (The compare-and-or kernels' and
    /// SWAR's: NEON has a byte shuffle and uses the nibble tables.)
    #[cfg_attr(
        all(target_arch = "aarch64", target_feature = "neon"),
        allow(dead_code)
    )]
    len: u8,
    /// Whether A–Z are landmarks too.
    #[cfg_attr(
        all(target_arch = "aarch64", target_feature = "neon"),
        allow(dead_code)
    )]
    upper: bool,
    /// Nibble tables: byte `b` (ASCII) is a landmark exactly when
    /// `lo_nibble[b & 15] & hi_nibble[b >> 4] != 0`. `hi_nibble[h]` is
    /// `1 << h` for `h < 8` and 0 for non-ASCII bytes; `lo_nibble[l]` has bit
    /// `h` set when `h << 4 | l` is a landmark. (Unused by SWAR.)
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_feature = "neon")
        )),
        allow(dead_code)
    )]
    lo_nibble: [u8; 16],
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_feature = "neon")
        )),
        allow(dead_code)
    )]
    hi_nibble: [u8; 16],
    /// `bytes[k]` repeated 16 times, for `k < 4`: the compare-and-or
    /// constants of a [`Method::Few`] set, ready to load. (Unused by SWAR.)
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_feature = "neon")
        )),
        allow(dead_code)
    )]
    splats: [[u8; 16]; 4],
    /// Whether the listed bytes have distinct low nibbles (and A–Z are
    /// not landmarks): then `exact[b & 15] == b` holds exactly for the
    /// landmarks among ASCII bytes, one byte shuffle and one compare per
    /// vector (a shuffle gives 0 for bytes from 0x80, never equal to
    /// them). The entries of other nibbles differ from every byte with
    /// that nibble.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    exact_ok: bool,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    exact: [u8; 16],
    method: Method,
    /// The number of bytes when `memchr` can search this set (1 to 3), else
    /// 0 (`Kernel::Memchr`, a reference for tests and fuzzing).
    #[cfg(any(test, feature = "fuzzing"))]
    memchr_len: u8,
}

impl Landmarks {
    const fn new(bytes: &[u8], upper_case_letters: bool) -> Landmarks {
        assert!(
            !bytes.is_empty() && bytes.len() <= 16,
            "1 to 16 landmark bytes"
        );
        let mut table = [false; 256];
        let mut padded = [bytes[0]; 16];
        let mut i = 0;
        while i < bytes.len() {
            assert!(bytes[i] < 0x80, "landmarks are ASCII");
            table[bytes[i] as usize] = true;
            padded[i] = bytes[i];
            i += 1;
        }
        if upper_case_letters {
            let mut c = b'A';
            while c <= b'Z' {
                table[c as usize] = true;
                c += 1;
            }
        }
        let mut lo_nibble = [0u8; 16];
        let mut hi_nibble = [0u8; 16];
        let mut h = 0;
        while h < 8 {
            hi_nibble[h] = 1 << h;
            h += 1;
        }
        let mut b = 0;
        while b < 0x80 {
            if table[b] {
                lo_nibble[b & 15] |= 1 << (b >> 4);
            }
            b += 1;
        }
        let mut exact = [0u8; 16];
        let mut n = 0;
        while n < 16 {
            // Low nibble `n ^ 1`: equal to no byte whose low nibble is `n`.
            exact[n] = (n as u8) ^ 1;
            n += 1;
        }
        let mut exact_ok = !upper_case_letters;
        let mut seen = [false; 16];
        let mut i = 0;
        while i < bytes.len() {
            let l = (bytes[i] & 15) as usize;
            if seen[l] {
                exact_ok = false;
            }
            seen[l] = true;
            exact[l] = bytes[i];
            i += 1;
        }
        let few = bytes.len() <= 4 && !upper_case_letters;
        #[cfg(any(test, feature = "fuzzing"))]
        let memchr_len = if bytes.len() <= 3 && !upper_case_letters {
            bytes.len() as u8
        } else {
            0
        };
        Landmarks {
            table,
            bytes: padded,
            len: bytes.len() as u8,
            upper: upper_case_letters,
            lo_nibble,
            hi_nibble,
            splats: [
                [padded[0]; 16],
                [padded[1]; 16],
                [padded[2]; 16],
                [padded[3]; 16],
            ],
            exact_ok,
            exact,
            method: if few { Method::Few } else { Method::Many },
            #[cfg(any(test, feature = "fuzzing"))]
            memchr_len,
        }
    }

    /// Whether `b` is a landmark of this set.
    #[cfg(test)]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.table[b as usize]
    }

    /// How many of `bytes` a compare-and-or kernel without a byte shuffle
    /// compares against: 4, 8, 12 or 16.
    #[cfg_attr(
        all(target_arch = "aarch64", target_feature = "neon"),
        allow(dead_code)
    )]
    fn bucket(&self) -> usize {
        match self.method {
            Method::Few => 4,
            Method::Many => (self.len as usize).div_ceil(4).max(2) * 4,
        }
    }

    /// [`find`](Self::find) by the plain definition: a table lookup per
    /// byte. What `Config::simd(false)` uses, and what every kernel is
    /// tested against.
    #[inline]
    pub(crate) fn find_scalar(&self, hay: &[u8]) -> usize {
        hay.iter()
            .position(|&b| self.table[b as usize])
            .unwrap_or(hay.len())
    }

    /// Offset of the first landmark in `hay`, or `hay.len()` when there is none.
    ///
    /// Runs are short (a landmark every ~10–100 bytes in text, every ~3
    /// inside tags), so the start of the search is done inline, without a
    /// call: for a small set one 16-byte vector of the target's baseline
    /// instruction set, for a large set [`PREFIX`] table lookups. Only a
    /// longer run calls the vector kernel.
    #[inline(always)]
    pub(crate) fn find(&self, hay: &[u8]) -> usize {
        match self.method {
            Method::Few => {
                let Some(head) = hay.first_chunk::<16>() else {
                    return self.find_short(hay);
                };
                let n = self.head16(head);
                if n < 16 {
                    return n;
                }
                16 + self.find_vector(&hay[16..])
            }
            Method::Many => {
                let Some(head) = hay.first_chunk::<PREFIX>() else {
                    return self.find_short(hay);
                };
                let n = self.find_scalar(head);
                if n < PREFIX {
                    return n;
                }
                PREFIX + self.find_vector(&hay[PREFIX..])
            }
        }
    }

    /// [`find_scalar`](Self::find_scalar) out of line, for the few
    /// haystacks too short for the inline start of [`find`](Self::find)
    /// (the end of a document or of a chunk), so that `find` stays small.
    #[cold]
    #[inline(never)]
    fn find_short(&self, hay: &[u8]) -> usize {
        self.find_scalar(hay)
    }

    /// Offset of the first landmark of a [`Method::Few`] set in `chunk`, or
    /// 16: one vector, inline (the instruction set every CPU of the target
    /// has).
    #[inline(always)]
    fn head16(&self, chunk: &[u8; 16]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            x86::head16(self, chunk)
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        {
            neon::head16(self, chunk)
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_feature = "neon")
        )))]
        {
            swar::head16(self, chunk)
        }
    }

    /// The best vector kernel of this machine, from the first byte on.
    /// Kept out of line, so that [`find`](Self::find), inlined where it is
    /// called, stays small.
    #[inline(never)]
    fn find_vector(&self, hay: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            x86::find(self, hay)
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        {
            neon::find(self, hay)
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_feature = "neon")
        )))]
        {
            // SWAR compares a word against every byte of the set; from 12
            // bytes on that is slower than the table (measured on x86-64).
            if self.bucket() <= 8 {
                swar::find(self, hay)
            } else {
                self.find_scalar(hay)
            }
        }
    }

    /// [`find`](Self::find) with one particular kernel, from the first byte
    /// on (without the inline start of [`find`](Self::find), except for
    /// [`Kernel::Find`]); `None` when the kernel is not available on this
    /// machine or does not apply to this set (`memchr` to sets of more than
    /// three bytes).
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn find_with(&self, kernel: Kernel, hay: &[u8]) -> Option<usize> {
        match kernel {
            Kernel::Find => Some(self.find(hay)),
            Kernel::Scalar => Some(self.find_scalar(hay)),
            Kernel::Memchr => {
                let found = match self.memchr_len {
                    1 => memchr::memchr(self.bytes[0], hay),
                    2 => memchr::memchr2(self.bytes[0], self.bytes[1], hay),
                    3 => memchr::memchr3(self.bytes[0], self.bytes[1], self.bytes[2], hay),
                    _ => return None,
                };
                Some(found.unwrap_or(hay.len()))
            }
            Kernel::Swar => Some(swar::find(self, hay)),
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => Some(x86::sse2(self, hay)),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86::find_avx2(self, hay),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Kernel::Neon => Some(neon::find(self, hay)),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
}

/// The ways to search a set, for tests, fuzzing and the `scan` bench
/// (public only through `__fuzz::scan`).
#[cfg(any(test, feature = "fuzzing"))]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kernel {
    /// `Landmarks::find`: what the tokenizer uses.
    Find,
    /// `Landmarks::find_scalar`: the definition.
    Scalar,
    /// `memchr` / `memchr2` / `memchr3` (sets of up to three bytes).
    Memchr,
    /// Portable SWAR over `u64` words.
    Swar,
    /// x86-64 SSE2.
    Sse2,
    /// x86-64 AVX2 (when the CPU has it).
    Avx2,
    /// aarch64 NEON.
    Neon,
}

#[cfg(any(test, feature = "fuzzing"))]
impl Kernel {
    /// Every kernel, available here or not.
    pub const ALL: [Kernel; 7] = [
        Kernel::Find,
        Kernel::Scalar,
        Kernel::Memchr,
        Kernel::Swar,
        Kernel::Sse2,
        Kernel::Avx2,
        Kernel::Neon,
    ];

    /// Whether the kernel can run on this machine.
    pub fn available(self) -> bool {
        match self {
            Kernel::Find | Kernel::Scalar | Kernel::Memchr | Kernel::Swar => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86::has_avx2(),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Kernel::Neon => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

// The sets are constants, not statics: code generic over a caller's type
// (a callback of `for_each_token`, `Records::record_with`) is compiled in
// the caller's crate, where a static of this crate is read from memory at
// every scan (without LTO), its bytes unknown; a constant is a copy the
// compiler knows, and the scans fold it into their compares, as in the
// code this crate compiles itself.

/// Data state with parse errors off: NUL is emitted as it is, so only
/// `<`, `&` and CR stop the run.
pub(crate) const DATA: Landmarks = Landmarks::new(b"<&\r", false);
/// Data state with parse errors on: NUL is also a landmark (it raises
/// `unexpected-null-character`).
pub(crate) const DATA_WITH_NUL: Landmarks = Landmarks::new(b"<&\r\0", false);
/// RCDATA state (NUL becomes U+FFFD).
pub(crate) const RCDATA: Landmarks = Landmarks::new(b"<&\r\0", false);
/// RAWTEXT and Script data states.
pub(crate) const RAWTEXT: Landmarks = Landmarks::new(b"<\r\0", false);
/// PLAINTEXT state.
pub(crate) const PLAINTEXT: Landmarks = Landmarks::new(b"\r\0", false);
/// Script data escaped and double escaped states.
pub(crate) const SCRIPT_ESCAPED: Landmarks = Landmarks::new(b"-<\r\0", false);
/// Tag name state: whitespace, `/`, `>`, NUL, CR, and A–Z (lower-cased).
pub(crate) const TAG_NAME: Landmarks = Landmarks::new(b"\t\n\x0c />\r\0", true);
/// The rest of a tag name that had an upper-case letter (the tag fast path
/// lower-cases it whole).
pub(crate) const TAG_NAME_ANY_CASE: Landmarks = Landmarks::new(b"\t\n\x0c />\r\0", false);
/// The rest of an attribute name that had an upper-case letter.
pub(crate) const ATTR_NAME_ANY_CASE: Landmarks = Landmarks::new(b"\t\n\x0c />=\"'<\r\0", false);
/// Attribute name state: as tag names, plus `=` and the characters that are
/// errors in a name (`"`, `'`, `<`).
pub(crate) const ATTR_NAME: Landmarks = Landmarks::new(b"\t\n\x0c />=\"'<\r\0", true);
/// Attribute value (double-quoted) state.
pub(crate) const ATTR_VALUE_DOUBLE: Landmarks = Landmarks::new(b"\"&\r\0", false);
/// Attribute value (single-quoted) state.
pub(crate) const ATTR_VALUE_SINGLE: Landmarks = Landmarks::new(b"'&\r\0", false);
/// Attribute value (unquoted) state.
pub(crate) const ATTR_VALUE_UNQUOTED: Landmarks = Landmarks::new(b"\t\n\x0c &>\"'<=`\r\0", false);
/// Comment state.
pub(crate) const COMMENT: Landmarks = Landmarks::new(b"-<\r\0", false);
/// A comment's data when `<` matters to no state (parse errors off: a
/// nested `<!--` only raises an error).
pub(crate) const COMMENT_DATA: Landmarks = Landmarks::new(b"-\r\0", false);
/// Bogus comment state.
pub(crate) const BOGUS_COMMENT: Landmarks = Landmarks::new(b">\r\0", false);
/// DOCTYPE name state.
pub(crate) const DOCTYPE_NAME: Landmarks = Landmarks::new(b"\t\n\x0c >\r\0", true);
/// DOCTYPE public/system identifier (double-quoted) states.
pub(crate) const DOCTYPE_ID_DOUBLE: Landmarks = Landmarks::new(b"\">\r\0", false);
/// DOCTYPE public/system identifier (single-quoted) states.
pub(crate) const DOCTYPE_ID_SINGLE: Landmarks = Landmarks::new(b"'>\r\0", false);
/// Bogus DOCTYPE state.
pub(crate) const BOGUS_DOCTYPE: Landmarks = Landmarks::new(b">\r\0", false);
/// CDATA section state.
pub(crate) const CDATA: Landmarks = Landmarks::new(b"]\r", false);
/// Processing instruction data state.
pub(crate) const PI_DATA: Landmarks = Landmarks::new(b"?>\r", false);

/// Every landmark set, named, for tests and the fuzz targets.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn all_sets() -> [(&'static str, &'static Landmarks); 22] {
    [
        ("DATA", &DATA),
        ("DATA_WITH_NUL", &DATA_WITH_NUL),
        ("RCDATA", &RCDATA),
        ("RAWTEXT", &RAWTEXT),
        ("COMMENT_DATA", &COMMENT_DATA),
        ("PLAINTEXT", &PLAINTEXT),
        ("SCRIPT_ESCAPED", &SCRIPT_ESCAPED),
        ("TAG_NAME", &TAG_NAME),
        ("ATTR_NAME", &ATTR_NAME),
        ("TAG_NAME_ANY_CASE", &TAG_NAME_ANY_CASE),
        ("ATTR_NAME_ANY_CASE", &ATTR_NAME_ANY_CASE),
        ("ATTR_VALUE_DOUBLE", &ATTR_VALUE_DOUBLE),
        ("ATTR_VALUE_SINGLE", &ATTR_VALUE_SINGLE),
        ("ATTR_VALUE_UNQUOTED", &ATTR_VALUE_UNQUOTED),
        ("COMMENT", &COMMENT),
        ("BOGUS_COMMENT", &BOGUS_COMMENT),
        ("DOCTYPE_NAME", &DOCTYPE_NAME),
        ("DOCTYPE_ID_DOUBLE", &DOCTYPE_ID_DOUBLE),
        ("DOCTYPE_ID_SINGLE", &DOCTYPE_ID_SINGLE),
        ("BOGUS_DOCTYPE", &BOGUS_DOCTYPE),
        ("CDATA", &CDATA),
        ("PI_DATA", &PI_DATA),
    ]
}

/// The inline 16-byte tests of this machine that [`Landmarks::find`] starts
/// a small set's search with, by name; each gives the offset of the first
/// landmark in `chunk`, or 16.
#[cfg(any(test, feature = "fuzzing"))]
fn heads(set: &Landmarks, chunk: &[u8; 16]) -> Vec<(&'static str, usize)> {
    #[allow(unused_mut)] // on targets with SWAR only
    let mut heads = vec![("swar head16", swar::head16(set, chunk))];
    #[cfg(target_arch = "x86_64")]
    heads.push(("sse2 head16", x86::head16(set, chunk)));
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    heads.push(("neon head16", neon::head16(set, chunk)));
    heads
}

/// Checks every kernel available on this machine (SWAR, SSE2, AVX2, NEON,
/// `memchr` where it applies, the inline 16-byte starts of `find`, and
/// `find` itself) against the scalar definition, for every set, at every
/// start offset of `hay`; and the tag block classifier against its
/// definition at every 64-byte window of `hay`.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn kernels_agree(hay: &[u8]) -> Result<(), String> {
    agree_with(hay, |set, kernel, h| set.find_with(kernel, h), heads)?;
    suspects::suspects_agree(hay)?;
    tag_block::tag_block_agrees(hay)
}

/// [`kernels_agree`] over the kernels `find_with` and the 16-byte starts
/// `heads` give: its tests hand it a wrong kernel to see the disagreement
/// reported.
#[cfg(any(test, feature = "fuzzing"))]
fn agree_with(
    hay: &[u8],
    find_with: impl Fn(&Landmarks, Kernel, &[u8]) -> Option<usize>,
    heads: impl Fn(&Landmarks, &[u8; 16]) -> Vec<(&'static str, usize)>,
) -> Result<(), String> {
    for (name, set) in all_sets() {
        for start in 0..=hay.len() {
            let h = &hay[start..];
            let want = h
                .iter()
                .position(|&b| set.table[b as usize])
                .unwrap_or(h.len());
            for kernel in Kernel::ALL.into_iter().filter(|k| k.available()) {
                if let Some(got) = find_with(set, kernel, h) {
                    if got != want {
                        return Err(format!(
                            "{name}: from offset {start} of {}, {kernel:?} gave {got}, scalar {want}",
                            hay.len()
                        ));
                    }
                }
            }
            if let (Method::Few, Some(chunk)) = (set.method, h.first_chunk::<16>()) {
                for (head, got) in heads(set, chunk) {
                    if got != want.min(16) {
                        return Err(format!(
                            "{name}: from offset {start} of {}, {head} gave {got}, scalar {want}",
                            hay.len()
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The kernels that can run here, with the set-specific ones (`memchr`)
    /// included only where they apply.
    fn kernels(set: &Landmarks) -> Vec<Kernel> {
        Kernel::ALL
            .into_iter()
            .filter(|&k| k.available() && set.find_with(k, b"").is_some())
            .collect()
    }

    /// Bytes that are not landmarks of `set`, favouring near misses: the
    /// neighbours of landmarks, the same bytes with bit 7 set, and the
    /// neighbours of A–Z.
    fn filler(set: &Landmarks) -> Vec<u8> {
        let mut near = Vec::new();
        for b in 0..=255u8 {
            if set.contains(b) {
                near.extend([
                    b.wrapping_sub(1),
                    b.wrapping_add(1),
                    b | 0x80,
                    b ^ 0x10,
                    b ^ 0x20,
                ]);
            }
        }
        near.extend([b'@', b'[', b'a', b'z', 0x7F, 0xFF, 0xC3, 0xA9, b' ' | 0x80]);
        near.extend(0..=255u8);
        near.retain(|&b| !set.contains(b));
        near
    }

    fn members(set: &Landmarks) -> Vec<u8> {
        (0..=255u8).filter(|&b| set.contains(b)).collect()
    }

    fn check(set: &Landmarks, name: &str, hay: &[u8], want: usize, what: &str) {
        assert_eq!(set.find_scalar(hay), want, "{name}: scalar, {what}");
        for k in kernels(set) {
            assert_eq!(set.find_with(k, hay), Some(want), "{name}: {k:?}, {what}");
        }
        if let (Method::Few, Some(chunk)) = (set.method, hay.first_chunk::<16>()) {
            for (head, got) in heads(set, chunk) {
                assert_eq!(got, want.min(16), "{name}: {head}, {what}");
            }
        }
    }

    #[test]
    fn the_exact_shuffle_covers_the_sets_with_distinct_nibbles() {
        // The sets the AVX2 kernel scans by one shuffle (tested against the
        // definition with the others above): text and quoted values.
        for set in [&DATA, &DATA_WITH_NUL, &RCDATA, &RAWTEXT, &ATTR_VALUE_DOUBLE] {
            assert!(set.exact_ok);
        }
        // `-` and CR share their low nibble; A–Z are a range.
        for set in [&COMMENT, &COMMENT_DATA, &TAG_NAME] {
            assert!(!set.exact_ok);
        }
        for b in 0..=255u8 {
            if b < 0x80 {
                assert_eq!(
                    DATA.exact[usize::from(b & 15)] == b,
                    DATA.table[usize::from(b)]
                );
            }
        }
    }

    #[test]
    fn the_kernels_under_test_include_the_vector_ones() {
        let avail: Vec<Kernel> = Kernel::ALL.into_iter().filter(|k| k.available()).collect();
        assert!(avail.contains(&Kernel::Swar));
        #[cfg(target_arch = "x86_64")]
        {
            assert!(avail.contains(&Kernel::Sse2));
            if std::is_x86_feature_detected!("avx2") {
                assert!(avail.contains(&Kernel::Avx2));
            }
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        assert!(avail.contains(&Kernel::Neon));
    }

    #[test]
    fn nibble_tables_and_buckets_describe_the_set() {
        for (name, set) in all_sets() {
            for b in 0..=255u8 {
                let nib = set.lo_nibble[(b & 15) as usize] & set.hi_nibble[(b >> 4) as usize];
                assert_eq!(nib != 0, set.contains(b), "{name}: byte {b:#04x}");
            }
            assert!(
                set.bucket() >= set.len as usize && set.bucket() <= 16,
                "{name}"
            );
            let listed = (0..set.bucket())
                .filter(|&k| set.contains(set.bytes[k]))
                .count();
            assert_eq!(listed, set.bucket(), "{name}: padding is made of landmarks");
        }
    }

    /// Every byte value, alone in a haystack, at positions that reach each
    /// part of the kernels (prefix, first vector, 64-byte blocks, tail).
    #[test]
    fn every_byte_value_is_classified_like_the_table() {
        for (name, set) in all_sets() {
            let fill = filler(set)[0];
            for pos in [0, 3, 9, 17, 31, 40, 75, 130, 199] {
                for b in 0..=255u8 {
                    let mut hay = vec![fill; 200];
                    hay[pos] = b;
                    let want = if set.contains(b) { pos } else { hay.len() };
                    check(set, name, &hay, want, &format!("byte {b:#04x} at {pos}"));
                }
            }
        }
    }

    /// One landmark (or none) at every position of haystacks of every length
    /// 0..200, at every start offset 0..64 (64-byte alignment of the
    /// haystack). Kernels use unaligned loads and never align, so the start
    /// offset cannot change their control flow; a debug build (where this is
    /// slow) therefore sweeps every position at one offset only and tries
    /// one position, moving from case to case, at the rest. `cargo test --release`
    /// runs the whole product.
    #[test]
    fn one_landmark_at_every_position_length_and_offset() {
        for (name, set) in all_sets() {
            let fill = filler(set);
            let marks = members(set);
            let base: Vec<u8> = (0..264).map(|i| fill[(i * 7) % fill.len()]).collect();
            let mut buf = base.clone();
            let mut n = 0usize;
            for start in 0..64 {
                let full_sweep = !cfg!(debug_assertions) || start == 13;
                for len in 0..200 {
                    let hay = &base[start..start + len];
                    check(
                        set,
                        name,
                        hay,
                        len,
                        &format!("none, start {start}, len {len}"),
                    );
                    for pos in 0..len {
                        n += 1;
                        if !full_sweep && pos != (n + start) % len {
                            continue;
                        }
                        buf[start + pos] = marks[n % marks.len()];
                        // A second landmark after the first must not matter.
                        let second = start + pos + 1 + n % 7;
                        if second < start + len {
                            buf[second] = marks[(n + 1) % marks.len()];
                        }
                        let hay = &buf[start..start + len];
                        check(
                            set,
                            name,
                            hay,
                            pos,
                            &format!("start {start}, len {len}, at {pos}"),
                        );
                        buf.copy_from_slice(&base);
                    }
                }
            }
        }
    }

    #[test]
    fn find_equals_the_scalar_definition_at_every_position() {
        let hay: Vec<u8> = (0..=255u8)
            .chain((0..=255u8).rev())
            .chain(b"abc<&\r".iter().copied())
            .collect();
        kernels_agree(&hay).unwrap();
        kernels_agree(&hay[..100]).unwrap();
    }

    #[test]
    fn every_set_stops_at_carriage_return_and_only_at_ascii() {
        for (_, set) in all_sets() {
            assert!(set.contains(b'\r'));
            assert!((0x80..=0xFF).all(|b| !set.contains(b)));
        }
    }

    #[test]
    fn kernels_agree_reports_disagreement() {
        let hay = b"<a href=\"x\">T&amp;</A>\r\n\0 and some text after it";
        assert!(kernels_agree(b"").is_ok());
        assert!(kernels_agree(hay).is_ok());
        // A kernel that overshoots the first landmark by one byte.
        let overshoots = |set: &Landmarks, kernel, h: &[u8]| {
            set.find_with(kernel, h).map(|at| (at + 1).min(h.len()))
        };
        let err = agree_with(hay, overshoots, heads).unwrap_err();
        assert!(err.contains("gave"), "{err}");
        // A 16-byte start that never finds anything.
        let blind = |_: &Landmarks, _: &[u8; 16]| vec![("blind head16", 16)];
        let err = agree_with(hay, |set, kernel, h| set.find_with(kernel, h), blind).unwrap_err();
        assert!(err.contains("blind head16 gave 16"), "{err}");
    }

    /// Bytes that are landmarks of some set, or near misses, or anything.
    fn html_byte() -> impl Strategy<Value = u8> {
        prop_oneof![
            4 => prop::sample::select(
                b"<>&\"'=/-?!]` \t\n\x0c\r\0AZaz@[".to_vec()
            ),
            1 => any::<u8>(),
            3 => prop::sample::select(b"abcdefghij0123".to_vec()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn random_bytes_agree_with_the_scalar_definition(
            hay in prop::collection::vec(html_byte(), 0..300)
        ) {
            prop_assert_eq!(kernels_agree(&hay), Ok(()));
        }

        #[test]
        fn sparse_landmarks_agree_with_the_scalar_definition(
            len in 0usize..600,
            marks in prop::collection::vec((0usize..600, html_byte()), 0..4),
            start in 0usize..64,
        ) {
            let mut hay = vec![b'x'; len + 64];
            for (at, b) in marks {
                if at < hay.len() {
                    hay[at] = b;
                }
            }
            let hay = &hay[start.min(hay.len())..];
            for (name, set) in all_sets() {
                let want = set.find_scalar(hay);
                for k in kernels(set) {
                    prop_assert_eq!(set.find_with(k, hay), Some(want), "{} {:?}", name, k);
                }
            }
        }
    }
}
