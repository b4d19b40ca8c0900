//! Archives of every kind real tools write (made by `testkit::warc`, byte
//! for byte as those tools write them) read back: the pages, their bodies
//! as a browser received them, their names, statuses and offsets are the
//! ones written; what is no page is counted by reason; what is broken
//! costs only itself. Every archive is also read in segments, as the
//! command line's threads read it, with the same events. (A module of the
//! library's unit tests rather than an integration test: one test binary
//! fewer to link.)

use crate::http::ContentCoding;
use crate::segment::read_segmented;
use crate::{
    detect, detect_bytes, Compression, ErrorKind as ProblemKind, Event, Format, Kind, Options,
    Pages, Skip, Source, Truncated,
};
use testkit::warc::{ArcRecord, Archive, Chunked, Coding, Container, Http, Record, ZstdDictionary};

/// What a page came out as: its URI, body, status, offset and whether it
/// is whole.
#[derive(Debug, PartialEq, Eq)]
struct Got {
    uri: Option<String>,
    body: Vec<u8>,
    status: Option<u16>,
    offset: u64,
    truncated: Option<Truncated>,
    coding_failed: bool,
    content_coding: Option<ContentCoding>,
}

/// Asserts that `problems` is one problem (of `kind`, when given) whose
/// message names `offset`; `what` names the case in a failure.
fn one_problem_at(
    problems: &[(ProblemKind, String)],
    kind: Option<ProblemKind>,
    offset: impl std::fmt::Display,
    what: &str,
) {
    assert_eq!(problems.len(), 1, "{what}: {problems:?}");
    if let Some(kind) = kind {
        assert_eq!(problems[0].0, kind, "{what}: {problems:?}");
    }
    assert!(
        problems[0].1.contains(&format!("offset {offset}")),
        "{what}: {}",
        problems[0].1
    );
}

/// Reads `bytes` in order and in segments (which must agree), and splits
/// the events into pages, reasons for records passed over, and problems.
fn read(bytes: &[u8]) -> (Vec<Got>, Vec<Skip>, Vec<(ProblemKind, String)>) {
    let source = Source::from(bytes.to_vec());
    let format = detect(&source).unwrap().expect("an archive");
    assert_eq!(detect_bytes(bytes), Some(format), "detect_bytes as detect");
    let events: Vec<Event> = Pages::new(source.clone()).unwrap().collect();
    for every in [1, 64, 1 << 20] {
        let mut segmented = Vec::new();
        read_segmented(&source, format, &Options::default(), every, &mut |event| {
            segmented.push(event);
            true
        })
        .unwrap();
        assert_eq!(segmented, events, "segments every {every} bytes");
    }
    // Every page that is not whole is said, once, by the problem right
    // after it.
    for (i, event) in events.iter().enumerate() {
        if let Event::Page(page) = event {
            let said = matches!(events.get(i + 1), Some(Event::Problem(p))
                if p.kind() == ProblemKind::Truncated && p.record() == Some(page.record.number()));
            assert_eq!(page.truncated.is_some(), said, "{:?}", &events[i..]);
        }
    }
    let (mut pages, mut skipped, mut problems) = (Vec::new(), Vec::new(), Vec::new());
    for event in events {
        match event {
            Event::Page(page) => pages.push(Got {
                uri: page.record.target_uri().map(str::to_owned),
                body: page.body.to_vec(),
                status: page.status,
                offset: page.record.offset(),
                truncated: page.truncated.clone(),
                coding_failed: page.coding_failed.is_some(),
                content_coding: page.content_coding,
            }),
            Event::Skipped(s) => skipped.push(s.reason),
            Event::Problem(p) => problems.push((p.kind(), p.to_string())),
        }
    }
    (pages, skipped, problems)
}

/// `n` HTML responses, `http://p{i}.example/` with the page `<p>{i}`.
fn numbered(n: usize) -> Vec<Record> {
    (0..n)
        .map(|i| Record::response(&format!("http://p{i}.example/"), &html(&format!("<p>{i}"))))
        .collect()
}

/// The URIs of `pages`, in order.
fn uris_of(pages: &[Got]) -> Vec<&str> {
    pages.iter().filter_map(|p| p.uri.as_deref()).collect()
}

fn html(body: &str) -> Http {
    Http::response(200, "OK")
        .header("Content-Type", "text/html; charset=utf-8")
        .body(body)
}

fn got(uri: &str, body: &str, status: u16, offset: usize) -> Got {
    Got {
        uri: Some(uri.to_owned()),
        body: body.as_bytes().to_vec(),
        status: Some(status),
        offset: offset as u64,
        truncated: None,
        coding_failed: false,
        content_coding: None,
    }
}

/// A crawl: warcinfo, request, an HTML response, an image, a 404 page, a
/// metadata record, a revisit.
fn crawl(version: &str) -> Vec<Record> {
    let image = Http::response(200, "OK")
        .header("Content-Type", "image/png")
        .body(b"\x89PNG\r\n\x1a\n");
    let missing = Http::response(404, "Not Found")
        .header("Content-Type", "text/html")
        .body("<h1>gone</h1>");
    [
        Record::warcinfo("software: tests\r\n"),
        Record::request("http://a.example/", &Http::request("GET", "/")),
        Record::response("http://a.example/", &html("<title>a</title>")),
        Record::response("http://a.example/i.png", &image),
        Record::response("http://a.example/missing", &missing),
        Record::metadata("http://a.example/", "application/warc-fields", "via: x\r\n"),
        Record::revisit(
            "http://a.example/",
            "http://a.example/",
            "2026-12-01T00:00:00Z",
        ),
    ]
    .into_iter()
    .map(|r| r.version(version))
    .collect()
}

#[test]
fn every_container_and_version_gives_the_same_pages() {
    let dictionary = ZstdDictionary::for_tests();
    let containers = [
        (Container::Plain, Compression::None),
        (Container::GzipPerRecord, Compression::Gzip),
        (Container::GzipWhole, Compression::Gzip),
        (Container::Lz4PerRecord, Compression::Lz4),
        (Container::ZstdPerRecord, Compression::Zstd),
        (
            Container::ZstdDictionary {
                dictionary: dictionary.clone(),
                compressed: false,
            },
            Compression::Zstd,
        ),
        (
            Container::ZstdDictionary {
                dictionary,
                compressed: true,
            },
            Compression::Zstd,
        ),
    ];
    for version in ["1.1", "1.0", "0.18", "0.17"] {
        for (container, compression) in &containers {
            let archive = Archive::warc(container.clone(), &crawl(version));
            let bytes = archive.bytes();
            let what = format!("{version} {container:?}");
            assert_eq!(
                detect(&Source::from(bytes.clone())).unwrap(),
                Some(Format {
                    kind: Kind::Warc,
                    compression: *compression
                }),
                "{what}"
            );
            let (pages, skipped, problems) = read(&bytes);
            assert!(problems.is_empty(), "{what}: {problems:?}");
            // A plain archive names a record by its own offset; a
            // compressed one by its unit's (the whole file's one member).
            let offsets = archive.offsets();
            let at = |i: usize| match container {
                Container::GzipWhole => 0,
                _ => offsets[i],
            };
            assert_eq!(
                pages,
                [
                    got("http://a.example/", "<title>a</title>", 200, at(2)),
                    got("http://a.example/missing", "<h1>gone</h1>", 404, at(4)),
                ],
                "{what}"
            );
            assert_eq!(
                skipped,
                [
                    Skip::NotAPage,
                    Skip::NotAPage,
                    Skip::NotHtml,
                    Skip::NotAPage,
                    Skip::Revisit
                ],
                "{what}"
            );
        }
    }
}

