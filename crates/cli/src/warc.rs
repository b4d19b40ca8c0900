//! WARC archives (the fastwarc crate): each `response` (or `resource`)
//! record with an HTML content type is a page; other records are passed
//! over and counted; a broken record ends the archive with a problem.

use std::io::{BufRead, Cursor};
use std::path::Path;

use fastwarc::warc::header::WarcHeader;
use fastwarc::warc::iter::{ArchiveIterator, ArchiveIteratorOptions};
use fastwarc::warc::record::{AutoDecode, SharedWarcRecord, WarcRecord, WarcRecordType};
use url::Url;

use fastwarc::stream_io::bufread::RawReaderAdapter;

use crate::gz::{Inflated, Inflating};
use crate::members::{Current, Members};
use crate::read::{page_buffer, problem, Bytes, Item, PageIn};

/// The iterator's options: HTTP headers parsed, payloads sent with a
/// transfer or content encoding decoded (a page is read as the browser
/// got it).
fn options() -> ArchiveIteratorOptions {
    ArchiveIteratorOptions {
        decode_http_payload: AutoDecode::All,
        ..ArchiveIteratorOptions::default()
    }
}

/// The archive at `path`: a `.warc.gz` in segments that the page threads
/// read ([`segment`](crate::segment)), a `.warc` record by record here.
pub(crate) fn read_path(path: &Path, source: &str, send: &mut dyn FnMut(Item) -> bool) -> bool {
    if path.to_string_lossy().to_ascii_lowercase().ends_with(".gz") {
        return crate::segment::plan(path, source, send);
    }
    match ArchiveIterator::from_path_with_options(path, options()) {
        Ok(records) => read_records(records, None, 0, source, send),
        Err(e) => send(problem(source, format!("cannot read: {e}"))),
    }
}

/// The records of the `.warc.gz` at `path` from offset `at`, a member
/// start, inflated by [`Members`]; the first is the archive's record
/// `first + 1`.
pub(crate) fn read_members_from(
    path: &Path,
    at: u64,
    first: usize,
    source: &str,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    match Members::open_from(path, at, threads) {
        Ok(members) => {
            let current = members.current();
            let records = ArchiveIterator::with_options(RawReaderAdapter::new(members), plain());
            read_records(records, Some(&current), first, source, send)
        }
        Err(e) => send(problem(source, format!("cannot read: {e}"))),
    }
}

/// The records of a gzip stream inflated by [`Inflated`] on a thread of
/// its own ([`Inflating`]), read from its chunks without another copy.
fn inflated<R: BufRead + Send + 'static>(stream: Inflated<R>) -> std::io::Result<ArchiveIterator> {
    let chunks = Inflating::start(stream)?;
    Ok(ArchiveIterator::with_options(
        RawReaderAdapter::new(chunks),
        plain(),
    ))
}

/// [`options`] for a stream already inflated.
pub(crate) fn plain() -> ArchiveIteratorOptions {
    ArchiveIteratorOptions {
        stream_detect: false,
        ..options()
    }
}

/// An archive already in memory (standard input, a file named otherwise),
/// gzip-compressed or not.
pub(crate) fn read_bytes(bytes: Vec<u8>, source: &str, send: &mut dyn FnMut(Item) -> bool) -> bool {
    let records = if crate::gz::is_gzip(&bytes) {
        inflated(Inflated::new(Cursor::new(bytes)))
    } else {
        Ok(ArchiveIterator::with_options(Cursor::new(bytes), options()))
    };
    match records {
        Ok(records) => read_records(records, None, 0, source, send),
        Err(e) => send(problem(source, format!("cannot read: {e}"))),
    }
}

