//! Differential: htmltok against html5gum (another tokenizer that follows
//! the standard and passes html5lib-tests) on the same input, in driven mode
//! (no state switching by either), from Data, RCDATA, RAWTEXT, script data
//! or PLAINTEXT, with or without a last start tag. Tokens are compared, not
//! errors: html5gum reports errors without positions, and its order is its
//! own. Attributes are compared as sorted sets (html5gum keeps a map);
//! a missing DOCTYPE name compares equal to an empty one (html5gum has no
//! `None`); end tags by name only.
//!
//! Behind the fuzz crate's `differential` feature:
//!   cargo +nightly fuzz run --features differential differential
#![no_main]

use htmltok::{Config, State, Token, Tokenizer};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, PartialEq, Eq)]
enum Rec {
    Start(String, Vec<(String, String)>, bool),
    End(String),
    Text(String),
    Comment(String),
    Doctype(String, Option<String>, Option<String>, bool),
}

fn push_text(out: &mut Vec<Rec>, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(Rec::Text(t)) = out.last_mut() {
        t.push_str(text);
    } else {
        out.push(Rec::Text(text.to_owned()));
    }
}

fn ours(input: &str, state: State, last: Option<&str>) -> Vec<Rec> {
    let mut config = Config::new().driven(true).initial_state(state);
    if let Some(name) = last {
        config = config.last_start_tag(name);
    }
    let mut tok = Tokenizer::with_config(input, config);
    let mut out = Vec::new();
    while let Some(token) = tok.next_token() {
        match token {
            Token::StartTag(t) => {
                let mut attrs: Vec<_> = t
                    .attributes()
                    .map(|a| (a.name().to_owned(), a.value().to_owned()))
                    .collect();
                attrs.sort();
                out.push(Rec::Start(t.name().to_owned(), attrs, t.self_closing()));
            }
            Token::EndTag(t) => out.push(Rec::End(t.name().to_owned())),
            Token::Text(t) => push_text(&mut out, t.as_str()),
            Token::Comment(c) => out.push(Rec::Comment(c.as_str().to_owned())),
            Token::Doctype(d) => out.push(Rec::Doctype(
                d.name().unwrap_or("").to_owned(),
                d.public_id().map(str::to_owned),
                d.system_id().map(str::to_owned),
                d.force_quirks(),
            )),
            Token::ProcessingInstruction(_) => unreachable!("processing instructions are off"),
            Token::Eof => {}
            other => unimplemented!("a token kind this target does not know: {other:?}"),
        }
    }
    out
}

fn theirs(input: &str, state: html5gum::State, last: Option<&str>) -> Vec<Rec> {
    let s = |h: &html5gum::HtmlString| String::from_utf8_lossy(h).into_owned();
    let mut tok = html5gum::Tokenizer::new(input);
    tok.set_state(state);
    #[cfg(debug_assertions)]
    tok.set_last_start_tag(last);
    #[cfg(not(debug_assertions))]
    let _ = last;
    let mut out = Vec::new();
    for token in tok {
        let Ok(token) = token;
        match token {
            html5gum::Token::StartTag(t) => {
                let mut attrs: Vec<_> = t.attributes.iter().map(|(k, v)| (s(k), s(v))).collect();
                attrs.sort();
                out.push(Rec::Start(s(&t.name), attrs, t.self_closing));
            }
            html5gum::Token::EndTag(t) => out.push(Rec::End(s(&t.name))),
            html5gum::Token::String(t) => push_text(&mut out, &s(&t)),
            html5gum::Token::Comment(c) => out.push(Rec::Comment(s(&c))),
            html5gum::Token::Doctype(d) => out.push(Rec::Doctype(
                s(&d.name),
                d.public_identifier.as_ref().map(s),
                d.system_identifier.as_ref().map(s),
                d.force_quirks,
            )),
            html5gum::Token::Error(_) => {}
        }
    }
    out
}

const STATES: [(State, html5gum::State); 5] = [
    (State::Data, html5gum::State::Data),
    (State::Rcdata, html5gum::State::RcData),
    (State::Rawtext, html5gum::State::RawText),
    (State::ScriptData, html5gum::State::ScriptData),
    (State::Plaintext, html5gum::State::PlainText),
];

const LAST: [Option<&str>; 4] = [None, Some("script"), Some("title"), Some("style")];

fuzz_target!(|data: &[u8]| {
    let Some((&header, rest)) = data.split_first() else {
        return;
    };
    // Mostly Data: the other states only matter up to their end tag.
    let (state, gum_state) = STATES[if header & 0x18 == 0 {
        (header as usize >> 5) % STATES.len()
    } else {
        0
    }];
    let last = if cfg!(debug_assertions) {
        LAST[header as usize & 3]
    } else {
        None
    };
    let input = String::from_utf8_lossy(rest);
    let a = ours(&input, state, last);
    let b = theirs(&input, gum_state, last);
    if a != b {
        let i = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        panic!(
            "htmltok and html5gum differ ({state:?}, last start tag {last:?}) at token {i}:\n  htmltok  {:?}\n  html5gum {:?}\ninput: {input:?}",
            a.get(i),
            b.get(i)
        );
    }
});
