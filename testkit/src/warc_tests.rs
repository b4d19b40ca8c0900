//! The WARC writer checked against independent decoders (flate2, lz4_flex's
//! frame decoder, ruzstd, brotli-decompressor, a chunked decoder written
//! here) and against records written by hand from the WARC 1.1 and ARC
//! specifications.

use std::io::Read;

use crate::warc::{
    gzip_member, record_id, ArcRecord, Archive, Chunked, Coding, Container, Http, Record,
    ZstdDictionary,
};
use flate2::read::{DeflateDecoder, GzDecoder, MultiGzDecoder, ZlibDecoder};
use ruzstd::decoding::{BlockDecodingStrategy, Dictionary, FrameDecoder};

fn gunzip_all(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    MultiGzDecoder::new(bytes).read_to_end(&mut out)?;
    Ok(out)
}

/// One gzip member, which must fill `bytes` exactly.
fn gunzip_member(bytes: &[u8]) -> Vec<u8> {
    let mut decoder = GzDecoder::new(bytes);
    let mut out = Vec::new();
    decoder.read_to_end(&mut out).unwrap();
    assert!(decoder.into_inner().is_empty(), "bytes after the member");
    out
}

/// LZ4 frames one after another (lz4_flex's decoder stops after one).
fn unlz4(mut bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        lz4_flex::frame::FrameDecoder::new(&mut bytes)
            .read_to_end(&mut out)
            .unwrap();
    }
    out
}

/// One zstd frame, which must fill `frame` exactly, its checksum checked.
fn unzstd(frame: &[u8], dictionary: Option<&[u8]>) -> Result<Vec<u8>, String> {
    let mut decoder = FrameDecoder::new();
    if let Some(dictionary) = dictionary {
        let dictionary = Dictionary::decode_dict(dictionary).map_err(|e| e.to_string())?;
        decoder.add_dict(dictionary).map_err(|e| e.to_string())?;
    }
    let mut input = frame;
    decoder.init(&mut input).map_err(|e| e.to_string())?;
    decoder
        .decode_blocks(&mut input, BlockDecodingStrategy::All)
        .map_err(|e| e.to_string())?;
    assert!(decoder.is_finished());
    assert!(input.is_empty(), "{} bytes after the frame", input.len());
    let out = decoder.collect().unwrap_or_default();
    let stored = decoder.get_checksum_from_data();
    assert!(stored.is_some(), "the frame has no checksum");
    if stored != decoder.get_calculated_checksum() {
        return Err("checksum mismatch".into());
    }
    Ok(out)
}

/// What a zstd frame header says (RFC 8878 section 3.1.1.1): the
/// dictionary ID if any, whether it has its content size and a checksum.
#[derive(Debug, PartialEq)]
struct ZstdHeader {
    dictionary_id: Option<u32>,
    content_size: Option<u64>,
    checksum: bool,
}

fn zstd_header(frame: &[u8]) -> ZstdHeader {
    assert_eq!(frame[..4], [0x28, 0xb5, 0x2f, 0xfd], "zstd magic");
    let descriptor = frame[4];
    let fcs_flag = descriptor >> 6;
    let single_segment = descriptor & 0x20 != 0;
    let checksum = descriptor & 0x04 != 0;
    let did_size = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let mut at = 5 + usize::from(!single_segment);
    let le = |bytes: &[u8]| {
        bytes
            .iter()
            .rev()
            .fold(0u64, |n, &b| (n << 8) | u64::from(b))
    };
    let dictionary_id = (did_size > 0).then(|| le(&frame[at..at + did_size]) as u32);
    at += did_size;
    let fcs_size = match (fcs_flag, single_segment) {
        (0, false) => 0,
        (0, true) => 1,
        (1, _) => 2,
        (2, _) => 4,
        _ => 8,
    };
    let content_size = (fcs_size > 0).then(|| {
        let n = le(&frame[at..at + fcs_size]);
        if fcs_size == 2 {
            n + 256
        } else {
            n
        }
    });
    ZstdHeader {
        dictionary_id,
        content_size,
        checksum,
    }
}

