//! htmltok against other Rust HTML tokenizers, in MB/s of input (criterion,
//! `Throughput::Bytes`, MB = 10^6 bytes).
//!
//! From `benchmarks/` (a relative `HTMLTOK_CORPUS` is taken from the
//! repository's root):
//!
//! ```text
//! cargo bench --bench compare                 # everything (about 7 minutes on 2 cores)
//! cargo bench --bench compare -- corpus       # just the whole real-page corpus
//! cargo bench --bench compare -- html5ever    # one engine in every group
//! HTMLTOK_BENCH_PAIRED_ONLY=1 cargo bench --bench compare   # paired rounds only
//! HTMLTOK_CORPUS=/path/to/pages cargo bench --bench compare
//! ```
//!
//! Groups:
//! - `corpus`: every `*.html` page of `$HTMLTOK_CORPUS` (real pages the
//!   repository does not carry: docs/BENCHMARKS.md says which), default the
//!   repository's own `corpus/` (also the fall-back, with a printed note,
//!   when the variable names a directory without pages).
//! - one group per category of that corpus's `MANIFEST.tsv` (`article`,
//!   `script-heavy`, `cjk`, `legacy-encoding`, `large`, `other`), only when the
//!   manifest exists;
//! - `text-only`: ~1 MB of plain text paragraphs (synthetic, no markup);
//! - `tag-dense`: ~1 MB of nested divs, spans and links with many attributes
//!   (synthetic).
//!
//! Engines, each doing the same work: every token and attribute is looked at
//! (lengths summed, so nothing can be optimised away), and the same naive
//! tree-builder switching is applied after start tags: `script` → script
//! data; `style`, `xmp`, `iframe`, `noembed`, `noframes` → RAWTEXT; `title`,
//! `textarea` → RCDATA; `plaintext` → PLAINTEXT.
//! - `htmltok`: whole document (`Tokenizer::with_config` over
//!   `Input::from_utf8_lossy`), parse errors off, driven mode, tokens taken
//!   with `next_token`, the switches above done by the caller with
//!   `set_state`;
//! - `htmltok-records`: as `htmltok`, the tokens recorded on reused
//!   `Records` (`record_with`, which returns the switches), then every
//!   record and attribute record read, the same lengths summed;
//! - `htmltok-recording`: the recording of `htmltok-records` alone, no
//!   record read (recording a page should be at least as fast as the
//!   `next_token` loop);
//! - `htmltok-fields`: as `htmltok`, every field a record holds looked at
//!   (spans, each string's address and length, flags, attributes' starts):
//!   the loop the recording is held to;
//! - `htmltok-stream-64k`: `StreamTokenizer` fed 64 KiB chunks, same;
//! - `htmltok-errors`: as `htmltok`, collecting parse errors;
//! - `htmltok-scalar`: as `htmltok` with its SIMD scanning switched off
//!   (`Config::simd(false)`);
//! - `htmltok-for-each`: as `htmltok`, tokens taken with `for_each_token` (a
//!   callback, as html5ever's and lol_html's are) that returns the switches;
//!
//! (`htmltok`, `htmltok-records`, `htmltok-for-each` and `htmltok-scalar` are
//! checked, before any timing, to see the same tokens and lengths.)
//! - `html5ever`: its tokenizer alone (`html5ever::tokenizer::Tokenizer` and a
//!   `TokenSink` that returns `RawData`/`Plaintext` to switch);
//! - `html5gum`: its `CallbackEmitter` wrapped in a `ForwardingEmitter` that
//!   returns the switches above from `emit_current_tag`, errors off;
//! - `lol_html`: an `HtmlRewriter` with handlers for every element (and its
//!   attributes), text chunk, comment and doctype, discarding its output.
//!   lol_html switches states itself with its own tree-builder simulator;
//!   end tags are not handed to a handler (that needs a boxed handler per
//!   element), attributes and comments are observed through their source
//!   ranges (its `name()`/`value()`/`text()` allocate a `String` each);
//! - `memchr3`: a floor, counting `<`, `&`, `\r` with `memchr3_iter`.
//!
//! After criterion's groups (under `cargo bench` only), *paired rounds*:
//! every engine runs once over a group, back to back, 15 rounds
//! (`HTMLTOK_BENCH_ROUNDS`), and each engine's ratio to html5ever is taken
//! within a round before the median over rounds. Criterion measures one
//! engine after another, so on a machine whose speed drifts (this one's does,
//! over minutes) its ratios can compare different weather; the
//! paired ratios cannot. A line naming the run (date, commit, CPU, the
//! corpus), a markdown table and the speed goals, checked against the
//! paired ratios, are printed last (`cargo xtask chart` draws the table's
//! `corpus` row, docs/BENCHMARKS.md says how). A filter argument
//! limits them to the groups whose name contains it;
//! `HTMLTOK_BENCH_PAIRED_ONLY=1` skips criterion's groups and runs the
//! paired rounds alone (about a minute instead of eight).
//!
//! Every crate is built with the `bench` profile (fat LTO, one codegen
//! unit), and every peer runs in its fastest honest configuration (the
//! fairness rules of docs/BENCHMARKS.md). Layout: `inputs.rs` (pages, groups),
//! `engines/` (one file per engine, `ENGINES` the list), `paired.rs` (the
//! paired rounds and the goals), `run.rs` (the run's line), this file
//! (criterion, the checks).
//!
//! Input: pages that are not valid UTF-8 (`legacy-encoding`) go as bytes to
//! the engines that take bytes (htmltok, which repairs them to UTF-8 itself,
//! inside the timed loop; html5gum; lol_html; memchr). html5ever needs text:
//! it gets a lossy UTF-8 conversion made once, outside the timed loop, as a
//! `StrTendril` that is cheaply cloned (shared, not copied) for each run.

