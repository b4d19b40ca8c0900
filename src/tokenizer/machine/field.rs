//! A token string in progress: [`Field`] borrows an input range until the
//! standard rewrites it, then owns a copy.

use super::*;

/// A token string under construction: an input range while it is a copy of
/// the input, an owned buffer after the first rewrite.
///
/// With a length limit (`Config::max_token_len`), a field that grows past it
/// is cut to the limit (at a character boundary), copied out of the input so
/// that it pins no input bytes, and ignores further appends.
#[derive(Debug)]
pub(crate) struct Field {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) owned: bool,
    pub(crate) truncated: bool,
    pub(crate) limit: usize,
    /// The owned text (a `String`: it is assembled from whole characters,
    /// so handing it out needs no UTF-8 check).
    pub(crate) buf: String,
}

impl Default for Field {
    fn default() -> Self {
        Field {
            start: 0,
            end: 0,
            owned: false,
            truncated: false,
            limit: usize::MAX,
            buf: String::new(),
        }
    }
}

impl Field {
    /// Whether the field holds exactly the input bytes of `span`
    /// (`Slot::of_span(span)` is its slot).
    pub(super) fn is_verbatim(&self, span: Span) -> bool {
        !self.owned
            && if self.start == self.end {
                span.start == span.end
            } else {
                self.start == span.start && self.end == span.end
            }
    }