#[test]
fn http_heads_as_sloppy_writers_write_them() {
    // ClueWeb09: WARC/0.18 written by Nutch, HTTP header lines ending in a
    // bare LF, a legacy charset.
    let clueweb = Http::response(200, "OK")
        .header("Content-Type", "text/html; charset=EUC-JP")
        .body(b"<title>\xc6\xfc\xcb\xdc</title>")
        .bare_lf();
    // Folded and oddly spaced header lines.
    let folded = Http::response(200, "OK")
        .line("Content-Type:text/html;")
        .line("  charset=utf-8")
        .line("X-Odd :  spaced ")
        .body("<p>folded");
    // No Content-Type at all: sniffed, as a browser does.
    let untyped = Http::response(200, "OK").body("  <!DOCTYPE html><p>sniffed");
    let archive = Archive::warc(
        Container::GzipPerRecord,
        &[
            Record::response("http://clueweb.example/", &clueweb).version("0.18"),
            Record::response("http://folded.example/", &folded),
            Record::response("http://untyped.example/", &untyped),
        ],
    );
    let (pages, skipped, problems) = read(&archive.bytes());
    assert!(
        problems.is_empty() && skipped.is_empty(),
        "{problems:?} {skipped:?}"
    );
    let bodies: Vec<&[u8]> = pages.iter().map(|p| &p.body[..]).collect();
    assert_eq!(
        bodies,
        [
            &b"<title>\xc6\xfc\xcb\xdc</title>"[..],
            b"<p>folded",
            b"  <!DOCTYPE html><p>sniffed"
        ]
    );
}

