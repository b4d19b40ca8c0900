//! Tokens as JSON, in the format of html5lib-tests.
//!
//! This is what the `htmltok tokens` command prints and what the conformance
//! runner compares against the html5lib-tests expectations. It is written by
//! hand (the library has no serde dependency) and is always one compact line.
//!
//! Tokens are JSON arrays:
//!
//! | Token | JSON |
//! |-------|------|
//! | start tag | `["StartTag", name, {attrs}]`, or `["StartTag", name, {attrs}, true]` when self-closing |
//! | end tag | `["EndTag", name]` |
//! | comment | `["Comment", data]` |
//! | characters | `["Character", data]`, adjacent character tokens joined into one |
//! | DOCTYPE | `["DOCTYPE", name, public_id, system_id, correctness]`: missing values are `null`, `correctness` is `false` when force-quirks is on |
//! | processing instruction | `["ProcessingInstruction", target, data]` |
//!
//! The end-of-file token is not printed. Attribute objects keep source order
//! (duplicates were already dropped by the tokenizer).
//!
//! ```
//! use htmltok::{json, Config};
//! let out = json::tokens_json(b"<!DOCTYPE html><p class=x>Hi<br/></p>", Config::new(), false);
//! assert_eq!(
//!     out,
//!     r#"[["DOCTYPE","html",null,null,true],["StartTag","p",{"class":"x"}],["Character","Hi"],["StartTag","br",{},true],["EndTag","p"]]"#
//! );
//! ```

use std::fmt::Write as _;

use crate::token::Token;
use crate::tokenizer::{Config, ErrorPolicy, Tokenizer};

/// Tokenizes `input` and returns its tokens as html5lib-tests JSON.
///
/// `input` should be UTF-8; invalid sequences become U+FFFD first (see
/// [`Tokenizer::from_bytes`]). With `with_errors` false the result is the
/// token array; with `with_errors` true it is an object
/// `{"output":[...],"errors":[{"code":"...","line":L,"col":C},...]}`, the
/// errors in the order the standard raises them, positions 1-based as
/// [`Tokenizer::line_col`] counts them.
///
/// ```
/// use htmltok::{json, Config, State};
///
/// // Adjacent character tokens are joined.
/// assert_eq!(
///     json::tokens_json(b"a&amp;b<i>c", Config::new(), false),
///     r#"[["Character","a&b"],["StartTag","i",{}],["Character","c"]]"#
/// );
///
/// // With errors.
/// assert_eq!(
///     json::tokens_json(b"<a x=1 x=2>", Config::new(), true),
///     r#"{"output":[["StartTag","a",{"x":"1"}]],"errors":[{"code":"duplicate-attribute","line":1,"col":9}]}"#
/// );
///
/// // Starting in another state, as a tree builder would after `<title>`.
/// let config = Config::new().initial_state(State::Rcdata).last_start_tag("title");
/// assert_eq!(
///     json::tokens_json(b"<b></title>", config, false),
///     r#"[["Character","<b>"],["EndTag","title"]]"#
/// );
/// ```
#[must_use]
pub fn tokens_json(input: &[u8], config: Config, with_errors: bool) -> String {
    let mut out = String::with_capacity(input.len() + input.len() / 2 + 16);
    if with_errors {
        let mut tok = Tokenizer::from_bytes_with_errors(input, config);
        out.push_str("{\"output\":");
        write_token_array(&mut tok, &mut out);
        out.push_str(",\"errors\":[");
        let errors: Vec<_> = tok
            .errors()
            .iter()
            .map(|e| (e.code, e.span.start))
            .collect();
        for (i, (code, offset)) in errors.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let at = tok.line_col(offset);
            out.push_str("{\"code\":");
            write_json_string(&mut out, code.as_str());
            // Writing to a String cannot fail.
            let _ = write!(out, ",\"line\":{},\"col\":{}}}", at.line, at.col);
        }
        out.push_str("]}");
    } else {
        let mut tok = Tokenizer::from_bytes_with_config(input, config);
        write_token_array(&mut tok, &mut out);
    }
    out
}

/// Drains `tok` into `out` as a JSON array, joining adjacent text.
fn write_token_array<E: ErrorPolicy>(tok: &mut Tokenizer<'_, E>, out: &mut String) {
    out.push('[');
    let mut first = true;
    // Character data waiting to be joined with what follows.
    let mut text = String::new();
    while let Some(token) = tok.next_token() {
        match token {
            Token::Text(t) => text.push_str(t.text),
            Token::Eof => {}
            token => {
                if !text.is_empty() {
                    separate(out, &mut first);
                    write_character_token(out, &text);
                    text.clear();
                }
                separate(out, &mut first);
                write_token(out, &token);
            }
        }
    }
    if !text.is_empty() {
        separate(out, &mut first);
        write_character_token(out, &text);
    }
    out.push(']');
}