    #[inline(always)]
    pub(super) fn clear(&mut self) {
        // A truncated field is owned (`cut` makes it so).
        if self.owned {
            self.owned = false;
            self.truncated = false;
            self.buf.clear();
        }
        // Empty at 0, which is inside every window: an empty field's range
        // is sliced like any other (`token::unchecked`).
        self.start = 0;
        self.end = 0;
    }

    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        if self.owned {
            self.buf.is_empty()
        } else {
            self.start == self.end
        }
    }

    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        if self.owned {
            self.buf.len()
        } else {
            self.end - self.start
        }
    }

    /// Makes the field the input bytes `s..e`, which are within its length
    /// limit: `clear` and `push_input` without the stores and checks in
    /// between.
    #[inline(always)]
    pub(super) fn set(&mut self, s: usize, e: usize) {
        debug_assert!(e - s <= self.limit);
        if self.owned {
            self.owned = false;
            self.truncated = false;
            self.buf.clear();
        }
        self.start = s;
        self.end = e;
    }

    #[inline(always)]
    pub(super) fn push_input(&mut self, inp: &Window, s: usize, e: usize) {
        if s == e || self.truncated {
            return;
        }
        if !self.owned {
            if self.start == self.end {
                self.start = s;
                self.end = e;
            } else if self.end == s {
                self.end = e;
            } else {
                self.make_owned(*inp);
                self.buf.push_str(inp.str(s, e));
            }
        } else {
            self.buf.push_str(inp.str(s, e));
        }
        // The limit first: without one (the default) the length is not
        // needed.
        if self.limit != usize::MAX && self.len() > self.limit {
            self.cut(*inp);
        }
    }

    /// Appends input bytes `s..e` ASCII-lower-cased: borrowed when they
    /// have no upper-case letter.
    pub(super) fn push_lowercase(&mut self, inp: Window<'_>, s: usize, e: usize) {
        let inp = &inp;
        let bytes = inp.slice(s, e);
        if !bytes.iter().any(u8::is_ascii_uppercase) {
            return self.push_input(inp, s, e);
        }
        if self.truncated {
            return;
        }
        if !self.owned {
            self.make_owned(*inp);
        }
        let from = self.buf.len();
        self.buf.push_str(inp.str(s, e));
        self.buf[from..].make_ascii_lowercase();
        if self.buf.len() > self.limit {
            self.cut(*inp);
        }
    }

    /// Appends characters that are not the next input bytes.
    pub(super) fn push_str(&mut self, inp: &Window, text: &str) {
        if self.truncated {
            return;
        }
        if !self.owned {
            self.make_owned(*inp);
        }
        self.buf.push_str(text);
        if self.buf.len() > self.limit {
            self.cut(*inp);
        }
    }

    /// Cuts the field to its limit, at a character boundary.
    #[cold]
    #[inline(never)]
    pub(super) fn cut(&mut self, inp: Window<'_>) {
        let inp = &inp;
        if !self.owned {
            // Cut the borrowed range at a character boundary of the input.
            let mut keep = (self.start + self.limit).min(self.end);
            while keep > self.start && !inp.text.is_char_boundary(keep) {
                keep -= 1;
            }
            self.end = keep;
            self.make_owned(*inp);
        }
        let mut cut = self.limit.min(self.buf.len());
        while !self.buf.is_char_boundary(cut) {
            cut -= 1;
        }
        self.buf.truncate(cut);
        // Owned (made so above): `clear` relies on it.
        debug_assert!(self.owned);
        self.truncated = true;
    }

    #[cold]
    pub(super) fn make_owned(&mut self, inp: Window<'_>) {
        let inp = &inp;
        self.buf.clear();
        if self.start != self.end {
            self.buf.push_str(inp.str(self.start, self.end));
        }
        self.owned = true;
        // An owned field's range is read by nothing; an empty one at the
        // end of the offsets (which a rebase leaves as it is) makes
        // `end == 0` mean "borrowed and empty" (`clear`'s 0..0), one test
        // where the text lanes start a token.
        self.start = usize::MAX;
        self.end = usize::MAX;
    }

    #[inline(always)]
    pub(super) fn bytes<'t>(&'t self, inp: &Window<'t>) -> &'t [u8] {
        if self.owned {
            self.buf.as_bytes()
        } else if self.start == self.end {
            b""
        } else {
            inp.slice(self.start, self.end)
        }
    }

    pub(super) fn slot(&self) -> Slot {
        if self.owned {
            Slot::Scratch(0, self.buf.len())
        } else if self.start == self.end {
            Slot::Empty
        } else {
            Slot::Input(self.start, self.end)
        }
    }

    /// The field as text: what `resolve(self.slot(), ..)` gives, without
    /// building the slot (this runs for every tag name and text token).
    #[inline]
    pub(super) fn str<'t>(&'t self, inp: &Window<'t>) -> &'t str {
        if self.owned {
            return &self.buf;
        }
        // Text and tag names, the commonest, are never empty: the slice
        // first, the empty case only where it fails (an empty range
        // anywhere, even at an offset a stream's rebase wrapped, is "").
        match inp.text.get(self.start..self.end) {
            Some(text) => text,
            None if self.start == self.end => "",
            None => inp.str(self.start, self.end),
        }
    }

    /// The earliest input offset the field still borrows, if any.
    pub(super) fn borrows_from(&self) -> Option<usize> {
        (!self.owned && self.start != self.end).then_some(self.start)
    }
}

/// The lower-case letter for the upper-case ASCII letter `c`, as text.
pub(super) fn ascii_lower(c: u8) -> &'static str {
    const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
    let i = usize::from(c.wrapping_sub(b'A')).min(25);
    &LOWER[i..i + 1]
}

/// Appends the current character (at `p`, `n` bytes) to `field`, with CR and
/// CRLF as LF.
pub(super) fn push_char(field: &mut Field, inp: Window<'_>, p: usize, n: usize) {
    let inp = &inp;
    if inp.at(p) == b'\r' {
        if field.owned && !field.truncated {
            // What either way below appends to an owned field, without a
            // slice of the input and a copy of one byte: a field that owns
            // its text at a CR (one with an earlier CR or CRLF in it) is
            // common on pages written on Windows.
            field.buf.push('\n');
            if field.buf.len() > field.limit {
                field.cut(*inp);
            }
        } else if n == 2 {
            field.push_input(inp, p + 1, p + 2);
        } else {
            field.push_str(inp, "\n");
        }
    } else {
        field.push_input(inp, p, p + n);
    }
}
