//! The examples a crawler copies (`examples/links.rs`, `examples/text.rs`),
//! run as the programs a user runs, on the repository's pages and on
//! legacy-encoded pages streamed from disk. `cargo test` builds the
//! examples beside the test binaries (`target/<profile>/examples/`) before
//! it runs any test; a run that selects this binary alone
//! (`cargo test --test api`) needs `cargo build --examples` first, and
//! says so.

use std::path::{Path, PathBuf};
use std::process::Command;

use url::Url;

/// The example program `name`, built by `cargo test` beside this binary.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    // target/<profile>/deps/api-<hash> -> target/<profile>/examples/<name>
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test binary is in target/<profile>/deps");
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "the example program {} is not built: `cargo test` builds the examples, \
         `cargo build --examples` builds them alone",
        path.display()
    );
    path
}

/// Runs the example `name` with `args`; its standard output, which must be
/// UTF-8, after a successful exit.
fn run(name: &str, args: &[&str]) -> String {
    let out = Command::new(example(name))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the example {name}: {e}"));
    assert!(
        out.status.success(),
        "{name} {args:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the example writes UTF-8")
}

/// One line of `links`' output: `LINE:COL<TAB>URL`.
#[derive(Debug)]
struct Link {
    line: usize,
    col: usize,
    url: Url,
}

/// The links `examples/links.rs` prints for the page at `path`, resolved
/// against `page_url` (else the file's own URL).
fn links(path: &Path, page_url: Option<&str>) -> Vec<Link> {
    let path = path.to_str().expect("a UTF-8 path");
    let mut args = vec![path];
    args.extend(page_url);
    run("links", &args)
        .lines()
        .map(|line| {
            let (at, url) = line.split_once('\t').expect("LINE:COL<TAB>URL");
            let (line_no, col) = at.split_once(':').expect("LINE:COL");
            Link {
                line: line_no.parse().expect("a line number"),
                col: col.parse().expect("a column"),
                url: Url::parse(url).expect("an absolute URL"),
            }
        })
        .collect()
}

/// The visible text `examples/text.rs` prints for the page at `path`.
fn visible_text(path: &Path) -> String {
    let text = run("text", &[path.to_str().expect("a UTF-8 path")]);
    text.strip_suffix('\n')
        .expect("the text ends with a line break")
        .to_owned()
}

/// The repository's pages.
fn repo_pages() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/pages");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 4, "too few pages in {}", dir.display());
    pages
}

/// A page written to a file of its own, removed when dropped.
struct TempPage(PathBuf);

