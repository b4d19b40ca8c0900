//! Drivers that run the whole-document and the streaming tokenizer over
//! bytes and reduce what they give to an [`Output`], noting protocol
//! violations (tokens after Eof or after `None`, Eof before `finish`, empty
//! text, a stream that takes bytes after `finish`) as anomalies.

use htmltok::{
    AttributePolicy, Config, ErrorPolicy, Input, LineIndex, OwnedToken, State, StreamTokenizer,
    Token, Tokenizer,
};

use crate::record::{diff, err_rec, ErrRec, Normalizer, Output, Rec};

/// Whether parse errors are collected (the two compile-time error policies
/// are separate code paths, so both are exercised).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errors {
    On,
    Off,
    /// Off, and tags handed out without their attributes, which the
    /// tokenizer steps over (`htmltok::__fuzz::SkipAttributes`, as
    /// `extract::text` tokenizes).
    SkipAttributes,
}

impl From<bool> for Errors {
    fn from(on: bool) -> Errors {
        if on {
            Errors::On
        } else {
            Errors::Off
        }
    }
}

/// A parse error as (the standard's code, line, column), as html5lib-tests
/// counts positions.
pub type CodeAt = (&'static str, usize, usize);

/// Tokenizes `input` with errors on; returns the tokens as `OwnedToken`s
/// (adjacent text joined, the final Eof checked and dropped) and the errors
/// with their positions. Panics on a token after Eof or a missing Eof.
pub fn owned_with_errors(input: &str, config: Config) -> (Vec<OwnedToken>, Vec<CodeAt>) {
    let mut tok = Tokenizer::with_config(input, config.report_errors());
    let mut tokens: Vec<OwnedToken> = Vec::new();
    let mut eof = false;
    while let Some(token) = tok.next_token() {
        assert!(!eof, "token after EOF for {input:?}");
        match token.into_owned() {
            OwnedToken::Text(s) => match tokens.last_mut() {
                Some(OwnedToken::Text(prev)) => prev.push_str(&s),
                _ => tokens.push(OwnedToken::Text(s)),
            },
            OwnedToken::Eof => eof = true,
            other => tokens.push(other),
        }
    }
    assert!(eof, "no EOF token for {input:?}");
    let mut lines = LineIndex::new(tok.input());
    let errors = tok
        .errors()
        .iter()
        .map(|e| {
            let at = lines.line_col(e.span.start);
            (e.code.as_str(), at.line, at.col)
        })
        .collect();
    (tokens, errors)
}

/// Tokenizes `bytes` as one document, adjacent text joined.
pub fn whole(bytes: &[u8], config: &Config, errors: Errors) -> (Output, Vec<String>) {
    whole_with(bytes, config, errors, true)
}

/// [`whole`], joining adjacent text only with `join`.
pub fn whole_with(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    join: bool,
) -> (Output, Vec<String>) {
    let mut norm = Normalizer::new(join);
    let errs = match errors {
        Errors::On => drain_whole(
            Tokenizer::with_config(
                Input::from_utf8_lossy(bytes),
                config.clone().report_errors(),
            ),
            &mut norm,
        ),
        Errors::Off => drain_whole(
            Tokenizer::with_config(Input::from_utf8_lossy(bytes), config.clone()),
            &mut norm,
        ),
        Errors::SkipAttributes => drain_whole(
            Tokenizer::with_config(
                Input::from_utf8_lossy(bytes),
                config.clone().skip_attributes(),
            ),
            &mut norm,
        ),
    };
    if norm.tokens.last() != Some(&Rec::Eof) {
        norm.anomalies
            .push("whole: last token is not Eof".to_owned());
    }
    (
        Output {
            tokens: norm.tokens,
            errors: errs,
        },
        norm.anomalies,
    )
}

fn drain_whole<E: ErrorPolicy, A: AttributePolicy>(
    mut tok: Tokenizer<'_, E, A>,
    norm: &mut Normalizer,
) -> Vec<ErrRec> {
    while let Some(t) = tok.next_token() {
        norm.push(&t);
    }
    if tok.next_token().is_some() {
        norm.anomalies.push("whole: token after None".to_owned());
    }
    tok.errors().iter().map(err_rec).collect()
}

/// Tokenizes `bytes` through a [`StreamTokenizer`], cut at `splits`
/// (sorted offsets; duplicates make empty chunks), adjacent text joined.
/// With `take`, errors are taken with `take_errors` after every chunk (as a
/// long-running stream would) instead of read at the end.
pub fn streamed(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
) -> (Output, Vec<String>) {
    streamed_with(bytes, config, errors, splits, take, true)
}

/// [`streamed`], joining adjacent text only with `join`.
pub fn streamed_with(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
    join: bool,
) -> (Output, Vec<String>) {
    let mut norm = Normalizer::new(join);
    let errs = match errors {
        Errors::On => drain_stream(
            &mut StreamTokenizer::with_config(config.clone().report_errors()),
            bytes,
            splits,
            take,
            &mut norm,
        ),
        Errors::Off => drain_stream(
            &mut StreamTokenizer::with_config(config.clone()),
            bytes,
            splits,
            take,
            &mut norm,
        ),
        Errors::SkipAttributes => drain_stream(
            &mut StreamTokenizer::with_config(config.clone().skip_attributes()),
            bytes,
            splits,
            take,
            &mut norm,
        ),
    };
    if norm.tokens.last() != Some(&Rec::Eof) {
        norm.anomalies
            .push("stream: last token is not Eof".to_owned());
    }
    (
        Output {
            tokens: norm.tokens,
            errors: errs,
        },
        norm.anomalies,
    )
}

/// Feeds `stream` the chunks of `bytes` ending at `splits`, then finishes
/// it, pushing every token into `norm`; returns the errors (taken after
/// every chunk with `take`, else read at the end). Also for streams built
/// otherwise (a decoding stream).
pub fn drain_stream<E: ErrorPolicy, A: AttributePolicy>(
    stream: &mut StreamTokenizer<E, A>,
    bytes: &[u8],
    splits: &[usize],
    take: bool,
    norm: &mut Normalizer,
) -> Vec<ErrRec> {
    let mut errs: Vec<ErrRec> = Vec::new();
    let mut prev = 0;
    for &p in splits.iter().chain(std::iter::once(&bytes.len())) {
        let p = p.clamp(prev, bytes.len());
        stream.feed(&bytes[prev..p]);
        prev = p;
        while let Some(t) = stream.next_token() {
            if matches!(t, Token::Eof) {
                norm.anomalies
                    .push(format!("stream: Eof before finish (after byte {p})"));
            }
            norm.push(&t);
        }
        if take {
            errs.extend(stream.take_errors().iter().map(err_rec));
        }
    }
    stream.finish();
    while let Some(t) = stream.next_token() {
        norm.push(&t);
    }
    if stream.next_token().is_some() {
        norm.anomalies.push("stream: token after None".to_owned());
    }
    // Feeding after finish must do nothing.
    stream.feed(b"<p>x");
    if stream.next_token().is_some() {
        norm.anomalies
            .push("stream: token after feed-after-finish".to_owned());
    }
    if take {
        errs.extend(stream.take_errors().iter().map(err_rec));
    } else {
        errs.extend(stream.errors().iter().map(err_rec));
    }
    errs
}

/// One chunk-invariance check: `None` when the streamed run (cut at
/// `splits`) equals the whole-document run and neither shows an anomaly;
/// otherwise a description. Panics inside the tokenizer count as failures.
pub fn check(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
) -> Option<String> {
    check_with(bytes, config, errors, splits, take, true)
}

/// [`check`], joining adjacent text only with `join`.
pub fn check_with(
    bytes: &[u8],
    config: &Config,
    errors: Errors,
    splits: &[usize],
    take: bool,
    join: bool,
) -> Option<String> {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (w, wa) = whole_with(bytes, config, errors, join);
        let (s, sa) = streamed_with(bytes, config, errors, splits, take, join);
        if !wa.is_empty() || !sa.is_empty() {
            return Some(format!("anomalies: whole {wa:?}, streamed {sa:?}"));
        }
        diff(&w, &s).map(|d| format!("a: whole document, b: stream\n{d}"))
    }));
    match run {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Some(format!("panic: {msg}"))
        }
    }
}

/// The switch a naive tree builder makes after a start tag (what the
/// driven comparisons of `for_each_token` and the records apply).
pub fn naive_switch(token: &Token<'_>) -> Option<State> {
    let Token::StartTag(tag) = token else {
        return None;
    };
    Some(match tag.name() {
        "script" => State::ScriptData,
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
        "title" | "textarea" => State::Rcdata,
        "plaintext" => State::Plaintext,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_cut_anywhere_matches_the_whole_document() {
        let page = b"<p class=a>one &amp; two</p><!-- c --><script>x<y</script>";
        for errors in [Errors::On, Errors::Off] {
            for cut in 0..=page.len() {
                assert_eq!(check(page, &Config::new(), errors, &[cut], true), None);
            }
        }
    }

    #[test]
    fn the_check_sees_a_difference() {
        // A stream that misses its last chunk (split beyond the end is
        // clamped, so cut the bytes instead) differs from the whole page.
        let (w, _) = whole(b"<p>ab", &Config::new(), Errors::On);
        let (s, _) = streamed(b"<p>a", &Config::new(), Errors::On, &[], true);
        assert!(diff(&w, &s).is_some());
    }
}
