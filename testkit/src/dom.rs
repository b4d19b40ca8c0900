//! An `RcDom` tree written in html5lib's tree-construction format (the
//! `#document` section of its `.dat` files, described in
//! `tests/html5lib-tree/README.md`): one line per node, `| ` and two spaces
//! per ancestor, attributes sorted as lines under their element, template
//! contents under a `content` line. Shared by the tree-construction tests
//! (`tests/conformance/html5ever_tree.rs`) and `benchmarks/benches/dom.rs`, which
//! compare trees this way. Only with this crate's `html5ever` feature.

use html5ever::{ns, Namespace};
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// The whole document: every child of the document node.
pub fn document(dom: &RcDom) -> String {
    let mut out = String::new();
    for child in dom.document.children.borrow().iter() {
        node(&mut out, child, 0);
    }
    out
}

/// A fragment parse's result: the children of the root `html` element the
/// fragment algorithm parses into.
pub fn fragment(dom: &RcDom) -> String {
    let mut out = String::new();
    let doc_children = dom.document.children.borrow();
    for root in doc_children.iter() {
        for child in root.children.borrow().iter() {
            node(&mut out, child, 0);
        }
    }
    out
}

fn line(out: &mut String, depth: usize) {
    out.push_str("| ");
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn node(out: &mut String, handle: &Handle, depth: usize) {
    line(out, depth);
    match &handle.data {
        NodeData::Document => out.push_str("#document\n"),
        NodeData::Doctype {
            name,
            public_id,
            system_id,
        } => {
            out.push_str("<!DOCTYPE ");
            out.push_str(name);
            if !public_id.is_empty() || !system_id.is_empty() {
                out.push_str(&format!(" \"{}\" \"{}\"", public_id, system_id));
            }
            out.push_str(">\n");
        }
        NodeData::Text { contents } => {
            out.push('"');
            out.push_str(&contents.borrow());
            out.push_str("\"\n");
        }
        NodeData::Comment { contents } => {
            out.push_str("<!-- ");
            out.push_str(contents);
            out.push_str(" -->\n");
        }
        NodeData::ProcessingInstruction { target, contents } => {
            out.push_str(&format!("<?{} {}>\n", target, contents));
        }
        NodeData::Element {
            name,
            attrs,
            template_contents,
            ..
        } => {
            out.push('<');
            out.push_str(element_prefix(&name.ns));
            out.push_str(&name.local);
            out.push_str(">\n");
            let mut attrs: Vec<(String, String)> = attrs
                .borrow()
                .iter()
                .map(|a| {
                    let prefix = attribute_prefix(&a.name.ns);
                    (format!("{prefix}{}", &*a.name.local), a.value.to_string())
                })
                .collect();
            // Sorted by UTF-16 code units, as the format says (UTF-8 byte
            // order differs for characters past U+FFFF).
            attrs.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            for (name, value) in attrs {
                line(out, depth + 1);
                out.push_str(&format!("{name}=\"{value}\"\n"));
            }
            if let Some(contents) = template_contents.borrow().as_ref() {
                line(out, depth + 1);
                out.push_str("content\n");
                for child in contents.children.borrow().iter() {
                    node(out, child, depth + 2);
                }
            }
        }
    }
    for child in handle.children.borrow().iter() {
        node(out, child, depth + 1);
    }
}

fn element_prefix(ns: &Namespace) -> &'static str {
    if *ns == ns!(svg) {
        "svg "
    } else if *ns == ns!(mathml) {
        "math "
    } else {
        ""
    }
}

fn attribute_prefix(ns: &Namespace) -> &'static str {
    if *ns == ns!(xlink) {
        "xlink "
    } else if *ns == ns!(xml) {
        "xml "
    } else if *ns == ns!(xmlns) {
        "xmlns "
    } else {
        ""
    }
}
