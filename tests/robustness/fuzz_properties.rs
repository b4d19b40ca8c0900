//! The fuzz targets' properties (`fuzz/`, cargo-fuzz, nightly) as
//! deterministic proptest properties, so that `cargo test` on stable checks
//! them too. The checks themselves are the fuzz targets' own code,
//! `testkit::props`:
//!
//! - `tokenize`: any bytes with any options (errors on/off, standalone or
//!   driven, any of the 84 initial states, last start tag, CDATA allowed,
//!   processing instructions, scalar or SIMD scans): no panic, an Eof token,
//!   spans inside the input, output proportional to the input, and the
//!   callback API (`for_each_token`, stopped and resumed) giving exactly
//!   the tokens and errors of `next_token`;
//! - `chunked`: a stream fed the input split at arbitrary points gives
//!   exactly the whole-document tokens (adjacent text joined), spans and
//!   errors with their locations;
//! - `scalar_vs_simd`: the landmark kernels agree with their scalar
//!   definition, `Config::simd(false)` tokenizes like `simd(true)`, and
//!   the plain state machine (`Config::fast_paths(false)`) like both;
//! - `charref`: character references in text and attribute values decode
//!   as a direct transcription of the standard's states says.
//! - `tokenize`'s main-content part: on any page (markup biased towards
//!   what the extractor reads: sections, boilerplate names, links, lists,
//!   tables, comments), `main_content_with` never panics and its words are
//!   a subsequence, in order, of `text`'s.
//!
//! Inputs are byte strings biased towards markup: pieces of a dictionary of
//! the strings the tokenizer's states look for, mixed with random bytes.
//! The random seed is fixed, so runs are reproducible; set
//! `PROPTEST_CASES` to run more cases.

use htmltok::State;
use props::{Options, HEADER_LEN};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use testkit::props;

/// Fixed seed and no failure files: the same cases on every run.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x0068_746d_6c74_6f6b),
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..ProptestConfig::default()
    }
}

/// Strings the tokenizer's states look for (the fuzz dictionary's core).
const FRAGMENTS: &[&[u8]] = &[
    b"<",
    b">",
    b"</",
    b"/>",
    b"<!",
    b"<!--",
    b"-->",
    b"--!>",
    b"<!-->",
    b"-",
    b"--",
    b"<!DOCTYPE",
    b"<!doctype html>",
    b" PUBLIC ",
    b" SYSTEM ",
    b"\"",
    b"'",
    b"<![CDATA[",
    b"]]>",
    b"]",
    b"<?",
    b"?>",
    b"<?xml ",
    b"<script>",
    b"</script>",
    b"<!--<script>",
    b"</script >",
    b"<style>",
    b"</style>",
    b"<title>",
    b"</title>",
    b"<textarea>",
    b"</textarea>",
    b"<plaintext>",
    b"<xmp>",
    b"<noscript>",
    b"<svg>",
    b"</svg>",
    b"<math>",
    b"<foreignObject>",
    b"<mi>",
    b"<a href=",
    b" x=\"y\"",
    b" x='y'",
    b" x=y",
    b" x",
    b"=",
    b"`",
    b"&",
    b"&amp;",
    b"&amp",
    b"&lt",
    b"&notin;",
    b"&not",
    b"&#",
    b"&#x",
    b"&#x80;",
    b"&#0;",
    b"&#x110000;",
    b"&#xD800;",
    b";",
    b"\0",
    b"\r",
    b"\r\n",
    b"\n",
    b"\t",
    b"\x0c",
    b" ",
    b"a",
    b"A",
    b"p",
    b"\xef\xbf\xbf",
    b"\xc2\x80",
    b"\xff",
    b"\xe2\x82",
    b"\xc3\xa9",
];

/// Byte strings biased towards markup.
fn html_bytes(max_pieces: usize) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => prop::sample::select(FRAGMENTS).prop_map(|f| f.to_vec()),
        2 => prop::collection::vec(prop::sample::select(&b"abcxyzABC0123 -=/"[..]), 1..6),
        1 => prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop::collection::vec(piece, 0..max_pieces).prop_map(|pieces| pieces.concat())
}

