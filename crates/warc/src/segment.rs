//! A gzip-compressed archive read in segments, on several threads at
//! once, with exactly the events of reading it in order.
//!
//! Real tools write a `.warc.gz` one gzip member per record (the WARC
//! standard's advice, which Common Crawl, the Internet Archive, wget and
//! warcio follow), so a member can be inflated and its records read
//! without the rest of the file once its start is known. [`plan`] guesses
//! member starts near every [`SEGMENT`] bytes of the compressed file (a
//! gzip header that inflates to a record start) and hands each stretch
//! between two guesses on as a [`Segment`], which any thread reads with
//! [`Segment::read`]. [`Join`] then puts the segments' events together in
//! order, reading on the calling thread what no segment covered.
//!
//! What may be wrong, and how the events stay those of reading in order:
//! - **A guess** may not be a member start (a record's payload can hold a
//!   gzip file of its own). A segment goes on until a member ends at or
//!   past its stop, and [`Join`] takes a segment only if the one before
//!   ended exactly where it starts; one that starts too early is dropped,
//!   and a stretch no segment covers is read by the joining thread.
//! - **A member may not hold whole records** (an archive compressed as
//!   one stream, or in blocks), or may hold something the in-order reader
//!   would say more of (a problem, a record that goes on past the member).
//!   A member is read on its own only when its records are whole and read
//!   without a problem; otherwise the segment ends there and the rest of
//!   the archive is read in order from that member's start
//!   ([`How::InOrder`]).

use std::io::BufRead;
use std::sync::Arc;

use crate::error::{Error, ErrorKind};
use crate::format::{record_start, Format};
use crate::gzip::{self, Member};
use crate::pages::{Event, Pages, Truncated};
use crate::records::{Options, Records};
use crate::source::Source;
use crate::units::{find_unit_start, Compression};

/// Compressed bytes a segment spans (the distance between guessed member
/// starts): a segment is about a hundred pages' work, so a thread's start
/// is nothing beside it, and two threads share even a small archive.
pub const SEGMENT: u64 = 256 << 10;

/// The largest member read on its own: a larger one is most likely a
/// whole archive compressed as one stream, which is read in order instead
/// of held in memory.
const MEMBER_LIMIT: usize = 64 << 20;

/// What a member buffer starts as: most members (a record of a crawled
/// page) are smaller.
const BUFFER: usize = 1 << 20;

/// A stretch of a gzip-compressed archive: the members from `start` on,
/// until one ends at or past `stop`.
#[derive(Clone, Debug)]
pub struct Segment {
    /// The archive.
    pub source: Source,
    /// Its format (gzip-compressed).
    pub format: Format,
    /// How its pages are read.
    pub options: Options,
    /// A guessed member start (0, the archive's first, is a true one: the
    /// segment that starts there starts a new archive).
    pub start: u64,
    /// Where the segment stops: at the first member end at or past it.
    pub stop: u64,
    /// The archive's size.
    pub len: u64,
    /// Whether it is the archive's last (its `stop` is `len`).
    pub last: bool,
}

/// How a segment ended, after its events.
#[derive(Debug)]
pub struct End {
    /// The segment.
    pub segment: Segment,
    /// How it ended.
    pub how: How,
    /// Its records (every one, pages or not).
    pub records: u64,
}

/// Where a segment ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// At a member end at or past its stop, or at the end of the file.
    At(u64),
    /// At the start of a member that cannot be read on its own: the rest
    /// of the archive is to be read in order from there.
    InOrder(u64),
    /// Reading it failed inside a crate (a panic): the rest is skipped.
    Failed,
}

/// Whether an archive of `format` can be read in segments (a stream
/// cannot: see [`plan`]).
pub fn can_segment(format: Format) -> bool {
    format.compression == Compression::Gzip
}

/// Plans the segments of `source`, a gzip-compressed archive of `format`
/// whose pages are read with `options`, giving them to `send` in order
/// until it returns `false`. Returns `Ok(false)` without sending any when
/// the archive has no member start after its first (one gzip stream), or
/// is a stream ([`Source::from_reader`]): it is to be read in order.
pub fn plan(
    source: &Source,
    format: Format,
    options: &Options,
    send: &mut dyn FnMut(Segment) -> bool,
) -> std::io::Result<bool> {
    plan_every(source, format, options, SEGMENT, send)
}

/// [`plan`] with member starts guessed near every `every` bytes instead of
/// every [`SEGMENT`] (the tests and the fuzz target make many segments of
/// small archives).
pub fn plan_every(
    source: &Source,
    format: Format,
    options: &Options,
    every: u64,
    send: &mut dyn FnMut(Segment) -> bool,
) -> std::io::Result<bool> {
    if source.is_stream() {
        return Ok(false);
    }
    let every = every.max(1);
    let len = source.len()?;
    let starts_record = record_start(format.kind);
    // The next guess is looked for all the way to the end (a large
    // member, a video, must not leave the rest of the archive to one
    // segment); the whole file is scanned once.
    let guess = |start: u64| -> std::io::Result<Option<u64>> {
        let from = start.saturating_add(every);
        if from >= len {
            return Ok(None);
        }
        find_unit_start(source, from, &[0x1f, 0x8b, 8], &|bytes| {
            gzip::member_head(bytes, 16).is_some_and(|head| starts_record(&head))
        })
    };
    let mut next = guess(0)?;
    if next.is_none() && len > every {
        return Ok(false);
    }
    let mut start = 0;
    loop {
        let segment = Segment {
            source: source.clone(),
            format,
            options: options.clone(),
            start,
            stop: next.unwrap_or(len),
            len,
            last: next.is_none(),
        };
        if !send(segment) {
            return Ok(true);
        }
        match next {
            Some(at) => {
                start = at;
                next = guess(start)?;
            }
            None => return Ok(true),
        }
    }
}

