//! The visible text of a page whose encoding is unknown: decoded as a
//! browser decodes it, without scripts, styles and the like, one line per
//! block of text.
//!
//! ```text
//! cargo run --example text -- page.html
//! ```

use std::io::{self, Write};

use htmltok::{Input, OwnedToken, Tokenizer};

/// Elements whose text a reader does not see.
const HIDDEN: [&str; 5] = ["script", "style", "noscript", "template", "title"];

/// Elements that start a new line of text.
#[rustfmt::skip]
const BLOCKS: [&str; 18] = [
    "address", "article", "blockquote", "br", "dd", "div", "dt", "figcaption", "section",
    "h1", "h2", "h3", "h4", "h5", "h6", "li", "p", "tr",
];

/// The visible text of the page `bytes`, in any encoding.
pub fn visible_text(bytes: &[u8]) -> String {
    let mut text = String::new();
    let mut hidden = 0usize;
    // Owned tokens (a `for` loop): simple; `next_token` lends them faster.
    for token in Tokenizer::new(Input::decode(bytes)) {
        match token {
            OwnedToken::StartTag {
                name, self_closing, ..
            } => {
                if HIDDEN.contains(&name.as_str()) && !self_closing {
                    hidden += 1;
                } else if BLOCKS.contains(&name.as_str()) {
                    text.push('\n');
                }
            }
            OwnedToken::EndTag { name } => {
                if HIDDEN.contains(&name.as_str()) {
                    hidden = hidden.saturating_sub(1);
                } else if BLOCKS.contains(&name.as_str()) {
                    text.push('\n');
                }
            }
            // A line break in the source is a space on the screen.
            OwnedToken::Text(t) if hidden == 0 => text.push_str(&t.replace('\n', " ")),
            _ => {}
        }
    }
    // White space collapsed, as a browser shows it: one space between
    // words, one line per block.
    let lines: Vec<String> = text
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|line| !line.is_empty())
        .collect();
    lines.join("\n")
}

fn main() -> io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: text FILE");
        std::process::exit(2);
    };
    let bytes = std::fs::read(path)?;
    let mut out = io::stdout().lock();
    writeln!(out, "{}", visible_text(&bytes))
}
