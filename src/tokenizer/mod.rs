//! The tokenizer: configuration, its two compile-time policies (errors,
//! attributes) and the whole-document driver.

mod attr_index;
mod charref;
mod feedback;
mod machine;

use std::borrow::Cow;
use std::marker::PhantomData;

use crate::error::ParseError;
use crate::input::Input;
use crate::position::{LineCursor, Lines};
use crate::state::State;
use crate::token::{OwnedToken, Token};

pub(crate) use feedback::Feedback;
pub(crate) use machine::{resolve, AttrRecord, Field, Machine, Output, VERBATIM};
#[cfg(feature = "records")]
pub(crate) use machine::{Consume, Lent};
// What a saved record's string is made of: only the records read it.
#[cfg(feature = "records")]
pub(crate) use machine::Slot;

/// How to tokenize: options a tree builder, a crawler or a test sets
/// before tokenizing, and the two choices made at compile time, which
/// the type carries: whether parse errors are collected (`E`,
/// [`report_errors`](Self::report_errors)) and whether tags keep their
/// attributes (`A`, [`skip_attributes`](Self::skip_attributes)). A
/// tokenizer built with a `Config<E, A>` is a `Tokenizer<'_, E, A>` (or
/// `StreamTokenizer<E, A>`): the code for errors, or for attributes, is
/// not there when they are off.
///
/// ```
/// use htmltok::{Config, State, Token, Tokenizer};
/// let config = Config::new().initial_state(State::Rcdata).last_start_tag("title");
/// let mut tok = Tokenizer::with_config("a<b>&lt;</title>", config);
/// assert!(matches!(tok.next_token(), Some(Token::Text(t)) if t.as_str() == "a<b><"));
/// assert!(matches!(tok.next_token(), Some(Token::EndTag(t)) if t.name() == "title"));
/// ```
pub struct Config<E: ErrorPolicy = IgnoreErrors, A: AttributePolicy = KeepAttributes> {
    pub(crate) initial_state: State,
    pub(crate) last_start_tag: Option<String>,
    pub(crate) cdata_allowed: bool,
    pub(crate) processing_instructions: bool,
    pub(crate) driven: bool,
    pub(crate) scripting: bool,
    pub(crate) join_text: bool,
    pub(crate) simd: bool,
    pub(crate) fast_paths: bool,
    pub(crate) max_attributes: usize,
    pub(crate) max_token_len: usize,
    _policies: PhantomData<(E, A)>,
}

