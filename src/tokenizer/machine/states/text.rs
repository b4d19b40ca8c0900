//! The text states: data, RCDATA, RAWTEXT, script data (with its escapes),
//! PLAINTEXT and CDATA sections, including their end-tag look-ahead.

use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The standard's `data-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn data_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'&' => self.ampersand(inp, p, Data),
            b'<' => {
                self.lt = p;
                self.lt_read = true;
                self.state = TagOpen;
            }
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.emit_char(inp, p, n);
            }
            EOF => self.emit_eof(inp),
            _ => self.emit_char(inp, p, n),
        }
    }

    /// The standard's `rcdata-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rcdata_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'&' => self.ampersand(inp, p, Rcdata),
            b'<' => {
                self.lt = p;
                self.lt_read = true;
                self.state = RcdataLessThanSign;
            }
            0 => self.null_to_replacement_text(inp, p),
            EOF => self.emit_eof(inp),
            _ => self.emit_char(inp, p, n),
        }
    }

    /// The standard's `rawtext-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rawtext_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'<' => {
                self.lt = p;
                self.lt_read = true;
                self.state = RawtextLessThanSign;
            }
            0 => self.null_to_replacement_text(inp, p),
            EOF => self.emit_eof(inp),
            _ => self.emit_char(inp, p, n),
        }
    }

    /// The standard's `script-data-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'<' => {
                self.lt = p;
                self.lt_read = true;
                self.state = ScriptDataLessThanSign;
            }
            0 => self.null_to_replacement_text(inp, p),
            EOF => self.emit_eof(inp),
            _ => self.emit_char(inp, p, n),
        }
    }

    /// The standard's `plaintext-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn plaintext_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        match c {
            0 => self.null_to_replacement_text(inp, p),
            EOF => self.emit_eof(inp),
            _ => self.emit_char(inp, p, n),
        }
    }

    /// The standard's `rcdata-less-than-sign-state`, whose shape is
    /// [`text_less_than_sign`](Self::text_less_than_sign)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rcdata_less_than_sign_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_less_than_sign(inp, p, c, n)
    }

    /// The standard's `rawtext-less-than-sign-state`, whose shape is
    /// [`text_less_than_sign`](Self::text_less_than_sign)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rawtext_less_than_sign_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_less_than_sign(inp, p, c, n)
    }

    /// The less-than sign states of RCDATA and RAWTEXT, one shape with the text state to go back to.
    #[inline(always)]
    fn text_less_than_sign(&mut self, inp: &Window, p: usize, c: u8, _n: usize) {
        use State::*;
        let back = if self.state == RcdataLessThanSign {
            Rcdata
        } else {
            Rawtext
        };
        if c == b'/' {
            self.state = if back == Rcdata {
                RcdataEndTagOpen
            } else {
                RawtextEndTagOpen
            };
        } else {
            self.emit_since_lt(inp, p, "<");
            self.pos = p;
            self.state = back;
        }
    }

    /// The standard's `rcdata-end-tag-open-state`, whose shape is
    /// [`text_end_tag_open`](Self::text_end_tag_open)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rcdata_end_tag_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_open(inp, p, c, n)
    }

    /// The standard's `rawtext-end-tag-open-state`, whose shape is
    /// [`text_end_tag_open`](Self::text_end_tag_open)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rawtext_end_tag_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_open(inp, p, c, n)
    }

    /// The standard's `script-data-end-tag-open-state`, whose shape is
    /// [`text_end_tag_open`](Self::text_end_tag_open)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_end_tag_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_open(inp, p, c, n)
    }

    /// The standard's `script-data-escaped-end-tag-open-state`, whose shape is
    /// [`text_end_tag_open`](Self::text_end_tag_open)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escaped_end_tag_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_open(inp, p, c, n)
    }

    /// The end tag open states of RCDATA, RAWTEXT, script data and escaped script data: one shape, with the text state to go back to.
    #[inline(always)]
    fn text_end_tag_open(&mut self, inp: &Window, p: usize, c: u8, _n: usize) {
        use State::*;
        let (name_state, back) = match self.state {
            RcdataEndTagOpen => (RcdataEndTagName, Rcdata),
            RawtextEndTagOpen => (RawtextEndTagName, Rawtext),
            ScriptDataEndTagOpen => (ScriptDataEndTagName, ScriptData),
            _ => (ScriptDataEscapedEndTagName, ScriptDataEscaped),
        };
        self.pos = p;
        if c.is_ascii_alphabetic() {
            self.new_tag(true, p);
            self.state = name_state;
        } else {
            self.out.tag_name.clear();
            self.emit_since_lt(inp, p, "</");
            self.state = back;
        }
    }

    /// The standard's `rcdata-end-tag-name-state`, whose shape is
    /// [`text_end_tag_name`](Self::text_end_tag_name)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rcdata_end_tag_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_name(inp, p, c, n)
    }

    /// The standard's `rawtext-end-tag-name-state`, whose shape is
    /// [`text_end_tag_name`](Self::text_end_tag_name)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn rawtext_end_tag_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_name(inp, p, c, n)
    }

    /// The standard's `script-data-end-tag-name-state`, whose shape is
    /// [`text_end_tag_name`](Self::text_end_tag_name)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_end_tag_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_name(inp, p, c, n)
    }

    /// The standard's `script-data-escaped-end-tag-name-state`, whose shape is
    /// [`text_end_tag_name`](Self::text_end_tag_name)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escaped_end_tag_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.text_end_tag_name(inp, p, c, n)
    }

    /// The end tag name states of RCDATA, RAWTEXT, script data and escaped script data: one shape, with the text state to go back to.
    #[inline(always)]
    fn text_end_tag_name(&mut self, inp: &Window, p: usize, c: u8, _n: usize) {
        use State::*;
        let back = match self.state {
            RcdataEndTagName => Rcdata,
            RawtextEndTagName => Rawtext,
            ScriptDataEndTagName => ScriptData,
            _ => ScriptDataEscaped,
        };
        match c {
            b'\t' | b'\n' | 0x0C | b' ' if self.is_appropriate_end_tag(inp) => {
                self.state = BeforeAttributeName
            }
            b'/' if self.is_appropriate_end_tag(inp) => self.state = SelfClosingStartTag,
            b'>' if self.is_appropriate_end_tag(inp) => {
                self.state = Data;
                self.emit_tag(inp, p + 1);
            }
            b'a'..=b'z' => {
                self.out.tag_name.push_input(inp, p, p + 1);
                self.out.tag_name_span.end = p + 1;
            }
            b'A'..=b'Z' => {
                self.out.tag_name.push_str(inp, ascii_lower(c));
                self.out.tag_name_span.end = p + 1;
            }
            _ => {
                // "</" and the temporary buffer are exactly the input
                // from the `<` up to here.
                self.emit_since_lt(inp, p, "</");
                self.pos = p;
                self.state = back;
            }
        }
    }

    /// The standard's `script-data-less-than-sign-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_less_than_sign_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'/' => self.state = ScriptDataEndTagOpen,
            b'!' => {
                self.state = ScriptDataEscapeStart;
                self.emit_since_lt(inp, p + 1, "<!");
            }
            _ => {
                self.emit_since_lt(inp, p, "<");
                self.pos = p;
                self.state = ScriptData;
            }
        }
    }

    /// The standard's `script-data-escape-start-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escape_start_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        if c == b'-' {
            self.state = ScriptDataEscapeStartDash;
            self.emit_input(inp, p, p + 1);
        } else {
            self.pos = p;
            self.state = ScriptData;
        }
    }

    /// The standard's `script-data-escape-start-dash-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escape_start_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        if c == b'-' {
            self.state = ScriptDataEscapedDashDash;
            self.emit_input(inp, p, p + 1);
        } else {
            self.pos = p;
            self.state = ScriptData;
        }
    }

    /// The standard's `script-data-escaped-state`, whose shape is
    /// [`script_data_escaped_text`](Self::script_data_escaped_text)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escaped_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_escaped_text(inp, p, c, n)
    }

    /// The standard's `script-data-escaped-dash-state`, whose shape is
    /// [`script_data_escaped_text`](Self::script_data_escaped_text)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escaped_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_escaped_text(inp, p, c, n)
    }

    /// The standard's `script-data-escaped-dash-dash-state`, whose shape is
    /// [`script_data_escaped_text`](Self::script_data_escaped_text)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escaped_dash_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_escaped_text(inp, p, c, n)
    }

    /// The standard's `script-data-double-escaped-state`, whose shape is
    /// [`script_data_escaped_text`](Self::script_data_escaped_text)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_double_escaped_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_escaped_text(inp, p, c, n)
    }

    /// The standard's `script-data-double-escaped-dash-state`, whose shape is
    /// [`script_data_escaped_text`](Self::script_data_escaped_text)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_double_escaped_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_escaped_text(inp, p, c, n)
    }

    /// The standard's `script-data-double-escaped-dash-dash-state`, whose shape is
    /// [`script_data_escaped_text`](Self::script_data_escaped_text)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_double_escaped_dash_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_escaped_text(inp, p, c, n)
    }

    /// The six escaped and double-escaped script data states: all of the same shape, apart from `<`.
    #[inline(always)]
    fn script_data_escaped_text(&mut self, inp: &Window, p: usize, c: u8, n: usize) {
        use State::*;
        let double = matches!(
            self.state,
            ScriptDataDoubleEscaped | ScriptDataDoubleEscapedDash | ScriptDataDoubleEscapedDashDash
        );
        let (plain, dash, dash_dash, less_than) = if double {
            (
                ScriptDataDoubleEscaped,
                ScriptDataDoubleEscapedDash,
                ScriptDataDoubleEscapedDashDash,
                ScriptDataDoubleEscapedLessThanSign,
            )
        } else {
            (
                ScriptDataEscaped,
                ScriptDataEscapedDash,
                ScriptDataEscapedDashDash,
                ScriptDataEscapedLessThanSign,
            )
        };
        match c {
            b'-' => {
                self.state = if self.state == plain { dash } else { dash_dash };
                self.emit_input(inp, p, p + 1);
            }
            b'<' => {
                self.lt = p;
                self.lt_read = true;
                self.state = less_than;
                if double {
                    self.emit_input(inp, p, p + 1);
                }
            }
            b'>' if self.state == dash_dash => {
                self.state = ScriptData;
                self.emit_input(inp, p, p + 1);
            }
            0 => {
                self.state = plain;
                self.null_to_replacement_text(inp, p);
            }
            EOF => {
                self.err(inp, ErrorCode::EofInScriptHtmlCommentLikeText, p);
                self.emit_eof(inp);
            }
            _ => {
                self.state = plain;
                self.emit_char(inp, p, n);
            }
        }
    }

    /// The standard's `script-data-escaped-less-than-sign-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_escaped_less_than_sign_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'/' => self.state = ScriptDataEscapedEndTagOpen,
            b'a'..=b'z' | b'A'..=b'Z' => {
                self.temp.clear();
                self.emit_since_lt(inp, p, "<");
                self.pos = p;
                self.state = ScriptDataDoubleEscapeStart;
            }
            _ => {
                self.emit_since_lt(inp, p, "<");
                self.pos = p;
                self.state = ScriptDataEscaped;
            }
        }
    }

    /// The standard's `script-data-double-escape-start-state`, whose shape is
    /// [`script_data_double_escape_boundary`](Self::script_data_double_escape_boundary)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_double_escape_start_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_double_escape_boundary(inp, p, c, n)
    }

    /// The standard's `script-data-double-escape-end-state`, whose shape is
    /// [`script_data_double_escape_boundary`](Self::script_data_double_escape_boundary)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_double_escape_end_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.script_data_double_escape_boundary(inp, p, c, n)
    }

    /// The double escape start and end states: one shape, the states on either side swapped.
    #[inline(always)]
    fn script_data_double_escape_boundary(&mut self, inp: &Window, p: usize, c: u8, n: usize) {
        use State::*;
        let start = self.state == ScriptDataDoubleEscapeStart;
        let (if_script, otherwise) = if start {
            (ScriptDataDoubleEscaped, ScriptDataEscaped)
        } else {
            (ScriptDataEscaped, ScriptDataDoubleEscaped)
        };
        match c {
            b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>' => {
                self.state = if self.temp == b"script" {
                    if_script
                } else {
                    otherwise
                };
                self.emit_char(inp, p, n);
            }
            b'A'..=b'Z' | b'a'..=b'z' => {
                // Only equality with "script" matters: seven letters
                // are as good as any longer run, and keep the buffer
                // bounded.
                if self.temp.len() <= 6 {
                    self.temp.push(c.to_ascii_lowercase());
                }
                self.emit_input(inp, p, p + 1);
            }
            _ => {
                self.pos = p;
                self.state = otherwise;
            }
        }
    }

    /// The standard's `script-data-double-escaped-less-than-sign-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn script_data_double_escaped_less_than_sign_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        if c == b'/' {
            self.temp.clear();
            self.state = ScriptDataDoubleEscapeEnd;
            self.emit_input(inp, p, p + 1);
        } else {
            self.pos = p;
            self.state = ScriptDataDoubleEscaped;
        }
    }

    /// The standard's `cdata-section-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn cdata_section_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b']' => self.state = CdataSectionBracket,
            EOF => {
                self.err(inp, ErrorCode::EofInCdata, p);
                self.emit_eof(inp);
            }
            _ => self.emit_char(inp, p, n),
        }
    }

    /// The standard's `cdata-section-bracket-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn cdata_section_bracket_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        if c == b']' {
            self.state = CdataSectionEnd;
        } else {
            self.text_back(inp, p, 1, 1, "]");
            self.pos = p;
            self.state = CdataSection;
        }
    }

    /// The standard's `cdata-section-end-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn cdata_section_end_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            // Of the three brackets, the first is text.
            b']' => self.text_back(inp, p, 2, 1, "]"),
            b'>' => self.state = Data,
            _ => {
                self.text_back(inp, p, 2, 2, "]]");
                self.pos = p;
                self.state = CdataSection;
            }
        }
    }

    /// NUL in RCDATA, RAWTEXT, script data and PLAINTEXT: an error, and
    /// U+FFFD in its place.
    pub(in crate::tokenizer::machine) fn null_to_replacement_text(
        &mut self,
        inp: &Window,
        p: usize,
    ) {
        self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
        self.emit_str(*inp, "\u{FFFD}", p, p + 1);
    }

    /// Emits as text the `len` bytes `back` before `p` (`]`, `]]` of CDATA).
    pub(in crate::tokenizer::machine) fn text_back(
        &mut self,
        inp: &Window,
        p: usize,
        back: usize,
        len: usize,
        literal: &str,
    ) {
        match p.checked_sub(back) {
            Some(from) if self.consumed_since(from) => self.emit_input(inp, from, from + len),
            _ => self.emit_str(*inp, literal, p, p),
        }
    }

    /// Emits as text the markup read since `lt` that turned out not to be a
    /// tag: `<`, `</`, or `</` and the temporary buffer, exactly the input
    /// from `lt` to `p`. `literal` is what to emit if the machine did not
    /// read that input itself (then a tag name read so far follows it).
    pub(in crate::tokenizer::machine) fn emit_since_lt(
        &mut self,
        inp: &Window,
        p: usize,
        literal: &str,
    ) {
        if self.lt_read && self.consumed_since(self.lt) {
            self.emit_input(inp, self.lt, p);
        } else {
            let mut text = literal.to_owned();
            if literal == "</" {
                text.push_str(self.out.tag_name.str(inp));
            }
            self.emit_str(*inp, &text, p, p);
        }
    }
}