/// Pieces of pages that steer encoding sniffing: declarations of every
/// form, byte order marks, non-ASCII bytes of several encodings, padding
/// that carries what follows past the prescan's 1024 bytes, and markup
/// that hides a declaration.
const ENCODING_PIECES: &[&[u8]] = &[
    b"<meta charset=koi8-r>",
    b"<meta charset='shift_jis'>",
    b"<meta http-equiv=Content-Type content='text/html; charset=euc-jp'>",
    b"<META CONTENT=\"text/html; charset=utf-16\">",
    b"<meta charset=iso-2022-kr>",
    b"<?xml version='1.0' encoding='gb18030'?>",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\xfe\xff",
    "é日本".as_bytes(),
    b"\xe9\xe8",
    b"\x82\xa0\x93\xfa",
    b"\x1b$B",
    b"<!--",
    b"-->",
    b"<script>",
    b"</script>",
    b"<p a='",
    b"<p>text",
    b"\0",
];

fn encoding_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => prop::sample::select(ENCODING_PIECES).prop_map(|f| f.to_vec()),
        3 => (1usize..1100).prop_map(|n| vec![b' '; n]),
        1 => prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop::collection::vec(piece, 0..10).prop_map(|pieces| pieces.concat())
}

/// Pieces of pages as the main-content extractor reads them: sections
/// that hold an article, boilerplate by name, class, id, role and hidden
/// attributes, comment sections, links, lists, tables, code, and text
/// (CJK included) of every length.
const PAGE_PIECES: &[&[u8]] = &[
    b"<article>",
    b"</article>",
    b"<main>",
    b"</main>",
    b"<div role=main>",
    b"<div itemprop=articleBody>",
    b"<div class=\"post-content entry\">",
    b"<div id=content>",
    b"<div class=comments>",
    b"<section id=comments>",
    b"<div class=comment>",
    b"<nav>",
    b"</nav>",
    b"<footer>",
    b"</footer>",
    b"<header>",
    b"<aside>",
    b"<div class=\"sidebar share\">",
    b"<div hidden>",
    b"<div style=\"display:none\">",
    b"<div aria-hidden=true>",
    b"<div role=navigation>",
    b"</div>",
    b"</section>",
    b"<div>",
    b"<p>",
    b"</p>",
    b"<br>",
    b"<h1>",
    b"</h1>",
    b"<h2>",
    b"<ul><li>",
    b"<li>",
    b"</li></ul>",
    b"<ol>",
    b"<table><tr><td>",
    b"<td>",
    b"<th>",
    b"</table>",
    b"<pre><code>",
    b"</code></pre>",
    b"<a href=/x>",
    b"<a href=\"https://example.com/a?b=1&amp;c\">",
    b"</a>",
    b"<b>",
    b"</b>",
    b"<span>",
    b"<img alt=picture>",
    b"<script>var a = '<p>not text</p>';</script>",
    b"<style>p{}</style>",
    b"<noscript>",
    b"<title>",
    b"</title>",
    b"<script type=application/ld+json>{\"articleBody\": \"From JSON-LD.\"}</script>",
    b"<template>",
    b"<!-- a comment -->",
    b"The quick brown fox jumps over the lazy dog. ",
    b"A sentence, with commas, and a full stop. ",
    "北京时间今天上午，新闻发布会在这里举行。".as_bytes(),
    "日本語の文章です。".as_bytes(),
    b"Home",
    b" | ",
    b"&nbsp;",
    b"&amp;",
    b"\xc2\xa0",
    b"\r\n",
    b"\n",
    b" ",
    b"\0",
    b"<",
    b">",
];

/// Pages biased towards what the main-content extractor reads, mixed with
/// the tokenizer's fragments and random bytes.
fn page_bytes(max_pieces: usize) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => prop::sample::select(PAGE_PIECES).prop_map(|f| f.to_vec()),
        2 => prop::sample::select(FRAGMENTS).prop_map(|f| f.to_vec()),
        2 => prop::collection::vec(prop::sample::select(&b"abcxyz AB.,"[..]), 1..12),
        1 => prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop::collection::vec(piece, 0..max_pieces).prop_map(|pieces| pieces.concat())
}

fn header() -> impl Strategy<Value = [u8; HEADER_LEN]> {
    any::<[u8; HEADER_LEN]>()
}

