//! Encoding sniffing and decoding (`htmltok::encoding`), on the corpus and
//! on pages made for the purpose: the sniffed encoding agrees with what the
//! page declares (the corpus's MANIFEST.tsv), the decoded text is
//! `encoding_rs`'s, and a decoding stream gives the whole document's tokens
//! for any chunking.

use encoding_rs::{Encoding, KOI8_R, SHIFT_JIS, UTF_16LE, UTF_8, WINDOWS_1252};
use htmltok::encoding::{Sniffer, Source, DETECT_LEN, PRESCAN_LEN};
use htmltok::{Config, StreamTokenizer, Tokenizer};
use testkit::data;
use testkit::json;

/// The whole document's tokens and errors as JSON, decoded by `sniffer`.
fn whole_json(bytes: &[u8], sniffer: Sniffer) -> String {
    let decoded = sniffer.decode(bytes);
    json::tokens_json(decoded.text.as_bytes(), Config::new(), true)
}

/// The same through a decoding stream fed `chunk`-byte chunks.
fn streamed_json(bytes: &[u8], sniffer: Sniffer, chunk: usize) -> String {
    let mut stream = StreamTokenizer::decoding(sniffer, Config::new().report_errors());
    let mut writer = json::Writer::new(Vec::new(), true);
    let mut chunks = bytes.chunks(chunk);
    loop {
        let next = chunks.next();
        match next {
            Some(c) => stream.feed(c),
            None => stream.finish(),
        }
        while let Some(token) = stream.next_token() {
            writer.token(&token).expect("writing to a Vec");
        }
        writer.errors(&stream.take_errors());
        if next.is_none() {
            break;
        }
    }
    String::from_utf8(writer.finish().expect("writing to a Vec")).expect("JSON is UTF-8")
}

/// The corpus manifests: page name to declared charset.
fn declared_charsets() -> Vec<(String, String)> {
    data::corpus_manifest()
        .into_iter()
        .map(|(name, row)| {
            let charset = row
                .get("declared_charset")
                .unwrap_or_else(|| panic!("MANIFEST.tsv has no declared_charset for {name}"));
            (name, charset.clone())
        })
        .collect()
}

/// The charset the manifest declares for the page `name`.
fn label_of<'a>(declared: &'a [(String, String)], name: &str) -> &'a str {
    &declared
        .iter()
        .find(|(f, _)| f == name)
        .unwrap_or_else(|| panic!("{name} is not in MANIFEST.tsv"))
        .1
}

