//! The DOCTYPE states, from DOCTYPE to bogus DOCTYPE.

use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The standard's `doctype-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn doctype_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => self.state = BeforeDoctypeName,
            b'>' => {
                self.pos = p;
                self.state = BeforeDoctypeName;
            }
            EOF => {
                self.new_doctype();
                self.eof_in_doctype(inp, p);
            }
            _ => {
                self.err(inp, ErrorCode::MissingWhitespaceBeforeDoctypeName, p);
                self.pos = p;
                self.state = BeforeDoctypeName;
            }
        }
    }

    /// The standard's `before-doctype-name-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn before_doctype_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'>' => {
                self.err(inp, ErrorCode::MissingDoctypeName, p);
                self.new_doctype();
                self.out.force_quirks = true;
                self.state = Data;
                self.emit(Ready::Doctype, p + 1);
            }
            EOF => {
                self.new_doctype();
                self.eof_in_doctype(inp, p);
            }
            _ => {
                self.new_doctype();
                self.out.has_doctype_name = true;
                self.pos = p;
                self.state = DoctypeName;
            }
        }
    }

    /// The standard's `doctype-name-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn doctype_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => self.state = AfterDoctypeName,
            b'>' => {
                self.state = Data;
                self.emit(Ready::Doctype, p + 1);
            }
            b'A'..=b'Z' => self.out.doctype_name.push_str(inp, ascii_lower(c)),
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.out.doctype_name.push_str(inp, "\u{FFFD}");
            }
            EOF => self.eof_in_doctype(inp, p),
            _ => push_char(&mut self.out.doctype_name, *inp, p, n),
        }
    }

    /// The standard's `after-doctype-name-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_doctype_name_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) -> bool {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'>' => {
                self.state = Data;
                self.emit(Ready::Doctype, p + 1);
            }
            EOF => self.eof_in_doctype(inp, p),
            _ => {
                self.pos = p;
                let Some(public) = self.lookahead(inp, p, b"PUBLIC", true) else {
                    return false;
                };
                let Some(system) = self.lookahead(inp, p, b"SYSTEM", true) else {
                    return false;
                };
                if public {
                    self.pos = p + 6;
                    self.state = AfterDoctypePublicKeyword;
                } else if system {
                    self.pos = p + 6;
                    self.state = AfterDoctypeSystemKeyword;
                } else {
                    self.err(inp, ErrorCode::InvalidCharacterSequenceAfterDoctypeName, p);
                    self.out.force_quirks = true;
                    self.state = BogusDoctype;
                }
            }
        }
        true
    }

    /// The standard's `after-doctype-public-keyword-state`, whose shape is
    /// [`after_doctype_keyword`](Self::after_doctype_keyword)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_doctype_public_keyword_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.after_doctype_keyword(inp, p, c, n)
    }

    /// The standard's `after-doctype-system-keyword-state`, whose shape is
    /// [`after_doctype_keyword`](Self::after_doctype_keyword)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_doctype_system_keyword_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.after_doctype_keyword(inp, p, c, n)
    }

    /// The after DOCTYPE public and system keyword states: one shape, the identifier aside.
    #[inline(always)]
    fn after_doctype_keyword(&mut self, inp: &Window, p: usize, c: u8, _n: usize) {
        use State::*;
        let public = self.state == AfterDoctypePublicKeyword;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {
                self.state = if public {
                    BeforeDoctypePublicIdentifier
                } else {
                    BeforeDoctypeSystemIdentifier
                }
            }
            b'"' | b'\'' => {
                let code = if public {
                    ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword
                } else {
                    ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword
                };
                self.err(inp, code, p);
                self.start_doctype_id(public, c);
            }
            b'>' => self.missing_doctype_id(inp, public, p),
            EOF => self.eof_in_doctype(inp, p),
            _ => self.missing_quote_before_doctype_id(inp, public, p),
        }
    }

    /// The standard's `before-doctype-public-identifier-state`, whose shape is
    /// [`before_doctype_identifier`](Self::before_doctype_identifier)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn before_doctype_public_identifier_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.before_doctype_identifier(inp, p, c, n)
    }

    /// The standard's `before-doctype-system-identifier-state`, whose shape is
    /// [`before_doctype_identifier`](Self::before_doctype_identifier)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn before_doctype_system_identifier_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.before_doctype_identifier(inp, p, c, n)
    }

    /// The before DOCTYPE public and system identifier states: one shape, the identifier aside.
    #[inline(always)]
    fn before_doctype_identifier(&mut self, inp: &Window, p: usize, c: u8, _n: usize) {
        use State::*;
        let public = self.state == BeforeDoctypePublicIdentifier;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'"' | b'\'' => self.start_doctype_id(public, c),
            b'>' => self.missing_doctype_id(inp, public, p),
            EOF => self.eof_in_doctype(inp, p),
            _ => self.missing_quote_before_doctype_id(inp, public, p),
        }
    }

    /// The standard's `doctype-public-identifier-(double-quoted)-state`, whose shape is
    /// [`doctype_identifier_quoted`](Self::doctype_identifier_quoted)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn doctype_public_identifier_double_quoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.doctype_identifier_quoted(inp, p, c, n)
    }

    /// The standard's `doctype-public-identifier-(single-quoted)-state`, whose shape is
    /// [`doctype_identifier_quoted`](Self::doctype_identifier_quoted)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn doctype_public_identifier_single_quoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.doctype_identifier_quoted(inp, p, c, n)
    }

    /// The standard's `doctype-system-identifier-(double-quoted)-state`, whose shape is
    /// [`doctype_identifier_quoted`](Self::doctype_identifier_quoted)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn doctype_system_identifier_double_quoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.doctype_identifier_quoted(inp, p, c, n)
    }

    /// The standard's `doctype-system-identifier-(single-quoted)-state`, whose shape is
    /// [`doctype_identifier_quoted`](Self::doctype_identifier_quoted)'s.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn doctype_system_identifier_single_quoted_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        self.doctype_identifier_quoted(inp, p, c, n)
    }

    /// The four quoted DOCTYPE identifier states: one shape, the identifier and the quote aside.
    #[inline(always)]
    fn doctype_identifier_quoted(&mut self, inp: &Window, p: usize, c: u8, n: usize) {
        use State::*;
        let public = matches!(
            self.state,
            DoctypePublicIdentifierDoubleQuoted | DoctypePublicIdentifierSingleQuoted
        );
        let quote = if matches!(
            self.state,
            DoctypePublicIdentifierDoubleQuoted | DoctypeSystemIdentifierDoubleQuoted
        ) {
            b'"'
        } else {
            b'\''
        };
        let field = if public {
            &mut self.out.doctype_public
        } else {
            &mut self.out.doctype_system
        };
        match c {
            _ if c == quote => {
                self.state = if public {
                    AfterDoctypePublicIdentifier
                } else {
                    AfterDoctypeSystemIdentifier
                }
            }
            0 => {
                field.push_str(inp, "\u{FFFD}");
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
            }
            b'>' => {
                let code = if public {
                    ErrorCode::AbruptDoctypePublicIdentifier
                } else {
                    ErrorCode::AbruptDoctypeSystemIdentifier
                };
                self.err(inp, code, p);
                self.out.force_quirks = true;
                self.state = Data;
                self.emit(Ready::Doctype, p + 1);
            }
            EOF => self.eof_in_doctype(inp, p),
            _ => push_char(field, *inp, p, n),
        }
    }

    /// The standard's `after-doctype-public-identifier-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_doctype_public_identifier_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => self.state = BetweenDoctypePublicAndSystemIdentifiers,
            b'>' => {
                self.state = Data;
                self.emit(Ready::Doctype, p + 1);
            }
            b'"' | b'\'' => {
                self.err(
                    inp,
                    ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                    p,
                );
                self.start_doctype_id(false, c);
            }
            EOF => self.eof_in_doctype(inp, p),
            _ => self.missing_quote_before_doctype_id(inp, false, p),
        }
    }

    /// The standard's `between-doctype-public-and-system-identifiers-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn between_doctype_public_and_system_identifiers_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'>' => {
                self.state = Data;
                self.emit(Ready::Doctype, p + 1);
            }
            b'"' | b'\'' => self.start_doctype_id(false, c),
            EOF => self.eof_in_doctype(inp, p),
            _ => self.missing_quote_before_doctype_id(inp, false, p),
        }
    }

    /// The standard's `after-doctype-system-identifier-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn after_doctype_system_identifier_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'\t' | b'\n' | 0x0C | b' ' => {}
            b'>' => {
                self.state = Data;
                self.emit(Ready::Doctype, p + 1);
            }
            EOF => self.eof_in_doctype(inp, p),
            _ => {
                self.err(
                    inp,
                    ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
                    p,
                );
                self.pos = p;
                self.state = BogusDoctype;
            }
        }
    }

    /// The standard's `bogus-doctype-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn bogus_doctype_state(
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
                self.emit(Ready::Doctype, p + 1);
            }
            0 => self.err(inp, ErrorCode::UnexpectedNullCharacter, p),
            EOF => {
                self.state = Data;
                self.emit(Ready::Doctype, p);
            }
            _ => {}
        }
    }

    /// Emits the DOCTYPE with force-quirks on, then EOF (eof-in-doctype).
    pub(in crate::tokenizer::machine) fn eof_in_doctype(&mut self, inp: &Window, p: usize) {
        self.err(inp, ErrorCode::EofInDoctype, p);
        self.out.force_quirks = true;
        self.emit(Ready::Doctype, p);
        self.state = State::Data;
    }

    pub(in crate::tokenizer::machine) fn start_doctype_id(&mut self, public: bool, quote: u8) {
        use State::*;
        if public {
            self.out.doctype_public.clear();
            self.out.has_doctype_public = true;
            self.state = if quote == b'"' {
                DoctypePublicIdentifierDoubleQuoted
            } else {
                DoctypePublicIdentifierSingleQuoted
            };
        } else {
            self.out.doctype_system.clear();
            self.out.has_doctype_system = true;
            self.state = if quote == b'"' {
                DoctypeSystemIdentifierDoubleQuoted
            } else {
                DoctypeSystemIdentifierSingleQuoted
            };
        }
    }

    pub(in crate::tokenizer::machine) fn missing_doctype_id(
        &mut self,
        inp: &Window,
        public: bool,
        p: usize,
    ) {
        let code = if public {
            ErrorCode::MissingDoctypePublicIdentifier
        } else {
            ErrorCode::MissingDoctypeSystemIdentifier
        };
        self.err(inp, code, p);
        self.out.force_quirks = true;
        self.state = State::Data;
        self.emit(Ready::Doctype, p + 1);
    }

    pub(in crate::tokenizer::machine) fn missing_quote_before_doctype_id(
        &mut self,
        inp: &Window,
        public: bool,
        p: usize,
    ) {
        let code = if public {
            ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
        } else {
            ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
        };
        self.err(inp, code, p);
        self.out.force_quirks = true;
        self.pos = p;
        self.state = State::BogusDoctype;
    }
}