// By hand, not derived: a derive would ask the policy types for the
// traits too.
impl<E: ErrorPolicy, A: AttributePolicy> Clone for Config<E, A> {
    fn clone(&self) -> Self {
        Config {
            last_start_tag: self.last_start_tag.clone(),
            ..*self
        }
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> PartialEq for Config<E, A> {
    fn eq(&self, other: &Self) -> bool {
        self.options() == other.options()
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> Eq for Config<E, A> {}

impl<E: ErrorPolicy, A: AttributePolicy> std::fmt::Debug for Config<E, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("initial_state", &self.initial_state)
            .field("last_start_tag", &self.last_start_tag)
            .field("cdata_allowed", &self.cdata_allowed)
            .field("processing_instructions", &self.processing_instructions)
            .field("driven", &self.driven)
            .field("scripting", &self.scripting)
            .field("join_text", &self.join_text)
            .field("simd", &self.simd)
            .field("max_attributes", &self.max_attributes)
            .field("max_token_len", &self.max_token_len)
            .field("errors", &E::ENABLED)
            .field("attributes", &A::KEEP)
            .finish()
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::new()
    }
}

impl Config {
    /// Standalone mode (the tokenizer switches states after `<script>`,
    /// `<title>`, … itself), scripting on, Data state, no last start tag,
    /// CDATA sections not allowed, `<?` as html5lib-tests (and browsers until
    /// 2026) treat it.
    pub fn new() -> Config {
        Config {
            initial_state: State::Data,
            last_start_tag: None,
            cdata_allowed: false,
            processing_instructions: false,
            driven: false,
            scripting: true,
            join_text: false,
            simd: true,
            fast_paths: true,
            max_attributes: usize::MAX,
            max_token_len: usize::MAX,
            _policies: PhantomData,
        }
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> Config<E, A> {
    /// The options that are values, for comparing.
    #[allow(clippy::type_complexity)]
    fn options(&self) -> (State, &Option<String>, [bool; 7], usize, usize) {
        (
            self.initial_state,
            &self.last_start_tag,
            [
                self.cdata_allowed,
                self.processing_instructions,
                self.driven,
                self.scripting,
                self.join_text,
                self.simd,
                self.fast_paths,
            ],
            self.max_attributes,
            self.max_token_len,
        )
    }

    /// The same options with other policies.
    fn with_policies<E2: ErrorPolicy, A2: AttributePolicy>(self) -> Config<E2, A2> {
        Config {
            initial_state: self.initial_state,
            last_start_tag: self.last_start_tag,
            cdata_allowed: self.cdata_allowed,
            processing_instructions: self.processing_instructions,
            driven: self.driven,
            scripting: self.scripting,
            join_text: self.join_text,
            simd: self.simd,
            fast_paths: self.fast_paths,
            max_attributes: self.max_attributes,
            max_token_len: self.max_token_len,
            _policies: PhantomData,
        }
    }

    /// Collect parse errors (off by default): with the standard's code,
    /// byte span, line and column, read with
    /// [`Tokenizer::errors`] or taken with [`Tokenizer::take_errors`]. A
    /// compile-time choice: the configuration becomes a
    /// `Config<ReportErrors, _>`, which builds a tokenizer with the code
    /// for errors; one built from a `Config<IgnoreErrors, _>` (the
    /// default) has none of it on its hot path.
    ///
    /// ```
    /// use htmltok::{Config, ErrorCode, Tokenizer};
    /// let mut tok = Tokenizer::with_config("<p id=a id=b>", Config::new().report_errors());
    /// while tok.next_token().is_some() {}
    /// let errors: Vec<_> = tok.errors().iter().map(|e| e.code).collect();
    /// assert_eq!(errors, [ErrorCode::DuplicateAttribute]);
    /// ```
    pub fn report_errors(self) -> Config<ReportErrors, A> {
        self.with_policies()
    }

    /// Hand out tags without their attributes, which the tokenizer then
    /// steps over instead of building (their names, values, references
    /// and duplicates): for readers of tag names and text only, such as
    /// `extract::text` (feature `extract`). Every other part of every
    /// token is the same, and so are the errors when they are collected
    /// (the attributes are then built, for their errors, and not handed
    /// out). A compile-time choice, like
    /// [`report_errors`](Self::report_errors): a tokenizer that hands out
    /// attributes carries no test for it.
    ///
    /// ```
    /// use htmltok::{Config, Token, Tokenizer};
    /// let mut tok = Tokenizer::with_config("<a href=/x class=y>link</a>", Config::new().skip_attributes());
    /// let Some(Token::StartTag(a)) = tok.next_token() else { panic!() };
    /// assert_eq!((a.name(), a.attributes().count()), ("a", 0));
    /// ```
    pub fn skip_attributes(self) -> Config<E, SkipAttributes> {
        self.with_policies()
    }

    /// A resource limit for crawlers: keep at most `n` attributes per tag.
    /// Further attributes are dropped, with a `too-many-attributes` error
    /// (htmltok's own code). Off by default.
    ///
    /// ```
    /// use htmltok::{Config, ErrorCode, Token, Tokenizer};
    /// let mut tok = Tokenizer::with_config("<p a b c d>", Config::new().max_attributes(2).report_errors());
    /// let Some(Token::StartTag(tag)) = tok.next_token() else { panic!() };
    /// assert_eq!(tag.attributes().count(), 2);
    /// while tok.next_token().is_some() {}
    /// assert_eq!(tok.errors()[0].code, ErrorCode::TooManyAttributes);
    /// ```
    pub fn max_attributes(mut self, n: usize) -> Self {
        self.max_attributes = n;
        self
    }

    /// A resource limit for crawlers: cut tag names, attribute names and
    /// values, comments, DOCTYPE names and identifiers, and processing
    /// instructions to at most `bytes` bytes (at a character boundary), with
    /// a `token-too-long` error (htmltok's own code). A cut string is copied
    /// out of the input, so a stream need not keep the rest of a huge
    /// comment or value in memory. Text is never cut: a stream hands it out
    /// chunk by chunk anyway. Off by default.
    ///
    /// ```
    /// use htmltok::{Config, Token, Tokenizer};
    /// let mut tok = Tokenizer::with_config("<!--0123456789-->", Config::new().max_token_len(4));
    /// assert!(matches!(tok.next_token(), Some(Token::Comment(c)) if c.as_str() == "0123"));
    /// ```
    pub fn max_token_len(mut self, bytes: usize) -> Self {
        self.max_token_len = bytes;
        self
    }

    /// Use the SIMD landmark scans (the default) or force the portable
    /// scalar ones. The tokens are the same either way; this exists for
    /// tests, fuzzing and benchmarks.
    ///
    /// ```
    /// use htmltok::{Config, OwnedToken, Tokenizer};
    /// let page = "<p class=a>text &amp; more</p>";
    /// let tokens = |config: Config| -> Vec<OwnedToken> {
    ///     Tokenizer::with_config(page, config).into_iter().collect()
    /// };
    /// assert_eq!(tokens(Config::new().simd(false)), tokens(Config::new()));
    /// ```
    pub fn simd(mut self, on: bool) -> Self {
        self.simd = on;
        self
    }

    /// Take the common paths through the data and tag states in one go
    /// (the default), or step through every state as the standard writes
    /// them. The tokens and errors are the same either way; this exists so
    /// that tests and fuzzing can hold the fast paths against the plain
    /// state machine.
    ///
    /// ```
    /// use htmltok::{Config, OwnedToken, Tokenizer};
    /// let page = "<p class=a title='x&amp;y'>text &lt; more</p>";
    /// let tokens = |config: Config| -> Vec<OwnedToken> {
    ///     Tokenizer::with_config(page, config).into_iter().collect()
    /// };
    /// assert_eq!(tokens(Config::new().fast_paths(false)), tokens(Config::new()));
    /// ```
    ///
    /// Only with the `fuzzing` feature (the tests' and fuzz targets'), so
    /// not the library's API.
    #[cfg(feature = "fuzzing")]
    #[doc(hidden)]
    pub fn fast_paths(mut self, on: bool) -> Self {
        self.fast_paths = on;
        self
    }

    /// Driven mode: no automatic state switching. A tree builder (or a test
    /// harness) sets the state, the last start tag and whether CDATA is
    /// allowed itself, with [`Tokenizer::set_state`] and friends, between
    /// tokens. Standalone mode (the default) instead applies the standard
    /// tree builder's switches: RCDATA after `title` and `textarea`; RAWTEXT
    /// after `style`, `xmp`, `iframe`, `noembed`, `noframes` (and `noscript`
    /// with [`scripting`](Self::scripting)); script data after `script`;
    /// PLAINTEXT after `plaintext`; CDATA sections inside `svg` and `math`,
    /// where those start tags switch nothing.
    ///
    /// ```
    /// use htmltok::{Config, OwnedToken, Tokenizer};
    /// let page = "<script>if (a<b) x='</div>'</script>";
    /// let standalone: Vec<_> = Tokenizer::new(page).owned().collect();
    /// assert_eq!(standalone[1], OwnedToken::Text("if (a<b) x='</div>'".into()));
    /// let driven: Vec<_> = Tokenizer::with_config(page, Config::new().driven(true)).owned().collect();
    /// assert_eq!(driven[1], OwnedToken::Text("if (a".into()));
    /// ```
    pub fn driven(mut self, driven: bool) -> Self {
        self.driven = driven;
        self
    }

    /// Whether scripting is on (the default), which makes `<noscript>`
    /// RAWTEXT in standalone mode, as in a browser with scripts enabled.
    pub fn scripting(mut self, on: bool) -> Self {
        self.scripting = on;
        self
    }

    /// For streams: keep each run of text whole, instead of handing out what
    /// has arrived at the end of every chunk. Memory then grows with the
    /// longest text run. (A whole-document tokenizer always joins text.)
    pub fn join_text(mut self, on: bool) -> Self {
        self.join_text = on;
        self
    }

    /// The state to start in (html5lib-tests' `initialStates`).
    pub fn initial_state(mut self, state: State) -> Self {
        self.initial_state = state;
        self
    }

    /// The name of the last start tag emitted, for the standard's
    /// "appropriate end tag" rule (html5lib-tests' `lastStartTag`).
    pub fn last_start_tag(mut self, name: &str) -> Self {
        self.last_start_tag = Some(name.to_owned());
        self
    }

    /// Whether `<![CDATA[` opens a CDATA section: a tree builder sets this
    /// when the adjusted current node is not in the HTML namespace.
    pub fn cdata_allowed(mut self, allowed: bool) -> Self {
        self.cdata_allowed = allowed;
        self
    }

    /// Tokenize `<?target data?>` as a processing instruction, as the
    /// standard does since 2026. Off by default: html5lib-tests and shipped
    /// browsers make `<?` a bogus comment.
    ///
    /// ```
    /// use htmltok::{Config, Token, Tokenizer};
    /// let mut tok = Tokenizer::with_config("<?php echo 1 ?>", Config::new().processing_instructions(true));
    /// let Some(Token::ProcessingInstruction(pi)) = tok.next_token() else { panic!() };
    /// assert_eq!((pi.target(), pi.data()), ("php", "echo 1 "));
    /// ```
    pub fn processing_instructions(mut self, on: bool) -> Self {
        self.processing_instructions = on;
        self
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::IgnoreErrors {}
    impl Sealed for super::ReportErrors {}
    impl Sealed for super::KeepAttributes {}
    impl Sealed for super::SkipAttributes {}
}

/// Whether parse errors are collected: a compile-time choice
/// ([`Config::report_errors`]), so that a tokenizer that ignores them
/// carries no code for them on its hot path.
pub trait ErrorPolicy: sealed::Sealed {
    /// `true` when errors are collected.
    const ENABLED: bool;
}

/// Parse errors are not collected (the default, and the fastest).
#[derive(Clone, Copy, Debug, Default)]
pub struct IgnoreErrors;

/// Parse errors are collected ([`Config::report_errors`]); read them with
/// [`Tokenizer::errors`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ReportErrors;

impl ErrorPolicy for IgnoreErrors {
    const ENABLED: bool = false;
}

impl ErrorPolicy for ReportErrors {
    const ENABLED: bool = true;
}

/// Whether tags are handed out with their attributes: a compile-time
/// choice ([`Config::skip_attributes`]), so that a tokenizer that hands
/// them out carries no test for it (a run-time flag was measured to cost
/// the common path, `docs/BENCHMARKS.md`).
pub trait AttributePolicy: sealed::Sealed {
    /// `true` when tags carry their attributes.
    const KEEP: bool;
}

/// Tags are handed out with their attributes (the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct KeepAttributes;

/// Tags are handed out without their attributes, which the tokenizer
/// steps over instead of building ([`Config::skip_attributes`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SkipAttributes;

impl AttributePolicy for KeepAttributes {
    const KEEP: bool = true;
}

impl AttributePolicy for SkipAttributes {
    const KEEP: bool = false;
}

/// What the callback of [`Tokenizer::for_each_token`] (or
/// [`StreamTokenizer::for_each_token`](crate::StreamTokenizer::for_each_token))
/// asks for after a token. A callback that always goes on may return `()`
/// instead: `()` converts to [`Flow::Continue`].
///
/// ```
/// use htmltok::{Flow, State};
/// let after_script = Flow::Switch(State::ScriptData);
/// assert_ne!(after_script, Flow::Continue);
/// assert_eq!(Flow::from(()), Flow::Continue);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on with the next token.
    Continue,
    /// Switch to this state (as [`Tokenizer::set_state`] does), then go on.
    Switch(State),
    /// Return now; the tokenizer goes on from the next token when it is
    /// asked again.
    Stop,
}

impl From<()> for Flow {
    /// A callback that returns nothing goes on.
    fn from((): ()) -> Flow {
        Flow::Continue
    }
}

/// Tokenizes a whole document held in memory.
///
/// `next_token` lends out one token at a time; it borrows the tokenizer, so
/// the token must be dropped (or [copied](Token::into_owned)) before the next
/// call. This keeps the steady state free of allocation. A `for` loop
/// over the tokenizer itself takes [`OwnedToken`]s instead (see
/// [`owned`](Self::owned)), which allocate.
///
/// Two constructors: [`new`](Self::new) with the default [`Config`],
/// [`with_config`](Self::with_config) with another. Both take anything
/// that converts to an [`Input`]: text borrowed (`&str`) or owned
/// (`String`, giving a `Tokenizer<'static>`), or bytes through
/// [`Input::from_utf8_lossy`] or [`Input::decode`].
/// [`into_owned`](Self::into_owned) turns a borrowing tokenizer into a
/// `Tokenizer<'static>`, so that a function can return one:
///
/// ```
/// use htmltok::{Input, Token, Tokenizer};
///
/// // A page as a crawler fetched it: bytes, in an encoding the page declares.
/// fn open(bytes: &[u8]) -> Tokenizer<'static> {
///     Tokenizer::new(Input::decode(bytes)).into_owned()
/// }
/// let mut tok = open(b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4");
/// let mut text = String::new();
/// while let Some(token) = tok.next_token() {
///     if let Token::Text(t) = token {
///         text.push_str(t.as_str());
///     }
/// }
/// assert_eq!(text, "Привет");
/// ```
pub struct Tokenizer<'a, E: ErrorPolicy = IgnoreErrors, A: AttributePolicy = KeepAttributes> {
    input: Cow<'a, str>,
    machine: Machine<E, A>,
    /// Standalone mode's tree-builder model (unused when `driven`). Not an
    /// `Option`: its test was a load, a 64-bit constant and a compare per
    /// token (the niche of the `Vec` inside), where a flag is one compare.
    feedback: Feedback,
    driven: bool,
    /// Where the last token lent with its lines starts, so that
    /// `next_token_with_lines` in input order costs the distances between
    /// tokens, not their offsets.
    near: LineCursor,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer for `input` with the default [`Config`]: standalone
    /// mode, the Data state, parse errors off.
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<a href=/one>1</a><a href=/two>2</a>");
    /// let mut hrefs = Vec::new();
    /// while let Some(token) = tok.next_token() {
    ///     if let Token::StartTag(tag) = token {
    ///         hrefs.extend(tag.attribute("href").map(str::to_owned));
    ///     }
    /// }
    /// assert_eq!(hrefs, ["/one", "/two"]);
    /// ```
    ///
    /// `input` is what the standard's tokenizer reads: decoded text. A
    /// leading U+FEFF in it is a character like any other (html5lib-tests
    /// hold the tokenizer to that), so it comes out as text, before any
    /// DOCTYPE. A byte order mark belongs to the bytes: the standard's
    /// decoder drops it before tokenizing, as [`Input::decode`] and
    /// [`Sniffer::decode`](crate::encoding::Sniffer::decode) do. Text
    /// decoded by something that kept it (`std::fs::read_to_string` does)
    /// can drop it first:
    ///
    /// ```
    /// use htmltok::{Input, OwnedToken, Tokenizer};
    /// let text = "\u{FEFF}<!DOCTYPE html>";
    /// let kept: Vec<_> = Tokenizer::new(text).owned().collect();
    /// assert_eq!(kept[0], OwnedToken::Text("\u{FEFF}".into()));
    /// let dropped: Vec<_> = Tokenizer::new(text.strip_prefix('\u{FEFF}').unwrap_or(text)).owned().collect();
    /// assert!(matches!(dropped[0], OwnedToken::Doctype { .. }));
    /// // From the bytes, the decoder drops it.
    /// let decoded: Vec<_> = Tokenizer::new(Input::decode(text.as_bytes())).owned().collect();
    /// assert_eq!(decoded, dropped);
    /// ```
    pub fn new(input: impl Into<Input<'a>>) -> Self {
        Self::with_config(input, Config::new())
    }
}

impl<'a, E: ErrorPolicy, A: AttributePolicy> Tokenizer<'a, E, A> {
    /// A tokenizer for `input` with options; the configuration's policies
    /// ([`Config::report_errors`], [`Config::skip_attributes`]) are the
    /// tokenizer's type parameters.
    ///
    /// ```
    /// use htmltok::{Config, ErrorCode, OwnedToken, Tokenizer};
    ///
    /// fn open(page: String) -> Tokenizer<'static> {
    ///     Tokenizer::with_config(page, Config::new().max_attributes(100))
    /// }
    /// let tokens: Vec<_> = open("<b>hi</b>".to_string()).owned().collect();
    /// assert_eq!(tokens[1], OwnedToken::Text("hi".into()));
    ///
    /// let mut tok = Tokenizer::with_config("<p id=a id=b>", Config::new().report_errors());
    /// while tok.next_token().is_some() {}
    /// assert_eq!(tok.errors()[0].code, ErrorCode::DuplicateAttribute);
    /// ```
    pub fn with_config(input: impl Into<Input<'a>>, config: Config<E, A>) -> Self {
        Tokenizer {
            input: input.into().text,
            machine: Machine::new(&config),
            feedback: Feedback::new(config.scripting),
            driven: config.driven,
            near: LineCursor::new(),
        }
    }
}

/// Standalone mode's feedback, `None` when driven.
#[inline(always)]
fn standalone(driven: bool, feedback: &mut Feedback) -> Option<&mut Feedback> {
    if driven {
        None
    } else {
        Some(feedback)
    }
}

/// Iterator of [`OwnedToken`]s, from [`Tokenizer::owned`] (or a `for`
/// loop over a [`Tokenizer`]).
#[derive(Debug)]
pub struct OwnedTokens<'a, E: ErrorPolicy = IgnoreErrors, A: AttributePolicy = KeepAttributes> {
    tokenizer: Tokenizer<'a, E, A>,
}

impl<E: ErrorPolicy, A: AttributePolicy> Iterator for OwnedTokens<'_, E, A> {
    type Item = OwnedToken;

    fn next(&mut self) -> Option<OwnedToken> {
        self.tokenizer.next_token().map(|t| t.into_owned())
    }
}

impl<'a, E: ErrorPolicy, A: AttributePolicy> OwnedTokens<'a, E, A> {
    /// The tokenizer, e.g. to read its errors after the last token.
    pub fn tokenizer(&self) -> &Tokenizer<'a, E, A> {
        &self.tokenizer
    }
}

