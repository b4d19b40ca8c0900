//! `htmltok::extract::links` against a plain `next_token` walk over every
//! page of the repository's `corpus/` (and `$HTMLTOK_CORPUS`, when set):
//! the same URL attributes, at the same offsets, with the same values.

use std::path::{Path, PathBuf};

use htmltok::extract::{links, Page};
use htmltok::{Token, Tokenizer};
use testkit::files::html_pages_required;

/// The repository's pages, and `$HTMLTOK_CORPUS`'s when it is set.
fn all_pages() -> Vec<PathBuf> {
    let mut paths = html_pages_required(&Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    if let Some(dir) = std::env::var_os("HTMLTOK_CORPUS").filter(|d| !d.is_empty()) {
        paths.extend(html_pages_required(Path::new(&dir)));
    }
    assert!(paths.len() >= 4, "too few pages found: {paths:?}");
    paths
}

/// The URL attributes of `htmltok::extract::Link`'s table, written out
/// plainly, independently of the library's own list.
fn is_url_attribute(tag: &str, attr: &str) -> bool {
    match attr {
        "href" => matches!(tag, "a" | "area" | "link"),
        "src" => matches!(
            tag,
            "img"
                | "script"
                | "iframe"
                | "frame"
                | "embed"
                | "source"
                | "track"
                | "audio"
                | "video"
        ),
        "srcset" => matches!(tag, "img" | "source"),
        "poster" => tag == "video",
        "data" => tag == "object",
        "action" => tag == "form",
        "formaction" => matches!(tag, "button" | "input"),
        "cite" => matches!(tag, "blockquote" | "q" | "del" | "ins"),
        _ => false,
    }
}

#[test]
fn links_equal_a_plain_token_walk() {
    let mut total = 0;
    for path in all_pages() {
        let bytes = std::fs::read(&path).unwrap();
        let page = Page::decode(&bytes, None);
        let html: &str = &page.html;
        // (tag, attr, offset, value) of every URL attribute, by next_token.
        let mut walked = Vec::new();
        let mut tok = Tokenizer::new(html);
        while let Some(token) = tok.next_token() {
            let Token::StartTag(tag) = token else {
                continue;
            };
            for attr in tag.attributes() {
                if is_url_attribute(tag.name(), attr.name()) {
                    walked.push((
                        tag.name().to_string(),
                        attr.name().to_string(),
                        attr.value_span().start,
                        attr.value().to_string(),
                    ));
                }
            }
            let refresh = tag.name() == "meta"
                && tag
                    .attribute("http-equiv")
                    .is_some_and(|v| v.eq_ignore_ascii_case("refresh"));
            if refresh {
                if let Some(content) = tag.attributes().find(|a| a.name() == "content") {
                    walked.push((
                        "meta".into(),
                        "content".into(),
                        content.value_span().start,
                        content.value().to_string(),
                    ));
                }
            }
        }
        let found = links(html, None);
        // Group the extracted links by attribute (a srcset gives one per
        // candidate, a refresh none when it names no URL).
        let mut at = 0;
        for (tag, attr, offset, value) in &walked {
            let mut raws = Vec::new();
            while at < found.len() && found[at].offset == *offset && found[at].attr == attr {
                assert_eq!(found[at].tag, tag, "{}", path.display());
                raws.push(found[at].raw.as_str());
                at += 1;
            }
            match attr.as_str() {
                "srcset" => {
                    // Each candidate is a piece of the value, in order.
                    let mut rest = value.as_str();
                    for raw in &raws {
                        let i = rest.find(raw).unwrap_or_else(|| {
                            panic!("{}: {raw:?} not in srcset {value:?}", path.display())
                        });
                        rest = &rest[i + raw.len()..];
                    }
                    assert_eq!(
                        raws.is_empty(),
                        value.trim().trim_matches(',').trim().is_empty(),
                        "{}: srcset {value:?} gave {raws:?}",
                        path.display()
                    );
                }
                "content" => {
                    assert!(raws.len() <= 1);
                    if let Some(raw) = raws.first() {
                        assert!(
                            value.contains(raw),
                            "{}: {raw:?} in {value:?}",
                            path.display()
                        );
                    }
                }
                _ => assert_eq!(
                    raws,
                    [value.as_str()],
                    "{}: {tag} {attr} at {offset}",
                    path.display()
                ),
            }
        }
        assert_eq!(
            at,
            found.len(),
            "{}: links the walk did not see",
            path.display()
        );
        total += found.len();
    }
    assert!(total > 100, "only {total} links in the corpus");
}
