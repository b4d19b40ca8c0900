//! Adversarial inputs: the generated worst cases of `testkit::adversarial`
//! (whose memory bounds `tests/robustness/adversarial.rs` tests), timed.
//!
//! ```text
//! cargo bench --bench adversarial                 # criterion, then the tables
//! cargo bench --bench adversarial -- huge_comment # one case
//! HTMLTOK_ADVERSARIAL_SUMMARY=only cargo bench --bench adversarial   # the tables alone
//! ```
//!
//! 1. Criterion: throughput per case at 1 MiB and 16 MiB, whole-document
//!    API, parse errors off (as `htmltok bench` measures real pages).
//! 2. A summary table: MB/s (10^6 bytes, as `htmltok bench`) of every case
//!    at both sizes (best of 3 runs, cold caches), the 16 MiB / 1 MiB time
//!    ratio, and the slowest case against the median page speed of the
//!    real-world corpus (`$HTMLTOK_CORPUS`, default the repository's
//!    `corpus/`).
//! 3. The linearity check, which fails the run (exit status 1): 16 times
//!    the input must take at most [`MAX_RATIO`] times the time (16 is
//!    linear, a quadratic step gives 256), whole with parse errors on (the
//!    worst case) and streamed in 7-byte chunks (a machine that rescanned
//!    the token it stopped in at every chunk would be quadratic in the
//!    token's length); [`max_ratio`] gives the cases bound by memory speed
//!    more room. It lives here, not in `cargo test`, because a ratio of
//!    times on a shared machine is a measurement, not a test result.
//!
//! The main-content extractor's cases (`MAIN_CONTENT_CASES`: 100,000
//! nested `div`s, 1,000,000 links, one 5 MB paragraph, a real page repeated
//! to 10 MB, 100,000 nested lists) go through the same three steps, each at
//! its big size and a tenth of it: `main_content_with` on the page as a
//! `&str`, plain text (and Markdown in the linearity check), held to the
//! same bound (the time ratio scaled to 16 times the input, at most
//! [`MAX_RATIO`]: ten times the page for at most twenty times the time).
//!
//! `HTMLTOK_ADVERSARIAL_SUMMARY=0` skips 2 and 3, `=only` skips 1.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode, Throughput};
use htmltok::extract::{main_content_with, MainOptions};
use testkit::adversarial::{
    tokenize_in_small_chunks, tokenize_whole, MainContentCase, CASES, MAIN_CONTENT_CASES,
};
use testkit::data;

const SIZES: [(usize, &str); 2] = [(1 << 20, "1MiB"), (16 << 20, "16MiB")];

