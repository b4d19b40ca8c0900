//! The tokenizer's state machine: the `Machine` struct and its entry points
//! (`next_token`'s, `for_each_token`'s, the records').
//!
//! The rest is one construct per file: the hand-out, one loop generic over
//! what consumes the tokens (`drive.rs`), [`Window`] and the machine's
//! reads of it (`window.rs`), [`Field`] (`field.rs`), token building
//! (`builders.rs`), the error sink (`errors.rs`), what a stream may drop
//! and rebasing (`rebase.rs`), the
//! general machine's states by token kind (`states/`), and the fast paths
//! (`fast/`: the lanes and the tag fast path). They are `impl` blocks of the
//! same `Machine`, and the release profile's one codegen unit inlines across
//! them as within one file (callgrind counts the same instructions as the
//! single file did).
//!
//! The machine never owns the input. Each call gets a window of it
//! ([`Window`]): the bytes from absolute offset `origin` on, and whether the
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

mod builders;
mod drive;
mod errors;
mod fast;
mod field;
mod output;
mod rebase;
mod states;
mod window;

use std::marker::PhantomData;

use super::attr_index::{self, AttrIndex};
use super::charref::{self, Decoded, Named, RefErrors};
use super::feedback::{Observed, Switch};
use super::{AttributePolicy, Config, ErrorPolicy, Feedback, Flow};
use crate::error::{ErrorCode, ParseError};
use crate::position::{LineCol, LineCursor};
use crate::scan;
use crate::state::State;
use crate::token::{Comment, Doctype, ProcessingInstruction, Span, Src, Tag, Text, Token};

/// The EOF "character" (never a UTF-8 byte).
const EOF: u8 = 0xFF;

#[cfg(feature = "records")]
pub(crate) use self::drive::Consume;
use self::drive::{Each, Once};
pub(crate) use self::field::Field;
use self::field::{ascii_lower, push_char};
pub(crate) use self::output::{
    resolve, slice_or_replacement, AttrRecord, AttrStore, Output, Slot, IN_ARENA, VERBATIM,
};
pub(crate) use self::window::Window;

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

/// What a call of the machine's big function hands out: the kind of
/// token, for the caller to build (the discriminants of `Token`'s
/// variants, in their order, so that the mapping is the identity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lent {
    Doctype,
    StartTag,
    EndTag,
    Comment,
    Text,
    ProcessingInstruction,
    Eof,
    Nothing,
}

/// What was handed out last, by whichever entry point: the next call,
/// of any, forgets it first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handed {
    Nothing,
    /// The pending text; `ready` (if any) goes next.
    Text,
    /// The `ready` token.
    Ready,
}

pub(crate) struct Machine<E, A> {
    state: State,
    /// The standard's return state, for character references.
    return_state: State,
    /// Offset of the next byte to consume, in the window (like every
    /// position the machine holds: `rebase` shifts them when a stream drops
    /// bytes, and `Window::origin` is added only to what is handed out).
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
    /// The tag fast path classifies tag interiors in 64-byte blocks
    /// (`scan::tag_block`): SIMD scans on, and a vector kernel for it.
    tag_index: Option<scan::tag_block::Classifier>,
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

    /// What tokens are read from: the strings and spans of the token
    /// being built and of the one handed out last.
    out: Output,
    ready: Option<Ready>,
    handed: Handed,
    /// The text just handed out has a tag behind it, complete (`ready`):
    /// the next call hands it out at once (`tag_waits`).
    tag_queued: bool,
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
    /// The standard's temporary buffer where it is read: by the script
    /// data double escape start and end states (is it `script`?) and the
    /// processing instruction states (the target). Every way into those
    /// clears it first (the `<` + letter of script data escaped, `</` of
    /// double escaped, `<?`), and `set_state` does for a caller who
    /// enters one directly. The end tag states, where the standard also
    /// fills it, never read it: there the name is `tag_name`, and the
    /// text to emit when the tag is no end tag is the input since `lt`
    /// (`emit_since_lt`), so their "set the temporary buffer to the empty
    /// string" is not done.
    temp: Vec<u8>,
    charref_code: u32,

