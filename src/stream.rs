//! Streaming input: feed chunks of any size, get tokens as they complete.
//!
//! The stream owns a window of the input. Bytes the machine can no longer
//! need (see `Machine::earliest_needed`) are dropped before each new chunk
//! is appended, so the window holds at most the unconsumed input plus the
//! token in progress (and up to `MIN_DROP` bytes not yet worth dropping):
//! memory is bounded by the chunk size plus the largest single token, not
//! by the document.
//!
//! The bytes become text as they arrive (`encoding::InputDecoder`): UTF-8
//! by default, repaired exactly as `String::from_utf8_lossy` would repair
//! the whole input, so a stream and a whole document agree byte for byte;
//! or in the encoding a [`Sniffer`] finds. Offsets (spans, errors) are
//! offsets in that UTF-8 text.

use crate::encoding::{InputDecoder, Sniffed, Sniffer};
use crate::error::ParseError;
use crate::position::{LineCursor, Lines};
use crate::token::Token;
use crate::tokenizer::{
    AttributePolicy, Config, ErrorPolicy, Feedback, Flow, IgnoreErrors, KeepAttributes, Machine,
};

/// Kept input beyond which a token in progress is copied out of the window.
const DETACH_AT: usize = 256 * 1024;

/// The fewest bytes worth dropping from the window's front. A drop has a
/// fixed cost (the line index, the input-stream check and the machine's
/// positions each take a call), which a stream fed in tiny chunks would
/// otherwise pay at every chunk once a huge token is detached and nothing
/// before the chunk is needed: in 7-byte chunks that made such a token cost
/// more per byte than one still in the window. Waiting for this
/// many bytes holds at most this much more memory, a constant.
const MIN_DROP: usize = 16 * 1024;

/// A tokenizer for input that arrives in pieces.
///
/// Call [`feed`](Self::feed) with each chunk, then take tokens with
/// [`next_token`](Self::next_token) until it returns `None` (it needs more
/// input); after the last chunk call [`finish`](Self::finish) and take the
/// rest, up to [`Token::Eof`] (after which [`is_finished`](Self::is_finished)
/// says so). Reading from a [`std::io::Read`], [`from_reader`](Self::from_reader)
/// does all that. Tokens come out exactly as from a
/// [`Tokenizer`](crate::Tokenizer) over the whole input, except that a run
/// of text may be split where a chunk ended (unless
/// [`Config::join_text`] is set).
///
/// Three constructors: [`new`](Self::new) (UTF-8, the default
/// [`Config`]), [`with_config`](Self::with_config) (UTF-8, another
/// configuration, whose policies are the stream's type parameters) and
/// [`decoding`](Self::decoding) (bytes in an encoding a [`Sniffer`]
/// decides as a browser does).
///
/// ```
/// use htmltok::{StreamTokenizer, Token};
/// let mut stream = StreamTokenizer::new();
/// let mut names = Vec::new();
/// for chunk in ["<di", "v class=a>te", "xt</d", "iv>"] {
///     stream.feed(chunk.as_bytes());
///     while let Some(token) = stream.next_token() {
///         if let Token::StartTag(tag) | Token::EndTag(tag) = token {
///             names.push(tag.name().to_owned());
///         }
///     }
/// }
/// stream.finish();
/// while let Some(token) = stream.next_token() {
///     assert!(matches!(token, Token::Eof));
/// }
/// assert_eq!(names, ["div", "div"]);
/// ```
///
/// The loop written out, as [`from_reader`](Self::from_reader) runs it
/// for a [`std::io::Read`]: `None` with [`is_finished`](Self::is_finished)
/// false asks for more input.
///
/// ```
/// use std::io::Read;
/// use htmltok::{StreamTokenizer, Token};
///
/// fn count_links(mut reader: impl Read) -> std::io::Result<usize> {
///     let mut stream = StreamTokenizer::new();
///     let mut chunk = vec![0; 64 * 1024];
///     let mut links = 0;
///     while !stream.is_finished() {
///         let n = reader.read(&mut chunk)?;
///         if n == 0 {
///             stream.finish();
///         } else {
///             stream.feed(&chunk[..n]);
///         }
///         while let Some(token) = stream.next_token() {
///             if matches!(token, Token::StartTag(tag) if tag.name() == "a") {
///                 links += 1;
///             }
///         }
///     }
///     Ok(links)
/// }
/// let page = "<p><a href=1>one</a> and <a href=2>two</a></p>";
/// assert_eq!(count_links(page.as_bytes()).unwrap(), 2);
/// ```
pub struct StreamTokenizer<E: ErrorPolicy = IgnoreErrors, A: AttributePolicy = KeepAttributes> {
    /// The window: `buf[0]` is the byte at absolute offset `base`. Only
    /// validated (or repaired) text enters it, so it is a `String`.
    buf: String,
    base: usize,
    /// Turns fed bytes into the window's text.
    input: InputDecoder,
    machine: Machine<E, A>,
    feedback: Option<Feedback>,
    finished: bool,
    /// Line and column at `base`, carried over the bytes dropped so far.
    lines: LineCursor,
    /// Where the last token lent with its lines starts (an absolute
    /// offset; of use while it is at or after `base`).
    near: LineCursor,
    /// At the end of the last token lent by `next_token_with_lines`, where
    /// the next token starts: its start is exact even when the stream has
    /// dropped it (see `Lines`).
    token_end: LineCursor,
    /// A leading U+FEFF is to be dropped when the first text arrives
    /// (`discarding_bom`).
    discard_bom: bool,
}

