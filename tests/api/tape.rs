//! The token tape gives back exactly the tokens (strings, spans, attributes
//! with their spans, flags) that `next_token` gives: every html5lib-tests
//! input in each of its initial states (driven, as the conformance runner
//! runs them) and every corpus page (standalone, driven with a tree
//! builder's switches, processing instructions on), with parse errors off
//! and on. Its records round-trip through bytes, and a reused tape's
//! records do not depend on what it held before.

use htmltok::{
    Config, ErrorPolicy, Flow, Input, Tape, TapeAttr, TapeAttrStrings, TapeToken, Tokenizer,
};
use testkit::drive::{naive_switch, Errors};
use testkit::record::{diff, Normalizer, Output};
use testkit::{compare, data, record};

const BETWEEN: &str = "the tape's tokens and next_token's";

/// `next_token`'s tokens (switched when `switch`), and the errors.
fn pulled<E: ErrorPolicy>(mut tok: Tokenizer<'_, E>, switch: bool) -> Output {
    let mut norm = Normalizer::new(false);
    loop {
        let state = {
            let Some(token) = tok.next_token() else { break };
            norm.push(&token);
            naive_switch(&token).filter(|_| switch)
        };
        if let Some(state) = state {
            tok.set_state(state);
        }
    }
    assert!(norm.anomalies.is_empty(), "{:?}", norm.anomalies);
    Output {
        tokens: norm.tokens,
        errors: tok.errors().iter().map(record::err_rec).collect(),
    }
}

/// The tape's tokens of the same tokenizer (switched the same way), and
/// the tokenizer's errors.
fn taped<E: ErrorPolicy>(tape: &mut Tape, mut tok: Tokenizer<'_, E>, switch: bool) -> Output {
    tape.record_with(&mut tok, |token| match naive_switch(token) {
        Some(state) if switch => Flow::Switch(state),
        _ => Flow::Continue,
    });
    let mut norm = Normalizer::new(false);
    for token in tape.tokens(tok.input()) {
        norm.push(&token);
    }
    assert_eq!(tape.tokens(tok.input()).len(), tape.records().len());
    check_bytes(tape);
    Output {
        tokens: norm.tokens,
        errors: tok.errors().iter().map(record::err_rec).collect(),
    }
}

/// The records cast to bytes and back are the records.
fn check_bytes(tape: &Tape) {
    let bytes: &[u8] = bytemuck::cast_slice(tape.records());
    assert_eq!(bytes.len(), std::mem::size_of_val(tape.records()));
    let back: &[TapeToken] = bytemuck::try_cast_slice(bytes).expect("records from bytes");
    assert_eq!(back, tape.records());
    // Through an owned copy (another buffer, as a file or a process
    // boundary would give): `Vec<u8>`'s alignment may not suit the
    // records, so they are read back by value.
    let copied: Vec<u8> = bytes.to_vec();
    let records: Vec<TapeToken> = copied
        .chunks_exact(size_of::<TapeToken>())
        .map(bytemuck::pod_read_unaligned)
        .collect();
    assert_eq!(records, tape.records());
    let attrs: &[u8] = bytemuck::cast_slice(tape.attributes());
    assert_eq!(
        bytemuck::try_cast_slice::<u8, TapeAttr>(attrs).expect("attributes from bytes"),
        tape.attributes()
    );
    let rewritten: &[u8] = bytemuck::cast_slice(tape.rewritten_attributes());
    assert_eq!(
        bytemuck::try_cast_slice::<u8, TapeAttrStrings>(rewritten).expect("strings from bytes"),
        tape.rewritten_attributes()
    );
}

/// `next_token`'s output and the tape's, from two tokenizers `make` makes.
fn both<'i, E: ErrorPolicy>(
    tape: &mut Tape,
    make: impl Fn() -> Tokenizer<'i, E>,
    switch: bool,
) -> (Output, Output) {
    (pulled(make(), switch), taped(tape, make(), switch))
}

