//! Every subcommand: output, messages and exit statuses.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use super::{run_output as run, run_text};

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

#[test]
fn version_and_help_of_every_command() {
    let out = run(&["--version"], b"");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("htmltok {}\n", env!("CARGO_PKG_VERSION"))
    );
    for (command, mentions) in [
        ("links", "--base"),
        ("text", "--format"),
        ("stats", "--errors"),
        ("sniff", "late-meta"),
        ("bench", "--reps"),
    ] {
        let out = run(&[command, "--help"], b"");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{command} --help");
        assert!(stdout.contains(mentions), "{command} --help: {stdout}");
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
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/html5lib-tests/tokenizer")
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

// ---------------------------------------------------------------------------
// The page commands: links, text, stats, sniff.

use testkit::warc;

/// A fresh directory under Cargo's scratch directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// Every line of `stdout` as JSON (each must be valid).
fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}")))
        .collect()
}

/// Runs a page command expected to succeed quietly; its JSON lines.
fn run_ok(args: &[&str]) -> Vec<Value> {
    let (code, stdout, stderr) = run_text(args, b"");
    assert_eq!(code, 0, "htmltok {args:?}: {stderr}");
    assert!(
        stderr.is_empty(),
        "htmltok {args:?} wrote to stderr: {stderr}"
    );
    json_lines(&stdout)
}

const PAGE: &str = r#"<!DOCTYPE html><html><head><title>A  test
page</title><base href="https://example.com/docs/"><style>p{}</style></head>
<body><h1>Hello</h1><p>One <a href="intro.html">two</a><br>three &amp; four</p>
<img src="/logo.png" srcset="a.png 1x, b.png 2x"><a href="javascript:go()">js</a>
<script>var x = "<a href=no>";</script><table><tr><td>c1<td>c2</table></body>"#;

#[test]
fn links_of_a_page() {
    let dir = temp_dir("links");
    let page = dir.join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let p = page.to_str().unwrap();
    let links = run_ok(&["links", p]);
    let offset = |needle: &str| PAGE.find(needle).unwrap();
    assert_eq!(
        links,
        [
            json!({"source": p, "url": "https://example.com/docs/intro.html", "raw": "intro.html",
                   "tag": "a", "attr": "href", "offset": offset("intro.html")}),
            json!({"source": p, "url": "https://example.com/logo.png", "raw": "/logo.png",
                   "tag": "img", "attr": "src", "offset": offset("/logo.png")}),
            json!({"source": p, "url": "https://example.com/docs/a.png", "raw": "a.png",
                   "tag": "img", "attr": "srcset", "offset": offset("a.png 1x")}),
            json!({"source": p, "url": "https://example.com/docs/b.png", "raw": "b.png",
                   "tag": "img", "attr": "srcset", "offset": offset("a.png 1x")}),
            json!({"source": p, "url": null, "raw": "javascript:go()",
                   "tag": "a", "attr": "href", "offset": offset("javascript")}),
        ]
    );
    // TSV; without <base>, a file resolves against --base, or its file: URL.
    let plain = dir.join("plain.html");
    std::fs::write(&plain, "<a href='x y.html'>x</a><a href=javascript:0>").unwrap();
    let plain = plain.to_str().unwrap();
    let (code, tsv, _) = run_text(
        &[
            "links",
            "--format",
            "tsv",
            "--base",
            "http://h.example/d/",
            plain,
        ],
        b"",
    );
    assert_eq!(code, 0);
    assert_eq!(
        tsv,
        format!("{plain}\thttp://h.example/d/x%20y.html\ta\thref\n{plain}\t\ta\thref\n")
    );
    let from_file = run_ok(&["links", plain]);
    let url = from_file[0]["url"].as_str().unwrap();
    assert!(
        url.starts_with("file:///") && url.ends_with("/x%20y.html"),
        "{url}"
    );
    // Standard input has no URL of its own: relative links do not resolve.
    let (code, stdout, _) = run_text(&["links", "-"], b"<a href=rel><a href=http://abs.example/>");
    assert_eq!(code, 0);
    let urls: Vec<_> = json_lines(&stdout)
        .iter()
        .map(|l| l["url"].clone())
        .collect();
    assert_eq!(urls, [json!(null), json!("http://abs.example/")]);
}

#[test]
fn text_of_a_page() {
    let dir = temp_dir("text");
    let page = dir.join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let p = page.to_str().unwrap();
    let want_text = "Hello\nOne two\nthree & four\njs\nc1\tc2";
    assert_eq!(
        run_ok(&["text", p]),
        [
            json!({"source": p, "encoding": "windows-1252", "title": "A test page", "text": want_text})
        ]
    );
    let (code, plain, _) = run_text(&["text", "--format", "plain", p], b"");
    assert_eq!(
        (code, plain.as_str()),
        (0, format!("{want_text}\n").as_str())
    );
    // No title: null. Pages after the first in plain text follow a form feed.
    let (code, stdout, _) = run_text(&["text", "-"], "<p>caf\u{e9}".as_bytes());
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&stdout),
        [json!({"source": "-", "encoding": "UTF-8", "title": null, "text": "caf\u{e9}"})]
    );
    let (_, two, _) = run_text(&["text", "--format=plain", p, "-"], b"<p>second");
    assert_eq!(two, format!("{want_text}\n\x0c\nsecond\n"));
}

