//! The records hold exactly what `next_token` gives (kinds, spans, strings,
//! flags, attributes with where they start): every html5lib-tests input in
//! each of its initial states (driven, as the conformance runner runs them)
//! and every corpus page (standalone; driven with a tree builder's
//! switches, through `record_with`; processing instructions on; attributes
//! skipped), with parse errors off and on, and the tokenizer's errors are
//! the same. The records round-trip through bytes, and reused records do
//! not depend on what they held before.

use htmltok::records::{AttributeRecord, ReadError, Records, SavedRecords, TokenRecord};
use htmltok::{AttributePolicy, Config, ErrorPolicy, Flow, Input, Token, Tokenizer};
use testkit::drive::{naive_switch, Errors};
use testkit::{compare, data, record};

const BETWEEN: &str = "the records and next_token's tokens";

/// What a record holds of a token: kind, span, the three strings (`None`
/// where the record has none), flags, and per attribute its name, value
/// and where they start.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    kind: u8,
    span: (usize, usize),
    strings: [Option<String>; 3],
    flags: u8,
    attrs: Vec<(String, String, usize, usize)>,
}

/// `token` as a record would hold it (`None` for the end of the input,
/// which has no record).
fn seen(token: &Token<'_>) -> Option<Seen> {
    let span = token.span().map(|s| (s.start, s.end))?;
    let s = |s: &str| Some(s.to_owned());
    let mut out = Seen {
        kind: 0,
        span,
        strings: [None, None, None],
        flags: 0,
        attrs: Vec::new(),
    };
    match token {
        Token::Doctype(d) => {
            out.kind = TokenRecord::DOCTYPE;
            out.strings = [
                d.name().map(str::to_owned),
                d.public_id().map(str::to_owned),
                d.system_id().map(str::to_owned),
            ];
            let flag = |on: bool, bit: u8| if on { bit } else { 0 };
            out.flags = flag(d.force_quirks(), TokenRecord::FORCE_QUIRKS)
                | flag(d.name().is_some(), TokenRecord::HAS_S0)
                | flag(d.public_id().is_some(), TokenRecord::HAS_S1)
                | flag(d.system_id().is_some(), TokenRecord::HAS_S2);
        }
        Token::StartTag(t) | Token::EndTag(t) => {
            out.kind = if matches!(token, Token::StartTag(_)) {
                TokenRecord::START_TAG
            } else {
                TokenRecord::END_TAG
            };
            out.strings[0] = s(t.name());
            out.flags = u8::from(t.self_closing()) * TokenRecord::SELF_CLOSING;
            out.attrs = t
                .attributes()
                .map(|a| {
                    (
                        a.name().to_owned(),
                        a.value().to_owned(),
                        a.name_span().start,
                        a.value_span().start,
                    )
                })
                .collect();
        }
        Token::Comment(c) => {
            out.kind = TokenRecord::COMMENT;
            out.strings[0] = s(c.as_str());
        }
        Token::Text(t) => {
            out.kind = TokenRecord::TEXT;
            out.strings[0] = s(t.as_str());
        }
        Token::ProcessingInstruction(p) => {
            out.kind = TokenRecord::PROCESSING_INSTRUCTION;
            out.strings[0] = s(p.target());
            out.strings[1] = s(p.data());
        }
        other => panic!("a token kind the records do not know: {other:?}"),
    }
    Some(out)
}