/// The chunks of a chunked body (RFC 9112 section 7.1), with CRLF or bare
/// LF line ends: each chunk's data and extension, and the bytes after the
/// last chunk's line.
fn unchunk(mut body: &[u8]) -> (Vec<(Vec<u8>, String)>, Vec<u8>) {
    let mut chunks = Vec::new();
    loop {
        let eol = body.iter().position(|&b| b == b'\n').expect("size line");
        let line = std::str::from_utf8(&body[..eol]).unwrap();
        let line = line.strip_suffix('\r').unwrap_or(line);
        body = &body[eol + 1..];
        let (size, extension) = line.split_at(line.find(';').unwrap_or(line.len()));
        let size = usize::from_str_radix(size, 16).unwrap();
        if size == 0 {
            return (chunks, body.to_vec());
        }
        chunks.push((body[..size].to_vec(), extension.to_owned()));
        body = &body[size..];
        body = body
            .strip_prefix(b"\r\n")
            .or_else(|| body.strip_prefix(b"\n"))
            .expect("line end after the chunk data");
    }
}

/// An HTTP message split at its empty line: the head's lines, the body.
fn split_http(message: &[u8]) -> (Vec<&[u8]>, &[u8]) {
    for (at, window) in message.windows(2).enumerate() {
        let end = match window {
            b"\n\n" => at + 2,
            b"\n\r" if message.get(at + 2) == Some(&b'\n') => at + 3,
            _ => continue,
        };
        let head = &message[..=at];
        let lines = head
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .collect();
        return (lines, &message[end..]);
    }
    panic!("no empty line in the message");
}

fn some_records() -> Vec<Record> {
    let page = |n: usize| {
        Http::response(200, "OK")
            .header("Content-Type", "text/html")
            .body(format!(
                "<title>page {n}</title>{}",
                "<p>text ".repeat(n * 40)
            ))
    };
    vec![
        Record::warcinfo("software: htmltok tests\r\nformat: WARC File Format 1.1\r\n"),
        Record::response("http://example.com/1", &page(1)),
        Record::request(
            "http://example.com/2",
            &Http::request("GET", "/2").header("Host", "example.com"),
        ),
        Record::response("http://example.com/2", &page(2)),
        Record::resource("file:///3.html", "text/html", "<title>3</title>"),
        Record::metadata(
            "http://example.com/2",
            "application/warc-fields",
            "via: x\r\n",
        ),
    ]
}

// ---------------------------------------------------------------------------
// Exact bytes, written by hand from the specifications.

#[test]
fn warc_response_record_is_byte_exact() {
    let http = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .body("<p>hi</p>");
    let record = Record::response("http://example.com/", &http)
        .id("a0b1c2d3-e4f5-4a6b-8c7d-8e9fa0b1c2d3")
        .date("2024-01-02T03:04:05Z")
        .field(
            "WARC-Payload-Digest",
            "sha1:UZY6ND6CCHXETFVJD2MSS7ZENMWF7KQ2",
        );
    // WARC 1.1 section 4: version line, named fields, CRLF each, an empty
    // line, the block, two CRLFs. The block: 17 + 25 + 2 + 9 = 53 bytes.
    let expected: &[u8] = b"WARC/1.1\r\n\
        WARC-Type: response\r\n\
        WARC-Record-ID: <urn:uuid:a0b1c2d3-e4f5-4a6b-8c7d-8e9fa0b1c2d3>\r\n\
        WARC-Date: 2024-01-02T03:04:05Z\r\n\
        WARC-Target-URI: http://example.com/\r\n\
        WARC-Payload-Digest: sha1:UZY6ND6CCHXETFVJD2MSS7ZENMWF7KQ2\r\n\
        Content-Type: application/http; msgtype=response\r\n\
        Content-Length: 53\r\n\
        \r\n\
        HTTP/1.1 200 OK\r\n\
        Content-Type: text/html\r\n\
        \r\n\
        <p>hi</p>\
        \r\n\r\n";
    assert_eq!(
        String::from_utf8_lossy(&record.to_bytes()),
        String::from_utf8_lossy(expected)
    );
}

