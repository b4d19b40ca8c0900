//! `cargo xtask chart [REPORT [SVG]]`: the README's chart of the
//! comparison, drawn from what `cargo bench --bench compare` (in
//! `benchmarks/`) printed.
//!
//! REPORT (default `docs/compare.txt`) is the bench's output, or its end:
//! the `Run:` line (date, commit, CPU, corpus), the `Paired rounds:` line
//! and the paired rounds' markdown table. The chart is the table's `corpus`
//! row for htmltok's two ways of taking tokens and the three peers: each
//! engine's MB/s (its fastest round) as a bar, with the paired ratio to
//! html5ever when the table gives one (`1493 (7.69×)`; a cell may hold
//! the MB/s alone); below, the command and the run's line. The peers'
//! versions are read from `benchmarks/Cargo.lock`.
//!
//! SVG (default `docs/compare.svg`) is written. Commit both: a test here
//! holds the committed chart to what the committed report draws.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The engines drawn, in order: the bench's name, and what the chart calls
/// it (`{}` is the crate's version, for the peers).
const DRAWN: &[(&str, &str, Option<&str>)] = &[
    ("htmltok", "htmltok, next_token", None),
    ("htmltok-for-each", "htmltok, for_each_token", None),
    (
        "html5gum",
        "html5gum {}, callback emitter",
        Some("html5gum"),
    ),
    ("lol_html", "lol_html {}, source ranges", Some("lol_html")),
    (
        "html5ever",
        "html5ever {}, tokenizer alone",
        Some("html5ever"),
    ),
];