proptest! {
    #![proptest_config(config(2000))]

    /// Fuzz target `tokenize`, its main-content part.
    #[test]
    fn main_content_is_in_order_among_the_text(data in page_bytes(80)) {
        let page = String::from_utf8_lossy(&data);
        if let Err(e) = props::check_main_content(&page) {
            panic!("{e}");
        }
    }
}

proptest! {
    #![proptest_config(config(3000))]

    /// Fuzz target `tokenize`.
    #[test]
    fn tokenize_any_bytes_any_options(header in header(), data in html_bytes(48)) {
        let (options, _) = Options::decode(&header);
        if let Err(e) = props::check_tokenize(&data, &options) {
            prop_assert!(false, "{options:?}, input {:?}: {e}", String::from_utf8_lossy(&data));
        }
    }

    /// Fuzz target `tokenize`, plain random bytes.
    #[test]
    fn tokenize_random_bytes(header in header(), data in prop::collection::vec(any::<u8>(), 0..256)) {
        let (options, _) = Options::decode(&header);
        if let Err(e) = props::check_tokenize(&data, &options) {
            prop_assert!(false, "{options:?}, input {:?}: {e}", String::from_utf8_lossy(&data));
        }
    }
}

proptest! {
    #![proptest_config(config(1500))]

    /// Fuzz target `chunked`.
    #[test]
    fn stream_equals_whole_document(
        header in header(),
        data in html_bytes(40),
        raw_splits in prop::collection::vec(any::<u16>(), 0..12),
    ) {
        let (options, _) = Options::decode(&header);
        let splits = props::split_points(data.len(), &raw_splits);
        if let Err(e) = props::check_chunked(&data, &options, &splits) {
            prop_assert!(false, "{options:?}, splits {splits:?}, input {:?}: {e}", String::from_utf8_lossy(&data));
        }
    }

    /// Fuzz target `chunked`, one byte at a time (every resumption point).
    #[test]
    fn stream_one_byte_at_a_time_equals_whole_document(header in header(), data in html_bytes(24)) {
        let (options, _) = Options::decode(&header);
        let splits: Vec<usize> = (1..data.len()).collect();
        if let Err(e) = props::check_chunked(&data, &options, &splits) {
            prop_assert!(false, "{options:?}, input {:?}: {e}", String::from_utf8_lossy(&data));
        }
    }
}

proptest! {
    #![proptest_config(config(1500))]

    /// Fuzz target `encoding`.
    #[test]
    fn decoding_stream_equals_whole_decoded_text(
        transport in any::<u8>(),
        data in encoding_bytes(),
        raw_splits in prop::collection::vec(any::<u16>(), 0..12),
    ) {
        let sniffer = props::sniffer_for(transport);
        let splits = props::split_points(data.len(), &raw_splits);
        if let Err(e) = props::check_encoding(&data, sniffer, &splits) {
            prop_assert!(false, "{sniffer:?}, splits {splits:?}, input {:?}: {e}", String::from_utf8_lossy(&data));
        }
    }
}

proptest! {
    #![proptest_config(config(400))]

    /// Fuzz target `scalar_vs_simd`.
    #[test]
    fn simd_equals_scalar(header in header(), data in html_bytes(64)) {
        let (options, _) = Options::decode(&header);
        if let Err(e) = props::check_simd(&data, &options) {
            prop_assert!(false, "{options:?}, input {:?}: {e}", String::from_utf8_lossy(&data));
        }
    }

    /// Fuzz target `scalar_vs_simd`, long runs without landmarks, so that
    /// the kernels' block loops and tails are reached at every alignment.
    #[test]
    fn simd_equals_scalar_long_runs(
        header in header(),
        filler in prop::sample::select(&b"a \xc3x-"[..]),
        len in 0usize..300,
        marks in prop::collection::vec((0usize..300, prop::sample::select(&b"<>&\"'=\r\0-]?/ \t\n"[..])), 0..4),
    ) {
        let (options, _) = Options::decode(&header);
        let mut data = vec![filler; len];
        for (at, b) in marks {
            if at < len {
                data[at] = b;
            }
        }
        if let Err(e) = props::check_simd(&data, &options) {
            prop_assert!(false, "{options:?}, input {:?}: {e}", String::from_utf8_lossy(&data));
        }
    }
}

