//! A whole document's tokens as fixed-width little-endian records (feature
//! `records`): for consumers that take tokens in bulk (another language, a
//! file, a process) rather than one at a time.
//!
//! [`Records`] holds three reusable buffers:
//!
//! - [`tokens`](Records::tokens): one [`TokenRecord`] (44 bytes) per token,
//!   in order, the end of the input left out;
//! - [`attributes`](Records::attributes): one [`AttributeRecord`] (24
//!   bytes) per attribute of every start tag, in order (a start tag's
//!   record names its range);
//! - [`side`](Records::side): every string the standard rewrote (character
//!   references, CR/LF, NUL, upper case), one after another.
//!
//! Every integer is a `u32`. A string is an `(offset, length)` pair of
//! UTF-8 bytes in one address space: the input first (`0..input.len()`),
//! then the side string (from `input.len()` on). So a string the input
//! holds verbatim is not copied, and none is lost; [`Records::string`]
//! reads one. The records are recorded from the tokenizer's own spans, as
//! each token is complete, without building a [`Token`] first; they are
//! plain old data ([`bytemuck::Pod`]), and [`token_bytes`](Records::token_bytes)
//! and [`attribute_bytes`](Records::attribute_bytes) give them as
//! little-endian bytes without a copy on a little-endian machine (numpy:
//! `frombuffer`; the field layout is in [`TokenRecord`] and
//! [`AttributeRecord`]).
//!
//! ```
//! use htmltok::records::{Records, TokenRecord};
//! use htmltok::Tokenizer;
//!
//! let page = "<p class=intro>Fish &amp; chips</p>";
//! let mut records = Records::new();
//! records.record(&mut Tokenizer::new(page)).unwrap();
//! let kinds: Vec<u8> = records.tokens().iter().map(|r| r.kind).collect();
//! assert_eq!(kinds, [TokenRecord::START_TAG, TokenRecord::TEXT, TokenRecord::END_TAG]);
//!
//! // The text was rewritten (`&amp;`): it is in the side string.
//! let text = records.tokens()[1];
//! assert!(text.s0_off as usize >= page.len());
//! assert_eq!(records.string(page, text.s0_off, text.s0_len), "Fish & chips");
//!
//! // The attribute is its input bytes.
//! let p = records.tokens()[0];
//! let class = records.attributes()[p.first_attr as usize];
//! assert_eq!(&page[class.name_off as usize..][..class.name_len as usize], "class");
//! assert_eq!(records.string(page, class.value_off, class.value_len), "intro");
//!
//! // Zero-copy hand-off: the records as bytes, and back.
//! let bytes = records.token_bytes();
//! let back: &[TokenRecord] = bytemuck::try_cast_slice(&bytes).unwrap();
//! assert_eq!(back.len(), 3);
//! ```

use std::borrow::Cow;

use bytemuck::{Pod, Zeroable};

use crate::token::{resolve, AttrRecord, Field, Output, Slot, VERBATIM};
use crate::tokenizer::{AttributePolicy, ErrorPolicy};
use crate::{Flow, Token, Tokenizer};