#[test]
fn warc_resource_and_warcinfo_are_byte_exact() {
    let mut archive = Archive::new(Container::Plain);
    archive.push(&Record::warcinfo("software: x\r\n").version("1.0"));
    archive.push(&Record::resource("urn:x", "text/plain", "abc").date("2009-03-65T08:43:19-0800"));
    let expected: &[u8] = b"WARC/1.0\r\n\
        WARC-Type: warcinfo\r\n\
        WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\n\
        WARC-Date: 2026-12-03T00:00:00Z\r\n\
        Content-Type: application/warc-fields\r\n\
        Content-Length: 13\r\n\
        \r\n\
        software: x\r\n\
        \r\n\r\n\
        WARC/1.1\r\n\
        WARC-Type: resource\r\n\
        WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n\
        WARC-Date: 2009-03-65T08:43:19-0800\r\n\
        WARC-Target-URI: urn:x\r\n\
        Content-Type: text/plain\r\n\
        Content-Length: 3\r\n\
        \r\n\
        abc\r\n\r\n";
    assert_eq!(
        String::from_utf8_lossy(&archive.bytes()),
        String::from_utf8_lossy(expected)
    );
    // The warcinfo: 10 + 21 + 65 + 33 + 39 + 20 + 2 + 13 + 4 bytes.
    assert_eq!(archive.offsets(), [0, 207]);
    assert!(expected[207..].starts_with(b"WARC/1.1\r\n"));
}

#[test]
fn arc_file_is_byte_exact() {
    // The ARC v1 file format (Internet Archive, 1996): the version block,
    // then per document a URL record line, the document, an LF.
    let http = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .body("<p>1996</p>");
    let archive = Archive::arc(
        Container::Plain,
        &[
            ArcRecord::version_block("IA-000001.arc", "Alexa Internet").date("19961104142103"),
            ArcRecord::new("http://www.example.edu:80/", "text/html", http.to_bytes())
                .ip("127.10.100.2")
                .date("19961104142103"),
        ],
    );
    // 19 + 56 bytes of version block; 17 + 25 + 2 + 11 of document.
    let expected: &[u8] = b"filedesc://IA-000001.arc 0.0.0.0 19961104142103 text/plain 75\n\
        1 0 Alexa Internet\n\
        URL IP-address Archive-date Content-type Archive-length\n\
        \n\
        http://www.example.edu:80/ 127.10.100.2 19961104142103 text/html 55\n\
        HTTP/1.1 200 OK\r\n\
        Content-Type: text/html\r\n\
        \r\n\
        <p>1996</p>\n";
    assert_eq!(
        String::from_utf8_lossy(&archive.bytes()),
        String::from_utf8_lossy(expected)
    );
    assert_eq!(archive.offsets(), [0, 138]);
    assert!(expected[138..].starts_with(b"http://www.example.edu"));

    // ARC v2: result code, checksum, location, offset and file name before
    // the length.
    let v2 = ArcRecord::new("http://a.example/", "text/html", "x")
        .v2("200", "sha1:ABC", "-", 138, "IA-000001.arc")
        .ip("10.0.0.1");
    assert_eq!(
        v2.to_bytes(),
        b"http://a.example/ 10.0.0.1 20261203000000 text/html 200 sha1:ABC - 138 IA-000001.arc 1\nx\n"
    );
}

#[test]
fn arc_gz_is_a_member_per_record() {
    let records = [
        ArcRecord::version_block_v2("a.arc", "Org"),
        ArcRecord::new("http://a.example/", "text/html", "<p>a"),
        ArcRecord::new("http://b.example/", "text/html", "<p>b").length(3),
    ];
    let archive = Archive::arc(Container::GzipPerRecord, &records);
    let bytes = archive.bytes();
    for (span, record) in archive.spans().iter().zip(&records) {
        assert_eq!(gunzip_member(&bytes[span.clone()]), record.to_bytes());
    }
    let plain: Vec<u8> = records.iter().flat_map(ArcRecord::to_bytes).collect();
    assert_eq!(gunzip_all(&bytes).unwrap(), plain);
    // The lying length stays a lie.
    assert!(plain.ends_with(b"text/html 3\n<p>b\n"));
}

