//! The scalar state machine: one `match` arm per state of the standard.
//!
//! The machine never owns the input. Each call gets a window of it
//! ([`Input`]): the bytes from absolute offset `origin` on, and whether the
//! input ends with the window (`eof`). Positions are offsets in the window:
//! a stream that drops the bytes before it shifts them all (`rebase`), and
//! `origin` is added only to the spans that leave the machine, so the
//! machine's code is the same for a stream as for a whole document.
//!
//! Invariants:
//! - The input is valid UTF-8. Every byte the state machine reacts to is
//!   ASCII; a multi-byte character is read whole and takes the "anything
//!   else" branch, which appends it unchanged. So every field and every run
//!   boundary falls on a character boundary, and owned fields (`String`s)
//!   are assembled from whole characters.
//! - The byte 0xFF never occurs in UTF-8, so it serves as the EOF "character".
//! - The machine is resumable at every byte: a state that needs to see more
//!   input than the window holds (a CR that might start CRLF, `<!DOCTYPE`,
//!   `PUBLIC`, a named reference) returns without consuming anything, and is
//!   called again with a longer window. Nothing in the machine depends on
//!   where the window ends.
//! - Token strings are [`Field`]s: they borrow an input range while what the
//!   standard appends is exactly the next input bytes, and switch to an owned
//!   buffer at the first rewrite. Deferred appends (the `--` of a comment end,
//!   the `</` and temporary buffer of a non-matching end tag, `]]` in CDATA)
//!   are appended as the input range they came from, so they stay borrowed.

use std::marker::PhantomData;

use super::attr_index::{self, AttrIndex};
use super::charref::{self, Decoded, RefErrors};
use super::{Config, ErrorPolicy, Feedback, Flow};
use crate::entities;
use crate::error::{ErrorCode, ParseError};
use crate::position::{LineCol, LineIndex};
use crate::scan;
use crate::state::State;
use crate::token::{
    AttrRecord, AttrStore, Attributes, Doctype, ProcessingInstruction, Slot, Span, Tag, Text,
    Token, IN_ARENA, VERBATIM,
};

/// The EOF "character" (never a UTF-8 byte).
const EOF: u8 = 0xFF;

/// Whether `b` may start a character the input stream reports: C0 controls
/// other than whitespace and NUL, DEL, and the UTF-8 lead bytes of C1
/// controls (0xC2), of U+FDD0..U+FDEF and U+FFFE/U+FFFF (0xEF), and of the
/// supplementary planes' noncharacters (0xF0..0xF4).
///
/// Comparisons only, combined without branches, so that a loop over a block
/// of bytes compiles to vector code (see `find_stream_suspect`).
#[inline(always)]
const fn is_stream_suspect(b: u8) -> bool {
    let c0_control =
        (b.wrapping_sub(1) < 0x1F) & (b != b'\t') & (b != b'\n') & (b != 0x0C) & (b != b'\r');
    c0_control | (b == 0x7F) | (b == 0xC2) | (b == 0xEF) | (b.wrapping_sub(0xF0) < 5)
}

/// Offset of the first byte of `hay` for which `is_stream_suspect` holds,
/// or `hay.len()`.
///
/// Safe code the compiler vectorizes: a block of 32 bytes is tested as a
/// whole (suspects are rare outside CJK text), and only a block that has
/// one is searched byte by byte. On the corpus with errors on, this and
/// scanning ahead (`stream_clear_until`) took the input-stream check from
/// about 7 instructions a byte (a table lookup and a branch per byte, from
/// each token on) to about 2.5, vector instructions.
fn find_stream_suspect(hay: &[u8]) -> usize {
    const BLOCK: usize = 32;
    let any = |block: &[u8; BLOCK]| {
        block
            .iter()
            .fold(false, |any, &b| any | is_stream_suspect(b))
    };
    let mut offset = 0;
    while let Some(block) = hay.get(offset..).and_then(|h| h.first_chunk::<BLOCK>()) {
        if any(block) {
            break;
        }
        offset += BLOCK;
    }
    let rest = &hay[offset..];
    if rest.len() < BLOCK {
        // The last, partial block (at the end of the window, or of a short
        // stretch): padded with a byte that is no suspect.
        let mut padded = [b' '; BLOCK];
        padded[..rest.len()].copy_from_slice(rest);
        if !any(&padded) {
            return hay.len();
        }
    }
    rest.iter()
        .position(|&b| is_stream_suspect(b))
        .map_or(hay.len(), |k| offset + k)
}

/// A window of the input. Machine positions are offsets in `text` (a
/// stream rebases them when it drops the bytes before its window, see
/// [`Machine::rebase`]); `origin` is the absolute offset of `text`'s first
/// byte, added only to what leaves the machine (token and error spans).
#[derive(Clone, Copy)]
pub(crate) struct Input<'b> {
    /// The window as text: borrowed fields are resolved by slicing it, which
    /// costs a boundary check instead of a second UTF-8 validation.
    pub(crate) text: &'b str,
    pub(crate) origin: usize,
    pub(crate) eof: bool,
}

impl<'b> Input<'b> {
    /// The window's bytes (no field of their own: the window is built on
    /// every call, and a copy of `text` is two more stores each time).
    #[inline(always)]
    fn buf(&self) -> &'b [u8] {
        self.text.as_bytes()
    }

    #[inline(always)]
    fn end(&self) -> usize {
        self.text.len()
    }

    #[inline(always)]
    fn at(&self, p: usize) -> u8 {
        self.buf()[p]
    }

    #[inline(always)]
    fn from(&self, p: usize) -> &'b [u8] {
        &self.buf()[p..]
    }

    #[inline(always)]
    fn slice(&self, s: usize, e: usize) -> &'b [u8] {
        &self.buf()[s..e]
    }

    /// The text of `s..e`, which are character boundaries (see the module
    /// invariants; a broken one shows as U+FFFD, never a panic).
    #[inline(always)]
    fn str(&self, s: usize, e: usize) -> &'b str {
        self.text.get(s..e).unwrap_or("\u{FFFD}")
    }

    /// `span` as an absolute span of the input, for handing out.
    #[inline(always)]
    fn absolute(&self, span: Span) -> Span {
        span.moved(self.origin)
    }
}

/// A token string under construction: an input range while it is a copy of
/// the input, an owned buffer after the first rewrite.
///
/// With a length limit (`Config::max_token_len`), a field that grows past it
/// is cut to the limit (at a character boundary), copied out of the input so
/// that it pins no input bytes, and ignores further appends.
struct Field {
    start: usize,
    end: usize,
    owned: bool,
    truncated: bool,
    limit: usize,
    /// The owned text (a `String`: it is assembled from whole characters,
    /// so handing it out needs no UTF-8 check).
    buf: String,
}

impl Default for Field {
    fn default() -> Self {
        Field {
            start: 0,
            end: 0,
            owned: false,
            truncated: false,
            limit: usize::MAX,
            buf: String::new(),
        }
    }
}

impl Field {
    /// Whether the field holds exactly the input bytes of `span`
    /// (`Slot::of_span(span)` is its slot).
    fn is_verbatim(&self, span: Span) -> bool {
        !self.owned
            && if self.start == self.end {
                span.start == span.end
            } else {
                self.start == span.start && self.end == span.end
            }
    }

    #[inline(always)]
    fn clear(&mut self) {
        // A truncated field is owned (`cut` makes it so).
        if self.owned {
            self.owned = false;
            self.truncated = false;
            self.buf.clear();
        }
        // Empty: an empty range anywhere is the empty string.
        self.end = self.start;
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        if self.owned {
            self.buf.is_empty()
        } else {
            self.start == self.end
        }
    }

    #[inline(always)]
    fn len(&self) -> usize {
        if self.owned {
            self.buf.len()
        } else {
            self.end - self.start
        }
    }

    /// Makes a field just cleared the input bytes `s..e`, which are within
    /// its length limit: `push_input` without its checks.
    #[inline(always)]
    fn set_cleared(&mut self, s: usize, e: usize) {
        debug_assert!(!self.owned && !self.truncated && self.start == self.end);
        debug_assert!(e - s <= self.limit);
        self.start = s;
        self.end = e;
    }

    #[inline(always)]
    fn push_input(&mut self, inp: &Input, s: usize, e: usize) {
        if s == e || self.truncated {
            return;
        }
        if !self.owned {
            if self.start == self.end {
                self.start = s;
                self.end = e;
            } else if self.end == s {
                self.end = e;
            } else {
                self.make_owned(inp);
                self.buf.push_str(inp.str(s, e));
            }
        } else {
            self.buf.push_str(inp.str(s, e));
        }
        if self.len() > self.limit {
            self.cut(inp);
        }
    }

    /// Appends input bytes `s..e` ASCII-lower-cased: borrowed when they
    /// have no upper-case letter.
    fn push_lowercase(&mut self, inp: &Input, s: usize, e: usize) {
        let bytes = inp.slice(s, e);
        if !bytes.iter().any(u8::is_ascii_uppercase) {
            return self.push_input(inp, s, e);
        }
        if self.truncated {
            return;
        }
        if !self.owned {
            self.make_owned(inp);
        }
        let from = self.buf.len();
        self.buf.push_str(inp.str(s, e));
        self.buf[from..].make_ascii_lowercase();
        if self.buf.len() > self.limit {
            self.cut(inp);
        }
    }

    /// Appends characters that are not the next input bytes.
    fn push_str(&mut self, inp: &Input, text: &str) {
        if self.truncated {
            return;
        }
        if !self.owned {
            self.make_owned(inp);
        }
        self.buf.push_str(text);
        if self.buf.len() > self.limit {
            self.cut(inp);
        }
    }

    /// Cuts the field to its limit, at a character boundary.
    #[cold]
    #[inline(never)]
    fn cut(&mut self, inp: &Input) {
        if !self.owned {
            // Cut the borrowed range at a character boundary of the input.
            let mut keep = (self.start + self.limit).min(self.end);
            while keep > self.start && !inp.text.is_char_boundary(keep) {
                keep -= 1;
            }
            self.end = keep;
            self.make_owned(inp);
        }
        let mut cut = self.limit.min(self.buf.len());
        while !self.buf.is_char_boundary(cut) {
            cut -= 1;
        }
        self.buf.truncate(cut);
        // Owned (made so above): `clear` relies on it.
        debug_assert!(self.owned);
        self.truncated = true;
    }

    #[cold]
    fn make_owned(&mut self, inp: &Input) {
        self.buf.clear();
        if self.start != self.end {
            self.buf.push_str(inp.str(self.start, self.end));
        }
        self.owned = true;
    }

    #[inline(always)]
    fn bytes<'t>(&'t self, inp: &Input<'t>) -> &'t [u8] {
        if self.owned {
            self.buf.as_bytes()
        } else if self.start == self.end {
            b""
        } else {
            inp.slice(self.start, self.end)
        }
    }

    fn slot(&self) -> Slot {
        if self.owned {
            Slot::Scratch(0, self.buf.len())
        } else if self.start == self.end {
            Slot::Empty
        } else {
            Slot::Input(self.start, self.end)
        }
    }

    /// The field as text: what `resolve(self.slot(), ..)` gives, without
    /// building the slot (this runs for every tag name and text token).
    #[inline]
    fn str<'t>(&'t self, inp: &Input<'t>) -> &'t str {
        if self.owned {
            &self.buf
        } else if self.start == self.end {
            ""
        } else {
            inp.str(self.start, self.end)
        }
    }

    /// The earliest input offset the field still borrows, if any.
    fn borrows_from(&self) -> Option<usize> {
        (!self.owned && self.start != self.end).then_some(self.start)
    }
}

/// The lower-case letter for the upper-case ASCII letter `c`, as text.
fn ascii_lower(c: u8) -> &'static str {
    const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
    let i = usize::from(c.wrapping_sub(b'A')).min(25);
    &LOWER[i..i + 1]
}

/// Appends the current character (at `p`, `n` bytes) to `field`, with CR and
/// CRLF as LF.
fn push_char(field: &mut Field, inp: &Input, p: usize, n: usize) {
    if inp.at(p) == b'\r' {
        if n == 2 {
            field.push_input(inp, p + 1, p + 2);
        } else {
            field.push_str(inp, "\n");
        }
    } else {
        field.push_input(inp, p, p + n);
    }
}

/// Which non-text token is complete and waiting to be handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ready {
    StartTag,
    EndTag,
    Comment,
    Doctype,
    ProcessingInstruction,
    Eof,
}

/// What the last `next_token` call handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handed {
    Nothing,
    /// The pending text; `ready` (if any) goes next.
    Text,
    /// The `ready` token.
    Ready,
}

pub(crate) struct Machine<E> {
    state: State,
    /// The standard's return state, for character references.
    return_state: State,
    /// Absolute offset of the next byte to consume.
    pos: usize,

    last_start_tag: Vec<u8>,
    /// When set, the last start tag's name is these input bytes and
    /// `last_start_tag` is stale: a start tag whose name is verbatim input
    /// (almost all) costs no copy. A stream calls `keep_last_start_tag`
    /// before it drops input bytes.
    last_start_tag_span: Option<Span>,
    has_last_start_tag: bool,
    cdata_allowed: bool,
    processing_instructions: bool,
    /// Keep text pending at the end of a window instead of handing it out
    /// (streams only: one text token per run, at the cost of buffering it).
    join_text: bool,
    /// Use the SIMD scans (`Config::simd`).
    simd: bool,
    /// Take the common paths of the data and tag states in one go
    /// (`data_lane`, `tag_fast_path`) rather than a step per state
    /// (`Config::fast_paths`).
    fast_paths: bool,
    /// `Config::max_attributes` and `Config::max_token_len`.
    max_attributes: usize,
    max_token_len: usize,
    /// Whether either limit is set: one test per token instead of two.
    limited: bool,
    /// An attribute of the current tag was dropped or cut by a limit.
    tag_limited: bool,

    // Output.
    text: Field,
    text_span: Span,
    ready: Option<Ready>,
    handed: Handed,
    finished: bool,

    /// Where a caller last put the machine into a state (construction or
    /// `set_state`). Bytes before it were not consumed by the machine, so a
    /// read-back (the `--` of a comment end, the `<` of a tag that turned
    /// out not to be one) reaching before it uses the literal the standard
    /// appends instead: only possible when a caller starts the machine
    /// directly in a mid-token state.
    entered_at: usize,
    /// The token last handed out of each kind is done with: its fields
    /// still hold what they held, but pin no input bytes
    /// (`earliest_needed`) until the next token of the kind starts.
    stale_tag: bool,
    stale_comment: bool,
    stale_doctype: bool,
    /// Offset of the `<` (or `&`) that started the markup being read.
    lt: usize,
    /// `lt` and `amp` were set by the machine from a `<` / `&` it consumed
    /// (not left over from before a caller's `set_state`).
    lt_read: bool,
    amp_read: bool,
    /// Offset of the `&` of the character reference being read.
    amp: usize,
    temp: Vec<u8>,
    charref_code: u32,

    // The current tag.
    tag_is_end: bool,
    self_closing: bool,
    tag_name: Field,
    tag_name_span: Span,
    token_end: usize,
    attrs: Vec<AttrRecord>,
    /// Index of the first record of `attrs` that may still borrow input
    /// bytes: those before it borrow none (see `earliest_needed`).
    attrs_borrowing: usize,
    /// The rewritten strings of the attributes that are not `VERBATIM`.
    attr_store: AttrStore,
    attr_live: bool,
    /// Whether `attr_name` and `attr_value` may hold something: set by
    /// `new_attr` and `fast_leave`, the only ways into the general
    /// machine's attribute states, so that `new_tag` tests one flag instead
    /// of both fields.
    attr_fields_used: bool,
    attr_duplicate: bool,
    attr_name: Field,
    attr_value: Field,
    attr_name_span: Span,
    attr_value_span: Span,
    attr_index: AttrIndex,

    // The current comment (also the processing instruction's data).
    comment: Field,
    pi_target: Field,

    // The current DOCTYPE.
    doctype_name: Field,
    doctype_public: Field,
    doctype_system: Field,
    has_doctype_name: bool,
    has_doctype_public: bool,
    has_doctype_system: bool,
    force_quirks: bool,

