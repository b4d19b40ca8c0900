//! html5lib-tests tokenizer conformance.
//!
//! Runs every `*.test` file in `$HTML5LIB_TESTS` (default:
//! `tests/html5lib-tests/tokenizer`, the copy the repository carries) through
//! [`testkit::json::tokens_json`] (whole documents with the SIMD scans, the
//! same with the scalar scans, and streams fed one byte at a time, which
//! must agree) and compares tokens and parse errors
//! (code, line, column, in order) with the expectations. Prints a per-file
//! table, the first failing cases, and a final `N passed, M failed` line;
//! fails when any run fails.
//!
//! `HTML5LIB_FILTER=substring` restricts the run to tests whose description
//! contains the substring.
//!
//! A missing test directory is a failure, never a silent pass.
//!
//! `xmlViolationTests` (only in `xmlViolation.test`) expect the XML-infoset
//! coercions, which an HTML tokenizer does not apply; they are run and shown
//! as their own row but kept out of the totals and the verdict.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use testkit::data;

use htmltok::{Config, State};
use serde_json::Value;

use testkit::data::unescape;

/// How many failing runs to print in full.
const SHOW_FAILURES: usize = 30;

/// A single run taking longer than this is taken for a hang.
const HANG_AFTER: Duration = Duration::from_secs(30);

/// An expected or actual parse error: code, line, column.
type Error = (String, u64, u64);

#[derive(Default)]
struct Row {
    name: String,
    informational: bool,
    runs: usize,
    tokens_ok: usize,
    tokens_bad: usize,
    errors_ok: usize,
    errors_bad: usize,
    passed: usize,
    failed: usize,
    not_applicable: usize,
}

impl Row {
    fn add(&mut self, other: &Row) {
        self.runs += other.runs;
        self.tokens_ok += other.tokens_ok;
        self.tokens_bad += other.tokens_bad;
        self.errors_ok += other.errors_ok;
        self.errors_bad += other.errors_bad;
        self.passed += other.passed;
        self.failed += other.failed;
        self.not_applicable += other.not_applicable;
    }
}

struct Failure {
    file: String,
    description: String,
    state: String,
    last_start_tag: Option<String>,
    input: String,
    expected_tokens: Value,
    got_tokens: Value,
    expected_errors: Vec<Error>,
    got_errors: Vec<Error>,
    tokens_ok: bool,
    errors_ok: bool,
    /// Set when the tokenizer panicked or produced unparsable JSON.
    crash: Option<String>,
}

