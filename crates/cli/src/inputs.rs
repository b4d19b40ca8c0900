//! The page commands' arguments to a sequence of inputs: files as given,
//! directories walked recursively in name order, `-`.

use std::path::{Path, PathBuf};

use crate::report::{Problem, What};

/// One thing to read pages from.
pub(crate) enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file: a page, a `.gz` page, or a WARC archive (by name or by
    /// content).
    File(PathBuf),
    /// What could not be walked.
    Problem(Problem),
}

impl Input {
    /// What to call the input in a message.
    pub(crate) fn name(&self) -> String {
        match self {
            Input::Stdin => "-".into(),
            Input::File(path) => path.display().to_string(),
            Input::Problem(problem) => problem.source.clone(),
        }
    }
}

/// The names of archives, compressed or not.
const ARCHIVE_NAMES: [&str; 7] = [
    ".warc",
    ".warc.gz",
    ".warc.lz4",
    ".warc.zst",
    ".warc.zstd",
    ".arc",
    ".arc.gz",
];

/// Whether a file's name says it is an archive (`.warc`, `.arc`, plain or
/// compressed). Other files are archives too when their content says so.
pub(crate) fn is_archive_name(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    ARCHIVE_NAMES.iter().any(|suffix| name.ends_with(suffix))
}

/// Whether a file found in a directory is one to read: a page (`.html`,
/// `.htm`, `.xhtml`, each also `.gz`) or an archive. Files named on the
/// command line are read whatever their name.
fn is_page_name(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let page = name.strip_suffix(".gz").unwrap_or(&name);
    page.ends_with(".html")
        || page.ends_with(".htm")
        || page.ends_with(".xhtml")
        || is_archive_name(path)
}

/// Gives `each` the inputs of `args` in order, until it returns `false`.
pub(crate) fn walk(args: &[PathBuf], each: &mut dyn FnMut(Input) -> bool) {
    for arg in args {
        let go_on = if arg.as_os_str() == "-" {
            each(Input::Stdin)
        } else if arg.is_dir() {
            let mut found = 0;
            let go_on = walk_dir(arg, &mut found, each);
            if go_on && found == 0 {
                each(Input::Problem(Problem {
                    source: arg.display().to_string(),
                    what: "no pages in this directory (looked for *.html, *.htm, *.xhtml, \
                           their .gz, and archives: *.warc, *.arc, plain or .gz, *.warc.lz4, \
                           *.warc.zst)"
                        .into(),
                    kind: What::Unreadable,
                }))
            } else {
                go_on
            }
        } else {
            // Missing or unreadable files are reported when read.
            each(Input::File(arg.clone()))
        };
        if !go_on {
            return;
        }
    }
}

/// The pages under `dir` in name order, counting them in `found`.
fn walk_dir(dir: &Path, found: &mut usize, each: &mut dyn FnMut(Input) -> bool) -> bool {
    let problem = |e: std::io::Error| {
        Input::Problem(Problem {
            source: dir.display().to_string(),
            what: format!("cannot read directory: {e}"),
            kind: What::Unreadable,
        })
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return each(problem(e)),
    };
    let mut paths = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => paths.push(entry.path()),
            Err(e) => {
                if !each(problem(e)) {
                    return false;
                }
            }
        }
    }
    paths.sort();
    for path in paths {
        // A link to a directory is not followed (a link to an ancestor
        // would be a walk without end); links to files are.
        let linked = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        let go_on = if path.is_dir() {
            linked || walk_dir(&path, found, each)
        } else if is_page_name(&path) {
            *found += 1;
            each(Input::File(path))
        } else {
            true
        };
        if !go_on {
            return false;
        }
    }
    true
}