impl<E: ErrorPolicy, A: AttributePolicy> std::fmt::Debug for StreamTokenizer<E, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamTokenizer")
            .field("window_start", &self.base)
            .field("window_len", &self.buf.len())
            .field("input_finished", &self.finished)
            .field("state", &self.state())
            .field("sniffed", &self.sniffed())
            .field("driven", &self.feedback.is_none())
            .field("errors", &E::ENABLED)
            .field("attributes", &A::KEEP)
            .finish_non_exhaustive()
    }
}

impl Default for StreamTokenizer {
    fn default() -> Self {
        StreamTokenizer::new()
    }
}

impl StreamTokenizer {
    /// A stream of UTF-8 with the default [`Config`], parse errors off.
    pub fn new() -> Self {
        Self::with_config(Config::new())
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> StreamTokenizer<E, A> {
    /// A stream of UTF-8 with options; the configuration's policies
    /// ([`Config::report_errors`], [`Config::skip_attributes`]) are the
    /// stream's type parameters. Parse errors come with their line and
    /// column, since the bytes before them may be gone when you ask.
    ///
    /// ```
    /// use htmltok::{Config, StreamTokenizer};
    /// let mut stream = StreamTokenizer::with_config(Config::new().report_errors());
    /// stream.feed(b"<p\n id=1 id");
    /// stream.feed(b"=2>");
    /// stream.finish();
    /// while stream.next_token().is_some() {}
    /// let e = &stream.errors()[0];
    /// assert_eq!((e.code.as_str(), e.location.line, e.location.col), ("duplicate-attribute", 2, 9));
    /// ```
    pub fn with_config(config: Config<E, A>) -> Self {
        StreamTokenizer::build(InputDecoder::utf8(), config)
    }

    /// A stream of bytes in the encoding `sniffer` decides, as
    /// [`Sniffer::sniff`] decides it for the whole input, so that the
    /// tokens are those of [`Sniffer::decode`]'s text: no token comes out
    /// before the first [`PRESCAN_LEN`](crate::encoding::PRESCAN_LEN)
    /// bytes have arrived (or the input has ended); if they decide nothing,
    /// ASCII comes out while the stream watches for a `<meta>`, and from
    /// the first non-ASCII byte on the tokens wait for the bytes the guess
    /// reads ([`DETECT_LEN`](crate::encoding::DETECT_LEN) unless
    /// [`Sniffer::guess_len`] says otherwise). Take the
    /// tokens of each chunk before feeding the next, as always: a `<meta>`
    /// counts once its token has been taken.
    ///
    /// When the prescan, the guess or the default decided, the stream then
    /// watches the tokens of the page's head: a `<meta>` there that
    /// declares another encoding makes [`Sniffer::decode`] decode the whole
    /// page again in that encoding ([`Source::ChangedByMeta`](crate::encoding::Source::ChangedByMeta)),
    /// as a browser does, but a stream has handed out its tokens: it goes
    /// on in the encoding it decided, and [`sniffed`](Self::sniffed) names
    /// the declared one in [`Sniffed::declared_late`]. A caller that keeps
    /// the bytes can decode them again with
    /// [`Sniffer::transport`]`(declared)`.
    ///
    /// The `<meta>` looked for is among the stream's own start tags, so a
    /// stream in driven mode, or with scripting off, sees the ones its
    /// states let through, where `Sniffer::decode` reads the page in the
    /// default standalone mode.
    ///
    /// ```
    /// use htmltok::encoding::Sniffer;
    /// use htmltok::{Config, StreamTokenizer, Token};
    ///
    /// // "Grüße" in windows-1252, as a server in 2005 sent it.
    /// let page: &[u8] = b"<meta http-equiv=Content-Type content='text/html; charset=iso-8859-1'><p>Gr\xfc\xdfe";
    /// let mut stream = StreamTokenizer::decoding(Sniffer::new(), Config::new());
    /// let mut text = String::new();
    /// for chunk in page.chunks(5) {
    ///     stream.feed(chunk);
    ///     while let Some(token) = stream.next_token() {
    ///         if let Token::Text(t) = token { text.push_str(t.as_str()) }
    ///     }
    /// }
    /// stream.finish();
    /// while let Some(token) = stream.next_token() {
    ///     if let Token::Text(t) = token { text.push_str(t.as_str()) }
    /// }
    /// assert_eq!(text, "Grüße");
    /// assert_eq!(stream.sniffed().unwrap().encoding, htmltok::encoding::WINDOWS_1252);
    /// ```
    pub fn decoding(sniffer: Sniffer, config: Config<E, A>) -> Self {
        StreamTokenizer::build(InputDecoder::sniffing(sniffer), config)
    }

    /// The encoding the stream decodes, once decided (see
    /// [`decoding`](Self::decoding)); `None` for a stream of UTF-8 without
    /// a sniffer, and before the decision. Its
    /// [`declared_late`](Sniffed::declared_late) is set once a `<meta>` in
    /// the head has declared another encoding than the one decided.
    pub fn sniffed(&self) -> Option<Sniffed> {
        self.input.sniffed()
    }

    fn build(input: InputDecoder, config: Config<E, A>) -> Self {
        StreamTokenizer {
            buf: String::new(),
            base: 0,
            input,
            machine: Machine::new(&config),
            feedback: (!config.driven).then(|| Feedback::new(config.scripting)),
            finished: false,
            lines: LineCursor::new(),
            near: LineCursor::new(),
            token_end: LineCursor::new(),
            discard_bom: false,
        }
    }

    /// Appends the next chunk of input. Take the tokens it completes with
    /// [`next_token`](Self::next_token) before feeding more: bytes are only
    /// released between chunks.
    ///
    /// Feeding after [`finish`](Self::finish) does nothing.
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.finished {
            return;
        }
        self.release_consumed();
        self.input.push(&mut self.buf, chunk);
        if self.discard_bom {
            self.drop_bom();
        }
    }

    /// Drops a leading U+FEFF from the text, once there is text: for the
    /// `html5ever` feature's parser, which drops it as html5ever's does. No
    /// token has been handed out before the first text, so nothing points
    /// into the window yet.
    #[cfg_attr(not(feature = "html5ever"), allow(dead_code))]
    pub(crate) fn discarding_bom(mut self) -> Self {
        self.discard_bom = true;
        self
    }

    fn drop_bom(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        debug_assert_eq!(self.base, 0, "the first text is at the start");
        if self.buf.starts_with('\u{FEFF}') {
            self.buf.drain(..'\u{FEFF}'.len_utf8());
        }
        self.discard_bom = false;
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.input.finish(&mut self.buf);
        if self.discard_bom {
            self.drop_bom();
        }
        self.finished = true;
    }

    /// The next complete token; `None` when more input is needed, or after
    /// [`Token::Eof`] ([`is_finished`](Self::is_finished) tells which).
    // Always inline, as `Machine::next_token` is: with the watching test
    // LLVM stopped inlining it at `#[inline]`, and the call cost
    // instructions on every token.
    #[inline(always)]
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        if self.input.watching() {
            return self.next_token_watching();
        }
        // As `Tokenizer::next_token`: the tag behind a text handed out
        // inline, and in standalone mode the machine inlined into the
        // caller's loop, where a call of it cost its entry and exit on
        // every token.
        if self.machine.tag_waits() {
            return Some(self.machine.hand_out_waiting(
                &self.buf,
                self.base,
                self.finished,
                self.feedback.as_mut(),
            ));
        }
        let lent = match self.feedback.as_mut() {
            Some(feedback) => {
                self.machine
                    .lend_standalone(&self.buf, self.base, self.finished, feedback)
            }
            None => self
                .machine
                .lend_driven(&self.buf, self.base, self.finished),
        };
        self.machine.lent_token(lent, &self.buf)
    }

