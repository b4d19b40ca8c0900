//! Full parses into a DOM: html5ever's tree builder driven by htmltok
//! (`htmltok::html5ever`) against html5ever's own parser, in MB/s of input
//! (MB = 10^6 bytes), building `markup5ever_rcdom::RcDom` and
//! `scraper::Html`.
//!
//! From `benchmarks/` (a relative `HTMLTOK_CORPUS` is taken from the
//! repository's root):
//!
//! ```text
//! cargo bench --bench dom
//! HTMLTOK_CORPUS=/path/to/pages cargo bench --bench dom
//! HTMLTOK_BENCH_PAIRED_ONLY=1 cargo bench --bench dom
//! ```
//!
//! Pages: every `*.html` page of `$HTMLTOK_CORPUS` when set, else the
//! repository's `corpus/`. Each page is decoded once, before timing, as the
//! `Sniffer` decides, and both parsers parse that text. html5ever gets it
//! as a `StrTendril` it shares (its cheapest input: no copy in the timed
//! loop); htmltok gets the `&str` (and copies it into one tendril itself).
//!
//! Before any timing the trees of both parsers are written out in
//! html5lib's tree format and compared on every page (for scraper, its
//! `Html::html()` serialisation): the bench refuses to time different
//! trees.
//!
//! Then criterion's groups (`dom-rcdom`, `dom-scraper`), then *paired
//! rounds*: both parsers over all pages back to back, 10 rounds
//! (`HTMLTOK_BENCH_ROUNDS`), the ratio taken within each round and its
//! median printed, with each parser's MB/s in its fastest round (the
//! machine is shared; a round's two runs see the same load).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput};
use html5ever::tendril::{StrTendril, TendrilSink};
use htmltok::encoding::Sniffer;
use htmltok::html5ever::{parse_document, ParseOpts};
use markup5ever_rcdom::RcDom;
use scraper::{Html, HtmlTreeSink};

use testkit::{data, dom, files};

struct Page {
    name: String,
    text: String,
    tendril: StrTendril,
}

fn load_pages() -> Vec<Page> {
    let dir = data::extra_corpus_dir().unwrap_or_else(data::repo_corpus_dir);
    let paths = files::html_pages_required(&dir);
    eprintln!("{} pages from {}", paths.len(), dir.display());
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("a readable page");
            let text = Sniffer::new().decode(&bytes).text.into_owned();
            Page {
                name: path.display().to_string(),
                tendril: StrTendril::from_slice(&text),
                text,
            }
        })
        .collect()
}

fn html5ever_rcdom(page: &Page) -> RcDom {
    html5ever::parse_document(RcDom::default(), html5ever::ParseOpts::default())
        .one(page.tendril.clone())
}

fn htmltok_rcdom(page: &Page) -> RcDom {
    parse_document(RcDom::default(), ParseOpts::default(), &page.text)
}

fn html5ever_scraper(page: &Page) -> Html {
    html5ever::parse_document(
        HtmlTreeSink::new(Html::new_document()),
        html5ever::ParseOpts::default(),
    )
    .one(page.tendril.clone())
}

fn htmltok_scraper(page: &Page) -> Html {
    parse_document(
        HtmlTreeSink::new(Html::new_document()),
        ParseOpts::default(),
        &page.text,
    )
}

/// Refuses to time parsers that build different trees.
fn check_identical(pages: &[Page]) {
    for page in pages {
        assert_eq!(
            dom::document(&htmltok_rcdom(page)),
            dom::document(&html5ever_rcdom(page)),
            "{}: RcDom trees differ",
            page.name
        );
        assert_eq!(
            htmltok_scraper(page).html(),
            html5ever_scraper(page).html(),
            "{}: scraper trees differ",
            page.name
        );
    }
    eprintln!(
        "trees identical on all {} pages (RcDom and scraper)",
        pages.len()
    );
}

type Parse = fn(&[Page]);

const DOMS: [(&str, Parse, Parse); 2] = [
    (
        "rcdom",
        |pages| {
            pages
                .iter()
                .for_each(|p| drop(black_box(html5ever_rcdom(p))))
        },
        |pages| pages.iter().for_each(|p| drop(black_box(htmltok_rcdom(p)))),
    ),
    (
        "scraper",
        |pages| {
            pages
                .iter()
                .for_each(|p| drop(black_box(html5ever_scraper(p))))
        },
        |pages| {
            pages
                .iter()
                .for_each(|p| drop(black_box(htmltok_scraper(p))))
        },
    ),
];

fn criterion_groups(c: &mut Criterion, pages: &[Page], bytes: u64) {
    for (dom, html5ever, htmltok) in DOMS {
        let mut group = c.benchmark_group(format!("dom-{dom}"));
        group.throughput(Throughput::Bytes(bytes));
        group.sample_size(10);
        group.bench_function("html5ever", |b| b.iter(|| html5ever(pages)));
        group.bench_function("htmltok", |b| b.iter(|| htmltok(pages)));
        group.finish();
    }
}

fn seconds(parse: Parse, pages: &[Page]) -> f64 {
    let start = Instant::now();
    parse(pages);
    start.elapsed().as_secs_f64()
}

fn paired_rounds(pages: &[Page], bytes: u64) {
    let rounds: usize = std::env::var("HTMLTOK_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(10);
    println!("\npaired rounds ({rounds}, {:.1} MB):", bytes as f64 / 1e6);
    println!("| DOM | html5ever MB/s | htmltok-driven MB/s | speed-up (median of rounds) |");
    println!("|---|---|---|---|");
    for (dom, html5ever, htmltok) in DOMS {
        // One untimed round: caches, atoms interned on first sight.
        html5ever(pages);
        htmltok(pages);
        let (mut best_h5, mut best_tok, mut ratios) = (f64::MAX, f64::MAX, Vec::new());
        for round in 0..rounds {
            let (h5, tok) = if round % 2 == 0 {
                let h5 = seconds(html5ever, pages);
                (h5, seconds(htmltok, pages))
            } else {
                let tok = seconds(htmltok, pages);
                (seconds(html5ever, pages), tok)
            };
            best_h5 = best_h5.min(h5);
            best_tok = best_tok.min(tok);
            ratios.push(h5 / tok);
        }
        ratios.sort_by(f64::total_cmp);
        let mbs = |s: f64| bytes as f64 / s / 1e6;
        println!(
            "| {dom} | {:.1} | {:.1} | {:.2}x |",
            mbs(best_h5),
            mbs(best_tok),
            ratios[ratios.len() / 2]
        );
    }
}

fn main() {
    let pages = load_pages();
    let bytes: u64 = pages.iter().map(|p| p.text.len() as u64).sum();
    check_identical(&pages);
    if std::env::var_os("HTMLTOK_BENCH_PAIRED_ONLY").is_none() {
        let mut c = Criterion::default().configure_from_args();
        criterion_groups(&mut c, &pages, bytes);
        c.final_summary();
    }
    paired_rounds(&pages, bytes);
}
