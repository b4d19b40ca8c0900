//! The library as a user's crate meets it: each test is a small
//! program a crawler engineer writes, which did not compile, or did the
//! wrong thing, before. A function returning a tokenizer over decoded
//! bytes; a reader loop that ends by itself; a line number taken inside a
//! `match` on a token; a `for_each_token` closure returning `()`; a `for`
//! loop over a tokenizer; `attribute("HREF")`; `set_state` in a `match`
//! arm. Positions are checked against a plain count of line breaks and
//! UTF-16 units, over the repository's own pages in many chunk sizes.

use std::io::{self, Read};
use std::path::Path;

use htmltok::encoding::{Sniffer, Source, KOI8_R, SHIFT_JIS, WINDOWS_1251};
use htmltok::{
    Config, Flow, Input, LineCol, LineIndex, Lines, OwnedToken, State, StreamTokenizer, Token,
    Tokenizer,
};

/// The repository's own pages (`corpus/pages`, `corpus/edge`): what a
/// fresh clone carries.
fn repo_pages() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut pages = Vec::new();
    for dir in ["pages", "edge"] {
        let dir = root.join(dir);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "html") {
                let name = path.display().to_string();
                pages.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    pages.sort();
    assert!(
        pages.len() >= 4,
        "the repository's corpus/ has too few pages: {}",
        pages.len()
    );
    pages
}

/// Line and column of every offset of `text` (at character boundaries;
/// `None` inside a character) by the plain definition, a character at a
/// time: CR, LF and CRLF are one line break; columns count UTF-16 units
/// from 1.
fn by_definition(text: &str) -> Vec<Option<LineCol>> {
    let mut table = vec![None; text.len() + 1];
    let mut at = LineCol { line: 1, col: 1 };
    let mut after_cr = false;
    for (i, c) in text.char_indices() {
        table[i] = Some(at);
        match c {
            '\n' if after_cr => {}
            '\r' | '\n' => {
                at = LineCol {
                    line: at.line + 1,
                    col: 1,
                }
            }
            _ => at.col += c.len_utf16(),
        }
        after_cr = c == '\r';
    }
    table[text.len()] = Some(at);
    table
}

// ---------------------------------------------------------------------------
// 1. A tokenizer over decoded text, returned from a function.

fn open(bytes: &[u8]) -> Tokenizer<'static> {
    Tokenizer::new(Input::decode(bytes)).into_owned()
}

fn open_file(path: &Path) -> io::Result<Tokenizer<'static>> {
    let bytes = std::fs::read(path)?;
    let decoded = Sniffer::new().decode(&bytes);
    // The decoded text of a legacy page is a new String: moved, not copied.
    Ok(Tokenizer::with_config(
        decoded.text.into_owned(),
        Config::new(),
    ))
}

fn texts(tok: Tokenizer<'_>) -> String {
    tok.owned()
        .filter_map(|t| match t {
            OwnedToken::Text(t) => Some(t),
            _ => None,
        })
        .collect()
}

