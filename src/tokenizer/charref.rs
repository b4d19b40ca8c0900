//! Character references: the standard's "numeric character reference end
//! state" checks and its replacement table, and [`decode`], which takes a
//! whole reference at once the way the character reference states would
//! step through it.

use crate::entities;
use crate::error::ErrorCode;

/// The standard's table for numeric references to C1 control code points:
/// what windows-1252 puts at those bytes. Index is `code - 0x80`; zero means
/// "not in the table" (the code point is kept).
const C1_REPLACEMENTS: [u32; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, //
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0, //
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, //
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

/// Largest value the digit accumulators keep: anything above U+10FFFF is
/// out of range, so accumulation saturates here and long digit runs cannot
/// overflow.
pub(crate) const SATURATED: u32 = 0x11_0000;

/// Adds one digit to a reference's code, saturating at [`SATURATED`].
pub(crate) fn push_digit(code: u32, radix: u32, digit: u32) -> u32 {
    code.saturating_mul(radix)
        .saturating_add(digit)
        .min(SATURATED)
}

/// Whether `c` is a Unicode noncharacter (U+FDD0..U+FDEF, or the last two
/// code points of any plane).
pub(crate) fn is_noncharacter(c: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&c) || (c & 0xFFFE == 0xFFFE && c <= 0x10FFFF)
}

/// Resolves the code of a numeric reference as the numeric character
/// reference end state does: the character to emit, and the parse error the
/// standard raises for it, if any.
///
/// ```text
/// 0            -> U+FFFD, null-character-reference
/// > 0x10FFFF   -> U+FFFD, character-reference-outside-unicode-range
/// surrogate    -> U+FFFD, surrogate-character-reference
/// noncharacter -> kept,   noncharacter-character-reference
/// 0x0D, C0/C1 controls other than whitespace
///              -> kept (C1 remapped by the table), control-character-reference
/// ```
pub(crate) fn resolve_numeric(code: u32) -> (char, Option<ErrorCode>) {
    if code == 0 {
        return ('\u{FFFD}', Some(ErrorCode::NullCharacterReference));
    }
    if code > 0x10FFFF {
        return (
            '\u{FFFD}',
            Some(ErrorCode::CharacterReferenceOutsideUnicodeRange),
        );
    }
    if (0xD800..=0xDFFF).contains(&code) {
        return ('\u{FFFD}', Some(ErrorCode::SurrogateCharacterReference));
    }
    if is_noncharacter(code) {
        let c = char::from_u32(code).unwrap_or('\u{FFFD}');
        return (c, Some(ErrorCode::NoncharacterCharacterReference));
    }
    let is_control = code < 0x20 || (0x7F..=0x9F).contains(&code);
    let is_whitespace = matches!(code, 0x09 | 0x0A | 0x0C | 0x20);
    if code == 0x0D || (is_control && !is_whitespace) {
        let mut out = code;
        if (0x80..=0x9F).contains(&code) {
            let r = C1_REPLACEMENTS[(code - 0x80) as usize];
            if r != 0 {
                out = r;
            }
        }
        let c = char::from_u32(out).unwrap_or('\u{FFFD}');
        return (c, Some(ErrorCode::ControlCharacterReference));
    }
    (char::from_u32(code).unwrap_or('\u{FFFD}'), None)
}

/// What the character reference states make of an `&` and the bytes after
/// it (see [`decode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decoded {
    /// The bytes end before the reference can be decided, and more input
    /// may follow.
    NeedMore,
    /// The first `len` bytes (from the `&`) are flushed as they are; the
    /// state after them is the return state.
    Literal(usize),
    /// The first `len` bytes stand for the characters `value`.
    Chars { len: usize, value: Value },
}

/// The characters a reference stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// A named reference's (one or two code points).
    Named(&'static str),
    /// A numeric reference's.
    Code(char),
}