#[test]
fn sniff_names_encoding_and_rule() {
    let dir = temp_dir("sniff");
    let pages: [(&str, &[u8], &str); 6] = [
        ("1-bom.html", b"\xef\xbb\xbf<p>x", "UTF-8\tbom"),
        (
            "2-meta.html",
            b"<meta charset=shift_jis><p>\x93\xfa",
            "Shift_JIS\tmeta",
        ),
        ("3-guess.html", "<p>caf\u{e9}".as_bytes(), "UTF-8\tguess"),
        // Undeclared Latin-1 bytes: chardetng's guess, not the default.
        (
            "4-guess-legacy.html",
            b"<p>caf\xe9 cr\xe8me",
            "windows-1252\tguess",
        ),
        (
            "5-late.html",
            b"<!-- a long comment to push the meta past 1024 bytes -->",
            "",
        ),
        // Pure ASCII: nothing to guess from, the default.
        ("6-default.html", b"<p>plain ASCII", "windows-1252\tdefault"),
    ];
    let mut want = String::new();
    for (name, bytes, line) in pages {
        let path = dir.join(name);
        if name.starts_with('5') {
            let mut page = bytes.to_vec();
            page.resize(page.len() + 1100, b' ');
            page.extend_from_slice(b"<meta charset=gbk><p>\xc4\xe3");
            std::fs::write(&path, page).unwrap();
            want.push_str(&format!("{}\tGBK\tlate-meta\n", path.display()));
        } else {
            std::fs::write(&path, bytes).unwrap();
            want.push_str(&format!("{}\t{line}\n", path.display()));
        }
    }
    let d = dir.to_str().unwrap();
    let (code, stdout, stderr) = run_text(&["sniff", d], b"");
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout, want);
    // --encoding is the transport's charset: it wins over <meta>, not over a BOM.
    let (_, stdout, _) = run_text(&["sniff", "--encoding", "koi8-r", d], b"");
    let rules: Vec<&str> = stdout
        .lines()
        .map(|l| l.split_once('\t').unwrap().1)
        .collect();
    assert_eq!(
        rules,
        [
            "UTF-8\tbom",
            "KOI8-R\ttransport",
            "KOI8-R\ttransport",
            "KOI8-R\ttransport",
            "KOI8-R\ttransport",
            "KOI8-R\ttransport"
        ]
    );
    let msg = assert_usage_error(&["sniff", "--encoding", "klingon", d]);
    assert!(msg.contains("klingon"), "{msg}");
}

#[test]
fn stats_count_tokens_and_errors() {
    let dir = temp_dir("stats");
    let a = dir.join("a.html");
    // Tokens: DOCTYPE, <p x y x>, text, comment, </p>, <b>, text; errors:
    // duplicate-attribute, and a reference without its semicolon.
    let page_a = "<!DOCTYPE html><p x=1 y x=2>t&amp<!--c--></p><b>u";
    std::fs::write(&a, page_a).unwrap();
    let b = dir.join("b.html");
    std::fs::write(&b, "<meta charset=utf-8><i>").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    // Without --total the total goes to standard error.
    let (code, stdout, stderr) = run_text(&["stats", "--errors", a, b], b"");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json_lines(&stdout).len(), 2, "{stdout}");
    let on_stderr = json_lines(&stderr);
    assert_eq!(on_stderr.len(), 1, "{stderr}");
    assert_eq!(on_stderr[0]["total"]["pages"], 2);
    let lines = run_ok(&["stats", "--errors", "--total", a, b]);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        json!({"source": a, "encoding": "windows-1252", "rule": "default", "bytes": page_a.len(),
               "tokens": {"doctype": 1, "start_tag": 2, "end_tag": 1, "comment": 1, "text": 2},
               "attributes": 2,
               "errors": {"duplicate-attribute": 1, "missing-semicolon-after-character-reference": 1}})
    );
    assert_eq!(lines[1]["encoding"], "UTF-8");
    assert_eq!(lines[1]["rule"], "meta");
    let total = &lines[2]["total"];
    assert_eq!(total["pages"], 2);
    assert_eq!(total["bytes"], page_a.len() + 23);
    assert_eq!(
        total["tokens"],
        json!({"doctype": 1, "start_tag": 4, "end_tag": 1, "comment": 1, "text": 2})
    );
    assert_eq!(total["attributes"], 3);
    assert_eq!(total["encodings"], json!({"UTF-8": 1, "windows-1252": 1}));
    assert_eq!(
        total["errors"],
        json!({"duplicate-attribute": 1, "missing-semicolon-after-character-reference": 1})
    );
    assert!(total["mb_per_s"].is_number() || total["mb_per_s"].is_null());
    // Without --errors, no errors are counted.
    let lines = run_ok(&["stats", "--total", a]);
    assert!(lines[0].get("errors").is_none(), "{}", lines[0]);
}

