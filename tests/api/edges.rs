//! Pages at a browser's edges, on pages written for each:
//! a byte order mark left in decoded text, a charset declared after
//! non-ASCII bytes, queries of URLs on legacy pages, links inside
//! `<noscript>`. Expectations come from the standards (HTML, Encoding, URL),
//! with the bytes of each encoding written out by hand (checked against
//! Python's codecs where theirs agree with the Encoding Standard's).
//! The `html5ever` feature's side of the byte order mark is in
//! `tests/conformance/edges_html5ever.rs`.

use htmltok::encoding::{
    Encoding, Sniffed, Sniffer, Source, ISO_8859_2, KOI8_R, UTF_16LE, UTF_8, WINDOWS_1252,
};
use htmltok::extract::{self, links_with, LinkOptions, Page};
use htmltok::{Config, Input, OwnedToken, StreamTokenizer, Tokenizer};
use url::Url;

// ---------------------------------------------------------------------------
// A byte order mark.

/// A page with a DOCTYPE and a title, as `std::fs::read_to_string` gives
/// it when the file starts with a UTF-8 byte order mark.
const BOM_PAGE: &str = "\u{FEFF}<!DOCTYPE html><title>T</title>";

/// The tokens of `text` as the tokenizer reads it.
fn tokens(text: &str) -> Vec<OwnedToken> {
    Tokenizer::new(text).owned().collect()
}

/// The tokens of a plain stream (UTF-8) fed `bytes` in `chunk`-byte chunks,
/// adjacent text joined.
fn stream_tokens(bytes: &[u8], sniffer: Option<Sniffer>, chunk: usize) -> Vec<OwnedToken> {
    let config = Config::new().join_text(true);
    let mut stream = match sniffer {
        Some(sniffer) => StreamTokenizer::decoding(sniffer, config),
        None => StreamTokenizer::with_config(config),
    };
    let mut out = Vec::new();
    for piece in bytes.chunks(chunk) {
        stream.feed(piece);
        while let Some(token) = stream.next_token() {
            out.push(token.into_owned());
        }
    }
    stream.finish();
    while let Some(token) = stream.next_token() {
        out.push(token.into_owned());
    }
    out
}

#[test]
fn the_tokenizer_reads_a_leading_feff_as_text() {
    // The standard's tokenizer: U+FEFF is a character in the Data state,
    // emitted as text, so the DOCTYPE comes after text.
    let toks = tokens(BOM_PAGE);
    assert_eq!(toks[0], OwnedToken::Text("\u{FEFF}".into()));
    assert!(matches!(toks[1], OwnedToken::Doctype { .. }), "{toks:?}");
    // So does `Input::from_utf8_lossy` (UTF-8 repair, nothing more), and a plain
    // stream, however the three bytes are split.
    let from_bytes: Vec<_> = Tokenizer::new(Input::from_utf8_lossy(BOM_PAGE.as_bytes()))
        .owned()
        .collect();
    assert_eq!(from_bytes, toks);
    for chunk in [1, 2, 3, 4, 64] {
        assert_eq!(
            stream_tokens(BOM_PAGE.as_bytes(), None, chunk),
            toks,
            "{chunk}"
        );
    }
}

#[test]
fn the_decoder_drops_the_byte_order_mark() {
    let without = tokens(&BOM_PAGE['\u{FEFF}'.len_utf8()..]);
    assert!(matches!(without[0], OwnedToken::Doctype { .. }));
    let decoded: Vec<_> = Tokenizer::new(Input::decode(BOM_PAGE.as_bytes()))
        .owned()
        .collect();
    assert_eq!(decoded, without);
    let d = Sniffer::new().decode(BOM_PAGE.as_bytes());
    assert_eq!((d.sniffed.source, &*d.text), (Source::Bom, &BOM_PAGE[3..]));
    for chunk in [1, 2, 3, 4, 64] {
        let streamed = stream_tokens(BOM_PAGE.as_bytes(), Some(Sniffer::new()), chunk);
        assert_eq!(streamed, without, "{chunk}");
    }
    // Only the byte order mark: a second U+FEFF is text (the Encoding
    // Standard's decode strips one).
    let two = "\u{FEFF}\u{FEFF}<p>";
    let d = Sniffer::new().decode(two.as_bytes());
    assert_eq!(d.text, "\u{FEFF}<p>");
}

// ---------------------------------------------------------------------------
// A charset declared late.

/// "Zażółć gęślą" in ISO-8859-2.
const ZAZOLC: &[u8] = b"Za\xbf\xf3\xb3\xe6 g\xea\xb6l\xb1";