/// Writes the comma before every element but the first.
fn separate(out: &mut String, first: &mut bool) {
    if !*first {
        out.push(',');
    }
    *first = false;
}

fn write_character_token(out: &mut String, text: &str) {
    out.push_str("[\"Character\",");
    write_json_string(out, text);
    out.push(']');
}

/// Appends one token to `out` as an html5lib-tests JSON array.
///
/// Character data becomes `["Character", data]` as is (no joining with
/// neighbouring tokens: [`tokens_json`] does that). [`Token::Eof`], which the
/// format has no form for, appends nothing.
///
/// ```
/// use htmltok::{json, Token, Tokenizer};
/// let mut tok = Tokenizer::new("<input disabled value='a\"b'/>");
/// let token = tok.next_token().unwrap();
/// let mut out = String::new();
/// json::write_token(&mut out, &token);
/// assert_eq!(out, r#"["StartTag","input",{"disabled":"","value":"a\"b"},true]"#);
///
/// let mut out = String::new();
/// json::write_token(&mut out, &Token::Eof);
/// assert_eq!(out, "");
/// ```
pub fn write_token(out: &mut String, token: &Token<'_>) {
    match token {
        Token::Doctype(d) => {
            out.push_str("[\"DOCTYPE\",");
            write_json_opt_string(out, d.name);
            out.push(',');
            write_json_opt_string(out, d.public_id);
            out.push(',');
            write_json_opt_string(out, d.system_id);
            out.push_str(if d.force_quirks { ",false]" } else { ",true]" });
        }
        Token::StartTag(tag) => {
            out.push_str("[\"StartTag\",");
            write_json_string(out, tag.name);
            out.push_str(",{");
            for (i, attr) in tag.attributes().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, attr.name);
                out.push(':');
                write_json_string(out, attr.value);
            }
            out.push('}');
            if tag.self_closing {
                out.push_str(",true");
            }
            out.push(']');
        }
        Token::EndTag(tag) => {
            out.push_str("[\"EndTag\",");
            write_json_string(out, tag.name);
            out.push(']');
        }
        Token::Comment(c) => {
            out.push_str("[\"Comment\",");
            write_json_string(out, c.text);
            out.push(']');
        }
        Token::Text(t) => write_character_token(out, t.text),
        Token::ProcessingInstruction(pi) => {
            out.push_str("[\"ProcessingInstruction\",");
            write_json_string(out, pi.target);
            out.push(',');
            write_json_string(out, pi.data);
            out.push(']');
        }
        Token::Eof => {}
    }
}

fn write_json_opt_string(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => write_json_string(out, s),
        None => out.push_str("null"),
    }
}

/// Appends `s` to `out` as a JSON string literal, quotes included.
///
/// `"` and `\` are escaped, and so are the control characters U+0000 to
/// U+001F and U+007F (as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`); every
/// other character, non-ASCII included, is written as is (UTF-8).
///
/// ```
/// let mut out = String::new();
/// htmltok::json::write_json_string(&mut out, "say \"hi\"\\\n\u{0}\u{1F}é😀");
/// assert_eq!(out, r#""say \"hi\"\\\n\u0000\u001fé😀""#);
/// ```
pub fn write_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    // Start of the run of bytes not yet copied; runs end only at ASCII
    // bytes, so every slice below is on a character boundary.
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0x00..=0x1F | 0x7F => "",
            _ => continue,
        };
        out.push_str(&s[run..i]);
        run = i + 1;
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
    }
    out.push_str(&s[run..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::write_json_string;

    #[test]
    fn json_string_round_trips() {
        let mut all: String = (0u32..0x300).filter_map(char::from_u32).collect();
        all.push_str("\u{2028}\u{2029}\u{FEFF}\u{FFFD}\u{FFFF}\u{10000}\u{1F600}\u{10FFFF}");
        for s in [all.as_str(), "", "\"", "\\", "a\\\"b", "\u{0}", "é\n"] {
            let mut out = String::new();
            write_json_string(&mut out, s);
            assert!(!out.contains('\n') && !out.contains('\r'), "{out:?}");
            let back: String = serde_json::from_str(&out).expect("valid JSON string");
            assert_eq!(back, s);
        }
    }
}