/// A declared UTF-16 read from ASCII bytes means UTF-8 (the standard's
/// prescan rule).
fn as_prescan_gives(e: &'static Encoding) -> &'static Encoding {
    if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE {
        UTF_8
    } else {
        e
    }
}

/// `bytes` lower-cased, with every `<!--` up to its `-->` (or the end)
/// taken out.
fn without_comments(bytes: &[u8]) -> Vec<u8> {
    let lower = bytes.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut rest = &lower[..];
    while let Some(open) = memchr::memmem::find(rest, b"<!--") {
        out.extend_from_slice(&rest[..open]);
        rest = match memchr::memmem::find(&rest[open + 2..], b"-->") {
            Some(close) => &rest[open + 2 + close + 3..],
            None => &[],
        };
    }
    out.extend_from_slice(rest);
    out
}

#[test]
fn corpus_pages_sniff_as_they_declare() {
    let declared = declared_charsets();
    let pages = data::corpus_pages();
    let (mut by_bom, mut by_prescan, mut by_late, mut detected, mut by_default) = (0, 0, 0, 0, 0);
    for (name, bytes) in &pages {
        let label = label_of(&declared, name);
        let sniffed = Sniffer::new().sniff(bytes);
        if let Some(bom) = label.strip_suffix("(BOM)") {
            // The manifest names the BOM's encoding.
            let want = Encoding::for_label(bom.as_bytes()).expect("a BOM's label");
            assert_eq!(
                (sniffed.encoding, sniffed.source),
                (want, Source::Bom),
                "{name}"
            );
            by_bom += 1;
            continue;
        }
        let label = label.strip_prefix("xml:").unwrap_or(label);
        match sniffed.source {
            Source::Meta | Source::LateMeta => {
                // The manifest's declaration is the page's first `charset`;
                // the sniffer's is the first usable one.
                let want = Encoding::for_label(label.as_bytes())
                    .unwrap_or_else(|| panic!("{name}: sniffed {sniffed:?}, declared {label:?}"));
                assert_eq!(sniffed.encoding, as_prescan_gives(want), "{name}");
                if sniffed.source == Source::Meta {
                    by_prescan += 1;
                } else {
                    by_late += 1;
                }
            }
            Source::Guess | Source::Default => {
                // Nothing usable in the first 1024 bytes: then neither a
                // `charset` attribute there nor a Content-Type pragma with
                // the label (a `content` with "charset=" but no pragma, as
                // an X-UA-Compatible meta may have, does not count).
                // Comments removed: a declaration inside one is not one.
                let head = without_comments(&bytes[..bytes.len().min(PRESCAN_LEN - 40)]);
                let has = |s: &str| memchr::memmem::find(&head, s.as_bytes()).is_some();
                let declares = label != "none"
                    && (has("<meta charset")
                        || (has("http-equiv=\"content-type\"")
                            && has(&format!("charset={label}"))));
                assert!(
                    !declares,
                    "{name}: declares {label:?} early, sniffed {sniffed:?}"
                );
                if sniffed.source == Source::Default {
                    // Nothing to guess from.
                    assert!(bytes.is_ascii(), "{name}: not guessed, not ASCII");
                    by_default += 1;
                } else {
                    // UTF-8 is guessed only for valid UTF-8.
                    assert!(
                        sniffed.encoding != UTF_8 || std::str::from_utf8(bytes).is_ok(),
                        "{name} guessed UTF-8, is not"
                    );
                    detected += 1;
                }
            }
            other => panic!("{name}: source {other:?} without a transport or BOM"),
        }
    }
    eprintln!(
        "{} pages: {by_bom} by byte order mark, {by_prescan} by prescan, {by_late} by a later <meta>, {detected} guessed, {by_default} by default",
        pages.len()
    );
    // Most pages that declare an encoding do so early, as the standard
    // asks (the repository's edge cases mostly declare nothing).
    let declaring = pages
        .iter()
        .filter(|(name, _)| declared.iter().any(|(f, l)| f == name && l != "none"))
        .count();
    assert!(
        by_prescan * 2 > declaring,
        "only {by_prescan} of {declaring} declaring pages found by prescan"
    );
}

#[test]
fn decoded_text_is_encoding_rs_text() {
    for (name, bytes) in data::corpus_pages() {
        let decoded = Sniffer::new().decode(&bytes);
        // encoding_rs's own decode, BOM sniffing included, for the same
        // encoding; UTF-8 repaired as the standard library repairs it.
        let (want, used, _) = decoded.sniffed.encoding.decode(&bytes);
        assert_eq!(used, decoded.sniffed.encoding, "{name}");
        if used == UTF_8 {
            let body = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
            assert_eq!(decoded.text, String::from_utf8_lossy(body), "{name}");
        }
        assert!(
            decoded.text == want,
            "{name}: text differs from encoding_rs's"
        );
    }
}

#[test]
fn legacy_pages_keep_their_letters() {
    let declared = declared_charsets();
    let mut checked = 0;
    for (name, bytes) in data::corpus_pages() {
        if std::str::from_utf8(&bytes).is_ok() {
            continue;
        }
        let decoded = Sniffer::new().decode(&bytes);
        let lossy = String::from_utf8_lossy(&bytes).matches('\u{FFFD}').count();
        let left = decoded.text.matches('\u{FFFD}').count();
        eprintln!(
            "{name}: {:?} ({:?}), U+FFFD {lossy} as UTF-8, {left} decoded",
            decoded.sniffed.encoding.name(),
            decoded.sniffed.source
        );
        let label = label_of(&declared, &name);
        let declared_legacy = Encoding::for_label(label.as_bytes()).is_some_and(|e| e != UTF_8);
        let declared_here = matches!(decoded.sniffed.source, Source::Meta | Source::LateMeta);
        if declared_legacy && declared_here {
            // A page in the encoding it declares: nearly every byte
            // sequence is a character of it.
            assert!(left * 100 <= lossy, "{name}: {left} U+FFFD left of {lossy}");
            checked += 1;
        }
    }
    assert!(
        checked >= 5,
        "only {checked} legacy pages with a declaration"
    );
}

#[test]
fn a_decoding_stream_equals_the_whole_page_for_any_chunking() {
    for (name, bytes) in data::corpus_pages() {
        let whole = whole_json(&bytes, Sniffer::new());
        for chunk in [7, PRESCAN_LEN - 1, PRESCAN_LEN, PRESCAN_LEN + 1, 65536] {
            let streamed = streamed_json(&bytes, Sniffer::new(), chunk);
            assert!(
                streamed == whole,
                "{name} in {chunk}-byte chunks differs from whole"
            );
        }
    }
}

/// Hand-made pages whose chunks split what matters: a byte order mark, a
/// UTF-16 code unit or surrogate pair, a Shift_JIS character, the prescan's
/// 1024th byte, and pages shorter than the prescan.
#[test]
fn made_pages_in_every_chunk_size() {
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "<p title='𝄞'>héllo 𝄞</p>".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let (sjis, _, _) = SHIFT_JIS.encode("<p>日本語のテキスト、半角ｶﾅ</p>");
    let sjis_page = [b"<meta charset=shift_jis>".as_slice(), &sjis].concat();
    let mut late_meta = vec![b' '; PRESCAN_LEN - 12];
    late_meta.extend_from_slice(b"<meta charset=koi8-r><p>\xf0\xd2");
    let pages: Vec<(&str, Vec<u8>, &'static Encoding)> = vec![
        ("utf-16le with BOM", utf16, UTF_16LE),
        ("shift_jis by meta", sjis_page, SHIFT_JIS),
        (
            "utf-8 BOM",
            b"\xef\xbb\xbf<p>caf\xc3\xa9 \xe2\x82".to_vec(),
            UTF_8,
        ),
        ("meta past the prescan", late_meta.clone(), KOI8_R),
        (
            "meta after non-ASCII",
            [
                &b"<p>caf\xe9 cr\xe8me br\xfbl\xe9e, d\xe9j\xe0 l\xe0"[..],
                &late_meta,
            ]
            .concat(),
            WINDOWS_1252,
        ),
        (
            "short, undeclared",
            b"<p>Il \xe9tait d\xe9j\xe0 l\xe0, tr\xe8s s\xfbr de lui.".to_vec(),
            WINDOWS_1252,
        ),
        (
            "undeclared UTF-8",
            "<p>naïve, 日本".as_bytes().to_vec(),
            UTF_8,
        ),
        (
            "long ASCII, then UTF-8",
            [&[b'a'; 3000][..], "<p>é".as_bytes()].concat(),
            UTF_8,
        ),
        ("empty", Vec::new(), WINDOWS_1252),
    ];
    for (what, bytes, want) in &pages {
        let whole = whole_json(bytes, Sniffer::new());
        assert_eq!(Sniffer::new().sniff(bytes).encoding, *want, "{what}");
        for chunk in (1..=9).chain([1023, 1024, 1025, 4096]) {
            assert_eq!(
                streamed_json(bytes, Sniffer::new(), chunk),
                whole,
                "{what}, {chunk}-byte chunks"
            );
        }
    }
    // What the text decodes to, by hand.
    let text = |bytes: &[u8]| {
        let decoded = Sniffer::new().decode(bytes);
        let mut tok = Tokenizer::new(&decoded.text);
        let mut out = String::new();
        while let Some(t) = tok.next_token() {
            if let htmltok::Token::Text(t) = t {
                out.push_str(t.as_str());
            }
        }
        out
    };
    assert_eq!(text(&pages[0].1), "héllo 𝄞");
    assert_eq!(text(&pages[1].1), "日本語のテキスト、半角ｶﾅ");
    assert_eq!(text(&pages[2].1), "café \u{FFFD}");
    assert_eq!(text(&pages[3].1).trim(), "Пр");
    assert_eq!(text(&pages[5].1), "Il était déjà là, très sûr de lui.");
    assert_eq!(text(&pages[6].1), "naïve, 日本");
}

/// The text of the tokens `stream` hands out until it needs more input.
fn drain_text(stream: &mut StreamTokenizer) -> String {
    let mut text = String::new();
    while let Some(t) = stream.next_token() {
        if let htmltok::Token::Text(t) = t {
            text.push_str(t.as_str());
        }
    }
    text
}

#[test]
fn transport_charset_and_stream_report() {
    let page = b"<meta charset=koi8-r><p>\xcf\xf0";
    let mut stream = StreamTokenizer::decoding(
        Sniffer::new().transport(encoding_rs::WINDOWS_1251),
        Config::new(),
    );
    stream.feed(page);
    // Fewer than 1024 bytes: nothing decided, no token yet.
    assert!(stream.sniffed().is_none());
    assert!(stream.next_token().is_none());
    stream.finish();
    assert_eq!(drain_text(&mut stream), "Пр");
    let sniffed = stream.sniffed().expect("decided at finish");
    assert_eq!(
        (sniffed.encoding, sniffed.source),
        (encoding_rs::WINDOWS_1251, Source::Transport)
    );
}

/// An empty chunk before the first bytes changes nothing.
#[test]
fn decoding_after_an_empty_chunk() {
    let mut stream =
        StreamTokenizer::decoding(Sniffer::new().transport(encoding_rs::KOI8_R), Config::new());
    stream.feed(b"");
    stream.feed(b"<p>\xf0\xd2");
    stream.finish();
    assert_eq!(drain_text(&mut stream), "Пр");
}

/// A decoding stream holds at most its sniffing bytes beyond what a UTF-8
/// stream holds: 24 MB of pages of small tokens, in 64 KiB chunks, never
/// need more than a few chunks of memory, whatever decides the encoding.
#[test]
fn a_decoding_stream_stays_bounded() {
    const CHUNK: usize = 64 * 1024;
    let bodies: [(&str, &[u8], &[u8]); 4] = [
        (
            "declared windows-1252",
            b"<meta charset=windows-1252>",
            b"<p class=x>caf\xe9 cr\xe8me</p>\n",
        ),
        (
            "undeclared ASCII",
            b"",
            b"<p class=x>plain text &amp; more</p>\n",
        ),
        (
            "undeclared UTF-8",
            b"",
            "<p class=x>café crème</p>\n".as_bytes(),
        ),
        (
            "late meta, then KOI8-R",
            &[b' '; 2000],
            b"<meta charset=koi8-r><p>\xf0\xd2</p>\n",
        ),
    ];
    for (what, head, line) in bodies {
        let mut page = head.to_vec();
        while page.len() < 24 << 20 {
            page.extend_from_slice(line);
        }
        let mut stream = StreamTokenizer::decoding(Sniffer::new(), Config::new());
        let (mut peak, mut tokens) = (0, 0usize);
        for chunk in page.chunks(CHUNK) {
            stream.feed(chunk);
            while stream.next_token().is_some() {
                tokens += 1;
            }
            peak = peak.max(stream.buffered_capacity());
        }
        stream.finish();
        while stream.next_token().is_some() {
            tokens += 1;
        }
        assert!(tokens > page.len() / line.len(), "{what}: {tokens} tokens");
        assert!(peak <= 8 * CHUNK, "{what}: {peak} bytes buffered");
        eprintln!("{what}: peak buffered {peak} B, {:?}", stream.sniffed());
    }
}

// ---------------------------------------------------------------------------
// The guess: undeclared pages in legacy encodings.

/// `bytes` without the declarations the sniffer reads: every `<meta>` tag
/// that mentions a charset, and an XML declaration at the start.
fn without_declarations(bytes: &[u8]) -> Vec<u8> {
    let lower = bytes.to_ascii_lowercase();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    if lower.starts_with(b"<?xml") {
        if let Some(end) = memchr::memmem::find(&lower, b"?>") {
            at = end + 2;
        }
    }
    while let Some(open) = memchr::memmem::find(&lower[at..], b"<meta").map(|i| at + i) {
        let close = memchr::memchr(b'>', &lower[open..]).map_or(lower.len(), |i| open + i + 1);
        out.extend_from_slice(&bytes[at..open]);
        if memchr::memmem::find(&lower[open..close], b"charset").is_none() {
            out.extend_from_slice(&bytes[open..close]);
        }
        at = close;
    }
    out.extend_from_slice(&bytes[at..]);
    out
}

/// The encoding a corpus page is in, if it is a legacy-encoded page: one
/// in an ASCII-compatible encoding other than UTF-8 (and not valid UTF-8,
/// which pages mislabelled after a conversion are), as its manifest
/// declares, or, for the repository's undeclared `legacy/LABEL/` pages,
/// as its directory is named.
fn legacy_encoding(name: &str, label: &str, bytes: &[u8]) -> Option<&'static Encoding> {
    let label = label.strip_prefix("xml:").unwrap_or(label);
    let encoding = match Encoding::for_label(label.as_bytes()) {
        Some(e) => e,
        None if label == "none" => {
            let dir = name.strip_prefix("legacy/")?.split('/').next()?;
            Encoding::for_label(dir.as_bytes())?
        }
        None => return None,
    };
    let legacy = encoding.is_ascii_compatible() && encoding != UTF_8;
    (legacy && std::str::from_utf8(bytes).is_err()).then_some(encoding)
}

