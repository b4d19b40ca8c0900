//! Archives written by real GNU wget (1.21.3), from pages we wrote and
//! served ourselves: `tests/data/wget/make.sh` made them, and its
//! `site/` holds the pages as served, so what a page must come out as is
//! read from there, never from our own output.
//!
//! wget writes, besides a response per URL: a `warcinfo` first (in every
//! part when it splits), a `request` before each response, a `metadata`
//! record (its manifest) and two `resource` records (its arguments and
//! its log, `text/plain`) at the end, and with `--warc-dedup` a
//! `revisit` for each response it had seen. None is a problem.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use htmltok_warc::{detect, segment, Event, Skip, Source};

mod common;
use common::{events_at, pages, Seen};
use memchr::memmem::find;

/// The server's address, fixed in `make.sh`.
const BASE: &str = "http://127.0.0.1:8642";

/// Every URL wget fetched, as the server in `make.sh` answered it: the
/// path, the status, the file under `site/` sent as its body, and its
/// `Content-Type`.
const SERVED: &[(&str, u16, &str, &str)] = &[
    ("/", 200, "index.html", "text/html; charset=utf-8"),
    ("/cp1252.html", 200, "cp1252.html", "text/html"),
    ("/bom.html", 200, "bom.html", "text/html"),
    (
        "/mismatch.html",
        200,
        "mismatch.html",
        "text/html; charset=iso-8859-1",
    ),
    // Sent with Transfer-Encoding: chunked.
    (
        "/chunked.html",
        200,
        "chunked.html",
        "text/html; charset=utf-8",
    ),
    // Sent with Content-Encoding: gzip.
    ("/gzip.html", 200, "gzip.html", "text/html; charset=utf-8"),
    ("/notes.txt", 200, "notes.txt", "text/plain; charset=utf-8"),
    ("/dot.png", 200, "dot.png", "image/png"),
    ("/missing.html", 404, "404.html", "text/html"),
    // A 301 to /new.html, with a body of its own.
    ("/old.html", 301, "301.html", "text/html"),
    ("/new.html", 200, "new.html", "text/html; charset=utf-8"),
    // cp1252.html links to index.html, which the server does not have.
    ("/index.html", 404, "404.html", "text/html"),
];

/// The URL wget fetched that are no HTML.
const NOT_HTML: &[&str] = &["/notes.txt", "/dot.png"];

/// wget's own records' target URIs (the manifest, its arguments, its log).
const WGET_MANIFEST: &str = "metadata://gnu.org/software/wget/warc/MANIFEST.txt";
const WGET_ARGUMENTS: &str = "metadata://gnu.org/software/wget/warc/wget_arguments.txt";
const WGET_LOG: &str = "metadata://gnu.org/software/wget/warc/wget.log";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wget")
}

fn site(name: &str) -> Vec<u8> {
    std::fs::read(dir().join("site").join(name)).unwrap_or_else(|e| panic!("site/{name}: {e}"))
}

/// Every event of the archive `name`, read in order.
fn events(name: &str) -> Vec<Event> {
    events_at(&dir().join(name))
}

/// The events of an archive in the words of [`Seen`] (`common::seen`);
/// panics also at a page not whole: none of the crawls it reads was cut.
fn seen(name: &str, events: &[Event]) -> Vec<Seen> {
    for event in events {
        if let Event::Page(page) = event {
            assert_eq!(page.truncated, None, "{name}: {page:?}");
        }
    }
    common::seen(name, events)
}

/// What a whole crawl must come out as, record by record, in wget's
/// order: after the `warcinfo`, a request and a response per URL served;
/// then wget's manifest, arguments and log.
fn expected_crawl() -> Vec<Seen> {
    let mut out = vec![warcinfo()];
    out.extend(SERVED.iter().flat_map(|&(path, ..)| exchange(path)));
    out.extend(wget_records());
    out
}

fn warcinfo() -> Seen {
    Seen::Skipped {
        kind: "warcinfo".into(),
        uri: None,
        reason: Skip::NotAPage,
    }
}

