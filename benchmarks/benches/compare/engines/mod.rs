//! The engines, each doing the same work over a page: every token and
//! attribute looked at (string lengths summed into [`Seen`], so that
//! nothing can be optimised away) and the same naive tree-builder switches
//! after start tags. One file per engine (htmltok's variants share one).

mod ever;
mod floor;
mod gum;
mod lol;
mod ours;

use crate::inputs::Page;

/// One engine: a page in, what it saw out.
pub type Engine = fn(&Page) -> Seen;

/// Every engine, in the order of the tables.
pub const ENGINES: &[(&str, Engine)] = &[
    ("htmltok", ours::whole),
    ("htmltok-records", ours::records),
    ("htmltok-recording", ours::recording),
    ("htmltok-fields", ours::fields),
    ("htmltok-stream-64k", ours::stream_64k),
    ("htmltok-errors", ours::errors),
    ("htmltok-scalar", ours::scalar),
    ("htmltok-for-each", ours::for_each),
    ("html5ever", ever::run),
    ("html5gum", gum::run),
    ("lol_html", lol::run),
    ("memchr3", floor::run),
];

// ---------------------------------------------------------------------------
// The naive tree-builder switches, shared by the engines we drive.

#[derive(Clone, Copy)]
pub enum Switch {
    ScriptData,
    Rawtext,
    Rcdata,
    Plaintext,
}

/// The switch after a start tag with this (lower-case) name, and the name as
/// a `'static` string (for the last start tag).
pub fn naive_switch(name: &[u8]) -> Option<(Switch, &'static str)> {
    Some(match name {
        b"script" => (Switch::ScriptData, "script"),
        b"style" => (Switch::Rawtext, "style"),
        b"xmp" => (Switch::Rawtext, "xmp"),
        b"iframe" => (Switch::Rawtext, "iframe"),
        b"noembed" => (Switch::Rawtext, "noembed"),
        b"noframes" => (Switch::Rawtext, "noframes"),
        b"title" => (Switch::Rcdata, "title"),
        b"textarea" => (Switch::Rcdata, "textarea"),
        b"plaintext" => (Switch::Plaintext, "plaintext"),
        _ => return None,
    })
}

/// What an engine saw: tokens and a sum of string lengths.
#[derive(Default, Clone, Copy)]
pub struct Seen {
    pub tokens: usize,
    pub sum: usize,
}
