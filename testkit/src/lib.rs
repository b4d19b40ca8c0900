//! htmltok's test plumbing, kept out of the library's public API and never
//! published: used by the integration tests, the fuzz targets, the benches
//! and the examples (as a dev-dependency).
//!
//! - [`json`]: the html5lib-tests JSON writer. The command line owns the
//!   file (`src/bin/htmltok/json.rs`, its `tokens` output format); this
//!   crate compiles the same file, so there is one copy.
//! - [`observe`]: what a benchmark reads of each token (the command line's
//!   file too, shared with `htmltok bench`).
//! - [`record`]: tokens and errors as owned, comparable records, the one
//!   meaning of "the same output".
//! - [`drive`]: whole-document and streaming runs reduced to records, with
//!   the token protocol checked on the way.
//! - [`props`]: what the fuzz targets check (their proptest twins and the
//!   regression cases run the same functions).
//! - [`files`]: the directory walk that finds pages and test data;
//!   [`rng`]: the deterministic generator of split points and inputs.
//! - [`__fuzz`]: the library's internals the checks need, which exist only
//!   with htmltok's `fuzzing` feature (this crate turns it on).

pub mod drive;
pub mod files;
#[path = "../../src/bin/htmltok/json.rs"]
pub mod json;
#[path = "../../src/bin/htmltok/observe.rs"]
pub mod observe;
pub mod props;
pub mod record;
pub mod rng;

pub use htmltok::__fuzz;