/// A `for` loop over a tokenizer takes [`OwnedToken`]s, allocating for
/// each token's strings: the simple way. [`Tokenizer::next_token`] lends
/// tokens without allocating, the fast way (a lending loop cannot be a
/// `for` loop: each token borrows the tokenizer until the next).
///
/// ```
/// use htmltok::{OwnedToken, Tokenizer};
/// let mut names = Vec::new();
/// for token in Tokenizer::new("<p>Hi <b>there</b>") {
///     if let OwnedToken::StartTag { name, .. } = token {
///         names.push(name);
///     }
/// }
/// assert_eq!(names, ["p", "b"]);
/// ```
impl<'a, E: ErrorPolicy, A: AttributePolicy> IntoIterator for Tokenizer<'a, E, A> {
    type Item = OwnedToken;
    type IntoIter = OwnedTokens<'a, E, A>;

    fn into_iter(self) -> OwnedTokens<'a, E, A> {
        self.owned()
    }
}

impl<E: ErrorPolicy, A: AttributePolicy> std::fmt::Debug for Tokenizer<'_, E, A> {
    // Not the input: it is the whole page.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("input_len", &self.input.len())
            .field("owned", &matches!(self.input, Cow::Owned(_)))
            .field("state", &self.state())
            .field("driven", &self.driven)
            .field("errors", &E::ENABLED)
            .field("attributes", &A::KEEP)
            .finish_non_exhaustive()
    }
}

