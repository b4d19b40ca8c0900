//! Parsing into a DOM: htmltok's tokens drive html5ever's tree builder
//! (feature `html5ever`).
//!
//! Most programs that read HTML want a tree, not tokens, and most Rust
//! DOMs (`scraper`, `markup5ever_rcdom`, kuchikiki, ammonia's) are built by
//! html5ever's `TreeBuilder` through its `TreeSink` trait. These functions
//! build the same trees with htmltok as the tokenizer: the tokenizer runs
//! in driven mode ([`Config::driven`](crate::Config::driven)) and the tree
//! builder's answer after each token switches it (RCDATA, RAWTEXT, script
//! data and PLAINTEXT after the elements that hold them, CDATA sections
//! where the adjusted current node is foreign), as html5ever's own
//! tokenizer is switched. The trees are the same as html5ever's own
//! parser builds: `tests/conformance/html5ever_tree.rs` checks that on every test of
//! html5lib's tree-construction suite and every page of the corpus.
//!
//! Any `TreeSink` of html5ever 0.40 works: `markup5ever_rcdom`'s `RcDom`
//! as here, or `scraper` 0.29's [`HtmlTreeSink`](https://docs.rs/scraper/0.29/scraper/html/struct.HtmlTreeSink.html)
//! for CSS selectors (the repository's `benchmarks/examples/scraper.rs`):
//!
//! ```
//! use html5ever::serialize::{serialize, SerializeOpts};
//! use htmltok::html5ever::{parse_document, ParseOpts};
//! use markup5ever_rcdom::{RcDom, SerializableHandle};
//!
//! let page = r#"<ul><li><a href="/one">One</a><li><a href="/two">Two</a></ul>"#;
//! let dom: RcDom = parse_document(RcDom::default(), ParseOpts::default(), page);
//! let document: SerializableHandle = dom.document.clone().into();
//! let mut html = Vec::new();
//! serialize(&mut html, &document, SerializeOpts::default()).unwrap();
//! assert_eq!(
//!     String::from_utf8(html).unwrap(),
//!     r#"<html><head></head><body><ul><li><a href="/one">One</a></li><li><a href="/two">Two</a></li></ul></body></html>"#
//! );
//! ```
//!
//! Pages as bytes in any encoding go through [`parse_bytes`] (the
//! [`Sniffer`]'s decision), pages arriving in chunks through
//! [`StreamParser`], and fragments (`innerHTML`) through [`parse_fragment`].
//!
//! # Differences from html5ever's parser
//!
//! - Parse errors of the tokenizer reach `TreeSink::parse_error` only with
//!   [`ParseOpts::errors`], as the standard's error codes
//!   (`"duplicate-attribute"`), each with its line; html5ever's own
//!   tokenizer always reports its own messages. The tree builder's errors
//!   come as html5ever words them, either way.
//! - A tag's `had_duplicate_attributes` (html5ever's `ElementFlags`, for
//!   CSP nonces) is known only with [`ParseOpts::errors`]; else it is false.
//! - Line numbers (`TreeSink::set_current_line`) come with
//!   [`ParseOpts::line_numbers`] (off by default: they cost about a tenth
//!   of the parse). A tag's is the line of its `>`, as html5ever counts; a
//!   text run's that of its first character, where html5ever gives each
//!   piece it splits a run into its own. So the lines of elements a run
//!   creates (an implied `<html>`, a reopened `<b>`) may differ by one
//!   from html5ever's: on 3 of the 190 pages of the test corpus.
//! - html5ever's strings (tendrils) hold at most 4 GiB: longer text comes
//!   in several pieces, a longer attribute value, comment or DOCTYPE
//!   identifier is cut at the last character that fits.
//! - There is no script execution (html5ever's driver runs none either):
//!   after `</script>` parsing goes on.
//! - A leading U+FEFF (a byte order mark left in decoded text) is dropped
//!   at the start of the document only. html5ever 0.40's parser, fed in
//!   pieces (`TendrilSink::process`), drops one at the start of every
//!   piece, so its text depends on where the input was cut; whole, the two
//!   agree.

mod convert;
mod driver;
mod stream;

use ::html5ever::tendril::StrTendril;
use ::html5ever::tokenizer::TokenSink;
use ::html5ever::tree_builder::{create_element, TreeBuilder, TreeBuilderOpts, TreeSink};
use ::html5ever::{Attribute, QualName};