    errors: Vec<ParseError>,
    /// Line/column cursor for error locations (errors on only): usually at
    /// the last error, so successive errors cost the distance between them.
    lines: LineIndex,
    /// Line/column at the start of the window, for the rare error reported
    /// behind the cursor.
    lines_at_base: LineIndex,
    /// Limit errors waiting for a window to locate them in.
    limit_errors: Vec<(ErrorCode, usize)>,
    /// Input-stream checks (control characters, noncharacters) are done up to
    /// here.
    stream_checked: usize,
    /// No byte from `stream_checked` (or the window's start) up to here can
    /// start a reported character: the scan for the next suspect goes on to
    /// the end of the window, so that the many checks up to the end of each
    /// token cost nothing until the input reaches the suspect.
    stream_clear_until: usize,
    _policy: PhantomData<E>,
}

impl<E: ErrorPolicy> Machine<E> {
    pub(crate) fn new(config: &Config) -> Self {
        let mut machine = Machine {
            state: config.initial_state,
            return_state: State::Data,
            pos: 0,
            last_start_tag: config
                .last_start_tag
                .as_deref()
                .unwrap_or("")
                .as_bytes()
                .to_vec(),
            last_start_tag_span: None,
            has_last_start_tag: config.last_start_tag.is_some(),
            cdata_allowed: config.cdata_allowed,
            processing_instructions: config.processing_instructions,
            join_text: config.join_text,
            simd: config.simd,
            fast_paths: config.fast_paths,
            max_attributes: config.max_attributes,
            max_token_len: config.max_token_len,
            limited: config.max_attributes != usize::MAX || config.max_token_len != usize::MAX,
            tag_limited: false,
            text: Field::default(),
            text_span: Span::default(),
            ready: None,
            handed: Handed::Nothing,
            finished: false,
            entered_at: 0,
            stale_tag: false,
            stale_comment: false,
            stale_doctype: false,
            lt_read: false,
            amp_read: false,
            lt: 0,
            amp: 0,
            temp: Vec::new(),
            charref_code: 0,
            tag_is_end: false,
            self_closing: false,
            tag_name: Field::default(),
            tag_name_span: Span::default(),
            token_end: 0,
            attrs: Vec::new(),
            attrs_borrowing: 0,
            attr_store: AttrStore::default(),
            attr_live: false,
            attr_fields_used: false,
            attr_duplicate: false,
            attr_name: Field::default(),
            attr_value: Field::default(),
            attr_name_span: Span::default(),
            attr_value_span: Span::default(),
            attr_index: AttrIndex::new(),
            comment: Field::default(),
            pi_target: Field::default(),
            doctype_name: Field::default(),
            doctype_public: Field::default(),
            doctype_system: Field::default(),
            has_doctype_name: false,
            has_doctype_public: false,
            has_doctype_system: false,
            force_quirks: false,
            errors: Vec::new(),
            lines: LineIndex::new(),
            lines_at_base: LineIndex::new(),
            limit_errors: Vec::new(),
            stream_checked: 0,
            stream_clear_until: 0,
            _policy: PhantomData,
        };
        let limit = config.max_token_len;
        for field in [
            &mut machine.tag_name,
            &mut machine.attr_name,
            &mut machine.attr_value,
            &mut machine.comment,
            &mut machine.pi_target,
            &mut machine.doctype_name,
            &mut machine.doctype_public,
            &mut machine.doctype_system,
        ] {
            field.limit = limit;
        }
        machine
    }

    pub(crate) fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    pub(crate) fn set_state(&mut self, state: State) {
        if state != self.state {
            self.entered_at = self.pos;
            self.lt_read = false;
            self.amp_read = false;
        }
        // A caller may start the machine in an attribute's states, which
        // then fill the attribute fields without `new_attr`.
        self.attr_fields_used = true;
        self.state = state;
    }

