//! A stream's bytes into the text of its window, chunk by chunk.
//!
//! Without a [`Sniffer`] a stream's input is UTF-8, repaired exactly as
//! `String::from_utf8_lossy` would repair the whole input (a sequence split
//! across chunks waits for its end), so a stream and a whole document agree
//! byte for byte. With one, the stream decides as [`Sniffer::sniff`] does
//! for the whole input, in the same order:
//!
//! 1. The first [`PRESCAN_LEN`] bytes are held until they have arrived:
//!    a byte order mark, the transport's charset or the prescan decides.
//! 2. Otherwise ASCII goes through as it is (it reads the same in every
//!    ASCII-compatible encoding) while the stream watches its start tags
//!    for a `<meta>` that declares an encoding (`saw_token`).
//! 3. From the first non-ASCII byte on, bytes are held until the guess's
//!    length ([`Sniffer::guess_len`], by default [`DETECT_LEN`]) have arrived
//!    (or the input ends) and the tokens before them have been taken: then
//!    the `<meta>` seen, else the guess, else the default decides. The
//!    guess also reads the two ASCII bytes before the first non-ASCII one,
//!    which the stream keeps as it passes ASCII through (`context`).
//! 4. If a rule that a declaration may overrule decided (the prescan, the
//!    guess, the default), the stream watches the tokens of the head
//!    ([`Head`]) for a `<meta>` that declares another encoding: where
//!    [`Sniffer::sniff`] changes the whole page's encoding, the stream,
//!    whose tokens are out, says so in `Sniffed::declared_late`.
//!
//! A UTF-8 page then takes the UTF-8 path, any other goes through an
//! `encoding_rs` decoder, whose output for any split of the input is the
//! same as for the whole.

use encoding_rs::{Decoder, Encoding, UTF_8};

use super::guess::CONTEXT;
use super::head::{Head, Seen};
#[cfg(doc)]
use super::DETECT_LEN;
use super::{ascii_len, late_meta, meta_declares, Sniffed, Sniffer, PRESCAN_LEN};
use crate::{utf8, Token};

/// Input bytes at most decoded at once, so that the room reserved for
/// their text (up to three bytes of UTF-8 per input byte) stays small.
const DECODE_STEP: usize = 64 * 1024;

pub(crate) struct InputDecoder {
    state: State,
    sniffed: Option<Sniffed>,
    /// Tokens are to be shown to `saw_token`: in `State::Ascii` with no
    /// `<meta>` seen yet, or decided by a rule a `<meta>` in the head may
    /// overrule while the head goes on. A byte, not a look at the state,
    /// since a stream tests it at every token.
    watch: bool,
    /// The head so far, from the first token on.
    head: Head,
    /// The head has neither ended nor declared an encoding yet.
    head_open: bool,
}

enum State {
    /// UTF-8. `partial` is the start of a sequence whose end has not
    /// arrived yet.
    Utf8 { partial: Vec<u8> },
    /// Holding the first bytes until there are enough to sniff.
    Sniffing { sniffer: Sniffer, held: Vec<u8> },
    /// Undecided after the first bytes: ASCII goes through; `held` is the
    /// input from the first non-ASCII byte on, once it has come; `meta` the
    /// encoding the first declaring `<meta>` named; `context` the last
    /// ASCII bytes that went through.
    Ascii {
        sniffer: Sniffer,
        held: Vec<u8>,
        meta: Option<&'static Encoding>,
        context: Context,
    },
    /// Any encoding but UTF-8.
    Decoding(Box<Decoder>),
}

impl InputDecoder {
    /// UTF-8, the default.
    pub(crate) fn utf8() -> Self {
        InputDecoder {
            state: State::Utf8 {
                partial: Vec::new(),
            },
            sniffed: None,
            watch: false,
            head: Head::default(),
            head_open: false,
        }
    }

    /// Sniffs the encoding from the first bytes.
    pub(crate) fn sniffing(sniffer: Sniffer) -> Self {
        InputDecoder {
            state: State::Sniffing {
                sniffer,
                held: Vec::new(),
            },
            sniffed: None,
            watch: false,
            head: Head::default(),
            head_open: true,
        }
    }

    /// The encoding sniffed, once decided.
    pub(crate) fn sniffed(&self) -> Option<Sniffed> {
        self.sniffed
    }

