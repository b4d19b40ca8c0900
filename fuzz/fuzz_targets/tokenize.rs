//! Any bytes, any options: the whole-document tokenizer must not panic or
//! hang, its output must stay proportional to the input, and the callback
//! API (`for_each_token`) must give the tokens and errors `next_token` does.
//! The same bytes as a page (invalid UTF-8 replaced): the main-content
//! extractor must not panic, and its words must be a subsequence of the
//! visible text's (`check_main_content`).
//!
//! The first `HEADER_LEN` bytes choose the options (see `Options::decode`):
//! errors on/off, standalone/driven, the initial state (any of the 84, even
//! the ones only reachable in the middle of a token), the last start tag,
//! CDATA allowed, processing instructions, scalar or SIMD scans.
#![no_main]

use libfuzzer_sys::fuzz_target;
use testkit::props::{check_main_content, check_tokenize, Options};

fuzz_target!(|data: &[u8]| {
    let (options, rest) = Options::decode(data);
    if let Err(e) = check_tokenize(rest, &options) {
        panic!(
            "{e}\noptions: {options:?}\ninput: {:?}",
            String::from_utf8_lossy(rest)
        );
    }
    let page = String::from_utf8_lossy(rest);
    if let Err(e) = check_main_content(&page) {
        panic!("{e}\npage: {page:?}");
    }
});
