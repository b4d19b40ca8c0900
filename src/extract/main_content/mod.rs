//! A page's main content: the article, not the page.
//!
//! One pass of the tokenizer builds a light tree of the page
//! ([`tree`]), recording as it goes the text that [`text()`](super::text())
//! would write, each piece marked with its element; [`choose`] decides
//! which elements hold the main content; [`render`] writes their text
//! again, plain or as Markdown. Every step is linear in the page.

mod choose;
mod render;
mod tags;
mod tree;
mod words;

use super::PageText;

/// How [`main_content_with`] renders a page's main content.
///
/// ```
/// use htmltok::extract::{main_content_with, MainOptions};
/// let page = "<article><h1>Title</h1><p>A <a href=/x>link</a>.</p></article>";
/// let md = main_content_with(page, MainOptions::new().markdown(true).links(true));
/// assert_eq!(md.text, "# Title\n\nA [link](/x).");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MainOptions {
    comments: bool,
    markdown: bool,
    links: bool,
}

impl MainOptions {
    /// Plain text, comment sections left out.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps a page's comment section (readers' comments under an article)
    /// as part of its main content; off by default.
    pub fn comments(self, on: bool) -> Self {
        MainOptions {
            comments: on,
            ..self
        }
    }

    /// Renders the content as Markdown: headings as `#`, lists as `-` and
    /// `1.`, tables as pipe tables, `pre` as fenced code, emphasis kept;
    /// off by default (plain text, as [`text()`](super::text()) writes it).
    pub fn markdown(self, on: bool) -> Self {
        MainOptions {
            markdown: on,
            ..self
        }
    }

    /// In Markdown, writes links as `[text](href)` with the `href` as the
    /// page wrote it; off by default (the link's text alone).
    pub fn links(self, on: bool) -> Self {
        MainOptions { links: on, ..self }
    }
}

/// The title and main content of the page `html` as plain text:
/// [`main_content_with`] and [`MainOptions::new`].
pub fn main_content(html: &str) -> PageText {
    main_content_with(html, MainOptions::new())
}

/// The title and main content of the page `html`.
pub fn main_content_with(html: &str, options: MainOptions) -> PageText {
    // Pages beyond what the tree's offsets reach (gigabytes) keep all
    // their text.
    if html.len() > tree::MAX_PAGE {
        return super::text(html);
    }
    let tree = tree::build(html, options.markdown, options.links);
    let choice = choose::choose(&tree, options.comments);
    let text = if options.markdown {
        render::markdown(&tree, &choice, options.links)
    } else {
        render::plain(&tree, &choice)
    };
    PageText {
        title: tree.title,
        text,
    }
}