#[test]
fn payloads_are_decoded_as_a_browser_receives_them() {
    let body = "<title>coded</title><p>".to_owned() + &"text ".repeat(300);
    let mut records = Vec::new();
    let mut names = Vec::new();
    for coding in [
        Coding::Gzip,
        Coding::XGzip,
        Coding::Deflate,
        Coding::DeflateRaw,
        Coding::Br,
        Coding::Zstd,
    ] {
        let uri = format!("http://{}.example/", coding.name());
        records.push(Record::response(
            &uri,
            &html(&body).content_encoding(coding),
        ));
        names.push(uri);
    }
    for (uri, chunked) in [
        ("http://chunked.example/", Chunked::sizes(&[7, 100, 3])),
        (
            "http://chunked-ext.example/",
            Chunked::sizes(&[50]).extension(";name=value"),
        ),
        (
            "http://chunked-lf.example/",
            Chunked::sizes(&[10, 10]).lf_only(),
        ),
    ] {
        records.push(Record::response(uri, &html(&body).chunked(chunked)));
        names.push(uri.to_owned());
    }
    // Chunked and gzip at once.
    records.push(Record::response(
        "http://both.example/",
        &html(&body)
            .content_encoding(Coding::Gzip)
            .chunked(Chunked::sizes(&[64, 64])),
    ));
    names.push("http://both.example/".into());
    let (pages, _, problems) = read(&Archive::warc(Container::GzipPerRecord, &records).bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(pages.len(), names.len());
    for (page, name) in pages.iter().zip(&names) {
        assert_eq!(page.uri.as_ref(), Some(name));
        assert!(
            page.body == body.as_bytes(),
            "{name}: {:?}",
            String::from_utf8_lossy(&page.body)
        );
        assert!(!page.coding_failed && page.truncated.is_none(), "{name}");
    }
}

#[test]
fn a_lying_content_encoding_gives_the_raw_body_and_costs_nothing_after() {
    let liar = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .header("Content-Encoding", "gzip")
        .body("<p>not gzip at all");
    let mut records = vec![Record::response("http://liar.example/", &liar)];
    for i in 0..4 {
        records.push(Record::response(
            &format!("http://good{i}.example/"),
            &html(&format!("<p>good {i}")),
        ));
    }
    let (pages, _, problems) = read(&Archive::warc(Container::GzipPerRecord, &records).bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(pages.len(), 5);
    assert_eq!(pages[0].body, b"<p>not gzip at all");
    // A page as stored: kept, and flagged.
    assert!(pages[0].coding_failed);
    assert_eq!(pages[0].content_coding, Some(ContentCoding::Failed));
    for (i, page) in pages[1..].iter().enumerate() {
        assert_eq!(page.body, format!("<p>good {i}").as_bytes());
        assert!(!page.coding_failed);
        assert_eq!(page.content_coding, None);
    }
}

/// A page of words that do not repeat (so that its compressed stream is
/// long, and half of it decodes to a part of the page), and its HTTP
/// response in `coding` stored cut after `at` bytes of the encoded body
/// (`None`: whole), under the Content-Length of all of it.
fn coded_page(coding: Coding, at: Option<usize>) -> (String, Http, usize) {
    let page = "<!DOCTYPE html><title>coded</title>".to_owned()
        + &(0..2000)
            .map(|i| format!("w{} ", i * 7919 % 10007))
            .collect::<String>();
    let http = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .body(&page)
        .content_encoding(coding);
    let whole = http.encoded_body().len();
    let http = http.header("Content-Length", &whole.to_string());
    let http = match at {
        Some(at) => http.cut_after(at),
        None => http,
    };
    (page, http, whole)
}

#[test]
fn a_body_its_coding_cannot_undo_and_that_is_no_page_is_skipped_and_said() {
    // Content-Encoding: br over 8 bytes of a cut brotli stream, which
    // give no output: the bytes as stored are compressed bytes, no page.
    // A gzip stream cut inside its header, and deflate cut after its
    // zlib header, likewise. Each costs only its record, said with the
    // record, its offset and URI; the next page is read.
    for (coding, at) in [(Coding::Br, 8), (Coding::Gzip, 12), (Coding::Deflate, 2)] {
        let (_, http, _) = coded_page(coding, Some(at));
        let records = [
            Record::response("http://undecodable.example/", &http),
            Record::response("http://next.example/", &html("<p>next")),
        ];
        for container in [Container::Plain, Container::GzipPerRecord] {
            let archive = Archive::warc(container.clone(), &records);
            let (pages, skipped, problems) = read(&archive.bytes());
            let what = format!("{} cut at {at}, {container:?}", coding.name());
            assert_eq!(uris_of(&pages), ["http://next.example/"], "{what}");
            assert!(skipped.is_empty(), "{what}: {skipped:?}");
            assert_eq!(problems.len(), 1, "{what}: {problems:?}");
            let (kind, message) = &problems[0];
            assert_eq!(*kind, ProblemKind::Undecodable, "{what}");
            let start = format!(
                "record 1 (offset 0, http://undecodable.example/): content coding {}: ",
                coding.name()
            );
            assert!(message.starts_with(&start), "{what}: {message}");
            assert!(
                message.contains("its bytes as stored are no page") && message.ends_with("skipped"),
                "{what}: {message}"
            );
        }
    }
}

#[test]
fn a_body_stored_unchunked_is_its_page_whatever_its_bytes() {
    // `chunked` declared over a body stored without its chunks (as
    // warcio stores them): only the transfer coding failed, and the body
    // is the page, a stray control byte and all.
    let http = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .header("Transfer-Encoding", "chunked")
        .body("\x01<p>stored unchunked");
    let archive = Archive::warc(
        Container::Plain,
        &[Record::response("http://unchunked.example/", &http)],
    );
    let (pages, _, problems) = read(&archive.bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(pages[0].body, b"\x01<p>stored unchunked");
    assert!(pages[0].coding_failed);
    assert_eq!(pages[0].content_coding, None);
}

#[test]
fn a_coded_body_cut_mid_stream_or_at_its_start_is_a_page_said_cut() {
    for coding in [Coding::Gzip, Coding::Br, Coding::Deflate] {
        let (page, whole_http, whole) = coded_page(coding, None);
        let (_, half_http, _) = coded_page(coding, Some(whole / 2));
        let (_, none_http, _) = coded_page(coding, Some(0));
        let records = [
            Record::response("http://whole.example/", &whole_http),
            Record::response("http://half.example/", &half_http),
            Record::response("http://none.example/", &none_http),
        ];
        for container in [Container::Plain, Container::GzipPerRecord] {
            let archive = Archive::warc(container.clone(), &records);
            let offsets = archive.offsets();
            let (pages, skipped, problems) = read(&archive.bytes());
            let what = format!("{}, {container:?}", coding.name());
            assert!(skipped.is_empty(), "{what}: {skipped:?}");
            assert_eq!(
                uris_of(&pages),
                [
                    "http://whole.example/",
                    "http://half.example/",
                    "http://none.example/"
                ],
                "{what}: {problems:?}"
            );
            assert_eq!(pages[0].body, page.as_bytes(), "{what}");
            assert_eq!(pages[0].truncated, None, "{what}");
            assert_eq!(pages[0].content_coding, Some(ContentCoding::Applied));
            // Half the stream: a part of the page, decoded.
            let half = &pages[1];
            assert!(
                !half.body.is_empty()
                    && half.body.len() < page.len()
                    && page.as_bytes().starts_with(&half.body),
                "{what}: {}",
                half.body.len()
            );
            assert_eq!(half.truncated, Some(Truncated::Payload), "{what}");
            assert_eq!(half.content_coding, Some(ContentCoding::Applied));
            // None of it: a head, and nothing to decode.
            assert_eq!(pages[2].body, b"", "{what}");
            assert_eq!(pages[2].truncated, Some(Truncated::Payload), "{what}");
            assert_eq!(pages[2].content_coding, None, "{what}");
            // Each cut page said once, after it, naming it.
            assert_eq!(problems.len(), 2, "{what}: {problems:?}");
            for ((kind, message), (n, uri)) in problems.iter().zip([(2, "half"), (3, "none")]) {
                assert_eq!(*kind, ProblemKind::Truncated, "{what}");
                let start = format!(
                    "record {n} (offset {}, http://{uri}.example/): its HTTP payload ends",
                    offsets[n - 1]
                );
                assert!(message.starts_with(&start), "{what}: {message}");
            }
        }
    }
}

#[test]
fn a_response_to_a_head_request_is_no_page_and_not_cut() {
    // A HEAD response says the Content-Length a GET would have had, and
    // has no body: warcio, warcprox and browser-based crawlers write it,
    // then its request (WARC-Concurrent-To the response). It is no page,
    // and nothing is cut. A head with nothing after it whose request is a
    // GET is a page cut (a connection closed after the head).
    let head = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .header("Content-Length", "5120");
    let request = |method: &str, concurrent_to: usize| {
        Record::request(
            "http://head.example/",
            &Http::request(method, "/").header("Host", "head.example"),
        )
        .field(
            "WARC-Concurrent-To",
            &testkit::warc::record_id(concurrent_to),
        )
    };
    for container in [Container::Plain, Container::GzipPerRecord] {
        let records = [
            Record::response("http://head.example/", &head),
            request("HEAD", 0),
            Record::response("http://head.example/", &head),
            request("GET", 2),
            Record::response("http://next.example/", &html("<p>next")),
        ];
        let archive = Archive::warc(container.clone(), &records);
        let (pages, skipped, problems) = read(&archive.bytes());
        let what = format!("{container:?}");
        assert_eq!(
            skipped,
            [Skip::NotAPage, Skip::NotAPage, Skip::NotAPage],
            "{what}"
        );
        assert_eq!(
            uris_of(&pages),
            ["http://head.example/", "http://next.example/"],
            "{what}"
        );
        assert_eq!(pages[0].truncated, Some(Truncated::Payload), "{what}");
        assert_eq!(problems.len(), 1, "{what}: {problems:?}");
        assert!(
            problems[0].1.starts_with("record 3 "),
            "{what}: {problems:?}"
        );
    }
}

#[test]
fn truncated_pages_are_processed_and_marked() {
    let archive = Archive::warc(
        Container::GzipPerRecord,
        &[
            Record::response("http://cut.example/", &html("<p>the crawler stopped"))
                .field("WARC-Truncated", "length"),
            Record::response("http://next.example/", &html("<p>next")),
        ],
    );
    let (pages, _, problems) = read(&archive.bytes());
    assert_eq!(pages[0].body, b"<p>the crawler stopped");
    assert_eq!(
        pages[0].truncated,
        Some(Truncated::Declared("length".into()))
    );
    assert_eq!(pages[1].truncated, None);
    // The crawler's cut is said as every other: once, naming the page.
    assert_eq!(
        problems,
        [(
            ProblemKind::Truncated,
            "record 1 (offset 0, http://cut.example/): truncated by the crawler (length) \
             (its page is processed as far as it goes)"
                .to_owned()
        )]
    );
}

#[test]
fn a_record_is_said_by_its_own_number_when_a_broken_unit_follows_it() {
    // A page cut by its crawler, and a body its coding cannot undo, each
    // right before a gzip member that breaks before giving a byte: the
    // reader looks past the record (for a Content-Length too short, for
    // the request of a HEAD response) into the broken member, which takes
    // a number of its own. The record's error still names the record.
    let (_, undecodable, _) = coded_page(Coding::Br, Some(8));
    for first in [
        Record::response("http://first.example/", &html("<p>the crawler stopped"))
            .field("WARC-Truncated", "length"),
        Record::response("http://first.example/", &undecodable),
    ] {
        let records = [first, numbered(1).remove(0), numbered(3).remove(2)];
        let archive = Archive::warc(Container::GzipPerRecord, &records);
        let broken = archive.corrupted(1);
        // `read` checks that a cut page's error names the page, and that
        // segments read as the reader does.
        let (pages, _, problems) = read(&broken);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0]
                .1
                .starts_with("record 1 (offset 0, http://first.example/): "),
            "{problems:?}"
        );
        assert!(
            problems[1].1.contains(": record 2 in a broken gzip member"),
            "{problems:?}"
        );
        assert_eq!(uris_of(&pages).last(), Some(&"http://p2.example/"));
    }
}

#[test]
fn a_clipped_archive_gives_its_last_page_as_far_as_it_goes() {
    // Words that do not repeat, so that most of a gzip member is its body.
    let last = "<title>last</title>".to_owned()
        + &(0..400)
            .map(|i| format!("w{} ", i * 7919 % 10007))
            .collect::<String>();
    for container in [
        Container::Plain,
        Container::GzipPerRecord,
        Container::Lz4PerRecord,
    ] {
        let archive = Archive::warc(
            container.clone(),
            &[
                Record::response("http://first.example/", &html("<p>first")),
                Record::response("http://last.example/", &html(&last)),
            ],
        );
        let bytes = archive.bytes();
        // Cut a few bytes before the last record's end: in its body.
        let cut = archive.spans()[1].end - 20;
        let (pages, _, problems) = read(&bytes[..cut]);
        assert_eq!(pages[0].body, b"<p>first");
        if container == Container::Lz4PerRecord {
            // An LZ4 block decodes whole or not at all: the record's one
            // block is lost with the cut, and said to be.
            assert_eq!(pages.len(), 1, "{problems:?}");
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].0, ProblemKind::Truncated, "{problems:?}");
            continue;
        }
        assert_eq!(pages.len(), 2, "{container:?}: {problems:?}");
        let clipped = &pages[1];
        assert!(
            matches!(clipped.truncated, Some(Truncated::ArchiveEnds { .. })),
            "{container:?}: {clipped:?}"
        );
        assert!(
            clipped.body.len() > last.len() / 2 && last.as_bytes().starts_with(&clipped.body),
            "{container:?}: {:?}",
            String::from_utf8_lossy(&clipped.body)
        );
        // Said once, after the page, naming it.
        let what = format!("{container:?}");
        one_problem_at(
            &problems,
            Some(ProblemKind::Truncated),
            archive.offsets()[1],
            &what,
        );
        assert!(
            problems[0]
                .1
                .contains("http://last.example/): the archive ends inside this record"),
            "{problems:?}"
        );
    }
}

