//! A page's tokens as fixed-size records: what `token_table` hands to
//! Python in one piece, and what `tokenize` builds its objects from.
//!
//! Tokenizing fills a [`Table`] with the GIL released; only then are
//! Python objects made (or, for `token_table`, three `bytes` copied).
//!
//! Strings are `(offset, length)` pairs of UTF-8 bytes in one address
//! space: the decoded page first (`text`, `0..text.len()`), then the side
//! buffer `extra` (`text.len()..`), which holds every string the tokenizer
//! rewrote (decoded references, lower-cased names, normalised newlines):
//! a string the page holds verbatim is not copied, and none is lost.

use std::borrow::Cow;

use bytemuck::{Pod, Zeroable};
use htmltok::{Config, ErrorPolicy, Flow, ParseError, Token, Tokenizer};

/// The kinds, by their number in [`TokenRecord::kind`]; also the Python
/// `Token.kind` strings.
pub const KINDS: [&str; 6] = [
    "doctype",
    "start_tag",
    "end_tag",
    "comment",
    "text",
    "processing_instruction",
];

/// `TokenRecord::flags` bits.
pub const SELF_CLOSING: u8 = 1;
pub const FORCE_QUIRKS: u8 = 2;
/// The doctype has a name / public id / system id (`s0`, `s1`, `s2`):
/// a missing one differs from an empty one.
pub const HAS_S0: u8 = 4;
pub const HAS_S1: u8 = 8;
pub const HAS_S2: u8 = 16;

/// One token, 44 bytes, every integer a little-endian `u32` (`<u4` in
/// numpy's terms): a page's text and side buffer together may hold up to
/// [`MAX_BYTES`], which 32 bits address; half the size of 64-bit records,
/// and `token_table` ran faster on the corpus for it (its time is in
/// writing and copying the records). The strings by kind:
///
/// | kind | s0 | s1 | s2 |
/// |---|---|---|---|
/// | doctype | name | public id | system id |
/// | start_tag, end_tag | name | | |
/// | comment, text | data | | |
/// | processing_instruction | target | data | |
///
/// A tag's attributes are `attrs[first_attr .. first_attr + n_attrs]`.
/// The two bytes at the end are explicit padding: `repr(C)` adds none
/// (which `Pod` would refuse).
#[repr(C)]
#[derive(Clone, Copy, Default, Pod, Zeroable)]
pub struct TokenRecord {
    /// The token's bytes in `text`, `start..end`.
    pub start: u32,
    pub end: u32,
    pub s0_off: u32,
    pub s0_len: u32,
    pub s1_off: u32,
    pub s1_len: u32,
    pub s2_off: u32,
    pub s2_len: u32,
    pub first_attr: u32,
    pub n_attrs: u32,
    pub kind: u8,
    pub flags: u8,
    pub _pad: [u8; 2],
}

/// One attribute, 24 bytes, little-endian `u32`s: the name and value strings, and
/// where the name and the value start in `text` (for an empty value, where
/// it would start).
#[repr(C)]
#[derive(Clone, Copy, Default, Pod, Zeroable)]
pub struct AttrRecord {
    pub name_off: u32,
    pub name_len: u32,
    pub value_off: u32,
    pub value_len: u32,
    pub name_start: u32,
    pub value_start: u32,
}

/// The most UTF-8 bytes a table addresses (the decoded page and the side
/// buffer together): the largest `u32`.
pub const MAX_BYTES: usize = u32::MAX as usize;

/// A page too large for 32-bit records, with its size.
pub struct TooBig(pub usize);

/// A page's tokens (the end-of-file token left out) and, when asked for,
/// its parse errors.
#[derive(Default)]
pub struct Table {
    pub tokens: Vec<TokenRecord>,
    pub attrs: Vec<AttrRecord>,
    /// Rewritten strings, addressed from `text.len()` on.
    pub extra: String,
    pub errors: Vec<ParseError>,
}

/// Tokenizer options from Python's keyword arguments.
pub fn config(driven: bool) -> Config {
    Config::new().driven(driven)
}

impl Table {
    /// Tokenizes `text` (with errors when `errors`), or says it is too
    /// large for the records.
    ///
    /// Every offset and length in the records is at most the text's length
    /// plus the side buffer's (spans lie in the text, strings in one of
    /// the two, and there are fewer attributes than bytes), so checking
    /// that sum at the end is enough: below it no `as u32` truncated
    /// anything.
    pub fn build(text: &str, config: Config, errors: bool) -> Result<Table, TooBig> {
        if text.len() > MAX_BYTES {
            return Err(TooBig(text.len()));
        }
        let mut table = Table {
            // Guesses from the corpus (a token per 45 bytes, an attribute
            // per 130) with room to spare, so that few pages pay a regrowth
            // copy; pages of the untouched rest are never faulted in.
            tokens: Vec::with_capacity(text.len() / 32 + 16),
            attrs: Vec::with_capacity(text.len() / 96 + 16),
            ..Table::default()
        };
        if errors {
            let mut tok = Tokenizer::with_config(text, config.report_errors());
            table.fill(text, &mut tok);
            table.errors = tok.take_errors();
        } else {
            table.fill(text, &mut Tokenizer::with_config(text, config));
        }
        let total = text.len() + table.extra.len();
        if total > MAX_BYTES {
            return Err(TooBig(total));
        }
        Ok(table)
    }

