//! The error sink: parse errors with their positions, and the input-stream
//! checks (control characters, noncharacters) found lazily up to each error.

use super::*;

/// Whether `b` may start a character the input stream reports: C0 controls
/// other than whitespace and NUL, DEL, and the UTF-8 lead bytes of C1
/// controls (0xC2), of U+FDD0..U+FDEF and U+FFFE/U+FFFF (0xEF), and of the
/// supplementary planes' noncharacters (0xF0..0xF4).
///
/// Comparisons only, combined without branches, so that a loop over a block
/// of bytes compiles to vector code (see `find_stream_suspect`).
#[inline(always)]
const fn is_stream_suspect(b: u8) -> bool {
    let c0_control =
        (b.wrapping_sub(1) < 0x1F) & (b != b'\t') & (b != b'\n') & (b != 0x0C) & (b != b'\r');
    c0_control | (b == 0x7F) | (b == 0xC2) | (b == 0xEF) | (b.wrapping_sub(0xF0) < 5)
}

/// Offset of the first byte of `hay` for which `is_stream_suspect` holds,
/// or `hay.len()`.
///
/// Safe code the compiler vectorizes: a block of 32 bytes is tested as a
/// whole (suspects are rare outside CJK text), and only a block that has
/// one is searched byte by byte. On the corpus with errors on, this and
/// scanning ahead (`stream_clear_until`) took the input-stream check from
/// about 7 instructions a byte (a table lookup and a branch per byte, from
/// each token on) to about 2.5, vector instructions.
fn find_stream_suspect(hay: &[u8]) -> usize {
    const BLOCK: usize = 32;
    let any = |block: &[u8; BLOCK]| {
        block
            .iter()
            .fold(false, |any, &b| any | is_stream_suspect(b))
    };
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
        .position(|&b| is_stream_suspect(b))
        .map_or(hay.len(), |k| offset + k)
}

impl<E: ErrorPolicy> Machine<E> {
    /// Records a parse error reported at offset `at`.
    #[inline]
    pub(super) fn err(&mut self, inp: &Input, code: ErrorCode, at: usize) {
        if E::ENABLED {
            self.check_stream(inp, at);
            let end = if at < inp.end() { at + 1 } else { at };
            self.push_error(inp, code, Span { start: at, end });
        }
    }

    pub(super) fn push_error(&mut self, inp: &Input, code: ErrorCode, span: Span) {
        let location = self.locate(inp, span.start);
        self.errors.push(ParseError {
            code,
            span: inp.absolute(span),
            location,
        });
    }

    /// Line and column of `at`, which is in the window.
    pub(super) fn locate(&mut self, inp: &Input, at: usize) -> LineCol {
        if at < self.lines.offset() {
            self.lines = self.lines_at_base;
        }
        let from = self.lines.offset();
        self.lines
            .advance_to(inp.slice(from, at.min(inp.end())), at);
        self.lines.position()
    }

    /// Takes the errors collected so far.
    pub(crate) fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.errors)
    }

    /// Raises the input-stream errors (control characters, noncharacters)
    /// for every character starting at or before `upto`, in order. The
    /// standard raises them as characters are read, before the tokenizer
    /// acts on them; checking lazily up to each tokenizer error keeps the
    /// order without a per-byte cost.
    pub(super) fn check_stream(&mut self, inp: &Input, upto: usize) {
        let end = inp.end();
        let stop = upto.saturating_add(1).min(end);
        let mut i = self.stream_checked;
        while i < stop {
            if i < self.stream_clear_until {
                i = self.stream_clear_until.min(stop);
                continue;
            }
            // Jump to the next byte that can start a control character or a
            // noncharacter. Suspects are ASCII or lead bytes, never UTF-8
            // continuation bytes, so `i` stays on a character boundary.
            let k = find_stream_suspect(inp.from(i));
            self.stream_clear_until = i + k;
            if i + k >= stop {
                i = stop;
                break;
            }
            i += k;
            let b = inp.at(i);
            if b < 0x80 {
                self.push_error(
                    inp,
                    ErrorCode::ControlCharacterInInputStream,
                    Span {
                        start: i,
                        end: i + 1,
                    },
                );
                i += 1;
                continue;
            }
            let len = if b == 0xC2 {
                2
            } else if b == 0xEF {
                3
            } else {
                4
            };
            if i + len > end {
                // The rest of this character is not in the window yet.
                break;
            }
            let c = std::str::from_utf8(inp.slice(i, i + len))
                .ok()
                .and_then(|s| s.chars().next())
                .map_or(0, |c| c as u32);
            let code = if (0x80..=0x9F).contains(&c) {
                Some(ErrorCode::ControlCharacterInInputStream)
            } else if charref::is_noncharacter(c) {
                Some(ErrorCode::NoncharacterInInputStream)
            } else {
                None
            };
            if let Some(code) = code {
                self.push_error(
                    inp,
                    code,
                    Span {
                        start: i,
                        end: i + len,
                    },
                );
            }
            i += len;
        }
        self.stream_checked = self.stream_checked.max(i);
    }

    /// Reports the errors of the character reference at `amp` (errors on).
    #[inline]
    pub(super) fn ref_errors(&mut self, inp: &Input, amp: usize, errors: &RefErrors) {
        if E::ENABLED {
            for (code, offset) in errors.iter() {
                self.err(inp, code, amp + offset);
            }
        }
    }
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
    fn stream_suspects_are_the_listed_bytes() {
        for b in 0..=255u8 {
            assert_eq!(
                is_stream_suspect(b),
                suspect_by_definition(b),
                "byte {b:#04x}"
            );
        }
    }

    #[test]
    fn find_stream_suspect_finds_the_first_at_every_position() {
        // Every suspect byte, at every offset of haystacks around the block
        // size, before and after other suspects.
        for len in [0, 1, 31, 32, 33, 63, 64, 65, 100] {
            assert_eq!(find_stream_suspect(&vec![b'a'; len]), len);
            for at in 0..len {
                for b in (0..=255u8).filter(|&b| suspect_by_definition(b)) {
                    let mut hay = vec![b'x'; len];
                    hay[at] = b;
                    if at + 1 < len {
                        hay[len - 1] = 0x01;
                    }
                    assert_eq!(
                        find_stream_suspect(&hay),
                        at,
                        "byte {b:#04x} at {at} of {len}"
                    );
                }
            }
        }
    }
}