/// One token: 44 bytes, every integer a little-endian `u32` once made
/// bytes (numpy `<u4`), then `kind` and `flags` (`u8`) and two bytes of
/// padding.
///
/// | field | meaning |
/// |---|---|
/// | `start`, `end` | the token's bytes in the input |
/// | `s0_off`, `s0_len` ... `s2_off`, `s2_len` | three strings, by kind (below), as `(offset, length)` in the input followed by the side string |
/// | `first_attr`, `n_attrs` | a start tag's attributes: `attributes()[first_attr..first_attr + n_attrs]` |
/// | `kind` | [`DOCTYPE`](Self::DOCTYPE), [`START_TAG`](Self::START_TAG), [`END_TAG`](Self::END_TAG), [`COMMENT`](Self::COMMENT), [`TEXT`](Self::TEXT), [`PROCESSING_INSTRUCTION`](Self::PROCESSING_INSTRUCTION) |
/// | `flags` | [`SELF_CLOSING`](Self::SELF_CLOSING), [`FORCE_QUIRKS`](Self::FORCE_QUIRKS), and [`HAS_S0`](Self::HAS_S0), [`HAS_S1`](Self::HAS_S1), [`HAS_S2`](Self::HAS_S2): a DOCTYPE's name, public and system id are there (missing is not empty) |
///
/// | kind | s0 | s1 | s2 |
/// |---|---|---|---|
/// | DOCTYPE | name | public id | system id |
/// | start tag, end tag | name | | |
/// | comment, text | data | | |
/// | processing instruction | target | data | |
///
/// ```
/// use htmltok::records::{Records, TokenRecord};
/// use htmltok::Tokenizer;
/// assert_eq!(std::mem::size_of::<TokenRecord>(), 44);
///
/// let page = "<!DOCTYPE html><BR/>";
/// let mut records = Records::new();
/// records.record(&mut Tokenizer::new(page)).unwrap();
/// let [doctype, br] = records.tokens() else { panic!() };
/// assert_eq!(doctype.kind, TokenRecord::DOCTYPE);
/// assert_eq!(doctype.flags, TokenRecord::HAS_S0); // a name, no public or system id
/// assert_eq!(br.kind, TokenRecord::START_TAG);
/// assert_eq!(br.flags, TokenRecord::SELF_CLOSING);
/// assert_eq!(records.string(page, br.s0_off, br.s0_len), "br"); // lower-cased, in the side string
/// assert_eq!((br.start, br.end), (15, 20));
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct TokenRecord {
    /// Offset of the token's first byte in the input.
    pub start: u32,
    /// Offset one past its last byte.
    pub end: u32,
    /// The first string's offset.
    pub s0_off: u32,
    /// The first string's length.
    pub s0_len: u32,
    /// The second string's offset.
    pub s1_off: u32,
    /// The second string's length.
    pub s1_len: u32,
    /// The third string's offset.
    pub s2_off: u32,
    /// The third string's length.
    pub s2_len: u32,
    /// A start tag's first attribute in [`Records::attributes`].
    pub first_attr: u32,
    /// How many attributes a start tag has.
    pub n_attrs: u32,
    /// What token this is.
    pub kind: u8,
    /// Bits: see the constants.
    pub flags: u8,
    /// Explicit padding (zero): `repr(C)` adds none, which `Pod` would
    /// refuse.
    pub _pad: [u8; 2],
}

impl TokenRecord {
    /// `kind` of a DOCTYPE.
    pub const DOCTYPE: u8 = 0;
    /// `kind` of a start tag.
    pub const START_TAG: u8 = 1;
    /// `kind` of an end tag.
    pub const END_TAG: u8 = 2;
    /// `kind` of a comment.
    pub const COMMENT: u8 = 3;
    /// `kind` of character data.
    pub const TEXT: u8 = 4;
    /// `kind` of a processing instruction.
    pub const PROCESSING_INSTRUCTION: u8 = 5;

    /// A tag ended with `/>`.
    pub const SELF_CLOSING: u8 = 1;
    /// A DOCTYPE's force-quirks flag.
    pub const FORCE_QUIRKS: u8 = 2;
    /// A DOCTYPE has a name (`s0`).
    pub const HAS_S0: u8 = 4;
    /// A DOCTYPE has a public identifier (`s1`).
    pub const HAS_S1: u8 = 8;
    /// A DOCTYPE has a system identifier (`s2`).
    pub const HAS_S2: u8 = 16;

