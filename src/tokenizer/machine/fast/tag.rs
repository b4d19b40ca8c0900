//! The tag fast path: the tag states for the common shapes of a tag, as
//! straight-line code, written once for tags whose attributes are built
//! and for tags whose attributes are stepped over (`AttrMode`).

use crate::scan::tag_block::TagBlock;
use crate::tokenizer::machine::*;

/// What the tag fast path does with attributes: a compile-time choice, so
/// that each machine carries one copy of the path with no test for it.
pub(in crate::tokenizer::machine) trait AttrMode {
    /// Attributes are built (names, values, references, duplicates).
    const BUILD: bool;
}

/// Attributes are built: every tokenizer but one that skips them.
pub(in crate::tokenizer::machine) struct Build;

/// Attributes are stepped over by the same transitions, none built: a
/// tokenizer with `SkipAttributes` and errors off.
pub(in crate::tokenizer::machine) struct Skim;

impl AttrMode for Build {
    const BUILD: bool = true;
}

impl AttrMode for Skim {
    const BUILD: bool = false;
}

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The tag states for the common shapes of a tag, as straight-line code.
    ///
    /// Starts at `p`, the first letter of a tag name (after `<` or `</`),
    /// and follows exactly the transitions of the tag name, attribute and
    /// self-closing states for the bytes that need no rewriting and raise no
    /// error other than `duplicate-attribute`. A CR between attributes is
    /// whitespace like the LF it stands for (CRLF is two whitespace bytes,
    /// which those states skip alike). At anything else (upper case, NUL,
    /// `&`, CR inside a quoted value, a stray quote or `=`, the end of the
    /// window) it leaves (`fast_leave`) with `state`, `pos` and the
    /// attribute in progress where the general machine would have them, and
    /// the general machine goes on from there. So it changes speed, never
    /// tokens: every html5lib test runs through it. Returns whether the tag
    /// was emitted (`false`: it left), which each way out knows.
    ///
    /// Each state of a tag is a place in this code rather than a value
    /// matched in a loop: a tag is name, then attributes of name, `=` and
    /// value, so each branch below sees the same kind of byte every time
    /// and predicts well (one `match` on a state per byte was a hard to
    /// predict indirect jump). An attribute is recorded as soon as it ends
    /// (a `VERBATIM` record when its strings are its spans), so that only
    /// the attribute in progress lives in locals.
    ///
    /// With [`Skim`], attributes are stepped over: their values may hold
    /// anything but their end (a reference never ends one), so the only
    /// landmarks are the ends, and none is recorded (the general machine,
    /// if it takes over, gets the one in progress as a duplicate, which it
    /// drops). Tags whose attributes standalone mode's feedback reads
    /// (`font`, `input`, `annotation-xml`) are built all the same.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn tag_fast_path<M: AttrMode>(
        &mut self,
        inp: &Window,
        p: usize,
        is_end: bool,
    ) -> bool {
        use State::*;
        // Bytes past a token-length limit are left to the general machine,
        // which cuts fields there: before it, no field can reach the limit.
        // Without a limit (the default) that is the window's end, already a
        // character boundary: a branch instead of the arithmetic per tag.
        let mut stop = inp.end();
        if self.max_token_len != usize::MAX {
            stop = stop.min(self.lt.saturating_add(self.max_token_len)).max(p);
            // Where the general machine goes on is a character boundary.
            while !inp.text.is_char_boundary(stop) {
                stop -= 1;
            }
        }
        let buf = &inp.buf()[..stop];
        let mut r = p + self.find(&scan::TAG_NAME, &buf[p..]);
        // The byte after the name's run, read once for the case and for
        // the tag name state below.
        let mut next = buf.get(r).copied();
        let upper = matches!(next, Some(b'A'..=b'Z'));
        if upper {
            // Upper case (old pages): the name is lower-cased into the
            // field, which owns it.
            r += self.find(&scan::TAG_NAME_ANY_CASE, &buf[r..]);
            next = buf.get(r).copied();
        }
        if !M::BUILD && feedback_reads_attributes(&buf[p..r]) {
            return self.tag_fast_path::<Build>(inp, p, is_end);
        }
        if upper {
            self.new_tag(is_end, p);
            self.out.tag_name.push_lowercase(*inp, p, r);
            self.out.tag_name_span.end = r;
        } else {
            // The name ends before `stop`, within any length limit.
            self.new_tag_named(is_end, p, r);
        }
        // Kept in a register: reading the span back from the fields just
        // written would wait for the stores (a 16-byte load of two 8-byte
        // stores is not forwarded).
        let name = Span { start: p, end: r };
        // Every way to the tag's end is a `break 'tag`, so that the one
        // place that emits the tag is inlined here once; the ways out to
        // the general machine are calls of `fast_leave`.
        let gt = 'tag: {
            // Tag name state, at the byte after the name's run: a byte of
            // `scan::TAG_NAME` other than upper case (taken above). Of
            // those, `>` alone is above `/`, so one comparison tells the
            // commonest, the tag's end (a `match` tested it last).
            let Some(c) = next else {
                return self.fast_leave_at(inp, TagName, r);
            };
            debug_assert!(matches!(
                c,
                b'\t' | b'\n' | 0x0C | b' ' | b'\r' | b'/' | b'>' | 0
            ));
            if c > b'/' {
                break 'tag r;
            }
            match c {
                b'\t' | b'\n' | 0x0C | b' ' | b'\r' => r += 1,
                b'/' => return self.fast_self_closing(inp, buf, r + 1, name),
                _ => return self.fast_leave_at(inp, TagName, r),
            }
            // The structural index of the 64 bytes from the first
            // attribute on, built when the first attribute name is looked
            // for (not before: most tags have none).
            let mut ix = TagBlock::NONE;
            loop {
                // Before attribute name state.
                while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                    r += 1;
                }
                match buf.get(r) {
                    Some(b'>') => break 'tag r,
                    Some(b'/') => return self.fast_self_closing(inp, buf, r + 1, name),
                    Some(b'=' | b'"' | b'\'' | b'<' | 0) | None => {
                        return self.fast_leave_at(inp, BeforeAttributeName, r)
                    }
                    Some(_) => {}
                }
                // A new attribute. One that would pass the attribute limit
                // is left to the general machine, which drops it and
                // reports the limit (attributes stepped over are dropped
                // anyway).
                if M::BUILD && self.out.attrs.len() >= self.max_attributes {
                    return self.fast_leave_at(inp, BeforeAttributeName, r);
                }
                // Stepped over, an attribute counts as a duplicate, which the
                // general machine drops if it takes over.
                let mut a = FastAttr::at(r, !M::BUILD);
                // Attribute name state.
                (r, ix) = self.name_end(ix, buf, r);
                let upper = matches!(buf.get(r), Some(b'A'..=b'Z'));
                if upper {
                    // Upper case: the name is lower-cased into the arena once
                    // it is whole.
                    r += self.find(&scan::ATTR_NAME_ANY_CASE, &buf[r..]);
                }
                // The byte that ends the name. The commonest attribute,
                // `name="value"`, is told by one two-byte comparison of `="`
                // and goes straight to the value (a test of `=` alone is
                // merged into the `match` below, whose bit test comes
                // first): `c` is then the quote, at which no name that the
                // fast path keeps ends, and which one register carries past
                // the duplicate test.
                let c = if buf.get(r..r + 2) == Some(b"=\"") {
                    b'"'
                } else {
                    match buf.get(r) {
                        Some(&c @ (b'=' | b'\t' | b'\n' | 0x0C | b' ' | b'\r' | b'/' | b'>')) => c,
                        _ => return self.fast_leave_in_attr(inp, AttributeName, r, a),
                    }
                };
                (a.ne, a.vs, a.ve) = (r, r, r);
                if M::BUILD {
                    let dup = if upper {
                        a.flags |= NAME_IN_ARENA;
                        self.fast_lowercase_name(*inp, a.ns, r)
                    } else {
                        self.is_duplicate_input_name(inp, a.ns, r)
                    };
                    if dup {
                        a.flags |= DUPLICATE;
                    }
                }
                let (set, quote, state) = if c == b'"' {
                    r += 2;
                    (&scan::ATTR_VALUE_DOUBLE, b'"', AttributeValueDoubleQuoted)
                } else {
                    if c != b'=' {
                        // After attribute name state.
                        while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                            r += 1;
                        }
                        match buf.get(r) {
                            Some(b'=') => {}
                            Some(b'>') => {
                                self.fast_commit::<M>(a);
                                break 'tag r;
                            }
                            Some(b'/') => {
                                self.fast_commit::<M>(a);
                                return self.fast_self_closing(inp, buf, r + 1, name);
                            }
                            Some(b'"' | b'\'' | b'<' | 0) | None => {
                                return self.fast_leave_in_attr(inp, AfterAttributeName, r, a)
                            }
                            // The next attribute's name.
                            Some(_) => {
                                self.fast_commit::<M>(a);
                                continue;
                            }
                        }
                    }
                    r += 1;
                    // Before attribute value state.
                    while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                        r += 1;
                    }
                    match buf.get(r) {
                        Some(b'"') => {
                            r += 1;
                            (&scan::ATTR_VALUE_DOUBLE, b'"', AttributeValueDoubleQuoted)
                        }
                        Some(b'\'') => {
                            r += 1;
                            (&scan::ATTR_VALUE_SINGLE, b'\'', AttributeValueSingleQuoted)
                        }
                        Some(b'>' | 0) | None => {
                            return self.fast_leave_in_attr(inp, BeforeAttributeValue, r, a)
                        }
                        Some(_) => {
                            // Attribute value (unquoted) state: it ends at
                            // whitespace or `>`.
                            (a.vs, a.ve) = (r, r);
                            loop {
                                r += self.find(&scan::ATTR_VALUE_UNQUOTED, &buf[r..]);
                                match buf.get(r) {
                                    Some(b'&') if M::BUILD => {
                                        match self.fast_reference(*inp, buf, r, a.vs, a.flags) {
                                            Some((n, flags)) => (r, a.flags) = (r + n, flags),
                                            None => {
                                                return self.fast_leave_in_attr(
                                                    inp,
                                                    AttributeValueUnquoted,
                                                    r,
                                                    a,
                                                )
                                            }
                                        }
                                    }
                                    Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => {
                                        self.fast_value_commit::<M>(inp, a, r);
                                        r += 1;
                                        break;
                                    }
                                    Some(b'>') => {
                                        self.fast_value_commit::<M>(inp, a, r);
                                        break 'tag r;
                                    }
                                    // The other landmarks are characters of a
                                    // value stepped over.
                                    Some(_) if !M::BUILD => r += 1,
                                    _ => {
                                        return self.fast_leave_in_attr(
                                            inp,
                                            AttributeValueUnquoted,
                                            r,
                                            a,
                                        )
                                    }
                                }
                            }
                            continue;
                        }
                    }
                };
                // Attribute value (double- or single-quoted) state.
                (a.vs, a.ve) = (r, r);
                loop {
                    (r, ix) = self.quoted_end(ix, buf, r, set);
                    match buf.get(r) {
                        Some(&c) if c == quote => break,
                        // The other quote (a stop of the index only), and,
                        // stepped over, every other stop.
                        Some(b'"' | b'\'') => r += 1,
                        Some(_) if !M::BUILD => r += 1,
                        Some(b'&') => match self.fast_reference(*inp, buf, r, a.vs, a.flags) {
                            Some((n, flags)) => (r, a.flags) = (r + n, flags),
                            None => return self.fast_leave_in_attr(inp, state, r, a),
                        },
                        _ => return self.fast_leave_in_attr(inp, state, r, a),
                    }
                }
                self.fast_value_commit::<M>(inp, a, r);
                r += 1;
                // After attribute value (quoted) state.
                match buf.get(r) {
                    Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => r += 1,
                    Some(b'>') => break 'tag r,
                    Some(b'/') => return self.fast_self_closing(inp, buf, r + 1, name),
                    _ => return self.fast_leave_at(inp, AfterAttributeValueQuoted, r),
                }
            }
        };
        self.fast_emit(inp, name, gt)
    }

    /// The self-closing start tag state at window offset `r` (after the
    /// `/`): `>` ends the tag, anything else is the general machine's.
    #[inline(always)]
    fn fast_self_closing(&mut self, inp: &Window, buf: &[u8], r: usize, name: Span) -> bool {
        if buf.get(r) == Some(&b'>') {
            self.out.self_closing = true;
            return self.fast_emit(inp, name, r);
        }
        self.fast_leave_at(inp, State::SelfClosingStartTag, r)
    }

    /// The end of an attribute name from window offset `r` (the next byte
    /// of `scan::ATTR_NAME`), by the tag block `ix` when the machine uses
    /// one (`tag_index`): one bit away when the block holds it, else from a
    /// new block at `r`. Returns it and the block.
    ///
    /// The block first: a machine without a classifier never has one (its
    /// blocks stay `TagBlock::NONE`), so a hit needs no test of it.
    #[inline(always)]
    pub(super) fn name_end(&self, ix: TagBlock, buf: &[u8], r: usize) -> (usize, TagBlock) {
        let off = r.wrapping_sub(ix.base);
        if off < 64 {
            let bits = ix.names >> off;
            if bits != 0 {
                return (r + bits.trailing_zeros() as usize, ix);
            }
        }
        let Some(classifier) = self.tag_index else {
            return (r + self.find(&scan::ATTR_NAME, &buf[r..]), ix);
        };
        let Some(chunk) = buf.get(r..).and_then(|b| b.first_chunk::<64>()) else {
            return (self.name_end_scan(buf, r), TagBlock::NONE);
        };
        let ix = classifier.block(r, chunk);
        if ix.names == 0 {
            return (self.name_end_scan(buf, r + 64), ix);
        }
        (r + ix.names.trailing_zeros() as usize, ix)
    }

    /// The scan for the end of an attribute name from window offset `r`,
    /// where no tag block holds it (within 64 bytes of the window's end, or
    /// a name longer than a block). Out of line, so that the compiler does
    /// not prepare its arguments at every name.
    #[inline(never)]
    fn name_end_scan(&self, buf: &[u8], r: usize) -> usize {
        r + self.find(&scan::ATTR_NAME, &buf[r..])
    }

    /// The next stop of a quoted value from window offset `r`: the next
    /// byte of `set` (its landmarks), or, by the tag block `ix`, of
    /// `"'&\r\0` (the other quote too, which the caller steps over).
    /// Past the block's bytes (a long value) the scan of `set` goes on
    /// from its end.
    #[inline(always)]
    pub(super) fn quoted_end(
        &self,
        ix: TagBlock,
        buf: &[u8],
        r: usize,
        set: &scan::Landmarks,
    ) -> (usize, TagBlock) {
        // The block first, as in `name_end`.
        let off = r.wrapping_sub(ix.base);
        if off < 64 {
            let bits = ix.quotes >> off;
            if bits != 0 {
                return (r + bits.trailing_zeros() as usize, ix);
            }
        }
        if self.tag_index.is_none() {
            return (r + self.find(set, &buf[r..]), ix);
        }
        (self.quoted_end_scan(ix.base, buf, r, set), ix)
    }

    /// [`quoted_end`](Self::quoted_end) past its block (which starts at
    /// `base`): the scan of `set`, from the block's end when the block
    /// holds `r` (it has no stop after `r`). Out of line, so that the
    /// compiler does not prepare its arguments at every value; the block's
    /// start alone, not the block, so that the block need not be kept in
    /// memory for it.
    #[inline(never)]
    fn quoted_end_scan(&self, base: usize, buf: &[u8], r: usize, set: &scan::Landmarks) -> usize {
        let from = if r.wrapping_sub(base) < 64 {
            base + 64
        } else {
            r
        };
        from + self.find(set, &buf[from..])
    }

    /// A character reference in an attribute value, at window offset `amp`
    /// of `buf`: decoded at once, its errors reported. A reference that
    /// stays as written keeps the value verbatim; one that decodes moves the
    /// value (which starts at `vs`) to the arena (`VALUE_IN_ARENA` in
    /// `flags`, the attribute's). Returns the reference's length and the
    /// flags, or `None` to leave it to the general machine (the window may
    /// end inside it, or a length limit is set: decoded values need not
    /// shrink, so the fast path's bound on field lengths would not hold).
    ///
    /// The attribute's parts go in and out as values, as in the other
    /// `fast_` functions: a `&mut` to it made the tag fast path keep it in
    /// memory, stores for every tag, attributes or not.
    #[inline]
    fn fast_reference(
        &mut self,
        inp: Window<'_>,
        buf: &[u8],
        amp: usize,
        vs: usize,
        mut flags: u8,
    ) -> Option<(usize, u8)> {
        let inp = &inp;
        if self.max_token_len != usize::MAX {
            return None;
        }
        // The commonest references of values (`&amp;` and `&quot;`) are
        // told here by their bytes, without `charref::decode`'s call and
        // its result and errors passed through memory.
        let rest = &buf[amp..];
        let common = charref::common(rest);
        let mut errors = RefErrors::default();
        let mut utf8 = [0; 4];
        let (len, text) = match common {
            Some(common) => common,
            None => match charref::decode_uncommon(rest, inp.eof, true, &mut errors) {
                Decoded::NeedMore => return None,
                Decoded::Literal(len) => {
                    self.ref_errors(inp, amp, &errors);
                    return Some((len, flags));
                }
                Decoded::Chars { len, value } => {
                    self.ref_errors(inp, amp, &errors);
                    (len, value.as_str(&mut utf8))
                }
            },
        };
        if flags & VALUE_IN_ARENA == 0 {
            flags |= VALUE_IN_ARENA;
            self.attr_fields_used = true;
            self.fast_arena = self.out.attr_store.arena.len();
            self.fast_run = vs;
        }
        self.out
            .attr_store
            .arena
            .push_str(inp.str(self.fast_run, amp));
        // One (ASCII) byte pushed, not a string copied.
        match *text.as_bytes() {
            [b] => self.out.attr_store.arena.push(char::from(b)),
            _ => self.out.attr_store.arena.push_str(text),
        }
        self.fast_run = amp + len;
        Some((len, flags))
    }

    /// An attribute name with upper case in the fast path, window offsets
    /// `ns..ne`: lower-cased into the arena (`fast_name_arena`, which the
    /// caller marks `NAME_IN_ARENA`); returns whether the tag already has
    /// it (reporting `duplicate-attribute` if so).
    #[cold]
    #[inline(never)]
    fn fast_lowercase_name(&mut self, inp: Window<'_>, ns: usize, ne: usize) -> bool {
        let inp = &inp;
        self.attr_fields_used = true;
        let start = self.out.attr_store.arena.len();
        self.out.attr_store.arena.push_str(inp.str(ns, ne));
        self.out.attr_store.arena[start..].make_ascii_lowercase();
        self.fast_name_arena = start;
        let name = &self.out.attr_store.arena.as_bytes()[start..];
        let dup = builders::has_attribute_named(
            &mut self.attr_index,
            &self.out.attrs,
            &self.out.attr_store,
            inp,
            name,
        );
        if dup {
            self.err(inp, ErrorCode::DuplicateAttribute, ne);
        }
        dup
    }

    /// The end of attribute `a`'s value in the fast path, at window offset
    /// `r` (the quote or the byte after an unquoted value), and its
    /// [`fast_commit`](Self::fast_commit): one test of the flags for both
    /// (a decoded value's rest and a rewritten or duplicate attribute are
    /// the rare path's).
    #[inline(always)]
    fn fast_value_commit<M: AttrMode>(&mut self, inp: &Window, mut a: FastAttr, r: usize) {
        a.ve = r;
        if M::BUILD && a.flags != 0 {
            // By the machine's field, for the reason `fast_leave_in_attr`
            // gives.
            self.fast_attr = a;
            return self.fast_value_commit_rare(*inp, r);
        }
        self.fast_commit::<M>(a);
    }

    /// [`fast_value_commit`](Self::fast_value_commit) of `fast_attr`, whose
    /// flags are set.
    #[cold]
    #[inline(never)]
    fn fast_value_commit_rare(&mut self, inp: Window<'_>, r: usize) {
        if self.fast_attr.flags & VALUE_IN_ARENA != 0 {
            self.fast_value_rest(inp, r);
        }
        self.fast_commit_rare();
    }

    /// The rest of a decoded value (after its last reference) into the
    /// arena: out of line, so that the common end of a value is a store.
    #[inline(never)]
    fn fast_value_rest(&mut self, inp: Window<'_>, r: usize) {
        let inp = &inp;
        self.out
            .attr_store
            .arena
            .push_str(inp.str(self.fast_run, r));
        self.fast_run = r;
    }

    /// [`fast_leave`](Self::fast_leave) inside attribute `a`, which goes
    /// to the machine's `fast_attr` here, on the way out only: passed on,
    /// it was kept in memory all along the fast path for the call.
    #[inline(always)]
    fn fast_leave_in_attr(&mut self, inp: &Window, state: State, r: usize, a: FastAttr) -> bool {
        self.fast_attr = a;
        self.fast_leave(*inp, state, r, true);
        false
    }

    /// [`fast_leave`](Self::fast_leave) between attributes: `false`, no
    /// token is ready (the tag fast path's answer, known on each way out
    /// instead of read back from `ready`).
    #[inline(always)]
    fn fast_leave_at(&mut self, inp: &Window, state: State, r: usize) -> bool {
        self.fast_leave(*inp, state, r, false);
        false
    }

    /// Leaving the fast path for the general machine: it goes on from
    /// `state` at window offset `r`, with the attribute in progress (if
    /// `in_attr`: `fast_attr`) in its fields as its own states would have
    /// left it (a name or value being read extends to `r`, its span is
    /// still empty).
    #[cold]
    #[inline(never)]
    pub(super) fn fast_leave(&mut self, inp: Window<'_>, state: State, r: usize, in_attr: bool) {
        let inp = &inp;
        use State::*;
        self.state = state;
        self.pos = r;
        self.lt_read = true;
        if !in_attr {
            return;
        }
        let a = self.fast_attr;
        let name_end = if state == AttributeName { r } else { a.ne };
        let in_value = matches!(
            state,
            AttributeValueDoubleQuoted | AttributeValueSingleQuoted | AttributeValueUnquoted
        );
        let value_end = if in_value { r } else { a.ve };
        self.attr_live = true;
        self.attr_fields_used = true;
        self.attr_duplicate = a.flags & DUPLICATE != 0;
        self.attr_name.clear();
        self.attr_name.push_lowercase(*inp, a.ns, name_end);
        self.attr_value.clear();
        if a.flags & VALUE_IN_ARENA == 0 {
            self.attr_value.push_input(inp, a.vs, value_end);
        } else {
            // The value decoded so far, and what follows it.
            self.attr_value
                .push_str(inp, &self.out.attr_store.arena[self.fast_arena..]);
            if in_value {
                self.attr_value.push_input(inp, self.fast_run, r);
            }
        }
        self.attr_name_span = Span {
            start: a.ns,
            end: a.ne,
        };
        self.attr_value_span = Span {
            start: a.vs,
            end: a.ve,
        };
        // The fields own what the arena held for this attribute.
        let first = self.arena_start(a);
        self.out.attr_store.arena.truncate(first);
    }

    /// Where the arena's bytes of attribute `a` start (the arena's end
    /// when it has none there).
    fn arena_start(&self, a: FastAttr) -> usize {
        let mut first = self.out.attr_store.arena.len();
        if a.flags & NAME_IN_ARENA != 0 {
            first = first.min(self.fast_name_arena);
        }
        if a.flags & VALUE_IN_ARENA != 0 {
            first = first.min(self.fast_arena);
        }
        first
    }

    /// The fast path's end of an attribute: a record of its spans, unless
    /// it is a duplicate (or stepped over).
    #[inline(always)]
    fn fast_commit<M: AttrMode>(&mut self, a: FastAttr) {
        if !M::BUILD {
            return;
        }
        // One test for the common attribute: verbatim, and the first of
        // its name.
        if a.flags != 0 {
            // By the machine's field, for the reason `fast_leave_in_attr`
            // gives.
            self.fast_attr = a;
            return self.fast_commit_rare();
        }
        self.out.attrs.push(AttrRecord {
            name_span: Span {
                start: a.ns,
                end: a.ne,
            },
            value_span: Span {
                start: a.vs,
                end: a.ve,
            },
            strings: VERBATIM,
        });
    }

    /// [`fast_commit`](Self::fast_commit) of `fast_attr`, a duplicate
    /// (dropped, with what it put in the arena) or an attribute whose name
    /// or value is in the arena: its slots, then its record.
    #[cold]
    #[inline(never)]
    fn fast_commit_rare(&mut self) {
        let a = self.fast_attr;
        if a.flags & DUPLICATE != 0 {
            let first = self.arena_start(a);
            self.out.attr_store.arena.truncate(first);
            return;
        }
        let name = if a.flags & NAME_IN_ARENA == 0 {
            Slot::of_span(Span {
                start: a.ns,
                end: a.ne,
            })
        } else {
            Slot::Scratch(self.fast_name_arena, self.fast_name_arena + (a.ne - a.ns))
        };
        let value = if a.flags & VALUE_IN_ARENA == 0 {
            Slot::of_span(Span {
                start: a.vs,
                end: a.ve,
            })
        } else {
            Slot::Scratch(self.fast_arena, self.out.attr_store.arena.len())
        };
        self.out.attr_store.rewritten.push((name, value));
        let strings = self.out.attr_store.rewritten.len() - 1;
        self.out.attrs.push(AttrRecord {
            name_span: Span {
                start: a.ns,
                end: a.ne,
            },
            value_span: Span {
                start: a.vs,
                end: a.ve,
            },
            strings,
        });
    }

    /// The fast path's `>` at `gt`: emit the tag and go back to the data
    /// state.
    ///
    /// What `emit_tag` does, for a tag whose name is `name` (its input
    /// bytes, or lower-cased in `tag_name`) and whose attributes are all
    /// committed.
    #[inline(always)]
    pub(super) fn fast_emit(&mut self, inp: &Window, name: Span, gt: usize) -> bool {
        // The tag fast path runs from the data lane, in the data state, and
        // leaves it only for the general machine: the state is the one the
        // tag goes back to.
        debug_assert_eq!(self.state, State::Data);
        let end = gt + 1;
        self.pos = end;
        let ready = if self.out.tag_is_end {
            if E::ENABLED {
                if !self.out.attrs.is_empty() {
                    self.err(inp, ErrorCode::EndTagWithAttributes, gt);
                }
                if self.out.self_closing {
                    self.err(inp, ErrorCode::EndTagWithTrailingSolidus, gt);
                }
            }
            Ready::EndTag
        } else {
            if self.out.tag_name.owned {
                // A lower-cased name.
                self.keep_start_tag_copy(inp);
            } else {
                self.keep_start_tag_span(name);
            }
            Ready::StartTag
        };
        self.emit(ready, end);
        true
    }
}

