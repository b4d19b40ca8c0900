//! Appending a run of ASCII to a string while checking it: a stream's
//! window takes every chunk's bytes, and checking them (for UTF-8) and
//! then copying them read each byte twice; ASCII, most of a page's bytes,
//! is copied here in the pass that finds where it ends.
//!
//! The plain definition is safe code; the AVX2 kernel in `x86`, chosen at
//! run time, writes the window's spare capacity directly and is tested
//! against it.

/// Appends the run of ASCII bytes that `data` starts with to `out`, and
/// returns its length.
pub(crate) fn push_ascii(out: &mut String, data: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(n) = super::x86::push_ascii(out, data) {
        return n;
    }
    push_ascii_scalar(out, data)
}

/// [`push_ascii`] by its definition.
fn push_ascii_scalar(out: &mut String, data: &[u8]) -> usize {
    let n = data.iter().take_while(|b| b.is_ascii()).count();
    out.push_str(std::str::from_utf8(&data[..n]).unwrap_or_default());
    n
}

#[cfg(test)]
mod tests {
    use super::{push_ascii, push_ascii_scalar};

    #[test]
    fn the_kernel_appends_what_the_definition_appends() {
        // Runs ending at every offset of a few blocks, after text already
        // in the string, with the high byte first, inside and last.
        let ascii = b"<p class=\"x\">Hello, world</p>\r\n".repeat(8);
        for end in 0..=ascii.len() {
            for high in [0x80u8, 0xC3, 0xFF] {
                let mut data = ascii.clone();
                if let Some(b) = data.get_mut(end) {
                    *b = high;
                }
                let (mut fast, mut plain) = (String::from("é"), String::from("é"));
                let n = push_ascii(&mut fast, &data);
                assert_eq!(n, push_ascii_scalar(&mut plain, &data), "end {end}");
                assert_eq!(n, end, "end {end}");
                assert_eq!(fast, plain, "end {end}");
            }
        }
        let mut out = String::new();
        assert_eq!(push_ascii(&mut out, b""), 0);
        assert_eq!(out, "");
    }
}