/// A page whose `<title>` has ISO-8859-2 bytes in the first kilobyte, and
/// whose `<meta charset>` (spelled `meta_label`) comes after more than
/// 1024 bytes, still in the head; then a body.
fn late_page(meta_label: &str) -> Vec<u8> {
    late_page_with(ZAZOLC, meta_label)
}

/// [`late_page`] with `title` for the bytes of the title and the body.
fn late_page_with(title: &[u8], meta_label: &str) -> Vec<u8> {
    let mut page = b"<!DOCTYPE html><html><head><title>".to_vec();
    page.extend_from_slice(title);
    page.extend_from_slice(b"</title>\n<script>var padding = '");
    page.extend(std::iter::repeat(b'x').take(1100));
    page.extend_from_slice(b"';</script>\n");
    page.extend_from_slice(format!("<meta charset=\"{meta_label}\">\n").as_bytes());
    page.extend_from_slice(b"</head><body><p>");
    page.extend_from_slice(title);
    page.extend_from_slice(b"</p></body></html>");
    page
}

/// What a decoding stream fed `chunk`-byte chunks decided, with the text
/// it gave.
fn streamed(bytes: &[u8], sniffer: Sniffer, chunk: usize) -> (Sniffed, Vec<OwnedToken>) {
    let mut stream = StreamTokenizer::decoding(sniffer, Config::new().join_text(true));
    let mut out = Vec::new();
    for piece in bytes.chunks(chunk) {
        stream.feed(piece);
        while let Some(token) = stream.next_token() {
            out.push(token.into_owned());
        }
    }
    stream.finish();
    while let Some(token) = stream.next_token() {
        out.push(token.into_owned());
    }
    (stream.sniffed().expect("decided"), out)
}