pub fn main(args: &[std::ffi::OsString]) -> ExitCode {
    if args.len() > 2
        || args
            .iter()
            .any(|a| a.to_str().is_some_and(|a| a.starts_with('-')))
    {
        eprintln!("usage: cargo xtask chart [REPORT [SVG]]");
        return ExitCode::from(2);
    }
    let root = repo_root();
    let report_path = args
        .first()
        .map_or_else(|| root.join("docs/compare.txt"), PathBuf::from);
    let svg_path = args
        .get(1)
        .map_or_else(|| root.join("docs/compare.svg"), PathBuf::from);
    let report = match std::fs::read_to_string(&report_path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xtask chart: {}: {e}", report_path.display());
            return ExitCode::FAILURE;
        }
    };
    let lock = std::fs::read_to_string(root.join("benchmarks/Cargo.lock")).unwrap_or_default();
    let svg = match Report::parse(&report).and_then(|r| r.svg(&lock)) {
        Ok(svg) => svg,
        Err(e) => {
            eprintln!("xtask chart: {}: {e}", report_path.display());
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::write(&svg_path, svg) {
        eprintln!("xtask chart: {}: {e}", svg_path.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", svg_path.display());
    ExitCode::SUCCESS
}

/// The repository's root (xtask lives in `xtask/` of it).
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What the chart needs of a report.
#[derive(Debug, PartialEq)]
struct Report {
    /// The `Run:` line without its label.
    run: String,
    rounds: u32,
    /// Per engine of the table: its name, MB/s, ratio to html5ever if given.
    corpus: Vec<(String, f64, Option<f64>)>,
}

impl Report {
    fn parse(text: &str) -> Result<Report, String> {
        let run = text
            .lines()
            .find_map(|l| l.strip_prefix("Run: "))
            .ok_or("no `Run:` line (the bench prints it above the paired rounds)")?
            .trim()
            .to_owned();
        let rounds = text
            .lines()
            .find_map(|l| l.strip_prefix("Paired rounds: "))
            .and_then(|l| l.split_whitespace().next()?.parse().ok())
            .ok_or("no `Paired rounds: N rounds` line")?;
        let cells = |line: &str| -> Vec<String> {
            line.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        };
        let header = text
            .lines()
            .find(|l| l.starts_with("| group |"))
            .map(cells)
            .ok_or("no table of paired rounds (`| group | ...`)")?;
        let row = text
            .lines()
            .find(|l| l.starts_with("| corpus |"))
            .map(cells)
            .ok_or("the paired rounds have no `corpus` row")?;
        if header.len() != row.len() {
            return Err("the `corpus` row and the header differ in length".into());
        }
        let mut corpus = Vec::new();
        for (engine, cell) in header.iter().zip(&row).skip(1) {
            // `1493 (7.69×)` or `1493`
            let parsed = match cell.split_once(" (") {
                Some((mb, ratio)) => ratio
                    .strip_suffix("×)")
                    .and_then(|r| Some((mb.parse().ok()?, Some(r.parse().ok()?)))),
                None => cell.parse().ok().map(|mb| (mb, None)),
            };
            let (mb, ratio) = parsed
                .ok_or_else(|| format!("{engine}: `{cell}` is not `MB/s` or `MB/s (ratio×)`"))?;
            corpus.push((engine.clone(), mb, ratio));
        }
        Ok(Report {
            run,
            rounds,
            corpus,
        })
    }

    fn svg(&self, lock: &str) -> Result<String, String> {
        let mut bars = Vec::new();
        for &(engine, label, krate) in DRAWN {
            let &(_, mb, ratio) = self
                .corpus
                .iter()
                .find(|(e, _, _)| e == engine)
                .ok_or_else(|| format!("the table has no engine `{engine}`"))?;
            let label = match krate {
                Some(krate) => label.replace("{}", &locked_version(lock, krate)),
                None => label.to_owned(),
            };
            bars.push((label, mb, ratio, krate.is_none()));
        }
        let max = bars.iter().map(|b| b.1).fold(0.0, f64::max);
        if max <= 0.0 {
            return Err("no engine has a speed above 0".into());
        }

        let (width, left, bar_max, row) = (760.0, 230.0, 360.0, 34.0);
        let top = 58.0;
        let height = top + row * bars.len() as f64 + 78.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">"#
        );
        let _ = writeln!(
            s,
            r#"<rect width="{width}" height="{height}" fill="white"/>"#
        );
        let _ = writeln!(
            s,
            r#"<text x="16" y="28" font-size="17" font-weight="bold">Tokenizing real pages on one core: MB/s (higher is better)</text>"#
        );
        let subtitle = if bars.iter().any(|b| b.2.is_some()) {
            format!(
                "each engine's fastest of {} paired rounds; in brackets: html5ever's time over the engine's, their median",
                self.rounds
            )
        } else {
            format!("each engine's fastest of {} paired rounds", self.rounds)
        };
        let _ = writeln!(s, r##"<text x="16" y="48" fill="#555">{subtitle}</text>"##);
        for (i, (label, mb, ratio, ours)) in bars.iter().enumerate() {
            let y = top + row * i as f64;
            let w = (bar_max * mb / max).max(1.0);
            let fill = if *ours { "#1f6feb" } else { "#8b949e" };
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
                left - 10.0,
                y + 19.0,
                escape(label)
            );
            let _ = writeln!(
                s,
                r#"<rect x="{left}" y="{}" width="{w:.1}" height="24" fill="{fill}"/>"#,
                y + 4.0
            );
            let ratio = ratio.map_or_else(String::new, |r| format!(" ({r:.2}×)"));
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{}">{}{ratio}</text>"#,
                left + w + 8.0,
                y + 21.0,
                thousands(*mb)
            );
        }
        let foot = top + row * bars.len() as f64 + 22.0;
        let _ = writeln!(
            s,
            r##"<text x="16" y="{foot}" font-size="12" fill="#555">cargo bench --bench compare (in benchmarks/; fat LTO, one codegen unit for every crate), drawn by cargo xtask chart</text>"##
        );
        let _ = writeln!(
            s,
            r##"<text x="16" y="{}" font-size="12" fill="#555">{}</text>"##,
            foot + 18.0,
            escape(&self.run)
        );
        let _ = writeln!(
            s,
            r##"<text x="16" y="{}" font-size="12" fill="#555">every engine looks at every token and attribute and makes the same tree-builder switches (docs/BENCHMARKS.md)</text>"##,
            foot + 36.0
        );
        s.push_str("</svg>\n");
        Ok(s)
    }
}

/// `1493.0` as `1,493`.
fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The version of `krate` in a Cargo.lock, `?` when it is not there.
fn locked_version(lock: &str, krate: &str) -> String {
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{krate}\"") {
            if let Some(version) = lines
                .next()
                .and_then(|v| v.trim().strip_prefix("version = \""))
                .and_then(|v| v.strip_suffix('"'))
            {
                return version.to_owned();
            }
        }
    }
    "?".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
