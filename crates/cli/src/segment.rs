//! A `.warc.gz` archive read in segments by the page threads themselves:
//! each inflates its segment's members and processes their pages at once,
//! while they are still in its cache.
//!
//! A WARC archive is written one gzip member per record (the WARC
//! standard's advice, which Common Crawl, the Internet Archive, wget and
//! warcio follow), so a member can be inflated and its records read
//! without the rest of the file once its start is known. The reading
//! thread only plans: it guesses member starts near every 256 KiB of the
//! compressed file ([`members::find_member_start`]) and hands each stretch
//! between two guesses on as one [`Segment`] item. Handing the inflated
//! bytes from an inflating thread to a reading thread to the page threads
//! cost more than a third of the CPU time of `htmltok text` over an
//! archive (page faults of fresh chunks, wake-ups, cache misses); here a
//! page thread reuses one buffer for every member.
//!
//! What may be wrong, and how the output stays what reading the archive
//! in order gives:
//! - **A guess** may not be a member start (a record's payload can hold a
//!   gzip file of its own). A segment goes on until a member ends at or
//!   past its stop, and the writer takes a segment only if the one before
//!   ended exactly where it starts; a segment that starts too early is
//!   dropped, and a stretch no segment covers is read on the writing
//!   thread ([`Chain`] in `pipeline.rs`).
//! - **A member may not hold whole records** (an archive compressed as
//!   one stream, or in blocks). A member is read on its own only when its
//!   bytes are framed as whole records ([`whole_records`]); otherwise, or
//!   when it is broken, larger than [`LIMIT`] or holds a page without a
//!   target URI (named by its number in the archive), the segment ends
//!   there and the writer reads the rest of the archive in order from
//!   that member's start, as before ([`How::InOrder`]).

use std::fs::File;
use std::io::{BufReader, Cursor, Seek, SeekFrom};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use fastwarc::warc::iter::ArchiveIterator;
use fastwarc::warc::record::SharedWarcRecord;

use crate::members::{self, Counted, Current, Member};
use crate::read::{page_buffer, problem, Item};
use crate::warc;

/// The largest member read on its own: one larger is most likely a whole
/// archive compressed as one stream, which is read in order instead of
/// held in memory.
const LIMIT: usize = 64 << 20;

/// What a member buffer starts as: most members (a record of a crawled
/// page) are smaller.
const BUFFER: usize = 1 << 20;

/// A stretch of a `.warc.gz`: the members from `start` on, until one
/// ends at or past `stop`.
#[derive(Clone)]
pub(crate) struct Segment {
    /// Which archive: segments of one archive are consecutive items.
    pub file: usize,
    pub path: Arc<Path>,
    pub source: Arc<str>,
    /// A guessed member start (0, the archive's first, is a true one).
    pub start: u64,
    pub stop: u64,
    /// The archive's size.
    pub len: u64,
    /// Whether it is the archive's last (its `stop` is `len`).
    pub last: bool,
}

/// How a segment ended, after the items it gave.
pub(crate) struct End {
    pub segment: Segment,
    pub how: How,
    /// Records read (pages and others), for naming later ones by number.
    pub records: usize,
}

pub(crate) enum How {
    /// At a member end at or past `stop`, or at the end of the file.
    At(u64),
    /// At the start of a member that cannot be read on its own: the rest
    /// of the archive is to be read in order from there.
    InOrder(u64),
    /// Reading it failed inside a crate (a panic): the rest is skipped.
    Failed,
}

/// Numbers the archives read in segments.
static FILES: AtomicUsize = AtomicUsize::new(0);

