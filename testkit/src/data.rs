//! The test data every test finds in a checkout: the html5lib-tests
//! tokenizer cases (the repository's copy, or `$HTML5LIB_TESTS`), the
//! corpus pages (the repository's `corpus/`, plus the pages
//! `$HTMLTOK_CORPUS` adds) and their manifests. Paths are the
//! repository's, found from this crate's own place in it, so every crate
//! that uses them (the root's tests, the benches, `fuzz/`) reads the same
//! files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use htmltok::{Config, State};
use serde_json::Value;

use crate::files;

/// The repository's root directory (this crate lives in `testkit/` of it).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit/ has a parent: the repository")
        .to_path_buf()
}

/// The html5lib-tests `tokenizer` directory: `$HTML5LIB_TESTS`, or the
/// copy the repository carries (`tests/html5lib-tests/tokenizer`).
pub fn html5lib_dir() -> PathBuf {
    match std::env::var_os("HTML5LIB_TESTS") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => repo_root().join("tests/html5lib-tests/tokenizer"),
    }
}

/// The repository's own pages (`corpus/`, always there in a checkout).
pub fn repo_corpus_dir() -> PathBuf {
    repo_root().join("corpus")
}

/// A directory of more pages that `$HTMLTOK_CORPUS` adds (real pages the
/// repository does not carry). A relative path is taken from the
/// repository's root, whichever package's tests or benches read it (cargo
/// runs each in its own package's directory).
pub fn extra_corpus_dir() -> Option<PathBuf> {
    std::env::var_os("HTMLTOK_CORPUS")
        .filter(|d| !d.is_empty())
        .map(|d| repo_root().join(d))
}

/// Fails with a clear message naming `var` when `dir` is missing: a panic
/// under `CI=true`, otherwise a printed warning and then a failure too
/// (never a silent skip).
pub fn require_dir(dir: &Path, var: &str, what: &str) {
    if dir.is_dir() {
        return;
    }
    let msg = format!(
        "{what} directory not found: {} (set {var} to the {what} directory)",
        dir.display()
    );
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true: {msg}");
    }
    eprintln!("warning: {msg}");
    eprintln!("warning: refusing to pass without the {what}; set {var}");
    panic!("{msg}");
}

/// Turns literal `\uHHHH` sequences into code points (`doubleEscaped`).
/// `None` when the result would contain a lone surrogate, which a Rust
/// string (and UTF-8 input) cannot hold.
pub fn unescape(s: &str) -> Option<String> {
    fn hex4(s: &str, at: usize) -> Option<u32> {
        let b = s.as_bytes();
        if b.get(at) == Some(&b'\\') && b.get(at + 1) == Some(&b'u') {
            let digits = s.get(at + 2..at + 6)?;
            if digits.bytes().all(|c| c.is_ascii_hexdigit()) {
                return u32::from_str_radix(digits, 16).ok();
            }
        }
        None
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let Some(cp) = hex4(s, i) else {
            let c = s[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
            continue;
        };
        i += 6;
        let cp = match cp {
            0xD800..=0xDBFF => match hex4(s, i) {
                Some(low @ 0xDC00..=0xDFFF) => {
                    i += 6;
                    0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                }
                _ => return None,
            },
            0xDC00..=0xDFFF => return None,
            cp => cp,
        };
        out.push(char::from_u32(cp)?);
    }
    Some(out)
}

/// One html5lib-tests tokenizer test's input, decoded.
#[derive(Debug)]
pub struct Html5libCase {
    /// `file: "description"`.
    pub label: String,
    /// The input, `\uHHHH` escapes decoded where the test says so.
    pub input: String,
    /// The initial states the test runs in (`Data state` when it names none).
    pub states: Vec<State>,
    /// The test's `lastStartTag`.
    pub last_start_tag: Option<String>,
}

impl Html5libCase {
    /// The driven configuration the test runs with in `state`: its last
    /// start tag, and CDATA allowed where the test starts in a CDATA
    /// section.
    pub fn driven_config(&self, state: State) -> Config {
        let config = Config::new()
            .driven(true)
            .initial_state(state)
            .cdata_allowed(state == State::CdataSection);
        match &self.last_start_tag {
            Some(tag) => config.last_start_tag(tag),
            None => config,
        }
    }
}

/// Every html5lib-tests tokenizer input, decoded; also the number skipped
/// for lone surrogates.
pub fn html5lib_cases() -> (Vec<Html5libCase>, usize) {
    let dir = html5lib_dir();
    require_dir(&dir, "HTML5LIB_TESTS", "html5lib-tests tokenizer");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no *.test files in {} (set HTML5LIB_TESTS)",
        dir.display()
    );
    let mut cases = Vec::new();
    let mut skipped = 0;
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let json: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: bad JSON: {e}"));
        for key in ["tests", "xmlViolationTests"] {
            let Some(Value::Array(tests)) = json.get(key) else {
                continue;
            };
            for test in tests {
                let description = test["description"].as_str().unwrap_or("?");
                let raw = test["input"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{file}: {description:?}: no input"));
                let input = if test.get("doubleEscaped").and_then(Value::as_bool) == Some(true) {
                    match unescape(raw) {
                        Some(s) => s,
                        None => {
                            skipped += 1;
                            continue;
                        }
                    }
                } else {
                    raw.to_owned()
                };
                let states = match test.get("initialStates") {
                    Some(Value::Array(list)) => list
                        .iter()
                        .map(|s| {
                            let name = s.as_str().expect("initialStates holds strings");
                            State::from_name(name)
                                .unwrap_or_else(|| panic!("{file}: unknown state {name:?}"))
                        })
                        .collect(),
                    _ => vec![State::Data],
                };
                cases.push(Html5libCase {
                    label: format!("{file}: {description:?}"),
                    input,
                    states,
                    last_start_tag: test
                        .get("lastStartTag")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                });
            }
        }
    }
    (cases, skipped)
}

