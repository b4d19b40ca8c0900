//! The `html5ever` feature at a browser's edges: a byte order
//! mark left in decoded text, which html5ever's own parser drops, and a
//! charset declared late, through `parse_bytes` and `StreamParser`.
//! Trees are compared with html5ever's own parser's (into `RcDom`), in
//! html5lib's tree format, with the document's quirks mode.

use html5ever::tendril::TendrilSink;
use html5ever::{local_name, ns, QualName};
use htmltok::encoding::{Sniffer, Source, ISO_8859_2, WINDOWS_1252};
use htmltok::html5ever::{parse_bytes, parse_document, parse_fragment, ParseOpts, StreamParser};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use testkit::dom;

/// A page as `std::fs::read_to_string` gives it when the file starts with
/// a UTF-8 byte order mark.
const BOM_PAGE: &str =
    "\u{FEFF}<!DOCTYPE html><html><head><title>T</title></head><body><p>x</p></body></html>";

fn sink() -> RcDom {
    RcDom::default()
}

/// html5ever's own parser's tree of a page given as text.
fn html5ever_document(page: &str) -> RcDom {
    html5ever::parse_document(sink(), Default::default()).one(page)
}

/// The tree in html5lib's format, and its quirks mode.
fn tree(dom: &RcDom) -> (String, String) {
    (dom::document(dom), format!("{:?}", dom.quirks_mode.get()))
}

/// The element named `name` among `node`'s children.
fn child(node: &Handle, name: &str) -> Option<Handle> {
    node.children
        .borrow()
        .iter()
        .find(|c| matches!(&c.data, NodeData::Element { name: n, .. } if &*n.local == name))
        .cloned()
}

/// The text of `node`'s descendants, in document order.
fn text(node: &Handle) -> String {
    let mut out = String::new();
    for c in node.children.borrow().iter() {
        match &c.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            _ => out.push_str(&text(c)),
        }
    }
    out
}

/// The page's title as `html > head > title` finds it.
fn head_title(dom: &RcDom) -> Option<String> {
    let html = child(&dom.document, "html")?;
    let title = child(&child(&html, "head")?, "title")?;
    Some(text(&title))
}

/// `bytes` through a `StreamParser` in `chunk`-byte chunks.
fn streamed(bytes: &[u8], sniffer: Option<Sniffer>, chunk: usize) -> RcDom {
    let mut parser = match sniffer {
        Some(sniffer) => StreamParser::decoding(sink(), ParseOpts::default(), sniffer),
        None => StreamParser::new(sink(), ParseOpts::default()),
    };
    for piece in bytes.chunks(chunk) {
        parser.feed(piece);
    }
    parser.finish()
}

#[test]
fn a_bom_in_text_is_dropped_as_html5ever_drops_it() {
    let ours = parse_document(sink(), ParseOpts::default(), BOM_PAGE);
    let theirs = html5ever_document(BOM_PAGE);
    assert_eq!(tree(&ours), tree(&theirs));
    // The head holds the title, and the DOCTYPE counts: no quirks.
    assert_eq!(head_title(&ours).as_deref(), Some("T"));
    assert_eq!(tree(&ours).1, "NoQuirks");
    let without = parse_document(sink(), ParseOpts::default(), &BOM_PAGE[3..]);
    assert_eq!(tree(&ours), tree(&without));
    // The stream of UTF-8 bytes, the byte order mark cut anywhere.
    for chunk in [1, 2, 3, 4, 7, BOM_PAGE.len()] {
        let html = streamed(BOM_PAGE.as_bytes(), None, chunk);
        assert_eq!(tree(&html), tree(&theirs), "{chunk}-byte chunks");
    }
    // Bytes through the decoder, which drops the byte order mark itself.
    let (html, sniffed) = parse_bytes(
        sink(),
        ParseOpts::default(),
        BOM_PAGE.as_bytes(),
        Sniffer::new(),
    );
    assert_eq!(sniffed.source, Source::Bom);
    assert_eq!(tree(&html), tree(&theirs));
    for chunk in [1, 3, 64] {
        let html = streamed(BOM_PAGE.as_bytes(), Some(Sniffer::new()), chunk);
        assert_eq!(tree(&html), tree(&theirs), "decoding, {chunk}-byte chunks");
    }
    // With errors and line numbers, the same tree.
    let opts = ParseOpts {
        errors: true,
        line_numbers: true,
        ..ParseOpts::default()
    };
    assert_eq!(tree(&parse_document(sink(), opts, BOM_PAGE)), tree(&theirs));
}

