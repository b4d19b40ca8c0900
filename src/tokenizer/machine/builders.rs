//! Building tokens: text output, tags and their attributes (duplicates,
//! the arena), comments and DOCTYPEs, and emitting them.

use super::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    pub(super) fn text_started(&mut self, p: usize) {
        if self.out.text.is_empty() {
            self.out.text_span.start = p;
        }
    }

    /// Emits input bytes `s..e` as characters.
    #[inline(always)]
    pub(super) fn emit_input(&mut self, inp: &Window, s: usize, e: usize) {
        // An empty borrowed field is at 0..0 (`Field::clear`), a
        // non-empty one ends after 0, and an owned one at `usize::MAX`
        // (`Field::make_owned`): one comparison tells the first run.
        debug_assert!(self.out.text.end != 0 || !self.out.text.owned);
        if self.out.text.end == 0 {
            // The first run of a text token (no limit applies to text).
            self.out.text.start = s;
            self.out.text.end = e;
            self.out.text_span = Span { start: s, end: e };
            return;
        }
        if s == e {
            return;
        }
        self.text_started(s);
        self.out.text.push_input(inp, s, e);
        self.out.text_span.end = e;
    }

    /// Emits the current character (CR/CRLF as LF).
    pub(super) fn emit_char(&mut self, inp: &Window, p: usize, n: usize) {
        self.text_started(p);
        push_char(&mut self.out.text, *inp, p, n);
        self.out.text_span.end = p + n;
    }

    /// Emits characters that are not the input's bytes (U+FFFD, a decoded
    /// reference); `s..e` are the input bytes they stand for.
    pub(super) fn emit_str(&mut self, inp: Window<'_>, text: &str, s: usize, e: usize) {
        let inp = &inp;
        self.text_started(s);
        self.out.text.push_str(inp, text);
        self.out.text_span.end = e;
    }

    #[inline(always)]
    pub(super) fn emit(&mut self, ready: Ready, end: usize) {
        self.out.span = Span {
            start: self.lt,
            end,
        };
        // An end tag's attributes are dropped (the standard parses them,
        // for their errors), and so are all with `SkipAttributes`.
        self.out.attrs_shown = A::KEEP && ready == Ready::StartTag;
        self.ready = Some(ready);
        // Errors off, nothing reads them: none is kept, so that a long
        // stream of cut tokens holds no memory for them.
        if E::ENABLED && self.limited {
            self.check_limits(ready, end);
        }
    }

    /// Reports a token cut short by `Config::max_token_len` or
    /// `Config::max_attributes`. Errors are recorded without a window (the
    /// location is computed by the caller's window), so this only runs when
    /// a limit is set.
    pub(super) fn check_limits(&mut self, ready: Ready, end: usize) {
        let (cut, too_many) = match ready {
            Ready::StartTag | Ready::EndTag => (
                self.out.tag_name.truncated
                    || (self.tag_limited && self.out.attrs.len() < self.max_attributes),
                self.tag_limited && self.out.attrs.len() >= self.max_attributes,
            ),
            Ready::Comment => (self.out.comment.truncated, false),
            Ready::ProcessingInstruction => (
                self.out.comment.truncated || self.out.pi_target.truncated,
                false,
            ),
            Ready::Doctype => (
                self.out.doctype_name.truncated
                    || self.out.doctype_public.truncated
                    || self.out.doctype_system.truncated,
                false,
            ),
            Ready::Eof => (false, false),
        };
        if cut || too_many {
            self.limit_errors.push((
                if too_many {
                    ErrorCode::TooManyAttributes
                } else {
                    ErrorCode::TokenTooLong
                },
                end.saturating_sub(1),
            ));
        }
    }

    pub(super) fn emit_eof(&mut self, inp: &Window) {
        if E::ENABLED {
            self.check_stream(inp, inp.end());
        }
        self.lt = inp.end();
        self.out.span = Span {
            start: inp.end(),
            end: inp.end(),
        };
        self.ready = Some(Ready::Eof);
    }

    #[inline(always)]
    pub(super) fn new_tag(&mut self, is_end: bool, name_start: usize) {
        self.new_tag_but_name(is_end);
        self.out.tag_name.clear();
        self.out.tag_name_span = Span {
            start: name_start,
            end: name_start,
        };
    }

    /// [`new_tag`](Self::new_tag) for a tag whose name is the input bytes
    /// `s..e` as they are (no upper case, within the length limit): the
    /// name set at once, not cleared first (the tag fast path's tags).
    #[inline(always)]
    pub(super) fn new_tag_named(&mut self, is_end: bool, s: usize, e: usize) {
        self.new_tag_but_name(is_end);
        self.out.tag_name.set(s, e);
        self.out.tag_name_span = Span { start: s, end: e };
    }

    /// What [`new_tag`](Self::new_tag) resets besides the name.
    #[inline(always)]
    fn new_tag_but_name(&mut self, is_end: bool) {
        self.stale_tag = false;
        self.out.tag_is_end = is_end;
        self.out.self_closing = false;
        self.out.attrs.clear();
        self.attrs_borrowing = 0;
        if self.attr_fields_used {
            // Left by an attribute of an earlier tag (the fast path fills
            // the fields only when it hands an attribute over, and only the
            // general machine's attributes set the flags below).
            self.attr_fields_used = false;
            self.attr_live = false;
            self.tag_limited = false;
            self.attr_name.clear();
            self.attr_value.clear();
            self.out.attr_store.rewritten.clear();
            self.out.attr_store.arena.clear();
            self.attr_index.clear();
        }
    }

    pub(super) fn new_attr(&mut self, p: usize) {
        self.commit_attr();
        self.attr_live = true;
        self.attr_fields_used = true;
        self.attr_duplicate = false;
        self.attr_name.clear();
        self.attr_value.clear();
        self.attr_name_span = Span { start: p, end: p };
        self.attr_value_span = Span { start: p, end: p };
    }

    /// Adds the finished attribute to the tag, unless it was a duplicate.
    pub(super) fn commit_attr(&mut self) {
        if !self.attr_live {
            return;
        }
        self.attr_live = false;
        if self.attr_duplicate {
            return;
        }
        if self.attr_name.truncated || self.attr_value.truncated {
            self.tag_limited = true;
        }
        if self.out.attrs.len() >= self.max_attributes {
            self.tag_limited = true;
            return;
        }
        let (name_span, value_span) = (self.attr_name_span, self.attr_value_span);
        let strings =
            if self.attr_name.is_verbatim(name_span) && self.attr_value.is_verbatim(value_span) {
                VERBATIM
            } else {
                let name = self.stash(FieldId::AttrName);
                let value = self.stash(FieldId::AttrValue);
                self.out.attr_store.rewritten.push((name, value));
                self.out.attr_store.rewritten.len() - 1
            };
        self.out.attrs.push(AttrRecord {
            name_span,
            value_span,
            strings,
        });
    }

    /// Moves an owned attribute field into the arena; returns its slot.
    pub(super) fn stash(&mut self, id: FieldId) -> Slot {
        let field = match id {
            FieldId::AttrName => &self.attr_name,
            FieldId::AttrValue => &self.attr_value,
        };
        match field.slot() {
            Slot::Scratch(_, len) => {
                let start = self.out.attr_store.arena.len();
                self.out.attr_store.arena.push_str(&field.buf);
                Slot::Scratch(start, start + len)
            }
            other => other,
        }
    }

    /// The standard's check on leaving the attribute name state: a name the
    /// tag already has makes this attribute a duplicate, dropped.
    pub(super) fn check_duplicate_attr(&mut self, inp: &Window, at: usize) {
        self.attr_name_span.end = at;
        self.attr_value_span = Span { start: at, end: at };
        if self.is_duplicate_name(inp, None, at) {
            self.attr_duplicate = true;
        }
    }

    /// Whether the attribute name ending at `at` is one the tag already has
    /// (reporting `duplicate-attribute` if so): the input's `s..e` when
    /// given (the fast path's names), else the attribute name field.
    pub(super) fn is_duplicate_name(
        &mut self,
        inp: &Window,
        input_name: Option<(usize, usize)>,
        at: usize,
    ) -> bool {
        let name = match input_name {
            Some((s, e)) => inp.slice(s, e),
            None => self.attr_name.bytes(inp),
        };
        // The duplicate index may be built below: the next tag clears it.
        self.attr_fields_used = true;
        let dup = has_attribute_named(
            &mut self.attr_index,
            &self.out.attrs,
            &self.out.attr_store,
            inp,
            name,
        );
        if dup {
            self.err(inp, ErrorCode::DuplicateAttribute, at);
        }
        dup
    }

    /// [`is_duplicate_name`](Self::is_duplicate_name) for the input name
    /// `s..e`, with the common case inline: a few attributes so far, all
    /// verbatim, compared by length first.
    #[inline(always)]
    pub(super) fn is_duplicate_input_name(&mut self, inp: &Window, s: usize, e: usize) -> bool {
        // The first attribute of a tag (the commonest case) has nothing to
        // compare with.
        if self.out.attrs.is_empty() {
            return false;
        }
        // Most names differ in length from every earlier one of their tag:
        // that answer needs no call, whose register saves cost more than
        // the loop. Only a record of the same length, or one whose name is
        // not its span, needs the full test.
        let len = e - s;
        let attrs = &self.out.attrs;
        if attrs.len() < attr_index::THRESHOLD
            && attrs
                .iter()
                .all(|a| a.strings == VERBATIM && a.name_span.end - a.name_span.start != len)
        {
            return false;
        }
        self.is_duplicate_input_name_among(*inp, s, e)
    }

    /// [`is_duplicate_input_name`](Self::is_duplicate_input_name) once the
    /// tag has attributes.
    #[inline(never)]
    pub(super) fn is_duplicate_input_name_among(
        &mut self,
        inp: Window<'_>,
        s: usize,
        e: usize,
    ) -> bool {
        let inp = &inp;
        if self.out.attrs.len() >= attr_index::THRESHOLD {
            return self.is_duplicate_name(inp, Some((s, e)), e);
        }
        let name = inp.slice(s, e);
        let mut dup = false;
        let (rewritten, arena) = (&self.out.attr_store.rewritten, &self.out.attr_store.arena);
        for a in &self.out.attrs {
            // A record whose name or value was rewritten (after a value
            // with a decoded reference, every later name meets one) is
            // resolved here too, as `has_attribute_named` resolves it:
            // below the index's threshold that is the same test.
            let other = if a.strings == VERBATIM {
                if a.name_span.len() != name.len() {
                    continue;
                }
                inp.slice(a.name_span.start, a.name_span.end)
            } else {
                slot_bytes(a.slots(rewritten).0, inp, arena)
            };
            // The first bytes before the call of `bcmp`: names of the
            // same length mostly differ there (`class` and `style`).
            if other.len() == name.len() && other.first() == name.first() && other == name {
                dup = true;
                break;
            }
        }
        if dup {
            self.err(inp, ErrorCode::DuplicateAttribute, e);
        }
        dup
    }

    pub(super) fn emit_tag(&mut self, inp: &Window, end: usize) {
        self.commit_attr();
        if self.out.tag_is_end {
            if !self.out.attrs.is_empty() {
                self.err(inp, ErrorCode::EndTagWithAttributes, end - 1);
            }
            if self.out.self_closing {
                self.err(inp, ErrorCode::EndTagWithTrailingSolidus, end - 1);
            }
            self.emit(Ready::EndTag, end);
        } else {
            match self.out.tag_name.borrows_from() {
                Some(start) => self.keep_start_tag_span(Span {
                    start,
                    end: self.out.tag_name.end,
                }),
                None => self.keep_start_tag_copy(inp),
            }
            self.emit(Ready::StartTag, end);
        }
    }

    /// Makes the start tag being emitted the last start tag, by the span
    /// of its name in the input (almost always: no copy). With
    /// [`keep_start_tag_copy`](Self::keep_start_tag_copy), the last start
    /// tag's bookkeeping for both tag emitters, `emit_tag` and the fast
    /// path's `fast_emit` (two methods, not one taking an `Option`: the
    /// caller's branch decides, measured cheaper on the tag fast path).
    #[inline(always)]
    pub(super) fn keep_start_tag_span(&mut self, name: Span) {
        // A span says there is a last start tag: `has_last_start_tag` is
        // set when the span goes (`keep_start_tag_copy`,
        // `keep_last_start_tag`), one store less for every start tag.
        self.last_start_tag_span = Some(name);
    }

    /// Makes the start tag being emitted the last start tag, by a copy of
    /// its name (one the standard rewrote: lower-cased, or with U+FFFD).
    #[inline(always)]
    pub(super) fn keep_start_tag_copy(&mut self, inp: &Window) {
        self.has_last_start_tag = true;
        self.last_start_tag_span = None;
        self.last_start_tag.clear();
        let name = self.out.tag_name.bytes(inp);
        self.last_start_tag.extend_from_slice(name);
    }

    /// Whether there is a last start tag: by its span, or
    /// `has_last_start_tag` when there is none.
    #[inline(always)]
    pub(super) fn has_last_start_tag(&self) -> bool {
        self.last_start_tag_span.is_some() || self.has_last_start_tag
    }

    /// The last start tag's name (empty when there is none: see
    /// `has_last_start_tag`).
    #[inline(always)]
    pub(super) fn last_start_tag_name<'i>(&'i self, inp: &'i Window) -> &'i [u8] {
        match self.last_start_tag_span {
            Some(span) => inp.slice(span.start, span.end),
            None => self.last_start_tag.as_slice(),
        }
    }

    pub(super) fn is_appropriate_end_tag(&self, inp: &Window) -> bool {
        self.has_last_start_tag() && self.out.tag_name.bytes(inp) == self.last_start_tag_name(inp)
    }

    pub(super) fn new_comment(&mut self) {
        self.stale_comment = false;
        self.out.comment.clear();
        self.out.pi_target.clear();
    }

    pub(super) fn new_doctype(&mut self) {
        self.stale_doctype = false;
        self.out.doctype_name.clear();
        self.out.doctype_public.clear();
        self.out.doctype_system.clear();
        self.out.has_doctype_name = false;
        self.out.has_doctype_public = false;
        self.out.has_doctype_system = false;
        self.out.force_quirks = false;
    }
}

