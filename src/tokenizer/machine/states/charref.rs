//! The character reference states, and the helpers of the states that
//! read references (flushing, the return state).

use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The standard's `character-reference-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn character_reference_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => {
                self.pos = p;
                self.state = NamedCharacterReference;
            }
            b'#' => {
                self.charref_code = 0;
                self.state = NumericCharacterReference;
            }
            _ => {
                self.flush_since_amp(inp, p, p, "&");
                self.pos = p;
                self.state = self.return_state;
            }
        }
    }

    /// The standard's `named-character-reference-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn named_character_reference_state(
        &mut self,
        inp: &Window,
        p: usize,
        _c: u8,
        _n: usize,
    ) -> bool {
        self.pos = p;
        if !self.named_character_reference(inp, p) {
            return false;
        }
        true
    }

    /// The standard's `ambiguous-ampersand-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn ambiguous_ampersand_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => {
                let run = inp
                    .from(p)
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric())
                    .count();
                self.pos = p + run;
                self.flush_input(inp, p, p + run);
            }
            b';' => {
                self.err(inp, ErrorCode::UnknownNamedCharacterReference, p);
                self.pos = p;
                self.state = self.return_state;
            }
            _ => {
                self.pos = p;
                self.state = self.return_state;
            }
        }
    }

    /// The standard's `numeric-character-reference-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn numeric_character_reference_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'x' | b'X' => self.state = HexadecimalCharacterReferenceStart,
            b'0'..=b'9' => {
                self.pos = p;
                self.state = DecimalCharacterReference;
            }
            _ => {
                self.err(
                    inp,
                    ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
                    p,
                );
                self.flush_since_amp(inp, p, p, "&#");
                self.pos = p;
                self.state = self.return_state;
            }
        }
    }

    /// The standard's `hexadecimal-character-reference-start-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn hexadecimal_character_reference_start_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        self.pos = p;
        if c.is_ascii_hexdigit() {
            self.state = HexadecimalCharacterReference;
        } else {
            self.err(
                inp,
                ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
                p,
            );
            self.flush_since_amp(inp, p, p, "&#x");
            self.state = self.return_state;
        }
    }

    /// The standard's `hexadecimal-character-reference-state`, whose shape is
    /// [`numeric_character_reference_digits`](Self::numeric_character_reference_digits)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn hexadecimal_character_reference_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.numeric_character_reference_digits(inp, p, c, n)
    }

    /// The standard's `decimal-character-reference-state`, whose shape is
    /// [`numeric_character_reference_digits`](Self::numeric_character_reference_digits)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn decimal_character_reference_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.numeric_character_reference_digits(inp, p, c, n)
    }

    /// The hexadecimal and decimal character reference states: one shape, the base aside.
    #[inline(always)]
    fn numeric_character_reference_digits(&mut self, inp: &Window, p: usize, c: u8, _n: usize) {
        use State::*;
        let radix = if self.state == HexadecimalCharacterReference {
            16
        } else {
            10
        };
        match (c as char).to_digit(radix) {
            Some(d) if c != EOF => {
                self.charref_code = charref::push_digit(self.charref_code, radix, d);
            }
            _ if c == b';' => self.state = NumericCharacterReferenceEnd,
            _ => {
                self.err(inp, ErrorCode::MissingSemicolonAfterCharacterReference, p);
                self.pos = p;
                self.state = NumericCharacterReferenceEnd;
            }
        }
    }

    /// The standard's `numeric-character-reference-end-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn numeric_character_reference_end_state(
        &mut self,
        inp: &Window,
        p: usize,
        _c: u8,
        _n: usize,
    ) {
        self.pos = p;
        let (ch, error) = charref::resolve_numeric(self.charref_code);
        if let Some(code) = error {
            self.err(inp, code, p);
        }
        let mut utf8 = [0u8; 4];
        let text = ch.encode_utf8(&mut utf8);
        self.flush_str(inp, text, self.amp, p);
        self.state = self.return_state;
    }

    /// A `&` read at `p` in a state with character references, which
    /// returns to `return_state`.
    pub(in crate::tokenizer::machine) fn ampersand(
        &mut self,
        inp: &Window,
        p: usize,
        return_state: State,
    ) {
        let q = self.literal_ampersands(inp, p);
        if q > p {
            if matches!(return_state, State::Data | State::Rcdata) {
                self.emit_input(inp, p, q);
            } else {
                self.attr_value.push_input(inp, p, q);
            }
            self.pos = q;
            return;
        }
        self.return_state = return_state;
        self.amp = p;
        self.amp_read = true;
        self.state = State::CharacterReference;
    }

    /// The end of the run of `&` from `p` (a `&` the machine just read)
    /// whose every `&` is followed by a byte that cannot start a character
    /// reference: the character reference state would flush each as
    /// itself and reconsume in the return state, without an error. Taking
    /// the run at once keeps `&&&&…` from costing three steps a byte. `p`
    /// when the first `&` may start a reference (or the window ends).
    pub(in crate::tokenizer::machine) fn literal_ampersands(
        &self,
        inp: &Window,
        p: usize,
    ) -> usize {
        let bytes = inp.from(p);
        let mut n = 0;
        while n + 1 < bytes.len()
            && bytes[n] == b'&'
            && !matches!(bytes[n + 1], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'#')
        {
            n += 1;
        }
        p + n
    }

    pub(in crate::tokenizer::machine) fn return_state_is_attribute(&self) -> bool {
        matches!(
            self.return_state,
            State::AttributeValueDoubleQuoted
                | State::AttributeValueSingleQuoted
                | State::AttributeValueUnquoted
        )
    }

    /// The standard's "flush code points consumed as a character reference",
    /// for code points that are input bytes `s..e`.
    pub(in crate::tokenizer::machine) fn flush_input(&mut self, inp: &Window, s: usize, e: usize) {
        if self.return_state_is_attribute() {
            self.attr_value.push_input(inp, s, e);
        } else {
            self.emit_input(inp, s, e);
        }
    }

    /// "Flush code points consumed as a character reference" for decoded
    /// characters standing for input bytes `s..e`.
    pub(in crate::tokenizer::machine) fn flush_str(
        &mut self,
        inp: &Window,
        text: &str,
        s: usize,
        e: usize,
    ) {
        if self.return_state_is_attribute() {
            self.attr_value.push_str(inp, text);
        } else {
            self.emit_str(*inp, text, s, e);
        }
    }

    /// "Flush code points consumed as a character reference" for the input
    /// from the `&` to `to`; `literal` stands for the part before `p` if the
    /// machine did not read it itself.
    pub(in crate::tokenizer::machine) fn flush_since_amp(
        &mut self,
        inp: &Window,
        p: usize,
        to: usize,
        literal: &str,
    ) {
        if self.amp_read && self.consumed_since(self.amp) {
            self.flush_input(inp, self.amp, to);
        } else {
            let mut text = literal.to_owned();
            text.push_str(inp.str(p, to));
            self.flush_str(inp, &text, p, to);
        }
    }

    /// `named-character-reference-state`, at `p` (an ASCII
    /// alphanumeric after `&`). Returns `false` when the window is too short
    /// to know the longest match.
    pub(in crate::tokenizer::machine) fn named_character_reference(
        &mut self,
        inp: &Window,
        p: usize,
    ) -> bool {
        let in_attribute = self.return_state_is_attribute();
        let (len, value, missing_semicolon, literal) =
            match charref::match_named(inp.from(p), inp.eof, in_attribute) {
                // The name could go on past the window's end.
                Named::NeedMore => return false,
                Named::NoMatch => {
                    self.flush_since_amp(inp, p, p, "&");
                    self.state = State::AmbiguousAmpersand;
                    return true;
                }
                Named::Match {
                    len,
                    value,
                    missing_semicolon,
                    literal,
                } => (len, value, missing_semicolon, literal),
            };
        let end = p + len;
        self.pos = end;
        self.state = self.return_state;
        if literal {
            // For historical reasons, `&ampx` and `&amp=` stay as written
            // inside attribute values.
            self.flush_since_amp(inp, p, end, "&");
            return true;
        }
        if missing_semicolon {
            self.err(inp, ErrorCode::MissingSemicolonAfterCharacterReference, end);
        }
        self.flush_str(inp, value, self.amp, end);
        true
    }
}
