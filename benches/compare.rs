//! htmltok against other Rust HTML tokenizers, in MB/s of input (criterion,
//! `Throughput::Bytes`, MB = 10^6 bytes).
//!
//! ```text
//! cargo bench --bench compare                 # everything (about 7 minutes on 2 cores)
//! cargo bench --bench compare -- corpus       # just the whole real-page corpus
//! cargo bench --bench compare -- html5ever    # one engine in every group
//! HTMLTOK_BENCH_PAIRED_ONLY=1 cargo bench --bench compare   # paired rounds only
//! HTMLTOK_CORPUS=/path/to/pages cargo bench --bench compare
//! ```
//!
//! Groups:
//! - `corpus`: every `*.html` page of `$HTMLTOK_CORPUS` (real pages we do
//!   not commit: CI and BENCHMARKS.md use `../shared/corpus`), default the
//!   repository's own `corpus/` (also the fall-back, with a printed note,
//!   when the variable names a directory without pages).
//! - one group per category of that corpus's `MANIFEST.tsv` (`article`,
//!   `script-heavy`, `cjk`, `legacy-encoding`, `large`, `other`), only when the
//!   manifest exists;
//! - `text-only`: ~1 MB of plain text paragraphs (synthetic, no markup);
//! - `tag-dense`: ~1 MB of nested divs, spans and links with many attributes
//!   (synthetic).
//!
//! Engines, each doing the same work: every token and attribute is looked at
//! (lengths summed, so nothing can be optimised away), and the same naive
//! tree-builder switching is applied after start tags: `script` → script
//! data; `style`, `xmp`, `iframe`, `noembed`, `noframes` → RAWTEXT; `title`,
//! `textarea` → RCDATA; `plaintext` → PLAINTEXT.
//! - `htmltok`: whole document ([`Tokenizer::from_bytes_with_config`]), parse
//!   errors off, driven mode, tokens taken with `next_token`, the switches
//!   above done by the caller with `set_state`;
//! - `htmltok-stream-64k`: [`StreamTokenizer`] fed 64 KiB chunks, same;
//! - `htmltok-errors`: as `htmltok`, collecting parse errors;
//! - `htmltok-scalar`: as `htmltok` with its SIMD scanning switched off
//!   (`Config::simd(false)`);
//! - `htmltok-for-each`: as `htmltok`, tokens taken with `for_each_token` (a
//!   callback, as html5ever's and lol_html's are) that returns the switches;
//! - `html5ever`: its tokenizer alone (`html5ever::tokenizer::Tokenizer` and a
//!   `TokenSink` that returns `RawData`/`Plaintext` to switch);
//! - `html5gum`: its `CallbackEmitter` wrapped in a `ForwardingEmitter` that
//!   returns the switches above from `emit_current_tag`, errors off;
//! - `lol_html`: an `HtmlRewriter` with handlers for every element (and its
//!   attributes), text chunk, comment and doctype, discarding its output.
//!   lol_html switches states itself with its own tree-builder simulator;
//!   end tags are not handed to a handler (that needs a boxed handler per
//!   element), attributes and comments are observed through their source
//!   ranges (its `name()`/`value()`/`text()` allocate a `String` each);
//! - `memchr3`: a floor, counting `<`, `&`, `\r` with `memchr3_iter`.
//!
//! After criterion's groups (under `cargo bench` only), *paired rounds*:
//! every engine runs once over a group, back to back, 15 rounds
//! (`HTMLTOK_BENCH_ROUNDS`), and each engine's ratio to html5ever is taken
//! within a round before the median over rounds. Criterion measures one
//! engine after another, so on a machine whose speed drifts (this one's does,
//! by up to 2x over minutes) its ratios can compare different weather; the
//! paired ratios cannot. A markdown table and the speed issue's goals,
//! checked against the paired ratios, are printed last. A filter argument
//! limits them to the groups whose name contains it;
//! `HTMLTOK_BENCH_PAIRED_ONLY=1` skips criterion's groups and runs the
//! paired rounds alone (about a minute instead of eight).
//!
//! Input: pages that are not valid UTF-8 (`legacy-encoding`) go as bytes to
//! the engines that take bytes (htmltok, which repairs them to UTF-8 itself,
//! inside the timed loop; html5gum; lol_html; memchr). html5ever needs text:
//! it gets a lossy UTF-8 conversion made once, outside the timed loop, as a
//! `StrTendril` that is cheaply cloned (shared, not copied) for each run.

