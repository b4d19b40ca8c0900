//! Writes seed archives for the `warc` fuzz target into the directory
//! given: small archives of every kind `testkit::warc` writes (every
//! container, WARC versions, ARC, codings, damage), each behind the
//! target's one-byte header (format pick and segment size).
//!
//! ```text
//! cargo run --example warc_seeds -- fuzz/corpus/warc
//! ```

use std::path::PathBuf;

use testkit::warc::{ArcRecord, Archive, Chunked, Coding, Container, Http, Record, ZstdDictionary};

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).expect("usage: warc_seeds DIR"));
    std::fs::create_dir_all(&dir).expect("create the seed directory");
    let page = |body: &str| {
        Http::response(200, "OK")
            .header("Content-Type", "text/html; charset=utf-8")
            .body(body)
    };
    let records = vec![
        Record::warcinfo("software: seeds\r\n"),
        Record::request("http://a.example/", &Http::request("GET", "/")),
        Record::response("http://a.example/", &page("<title>a</title><p>text")),
        Record::response(
            "http://b.example/",
            &page("<p>gzip").content_encoding(Coding::Gzip),
        ),
        Record::response(
            "http://c.example/",
            &page("<p>chunked body").chunked(Chunked::sizes(&[3, 4])),
        ),
        Record::response("http://d.example/", &page("<p>lf").bare_lf()).version("0.18"),
        Record::revisit(
            "http://a.example/",
            "http://a.example/",
            "2026-12-01T00:00:00Z",
        ),
        Record::resource("http://e.example/", "text/html", "<p>resource")
            .field("WARC-Truncated", "length"),
    ];
    let containers = [
        Container::Plain,
        Container::GzipPerRecord,
        Container::GzipWhole,
        Container::Lz4PerRecord,
        Container::ZstdPerRecord,
        Container::ZstdDictionary {
            dictionary: ZstdDictionary::for_tests(),
            compressed: true,
        },
    ];
    let mut n = 0;
    let mut write = |bytes: &[u8]| {
        for pick in [0u8, 0x28] {
            let mut seed = vec![pick];
            seed.extend_from_slice(bytes);
            std::fs::write(dir.join(format!("seed-{n}")), seed).expect("write a seed");
            n += 1;
        }
    };
    for container in containers {
        let archive = Archive::warc(container.clone(), &records);
        let bytes = archive.bytes();
        write(&bytes);
        let spans = archive.spans().to_vec();
        write(&archive.clipped(spans[spans.len() - 1].start + 30));
        if container != Container::GzipWhole {
            write(&archive.corrupted(2));
        }
    }
    let arc = Archive::arc(
        Container::GzipPerRecord,
        &[
            ArcRecord::version_block("a.arc", "Seeds"),
            ArcRecord::new("http://a.example/", "text/html", page("<p>arc").to_bytes()),
        ],
    );
    write(&arc.bytes());
    eprintln!("{n} seeds in {}", dir.display());
}
