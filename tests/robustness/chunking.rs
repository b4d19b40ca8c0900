//! Chunk invariance: a [`StreamTokenizer`] fed any split of an input must
//! produce exactly what a whole-document [`Tokenizer`] produces for it:
//! the same tokens (adjacent text joined, since a stream may cut a text
//! run at a chunk boundary), the same spans (tags, tag names, attribute
//! names and values, text, comments, doctypes, processing instructions,
//! all as absolute offsets), and the same parse errors (code, span, line,
//! column, in order).
//!
//! Inputs:
//! - every html5lib-tests tokenizer input (`$HTML5LIB_TESTS`, default the
//!   repository's copy in `tests/html5lib-tests/tokenizer`), driven mode in
//!   each test's initial states with its last start tag, and standalone mode in
//!   the Data state; chunk sizes 1, 2, 3, 7, 64, 4096 and random splits;
//! - every page of the repository's `corpus/`, and of `$HTMLTOK_CORPUS`
//!   when it is set, standalone mode, errors on; chunk sizes
//!   3, 7, 64, 4096, 65536 and random splits (a few random points, random
//!   sizes below 300, random sizes below 100,000), and 1-byte chunks for
//!   pages under 200 KB only (a chunk has a fixed cost, which 1-byte
//!   chunks over the whole shared corpus would pay tens of millions of
//!   times);
//! - proptest properties over random and biased byte strings (markup
//!   fragments, character-reference fragments, CR/LF, NUL, invalid UTF-8
//!   and multi-byte characters cut by chunk boundaries) in driven Data,
//!   RCDATA, RAWTEXT, script data, PLAINTEXT and CDATA section states and in
//!   standalone mode (errors on and off, processing instructions on,
//!   resource limits and scalar scans, and `join_text` compared token by
//!   token); 600 cases each, `PROPTEST_CASES` to change. Proptest writes no
//!   regression files; a failure prints the shrunk input and split points.
//! - ignored by default (`-- --ignored`): the corpus again with resource
//!   limits and scalar scans.
//!
//! Whole-document runs of the corpus are computed once and shared by the
//! corpus tests; the corpus at chunks of 3 is the largest part of the
//! time.
//!
//! A missing data directory is a failure, never a silent pass.
//!
//! Failures print the case, the first difference and, for the first few,
//! a minimized input with its split points.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use testkit::{compare, data, record};

use htmltok::{Config, State};
use proptest::prelude::*;
use testkit::compare::show;
use testkit::drive::{check, check_with, streamed, whole, Errors};
use testkit::rng::{fixed_splits, random_sized, random_split_sets, XorShift};

/// How many failures to minimize per test (minimizing is slow on big pages).
const MINIMIZE: usize = 3;
/// How many failures to print in full.
const SHOW: usize = 20;

#[derive(Default)]
struct Report {
    runs: usize,
    /// Time spent per run kind (the whole-document runs under "whole").
    times: BTreeMap<String, Duration>,
    failures: Vec<String>,
    minimized: usize,
}

impl Report {
    fn finish(self, what: &str, started: Instant) {
        println!(
            "{what}: {} streamed runs compared, {} failures, {:.1?}",
            self.runs,
            self.failures.len(),
            started.elapsed()
        );
        for (kind, t) in &self.times {
            println!("  {kind:>24}: {t:.1?}");
        }
        if !self.failures.is_empty() {
            for f in self.failures.iter().take(SHOW) {
                eprintln!("{f}\n");
            }
            panic!(
                "{what}: {} of {} streamed runs differ from the whole-document run",
                self.failures.len(),
                self.runs
            );
        }
    }
}

/// A whole-document run (`None` when the tokenizer panicked).
type WholeRun = Option<(record::Output, Vec<String>)>;

fn whole_run(bytes: &[u8], config: &Config, errors: Errors) -> WholeRun {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        whole(bytes, config, errors)
    }))
    .ok()
}

