//! Regression tests: minimized inputs that made a fuzz target (`fuzz/`)
//! fail, kept so that they stay fixed. Each test names the target that
//! found it, the options and the input bytes.
//!
//! Every case runs through the same checks as the fuzz targets (the shared
//! code in `testkit::props`): the whole-document tokenizer must not panic,
//! must end with Eof, must keep every span inside the input and its output
//! proportional to the input (`check_tokenize`); and a stream fed the input
//! in one chunk, and one byte at a time, must give exactly what the whole
//! document gives (`check_chunked`). Errors on and off, standalone and
//! driven, unless a case says otherwise.
//!
//! Found so far (November 2026), all with an initial state that html5lib-tests
//! never uses: states that are only entered in the middle of a token, where
//! the machine assumed the bytes that led there (`<`, `<!--`, `&`, `]]`)
//! were behind it. Starting in them at offset 0 subtracted below zero
//! (overflow panic in debug builds) or read a byte that was not there.
//! Fixed in 4348d52 ("read-backs before the entry point use the literal the
//! standard appends"). The machine.rs line numbers below are from before
//! that fix.

use htmltok::State;
use props::Options;
use testkit::props;

/// Runs every check on `input` starting in `state`, in every combination of
/// errors on/off and standalone/driven.
fn check_state(state: State, input: &[u8]) {
    for errors in [true, false] {
        for driven in [false, true] {
            let options = Options {
                errors,
                driven,
                initial_state: state,
                ..Options::default()
            };
            check(input, &options);
        }
    }
}

fn check(input: &[u8], options: &Options) {
    let shown = String::from_utf8_lossy(input);
    if let Err(e) = props::check_tokenize(input, options) {
        panic!("{options:?}, input {shown:?}: {e}");
    }
    let one_byte: Vec<usize> = (1..input.len()).collect();
    for splits in [&[][..], &one_byte[..]] {
        if let Err(e) = props::check_chunked(input, options, splits) {
            panic!("{options:?}, input {shown:?}, splits {splits:?}: {e}");
        }
    }
}

// ---------------------------------------------------------------------------
// Comment states entered directly: `p - 1` / `p - 2` reach back for the
// `-` or `--` that would have led there (machine.rs, comment states, where
// the deferred dashes are appended as the input range they came from).
// Found by `tokenize` and `chunked` (options header `3c 2f 00`, input " ").

#[test]
fn start_in_comment_start_dash() {
    // machine.rs:1820, attempt to subtract with overflow.
    check_state(State::CommentStartDash, b"a");
}

#[test]
fn start_in_comment_less_than_sign_bang_dash() {
    // machine.rs:1882 (reached through CommentEndDash), subtract with overflow.
    check_state(State::CommentLessThanSignBangDash, b"a");
    check_state(State::CommentLessThanSignBangDash, b">");
    check_state(State::CommentLessThanSignBangDash, b" ");
}

#[test]
fn start_in_comment_less_than_sign_bang_dash_dash() {
    // machine.rs:1898 (reached through CommentEnd), subtract with overflow.
    check_state(State::CommentLessThanSignBangDashDash, b"a");
    check_state(State::CommentLessThanSignBangDashDash, b"-");
}

#[test]
fn start_in_comment_end_dash() {
    // machine.rs:1882: `self.comment.push_input(inp, p - 1, p)` with p == 0.
    check_state(State::CommentEndDash, b"a");
    check_state(State::CommentEndDash, b">");
}

#[test]
fn start_in_comment_end() {
    // machine.rs:1898, subtract with overflow (the `--` behind p).
    check_state(State::CommentEnd, b"a");
    check_state(State::CommentEnd, b"-");
}

#[test]
fn start_in_comment_end_bang() {
    // machine.rs:1916, subtract with overflow (the `--!` behind p).
    check_state(State::CommentEndBang, b"a");
    check_state(State::CommentEndBang, b"-");
}

// ---------------------------------------------------------------------------
// CDATA section bracket states entered directly: the `]` / `]]` behind p.

#[test]
fn start_in_cdata_section_bracket() {
    // machine.rs:2164, subtract with overflow, even on empty input.
    check_state(State::CdataSectionBracket, b"");
    check_state(State::CdataSectionBracket, b"a");
}

#[test]
fn start_in_cdata_section_end() {
    // machine.rs:2175, subtract with overflow, even on empty input.
    check_state(State::CdataSectionEnd, b"");
    check_state(State::CdataSectionEnd, b"a");
}

