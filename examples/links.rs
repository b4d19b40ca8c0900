//! The links of a page, streamed from disk: the page's encoding decided
//! and decoded as a browser does, each link resolved as a browser resolves
//! it (`htmltok::extract::LinkResolver`: against the page's first `<base
//! href>`, even for links before it; queries in the page's encoding) and
//! printed with its line and column.
//!
//! ```text
//! cargo run --example links -- page.html [PAGE_URL]
//! ```
//!
//! prints `LINE:COL<TAB>URL` for every `<a href>` and `<area href>` (the
//! tag's line and column). PAGE_URL is where the page came from (default:
//! the file's own `file://` URL). A crawler reads the page from the
//! network instead of a file, and passes the HTTP charset to the sniffer
//! (`transport_label`). In your crate, enable the `links` feature.

use std::collections::VecDeque;
use std::io::{self, Read, Write};

use htmltok::encoding::Sniffer;
use htmltok::extract::{LinkOptions, LinkResolver};
use htmltok::{LineCol, StreamTokenizer, Token};
use url::Url;

/// One link: where it is in the page and where it points.
#[derive(Debug, PartialEq, Eq)]
pub struct Link {
    pub line: usize,
    pub col: usize,
    pub url: Url,
}

/// The links of the page read from `page`, resolved against `page_url`
/// (or the page's `<base href>`). Hrefs that do not resolve are left out.
pub fn links(page: impl Read, page_url: &Url) -> io::Result<Vec<Link>> {
    let options = LinkOptions::new();
    let mut tokens = StreamTokenizer::decoding(Sniffer::new(), options.config()).read_from(page);
    let mut resolver = LinkResolver::new(Some(page_url), options);
    // Where each `<a href>` and `<area href>` is, by its value's offset,
    // until its link comes out: a stream's positions reach back only to
    // the token in hand, and links wait for a later `<base>`.
    let mut places: VecDeque<(usize, LineCol)> = VecDeque::new();
    let mut found = Vec::new();
    while let Some((token, lines)) = tokens.next_token_with_lines()? {
        if let Token::StartTag(tag) = &token {
            if matches!(tag.name(), "a" | "area") {
                if let Some(href) = tag.attributes().find(|a| a.name() == "href") {
                    places.push_back((href.value_span().start, lines.line_col(tag.span().start)));
                }
            }
        }
        resolver.push(&token);
        // The encoding is decided before the first non-ASCII token.
        if let Some(sniffed) = tokens.stream().sniffed() {
            resolver.set_encoding(sniffed.encoding);
        }
        while let Some(link) = resolver.next_link() {
            if !matches!((link.tag, link.attr), ("a" | "area", "href")) {
                continue;
            }
            while places
                .front()
                .is_some_and(|&(offset, _)| offset < link.offset)
            {
                places.pop_front();
            }
            let Some((_, at)) = places.pop_front() else {
                continue;
            };
            if let Some(url) = link.url.and_then(|u| Url::parse(&u).ok()) {
                found.push(Link {
                    line: at.line,
                    col: at.col,
                    url,
                });
            }
        }
    }
    Ok(found)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        return Err("usage: links FILE [PAGE_URL]".into());
    };
    let page_url = match args.next() {
        Some(url) => Url::parse(&url)?,
        None => {
            let path = std::fs::canonicalize(&path)?;
            Url::from_file_path(&path).map_err(|()| format!("no URL for {}", path.display()))?
        }
    };
    let file = std::fs::File::open(&path)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    for link in links(file, &page_url)? {
        writeln!(out, "{}:{}\t{}", link.line, link.col, link.url)?;
    }
    out.flush()?;
    Ok(())
}