    pub(crate) fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.last_start_tag_span = None;
        self.last_start_tag.clear();
        self.last_start_tag
            .extend_from_slice(name.unwrap_or("").as_bytes());
        self.has_last_start_tag = name.is_some();
    }

    pub(crate) fn set_cdata_allowed(&mut self, allowed: bool) {
        self.cdata_allowed = allowed;
    }

    pub(crate) fn state(&self) -> State {
        self.state
    }

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
        while let Some(a) = self.attrs.get(self.attrs_borrowing) {
            if let Some(start) = a.borrowed_start(&self.attr_store.rewritten) {
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
    fn live_fields(&self) -> impl Iterator<Item = &Field> {
        let tag = [&self.tag_name, &self.attr_name, &self.attr_value];
        let comment = [&self.comment, &self.pi_target];
        let doctype = [
            &self.doctype_name,
            &self.doctype_public,
            &self.doctype_system,
        ];
        std::iter::once(&self.text)
            .chain(tag.into_iter().filter(|_| !self.stale_tag))
            .chain(comment.into_iter().filter(|_| !self.stale_comment))
            .chain(doctype.into_iter().filter(|_| !self.stale_doctype))
    }

    /// Copies every string of the token in progress out of the input, so
    /// that it pins no input bytes: a stream calls this when the bytes it
    /// must keep grow large (a huge token), after which it keeps only what
    /// the fields hold (bounded by `Config::max_token_len` when set).
    pub(crate) fn detach(&mut self, text: &str) {
        let inp = Input {
            text,
            origin: 0,
            eof: false,
        };
        // Stale fields (of tokens already handed out) may refer to bytes
        // the window no longer has: they are left alone.
        let (tag, comment, doctype) = (!self.stale_tag, !self.stale_comment, !self.stale_doctype);
        for (live, field) in [
            (true, &mut self.text),
            (tag, &mut self.tag_name),
            (tag, &mut self.attr_name),
            (tag, &mut self.attr_value),
            (comment, &mut self.comment),
            (comment, &mut self.pi_target),
            (doctype, &mut self.doctype_name),
            (doctype, &mut self.doctype_public),
            (doctype, &mut self.doctype_system),
        ] {
            if live && field.borrows_from().is_some() {
                field.make_owned(&inp);
            }
        }
        if !tag {
            return;
        }
        // The records before the cursor borrow nothing; visiting only the
        // others keeps a huge tag's repeated detaching linear.
        let from = self.attrs_borrowing;
        self.attrs_borrowing = self.attrs.len();
        for a in &mut self.attrs[from..] {
            if a.strings == VERBATIM {
                // Name and value side by side in the arena: the record
                // stays 40 bytes, with no slots in the side list.
                a.strings = IN_ARENA | self.attr_store.arena.len();
                for span in [a.name_span, a.value_span] {
                    self.attr_store
                        .arena
                        .push_str(inp.str(span.start, span.end));
                }
            } else if a.strings & IN_ARENA == 0 {
                let Some((name, value)) = self.attr_store.rewritten.get_mut(a.strings) else {
                    continue;
                };
                for slot in [name, value] {
                    if let Slot::Input(s, e) = *slot {
                        let start = self.attr_store.arena.len();
                        self.attr_store.arena.push_str(inp.str(s, e));
                        *slot = Slot::Scratch(start, self.attr_store.arena.len());
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
        self.attrs.len() + self.attr_store.rewritten.len() + self.limit_errors.len()
    }

    /// Bytes held in scratch buffers (for memory-bound tests).
    pub(crate) fn scratch_capacity(&self) -> usize {
        let fields = [
            &self.text,
            &self.tag_name,
            &self.attr_name,
            &self.attr_value,
            &self.comment,
            &self.pi_target,
            &self.doctype_name,
            &self.doctype_public,
            &self.doctype_system,
        ];
        fields.iter().map(|f| f.buf.capacity()).sum::<usize>()
            + self.attr_store.arena.capacity()
            + self.attrs.capacity() * std::mem::size_of::<AttrRecord>()
            + self.attr_store.rewritten.capacity() * std::mem::size_of::<(Slot, Slot)>()
    }

    /// Runs the machine and hands out the next token, or `None` when the
    /// window is used up (only possible when `eof` is false) or after EOF.
    ///
    /// Standalone mode (`feedback`, see
    /// [`hand_out_observed`](Self::hand_out_observed)) and driven mode are
    /// two functions, each with the machine inlined: the driven one carries
    /// no code for the feedback. Each has a second copy for a whole
    /// document (`origin` 0, `eof`), chosen here: from `Tokenizer` the test
    /// folds away, a stream pays it per call.
    #[inline(always)]
    pub(crate) fn next_token<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
        feedback: Option<&mut Feedback>,
    ) -> Option<Token<'t>> {
        // The tag after a text token (a third of all tokens) is complete
        // already: it is handed out here, inline, without the call of the
        // machine's big function, whose entry and exit alone cost more than
        // the hand-out (5% of all instructions on the corpus).
        match feedback {
            None => {
                if self.tag_waits() {
                    return Some(self.hand_out_waiting_tag(Input { text, origin, eof }));
                }
                if origin == 0 && eof {
                    return self.next_token_driven_whole(text);
                }
                self.next_token_driven(text, origin, eof)
            }
            Some(feedback) => {
                if origin == 0 && eof {
                    return self.next_token_standalone_whole(text, feedback);
                }
                self.next_token_standalone(text, origin, eof, feedback)
            }
        }
    }

    /// `advance`'s bookkeeping after a token other than a tag was handed
    /// out.
    #[cold]
    #[inline(never)]
    fn handed_other(&mut self, kind: Ready) {
        match kind {
            Ready::StartTag | Ready::EndTag => self.stale_tag = true,
            Ready::Comment | Ready::ProcessingInstruction => self.stale_comment = true,
            Ready::Doctype => self.stale_doctype = true,
            Ready::Eof => self.finished = true,
        }
    }

    /// Whether a tag waits behind the text handed out last.
    #[inline(always)]
    fn tag_waits(&self) -> bool {
        self.handed == Handed::Text && matches!(self.ready, Some(Ready::StartTag | Ready::EndTag))
    }

    /// What `hand_out` does for a tag waiting behind the text just handed
    /// out: forget the text, hand out the tag.
    #[inline(always)]
    fn hand_out_waiting_tag<'t>(&'t mut self, inp: Input<'t>) -> Token<'t> {
        self.attr_store.origin = inp.origin;
        self.text.clear();
        self.handed = Handed::Ready;
        self.ready_token(inp)
    }

    /// [`next_token_driven`](Self::next_token_driven) for a whole document
    /// (at origin 0, a window that ends the input): the constants reach the
    /// inlined machine, which then has no window end to wait at and no
    /// origin to add to spans.
    #[inline(never)]
    fn next_token_driven_whole<'t>(&'t mut self, text: &'t str) -> Option<Token<'t>> {
        self.next_token_inline(text, 0, true, None)
    }

    /// [`next_token_standalone`](Self::next_token_standalone) for a whole
    /// document, as [`next_token_driven_whole`](Self::next_token_driven_whole).
    #[inline(never)]
    fn next_token_standalone_whole<'t>(
        &'t mut self,
        text: &'t str,
        feedback: &mut Feedback,
    ) -> Option<Token<'t>> {
        self.next_token_inline(text, 0, true, Some(feedback))
    }

    #[inline(never)]
    fn next_token_driven<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
    ) -> Option<Token<'t>> {
        self.next_token_inline(text, origin, eof, None)
    }

    #[inline(never)]
    fn next_token_standalone<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
        feedback: &mut Feedback,
    ) -> Option<Token<'t>> {
        self.next_token_inline(text, origin, eof, Some(feedback))
    }

    /// [`next_token`](Self::next_token) with the machine inlined where it
    /// is called: for the loop that takes every token in one place
    /// ([`for_each_token`](Self::for_each_token)), where the token is then
    /// looked at where it is built instead of being stored for a caller to
    /// load (3.4% fewer instructions over the corpus in standalone mode;
    /// driven, since whole documents have their own copies of the big
    /// functions, 1.7% more, and in wall time 4% slower). Each use is a copy
    /// of the machine, so it has few callers.
    #[inline(always)]
    fn next_token_inline<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
        feedback: Option<&mut Feedback>,
    ) -> Option<Token<'t>> {
        let inp = Input { text, origin, eof };
        let Some(feedback) = feedback else {
            return self.hand_out(inp);
        };
        self.hand_out_observed(inp, feedback)
    }

    /// Hands every token to `f` until the window is used up, EOF has been
    /// handed out, or `f` says [`Flow::Stop`]: the loop of
    /// `Tokenizer::for_each_token` and `StreamTokenizer::for_each_token`.
    #[inline(always)]
    pub(crate) fn for_each_token<F, T>(
        &mut self,
        text: &str,
        origin: usize,
        eof: bool,
        mut feedback: Option<&mut Feedback>,
        mut f: F,
    ) where
        F: FnMut(Token<'_>) -> T,
        T: Into<Flow>,
    {
        loop {
            let flow = {
                let token = self.next_token_inline(text, origin, eof, feedback.as_deref_mut());
                let Some(token) = token else { return };
                f(token).into()
            };
            match flow {
                Flow::Continue => {}
                Flow::Switch(state) => self.set_state(state),
                Flow::Stop => return,
            }
        }
    }

    /// Standalone mode's [`hand_out`](Self::hand_out): the switches decided
    /// on the last token are applied first, and the new token is looked at
    /// before it is returned.
    #[inline(always)]
    fn hand_out_observed<'t>(
        &'t mut self,
        inp: Input<'t>,
        feedback: &mut Feedback,
    ) -> Option<Token<'t>> {
        if let Some(switch) = feedback.pending.take() {
            self.set_cdata_allowed(switch.cdata_allowed);
            if let Some(state) = switch.state {
                self.set_state(state);
            }
        }
        let token = self.hand_out(inp);
        if let Some(token) = &token {
            feedback.pending = feedback.observe(token);
        }
        token
    }

    /// Runs the machine (`advance`) and builds the token it says to hand
    /// out.
    #[inline(always)]
    fn hand_out<'t>(&'t mut self, inp: Input<'t>) -> Option<Token<'t>> {
        match self.advance(&inp) {
            Handed::Text => Some(self.text_token(inp)),
            Handed::Ready => Some(self.ready_token(inp)),
            Handed::Nothing => None,
        }
    }

    /// The token handed out last, built again from the same window (`text`
    /// at `origin`, as it was then: nothing fed or dropped since), or
    /// `None` if the last call handed out nothing. Its fields stay until
    /// the next call forgets them (`advance`), so a caller can take a
    /// token, drop it, and lend it again beside a borrow of its own (the
    /// positions of `next_token_with_lines`, a reader's loop that feeds
    /// the stream when no token came). Standalone mode's feedback has seen
    /// the token already.
    pub(crate) fn last_token<'t>(&'t self, text: &'t str, origin: usize) -> Option<Token<'t>> {
        let inp = Input {
            text,
            origin,
            eof: false,
        };
        match self.handed {
            Handed::Text => Some(self.text_token(inp)),
            Handed::Ready => Some(self.ready_token(inp)),
            Handed::Nothing => None,
        }
    }

    /// Whether the end-of-file token has been handed out.
    pub(crate) fn eof_handed(&self) -> bool {
        self.finished || (self.handed == Handed::Ready && self.ready == Some(Ready::Eof))
    }

    #[inline(always)]
    fn text_token<'t>(&'t self, inp: Input<'t>) -> Token<'t> {
        Token::Text(Text {
            text: self.text.str(&inp),
            span: inp.absolute(self.text_span),
        })
    }

    /// Forgets the token handed out last, runs the machine until a token is
    /// complete (or the window is used up), and says what to hand out.
    #[inline(always)]
    fn advance(&mut self, inp: &Input) -> Handed {
        // Attribute records are resolved in the window of this call.
        self.attr_store.origin = inp.origin;
        match self.handed {
            Handed::Text => {
                self.text.clear();
                if self.ready.is_some() {
                    self.handed = Handed::Ready;
                    return Handed::Ready;
                }
            }
            Handed::Ready => {
                if let Some(kind) = self.ready.take() {
                    // The handed-out token's fields pin no input bytes any
                    // more (a stream could otherwise never drop the bytes
                    // after the last tag of a long text); they are cleared
                    // when the next token of their kind begins. A tag first
                    // and alone: a `match` on the kind compiled to an
                    // indirect jump on every hand-out of a tag.
                    if matches!(kind, Ready::StartTag | Ready::EndTag) {
                        self.stale_tag = true;
                    } else {
                        self.handed_other(kind);
                    }
                }
            }
            Handed::Nothing => {}
        }
        self.handed = Handed::Nothing;
        if self.finished {
            return Handed::Nothing;
        }
        self.run(inp);
        if E::ENABLED && !self.limit_errors.is_empty() {
            for (code, at) in std::mem::take(&mut self.limit_errors) {
                self.err(inp, code, at);
            }
        }
        if !self.text.is_empty() && (self.ready.is_some() || (!inp.eof && !self.join_text)) {
            self.handed = Handed::Text;
            if E::ENABLED {
                self.check_stream(inp, self.pos.saturating_sub(1));
            }
        } else if self.ready.is_some() {
            self.handed = Handed::Ready;
        }
        self.handed
    }

    #[inline(always)]
    fn ready_token<'t>(&'t self, inp: Input<'t>) -> Token<'t> {
        let span = inp.absolute(Span {
            start: self.lt,
            end: self.token_end,
        });
        match self.ready {
            Some(Ready::StartTag) | Some(Ready::EndTag) => {
                let tag = Tag {
                    name: self.tag_name.str(&inp),
                    self_closing: self.self_closing,
                    span,
                    name_span: inp.absolute(self.tag_name_span),
                    attrs: if self.tag_is_end {
                        Attributes::EMPTY
                    } else {
                        Attributes {
                            records: &self.attrs,
                            input: inp.text,
                            store: &self.attr_store,
                        }
                    },
                };
                if self.tag_is_end {
                    Token::EndTag(tag)
                } else {
                    Token::StartTag(tag)
                }
            }
            Some(Ready::Comment) => Token::Comment(Text {
                text: self.comment.str(&inp),
                span,
            }),
            Some(Ready::Doctype) => Token::Doctype(Doctype {
                name: self.has_doctype_name.then(|| self.doctype_name.str(&inp)),
                public_id: self
                    .has_doctype_public
                    .then(|| self.doctype_public.str(&inp)),
                system_id: self
                    .has_doctype_system
                    .then(|| self.doctype_system.str(&inp)),
                force_quirks: self.force_quirks,
                span,
            }),
            Some(Ready::ProcessingInstruction) => {
                Token::ProcessingInstruction(ProcessingInstruction {
                    target: self.pi_target.str(&inp),
                    data: self.comment.str(&inp),
                    span,
                })
            }
            Some(Ready::Eof) | None => Token::Eof,
        }
    }

    // ----- errors -------------------------------------------------------

    /// Records a parse error reported at offset `at`.
    #[inline]
    fn err(&mut self, inp: &Input, code: ErrorCode, at: usize) {
        if E::ENABLED {
            self.check_stream(inp, at);
            let end = if at < inp.end() { at + 1 } else { at };
            self.push_error(inp, code, Span { start: at, end });
        }
    }

    fn push_error(&mut self, inp: &Input, code: ErrorCode, span: Span) {
        let location = self.locate(inp, span.start);
        self.errors.push(ParseError {
            code,
            span: inp.absolute(span),
            location,
        });
    }

    /// Line and column of `at`, which is in the window.
    fn locate(&mut self, inp: &Input, at: usize) -> LineCol {
        if at < self.lines.offset() {
            self.lines = self.lines_at_base;
        }
        let from = self.lines.offset();
        self.lines
            .advance_to(inp.slice(from, at.min(inp.end())), at);
        self.lines.position()
    }

    /// Called by a stream before it drops the first `drop` bytes of its
    /// window `text` (at absolute offset `origin`); `rebase` follows once
    /// they are gone.
    pub(crate) fn before_dropping(&mut self, text: &str, origin: usize, drop: usize) {
        if !E::ENABLED {
            return;
        }
        let inp = Input {
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
    /// Those wrap, and `Input::absolute` wraps them back, so spans stay
    /// exact. The few positions that are compared rather than handed out
    /// (`entered_at`, the input-stream check's progress) saturate at the
    /// window's start, which is what they mean there.
    pub(crate) fn rebase(&mut self, drop: usize) {
        let shift = |p: &mut usize| *p = p.wrapping_sub(drop);
        let shift_span = |s: &mut Span| *s = s.moved(drop.wrapping_neg());
        shift(&mut self.pos);
        shift(&mut self.lt);
        shift(&mut self.amp);
        shift(&mut self.token_end);
        self.entered_at = self.entered_at.saturating_sub(drop);
        self.stream_checked = self.stream_checked.saturating_sub(drop);
        self.stream_clear_until = self.stream_clear_until.saturating_sub(drop);
        for field in [
            &mut self.text,
            &mut self.tag_name,
            &mut self.attr_name,
            &mut self.attr_value,
            &mut self.comment,
            &mut self.pi_target,
            &mut self.doctype_name,
            &mut self.doctype_public,
            &mut self.doctype_system,
        ] {
            shift(&mut field.start);
            shift(&mut field.end);
        }
        for span in [
            &mut self.text_span,
            &mut self.tag_name_span,
            &mut self.attr_name_span,
            &mut self.attr_value_span,
        ] {
            shift_span(span);
        }
        if let Some(span) = &mut self.last_start_tag_span {
            shift_span(span);
        }
        for a in &mut self.attrs {
            shift_span(&mut a.name_span);
            shift_span(&mut a.value_span);
        }
        for (name, value) in &mut self.attr_store.rewritten {
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

    /// Takes the errors collected so far.
    pub(crate) fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.errors)
    }

    /// Raises the input-stream errors (control characters, noncharacters)
    /// for every character starting at or before `upto`, in order. The
    /// standard raises them as characters are read, before the tokenizer
    /// acts on them; checking lazily up to each tokenizer error keeps the
    /// order without a per-byte cost.
    fn check_stream(&mut self, inp: &Input, upto: usize) {
        let end = inp.end();
        let stop = upto.saturating_add(1).min(end);
        let mut i = self.stream_checked;
        while i < stop {
            if i < self.stream_clear_until {
                i = self.stream_clear_until.min(stop);
                continue;
            }
            // Jump to the next byte that can start a control character or a
            // noncharacter. Suspects are ASCII or lead bytes, never UTF-8
            // continuation bytes, so `i` stays on a character boundary.
            let k = find_stream_suspect(inp.from(i));
            self.stream_clear_until = i + k;
            if i + k >= stop {
                i = stop;
                break;
            }
            i += k;
            let b = inp.at(i);
            if b < 0x80 {
                self.push_error(
                    inp,
                    ErrorCode::ControlCharacterInInputStream,
                    Span {
                        start: i,
                        end: i + 1,
                    },
                );
                i += 1;
                continue;
            }
            let len = if b == 0xC2 {
                2
            } else if b == 0xEF {
                3
            } else {
                4
            };
            if i + len > end {
                // The rest of this character is not in the window yet.
                break;
            }
            let c = std::str::from_utf8(inp.slice(i, i + len))
                .ok()
                .and_then(|s| s.chars().next())
                .map_or(0, |c| c as u32);
            let code = if (0x80..=0x9F).contains(&c) {
                Some(ErrorCode::ControlCharacterInInputStream)
            } else if charref::is_noncharacter(c) {
                Some(ErrorCode::NoncharacterInInputStream)
            } else {
                None
            };
            if let Some(code) = code {
                self.push_error(
                    inp,
                    code,
                    Span {
                        start: i,
                        end: i + len,
                    },
                );
            }
            i += len;
        }
        self.stream_checked = self.stream_checked.max(i);
    }

    // ----- output helpers -------------------------------------------------

    fn text_started(&mut self, p: usize) {
        if self.text.is_empty() {
            self.text_span.start = p;
        }
    }

    /// Emits input bytes `s..e` as characters.
    #[inline(always)]
    fn emit_input(&mut self, inp: &Input, s: usize, e: usize) {
        if self.text.start == self.text.end && !self.text.owned {
            // The first run of a text token (no limit applies to text).
            self.text.start = s;
            self.text.end = e;
            self.text_span = Span { start: s, end: e };
            return;
        }
        if s == e {
            return;
        }
        self.text_started(s);
        self.text.push_input(inp, s, e);
        self.text_span.end = e;
    }

    /// Emits the current character (CR/CRLF as LF).
    fn emit_char(&mut self, inp: &Input, p: usize, n: usize) {
        self.text_started(p);
        push_char(&mut self.text, inp, p, n);
        self.text_span.end = p + n;
    }

    /// Emits characters that are not the input's bytes (U+FFFD, a decoded
    /// reference); `s..e` are the input bytes they stand for.
    fn emit_str(&mut self, inp: &Input, text: &str, s: usize, e: usize) {
        self.text_started(s);
        self.text.push_str(inp, text);
        self.text_span.end = e;
    }

    fn emit(&mut self, ready: Ready, end: usize) {
        self.token_end = end;
        self.ready = Some(ready);
        if self.limited {
            self.check_limits(ready, end);
        }
    }

    /// Reports a token cut short by `Config::max_token_len` or
    /// `Config::max_attributes`. Errors are recorded without a window (the
    /// location is computed by the caller's window), so this only runs when
    /// a limit is set.
    fn check_limits(&mut self, ready: Ready, end: usize) {
        let (cut, too_many) = match ready {
            Ready::StartTag | Ready::EndTag => (
                self.tag_name.truncated
                    || (self.tag_limited && self.attrs.len() < self.max_attributes),
                self.tag_limited && self.attrs.len() >= self.max_attributes,
            ),
            Ready::Comment => (self.comment.truncated, false),
            Ready::ProcessingInstruction => {
                (self.comment.truncated || self.pi_target.truncated, false)
            }
            Ready::Doctype => (
                self.doctype_name.truncated
                    || self.doctype_public.truncated
                    || self.doctype_system.truncated,
                false,
            ),
            Ready::Eof => (false, false),
        };
        if cut || too_many {
            self.limit_errors.push((
                if too_many {
                    ErrorCode::TooManyAttributes
                } else {
                    ErrorCode::TokenTooLong
                },
                end.saturating_sub(1),
            ));
        }
    }

    fn emit_eof(&mut self, inp: &Input) {
        if E::ENABLED {
            self.check_stream(inp, inp.end());
        }
        self.lt = inp.end();
        self.token_end = inp.end();
        self.ready = Some(Ready::Eof);
    }

    /// A `&` read at `p` in a state with character references, which
    /// returns to `return_state`.
    fn ampersand(&mut self, inp: &Input, p: usize, return_state: State) {
        let q = self.literal_ampersands(inp, p);
        if q > p {
            if matches!(return_state, State::Data | State::Rcdata) {
                self.emit_input(inp, p, q);
            } else {
                self.attr_value.push_input(inp, p, q);
            }
            self.pos = q;
            return;
        }
        self.return_state = return_state;
        self.amp = p;
        self.amp_read = true;
        self.state = State::CharacterReference;
    }

    /// The end of the run of `&` from `p` (a `&` the machine just read)
    /// whose every `&` is followed by a byte that cannot start a character
    /// reference: the character reference state would flush each as
    /// itself and reconsume in the return state, without an error. Taking
    /// the run at once keeps `&&&&…` from costing three steps a byte. `p`
    /// when the first `&` may start a reference (or the window ends).
    fn literal_ampersands(&self, inp: &Input, p: usize) -> usize {
        let bytes = inp.from(p);
        let mut n = 0;
        while n + 1 < bytes.len()
            && bytes[n] == b'&'
            && !matches!(bytes[n + 1], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'#')
        {
            n += 1;
        }
        p + n
    }

    fn return_state_is_attribute(&self) -> bool {
        matches!(
            self.return_state,
            State::AttributeValueDoubleQuoted
                | State::AttributeValueSingleQuoted
                | State::AttributeValueUnquoted
        )
    }

    /// The standard's "flush code points consumed as a character reference",
    /// for code points that are input bytes `s..e`.
    fn flush_input(&mut self, inp: &Input, s: usize, e: usize) {
        if self.return_state_is_attribute() {
            self.attr_value.push_input(inp, s, e);
        } else {
            self.emit_input(inp, s, e);
        }
    }

    /// "Flush code points consumed as a character reference" for decoded
    /// characters standing for input bytes `s..e`.
    fn flush_str(&mut self, inp: &Input, text: &str, s: usize, e: usize) {
        if self.return_state_is_attribute() {
            self.attr_value.push_str(inp, text);
        } else {
            self.emit_str(inp, text, s, e);
        }
    }

    // ----- token construction ----------------------------------------------

    #[inline(always)]
    fn new_tag(&mut self, is_end: bool, name_start: usize) {
        self.stale_tag = false;
        self.tag_is_end = is_end;
        self.self_closing = false;
        self.tag_name.clear();
        self.tag_name_span = Span {
            start: name_start,
            end: name_start,
        };
        self.attrs.clear();
        self.attrs_borrowing = 0;
        if self.attr_store.rewritten.len() | self.attr_store.arena.len() != 0 {
            self.attr_store.rewritten.clear();
            self.attr_store.arena.clear();
        }
        self.attr_live = false;
        if self.attr_fields_used {
            // Left by an attribute of an earlier tag (the fast path fills
            // them only when it hands an attribute over).
            self.attr_fields_used = false;
            self.attr_name.clear();
            self.attr_value.clear();
        }
        self.attr_index.clear();
        self.tag_limited = false;
    }

    fn new_attr(&mut self, p: usize) {
        self.commit_attr();
        self.attr_live = true;
        self.attr_fields_used = true;
        self.attr_duplicate = false;
        self.attr_name.clear();
        self.attr_value.clear();
        self.attr_name_span = Span { start: p, end: p };
        self.attr_value_span = Span { start: p, end: p };
    }

    /// Adds the finished attribute to the tag, unless it was a duplicate.
    fn commit_attr(&mut self) {
        if !self.attr_live {
            return;
        }
        self.attr_live = false;
        if self.attr_duplicate {
            return;
        }
        if self.attr_name.truncated || self.attr_value.truncated {
            self.tag_limited = true;
        }
        if self.attrs.len() >= self.max_attributes {
            self.tag_limited = true;
            return;
        }
        let (name_span, value_span) = (self.attr_name_span, self.attr_value_span);
        let strings =
            if self.attr_name.is_verbatim(name_span) && self.attr_value.is_verbatim(value_span) {
                VERBATIM
            } else {
                let name = self.stash(FieldId::AttrName);
                let value = self.stash(FieldId::AttrValue);
                self.attr_store.rewritten.push((name, value));
                self.attr_store.rewritten.len() - 1
            };
        self.attrs.push(AttrRecord {
            name_span,
            value_span,
            strings,
        });
    }

    /// Moves an owned attribute field into the arena; returns its slot.
    fn stash(&mut self, id: FieldId) -> Slot {
        let field = match id {
            FieldId::AttrName => &self.attr_name,
            FieldId::AttrValue => &self.attr_value,
        };
        match field.slot() {
            Slot::Scratch(_, len) => {
                let start = self.attr_store.arena.len();
                self.attr_store.arena.push_str(&field.buf);
                Slot::Scratch(start, start + len)
            }
            other => other,
        }
    }

    /// The standard's check on leaving the attribute name state: a name the
    /// tag already has makes this attribute a duplicate, dropped.
    fn check_duplicate_attr(&mut self, inp: &Input, at: usize) {
        self.attr_name_span.end = at;
        self.attr_value_span = Span { start: at, end: at };
        if self.is_duplicate_name(inp, None, at) {
            self.attr_duplicate = true;
        }
    }

    /// Whether the attribute name ending at `at` is one the tag already has
    /// (reporting `duplicate-attribute` if so): the input's `s..e` when
    /// given (the fast path's names), else the attribute name field.
    fn is_duplicate_name(
        &mut self,
        inp: &Input,
        input_name: Option<(usize, usize)>,
        at: usize,
    ) -> bool {
        let name = match input_name {
            Some((s, e)) => inp.slice(s, e),
            None => self.attr_name.bytes(inp),
        };
        let (attrs, rewritten, arena) = (
            &self.attrs,
            &self.attr_store.rewritten,
            &self.attr_store.arena,
        );
        let dup = self.attr_index.is_duplicate(name, attrs.len(), |i| {
            attrs.get(i).map(|a| match a.slots(rewritten).0 {
                Slot::Empty => &b""[..],
                Slot::Input(s, e) => inp.slice(s, e),
                Slot::Scratch(s, e) => &arena.as_bytes()[s..e],
            })
        });
        if dup {
            self.err(inp, ErrorCode::DuplicateAttribute, at);
        }
        dup
    }

    /// [`is_duplicate_name`](Self::is_duplicate_name) for the input name
    /// `s..e`, with the common case inline: a few attributes so far, all
    /// verbatim, compared by length first.
    #[inline(always)]
    fn is_duplicate_input_name(&mut self, inp: &Input, s: usize, e: usize) -> bool {
        // The first attribute of a tag (the commonest case) has nothing to
        // compare with.
        if self.attrs.is_empty() {
            return false;
        }
        self.is_duplicate_input_name_among(inp, s, e)
    }

    /// [`is_duplicate_input_name`](Self::is_duplicate_input_name) once the
    /// tag has attributes.
    #[inline]
    fn is_duplicate_input_name_among(&mut self, inp: &Input, s: usize, e: usize) -> bool {
        if self.attrs.len() >= attr_index::THRESHOLD {
            return self.is_duplicate_name(inp, Some((s, e)), e);
        }
        let name = inp.slice(s, e);
        let mut dup = false;
        for a in &self.attrs {
            if a.strings != VERBATIM {
                return self.is_duplicate_name(inp, Some((s, e)), e);
            }
            if a.name_span.len() == name.len()
                && inp.slice(a.name_span.start, a.name_span.end) == name
            {
                dup = true;
                break;
            }
        }
        if dup {
            self.err(inp, ErrorCode::DuplicateAttribute, e);
        }
        dup
    }

    fn emit_tag(&mut self, inp: &Input, end: usize) {
        self.commit_attr();
        if self.tag_is_end {
            if !self.attrs.is_empty() {
                self.err(inp, ErrorCode::EndTagWithAttributes, end - 1);
            }
            if self.self_closing {
                self.err(inp, ErrorCode::EndTagWithTrailingSolidus, end - 1);
            }
            self.emit(Ready::EndTag, end);
        } else {
            self.has_last_start_tag = true;
            if let Some(start) = self.tag_name.borrows_from() {
                self.last_start_tag_span = Some(Span {
                    start,
                    end: self.tag_name.end,
                });
            } else {
                self.last_start_tag_span = None;
                self.last_start_tag.clear();
                let name = self.tag_name.bytes(inp);
                self.last_start_tag.extend_from_slice(name);
            }
            self.emit(Ready::StartTag, end);
        }
    }

    fn is_appropriate_end_tag(&self, inp: &Input) -> bool {
        let last = match self.last_start_tag_span {
            Some(span) => inp.slice(span.start, span.end),
            None => self.last_start_tag.as_slice(),
        };
        self.has_last_start_tag && self.tag_name.bytes(inp) == last
    }

    /// Copies the last start tag's name out of the input, for a stream
    /// about to drop input bytes (`text` is its window).
    pub(crate) fn keep_last_start_tag(&mut self, text: &str) {
        if let Some(span) = self.last_start_tag_span.take() {
            self.last_start_tag.clear();
            self.last_start_tag
                .extend_from_slice(&text.as_bytes()[span.start..span.end]);
        }
    }

    fn new_comment(&mut self) {
        self.stale_comment = false;
        self.comment.clear();
        self.pi_target.clear();
    }

    fn new_doctype(&mut self) {
        self.stale_doctype = false;
        self.doctype_name.clear();
        self.doctype_public.clear();
        self.doctype_system.clear();
        self.has_doctype_name = false;
        self.has_doctype_public = false;
        self.has_doctype_system = false;
        self.force_quirks = false;
    }

    /// Emits the DOCTYPE with force-quirks on, then EOF (eof-in-doctype).
    fn eof_in_doctype(&mut self, inp: &Input, p: usize) {
        self.err(inp, ErrorCode::EofInDoctype, p);
        self.force_quirks = true;
        self.emit(Ready::Doctype, p);
        self.state = State::Data;
    }

    /// Reads the current character: `(first byte, length)`, with CR and
    /// CRLF as `\n`, and [`EOF`] (length 0) at the end. `None` when the
    /// window ends before the character is known (only when `eof` is
    /// false). A multi-byte character is read whole (a window holds whole
    /// characters only), so the arms that append "the current input
    /// character" append all of it: owned fields are `String`s.
    #[inline]
    fn read(&self, inp: &Input) -> Option<(u8, usize)> {
        let p = self.pos;
        let end = inp.end();
        if p >= end {
            return if inp.eof { Some((EOF, 0)) } else { None };
        }
        let b = inp.at(p);
        if b >= 0x80 {
            let n = match b {
                0xF0.. => 4,
                0xE0.. => 3,
                _ => 2,
            };
            return Some((b, n.min(end - p)));
        }
        if b != b'\r' {
            return Some((b, 1));
        }
        if p + 1 < end {
            Some((b'\n', if inp.at(p + 1) == b'\n' { 2 } else { 1 }))
        } else if inp.eof {
            Some((b'\n', 1))
        } else {
            None
        }
    }

    /// Whether the input at `p` starts with `pat` (ASCII case-insensitively
    /// when `fold`). `None` when the window is too short to tell.
    fn lookahead(&self, inp: &Input, p: usize, pat: &[u8], fold: bool) -> Option<bool> {
        let have = inp.from(p);
        let n = have.len().min(pat.len());
        let same = if fold {
            have[..n].eq_ignore_ascii_case(&pat[..n])
        } else {
            have[..n] == pat[..n]
        };
        if !same {
            return Some(false);
        }
        if n == pat.len() {
            return Some(true);
        }
        if inp.eof {
            Some(false)
        } else {
            None
        }
    }

    /// Appends a run of the current state's ordinary bytes to `field`, up to
    /// the next landmark of `set`.
    ///
    /// A CR (or CRLF) inside a run whose state treats a line feed as an
    /// ordinary character is appended as `\n` here and the run goes on:
    /// what the state's step would do, without a step per line. Pages
    /// written on Windows have one every 50 bytes or so.
    ///
    /// Inlined into each call site, where `which` is a constant and the
    /// matches on it fold away.
    #[inline(always)]
    fn run_into(&mut self, inp: &Input, set: &scan::Landmarks, which: Target) {
        let mut p = self.pos;
        let end = inp.end();
        let newline_is_ordinary = match which {
            Target::Text | Target::Comment | Target::DoctypePublic | Target::DoctypeSystem => true,
            Target::AttrValue => self.state != State::AttributeValueUnquoted,
            Target::TagName | Target::AttrName | Target::DoctypeName | Target::Nothing => false,
        };
        while p < end {
            let n = self.find(set, inp.from(p));
            if n > 0 {
                self.append_run(inp, which, p, p + n);
                p += n;
            }
            if !newline_is_ordinary || p >= end || inp.at(p) != b'\r' {
                break;
            }
            let n = if p + 1 < end {
                1 + usize::from(inp.at(p + 1) == b'\n')
            } else if inp.eof {
                1
            } else {
                // CR at the end of the window: CRLF or not is decided by
                // the step, once the next byte is there.
                break;
            };
            match which {
                Target::Text => self.emit_char(inp, p, n),
                Target::Comment => push_char(&mut self.comment, inp, p, n),
                Target::AttrValue => push_char(&mut self.attr_value, inp, p, n),
                Target::DoctypePublic => push_char(&mut self.doctype_public, inp, p, n),
                Target::DoctypeSystem => push_char(&mut self.doctype_system, inp, p, n),
                _ => {}
            }
            p += n;
        }
        self.pos = p;
    }

    /// Appends input bytes `s..e` (a run of ordinary bytes) to `which`.
    #[inline]
    fn append_run(&mut self, inp: &Input, which: Target, s: usize, e: usize) {
        match which {
            Target::Text => self.emit_input(inp, s, e),
            Target::TagName => {
                self.tag_name.push_input(inp, s, e);
                self.tag_name_span.end = e;
            }
            Target::AttrName => self.attr_name.push_input(inp, s, e),
            Target::AttrValue => self.attr_value.push_input(inp, s, e),
            Target::Comment => self.comment.push_input(inp, s, e),
            Target::DoctypeName => self.doctype_name.push_input(inp, s, e),
            Target::DoctypePublic => self.doctype_public.push_input(inp, s, e),
            Target::DoctypeSystem => self.doctype_system.push_input(inp, s, e),
            Target::Nothing => {}
        }
    }

    // ----- the state machine -------------------------------------------------

    /// Steps until a non-text token is ready or the window is used up.
    ///
    /// The common call, one pass of the data lane to a token, is peeled off
    /// the loop: inside it, the compiler hoisted the lane's address
    /// arithmetic out of the loop and spilled it to the stack, 23
    /// instructions a call for a loop that mostly runs once.
    #[inline(always)]
    fn run(&mut self, inp: &Input) {
        if self.fast_paths && self.state == State::Data {
            // `false`: the general step takes over at `pos`.
            if !self.data_lane(inp) && !self.step(inp) {
                return;
            }
            if self.ready.is_some() {
                return;
            }
        }
        self.run_loop(inp);
    }

    /// The rest of [`run`](Self::run): lanes and steps until a token is
    /// ready. Out of line, so that the data lane (and the tag fast path in
    /// it) is inlined once, into `run`; here it is a call.
    #[inline(never)]
    fn run_loop(&mut self, inp: &Input) {
        while self.ready.is_none() {
            if self.fast_paths {
                let handled = match self.state {
                    State::Data => self.data_lane_call(inp),
                    State::Rcdata => self.text_lane(inp, &scan::RCDATA),
                    State::Rawtext | State::ScriptData => self.text_lane(inp, &scan::RAWTEXT),
                    _ => false,
                };
                if handled {
                    continue;
                }
            }
            if !self.step(inp) {
                return;
            }
        }
    }

    /// The data state's common path without a step: runs of text (CR and
    /// CRLF taken as LF, character references decoded at once), then the
    /// tag that follows, by the tag fast path, or a comment, by the comment
    /// lane. Returns `false`, with `pos` at the byte, where the general
    /// step must take over: `<!` other than a plain comment, `<` not
    /// followed by a letter, NUL (errors on), the end of the window or a
    /// reference it cuts.
    #[inline(always)]
    fn data_lane(&mut self, inp: &Input) -> bool {
        let set = if E::ENABLED {
            &scan::DATA_WITH_NUL
        } else {
            &scan::DATA
        };
        let buf = inp.buf();
        let mut r = self.pos;
        loop {
            r = self.text_run(inp, set, r);
            match buf.get(r) {
                Some(b'<') => {
                    let (name, is_end) = match buf.get(r + 1) {
                        Some(b'a'..=b'z' | b'A'..=b'Z') => (r + 1, false),
                        Some(b'/') if matches!(buf.get(r + 2), Some(b'a'..=b'z' | b'A'..=b'Z')) => {
                            (r + 2, true)
                        }
                        Some(b'!') if buf.get(r + 2..r + 4) == Some(b"--") => {
                            if self.comment_lane(inp, r) {
                                return true;
                            }
                            break;
                        }
                        _ => break,
                    };
                    self.lt = r;
                    self.lt_read = true;
                    self.tag_fast_path(inp, name, is_end);
                    return true;
                }
                Some(b'&') => match self.text_reference(inp, r) {
                    Some(len) => r += len,
                    None => break,
                },
                Some(b'\r') if r + 1 < buf.len() => r += self.text_newline(inp, r),
                _ => break,
            }
        }
        self.pos = r;
        false
    }

    /// [`data_lane`](Self::data_lane) as a call, for the loop of
    /// [`run_loop`](Self::run_loop).
    #[inline(never)]
    fn data_lane_call(&mut self, inp: &Input) -> bool {
        self.data_lane(inp)
    }

    /// The RCDATA, RAWTEXT and script data states' common path without a
    /// step: runs of text (`set` is the state's landmarks), a `<` that
    /// starts no end tag taken as text, character references in RCDATA,
    /// and an appropriate end tag `</name>` emitted at once. Returns `false`,
    /// with `pos` at the byte, where the general step must take over: an end
    /// tag with attributes or whitespace, `<!` in script data (escapes),
    /// NUL, the end of the window.
    #[inline(always)]
    fn text_lane(&mut self, inp: &Input, set: &scan::Landmarks) -> bool {
        let buf = inp.buf();
        let mut r = self.pos;
        loop {
            r = self.text_run(inp, set, r);
            match buf.get(r) {
                Some(b'<') => match buf.get(r + 1) {
                    Some(b'/') => match self.appropriate_end_tag_at(inp, r + 2) {
                        Some(true) => {
                            let name = r + 2;
                            let end = name + self.last_start_tag_len();
                            self.lt = r;
                            self.lt_read = true;
                            self.new_tag(true, name);
                            let name_bytes = &buf[name..end];
                            if name_bytes.iter().any(u8::is_ascii_uppercase) {
                                let lower = inp.str(name, end).to_ascii_lowercase();
                                self.tag_name.push_str(inp, &lower);
                            } else {
                                self.tag_name.push_input(inp, name, end);
                            }
                            self.tag_name_span.end = end;
                            self.state = State::Data;
                            self.pos = end + 1;
                            self.emit(Ready::EndTag, end + 1);
                            return true;
                        }
                        // Not an end tag: `</` is text, and so is the
                        // rest, up to the next landmark.
                        Some(false) => {
                            self.emit_input(inp, r, r + 2);
                            r += 2;
                        }
                        None => break,
                    },
                    // Escapes (`<!--`) are the script data states' own.
                    Some(b'!') if self.state == State::ScriptData => break,
                    Some(_) => {
                        self.emit_input(inp, r, r + 1);
                        r += 1;
                    }
                    None => break,
                },
                Some(b'&') if self.state == State::Rcdata => match self.text_reference(inp, r) {
                    Some(len) => r += len,
                    None => break,
                },
                Some(b'\r') if r + 1 < buf.len() => r += self.text_newline(inp, r),
                _ => break,
            }
        }
        self.pos = r;
        false
    }

    /// Length of the last start tag's name.
    fn last_start_tag_len(&self) -> usize {
        match self.last_start_tag_span {
            Some(span) => span.len(),
            None => self.last_start_tag.len(),
        }
    }

    /// Whether the bytes at window offset `name` (after `</`), lower-cased,
    /// are the last start tag's name followed by `>`: an
    /// appropriate end tag the text lane can emit at once. `Some(false)`
    /// when they cannot start an appropriate end tag at all (so `</` is
    /// text); `None` when the general machine must decide (whitespace or
    /// `/` after the name, or the window ends first).
    fn appropriate_end_tag_at(&self, inp: &Input, name: usize) -> Option<bool> {
        if !self.has_last_start_tag {
            return Some(false);
        }
        let last = match self.last_start_tag_span {
            Some(span) => inp.slice(span.start, span.end),
            None => self.last_start_tag.as_slice(),
        };
        let buf = inp.buf();
        let Some(first) = buf.get(name) else {
            return if inp.eof { Some(false) } else { None };
        };
        if !first.is_ascii_alphabetic() {
            return Some(false);
        }
        // The tag name is the input lower-cased; the last start tag's name
        // is compared as it is (a caller may have set one with upper case,
        // which no end tag then matches).
        let lowered_is = |input: &[u8], name: &[u8]| {
            input.len() == name.len()
                && input
                    .iter()
                    .zip(name)
                    .all(|(a, b)| a.to_ascii_lowercase() == *b)
        };
        let end = name + last.len();
        match buf.get(name..end) {
            Some(bytes) if lowered_is(bytes, last) => {}
            // A prefix of the name, cut by the end of the window.
            None if !inp.eof && lowered_is(&buf[name..], &last[..buf.len() - name]) => return None,
            _ => return Some(false),
        }
        match buf.get(end) {
            Some(b'>') => Some(true),
            Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r' | b'/') => None,
            Some(_) => Some(false),
            None if inp.eof => Some(false),
            None => None,
        }
    }

    /// A comment `<!--data-->` at window offset `lt`, emitted at once when
    /// its data is its input bytes: ended by `-->` or `--!>` (a `--` that
    /// is not followed by `>` or `!>` is data), with no CR or NUL in it.
    /// With errors on, only comments that raise none (no `--!>`, no `<!--`
    /// inside). Returns `false` for anything else (`<!-->`, `<!--->`, the
    /// end of the window first), which the general machine takes from `<`.
    fn comment_lane(&mut self, inp: &Input, lt: usize) -> bool {
        let buf = inp.buf();
        let data = lt + 4;
        match buf.get(data) {
            Some(b'>') | None => return false,
            Some(b'-') if buf.get(data + 1) == Some(&b'>') => return false,
            Some(_) => {}
        }
        let set = if E::ENABLED {
            &scan::COMMENT
        } else {
            &scan::COMMENT_DATA
        };
        let mut i = data;
        let (end, gt) = loop {
            i += self.find(set, &buf[i..]);
            match buf.get(i) {
                Some(b'-') => match buf.get(i + 1..i + 3) {
                    Some(b"->") => break (i, i + 2),
                    // `--!>` ends the comment (with an error, which the
                    // general machine reports).
                    Some(b"-!") => match buf.get(i + 3) {
                        Some(b'>') if E::ENABLED => return false,
                        Some(b'>') => break (i, i + 3),
                        Some(_) => i += 1,
                        None => return false,
                    },
                    Some(_) => i += 1,
                    None => return false,
                },
                // Errors on: `<!--` inside raises nested-comment.
                Some(b'<') => match buf.get(i + 1..i + 4) {
                    Some(b"!--") => return false,
                    Some(_) => i += 1,
                    None => return false,
                },
                _ => return false,
            }
        };
        self.lt = lt;
        self.lt_read = true;
        self.new_comment();
        self.comment.push_input(inp, data, end);
        if self.comment.truncated {
            // A length limit cut the data: the general machine reports it.
            self.comment.clear();
            return false;
        }
        self.state = State::Data;
        self.pos = gt + 1;
        self.emit(Ready::Comment, gt + 1);
        true
    }

    /// The lanes' run of text from window offset `r` up to the next
    /// landmark of `set`, emitted; the landmark's offset.
    #[inline(always)]
    fn text_run(&mut self, inp: &Input, set: &scan::Landmarks, r: usize) -> usize {
        let n = self.find(set, &inp.buf()[r..]);
        if n > 0 {
            self.emit_input(inp, r, r + n);
        }
        r + n
    }

    /// The lanes' character reference in text, at window offset `r`:
    /// decoded at once and emitted (as the input bytes when it stays as
    /// written); its length, or `None` when the window may end inside it.
    #[inline(always)]
    fn text_reference(&mut self, inp: &Input, r: usize) -> Option<usize> {
        let mut errors = RefErrors::default();
        match charref::decode(&inp.buf()[r..], inp.eof, false, &mut errors) {
            Decoded::NeedMore => None,
            Decoded::Literal(len) => {
                self.ref_errors(inp, r, &errors);
                self.emit_input(inp, r, r + len);
                Some(len)
            }
            Decoded::Chars { len, value } => {
                self.ref_errors(inp, r, &errors);
                let mut utf8 = [0; 4];
                let text = value.as_str(&mut utf8);
                self.emit_str(inp, text, r, r + len);
                Some(len)
            }
        }
    }

    /// The lanes' CR (or CRLF) in text, at window offset `r`, which is not
    /// the window's last byte: emitted as LF; its length.
    #[inline(always)]
    fn text_newline(&mut self, inp: &Input, r: usize) -> usize {
        let n = 1 + usize::from(inp.buf()[r + 1] == b'\n');
        self.emit_char(inp, r, n);
        n
    }

    /// Reports the errors of the character reference at `amp` (errors on).
    #[inline]
    fn ref_errors(&mut self, inp: &Input, amp: usize, errors: &RefErrors) {
        if E::ENABLED {
            for (code, offset) in errors.iter() {
                self.err(inp, code, amp + offset);
            }
        }
    }

    /// One step of the state machine. Returns `false` when the window ends
    /// before the step can be taken.
    fn step(&mut self, inp: &Input) -> bool {
        use State::*;
        // Run states first jump over their ordinary bytes.
        match self.state {
            Data => {
                let set = if E::ENABLED {
                    &scan::DATA_WITH_NUL
                } else {
                    &scan::DATA
                };
                self.run_into(inp, set, Target::Text)
            }
            Rcdata => self.run_into(inp, &scan::RCDATA, Target::Text),
            Rawtext | ScriptData => self.run_into(inp, &scan::RAWTEXT, Target::Text),
            Plaintext => self.run_into(inp, &scan::PLAINTEXT, Target::Text),
            ScriptDataEscaped | ScriptDataDoubleEscaped => {
                self.run_into(inp, &scan::SCRIPT_ESCAPED, Target::Text)
            }
            CdataSection => self.run_into(inp, &scan::CDATA, Target::Text),
            TagName => self.run_into(inp, &scan::TAG_NAME, Target::TagName),
            AttributeName => self.run_into(inp, &scan::ATTR_NAME, Target::AttrName),
            AttributeValueDoubleQuoted => {
                self.run_into(inp, &scan::ATTR_VALUE_DOUBLE, Target::AttrValue)
            }
            AttributeValueSingleQuoted => {
                self.run_into(inp, &scan::ATTR_VALUE_SINGLE, Target::AttrValue)
            }
            AttributeValueUnquoted => {
                self.run_into(inp, &scan::ATTR_VALUE_UNQUOTED, Target::AttrValue)
            }
            Comment => self.run_into(inp, &scan::COMMENT, Target::Comment),
            BogusComment => self.run_into(inp, &scan::BOGUS_COMMENT, Target::Comment),
            ProcessingInstructionData => self.run_into(inp, &scan::PI_DATA, Target::Comment),
            DoctypeName => self.run_into(inp, &scan::DOCTYPE_NAME, Target::DoctypeName),
            DoctypePublicIdentifierDoubleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_DOUBLE, Target::DoctypePublic)
            }
            DoctypePublicIdentifierSingleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_SINGLE, Target::DoctypePublic)
            }
            DoctypeSystemIdentifierDoubleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_DOUBLE, Target::DoctypeSystem)
            }
            DoctypeSystemIdentifierSingleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_SINGLE, Target::DoctypeSystem)
            }
            BogusDoctype => self.run_into(inp, &scan::BOGUS_DOCTYPE, Target::Nothing),
            _ => {}
        }

        let p = self.pos;
        let Some((c, n)) = self.read(inp) else {
            return false;
        };
        // By default the current character is consumed; arms that
        // "reconsume" set `self.pos = p` again.
        self.pos = p + n;

        match self.state {
            // 13.2.5.1
            Data => match c {
                b'&' => self.ampersand(inp, p, Data),
                b'<' => {
                    self.lt = p;
                    self.lt_read = true;
                    self.state = TagOpen;
                }
                0 => {
                    self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    self.emit_char(inp, p, n);
                }
                EOF => self.emit_eof(inp),
                _ => self.emit_char(inp, p, n),
            },
            // 13.2.5.2
            Rcdata => match c {
                b'&' => self.ampersand(inp, p, Rcdata),
                b'<' => {
                    self.lt = p;
                    self.lt_read = true;
                    self.state = RcdataLessThanSign;
                }
                0 => self.null_to_replacement_text(inp, p),
                EOF => self.emit_eof(inp),
                _ => self.emit_char(inp, p, n),
            },
            // 13.2.5.3
            Rawtext => match c {
                b'<' => {
                    self.lt = p;
                    self.lt_read = true;
                    self.state = RawtextLessThanSign;
                }
                0 => self.null_to_replacement_text(inp, p),
                EOF => self.emit_eof(inp),
                _ => self.emit_char(inp, p, n),
            },
            // 13.2.5.4
            ScriptData => match c {
                b'<' => {
                    self.lt = p;
                    self.lt_read = true;
                    self.state = ScriptDataLessThanSign;
                }
                0 => self.null_to_replacement_text(inp, p),
                EOF => self.emit_eof(inp),
                _ => self.emit_char(inp, p, n),
            },
            // 13.2.5.5
            Plaintext => match c {
                0 => self.null_to_replacement_text(inp, p),
                EOF => self.emit_eof(inp),
                _ => self.emit_char(inp, p, n),
            },
            // 13.2.5.6
            TagOpen => match c {
                b'!' => self.state = MarkupDeclarationOpen,
                b'/' => self.state = EndTagOpen,
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.new_tag(false, p);
                    self.pos = p;
                    self.state = TagName;
                }
                b'?' if self.processing_instructions => {
                    self.temp.clear();
                    self.state = ProcessingInstructionOpen;
                }
                b'?' => {
                    self.err(inp, ErrorCode::UnexpectedQuestionMarkInsteadOfTagName, p);
                    self.new_comment();
                    self.pos = p;
                    self.state = BogusComment;
                }
                EOF => {
                    self.err(inp, ErrorCode::EofBeforeTagName, p);
                    self.emit_since_lt(inp, p, "<");
                    self.emit_eof(inp);
                }
                _ => {
                    self.err(inp, ErrorCode::InvalidFirstCharacterOfTagName, p);
                    self.emit_since_lt(inp, p, "<");
                    self.pos = p;
                    self.state = Data;
                }
            },
            // 13.2.5.7
            EndTagOpen => match c {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.new_tag(true, p);
                    self.pos = p;
                    self.state = TagName;
                }
                b'>' => {
                    self.err(inp, ErrorCode::MissingEndTagName, p);
                    self.state = Data;
                }
                EOF => {
                    self.err(inp, ErrorCode::EofBeforeTagName, p);
                    self.tag_name.clear();
                    self.emit_since_lt(inp, p, "</");
                    self.emit_eof(inp);
                }
                _ => {
                    self.err(inp, ErrorCode::InvalidFirstCharacterOfTagName, p);
                    self.new_comment();
                    self.pos = p;
                    self.state = BogusComment;
                }
            },
            // 13.2.5.8
            TagName => match c {
                b'\t' | b'\n' | 0x0C | b' ' => self.state = BeforeAttributeName,
                b'/' => self.state = SelfClosingStartTag,
                b'>' => {
                    self.state = Data;
                    self.emit_tag(inp, p + 1);
                }
                b'A'..=b'Z' => {
                    self.tag_name.push_str(inp, ascii_lower(c));
                    self.tag_name_span.end = p + 1;
                }
                0 => {
                    self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    self.tag_name.push_str(inp, "\u{FFFD}");
                    self.tag_name_span.end = p + 1;
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInTag, p);
                    self.emit_eof(inp);
                }
                _ => {
                    push_char(&mut self.tag_name, inp, p, n);
                    self.tag_name_span.end = p + n;
                }
            },
            // 13.2.5.9, 13.2.5.12
            RcdataLessThanSign | RawtextLessThanSign => {
                let back = if self.state == RcdataLessThanSign {
                    Rcdata
                } else {
                    Rawtext
                };
                if c == b'/' {
                    self.temp.clear();
                    self.state = if back == Rcdata {
                        RcdataEndTagOpen
                    } else {
                        RawtextEndTagOpen
                    };
                } else {
                    self.emit_since_lt(inp, p, "<");
                    self.pos = p;
                    self.state = back;
                }
            }
            // 13.2.5.10, 13.2.5.13, 13.2.5.16, 13.2.5.23
            RcdataEndTagOpen
            | RawtextEndTagOpen
            | ScriptDataEndTagOpen
            | ScriptDataEscapedEndTagOpen => {
                let (name_state, back) = match self.state {
                    RcdataEndTagOpen => (RcdataEndTagName, Rcdata),
                    RawtextEndTagOpen => (RawtextEndTagName, Rawtext),
                    ScriptDataEndTagOpen => (ScriptDataEndTagName, ScriptData),
                    _ => (ScriptDataEscapedEndTagName, ScriptDataEscaped),
                };
                self.pos = p;
                if c.is_ascii_alphabetic() {
                    self.new_tag(true, p);
                    self.state = name_state;
                } else {
                    self.tag_name.clear();
                    self.emit_since_lt(inp, p, "</");
                    self.state = back;
                }
            }
            // 13.2.5.11, 13.2.5.14, 13.2.5.17, 13.2.5.24
            RcdataEndTagName
            | RawtextEndTagName
            | ScriptDataEndTagName
            | ScriptDataEscapedEndTagName => {
                let back = match self.state {
                    RcdataEndTagName => Rcdata,
                    RawtextEndTagName => Rawtext,
                    ScriptDataEndTagName => ScriptData,
                    _ => ScriptDataEscaped,
                };
                match c {
                    b'\t' | b'\n' | 0x0C | b' ' if self.is_appropriate_end_tag(inp) => {
                        self.state = BeforeAttributeName
                    }
                    b'/' if self.is_appropriate_end_tag(inp) => self.state = SelfClosingStartTag,
                    b'>' if self.is_appropriate_end_tag(inp) => {
                        self.state = Data;
                        self.emit_tag(inp, p + 1);
                    }
                    b'a'..=b'z' => {
                        self.tag_name.push_input(inp, p, p + 1);
                        self.tag_name_span.end = p + 1;
                    }
                    b'A'..=b'Z' => {
                        self.tag_name.push_str(inp, ascii_lower(c));
                        self.tag_name_span.end = p + 1;
                    }
                    _ => {
                        // "</" and the temporary buffer are exactly the input
                        // from the `<` up to here.
                        self.emit_since_lt(inp, p, "</");
                        self.pos = p;
                        self.state = back;
                    }
                }
            }
            // 13.2.5.15
            ScriptDataLessThanSign => match c {
                b'/' => {
                    self.temp.clear();
                    self.state = ScriptDataEndTagOpen;
                }
                b'!' => {
                    self.state = ScriptDataEscapeStart;
                    self.emit_since_lt(inp, p + 1, "<!");
                }
                _ => {
                    self.emit_since_lt(inp, p, "<");
                    self.pos = p;
                    self.state = ScriptData;
                }
            },
            // 13.2.5.18
            ScriptDataEscapeStart => {
                if c == b'-' {
                    self.state = ScriptDataEscapeStartDash;
                    self.emit_input(inp, p, p + 1);
                } else {
                    self.pos = p;
                    self.state = ScriptData;
                }
            }
            // 13.2.5.19
            ScriptDataEscapeStartDash => {
                if c == b'-' {
                    self.state = ScriptDataEscapedDashDash;
                    self.emit_input(inp, p, p + 1);
                } else {
                    self.pos = p;
                    self.state = ScriptData;
                }
            }
            // 13.2.5.20, 13.2.5.21, 13.2.5.22 and the double-escaped
            // 13.2.5.27, 13.2.5.28, 13.2.5.29: the same shape, apart from `<`.
            ScriptDataEscaped
            | ScriptDataEscapedDash
            | ScriptDataEscapedDashDash
            | ScriptDataDoubleEscaped
            | ScriptDataDoubleEscapedDash
            | ScriptDataDoubleEscapedDashDash => {
                let double = matches!(
                    self.state,
                    ScriptDataDoubleEscaped
                        | ScriptDataDoubleEscapedDash
                        | ScriptDataDoubleEscapedDashDash
                );
                let (plain, dash, dash_dash, less_than) = if double {
                    (
                        ScriptDataDoubleEscaped,
                        ScriptDataDoubleEscapedDash,
                        ScriptDataDoubleEscapedDashDash,
                        ScriptDataDoubleEscapedLessThanSign,
                    )
                } else {
                    (
                        ScriptDataEscaped,
                        ScriptDataEscapedDash,
                        ScriptDataEscapedDashDash,
                        ScriptDataEscapedLessThanSign,
                    )
                };
                match c {
                    b'-' => {
                        self.state = if self.state == plain { dash } else { dash_dash };
                        self.emit_input(inp, p, p + 1);
                    }
                    b'<' => {
                        self.lt = p;
                        self.lt_read = true;
                        self.state = less_than;
                        if double {
                            self.emit_input(inp, p, p + 1);
                        }
                    }
                    b'>' if self.state == dash_dash => {
                        self.state = ScriptData;
                        self.emit_input(inp, p, p + 1);
                    }
                    0 => {
                        self.state = plain;
                        self.null_to_replacement_text(inp, p);
                    }
                    EOF => {
                        self.err(inp, ErrorCode::EofInScriptHtmlCommentLikeText, p);
                        self.emit_eof(inp);
                    }
                    _ => {
                        self.state = plain;
                        self.emit_char(inp, p, n);
                    }
                }
            }
            // 13.2.5.23
            ScriptDataEscapedLessThanSign => match c {
                b'/' => {
                    self.temp.clear();
                    self.state = ScriptDataEscapedEndTagOpen;
                }
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.temp.clear();
                    self.emit_since_lt(inp, p, "<");
                    self.pos = p;
                    self.state = ScriptDataDoubleEscapeStart;
                }
                _ => {
                    self.emit_since_lt(inp, p, "<");
                    self.pos = p;
                    self.state = ScriptDataEscaped;
                }
            },
            // 13.2.5.26, 13.2.5.31
            ScriptDataDoubleEscapeStart | ScriptDataDoubleEscapeEnd => {
                let start = self.state == ScriptDataDoubleEscapeStart;
                let (if_script, otherwise) = if start {
                    (ScriptDataDoubleEscaped, ScriptDataEscaped)
                } else {
                    (ScriptDataEscaped, ScriptDataDoubleEscaped)
                };
                match c {
                    b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>' => {
                        self.state = if self.temp == b"script" {
                            if_script
                        } else {
                            otherwise
                        };
                        self.emit_char(inp, p, n);
                    }
                    b'A'..=b'Z' | b'a'..=b'z' => {
                        // Only equality with "script" matters: seven letters
                        // are as good as any longer run, and keep the buffer
                        // bounded.
                        if self.temp.len() <= 6 {
                            self.temp.push(c.to_ascii_lowercase());
                        }
                        self.emit_input(inp, p, p + 1);
                    }
                    _ => {
                        self.pos = p;
                        self.state = otherwise;
                    }
                }
            }
            // 13.2.5.30
            ScriptDataDoubleEscapedLessThanSign => {
                if c == b'/' {
                    self.temp.clear();
                    self.state = ScriptDataDoubleEscapeEnd;
                    self.emit_input(inp, p, p + 1);
                } else {
                    self.pos = p;
                    self.state = ScriptDataDoubleEscaped;
                }
            }
            // 13.2.5.32
            BeforeAttributeName => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                b'/' | b'>' | EOF => {
                    self.pos = p;
                    self.state = AfterAttributeName;
                }
                b'=' => {
                    self.err(inp, ErrorCode::UnexpectedEqualsSignBeforeAttributeName, p);
                    self.new_attr(p);
                    self.attr_name.push_input(inp, p, p + 1);
                    self.state = AttributeName;
                }
                _ => {
                    self.new_attr(p);
                    self.pos = p;
                    self.state = AttributeName;
                }
            },
            // 13.2.5.33
            AttributeName => match c {
                b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>' | EOF => {
                    self.check_duplicate_attr(inp, p);
                    self.pos = p;
                    self.state = AfterAttributeName;
                }
                b'=' => {
                    self.check_duplicate_attr(inp, p);
                    self.state = BeforeAttributeValue;
                }
                b'A'..=b'Z' => self.attr_name.push_str(inp, ascii_lower(c)),
                0 => {
                    self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    self.attr_name.push_str(inp, "\u{FFFD}");
                }
                b'"' | b'\'' | b'<' => {
                    self.err(inp, ErrorCode::UnexpectedCharacterInAttributeName, p);
                    self.attr_name.push_input(inp, p, p + 1);
                }
                _ => push_char(&mut self.attr_name, inp, p, n),
            },
            // 13.2.5.34
            AfterAttributeName => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                b'/' => self.state = SelfClosingStartTag,
                b'=' => self.state = BeforeAttributeValue,
                b'>' => {
                    self.state = Data;
                    self.emit_tag(inp, p + 1);
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInTag, p);
                    self.emit_eof(inp);
                }
                _ => {
                    self.new_attr(p);
                    self.pos = p;
                    self.state = AttributeName;
                }
            },
            // 13.2.5.35
            BeforeAttributeValue => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                b'"' => {
                    self.attr_value_span = Span {
                        start: p + 1,
                        end: p + 1,
                    };
                    self.state = AttributeValueDoubleQuoted;
                }
                b'\'' => {
                    self.attr_value_span = Span {
                        start: p + 1,
                        end: p + 1,
                    };
                    self.state = AttributeValueSingleQuoted;
                }
                b'>' => {
                    self.err(inp, ErrorCode::MissingAttributeValue, p);
                    self.state = Data;
                    self.emit_tag(inp, p + 1);
                }
                _ => {
                    self.attr_value_span = Span { start: p, end: p };
                    self.pos = p;
                    self.state = AttributeValueUnquoted;
                }
            },
            // 13.2.5.36, 13.2.5.37
            AttributeValueDoubleQuoted | AttributeValueSingleQuoted => {
                let quote = if self.state == AttributeValueDoubleQuoted {
                    b'"'
                } else {
                    b'\''
                };
                match c {
                    _ if c == quote => {
                        self.attr_value_span.end = p;
                        self.state = AfterAttributeValueQuoted;
                    }
                    b'&' => self.ampersand(inp, p, self.state),
                    0 => {
                        self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                        self.attr_value.push_str(inp, "\u{FFFD}");
                    }
                    EOF => {
                        self.err(inp, ErrorCode::EofInTag, p);
                        self.emit_eof(inp);
                    }
                    _ => push_char(&mut self.attr_value, inp, p, n),
                }
            }
            // 13.2.5.38
            AttributeValueUnquoted => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {
                    self.attr_value_span.end = p;
                    self.state = BeforeAttributeName;
                }
                b'&' => self.ampersand(inp, p, AttributeValueUnquoted),
                b'>' => {
                    self.attr_value_span.end = p;
                    self.state = Data;
                    self.emit_tag(inp, p + 1);
                }
                0 => {
                    self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    self.attr_value.push_str(inp, "\u{FFFD}");
                }
                b'"' | b'\'' | b'<' | b'=' | b'`' => {
                    self.err(
                        inp,
                        ErrorCode::UnexpectedCharacterInUnquotedAttributeValue,
                        p,
                    );
                    self.attr_value.push_input(inp, p, p + 1);
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInTag, p);
                    self.emit_eof(inp);
                }
                _ => push_char(&mut self.attr_value, inp, p, n),
            },
            // 13.2.5.39
            AfterAttributeValueQuoted => match c {
                b'\t' | b'\n' | 0x0C | b' ' => self.state = BeforeAttributeName,
                b'/' => self.state = SelfClosingStartTag,
                b'>' => {
                    self.state = Data;
                    self.emit_tag(inp, p + 1);
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInTag, p);
                    self.emit_eof(inp);
                }
                _ => {
                    self.err(inp, ErrorCode::MissingWhitespaceBetweenAttributes, p);
                    self.pos = p;
                    self.state = BeforeAttributeName;
                }
            },
            // 13.2.5.40
            SelfClosingStartTag => match c {
                b'>' => {
                    self.self_closing = true;
                    self.state = Data;
                    self.emit_tag(inp, p + 1);
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInTag, p);
                    self.emit_eof(inp);
                }
                _ => {
                    self.err(inp, ErrorCode::UnexpectedSolidusInTag, p);
                    self.pos = p;
                    self.state = BeforeAttributeName;
                }
            },
            // 13.2.5.41
            BogusComment => match c {
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Comment, p + 1);
                }
                EOF => {
                    self.emit(Ready::Comment, p);
                    self.state = Data;
                }
                0 => {
                    self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    self.comment.push_str(inp, "\u{FFFD}");
                }
                _ => push_char(&mut self.comment, inp, p, n),
            },
            // 13.2.5.42
            MarkupDeclarationOpen => {
                self.pos = p;
                match self.markup_declaration(inp, p) {
                    Some(()) => {}
                    None => return false,
                }
            }
            // 13.2.5.43
            CommentStart => match c {
                b'-' => self.state = CommentStartDash,
                b'>' => {
                    self.err(inp, ErrorCode::AbruptClosingOfEmptyComment, p);
                    self.state = Data;
                    self.emit(Ready::Comment, p + 1);
                }
                _ => {
                    self.pos = p;
                    self.state = Comment;
                }
            },
            // 13.2.5.44
            CommentStartDash => match c {
                b'-' => self.state = CommentEnd,
                b'>' => {
                    self.err(inp, ErrorCode::AbruptClosingOfEmptyComment, p);
                    self.state = Data;
                    self.emit(Ready::Comment, p + 1);
                }
                EOF => self.eof_in_comment(inp, p),
                _ => {
                    self.comment_back(inp, p, 1, 1, "-");
                    self.pos = p;
                    self.state = Comment;
                }
            },
            // 13.2.5.45
            Comment => match c {
                b'<' => {
                    self.comment.push_input(inp, p, p + 1);
                    self.state = CommentLessThanSign;
                }
                b'-' => self.state = CommentEndDash,
                0 => {
                    self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    self.comment.push_str(inp, "\u{FFFD}");
                }
                EOF => self.eof_in_comment(inp, p),
                _ => push_char(&mut self.comment, inp, p, n),
            },
            // 13.2.5.46
            CommentLessThanSign => match c {
                b'!' => {
                    self.comment.push_input(inp, p, p + 1);
                    self.state = CommentLessThanSignBang;
                }
                b'<' => self.comment.push_input(inp, p, p + 1),
                _ => {
                    self.pos = p;
                    self.state = Comment;
                }
            },
            // 13.2.5.47
            CommentLessThanSignBang => {
                if c == b'-' {
                    self.state = CommentLessThanSignBangDash;
                } else {
                    self.pos = p;
                    self.state = Comment;
                }
            }
            // 13.2.5.48
            CommentLessThanSignBangDash => {
                if c == b'-' {
                    self.state = CommentLessThanSignBangDashDash;
                } else {
                    self.pos = p;
                    self.state = CommentEndDash;
                }
            }
            // 13.2.5.49
            CommentLessThanSignBangDashDash => {
                if c != b'>' && c != EOF {
                    self.err(inp, ErrorCode::NestedComment, p);
                }
                self.pos = p;
                self.state = CommentEnd;
            }
            // 13.2.5.50
            CommentEndDash => match c {
                b'-' => self.state = CommentEnd,
                EOF => self.eof_in_comment(inp, p),
                _ => {
                    self.comment_back(inp, p, 1, 1, "-");
                    self.pos = p;
                    self.state = Comment;
                }
            },
            // 13.2.5.51
            CommentEnd => match c {
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Comment, p + 1);
                }
                b'!' => self.state = CommentEndBang,
                // Of the three dashes, the first joins the data.
                b'-' => self.comment_back(inp, p, 2, 1, "-"),
                EOF => self.eof_in_comment(inp, p),
                _ => {
                    self.comment_back(inp, p, 2, 2, "--");
                    self.pos = p;
                    self.state = Comment;
                }
            },
            // 13.2.5.52
            CommentEndBang => match c {
                b'-' => {
                    self.comment_back(inp, p, 3, 3, "--!");
                    self.state = CommentEndDash;
                }
                b'>' => {
                    self.err(inp, ErrorCode::IncorrectlyClosedComment, p);
                    self.state = Data;
                    self.emit(Ready::Comment, p + 1);
                }
                EOF => self.eof_in_comment(inp, p),
                _ => {
                    self.comment_back(inp, p, 3, 3, "--!");
                    self.pos = p;
                    self.state = Comment;
                }
            },
            // 13.2.5.53
            Doctype => match c {
                b'\t' | b'\n' | 0x0C | b' ' => self.state = BeforeDoctypeName,
                b'>' => {
                    self.pos = p;
                    self.state = BeforeDoctypeName;
                }
                EOF => {
                    self.new_doctype();
                    self.eof_in_doctype(inp, p);
                }
                _ => {
                    self.err(inp, ErrorCode::MissingWhitespaceBeforeDoctypeName, p);
                    self.pos = p;
                    self.state = BeforeDoctypeName;
                }
            },
            // 13.2.5.54
            BeforeDoctypeName => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                b'>' => {
                    self.err(inp, ErrorCode::MissingDoctypeName, p);
                    self.new_doctype();
                    self.force_quirks = true;
                    self.state = Data;
                    self.emit(Ready::Doctype, p + 1);
                }
                EOF => {
                    self.new_doctype();
                    self.eof_in_doctype(inp, p);
                }
                _ => {
                    self.new_doctype();
                    self.has_doctype_name = true;
                    self.pos = p;
                    self.state = DoctypeName;
                }
            },
            // 13.2.5.55
            DoctypeName => match c {
                b'\t' | b'\n' | 0x0C | b' ' => self.state = AfterDoctypeName,
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Doctype, p + 1);
                }
                b'A'..=b'Z' => self.doctype_name.push_str(inp, ascii_lower(c)),
                0 => {
                    self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    self.doctype_name.push_str(inp, "\u{FFFD}");
                }
                EOF => self.eof_in_doctype(inp, p),
                _ => push_char(&mut self.doctype_name, inp, p, n),
            },
            // 13.2.5.56
            AfterDoctypeName => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Doctype, p + 1);
                }
                EOF => self.eof_in_doctype(inp, p),
                _ => {
                    self.pos = p;
                    let Some(public) = self.lookahead(inp, p, b"PUBLIC", true) else {
                        return false;
                    };
                    let Some(system) = self.lookahead(inp, p, b"SYSTEM", true) else {
                        return false;
                    };
                    if public {
                        self.pos = p + 6;
                        self.state = AfterDoctypePublicKeyword;
                    } else if system {
                        self.pos = p + 6;
                        self.state = AfterDoctypeSystemKeyword;
                    } else {
                        self.err(inp, ErrorCode::InvalidCharacterSequenceAfterDoctypeName, p);
                        self.force_quirks = true;
                        self.state = BogusDoctype;
                    }
                }
            },
            // 13.2.5.57, 13.2.5.63
            AfterDoctypePublicKeyword | AfterDoctypeSystemKeyword => {
                let public = self.state == AfterDoctypePublicKeyword;
                match c {
                    b'\t' | b'\n' | 0x0C | b' ' => {
                        self.state = if public {
                            BeforeDoctypePublicIdentifier
                        } else {
                            BeforeDoctypeSystemIdentifier
                        }
                    }
                    b'"' | b'\'' => {
                        let code = if public {
                            ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword
                        } else {
                            ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword
                        };
                        self.err(inp, code, p);
                        self.start_doctype_id(public, c);
                    }
                    b'>' => self.missing_doctype_id(inp, public, p),
                    EOF => self.eof_in_doctype(inp, p),
                    _ => self.missing_quote_before_doctype_id(inp, public, p),
                }
            }
            // 13.2.5.58, 13.2.5.64
            BeforeDoctypePublicIdentifier | BeforeDoctypeSystemIdentifier => {
                let public = self.state == BeforeDoctypePublicIdentifier;
                match c {
                    b'\t' | b'\n' | 0x0C | b' ' => {}
                    b'"' | b'\'' => self.start_doctype_id(public, c),
                    b'>' => self.missing_doctype_id(inp, public, p),
                    EOF => self.eof_in_doctype(inp, p),
                    _ => self.missing_quote_before_doctype_id(inp, public, p),
                }
            }
            // 13.2.5.59, 13.2.5.60, 13.2.5.65, 13.2.5.66
            DoctypePublicIdentifierDoubleQuoted
            | DoctypePublicIdentifierSingleQuoted
            | DoctypeSystemIdentifierDoubleQuoted
            | DoctypeSystemIdentifierSingleQuoted => {
                let public = matches!(
                    self.state,
                    DoctypePublicIdentifierDoubleQuoted | DoctypePublicIdentifierSingleQuoted
                );
                let quote = if matches!(
                    self.state,
                    DoctypePublicIdentifierDoubleQuoted | DoctypeSystemIdentifierDoubleQuoted
                ) {
                    b'"'
                } else {
                    b'\''
                };
                let field = if public {
                    &mut self.doctype_public
                } else {
                    &mut self.doctype_system
                };
                match c {
                    _ if c == quote => {
                        self.state = if public {
                            AfterDoctypePublicIdentifier
                        } else {
                            AfterDoctypeSystemIdentifier
                        }
                    }
                    0 => {
                        field.push_str(inp, "\u{FFFD}");
                        self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                    }
                    b'>' => {
                        let code = if public {
                            ErrorCode::AbruptDoctypePublicIdentifier
                        } else {
                            ErrorCode::AbruptDoctypeSystemIdentifier
                        };
                        self.err(inp, code, p);
                        self.force_quirks = true;
                        self.state = Data;
                        self.emit(Ready::Doctype, p + 1);
                    }
                    EOF => self.eof_in_doctype(inp, p),
                    _ => push_char(field, inp, p, n),
                }
            }
            // 13.2.5.61
            AfterDoctypePublicIdentifier => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {
                    self.state = BetweenDoctypePublicAndSystemIdentifiers
                }
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Doctype, p + 1);
                }
                b'"' | b'\'' => {
                    self.err(
                        inp,
                        ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                        p,
                    );
                    self.start_doctype_id(false, c);
                }
                EOF => self.eof_in_doctype(inp, p),
                _ => self.missing_quote_before_doctype_id(inp, false, p),
            },
            // 13.2.5.62
            BetweenDoctypePublicAndSystemIdentifiers => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Doctype, p + 1);
                }
                b'"' | b'\'' => self.start_doctype_id(false, c),
                EOF => self.eof_in_doctype(inp, p),
                _ => self.missing_quote_before_doctype_id(inp, false, p),
            },
            // 13.2.5.67
            AfterDoctypeSystemIdentifier => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Doctype, p + 1);
                }
                EOF => self.eof_in_doctype(inp, p),
                _ => {
                    self.err(
                        inp,
                        ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
                        p,
                    );
                    self.pos = p;
                    self.state = BogusDoctype;
                }
            },
            // 13.2.5.68
            BogusDoctype => match c {
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::Doctype, p + 1);
                }
                0 => self.err(inp, ErrorCode::UnexpectedNullCharacter, p),
                EOF => {
                    self.state = Data;
                    self.emit(Ready::Doctype, p);
                }
                _ => {}
            },
            // 13.2.5.69
            CdataSection => match c {
                b']' => self.state = CdataSectionBracket,
                EOF => {
                    self.err(inp, ErrorCode::EofInCdata, p);
                    self.emit_eof(inp);
                }
                _ => self.emit_char(inp, p, n),
            },
            // 13.2.5.70
            CdataSectionBracket => {
                if c == b']' {
                    self.state = CdataSectionEnd;
                } else {
                    self.text_back(inp, p, 1, 1, "]");
                    self.pos = p;
                    self.state = CdataSection;
                }
            }
            // 13.2.5.71
            CdataSectionEnd => match c {
                // Of the three brackets, the first is text.
                b']' => self.text_back(inp, p, 2, 1, "]"),
                b'>' => self.state = Data,
                _ => {
                    self.text_back(inp, p, 2, 2, "]]");
                    self.pos = p;
                    self.state = CdataSection;
                }
            },
            // 13.2.5.72
            ProcessingInstructionOpen => match c {
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    self.pos = p;
                    self.state = ProcessingInstructionTarget;
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                    self.emit_eof(inp);
                }
                _ => {
                    self.err(
                        inp,
                        ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
                        p,
                    );
                    self.pi_to_bogus_comment(inp, p);
                }
            },
            // 13.2.5.73
            ProcessingInstructionTarget => match c {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' => {
                    // Only equality with "xml" and "xml-stylesheet" matters
                    // (the target itself is an input range): a bounded
                    // buffer does.
                    if self.temp.len() <= 14 {
                        self.temp.push(c);
                    }
                }
                b'\t' | b'\n' | 0x0C | b' ' | b'?' | b'>' => {
                    if self.temp.eq_ignore_ascii_case(b"xml")
                        || self.temp.eq_ignore_ascii_case(b"xml-stylesheet")
                    {
                        self.err(inp, ErrorCode::DisallowedProcessingInstructionTarget, p);
                        self.pi_to_bogus_comment(inp, p);
                    } else {
                        self.pi_target.clear();
                        if self.lt_read && self.consumed_since(self.lt) {
                            self.pi_target.push_input(inp, self.lt + 2, p);
                        } else {
                            // `temp` holds ASCII letters, digits, `-`, `_`.
                            let target = String::from_utf8_lossy(&self.temp).into_owned();
                            self.pi_target.push_str(inp, &target);
                        }
                        self.comment.clear();
                        self.stale_comment = false;
                        self.pos = p;
                        self.state = AfterProcessingInstructionTarget;
                    }
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                    self.emit_eof(inp);
                }
                _ => {
                    self.err(inp, ErrorCode::InvalidProcessingInstructionTarget, p);
                    self.pi_to_bogus_comment(inp, p);
                }
            },
            // 13.2.5.74
            AfterProcessingInstructionTarget => match c {
                b'\t' | b'\n' | 0x0C | b' ' => {}
                _ => {
                    self.pos = p;
                    self.state = ProcessingInstructionData;
                }
            },
            // 13.2.5.75
            ProcessingInstructionData => match c {
                b'?' => self.state = ProcessingInstructionQuestionable,
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::ProcessingInstruction, p + 1);
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                    self.emit_eof(inp);
                }
                _ => push_char(&mut self.comment, inp, p, n),
            },
            // 13.2.5.76
            ProcessingInstructionQuestionable => match c {
                b'>' => {
                    self.state = Data;
                    self.emit(Ready::ProcessingInstruction, p + 1);
                }
                EOF => {
                    self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                    self.emit_eof(inp);
                }
                _ => {
                    self.comment_back(inp, p, 1, 1, "?");
                    self.pos = p;
                    self.state = ProcessingInstructionData;
                }
            },
            // 13.2.5.77
            CharacterReference => match c {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => {
                    self.pos = p;
                    self.state = NamedCharacterReference;
                }
                b'#' => {
                    self.charref_code = 0;
                    self.state = NumericCharacterReference;
                }
                _ => {
                    self.flush_since_amp(inp, p, p, "&");
                    self.pos = p;
                    self.state = self.return_state;
                }
            },
            // 13.2.5.78
            NamedCharacterReference => {
                self.pos = p;
                if !self.named_character_reference(inp, p) {
                    return false;
                }
            }
            // 13.2.5.79
            AmbiguousAmpersand => match c {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => {
                    let run = inp
                        .from(p)
                        .iter()
                        .take_while(|b| b.is_ascii_alphanumeric())
                        .count();
                    self.pos = p + run;
                    self.flush_input(inp, p, p + run);
                }
                b';' => {
                    self.err(inp, ErrorCode::UnknownNamedCharacterReference, p);
                    self.pos = p;
                    self.state = self.return_state;
                }
                _ => {
                    self.pos = p;
                    self.state = self.return_state;
                }
            },
            // 13.2.5.80
            NumericCharacterReference => match c {
                b'x' | b'X' => self.state = HexadecimalCharacterReferenceStart,
                b'0'..=b'9' => {
                    self.pos = p;
                    self.state = DecimalCharacterReference;
                }
                _ => {
                    self.err(
                        inp,
                        ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
                        p,
                    );
                    self.flush_since_amp(inp, p, p, "&#");
                    self.pos = p;
                    self.state = self.return_state;
                }
            },
            // 13.2.5.81
            HexadecimalCharacterReferenceStart => {
                self.pos = p;
                if c.is_ascii_hexdigit() {
                    self.state = HexadecimalCharacterReference;
                } else {
                    self.err(
                        inp,
                        ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
                        p,
                    );
                    self.flush_since_amp(inp, p, p, "&#x");
                    self.state = self.return_state;
                }
            }
            // 13.2.5.82, 13.2.5.83
            HexadecimalCharacterReference | DecimalCharacterReference => {
                let radix = if self.state == HexadecimalCharacterReference {
                    16
                } else {
                    10
                };
                match (c as char).to_digit(radix) {
                    Some(d) if c != EOF => {
                        self.charref_code = charref::push_digit(self.charref_code, radix, d);
                    }
                    _ if c == b';' => self.state = NumericCharacterReferenceEnd,
                    _ => {
                        self.err(inp, ErrorCode::MissingSemicolonAfterCharacterReference, p);
                        self.pos = p;
                        self.state = NumericCharacterReferenceEnd;
                    }
                }
            }
            // 13.2.5.84
            NumericCharacterReferenceEnd => {
                self.pos = p;
                let (ch, error) = charref::resolve_numeric(self.charref_code);
                if let Some(code) = error {
                    self.err(inp, code, p);
                }
                let mut utf8 = [0u8; 4];
                let text = ch.encode_utf8(&mut utf8);
                self.flush_str(inp, text, self.amp, p);
                self.state = self.return_state;
            }
        }
        true
    }

    /// The tag states for the common shapes of a tag, as straight-line code.
    ///
    /// Starts at `p`, the first letter of a tag name (after `<` or `</`),
    /// and follows exactly the transitions of the tag name, attribute and
    /// self-closing states for the bytes that need no rewriting and raise no
    /// error other than `duplicate-attribute`. A CR between attributes is
    /// whitespace like the LF it stands for (CRLF is two whitespace bytes,
    /// which those states skip alike). At anything else (upper case, NUL,
    /// `&`, CR inside a quoted value, a stray quote or `=`, the end of the
    /// window) it leaves (`fast_leave`) with `state`, `pos` and the
    /// attribute in progress where the general machine would have them, and
    /// the general machine goes on from there. So it changes speed, never
    /// tokens: every html5lib test runs through it.
    ///
    /// Each state of a tag is a place in this code rather than a value
    /// matched in a loop: a tag is name, then attributes of name, `=` and
    /// value, so each branch below sees the same kind of byte every time
    /// and predicts well (one `match` on a state per byte was a hard to
    /// predict indirect jump). The attribute in progress is kept in a local
    /// (`FastAttr`) and pushed as a `VERBATIM` record (its strings are its
    /// spans) without going through the `Field`s.
    #[inline(always)]
    fn tag_fast_path(&mut self, inp: &Input, p: usize, is_end: bool) {
        use State::*;
        self.new_tag(is_end, p);
        // Bytes past a token-length limit are left to the general machine,
        // which cuts fields there: before it, no field can reach the limit.
        // Without a limit (the default) that is the window's end, already a
        // character boundary: a branch instead of the arithmetic per tag.
        let mut stop = inp.end();
        if self.max_token_len != usize::MAX {
            stop = stop.min(self.lt.saturating_add(self.max_token_len)).max(p);
            // Where the general machine goes on is a character boundary.
            while !inp.text.is_char_boundary(stop) {
                stop -= 1;
            }
        }
        let buf = &inp.buf()[..stop];
        let mut r = p;
        r += self.find(&scan::TAG_NAME, &buf[r..]);
        if let Some(b'A'..=b'Z') = buf.get(r) {
            // Upper case (old pages): the name is lower-cased into the
            // field, which owns it.
            r += self.find(&scan::TAG_NAME_ANY_CASE, &buf[r..]);
            self.tag_name.push_lowercase(inp, p, r);
        } else {
            // `new_tag` cleared the field, and the name ends before `stop`.
            self.tag_name.set_cleared(p, r);
        }
        self.tag_name_span.end = r;
        // Kept in a register: reading the span back from the fields just
        // written would wait for the stores (a 16-byte load of two 8-byte
        // stores is not forwarded).
        let name = Span { start: p, end: r };
        let mut a = FastAttr::default();
        // Every way out of the tag is a `break 'tag`, so that the one
        // place that emits the tag is inlined here once.
        let exit = 'tag: {
            // Tag name state, at the byte after the name's run.
            match buf.get(r) {
                Some(b'>') => break 'tag Exit::Emit(r),
                Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => r += 1,
                Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                _ => break 'tag Exit::Leave(TagName, r),
            }
            loop {
                // Before attribute name state.
                while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                    r += 1;
                }
                match buf.get(r) {
                    Some(b'>') => break 'tag Exit::Emit(r),
                    Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                    Some(b'=' | b'"' | b'\'' | b'<' | 0) | None => {
                        break 'tag Exit::Leave(BeforeAttributeName, r)
                    }
                    Some(_) => {}
                }
                // A new attribute. One that would pass the attribute limit
                // (counting the one in progress) is left to the general
                // machine, which drops it and reports the limit.
                if self.attrs.len() + usize::from(a.live) >= self.max_attributes {
                    break 'tag Exit::Leave(BeforeAttributeName, r);
                }
                self.fast_commit(a);
                a = FastAttr {
                    live: true,
                    dup: false,
                    ns: r,
                    ne: r,
                    vs: r,
                    ve: r,
                    arena: NOT_IN_ARENA,
                    run: r,
                    name_arena: NOT_IN_ARENA,
                };
                // Attribute name state.
                r += self.find(&scan::ATTR_NAME, &buf[r..]);
                let mut upper = false;
                if let Some(b'A'..=b'Z') = buf.get(r) {
                    // Upper case: the name is lower-cased into the arena once
                    // it is whole.
                    upper = true;
                    r += self.find(&scan::ATTR_NAME_ANY_CASE, &buf[r..]);
                }
                let c = match buf.get(r) {
                    Some(&c @ (b'=' | b'\t' | b'\n' | 0x0C | b' ' | b'\r' | b'/' | b'>')) => c,
                    _ => break 'tag Exit::Leave(AttributeName, r),
                };
                (a.ne, a.vs, a.ve) = (r, r, r);
                a.dup = if upper {
                    {
                        let dup;
                        (dup, a) = self.fast_lowercase_name(inp, a);
                        dup
                    }
                } else {
                    self.is_duplicate_input_name(inp, a.ns, r)
                };
                if c != b'=' {
                    // After attribute name state.
                    while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                        r += 1;
                    }
                    match buf.get(r) {
                        Some(b'=') => {}
                        Some(b'>') => break 'tag Exit::Emit(r),
                        Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                        Some(b'"' | b'\'' | b'<' | 0) | None => {
                            break 'tag Exit::Leave(AfterAttributeName, r)
                        }
                        // The next attribute's name.
                        Some(_) => continue,
                    }
                }
                r += 1;
                // Before attribute value state.
                while let Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') = buf.get(r) {
                    r += 1;
                }
                let (set, quote, state) = match buf.get(r) {
                    Some(b'"') => (&scan::ATTR_VALUE_DOUBLE, b'"', AttributeValueDoubleQuoted),
                    Some(b'\'') => (&scan::ATTR_VALUE_SINGLE, b'\'', AttributeValueSingleQuoted),
                    Some(b'>' | 0) | None => break 'tag Exit::Leave(BeforeAttributeValue, r),
                    Some(_) => {
                        // Attribute value (unquoted) state.
                        (a.vs, a.ve, a.run) = (r, r, r);
                        loop {
                            r += self.find(&scan::ATTR_VALUE_UNQUOTED, &buf[r..]);
                            match buf.get(r) {
                                Some(b'&') => match self.fast_reference(inp, buf, r, a) {
                                    Some((n, after)) => (r, a) = (r + n, after),
                                    None => break 'tag Exit::Leave(AttributeValueUnquoted, r),
                                },
                                Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => {
                                    a = self.fast_value_end(inp, a, r);
                                    r += 1;
                                    break;
                                }
                                Some(b'>') => {
                                    a = self.fast_value_end(inp, a, r);
                                    break 'tag Exit::Emit(r);
                                }
                                _ => break 'tag Exit::Leave(AttributeValueUnquoted, r),
                            }
                        }
                        continue;
                    }
                };
                // Attribute value (double- or single-quoted) state.
                r += 1;
                (a.vs, a.ve, a.run) = (r, r, r);
                loop {
                    r += self.find(set, &buf[r..]);
                    match buf.get(r) {
                        Some(&c) if c == quote => break,
                        Some(b'&') => match self.fast_reference(inp, buf, r, a) {
                            Some((n, after)) => (r, a) = (r + n, after),
                            None => break 'tag Exit::Leave(state, r),
                        },
                        _ => break 'tag Exit::Leave(state, r),
                    }
                }
                a = self.fast_value_end(inp, a, r);
                r += 1;
                // After attribute value (quoted) state.
                match buf.get(r) {
                    Some(b'\t' | b'\n' | 0x0C | b' ' | b'\r') => r += 1,
                    Some(b'>') => break 'tag Exit::Emit(r),
                    Some(b'/') => break 'tag Exit::SelfClosing(r + 1),
                    _ => break 'tag Exit::Leave(AfterAttributeValueQuoted, r),
                }
            }
        };
        let gt = match exit {
            Exit::Emit(gt) => gt,
            Exit::SelfClosing(r) if buf.get(r) == Some(&b'>') => {
                self.self_closing = true;
                r
            }
            Exit::SelfClosing(r) => return self.fast_leave(inp, SelfClosingStartTag, r, a),
            Exit::Leave(state, r) => return self.fast_leave(inp, state, r, a),
        };
        self.fast_emit(inp, a, name, gt);
    }

    /// A character reference in an attribute value, at window offset `amp`
    /// of `buf`: decoded at once, its errors reported. A reference that
    /// stays as written keeps the value verbatim; one that decodes moves the
    /// value to the arena (`FastAttr::arena`). Returns the reference's
    /// length and the attribute, or `None` to leave it to the general
    /// machine (the window may end inside it, or a length limit is set:
    /// decoded values need not shrink, so the fast path's bound on field
    /// lengths would not hold).
    ///
    /// The attribute goes in and out by value, as in the other `fast_`
    /// functions: a `&mut` to it made the tag fast path keep it in memory,
    /// stores for every tag, attributes or not.
    #[inline]
    fn fast_reference(
        &mut self,
        inp: &Input,
        buf: &[u8],
        amp: usize,
        mut a: FastAttr,
    ) -> Option<(usize, FastAttr)> {
        if self.max_token_len != usize::MAX {
            return None;
        }
        let mut errors = RefErrors::default();
        let decoded = charref::decode(&buf[amp..], inp.eof, true, &mut errors);
        let len = match decoded {
            Decoded::NeedMore => return None,
            Decoded::Literal(len) => len,
            Decoded::Chars { len, value } => {
                if a.arena == NOT_IN_ARENA {
                    a.arena = self.attr_store.arena.len();
                }
                self.attr_store.arena.push_str(inp.str(a.run, amp));
                let mut utf8 = [0; 4];
                self.attr_store.arena.push_str(value.as_str(&mut utf8));
                a.run = amp + len;
                len
            }
        };
        self.ref_errors(inp, amp, &errors);
        Some((len, a))
    }

    /// An attribute name with upper case in the fast path: lower-cased into
    /// the arena (`FastAttr::name_arena`); returns whether the tag already
    /// has it (reporting `duplicate-attribute` if so), and the attribute.
    #[cold]
    #[inline(never)]
    fn fast_lowercase_name(&mut self, inp: &Input, mut a: FastAttr) -> (bool, FastAttr) {
        let start = self.attr_store.arena.len();
        self.attr_store.arena.push_str(inp.str(a.ns, a.ne));
        self.attr_store.arena[start..].make_ascii_lowercase();
        a.name_arena = start;
        let at = a.ne;
        let (attrs, store) = (&self.attrs, &self.attr_store);
        let name = &store.arena.as_bytes()[start..];
        let dup = self.attr_index.is_duplicate(name, attrs.len(), |i| {
            attrs.get(i).map(|a| match a.slots(&store.rewritten).0 {
                Slot::Empty => &b""[..],
                Slot::Input(s, e) => inp.slice(s, e),
                Slot::Scratch(s, e) => &store.arena.as_bytes()[s..e],
            })
        });
        if dup {
            self.err(inp, ErrorCode::DuplicateAttribute, at);
        }
        (dup, a)
    }

    /// The end of an attribute value in the fast path, at window offset `r`
    /// (the quote or the byte after an unquoted value).
    #[inline(always)]
    fn fast_value_end(&mut self, inp: &Input, mut a: FastAttr, r: usize) -> FastAttr {
        a.ve = r;
        if a.arena != NOT_IN_ARENA {
            a = self.fast_value_rest(inp, a, r);
        }
        a
    }

    /// The rest of a decoded value (after its last reference) into the
    /// arena: out of line, so that the common end of a value is a store.
    #[inline(never)]
    fn fast_value_rest(&mut self, inp: &Input, mut a: FastAttr, r: usize) -> FastAttr {
        self.attr_store.arena.push_str(inp.str(a.run, r));
        a.run = r;
        a
    }

    /// Leaving the fast path for the general machine: it goes on from
    /// `state` at window offset `r`, with the attribute in progress in its
    /// fields as its own states would have left it (a name or value being
    /// read extends to `r`, its span is still empty).
    #[cold]
    #[inline(never)]
    fn fast_leave(&mut self, inp: &Input, state: State, r: usize, a: FastAttr) {
        use State::*;
        self.state = state;
        self.pos = r;
        if a.live {
            let name_end = if state == AttributeName { r } else { a.ne };
            let in_value = matches!(
                state,
                AttributeValueDoubleQuoted | AttributeValueSingleQuoted | AttributeValueUnquoted
            );
            let value_end = if in_value { r } else { a.ve };
            self.attr_live = true;
            self.attr_fields_used = true;
            self.attr_duplicate = a.dup;
            self.attr_name.clear();
            self.attr_name.push_lowercase(inp, a.ns, name_end);
            self.attr_value.clear();
            if a.arena == NOT_IN_ARENA {
                self.attr_value.push_input(inp, a.vs, value_end);
            } else {
                // The value decoded so far, and what follows it.
                self.attr_value
                    .push_str(inp, &self.attr_store.arena[a.arena..]);
                if in_value {
                    self.attr_value.push_input(inp, a.run, r);
                }
            }
            self.attr_name_span = Span {
                start: a.ns,
                end: a.ne,
            };
            self.attr_value_span = Span {
                start: a.vs,
                end: a.ve,
            };
            // The fields own what the arena held for this attribute.
            self.attr_store
                .arena
                .truncate(a.name_arena.min(a.arena).min(self.attr_store.arena.len()));
        }
    }

    /// The fast path's end of an attribute: a record of its spans, unless
    /// it is a duplicate.
    #[inline(always)]
    fn fast_commit(&mut self, a: FastAttr) {
        if !a.live {
            return;
        }
        if a.dup {
            let first = a.name_arena.min(a.arena);
            if first != NOT_IN_ARENA {
                self.attr_store.arena.truncate(first);
            }
            return;
        }
        let name_span = Span {
            start: a.ns,
            end: a.ne,
        };
        let strings = if a.arena == NOT_IN_ARENA && a.name_arena == NOT_IN_ARENA {
            VERBATIM
        } else {
            self.fast_rewritten(a)
        };
        self.attrs.push(AttrRecord {
            name_span,
            value_span: Span {
                start: a.vs,
                end: a.ve,
            },
            strings,
        });
    }

    /// The slots of an attribute whose name or value is in the arena.
    #[cold]
    #[inline(never)]
    fn fast_rewritten(&mut self, a: FastAttr) -> usize {
        let name = if a.name_arena == NOT_IN_ARENA {
            Slot::of_span(Span {
                start: a.ns,
                end: a.ne,
            })
        } else {
            Slot::Scratch(a.name_arena, a.name_arena + (a.ne - a.ns))
        };
        let value = if a.arena == NOT_IN_ARENA {
            Slot::of_span(Span {
                start: a.vs,
                end: a.ve,
            })
        } else {
            Slot::Scratch(a.arena, self.attr_store.arena.len())
        };
        self.attr_store.rewritten.push((name, value));
        self.attr_store.rewritten.len() - 1
    }

    /// The fast path's `>` at `gt`: commit the attribute in progress, emit
    /// the tag and go back to the data state.
    ///
    /// What `emit_tag` does, for a tag whose name is its input bytes
    /// (`tag_name_span`) and whose attributes are all committed.
    #[inline(always)]
    fn fast_emit(&mut self, inp: &Input, a: FastAttr, name: Span, gt: usize) {
        self.fast_commit(a);
        self.state = State::Data;
        let end = gt + 1;
        self.pos = end;
        let ready = if self.tag_is_end {
            if E::ENABLED {
                if !self.attrs.is_empty() {
                    self.err(inp, ErrorCode::EndTagWithAttributes, gt);
                }
                if self.self_closing {
                    self.err(inp, ErrorCode::EndTagWithTrailingSolidus, gt);
                }
            }
            Ready::EndTag
        } else {
            self.has_last_start_tag = true;
            if self.tag_name.owned {
                // A lower-cased name.
                self.last_start_tag_span = None;
                self.last_start_tag.clear();
                let name = self.tag_name.bytes(inp);
                self.last_start_tag.extend_from_slice(name);
            } else {
                self.last_start_tag_span = Some(name);
            }
            Ready::StartTag
        };
        self.emit(ready, end);
    }

    /// The scan for `set`, SIMD or scalar as configured.
    #[inline(always)]
    fn find(&self, set: &scan::Landmarks, hay: &[u8]) -> usize {
        if self.simd {
            set.find(hay)
        } else {
            set.find_scalar(hay)
        }
    }

    /// Whether input bytes from `from` on were consumed by the machine itself
    /// (see `entered_at`).
    fn consumed_since(&self, from: usize) -> bool {
        from >= self.entered_at
    }

    /// Appends to the comment the `len` bytes before `p`, which the standard
    /// appends as `literal` (dashes, `--!`, `?`): borrowed from the input
    /// when the machine consumed them.
    fn comment_back(&mut self, inp: &Input, p: usize, back: usize, len: usize, literal: &str) {
        match p.checked_sub(back) {
            Some(from) if self.consumed_since(from) => {
                self.comment.push_input(inp, from, from + len)
            }
            _ => self.comment.push_str(inp, literal),
        }
    }

    /// Emits as text the `len` bytes `back` before `p` (`]`, `]]` of CDATA).
    fn text_back(&mut self, inp: &Input, p: usize, back: usize, len: usize, literal: &str) {
        match p.checked_sub(back) {
            Some(from) if self.consumed_since(from) => self.emit_input(inp, from, from + len),
            _ => self.emit_str(inp, literal, p, p),
        }
    }

    /// Emits as text the markup read since `lt` that turned out not to be a
    /// tag: `<`, `</`, or `</` and the temporary buffer, exactly the input
    /// from `lt` to `p`. `literal` is what to emit if the machine did not
    /// read that input itself (then a tag name read so far follows it).
    fn emit_since_lt(&mut self, inp: &Input, p: usize, literal: &str) {
        if self.lt_read && self.consumed_since(self.lt) {
            self.emit_input(inp, self.lt, p);
        } else {
            let mut text = literal.to_owned();
            if literal == "</" {
                text.push_str(self.tag_name.str(inp));
            }
            self.emit_str(inp, &text, p, p);
        }
    }

    /// "Flush code points consumed as a character reference" for the input
    /// from the `&` to `to`; `literal` stands for the part before `p` if the
    /// machine did not read it itself.
    fn flush_since_amp(&mut self, inp: &Input, p: usize, to: usize, literal: &str) {
        if self.amp_read && self.consumed_since(self.amp) {
            self.flush_input(inp, self.amp, to);
        } else {
            let mut text = literal.to_owned();
            text.push_str(inp.str(p, to));
            self.flush_str(inp, &text, p, to);
        }
    }

    /// NUL in RCDATA, RAWTEXT, script data and PLAINTEXT: an error, and
    /// U+FFFD in its place.
    fn null_to_replacement_text(&mut self, inp: &Input, p: usize) {
        self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
        self.emit_str(inp, "\u{FFFD}", p, p + 1);
    }

    fn eof_in_comment(&mut self, inp: &Input, p: usize) {
        self.err(inp, ErrorCode::EofInComment, p);
        self.emit(Ready::Comment, p);
        self.state = State::Data;
    }

    fn start_doctype_id(&mut self, public: bool, quote: u8) {
        use State::*;
        if public {
            self.doctype_public.clear();
            self.has_doctype_public = true;
            self.state = if quote == b'"' {
                DoctypePublicIdentifierDoubleQuoted
            } else {
                DoctypePublicIdentifierSingleQuoted
            };
        } else {
            self.doctype_system.clear();
            self.has_doctype_system = true;
            self.state = if quote == b'"' {
                DoctypeSystemIdentifierDoubleQuoted
            } else {
                DoctypeSystemIdentifierSingleQuoted
            };
        }
    }

    fn missing_doctype_id(&mut self, inp: &Input, public: bool, p: usize) {
        let code = if public {
            ErrorCode::MissingDoctypePublicIdentifier
        } else {
            ErrorCode::MissingDoctypeSystemIdentifier
        };
        self.err(inp, code, p);
        self.force_quirks = true;
        self.state = State::Data;
        self.emit(Ready::Doctype, p + 1);
    }

    fn missing_quote_before_doctype_id(&mut self, inp: &Input, public: bool, p: usize) {
        let code = if public {
            ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
        } else {
            ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
        };
        self.err(inp, code, p);
        self.force_quirks = true;
        self.pos = p;
        self.state = State::BogusDoctype;
    }

    /// The processing instruction states' "convert the temporary buffer to a
    /// comment": the comment's data is `?` and the buffer, which are the
    /// input bytes after the `<`; then reconsume in the bogus comment state.
    fn pi_to_bogus_comment(&mut self, inp: &Input, p: usize) {
        self.new_comment();
        if self.lt_read && self.consumed_since(self.lt) {
            self.comment.push_input(inp, self.lt + 1, p);
        } else {
            // `temp` holds ASCII letters, digits, `-`, `_`.
            let data = format!("?{}", String::from_utf8_lossy(&self.temp));
            self.comment.push_str(inp, &data);
        }
        self.pos = p;
        self.state = State::BogusComment;
    }

    /// 13.2.5.42 Markup declaration open state, at `p` (just after `<!`).
    /// Returns `None` when the window is too short to decide.
    fn markup_declaration(&mut self, inp: &Input, p: usize) -> Option<()> {
        if self.lookahead(inp, p, b"--", false)? {
            self.pos = p + 2;
            self.new_comment();
            self.state = State::CommentStart;
        } else if self.lookahead(inp, p, b"DOCTYPE", true)? {
            self.pos = p + 7;
            self.state = State::Doctype;
        } else if self.lookahead(inp, p, b"[CDATA[", false)? {
            self.pos = p + 7;
            if self.cdata_allowed {
                self.state = State::CdataSection;
            } else {
                self.err(inp, ErrorCode::CdataInHtmlContent, p + 6);
                self.new_comment();
                self.comment.push_input(inp, p, p + 7);
                self.state = State::BogusComment;
            }
        } else {
            self.err(inp, ErrorCode::IncorrectlyOpenedComment, p);
            self.new_comment();
            self.state = State::BogusComment;
        }
        Some(())
    }

    /// 13.2.5.78 Named character reference state, at `p` (an ASCII
    /// alphanumeric after `&`). Returns `false` when the window is too short
    /// to know the longest match.
    fn named_character_reference(&mut self, inp: &Input, p: usize) -> bool {
        let avail = inp.from(p);
        let window = &avail[..avail.len().min(entities::LONGEST_NAME + 1)];
        let run = window
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if run == window.len() && run < entities::LONGEST_NAME && !inp.eof {
            // The name could go on past the window's end.
            return false;
        }
        let Some(m) = entities::longest_match(window) else {
            self.flush_since_amp(inp, p, p, "&");
            self.state = State::AmbiguousAmpersand;
            return true;
        };
        let end = p + m.len;
        let with_semicolon = inp.at(end - 1) == b';';
        let next = if end < inp.end() { inp.at(end) } else { EOF };
        self.pos = end;
        self.state = self.return_state;
        if self.return_state_is_attribute()
            && !with_semicolon
            && (next == b'=' || next.is_ascii_alphanumeric())
        {
            // For historical reasons, `&ampx` and `&amp=` stay as written
            // inside attribute values.
            self.flush_since_amp(inp, p, end, "&");
            return true;
        }
        if !with_semicolon {
            self.err(inp, ErrorCode::MissingSemicolonAfterCharacterReference, end);
        }
        self.flush_str(inp, m.value, self.amp, end);
        true
    }
}