#[path = "../tests/common/files.rs"]
mod files;

use std::cell::Cell;
use std::convert::Infallible;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use htmltok::{Config, Flow, State, StreamTokenizer, Token, Tokenizer};

// ---------------------------------------------------------------------------
// Inputs

/// One page, prepared before any timing.
struct Page {
    name: String,
    bytes: Vec<u8>,
    /// Lossy UTF-8 text for html5ever (shares its buffer when cloned).
    tendril: html5ever::tendril::StrTendril,
    category: Option<String>,
}

impl Page {
    fn new(name: String, bytes: Vec<u8>, category: Option<String>) -> Page {
        let text = String::from_utf8_lossy(&bytes);
        let tendril = html5ever::tendril::StrTendril::from_slice(&text);
        Page {
            name,
            bytes,
            tendril,
            category,
        }
    }
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `file` → `category` from a corpus `MANIFEST.tsv` (columns named in its
/// first line), if there is one.
fn read_manifest(dir: &Path) -> Option<Vec<(String, String)>> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).ok()?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let file_col = header.iter().position(|&h| h == "file")?;
    let cat_col = header.iter().position(|&h| h == "category")?;
    Some(
        lines
            .filter_map(|line| {
                let cols: Vec<&str> = line.split('\t').collect();
                Some((
                    cols.get(file_col)?.to_string(),
                    cols.get(cat_col)?.to_string(),
                ))
            })
            .collect(),
    )
}

/// The real-page corpus and whether it came with a manifest.
fn load_corpus() -> (Vec<Page>, bool) {
    let configured = std::env::var_os("HTMLTOK_CORPUS").filter(|d| !d.is_empty());
    let dir = match &configured {
        Some(d) => PathBuf::from(d),
        None => manifest_dir().join("corpus"),
    };
    let paths = files::html_pages(&dir);
    let (dir, paths) = if paths.is_empty() {
        let own = manifest_dir().join("corpus");
        eprintln!(
            "note: no *.html pages under {} ({}); benchmarking the repository's own {} instead",
            dir.display(),
            if configured.is_some() {
                "from HTMLTOK_CORPUS"
            } else {
                "set HTMLTOK_CORPUS to use another directory"
            },
            own.display()
        );
        let own_paths = files::html_pages(&own);
        (own, own_paths)
    } else {
        (dir, paths)
    };
    let manifest = read_manifest(&dir);
    let mut paths = paths;
    paths.sort();
    let pages = paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            let name = path
                .strip_prefix(&dir)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned();
            let category = manifest.as_ref().and_then(|m| {
                m.iter()
                    .find(|(file, _)| *file == name)
                    .map(|(_, c)| c.clone())
            });
            Some(Page::new(name, bytes, category))
        })
        .collect();
    (pages, manifest.is_some())
}

/// xorshift64*, for the synthetic groups.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "river",
    "bridge", "council", "report", "market", "morning", "history", "language", "engineer",
    "village", "station", "question", "measure", "growth", "century", "browser", "document",
    "carefully", "recently", "important", "different", "traditional", "national", "public",
];

/// ~1 MB of paragraphs of plain text, no markup at all.
fn text_only() -> Vec<u8> {
    let mut rng = Rng(0x7E47_0417);
    let mut s = String::new();
    while s.len() < 1_000_000 {
        for sentence in 0..3 + rng.below(6) {
            if sentence > 0 {
                s.push(' ');
            }
            for word in 0..6 + rng.below(16) {
                if word > 0 {
                    s.push(' ');
                }
                s.push_str(WORDS[rng.below(WORDS.len())]);
            }
            s.push('.');
        }
        s.push_str("\n\n");
    }
    s.into_bytes()
}

