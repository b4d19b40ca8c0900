//! Adversarial inputs: generated worst cases for time and memory, shared
//! by the memory-bound tests (`tests/robustness/adversarial.rs`) and the
//! throughput and linearity bench (`benches/adversarial.rs`).
//!
//! Every case is a generator of an input of about `n` bytes; the test and
//! the bench run a small and a big one (16 times larger) through the
//! drivers here: the whole-document API, a stream in 64 KiB chunks that
//! records what it had to hold, and a stream in 7-byte chunks.
//!
//! [`MAIN_CONTENT_CASES`] are pages for the main-content extractor, timed
//! by the same bench at a big size and a tenth of it.

use htmltok::{Config, Input, StreamTokenizer, Token, Tokenizer};

/// One adversarial input family.
pub struct Case {
    /// The case's name, which its test carries too.
    pub name: &'static str,
    /// An input of about `n` bytes (at least `n`, at most a unit more).
    pub generate: fn(usize) -> Vec<u8>,
    /// Every token is small (bounded independently of `n`), so a stream's
    /// memory must not grow with the input at all.
    pub small_tokens: bool,
}

/// `unit` repeated until there are at least `n` bytes.
pub fn repeat(unit: &[u8], n: usize) -> Vec<u8> {
    unit.repeat(n.div_ceil(unit.len()).max(1))
}

/// `head`, then `unit` repeated to `n` bytes in all, then `tail`.
pub fn framed(head: &[u8], unit: &[u8], n: usize, tail: &[u8]) -> Vec<u8> {
    let mut out = head.to_vec();
    out.extend(repeat(unit, n.saturating_sub(head.len() + tail.len())));
    out.extend_from_slice(tail);
    out
}

fn gen_distinct_attributes(n: usize) -> Vec<u8> {
    let mut out = b"<a".to_vec();
    let mut i = 0u64;
    while out.len() + 1 < n {
        out.extend_from_slice(format!(" a{i}").as_bytes());
        i += 1;
    }
    out.push(b'>');
    out
}

/// The cases: the brief's list, plus nesting that standalone mode tracks
/// (`<svg>` repeated, and end tags deep inside it) and a comment full of
/// `--!`.
pub const CASES: &[Case] = &[
    Case {
        name: "distinct_attributes",
        generate: gen_distinct_attributes,
        small_tokens: false,
    },
    Case {
        name: "duplicate_attributes",
        generate: |n| framed(b"<a", b" x=1", n, b">"),
        small_tokens: false,
    },
    Case {
        name: "ampersands",
        generate: |n| repeat(b"&", n),
        small_tokens: true,
    },
    Case {
        name: "amp_without_semicolon",
        generate: |n| repeat(b"&amp", n),
        small_tokens: true,
    },
    Case {
        name: "amp_without_semicolon_in_attribute",
        generate: |n| framed(b"<a x=\"", b"&amp", n, b"\">"),
        small_tokens: false,
    },
    Case {
        name: "long_almost_entity",
        generate: |n| framed(b"&", b"a", n, b""),
        small_tokens: true,
    },
    Case {
        name: "almost_entities",
        generate: |n| repeat(b"&CounterClockwiseContourIntegra", n),
        small_tokens: true,
    },
    Case {
        name: "comment_opens",
        generate: |n| repeat(b"<!--", n),
        small_tokens: false,
    },
    Case {
        name: "tag_opens",
        generate: |n| repeat(b"<a", n),
        small_tokens: false,
    },
    Case {
        name: "end_tag_opens",
        generate: |n| repeat(b"</", n),
        small_tokens: false,
    },
    Case {
        name: "unclosed_attribute_values",
        generate: |n| framed(b"<a x=\"", b"<b y='", n, b""),
        small_tokens: false,
    },
    Case {
        name: "doctype_huge_identifiers",
        generate: |n| {
            let half = b"p".repeat(n / 2);
            let mut out = b"<!DOCTYPE html PUBLIC \"".to_vec();
            out.extend_from_slice(&half);
            out.extend_from_slice(b"\" \"");
            out.extend_from_slice(&half);
            out.extend_from_slice(b"\">");
            out
        },
        small_tokens: false,
    },
    Case {
        name: "nul_everywhere",
        generate: |n| repeat(b"\0<\0a\0 \0x\0=\0\"\0\"\0>\0<!--\0-->\0&\0</\0a\0>", n),
        small_tokens: true,
    },
    Case {
        name: "cr_everywhere",
        generate: |n| repeat(b"a\r\r\n<p\rx=\r'\r'>\r<!--\r-->\r&amp\r", n),
        small_tokens: true,
    },
    Case {
        name: "script_comment_script",
        generate: |n| framed(b"<script>", b"<!--<script>", n, b""),
        small_tokens: true,
    },
    Case {
        name: "huge_comment",
        generate: |n| framed(b"<!--", b"x", n, b"-->"),
        small_tokens: false,
    },
    Case {
        name: "comment_dashes_and_bangs",
        generate: |n| framed(b"<!--", b"--!-", n, b"-->"),
        small_tokens: false,
    },
    Case {
        name: "huge_attribute_value",
        generate: |n| framed(b"<a x=\"", b"v", n, b"\">"),
        small_tokens: false,
    },
    Case {
        name: "svg_nesting",
        generate: |n| repeat(b"<svg>", n),
        small_tokens: true,
    },
    // End tags that close nothing, in foreign content as deep as standalone
    // mode records (512): each would walk the whole stack of open elements.
    Case {
        name: "deep_foreign_end_tags",
        generate: |n| framed(&b"<svg>".repeat(600), b"</x>", n, b""),
        small_tokens: true,
    },
    // The same walk stopped by an integration point with HTML open inside,
    // for an end tag whose element is open below that point.
    Case {
        name: "walled_foreign_end_tags",
        generate: |n| {
            let mut head = b"<svg><foreignObject><p>".to_vec();
            head.extend(b"<svg>".repeat(509));
            framed(&head, b"</foreignObject>", n, b"")
        },
        small_tokens: true,
    },
];

