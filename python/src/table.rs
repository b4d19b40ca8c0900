//! A page's tokens as fixed-size records: what `token_table` hands to
//! Python in one piece, and what `tokenize` builds its objects from.
//!
//! The records are the library's (`htmltok::records`): tokenizing fills a
//! [`Table`] with the GIL released; only then are Python objects made (or,
//! for `token_table`, the records' bytes handed over).
//!
//! Strings are `(offset, length)` pairs of UTF-8 bytes in one address
//! space: the decoded page first (`text`, `0..text.len()`), then the side
//! buffer `extra` (`text.len()..`), which holds every string the tokenizer
//! rewrote (decoded references, lower-cased names, normalised newlines):
//! a string the page holds verbatim is not copied, and none is lost.

use std::borrow::Cow;

use htmltok::records::{Records, TooLarge};
use htmltok::{Config, ParseError, Tokenizer};

pub use htmltok::records::{AttributeRecord as AttrRecord, TokenRecord};

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
pub const SELF_CLOSING: u8 = TokenRecord::SELF_CLOSING;
pub const FORCE_QUIRKS: u8 = TokenRecord::FORCE_QUIRKS;
/// The doctype has a name / public id / system id (`s0`, `s1`, `s2`):
/// a missing one differs from an empty one.
pub const HAS_S0: u8 = TokenRecord::HAS_S0;
pub const HAS_S1: u8 = TokenRecord::HAS_S1;
pub const HAS_S2: u8 = TokenRecord::HAS_S2;

/// The most UTF-8 bytes a table addresses (the decoded page and the side
/// buffer together): the largest `u32`.
pub const MAX_BYTES: usize = u32::MAX as usize;

/// A page too large for 32-bit records, with its size.
pub struct TooBig(pub usize);

/// A page's tokens (the end-of-file token left out) and, when asked for,
/// its parse errors.
pub struct Table {
    pub records: Records,
    pub errors: Vec<ParseError>,
}

/// Tokenizer options from Python's keyword arguments.
pub fn config(driven: bool) -> Config {
    Config::new().driven(driven)
}

impl Table {
    /// Tokenizes `text` (with errors when `errors`), or says it is too
    /// large for the records.
    pub fn build(text: &str, config: Config, errors: bool) -> Result<Table, TooBig> {
        let mut records = Records::new();
        let errors = if errors {
            let mut tok = Tokenizer::with_config(text, config.report_errors());
            records.record(&mut tok).map_err(|TooLarge(n)| TooBig(n))?;
            tok.take_errors()
        } else {
            records
                .record(&mut Tokenizer::with_config(text, config))
                .map_err(|TooLarge(n)| TooBig(n))?;
            Vec::new()
        };
        Ok(Table { records, errors })
    }

    /// The token records.
    pub fn tokens(&self) -> &[TokenRecord] {
        self.records.tokens()
    }

    /// The attribute records.
    pub fn attrs(&self) -> &[AttrRecord] {
        self.records.attributes()
    }

    /// The rewritten strings, addressed from `text.len()` on.
    pub fn extra(&self) -> &str {
        self.records.side()
    }

    /// The string at `(off, len)` of the address space `text` + `extra`.
    pub fn string<'a>(&'a self, text: &'a str, off: u32, len: u32) -> &'a str {
        self.records.string(text, off, len)
    }

    /// The token records as the little-endian bytes Python is promised.
    pub fn token_bytes(&self) -> Cow<'_, [u8]> {
        self.records.token_bytes()
    }

    /// The attribute records as little-endian bytes.
    pub fn attr_bytes(&self) -> Cow<'_, [u8]> {
        self.records.attribute_bytes()
    }
}
