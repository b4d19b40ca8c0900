//! Line and column from byte offsets, computed on demand.
//!
//! Columns count as html5lib-tests counts them: 1-based, in UTF-16 code
//! units (a character outside the BMP counts 2), after newline
//! normalisation (CR and CRLF are one line break).

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in UTF-16 code units.
    pub col: usize,
}

/// Line and column of byte offsets of one text, which it holds (so that
/// it is never asked about another).
///
/// Queries in increasing order (the usual case: tokens and errors come in
/// input order) cost the distance from the previous one; an earlier
/// offset starts again from the text's start.
///
/// ```
/// use htmltok::{LineCol, LineIndex};
/// let mut lines = LineIndex::new("ab\r\ncd\u{1F600}e");
/// assert_eq!(lines.line_col(5), LineCol { line: 2, col: 2 });
/// assert_eq!(lines.line_col(10), LineCol { line: 2, col: 5 }); // U+1F600 is two UTF-16 units
/// assert_eq!(lines.line_col(1), LineCol { line: 1, col: 2 });
/// ```
///
/// After tokenizing, over the tokenizer's [`input`](crate::Tokenizer::input)
/// (while a token is held, `next_token_with_lines` lends the same):
///
/// ```
/// use htmltok::{LineIndex, Token, Tokenizer};
/// let mut tok = Tokenizer::new("<p>one\n<b>two</b>");
/// let mut bold = None;
/// while let Some(token) = tok.next_token() {
///     if let Token::StartTag(tag) = token {
///         if tag.name() == "b" {
///             bold = Some(tag.span().start);
///         }
///     }
/// }
/// let at = LineIndex::new(tok.input()).line_col(bold.unwrap());
/// assert_eq!((at.line, at.col), (2, 1));
/// ```
#[derive(Clone, Copy)]
pub struct LineIndex<'a> {
    text: &'a str,
    cursor: LineCursor,
}

impl<'a> LineIndex<'a> {
    /// An index over `text`.
    pub fn new(text: &'a str) -> LineIndex<'a> {
        LineIndex {
            text,
            cursor: LineCursor::new(),
        }
    }

    /// Line and column of byte `offset` of the text (an offset past the
    /// end is the end).
    pub fn line_col(&mut self, offset: usize) -> LineCol {
        self.cursor.line_col(self.text.as_bytes(), offset)
    }
}

impl std::fmt::Debug for LineIndex<'_> {
    // Not the text: it is a whole page.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineIndex")
            .field("len", &self.text.len())
            .field("at", &self.cursor)
            .finish()
    }
}

/// A position in some input: the line and column of `offset`. The
/// machinery behind [`LineIndex`], [`Lines`] and the positions of parse
/// errors; it does not hold the input, so each use keeps it with its own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineCursor {
    offset: usize,
    at: LineCol,
    /// The byte before `offset` was a CR, so an LF at `offset` is not a new line.
    after_cr: bool,
}

impl Default for LineCursor {
    fn default() -> Self {
        LineCursor::new()
    }
}

impl LineCursor {
    /// A cursor at the start of the input.
    pub(crate) fn new() -> LineCursor {
        LineCursor {
            offset: 0,
            at: LineCol { line: 1, col: 1 },
            after_cr: false,
        }
    }

    /// Line and column of byte `offset` of `input` (offsets past the end are
    /// clamped to the end). `input` must be the same input for every call.
    pub(crate) fn line_col(&mut self, input: &[u8], offset: usize) -> LineCol {
        let offset = offset.min(input.len());
        if offset < self.offset {
            *self = LineCursor::new();
        }
        self.advance(&input[self.offset..offset]);
        self.offset = offset;
        self.at
    }

    /// The offset this index is at.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    /// Line and column at [`offset`](Self::offset).
    pub(crate) fn position(&self) -> LineCol {
        self.at
    }

    /// Renumbers the offset after `drop` bytes before it were dropped from
    /// the input (a stream's window; the line and column stay).
    pub(crate) fn rebase(&mut self, drop: usize) {
        debug_assert!(drop <= self.offset);
        self.offset -= drop;
    }

    /// Moves over `bytes`, the input from the current offset up to `to`.
    pub(crate) fn advance_to(&mut self, bytes: &[u8], to: usize) {
        debug_assert_eq!(self.offset + bytes.len(), to);
        self.advance(bytes);
        self.offset = to;
    }

    /// Moves over `bytes`, which follow the bytes already seen.
    fn advance(&mut self, bytes: &[u8]) {
        // Long stretches: line breaks counted in bulk. A stream moves its
        // index over every byte it drops, so this runs over whole
        // documents, where a search per line cost more than the tokenizer's
        // own scans (the more so with CRs, which many real pages have).
        if bytes.len() >= 256 {
            let Some(last) = memchr::memrchr2(b'\n', b'\r', bytes) else {
                self.after_cr = false;
                self.add_columns(bytes);
                return;
            };
            // None after the last: the last line is left to the columns.
            self.at.line += crate::scan::lines::line_breaks(&bytes[..=last], self.after_cr);
            self.at.col = 1;
            self.after_cr = bytes[bytes.len() - 1] == b'\r';
            self.add_columns(&bytes[last + 1..]);
            return;
        }
        let mut rest = bytes;
        // Jump from line break to line break; count columns only on the last line.
        while let Some(i) = memchr::memchr2(b'\n', b'\r', rest) {
            if !(rest[i] == b'\n' && self.after_cr && i == 0) {
                self.at.line += 1;
            }
            self.at.col = 1;
            self.after_cr = rest[i] == b'\r';
            rest = &rest[i + 1..];
        }
        if !rest.is_empty() {
            self.after_cr = false;
        }
        self.add_columns(rest);
    }

