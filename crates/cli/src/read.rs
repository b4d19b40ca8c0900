//! Inputs to pages: a file's or standard input's bytes (decompressed when
//! gzip), an archive's HTML records (through `htmltok-warc`), or what is
//! wrong with them.
//!
//! Reading is split in two for the pipeline: [`read`] runs on the one
//! reading thread and hands on a plain file as its path ([`Item::File`]),
//! which a worker then reads with [`file_pages`]: copying files into
//! memory is much of the work over a directory of pages, so it is done in
//! parallel. A `.warc.gz` is handed on in segments that the workers read
//! (`htmltok_warc::segment`); any other archive is read here, record by
//! record, by the page layer (`htmltok_warc::Pages`); an archive on
//! standard input as it comes, never held whole.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use htmltok_warc::http::ContentCoding;
use htmltok_warc::segment::{self, Segment};
use htmltok_warc::{ErrorKind, Event, Format, Options, Pages, Skip, Source};
use url::Url;

pub(crate) use htmltok_warc::Bytes;

use crate::inputs::{is_archive_name, Input};
use crate::report::{Problem, What};

/// One page to process.
pub(crate) struct PageIn {
    /// What to call it in the output: the path as given (or found in a
    /// directory), `-`, or an archive record's target URI.
    pub source: String,
    /// Its bytes, decoded from the HTTP payload, in whatever character
    /// encoding it is in.
    pub bytes: Bytes,
    /// The HTTP `Content-Type` of an archived response (its charset is the
    /// transport's).
    pub content_type: Option<String>,
    /// The page's own URL: an archive record's target URI, or a file's
    /// `file:` URL.
    pub url: Option<Url>,
    /// Where it came from, for a page from an archive.
    pub archived: Option<Archived>,
}

/// Where an archived page came from: enough to find the record again.
pub(crate) struct Archived {
    /// The archive's path as given (or found), or `-`.
    pub archive: Arc<str>,
    /// The offset of the record (of its gzip member or frame, when the
    /// archive is compressed).
    pub offset: u64,
    pub record_id: Option<String>,
    /// The HTTP status, for a `response`.
    pub status: Option<u16>,
    /// The page is not whole (cut by the crawler, by the archive's end, or
    /// inside its payload).
    pub truncated: bool,
    /// A declared content or transfer coding did not apply: the body is
    /// the bytes as stored.
    pub coding_failed: bool,
    /// Whether its content codings were undone (`None`: it declares none).
    pub content_coding: Option<ContentCoding>,
}

/// What the reader hands on, in input order.
pub(crate) enum Item {
    Page(PageIn),
    /// A file to read with [`file_pages`]: a page, or an archive by its
    /// content.
    File(PathBuf),
    /// A stretch of a `.warc.gz` to read with [`Segment::read`].
    Segment(Segment, Arc<str>),
    Problem(Problem),
    /// An archive record without an HTML page, and why.
    Skipped(Skip),
    /// An input was read (an archive opened, a page found): it counts for
    /// the exit status (2 only when no input could be read).
    Opened,
}

/// How many of a page's first bytes are looked at for NUL, the mark of a
/// binary file (no HTML page has one there, short of a UTF-16 one, which
/// starts with a byte order mark).
const BINARY_PROBE: usize = 1024;

/// The largest page read from a `.gz` file (a bigger one is a bomb, or
/// not a page).
const GZ_LIMIT: usize = 256 << 20;

/// How much of standard input is read to tell an archive from a page:
/// as much as the archive reader looks at.
const STDIN_PROBE: u64 = 64 << 10;

