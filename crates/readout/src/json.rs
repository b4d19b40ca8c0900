//! Tokens as JSON, in the format of html5lib-tests.
//!
//! This is what the `htmltok tokens` command prints and what the conformance
//! runner compares against the html5lib-tests expectations. It is written by
//! hand (the library has no serde dependency) and is always one compact line.
//!
//! Not the library's API: the command line's `tokens` output (a contract
//! of the command), kept here so that the conformance runner compares the
//! very code the command runs.
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
//! use htmltok::Config;
//! use htmltok_readout::json;
//! let out = json::tokens_json(b"<!DOCTYPE html><p class=x>Hi<br/></p>", Config::new(), false);
//! assert_eq!(
//!     out,
//!     r#"[["DOCTYPE","html",null,null,true],["StartTag","p",{"class":"x"}],["Character","Hi"],["StartTag","br",{},true],["EndTag","p"]]"#
//! );
//! ```

use std::fmt::Write as _;

use htmltok::{
    Config, ErrorCode, ErrorPolicy, Input, LineCol, ParseError, StreamTokenizer, Token, Tokenizer,
};

/// Tokenizes `input` and returns its tokens as html5lib-tests JSON.
///
/// `input` should be UTF-8; invalid sequences become U+FFFD first (see
/// [`Input::from_utf8_lossy`]). With `with_errors` false the result is the
/// token array; with `with_errors` true it is an object
/// `{"output":[...],"errors":[{"code":"...","line":L,"col":C},...]}`, the
/// errors in the order the standard raises them, positions 1-based as
/// [`htmltok::LineIndex`] counts them.
///
/// ```
/// use htmltok::{Config, State};
/// use htmltok_readout::json;
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
    let mut writer = Writer::new(Vec::with_capacity(input.len() + 64), with_errors);
    // Writing to a Vec cannot fail.
    if with_errors {
        let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(input), config.report_errors());
        while let Some(token) = tok.next_token() {
            let _ = writer.token(&token);
        }
        writer.errors(tok.errors());
    } else {
        let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(input), config);
        while let Some(token) = tok.next_token() {
            let _ = writer.token(&token);
        }
    }
    let bytes = writer.finish().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// [`tokens_json`] through the streaming API: `input` is fed to a
/// [`StreamTokenizer`] in chunks of `chunk_size` bytes (at least 1). The
/// result is the same string as [`tokens_json`] gives for any chunk size.
///
/// ```
/// use htmltok::Config;
/// use htmltok_readout::json;
/// let page = b"<p title='a&amp;b'>x\r\ny</p><!--c-->";
/// let whole = json::tokens_json(page, Config::new(), true);
/// for size in [1, 2, 3, 7, 64] {
///     assert_eq!(json::tokens_json_chunked(page, Config::new(), true, size), whole);
/// }
/// ```
#[must_use]
pub fn tokens_json_chunked(
    input: &[u8],
    config: Config,
    with_errors: bool,
    chunk_size: usize,
) -> String {
    let mut writer = Writer::new(Vec::with_capacity(input.len() + 64), with_errors);
    if with_errors {
        let mut stream = StreamTokenizer::with_config(config.report_errors());
        feed_all(&mut stream, input, chunk_size, &mut writer);
        writer.errors(stream.errors());
    } else {
        let mut stream = StreamTokenizer::with_config(config);
        feed_all(&mut stream, input, chunk_size, &mut writer);
    }
    let bytes = writer.finish().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

fn feed_all<E: ErrorPolicy>(
    stream: &mut StreamTokenizer<E>,
    input: &[u8],
    chunk_size: usize,
    writer: &mut Writer<Vec<u8>>,
) {
    for chunk in input.chunks(chunk_size.max(1)) {
        stream.feed(chunk);
        while let Some(token) = stream.next_token() {
            let _ = writer.token(&token);
        }
    }
    stream.finish();
    while let Some(token) = stream.next_token() {
        let _ = writer.token(&token);
    }
}

/// Writes tokens as html5lib-tests JSON while they arrive, joining adjacent
/// character data, in memory bounded by the largest non-text token: text is
/// written out piece by piece inside one open `["Character", …]` string.
///
/// The output is the token array, or with errors the object
/// `{"output":[...],"errors":[...]}` (errors are held until
/// [`finish`](Self::finish)).
///
/// ```
/// use htmltok::{Config, StreamTokenizer};
/// use htmltok_readout::json;
/// let mut stream = StreamTokenizer::with_config(Config::new().report_errors());
/// let mut writer = json::Writer::new(Vec::new(), true);
/// for chunk in [&b"a<b x"[..], b"=1>c", b"</b>&"] {
///     stream.feed(chunk);
///     while let Some(token) = stream.next_token() {
///         writer.token(&token).unwrap();
///     }
/// }
/// stream.finish();
/// while let Some(token) = stream.next_token() {
///     writer.token(&token).unwrap();
/// }
/// writer.errors(&stream.take_errors());
/// let out = String::from_utf8(writer.finish().unwrap()).unwrap();
/// assert_eq!(out, r#"{"output":[["Character","a"],["StartTag","b",{"x":"1"}],["Character","c"],["EndTag","b"],["Character","&"]],"errors":[]}"#);
/// ```
pub struct Writer<W: std::io::Write> {
    out: W,
    buf: String,
    first: bool,
    text_open: bool,
    with_errors: bool,
    errors: Vec<(ErrorCode, LineCol)>,
}

impl<W: std::io::Write> std::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("with_errors", &self.with_errors)
            .field("buffered", &self.buf.len())
            .finish_non_exhaustive()
    }
}

