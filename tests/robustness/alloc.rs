//! Allocation behaviour: the tokenizer must not allocate per token.
//!
//! The binary's counting allocator (`counting.rs`) counts allocations and
//! allocated bytes per thread, so the test harness's own threads (output
//! capture, other tests) cannot pollute the numbers; the tests also run
//! their measured sections one at a time under a mutex.
//!
//! - A clean ASCII page of 10,000 tags (attributes, text between, no
//!   character references, no upper case, no CR) tokenized whole: after a
//!   warm-up of the first 100 tokens, zero allocations.
//! - The same kind of page streamed in 64 KiB chunks: after the first
//!   chunk, fewer than 20 allocations in total, however many chunks follow.
//! - Every corpus page tokenized whole (standalone, errors off): at most
//!   `PAGE_BASE + tokens / 1000` allocations per page. See `PAGE_BASE` for
//!   why that bound.
//! - Tags with more than 8 attributes (the point where duplicate detection
//!   changes method) tokenized whole: zero allocations after warm-up.
//! - Every corpus page tokenized whole, errors off and on: the most memory
//!   held at once (the allocator also tracks live bytes and their peak) is
//!   at most 64 KiB plus the largest token beyond the input: a crawler's
//!   threads each hold a page, so the tokenizer's own share must stay
//!   small (see the test for what counts as input).
//! - Records reused across the corpus: recording a page makes no
//!   allocation beyond the tokenizer's own.

use std::fmt::Write as _;
use std::sync::Mutex;

use htmltok::{Config, Input, StreamTokenizer, Token, Tokenizer};
use testkit::data;

use crate::counting::{Counter, Counts};

/// Measured sections run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// A clean page: `tags` tags (start, end and void tags, with double-,
/// single- and un-quoted attributes), text between them, comments; ASCII
/// only, no character references, no upper case, no CR. The shapes repeat
/// every few tags, so the first 100 tokens show every shape.
fn clean_page(tags: usize) -> String {
    let mut page = String::from(
        "<!doctype html>\n<html lang=en>\n<head><meta charset=utf-8></head>\n<body>\n",
    );
    let mut emitted = 3;
    let mut i = 0;
    while emitted < tags {
        match i % 6 {
            0 => {
                let _ = writeln!(
                    page,
                    "<div class=\"item item-{i}\" id='d{i}' data-n={i}>item number {i} of the list, plain text.</div>"
                );
                emitted += 2;
            }
            1 => {
                let _ = writeln!(page, "<p>paragraph {i}: <a href=\"/articles/{i}/read\" title='read {i}'>read more</a> or not.</p>");
                emitted += 4;
            }
            2 => {
                let _ = writeln!(
                    page,
                    "<img src=\"/img/{i}.png\" alt=\"picture {i}\" width=64 height=48><br>"
                );
                emitted += 2;
            }
            3 => {
                let _ = writeln!(page, "<ul><li>one {i}</li><li>two</li></ul>");
                emitted += 6;
            }
            4 => {
                let _ = writeln!(
                    page,
                    "<!-- comment {i} -->\n<span lang=en dir=ltr hidden>s{i}</span>"
                );
                emitted += 2;
            }
            _ => {
                let _ = writeln!(
                    page,
                    "<input type=text name=q{i} value=\"query {i}\" disabled/><label for=q{i}>label</label>"
                );
                emitted += 3;
            }
        }
        i += 1;
    }
    page.push_str("</body>\n</html>\n");
    assert!(page.is_ascii() && !page.contains('&') && !page.contains('\r'));
    assert!(!page.bytes().any(|b| b.is_ascii_uppercase()));
    page
}

/// Tokenizes `page` whole; returns (tokens after warm-up, their allocations).
fn whole_after_warmup<E: htmltok::ErrorPolicy>(
    mut tok: Tokenizer<'_, E>,
    warmup: usize,
) -> (usize, Counts) {
    let mut seen = 0;
    while seen < warmup {
        assert!(tok.next_token().is_some(), "page shorter than the warm-up");
        seen += 1;
    }
    let counter = Counter::start();
    let mut rest = 0usize;
    let mut tags = 0usize;
    while let Some(token) = tok.next_token() {
        rest += 1;
        if let Token::StartTag(tag) = &token {
            // Touch the attributes, as a user would (the iterator resolves
            // them on the fly, without allocating).
            tags += tag
                .attributes()
                .map(|a| a.name().len() + a.value().len())
                .sum::<usize>()
                .min(1);
        }
    }
    let counts = counter.stop();
    assert!(tags > 0);
    (rest, counts)
}