/// Runs `bytes` whole once and streamed once per split set; records every
/// difference (minimizing the first few).
fn verify(
    label: &str,
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    split_sets: &[(String, Vec<usize>)],
    cached_whole: Option<&WholeRun>,
    report: &mut Report,
) {
    if split_sets.is_empty() {
        return;
    }
    let computed;
    let whole_run = match cached_whole {
        Some(run) => run,
        None => {
            let t = Instant::now();
            computed = whole_run(bytes, config, errors);
            *report.times.entry("whole".to_owned()).or_default() += t.elapsed();
            &computed
        }
    };
    let (w, wa) = match whole_run {
        Some(r) => r,
        None => {
            report.failures.push(format!(
                "{label}: whole-document tokenizer panicked on {:?}",
                show(bytes)
            ));
            return;
        }
    };
    if !wa.is_empty() {
        report
            .failures
            .push(format!("{label}: whole-document anomalies: {wa:?}"));
    }
    for (i, (name, splits)) in split_sets.iter().enumerate() {
        report.runs += 1;
        // Every other run takes the errors after each chunk.
        let take = i % 2 == 1;
        let t = Instant::now();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            streamed(bytes, config, errors, splits, take)
        }));
        *report.times.entry(name.clone()).or_default() += t.elapsed();
        let problem = match run {
            Err(_) => Some("streaming tokenizer panicked".to_owned()),
            Ok((_, sa)) if !sa.is_empty() => Some(format!("stream anomalies: {sa:?}")),
            Ok((s, _)) => record::diff(w, &s),
        };
        let Some(problem) = problem else { continue };
        let mut msg = format!("{label} [{name}, errors {errors:?}, take_errors {take}]: {problem}");
        if bytes.len() <= 300 {
            msg += &format!("\n  input: b\"{}\"\n  splits: {splits:?}", show(bytes));
        }
        if report.minimized < MINIMIZE {
            report.minimized += 1;
            let fails = |b: &[u8], s: &[usize]| check(b, config, errors, s, take).is_some();
            let (mb, ms) = compare::minimize(bytes, splits, &fails);
            let why = check(&mb, config, errors, &ms, take).unwrap_or_default();
            msg += &format!(
                "\n  MINIMIZED ({} bytes): b\"{}\" split at {ms:?}\n  config: {config:?}\n  {why}",
                mb.len(),
                show(&mb)
            );
        }
        report.failures.push(msg);
    }
}

// ---------------------------------------------------------------------------
// html5lib-tests inputs.

fn html5lib_split_sets(len: usize, rng: &mut XorShift) -> Vec<(String, Vec<usize>)> {
    let mut sets: Vec<(String, Vec<usize>)> = [1, 2, 3, 7, 64, 4096]
        .iter()
        .map(|&size| (format!("chunks of {size}"), fixed_splits(len, size)))
        .collect();
    for (i, s) in random_split_sets(len, rng).into_iter().enumerate() {
        sets.push((format!("random splits #{i}"), s));
    }
    sets
}

#[test]
fn html5lib_inputs_driven() {
    let started = Instant::now();
    let (cases, skipped) = data::html5lib_cases();
    let mut rng = XorShift::new(0x5EED_0001);
    let mut report = Report::default();
    for case in &cases {
        let bytes = case.input.as_bytes();
        for &state in &case.states {
            let config = case.driven_config(state);
            let sets = html5lib_split_sets(bytes.len(), &mut rng);
            let label = format!("{} [{state:?}, driven]", case.label);
            verify(&label, bytes, &config, Errors::On, &sets, None, &mut report);
        }
    }
    println!(
        "html5lib (driven): {} inputs, {skipped} skipped (lone surrogates)",
        cases.len()
    );
    report.finish("html5lib inputs, driven", started);
}

#[test]
fn html5lib_inputs_standalone() {
    let started = Instant::now();
    let (cases, skipped) = data::html5lib_cases();
    let mut rng = XorShift::new(0x5EED_0002);
    let mut report = Report::default();
    for case in &cases {
        let bytes = case.input.as_bytes();
        let sets = html5lib_split_sets(bytes.len(), &mut rng);
        let label = format!("{} [Data, standalone]", case.label);
        verify(
            &label,
            bytes,
            &Config::new(),
            Errors::On,
            &sets,
            None,
            &mut report,
        );
    }
    println!(
        "html5lib (standalone): {} inputs, {skipped} skipped (lone surrogates)",
        cases.len()
    );
    report.finish("html5lib inputs, standalone", started);
}

// ---------------------------------------------------------------------------
// The corpus.

/// 1-byte chunks only for pages under this size (time in debug builds).
const ONE_BYTE_LIMIT: usize = 200 * 1024;