#[test]
fn a_broken_record_costs_only_itself() {
    let records = numbered(6);
    // (An LZ4 frame has no checksum by default: a damaged one may decode
    // to other bytes, so it is not among these.)
    for container in [Container::GzipPerRecord, Container::ZstdPerRecord] {
        let archive = Archive::warc(container.clone(), &records);
        let broken = archive.corrupted(2);
        let (pages, _, problems) = read(&broken);
        let uris = uris_of(&pages);
        assert_eq!(
            uris,
            [
                "http://p0.example/",
                "http://p1.example/",
                "http://p3.example/",
                "http://p4.example/",
                "http://p5.example/"
            ],
            "{container:?}: {problems:?}"
        );
        let what = format!("{container:?}");
        one_problem_at(
            &problems,
            Some(ProblemKind::Broken),
            archive.offsets()[2],
            &what,
        );
    }
    // In a plain archive: a record whose Content-Length lies (too short:
    // its content is "HTT", no page), and the bytes after it that start
    // no record, skipped to the next one with a problem.
    let mut archive = Archive::new(Container::Plain);
    archive.push(&records[0]);
    archive.push(&Record::response("http://liar.example/", &html("<p>liar")).content_length(3));
    archive.push(&records[1]);
    let (pages, skipped, problems) = read(&archive.bytes());
    let uris = uris_of(&pages);
    assert_eq!(uris, ["http://p0.example/", "http://p1.example/"]);
    assert_eq!(skipped, [Skip::NotHtml]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].1.contains("not a record"), "{problems:?}");
}

#[test]
fn bytes_between_gzip_members_cost_no_record() {
    // A writer's stray bytes between two members, shorter and longer than
    // a gzip header (whose read of ten bytes then reaches into the next
    // member): only those bytes are lost, never the member after them.
    let records = numbered(4);
    let archive = Archive::warc(Container::GzipPerRecord, &records);
    let (bytes, at) = (archive.bytes(), archive.offsets()[2]);
    for stray in [
        &b"\n"[..],
        b"garbage\r\n",
        b"0123456789",
        b"\x1f\x8b\x08 not a member at all",
    ] {
        let mut broken = bytes[..at].to_vec();
        broken.extend_from_slice(stray);
        broken.extend_from_slice(&bytes[at..]);
        let (pages, _, problems) = read(&broken);
        let uris = uris_of(&pages);
        assert_eq!(
            uris,
            [
                "http://p0.example/",
                "http://p1.example/",
                "http://p2.example/",
                "http://p3.example/"
            ],
            "{stray:?}: {problems:?}"
        );
        one_problem_at(&problems, None, at, &format!("{stray:?}"));
    }
}

#[test]
fn a_gzip_member_cut_short_costs_only_its_record() {
    // A writer that died inside a member and went on with the next
    // record: inflating the cut member runs on into the members after
    // it, which are read again from their own starts.
    let records = numbered(5);
    let archive = Archive::warc(Container::GzipPerRecord, &records);
    let (bytes, offsets) = (archive.bytes(), archive.offsets());
    let (start, end) = (offsets[1], offsets[2]);
    for keep in [12, (end - start) / 2, end - start - 4] {
        let mut broken = bytes[..start + keep].to_vec();
        broken.extend_from_slice(&bytes[end..]);
        let (pages, _, problems) = read(&broken);
        let uris = uris_of(&pages);
        assert_eq!(
            uris,
            [
                "http://p0.example/",
                "http://p2.example/",
                "http://p3.example/",
                "http://p4.example/"
            ],
            "{keep} bytes of the member kept: {problems:?}"
        );
        assert_eq!(problems.len(), 1, "{keep}: {problems:?}");
    }
}

#[test]
fn arc_files_as_the_internet_archive_wrote_them() {
    let page = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .body("<title>1996</title>");
    let image = Http::response(200, "OK")
        .header("Content-Type", "image/gif")
        .body("GIF89a");
    for container in [Container::Plain, Container::GzipPerRecord] {
        let records = [
            ArcRecord::version_block("IA-000001.arc", "Alexa Internet"),
            ArcRecord::new("http://example.com/", "text/html", page.to_bytes()),
            ArcRecord::new("http://example.com/a.gif", "image/gif", image.to_bytes()),
            ArcRecord::new("http://example.com/b", "text/html", page.to_bytes()).v2(
                "200",
                "-",
                "-",
                0,
                "IA-000001.arc",
            ),
        ];
        let archive = Archive::arc(container.clone(), &records);
        let bytes = archive.bytes();
        assert_eq!(
            detect(&Source::from(bytes.clone()))
                .unwrap()
                .map(|f| f.kind),
            Some(Kind::Arc)
        );
        let (pages, skipped, problems) = read(&bytes);
        assert!(problems.is_empty(), "{container:?}: {problems:?}");
        assert_eq!(skipped, [Skip::NotAPage, Skip::NotHtml], "{container:?}");
        let offsets = archive.offsets();
        assert_eq!(
            pages,
            [
                got(
                    "http://example.com/",
                    "<title>1996</title>",
                    200,
                    offsets[1]
                ),
                got(
                    "http://example.com/b",
                    "<title>1996</title>",
                    200,
                    offsets[3]
                ),
            ],
            "{container:?}"
        );
    }
}

