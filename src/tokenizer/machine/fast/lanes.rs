//! The lanes: the data state's and the text states' common paths without
//! a step (runs, references, `</name>` at once, whole comments).

use super::tag::{Build, Skim};
use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The data state's common path without a step: runs of text (CR and
    /// CRLF taken as LF, character references decoded at once), then the
    /// tag that follows, by the tag fast path, or a comment, by the comment
    /// lane. Returns `false`, with `pos` at the byte, where the general
    /// step must take over: `<!` other than a plain comment, `<` not
    /// followed by a letter, NUL (errors on), the end of the window or a
    /// reference it cuts. `true` is `Some`: whether a token is ready (the
    /// tag fast path says so on each of its ways out, so that `run` need
    /// not read `ready` back).
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn data_lane(&mut self, inp: &Window) -> Option<bool> {
        let set = if E::ENABLED {
            &scan::DATA_WITH_NUL
        } else {
            &scan::DATA
        };
        let buf = inp.buf();
        let mut r = self.pos;
        loop {
            // A tag often follows the last one's `>` at once: one
            // comparison instead of a scan that stops at its first byte.
            if buf.get(r) != Some(&b'<') {
                r = self.text_run(inp, set, r);
            }
            let Some(&c) = buf.get(r) else { break };
            // The run stops only at a byte of the set (`<`, `&`, CR, and
            // NUL with errors on): of those, `<` alone is above `&`, so one
            // comparison tells the commonest stop, a tag, from the others
            // (a `match` tested it after the rarer two).
            debug_assert!(matches!(c, b'<' | b'&' | b'\r' | 0));
            if c > b'&' {
                let (name, is_end) = match buf.get(r + 1) {
                    Some(b'a'..=b'z' | b'A'..=b'Z') => (r + 1, false),
                    Some(b'/') if matches!(buf.get(r + 2), Some(b'a'..=b'z' | b'A'..=b'Z')) => {
                        (r + 2, true)
                    }
                    Some(b'!') if buf.get(r + 2..r + 4) == Some(b"--") => {
                        if self.comment_lane(*inp, r) {
                            return Some(true);
                        }
                        break;
                    }
                    _ => break,
                };
                // `lt_read` is set by `fast_leave`, where the general
                // machine takes the tag over: a tag the fast path
                // completes reads nothing back from `lt`.
                self.lt = r;
                // With errors on, attributes are built for their
                // errors even when they are not handed out.
                return Some(if A::KEEP || E::ENABLED {
                    self.tag_fast_path::<Build>(inp, name, is_end)
                } else {
                    self.tag_fast_path::<Skim>(inp, name, is_end)
                });
            } else if c == b'&' {
                match self.text_reference(inp, r) {
                    Some(len) => r += len,
                    None => break,
                }
            } else if c == b'\r' && r + 1 < buf.len() {
                r += self.text_newline(inp, r);
            } else {
                break;
            }
        }
        self.pos = r;
        None
    }

    /// [`data_lane`](Self::data_lane) as a call, for the loop of
    /// [`run_loop`](Self::run_loop): whether it went anywhere.
    #[inline(never)]
    pub(in crate::tokenizer::machine) fn data_lane_call(&mut self, inp: &Window) -> bool {
        self.data_lane(inp).is_some()
    }

    /// The RCDATA, RAWTEXT and script data states' common path without a
    /// step: runs of text (`set` is the state's landmarks), a `<` that
    /// starts no end tag taken as text, character references in RCDATA,
    /// and an appropriate end tag `</name>` emitted at once. Returns `false`,
    /// with `pos` at the byte, where the general step must take over: an end
    /// tag with attributes or whitespace, `<!` in script data (escapes),
    /// NUL, the end of the window.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn text_lane(
        &mut self,
        inp: &Window,
        set: &scan::Landmarks,
    ) -> bool {
        let buf = inp.buf();
        let mut r = self.pos;
        loop {
            r = self.text_run(inp, set, r);
            match buf.get(r) {
                Some(b'<') => match buf.get(r + 1) {
                    Some(b'/') => match self.appropriate_end_tag_at(inp, r + 2) {
                        Some(true) => {
                            let name = r + 2;
                            let end = name + self.last_start_tag_len();
                            self.lt = r;
                            self.lt_read = true;
                            self.new_tag(true, name);
                            let name_bytes = &buf[name..end];
                            if name_bytes.iter().any(u8::is_ascii_uppercase) {
                                let lower = inp.str(name, end).to_ascii_lowercase();
                                self.out.tag_name.push_str(inp, &lower);
                            } else {
                                self.out.tag_name.push_input(inp, name, end);
                            }
                            self.out.tag_name_span.end = end;
                            self.state = State::Data;
                            self.pos = end + 1;
                            self.emit(Ready::EndTag, end + 1);
                            return true;
                        }
                        // Not an end tag: `</` is text, and so is the
                        // rest, up to the next landmark.
                        Some(false) => {
                            self.emit_input(inp, r, r + 2);
                            r += 2;
                        }
                        None => break,
                    },
                    // Escapes (`<!--`) are the script data states' own.
                    Some(b'!') if self.state == State::ScriptData => break,
                    Some(_) => {
                        self.emit_input(inp, r, r + 1);
                        r += 1;
                    }
                    None => break,
                },
                Some(b'&') if self.state == State::Rcdata => match self.text_reference(inp, r) {
                    Some(len) => r += len,
                    None => break,
                },
                Some(b'\r') if r + 1 < buf.len() => r += self.text_newline(inp, r),
                _ => break,
            }
        }
        self.pos = r;
        false
    }

    /// Length of the last start tag's name.
    pub(in crate::tokenizer::machine) fn last_start_tag_len(&self) -> usize {
        match self.last_start_tag_span {
            Some(span) => span.len(),
            None => self.last_start_tag.len(),
        }
    }

    /// Whether the bytes at window offset `name` (after `</`), lower-cased,
    /// are the last start tag's name followed by `>`: an
    /// appropriate end tag the text lane can emit at once. `Some(false)`
    /// when they cannot start an appropriate end tag at all (so `</` is
    /// text); `None` when the general machine must decide (whitespace or
    /// `/` after the name, or the window ends first).
    pub(in crate::tokenizer::machine) fn appropriate_end_tag_at(
        &self,
        inp: &Window,
        name: usize,
    ) -> Option<bool> {
        if !self.has_last_start_tag() {
            return Some(false);
        }
        let last = self.last_start_tag_name(inp);
        let buf = inp.buf();
        let Some(first) = buf.get(name) else {
            return if inp.eof { Some(false) } else { None };
        };
        if !first.is_ascii_alphabetic() {
            return Some(false);
        }
        // The tag name is the input lower-cased; the last start tag's name
        // is compared as it is (a caller may have set one with upper case,
        // which no end tag then matches).
        let lowered_is = |input: &[u8], name: &[u8]| {
            input.len() == name.len()
                && input
                    .iter()
                    .zip(name)
                    .all(|(a, b)| a.to_ascii_lowercase() == *b)
        };
        let end = name + last.len();
        match buf.get(name..end) {
            Some(bytes) if lowered_is(bytes, last) => {}
            // A prefix of the name, cut by the end of the window.
            None if !inp.eof && lowered_is(&buf[name..], &last[..buf.len() - name]) => return None,
            _ => return Some(false),
        }
        match buf.get(end) {
            Some(b'>') => Some(true),
            Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r' | b'/') => None,
            Some(_) => Some(false),
            None if inp.eof => Some(false),
            None => None,
        }
    }

    /// A comment `<!--data-->` at window offset `lt`, emitted at once when
    /// its data is its input bytes: ended by `-->` or `--!>` (a `--` that
    /// is not followed by `>` or `!>` is data), with no CR or NUL in it.
    /// With errors on, only comments that raise none (no `--!>`, no `<!--`
    /// inside). Returns `false` for anything else (`<!-->`, `<!--->`, the
    /// end of the window first), which the general machine takes from `<`.
    pub(in crate::tokenizer::machine) fn comment_lane(
        &mut self,
        inp: Window<'_>,
        lt: usize,
    ) -> bool {
        let inp = &inp;
        let buf = inp.buf();
        let data = lt + 4;
        match buf.get(data) {
            Some(b'>') | None => return false,
            Some(b'-') if buf.get(data + 1) == Some(&b'>') => return false,
            Some(_) => {}
        }
        let set = if E::ENABLED {
            &scan::COMMENT
        } else {
            &scan::COMMENT_DATA
        };
        let mut i = data;
        let (end, gt) = loop {
            i += self.find(set, &buf[i..]);
            match buf.get(i) {
                Some(b'-') => match buf.get(i + 1..i + 3) {
                    Some(b"->") => break (i, i + 2),
                    // `--!>` ends the comment (with an error, which the
                    // general machine reports).
                    Some(b"-!") => match buf.get(i + 3) {
                        Some(b'>') if E::ENABLED => return false,
                        Some(b'>') => break (i, i + 3),
                        Some(_) => i += 1,
                        None => return false,
                    },
                    Some(_) => i += 1,
                    None => return false,
                },
                // Errors on: `<!--` inside raises nested-comment.
                Some(b'<') => match buf.get(i + 1..i + 4) {
                    Some(b"!--") => return false,
                    Some(_) => i += 1,
                    None => return false,
                },
                _ => return false,
            }
        };
        self.lt = lt;
        self.lt_read = true;
        self.new_comment();
        self.out.comment.push_input(inp, data, end);
        if self.out.comment.truncated {
            // A length limit cut the data: the general machine reports it.
            self.out.comment.clear();
            return false;
        }
        // From the data lane, in the data state, where the comment goes
        // back to.
        debug_assert_eq!(self.state, State::Data);
        self.pos = gt + 1;
        self.emit(Ready::Comment, gt + 1);
        true
    }

    /// The lanes' run of text from window offset `r` up to the next
    /// landmark of `set`, emitted; the landmark's offset.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn text_run(
        &mut self,
        inp: &Window,
        set: &scan::Landmarks,
        r: usize,
    ) -> usize {
        let n = self.find(set, &inp.buf()[r..]);
        if n > 0 {
            self.emit_input(inp, r, r + n);
        }
        r + n
    }

    /// The lanes' character reference in text, at window offset `r`:
    /// decoded at once and emitted (as the input bytes when it stays as
    /// written); its length, or `None` when the window may end inside it.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn text_reference(
        &mut self,
        inp: &Window,
        r: usize,
    ) -> Option<usize> {
        let mut errors = RefErrors::default();
        match charref::decode(&inp.buf()[r..], inp.eof, false, &mut errors) {
            Decoded::NeedMore => None,
            Decoded::Literal(len) => {
                self.ref_errors(inp, r, &errors);
                self.emit_input(inp, r, r + len);
                Some(len)
            }
            Decoded::Chars { len, value } => {
                self.ref_errors(inp, r, &errors);
                let mut utf8 = [0; 4];
                let text = value.as_str(&mut utf8);
                self.emit_str(*inp, text, r, r + len);
                Some(len)
            }
        }
    }

    /// The lanes' CR (or CRLF) in text, at window offset `r`, which is not
    /// the window's last byte: emitted as LF; its length.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn text_newline(&mut self, inp: &Window, r: usize) -> usize {
        let n = 1 + usize::from(inp.buf()[r + 1] == b'\n');
        // Empty and borrowed: at 0..0 (see `emit_input`).
        if n == 2 && self.out.text.end == 0 {
            // A CRLF that starts a text token (the line break before an
            // indented tag, on pages written on Windows): the text is the
            // LF's input byte, as `push_char` would make it, without its
            // call (text has no length limit).
            self.out.text.start = r + 1;
            self.out.text.end = r + 2;
            self.out.text_span = Span {
                start: r,
                end: r + 2,
            };
            return 2;
        }
        self.emit_char(inp, r, n);
        n
    }
}