/// The corpus pages with their whole-document runs (standalone, errors
/// on), computed once for all the corpus tests.
fn corpus_with_whole_runs() -> &'static [(String, Vec<u8>, WholeRun)] {
    static PAGES: std::sync::OnceLock<Vec<(String, Vec<u8>, WholeRun)>> =
        std::sync::OnceLock::new();
    PAGES.get_or_init(|| {
        let started = Instant::now();
        let pages: Vec<_> = data::corpus_pages()
            .into_iter()
            .map(|(name, bytes)| {
                let run = whole_run(&bytes, &Config::new(), Errors::On);
                (name, bytes, run)
            })
            .collect();
        println!(
            "corpus: {} pages tokenized whole in {:.1?}",
            pages.len(),
            started.elapsed()
        );
        pages
    })
}

fn corpus_run(
    what: &str,
    seed: u64,
    sets_for: impl Fn(&[u8], &mut XorShift) -> Vec<(String, Vec<usize>)>,
) {
    let started = Instant::now();
    let pages = corpus_with_whole_runs();
    let mut rng = XorShift::new(seed);
    let mut report = Report::default();
    let mut bytes_total = 0;
    for (name, bytes, run) in pages {
        let sets = sets_for(bytes, &mut rng);
        bytes_total += bytes.len() * sets.len();
        verify(
            name,
            bytes,
            &Config::new(),
            Errors::On,
            &sets,
            Some(run),
            &mut report,
        );
    }
    println!(
        "corpus, {what}: {} pages, {bytes_total} bytes streamed",
        pages.len()
    );
    report.finish(&format!("corpus, {what}"), started);
}

/// 1-byte chunks, only for pages under 200 KB: over the whole corpus they
/// would take minutes in a debug build (a chunk has a fixed cost).
#[test]
fn corpus_chunks_of_1_for_pages_under_200kb() {
    corpus_run(
        "chunks of 1 (pages < 200 KB only)",
        0x5EED_0003,
        |bytes, _| {
            if bytes.len() < ONE_BYTE_LIMIT {
                vec![("chunks of 1".to_owned(), fixed_splits(bytes.len(), 1))]
            } else {
                Vec::new()
            }
        },
    );
}

#[test]
fn corpus_chunks_of_3() {
    corpus_run("chunks of 3", 0x5EED_0005, |bytes, _| {
        vec![("chunks of 3".to_owned(), fixed_splits(bytes.len(), 3))]
    });
}

#[test]
fn corpus_chunks_of_7() {
    corpus_run("chunks of 7", 0x5EED_0006, |bytes, _| {
        vec![("chunks of 7".to_owned(), fixed_splits(bytes.len(), 7))]
    });
}

#[test]
fn corpus_large_and_random_chunks() {
    corpus_run(
        "chunks of 64, 4096, 65536 and random",
        0x5EED_0004,
        |bytes, rng| {
            let len = bytes.len();
            let mut sets: Vec<(String, Vec<usize>)> = [64, 4096, 65536]
                .iter()
                .map(|&size| (format!("chunks of {size}"), fixed_splits(len, size)))
                .collect();
            let k = 1 + rng.below(8);
            let mut points: Vec<usize> = (0..k).map(|_| rng.below(len + 1)).collect();
            points.sort_unstable();
            sets.push(("random points".to_owned(), points));
            sets.push(("random sizes < 300".to_owned(), random_sized(len, 300, rng)));
            sets.push((
                "random sizes < 100000".to_owned(),
                random_sized(len, 100_000, rng),
            ));
            sets
        },
    );
}

// ---------------------------------------------------------------------------
// Properties over random bytes.

