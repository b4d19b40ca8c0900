//! The frame layouts of LZ4 and Zstandard: where a frame ends, read from
//! its headers without decompressing it.
//!
//! FastWARC writes a `.warc.lz4` one LZ4 frame per record; the IIPC's
//! warc-zstd writes a `.warc.zst` one Zstandard frame per record, after a
//! skippable frame that holds the dictionary. A frame is a record's unit
//! as a gzip member is in a `.warc.gz`: its offset names the record, and a
//! broken one is skipped to the next. The decoders (lz4_flex, ruzstd) are
//! given exactly the frame's bytes, so none reads into the next frame.

use std::io::{self, BufRead, Read};

use crate::source::Counted;

/// The LZ4 frame magic number, little-endian.
pub(crate) const LZ4_MAGIC: [u8; 4] = [0x04, 0x22, 0x4d, 0x18];
/// The Zstandard frame magic number, little-endian.
pub(crate) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// The skippable frame the warc-zstd format keeps its dictionary in.
pub(crate) const ZSTD_DICTIONARY_MAGIC: [u8; 4] = [0x5d, 0x2a, 0x4d, 0x18];

/// Whether `magic` is that of a skippable frame (LZ4 and Zstandard share
/// them: `0x184D2A50` to `0x184D2A5F`).
pub(crate) fn is_skippable(magic: &[u8]) -> bool {
    magic.len() >= 4 && magic[0] & 0xf0 == 0x50 && magic[1..4] == [0x2a, 0x4d, 0x18]
}

/// What starts at a frame boundary.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// A data frame of this many bytes (headers included).
    Data(u64),
    /// A skippable frame: its magic's low nibble and its content's length
    /// (the content follows the 8 bytes of magic and length).
    Skippable(u8, u64),
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

fn byte<R: BufRead>(input: &mut Counted<R>) -> io::Result<u8> {
    let mut b = [0];
    input.read_exact(&mut b)?;
    Ok(b[0])
}