/// The corpus pages with their bytes: every `*.html` below the repository's
/// `corpus/` (named by their path there, `edge/crlf.html`), then every
/// `*.html` directly in `$HTMLTOK_CORPUS` when it is set (named by file
/// name). Each part is sorted by name. A set variable that names no
/// directory of pages fails: it only ever adds.
pub fn corpus_pages() -> Vec<(String, Vec<u8>)> {
    let root = repo_corpus_dir();
    let mut pages = Vec::new();
    collect_pages(&root, &root, true, &mut pages);
    assert!(
        !pages.is_empty(),
        "no *.html pages below {}",
        root.display()
    );
    if let Some(extra) = extra_corpus_dir() {
        require_dir(&extra, "HTMLTOK_CORPUS", "HTML page corpus");
        let before = pages.len();
        collect_pages(&extra, &extra, false, &mut pages);
        assert!(
            pages.len() > before,
            "no *.html pages in {} (HTMLTOK_CORPUS)",
            extra.display()
        );
    }
    pages
}

/// Appends the `*.html`/`*.htm` pages below `dir` (every level when
/// `recurse`, else `dir` alone), named by their path relative to `root`.
fn collect_pages(root: &Path, dir: &Path, recurse: bool, out: &mut Vec<(String, Vec<u8>)>) {
    for path in files::html_pages(dir) {
        if !recurse && path.parent() != Some(dir) {
            continue;
        }
        let name = path
            .strip_prefix(root)
            .expect("below its root")
            .to_string_lossy()
            .replace('\\', "/");
        let bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        out.push((name, bytes));
    }
}

/// The rows of the corpus manifests (`corpus/MANIFEST.tsv`, then
/// `$HTMLTOK_CORPUS/MANIFEST.tsv` when that variable is set), each as
/// column name → value, keyed by the page's name as [`corpus_pages`] gives
/// it.
pub fn corpus_manifest() -> HashMap<String, HashMap<String, String>> {
    let mut rows = HashMap::new();
    let mut dirs = vec![repo_corpus_dir()];
    dirs.extend(extra_corpus_dir());
    for dir in dirs {
        let path = dir.join("MANIFEST.tsv");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()));
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
        for line in lines.filter(|l| !l.is_empty()) {
            let row: HashMap<String, String> = header
                .iter()
                .zip(line.split('\t'))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let name = row.get("file").cloned().expect("a file column");
            rows.insert(name, row);
        }
    }
    rows
}
