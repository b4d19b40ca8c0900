//! Every URL a page's markup refers to.

use std::borrow::Cow;
use std::collections::VecDeque;

use encoding_rs::{EncoderResult, Encoding, UTF_8};
use url::Url;

use super::url_values::{refresh_url, srcset_urls};
use crate::{Config, Tag, Token, Tokenizer};

/// One URL in a page: an attribute (or one `srcset` candidate, or the URL
/// of a `<meta http-equiv=refresh>`) and what it resolves to.
///
/// The attributes, each on the start tags named:
///
/// | attribute | tags |
/// |---|---|
/// | `href` | `a`, `area`, `link` |
/// | `src` | `img`, `script`, `iframe`, `frame`, `embed`, `source`, `track`, `audio`, `video` |
/// | `srcset` (each candidate) | `img`, `source` |
/// | `poster` | `video` |
/// | `data` | `object` |
/// | `action` | `form` |
/// | `formaction` | `button`, `input` |
/// | `cite` | `blockquote`, `q`, `del`, `ins` |
/// | `content` (its `url=`) | `meta` with `http-equiv=refresh` |
///
/// Links come in the order of the page's tags, and of the attributes in
/// each tag (a tag's repeated attribute is dropped, as the standard drops
/// it). Tags inside `<script>`, `<style>`, comments and other text are not
/// tags, as in a browser; nor, with scripting on (the default, see
/// [`LinkOptions::scripting`]), are those inside `<noscript>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The URL resolved by the WHATWG URL Standard against the document's
    /// base URL: the first `<base href>` of the page (itself resolved
    /// against the page's URL), else the page's URL. `None` when it does
    /// not parse (a relative URL with no base, `http://[x`), or resolves to
    /// a `javascript:` or `data:` URL, which name no resource to fetch.
    /// The query of an `http`, `https`, `ftp` or `file` URL is written in
    /// the page's encoding ([`LinkOptions::encoding`]), as the URL Standard
    /// parses a document's URLs; the path and fragment are always UTF-8.
    pub url: Option<String>,
    /// The value as the page wrote it, references decoded (one candidate
    /// of a `srcset`; the URL part of a refresh).
    pub raw: String,
    /// The tag's name, lower-case.
    pub tag: &'static str,
    /// The attribute's name, lower-case.
    pub attr: &'static str,
    /// The byte offset of the attribute's value in the page (where the
    /// value would start if empty); a `srcset`'s candidates share it.
    pub offset: usize,
}

/// Every link of the page `html`, resolved against its `<base href>` and
/// `page_url` (see [`Link`] for which and how).
///
/// ```
/// use htmltok::extract::links;
/// use url::Url;
///
/// let page = r#"<base href="/docs/"><a href="intro.html">Intro</a>
///   <img src=logo.png srcset="a.png 1x, b.png 2x"><a href="javascript:void(0)">x</a>
///   <meta http-equiv=refresh content="5; url=../next">"#;
/// let base = Url::parse("https://example.com/index.html").unwrap();
/// let found: Vec<_> = links(page, Some(&base))
///     .into_iter()
///     .map(|l| (l.tag, l.attr, l.raw, l.url))
///     .collect();
/// let some = |s: &str| Some(s.to_string());
/// assert_eq!(found, [
///     ("a", "href", "intro.html".into(), some("https://example.com/docs/intro.html")),
///     ("img", "src", "logo.png".into(), some("https://example.com/docs/logo.png")),
///     ("img", "srcset", "a.png".into(), some("https://example.com/docs/a.png")),
///     ("img", "srcset", "b.png".into(), some("https://example.com/docs/b.png")),
///     ("a", "href", "javascript:void(0)".into(), None),
///     ("meta", "content", "../next".into(), some("https://example.com/next")),
/// ]);
/// // Without a page URL, only absolute URLs resolve.
/// assert_eq!(links("<a href=/x><a href=HTTP://A.example/%7e>", None)
///     .iter().map(|l| l.url.as_deref()).collect::<Vec<_>>(),
///     [None, Some("http://a.example/%7e")]);
/// ```
pub fn links(html: &str, page_url: Option<&Url>) -> Vec<Link> {
    links_with(html, page_url, LinkOptions::new())
}

