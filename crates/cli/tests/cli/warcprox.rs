//! `htmltok` over the archives warcprox and warcio's capture_http wrote
//! (crates/warc/tests/data/warcprox and .../warcio, made by their
//! make.sh): every page out, every other record passed over; a page not
//! whole said and counted, exit 1.

use serde_json::{json, Value};

use super::{fixture, run, total_of};

#[test]
fn stats_over_warcprox_archives() {
    // One proxy session, stored gzip per record and plain: 13 URLs, 11
    // of them HTML (a 404 and a 301 among them), and one fetched again;
    // passed over: the warcinfo, 14 requests and a metadata record; not
    // HTML: a text file, a PNG and a screenshot resource; one revisit.
    for name in ["warcprox/warcprox.warc.gz", "warcprox/warcprox.warc"] {
        let path = fixture(name);
        let (code, stdout, stderr) = run(&["stats", "--total", &path]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(
            stderr,
            "htmltok: 11 pages processed; 20 archive records passed over \
             (3 non-HTML, 1 revisit, 16 request/metadata)\n",
            "{name}"
        );
        let total = total_of(&stdout);
        assert_eq!(total["pages"], 11, "{name}");
        assert_eq!(
            total["passed_over"],
            json!({"non-HTML": 3, "revisit": 1, "request/metadata": 16})
        );
        assert_eq!(
            total["problems"],
            json!({"broken": 0, "truncated": 0, "undecodable": 0, "unreadable": 0, "failed": 0})
        );
        assert_eq!(total["truncated_pages"], 0, "{name}");
        assert_eq!(total["coding_failed"], 0, "{name}");
    }

    // Pages warcprox cut at --max-resource-size (said so in the record)
    // and one whose connection the server cut: out as far as they go,
    // each said not whole, with a line and a count of its own, whatever
    // cut it; exit 1.
    let path = fixture("warcprox/cut.warc.gz");
    let (code, stdout, stderr) = run(&["stats", "--total", &path]);
    assert_eq!(code, 1, "{stderr}");
    let said: Vec<&str> = stderr.lines().collect();
    let base = "http://127.0.0.2:8652";
    assert_eq!(said.len(), 4, "{stderr}");
    for (line, (path_in_site, why)) in said.iter().zip([
        ("/big.html", "truncated by the crawler (length)"),
        ("/big-chunked.html", "truncated by the crawler (length)"),
        ("/cut.html", "its HTTP payload ends"),
    ]) {
        let start = format!("htmltok: {path}: record ");
        let named = format!(", {base}{path_in_site}): {why}");
        assert!(line.starts_with(&start) && line.contains(&named), "{line}");
    }
    assert!(said[3].ends_with("; 3 problems: 3 truncated"), "{stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    let truncated: Vec<&Value> = lines[..4].iter().map(|l| &l["truncated"]).collect();
    assert_eq!(truncated, [false, true, true, true], "{stdout}");
    let total = &lines[4]["total"];
    assert_eq!(total["pages"], 4);
    assert_eq!(total["truncated_pages"], 3);
    assert_eq!(total["bytes"], 68 + 2 * 65536 + 400);
    assert_eq!(
        total["problems"],
        json!({"broken": 0, "truncated": 3, "undecodable": 0, "unreadable": 0, "failed": 0})
    );
}

#[test]
fn stats_over_warcio_capture_http_archives() {
    // 15 exchanges, 13 of them HTML; the last one's body never read by
    // the client, so not stored: a page said not whole, counted once.
    for name in ["warcio/warcio.warc.gz", "warcio/warcio.warc"] {
        let (code, stdout, stderr) = run(&["stats", "--total", &fixture(name)]);
        assert_eq!(code, 1, "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 2, "{name}: {stderr}");
        let total = total_of(&stdout);
        assert_eq!(total["pages"], 13, "{name}");
        assert_eq!(
            total["passed_over"],
            json!({"non-HTML": 2, "revisit": 0, "request/metadata": 15})
        );
        assert_eq!(
            total["problems"],
            json!({"broken": 0, "truncated": 1, "undecodable": 0, "unreadable": 0, "failed": 0})
        );
        assert_eq!(total["truncated_pages"], 1, "{name}");
    }
}

#[test]
fn sniff_over_a_warcprox_archive_reads_the_decoded_bodies() {
    // By the WHATWG encoding sniffing rules: the HTTP charset, else a
    // <meta charset>, else the default; the revisit is no page.
    let (code, stdout, stderr) = run(&["sniff", &fixture("warcprox/warcprox.warc.gz")]);
    assert_eq!(code, 0, "{stderr}");
    let base = "http://127.0.0.2:8652";
    let expected: String = [
        ("/", "UTF-8", "transport"),
        ("/cp1252.html", "windows-1252", "meta"),
        ("/chunked.html", "UTF-8", "transport"),
        ("/gzip.html", "UTF-8", "transport"),
        ("/gzip-chunked.html", "windows-1252", "default"),
        ("/close.html", "UTF-8", "transport"),
        ("/untyped.html", "windows-1252", "default"),
        ("/same.html", "UTF-8", "transport"),
        ("/new.html", "UTF-8", "transport"),
        ("/old.html", "windows-1252", "default"),
        ("/missing.html", "windows-1252", "default"),
    ]
    .iter()
    .map(|(path, encoding, rule)| format!("{base}{path}\t{encoding}\t{rule}\n"))
    .collect();
    assert_eq!(stdout, expected);
}