/// The request and the response for `path`.
fn exchange(path: &str) -> [Seen; 2] {
    let &(_, status, file, content_type) = SERVED.iter().find(|s| s.0 == path).unwrap();
    let uri = format!("{BASE}{path}");
    let request = Seen::Skipped {
        kind: "request".into(),
        uri: Some(uri.clone()),
        reason: Skip::NotAPage,
    };
    let response = if NOT_HTML.contains(&path) {
        Seen::Skipped {
            kind: "response".into(),
            uri: Some(uri),
            reason: Skip::NotHtml,
        }
    } else {
        Seen::Page {
            uri,
            status: Some(status),
            body: site(file),
            content_type: Some(content_type.into()),
            truncated: None,
        }
    };
    [request, response]
}

/// wget's closing records: its manifest (`metadata`), its arguments and
/// its log (`resource`, `text/plain`).
fn wget_records() -> [Seen; 3] {
    [
        Seen::Skipped {
            kind: "metadata".into(),
            uri: Some(WGET_MANIFEST.into()),
            reason: Skip::NotAPage,
        },
        Seen::Skipped {
            kind: "resource".into(),
            uri: Some(WGET_ARGUMENTS.into()),
            reason: Skip::NotHtml,
        },
        Seen::Skipped {
            kind: "resource".into(),
            uri: Some(WGET_LOG.into()),
            reason: Skip::NotHtml,
        },
    ]
}

#[test]
fn the_served_pages_are_what_the_test_says() {
    // The expectations below stand on site/: a page that is not there, or
    // is not what its name says, would make them vacuous.
    assert_eq!(
        std::fs::read_dir(dir().join("site")).unwrap().count(),
        12,
        "site/ holds the files make.sh served"
    );
    assert!(!site("index.html").is_ascii() && std::str::from_utf8(&site("index.html")).is_ok());
    assert!(std::str::from_utf8(&site("cp1252.html")).is_err());
    assert!(site("bom.html").starts_with(b"\xEF\xBB\xBF"));
    assert!(site("dot.png").starts_with(b"\x89PNG\r\n\x1a\n"));
}

#[test]
fn plain_warc_every_page_whole_and_nothing_else_a_problem() {
    let events = events("plain.warc");
    let seen = seen("plain.warc", &events);
    assert_eq!(seen, expected_crawl());
    assert_eq!(pages(&seen).len(), 10);
    // Every record numbered in order, at an offset where its header is.
    let bytes = std::fs::read(dir().join("plain.warc")).unwrap();
    for (i, event) in events.iter().enumerate() {
        let record = match event {
            Event::Page(page) => &page.record,
            Event::Skipped(skipped) => &skipped.record,
            Event::Problem(_) => unreachable!(),
        };
        assert_eq!(record.number(), i as u64 + 1);
        let at = &bytes[record.offset() as usize..];
        assert!(
            at.starts_with(b"WARC/1.0\r\n"),
            "record {}",
            record.number()
        );
        let id = format!("WARC-Record-ID: {}\r\n", record.record_id().unwrap());
        let header_end = find(at, b"\r\n\r\n").unwrap();
        assert!(
            find(&at[..header_end + 2], id.as_bytes()).is_some(),
            "record {} at {}",
            record.number(),
            record.offset()
        );
    }
}

