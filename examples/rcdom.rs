//! `markup5ever_rcdom` through htmltok: a page streamed from a file (or
//! stdin) into an `RcDom` by `htmltok::html5ever::StreamParser`, then its
//! outline printed: one line per element, indented by depth, with the
//! parse errors at the end.
//!
//! ```text
//! cargo run --features html5ever --example rcdom -- PAGE.html
//! echo '<p>One<p>Two<table><b>x' | cargo run --features html5ever --example rcdom
//! ```

use std::io::Read;
use std::process::ExitCode;

use htmltok::encoding::Sniffer;
use htmltok::html5ever::{ParseOpts, StreamParser};
use markup5ever_rcdom::{Handle, NodeData, RcDom};

fn outline(node: &Handle, depth: usize) {
    match &node.data {
        NodeData::Element { name, .. } => {
            println!("{:indent$}<{}>", "", name.local, indent = 2 * depth)
        }
        NodeData::Text { contents } => {
            let text = contents.borrow();
            let text = text.trim();
            if !text.is_empty() {
                let short: String = text.chars().take(40).collect();
                println!("{:indent$}{short:?}", "", indent = 2 * depth);
            }
        }
        _ => {}
    }
    for child in node.children.borrow().iter() {
        outline(child, depth + 1);
    }
}

fn main() -> ExitCode {
    let mut input: Box<dyn Read> = match std::env::args().nth(1) {
        Some(path) => match std::fs::File::open(&path) {
            Ok(file) => Box::new(file),
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => Box::new(std::io::stdin()),
    };
    let opts = ParseOpts {
        errors: true,
        ..ParseOpts::default()
    };
    // The parser is an `io::Write`: the page goes in as it is read.
    let mut parser = StreamParser::decoding(RcDom::default(), opts, Sniffer::new());
    if let Err(e) = std::io::copy(&mut input, &mut parser) {
        eprintln!("read error: {e}");
        return ExitCode::FAILURE;
    }
    let dom = parser.finish();
    for child in dom.document.children.borrow().iter() {
        outline(child, 0);
    }
    let errors = dom.errors.borrow();
    eprintln!("{} parse errors", errors.len());
    for error in errors.iter().take(10) {
        eprintln!("  {error}");
    }
    ExitCode::SUCCESS
}
