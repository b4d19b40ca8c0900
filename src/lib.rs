//! htmltok: a WHATWG HTML tokenizer, exact to the standard and fast.
//!
//! (Crate guide: to be written with the crawler API.)
//!
//! ```
//! use htmltok::{Token, Tokenizer};
//! let mut tok = Tokenizer::new("<p class=greeting>Hello &amp; welcome</p>");
//! let mut seen = Vec::new();
//! while let Some(token) = tok.next_token() {
//!     match token {
//!         Token::StartTag(tag) => seen.push(format!("<{} class={:?}>", tag.name, tag.attribute("class"))),
//!         Token::Text(text) => seen.push(text.text.to_string()),
//!         Token::EndTag(tag) => seen.push(format!("</{}>", tag.name)),
//!         _ => {}
//!     }
//! }
//! assert_eq!(seen, ["<p class=Some(\"greeting\")>", "Hello & welcome", "</p>"]);
//! ```
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod entities;
mod error;
pub mod json;
mod position;
mod scan;
mod state;
mod stream;
mod token;
mod tokenizer;

pub use error::{ErrorCode, ParseError};
pub use position::{LineCol, LineIndex};
pub use state::State;
pub use token::{Attribute, Attributes, Doctype, OwnedToken, ProcessingInstruction, Span, Tag, Text, Token};
pub use stream::StreamTokenizer;
pub use tokenizer::{Config, ErrorPolicy, IgnoreErrors, OwnedTokens, ReportErrors, Tokenizer};
