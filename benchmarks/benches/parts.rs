//! Where the time of `compare`'s `htmltok` engine goes: its parts timed
//! apart over the same pages, in paired rounds (every part once over all
//! pages, back to back; each part's time divided by the loop's within a
//! round; medians over rounds). A diagnostic without goals: `compare`'s
//! goals are the measure. The bench profile (fat LTO), as `compare`.
//!
//! From `benchmarks/` (a relative `HTMLTOK_CORPUS` is taken from the
//! repository's root):
//!
//! ```text
//! HTMLTOK_CORPUS=/path/to/pages cargo bench --bench parts
//! ```
//!
//! Parts, each over every page (the bytes as read from disk):
//! - `check`: `Input::from_utf8_lossy` alone (the UTF-8 check; pages that
//!   are not UTF-8 repaired);
//! - `loop`: `compare`'s `htmltok` (driven, the naive switches, every
//!   string of every token looked at);
//! - `loop, checked input`: the same over the pages made `String`s before
//!   the rounds: the loop without the check;
//! - `loop, counting`: the loop looking at start tags' names only (the
//!   switches need them);
//! - `for_each_token`: the loop's work through the callback API;
//! - `for_each_token, checked input`: the same over the `String`s;
//! - `recording`: the tokens recorded on reused `Records`, not read;
//! - `recording, read`: `compare`'s `htmltok-records`.
//!
//! Rounds: `HTMLTOK_BENCH_ROUNDS` (default 15).

use std::hint::black_box;
use std::time::Instant;

use htmltok::records::{Records, TokenRecord};
use htmltok::{Config, Flow, Input, Token, Tokenizer};
use htmltok_readout::observe::{naive_switch as switch, weight};
use testkit::{data, files};

fn driven() -> Config {
    Config::new().driven(true)
}

/// `compare`'s htmltok tokenizer over a page's bytes: checked (repaired
/// if need be) as UTF-8, driven.
fn tokenizer(page: &[u8]) -> Tokenizer<'_> {
    Tokenizer::with_config(Input::from_utf8_lossy(page), driven())
}

/// The driven loop; `observe` says whether every string is looked at.
#[inline(always)]
fn drain(tok: &mut Tokenizer<'_>, observe: bool) -> usize {
    let mut seen = 0;
    loop {
        let next = {
            let Some(token) = tok.next_token() else { break };
            if observe {
                seen += weight(&token);
            } else {
                seen += 1;
            }
            match &token {
                Token::StartTag(tag) => switch(tag.name()),
                _ => None,
            }
        };
        if let Some((state, name)) = next {
            tok.set_state(state);
            tok.set_last_start_tag(Some(name));
        }
    }
    seen
}

#[inline(never)]
fn check(page: &[u8]) -> usize {
    Input::from_utf8_lossy(page).as_str().len()
}

#[inline(never)]
fn whole(page: &[u8]) -> usize {
    drain(&mut tokenizer(page), true)
}

#[inline(never)]
fn whole_checked(text: &str) -> usize {
    drain(&mut Tokenizer::with_config(text, driven()), true)
}

#[inline(never)]
fn counting(page: &[u8]) -> usize {
    drain(&mut tokenizer(page), false)
}

#[inline(never)]
fn for_each(page: &[u8]) -> usize {
    callback(tokenizer(page))
}

#[inline(never)]
fn for_each_checked(text: &str) -> usize {
    callback(Tokenizer::with_config(text, driven()))
}

/// The loop's work through the callback API.
#[inline(always)]
fn callback(mut tok: Tokenizer<'_>) -> usize {
    let mut seen = 0;
    tok.for_each_token(|token| {
        seen += weight(&token);
        match &token {
            Token::StartTag(tag) => match switch(tag.name()) {
                Some((state, _)) => Flow::Switch(state),
                None => Flow::Continue,
            },
            _ => Flow::Continue,
        }
    });
    seen
}

#[inline(never)]
fn record(records: &mut Records, page: &[u8]) {
    let mut tok = tokenizer(page);
    let recorded = records.record_with(&mut tok, |token| match &token {
        Token::StartTag(tag) => match switch(tag.name()) {
            Some((state, _)) => Flow::Switch(state),
            None => Flow::Continue,
        },
        _ => Flow::Continue,
    });
    assert!(recorded.is_ok(), "a page too large for records");
}

