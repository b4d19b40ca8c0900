//! The token tape: a whole document's tokens as fixed-size records of plain
//! old data, for consumers that take tokens in bulk (another language, a
//! file, a process) rather than one at a time.
//!
//! A [`Tape`] holds four reusable buffers:
//!
//! - [`records`](Tape::records): one [`TapeToken`] per token, in order;
//! - [`attributes`](Tape::attributes): one [`TapeAttr`] per attribute of
//!   every start tag, in order (a start tag's record names its range);
//! - [`rewritten_attributes`](Tape::rewritten_attributes): for the rare
//!   attribute whose name or value is not its input bytes verbatim, where
//!   both strings are in the side string;
//! - [`strings`](Tape::strings): the side string, holding every string the
//!   standard rewrote (character references, CR/LF, NUL, upper case), so
//!   that nothing is lost.
//!
//! Everything else is a byte range of the input, which the tape does not
//! keep: [`Tape::tokens`] takes the same input again and gives back the
//! [`Token`]s that [`Tokenizer::next_token`] gives. The records are
//! [`bytemuck::Pod`]: `bytemuck::cast_slice` turns them into bytes and
//! `bytemuck::try_cast_slice` back, without copying.
//!
//! Reused across documents, a tape allocates nothing once its buffers have
//! grown to the largest document's needs (the tokenizer's own buffers are
//! the tokenizer's: reuse is the caller's choice there).
//!
//! ```
//! use htmltok::{Tape, TapeToken, Token};
//!
//! let page = "<p class=intro>Fish &amp; chips</p>";
//! let mut tape = Tape::new();
//! tape.tokenize(page);
//! let kinds: Vec<u32> = tape.records().iter().map(|r| r.kind).collect();
//! assert_eq!(kinds, [TapeToken::START_TAG, TapeToken::TEXT, TapeToken::END_TAG, TapeToken::EOF]);
//!
//! // The text was rewritten (`&amp;`): it is in the side string.
//! let text = tape.records()[1];
//! assert_ne!(text.flags & TapeToken::SIDE_0, 0);
//! assert_eq!(&tape.strings()[text.strings[0].range()], "Fish & chips");
//!
//! // The attribute is its input bytes.
//! let p = tape.records()[0];
//! let attr = tape.attributes()[p.strings[2].range()][0];
//! assert_eq!(&page[attr.name.range()], "class");
//! assert_eq!(&page[attr.value.range()], "intro");
//!
//! // Borrowed tokens back, as `next_token` gives them.
//! let texts: Vec<&str> = tape
//!     .tokens(page)
//!     .filter_map(|t| match t {
//!         Token::Text(t) => Some(t.text),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(texts, ["Fish & chips"]);
//! ```

use bytemuck::{Pod, Zeroable};

use crate::token::{AttrRecord, AttrStore, Attributes, Slot, VERBATIM};
use crate::{Doctype, ErrorPolicy, Flow, ProcessingInstruction, Span, Tag, Text, Token, Tokenizer};