proptest! {
    #![proptest_config(config(3000))]

    /// Fuzz target `charref`.
    #[test]
    fn charrefs_match_the_reference(flags in any::<u8>(), program in prop::collection::vec(any::<u8>(), 0..48)) {
        let s = props::charref_string(&program);
        if let Err(e) = props::check_charref(&s, flags & 1 == 0) {
            prop_assert!(false, "{e}");
        }
    }
}

/// The reference implementation itself, against answers worked out by hand
/// from the standard (and html5lib-tests' `entities.test` /
/// `namedEntities.test`): a wrong reference would make the charref property
/// meaningless.
#[test]
fn reference_decoder_agrees_with_the_standard() {
    let text = [
        ("&amp;", "&"),
        ("&amp", "&"),
        ("&ampx", "&x"),
        ("&notin;", "\u{2209}"),
        ("&notit;", "\u{AC}it;"),
        ("&notin", "\u{AC}in"),
        ("&xyz;", "&xyz;"),
        ("&", "&"),
        ("&;", "&;"),
        ("&#", "&#"),
        ("&#x", "&#x"),
        ("&#X;", "&#X;"),
        ("&#65", "A"),
        ("&#65;x", "Ax"),
        ("&#x41;", "A"),
        ("&#0;", "\u{FFFD}"),
        ("&#x80;", "\u{20AC}"),
        ("&#x81;", "\u{81}"),
        ("&#x9F;", "\u{178}"),
        ("&#13;", "\r"),
        ("&#xD800;", "\u{FFFD}"),
        ("&#x110000;", "\u{FFFD}"),
        ("&#99999999999999999999;", "\u{FFFD}"),
        ("&#xFFFE;", "\u{FFFE}"),
        ("&CounterClockwiseContourIntegral;", "\u{2233}"),
        ("&nGt;", "\u{226B}\u{20D2}"),
        ("&AMP", "&"),
        ("&AMp;", "&AMp;"),
    ];
    for (input, want) in text {
        assert_eq!(
            props::reference_decode(input, false),
            want,
            "text {input:?}"
        );
    }
    let attribute = [
        ("&amp;", "&"),
        ("&amp", "&"),
        ("&ampx", "&ampx"),
        ("&amp=", "&amp="),
        ("&amp;=", "&="),
        ("&notit;", "&notit;"),
        ("&not-", "\u{AC}-"),
        ("&#65x", "Ax"),
        ("&lt=", "&lt="),
        ("&lt;=", "<="),
    ];
    for (input, want) in attribute {
        assert_eq!(
            props::reference_decode(input, true),
            want,
            "attribute {input:?}"
        );
    }
}

/// The reference scans only the names with the right first byte, which
/// relies on the table being sorted by name.
#[test]
fn entity_table_is_sorted() {
    let table = testkit::__fuzz::entity_table();
    assert!(table.len() > 2000);
    assert!(table
        .windows(2)
        .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes()));
}

/// `Options::encode` is the inverse of `Options::decode` (the seeds written
/// by `fuzz/seed.sh` rely on the header layout).
#[test]
fn option_header_round_trips() {
    for &state in State::ALL {
        for last_start_tag in
            std::iter::once(None).chain(props::LAST_START_TAGS.iter().map(|&n| Some(n)))
        {
            for bits in [0u8, 1, 2, 5, 10, 16, 32, 64, 127] {
                let options = Options {
                    errors: bits & 1 == 0,
                    driven: bits & 2 != 0,
                    cdata_allowed: bits & 4 != 0,
                    processing_instructions: bits & 8 != 0,
                    simd: bits & 16 == 0,
                    scripting: bits & 32 == 0,
                    join_text: bits & 64 != 0,
                    initial_state: state,
                    last_start_tag,
                };
                let header = options.encode();
                let (decoded, rest) = Options::decode(&header);
                assert!(rest.is_empty());
                if std::env::var_os("HTMLTOK_FUZZ_SKIP_STATES").is_none() {
                    assert_eq!(decoded, options);
                }
            }
        }
    }
    // The seed headers of fuzz/seed.sh.
    assert_eq!(Options::decode(&[0, 0, 0]).0, Options::default());
    let driven = Options::decode(&[3, 0, 0]).0;
    assert!(driven.driven && !driven.errors && driven.initial_state == State::Data);
}