/// How [`links_with`] reads a page: its encoding, which writes the
/// queries of its URLs, and whether scripting is on.
///
/// ```
/// use htmltok::encoding::SHIFT_JIS;
/// use htmltok::extract::{links_with, LinkOptions};
/// use url::Url;
///
/// let base = Url::parse("https://example.jp/").unwrap();
/// let page = "<noscript><img src=/full.jpg></noscript><a href='?q=東京'>";
/// let options = LinkOptions::new().encoding(SHIFT_JIS).scripting(false);
/// let urls: Vec<_> = links_with(page, Some(&base), options)
///     .into_iter()
///     .filter_map(|l| l.url)
///     .collect();
/// assert_eq!(urls, ["https://example.jp/full.jpg", "https://example.jp/?q=%93%8C%8B%9E"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkOptions {
    encoding: &'static Encoding,
    scripting: bool,
}

impl Default for LinkOptions {
    fn default() -> Self {
        LinkOptions::new()
    }
}

impl LinkOptions {
    /// A page in UTF-8 (a `&str` that was never bytes), scripting on.
    pub fn new() -> Self {
        LinkOptions {
            encoding: UTF_8,
            scripting: true,
        }
    }

    /// The encoding the page was decoded from ([`Page::links`](super::Page::links)
    /// passes its own): the URL Standard writes the query of a page's URL
    /// in it, each character it cannot encode as `%26%23` and the
    /// character's number in decimal and `%3B` (its HTML reference,
    /// percent-encoded), as browsers send it. UTF-8 unless set; UTF-16 and
    /// the replacement encoding write UTF-8, as the standard says.
    pub fn encoding(self, encoding: &'static Encoding) -> Self {
        LinkOptions { encoding, ..self }
    }

    /// Whether the page is read with scripting on (the default), as a
    /// browser with JavaScript reads it: then the content of `<noscript>`
    /// is text, and its tags are no links; off, it is markup, as a browser
    /// without scripting reads it, whose links are found.
    ///
    /// On by default, so that the links are those of the page a browser
    /// shows (and the text [`text()`](super::text()) finds, which skips
    /// `<noscript>` too). A crawler that wants every URL a page names
    /// turns it off: lazy-loading pages put an image's real URL only in
    /// the `<noscript>` fallback.
    pub fn scripting(self, on: bool) -> Self {
        LinkOptions {
            scripting: on,
            ..self
        }
    }

    /// The tokenizer's configuration these options read a page with
    /// (scripting on or off), for a stream that feeds a [`LinkResolver`].
    ///
    /// ```
    /// use htmltok::extract::LinkOptions;
    /// use htmltok::StreamTokenizer;
    /// let stream = StreamTokenizer::with_config(LinkOptions::new().scripting(false).config());
    /// # drop(stream);
    /// ```
    pub fn config(&self) -> Config {
        Config::new().scripting(self.scripting)
    }
}

/// [`links`] with options: the page's encoding for the queries, scripting
/// on or off ([`LinkOptions`]).
///
/// ```
/// use htmltok::extract::{links, links_with, LinkOptions};
///
/// let page = "<img src=/lazy.gif data-src=/real.jpg><noscript><img src=/real.jpg></noscript>";
/// let raws = |l: Vec<htmltok::extract::Link>| l.into_iter().map(|l| l.raw).collect::<Vec<_>>();
/// assert_eq!(raws(links(page, None)), ["/lazy.gif"]);
/// let off = LinkOptions::new().scripting(false);
/// assert_eq!(raws(links_with(page, None, off)), ["/lazy.gif", "/real.jpg"]);
/// ```
pub fn links_with(html: &str, page_url: Option<&Url>, options: LinkOptions) -> Vec<Link> {
    // The whole page is in memory: its links may all wait for the end.
    let mut resolver = LinkResolver::new(page_url, options).max_held(usize::MAX);
    let mut tok = Tokenizer::with_config(html, options.config());
    tok.for_each_token(|token| resolver.push(&token));
    resolver.finish();
    resolver.into_links()
}