/// Reads `input` as far as the reading thread does, giving `send` its
/// items until it returns `false`; returns whether to go on. Archives are
/// read with `options` (its pool gives and takes the pages' buffers).
///
/// `declared_utf16`: `--encoding` names UTF-16, so NUL bytes do not make
/// a file binary (see [`from_bytes`]).
pub(crate) fn read(
    input: Input,
    declared_utf16: bool,
    options: &Options,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    match input {
        Input::Problem(problem) => send(Item::Problem(problem)),
        Input::Stdin => stdin(declared_utf16, options, send),
        Input::File(path) if is_archive_name(&path) => {
            let name = path.display().to_string();
            archive(Source::from(path.as_path()), &name, true, options, send)
        }
        Input::File(path) => send(Item::File(path)),
    }
}

/// Standard input: an archive read as it comes (its first bytes say
/// whether it is one), else a page read whole.
fn stdin(declared_utf16: bool, options: &Options, send: &mut dyn FnMut(Item) -> bool) -> bool {
    let cannot = |e: std::io::Error| unreadable("-", format!("cannot read standard input: {e}"));
    let mut head = options.pool().buffer(STDIN_PROBE as usize);
    if let Err(e) = std::io::stdin()
        .lock()
        .take(STDIN_PROBE)
        .read_to_end(&mut head)
    {
        return send(cannot(e));
    }
    if htmltok_warc::detect_bytes(&head).is_some() {
        let stream = std::io::Cursor::new(head).chain(std::io::stdin());
        return archive(Source::from_reader(stream), "-", false, options, send);
    }
    match std::io::stdin().lock().read_to_end(&mut head) {
        Ok(_) => from_bytes("-".into(), head, None, declared_utf16, options, send),
        Err(e) => send(cannot(e)),
    }
}

/// The pages of the file at `path` (one, or an archive's by content), or
/// what is wrong with it (`declared_utf16` and `options` as for [`read`]).
pub(crate) fn file_pages(
    path: &Path,
    declared_utf16: bool,
    options: &Options,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    let source = path.display().to_string();
    match read_file(path, options) {
        Ok(bytes) => from_bytes(source, bytes, file_url(path), declared_utf16, options, send),
        Err(e) => send(unreadable(&source, format!("cannot read: {e}"))),
    }
}

/// `std::fs::read` into a spare page buffer.
fn read_file(path: &Path, options: &Options) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let size = file.metadata().map_or(0, |m| m.len());
    // One more byte than the size, so that the read meeting the end needs
    // no more room.
    let size = usize::try_from(size).unwrap_or(0).saturating_add(1);
    let mut bytes = options.pool().buffer(size);
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A file's (or standard input's) bytes: an archive if they are one, a
/// gzip page gunzipped, else one page unless binary.
///
/// Binary is a NUL byte early, unless a UTF-16 byte order mark starts the
/// bytes or the user declared UTF-16 (`declared_utf16`): UTF-16 text has a
/// NUL in every ASCII character, and a page without a byte order mark is
/// decoded as the declared UTF-16, as a browser told so by the transport
/// does.
fn from_bytes(
    source: String,
    bytes: Vec<u8>,
    url: Option<Url>,
    declared_utf16: bool,
    options: &Options,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    if htmltok_warc::detect_bytes(&bytes).is_some() {
        return archive(Source::from(bytes), &source, false, options, send);
    }
    // A page goes on in the buffer it was read into: no copy.
    let bytes = if htmltok_warc::is_gzip(&bytes) {
        // One byte past the limit tells a page cut there from one that
        // ends there.
        match htmltok_warc::gunzip(&bytes, GZ_LIMIT + 1) {
            Ok(mut bytes) if bytes.len() > GZ_LIMIT => {
                bytes.truncate(GZ_LIMIT);
                let problem = Item::Problem(Problem {
                    source: source.clone(),
                    what: "larger than the largest page read (256 MiB): cut there \
                           (its page is processed as far as it goes)"
                        .into(),
                    kind: What::Truncated,
                });
                if !send(problem) {
                    return false;
                }
                bytes
            }
            Ok(bytes) => bytes,
            // A page cut short, or followed by bytes that are not gzip (or
            // a member broken inside), goes on as far as it inflated, as a
            // browser shows it, as `gzip -d` gives it and as an archive's
            // cut page does; what went wrong is a problem.
            Err(e) if !e.inflated.is_empty() => {
                let problem = Item::Problem(Problem {
                    source: source.clone(),
                    what: format!("{e}: its page is processed as far as it inflated"),
                    kind: if e.truncated {
                        What::Truncated
                    } else {
                        What::Broken
                    },
                });
                if !send(problem) {
                    return false;
                }
                e.inflated
            }
            Err(e) => return send(unreadable(&source, e.what)),
        }
    } else {
        bytes
    };
    let probe = &bytes[..bytes.len().min(BINARY_PROBE)];
    let bom = probe.starts_with(b"\xff\xfe") || probe.starts_with(b"\xfe\xff");
    if !bom && !declared_utf16 && probe.contains(&0) {
        return send(unreadable(
            &source,
            "binary file, not a page (NUL bytes in its first 1024 bytes)".into(),
        ));
    }
    send(Item::Opened)
        && send(Item::Page(PageIn {
            source,
            bytes: Bytes::from(bytes).pooled(options.pool()),
            content_type: None,
            url,
            archived: None,
        }))
}