impl Segment {
    /// Reads the segment's members, giving `send` their events in order
    /// (numbered from the segment's first record) until it returns
    /// `false`; says how it ended.
    pub fn read(&self, send: &mut dyn FnMut(Event) -> bool) -> End {
        let mut records = 0;
        let how = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.read_members(&mut records, send)
        }))
        .unwrap_or(How::Failed);
        End {
            segment: self.clone(),
            how,
            records,
        }
    }

    fn read_members(&self, records: &mut u64, send: &mut dyn FnMut(Event) -> bool) -> How {
        let in_order = How::InOrder(self.start);
        let Ok(mut input) = self.source.open_at(self.start) else {
            return in_order;
        };
        let mut member = Member::new();
        let pool = self.options.pool();
        let mut buffer = pool.buffer(BUFFER);
        loop {
            let at = input.pos();
            // The first member is read even at the end: an empty file is a
            // broken gzip stream, which reading in order reports.
            if at != self.start {
                let ended = match input.fill_buf() {
                    Ok(rest) => rest.is_empty(),
                    Err(_) => return How::InOrder(at),
                };
                if ended || at >= self.stop {
                    return How::At(at);
                }
            }
            buffer.clear();
            if member
                .inflate_whole(&mut input, &mut buffer, MEMBER_LIMIT)
                .is_err()
            {
                return How::InOrder(at);
            }
            let shared = Arc::new(buffer);
            let member = member_events(&shared, at, self.format, &self.options, *records);
            let Some((events, read)) = member else {
                return How::InOrder(at);
            };
            *records += read;
            for event in events {
                if !send(event) {
                    // The consumer is gone; how it ended no longer matters.
                    return How::Failed;
                }
            }
            // The pages sent are processed and dropped by now, or hold the
            // buffer still: then it is theirs.
            buffer = Arc::try_unwrap(shared).unwrap_or_else(|_| pool.buffer(BUFFER));
        }
    }
}

/// The events of one member's inflated `bytes` at `offset`, numbered after
/// `before` records, and how many records they are, if they are what
/// reading in order gives there: whole
/// records, no problem but those a record's own bytes make (a page cut by
/// its crawler, inside its payload or at the largest size, and said so
/// right after it; an undecodable page), no page cut by the member's end
/// or a head with no body (which the record after it, in another member,
/// may show to be a HEAD response), every page named by its target URI.
fn member_events(
    bytes: &Arc<Vec<u8>>,
    offset: u64,
    format: Format,
    options: &Options,
    before: u64,
) -> Option<(Vec<Event>, u64)> {
    let records = Records::over_member(Arc::clone(bytes), offset, format, options.clone());
    let mut reader = Pages::over(records);
    let mut events = Vec::new();
    // The record of the last page when it is cut by its own bytes.
    let mut cut_page = None;
    for mut event in reader.by_ref() {
        match &mut event {
            Event::Problem(problem) => {
                let own = match problem.kind() {
                    ErrorKind::Undecodable => true,
                    ErrorKind::Truncated => cut_page.take() == problem.record(),
                    _ => false,
                };
                if !own || problem.record().is_none() {
                    return None;
                }
                problem.renumber(before);
            }
            Event::Page(page) => {
                cut_page = None;
                let named = page.record.target_uri().is_some();
                match &page.truncated {
                    _ if !named => return None,
                    Some(Truncated::ArchiveEnds { .. }) => return None,
                    Some(Truncated::Payload) if page.body.is_empty() => return None,
                    Some(Truncated::Declared(_) | Truncated::Payload | Truncated::TooLarge) => {
                        cut_page = Some(page.record.number());
                    }
                    _ => {}
                }
                page.record.renumber(before);
            }
            Event::Skipped(skipped) => skipped.record.renumber(before),
        }
        events.push(event);
    }
    let records = reader.records();
    reader.ended_cleanly().then_some((events, records))
}

/// Puts the events of an archive's segments together in order, reading on
/// the calling thread what no segment covered.
///
/// Invariant: the events delivered for the archive so far are those of
/// reading it in order up to `expected`, a member end (or, once
/// `finished`, all of it).
///
/// The segments of an archive come to [`Join::before`] and
/// [`Join::after`] in their planned order; a segment's own events are
/// delivered between the two calls, if `before` says so.
#[derive(Debug, Default)]
pub struct Join {
    expected: u64,
    /// Records delivered so far.
    records: u64,
    finished: bool,
}