#[test]
fn only_one_feff_is_a_byte_order_mark() {
    // Two at the start: html5ever's parser of UTF-8 bytes keeps both
    // through its decoder and its tokenizer drops one; the standard's
    // decoder drops one and its tokenizer keeps the other. Either way one
    // is text, which puts the page in quirks mode.
    let page = format!("\u{FEFF}{BOM_PAGE}");
    let theirs = html5ever::parse_document(sink(), Default::default())
        .from_utf8()
        .one(page.as_bytes());
    assert_eq!(tree(&theirs).1, "Quirks");
    assert_eq!(tree(&html5ever_document(&page)), tree(&theirs));
    assert_eq!(
        tree(&parse_document(sink(), ParseOpts::default(), &page)),
        tree(&theirs)
    );
    let (html, _) = parse_bytes(
        sink(),
        ParseOpts::default(),
        page.as_bytes(),
        Sniffer::new(),
    );
    assert_eq!(tree(&html), tree(&theirs));
    for chunk in [1, 2, 3, 5, 6, 7, 64] {
        assert_eq!(
            tree(&streamed(page.as_bytes(), None, chunk)),
            tree(&theirs),
            "{chunk}"
        );
        let decoding = streamed(page.as_bytes(), Some(Sniffer::new()), chunk);
        assert_eq!(tree(&decoding), tree(&theirs), "decoding, {chunk}");
    }
}

#[test]
fn a_fragment_drops_it_too() {
    let fragment = "\u{FEFF}<b>bold</b>";
    let context = || QualName::new(None, ns!(html), local_name!("body"));
    let theirs = html5ever::parse_fragment(sink(), Default::default(), context(), vec![], false)
        .one(fragment);
    let ours = parse_fragment(
        sink(),
        ParseOpts::default(),
        context(),
        vec![],
        false,
        fragment,
    );
    assert_eq!(dom::fragment(&ours), dom::fragment(&theirs));
    assert_eq!(dom::fragment(&ours), "| <b>\n|   \"bold\"\n");
    assert_eq!(text(&ours.document), "bold");
}

/// A page in ISO-8859-2 whose title's bytes come before its `<meta>`,
/// which comes after 1024 bytes, in the head; its body is long enough
/// that a stream decides (after the guess's 4096 bytes) before its end.
fn late_page() -> Vec<u8> {
    let mut page = b"<!DOCTYPE html><html><head><title>Za\xbf\xf3\xb3\xe6</title><!--".to_vec();
    page.extend(std::iter::repeat(b'-').take(1100));
    page.extend_from_slice(b"--><meta charset=iso-8859-2></head><body>");
    for _ in 0..500 {
        page.extend_from_slice(b"<p>g\xea\xb6l\xb1</p>");
    }
    page
}

#[test]
fn a_late_charset_whole_and_streamed() {
    let page = late_page();
    let sniffer = Sniffer::new().statistical_guess(false);
    // Whole: decoded again in the declared encoding.
    let (html, sniffed) = parse_bytes(sink(), ParseOpts::default(), &page, sniffer);
    assert_eq!(
        (sniffed.encoding, sniffed.source),
        (ISO_8859_2, Source::ChangedByMeta)
    );
    assert_eq!(head_title(&html).as_deref(), Some("Zażółć"));
    // Streamed: the tree is built as the bytes come, in the encoding
    // decided first; the parser says a `<meta>` declared another.
    for chunk in [1, 100, 1024, 2048] {
        let mut parser = StreamParser::decoding(sink(), ParseOpts::default(), sniffer);
        for piece in page.chunks(chunk) {
            parser.feed(piece);
        }
        let sniffed = parser.sniffed().expect("decided");
        assert_eq!(
            (sniffed.encoding, sniffed.source, sniffed.declared_late),
            (WINDOWS_1252, Source::Default, Some(ISO_8859_2)),
            "{chunk}-byte chunks"
        );
        let html = parser.finish();
        assert_eq!(
            head_title(&html).as_deref(),
            Some("Za¿ó³æ"),
            "{chunk}-byte chunks"
        );
    }
}