/// The archive `source`, named `name`: in segments for the page threads
/// when it is a `.warc.gz` file with several members (`segments`), else
/// read here in order.
fn archive(
    source: Source,
    name: &str,
    segments: bool,
    options: &Options,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    let format = match htmltok_warc::detect(&source) {
        Ok(Some(format)) => format,
        Ok(None) => {
            return send(unreadable(
                name,
                "not a WARC or ARC archive (nor one compressed with gzip, LZ4 or Zstandard)".into(),
            ))
        }
        Err(e) => return send(unreadable(name, format!("cannot read: {e}"))),
    };
    if !send(Item::Opened) {
        return false;
    }
    let archive: Arc<str> = name.into();
    if segments && segment::can_segment(format) {
        let mut go_on = true;
        let planned = segment::plan(&source, format, options, &mut |segment| {
            go_on = send(Item::Segment(segment, Arc::clone(&archive)));
            go_on
        });
        match planned {
            Ok(true) => return go_on,
            Ok(false) => {}
            Err(e) => return send(broken(name, format!("cannot read: {e}"))),
        }
    }
    in_order(source, format, options, &archive, send)
}

/// Reads `source` in order.
fn in_order(
    source: Source,
    format: Format,
    options: &Options,
    archive: &Arc<str>,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    let reader = match Pages::from_offset(source, format, 0, 0, options.clone()) {
        Ok(reader) => reader,
        Err(e) => return send(broken(archive, format!("cannot read: {e}"))),
    };
    for event in reader {
        if !event_items(event, archive, send) {
            return false;
        }
    }
    true
}

/// The items of one archive event.
pub(crate) fn event_items(
    event: Event,
    archive: &Arc<str>,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    match event {
        Event::Skipped(skipped) => send(Item::Skipped(skipped.reason)),
        // A page that is not whole comes with its problem after it, from
        // the reader, whatever cut it.
        Event::Problem(problem) => {
            let kind = match problem.kind() {
                ErrorKind::Truncated => What::Truncated,
                ErrorKind::Undecodable => What::Undecodable,
                ErrorKind::Unreadable => What::Unreadable,
                _ => What::Broken,
            };
            send(Item::Problem(Problem {
                source: format!("{archive}: {}", problem.location()),
                what: problem.message().to_owned(),
                kind,
            }))
        }
        Event::Page(page) => {
            let record = &page.record;
            let source = match record.target_uri() {
                Some(uri) => uri.to_owned(),
                None => format!("{archive}: record {}", record.number()),
            };
            let item = Item::Page(PageIn {
                source,
                url: record.target_uri().and_then(|t| Url::parse(t).ok()),
                content_type: page.content_type,
                archived: Some(Archived {
                    archive: Arc::clone(archive),
                    offset: record.offset(),
                    record_id: record.record_id().map(str::to_owned),
                    status: page.status,
                    truncated: page.truncated.is_some(),
                    coding_failed: page.coding_failed.is_some(),
                    content_coding: page.content_coding,
                }),
                bytes: page.body,
            });
            send(item)
        }
    }
}

