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
//! [`AttributeRecord`]); [`TokenRecord::from_le_bytes`] and
//! [`AttributeRecord::from_le_bytes`] read one back from bytes.
//!
//! ```
//! use htmltok::records::{Records, SavedRecords, TokenRecord};
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
//! // Saved with the page and the side string, and read back from bytes
//! // anywhere in memory (here one byte into a buffer: not aligned).
//! let saved = records.to_bytes(page);
//! let mut file = vec![0u8];
//! file.extend_from_slice(&saved);
//! let back = SavedRecords::read(&file[1..]).unwrap();
//! assert_eq!(back.tokens().collect::<Vec<_>>(), records.tokens());
//! let text = back.token(1).unwrap();
//! assert_eq!(back.string(text.s0_off, text.s0_len), "Fish & chips");
//! ```
//!
//! # Saved records
//!
//! [`Records::to_bytes`] (or [`write_to`](Records::write_to)) writes the
//! records with the strings they point into, in one piece that
//! [`SavedRecords::read`] reads back from any byte buffer (a file read
//! into memory, a memory map, a network message: no alignment needed),
//! and that other languages read as plainly (the Python package's
//! `TokenTable.from_bytes`, numpy's `frombuffer`, `struct`). Every
//! integer is a little-endian `u32`:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | `htmltokR` ([`SavedRecords::MAGIC`]) |
//! | 8..12 | the format's version, 1 ([`SavedRecords::VERSION`]) |
//! | 12..16, 16..20 | the number of token records, of attribute records |
//! | 20..24, 24..28 | the input's length, the side string's, in bytes |
//! | 28..32 | zero |
//! | from 32 | the token records (44 bytes each), the attribute records (24 bytes each), the input (UTF-8), the side string (UTF-8) |

use std::borrow::Cow;
use std::io::{self, Write};

use bytemuck::{Pod, Zeroable};

use crate::token::Src;
use crate::tokenizer::{resolve, AttrRecord, Consume, Field, Lent, Output, Slot, VERBATIM};
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

    /// The bytes of one record.
    pub const SIZE: usize = 44;

    /// The record as the 44 bytes [`Records::token_bytes`] holds it.
    ///
    /// ```
    /// use htmltok::records::TokenRecord;
    /// let record = TokenRecord { start: 1, end: 0x0102_0304, kind: TokenRecord::TEXT, ..Default::default() };
    /// let bytes = record.to_le_bytes();
    /// assert_eq!(&bytes[..8], [1, 0, 0, 0, 4, 3, 2, 1]);
    /// assert_eq!(TokenRecord::from_le_bytes(bytes), record);
    /// ```
    pub fn to_le_bytes(&self) -> [u8; 44] {
        let mut out = [0; 44];
        let words = [
            self.start,
            self.end,
            self.s0_off,
            self.s0_len,
            self.s1_off,
            self.s1_len,
            self.s2_off,
            self.s2_len,
            self.first_attr,
            self.n_attrs,
        ];
        for (chunk, word) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out[40] = self.kind;
        out[41] = self.flags;
        out[42..].copy_from_slice(&self._pad);
        out
    }

    /// The record of 44 little-endian bytes, as
    /// [`to_le_bytes`](Self::to_le_bytes) writes it (from any buffer:
    /// `bytes.try_into()` of a slice).
    pub fn from_le_bytes(bytes: [u8; 44]) -> TokenRecord {
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        TokenRecord {
            start: word(0),
            end: word(4),
            s0_off: word(8),
            s0_len: word(12),
            s1_off: word(16),
            s1_len: word(20),
            s2_off: word(24),
            s2_len: word(28),
            first_attr: word(32),
            n_attrs: word(36),
            kind: bytes[40],
            flags: bytes[41],
            _pad: [bytes[42], bytes[43]],
        }
    }

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
    /// The bytes of one record.
    pub const SIZE: usize = 24;

    /// The record as the 24 bytes [`Records::attribute_bytes`] holds it.
    ///
    /// ```
    /// use htmltok::records::AttributeRecord;
    /// let record = AttributeRecord { name_off: 3, value_len: 258, ..Default::default() };
    /// let bytes = record.to_le_bytes();
    /// assert_eq!((bytes[0], bytes[12], bytes[13]), (3, 2, 1));
    /// assert_eq!(AttributeRecord::from_le_bytes(bytes), record);
    /// ```
    pub fn to_le_bytes(&self) -> [u8; 24] {
        let mut out = [0; 24];
        let words = [
            self.name_off,
            self.name_len,
            self.value_off,
            self.value_len,
            self.name_start,
            self.value_start,
        ];
        for (chunk, word) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    }

    /// The record of 24 little-endian bytes, as
    /// [`to_le_bytes`](Self::to_le_bytes) writes it.
    pub fn from_le_bytes(bytes: [u8; 24]) -> AttributeRecord {
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        AttributeRecord {
            name_off: word(0),
            name_len: word(4),
            value_off: word(8),
            value_len: word(12),
            name_start: word(16),
            value_start: word(20),
        }
    }

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
        record_tokens(tokenizer, self, |_| Flow::Continue);
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
        record_tokens(tokenizer, self, f);
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
        string_in(input, &self.side, off, len)
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

    /// The records saved with their strings: `input` (the input
    /// recorded) and the side string after them, as one buffer that
    /// [`SavedRecords::read`] reads back (the [module](crate::records)
    /// documentation has its layout).
    ///
    /// # Panics
    ///
    /// If `input` is not as long as the input recorded.
    pub fn to_bytes(&self, input: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.saved_len(input));
        self.write_to(input, &mut out)
            .expect("a Vec takes every byte");
        out
    }

    /// [`to_bytes`](Self::to_bytes), written to `out` (a file, a socket)
    /// without a copy of the whole.
    ///
    /// ```
    /// use htmltok::records::{Records, SavedRecords};
    /// use htmltok::Tokenizer;
    /// let page = "<img src=a.png alt='A &amp; B'>";
    /// let mut records = Records::new();
    /// records.record(&mut Tokenizer::new(page)).unwrap();
    /// let mut file = Vec::new();
    /// records.write_to(page, &mut file).unwrap();
    /// let saved = SavedRecords::read(&file).unwrap();
    /// let alt = saved.attributes_of(&saved.token(0).unwrap()).nth(1).unwrap();
    /// assert_eq!(saved.string(alt.value_off, alt.value_len), "A & B");
    /// assert_eq!(saved.input(), page);
    /// ```
    ///
    /// # Panics
    ///
    /// If `input` is not as long as the input recorded.
    pub fn write_to<W: Write>(&self, input: &str, mut out: W) -> io::Result<()> {
        assert_eq!(
            input.len(),
            self.input_len,
            "the input written with records is the input recorded"
        );
        let header = SavedRecords::header(
            self.tokens.len(),
            self.attrs.len(),
            input.len(),
            self.side.len(),
        );
        out.write_all(&header)?;
        out.write_all(&self.token_bytes())?;
        out.write_all(&self.attribute_bytes())?;
        out.write_all(input.as_bytes())?;
        out.write_all(self.side.as_bytes())
    }

    /// The bytes [`to_bytes`](Self::to_bytes) writes.
    fn saved_len(&self, input: &str) -> usize {
        SavedRecords::HEADER_LEN
            + self.tokens.len() * TokenRecord::SIZE
            + self.attrs.len() * AttributeRecord::SIZE
            + input.len()
            + self.side.len()
    }
}

