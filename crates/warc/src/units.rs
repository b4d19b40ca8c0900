//! An archive's compressed units, decompressed one after the other: gzip
//! members, LZ4 frames, Zstandard frames, or the whole file when it is
//! not compressed.
//!
//! A unit is what can be read on its own: real tools compress each record
//! alone, so a unit's offset names a record, and a broken unit costs only
//! the records in it. [`Units::resync`] finds the next unit after a broken
//! one; the record reader above it then looks for the next record start.

use std::io::{self, BufRead, Read, Take};

use crate::frames::{self, Frame};
use crate::gzip::{self, Member};
use crate::source::{Counted, Input, Source};

/// How an archive is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Not at all.
    None,
    /// Gzip: a member per record, or one for the whole file.
    Gzip,
    /// LZ4 frames (FastWARC's `.warc.lz4`).
    Lz4,
    /// Zstandard frames, with or without a dictionary (warc-zstd's
    /// `.warc.zst`).
    Zstd,
}

impl Compression {
    /// The compression `bytes` (an archive's first bytes) start with.
    pub fn of(bytes: &[u8]) -> Compression {
        if gzip::is_gzip(bytes) {
            Compression::Gzip
        } else if bytes.starts_with(&frames::LZ4_MAGIC) {
            Compression::Lz4
        } else if bytes.starts_with(&frames::ZSTD_MAGIC)
            || bytes.starts_with(&frames::ZSTD_DICTIONARY_MAGIC)
        {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// What a frame's decoder reads: exactly the frame's bytes.
type FrameInput = Take<Counted<Input>>;

/// The unit being read.
enum Current {
    /// Between units.
    None,
    Plain,
    Gzip,
    Lz4(Box<lz4_flex::frame::FrameDecoder<FrameInput>>),
    Zstd(Box<ruzstd::decoding::StreamingDecoder<FrameInput, ruzstd::decoding::FrameDecoder>>),
}

/// The units of an archive, decompressed.
pub(crate) struct Units {
    compression: Compression,
    /// The input, when no frame decoder holds it.
    input: Option<Counted<Input>>,
    current: Current,
    /// Where the current unit (or the last one) starts.
    unit_start: u64,
    /// Where the current frame ends (LZ4, Zstandard), once measured.
    unit_end: u64,
    member: Member,
    /// The Zstandard decoder, holding the archive's dictionary when it
    /// has one (between frames; a frame's decoder holds it meanwhile).
    zstd: Option<ruzstd::decoding::FrameDecoder>,
    /// The file's content starts at the first unit: for a plain archive,
    /// `next_unit` gives one unit for all of it.
    started: bool,
    /// The furthest offset of the input read so far.
    furthest: u64,
    /// Where the last look back ended: after a broken gzip member, the
    /// next member is looked for from just past its start (a crawler
    /// that died inside a member appended the next ones right after the
    /// cut, and the broken member's inflating may have gone through
    /// them), but never before this, so that no byte is inflated more
    /// than twice however the archive is broken.
    looked_back: u64,
    /// The current unit's bytes, decoded and held until it is verified,
    /// and how many of them were handed on.
    held: Vec<u8>,
    served: usize,
    /// The current unit has been decoded to its end.
    unit_done: bool,
    /// The archive's end inside the current unit, to be said once what it
    /// gave is handed on.
    deferred: Option<io::Error>,
    /// The archive ends inside the current frame: its decoder's failure
    /// is the end of the archive, not a broken frame.
    clipped: bool,
    /// The current unit is one (a gzip member's header, a frame's layout
    /// were read), and how much of it was handed on: a unit that fails
    /// before any of its bytes are handed on loses the record it holds.
    begun: bool,
    handed: bool,
}

/// The largest unit held whole until verified: a larger one (a whole
/// archive compressed as one stream) is handed on as it decodes.
const UNIT_HOLD: usize = 64 << 20;

/// The largest dictionary read from a warc-zstd dictionary frame.
const DICTIONARY_LIMIT: u64 = 16 << 20;

impl Units {
    /// The units of `source` from `at` (a unit start), compressed as
    /// `compression`.
    pub(crate) fn open(source: &Source, at: u64, compression: Compression) -> io::Result<Units> {
        Ok(Units {
            compression,
            input: Some(source.open_at(at)?),
            current: Current::None,
            unit_start: at,
            unit_end: at,
            member: Member::new(),
            zstd: None,
            started: false,
            clipped: false,
            furthest: at,
            looked_back: at,
            held: Vec::new(),
            served: 0,
            unit_done: false,
            deferred: None,
            begun: false,
            handed: false,
        })
    }

    pub(crate) fn compression(&self) -> Compression {
        self.compression
    }

    /// Where the current unit starts (of the last one, between units).
    pub(crate) fn unit_start(&self) -> u64 {
        self.unit_start
    }

    /// Whether the current unit, which just failed, took a record with
    /// it: it is a unit (a gzip member whose header was read, a frame
    /// whose layout was), and none of its bytes were handed on. Real
    /// tools compress each record alone, so it held one (or, in an
    /// archive compressed as one stream, at least one).
    pub(crate) fn lost_a_record(&self) -> bool {
        self.begun && !self.handed && self.compression != Compression::None
    }

    fn input(&mut self) -> io::Result<&mut Counted<Input>> {
        self.input
            .as_mut()
            .ok_or_else(|| io::Error::other("the archive's input was lost in a frame decoder"))
    }

    /// Starts the next unit; `false` at the end of the input.
    pub(crate) fn next_unit(&mut self) -> io::Result<bool> {
        self.end_frame();
        self.held.clear();
        self.served = 0;
        self.unit_done = false;
        self.deferred = None;
        self.begun = false;
        self.handed = false;
        let compression = self.compression;
        let input = self.input()?;
        let at_end = input.fill_buf()?.is_empty();
        let pos = input.pos();
        match compression {
            Compression::None => {
                if self.started || at_end {
                    return Ok(false);
                }
                self.started = true;
                self.unit_start = pos;
                self.current = Current::Plain;
                Ok(true)
            }
            Compression::Gzip => {
                if at_end {
                    return Ok(false);
                }
                self.unit_start = pos;
                let input = self.input.as_mut().expect("checked above");
                if zeros_to_end(input)? {
                    // Padding after the last member (a block's end), which
                    // `gzip -d` ignores too: the archive's end.
                    return Ok(false);
                }
                self.current = Current::Gzip;
                self.member.begin(input)?;
                self.begun = true;
                Ok(true)
            }
            Compression::Lz4 | Compression::Zstd => self.next_frame(),
        }
    }

    /// Measures the next data frame (taking any dictionary frame before
    /// it) and starts its decoder.
    fn next_frame(&mut self) -> io::Result<bool> {
        loop {
            let compression = self.compression;
            let input = self.input()?;
            if input.fill_buf()?.is_empty() {
                return Ok(false);
            }
            if zeros_to_end(input)? {
                // Padding after the last frame, as after a gzip member.
                return Ok(false);
            }
            let start = input.pos();
            let scanned = match compression {
                Compression::Lz4 => frames::scan_lz4(input),
                _ => frames::scan_zstd(input),
            };
            let frame = match scanned {
                Ok(frame) => frame,
                // A frame cut by the end of the file: decoded as far as
                // it goes.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    let len = input.pos() - start;
                    self.clipped = true;
                    Frame::Data(len)
                }
                Err(e) => {
                    self.unit_start = start;
                    return Err(e);
                }
            };
            self.unit_start = start;
            match frame {
                Frame::Skippable(nibble, len) => {
                    if self.compression == Compression::Zstd && nibble == 0xd {
                        self.dictionary(start + 8, len)?;
                    }
                }
                Frame::Data(len) => {
                    self.unit_end = start + len;
                    self.begun = true;
                    let mut input = self.input.take().expect("checked above");
                    input.seek_to(start)?;
                    let take = input.take(len);
                    self.current = match self.compression {
                        Compression::Lz4 => {
                            Current::Lz4(Box::new(lz4_flex::frame::FrameDecoder::new(take)))
                        }
                        _ => {
                            let decoder = self.zstd.take().unwrap_or_default();
                            match ruzstd::decoding::StreamingDecoder::new_with_decoder(
                                take, decoder,
                            ) {
                                Ok(stream) => Current::Zstd(Box::new(stream)),
                                Err(e) => {
                                    // The input is gone with the failed
                                    // decoder: reopened past the frame.
                                    return Err(io::Error::new(
                                        io::ErrorKind::InvalidData,
                                        format!("broken Zstandard frame: {e}"),
                                    ));
                                }
                            }
                        }
                    };
                    return Ok(true);
                }
            }
        }
    }

    /// Reads the warc-zstd dictionary in the skippable frame whose content
    /// is `len` bytes at `at` (itself Zstandard-compressed or not).
    fn dictionary(&mut self, at: u64, len: u64) -> io::Result<()> {
        if len > DICTIONARY_LIMIT {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a warc-zstd dictionary larger than 16 MiB",
            ));
        }
        let input = self.input()?;
        let after = input.pos();
        input.seek_to(at)?;
        let mut raw = vec![0; usize::try_from(len).unwrap_or(0)];
        input.read_exact(&mut raw)?;
        input.seek_to(after)?;
        if raw.starts_with(&frames::ZSTD_MAGIC) {
            let mut plain = Vec::new();
            ruzstd::decoding::StreamingDecoder::new(&raw[..])
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?
                .take(DICTIONARY_LIMIT)
                .read_to_end(&mut plain)?;
            raw = plain;
        }
        if raw.len() < 8 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a warc-zstd dictionary too short to be one",
            ));
        }
        let dictionary = ruzstd::decoding::Dictionary::decode_dict(&raw)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        let mut decoder = ruzstd::decoding::FrameDecoder::new();
        decoder
            .add_dict(dictionary)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        self.zstd = Some(decoder);
        Ok(())
    }

    /// Takes the input back from a frame decoder, placed at the frame's
    /// end whatever the decoder read of it.
    fn end_frame(&mut self) {
        let current = std::mem::replace(&mut self.current, Current::None);
        let take = match current {
            Current::Lz4(decoder) => decoder.into_inner(),
            Current::Zstd(decoder) => {
                let (take, mut frame_decoder) = decoder.into_parts();
                // Back to the state between frames, its dictionaries kept.
                frame_decoder.reset(&[][..]).ok();
                self.zstd = Some(frame_decoder);
                take
            }
            _ => return,
        };
        let mut input = take.into_inner();
        let _ = input.seek_to(self.unit_end);
        self.input = Some(input);
    }

    /// Decompresses onto `out` (at least some bytes, unless the unit has
    /// ended: then 0).
    ///
    /// A compressed unit is decoded whole and verified (its checksum)
    /// before any of it is handed on, so that a broken unit's bytes never
    /// become a page; only a unit larger than [`UNIT_HOLD`] is handed on
    /// as it decodes.
    pub(crate) fn read(&mut self, out: &mut Vec<u8>) -> io::Result<usize> {
        const CHUNK: usize = 64 << 10;
        if matches!(self.current, Current::Plain | Current::None) {
            let read = self.decode(out);
            self.handed |= matches!(read, Ok(n) if n > 0);
            return read;
        }
        if self.served == self.held.len() {
            if let Some(e) = self.deferred.take() {
                return Err(e);
            }
            if self.unit_done {
                return Ok(0);
            }
            let mut held = std::mem::take(&mut self.held);
            held.clear();
            self.served = 0;
            let filled = loop {
                match self.decode(&mut held) {
                    Ok(0) => {
                        self.unit_done = true;
                        break self.verify();
                    }
                    Ok(_) if held.len() >= UNIT_HOLD => break Ok(()),
                    Ok(_) => {}
                    // The archive ends in this unit: what it gave first.
                    Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                        self.deferred = Some(e);
                        break Ok(());
                    }
                    Err(e) => break Err(e),
                }
            };
            self.held = held;
            if let Err(e) = filled {
                self.held.clear();
                return Err(e);
            }
            if self.held.is_empty() {
                return match self.deferred.take() {
                    Some(e) => Err(e),
                    None => Ok(0),
                };
            }
        }
        let n = (self.held.len() - self.served).min(CHUNK);
        out.extend_from_slice(&self.held[self.served..self.served + n]);
        self.served += n;
        self.handed |= n > 0;
        Ok(n)
    }

    /// Checks a finished Zstandard frame's checksum, when it has one (a
    /// gzip member's is checked as it ends; LZ4 frames rarely carry one).
    fn verify(&self) -> io::Result<()> {
        if let Current::Zstd(decoder) = &self.current {
            let frame = &decoder.decoder;
            if let (Some(stored), Some(computed)) = (
                frame.get_checksum_from_data(),
                frame.get_calculated_checksum(),
            ) {
                if stored != computed {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "broken Zstandard frame: its checksum does not match",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Decompresses the current unit onto `out` as it comes.
    fn decode(&mut self, out: &mut Vec<u8>) -> io::Result<usize> {
        const CHUNK: usize = 64 << 10;
        match &mut self.current {
            Current::None => Ok(0),
            Current::Plain => {
                let input = self.input.as_mut().expect("a plain unit keeps its input");
                let data = input.fill_buf()?;
                let n = data.len().min(CHUNK);
                out.extend_from_slice(&data[..n]);
                input.consume(n);
                Ok(n)
            }
            Current::Gzip => {
                let input = self.input.as_mut().expect("a gzip unit keeps its input");
                let read = self.member.read(input, out);
                self.furthest = self.furthest.max(input.pos());
                read
            }
            Current::Lz4(decoder) => {
                let read = read_into(&mut **decoder, out, CHUNK);
                self.clipped_is_end(read)
            }

            Current::Zstd(decoder) => {
                // ruzstd is young: a panic in it is a broken frame, not
                // the end of the run.
                let decoder = &mut **decoder;
                let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    read_into(decoder, out, CHUNK)
                }))
                .unwrap_or_else(|_| {
                    Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "broken Zstandard frame (the decoder failed)",
                    ))
                });
                self.clipped_is_end(read)
            }
        }
    }

    /// A frame decoder's failure, or its end, in a clipped frame is the
    /// archive's end.
    fn clipped_is_end(&self, read: io::Result<usize>) -> io::Result<usize> {
        match read {
            Err(e) if self.clipped => Err(io::Error::new(io::ErrorKind::UnexpectedEof, e)),
            Ok(0) if self.clipped => Err(io::ErrorKind::UnexpectedEof.into()),
            read => read,
        }
    }

    /// After a failure in the current unit (or in starting it): goes to
    /// the next plausible unit start past it and returns it; `None` when
    /// there is none (the rest of the input is lost). A gzip member is
    /// plausible when it inflates to bytes that `starts_record` accepts.
    pub(crate) fn resync(
        &mut self,
        source: &Source,
        starts_record: fn(&[u8]) -> bool,
    ) -> io::Result<Option<u64>> {
        let failed = self.unit_start;
        self.current = Current::None;
        self.held.clear();
        self.served = 0;
        self.deferred = None;
        if matches!(self.compression, Compression::Lz4 | Compression::Zstd)
            && self.unit_end > failed
        {
            // The frame's layout was sound: the next frame is past it.
            let next = self.unit_end;
            self.input = Some(source.open_at(next)?);
            return Ok(Some(next));
        }
        let magic: &[u8] = match self.compression {
            Compression::None => return Ok(None),
            Compression::Gzip => &[0x1f, 0x8b, 8],
            Compression::Lz4 => &frames::LZ4_MAGIC,
            Compression::Zstd => &frames::ZSTD_MAGIC,
        };
        let compression = self.compression;
        if let Some(input) = &self.input {
            self.furthest = self.furthest.max(input.pos());
        }
        let from = if self.furthest > self.looked_back {
            let from = (failed + 1).max(self.looked_back);
            self.looked_back = self.furthest;
            from
        } else {
            (failed + 1).max(self.furthest)
        };
        let found = find_unit_start(source, from, magic, &|bytes| match compression {
            Compression::Gzip => gzip::member_head(bytes, 16).is_some_and(|h| starts_record(&h)),
            Compression::Lz4 => frames::plausible_frame(bytes, frames::LZ4_MAGIC),
            _ => frames::plausible_frame(bytes, frames::ZSTD_MAGIC),
        })?;
        match found {
            Some(next) => {
                self.input = Some(source.open_at(next)?);
                self.unit_end = next;
                Ok(Some(next))
            }
            None => {
                self.input = Some(source.open_end()?);
                Ok(None)
            }
        }
    }
}

