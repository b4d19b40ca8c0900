//! Character references: strings built from fragments of the named
//! reference table's names, `&`, `;`, `#`, digits, `x`, `=` and letters
//! (see `charref_string`) decode as a direct transcription of the
//! standard's character reference states says (`reference_decode`: longest
//! table name by linear scan, the attribute-value legacy rule, numeric
//! references with the replacement table), in the Data and RCDATA states and
//! in double-quoted, single-quoted and unquoted attribute values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use testkit::props::{charref_string, check_charref};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, program)) = data.split_first() else {
        return;
    };
    let s = charref_string(program);
    if let Err(e) = check_charref(&s, flags & 1 == 0) {
        panic!("{e}");
    }
});
