//! Shared helpers for `tests/chunking.rs`, `tests/alloc.rs`,
//! `tests/memory_bound.rs` and `tests/html5lib.rs`: locating the test data
//! (the repository's copies, plus pages `HTMLTOK_CORPUS` adds), reading html5lib-tests' double-escaped strings, a deterministic
//! random number generator, and (for the chunking tests) drivers that run
//! the whole-document and the streaming tokenizer and reduce their output to
//! comparable owned records, spans included.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use htmltok::{Config, ErrorCode, ParseError, State, StreamTokenizer, Token, Tokenizer};
use serde_json::Value;

pub mod files;

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

/// xorshift64*: small, deterministic, good enough for split points.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        XorShift(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

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
// Normalized output.

// The token records are the fuzz targets' (`fuzz/src/lib.rs`, which uses
// only `htmltok` and `std`): one definition of what "the same tokens" means.
#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz_shared;

pub use fuzz_shared::{Rec, Sp};

fn sp(span: htmltok::Span) -> Sp {
    (span.start, span.end)
}

/// A parse error reduced to code, span, line, column.
pub type ErrRec = (ErrorCode, Sp, usize, usize);

pub fn err_rec(e: &ParseError) -> ErrRec {
    (e.code, sp(e.span), e.location.line, e.location.col)
}

/// Everything one run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub tokens: Vec<Rec>,
    pub errors: Vec<ErrRec>,
}

/// Collects tokens into [`Rec`]s. With `join`, adjacent text tokens become
/// one record; without, every token is kept as it came (for `join_text`).
#[derive(Debug)]
pub struct Normalizer {
    pub tokens: Vec<Rec>,
    join: bool,
    /// Protocol violations seen (empty text, tokens after Eof, ...).
    pub anomalies: Vec<String>,
    eof_seen: bool,
}

impl Normalizer {
    pub fn new(join: bool) -> Self {
        Normalizer {
            tokens: Vec::new(),
            join,
            anomalies: Vec::new(),
            eof_seen: false,
        }
    }

    pub fn push(&mut self, token: &Token<'_>) {
        if self.eof_seen {
            self.anomalies.push(format!("token after Eof: {token:?}"));
        }
        match token {
            Token::Text(t) => {
                if t.text.is_empty() {
                    self.anomalies
                        .push(format!("empty Text token at {:?}", t.span));
                }
                if self.join {
                    if let Some(Rec::Text { text, span }) = self.tokens.last_mut() {
                        text.push_str(t.text);
                        span.1 = t.span.end;
                        return;
                    }
                }
            }
            Token::Eof => self.eof_seen = true,
            _ => {}
        }
        self.tokens.push(fuzz_shared::rec_of(token));
    }
}

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

/// Whether parse errors are collected (the two compile-time error policies
/// are separate code paths, so both are exercised).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errors {
    On,
    Off,
}

macro_rules! drain_whole {
    ($tok:expr, $norm:expr) => {{
        let mut tok = $tok;
        while let Some(t) = tok.next_token() {
            $norm.push(&t);
        }
        if tok.next_token().is_some() {
            $norm.anomalies.push("whole: token after None".to_owned());
        }
        tok.errors().iter().map(err_rec).collect::<Vec<_>>()
    }};
}

/// Tokenizes `bytes` as one document.
pub fn whole(bytes: &[u8], config: &Config, errors: Errors) -> (Output, Vec<String>) {
    whole_with(bytes, config, errors, true)
}

pub fn whole_with(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    join: bool,
) -> (Output, Vec<String>) {
    let mut norm = Normalizer::new(join);
    let errs = match errors {
        Errors::On => drain_whole!(
            Tokenizer::from_bytes_with_errors(bytes, config.clone()),
            norm
        ),
        Errors::Off => drain_whole!(
            Tokenizer::from_bytes_with_config(bytes, config.clone()),
            norm
        ),
    };
    if norm.tokens.last() != Some(&Rec::Eof) {
        norm.anomalies
            .push("whole: last token is not Eof".to_owned());
    }
    (
        Output {
            tokens: norm.tokens,
            errors: errs,
        },
        norm.anomalies,
    )
}