#[test]
fn gzip_per_record_warc_the_same_at_the_offsets_wget_indexed() {
    let events = events("wget.warc.gz");
    let seen = seen("wget.warc.gz", &events);
    assert_eq!(seen, expected_crawl());

    // wget's CDX (`--warc-cdx`) names each response's original URL,
    // status, compressed offset and record ID: the reader must put each
    // response at the offset of its gzip member, with that ID.
    let cdx = std::fs::read_to_string(dir().join("wget.cdx")).unwrap();
    let mut lines = cdx.lines();
    assert_eq!(lines.next(), Some(" CDX a b a m s k r M V g u"));
    let indexed: Vec<(String, Option<u16>, u64, String)> = lines
        .map(|line| {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f.len(), 11, "{line}");
            assert_eq!(f[9], "wget.warc.gz");
            (
                f[0].to_owned(),
                f[4].parse().ok(),
                f[8].parse().unwrap(),
                f[10].to_owned(),
            )
        })
        .collect();
    let responses: Vec<(String, Option<u16>, u64, String)> = events
        .iter()
        .filter_map(|event| {
            let (record, status) = match event {
                Event::Page(page) => (&page.record, page.status),
                Event::Skipped(s) if s.record.record_type().as_str() == "response" => {
                    let path = &s.record.target_uri().unwrap()[BASE.len()..];
                    (&s.record, SERVED.iter().find(|x| x.0 == path).map(|x| x.1))
                }
                _ => return None,
            };
            Some((
                record.target_uri().unwrap().to_owned(),
                status,
                record.offset(),
                record.record_id().unwrap().to_owned(),
            ))
        })
        .collect();
    assert_eq!(responses.len(), SERVED.len());
    assert_eq!(responses, indexed);

    // Read in segments (as `htmltok` does on several threads), the events
    // are the same.
    let source = Source::from(dir().join("wget.warc.gz"));
    let format = detect(&source).unwrap().unwrap();
    assert!(segment::can_segment(format));
    for every in [1, 700, 3000, 1 << 20] {
        let mut segmented = Vec::new();
        segment::read_segmented(&source, format, &Default::default(), every, &mut |event| {
            segmented.push(event);
            true
        })
        .unwrap();
        assert_eq!(segmented, events, "segments of {every} bytes");
    }
}

#[test]
fn plain_and_gzip_warcs_hold_the_same_records() {
    // Two crawls of the same server: the same records but for their IDs,
    // dates and offsets.
    assert_eq!(
        seen("plain.warc", &events("plain.warc")),
        seen("wget.warc.gz", &events("wget.warc.gz"))
    );
}

#[test]
fn split_by_max_size_every_part_read_and_together_the_whole_crawl() {
    // `--warc-max-size` writes split-00000.warc.gz, split-00001... (each
    // with its own warcinfo) and split-meta.warc.gz with wget's records.
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("split-") && n.ends_with(".warc.gz"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 5, "{names:?}");
    assert_eq!(names.last().map(String::as_str), Some("split-meta.warc.gz"));

    let mut all = Vec::new();
    for name in &names {
        let seen = seen(name, &events(name));
        assert_eq!(
            seen.first(),
            Some(&warcinfo()),
            "{name} starts with its warcinfo"
        );
        assert!(seen.len() > 1, "{name}");
        all.extend(seen.into_iter().skip(1));
    }
    let whole: Vec<Seen> = expected_crawl().into_iter().skip(1).collect();
    assert_eq!(all, whole);
    assert_eq!(pages(&all).len(), 10);
}

#[test]
fn dedup_crawl_revisits_skipped_as_revisits() {
    // The third crawl, told (`--warc-dedup`) of the second's responses by
    // their payload digest, writes a revisit for each response it had
    // seen (only headers, `WARC-Truncated: length`): none is a page, none
    // is a problem. wget's index keeps one URL per digest, so the first
    // of the two identical 404s is written again whole.
    let seen = seen("dedup.warc.gz", &events("dedup.warc.gz"));
    let mut expected = vec![warcinfo()];
    for &(path, ..) in SERVED {
        let [request, response] = exchange(path);
        expected.push(request);
        expected.push(match response {
            Seen::Page { .. } if path == "/missing.html" => response,
            _ => Seen::Skipped {
                kind: "revisit".into(),
                uri: Some(format!("{BASE}{path}")),
                reason: Skip::Revisit,
            },
        });
    }
    expected.extend(wget_records());
    assert_eq!(seen, expected);
    assert_eq!(pages(&seen), [format!("{BASE}/missing.html")]);
}