/// Every record read, the lengths `weight` sums (as `compare` reads them).
#[inline(never)]
fn read(records: &Records) -> usize {
    let attrs = records.attributes();
    let mut sum = 0;
    for r in records.tokens() {
        let (s0, s1, s2) = (r.s0_len as usize, r.s1_len as usize, r.s2_len as usize);
        sum += match r.kind {
            TokenRecord::START_TAG => {
                let first = r.first_attr as usize;
                let mut n = s0 + usize::from(r.flags & TokenRecord::SELF_CLOSING != 0);
                for a in &attrs[first..first + r.n_attrs as usize] {
                    n += (a.name_len + a.value_len) as usize;
                }
                n
            }
            TokenRecord::DOCTYPE => {
                s0 + s1 + s2 + usize::from(r.flags & TokenRecord::FORCE_QUIRKS != 0)
            }
            TokenRecord::PROCESSING_INSTRUCTION => s0 + s1,
            _ => s0,
        };
    }
    sum
}

const PARTS: [&str; 8] = [
    "check",
    "loop",
    "loop, checked input",
    "loop, counting",
    "for_each_token",
    "for_each_token, checked input",
    "recording",
    "recording, read",
];

/// One pass of part `k` over every page, in seconds. Each part is a
/// function of its own, called per page, as `compare` calls its engines:
/// inlined into one loop here, the parts' code came out differently and
/// their ratios moved by several per cent.
fn pass(k: usize, pages: &[Vec<u8>], texts: &[String], records: &mut Records) -> f64 {
    let start = Instant::now();
    let mut sum = 0usize;
    match k {
        0 => pages.iter().for_each(|p| sum += check(black_box(p))),
        1 => pages.iter().for_each(|p| sum += whole(black_box(p))),
        2 => texts
            .iter()
            .for_each(|t| sum += whole_checked(black_box(t))),
        3 => pages.iter().for_each(|p| sum += counting(black_box(p))),
        4 => pages.iter().for_each(|p| sum += for_each(black_box(p))),
        5 => texts
            .iter()
            .for_each(|t| sum += for_each_checked(black_box(t))),
        6 => pages.iter().for_each(|p| {
            record(records, black_box(p));
            black_box(records.tokens());
        }),
        _ => pages.iter().for_each(|p| {
            record(records, black_box(p));
            sum += read(records);
        }),
    }
    black_box(sum);
    start.elapsed().as_secs_f64()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    // `cargo test --benches` runs benches once with `--bench` absent:
    // nothing to time then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = data::extra_corpus_dir().unwrap_or_else(data::repo_corpus_dir);
    let pages: Vec<Vec<u8>> = files::html_pages_required(&dir)
        .iter()
        .map(|path| std::fs::read(path).expect("a page"))
        .collect();
    let texts: Vec<String> = pages
        .iter()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let rounds: usize = std::env::var("HTMLTOK_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    // The parts see the same tokens: the loop's sums, three ways.
    let mut records = Records::new();
    for (p, t) in pages.iter().zip(&texts) {
        let w = whole(p);
        assert_eq!(w, whole_checked(t));
        assert_eq!(w, for_each(p));
        record(&mut records, p);
        assert_eq!(w, read(&records));
    }
    let mut times = vec![Vec::new(); PARTS.len()];
    let mut ratios = vec![Vec::new(); PARTS.len()];
    for _ in 0..rounds {
        let round: Vec<f64> = (0..PARTS.len())
            .map(|k| pass(k, &pages, &texts, &mut records))
            .collect();
        for k in 0..PARTS.len() {
            times[k].push(round[k]);
            ratios[k].push(round[k] / round[1]);
        }
    }
    println!(
        "{} pages, {bytes} bytes, {rounds} paired rounds ({})",
        pages.len(),
        dir.display()
    );
    println!("| part | ms a pass | MB/s | time ÷ loop's [middle half] |");
    println!("|---|---|---|---|");
    for k in 0..PARTS.len() {
        let t = median(&mut times[k]);
        let r = &mut ratios[k];
        let m = median(r);
        let (lo, hi) = (r[r.len() / 4], r[r.len() * 3 / 4]);
        println!(
            "| {} | {:.2} | {:.0} | {m:.3} [{lo:.3}–{hi:.3}] |",
            PARTS[k],
            t * 1e3,
            bytes as f64 / t / 1e6
        );
    }
}