// ---------------------------------------------------------------------------
// Versions, record types, fields.

#[test]
fn versions_and_clueweb09_records() {
    for version in ["1.1", "1.0", "0.18", "0.17"] {
        let bytes = Record::warcinfo("").version(version).to_bytes();
        assert!(bytes.starts_with(format!("WARC/{version}\r\nWARC-Type: warcinfo\r\n").as_bytes()));
    }
    // ClueWeb09 (Nutch): WARC/0.18, HTTP headers in bare LF.
    let http = Http::response(200, "OK")
        .header("Content-Type", "text/html")
        .header("Date", "Tue, 13 Jan 2009 18:05:10 GMT")
        .bare_lf()
        .body("<html>");
    let record = Record::response("http://example.org/", &http)
        .version("0.18")
        .field("WARC-Warcinfo-ID", "993d3969-9643-4934-b1c6-68d4dbe55b83")
        .field("Content-Type", "application/http;msgtype=response");
    let bytes = record.to_bytes();
    let (head, block) = split_warc(&bytes);
    assert_eq!(head[0], "WARC/0.18");
    assert!(head.contains(&"Content-Type: application/http;msgtype=response"));
    assert!(!block.contains(&b'\r'), "HTTP lines end in bare LF");
    let (lines, body) = split_http(block);
    assert_eq!(
        lines,
        [
            &b"HTTP/1.1 200 OK"[..],
            b"Content-Type: text/html",
            b"Date: Tue, 13 Jan 2009 18:05:10 GMT"
        ]
    );
    assert_eq!(body, b"<html>");
}

/// A WARC record split into its header lines and its block (as long as
/// `Content-Length` says).
fn split_warc(record: &[u8]) -> (Vec<&str>, &[u8]) {
    let end = record.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head: Vec<&str> = std::str::from_utf8(&record[..end])
        .unwrap()
        .split("\r\n")
        .collect();
    let length: usize = head
        .iter()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .unwrap()
        .parse()
        .unwrap();
    (head, &record[end + 4..end + 4 + length])
}