#[test]
fn a_function_returns_a_tokenizer_over_decoded_bytes() {
    // "Привет" in KOI8-R, declared; "日本" in Shift_JIS, declared; "Grüße"
    // in windows-1252, undeclared; UTF-8.
    let pages: [(&[u8], &str); 4] = [
        (
            b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4",
            "Привет",
        ),
        (b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b", "日本"),
        (b"<p>Gr\xfc\xdfe", "Grüße"),
        ("<p>Grüße".as_bytes(), "Grüße"),
    ];
    for (bytes, text) in pages {
        let tok = {
            let copy = bytes.to_vec();
            open(&copy) // the bytes are gone after this block
        };
        assert_eq!(texts(tok), text);

        let path = std::env::temp_dir().join(format!("htmltok-api-{}.html", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let tok = open_file(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(texts(tok), text);
    }
}

#[test]
fn owned_tokenizers_give_the_tokens_of_borrowed_ones() {
    for (name, bytes) in repo_pages() {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let borrowed: Vec<_> = Tokenizer::new(&text).owned().collect();
        let owned: Vec<_> = Tokenizer::with_config(text.clone(), Config::new())
            .owned()
            .collect();
        assert_eq!(owned, borrowed, "{name}: from_text(String)");
        assert_eq!(
            open(&bytes).owned().count(),
            borrowed.len(),
            "{name}: decode"
        );
        // Made owned half-way: it goes on where it was.
        let mut tok = Tokenizer::new(&text);
        let mut first: Vec<_> = (0..borrowed.len() / 2)
            .map(|_| tok.next_token().unwrap().into_owned())
            .collect();
        first.extend(tok.into_owned());
        assert_eq!(first, borrowed, "{name}: into_owned half-way");
    }
}

// ---------------------------------------------------------------------------
// 2. A reader loop that ends by itself.

/// A reader that hands out at most `step` bytes a call and fails with
/// `Interrupted` every third call, as a socket may.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls % 3 == 0 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[test]
fn a_reader_loop_ends_by_itself_with_the_whole_documents_tokens() {
    for (name, bytes) in repo_pages() {
        let whole: Vec<_> = Tokenizer::with_config(
            Input::from_utf8_lossy(&bytes),
            Config::new().join_text(true),
        )
        .owned()
        .collect();
        for step in [1, 7, 4096, 1 << 20] {
            let reader = Trickle {
                bytes: &bytes,
                step,
                calls: 0,
            };
            let stream = StreamTokenizer::with_config(Config::new().join_text(true));
            let mut tokens = stream.read_from(reader);
            let mut got = Vec::new();
            // The loop a crawler writes: it ends when the input does.
            while let Some(token) = tokens.next_token().unwrap() {
                got.push(token.into_owned());
            }
            assert!(tokens.stream().is_finished());
            assert_eq!(got, whole, "{name} in {step}-byte reads");
            // And stays ended.
            assert!(tokens.next_token().unwrap().is_none());
        }
    }
}

#[test]
fn a_read_error_comes_back_and_the_stream_goes_on_after_it() {
    struct Flaky(usize);
    impl Read for Flaky {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.0 += 1;
            match self.0 {
                1 => {
                    buf[..5].copy_from_slice(b"<p>ab");
                    Ok(5)
                }
                2 => Err(io::Error::other("connection reset")),
                3 => {
                    buf[..4].copy_from_slice(b"c<b>");
                    Ok(4)
                }
                _ => Ok(0),
            }
        }
    }
    let mut tokens =
        StreamTokenizer::with_config(Config::new().join_text(true)).read_from(Flaky(0));
    assert!(matches!(tokens.next_token(), Ok(Some(Token::StartTag(t))) if t.name() == "p"));
    let err = tokens
        .next_token()
        .map(|t| t.map(|t| t.into_owned()))
        .unwrap_err();
    assert_eq!(err.to_string(), "connection reset");
    let rest: Vec<_> =
        std::iter::from_fn(|| tokens.next_token().unwrap().map(|t| t.into_owned())).collect();
    assert_eq!(
        rest,
        [
            OwnedToken::Text("abc".into()),
            OwnedToken::StartTag {
                name: "b".into(),
                attributes: vec![],
                self_closing: false
            },
            OwnedToken::Eof
        ]
    );
}

#[test]
fn a_decoding_reader_streams_a_legacy_page_from_disk() {
    // windows-1251 declared after 2 KB of head (a late <meta>), as a file.
    let mut page = b"<html><head><title>t</title>".to_vec();
    page.extend(b"<script>var x = 1;</script>\n".repeat(80));
    page.extend(b"<meta charset=windows-1251></head><body><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>");
    let path = std::env::temp_dir().join(format!("htmltok-api-1251-{}.html", std::process::id()));
    std::fs::write(&path, &page).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let mut tokens = StreamTokenizer::decoding(Sniffer::new(), Config::new()).read_from(file);
    let mut body = String::new();
    let mut in_p = false;
    while let Some(token) = tokens.next_token().unwrap() {
        match token {
            Token::StartTag(t) if t.name() == "p" => in_p = true,
            Token::Text(t) if in_p => body.push_str(t.as_str()),
            _ => {}
        }
    }
    std::fs::remove_file(&path).unwrap();
    assert_eq!(body, "Привет");
    let sniffed = tokens.stream().sniffed().unwrap();
    assert_eq!(
        (sniffed.encoding, sniffed.source),
        (WINDOWS_1251, Source::LateMeta)
    );
}

#[test]
fn is_finished_tells_the_two_nones_apart() {
    let mut stream = StreamTokenizer::new();
    let mut nones = Vec::new();
    for chunk in [&b"<p>o"[..], b"ne</p", b">"] {
        stream.feed(chunk);
        while stream.next_token().is_some() {}
        nones.push(stream.is_finished());
    }
    stream.finish();
    let mut last = None;
    while let Some(token) = stream.next_token() {
        last = Some(token.into_owned());
    }
    nones.push(stream.is_finished());
    assert_eq!(nones, [false, false, false, true]);
    assert_eq!(last, Some(OwnedToken::Eof));
}

// ---------------------------------------------------------------------------
// 3. A line number taken inside a `match` on a token.

#[test]
fn a_links_line_is_taken_inside_the_match_whole_and_streamed() {
    let page = "<p>intro\r\n<a href=/one>1</a>\n\n  <A HREF='/two'>2</A>\r<area href=/three>";
    let want = [(2, 1, "/one"), (4, 3, "/two"), (5, 1, "/three")];

    let mut tok = Tokenizer::new(page);
    let mut found = Vec::new();
    while let Some((token, lines)) = tok.next_token_with_lines() {
        found.extend(link_at(token, lines));
    }
    let want: Vec<_> = want.iter().map(|&(l, c, h)| (l, c, h.to_owned())).collect();
    assert_eq!(found, want);

    for size in 1..page.len() {
        let mut stream = StreamTokenizer::new();
        let mut found = Vec::new();
        for chunk in page.as_bytes().chunks(size).map(Some).chain([None]) {
            match chunk {
                Some(chunk) => stream.feed(chunk),
                None => stream.finish(),
            }
            while let Some((token, lines)) = stream.next_token_with_lines() {
                found.extend(link_at(token, lines));
            }
        }
        assert_eq!(found, want, "in {size}-byte chunks");
    }
}

/// A link's line, column and href, taken inside the `match` on its token.
fn link_at(token: Token<'_>, lines: Lines<'_>) -> Option<(usize, usize, String)> {
    match token {
        Token::StartTag(tag) if tag.name() == "a" || tag.name() == "area" => {
            let at = lines.line_col(tag.span().start);
            Some((at.line, at.col, tag.attribute("href")?.to_owned()))
        }
        _ => None,
    }
}

/// Every token's start and end, and every attribute value's start, by
/// `Lines`, against the definition; by a `LineIndex` over the input after
/// the tokens were dropped too.
#[test]
fn lines_agree_with_the_definition_on_every_token_whole_and_streamed() {
    for (name, bytes) in repo_pages() {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let table = by_definition(&text);
        let want = |offsets: &[usize]| -> Vec<LineCol> {
            offsets
                .iter()
                .map(|&o| table[o].expect("an offset inside a character"))
                .collect()
        };

        let mut tok = Tokenizer::new(&text);
        let mut tokens = 0;
        while let Some((token, lines)) = tok.next_token_with_lines() {
            let offsets = offsets_of(&token, text.len());
            let got: Vec<_> = offsets.iter().map(|&o| lines.line_col(o)).collect();
            assert_eq!(
                got,
                want(&offsets),
                "{name}: Tokenizer::next_token_with_lines"
            );
            tokens += 1;
        }
        assert!(tokens > 1);

        let mut tok = Tokenizer::new(&text);
        let mut dropped = Vec::new();
        while let Some(token) = tok.next_token() {
            dropped.push(offsets_of(&token, text.len()));
        }
        let mut index = LineIndex::new(tok.input());
        for offsets in &dropped {
            let got: Vec<_> = offsets.iter().map(|&o| index.line_col(o)).collect();
            assert_eq!(got, want(offsets), "{name}: LineIndex");
        }

        // Chunks small enough that the stream drops bytes many times
        // (16 KiB at a time at the least), and one chunk.
        for size in [1, 1000, 64 * 1024, 1 << 20] {
            let (mut checked, mut unreachable) = (0, 0);
            let mut stream = StreamTokenizer::new();
            for chunk in bytes.chunks(size).map(Some).chain([None]) {
                match chunk {
                    Some(chunk) => stream.feed(chunk),
                    None => stream.finish(),
                }
                while let Some((token, lines)) = stream.next_token_with_lines() {
                    // Exact at the token's start, and from `lines.start()`
                    // on, where the stream's text begins; between them (the
                    // part of a token in progress the stream dropped), the
                    // position at `lines.start()`.
                    let offsets = offsets_of(&token, text.len());
                    let reachable: Vec<_> = offsets
                        .iter()
                        .enumerate()
                        .map(|(i, &o)| if i == 0 { o } else { o.max(lines.start()) })
                        .collect();
                    unreachable += offsets[1..].iter().filter(|&&o| o < lines.start()).count();
                    let got: Vec<_> = offsets.iter().map(|&o| lines.line_col(o)).collect();
                    assert_eq!(got, want(&reachable), "{name} in {size}-byte chunks: Lines");
                    checked += offsets.len();
                }
            }
            // Only inside long tokens: the huge-attributes edge page.
            let limit = if size == 1 << 20 { 0 } else { 100 };
            assert!(unreachable <= limit, "{name} in {size}-byte chunks: {unreachable} of {checked} offsets before the window");
        }
    }
}

/// A token's start and end, and its attribute values' starts (the end of
/// the input for the end-of-file token).
fn offsets_of(token: &Token<'_>, len: usize) -> Vec<usize> {
    let Some(span) = token.span() else {
        return vec![len];
    };
    let mut offsets = vec![span.start, span.end];
    if let Token::StartTag(tag) = token {
        offsets.extend(tag.attributes().map(|a| a.value_span().start));
    }
    offsets
}

#[test]
fn a_streams_lines_count_the_bytes_it_dropped() {
    // 20,000 lines of 15 bytes before a link, in 100-byte chunks: the
    // stream has dropped most of them when the link comes.
    let mut page = "<p>x ü 😀 x\n".repeat(20_000);
    page.push_str("  <a href=/far>far</a>");
    let mut stream = StreamTokenizer::new();
    let mut at = None;
    for chunk in page.as_bytes().chunks(100) {
        stream.feed(chunk);
        while let Some((token, lines)) = stream.next_token_with_lines() {
            if let Token::StartTag(tag) = token {
                if tag.name() == "a" {
                    at = Some(lines.line_col(tag.span().start));
                }
            }
        }
    }
    assert!(
        stream.buffered_capacity() < page.len() / 4,
        "the stream kept the page"
    );
    assert_eq!(
        at,
        Some(LineCol {
            line: 20_001,
            col: 3
        })
    );
}

/// Tokens taken without their lines for the first part of each page, then
/// with them: the stream counted the lines of every byte it dropped in the
/// meantime (long lines without a break, CRLFs cut between chunks,
/// characters outside the BMP among them).
#[test]
fn a_streams_first_lines_asked_late_count_every_dropped_byte() {
    let mut pages = repo_pages();
    let minified = format!(
        "{}\r\n{}\r{}",
        "<p class=a>Grüße 😀 text</p>".repeat(3000),
        "<b>x</b>\r\n".repeat(2000),
        "<i>\u{e9}\u{20AC}</i>\n".repeat(3000)
    );
    pages.push(("minified".to_owned(), minified.into_bytes()));
    for (name, bytes) in pages {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let table = by_definition(&text);
        for size in [1000, 4096, 64 * 1024] {
            let mut stream = StreamTokenizer::new();
            let (mut plain, mut checked) = (0, 0);
            for chunk in bytes.chunks(size).map(Some).chain([None]) {
                match chunk {
                    Some(chunk) => stream.feed(chunk),
                    None => stream.finish(),
                }
                while plain < bytes.len() / 2 {
                    match stream.next_token() {
                        Some(token) => plain = token.span().map_or(plain, |s| s.end),
                        None => break,
                    }
                }
                if plain < bytes.len() / 2 {
                    continue;
                }
                while let Some((token, lines)) = stream.next_token_with_lines() {
                    let at = token.span().map_or(text.len(), |s| s.start);
                    if at >= lines.start() {
                        assert_eq!(
                            Some(lines.line_col(at)),
                            table[at],
                            "{name} in {size}-byte chunks at {at}"
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 0, "{name} in {size}-byte chunks");
        }
    }
}

// ---------------------------------------------------------------------------
// 4. Small type papercuts.

#[test]
fn a_for_each_token_closure_may_return_unit() {
    let page = "<p>One <b>two</b> three</p>";
    let mut words = 0;
    Tokenizer::new(page).for_each_token(|token| {
        if let Token::Text(t) = token {
            words += t.as_str().split_whitespace().count();
        }
    });
    assert_eq!(words, 3);

    let mut stream = StreamTokenizer::new();
    let mut texts = String::new();
    stream.feed(page.as_bytes());
    stream.finish();
    stream.for_each_token(|token| {
        if let Token::Text(t) = token {
            texts.push_str(t.as_str());
        }
    });
    assert_eq!(texts, "One two three");

    let mut tags = 0;
    StreamTokenizer::from_reader(page.as_bytes())
        .for_each_token(|token| {
            if let Token::StartTag(_) = token {
                tags += 1;
            }
        })
        .unwrap();
    assert_eq!(tags, 2);
}

#[test]
fn a_readers_for_each_token_stops_and_resumes() {
    let page = "<a>1</a>".repeat(20_000); // 160 KB: several reads
    let mut tokens = StreamTokenizer::from_reader(page.as_bytes());
    let mut seen = 0;
    tokens
        .for_each_token(|token| {
            if matches!(token, Token::StartTag(_)) {
                seen += 1;
                if seen == 15_000 {
                    return Flow::Stop;
                }
            }
            Flow::Continue
        })
        .unwrap();
    assert_eq!(seen, 15_000);
    assert!(!tokens.stream().is_finished());
    tokens
        .for_each_token(|token| {
            if matches!(token, Token::StartTag(_)) {
                seen += 1;
            }
        })
        .unwrap();
    assert_eq!(seen, 20_000);
    assert!(tokens.stream().is_finished());
}

#[test]
fn a_for_loop_over_a_tokenizer_takes_owned_tokens() {
    let mut hrefs = Vec::new();
    for token in Tokenizer::new("<a href=/x>x</a><a href=/y>") {
        if let OwnedToken::StartTag { attributes, .. } = token {
            hrefs.extend(attributes.into_iter().map(|(_, v)| v));
        }
    }
    assert_eq!(hrefs, ["/x", "/y"]);
}

#[test]
fn attribute_lookup_ignores_ascii_case() {
    let mut tok = Tokenizer::new("<A HREF=/x Data-Id=7 ÉTÉ=1 viewBox=v>");
    let Some(Token::StartTag(tag)) = tok.next_token() else {
        panic!()
    };
    assert_eq!(tag.attribute("href"), Some("/x"));
    assert_eq!(tag.attribute("HREF"), Some("/x"));
    assert_eq!(tag.attribute("Href"), Some("/x"));
    assert_eq!(tag.attribute("data-id"), Some("7"));
    assert_eq!(tag.attribute("DATA-ID"), Some("7"));
    assert_eq!(tag.attribute("viewBox"), Some("v"));
    // Only ASCII letters are lower-cased, in names and in lookups.
    assert_eq!(tag.attribute("ÉtÉ"), Some("1"));
    assert_eq!(tag.attribute("été"), None);
    assert_eq!(tag.attribute("hre"), None);
    assert_eq!(tag.attribute("hrefs"), None);
}

#[test]
fn set_state_compiles_inside_the_match_arm() {
    let page = "<title>a <b> c</title><textarea><p></textarea><p>";
    let mut tok = Tokenizer::with_config(page, Config::new().driven(true));
    let mut out = Vec::new();
    while let Some(token) = tok.next_token() {
        match token {
            Token::StartTag(tag) if tag.name() == "title" || tag.name() == "textarea" => {
                out.push(format!("<{}>", tag.name()));
                // The tag's last use was above: the tokenizer is free.
                tok.set_state(State::Rcdata);
            }
            other => out.push(format!("{:?}", other.into_owned())),
        }
    }
    assert_eq!(out[1], "Text(\"a <b> c\")");
    assert_eq!(out[4], "Text(\"<p>\")");
    assert_eq!(out.len(), 8);
}

// ---------------------------------------------------------------------------
// 5. Names a user can write; Debug on the public types.

#[test]
fn the_encodings_are_reachable_through_htmltok() {
    assert_eq!(
        Sniffer::new().sniff(b"<meta charset=koi8-r>").encoding,
        KOI8_R
    );
    assert_eq!(
        htmltok::encoding::prescan(b"<meta charset=sjis>"),
        Some(SHIFT_JIS)
    );
    assert_eq!(
        htmltok::encoding::Encoding::for_label(b"cp1252"),
        Some(htmltok::encoding::WINDOWS_1252)
    );
}

#[test]
fn public_types_debug_without_printing_the_page() {
    let page = "<p>".to_owned() + &"secret ".repeat(100);
    let mut tok = Tokenizer::new(&page);
    let (token, lines) = tok.next_token_with_lines().unwrap();
    let shown = [format!("{token:?}"), format!("{lines:?}")];
    assert!(shown.iter().all(|s| !s.contains("secret")), "{shown:?}");
    let stream = StreamTokenizer::new();
    let reader = StreamTokenizer::from_reader(page.as_bytes());
    let shown = [
        format!("{tok:?}"),
        format!("{stream:?}"),
        format!("{reader:?}"),
        format!("{:?}", Tokenizer::new(&page).owned()),
    ];
    for s in &shown {
        assert!(!s.contains("secret") && s.len() > 10, "{s}");
    }
    assert!(
        shown[0].starts_with("Tokenizer {") && shown[0].contains("state: Data"),
        "{}",
        shown[0]
    );
}

#[test]
fn tokenizers_stay_send_and_sync() {
    // Nothing in a tokenizer is a `Cell` or an `Rc`: one can be shared
    // between threads, or moved to one.
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Tokenizer<'static>>();
    send_sync::<Tokenizer<'static, htmltok::ReportErrors>>();
    send_sync::<StreamTokenizer>();
    send_sync::<htmltok::ReaderTokenizer<std::fs::File>>();
    send_sync::<Lines<'static>>();
    send_sync::<LineIndex<'static>>();
}
