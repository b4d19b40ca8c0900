//! lol_html 3, observing through source ranges (its fastest honest use: its
//! `name()`/`value()`/`text()` allocate a `String` each), its own
//! tree-builder simulator switching.

use std::cell::Cell;

use super::Seen;
use crate::inputs::Page;

pub fn run(page: &Page) -> Seen {
    use lol_html::html_content::{Comment, Doctype, Element, TextChunk};
    use lol_html::{doc_comments, doc_text, doctype, element, HtmlRewriter, Settings};

    let tokens = Cell::new(0usize);
    let sum = Cell::new(0usize);
    let add = |n: usize| {
        tokens.set(tokens.get() + 1);
        sum.set(sum.get() + n);
    };
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!("*", |el: &mut Element| {
            let mut n = el.source_location().bytes().len();
            for attr in el.attributes() {
                n += attr.name_source_location().map_or(0, |l| l.bytes().len());
                n += attr.value_source_location().map_or(0, |l| l.bytes().len());
            }
            add(n);
            Ok(())
        }))
        .append_document_content_handler(doc_text!(|t: &mut TextChunk| {
            add(t.as_str().len());
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(|c: &mut Comment| {
            add(c.source_location().bytes().len());
            Ok(())
        }))
        .append_document_content_handler(doctype!(|d: &mut Doctype| {
            add(d.source_location().bytes().len());
            Ok(())
        }));
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    let ok = rewriter.write(&page.bytes).is_ok() && rewriter.end().is_ok();
    Seen {
        tokens: if ok { tokens.get() } else { usize::MAX },
        sum: sum.get(),
    }
}
