//! Tokens: what the tokenizer emits, borrowed from the input where possible.
//!
//! A token's strings borrow either the input (when the standard's value is
//! exactly the input bytes, the common case) or the tokenizer's reused scratch
//! storage (when something was rewritten: CR/CRLF, NUL, a character reference,
//! upper-case ASCII in a name). Either way a token lives only until the next
//! call into the tokenizer; [`Token::into_owned`] keeps one longer.

use std::ops::Range;

/// A byte range in the input (for a stream: in the whole stream).
///
/// ```
/// let span = htmltok::Span { start: 3, end: 7 };
/// assert_eq!(span.len(), 4);
/// assert_eq!(&"<p>hello"[span.range()], "hell");
/// ```
///
/// `#[repr(C)]` plain old data (two `usize`s), so that the token tape's
/// records that hold spans cast to bytes (the `tape` feature).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "tape", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The span as a range, for slicing the input.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// Number of bytes covered.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no bytes.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The span `by` bytes later, wrapping: the tokenizer moves spans
    /// between window offsets and absolute offsets (`Machine::rebase`
    /// moves them back by `drop.wrapping_neg()`), and a span of a token
    /// copied out of a stream's window may start before the window, so a
    /// move back may wrap and the move forth wraps back to the exact span.
    pub(crate) fn moved(self, by: usize) -> Span {
        Span {
            start: self.start.wrapping_add(by),
            end: self.end.wrapping_add(by),
        }
    }
}

/// One token of the standard's tokenizer.
///
/// ```
/// use htmltok::{Token, Tokenizer};
/// let mut tok = Tokenizer::new("<!-- hi -->x");
/// assert!(matches!(tok.next_token(), Some(Token::Comment(c)) if c.text == " hi "));
/// assert!(matches!(tok.next_token(), Some(Token::Text(t)) if t.text == "x"));
/// assert!(matches!(tok.next_token(), Some(Token::Eof)));
/// assert!(tok.next_token().is_none());
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Token<'t> {
    /// A DOCTYPE.
    Doctype(Doctype<'t>),
    /// A start tag.
    StartTag(Tag<'t>),
    /// An end tag (its attributes, which the standard drops, are not kept).
    EndTag(Tag<'t>),
    /// A comment; `text` is the comment's data.
    Comment(Text<'t>),
    /// Character data. Adjacent characters come as one token, except that a
    /// stream may split a run at a chunk boundary.
    Text(Text<'t>),
    /// A processing instruction (only with
    /// [`Config::processing_instructions`](crate::Config::processing_instructions)).
    ProcessingInstruction(ProcessingInstruction<'t>),
    /// The end of the input. It comes once, last.
    Eof,
}

/// Character data or comment data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text<'t> {
    /// The characters, as the standard defines them (newlines normalised,
    /// references decoded).
    pub text: &'t str,
    /// The input bytes they came from.
    pub span: Span,
}

/// A start or end tag.
#[derive(Clone, Copy, Debug)]
pub struct Tag<'t> {
    /// The tag name, ASCII-lower-cased.
    pub name: &'t str,
    /// Whether the tag ended with `/>`.
    pub self_closing: bool,
    /// From `<` to `>` inclusive.
    pub span: Span,
    /// The tag name's bytes in the input.
    pub name_span: Span,
    pub(crate) attrs: Attributes<'t>,
}

impl<'t> Tag<'t> {
    /// The attributes in source order, duplicates dropped.
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<a href=x HREF=y id='z'>");
    /// let Some(Token::StartTag(tag)) = tok.next_token() else { panic!() };
    /// let attrs: Vec<_> = tag.attributes().map(|a| (a.name, a.value)).collect();
    /// assert_eq!(attrs, [("href", "x"), ("id", "z")]);
    /// ```
    pub fn attributes(&self) -> Attributes<'t> {
        self.attrs
    }

    /// The value of the attribute with this name, in any ASCII case: the
    /// tokenizer lower-cases ASCII letters in names, as the standard does
    /// (so SVG's `viewBox` is `viewbox` here: restoring such names'
    /// camel case is the tree builder's job, which a tokenizer does not
    /// do), and `"HREF"` finds what `"href"` finds. Non-ASCII letters are
    /// compared as they are.
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<a HREF='/x?a=1&amp;b=2'>");
    /// let Some(Token::StartTag(tag)) = tok.next_token() else { panic!() };
    /// assert_eq!(tag.attribute("href"), Some("/x?a=1&b=2"));
    /// assert_eq!(tag.attribute("HREF"), Some("/x?a=1&b=2"));
    /// assert_eq!(tag.attribute("id"), None);
    ///
    /// let mut tok = Tokenizer::new("<svg viewBox='0 0 8 8'>");
    /// let Some(Token::StartTag(svg)) = tok.next_token() else { panic!() };
    /// assert_eq!(svg.attributes().next().unwrap().name, "viewbox");
    /// assert_eq!(svg.attribute("viewBox"), Some("0 0 8 8"));
    /// ```
    pub fn attribute(&self, name: &str) -> Option<&'t str> {
        // Stored names have no ASCII upper case, so this is equality with
        // `name` lower-cased, without lower-casing it.
        self.attrs
            .clone()
            .find(|a| a.name.eq_ignore_ascii_case(name))
            .map(|a| a.value)
    }
}

/// One attribute of a start tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attribute<'t> {
    /// The name, ASCII-lower-cased.
    pub name: &'t str,
    /// The value, references decoded (empty when the attribute has none).
    pub value: &'t str,
    /// The name's bytes in the input.
    pub name_span: Span,
    /// The value's bytes in the input, without quotes (empty, at the end of
    /// the name, when there is no value).
    pub value_span: Span,
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
///
/// `#[repr(C)]` plain old data: the token tape's public `TapeAttr` has the
/// same layout (asserted in `tape.rs`), and `Tape::tokens` lends its
/// attributes as these records by a checked cast.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "tape", derive(bytemuck::Pod, bytemuck::Zeroable))]
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

// The sizes the docs above rely on, checked at compile time: a larger
// `Token` is moved through `memcpy` on every `next_token`, and a larger
// record slows tags of many attributes (see `AttrRecord`).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<Token<'static>>() == 104);
    assert!(std::mem::size_of::<Attributes<'static>>() == 5 * 8);
    assert!(std::mem::size_of::<AttrRecord>() == 40);
};

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
/// keeps them, and where the window of the current call starts.
#[derive(Debug, Default)]
pub(crate) struct AttrStore {
    /// Slots of the records that are not `VERBATIM`.
    pub(crate) rewritten: Vec<(Slot, Slot)>,
    /// The rewritten strings, one after another (`Slot::Scratch` ranges).
    pub(crate) arena: String,
    /// Absolute offset of the window that input slots are resolved in:
    /// slots and record spans are offsets in it, and this is added to the
    /// spans handed out.
    pub(crate) origin: usize,
}

static NO_STRINGS: AttrStore = AttrStore {
    rewritten: Vec::new(),
    arena: String::new(),
    origin: 0,
};

/// Iterator over a tag's attributes, resolving each on the fly (no allocation).
///
/// Three references (five words): with them a [`Token`] stays small enough
/// (104 bytes on 64-bit targets, asserted beside `AttrRecord`) to be moved without a
/// call to `memcpy`.
#[derive(Clone, Copy)]
pub struct Attributes<'t> {
    pub(crate) records: &'t [AttrRecord],
    /// The input, as a window starting at absolute offset `store.origin`.
    pub(crate) input: &'t str,
    pub(crate) store: &'t AttrStore,
}