#[test]
fn several_content_types_are_read_as_a_browser_reads_them() {
    // Fetch's "extract a MIME type": the last MIME type of all the
    // Content-Type values wins; an earlier charset of its essence stays.
    let plain_then_html = Http::response(200, "OK")
        .header("Content-Type", "text/plain")
        .header("Content-Type", "text/html")
        .body("<p>last wins");
    let listed = Http::response(200, "OK")
        .header("Content-Type", "text/html, text/html; charset=koi8-r")
        .body(b"<p>\xcd\xc9\xd2");
    let charset_stays = Http::response(200, "OK")
        .header("Content-Type", "text/html; charset=koi8-r")
        .header("Content-Type", "text/html")
        .body(b"<p>\xcd\xc9\xd2");
    let html_then_plain = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .header("Content-Type", "text/plain")
        .body("<p>not a page");
    // No value parses: sniffed, as with no Content-Type.
    let unparsable = Http::response(200, "OK")
        .header("Content-Type", "html")
        .body("<!DOCTYPE html><p>sniffed");
    let archive = Archive::warc(
        Container::GzipPerRecord,
        &[
            Record::response("http://plain-then-html.example/", &plain_then_html),
            Record::response("http://listed.example/", &listed),
            Record::response("http://charset-stays.example/", &charset_stays),
            Record::response("http://html-then-plain.example/", &html_then_plain),
            Record::response("http://unparsable.example/", &unparsable),
        ],
    );
    let bytes = archive.bytes();
    let (pages, skipped, problems) = read(&bytes);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(skipped, [Skip::NotHtml]);
    assert_eq!(pages.len(), 4, "{pages:?}");
    let types: Vec<(Option<String>, Option<String>)> = Pages::new(Source::from(bytes))
        .unwrap()
        .filter_map(|event| match event {
            Event::Page(page) => Some((
                page.record.target_uri().map(str::to_owned),
                page.content_type,
            )),
            _ => None,
        })
        .collect();
    let some = |s: &str| Some(s.to_owned());
    assert_eq!(
        types,
        [
            (some("http://plain-then-html.example/"), some("text/html")),
            (
                some("http://listed.example/"),
                some("text/html;charset=koi8-r")
            ),
            (
                some("http://charset-stays.example/"),
                some("text/html; charset=koi8-r")
            ),
            (some("http://unparsable.example/"), None),
        ]
    );
}

