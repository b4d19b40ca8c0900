//! Adversarial inputs (`testkit::adversarial`): generated worst cases for
//! memory. For each, a `StreamTokenizer` fed a small and a big input (16
//! times larger) in 64 KiB chunks keeps `buffered_capacity()` and the heap
//! it allocates (counted per thread by the binary's allocator) within a
//! constant plus a small multiple of the largest single token, and for the
//! cases whose tokens are all small, within a constant independent of the
//! input size.
//!
//! Their time (16 times the input for at most 32 times the time, whole and
//! in 7-byte chunks) is checked by `benches/adversarial.rs`, away from
//! `cargo test`: a timing ratio on a shared machine is not a test result.
//! What is linear by counting operations (the duplicate-attribute index's
//! `operations_are_linear_in_the_names`) is tested in the library's unit
//! tests.
//!
//! Sizes: 1 MiB and 16 MiB, whatever the build: streaming them is cheap
//! next to the timing runs that used to share this test, and the bounds
//! are set for them (a tag of many distinct attributes peaks higher,
//! relative to its bytes, at 4 MiB, where its records' last doubling falls
//! differently). Sizes chosen by timing the machine made the test depend
//! on its load.

use testkit::adversarial::{tokenize_streamed, Streamed, CASES, CHUNK};

use crate::counting;

/// The small and the big input's sizes: 16 times the input.
const SIZES: (usize, usize) = (1 << 20, 16 << 20);

/// Serializes the cases, which the test harness runs on parallel threads.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn check_case(name: &str) {
    // One case at a time: each holds inputs of 16 MiB and more (and their
    // errors), and the harness runs the tests on parallel threads.
    let _exclusive = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let case = CASES.iter().find(|c| c.name == name).expect("case");
    let (small_n, big_n) = SIZES;
    let small = (case.generate)(small_n);
    let big = (case.generate)(big_n);

    // Memory: bounded by the chunk and the largest token.
    let mut streamed = (Streamed::default(), Streamed::default());
    let heap_small = counting::peak_during(|| streamed.0 = tokenize_streamed(&small));
    let heap_big = counting::peak_during(|| streamed.1 = tokenize_streamed(&big));
    let (capacity, largest) = (
        (streamed.0.max_capacity, streamed.1.max_capacity),
        (streamed.0.largest_token, streamed.1.largest_token),
    );
    eprintln!(
        "{name}: stream capacity {} / {} B, heap peak {heap_small} / {heap_big} B, largest token {} / {} B",
        capacity.0, capacity.1, largest.0, largest.1
    );
    // A constant per chunk, plus a small multiple of the largest token. Per
    // chunk: the window, the chunk, and the parse errors of one chunk taken
    // at once (up to about one per byte, ~50 bytes each). Per token byte: a
    // window that grows by doubling holds up to twice what it needs, and
    // attribute records and the duplicate-attribute index add per-attribute
    // overhead to a tag's bytes.
    // A tag of many short attributes costs more per byte than its bytes:
    // each kept attribute has a record (40 B; a vector that grows by
    // doubling) and 2-4 slots of 8 B in the duplicate index, for attributes
    // of ~8 input bytes, so the heap peaks at several times the input while
    // the records grow. Still linear in the input, so a larger multiple.
    let per_token_byte = if name == "distinct_attributes" { 12 } else { 8 };
    let allowed = 64 * CHUNK + per_token_byte * largest.1;
    for (what, got) in [("buffered_capacity", capacity.1), ("heap", heap_big)] {
        assert!(
            got <= allowed,
            "{name}: stream {what} {got} B for {} B of input (largest token {} B, allowed {allowed} B)",
            big.len(),
            largest.1
        );
    }
    if case.small_tokens {
        // Tokens are small: the stream must not hold more for a bigger input.
        assert!(
            largest.1 <= 64 && largest.0 <= 64,
            "{name}: largest token {}",
            largest.1
        );
        for (what, s, b) in [
            ("buffered_capacity", capacity.0, capacity.1),
            ("heap", heap_small, heap_big),
        ] {
            assert!(
                b <= 2 * s.max(4 * CHUNK),
                "{name}: stream {what} grew from {s} B to {b} B with the input ({} to {} B), though every token is small",
                small.len(),
                big.len()
            );
        }
    }
}

macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_case(stringify!($name));
            }
        )*

        /// Every case in `CASES` has a test above.
        #[test]
        fn every_case_is_tested() {
            let tested = [$(stringify!($name)),*];
            for case in CASES {
                assert!(tested.contains(&case.name), "no test for {}", case.name);
            }
        }
    };
}

cases!(
    distinct_attributes,
    duplicate_attributes,
    ampersands,
    amp_without_semicolon,
    amp_without_semicolon_in_attribute,
    long_almost_entity,
    almost_entities,
    comment_opens,
    tag_opens,
    end_tag_opens,
    unclosed_attribute_values,
    doctype_huge_identifiers,
    nul_everywhere,
    cr_everywhere,
    script_comment_script,
    huge_comment,
    comment_dashes_and_bangs,
    huge_attribute_value,
    svg_nesting,
    deep_foreign_end_tags,
    walled_foreign_end_tags,
);