/// The `file:` URL of a path, made absolute.
fn file_url(path: &Path) -> Option<Url> {
    let absolute = std::path::absolute(path).ok()?;
    Url::from_file_path(absolute).ok()
}

/// An input that could not be read at all.
pub(crate) fn unreadable(source: &str, what: String) -> Item {
    Item::Problem(Problem {
        source: source.to_owned(),
        what,
        kind: What::Unreadable,
    })
}

fn broken(source: &str, what: String) -> Item {
    Item::Problem(Problem {
        source: source.to_owned(),
        what,
        kind: What::Broken,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use htmltok_warc::{Source, Truncated};
    use testkit::warc::{Archive, Container, Http, Record};

    /// The items of every event of `archive`, named `a.warc`.
    fn items_of(archive: Vec<u8>) -> Vec<Item> {
        let mut items = Vec::new();
        for event in Pages::new(Source::from(archive)).unwrap() {
            event_items(event, &Arc::from("a.warc"), &mut |item| {
                items.push(item);
                true
            });
        }
        items
    }

    #[test]
    fn a_cut_page_and_an_undecodable_body_are_said_with_the_archive() {
        // The crawler's cut, a payload short of its Content-Length: each
        // page goes on, and is said once, counted as truncated; a br body
        // that gives nothing is no page, counted as undecodable.
        let page = |body: &str| {
            Http::response(200, "OK")
                .header("Content-Type", "text/html")
                .body(body)
        };
        let short = page("<p>short").header("Content-Length", "100");
        let br = page("")
            .header("Content-Encoding", "br")
            .body(b"\x1b\x93\x01\xc8\x7f\xe1\x02\x00");
        let archive = Archive::warc(
            Container::Plain,
            &[
                Record::response("http://cut.example/", &page("<p>cut"))
                    .field("WARC-Truncated", "length"),
                Record::response("http://short.example/", &short),
                Record::response("http://br.example/", &br),
            ],
        );
        let offsets = archive.offsets();
        let said: Vec<_> = items_of(archive.bytes())
            .into_iter()
            .map(|item| match item {
                Item::Page(p) => (p.source, "page".to_owned(), p.archived.unwrap().truncated),
                Item::Problem(p) => {
                    let kind = match p.kind {
                        What::Truncated => "truncated",
                        What::Undecodable => "undecodable",
                        _ => "other",
                    };
                    (p.source, format!("{kind}: {}", p.what), true)
                }
                _ => (String::new(), "other".to_owned(), false),
            })
            .collect();
        let cut = Truncated::Declared("length".into()).describe();
        let payload = Truncated::Payload.describe();
        let (rest, undecodable) = said.split_at(4);
        assert_eq!(
            rest,
            [
                ("http://cut.example/".to_owned(), "page".to_owned(), true),
                (
                    "a.warc: record 1 (offset 0, http://cut.example/)".to_owned(),
                    format!("truncated: {cut} (its page is processed as far as it goes)"),
                    true
                ),
                ("http://short.example/".to_owned(), "page".to_owned(), true),
                (
                    format!(
                        "a.warc: record 2 (offset {}, http://short.example/)",
                        offsets[1]
                    ),
                    format!("truncated: {payload} (its page is processed as far as it goes)"),
                    true
                ),
            ]
        );
        assert_eq!(undecodable.len(), 1);
        assert_eq!(
            undecodable[0].0,
            format!(
                "a.warc: record 3 (offset {}, http://br.example/)",
                offsets[2]
            )
        );
        assert!(
            undecodable[0]
                .1
                .starts_with("undecodable: content coding br: "),
            "{}",
            undecodable[0].1
        );
    }
}
