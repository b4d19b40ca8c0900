//! Encodings: any bytes, sniffed (with or without a transport charset) and
//! decoded, never panic, and a decoding stream split at arbitrary points
//! gives the whole decoded text's tokens and errors, having decided the
//! same encoding.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use testkit::props::{check_encoding, sniffer_for, split_points};

#[derive(Arbitrary, Debug)]
struct EncodingInput<'a> {
    /// The transport charset, by `sniffer_for`.
    transport: u8,
    /// Split points, each modulo `data.len() + 1` (repeats feed empty chunks).
    splits: Vec<u16>,
    /// The input: the rest of the fuzzer's bytes.
    data: &'a [u8],
}

fuzz_target!(|input: EncodingInput<'_>| {
    let sniffer = sniffer_for(input.transport);
    let splits = split_points(input.data.len(), &input.splits);
    if let Err(e) = check_encoding(input.data, sniffer, &splits) {
        panic!(
            "{e}\nsniffer: {sniffer:?}\nsplits: {splits:?}\ninput: {:?}",
            String::from_utf8_lossy(input.data)
        );
    }
});