/// The links of a page whose tokens arrive one by one (a
/// [`StreamTokenizer`](crate::StreamTokenizer), a callback): tokens in,
/// [`Link`]s out in the page's order, resolved as [`links_with`] resolves
/// the whole page.
///
/// A browser resolves every link of a document against the document's
/// base URL: its first `<base href>` (wherever it is: the tree builder
/// puts a `<base>` of the body in the tree too), else the page's URL. So
/// a link before the first `<base href>` cannot be resolved until that
/// base comes or the page ends: the resolver holds such links back, and
/// hands them out, in order, once it knows; from the first `<base href>`
/// on it holds nothing back. Most pages have no `<base>`, so most pages'
/// links come out at the end: [`push`](Self::push) the tokens as they
/// arrive, and take the links with [`next_link`](Self::next_link) after
/// each token or at the end; [`Token::Eof`] (or [`finish`](Self::finish))
/// ends the page.
///
/// Memory: the links held back (each its raw value and its fields), at
/// most [`max_held`](Self::max_held) bytes, 4 MiB unless set. A page that
/// holds back more (megabytes of links before a `<base>` or the end) is
/// resolved as a browser resolves while it loads: the links held are
/// resolved against the page's URL and handed out, each later link against
/// the base known when it comes, and [`is_exact`](Self::is_exact) turns
/// false.
///
/// A stream that decides its encoding as it reads
/// ([`StreamTokenizer::decoding`](crate::StreamTokenizer::decoding)) tells
/// the resolver with [`set_encoding`](Self::set_encoding) once it knows
/// (the tokens before are ASCII, whose URLs read the same in every
/// encoding): a link is resolved when it is taken, in the encoding set
/// then.
///
/// ```
/// use htmltok::encoding::Sniffer;
/// use htmltok::extract::{LinkOptions, LinkResolver};
/// use htmltok::StreamTokenizer;
/// use url::Url;
///
/// // Shift_JIS, declared by the page; the <base> comes after a link.
/// let page = b"<meta charset=shift_jis><a href='?q=\x93\x8c\x8b\x9e'>1</a>\
///     <base href=/docs/><img src=logo.png>";
/// let options = LinkOptions::new();
/// let mut stream = StreamTokenizer::decoding(Sniffer::new(), options.config());
/// let page_url = Url::parse("https://example.jp/index.html").unwrap();
/// let mut resolver = LinkResolver::new(Some(&page_url), options);
/// let mut urls = Vec::new();
/// for chunk in page.chunks(16).map(Some).chain([None]) {
///     match chunk {
///         Some(chunk) => stream.feed(chunk),
///         None => stream.finish(),
///     }
///     while let Some(token) = stream.next_token() {
///         resolver.push(&token);
///     }
///     if let Some(sniffed) = stream.sniffed() {
///         resolver.set_encoding(sniffed.encoding);
///     }
///     while let Some(link) = resolver.next_link() {
///         urls.push(link.url.unwrap());
///     }
/// }
/// assert_eq!(urls, [
///     "https://example.jp/docs/?q=%93%8C%8B%9E",
///     "https://example.jp/docs/logo.png",
/// ]);
/// ```
#[derive(Debug)]
pub struct LinkResolver {
    page_url: Option<Url>,
    encoding: &'static Encoding,
    /// The links found and not yet taken, in order.
    queue: VecDeque<Link>,
    state: Hold,
    /// The bytes the held links take, while they wait.
    held: usize,
    max_held: usize,
}

