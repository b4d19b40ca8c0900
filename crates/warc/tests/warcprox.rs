//! Archives written by real warcprox (2.13.1), the Internet Archive's
//! archiving proxy, and by warcio's `capture_http` (1.8.1), from pages we
//! wrote and served ourselves: `tests/data/warcprox/make.sh` and
//! `tests/data/warcio/make.sh` made them, and `tests/data/warcprox/site/`
//! holds the pages as served, so what a page must come out as is read
//! from there, never from our own output.
//!
//! warcprox writes a `warcinfo` first, then for each URL its `response`
//! and after it its `request`; a URL whose payload its dedup database
//! knows becomes a `revisit` (with the HTTP head, no body); and records
//! asked for with `WARCPROX_WRITE_RECORD` (a `metadata`, a `resource`).
//! warcio writes no `warcinfo`, and for each exchange its `response` and
//! then its `request`, holding what the client read. None is a problem.

use std::path::{Path, PathBuf};

use htmltok_warc::{detect, gunzip, is_gzip, segment, Event, Header, Skip, Source};

mod common;
use common::{events_at, pages, seen, Seen};
use memchr::memmem::find;

/// The server's address, fixed in `make.sh` (127.0.0.2: warcprox
/// refuses 127.0.0.1).
const BASE: &str = "http://127.0.0.2:8652";

/// Every URL fetched through warcprox, in order, as the server answered
/// it: the path, the status, the file under `site/` sent as its body,
/// and its `Content-Type`. `/same.html` was fetched once more at the end.
const SERVED: &[(&str, u16, &str, Option<&str>)] = &[
    ("/", 200, "index.html", Some("text/html; charset=utf-8")),
    // windows-1252 bytes, said by a <meta charset> only.
    ("/cp1252.html", 200, "cp1252.html", Some("text/html")),
    // Sent with Transfer-Encoding: chunked.
    (
        "/chunked.html",
        200,
        "chunked.html",
        Some("text/html; charset=utf-8"),
    ),
    // Sent with Content-Encoding: gzip.
    (
        "/gzip.html",
        200,
        "gzip.html",
        Some("text/html; charset=utf-8"),
    ),
    // Sent gzip, then chunked.
    (
        "/gzip-chunked.html",
        200,
        "gzip-chunked.html",
        Some("text/html"),
    ),
    // Sent with no Content-Length, to the connection's close.
    (
        "/close.html",
        200,
        "close.html",
        Some("text/html; charset=utf-8"),
    ),
    // Sent with no Content-Type: HTML by its bytes.
    ("/untyped.html", 200, "untyped.html", None),
    (
        "/same.html",
        200,
        "same.html",
        Some("text/html; charset=utf-8"),
    ),
    (
        "/new.html",
        200,
        "new.html",
        Some("text/html; charset=utf-8"),
    ),
    (
        "/notes.txt",
        200,
        "notes.txt",
        Some("text/plain; charset=utf-8"),
    ),
    ("/dot.png", 200, "dot.png", Some("image/png")),
    // A 301 to /new.html, with a body of its own.
    ("/old.html", 301, "301.html", Some("text/html")),
    ("/missing.html", 404, "404.html", Some("text/html")),
];

/// The URLs served that are no HTML.
const NOT_HTML: &[&str] = &["/notes.txt", "/dot.png"];

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn site(name: &str) -> Vec<u8> {
    std::fs::read(data().join("warcprox/site").join(name))
        .unwrap_or_else(|e| panic!("site/{name}: {e}"))
}

/// Every event of the archive at `path` (under tests/data), read in order.
fn events(path: &str) -> Vec<Event> {
    events_at(&data().join(path))
}

fn record(event: &Event) -> &Header {
    match event {
        Event::Page(page) => &page.record,
        Event::Skipped(skipped) => &skipped.record,
        Event::Problem(problem) => panic!("a problem: {problem}"),
    }
}

fn skipped(kind: &str, uri: Option<String>, reason: Skip) -> Seen {
    Seen::Skipped {
        kind: kind.into(),
        uri,
        reason,
    }
}

/// What the response to `path` must come out as: the page as served, or
/// a non-HTML record skipped.
fn response(path: &str) -> Seen {
    let &(_, status, file, content_type) = SERVED.iter().find(|s| s.0 == path).unwrap();
    let uri = format!("{BASE}{path}");
    if NOT_HTML.contains(&path) {
        skipped("response", Some(uri), Skip::NotHtml)
    } else {
        Seen::Page {
            uri,
            status: Some(status),
            body: site(file),
            content_type: content_type.map(str::to_owned),
            truncated: None,
        }
    }
}

fn request(path: &str) -> Seen {
    skipped("request", Some(format!("{BASE}{path}")), Skip::NotAPage)
}

