//! Every URL a page's markup refers to.

use std::borrow::Cow;

use encoding_rs::{EncoderResult, Encoding, UTF_8};
use url::Url;

use super::url_values::{refresh_url, srcset_urls};
use crate::{Config, Flow, Tag, Token, Tokenizer};

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
    let mut found = Vec::new();
    let mut base_href: Option<String> = None;
    let config = Config::new().scripting(options.scripting);
    let mut tok = Tokenizer::with_config(html, config);
    tok.for_each_token(|token| {
        if let Token::StartTag(tag) = token {
            visit(&tag, &mut found, &mut base_href);
        }
        Flow::Continue
    });
    let query = QueryEncoding::of(options.encoding);
    // The base applies to every link, also those before it: it is the
    // document's, not a running state.
    let base = document_base(page_url, base_href.as_deref(), &query);
    for link in &mut found {
        link.url = resolve(base.as_ref(), &link.raw, &query);
    }
    found
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

/// Adds the links of one start tag to `found`; notes the first `<base
/// href>`.
fn visit(tag: &Tag<'_>, found: &mut Vec<Link>, base_href: &mut Option<String>) {
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
                    found.push(link(url, name, attr_name, offset));
                }
            } else {
                found.push(link(attr.value(), name, attr_name, offset));
            }
        }
    } else if tag.name() == "meta" {
        let refresh = tag
            .attribute("http-equiv")
            .is_some_and(|v| v.eq_ignore_ascii_case("refresh"));
        if refresh {
            if let Some(content) = tag.attributes().find(|a| a.name() == "content") {
                if let Some(url) = refresh_url(content.value()) {
                    found.push(link(url, "meta", "content", content.value_span().start));
                }
            }
        }
    } else if tag.name() == "base" && base_href.is_none() {
        *base_href = tag.attribute("href").map(str::to_owned);
    }
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
