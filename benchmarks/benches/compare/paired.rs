//! Paired rounds and the speed goals.
//!
//! Criterion samples each engine for a few seconds of its own, one engine
//! after the other. On a shared machine whose speed drifts over minutes (here
//! identical runs of one engine have differed widely from one minute to the
//! next), two engines can then be measured in different weather, and their
//! ratio shows the weather. The paired rounds run every engine once over a
//! group, back to back, round after round (the order rotating), and take each
//! ratio within a round before the median over rounds: the engines of a
//! round run within a second of each other.

use std::hint::black_box;

use crate::engines::ENGINES;
use crate::inputs::Page;

/// One group's timings: per engine, the seconds of each round.
struct Paired<'g> {
    name: &'g str,
    bytes: usize,
    times: Vec<Vec<f64>>,
}

impl Paired<'_> {
    fn engine(&self, name: &str) -> usize {
        ENGINES
            .iter()
            .position(|&(e, _)| e == name)
            .expect("an engine of ENGINES")
    }

    /// Median over rounds of `time(a) / time(b)` in the same round.
    fn time_ratio(&self, a: &str, b: &str) -> f64 {
        let (a, b) = (self.engine(a), self.engine(b));
        median(
            self.times[a]
                .iter()
                .zip(&self.times[b])
                .map(|(ta, tb)| ta / tb)
                .collect(),
        )
    }

    /// The middle half of the per-round ratios `time(a) / time(b)` (first
    /// and third quartile): how far one round's weather moves the ratio.
    fn time_ratio_spread(&self, a: &str, b: &str) -> (f64, f64) {
        let (a, b) = (self.engine(a), self.engine(b));
        let mut v: Vec<f64> = self.times[a]
            .iter()
            .zip(&self.times[b])
            .map(|(ta, tb)| ta / tb)
            .collect();
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => (f64::NAN, f64::NAN),
            n => (v[n / 4], v[(3 * n) / 4]),
        }
    }

    /// MB/s of an engine's fastest round: the machine's speed drifts
    /// between rounds too, and the fastest round is the one least slowed.
    fn mb_per_s(&self, engine: usize) -> f64 {
        let fastest = self.times[engine]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        self.bytes as f64 / 1e6 / fastest
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn paired_group<'g>(name: &'g str, pages: &[&Page], rounds: usize) -> Paired<'g> {
    let bytes = pages.iter().map(|p| p.bytes.len()).sum();
    let mut times = vec![Vec::with_capacity(rounds); ENGINES.len()];
    // One untimed round first: caches, lazily built tables.
    for round in 0..=rounds {
        for k in 0..ENGINES.len() {
            let e = (k + round) % ENGINES.len();
            let run = ENGINES[e].1;
            let started = std::time::Instant::now();
            let mut total = 0usize;
            for page in pages {
                let seen = run(black_box(page));
                total = total.wrapping_add(seen.tokens).wrapping_add(seen.sum);
            }
            black_box(total);
            if round > 0 {
                times[e].push(started.elapsed().as_secs_f64());
            }
        }
    }
    Paired { name, bytes, times }
}