    /// [`next_token`](Self::next_token) while the encoding is undecided,
    /// or decided but open to a `<meta>` in the head (see
    /// [`decoding`](Self::decoding)). Out of line: the common path stays as
    /// small as it was.
    #[inline(never)]
    fn next_token_watching(&mut self) -> Option<Token<'_>> {
        let token =
            self.machine
                .next_token(&self.buf, self.base, self.finished, self.feedback.as_mut());
        if let Some(token) = &token {
            self.input.saw_token(token);
        }
        token
    }

    /// Whether the stream has handed out [`Token::Eof`]: after
    /// [`finish`](Self::finish), once every token has been taken. A
    /// `None` from [`next_token`](Self::next_token) before that asks for
    /// more input.
    ///
    /// ```
    /// use htmltok::{StreamTokenizer, Token};
    /// let mut stream = StreamTokenizer::new();
    /// stream.feed(b"<p>hi");
    /// while stream.next_token().is_some() {}
    /// assert!(!stream.is_finished()); // the input may go on
    /// stream.finish();
    /// assert!(matches!(stream.next_token(), Some(Token::Eof)));
    /// assert!(stream.is_finished());
    /// assert!(stream.next_token().is_none());
    /// ```
    pub fn is_finished(&self) -> bool {
        self.machine.eof_handed()
    }

    /// [`next_token`](Self::next_token), with the [`Lines`] that give the
    /// line and column of the token's offsets while the token is held: a
    /// stream's one way to positions, since it drops the bytes before
    /// them. Positions are those of the text the stream has not dropped
    /// yet, which always includes the token; taken in input order, they
    /// cost the distance from the previous token, linear in all.
    ///
    /// ```
    /// use htmltok::{StreamTokenizer, Token};
    /// let mut stream = StreamTokenizer::new();
    /// let mut links = Vec::new();
    /// for chunk in [&b"<p>one\r\ntwo\n<a hr"[..], b"ef=/x>x</a>", b"\n\n<a href=/y>"] {
    ///     stream.feed(chunk);
    ///     while let Some((token, lines)) = stream.next_token_with_lines() {
    ///         match token {
    ///             Token::StartTag(tag) if tag.name() == "a" => {
    ///                 let at = lines.line_col(tag.span().start);
    ///                 links.push((at.line, tag.attribute("href").unwrap().to_owned()));
    ///             }
    ///             _ => {}
    ///         }
    ///     }
    /// }
    /// assert_eq!(links, [(3, "/x".to_owned()), (5, "/y".to_owned())]);
    /// ```
    pub fn next_token_with_lines(&mut self) -> Option<(Token<'_>, Lines<'_>)> {
        // Taken, dropped, and lent again beside the lines (see
        // `Machine::last_token`).
        self.next_token()?;
        self.last_token_with_lines()
    }

    /// The token [`next_token`](Self::next_token) handed out last, lent
    /// again (see `Machine::last_token`); `None` if it handed out none.
    pub(crate) fn last_token(&self) -> Option<Token<'_>> {
        self.machine.last_token(&self.buf, self.base)
    }

    /// [`last_token`](Self::last_token) with its lines.
    pub(crate) fn last_token_with_lines(&mut self) -> Option<(Token<'_>, Lines<'_>)> {
        let token = self.machine.last_token(&self.buf, self.base)?;
        let window_end = self.base + self.buf.len();
        let span = token.span().map_or(window_end..window_end, |s| s.range());
        let near = &mut self.near;
        *near = if span.start >= self.base {
            lines_to(&self.lines, *near, &self.buf, span.start)
        } else if self.token_end.offset() == span.start {
            // Dropped, but the last token ended there.
            self.token_end
        } else {
            self.lines
        };
        // A token ends in the window: the machine has read up to its end.
        let end = span.end.clamp(self.base, window_end);
        self.token_end = lines_to(&self.lines, *near, &self.buf, end);
        let lines = Lines::new(&self.buf, self.base, self.lines, *near);
        Some((token, lines))
    }

    /// Hands every token the input fed so far completes to `f`, until more
    /// input is needed, [`Token::Eof`] has been handed, or `f` returns
    /// [`Flow::Stop`]: the same tokens as calling
    /// [`next_token`](Self::next_token) until it returns `None`, in fewer
    /// instructions (see
    /// [`Tokenizer::for_each_token`](crate::Tokenizer::for_each_token)).
    ///
    /// ```
    /// use htmltok::{Flow, StreamTokenizer, Token};
    /// let mut stream = StreamTokenizer::new();
    /// let mut texts = String::new();
    /// for chunk in [&b"<p>Hel"[..], b"lo</p>"] {
    ///     stream.feed(chunk);
    ///     stream.for_each_token(|token| {
    ///         if let Token::Text(t) = token {
    ///             texts.push_str(t.as_str());
    ///         }
    ///         Flow::Continue
    ///     });
    /// }
    /// stream.finish();
    /// stream.for_each_token(|_| Flow::Continue);
    /// assert_eq!(texts, "Hello");
    /// ```
    ///
    /// As there, `f` may return `()` for [`Flow::Continue`].
    #[inline]
    pub fn for_each_token<F, T>(&mut self, mut f: F)
    where
        F: FnMut(Token<'_>) -> T,
        T: Into<Flow>,
    {
        // Undecided encoding, or a head still to watch (see `decoding`):
        // token by token, so that a `<meta>` may count, then on in the
        // machine's own loop.
        while self.input.watching() {
            let Some(token) = self.next_token_watching() else {
                return;
            };
            match f(token).into() {
                Flow::Continue => {}
                Flow::Switch(state) => self.set_state(state),
                Flow::Stop => return,
            }
        }
        self.machine.for_each_token(
            &self.buf,
            self.base,
            self.finished,
            true,
            self.feedback.as_mut(),
            f,
        );
    }

    /// The window's text and the absolute offset it starts at: the input
    /// from there on that the stream still holds.
    #[cfg(feature = "html5ever")]
    pub(crate) fn window(&self) -> (&str, usize) {
        (&self.buf, self.base)
    }

    /// The line the window starts on (counted over the bytes dropped).
    #[cfg(feature = "html5ever")]
    pub(crate) fn window_start_line(&self) -> usize {
        self.lines.position().line
    }

    /// The parse errors collected so far and not yet taken.
    pub fn errors(&self) -> &[ParseError] {
        self.machine.errors()
    }

    /// Takes the parse errors collected so far (so that a long stream does
    /// not accumulate them).
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        self.machine.take_errors()
    }

    /// Switches the state before the next token (driven mode).
    pub fn set_state(&mut self, state: crate::State) {
        self.machine.set_state(state);
    }

    /// Sets the last start tag name (driven mode).
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.machine.set_last_start_tag(name);
    }

    /// Whether CDATA sections are allowed (driven mode).
    pub fn set_cdata_allowed(&mut self, allowed: bool) {
        self.machine.set_cdata_allowed(allowed);
    }

    /// The state the tokenizer is in.
    pub fn state(&self) -> crate::State {
        self.machine.state()
    }

    /// Bytes of memory the stream holds for input and token scratch space
    /// (capacities, not lengths): what the memory bound is about.
    pub fn buffered_capacity(&self) -> usize {
        self.buf.capacity() + self.input.capacity() + self.machine.scratch_capacity()
    }

    /// Drops the bytes the machine no longer needs. Moving the kept bytes
    /// costs their length, and shifting the machine's positions their
    /// number (`Machine::rebase_work`: a tag in progress may have a million
    /// attributes), so it is done only when at least as many bytes are
    /// dropped: every byte and position is then moved O(1) times on
    /// average. And only when at least [`MIN_DROP`] bytes are, so that a
    /// drop's fixed cost is spread over that many bytes.
    // Out of line: it runs once a chunk, and inlined into a caller's loop
    // over chunks and tokens it cost that loop's token hand-out registers.
    #[inline(never)]
    fn release_consumed(&mut self) {
        // The machine's positions are offsets in the window.
        let mut needed = self.machine.earliest_needed();
        if needed + DETACH_AT < self.buf.len() {
            // A token in progress borrows a long stretch of the window (a
            // huge comment, value or text run): give it its own copy.
            self.machine.detach(&self.buf);
            needed = self.machine.earliest_needed();
        }
        let mut drop = needed.min(self.buf.len());
        // Keep whole characters (the machine's look-behind is in bytes).
        while !self.buf.is_char_boundary(drop) {
            drop -= 1;
        }
        let keep = self.buf.len() - drop;
        if drop < MIN_DROP || drop < keep + self.machine.rebase_work() {
            return;
        }
        self.machine.keep_last_start_tag(&self.buf);
        self.machine.before_dropping(&self.buf, self.base, drop);
        self.lines
            .advance_to(&self.buf.as_bytes()[..drop], self.base + drop);
        self.buf.drain(..drop);
        self.base += drop;
        self.machine.rebase(drop);
        // Let a window that grew for one huge token shrink again.
        if self.buf.capacity() > 4 * self.buf.len().max(64 * 1024) {
            self.buf.shrink_to(2 * self.buf.len().max(64 * 1024));
        }
    }
}

/// A line index at absolute offset `to` of the window `buf`, whose start
/// `base` is at: from `near` when it is in the window at or before `to`,
/// else from `base`.
fn lines_to(base: &LineCursor, near: LineCursor, buf: &str, to: usize) -> LineCursor {
    let origin = base.offset();
    let mut from = if (origin..=to).contains(&near.offset()) {
        near
    } else {
        *base
    };
    from.advance_to(&buf.as_bytes()[from.offset() - origin..to - origin], to);
    from
}
