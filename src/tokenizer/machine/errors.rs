//! The error sink: parse errors with their positions, and the input-stream
//! checks (control characters, noncharacters) found lazily up to each error.

use super::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// Records a parse error reported at offset `at`.
    #[inline]
    pub(super) fn err(&mut self, inp: &Window, code: ErrorCode, at: usize) {
        if E::ENABLED {
            self.check_stream(inp, at);
            let end = if at < inp.end() { at + 1 } else { at };
            self.push_error(inp, code, Span { start: at, end });
        }
    }

    pub(super) fn push_error(&mut self, inp: &Window, code: ErrorCode, span: Span) {
        let location = self.locate(inp, span.start);
        self.errors.push(ParseError {
            code,
            span: inp.absolute(span),
            location,
        });
    }

    /// Line and column of `at`, which is in the window.
    pub(super) fn locate(&mut self, inp: &Window, at: usize) -> LineCol {
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
    pub(super) fn check_stream(&mut self, inp: &Window, upto: usize) {
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
            let k = scan::suspects::find(inp.from(i));
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
    pub(super) fn ref_errors(&mut self, inp: &Window, amp: usize, errors: &RefErrors) {
        if E::ENABLED {
            for (code, offset) in errors.iter() {
                self.err(inp, code, amp + offset);
            }
        }
    }
}