/// One adversarial page for the main-content extractor, which builds a
/// tree of the page and scores its parts: the bench times it at a tenth
/// of [`big`](Self::big) and at `big`, and holds the ratio of the times to
/// the ratio of the sizes (`benches/adversarial.rs`).
pub struct MainContentCase {
    /// The case's name.
    pub name: &'static str,
    /// A page of about `n` bytes, valid UTF-8.
    pub generate: fn(usize) -> Vec<u8>,
    /// The big page's size.
    pub big: usize,
}

/// `depth` open elements, each `open`, then `inner`, then every one of
/// them closed by `close`: nesting `depth` deep.
fn nested(open: &[u8], inner: &[u8], close: &[u8], depth: usize) -> Vec<u8> {
    let mut out = open.repeat(depth);
    out.extend_from_slice(inner);
    out.extend(close.repeat(depth));
    out
}

/// The real page the repeated-page case is made of: a Wikipedia article
/// of the repository's annotated sample (`corpus/main-content/`).
pub const REAL_PAGE: &str = "corpus/main-content/cache/en.wikipedia.org.tsne.html";

fn gen_real_page_repeated(n: usize) -> Vec<u8> {
    let path = crate::data::repo_root().join(REAL_PAGE);
    let page = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("cannot read the real page {}: {e}", path.display()));
    repeat(&page, n)
}

/// The main-content cases: deep nesting (every ancestor of the text is a
/// candidate container), a link per few bytes (link density counted for
/// every ancestor), one paragraph as long as the page (one text node to
/// measure), a real page repeated (every structure a real page has, many
/// times over), and lists nested as deep (Markdown indents a list item by
/// its depth, which must not make the output grow with depth squared).
pub const MAIN_CONTENT_CASES: &[MainContentCase] = &[
    MainContentCase {
        name: "main_nested_divs",
        generate: |n| {
            nested(
                b"<div>",
                b"<p>The text at the bottom.</p>",
                b"</div>",
                n / 11,
            )
        },
        big: 100_000 * 11,
    },
    MainContentCase {
        name: "main_links",
        generate: |n| framed(b"<div>", b"<a href=\"/page\">a link</a> ", n, b"</div>"),
        big: 1_000_000 * 27,
    },
    MainContentCase {
        name: "main_one_paragraph",
        generate: |n| framed(b"<p>", b"word ", n, b"</p>"),
        big: 5_000_000,
    },
    MainContentCase {
        name: "main_real_page_repeated",
        generate: gen_real_page_repeated,
        big: 10_000_000,
    },
    MainContentCase {
        name: "main_nested_lists",
        generate: |n| nested(b"<ul><li>item ", b"the end", b"</li></ul>", n / 23),
        big: 100_000 * 23,
    },
];

