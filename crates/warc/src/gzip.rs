//! Gzip members (RFC 1952), one at a time: the unit of a `.warc.gz` and an
//! `.arc.gz`, which real tools write one member per record.
//!
//! flate2's `GzDecoder` reads one member but hides where it ended in the
//! compressed file, and `MultiGzDecoder` hides the members altogether; the
//! reader needs both (a record's offset is its member's, and a broken
//! member is skipped to the next). So the header and trailer are read
//! here and only the deflate data goes through flate2's `Decompress`.

use std::io::{self, BufRead, Read};

use crate::source::Counted;

/// The flags of a gzip header.
const FHCRC: u8 = 2;
const FEXTRA: u8 = 4;
const FNAME: u8 = 8;
const FCOMMENT: u8 = 16;
/// Flags the format reserves: a header with one set is not gzip.
const RESERVED: u8 = 0xe0;

/// Whether `bytes` start like a gzip member.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// One member being inflated.
pub(crate) struct Member {
    inflate: flate2::Decompress,
    /// crc32fast, not flate2's `Crc`: over the zlib-rs backend that one
    /// computes the checksum a byte-table at a time, where crc32fast
    /// folds with the CPU's carry-less multiply.
    crc: crc32fast::Hasher,
    /// Inflated bytes so far, modulo 2^32 (the trailer's ISIZE).
    size: u32,
    done: bool,
}

impl Member {
    pub(crate) fn new() -> Member {
        Member {
            inflate: flate2::Decompress::new(false),
            crc: crc32fast::Hasher::new(),
            size: 0,
            done: true,
        }
    }

    /// Reads the header of the member that starts `input`, and gets ready
    /// to inflate it.
    pub(crate) fn begin<R: BufRead>(&mut self, input: &mut Counted<R>) -> io::Result<()> {
        read_header(input)?;
        self.inflate.reset(false);
        self.crc = crc32fast::Hasher::new();
        self.size = 0;
        self.done = false;
        Ok(())
    }

    /// Inflates into `out`'s spare room (at least one byte of it); 0 when
    /// the member has ended (its trailer checked).
    pub(crate) fn read<R: BufRead>(
        &mut self,
        input: &mut Counted<R>,
        out: &mut Vec<u8>,
    ) -> io::Result<usize> {
        if self.done {
            return Ok(0);
        }
        if out.capacity() == out.len() {
            out.reserve(64 << 10);
        }
        let before = out.len();
        loop {
            let data = input.fill_buf()?;
            if data.is_empty() {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let in_before = self.inflate.total_in();
            let status = self
                .inflate
                .decompress_vec(data, out, flate2::FlushDecompress::None)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            let used = usize::try_from(self.inflate.total_in() - in_before).unwrap_or(usize::MAX);
            input.consume(used);
            let new = &out[before..];
            if status == flate2::Status::StreamEnd {
                self.crc.update(new);
                self.size = self.size.wrapping_add(new.len() as u32);
                self.finish(input)?;
                return Ok(out.len() - before);
            }
            if !new.is_empty() {
                self.crc.update(new);
                self.size = self.size.wrapping_add(new.len() as u32);
                return Ok(new.len());
            }
            if used == 0 {
                // Room and input, and no progress: zlib's "buffer error",
                // which a well-formed stream never gives here.
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "corrupt deflate stream",
                ));
            }
        }
    }

    /// Reads and checks the trailer.
    fn finish<R: BufRead>(&mut self, input: &mut Counted<R>) -> io::Result<()> {
        self.done = true;
        let mut trailer = [0; 8];
        input.read_exact(&mut trailer)?;
        let (crc, isize) = trailer.split_at(4);
        if crc != self.crc.clone().finalize().to_le_bytes() || isize != self.size.to_le_bytes() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "corrupt gzip member: its checksum or length does not match",
            ));
        }
        Ok(())
    }

    /// Inflates the whole member that starts `input` onto `out`; fails
    /// once `out` would grow past `limit` bytes.
    pub(crate) fn inflate_whole<R: BufRead>(
        &mut self,
        input: &mut Counted<R>,
        out: &mut Vec<u8>,
        limit: usize,
    ) -> io::Result<()> {
        self.begin(input)?;
        while self.read(input, out)? > 0 {
            if out.len() > limit {
                return Err(io::Error::other("gzip member too large to read alone"));
            }
        }
        Ok(())
    }
}

