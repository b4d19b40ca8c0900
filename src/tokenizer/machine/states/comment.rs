//! The comment states, from markup declaration open to comment end bang,
//! and bogus comments.

use crate::tokenizer::machine::*;

impl<E: ErrorPolicy, A: AttributePolicy> Machine<E, A> {
    /// The standard's `bogus-comment-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn bogus_comment_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'>' => {
                self.state = Data;
                self.emit(Ready::Comment, p + 1);
            }
            EOF => {
                self.emit(Ready::Comment, p);
                self.state = Data;
            }
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.out.comment.push_str(inp, "\u{FFFD}");
            }
            _ => push_char(&mut self.out.comment, *inp, p, n),
        }
    }

    /// The standard's `markup-declaration-open-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn markup_declaration_open_state(
        &mut self,
        inp: &Window,
        p: usize,
        _c: u8,
        _n: usize,
    ) -> bool {
        self.pos = p;
        match self.markup_declaration(inp, p) {
            Some(()) => {}
            None => return false,
        }
        true
    }

    /// The standard's `comment-start-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_start_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'-' => self.state = CommentStartDash,
            b'>' => {
                self.err(inp, ErrorCode::AbruptClosingOfEmptyComment, p);
                self.state = Data;
                self.emit(Ready::Comment, p + 1);
            }
            _ => {
                self.pos = p;
                self.state = Comment;
            }
        }
    }

    /// The standard's `comment-start-dash-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_start_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'-' => self.state = CommentEnd,
            b'>' => {
                self.err(inp, ErrorCode::AbruptClosingOfEmptyComment, p);
                self.state = Data;
                self.emit(Ready::Comment, p + 1);
            }
            EOF => self.eof_in_comment(inp, p),
            _ => {
                self.comment_back(inp, p, 1, 1, "-");
                self.pos = p;
                self.state = Comment;
            }
        }
    }

    /// The standard's `comment-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        n: usize,
    ) {
        use State::*;
        match c {
            b'<' => {
                self.out.comment.push_input(inp, p, p + 1);
                self.state = CommentLessThanSign;
            }
            b'-' => self.state = CommentEndDash,
            0 => {
                self.err(inp, ErrorCode::UnexpectedNullCharacter, p);
                self.out.comment.push_str(inp, "\u{FFFD}");
            }
            EOF => self.eof_in_comment(inp, p),
            _ => push_char(&mut self.out.comment, *inp, p, n),
        }
    }

    /// The standard's `comment-less-than-sign-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_less_than_sign_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'!' => {
                self.out.comment.push_input(inp, p, p + 1);
                self.state = CommentLessThanSignBang;
            }
            b'<' => self.out.comment.push_input(inp, p, p + 1),
            _ => {
                self.pos = p;
                self.state = Comment;
            }
        }
    }

    /// The standard's `comment-less-than-sign-bang-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_less_than_sign_bang_state(
        &mut self,
        _inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        if c == b'-' {
            self.state = CommentLessThanSignBangDash;
        } else {
            self.pos = p;
            self.state = Comment;
        }
    }

    /// The standard's `comment-less-than-sign-bang-dash-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_less_than_sign_bang_dash_state(
        &mut self,
        _inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        if c == b'-' {
            self.state = CommentLessThanSignBangDashDash;
        } else {
            self.pos = p;
            self.state = CommentEndDash;
        }
    }

    /// The standard's `comment-less-than-sign-bang-dash-dash-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_less_than_sign_bang_dash_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        if c != b'>' && c != EOF {
            self.err(inp, ErrorCode::NestedComment, p);
        }
        self.pos = p;
        self.state = CommentEnd;
    }

    /// The standard's `comment-end-dash-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_end_dash_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'-' => self.state = CommentEnd,
            EOF => self.eof_in_comment(inp, p),
            _ => {
                self.comment_back(inp, p, 1, 1, "-");
                self.pos = p;
                self.state = Comment;
            }
        }
    }

    /// The standard's `comment-end-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_end_state(
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
                self.emit(Ready::Comment, p + 1);
            }
            b'!' => self.state = CommentEndBang,
            // Of the three dashes, the first joins the data.
            b'-' => self.comment_back(inp, p, 2, 1, "-"),
            EOF => self.eof_in_comment(inp, p),
            _ => {
                self.comment_back(inp, p, 2, 2, "--");
                self.pos = p;
                self.state = Comment;
            }
        }
    }

    /// The standard's `comment-end-bang-state`.
    #[inline(always)]
    pub(in crate::tokenizer::machine) fn comment_end_bang_state(
        &mut self,
        inp: &Window,
        p: usize,
        c: u8,
        _n: usize,
    ) {
        use State::*;
        match c {
            b'-' => {
                self.comment_back(inp, p, 3, 3, "--!");
                self.state = CommentEndDash;
            }
            b'>' => {
                self.err(inp, ErrorCode::IncorrectlyClosedComment, p);
                self.state = Data;
                self.emit(Ready::Comment, p + 1);
            }
            EOF => self.eof_in_comment(inp, p),
            _ => {
                self.comment_back(inp, p, 3, 3, "--!");
                self.pos = p;
                self.state = Comment;
            }
        }
    }

    /// Appends to the comment the `len` bytes before `p`, which the standard
    /// appends as `literal` (dashes, `--!`, `?`): borrowed from the input
    /// when the machine consumed them.
    pub(in crate::tokenizer::machine) fn comment_back(
        &mut self,
        inp: &Window,
        p: usize,
        back: usize,
        len: usize,
        literal: &str,
    ) {
        match p.checked_sub(back) {
            Some(from) if self.consumed_since(from) => {
                self.out.comment.push_input(inp, from, from + len)
            }
            _ => self.out.comment.push_str(inp, literal),
        }
    }

    pub(in crate::tokenizer::machine) fn eof_in_comment(&mut self, inp: &Window, p: usize) {
        self.err(inp, ErrorCode::EofInComment, p);
        self.emit(Ready::Comment, p);
        self.state = State::Data;
    }

    /// `markup-declaration-open-state`, at `p` (just after `<!`).
    /// Returns `None` when the window is too short to decide.
    pub(in crate::tokenizer::machine) fn markup_declaration(
        &mut self,
        inp: &Window,
        p: usize,
    ) -> Option<()> {
        if self.lookahead(inp, p, b"--", false)? {
            self.pos = p + 2;
            self.new_comment();
            self.state = State::CommentStart;
        } else if self.lookahead(inp, p, b"DOCTYPE", true)? {
            self.pos = p + 7;
            self.state = State::Doctype;
        } else if self.lookahead(inp, p, b"[CDATA[", false)? {
            self.pos = p + 7;
            if self.cdata_allowed {
                self.state = State::CdataSection;
            } else {
                self.err(inp, ErrorCode::CdataInHtmlContent, p + 6);
                self.new_comment();
                self.out.comment.push_input(inp, p, p + 7);
                self.state = State::BogusComment;
            }
        } else {
            self.err(inp, ErrorCode::IncorrectlyOpenedComment, p);
            self.new_comment();
            self.state = State::BogusComment;
        }
        Some(())
    }
}
