//! Memory stays bounded while streaming: a generated document of more than
//! 200 MB (made on the fly, 64 KiB at a time, never stored) goes through a
//! [`StreamTokenizer`] (standalone, errors off), and after every `feed` and
//! every `next_token` [`StreamTokenizer::buffered_capacity`] must stay under
//! a bound set by the chunk size and the largest token, not by the
//! document.
//!
//! The document is a realistic mix: paragraphs and links with attributes
//! (double-, single- and un-quoted), character references (named, numeric,
//! in text and attribute values), CRLF and LF line endings, comments,
//! scripts and styles (with `<` and `</` inside), `<title>`/`<textarea>`
//! RCDATA, tables, multi-byte UTF-8 (split across chunk boundaries). Inside
//! it are one 5 MB text run (which the stream hands out piece by piece, so
//! it must not raise memory at all) and one 1 MB attribute value (one
//! token, which the stream must hold whole: memory rises by about its size
//! and, after it, must not grow further; the input window shrinks back but
//! token scratch space keeps its capacity, so it need not fall back).

use std::io::Write as _;
use std::time::Instant;

use htmltok::{StreamTokenizer, Token};
use testkit::rng::XorShift;

const CHUNK: usize = 64 * 1024;
/// At least this much input.
const TOTAL: usize = 200 * 1024 * 1024;
/// The long text run, and where it starts.
const TEXT_RUN: usize = 5 * 1024 * 1024;
const TEXT_RUN_AT: usize = 60 * 1024 * 1024;
/// The long attribute value, and where it starts.
const ATTR_VALUE: usize = 1024 * 1024;
const ATTR_VALUE_AT: usize = 130 * 1024 * 1024;
/// Ordinary tokens of the mix are far below this.
const ORDINARY_TOKEN_MAX: usize = 4 * 1024;
/// The largest token: the tag holding the long attribute value.
const LARGEST_TOKEN: usize = ATTR_VALUE + 64;

/// Bound on `buffered_capacity()` while no huge token is in progress: the
/// window holds the unconsumed part of the last chunk, the new chunk and the
/// token in progress, and is compacted only when at least half of it is
/// consumed, so it holds at most 2 × (chunk + token); `Vec` doubling can
/// make its capacity up to twice that. Token scratch space (for rewritten
/// strings: references, CRLF) adds less than a chunk. So 4 × chunk plus
/// 4 × the largest ordinary token, plus one chunk of slack for scratch.
const STEADY_BOUND: usize = 5 * CHUNK + 4 * ORDINARY_TOKEN_MAX;
/// Bound over the whole run: the same with the largest token, which a stream
/// must hold whole. By the design (and as the peak shows), a tag whose
/// value has references or CRLF is held three times: its bytes in the window
/// (capacity up to 2 × (token + chunk) by doubling), the decoded value in
/// the value's scratch field, and a copy of that in the attribute arena
/// (each about the value's size, rounded up to a power of two: 1 MiB here).
/// So 2 × (token + chunk) + 2 × 1 MiB + 2 × chunk = 4 × chunk + 4 × the
/// largest token. (A bound of 4 × chunk + 1 × the largest token would not
/// hold, for the reason above.)
const BOUND: usize = 4 * CHUNK + 4 * LARGEST_TOKEN;

/// Phases of the document, for per-phase peaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Before,
    TextRun,
    AttrValue,
    After,
}

/// Makes the document 64 KiB at a time.
struct Generator {
    rng: XorShift,
    produced: usize,
    /// Markup generated but not yet handed out (one segment at most).
    pending: Vec<u8>,
    pending_at: usize,
    /// Bytes of a long run still to produce (text or attribute value).
    run_left: usize,
    run_kind: Phase,
    text_run_done: bool,
    attr_done: bool,
    n: u64,
    phase: Phase,
    /// Where each phase started (offsets), for the report.
    phase_starts: Vec<(Phase, usize)>,
}

const WORDS: &[&str] = &[
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "lazy",
    "dog",
    "tokenizer",
    "stream",
    "memory",
    "bound",
    "caf\u{e9}",
    "na\u{ef}ve",
    "\u{65e5}\u{672c}\u{8a9e}",
    "\u{1F600}",
    "r\u{e9}sum\u{e9}",
    "x<y",
    "a>b",
    "&amp;",
    "&lt;",
    "&gt;",
    "&eacute;",
    "&#169;",
    "&#x263A;",
    "&nbsp;",
    "&notin;",
    "&ampx",
    "AT&T",
    "a=b",
    "'q'",
    "\"dq\"",
];