/// Whether a [`LinkResolver`]'s links wait, and against what they resolve.
#[derive(Debug)]
enum Hold {
    /// No `<base href>` yet, the page not over: links wait.
    Waiting,
    /// The document's base is known: the first `<base href>` (its value),
    /// else the page's URL. Links are resolved as they are taken, against
    /// the base, computed once (`None` until needed, and again after the
    /// encoding changes).
    Known {
        base_href: Option<String>,
        base: Option<Option<Url>>,
    },
    /// Too much was held: each link is resolved as it comes, against the
    /// base known then.
    Overflowed { base: Option<Url>, base_seen: bool },
}

/// Held links' default bound, in bytes.
const MAX_HELD: usize = 4 << 20;

impl LinkResolver {
    /// A resolver for the page at `page_url` (if known), read with
    /// `options` (its encoding writes the queries; scripting is the
    /// tokenizer's, see [`LinkOptions::config`]).
    pub fn new(page_url: Option<&Url>, options: LinkOptions) -> LinkResolver {
        LinkResolver {
            page_url: page_url.cloned(),
            encoding: options.encoding,
            queue: VecDeque::new(),
            state: Hold::Waiting,
            held: 0,
            max_held: MAX_HELD,
        }
    }

    /// At most `bytes` of links held back waiting for a `<base href>`
    /// (see [`LinkResolver`]); `usize::MAX` waits for the end whatever
    /// it costs.
    ///
    /// ```
    /// use htmltok::extract::{LinkOptions, LinkResolver};
    /// use htmltok::{Token, Tokenizer};
    ///
    /// let page = "<a href=a><a href=b><base href=/x/><a href=c>";
    /// let page_url = url::Url::parse("https://example.com/").unwrap();
    /// let mut resolver = LinkResolver::new(Some(&page_url), LinkOptions::new()).max_held(0);
    /// let mut tok = Tokenizer::new(page);
    /// tok.for_each_token(|token| resolver.push(&token));
    /// let urls: Vec<_> = std::iter::from_fn(|| resolver.next_link()).filter_map(|l| l.url).collect();
    /// assert_eq!(urls, ["https://example.com/a", "https://example.com/b", "https://example.com/x/c"]);
    /// assert!(!resolver.is_exact());
    /// ```
    pub fn max_held(self, bytes: usize) -> LinkResolver {
        LinkResolver {
            max_held: bytes,
            ..self
        }
    }

    /// The encoding the page is decoded from, which writes the queries of
    /// the links taken from now on (see [`LinkOptions::encoding`]).
    pub fn set_encoding(&mut self, encoding: &'static Encoding) {
        if encoding != self.encoding {
            self.encoding = encoding;
            if let Hold::Known { base, .. } = &mut self.state {
                *base = None;
            }
        }
    }

    /// Takes one token of the page: a start tag's links join the queue, a
    /// `<base href>` (the first) releases it, [`Token::Eof`] ends the page
    /// (as [`finish`](Self::finish)).
    #[inline]
    pub fn push(&mut self, token: &Token<'_>) {
        match token {
            Token::StartTag(tag) => self.tag(tag),
            Token::Eof => self.finish(),
            _ => {}
        }
    }

    /// The end of the page: every link is released.
    pub fn finish(&mut self) {
        if let Hold::Waiting = self.state {
            self.release(None);
        }
    }

    /// The next link in the page's order, resolved, if it can be known;
    /// `None` while the next one waits for a `<base href>` or the end, or
    /// when there is none.
    pub fn next_link(&mut self) -> Option<Link> {
        let query = QueryEncoding::of(self.encoding);
        match &mut self.state {
            Hold::Waiting => None,
            Hold::Overflowed { .. } => self.queue.pop_front(),
            Hold::Known { base_href, base } => {
                let mut link = self.queue.pop_front()?;
                let base = base.get_or_insert_with(|| {
                    document_base(self.page_url.as_ref(), base_href.as_deref(), &query)
                });
                link.url = resolve(base.as_ref(), &link.raw, &query);
                Some(link)
            }
        }
    }

