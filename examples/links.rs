//! The links of a page, streamed from disk: the page's encoding decided
//! and decoded as a browser does, `<base href>` honoured, each link
//! resolved with the `url` crate and printed with its line and column.
//!
//! ```text
//! cargo run --example links -- page.html [PAGE_URL]
//! ```
//!
//! prints `LINE:COL<TAB>URL` for every `<a href>` and `<area href>`.
//! PAGE_URL is where the page came from (default: the file's own
//! `file://` URL). A crawler reads the page from the network instead of a
//! file, and passes the HTTP charset to the sniffer (`transport_label`).

use std::io::{self, Read, Write};

use htmltok::encoding::Sniffer;
use htmltok::{Config, StreamTokenizer, Token};
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
    let mut tokens = StreamTokenizer::decoding(Sniffer::new(), Config::new()).read_from(page);
    let mut base = page_url.clone();
    let mut base_seen = false;
    let mut found = Vec::new();
    while let Some((token, lines)) = tokens.next_token_with_lines()? {
        let Token::StartTag(tag) = token else {
            continue;
        };
        let Some(href) = tag.attribute("href") else {
            continue;
        };
        match tag.name() {
            // The first <base href> sets the base (a browser applies it
            // to links before it too; a stream has passed those already).
            "base" if !base_seen => {
                base_seen = true;
                if let Ok(url) = page_url.join(href) {
                    base = url;
                }
            }
            "a" | "area" => {
                if let Ok(url) = base.join(href) {
                    let at = lines.line_col(tag.span().start);
                    found.push(Link {
                        line: at.line,
                        col: at.col,
                        url,
                    });
                }
            }
            _ => {}
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