/// Compares tape and `next_token` for one input and configuration, errors
/// off and on; a difference is pushed to `failures`.
fn compare(
    tape: &mut Tape,
    label: &str,
    input: &[u8],
    config: &Config,
    switch: bool,
    failures: &mut Vec<String>,
) {
    let off = both(
        tape,
        || Tokenizer::with_config(Input::from_utf8_lossy(input), config.clone()),
        switch,
    );
    let on = both(
        tape,
        || {
            Tokenizer::with_config(
                Input::from_utf8_lossy(input),
                config.clone().report_errors(),
            )
        },
        switch,
    );
    for (errors, (want, got)) in [(Errors::Off, off), (Errors::On, on)] {
        if let Some(d) = diff(&want, &got) {
            failures.push(format!("{label} (errors {errors:?}): {d}"));
        }
    }
}

#[test]
fn html5lib_inputs_every_initial_state() {
    let (cases, _) = data::html5lib_cases();
    let mut tape = Tape::new();
    let mut failures = Vec::new();
    let mut runs = 0;
    for case in &cases {
        for &state in &case.states {
            runs += 1;
            let label = format!("{} in {state:?}", case.label);
            let config = case.driven_config(state);
            compare(
                &mut tape,
                &label,
                case.input.as_bytes(),
                &config,
                false,
                &mut failures,
            );
        }
    }
    assert!(runs > 1000, "only {runs} html5lib runs");
    compare::report(BETWEEN, "html5lib inputs", runs, &failures);
}

#[test]
fn corpus_pages_standalone_and_driven() {
    let pages = data::corpus_pages();
    let mut tape = Tape::new();
    let mut failures = Vec::new();
    let configs = [
        ("standalone", Config::new(), false),
        ("driven", Config::new().driven(true), true),
        (
            "standalone, processing instructions",
            Config::new().processing_instructions(true),
            false,
        ),
    ];
    for (name, bytes) in &pages {
        for (what, config, switch) in &configs {
            compare(
                &mut tape,
                &format!("{name} ({what})"),
                bytes,
                config,
                *switch,
                &mut failures,
            );
        }
    }
    compare::report(
        BETWEEN,
        "corpus pages",
        pages.len() * configs.len() * 2,
        &failures,
    );
}

/// Rewritten strings of every kind land in the side string, and the
/// tokens still match.
#[test]
fn rewritten_strings_of_every_kind() {
    let page = "<!DOCTYPE HTML PUBLIC \"a\0b\" 'c\r\nd'><DIV ID=\"x&amp;y\" \0a=b>t\0&lt;\r\n\
                <!-- c\r --></DIV><?PI d\0?><svg><![CDATA[x\0]]></svg>";
    let config = Config::new().processing_instructions(true);
    let mut tape = Tape::new();
    let want = pulled(Tokenizer::with_config(page, config.clone()), false);
    let got = taped(&mut tape, Tokenizer::with_config(page, config), false);
    assert_eq!(diff(&want, &got), None);
    let side: u32 = (0..3).map(|i| TapeToken::SIDE_0 << i).sum();
    let rewritten = tape
        .records()
        .iter()
        .filter(|r| r.flags & side != 0)
        .count();
    // DOCTYPE (name, public id, system id), <div>, the text, the comment,
    // </div>; a processing instruction's data and CDATA keep NUL as it is.
    assert!(
        rewritten == 5,
        "{rewritten} records with side strings: {:?}",
        tape.records()
    );
    assert_eq!(
        tape.rewritten_attributes().len(),
        2,
        "ID=x&amp;y and \\0a=b"
    );
    assert!(tape.strings().contains("x&y"));
}

/// A tape reused after a bigger page holds the same records as a new one.
#[test]
fn reuse_forgets_the_previous_page() {
    let pages = data::corpus_pages();
    let (_, big) = pages
        .iter()
        .max_by_key(|(_, b)| b.len())
        .expect("corpus pages");
    let small = "<p a=&amp;>x&lt;</p>";
    let mut reused = Tape::new();
    reused.tokenize(&String::from_utf8_lossy(big));
    reused.tokenize(small);
    let mut fresh = Tape::new();
    fresh.tokenize(small);
    assert_eq!(reused.records(), fresh.records());
    assert_eq!(reused.attributes(), fresh.attributes());
    assert_eq!(reused.rewritten_attributes(), fresh.rewritten_attributes());
    assert_eq!(reused.strings(), fresh.strings());
}
