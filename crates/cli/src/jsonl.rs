//! JSON lines, written field by field: strings escaped as serde_json
//! escapes them, no intermediate values (a page's links are written as they are found).

use std::io::Write;

use htmltok_warc::http::ContentCoding;

/// One JSON object being written into `out`; `end` closes it with a newline.
pub(crate) struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Object<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Object { out, first: true }
    }

    fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        string(self.out, key);
        self.out.push(b':');
    }

    pub(crate) fn str(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        string(self.out, value);
        self
    }

    /// A string, or `null`.
    pub(crate) fn opt_str(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        match value {
            Some(value) => self.str(key, value),
            None => self.raw(key, "null"),
        }
    }

    pub(crate) fn num(&mut self, key: &str, value: u64) -> &mut Self {
        self.key(key);
        let _ = write!(self.out, "{value}");
        self
    }

    /// A number to one decimal (`null` if not finite, which JSON cannot
    /// write).
    pub(crate) fn float(&mut self, key: &str, value: f64) -> &mut Self {
        self.key(key);
        if value.is_finite() {
            let _ = write!(self.out, "{value:.1}");
        } else {
            self.out.extend_from_slice(b"null");
        }
        self
    }

    /// An object of counts, in the order given.
    pub(crate) fn counts<'k>(
        &mut self,
        key: &str,
        counts: impl IntoIterator<Item = (&'k str, u64)>,
    ) -> &mut Self {
        self.key(key);
        let mut inner = Object::new(self.out);
        for (k, n) in counts {
            inner.num(k, n);
        }
        inner.close();
        self
    }

    /// Already-written JSON.
    pub(crate) fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.out.extend_from_slice(json.as_bytes());
        self
    }

    /// Where an archived page came from (nothing for a page from a file):
    /// `"warc"` (the archive as given), the offset of its record (or of
    /// the gzip member or frame the record is in) under `offset_key`,
    /// `"record_id"`, `"status"` (the HTTP status), `"truncated"` (the
    /// page is not whole) and `"content_coding"` (`"applied"`, `"failed"`:
    /// the body is as stored, or `null`: none declared).
    pub(crate) fn provenance(&mut self, page: &crate::read::PageIn, offset_key: &str) -> &mut Self {
        if let Some(archived) = &page.archived {
            self.str("warc", &archived.archive)
                .num(offset_key, archived.offset)
                .opt_str("record_id", archived.record_id.as_deref());
            match archived.status {
                Some(status) => self.num("status", status.into()),
                None => self.raw("status", "null"),
            };
            self.raw(
                "truncated",
                if archived.truncated { "true" } else { "false" },
            )
            .opt_str(
                "content_coding",
                archived.content_coding.map(ContentCoding::as_str),
            );
        }
        self
    }

    fn close(&mut self) {
        self.out.push(b'}');
    }

    /// Closes the object and ends the line.
    pub(crate) fn end(&mut self) {
        self.close();
        self.out.push(b'\n');
    }
}

/// `value` as a JSON string, escaped as serde_json escapes it (`\"`,
/// `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other control characters as
/// `\u00xx`), so the output is the same byte for byte; but the runs
/// between escapes are found eight bytes at a time and copied whole.
/// serde_json looks at each byte in turn, which made it a tenth of
/// `htmltok text`'s own work over the corpus (a page's text is long and
/// escapes are rare in it).
fn string(out: &mut Vec<u8>, value: &str) {
    let bytes = value.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut copied = 0;
    let mut at = 0;
    while let Some(next) = next_escape(bytes, at) {
        out.extend_from_slice(&bytes[copied..next]);
        escape(out, bytes[next]);
        (copied, at) = (next + 1, next + 1);
    }
    out.extend_from_slice(&bytes[copied..]);
    out.push(b'"');
}

/// A word of one bit in each byte: the lowest, the highest.
const LOW: u64 = u64::from_le_bytes([1; 8]);
const HIGH: u64 = LOW * 0x80;

/// The high bit of each byte of `x` that is zero (exact: no carry crosses
/// a byte).
fn zero_bytes(x: u64) -> u64 {
    !(((x & !HIGH) + !HIGH) | x | !HIGH)
}

/// The high bit of each byte of `x` below 0x20 (exact, as above: the
/// bytes' low seven bits plus 0x60 carry into the high bit from 0x20 up).
fn control_bytes(x: u64) -> u64 {
    !(((x & !HIGH) + LOW * 0x60) | x) & HIGH
}

/// The first index from `at` of a byte JSON must escape.
fn next_escape(bytes: &[u8], mut at: usize) -> Option<usize> {
    while let Some(chunk) = bytes.get(at..at + 8) {
        let x = u64::from_le_bytes(chunk.try_into().ok()?);
        let hits = control_bytes(x)
            | zero_bytes(x ^ (LOW * u64::from(b'"')))
            | zero_bytes(x ^ (LOW * u64::from(b'\\')));
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    (at..bytes.len()).find(|&i| needs_escape(bytes[i]))
}

fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

fn escape(out: &mut Vec<u8>, b: u8) {
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        0x08 => b'b',
        0x0c => b'f',
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 15)]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The escape agrees with serde_json's on every byte value, alone and
    /// at every position in and around an eight-byte word.
    #[test]
    fn string_is_serde_json_byte_for_byte() {
        let mut cases: Vec<String> = Vec::new();
        for b in 0u8..0x80 {
            for at in 0..20 {
                let mut s = "abcdefghijklmnopqrst".to_owned();
                s.replace_range(at..at + 1, &char::from(b).to_string());
                cases.push(s.clone());
                cases.push(s[..at + 1].to_owned());
            }
        }
        cases.push("é\"€\u{1F600}\u{7f}\u{2028}\n\n\\".into());
        cases.push(String::new());
        for case in &cases {
            let mut ours = Vec::new();
            string(&mut ours, case);
            assert_eq!(ours, serde_json::to_vec(case).unwrap(), "{case:?}");
        }
    }
}
