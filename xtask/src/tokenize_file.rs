//! Tokenizes each file given once with the whole-document API (default
//! configuration, parse errors off, or on with `--errors`) and prints its
//! size and token count.
//! Made for instruction counts of the tokenizer alone, without reading the
//! file or starting the process:
//!
//! ```text
//! cargo build --profile profiling -p xtask
//! valgrind --tool=callgrind --toggle-collect=htmltok_tokenize_file \
//!     --callgrind-out-file=/tmp/callgrind.out \
//!     target/profiling/xtask tokenize-file corpus/pages/article.html
//! callgrind_annotate /tmp/callgrind.out | head -30
//! ```
//!
//! The `profiling` profile is the release build with line tables (the
//! workspace's `Cargo.toml`), so the counts are those of the release code.
//!
//! The `PROGRAM TOTALS` of `callgrind_annotate` are then the instructions of
//! the tokenize call alone (`--toggle-collect` counts only while that
//! function runs); divide by the byte count printed for instructions per
//! byte. One-time set-up (the named character reference matcher, built on
//! first use) happens in an uncounted warm-up call before it. Given several
//! files (e.g. `corpus/pages/*.html`), it tokenizes each and prints the
//! total bytes; with `--errors`, collect with
//! `--toggle-collect=htmltok_tokenize_file_with_errors`; with `--stream`
//! (a `StreamTokenizer` fed 64 KiB chunks, or `--chunk N` bytes), with
//! `--toggle-collect=htmltok_tokenize_file_streaming`; with `--callback`
//! (`Tokenizer::for_each_token`), with
//! `--toggle-collect=htmltok_tokenize_file_callback`; with `--records`
//! (the tokens recorded on a [`Records`] reused across the files, then
//! every record read, the same strings' lengths summed), with
//! `--toggle-collect=htmltok_tokenize_file_records`, or the recording
//! alone with `--toggle-collect=htmltok_tokenize_file_recorded`. A driven
//! tokenizer, switched after the start tags a naive tree builder switches
//! at (as the bench's engines are): `--driven` (a `next_token` loop,
//! `--toggle-collect=htmltok_tokenize_file_driven`) and `--records-with`
//! (`Records::record_with`, then every record read,
//! `--toggle-collect=htmltok_tokenize_file_records_with`; the recording
//! alone, `--toggle-collect=htmltok_tokenize_file_recorded_with`); and
//! `--driven-fields`, the `--driven` loop looking at every field a record
//! holds (`--toggle-collect=htmltok_tokenize_file_driven_fields`): the
//! loop the recording is compared with.

use std::ffi::OsString;
use std::hint::black_box;
use std::process::ExitCode;

use htmltok::records::{Records, TokenRecord};
use htmltok::{Config, Flow, Input, StreamTokenizer, Token, Tokenizer};
use htmltok_readout::observe::{fields, naive_switch};

/// The measured call: tokenizes `bytes`, looking at every token and
/// attribute. Returns the number of tokens and a sum of string lengths.
/// Unmangled, so that `--toggle-collect` can name it.
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file(bytes: &[u8]) -> (usize, usize) {
    let mut tok = Tokenizer::new(Input::from_utf8_lossy(bytes));
    let mut tokens = 0usize;
    let mut sum = 0usize;
    while let Some(token) = tok.next_token() {
        tokens += 1;
        sum += observe(&token);
    }
    (tokens, sum)
}

/// The same work through a [`StreamTokenizer`] fed chunks of `chunk`
/// bytes (`--stream`, 64 KiB unless `--chunk N` says otherwise;
/// `--toggle-collect=htmltok_tokenize_file_streaming`).
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_streaming(bytes: &[u8], chunk: usize) -> (usize, usize) {
    let mut tok = StreamTokenizer::new();
    let mut tokens = 0usize;
    let mut sum = 0usize;
    for chunk in bytes.chunks(chunk) {
        tok.feed(chunk);
        while let Some(token) = tok.next_token() {
            tokens += 1;
            sum += observe(&token);
        }
    }
    tok.finish();
    while let Some(token) = tok.next_token() {
        tokens += 1;
        sum += observe(&token);
    }
    (tokens, sum)
}

/// The same through the callback API, `for_each_token` (`--callback`,
/// `--toggle-collect=htmltok_tokenize_file_callback`).
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_callback(bytes: &[u8]) -> (usize, usize) {
    let mut tok = Tokenizer::new(Input::from_utf8_lossy(bytes));
    let mut tokens = 0usize;
    let mut sum = 0usize;
    tok.for_each_token(|token| {
        tokens += 1;
        sum += observe(&token);
        Flow::Continue
    });
    (tokens, sum)
}