/// The tag fast path's attribute in progress, in window offsets: its name
/// `ns..ne` and value `vs..ve` (a value not started yet is empty at the
/// name's end), and `flags`: none for the common attribute, a verbatim one
/// whose name the tag does not have yet.
///
/// What a rewritten attribute needs besides (where its strings start in
/// the arena) is in the machine (`fast_arena`, `fast_run`,
/// `fast_name_arena`), read only where the flags say so: what the common
/// attribute needs stays in registers, not the whole of it in memory.
#[derive(Clone, Copy, Default)]
pub(in crate::tokenizer::machine) struct FastAttr {
    pub(super) ns: usize,
    pub(super) ne: usize,
    pub(super) vs: usize,
    pub(super) ve: usize,
    pub(super) flags: u8,
}

/// The attribute's name is one the tag already has (or it is stepped
/// over): dropped.
pub(super) const DUPLICATE: u8 = 1;
/// The value, with a decoded reference, is assembled in the attribute
/// arena from `Machine::fast_arena` on; `Machine::fast_run` is where the
/// input bytes not yet copied there start.
pub(super) const VALUE_IN_ARENA: u8 = 2;
/// The name, lower-cased, is in the arena at `Machine::fast_name_arena`.
pub(super) const NAME_IN_ARENA: u8 = 4;

impl FastAttr {
    /// An attribute whose name starts at window offset `r`.
    #[inline(always)]
    pub(super) fn at(r: usize, dup: bool) -> FastAttr {
        FastAttr {
            ns: r,
            ne: r,
            vs: r,
            ve: r,
            flags: if dup { DUPLICATE } else { 0 },
        }
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
