//! htmltok's engines: whole document through `next_token` (driven, the
//! caller switching), the records, a 64 KiB stream, errors on, the scalar
//! path, and the callback API.

use std::cell::RefCell;

use htmltok::records::{Records, TokenRecord};
use htmltok::{Config, Flow, Input, State, StreamTokenizer, Token, Tokenizer};

use htmltok_readout::observe::{self, weight};

use super::{naive_switch, Seen, Switch};
use crate::inputs::Page;

/// The tokenizers of htmltok that a caller drives between `next_token` calls.
///
/// `next` is the bench's plumbing, not the library's: forced inline, so
/// that `drain` runs `next_token` as a user's own loop calls it. Left to
/// the compiler, the wrapper around `Tokenizer::next_token` (which carries
/// the machine inline) was kept out of line, and every token paid a call
/// and a token returned through memory, which a loop that calls
/// `next_token` itself does not pay.
trait Driven {
    fn next(&mut self) -> Option<Token<'_>>;
    fn switch(&mut self, state: State, last_start_tag: &str);
}

impl<E: htmltok::ErrorPolicy> Driven for StreamTokenizer<E> {
    #[inline(always)]
    fn next(&mut self) -> Option<Token<'_>> {
        self.next_token()
    }
    fn switch(&mut self, state: State, last_start_tag: &str) {
        self.set_state(state);
        self.set_last_start_tag(Some(last_start_tag));
    }
}

impl<E: htmltok::ErrorPolicy> Driven for Tokenizer<'_, E> {
    #[inline(always)]
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
        Token::StartTag(tag) => naive_switch(tag.name().as_bytes()),
        _ => None,
    }
}

/// Looks at every field a token record holds (`htmltok_readout::observe::fields`:
/// spans, strings' addresses and lengths, flags, attributes' starts) and
/// says which switch the naive tree builder makes after it. Recording a
/// page should cost no more than a `next_token` loop that looks at
/// everything a record holds: this is that loop's look.
#[inline(always)]
fn observe_fields(token: &Token<'_>, seen: &mut Seen) -> Option<(Switch, &'static str)> {
    seen.tokens += 1;
    seen.sum = seen.sum.wrapping_add(observe::fields(token));
    match token {
        Token::StartTag(tag) => naive_switch(tag.name().as_bytes()),
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

/// `drain`, every field looked at (`observe_fields`). A loop of its own:
/// with one loop generic over the look, `drain`'s engines compiled
/// differently from before and ran slower, with the same work.
#[inline(always)]
fn drain_fields(tok: &mut impl Driven, seen: &mut Seen) {
    loop {
        let switch = {
            let Some(token) = tok.next() else { return };
            observe_fields(&token, seen)
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

/// As `whole`, every field a record holds looked at (`observe_fields`):
/// the loop the recording is measured against.
pub fn fields(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(&page.bytes), driven());
    drain_fields(&mut tok, &mut seen);
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
    /// One `Records` for every page, as a batch consumer keeps one: its
    /// buffers grow to the largest page and are reused.
    static RECORDS: RefCell<Records> = RefCell::new(Records::new());
}

/// Records `page` on `records` (the switches through `record_with`);
/// `false` if it is too large for records.
#[inline(always)]
fn record(page: &Page, records: &mut Records) -> bool {
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(&page.bytes), driven());
    let recorded = records.record_with(&mut tok, |token| match token {
        Token::StartTag(tag) => match naive_switch(tag.name().as_bytes()) {
            Some((switch, _)) => Flow::Switch(state_of(switch)),
            None => Flow::Continue,
        },
        _ => Flow::Continue,
    });
    recorded.is_ok()
}

/// As `whole`, the tokens recorded as records and not read: what is
/// compared with the `next_token` loop (recording a page should be at
/// least as fast). The records themselves are what it saw (their count; the
/// sum is `records`' work, so this engine is not among those checked to
/// see the same lengths).
pub fn recording(page: &Page) -> Seen {
    RECORDS.with_borrow_mut(|records| {
        if !record(page, records) {
            return Seen::default();
        }
        std::hint::black_box(records.tokens());
        std::hint::black_box(records.attributes());
        Seen {
            tokens: records.tokens().len() + 1,
            ..Seen::default()
        }
    })
}

/// As `whole`, recording the tokens as records (the switches through
/// `record_with`), then looking at every token and attribute through the
/// records, as a consumer of them (the Python package's arrays) does: the
/// same string lengths summed as `observe` sums.
pub fn records(page: &Page) -> Seen {
    RECORDS.with_borrow_mut(|records| {
        if !record(page, records) {
            return Seen::default();
        }
        let attrs = records.attributes();
        // The end of the input has no record; `next_token` hands it out.
        let mut seen = Seen {
            tokens: records.tokens().len() + 1,
            ..Seen::default()
        };
        for r in records.tokens() {
            let (s0, s1, s2) = (r.s0_len as usize, r.s1_len as usize, r.s2_len as usize);
            seen.sum += match r.kind {
                TokenRecord::START_TAG => {
                    let first = r.first_attr as usize;
                    let mut n = s0 + (r.flags & TokenRecord::SELF_CLOSING != 0) as usize;
                    for a in &attrs[first..first + r.n_attrs as usize] {
                        n += (a.name_len + a.value_len) as usize;
                    }
                    n
                }
                TokenRecord::DOCTYPE => {
                    s0 + s1 + s2 + (r.flags & TokenRecord::FORCE_QUIRKS != 0) as usize
                }
                TokenRecord::PROCESSING_INSTRUCTION => s0 + s1,
                _ => s0,
            };
        }
        seen
    })
}
