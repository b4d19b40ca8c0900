//! The `htmltok` binary: output of `htmltok tokens`, and exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

/// Runs `htmltok ARGS` with `stdin` as standard input.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_htmltok"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start htmltok");
    // A failing command may exit before reading its input; ignore EPIPE.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().expect("wait for htmltok")
}

/// Runs a command expected to succeed and parses its single line of JSON.
fn run_json(args: &[&str], stdin: &[u8]) -> Value {
    let out = run(args, stdin);
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    assert!(
        out.status.success(),
        "htmltok {args:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.ends_with('\n') && stdout.matches('\n').count() == 1,
        "output should be one line: {stdout:?}"
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout:?}"))
}

/// Asserts exit status 2, nothing on stdout, a message on stderr; returns it.
fn assert_usage_error(args: &[&str]) -> String {
    let out = run(args, b"<p>");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "htmltok {args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "htmltok {args:?} wrote to stdout");
    assert!(!stderr.trim().is_empty(), "htmltok {args:?}: no message");
    stderr
}

/// A file under Cargo's scratch directory for integration tests.
fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("write temp file");
    path
}

#[test]
fn tokens_driven_from_stdin() {
    let expected = json!([["StartTag", "a", {"href": "x"}], ["Character", "hi"], ["EndTag", "a"]]);
    assert_eq!(
        run_json(&["tokens", "--driven"], b"<a href=x>hi</a>"),
        expected
    );
    assert_eq!(
        run_json(&["tokens", "--driven", "-"], b"<a href=x>hi</a>"),
        expected
    );
    // --driven is currently the only mode: the same without the flag.
    assert_eq!(run_json(&["tokens"], b"<a href=x>hi</a>"), expected);
}

#[test]
fn tokens_from_file() {
    let path = temp_file(
        "doc.html",
        b"<!DOCTYPE html><p class='a b' hidden>x &amp; y<br/><!--c-->",
    );
    let got = run_json(&["tokens", "--driven", path.to_str().unwrap()], b"");
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        got,
        json!([
            ["DOCTYPE", "html", null, null, true],
            ["StartTag", "p", {"class": "a b", "hidden": ""}],
            ["Character", "x & y"],
            ["StartTag", "br", {}, true],
            ["Comment", "c"]
        ])
    );
}

#[test]
fn tokens_invalid_utf8_becomes_replacement_character() {
    assert_eq!(
        run_json(&["tokens"], b"caf\xE9"),
        json!([["Character", "caf\u{FFFD}"]])
    );
}

#[test]
fn tokens_with_errors() {
    // html5lib-tests test1.test "Repeated attr": `<h a='b' a='d'>` reports
    // duplicate-attribute at col 11, the `=` after the repeated name.
    assert_eq!(
        run_json(&["tokens", "--errors"], b"<h a='b' a='d'>"),
        json!({
            "output": [["StartTag", "h", {"a": "b"}]],
            "errors": [{"code": "duplicate-attribute", "line": 1, "col": 11}]
        })
    );
    // So in `<a a=1 a=2>` it is the second `=`, col 9.
    assert_eq!(
        run_json(&["tokens", "--driven", "--errors"], b"<a a=1 a=2>"),
        json!({
            "output": [["StartTag", "a", {"a": "1"}]],
            "errors": [{"code": "duplicate-attribute", "line": 1, "col": 9}]
        })
    );
    // No errors: an empty list, not a missing key.
    assert_eq!(
        run_json(&["tokens", "--errors"], b"<p>"),
        json!({"output": [["StartTag", "p", {}]], "errors": []})
    );
    // CRLF is one line break; eof-in-comment is reported one past the last
    // character (html5lib-tests test1.test: `<!--comment` -> col 12).
    assert_eq!(
        run_json(&["tokens", "--errors"], b"a\r\n<!--x"),
        json!({
            "output": [["Character", "a\n"], ["Comment", "x"]],
            "errors": [{"code": "eof-in-comment", "line": 2, "col": 6}]
        })
    );
}

#[test]
fn tokens_initial_state_and_last_start_tag() {
    let expected = json!([
        ["Character", "a<b>&</x>"],
        ["EndTag", "title"],
        ["Character", "z"]
    ]);
    let input = b"a<b>&amp;</x></title>z";
    assert_eq!(
        run_json(
            &[
                "tokens",
                "--driven",
                "--initial-state",
                "RCDATA state",
                "--last-start-tag",
                "title"
            ],
            input
        ),
        expected
    );
    // The --flag=value form.
    assert_eq!(
        run_json(
            &[
                "tokens",
                "--initial-state=RCDATA state",
                "--last-start-tag=title",
                "-"
            ],
            input
        ),
        expected
    );
    // Without a last start tag, no end tag is appropriate.
    assert_eq!(
        run_json(
            &["tokens", "--initial-state", "RAWTEXT state"],
            b"&amp;</title>"
        ),
        json!([["Character", "&amp;</title>"]])
    );
}