    /// The record with every integer little-endian (nothing changes on a
    /// little-endian machine).
    fn to_le(self) -> TokenRecord {
        TokenRecord {
            start: self.start.to_le(),
            end: self.end.to_le(),
            s0_off: self.s0_off.to_le(),
            s0_len: self.s0_len.to_le(),
            s1_off: self.s1_off.to_le(),
            s1_len: self.s1_len.to_le(),
            s2_off: self.s2_off.to_le(),
            s2_len: self.s2_len.to_le(),
            first_attr: self.first_attr.to_le(),
            n_attrs: self.n_attrs.to_le(),
            ..self
        }
    }
}

/// One attribute of a start tag: 24 bytes, little-endian `u32`s once made
/// bytes. The name and value are strings of the input and side string's
/// address space, as a [`TokenRecord`]'s are; `name_start` and
/// `value_start` are where they start in the input (the value without its
/// quotes; for an attribute without a value, the end of its name).
///
/// ```
/// use htmltok::records::Records;
/// use htmltok::Tokenizer;
/// let page = "<a HREF='/x?a&amp;b' id=top>";
/// let mut records = Records::new();
/// records.record(&mut Tokenizer::new(page)).unwrap();
/// let [href, id] = records.attributes() else { panic!() };
/// assert_eq!(records.string(page, href.name_off, href.name_len), "href");
/// assert_eq!(records.string(page, href.value_off, href.value_len), "/x?a&b");
/// assert_eq!(href.value_start, 9);
/// assert_eq!((id.value_off, id.value_len), (24, 3)); // "top", the input's bytes
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct AttributeRecord {
    /// The name's offset.
    pub name_off: u32,
    /// The name's length.
    pub name_len: u32,
    /// The value's offset.
    pub value_off: u32,
    /// The value's length.
    pub value_len: u32,
    /// Where the name starts in the input.
    pub name_start: u32,
    /// Where the value starts in the input.
    pub value_start: u32,
}

impl AttributeRecord {
    /// The record with every integer little-endian.
    fn to_le(self) -> AttributeRecord {
        AttributeRecord {
            name_off: self.name_off.to_le(),
            name_len: self.name_len.to_le(),
            value_off: self.value_off.to_le(),
            value_len: self.value_len.to_le(),
            name_start: self.name_start.to_le(),
            value_start: self.value_start.to_le(),
        }
    }
}

const _: () = {
    assert!(std::mem::size_of::<TokenRecord>() == 44);
    assert!(std::mem::size_of::<AttributeRecord>() == 24);
};

/// A document too large for records of `u32` offsets: the input and the
/// side string together hold this many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge(pub usize);

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} bytes of input and rewritten strings: records address at most {}",
            self.0,
            u32::MAX
        )
    }
}

impl std::error::Error for TooLarge {}

/// A whole document's tokens as records (see the [module](crate::records)
/// documentation). Reused across documents, it allocates nothing once its
/// buffers have grown to the largest document's needs.
///
/// ```
/// use htmltok::records::{Records, TokenRecord};
/// use htmltok::{Config, Tokenizer};
///
/// // One `Records` for many pages: its buffers are reused.
/// let mut records = Records::new();
/// for page in ["<p>one", "<p>two <b>three</b>"] {
///     records.record(&mut Tokenizer::new(page)).unwrap();
///     let tags = records.tokens().iter().filter(|r| r.kind == TokenRecord::START_TAG).count();
///     assert!(tags >= 1);
/// }
///
/// // Any configuration: here parse errors, which the tokenizer keeps.
/// let mut tok = Tokenizer::with_config("<p id=a id=b>", Config::new().report_errors());
/// records.record(&mut tok).unwrap();
/// assert_eq!(tok.errors().len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct Records {
    tokens: Vec<TokenRecord>,
    attrs: Vec<AttributeRecord>,
    side: String,
    /// The input's length: where the side string's addresses start.
    input_len: usize,
}

impl Records {
    /// Empty records.
    ///
    /// ```
    /// assert!(htmltok::records::Records::new().tokens().is_empty());
    /// ```
    pub fn new() -> Records {
        Records::default()
    }

