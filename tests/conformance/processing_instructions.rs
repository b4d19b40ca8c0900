//! Processing instructions (WHATWG HTML 13.2.5.72-76, added 2026), with
//! `Config::processing_instructions(true)`; expectations derived from the
//! standard's text (see `shared/spec/processing-instructions.md`), not from
//! the tokenizer's output.
//!
//! Error positions are counted as html5lib-tests counts them: 1-based line
//! and column (UTF-16 units), at the character being consumed when the error
//! is raised, or one past the end at end of file.

// Tokens (adjacent text joined, Eof checked and dropped) and errors as
// (spec code, line, column): testkit's, written once for the test files.
use htmltok::{Config, OwnedToken, Span, Token, Tokenizer};
use testkit::drive::{owned_with_errors as run_with, CodeAt as Error};

fn pi_config() -> Config {
    Config::new().processing_instructions(true)
}

/// Tokenizes with processing instructions on.
fn run(input: &str) -> (Vec<OwnedToken>, Vec<Error>) {
    run_with(input, pi_config())
}

fn pi(target: &str, data: &str) -> OwnedToken {
    OwnedToken::ProcessingInstruction {
        target: target.to_owned(),
        data: data.to_owned(),
    }
}

fn comment(data: &str) -> OwnedToken {
    OwnedToken::Comment(data.to_owned())
}

fn text(s: &str) -> OwnedToken {
    OwnedToken::Text(s.to_owned())
}

/// The spans of the processing instructions in `input`.
fn pi_spans(input: &str) -> Vec<Span> {
    let mut tok = Tokenizer::with_config(input, pi_config());
    let mut spans = Vec::new();
    while let Some(token) = tok.next_token() {
        if let Token::ProcessingInstruction(p) = token {
            spans.push(p.span());
        }
    }
    spans
}

const EOF_IN_PI: &str = "eof-in-processing-instruction";
const DISALLOWED: &str = "disallowed-processing-instruction-target";
const INVALID_FIRST: &str = "invalid-first-character-of-processing-instruction-target";
const INVALID_TARGET: &str = "invalid-processing-instruction-target";

// ---------------------------------------------------------------------------
// Well-formed processing instructions
// ---------------------------------------------------------------------------

#[test]
fn php_style_instruction() {
    // Target state: ' ' ends the target; after-target skips it; data "echo 1";
    // '?' -> questionable; '>' emits.
    assert_eq!(run("<?php echo 1?>"), (vec![pi("php", "echo 1")], vec![]));
}

#[test]
fn trailing_whitespace_stays_in_data() {
    assert_eq!(run("<?php echo 1 ?>"), (vec![pi("php", "echo 1 ")], vec![]));
}

#[test]
fn question_mark_before_gt_is_optional() {
    // Data state: '>' emits directly; questionable state: '>' emits. Same PI.
    let with = run("<?t a?>");
    let without = run("<?t a>");
    assert_eq!(with, (vec![pi("t", "a")], vec![]));
    assert_eq!(without, with);
}

#[test]
fn whitespace_after_target_is_skipped() {
    // After-target state skips space, space, LF, space.
    assert_eq!(run("<?t  \n data?>"), (vec![pi("t", "data")], vec![]));
    // Tab and form feed are whitespace too; CRLF is one LF after preprocessing.
    assert_eq!(run("<?t\t\x0C\r\ndata?>"), (vec![pi("t", "data")], vec![]));
}

#[test]
fn newlines_in_data_are_normalised() {
    assert_eq!(run("<?t a\r\nb\rc?>"), (vec![pi("t", "a\nb\nc")], vec![]));
}

#[test]
fn question_mark_not_followed_by_gt_stays_in_data() {
    // Questionable state: 'b' -> append '?' and reconsume 'b' in the data state.
    assert_eq!(run("<?t a?b?>"), (vec![pi("t", "a?b")], vec![]));
    // Questionable state: '?' -> append '?' and reconsume the second '?', which
    // goes back to questionable; then '>' emits.
    assert_eq!(run("<?t a??>"), (vec![pi("t", "a?")], vec![]));
}

#[test]
fn target_ended_by_question_mark_or_gt_has_empty_data() {
    // Target state: '?' / '>' end the target and reconsume in after-target,
    // which reconsumes in the data state: '?' -> questionable -> '>' emits;
    // '>' emits.
    assert_eq!(run("<?t?>"), (vec![pi("t", "")], vec![]));
    assert_eq!(run("<?t>"), (vec![pi("t", "")], vec![]));
    assert_eq!(run("<?t ?>"), (vec![pi("t", "")], vec![]));
}