impl Value {
    /// The characters as text (`buf` holds a numeric reference's).
    pub(crate) fn as_str<'a>(&self, buf: &'a mut [u8; 4]) -> &'a str {
        match *self {
            Value::Named(text) => text,
            Value::Code(c) => c.encode_utf8(buf),
        }
    }
}

/// The parse errors one reference raises (at most two: a missing semicolon
/// and a bad code point), each with its offset from the `&`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RefErrors {
    list: [Option<(ErrorCode, usize)>; 2],
}

impl RefErrors {
    fn push(&mut self, code: ErrorCode, offset: usize) {
        let slot = if self.list[0].is_none() { 0 } else { 1 };
        self.list[slot] = Some((code, offset));
    }

    /// The errors, in the order the standard raises them.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ErrorCode, usize)> + '_ {
        self.list.iter().flatten().copied()
    }
}

/// Decodes the character reference that starts at `bytes[0]` (an `&`), as
/// the character reference state and the states after it would, ending in
/// the return state: one call instead of a step per byte.
///
/// `eof`: the input ends with `bytes`. `in_attribute`: the return state is
/// an attribute value state (where `&amp=` and `&ampx` stay as written).
/// The errors the states would raise are added to `errors`. Positions are
/// offsets from the `&`:
///
/// - a named reference: the missing semicolon at the byte after the name;
///   no match at all: the `&`, then the alphanumerics as they are, and
///   `unknown-named-character-reference` at a `;` right after them;
/// - a numeric one: no digits at the byte after `&#` (`&#x`); a missing
///   semicolon at the first byte that is no digit; the code point's error
///   (see [`resolve_numeric`]) at the byte after the reference.
pub(crate) fn decode(
    bytes: &[u8],
    eof: bool,
    in_attribute: bool,
    errors: &mut RefErrors,
) -> Decoded {
    debug_assert_eq!(bytes.first(), Some(&b'&'));
    if let Some((len, value)) = common(bytes) {
        return named_chars(len, value);
    }
    decode_uncommon(bytes, eof, in_attribute, errors)
}

/// [`decode`] for a reference that [`common`] has already found is none
/// of those it tells (a caller that tests them first itself).
pub(crate) fn decode_uncommon(
    bytes: &[u8],
    eof: bool,
    in_attribute: bool,
    errors: &mut RefErrors,
) -> Decoded {
    match bytes.get(1) {
        Some(b) if b.is_ascii_alphanumeric() => named(bytes, eof, in_attribute, errors),
        Some(b'#') => numeric(bytes, eof, errors),
        Some(_) => Decoded::Literal(1),
        None if eof => Decoded::Literal(1),
        None => Decoded::NeedMore,
    }
}

/// The commonest references of real pages (`&quot;` and `&amp;` in
/// attribute values above all, then `&#39;`, `&gt;`, `&lt;` and
/// `&nbsp;`), by one comparison
/// of their bytes (from the `&`): whole, with their `;`, no error; their
/// length and value. The general path takes the name's run, a table match
/// and a result built through `match_named`, many instructions more.
#[inline(always)]
pub(crate) fn common(bytes: &[u8]) -> Option<(usize, &'static str)> {
    match bytes.first_chunk::<4>() {
        Some(b"&lt;") => Some((4, "<")),
        Some(b"&gt;") => Some((4, ">")),
        Some(b"&amp") if bytes.get(4) == Some(&b';') => Some((5, "&")),
        Some(b"&quo") if bytes.get(4..6) == Some(b"t;") => Some((6, "\"")),
        // The apostrophe by its number (what escapers write for `'`),
        // which no numeric reference's check rejects.
        Some(b"&#39") if bytes.get(4) == Some(&b';') => Some((5, "'")),
        Some(b"&nbs") if bytes.get(4..6) == Some(b"p;") => Some((6, "\u{a0}")),
        _ => None,
    }
}

/// A named reference of `len` bytes (from the `&`) standing for `value`.
#[inline(always)]
fn named_chars(len: usize, value: &'static str) -> Decoded {
    Decoded::Chars {
        len,
        value: Value::Named(value),
    }
}

