//! htmltok's test plumbing, kept out of the library's public API and never
//! published: used by the integration tests, the fuzz targets, the benches
//! and `xtask`.
//!
//! - [`data`]: the test data of a checkout: html5lib-tests cases, corpus
//!   pages and their manifest (`$HTML5LIB_TESTS`, `$HTMLTOK_CORPUS`).
//! - [`json`]: the html5lib-tests JSON writer, the command line's
//!   `tokens` output format (`htmltok-readout`'s, re-exported).
//! - `warc` (feature `warc`, on by default): WARC records of our own, as
//!   real tools write them, for the archive tests and `cargo xtask
//!   make-warc`.
//! - [`record`]: tokens and errors as owned, comparable records, the one
//!   meaning of "the same output".
//! - [`drive`]: whole-document and streaming runs reduced to records, with
//!   the token protocol checked on the way.
//! - [`compare`]: a difference between two runs shrunk, shown and reported.
//! - [`props`]: what the fuzz targets check (their proptest twins and the
//!   regression cases run the same functions).
//! - [`adversarial`]: generated worst-case inputs, for the memory tests and
//!   the linearity bench.
//! - [`main_content_eval`]: trafilatura's evaluation corpus read and a
//!   main-content extractor scored against it by that corpus's rules.
//! - [`files`]: the directory walk that finds pages and test data;
//!   [`rng`]: the deterministic generator of split points and inputs.
//! - `dom` (feature `html5ever`): an `RcDom` written in html5lib's
//!   tree-construction format.
//! - [`__fuzz`]: the library's internals the checks need, which exist only
//!   with htmltok's `fuzzing` feature (this crate turns it on).

pub mod adversarial;
pub mod compare;
pub mod data;
#[cfg(feature = "html5ever")]
pub mod dom;
pub mod drive;
pub mod files;
pub mod main_content_eval;
pub mod props;
pub mod record;
pub mod rng;
#[cfg(feature = "warc")]
pub mod warc;
#[cfg(all(test, feature = "warc"))]
mod warc_tests;

pub use htmltok::__fuzz;
pub use htmltok_readout::json;
