//! `for_each_token` (the callback API, with the machine inlined into the
//! caller's loop) hands out exactly the tokens, spans and errors that
//! `next_token` does: whole documents and streams, standalone and driven
//! (switched the way a tree builder switches, through `Flow::Switch`
//! against `set_state`), errors on and off, and when the callback stops
//! early and the caller resumes either way.
//!
//! Inputs: every page of the corpus and every html5lib-tests input.

use htmltok::{Config, Flow, Input, State, StreamTokenizer, Token, Tokenizer};
use testkit::drive::{naive_switch, Errors};
use testkit::record::{diff, Normalizer, Output};
use testkit::{compare, data, record};

const BETWEEN: &str = "for_each_token and next_token";

/// How tokens are taken: all with `next_token`; all with the callback; or
/// with the callback stopping after every `n`th token, the caller then
/// resuming alternately with one `next_token` and the callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Pull,
    All,
    StopEvery(usize),
}

/// The tokens of `bytes` taken as `run` says (`switch`: driven, with the
/// naive switches).
fn taken(bytes: &[u8], config: &Config, errors: Errors, switch: bool, run: Run) -> Output {
    let mut norm = Normalizer::new(false);
    macro_rules! run {
        ($tok:expr) => {{
            let mut tok = $tok;
            let mut seen = 0usize;
            let mut pull_next = run == Run::Pull;
            loop {
                if pull_next {
                    let state = {
                        let Some(token) = tok.next_token() else { break };
                        norm.push(&token);
                        naive_switch(&token).filter(|_| switch)
                    };
                    if let Some(state) = state {
                        tok.set_state(state);
                    }
                    if run == Run::Pull {
                        continue;
                    }
                }
                let mut stopped = false;
                // `Flow::Stop` carries no switch: a token that stops the
                // callback and asks for one leaves it to the caller.
                let mut pending = None;
                tok.for_each_token(|token| {
                    norm.push(&token);
                    seen += 1;
                    let state = naive_switch(&token).filter(|_| switch);
                    if let Run::StopEvery(n) = run {
                        if seen % n == 0 {
                            stopped = true;
                            pending = state;
                            return Flow::Stop;
                        }
                    }
                    match state {
                        Some(state) => Flow::Switch(state),
                        None => Flow::Continue,
                    }
                });
                if let Some(state) = pending {
                    tok.set_state(state);
                }
                if !stopped {
                    break;
                }
                pull_next = !pull_next;
            }
            if tok.next_token().is_some() {
                norm.anomalies.push("token after the end".to_owned());
            }
            tok.errors().iter().map(record::err_rec).collect()
        }};
    }
    let errors = match errors {
        Errors::On => run!(Tokenizer::with_config(
            Input::from_utf8_lossy(bytes),
            config.clone().report_errors()
        )),
        Errors::Off => run!(Tokenizer::with_config(
            Input::from_utf8_lossy(bytes),
            config.clone()
        )),
        Errors::SkipAttributes => run!(Tokenizer::with_config(
            Input::from_utf8_lossy(bytes),
            config.clone().skip_attributes()
        )),
    };
    assert!(norm.anomalies.is_empty(), "{:?}", norm.anomalies);
    Output {
        tokens: norm.tokens,
        errors,
    }
}

/// A stream fed `chunk`-byte chunks, tokens taken with `next_token` or
/// with `for_each_token` after each chunk.
fn streamed(bytes: &[u8], config: &Config, driven: bool, chunk: usize, callback: bool) -> Output {
    let mut norm = Normalizer::new(false);
    let mut stream = StreamTokenizer::with_config(config.clone().report_errors());
    let take = |stream: &mut StreamTokenizer<htmltok::ReportErrors>, norm: &mut Normalizer| {
        if callback {
            stream.for_each_token(|token| {
                norm.push(&token);
                match naive_switch(&token).filter(|_| driven) {
                    Some(state) => Flow::Switch(state),
                    None => Flow::Continue,
                }
            });
        } else {
            loop {
                let state = {
                    let Some(token) = stream.next_token() else {
                        break;
                    };
                    norm.push(&token);
                    naive_switch(&token).filter(|_| driven)
                };
                if let Some(state) = state {
                    stream.set_state(state);
                }
            }
        }
    };
    for piece in bytes.chunks(chunk.max(1)) {
        stream.feed(piece);
        take(&mut stream, &mut norm);
    }
    stream.finish();
    take(&mut stream, &mut norm);
    assert!(norm.anomalies.is_empty(), "{:?}", norm.anomalies);
    Output {
        tokens: norm.tokens,
        errors: stream.errors().iter().map(record::err_rec).collect(),
    }
}