/// ~1 MB of nested divs, spans and links, each with several attributes.
fn tag_dense() -> Vec<u8> {
    let mut rng = Rng(0x7A6D_E45E);
    let mut s = String::from("<!DOCTYPE html><html><head><title>grid</title></head><body>\n");
    let mut id = 0;
    while s.len() < 1_000_000 {
        id += 1;
        let w = WORDS[rng.below(WORDS.len())];
        s.push_str(&format!(
            "<div class=\"card col-{} row\" id=\"c{id}\" data-id=\"{id}\" data-kind=\"{w}\" \
             role=\"listitem\"><div class=\"media\"><a href=\"/p/{w}/{id}?ref=grid&amp;pos={id}\" \
             class=\"link link--{w}\" rel=\"noopener\" tabindex=\"0\"><img src=\"/i/{id}.webp\" \
             alt=\"{w}\" width=\"320\" height=\"240\" loading=\"lazy\"></a></div><div class=\"body\">\
             <span class=\"title\"><a href=\"/p/{id}\">{w}</a></span><span class=\"price\" \
             data-price=\"{}\">{}</span><ul class=\"tags\"><li><a href=\"/t/{w}\">{w}</a></li>\
             <li><a href=\"/t/x{id}\">x</a></li></ul></div></div>\n",
            rng.below(12),
            rng.below(1000),
            rng.below(1000),
        ));
    }
    s.push_str("</body></html>\n");
    s.into_bytes()
}

// ---------------------------------------------------------------------------
// The naive tree-builder switches, shared by the engines we drive.

#[derive(Clone, Copy)]
enum Switch {
    ScriptData,
    Rawtext,
    Rcdata,
    Plaintext,
}

/// The switch after a start tag with this (lower-case) name, and the name as
/// a `'static` string (for the last start tag).
fn naive_switch(name: &[u8]) -> Option<(Switch, &'static str)> {
    Some(match name {
        b"script" => (Switch::ScriptData, "script"),
        b"style" => (Switch::Rawtext, "style"),
        b"xmp" => (Switch::Rawtext, "xmp"),
        b"iframe" => (Switch::Rawtext, "iframe"),
        b"noembed" => (Switch::Rawtext, "noembed"),
        b"noframes" => (Switch::Rawtext, "noframes"),
        b"title" => (Switch::Rcdata, "title"),
        b"textarea" => (Switch::Rcdata, "textarea"),
        b"plaintext" => (Switch::Plaintext, "plaintext"),
        _ => return None,
    })
}

/// What an engine saw: tokens and a sum of string lengths.
#[derive(Default, Clone, Copy)]
struct Seen {
    tokens: usize,
    sum: usize,
}

// ---------------------------------------------------------------------------
// htmltok

/// The tokenizers of htmltok that a caller drives between `next_token` calls.
trait Driven {
    fn next(&mut self) -> Option<Token<'_>>;
    fn switch(&mut self, state: State, last_start_tag: &str);
}

impl<E: htmltok::ErrorPolicy> Driven for StreamTokenizer<E> {
    fn next(&mut self) -> Option<Token<'_>> {
        self.next_token()
    }
    fn switch(&mut self, state: State, last_start_tag: &str) {
        self.set_state(state);
        self.set_last_start_tag(Some(last_start_tag));
    }
}

impl<E: htmltok::ErrorPolicy> Driven for Tokenizer<'_, E> {
    fn next(&mut self) -> Option<Token<'_>> {
        self.next_token()
    }
    fn switch(&mut self, state: State, last_start_tag: &str) {
        self.set_state(state);
        self.set_last_start_tag(Some(last_start_tag));
    }
}

/// Looks at a token (its strings' lengths summed into `seen`) and says
/// which switch the naive tree builder makes after it.
#[inline(always)]
fn observe(token: &Token<'_>, seen: &mut Seen) -> Option<(Switch, &'static str)> {
    seen.tokens += 1;
    let mut switch = None;
    seen.sum += match token {
        Token::StartTag(tag) => {
            switch = naive_switch(tag.name.as_bytes());
            let mut n = tag.name.len() + tag.self_closing as usize;
            for attr in tag.attributes() {
                n += attr.name.len() + attr.value.len();
            }
            n
        }
        Token::EndTag(tag) => tag.name.len(),
        Token::Text(text) | Token::Comment(text) => text.text.len(),
        Token::Doctype(d) => {
            d.name.map_or(0, str::len)
                + d.public_id.map_or(0, str::len)
                + d.system_id.map_or(0, str::len)
                + d.force_quirks as usize
        }
        Token::ProcessingInstruction(pi) => pi.target.len() + pi.data.len(),
        Token::Eof => 0,
        // Token kinds added later count as seen.
        #[allow(unreachable_patterns)]
        _ => 0,
    };
    switch
}

