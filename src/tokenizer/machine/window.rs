//! The window of the input the machine reads: [`Window`], and the machine's
//! reads of it (the current character, look-ahead, scans).

use super::*;

/// A window of the input. Machine positions are offsets in `text` (a
/// stream rebases them when it drops the bytes before its window, see
/// [`Machine::rebase`]); `origin` is the absolute offset of `text`'s first
/// byte, added only to what leaves the machine (token and error spans).
///
/// Functions kept out of line take it by value (and borrow their copy): a
/// reference to the caller's window tied the inlined machine to one copy
/// of it in memory, and a copy made where such a call is made measured
/// fewer instructions in all (docs/BENCHMARKS.md).
#[derive(Clone, Copy)]
pub(crate) struct Window<'b> {
    /// The window as text: borrowed fields are resolved by slicing it, which
    /// costs a boundary check instead of a second UTF-8 validation.
    pub(crate) text: &'b str,
    pub(crate) origin: usize,
    pub(crate) eof: bool,
}

impl<'b> Window<'b> {
    /// The window's bytes (no field of their own: the window is built on
    /// every call, and a copy of `text` is two more stores each time).
    #[inline(always)]
    pub(super) fn buf(&self) -> &'b [u8] {
        self.text.as_bytes()
    }

    #[inline(always)]
    pub(super) fn end(&self) -> usize {
        self.text.len()
    }

    #[inline(always)]
    pub(super) fn at(&self, p: usize) -> u8 {
        self.buf()[p]
    }

    #[inline(always)]
    pub(super) fn from(&self, p: usize) -> &'b [u8] {
        &self.buf()[p..]
    }

    #[inline(always)]
    pub(super) fn slice(&self, s: usize, e: usize) -> &'b [u8] {
        &self.buf()[s..e]
    }

    /// The text of `s..e`, which are character boundaries (see the module
    /// invariants; a broken one fails a `debug_assert!`, and shows as
    /// U+FFFD in a release build, never a panic).
    #[inline(always)]
    pub(super) fn str(&self, s: usize, e: usize) -> &'b str {
        slice_or_replacement(self.text, s, e)
    }

    /// `span` as an absolute span of the input, for handing out.
    #[inline(always)]
    pub(super) fn absolute(&self, span: Span) -> Span {
        span.moved(self.origin)
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// Reads the current character: `(first byte, length)`, with CR and
    /// CRLF as `\n`, and [`EOF`] (length 0) at the end. `None` when the
    /// window ends before the character is known (only when `eof` is
    /// false). A multi-byte character is read whole (a window holds whole
    /// characters only), so the arms that append "the current input
    /// character" append all of it: owned fields are `String`s.
    #[inline]
    pub(super) fn read(&self, inp: &Window) -> Option<(u8, usize)> {
        let p = self.pos;
        let end = inp.end();
        if p >= end {
            return if inp.eof { Some((EOF, 0)) } else { None };
        }
        let b = inp.at(p);
        if b >= 0x80 {
            let n = match b {
                0xF0.. => 4,
                0xE0.. => 3,
                _ => 2,
            };
            return Some((b, n.min(end - p)));
        }
        if b != b'\r' {
            return Some((b, 1));
        }
        if p + 1 < end {
            Some((b'\n', if inp.at(p + 1) == b'\n' { 2 } else { 1 }))
        } else if inp.eof {
            Some((b'\n', 1))
        } else {
            None
        }
    }

    /// Whether the input at `p` starts with `pat` (ASCII case-insensitively
    /// when `fold`). `None` when the window is too short to tell.
    pub(super) fn lookahead(&self, inp: &Window, p: usize, pat: &[u8], fold: bool) -> Option<bool> {
        let have = inp.from(p);
        let n = have.len().min(pat.len());
        let same = if fold {
            have[..n].eq_ignore_ascii_case(&pat[..n])
        } else {
            have[..n] == pat[..n]
        };
        if !same {
            return Some(false);
        }
        if n == pat.len() {
            return Some(true);
        }
        if inp.eof {
            Some(false)
        } else {
            None
        }
    }

    /// The scan for `set`, SIMD or scalar as configured.
    #[inline(always)]
    pub(super) fn find(&self, set: &scan::Landmarks, hay: &[u8]) -> usize {
        if self.simd {
            set.find(hay)
        } else {
            set.find_scalar(hay)
        }
    }

    /// Whether input bytes from `from` on were consumed by the machine itself
    /// (see `entered_at`).
    pub(super) fn consumed_since(&self, from: usize) -> bool {
        from >= self.entered_at
    }
}
