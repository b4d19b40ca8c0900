//! Finding pages in a directory, for `tests/extract.rs`, `benches/extract.rs`
//! and `examples/make_warc.rs` (each includes this file by `#[path]`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `*.html` / `*.htm` file under `dir`, recursively, in path order; a
/// directory that cannot be read is a panic naming it.
pub fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
        {
            out.push(path);
        }
    }
}
