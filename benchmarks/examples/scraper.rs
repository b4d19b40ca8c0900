//! `scraper` through htmltok: parse a page into a `scraper::Html` with
//! htmltok driving html5ever's tree builder, then select with CSS.
//!
//! It lives in `benchmarks/`, which depends on `scraper` already, so that
//! testing the library builds no DOM crate of its own. From the
//! repository's root:
//!
//! ```text
//! cargo run --manifest-path benchmarks/Cargo.toml --example scraper                      # a built-in page, links
//! cargo run --manifest-path benchmarks/Cargo.toml --example scraper -- PAGE.html         # a file's links
//! cargo run --manifest-path benchmarks/Cargo.toml --example scraper -- PAGE.html 'h1, h2' # any selector
//! ```
//!
//! The file is read as bytes and decoded as a browser would (byte order
//! mark, `<meta charset>`, ...: `htmltok::encoding::Sniffer`). Prints each
//! matching element's name, `href` (if any) and text.

use std::process::ExitCode;

use htmltok::encoding::Sniffer;
use htmltok::html5ever::{parse_bytes, ParseOpts};
use scraper::{Html, HtmlTreeSink, Selector};

const SAMPLE: &str = r#"<!DOCTYPE html>
<title>Links</title>
<ul class=nav>
  <li><a href="/">Home</a>
  <li><a href="/docs?x=1&amp;y=2">Docs &amp; guides</a>
  <li><a>No link</a>
</ul>
<script>document.write('<a href="/not-a-link">')</script>"#;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let page = match args.next() {
        Some(path) => match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => SAMPLE.as_bytes().to_vec(),
    };
    let css = args.next().unwrap_or_else(|| "a[href]".to_string());
    let selector = match Selector::parse(&css) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("bad selector {css:?}: {e}");
            return ExitCode::FAILURE;
        }
    };

    let sink = HtmlTreeSink::new(Html::new_document());
    let (html, sniffed) = parse_bytes(sink, ParseOpts::default(), &page, Sniffer::new());
    eprintln!(
        "decoded as {} ({:?})",
        sniffed.encoding.name(),
        sniffed.source
    );

    for element in html.select(&selector) {
        let text: String = element
            .text()
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        match element.attr("href") {
            Some(href) => println!("<{}> {href}\t{text}", element.value().name()),
            None => println!("<{}>\t{text}", element.value().name()),
        }
    }
    ExitCode::SUCCESS
}