#[test]
fn target_characters() {
    // Open state accepts a letter or '_' first; the target state takes ASCII
    // alphanumerics, '-' and '_'. The target is kept as written.
    assert_eq!(run("<?_x?>"), (vec![pi("_x", "")], vec![]));
    assert_eq!(run("<?Ab-9_c d?>"), (vec![pi("Ab-9_c", "d")], vec![]));
}

#[test]
fn targets_that_only_start_like_xml_are_allowed() {
    assert_eq!(run("<?xmlx a?>"), (vec![pi("xmlx", "a")], vec![]));
    assert_eq!(run("<?xm a?>"), (vec![pi("xm", "a")], vec![]));
    assert_eq!(
        run("<?xml-stylesheets a?>"),
        (vec![pi("xml-stylesheets", "a")], vec![])
    );
}

#[test]
fn data_may_contain_markup_characters() {
    // '<', '&', quotes are plain data (no references in PI data).
    assert_eq!(
        run("<?t <b &amp; '\"?>"),
        (vec![pi("t", "<b &amp; '\"")], vec![])
    );
    // A '>' ends the instruction even "inside" something tag-like.
    assert_eq!(
        run("<?t <b>x?>"),
        (vec![pi("t", "<b"), text("x?>")], vec![])
    );
}

#[test]
fn instruction_between_text_returns_to_data_state() {
    assert_eq!(
        run("a<?t x?>b&amp;c"),
        (vec![text("a"), pi("t", "x"), text("b&c")], vec![])
    );
}

#[test]
fn span_covers_lt_question_through_gt() {
    let input = "ab<?t x?>cd<?u y>e\n<?v?>";
    let spans = pi_spans(input);
    assert_eq!(
        spans,
        vec![
            Span { start: 2, end: 9 },
            Span { start: 11, end: 17 },
            Span { start: 19, end: 24 }
        ]
    );
    let covered: Vec<&str> = spans.iter().map(|s| &input[s.range()]).collect();
    assert_eq!(covered, ["<?t x?>", "<?u y>", "<?v?>"]);
}

// ---------------------------------------------------------------------------
// Disallowed targets: xml, xml-stylesheet (ASCII case-insensitive)
// ---------------------------------------------------------------------------