    /// How many links have been found and not taken (held back or ready).
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether every link found has been taken.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Whether every link was resolved as [`links_with`] resolves the
    /// whole page: `false` once more than [`max_held`](Self::max_held)
    /// bytes of links had to wait.
    pub fn is_exact(&self) -> bool {
        !matches!(self.state, Hold::Overflowed { .. })
    }

    /// Every link not taken, resolved, in a `Vec` (in place: the whole
    /// page's case, once [`finish`](Self::finish)ed).
    fn into_links(mut self) -> Vec<Link> {
        if let Hold::Known { base_href, base } = &mut self.state {
            let query = QueryEncoding::of(self.encoding);
            let base = base.get_or_insert_with(|| {
                document_base(self.page_url.as_ref(), base_href.as_deref(), &query)
            });
            for link in &mut self.queue {
                link.url = resolve(base.as_ref(), &link.raw, &query);
            }
        }
        Vec::from(self.queue)
    }

    fn tag(&mut self, tag: &Tag<'_>) {
        let before = self.queue.len();
        let base_href = visit(tag, &mut self.queue);
        match &mut self.state {
            Hold::Waiting => {
                if let Some(href) = base_href {
                    self.release(Some(href));
                    return;
                }
                let size = std::mem::size_of::<Link>();
                self.held += self
                    .queue
                    .range(before..)
                    .map(|l| size + l.raw.len())
                    .sum::<usize>();
                if self.held > self.max_held {
                    self.overflow();
                }
            }
            Hold::Known { .. } => {}
            Hold::Overflowed { base, base_seen } => {
                let query = QueryEncoding::of(self.encoding);
                for link in self.queue.range_mut(before..) {
                    link.url = resolve(base.as_ref(), &link.raw, &query);
                }
                // A browser that has fetched links on the page's URL
                // fetches those after the base against it.
                if let (Some(href), false) = (base_href, *base_seen) {
                    *base = document_base(self.page_url.as_ref(), Some(&href), &query);
                    *base_seen = true;
                }
            }
        }
    }

    /// The document's base is known: the first `<base href>`'s value, or
    /// none in the page.
    fn release(&mut self, base_href: Option<String>) {
        self.state = Hold::Known {
            base_href,
            base: None,
        };
        self.held = 0;
    }

    /// Too much waits: the held links resolved against the page's URL.
    fn overflow(&mut self) {
        let query = QueryEncoding::of(self.encoding);
        let base = self.page_url.clone();
        for link in &mut self.queue {
            link.url = resolve(base.as_ref(), &link.raw, &query);
        }
        self.state = Hold::Overflowed {
            base,
            base_seen: false,
        };
        self.held = 0;
    }
}

/// The attributes of a start tag named `name` that hold URLs, with the
/// tag's name as a `'static` string; `None` for tags with none.
fn url_attributes(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    const SRC: &[&str] = &["src"];
    Some(match name {
        "a" => ("a", &["href"]),
        "area" => ("area", &["href"]),
        "link" => ("link", &["href"]),
        "img" => ("img", &["src", "srcset"]),
        "source" => ("source", &["src", "srcset"]),
        "script" => ("script", SRC),
        "iframe" => ("iframe", SRC),
        "frame" => ("frame", SRC),
        "embed" => ("embed", SRC),
        "track" => ("track", SRC),
        "audio" => ("audio", SRC),
        "video" => ("video", &["src", "poster"]),
        "object" => ("object", &["data"]),
        "form" => ("form", &["action"]),
        "button" => ("button", &["formaction"]),
        "input" => ("input", &["formaction"]),
        "blockquote" => ("blockquote", &["cite"]),
        "q" => ("q", &["cite"]),
        "del" => ("del", &["cite"]),
        "ins" => ("ins", &["cite"]),
        _ => return None,
    })
}

