//! Tokens and parse errors reduced to owned, comparable records: one
//! definition of "the same output" for every test and fuzz target that
//! holds one way of tokenizing against another.

use htmltok::{ErrorCode, ParseError, Span, Tag, Token};

/// A byte span as a plain pair.
pub type Sp = (usize, usize);

/// `span` as a pair.
pub fn sp(span: Span) -> Sp {
    (span.start, span.end)
}

/// One attribute: name, value, name span, value span.
pub type AttrRec = (String, String, Sp, Sp);

/// A token reduced to owned data, spans included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rec {
    /// Text; with joining (see [`Normalizer`]), adjacent text tokens are one
    /// record: text concatenated, span first.start..last.end.
    Text {
        text: String,
        span: Sp,
    },
    StartTag {
        name: String,
        attrs: Vec<AttrRec>,
        self_closing: bool,
        span: Sp,
        name_span: Sp,
    },
    EndTag {
        name: String,
        attrs: Vec<AttrRec>,
        self_closing: bool,
        span: Sp,
        name_span: Sp,
    },
    Comment {
        text: String,
        span: Sp,
    },
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
        span: Sp,
    },
    Pi {
        target: String,
        data: String,
        span: Sp,
    },
    Eof,
}

/// `token` as a record (owned strings, spans as pairs).
pub fn rec_of(token: &Token<'_>) -> Rec {
    let attrs = |t: &Tag<'_>| -> Vec<AttrRec> {
        t.attributes()
            .map(|a| {
                (
                    a.name().to_owned(),
                    a.value().to_owned(),
                    sp(a.name_span()),
                    sp(a.value_span()),
                )
            })
            .collect()
    };
    match token {
        Token::Text(t) => Rec::Text {
            text: t.as_str().to_owned(),
            span: sp(t.span()),
        },
        Token::StartTag(t) => Rec::StartTag {
            name: t.name().to_owned(),
            attrs: attrs(t),
            self_closing: t.self_closing(),
            span: sp(t.span()),
            name_span: sp(t.name_span()),
        },
        Token::EndTag(t) => Rec::EndTag {
            name: t.name().to_owned(),
            attrs: attrs(t),
            self_closing: t.self_closing(),
            span: sp(t.span()),
            name_span: sp(t.name_span()),
        },
        Token::Comment(c) => Rec::Comment {
            text: c.as_str().to_owned(),
            span: sp(c.span()),
        },
        Token::Doctype(d) => Rec::Doctype {
            name: d.name().map(str::to_owned),
            public_id: d.public_id().map(str::to_owned),
            system_id: d.system_id().map(str::to_owned),
            force_quirks: d.force_quirks(),
            span: sp(d.span()),
        },
        Token::ProcessingInstruction(p) => Rec::Pi {
            target: p.target().to_owned(),
            data: p.data().to_owned(),
            span: sp(p.span()),
        },
        Token::Eof => Rec::Eof,
        other => unimplemented!("a token kind the records do not know: {other:?}"),
    }
}

/// A parse error reduced to code, span, line, column.
pub type ErrRec = (ErrorCode, Sp, usize, usize);

/// `e` as a record.
pub fn err_rec(e: &ParseError) -> ErrRec {
    (e.code, sp(e.span), e.location.line, e.location.col)
}

/// Everything one run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub tokens: Vec<Rec>,
    pub errors: Vec<ErrRec>,
}

/// Collects tokens into [`Rec`]s and notes protocol violations on the way.
/// With `join`, adjacent text tokens become one record (a stream may cut
/// text where a whole document does not); without, every token is kept as
/// it came.
#[derive(Debug)]
pub struct Normalizer {
    pub tokens: Vec<Rec>,
    join: bool,
    /// Protocol violations seen (empty text, tokens after Eof, ...).
    pub anomalies: Vec<String>,
    eof_seen: bool,
}

impl Normalizer {
    pub fn new(join: bool) -> Self {
        Normalizer {
            tokens: Vec::new(),
            join,
            anomalies: Vec::new(),
            eof_seen: false,
        }
    }

    pub fn push(&mut self, token: &Token<'_>) {
        if self.eof_seen {
            self.anomalies.push(format!("token after Eof: {token:?}"));
        }
        match token {
            Token::Text(t) => {
                if t.as_str().is_empty() {
                    self.anomalies
                        .push(format!("empty Text token at {:?}", t.span()));
                }
                if self.join {
                    if let Some(Rec::Text { text, span }) = self.tokens.last_mut() {
                        text.push_str(t.as_str());
                        span.1 = t.span().end;
                        return;
                    }
                }
            }
            Token::Eof => self.eof_seen = true,
            _ => {}
        }
        self.tokens.push(rec_of(token));
    }
}

/// Describes the first difference between two outputs, `a` and `b` (the
/// caller says which runs they are); `None` when they are equal.
pub fn diff(a: &Output, b: &Output) -> Option<String> {
    fn first_diff<T: std::fmt::Debug + PartialEq>(what: &str, a: &[T], b: &[T]) -> Option<String> {
        let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
        let from = i.saturating_sub(2);
        Some(format!(
            "{what} differ at #{i} (a has {}, b has {}):\n  a: {:?}\n  b: {:?}\n  context (a, from #{from}): {:?}",
            a.len(),
            b.len(),
            a.get(i),
            b.get(i),
            &a[from..(i + 1).min(a.len())],
        ))
    }
    first_diff("tokens", &a.tokens, &b.tokens)
        .or_else(|| first_diff("errors", &a.errors, &b.errors))
}

#[cfg(test)]
mod tests {
    use super::*;
    use htmltok::Tokenizer;

    fn run(html: &str, join: bool) -> Normalizer {
        let mut norm = Normalizer::new(join);
        let mut tok = Tokenizer::new(html);
        while let Some(t) = tok.next_token() {
            norm.push(&t);
        }
        norm
    }

    #[test]
    fn joining_merges_adjacent_text_and_its_span() {
        // `&amp;` ends one text token and starts the next in some paths;
        // joined, the text is one record spanning all of it.
        let norm = run("a&amp;b<p>", true);
        assert_eq!(
            norm.tokens[0],
            Rec::Text {
                text: "a&b".into(),
                span: (0, 7)
            }
        );
        assert!(norm.anomalies.is_empty());
    }

    #[test]
    fn diff_names_the_first_differing_token_and_is_none_when_equal() {
        let a = Output {
            tokens: run("<p>x", true).tokens,
            errors: vec![],
        };
        let b = Output {
            tokens: run("<b>x", true).tokens,
            errors: vec![],
        };
        assert_eq!(diff(&a, &a), None);
        let d = diff(&a, &b).expect("a difference");
        assert!(d.starts_with("tokens differ at #0"), "{d}");
    }
}