fn state_of(switch: Switch) -> State {
    match switch {
        Switch::ScriptData => State::ScriptData,
        Switch::Rawtext => State::Rawtext,
        Switch::Rcdata => State::Rcdata,
        Switch::Plaintext => State::Plaintext,
    }
}

/// The callback of `for_each_token`: looks at the token, returns the switch.
/// (The tokenizer's "last start tag" is then the start tag just handed, the
/// one the switch is for.)
#[inline(always)]
fn flow(token: Token<'_>, seen: &mut Seen) -> Flow {
    match observe(&token, seen) {
        Some((switch, _)) => Flow::Switch(state_of(switch)),
        None => Flow::Continue,
    }
}

/// Takes tokens with `next_token` until the tokenizer needs more input (or
/// is done), looking at each and applying the naive switches.
#[inline(always)]
fn drain(tok: &mut impl Driven, seen: &mut Seen) {
    loop {
        let switch = {
            let Some(token) = tok.next() else { return };
            observe(&token, seen)
        };
        if let Some((switch, name)) = switch {
            tok.switch(state_of(switch), name);
        }
    }
}

fn driven() -> Config {
    Config::new().driven(true)
}

fn htmltok_whole(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::from_bytes_with_config(&page.bytes, driven());
    drain(&mut tok, &mut seen);
    seen
}

fn htmltok_errors(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::from_bytes_with_errors(&page.bytes, driven());
    drain(&mut tok, &mut seen);
    seen.sum += tok.errors().len();
    seen
}

fn htmltok_stream_64k(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = StreamTokenizer::with_config(driven());
    for chunk in page.bytes.chunks(64 * 1024) {
        tok.feed(chunk);
        drain(&mut tok, &mut seen);
    }
    tok.finish();
    drain(&mut tok, &mut seen);
    seen
}

/// As `htmltok_whole`, with the SIMD landmark scans switched off
/// (`Config::simd(false)`): the portable scalar path.
fn htmltok_scalar(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::from_bytes_with_config(&page.bytes, driven().simd(false));
    drain(&mut tok, &mut seen);
    seen
}

/// As `htmltok_whole`, through the callback API.
fn htmltok_for_each(page: &Page) -> Seen {
    let mut seen = Seen::default();
    let mut tok = Tokenizer::from_bytes_with_config(&page.bytes, driven());
    tok.for_each_token(|token| flow(token, &mut seen));
    seen
}

// ---------------------------------------------------------------------------
// html5ever (tokenizer only)

mod ever {
    use super::{naive_switch, Seen, Switch};
    use html5ever::tokenizer::states::RawKind;
    use html5ever::tokenizer::{
        BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    };
    use std::cell::Cell;

    #[derive(Default)]
    pub struct Sink {
        tokens: Cell<usize>,
        sum: Cell<usize>,
    }