fn le32<R: BufRead>(input: &mut Counted<R>) -> io::Result<u32> {
    let mut b = [0; 4];
    input.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// Reads a frame's magic number: a skippable frame is read through and
/// returned; a data frame with `magic` is left to read (its magic read);
/// anything else is the error `what`.
fn data_frame<R: BufRead>(
    input: &mut Counted<R>,
    magic: [u8; 4],
    what: &str,
) -> io::Result<Option<Frame>> {
    let mut read = [0; 4];
    input.read_exact(&mut read)?;
    if is_skippable(&read) {
        let len = le32(input)?;
        input.skip(len.into())?;
        return Ok(Some(Frame::Skippable(read[0] & 0x0f, len.into())));
    }
    if read != magic {
        return Err(bad(what));
    }
    Ok(None)
}

/// Reads through the LZ4 frame (or skippable frame) at the start of
/// `input` and says what it was; `input` is left after it.
pub(crate) fn scan_lz4<R: BufRead>(input: &mut Counted<R>) -> io::Result<Frame> {
    let start = input.pos();
    if let Some(skippable) = data_frame(input, LZ4_MAGIC, "not an LZ4 frame")? {
        return Ok(skippable);
    }
    let flags = byte(input)?;
    let _block_descriptor = byte(input)?;
    if flags >> 6 != 1 || flags & 0x02 != 0 {
        return Err(bad("an LZ4 frame of an unknown version"));
    }
    let block_checksums = flags & 0x10 != 0;
    let content_size = flags & 0x08 != 0;
    let content_checksum = flags & 0x04 != 0;
    let dictionary = flags & 0x01 != 0;
    // Content size, dictionary ID, then the header checksum.
    input.skip(8 * u64::from(content_size) + 4 * u64::from(dictionary) + 1)?;
    loop {
        let block = le32(input)?;
        if block == 0 {
            break;
        }
        let size = block & 0x7fff_ffff;
        if size > 4 << 20 {
            return Err(bad("an LZ4 block larger than the format allows"));
        }
        input.skip(u64::from(size) + 4 * u64::from(block_checksums))?;
    }
    input.skip(4 * u64::from(content_checksum))?;
    Ok(Frame::Data(input.pos() - start))
}

/// Reads through the Zstandard frame (or skippable frame) at the start of
/// `input` and says what it was; `input` is left after it.
pub(crate) fn scan_zstd<R: BufRead>(input: &mut Counted<R>) -> io::Result<Frame> {
    let start = input.pos();
    if let Some(skippable) = data_frame(input, ZSTD_MAGIC, "not a Zstandard frame")? {
        return Ok(skippable);
    }
    let descriptor = byte(input)?;
    if descriptor & 0x08 != 0 {
        return Err(bad("a Zstandard frame with a reserved bit set"));
    }
    let single_segment = descriptor & 0x20 != 0;
    let checksum = descriptor & 0x04 != 0;
    let dictionary_id = [0, 1, 2, 4][usize::from(descriptor & 0x03)];
    let content_size = match descriptor >> 6 {
        0 => u64::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    input.skip(u64::from(!single_segment) + dictionary_id + content_size)?;
    loop {
        let mut header = [0; 3];
        input.read_exact(&mut header)?;
        let header = u32::from(header[0]) | u32::from(header[1]) << 8 | u32::from(header[2]) << 16;
        let last = header & 1 != 0;
        let size = header >> 3;
        match (header >> 1) & 3 {
            // Raw, compressed: that many bytes; RLE: one byte.
            0 | 2 => input.skip(size.into())?,
            1 => input.skip(1)?,
            _ => return Err(bad("a Zstandard block of a reserved type")),
        }
        if last {
            break;
        }
    }
    input.skip(4 * u64::from(checksum))?;
    Ok(Frame::Data(input.pos() - start))
}

/// Whether `bytes` start a plausible frame of the format whose magic is
/// `magic`: the magic and a header whose reserved bits are clear.
pub(crate) fn plausible_frame(bytes: &[u8], magic: [u8; 4]) -> bool {
    if !bytes.starts_with(&magic) || bytes.len() < 6 {
        return false;
    }
    if magic == LZ4_MAGIC {
        bytes[4] >> 6 == 1 && bytes[4] & 0x02 == 0 && bytes[5] & 0x8f == 0
    } else {
        bytes[4] & 0x08 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan<'a>(
        f: fn(&mut Counted<&'a [u8]>) -> io::Result<Frame>,
        bytes: &'a [u8],
    ) -> io::Result<Frame> {
        f(&mut Counted::new(bytes, 0))
    }

    #[test]
    fn lz4_frames_are_measured() {
        let mut encoder = lz4_flex::frame::FrameEncoder::new(Vec::new());
        std::io::Write::write_all(&mut encoder, &b"WARC/1.1\r\n".repeat(1000)).unwrap();
        let frame = encoder.finish().unwrap();
        let mut file = frame.clone();
        file.extend_from_slice(b"next");
        assert_eq!(
            scan(scan_lz4, &file).unwrap(),
            Frame::Data(frame.len() as u64)
        );
        for cut in 0..frame.len() {
            assert!(scan(scan_lz4, &frame[..cut]).is_err(), "cut at {cut}");
        }
        let skippable = [0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 9, 9];
        assert_eq!(scan(scan_lz4, &skippable).unwrap(), Frame::Skippable(0, 2));
        assert!(scan(scan_lz4, b"WARC/1.1").is_err());
    }

    #[test]
    fn zstd_frames_are_measured() {
        // A frame written by hand from RFC 8878: single segment, content
        // size in one byte, one raw block (last), then one RLE block
        // is not allowed after the last, so: a raw block of 3 bytes.
        let mut frame = ZSTD_MAGIC.to_vec();
        frame.push(0x20); // single segment, 1-byte content size, no checksum
        frame.push(3); // content size
        let header: u32 = 1 | (3 << 3); // last, raw, 3 bytes
        frame.extend_from_slice(&header.to_le_bytes()[..3]);
        frame.extend_from_slice(b"abc");
        let mut file = frame.clone();
        file.extend_from_slice(&ZSTD_MAGIC);
        assert_eq!(
            scan(scan_zstd, &file).unwrap(),
            Frame::Data(frame.len() as u64)
        );
        let decoded = {
            let mut out = Vec::new();
            ruzstd::decoding::StreamingDecoder::new(&frame[..])
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
            out
        };
        assert_eq!(decoded, b"abc");
        for cut in 0..frame.len() {
            assert!(scan(scan_zstd, &frame[..cut]).is_err(), "cut at {cut}");
        }
        let mut dictionary = ZSTD_DICTIONARY_MAGIC.to_vec();
        dictionary.extend_from_slice(&[1, 0, 0, 0, 7]);
        assert_eq!(
            scan(scan_zstd, &dictionary).unwrap(),
            Frame::Skippable(0xd, 1)
        );
    }
}