// ---------------------------------------------------------------------------
// Processing instruction states entered directly: `pi_to_bogus_comment`
// appends the input from `self.lt + 1` to p, and with no `<` behind
// (lt == 0, p == 0) that range is backwards: `Field::len` (machine.rs:142)
// underflows, via `push_input` (machine.rs:163). Found by `tokenize`
// (options header `00 ef 20`: errors on, standalone, state 71, input " ").

#[test]
fn start_in_processing_instruction_open() {
    check_state(State::ProcessingInstructionOpen, b" ");
    check_state(State::ProcessingInstructionOpen, b"<");
    check_state(State::ProcessingInstructionOpen, b"?");
    check_state(State::ProcessingInstructionOpen, b">");
}

#[test]
fn start_in_processing_instruction_target() {
    check_state(State::ProcessingInstructionTarget, b"<");
    check_state(State::ProcessingInstructionTarget, b"?");
    check_state(State::ProcessingInstructionTarget, b">");
}

#[test]
fn start_in_processing_instruction_questionable() {
    // machine.rs:2264, subtract with overflow (the `?` behind p).
    check_state(State::ProcessingInstructionQuestionable, b"a");
    check_state(State::ProcessingInstructionQuestionable, b"-");
}

// ---------------------------------------------------------------------------
// Character reference state entered directly: no panic, but the flush of
// the "&" reads the input byte at offset 0 as if it were the `&`.

#[test]
fn start_in_character_reference_at_eof() {
    // Empty input gives Text "\u{FFFD}" with span 0..1: a character from
    // nowhere, and a span past the end of the (empty) input.
    check_state(State::CharacterReference, b"");
}

#[test]
fn start_in_character_reference_before_multibyte_character() {
    // "é" gives Text "\u{FFFD}" (span 0..2): the flushed "&" is the input
    // range 0..1, half of the é, which resolves to U+FFFD; with "\xFFa"
    // (repaired to "\u{FFFD}a") the whole document gives Text "\u{FFFD}"
    // for 0..4, losing the "a", and a stream gives something else again.
    check_state(State::CharacterReference, "é".as_bytes());
    check_state(State::CharacterReference, b"\xFFa");
    for (input, want) in [("é", "é"), ("\u{FFFD}a", "\u{FFFD}a"), ("xyz", "xyz")] {
        let config = htmltok::Config::new().initial_state(State::CharacterReference);
        let text: String = htmltok::Tokenizer::with_config(input, config)
            .owned()
            .filter_map(|t| match t {
                htmltok::OwnedToken::Text(t) => Some(t),
                _ => None,
            })
            .collect();
        // The "&" the state stands for may be flushed or not; the input's
        // own characters must come out as they are.
        assert!(
            text == want || text == format!("&{want}"),
            "input {input:?}: text {text:?}"
        );
    }
}

/// `encoding`, 2026-12-03 (a 10-minute run): a page shorter than the
/// prescan's 1024 bytes, fed in chunks and finished, whose `<meta charset>`
/// the prescan misses (a `<!--` inside `<title>` is text to the tokenizer
/// but a comment to the prescan, which then skips the `<meta>`) while the
/// tokenizer sees it. The stream decided at `finish` before the tokens of
/// that ASCII were taken: the default, where `Sniffer::sniff` says
/// late-meta. With a non-ASCII byte after it the stream decoded it wrongly.
#[test]
fn encoding_short_page_late_meta_decided_at_finish() {
    use htmltok::encoding::{Sniffer, Source};
    let ascii = b"<title>a <!-- b</title><meta charset=\"koi8-r\"><p>x<!-- c -->";
    for tail in [&b""[..], b"\xc1\xc2\xd7"] {
        let page = [&ascii[..], tail].concat();
        let sniffed = Sniffer::new().sniff(&page);
        assert_eq!(sniffed.source, Source::LateMeta);
        assert_eq!(sniffed.encoding, encoding_rs::KOI8_R);
        for splits in [vec![], vec![1], vec![1, 7, 30], vec![page.len()]] {
            props::check_encoding(&page, Sniffer::new(), &splits)
                .unwrap_or_else(|e| panic!("splits {splits:?}: {e}"));
        }
    }
    // The input the fuzzer found.
    let found = include_bytes!("regressions/encoding-late-meta-at-finish.bin");
    let split = |n: usize| n.min(found.len());
    props::check_encoding(found, Sniffer::new(), &[split(1), split(7), split(300)])
        .unwrap_or_else(|e| panic!("{e}"));
}
