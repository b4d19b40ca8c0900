//! Scores htmltok's main-content extractor on trafilatura's evaluation
//! corpus (or the sample the repository carries, `corpus/main-content/`),
//! by that corpus's rules (`testkit::main_content_eval`):
//!
//! ```text
//! git clone --depth 1 https://github.com/adbar/trafilatura /tmp/trafilatura
//! cargo run --release -p xtask -- main-content-eval --data /tmp/trafilatura/tests
//! cargo xtask main-content-eval --data corpus/main-content --misses --only wikipedia
//! ```
//!
//! Every page is decoded from its bytes as a browser would (no transport
//! charset: the corpus has none) and its main content extracted with
//! plain-text options; the time printed is the decoding and extraction
//! alone, one thread, the pages already in memory.
//!
//! - `--misses`: for each page with a miss, its file, the `with` snippets
//!   the text lacks and the `without` snippets it holds;
//! - `--only SUBSTRING`: the pages whose file name or URL contains it;
//! - `--comments`: comment sections kept (`MainOptions::comments`);
//! - `--all-text`: scores `text()` (all visible text) instead, the
//!   baseline a main-content extractor must beat.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use htmltok::extract::{MainOptions, Page};
use testkit::main_content_eval::{self as eval, Counts};

const USAGE: &str = "usage: cargo xtask main-content-eval --data DIR [--misses] [--only SUBSTRING] [--comments] [--all-text]";

/// `cargo xtask main-content-eval --data DIR [...]`.
pub fn main(args: &[OsString]) -> ExitCode {
    let mut data: Option<PathBuf> = None;
    let mut only: Option<String> = None;
    let (mut misses, mut comments, mut all_text) = (false, false, false);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--data") => data = args.next().map(PathBuf::from),
            Some("--only") => only = args.next().map(|s| s.to_string_lossy().into_owned()),
            Some("--misses") => misses = true,
            Some("--comments") => comments = true,
            Some("--all-text") => all_text = true,
            _ => {
                eprintln!("main-content-eval: unexpected argument {arg:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(data) = data else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let entries = match eval::load(&data) {
        Ok(entries) => entries,
        Err(e) => {
            eprintln!("main-content-eval: {e}");
            return ExitCode::FAILURE;
        }
    };
    let entries: Vec<_> = entries
        .into_iter()
        .filter(|e| {
            only.as_deref()
                .is_none_or(|s| e.file.contains(s) || e.url.contains(s))
        })
        .collect();
    let pages = match eval::read_pages(&data, &entries) {
        Ok(pages) => pages,
        Err(e) => {
            eprintln!("main-content-eval: {e}");
            return ExitCode::FAILURE;
        }
    };

    let options = MainOptions::new().comments(comments);
    let start = Instant::now();
    let texts: Vec<String> = pages
        .iter()
        .map(|p| {
            let page = Page::decode(&p.bytes, None);
            if all_text {
                page.text().text
            } else {
                page.main_content(options).text
            }
        })
        .collect();
    let seconds = start.elapsed().as_secs_f64();

    let mut total = Counts::default();
    for (page, text) in pages.iter().zip(&texts) {
        let scored = eval::score(page.entry, Some(text));
        total.add(scored.counts);
        if misses && !(scored.missed.is_empty() && scored.found.is_empty()) {
            println!("{}  {}", page.path.display(), page.entry.url);
            for s in &scored.missed {
                println!("  missed: {s}");
            }
            for s in &scored.found {
                println!("  found:  {s}");
            }
        }
    }
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    println!(
        "{}: tp {} fp {} fn {} tn {}",
        if all_text { "text" } else { "main_content" },
        total.tp,
        total.fp,
        total.fn_,
        total.tn
    );
    println!(
        "precision {:.3}  recall {:.3}  F1 {:.3}  accuracy {:.3}",
        total.precision(),
        total.recall(),
        total.f1(),
        total.accuracy()
    );
    println!(
        "{} pages, {:.1} MB, {:.3} s ({:.0} pages/s)",
        pages.len(),
        bytes as f64 / 1e6,
        seconds,
        pages.len() as f64 / seconds.max(1e-9)
    );
    ExitCode::SUCCESS
}
