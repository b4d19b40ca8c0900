//! Throughput on adversarial inputs: the generated worst cases of
//! `tests/adversarial.rs` (that file is compiled in here as a module), at
//! 1 MiB and 16 MiB, whole-document API, parse errors off (as
//! `htmltok bench` measures real pages).
//!
//! ```text
//! cargo bench --bench adversarial                 # criterion, every case
//! cargo bench --bench adversarial -- huge_comment # one case
//! ```
//!
//! Criterion reports throughput per case and size (`Throughput::Bytes`, 10
//! samples; criterion prints MiB/s). After it, a summary table is printed:
//! MB/s (10^6 bytes, as `htmltok bench`) of every case at both sizes (best
//! of 3 runs, cold caches), the 16 MiB / 1 MiB time ratio (16 is linear;
//! `tests/adversarial.rs` fails above 32), and the slowest case
//! against the median page speed of the real-world corpus
//! (`$HTMLTOK_CORPUS`, default the repository's `corpus/`; the figure
//! `target/release/htmltok bench "$HTMLTOK_CORPUS"` reports is the whole
//! corpus's throughput, the median per page is printed here). Set
//! `HTMLTOK_ADVERSARIAL_SUMMARY=0` to skip the summary, `=only` to print
//! only the summary.

#[path = "../tests/adversarial.rs"]
#[allow(dead_code)]
mod adversarial;

use std::path::{Path, PathBuf};
use std::time::Duration;

use adversarial::{evict_caches, measure, tokenize_whole, CASES};
use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode, Throughput};

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
}

criterion_group!(benches, bench_cases);

/// Best of `runs` timings of tokenizing `input`, in MB/s (10^6 bytes),
/// each run starting with cold caches when `cold` (as `tests/adversarial.rs`
/// times them: a 1 MiB input that stays in the cache from run to run is
/// not comparable with a 16 MiB one).
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
    match std::env::var_os("HTMLTOK_CORPUS") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
    }
}

/// Median over the corpus pages of each page's MB/s (best of 3), if the
/// corpus is there.
fn corpus_median_page_speed() -> Option<(f64, usize)> {
    let mut speeds: Vec<f64> = std::fs::read_dir(corpus_dir())
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "html" || e == "htm"))
        .filter_map(|p| std::fs::read(p).ok())
        .map(|page| mb_per_s(&page, 3, false))
        .collect();
    if speeds.is_empty() {
        return None;
    }
    speeds.sort_by(f64::total_cmp);
    Some((speeds[speeds.len() / 2], speeds.len()))
}

fn summary(filters: &[String]) {
    println!();
    println!("adversarial inputs, whole document, errors off: MB/s (best of 3, cold caches)");
    println!(
        "{:<36} {:>10} {:>10} {:>12}",
        "case", "1 MiB", "16 MiB", "time 16/1"
    );
    let mut slowest = (f64::INFINITY, "");
    for case in CASES {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
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

fn main() {
    let summary_only = std::env::var("HTMLTOK_ADVERSARIAL_SUMMARY").as_deref() == Ok("only");
    if !summary_only {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo test --benches` runs benches once in test mode: no summary.
    let test_mode = args.iter().any(|a| a == "--test" || a == "--list");
    if !test_mode && std::env::var("HTMLTOK_ADVERSARIAL_SUMMARY").as_deref() != Ok("0") {
        let filters: Vec<String> = args.into_iter().filter(|a| !a.starts_with('-')).collect();
        summary(&filters);
    }
}