    // The current tag (its strings are in `out`).
    /// Index of the first record of `attrs` that may still borrow input
    /// bytes: those before it borrow none (see `earliest_needed`).
    attrs_borrowing: usize,
    attr_live: bool,
    /// Whether `attr_name` and `attr_value`, the attribute arena and
    /// rewritten list, or the duplicate index may hold something: set by
    /// `new_attr` and `fast_leave`, the only ways into the general
    /// machine's attribute states, by every other writer of the arena (the
    /// tag fast path's decoded references and lower-cased names, a stream's
    /// `detach`) and by the duplicate test that may build the index
    /// (`is_duplicate_name`; `fast_lowercase_name`'s sets it already), so
    /// that `new_tag` tests one flag instead of clearing all of them.
    attr_fields_used: bool,
    attr_duplicate: bool,
    attr_name: Field,
    attr_value: Field,
    attr_name_span: Span,
    attr_value_span: Span,
    attr_index: AttrIndex,
    /// The tag fast path's rewritten attribute in progress (see
    /// `fast::tag::FastAttr`, whose flags say when these hold): where its
    /// value starts in the arena, where the input not yet copied there
    /// starts, and where its lower-cased name is in the arena.
    fast_arena: usize,
    fast_run: usize,
    fast_name_arena: usize,
    /// The tag fast path's attribute in progress, handed to its cold
    /// paths (`fast_leave`, `fast_commit_rare`).
    fast_attr: fast::tag::FastAttr,

