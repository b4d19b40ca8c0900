//! `extract::LinkResolver` fed by a decoding stream gives the whole page's
//! links (`extract::links_with` over `Page::decode`): the same links,
//! resolved alike, in the same order, on every page of the repository's
//! `corpus/` (legacy encodings included) and of `$HTMLTOK_CORPUS`, each
//! also with a `<base href>` added at its end (which every link before it
//! must wait for), and on pages made here (a `<base>` in the body after
//! links whose queries are Shift_JIS, a guessed encoding), split at the
//! chunk sizes of the stream tests (`tests/robustness/chunking.rs`: 1 for
//! pages under 200 KB, 3, 7, 64, 4096, 65536, random points and random
//! sizes).

use std::borrow::Cow;
use std::time::Instant;

use htmltok::encoding::{Encoding, Sniffer};
use htmltok::extract::{links_with, Link, LinkOptions, LinkResolver, Page};
use htmltok::StreamTokenizer;
use testkit::data;
use testkit::rng::{fixed_splits, random_sized, XorShift};
use url::Url;

/// 1-byte chunks only for pages under this size, as in the stream tests.
const ONE_BYTE_LIMIT: usize = 200 * 1024;

/// The links a decoding stream and a resolver find in `bytes` cut at
/// `splits`, whether the resolver held them all as long as needed, and
/// the encoding the stream decided with a `<meta>` it saw too late to
/// follow, if any.
fn streamed(
    bytes: &[u8],
    splits: &[usize],
    page_url: &Url,
) -> (Vec<Link>, bool, Option<&'static Encoding>) {
    let options = LinkOptions::new();
    let mut stream = StreamTokenizer::decoding(Sniffer::new(), options.config());
    let mut resolver = LinkResolver::new(Some(page_url), options);
    let mut found = Vec::new();
    let mut at = 0;
    let ends = splits.iter().copied().chain([bytes.len()]);
    for end in ends.map(Some).chain([None]) {
        match end {
            Some(end) => {
                stream.feed(&bytes[at..end]);
                at = end;
            }
            None => stream.finish(),
        }
        while let Some(token) = stream.next_token() {
            resolver.push(&token);
        }
        if let Some(sniffed) = stream.sniffed() {
            resolver.set_encoding(sniffed.encoding);
        }
        found.extend(std::iter::from_fn(|| resolver.next_link()));
    }
    assert!(stream.is_finished());
    let sniffed = stream.sniffed().expect("decided at the end");
    let late = sniffed.declared_late.map(|_| sniffed.encoding);
    (found, resolver.is_exact(), late)
}

/// The whole page's links: as `Page::decode` decodes it, or in
/// `encoding`, which the stream went on in when a `<meta>` came after the
/// bytes it decided on (a stream decides as the page only on what it
/// has been given: `StreamTokenizer::decoding`).
fn whole(bytes: &[u8], page_url: &Url, encoding: Option<&'static Encoding>) -> Vec<Link> {
    match encoding {
        None => Page::decode(bytes, None).links(Some(page_url)),
        Some(encoding) => {
            let html = Sniffer::new().transport(encoding).decode(bytes).text;
            links_with(&html, Some(page_url), LinkOptions::new().encoding(encoding))
        }
    }
}

/// Every split of the stream tests for a page of `len` bytes.
fn split_sets(len: usize, rng: &mut XorShift) -> Vec<(String, Vec<usize>)> {
    let mut sizes = vec![3, 7, 64, 4096, 65536];
    if len < ONE_BYTE_LIMIT {
        sizes.insert(0, 1);
    }
    let mut sets: Vec<_> = sizes
        .into_iter()
        .map(|size| (format!("chunks of {size}"), fixed_splits(len, size)))
        .collect();
    let k = 1 + rng.below(8);
    let mut points: Vec<usize> = (0..k).map(|_| rng.below(len + 1)).collect();
    points.sort_unstable();
    sets.push(("random points".to_owned(), points));
    sets.push(("random sizes < 300".to_owned(), random_sized(len, 300, rng)));
    sets.push((
        "random sizes < 100000".to_owned(),
        random_sized(len, 100_000, rng),
    ));
    sets
}

