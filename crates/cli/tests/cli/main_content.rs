//! `htmltok text --main` and its options over the repository's hand-made
//! pages (`corpus/main/`): the same output shapes as `text`, the library's
//! main content in them (files, directories, archives), usage errors for
//! options without the main content; and that content chosen as a reader
//! would choose it.

use std::path::PathBuf;

use htmltok::extract::{MainOptions, Page};
use serde_json::Value;
use testkit::warc;

use super::{run, run_text};

/// The repository's `corpus/main/`.
fn pages_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/main")
}

fn page_path(name: &str) -> String {
    let path = pages_dir().join(name);
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// `htmltok ARGS`, which must succeed quietly: its standard output.
#[track_caller]
fn run_ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!((code, stderr.as_str()), (0, ""), "htmltok {args:?}");
    stdout
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}")))
        .collect()
}

/// The library's main content of the file `path` with `options`.
fn library(path: &str, options: MainOptions) -> String {
    let bytes = std::fs::read(path).unwrap();
    Page::decode(&bytes, None).main_content(options).text
}

/// The `corpus/main/` pages, as `text` names them when given the directory.
fn pages() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(pages_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".html"))
        .collect();
    names.sort();
    assert!(names.len() >= 6, "{names:?}");
    names
}

#[test]
fn main_gives_the_library_main_content_in_texts_json_lines() {
    let dir = pages_dir();
    let dir = dir.to_str().unwrap();
    let all = json_lines(&run_ok(&["text", dir]));
    let main = json_lines(&run_ok(&["text", "--main", dir]));
    assert_eq!(main.len(), pages().len());
    assert_eq!(main.len(), all.len());
    for (main, all) in main.iter().zip(&all) {
        let source = main["source"].as_str().unwrap();
        // The keys and values of `text`, but for the text.
        let mut same = main.clone();
        same["text"] = all["text"].clone();
        assert_eq!(&same, all, "{source}");
        assert_eq!(
            main["text"],
            library(source, MainOptions::new()),
            "{source}"
        );
    }
    // Each option reaches the library.
    let p = page_path("comments.html");
    for (args, options) in [
        (&["--comments"][..], MainOptions::new().comments(true)),
        (&["--markdown"], MainOptions::new().markdown(true)),
        (
            &["--markdown", "--links"],
            MainOptions::new().markdown(true).links(true),
        ),
        (
            &["--comments", "--markdown"],
            MainOptions::new().comments(true).markdown(true),
        ),
    ] {
        let mut all_args = vec!["text", "--main"];
        all_args.extend(args);
        all_args.push(&p);
        let lines = json_lines(&run_ok(&all_args));
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["text"], library(&p, options), "{args:?}");
    }
}

#[test]
fn format_markdown_prints_the_main_content_as_markdown_alone() {
    let a = page_path("table-code.html");
    let b = page_path("comments.html");
    let md = |path: &str, options: MainOptions| library(path, options.markdown(true));
    assert_eq!(
        run_ok(&["text", "--format", "markdown", &a]),
        format!("{}\n", md(&a, MainOptions::new()))
    );
    // Pages separated as --format plain separates them.
    assert_eq!(
        run_ok(&["text", "--format=markdown", &a, &b]),
        format!(
            "{}\n\x0c\n{}\n",
            md(&a, MainOptions::new()),
            md(&b, MainOptions::new())
        )
    );
    assert_eq!(
        run_ok(&["text", "--format", "markdown", "--links", "--comments", &b]),
        format!(
            "{}\n",
            md(&b, MainOptions::new().links(true).comments(true))
        )
    );
    // The same as the text alone of --main --markdown.
    assert_eq!(
        run_ok(&["text", "--format", "plain", "--main", "--markdown", &a]),
        run_ok(&["text", "--format", "markdown", &a])
    );
    // --format plain --main: the plain main content alone.
    assert_eq!(
        run_ok(&["text", "--format", "plain", "--main", &a]),
        format!("{}\n", library(&a, MainOptions::new()))
    );
}

#[test]
fn options_of_the_main_content_without_it_are_usage_errors() {
    let p = page_path("comments.html");
    for (args, names) in [
        (&["--comments"][..], "--main"),
        (&["--markdown"], "--main"),
        (&["--links"], "--markdown"),
        (&["--main", "--links"], "--markdown"),
        (&["--format", "plain", "--markdown"], "--main"),
    ] {
        let mut all_args = vec!["text"];
        all_args.extend(args);
        all_args.push(&p);
        let (code, stdout, stderr) = run(&all_args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains(names), "{args:?}: {stderr}");
    }
    let (code, stdout, _) = run(&["text", "--help"]);
    assert_eq!(code, 0);
    for option in ["--main", "--comments", "--markdown", "--links", "markdown"] {
        assert!(stdout.contains(option), "{option}: {stdout}");
    }
    let (_, stdout, _) = run(&["--help"]);
    assert!(stdout.contains("[--main]"), "{stdout}");
}