/// The string at `(off, len)` of `input` followed by `side`; `""` for a
/// pair that is none.
fn string_in<'a>(input: &'a str, side: &'a str, off: u32, len: u32) -> &'a str {
    let (off, len) = (off as usize, len as usize);
    let end = off.saturating_add(len);
    if end <= input.len() {
        input.get(off..end).unwrap_or("")
    } else {
        let at = off.wrapping_sub(input.len());
        side.get(at..at.saturating_add(len)).unwrap_or("")
    }
}

/// Records saved by [`Records::to_bytes`], read where they lie, from any
/// byte buffer (no alignment needed): each record is read from its bytes
/// when asked for; the strings are the buffer's own.
///
/// ```
/// use htmltok::records::{Records, SavedRecords, TokenRecord};
/// use htmltok::Tokenizer;
///
/// let page = "<a href=/one>One</a><a href=/two>Two</a>";
/// let mut records = Records::new();
/// records.record(&mut Tokenizer::new(page)).unwrap();
/// let saved_bytes = records.to_bytes(page);
///
/// let saved = SavedRecords::read(&saved_bytes).unwrap();
/// let hrefs: Vec<&str> = saved
///     .tokens()
///     .filter(|t| t.kind == TokenRecord::START_TAG)
///     .flat_map(|t| saved.attributes_of(&t))
///     .map(|a| saved.string(a.value_off, a.value_len))
///     .collect();
/// assert_eq!(hrefs, ["/one", "/two"]);
/// assert_eq!(saved.byte_len(), saved_bytes.len());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedRecords<'a> {
    tokens: &'a [u8],
    attrs: &'a [u8],
    input: &'a str,
    side: &'a str,
}