/// Adds the links of one start tag to `found`, unresolved; a `<base>`'s
/// `href`, if it has one.
fn visit(tag: &Tag<'_>, found: &mut VecDeque<Link>) -> Option<String> {
    let link = |raw: &str, tag, attr, offset| Link {
        url: None,
        raw: raw.to_owned(),
        tag,
        attr,
        offset,
    };
    if let Some((name, attrs)) = url_attributes(tag.name()) {
        for attr in tag.attributes() {
            let Some(&attr_name) = attrs.iter().find(|&&a| a == attr.name()) else {
                continue;
            };
            let offset = attr.value_span().start;
            if attr_name == "srcset" {
                for url in srcset_urls(attr.value()) {
                    found.push_back(link(url, name, attr_name, offset));
                }
            } else {
                found.push_back(link(attr.value(), name, attr_name, offset));
            }
        }
    } else if tag.name() == "meta" {
        let refresh = tag
            .attribute("http-equiv")
            .is_some_and(|v| v.eq_ignore_ascii_case("refresh"));
        if refresh {
            if let Some(content) = tag.attributes().find(|a| a.name() == "content") {
                if let Some(url) = refresh_url(content.value()) {
                    found.push_back(link(url, "meta", "content", content.value_span().start));
                }
            }
        }
    } else if tag.name() == "base" {
        return tag.attribute("href").map(str::to_owned);
    }
    None
}

