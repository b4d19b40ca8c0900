//! The HTML Standard's "prescan a byte stream to determine its encoding"
//! (`prescan-a-byte-stream-to-determine-its-encoding`), with the algorithms it calls: "get an attribute", "extract a
//! character encoding from a meta element" and "get an XML encoding when
//! sniffing". Each function follows its algorithm's steps in order, so it
//! can be held against the standard's text.
//!
//! The prescan reads only the bytes it is given (the sniffer gives it the
//! first [`PRESCAN_LEN`](super::PRESCAN_LEN)). Running out of bytes
//! anywhere, even inside a `<meta>` that would have declared an encoding,
//! ends the scan without an answer, as the standard's end condition does;
//! only the XML declaration can then still give one.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

use super::{as_declared, is_utf16};

/// The encoding that a `<meta>` element (or, failing that, an XML
/// declaration at the very start) in `bytes` declares, as a browser's
/// prescan finds it; `None` if the bytes declare none before they run out.
///
/// A declared UTF-16 becomes UTF-8 (the bytes were readable as ASCII, so
/// they are not UTF-16) and `x-user-defined` becomes windows-1252, as the
/// standard says.
///
/// ```
/// use htmltok::encoding::prescan;
/// assert_eq!(prescan(b"<meta charset=shift_jis>"), Some(htmltok::encoding::SHIFT_JIS));
/// let pragma = br#"<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">"#;
/// assert_eq!(prescan(pragma), Some(htmltok::encoding::KOI8_R));
/// // A declaration inside a comment is not one.
/// assert_eq!(prescan(b"<!-- <meta charset=koi8-r> --><p>"), None);
/// ```
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    scan(bytes).or_else(|| xml_encoding(bytes))
}

/// Bytes that end a tag name and separate attributes.
fn is_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

/// The prescan's loop. `None` when the bytes ran out (the loop has no other
/// way to end without an answer).
fn scan(b: &[u8]) -> Option<&'static Encoding> {
    // Prescan for UTF-16 XML declarations (`<?x` in UTF-16).
    if b.starts_with(&[0x3C, 0, 0x3F, 0, 0x78, 0]) {
        return Some(UTF_16LE);
    }
    if b.starts_with(&[0, 0x3C, 0, 0x3F, 0, 0x78]) {
        return Some(UTF_16BE);
    }
    let mut pos = 0;
    while pos < b.len() {
        let rest = &b[pos..];
        if rest.starts_with(b"<!--") {
            // To the `>` of the first `-->` after the `<`; the dashes of
            // `<!--` count, so `<!-->` is a whole comment.
            pos += 2 + find(&rest[2..], b"-->")? + 2;
        } else if starts_with_meta(rest) {
            // Past `<meta` to the space or slash after it.
            pos += 5;
            if let Some(found) = meta(b, &mut pos)? {
                return Some(found);
            }
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // A start or end tag: skip its name and its attributes (a `>`
            // inside a quoted value does not end it).
            pos += rest.iter().position(|&c| is_space(c) || c == b'>')?;
            while attribute(b, &mut pos)?.is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            pos += 2 + memchr::memchr(b'>', &rest[2..])?;
        }
        // Next byte.
        pos += 1;
    }
    None
}

/// `<meta` in any case, then a space or a slash.
fn starts_with_meta(rest: &[u8]) -> bool {
    rest.len() >= 6
        && rest[..5].eq_ignore_ascii_case(b"<meta")
        && (is_space(rest[5]) || rest[5] == b'/')
}

/// The prescan's steps for one `<meta>` element, `pos` at the space or
/// slash after its name. `Some(None)` when the element declares nothing
/// usable (the scan goes on after it), `None` when the bytes ran out.
fn meta(b: &[u8], pos: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    // `None`: neither `charset` nor a usable `content` seen yet.
    let mut need_pragma: Option<bool> = None;
    // `Some(None)` is the standard's "failure": a `charset` that names no
    // encoding (it still decides `need_pragma`).
    let mut charset: Option<Option<&'static Encoding>> = None;
    while let Some((name, value)) = attribute(b, pos)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" => {
                if let Some(found) = encoding_from_content(&value) {
                    if charset.is_none() {
                        charset = Some(Some(found));
                        need_pragma = Some(true);
                    }
                }
            }
            b"charset" => {
                charset = Some(Encoding::for_label(&value));
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    // Processing.
    let found = match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        _ => charset.flatten(),
    };
    Some(found.map(as_declared))
}

/// An attribute's name and value, as the prescan reads them.
type Attribute = (Vec<u8>, Vec<u8>);