    impl TokenSink for Sink {
        type Handle = ();

        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            // Parse errors (a few, even with exact errors off) are not tokens.
            if !matches!(token, Token::ParseError(_)) {
                self.tokens.set(self.tokens.get() + 1);
            }
            let mut result = TokenSinkResult::Continue;
            let n = match token {
                Token::TagToken(tag) => {
                    let mut n = tag.name.len() + tag.self_closing as usize;
                    for attr in &tag.attrs {
                        n += attr.name.local.len() + attr.value.len();
                    }
                    if tag.kind == TagKind::StartTag {
                        result = match naive_switch(tag.name.as_bytes()) {
                            Some((Switch::ScriptData, _)) => {
                                TokenSinkResult::RawData(RawKind::ScriptData)
                            }
                            Some((Switch::Rawtext, _)) => {
                                TokenSinkResult::RawData(RawKind::Rawtext)
                            }
                            Some((Switch::Rcdata, _)) => TokenSinkResult::RawData(RawKind::Rcdata),
                            Some((Switch::Plaintext, _)) => TokenSinkResult::Plaintext,
                            None => TokenSinkResult::Continue,
                        };
                    }
                    n
                }
                Token::CharacterTokens(text) | Token::CommentToken(text) => text.len(),
                Token::DoctypeToken(d) => {
                    d.name.as_ref().map_or(0, |s| s.len())
                        + d.public_id.as_ref().map_or(0, |s| s.len())
                        + d.system_id.as_ref().map_or(0, |s| s.len())
                        + d.force_quirks as usize
                }
                Token::NullCharacterToken => 1,
                Token::EOFToken | Token::ParseError(_) => 0,
            };
            self.sum.set(self.sum.get() + n);
            result
        }
    }

    pub fn run(page: &super::Page) -> Seen {
        let tok = Tokenizer::new(Sink::default(), TokenizerOpts::default());
        let input = BufferQueue::default();
        // A clone of a shared tendril: no copy of the text.
        input.push_back(page.tendril.clone());
        let _ = tok.feed(&input);
        tok.end();
        Seen {
            tokens: tok.sink.tokens.get(),
            sum: tok.sink.sum.get(),
        }
    }
}

// ---------------------------------------------------------------------------
// html5gum

mod gum {
    use super::{naive_switch, Infallible, Seen, Switch};
    use html5gum::emitters::callback::{Callback, CallbackEmitter, CallbackEvent};
    use html5gum::{Emitter, ForwardingEmitter, Span, State, Tokenizer};
    use std::cell::Cell;

    /// Looks at every event; the totals live outside the tokenizer, which
    /// keeps its emitter to itself.
    pub struct Observer<'a> {
        seen: &'a Cell<Seen>,
        /// The switch for the start tag being emitted.
        pending: Option<State>,
    }

    impl Callback<Infallible, ()> for Observer<'_> {
        fn handle_event(
            &mut self,
            event: CallbackEvent<'_>,
            _span: Span<()>,
        ) -> Option<Infallible> {
            let (tokens, n) = match event {
                CallbackEvent::OpenStartTag { name } => {
                    self.pending = naive_switch(name).map(|(s, _)| match s {
                        Switch::ScriptData => State::ScriptData,
                        Switch::Rawtext => State::RawText,
                        Switch::Rcdata => State::RcData,
                        Switch::Plaintext => State::PlainText,
                    });
                    (1, name.len())
                }
                CallbackEvent::AttributeName { name } => (0, name.len()),
                CallbackEvent::AttributeValue { value } => (0, value.len()),
                CallbackEvent::CloseStartTag { self_closing } => (0, self_closing as usize),
                CallbackEvent::EndTag { name } => {
                    self.pending = None;
                    (1, name.len())
                }
                CallbackEvent::String { value } | CallbackEvent::Comment { value } => {
                    (1, value.len())
                }
                CallbackEvent::Doctype {
                    name,
                    public_identifier,
                    system_identifier,
                    force_quirks,
                } => (
                    1,
                    name.len()
                        + public_identifier.map_or(0, <[u8]>::len)
                        + system_identifier.map_or(0, <[u8]>::len)
                        + force_quirks as usize,
                ),
                CallbackEvent::Error(_) => (0, 0),
            };
            let mut seen = self.seen.get();
            seen.tokens += tokens;
            seen.sum += n;
            self.seen.set(seen);
            None
        }
    }

    /// html5gum's callback emitter, with our switches and errors off.
    pub struct Switching<'a>(CallbackEmitter<Observer<'a>>);

    impl ForwardingEmitter for Switching<'_> {
        type Token = Infallible;

        fn inner(&mut self) -> &mut impl Emitter<Token = Infallible> {
            &mut self.0
        }

        fn should_emit_errors(&mut self) -> bool {
            false
        }

        fn emit_current_tag(&mut self) -> Option<State> {
            // The inner emitter's own (naive) switching is off: it returns None.
            let _ = self.0.emit_current_tag();
            let next = self.0.callback_mut().pending.take();
            if next.is_some() {
                // As html5gum's emitter does when it switches by itself.
                self.0.init_string();
            }
            next
        }
    }

    pub fn run(page: &super::Page) -> Seen {
        let seen = Cell::new(Seen::default());
        let emitter = Switching(CallbackEmitter::new(Observer {
            seen: &seen,
            pending: None,
        }));
        // Reading a byte slice cannot fail, and the emitter yields no tokens.
        let _ = Tokenizer::new_with_emitter(page.bytes.as_slice(), emitter).finish();
        seen.get()
    }
}

