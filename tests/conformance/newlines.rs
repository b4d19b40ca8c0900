//! CR and CRLF, which the standard's input stream turns into LF before
//! tokenizing, in every place the tokenizer takes them in bulk: text runs,
//! comments, quoted attribute values and DOCTYPE identifiers keep a newline;
//! between attributes and after names they are whitespace. Expected tokens
//! are written from the standard; each input also goes through a stream at
//! every chunk size from 1 byte, so a CR cut from its LF by a chunk
//! boundary is covered.

use htmltok::{OwnedToken, StreamTokenizer, Tokenizer};

fn whole(input: &str) -> Vec<OwnedToken> {
    Tokenizer::new(input).owned().collect()
}

/// Adjacent text tokens joined (a stream may cut a text run anywhere).
fn joined(tokens: Vec<OwnedToken>) -> Vec<OwnedToken> {
    let mut out: Vec<OwnedToken> = Vec::new();
    for t in tokens {
        match (out.last_mut(), t) {
            (Some(OwnedToken::Text(prev)), OwnedToken::Text(more)) => prev.push_str(&more),
            (_, t) => out.push(t),
        }
    }
    out
}

fn streamed(input: &str, chunk: usize) -> Vec<OwnedToken> {
    let mut tok = StreamTokenizer::new();
    let mut out = Vec::new();
    for piece in input.as_bytes().chunks(chunk) {
        tok.feed(piece);
        while let Some(t) = tok.next_token() {
            out.push(t.into_owned());
        }
    }
    tok.finish();
    while let Some(t) = tok.next_token() {
        out.push(t.into_owned());
    }
    joined(out)
}

fn check(input: &str, expected: &[OwnedToken]) {
    assert_eq!(joined(whole(input)), expected, "whole document: {input:?}");
    for chunk in 1..=input.len() {
        assert_eq!(
            streamed(input, chunk),
            expected,
            "chunks of {chunk}: {input:?}"
        );
    }
}

fn text(s: &str) -> OwnedToken {
    OwnedToken::Text(s.into())
}

fn start(name: &str, attrs: &[(&str, &str)]) -> OwnedToken {
    OwnedToken::StartTag {
        name: name.into(),
        attributes: attrs.iter().map(|&(n, v)| (n.into(), v.into())).collect(),
        self_closing: false,
    }
}

#[test]
fn text_runs_keep_one_newline_per_cr_or_crlf() {
    check(
        "a\r\nb\rc\n\r\r\nd\r",
        &[text("a\nb\nc\n\n\nd\n"), OwnedToken::Eof],
    );
}

#[test]
fn cr_between_attributes_is_whitespace() {
    check(
        "<a\r\nb=1\rc\r\n=\r\n'2'\r\n\rd=\"3\"\r\n>x",
        &[
            start("a", &[("b", "1"), ("c", "2"), ("d", "3")]),
            text("x"),
            OwnedToken::Eof,
        ],
    );
}

#[test]
fn cr_in_quoted_values_is_a_newline() {
    check(
        "<p title='a\r\nb\rc' lang=\"\r\r\n\">",
        &[
            start("p", &[("title", "a\nb\nc"), ("lang", "\n\n")]),
            OwnedToken::Eof,
        ],
    );
}

#[test]
fn cr_in_comments_and_doctype_identifiers_is_a_newline() {
    check(
        "<!--a\r\nb\rc--><!DOCTYPE html PUBLIC \"x\r\ny\" 'z\rw'>",
        &[
            OwnedToken::Comment("a\nb\nc".into()),
            OwnedToken::Doctype {
                name: Some("html".into()),
                public_id: Some("x\ny".into()),
                system_id: Some("z\nw".into()),
                force_quirks: false,
            },
            OwnedToken::Eof,
        ],
    );
}

#[test]
fn cr_in_script_and_rcdata_text_is_a_newline() {
    check(
        "<script>a\r\nb\r</script><textarea>c\rd\r\n</textarea>",
        &[
            start("script", &[]),
            text("a\nb\n"),
            OwnedToken::EndTag {
                name: "script".into(),
            },
            start("textarea", &[]),
            text("c\nd\n"),
            OwnedToken::EndTag {
                name: "textarea".into(),
            },
            OwnedToken::Eof,
        ],
    );
}