#[test]
fn directories_in_order_on_any_number_of_threads() {
    let dir = temp_dir("order");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let mut want = Vec::new();
    for i in 0..60 {
        // Pages of very different sizes, so that threads finish out of order.
        let name = if i % 7 == 0 {
            format!("sub/p{i:02}.htm")
        } else {
            format!("p{i:02}.html")
        };
        let body = format!("<title>{i}</title>{}", "<p>x".repeat((i * 997) % 5000));
        std::fs::write(dir.join(&name), body).unwrap();
        want.push(dir.join(&name).display().to_string());
    }
    // Not pages: passed over in a directory walk.
    std::fs::write(dir.join("notes.txt"), "x").unwrap();
    want.sort();
    let d = dir.to_str().unwrap();
    let one = run_ok(&["text", "--jobs", "1", d]);
    let sources: Vec<&str> = one.iter().map(|l| l["source"].as_str().unwrap()).collect();
    assert_eq!(sources, want);
    for jobs in ["2", "5"] {
        assert_eq!(run_ok(&["text", "--jobs", jobs, d]), one, "--jobs {jobs}");
    }
    assert_usage_error(&["text", "--jobs", "0", d]);
}

#[test]
fn gzip_pages_and_stdin() {
    let dir = temp_dir("gzip");
    let gz = dir.join("page.html.gz");
    std::fs::write(&gz, warc::gzip_member(b"<title>zipped</title><p>in gzip")).unwrap();
    let g = gz.to_str().unwrap();
    let lines = run_ok(&["text", g]);
    assert_eq!(lines[0]["title"], "zipped");
    assert_eq!(lines[0]["text"], "in gzip");
    let (code, stdout, _) = run_text(
        &["text", "-"],
        &warc::gzip_member(b"<title>from stdin</title>"),
    );
    assert_eq!(code, 0);
    assert_eq!(json_lines(&stdout)[0]["title"], "from stdin");
}

/// One line on stderr naming the input and what is wrong with it.
fn assert_reported(stderr: &str, input: &str, what: &str) {
    assert!(
        stderr
            .lines()
            .any(|l| l.contains(input) && l.to_lowercase().contains(what)),
        "no line naming {input:?} with {what:?} in:\n{stderr}"
    );
}