    fn fill<E: ErrorPolicy>(&mut self, text: &str, tok: &mut Tokenizer<'_, E>) {
        let mut strings = Strings {
            text,
            extra: &mut self.extra,
        };
        let (tokens, attrs) = (&mut self.tokens, &mut self.attrs);
        tok.for_each_token(|token| {
            record(&token, &mut strings, tokens, attrs);
            Flow::Continue
        });
    }

    /// The string at `(off, len)` of the address space `text` + `extra`.
    ///
    /// Invariant: every pair in the records came from [`Strings::place`]
    /// over this `text` and `extra`, so it lies inside one of them on
    /// character boundaries; the slicing cannot fail for those.
    pub fn string<'a>(&'a self, text: &'a str, off: u32, len: u32) -> &'a str {
        let (off, len) = (off as usize, len as usize);
        if off < text.len() || (len == 0 && off == text.len()) {
            &text[off..off + len]
        } else {
            let off = off - text.len();
            &self.extra[off..off + len]
        }
    }
}

/// Where the strings of a token go: a string that is a slice of the page is
/// addressed where it is; any other is appended to the side buffer.
struct Strings<'a> {
    text: &'a str,
    extra: &'a mut String,
}

impl Strings<'_> {
    fn place(&mut self, s: &str) -> (u32, u32) {
        // A slice of `text` is recognised by its address: plain integer
        // comparisons, no pointer is dereferenced.
        let base = self.text.as_ptr() as usize;
        let at = (s.as_ptr() as usize).wrapping_sub(base);
        if at <= self.text.len() && s.len() <= self.text.len() - at {
            return (at as u32, s.len() as u32);
        }
        let off = self.text.len() + self.extra.len();
        self.extra.push_str(s);
        (off as u32, s.len() as u32)
    }
}

fn record(
    token: &Token<'_>,
    strings: &mut Strings<'_>,
    tokens: &mut Vec<TokenRecord>,
    attrs: &mut Vec<AttrRecord>,
) {
    let mut rec = TokenRecord::default();
    let span = match token {
        Token::Doctype(d) => {
            rec.kind = 0;
            let mut flags = if d.force_quirks() { FORCE_QUIRKS } else { 0 };
            if let Some(name) = d.name() {
                (rec.s0_off, rec.s0_len) = strings.place(name);
                flags |= HAS_S0;
            }
            if let Some(id) = d.public_id() {
                (rec.s1_off, rec.s1_len) = strings.place(id);
                flags |= HAS_S1;
            }
            if let Some(id) = d.system_id() {
                (rec.s2_off, rec.s2_len) = strings.place(id);
                flags |= HAS_S2;
            }
            rec.flags = flags;
            d.span()
        }
        Token::StartTag(tag) | Token::EndTag(tag) => {
            rec.kind = if matches!(token, Token::StartTag(_)) {
                1
            } else {
                2
            };
            rec.flags = if tag.self_closing() { SELF_CLOSING } else { 0 };
            (rec.s0_off, rec.s0_len) = strings.place(tag.name());
            rec.first_attr = attrs.len() as u32;
            for attr in tag.attributes() {
                let (name_off, name_len) = strings.place(attr.name());
                let (value_off, value_len) = strings.place(attr.value());
                attrs.push(AttrRecord {
                    name_off,
                    name_len,
                    value_off,
                    value_len,
                    name_start: attr.name_span().start as u32,
                    value_start: attr.value_span().start as u32,
                });
            }
            rec.n_attrs = attrs.len() as u32 - rec.first_attr;
            tag.span()
        }
        Token::Comment(c) => {
            rec.kind = 3;
            (rec.s0_off, rec.s0_len) = strings.place(c.as_str());
            c.span()
        }
        Token::Text(t) => {
            rec.kind = 4;
            (rec.s0_off, rec.s0_len) = strings.place(t.as_str());
            t.span()
        }
        Token::ProcessingInstruction(pi) => {
            rec.kind = 5;
            (rec.s0_off, rec.s0_len) = strings.place(pi.target());
            (rec.s1_off, rec.s1_len) = strings.place(pi.data());
            pi.span()
        }
        Token::Eof => return,
        // Token is #[non_exhaustive]: a kind added to the library later has
        // no record kind in the table's format yet, so it is left out as the
        // end of file is (the table's kinds are a contract with Python).
        _ => return,
    };
    rec.start = span.start as u32;
    rec.end = span.end as u32;
    tokens.push(rec);
}

/// A record type whose integers can be put in little-endian order.
pub trait Record: Pod {
    /// The record with every integer little-endian (a no-op on
    /// little-endian machines).
    fn to_le(self) -> Self;
}

/// `records` as the little-endian bytes Python is promised: the records
/// themselves on a little-endian machine, a byte-swapped copy elsewhere.
pub fn le_bytes<T: Record>(records: &[T]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(bytemuck::cast_slice(records))
    } else {
        let swapped: Vec<T> = records.iter().map(|r| r.to_le()).collect();
        Cow::Owned(bytemuck::cast_slice(&swapped).to_vec())
    }
}

impl Record for TokenRecord {
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

impl Record for AttrRecord {
    fn to_le(self) -> AttrRecord {
        AttrRecord {
            name_off: self.name_off.to_le(),
            name_len: self.name_len.to_le(),
            value_off: self.value_off.to_le(),
            value_len: self.value_len.to_le(),
            name_start: self.name_start.to_le(),
            value_start: self.value_start.to_le(),
        }
    }
}