/// "Get an attribute": the next attribute's name and value, lower-cased
/// (ASCII letters only), with `pos` moved past it. `Some(None)` at the
/// `>` that ends the tag (which `pos` is left on), `None` when the bytes
/// ran out.
fn attribute(b: &[u8], pos: &mut usize) -> Option<Option<Attribute>> {
    // Spaces and slashes before the name.
    while is_space(*b.get(*pos)?) || b[*pos] == b'/' {
        *pos += 1;
    }
    if b[*pos] == b'>' {
        return Some(None);
    }
    let (mut name, mut value) = (Vec::new(), Vec::new());
    // The name. An `=` as its first byte is part of it.
    loop {
        let c = *b.get(*pos)?;
        match c {
            b'=' if !name.is_empty() => {
                *pos += 1;
                break;
            }
            _ if is_space(c) => {
                // Spaces, then an `=` or the end of this attribute.
                while is_space(*b.get(*pos)?) {
                    *pos += 1;
                }
                if b[*pos] != b'=' {
                    return Some(Some((name, value)));
                }
                *pos += 1;
                break;
            }
            b'/' | b'>' => return Some(Some((name, value))),
            _ => name.push(c.to_ascii_lowercase()),
        }
        *pos += 1;
    }
    // The value.
    while is_space(*b.get(*pos)?) {
        *pos += 1;
    }
    let c = b[*pos];
    match c {
        b'"' | b'\'' => loop {
            *pos += 1;
            let d = *b.get(*pos)?;
            if d == c {
                *pos += 1;
                return Some(Some((name, value)));
            }
            value.push(d.to_ascii_lowercase());
        },
        b'>' => return Some(Some((name, value))),
        _ => {
            value.push(c.to_ascii_lowercase());
            *pos += 1;
        }
    }
    loop {
        let c = *b.get(*pos)?;
        if is_space(c) || c == b'>' {
            return Some(Some((name, value)));
        }
        value.push(c.to_ascii_lowercase());
        *pos += 1;
    }
}

/// "Extract a character encoding from a meta element", given its `content`
/// attribute (already lower-cased by [`attribute`]).
pub(super) fn encoding_from_content(s: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        pos += find(&s[pos..], b"charset")? + 7;
        while s.get(pos).is_some_and(|&c| is_space(c)) {
            pos += 1;
        }
        if s.get(pos) != Some(&b'=') {
            // Look for the next "charset" from here.
            continue;
        }
        pos += 1;
        while s.get(pos).is_some_and(|&c| is_space(c)) {
            pos += 1;
        }
        let rest = &s[pos..];
        return match *rest.first()? {
            q @ (b'"' | b'\'') => {
                let end = memchr::memchr(q, &rest[1..])?;
                Encoding::for_label(&rest[1..1 + end])
            }
            _ => {
                let end = rest
                    .iter()
                    .position(|&c| is_space(c) || c == b';')
                    .unwrap_or(rest.len());
                Encoding::for_label(&rest[..end])
            }
        };
    }
}

