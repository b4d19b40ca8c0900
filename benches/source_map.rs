//! The cost of mapping decoded offsets back to a page's bytes
//! (`htmltok::encoding::SourceMap`), against decoding the page.
//!
//! ```text
//! cargo bench --bench source_map            # about a minute
//! ```
//!
//! Inputs: the repository's `corpus/legacy/*/meta.html` (each declares its
//! encoding: Big5, EUC-JP, EUC-KR, GBK, ISO-8859-2, Shift_JIS,
//! windows-1251, windows-1252, windows-1256; UTF-16LE by its byte order
//! mark), all pages in one iteration:
//!
//! - `decode`: `Sniffer::decode`, what a page costs before any map;
//! - `build`: `Decoded::source_map` on the decoded page (it decodes the
//!   bytes once more, checking them against the text);
//! - `every tag`: the map built and every start tag's offset mapped (a
//!   question decodes from the checkpoint before it), in MB/s of page and,
//!   from the throughput of `questions`, the time of one question.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use htmltok::encoding::Sniffer;
use htmltok::{Token, Tokenizer};

/// The declared legacy pages, and the start tags' offsets in their text.
fn inputs() -> Vec<(Vec<u8>, Vec<usize>)> {
    let legacy = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/legacy");
    let mut dirs: Vec<_> = std::fs::read_dir(&legacy)
        .expect("corpus/legacy/")
        .map(|e| e.expect("directory entry").path())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|dir| {
            let path = dir.join("meta.html");
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let decoded = Sniffer::new().decode(&bytes);
            let mut tok = Tokenizer::new(&*decoded.text);
            let mut tags = Vec::new();
            while let Some(token) = tok.next_token() {
                if let Token::StartTag(tag) = token {
                    tags.push(tag.span().start);
                }
            }
            (bytes, tags)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let pages = inputs();
    let bytes: u64 = pages.iter().map(|(b, _)| b.len() as u64).sum();
    let questions: u64 = pages.iter().map(|(_, t)| t.len() as u64).sum();
    let mut group = c.benchmark_group("source_map");
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::BytesDecimal(bytes));
    group.bench_function("decode", |b| {
        b.iter(|| {
            for (page, _) in &pages {
                black_box(Sniffer::new().decode(black_box(page)).text.len());
            }
        })
    });
    let decoded: Vec<_> = pages
        .iter()
        .map(|(page, _)| Sniffer::new().decode(page))
        .collect();
    group.bench_function("build", |b| {
        b.iter(|| {
            for ((page, _), decoded) in pages.iter().zip(&decoded) {
                black_box(decoded.source_map(black_box(page)).expect("its bytes"));
            }
        })
    });
    group.bench_function("every tag", |b| {
        b.iter(|| {
            for ((page, tags), decoded) in pages.iter().zip(&decoded) {
                let map = decoded.source_map(page).expect("its bytes");
                for &tag in tags {
                    black_box(map.source_offset(black_box(tag)));
                }
            }
        })
    });
    group.throughput(Throughput::Elements(questions));
    let maps: Vec<_> = pages
        .iter()
        .zip(&decoded)
        .map(|((page, _), decoded)| decoded.source_map(page).expect("its bytes"))
        .collect();
    group.bench_function("questions", |b| {
        b.iter(|| {
            for ((_, tags), map) in pages.iter().zip(&maps) {
                for &tag in tags {
                    black_box(map.source_offset(black_box(tag)));
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