/// The texts of `tokens`, joined.
fn texts(tokens: &[OwnedToken]) -> String {
    tokens
        .iter()
        .filter_map(|t| match t {
            OwnedToken::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_late_meta_in_the_head_changes_a_whole_page() {
    let page = late_page("iso8859-2");
    // Without the statistical guess the bytes are not UTF-8, so the
    // default (windows-1252) decides first; the `<meta>` in the head,
    // which reads the same in both, changes it.
    let sniffer = Sniffer::new().statistical_guess(false);
    let d = sniffer.decode(&page);
    assert_eq!(
        (
            d.sniffed.encoding,
            d.sniffed.source,
            d.sniffed.declared_late
        ),
        (ISO_8859_2, Source::ChangedByMeta, None)
    );
    assert_eq!(sniffer.sniff(&page), d.sniffed);
    assert_eq!(d.text, ISO_8859_2.decode_without_bom_handling(&page).0);
    assert!(d.text.contains("<title>Zażółć gęślą</title>"));
    // The guess reads Polish as ISO-8859-2 already: the `<meta>` agrees.
    let guessed = Sniffer::new().sniff(&page);
    assert_eq!(
        (guessed.encoding, guessed.source),
        (ISO_8859_2, Source::Guess)
    );
    // French is guessed as windows-1252, which the `<meta>` then changes
    // (è, 0xE8, is č in ISO-8859-2; û, 0xFB, is ű).
    let french = late_page_with(
        b"Caf\xe9 cr\xe8me br\xfbl\xe9e, cr\xe8me fra\xeeche",
        "iso-8859-2",
    );
    let guessed = Sniffer::new().sniff(&french);
    assert_eq!(
        (guessed.encoding, guessed.source),
        (ISO_8859_2, Source::ChangedByMeta)
    );
    let d = Sniffer::new().decode(&french);
    assert!(
        d.text
            .contains("<title>Café crčme brűlée, crčme fraîche</title>"),
        "{}",
        d.text
    );
    // The crawler's side: Page, extract::sniff, and so the command line
    // and Python.
    let p = Page::decode(&french, None);
    assert_eq!((p.encoding, p.source), (ISO_8859_2, Source::ChangedByMeta));
    let brulee = "Café crčme brűlée, crčme fraîche";
    assert_eq!(p.text().title.as_deref(), Some(brulee));
    assert_eq!(p.text().text, brulee);
    assert_eq!(
        extract::sniff(&french, None),
        (ISO_8859_2, Source::ChangedByMeta)
    );
    assert_eq!(Source::ChangedByMeta.as_str(), "changed-by-meta");
}

#[test]
fn a_stream_reports_a_late_meta() {
    let page = late_page("iso8859-2");
    let sniffer = Sniffer::new().statistical_guess(false);
    // What the stream decodes: windows-1252 throughout, as decided.
    let as_1252 = tokens(&WINDOWS_1252.decode_without_bom_handling(&page).0);
    for chunk in [1, 7, 100, 1024, 1025, 4096, page.len()] {
        let (sniffed, toks) = streamed(&page, sniffer, chunk);
        assert_eq!(
            (sniffed.encoding, sniffed.source, sniffed.declared_late),
            (WINDOWS_1252, Source::Default, Some(ISO_8859_2)),
            "{chunk}-byte chunks"
        );
        assert_eq!(toks, as_1252, "{chunk}-byte chunks");
        assert!(texts(&toks).starts_with("Za¿ó³æ"), "{chunk}-byte chunks");
    }
}

#[test]
fn changes_the_standard_ignores() {
    // The same encoding (ISO-8859-1 is windows-1252), and x-user-defined
    // (which a declaration means as windows-1252), change nothing.
    let sniffer = Sniffer::new().statistical_guess(false);
    for label in ["windows-1252", "ISO-8859-1", "x-user-defined"] {
        let page = late_page(label);
        let sniffed = sniffer.sniff(&page);
        assert_eq!(
            (sniffed.encoding, sniffed.source),
            (WINDOWS_1252, Source::Default),
            "{label}"
        );
        let (streamed, _) = streamed(&page, sniffer, 100);
        assert_eq!(streamed.declared_late, None, "{label}");
    }
    // UTF-16 declared in bytes read as ASCII means UTF-8.
    for label in ["utf-16", "UTF-16BE"] {
        let page = late_page(label);
        let sniffed = sniffer.sniff(&page);
        assert_eq!(
            (sniffed.encoding, sniffed.source),
            (UTF_8, Source::ChangedByMeta),
            "{label}"
        );
        assert_eq!(streamed(&page, sniffer, 100).0.declared_late, Some(UTF_8));
    }
    // A label that names no encoding is no declaration.
    let page = late_page("no-such-charset");
    assert_eq!(sniffer.sniff(&page).source, Source::Default);
    // A byte order mark and the transport are certain: no change.
    let bom = [&b"\xef\xbb\xbf"[..], &late_page("koi8-r")].concat();
    assert_eq!(sniffer.sniff(&bom).source, Source::Bom);
    assert_eq!(streamed(&bom, sniffer, 100).0.declared_late, None);
    let transport = sniffer.transport(ISO_8859_2);
    let page = late_page("koi8-r");
    assert_eq!(transport.sniff(&page).source, Source::Transport);
    assert_eq!(streamed(&page, transport, 100).0.declared_late, None);
    // A UTF-16 page (its byte order mark) declaring KOI8-R in UTF-16.
    let mut utf16 = vec![0xff, 0xfe];
    for unit in "<title>é</title><meta charset=koi8-r>".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    assert_eq!(sniffer.sniff(&utf16).encoding, UTF_16LE);
}

#[test]
fn the_first_declaration_of_the_head_counts() {
    // The prescan takes the `<meta>` inside `<title>` (it knows no
    // titles); the tree builder reads it as text and meets the next one,
    // which changes the encoding (the prescan's decision is tentative).
    let page = b"<title><meta charset=koi8-r></title><meta charset=iso-8859-2><p>\xb1";
    let d = Sniffer::new().decode(page);
    assert_eq!(
        (d.sniffed.encoding, d.sniffed.source),
        (ISO_8859_2, Source::ChangedByMeta)
    );
    assert!(d.text.ends_with("<p>ą"));
    let (s, _) = streamed(page, Sniffer::new(), 3);
    assert_eq!(
        (s.encoding, s.source, s.declared_late),
        (KOI8_R, Source::Meta, Some(ISO_8859_2))
    );
    // The prescan's own `<meta>` first: certain, a later one is ignored.
    let mut page = b"<meta charset=koi8-r><title>\xf0</title><!--".to_vec();
    page.extend(std::iter::repeat_n(b'-', 1100));
    page.extend_from_slice(b"--><meta charset=iso-8859-2>");
    assert_eq!(Sniffer::new().sniff(&page).source, Source::Meta);
    assert_eq!(streamed(&page, Sniffer::new(), 50).0.declared_late, None);
    // In a `<template>` of the head, a `<meta>` counts too.
    let mut page = b"<title>\xe9</title>".to_vec();
    page.extend(std::iter::repeat_n(b' ', 1100));
    page.extend_from_slice(b"<template><div><meta charset=koi8-r></div></template>");
    let nope = Sniffer::new().statistical_guess(false);
    assert_eq!(nope.sniff(&page).encoding, KOI8_R);
}

#[test]
fn a_meta_in_the_body_is_not_looked_at() {
    // After the head ended (text, or a body element), a late `<meta>` is
    // left alone: htmltok looks in the head only (the standard would
    // change for one in the body too, and cost every page a second
    // reading to its end).
    let sniffer = Sniffer::new().statistical_guess(false);
    for body in [&b"<p>caf\xe9</p>"[..], b"caf\xe9", b"<body><b>\xe9</b>"] {
        let mut page = body.to_vec();
        page.extend(std::iter::repeat_n(b' ', 1100));
        page.extend_from_slice(b"<meta charset=koi8-r>");
        let sniffed = sniffer.sniff(&page);
        assert_eq!(
            (sniffed.encoding, sniffed.source),
            (WINDOWS_1252, Source::Default)
        );
        assert_eq!(streamed(&page, sniffer, 64).0.declared_late, None);
    }
}

#[test]
fn the_encoding_fuzz_property_holds_on_late_pages() {
    // `testkit::props::check_encoding` (the `encoding` fuzz target's
    // property): the whole page follows the `<meta>`, a stream split
    // anywhere reports it and gives the page in the encoding it decided.
    let french = late_page_with(b"Caf\xe9 cr\xe8me br\xfbl\xe9e", "iso-8859-2");
    let prescan_missed = b"<title><meta charset=koi8-r></title><meta charset=iso-8859-2><p>\xb1";
    for page in [
        late_page("iso8859-2"),
        late_page("utf-16"),
        french,
        prescan_missed.to_vec(),
    ] {
        for sniffer in [Sniffer::new(), Sniffer::new().statistical_guess(false)] {
            for splits in [vec![], vec![1, 2, 3], (0..page.len()).step_by(97).collect()] {
                testkit::props::check_encoding(&page, sniffer, &splits)
                    .unwrap_or_else(|e| panic!("splits {splits:?}: {e}"));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Queries on legacy pages.

/// The resolved URLs of the page `bytes` (a `<meta charset>` page),
/// against `base`.
fn page_urls(bytes: &[u8], base: &str) -> (&'static Encoding, Vec<Option<String>>) {
    let page = Page::decode(bytes, None);
    let base = Url::parse(base).unwrap();
    let urls = page.links(Some(&base)).into_iter().map(|l| l.url).collect();
    (page.encoding, urls)
}

/// The page: `<meta charset=LABEL>` then `body` encoded in that encoding
/// (the markup is ASCII; `body`'s characters outside the encoding are
/// written as references, which the encoder cannot produce).
fn encoded_page(label: &str, body: &str) -> Vec<u8> {
    let encoding = Encoding::for_label(label.as_bytes()).unwrap();
    let (bytes, _, unmappable) = encoding.encode(body);
    assert!(!unmappable, "{label}: {body}");
    [format!("<meta charset={label}>").as_bytes(), &bytes].concat()
}

#[test]
fn queries_are_written_in_the_page_encoding() {
    // Each expectation by hand from the URL Standard: the query's bytes in
    // the document's encoding, bytes outside the query percent-encode set
    // as they are (with `'` for special schemes), the rest percent-encoded;
    // a character the encoding lacks as %26%23 + decimal + %3B. The path
    // and fragment are UTF-8.
    //
    // Shift_JIS: 日本語 is 93 FA 96 7B 8C EA; 0x7B is `{`, which is in no
    // query percent-encode set, so it stays. 😀 (U+1F600, 128512) is in
    // no legacy encoding.
    let page = encoded_page(
        "shift_jis",
        "<a href='/日本/?q=日本語&amp;x=&#x1F600;#日本'>a</a><a href='?q=東京'>b</a>",
    );
    let (encoding, urls) = page_urls(&page, "https://example.jp/top/");
    assert_eq!(encoding.name(), "Shift_JIS");
    assert_eq!(
        urls,
        [
            Some("https://example.jp/%E6%97%A5%E6%9C%AC/?q=%93%FA%96{%8C%EA&x=%26%23128512%3B#%E6%97%A5%E6%9C%AC".into()),
            Some("https://example.jp/top/?q=%93%8C%8B%9E".into()),
        ]
    );
    // GBK: 中文 is D6 D0 CE C4; the euro sign is 0x80 in GBK (the
    // Encoding Standard's gb18030 encoder with "is GBK"), and four-byte
    // GB18030 sequences are not GBK: 😀 is a reference.
    let page = encoded_page("gbk", "<img src='/s?w=中文€&amp;e=&#x1F600;'>");
    let (encoding, urls) = page_urls(&page, "http://example.cn/");
    assert_eq!(encoding.name(), "GBK");
    assert_eq!(
        urls,
        [Some(
            "http://example.cn/s?w=%D6%D0%CE%C4%80&e=%26%23128512%3B".into()
        )]
    );
    // windows-1251: Привет is CF F0 E8 E2 E5 F2, the space %20, € 0x88;
    // 日 (U+65E5, 26085) is not in it. `'` is percent-encoded in a
    // special URL's query.
    let page = encoded_page(
        "windows-1251",
        "<form action=\"/find?q=Привет €&amp;it's=&#26085;\">",
    );
    let (encoding, urls) = page_urls(&page, "https://example.ru/");
    assert_eq!(encoding.name(), "windows-1251");
    assert_eq!(
        urls,
        [Some(
            "https://example.ru/find?q=%CF%F0%E8%E2%E5%F2%20%88&it%27s=%26%2326085%3B".into()
        )]
    );
    // windows-1252: café € ü is 63 61 66 E9 20 80 20 FC; Ж (U+0416,
    // 1046) is not in it. A `<base href>`'s query is the page's too, and
    // a non-special or ws: URL's query is UTF-8.
    let page = encoded_page(
        "windows-1252",
        "<base href='/b/?base=é'><a href='x?q=café € ü&amp;r=&#x416;'>\
         <a href='ws://example.com/?q=é'><a href='foo:/p?q=é'><a href='#é'>",
    );
    let (encoding, urls) = page_urls(&page, "https://example.com/");
    assert_eq!(encoding, WINDOWS_1252);
    assert_eq!(
        urls,
        [
            Some("https://example.com/b/x?q=caf%E9%20%80%20%FC&r=%26%231046%3B".into()),
            Some("ws://example.com/?q=%C3%A9".into()),
            Some("foo:/p?q=%C3%A9".into()),
            Some("https://example.com/b/?base=%E9#%C3%A9".into()),
        ]
    );
}

#[test]
fn queries_of_a_str_page_are_utf8() {
    // A page given as text has no other encoding than UTF-8.
    let base = Url::parse("https://example.jp/").unwrap();
    let found = extract::links("<a href='?q=日本'>", Some(&base));
    assert_eq!(
        found[0].url.as_deref(),
        Some("https://example.jp/?q=%E6%97%A5%E6%9C%AC")
    );
    // UTF-16 pages write UTF-8 queries (the URL Standard's "get an
    // output encoding").
    let options = LinkOptions::new().encoding(UTF_16LE);
    let found = links_with("<a href='?q=日本'>", Some(&base), options);
    assert_eq!(
        found[0].url.as_deref(),
        Some("https://example.jp/?q=%E6%97%A5%E6%9C%AC")
    );
}

// ---------------------------------------------------------------------------
// Links inside <noscript>.

/// A lazy-loading page: a placeholder image whose real URL is in
/// `data-src` (no link attribute) and in the `<noscript>` fallback.
const LAZY: &str = "<html><head><noscript><link rel=stylesheet href=/noscript.css></noscript>\
    </head><body><img src=/placeholder.gif data-src=/photo.jpg>\
    <noscript><img src=/photo.jpg srcset='/photo-2x.jpg 2x'></noscript><a href=/next>next</a>";

fn raws(options: LinkOptions) -> Vec<String> {
    links_with(LAZY, None, options)
        .into_iter()
        .map(|l| l.raw)
        .collect()
}

#[test]
fn noscript_links_with_scripting_on_and_off() {
    // On (the default): `<noscript>` holds text, as in a browser with
    // JavaScript.
    assert_eq!(raws(LinkOptions::new()), ["/placeholder.gif", "/next"]);
    assert_eq!(
        extract::links(LAZY, None)
            .into_iter()
            .map(|l| l.raw)
            .collect::<Vec<_>>(),
        ["/placeholder.gif", "/next"]
    );
    // Off: its markup is read, and its links found.
    assert_eq!(
        raws(LinkOptions::new().scripting(false)),
        [
            "/noscript.css",
            "/placeholder.gif",
            "/photo.jpg",
            "/photo-2x.jpg",
            "/next"
        ]
    );
    // Through a decoded page, its encoding kept.
    let page = Page::decode(LAZY.as_bytes(), None);
    assert_eq!(page.links(None).len(), 2);
    let off = links_with(&page.html, None, page.link_options().scripting(false));
    assert_eq!(off.len(), 5);
    // The offsets are the values' in the page either way.
    for link in off {
        assert!(LAZY[link.offset..].starts_with(&link.raw), "{link:?}");
    }
}