#[test]
fn tokens_encoding_decodes_as_a_browser() {
    // "Привет" in windows-1251, declared by a Content-Type pragma.
    let page = b"<meta http-equiv=Content-Type content='text/html; charset=windows-1251'><p>\xcf\xf0\xe8\xe2\xe5\xf2";
    let meta = json!(["StartTag", "meta", {"http-equiv": "Content-Type", "content": "text/html; charset=windows-1251"}]);
    let expected = json!([meta, ["StartTag", "p", {}], ["Character", "Привет"]]);
    let path = temp_file("cp1251.html", page);
    let file = path.to_str().unwrap();
    assert_eq!(
        run_json(&["tokens", "--encoding", "sniff", file], b""),
        expected
    );
    assert_eq!(
        run_json(
            &["tokens", "--encoding=sniff", "--chunk-size", "3", file],
            b""
        ),
        expected
    );
    assert_eq!(
        run_json(
            &["tokens", "--encoding", "sniff", "--chunk-size", "2", "-"],
            page
        ),
        expected
    );
    // A transport label wins over the page's declaration: KOI8-R reads
    // the same bytes as other letters.
    let koi8 = run_json(&["tokens", "--encoding", "KOI8-R", file], b"");
    assert_eq!(koi8[2], json!(["Character", "оПХБЕР"]));
    assert_eq!(
        run_json(&["tokens", "--encoding", "koi8-r", "-"], page),
        koi8
    );
    // Without --encoding the input is UTF-8, as before.
    let plain = run_json(&["tokens", file], b"");
    assert_eq!(plain[2], json!(["Character", "\u{FFFD}".repeat(6)]));
    let _ = std::fs::remove_file(&path);
    // Errors are positioned in the decoded text (line 1, col 1 is `<`).
    let out = run_json(
        &["tokens", "--errors", "--encoding", "sniff", "-"],
        b"\xef\xbb\xbf<p\x00>",
    );
    assert_eq!(
        out["errors"][0],
        json!({"code": "unexpected-null-character", "line": 1, "col": 3})
    );
    let msg = assert_usage_error(&["tokens", "--encoding", "klingon"]);
    assert!(
        msg.contains("klingon"),
        "message should name the label: {msg}"
    );
    assert_usage_error(&["tokens", "--encoding"]);
}

#[test]
fn usage_errors_exit_2() {
    assert_usage_error(&["tokens", "--bogus"]);
    assert_usage_error(&["tokens", "-x"]);
    let msg = assert_usage_error(&["tokens", "--initial-state", "Nowhere state"]);
    assert!(
        msg.contains("Nowhere state"),
        "message should name the state: {msg}"
    );
    assert_usage_error(&["tokens", "--initial-state"]);
    assert_usage_error(&["tokens", "--last-start-tag"]);
    assert_usage_error(&["tokens", "--errors=yes"]);
    assert_usage_error(&["frobnicate"]);
    let msg = assert_usage_error(&[]);
    assert!(
        msg.contains("tokens"),
        "no subcommand should print usage: {msg}"
    );
}

#[test]
fn unreadable_file_exits_2() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-no-such-file.html");
    let msg = assert_usage_error(&["tokens", missing.to_str().unwrap()]);
    assert!(
        msg.contains("cli-no-such-file.html"),
        "message should name the file: {msg}"
    );
    let a = temp_file("a.html", b"a");
    let msg = assert_usage_error(&["tokens", a.to_str().unwrap(), "-"]);
    let _ = std::fs::remove_file(&a);
    assert!(msg.contains("more than one"), "{msg}");
}

#[test]
fn help() {
    for args in [&["help"][..], &["--help"], &["tokens", "--help"]] {
        let out = run(args, b"");
        assert!(out.status.success(), "htmltok {args:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.contains("htmltok tokens"),
            "htmltok {args:?}: {stdout}"
        );
        assert!(
            stdout.contains("--initial-state"),
            "htmltok {args:?}: {stdout}"
        );
    }
}

/// The command line reproduces html5lib-tests' expected output: a sample of
/// the suite (every 25th test, in each of its initial states) through
/// `htmltok tokens --driven --errors --initial-state S --last-start-tag T`,
/// reading from a file and, for half of them, from standard input in
/// 3-byte chunks.
#[test]
fn tokens_reproduce_a_sample_of_html5lib_tests() {
    let dir = std::env::var("HTML5LIB_TESTS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/html5lib-tests/tokenizer")
        });
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "html5lib-tests not found at {} ({e}); set HTML5LIB_TESTS",
                dir.display()
            )
        })
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .collect();
    files.sort();
    let mut checked = 0;
    for file in files {
        let suite: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let Some(tests) = suite["tests"].as_array() else {
            continue;
        };
        for test in tests.iter().step_by(25) {
            if test.get("doubleEscaped").is_some() {
                continue; // needs \uHHHH decoding; the library runner covers these
            }
            let input = test["input"].as_str().unwrap();
            let states: Vec<&str> = match test.get("initialStates") {
                Some(v) => v
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap())
                    .collect(),
                None => vec!["Data state"],
            };
            for state in states {
                let mut args = vec!["tokens", "--driven", "--errors", "--initial-state", state];
                if let Some(tag) = test.get("lastStartTag").and_then(Value::as_str) {
                    args.extend(["--last-start-tag", tag]);
                }
                let got = if checked % 2 == 0 {
                    let path = temp_file("h5l.html", input.as_bytes());
                    args.push(path.to_str().unwrap());
                    run_json(&args, b"")
                } else {
                    args.extend(["--chunk-size", "3", "-"]);
                    run_json(&args, input.as_bytes())
                };
                let want_errors = test.get("errors").cloned().unwrap_or(json!([]));
                assert_eq!(
                    got["output"],
                    join_characters(&test["output"]),
                    "{}: {input:?}",
                    test["description"]
                );
                assert_eq!(
                    got["errors"], want_errors,
                    "{}: {input:?}",
                    test["description"]
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 250, "only {checked} runs checked");
}

/// html5lib-tests' expected output with adjacent Character tokens joined.
fn join_characters(tokens: &Value) -> Value {
    let mut out: Vec<Value> = Vec::new();
    for t in tokens.as_array().unwrap() {
        if t[0] == "Character" {
            if let Some(last) = out.last_mut() {
                if last[0] == "Character" {
                    let joined = format!("{}{}", last[1].as_str().unwrap(), t[1].as_str().unwrap());
                    last[1] = Value::String(joined);
                    continue;
                }
            }
        }
        out.push(t.clone());
    }
    Value::Array(out)
}