/// Small pieces that tokenizer states care about.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    const SINGLE: &[u8] = b"<&-!/?'\"=]>\r\n\0 \t;#xX`";
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const PIECES: &[&str] = &[
        "#x",
        "#X",
        "#",
        "&#",
        "&#x",
        "&#X",
        "&#0;",
        "&#x110000;",
        "&#128;",
        "&#xD800;",
        "amp",
        "amp;",
        "&amp",
        "&amp;",
        "notin",
        "notin;",
        "&notit;",
        "&not",
        "lt",
        "&lt",
        "gt;",
        "AMP",
        "&AMP;",
        "&AElig",
        "&nbsp",
        "&zwj;",
        "script",
        "SCRIPT",
        "/script",
        "</script>",
        "</script",
        "<script>",
        "title",
        "</title>",
        "style",
        "</style>",
        "textarea",
        "</textarea>",
        "plaintext",
        "xmp",
        "iframe",
        "noscript",
        "noembed",
        "noframes",
        "svg",
        "math",
        "<!--",
        "-->",
        "--!>",
        "--",
        "<!-",
        "<!",
        "<![CDATA[",
        "]]>",
        "]]",
        "<!DOCTYPE",
        "<!doctype html>",
        "DOCTYPE",
        "PUBLIC",
        "SYSTEM",
        " \"x\"",
        "<?",
        "?>",
        "<?xml",
        "<?php",
        "<a",
        "<a ",
        "</a>",
        "<p id=",
        " href='",
        "=\"",
        "/>",
        "\r\n",
        "\r\r\n",
        "é",
        "€",
        "😀",
        "\u{FFFD}",
        "\u{FDD0}",
        "\u{FFFF}",
        "\u{1}",
        "\u{7F}",
        "\u{80}",
        "\u{9F}",
        "\u{10FFFF}",
    ];
    const BAD_UTF8: &[&[u8]] = &[
        &[0x80],
        &[0xBF],
        &[0xC3],
        &[0xE2, 0x82],
        &[0xF0, 0x9F, 0x98],
        &[0xFF],
        &[0xFE],
        &[0xED, 0xA0, 0x80],
        &[0xC0, 0x80],
        &[0xC1, 0xBF],
        &[0xF4, 0x90, 0x80, 0x80],
        &[0xF5],
        &[0xE0, 0x80, 0x80],
        &[0xF0, 0x80],
    ];
    prop_oneof![
        5 => prop::sample::select(SINGLE).prop_map(|b| vec![b]),
        3 => prop::sample::select(LETTERS).prop_map(|b| vec![b]),
        4 => prop::sample::select(PIECES).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::sample::select(BAD_UTF8).prop_map(|b| b.to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ]
}

/// Input bytes: mostly biased fragments, sometimes uniformly random bytes.
fn input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(fragment(), 0..80).prop_map(|f| f.concat()),
        1 => prop::collection::vec(any::<u8>(), 0..200),
    ]
}

#[derive(Clone, Debug)]
enum Splits {
    /// Points anywhere (possibly repeated: empty chunks).
    Points(Vec<prop::sample::Index>),
    /// Fixed-size chunks.
    Size(usize),
}

fn splits() -> impl Strategy<Value = Splits> {
    prop_oneof![
        3 => prop::collection::vec(any::<prop::sample::Index>(), 0..16).prop_map(Splits::Points),
        1 => (1usize..9).prop_map(Splits::Size),
    ]
}

fn split_points(len: usize, splits: &Splits) -> Vec<usize> {
    match splits {
        Splits::Points(ix) => {
            let mut v: Vec<usize> = ix.iter().map(|i| i.index(len + 1)).collect();
            v.sort_unstable();
            v
        }
        Splits::Size(size) => fixed_splits(len, *size),
    }
}