    /// Bytes held for input not yet decoded.
    pub(crate) fn capacity(&self) -> usize {
        match &self.state {
            State::Utf8 { partial } => partial.capacity(),
            State::Sniffing { held, .. } | State::Ascii { held, .. } => held.capacity(),
            State::Decoding(_) => 0,
        }
    }

    /// Whether tokens are to be shown to [`saw_token`](Self::saw_token).
    #[inline]
    pub(crate) fn watching(&self) -> bool {
        self.watch
    }

    /// A token the stream handed out while [`watching`](Self::watching):
    /// undecided, the first `<meta>` that declares an encoding decides;
    /// decided, the first in the head that declares another is noted.
    pub(crate) fn saw_token(&mut self, token: &Token<'_>) {
        let seen = if self.head_open {
            self.head.see(token)
        } else {
            None
        };
        if seen.is_some() {
            self.head_open = false;
        }
        match &mut self.state {
            State::Ascii { meta, .. } => {
                if let (None, Token::StartTag(tag)) = (&meta, token) {
                    *meta = meta_declares(tag);
                }
                self.watch = meta.is_none();
            }
            _ => {
                if let (Some(Seen::Declares(found)), Some(sniffed)) = (seen, &mut self.sniffed) {
                    if found != sniffed.encoding {
                        sniffed.declared_late = Some(found);
                    }
                }
                self.watch = self.head_open;
            }
        }
    }

    /// Appends the text of `chunk` to `out`. The tokens of what was pushed
    /// before must have been taken (a `<meta>` among them decides).
    pub(crate) fn push(&mut self, out: &mut String, chunk: &[u8]) {
        match &mut self.state {
            State::Utf8 { partial } => push_utf8(partial, out, chunk),
            State::Decoding(decoder) => decode(decoder, out, chunk, false),
            State::Sniffing { sniffer, held } => {
                if held.len() + chunk.len() < PRESCAN_LEN {
                    held.extend_from_slice(chunk);
                    return;
                }
                let sniffer = *sniffer;
                if held.is_empty() {
                    self.after_prescan(sniffer, out, chunk);
                } else {
                    let mut first = std::mem::take(held);
                    first.extend_from_slice(chunk);
                    self.after_prescan(sniffer, out, &first);
                }
            }
            State::Ascii { held, sniffer, .. } if !held.is_empty() => {
                held.extend_from_slice(chunk);
                if held.len() >= sniffer.guess_window() {
                    self.after_detecting(out, false);
                }
            }
            State::Ascii { held, context, .. } => {
                let ascii = ascii_len(chunk);
                out.push_str(std::str::from_utf8(&chunk[..ascii]).unwrap_or_default());
                context.pass(&chunk[..ascii]);
                // The tokens of the ASCII may hold a `<meta>`: the decision
                // waits for them to be taken, until the next push at least.
                held.extend_from_slice(&chunk[ascii..]);
            }
        }
    }

    /// Ends the input: what is held is decoded, and a sequence cut off by
    /// the end becomes U+FFFD.
    pub(crate) fn finish(&mut self, out: &mut String) {
        if let State::Sniffing { sniffer, held } = &mut self.state {
            let (sniffer, first) = (*sniffer, std::mem::take(held));
            self.after_prescan(sniffer, out, &first);
            // The whole input came in this call, shorter than the prescan:
            // its ASCII went out just now and its tokens have not been
            // taken, so no `<meta>` among them was seen (one the prescan
            // misses, say after a `<!--` inside a <title>). The whole input
            // is here: look for the `<meta>` as `Sniffer::sniff` does.
            if let State::Ascii { meta, .. } = &mut self.state {
                if meta.is_none() {
                    *meta = late_meta(&first[..ascii_len(&first)]);
                }
            }
        }
        if let State::Ascii { .. } = self.state {
            self.after_detecting(out, true);
        }
        match &mut self.state {
            State::Utf8 { partial } => {
                if !partial.is_empty() {
                    partial.clear();
                    out.push('\u{FFFD}');
                }
            }
            State::Decoding(decoder) => decode(decoder, out, &[], true),
            State::Sniffing { .. } | State::Ascii { .. } => {}
        }
    }

