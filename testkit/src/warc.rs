//! Writing WARC records of our own, for the archive tests and `xtask`'s
//! `make_warc`.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;

/// One record to write.
pub struct Record<'a> {
    /// `response`, `request`, `warcinfo`, `metadata`, ...
    pub kind: &'a str,
    /// `WARC-Target-URI` (none for `warcinfo`).
    pub uri: Option<&'a str>,
    /// For a `response`: the HTTP `Content-Type` header, and the record is
    /// an HTTP response around `body`; else `body` is the whole block.
    pub http_content_type: Option<&'a str>,
    pub body: &'a [u8],
}

/// The record as WARC/1.1 bytes; `n` makes its record ID unique.
pub fn record_bytes(n: usize, record: &Record<'_>) -> Vec<u8> {
    let mut block = Vec::new();
    let content_type = match record.http_content_type {
        Some(ct) => {
            write!(block, "HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\n\r\n").unwrap();
            "application/http; msgtype=response"
        }
        None if record.kind == "warcinfo" => "application/warc-fields",
        None => "application/octet-stream",
    };
    block.extend_from_slice(record.body);
    let mut out = Vec::new();
    write!(
        out,
        "WARC/1.1\r\nWARC-Type: {}\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012}>\r\n\
         WARC-Date: 2026-12-03T00:00:00Z\r\n",
        record.kind
    )
    .unwrap();
    if let Some(uri) = record.uri {
        write!(out, "WARC-Target-URI: {uri}\r\n").unwrap();
    }
    write!(
        out,
        "Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .unwrap();
    out.extend_from_slice(&block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// `bytes` as one gzip member (Common Crawl compresses each record alone).
pub fn gzip_member(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}
