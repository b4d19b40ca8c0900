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
//! [`Tokenizer::next_token`] lends out one [`Token`] at a time: a kind and
//! a view of the tokenizer's storage, whose strings are resolved when asked
//! for (`tag.name()`, `attr.value()`, `text.as_str()`), borrowed from the
//! input (or, where the standard rewrote something, from the tokenizer's
//! reused scratch space). A loop over a page allocates nothing per token,
//! and reads nothing it does not ask for. Extracting every link of a page:
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
//!         if tag.name() == "a" {
//!             hrefs.extend(tag.attribute("href").map(str::to_owned));
//!         }
//!     }
//! }
//! // Names are lower-cased, references decoded, and script content is text.
//! assert_eq!(hrefs, ["/home", "/a?x=1&y=2"]);
//! ```
//!
//! Scripting is on, as in a browser with JavaScript, so the content of
//! `<noscript>` is text too; [`Config::scripting`]`(false)` reads it as
//! markup (and `extract::links_with`, feature `extract`, takes the same
//! switch, along with the page's encoding for the URLs' queries).
//!
//! For simplicity over speed, [`Tokenizer::owned`] is an [`Iterator`] of
//! [`OwnedToken`]s (and a `for` loop over a tokenizer takes them).
//!
//! A tokenizer takes its text as an [`Input`]: a `&str`, a `String` or a
//! `Cow<str>` as they are, or bytes through one of two explicit ways to
//! text: [`Input::from_utf8_lossy`] for bytes that should be UTF-8
//! (invalid sequences become U+FFFD), [`Input::decode`] for a page in an
//! unknown encoding, which [`encoding::Sniffer`] decides as a browser does
//! (a configured sniffer's [`Decoded`](encoding::Decoded) page converts
//! too; [`StreamTokenizer::decoding`] does the same for a stream):
//!
//! ```
//! use htmltok::encoding::Sniffer;
//! use htmltok::{Token, Tokenizer};
//!
//! let page = b"<meta charset=shift_jis><title>\x93\xfa\x96\x7b</title>";
//! let decoded = Sniffer::new().decode(page);
//! let mut tok = Tokenizer::new(decoded);
//! let mut title = String::new();
//! while let Some(token) = tok.next_token() {
//!     if let Token::Text(t) = token {
//!         title.push_str(t.as_str());
//!     }
//! }
//! assert_eq!(title, "日本");
//! ```
//!
//! The tokenizer reads text; a byte order mark belongs to the bytes, and
//! the decoder drops it ([`Input::decode`], [`Sniffer::decode`](encoding::Sniffer::decode)),
//! as the standard's does. Text that kept it (`std::fs::read_to_string`
//! keeps it) starts with a U+FEFF, which [`Tokenizer::new`] reads as a
//! character, as the standard's tokenizer does: drop it first
//! (`text.strip_prefix('\u{FEFF}')`), or read the bytes through the
//! decoder.
//!
//! A tokenizer may also own its text (an owned `String`, or a decoded
//! page's text that decoding made; [`Tokenizer::into_owned`] copies
//! borrowed text), so that a function can return one:
//!
//! ```
//! use htmltok::{Input, Token, Tokenizer};
//!
//! fn open(path: &std::path::Path) -> std::io::Result<Tokenizer<'static>> {
//!     let bytes = std::fs::read(path)?;
//!     Ok(Tokenizer::new(Input::decode(&bytes)).into_owned())
//! }
//! # let path = std::env::temp_dir().join(format!("htmltok-guide-{}.html", std::process::id()));
//! # std::fs::write(&path, b"<meta charset=shift_jis><title>\x93\xfa\x96\x7b</title>")?;
//! let mut tok = open(&path)?;
//! # std::fs::remove_file(&path)?;
//! while let Some(token) = tok.next_token() {
//!     if let Token::Text(t) = token {
//!         assert_eq!(t.as_str(), "日本");
//!     }
//! }
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! [`Tokenizer::for_each_token`] takes a callback instead: the same tokens,
//! with the tokenizer's loop and the callback compiled into one function,
//! so that a token is looked at where it is built: in standalone mode it
//! runs fewer instructions than a `next_token` loop; driven, or on a
//! stream, the two are about as fast (`docs/BENCHMARKS.md` has the measurements).
//! The callback's [`Flow`] says whether to go on, switch state, or stop (a callback that
//! always goes on returns nothing):
//!
//! ```
//! use htmltok::{Flow, Token, Tokenizer};
//!
//! let mut tok = Tokenizer::new("<p>One <b>two</b> three</p>");
//! let mut words = 0;
//! tok.for_each_token(|token| {
//!     if let Token::Text(t) = token {
//!         words += t.as_str().split_whitespace().count();
//!     }
//! });
//! assert_eq!(words, 3);
//!
//! // The first start tag's name, then stop.
//! let mut tok = Tokenizer::new("text <em>first</em> <b>");
//! let mut first = None;
//! tok.for_each_token(|token| match token {
//!     Token::StartTag(tag) => {
//!         first = Some(tag.name().to_owned());
//!         Flow::Stop
//!     }
//!     _ => Flow::Continue,
//! });
//! assert_eq!(first.as_deref(), Some("em"));
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
//! the owned iterator covers the cases where convenience matters more, and
//! the records (feature `records`) the consumers that take a whole page's
//! tokens at once.
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
//!     match token {
//!         // The token borrows the tokenizer until its last use: here the
//!         // guard, so the arm may switch the state.
//!         Token::StartTag(tag) if tag.name() == "style" => tok.set_state(State::Rawtext),
//!         Token::StartTag(tag) => out.push(format!("<{}>", tag.name())),
//!         Token::Text(text) => out.push(text.as_str().to_owned()),
//!         _ => {}
//!     }
//! }
//! assert_eq!(out, ["p > a {}", "<p>"]);
//! ```
//!
//! A token (and every string or attribute taken from it) borrows the
//! tokenizer from `next_token` to its last use, not to the end of the loop
//! body: `set_state` compiles anywhere after that, inside the token's
//! `match` arm too. An arm that still uses the tag after switching does
//! not compile (E0499); switch after its last use, or copy what it needs
//! first (`let name = tag.name().to_owned();`):
//!
//! ```compile_fail,E0499
//! # use htmltok::{Config, State, Token, Tokenizer};
//! # let mut tok = Tokenizer::with_config("<style>", Config::new().driven(true));
//! while let Some(token) = tok.next_token() {
//!     if let Token::StartTag(tag) = token {
//!         tok.set_state(State::Rawtext);
//!         println!("{}", tag.name()); // the tag is used after the switch
//!     }
//! }
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
//! [`StreamTokenizer::from_reader`] (or [`read_from`](StreamTokenizer::read_from)
//! for a stream with options) reads a [`std::io::Read`] as tokens are asked
//! for; its `next_token` returns `Ok(None)` only at the end:
//!
//! ```
//! use htmltok::{StreamTokenizer, Token};
//!
//! fn titles(reader: impl std::io::Read) -> std::io::Result<Vec<String>> {
//!     let mut tokens = StreamTokenizer::from_reader(reader);
//!     let (mut in_title, mut titles) = (false, Vec::new());
//!     while let Some(token) = tokens.next_token()? {
//!         match token {
//!             Token::StartTag(t) if t.name() == "title" => { in_title = true; titles.push(String::new()) }
//!             Token::EndTag(t) if t.name() == "title" => in_title = false,
//!             Token::Text(t) if in_title => titles.last_mut().unwrap().push_str(t.as_str()),
//!             _ => {}
//!         }
//!     }
//!     Ok(titles)
//! }
//! let page = "<title>Fish &amp; <Chips></title><p>menu";
//! assert_eq!(titles(page.as_bytes()).unwrap(), ["Fish & <Chips>"]);
//! ```
//!
//! Fed by hand, a stream's `next_token` returns `None` both when it needs
//! more input and after [`Token::Eof`]; [`StreamTokenizer::is_finished`]
//! tells them apart.
//!
//! # Lines and columns
//!
//! Spans are byte offsets in the text the tokenizer reads: the decoded
//! UTF-8, not the bytes of a page in another encoding (nor a byte order
//! mark). [`Decoded::source_map`](encoding::Decoded::source_map) turns
//! them back into offsets in the page's bytes. Columns count UTF-16 code
//! units from 1, as html5lib-tests (and JavaScript) count them: a
//! character outside the Basic Multilingual Plane counts two. To report
//! a token's line and column, take it with `next_token_with_lines`, which
//! lends a [`Lines`] beside it (the token borrows the tokenizer, the
//! lines only the text):
//!
//! ```
//! use htmltok::{Token, Tokenizer};
//!
//! let mut tok = Tokenizer::new("<p>See\n<a href=/a>a</a> and\n\n<a href=/b>b</a>");
//! let mut links = Vec::new();
//! while let Some((token, lines)) = tok.next_token_with_lines() {
//!     match token {
//!         Token::StartTag(tag) if tag.name() == "a" => {
//!             let line = lines.line_col(tag.span().start).line;
//!             links.push((line, tag.attribute("href").unwrap_or("").to_owned()));
//!         }
//!         _ => {}
//!     }
//! }
//! assert_eq!(links, [(2, "/a".to_owned()), (4, "/b".to_owned())]);
//! ```
//!
//! A stream keeps the line and column of the bytes it has dropped, so
//! its positions are right however long the input; they reach back only
//! to the start of the token in hand. For offsets kept for later, or
//! inside a `for_each_token` callback, a [`LineIndex`] over the text does
//! the same (it holds the text, so it answers for no other).
//!
//! # Parse errors
//!
//! Errors are opt-in and chosen at compile time ([`ErrorPolicy`]): a
//! tokenizer built with a [`Config::report_errors`] configuration collects
//! [`ParseError`]s with the standard's code, byte span, line and column;
//! one built otherwise carries no code for them at all. They accumulate until taken:
//! [`Tokenizer::take_errors`] (and [`StreamTokenizer::take_errors`]) hand
//! them over as you go, which keeps memory flat on pages with an error
//! every few bytes.
//!
//! ```
//! use htmltok::{Config, ErrorCode, Tokenizer};
//! let mut tok = Tokenizer::with_config("<p>&notit;</p", Config::new().report_errors());
//! while tok.next_token().is_some() {}
//! let found: Vec<_> = tok.errors().iter().map(|e| (e.code, e.location.line, e.location.col)).collect();
//! assert_eq!(found, [
//!     (ErrorCode::MissingSemicolonAfterCharacterReference, 1, 8),
//!     (ErrorCode::EofInTag, 1, 14),
//! ]);
//! ```
#![forbid(unsafe_op_in_unsafe_fn)]
// `unsafe` lives in `scan` (the SIMD kernels) and in one fenced function,
// `token::unchecked::input_str`, whose callers in `token` say why each
// call is sound; the compiler holds everything else to that (here, and
// in the workspace's lints).
#![deny(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations)]

