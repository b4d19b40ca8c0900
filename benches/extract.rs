//! `htmltok::extract` in memory on one core: text and links of every page.
//!
//! ```text
//! cargo bench --bench extract
//! HTMLTOK_CORPUS=/path/to/pages cargo bench --bench extract
//! ```
//!
//! Pages are every `*.html` / `*.htm` file under `$HTMLTOK_CORPUS`, else the
//! repository's `corpus/`; each is decoded once as a browser would
//! (`Page::decode`, not timed), and throughput is counted in bytes of the
//! decoded text.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use htmltok::extract::{self, Page};
use htmltok::{Flow, Token, Tokenizer};

/// The decoded pages of `$HTMLTOK_CORPUS`, else of the repository's corpus.
fn load_pages() -> Vec<String> {
    let dir = std::env::var_os("HTMLTOK_CORPUS")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    let paths = testkit::files::html_pages_required(&dir);
    let pages: Vec<String> = paths
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            Page::decode(&bytes, None).html.into_owned()
        })
        .collect();
    let bytes: usize = pages.iter().map(String::len).sum();
    eprintln!(
        "{} pages, {bytes} bytes, from {}",
        pages.len(),
        dir.display()
    );
    pages
}

fn bench(c: &mut Criterion) {
    let pages = load_pages();
    let bytes: usize = pages.iter().map(String::len).sum();
    let mut group = c.benchmark_group("extract");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sampling_mode(SamplingMode::Flat);
    // The tokenizer alone, every token looked at: the floor the others
    // stand on, to read their figures against on a machine whose speed
    // drifts with other jobs.
    group.bench_function("tokenize", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &pages {
                Tokenizer::new(black_box(p)).for_each_token(|t| {
                    n += match t {
                        Token::StartTag(tag) => tag.attributes().count(),
                        Token::Text(t) => t.as_str().len(),
                        _ => 1,
                    };
                    Flow::Continue
                });
            }
            n
        })
    });
    group.bench_function("text", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| extract::text(black_box(p)).text.len())
                .sum::<usize>()
        })
    });
    group.bench_function("links", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| extract::links(black_box(p), None).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
