//! Conformance: the tokenizer against the standard's text and the test
//! suites written from it. Every expectation here comes from outside the
//! tokenizer: html5lib-tests, html5lib's tree-construction suite (through
//! html5ever's tree builder, feature `html5ever`), the WHATWG HTML and
//! Encoding Standards read by hand, and the inputs that once made a fuzz
//! target fail.
//!
//! `cargo test --test conformance html5lib -- --nocapture` prints the
//! html5lib-tests table.

mod charrefs;
#[cfg(feature = "html5ever")]
mod edges_html5ever;
mod encodings;
#[cfg(feature = "html5ever")]
mod html5ever_tree;
mod html5lib;
mod html5lib_encoding;
mod newlines;
mod processing_instructions;
mod regressions;
mod standalone;
