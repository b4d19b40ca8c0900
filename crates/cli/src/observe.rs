//! What a benchmark does with each token so that no work can be skipped:
//! the lengths of its strings summed. Written once for `htmltok bench`
//! and htmltok's engines in `benches/compare` (through `testkit::observe`),
//! so both measure the same thing.

use htmltok::Token;

/// The token's string lengths (names, values, text, identifiers) summed,
/// plus its flags (`self_closing`, `force_quirks`) as 0 or 1: every string
/// of every token is read.
///
/// ```
/// use htmltok::{Token, Tokenizer};
/// use htmltok_cli::observe::weight;
/// let mut tok = Tokenizer::new("<p class=a>hi</p>");
/// let mut sum = 0;
/// while let Some(token) = tok.next_token() {
///     sum += weight(&token);
/// }
/// // "p" + "class" + "a", "hi", "p".
/// assert_eq!(sum, 1 + 5 + 1 + 2 + 1);
/// ```
#[inline(always)]
pub fn weight(token: &Token<'_>) -> usize {
    match token {
        Token::StartTag(tag) => {
            let mut n = tag.name().len() + tag.self_closing() as usize;
            for attr in tag.attributes() {
                n += attr.name().len() + attr.value().len();
            }
            n
        }
        Token::EndTag(tag) => tag.name().len(),
        Token::Text(text) => text.as_str().len(),
        Token::Comment(comment) => comment.as_str().len(),
        Token::Doctype(d) => {
            d.name().map_or(0, str::len)
                + d.public_id().map_or(0, str::len)
                + d.system_id().map_or(0, str::len)
                + d.force_quirks() as usize
        }
        Token::ProcessingInstruction(pi) => pi.target().len() + pi.data().len(),
        Token::Eof => 0,
        // Token kinds added later count as seen.
        #[allow(unreachable_patterns)]
        _ => 0,
    }
}

/// The state a naive tree builder switches a driven tokenizer to after a
/// start tag named `name`, and the name it then remembers as the last
/// start tag: what the measuring drivers that run htmltok driven (the
/// `parts` bench, `cargo xtask tokenize-file --driven`) do after each
/// start tag, as the compared engines' tree builders would.
///
/// ```
/// use htmltok::State;
/// use htmltok_cli::observe::naive_switch;
/// assert_eq!(naive_switch("title"), Some((State::Rcdata, "title")));
/// assert_eq!(naive_switch("p"), None);
/// ```
#[inline(always)]
pub fn naive_switch(name: &str) -> Option<(htmltok::State, &'static str)> {
    use htmltok::State;
    Some(match name {
        "script" => (State::ScriptData, "script"),
        "style" => (State::Rawtext, "style"),
        "xmp" => (State::Rawtext, "xmp"),
        "iframe" => (State::Rawtext, "iframe"),
        "noembed" => (State::Rawtext, "noembed"),
        "noframes" => (State::Rawtext, "noframes"),
        "title" => (State::Rcdata, "title"),
        "textarea" => (State::Rcdata, "textarea"),
        "plaintext" => (State::Plaintext, "plaintext"),
        _ => return None,
    })
}