use testkit::files;

mod engines;
mod inputs;
mod paired;
mod run;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};

use engines::ENGINES;
use inputs::Page;

// ---------------------------------------------------------------------------
// Criterion

fn bench_group(c: &mut Criterion, name: &str, pages: &[&Page]) {
    if pages.is_empty() {
        return;
    }
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    // Whole-corpus iterations take a good fraction of a second: sample each
    // a fixed number of times instead of criterion's growing linear series.
    group.sampling_mode(SamplingMode::Flat);
    for &(engine, run) in ENGINES {
        group.bench_function(engine, |b| {
            b.iter(|| {
                let mut total = 0usize;
                for page in pages {
                    let seen = run(black_box(page));
                    total = total.wrapping_add(seen.tokens).wrapping_add(seen.sum);
                }
                total
            })
        });
    }
    group.finish();
}

/// Runs every engine once over a group, outside timing, and prints what each
/// saw, so that a broken engine (or a page one of them rejects) shows.
fn check_group(name: &str, pages: &[&Page]) {
    if pages.is_empty() {
        return;
    }
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let mut line = format!("{name}: {} pages, {bytes} bytes; tokens:", pages.len());
    for &(engine, run) in ENGINES {
        if engine == "memchr3" {
            continue;
        }
        let mut tokens = 0usize;
        let mut failed = Vec::new();
        for page in pages {
            let seen = run(page);
            if seen.tokens == usize::MAX {
                failed.push(page.name.as_str());
            } else {
                tokens += seen.tokens;
            }
        }
        line.push_str(&format!(" {engine} {tokens}"));
        if !failed.is_empty() {
            line.push_str(&format!(" (failed on {})", failed.join(", ")));
        }
    }
    eprintln!("{line}");
    // htmltok's engines over whole documents see the same tokens through
    // different APIs: a difference is a broken engine, not a speed.
    let run_of = |name: &str| ENGINES.iter().find(|&&(e, _)| e == name).map(|&(_, r)| r);
    let whole = run_of("htmltok").expect("the htmltok engine");
    for same in ["htmltok-records", "htmltok-for-each", "htmltok-scalar"] {
        let run = run_of(same).expect("an htmltok engine");
        for page in pages {
            let (a, b) = (whole(page), run(page));
            assert!(
                (a.tokens, a.sum) == (b.tokens, b.sum),
                "{same} saw {} tokens (sum {}) on {}, htmltok {} (sum {})",
                b.tokens,
                b.sum,
                page.name,
                a.tokens,
                a.sum
            );
        }
    }
    // The loop that looks at every field sums more than lengths: its
    // tokens, at least, are `htmltok`'s.
    let fields = run_of("htmltok-fields").expect("the htmltok-fields engine");
    for page in pages {
        let (a, b) = (whole(page).tokens, fields(page).tokens);
        assert_eq!(
            a, b,
            "htmltok-fields saw {b} tokens on {}, htmltok {a}",
            page.name
        );
    }
}

fn main() {
    let (corpus, has_manifest) = inputs::load_corpus();
    let text = Page::new("text-only".into(), inputs::text_only(), None);
    let dense = Page::new("tag-dense".into(), inputs::tag_dense(), None);
    let groups = inputs::groups(&corpus, has_manifest, &text, &dense);

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (name, pages) in &groups {
        check_group(name, pages);
    }
    // Criterion's groups take about 7 minutes; the paired rounds alone about
    // one, which a quiet spell of a shared machine is more likely to cover.
    let paired_only = std::env::var("HTMLTOK_BENCH_PAIRED_ONLY").is_ok_and(|v| v == "1");
    if !paired_only {
        for (name, pages) in &groups {
            bench_group(&mut c, name, pages);
        }
        c.final_summary();
    }

    // The paired rounds run under `cargo bench` only (not as a test), for
    // the groups that a filter argument names (criterion's filter is a
    // regular expression; here a group name or a part of it).
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    // Criterion's options that take a value, whose value is no filter.
    const WITH_VALUE: &[&str] = &[
        "--baseline",
        "--baseline-lenient",
        "--color",
        "--confidence-level",
        "--format",
        "--load-baseline",
        "--measurement-time",
        "--noise-threshold",
        "--nresamples",
        "--output-format",
        "--plotting-backend",
        "--profile-time",
        "--sample-size",
        "--save-baseline",
        "--significance-level",
        "--warm-up-time",
    ];
    let filter = args
        .iter()
        .enumerate()
        .find(|&(i, a)| {
            !a.starts_with('-') && (i == 0 || !WITH_VALUE.contains(&args[i - 1].as_str()))
        })
        .map(|(_, a)| a.as_str());
    let rounds = std::env::var("HTMLTOK_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    paired::paired_report(&groups, filter, rounds);
}
