//! What a stream may drop and how the machine follows when it does: the
//! earliest byte still needed, copying a token out of the window, rebasing
//! positions.

use super::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The earliest input offset whose bytes the machine may still read:
    /// a stream may drop the bytes before it. Only meaningful between calls,
    /// when no token is lent out.
    ///
    /// A stream calls this at every chunk, so it costs O(1) amortised, also
    /// in a tag of a million attributes that arrives in tiny chunks.
    pub(crate) fn earliest_needed(&mut self) -> usize {
        use State::*;
        // Deferred appends read up to three bytes back (`--!` of a comment end).
        let mut low = self.pos.saturating_sub(3);
        let reads_from_lt = matches!(
            self.state,
            TagOpen
                | EndTagOpen
                | RcdataLessThanSign
                | RcdataEndTagOpen
                | RcdataEndTagName
                | RawtextLessThanSign
                | RawtextEndTagOpen
                | RawtextEndTagName
                | ScriptDataLessThanSign
                | ScriptDataEndTagOpen
                | ScriptDataEndTagName
                | ScriptDataEscapedLessThanSign
                | ScriptDataEscapedEndTagOpen
                | ScriptDataEscapedEndTagName
                | ProcessingInstructionOpen
                | ProcessingInstructionTarget
        );
        if reads_from_lt {
            low = low.min(self.lt);
        }
        let reads_from_amp = matches!(
            self.state,
            CharacterReference
                | NamedCharacterReference
                | NumericCharacterReference
                | HexadecimalCharacterReferenceStart
                | HexadecimalCharacterReference
                | DecimalCharacterReference
                | NumericCharacterReferenceEnd
        );
        if reads_from_amp {
            low = low.min(self.amp);
        }
        for f in self.live_fields() {
            if let Some(s) = f.borrows_from() {
                low = low.min(s);
            }
        }
        if self.stale_tag {
            return low;
        }
        // Records are in input order, and a record that stops borrowing
        // never borrows again (`detach` makes them all stop at once), so the
        // first that borrows has the earliest start. The cursor passes each
        // record at most once per tag; looking at every record at every
        // chunk made a tag of n attributes in tiny chunks cost O(n^2).
        while let Some(a) = self.out.attrs.get(self.attrs_borrowing) {
            if let Some(start) = a.borrowed_start(&self.out.attr_store.rewritten) {
                low = low.min(start);
                break;
            }
            self.attrs_borrowing += 1;
        }
        low
    }

    /// The fields that may still be read: the text, and those of every kind
    /// of token whose last token is not handed out yet (in progress or
    /// ready).
    pub(super) fn live_fields(&self) -> impl Iterator<Item = &Field> {
        let tag = [&self.out.tag_name, &self.attr_name, &self.attr_value];
        let comment = [&self.out.comment, &self.out.pi_target];
        let doctype = [
            &self.out.doctype_name,
            &self.out.doctype_public,
            &self.out.doctype_system,
        ];
        std::iter::once(&self.out.text)
            .chain(tag.into_iter().filter(|_| !self.stale_tag))
            .chain(comment.into_iter().filter(|_| !self.stale_comment))
            .chain(doctype.into_iter().filter(|_| !self.stale_doctype))
    }

    /// Copies every string of the token in progress out of the input, so
    /// that it pins no input bytes: a stream calls this when the bytes it
    /// must keep grow large (a huge token), after which it keeps only what
    /// the fields hold (bounded by `Config::max_token_len` when set).
    pub(crate) fn detach(&mut self, text: &str) {
        let inp = Window {
            text,
            origin: 0,
            eof: false,
        };
        // Stale fields (of tokens already handed out) may refer to bytes
        // the window no longer has: they are left alone.
        let (tag, comment, doctype) = (!self.stale_tag, !self.stale_comment, !self.stale_doctype);
        for (live, field) in [
            (true, &mut self.out.text),
            (tag, &mut self.out.tag_name),
            (tag, &mut self.attr_name),
            (tag, &mut self.attr_value),
            (comment, &mut self.out.comment),
            (comment, &mut self.out.pi_target),
            (doctype, &mut self.out.doctype_name),
            (doctype, &mut self.out.doctype_public),
            (doctype, &mut self.out.doctype_system),
        ] {
            if live && field.borrows_from().is_some() {
                field.make_owned(inp);
            }
        }
        if !tag {
            return;
        }
        // The records before the cursor borrow nothing; visiting only the
        // others keeps a huge tag's repeated detaching linear.
        let from = self.attrs_borrowing;
        self.attrs_borrowing = self.out.attrs.len();
        // The arena is written below: the next tag clears it.
        self.attr_fields_used = true;
        for a in &mut self.out.attrs[from..] {
            if a.strings == VERBATIM {
                // Name and value side by side in the arena: the record
                // stays 40 bytes, with no slots in the side list.
                a.strings = IN_ARENA | self.out.attr_store.arena.len();
                for span in [a.name_span, a.value_span] {
                    self.out
                        .attr_store
                        .arena
                        .push_str(inp.str(span.start, span.end));
                }
            } else if a.strings & IN_ARENA == 0 {
                let Some((name, value)) = self.out.attr_store.rewritten.get_mut(a.strings) else {
                    continue;
                };
                for slot in [name, value] {
                    if let Slot::Input(s, e) = *slot {
                        let start = self.out.attr_store.arena.len();
                        self.out.attr_store.arena.push_str(inp.str(s, e));
                        *slot = Slot::Scratch(start, self.out.attr_store.arena.len());
                    }
                }
            }
        }
    }

    /// How many positions `rebase` moves besides its fixed few: one per
    /// attribute record and rewritten string pair. A stream drops bytes
    /// only when it drops at least as many, so that the rebasing of a tag
    /// of a million attributes is paid for by the bytes dropped.
    pub(crate) fn rebase_work(&self) -> usize {
        self.out.attrs.len() + self.out.attr_store.rewritten.len() + self.limit_errors.len()
    }

    /// Bytes held in scratch buffers (for memory-bound tests).
    pub(crate) fn scratch_capacity(&self) -> usize {
        let fields = [
            &self.out.text,
            &self.out.tag_name,
            &self.attr_name,
            &self.attr_value,
            &self.out.comment,
            &self.out.pi_target,
            &self.out.doctype_name,
            &self.out.doctype_public,
            &self.out.doctype_system,
        ];
        fields.iter().map(|f| f.buf.capacity()).sum::<usize>()
            + self.out.attr_store.arena.capacity()
            + self.out.attrs.capacity() * std::mem::size_of::<AttrRecord>()
            + self.out.attr_store.rewritten.capacity() * std::mem::size_of::<(Slot, Slot)>()
    }

    /// Called by a stream before it drops the first `drop` bytes of its
    /// window `text` (at absolute offset `origin`); `rebase` follows once
    /// they are gone.
    pub(crate) fn before_dropping(&mut self, text: &str, origin: usize, drop: usize) {
        if !E::ENABLED {
            return;
        }
        let inp = Window {
            text,
            origin,
            eof: false,
        };
        if drop > 0 {
            self.check_stream(&inp, drop - 1);
        }
        let from = self.lines_at_base.offset();
        self.lines_at_base.advance_to(inp.slice(from, drop), drop);
    }

    /// Shifts every position the machine holds by `drop` bytes, which a
    /// stream has just dropped from the front of its window (after
    /// `keep_last_start_tag` and `before_dropping`), so that positions stay
    /// window offsets.
    ///
    /// Every live position is at or after `drop` (`earliest_needed`). Some
    /// are not live but still handed out later: the span of a token in
    /// progress that `detach` copied out of the window starts before it.
    /// Those wrap, and `Window::absolute` wraps them back, so spans stay
    /// exact. The few positions that are compared rather than handed out
    /// (`entered_at`, the input-stream check's progress) saturate at the
    /// window's start, which is what they mean there.
    pub(crate) fn rebase(&mut self, drop: usize) {
        let shift = |p: &mut usize| *p = p.wrapping_sub(drop);
        let shift_span = |s: &mut Span| *s = s.moved(drop.wrapping_neg());
        // The window's origin moves by what is dropped: kept here, it need
        // not be stored by every call (see `Machine::drive`).
        self.out.origin += drop;
        shift(&mut self.pos);
        shift(&mut self.lt);
        shift(&mut self.amp);
        self.entered_at = self.entered_at.saturating_sub(drop);
        self.stream_checked = self.stream_checked.saturating_sub(drop);
        self.stream_clear_until = self.stream_clear_until.saturating_sub(drop);
        for field in [
            &mut self.out.text,
            &mut self.out.tag_name,
            &mut self.attr_name,
            &mut self.attr_value,
            &mut self.out.comment,
            &mut self.out.pi_target,
            &mut self.out.doctype_name,
            &mut self.out.doctype_public,
            &mut self.out.doctype_system,
        ] {
            // An empty field stays at 0, inside the window (see
            // `Field::clear`).
            if field.start != field.end {
                shift(&mut field.start);
                shift(&mut field.end);
            }
        }
        for span in [
            &mut self.out.span,
            &mut self.out.text_span,
            &mut self.out.tag_name_span,
            &mut self.attr_name_span,
            &mut self.attr_value_span,
        ] {
            shift_span(span);
        }
        if let Some(span) = &mut self.last_start_tag_span {
            shift_span(span);
        }
        for a in &mut self.out.attrs {
            shift_span(&mut a.name_span);
            shift_span(&mut a.value_span);
        }
        for (name, value) in &mut self.out.attr_store.rewritten {
            for slot in [name, value] {
                if let Slot::Input(s, e) = slot {
                    shift(s);
                    shift(e);
                }
            }
        }
        for (_, at) in &mut self.limit_errors {
            shift(at);
        }
        // Errors on: `before_dropping` moved the window's line index to
        // `drop` (errors off, the line indexes are never used).
        if E::ENABLED {
            if self.lines.offset() < drop {
                self.lines = self.lines_at_base;
            }
            self.lines.rebase(drop);
            self.lines_at_base.rebase(drop);
        }
    }

    /// Copies the last start tag's name out of the input, for a stream
    /// about to drop input bytes (`text` is its window).
    pub(crate) fn keep_last_start_tag(&mut self, text: &str) {
        if let Some(span) = self.last_start_tag_span.take() {
            self.has_last_start_tag = true;
            self.last_start_tag.clear();
            self.last_start_tag
                .extend_from_slice(&text.as_bytes()[span.start..span.end]);
        }
    }
}