impl Generator {
    fn new() -> Self {
        Generator {
            rng: XorShift::new(0xB0B0_2024),
            produced: 0,
            pending: Vec::with_capacity(8 * 1024),
            pending_at: 0,
            run_left: 0,
            run_kind: Phase::Before,
            text_run_done: false,
            attr_done: false,
            n: 0,
            phase: Phase::Before,
            phase_starts: vec![(Phase::Before, 0)],
        }
    }

    fn newline(&mut self) -> &'static str {
        match self.rng.below(4) {
            0 => "\r\n",
            1 => "\n\n",
            _ => "\n",
        }
    }

    fn words(&mut self, count: usize) {
        for i in 0..count {
            if i > 0 {
                self.pending
                    .push(if self.rng.below(12) == 0 { b'\n' } else { b' ' });
            }
            let w = WORDS[self.rng.below(WORDS.len())];
            self.pending.extend_from_slice(w.as_bytes());
        }
    }

    /// One ordinary segment of markup into `pending`.
    fn segment(&mut self) {
        self.n += 1;
        let n = self.n;
        let nl = self.newline();
        let p = &mut self.pending;
        match self.rng.below(14) {
            0..=2 => {
                let _ = write!(p, "<p class=\"para para-{n}\" id=p{n} data-x='{}'>", n % 97);
                let k = 5 + self.rng.below(40);
                self.words(k);
                let _ = write!(self.pending, "</p>{nl}");
            }
            3..=4 => {
                let _ = write!(
                    p,
                    "<a href=\"https://example.com/articles/{n}?page=2&amp;sort=asc&lang=fr\" title='Link &quot;{n}&quot;' rel=nofollow>"
                );
                let k = 1 + self.rng.below(6);
                self.words(k);
                let _ = write!(self.pending, "</a> {nl}");
            }
            5 => {
                let _ = write!(
                    p,
                    "<!-- comment {n}: <b>not a tag</b> -- still a comment -->{nl}"
                );
            }
            6 => {
                let _ = write!(
                    p,
                    "<script type=\"text/javascript\">{nl}  var s{n} = \"<div class='x'>\" + (a < b) + '</sc' + 'ript>';{nl}  if (x && y) {{ document.write(\"<!-- x -->\"); }}{nl}</script>{nl}"
                );
            }
            7 => {
                let _ = write!(p, "<img src=\"/img/{n}.png\" alt=\"picture &amp; caption {n}\" width=640 height=480 loading=lazy>{nl}");
            }
            8 => {
                let _ = write!(p, "<style>{nl}.c{n} > a:hover {{ color: #{:06x}; content: \"</p>\"; }}{nl}</style>{nl}", n % 0xFFFFFF);
            }
            9 => {
                let _ = write!(p, "<div data-json='{{\"id\":{n},\"tags\":[\"a\",\"b\"],\"ok\":true}}' hidden><span>");
                let k = 3 + self.rng.below(10);
                self.words(k);
                let _ = write!(self.pending, "</span></div>{nl}");
            }
            10 => {
                let _ = write!(p, "<table class=grid>{nl}<tr><td>{n}</td><td align=right>&euro;{}.{:02}</td></tr>{nl}</table>{nl}", n % 1000, n % 100);
            }
            11 => {
                let _ = write!(p, "<textarea name=t{n} rows=3>&lt;b&gt; <i>kept as text</i> &amp; </textarea>{nl}<title>Page &#8212; {n}</title>{nl}");
            }
            12 => {
                let _ = write!(p, "<ul>{nl}<li>one</li>{nl}<li>two &mdash; {n}</li>{nl}<li><br/><hr></li>{nl}</ul>{nl}");
            }
            _ => {
                let _ = write!(p, "<INPUT TYPE=checkbox Name=\"Opt{n}\" CHECKED><LABEL FOR=opt{n}>Option\r\n{n}</LABEL>{nl}");
            }
        }
    }

    /// The next chunk (exactly `CHUNK` bytes except the last), or `None`
    /// at the end.
    fn next_chunk(&mut self, out: &mut Vec<u8>) -> bool {
        out.clear();
        while out.len() < CHUNK {
            if self.pending_at < self.pending.len() {
                let take = (CHUNK - out.len()).min(self.pending.len() - self.pending_at);
                out.extend_from_slice(&self.pending[self.pending_at..self.pending_at + take]);
                self.pending_at += take;
                continue;
            }
            self.pending.clear();
            self.pending_at = 0;
            let at = self.produced + out.len();
            if self.run_left > 0 {
                // The long run, produced in place (never stored whole).
                let take = (CHUNK - out.len()).min(self.run_left);
                match self.run_kind {
                    Phase::TextRun => {
                        // Plain text with CRLF and references: one text run.
                        const LINE: &[u8] = b"Lorem ipsum dolor sit amet &amp; consectetur, caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac &#169; elit.\r\n";
                        let from = (TEXT_RUN - self.run_left) % LINE.len();
                        let mut left = take;
                        let mut i = from;
                        while left > 0 {
                            let n = left.min(LINE.len() - i);
                            out.extend_from_slice(&LINE[i..i + n]);
                            left -= n;
                            i = 0;
                        }
                    }
                    _ => {
                        // An attribute value: a long base64-like blob with the
                        // odd reference and newline.
                        const BLOB: &[u8] =
                            b"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkrLw==&amp;v=1\r\n";
                        let from = (ATTR_VALUE - self.run_left) % BLOB.len();
                        let mut left = take;
                        let mut i = from;
                        while left > 0 {
                            let n = left.min(BLOB.len() - i);
                            out.extend_from_slice(&BLOB[i..i + n]);
                            left -= n;
                            i = 0;
                        }
                    }
                }
                self.run_left -= take;
                if self.run_left == 0 {
                    match self.run_kind {
                        Phase::TextRun => self
                            .pending
                            .extend_from_slice(b"<p>after the text run</p>\n"),
                        _ => self.pending.extend_from_slice(b"\" class=after>\n"),
                    }
                    self.enter(Phase::After, at + take);
                }
                continue;
            }
            if at >= TOTAL && self.text_run_done && self.attr_done {
                break;
            }
            if !self.text_run_done && at >= TEXT_RUN_AT {
                self.text_run_done = true;
                // Text: after a tag, so the run is one run of the data state.
                self.pending.extend_from_slice(b"<div class=long-text>");
                self.run_left = TEXT_RUN;
                self.run_kind = Phase::TextRun;
                self.enter(Phase::TextRun, at + self.pending.len());
            } else if !self.attr_done && at >= ATTR_VALUE_AT {
                self.attr_done = true;
                self.pending.extend_from_slice(b"<div id=blob data-blob=\"");
                self.run_left = ATTR_VALUE;
                self.run_kind = Phase::AttrValue;
                self.enter(Phase::AttrValue, at + self.pending.len());
            } else {
                self.segment();
                assert!(self.pending.len() < ORDINARY_TOKEN_MAX);
            }
        }
        self.produced += out.len();
        !out.is_empty()
    }

    fn enter(&mut self, phase: Phase, at: usize) {
        self.phase = phase;
        self.phase_starts.push((phase, at));
    }
}

