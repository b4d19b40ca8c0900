//! The driver loop: each htmltok token to html5ever's tree builder, and the
//! tree builder's answer back to the tokenizer.
//!
//! html5ever's own tokenizer does the same with its own tokens; the tree
//! builder sees the same tokens either way except that htmltok hands out
//! each run of text as one token where html5ever splits runs at line
//! feeds, references and NULs. The tree builder handles a run the same in
//! pieces or whole (it splits runs itself where a mode needs it), with one
//! exception kept here: a NUL in the Data state (and in a CDATA section)
//! is its own token in html5ever's tokenizer, which the tree builder drops
//! or replaces, so runs are cut at NULs into `NullCharacterToken`s. (In the
//! other text states htmltok has already replaced NUL by U+FFFD, as the
//! standard says.)

use std::borrow::Cow;

use ::html5ever::tokenizer::{
    CharacterTokens, CommentToken, DoctypeToken, EOFToken, NullCharacterToken,
    ParseError as H5Error, TagKind, TagToken, Token as H5Token, TokenSink, TokenSinkResult,
};
use ::html5ever::tree_builder::{TreeBuilder, TreeSink};

use super::convert::{self, Tendrils};
use crate::tokenizer::ErrorPolicy;
use crate::{ErrorCode, ParseError, State, StreamTokenizer, Token, Tokenizer};

/// What the driver needs of a tokenizer: a whole document's or a stream's.
pub(crate) trait TokenSource {
    /// Whether it collects parse errors (a compile-time constant, so the
    /// error code disappears from a driver that does not report them).
    const ERRORS: bool;
    fn next_token(&mut self) -> Option<Token<'_>>;
    fn set_state(&mut self, state: State);
    fn set_cdata_allowed(&mut self, allowed: bool);
    fn errors(&self) -> &[ParseError];
    fn take_errors(&mut self) -> Vec<ParseError>;
    /// Moves `lines` to absolute offset `to`, the end of the token just
    /// handed out.
    fn count_lines(&self, lines: &mut Lines, to: usize);
}

/// The methods both tokenizers have under the same names.
macro_rules! delegate_to {
    ($tokenizer:ident) => {
        const ERRORS: bool = E::ENABLED;
        #[inline(always)]
        fn next_token(&mut self) -> Option<Token<'_>> {
            $tokenizer::next_token(self)
        }
        fn set_state(&mut self, state: State) {
            $tokenizer::set_state(self, state)
        }
        fn set_cdata_allowed(&mut self, allowed: bool) {
            $tokenizer::set_cdata_allowed(self, allowed)
        }
        fn errors(&self) -> &[ParseError] {
            $tokenizer::errors(self)
        }
        fn take_errors(&mut self) -> Vec<ParseError> {
            $tokenizer::take_errors(self)
        }
    };
}

impl<E: ErrorPolicy> TokenSource for Tokenizer<'_, E> {
    delegate_to!(Tokenizer);
    #[inline]
    fn count_lines(&self, lines: &mut Lines, to: usize) {
        lines.advance(self.input().as_bytes(), 0, to);
    }
}

impl<E: ErrorPolicy> TokenSource for StreamTokenizer<E> {
    delegate_to!(StreamTokenizer);
    #[inline]
    fn count_lines(&self, lines: &mut Lines, to: usize) {
        let (window, origin) = self.window();
        if lines.offset < origin {
            // Bytes the stream dropped before they were counted (between
            // tokens, which rarely leave a gap): its own line index knows.
            lines.line = self.window_start_line() as u64;
            lines.offset = origin;
            lines.after_cr = false;
        }
        lines.advance(window.as_bytes(), origin, to);
    }
}

/// The line number html5ever's tree builder is told with each token (it
/// passes it to `TreeSink::set_current_line`): 1 plus the line breaks
/// before the token's end, CR, LF and CRLF counting one each, as
/// html5ever's tokenizer counts them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    /// Absolute offset counted up to.
    offset: usize,
    line: u64,
    /// The byte before `offset` was a CR (an LF next ends no line).
    after_cr: bool,
}

impl Lines {
    pub(crate) fn new() -> Lines {
        Lines {
            offset: 0,
            line: 1,
            after_cr: false,
        }
    }

    /// Counts the breaks up to absolute offset `to` in `window`, the input
    /// from absolute offset `origin`, which holds this index's offset.
    #[inline]
    fn advance(&mut self, window: &[u8], origin: usize, to: usize) {
        let (Some(from), Some(to)) = (self.offset.checked_sub(origin), to.checked_sub(origin))
        else {
            return;
        };
        let Some(bytes) = window.get(from..to) else {
            return;
        };
        let Some(&last) = bytes.last() else {
            return;
        };
        let breaks = if bytes.len() >= 64 {
            crate::scan::lines::line_breaks(bytes, self.after_cr)
        } else {
            short_breaks(bytes, self.after_cr)
        };
        self.line += breaks as u64;
        self.after_cr = last == b'\r';
        self.offset += bytes.len();
    }
}

/// Line breaks in a short stretch: a search from break to break.
#[inline]
fn short_breaks(bytes: &[u8], mut after_cr: bool) -> usize {
    let mut n = 0;
    let mut at = 0;
    while let Some(i) = memchr::memchr2(b'\n', b'\r', &bytes[at..]) {
        let b = bytes[at + i];
        if !(b == b'\n' && after_cr && i == 0) {
            n += 1;
        }
        after_cr = b == b'\r';
        at += i + 1;
    }
    n
}