/// The same as records (`--records`,
/// `--toggle-collect=htmltok_tokenize_file_records`): the tokens recorded,
/// then every record read, the same strings' lengths summed. The records
/// are reused across files, as a batch consumer keeps them.
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_records(records: &mut Records, bytes: &[u8]) -> (usize, usize) {
    if !htmltok_tokenize_file_recorded(records, bytes) {
        return (0, 0);
    }
    read_records(records)
}

/// Reads every record: the same strings' lengths summed as `observe` sums.
#[inline(always)]
fn read_records(records: &Records) -> (usize, usize) {
    let attrs = records.attributes();
    let mut sum = 0usize;
    for r in records.tokens() {
        sum += match r.kind {
            TokenRecord::START_TAG => {
                let first = r.first_attr as usize;
                let mut n = r.s0_len as usize;
                for a in &attrs[first..first + r.n_attrs as usize] {
                    n += (a.name_len + a.value_len) as usize;
                }
                n
            }
            TokenRecord::END_TAG | TokenRecord::TEXT | TokenRecord::COMMENT => r.s0_len as usize,
            _ => 0,
        };
    }
    // The end of the input, which a `next_token` loop counts as a token.
    (records.tokens().len() + 1, sum)
}

/// The recording alone (`--records`, also collected with
/// `--toggle-collect=htmltok_tokenize_file_recorded`): what the records
/// cost before anything reads them.
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_recorded(records: &mut Records, bytes: &[u8]) -> bool {
    records
        .record(&mut Tokenizer::new(Input::from_utf8_lossy(bytes)))
        .is_ok()
}

/// A driven tokenizer's `next_token` loop, switched by `naive_switch`,
/// every string read (`--driven`,
/// `--toggle-collect=htmltok_tokenize_file_driven`).
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_driven(bytes: &[u8]) -> (usize, usize) {
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(bytes), Config::new().driven(true));
    let mut tokens = 0usize;
    let mut sum = 0usize;
    loop {
        let switch = {
            let Some(token) = tok.next_token() else { break };
            tokens += 1;
            sum += observe(&token);
            match &token {
                Token::StartTag(tag) => naive_switch(tag.name()),
                _ => None,
            }
        };
        if let Some((state, name)) = switch {
            tok.set_state(state);
            tok.set_last_start_tag(Some(name));
        }
    }
    (tokens, sum)
}

/// `--driven`'s loop looking at every field a record holds
/// (`observe::fields`): what the recording is compared with
/// (`--driven-fields`, `--toggle-collect=htmltok_tokenize_file_driven_fields`).
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_driven_fields(bytes: &[u8]) -> (usize, usize) {
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(bytes), Config::new().driven(true));
    let mut tokens = 0usize;
    let mut sum = 0usize;
    loop {
        let switch = {
            let Some(token) = tok.next_token() else { break };
            tokens += 1;
            sum = sum.wrapping_add(fields(&token));
            match &token {
                Token::StartTag(tag) => naive_switch(tag.name()),
                _ => None,
            }
        };
        if let Some((state, name)) = switch {
            tok.set_state(state);
            tok.set_last_start_tag(Some(name));
        }
    }
    (tokens, sum)
}

/// The same as records (`--records-with`,
/// `--toggle-collect=htmltok_tokenize_file_records_with`): recorded by
/// `record_with`, then every record read as `htmltok_tokenize_file_records`
/// reads them.
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_records_with(records: &mut Records, bytes: &[u8]) -> (usize, usize) {
    if !htmltok_tokenize_file_recorded_with(records, bytes) {
        return (0, 0);
    }
    read_records(records)
}

/// The recording of `--records-with` alone
/// (`--toggle-collect=htmltok_tokenize_file_recorded_with`).
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_recorded_with(records: &mut Records, bytes: &[u8]) -> bool {
    let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(bytes), Config::new().driven(true));
    records
        .record_with(&mut tok, |token| match token {
            Token::StartTag(tag) => match naive_switch(tag.name()) {
                Some((state, _)) => Flow::Switch(state),
                None => Flow::Continue,
            },
            _ => Flow::Continue,
        })
        .is_ok()
}

/// What the measured calls do with a token: read every string of it.
#[inline(always)]
fn observe(token: &Token<'_>) -> usize {
    match token {
        Token::StartTag(tag) => {
            let mut n = tag.name().len();
            for attr in tag.attributes() {
                n += attr.name().len() + attr.value().len();
            }
            n
        }
        Token::EndTag(tag) => tag.name().len(),
        Token::Text(text) => text.as_str().len(),
        Token::Comment(comment) => comment.as_str().len(),
        _ => 0,
    }
}

