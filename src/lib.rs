//! htmltok: a WHATWG HTML tokenizer, exact to the standard and fast.
//!
//! htmltok implements the tokenization chapter of the WHATWG HTML Living
//! Standard: every tokenizer state, the full named character reference
//! table, and every parse error by its spec code with its line and column.
//! It passes all 7,028 UTF-8-expressible runs of html5lib-tests, tokens and
//! errors. It is byte-oriented: in each state it jumps over ordinary bytes to
//! the next byte that matters (a *landmark*) and steps through the state
//! machine only there.
//!
//! # Tokenizing a page
//!
//! [`Tokenizer`] tokenizes a whole document held in memory, the fast path.
//! [`Tokenizer::next_token`] lends out one [`Token`] at a time; its strings
//! borrow the input (or, where the standard rewrote something, the
//! tokenizer's reused scratch space), so a loop over a page allocates
//! nothing per token. Extracting every link of a page:
//!
//! ```
//! use htmltok::{Token, Tokenizer};
//!
//! let page = r#"<a href="/home">Home</a> <A HREF='/a?x=1&amp;y=2'>A</A>
//!               <script>document.write('<a href=/not-a-link>')</script>"#;
//! let mut tok = Tokenizer::new(page);
//! let mut hrefs = Vec::new();
//! while let Some(token) = tok.next_token() {
//!     if let Token::StartTag(tag) = token {
//!         if tag.name == "a" {
//!             hrefs.extend(tag.attribute("href").map(str::to_owned));
//!         }
//!     }
//! }
//! // Names are lower-cased, references decoded, and script content is text.
//! assert_eq!(hrefs, ["/home", "/a?x=1&y=2"]);
//! ```
//!
//! For simplicity over speed, [`Tokenizer::owned`] is an [`Iterator`] of
//! [`OwnedToken`]s. Pages that are not known to be UTF-8 go through
//! [`Tokenizer::from_bytes`], which repairs invalid sequences to U+FFFD;
//! pages in other encodings through [`encoding::Sniffer`], which decides a
//! page's encoding as a browser does and decodes it (and
//! [`StreamTokenizer::decoding`] for a stream):
//!
//! ```
//! use htmltok::encoding::Sniffer;
//! use htmltok::{Token, Tokenizer};
//!
//! let page = b"<meta charset=shift_jis><title>\x93\xfa\x96\x7b</title>";
//! let decoded = Sniffer::new().decode(page);
//! let mut tok = Tokenizer::new(&decoded.text);
//! let mut title = String::new();
//! while let Some(token) = tok.next_token() {
//!     if let Token::Text(t) = token {
//!         title.push_str(t.text);
//!     }
//! }
//! assert_eq!(title, "日本");
//! ```
//!
//! [`Tokenizer::for_each_token`] takes a callback instead: the same tokens,
//! with the tokenizer's loop and the callback compiled into one function,
//! so that a token is looked at where it is built. Over our corpus that is
//! 3.4% fewer instructions than a `next_token` loop in standalone mode; a
//! driven whole document (the `next_token` loop of a tree builder) is as
//! fast either way, within a few percent, and a stream about 3% slower
//! through the callback (the bigger function gives it back). The callback's
//! [`Flow`] says whether to go on, switch state, or stop:
//!
//! ```
//! use htmltok::{Flow, Token, Tokenizer};
//!
//! let mut tok = Tokenizer::new("<p>One <b>two</b> three</p>");
//! let mut words = 0;
//! tok.for_each_token(|token| {
//!     if let Token::Text(t) = token {
//!         words += t.text.split_whitespace().count();
//!     }
//!     Flow::Continue
//! });
//! assert_eq!(words, 3);
//! ```
//!
//! ## Why a lending `next_token`, and a callback beside it
//!
//! We tried three shapes. An `Iterator` of borrowed tokens cannot reuse the
//! tokenizer's scratch buffers (each item would have to outlive the next
//! call), so it must allocate for every rewritten string. A lending
//! `next_token(&mut self)` keeps the loop in the caller's hands and
//! allocates nothing. A callback turns the caller's loop inside out (state
//! that belongs in local variables is captured, early exit is a return
//! value), but it runs fewer instructions: the tokenizer runs inside one
//! call instead of returning every token through memory. So both are here;
//! the owned iterator covers the cases where convenience matters more.
//!
//! # Standalone and driven modes
//!
//! By default the tokenizer runs *standalone*: it applies the switches that
//! a browser's tree builder would make, so that `<script>`, `<style>`,
//! `<title>`, `<textarea>`, `<plaintext>` and friends are tokenized as a
//! browser does, and `<![CDATA[` is a CDATA section only inside `<svg>` or
//! `<math>`. A real tree builder instead *drives* the tokenizer
//! ([`Config::driven`]) and sets the state between tokens:
//!
//! ```
//! use htmltok::{Config, State, Token, Tokenizer};
//!
//! // A (very) small tree builder: it knows which elements hold raw text.
//! let mut tok = Tokenizer::with_config("<style>p > a {}</style><p>", Config::new().driven(true));
//! let mut out = Vec::new();
//! while let Some(token) = tok.next_token() {
//!     let mut switch = None;
//!     match &token {
//!         Token::StartTag(tag) if tag.name == "style" => switch = Some(State::Rawtext),
//!         Token::StartTag(tag) => out.push(format!("<{}>", tag.name)),
//!         Token::Text(text) => out.push(text.text.to_owned()),
//!         _ => {}
//!     }
//!     // The token borrows the tokenizer: switch after it is dropped.
//!     if let Some(state) = switch {
//!         tok.set_state(state);
//!     }
//! }
//! assert_eq!(out, ["p > a {}", "<p>"]);
//! ```
//!
//! The "appropriate end tag" rule uses the last start tag the tokenizer
//! emitted; [`Tokenizer::set_last_start_tag`] overrides it, and
//! [`Tokenizer::set_cdata_allowed`] tells it whether the adjusted current
//! node is in foreign content.
//!
//! # Streaming
//!
//! [`StreamTokenizer`] takes the input in chunks of any size, for instance
//! as it arrives from a [`std::io::Read`], and hands out tokens as soon as
//! they are complete. It may stop at any byte (inside a tag, a character
//! reference, a UTF-8 sequence, `</scr` of a script end tag) and produces
//! the same tokens as the whole-document API, except that a run of text can
//! be split where a chunk ended (see [`Config::join_text`]). Its memory is
//! bounded by the chunk size plus the largest single token.
//!
//! ```
//! use std::io::Read;
//! use htmltok::{StreamTokenizer, Token};
//!
//! fn titles(mut reader: impl Read) -> std::io::Result<Vec<String>> {
//!     let mut stream = StreamTokenizer::new();
//!     let mut buf = [0u8; 8192];
//!     let (mut in_title, mut titles) = (false, Vec::new());
//!     loop {
//!         let n = reader.read(&mut buf)?;
//!         if n == 0 { stream.finish() } else { stream.feed(&buf[..n]) }
//!         while let Some(token) = stream.next_token() {
//!             match token {
//!                 Token::StartTag(t) if t.name == "title" => { in_title = true; titles.push(String::new()) }
//!                 Token::EndTag(t) if t.name == "title" => in_title = false,
//!                 Token::Text(t) if in_title => titles.last_mut().unwrap().push_str(t.text),
//!                 Token::Eof => return Ok(titles),
//!                 _ => {}
//!             }
//!         }
//!     }
//! }
//! let page = "<title>Fish &amp; <Chips></title><p>menu";
//! assert_eq!(titles(page.as_bytes()).unwrap(), ["Fish & <Chips>"]);
//! ```
//!
//! # Parse errors
//!
//! Errors are opt-in and chosen at compile time ([`ErrorPolicy`]): a
//! tokenizer built with [`Tokenizer::with_errors`] collects [`ParseError`]s
//! with the standard's code, byte span, line and column; one built otherwise
//! carries no code for them at all. They accumulate until taken:
//! [`Tokenizer::take_errors`] (and [`StreamTokenizer::take_errors`]) hand
//! them over as you go, which keeps memory flat on pages with an error
//! every few bytes.
//!
//! ```
//! use htmltok::{Config, ErrorCode, Tokenizer};
//! let mut tok = Tokenizer::with_errors("<p>&notit;</p", Config::new());
//! while tok.next_token().is_some() {}
//! let found: Vec<_> = tok.errors().iter().map(|e| (e.code, e.location.line, e.location.col)).collect();
//! assert_eq!(found, [
//!     (ErrorCode::MissingSemicolonAfterCharacterReference, 1, 8),
//!     (ErrorCode::EofInTag, 1, 14),
//! ]);
//! ```
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod encoding;
mod entities;
mod error;
pub mod extract;
pub mod json;
mod position;
mod scan;
mod state;
mod stream;
mod token;
mod tokenizer;
mod utf8;

pub use error::{ErrorCode, ParseError};
pub use position::{LineCol, LineIndex};
pub use state::State;
pub use stream::StreamTokenizer;
pub use token::{
    Attribute, Attributes, Doctype, OwnedToken, ProcessingInstruction, Span, Tag, Text, Token,
};
pub use tokenizer::{
    Config, ErrorPolicy, Flow, IgnoreErrors, OwnedTokens, ReportErrors, Tokenizer,
};

/// Internals exposed for the fuzz targets (`fuzz/`); not a stable API.
#[doc(hidden)]
pub mod __fuzz {
    /// The named character reference table: (name without `&`, value).
    pub fn entity_table() -> &'static [(&'static str, &'static str)] {
        crate::entities::table()
    }

    /// Checks every landmark scan kernel against its scalar definition on
    /// `hay`; the error says which set and where they disagree.
    pub fn kernels_agree(hay: &[u8]) -> Result<(), String> {
        crate::scan::kernels_agree(hay)
    }
}

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