#[test]
fn no_allocation_per_token() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());

    let page = clean_page(10_000);
    let total_tags = Tokenizer::new(&page)
        .owned()
        .filter(|t| {
            matches!(
                t,
                htmltok::OwnedToken::StartTag { .. } | htmltok::OwnedToken::EndTag { .. }
            )
        })
        .count();
    assert!(total_tags >= 10_000, "only {total_tags} tags");

    // Errors off (the default).
    let (rest, counts) = whole_after_warmup(Tokenizer::new(&page), 100);
    println!(
        "whole document, errors off: {} bytes, {total_tags} tags; after 100 warm-up tokens {rest} tokens made {} allocations ({} bytes)",
        page.len(),
        counts.allocations,
        counts.bytes
    );
    assert_eq!(
        counts.allocations, 0,
        "allocations while tokenizing {rest} tokens of a clean page"
    );

    // Errors on: a clean page has none, so nothing to store either.
    let (rest, counts) = whole_after_warmup(
        Tokenizer::with_config(&page, Config::new().report_errors()),
        100,
    );
    println!(
        "whole document, errors on: after 100 warm-up tokens {rest} tokens made {} allocations ({} bytes)",
        counts.allocations, counts.bytes
    );
    assert_eq!(
        counts.allocations, 0,
        "allocations (errors on) while tokenizing {rest} tokens of a clean page"
    );
}

#[test]
fn stream_allocations_are_constant() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());

    const CHUNK: usize = 64 * 1024;
    // Long enough for many chunks: the count must not grow with them.
    let page = clean_page(150_000);
    let chunks: Vec<&[u8]> = page.as_bytes().chunks(CHUNK).collect();
    assert!(chunks.len() >= 50, "only {} chunks", chunks.len());

    let mut stream = StreamTokenizer::new();
    // Warm-up: the first chunk and its tokens.
    stream.feed(chunks[0]);
    let mut warm = 0;
    while stream.next_token().is_some() {
        warm += 1;
    }
    assert!(warm >= 100, "warm-up saw only {warm} tokens");

    let counter = Counter::start();
    let mut tokens = 0usize;
    let mut eof = false;
    for chunk in &chunks[1..] {
        stream.feed(chunk);
        while let Some(token) = stream.next_token() {
            tokens += 1;
            eof |= matches!(token, Token::Eof);
        }
    }
    stream.finish();
    while let Some(token) = stream.next_token() {
        tokens += 1;
        eof |= matches!(token, Token::Eof);
    }
    let counts = counter.stop();
    assert!(eof);
    println!(
        "stream, 64 KiB chunks: {} bytes in {} chunks; after the first chunk ({warm} tokens), {tokens} tokens made {} allocations ({} bytes); buffered capacity at the end {}",
        page.len(),
        chunks.len(),
        counts.allocations,
        counts.bytes,
        stream.buffered_capacity()
    );
    assert!(
        counts.allocations < 20,
        "{} allocations streaming {} chunks: should stay O(1)",
        counts.allocations,
        chunks.len() - 1
    );
}

/// Tags with many attributes must not allocate either: a page of
/// `<input>` tags with 12 attributes each, after a warm-up of 100 tokens.
/// (Duplicate-attribute detection switches to a set of names for a tag
/// with more than 8 attributes; that set must reuse its storage.)
#[test]
fn no_allocation_for_tags_with_many_attributes() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut page = String::new();
    for i in 0..2000 {
        let _ = write!(page, "<input");
        for a in 0..12 {
            let _ = write!(page, " data-attr{a}=\"v{i}\"");
        }
        page.push_str(">text\n");
    }
    let (rest, counts) = whole_after_warmup(Tokenizer::new(&page), 100);
    println!(
        "2000 tags with 12 attributes each: after 100 warm-up tokens {rest} tokens made {} allocations ({} bytes), {:.1} per tag",
        counts.allocations,
        counts.bytes,
        counts.allocations as f64 / (rest as f64 / 2.0)
    );
    assert_eq!(
        counts.allocations, 0,
        "allocations for tags with 12 attributes ({rest} tokens)"
    );
}

/// Per-page allocation allowance, whatever the page's size. A whole-document
/// tokenizer allocates: a repaired copy of the input when it is not valid
/// UTF-8 (1), and the growth of its scratch buffers and records (text, tag
/// name, attribute name, value, records and arena, comment, doctype fields,
/// the error list when errors are on). Those grow by doubling, so a buffer
/// that ends at S bytes cost about log2(S / 8) reallocations: at most ~18
/// for a 2 MB token, ~10 for the few-KB tokens of typical pages; on a real
/// page only three or four buffers ever get beyond a few dozen bytes. 64
/// covers that (3 × 18 + 10), with room above what corpus pages whose tags
/// all have at most 8 attributes make (the worst pages are printed).
/// What the tokenizer makes once per process (the table of legacy
/// reference names' first bytes) is made before counting: it is not per
/// page.
const PAGE_BASE: usize = 64;
/// Plus one allocation per this many tokens, for rare per-token costs.
const TOKENS_PER_ALLOCATION: usize = 1000;