/// The same with parse errors collected (`--errors`); returns the number
/// of tokens and of errors.
#[no_mangle]
#[inline(never)]
pub fn htmltok_tokenize_file_with_errors(bytes: &[u8]) -> (usize, usize) {
    let mut tok =
        Tokenizer::with_config(Input::from_utf8_lossy(bytes), Config::new().report_errors());
    let mut tokens = 0usize;
    while let Some(token) = tok.next_token() {
        tokens += 1;
        black_box(&token);
    }
    (tokens, tok.errors().len())
}

/// Tokenizes a tiny document with character references in text and in an
/// attribute value.
#[inline(never)]
fn warm_up() {
    let mut tok = Tokenizer::new("<p title='&amp;&copy'>&lt;&notin;&#65;</p>");
    while tok.next_token().is_some() {}
}

/// `cargo xtask tokenize-file [--errors | --stream [--chunk N] | --callback | --records | --driven | --records-with | --driven-fields] FILE...`.
pub fn main(args: &[OsString]) -> ExitCode {
    let errors = args.iter().any(|a| a == "--errors");
    let stream = args.iter().any(|a| a == "--stream");
    let callback = args.iter().any(|a| a == "--callback");
    let recording = args.iter().any(|a| a == "--records");
    let driven = args.iter().any(|a| a == "--driven");
    let recording_with = args.iter().any(|a| a == "--records-with");
    let driven_fields = args.iter().any(|a| a == "--driven-fields");
    const MODES: [&str; 7] = [
        "--errors",
        "--stream",
        "--callback",
        "--records",
        "--driven",
        "--records-with",
        "--driven-fields",
    ];
    // `--chunk N`: the stream's chunk size.
    let chunk_at = args.iter().position(|a| a == "--chunk");
    let chunk = match chunk_at {
        None => 64 * 1024,
        Some(i) => match args.get(i + 1).and_then(|n| n.to_str()?.parse().ok()) {
            Some(n) if n > 0 && stream => n,
            _ => {
                eprintln!("tokenize-file: --chunk takes a positive size, with --stream");
                return ExitCode::from(2);
            }
        },
    };
    let paths: Vec<_> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| {
            !MODES.contains(&a.to_str().unwrap_or(""))
                && chunk_at.is_none_or(|c| i != c && i != c + 1)
        })
        .map(|(_, a)| a)
        .collect();
    let modes = [
        errors,
        stream,
        callback,
        recording,
        driven,
        recording_with,
        driven_fields,
    ]
    .into_iter()
    .filter(|&m| m)
    .count();
    if paths.is_empty() || modes > 1 {
        eprintln!(
            "usage: cargo xtask tokenize-file [{}] [--chunk N] FILE...",
            MODES.join(" | ")
        );
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for path in paths {
        match std::fs::read(path) {
            Ok(bytes) => files.push((path, bytes)),
            Err(e) => {
                eprintln!("tokenize-file: cannot read {}: {e}", path.to_string_lossy());
                return ExitCode::from(2);
            }
        }
    }
    // Outside the measured call: builds what the tokenizer builds once per
    // process (the named character reference matcher), so the count is the
    // steady state a long-running crawler sees.
    warm_up();
    let mut records = Records::new();
    let mut total = 0;
    for (path, bytes) in &files {
        total += bytes.len();
        if errors {
            let (tokens, errors) = htmltok_tokenize_file_with_errors(black_box(bytes));
            println!(
                "{}: {} bytes, {tokens} tokens, {errors} parse errors",
                path.to_string_lossy(),
                bytes.len()
            );
        } else {
            let (tokens, sum) = if stream {
                htmltok_tokenize_file_streaming(black_box(bytes), chunk)
            } else if recording {
                htmltok_tokenize_file_records(&mut records, black_box(bytes))
            } else if recording_with {
                htmltok_tokenize_file_records_with(&mut records, black_box(bytes))
            } else if driven {
                htmltok_tokenize_file_driven(black_box(bytes))
            } else if driven_fields {
                htmltok_tokenize_file_driven_fields(black_box(bytes))
            } else if callback {
                htmltok_tokenize_file_callback(black_box(bytes))
            } else {
                htmltok_tokenize_file(black_box(bytes))
            };
            println!(
                "{}: {} bytes, {tokens} tokens (checksum {sum})",
                path.to_string_lossy(),
                bytes.len()
            );
        }
    }
    if files.len() > 1 {
        println!("total: {total} bytes in {} files", files.len());
    }
    ExitCode::SUCCESS
}