/// The pages of `records`, the first of which is the archive's record
/// `first + 1`; `current`, when they are read from a [`Members`], lets a
/// page be handed on as a part of the chunk it is in.
fn read_records(
    records: ArchiveIterator,
    current: Option<&Current>,
    first: usize,
    source: &str,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    for (index, record) in records.enumerate() {
        let number = first + index + 1;
        let item = match record {
            Ok(record) => record.with_mut(|r| page(r, current, source, number).0),
            Err(e) => {
                // The reader cannot find the next record after a broken
                // one: the rest of the archive is lost.
                return send(problem(
                    &format!("{source}: record {number}"),
                    format!("{}; the rest of the archive is skipped", broken(&e)),
                ));
            }
        };
        if !send(item) {
            return false;
        }
    }
    true
}

/// The record's page, if it holds one, and whether the page is named by
/// its number `index` (it has no target URI).
pub(crate) fn page(
    record: &mut WarcRecord,
    current: Option<&Current>,
    source: &str,
    index: usize,
) -> (Item, bool) {
    let kind = record.record_type();
    let content_type = match kind {
        WarcRecordType::Response => record
            .http_headers()
            .and_then(|h| h.get(WarcHeader::ContentType))
            .map(|v| v.into_owned()),
        WarcRecordType::Resource => record
            .headers()
            .get(WarcHeader::ContentType)
            .map(|v| v.into_owned()),
        _ => return (Item::Ignored, false),
    };
    let Some(content_type) = content_type.filter(|ct| is_html(ct)) else {
        return (Item::Ignored, false);
    };
    let target = record.headers().get(WarcHeader::WarcTargetUri).map(|v| {
        v.trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_owned()
    });
    let by_number = target.is_none();
    let name = target
        .clone()
        .unwrap_or_else(|| format!("{source}: record {index}"));
    let expected = record.content_length();
    let read = match record.reader_mut() {
        Some(reader) => take_page(reader, current, expected),
        None => Ok(Bytes::Own(Vec::new())),
    };
    let bytes = match read {
        Ok(bytes) if (bytes.len() as u64) < expected => {
            let n = bytes.len();
            let what = format!("truncated WARC record ({n} of {expected} bytes of its page)");
            return (problem(&name, what), by_number);
        }
        Err(e) => return (problem(&name, broken(&e)), by_number),
        Ok(bytes) => bytes,
    };
    let page = Item::Page(PageIn {
        source: name,
        url: target.as_deref().and_then(|t| Url::parse(t).ok()),
        bytes,
        content_type: Some(content_type),
        from_warc: true,
    });
    (page, by_number)
}

/// What is left of `reader`: a part of the chunk being read when it is
/// all there (`current`), else a copy.
fn take_page(
    reader: &mut impl BufRead,
    current: Option<&Current>,
    expected: u64,
) -> std::io::Result<Bytes> {
    let first = loop {
        match reader.fill_buf() {
            Ok(first) => break first,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    };
    if let Some(part) = current.and_then(|c| c.part(first)) {
        let n = first.len();
        reader.consume(n);
        if reader.fill_buf()?.is_empty() {
            return Ok(part);
        }
        // The page goes on in the next chunk: copied out after all.
        let mut bytes = page_buffer(usize::try_from(expected).unwrap_or(0).min(1 << 26));
        bytes.extend_from_slice(&part);
        copy_out(reader, &mut bytes)?;
        return Ok(Bytes::Own(bytes));
    }
    let mut bytes = page_buffer(usize::try_from(expected).unwrap_or(0).min(1 << 26));
    copy_out(reader, &mut bytes)?;
    Ok(Bytes::Own(bytes))
}

/// Appends what is left of `reader` to `bytes`, as `read_to_end` does
/// but straight from the reader's buffer: `read_to_end` zeroes the room it
/// reads into first, another pass over every page.
fn copy_out(reader: &mut impl BufRead, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    let start = bytes.len();
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(bytes.len() - start);
        }
        let n = chunk.len();
        bytes.extend_from_slice(chunk);
        reader.consume(n);
    }
}

/// What a read error says about the record.
fn broken(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof => {
            "truncated WARC record (the gzip stream ends in it)".into()
        }
        _ => format!("broken WARC record ({e})"),
    }
}

/// Whether a `Content-Type` value names an HTML page.
fn is_html(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("text/html")
        || essence.eq_ignore_ascii_case("application/xhtml+xml")
}