/// Whether the tag in progress already has an attribute called `name`:
/// the one duplicate test of both tag paths (`is_duplicate_name` and the
/// fast path's lower-cased names), its stored names resolved from their
/// slots (input bytes or the arena). Takes the fields it reads, not the
/// machine, so that `name` may borrow from the arena; inline in both, as
/// the two copies it replaces were.
#[inline(always)]
pub(super) fn has_attribute_named(
    index: &mut AttrIndex,
    attrs: &[AttrRecord],
    store: &AttrStore,
    inp: &Window,
    name: &[u8],
) -> bool {
    let (rewritten, arena) = (&store.rewritten, &store.arena);
    index.is_duplicate(name, attrs.len(), |i| {
        attrs
            .get(i)
            .map(|a| slot_bytes(a.slots(rewritten).0, inp, arena))
    })
}

/// The bytes of an attribute's name or value slot: the window's, or the
/// arena's where the standard rewrote it.
#[inline(always)]
fn slot_bytes<'w>(slot: Slot, inp: &'w Window, arena: &'w str) -> &'w [u8] {
    match slot {
        Slot::Empty => &b""[..],
        Slot::Input(s, e) => inp.slice(s, e),
        Slot::Scratch(s, e) => &arena.as_bytes()[s..e],
    }
}

#[derive(Clone, Copy)]
pub(super) enum FieldId {
    AttrName,
    AttrValue,
}