/// What a warcprox archive must come out as, record by record.
fn expected_warcprox() -> Vec<Seen> {
    let mut out = vec![skipped("warcinfo", None, Skip::NotAPage)];
    for &(path, ..) in SERVED {
        out.extend([response(path), request(path)]);
    }
    // /same.html again: its payload is in the dedup database.
    out.extend([
        skipped("revisit", Some(format!("{BASE}/same.html")), Skip::Revisit),
        request("/same.html"),
        skipped(
            "metadata",
            Some(format!("metadata:{BASE}/")),
            Skip::NotAPage,
        ),
        skipped(
            "resource",
            Some(format!("screenshot:{BASE}/")),
            Skip::NotHtml,
        ),
    ]);
    out
}

/// Asserts that the records are numbered in order from 1 and that each
/// one's offset is where its header starts (in `bytes`, or in the gzip
/// member that starts there), its record ID in that header.
fn assert_offsets(name: &str, events: &[Event]) {
    let bytes = std::fs::read(data().join(name)).unwrap();
    let mut last = None;
    // The problems that say pages are cut (checked by `seen`) are no
    // records.
    let records = events.iter().filter(|e| !matches!(e, Event::Problem(_)));
    for (i, event) in records.enumerate() {
        let record = record(event);
        assert_eq!(record.number(), i as u64 + 1, "{name}");
        assert!(
            last < Some(record.offset()),
            "{name}: record {}",
            record.number()
        );
        last = Some(record.offset());
        let at = &bytes[record.offset() as usize..];
        let at = if name.ends_with(".gz") {
            assert!(
                is_gzip(at),
                "{name}: record {} is no gzip member",
                record.number()
            );
            gunzip(at, 1 << 20).unwrap()
        } else {
            at.to_vec()
        };
        assert!(
            at.starts_with(b"WARC/1.0\r\n"),
            "{name}: record {}",
            record.number()
        );
        let header = &at[..find(&at, b"\r\n\r\n").unwrap() + 2];
        let id = format!("WARC-Record-ID: {}\r\n", record.record_id().unwrap());
        assert!(
            find(header, id.as_bytes()).is_some(),
            "{name}: record {} at {}",
            record.number(),
            record.offset()
        );
    }
}

/// Asserts that read in segments of several sizes (as `htmltok` does on
/// several threads), the gzip archive `name` gives the same events.
fn assert_segmented(name: &str, events: &[Event]) {
    let source = Source::from(data().join(name));
    let format = detect(&source).unwrap().unwrap();
    assert!(segment::can_segment(format), "{name}");
    for every in [1, 500, 2000, 1 << 20] {
        let mut segmented = Vec::new();
        segment::read_segmented(&source, format, &Default::default(), every, &mut |event| {
            segmented.push(event);
            true
        })
        .unwrap();
        assert_eq!(segmented, events, "{name}: segments of {every} bytes");
    }
}