/// Applies `unescape` to every string (and object key) in `v`.
fn unescape_value(v: &Value) -> Option<Value> {
    Some(match v {
        Value::String(s) => Value::String(unescape(s)?),
        Value::Array(items) => {
            Value::Array(items.iter().map(unescape_value).collect::<Option<_>>()?)
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Some((unescape(k)?, unescape_value(v)?)))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

/// Joins adjacent `["Character", ...]` tokens (the expectations are
/// already joined; this only makes the comparison robust).
fn join_characters(tokens: &Value) -> Value {
    let Value::Array(items) = tokens else {
        return tokens.clone();
    };
    let mut out: Vec<Value> = Vec::with_capacity(items.len());
    for item in items {
        if let (Some(text), Some(prev)) = (character_data(item), out.last_mut()) {
            if let Some(before) = character_data(prev) {
                let joined = format!("{before}{text}");
                *prev = Value::Array(vec!["Character".into(), joined.into()]);
                continue;
            }
        }
        out.push(item.clone());
    }
    Value::Array(out)
}

fn character_data(token: &Value) -> Option<&str> {
    match token {
        Value::Array(a) if a.len() == 2 && a[0] == "Character" => a[1].as_str(),
        _ => None,
    }
}

fn errors_of(v: Option<&Value>) -> Vec<Error> {
    let Some(Value::Array(list)) = v else {
        return Vec::new();
    };
    list.iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap_or("?").to_owned(),
                e["line"].as_u64().unwrap_or(0),
                e["col"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_owned()
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

fn errors_text(errors: &[Error]) -> String {
    let items: Vec<String> = errors
        .iter()
        .map(|(code, line, col)| format!("{code}@{line}:{col}"))
        .collect();
    format!("[{}]", items.join(", "))
}

/// Notices a run that never finishes (a tokenizer stuck in a loop) and
/// ends the process with the case's name, instead of hanging the suite.
struct Watchdog {
    runs: AtomicUsize,
    current: Mutex<String>,
    done: AtomicBool,
}

impl Watchdog {
    fn start() -> Arc<Watchdog> {
        let dog = Arc::new(Watchdog {
            runs: AtomicUsize::new(0),
            current: Mutex::new(String::new()),
            done: AtomicBool::new(false),
        });
        let watcher = Arc::clone(&dog);
        std::thread::spawn(move || {
            let tick = Duration::from_millis(200);
            let mut last = usize::MAX;
            let mut still = Duration::ZERO;
            while !watcher.done.load(Ordering::Relaxed) {
                std::thread::sleep(tick);
                let now = watcher.runs.load(Ordering::Relaxed);
                if now == last {
                    still += tick;
                } else {
                    last = now;
                    still = Duration::ZERO;
                }
                if still >= HANG_AFTER && !watcher.done.load(Ordering::Relaxed) {
                    let case = watcher
                        .current
                        .lock()
                        .map(|c| c.clone())
                        .unwrap_or_default();
                    // Straight to the process's stderr: the harness
                    // captures eprintln!, and exiting would lose it.
                    let _ = writeln!(
                        std::io::stderr(),
                        "html5lib: a run has not finished after {HANG_AFTER:?} (tokenizer hang?): \
                         {case}\nhtml5lib: FAILED (hang)"
                    );
                    std::process::exit(101);
                }
            }
        });
        dog
    }

    fn enter(&self, case: String) {
        if let Ok(mut c) = self.current.lock() {
            *c = case;
        }
        self.runs.fetch_add(1, Ordering::Relaxed);
    }
}

struct Runner {
    watchdog: Arc<Watchdog>,
    filter: Option<String>,
    failures: Vec<Failure>,
    /// xmlViolation results: description, verdict.
    xml_notes: Vec<String>,
    not_applicable: Vec<String>,
}

impl Runner {
    fn run_file(&mut self, path: &Path) -> Vec<Row> {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let doc: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()));
        let mut rows = Vec::new();
        for (key, informational) in [("tests", false), ("xmlViolationTests", true)] {
            let Some(tests) = doc.get(key) else { continue };
            let tests = tests
                .as_array()
                .unwrap_or_else(|| panic!("{file}: `{key}` is not an array"));
            let mut row = Row {
                name: if key == "tests" {
                    file.clone()
                } else {
                    format!("{file} ({key})*")
                },
                informational,
                ..Row::default()
            };
            for test in tests {
                self.run_test(&file, test, &mut row);
            }
            rows.push(row);
        }
        assert!(
            !rows.is_empty(),
            "{file}: has neither `tests` nor `xmlViolationTests`"
        );
        rows
    }

    fn run_test(&mut self, file: &str, test: &Value, row: &mut Row) {
        let description = test["description"].as_str().unwrap_or("(no description)");
        if let Some(f) = &self.filter {
            if !description.contains(f.as_str()) {
                return;
            }
        }
        let raw_input = test["input"]
            .as_str()
            .unwrap_or_else(|| panic!("{file}: {description:?}: no string `input`"));
        let double_escaped = test.get("doubleEscaped").and_then(Value::as_bool) == Some(true);
        let states: Vec<String> = match test.get("initialStates") {
            Some(Value::Array(list)) => list
                .iter()
                .map(|s| s.as_str().expect("initialStates holds strings").to_owned())
                .collect(),
            _ => vec!["Data state".to_owned()],
        };
        let last_start_tag = test.get("lastStartTag").and_then(Value::as_str);

        let decoded = if double_escaped {
            unescape(raw_input).and_then(|input| {
                let output = unescape_value(&test["output"])?;
                let errors = test.get("errors").cloned();
                Some((input, output, errors))
            })
        } else {
            Some((
                raw_input.to_owned(),
                test["output"].clone(),
                test.get("errors").cloned(),
            ))
        };

        for state_name in &states {
            row.runs += 1;
            let Some((input, expected_output, expected_errors)) = &decoded else {
                row.not_applicable += 1;
                self.not_applicable.push(format!(
                    "{file}: {description:?} [{state_name}]: input {raw_input:?} has a lone \
                     surrogate, which UTF-8 input cannot carry"
                ));
                continue;
            };
            let state = State::from_name(state_name)
                .unwrap_or_else(|| panic!("{file}: {description:?}: unknown state {state_name:?}"));
            // Driven mode: html5lib-tests exercise the tokenizer without a
            // tree builder's switches.
            let mut config = Config::new()
                .driven(true)
                .initial_state(state)
                .cdata_allowed(state == State::CdataSection);
            if let Some(tag) = last_start_tag {
                config = config.last_start_tag(tag);
            }

            let expected_tokens = join_characters(expected_output);
            let expected_errors = errors_of(expected_errors.as_ref());

            self.watchdog.enter(format!(
                "{file}: {description:?} [{state_name}], input {input:?}"
            ));
            // Every run goes through the whole-document API with the SIMD
            // scans, through the same with the scalar scans
            // (`Config::simd(false)`), and through the streaming API fed
            // one byte at a time; all three must agree.
            let result = panic::catch_unwind(AssertUnwindSafe(|| {
                let whole = testkit::json::tokens_json(input.as_bytes(), config.clone(), true);
                let scalar =
                    testkit::json::tokens_json(input.as_bytes(), config.clone().simd(false), true);
                let streamed =
                    testkit::json::tokens_json_chunked(input.as_bytes(), config, true, 1);
                (whole, scalar, streamed)
            }));
            let (got_tokens, got_errors, crash) = match result {
                Err(payload) => (
                    Value::Null,
                    Vec::new(),
                    Some(format!("panicked: {}", panic_message(&*payload))),
                ),
                Ok((json, _, streamed)) if json != streamed => (
                    Value::Null,
                    Vec::new(),
                    Some(format!(
                        "streaming in 1-byte chunks differs: whole {json}, streamed {streamed}"
                    )),
                ),
                Ok((json, scalar, _)) if json != scalar => (
                    Value::Null,
                    Vec::new(),
                    Some(format!(
                        "the scalar scans differ: SIMD {json}, scalar {scalar}"
                    )),
                ),
                Ok((json, _, _)) => match serde_json::from_str::<Value>(&json) {
                    Err(e) => (
                        Value::Null,
                        Vec::new(),
                        Some(format!("tokens_json produced invalid JSON ({e}): {json}")),
                    ),
                    Ok(v) => (v["output"].clone(), errors_of(v.get("errors")), None),
                },
            };

            let tokens_ok = crash.is_none() && got_tokens == expected_tokens;
            let errors_ok = crash.is_none() && got_errors == expected_errors;
            if tokens_ok {
                row.tokens_ok += 1;
            } else {
                row.tokens_bad += 1;
            }
            if errors_ok {
                row.errors_ok += 1;
            } else {
                row.errors_bad += 1;
            }
            if tokens_ok && errors_ok {
                row.passed += 1;
            } else {
                row.failed += 1;
            }
            if row.informational {
                self.xml_notes.push(format!(
                    "{description:?}: tokens {}, errors {}; expected {} {}, got {} {}",
                    if tokens_ok { "match" } else { "differ" },
                    if errors_ok { "match" } else { "differ" },
                    compact(&expected_tokens),
                    errors_text(&expected_errors),
                    compact(&got_tokens),
                    errors_text(&got_errors),
                ));
            } else if !(tokens_ok && errors_ok) {
                self.failures.push(Failure {
                    file: file.to_owned(),
                    description: description.to_owned(),
                    state: state_name.clone(),
                    last_start_tag: last_start_tag.map(str::to_owned),
                    input: input.clone(),
                    expected_tokens,
                    got_tokens,
                    expected_errors,
                    got_errors,
                    tokens_ok,
                    errors_ok,
                    crash,
                });
            }
        }
    }
}

fn table(rows: &[Row], total: &Row) -> String {
    let mut s = String::new();
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(5);
    let header = format!(
        "{:<width$} {:>6} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6} {:>4}",
        "file", "runs", "tok pass", "tok fail", "err pass", "err fail", "pass", "fail", "n/a"
    );
    let _ = writeln!(s, "{header}");
    let _ = writeln!(s, "{}", "-".repeat(header.chars().count()));
    let line = |s: &mut String, r: &Row| {
        let _ = writeln!(
            s,
            "{:<width$} {:>6} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6} {:>4}",
            r.name,
            r.runs,
            r.tokens_ok,
            r.tokens_bad,
            r.errors_ok,
            r.errors_bad,
            r.passed,
            r.failed,
            r.not_applicable
        );
    };
    for r in rows.iter().filter(|r| !r.informational) {
        line(&mut s, r);
    }
    let _ = writeln!(s, "{}", "-".repeat(header.chars().count()));
    line(&mut s, total);
    let informational: Vec<&Row> = rows.iter().filter(|r| r.informational).collect();
    if !informational.is_empty() {
        let _ = writeln!(s);
        for r in informational {
            line(&mut s, r);
        }
        let _ = writeln!(
            s,
            "* xmlViolationTests expect XML-infoset coercions that an HTML tokenizer does not \
             apply: shown for information, not counted in the totals or the verdict."
        );
    }
    s
}

/// Groups failures by what went wrong, to point at causes.
fn failure_groups(failures: &[Failure]) -> String {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    for f in failures {
        if let Some(crash) = &f.crash {
            let first_line = crash.lines().next().unwrap_or("");
            *groups.entry(format!("crash: {first_line}")).or_default() += 1;
            continue;
        }
        if !f.tokens_ok {
            *groups.entry("tokens differ".to_owned()).or_default() += 1;
        }
        if !f.errors_ok {
            let mut expected: BTreeMap<&str, isize> = BTreeMap::new();
            for (code, _, _) in &f.expected_errors {
                *expected.entry(code).or_default() += 1;
            }
            for (code, _, _) in &f.got_errors {
                *expected.entry(code).or_default() -= 1;
            }
            let mut any = false;
            for (code, n) in expected {
                if n > 0 {
                    *groups.entry(format!("error missing: {code}")).or_default() += 1;
                    any = true;
                } else if n < 0 {
                    *groups.entry(format!("error extra: {code}")).or_default() += 1;
                    any = true;
                }
            }
            if !any {
                // Same codes: positions or order differ.
                let codes: Vec<&str> = f.expected_errors.iter().map(|e| e.0.as_str()).collect();
                let got: Vec<&str> = f.got_errors.iter().map(|e| e.0.as_str()).collect();
                let what = if codes == got { "position" } else { "order" };
                for code in codes.iter().collect::<std::collections::BTreeSet<_>>() {
                    *groups
                        .entry(format!("error {what} differs: {code}"))
                        .or_default() += 1;
                }
            }
        }
    }
    let mut groups: Vec<(String, usize)> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut s = String::new();
    for (what, n) in groups {
        let _ = writeln!(s, "  {n:>6}  {what}");
    }
    s
}

fn show_failure(f: &Failure) -> String {
    let mut s = String::new();
    let _ = write!(s, "--- {}: {:?} [{}", f.file, f.description, f.state);
    if let Some(tag) = &f.last_start_tag {
        let _ = write!(s, ", lastStartTag {tag:?}");
    }
    let _ = writeln!(s, "]");
    let _ = writeln!(s, "    input:           {:?}", f.input);
    if let Some(crash) = &f.crash {
        let _ = writeln!(s, "    CRASH:           {crash}");
    }
    if !f.tokens_ok {
        let _ = writeln!(s, "    expected tokens: {}", compact(&f.expected_tokens));
        let _ = writeln!(s, "    got tokens:      {}", compact(&f.got_tokens));
    }
    if !f.errors_ok {
        let _ = writeln!(
            s,
            "    expected errors: {}",
            errors_text(&f.expected_errors)
        );
        let _ = writeln!(s, "    got errors:      {}", errors_text(&f.got_errors));
    }
    s
}

#[test]
fn html5lib_tokenizer_conformance() {
    let dir = data::html5lib_dir();
    data::require_dir(&dir, "HTML5LIB_TESTS", "html5lib-tests tokenizer");

    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no *.test files in {} (HTML5LIB_TESTS)",
        dir.display()
    );

    let filter = std::env::var("HTML5LIB_FILTER")
        .ok()
        .filter(|f| !f.is_empty());
    let watchdog = Watchdog::start();
    let mut runner = Runner {
        watchdog: Arc::clone(&watchdog),
        filter: filter.clone(),
        failures: Vec::new(),
        xml_notes: Vec::new(),
        not_applicable: Vec::new(),
    };

    // Panics in the tokenizer are caught and reported per run; keep the
    // default hook from printing each one.
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let rows: Vec<Row> = files.iter().flat_map(|f| runner.run_file(f)).collect();
    panic::set_hook(hook);
    watchdog.done.store(true, Ordering::Relaxed);

    let mut total = Row {
        name: "TOTAL".to_owned(),
        ..Row::default()
    };
    for r in rows.iter().filter(|r| !r.informational) {
        total.add(r);
    }

    println!();
    println!("html5lib-tests tokenizer: {}", dir.display());
    if let Some(f) = &filter {
        println!("HTML5LIB_FILTER is active: only tests whose description contains {f:?}");
    }
    println!("{} files", files.len());
    println!();
    print!("{}", table(&rows, &total));

    if !runner.xml_notes.is_empty() {
        println!();
        println!("xmlViolationTests (informational):");
        for note in &runner.xml_notes {
            println!("  {note}");
        }
    }

    if !runner.not_applicable.is_empty() {
        println!();
        println!(
            "{} run(s) not applicable (neither passed nor failed):",
            runner.not_applicable.len()
        );
        for na in &runner.not_applicable {
            println!("  {na}");
        }
    }

    if !runner.failures.is_empty() {
        println!();
        println!("Failures by cause (a run may count under several):");
        print!("{}", failure_groups(&runner.failures));
        println!();
        println!(
            "First {} of {} failing runs:",
            SHOW_FAILURES.min(runner.failures.len()),
            runner.failures.len()
        );
        for f in runner.failures.iter().take(SHOW_FAILURES) {
            print!("{}", show_failure(f));
        }
    }

    assert_eq!(
        total.passed + total.failed + total.not_applicable,
        total.runs,
        "run accounting"
    );
    assert!(
        total.runs > 0,
        "no tests ran (HTML5LIB_FILTER = {filter:?})"
    );
    println!();
    println!("{} passed, {} failed", total.passed, total.failed);
    assert_eq!(
        total.failed, 0,
        "{} passed, {} failed: html5lib tokenizer tests fail (see the table above)",
        total.passed, total.failed
    );
}