/// How the tag fast path leaves a tag, at a window offset: at its `>`, at
/// the byte after a `/` (which is `>` for a self-closing tag), or for the
/// general machine in a state.
enum Exit {
    Emit(usize),
    SelfClosing(usize),
    Leave(State, usize),
}

/// The tag fast path's attribute in progress, in window offsets: whether
/// there is one, its name `ns..ne` and value `vs..ve` (a value not started
/// yet is empty at the name's end), and whether its name is a duplicate.
///
/// A value with a decoded character reference is assembled in the attribute
/// arena from `arena` on (else `arena` is `NOT_IN_ARENA`); `run` is where
/// the input bytes not yet copied there start.
#[derive(Clone, Copy)]
struct FastAttr {
    live: bool,
    dup: bool,
    ns: usize,
    ne: usize,
    vs: usize,
    ve: usize,
    arena: usize,
    run: usize,
    /// The lower-cased name in the arena, when it had upper case.
    name_arena: usize,
}

const NOT_IN_ARENA: usize = usize::MAX;

impl Default for FastAttr {
    fn default() -> Self {
        FastAttr {
            live: false,
            dup: false,
            ns: 0,
            ne: 0,
            vs: 0,
            ve: 0,
            arena: NOT_IN_ARENA,
            run: 0,
            name_arena: NOT_IN_ARENA,
        }
    }
}