/// Plans the segments of the `.warc.gz` at `path` and gives them to
/// `send` (on the reading thread); returns whether to go on.
pub(crate) fn plan(path: &Path, source: &str, send: &mut dyn FnMut(Item) -> bool) -> bool {
    let opened = File::open(path).and_then(|f| Ok((f.metadata()?.len(), f)));
    let (len, mut probe) = match opened {
        Ok(opened) => opened,
        Err(e) => return send(problem(source, format!("cannot read: {e}"))),
    };
    let mut buf = Vec::new();
    // The next guess is looked for all the way to the end (a large
    // member, a video, must not leave the rest of the archive to one
    // segment); the whole file is scanned once.
    let mut guess = |start: u64| {
        let from = start.saturating_add(members::SEGMENT);
        (from < len)
            .then(|| members::find_member_start(&mut probe, &mut buf, from, len))
            .flatten()
    };
    let mut next = guess(0);
    if next.is_none() && len > members::SEGMENT {
        // No member starts after the first: one gzip stream (or a few
        // huge members), read in order here, its pages on every job.
        return warc::read_members_from(path, 0, 0, source, send);
    }
    let file = FILES.fetch_add(1, Ordering::Relaxed);
    let (path, source): (Arc<Path>, Arc<str>) = (path.into(), source.into());
    let mut start = 0;
    loop {
        let segment = Segment {
            file,
            path: Arc::clone(&path),
            source: Arc::clone(&source),
            start,
            stop: next.unwrap_or(len),
            len,
            last: next.is_none(),
        };
        if !send(Item::Segment(segment)) {
            return false;
        }
        match next {
            Some(at) => {
                start = at;
                next = guess(start);
            }
            None => return true,
        }
    }
}

/// Reads `segment`'s members and gives `send` their items, in order; says
/// how it ended.
pub(crate) fn read(segment: &Segment, send: &mut dyn FnMut(Item) -> bool) -> End {
    let mut records = 0;
    let how = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        read_members(segment, &mut records, send)
    }))
    .unwrap_or(How::Failed);
    End {
        segment: segment.clone(),
        how,
        records,
    }
}

fn read_members(segment: &Segment, records: &mut usize, send: &mut dyn FnMut(Item) -> bool) -> How {
    let in_order = How::InOrder(segment.start);
    let Ok(mut file) = File::open(&segment.path) else {
        return in_order;
    };
    if file.seek(SeekFrom::Start(segment.start)).is_err() {
        return in_order;
    }
    let mut input = Counted {
        inner: BufReader::with_capacity(64 << 10, file),
        pos: segment.start,
    };
    let mut member = Member::new();
    let mut buffer = page_buffer(BUFFER);
    loop {
        let at = input.pos;
        // The first member is read even at the end: an empty file is a
        // broken gzip stream, which reading in order reports.
        if at != segment.start {
            let ended = match std::io::BufRead::fill_buf(&mut input) {
                Ok(rest) => rest.is_empty(),
                Err(_) => return How::InOrder(at),
            };
            if ended || at >= segment.stop {
                return How::At(at);
            }
        }
        buffer.clear();
        let inflated = member.inflate(&mut input, &mut buffer, &mut |chunk, start| {
            (chunk.len() < LIMIT).then(|| {
                chunk.reserve(chunk.len());
                start
            })
        });
        if inflated.is_err() {
            return How::InOrder(at);
        }
        let shared = Arc::new(buffer);
        let Some(items) = member_items(&shared, &segment.source) else {
            return How::InOrder(at);
        };
        *records += items.len();
        for item in items {
            if !send(item) {
                // The output is gone; how it ended no longer matters.
                return How::Failed;
            }
        }
        // The pages sent are processed and dropped: the buffer is ours
        // again.
        buffer = Arc::try_unwrap(shared).unwrap_or_else(|_| page_buffer(BUFFER));
    }
}

/// The items of the records in one member's inflated bytes, if they are
/// whole records that read without a problem, and none is a page named
/// by its number (which only reading in order knows).
fn member_items(bytes: &Arc<Vec<u8>>, source: &str) -> Option<Vec<Item>> {
    let count = whole_records(bytes)?;
    let current = Current::of(Arc::clone(bytes));
    let records =
        ArchiveIterator::with_options(Cursor::new(SharedBytes(Arc::clone(bytes))), warc::plain());
    let mut items = Vec::with_capacity(count);
    for record in records {
        let (item, by_number) = record
            .ok()?
            .with_mut(|r| warc::page(r, Some(&current), source, 0));
        if by_number || matches!(item, Item::Problem(_)) {
            return None;
        }
        items.push(item);
    }
    (items.len() == count).then_some(items)
}