#[test]
fn revisits_and_overrides() {
    let headers = Http::response(200, "OK").header("Content-Type", "text/html");
    let revisit = Record::revisit(
        "http://example.com/",
        "http://example.com/",
        "2020-01-01T00:00:00Z",
    )
    .version("1.0")
    .http_block(&headers);
    let bytes = revisit.to_bytes();
    let (head, block) = split_warc(&bytes);
    assert!(head.contains(&"WARC-Type: revisit"));
    assert!(head.contains(
        &"WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"
    ));
    assert!(head.contains(&"WARC-Refers-To-Target-URI: http://example.com/"));
    assert!(head.contains(&"WARC-Refers-To-Date: 2020-01-01T00:00:00Z"));
    assert!(head.contains(&"Content-Type: application/http; msgtype=response"));
    assert_eq!(block, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n");

    let empty = Record::revisit("http://e/", "http://e/", "2020-01-01T00:00:00Z").to_bytes();
    assert!(empty.ends_with(b"Content-Length: 0\r\n\r\n\r\n\r\n"));
    assert!(!empty.windows(13).any(|w| w == b"Content-Type:"));

    // A lying length, a truncation mark, a missing field, another ending.
    let lie = Record::resource("http://e/", "text/plain", "12345")
        .content_length(2)
        .field("WARC-Truncated", "length")
        .without("WARC-Date")
        .end("")
        .to_bytes();
    let text = String::from_utf8(lie).unwrap();
    assert!(text.ends_with(
        "WARC-Truncated: length\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n12345"
    ));
    assert!(!text.contains("WARC-Date"));
    // Record IDs follow the position in the archive.
    let archive = Archive::warc(Container::Plain, &some_records());
    let bytes = archive.bytes();
    for (n, span) in archive.spans().iter().enumerate() {
        let id = format!("WARC-Record-ID: {}\r\n", record_id(n));
        assert!(bytes[span.clone()]
            .windows(id.len())
            .any(|w| w == id.as_bytes()));
    }
}

// ---------------------------------------------------------------------------
// HTTP codings.

#[test]
fn content_codings_decode_with_independent_decoders() {
    let body: Vec<u8> = "<p>the page body, compressible body, body</p>"
        .repeat(50)
        .into_bytes();
    for coding in [
        Coding::Gzip,
        Coding::XGzip,
        Coding::Deflate,
        Coding::DeflateRaw,
        Coding::Br,
        Coding::Zstd,
    ] {
        let http = Http::response(200, "OK")
            .header("Content-Type", "text/html")
            .body(&body)
            .content_encoding(coding);
        let message = http.to_bytes();
        let (lines, sent) = split_http(&message);
        let header = format!("Content-Encoding: {}", coding.name());
        assert_eq!(lines[2], header.as_bytes(), "{coding:?}");
        assert!(sent.len() < body.len() / 4, "{coding:?} did not compress");
        let mut decoded = Vec::new();
        match coding {
            Coding::Gzip | Coding::XGzip => GzDecoder::new(sent).read_to_end(&mut decoded),
            Coding::Deflate => ZlibDecoder::new(sent).read_to_end(&mut decoded),
            Coding::DeflateRaw => DeflateDecoder::new(sent).read_to_end(&mut decoded),
            Coding::Br => {
                brotli_decompressor::Decompressor::new(sent, 4096).read_to_end(&mut decoded)
            }
            Coding::Zstd => {
                let mut decoder = ruzstd::decoding::StreamingDecoder::new(sent).unwrap();
                decoder.read_to_end(&mut decoded)
            }
        }
        .unwrap();
        assert_eq!(decoded, body, "{coding:?}");
    }
    // Raw deflate is not a zlib stream, whatever its header says.
    let raw = Coding::DeflateRaw.encode(&body);
    assert!(ZlibDecoder::new(&raw[..])
        .read_to_end(&mut Vec::new())
        .is_err());
    // Two codings, in order: gzip first, then br.
    let twice = Http::response(200, "OK")
        .body(&body)
        .content_encoding(Coding::Gzip)
        .content_encoding(Coding::Br);
    let mut gzipped = Vec::new();
    brotli_decompressor::Decompressor::new(&twice.encoded_body()[..], 4096)
        .read_to_end(&mut gzipped)
        .unwrap();
    assert_eq!(gunzip_member(&gzipped), body);
}

#[test]
fn a_lying_content_encoding_leaves_the_body_plain() {
    let http = Http::response(200, "OK")
        .header("Content-Encoding", "gzip")
        .body("<p>plain");
    assert_eq!(
        http.to_bytes(),
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n<p>plain"
    );
}

#[test]
fn header_lines_stay_as_given() {
    let http = Http::start_line("HTTP/1.0 302 Found")
        .line("Content-Type:text/html")
        .line("Location:   http://example.com/ ")
        .header("X-Folded", "one")
        .line(" two")
        .line("\tthree")
        .line(b"X-Latin: caf\xe9");
    let message = http.to_bytes();
    let (lines, body) = split_http(&message);
    assert_eq!(
        lines,
        [
            &b"HTTP/1.0 302 Found"[..],
            b"Content-Type:text/html",
            b"Location:   http://example.com/ ",
            b"X-Folded: one",
            b" two",
            b"\tthree",
            b"X-Latin: caf\xe9",
        ]
    );
    assert!(body.is_empty());
    assert_eq!(message.iter().filter(|&&b| b == b'\n').count(), 8);
    assert_eq!(message.iter().filter(|&&b| b == b'\r').count(), 8);
}

#[test]
fn chunked_bodies_decode_to_the_chunks_asked_for() {
    let body: Vec<u8> = (0..1000u32).map(|n| (n % 251) as u8).collect();
    // The body holds CRs and LFs: only the sizes say where chunks end.
    let cases = [
        (
            Chunked::sizes(&[100, 200, 0, 50]),
            vec![100, 200, 50, 650],
            "\r\n",
            "",
        ),
        (Chunked::sizes(&[]), vec![1000], "\r\n", ""),
        (Chunked::sizes(&[999, 5]), vec![999, 1], "\r\n", ""),
        (Chunked::sizes(&[1000, 7]), vec![1000], "\r\n", ""),
        (Chunked::sizes(&[256]).lf_only(), vec![256, 744], "\n", ""),
        (
            Chunked::sizes(&[10]).extension(";name=value"),
            vec![10, 990],
            "\r\n",
            ";name=value",
        ),
    ];
    for (chunked, sizes, eol, extension) in cases {
        let encoded = chunked.encode(&body);
        let (chunks, rest) = unchunk(&encoded);
        let got: Vec<usize> = chunks.iter().map(|(data, _)| data.len()).collect();
        assert_eq!(got, sizes, "{chunked:?}");
        assert_eq!(joined(&chunks), body);
        assert_eq!(rest, eol.as_bytes(), "{chunked:?}");
        assert!(chunks.iter().all(|(_, e)| e == extension));
        let first_line = format!("{:x}{extension}{eol}", sizes[0]);
        assert!(encoded.starts_with(first_line.as_bytes()));
        let last_line = format!("{eol}0{extension}{eol}{eol}");
        assert!(encoded.ends_with(last_line.as_bytes()));
    }
    // In a response, after the content coding: chunks of the gzip member.
    let http = Http::response(200, "OK")
        .body(&body)
        .content_encoding(Coding::Gzip)
        .chunked(Chunked::sizes(&[3, 4]));
    let message = http.to_bytes();
    let (lines, sent) = split_http(&message);
    assert_eq!(
        lines[1..],
        [
            &b"Content-Encoding: gzip"[..],
            b"Transfer-Encoding: chunked"
        ]
    );
    let (chunks, _) = unchunk(sent);
    assert_eq!(chunks[0].0.len(), 3);
    assert_eq!(chunks[1].0.len(), 4);
    assert_eq!(gunzip_member(&joined(&chunks)), body);
}

fn joined(chunks: &[(Vec<u8>, String)]) -> Vec<u8> {
    chunks.iter().flat_map(|(data, _)| data.clone()).collect()
}

// ---------------------------------------------------------------------------
// Containers.

fn plain(records: &[Record]) -> Vec<u8> {
    Archive::warc(Container::Plain, records).bytes()
}

#[test]
fn gzip_per_record_members_start_at_the_offsets() {
    let records = some_records();
    let archive = Archive::warc(Container::GzipPerRecord, &records);
    let bytes = archive.bytes();
    assert_eq!(gunzip_all(&bytes).unwrap(), plain(&records));
    let spans = archive.spans();
    assert_eq!(spans.len(), records.len());
    assert_eq!(spans[0].start, 0);
    assert_eq!(spans.last().unwrap().end, bytes.len());
    for (n, span) in spans.iter().enumerate() {
        assert_eq!(bytes[span.start..span.start + 3], [0x1f, 0x8b, 0x08]);
        assert_eq!(
            gunzip_member(&bytes[span.clone()]),
            records[n].to_bytes_numbered(n)
        );
        if n > 0 {
            assert_eq!(spans[n - 1].end, span.start);
        }
    }
}

#[test]
fn gzip_whole_is_one_member() {
    let records = some_records();
    let archive = Archive::warc(Container::GzipWhole, &records);
    let bytes = archive.bytes();
    let whole = plain(&records);
    assert_eq!(gunzip_member(&bytes), whole);
    // Spans are in the decompressed stream.
    for (n, span) in archive.spans().iter().enumerate() {
        assert_eq!(whole[span.clone()], records[n].to_bytes_numbered(n));
    }
}

#[test]
fn lz4_frames_per_record() {
    let mut records = some_records();
    // Over 64 KiB: a frame of several blocks.
    let big: Vec<u8> = (0..200_000u32).map(|n| (n * 7 % 253) as u8).collect();
    records.push(Record::resource(
        "http://example.com/big",
        "application/octet-stream",
        big,
    ));
    let archive = Archive::warc(Container::Lz4PerRecord, &records);
    let bytes = archive.bytes();
    assert_eq!(unlz4(&bytes), plain(&records));
    for (n, span) in archive.spans().iter().enumerate() {
        // LZ4 frame format: magic 0x184D2204; FLG 0x40 (version 01, linked
        // blocks, no block or content checksum, no content size, no
        // dictionary); BD 0x40 (64 KiB blocks).
        assert_eq!(bytes[span.start..span.start + 4], [0x04, 0x22, 0x4d, 0x18]);
        assert_eq!(bytes[span.start + 4..span.start + 6], [0x40, 0x40]);
        // Blocks (a u32 size, its high bit for stored data), up to the
        // EndMark, a zero size, which ends the frame (no content checksum).
        let mut at = span.start + 7;
        let mut blocks = 0;
        loop {
            let size = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            at += 4;
            if size == 0 {
                break;
            }
            at += (size & 0x7fff_ffff) as usize;
            blocks += 1;
        }
        assert_eq!(at, span.end);
        let length = records[n].to_bytes_numbered(n).len();
        assert_eq!(blocks, length.div_ceil(64 << 10));
        assert_eq!(unlz4(&bytes[span.clone()]), records[n].to_bytes_numbered(n));
    }
}

#[test]
fn zstd_frames_per_record() {
    let records = some_records();
    let archive = Archive::warc(Container::ZstdPerRecord, &records);
    let bytes = archive.bytes();
    for (n, span) in archive.spans().iter().enumerate() {
        let frame = &bytes[span.clone()];
        let record = records[n].to_bytes_numbered(n);
        assert_eq!(
            zstd_header(frame),
            ZstdHeader {
                dictionary_id: None,
                content_size: Some(record.len() as u64),
                checksum: true
            }
        );
        assert_eq!(unzstd(frame, None).unwrap(), record);
    }
    let mut all = Vec::with_capacity(1 << 20);
    FrameDecoder::new()
        .decode_all_to_vec(&bytes, &mut all)
        .unwrap();
    assert_eq!(all, plain(&records));
}

/// The dictionary in a warc-zstd file's first frame, decompressed if it
/// is compressed; and where the records start.
fn dictionary_frame(bytes: &[u8]) -> (Vec<u8>, usize) {
    assert_eq!(
        bytes[..4],
        [0x5d, 0x2a, 0x4d, 0x18],
        "skippable frame magic"
    );
    let length = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    let data = &bytes[8..8 + length];
    let dictionary = match data[..4] {
        [0x37, 0xa4, 0x30, 0xec] => data.to_vec(),
        [0x28, 0xb5, 0x2f, 0xfd] => {
            let header = zstd_header(data);
            assert!(header.checksum && header.dictionary_id.is_none());
            let dictionary = unzstd(data, None).unwrap();
            assert_eq!(header.content_size, Some(dictionary.len() as u64));
            dictionary
        }
        _ => panic!("neither a dictionary nor a zstd frame"),
    };
    (dictionary, 8 + length)
}

#[test]
fn warc_zstd_with_a_dictionary() {
    let records = some_records();
    for (dictionary, compressed) in [
        (ZstdDictionary::for_tests(), false),
        (ZstdDictionary::for_tests(), true),
        // One- and two-byte dictionary ID fields.
        (ZstdDictionary::for_tests().with_id(200), false),
        (ZstdDictionary::for_tests().with_id(40_000), true),
    ] {
        let id = dictionary.id();
        let container = Container::ZstdDictionary {
            dictionary: dictionary.clone(),
            compressed,
        };
        let archive = Archive::warc(container, &records);
        let bytes = archive.bytes();
        let (found, first) = dictionary_frame(&bytes);
        assert_eq!(found, dictionary.as_bytes());
        assert_eq!(u32::from_le_bytes(found[4..8].try_into().unwrap()), id);
        assert_eq!(archive.offsets()[0], first);
        for (n, span) in archive.spans().iter().enumerate() {
            let frame = &bytes[span.clone()];
            let record = records[n].to_bytes_numbered(n);
            assert_eq!(
                zstd_header(frame),
                ZstdHeader {
                    dictionary_id: Some(id),
                    content_size: Some(record.len() as u64),
                    checksum: true
                }
            );
            assert_eq!(unzstd(frame, Some(&found)).unwrap(), record);
            assert!(
                unzstd(frame, None).is_err(),
                "record {n} decodes without the dictionary"
            );
        }
    }
    // The dictionary helps: frames are smaller with it.
    let with = Archive::warc(
        Container::ZstdDictionary {
            dictionary: ZstdDictionary::for_tests(),
            compressed: false,
        },
        &records,
    );
    let without = Archive::warc(Container::ZstdPerRecord, &records);
    let size = |a: &Archive| a.spans().iter().map(|s| s.len()).sum::<usize>();
    assert!(size(&with) < size(&without));
}

// ---------------------------------------------------------------------------
// Damage.

#[test]
fn a_clipped_archive_ends_inside_its_last_record() {
    let records = some_records();
    let archive = Archive::warc(Container::GzipPerRecord, &records);
    let last = archive.spans().last().unwrap().clone();
    let cut = archive.clipped(last.start + last.len() / 2);
    assert_eq!(cut[..], archive.bytes()[..last.start + last.len() / 2]);
    assert!(gunzip_all(&cut).is_err());
    assert_eq!(
        gunzip_all(&cut[..last.start]).unwrap().len(),
        last_plain_start(&records)
    );
}

fn last_plain_start(records: &[Record]) -> usize {
    let n = records.len() - 1;
    plain(records).len() - records[n].to_bytes_numbered(n).len()
}

#[test]
fn a_corrupted_member_breaks_only_itself() {
    let records = some_records();
    let archive = Archive::warc(Container::GzipPerRecord, &records);
    let spans = archive.spans();
    let broken = archive.corrupted(3);
    assert!(gunzip_all(&broken).is_err());
    // The members before and after still decode, each from its offset.
    for n in [0, 1, 2, 4, 5] {
        assert_eq!(
            gunzip_member(&broken[spans[n].clone()]),
            records[n].to_bytes_numbered(n)
        );
    }
    let mut decoder = GzDecoder::new(&broken[spans[3].clone()]);
    assert!(decoder.read_to_end(&mut Vec::new()).is_err());
    let rest = gunzip_all(&broken[spans[4].start..]).unwrap();
    let expected: Vec<u8> = (4..6)
        .flat_map(|n| records[n].to_bytes_numbered(n))
        .collect();
    assert_eq!(rest, expected);

    // Zstd frames carry a checksum too.
    let zstd = Archive::warc(Container::ZstdPerRecord, &records);
    let broken = zstd.corrupted(1);
    assert!(unzstd(&broken[zstd.spans()[1].clone()], None).is_err());
    assert!(unzstd(&broken[zstd.spans()[2].clone()], None).is_ok());
}

#[test]
fn raw_entries_and_legacy_helpers() {
    let mut archive = Archive::new(Container::GzipPerRecord);
    archive.push(&Record::warcinfo(""));
    let junk = archive.push_raw(b"this is not a WARC record\r\n\r\n");
    archive.push(&Record::warcinfo(""));
    let bytes = archive.bytes();
    assert_eq!(
        gunzip_member(&bytes[junk]),
        b"this is not a WARC record\r\n\r\n"
    );
    // Entries are numbered by position, raw ones included.
    let third = gunzip_member(&bytes[archive.spans()[2].clone()]);
    let id = record_id(2);
    assert!(third.windows(id.len()).any(|w| w == id.as_bytes()));
    assert_eq!(gunzip_member(&gzip_member(b"")), b"");
}