/// Reads past a gzip member's header.
fn read_header<R: BufRead>(input: &mut Counted<R>) -> io::Result<()> {
    let mut fixed = [0; 10];
    input.read_exact(&mut fixed)?;
    if fixed[..3] != [0x1f, 0x8b, 8] || fixed[3] & RESERVED != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "invalid gzip header",
        ));
    }
    let flags = fixed[3];
    if flags & FEXTRA != 0 {
        let mut len = [0; 2];
        input.read_exact(&mut len)?;
        input.skip(u16::from_le_bytes(len).into())?;
    }
    if flags & FNAME != 0 {
        skip_past_nul(input)?;
    }
    if flags & FCOMMENT != 0 {
        skip_past_nul(input)?;
    }
    if flags & FHCRC != 0 {
        input.skip(2)?;
    }
    Ok(())
}

/// Skips a zero-terminated field (a name, a comment), however long,
/// without keeping it.
fn skip_past_nul<R: BufRead>(input: &mut Counted<R>) -> io::Result<()> {
    loop {
        let data = input.fill_buf()?;
        if data.is_empty() {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        match memchr::memchr(0, data) {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = data.len();
                input.consume(n);
            }
        }
    }
}

/// The first `n` inflated bytes of the gzip member that starts `bytes`
/// (fewer if it inflates to fewer), if it starts like a member and
/// inflates that far without an error.
pub(crate) fn member_head(bytes: &[u8], n: usize) -> Option<Vec<u8>> {
    if bytes.len() < 10 || bytes[..3] != [0x1f, 0x8b, 8] || bytes[3] & RESERVED != 0 {
        return None;
    }
    let mut head = Vec::with_capacity(n);
    let mut decoder = flate2::read::GzDecoder::new(bytes).take(n as u64);
    match decoder.read_to_end(&mut head) {
        Ok(_) => Some(head),
        // The window given ended before the member did.
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof && !head.is_empty() => Some(head),
        Err(_) => None,
    }
}

/// The inflated content of the gzip stream `bytes` (all its members, as
/// `gzip -d` reads them, zero bytes after the last one ignored as padding),
/// at most `limit` bytes; else what is wrong, with what inflated before.
///
/// ```
/// let mut file = Vec::new();
/// let mut gz = flate2::write::GzEncoder::new(&mut file, flate2::Compression::default());
/// std::io::Write::write_all(&mut gz, b"<p>hello").unwrap();
/// gz.finish().unwrap();
/// file.resize(file.len() + 100, 0); // padded to a block, as tar leaves it
/// assert_eq!(htmltok_warc::gunzip(&file, 1 << 20).unwrap(), b"<p>hello");
/// let cut = htmltok_warc::gunzip(&file[..10], 1 << 20).unwrap_err();
/// assert_eq!((cut.what.as_str(), cut.truncated), ("truncated gzip stream", true));
/// ```
pub fn decompress(bytes: &[u8], limit: usize) -> Result<Vec<u8>, GunzipError> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4).min(limit));
    let mut rest = bytes;
    // One member at a time (`bufread` reads no byte past a member's end),
    // so that what follows the last one can be looked at.
    loop {
        let room = u64::try_from(limit - out.len()).unwrap_or(u64::MAX);
        let mut member = flate2::bufread::GzDecoder::new(rest).take(room);
        // A failed read leaves what it inflated before in `out`.
        if let Err(e) = member.read_to_end(&mut out) {
            let truncated = e.kind() == io::ErrorKind::UnexpectedEof;
            return Err(GunzipError {
                what: if truncated {
                    "truncated gzip stream".into()
                } else {
                    format!("broken gzip stream: {e}")
                },
                truncated,
                inflated: out,
            });
        }
        if out.len() == limit {
            return Ok(out);
        }
        rest = member.into_inner().into_inner();
        if rest.iter().all(|&b| b == 0) {
            return Ok(out);
        }
    }
}

/// A gzip stream that [`gunzip`](crate::gunzip) could not read whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GunzipError {
    /// What is wrong: `"truncated gzip stream"`, or
    /// `"broken gzip stream: "` and the cause.
    pub what: String,
    /// The stream ends inside a member (a file cut short), as opposed to
    /// bytes that are not gzip.
    pub truncated: bool,
    /// What inflated before the error: the start of a cut page.
    pub inflated: Vec<u8>,
}

