//! Character references (WHATWG HTML 13.2.5.77-84), checked against the
//! standard's text rather than against the tokenizer's own output.
//!
//! Error positions are counted as html5lib-tests counts them: 1-based line
//! and column, the column in UTF-16 code units; an error is reported at the
//! character being consumed when the standard raises it, or one past the end
//! at end of file. The states that consume nothing (the named character
//! reference state's missing-semicolon check, the numeric character reference
//! end state) report at the next input character, i.e. one past the last
//! character of the reference.

use htmltok::{Config, OwnedToken, State};
// Tokens (adjacent text joined, Eof checked and dropped) and errors as
// (spec code, line, column): testkit's, written once for the test files.
use testkit::drive::{owned_with_errors as run_with, CodeAt as Error};

fn run(input: &str) -> (Vec<OwnedToken>, Vec<Error>) {
    run_with(input, Config::new())
}

fn text(s: &str) -> Vec<OwnedToken> {
    vec![OwnedToken::Text(s.to_owned())]
}

fn start_tag(name: &str, attributes: &[(&str, &str)]) -> Vec<OwnedToken> {
    vec![OwnedToken::StartTag {
        name: name.to_owned(),
        attributes: attributes
            .iter()
            .map(|&(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
        self_closing: false,
    }]
}

const MISSING_SEMICOLON: &str = "missing-semicolon-after-character-reference";

// ---------------------------------------------------------------------------
// Named character references (13.2.5.78) and the ambiguous ampersand (13.2.5.79)
// ---------------------------------------------------------------------------

#[test]
fn notit_matches_legacy_not_without_semicolon() {
    // Longest match is the legacy "&not" ("&notit" starts no identifier):
    // the 'i' after it (column 5) gets missing-semicolon.
    assert_eq!(
        run("&notit;"),
        (text("¬it;"), vec![(MISSING_SEMICOLON, 1, 5)])
    );
}

#[test]
fn notin_with_semicolon_is_the_longer_match() {
    assert_eq!(run("&notin;"), (text("∉"), vec![]));
}

#[test]
fn amp_without_semicolon_at_eof() {
    // "&amp" is a legacy identifier; the check happens at EOF, one past the end.
    assert_eq!(run("&amp"), (text("&"), vec![(MISSING_SEMICOLON, 1, 5)]));
}

#[test]
fn legacy_reference_followed_by_alphanumeric_in_attribute_is_not_decoded() {
    // Consumed as part of an attribute, last matched character not ';', next
    // character 'x' is alphanumeric: flush the consumed code points as they are.
    assert_eq!(
        run(r#"<a href="?a=1&ampx=2">"#),
        (start_tag("a", &[("href", "?a=1&ampx=2")]), vec![])
    );
}

#[test]
fn legacy_reference_followed_by_alphanumeric_in_text_is_decoded() {
    // Not in an attribute: decoded, missing-semicolon at the 'x' (column 5).
    assert_eq!(
        run("&ampx="),
        (text("&x="), vec![(MISSING_SEMICOLON, 1, 5)])
    );
}

#[test]
fn legacy_reference_followed_by_equals_in_attribute_is_not_decoded() {
    assert_eq!(
        run(r#"<a b="&amp=">"#),
        (start_tag("a", &[("b", "&amp=")]), vec![])
    );
}

#[test]
fn legacy_reference_followed_by_equals_in_unquoted_attribute_is_not_decoded() {
    // The historical rule applies to unquoted values too; the '=' itself
    // (column 11) is then an unexpected character in an unquoted value.
    assert_eq!(
        run("<a b=&ampx=2>"),
        (
            start_tag("a", &[("b", "&ampx=2")]),
            vec![("unexpected-character-in-unquoted-attribute-value", 1, 11)]
        )
    );
}

#[test]
fn legacy_reference_followed_by_other_character_in_attribute_is_decoded() {
    // '!' is neither '=' nor alphanumeric: decoded, missing-semicolon at '!'.
    assert_eq!(
        run(r#"<a b="&amp!">"#),
        (
            start_tag("a", &[("b", "&!")]),
            vec![(MISSING_SEMICOLON, 1, 11)]
        )
    );
}

#[test]
fn reference_with_semicolon_in_attribute_is_decoded() {
    assert_eq!(
        run(r#"<a b="&amp;x">"#),
        (start_tag("a", &[("b", "&x")]), vec![])
    );
}

#[test]
fn unknown_named_reference_reports_at_the_semicolon() {
    // No identifier starts with "xy": flush "&", ambiguous ampersand state
    // emits "xyz", then ';' is unknown-named-character-reference (column 5).
    assert_eq!(
        run("&xyz;"),
        (
            text("&xyz;"),
            vec![("unknown-named-character-reference", 1, 5)]
        )
    );
}

#[test]
fn unknown_named_reference_in_attribute() {
    assert_eq!(
        run(r#"<a b="&xyz;">"#),
        (
            start_tag("a", &[("b", "&xyz;")]),
            vec![("unknown-named-character-reference", 1, 11)]
        )
    );
}

#[test]
fn ampersand_semicolon_is_plain_text() {
    // Character reference state: ';' is "anything else": flush "&",
    // reconsume in the data state. No error.
    assert_eq!(run("&;"), (text("&;"), vec![]));
}

#[test]
fn two_code_point_entity() {
    assert_eq!(run("&NotEqualTilde;"), (text("\u{2242}\u{0338}"), vec![]));
}

#[test]
fn longest_entity_name() {
    assert_eq!(
        run("&CounterClockwiseContourIntegral;"),
        (text("\u{2233}"), vec![])
    );
}

#[test]
fn long_alphanumeric_run_after_ampersand() {
    // 10,000 characters: '&' then 9,999 'a'. No identifier starts with "aaa",
    // so "&" is flushed and the ambiguous ampersand state emits the letters;
    // EOF reconsumes in the data state. No error. (That such a run costs
    // linear time is `long_almost_entity`'s in benches/adversarial.rs.)
    let input = format!("&{}", "a".repeat(9_999));
    assert_eq!(input.len(), 10_000);
    assert_eq!(run(&input), (text(&input), vec![]));

    // The same run closed by ';' is an unknown named reference, at the ';'.
    let input = format!("&{};", "a".repeat(9_999));
    assert_eq!(
        run(&input),
        (
            text(&input),
            vec![("unknown-named-character-reference", 1, 10_001)]
        )
    );
}

// ---------------------------------------------------------------------------
// Numeric character references (13.2.5.80-84)
// ---------------------------------------------------------------------------

#[test]
fn hex_reference_outside_unicode_range() {
    assert_eq!(
        run("&#x110000;"),
        (
            text("\u{FFFD}"),
            vec![("character-reference-outside-unicode-range", 1, 11)]
        )
    );
}

#[test]
fn null_reference() {
    assert_eq!(
        run("&#0;"),
        (text("\u{FFFD}"), vec![("null-character-reference", 1, 5)])
    );
}

#[test]
fn c1_control_reference_is_replaced_from_the_table() {
    // 0x80 is a control; the table maps it to U+20AC.
    assert_eq!(
        run("&#128;"),
        (text("€"), vec![("control-character-reference", 1, 7)])
    );
}

#[test]
fn surrogate_reference() {
    assert_eq!(
        run("&#xD800;"),
        (
            text("\u{FFFD}"),
            vec![("surrogate-character-reference", 1, 9)]
        )
    );
}

#[test]
fn carriage_return_reference_is_a_literal_cr() {
    // 0x0D is named explicitly as a control-character-reference; it is not in
    // the replacement table and a reference is not newline-normalised.
    assert_eq!(
        run("&#x0D;"),
        (text("\r"), vec![("control-character-reference", 1, 7)])
    );
}

#[test]
fn decimal_reference_without_semicolon_at_eof() {
    // Decimal state: EOF is "anything else": missing-semicolon, one past the end.
    assert_eq!(run("&#65"), (text("A"), vec![(MISSING_SEMICOLON, 1, 5)]));
}

#[test]
fn hex_reference_without_semicolon() {
    // Hex state: 'g' is not a hex digit: missing-semicolon at the 'g' (column 6).
    assert_eq!(run("&#x41g"), (text("Ag"), vec![(MISSING_SEMICOLON, 1, 6)]));
}

#[test]
fn hex_reference_upper_case_x() {
    assert_eq!(run("&#X41;&#x6a;"), (text("Aj"), vec![]));
}

#[test]
fn hash_semicolon_has_no_digits() {
    // Numeric state: ';' is "anything else": absence-of-digits at the ';'.
    assert_eq!(
        run("&#;"),
        (
            text("&#;"),
            vec![("absence-of-digits-in-numeric-character-reference", 1, 3)]
        )
    );
}

#[test]
fn hash_x_semicolon_has_no_digits() {
    // Hexadecimal start state: ';' is "anything else": absence-of-digits at the ';'.
    assert_eq!(
        run("&#x;"),
        (
            text("&#x;"),
            vec![("absence-of-digits-in-numeric-character-reference", 1, 4)]
        )
    );
}

#[test]
fn huge_decimal_reference_does_not_overflow() {
    // 20 digits: "&#" + 20 + ";" is 23 characters, the error is at column 24.
    let input = "&#99999999999999999999;";
    assert_eq!(input.len(), 23);
    assert_eq!(
        run(input),
        (
            text("\u{FFFD}"),
            vec![("character-reference-outside-unicode-range", 1, 24)]
        )
    );
}

#[test]
fn huge_hex_reference_without_semicolon_does_not_overflow() {
    // Both errors at EOF (column 26): missing-semicolon from the hex state,
    // then outside-range from the end state.
    let input = "&#xFFFFFFFFFFFFFFFFFFFFFF";
    assert_eq!(input.len(), 25);
    assert_eq!(
        run(input),
        (
            text("\u{FFFD}"),
            vec![
                (MISSING_SEMICOLON, 1, 26),
                ("character-reference-outside-unicode-range", 1, 26)
            ]
        )
    );
}

// ---------------------------------------------------------------------------
// Positions: lines and UTF-16 columns
// ---------------------------------------------------------------------------

#[test]
fn error_position_on_a_later_line() {
    // CRLF is one line break; "&amp" ends the input on line 2.
    assert_eq!(
        run("x\r\n&amp"),
        (text("x\n&"), vec![(MISSING_SEMICOLON, 2, 5)])
    );
}

#[test]
fn error_column_counts_utf16_units() {
    // U+1F600 is two UTF-16 units: '&' is at column 3, EOF at column 7.
    assert_eq!(
        run("\u{1F600}&amp"),
        (text("\u{1F600}&"), vec![(MISSING_SEMICOLON, 1, 7)])
    );
}

// ---------------------------------------------------------------------------
// Return states: RCDATA decodes, RAWTEXT does not
// ---------------------------------------------------------------------------

#[test]
fn references_decode_in_rcdata() {
    let config = Config::new().initial_state(State::Rcdata);
    assert_eq!(
        run_with("a&lt;b&amp;c&#65;", config.clone()),
        (text("a<b&cA"), vec![])
    );
    assert_eq!(
        run_with("&amp", config),
        (text("&"), vec![(MISSING_SEMICOLON, 1, 5)])
    );
}

#[test]
fn references_do_not_decode_in_rawtext() {
    let config = Config::new().initial_state(State::Rawtext);
    assert_eq!(
        run_with("a&lt;b&amp;c&#65;&amp", config),
        (text("a&lt;b&amp;c&#65;&amp"), vec![])
    );
}
