//! Tokens: what the tokenizer emits, as views of its storage.
//!
//! A token is a kind and a view: spans and flags in the tokenizer's
//! storage ([`Output`]), strings resolved when asked for. A string
//! borrows either the input (when the standard's value is exactly the
//! input bytes, the common case) or the tokenizer's reused scratch storage
//! (when something was rewritten: CR/CRLF, NUL, a character reference,
//! upper-case ASCII in a name). Either way a token lives only until the
//! next call into the tokenizer; [`Token::into_owned`] keeps one longer.

use std::ops::Range;

use crate::tokenizer::{resolve, AttrRecord, Field, Output, VERBATIM};

/// A byte range in the input (for a stream: in the whole stream).
///
/// ```
/// let span = htmltok::Span { start: 3, end: 7 };
/// assert_eq!(span.len(), 4);
/// assert_eq!(&"<p>hello"[span.range()], "hell");
/// ```
///
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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
/// A token is a view of the tokenizer's storage: its spans and flags are
/// there, and its strings are resolved when asked for (`tag.name()`,
/// `attr.value()`, `text.as_str()`): slices of the input when the
/// standard's value is the input's bytes, else of the tokenizer's scratch
/// space. Nothing is sliced or copied that the caller does not read.
///
/// ```
/// use htmltok::{Token, Tokenizer};
/// let mut tok = Tokenizer::new("<!-- hi -->x");
/// assert!(matches!(tok.next_token(), Some(Token::Comment(c)) if c.as_str() == " hi "));
/// assert!(matches!(tok.next_token(), Some(Token::Text(t)) if t.as_str() == "x"));
/// assert!(matches!(tok.next_token(), Some(Token::Eof)));
/// assert!(tok.next_token().is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Token<'t> {
    /// A DOCTYPE.
    Doctype(Doctype<'t>),
    /// A start tag.
    StartTag(Tag<'t>),
    /// An end tag (its attributes, which the standard drops, are not kept).
    EndTag(Tag<'t>),
    /// A comment.
    Comment(Comment<'t>),
    /// Character data. Adjacent characters come as one token, except that a
    /// stream may split a run at a chunk boundary.
    Text(Text<'t>),
    /// A processing instruction (only with
    /// [`Config::processing_instructions`](crate::Config::processing_instructions)).
    ProcessingInstruction(ProcessingInstruction<'t>),
    /// The end of the input. It comes once, last.
    Eof,
}

/// What every token view holds: the tokenizer's storage and the window of
/// the input it refers to (the whole input for a whole document).
#[derive(Clone, Copy)]
pub(crate) struct Src<'t> {
    pub(crate) out: &'t Output,
    pub(crate) input: &'t str,
}

impl<'t> Src<'t> {
    /// A field's text: its scratch copy when the standard rewrote it, else
    /// its input bytes.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn field(self, field: &'t Field) -> &'t str {
        if field.owned {
            return &field.buf;
        }
        // SAFETY: a field of the output, not owned: its borrowed range, in
        // the window the view is lent with (`input_str`'s first case).
        unsafe { input_str(self.input, field.start, field.end) }
    }

    /// A window offset as an absolute one.
    #[inline(always)]
    fn absolute(self, span: Span) -> Span {
        span.moved(self.out.origin)
    }
}

/// Character data.
#[derive(Clone, Copy)]
pub struct Text<'t> {
    pub(crate) src: Src<'t>,
}

impl<'t> Text<'t> {
    /// The characters, as the standard defines them (newlines normalised,
    /// references decoded, NUL as the standard says per state).
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("fish &amp; chips\r\n");
    /// let Some(Token::Text(text)) = tok.next_token() else { panic!() };
    /// assert_eq!(text.as_str(), "fish & chips\n");
    /// ```
    #[inline]
    pub fn as_str(&self) -> &'t str {
        self.src.field(&self.src.out.text)
    }

    /// The input bytes the characters came from.
    ///
    /// ```
    /// use htmltok::{Span, Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<p>a&lt;b");
    /// tok.next_token();
    /// let Some(Token::Text(text)) = tok.next_token() else { panic!() };
    /// assert_eq!(text.span(), Span { start: 3, end: 9 });
    /// ```
    #[inline]
    pub fn span(&self) -> Span {
        self.src.absolute(self.src.out.text_span)
    }
}

/// A comment.
#[derive(Clone, Copy)]
pub struct Comment<'t> {
    pub(crate) src: Src<'t>,
}

