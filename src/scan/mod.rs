//! Landmark scanning: finding the next byte that a run state must look at.
//!
//! Each run state of the tokenizer (Data, RCDATA, attribute values, comments,
//! tag names, …) has a *landmark set*: the bytes at which the state's scalar
//! rules do something other than "append this character". Everything before
//! the first landmark is one run, handled as a single slice. The sets live
//! here, in one place, so that a state's landmarks sit beside each other and
//! can be held against its rules in `tokenizer::machine`.
//!
//! Every set contains `\r` (newline normalisation) and, where the state
//! treats NUL specially, `\0`. A set of up to three bytes is searched with
//! `memchr`; larger sets with a 256-entry table.
//!
//! Invariant relied on by the tokenizer: every landmark is an ASCII byte, so
//! a run never ends inside a UTF-8 sequence.

/// A set of landmark bytes.
pub(crate) struct Landmarks {
    table: [bool; 256],
    /// The bytes themselves, when there are at most three (searched with memchr).
    small: [u8; 3],
    small_len: u8,
}

impl Landmarks {
    const fn new(bytes: &[u8], upper_case_letters: bool) -> Landmarks {
        let mut table = [false; 256];
        let mut small = [0u8; 3];
        let mut i = 0;
        while i < bytes.len() {
            assert!(bytes[i] < 0x80, "landmarks are ASCII");
            table[bytes[i] as usize] = true;
            if i < 3 {
                small[i] = bytes[i];
            }
            i += 1;
        }
        if upper_case_letters {
            let mut c = b'A';
            while c <= b'Z' {
                table[c as usize] = true;
                c += 1;
            }
        }
        let small_len = if bytes.len() <= 3 && !upper_case_letters {
            bytes.len() as u8
        } else {
            0
        };
        Landmarks {
            table,
            small,
            small_len,
        }
    }

    /// Whether `b` is a landmark of this set: the scalar definition that
    /// [`find`](Self::find) is tested against.
    #[cfg(test)]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.table[b as usize]
    }

    /// [`find`](Self::find) by the plain definition: a table lookup per
    /// byte. What `Config::simd(false)` uses.
    #[inline]
    pub(crate) fn find_scalar(&self, hay: &[u8]) -> usize {
        hay.iter()
            .position(|&b| self.table[b as usize])
            .unwrap_or(hay.len())
    }

    /// Offset of the first landmark in `hay`, or `hay.len()` when there is none.
    #[inline]
    pub(crate) fn find(&self, hay: &[u8]) -> usize {
        let found = match self.small_len {
            1 => memchr::memchr(self.small[0], hay),
            2 => memchr::memchr2(self.small[0], self.small[1], hay),
            3 => memchr::memchr3(self.small[0], self.small[1], self.small[2], hay),
            _ => hay.iter().position(|&b| self.table[b as usize]),
        };
        found.unwrap_or(hay.len())
    }
}

/// Data state with parse errors off: NUL is emitted as it is, so only
/// `<`, `&` and CR stop the run.
pub(crate) static DATA: Landmarks = Landmarks::new(b"<&\r", false);
/// Data state with parse errors on: NUL is also a landmark (it raises
/// `unexpected-null-character`).
pub(crate) static DATA_WITH_NUL: Landmarks = Landmarks::new(b"<&\r\0", false);
/// RCDATA state (NUL becomes U+FFFD).
pub(crate) static RCDATA: Landmarks = Landmarks::new(b"<&\r\0", false);
/// RAWTEXT and Script data states.
pub(crate) static RAWTEXT: Landmarks = Landmarks::new(b"<\r\0", false);
/// PLAINTEXT state.
pub(crate) static PLAINTEXT: Landmarks = Landmarks::new(b"\r\0", false);
/// Script data escaped and double escaped states.
pub(crate) static SCRIPT_ESCAPED: Landmarks = Landmarks::new(b"-<\r\0", false);
/// Tag name state: whitespace, `/`, `>`, NUL, CR, and A–Z (lower-cased).
pub(crate) static TAG_NAME: Landmarks = Landmarks::new(b"\t\n\x0c />\r\0", true);
/// Attribute name state: as tag names, plus `=` and the characters that are
/// errors in a name (`"`, `'`, `<`).
pub(crate) static ATTR_NAME: Landmarks = Landmarks::new(b"\t\n\x0c />=\"'<\r\0", true);
/// Attribute value (double-quoted) state.
pub(crate) static ATTR_VALUE_DOUBLE: Landmarks = Landmarks::new(b"\"&\r\0", false);
/// Attribute value (single-quoted) state.
pub(crate) static ATTR_VALUE_SINGLE: Landmarks = Landmarks::new(b"'&\r\0", false);
/// Attribute value (unquoted) state.
pub(crate) static ATTR_VALUE_UNQUOTED: Landmarks = Landmarks::new(b"\t\n\x0c &>\"'<=`\r\0", false);
/// Comment state.
pub(crate) static COMMENT: Landmarks = Landmarks::new(b"-<\r\0", false);
/// Bogus comment state.
pub(crate) static BOGUS_COMMENT: Landmarks = Landmarks::new(b">\r\0", false);
/// DOCTYPE name state.
pub(crate) static DOCTYPE_NAME: Landmarks = Landmarks::new(b"\t\n\x0c >\r\0", true);
/// DOCTYPE public/system identifier (double-quoted) states.
pub(crate) static DOCTYPE_ID_DOUBLE: Landmarks = Landmarks::new(b"\">\r\0", false);
/// DOCTYPE public/system identifier (single-quoted) states.
pub(crate) static DOCTYPE_ID_SINGLE: Landmarks = Landmarks::new(b"'>\r\0", false);
/// Bogus DOCTYPE state.
pub(crate) static BOGUS_DOCTYPE: Landmarks = Landmarks::new(b">\r\0", false);
/// CDATA section state.
pub(crate) static CDATA: Landmarks = Landmarks::new(b"]\r", false);
/// Processing instruction data state.
pub(crate) static PI_DATA: Landmarks = Landmarks::new(b"?>\r", false);