/// The records read back.
fn read(records: &Records, input: &str) -> Vec<Seen> {
    let attrs: &[AttributeRecord] = records.attributes();
    records
        .tokens()
        .iter()
        .map(|r| {
            let string = |off, len| Some(records.string(input, off, len).to_owned());
            let mut strings = [
                string(r.s0_off, r.s0_len),
                string(r.s1_off, r.s1_len),
                string(r.s2_off, r.s2_len),
            ];
            match r.kind {
                TokenRecord::DOCTYPE => {
                    for (i, has) in [
                        TokenRecord::HAS_S0,
                        TokenRecord::HAS_S1,
                        TokenRecord::HAS_S2,
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        if r.flags & has == 0 {
                            strings[i] = None;
                        }
                    }
                }
                TokenRecord::PROCESSING_INSTRUCTION => strings[2] = None,
                _ => (strings[1], strings[2]) = (None, None),
            }
            let first = r.first_attr as usize;
            Seen {
                kind: r.kind,
                span: (r.start as usize, r.end as usize),
                strings,
                flags: r.flags,
                attrs: attrs[first..first + r.n_attrs as usize]
                    .iter()
                    .map(|a| {
                        (
                            records.string(input, a.name_off, a.name_len).to_owned(),
                            records.string(input, a.value_off, a.value_len).to_owned(),
                            a.name_start as usize,
                            a.value_start as usize,
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}

/// `next_token`'s tokens (switched when `switch`), and the errors.
fn pulled<E: ErrorPolicy, A: AttributePolicy>(
    mut tok: Tokenizer<'_, E, A>,
    switch: bool,
) -> (Vec<Seen>, Vec<record::ErrRec>) {
    let mut out = Vec::new();
    loop {
        let state = {
            let Some(token) = tok.next_token() else { break };
            out.extend(seen(&token));
            naive_switch(&token).filter(|_| switch)
        };
        if let Some(state) = state {
            tok.set_state(state);
        }
    }
    (out, tok.errors().iter().map(record::err_rec).collect())
}

/// The records of the same tokenizer (switched the same way, through
/// `record_with`; else by `record`), and the tokenizer's errors.
fn recorded<E: ErrorPolicy, A: AttributePolicy>(
    records: &mut Records,
    mut tok: Tokenizer<'_, E, A>,
    switch: bool,
) -> (Vec<Seen>, Vec<record::ErrRec>) {
    if switch {
        records
            .record_with(&mut tok, |token| match naive_switch(&token) {
                Some(state) => Flow::Switch(state),
                None => Flow::Continue,
            })
            .expect("a small input");
    } else {
        records.record(&mut tok).expect("a small input");
    }
    check_bytes(records);
    check_saved(records, tok.input());
    // Nothing is left to hand out.
    assert!(tok.next_token().is_none());
    (
        read(records, tok.input()),
        tok.errors().iter().map(record::err_rec).collect(),
    )
}

/// The records as bytes and back are the records.
fn check_bytes(records: &Records) {
    let bytes = records.token_bytes();
    assert_eq!(bytes.len(), records.tokens().len() * 44);
    let back: Vec<TokenRecord> = bytes
        .chunks_exact(size_of::<TokenRecord>())
        .map(bytemuck::pod_read_unaligned)
        .collect();
    assert_eq!(back, records.tokens());
    let attrs = records.attribute_bytes();
    assert_eq!(attrs.len(), records.attributes().len() * 24);
    let back: Vec<AttributeRecord> = attrs
        .chunks_exact(size_of::<AttributeRecord>())
        .map(bytemuck::pod_read_unaligned)
        .collect();
    assert_eq!(back, records.attributes());
}

/// The records saved with their strings and read back from a buffer that
/// starts one byte past an allocation's start (no alignment), by record
/// and by string, and copied into records of their own, are the records.
fn check_saved(records: &Records, input: &str) {
    let saved = records.to_bytes(input);
    let mut written = Vec::new();
    records.write_to(input, &mut written).unwrap();
    assert_eq!(written, saved);
    let mut unaligned = vec![0xAA];
    unaligned.extend_from_slice(&saved);
    unaligned.extend_from_slice(b"more");
    let back = SavedRecords::read(&unaligned[1..]).unwrap();
    assert_eq!(back.byte_len(), saved.len());
    assert_eq!(back.tokens().collect::<Vec<_>>(), records.tokens());
    assert_eq!(back.attributes().collect::<Vec<_>>(), records.attributes());
    assert_eq!((back.input(), back.side()), (input, records.side()));
    for (i, t) in records.tokens().iter().enumerate() {
        assert_eq!(back.token(i), Some(*t));
        for (off, len) in [
            (t.s0_off, t.s0_len),
            (t.s1_off, t.s1_len),
            (t.s2_off, t.s2_len),
        ] {
            assert_eq!(back.string(off, len), records.string(input, off, len));
        }
        let attrs = &records.attributes()[t.first_attr as usize..][..t.n_attrs as usize];
        assert_eq!(back.attributes_of(t).collect::<Vec<_>>(), attrs);
    }
    assert_eq!(back.token(records.tokens().len()), None);
    let copy = back.to_records();
    assert_eq!(read(&copy, back.input()), read(records, input));
}

/// Compares records and `next_token` for one input and configuration,
/// errors off and on, attributes kept and skipped; a difference is pushed
/// to `failures`.
fn compare(
    records: &mut Records,
    label: &str,
    input: &[u8],
    config: &Config,
    switch: bool,
    failures: &mut Vec<String>,
) {
    let make = || Input::from_utf8_lossy(input);
    let runs = [
        (
            Errors::Off,
            pulled(Tokenizer::with_config(make(), config.clone()), switch),
            recorded(
                records,
                Tokenizer::with_config(make(), config.clone()),
                switch,
            ),
        ),
        (
            Errors::On,
            pulled(
                Tokenizer::with_config(make(), config.clone().report_errors()),
                switch,
            ),
            recorded(
                records,
                Tokenizer::with_config(make(), config.clone().report_errors()),
                switch,
            ),
        ),
        (
            Errors::SkipAttributes,
            pulled(
                Tokenizer::with_config(make(), config.clone().skip_attributes()),
                switch,
            ),
            recorded(
                records,
                Tokenizer::with_config(make(), config.clone().skip_attributes()),
                switch,
            ),
        ),
    ];
    for (errors, want, got) in runs {
        if want != got {
            let at = want
                .0
                .iter()
                .zip(&got.0)
                .position(|(a, b)| a != b)
                .unwrap_or(want.0.len().min(got.0.len()));
            failures.push(format!(
                "{label} ({errors:?}): token {at}: next_token {:?}, records {:?}; errors equal: {}",
                want.0.get(at),
                got.0.get(at),
                want.1 == got.1
            ));
        }
    }
}

#[test]
fn html5lib_inputs_every_initial_state() {
    let (cases, _) = data::html5lib_cases();
    let mut records = Records::new();
    let mut failures = Vec::new();
    let mut runs = 0;
    for case in &cases {
        for &state in &case.states {
            runs += 1;
            let label = format!("{} in {state:?}", case.label);
            let config = case.driven_config(state);
            compare(
                &mut records,
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
    let mut records = Records::new();
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
                &mut records,
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
        pages.len() * configs.len() * 3,
        &failures,
    );
}

/// Rewritten strings of every kind are in the side string, and the tokens
/// still match.
#[test]
fn rewritten_strings_of_every_kind() {
    let page = "<!DOCTYPE HTML PUBLIC \"a\0b\" 'c\r\nd'><DIV ID=\"x&amp;y\" \0a=b>t\0&lt;\r\n\
                <!-- c\r --></DIV><?PI d\0?><svg><![CDATA[x\0]]></svg>";
    let config = Config::new().processing_instructions(true);
    let mut records = Records::new();
    let want = pulled(Tokenizer::with_config(page, config.clone()), false);
    let got = recorded(&mut records, Tokenizer::with_config(page, config), false);
    assert_eq!(want, got);
    let in_side = |off: u32, len: u32| len > 0 && off as usize >= page.len();
    let rewritten = records
        .tokens()
        .iter()
        .filter(|r| {
            in_side(r.s0_off, r.s0_len)
                || in_side(r.s1_off, r.s1_len)
                || in_side(r.s2_off, r.s2_len)
        })
        .count();
    // DOCTYPE (name, public id, system id), <div>, the text, the comment,
    // </div>; a processing instruction's data and CDATA keep NUL as it is.
    assert_eq!(rewritten, 5, "{:?}", records.tokens());
    let rewritten_attrs = records
        .attributes()
        .iter()
        .filter(|a| in_side(a.name_off, a.name_len) || in_side(a.value_off, a.value_len))
        .count();
    assert_eq!(rewritten_attrs, 2, "ID=x&amp;y and \\0a=b");
    assert!(records.side().contains("x&y"));
}

/// Records reused after a bigger page hold the same as new ones.
#[test]
fn reuse_forgets_the_previous_page() {
    let pages = data::corpus_pages();
    let (_, big) = pages
        .iter()
        .max_by_key(|(_, b)| b.len())
        .expect("corpus pages");
    let small = "<p a=&amp;>x&lt;</p>";
    let mut reused = Records::new();
    reused
        .record(&mut Tokenizer::new(Input::from_utf8_lossy(big)))
        .unwrap();
    reused.record(&mut Tokenizer::new(small)).unwrap();
    let mut fresh = Records::new();
    fresh.record(&mut Tokenizer::new(small)).unwrap();
    assert_eq!(reused.tokens(), fresh.tokens());
    assert_eq!(reused.attributes(), fresh.attributes());
    assert_eq!(reused.side(), fresh.side());
}

/// Recording goes on from where a tokenizer is, and a `Flow::Stop` stops
/// it where `next_token` goes on.
#[test]
fn partial_recordings() {
    let page = "<a>1</a><b>2</b>";
    let mut tok = Tokenizer::new(page);
    tok.next_token();
    let mut records = Records::new();
    records.record(&mut tok).unwrap();
    let kinds: Vec<u8> = records.tokens().iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        [
            TokenRecord::TEXT,
            TokenRecord::END_TAG,
            TokenRecord::START_TAG,
            TokenRecord::TEXT,
            TokenRecord::END_TAG
        ]
    );

    let mut tok = Tokenizer::new(page);
    records
        .record_with(&mut tok, |token| match token {
            Token::EndTag(_) => Flow::Stop,
            _ => Flow::Continue,
        })
        .unwrap();
    assert_eq!(records.tokens().len(), 3);
    assert!(matches!(tok.next_token(), Some(Token::StartTag(t)) if t.name() == "b"));
}

/// `record_with` hands its callback every token `for_each_token` hands
/// out, the end of the input included, and stopped at any of them leaves
/// the tokenizer where `next_token` goes on with the next (a tag queued
/// behind a text too).
#[test]
fn record_with_hands_every_token_and_stops_anywhere() {
    let page = "<!DOCTYPE html><p class=a>one<!--c-->two</p><br>";
    let mut expected = Vec::new();
    Tokenizer::new(page).for_each_token(|t| expected.push(t.into_owned()));
    let mut records = Records::new();
    let mut seen = Vec::new();
    records
        .record_with(&mut Tokenizer::new(page), |t| seen.push(t.into_owned()))
        .unwrap();
    assert_eq!(seen, expected);
    assert_eq!(records.tokens().len(), expected.len() - 1);
    for stop in 0..expected.len() {
        let mut tok = Tokenizer::new(page);
        let mut n = 0;
        records
            .record_with(&mut tok, |_| {
                n += 1;
                if n > stop {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            })
            .unwrap();
        assert_eq!(records.tokens().len(), (stop + 1).min(expected.len() - 1));
        let rest: Vec<_> = tok.owned().collect();
        assert_eq!(rest, expected[stop + 1..], "stopped at token {stop}");
    }
}

/// Saved records cut anywhere, damaged anywhere or of another version
/// are an error or records whose strings read as `""`, never a panic.
#[test]
fn damaged_saved_records_are_errors_never_panics() {
    let page = "<!DOCTYPE html><p class=a>Fish &amp; chips<img src=x alt='\u{e9}'><!-- c -->";
    let mut records = Records::new();
    records.record(&mut Tokenizer::new(page)).unwrap();
    let saved = records.to_bytes(page);
    for cut in 0..saved.len() {
        let err = SavedRecords::read(&saved[..cut]).unwrap_err();
        if cut < SavedRecords::HEADER_LEN {
            assert_eq!(err, ReadError::NotRecords);
        } else {
            assert_eq!(err, ReadError::Truncated(saved.len() as u64));
        }
    }
    let mut other = saved.clone();
    other[8] = 2;
    assert_eq!(SavedRecords::read(&other), Err(ReadError::Version(2)));
    // The `é`'s first byte, cut from its second: not UTF-8.
    let mut broken = saved.clone();
    let at = saved.len() - records.side().len() - page.len() + page.find('\u{e9}').unwrap();
    broken[at + 1] = b'x';
    assert_eq!(SavedRecords::read(&broken), Err(ReadError::NotUtf8));
    assert!(ReadError::NotUtf8.to_string().contains("UTF-8"));
    // Any one byte of the records changed: whatever they say is read
    // without a panic.
    let records_end = saved.len() - records.side().len() - page.len();
    for at in SavedRecords::HEADER_LEN..records_end {
        for value in [0x00, 0x7F, 0xFF] {
            let mut damaged = saved.clone();
            damaged[at] = value;
            let back = SavedRecords::read(&damaged).unwrap();
            for t in back.tokens() {
                let _ = back.string(t.s0_off, t.s0_len);
                for a in back.attributes_of(&t) {
                    let _ = back.string(a.name_off, a.name_len);
                }
            }
            let _ = back.to_records();
        }
    }
    // A header that promises more than memory holds.
    let mut huge = saved[..SavedRecords::HEADER_LEN].to_vec();
    huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    huge[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(
        matches!(SavedRecords::read(&huge), Err(ReadError::Truncated(n)) if n > u64::from(u32::MAX))
    );
}