// ---------------------------------------------------------------------------
// lol_html

fn lol(page: &Page) -> Seen {
    use lol_html::html_content::{Comment, Doctype, Element, TextChunk};
    use lol_html::{doc_comments, doc_text, doctype, element, HtmlRewriter, Settings};

    let tokens = Cell::new(0usize);
    let sum = Cell::new(0usize);
    let add = |n: usize| {
        tokens.set(tokens.get() + 1);
        sum.set(sum.get() + n);
    };
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!("*", |el: &mut Element| {
            let mut n = el.source_location().bytes().len();
            for attr in el.attributes() {
                n += attr.name_source_location().map_or(0, |l| l.bytes().len());
                n += attr.value_source_location().map_or(0, |l| l.bytes().len());
            }
            add(n);
            Ok(())
        }))
        .append_document_content_handler(doc_text!(|t: &mut TextChunk| {
            add(t.as_str().len());
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(|c: &mut Comment| {
            add(c.source_location().bytes().len());
            Ok(())
        }))
        .append_document_content_handler(doctype!(|d: &mut Doctype| {
            add(d.source_location().bytes().len());
            Ok(())
        }));
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    let ok = rewriter.write(&page.bytes).is_ok() && rewriter.end().is_ok();
    Seen {
        tokens: if ok { tokens.get() } else { usize::MAX },
        sum: sum.get(),
    }
}

// ---------------------------------------------------------------------------
// memchr3 floor

fn memchr3_floor(page: &Page) -> Seen {
    let hits = memchr::memchr3_iter(b'<', b'&', b'\r', &page.bytes).count();
    Seen {
        tokens: hits,
        sum: hits,
    }
}

// ---------------------------------------------------------------------------
// Criterion

type Engine = fn(&Page) -> Seen;

const ENGINES: &[(&str, Engine)] = &[
    ("htmltok", htmltok_whole),
    ("htmltok-stream-64k", htmltok_stream_64k),
    ("htmltok-errors", htmltok_errors),
    ("htmltok-scalar", htmltok_scalar),
    ("htmltok-for-each", htmltok_for_each),
    ("html5ever", ever::run),
    ("html5gum", gum::run),
    ("lol_html", lol),
    ("memchr3", memchr3_floor),
];

fn bench_group(c: &mut Criterion, name: &str, pages: &[&Page]) {
    if pages.is_empty() {
        return;
    }
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    // Whole-corpus iterations take a good fraction of a second: sample each
    // a fixed number of times instead of criterion's growing linear series.
    group.sampling_mode(SamplingMode::Flat);
    for &(engine, run) in ENGINES {
        group.bench_function(engine, |b| {
            b.iter(|| {
                let mut total = 0usize;
                for page in pages {
                    let seen = run(black_box(page));
                    total = total.wrapping_add(seen.tokens).wrapping_add(seen.sum);
                }
                total
            })
        });
    }
    group.finish();
}

/// Runs every engine once over a group, outside timing, and prints what each
/// saw, so that a broken engine (or a page one of them rejects) shows.
fn check_group(name: &str, pages: &[&Page]) {
    if pages.is_empty() {
        return;
    }
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let mut line = format!("{name}: {} pages, {bytes} bytes; tokens:", pages.len());
    for &(engine, run) in ENGINES {
        if engine == "memchr3" {
            continue;
        }
        let mut tokens = 0usize;
        let mut failed = Vec::new();
        for page in pages {
            let seen = run(page);
            if seen.tokens == usize::MAX {
                failed.push(page.name.as_str());
            } else {
                tokens += seen.tokens;
            }
        }
        line.push_str(&format!(" {engine} {tokens}"));
        if !failed.is_empty() {
            line.push_str(&format!(" (failed on {})", failed.join(", ")));
        }
    }
    eprintln!("{line}");
}

/// The groups: the corpus, its categories (with a manifest), the synthetic
/// pages.
fn groups<'p>(
    corpus: &'p [Page],
    has_manifest: bool,
    text: &'p Page,
    dense: &'p Page,
) -> Vec<(String, Vec<&'p Page>)> {
    let mut groups: Vec<(String, Vec<&Page>)> = vec![("corpus".into(), corpus.iter().collect())];
    if has_manifest {
        for category in [
            "article",
            "script-heavy",
            "cjk",
            "legacy-encoding",
            "large",
            "other",
        ] {
            let pages: Vec<&Page> = corpus
                .iter()
                .filter(|p| p.category.as_deref() == Some(category))
                .collect();
            groups.push((category.into(), pages));
        }
    }
    groups.push(("text-only".into(), vec![text]));
    groups.push(("tag-dense".into(), vec![dense]));
    groups
}