/// A named reference's name against the table (see [`match_named`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Named {
    /// The bytes end before the longest match is known, and more input may
    /// follow.
    NeedMore,
    /// No name of the table starts here: the `ambiguous-ampersand-state`
    /// follows.
    NoMatch,
    /// The longest name that matches, `len` bytes (its `;` included when it
    /// has one), standing for `value`. Without a `;` that is
    /// `missing-semicolon-after-character-reference`, except where the
    /// reference is `literal`: in an attribute value before `=` or an
    /// alphanumeric, it stays as written (for historical reasons) without
    /// an error.
    Match {
        len: usize,
        value: &'static str,
        missing_semicolon: bool,
        literal: bool,
    },
}

/// The standard's `named-character-reference-state`: the longest name of
/// the table that `after` (the bytes after an `&` followed by an ASCII
/// alphanumeric) starts with. Written once, for [`decode`] (the fast
/// paths) and for the machine's state of that name. `eof`: the input ends
/// with `after`; `in_attribute`: the return state is an attribute value
/// state.
#[inline(always)]
pub(crate) fn match_named(after: &[u8], eof: bool, in_attribute: bool) -> Named {
    let window = &after[..after.len().min(entities::LONGEST_NAME + 1)];
    let run = window
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if run == window.len() && run < entities::LONGEST_NAME && !eof {
        // The name could go on past the end of the bytes.
        return Named::NeedMore;
    }
    if window.get(run) == Some(&b';') {
        if let Some(value) = entities::common_with_semicolon(&window[..run]) {
            return Named::Match {
                len: run + 1,
                value,
                missing_semicolon: false,
                literal: false,
            };
        }
    }
    // Without a `;` after the run, only a name of the legacy table (no
    // `;`) can match, as a prefix of the run.
    let can_match = window.get(run) == Some(&b';') || entities::may_start_legacy(&window[..run]);
    let Some(m) = can_match.then(|| entities::longest_match(window)).flatten() else {
        return Named::NoMatch;
    };
    let missing_semicolon = after[m.len - 1] != b';';
    // Without its `;`, the match is a proper prefix of the alphanumeric
    // run, so `after[m.len]` exists unless the input ends there.
    let literal = missing_semicolon
        && in_attribute
        && after
            .get(m.len)
            .is_some_and(|&b| b == b'=' || b.is_ascii_alphanumeric());
    Named::Match {
        len: m.len,
        value: m.value,
        missing_semicolon,
        literal,
    }
}

/// The standard's `named-character-reference-state` (and
/// `ambiguous-ampersand-state` when no name matches), from the `&` at
/// `bytes[0]`.
fn named(bytes: &[u8], eof: bool, in_attribute: bool, errors: &mut RefErrors) -> Decoded {
    let after = &bytes[1..];
    match match_named(after, eof, in_attribute) {
        Named::NeedMore => Decoded::NeedMore,
        Named::NoMatch => {
            // Ambiguous ampersand: the alphanumerics are flushed as they are.
            let run = after
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            match after.get(run) {
                None if !eof => Decoded::NeedMore,
                Some(b';') => {
                    errors.push(ErrorCode::UnknownNamedCharacterReference, 1 + run);
                    Decoded::Literal(1 + run)
                }
                _ => Decoded::Literal(1 + run),
            }
        }
        Named::Match {
            len, literal: true, ..
        } => Decoded::Literal(1 + len),
        Named::Match {
            len,
            value,
            missing_semicolon,
            ..
        } => {
            if missing_semicolon {
                errors.push(ErrorCode::MissingSemicolonAfterCharacterReference, 1 + len);
            }
            Decoded::Chars {
                len: 1 + len,
                value: Value::Named(value),
            }
        }
    }
}