    /// Adds the UTF-16 code units of `rest`, whole characters of one line.
    fn add_columns(&mut self, rest: &[u8]) {
        self.at.col += crate::scan::lines::utf16_units(rest);
    }
}

/// Line and column of the offsets of a token, handed out with it by
/// `next_token_with_lines` ([`Tokenizer`](crate::Tokenizer::next_token_with_lines),
/// [`StreamTokenizer`](crate::StreamTokenizer::next_token_with_lines),
/// [`ReaderTokenizer`](crate::ReaderTokenizer::next_token_with_lines)).
///
/// It borrows the input, not the tokenizer's state, so it is there while
/// the token is: inside a `match` on the token, where the tokenizer itself
/// is borrowed. Offsets from the token's start on cost the distance from
/// there; earlier offsets the distance from the input's start.
///
/// A stream's positions are exact for the token's start, and from
/// [`start`](Self::start) on: the start of the text the stream still
/// holds, with the lines and columns of the text it dropped counted. A
/// stream drops the bytes of a token in progress that it no longer needs
/// (the `<` of a tag whose name it has read; the first attributes of a
/// long tag, once their values were rewritten by a character reference;
/// any token past 256 KiB, which it copies out of its window): offsets
/// between the token's start and [`start`](Self::start) give the position
/// at `start`. The token's own start stays exact when the tokens were
/// taken with `next_token_with_lines` from the stream's first one on (the
/// stream counts up to each token's end, where the next one starts).
///
/// ```
/// use htmltok::{Token, Tokenizer};
/// let mut tok = Tokenizer::new("<p>\n<a\nhref=/x>x</a>");
/// while let Some((token, lines)) = tok.next_token_with_lines() {
///     if let Token::StartTag(tag) = token {
///         if let Some(href) = tag.attributes().find(|a| a.name() == "href") {
///             let (tag_at, value_at) = (lines.line_col(tag.span().start), lines.line_col(href.value_span().start));
///             assert_eq!((tag_at.line, tag_at.col, value_at.line, value_at.col), (2, 1, 3, 6));
///         }
///     }
/// }
/// ```
#[derive(Clone, Copy)]
pub struct Lines<'t> {
    /// The input from absolute offset `origin` on (a stream's window).
    text: &'t str,
    origin: usize,
    /// At `origin`.
    base: LineCursor,
    /// At the token's start, or an offset from `origin` to it; before
    /// `origin` only at the token's start.
    near: LineCursor,
}

impl<'t> Lines<'t> {
    /// `text` starts at absolute offset `origin`, where `base` is; `near`
    /// is at an absolute offset between `origin` and the end of `text`.
    pub(crate) fn new(text: &'t str, origin: usize, base: LineCursor, near: LineCursor) -> Self {
        debug_assert!(base.offset() == origin);
        debug_assert!(near.offset() <= origin + text.len());
        Lines {
            text,
            origin,
            base,
            near,
        }
    }

    /// The first offset whose position is known: 0 for a whole document,
    /// the start of the text a stream still holds (see above).
    pub fn start(&self) -> usize {
        self.origin
    }

    /// Line and column of the absolute byte `offset` (clamped to what the
    /// input still holds: from [`start`](Self::start) to the end of the
    /// input fed so far).
    pub fn line_col(&self, offset: usize) -> LineCol {
        if offset == self.near.offset() {
            return self.near.position();
        }
        let to = offset.clamp(self.origin, self.origin + self.text.len());
        let mut from = if (self.origin..=to).contains(&self.near.offset()) {
            self.near
        } else {
            self.base
        };
        let bytes = &self.text.as_bytes()[from.offset() - self.origin..to - self.origin];
        from.advance_to(bytes, to);
        from.position()
    }
}

impl std::fmt::Debug for Lines<'_> {
    // Not the text: for a whole document that would be the whole page.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines")
            .field("origin", &self.origin)
            .field("len", &self.text.len())
            .field("near", &self.near)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line and column by the plain definition: one character at a time.
    fn by_definition(text: &str) -> LineCol {
        let mut at = LineCol { line: 1, col: 1 };
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\r' && chars.peek() == Some(&'\n') {
                chars.next();
            }
            if c == '\r' || c == '\n' {
                at.line += 1;
                at.col = 1;
            } else {
                at.col += c.len_utf16();
            }
        }
        at
    }

    /// Text of `len` characters: LFs, CRs (if `with_cr`), multi-byte and
    /// astral characters among ASCII letters.
    fn sample(len: usize, with_cr: bool) -> String {
        (0..len)
            .map(|i| match i % 11 {
                0 if with_cr => '\r',
                1 | 5 => '\n',
                3 => '\u{e9}',
                7 => '\u{1F600}',
                9 if with_cr && i % 3 == 0 => '\r',
                _ => 'a',
            })
            .collect()
    }

    #[test]
    fn advancing_in_two_parts_equals_the_definition_at_every_split() {
        // Line breaks of every kind (a CRLF cut between its CR and LF among
        // them) across the 127-byte blocks of the column count; without
        // CRs, parts long enough for the bulk count of LFs.
        let crlf_then_lfs = format!("ab\r\n{}", sample(600, false));
        for text in [
            sample(700, true),
            sample(700, false),
            "x".repeat(600),
            crlf_then_lfs,
        ] {
            let bytes = text.as_bytes();
            for cut in (0..=bytes.len()).filter(|&c| text.is_char_boundary(c)) {
                let mut idx = LineCursor::new();
                idx.advance_to(&bytes[..cut], cut);
                assert_eq!(idx.position(), by_definition(&text[..cut]), "up to {cut}");
                idx.advance_to(&bytes[cut..], bytes.len());
                assert_eq!(idx.position(), by_definition(&text), "split at {cut}");
            }
        }
    }
}