#[test]
fn bodies_decoded_as_a_browser_receives_them() {
    // The assertions above compare bodies with site/; this makes sure the
    // archive did hold those two coded on the wire, so the decoding was
    // exercised.
    let plain = std::fs::read(dir().join("plain.warc")).unwrap();
    assert!(find(&plain, b"\r\nTransfer-Encoding: chunked\r\n").is_some());
    assert!(find(&plain, b"\r\nContent-Encoding: gzip\r\n").is_some());
    assert!(find(&plain, &site("chunked.html")).is_none());
    assert!(find(&plain, &site("gzip.html")).is_none());
    let by_uri: BTreeMap<String, Vec<u8>> = events("plain.warc")
        .into_iter()
        .filter_map(|e| match e {
            Event::Page(p) => Some((p.record.target_uri().unwrap().to_owned(), p.body.to_vec())),
            _ => None,
        })
        .collect();
    assert_eq!(
        by_uri[&format!("{BASE}/chunked.html")],
        site("chunked.html")
    );
    assert_eq!(by_uri[&format!("{BASE}/gzip.html")], site("gzip.html"));
}

#[test]
fn connection_cut_pages_come_out_as_far_as_they_go_and_said_not_whole() {
    // The server closed each connection 400 bytes into the body as sent
    // (half of it when shorter: the gzip one), under a Content-Length or
    // a chunked framing that promises more; wget tried each again with a
    // Range the server ignored, and stored what came before the cut each
    // time, with no WARC-Truncated. Every response is a page, its body a
    // prefix of the served file, not whole.
    let events = events("cut.warc.gz");
    // Checks that each cut page is said once, right after it.
    common::seen("cut.warc.gz", &events);
    let served = site("cut.html");
    let mut responses = Vec::new();
    for event in &events {
        match event {
            Event::Page(page) => {
                assert_eq!(page.status, Some(200));
                assert_eq!(page.coding_failed, None, "{page:?}");
                assert!(served.starts_with(&page.body), "{page:?}");
                assert!(page.body.len() < served.len(), "{page:?}");
                responses.push((
                    page.record.target_uri().unwrap().to_owned(),
                    page.body.len(),
                    page.truncated.clone(),
                ));
            }
            Event::Skipped(skipped) => {
                assert_ne!(skipped.record.record_type().as_str(), "response")
            }
            // The head with no body after it is a GET's, cut: its
            // request record came before it, as wget writes them, and the
            // record after it is the next request, not a HEAD.
            Event::Problem(problem) => assert_eq!(
                problem.kind(),
                htmltok_warc::ErrorKind::Truncated,
                "{problem}"
            ),
        }
    }
    let cut = |path: &str, len: usize| {
        (
            format!("{BASE}{path}"),
            len,
            Some(htmltok_warc::Truncated::Payload),
        )
    };
    // The plain page: its first 400 bytes, of a Content-Length of 1405;
    // then the second try's response, its head and nothing after. The
    // chunked page: two whole chunks of 150 bytes and 84 of the third (400
    // bytes sent, 16 of them chunk framing). The gzip page: what the first
    // half of the gzip stream inflates to, then nothing.
    assert_eq!(served.len(), 1405);
    let gzip_len = responses.get(3).map_or(0, |r| r.1);
    assert!(gzip_len > 0);
    assert_eq!(
        responses,
        [
            cut("/cut.html", 400),
            cut("/cut.html", 0),
            cut("/cut-chunked.html", 384),
            cut("/cut-gzip.html", gzip_len),
            cut("/cut-gzip.html", 0),
        ]
    );
    let skipped: Vec<(&str, Skip)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Skipped(s) => Some((s.record.record_type().as_str(), s.reason)),
            _ => None,
        })
        .collect();
    let mut expected = vec![("warcinfo", Skip::NotAPage)];
    expected.extend([("request", Skip::NotAPage); 5]);
    expected.extend([
        ("metadata", Skip::NotAPage),
        ("resource", Skip::NotHtml),
        ("resource", Skip::NotHtml),
    ]);
    assert_eq!(skipped, expected);
}