/// The corpus's legacy-encoded pages (see [`legacy_encoding`]): name,
/// encoding, and the page without its declarations.
fn undeclared_legacy_pages() -> Vec<(String, &'static Encoding, Vec<u8>)> {
    let declared = declared_charsets();
    let pages: Vec<_> = data::corpus_pages()
        .into_iter()
        .filter_map(|(name, bytes)| {
            let encoding = legacy_encoding(&name, label_of(&declared, &name), &bytes)?;
            Some((name, encoding, without_declarations(&bytes)))
        })
        .collect();
    assert!(pages.len() >= 28, "only {} legacy pages", pages.len());
    pages
}

/// Each legacy-encoded page (the repository's and `$HTMLTOK_CORPUS`'s)
/// with its declarations taken out: the guess decodes it to the text its
/// declared encoding gives. All of the repository's pages, 90% of the
/// others; the rate per encoding is printed, also with more bytes to read.
#[test]
fn undeclared_legacy_pages_are_guessed_as_declared() {
    let repo = data::repo_corpus_dir();
    // (encoding, from the repository) -> (guessed right, pages) for each
    // guess length.
    let lens = [DETECT_LEN, PRESCAN_LEN, 16 * DETECT_LEN];
    let mut rates: std::collections::BTreeMap<(bool, &str), [(usize, usize); 3]> =
        Default::default();
    let mut wrong = Vec::new();
    for (name, encoding, page) in undeclared_legacy_pages() {
        let want = encoding.decode_without_bom_handling(&page).0;
        let from_repo = repo.join(&name).is_file();
        let rate = rates.entry((from_repo, encoding.name())).or_default();
        for (i, &len) in lens.iter().enumerate() {
            let decoded = Sniffer::new().guess_len(len).decode(&page);
            assert!(
                matches!(decoded.sniffed.source, Source::Guess | Source::Default),
                "{name}: a declaration is left: {:?}",
                decoded.sniffed
            );
            let right = decoded.text == want;
            rate[i].1 += 1;
            rate[i].0 += usize::from(right);
            if !right && len == DETECT_LEN {
                let fffd = |s: &str| s.matches('\u{FFFD}').count();
                wrong.push((
                    from_repo,
                    format!(
                        "{name}: {} guessed as {} (U+FFFD: {} as declared, {} as guessed)",
                        encoding.name(),
                        decoded.sniffed.encoding.name(),
                        fffd(&want),
                        fffd(&decoded.text)
                    ),
                ));
            }
        }
    }
    eprintln!("guessed right / legacy pages, declarations removed, guess reading {lens:?} bytes:");
    let (mut repo_pages, mut others, mut others_right) = (0, 0, 0);
    for ((from_repo, encoding), rate) in &rates {
        let rates: Vec<String> = rate.iter().map(|(r, n)| format!("{r}/{n}")).collect();
        let whose = if *from_repo { "repo" } else { "HTMLTOK_CORPUS" };
        eprintln!("  {whose:>14} {encoding:<13} {}", rates.join("  "));
        if *from_repo {
            repo_pages += rate[0].1;
        } else {
            others += rate[0].1;
            others_right += rate[0].0;
        }
    }
    for (_, what) in &wrong {
        eprintln!("  wrong: {what}");
    }
    assert!(
        repo_pages >= 28,
        "only {repo_pages} legacy pages in corpus/"
    );
    let repo_wrong: Vec<_> = wrong.iter().filter(|(r, _)| *r).map(|(_, w)| w).collect();
    assert!(repo_wrong.is_empty(), "guessed wrong: {repo_wrong:?}");
    assert!(
        others_right * 10 >= others * 9,
        "{others_right} of {others} HTMLTOK_CORPUS legacy pages guessed right"
    );
}

