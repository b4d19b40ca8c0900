//! What a crawler wants from a page: its links, its readable text and its
//! main content.
//!
//! Each is a function over a decoded page (`&str`) that runs the tokenizer
//! once (standalone mode, scripting on: `<script>`, `<style>`,
//! `<noscript>` and friends are text to skip, as a browser reads them) and
//! returns owned results, so that callers in other languages can keep
//! them. Two features choose what is built: `text` (no dependency) and
//! `links` (the [`url`] crate); `extract` is both.
//!
//! - [`links`] (feature `links`): every URL-bearing attribute, with its
//!   tag, attribute, byte offset, raw value and the URL it resolves to
//!   (the `url` crate, the WHATWG URL Standard) against the page's first
//!   `<base href>` and the page's own URL (`Link` has the rules);
//!   [`links_with`] takes the page's encoding (in which a URL's query is
//!   written) and scripting off (for the links inside `<noscript>`), and
//!   [`Page::links`] passes the page's encoding; [`LinkResolver`] finds
//!   the same links in a stream's tokens as they arrive;
//! - [`text()`] (feature `text`): the title apart, and the body's text as
//!   a reader sees it ([`PageText`] has the rules);
//! - [`main_content`] (feature `text`): the title, and the text of the
//!   page's main content (the article, post or documentation body, without
//!   navigation, footers, link lists and comments), as plain text or
//!   Markdown ([`MainOptions`]).
//!
//! A page still in bytes goes through [`Page::decode`], which decides its
//! encoding as a browser does ([`Sniffer`](crate::encoding::Sniffer)) and
//! says which encoding and why ([`Source`]):
//!
//! ```
//! # #[cfg(all(feature = "text", feature = "links"))] {
//! use htmltok::extract::{Page, Source};
//!
//! // windows-1251 declared only by the HTTP header, as a WARC record or a
//! // fetcher would pass it on.
//! let bytes = b"<title>\xcf\xf0\xe8\xe2\xe5\xf2</title><p>One<br>two <a href=/next>next</a>";
//! let page = Page::decode(bytes, Some("text/html; charset=windows-1251"));
//! assert_eq!((page.encoding_name(), page.source), ("windows-1251", Source::Transport));
//!
//! let text = page.text();
//! assert_eq!(text.title.as_deref(), Some("Привет"));
//! assert_eq!(text.text, "One\ntwo next");
//!
//! let base = url::Url::parse("https://example.com/a/b.html").unwrap();
//! let links = page.links(Some(&base));
//! assert_eq!(links[0].url.as_deref(), Some("https://example.com/next"));
//! assert_eq!((links[0].tag, links[0].attr, links[0].raw.as_str()), ("a", "href", "/next"));
//! # }
//! ```

#[cfg(feature = "links")]
mod links;
#[cfg(feature = "text")]
mod main_content;
mod page;
#[cfg(feature = "text")]
mod text;
#[cfg(feature = "links")]
mod url_values;

/// What decided a page's encoding: [`encoding::Source`](crate::encoding::Source),
/// here too for the callers of [`Page`] and [`sniff`].
pub use crate::encoding::Source;
#[cfg(feature = "links")]
pub use links::{links, links_with, Link, LinkOptions, LinkResolver};
#[cfg(feature = "text")]
pub use main_content::{main_content, main_content_with, MainOptions};
pub use page::{charset_param, sniff, Page};
#[cfg(feature = "text")]
pub use text::{text, PageText};
