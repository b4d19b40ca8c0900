//! The tag states: tag open, tag name, attributes and self-closing.

use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The standard's `tag-open-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn tag_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'!' => self.state = MarkupDeclarationOpen,
            b'/' => self.state = EndTagOpen,
            b'a'..=b'z' | b'A'..=b'Z' => {
                self.new_tag(false, p);
                self.pos = p;
                self.state = TagName;
            }
            b'?' if self.processing_instructions => {
                self.temp.clear();
                self.state = ProcessingInstructionOpen;
            }
            b'?' => {
                self.err(inp, ErrorCode::UnexpectedQuestionMarkInsteadOfTagName, p);
                self.new_comment();
                self.pos = p;
                self.state = BogusComment;
            }
            EOF => {
                self.err(inp, ErrorCode::EofBeforeTagName, p);
                self.emit_since_lt(inp, p, "<");
                self.emit_eof(inp);
            }
            _ => {
                self.err(inp, ErrorCode::InvalidFirstCharacterOfTagName, p);
                self.emit_since_lt(inp, p, "<");
                self.pos = p;
                self.state = Data;
            }
        }
    }

    /// The standard's `end-tag-open-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn end_tag_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {
                self.new_tag(true, p);
                self.pos = p;
                self.state = TagName;
            }
            b'>' => {
                self.err(inp, ErrorCode::MissingEndTagName, p);
                self.state = Data;
            }
            EOF => {
                self.err(inp, ErrorCode::EofBeforeTagName, p);
                self.out.tag_name.clear();
                self.emit_since_lt(inp, p, "</");
                self.emit_eof(inp);
            }
            _ => {
                self.err(inp, ErrorCode::InvalidFirstCharacterOfTagName, p);
                self.new_comment();
                self.pos = p;
                self.state = BogusComment;
            }
        }
    }

    /// The standard's `tag-name-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn tag_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => self.state = BeforeAttributeName,
            b'/' => self.state = SelfClosingStartTag,
            b'>' => {
                self.state = Data;
                self.emit_tag(inp, p + 1);
            }
            b'A'..=b'Z' => {
                self.out.tag_name.push_str(inp, ascii_lower(c));
                self.out.tag_name_span.end = p + 1;
            }
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.out.tag_name.push_str(inp, "\u{FFFD}");
                self.out.tag_name_span.end = p + 1;
            }
            EOF => {
                self.err(inp, ErrorCode::EofInTag, p);
                self.emit_eof(inp);
            }
            _ => {
                push_char(&mut self.out.tag_name, *inp, p, n);
                self.out.tag_name_span.end = p + n;
            }
        }
    }

    /// The standard's `before-attribute-name-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn before_attribute_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'/' | b'>' | EOF => {
                self.pos = p;
                self.state = AfterAttributeName;
            }
            b'=' => {
                self.err(inp, ErrorCode::UnexpectedEqualsSignBeforeAttributeName, p);
                self.new_attr(p);
                self.attr_name.push_input(inp, p, p + 1);
                self.state = AttributeName;
            }
            _ => {
                self.new_attr(p);
                self.pos = p;
                self.state = AttributeName;
            }
        }
    }

    /// The standard's `attribute-name-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn attribute_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>' | EOF => {
                self.check_duplicate_attr(inp, p);
                self.pos = p;
                self.state = AfterAttributeName;
            }
            b'=' => {
                self.check_duplicate_attr(inp, p);
                self.state = BeforeAttributeValue;
            }
            b'A'..=b'Z' => self.attr_name.push_str(inp, ascii_lower(c)),
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.attr_name.push_str(inp, "\u{FFFD}");
            }
            b'"' | b'\'' | b'<' => {
                self.err(inp, ErrorCode::UnexpectedCharacterInAttributeName, p);
                self.attr_name.push_input(inp, p, p + 1);
            }
            _ => push_char(&mut self.attr_name, *inp, p, n),
        }
    }

    /// The standard's `after-attribute-name-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_attribute_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'/' => self.state = SelfClosingStartTag,
            b'=' => self.state = BeforeAttributeValue,
            b'>' => {
                self.state = Data;
                self.emit_tag(inp, p + 1);
            }
            EOF => {
                self.err(inp, ErrorCode::EofInTag, p);
                self.emit_eof(inp);
            }
            _ => {
                self.new_attr(p);
                self.pos = p;
                self.state = AttributeName;
            }
        }
    }

    /// The standard's `before-attribute-value-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn before_attribute_value_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'"' => {
                self.attr_value_span = Span {
                    start: p + 1,
                    end: p + 1,
                };
                self.state = AttributeValueDoubleQuoted;
            }
            b'\'' => {
                self.attr_value_span = Span {
                    start: p + 1,
                    end: p + 1,
                };
                self.state = AttributeValueSingleQuoted;
            }
            b'>' => {
                self.err(inp, ErrorCode::MissingAttributeValue, p);
                self.state = Data;
                self.emit_tag(inp, p + 1);
            }
            _ => {
                self.attr_value_span = Span { start: p, end: p };
                self.pos = p;
                self.state = AttributeValueUnquoted;
            }
        }
    }

    /// The standard's `attribute-value-(double-quoted)-state`, whose shape is
    /// [`attribute_value_quoted`](Self::attribute_value_quoted)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn attribute_value_double_quoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.attribute_value_quoted(inp, p, c, n)
    }

    /// The standard's `attribute-value-(single-quoted)-state`, whose shape is
    /// [`attribute_value_quoted`](Self::attribute_value_quoted)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn attribute_value_single_quoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.attribute_value_quoted(inp, p, c, n)
    }

    /// The two quoted attribute value states: one shape, the quote aside.
    #[inline(always)]
    fn attribute_value_quoted(&mut self, inp: &Window, p: usize, c: u8, n: usize) {
        use State::*;
        let quote = if self.state == AttributeValueDoubleQuoted {
            b'"'
        } else {
            b'\''
        };
        match c {
            _ if c == quote => {
                self.attr_value_span.end = p;
                self.state = AfterAttributeValueQuoted;
            }
            b'&' => self.ampersand(inp, p, self.state),
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.attr_value.push_str(inp, "\u{FFFD}");
            }
            EOF => {
                self.err(inp, ErrorCode::EofInTag, p);
                self.emit_eof(inp);
            }
            _ => push_char(&mut self.attr_value, *inp, p, n),
        }
    }

    /// The standard's `attribute-value-(unquoted)-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn attribute_value_unquoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {
                self.attr_value_span.end = p;
                self.state = BeforeAttributeName;
            }
            b'&' => self.ampersand(inp, p, AttributeValueUnquoted),
            b'>' => {
                self.attr_value_span.end = p;
                self.state = Data;
                self.emit_tag(inp, p + 1);
            }
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.attr_value.push_str(inp, "\u{FFFD}");
            }
            b'"' | b'\'' | b'<' | b'=' | b'`' => {
                self.err(
                    inp,
                    ErrorCode::UnexpectedCharacterInUnquotedAttributeValue,
                    p,
                );
                self.attr_value.push_input(inp, p, p + 1);
            }
            EOF => {
                self.err(inp, ErrorCode::EofInTag, p);
                self.emit_eof(inp);
            }
            _ => push_char(&mut self.attr_value, *inp, p, n),
        }
    }

    /// The standard's `after-attribute-value-(quoted)-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_attribute_value_quoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => self.state = BeforeAttributeName,
            b'/' => self.state = SelfClosingStartTag,
            b'>' => {
                self.state = Data;
                self.emit_tag(inp, p + 1);
            }
            EOF => {
                self.err(inp, ErrorCode::EofInTag, p);
                self.emit_eof(inp);
            }
            _ => {
                self.err(inp, ErrorCode::MissingWhitespaceBetweenAttributes, p);
                self.pos = p;
                self.state = BeforeAttributeName;
            }
        }
    }

    /// The standard's `self-closing-start-tag-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn self_closing_start_tag_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'>' => {
                self.out.self_closing = true;
                self.state = Data;
                self.emit_tag(inp, p + 1);
            }
            EOF => {
                self.err(inp, ErrorCode::EofInTag, p);
                self.emit_eof(inp);
            }
            _ => {
                self.err(inp, ErrorCode::UnexpectedSolidusInTag, p);
                self.pos = p;
                self.state = BeforeAttributeName;
            }
        }
    }
}
