//! An archive's decompressed bytes, with the offset of the unit (gzip
//! member, frame) each came from: what the record parser reads, a line or
//! a record's content at a time, and where it watches a record's content
//! for the start of another record.

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;

use crate::bytes::{Bytes, Pool};
use crate::format::starts_warc;
use crate::header::is_version_line;
use crate::source::Source;
use crate::units::{Compression, Units};

/// How much of a record's content is looked at to tell whether it is a
/// page before it is read or skipped.
pub(crate) const HEAD_PROBE: usize = 64 << 10;

/// The decompressed bytes of an archive, with the unit each came from.
pub(crate) struct Stream {
    /// Bytes read and not yet consumed start at `pos`.
    buf: Buf,
    pub(crate) pos: usize,
    /// Where each unit's bytes start in `buf`: (index, the unit's offset,
    /// the unit's bytes before that index). Only the last entry at or
    /// before `pos` matters; older ones are dropped as the buffer moves.
    units_at: VecDeque<(usize, u64, u64)>,
    pub(crate) units: Option<Units>,
    /// The units have ended (or there are none: a member in memory).
    pub(crate) ended: bool,
    /// The archive ends inside the unit at this offset; cleared once a
    /// problem or a page has said so.
    pub(crate) clipped: Option<u64>,
    pub(crate) plain: bool,
    /// The bytes the last [`Stream::line`] consumed, its line end too.
    pub(crate) line_consumed: usize,
    /// While a record's content is consumed: where in it another record
    /// seems to start.
    pub(crate) watch: Option<Watch>,
}

/// Another record's start seen inside a record's content: a record start
/// at a unit's start in a compressed archive, a WARC version line
/// anywhere in a plain one.
#[derive(Default)]
pub(crate) struct Watch {
    /// Content bytes consumed so far.
    pub(crate) consumed: u64,
    /// The first: its index in the content, its offset in the archive.
    pub(crate) first: Option<(u64, u64)>,
}

enum Buf {
    /// Refilled from the units.
    Own(Vec<u8>),
    /// One member's inflated bytes, shared with the pages found in it.
    Shared(Arc<Vec<u8>>),
}

impl Buf {
    fn bytes(&self) -> &[u8] {
        match self {
            Buf::Own(v) => v,
            Buf::Shared(v) => v,
        }
    }
}

/// Why the stream could not go on.
pub(crate) struct UnitError {
    /// The unit that failed.
    pub(crate) offset: u64,
    pub(crate) error: io::Error,
    /// It failed before handing on any of its bytes: the record it held
    /// is lost ([`Units::lost_a_record`]).
    pub(crate) lost_a_record: bool,
}

impl Stream {
    pub(crate) fn over_units(units: Units) -> Stream {
        Stream {
            plain: units.compression() == Compression::None,
            buf: Buf::Own(Vec::with_capacity(HEAD_PROBE * 2)),
            pos: 0,
            units_at: VecDeque::new(),
            units: Some(units),
            ended: false,
            clipped: None,
            line_consumed: 0,
            watch: None,
        }
    }

    /// The records of one gzip member's inflated `bytes`, at `offset`.
    pub(crate) fn over_member(bytes: Arc<Vec<u8>>, offset: u64) -> Stream {
        Stream {
            plain: false,
            buf: Buf::Shared(bytes),
            pos: 0,
            units_at: VecDeque::from([(0, offset, 0)]),
            units: None,
            ended: true,
            clipped: None,
            line_consumed: 0,
            watch: None,
        }
    }

    pub(crate) fn available(&self) -> &[u8] {
        &self.buf.bytes()[self.pos..]
    }

    /// Makes at least `n` bytes available, unless the stream ends first;
    /// returns what is available.
    pub(crate) fn fill(&mut self, n: usize) -> Result<&[u8], UnitError> {
        while self.available().len() < n && !self.ended {
            self.read_more()?;
        }
        Ok(self.available())
    }