/// The encoder of a page's queries: `None` for UTF-8, which the URL
/// parser writes itself.
struct QueryEncoding(Option<&'static Encoding>);

impl QueryEncoding {
    fn of(encoding: &'static Encoding) -> Self {
        let output = encoding.output_encoding();
        QueryEncoding((output != UTF_8).then_some(output))
    }

    /// `raw` parsed against `base`, the query in the page's encoding.
    fn parse(&self, base: Option<&Url>, raw: &str) -> Option<Url> {
        let options = Url::options().base_url(base);
        match self.0 {
            None => options.parse(raw),
            Some(encoding) => {
                let encode = query_encoder(encoding);
                options.encoding_override(Some(&encode)).parse(raw)
            }
        }
        .ok()
    }
}

/// [`encode_query`] in `encoding`, as the URL parser takes it.
fn query_encoder(encoding: &'static Encoding) -> impl Fn(&str) -> Cow<'_, [u8]> {
    move |query| encode_query(encoding, query)
}

/// `query` in `encoding`, a character the encoding lacks written as the
/// URL Standard's "percent-encode after encoding" writes it: `%26%23`,
/// its number in decimal, `%3B`. The URL parser percent-encodes the other
/// bytes, and leaves these as they are (`%` is in no query set).
fn encode_query<'q>(encoding: &'static Encoding, query: &'q str) -> Cow<'q, [u8]> {
    if encoding.is_ascii_compatible() && query.is_ascii() {
        return Cow::Borrowed(query.as_bytes());
    }
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::new();
    let mut rest = query;
    loop {
        let room = encoder
            .max_buffer_length_from_utf8_without_replacement(rest.len())
            .unwrap_or(rest.len() * 4 + 16);
        out.reserve(room);
        let (result, read) =
            encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => {
                out.extend_from_slice(format!("%26%23{}%3B", u32::from(c)).as_bytes());
            }
        }
    }
    Cow::Owned(out)
}

/// The document's base URL: the first `<base href>` resolved against the
/// page's URL, else the page's URL ("frozen base URL" in the standard).
fn document_base(
    page_url: Option<&Url>,
    base_href: Option<&str>,
    query: &QueryEncoding,
) -> Option<Url> {
    let from_base = base_href.and_then(|href| query.parse(page_url, href));
    from_base.or_else(|| page_url.cloned())
}

/// `raw` resolved against `base`, unless it fails or names no resource.
fn resolve(base: Option<&Url>, raw: &str, query: &QueryEncoding) -> Option<String> {
    let url = query.parse(base, raw)?;
    match url.scheme() {
        "javascript" | "data" => None,
        _ => Some(url.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_url() -> Url {
        Url::parse("http://site.example/dir/page.html").unwrap()
    }

    fn resolved(html: &str) -> Vec<(&'static str, &'static str, String, Option<String>)> {
        links(html, Some(&page_url()))
            .into_iter()
            .map(|l| (l.tag, l.attr, l.raw, l.url))
            .collect()
    }

    #[test]
    fn every_attribute_of_the_table() {
        let html = "<a href=1><area href=2><link href=3><img src=4 srcset='5 1x,6 2x'>\
            <script src=7></script><iframe src=8></iframe><frame src=9><embed src=10>\
            <source src=11 srcset=12><track src=13><audio src=14></audio>\
            <video src=15 poster=16></video><object data=17><form action=18>\
            <button formaction=19><input formaction=20><blockquote cite=21>\
            <q cite=22><del cite=23><ins cite=24><meta http-equiv=Refresh content='0;url=25'>";
        let got = resolved(html);
        let raws: Vec<_> = got.iter().map(|(_, _, raw, _)| raw.as_str()).collect();
        let want: Vec<String> = (1..=25).map(|n| n.to_string()).collect();
        assert_eq!(raws, want);
        assert_eq!(got[24].0, "meta");
        assert_eq!(
            got[0].3.as_deref(),
            Some("http://site.example/dir/1"),
            "relative to the page"
        );
    }

    #[test]
    fn attributes_not_in_the_table_are_not_links() {
        let html = "<a src=x title=y><img href=x><div href=x><meta content='0;url=x'>\
            <meta http-equiv=content-type content='0;url=x'><link rel=icon>\
            <script>document.write('<a href=in-script>')</script><!--<a href=c>-->";
        assert_eq!(resolved(html), []);
    }

    #[test]
    fn the_first_base_applies_to_every_link() {
        let html = "<a href=a><base href=/b/><base href=/c/><a href=d>";
        let urls: Vec<_> = resolved(html).into_iter().map(|l| l.3.unwrap()).collect();
        assert_eq!(urls, ["http://site.example/b/a", "http://site.example/b/d"]);
        // A base without href does not count; a relative one with no page
        // URL cannot resolve, so links fall back to no base at all.
        let html = "<base target=_top><base href=/e/><a href=f>";
        assert_eq!(
            resolved(html)[0].3.as_deref(),
            Some("http://site.example/e/f")
        );
        assert_eq!(links("<base href=/e/><a href=f>", None)[0].url, None);
        let abs = links("<base href=https://x.example/e/><a href=f>", None);
        assert_eq!(abs[0].url.as_deref(), Some("https://x.example/e/f"));
    }

    #[test]
    fn unresolvable_values_are_kept_raw() {
        let html = "<a href='javascript:go()'><a href=' DATA:text/plain,x'>\
            <a href='java\tscript:x'><a href='http://[::1'><a href=''>";
        let got = resolved(html);
        let urls: Vec<_> = got.iter().map(|l| l.3.as_deref()).collect();
        assert_eq!(
            urls,
            [
                None,
                None,
                None,
                None,
                Some("http://site.example/dir/page.html")
            ]
        );
        assert_eq!(
            got[1].2, " DATA:text/plain,x",
            "raw is the value as written"
        );
    }

    #[test]
    fn offsets_are_value_starts_and_references_are_decoded() {
        let html = "<p><a  href = \"/x?a=1&amp;b=2\">é</a><img srcset=\"p.png 1x, q.png\">";
        let got = links(html, None);
        assert_eq!(got[0].raw, "/x?a=1&b=2");
        assert_eq!(got[0].offset, html.find("/x?").unwrap());
        assert_eq!(got[1].offset, html.find("p.png").unwrap());
        assert_eq!(got[2].offset, got[1].offset);
        // A repeated attribute is dropped, as the standard drops it.
        assert_eq!(links("<a href=1 HREF=2>", None).len(), 1);
    }
}
