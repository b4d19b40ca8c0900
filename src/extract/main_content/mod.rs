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
/// let page = "<nav><a href=/>Home</a></nav>
///   <article><h1>Title</h1><p>A paragraph with a <a href=/x>link</a> in it.</p></article>";
/// let md = main_content_with(page, MainOptions::new().markdown(true).links(true));
/// assert_eq!(md.text, "# Title\n\nA paragraph with a [link](/x) in it.");
/// let plain = main_content_with(page, MainOptions::new());
/// assert_eq!(plain.text, "Title\nA paragraph with a link in it.");
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
///
/// ```
/// use htmltok::extract::main_content;
///
/// let page = r#"<title>Rust tips</title>
///   <header class="site-header"><a href="/">Home</a> <a href="/about">About</a></header>
///   <div class="entry-content">
///     <p>Borrowing lets a function use a value without taking it, so the caller keeps it.</p>
///     <div class="share-buttons"><a href="/tw">Tweet</a> <a href="/fb">Share</a></div>
///   </div>
///   <footer>© 2024 Rust tips</footer>"#;
/// let main = main_content(page);
/// assert_eq!(main.title.as_deref(), Some("Rust tips"));
/// assert_eq!(main.text, "Borrowing lets a function use a value without taking it, so the caller keeps it.");
/// ```
pub fn main_content(html: &str) -> PageText {
    main_content_with(html, MainOptions::new())
}

/// The title and main content of the page `html`, rendered as `options`
/// say.
///
/// The title is `text()`'s (the first `<title>`). The main content is the
/// part of the page that holds most of its reading, paragraphs of text
/// rather than links, with what is no reading left out inside it:
/// navigation, asides, forms and controls, hidden elements, blocks named
/// as boilerplate (`share-buttons`, `related-posts`, `site-footer`,
/// `comment-list` unless [`MainOptions::comments`]) and blocks that are
/// mostly links; it ends with its last paragraph (and the lists, tables
/// and code after it). Lengths count characters, a Han character, kana or
/// a Hangul syllable as much as a word of a Latin script. A page of
/// teasers or a forum thread gives the part that holds its reading; a
/// page without paragraphs, its text less boilerplate; nothing is never
/// the answer where the page has text. Time and memory are linear in the
/// page.
///
/// In plain text, the main content's words are always words of
/// [`text()`](super::text())'s, in the same order: a left-out element
/// never joins two words nor splits one.
///
/// ```
/// use htmltok::extract::{main_content_with, MainOptions};
///
/// let page = "<article><h2>Results</h2><p>Three runs, one machine, the same pages each time.</p>
///   <table><tr><th>run<th>pages/s<tr><td>1<td>2,000</table></article>
///   <section id=comments><p>Great write-up, thanks for sharing the numbers!</p></section>";
/// let md = main_content_with(page, MainOptions::new().markdown(true));
/// assert_eq!(
///     md.text,
///     "## Results\n\nThree runs, one machine, the same pages each time.\n\n\
///      | run | pages/s |\n| --- | --- |\n| 1 | 2,000 |"
/// );
/// let with_comments = main_content_with(page, MainOptions::new().comments(true));
/// assert!(with_comments.text.ends_with("Great write-up, thanks for sharing the numbers!"));
/// ```
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