    /// Reads more bytes from the current unit, or starts the next.
    fn read_more(&mut self) -> Result<(), UnitError> {
        let Buf::Own(buf) = &mut self.buf else {
            self.ended = true;
            return Ok(());
        };
        let Some(units) = self.units.as_mut() else {
            self.ended = true;
            return Ok(());
        };
        // Drop what is consumed once it is most of the buffer.
        if self.pos > 0 && self.pos >= buf.len() / 2 {
            let dropped = self.pos;
            buf.drain(..dropped);
            for entry in self.units_at.iter_mut() {
                if entry.0 < dropped {
                    entry.2 += (dropped - entry.0) as u64;
                    entry.0 = 0;
                } else {
                    entry.0 -= dropped;
                }
            }
            // Of the entries now at the buffer's start, only the last
            // says which unit its first byte is in.
            while self.units_at.len() > 1 && self.units_at[1].0 == 0 {
                self.units_at.pop_front();
            }
            self.pos = 0;
        }
        let unit = units.unit_start();
        let before = buf.len();
        let read = match units.read(buf) {
            Ok(read) => read,
            // The archive ends inside this unit: what it gave is all
            // there is (a clipped record is read as far as it goes).
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                self.ended = true;
                self.clipped = Some(unit);
                return Ok(());
            }
            Err(error) => {
                return Err(UnitError {
                    offset: unit,
                    error,
                    lost_a_record: units.lost_a_record(),
                })
            }
        };
        if read > 0 {
            if self.units_at.is_empty() {
                self.units_at.push_back((before, unit, 0));
            }
            return Ok(());
        }
        match units.next_unit() {
            Ok(true) => {
                let start = units.unit_start();
                self.units_at.push_back((buf.len(), start, 0));
                Ok(())
            }
            Ok(false) => {
                self.ended = true;
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                self.ended = true;
                self.clipped = Some(units.unit_start());
                Ok(())
            }
            Err(error) => Err(UnitError {
                offset: units.unit_start(),
                error,
                lost_a_record: units.lost_a_record(),
            }),
        }
    }

    pub(crate) fn consume(&mut self, n: usize) {
        let n = n.min(self.buf.bytes().len() - self.pos);
        if self.watch.as_ref().is_some_and(|w| w.first.is_none()) {
            self.watch_over(n);
        }
        if let Some(watch) = &mut self.watch {
            watch.consumed += n as u64;
        }
        self.pos += n;
    }

    /// Looks for another record's start in the next `n` bytes, which a
    /// record's content is about to consume.
    fn watch_over(&mut self, n: usize) {
        let bytes = self.buf.bytes();
        let (start, end) = (self.pos, self.pos + n);
        let found = if self.plain {
            // A version line's bytes after the last consumed one are
            // looked at when they are there.
            let seen = (end + 24).min(bytes.len());
            memchr::memmem::find_iter(&bytes[start..seen], b"WARC/")
                .map(|i| start + i)
                .take_while(|&i| i < end)
                .find(|&i| is_version_line(&bytes[i..seen]))
        } else {
            self.units_at
                .iter()
                .map(|&(index, _, _)| index)
                .filter(|&index| index > start && index < end)
                .find(|&index| starts_warc(&bytes[index..]))
        };
        if let (Some(i), Some(watch)) = (found, self.watch.as_ref()) {
            let first = (watch.consumed + (i - start) as u64, self.offset_at(i));
            if let Some(watch) = &mut self.watch {
                watch.first = Some(first);
            }
        }
    }

    /// The unit of the byte at `at`: its entry.
    fn unit_at(&self, at: usize) -> (usize, u64, u64) {
        let mut here = (0, 0, 0);
        for &entry in &self.units_at {
            if entry.0 <= at {
                here = entry;
            } else {
                break;
            }
        }
        here
    }

    /// The offset a record starting at the next byte has: its unit's, or
    /// its own in a plain archive.
    pub(crate) fn offset_here(&self) -> u64 {
        self.offset_at(self.pos)
    }

    /// The offset a record starting at the buffer's byte `at` has.
    pub(crate) fn offset_at(&self, at: usize) -> u64 {
        let (index, unit, before) = self.unit_at(at);
        if self.plain {
            unit + before + (at - index) as u64
        } else {
            unit
        }
    }

    /// What a unit is called in a message.
    pub(crate) fn unit_name(&self) -> &'static str {
        match self.units.as_ref().map(Units::compression) {
            Some(Compression::Gzip) | None => "gzip member",
            Some(Compression::Lz4) => "LZ4 frame",
            Some(Compression::Zstd) => "Zstandard frame",
            Some(Compression::None) => "stretch of bytes",
        }
    }

    /// How many of the available bytes come before the next unit's
    /// first.
    pub(crate) fn before_next_unit(&self) -> usize {
        self.units_at
            .iter()
            .find(|&&(index, _, _)| index > self.pos)
            .map_or(self.available().len(), |&(index, _, _)| index - self.pos)
    }

    /// Whether a unit (gzip member, frame) starts at the next byte, in a
    /// compressed stream.
    pub(crate) fn at_unit_start(&self) -> bool {
        // An entry whose unit had bytes before its index is no start (the
        // buffer's first byte, after consumed bytes were dropped).
        !self.plain
            && self
                .units_at
                .iter()
                .any(|&(index, _, before)| index == self.pos && before == 0)
    }

    /// Consumes the next line, ending with LF or at the end of the stream,
    /// onto `out` (its line end dropped); `false` when there was none. A
    /// line longer than `limit` is an error.
    pub(crate) fn line(&mut self, out: &mut Vec<u8>, limit: usize) -> Result<LineEnd, UnitError> {
        let start = out.len();
        self.line_consumed = 0;
        loop {
            let available = self.fill(1)?;
            if available.is_empty() {
                return Ok(if out.len() > start {
                    LineEnd::Eof
                } else {
                    LineEnd::None
                });
            }
            let (n, found) = match memchr::memchr(b'\n', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let take = n.min(limit.saturating_sub(out.len() - start) + 1);
            out.extend_from_slice(&available[..take]);
            self.consume(take);
            self.line_consumed += take;
            if out.len() - start > limit {
                return Ok(LineEnd::TooLong);
            }
            if found && take == n {
                out.pop();
                if out.last() == Some(&b'\r') {
                    out.pop();
                }
                return Ok(LineEnd::Lf);
            }
        }
    }

    /// Skips `n` bytes; returns how many were there.
    pub(crate) fn skip(&mut self, n: u64) -> Result<u64, UnitError> {
        let mut left = n;
        while left > 0 {
            let available = self.fill(1)?.len();
            if available == 0 {
                break;
            }
            let k = usize::try_from(left).map_or(available, |l| l.min(available));
            self.consume(k);
            left -= k as u64;
        }
        Ok(n - left)
    }

    /// The next `n` bytes as a page's bytes (at most `limit` kept, the
    /// rest skipped); the count of bytes that were there.
    pub(crate) fn take(
        &mut self,
        n: u64,
        limit: usize,
        pool: &Pool,
    ) -> Result<(Bytes, u64), UnitError> {
        let keep = usize::try_from(n).map_or(limit, |n| n.min(limit));
        if let Buf::Shared(shared) = &self.buf {
            let have = (shared.len() - self.pos).min(keep);
            let bytes = Bytes::shared(Arc::clone(shared), self.pos..self.pos + have).pooled(pool);
            self.consume(have);
            let skipped = self.skip(n - have as u64)?;
            return Ok((bytes, have as u64 + skipped));
        }
        let mut out = pool.buffer(keep.min(HEAD_PROBE * 16));
        while out.len() < keep {
            let available = self.fill(1)?;
            if available.is_empty() {
                break;
            }
            let k = available.len().min(keep - out.len());
            out.extend_from_slice(&available[..k]);
            self.consume(k);
        }
        let have = out.len() as u64;
        let skipped = self.skip(n - have)?;
        Ok((Bytes::from(out).pooled(pool), have + skipped))
    }

    /// After a unit failed: drops what is buffered and goes on at the next
    /// unit that starts a record (`None`: there is none).
    pub(crate) fn resync(
        &mut self,
        source: &Source,
        starts_record: fn(&[u8]) -> bool,
    ) -> io::Result<Option<u64>> {
        if let Buf::Own(buf) = &mut self.buf {
            buf.clear();
        }
        self.pos = 0;
        self.units_at.clear();
        let Some(units) = self.units.as_mut() else {
            self.ended = true;
            return Ok(None);
        };
        let next = units.resync(source, starts_record)?;
        match next {
            Some(_) => match units.next_unit() {
                Ok(true) => self.units_at.push_back((0, units.unit_start(), 0)),
                _ => self.ended = true,
            },
            None => self.ended = true,
        }
        Ok(next)
    }
}

/// How a line ended.
#[derive(PartialEq, Eq)]
pub(crate) enum LineEnd {
    Lf,
    /// At the end of the stream, after some bytes.
    Eof,
    /// No line: the stream had ended.
    None,
    TooLong,
}