/// "Get an XML encoding when sniffing": the `encoding` of an XML
/// declaration that starts the bytes, read as ASCII.
fn xml_encoding(b: &[u8]) -> Option<&'static Encoding> {
    if !b.starts_with(b"<?xml") {
        return None;
    }
    let end = memchr::memchr(b'>', b)?;
    let decl = &b[..end];
    let mut pos = find(decl, b"encoding")? + 8;
    while *decl.get(pos)? <= 0x20 {
        pos += 1;
    }
    if decl[pos] != b'=' {
        return None;
    }
    pos += 1;
    while *decl.get(pos)? <= 0x20 {
        pos += 1;
    }
    let quote = decl[pos];
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    pos += 1;
    let len = memchr::memchr(quote, &decl[pos..])?;
    let label = &decl[pos..pos + len];
    if label.iter().any(|&c| c <= 0x20) {
        return None;
    }
    let found = Encoding::for_label(label)?;
    Some(if is_utf16(found) { UTF_8 } else { found })
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{
        EUC_JP, GBK, ISO_8859_2, KOI8_R, SHIFT_JIS, WINDOWS_1251, WINDOWS_1252, WINDOWS_1256,
    };

    // Expected values follow from the standard's steps, worked by hand.
    #[test]
    fn meta_charset_in_its_forms() {
        for (page, want) in [
            (&b"<meta charset=windows-1256>"[..], Some(WINDOWS_1256)),
            (b"<META CHARSET='Shift_JIS'>", Some(SHIFT_JIS)),
            (b"<meta charset = \"euc-jp\" >", Some(EUC_JP)),
            (b"<meta/charset=gb2312>", Some(GBK)),
            // Labels are trimmed of whitespace by "get an encoding".
            (b"<meta charset=\" koi8-r \">", Some(KOI8_R)),
            // An unknown label declares nothing.
            (b"<meta charset=klingon>", None),
            // Needs a space or slash after `meta`.
            (b"<metacharset=koi8-r>", None),
            // Not a meta element's attribute: inside another tag's value.
            (b"<a title='<meta charset=koi8-r>'>", None),
            // The second of two `charset` attributes is ignored.
            (b"<meta charset=koi8-r charset=shift_jis>", Some(KOI8_R)),
            // The first element that declares one wins.
            (
                b"<meta charset=koi8-r><meta charset=shift_jis>",
                Some(KOI8_R),
            ),
            // A useless meta does not stop the scan.
            (b"<meta name=x><meta charset=iso-8859-2>", Some(ISO_8859_2)),
            // UTF-16 declared in ASCII bytes is UTF-8; x-user-defined is 1252.
            (b"<meta charset=utf-16le>", Some(UTF_8)),
            (b"<meta charset=x-user-defined>", Some(WINDOWS_1252)),
        ] {
            assert_eq!(prescan(page), want, "{}", String::from_utf8_lossy(page));
        }
    }

    #[test]
    fn pragma_needs_http_equiv() {
        let content = b"content='text/html; charset=windows-1251'";
        let with = [b"<meta http-equiv=content-type ".as_slice(), content, b">"].concat();
        assert_eq!(prescan(&with), Some(WINDOWS_1251));
        let after = [
            b"<meta ".as_slice(),
            content,
            b" http-equiv=\"Content-Type\">",
        ]
        .concat();
        assert_eq!(prescan(&after), Some(WINDOWS_1251));
        let without = [b"<meta ".as_slice(), content, b">"].concat();
        assert_eq!(prescan(&without), None);
        // A `charset` attribute needs no pragma and wins over `content`.
        let both = [b"<meta ".as_slice(), content, b" charset=koi8-r>"].concat();
        assert_eq!(prescan(&both), Some(KOI8_R));
    }

    #[test]
    fn content_attribute_forms() {
        for (content, want) in [
            (&b"text/html; charset=koi8-r"[..], Some(KOI8_R)),
            (b"text/html;charset = \"shift_jis\" ; x", Some(SHIFT_JIS)),
            // "charset" not followed by `=`: the search goes on.
            (b"charset; charset=euc-jp", Some(EUC_JP)),
            (b"text/html; charset='koi8-r", None),
            (b"text/html; charset=", None),
            (b"text/html", None),
        ] {
            assert_eq!(
                encoding_from_content(content),
                want,
                "{}",
                String::from_utf8_lossy(content)
            );
        }
    }

    #[test]
    fn markup_that_is_skipped() {
        for (page, want) in [
            (&b"<!-- x --><meta charset=koi8-r>"[..], Some(KOI8_R)),
            // `<!-->` ends at its own `>`.
            (b"<!--><meta charset=koi8-r>", Some(KOI8_R)),
            (
                b"<!-- <meta charset=shift_jis> --><meta charset=koi8-r>",
                Some(KOI8_R),
            ),
            (b"<!DOCTYPE html><meta charset=koi8-r>", Some(KOI8_R)),
            (b"<?php x ?><meta charset=koi8-r>", Some(KOI8_R)),
            (b"</x y='>'><meta charset=koi8-r>", Some(KOI8_R)),
            (b"<title>a</title><meta charset=koi8-r>", Some(KOI8_R)),
            // Text that looks like a declaration is just text.
            (b"charset=koi8-r <p>", None),
            // An unclosed comment runs to the end.
            (b"<!-- <meta charset=koi8-r>", None),
        ] {
            assert_eq!(prescan(page), want, "{}", String::from_utf8_lossy(page));
        }
    }

    #[test]
    fn running_out_of_bytes_ends_without_an_answer() {
        assert_eq!(prescan(b"<meta charset=koi8-r"), None);
        assert_eq!(prescan(b"<meta charset=koi8-r "), None);
        assert_eq!(prescan(b"<meta charset='koi8-r'"), None);
        assert_eq!(prescan(b"<meta charset=koi8-r>"), Some(KOI8_R));
    }

    #[test]
    fn xml_declarations() {
        assert_eq!(
            prescan(b"<?xml version='1.0' encoding='koi8-r'?><p>"),
            Some(KOI8_R)
        );
        assert_eq!(
            prescan(b"<?xml version=\"1.0\" encoding = \"utf-16\"?>"),
            Some(UTF_8)
        );
        // A meta element wins over the declaration.
        assert_eq!(
            prescan(b"<?xml version='1.0' encoding='koi8-r'?><meta charset=shift_jis>"),
            Some(SHIFT_JIS)
        );
        // Only at the very start, quoted, with no spaces in the label.
        assert_eq!(prescan(b" <?xml encoding='koi8-r'?>"), None);
        assert_eq!(prescan(b"<?xml encoding=koi8-r?>"), None);
        assert_eq!(prescan(b"<?xml encoding='koi8 r'?>"), None);
        // UTF-16 declarations are recognised by their bytes.
        assert_eq!(prescan(b"<\0?\0x\0m\0l\0"), Some(UTF_16LE));
        assert_eq!(prescan(b"\0<\0?\0x\0m\0l"), Some(UTF_16BE));
    }
}
