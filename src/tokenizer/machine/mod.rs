//! The tokenizer's state machine: the `Machine` struct, its entry points and
//! the hand-out protocol (`advance`, `hand_out`, `Handed`).
//!
//! The rest is one construct per file: [`Window`] and the machine's reads
//! of it (`window.rs`), [`Field`] (`field.rs`), token building
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

/// What the last `next_token` call handed out.
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
    /// window is used up (only possible when `eof` is false) or after EOF.
    ///
    /// Standalone mode (`feedback`, see
    /// [`hand_out_observed`](Self::hand_out_observed)) and driven mode are
    /// two functions, each with the machine inlined: the driven one carries
    /// no code for the feedback. Each has a second copy for a whole
    /// document (`origin` 0, `eof`), chosen here per call: the stream's.
    /// `Tokenizer::next_token` inlines the whole-document machine of its
    /// mode instead (`lend_driven_whole`, `lend_standalone_whole`).
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
        // the hand-out. Standalone, the feedback looks at it here too,
        // inline, when no switch waits.
        match feedback {
            None => {
                if self.tag_waits() {
                    return Some(self.hand_out_waiting_tag(Window { text, origin, eof }));
                }
                let lent = if origin == 0 && eof {
                    self.next_token_driven_whole(text)
                } else {
                    self.next_token_driven(text, origin, eof)
                };
                self.lent_token(lent, text)
            }
            Some(feedback) => {
                if self.tag_waits() {
                    let inp = Window { text, origin, eof };
                    self.hand_out_waiting_tag(inp);
                    let kind = if self.out.tag_is_end {
                        Observed::EndTag
                    } else {
                        Observed::StartTag
                    };
                    let switch = feedback.observe_parts(kind, self.src(inp));
                    self.switch(switch);
                    return Some(self.waiting_tag_token(inp));
                }
                let lent = if origin == 0 && eof {
                    self.next_token_standalone_whole(text, feedback)
                } else {
                    self.next_token_standalone(text, origin, eof, feedback)
                };
                self.lent_token(lent, text)
            }
        }
    }

    /// [`next_token`](Self::next_token)'s hand-out of the tag waiting
    /// behind the text handed out last (`tag_waits`), for a whole document.
    #[inline(always)]
    pub(crate) fn hand_out_waiting_whole<'t>(
        &'t mut self,
        text: &'t str,
        feedback: Option<&mut Feedback>,
    ) -> Token<'t> {
        self.hand_out_waiting(text, 0, true, feedback)
    }

    /// [`hand_out_waiting_whole`](Self::hand_out_waiting_whole) in a
    /// stream's window.
    #[inline(always)]
    pub(crate) fn hand_out_waiting<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
        feedback: Option<&mut Feedback>,
    ) -> Token<'t> {
        let inp = Window { text, origin, eof };
        let Some(feedback) = feedback else {
            return self.hand_out_waiting_tag(inp);
        };
        self.hand_out_waiting_tag(inp);
        // The kind tested once, each branch building its own token: tested
        // again after the feedback, it was loaded again (the feedback's
        // stores might have changed it, for all the compiler knew).
        if self.out.tag_is_end {
            let switch = feedback.observe_parts(Observed::EndTag, self.src(inp));
            self.switch(switch);
            Token::EndTag(Tag { src: self.src(inp) })
        } else {
            let switch = feedback.observe_parts(Observed::StartTag, self.src(inp));
            self.switch(switch);
            Token::StartTag(Tag { src: self.src(inp) })
        }
    }

    /// The body of [`next_token_driven_whole`](Self::next_token_driven_whole),
    /// inlined into `Tokenizer::next_token`.
    #[inline(always)]
    pub(crate) fn lend_driven_whole(&mut self, text: &str) -> Lent {
        let inp = Window {
            text,
            origin: 0,
            eof: true,
        };
        let handed = self.advance_in(&inp, false);
        self.lent(handed)
    }

    /// The body of [`next_token_standalone_whole`](Self::next_token_standalone_whole),
    /// as [`lend_driven_whole`](Self::lend_driven_whole).
    #[inline(always)]
    pub(crate) fn lend_standalone_whole(&mut self, text: &str, feedback: &mut Feedback) -> Lent {
        let inp = Window {
            text,
            origin: 0,
            eof: true,
        };
        let handed = self.advance_in(&inp, false);
        self.observe_handed(handed, inp, feedback)
    }

    /// The body of [`next_token_standalone`](Self::next_token_standalone),
    /// inlined into `StreamTokenizer::next_token` as
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
        self.hand_out_observed_kind(Window { text, origin, eof }, feedback)
    }

    /// What [`next_token`](Self::next_token) hands out in driven mode,
    /// out of line (a stream's driven loop calls the machine).
    #[inline(always)]
    pub(crate) fn lend_driven(&mut self, text: &str, origin: usize, eof: bool) -> Lent {
        if origin == 0 && eof {
            self.next_token_driven_whole(text)
        } else {
            self.next_token_driven(text, origin, eof)
        }
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
    pub(crate) fn tag_waits(&self) -> bool {
        self.tag_queued
    }

    /// What `hand_out` does for a tag waiting behind the text just handed
    /// out: forget the text, hand out the tag.
    #[inline(always)]
    fn hand_out_waiting_tag<'t>(&'t mut self, inp: Window<'t>) -> Token<'t> {
        // In this window's origin already (see `advance`).
        debug_assert_eq!(self.out.origin, inp.origin);
        self.out.text.clear();
        self.handed = Handed::Ready;
        self.tag_queued = false;
        self.waiting_tag_token(inp)
    }

    /// The tag handed out by [`hand_out_waiting_tag`](Self::hand_out_waiting_tag).
    #[inline(always)]
    fn waiting_tag_token<'t>(&'t self, inp: Window<'t>) -> Token<'t> {
        let src = Src {
            out: &self.out,
            input: inp.text,
        };
        if self.out.tag_is_end {
            Token::EndTag(Tag { src })
        } else {
            Token::StartTag(Tag { src })
        }
    }

    /// [`next_token_driven`](Self::next_token_driven) for a whole document
    /// (at origin 0, a window that ends the input): the constants reach the
    /// inlined machine, which then has no window end to wait at and no
    /// origin to add to spans.
    #[inline(never)]
    fn next_token_driven_whole(&mut self, text: &str) -> Lent {
        self.hand_out_kind(Window {
            text,
            origin: 0,
            eof: true,
        })
    }

    /// [`next_token_standalone`](Self::next_token_standalone) for a whole
    /// document, as [`next_token_driven_whole`](Self::next_token_driven_whole).
    #[inline(never)]
    fn next_token_standalone_whole(&mut self, text: &str, feedback: &mut Feedback) -> Lent {
        let inp = Window {
            text,
            origin: 0,
            eof: true,
        };
        self.hand_out_observed_kind(inp, feedback)
    }

    /// The out-of-line functions say what they hand out, and the token is
    /// built inline by [`lent_token`](Self::lent_token): returned by them,
    /// it was stored to memory and loaded back by the caller.
    #[inline(never)]
    fn next_token_driven(&mut self, text: &str, origin: usize, eof: bool) -> Lent {
        self.hand_out_kind(Window { text, origin, eof })
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

    /// The token of what [`hand_out_kind`](Self::hand_out_kind) said.
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

    /// What `advance` said to hand out, as the kind of token.
    #[inline(always)]
    fn lent(&self, handed: Handed) -> Lent {
        match handed {
            Handed::Text => Lent::Text,
            Handed::Ready => match self.ready {
                Some(Ready::StartTag) => Lent::StartTag,
                Some(Ready::EndTag) => Lent::EndTag,
                Some(Ready::Comment) => Lent::Comment,
                Some(Ready::Doctype) => Lent::Doctype,
                Some(Ready::ProcessingInstruction) => Lent::ProcessingInstruction,
                Some(Ready::Eof) | None => Lent::Eof,
            },
            Handed::Nothing => Lent::Nothing,
        }
    }

    /// [`hand_out`](Self::hand_out), saying what it hands out.
    #[inline(always)]
    fn hand_out_kind(&mut self, inp: Window) -> Lent {
        let handed = self.advance(&inp);
        self.lent(handed)
    }

    /// [`hand_out_observed`](Self::hand_out_observed), saying what it
    /// hands out.
    #[inline(always)]
    fn hand_out_observed_kind(&mut self, inp: Window, feedback: &mut Feedback) -> Lent {
        let handed = self.advance(&inp);
        // `observe_handed` written out: through it, the stream's copy of
        // the machine compiled to more instructions.
        let kind = match handed {
            Handed::Text => Observed::Text,
            Handed::Ready => match self.ready {
                Some(Ready::StartTag) => Observed::StartTag,
                Some(Ready::EndTag) => Observed::EndTag,
                _ => Observed::Other,
            },
            Handed::Nothing => return Lent::Nothing,
        };
        let switch = feedback.observe_parts(kind, self.src(inp));
        self.switch(switch);
        self.lent(handed)
    }

    /// Standalone mode's look at what `advance` said to hand out, and the
    /// switches it decides, made.
    #[inline(always)]
    fn observe_handed(&mut self, handed: Handed, inp: Window, feedback: &mut Feedback) -> Lent {
        let kind = match handed {
            Handed::Text => Observed::Text,
            Handed::Ready => match self.ready {
                Some(Ready::StartTag) => Observed::StartTag,
                Some(Ready::EndTag) => Observed::EndTag,
                _ => Observed::Other,
            },
            Handed::Nothing => return Lent::Nothing,
        };
        let switch = feedback.observe_parts(kind, self.src(inp));
        self.switch(switch);
        self.lent(handed)
    }

    /// [`next_token`](Self::next_token) with the machine inlined where it
    /// is called: for the loop that takes every token in one place
    /// ([`for_each_token`](Self::for_each_token)), where the token is then
    /// looked at where it is built instead of being stored for a caller to
    /// load (fewer instructions in standalone mode; driven, where whole
    /// documents have their own copies of the big functions, a little
    /// more, and slower: docs/BENCHMARKS.md). Each use is a copy of the
    /// machine, so it has few callers.
    #[inline(always)]
    fn next_token_inline<'t>(
        &'t mut self,
        text: &'t str,
        origin: usize,
        eof: bool,
        feedback: Option<&mut Feedback>,
    ) -> Option<Token<'t>> {
        let inp = Window { text, origin, eof };
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

    /// Records every token of a whole document (`text`, from where the
    /// machine is to its end) into `records`, the end of the input left
    /// out, handing each token to `f` after it is recorded (as
    /// [`for_each_token`](Self::for_each_token) does; the end of the input
    /// too), until the end or `f` says [`Flow::Stop`]: the same tokens in
    /// the same order as `next_token`, with standalone mode's switches and
    /// then `f`'s made after each. Each record is written from the spans
    /// and fields where the machine keeps them, without the hand-out's
    /// protocol, and `f` gets a view of the kind each branch knows (a
    /// callback that looks at start tags alone folds away elsewhere).
    ///
    /// Out of line: inlined into its caller, the machine's loop shared a
    /// frame with the caller's code and spilled more.
    #[cfg(feature = "records")]
    #[inline(never)]
    pub(crate) fn record_whole<F, T>(
        &mut self,
        text: &str,
        mut feedback: Option<&mut Feedback>,
        records: &mut crate::records::Records,
        mut f: F,
    ) where
        F: FnMut(Token<'_>) -> T,
        T: Into<Flow>,
    {
        let inp = Window {
            text,
            origin: 0,
            eof: true,
        };
        self.out.origin = 0;
        let input_len = text.len();
        // A token handed out before (by `next_token`) is done with.
        match self.handed {
            Handed::Text => self.out.text.clear(),
            Handed::Ready => {
                if let Some(kind) = self.ready.take() {
                    self.handed_other(kind);
                }
            }
            Handed::Nothing => {}
        }
        self.handed = Handed::Nothing;
        self.tag_queued = false;
        // The token ready and not yet recorded, kept here rather than read
        // back from `self.ready` at the top of each turn: the compiler
        // then knows it on each path (the token behind a text is ready; a
        // recorded one is not) instead of loading what was just stored.
        let mut pending = self.ready;
        loop {
            let kind = match pending {
                Some(kind) => kind,
                None => {
                    if self.finished {
                        break;
                    }
                    self.run(&inp);
                    if E::ENABLED && !self.limit_errors.is_empty() {
                        for (code, at) in std::mem::take(&mut self.limit_errors) {
                            self.err(&inp, code, at);
                        }
                    }
                    // A whole document's run ends at a token (the end of
                    // the input is one); text before it goes first.
                    match self.ready {
                        Some(kind) => kind,
                        None => break,
                    }
                }
            };
            let text_first = !self.out.text.is_empty();
            // `f` is called in one place: called in one per kind, it was
            // not inlined, and each token was stored for the call.
            let token = if text_first {
                if E::ENABLED {
                    self.check_stream(&inp, self.pos.saturating_sub(1));
                }
                records.push_text(&self.out, input_len);
                if let Some(feedback) = feedback.as_deref_mut() {
                    let switch = feedback.observe_parts(Observed::Text, self.src(inp));
                    self.switch(switch);
                }
                self.text_token(inp)
            } else if matches!(kind, Ready::StartTag | Ready::EndTag) {
                // Tags first and together, without a `match`: one compiled
                // to an indirect jump for every token.
                records.push_tag(&self.out, text, input_len);
                let end = kind == Ready::EndTag;
                if let Some(feedback) = feedback.as_deref_mut() {
                    let observed = if end {
                        Observed::EndTag
                    } else {
                        Observed::StartTag
                    };
                    let switch = feedback.observe_parts(observed, self.src(inp));
                    self.switch(switch);
                }
                let tag = Tag { src: self.src(inp) };
                if end {
                    Token::EndTag(tag)
                } else {
                    Token::StartTag(tag)
                }
            } else {
                // Comments, DOCTYPEs, processing instructions (which switch
                // nothing in the feedback) and the end: rare, out of line,
                // so that the kind is tested for tags alone.
                self.record_other(kind, records, input_len);
                self.ready_token(inp)
            };
            let flow = f(token).into();
            if text_first {
                if !self.apply(flow) {
                    // Left as `next_token` leaves it, the text handed out.
                    self.handed = Handed::Text;
                    self.tag_queued = matches!(kind, Ready::StartTag | Ready::EndTag);
                    return;
                }
                self.out.text.clear();
                pending = Some(kind);
                continue;
            }
            if !self.apply(flow) {
                // Left as `next_token` leaves it, the token handed out
                // (the end of the input too: the next call ends).
                self.handed = Handed::Ready;
                return;
            }
            self.ready = None;
            pending = None;
            // A tag's `stale_tag` is for a stream's `earliest_needed`: a
            // whole document (all this loop records) never reads it.
            if !matches!(kind, Ready::StartTag | Ready::EndTag) {
                self.handed_other(kind);
            }
        }
    }

    /// The record of the comment, DOCTYPE or processing instruction ready
    /// (none for the end of the input), for [`record_whole`](Self::record_whole).
    #[cfg(feature = "records")]
    #[cold]
    #[inline(never)]
    fn record_other(&self, kind: Ready, records: &mut crate::records::Records, input_len: usize) {
        use crate::records::TokenRecord;
        let kind = match kind {
            Ready::Doctype => TokenRecord::DOCTYPE,
            Ready::ProcessingInstruction => TokenRecord::PROCESSING_INSTRUCTION,
            Ready::Comment => TokenRecord::COMMENT,
            Ready::StartTag | Ready::EndTag | Ready::Eof => return,
        };
        records.push_other(kind, &self.out, input_len);
    }

    /// Makes the switch `flow` says; `false` for [`Flow::Stop`].
    #[cfg(feature = "records")]
    #[inline(always)]
    fn apply(&mut self, flow: Flow) -> bool {
        match flow {
            Flow::Continue => true,
            Flow::Switch(state) => {
                self.set_state(state);
                true
            }
            Flow::Stop => false,
        }
    }

    /// Standalone mode's [`hand_out`](Self::hand_out): the new token is
    /// looked at, and the switches it decides applied, before it is
    /// returned.
    #[inline(always)]
    fn hand_out_observed<'t>(
        &'t mut self,
        inp: Window<'t>,
        feedback: &mut Feedback,
    ) -> Option<Token<'t>> {
        let handed = self.advance(&inp);
        let kind = match handed {
            Handed::Text => Observed::Text,
            Handed::Ready => match self.ready {
                Some(Ready::StartTag) => Observed::StartTag,
                Some(Ready::EndTag) => Observed::EndTag,
                _ => Observed::Other,
            },
            Handed::Nothing => return None,
        };
        let switch = feedback.observe_parts(kind, self.src(inp));
        self.switch(switch);
        self.token_of(handed, inp)
    }

    /// The view of the output that tokens handed out in `inp` hold.
    #[inline(always)]
    fn src<'t>(&'t self, inp: Window<'t>) -> Src<'t> {
        Src {
            out: &self.out,
            input: inp.text,
        }
    }

    /// The token `advance` said to hand out.
    #[inline(always)]
    fn token_of<'t>(&'t self, handed: Handed, inp: Window<'t>) -> Option<Token<'t>> {
        match handed {
            Handed::Text => Some(self.text_token(inp)),
            Handed::Ready => Some(self.ready_token(inp)),
            Handed::Nothing => None,
        }
    }

    /// Runs the machine (`advance`) and builds the token it says to hand
    /// out.
    #[inline(always)]
    fn hand_out<'t>(&'t mut self, inp: Window<'t>) -> Option<Token<'t>> {
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
        let inp = Window {
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
    fn text_token<'t>(&'t self, inp: Window<'t>) -> Token<'t> {
        Token::Text(Text {
            src: Src {
                out: &self.out,
                input: inp.text,
            },
        })
    }

    /// Forgets the token handed out last, runs the machine until a token is
    /// complete (or the window is used up), and says what to hand out.
    #[inline(always)]
    fn advance(&mut self, inp: &Window) -> Handed {
        self.advance_in(inp, true)
    }

    /// [`advance`](Self::advance), where `stream` says whether the window
    /// is a stream's: only a stream reads `stale_tag` (`earliest_needed`,
    /// before it drops input), so a whole document's copies do not store
    /// it at every tag.
    #[inline(always)]
    fn advance_in(&mut self, inp: &Window, stream: bool) -> Handed {
        // Tokens are resolved in the window of this call, whose origin is
        // `out.origin` already: it starts at 0 and `rebase` moves it with
        // the window (the only caller with a moving window is a stream).
        debug_assert_eq!(self.out.origin, inp.origin);
        match self.handed {
            Handed::Text => {
                self.out.text.clear();
                if self.ready.is_some() {
                    self.handed = Handed::Ready;
                    self.tag_queued = false;
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
                        if stream {
                            self.stale_tag = true;
                        }
                    } else {
                        self.handed_other(kind);
                        // The end of the input handed out: nothing follows.
                        if self.finished {
                            self.handed = Handed::Nothing;
                            return Handed::Nothing;
                        }
                    }
                }
            }
            // `finished` is set only where the end of the input is handed
            // out (above, or the records' loop, which leaves `handed` at
            // `Nothing`): a call that handed out text or a tag last needs
            // no test of it.
            Handed::Nothing => {
                if self.finished {
                    return Handed::Nothing;
                }
            }
        }
        // `handed` is set once, below: nothing in the run reads it.
        self.run(inp);
        if E::ENABLED && !self.limit_errors.is_empty() {
            for (code, at) in std::mem::take(&mut self.limit_errors) {
                self.err(inp, code, at);
            }
        }
        if !self.out.text.is_empty() && (self.ready.is_some() || (!inp.eof && !self.join_text)) {
            self.handed = Handed::Text;
            self.tag_queued = matches!(self.ready, Some(Ready::StartTag | Ready::EndTag));
            if E::ENABLED {
                self.check_stream(inp, self.pos.saturating_sub(1));
            }
        } else if self.ready.is_some() {
            self.handed = Handed::Ready;
        } else {
            self.handed = Handed::Nothing;
        }
        self.handed
    }

    #[inline(always)]
    fn ready_token<'t>(&'t self, inp: Window<'t>) -> Token<'t> {
        let src = Src {
            out: &self.out,
            input: inp.text,
        };
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