impl<'t> Comment<'t> {
    /// The comment's data (between `<!--` and `-->`, as the standard reads
    /// it; a bogus comment's text).
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<!-- a -- b --><?php x ?>");
    /// let Some(Token::Comment(c)) = tok.next_token() else { panic!() };
    /// assert_eq!(c.as_str(), " a -- b ");
    /// let Some(Token::Comment(c)) = tok.next_token() else { panic!() };
    /// assert_eq!(c.as_str(), "?php x ?");
    /// ```
    #[inline]
    pub fn as_str(&self) -> &'t str {
        self.src.field(&self.src.out.comment)
    }

    /// From `<!` (or `<?`, `</`) to `>` inclusive.
    #[inline]
    pub fn span(&self) -> Span {
        self.src.absolute(self.src.out.span)
    }
}

/// A start or end tag.
#[derive(Clone, Copy)]
pub struct Tag<'t> {
    pub(crate) src: Src<'t>,
}

impl<'t> Tag<'t> {
    /// The tag name, ASCII-lower-cased.
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<DIV class=x>");
    /// let Some(Token::StartTag(tag)) = tok.next_token() else { panic!() };
    /// assert_eq!(tag.name(), "div");
    /// ```
    #[inline]
    pub fn name(&self) -> &'t str {
        self.src.field(&self.src.out.tag_name)
    }

    /// Whether the tag ended with `/>`.
    #[inline]
    pub fn self_closing(&self) -> bool {
        self.src.out.self_closing
    }

    /// From `<` to `>` inclusive.
    #[inline]
    pub fn span(&self) -> Span {
        self.src.absolute(self.src.out.span)
    }

    /// The tag name's bytes in the input.
    #[inline]
    pub fn name_span(&self) -> Span {
        self.src.absolute(self.src.out.tag_name_span)
    }

    /// The attributes in source order, duplicates dropped (none for an end
    /// tag, or from a tokenizer that
    /// [skips attributes](crate::Config::skip_attributes)).
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<a href=x HREF=y id='z'>");
    /// let Some(Token::StartTag(tag)) = tok.next_token() else { panic!() };
    /// let attrs: Vec<_> = tag.attributes().map(|a| (a.name(), a.value())).collect();
    /// assert_eq!(attrs, [("href", "x"), ("id", "z")]);
    /// ```
    #[inline]
    pub fn attributes(&self) -> Attributes<'t> {
        let out = self.src.out;
        // The records, or none: their count masked by the flag (a `bool`
        // is 0 or 1), one slice of `attrs` either way, where a choice of
        // two slices was a test and two conditional moves.
        let shown = out.attrs.len() & usize::from(out.attrs_shown).wrapping_neg();
        let records: &'t [AttrRecord] = &out.attrs[..shown];
        Attributes {
            records: records.iter(),
            src: self.src,
        }
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
    /// assert_eq!(svg.attributes().next().unwrap().name(), "viewbox");
    /// assert_eq!(svg.attribute("viewBox"), Some("0 0 8 8"));
    /// ```
    pub fn attribute(&self, name: &str) -> Option<&'t str> {
        // Stored names have no ASCII upper case, so this is equality with
        // `name` lower-cased, without lower-casing it.
        self.attributes()
            .find(|a| a.name().eq_ignore_ascii_case(name))
            .map(|a| a.value())
    }
}

/// One attribute of a start tag.
#[derive(Clone, Copy)]
pub struct Attribute<'t> {
    record: &'t AttrRecord,
    src: Src<'t>,
}

impl<'t> Attribute<'t> {
    /// The name, ASCII-lower-cased.
    #[inline]
    #[allow(unsafe_code)]
    pub fn name(&self) -> &'t str {
        let r = self.record;
        if r.strings == VERBATIM {
            // SAFETY: a `VERBATIM` record's span, in the window the view is
            // lent with (`input_str`'s second case).
            return unsafe { input_str(self.src.input, r.name_span.start, r.name_span.end) };
        }
        rewritten(r, self.src.out, self.src.input, false)
    }

    /// The value, references decoded (empty when the attribute has none).
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<input value='a&amp;b' disabled>");
    /// let Some(Token::StartTag(tag)) = tok.next_token() else { panic!() };
    /// let values: Vec<_> = tag.attributes().map(|a| a.value()).collect();
    /// assert_eq!(values, ["a&b", ""]);
    /// ```
    #[inline]
    #[allow(unsafe_code)]
    pub fn value(&self) -> &'t str {
        let r = self.record;
        if r.strings == VERBATIM {
            // SAFETY: as for the name.
            return unsafe { input_str(self.src.input, r.value_span.start, r.value_span.end) };
        }
        rewritten(r, self.src.out, self.src.input, true)
    }

    /// The name's bytes in the input.
    #[inline]
    pub fn name_span(&self) -> Span {
        self.src.absolute(self.record.name_span)
    }

    /// The value's bytes in the input, without quotes (empty, at the end of
    /// the name, when there is no value).
    ///
    /// ```
    /// use htmltok::{Span, Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<a href='/x' hidden>");
    /// let Some(Token::StartTag(tag)) = tok.next_token() else { panic!() };
    /// let spans: Vec<_> = tag.attributes().map(|a| a.value_span()).collect();
    /// assert_eq!(spans, [Span { start: 9, end: 11 }, Span { start: 19, end: 19 }]);
    /// ```
    #[inline]
    pub fn value_span(&self) -> Span {
        self.src.absolute(self.record.value_span)
    }
}

