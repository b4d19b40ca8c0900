//! What an archive is, from its first bytes: WARC or ARC, and how it is
//! compressed; and what starts a record of each.

use std::io;

use crate::source::Source;
use crate::units::Compression;

/// WARC or ARC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// WARC, any version from 0.17 to 1.1.
    Warc,
    /// ARC, version 1 or 2 (the Internet Archive's format before WARC).
    Arc,
}

/// What an archive is: its kind and how it is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// WARC or ARC.
    pub kind: Kind,
    /// How it is compressed.
    pub compression: Compression,
}

/// How much of an archive's start is read to tell what it is.
const PROBE: usize = 64 << 10;

/// What the archive `source` is, from its content; `None` when it is not
/// one (a page, or anything else).
///
/// ```
/// use htmltok_warc::{detect, Compression, Format, Kind, Source};
/// let warc = Source::from(b"WARC/1.1\r\nWARC-Type: warcinfo\r\n".to_vec());
/// assert_eq!(detect(&warc).unwrap(), Some(Format { kind: Kind::Warc, compression: Compression::None }));
/// let page = Source::from(b"<!doctype html>".to_vec());
/// assert_eq!(detect(&page).unwrap(), None);
/// ```
pub fn detect(source: &Source) -> io::Result<Option<Format>> {
    let mut input = source.open_at(0)?;
    let mut head = Vec::with_capacity(PROBE);
    io::Read::read_to_end(&mut io::Read::take(&mut input, PROBE as u64), &mut head)?;
    Ok(detect_head(&head))
}

/// [`detect`] for bytes in memory (only their start is read), without
/// making them a [`Source`] first: for a caller that keeps the bytes as
/// they are when they are not an archive.
///
/// ```
/// use htmltok_warc::{detect_bytes, Compression, Format, Kind};
/// let warc = b"WARC/1.1\r\nWARC-Type: warcinfo\r\n";
/// assert_eq!(detect_bytes(warc), Some(Format { kind: Kind::Warc, compression: Compression::None }));
/// assert_eq!(detect_bytes(b"<!doctype html>"), None);
/// ```
pub fn detect_bytes(bytes: &[u8]) -> Option<Format> {
    detect_head(&bytes[..bytes.len().min(PROBE)])
}

/// [`detect`] on an archive's first bytes (at most `PROBE` of them).
fn detect_head(head: &[u8]) -> Option<Format> {
    let compression = Compression::of(head);
    let content = match compression {
        Compression::None => head.to_vec(),
        Compression::Gzip => crate::gzip::member_head(head, 16)?,
        Compression::Lz4 => {
            let mut out = Vec::new();
            let mut decoder = lz4_flex::frame::FrameDecoder::new(head);
            let _ = io::Read::read_to_end(&mut io::Read::take(&mut decoder, 16), &mut out);
            out
        }
        Compression::Zstd => {
            if head.starts_with(&crate::frames::ZSTD_DICTIONARY_MAGIC) {
                // The warc-zstd format's own mark.
                return Some(Format {
                    kind: Kind::Warc,
                    compression,
                });
            }
            let mut out = Vec::new();
            let decoded = std::panic::catch_unwind(|| {
                let decoder = ruzstd::decoding::StreamingDecoder::new(head).ok()?;
                let _ = io::Read::read_to_end(&mut io::Read::take(decoder, 16), &mut out);
                Some(out)
            });
            decoded.ok().flatten()?
        }
    };
    let kind = if starts_warc(&content) {
        Kind::Warc
    } else if content.starts_with(b"filedesc://") {
        Kind::Arc
    } else {
        return None;
    };
    Some(Format { kind, compression })
}

/// Whether `bytes` start a WARC record: `WARC/` and a digit.
pub(crate) fn starts_warc(bytes: &[u8]) -> bool {
    bytes.starts_with(b"WARC/") && bytes.get(5).is_some_and(u8::is_ascii_digit)
}

/// Whether `bytes` start an ARC record: a header line of five or ten
/// fields whose last is a length.
fn starts_arc(bytes: &[u8]) -> bool {
    match memchr::memchr(b'\n', bytes) {
        Some(end) => crate::arc::header(&bytes[..end]).is_some(),
        // Only the line's start is there (a member's first bytes): a
        // URL's scheme.
        None => {
            let scheme = bytes
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            scheme > 0 && bytes.get(scheme) == Some(&b':')
        }
    }
}

/// The test of whether bytes start a record of `kind`.
pub(crate) fn record_start(kind: Kind) -> fn(&[u8]) -> bool {
    match kind {
        Kind::Warc => starts_warc,
        Kind::Arc => starts_arc,
    }
}