impl<'t> Attributes<'t> {
    pub(crate) const EMPTY: Attributes<'static> = Attributes {
        records: &[],
        input: "",
        store: &NO_STRINGS,
    };

    /// The input bytes of `span` (the common case of `resolve`, taken
    /// without building a slot).
    #[inline(always)]
    fn verbatim(&self, span: Span) -> &'t str {
        if span.start == span.end {
            return "";
        }
        slice_or_replacement(self.input, span.start, span.end)
    }

    fn resolve(&self, slot: Slot) -> &'t str {
        resolve(slot, self.input, &self.store.arena)
    }
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

impl<'t> Iterator for Attributes<'t> {
    type Item = Attribute<'t>;

    #[inline(always)]
    fn next(&mut self) -> Option<Attribute<'t>> {
        let (first, rest) = self.records.split_first()?;
        self.records = rest;
        let (name, value) = if first.strings == VERBATIM {
            (
                self.verbatim(first.name_span),
                self.verbatim(first.value_span),
            )
        } else {
            let (name, value) = first.slots(&self.store.rewritten);
            (self.resolve(name), self.resolve(value))
        };
        Some(Attribute {
            name,
            value,
            name_span: first.name_span.moved(self.store.origin),
            value_span: first.value_span.moved(self.store.origin),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.records.len(), Some(self.records.len()))
    }
}

impl ExactSizeIterator for Attributes<'_> {}

impl std::fmt::Debug for Attributes<'_> {
    /// The attributes left, not the input they point into (a whole page).
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let page = format!("<a href=/x>{}", "long text ".repeat(100));
    /// let mut tok = Tokenizer::new(&page);
    /// let Some(token @ Token::StartTag(_)) = tok.next_token() else { panic!() };
    /// let shown = format!("{token:?}");
    /// assert!(shown.contains(r#"name: "href", value: "/x""#) && !shown.contains("long text"));
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