/// Output is passed on to the underlying writer in pieces of about this size.
const FLUSH_AT: usize = 64 * 1024;

impl<W: std::io::Write> Writer<W> {
    /// A writer into `out`; `with_errors` selects the object form.
    pub fn new(out: W, with_errors: bool) -> Self {
        let mut buf = String::new();
        buf.push_str(if with_errors { "{\"output\":[" } else { "[" });
        Writer {
            out,
            buf,
            first: true,
            text_open: false,
            with_errors,
            errors: Vec::new(),
        }
    }

    /// Writes one token (adjacent text joined; [`Token::Eof`] writes nothing).
    pub fn token(&mut self, token: &Token<'_>) -> std::io::Result<()> {
        match token {
            Token::Text(t) => {
                if t.as_str().is_empty() {
                    return Ok(());
                }
                if !self.text_open {
                    separate(&mut self.buf, &mut self.first);
                    self.buf.push_str("[\"Character\",\"");
                    self.text_open = true;
                }
                escape_json_into(&mut self.buf, t.as_str());
            }
            Token::Eof => {}
            token => {
                self.close_text();
                separate(&mut self.buf, &mut self.first);
                write_token(&mut self.buf, token);
            }
        }
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(self.buf.as_bytes())?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Records parse errors, to be written by [`finish`](Self::finish).
    pub fn errors(&mut self, errors: &[ParseError]) {
        self.errors
            .extend(errors.iter().map(|e| (e.code, e.location)));
    }

    fn close_text(&mut self) {
        if self.text_open {
            self.buf.push_str("\"]");
            self.text_open = false;
        }
    }

    /// Closes the JSON (with the errors, in the object form) and returns the
    /// underlying writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.close_text();
        self.buf.push(']');
        if self.with_errors {
            self.buf.push_str(",\"errors\":[");
            for (i, (code, at)) in self.errors.iter().enumerate() {
                if i > 0 {
                    self.buf.push(',');
                }
                self.buf.push_str("{\"code\":");
                write_json_string(&mut self.buf, code.as_str());
                let _ = write!(self.buf, ",\"line\":{},\"col\":{}}}", at.line, at.col);
            }
            self.buf.push_str("]}");
        }
        self.out.write_all(self.buf.as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
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
/// use htmltok::{Token, Tokenizer};
/// use htmltok_readout::json;
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
            write_json_opt_string(out, d.name());
            out.push(',');
            write_json_opt_string(out, d.public_id());
            out.push(',');
            write_json_opt_string(out, d.system_id());
            out.push_str(if d.force_quirks() {
                ",false]"
            } else {
                ",true]"
            });
        }
        Token::StartTag(tag) => {
            out.push_str("[\"StartTag\",");
            write_json_string(out, tag.name());
            out.push_str(",{");
            for (i, attr) in tag.attributes().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, attr.name());
                out.push(':');
                write_json_string(out, attr.value());
            }
            out.push('}');
            if tag.self_closing() {
                out.push_str(",true");
            }
            out.push(']');
        }
        Token::EndTag(tag) => {
            out.push_str("[\"EndTag\",");
            write_json_string(out, tag.name());
            out.push(']');
        }
        Token::Comment(c) => {
            out.push_str("[\"Comment\",");
            write_json_string(out, c.as_str());
            out.push(']');
        }
        Token::Text(t) => write_character_token(out, t.as_str()),
        Token::ProcessingInstruction(pi) => {
            out.push_str("[\"ProcessingInstruction\",");
            write_json_string(out, pi.target());
            out.push(',');
            write_json_string(out, pi.data());
            out.push(']');
        }
        Token::Eof => {}
        // `Token` is non-exhaustive: a kind added later has no html5lib
        // form until this writer gives it one (the html5lib and CLI tests
        // would show it missing).
        _ => {}
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
/// htmltok_readout::json::write_json_string(&mut out, "say \"hi\"\\\n\u{0}\u{1F}é😀");
/// assert_eq!(out, r#""say \"hi\"\\\n\u0000\u001fé😀""#);
/// ```
pub fn write_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    escape_json_into(out, s);
    out.push('"');
}

/// Appends `s` escaped as the inside of a JSON string literal.
fn escape_json_into(out: &mut String, s: &str) {
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
