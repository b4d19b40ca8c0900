//! How the `htmltok` command reads tokens, in a crate of its own so that
//! the programs that must read them the same way can share it without
//! depending on the command line:
//!
//! - [`json`]: every token written as html5lib-tests JSON, the output of
//!   `htmltok tokens`, which the conformance suite (through `testkit`)
//!   compares with html5lib-tests' expectations;
//! - [`observe`]: every string of every token looked at, what
//!   `htmltok bench` and htmltok's engines in the comparison benchmarks
//!   (`benchmarks/`) do with each token, so that they measure the same work.
//!
//! Not a published API: its users are this repository's command line,
//! tests, benchmarks and `xtask`.

pub mod json;
pub mod observe;
