//! The page commands at a browser's edges: `links` with and
//! without scripting, a legacy page's queries, and a charset declared late
//! (`sniff`, `text`).

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// Runs `htmltok ARGS`, which must succeed; its standard output.
fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_htmltok"))
        .args(args)
        .output()
        .expect("start htmltok");
    assert!(
        out.status.success(),
        "htmltok {args:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// A file under Cargo's scratch directory for integration tests.
fn page_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("edges-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("write the page");
    path
}

/// Every line of `stdout` as JSON.
fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect()
}

#[test]
fn links_inside_noscript_with_no_scripting() {
    let page = page_file(
        "lazy.html",
        b"<img src=/placeholder.gif data-src=/photo.jpg>\
          <noscript><img src=/photo.jpg></noscript><a href=/next>",
    );
    let page = page.to_str().unwrap();
    let raws = |args: &[&str]| -> Vec<String> {
        json_lines(&run(args))
            .iter()
            .map(|l| l["raw"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(raws(&["links", page]), ["/placeholder.gif", "/next"]);
    assert_eq!(
        raws(&["links", "--no-scripting", page]),
        ["/placeholder.gif", "/photo.jpg", "/next"]
    );
    // The fields are the same either way.
    let line = &json_lines(&run(&["links", "--no-scripting", page]))[1];
    let mut keys: Vec<_> = line.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["attr", "offset", "raw", "source", "tag", "url"]);
    // The help says what the default is, and why.
    let help = run(&["links", "--help"]);
    assert!(help.contains("--no-scripting"), "{help}");
    assert!(help.contains("scripting on"), "{help}");
}

#[test]
fn links_of_a_shift_jis_page_have_shift_jis_queries() {
    // 日本語 in Shift_JIS is 93 FA 96 7B 8C EA (0x7B is `{`, which the URL
    // Standard leaves as it is in a query); the path stays UTF-8.
    let page = page_file(
        "sjis.html",
        b"<meta charset=shift_jis><a href='/\x93\xfa/?q=\x93\xfa\x96\x7b\x8c\xea'>",
    );
    let out = run(&[
        "links",
        "--base",
        "https://example.jp/",
        "--format",
        "tsv",
        page.to_str().unwrap(),
    ]);
    let url = out.trim_end().split('\t').nth(1).unwrap();
    assert_eq!(url, "https://example.jp/%E6%97%A5/?q=%93%FA%96{%8C%EA");
}

/// A page whose ISO-8859-2 title comes before its `<meta>`, which comes
/// after 1024 bytes, in the head. Its bytes read as French in
/// windows-1252, which is what the guess takes them for.
fn late_page() -> Vec<u8> {
    let mut page = b"<html><head><title>Caf\xe9 cr\xe8me br\xfbl\xe9e</title><style>".to_vec();
    page.extend(std::iter::repeat_n(b' ', 1100));
    page.extend_from_slice(b"</style><meta charset=iso-8859-2></head><body>fra\xeeche");
    page
}

#[test]
fn a_late_charset_is_followed() {
    let page = page_file("late.html", &late_page());
    let page = page.to_str().unwrap();
    let sniffed = run(&["sniff", page]);
    let fields: Vec<_> = sniffed.trim_end().split('\t').collect();
    assert_eq!(fields[1..], ["ISO-8859-2", "changed-by-meta"]);
    let text = &json_lines(&run(&["text", page]))[0];
    assert_eq!(text["encoding"], "ISO-8859-2");
    // è (0xE8) is č in ISO-8859-2, û (0xFB) ű; é and î are the same.
    assert_eq!(text["title"], "Café crčme brűlée");
    assert_eq!(text["text"], "fraîche");
    let stats = &json_lines(&run(&["stats", page]))[0];
    assert_eq!(stats["rule"], "changed-by-meta");
    // The transport's charset is certain: nothing changes it.
    let sniffed = run(&["sniff", "--encoding", "windows-1250", page]);
    assert!(
        sniffed.ends_with("\twindows-1250\ttransport\n"),
        "{sniffed}"
    );
}
