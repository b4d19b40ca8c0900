//! html5gum 0.9 through its callback emitter (its fastest), errors off,
//! switched from `emit_current_tag`.

use super::{naive_switch, Seen, Switch};
use html5gum::emitters::callback::{Callback, CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Span, State, Tokenizer};
use std::cell::Cell;
use std::convert::Infallible;

/// Looks at every event; the totals live outside the tokenizer, which
/// keeps its emitter to itself.
pub struct Observer<'a> {
    seen: &'a Cell<Seen>,
    /// The switch for the start tag being emitted.
    pending: Option<State>,
}

impl Callback<Infallible, ()> for Observer<'_> {
    fn handle_event(&mut self, event: CallbackEvent<'_>, _span: Span<()>) -> Option<Infallible> {
        let (tokens, n) = match event {
            CallbackEvent::OpenStartTag { name } => {
                self.pending = naive_switch(name).map(|(s, _)| match s {
                    Switch::ScriptData => State::ScriptData,
                    Switch::Rawtext => State::RawText,
                    Switch::Rcdata => State::RcData,
                    Switch::Plaintext => State::PlainText,
                });
                (1, name.len())
            }
            CallbackEvent::AttributeName { name } => (0, name.len()),
            CallbackEvent::AttributeValue { value } => (0, value.len()),
            CallbackEvent::CloseStartTag { self_closing } => (0, self_closing as usize),
            CallbackEvent::EndTag { name } => {
                self.pending = None;
                (1, name.len())
            }
            CallbackEvent::String { value } | CallbackEvent::Comment { value } => (1, value.len()),
            CallbackEvent::Doctype {
                name,
                public_identifier,
                system_identifier,
                force_quirks,
            } => (
                1,
                name.len()
                    + public_identifier.map_or(0, <[u8]>::len)
                    + system_identifier.map_or(0, <[u8]>::len)
                    + force_quirks as usize,
            ),
            CallbackEvent::Error(_) => (0, 0),
        };
        let mut seen = self.seen.get();
        seen.tokens += tokens;
        seen.sum += n;
        self.seen.set(seen);
        None
    }
}

/// html5gum's callback emitter, with our switches and errors off.
pub struct Switching<'a>(CallbackEmitter<Observer<'a>>);

impl ForwardingEmitter for Switching<'_> {
    type Token = Infallible;

    fn inner(&mut self) -> &mut impl Emitter<Token = Infallible> {
        &mut self.0
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        // The inner emitter's own (naive) switching is off: it returns None.
        let _ = self.0.emit_current_tag();
        let next = self.0.callback_mut().pending.take();
        if next.is_some() {
            // As html5gum's emitter does when it switches by itself.
            self.0.init_string();
        }
        next
    }
}

pub fn run(page: &crate::inputs::Page) -> Seen {
    let seen = Cell::new(Seen::default());
    let emitter = Switching(CallbackEmitter::new(Observer {
        seen: &seen,
        pending: None,
    }));
    // Reading a byte slice cannot fail, and the emitter yields no tokens.
    let _ = Tokenizer::new_with_emitter(page.bytes.as_slice(), emitter).finish();
    seen.get()
}