// ---------------------------------------------------------------------------
// Paired rounds
//
// Criterion samples each engine for a few seconds of its own, one engine
// after the other. On a shared machine whose speed drifts over minutes (here
// identical runs of one engine have differed by 2x from one minute to the
// next), two engines can then be measured in different weather, and their
// ratio shows the weather. The paired rounds run every engine once over a
// group, back to back, round after round (the order rotating), and take each
// ratio within a round before the median over rounds: the engines of a
// round run within a second of each other.

/// One group's timings: per engine, the seconds of each round.
struct Paired<'g> {
    name: &'g str,
    bytes: usize,
    times: Vec<Vec<f64>>,
}

impl Paired<'_> {
    fn engine(&self, name: &str) -> usize {
        ENGINES
            .iter()
            .position(|&(e, _)| e == name)
            .expect("an engine of ENGINES")
    }

    /// Median over rounds of `time(a) / time(b)` in the same round.
    fn time_ratio(&self, a: &str, b: &str) -> f64 {
        let (a, b) = (self.engine(a), self.engine(b));
        median(
            self.times[a]
                .iter()
                .zip(&self.times[b])
                .map(|(ta, tb)| ta / tb)
                .collect(),
        )
    }

    /// MB/s of an engine's fastest round: the machine's speed drifts
    /// between rounds too, and the fastest round is the one least slowed.
    fn mb_per_s(&self, engine: usize) -> f64 {
        let fastest = self.times[engine]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        self.bytes as f64 / 1e6 / fastest
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn paired_group<'g>(name: &'g str, pages: &[&Page], rounds: usize) -> Paired<'g> {
    let bytes = pages.iter().map(|p| p.bytes.len()).sum();
    let mut times = vec![Vec::with_capacity(rounds); ENGINES.len()];
    // One untimed round first: caches, lazily built tables.
    for round in 0..=rounds {
        for k in 0..ENGINES.len() {
            let e = (k + round) % ENGINES.len();
            let run = ENGINES[e].1;
            let started = std::time::Instant::now();
            let mut total = 0usize;
            for page in pages {
                let seen = run(black_box(page));
                total = total.wrapping_add(seen.tokens).wrapping_add(seen.sum);
            }
            black_box(total);
            if round > 0 {
                times[e].push(started.elapsed().as_secs_f64());
            }
        }
    }
    Paired { name, bytes, times }
}

