//! Files under a directory, for the tests, benches and examples that read
//! pages or test data: one directory walk.

use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) whose extension is one of `exts`
/// (ASCII case-insensitive), in path order. A directory that cannot be
/// read contributes nothing: callers say what an empty list means (a
/// bench falls back to the repository's pages, a test fails naming the
/// directory).
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

/// [`html_pages`], failing with a message naming `dir` when it holds no
/// page (a missing or unreadable directory included).
pub fn html_pages_required(dir: &Path) -> Vec<PathBuf> {
    let pages = html_pages(dir);
    assert!(!pages.is_empty(), "no *.html pages under {}", dir.display());
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_pages_at_every_level_in_path_order_and_nothing_else() {
        let root = std::env::temp_dir().join(format!("testkit-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("b/c")).unwrap();
        for name in ["z.HTML", "a.htm", "b/c/d.html", "b/e.txt"] {
            std::fs::write(root.join(name), "x").unwrap();
        }
        let got: Vec<_> = html_pages(&root)
            .iter()
            .map(|p| {
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .collect();
        assert_eq!(got, ["a.htm", "b/c/d.html", "z.HTML"]);
        assert!(html_pages(&root.join("missing")).is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