fn bench_cases(c: &mut Criterion) {
    for case in CASES {
        let mut group = c.benchmark_group(case.name);
        group.sample_size(10);
        // Every iteration takes milliseconds to seconds.
        group.sampling_mode(SamplingMode::Flat);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for (n, label) in SIZES {
            let input = (case.generate)(n);
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(label), &input, |b, input| {
                b.iter(|| tokenize_whole(input, false))
            });
        }
        group.finish();
    }
    for case in MAIN_CONTENT_CASES {
        let mut group = c.benchmark_group(case.name);
        group.sample_size(10);
        group.sampling_mode(SamplingMode::Flat);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        let (small, big) = main_inputs(case);
        for (input, label) in [(small, "small"), (big, "big")] {
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(label), &input, |b, input| {
                b.iter(|| main_content(input, false))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_cases);

/// A main-content case's small page (a tenth of the big one) and big page.
fn main_inputs(case: &MainContentCase) -> (Vec<u8>, Vec<u8>) {
    ((case.generate)(case.big / 10), (case.generate)(case.big))
}

/// The main content of `page` (generated, so UTF-8), as plain text or
/// Markdown; its length.
fn main_content(page: &[u8], markdown: bool) -> usize {
    let html = std::str::from_utf8(page).expect("the generated pages are UTF-8");
    main_content_with(html, MainOptions::new().markdown(markdown))
        .text
        .len()
}

/// How long `f` takes (wall time: the bench runs alone on its thread).
fn measure(f: impl FnOnce()) -> Duration {
    let started = Instant::now();
    f();
    started.elapsed()
}

/// Writes and reads a buffer larger than any cache, so that the next run
/// starts without its input (or the previous run's memory) in the cache.
fn evict_caches() {
    static BUFFER: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());
    let mut buffer = BUFFER.lock().unwrap_or_else(|e| e.into_inner());
    buffer.resize(64 << 20, 0);
    for (i, b) in buffer.iter_mut().enumerate().step_by(64) {
        *b = b.wrapping_add(i as u8);
    }
    std::hint::black_box(&*buffer);
}

/// Best of `runs` timings of tokenizing `input`, in MB/s (10^6 bytes),
/// each run starting with cold caches when `cold` (a 1 MiB input that
/// stays in the cache from run to run is not comparable with a 16 MiB
/// one).
fn mb_per_s(input: &[u8], runs: usize, cold: bool) -> f64 {
    let best = (0..runs)
        .map(|_| {
            if cold {
                evict_caches();
            }
            measure(|| {
                std::hint::black_box(tokenize_whole(input, false));
            })
        })
        .min()
        .unwrap_or_default();
    input.len() as f64 / best.as_secs_f64().max(1e-9) / 1e6
}

fn corpus_dir() -> PathBuf {
    data::extra_corpus_dir().unwrap_or_else(data::repo_corpus_dir)
}

/// Median over the corpus pages of each page's MB/s (best of 3), if the
/// corpus is there.
fn corpus_median_page_speed() -> Option<(f64, usize)> {
    let mut speeds: Vec<f64> = testkit::files::html_pages(&corpus_dir())
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|page| mb_per_s(&page, 3, false))
        .collect();
    if speeds.is_empty() {
        return None;
    }
    speeds.sort_by(f64::total_cmp);
    Some((speeds[speeds.len() / 2], speeds.len()))
}

