//! What a crawler keeps of a page, with the `extract` feature: the
//! encoding and what decided it, the title, the text a reader sees and
//! every link resolved, from `htmltok::extract` (the same functions as the
//! `htmltok text` and `htmltok links` commands).
//!
//! ```text
//! cargo run --example page -- page.html [PAGE_URL] [CONTENT_TYPE]
//! ```
//!
//! PAGE_URL is where the page came from (links resolve against it and the
//! page's `<base href>`; default: the file's own `file://` URL);
//! CONTENT_TYPE is the HTTP `Content-Type` it came with, whose charset wins
//! over the page's own `<meta>`. In a crate of your own, turn the feature
//! on: `htmltok = { version = "0.1", features = ["extract"] }`.

use std::io::{self, Write};

use htmltok::extract::Page;
use url::Url;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        return Err("usage: page FILE [PAGE_URL] [CONTENT_TYPE]".into());
    };
    let page_url = match args.next() {
        Some(url) => Url::parse(&url)?,
        None => {
            let path = std::fs::canonicalize(&path)?;
            Url::from_file_path(&path).map_err(|()| format!("no URL for {}", path.display()))?
        }
    };
    let content_type = args.next();
    let bytes = std::fs::read(&path)?;

    let page = Page::decode(&bytes, content_type.as_deref());
    let text = page.text();
    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(
        out,
        "encoding: {} ({})",
        page.encoding_name(),
        page.source.as_str()
    )?;
    writeln!(out, "title: {}", text.title.as_deref().unwrap_or("(none)"))?;
    writeln!(out, "text: {} lines", text.text.lines().count())?;
    for line in text.text.lines().take(5) {
        writeln!(out, "    {line}")?;
    }
    for link in page.links(Some(&page_url)) {
        // A link that names nothing to fetch (`javascript:`, unparsable)
        // keeps its raw value and no URL.
        let url = link.url.as_deref().unwrap_or("-");
        writeln!(out, "link: <{} {}> {url}", link.tag, link.attr)?;
    }
    out.flush()?;
    Ok(())
}