/// Runs the paired rounds over the groups whose name contains `filter` and
/// prints a table (MB/s of the fastest round, and in brackets the median
/// paired ratio to html5ever), then the speed issue's goals against the
/// paired ratios.
fn paired_report(groups: &[(String, Vec<&Page>)], filter: Option<&str>, rounds: usize) {
    let chosen: Vec<_> = groups
        .iter()
        .filter(|(name, pages)| !pages.is_empty() && filter.map_or(true, |f| name.contains(f)))
        .collect();
    if chosen.is_empty() || rounds == 0 {
        return;
    }
    println!();
    println!(
        "Paired rounds: {rounds} rounds of every engine back to back per group (HTMLTOK_BENCH_ROUNDS); \
         MB/s is the engine's fastest round, the ratio in brackets the median over rounds of \
         html5ever's time over the engine's time in the same round."
    );
    println!();
    let header: Vec<&str> = ENGINES.iter().map(|&(e, _)| e).collect();
    println!("| group | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(header.len()));
    let mut results = Vec::new();
    for (name, pages) in chosen {
        let paired = paired_group(name, pages, rounds);
        let cells: Vec<String> = ENGINES
            .iter()
            .enumerate()
            .map(|(e, &(engine, _))| {
                format!(
                    "{:.0} ({:.2}×)",
                    paired.mb_per_s(e),
                    paired.time_ratio("html5ever", engine)
                )
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
        results.push(paired);
    }
    println!();
    println!("Goals of the speed issue, by the paired ratios above:");
    for p in &results {
        let vs_ever = p.time_ratio("html5ever", "htmltok");
        let mut goals: Vec<(String, f64, bool)> = Vec::new();
        match p.name {
            "corpus" => {
                goals.push(("htmltok >= 6x html5ever".into(), vs_ever, vs_ever >= 6.0));
                let vs_lol = p.time_ratio("lol_html", "htmltok");
                goals.push(("htmltok >= 4x lol_html".into(), vs_lol, vs_lol >= 4.0));
                let floor = p.time_ratio("htmltok", "memchr3");
                goals.push(("htmltok's time <= 3x memchr3's".into(), floor, floor <= 3.0));
                let errors = p.time_ratio("html5ever", "htmltok-errors");
                goals.push((
                    "htmltok-errors >= 3x html5ever".into(),
                    errors,
                    errors >= 3.0,
                ));
                let stream = p.time_ratio("htmltok-stream-64k", "htmltok");
                goals.push((
                    "htmltok-stream-64k's time <= 1.10x htmltok's".into(),
                    stream,
                    stream <= 1.10,
                ));
            }
            "text-only" => {
                let floor = p.time_ratio("memchr3", "htmltok");
                goals.push(("htmltok >= 0.5x memchr3".into(), floor, floor >= 0.5));
            }
            "tag-dense" => {
                goals.push(("htmltok >= 3x html5ever".into(), vs_ever, vs_ever >= 3.0));
            }
            _ => {
                goals.push(("htmltok >= 4x html5ever".into(), vs_ever, vs_ever >= 4.0));
            }
        }
        for (goal, value, met) in goals {
            println!(
                "  {:<16} {goal}: {value:.2} ({})",
                p.name,
                if met { "met" } else { "MISSED" }
            );
        }
    }
}

fn main() {
    let (corpus, has_manifest) = load_corpus();
    let text = Page::new("text-only".into(), text_only(), None);
    let dense = Page::new("tag-dense".into(), tag_dense(), None);
    let groups = groups(&corpus, has_manifest, &text, &dense);

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (name, pages) in &groups {
        check_group(name, pages);
    }
    // Criterion's groups take about 7 minutes; the paired rounds alone about
    // one, which a quiet spell of a shared machine is more likely to cover.
    let paired_only = std::env::var("HTMLTOK_BENCH_PAIRED_ONLY").is_ok_and(|v| v == "1");
    if !paired_only {
        for (name, pages) in &groups {
            bench_group(&mut c, name, pages);
        }
        c.final_summary();
    }

    // The paired rounds run under `cargo bench` only (not as a test), for
    // the groups that a filter argument names (criterion's filter is a
    // regular expression; here a group name or a part of it).
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    // Criterion's options that take a value, whose value is no filter.
    const WITH_VALUE: &[&str] = &[
        "--baseline",
        "--baseline-lenient",
        "--color",
        "--confidence-level",
        "--format",
        "--load-baseline",
        "--measurement-time",
        "--noise-threshold",
        "--nresamples",
        "--output-format",
        "--plotting-backend",
        "--profile-time",
        "--sample-size",
        "--save-baseline",
        "--significance-level",
        "--warm-up-time",
    ];
    let filter = args
        .iter()
        .enumerate()
        .find(|&(i, a)| {
            !a.starts_with('-') && (i == 0 || !WITH_VALUE.contains(&args[i - 1].as_str()))
        })
        .map(|(_, a)| a.as_str());
    let rounds = std::env::var("HTMLTOK_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    paired_report(&groups, filter, rounds);
}