Run: 2026-12-08 10:00 UTC, commit abc1234, Some CPU, corpus: 3 pages, 1.0 MB
Paired rounds: 15 rounds of every engine back to back per group (HTMLTOK_BENCH_ROUNDS); ...

| group | htmltok | htmltok-for-each | html5ever | html5gum | lol_html | memchr3 |
|---|---|---|---|---|---|---|
| corpus | 1493 (7.69×) | 1635 (8.40×) | 195 (1.00×) | 908 (4.63×) | 406 (2.09×) | 3442 (18.79×) |
| article | 1778 (9.12×) | 1837 (9.54×) | 192 (1.00×) | 1089 (5.56×) | 545 (2.83×) | 5852 (27.77×) |
";

    #[test]
    fn a_report_is_read() {
        let r = Report::parse(REPORT).unwrap();
        assert_eq!(r.rounds, 15);
        assert!(r.run.starts_with("2026-12-08 10:00 UTC, commit abc1234"));
        assert_eq!(r.corpus[0], ("htmltok".into(), 1493.0, Some(7.69)));
        assert_eq!(r.corpus[3], ("html5gum".into(), 908.0, Some(4.63)));
        assert_eq!(r.corpus.len(), 6);
    }

    #[test]
    fn the_chart_has_a_bar_per_engine_scaled_to_the_fastest() {
        let lock = "[[package]]\nname = \"html5gum\"\nversion = \"0.9.0\"\n";
        let svg = Report::parse(REPORT).unwrap().svg(lock).unwrap();
        assert_eq!(svg.matches("<rect x=").count(), DRAWN.len());
        // The fastest drawn engine (for_each_token) has the full bar; the
        // others are in proportion.
        assert!(svg.contains(r#"width="360.0""#), "{svg}");
        assert!(svg.contains(&format!(r#"width="{:.1}""#, 360.0 * 908.0 / 1635.0)));
        assert!(svg.contains("html5gum 0.9.0, callback emitter"));
        assert!(svg.contains("lol_html ?, source ranges"));
        assert!(svg.contains("1,493 (7.69×)"));
        assert!(svg.contains("commit abc1234"));
    }

    #[test]
    fn a_report_without_its_parts_is_refused() {
        assert!(Report::parse("| group | htmltok |\n| corpus | 1 (1.00×) |").is_err());
        let no_corpus = REPORT.replace("| corpus |", "| other |");
        assert!(Report::parse(&no_corpus).is_err());
        let bad_cell = REPORT.replace("1493 (7.69×)", "1493 MB/s");
        assert!(Report::parse(&bad_cell).is_err());
        let bad_ratio = REPORT.replace("1493 (7.69×)", "1493 (fast)");
        assert!(Report::parse(&bad_ratio).is_err());
        let no_engine = REPORT.replace("lol_html", "lol");
        let r = Report::parse(&no_engine).unwrap();
        assert!(r.svg("").is_err());
    }

    #[test]
    fn cells_may_hold_the_speed_alone() {
        let plain = REPORT.replace(" (7.69×)", "").replace(" (4.63×)", "");
        let r = Report::parse(&plain).unwrap();
        assert_eq!(r.corpus[0], ("htmltok".into(), 1493.0, None));
        assert_eq!(r.corpus[1].2, Some(8.40));
        let svg = r.svg("").unwrap();
        assert!(svg.contains(">1,493</text>"), "{svg}");
        assert!(svg.contains(">908</text>"), "{svg}");
        assert!(svg.contains("1,635 (8.40×)"), "{svg}");
    }

    #[test]
    fn numbers_get_thousands_separators() {
        assert_eq!(thousands(195.0), "195");
        assert_eq!(thousands(1493.4), "1,493");
        assert_eq!(thousands(31959.0), "31,959");
    }

    /// The committed chart is what its committed report draws.
    #[test]
    fn the_committed_chart_is_drawn_from_the_committed_report() {
        let root = repo_root();
        let (report, svg) = (root.join("docs/compare.txt"), root.join("docs/compare.svg"));
        let lock = std::fs::read_to_string(root.join("benchmarks/Cargo.lock")).unwrap();
        let drawn = Report::parse(&std::fs::read_to_string(report).unwrap())
            .unwrap()
            .svg(&lock)
            .unwrap();
        assert_eq!(std::fs::read_to_string(svg).unwrap(), drawn);
    }
}