/// Why bytes are no [`SavedRecords`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// They do not start with [`SavedRecords::MAGIC`].
    NotRecords,
    /// Saved records of another version of the format than
    /// [`SavedRecords::VERSION`].
    Version(u32),
    /// Fewer bytes than the header says the records take (this many).
    Truncated(u64),
    /// The input or the side string is not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotRecords => write!(f, "not saved records (no htmltokR header)"),
            ReadError::Version(v) => write!(
                f,
                "saved records of version {v}: this version reads version {}",
                SavedRecords::VERSION
            ),
            ReadError::Truncated(needed) => {
                write!(
                    f,
                    "saved records cut short: their header says {needed} bytes"
                )
            }
            ReadError::NotUtf8 => write!(f, "saved records whose strings are not UTF-8"),
        }
    }
}

impl std::error::Error for ReadError {}

impl<'a> SavedRecords<'a> {
    /// The first bytes of saved records.
    pub const MAGIC: [u8; 8] = *b"htmltokR";
    /// The version of the format this crate writes and reads.
    pub const VERSION: u32 = 1;
    /// The header's bytes, before the records.
    pub const HEADER_LEN: usize = 32;

    fn header(tokens: usize, attrs: usize, input: usize, side: usize) -> [u8; 32] {
        let mut header = [0; 32];
        header[..8].copy_from_slice(&Self::MAGIC);
        // Each count fits: `Records` holds fewer than `u32::MAX` bytes of
        // input and side string, and a record per byte at most.
        let words = [
            Self::VERSION,
            tokens as u32,
            attrs as u32,
            input as u32,
            side as u32,
            0,
        ];
        for (chunk, word) in header[8..].chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        header
    }

    /// The saved records at the start of `bytes` (which may go on: the
    /// records of another page, say; [`byte_len`](Self::byte_len) is
    /// where they end). Checks the header, the lengths and that the
    /// strings are UTF-8; the records themselves are read as asked for (a
    /// pair that is no string reads as `""`).
    pub fn read(bytes: &'a [u8]) -> Result<SavedRecords<'a>, ReadError> {
        if bytes.len() < Self::HEADER_LEN || bytes[..8] != Self::MAGIC {
            return Err(ReadError::NotRecords);
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = word(8);
        if version != Self::VERSION {
            return Err(ReadError::Version(version));
        }
        let [tokens, attrs, input, side] = [word(12), word(16), word(20), word(24)].map(u64::from);
        let lens = [
            tokens * TokenRecord::SIZE as u64,
            attrs * AttributeRecord::SIZE as u64,
            input,
            side,
        ];
        let needed = Self::HEADER_LEN as u64 + lens.iter().sum::<u64>();
        if (bytes.len() as u64) < needed {
            return Err(ReadError::Truncated(needed));
        }
        // Each part fits in `bytes`, so in a `usize`.
        let mut rest = &bytes[Self::HEADER_LEN..];
        let mut part = |len: u64| {
            let (this, next) = rest.split_at(len as usize);
            rest = next;
            this
        };
        let [tokens, attrs, input, side] = lens.map(&mut part);
        let text = |b| simdutf8::basic::from_utf8(b).map_err(|_| ReadError::NotUtf8);
        Ok(SavedRecords {
            tokens,
            attrs,
            input: text(input)?,
            side: text(side)?,
        })
    }

    /// The bytes the saved records take, their header included.
    pub fn byte_len(&self) -> usize {
        Self::HEADER_LEN + self.tokens.len() + self.attrs.len() + self.input.len() + self.side.len()
    }

    /// The number of token records.
    pub fn len(&self) -> usize {
        self.tokens.len() / TokenRecord::SIZE
    }

    /// Whether there are no token records.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The token record `index`, if there is one.
    pub fn token(&self, index: usize) -> Option<TokenRecord> {
        let at = index.checked_mul(TokenRecord::SIZE)?;
        let bytes = self.tokens.get(at..at + TokenRecord::SIZE)?;
        Some(TokenRecord::from_le_bytes(bytes.try_into().ok()?))
    }

    /// The token records, in order.
    pub fn tokens(&self) -> impl ExactSizeIterator<Item = TokenRecord> + 'a {
        self.tokens
            .chunks_exact(TokenRecord::SIZE)
            .map(|b| TokenRecord::from_le_bytes(b.try_into().expect("chunks of its size")))
    }

    /// The attribute record `index`, if there is one.
    pub fn attribute(&self, index: usize) -> Option<AttributeRecord> {
        let at = index.checked_mul(AttributeRecord::SIZE)?;
        let bytes = self.attrs.get(at..at + AttributeRecord::SIZE)?;
        Some(AttributeRecord::from_le_bytes(bytes.try_into().ok()?))
    }

    /// Every attribute record, in order.
    pub fn attributes(&self) -> impl ExactSizeIterator<Item = AttributeRecord> + 'a {
        self.attrs
            .chunks_exact(AttributeRecord::SIZE)
            .map(|b| AttributeRecord::from_le_bytes(b.try_into().expect("chunks of its size")))
    }