#[test]
fn corpus_allocations_per_page() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());

    let pages = data::corpus_pages();
    // What is made once per process, on first use (a one-time cost, not
    // a per-page one), is made before counting.
    let warm = Counter::start();
    let mut tok = Tokenizer::new(Input::from_utf8_lossy(b"&amp;&notin;<p title='&lt;'>"));
    while tok.next_token().is_some() {}
    drop(tok);
    let warm = warm.stop();
    println!(
        "one-time warm-up: {} allocations, {} bytes",
        warm.allocations, warm.bytes
    );
    let mut worst: Vec<(f64, String, usize, usize, usize)> = Vec::new();
    let mut over = Vec::new();
    let (mut total_allocs, mut total_tokens, mut total_bytes) = (0usize, 0usize, 0usize);
    for (name, bytes) in &pages {
        let counter = Counter::start();
        let mut tok = Tokenizer::new(Input::from_utf8_lossy(bytes));
        let mut tokens = 0usize;
        while tok.next_token().is_some() {
            tokens += 1;
        }
        drop(tok);
        let counts = counter.stop();
        total_allocs += counts.allocations;
        total_tokens += tokens;
        total_bytes += counts.bytes;
        let bound = PAGE_BASE + tokens / TOKENS_PER_ALLOCATION;
        let many = tags_with_many_attributes(bytes);
        if counts.allocations > bound {
            over.push(format!(
                "{name}: {} allocations for {tokens} tokens (bound {bound}); it has {many} start tags with more than 8 attributes",
                counts.allocations
            ));
        }
        let valid = std::str::from_utf8(bytes).is_ok();
        worst.push((
            counts.allocations as f64,
            format!(
                "{name}{}, {many} tags with > 8 attributes",
                if valid { "" } else { " (not UTF-8)" }
            ),
            tokens,
            counts.allocations,
            counts.bytes,
        ));
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "corpus, whole documents: {} pages, {total_tokens} tokens, {total_allocs} allocations ({total_bytes} bytes allocated), {:.4} allocations per 1000 tokens",
        pages.len(),
        total_allocs as f64 * 1000.0 / total_tokens as f64
    );
    println!("bound per page: {PAGE_BASE} + tokens / {TOKENS_PER_ALLOCATION}; most allocations:");
    for (_, name, tokens, allocs, bytes) in worst.iter().take(12) {
        println!("  {name}: {allocs} allocations ({bytes} bytes) for {tokens} tokens");
    }
    let fewest = worst.last().unwrap();
    println!(
        "  fewest: {}: {} allocations for {} tokens",
        fewest.1, fewest.3, fewest.2
    );
    assert!(
        over.is_empty(),
        "pages over the allocation bound:\n{}",
        over.join("\n")
    );
}

/// Start tags with more than 8 attributes.
fn tags_with_many_attributes(bytes: &[u8]) -> usize {
    let mut tok = Tokenizer::new(Input::from_utf8_lossy(bytes));
    let mut n = 0;
    while let Some(token) = tok.next_token() {
        if let Token::StartTag(tag) = token {
            n += usize::from(tag.attributes().len() > 8);
        }
    }
    n
}

