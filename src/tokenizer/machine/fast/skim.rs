//! The tag fast path of a tokenizer that hands out tags without attributes
//! (`SkipAttributes`): the tag's name, then its attributes stepped over
//! as the standard's states read them, none built.
//!
//! A function of its own rather than a flag in `tag_fast_path`: even a
//! test that is constant for a policy changed how the compiler laid out
//! the common path (more instructions over the corpus with attributes
//! on). The two must make the same transitions;
//! `tests/api/attributes_off.rs` and the `tokenize` fuzz target hold this
//! one against the full one.

use super::tag::{Exit, FastAttr, NOT_IN_ARENA};
use crate::scan::tag_block::TagBlock;
use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// [`tag_fast_path`](Self::tag_fast_path) for `SkipAttributes`: the
    /// same tag (name, self-closing flag, span, and where it hands over to
    /// the general machine), with its attributes stepped over. An
    /// attribute's value may hold anything but its end (a reference never
    /// ends one), so the only landmarks are the ends: whitespace, `/`, `=`,
    /// `>` and the quotes where the states give them a meaning. Every
    /// attribute is marked a duplicate, which the tag drops (also if the
    /// general machine takes over in the middle of it).
    ///
    /// Tags whose attributes standalone mode's feedback reads (`font`,
    /// `input`, `annotation-xml`) take the full path.
    ///
    /// Inlined: the other policies' copies of the data lane, where its call
    /// is dead code, came out the same (callgrind over the corpus counts
    /// the same instructions either way), and `extract::text` cheaper than
    /// with a call per tag.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn tag_skim(&mut self, inp: &Window, p: usize, is_end: bool) {
        use State::*;
        // What `tag_fast_path` does up to the name's end: a length limit
        // leaves the bytes past it to the general machine.
        let mut stop = inp.end();
        if self.max_token_len != usize::MAX {
            stop = stop.min(self.lt.saturating_add(self.max_token_len)).max(p);
            while !inp.text.is_char_boundary(stop) {
                stop -= 1;
            }
        }
        let buf = &inp.buf()[..stop];
        let mut r = p + self.find(&scan::TAG_NAME, &buf[p..]);
        let upper = matches!(buf.get(r), Some(b'A'..=b'Z'));
        if upper {
            r += self.find(&scan::TAG_NAME_ANY_CASE, &buf[r..]);
        }
        if feedback_reads_attributes(&buf[p..r]) {
            return self.tag_fast_path(inp, p, is_end);
        }
        self.new_tag(is_end, p);
        if upper {
            self.out.tag_name.push_lowercase(inp, p, r);
        } else {
            self.out.tag_name.set_cleared(p, r);
        }
        self.out.tag_name_span.end = r;
        let name = Span { start: p, end: r };
        // The attribute in progress, for the general machine if it takes
        // over: a duplicate, so that it is dropped.
        let mut a = FastAttr::default();
        let exit = 'tag: {
            // Tag name state, at the byte after the name's run.
            match buf.get(r) {
                Some(b'>') => break 'tag Exit::Emit(r),
                Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => r += 1,
                Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                _ => break 'tag Exit::Leave(TagName, r),
            }
            let mut ix = TagBlock::NONE;
            loop {
                // Before attribute name state.
                while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                    r += 1;
                }
                match buf.get(r) {
                    Some(b'>') => break 'tag Exit::Emit(r),
                    Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                    Some(b'=' | b'"' | b'\'' | b'<' | 0) | None => {
                        break 'tag Exit::Leave(BeforeAttributeName, r)
                    }
                    Some(_) => {}
                }
                // The attribute limit counts attributes as the full path
                // does; none is kept here, so only a limit of 0 or 1 is
                // ever reached, and it is left to the general machine.
                if usize::from(a.live) >= self.max_attributes {
                    break 'tag Exit::Leave(BeforeAttributeName, r);
                }
                a = FastAttr {
                    live: true,
                    dup: true,
                    ns: r,
                    ne: r,
                    vs: r,
                    ve: r,
                    arena: NOT_IN_ARENA,
                    run: r,
                    name_arena: NOT_IN_ARENA,
                };
                // Attribute name state.
                (r, ix) = self.name_end(ix, buf, r);
                if let Some(b'A'..=b'Z') = buf.get(r) {
                    r += self.find(&scan::ATTR_NAME_ANY_CASE, &buf[r..]);
                }
                let c = match buf.get(r) {
                    Some(&c @ (b'=' | b'\t' | b'\n' | 0x0C | b' ' | b'\r' | b'/' | b'>')) => c,
                    _ => break 'tag Exit::Leave(AttributeName, r),
                };
                (a.ne, a.vs, a.ve) = (r, r, r);
                if c != b'=' {
                    // After attribute name state.
                    while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                        r += 1;
                    }
                    match buf.get(r) {
                        Some(b'=') => {}
                        Some(b'>') => break 'tag Exit::Emit(r),
                        Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                        Some(b'"' | b'\'' | b'<' | 0) | None => {
                            break 'tag Exit::Leave(AfterAttributeName, r)
                        }
                        Some(_) => continue,
                    }
                }
                r += 1;
                // Before attribute value state.
                while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                    r += 1;
                }
                let (set, quote, state) = match buf.get(r) {
                    Some(b'"') => (&scan::ATTR_VALUE_DOUBLE, b'"', AttributeValueDoubleQuoted),
                    Some(b'\'') => (&scan::ATTR_VALUE_SINGLE, b'\'', AttributeValueSingleQuoted),
                    Some(b'>' | 0) | None => break 'tag Exit::Leave(BeforeAttributeValue, r),
                    Some(_) => {
                        // Attribute value (unquoted) state: it ends at
                        // whitespace or `>`; its other landmarks are
                        // characters of it.
                        (a.vs, a.ve, a.run) = (r, r, r);
                        loop {
                            r += self.find(&scan::ATTR_VALUE_UNQUOTED, &buf[r..]);
                            match buf.get(r) {
                                Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => {
                                    a.ve = r;
                                    r += 1;
                                    break;
                                }
                                Some(b'>') => {
                                    a.ve = r;
                                    break 'tag Exit::Emit(r);
                                }
                                Some(_) => r += 1,
                                None => break 'tag Exit::Leave(AttributeValueUnquoted, r),
                            }
                        }
                        continue;
                    }
                };
                // Attribute value (double- or single-quoted) state: it ends
                // at its quote; the other stops are characters of it.
                r += 1;
                (a.vs, a.ve, a.run) = (r, r, r);
                loop {
                    (r, ix) = self.quoted_end(ix, buf, r, set);
                    match buf.get(r) {
                        Some(&c) if c == quote => break,
                        Some(_) => r += 1,
                        None => break 'tag Exit::Leave(state, r),
                    }
                }
                a.ve = r;
                r += 1;
                // After attribute value (quoted) state.
                match buf.get(r) {
                    Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => r += 1,
                    Some(b'>') => break 'tag Exit::Emit(r),
                    Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                    _ => break 'tag Exit::Leave(AfterAttributeValueQuoted, r),
                }
            }
        };
        let gt = match exit {
            Exit::Emit(gt) => gt,
            Exit::SelfClosing(r) if buf.get(r) == Some(&b'>') => {
                self.out.self_closing = true;
                r
            }
            Exit::SelfClosing(r) => return self.fast_leave(inp, SelfClosingStartTag, r, a),
            Exit::Leave(state, r) => return self.fast_leave(inp, state, r, a),
        };
        self.fast_emit(inp, a, name, gt);
    }
}

/// Whether standalone mode's feedback reads attributes of start tags named
/// `name` (in the input's case): `<font color|face|size>` breaks out of
/// foreign content, `<input type=hidden>` keeps frameset-ok, and
/// `<annotation-xml encoding>` is an integration point.
#[inline(always)]
fn feedback_reads_attributes(name: &[u8]) -> bool {
    match name.len() {
        4 => name.eq_ignore_ascii_case(b"font"),
        5 => name.eq_ignore_ascii_case(b"input"),
        14 => name.eq_ignore_ascii_case(b"annotation-xml"),
        _ => false,
    }
}