    /// Forgets the tokens, keeping the buffers.
    pub fn clear(&mut self) {
        self.tokens.clear();
        self.attrs.clear();
        self.side.clear();
        self.input_len = 0;
    }

    /// Records every token `tokenizer` hands out from where it is to the
    /// end of its input (replacing what these records held), or fails if
    /// the input and the rewritten strings together pass `u32::MAX` bytes.
    pub fn record<E: ErrorPolicy, A: AttributePolicy>(
        &mut self,
        tokenizer: &mut Tokenizer<'_, E, A>,
    ) -> Result<(), TooLarge> {
        let input_len = self.start(tokenizer.input().len())?;
        tokenizer.record_whole(self, |_| Flow::Continue);
        self.finish(input_len)
    }

    /// Clears the records for an input of `input_len` bytes, or fails if
    /// it is too long; returns `input_len`.
    fn start(&mut self, input_len: usize) -> Result<usize, TooLarge> {
        self.clear();
        self.input_len = input_len;
        if input_len > u32::MAX as usize {
            return Err(TooLarge(input_len));
        }
        // Guesses (a token per 45 bytes, an attribute per 130 on real
        // pages) with room to spare, so that few pages regrow; the
        // untouched rest of the allocation is never faulted in.
        self.tokens.reserve(input_len / 32 + 16);
        self.attrs.reserve(input_len / 96 + 16);
        Ok(input_len)
    }

    /// Checks the recorded document against the records' limit.
    fn finish(&mut self, input_len: usize) -> Result<(), TooLarge> {
        // Every offset and length is at most the input's length plus the
        // side string's (strings lie in one of them, spans in the input,
        // and there are fewer attributes than bytes): below that, no
        // `as u32` cut anything.
        let total = input_len + self.side.len();
        if total > u32::MAX as usize {
            self.clear();
            return Err(TooLarge(total));
        }
        Ok(())
    }

    /// [`record`](Self::record), handing each token to `f` after it is
    /// recorded (as [`Tokenizer::for_each_token`] does): a tree builder
    /// driving the tokenizer says what comes next. Recording stops where
    /// `f` says [`Flow::Stop`].
    ///
    /// ```
    /// use htmltok::records::{Records, TokenRecord};
    /// use htmltok::{Config, Flow, State, Token, Tokenizer};
    ///
    /// let page = "<title>a <b> c</title>";
    /// let mut tok = Tokenizer::with_config(page, Config::new().driven(true));
    /// let mut records = Records::new();
    /// records.record_with(&mut tok, |token| match token {
    ///     Token::StartTag(tag) if tag.name() == "title" => Flow::Switch(State::Rcdata),
    ///     _ => Flow::Continue,
    /// }).unwrap();
    /// let text = records.tokens()[1];
    /// assert_eq!(text.kind, TokenRecord::TEXT);
    /// assert_eq!(records.string(page, text.s0_off, text.s0_len), "a <b> c");
    /// ```
    pub fn record_with<E, A, F, T>(
        &mut self,
        tokenizer: &mut Tokenizer<'_, E, A>,
        f: F,
    ) -> Result<(), TooLarge>
    where
        E: ErrorPolicy,
        A: AttributePolicy,
        F: FnMut(Token<'_>) -> T,
        T: Into<Flow>,
    {
        let input_len = self.start(tokenizer.input().len())?;
        tokenizer.record_whole(self, f);
        self.finish(input_len)
    }

    /// The token records, in order (the end of the input has none).
    pub fn tokens(&self) -> &[TokenRecord] {
        &self.tokens
    }

    /// The attribute records of every start tag, in order.
    pub fn attributes(&self) -> &[AttributeRecord] {
        &self.attrs
    }

    /// The rewritten strings, addressed from the input's length on.
    pub fn side(&self) -> &str {
        &self.side
    }

    /// The string at `(off, len)` of the address space `input` (the input
    /// recorded) followed by the side string; `""` for a pair that is no
    /// string of these records.
    ///
    /// ```
    /// use htmltok::records::Records;
    /// use htmltok::Tokenizer;
    /// let page = "<p>a&lt;b";
    /// let mut records = Records::new();
    /// records.record(&mut Tokenizer::new(page)).unwrap();
    /// let text = records.tokens()[1];
    /// assert_eq!(records.string(page, text.s0_off, text.s0_len), "a<b");
    /// ```
    pub fn string<'a>(&'a self, input: &'a str, off: u32, len: u32) -> &'a str {
        let (off, len) = (off as usize, len as usize);
        let end = off.saturating_add(len);
        if end <= input.len() {
            input.get(off..end).unwrap_or("")
        } else {
            let side = off.wrapping_sub(input.len());
            self.side.get(side..side.saturating_add(len)).unwrap_or("")
        }
    }

    /// The token records as little-endian bytes: the records themselves on
    /// a little-endian machine, a byte-swapped copy elsewhere.
    pub fn token_bytes(&self) -> Cow<'_, [u8]> {
        le_bytes(&self.tokens, TokenRecord::to_le)
    }

