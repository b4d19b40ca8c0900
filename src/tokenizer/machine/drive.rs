//! The hand-out: one loop ([`Machine::drive`]) runs the machine and hands
//! each token to a consumer ([`Consume`]), monomorphised per consumer.
//! `next_token` is the consumer that stops after one token ([`Once`]),
//! which its caller then builds where it receives it (`lent_token`);
//! `for_each_token` hands every token to a callback ([`Each`]); the
//! records (`src/records.rs`) write each token down first.
//!
//! What was handed out last is kept in the machine (`handed`, `ready`,
//! `tag_queued`) for the next call, of any entry point, to forget first.
//! Inside the loop it is kept in locals and written only when the loop
//! returns, so that a consumer that takes every token does not pay for
//! it at each. The one hand-out outside the loop is the tag waiting behind
//! a text (`Machine::hand_out_waiting`), which `next_token` takes inline:
//! each copy of the loop holds the whole machine.

use super::{Handed, Lent, Machine, Ready, Window};
use crate::token::{Comment, Doctype, ProcessingInstruction, Src, Tag, Text, Token};
use crate::tokenizer::feedback::Observed;
use crate::tokenizer::{AttributePolicy, ErrorPolicy, Feedback, Flow};

/// What takes the tokens [`Machine::drive`] hands out. The loop tells the
/// kinds apart anyway (text, tags, the rest), so each has a hook that sees
/// the token's parts before it is built; `token` then gets the token, in
/// one place for every kind: a callback called in one place per kind was
/// not inlined, and each token was stored for the call.
pub(crate) trait Consume {
    /// The text about to be handed out.
    #[inline(always)]
    fn text(&mut self, _src: Src<'_>) {}
    /// The tag about to be handed out (`end` for an end tag).
    #[inline(always)]
    fn tag(&mut self, _src: Src<'_>, _end: bool) {}
    /// The comment, DOCTYPE, processing instruction or end of the input
    /// about to be handed out. Rare: the loop tests the kind for tags
    /// alone, and these take the cold side.
    #[inline(always)]
    fn other(&mut self, _src: Src<'_>, _kind: Lent) {}
    /// The token; what comes next.
    fn token(&mut self, token: Token<'_>) -> Flow;
}

/// `next_token`'s consumer: stops at the first token, which stays handed
/// out for the caller to build (`lent_token`): returned from the loop, it
/// was stored to memory and loaded back.
pub(crate) struct Once;

impl Consume for Once {
    #[inline(always)]
    fn token(&mut self, _token: Token<'_>) -> Flow {
        Flow::Stop
    }
}

/// `for_each_token`'s consumer: every token to the callback.
pub(crate) struct Each<F>(pub(crate) F);

impl<F, T> Consume for Each<F>
where
    F: FnMut(Token<'_>) -> T,
    T: Into<Flow>,
{
    #[inline(always)]
    fn token(&mut self, token: Token<'_>) -> Flow {
        (self.0)(token).into()
    }
}

impl Ready {
    /// The kind handed out, as the caller sees it.
    #[inline(always)]
    fn lent(self) -> Lent {
        match self {
            Ready::StartTag => Lent::StartTag,
            Ready::EndTag => Lent::EndTag,
            Ready::Comment => Lent::Comment,
            Ready::Doctype => Lent::Doctype,
            Ready::ProcessingInstruction => Lent::ProcessingInstruction,
            Ready::Eof => Lent::Eof,
        }
    }
}

/// The token of a kind other than text or a tag.
#[inline(always)]
fn other_token(kind: Ready, src: Src<'_>) -> Token<'_> {
    match kind {
        Ready::Comment => Token::Comment(Comment { src }),
        Ready::Doctype => Token::Doctype(Doctype { src }),
        Ready::ProcessingInstruction => Token::ProcessingInstruction(ProcessingInstruction { src }),
        Ready::StartTag => Token::StartTag(Tag { src }),
        Ready::EndTag => Token::EndTag(Tag { src }),
        Ready::Eof => Token::Eof,
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// Runs the machine in `inp` and hands each token to `c` until the
    /// window is used up, the end of the input has been handed out, or
    /// `c` says [`Flow::Stop`]; says what the call handed out last
    /// ([`Lent::Nothing`] unless it stopped). Standalone mode (`feedback`)
    /// looks at each token, and makes the switches it decides, before `c`
    /// does. `stream` says whether the window is a stream's: only a
    /// stream reads `stale_tag` (`earliest_needed`, before it drops
    /// input), so a whole document's copies do not store it at every tag.
    #[inline(always)]
    pub(crate) fn drive<C: Consume>(
        &mut self,
        inp: Window,
        stream: bool,
        mut feedback: Option<&mut Feedback>,
        c: &mut C,
    ) -> Lent {
        // Tokens are resolved in the window of this call, whose origin is
        // `out.origin` already: it starts at 0 and `rebase` moves it with
        // the window (the only caller with a moving window is a stream).
        debug_assert_eq!(self.out.origin, inp.origin);
        // The token handed out last is done with. The token ready and not
        // yet handed out is kept in `pending` rather than read back from
        // `self.ready` at the top of each turn: the compiler then knows it
        // on each path (the token behind a text is ready; one handed out
        // is not) instead of loading what was just stored.
        let mut pending = match self.handed {
            Handed::Text => {
                self.out.text.clear();
                self.tag_queued = false;
                self.ready
            }
            Handed::Ready => {
                if let Some(kind) = self.ready.take() {
                    if self.handed_out(kind, stream) {
                        self.handed = Handed::Nothing;
                        return Lent::Nothing;
                    }
                }
                None
            }
            // `finished` is set only where the end of the input is handed
            // out, which leaves `handed` at `Nothing`: a call that handed
            // out text or a tag last needs no test of it.
            Handed::Nothing => {
                if self.finished {
                    return Lent::Nothing;
                }
                None
            }
        };
        loop {
            let kind = match pending {
                Some(kind) => Some(kind),
                None => {
                    self.run(&inp);
                    if E::ENABLED && !self.limit_errors.is_empty() {
                        for (code, at) in std::mem::take(&mut self.limit_errors) {
                            self.err(&inp, code, at);
                        }
                    }
                    self.ready
                }
            };
            // Text goes first, when a token follows it or the window ends
            // (a stream that joins text keeps it until the next window).
            let text_first =
                !self.out.text.is_empty() && (kind.is_some() || (!inp.eof && !self.join_text));
            if !text_first && kind.is_none() {
                // Nothing complete: text at the end of a stream's window
                // stays pending.
                self.handed = Handed::Nothing;
                return Lent::Nothing;
            }
            // Not `None` past here unless the text goes first.
            let ready = kind.unwrap_or(Ready::Eof);
            let token = if text_first {
                if E::ENABLED {
                    self.check_stream(&inp, self.pos.saturating_sub(1));
                }
                if let Some(feedback) = feedback.as_deref_mut() {
                    let switch = feedback.observe_parts(Observed::Text, self.src(inp));
                    self.switch(switch);
                }
                c.text(self.src(inp));
                Token::Text(Text { src: self.src(inp) })
            } else if matches!(ready, Ready::StartTag | Ready::EndTag) {
                // Tags first and together, without a `match`: one compiled
                // to an indirect jump for every token.
                let end = ready == Ready::EndTag;
                if let Some(feedback) = feedback.as_deref_mut() {
                    let observed = if end {
                        Observed::EndTag
                    } else {
                        Observed::StartTag
                    };
                    let switch = feedback.observe_parts(observed, self.src(inp));
                    self.switch(switch);
                }
                c.tag(self.src(inp), end);
                let tag = Tag { src: self.src(inp) };
                if end {
                    Token::EndTag(tag)
                } else {
                    Token::StartTag(tag)
                }
            } else {
                if let Some(feedback) = feedback.as_deref_mut() {
                    let switch = feedback.observe_parts(Observed::Other, self.src(inp));
                    self.switch(switch);
                }
                c.other(self.src(inp), ready.lent());
                other_token(ready, self.src(inp))
            };
            // The consumer called in one place, and what follows it tests
            // `text_first` (known before the token was built), not which
            // branch built it: a test of that was threaded back into each
            // branch, the consumer then called in several places and a
            // callback no longer inlined.
            let flow = c.token(token);
            if text_first {
                if let Flow::Stop = flow {
                    // Left handed out, for the next call to forget.
                    self.handed = Handed::Text;
                    self.tag_queued = matches!(kind, Some(Ready::StartTag | Ready::EndTag));
                    return Lent::Text;
                }
                if let Flow::Switch(state) = flow {
                    self.set_state(state);
                }
                self.out.text.clear();
                pending = kind;
                continue;
            }
            if let Flow::Stop = flow {
                self.handed = Handed::Ready;
                return ready.lent();
            }
            if let Flow::Switch(state) = flow {
                self.set_state(state);
            }
            self.ready = None;
            pending = None;
            if self.handed_out(ready, stream) {
                self.handed = Handed::Nothing;
                return Lent::Nothing;
            }
        }
    }

    /// The bookkeeping after the token `kind` was handed out: its fields
    /// pin no input bytes any more (a stream could otherwise never drop
    /// the bytes after the last tag of a long text); they are cleared when
    /// the next token of their kind begins. Says whether it was the end of
    /// the input, after which nothing follows.
    #[inline(always)]
    fn handed_out(&mut self, kind: Ready, stream: bool) -> bool {
        // A tag first and alone: a `match` on the kind compiled to an
        // indirect jump on every hand-out of a tag.
        if matches!(kind, Ready::StartTag | Ready::EndTag) {
            if stream {
                self.stale_tag = true;
            }
            false
        } else {
            self.handed_other(kind);
            self.finished
        }
    }
}
