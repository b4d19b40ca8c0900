//! htmltok's test plumbing, kept out of the library's public API: the
//! html5lib-tests JSON writer (`json`, the command line's own module,
//! compiled here too) and, through the `fuzzing` feature it turns on,
//! `htmltok::__fuzz`. Used by the tests, the fuzz targets and the benches;
//! never published.

#[path = "../../src/bin/htmltok/json.rs"]
pub mod json;

pub use htmltok::__fuzz;