#[test]
fn the_served_pages_are_what_the_test_says() {
    // The expectations below stand on site/: a page that is not there, or
    // is not what its name says, would make them vacuous.
    assert_eq!(
        std::fs::read_dir(data().join("warcprox/site"))
            .unwrap()
            .count(),
        14,
        "site/ holds the files make.sh served"
    );
    assert!(!site("index.html").is_ascii() && std::str::from_utf8(&site("index.html")).is_ok());
    assert!(std::str::from_utf8(&site("cp1252.html")).is_err());
    assert!(site("dot.png").starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(site("part.html").len(), 512);
}

#[test]
fn warcprox_plain_every_page_whole_every_other_record_skipped() {
    let name = "warcprox/warcprox.warc";
    let events = events(name);
    let seen = seen(name, &events);
    assert_eq!(seen, expected_warcprox());
    assert_eq!(pages(&seen).len(), 11);
    assert_offsets(name, &events);
}

#[test]
fn warcprox_gzip_the_same_at_its_members_and_in_segments() {
    let name = "warcprox/warcprox.warc.gz";
    let events = events(name);
    let seen = seen(name, &events);
    assert_eq!(seen, expected_warcprox());
    assert_offsets(name, &events);
    // The same crawl, stored plain: the same records but for their IDs,
    // dates and offsets.
    assert_eq!(
        seen,
        self::seen("plain", &self::events("warcprox/warcprox.warc"))
    );

    assert_segmented(name, &events);
}

#[test]
fn warcprox_bodies_were_coded_on_the_wire_and_come_out_decoded() {
    // The assertions above compare bodies with site/; this makes sure the
    // archive did hold those three coded as sent, so the decoding was
    // exercised.
    let plain = std::fs::read(data().join("warcprox/warcprox.warc")).unwrap();
    assert!(find(&plain, b"\r\nTransfer-Encoding: chunked\r\n").is_some());
    assert!(find(&plain, b"\r\nContent-Encoding: gzip\r\n").is_some());
    assert!(find(
        &plain,
        b"\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"
    )
    .is_some());
    assert!(find(&plain, &site("chunked.html")).is_none());
    assert!(find(&plain, &site("gzip.html")).is_none());
    assert!(find(&plain, &site("gzip-chunked.html")).is_none());
    // The one sent to the connection's close: its head says no length.
    let body_at = find(&plain, &site("close.html")).unwrap();
    let head_at = plain[..body_at]
        .windows(9)
        .rposition(|w| w == b"HTTP/1.1 ")
        .unwrap();
    let head = &plain[head_at..body_at];
    assert!(head.ends_with(b"\r\nConnection: close\r\n\r\n"));
    assert!(find(head, b"Content-Length").is_none());
}

#[test]
fn warcprox_revisit_refers_to_the_first_capture() {
    // The second /same.html is a revisit of the first response, by its
    // payload digest: the record it refers to is the page read.
    let name = "warcprox/warcprox.warc";
    let events = events(name);
    let uri = format!("{BASE}/same.html");
    let first = events
        .iter()
        .find_map(|e| match e {
            Event::Page(p) if p.record.target_uri() == Some(uri.as_str()) => Some(&p.record),
            _ => None,
        })
        .expect("the first /same.html is a page");
    let revisit = events
        .iter()
        .map(record)
        .find(|r| r.record_type().as_str() == "revisit")
        .expect("a revisit");
    assert_eq!(revisit.target_uri(), Some(uri.as_str()));
    let bytes = std::fs::read(data().join(name)).unwrap();
    let at = &bytes[revisit.offset() as usize..];
    let header = &at[..find(at, b"\r\n\r\n").unwrap()];
    let refers = format!("\r\nWARC-Refers-To: {}\r\n", first.record_id().unwrap());
    assert!(find(header, refers.as_bytes()).is_some());
}

/// What a warcio archive must come out as: each exchange's response and
/// then its request, with no warcinfo.
fn expected_warcio() -> Vec<Seen> {
    let mut out = Vec::new();
    for path in [
        "/",
        "/cp1252.html",
        "/chunked.html",
        "/gzip.html",
        "/gzip-chunked.html",
        "/close.html",
        "/untyped.html",
        "/same.html",
        // requests followed the 301 itself.
        "/old.html",
        "/new.html",
        "/missing.html",
        "/notes.txt",
        "/dot.png",
        "/same.html",
    ] {
        out.extend([response(path), request(path)]);
    }
    // The last, streamed and closed after its head: capture_http stored
    // what the client read, the head and no byte of the 95 its
    // Content-Length promised. A page not whole, and no problem.
    out.extend([
        Seen::Page {
            uri: format!("{BASE}/cp1252.html"),
            status: Some(200),
            body: Vec::new(),
            content_type: Some("text/html".into()),
            truncated: Some(htmltok_warc::Truncated::Payload),
        },
        request("/cp1252.html"),
    ]);
    out
}

#[test]
fn warcio_capture_http_every_exchange_read_the_unread_body_said_cut() {
    assert_eq!(site("cp1252.html").len(), 95);
    for name in ["warcio/warcio.warc", "warcio/warcio.warc.gz"] {
        let events = events(name);
        let seen = seen(name, &events);
        assert_eq!(seen, expected_warcio(), "{name}");
        assert_eq!(pages(&seen).len(), 13, "{name}");
        assert_offsets(name, &events);
        if name.ends_with(".gz") {
            assert_segmented(name, &events);
        }
    }
}

#[test]
fn warcprox_cut_pages_come_out_as_far_as_they_go_and_said_not_whole() {
    // warcprox told --max-resource-size 65536 stops reading a response
    // once it has more than that (after its first read of 64 KiB of
    // body), and writes WARC-Truncated: length; the body is then short of
    // its Content-Length (/big.html), or ends inside a chunk
    // (/big-chunked.html, 1000-byte chunks). /cut.html is the server's
    // cut, 400 bytes into a body of 629: warcprox stores what came, and
    // says nothing. Each is a page, as far as it goes, said not whole;
    // none is a problem.
    let name = "warcprox/cut.warc.gz";
    let events = events(name);
    let big = site("part.html").repeat(160);
    assert_eq!(big.len(), 81920);
    let cut = |path: &str, body: &[u8], why: htmltok_warc::Truncated| Seen::Page {
        uri: format!("{BASE}{path}"),
        status: Some(200),
        body: body.to_vec(),
        content_type: Some("text/html; charset=utf-8".into()),
        truncated: Some(why),
    };
    let length = htmltok_warc::Truncated::Declared("length".into());
    assert_eq!(
        seen(name, &events),
        [
            skipped("warcinfo", None, Skip::NotAPage),
            response("/new.html"),
            request("/new.html"),
            cut("/big.html", &big[..65536], length.clone()),
            request("/big.html"),
            cut("/big-chunked.html", &big[..65536], length),
            request("/big-chunked.html"),
            cut(
                "/cut.html",
                &site("chunked.html")[..400],
                htmltok_warc::Truncated::Payload
            ),
            request("/cut.html"),
        ]
    );
    assert_offsets(name, &events);
    assert_segmented(name, &events);
}
