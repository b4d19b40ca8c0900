//! htmltok's engines: whole document through `next_token` (driven, the
//! caller switching), the tape, a 64 KiB stream, errors on, the scalar
//! path, and the callback API.

use std::cell::RefCell;

use htmltok::{
    Config, Flow, Input, State, StreamTokenizer, Tape, TapeAttr, TapeToken, Token, Tokenizer,
};

use testkit::observe::weight;

use super::{naive_switch, Seen, Switch};
use crate::inputs::Page;

/// The tokenizers of htmltok that a caller drives between `next_token` calls.
trait Driven {
    fn next(&mut self) -> Option<Token<'_>>;
    fn switch(&mut self, state: State, last_start_tag: &str);
}

impl<E: htmltok::ErrorPolicy> Driven for StreamTokenizer<E> {
    fn next(&mut self) -> Option<Token<'_>> {
        self.next_token()
    }
    fn switch(&mut self, state: State, last_start_tag: &str) {
        self.set_state(state);
        self.set_last_start_tag(Some(last_start_tag));
    }
}

impl<E: htmltok::ErrorPolicy> Driven for Tokenizer<'_, E> {
    fn next(&mut self) -> Option<Token<'_>> {
        self.next_token()
    }
    fn switch(&mut self, state: State, last_start_tag: &str) {
        self.set_state(state);
        self.set_last_start_tag(Some(last_start_tag));
    }
}

/// Looks at a token (its strings' lengths summed into `seen`) and says
/// which switch the naive tree builder makes after it.
#[inline(always)]
fn observe(token: &Token<'_>, seen: &mut Seen) -> Option<(Switch, &'static str)> {
    seen.tokens += 1;
    seen.sum += weight(token);
    match token {
        Token::StartTag(tag) => naive_switch(tag.name.as_bytes()),
        _ => None,
    }
}

fn state_of(switch: Switch) -> State {
    match switch {
        Switch::ScriptData => State::ScriptData,
        Switch::Rawtext => State::Rawtext,
        Switch::Rcdata => State::Rcdata,
        Switch::Plaintext => State::Plaintext,
    }
}

/// The callback of `for_each_token`: looks at the token, returns the switch.
/// (The tokenizer's "last start tag" is then the start tag just handed, the
/// one the switch is for.)
#[inline(always)]
fn flow(token: Token<'_>, seen: &mut Seen) -> Flow {
    match observe(&token, seen) {
        Some((switch, _)) => Flow::Switch(state_of(switch)),
        None => Flow::Continue,
    }
}

/// Takes tokens with `next_token` until the tokenizer needs more input (or
/// is done), looking at each and applying the naive switches.
#[inline(always)]
fn drain(tok: &mut impl Driven, seen: &mut Seen) {
    loop {
        let switch = {
            let Some(token) = tok.next() else { return };
            observe(&token, seen)
        };
        if let Some((switch, name)) = switch {
            tok.switch(state_of(switch), name);
        }
    }
}

fn driven() -> Config {
    Config::new().driven(true)
}

pub fn whole(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(&page.bytes), driven());
    drain(&mut tok, &mut seen);
    seen
}

pub fn errors(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::with_config(
        Input::from_utf8_lossy(&page.bytes),
        driven().report_errors(),
    );
    drain(&mut tok, &mut seen);
    seen.sum += tok.errors().len();
    seen
}

pub fn stream_64k(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = StreamTokenizer::with_config(driven());
    for chunk in page.bytes.chunks(64 * 1024) {
        tok.feed(chunk);
        drain(&mut tok, &mut seen);
    }
    tok.finish();
    drain(&mut tok, &mut seen);
    seen
}

/// As `whole`, with the SIMD landmark scans switched off
/// (`Config::simd(false)`): the portable scalar path.
pub fn scalar(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(&page.bytes), driven().simd(false));
    drain(&mut tok, &mut seen);
    seen
}

/// As `whole`, through the callback API.
pub fn for_each(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(&page.bytes), driven());
    tok.for_each_token(|token| flow(token, &mut seen));
    seen
}

thread_local! {
    /// One tape for every page, as a batch consumer keeps one: its buffers
    /// grow to the largest page and are reused.
    static TAPE: RefCell<Tape> = RefCell::new(Tape::new());
}

/// As `whole`, recording the tokens on a [`Tape`] (the switches through
/// `record_with`), then looking at every token and attribute through the
/// records, as a consumer of the tape (the Python package's arrays) does:
/// the same string lengths summed as `observe` sums.
pub fn tape(page: &Page) -> Seen {
    TAPE.with_borrow_mut(|tape| {
        let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(&page.bytes), driven());
        tape.record_with(&mut tok, |token| match token {
            Token::StartTag(tag) => match naive_switch(tag.name.as_bytes()) {
                Some((switch, _)) => Flow::Switch(state_of(switch)),
                None => Flow::Continue,
            },
            _ => Flow::Continue,
        });
        let mut seen = Seen::default();
        let (attrs, rewritten) = (tape.attributes(), tape.rewritten_attributes());
        for r in tape.records() {
            seen.tokens += 1;
            let [a, b, c] = r.strings;
            seen.sum += match r.kind {
                TapeToken::START_TAG => {
                    let mut n = a.len() + (r.flags & TapeToken::SELF_CLOSING != 0) as usize;
                    for attr in attrs.get(c.range()).unwrap_or(&[]) {
                        n += if attr.strings == TapeAttr::VERBATIM {
                            attr.name.len() + attr.value.len()
                        } else {
                            let s = rewritten[attr.strings];
                            s.name.len() + s.value.len()
                        };
                    }
                    n
                }
                TapeToken::END_TAG | TapeToken::TEXT | TapeToken::COMMENT => a.len(),
                TapeToken::DOCTYPE => {
                    a.len() + b.len() + c.len() + (r.flags & TapeToken::FORCE_QUIRKS != 0) as usize
                }
                TapeToken::PROCESSING_INSTRUCTION => a.len() + b.len(),
                _ => 0,
            };
        }
        seen
    })
}