use crate::encoding::{Sniffed, Sniffer};
use crate::{Config, State, Tokenizer};
use convert::Tendrils;
use driver::{drive, Lines, TokenSource};

pub use stream::StreamParser;

/// How to parse: html5ever's tree-builder options, and what htmltok
/// reports beside the tree.
///
/// ```
/// use htmltok::html5ever::{parse_document, ParseOpts};
/// use markup5ever_rcdom::RcDom;
///
/// let opts = ParseOpts { errors: true, ..ParseOpts::default() };
/// let dom = parse_document(RcDom::default(), opts, "<p id=a id=b>");
/// assert!(dom.errors.borrow().iter().any(|e| e == "duplicate-attribute"));
/// ```
#[derive(Clone, Copy, Default)]
pub struct ParseOpts {
    /// html5ever's tree-builder options (scripting flag, quirks mode, ...).
    pub tree_builder: TreeBuilderOpts,
    /// Hand the tokenizer's parse errors to the sink (`TreeSink::parse_error`),
    /// as the standard's codes. Off by default: collecting them costs.
    pub errors: bool,
    /// Tell the sink each token's line (`TreeSink::set_current_line`). Off
    /// by default: DOMs for reading pages ignore it.
    pub line_numbers: bool,
}

// By hand: html5ever's `TreeBuilderOpts` has no `Debug`.
impl std::fmt::Debug for ParseOpts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tb = &self.tree_builder;
        f.debug_struct("ParseOpts")
            .field("scripting_enabled", &tb.scripting_enabled)
            .field("iframe_srcdoc", &tb.iframe_srcdoc)
            .field("drop_doctype", &tb.drop_doctype)
            .field("quirks_mode", &tb.quirks_mode)
            .field("errors", &self.errors)
            .field("line_numbers", &self.line_numbers)
            .finish_non_exhaustive()
    }
}

/// Parses a whole document into `sink` and returns the sink's output.
///
/// A leading U+FEFF, a byte order mark left in decoded text, is dropped, as
/// html5ever's own parser drops it: else the page would start with text,
/// and parse in quirks mode with its head's content in the body.
///
/// ```
/// use htmltok::html5ever::{parse_document, ParseOpts};
/// use markup5ever_rcdom::{NodeData, RcDom};
///
/// let dom = parse_document(RcDom::default(), ParseOpts::default(), "<title>A&amp;B</title>");
/// let html = dom.document.children.borrow()[0].clone();
/// let head = html.children.borrow()[0].clone();
/// let title = head.children.borrow()[0].clone();
/// let text = title.children.borrow()[0].clone();
/// let NodeData::Text { contents } = &text.data else { panic!() };
/// assert_eq!(&**contents.borrow(), "A&B");
/// ```
pub fn parse_document<Sink: TreeSink>(sink: Sink, opts: ParseOpts, html: &str) -> Sink::Output {
    let tree = TreeBuilder::new(sink, opts.tree_builder);
    parse_whole(tree, opts, without_bom(html), State::Data)
}

/// `html` without a leading U+FEFF: the byte order mark of a text decoded
/// by something that kept it (`std::fs::read_to_string` does), which
/// html5ever's own tokenizer drops (its `discard_bom` option, on by
/// default). Text that htmltok's decoder made has lost its byte order mark
/// already, as the standard's decoder drops it, and keeps any U+FEFF after
/// it.
fn without_bom(html: &str) -> &str {
    html.strip_prefix('\u{FEFF}').unwrap_or(html)
}

/// Parses a page given as bytes: decoded as the [`Sniffer`] decides (a
/// byte order mark, the transport's charset, a `<meta>`, ...), then parsed
/// as [`parse_document`] does. Returns the sink's output and the encoding.
/// The decoder drops a byte order mark, as the standard's does; a U+FEFF
/// after it is text.
///
/// ```
/// use html5ever::serialize::{serialize, SerializeOpts};
/// use htmltok::encoding::Sniffer;
/// use htmltok::html5ever::{parse_bytes, ParseOpts};
/// use markup5ever_rcdom::{RcDom, SerializableHandle};
///
/// let page = b"<meta charset=windows-1252><h1>Caf\xe9</h1>";
/// let (dom, sniffed) = parse_bytes(RcDom::default(), ParseOpts::default(), page, Sniffer::new());
/// assert_eq!(sniffed.encoding, encoding_rs::WINDOWS_1252);
/// let document: SerializableHandle = dom.document.clone().into();
/// let mut html = Vec::new();
/// serialize(&mut html, &document, SerializeOpts::default()).unwrap();
/// assert!(String::from_utf8(html).unwrap().contains("<h1>Café</h1>"));
/// ```
pub fn parse_bytes<Sink: TreeSink>(
    sink: Sink,
    opts: ParseOpts,
    bytes: &[u8],
    sniffer: Sniffer,
) -> (Sink::Output, Sniffed) {
    let decoded = sniffer.decode(bytes);
    let tree = TreeBuilder::new(sink, opts.tree_builder);
    let output = parse_whole(tree, opts, &decoded.text, State::Data);
    (output, decoded.sniffed)
}