/// Pure ASCII is not guessed (the default reads it as every candidate
/// would), valid UTF-8 is guessed as UTF-8, and the text of either is the
/// input: on every corpus page with its declarations taken out.
#[test]
fn ascii_and_utf8_pages_are_unaffected() {
    let (mut ascii, mut utf8) = (0, 0);
    for (name, bytes) in data::corpus_pages() {
        let page = without_declarations(&bytes);
        if Encoding::for_bom(&page).is_some() {
            continue;
        }
        let Ok(text) = std::str::from_utf8(&page) else {
            continue;
        };
        let decoded = Sniffer::new().decode(&page);
        let want = if page.is_ascii() {
            ascii += 1;
            (WINDOWS_1252, Source::Default)
        } else {
            utf8 += 1;
            (UTF_8, Source::Guess)
        };
        let sniffed = decoded.sniffed;
        assert_eq!((sniffed.encoding, sniffed.source), want, "{name}");
        assert!(decoded.text == text, "{name}: text changed");
    }
    eprintln!("{ascii} ASCII pages, {utf8} UTF-8 pages");
    assert!(
        ascii >= 10 && utf8 >= 3,
        "{ascii} ASCII, {utf8} UTF-8 pages"
    );
}

/// A declaration wins over the guess: every legacy page, declared (by
/// `<meta>`, late `<meta>` or the transport) as an encoding other than the
/// one it is guessed to be in, is decoded as declared; and a page the
/// sniffer finds declared sniffs the same with the guess off.
#[test]
fn a_declared_page_is_never_overridden_by_the_guess() {
    for (name, bytes) in data::corpus_pages() {
        let sniffed = Sniffer::new().sniff(&bytes);
        if !matches!(sniffed.source, Source::Guess | Source::Default) {
            assert_eq!(
                Sniffer::new().statistical_guess(false).sniff(&bytes),
                sniffed,
                "{name}"
            );
        }
    }
    for (name, _, page) in undeclared_legacy_pages() {
        let guessed = Sniffer::new().sniff(&page).encoding;
        let other = if guessed == KOI8_R { SHIFT_JIS } else { KOI8_R };
        let meta = format!("<meta charset={}>", other.name());
        let early = [meta.as_bytes(), &page].concat();
        let late = [&[b' '; PRESCAN_LEN][..], meta.as_bytes(), &page].concat();
        for (how, sniffed) in [
            ("meta", Sniffer::new().sniff(&early)),
            ("late meta", Sniffer::new().sniff(&late)),
            ("transport", Sniffer::new().transport(other).sniff(&page)),
        ] {
            assert_eq!(sniffed.encoding, other, "{name}, declared by {how}");
        }
    }
}

/// Streams guess as whole pages do, for the undeclared legacy pages, at
/// chunk sizes around the guess's window, the default one and the shortest.
#[test]
fn a_guessing_stream_equals_the_whole_page() {
    for (name, _, page) in undeclared_legacy_pages() {
        for sniffer in [
            Sniffer::new(),
            Sniffer::new().guess_len(PRESCAN_LEN).tld("jp"),
        ] {
            let whole = whole_json(&page, sniffer);
            for chunk in [1, 2, 1023, 1024, 1025, 4095, 4096, 4097] {
                assert!(
                    streamed_json(&page, sniffer, chunk) == whole,
                    "{name} in {chunk}-byte chunks differs from whole ({sniffer:?})"
                );
            }
        }
    }
}