/// Standalone, and driven with a tree builder's switches.
fn configs() -> Vec<(String, Config, bool)> {
    vec![
        ("standalone".to_owned(), Config::new(), false),
        ("driven".to_owned(), Config::new().driven(true), true),
    ]
}

fn compare_all(
    name: &str,
    bytes: &[u8],
    configs: &[(String, Config, bool)],
    runs: &mut usize,
    failures: &mut Vec<String>,
) {
    for (label, config, switch) in configs {
        for errors in [Errors::Off, Errors::On] {
            let expected = taken(bytes, config, errors, *switch, Run::Pull);
            for run in [Run::All, Run::StopEvery(1), Run::StopEvery(7)] {
                *runs += 1;
                let got = taken(bytes, config, errors, *switch, run);
                if let Some(d) = diff(&expected, &got) {
                    failures.push(format!("{name} ({label}, {errors:?}, {run:?}): {d}"));
                }
            }
        }
    }
}

#[test]
fn corpus_pages() {
    let pages = data::corpus_pages();
    assert!(!pages.is_empty(), "no corpus pages");
    let mut runs = 0;
    let mut failures = Vec::new();
    let configs = configs();
    for (name, bytes) in &pages {
        compare_all(name, bytes, &configs, &mut runs, &mut failures);
    }
    compare::report(BETWEEN, "corpus", runs, &failures);
}

#[test]
fn html5lib_inputs() {
    let (cases, _) = data::html5lib_cases();
    let mut runs = 0;
    let mut failures = Vec::new();
    for case in &cases {
        // Standalone, and driven in each of the test's initial states.
        let mut configs = vec![("standalone".to_owned(), Config::new(), false)];
        for &state in &case.states {
            configs.push((format!("{state:?}"), case.driven_config(state), false));
        }
        compare_all(
            &case.label,
            case.input.as_bytes(),
            &configs,
            &mut runs,
            &mut failures,
        );
    }
    compare::report(BETWEEN, "html5lib", runs, &failures);
}

#[test]
fn streams_in_chunks() {
    let pages = data::corpus_pages();
    let mut runs = 0;
    let mut failures = Vec::new();
    for (name, bytes) in &pages {
        for (label, config, switch) in configs() {
            for chunk in [64 * 1024, 4096, 97] {
                runs += 1;
                let expected = streamed(bytes, &config, switch, chunk, false);
                let got = streamed(bytes, &config, switch, chunk, true);
                if let Some(d) = diff(&expected, &got) {
                    failures.push(format!("{name} ({label}, {chunk}-byte chunks): {d}"));
                }
            }
        }
    }
    compare::report(BETWEEN, "streams", runs, &failures);
}

/// `Flow::Switch` is `set_state`: an RCDATA title in driven mode.
#[test]
fn switch_changes_the_state() {
    let mut tok = Tokenizer::with_config("<title><b>&amp;</title>", Config::new().driven(true));
    let mut texts = Vec::new();
    tok.for_each_token(|token| match token {
        Token::StartTag(_) => Flow::Switch(State::Rcdata),
        Token::Text(t) => {
            texts.push(t.as_str().to_owned());
            Flow::Continue
        }
        _ => Flow::Continue,
    });
    assert_eq!(texts, ["<b>&"]);
}
