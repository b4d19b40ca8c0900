//! The processing instruction states.

use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The standard's `processing-instruction-open-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn processing_instruction_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                self.pos = p;
                self.state = ProcessingInstructionTarget;
            }
            EOF => {
                self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                self.emit_eof(inp);
            }
            _ => {
                self.err(
                    inp,
                    ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
                    p,
                );
                self.pi_to_bogus_comment(inp, p);
            }
        }
    }

    /// The standard's `processing-instruction-target-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn processing_instruction_target_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' => {
                // Only equality with "xml" and "xml-stylesheet" matters
                // (the target itself is an input range): a bounded
                // buffer does.
                if self.temp.len() <= 14 {
                    self.temp.push(c);
                }
            }
            b'\t' | b'\n' | 0x0C | b' ' | b'?' | b'>' => {
                if self.temp.eq_ignore_ascii_case(b"xml")
                    || self.temp.eq_ignore_ascii_case(b"xml-stylesheet")
                {
                    self.err(inp, ErrorCode::DisallowedProcessingInstructionTarget, p);
                    self.pi_to_bogus_comment(inp, p);
                } else {
                    self.out.pi_target.clear();
                    if self.lt_read && self.consumed_since(self.lt) {
                        self.out.pi_target.push_input(inp, self.lt + 2, p);
                    } else {
                        // `temp` holds ASCII letters, digits, `-`, `_`.
                        let target = String::from_utf8_lossy(&self.temp).into_owned();
                        self.out.pi_target.push_str(inp, &target);
                    }
                    self.out.comment.clear();
                    self.stale_comment = false;
                    self.pos = p;
                    self.state = AfterProcessingInstructionTarget;
                }
            }
            EOF => {
                self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                self.emit_eof(inp);
            }
            _ => {
                self.err(inp, ErrorCode::InvalidProcessingInstructionTarget, p);
                self.pi_to_bogus_comment(inp, p);
            }
        }
    }

    /// The standard's `after-processing-instruction-target-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_processing_instruction_target_state(
        &mut self,
        _inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            _ => {
                self.pos = p;
                self.state = ProcessingInstructionData;
            }
        }
    }

    /// The standard's `processing-instruction-data-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn processing_instruction_data_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'?' => self.state = ProcessingInstructionQuestionable,
            b'>' => {
                self.state = Data;
                self.emit(Ready::ProcessingInstruction, p + 1);
            }
            EOF => {
                self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                self.emit_eof(inp);
            }
            _ => push_char(&mut self.out.comment, *inp, p, n),
        }
    }

    /// The standard's `processing-instruction-questionable-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn processing_instruction_questionable_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'>' => {
                self.state = Data;
                self.emit(Ready::ProcessingInstruction, p + 1);
            }
            EOF => {
                self.err(inp, ErrorCode::EofInProcessingInstruction, p);
                self.emit_eof(inp);
            }
            _ => {
                self.comment_back(inp, p, 1, 1, "?");
                self.pos = p;
                self.state = ProcessingInstructionData;
            }
        }
    }

    /// The processing instruction states' "convert the temporary buffer to a
    /// comment": the comment's data is `?` and the buffer, which are the
    /// input bytes after the `<`; then reconsume in the bogus comment state.
    pub(in crate::tokenizer::machine) fn pi_to_bogus_comment(&mut self, inp: &Window, p: usize) {
        self.new_comment();
        if self.lt_read && self.consumed_since(self.lt) {
            self.out.comment.push_input(inp, self.lt + 1, p);
        } else {
            // `temp` holds ASCII letters, digits, `-`, `_`.
            let data = format!("?{}", String::from_utf8_lossy(&self.temp));
            self.out.comment.push_str(inp, &data);
        }
        self.pos = p;
        self.state = State::BogusComment;
    }
}