/// Parses a fragment in the context of an element (the standard's
/// fragment parsing algorithm, as `innerHTML` does), with the arguments
/// of html5ever's `parse_fragment`: the context element's name and
/// attributes, and whether it allows scripting (which makes a `noscript`
/// context raw text). A leading U+FEFF is dropped, as in
/// [`parse_document`] (and html5ever's `parse_fragment`).
///
/// ```
/// use html5ever::{ns, local_name, QualName};
/// use htmltok::html5ever::{parse_fragment, ParseOpts};
/// use markup5ever_rcdom::{NodeData, RcDom};
///
/// let context = QualName::new(None, ns!(html), local_name!("textarea"));
/// let dom = parse_fragment(RcDom::default(), ParseOpts::default(), context, vec![], false, "<b>not bold</b>");
/// // A textarea holds text: the fragment (under its root `html` element)
/// // is one text node.
/// let root = dom.document.children.borrow()[0].clone();
/// let children = root.children.borrow();
/// assert_eq!(children.len(), 1);
/// match &children[0].data {
///     NodeData::Text { contents } => assert_eq!(&**contents.borrow(), "<b>not bold</b>"),
///     _ => panic!("not text"),
/// }
/// ```
pub fn parse_fragment<Sink: TreeSink>(
    sink: Sink,
    opts: ParseOpts,
    context_name: QualName,
    context_attrs: Vec<Attribute>,
    context_element_allows_scripting: bool,
    html: &str,
) -> Sink::Output {
    let context = create_element(&sink, context_name, context_attrs);
    let tree = TreeBuilder::new_for_fragment(sink, context, None, opts.tree_builder);
    let state =
        convert::state(tree.tokenizer_state_for_context_elem(context_element_allows_scripting));
    parse_whole(tree, opts, without_bom(html), state)
}

/// The tokenizer configuration the tree builder drives, starting in `state`.
fn driven_config(state: State) -> Config {
    Config::new().driven(true).initial_state(state)
}

/// Parses `html` whole into `tree`, the tokenizer starting in `state`.
fn parse_whole<Sink: TreeSink>(
    tree: TreeBuilder<Sink::Handle, Sink>,
    opts: ParseOpts,
    html: &str,
    state: State,
) -> Sink::Output {
    // The input as one tendril, so that token strings that are its bytes
    // become shared sub-tendrils: one copy of the page instead of one per
    // string. A page too long for a tendril is read where it is, and every
    // string copied.
    let shared = (html.len() <= u32::MAX as usize).then(|| StrTendril::from_slice(html));
    let (text, tendrils) = match &shared {
        Some(input) => (&**input, Tendrils::sharing(input)),
        None => (html, Tendrils::copying()),
    };
    let config = driven_config(state);
    if opts.errors {
        run(
            &mut Tokenizer::with_config(text, config.report_errors()),
            &tree,
            &tendrils,
            opts,
        );
    } else {
        run(
            &mut Tokenizer::with_config(text, config),
            &tree,
            &tendrils,
            opts,
        );
    }
    tree.sink.finish()
}

/// Drives `tree` with all of `source`'s tokens.
fn run<S, Sink>(
    source: &mut S,
    tree: &TreeBuilder<Sink::Handle, Sink>,
    tendrils: &Tendrils<'_>,
    opts: ParseOpts,
) where
    S: TokenSource,
    Sink: TreeSink,
{
    // A fragment's context element may be foreign before any token.
    source.set_cdata_allowed(tree.adjusted_current_node_present_but_not_in_html_namespace());
    let ended = drive(source, tree, tendrils, &mut Lines::new(), opts.line_numbers);
    debug_assert!(ended, "a whole document ends with its end-of-file token");
}