macro_rules! drain_stream {
    ($stream:expr, $norm:expr, $bytes:expr, $splits:expr, $take:expr) => {{
        let mut stream = $stream;
        let bytes: &[u8] = $bytes;
        let mut errs: Vec<ErrRec> = Vec::new();
        let mut prev = 0;
        for &p in $splits.iter().chain(std::iter::once(&bytes.len())) {
            let p = p.clamp(prev, bytes.len());
            stream.feed(&bytes[prev..p]);
            prev = p;
            while let Some(t) = stream.next_token() {
                if matches!(t, Token::Eof) {
                    $norm
                        .anomalies
                        .push(format!("stream: Eof before finish (after byte {p})"));
                }
                $norm.push(&t);
            }
            if $take {
                errs.extend(stream.take_errors().iter().map(err_rec));
            }
        }
        stream.finish();
        while let Some(t) = stream.next_token() {
            $norm.push(&t);
        }
        if stream.next_token().is_some() {
            $norm.anomalies.push("stream: token after None".to_owned());
        }
        // Feeding after finish must do nothing.
        stream.feed(b"<p>x");
        if stream.next_token().is_some() {
            $norm
                .anomalies
                .push("stream: token after feed-after-finish".to_owned());
        }
        if $take {
            errs.extend(stream.take_errors().iter().map(err_rec));
        } else {
            errs.extend(stream.errors().iter().map(err_rec));
        }
        errs
    }};
}

/// Tokenizes `bytes` through a [`StreamTokenizer`], cut at `splits`
/// (sorted offsets; duplicates make empty chunks). With `take`, errors are
/// taken with `take_errors` after every chunk instead of read at the end.
pub fn streamed(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
) -> (Output, Vec<String>) {
    streamed_with(bytes, config, errors, splits, take, true)
}

pub fn streamed_with(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
    join: bool,
) -> (Output, Vec<String>) {
    let mut norm = Normalizer::new(join);
    let errs = match errors {
        Errors::On => drain_stream!(
            StreamTokenizer::with_errors(config.clone()),
            norm,
            bytes,
            splits,
            take
        ),
        Errors::Off => drain_stream!(
            StreamTokenizer::with_config(config.clone()),
            norm,
            bytes,
            splits,
            take
        ),
    };
    if norm.tokens.last() != Some(&Rec::Eof) {
        norm.anomalies
            .push("stream: last token is not Eof".to_owned());
    }
    (
        Output {
            tokens: norm.tokens,
            errors: errs,
        },
        norm.anomalies,
    )
}

/// Describes the first difference between two outputs (`None` when equal).
pub fn diff(whole: &Output, streamed: &Output) -> Option<String> {
    fn first_diff<T: std::fmt::Debug + PartialEq>(what: &str, a: &[T], b: &[T]) -> Option<String> {
        let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
        let from = i.saturating_sub(2);
        Some(format!(
            "{what} differ at #{i} (whole has {}, streamed has {}):\n  whole:    {:?}\n  streamed: {:?}\n  context (whole, from #{from}): {:?}",
            a.len(),
            b.len(),
            a.get(i),
            b.get(i),
            &a[from..(i + 1).min(a.len())],
        ))
    }
    first_diff("tokens", &whole.tokens, &streamed.tokens)
        .or_else(|| first_diff("errors", &whole.errors, &streamed.errors))
}

/// One chunk-invariance check: `None` when the streamed run (cut at
/// `splits`) equals the whole-document run and neither shows an anomaly;
/// otherwise a description. Panics inside the tokenizer count as failures.
pub fn check(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
) -> Option<String> {
    check_with(bytes, config, errors, splits, take, true)
}

pub fn check_with(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
    join: bool,
) -> Option<String> {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (w, wa) = whole_with(bytes, config, errors, join);
        let (s, sa) = streamed_with(bytes, config, errors, splits, take, join);
        if !wa.is_empty() || !sa.is_empty() {
            return Some(format!("anomalies: whole {wa:?}, streamed {sa:?}"));
        }
        diff(&w, &s)
    }));
    match run {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Some(format!("panic: {msg}"))
        }
    }
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