    errors: Vec<ParseError>,
    /// Line/column cursor for error locations (errors on only): usually at
    /// the last error, so successive errors cost the distance between them.
    lines: LineCursor,
    /// Line/column at the start of the window, for the rare error reported
    /// behind the cursor.
    lines_at_base: LineCursor,
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
    _policy: PhantomData<(E, A)>,
}

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    pub(crate) fn new(config: &Config<E, A>) -> Self {
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
            tag_index: if config.simd {
                scan::tag_block::Classifier::detect()
            } else {
                None
            },
            fast_paths: config.fast_paths,
            max_attributes: config.max_attributes,
            max_token_len: config.max_token_len,
            limited: config.max_attributes != usize::MAX || config.max_token_len != usize::MAX,
            tag_limited: false,
            out: Output::default(),
            ready: None,
            handed: Handed::Nothing,
            tag_queued: false,
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
            attrs_borrowing: 0,
            attr_live: false,
            attr_fields_used: false,
            attr_duplicate: false,
            attr_name: Field::default(),
            attr_value: Field::default(),
            attr_name_span: Span::default(),
            attr_value_span: Span::default(),
            attr_index: AttrIndex::new(),
            fast_arena: 0,
            fast_run: 0,
            fast_name_arena: 0,
            fast_attr: Default::default(),
            errors: Vec::new(),
            lines: LineCursor::new(),
            lines_at_base: LineCursor::new(),
            limit_errors: Vec::new(),
            stream_checked: 0,
            stream_clear_until: 0,
            _policy: PhantomData,
        };
        let limit = config.max_token_len;
        for field in [
            &mut machine.out.tag_name,
            &mut machine.attr_name,
            &mut machine.attr_value,
            &mut machine.out.comment,
            &mut machine.out.pi_target,
            &mut machine.out.doctype_name,
            &mut machine.out.doctype_public,
            &mut machine.out.doctype_system,
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
            self.temp.clear();
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

    /// Runs the machine and hands out the next token, or `None` when the
    /// window is used up (only possible when `eof` is false) or after EOF:
    /// for the rare caller that takes tokens one at a time through a
    /// stream's other paths (the encoding's watch of the head). The
    /// common callers inline their own mode's entry (`lend_*`).
    pub(crate) fn next_token<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
        feedback: Option<&mut Feedback>,
    ) -> Option<Token<'t>> {
        if self.tag_waits() {
            return Some(self.hand_out_waiting(text, origin, eof, feedback));
        }
        let lent = match feedback {
            None => self.lend_driven(text, origin, eof),
            Some(feedback) => self.next_token_standalone(text, origin, eof, feedback),
        };
        self.lent_token(lent, text)
    }

    /// Whether a tag waits behind the text handed out last: the tag after
    /// a text token (a third of all tokens) is complete already, and
    /// [`hand_out_waiting`](Self::hand_out_waiting) hands it out inline,
    /// without the machine's big function, whose entry and exit alone
    /// cost more than the hand-out.
    #[inline(always)]
    pub(crate) fn tag_waits(&self) -> bool {
        self.tag_queued
    }

    /// Hands out the tag waiting behind the text handed out last
    /// (`tag_waits`): what [`drive`](Self::drive) does for it with
    /// [`Once`], less the loop, which holds the machine.
    #[inline(always)]
    pub(crate) fn hand_out_waiting<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
        feedback: Option<&mut Feedback>,
    ) -> Token<'t> {
        let inp = Window { text, origin, eof };
        // In this window's origin already (see `drive`).
        debug_assert_eq!(self.out.origin, inp.origin);
        self.out.text.clear();
        self.handed = Handed::Ready;
        self.tag_queued = false;
        // The kind tested once, each branch building its own token: tested
        // again after the feedback, it was loaded again (the feedback's
        // stores might have changed it, for all the compiler knew).
        if self.out.tag_is_end {
            if let Some(feedback) = feedback {
                let switch = feedback.observe_parts(Observed::EndTag, self.src(inp));
                self.switch(switch);
            }
            Token::EndTag(Tag { src: self.src(inp) })
        } else {
            if let Some(feedback) = feedback {
                let switch = feedback.observe_parts(Observed::StartTag, self.src(inp));
                self.switch(switch);
            }
            Token::StartTag(Tag { src: self.src(inp) })
        }
    }

    /// Driven mode's next token of a whole document, inlined into
    /// `Tokenizer::next_token`: one out-of-line call a token ran more
    /// instructions.
    #[inline(always)]
    pub(crate) fn lend_driven_whole(&mut self, text: &str) -> Lent {
        self.drive(Self::whole(text), false, None, &mut Once)
    }

    /// Standalone mode's, as [`lend_driven_whole`](Self::lend_driven_whole).
    /// A copy of the machine for each mode: one copy, with the mode tested
    /// after it, was no faster than the call.
    #[inline(always)]
    pub(crate) fn lend_standalone_whole(&mut self, text: &str, feedback: &mut Feedback) -> Lent {
        self.drive(Self::whole(text), false, Some(feedback), &mut Once)
    }

    /// Standalone mode's next token of a stream's window, inlined into
    /// `StreamTokenizer::next_token` as
    /// [`lend_standalone_whole`](Self::lend_standalone_whole) is into
    /// `Tokenizer::next_token`.
    #[inline(always)]
    pub(crate) fn lend_standalone(
        &mut self,
        text: &str,
        origin: usize,
        eof: bool,
        feedback: &mut Feedback,
    ) -> Lent {
        self.drive(
            Window { text, origin, eof },
            true,
            Some(feedback),
            &mut Once,
        )
    }

    /// Driven mode's next token of a stream's window, out of line (a
    /// stream's driven loop calls the machine), with a copy for a window
    /// that holds the whole document, chosen here per call.
    #[inline(always)]
    pub(crate) fn lend_driven(&mut self, text: &str, origin: usize, eof: bool) -> Lent {
        if origin == 0 && eof {
            self.next_token_driven_whole(text)
        } else {
            self.next_token_driven(text, origin, eof)
        }
    }

    /// The window of a whole document: at origin 0, ending the input. The
    /// constants reach the inlined machine, which then has no window end
    /// to wait at and no origin to add to spans.
    #[inline(always)]
    fn whole(text: &str) -> Window<'_> {
        Window {
            text,
            origin: 0,
            eof: true,
        }
    }

    /// [`lend_driven`](Self::lend_driven)'s copy for a window that holds
    /// the whole document (a stream's still: `stale_tag` is kept).
    #[inline(never)]
    fn next_token_driven_whole(&mut self, text: &str) -> Lent {
        self.drive(Self::whole(text), true, None, &mut Once)
    }

    /// The out-of-line functions say what they hand out, and the token is
    /// built inline by [`lent_token`](Self::lent_token): returned by them,
    /// it was stored to memory and loaded back by the caller.
    #[inline(never)]
    fn next_token_driven(&mut self, text: &str, origin: usize, eof: bool) -> Lent {
        self.drive(Window { text, origin, eof }, true, None, &mut Once)
    }

    #[inline(never)]
    fn next_token_standalone(
        &mut self,
        text: &str,
        origin: usize,
        eof: bool,
        feedback: &mut Feedback,
    ) -> Lent {
        self.lend_standalone(text, origin, eof, feedback)
    }

    /// Hands every token to `f` until the window is used up, EOF has been
    /// handed out, or `f` says [`Flow::Stop`]: the loop of
    /// `Tokenizer::for_each_token` and `StreamTokenizer::for_each_token`
    /// (`stream`: see [`drive`](Self::drive)), with the machine inlined, so that the token is looked at where it
    /// is built instead of being stored for a caller to load. Each use is
    /// a copy of the machine, so it has few callers.
    #[inline(always)]
    pub(crate) fn for_each_token<F, T>(
        &mut self,
        text: &str,
        origin: usize,
        eof: bool,
        stream: bool,
        feedback: Option<&mut Feedback>,
        f: F,
    ) where
        F: FnMut(Token<'_>) -> T,
        T: Into<Flow>,
    {
        self.drive(Window { text, origin, eof }, stream, feedback, &mut Each(f));
    }

    /// Hands every token of a whole document (`text`, from where the
    /// machine is to its end) to `c`, until the end or `c` says
    /// [`Flow::Stop`]: the loop of the records (`src/records.rs`).
    #[cfg(feature = "records")]
    #[inline(always)]
    pub(crate) fn drive_whole<C: Consume>(
        &mut self,
        text: &str,
        feedback: Option<&mut Feedback>,
        c: &mut C,
    ) {
        self.drive(Self::whole(text), false, feedback, c);
    }

    /// Applies standalone mode's switches, decided on the token just
    /// handed out (which they do not change: it is a view of the output),
    /// before the next.
    #[inline(always)]
    fn switch(&mut self, switch: Option<Switch>) {
        if let Some(switch) = switch {
            self.set_cdata_allowed(switch.cdata_allowed);
            if let Some(state) = switch.state {
                self.set_state(state);
            }
        }
    }

    /// The bookkeeping after a token other than a tag was handed out.
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

    /// The token of what [`drive`](Self::drive) said it handed out.
    #[inline(always)]
    pub(crate) fn lent_token<'t>(&'t self, lent: Lent, text: &'t str) -> Option<Token<'t>> {
        let src = Src {
            out: &self.out,
            input: text,
        };
        // Text first, alone: the kind of most calls' token.
        if lent == Lent::Text {
            return Some(Token::Text(Text { src }));
        }
        Some(match lent {
            Lent::Doctype => Token::Doctype(Doctype { src }),
            Lent::StartTag => Token::StartTag(Tag { src }),
            Lent::EndTag => Token::EndTag(Tag { src }),
            Lent::Comment => Token::Comment(Comment { src }),
            Lent::Text => Token::Text(Text { src }),
            Lent::ProcessingInstruction => {
                Token::ProcessingInstruction(ProcessingInstruction { src })
            }
            Lent::Eof => Token::Eof,
            Lent::Nothing => return None,
        })
    }

    /// The view of the output that tokens handed out in `inp` hold.
    #[inline(always)]
    fn src<'t>(&'t self, inp: Window<'t>) -> Src<'t> {
        Src {
            out: &self.out,
            input: inp.text,
        }
    }

    /// The token handed out last, built again from the same window (`text`
    /// at `origin`, as it was then: nothing fed or dropped since), or
    /// `None` if the last call handed out nothing. Its fields stay until
    /// the next call forgets them (`drive`), so a caller can take a
    /// token, drop it, and lend it again beside a borrow of its own (the
    /// positions of `next_token_with_lines`, a reader's loop that feeds
    /// the stream when no token came). Standalone mode's feedback has seen
    /// the token already.
    pub(crate) fn last_token<'t>(&'t self, text: &'t str, origin: usize) -> Option<Token<'t>> {
        let inp = Window {
            text,
            origin,
            eof: false,
        };
        match self.handed {
            Handed::Text => Some(Token::Text(Text { src: self.src(inp) })),
            Handed::Ready => Some(self.ready_token(inp)),
            Handed::Nothing => None,
        }
    }

    /// Whether the end-of-file token has been handed out.
    pub(crate) fn eof_handed(&self) -> bool {
        self.finished || (self.handed == Handed::Ready && self.ready == Some(Ready::Eof))
    }

    fn ready_token<'t>(&'t self, inp: Window<'t>) -> Token<'t> {
        let src = self.src(inp);
        match self.ready {
            Some(Ready::StartTag) => Token::StartTag(Tag { src }),
            Some(Ready::EndTag) => Token::EndTag(Tag { src }),
            Some(Ready::Comment) => Token::Comment(Comment { src }),
            Some(Ready::Doctype) => Token::Doctype(Doctype { src }),
            Some(Ready::ProcessingInstruction) => {
                Token::ProcessingInstruction(ProcessingInstruction { src })
            }
            Some(Ready::Eof) | None => Token::Eof,
        }
    }
}
