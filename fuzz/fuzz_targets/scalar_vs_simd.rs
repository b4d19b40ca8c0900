//! The SIMD landmark scans agree with their scalar definitions
//! (`__fuzz::kernels_agree`), and the tokenizer gives the same tokens and
//! errors (`tokens_json(.., true)`) with `Config::simd(false)` as with
//! `Config::simd(true)`. The first bytes choose the other options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use testkit::props::{check_simd, Options};

fuzz_target!(|data: &[u8]| {
    let (options, rest) = Options::decode(data);
    if let Err(e) = check_simd(rest, &options) {
        panic!(
            "{e}\noptions: {options:?}\ninput: {:?}",
            String::from_utf8_lossy(rest)
        );
    }
});