/// The memory target for one page, whole document: the
/// memory held while tokenizing it is at most 64 KiB plus the largest
/// token, beyond the input. The input is the caller's bytes when they are
/// UTF-8; otherwise the tokenizer's repaired copy of them (the standard's
/// decoding of invalid bytes to U+FFFD, which a `&str` needs) is the input
/// it tokenizes, and it counts as input. The largest token is measured as
/// the input bytes it spans. Errors on too, taking them after each token:
/// the list of errors is output, as tokens are, and the bound allows for
/// the errors of one token (a page of NUL bytes has one per byte), at the
/// capacity a growing `Vec` may have: twice their size.
#[test]
fn whole_document_peak_memory_is_input_plus_64k_plus_largest_token() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let pages = data::corpus_pages();
    // What the tokenizer makes once per process is made first.
    let mut tok = Tokenizer::new(Input::from_utf8_lossy(b"&amp;&notin;<p title='&lt;'>"));
    while tok.next_token().is_some() {}
    drop(tok);

    let mut over = Vec::new();
    let mut report = Vec::new();
    for (name, bytes) in &pages {
        let largest = largest_token_span(bytes);
        let valid = std::str::from_utf8(bytes).is_ok();
        let repaired = if valid {
            0
        } else {
            String::from_utf8_lossy(bytes).len()
        };
        for errors in [false, true] {
            let counter = Counter::start();
            let mut held = 0;
            if errors {
                let mut tok = Tokenizer::with_config(
                    Input::from_utf8_lossy(bytes),
                    Config::new().report_errors(),
                );
                while tok.next_token().is_some() {
                    held = held.max(tok.errors().len());
                    drop(tok.take_errors());
                }
            } else {
                let mut tok = Tokenizer::new(Input::from_utf8_lossy(bytes));
                while tok.next_token().is_some() {}
            }
            let peak = counter.stop().peak;
            // The repaired copy is allocated with room to grow by half
            // (U+FFFD is three bytes for one invalid byte); its capacity is
            // what it holds: that room, or twice it once a page dense in
            // invalid bytes (a legacy CJK page read as UTF-8) outgrows it.
            let room = bytes.len() + bytes.len() / 2;
            let input = match valid {
                true => 0,
                false if repaired <= room => room,
                false => 2 * room,
            };
            let error_list = 2 * held * std::mem::size_of::<htmltok::ParseError>();
            let bound = input + 64 * 1024 + largest + error_list;
            report.push((
                peak.saturating_sub(input),
                name.clone(),
                errors,
                largest,
                peak,
            ));
            if peak > bound {
                over.push(format!(
                    "{name} (errors {}): peak {peak} bytes > bound {bound} (repaired input {input}, largest token {largest} bytes, errors of one token {error_list} bytes)",
                    if errors { "on" } else { "off" }
                ));
            }
        }
    }
    report.sort_by_key(|r| std::cmp::Reverse(r.0));
    println!("whole documents: memory held beyond the input, largest first:");
    for (beyond, name, errors, largest, peak) in report.iter().take(8) {
        println!(
            "  {name} (errors {}): {beyond} bytes beyond the input (peak {peak}), largest token {largest} bytes",
            if *errors { "on" } else { "off" }
        );
    }
    assert!(
        over.is_empty(),
        "pages over the bound:\n{}",
        over.join("\n")
    );
}

/// The largest number of input bytes a token of the page spans.
fn largest_token_span(bytes: &[u8]) -> usize {
    let mut tok = Tokenizer::new(Input::from_utf8_lossy(bytes));
    let mut largest = 0;
    while let Some(token) = tok.next_token() {
        let span = match token {
            Token::StartTag(t) | Token::EndTag(t) => t.span(),
            Token::Text(t) => t.span(),
            Token::Comment(c) => c.span(),
            Token::Doctype(d) => d.span(),
            Token::ProcessingInstruction(p) => p.span(),
            _ => continue,
        };
        largest = largest.max(span.len());
    }
    largest
}

/// Tags that outgrow the duplicate index's first table (more than 32
/// attributes) reuse the grown table too: each such tag used to allocate
/// once (found on the repository's `edge/huge-attributes.html`).
#[test]
fn no_allocation_for_tags_that_grow_the_duplicate_index() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for n in [40usize, 300] {
        let mut page = String::new();
        for i in 0..500 {
            let _ = write!(page, "<div");
            for a in 0..n {
                let _ = write!(page, " data-attr-{a}=\"v &amp; {i}\"");
            }
            page.push_str(">text\n");
        }
        let (rest, counts) = whole_after_warmup(Tokenizer::new(&page), 100);
        // The two tables settle at the largest size within a few tags: a
        // handful of allocations in all, not one per tag (there were 449).
        assert!(
            counts.allocations <= 4,
            "{} allocations for {} tags with {n} attributes",
            counts.allocations,
            rest / 2
        );
    }
}

/// Records reused across pages allocate nothing once they have grown:
/// recording a page costs exactly the allocations of the tokenizer alone
/// (`for_each_token` over the same page, a fresh tokenizer each time),
/// on every corpus page after one pass over them all.
#[test]
fn reused_records_allocate_nothing_once_grown() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let pages = data::corpus_pages();
    let mut recorded = htmltok::records::Records::new();
    for (_, bytes) in &pages {
        recorded
            .record(&mut Tokenizer::new(Input::from_utf8_lossy(bytes)))
            .expect("a small page");
    }
    let mut records = 0;
    for (name, bytes) in &pages {
        let counter = Counter::start();
        Tokenizer::new(Input::from_utf8_lossy(bytes)).for_each_token(|_| ());
        let alone = counter.stop();
        let counter = Counter::start();
        recorded
            .record(&mut Tokenizer::new(Input::from_utf8_lossy(bytes)))
            .expect("a small page");
        let taped = counter.stop();
        records += recorded.tokens().len();
        assert_eq!(
            taped.allocations, alone.allocations,
            "{name}: recording made {} allocations, the tokenizer alone {}",
            taped.allocations, alone.allocations
        );
    }
    assert!(records > pages.len(), "only {records} records");
}
