//! Inputs to pages: a file's or standard input's bytes (decompressed when
//! gzip), a WARC archive's HTML records, or what is wrong with them.
//!
//! Reading is split in two for the pipeline: [`read`] runs on the one
//! reading thread and hands on a plain file as its path ([`Item::File`]),
//! which a worker then reads with [`file_pages`]. Copying files into memory
//! costs about a third of the whole work of `htmltok sniff` over the
//! corpus, so it is done in parallel; a WARC archive is one stream and is
//! read on the reading thread, record by record.

use std::io::Read;
use std::path::{Path, PathBuf};

use url::Url;

use crate::inputs::{is_warc_name, Input};
use crate::report::Problem;
use crate::{gz, warc};

/// One page to process.
pub(crate) struct PageIn {
    /// What to call it in the output: the path as given (or found in a
    /// directory), `-`, or a WARC record's target URI.
    pub source: String,
    /// Its bytes, decompressed, in whatever encoding it is in.
    pub bytes: Vec<u8>,
    /// The HTTP `Content-Type` of a WARC response (its charset is the
    /// transport's).
    pub content_type: Option<String>,
    /// The page's own URL: a WARC record's target URI, or a file's
    /// `file:` URL.
    pub url: Option<Url>,
    /// Whether it came from a WARC archive (whose URL `--base` does not
    /// replace).
    pub from_warc: bool,
}

/// What the reader hands on, in input order.
pub(crate) enum Item {
    Page(PageIn),
    /// A file to read with [`file_pages`]: a page, or several.
    File(PathBuf),
    Problem(Problem),
    /// A WARC record without an HTML page (a request, metadata, an image).
    Ignored,
}

/// How many of a page's first bytes are looked at for NUL, the mark of a
/// binary file (no HTML page has one there, short of a UTF-16 one, which
/// starts with a byte order mark).
const BINARY_PROBE: usize = 1024;

/// Reads `input` as far as the reading thread does, giving `send` its
/// items until it returns `false`; returns whether to go on.
pub(crate) fn read(input: Input, send: &mut dyn FnMut(Item) -> bool) -> bool {
    match input {
        Input::Problem(problem) => send(Item::Problem(problem)),
        Input::Stdin => {
            let mut bytes = Vec::new();
            match std::io::stdin().lock().read_to_end(&mut bytes) {
                Ok(_) => from_bytes("-".into(), bytes, None, send),
                Err(e) => send(problem("-", format!("cannot read standard input: {e}"))),
            }
        }
        Input::File(path) if is_warc_name(&path) => {
            warc::read_path(&path, &path.display().to_string(), send)
        }
        Input::File(path) => send(Item::File(path)),
    }
}

/// The pages of the file at `path` (one, or a WARC archive's by content),
/// or what is wrong with it.
pub(crate) fn file_pages(path: &Path, send: &mut dyn FnMut(Item) -> bool) -> bool {
    let source = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => from_bytes(source, bytes, file_url(path), send),
        Err(e) => send(problem(&source, format!("cannot read: {e}"))),
    }
}

/// A file's (or standard input's) bytes: gunzipped if gzip, read as WARC
/// if they start as one, else one page unless binary.
fn from_bytes(
    source: String,
    bytes: Vec<u8>,
    url: Option<Url>,
    send: &mut dyn FnMut(Item) -> bool,
) -> bool {
    if gz::is_gzip(&bytes) && gz::inflates_to(&bytes, b"WARC/") {
        return warc::read_bytes(bytes, &source, send);
    }
    let bytes = if gz::is_gzip(&bytes) {
        match gz::decompress(&bytes) {
            Ok(bytes) => bytes,
            Err(what) => return send(problem(&source, what)),
        }
    } else {
        bytes
    };
    if bytes.starts_with(b"WARC/") {
        return warc::read_bytes(bytes, &source, send);
    }
    let probe = &bytes[..bytes.len().min(BINARY_PROBE)];
    let bom = probe.starts_with(b"\xff\xfe") || probe.starts_with(b"\xfe\xff");
    if !bom && probe.contains(&0) {
        return send(problem(
            &source,
            "binary file, not a page (NUL bytes in its first 1024 bytes)".into(),
        ));
    }
    send(Item::Page(PageIn {
        source,
        bytes,
        content_type: None,
        url,
        from_warc: false,
    }))
}

/// The `file:` URL of a path, made absolute.
fn file_url(path: &Path) -> Option<Url> {
    let absolute = std::path::absolute(path).ok()?;
    Url::from_file_path(absolute).ok()
}

pub(crate) fn problem(source: &str, what: String) -> Item {
    Item::Problem(Problem {
        source: source.to_owned(),
        what,
    })
}