    /// The attribute records as little-endian bytes (as
    /// [`token_bytes`](Self::token_bytes)).
    pub fn attribute_bytes(&self) -> Cow<'_, [u8]> {
        le_bytes(&self.attrs, AttributeRecord::to_le)
    }
}

fn le_bytes<T: Pod>(records: &[T], to_le: fn(T) -> T) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(bytemuck::cast_slice(records))
    } else {
        let swapped: Vec<T> = records.iter().map(|&r| to_le(r)).collect();
        Cow::Owned(bytemuck::cast_slice(&swapped).to_vec())
    }
}

/// A field's string as `(offset, length)`: its input range, or its scratch
/// copy appended to the side string.
#[inline(always)]
fn place(field: &Field, input_len: usize, side: &mut String) -> (u32, u32) {
    if !field.owned {
        return (field.start as u32, (field.end - field.start) as u32);
    }
    place_str(&field.buf, input_len, side)
}

/// A rewritten string appended to the side string.
#[inline(never)]
fn place_str(s: &str, input_len: usize, side: &mut String) -> (u32, u32) {
    let off = input_len + side.len();
    side.push_str(s);
    (off as u32, s.len() as u32)
}

impl Records {
    /// The record of the text in `out` (the machine's records' loop).
    #[inline(always)]
    pub(crate) fn push_text(&mut self, out: &Output, input_len: usize) {
        let (s0_off, s0_len) = place(&out.text, input_len, &mut self.side);
        self.tokens.push(TokenRecord {
            start: out.text_span.start as u32,
            end: out.text_span.end as u32,
            s0_off,
            s0_len,
            kind: TokenRecord::TEXT,
            ..TokenRecord::default()
        });
    }

    /// The record of the tag in `out`, and its attributes' (the machine's
    /// records' loop).
    #[inline(always)]
    pub(crate) fn push_tag(&mut self, out: &Output, input: &str, input_len: usize) {
        let record = self.tag_record(out, input, input_len);
        self.tokens.push(record);
    }

    /// The record of the tag in `out`, its attributes' pushed.
    #[inline(always)]
    fn tag_record(&mut self, out: &Output, input: &str, input_len: usize) -> TokenRecord {
        let (s0_off, s0_len) = place(&out.tag_name, input_len, &mut self.side);
        let first_attr = self.attrs.len() as u32;
        let n_attrs = if out.attrs_shown {
            self.push_attributes(input, out, input_len);
            out.attrs.len() as u32
        } else {
            0
        };
        TokenRecord {
            start: out.span.start as u32,
            end: out.span.end as u32,
            s0_off,
            s0_len,
            first_attr,
            n_attrs,
            kind: if out.tag_is_end {
                TokenRecord::END_TAG
            } else {
                TokenRecord::START_TAG
            },
            flags: u8::from(out.self_closing) * TokenRecord::SELF_CLOSING,
            ..TokenRecord::default()
        }
    }

