//! html5ever 0.40's tokenizer alone (no tree builder), switched by its
//! `TokenSink`'s answers.

use super::{naive_switch, Seen, Switch};
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::cell::Cell;

#[derive(Default)]
pub struct Sink {
    tokens: Cell<usize>,
    sum: Cell<usize>,
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        // Parse errors (a few, even with exact errors off) are not tokens.
        if !matches!(token, Token::ParseError(_)) {
            self.tokens.set(self.tokens.get() + 1);
        }
        let mut result = TokenSinkResult::Continue;
        let n = match token {
            Token::TagToken(tag) => {
                let mut n = tag.name.len() + tag.self_closing as usize;
                for attr in &tag.attrs {
                    n += attr.name.local.len() + attr.value.len();
                }
                if tag.kind == TagKind::StartTag {
                    result = match naive_switch(tag.name.as_bytes()) {
                        Some((Switch::ScriptData, _)) => {
                            TokenSinkResult::RawData(RawKind::ScriptData)
                        }
                        Some((Switch::Rawtext, _)) => TokenSinkResult::RawData(RawKind::Rawtext),
                        Some((Switch::Rcdata, _)) => TokenSinkResult::RawData(RawKind::Rcdata),
                        Some((Switch::Plaintext, _)) => TokenSinkResult::Plaintext,
                        None => TokenSinkResult::Continue,
                    };
                }
                n
            }
            Token::CharacterTokens(text) | Token::CommentToken(text) => text.len(),
            Token::DoctypeToken(d) => {
                d.name.as_ref().map_or(0, |s| s.len())
                    + d.public_id.as_ref().map_or(0, |s| s.len())
                    + d.system_id.as_ref().map_or(0, |s| s.len())
                    + d.force_quirks as usize
            }
            Token::NullCharacterToken => 1,
            Token::EOFToken | Token::ParseError(_) => 0,
        };
        self.sum.set(self.sum.get() + n);
        result
    }
}

pub fn run(page: &crate::inputs::Page) -> Seen {
    let tok = Tokenizer::new(Sink::default(), TokenizerOpts::default());
    let input = BufferQueue::default();
    // A clone of a shared tendril: no copy of the text.
    input.push_back(page.tendril.clone());
    let _ = tok.feed(&input);
    tok.end();
    Seen {
        tokens: tok.sink.tokens.get(),
        sum: tok.sink.sum.get(),
    }
}