/// The name (or, if `value`, the value) of an attribute whose strings are
/// not both its input bytes, from its slots.
///
/// Given the record, the output and the input as arguments, which go in
/// registers: a method on the `Attribute` took a reference to it, and the
/// compiler stored every attribute a caller iterated over in memory for
/// this rare call.
#[cold]
#[inline(never)]
fn rewritten<'t>(record: &'t AttrRecord, out: &'t Output, input: &'t str, value: bool) -> &'t str {
    let (name_slot, value_slot) = record.slots(&out.attr_store.rewritten);
    let slot = if value { value_slot } else { name_slot };
    resolve(slot, input, &out.attr_store.arena)
}

impl PartialEq for Attribute<'_> {
    /// The same name, value and spans.
    fn eq(&self, other: &Self) -> bool {
        (
            self.name(),
            self.value(),
            self.name_span(),
            self.value_span(),
        ) == (
            other.name(),
            other.value(),
            other.name_span(),
            other.value_span(),
        )
    }
}

impl Eq for Attribute<'_> {}

impl std::fmt::Debug for Attribute<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attribute")
            .field("name", &self.name())
            .field("value", &self.value())
            .field("name_span", &self.name_span())
            .field("value_span", &self.value_span())
            .finish()
    }
}

/// Iterator over a tag's attributes, each resolved when its strings are
/// asked for (no allocation).
#[derive(Clone)]
pub struct Attributes<'t> {
    records: std::slice::Iter<'t, AttrRecord>,
    src: Src<'t>,
}

impl<'t> Attributes<'t> {
    /// Every attribute record of the tag in `src`, shown or not (what the
    /// feedback reads of a tag handed out without them).
    pub(crate) fn all(src: Src<'t>) -> Attributes<'t> {
        Attributes {
            records: src.out.attrs.iter(),
            src,
        }
    }
}

impl<'t> Iterator for Attributes<'t> {
    type Item = Attribute<'t>;

    #[inline(always)]
    fn next(&mut self) -> Option<Attribute<'t>> {
        let record = self.records.next()?;
        Some(Attribute {
            record,
            src: self.src,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.records.size_hint()
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
        f.debug_list().entries(self.clone()).finish()
    }
}

/// A DOCTYPE token. `None` is the standard's *missing*, distinct from empty.
#[derive(Clone, Copy)]
pub struct Doctype<'t> {
    pub(crate) src: Src<'t>,
}

impl<'t> Doctype<'t> {
    /// The name, ASCII-lower-cased, or `None` when missing.
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">");
    /// let Some(Token::Doctype(d)) = tok.next_token() else { panic!() };
    /// assert_eq!(d.name(), Some("html"));
    /// assert_eq!(d.public_id(), Some("-//W3C//DTD HTML 4.01//EN"));
    /// assert_eq!((d.system_id(), d.force_quirks()), (None, false));
    /// ```
    pub fn name(&self) -> Option<&'t str> {
        let out = self.src.out;
        out.has_doctype_name
            .then(|| self.src.field(&out.doctype_name))
    }

    /// The public identifier, or `None` when missing.
    pub fn public_id(&self) -> Option<&'t str> {
        let out = self.src.out;
        out.has_doctype_public
            .then(|| self.src.field(&out.doctype_public))
    }

    /// The system identifier, or `None` when missing.
    pub fn system_id(&self) -> Option<&'t str> {
        let out = self.src.out;
        out.has_doctype_system
            .then(|| self.src.field(&out.doctype_system))
    }

    /// The standard's force-quirks flag.
    pub fn force_quirks(&self) -> bool {
        self.src.out.force_quirks
    }

    /// From `<!` to `>` inclusive.
    pub fn span(&self) -> Span {
        self.src.absolute(self.src.out.span)
    }
}