#[test]
fn problems_are_reported_and_skipped() {
    let dir = temp_dir("problems");
    let good = dir.join("good.html");
    std::fs::write(&good, "<title>good</title><a href=x>").unwrap();
    let missing = dir.join("missing.html");
    let empty_dir = dir.join("empty");
    std::fs::create_dir_all(empty_dir.join("deeper")).unwrap();
    std::fs::write(empty_dir.join("deeper/readme.txt"), "no pages here").unwrap();
    let binary = dir.join("image.html");
    std::fs::write(&binary, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let broken_warc = dir.join("broken.warc");
    std::fs::write(&broken_warc, b"this is not a WARC record\r\n\r\n").unwrap();
    let not_a_dir = good.join("child.html");
    let paths = [
        &good,
        &missing,
        &empty_dir,
        &binary,
        &broken_warc,
        &not_a_dir,
    ];
    let args: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    let messages = [
        (&missing, "no such file"),
        (&empty_dir, "no pages"),
        (&binary, "binary"),
        (&broken_warc, "not a warc or arc archive"),
        (&not_a_dir, "not a directory"),
    ];
    for command in ["links", "text", "stats", "sniff"] {
        let mut all = vec![command];
        all.extend(&args);
        let (code, stdout, stderr) = run_text(&all, b"");
        assert_eq!(code, 1, "htmltok {command}: some skipped: {stderr}");
        assert!(
            !stdout.is_empty(),
            "htmltok {command}: the good page is printed"
        );
        if command != "sniff" {
            json_lines(&stdout);
        }
        for (path, what) in &messages {
            assert_reported(&stderr, path.to_str().unwrap(), what);
        }
        let last = stderr.lines().last().unwrap();
        assert!(
            last.contains("1 page processed") && last.contains("5 problems: 5 unreadable"),
            "summary: {last}"
        );
        assert!(
            !stderr.contains("panicked") && !stderr.contains("backtrace"),
            "{stderr}"
        );
        // Nothing processable: exit 2.
        let mut bad = vec![command];
        bad.extend(&args[1..]);
        let (code, stdout, _) = run_text(&bad, b"");
        assert_eq!(code, 2, "htmltok {command} with nothing to process");
        assert!(stdout.is_empty(), "{stdout}");
    }
    // Page commands need an input.
    assert_usage_error(&["links"]);
    assert_usage_error(&["text", "--format", "xml", "x"]);
    assert_usage_error(&["links", "--base", "not a url", "x"]);
}

/// The WARC archive of the tests: gzip per record, a `warcinfo`, an HTML
/// page, an image, a windows-1251 page whose charset is only in the HTTP
/// header, a request, and a last HTML record cut short.
fn test_warc() -> (Vec<u8>, Vec<usize>) {
    let page = |content_type: &str, body: &[u8]| {
        warc::Http::response(200, "OK")
            .header("Content-Type", content_type)
            .body(body)
    };
    let records = [
        warc::Record::warcinfo("software: htmltok tests\r\n"),
        warc::Record::response(
            "http://a.example/dir/page.html",
            &page(
                "text/html; charset=utf-8",
                "<title>Première</title><p>Hello <a href=../up.html>up</a><img src=//cdn.example/i.png>"
                    .as_bytes(),
            ),
        ),
        warc::Record::response(
            "http://a.example/i.png",
            &page("image/png", b"\x89PNG\r\n\x1a\n\0\0"),
        ),
        warc::Record::response(
            "http://b.example/ru/",
            // "Привет" and "мир" in windows-1251; no <meta>.
            &page(
                "text/html; charset=windows-1251",
                b"<title>\xcf\xf0\xe8\xe2\xe5\xf2</title><p>\xec\xe8\xf0 <a href=next>n</a>",
            ),
        ),
        warc::Record::request("http://b.example/ru/", &warc::Http::request("GET", "/ru/")),
        warc::Record::response("http://c.example/cut", &page("text/html", &[b'x'; 5000])),
    ];
    let mut out = Vec::new();
    let last = records.len() - 1;
    let mut starts = Vec::new();
    for (n, record) in records.iter().enumerate() {
        let member = warc::gzip_member(&record.to_bytes_numbered(n));
        starts.push(out.len());
        if n == last {
            // Cut in the middle: inside the record's WARC header, which
            // compresses worse than its 5000 bytes of 'x'.
            out.extend_from_slice(&member[..member.len() / 2]);
        } else {
            out.extend_from_slice(&member);
        }
    }
    (out, starts)
}

#[test]
fn content_codings_cuts_and_head_responses_in_an_archive() {
    use warc::{Archive, Coding, Container, Http, Record};

    // Words that do not repeat: the page's compressed stream is long.
    let page = "<!DOCTYPE html><title>coded</title><p>".to_owned()
        + &(0..2000)
            .map(|i| format!("w{} ", i * 7919 % 10007))
            .collect::<String>();
    let coded = |coding: Coding, cut: Option<usize>| {
        let http = Http::response(200, "OK")
            .header("Content-Type", "text/html")
            .body(&page)
            .content_encoding(coding);
        let whole = http.encoded_body().len();
        let http = http.header("Content-Length", &whole.to_string());
        match cut {
            Some(at) => http.cut_after(at.min(whole / 2)),
            None => http,
        }
    };
    let lying = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .header("Content-Encoding", "gzip")
        .body("<title>as stored</title>");
    let head = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .header("Content-Length", "5000");
    let head_request = Record::request(
        "http://head.example/",
        &Http::request("HEAD", "/").header("Host", "head.example"),
    )
    .field("WARC-Concurrent-To", &warc::record_id(5));
    let records = [
        // The ce-br record: 8 bytes of a cut brotli stream.
        Record::response("http://ce-br.example/", &coded(Coding::Br, Some(8))),
        Record::response("http://lying.example/", &lying),
        Record::response("http://gzip.example/", &coded(Coding::Gzip, None)),
        Record::response(
            "http://half.example/",
            &coded(Coding::Deflate, Some(usize::MAX)),
        ),
        Record::response("http://zero.example/", &coded(Coding::Gzip, Some(0))),
        Record::response("http://head.example/", &head),
        head_request,
    ];
    let dir = temp_dir("codings");
    for container in [Container::Plain, Container::GzipPerRecord] {
        let archive = Archive::warc(container.clone(), &records);
        let path = dir.join(format!("{container:?}.warc"));
        std::fs::write(&path, archive.bytes()).unwrap();
        let w = path.to_str().unwrap();
        let offsets = archive.offsets();
        for jobs in ["1", "2"] {
            let (code, stdout, stderr) = run_text(&["text", "-j", jobs, w], b"");
            let what = format!("{container:?}, -j{jobs}");
            assert_eq!(code, 1, "{what}: {stderr}");
            let pages: Vec<(String, Value, bool)> = json_lines(&stdout)
                .into_iter()
                .map(|p| {
                    let truncated = p["truncated"] == true;
                    (
                        p["source"].as_str().unwrap().to_owned(),
                        p["content_coding"].clone(),
                        truncated,
                    )
                })
                .collect();
            assert_eq!(
                pages,
                [
                    ("http://lying.example/".to_owned(), json!("failed"), false),
                    ("http://gzip.example/".to_owned(), json!("applied"), false),
                    ("http://half.example/".to_owned(), json!("applied"), true),
                    ("http://zero.example/".to_owned(), Value::Null, true),
                ],
                "{what}"
            );
            let lines: Vec<&str> = stderr.lines().collect();
            let at = |n: usize, uri: &str| {
                format!(
                    "htmltok: {w}: record {n} (offset {}, http://{uri}.example/): ",
                    offsets[n - 1]
                )
            };
            assert_eq!(lines.len(), 4, "{what}: {stderr}");
            assert!(
                lines[0].starts_with(&(at(1, "ce-br") + "content coding br: ")),
                "{what}: {stderr}"
            );
            assert!(lines[0].contains("no page"), "{what}: {stderr}");
            assert!(
                lines[1].starts_with(&(at(4, "half") + "its HTTP payload ends")),
                "{what}: {stderr}"
            );
            assert!(
                lines[2].starts_with(&(at(5, "zero") + "its HTTP payload ends")),
                "{what}: {stderr}"
            );
            assert_eq!(
                lines[3],
                "htmltok: 4 pages processed; 2 archive records passed over \
                 (2 request/metadata); 3 problems: 2 truncated, 1 undecodable",
                "{what}"
            );
        }
        let (code, stdout, _) = run_text(&["stats", "--total", w], b"");
        assert_eq!(code, 1);
        let total = super::total_of(&stdout);
        assert_eq!(
            total["problems"],
            json!({"broken": 0, "truncated": 2, "undecodable": 1, "unreadable": 0, "failed": 0})
        );
        assert_eq!(
            (&total["truncated_pages"], &total["coding_failed"]),
            (&json!(2), &json!(1))
        );
    }
}

#[test]
fn warc_archives() {
    let dir = temp_dir("warc");
    let (bytes, starts) = test_warc();
    let path = dir.join("crawl.warc.gz");
    std::fs::write(&path, &bytes).unwrap();
    let w = path.to_str().unwrap();
    let check_stderr = |stderr: &str| {
        // Cut in its header, the record is named by its place in the
        // archive and its gzip member's offset.
        assert_reported(
            stderr,
            &format!("crawl.warc.gz: record 6 (offset {})", starts[5]),
            "the archive ends inside a warc header",
        );
        let last = stderr.lines().last().unwrap();
        assert_eq!(
            last,
            "htmltok: 2 pages processed; 3 archive records passed over \
             (1 non-HTML, 2 request/metadata); 1 problem: 1 truncated",
        );
    };

    let (code, stdout, stderr) = run_text(&["links", w], b"");
    assert_eq!(code, 1, "{stderr}");
    check_stderr(&stderr);
    let links: Vec<_> = json_lines(&stdout)
        .into_iter()
        .map(|l| (l["source"].clone(), l["url"].clone()))
        .collect();
    assert_eq!(
        links,
        [
            (
                json!("http://a.example/dir/page.html"),
                json!("http://a.example/up.html")
            ),
            (
                json!("http://a.example/dir/page.html"),
                json!("http://cdn.example/i.png")
            ),
            (
                json!("http://b.example/ru/"),
                json!("http://b.example/ru/next")
            ),
        ]
    );
    // --base does not replace a record's own URL.
    let (_, stdout, _) = run_text(&["links", "--base", "http://other.example/", w], b"");
    assert!(stdout.contains("http://a.example/up.html"), "{stdout}");

    let (code, stdout, stderr) = run_text(&["text", w], b"");
    assert_eq!(code, 1);
    check_stderr(&stderr);
    // Each page says where it came from: the archive, its gzip member's
    // offset, its record ID, its HTTP status.
    assert_eq!(
        json_lines(&stdout),
        [
            json!({"source": "http://a.example/dir/page.html", "encoding": "UTF-8",
                   "title": "Première", "text": "Hello up", "warc": w, "offset": starts[1],
                   "record_id": "<urn:uuid:00000000-0000-4000-8000-000000000001>",
                   "status": 200, "truncated": false, "content_coding": null}),
            json!({"source": "http://b.example/ru/", "encoding": "windows-1251",
                   "title": "Привет", "text": "мир n", "warc": w, "offset": starts[3],
                   "record_id": "<urn:uuid:00000000-0000-4000-8000-000000000003>",
                   "status": 200, "truncated": false, "content_coding": null}),
        ]
    );

    let (code, stdout, stderr) = run_text(&["sniff", w], b"");
    assert_eq!(code, 1);
    check_stderr(&stderr);
    assert_eq!(
        stdout,
        "http://a.example/dir/page.html\tUTF-8\ttransport\nhttp://b.example/ru/\twindows-1251\ttransport\n"
    );

    let (code, stdout, stderr) = run_text(&["stats", "--total", w], b"");
    assert_eq!(code, 1);
    check_stderr(&stderr);
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["encoding"], "windows-1251");
    assert_eq!(lines[1]["offset"], starts[3]);
    let total = &lines[2]["total"];
    assert_eq!(total["pages"], 2);
    assert_eq!(total["skipped"], 1);
    assert_eq!(total["non_html_records"], 3);
    assert_eq!(
        total["passed_over"],
        json!({"non-HTML": 1, "revisit": 0, "request/metadata": 2})
    );
    assert_eq!(
        total["problems"],
        json!({"broken": 0, "truncated": 1, "undecodable": 0, "unreadable": 0, "failed": 0})
    );
    assert_eq!(total["encodings"], json!({"UTF-8": 1, "windows-1251": 1}));

    // The same archive uncompressed, named .warc, and on standard input.
    let plain: Vec<u8> = {
        use std::io::Read;
        let mut out = Vec::new();
        let _ = flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out);
        out
    };
    let plain_path = dir.join("crawl.warc");
    std::fs::write(&plain_path, &plain).unwrap();
    for (args, stdin) in [
        (vec!["sniff", plain_path.to_str().unwrap()], &[][..]),
        (vec!["sniff", "-"], &bytes[..]),
    ] {
        let (_, stdout, stderr) = run_text(&args, stdin);
        assert!(
            stdout.starts_with("http://a.example/dir/page.html\tUTF-8\ttransport\nhttp://b.example/ru/\twindows-1251\ttransport\n"),
            "{args:?}: {stdout}\n{stderr}"
        );
    }
}

