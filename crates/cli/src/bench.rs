//! `htmltok bench [DIR] [--reps N]`: tokenizer throughput over a directory of
//! pages.
//!
//! Loads every `*.html` / `*.htm` file under DIR (recursively) into memory
//! and decodes it as a browser would (`encoding::Sniffer`: a legacy page's
//! bytes are not UTF-8, and tokenizing them as such would measure the
//! repair of invalid input), then for each of N reps (default 10)
//! tokenizes every page's text once with the whole-document API
//! ([`Tokenizer::new`], default configuration), looking at every token and
//! attribute. Prints one line per rep and then
//!
//! ```text
//! median: X MB/s (B bytes, P pages, T tokens)
//! ```
//!
//! where MB = 10^6 bytes of decoded (UTF-8) text, B their number, and T
//! the number of tokens of one rep. Reading and decoding the files and one
//! warm-up pass are not timed.
//!
//! DIR defaults to `$HTMLTOK_CORPUS` if set, else the repository's `corpus/`
//! (found through the build-time manifest directory, or `./corpus` relative
//! to the current directory). A missing or empty directory, or a bad `--reps`,
//! is a usage error (exit status 2).

use std::hint::black_box;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use htmltok::encoding::Sniffer;
use htmltok::{Flow, Tokenizer};

use crate::{CmdResult, Failure};
use htmltok_readout::observe;

/// Measure the tokenizer's throughput over a directory of pages.
///
/// Tokenizes every *.html / *.htm file under DIR (recursively), N times,
/// and prints the throughput of each rep and their median in MB/s (10^6
/// input bytes per second). Files are read before timing starts.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Default: $HTMLTOK_CORPUS if set, else the repository's corpus/
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Reps to time
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    reps: u32,
}

/// One page, read into memory before timing starts.
struct Page {
    /// The page's text, decoded as a browser decodes it.
    text: String,
}

pub(crate) fn run(args: Args) -> CmdResult {
    let reps = args.reps as usize;
    let dir = args.dir;
    let dir = match dir {
        Some(d) => d,
        None => default_dir(),
    };
    let pages = load_pages(&dir)?;
    let total_bytes: usize = pages.iter().map(|p| p.text.len()).sum();

    // One untimed pass first: page faults, caches, CPU clocks.
    for page in &pages {
        black_box(tokenize(&page.text));
    }

    let mut out = io::stdout().lock();
    let mut rates = Vec::with_capacity(reps);
    let mut tokens_per_rep = 0;
    for rep in 1..=reps {
        let start = Instant::now();
        let mut tokens = 0usize;
        let mut observed = 0usize;
        for page in &pages {
            let (t, o) = tokenize(&page.text);
            tokens += t;
            observed = observed.wrapping_add(o);
        }
        let secs = start.elapsed().as_secs_f64();
        black_box(observed);
        tokens_per_rep = tokens;
        let rate = total_bytes as f64 / secs.max(1e-9) / 1e6;
        rates.push(rate);
        writeln!(out, "rep {rep}: {rate:.1} MB/s").map_err(Failure::Output)?;
    }
    rates.sort_by(f64::total_cmp);
    let median = if reps % 2 == 1 {
        rates[reps / 2]
    } else {
        (rates[reps / 2 - 1] + rates[reps / 2]) / 2.0
    };
    writeln!(
        out,
        "median: {median:.1} MB/s ({total_bytes} bytes, {} pages, {tokens_per_rep} tokens)",
        pages.len()
    )
    .and_then(|()| out.flush())
    .map_err(Failure::Output)
}

fn usage(msg: &str) -> Failure {
    Failure::Usage(format!("bench: {msg} (try 'htmltok bench --help')"))
}

/// `$HTMLTOK_CORPUS`, else the repository's `corpus/`: the one next to the
/// manifest the binary was built from, or else `./corpus`.
fn default_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HTMLTOK_CORPUS").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    if built.is_dir() {
        built
    } else {
        PathBuf::from("corpus")
    }
}

/// Reads every `*.html` / `*.htm` file under `dir`, in path order.
fn load_pages(dir: &Path) -> Result<Vec<Page>, Failure> {
    if !dir.is_dir() {
        return Err(usage(&format!(
            "{} is not a directory (give DIR or set HTMLTOK_CORPUS)",
            dir.display()
        )));
    }
    let mut paths = Vec::new();
    collect_html(dir, &mut paths)?;
    paths.sort();
    if paths.is_empty() {
        return Err(usage(&format!(
            "no *.html or *.htm files under {}",
            dir.display()
        )));
    }
    paths
        .into_iter()
        .map(|path| {
            std::fs::read(&path)
                .map(|bytes| Page {
                    text: Sniffer::new().decode(&bytes).text.into_owned(),
                })
                .map_err(|e| usage(&format!("cannot read {}: {e}", path.display())))
        })
        .collect()
}

fn collect_html(dir: &Path, paths: &mut Vec<PathBuf>) -> CmdResult {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| usage(&format!("cannot read directory {}: {e}", dir.display())))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| usage(&format!("cannot read directory {}: {e}", dir.display())))?;
        let path = entry.path();
        // Follows symlinks, like the rest of the file system calls here.
        if path.is_dir() {
            collect_html(&path, paths)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
        {
            paths.push(path);
        }
    }
    Ok(())
}

/// Tokenizes one page, touching every token and attribute. Returns the
/// number of tokens and a sum of string lengths (so no work can be skipped).
#[inline(never)]
fn tokenize(text: &str) -> (usize, usize) {
    let mut tok = Tokenizer::new(text);
    let mut tokens = 0usize;
    let mut sum = 0usize;
    // The callback API: in standalone mode the fewest instructions a token.
    tok.for_each_token(|token| {
        tokens += 1;
        sum += observe::weight(&token);
        Flow::Continue
    });
    (tokens, sum)
}