#[derive(Default, Debug)]
struct Peaks {
    before: usize,
    text_run: usize,
    attr_value: usize,
    after: usize,
}

#[test]
fn buffered_capacity_stays_bounded() {
    let started = Instant::now();
    let mut generator = Generator::new();
    let mut stream = StreamTokenizer::new();
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut peaks = Peaks::default();
    let mut peak = 0usize;
    let mut peak_at = 0usize;
    let (mut tokens, mut tags, mut chunks) = (0usize, 0usize, 0usize);
    let mut blob_len = None;
    let mut long_text = 0usize;
    let mut in_long_text = false;
    let mut generating = std::time::Duration::ZERO;

    // Checks the bound; `phase` is the phase of the bytes fed last.
    let mut check = |stream: &StreamTokenizer, phase: Phase, fed: usize| {
        let cap = stream.buffered_capacity();
        if cap > peak {
            peak = cap;
            peak_at = fed;
        }
        let slot = match phase {
            Phase::Before => &mut peaks.before,
            Phase::TextRun => &mut peaks.text_run,
            Phase::AttrValue => &mut peaks.attr_value,
            Phase::After => &mut peaks.after,
        };
        *slot = (*slot).max(cap);
        assert!(
            cap <= BOUND,
            "buffered_capacity {cap} > bound {BOUND} after {fed} bytes ({phase:?})"
        );
        if phase == Phase::Before || phase == Phase::TextRun {
            assert!(
                cap <= STEADY_BOUND,
                "buffered_capacity {cap} > steady bound {STEADY_BOUND} after {fed} bytes ({phase:?}): only the huge attribute value may raise it"
            );
        }
    };

    loop {
        let t = Instant::now();
        let more = generator.next_chunk(&mut chunk);
        generating += t.elapsed();
        // The attribute-value phase lasts until its tag has been handed out.
        let phase = match generator.phase {
            Phase::After if blob_len.is_none() => Phase::AttrValue,
            p => p,
        };
        if !more {
            stream.finish();
        } else {
            chunks += 1;
            stream.feed(&chunk);
        }
        let fed = generator.produced;
        check(&stream, phase, fed);
        let mut eof = false;
        while let Some(token) = stream.next_token() {
            tokens += 1;
            match token {
                Token::StartTag(tag) => {
                    tags += 1;
                    in_long_text = false;
                    if tag.name() == "div" {
                        in_long_text = tag.attribute("class") == Some("long-text");
                        if tag.attribute("id") == Some("blob") {
                            blob_len = tag.attribute("data-blob").map(str::len);
                        }
                    }
                }
                Token::EndTag(_) => {
                    tags += 1;
                    in_long_text = false;
                }
                Token::Text(text) if in_long_text => long_text += text.as_str().len(),
                Token::Eof => eof = true,
                _ => {}
            }
            check(&stream, phase, fed);
        }
        if !more {
            assert!(eof, "no Eof after finish");
            break;
        }
    }
    let elapsed = started.elapsed();
    let total = generator.produced;
    println!(
        "streamed {total} bytes ({:.1} MiB) in {chunks} chunks of {CHUNK}: {tokens} tokens, {tags} tags, in {elapsed:.1?} ({:.1?} generating, {:.1} MiB/s)",
        total as f64 / (1024.0 * 1024.0),
        generating,
        total as f64 / (1024.0 * 1024.0) / elapsed.as_secs_f64()
    );
    println!("phases start at: {:?}", generator.phase_starts);
    println!(
        "peak buffered_capacity {peak} bytes (after {peak_at} bytes fed); bound {BOUND} = 4 x {CHUNK} + 4 x {LARGEST_TOKEN}; steady bound {STEADY_BOUND}"
    );
    println!(
        "peaks per phase: before the long runs {}, during the 5 MB text run {}, during the 1 MB attribute value {}, after {}",
        peaks.before, peaks.text_run, peaks.attr_value, peaks.after
    );
    println!(
        "buffered_capacity at the end: {}",
        stream.buffered_capacity()
    );
    println!("long text run: {long_text} bytes of text handed out; long attribute value: {blob_len:?} bytes decoded");

    assert!(total >= TOTAL, "only {total} bytes generated");
    // The long runs came through intact (decoded: references and CRLF
    // shrink them a little).
    let blob = blob_len.expect("the tag with the long attribute value was not seen");
    assert!(
        blob > ATTR_VALUE * 9 / 10 && blob <= ATTR_VALUE,
        "long attribute value is {blob} bytes"
    );
    assert!(
        long_text > TEXT_RUN * 8 / 10 && long_text <= TEXT_RUN,
        "long text run gave {long_text} bytes"
    );
    // Holding the 1 MB token did show (the bound tracks the largest token),
    // the 5 MB text run did not (text is handed out as it arrives).
    assert!(
        peaks.attr_value >= ATTR_VALUE,
        "the 1 MB attribute value was not held whole?"
    );
    assert!(peaks.text_run <= STEADY_BOUND);
    // After the huge token, memory does not keep growing.
    assert!(
        peaks.after <= peaks.attr_value.max(STEADY_BOUND),
        "capacity grew after the long attribute value"
    );
}