/// One token of a [`Tape`]: 72 bytes on 64-bit targets (`#[repr(C)]`,
/// native endian, `usize` offsets), no padding.
///
/// | field | meaning |
/// |---|---|
/// | `kind` | one of [`DOCTYPE`](Self::DOCTYPE), [`START_TAG`](Self::START_TAG), [`END_TAG`](Self::END_TAG), [`COMMENT`](Self::COMMENT), [`TEXT`](Self::TEXT), [`PROCESSING_INSTRUCTION`](Self::PROCESSING_INSTRUCTION), [`EOF`](Self::EOF) |
/// | `flags` | [`SELF_CLOSING`](Self::SELF_CLOSING), [`FORCE_QUIRKS`](Self::FORCE_QUIRKS); [`SIDE_0`](Self::SIDE_0) `<< i`: `strings[i]` is a range of the side string ([`Tape::strings`]), else of the input; [`MISSING_0`](Self::MISSING_0) `<< i`: a DOCTYPE's `strings[i]` is missing (`None`) |
/// | `span` | the input bytes of the whole token (empty for EOF, at the input's end) |
/// | `strings` | by kind, below |
///
/// | kind | `strings[0]` | `strings[1]` | `strings[2]` |
/// |---|---|---|---|
/// | start tag | name | the name's input bytes | indices of its attributes in [`Tape::attributes`] (`start..end`) |
/// | end tag | name | the name's input bytes | empty |
/// | text, comment | the text | empty | empty |
/// | DOCTYPE | name | public id | system id |
/// | processing instruction | target | data | empty |
/// | EOF | empty | empty | empty |
///
/// ```
/// use htmltok::{Tape, TapeToken};
/// assert_eq!(std::mem::size_of::<TapeToken>(), 8 + 4 * std::mem::size_of::<htmltok::Span>());
///
/// let mut tape = Tape::new();
/// tape.tokenize("<!DOCTYPE html><BR/>");
/// let [doctype, br, eof] = tape.records() else { panic!() };
/// assert_eq!(doctype.kind, TapeToken::DOCTYPE);
/// assert_ne!(doctype.flags & (TapeToken::MISSING_0 << 1), 0); // no public id
/// assert_eq!(br.kind, TapeToken::START_TAG);
/// assert_ne!(br.flags & TapeToken::SELF_CLOSING, 0);
/// assert_ne!(br.flags & TapeToken::SIDE_0, 0); // `br` lower-cased, in the side string
/// assert_eq!(&tape.strings()[br.strings[0].range()], "br");
/// assert_eq!(eof.kind, TapeToken::EOF);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct TapeToken {
    /// What token this is (the `u32` constants of this type).
    pub kind: u32,
    /// Bits: see the constants of this type.
    pub flags: u32,
    /// The token's input bytes.
    pub span: Span,
    /// The token's strings, by kind (see the type's table).
    pub strings: [Span; 3],
}

impl TapeToken {
    /// `kind` of a DOCTYPE.
    pub const DOCTYPE: u32 = 0;
    /// `kind` of a start tag.
    pub const START_TAG: u32 = 1;
    /// `kind` of an end tag.
    pub const END_TAG: u32 = 2;
    /// `kind` of a comment.
    pub const COMMENT: u32 = 3;
    /// `kind` of character data.
    pub const TEXT: u32 = 4;
    /// `kind` of a processing instruction.
    pub const PROCESSING_INSTRUCTION: u32 = 5;
    /// `kind` of the end of the input.
    pub const EOF: u32 = 6;

    /// A tag ended with `/>`.
    pub const SELF_CLOSING: u32 = 1;
    /// A DOCTYPE's force-quirks flag.
    pub const FORCE_QUIRKS: u32 = 2;
    /// `strings[0]` is in the side string; `SIDE_0 << i` for `strings[i]`.
    pub const SIDE_0: u32 = 1 << 8;
    /// A DOCTYPE's `strings[0]` is missing; `MISSING_0 << i` for `strings[i]`.
    pub const MISSING_0: u32 = 1 << 16;
}

/// One attribute of a [`Tape`]: 40 bytes on 64-bit targets (`#[repr(C)]`,
/// native endian), no padding.
///
/// `name` and `value` are the input bytes the name and value came from
/// (the value without quotes; empty at the name's end when there is
/// none). When `strings` is `usize::MAX` ([`TapeAttr::VERBATIM`]) they are
/// also the strings; otherwise the strings are entry `strings` of
/// [`Tape::rewritten_attributes`], ranges of the side string.
///
/// ```
/// use htmltok::{Tape, TapeAttr};
/// let page = "<a HREF='/x?a&amp;b' id=top>";
/// let mut tape = Tape::new();
/// tape.tokenize(page);
/// let [href, id] = tape.attributes() else { panic!() };
/// assert_eq!(id.strings, TapeAttr::VERBATIM);
/// assert_eq!(&page[id.value.range()], "top");
/// let rewritten = tape.rewritten_attributes()[href.strings];
/// assert_eq!(&tape.strings()[rewritten.name.range()], "href");
/// assert_eq!(&tape.strings()[rewritten.value.range()], "/x?a&b");
/// assert_eq!(&page[href.value.range()], "/x?a&amp;b");
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct TapeAttr {
    /// The name's input bytes.
    pub name: Span,
    /// The value's input bytes.
    pub value: Span,
    /// [`TapeAttr::VERBATIM`], or an index into [`Tape::rewritten_attributes`].
    pub strings: usize,
}