/// Which field a run is appended to.
#[derive(Clone, Copy)]
enum Target {
    Text,
    TagName,
    AttrName,
    AttrValue,
    Comment,
    DoctypeName,
    DoctypePublic,
    DoctypeSystem,
    Nothing,
}

#[derive(Clone, Copy)]
enum FieldId {
    AttrName,
    AttrValue,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suspect bytes, listed as the standard's definitions give them.
    fn suspect_by_definition(b: u8) -> bool {
        let c0_control = (0x01..=0x1F).contains(&b) && ![0x09, 0x0A, 0x0C, 0x0D].contains(&b);
        // Lead bytes of U+0080..U+009F, U+FDD0..U+FDEF / U+FFFE..U+FFFF,
        // and of every plane above the first (U+1FFFE.. U+10FFFF).
        c0_control || b == 0x7F || b == 0xC2 || b == 0xEF || (0xF0..=0xF4).contains(&b)
    }

    #[test]
    fn stream_suspects_are_the_listed_bytes() {
        for b in 0..=255u8 {
            assert_eq!(
                is_stream_suspect(b),
                suspect_by_definition(b),
                "byte {b:#04x}"
            );
        }
    }

    #[test]
    fn find_stream_suspect_finds_the_first_at_every_position() {
        // Every suspect byte, at every offset of haystacks around the block
        // size, before and after other suspects.
        for len in [0, 1, 31, 32, 33, 63, 64, 65, 100] {
            assert_eq!(find_stream_suspect(&vec![b'a'; len]), len);
            for at in 0..len {
                for b in (0..=255u8).filter(|&b| suspect_by_definition(b)) {
                    let mut hay = vec![b'x'; len];
                    hay[at] = b;
                    if at + 1 < len {
                        hay[len - 1] = 0x01;
                    }
                    assert_eq!(
                        find_stream_suspect(&hay),
                        at,
                        "byte {b:#04x} at {at} of {len}"
                    );
                }
            }
        }
    }
}