#[test]
fn xml_declaration_becomes_a_comment() {
    // Target state: ' ' (column 6) ends "xml": disallowed; the comment starts
    // as "?" + "xml", and the bogus comment state appends up to '>'.
    assert_eq!(
        run(r#"<?xml version="1.0"?>"#),
        (
            vec![comment(r#"?xml version="1.0"?"#)],
            vec![(DISALLOWED, 1, 6)]
        )
    );
}

#[test]
fn xml_stylesheet_is_disallowed_case_insensitively() {
    // "XML-Stylesheet" is 14 characters (columns 3-16); the space is column 17.
    assert_eq!(
        run("<?XML-Stylesheet x?>"),
        (
            vec![comment("?XML-Stylesheet x?")],
            vec![(DISALLOWED, 1, 17)]
        )
    );
    assert_eq!(
        run("<?xMl a?>"),
        (vec![comment("?xMl a?")], vec![(DISALLOWED, 1, 6)])
    );
}

#[test]
fn disallowed_target_ended_by_question_mark_or_gt() {
    // The '?' / '>' is reconsumed in the bogus comment state.
    assert_eq!(
        run("<?xml?>"),
        (vec![comment("?xml?")], vec![(DISALLOWED, 1, 6)])
    );
    assert_eq!(
        run("<?xml>x"),
        (vec![comment("?xml"), text("x")], vec![(DISALLOWED, 1, 6)])
    );
}

#[test]
fn disallowed_target_then_eof_emits_the_comment() {
    // Bogus comment state at EOF: emit the comment, then EOF; no further error.
    assert_eq!(
        run("<?xml a"),
        (vec![comment("?xml a")], vec![(DISALLOWED, 1, 6)])
    );
}

// ---------------------------------------------------------------------------
// Invalid targets
// ---------------------------------------------------------------------------

#[test]
fn invalid_first_character_becomes_a_comment() {
    // Open state: '1' is not a letter or '_': error at '1' (column 3); the
    // comment is "?" + empty buffer, '1' reconsumed in the bogus comment state.
    assert_eq!(
        run("<?1abc?>"),
        (vec![comment("?1abc?")], vec![(INVALID_FIRST, 1, 3)])
    );
}

#[test]
fn invalid_first_character_question_mark_or_gt() {
    assert_eq!(
        run("<??>"),
        (vec![comment("??")], vec![(INVALID_FIRST, 1, 3)])
    );
    assert_eq!(
        run("<?>x"),
        (vec![comment("?"), text("x")], vec![(INVALID_FIRST, 1, 3)])
    );
    assert_eq!(
        run("<? t?>"),
        (vec![comment("? t?")], vec![(INVALID_FIRST, 1, 3)])
    );
    assert_eq!(
        run("<?-a>"),
        (vec![comment("?-a")], vec![(INVALID_FIRST, 1, 3)])
    );
}

#[test]
fn invalid_target_character_becomes_a_comment() {
    // Target state: '$' (column 4) is "anything else": the comment is "?a",
    // '$' reconsumed in the bogus comment state.
    assert_eq!(
        run("<?a$b?>"),
        (vec![comment("?a$b?")], vec![(INVALID_TARGET, 1, 4)])
    );
    // A non-ASCII letter is not an ASCII alphanumeric.
    assert_eq!(
        run("<?ab\u{E9}c d?>"),
        (vec![comment("?ab\u{E9}c d?")], vec![(INVALID_TARGET, 1, 5)])
    );
    // A ':' is not allowed either.
    assert_eq!(
        run("<?a:b c?>"),
        (vec![comment("?a:b c?")], vec![(INVALID_TARGET, 1, 4)])
    );
}

// ---------------------------------------------------------------------------
// End of file: nothing is emitted for the instruction
// ---------------------------------------------------------------------------

#[test]
fn eof_in_open_state() {
    assert_eq!(run("<?"), (vec![], vec![(EOF_IN_PI, 1, 3)]));
    assert_eq!(run("ab<?"), (vec![text("ab")], vec![(EOF_IN_PI, 1, 5)]));
}

#[test]
fn eof_in_target_state() {
    assert_eq!(run("<?abc"), (vec![], vec![(EOF_IN_PI, 1, 6)]));
    // EOF comes before the disallowed-target check: no comment.
    assert_eq!(run("x<?xml"), (vec![text("x")], vec![(EOF_IN_PI, 1, 7)]));
}

#[test]
fn eof_in_after_target_state() {
    // After-target: EOF is "anything else", reconsumed in the data state.
    assert_eq!(run("<?abc "), (vec![], vec![(EOF_IN_PI, 1, 7)]));
}

#[test]
fn eof_in_data_state() {
    assert_eq!(run("<?abc data"), (vec![], vec![(EOF_IN_PI, 1, 11)]));
    assert_eq!(
        run("<b>\n<?abc data"),
        (
            vec![
                OwnedToken::StartTag {
                    name: "b".to_owned(),
                    attributes: vec![],
                    self_closing: false
                },
                text("\n")
            ],
            vec![(EOF_IN_PI, 2, 11)]
        )
    );
}

#[test]
fn eof_in_questionable_state() {
    assert_eq!(run("<?abc data?"), (vec![], vec![(EOF_IN_PI, 1, 12)]));
}

// ---------------------------------------------------------------------------
// Without the option: html5lib-tests behaviour
// ---------------------------------------------------------------------------

#[test]
fn without_the_option_question_mark_is_a_bogus_comment() {
    // Tag open state (pre-2026): '?' is unexpected-question-mark-instead-of-
    // tag-name at the '?' (column 2); comment "" then "?" reconsumed in the
    // bogus comment state, up to '>'.
    assert_eq!(
        run_with("<?php x?>", Config::new()),
        (
            vec![comment("?php x?")],
            vec![("unexpected-question-mark-instead-of-tag-name", 1, 2)]
        )
    );
    assert_eq!(
        run_with("<?xml a?>", Config::new().processing_instructions(false)),
        (
            vec![comment("?xml a?")],
            vec![("unexpected-question-mark-instead-of-tag-name", 1, 2)]
        )
    );
    // At EOF the bogus comment is emitted, with no further error.
    assert_eq!(
        run_with("<?abc", Config::new()),
        (
            vec![comment("?abc")],
            vec![("unexpected-question-mark-instead-of-tag-name", 1, 2)]
        )
    );
}