/// A DOCTYPE token. `None` is the standard's *missing*, distinct from empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Doctype<'t> {
    /// The name, ASCII-lower-cased, or `None` when missing.
    pub name: Option<&'t str>,
    /// The public identifier, or `None` when missing.
    pub public_id: Option<&'t str>,
    /// The system identifier, or `None` when missing.
    pub system_id: Option<&'t str>,
    /// The standard's force-quirks flag.
    pub force_quirks: bool,
    /// From `<!` to `>` inclusive.
    pub span: Span,
}

/// A processing instruction `<?target data?>` (only with
/// [`Config::processing_instructions`](crate::Config::processing_instructions)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessingInstruction<'t> {
    /// The target, as written.
    pub target: &'t str,
    /// The data after the target and its whitespace.
    pub data: &'t str,
    /// From `<?` to `>` inclusive.
    pub span: Span,
}

/// A token that owns its strings, for keeping tokens beyond the next call
/// into the tokenizer. Made by [`Token::into_owned`] (or `From<Token>`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OwnedToken {
    /// A DOCTYPE: name, public id, system id (each `None` when missing),
    /// force-quirks.
    Doctype {
        /// The name.
        name: Option<String>,
        /// The public identifier.
        public_id: Option<String>,
        /// The system identifier.
        system_id: Option<String>,
        /// The force-quirks flag.
        force_quirks: bool,
    },
    /// A start tag: name, attributes in order, self-closing flag.
    StartTag {
        /// The name.
        name: String,
        /// The attributes, in order.
        attributes: Vec<(String, String)>,
        /// Whether it ended with `/>`.
        self_closing: bool,
    },
    /// An end tag.
    EndTag {
        /// The name.
        name: String,
    },
    /// A comment.
    Comment(String),
    /// Character data.
    Text(String),
    /// A processing instruction: target, data.
    ProcessingInstruction {
        /// The target.
        target: String,
        /// The data.
        data: String,
    },
    /// End of input.
    Eof,
}

impl From<Token<'_>> for OwnedToken {
    /// [`Token::into_owned`].
    ///
    /// ```
    /// use htmltok::{OwnedToken, Tokenizer};
    /// let mut tok = Tokenizer::new("hi");
    /// let token = tok.next_token().unwrap();
    /// assert_eq!(OwnedToken::from(token), OwnedToken::Text("hi".into()));
    /// ```
    fn from(token: Token<'_>) -> OwnedToken {
        token.into_owned()
    }
}

impl Token<'_> {
    /// The input bytes the token came from; `None` for [`Token::Eof`].
    ///
    /// ```
    /// use htmltok::{Span, Tokenizer};
    /// let mut tok = Tokenizer::new("ab<br>");
    /// assert_eq!(tok.next_token().unwrap().span(), Some(Span { start: 0, end: 2 }));
    /// assert_eq!(tok.next_token().unwrap().span(), Some(Span { start: 2, end: 6 }));
    /// assert_eq!(tok.next_token().unwrap().span(), None);
    /// ```
    pub fn span(&self) -> Option<Span> {
        match self {
            Token::Doctype(d) => Some(d.span),
            Token::StartTag(t) | Token::EndTag(t) => Some(t.span),
            Token::Comment(t) | Token::Text(t) => Some(t.span),
            Token::ProcessingInstruction(p) => Some(p.span),
            Token::Eof => None,
        }
    }

    /// A copy that owns its strings (also `OwnedToken::from(token)`).
    ///
    /// Named `into_owned` rather than `to_owned`, which `Token` has from
    /// `Clone` (through `ToOwned`) and which gives a `Token`. `Token` is
    /// `Copy`, so taking it by value costs nothing.
    ///
    /// ```
    /// use htmltok::{OwnedToken, Tokenizer};
    /// let mut tok = Tokenizer::new("<br/>");
    /// let t = tok.next_token().unwrap().into_owned();
    /// assert_eq!(t, OwnedToken::StartTag { name: "br".into(), attributes: vec![], self_closing: true });
    /// ```
    pub fn into_owned(self) -> OwnedToken {
        match self {
            Token::Doctype(d) => OwnedToken::Doctype {
                name: d.name.map(str::to_owned),
                public_id: d.public_id.map(str::to_owned),
                system_id: d.system_id.map(str::to_owned),
                force_quirks: d.force_quirks,
            },
            Token::StartTag(t) => OwnedToken::StartTag {
                name: t.name.to_owned(),
                attributes: t
                    .attributes()
                    .map(|a| (a.name.to_owned(), a.value.to_owned()))
                    .collect(),
                self_closing: t.self_closing,
            },
            Token::EndTag(t) => OwnedToken::EndTag {
                name: t.name.to_owned(),
            },
            Token::Comment(c) => OwnedToken::Comment(c.text.to_owned()),
            Token::Text(c) => OwnedToken::Text(c.text.to_owned()),
            Token::ProcessingInstruction(p) => OwnedToken::ProcessingInstruction {
                target: p.target.to_owned(),
                data: p.data.to_owned(),
            },
            Token::Eof => OwnedToken::Eof,
        }
    }
}