/// Tokens and parse errors from tokenizing `input` whole (the test uses
/// errors on, the worst case; the bench off, as `htmltok bench` does).
/// Errors are taken after every token, as a crawler that logs them would:
/// kept, the list is output many times the size of the input (NUL
/// everywhere), whose fresh memory then dominates the time.
pub fn tokenize_whole(input: &[u8], errors: bool) -> (usize, usize) {
    let mut tokens = 0;
    if errors {
        let mut tok =
            Tokenizer::with_config(Input::from_utf8_lossy(input), Config::new().report_errors());
        let mut error_count = 0;
        while let Some(token) = tok.next_token() {
            tokens += 1;
            std::hint::black_box(&token);
            error_count += std::hint::black_box(tok.take_errors()).len();
        }
        (tokens, error_count)
    } else {
        let mut tok = Tokenizer::new(Input::from_utf8_lossy(input));
        while let Some(token) = tok.next_token() {
            tokens += 1;
            std::hint::black_box(&token);
        }
        (tokens, 0)
    }
}

/// Chunk size for the streaming runs.
pub const CHUNK: usize = 64 * 1024;

/// What a streaming run measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Streamed {
    /// The largest `buffered_capacity()` seen.
    pub max_capacity: usize,
    /// The most input the stream had to hold at once, as far as the tokens
    /// show: the longest non-text token (text is handed out chunk by chunk,
    /// so it is never held whole), or the input after the last token when
    /// the input ends inside something that produces no token (`<a<a<a…`
    /// to the end of file is one unfinished tag, dropped at end of file).
    pub largest_token: usize,
}

/// Streams `input` in [`CHUNK`]-byte chunks, errors on (taken after every
/// chunk, as a long-running stream would).
pub fn tokenize_streamed(input: &[u8]) -> Streamed {
    let mut stream = StreamTokenizer::with_config(Config::new().report_errors());
    let mut out = Streamed::default();
    let mut last_end = 0;
    let mut take = |stream: &mut StreamTokenizer<htmltok::ReportErrors>, out: &mut Streamed| {
        out.max_capacity = out.max_capacity.max(stream.buffered_capacity());
        while let Some(token) = stream.next_token() {
            let span = match token {
                Token::Text(t) => {
                    last_end = t.span().end;
                    continue;
                }
                // Every other token but EOF has a span.
                other => match other.span() {
                    Some(span) => span,
                    None => continue,
                },
            };
            out.largest_token = out.largest_token.max(span.len());
            last_end = span.end;
        }
        out.max_capacity = out.max_capacity.max(stream.buffered_capacity());
        std::hint::black_box(stream.take_errors());
    };
    for chunk in input.chunks(CHUNK) {
        stream.feed(chunk);
        take(&mut stream, &mut out);
    }
    stream.finish();
    take(&mut stream, &mut out);
    // Offsets are in the repaired input; the adversarial inputs are UTF-8.
    out.largest_token = out.largest_token.max(input.len().saturating_sub(last_end));
    out
}

/// Chunk size of the small-chunk streaming runs: odd, so that chunk ends
/// fall at every offset of a repeated unit.
pub const SMALL_CHUNK: usize = 7;

/// Streams `input` in [`SMALL_CHUNK`]-byte chunks, errors on, taking the
/// tokens and the errors after every chunk; returns the number of tokens.
pub fn tokenize_in_small_chunks(input: &[u8]) -> usize {
    let mut stream = StreamTokenizer::with_config(Config::new().report_errors());
    let mut tokens = 0;
    for chunk in input.chunks(SMALL_CHUNK) {
        stream.feed(chunk);
        while let Some(token) = stream.next_token() {
            tokens += 1;
            std::hint::black_box(&token);
        }
        std::hint::black_box(stream.take_errors());
    }
    stream.finish();
    while let Some(token) = stream.next_token() {
        tokens += 1;
        std::hint::black_box(&token);
    }
    tokens
}