#[test]
fn main_over_an_archive_and_standard_input() {
    let names = ["article-sidebar.html", "chinese-news.html"];
    let records: Vec<_> = names
        .iter()
        .map(|name| {
            let body = std::fs::read(page_path(name)).unwrap();
            let http = warc::Http::response(200, "OK")
                .header("Content-Type", "text/html; charset=utf-8")
                .body(&body);
            warc::Record::response(&format!("https://site.example/{name}"), &http)
        })
        .collect();
    let mut archive = Vec::new();
    for (n, record) in records.iter().enumerate() {
        archive.extend(warc::gzip_member(&record.to_bytes_numbered(n)));
    }
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-{}-main.warc.gz", std::process::id()));
    std::fs::write(&path, &archive).unwrap();
    let w = path.to_str().unwrap();
    let all = json_lines(&run_ok(&["text", w]));
    let main = json_lines(&run_ok(&["text", "--main", "--jobs", "2", w]));
    let _ = std::fs::remove_file(&path);
    assert_eq!(main.len(), 2);
    for ((main, all), name) in main.iter().zip(&all).zip(names) {
        // Provenance as without --main.
        let mut same = main.clone();
        same["text"] = all["text"].clone();
        assert_eq!(&same, all);
        assert_eq!(main["text"], library(&page_path(name), MainOptions::new()));
    }
    let bytes = std::fs::read(page_path("japanese-blog.html")).unwrap();
    let (code, stdout, _) = run_text(&["text", "--main", "--format", "plain", "-"], &bytes);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        format!(
            "{}\n",
            library(&page_path("japanese-blog.html"), MainOptions::new())
        )
    );
}

/// What a reader calls each page's content, and some of the boilerplate
/// around it (the library's tests, `tests/api/main_content.rs`, hold every
/// page to much more).
const READER: [(&str, &str, &str); 7] = [
    (
        "article-sidebar.html",
        "Rinse the skillet and dry it immediately with a towel",
        "Join twelve thousand readers",
    ),
    (
        "main-no-article.html",
        "We cannot take building rubble",
        "We use some essential cookies",
    ),
    (
        "comments.html",
        "Leggy seedlings are stretching towards light.",
        "Burying the stem saved my whole crop last year.",
    ),
    (
        "chinese-news.html",
        "据滨江轨道交通集团介绍，开通初期",
        "热门新闻排行",
    ),
    (
        "japanese-blog.html",
        "夏は冷蔵庫の野菜室に移すと、漬かりすぎを防げます。",
        "会社員をしながら",
    ),
    (
        "table-code.html",
        "A filter is a Python function that receives each URL",
        "Monitoring and metrics",
    ),
    (
        "listing.html",
        "Volunteers recorded twice as many bee species",
        "We and our partners store",
    ),
];

#[test]
fn main_keeps_what_a_reader_reads_and_drops_the_rest() {
    let dir = pages_dir();
    let lines = json_lines(&run_ok(&["text", "--main", dir.to_str().unwrap()]));
    for (name, content, boilerplate) in READER {
        let line = lines
            .iter()
            .find(|l| l["source"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("no line for {name}"));
        let text = line["text"].as_str().unwrap();
        assert!(
            text.contains(content),
            "{name}: {content:?} missing:\n{text}"
        );
        assert!(
            !text.contains(boilerplate),
            "{name}: {boilerplate:?} kept:\n{text}"
        );
    }
    // --comments brings the comments back.
    let p = page_path("comments.html");
    let with = json_lines(&run_ok(&["text", "--main", "--comments", &p]));
    let text = with[0]["text"].as_str().unwrap();
    assert!(
        text.contains("Burying the stem saved my whole crop"),
        "{text}"
    );
    assert!(
        !text.contains("Your email address will not be published"),
        "{text}"
    );
    // Markdown: headings, a fenced block, a pipe table.
    let md = run_ok(&[
        "text",
        "--format",
        "markdown",
        &page_path("table-code.html"),
    ]);
    assert!(md.lines().any(|l| l.starts_with("## Installation")), "{md}");
    assert!(md.lines().any(|l| l.starts_with("```")), "{md}");
    assert!(md.lines().any(|l| l.starts_with("| Option |")), "{md}");
}