    /// The record of the comment, DOCTYPE or processing instruction in
    /// `out`, by `kind` (the machine's records' loop; rare, out of line).
    #[inline(never)]
    pub(crate) fn push_other(&mut self, kind: u8, out: &Output, input_len: usize) {
        let rec = match kind {
            TokenRecord::DOCTYPE => self.doctype(out, input_len),
            TokenRecord::PROCESSING_INSTRUCTION => {
                let (s0_off, s0_len) = place(&out.pi_target, input_len, &mut self.side);
                let (s1_off, s1_len) = place(&out.comment, input_len, &mut self.side);
                TokenRecord {
                    start: out.span.start as u32,
                    end: out.span.end as u32,
                    s0_off,
                    s0_len,
                    s1_off,
                    s1_len,
                    kind,
                    ..TokenRecord::default()
                }
            }
            _ => {
                let (s0_off, s0_len) = place(&out.comment, input_len, &mut self.side);
                TokenRecord {
                    start: out.span.start as u32,
                    end: out.span.end as u32,
                    s0_off,
                    s0_len,
                    kind,
                    ..TokenRecord::default()
                }
            }
        };
        self.tokens.push(rec);
    }

    /// A tag's attribute records.
    #[inline(always)]
    fn push_attributes(&mut self, input: &str, out: &Output, input_len: usize) {
        for a in &out.attrs {
            let (name, value) = if a.strings == VERBATIM {
                (
                    (a.name_span.start as u32, a.name_span.len() as u32),
                    (a.value_span.start as u32, a.value_span.len() as u32),
                )
            } else {
                rewritten_attribute(input, out, a, input_len, &mut self.side)
            };
            self.attrs.push(AttributeRecord {
                name_off: name.0,
                name_len: name.1,
                value_off: value.0,
                value_len: value.1,
                name_start: a.name_span.start as u32,
                value_start: a.value_span.start as u32,
            });
        }
    }

    /// A DOCTYPE's record (rare: out of line).
    #[inline(never)]
    fn doctype(&mut self, out: &Output, input_len: usize) -> TokenRecord {
        let mut rec = TokenRecord {
            start: out.span.start as u32,
            end: out.span.end as u32,
            kind: TokenRecord::DOCTYPE,
            flags: u8::from(out.force_quirks) * TokenRecord::FORCE_QUIRKS,
            ..TokenRecord::default()
        };
        if out.has_doctype_name {
            (rec.s0_off, rec.s0_len) = place(&out.doctype_name, input_len, &mut self.side);
            rec.flags |= TokenRecord::HAS_S0;
        }
        if out.has_doctype_public {
            (rec.s1_off, rec.s1_len) = place(&out.doctype_public, input_len, &mut self.side);
            rec.flags |= TokenRecord::HAS_S1;
        }
        if out.has_doctype_system {
            (rec.s2_off, rec.s2_len) = place(&out.doctype_system, input_len, &mut self.side);
            rec.flags |= TokenRecord::HAS_S2;
        }
        rec
    }
}

/// The strings of an attribute the standard rewrote: its slots resolved,
/// input slots as they are, scratch ones appended to the side string.
#[cold]
#[inline(never)]
fn rewritten_attribute(
    input: &str,
    out: &Output,
    a: &AttrRecord,
    input_len: usize,
    side: &mut String,
) -> ((u32, u32), (u32, u32)) {
    let (name, value) = a.slots(&out.attr_store.rewritten);
    let mut one = |slot| match slot {
        Slot::Empty => (0, 0),
        Slot::Input(s, e) => (s as u32, (e - s) as u32),
        scratch => place_str(
            resolve(scratch, input, &out.attr_store.arena),
            input_len,
            side,
        ),
    };
    (one(name), one(value))
}
