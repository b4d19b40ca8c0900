//! The line that says which run a report is: when, on which commit, on
//! which CPU, over which pages. Printed above the paired rounds' table, so
//! that a saved report (and the chart `cargo xtask chart` draws from it)
//! carries its own provenance.

use std::path::Path;
use std::process::Command;

use crate::inputs::Page;

/// `Run: 2026-12-08 14:03 UTC, commit 1a2b3c4, <CPU model>, corpus: 171
/// pages, 35.2 MB`; the commit gets `-dirty` when the checkout has
/// uncommitted changes, and is `unknown` outside a git checkout.
pub fn line(corpus: &[&Page]) -> String {
    let bytes: usize = corpus.iter().map(|p| p.bytes.len()).sum();
    format!(
        "Run: {} UTC, commit {}, {}, corpus: {} pages, {:.1} MB",
        now_utc(),
        commit(),
        cpu_model(),
        corpus.len(),
        bytes as f64 / 1e6
    )
}

/// The current time as `YYYY-MM-DD HH:MM`, UTC, as `date` gives it.
fn now_utc() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "unknown time".into(),
            |o| String::from_utf8_lossy(&o.stdout).trim().to_owned(),
        )
}

fn commit() -> String {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash}-dirty")
            } else {
                hash
            }
        }
        _ => "unknown".into(),
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name")?.split_once(':'))
                .map(|(_, model)| model.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned())
}