#[test]
fn a_closed_output_ends_the_run() {
    let dir = temp_dir("closed");
    for i in 0..400 {
        std::fs::write(dir.join(format!("p{i:03}.html")), "<a href=x>".repeat(2000)).unwrap();
    }
    for jobs in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_htmltok"))
            .args(["links", "--jobs", jobs, dir.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start htmltok");
        let mut first = [0u8; 1];
        std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
        drop(child.stdout.take());
        // It must end on its own (a broken pipe), not hang.
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > std::time::Duration::from_secs(60) {
                let _ = child.kill();
                panic!("htmltok --jobs {jobs} did not end after its output was closed");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        // A closed output is the reader having read enough: not an error.
        assert_eq!(status.code(), Some(0), "--jobs {jobs}");
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        assert!(stderr.is_empty(), "--jobs {jobs}: {stderr}");
    }
}

/// A page of about `len` bytes of letters that compress to about 60%,
/// so that a few dozen records make an archive of several segments
/// (`src/bin/htmltok/segment.rs` cuts near every 256 KiB).
fn noisy_page(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut page = format!("<title>page {seed}</title><p>").into_bytes();
    while page.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        page.push(b'a' + (x % 26) as u8);
        if x % 7 == 0 {
            page.push(b' ');
        }
        if x % 997 == 0 {
            page.extend_from_slice(format!("<a href=/l{}>x</a>", x % 100).as_bytes());
        }
    }
    page
}

/// `stderr` with what a broken record's gzip error says left out: the
/// two gzip readers word it differently.
fn without_gzip_detail(stderr: &str) -> String {
    let mut out = String::new();
    for line in stderr.lines() {
        match (line.find("broken WARC record ("), line.rfind("); the rest")) {
            (Some(start), Some(end)) if start < end => {
                out.push_str(&line[..start + "broken WARC record (".len()]);
                out.push_str(&line[end..]);
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Runs `htmltok ARGS...` on the archive at `path` and on the same bytes
/// on standard input (read in order, by another reader), and checks that
/// they say the same, with the input's name made `-`.
fn assert_reads_in_order(what: &str, path: &std::path::Path) {
    let bytes = std::fs::read(path).unwrap();
    let name = path.to_str().unwrap();
    for command in ["links", "text"] {
        for jobs in ["1", "2"] {
            let (code, stdout, stderr) = run_text(&[command, "--jobs", jobs, name], b"");
            let (want_code, want_stdout, want_stderr) =
                run_text(&[command, "--jobs", jobs, "-"], &bytes);
            let stdout = stdout.replace(name, "-");
            let stderr = without_gzip_detail(&stderr.replace(name, "-"));
            let want_stderr = without_gzip_detail(&want_stderr);
            assert_eq!(code, want_code, "{what}: {command} -j{jobs}\n{stderr}");
            assert!(
                stdout == want_stdout,
                "{what}: {command} -j{jobs}: {} lines, {} read in order",
                stdout.lines().count(),
                want_stdout.lines().count()
            );
            assert_eq!(stderr, want_stderr, "{what}: {command} -j{jobs}");
        }
    }
}

#[test]
fn an_archive_on_standard_input_is_read_as_it_comes() {
    // A record the reader skips (no Content-Length), then a page longer
    // than what is looked at to tell an archive: its problem is said while
    // standard input is still open, before the rest of the archive is
    // written. An archive read whole first would say nothing until then.
    let lost = "WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/html\r\n\r\n<p>lost\r\n\r\n";
    let page = |uri: &str, body: &str| {
        format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: {uri}\r\n\
             Content-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        )
    };
    let first = format!(
        "{lost}{}",
        page("http://a.example/", &"<p>a".repeat(40_000))
    );
    let rest = page("http://b.example/", "<p>b");
    let mut child = Command::new(env!("CARGO_BIN_EXE_htmltok"))
        .args(["text", "--format", "jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start htmltok");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(first.as_bytes()).unwrap();
    let stderr = child.stderr.take().unwrap();
    let (said, line) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
        let _ = said.send(lines.next().and_then(Result::ok));
        lines.for_each(drop);
    });
    let first_line = line.recv_timeout(std::time::Duration::from_secs(60));
    stdin.write_all(rest.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().expect("wait for htmltok");
    let first_line = first_line
        .expect("a problem said before standard input ends")
        .expect("a line");
    assert!(
        first_line.starts_with(
            "htmltok: -: record 1 (offset 0): a WARC record without a valid Content-Length"
        ),
        "{first_line}"
    );
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&String::from_utf8(out.stdout).unwrap());
    let sources: Vec<&str> = lines
        .iter()
        .map(|l| l["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["http://a.example/", "http://b.example/"]);
}

#[test]
fn warc_segments_read_as_in_order() {
    use flate2::{write::GzEncoder, Compression};
    let dir = temp_dir("segments");
    let uris: Vec<String> = (0..48).map(|n| format!("http://s.example/{n}")).collect();
    let pages: Vec<Vec<u8>> = (0..48).map(|n| noisy_page(n, 40_000)).collect();
    let response = |n: usize| {
        let http = warc::Http::response(200, "OK")
            .header("Content-Type", "text/html")
            .body(&pages[n]);
        warc::Record::response(&uris[n], &http).to_bytes_numbered(n)
    };
    let records: Vec<Vec<u8>> = (0..48).map(response).collect();
    let gzip = |bytes: &[u8], level| {
        let mut gz = GzEncoder::new(Vec::new(), level);
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    };
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };

    // A member per record, as Common Crawl writes: several segments.
    let per_record: Vec<u8> = records.iter().flat_map(|r| warc::gzip_member(r)).collect();
    assert!(per_record.len() > 1 << 20, "{}", per_record.len());
    let path = write("per-record.warc.gz", &per_record);
    assert_reads_in_order("per record", &path);
    let lines = json_lines(&run_text(&["text", path.to_str().unwrap()], b"").1);
    assert_eq!(lines.len(), 48);
    assert!((0..48).all(|n| lines[n]["source"] == uris[n].as_str()));

    // The whole archive as one gzip stream: one member of whole records.
    let all: Vec<u8> = records.concat();
    assert_reads_in_order(
        "one stream",
        &write("one.warc.gz", &gzip(&all, Compression::default())),
    );

    // Members cut across records (blocks of 64 KiB), after a first half
    // written per record: segments, then the rest read in order.
    let mut mixed: Vec<u8> = records[..24]
        .iter()
        .flat_map(|r| warc::gzip_member(r))
        .collect();
    for block in records[24..].concat().chunks(64 << 10) {
        mixed.extend_from_slice(&gzip(block, Compression::default()));
    }
    assert_reads_in_order("blocks", &write("blocks.warc.gz", &mixed));

    // A guess that is not a member start: a record stored uncompressed
    // whose payload is a gzip member inflating to a WARC record, across
    // where the first segment's guess is looked for. Also a page without
    // a target URI (named by its number, which only reading in order
    // knows) and a truncated member in the middle.
    let inner_page = warc::Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .body("<title>not in the archive</title>");
    let inner = warc::gzip_member(
        &warc::Record::response("http://inner.example/", &inner_page).to_bytes_numbered(99),
    );
    let mut stored_body = vec![b'.'; 200_000];
    stored_body.extend_from_slice(&inner);
    stored_body.extend(std::iter::repeat_n(b'.', 150_000));
    let stored_page = warc::Http::response(200, "OK")
        .header("Content-Type", "application/gzip")
        .body(&stored_body);
    let stored = warc::Record::response("http://s.example/stored.warc.gz", &stored_page)
        .to_bytes_numbered(100);
    let unnamed = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Type: text/html\r\n\
        Content-Length: 9\r\n\r\n<p>no URI\r\n\r\n";
    let mut tricky: Vec<u8> = records[..4]
        .iter()
        .flat_map(|r| warc::gzip_member(r))
        .collect();
    assert!(tricky.len() < 200 << 10);
    tricky.extend_from_slice(&gzip(&stored, Compression::none()));
    let mut unnamed_archive = tricky.clone();
    for (n, record) in records[4..].iter().enumerate() {
        if n == 20 {
            unnamed_archive.extend_from_slice(&warc::gzip_member(unnamed));
        }
        tricky.extend_from_slice(&warc::gzip_member(record));
        unnamed_archive.extend_from_slice(&warc::gzip_member(record));
    }
    assert_reads_in_order("stored gzip", &write("stored.warc.gz", &tricky));
    // The unnamed page is still named by its number in the archive.
    let path = write("unnamed.warc.gz", &unnamed_archive);
    assert_reads_in_order("unnamed page", &path);
    let (_, stdout, _) = run_text(&["text", path.to_str().unwrap()], b"");
    let name = format!("{}: record 26", path.display());
    assert!(
        json_lines(&stdout)
            .iter()
            .any(|l| l["source"] == name.as_str() && l["text"] == "no URI"),
        "no page named {name:?}"
    );

    let mut cut = per_record.clone();
    let middle = per_record.len() / 2;
    cut.drain(middle..middle + 1000);
    let path = write("cut.warc.gz", &cut);
    assert_reads_in_order("cut", &path);
    let (code, _, stderr) = run_text(&["links", path.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{stderr}");
}

/// A UTF-16 page without a byte order mark has NUL bytes all through its
/// ASCII: the binary-file test would refuse it, but when `--encoding`
/// names UTF-16 the user has said what it is, and a browser told so by
/// the transport decodes it as UTF-16.
#[test]
fn a_page_declared_utf16_without_a_bom_is_read() {
    let dir = temp_dir("utf16");
    let page = "<title>Grüße</title><a href=/x>";
    let le: Vec<u8> = page.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = page.encode_utf16().flat_map(u16::to_be_bytes).collect();
    for (name, bytes, label) in [
        ("le.html", &le, "utf-16le"),
        ("be.html", &be, "utf-16be"),
        ("le2.html", &le, "utf-16"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        let (code, stdout, stderr) = run_text(&["text", "--encoding", label, path], b"");
        assert_eq!(code, 0, "{label}: {stderr}");
        assert_eq!(json_lines(&stdout)[0]["title"], "Grüße", "{label}");
        // Undeclared, the same bytes are still a binary file.
        let (code, _, stderr) = run_text(&["text", path], b"");
        assert_eq!(code, 2, "{label}: {stderr}");
        assert_reported(&stderr, path, "binary");
        // Declared as something else, too.
        let (code, _, stderr) = run_text(&["text", "--encoding", "utf-8", path], b"");
        assert_eq!(code, 2, "{label}: {stderr}");
        assert_reported(&stderr, path, "binary");
    }
}

/// A `.gz` page cut short (a download that died) is processed as far as
/// it inflates, as a browser shows it and as an archive's cut page is,
/// with a `truncated` problem: it was an unreadable input, its page lost.
#[test]
fn a_cut_gzip_page_is_processed_as_far_as_it_goes() {
    let dir = temp_dir("cut-gz");
    let page = format!("<title>kept</title>{}", "<p>more text ".repeat(2000));
    let member = warc::gzip_member(page.as_bytes());
    let cut = dir.join("cut.html.gz");
    std::fs::write(&cut, &member[..member.len() / 2]).unwrap();
    let path = cut.to_str().unwrap();
    let (code, stdout, stderr) = run_text(&["text", path], b"");
    assert_eq!(code, 1, "{stderr}");
    let pages = json_lines(&stdout);
    assert_eq!(pages.len(), 1, "{stdout}");
    assert_eq!(pages[0]["title"], "kept");
    let text = pages[0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("more text") && text.len() < page.len() / 2,
        "{}",
        text.len()
    );
    assert_reported(&stderr, path, "truncated gzip");
    let last = stderr.lines().last().unwrap();
    assert!(
        last.contains("1 page processed") && last.contains("1 problem: 1 truncated"),
        "{last}"
    );
    // Cut inside its header, nothing inflates: still an unreadable input.
    std::fs::write(&cut, &member[..5]).unwrap();
    let (code, stdout, stderr) = run_text(&["text", path], b"");
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert_reported(&stderr, path, "truncated gzip");
}

/// A `.gz` page that inflates past the largest page read (256 MiB, a
/// bomb or no page) is cut there with a `truncated` problem; it was cut
/// in silence.
#[test]
fn a_gzip_page_past_the_limit_is_cut_with_a_problem() {
    use std::io::Write;
    let dir = temp_dir("gz-limit");
    let big = dir.join("big.html.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"<title>big</title>").unwrap();
    let block = vec![b'a'; 1 << 20];
    for _ in 0..257 {
        gz.write_all(&block).unwrap();
    }
    std::fs::write(&big, gz.finish().unwrap()).unwrap();
    let path = big.to_str().unwrap();
    let (code, stdout, stderr) = run_text(&["stats", path], b"");
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json_lines(&stdout)[0]["bytes"], 256 << 20);
    assert_reported(&stderr, path, "larger than the largest page");
    assert!(
        stderr
            .lines()
            .last()
            .unwrap()
            .contains("1 problem: 1 truncated"),
        "{stderr}"
    );
}

/// Bytes after a `.gz` page's last member that are not gzip (a writer's
/// junk): `gzip -d` gives the page and warns, and so does `htmltok`; the
/// page was lost. A member broken inside gives what inflated before.
#[test]
fn a_gzip_page_with_junk_after_it_is_processed_with_a_problem() {
    let dir = temp_dir("gz-junk");
    let mut bytes = warc::gzip_member(b"<title>whole</title><p>all of it");
    bytes.extend_from_slice(b"junk after the member\r\n");
    let junk = dir.join("junk.html.gz");
    std::fs::write(&junk, &bytes).unwrap();
    let path = junk.to_str().unwrap();
    let (code, stdout, stderr) = run_text(&["text", path], b"");
    assert_eq!(code, 1, "{stderr}");
    let pages = json_lines(&stdout);
    assert_eq!(
        (pages[0]["title"].as_str(), pages[0]["text"].as_str()),
        (Some("whole"), Some("all of it"))
    );
    assert_reported(&stderr, path, "broken gzip stream");
    let last = stderr.lines().last().unwrap();
    assert!(
        last.contains("1 page processed") && last.contains("1 problem: 1 broken"),
        "{last}"
    );
    // Nothing inflated at all: an unreadable input, as before.
    std::fs::write(&junk, b"\x1f\x8bnot gzip at all").unwrap();
    let (code, stdout, stderr) = run_text(&["text", path], b"");
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
}