/// Runs the paired rounds over the groups whose name contains `filter` and
/// prints a table (MB/s of the fastest round, and in brackets the median
/// paired ratio to html5ever), then the speed goals against the paired
/// ratios.
pub fn paired_report(groups: &[(String, Vec<&Page>)], filter: Option<&str>, rounds: usize) {
    let chosen: Vec<_> = groups
        .iter()
        .filter(|(name, pages)| !pages.is_empty() && filter.is_none_or(|f| name.contains(f)))
        .collect();
    if chosen.is_empty() || rounds == 0 {
        return;
    }
    let corpus = groups
        .iter()
        .find(|(name, _)| name == "corpus")
        .map_or(&[][..], |(_, pages)| &pages[..]);
    println!();
    println!("{}", crate::run::line(corpus));
    println!(
        "Paired rounds: {rounds} rounds of every engine back to back per group (HTMLTOK_BENCH_ROUNDS); \
         MB/s is the engine's fastest round, the ratio in brackets the median over rounds of \
         html5ever's time over the engine's time in the same round."
    );
    println!();
    let header: Vec<&str> = ENGINES.iter().map(|&(e, _)| e).collect();
    println!("| group | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(header.len()));
    let mut results = Vec::new();
    for (name, pages) in chosen {
        let paired = paired_group(name, pages, rounds);
        let cells: Vec<String> = ENGINES
            .iter()
            .enumerate()
            .map(|(e, &(engine, _))| {
                format!(
                    "{:.0} ({:.2}×)",
                    paired.mb_per_s(e),
                    paired.time_ratio("html5ever", engine)
                )
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
        results.push(paired);
    }
    println!();
    println!(
        "Speed goals, by the paired ratios above \
         (median; in brackets the middle half of the rounds' ratios):"
    );
    for p in &results {
        for (goal, value, (lo, hi), met) in goals(p) {
            println!(
                "  {:<16} {goal}: {value:.2} [{lo:.2}–{hi:.2}] ({})",
                p.name,
                if met { "met" } else { "MISSED" }
            );
        }
    }
}

/// A goal: what it says, the measured value, the middle half of the
/// rounds' values, whether it holds.
type Goal = (&'static str, f64, (f64, f64), bool);

/// The speed targets for a group, each against the paired ratio it names:
/// on the whole corpus against each peer, the floor, the other ways of
/// taking tokens (errors on, a stream, no SIMD, html5gum's callback emitter
/// against ours, the records against the loop); elsewhere floors per
/// category and for the synthetic pages.
fn goals(p: &Paired<'_>) -> Vec<Goal> {
    let at_least = |goal, faster: &str, slower: &str, x: f64| -> Goal {
        let ratio = p.time_ratio(slower, faster);
        (goal, ratio, p.time_ratio_spread(slower, faster), ratio >= x)
    };
    let time_at_most = |goal, engine: &str, base: &str, x: f64| -> Goal {
        let ratio = p.time_ratio(engine, base);
        (goal, ratio, p.time_ratio_spread(engine, base), ratio <= x)
    };
    match p.name {
        "corpus" => vec![
            at_least("htmltok >= 3.5x lol_html", "htmltok", "lol_html", 3.5),
            at_least("htmltok >= 8x html5ever", "htmltok", "html5ever", 8.0),
            at_least("htmltok >= 2x html5gum", "htmltok", "html5gum", 2.0),
            // html5gum's engine is its callback emitter: the same API of
            // ours beside it.
            at_least(
                "htmltok-for-each >= 2x html5gum",
                "htmltok-for-each",
                "html5gum",
                2.0,
            ),
            time_at_most(
                "htmltok's time <= 2.2x memchr3's",
                "htmltok",
                "memchr3",
                2.2,
            ),
            at_least(
                "htmltok-errors >= 6x html5ever",
                "htmltok-errors",
                "html5ever",
                6.0,
            ),
            time_at_most(
                "htmltok-stream-64k's time <= 1.10x htmltok's",
                "htmltok-stream-64k",
                "htmltok",
                1.10,
            ),
            at_least(
                "htmltok-scalar >= 4x html5ever",
                "htmltok-scalar",
                "html5ever",
                4.0,
            ),
            // The recording against a `next_token` loop that looks at
            // every field a record holds, then against the loop that sums
            // string lengths alone: handing tokens over as records should
            // cost no more than taking them one by one.
            at_least(
                "htmltok-recording >= 1.0x htmltok-fields",
                "htmltok-recording",
                "htmltok-fields",
                1.0,
            ),
            at_least(
                "htmltok-recording >= 1.0x htmltok",
                "htmltok-recording",
                "htmltok",
                1.0,
            ),
            at_least(
                "htmltok-records (read too) >= 1.0x htmltok",
                "htmltok-records",
                "htmltok",
                1.0,
            ),
        ],
        "text-only" => vec![at_least(
            "htmltok >= 0.5x memchr3",
            "htmltok",
            "memchr3",
            0.5,
        )],
        "tag-dense" => vec![at_least(
            "htmltok >= 3x html5ever",
            "htmltok",
            "html5ever",
            3.0,
        )],
        _ => vec![at_least(
            "htmltok >= 4x html5ever",
            "htmltok",
            "html5ever",
            4.0,
        )],
    }
}
