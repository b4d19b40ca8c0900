//! What a benchmark does with each token so that no work can be skipped:
//! the lengths of its strings summed. Written once for `htmltok bench`
//! and htmltok's engines in the comparison benchmarks (`benchmarks/`), so
//! that both measure the same thing.

use htmltok::Token;

/// The token's string lengths (names, values, text, identifiers) summed,
/// plus its flags (`self_closing`, `force_quirks`) as 0 or 1: every string
/// of every token is read.
///
/// ```
/// use htmltok::{Token, Tokenizer};
/// use htmltok_readout::observe::weight;
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

/// Every field a token record of `htmltok::records` holds, looked at: the
/// token's span, each string (its address and length, as a record keeps
/// an offset and a length), the flags, and each attribute's name, value
/// and where they start in the input; summed (wrapping). What a
/// `next_token` loop "that observes the same fields" as a recording does,
/// for the measurements that compare the two.
///
/// ```
/// use htmltok::{Token, Tokenizer};
/// use htmltok_readout::observe::{fields, weight};
/// let mut tok = Tokenizer::new("<p class=a>hi</p>");
/// let Some(token) = tok.next_token() else { panic!() };
/// let Token::StartTag(tag) = token else { panic!() };
/// let a = tag.attributes().next().unwrap();
/// let address = |s: &str| s.as_ptr() as usize;
/// // The span 0..11, "p", "class" at 3, "a" at 9.
/// let expected = (0 + 11) + (address(tag.name()) + 1)
///     + (address(a.name()) + 5) + (address(a.value()) + 1) + 3 + 9;
/// assert_eq!(fields(&token), expected);
/// assert!(fields(&token) > weight(&token));
/// ```
#[inline(always)]
pub fn fields(token: &Token<'_>) -> usize {
    fn string(s: &str) -> usize {
        (s.as_ptr() as usize).wrapping_add(s.len())
    }
    fn maybe(s: Option<&str>) -> usize {
        s.map_or(0, string)
    }
    let span = token.span().map_or(0, |s| s.start.wrapping_add(s.end));
    let n = match token {
        Token::StartTag(tag) => {
            let mut n = string(tag.name()).wrapping_add(usize::from(tag.self_closing()));
            for a in tag.attributes() {
                n = n
                    .wrapping_add(string(a.name()))
                    .wrapping_add(string(a.value()))
                    .wrapping_add(a.name_span().start)
                    .wrapping_add(a.value_span().start);
            }
            n
        }
        Token::EndTag(tag) => string(tag.name()).wrapping_add(usize::from(tag.self_closing())),
        Token::Text(text) => string(text.as_str()),
        Token::Comment(comment) => string(comment.as_str()),
        Token::Doctype(d) => maybe(d.name())
            .wrapping_add(maybe(d.public_id()))
            .wrapping_add(maybe(d.system_id()))
            .wrapping_add(usize::from(d.force_quirks())),
        Token::ProcessingInstruction(pi) => string(pi.target()).wrapping_add(string(pi.data())),
        Token::Eof => 0,
        // Token kinds added later count as seen.
        #[allow(unreachable_patterns)]
        _ => 0,
    };
    span.wrapping_add(n)
}

/// The state a naive tree builder switches a driven tokenizer to after a
/// start tag named `name`, and the name it then remembers as the last
/// start tag: what the measuring drivers that run htmltok driven (the
/// `parts` bench, `cargo xtask tokenize-file --driven`) do after each
/// start tag, as the compared engines' tree builders would.
///
/// ```
/// use htmltok::State;
/// use htmltok_readout::observe::naive_switch;
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
