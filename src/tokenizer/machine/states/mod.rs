//! The general machine: steps until a token is ready, one `match` arm per
//! state in the standard's order, each arm a function in the file of its
//! token kind.
//!
//! States are named by their anchors in
//! <https://html.spec.whatwg.org/multipage/parsing.html> (`tag-name-state`),
//! which stay put when sections are renumbered. Every state function is
//! `#[inline(always)]`, so `step` is still the one `match` it was (a nested
//! `match` per token kind would dispatch twice per step).

use super::*;

mod charref;
mod comment;
mod doctype;
mod pi;
mod tag;
mod text;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// Steps until a non-text token is ready or the window is used up.
    ///
    /// The common call, one pass of the data lane to a token, is peeled off
    /// the loop: inside it, the compiler hoisted the lane's address
    /// arithmetic out of the loop and spilled it to the stack, 23
    /// instructions a call for a loop that mostly runs once.
    #[inline(always)]
    pub(super) fn run(&mut self, inp: &Window) {
        if self.fast_paths && self.state == State::Data {
            match self.data_lane(inp) {
                Some(true) => return,
                Some(false) => {}
                // The general step takes over at `pos`.
                None => {
                    if !self.step(*inp) || self.ready.is_some() {
                        return;
                    }
                }
            }
        }
        self.run_loop(*inp);
    }

    /// The rest of [`run`](Self::run): lanes and steps until a token is
    /// ready. Out of line, so that the data lane (and the tag fast path in
    /// it) is inlined once, into `run`; here it is a call.
    #[inline(never)]
    pub(super) fn run_loop(&mut self, inp: Window<'_>) {
        let inp = &inp;
        while self.ready.is_none() {
            if self.fast_paths {
                let handled = match self.state {
                    State::Data => self.data_lane_call(inp),
                    State::Rcdata => self.text_lane(inp, &scan::RCDATA),
                    State::Rawtext | State::ScriptData => self.text_lane(inp, &scan::RAWTEXT),
                    _ => false,
                };
                if handled {
                    continue;
                }
            }
            if !self.step(*inp) {
                return;
            }
        }
    }

    /// Appends a run of the current state's ordinary bytes to `field`, up to
    /// the next landmark of `set`.
    ///
    /// A CR (or CRLF) inside a run whose state treats a line feed as an
    /// ordinary character is appended as `\n` here and the run goes on:
    /// what the state's step would do, without a step per line. Pages
    /// written on Windows have one every 50 bytes or so.
    ///
    /// Inlined into each call site, where `which` is a constant and the
    /// matches on it fold away.
    #[inline(always)]
    pub(super) fn run_into(&mut self, inp: &Window, set: &scan::Landmarks, which: Target) {
        let mut p = self.pos;
        let end = inp.end();
        let newline_is_ordinary = match which {
            Target::Text | Target::Comment | Target::DoctypePublic | Target::DoctypeSystem => true,
            Target::AttrValue => self.state != State::AttributeValueUnquoted,
            Target::TagName | Target::AttrName | Target::DoctypeName | Target::Nothing => false,
        };
        while p < end {
            let n = self.find(set, inp.from(p));
            if n > 0 {
                self.append_run(inp, which, p, p + n);
                p += n;
            }
            if !newline_is_ordinary || p >= end || inp.at(p) != b'\r' {
                break;
            }
            let n = if p + 1 < end {
                1 + usize::from(inp.at(p + 1) == b'\n')
            } else if inp.eof {
                1
            } else {
                // CR at the end of the window: CRLF or not is decided by
                // the step, once the next byte is there.
                break;
            };
            match which {
                Target::Text => self.emit_char(inp, p, n),
                Target::Comment => push_char(&mut self.out.comment, *inp, p, n),
                Target::AttrValue => push_char(&mut self.attr_value, *inp, p, n),
                Target::DoctypePublic => push_char(&mut self.out.doctype_public, *inp, p, n),
                Target::DoctypeSystem => push_char(&mut self.out.doctype_system, *inp, p, n),
                _ => {}
            }
            p += n;
        }
        self.pos = p;
    }

    /// Appends input bytes `s..e` (a run of ordinary bytes) to `which`.
    #[inline]
    pub(super) fn append_run(&mut self, inp: &Window, which: Target, s: usize, e: usize) {
        match which {
            Target::Text => self.emit_input(inp, s, e),
            Target::TagName => {
                self.out.tag_name.push_input(inp, s, e);
                self.out.tag_name_span.end = e;
            }
            Target::AttrName => self.attr_name.push_input(inp, s, e),
            Target::AttrValue => self.attr_value.push_input(inp, s, e),
            Target::Comment => self.out.comment.push_input(inp, s, e),
            Target::DoctypeName => self.out.doctype_name.push_input(inp, s, e),
            Target::DoctypePublic => self.out.doctype_public.push_input(inp, s, e),
            Target::DoctypeSystem => self.out.doctype_system.push_input(inp, s, e),
            Target::Nothing => {}
        }
    }

    /// One step of the state machine. Returns `false` when the window ends
    /// before the step can be taken.
    pub(super) fn step(&mut self, inp: Window<'_>) -> bool {
        let inp = &inp;
        use State::*;
        // Run states first jump over their ordinary bytes.
        match self.state {
            Data => {
                let set = if E::ENABLED {
                    &scan::DATA_WITH_NUL
                } else {
                    &scan::DATA
                };
                self.run_into(inp, set, Target::Text)
            }
            Rcdata => self.run_into(inp, &scan::RCDATA, Target::Text),
            Rawtext | ScriptData => self.run_into(inp, &scan::RAWTEXT, Target::Text),
            Plaintext => self.run_into(inp, &scan::PLAINTEXT, Target::Text),
            ScriptDataEscaped | ScriptDataDoubleEscaped => {
                self.run_into(inp, &scan::SCRIPT_ESCAPED, Target::Text)
            }
            CdataSection => self.run_into(inp, &scan::CDATA, Target::Text),
            TagName => self.run_into(inp, &scan::TAG_NAME, Target::TagName),
            AttributeName => self.run_into(inp, &scan::ATTR_NAME, Target::AttrName),
            AttributeValueDoubleQuoted => {
                self.run_into(inp, &scan::ATTR_VALUE_DOUBLE, Target::AttrValue)
            }
            AttributeValueSingleQuoted => {
                self.run_into(inp, &scan::ATTR_VALUE_SINGLE, Target::AttrValue)
            }
            AttributeValueUnquoted => {
                self.run_into(inp, &scan::ATTR_VALUE_UNQUOTED, Target::AttrValue)
            }
            Comment => self.run_into(inp, &scan::COMMENT, Target::Comment),
            BogusComment => self.run_into(inp, &scan::BOGUS_COMMENT, Target::Comment),
            ProcessingInstructionData => self.run_into(inp, &scan::PI_DATA, Target::Comment),
            DoctypeName => self.run_into(inp, &scan::DOCTYPE_NAME, Target::DoctypeName),
            DoctypePublicIdentifierDoubleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_DOUBLE, Target::DoctypePublic)
            }
            DoctypePublicIdentifierSingleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_SINGLE, Target::DoctypePublic)
            }
            DoctypeSystemIdentifierDoubleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_DOUBLE, Target::DoctypeSystem)
            }
            DoctypeSystemIdentifierSingleQuoted => {
                self.run_into(inp, &scan::DOCTYPE_ID_SINGLE, Target::DoctypeSystem)
            }
            BogusDoctype => self.run_into(inp, &scan::BOGUS_DOCTYPE, Target::Nothing),
            _ => {}
        }

        let p = self.pos;
        let Some((c, n)) = self.read(inp) else {
            return false;
        };
        // By default the current character is consumed; arms that
        // "reconsume" set `self.pos = p` again.
        self.pos = p + n;

        match self.state {
            Data => self.data_state(inp, p, c, n),
            Rcdata => self.rcdata_state(inp, p, c, n),
            Rawtext => self.rawtext_state(inp, p, c, n),
            ScriptData => self.script_data_state(inp, p, c, n),
            Plaintext => self.plaintext_state(inp, p, c, n),
            TagOpen => self.tag_open_state(inp, p, c, n),
            EndTagOpen => self.end_tag_open_state(inp, p, c, n),
            TagName => self.tag_name_state(inp, p, c, n),
            RcdataLessThanSign => self.rcdata_less_than_sign_state(inp, p, c, n),
            RawtextLessThanSign => self.rawtext_less_than_sign_state(inp, p, c, n),
            RcdataEndTagOpen => self.rcdata_end_tag_open_state(inp, p, c, n),
            RawtextEndTagOpen => self.rawtext_end_tag_open_state(inp, p, c, n),
            ScriptDataEndTagOpen => self.script_data_end_tag_open_state(inp, p, c, n),
            ScriptDataEscapedEndTagOpen => {
                self.script_data_escaped_end_tag_open_state(inp, p, c, n)
            }
            RcdataEndTagName => self.rcdata_end_tag_name_state(inp, p, c, n),
            RawtextEndTagName => self.rawtext_end_tag_name_state(inp, p, c, n),
            ScriptDataEndTagName => self.script_data_end_tag_name_state(inp, p, c, n),
            ScriptDataEscapedEndTagName => {
                self.script_data_escaped_end_tag_name_state(inp, p, c, n)
            }
            ScriptDataLessThanSign => self.script_data_less_than_sign_state(inp, p, c, n),
            ScriptDataEscapeStart => self.script_data_escape_start_state(inp, p, c, n),
            ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(inp, p, c, n),
            ScriptDataEscaped => self.script_data_escaped_state(inp, p, c, n),
            ScriptDataEscapedDash => self.script_data_escaped_dash_state(inp, p, c, n),
            ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(inp, p, c, n),
            ScriptDataDoubleEscaped => self.script_data_double_escaped_state(inp, p, c, n),
            ScriptDataDoubleEscapedDash => self.script_data_double_escaped_dash_state(inp, p, c, n),
            ScriptDataDoubleEscapedDashDash => {
                self.script_data_double_escaped_dash_dash_state(inp, p, c, n)
            }
            ScriptDataEscapedLessThanSign => {
                self.script_data_escaped_less_than_sign_state(inp, p, c, n)
            }
            ScriptDataDoubleEscapeStart => self.script_data_double_escape_start_state(inp, p, c, n),
            ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(inp, p, c, n),
            ScriptDataDoubleEscapedLessThanSign => {
                self.script_data_double_escaped_less_than_sign_state(inp, p, c, n)
            }
            BeforeAttributeName => self.before_attribute_name_state(inp, p, c, n),
            AttributeName => self.attribute_name_state(inp, p, c, n),
            AfterAttributeName => self.after_attribute_name_state(inp, p, c, n),
            BeforeAttributeValue => self.before_attribute_value_state(inp, p, c, n),
            AttributeValueDoubleQuoted => self.attribute_value_double_quoted_state(inp, p, c, n),
            AttributeValueSingleQuoted => self.attribute_value_single_quoted_state(inp, p, c, n),
            AttributeValueUnquoted => self.attribute_value_unquoted_state(inp, p, c, n),
            AfterAttributeValueQuoted => self.after_attribute_value_quoted_state(inp, p, c, n),
            SelfClosingStartTag => self.self_closing_start_tag_state(inp, p, c, n),
            BogusComment => self.bogus_comment_state(inp, p, c, n),
            MarkupDeclarationOpen => {
                if !self.markup_declaration_open_state(inp, p, c, n) {
                    return false;
                }
            }
            CommentStart => self.comment_start_state(inp, p, c, n),
            CommentStartDash => self.comment_start_dash_state(inp, p, c, n),
            Comment => self.comment_state(inp, p, c, n),
            CommentLessThanSign => self.comment_less_than_sign_state(inp, p, c, n),
            CommentLessThanSignBang => self.comment_less_than_sign_bang_state(inp, p, c, n),
            CommentLessThanSignBangDash => {
                self.comment_less_than_sign_bang_dash_state(inp, p, c, n)
            }
            CommentLessThanSignBangDashDash => {
                self.comment_less_than_sign_bang_dash_dash_state(inp, p, c, n)
            }
            CommentEndDash => self.comment_end_dash_state(inp, p, c, n),
            CommentEnd => self.comment_end_state(inp, p, c, n),
            CommentEndBang => self.comment_end_bang_state(inp, p, c, n),
            Doctype => self.doctype_state(inp, p, c, n),
            BeforeDoctypeName => self.before_doctype_name_state(inp, p, c, n),
            DoctypeName => self.doctype_name_state(inp, p, c, n),
            AfterDoctypeName => {
                if !self.after_doctype_name_state(inp, p, c, n) {
                    return false;
                }
            }
            AfterDoctypePublicKeyword => self.after_doctype_public_keyword_state(inp, p, c, n),
            AfterDoctypeSystemKeyword => self.after_doctype_system_keyword_state(inp, p, c, n),
            BeforeDoctypePublicIdentifier => {
                self.before_doctype_public_identifier_state(inp, p, c, n)
            }
            BeforeDoctypeSystemIdentifier => {
                self.before_doctype_system_identifier_state(inp, p, c, n)
            }
            DoctypePublicIdentifierDoubleQuoted => {
                self.doctype_public_identifier_double_quoted_state(inp, p, c, n)
            }
            DoctypePublicIdentifierSingleQuoted => {
                self.doctype_public_identifier_single_quoted_state(inp, p, c, n)
            }
            DoctypeSystemIdentifierDoubleQuoted => {
                self.doctype_system_identifier_double_quoted_state(inp, p, c, n)
            }
            DoctypeSystemIdentifierSingleQuoted => {
                self.doctype_system_identifier_single_quoted_state(inp, p, c, n)
            }
            AfterDoctypePublicIdentifier => {
                self.after_doctype_public_identifier_state(inp, p, c, n)
            }
            BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state(inp, p, c, n)
            }
            AfterDoctypeSystemIdentifier => {
                self.after_doctype_system_identifier_state(inp, p, c, n)
            }
            BogusDoctype => self.bogus_doctype_state(inp, p, c, n),
            CdataSection => self.cdata_section_state(inp, p, c, n),
            CdataSectionBracket => self.cdata_section_bracket_state(inp, p, c, n),
            CdataSectionEnd => self.cdata_section_end_state(inp, p, c, n),
            ProcessingInstructionOpen => self.processing_instruction_open_state(inp, p, c, n),
            ProcessingInstructionTarget => self.processing_instruction_target_state(inp, p, c, n),
            AfterProcessingInstructionTarget => {
                self.after_processing_instruction_target_state(inp, p, c, n)
            }
            ProcessingInstructionData => self.processing_instruction_data_state(inp, p, c, n),
            ProcessingInstructionQuestionable => {
                self.processing_instruction_questionable_state(inp, p, c, n)
            }
            CharacterReference => self.character_reference_state(inp, p, c, n),
            NamedCharacterReference => {
                if !self.named_character_reference_state(inp, p, c, n) {
                    return false;
                }
            }
            AmbiguousAmpersand => self.ambiguous_ampersand_state(inp, p, c, n),
            NumericCharacterReference => self.numeric_character_reference_state(inp, p, c, n),
            HexadecimalCharacterReferenceStart => {
                self.hexadecimal_character_reference_start_state(inp, p, c, n)
            }
            HexadecimalCharacterReference => {
                self.hexadecimal_character_reference_state(inp, p, c, n)
            }
            DecimalCharacterReference => self.decimal_character_reference_state(inp, p, c, n),
            NumericCharacterReferenceEnd => {
                self.numeric_character_reference_end_state(inp, p, c, n)
            }
        }
        true
    }
}

/// Which field a run is appended to.
#[derive(Clone, Copy)]
pub(super) enum Target {
    Text,
    TagName,
    AttrName,
    AttrValue,
    Comment,
    DoctypeName,
    DoctypePublic,
    DoctypeSystem,
    Nothing,
}
