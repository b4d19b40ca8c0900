//! Files under a directory, for the tests and benches that read pages or
//! test data (included by `#[path]`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) whose extension is one of `exts`
/// (ASCII case-insensitive), in path order. A directory that cannot be
/// read contributes nothing: callers say what an empty list means.
pub fn with_extension(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every `*.html` / `*.htm` page under `dir`, in path order.
pub fn html_pages(dir: &Path) -> Vec<PathBuf> {
    with_extension(dir, &["html", "htm"])
}