/// Whether `input` holds nothing but zero bytes from here to its end
/// (at least one). It is left where it was unless it does: at the end.
/// Linear: the zeros looked at come before any later unit's start, so
/// none is looked at here twice.
fn zeros_to_end(input: &mut Counted<Input>) -> io::Result<bool> {
    let start = input.pos();
    loop {
        let data = input.fill_buf()?;
        if data.is_empty() {
            return Ok(input.pos() > start);
        }
        if data.iter().any(|&b| b != 0) {
            if input.pos() > start {
                input.seek_to(start)?;
            }
            return Ok(false);
        }
        let n = data.len();
        input.consume(n);
    }
}

fn read_into(reader: &mut impl Read, out: &mut Vec<u8>, chunk: usize) -> io::Result<usize> {
    let before = out.len();
    out.resize(before + chunk, 0);
    let result = loop {
        match reader.read(&mut out[before..]) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            result => break result,
        }
    };
    let n = *result.as_ref().unwrap_or(&0);
    out.truncate(before + n);
    result
}

/// The first offset from `from` on where `magic` starts bytes that
/// `plausible` accepts.
pub(crate) fn find_unit_start(
    source: &Source,
    from: u64,
    magic: &[u8],
    plausible: &dyn Fn(&[u8]) -> bool,
) -> io::Result<Option<u64>> {
    // Read in windows overlapping by as much as a check reads after a
    // candidate, so that a candidate near a window's end is checked whole.
    // A check reads a bounded stretch (a member's header and the deflate
    // data of its first bytes fit), so the search is linear in the file
    // however many candidates it holds.
    const WINDOW: usize = 64 << 10;
    const CHECK: usize = 1 << 10;
    let mut buf = vec![0; WINDOW + CHECK];
    let mut at = from;
    // Until a window comes short: the end of the source (a stream's
    // length is not known before it).
    loop {
        let mut input = source.open_at(at)?;
        let mut n = 0;
        while n < buf.len() {
            match input.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let window = &buf[..n];
        let scan = n.min(WINDOW);
        let mut i = 0;
        while let Some(hit) = memchr::memmem::find(&window[i..scan], magic) {
            let candidate = i + hit;
            if plausible(&window[candidate..(candidate + CHECK).min(n)]) {
                return Ok(Some(at + candidate as u64));
            }
            i = candidate + 1;
        }
        if n < buf.len() {
            return Ok(None);
        }
        at += WINDOW as u64;
    }
}