impl TapeAttr {
    /// `strings` of an attribute whose name and value are their input bytes.
    pub const VERBATIM: usize = usize::MAX;
}

/// Where a rewritten attribute's name and value are: both ranges of the
/// side string ([`Tape::strings`]). 32 bytes on 64-bit targets
/// (`#[repr(C)]`), no padding. See [`TapeAttr`] for an example.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct TapeAttrStrings {
    /// The name, in the side string.
    pub name: Span,
    /// The value, in the side string.
    pub value: Span,
}

// `Tape::tokens` hands the tape's attributes to `Attributes`, which reads
// the tokenizer's own records, by a (checked, safe) cast: the two types
// must stay the same layout, field for field, and `TapeAttr::VERBATIM`
// must be the records' mark of verbatim strings.
const _: () = assert!(std::mem::size_of::<TapeAttr>() == std::mem::size_of::<AttrRecord>());
const _: () = assert!(std::mem::align_of::<TapeAttr>() == std::mem::align_of::<AttrRecord>());
const _: () = assert!(TapeAttr::VERBATIM == VERBATIM);

/// A whole document's tokens as plain-old-data records (see the
/// [module](crate::tape) documentation for the layout).
///
/// ```
/// use htmltok::{Tape, TapeToken};
///
/// // One tape for many pages: its buffers are reused.
/// let mut tape = Tape::new();
/// for page in ["<p>one", "<p>two <b>three</b>"] {
///     tape.tokenize(page);
///     let tags = tape.records().iter().filter(|r| r.kind == TapeToken::START_TAG).count();
///     assert!(tags >= 1);
/// }
///
/// // Zero-copy hand-off: the records as bytes, and back.
/// let bytes: &[u8] = bytemuck::cast_slice(tape.records());
/// let back: &[TapeToken] = bytemuck::try_cast_slice(bytes).unwrap();
/// assert_eq!(back, tape.records());
/// ```
#[derive(Debug, Default)]
pub struct Tape {
    records: Vec<TapeToken>,
    attrs: Vec<TapeAttr>,
    rewritten: Vec<TapeAttrStrings>,
    /// The side string (`store.arena`), and the rewritten attributes'
    /// strings as `Attributes` reads them (`store.rewritten`, one entry
    /// per entry of `rewritten`, the same ranges as `Slot::Scratch`);
    /// origin 0: every span is an offset of the whole input.
    store: AttrStore,
}

/// Where a string handed out by the tokenizer lives: `Some(range)` when it
/// is a slice of the input (base address `base`, `len` bytes), else `None`.
/// Addresses only compare: a string in the tokenizer's scratch storage
/// is another allocation, so it is never inside the input's range.
#[inline(always)]
fn input_range(s: &str, base: usize, len: usize) -> Option<Span> {
    let start = (s.as_ptr() as usize).wrapping_sub(base);
    (start <= len && s.len() <= len - start).then_some(Span {
        start,
        end: start + s.len(),
    })
}

impl Tape {
    /// An empty tape.
    ///
    /// ```
    /// assert!(htmltok::Tape::new().records().is_empty());
    /// ```
    pub fn new() -> Tape {
        Tape::default()
    }