/// Feeds `tree` every token `source` has, obeying its answers, until the
/// source needs more input (`false`) or has handed out its end of file
/// (`true`, after which the tree builder has been told the end).
///
/// The tokens are handed over in the order the tokenizer makes them, with
/// its parse errors (if it collects them) as `ParseError` tokens: those
/// found while making a tag, comment, DOCTYPE or the end of file before it,
/// those found in a text run after it. The order matters beyond the
/// errors' own: any token, an error too, ends the tree builder's wait for
/// the line feed to drop after `<pre>`, `<listing>` and `<textarea>`.
///
/// With `count_lines`, each token goes with its line (see [`Lines`]; a
/// text run with the line of its first character); without, every token
/// is on line 1 (errors keep their own lines).
pub(crate) fn drive<S, Sink>(
    source: &mut S,
    tree: &TreeBuilder<Sink::Handle, Sink>,
    tendrils: &Tendrils<'_>,
    lines: &mut Lines,
    count_lines: bool,
) -> bool
where
    S: TokenSource,
    Sink: TreeSink,
    Sink::Handle: Clone,
{
    loop {
        let Some(token) = source.next_token() else {
            return false;
        };
        // The token borrows the tokenizer: each arm converts it and lets
        // it go before the tokenizer is asked anything else.
        let (converted, span) = match token {
            Token::Text(text) => {
                let end = text.span().end;
                // The line html5ever's tokenizer gives a run's first
                // piece: it hands out a line break alone, after counting it.
                let line = lines.line + u64::from(count_lines && text.as_str().starts_with('\n'));
                characters(tree, tendrils, text.as_str(), line);
                if count_lines {
                    source.count_lines(lines, end);
                }
                flush_errors(source, tree);
                update_cdata(source, tree);
                continue;
            }
            Token::StartTag(tag) => (
                TagToken(tendrils.tag(TagKind::StartTag, &tag, false)),
                tag.span(),
            ),
            Token::EndTag(tag) => (
                TagToken(tendrils.tag(TagKind::EndTag, &tag, false)),
                tag.span(),
            ),
            Token::Comment(text) => (CommentToken(tendrils.of(text.as_str())), text.span()),
            Token::Doctype(doctype) => (DoctypeToken(tendrils.doctype(&doctype)), doctype.span()),
            // Never handed out: the parse functions keep
            // `Config::processing_instructions` off, as html5ever's tree
            // builder expects `<?` to be a bogus comment.
            Token::ProcessingInstruction(_) => continue,
            Token::Eof => {
                flush_errors(source, tree);
                let _ = tree.process_token(EOFToken, lines.line);
                tree.end();
                return true;
            }
        };
        let mut converted = converted;
        if S::ERRORS {
            mark_duplicates(source.errors(), &mut converted, span);
            flush_errors(source, tree);
        }
        if count_lines {
            source.count_lines(lines, span.end);
        }
        match tree.process_token(converted, lines.line) {
            TokenSinkResult::Continue => {}
            TokenSinkResult::RawData(kind) => source.set_state(convert::raw_state(kind)),
            TokenSinkResult::Plaintext => source.set_state(State::Plaintext),
            // A parser that runs no scripts goes on in the Data state, where
            // the tokenizer is after `</script>` anyway.
            TokenSinkResult::Script(_) => source.set_state(State::Data),
            // The encoding was decided before the first token (by the
            // `Sniffer`, or the input is text): nothing to change.
            TokenSinkResult::EncodingIndicator(_) => {}
        }
        update_cdata(source, tree);
    }
}

/// A text run as character tokens, each NUL its own token (see the module
/// doc).
#[inline]
fn characters<Sink>(
    tree: &TreeBuilder<Sink::Handle, Sink>,
    tendrils: &Tendrils<'_>,
    text: &str,
    line: u64,
) where
    Sink: TreeSink,
    Sink::Handle: Clone,
{
    let mut rest = text;
    loop {
        let nul = memchr::memchr(0, rest.as_bytes());
        let run = &rest[..nul.unwrap_or(rest.len())];
        for piece in tendrils.pieces(run) {
            let _ = tree.process_token(CharacterTokens(piece), line);
        }
        let Some(nul) = nul else {
            return;
        };
        let _ = tree.process_token(NullCharacterToken, line);
        rest = &rest[nul + 1..];
    }
}

/// Tells the tokenizer whether `<![CDATA[` opens a CDATA section: whether
/// the adjusted current node is foreign, which any token may change.
#[inline]
fn update_cdata<S, Sink>(source: &mut S, tree: &TreeBuilder<Sink::Handle, Sink>)
where
    S: TokenSource,
    Sink: TreeSink,
    Sink::Handle: Clone,
{
    source.set_cdata_allowed(tree.adjusted_current_node_present_but_not_in_html_namespace());
}

/// Hands the tokenizer's errors collected so far to the tree builder (whose
/// sink gets them through `TreeSink::parse_error`), each with its line.
#[inline]
fn flush_errors<S, Sink>(source: &mut S, tree: &TreeBuilder<Sink::Handle, Sink>)
where
    S: TokenSource,
    Sink: TreeSink,
    Sink::Handle: Clone,
{
    if !S::ERRORS || source.errors().is_empty() {
        return;
    }
    for error in source.take_errors() {
        let message = Cow::Borrowed(error.code.as_str());
        let _ = tree.process_token(H5Error(message), error.location.line as u64);
    }
}

/// Sets a start tag's `had_duplicate_attributes` (which html5ever passes
/// to `TreeSink::create_element`) from the `duplicate-attribute` errors
/// inside it: known only when errors are collected.
fn mark_duplicates(errors: &[ParseError], token: &mut H5Token, span: crate::Span) {
    if let TagToken(tag) = token {
        tag.had_duplicate_attributes = errors.iter().any(|e| {
            e.code == ErrorCode::DuplicateAttribute
                && span.start <= e.span.start
                && e.span.start <= span.end
        });
    }
}