pub mod encoding;
mod entities;
mod error;
#[cfg(any(feature = "text", feature = "links"))]
pub mod extract;
#[cfg(feature = "html5ever")]
pub mod html5ever;
mod input;
mod position;
mod reader;
#[cfg(feature = "records")]
pub mod records;
#[allow(unsafe_code)]
mod scan;
mod state;
mod stream;
mod token;
mod tokenizer;
mod utf8;

pub use error::{ErrorCode, ParseError};
pub use input::Input;
pub use position::{LineCol, LineIndex, Lines};
pub use reader::ReaderTokenizer;
pub use state::State;
pub use stream::StreamTokenizer;
pub use token::{
    Attribute, Attributes, Doctype, OwnedToken, ProcessingInstruction, Span, Tag, Text, Token,
};
pub use tokenizer::{
    AttributePolicy, Config, ErrorPolicy, Flow, IgnoreErrors, KeepAttributes, OwnedTokens,
    ReportErrors, SkipAttributes, Tokenizer,
};

/// Internals the fuzz targets and property tests check directly, only with
/// the `fuzzing` feature (which `testkit` turns on for the tests and
/// `fuzz/` for its targets): not part of the library's API.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod __fuzz {
    /// The named character reference table: (name without `&`, value).
    pub fn entity_table() -> &'static [(&'static str, &'static str)] {
        crate::entities::table()
    }

    /// Checks every landmark scan kernel, and the tag block classifier,
    /// against its scalar definition on `hay`; the error says which set and
    /// where they disagree.
    pub fn kernels_agree(hay: &[u8]) -> Result<(), String> {
        crate::scan::kernels_agree(hay)
    }

    /// The landmark scanner's sets and kernels, one by one, for
    /// `benches/scan.rs`.
    pub mod scan {
        pub use crate::scan::Kernel;

        /// One of the tokenizer's landmark sets.
        #[derive(Clone, Copy)]
        pub struct Set(&'static str, &'static crate::scan::Landmarks);

        impl std::fmt::Debug for Set {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_tuple("Set").field(&self.0).finish()
            }
        }

        impl Set {
            /// The set named `name` in `src/scan/mod.rs` (`DATA`,
            /// `TAG_NAME`, ...).
            pub fn named(name: &str) -> Option<Set> {
                crate::scan::all_sets()
                    .into_iter()
                    .find(|&(n, _)| n == name)
                    .map(|(n, set)| Set(n, set))
            }

            /// Offset of the first landmark in `hay` (`hay.len()` when
            /// there is none), as the tokenizer searches.
            #[inline(always)]
            pub fn find(self, hay: &[u8]) -> usize {
                self.1.find(hay)
            }

            /// The same by the plain definition, a table lookup per byte.
            #[inline]
            pub fn find_scalar(self, hay: &[u8]) -> usize {
                self.1.find_scalar(hay)
            }

            /// The same with one kernel; `None` where it is not available
            /// or does not apply to the set.
            #[inline]
            pub fn find_with(self, kernel: Kernel, hay: &[u8]) -> Option<usize> {
                self.1.find_with(kernel, hay)
            }
        }
    }
}

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
