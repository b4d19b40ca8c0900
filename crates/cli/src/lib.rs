//! The parts of the `htmltok` command that other programs of this
//! repository share: the html5lib-tests JSON of `htmltok tokens`
//! ([`json`]), which the conformance runner compares, and what a benchmark
//! reads of each token ([`observe`]), which `htmltok bench` and the
//! criterion benches both use. Not a published API.

pub mod json;
pub mod observe;
