//! `htmltok` over the archives GNU wget wrote (crates/warc/tests/data/wget,
//! made by its make.sh): every page out, every other record passed over;
//! a page not whole said and counted, exit 1.

use serde_json::{json, Value};

use super::{run, total_of};

fn fixture(name: &str) -> String {
    super::fixture(&format!("wget/{name}"))
}

#[test]
fn stats_over_wget_archives() {
    // One crawl, stored plain and gzip per record: 12 URLs, 10 of them
    // HTML (two 404s and a 301 among them); passed over: the warcinfo, 12
    // requests and wget's manifest; not HTML: a text file, a PNG, and
    // wget's arguments and log.
    for name in ["plain.warc", "wget.warc.gz"] {
        let path = fixture(name);
        let (code, stdout, stderr) = run(&["stats", "--total", &path]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(
            stderr,
            "htmltok: 10 pages processed; 18 archive records passed over (4 non-HTML, 14 request/metadata)\n",
            "{name}"
        );
        let total = total_of(&stdout);
        assert_eq!(total["pages"], 10, "{name}");
        assert_eq!(
            total["passed_over"],
            json!({"non-HTML": 4, "revisit": 0, "request/metadata": 14})
        );
        assert_eq!(
            total["problems"],
            json!({"broken": 0, "truncated": 0, "undecodable": 0, "unreadable": 0, "failed": 0})
        );
        assert_eq!(total["truncated_pages"], 0, "{name}");
        assert_eq!(total["coding_failed"], 0, "{name}");
    }

    // The same crawl in five parts (--warc-max-size), each with its own
    // warcinfo; and the crawl again as revisits (--warc-dedup).
    let parts: Vec<String> = [
        "split-00000.warc.gz",
        "split-00001.warc.gz",
        "split-00002.warc.gz",
        "split-00003.warc.gz",
        "split-meta.warc.gz",
    ]
    .map(fixture)
    .to_vec();
    let mut args = vec!["stats", "--total"];
    args.extend(parts.iter().map(String::as_str));
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let total = total_of(&stdout);
    assert_eq!(total["pages"], 10);
    assert_eq!(
        total["passed_over"],
        json!({"non-HTML": 4, "revisit": 0, "request/metadata": 18})
    );
    let (code, stdout, stderr) = run(&["stats", "--total", &fixture("dedup.warc.gz")]);
    assert_eq!(code, 0, "{stderr}");
    let total = total_of(&stdout);
    assert_eq!(total["pages"], 1);
    assert_eq!(
        total["passed_over"],
        json!({"non-HTML": 2, "revisit": 11, "request/metadata": 14})
    );

    // Pages whose connection was cut: out as far as they go, each said
    // not whole in a line of its own and counted once; exit 1.
    let (code, stdout, stderr) = run(&["stats", "--total", &fixture("cut.warc.gz")]);
    assert_eq!(code, 1, "{stderr}");
    let said: Vec<&str> = stderr.lines().collect();
    assert_eq!(said.len(), 6, "{stderr}");
    assert!(
        said[..5]
            .iter()
            .all(|l| l.contains("): its HTTP payload ends inside")),
        "{stderr}"
    );
    assert!(said[5].ends_with("; 5 problems: 5 truncated"), "{stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert!(
        lines[..5].iter().all(|l| l["truncated"] == true),
        "{stdout}"
    );
    let total = &lines[5]["total"];
    assert_eq!(total["pages"], 5);
    assert_eq!(total["truncated_pages"], 5);
    assert_eq!(
        total["problems"],
        json!({"broken": 0, "truncated": 5, "undecodable": 0, "unreadable": 0, "failed": 0})
    );
}

#[test]
fn sniff_over_a_wget_archive_takes_the_transport_charset() {
    // By the WHATWG encoding sniffing rules: a BOM first, then the HTTP
    // charset (iso-8859-1 is windows-1252), then a <meta charset>, else
    // the default; the 404s and the 301 say nothing and are ASCII.
    let (code, stdout, stderr) = run(&["sniff", &fixture("plain.warc")]);
    assert_eq!(code, 0, "{stderr}");
    let base = "http://127.0.0.1:8642";
    let expected: String = [
        ("/", "UTF-8", "transport"),
        ("/cp1252.html", "windows-1252", "meta"),
        ("/bom.html", "UTF-8", "bom"),
        ("/mismatch.html", "windows-1252", "transport"),
        ("/chunked.html", "UTF-8", "transport"),
        ("/gzip.html", "UTF-8", "transport"),
        ("/missing.html", "windows-1252", "default"),
        ("/old.html", "windows-1252", "default"),
        ("/new.html", "UTF-8", "transport"),
        ("/index.html", "windows-1252", "default"),
    ]
    .iter()
    .map(|(path, encoding, rule)| format!("{base}{path}\t{encoding}\t{rule}\n"))
    .collect();
    assert_eq!(stdout, expected);
}