/// A processing instruction `<?target data?>` (only with
/// [`Config::processing_instructions`](crate::Config::processing_instructions)).
#[derive(Clone, Copy)]
pub struct ProcessingInstruction<'t> {
    pub(crate) src: Src<'t>,
}

impl<'t> ProcessingInstruction<'t> {
    /// The target, as written.
    ///
    /// ```
    /// use htmltok::{Config, Token, Tokenizer};
    /// let mut tok = Tokenizer::with_config("<?php echo 1 ?>", Config::new().processing_instructions(true));
    /// let Some(Token::ProcessingInstruction(pi)) = tok.next_token() else { panic!() };
    /// assert_eq!((pi.target(), pi.data()), ("php", "echo 1 "));
    /// ```
    pub fn target(&self) -> &'t str {
        self.src.field(&self.src.out.pi_target)
    }

    /// The data after the target and its whitespace.
    pub fn data(&self) -> &'t str {
        self.src.field(&self.src.out.comment)
    }

    /// From `<?` to `>` inclusive.
    pub fn span(&self) -> Span {
        self.src.absolute(self.src.out.span)
    }
}

// Views compare and print what they show, not the storage they read.
macro_rules! view_traits {
    ($ty:ident { $($field:ident),* }) => {
        impl PartialEq for $ty<'_> {
            fn eq(&self, other: &Self) -> bool {
                $(self.$field() == other.$field())&&*
            }
        }

        impl Eq for $ty<'_> {}

        impl std::fmt::Debug for $ty<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($ty))
                    $(.field(stringify!($field), &self.$field()))*
                    .finish()
            }
        }
    };
}

view_traits!(Text { as_str, span });
view_traits!(Comment { as_str, span });
view_traits!(Tag {
    name,
    self_closing,
    span,
    name_span,
    attributes_list
});
view_traits!(Doctype {
    name,
    public_id,
    system_id,
    force_quirks,
    span
});
view_traits!(ProcessingInstruction { target, data, span });

impl<'t> Tag<'t> {
    /// Every attribute as built, also when the tag does not show them (with
    /// `SkipAttributes`, the few that standalone mode's feedback reads are
    /// built: `<font color>`, `<input type>`, `<annotation-xml encoding>`).
    pub(crate) fn all_attributes(&self) -> Attributes<'t> {
        Attributes::all(self.src)
    }

    /// The attributes, for comparing and printing.
    fn attributes_list(&self) -> AttributesList<'t> {
        AttributesList(self.attributes())
    }
}

/// A tag's attributes compared as a list.
struct AttributesList<'t>(Attributes<'t>);

impl PartialEq for AttributesList<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.clone().eq(other.0.clone())
    }
}

impl std::fmt::Debug for AttributesList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

pub(crate) use unchecked::input_str;

/// The one `unsafe` function outside `scan`: slicing the input at the spans
/// the machine hands out, without the two character-boundary checks of
/// `str` slicing (the costliest line of a token loop; `docs/BENCHMARKS.md`).
#[allow(unsafe_code)]
mod unchecked {
    /// The input bytes `s..e` of the window `input`, as text.
    ///
    /// # Safety
    ///
    /// `s <= e <= input.len()`, and `s` and `e` are character boundaries
    /// of `input`. The ranges of a token handed out are, by the machine's
    /// invariants (`tokenizer/machine/mod.rs`), when sliced from the window
    /// the token is lent with (`Src::input`): a field's borrowed range
    /// (`Field`, not owned), and an attribute record's spans when the
    /// record is `VERBATIM`. The window is valid UTF-8; every byte the
    /// machine stops at is ASCII (a run ends at a landmark, which `scan`
    /// asserts ASCII, or at the window's end, which a stream keeps on a
    /// character boundary), and a multi-byte character is read whole, so
    /// every borrowed range starts and ends on a boundary; a range lies in
    /// the window it is lent with, since a stream drops no byte a live
    /// field borrows (`earliest_needed`) and shifts every position when it
    /// drops (`rebase`), and a token is only lent with the window it was
    /// built in; an empty range is at 0 (`Field::clear`, `rebase`), or at
    /// an attribute's name end, inside the window. The `debug_assert!`
    /// below checks it in the tests and fuzz targets, and so does the fuzz
    /// property that every span handed out lies on character boundaries
    /// (`testkit::props`).
    #[inline(always)]
    pub(crate) unsafe fn input_str(input: &str, s: usize, e: usize) -> &str {
        debug_assert!(
            s <= e && e <= input.len() && input.is_char_boundary(s) && input.is_char_boundary(e),
            "{s}..{e} is not a range of whole characters in a window of {} bytes",
            input.len()
        );
        // SAFETY: the caller's promise, above.
        unsafe { input.get_unchecked(s..e) }
    }
}