fn proptest_config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    ProptestConfig {
        cases,
        // Keep proptest from writing regression files into the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The property: whole == streamed, with a readable failure.
fn property(
    bytes: &[u8],
    splits: &Splits,
    config: &Config,
    errors: Errors,
    take: bool,
) -> Result<(), TestCaseError> {
    let points = split_points(bytes.len(), splits);
    match check(bytes, config, errors, &points, take) {
        None => Ok(()),
        Some(why) => Err(TestCaseError::fail(format!(
            "input b\"{}\" split at {points:?}, {config:?}, errors {errors:?}: {why}",
            show(bytes)
        ))),
    }
}

fn driven(state: State, last_start_tag: Option<&str>) -> Config {
    let config = Config::new()
        .driven(true)
        .initial_state(state)
        .cdata_allowed(state == State::CdataSection);
    match last_start_tag {
        Some(tag) => config.last_start_tag(tag),
        None => config,
    }
}

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn prop_driven_data(bytes in input(), splits in splits(), cdata in any::<bool>(), simd in any::<bool>(), take in any::<bool>()) {
        let config = driven(State::Data, None).cdata_allowed(cdata).simd(simd);
        property(&bytes, &splits, &config, Errors::On, take)?;
    }

    #[test]
    fn prop_standalone(bytes in input(), splits in splits(), scripting in any::<bool>(), take in any::<bool>()) {
        property(&bytes, &splits, &Config::new().scripting(scripting), Errors::On, take)?;
    }

    #[test]
    fn prop_standalone_errors_off(bytes in input(), splits in splits()) {
        property(&bytes, &splits, &Config::new(), Errors::Off, false)?;
    }

    #[test]
    fn prop_standalone_processing_instructions(bytes in input(), splits in splits(), take in any::<bool>()) {
        property(&bytes, &splits, &Config::new().processing_instructions(true), Errors::On, take)?;
    }

    /// Resource limits (attributes dropped, long strings cut) and the
    /// scalar scans must not depend on where chunks end either.
    #[test]
    fn prop_standalone_limits_and_scalar_scans(
        bytes in input(),
        splits in splits(),
        max_attributes in prop::option::of(0usize..4),
        max_token_len in prop::option::of(0usize..24),
        simd in any::<bool>(),
        take in any::<bool>(),
    ) {
        let mut config = Config::new().simd(simd);
        if let Some(n) = max_attributes {
            config = config.max_attributes(n);
        }
        if let Some(n) = max_token_len {
            config = config.max_token_len(n);
        }
        property(&bytes, &splits, &config, Errors::On, take)?;
    }

    /// With `join_text` a stream must not cut text runs: compared token by
    /// token, without joining.
    #[test]
    fn prop_standalone_join_text_unjoined(bytes in input(), splits in splits()) {
        let points = split_points(bytes.len(), &splits);
        let config = Config::new().join_text(true);
        if let Some(why) = check_with(&bytes, &config, Errors::On, &points, false, false) {
            return Err(TestCaseError::fail(format!("input b\"{}\" split at {points:?}, join_text: {why}", show(&bytes))));
        }
    }

    #[test]
    fn prop_driven_rcdata(bytes in input(), splits in splits(), tag in prop::sample::select(&["title", "textarea"][..]), take in any::<bool>()) {
        property(&bytes, &splits, &driven(State::Rcdata, Some(tag)), Errors::On, take)?;
    }

    #[test]
    fn prop_driven_rawtext(bytes in input(), splits in splits(), tag in prop::sample::select(&["style", "xmp", "iframe"][..]), take in any::<bool>()) {
        property(&bytes, &splits, &driven(State::Rawtext, Some(tag)), Errors::On, take)?;
    }

    #[test]
    fn prop_driven_script_data(bytes in input(), splits in splits(), take in any::<bool>()) {
        property(&bytes, &splits, &driven(State::ScriptData, Some("script")), Errors::On, take)?;
    }

    #[test]
    fn prop_driven_plaintext(bytes in input(), splits in splits(), take in any::<bool>()) {
        property(&bytes, &splits, &driven(State::Plaintext, None), Errors::On, take)?;
    }

    #[test]
    fn prop_driven_cdata(bytes in input(), splits in splits(), take in any::<bool>()) {
        property(&bytes, &splits, &driven(State::CdataSection, None), Errors::On, take)?;
    }
}

