//! Inputs to pages: a file's or standard input's bytes (decompressed when
//! gzip), a WARC archive's HTML records, or what is wrong with them.
//!
//! Reading is split in two for the pipeline: [`read`] runs on the one
//! reading thread and hands on a plain file as its path ([`Item::File`]),
//! which a worker then reads with [`file_pages`]. Copying files into memory
//! costs about a third of the whole work of `htmltok sniff` over the
//! corpus, so it is done in parallel; a `.warc.gz` archive is handed on in
//! segments that the workers read (`segment.rs`), an uncompressed one is
//! read on the reading thread, record by record.

use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
    pub bytes: Bytes,
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

/// A page's bytes: a buffer of its own, or a part of a `.warc.gz`
/// member's inflated output, which is shared instead of copied out (see
/// `members.rs`).
pub(crate) enum Bytes {
    Own(Vec<u8>),
    Shared(Arc<Vec<u8>>, Range<usize>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Own(bytes) => bytes,
            // The range was checked against the buffer when it was made,
            // and a shared buffer no longer changes.
            Bytes::Shared(buffer, range) => buffer.get(range.clone()).unwrap_or_default(),
        }
    }
}

/// What the reader hands on, in input order.
pub(crate) enum Item {
    Page(PageIn),
    /// A file to read with [`file_pages`]: a page, or several.
    File(PathBuf),
    /// A stretch of a `.warc.gz` to read with [`segment::read`](crate::segment::read).
    Segment(crate::segment::Segment),
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
    match read_file(path) {
        Ok(bytes) => from_bytes(source, bytes, file_url(path), send),
        Err(e) => send(problem(&source, format!("cannot read: {e}"))),
    }
}

/// `std::fs::read` into a spare page buffer.
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let size = file.metadata().map_or(0, |m| m.len());
    // One more byte than the size, so that the read meeting the end needs
    // no more room.
    let mut bytes = page_buffer(usize::try_from(size).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Page buffers given back once their page is processed, for the pages
/// read next. A fresh buffer costs a page fault per 4 KiB touched (and
/// glibc hands large freed blocks back to the system): about a quarter of
/// the time of `htmltok sniff` over the corpus as a `.warc.gz`.
static SPARE: Mutex<Spare> = Mutex::new(Spare {
    buffers: Vec::new(),
    bytes: 0,
});

/// At most this many bytes of spare buffers are kept (on top of the pages
/// in flight, which the pipeline's window bounds).
const SPARE_BYTES: usize = 64 << 20;

/// At most this many spare buffers: finding one scans them all, so their
/// number, not only their bytes, must stay small (a crawl of tiny pages
/// would otherwise keep hundreds of thousands and scan them per page).
const SPARE_COUNT: usize = 256;

struct Spare {
    buffers: Vec<Vec<u8>>,
    /// Their capacities' sum.
    bytes: usize,
}

/// An empty buffer for a page of about `size` bytes: the smallest spare
/// one that holds it, else a new one.
pub(crate) fn page_buffer(size: usize) -> Vec<u8> {
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    let best = (spare.buffers.iter().enumerate())
        .filter(|(_, b)| b.capacity() >= size)
        .min_by_key(|(_, b)| b.capacity())
        .map(|(i, _)| i);
    match best {
        Some(i) => {
            let buffer = spare.buffers.swap_remove(i);
            spare.bytes -= buffer.capacity();
            buffer
        }
        None => {
            drop(spare);
            // A power of two, so that a spare fits the many pages a little
            // smaller than it, not only the ones smaller than the page it
            // was made for; room never touched costs nothing.
            Vec::with_capacity(size.max(4096).checked_next_power_of_two().unwrap_or(size))
        }
    }
}

/// Gives a processed page's bytes back for [`page_buffer`]: its own
/// buffer, or the shared one once no other page holds it.
pub(crate) fn recycle_page(bytes: Bytes) {
    match bytes {
        Bytes::Own(buffer) => recycle(buffer),
        Bytes::Shared(buffer, _) => {
            if let Ok(buffer) = Arc::try_unwrap(buffer) {
                recycle(buffer)
            }
        }
    }
}

/// Gives a buffer back for [`page_buffer`]; when the spares are full, the
/// smallest of them (or this one) is freed.
pub(crate) fn recycle(mut buffer: Vec<u8>) {
    if buffer.capacity() < 4096 || buffer.capacity() > SPARE_BYTES / 4 {
        return;
    }
    buffer.clear();
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    spare.bytes += buffer.capacity();
    spare.buffers.push(buffer);
    while spare.bytes > SPARE_BYTES || spare.buffers.len() > SPARE_COUNT {
        let smallest = (spare.buffers.iter().enumerate())
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, _)| i);
        let Some(i) = smallest else { break };
        let freed = spare.buffers.swap_remove(i);
        spare.bytes -= freed.capacity();
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
        bytes: Bytes::Own(bytes),
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