#[test]
fn an_unreadable_status_line_is_a_problem_not_a_non_html_record() {
    let bad = Http::start_line("HTTP/1.1 abc")
        .header("Content-Type", "text/html")
        .body("<p>lost");
    // Not HTTP at all (a DNS lookup): passed over as before.
    let dns = Record::new("response")
        .uri("dns:example.com")
        .content_type("text/dns")
        .block("20261204000000\nexample.com. 300 IN A 192.0.2.1\n");
    let archive = Archive::warc(
        Container::GzipPerRecord,
        &[
            Record::response("http://bad-status.example/", &bad),
            dns,
            Record::response("http://after.example/", &html("<p>after")),
        ],
    );
    let (pages, skipped, problems) = read(&archive.bytes());
    let uris = uris_of(&pages);
    assert_eq!(uris, ["http://after.example/"]);
    assert_eq!(skipped, [Skip::NotHtml]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let (kind, what) = &problems[0];
    assert_eq!(*kind, ProblemKind::Broken);
    assert!(what.contains("record 1 "), "{what}");
    assert!(what.contains("http://bad-status.example/"), "{what}");
    assert!(what.contains("\"HTTP/1.1 abc\""), "{what}");
    assert!(what.contains("status line"), "{what}");
}

#[test]
fn a_record_cut_in_its_header_by_an_appended_one_costs_only_itself() {
    // A crawler that died while writing a record's header and appended
    // to the file when it started again: the next record's version line
    // follows the cut header, mid-line or at a line start. The cut
    // record is a problem; the appended one is its own page, under its
    // own URI, not the cut one's.
    let victim = Record::response("http://victim.example/", &html("<p>victim")).to_bytes();
    let uri_line = victim
        .windows(16)
        .position(|w| w == b"WARC-Target-URI:")
        .unwrap();
    for cut in [uri_line + 20, uri_line] {
        let mut archive = Archive::new(Container::Plain);
        archive.push(&Record::response("http://p0.example/", &html("<p>0")));
        let victim_at = archive.push_raw(&victim[..cut]).start;
        let appended_at = archive
            .push(&Record::response(
                "http://appended.example/",
                &html("<p>appended"),
            ))
            .start;
        archive.push(&Record::response("http://p2.example/", &html("<p>2")));
        let (pages, _, problems) = read(&archive.bytes());
        assert_eq!(
            pages,
            [
                got("http://p0.example/", "<p>0", 200, 0),
                got("http://appended.example/", "<p>appended", 200, appended_at),
                got("http://p2.example/", "<p>2", 200, archive.offsets()[3]),
            ],
            "cut at {cut}: {problems:?}"
        );
        assert_eq!(problems.len(), 1, "cut at {cut}: {problems:?}");
        assert_eq!(problems[0].0, ProblemKind::Broken);
        assert!(
            problems[0].1.contains(&format!("offset {victim_at}"))
                && problems[0].1.contains(&format!("offset {appended_at}")),
            "cut at {cut}: {}",
            problems[0].1
        );
    }
}

#[test]
fn a_record_cut_in_its_content_by_an_appended_one_costs_only_itself() {
    // A crawler that died while writing a page and appended to the file
    // when it started again: the cut record's Content-Length runs into
    // the appended record. The cut page goes out as far as it goes,
    // marked; the appended record is read whole; a problem says so.
    let body = "<title>victim</title>".to_owned() + &"<p>words ".repeat(40);
    let victim = Record::response("http://victim.example/", &html(&body)).to_bytes();
    let cut = victim.len() - 150;
    let mut archive = Archive::new(Container::Plain);
    archive.push(&Record::response("http://p0.example/", &html("<p>0")));
    archive.push_raw(&victim[..cut]);
    let appended_at = archive
        .push(&Record::response(
            "http://appended.example/",
            &html("<p>appended"),
        ))
        .start;
    archive.push(&Record::response("http://p2.example/", &html("<p>2")));
    let (pages, _, problems) = read(&archive.bytes());
    let uris = uris_of(&pages);
    assert_eq!(
        uris,
        [
            "http://p0.example/",
            "http://victim.example/",
            "http://appended.example/",
            "http://p2.example/"
        ],
        "{problems:?}"
    );
    let cut_page = &pages[1];
    assert!(cut_page.truncated.is_some(), "{cut_page:?}");
    assert!(
        body.as_bytes().starts_with(&cut_page.body) && cut_page.body.len() > body.len() / 2,
        "{:?}",
        String::from_utf8_lossy(&cut_page.body)
    );
    assert_eq!(
        pages[2],
        got("http://appended.example/", "<p>appended", 200, appended_at)
    );
    // One problem says the page is cut, and by what.
    one_problem_at(&problems, Some(ProblemKind::Truncated), appended_at, "");
}

#[test]
fn a_content_length_too_long_costs_only_its_record() {
    // A writer's wrong Content-Length, longer than the record: the next
    // record is not swallowed with it.
    for container in [Container::Plain, Container::GzipPerRecord] {
        let mut archive = Archive::new(container.clone());
        archive.push(&Record::response("http://p0.example/", &html("<p>0")));
        let liar = Record::response("http://liar.example/", &html("<p>liar"));
        let length = liar.to_bytes().len();
        archive.push(&liar.content_length(length + 40));
        archive.push(&Record::response("http://p1.example/", &html("<p>1")));
        archive.push(&Record::response("http://p2.example/", &html("<p>2")));
        let offsets = archive.offsets();
        let (pages, _, problems) = read(&archive.bytes());
        let uris = uris_of(&pages);
        assert_eq!(
            uris,
            [
                "http://p0.example/",
                "http://liar.example/",
                "http://p1.example/",
                "http://p2.example/"
            ],
            "{container:?}: {problems:?}"
        );
        assert_eq!(pages[1].body, b"<p>liar", "{container:?}");
        assert_eq!(pages[2], got("http://p1.example/", "<p>1", 200, offsets[2]));
        let what = format!("{container:?}");
        one_problem_at(&problems, Some(ProblemKind::Truncated), offsets[2], &what);
    }
}

#[test]
fn a_record_right_after_bytes_without_a_line_end_is_read() {
    // Bytes that are no record and end without a line end, the next
    // record right after them: the zeros a file system leaves in a file
    // whose writer crashed, before the records written after a restart;
    // a record one byte longer than its Content-Length, without the
    // blank lines that end a record.
    let block = html("<p>liar").to_bytes().len();
    let liar = Record::response("http://liar.example/", &html("<p>liar"))
        .content_length(block - 1)
        .end("");
    for container in [Container::Plain, Container::GzipWhole] {
        for junk in [&[0u8; 1000][..], b"\x00\xff junk without a line end"] {
            let mut archive = Archive::new(container.clone());
            archive.push(&Record::response("http://p0.example/", &html("<p>0")));
            archive.push_raw(junk);
            archive.push(&Record::response("http://p1.example/", &html("<p>1")));
            archive.push(&liar);
            archive.push(&Record::response("http://p2.example/", &html("<p>2")));
            let (pages, _, problems) = read(&archive.bytes());
            let uris = uris_of(&pages);
            assert_eq!(
                uris,
                [
                    "http://p0.example/",
                    "http://p1.example/",
                    "http://liar.example/",
                    "http://p2.example/"
                ],
                "{container:?}: {problems:?}"
            );
            assert_eq!(pages[1].body, b"<p>1", "{container:?}");
            assert_eq!(pages[2].body, b"<p>lia", "{container:?}");
            assert_eq!(pages[3].body, b"<p>2", "{container:?}");
            assert_eq!(problems.len(), 2, "{container:?}: {problems:?}");
            assert!(
                problems[0]
                    .1
                    .contains(&format!("{} bytes that are not a record", junk.len())),
                "{container:?}: {problems:?}"
            );
            // The liar's last byte: its record going on past its
            // Content-Length, said once, the page marked cut.
            assert_eq!(
                pages[2].truncated,
                Some(Truncated::ContentLengthShort {
                    declared: block as u64 - 1
                })
            );
            assert!(
                problems[1].1.contains("goes on past its Content-Length")
                    && problems[1].1.contains("the 1 bytes after it"),
                "{container:?}: {problems:?}"
            );
        }
    }
}

#[test]
fn a_record_with_a_header_that_cannot_be_read_is_one_problem() {
    // A header line longer than 1 MiB, a header larger than 1 MiB, a
    // header without a valid Content-Length: the record is skipped to
    // the next one, and said once, with the record's number and offset.
    let page = Record::response("http://lost.example/", &html("<p>lost\r\nlines\r\n"));
    let many_fields: String = (0..30_000)
        .map(|i| format!("X-{i}: {}\r\n", "y".repeat(40)))
        .collect();
    let many_fields = [
        b"WARC/1.1\r\n",
        many_fields.as_bytes(),
        &page.to_bytes()[10..],
    ]
    .concat();
    let broken = [
        page.clone()
            .field("X-Long", &"x".repeat(1 << 20))
            .to_bytes(),
        many_fields,
        page.clone().field("Content-Length", "-5").to_bytes(),
        page.without("Content-Length").to_bytes(),
    ];
    for record in &broken {
        let mut archive = Archive::new(Container::Plain);
        archive.push(&Record::response("http://p0.example/", &html("<p>0")));
        let at = archive.push_raw(record).start;
        archive.push(&Record::response("http://p1.example/", &html("<p>1")));
        let (pages, _, problems) = read(&archive.bytes());
        let uris = uris_of(&pages);
        assert_eq!(
            uris,
            ["http://p0.example/", "http://p1.example/"],
            "{problems:?}"
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, ProblemKind::Broken);
        assert!(
            problems[0].1.starts_with(&format!("record 2 (offset {at}")),
            "{problems:?}"
        );
    }
}

#[test]
fn a_line_that_is_no_arc_header_costs_only_itself() {
    let page = |title: &str| {
        Http::response(200, "OK")
            .header("Content-Type", "text/html")
            .body(format!("<title>{title}</title>"))
            .to_bytes()
    };
    for container in [Container::Plain, Container::GzipWhole] {
        let mut archive = Archive::new(container.clone());
        archive.push_arc(&ArcRecord::version_block("IA-000001.arc", "Alexa Internet"));
        archive.push_arc(&ArcRecord::new("http://a.example/", "text/html", page("a")));
        archive.push_raw(b"garbage line\n");
        archive.push_arc(&ArcRecord::new("http://b.example/", "text/html", page("b")));
        archive.push_arc(&ArcRecord::new("http://c.example/", "text/html", page("c")));
        let (pages, _, problems) = read(&archive.bytes());
        let uris = uris_of(&pages);
        assert_eq!(
            uris,
            [
                "http://a.example/",
                "http://b.example/",
                "http://c.example/"
            ],
            "{container:?}: {problems:?}"
        );
        assert_eq!(problems.len(), 1, "{container:?}: {problems:?}");
        assert!(
            problems[0].1.contains("13 bytes that are not a record"),
            "{container:?}: {problems:?}"
        );
    }
}

#[test]
fn an_empty_content_type_is_none_and_the_bytes_are_sniffed() {
    // `Content-Type:` with no value gives no MIME type (Fetch's "extract
    // a MIME type" fails), so a browser sniffs the bytes, as for a
    // response without the field.
    let page = Http::response(200, "OK")
        .header("Content-Type", "")
        .body("<!DOCTYPE html><title>untyped</title>");
    let image = Http::response(200, "OK")
        .header("Content-Type", " ")
        .body(b"\x89PNG\r\n\x1a\n");
    let archive = Archive::warc(
        Container::Plain,
        &[
            Record::response("http://page.example/", &page),
            Record::response("http://image.example/", &image),
            Record::resource("http://resource.example/", "", "<!DOCTYPE html><p>r"),
        ],
    );
    let (pages, skipped, problems) = read(&archive.bytes());
    assert!(problems.is_empty(), "{problems:?}");
    let uris = uris_of(&pages);
    assert_eq!(uris, ["http://page.example/", "http://resource.example/"]);
    assert_eq!(pages[0].body, b"<!DOCTYPE html><title>untyped</title>");
    assert_eq!(skipped, [Skip::NotHtml]);
}

#[test]
fn a_gzip_member_cut_by_an_appended_one_costs_only_itself() {
    // A crawler that died while writing a gzip member and appended
    // members when it started again. The cut member's deflate data
    // goes on into the appended members' bytes (here a stored block,
    // whose length runs over them) before it fails: the members it went
    // through are still read.
    use std::io::Write;
    let mut stored = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
    let body = "<p>victim ".repeat(300);
    stored
        .write_all(&Record::response("http://victim.example/", &html(&body)).to_bytes())
        .unwrap();
    let stored = stored.finish().unwrap();
    let mut bytes = testkit::warc::gzip_member(
        &Record::response("http://p0.example/", &html("<p>0")).to_bytes(),
    );
    bytes.extend_from_slice(&stored[..400]);
    let uris: Vec<String> = (1..30).map(|i| format!("http://p{i}.example/")).collect();
    for uri in &uris {
        let member = testkit::warc::gzip_member(&Record::response(uri, &html("<p>n")).to_bytes());
        bytes.extend_from_slice(&member);
    }
    let (pages, _, problems) = read(&bytes);
    let got = uris_of(&pages);
    let mut want = vec!["http://p0.example/"];
    want.extend(uris.iter().map(String::as_str));
    assert_eq!(got, want, "{problems:?}");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].1.contains("broken gzip member at offset"),
        "{problems:?}"
    );
}

