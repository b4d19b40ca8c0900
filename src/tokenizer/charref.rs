//! Numeric character references: the standard's "numeric character
//! reference end state" checks and its replacement table.

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