fn selected(name: &str, filters: &[String]) -> bool {
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

fn summary(filters: &[String]) {
    println!();
    println!("adversarial inputs, whole document, errors off: MB/s (best of 3, cold caches)");
    println!(
        "{:<36} {:>10} {:>10} {:>12}",
        "case", "1 MiB", "16 MiB", "time 16/1"
    );
    let mut slowest = (f64::INFINITY, "");
    for case in CASES.iter().filter(|c| selected(c.name, filters)) {
        let small = (case.generate)(SIZES[0].0);
        let big = (case.generate)(SIZES[1].0);
        let (s, b) = (mb_per_s(&small, 3, true), mb_per_s(&big, 3, true));
        // Time ratio for 16 times the input: 16 is linear.
        let ratio = (big.len() as f64 / b) / (small.len() as f64 / s)
            * (16.0 * small.len() as f64 / big.len() as f64);
        println!("{:<36} {:>10.1} {:>10.1} {:>11.1}x", case.name, s, b, ratio);
        for speed in [s, b] {
            if speed < slowest.0 {
                slowest = (speed, case.name);
            }
        }
    }
    // The tokenizer's cases may all be filtered out (`-- main_`).
    if slowest.0.is_finite() {
        slowest_against_corpus(slowest);
    }
    main_content_summary(filters);
}

/// The slowest tokenizer case against the corpus's median page speed.
fn slowest_against_corpus(slowest: (f64, &str)) {
    match corpus_median_page_speed() {
        Some((median, pages)) => println!(
            "slowest case {} at {:.1} MB/s = {:.2}x the median page speed of {} corpus pages ({:.1} MB/s)",
            slowest.1,
            slowest.0,
            slowest.0 / median,
            pages,
            median
        ),
        None => println!(
            "slowest case {} at {:.1} MB/s (no corpus at {} for the real-world reference)",
            slowest.1,
            slowest.0,
            corpus_dir().display()
        ),
    }
}

/// The main-content cases: MB/s of the small and big page, and the ratio
/// of their times.
fn main_content_summary(filters: &[String]) {
    let main_cases: Vec<_> = MAIN_CONTENT_CASES
        .iter()
        .filter(|c| selected(c.name, filters))
        .collect();
    if !main_cases.is_empty() {
        println!();
        println!("main content, plain text: MB/s (best of 3, cold caches)");
        println!(
            "{:<36} {:>10} {:>10} {:>10} {:>12}",
            "case", "big MB", "small", "big", "time big/small"
        );
    }
    for case in main_cases {
        let (small, big) = main_inputs(case);
        let speed = |input: &[u8]| {
            let best = (0..3)
                .map(|_| {
                    evict_caches();
                    measure(|| {
                        std::hint::black_box(main_content(input, false));
                    })
                })
                .min()
                .unwrap_or_default();
            input.len() as f64 / best.as_secs_f64().max(1e-9) / 1e6
        };
        let (s, b) = (speed(&small), speed(&big));
        let ratio = (big.len() as f64 / b) / (small.len() as f64 / s);
        println!(
            "{:<36} {:>10.1} {:>10.1} {:>10.1} {:>13.1}x",
            case.name,
            big.len() as f64 / 1e6,
            s,
            b,
            ratio
        );
    }
}

/// The time limit for 16 times the input: x16 is linear, x256 quadratic.
/// A quadratic term that costs a tenth of the small case's time already
/// makes x40, so x32 catches any that matters while leaving room for what
/// a shared machine does to the big case's memory traffic.
const MAX_RATIO: f64 = 32.0;

/// The limit for one case: [`MAX_RATIO`], or x48 for the cases whose big
/// input is read at memory speed where the small one is read from cache,
/// so that the ratio is the two speeds' ratio times 16 (a quadratic step
/// still gives x256):
///
/// - one tag of millions of distinct attributes: its operations are linear
///   (the duplicate index's unit test `operations_are_linear_in_the_names`
///   counts them), but at 16 MiB the index no longer fits any cache or
///   TLB, so each attribute costs a memory miss the small case avoids;
/// - the cases that are one token as long as the input (`ampersands`,
///   `long_almost_entity`, `end_tag_opens`, `tag_opens`,
///   `unclosed_attribute_values`, `huge_comment`, `huge_attribute_value`,
///   `doctype_huge_identifiers`): with errors on, the token's bytes are
///   read twice (the landmark scan and the input-stream check, which runs
///   ahead to its next suspect byte), the second time from cache for the
///   small input only.
///
/// `duplicate_attributes` and `comment_opens` are memory-bound too but
/// within [`MAX_RATIO`]: one token with an error every four bytes, whose
/// errors cannot be taken before the token is out, so the big case builds
/// a list of errors sixteen times as long.
fn max_ratio(name: &str) -> f64 {
    match name {
        "distinct_attributes"
        | "ampersands"
        | "long_almost_entity"
        | "end_tag_opens"
        | "tag_opens"
        | "unclosed_attribute_values"
        | "huge_comment"
        | "huge_attribute_value"
        | "doctype_huge_identifiers" => 48.0,
        _ => MAX_RATIO,
    }
}

/// The time ratio of `run` over `big` and `small` (normalised to a big
/// input exactly 16 times the small), and whether it is within `limit`.
///
/// Every run starts with cold caches, so that a small input that would stay
/// in the cache from run to run is not compared with a big one that
/// cannot. An attempt times the small input (best of three) and then the
/// big one (best of two), back to back, so both see the same machine; up
/// to five attempts are made while the ratio is over the limit, and the
/// best ratio counts: a busy machine can spoil some attempts, but a
/// superlinear step spoils them all.
fn linear(
    name: &str,
    how: &str,
    limit: f64,
    small: &[u8],
    big: &[u8],
    run: impl Fn(&[u8]),
) -> bool {
    let size_ratio = big.len() as f64 / small.len() as f64;
    let timed = |input: &[u8]| {
        evict_caches();
        measure(|| run(input))
    };
    let mut attempts: Vec<(Duration, Duration, f64)> = Vec::new();
    for _attempt in 0..5 {
        let t_small = (0..3).map(|_| timed(small)).min().unwrap_or_default();
        let t_big = (0..2).map(|_| timed(big)).min().unwrap_or_default();
        let ratio = t_big.as_secs_f64() / t_small.as_secs_f64().max(1e-6) * (16.0 / size_ratio);
        attempts.push((t_small, t_big, ratio));
        if ratio <= limit {
            break;
        }
    }
    let &(t_small, t_big, ratio) = attempts
        .iter()
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .expect("one attempt");
    let ratios: Vec<f64> = attempts.iter().map(|a| a.2).collect();
    let verdict = if ratio <= limit { "ok" } else { "NOT LINEAR" };
    println!(
        "{name:<36} {how:<14} {:>9} B in {t_small:>12.3?}, {:>9} B in {t_big:>12.3?}: x{ratio:.1} (limit x{limit}, attempts {ratios:.1?}) {verdict}",
        small.len(),
        big.len(),
    );
    ratio <= limit
}

/// Holds every selected case to its limit, whole and in 7-byte chunks (at
/// half the sizes: a chunk costs a call and a resume); the cases that fail.
fn linearity(filters: &[String]) -> Vec<String> {
    println!();
    println!("linearity: 16 times the input, errors on, at most the limit times the time");
    println!("(main content: 10 times the page, the time ratio scaled to 16 times the page)");
    let mut failed = Vec::new();
    for case in CASES.iter().filter(|c| selected(c.name, filters)) {
        let limit = max_ratio(case.name);
        let (small_n, big_n) = (SIZES[0].0, SIZES[1].0);
        let (small, big) = ((case.generate)(small_n), (case.generate)(big_n));
        let whole = linear(case.name, "whole", limit, &small, &big, |input| {
            std::hint::black_box(tokenize_whole(input, true));
        });
        let (small, big) = ((case.generate)(small_n / 2), (case.generate)(big_n / 2));
        let chunked = linear(case.name, "7-byte chunks", limit, &small, &big, |input| {
            std::hint::black_box(tokenize_in_small_chunks(input));
        });
        if !(whole && chunked) {
            failed.push(case.name.to_owned());
        }
    }
    for case in MAIN_CONTENT_CASES
        .iter()
        .filter(|c| selected(c.name, filters))
    {
        let (small, big) = main_inputs(case);
        let plain = linear(case.name, "main, plain", MAX_RATIO, &small, &big, |input| {
            std::hint::black_box(main_content(input, false));
        });
        let markdown = linear(
            case.name,
            "main, markdown",
            MAX_RATIO,
            &small,
            &big,
            |input| {
                std::hint::black_box(main_content(input, true));
            },
        );
        if !(plain && markdown) {
            failed.push(case.name.to_owned());
        }
    }
    failed
}

fn main() {
    let mode = std::env::var("HTMLTOK_ADVERSARIAL_SUMMARY").unwrap_or_default();
    if mode != "only" {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo test --benches` runs benches once in test mode: no tables.
    let test_mode = args.iter().any(|a| a == "--test" || a == "--list");
    if test_mode || mode == "0" {
        return;
    }
    let filters: Vec<String> = args.into_iter().filter(|a| !a.starts_with('-')).collect();
    summary(&filters);
    let failed = linearity(&filters);
    if !failed.is_empty() {
        eprintln!("not linear: {}", failed.join(", "));
        std::process::exit(1);
    }
    println!("every case linear");
}