impl Join {
    /// A new join, for any number of archives one after the other.
    pub fn new() -> Join {
        Join::default()
    }

    /// Reads any stretch before `segment` that no segment covered, giving
    /// its events to `here`; then says whether `segment`'s own events are
    /// to be delivered, and the number to add to their record numbers. A
    /// segment that starts at 0 starts a new archive.
    pub fn before(
        &mut self,
        segment: &Segment,
        here: &mut dyn FnMut(Event) -> bool,
    ) -> Option<u64> {
        if segment.start == 0 {
            *self = Join::default();
        }
        // A gap before the segment (the one before it ended early: it was
        // dropped, or stopped at the end of its reach).
        while !self.finished && self.expected < segment.start {
            if !self.fill(segment, segment.start, here) {
                return None;
            }
        }
        (!self.finished && self.expected == segment.start).then_some(self.records)
    }

    /// Goes on after `end`, the end of a segment whose events were
    /// delivered if `delivered` (as [`Join::before`] said); reads the rest
    /// of the archive here when the segment says so, or when it was the
    /// last and some of the archive is still unread.
    pub fn after(&mut self, end: End, delivered: bool, here: &mut dyn FnMut(Event) -> bool) {
        let segment = end.segment.clone();
        if delivered && !self.settle(end, here) {
            return;
        }
        if segment.last {
            while !self.finished && self.expected < segment.len {
                if !self.fill(&segment, segment.len, here) {
                    return;
                }
            }
        }
    }

    /// Reads the archive from `expected` until a member ends at or past
    /// `stop`, here; `false` when `here` wants no more.
    fn fill(&mut self, like: &Segment, stop: u64, here: &mut dyn FnMut(Event) -> bool) -> bool {
        let segment = Segment {
            start: self.expected,
            stop,
            last: false,
            ..like.clone()
        };
        let base = self.records;
        let mut go_on = true;
        let end = segment.read(&mut |event| {
            go_on = here(renumbered(event, base));
            go_on
        });
        go_on && self.settle(end, here)
    }

    /// Goes on after a segment that ended as `end`, its events delivered.
    fn settle(&mut self, end: End, here: &mut dyn FnMut(Event) -> bool) -> bool {
        self.records += end.records;
        let segment = end.segment;
        match end.how {
            How::At(at) => {
                self.expected = at;
                true
            }
            How::InOrder(at) => {
                self.finished = true;
                let reader = Pages::from_offset(
                    segment.source.clone(),
                    segment.format,
                    at,
                    self.records,
                    segment.options.clone(),
                );
                match reader {
                    Ok(reader) => {
                        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            for event in reader {
                                if !here(event) {
                                    return false;
                                }
                            }
                            true
                        }));
                        read.unwrap_or_else(|_| here(internal(&segment, at)))
                    }
                    Err(e) => here(Event::Problem(Error::at(
                        ErrorKind::Broken,
                        None,
                        at,
                        None,
                        format!("cannot read the rest of the archive: {e}"),
                    ))),
                }
            }
            How::Failed => {
                self.finished = true;
                here(internal(&segment, segment.start))
            }
        }
    }
}

/// `event` with `base` added to its record number.
pub fn renumbered(mut event: Event, base: u64) -> Event {
    match &mut event {
        Event::Page(page) => page.record.renumber(base),
        Event::Skipped(skipped) => skipped.record.renumber(base),
        Event::Problem(problem) => problem.renumber(base),
    }
    event
}

fn internal(segment: &Segment, at: u64) -> Event {
    Event::Problem(Error::at(
        ErrorKind::Broken,
        None,
        at.max(segment.start),
        None,
        "internal error while reading (the rest of the archive skipped)".into(),
    ))
}

/// Reads `source` as the parallel reader does, on this thread: planned
/// in segments of about `every` compressed bytes (when it is
/// gzip-compressed and has several members), each segment read on its
/// own, the events joined. The events are those of [`Pages`] reading it
/// in order with `options`; the fuzz target and the tests check it.
pub fn read_segmented(
    source: &Source,
    format: Format,
    options: &Options,
    every: u64,
    here: &mut dyn FnMut(Event) -> bool,
) -> std::io::Result<()> {
    let mut segments = Vec::new();
    let planned = can_segment(format)
        && plan_every(source, format, options, every, &mut |segment| {
            segments.push(segment);
            true
        })?;
    if !planned {
        let reader = Pages::from_offset(source.clone(), format, 0, 0, options.clone())?;
        for event in reader {
            if !here(event) {
                break;
            }
        }
        return Ok(());
    }
    let mut join = Join::new();
    for segment in segments {
        // Read as a thread of the pool would: on its own, numbered from 1.
        let mut events = Vec::new();
        let end = segment.read(&mut |event| {
            events.push(event);
            true
        });
        let base = join.before(&segment, here);
        if let Some(base) = base {
            for event in events {
                if !here(renumbered(event, base)) {
                    return Ok(());
                }
            }
        }
        join.after(end, base.is_some(), here);
    }
    Ok(())
}