#[test]
fn a_page_that_decodes_past_the_largest_page_is_cut_and_says_so() {
    // A small gzip body that inflates past `max_page` (a bomb, or just a
    // big page): cut at `max_page`, as too large, not as a payload that
    // ends inside its compressed stream.
    let big = "<p>".to_owned() + &"a".repeat(10_000);
    let http = html(&big).content_encoding(Coding::Gzip);
    let archive = Archive::warc(
        Container::Plain,
        &[
            Record::response("http://big.example/", &http),
            Record::response("http://next.example/", &html("<p>next")),
        ],
    );
    let options = Options::default().with_max_page(1000);
    let events: Vec<Event> = Pages::with_options(Source::from(archive.bytes()), options)
        .unwrap()
        .collect();
    match &events[..] {
        [Event::Page(big_page), Event::Problem(said), Event::Page(next)] => {
            assert_eq!(&big_page.body[..], &big.as_bytes()[..1000]);
            assert_eq!(big_page.truncated, Some(Truncated::TooLarge));
            assert_eq!(
                (said.kind(), said.record(), said.to_string()),
                (
                    ProblemKind::Truncated,
                    Some(1),
                    "record 1 (offset 0, http://big.example/): larger than the largest page \
                     read: cut there (its page is processed as far as it goes)"
                        .to_owned()
                )
            );
            assert_eq!(&next.body[..], b"<p>next");
            assert_eq!(next.truncated, None);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn zeros_after_the_last_unit_or_record_are_no_problem() {
    // A `.warc.gz` padded with NUL bytes to a block's end (as tar, a
    // tape or a writer that preallocates leaves it): `gzip -d` ignores
    // trailing zeros, and so does the reader. Zeros with more bytes
    // after them are not padding: those bytes are a problem, as ever.
    let records = numbered(3);
    let want = [
        "http://p0.example/",
        "http://p1.example/",
        "http://p2.example/",
    ];
    // Any archive can sit in a padded block: a plain one, LZ4 or
    // Zstandard frames too.
    for container in [
        Container::GzipPerRecord,
        Container::GzipWhole,
        Container::Plain,
        Container::Lz4PerRecord,
        Container::ZstdPerRecord,
    ] {
        let bytes = Archive::warc(container.clone(), &records).bytes();
        let block = 10240 - bytes.len() % 10240;
        for pad in [1, 9, 10, 11, 512, block, 70_000] {
            let mut padded = bytes.clone();
            padded.resize(bytes.len() + pad, 0);
            let (pages, _, problems) = read(&padded);
            assert_eq!(uris_of(&pages), want, "{container:?}, {pad} zeros");
            assert!(
                problems.is_empty(),
                "{container:?}, {pad} zeros: {problems:?}"
            );
        }
        // One more record, in the archive's own container.
        let last = Archive::warc(
            container.clone(),
            &[Record::response("http://after.example/", &html("<p>after"))],
        )
        .bytes();
        for tail in [&b"x"[..], b"\0\0garbage\r\n", &last] {
            let mut padded = bytes.clone();
            padded.resize(bytes.len() + 512, 0);
            padded.extend_from_slice(tail);
            let (pages, _, problems) = read(&padded);
            assert_eq!(&uris_of(&pages)[..3], want, "{container:?}, {tail:?}");
            let what = format!("{container:?}, {tail:?}");
            one_problem_at(&problems, None, bytes.len(), &what);
            if tail == &last[..] {
                assert_eq!(uris_of(&pages)[3], "http://after.example/");
            }
        }
    }
}

#[test]
fn zeros_after_the_last_arc_record_are_no_problem() {
    // As for WARC: an ARC file padded with NUL bytes ends at its last
    // record. (A NUL never starts an ARC header line, which is a URL.)
    let page = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .body("<p>arc");
    let uris = ["http://a.example/", "http://b.example/"];
    let records = [
        ArcRecord::version_block("IA-000002.arc", "Alexa Internet"),
        ArcRecord::new(uris[0], "text/html", page.to_bytes()),
        ArcRecord::new(uris[1], "text/html", page.to_bytes()),
    ];
    for container in [Container::Plain, Container::GzipPerRecord] {
        let bytes = Archive::arc(container.clone(), &records).bytes();
        for pad in [1, 2, 10, 512, 70_000] {
            let mut padded = bytes.clone();
            padded.resize(bytes.len() + pad, 0);
            let (pages, _, problems) = read(&padded);
            assert_eq!(uris_of(&pages), uris, "{container:?}, {pad} zeros");
            assert!(
                problems.is_empty(),
                "{container:?}, {pad} zeros: {problems:?}"
            );
        }
        // Zeros and then a record, right after them (no line end between):
        // the zeros are a problem, the record is read.
        let after = Archive::arc(
            container.clone(),
            &[ArcRecord::new(
                "http://after.example/",
                "text/html",
                page.to_bytes(),
            )],
        )
        .bytes();
        let mut padded = bytes.clone();
        padded.resize(bytes.len() + 512, 0);
        padded.extend_from_slice(&after);
        let (pages, _, problems) = read(&padded);
        let what = format!("{container:?}, zeros then a record");
        assert_eq!(
            uris_of(&pages),
            [uris[0], uris[1], "http://after.example/"],
            "{what}"
        );
        one_problem_at(&problems, None, bytes.len(), &what);
    }
}

#[test]
fn a_record_that_cannot_be_read_still_counts() {
    // A record lost with its broken gzip member (or Zstandard frame) is
    // still one of the archive's records: those after it are numbered by
    // their places in the archive, and the problem says which it was.
    let records = numbered(6);
    let numbers = |bytes: &[u8]| {
        // In order and in segments alike (`read` checks they agree).
        let (_, _, problems) = read(bytes);
        let mut pages = Vec::new();
        for event in Pages::new(Source::from(bytes.to_vec())).unwrap() {
            if let Event::Page(page) = event {
                let uri = page.record.target_uri().unwrap_or_default().to_owned();
                pages.push((uri, page.record.number()));
            }
        }
        (pages, problems)
    };
    let want = |lost: usize| -> Vec<(String, u64)> {
        (0..6)
            .filter(|&i| i != lost)
            .map(|i| (format!("http://p{i}.example/"), i as u64 + 1))
            .collect()
    };
    for container in [Container::GzipPerRecord, Container::ZstdPerRecord] {
        let archive = Archive::warc(container.clone(), &records);
        let (pages, problems) = numbers(&archive.corrupted(2));
        assert_eq!(pages, want(2), "{container:?}: {problems:?}");
        assert_eq!(problems.len(), 1, "{container:?}: {problems:?}");
        assert!(
            problems[0].1.contains(": record 3 in a broken"),
            "{problems:?}"
        );
    }
    // A member cut short by the writer's death, the next members appended.
    let archive = Archive::warc(Container::GzipPerRecord, &records);
    let (bytes, offsets) = (archive.bytes(), archive.offsets());
    for keep in [12, (offsets[2] - offsets[1]) / 2] {
        let mut broken = bytes[..offsets[1] + keep].to_vec();
        broken.extend_from_slice(&bytes[offsets[2]..]);
        let (pages, problems) = numbers(&broken);
        assert_eq!(pages, want(1), "{keep}: {problems:?}");
        assert!(
            problems[0].1.contains(": record 2 in a broken"),
            "{problems:?}"
        );
    }
    // Bytes between members are no record: they cost no number.
    let mut stray = bytes[..offsets[2]].to_vec();
    stray.extend_from_slice(b"garbage\r\n");
    stray.extend_from_slice(&bytes[offsets[2]..]);
    let (pages, problems) = numbers(&stray);
    assert_eq!(pages, want(99), "{problems:?}");
}

#[test]
fn a_content_length_too_short_marks_its_page_cut() {
    // A writer's wrong Content-Length, shorter than the record's block:
    // the page is what the Content-Length gives, marked cut, with one
    // problem for the record; the bytes left over are not a second one.
    for (body, declared_body) in [
        ("<p>liar<p>and the rest", "<p>liar"),
        ("<p>liar\r\n<p>more", "<p>liar"),
        ("<p>liar\r\n", "<p>li"),
    ] {
        for container in [Container::Plain, Container::GzipPerRecord] {
            let http = html(body);
            let cut = body.len() - declared_body.len();
            let length = http.to_bytes().len() - cut;
            let mut archive = Archive::new(container.clone());
            archive.push(&Record::response("http://p0.example/", &html("<p>0")));
            archive.push(&Record::response("http://liar.example/", &http).content_length(length));
            archive.push(&Record::response("http://p1.example/", &html("<p>1")));
            archive.push(&Record::response("http://p2.example/", &html("<p>2")));
            let offsets = archive.offsets();
            let (pages, skipped, problems) = read(&archive.bytes());
            let what = format!("{container:?}, {body:?}");
            assert_eq!(
                uris_of(&pages),
                [
                    "http://p0.example/",
                    "http://liar.example/",
                    "http://p1.example/",
                    "http://p2.example/"
                ],
                "{what}: {problems:?}"
            );
            assert!(skipped.is_empty(), "{what}: {skipped:?}");
            assert_eq!(pages[1].body, declared_body.as_bytes(), "{what}");
            assert_eq!(
                pages[1].truncated,
                Some(Truncated::ContentLengthShort {
                    declared: length as u64
                }),
                "{what}"
            );
            assert_eq!(pages[2], got("http://p1.example/", "<p>1", 200, offsets[2]));
            // One problem, which says the page is cut.
            assert_eq!(problems.len(), 1, "{what}: {problems:?}");
            assert_eq!(problems[0].0, ProblemKind::Truncated);
            assert!(
                problems[0]
                    .1
                    .starts_with(&format!("record 2 (offset {}", offsets[1]))
                    && problems[0].1.contains("Content-Length"),
                "{what}: {}",
                problems[0].1
            );
        }
    }
    // A record whose member ends with its content, the next member no
    // record: those bytes are between records, the page is whole.
    let mut bytes = testkit::warc::gzip_member(
        &Record::response("http://p0.example/", &html("<p>0"))
            .end("")
            .to_bytes(),
    );
    bytes.extend_from_slice(&testkit::warc::gzip_member(b"garbage\r\n"));
    bytes.extend_from_slice(&testkit::warc::gzip_member(
        &Record::response("http://p1.example/", &html("<p>1")).to_bytes(),
    ));
    let (pages, _, problems) = read(&bytes);
    assert_eq!(
        uris_of(&pages),
        ["http://p0.example/", "http://p1.example/"]
    );
    assert_eq!(pages[0].truncated, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].1.contains("not a record"), "{problems:?}");
    // Records that end without CRLF CRLF, or with a bare LF, are whole.
    for end in ["", "\n", "\r\n"] {
        for container in [Container::Plain, Container::GzipPerRecord] {
            let records: Vec<Record> = numbered(3).into_iter().map(|r| r.end(end)).collect();
            let (pages, _, problems) = read(&Archive::warc(container.clone(), &records).bytes());
            assert_eq!(pages.len(), 3, "{end:?} {container:?}: {problems:?}");
            assert!(problems.is_empty(), "{end:?} {container:?}: {problems:?}");
            assert!(pages.iter().all(|p| p.truncated.is_none()), "{pages:?}");
        }
    }
}

#[test]
fn a_page_that_goes_on_into_a_broken_unit_is_said_cut_by_its_own_number() {
    // A Content-Length too short, the record's bytes going on in its gzip
    // member, and the member after it broken before it gives a byte: the
    // reader, skipping the leftover bytes to the next record, meets the
    // broken member. The page is still said cut, by an error that names
    // it, and the broken member is an error of its own.
    // Left over: fewer bytes than the reader looks at after a record, and
    // more.
    let long = format!("<p>and the rest{}", " of it".repeat(40));
    for (rest, broken) in [("<p>and the rest", 1), (&long[..], 1), (&long[..], 2)] {
        let http = html(&format!("<p>liar{rest}"));
        let length = http.to_bytes().len() - rest.len();
        let records = [
            Record::response("http://liar.example/", &http).content_length(length),
            numbered(2).remove(1),
            numbered(3).remove(2),
        ];
        let archive = Archive::warc(Container::GzipPerRecord, &records);
        let bytes = archive.corrupted(broken);
        // `read` checks that a cut page is said right after it, by its
        // own number.
        let (pages, _, problems) = read(&bytes);
        assert_eq!(
            pages[0].truncated,
            Some(Truncated::ContentLengthShort {
                declared: length as u64
            }),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|(_, what)| what.contains("broken gzip member")),
            "{problems:?}"
        );
    }
}