/// Pages made here: what the corpus may lack.
fn made_pages() -> Vec<(String, Vec<u8>)> {
    let mut pages = Vec::new();
    // Shift_JIS declared in the page, links whose queries are Japanese,
    // the <base> in the body after them, and a second one that counts not.
    let mut sjis = b"<meta charset=shift_jis><title>\x93\xfa\x96\x7b</title>\n".to_vec();
    sjis.extend(
        b"<a href='search?q=\x93\x8c\x8b\x9e'>1</a><img srcset='a.png 1x, b.png?\x93\xfa 2x'>\n",
    );
    sjis.extend(b"<p>".repeat(500));
    sjis.extend(b"<base href='/jp/'><base href=/other/><a href=after?\x96\x7b>2</a>");
    pages.push(("made/shift_jis-late-base.html".to_owned(), sjis));
    // windows-1251 guessed (nothing declares it), after a long ASCII head.
    let mut guessed = b"<html><head>".to_vec();
    guessed.extend(b"<link rel=stylesheet href=/s.css>\n".repeat(100));
    guessed.extend(
        "<p>\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442} <a href='?q=\u{43c}\u{438}\u{440}'>x</a>"
            .chars()
            .map(|c| match c as u32 {
                0x410..=0x44F => (c as u32 - 0x410 + 0xC0) as u8,
                n => n as u8,
            }),
    );
    guessed.extend(b"<base href=https://other.example/ru/>");
    pages.push(("made/windows-1251-guessed.html".to_owned(), guessed));
    // UTF-16 by its byte order mark, a late base.
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(
        "<a href=a?q=\u{e9}>a</a><base href=/u/><a href=b>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    pages.push(("made/utf-16le.html".to_owned(), utf16));
    pages
}

#[test]
fn streamed_links_are_the_whole_pages_links_at_every_split() {
    let started = Instant::now();
    let page_url = Url::parse("https://example.org/dir/page.html").unwrap();
    let mut pages = data::corpus_pages();
    // Each page again with a <base href> at its end, after every link.
    let late: Vec<_> = pages
        .iter()
        .map(|(name, bytes)| {
            let mut bytes = bytes.clone();
            bytes.extend(b"<base href='/late/base/'>");
            (format!("{name} + late base"), bytes)
        })
        .collect();
    pages.extend(late);
    pages.extend(made_pages());
    let mut rng = XorShift::new(0x5EED_0048);
    let (mut runs, mut links, mut bytes_streamed, mut late) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (name, bytes) in &pages {
        let page = whole(bytes, &page_url, None);
        links += page.len();
        for (what, splits) in split_sets(bytes.len(), &mut rng) {
            let (got, exact, late_in) = streamed(bytes, &splits, &page_url);
            runs += 1;
            bytes_streamed += bytes.len();
            let want = match late_in {
                None => Cow::Borrowed(&page),
                Some(encoding) => {
                    late += 1;
                    Cow::Owned(whole(bytes, &page_url, Some(encoding)))
                }
            };
            if !exact {
                failures.push(format!(
                    "{name}, {what}: more links held than the default bound"
                ));
            } else if got != *want {
                let first = got.iter().zip(want.iter()).position(|(g, w)| g != w);
                failures.push(format!(
                    "{name}, {what}: {} links streamed, {} whole; first difference at {first:?}: {:?} / {:?}",
                    got.len(),
                    want.len(),
                    first.map(|i| &got[i]),
                    first.map(|i| &want[i]),
                ));
            }
        }
    }
    println!(
        "{} pages ({links} links), {runs} streams ({late} in the encoding decided before a late <meta>), \
         {bytes_streamed} bytes streamed in {:.1?}",
        pages.len(),
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(links > 1000, "only {links} links in the corpus");
}

#[test]
fn a_late_base_applies_to_the_links_before_it() {
    let page_url = Url::parse("https://example.jp/index.html").unwrap();
    let (_, sjis) = &made_pages()[0];
    let (got, exact, late) = streamed(sjis, &fixed_splits(sjis.len(), 5), &page_url);
    assert!(exact && late.is_none());
    let urls: Vec<_> = got.iter().map(|l| l.url.as_deref().unwrap()).collect();
    assert_eq!(
        urls,
        [
            "https://example.jp/jp/search?q=%93%8C%8B%9E",
            "https://example.jp/jp/a.png",
            "https://example.jp/jp/b.png?%93%FA",
            "https://example.jp/jp/after?%96{",
        ]
    );
}

#[test]
fn links_wait_only_until_the_first_base() {
    let page_url = Url::parse("https://example.com/").unwrap();
    let mut resolver = LinkResolver::new(Some(&page_url), LinkOptions::new());
    let mut stream = StreamTokenizer::new();
    let mut take = |chunk: &[u8], resolver: &mut LinkResolver| {
        stream.feed(chunk);
        while let Some(token) = stream.next_token() {
            resolver.push(&token);
        }
        std::iter::from_fn(|| resolver.next_link())
            .map(|l| l.url.unwrap())
            .collect::<Vec<_>>()
    };
    assert!(take(b"<a href=1><a href=2>", &mut resolver).is_empty());
    assert_eq!(resolver.len(), 2);
    assert_eq!(
        take(b"<base href=/b/><a href=3>", &mut resolver),
        [
            "https://example.com/b/1",
            "https://example.com/b/2",
            "https://example.com/b/3"
        ]
    );
    // From the base on, each link comes out as soon as its tag is whole.
    assert_eq!(
        take(b"<a href=4><a hr", &mut resolver),
        ["https://example.com/b/4"]
    );
    assert_eq!(take(b"ef=5>", &mut resolver), ["https://example.com/b/5"]);
    assert!(resolver.is_empty() && resolver.is_exact());
}

#[test]
fn past_its_bound_a_resolver_hands_out_what_it_held() {
    let page_url = Url::parse("https://example.com/").unwrap();
    let mut page = String::new();
    for i in 0..1000 {
        page.push_str(&format!("<a href=/page/{i}>"));
    }
    page.push_str("<base href=/b/><a href=last>");
    let bound = 10_000;
    let mut resolver = LinkResolver::new(Some(&page_url), LinkOptions::new()).max_held(bound);
    let mut stream = StreamTokenizer::new();
    let mut found = Vec::new();
    let mut most_waiting = 0;
    for chunk in page.as_bytes().chunks(100) {
        stream.feed(chunk);
        while let Some(token) = stream.next_token() {
            resolver.push(&token);
        }
        most_waiting = most_waiting.max(resolver.len());
        found.extend(std::iter::from_fn(|| resolver.next_link()));
    }
    stream.finish();
    while let Some(token) = stream.next_token() {
        resolver.push(&token);
    }
    found.extend(std::iter::from_fn(|| resolver.next_link()));
    assert!(!resolver.is_exact());
    // Held links take at least their fields' size each: the bound held
    // fewer than it would take to hold them all.
    assert!(
        most_waiting * std::mem::size_of::<Link>() <= 2 * bound,
        "{most_waiting} waited"
    );
    assert_eq!(found.len(), 1001);
    assert_eq!(found[0].url.as_deref(), Some("https://example.com/page/0"));
    assert_eq!(
        found[999].url.as_deref(),
        Some("https://example.com/page/999")
    );
    // After the base, as a loading browser resolves.
    assert_eq!(
        found[1000].url.as_deref(),
        Some("https://example.com/b/last")
    );
}