impl<'a, E: ErrorPolicy, A: AttributePolicy> Tokenizer<'a, E, A> {
    /// This tokenizer with its input owned (copied if it was borrowed),
    /// free of the input's lifetime: to return one from a function, or keep
    /// one in a struct. It goes on from where it was.
    ///
    /// ```
    /// use htmltok::{OwnedToken, Tokenizer};
    /// let mut tok = {
    ///     let page = String::from("<a>1</a><b>2</b>");
    ///     let mut tok = Tokenizer::new(&page);
    ///     tok.next_token();
    ///     tok.into_owned()
    /// };
    /// assert!(matches!(tok.next_token(), Some(htmltok::Token::Text(t)) if t.as_str() == "1"));
    /// assert_eq!(tok.owned().count(), 5);
    /// ```
    pub fn into_owned(self) -> Tokenizer<'static, E, A> {
        Tokenizer {
            input: Cow::Owned(self.input.into_owned()),
            machine: self.machine,
            feedback: self.feedback,
            driven: self.driven,
            near: self.near,
        }
    }

    /// The next token, or `None` after [`Token::Eof`].
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<b>bold</b>");
    /// let mut kinds = Vec::new();
    /// while let Some(token) = tok.next_token() {
    ///     kinds.push(match token {
    ///         Token::StartTag(_) => "start",
    ///         Token::Text(_) => "text",
    ///         Token::EndTag(_) => "end",
    ///         Token::Eof => "eof",
    ///         _ => "other",
    ///     });
    /// }
    /// assert_eq!(kinds, ["start", "text", "end", "eof"]);
    /// ```
    #[inline(always)]
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        // The machine runs here, inlined into the caller's loop as
        // `for_each_token`'s is: one out-of-line call a token ran more
        // instructions and took more time (BENCHMARKS.md, "The machine
        // inlined into `next_token`"). Its hand-out is the last thing here,
        // so the token is built where the caller receives it, however the
        // call is wrapped.
        //
        // The tag behind a text is handed out inline (see
        // `Machine::next_token`).
        if self.machine.tag_waits() {
            let feedback = standalone(self.driven, &mut self.feedback);
            return Some(
                self.machine
                    .hand_out_waiting(&self.input, 0, true, feedback),
            );
        }
        // A copy of the machine for each mode: one copy, with the mode
        // tested after it, was no faster than the call.
        let lent = if self.driven {
            self.machine.lend_driven_whole(&self.input)
        } else {
            self.machine
                .lend_standalone_whole(&self.input, &mut self.feedback)
        };
        self.machine.lent_token(lent, &self.input)
    }

    /// [`next_token`](Self::next_token), with the [`Lines`] that give the
    /// line and column of the token's offsets while the token is held.
    /// Taken in input order, the positions cost the distance from the
    /// previous token, linear in all. (After the last token, or for
    /// offsets of your own, a [`LineIndex`](crate::LineIndex) over
    /// [`input`](Self::input) does the same.)
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<p>Links:\n  <a href=/one>1</a>\n<a href=/two>2</a>");
    /// let mut links = Vec::new();
    /// while let Some((token, lines)) = tok.next_token_with_lines() {
    ///     match token {
    ///         Token::StartTag(tag) if tag.name() == "a" => {
    ///             let at = lines.line_col(tag.span().start);
    ///             links.push(format!("{}:{} {}", at.line, at.col, tag.attribute("href").unwrap()));
    ///         }
    ///         _ => {}
    ///     }
    /// }
    /// assert_eq!(links, ["2:3 /one", "3:1 /two"]);
    /// ```
    pub fn next_token_with_lines(&mut self) -> Option<(Token<'_>, Lines<'_>)> {
        // Taken, dropped, and lent again with the lines: a token returned
        // from one call could not be returned beside a borrow of another
        // field in the same expression.
        self.next_token()?;
        let token = self.machine.last_token(&self.input, 0)?;
        let start = token.span().map_or(self.input.len(), |s| s.start);
        self.near.line_col(self.input.as_bytes(), start);
        let lines = Lines::new(&self.input, 0, LineCursor::new(), self.near);
        Some((token, lines))
    }

    /// Hands every token in turn to `f`, until [`Token::Eof`] has been
    /// handed (or `f` returns [`Flow::Stop`]). The same tokens as calling
    /// [`next_token`](Self::next_token) in a loop (in standalone mode in
    /// fewer instructions): the tokenizer runs inside this call, with `f`
    /// inlined into it, so a token is looked at where it is built. `f` says
    /// what comes next: a driven tokenizer is switched with
    /// [`Flow::Switch`] (as a tree builder does after `<script>`, `<style>`,
    /// `<title>`...; the "appropriate end tag" is then the start tag just
    /// handed, which the tokenizer remembers itself).
    ///
    /// ```
    /// use htmltok::{Config, Flow, State, Token, Tokenizer};
    /// let html = "<title>a <b> c</title><p class=x>&amp;";
    /// let mut tok = Tokenizer::with_config(html, Config::new().driven(true));
    /// let mut seen = Vec::new();
    /// tok.for_each_token(|token| {
    ///     let flow = match &token {
    ///         Token::StartTag(tag) if tag.name() == "title" => Flow::Switch(State::Rcdata),
    ///         _ => Flow::Continue,
    ///     };
    ///     seen.push(token.into_owned());
    ///     flow
    /// });
    /// // Six tokens with EOF: `<b>` was text inside the title.
    /// assert_eq!(seen.len(), 6);
    /// assert_eq!(seen[1], htmltok::OwnedToken::Text("a <b> c".into()));
    /// ```
    ///
    /// Stopping early leaves the tokenizer where it was; taking tokens
    /// again (either way) goes on from there:
    ///
    /// ```
    /// use htmltok::{Flow, Token, Tokenizer};
    /// let mut tok = Tokenizer::new("<a><b><c>");
    /// let mut names = Vec::new();
    /// tok.for_each_token(|token| match token {
    ///     Token::StartTag(tag) if tag.name() == "b" => Flow::Stop,
    ///     Token::StartTag(tag) => {
    ///         names.push(tag.name().to_string());
    ///         Flow::Continue
    ///     }
    ///     _ => Flow::Continue,
    /// });
    /// assert_eq!(names, ["a"]);
    /// assert!(matches!(tok.next_token(), Some(Token::StartTag(t)) if t.name() == "c"));
    /// ```
    ///
    /// A callback that never switches nor stops may return `()`:
    ///
    /// ```
    /// use htmltok::{Token, Tokenizer};
    /// let mut words = 0;
    /// Tokenizer::new("<p>One <b>two</b> three</p>").for_each_token(|token| {
    ///     if let Token::Text(t) = token {
    ///         words += t.as_str().split_whitespace().count();
    ///     }
    /// });
    /// assert_eq!(words, 3);
    /// ```
    #[inline]
    pub fn for_each_token<F, T>(&mut self, f: F)
    where
        F: FnMut(Token<'_>) -> T,
        T: Into<Flow>,
    {
        self.machine.for_each_token(
            &self.input,
            0,
            true,
            false,
            standalone(self.driven, &mut self.feedback),
            f,
        );
    }

    /// Hands every token from here to the end of the input to `c` (the
    /// records' loop, `src/records.rs`), until `c` says [`Flow::Stop`].
    #[cfg(feature = "records")]
    #[inline(always)]
    pub(crate) fn drive_whole<C: Consume>(&mut self, c: &mut C) {
        self.machine
            .drive_whole(&self.input, standalone(self.driven, &mut self.feedback), c);
    }

    /// An iterator of owned tokens (allocating per token: simple, not fast).
    ///
    /// ```
    /// use htmltok::{OwnedToken, Tokenizer};
    /// let tokens: Vec<OwnedToken> = Tokenizer::new("<b>hi</b>").owned().collect();
    /// assert_eq!(tokens.len(), 4);
    /// assert_eq!(tokens[1], OwnedToken::Text("hi".into()));
    /// assert_eq!(tokens[3], OwnedToken::Eof);
    /// ```
    pub fn owned(self) -> OwnedTokens<'a, E, A> {
        OwnedTokens { tokenizer: self }
    }

    /// The parse errors found so far, in the order the standard raises them
    /// (always empty with [`IgnoreErrors`]).
    pub fn errors(&self) -> &[ParseError] {
        self.machine.errors()
    }

    /// Takes the parse errors found so far, leaving none: a crawler that
    /// logs errors as it goes keeps memory bounded on pages with an error
    /// every few bytes. Errors are taken in order; later calls return the
    /// ones found since.
    ///
    /// ```
    /// use htmltok::{Config, ErrorCode, Tokenizer};
    ///
    /// let mut tok = Tokenizer::with_config("<a x=1 x=2></b c>", Config::new().report_errors());
    /// let mut codes = Vec::new();
    /// while tok.next_token().is_some() {
    ///     codes.extend(tok.take_errors().into_iter().map(|e| e.code));
    /// }
    /// assert_eq!(
    ///     codes,
    ///     [ErrorCode::DuplicateAttribute, ErrorCode::EndTagWithAttributes]
    /// );
    /// assert!(tok.errors().is_empty());
    /// ```
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        self.machine.take_errors()
    }

    /// The input being tokenized (after UTF-8 repair, if any).
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Switches the tokenizer to `state` before the next token, as a tree
    /// builder does after `<title>`, `<script>` and the like. A token
    /// borrows the tokenizer until its last use, so this can be called in
    /// the `match` arm of a start tag once nothing from the tag is used
    /// after the call (see the crate guide's driven example).
    pub fn set_state(&mut self, state: State) {
        self.machine.set_state(state);
    }

    /// Sets the last start tag name used by the "appropriate end tag" rule.
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.machine.set_last_start_tag(name);
    }

    /// Whether `<![CDATA[` opens a CDATA section (adjusted current node not
    /// in the HTML namespace).
    pub fn set_cdata_allowed(&mut self, allowed: bool) {
        self.machine.set_cdata_allowed(allowed);
    }

    /// The state the tokenizer is in.
    pub fn state(&self) -> State {
        self.machine.state()
    }
}
