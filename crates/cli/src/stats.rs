//! `htmltok stats`: counts per page and in total.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::time::Instant;

use htmltok::extract::Page;
use htmltok::{Config, Token, Tokenizer};

use crate::jsonl::Object;
use crate::pipeline::{print, PageArgs};
use crate::report::Report;
use crate::{CmdResult, Failure};
use htmltok_warc::Skip;

/// Count tokens, attributes, bytes, encodings and parse errors.
///
/// Prints per page a JSON object {"source", "encoding", "rule", "bytes",
/// "tokens": {"doctype", "start_tag", "end_tag", "comment", "text"},
/// "attributes"} (with --errors also "errors": {CODE: count}; for a page
/// from an archive also "warc", "offset", "record_id", "status",
/// "truncated", "content_coding"). The total, {"total": {"pages", "bytes", "tokens",
/// "attributes", "encodings": {ENCODING: pages}, "errors", "skipped",
/// "non_html_records", "passed_over": {REASON: records}, "problems":
/// {KIND: count}, "truncated_pages", "coding_failed", "seconds",
/// "mb_per_s"}}, goes to standard error (written for a reader when that is
/// a terminal), or with --total to standard output as the last line.
/// Each truncated page is also a "truncated" problem.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Count parse errors by code (tokenizes with errors on, which is slower)
    #[arg(long)]
    errors: bool,
    /// Print the total on standard output, after the pages' lines, instead
    /// of on standard error
    #[arg(long)]
    total: bool,
    #[command(flatten)]
    pages: PageArgs,
}

const KINDS: [&str; 5] = ["doctype", "start_tag", "end_tag", "comment", "text"];

/// One page's counts, or the sum of many.
#[derive(Default)]
struct Counts {
    bytes: u64,
    tokens: [u64; 5],
    attributes: u64,
    errors: BTreeMap<&'static str, u64>,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.bytes += other.bytes;
        for (a, b) in self.tokens.iter_mut().zip(other.tokens) {
            *a += b;
        }
        self.attributes += other.attributes;
        for (code, n) in &other.errors {
            *self.errors.entry(code).or_default() += n;
        }
    }

    fn token(&mut self, token: &Token<'_>) {
        let kind = match token {
            Token::Doctype(_) => 0,
            Token::StartTag(tag) => {
                self.attributes += tag.attributes().count() as u64;
                1
            }
            Token::EndTag(_) => 2,
            Token::Comment(_) => 3,
            Token::Text(_) => 4,
            _ => return,
        };
        self.tokens[kind] += 1;
    }
}

/// Counts one decoded page.
fn count(html: &str, with_errors: bool) -> Counts {
    let mut counts = Counts {
        bytes: html.len() as u64,
        ..Counts::default()
    };
    if with_errors {
        let mut tok = Tokenizer::with_config(html, Config::new().report_errors());
        let mut since_take = 0;
        while let Some(token) = tok.next_token() {
            counts.token(&token);
            since_take += 1;
            // Errors are taken as they come: a page can have one every
            // few bytes, and the tokenizer keeps them until taken.
            if since_take == 4096 {
                since_take = 0;
                for e in tok.take_errors() {
                    *counts.errors.entry(e.code.as_str()).or_default() += 1;
                }
            }
        }
        for e in tok.take_errors() {
            *counts.errors.entry(e.code.as_str()).or_default() += 1;
        }
    } else {
        Tokenizer::new(html).for_each_token(|token| {
            counts.token(&token);
            htmltok::Flow::Continue
        });
    }
    counts
}

