//! The cost of the encoding guess (`htmltok::encoding`: what a page without a declared charset costs), in MB/s
//! of page bytes (criterion, `Throughput::BytesDecimal`, MB = 10^6 bytes).
//!
//! ```text
//! cargo bench --bench guess                 # about a minute
//! ```
//!
//! Inputs: pages that declare no encoding, so that the sniffer gets to
//! the guess: the repository's `corpus/legacy/*/none.html` in the nine
//! ASCII-compatible legacy encodings (the UTF-16 one has a byte order
//! mark), and its four UTF-8 `corpus/pages/` with their `<meta charset>`
//! taken out. For each set, all pages in one iteration:
//!
//! - `sniff`: `Sniffer::sniff` as it is by default (the guess reads 4 KB
//!   from the first non-ASCII byte);
//! - `sniff, guess 1 KB`: `guess_len(1024)`;
//! - `sniff, no statistical guess`: `statistical_guess(false)`, the UTF-8
//!   check htmltok made before it guessed (what the guess adds is the
//!   difference);
//! - `guess reading whole pages`: `guess_len(usize::MAX)`, chardetng's own
//!   speed over every byte;
//! - `decode + tokenize`: `Sniffer::decode` and the tokens of its text, the
//!   whole job the guess is a part of.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use htmltok::encoding::Sniffer;
use htmltok::{Flow, Tokenizer};

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The two sets of undeclared pages.
fn inputs() -> [(&'static str, Vec<Vec<u8>>); 2] {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut legacy = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(corpus.join("legacy"))
        .expect("corpus/legacy/")
        .map(|e| e.expect("directory entry").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let page = read(&dir.join("none.html"));
        if htmltok::encoding::Encoding::for_bom(&page).is_none() {
            legacy.push(page);
        }
    }
    let utf8 = ["article", "cjk", "script-heavy", "tag-dense"]
        .iter()
        .map(|name| {
            let page = read(&corpus.join(format!("pages/{name}.html")));
            let meta = b"<meta charset=\"utf-8\">";
            let at = memchr::memmem::find(&page, meta).expect("a <meta charset>");
            [&page[..at], &page[at + meta.len()..]].concat()
        })
        .collect();
    assert_eq!(legacy.len(), 9, "undeclared legacy pages");
    [("undeclared legacy", legacy), ("undeclared UTF-8", utf8)]
}

fn bench_guess(c: &mut Criterion) {
    for (set, pages) in inputs() {
        let bytes: usize = pages.iter().map(Vec::len).sum();
        let mut group = c.benchmark_group(set);
        group
            .throughput(Throughput::BytesDecimal(bytes as u64))
            .sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        let sniffers = [
            ("sniff", Sniffer::new()),
            ("sniff, guess 1 KB", Sniffer::new().guess_len(1024)),
            (
                "sniff, no statistical guess",
                Sniffer::new().statistical_guess(false),
            ),
            (
                "guess reading whole pages",
                Sniffer::new().guess_len(usize::MAX),
            ),
        ];
        for (what, sniffer) in sniffers {
            group.bench_function(what, |b| {
                b.iter(|| {
                    for page in &pages {
                        black_box(sniffer.sniff(black_box(page)));
                    }
                })
            });
        }
        group.bench_function("decode + tokenize", |b| {
            b.iter(|| {
                let mut tokens = 0usize;
                for page in &pages {
                    let decoded = Sniffer::new().decode(black_box(page));
                    Tokenizer::new(&decoded.text).for_each_token(|_| {
                        tokens += 1;
                        Flow::Continue
                    });
                }
                black_box(tokens)
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench_guess);
criterion_main!(benches);