/// A member's bytes for a reader that must own them.
struct SharedBytes(Arc<Vec<u8>>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// How many WARC records `bytes` are, if they are whole records framed
/// as the standard writes them, and nothing else: each a `WARC/1.0` or
/// `WARC/1.1` line, `Name: value` header lines ending in CRLF up to an
/// empty one, exactly one `Content-Length` (spelt so: fastwarc's spelling)
/// of decimal digits, that many bytes of content, and the two CRLFs that
/// end a record. Then every record ends where fastwarc ends it in the
/// archive read in order, and the member can be read on its own.
/// Anything less regular (folded or bare-LF header lines, blank lines
/// between records) is read in order instead.
pub(crate) fn whole_records(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    let mut count = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if !(rest.starts_with(b"WARC/1.0\r\n") || rest.starts_with(b"WARC/1.1\r\n")) {
            return None;
        }
        // The header lines, each with its CR, up to the empty line.
        let end_of_head = memchr::memmem::find(rest, b"\r\n\r\n")?;
        let mut length = None;
        for line in rest[10..end_of_head + 2].split(|&b| b == b'\n') {
            let Some(line) = line.strip_suffix(b"\r") else {
                // The empty piece after the last line's LF.
                if line.is_empty() {
                    continue;
                }
                return None;
            };
            let colon = line.iter().position(|&b| b == b':')?;
            let name = &line[..colon];
            if name.is_empty() || name[0].is_ascii_whitespace() || line.contains(&b'\r') {
                return None;
            }
            if name.eq_ignore_ascii_case(b"content-length") {
                if length.is_some() || name != b"Content-Length" {
                    return None;
                }
                let value = line[colon + 1..].trim_ascii();
                if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                length = Some(std::str::from_utf8(value).ok()?.parse::<usize>().ok()?);
            }
        }
        let end = (end_of_head + 4).checked_add(length?)?;
        if rest.get(end..end.checked_add(4)?)? != b"\r\n\r\n" {
            return None;
        }
        at += end + 4;
        count += 1;
    }
    Some(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(headers: &str, body: &[u8]) -> Vec<u8> {
        let mut out = format!("WARC/1.1\r\n{headers}\r\n").into_bytes();
        out.extend_from_slice(body);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    #[test]
    fn whole_records_frames_as_the_standard_writes() {
        let one = record("WARC-Type: resource\r\nContent-Length: 5\r\n", b"hello");
        assert_eq!(whole_records(&one), Some(1));
        let mut two = one.clone();
        two.extend_from_slice(&record("Content-Length:  0 \r\n", b""));
        assert_eq!(whole_records(&two), Some(2));
        assert_eq!(whole_records(b""), Some(0));
        // A record cut anywhere is not whole.
        for cut in 1..one.len() {
            assert_eq!(whole_records(&one[..cut]), None, "cut at {cut}");
        }
        // Content that holds the end of a header, or more than it says.
        let inner = record("Content-Length: 8\r\n", b"\r\n\r\nWARC");
        assert_eq!(whole_records(&inner), Some(1));
        assert_eq!(
            whole_records(&record("Content-Length: 3\r\n", b"hello")),
            None
        );
        // No length, two lengths, a length that is not a number.
        assert_eq!(whole_records(&record("WARC-Type: x\r\n", b"")), None);
        assert_eq!(
            whole_records(&record("Content-Length: 0\r\nContent-Length: 0\r\n", b"")),
            None
        );
        assert_eq!(
            whole_records(&record("Content-Length: +5\r\n", b"hello")),
            None
        );
        assert_eq!(
            whole_records(&record(
                "Content-Length: 99999999999999999999999999\r\n",
                b""
            )),
            None
        );
        // Spellings and layouts fastwarc may frame otherwise.
        for headers in [
            "content-length: 5\r\n",
            "X: y\r\n  folded\r\nContent-Length: 5\r\n",
            "X: y\nContent-Length: 5\r\n",
            " \r\nContent-Length: 5\r\n",
        ] {
            assert_eq!(
                whole_records(&record(headers, b"hello")),
                None,
                "{headers:?}"
            );
        }
        // Not a record at all, or blank lines between records.
        assert_eq!(whole_records(b"GET / HTTP/1.1\r\n\r\n"), None);
        let mut blank = one.clone();
        blank.extend_from_slice(b"\r\n");
        blank.extend_from_slice(&one);
        assert_eq!(whole_records(&blank), None);
    }
}