/// Every landmark set, named, for tests and the fuzz targets.
pub(crate) fn all_sets() -> [(&'static str, &'static Landmarks); 19] {
    [
        ("DATA", &DATA),
        ("DATA_WITH_NUL", &DATA_WITH_NUL),
        ("RCDATA", &RCDATA),
        ("RAWTEXT", &RAWTEXT),
        ("PLAINTEXT", &PLAINTEXT),
        ("SCRIPT_ESCAPED", &SCRIPT_ESCAPED),
        ("TAG_NAME", &TAG_NAME),
        ("ATTR_NAME", &ATTR_NAME),
        ("ATTR_VALUE_DOUBLE", &ATTR_VALUE_DOUBLE),
        ("ATTR_VALUE_SINGLE", &ATTR_VALUE_SINGLE),
        ("ATTR_VALUE_UNQUOTED", &ATTR_VALUE_UNQUOTED),
        ("COMMENT", &COMMENT),
        ("BOGUS_COMMENT", &BOGUS_COMMENT),
        ("DOCTYPE_NAME", &DOCTYPE_NAME),
        ("DOCTYPE_ID_DOUBLE", &DOCTYPE_ID_DOUBLE),
        ("DOCTYPE_ID_SINGLE", &DOCTYPE_ID_SINGLE),
        ("BOGUS_DOCTYPE", &BOGUS_DOCTYPE),
        ("CDATA", &CDATA),
        ("PI_DATA", &PI_DATA),
    ]
}

/// Checks every set's fast scan against the scalar definition at every
/// start offset of `hay`.
pub(crate) fn kernels_agree(hay: &[u8]) -> Result<(), String> {
    for (name, set) in all_sets() {
        for start in 0..=hay.len() {
            let h = &hay[start..];
            let want = h
                .iter()
                .position(|&b| set.table[b as usize])
                .unwrap_or(h.len());
            let got = set.find(h);
            if got != want {
                return Err(format!(
                    "{name}: from offset {start}, find gave {got}, scalar {want}"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_sets() -> Vec<&'static Landmarks> {
        vec![
            &DATA,
            &DATA_WITH_NUL,
            &RCDATA,
            &RAWTEXT,
            &PLAINTEXT,
            &SCRIPT_ESCAPED,
            &TAG_NAME,
            &ATTR_NAME,
            &ATTR_VALUE_DOUBLE,
            &ATTR_VALUE_SINGLE,
            &ATTR_VALUE_UNQUOTED,
            &COMMENT,
            &BOGUS_COMMENT,
            &DOCTYPE_NAME,
            &DOCTYPE_ID_DOUBLE,
            &DOCTYPE_ID_SINGLE,
            &BOGUS_DOCTYPE,
            &CDATA,
            &PI_DATA,
        ]
    }

    #[test]
    fn find_equals_the_scalar_definition_at_every_position() {
        let hay: Vec<u8> = (0..=255u8)
            .chain((0..=255u8).rev())
            .chain(b"abc<&\r".iter().copied())
            .collect();
        for set in all_sets() {
            for start in 0..hay.len() {
                let h = &hay[start..];
                let want = h.iter().position(|&b| set.contains(b)).unwrap_or(h.len());
                assert_eq!(set.find(h), want);
            }
        }
    }

    #[test]
    fn every_set_stops_at_carriage_return_and_only_at_ascii() {
        for set in all_sets() {
            assert!(set.contains(b'\r'));
            assert!((0x80..=0xFF).all(|b| !set.contains(b)));
        }
    }
}
