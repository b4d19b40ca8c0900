//! Shared helpers of the integration tests: locating the test data (the
//! repository's copies, plus pages `HTMLTOK_CORPUS` adds), html5lib-tests
//! cases and their double-escaped strings, a deterministic random number
//! generator, shrinking a failing case; the records and whole-vs-stream
//! drivers re-exported from `testkit`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use htmltok::{Config, State, Token};
use serde_json::Value;
use testkit::files;

// ---------------------------------------------------------------------------
// Test data.

/// The html5lib-tests `tokenizer` directory: `$HTML5LIB_TESTS`, or the
/// copy the repository carries (`tests/html5lib-tests/tokenizer`).
pub fn html5lib_dir() -> PathBuf {
    match std::env::var_os("HTML5LIB_TESTS") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/html5lib-tests/tokenizer"),
    }
}

/// The repository's own pages (`corpus/`, always there in a checkout).
pub fn repo_corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// A directory of more pages that `$HTMLTOK_CORPUS` adds (CI points it at
/// `../shared/corpus`, 171 real pages that the repository may not carry).
pub fn extra_corpus_dir() -> Option<PathBuf> {
    std::env::var_os("HTMLTOK_CORPUS")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
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
pub struct Html5libCase {
    /// `file: "description"`.
    pub label: String,
    pub input: String,
    pub states: Vec<State>,
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
pub fn corpus_manifest(
) -> std::collections::HashMap<String, std::collections::HashMap<String, String>> {
    let mut rows = std::collections::HashMap::new();
    let mut dirs = vec![repo_corpus_dir()];
    dirs.extend(extra_corpus_dir());
    for dir in dirs {
        let path = dir.join("MANIFEST.tsv");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()));
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
        for line in lines.filter(|l| !l.is_empty()) {
            let row: std::collections::HashMap<String, String> = header
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

// ---------------------------------------------------------------------------
// Deterministic randomness.

pub use testkit::rng::XorShift;

/// Split points for fixed-size chunks of `len` bytes.
pub fn fixed_splits(len: usize, size: usize) -> Vec<usize> {
    (size..len).step_by(size.max(1)).collect()
}

/// Random split sets for an input of `len` bytes: a few uniformly placed
/// points (duplicates allowed, so some chunks are empty), small random
/// chunk sizes, and random chunk sizes up to the whole input.
pub fn random_split_sets(len: usize, rng: &mut XorShift) -> Vec<Vec<usize>> {
    let mut sets = Vec::new();
    // A few uniformly placed points, including 0 and len (empty chunks).
    let k = 1 + rng.below(8);
    let mut points: Vec<usize> = (0..k).map(|_| rng.below(len + 1)).collect();
    points.sort_unstable();
    sets.push(points);
    // Chunks of 1..=16 bytes, sometimes empty.
    sets.push(random_sized(len, 17, rng));
    // Chunks of up to the whole input.
    sets.push(random_sized(len, len.max(1) + 1, rng));
    sets
}

/// Split points for chunks of random size in `0..max_size`.
pub fn random_sized(len: usize, max_size: usize, rng: &mut XorShift) -> Vec<usize> {
    let mut points = Vec::new();
    let mut at = 0;
    loop {
        at += rng.below(max_size.max(1));
        if at >= len {
            return points;
        }
        points.push(at);
    }
}

// ---------------------------------------------------------------------------
// Normalized output: the records and drivers are testkit's, shared with
// the fuzz targets (one meaning of "the same tokens").

// Each test crate uses some of them.
#[allow(unused_imports)]
pub use testkit::drive::{check, check_with, streamed, streamed_with, whole, whole_with, Errors};
#[allow(unused_imports)]
pub use testkit::record::{diff, err_rec, ErrRec, Normalizer, Output, Rec, Sp};

/// The switch a naive tree builder makes after a start tag (what the
/// driven comparisons of `for_each_token` and the tape apply).
pub fn naive_switch(token: &Token<'_>) -> Option<State> {
    let Token::StartTag(tag) = token else {
        return None;
    };
    Some(match tag.name {
        "script" => State::ScriptData,
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
        "title" | "textarea" => State::Rcdata,
        "plaintext" => State::Plaintext,
        _ => return None,
    })
}

/// Shrinks a failing case: removes byte ranges (ddmin-style, then single
/// bytes) and split points while the case still fails. Returns the
/// shortest failing input and its split points.
pub fn minimize(
    bytes: &[u8],
    splits: &[usize],
    fails: &dyn Fn(&[u8], &[usize]) -> bool,
) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = bytes.to_vec();
    let mut splits = splits.to_vec();
    assert!(
        fails(&bytes, &splits),
        "minimize: the case does not fail to begin with"
    );
    let remove = |bytes: &[u8], splits: &[usize], a: usize, b: usize| -> (Vec<u8>, Vec<usize>) {
        let mut nb = bytes[..a].to_vec();
        nb.extend_from_slice(&bytes[b..]);
        let ns: Vec<usize> = splits
            .iter()
            .map(|&p| {
                if p <= a {
                    p
                } else if p >= b {
                    p - (b - a)
                } else {
                    a
                }
            })
            .collect();
        (nb, ns)
    };
    // Byte ranges, halving the size.
    let mut size = bytes.len() / 2;
    while size >= 1 {
        let mut at = 0;
        let mut progressed = false;
        while at + size <= bytes.len() {
            let (nb, ns) = remove(&bytes, &splits, at, at + size);
            if fails(&nb, &ns) {
                bytes = nb;
                splits = ns;
                progressed = true;
            } else {
                at += size;
            }
        }
        if !progressed {
            size /= 2;
        }
    }
    // Split points, one at a time.
    let mut i = 0;
    while i < splits.len() {
        let mut ns = splits.clone();
        ns.remove(i);
        if fails(&bytes, &ns) {
            splits = ns;
        } else {
            i += 1;
        }
    }
    // Single bytes again, now that splits are fewer.
    let mut at = 0;
    while at < bytes.len() {
        let (nb, ns) = remove(&bytes, &splits, at, at + 1);
        if fails(&nb, &ns) {
            bytes = nb;
            splits = ns;
        } else {
            at += 1;
        }
    }
    (bytes, splits)
}

/// Shows bytes as a Rust byte-string literal body.
pub fn show(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}

/// Prints how many of `runs` differ (and the first few differences), and
/// fails if any did: a comparison `between` two ways of tokenizing.
pub fn report(between: &str, what: &str, runs: usize, failures: &[String]) {
    println!("{what}: {runs} runs compared, {} differ", failures.len());
    for f in failures.iter().take(10) {
        println!("{f}\n");
    }
    assert!(
        failures.is_empty(),
        "{what}: {} of {runs} runs differ between {between}",
        failures.len()
    );
}
