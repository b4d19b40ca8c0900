//! Gzip: `.gz` pages and gzip-compressed standard input. (WARC archives
//! are decompressed by fastwarc's own reader, on zlib-rs too.)
//!
//! flate2 runs on the zlib-rs backend (features in Cargo.toml): TODO-MEASURE
//! against miniz_oxide.

use std::io::Read;

use flate2::read::MultiGzDecoder;

/// Whether `bytes` start like a gzip stream.
pub(crate) fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The decompressed content of the gzip stream `bytes` (all its members,
/// as `gzip -d` reads them); an error names what is wrong.
pub(crate) fn decompress(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4));
    match MultiGzDecoder::new(bytes).read_to_end(&mut out) {
        Ok(_) => Ok(out),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Err("truncated gzip stream".into())
        }
        Err(e) => Err(format!("broken gzip stream: {e}")),
    }
}