    /// Forgets the tokens, keeping the buffers.
    ///
    /// ```
    /// let mut tape = htmltok::Tape::new();
    /// tape.tokenize("<p>");
    /// tape.clear();
    /// assert!(tape.records().is_empty() && tape.attributes().is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.records.clear();
        self.attrs.clear();
        self.rewritten.clear();
        self.store.rewritten.clear();
        self.store.arena.clear();
    }

    /// Tokenizes `input` as a whole document (the default [`Config`]:
    /// standalone, parse errors off), replacing what the tape held.
    ///
    /// [`Config`]: crate::Config
    ///
    /// ```
    /// let mut tape = htmltok::Tape::new();
    /// tape.tokenize("<title>a <b></title>");
    /// assert_eq!(tape.records().len(), 4); // <title>, "a <b>", </title>, EOF
    /// ```
    pub fn tokenize(&mut self, input: &str) {
        self.record(&mut Tokenizer::new(input));
    }

    /// Records the tokens that `tokenizer` has left (any configuration,
    /// errors on or off: the errors stay in the tokenizer), replacing what
    /// the tape held. [`tokens`](Self::tokens) then takes
    /// `tokenizer.input()`.
    ///
    /// ```
    /// use htmltok::{Config, Tape, Tokenizer};
    /// let mut tok = Tokenizer::with_config("<p a=1 a=2>", Config::new().report_errors());
    /// let mut tape = Tape::new();
    /// tape.record(&mut tok);
    /// assert_eq!(tape.attributes().len(), 1);
    /// assert_eq!(tok.errors().len(), 1); // duplicate-attribute
    /// ```
    pub fn record<E: ErrorPolicy>(&mut self, tokenizer: &mut Tokenizer<'_, E>) {
        self.record_with(tokenizer, |_| Flow::Continue);
    }

    /// As [`record`](Self::record), asking `flow` after each token what to
    /// do next: a tree builder driving the tokenizer switches its state
    /// here ([`Flow::Switch`]), or stops ([`Flow::Stop`]: the tape then
    /// holds the tokens so far, and a later `record_with` replaces them
    /// with the rest).
    ///
    /// ```
    /// use htmltok::{Config, Flow, State, Tape, TapeToken, Token, Tokenizer};
    /// let page = "<script>a<b</script>";
    /// let mut tok = Tokenizer::with_config(page, Config::new().driven(true));
    /// let mut tape = Tape::new();
    /// tape.record_with(&mut tok, |token| match token {
    ///     Token::StartTag(tag) if tag.name == "script" => Flow::Switch(State::ScriptData),
    ///     _ => Flow::Continue,
    /// });
    /// assert_eq!(tape.records()[1].kind, TapeToken::TEXT);
    /// assert_eq!(&page[tape.records()[1].strings[0].range()], "a<b");
    /// ```
    pub fn record_with<E, F>(&mut self, tokenizer: &mut Tokenizer<'_, E>, mut flow: F)
    where
        E: ErrorPolicy,
        F: FnMut(&Token<'_>) -> Flow,
    {
        self.clear();
        let input = tokenizer.input();
        let (base, len) = (input.as_ptr() as usize, input.len());
        tokenizer.for_each_token(|token| {
            self.push(&token, base, len);
            flow(&token)
        });
    }

    /// The string `s` as a range of the input, else copied to the side
    /// string and flagged there (`side`).
    #[inline(always)]
    fn place(&mut self, s: &str, base: usize, len: usize, flags: &mut u32, side: u32) -> Span {
        if let Some(span) = input_range(s, base, len) {
            return span;
        }
        *flags |= side;
        self.copy_to_side(s)
    }

    #[cold]
    #[inline(never)]
    fn copy_to_side(&mut self, s: &str) -> Span {
        let start = self.store.arena.len();
        self.store.arena.push_str(s);
        Span {
            start,
            end: self.store.arena.len(),
        }
    }

    #[inline(always)]
    fn push(&mut self, token: &Token<'_>, base: usize, len: usize) {
        let mut flags = 0;
        let empty = Span::default();
        let (kind, span, strings) = match token {
            Token::StartTag(tag) | Token::EndTag(tag) => {
                let start_tag = matches!(token, Token::StartTag(_));
                let name = self.place(tag.name, base, len, &mut flags, TapeToken::SIDE_0);
                if tag.self_closing {
                    flags |= TapeToken::SELF_CLOSING;
                }
                let first = self.attrs.len();
                if start_tag {
                    self.push_attributes(tag.attrs, base, len);
                }
                let attrs = Span {
                    start: first,
                    end: self.attrs.len(),
                };
                let kind = if start_tag {
                    TapeToken::START_TAG
                } else {
                    TapeToken::END_TAG
                };
                (kind, tag.span, [name, tag.name_span, attrs])
            }
            Token::Text(text) | Token::Comment(text) => {
                let kind = if matches!(token, Token::Text(_)) {
                    TapeToken::TEXT
                } else {
                    TapeToken::COMMENT
                };
                let s = self.place(text.text, base, len, &mut flags, TapeToken::SIDE_0);
                (kind, text.span, [s, empty, empty])
            }
            Token::Doctype(d) => {
                if d.force_quirks {
                    flags |= TapeToken::FORCE_QUIRKS;
                }
                let mut strings = [empty; 3];
                for (i, s) in [d.name, d.public_id, d.system_id].into_iter().enumerate() {
                    match s {
                        Some(s) => {
                            strings[i] =
                                self.place(s, base, len, &mut flags, TapeToken::SIDE_0 << i)
                        }
                        None => flags |= TapeToken::MISSING_0 << i,
                    }
                }
                (TapeToken::DOCTYPE, d.span, strings)
            }
            Token::ProcessingInstruction(pi) => {
                let target = self.place(pi.target, base, len, &mut flags, TapeToken::SIDE_0);
                let data = self.place(pi.data, base, len, &mut flags, TapeToken::SIDE_0 << 1);
                (
                    TapeToken::PROCESSING_INSTRUCTION,
                    pi.span,
                    [target, data, empty],
                )
            }
            Token::Eof => {
                let at = Span {
                    start: len,
                    end: len,
                };
                (TapeToken::EOF, at, [empty; 3])
            }
        };
        self.records.push(TapeToken {
            kind,
            flags,
            span,
            strings,
        });
    }

    /// A tag's attributes. The tokenizer's own records already say
    /// whether an attribute is its input bytes verbatim, and `TapeAttr`
    /// has their layout: a whole document's (its window is the input,
    /// origin 0) verbatim records are copied as they are, one copy per
    /// tag, without resolving a string.
    #[inline(always)]
    fn push_attributes(&mut self, attrs: Attributes<'_>, base: usize, len: usize) {
        if attrs.store.origin == 0 && attrs.records.iter().all(|r| r.strings == VERBATIM) {
            self.attrs
                .extend_from_slice(bytemuck::cast_slice::<AttrRecord, TapeAttr>(attrs.records));
            return;
        }
        for attr in attrs {
            self.push_attribute(&attr, base, len);
        }
    }

    #[inline(never)]
    fn push_attribute(&mut self, attr: &crate::Attribute<'_>, base: usize, len: usize) {
        // Verbatim when both strings are exactly their spans' input bytes
        // (the common case: one record, nothing copied).
        let verbatim = input_range(attr.name, base, len) == Some(attr.name_span)
            && (attr.value.is_empty() && attr.value_span.is_empty()
                || input_range(attr.value, base, len) == Some(attr.value_span));
        let strings = if verbatim {
            TapeAttr::VERBATIM
        } else {
            let name = self.copy_to_side(attr.name);
            let value = self.copy_to_side(attr.value);
            self.store.rewritten.push((
                Slot::Scratch(name.start, name.end),
                Slot::Scratch(value.start, value.end),
            ));
            self.rewritten.push(TapeAttrStrings { name, value });
            self.rewritten.len() - 1
        };
        self.attrs.push(TapeAttr {
            name: attr.name_span,
            value: attr.value_span,
            strings,
        });
    }

    /// The token records, in order.
    pub fn records(&self) -> &[TapeToken] {
        &self.records
    }

    /// The attribute records of every start tag, in order.
    pub fn attributes(&self) -> &[TapeAttr] {
        &self.attrs
    }

    /// The strings of the attributes whose `strings` is not
    /// [`TapeAttr::VERBATIM`].
    pub fn rewritten_attributes(&self) -> &[TapeAttrStrings] {
        &self.rewritten
    }

    /// The side string: every string the standard rewrote, one after another.
    pub fn strings(&self) -> &str {
        &self.store.arena
    }

    /// The tokens, as [`Tokenizer::next_token`] gave them, their strings
    /// borrowed from `input` and the tape. `input` must be the text the
    /// tape recorded (the `&str` given to [`tokenize`](Self::tokenize), or
    /// the tokenizer's [`input`](Tokenizer::input)); another text gives
    /// wrong strings (never a panic).
    ///
    /// ```
    /// use htmltok::{Tape, Token};
    /// let page = "<a href=/x>A</a>";
    /// let mut tape = Tape::new();
    /// tape.tokenize(page);
    /// let Some(Token::StartTag(a)) = tape.tokens(page).next() else { panic!() };
    /// assert_eq!(a.attribute("href"), Some("/x"));
    /// ```
    pub fn tokens<'t>(&'t self, input: &'t str) -> TapeTokens<'t> {
        TapeTokens {
            tape: self,
            input,
            next: 0,
        }
    }

    fn string<'t>(&'t self, input: &'t str, flags: u32, i: usize, span: Span) -> &'t str {
        let from = if flags & (TapeToken::SIDE_0 << i) != 0 {
            self.store.arena.as_str()
        } else {
            input
        };
        from.get(span.range()).unwrap_or("\u{FFFD}")
    }

    fn token<'t>(&'t self, input: &'t str, r: &TapeToken) -> Token<'t> {
        let s = |i: usize| self.string(input, r.flags, i, r.strings[i]);
        match r.kind {
            TapeToken::START_TAG | TapeToken::END_TAG => {
                let attrs = self.attrs.get(r.strings[2].range()).unwrap_or(&[]);
                let tag = Tag {
                    name: s(0),
                    self_closing: r.flags & TapeToken::SELF_CLOSING != 0,
                    span: r.span,
                    name_span: r.strings[1],
                    attrs: Attributes {
                        records: bytemuck::cast_slice(attrs),
                        input,
                        store: &self.store,
                    },
                };
                if r.kind == TapeToken::START_TAG {
                    Token::StartTag(tag)
                } else {
                    Token::EndTag(tag)
                }
            }
            TapeToken::TEXT | TapeToken::COMMENT => {
                let text = Text {
                    text: s(0),
                    span: r.span,
                };
                if r.kind == TapeToken::TEXT {
                    Token::Text(text)
                } else {
                    Token::Comment(text)
                }
            }
            TapeToken::DOCTYPE => {
                let opt = |i: usize| (r.flags & (TapeToken::MISSING_0 << i) == 0).then(|| s(i));
                Token::Doctype(Doctype {
                    name: opt(0),
                    public_id: opt(1),
                    system_id: opt(2),
                    force_quirks: r.flags & TapeToken::FORCE_QUIRKS != 0,
                    span: r.span,
                })
            }
            TapeToken::PROCESSING_INSTRUCTION => {
                Token::ProcessingInstruction(ProcessingInstruction {
                    target: s(0),
                    data: s(1),
                    span: r.span,
                })
            }
            _ => Token::Eof,
        }
    }
}

/// The tokens of a [`Tape`], from [`Tape::tokens`].
#[derive(Clone, Debug)]
pub struct TapeTokens<'t> {
    tape: &'t Tape,
    input: &'t str,
    next: usize,
}

impl<'t> Iterator for TapeTokens<'t> {
    type Item = Token<'t>;

    fn next(&mut self) -> Option<Token<'t>> {
        let record = self.tape.records.get(self.next)?;
        self.next += 1;
        Some(self.tape.token(self.input, record))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.tape.records.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for TapeTokens<'_> {}