// The sizes the docs rely on, checked at compile time: a token is a
// kind and a view (the storage and the window).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<Token<'static>>() == 4 * 8);
    assert!(std::mem::size_of::<Option<Token<'static>>>() == 4 * 8);
};

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
            Token::Doctype(d) => Some(d.span()),
            Token::StartTag(t) | Token::EndTag(t) => Some(t.span()),
            Token::Comment(c) => Some(c.span()),
            Token::Text(t) => Some(t.span()),
            Token::ProcessingInstruction(p) => Some(p.span()),
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
                name: d.name().map(str::to_owned),
                public_id: d.public_id().map(str::to_owned),
                system_id: d.system_id().map(str::to_owned),
                force_quirks: d.force_quirks(),
            },
            Token::StartTag(t) => OwnedToken::StartTag {
                name: t.name().to_owned(),
                attributes: t
                    .attributes()
                    .map(|a| (a.name().to_owned(), a.value().to_owned()))
                    .collect(),
                self_closing: t.self_closing(),
            },
            Token::EndTag(t) => OwnedToken::EndTag {
                name: t.name().to_owned(),
            },
            Token::Comment(c) => OwnedToken::Comment(c.as_str().to_owned()),
            Token::Text(t) => OwnedToken::Text(t.as_str().to_owned()),
            Token::ProcessingInstruction(p) => OwnedToken::ProcessingInstruction {
                target: p.target().to_owned(),
                data: p.data().to_owned(),
            },
            Token::Eof => OwnedToken::Eof,
        }
    }
}

/// The span-slicing helper on pages of multi-byte characters, whole and
/// streamed at every chunk size: small enough for Miri, which checks the
/// `unsafe` slicing itself (CI runs it), where the other tests check what
/// it returns.
#[cfg(test)]
mod tests {
    use super::OwnedToken;
    use crate::{StreamTokenizer, Tokenizer};

    const PAGE: &str = "<!DOCTYPE html><p class=\"é\" data-x=caf&eacute; title='日本'>\
                        Grüße, 世界 &amp; ünïcödé</p><!-- ç'est --><A HREF=/ü>ß</a>";

    fn expected() -> Vec<OwnedToken> {
        let attr = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        vec![
            OwnedToken::Doctype {
                name: Some("html".into()),
                public_id: None,
                system_id: None,
                force_quirks: false,
            },
            OwnedToken::StartTag {
                name: "p".into(),
                attributes: vec![
                    attr("class", "é"),
                    attr("data-x", "café"),
                    attr("title", "日本"),
                ],
                self_closing: false,
            },
            OwnedToken::Text("Grüße, 世界 & ünïcödé".into()),
            OwnedToken::EndTag { name: "p".into() },
            OwnedToken::Comment(" ç'est ".into()),
            OwnedToken::StartTag {
                name: "a".into(),
                attributes: vec![attr("href", "/ü")],
                self_closing: false,
            },
            OwnedToken::Text("ß".into()),
            OwnedToken::EndTag { name: "a".into() },
            OwnedToken::Eof,
        ]
    }

    /// Adjacent texts joined: where a text is cut is the machine's choice.
    fn push(tokens: &mut Vec<OwnedToken>, token: OwnedToken) {
        if let (Some(OwnedToken::Text(last)), OwnedToken::Text(more)) = (tokens.last_mut(), &token)
        {
            last.push_str(more);
        } else {
            tokens.push(token);
        }
    }

    #[test]
    fn spans_slice_whole_characters_whole_and_streamed() {
        let mut whole = Vec::new();
        let mut tok = Tokenizer::new(PAGE);
        while let Some(token) = tok.next_token() {
            push(&mut whole, token.into_owned());
        }
        assert_eq!(whole, expected());

        for size in 1..=7 {
            let mut streamed = Vec::new();
            let mut tok = StreamTokenizer::new();
            for chunk in PAGE.as_bytes().chunks(size) {
                tok.feed(chunk);
                while let Some(token) = tok.next_token() {
                    push(&mut streamed, token.into_owned());
                }
            }
            tok.finish();
            while let Some(token) = tok.next_token() {
                push(&mut streamed, token.into_owned());
            }
            assert_eq!(streamed, expected(), "chunks of {size} bytes");
        }
    }
}