impl std::fmt::Display for GunzipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for GunzipError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    fn members(file: &[u8]) -> Vec<Result<Vec<u8>, String>> {
        let mut input = Counted::new(file, 0);
        let mut member = Member::new();
        let mut out = Vec::new();
        while !input.fill_buf().unwrap().is_empty() {
            let mut bytes = Vec::new();
            match member.inflate_whole(&mut input, &mut bytes, 1 << 20) {
                Ok(()) => out.push(Ok(bytes)),
                Err(e) => {
                    out.push(Err(e.to_string()));
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn members_are_read_one_by_one() {
        let mut file = gzip(b"first");
        let second_at = file.len();
        file.extend(gzip(b"second member"));
        assert_eq!(
            members(&file),
            [Ok(b"first".to_vec()), Ok(b"second member".to_vec())]
        );
        // The position after the first member is the second's start.
        let mut input = Counted::new(&file[..], 0);
        Member::new()
            .inflate_whole(&mut input, &mut Vec::new(), 100)
            .unwrap();
        assert_eq!(input.pos(), second_at as u64);
    }

    #[test]
    fn damage_is_an_error() {
        let good = gzip(b"some text that is long enough to matter here");
        // A cut anywhere after the header.
        for cut in 10..good.len() {
            let got = members(&good[..cut]);
            assert!(got[0].is_err(), "cut at {cut}: {got:?}");
        }
        // A wrong checksum.
        let mut bad = good.clone();
        let n = bad.len();
        bad[n - 8] ^= 1;
        assert!(members(&bad)[0].as_ref().unwrap_err().contains("checksum"));
        // Not gzip.
        assert!(members(b"WARC/1.0\r\n")[0].is_err());
    }

    #[test]
    fn header_fields_are_skipped() {
        // FEXTRA, FNAME, FCOMMENT and FHCRC, by hand.
        let plain = gzip(b"x");
        let mut file = vec![
            0x1f,
            0x8b,
            8,
            FEXTRA | FNAME | FCOMMENT | FHCRC,
            0,
            0,
            0,
            0,
            0,
            3,
        ];
        file.extend([2, 0, b'a', b'b']);
        file.extend(b"name\0comment\0");
        file.extend([0, 0]);
        file.extend(&plain[10..]);
        assert_eq!(members(&file), [Ok(b"x".to_vec())]);
    }

    #[test]
    fn starts_with_and_limit() {
        let member = gzip(b"WARC/1.1\r\n");
        assert_eq!(member_head(&member, 5).unwrap(), b"WARC/");
        assert_eq!(member_head(&member, 50).unwrap(), b"WARC/1.1\r\n");
        assert_eq!(member_head(&member[..9], 5), None);
        assert_eq!(member_head(b"WARC/1.1\r\n", 5), None);
        assert_eq!(decompress(&member, 4).unwrap(), b"WARC");
        assert!(decompress(&member[..member.len() - 3], 100).is_err());
    }

    /// A `.gz` file padded with zeros to a block's end: `gzip -d` reads
    /// it whole, and so does `decompress`. A trailer's own zeros (a size
    /// under 16 MiB ends in one) are not padding.
    #[test]
    fn zeros_after_the_last_member_are_padding() {
        let mut file = gzip(b"<title>first</title>");
        file.extend(gzip(b"<p>second"));
        assert_eq!(file.last(), Some(&0), "the trailer's size ends in a zero");
        for pad in [0, 1, 7, 512, 70_000] {
            let mut padded = file.clone();
            padded.resize(file.len() + pad, 0);
            assert_eq!(
                decompress(&padded, 1000).as_deref(),
                Ok(&b"<title>first</title><p>second"[..]),
                "{pad} zeros"
            );
        }
        // Other bytes after the zeros are no padding.
        let mut junk = file.clone();
        junk.extend([0, 0, 0, b'x']);
        assert!(decompress(&junk, 1000).is_err());
        // Nor is a file of zeros a stream.
        assert!(decompress(&[0; 20], 1000).is_err());
        // The limit still cuts.
        assert_eq!(decompress(&file, 5).unwrap(), b"<titl");
    }
}