    /// Decides from `first`, the input's first bytes (all of them, or at
    /// least [`PRESCAN_LEN`]) if they can; else pushes them on undecided.
    fn after_prescan(&mut self, sniffer: Sniffer, out: &mut String, first: &[u8]) {
        match sniffer.sniff_early(first) {
            Some(sniffed) => self.decide(sniffed, out, &first[sniffed.bom_len()..]),
            None => {
                self.state = State::Ascii {
                    sniffer,
                    held: Vec::new(),
                    meta: None,
                    context: Context::default(),
                };
                self.watch = true;
                self.push(out, first);
            }
        }
    }

    /// Decides by the `<meta>` seen or from the held bytes (at least the
    /// guess's length of them, or `at_end`), and decodes them.
    fn after_detecting(&mut self, out: &mut String, at_end: bool) {
        if let State::Ascii {
            sniffer,
            held,
            meta,
            context,
        } = &mut self.state
        {
            debug_assert!(at_end || held.len() >= sniffer.guess_window());
            let sniffed = sniffer.sniff_late(*meta, context.as_slice(), held);
            let held = std::mem::take(held);
            self.decide(sniffed, out, &held);
        }
    }

    /// Switches to the encoding `sniffed` and decodes `body` with it.
    fn decide(&mut self, sniffed: Sniffed, out: &mut String, body: &[u8]) {
        self.sniffed = Some(sniffed);
        self.watch = self.head_open && sniffed.may_change();
        if sniffed.encoding == UTF_8 {
            let mut partial = Vec::new();
            push_utf8(&mut partial, out, body);
            self.state = State::Utf8 { partial };
        } else {
            let mut decoder = Box::new(sniffed.encoding.new_decoder_without_bom_handling());
            decode(&mut decoder, out, body, false);
            self.state = State::Decoding(decoder);
        }
    }
}

/// The last [`CONTEXT`] bytes of the ASCII a stream passed through: what
/// the whole page's guess reads before the first non-ASCII byte.
#[derive(Default)]
struct Context {
    bytes: [u8; CONTEXT],
    len: usize,
}

impl Context {
    /// `ascii` went through.
    fn pass(&mut self, ascii: &[u8]) {
        let (bytes, len) = (&mut self.bytes, &mut self.len);
        for &b in &ascii[ascii.len().saturating_sub(CONTEXT)..] {
            if *len == CONTEXT {
                bytes.copy_within(1.., 0);
                *len -= 1;
            }
            bytes[*len] = b;
            *len += 1;
        }
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Appends `data` to `out` as UTF-8, invalid sequences replaced; an
/// incomplete sequence at the end waits in `partial` for the next chunk.
fn push_utf8(partial: &mut Vec<u8>, out: &mut String, mut data: &[u8]) {
    // First complete a sequence left over from the previous chunk.
    while !partial.is_empty() && !data.is_empty() {
        partial.push(data[0]);
        data = &data[1..];
        match std::str::from_utf8(partial) {
            Ok(complete) => {
                out.push_str(complete);
                partial.clear();
            }
            Err(e) => {
                if let Some(bad) = e.error_len() {
                    // Invalid: one U+FFFD for the bad bytes, and the rest
                    // (at most three bytes) is looked at again.
                    let rest = partial.split_off(bad);
                    partial.clear();
                    out.push('\u{FFFD}');
                    let tail = utf8::push_lossy(out, &rest);
                    partial.extend_from_slice(tail);
                }
            }
        }
    }
    let tail = utf8::push_lossy(out, data);
    partial.extend_from_slice(tail);
}

/// Decodes `data` onto `out`; `last` ends the input.
pub(super) fn decode(decoder: &mut Decoder, out: &mut String, data: &[u8], last: bool) {
    let mut rest = data;
    loop {
        let step = &rest[..rest.len().min(DECODE_STEP)];
        let is_last = last && step.len() == rest.len();
        // A step's worst case fits, so one call decodes all of it; the
        // loop below only guards against a decoder that needs more.
        out.reserve(
            decoder
                .max_utf8_buffer_length(step.len())
                .unwrap_or(4 * step.len() + 16),
        );
        let (result, read, _) = decoder.decode_to_string(step, out, is_last);
        rest = &rest[read..];
        if rest.is_empty() && result == encoding_rs::CoderResult::InputEmpty {
            return;
        }
    }
}