impl TempPage {
    fn new(name: &str, bytes: &[u8]) -> TempPage {
        let path = std::env::temp_dir().join(format!("htmltok-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempPage(path)
    }
}

impl Drop for TempPage {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A windows-1251 page (declared in a `<meta>` after a long head, so the
/// stream decides late) with a `<base href>` and links on known lines.
fn legacy_page() -> Vec<u8> {
    let mut page =
        b"<!DOCTYPE html>\n<html><head>\n<base href='https://example.org/news/'>\n".to_vec();
    page.extend(b"<script>var filler = '<a href=/not-a-link>';</script>\n".repeat(40));
    page.extend(
        b"<meta charset=windows-1251></head>\n<body><h1>\xcd\xee\xe2\xee\xf1\xf2\xe8</h1>\n",
    );
    // "Новости" (news) in windows-1251, then links: relative, with a path
    // in Cyrillic, absolute, up a level, and one on a later line after
    // upper-case markup.
    page.extend(
        b"<p>\xcf\xf0\xe8\xe2\xe5\xf2 <a href='today.html'>1</a> <a href='\xec\xe8\xf0/'>2</a>\n",
    );
    page.extend(
        b"<p>  <A HREF=\"https://example.com/x?y=1&amp;z=2\">3</A>\r\n<a href=../up>4</a></p>\n",
    );
    page
}

#[test]
fn links_streams_a_legacy_page_from_disk_and_resolves_against_its_base() {
    let page = TempPage::new("links-1251.html", &legacy_page());
    let found = links(&page.0, Some("https://example.org/index.html"));
    let found: Vec<_> = found
        .iter()
        .map(|l| (l.line, l.col, l.url.as_str()))
        .collect();
    // Line 1 the doctype, 2 <html><head>, 3 <base>, 4..43 the scripts, 44
    // the meta, 45 the h1, 46 the first paragraph.
    assert_eq!(
        found,
        [
            (46, 11, "https://example.org/news/today.html"),
            (46, 38, "https://example.org/news/%D0%BC%D0%B8%D1%80/"),
            (47, 6, "https://example.com/x?y=1&z=2"),
            (48, 1, "https://example.org/up"),
        ]
    );
}

/// The page's `<base href>` comes after the links (in the body), which a
/// browser resolves against it all the same; the queries are Shift_JIS,
/// as the page is.
#[test]
fn links_waits_for_a_late_base_and_writes_queries_in_the_pages_encoding() {
    let mut bytes = b"<meta charset=shift_jis>\n<a href='find?q=\x93\x8c\x8b\x9e'>1</a>\n".to_vec();
    bytes.extend(b"<img src=x.png><p>text</p>\n".repeat(200));
    bytes.extend(b"<base href='https://example.jp/docs/'>\n<area href=../map>");
    let page = TempPage::new("links-late-base.html", &bytes);
    let found = links(&page.0, Some("https://example.org/index.html"));
    let found: Vec<_> = found
        .iter()
        .map(|l| (l.line, l.col, l.url.as_str()))
        .collect();
    // Line 1 the meta, 2 the link, 3..202 the filler, 203 the base.
    assert_eq!(
        found,
        [
            (2, 1, "https://example.jp/docs/find?q=%93%8C%8B%9E"),
            (204, 1, "https://example.jp/map"),
        ]
    );
}

#[test]
fn links_on_the_repository_pages_are_at_their_tags() {
    let mut total = 0;
    for path in repo_pages() {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let lines: Vec<&str> = text.split('\n').collect();
        let found = links(&path, None);
        for link in &found {
            // The column counts UTF-16 units; the line's text up to it
            // must end right before `<a` or `<area`.
            let line = lines[link.line - 1];
            let mut units = 1;
            let at = line
                .char_indices()
                .find(|&(_, c)| {
                    let here = units == link.col;
                    units += c.len_utf16();
                    here
                })
                .map(|(i, _)| i)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: no column {} on line {}",
                        path.display(),
                        link.col,
                        link.line
                    )
                });
            let tag = line[at..].to_ascii_lowercase();
            assert!(
                tag.starts_with("<a ") || tag.starts_with("<area"),
                "{}: {tag:.40}",
                path.display()
            );
        }
        total += found.len();
    }
    assert!(total > 100, "only {total} links in the repository's pages");
}

#[test]
fn text_of_a_legacy_page_is_decoded_and_without_scripts() {
    let page = TempPage::new("text-1251.html", &legacy_page());
    let text = visible_text(&page.0);
    assert_eq!(text, "Новости\nПривет 1 2\n3 4");
}

#[test]
fn text_of_the_repository_pages_leaves_out_scripts_and_styles() {
    for path in repo_pages() {
        let bytes = std::fs::read(&path).unwrap();
        let text = visible_text(&path);
        assert!(
            text.len() > 1000,
            "{}: {} bytes of text",
            path.display(),
            text.len()
        );
        // Each script's and style's first 24 bytes of content (where they
        // hold no `<`, which could be markup in the page's text too).
        let raw = String::from_utf8_lossy(&bytes);
        for open in ["<script>", "<style>"] {
            for body in raw.split(open).skip(1) {
                let piece: String = body.chars().take(24).collect();
                if piece.trim().len() > 12 && !piece.contains('<') && !piece.contains('&') {
                    assert!(
                        !text.contains(piece.trim()),
                        "{}: {piece:?} in the text",
                        path.display()
                    );
                }
            }
        }
    }
}

#[test]
fn page_decodes_a_legacy_page_and_resolves_its_links_against_its_base() {
    let page = TempPage::new("page-1251.html", &legacy_page());
    let out = run(
        "page",
        &[page.0.to_str().unwrap(), "https://example.org/index.html"],
    );
    let lines: Vec<&str> = out.lines().collect();
    // The charset is declared only by a <meta> after 1024 bytes of scripts.
    assert_eq!(lines[0], "encoding: windows-1251 (late-meta)");
    assert_eq!(lines[1], "title: (none)");
    assert_eq!(lines[2], "text: 3 lines");
    assert_eq!(&lines[3..6], ["    Новости", "    Привет 1 2", "    3 4"]);
    for link in [
        "link: <a href> https://example.org/news/today.html",
        "link: <a href> https://example.org/news/%D0%BC%D0%B8%D1%80/",
        "link: <a href> https://example.com/x?y=1&z=2",
        "link: <a href> https://example.org/up",
    ] {
        assert!(lines.contains(&link), "{link:?} not in {lines:#?}");
    }
}

/// `records` saves a legacy page's records to a file and prints its start
/// tags from that file alone: the tags and attributes the tokenizer gives
/// the decoded page, and a file `SavedRecords` reads.
#[test]
fn records_saves_a_page_and_reads_it_back_from_the_file() {
    use htmltok::records::SavedRecords;
    use htmltok::{Input, Token, Tokenizer};

    let bytes = legacy_page();
    let page = TempPage::new("records-1251.html", &bytes);
    let saved = TempPage::new("records-1251.records", b"");
    let out = run(
        "records",
        &[page.0.to_str().unwrap(), saved.0.to_str().unwrap()],
    );
    let mut want = String::new();
    let mut tok = Tokenizer::new(Input::decode(&bytes));
    while let Some(token) = tok.next_token() {
        if let Token::StartTag(tag) = token {
            want.push_str(tag.name());
            for a in tag.attributes() {
                want.push_str(&format!("\t{}={}", a.name(), a.value().escape_debug()));
            }
            want.push('\n');
        }
    }
    assert_eq!(out, want);
    assert!(out.contains("a\thref=\u{43c}\u{438}\u{440}/"), "{out}");
    let file = std::fs::read(&saved.0).unwrap();
    let records = SavedRecords::read(&file).unwrap();
    assert!(records
        .input()
        .contains("\u{41d}\u{43e}\u{432}\u{43e}\u{441}\u{442}\u{438}"));
    assert_eq!(records.byte_len(), file.len());
}
