//! The machine's output: what tokens are views of. [`Output`] holds the
//! strings and spans of the token being built and of the one handed out
//! last; a tag's attributes are [`AttrRecord`]s, whose strings are their
//! input spans ([`VERBATIM`]) or [`Slot`]s in the tag's [`AttrStore`].
//! Nothing here is public: the token views of `crate::token` read it.

use crate::token::Span;
use crate::tokenizer::Field;

/// The machine's storage that tokens are read from: the strings and spans
/// of the token being built, and of the one handed out last (until the
/// next call).
#[derive(Debug, Default)]
pub(crate) struct Output {
    /// The pending text and the input bytes it came from.
    pub(crate) text: Field,
    pub(crate) text_span: Span,
    /// The span of the non-text token emitted last: from its `<` to its
    /// `>` inclusive (empty at the end for EOF).
    pub(crate) span: Span,
    pub(crate) tag_is_end: bool,
    pub(crate) self_closing: bool,
    pub(crate) tag_name: Field,
    pub(crate) tag_name_span: Span,
    /// The tag's attributes, in input order, duplicates dropped.
    pub(crate) attrs: Vec<AttrRecord>,
    /// The rewritten strings of the attributes that are not `VERBATIM`.
    pub(crate) attr_store: AttrStore,
    /// Whether the tag handed out shows its attributes: not for end tags,
    /// nor with `SkipAttributes` (set when the tag is emitted).
    pub(crate) attrs_shown: bool,
    /// The comment's data (also a processing instruction's).
    pub(crate) comment: Field,
    pub(crate) pi_target: Field,
    pub(crate) doctype_name: Field,
    pub(crate) doctype_public: Field,
    pub(crate) doctype_system: Field,
    pub(crate) has_doctype_name: bool,
    pub(crate) has_doctype_public: bool,
    pub(crate) has_doctype_system: bool,
    pub(crate) force_quirks: bool,
    /// Absolute offset of the window the machine ran in last: added to the
    /// window offsets above when spans are handed out.
    pub(crate) origin: usize,
}

/// Where a token string lives: in the input, or in the tokenizer's scratch
/// storage. The tokenizer resolves these when it hands out a token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The empty string.
    #[default]
    Empty,
    /// Bytes `start..end` of the input, as offsets in the window the token
    /// is resolved in (not absolute: `AttrStore::origin` is added to spans
    /// only when they are handed out).
    Input(usize, usize),
    /// Bytes `start..end` of the tokenizer's scratch `String`.
    Scratch(usize, usize),
}

/// An attribute as the tokenizer stores it, before it is resolved to strings.
///
/// 40 bytes (asserted below the struct). Most attributes are their input bytes verbatim (nothing to
/// lower-case, decode or normalise), so the spans say it all; the others
/// keep their two slots in a side list. Storing both slots in every record
/// made it twice the size, and a tag of a million attributes much slower
/// to build (page faults and cache misses on the records).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AttrRecord {
    pub name_span: Span,
    pub value_span: Span,
    /// `VERBATIM`; `IN_ARENA | q` when the verbatim name and value were
    /// copied to the scratch arena at `q` (one after the other, as long as
    /// their spans: a stream detaching a huge tag from its window); else
    /// the index of the name's and value's slots in the tag's list of
    /// rewritten strings.
    pub strings: usize,
}

// The size the docs rely on, checked at compile time: a larger attribute
// record slows tags of many attributes (see `AttrRecord`).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<AttrRecord>() == 40);

/// `AttrRecord::strings` of an attribute whose name and value are the
/// input bytes of their spans.
pub(crate) const VERBATIM: usize = usize::MAX;

/// Flag of `AttrRecord::strings` for verbatim strings moved to the arena.
/// Arena offsets stay below it: the arena holds at most the input's bytes.
pub(crate) const IN_ARENA: usize = 1 << (usize::BITS - 1);

impl AttrRecord {
    /// The name's and value's slots.
    pub(crate) fn slots(&self, rewritten: &[(Slot, Slot)]) -> (Slot, Slot) {
        if self.strings == VERBATIM {
            (
                Slot::of_span(self.name_span),
                Slot::of_span(self.value_span),
            )
        } else if self.strings & IN_ARENA != 0 {
            // The spans of a record copied out of a stream's window may
            // start in bytes the window has dropped since: their offsets
            // then wrap below zero (see `Machine::rebase`), and the
            // lengths are wrapping differences.
            let q = self.strings & !IN_ARENA;
            let name_end = q + self.name_span.end.wrapping_sub(self.name_span.start);
            let value_end = name_end + self.value_span.end.wrapping_sub(self.value_span.start);
            let slot = |s, e| {
                if s == e {
                    Slot::Empty
                } else {
                    Slot::Scratch(s, e)
                }
            };
            (slot(q, name_end), slot(name_end, value_end))
        } else {
            rewritten
                .get(self.strings)
                .copied()
                .unwrap_or((Slot::Empty, Slot::Empty))
        }
    }

    /// Where the first of the name's and value's input bytes starts, when
    /// either is still borrowed from the input (the name comes first).
    pub(crate) fn borrowed_start(&self, rewritten: &[(Slot, Slot)]) -> Option<usize> {
        let (name, value) = self.slots(rewritten);
        [name, value].into_iter().find_map(|slot| match slot {
            Slot::Input(start, _) => Some(start),
            _ => None,
        })
    }
}

impl Slot {
    /// The input bytes of `span`.
    pub(crate) fn of_span(span: Span) -> Slot {
        if span.start == span.end {
            Slot::Empty
        } else {
            Slot::Input(span.start, span.end)
        }
    }
}

/// A tag's attribute strings that are not input bytes, as the tokenizer
/// keeps them.
#[derive(Debug, Default)]
pub(crate) struct AttrStore {
    /// Slots of the records that are not `VERBATIM`.
    pub(crate) rewritten: Vec<(Slot, Slot)>,
    /// The rewritten strings, one after another (`Slot::Scratch` ranges).
    pub(crate) arena: String,
}

/// Turns a slot into a string.
///
/// Input slots are slices of the (already valid) input text: every slot
/// covers whole characters, because the tokenizer only ever ends a borrowed
/// range at an ASCII byte, the end of a token or the end of a window, all
/// character boundaries. Scratch slots are ranges of the tokenizer's
/// scratch `String`, into which whole strings are appended one after
/// another.
pub(crate) fn resolve<'t>(slot: Slot, input: &'t str, scratch: &'t str) -> &'t str {
    match slot {
        Slot::Empty => "",
        Slot::Input(s, e) => slice_or_replacement(input, s, e),
        Slot::Scratch(s, e) => slice_or_replacement(scratch, s, e),
    }
}

/// `text[s..e]`, which the tokenizer's invariants make whole characters
/// inside `text`. A broken invariant fails a `debug_assert!` (tests and
/// fuzzing run with them) and shows as U+FFFD in a release build, never
/// as a panic in a user's program.
#[inline(always)]
pub(crate) fn slice_or_replacement(text: &str, s: usize, e: usize) -> &str {
    let slice = text.get(s..e);
    debug_assert!(
        slice.is_some(),
        "{s}..{e} is not a range of whole characters in a text of {} bytes",
        text.len()
    );
    slice.unwrap_or("\u{FFFD}")
}