/// The standard's `numeric-character-reference-state` to
/// `numeric-character-reference-end-state`, from the `&` of `&#` at
/// `bytes[0]`.
fn numeric(bytes: &[u8], eof: bool, errors: &mut RefErrors) -> Decoded {
    let (radix, first) = match bytes.get(2) {
        Some(b'x' | b'X') => (16, 3),
        Some(b'0'..=b'9') => (10, 2),
        None if !eof => return Decoded::NeedMore,
        _ => {
            errors.push(ErrorCode::AbsenceOfDigitsInNumericCharacterReference, 2);
            return Decoded::Literal(2);
        }
    };
    if radix == 16 {
        match bytes.get(3) {
            Some(b) if b.is_ascii_hexdigit() => {}
            None if !eof => return Decoded::NeedMore,
            _ => {
                errors.push(ErrorCode::AbsenceOfDigitsInNumericCharacterReference, 3);
                return Decoded::Literal(3);
            }
        }
    }
    let mut code = 0;
    let mut q = first;
    while let Some(d) = bytes.get(q).and_then(|&b| (b as char).to_digit(radix)) {
        code = push_digit(code, radix, d);
        q += 1;
    }
    let end = match bytes.get(q) {
        // The end state reports its error at the character after the `;`:
        // a stream waits for it, to give the error the same span.
        Some(b';') if q + 1 == bytes.len() && !eof => return Decoded::NeedMore,
        Some(b';') => q + 1,
        None if !eof => return Decoded::NeedMore,
        _ => {
            errors.push(ErrorCode::MissingSemicolonAfterCharacterReference, q);
            q
        }
    };
    let (c, error) = resolve_numeric(code);
    if let Some(code) = error {
        errors.push(code, end);
    }
    Decoded::Chars {
        len: end,
        value: Value::Code(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ErrorCode::*;

    #[test]
    fn null_surrogate_and_out_of_range_become_replacement() {
        assert_eq!(
            resolve_numeric(0),
            ('\u{FFFD}', Some(NullCharacterReference))
        );
        assert_eq!(
            resolve_numeric(0xD800),
            ('\u{FFFD}', Some(SurrogateCharacterReference))
        );
        assert_eq!(
            resolve_numeric(0xDFFF),
            ('\u{FFFD}', Some(SurrogateCharacterReference))
        );
        assert_eq!(
            resolve_numeric(0x110000),
            ('\u{FFFD}', Some(CharacterReferenceOutsideUnicodeRange))
        );
    }

    #[test]
    fn c1_controls_map_through_windows_1252() {
        assert_eq!(
            resolve_numeric(0x80),
            ('€', Some(ControlCharacterReference))
        );
        assert_eq!(
            resolve_numeric(0x9F),
            ('Ÿ', Some(ControlCharacterReference))
        );
        // 0x81 has no windows-1252 character: kept as is.
        assert_eq!(
            resolve_numeric(0x81),
            ('\u{81}', Some(ControlCharacterReference))
        );
    }

    #[test]
    fn carriage_return_is_a_control_reference_but_kept() {
        assert_eq!(
            resolve_numeric(0x0D),
            ('\r', Some(ControlCharacterReference))
        );
        assert_eq!(resolve_numeric(0x0A), ('\n', None));
        assert_eq!(
            resolve_numeric(0x01),
            ('\u{1}', Some(ControlCharacterReference))
        );
        assert_eq!(
            resolve_numeric(0x7F),
            ('\u{7F}', Some(ControlCharacterReference))
        );
    }

    #[test]
    fn noncharacters_are_kept_with_an_error() {
        assert_eq!(
            resolve_numeric(0xFDD0),
            ('\u{FDD0}', Some(NoncharacterCharacterReference))
        );
        assert_eq!(
            resolve_numeric(0x10FFFF),
            ('\u{10FFFF}', Some(NoncharacterCharacterReference))
        );
        assert_eq!(resolve_numeric(0x41), ('A', None));
    }

    #[test]
    fn digits_saturate() {
        let mut code = 0;
        for _ in 0..100 {
            code = push_digit(code, 10, 9);
        }
        assert_eq!(code, SATURATED);
        assert_eq!(push_digit(0x10FFF, 16, 0xF), 0x10FFFF);
    }
}