pub(crate) fn run(args: Args) -> CmdResult {
    let start = Instant::now();
    let process = |page: &crate::read::PageIn| {
        let decoded = Page::decode(&page.bytes, args.pages.transport(page));
        let mut counts = count(&decoded.html, args.errors);
        // Bytes as read, not as decoded: what a crawler stored.
        counts.bytes = page.bytes.len() as u64;
        let mut out = Vec::with_capacity(256);
        let mut line = Object::new(&mut out);
        line.str("source", &page.source)
            .str("encoding", decoded.encoding_name())
            .str("rule", decoded.source.as_str())
            .num("bytes", counts.bytes)
            .counts("tokens", KINDS.into_iter().zip(counts.tokens))
            .num("attributes", counts.attributes);
        if args.errors {
            line.counts("errors", counts.errors.iter().map(|(k, n)| (*k, *n)));
        }
        line.provenance(page, "offset");
        line.end();
        (out, counts, decoded.encoding_name())
    };
    let mut total = Counts::default();
    let mut encodings: BTreeMap<&'static str, u64> = BTreeMap::new();
    let report = print(
        &args.pages,
        &process,
        &mut |out, (line, counts, encoding)| {
            total.add(&counts);
            *encodings.entry(encoding).or_default() += 1;
            out.write_all(&line)
        },
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let mut out: Box<dyn Write> = if args.total {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::io::stderr().lock())
    };
    let terminal = if args.total {
        std::io::stdout().is_terminal()
    } else {
        std::io::stderr().is_terminal()
    };
    let written = if terminal {
        out.write_all(human(&total, &encodings, &report, seconds, args.errors).as_bytes())
    } else {
        out.write_all(&json_total(
            &total,
            &encodings,
            &report,
            seconds,
            args.errors,
        ))
    };
    written
        .and_then(|()| out.flush())
        .map_err(Failure::Output)?;
    drop(out);
    report.finish()
}

fn json_total(
    total: &Counts,
    encodings: &BTreeMap<&'static str, u64>,
    report: &Report,
    seconds: f64,
    errors: bool,
) -> Vec<u8> {
    let mut inner = Vec::new();
    let mut t = Object::new(&mut inner);
    t.num("pages", report.pages)
        .num("bytes", total.bytes)
        .counts("tokens", KINDS.into_iter().zip(total.tokens))
        .num("attributes", total.attributes)
        .counts("encodings", encodings.iter().map(|(k, n)| (*k, *n)));
    if errors {
        t.counts("errors", total.errors.iter().map(|(k, n)| (*k, *n)));
    }
    t.num("skipped", report.problems())
        .num("non_html_records", report.passed_over())
        .counts(
            "passed_over",
            [
                (Skip::NotHtml.as_str(), report.not_html),
                (Skip::Revisit.as_str(), report.revisits),
                (Skip::NotAPage.as_str(), report.not_pages),
            ],
        )
        .counts(
            "problems",
            [
                ("broken", report.broken),
                ("truncated", report.truncated),
                ("undecodable", report.undecodable),
                ("unreadable", report.unreadable),
                ("failed", report.failed),
            ],
        )
        .num("truncated_pages", report.truncated_pages)
        .num("coding_failed", report.coding_failed)
        .float("seconds", seconds)
        .float("mb_per_s", total.bytes as f64 / 1e6 / seconds);
    t.end();
    inner.pop(); // the inner object's newline
    let mut out = Vec::new();
    Object::new(&mut out)
        .raw("total", &String::from_utf8_lossy(&inner))
        .end();
    out
}

fn human(
    total: &Counts,
    encodings: &BTreeMap<&'static str, u64>,
    report: &Report,
    seconds: f64,
    errors: bool,
) -> String {
    let list = |items: &mut dyn Iterator<Item = (&str, u64)>| {
        let parts: Vec<String> = items.map(|(k, n)| format!("{k} {n}")).collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    };
    let mut s = format!(
        "total\n  pages       {} ({} skipped; {})\n  bytes       {} ({:.1} MB/s over {:.2} s)\n  tokens      {} ({})\n  attributes  {}\n  encodings   {}\n",
        report.pages,
        report.problems(),
        report.summary(),
        total.bytes,
        total.bytes as f64 / 1e6 / seconds,
        seconds,
        total.tokens.iter().sum::<u64>(),
        list(&mut KINDS.into_iter().zip(total.tokens)),
        total.attributes,
        list(&mut encodings.iter().map(|(k, n)| (*k, *n))),
    );
    if errors {
        let mut by_count: Vec<_> = total.errors.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1));
        s.push_str(&format!(
            "  errors      {}\n",
            list(&mut by_count.into_iter().map(|(k, n)| (*k, *n)))
        ));
    }
    s
}