/// Tokens longer than the stretch a stream keeps borrowed (256 KiB) are
/// copied out of its window while in progress, and the window then drops
/// the bytes they started in: their spans (and those of their attributes
/// and errors) still come out exactly as from the whole document. Errors
/// are placed before, inside and after the long stretches; chunks of
/// several sizes, errors on and off, fast paths on and off. A tag of many
/// attributes is detached several times while in progress (only the
/// attributes since the last detaching borrow from the window).
#[test]
fn huge_tokens_detached_from_the_window_keep_their_spans() {
    let long = |unit: &str, bytes: usize| unit.repeat(bytes / unit.len());
    let value = long("v&amp;\u{e9}x", 600_000);
    let inputs: Vec<(&str, String)> = vec![
        (
            "tag with a long value between attributes",
            format!("<p>x\u{1}</p>\r\n<div a=1 id=\"{value}\0\" B=2 a=3 c='&lt\u{7f}'>t</div>"),
        ),
        (
            "long unquoted value, then errors",
            format!("<a href={value}\u{1} x=\"1\"y x>z"),
        ),
        (
            "long attribute name",
            format!("<b {}=1 x\0y=2>", long("nAmE", 400_000)),
        ),
        (
            "long comment",
            format!("<!--a\u{1}{}--!>after\u{fdd0}", long("c-\r\n", 700_000)),
        ),
        (
            "long doctype identifiers",
            format!(
                "<!DOCTYPE html PUBLIC \"{}\" '{}'\u{1}><p>",
                long("p\0", 300_000),
                long("s", 300_000)
            ),
        ),
        (
            // Detached several times while in progress: verbatim and
            // rewritten attributes (names and values), empty values and
            // duplicates, before and after each detaching.
            "tag of many attributes",
            format!(
                "<div{}>x",
                (0..20_000)
                    .map(|i| format!(" a{i}=v{i} B{i}=\"x&amp;{i}\" c{i} a{i}=dup d{i}='\r\n'"))
                    .collect::<String>()
            ),
        ),
        (
            "long end tag name and text",
            format!("{}</{}\u{1}>", long("t\r", 500_000), long("e", 300_000)),
        ),
    ];
    let mut failures = Vec::new();
    let mut runs = 0;
    for (what, input) in &inputs {
        let bytes = input.as_bytes();
        for config in [Config::new(), Config::new().fast_paths(false)] {
            for errors in [Errors::On, Errors::Off] {
                for size in [4096, 65536, 100_003] {
                    runs += 1;
                    let splits = fixed_splits(bytes.len(), size);
                    if let Some(why) = check(bytes, &config, errors, &splits, true) {
                        failures.push(format!("{what}, chunks of {size}, {errors:?}: {why}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The comparison is not vacuous: without joining, a text run cut by a
/// chunk boundary shows up as a difference, and spans are compared.
#[test]
fn harness_sees_differences() {
    let config = Config::new();
    assert!(check_with(b"hello world", &config, Errors::On, &[3], false, false).is_some());
    assert!(check(b"hello world", &config, Errors::On, &[3], false).is_none());
    let (a, _) = whole(b"<p id=x>", &config, Errors::On);
    let (b, _) = whole(b"<p  id=x>", &config, Errors::On);
    let (c, _) = whole(b"<p id=y>", &config, Errors::On);
    assert!(record::diff(&a, &b).is_some(), "spans must be compared");
    assert!(record::diff(&a, &c).is_some(), "values must be compared");
    let (d, _) = whole(b"<p id=x id=x>", &config, Errors::On);
    let (e, _) = whole(b"<p id=x  id=x>", &config, Errors::On);
    assert_eq!(d.errors.len(), 1);
    assert!(
        record::diff(&d, &e).is_some(),
        "error spans must be compared"
    );
}

/// The minimizer finds a small case for a synthetic failure.
#[test]
fn harness_minimizer_shrinks() {
    let input = b"<html><body><p class=x>hello <a href=y>world</a></p></body></html>".repeat(20);
    let splits: Vec<usize> = (1..input.len()).step_by(5).collect();
    // "Fails" when `<a` is present and some chunk boundary falls right after it.
    let fails = |b: &[u8], s: &[usize]| {
        s.iter()
            .any(|&p| p >= 2 && p <= b.len() && &b[p - 2..p] == b"<a")
    };
    let (b, s) = compare::minimize(&input, &splits, &fails);
    assert_eq!((b.as_slice(), s.as_slice()), (&b"<a"[..], &[2][..]));
}

/// Extended (run with `--ignored`; about a minute in a debug build): the
/// corpus with resource limits (attributes dropped, long strings cut) and
/// with the scalar scans, in random chunks.
#[test]
#[ignore = "extended run: cargo test --test chunking -- --ignored"]
fn corpus_with_limits_and_scalar_scans_extended() {
    let started = Instant::now();
    let pages = data::corpus_pages();
    let mut rng = XorShift::new(0x5EED_0007);
    let mut report = Report::default();
    let configs = [
        Config::new().max_token_len(40).max_attributes(3),
        Config::new().max_token_len(1).max_attributes(0).simd(false),
        Config::new().simd(false),
    ];
    for (name, bytes) in &pages {
        for config in &configs {
            let sets = vec![
                (
                    "random sizes < 16".to_owned(),
                    random_sized(bytes.len(), 16, &mut rng),
                ),
                ("chunks of 4096".to_owned(), fixed_splits(bytes.len(), 4096)),
            ];
            verify(name, bytes, config, Errors::On, &sets, None, &mut report);
        }
    }
    report.finish("corpus with limits / scalar scans", started);
}
