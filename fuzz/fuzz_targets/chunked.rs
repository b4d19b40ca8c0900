//! Chunk invariance: a `StreamTokenizer` fed the input split at arbitrary
//! points produces what the whole-document tokenizer produces: the same
//! tokens (adjacent text joined, joined span = first.start..last.end), the
//! same spans, and the same parse errors with their lines and columns.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use testkit::props::{check_chunked, split_points, Options, HEADER_LEN};

#[derive(Arbitrary, Debug)]
struct ChunkedInput<'a> {
    /// Decoded by `Options::decode`.
    options: [u8; HEADER_LEN],
    /// Split points, each modulo `data.len() + 1` (repeats feed empty chunks).
    splits: Vec<u16>,
    /// The input: the rest of the fuzzer's bytes.
    data: &'a [u8],
}

fuzz_target!(|input: ChunkedInput<'_>| {
    let (options, _) = Options::decode(&input.options);
    let splits = split_points(input.data.len(), &input.splits);
    if let Err(e) = check_chunked(input.data, &options, &splits) {
        panic!(
            "{e}\noptions: {options:?}\nsplits: {splits:?}\ninput: {:?}",
            String::from_utf8_lossy(input.data)
        );
    }
});
