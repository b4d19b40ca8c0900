//! A document that arrives in chunks, parsed as it comes.

use ::html5ever::tree_builder::{TreeBuilder, TreeSink};

use super::convert::Tendrils;
use super::driver::{drive, Lines};
use super::{driven_config, ParseOpts};
use crate::encoding::{Sniffed, Sniffer};
use crate::{IgnoreErrors, ReportErrors, State, StreamTokenizer};

/// The stream tokenizer, with or without error collection (a type
/// parameter of the tokenizer, a run-time option here).
enum Tokens {
    Quiet(StreamTokenizer<IgnoreErrors>),
    Reporting(StreamTokenizer<ReportErrors>),
}

/// Parses a document fed in chunks of bytes into a `TreeSink`: the tree
/// grows as tokens complete, and memory holds the tree plus the chunk and
/// the token in progress, not the page. The bytes are UTF-8 (repaired as
/// `String::from_utf8_lossy` does, [`new`](Self::new)), or in whatever
/// encoding a [`Sniffer`] decides ([`decoding`](Self::decoding)). It also is an [`std::io::Write`], so
/// that [`std::io::copy`] can feed it from a reader.
///
/// ```
/// use html5ever::serialize::{serialize, SerializeOpts};
/// use htmltok::encoding::Sniffer;
/// use htmltok::html5ever::{ParseOpts, StreamParser};
/// use markup5ever_rcdom::{RcDom, SerializableHandle};
///
/// let page: &[u8] = b"<meta charset=iso-8859-1><ul><li>Gr\xfc\xdfe<li>Hallo</ul>";
/// let mut parser = StreamParser::decoding(RcDom::default(), ParseOpts::default(), Sniffer::new());
/// for chunk in page.chunks(7) {
///     parser.feed(chunk);
/// }
/// let dom = parser.finish();
/// let document: SerializableHandle = dom.document.clone().into();
/// let mut html = Vec::new();
/// serialize(&mut html, &document, SerializeOpts::default()).unwrap();
/// assert!(String::from_utf8(html).unwrap().contains("<ul><li>Grüße</li><li>Hallo</li></ul>"));
/// ```
pub struct StreamParser<Sink: TreeSink> {
    tokens: Tokens,
    tree: TreeBuilder<Sink::Handle, Sink>,
    lines: Lines,
    line_numbers: bool,
    /// The tree builder has had the end of file.
    ended: bool,
}

// By hand: the tree builder and its sink have no `Debug`.
impl<Sink: TreeSink> std::fmt::Debug for StreamParser<Sink> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tokens: &dyn std::fmt::Debug = match &self.tokens {
            Tokens::Quiet(t) => t,
            Tokens::Reporting(t) => t,
        };
        f.debug_struct("StreamParser")
            .field("tokens", tokens)
            .field("line_numbers", &self.line_numbers)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl<Sink: TreeSink> StreamParser<Sink> {
    /// A parser of a whole document into `sink`, its input UTF-8. A
    /// leading byte order mark (U+FEFF) is dropped, as html5ever's parser
    /// drops it.
    pub fn new(sink: Sink, opts: ParseOpts) -> Self {
        Self::build(sink, opts, None)
    }

    /// A parser of a whole document into `sink`, its input in the
    /// encoding `sniffer` decides, as [`StreamTokenizer::decoding`]
    /// decides it (no tree grows before the first 1024 bytes have come, or
    /// the end). The decoder drops a byte order mark, as the standard's
    /// does; a U+FEFF after it is text, as in
    /// [`parse_bytes`](super::parse_bytes). A `<meta>` in the head that
    /// declares another encoding than the one decided cannot change the
    /// tree already built: [`sniffed`](Self::sniffed) reports it
    /// ([`Sniffed::declared_late`]).
    pub fn decoding(sink: Sink, opts: ParseOpts, sniffer: Sniffer) -> Self {
        Self::build(sink, opts, Some(sniffer))
    }

    fn build(sink: Sink, opts: ParseOpts, sniffer: Option<Sniffer>) -> Self {
        let config = driven_config(State::Data);
        // In UTF-8 input, a leading U+FEFF is a byte order mark the input
        // kept: html5ever's parser drops it (see `parse_document`); a
        // decoder drops it itself.
        let tokens = match (opts.errors, sniffer) {
            (false, None) => Tokens::Quiet(StreamTokenizer::with_config(config).discarding_bom()),
            (false, Some(sniffer)) => Tokens::Quiet(StreamTokenizer::decoding(sniffer, config)),
            (true, None) => Tokens::Reporting(
                StreamTokenizer::with_config(config.report_errors()).discarding_bom(),
            ),
            (true, Some(sniffer)) => {
                Tokens::Reporting(StreamTokenizer::decoding(sniffer, config.report_errors()))
            }
        };
        StreamParser {
            tokens,
            tree: TreeBuilder::new(sink, opts.tree_builder),
            lines: Lines::new(),
            line_numbers: opts.line_numbers,
            ended: false,
        }
    }

    /// The encoding, once decided (see [`StreamTokenizer::sniffed`]).
    pub fn sniffed(&self) -> Option<Sniffed> {
        match &self.tokens {
            Tokens::Quiet(t) => t.sniffed(),
            Tokens::Reporting(t) => t.sniffed(),
        }
    }

    /// Parses the next chunk, as far as it completes tokens.
    pub fn feed(&mut self, chunk: &[u8]) {
        match &mut self.tokens {
            Tokens::Quiet(t) => t.feed(chunk),
            Tokens::Reporting(t) => t.feed(chunk),
        }
        self.pump();
    }

    /// Ends the input and returns the sink's output.
    pub fn finish(mut self) -> Sink::Output {
        match &mut self.tokens {
            Tokens::Quiet(t) => t.finish(),
            Tokens::Reporting(t) => t.finish(),
        }
        self.pump();
        debug_assert!(self.ended, "a finished stream hands out its end of file");
        self.tree.sink.finish()
    }

    /// Hands the tree builder every token the input so far completes.
    fn pump(&mut self) {
        if self.ended {
            return;
        }
        let tendrils = Tendrils::copying();
        let tree = &self.tree;
        let lines = &mut self.lines;
        self.ended = match &mut self.tokens {
            Tokens::Quiet(t) => drive(t, tree, &tendrils, lines, self.line_numbers),
            Tokens::Reporting(t) => drive(t, tree, &tendrils, lines, self.line_numbers),
        };
    }
}

impl<Sink: TreeSink> std::io::Write for StreamParser<Sink> {
    /// Feeds all of `buf`.
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.feed(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