    /// The attribute records of `token` (a start tag's; none for the
    /// others), those of them these records hold.
    pub fn attributes_of(
        &self,
        token: &TokenRecord,
    ) -> impl ExactSizeIterator<Item = AttributeRecord> + 'a {
        let count = self.attrs.len() / AttributeRecord::SIZE;
        let first = (token.first_attr as usize).min(count);
        let end = first.saturating_add(token.n_attrs as usize).min(count);
        let bytes = &self.attrs[first * AttributeRecord::SIZE..end * AttributeRecord::SIZE];
        bytes
            .chunks_exact(AttributeRecord::SIZE)
            .map(|b| AttributeRecord::from_le_bytes(b.try_into().expect("chunks of its size")))
    }

    /// The input the records were made from.
    pub fn input(&self) -> &'a str {
        self.input
    }

    /// The rewritten strings, addressed from the input's length on.
    pub fn side(&self) -> &'a str {
        self.side
    }

    /// The string at `(off, len)` of the input followed by the side
    /// string (as [`Records::string`]); `""` for a pair that is none.
    pub fn string(&self, off: u32, len: u32) -> &'a str {
        string_in(self.input, self.side, off, len)
    }

    /// The records as [`Records`] of their own (copied), with
    /// [`input`](Self::input) as their input.
    ///
    /// ```
    /// use htmltok::records::{Records, SavedRecords};
    /// use htmltok::Tokenizer;
    /// let page = "<p>a&lt;b";
    /// let mut records = Records::new();
    /// records.record(&mut Tokenizer::new(page)).unwrap();
    /// let bytes = records.to_bytes(page);
    /// let copy = SavedRecords::read(&bytes).unwrap().to_records();
    /// assert_eq!((copy.tokens(), copy.side()), (records.tokens(), records.side()));
    /// ```
    pub fn to_records(&self) -> Records {
        Records {
            tokens: self.tokens().collect(),
            attrs: self.attributes().collect(),
            side: self.side.to_owned(),
            input_len: self.input.len(),
        }
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

/// Records every token `tokenizer` hands out from where it is to the end of
/// its input, the end left out, handing each to `f` after it is recorded:
/// the same tokens in the same order as `next_token`, with standalone
/// mode's switches and then `f`'s made after each. Each record is written
/// from the spans and fields where the machine keeps them.
///
/// Out of line: inlined into its caller, the machine's loop shared a
/// frame with the caller's code and spilled more.
#[inline(never)]
fn record_tokens<E, A, F, T>(tokenizer: &mut Tokenizer<'_, E, A>, records: &mut Records, f: F)
where
    E: ErrorPolicy,
    A: AttributePolicy,
    F: FnMut(Token<'_>) -> T,
    T: Into<Flow>,
{
    tokenizer.drive_whole(&mut Recorder { records, f });
}

/// The machine's consumer that writes each token down, then hands it to
/// `f` (which gets a view of the kind each branch knows: a callback that
/// looks at start tags alone folds away elsewhere).
struct Recorder<'r, F> {
    records: &'r mut Records,
    f: F,
}

impl<F, T> Consume for Recorder<'_, F>
where
    F: FnMut(Token<'_>) -> T,
    T: Into<Flow>,
{
    #[inline(always)]
    fn text(&mut self, src: Src<'_>) {
        self.records.push_text(src.out, src.input.len());
    }

    #[inline(always)]
    fn tag(&mut self, src: Src<'_>, _end: bool) {
        self.records.push_tag(src.out, src.input, src.input.len());
    }

    #[inline(always)]
    fn other(&mut self, src: Src<'_>, kind: Lent) {
        self.records.record_other(kind, src.out, src.input.len());
    }

    #[inline(always)]
    fn token(&mut self, token: Token<'_>) -> Flow {
        (self.f)(token).into()
    }
}

impl Records {
    /// The record of the comment, DOCTYPE or processing instruction in
    /// `out` (none for the end of the input).
    #[cold]
    #[inline(never)]
    fn record_other(&mut self, kind: Lent, out: &Output, input_len: usize) {
        let kind = match kind {
            Lent::Doctype => TokenRecord::DOCTYPE,
            Lent::ProcessingInstruction => TokenRecord::PROCESSING_INSTRUCTION,
            Lent::Comment => TokenRecord::COMMENT,
            _ => return,
        };
        self.push_other(kind, out, input_len);
    }

    /// The record of the text in `out` (the records' consumer).
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

    /// The record of the tag in `out`, and its attributes' (the records'
    /// consumer).
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
    /// `out`, by `kind` (the records' consumer; rare, out of line).
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
