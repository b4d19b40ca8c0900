//! One pass over the tokens: a light tree of the page's elements with the
//! statistics that choose its main content, and a recording of the text
//! [`text()`](super::super::text()) would write, each piece marked with the
//! element it belongs to.
//!
//! The tree follows the standard's tree builder where misnested and
//! unclosed markup would otherwise make nonsense of it: void elements,
//! the end tags a start tag implies (`p`, `li`, `dd`/`dt`, table parts,
//! `option`, headings), and end tags closing only what is "in scope".
//! Every such test is a comparison of two stack positions, kept in stacks
//! of their own, so each token costs constant time beyond the elements it
//! closes (each closed once): time is linear in the page.

use std::collections::HashMap;

use super::tags::{kind, Kind};
use super::words;
use crate::extract::text::{Role, Sink, State};
use crate::{Config, Flow, Tag, Token, Tokenizer};

/// No element: the root's parent.
pub(super) const NONE: u32 = u32::MAX;

/// An element of the page, with the statistics of its subtree.
#[derive(Clone, Debug)]
pub(super) struct Element {
    pub(super) kind: Kind,
    /// What its `class`, `id`, `role`, `itemprop` and hiding attributes
    /// say ([`words`]'s bits).
    pub(super) hints: u16,
    pub(super) parent: u32,
    /// The first element after its subtree: elements are numbered in
    /// document order, so its subtree is `self + 1..end`.
    pub(super) end: u32,
    /// The weighted length of its text (see [`measure`]).
    pub(super) chars: u32,
    /// Of which inside links.
    pub(super) link_chars: u32,
    pub(super) commas: u32,
    /// The text whose nearest block element this is: the length of its
    /// own paragraph, if it is one.
    pub(super) inline_chars: u32,
    pub(super) inline_link_chars: u32,
    pub(super) inline_commas: u32,
    /// For a link: its `href` in [`Tree::strings`] (`start..end`), or
    /// `NONE`.
    pub(super) href: (u32, u32),
}

/// What the recording holds, in document order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OpKind {
    /// Text (`Tree::strings[start..start + len]`), collapsed or kept as
    /// written.
    Text {
        keep_whitespace: bool,
    },
    BlockBreak,
    LineBreak,
    Tab,
    /// An element starts (for Markdown).
    Open,
    /// An element ends (for Markdown): by its end tag or by the tree's
    /// rules.
    Close,
}

/// One entry of the recording.
#[derive(Clone, Copy, Debug)]
pub(super) struct Op {
    pub(super) kind: OpKind,
    pub(super) element: u32,
    pub(super) start: u32,
    pub(super) len: u32,
}

/// The page as the main content's choice sees it.
#[derive(Debug)]
pub(super) struct Tree<'a> {
    pub(super) elements: Vec<Element>,
    pub(super) ops: Vec<Op>,
    /// The page.
    pub(super) html: &'a str,
    /// The texts that are not slices of the page (references decoded,
    /// newlines normalised), and links' `href`s.
    pub(super) strings: String,
    pub(super) title: Option<String>,
}

/// In an op's `start`: the text is in [`Tree::strings`], not the page.
const IN_STRINGS: u32 = 1 << 31;

/// The largest page the tree records: its offsets are `u32`s, of which
/// the top bit tells [`Tree::strings`] from the page, and the text the
/// tokenizer rewrites can be three times as long as the page (a NUL
/// becomes U+FFFD).
pub(super) const MAX_PAGE: usize = (IN_STRINGS / 4) as usize;

impl Tree<'_> {
    pub(super) fn text(&self, op: &Op) -> &str {
        let (source, start) = if op.start & IN_STRINGS != 0 {
            (self.strings.as_str(), (op.start & !IN_STRINGS) as usize)
        } else {
            (self.html, op.start as usize)
        };
        &source[start..start + op.len as usize]
    }

    /// A link's `href`.
    pub(super) fn href(&self, e: &Element) -> Option<&str> {
        let (start, end) = e.href;
        (start != NONE).then(|| &self.strings[start as usize..end as usize])
    }
}

/// A paragraph is text of at least this weighted length directly in a
/// block.
pub(super) const PARAGRAPH: u32 = 25;

/// The weighted length of `text`, and its commas.
///
/// Lengths compare the amount of reading in a text across scripts:
/// whitespace counts nothing, a character of an alphabet one, and a Han
/// character, kana or a Hangul syllable (each of which a word or most of
/// one) three, so that a Chinese paragraph is not judged shorter than its
/// translation. Commas are those of Latin, CJK and Arabic script.
pub(super) fn measure(text: &str) -> (u32, u32) {
    const LOW: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = LOW * 0x80;
    let bytes = text.as_bytes();
    let mut chars = 0;
    let mut commas = 0;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        if x & HIGH == 0 {
            // ASCII, most words: a byte is above b' ' exactly when adding
            // 0x5f sets its high bit (no carry leaves a byte); the comma's
            // byte is zero after the xor exactly when adding 0x7f leaves
            // its high bit clear.
            chars += ((x + LOW * 0x5f) & HIGH).count_ones();
            let c = x ^ (LOW * u64::from(b','));
            commas += (!(((c & !HIGH) + !HIGH) | c) & HIGH).count_ones();
        } else {
            let (w, c) = measure_bytes(bytes, at, at + 8);
            chars += w;
            commas += c;
        }
        at += 8;
    }
    let (w, c) = measure_bytes(bytes, at, bytes.len());
    (chars + w, commas + c)
}

/// [`measure`] of `bytes[from..to]`, a byte at a time (a comma's later
/// bytes may lie beyond `to`).
fn measure_bytes(bytes: &[u8], from: usize, to: usize) -> (u32, u32) {
    let mut chars = 0;
    let mut commas = 0;
    for at in from..to {
        let b = bytes[at];
        chars += u32::from(WEIGHT[b as usize]);
        match b {
            b',' => commas += 1,
            // U+060C ARABIC COMMA.
            0xd8 => commas += u32::from(bytes.get(at + 1) == Some(&0x8c)),
            // U+3001 IDEOGRAPHIC COMMA, U+FF0C FULLWIDTH COMMA.
            0xe3 => commas += u32::from(bytes.get(at + 1..at + 3) == Some(&[0x80, 0x81])),
            0xef => commas += u32::from(bytes.get(at + 1..at + 3) == Some(&[0xbc, 0x8c])),
            _ => {}
        }
    }
    (chars, commas)
}

/// Each byte's share of [`measure`]'s length: a character counts at its
/// first byte (continuation bytes count nothing), by the script its first
/// byte says: U+3000 to U+9FFF and the Hangul syllables from U+AC00
/// (first bytes E3 to ED, but for the Hangul-less start of EA, which is
/// rare and counted with them) three, others one.
const WEIGHT: [u8; 256] = {
    let mut w = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        w[b] = match b {
            0x21..=0x7f => 1,
            0xc0..=0xdf => 1,
            0xe3..=0xed => 3,
            0xe0..=0xef => 1,
            0xf0..=0xff => 1,
            _ => 0,
        };
        b += 1;
    }
    w
};

/// The recording: [`State`] writes here what `text()` would write.
struct Recorder<'a> {
    ops: Vec<Op>,
    html: &'a str,
    strings: String,
    /// The element the next op belongs to.
    element: u32,
    /// The measure of the text recorded since the builder last took it.
    chars: u32,
    commas: u32,
}

impl Recorder<'_> {
    fn op(&mut self, kind: OpKind) {
        self.ops.push(Op {
            kind,
            element: self.element,
            start: 0,
            len: 0,
        });
    }
}

impl Sink for Recorder<'_> {
    fn text(&mut self, text: &str, keep_whitespace: bool) {
        if text.is_empty() {
            return;
        }
        let (chars, commas) = measure(text);
        self.chars += chars;
        self.commas += commas;
        // Most texts are slices of the page: kept as its offsets. A text
        // the tokenizer rewrote is copied.
        let offset = (text.as_ptr() as usize).wrapping_sub(self.html.as_ptr() as usize);
        let in_page = offset
            .checked_add(text.len())
            .is_some_and(|end| end <= self.html.len());
        let start = if in_page {
            offset as u32
        } else {
            let start = self.strings.len() as u32 | IN_STRINGS;
            self.strings.push_str(text);
            start
        };
        self.ops.push(Op {
            kind: OpKind::Text { keep_whitespace },
            element: self.element,
            start,
            len: text.len() as u32,
        });
    }
    fn block_break(&mut self) {
        // Runs of breaks between blocks are one break to every reader.
        if let Some(last) = self.ops.last() {
            if last.kind == OpKind::BlockBreak && last.element == self.element {
                return;
            }
        }
        self.op(OpKind::BlockBreak);
    }
    fn line_break(&mut self) {
        self.op(OpKind::LineBreak);
    }
    fn tab(&mut self) {
        self.op(OpKind::Tab);
    }
}

/// Stack positions of the open elements that some test needs: the top of
/// each is the innermost such element (position 0 is the root's, which
/// bounds every scope). Indexed by the constants below, which are also
/// the bits of an element's membership (`Builder::member`).
type Positions = [Vec<u32>; 9];
/// Elements that bound "in scope".
const SCOPE: usize = 0;
/// ... and `button`: "in button scope".
const BUTTON_SCOPE: usize = 1;
/// ... and `ol`, `ul`: "in list item scope".
const LIST_SCOPE: usize = 2;
/// `html`, `table`, `template`: "in table scope".
const TABLE_SCOPE: usize = 3;
/// The standard's special elements.
const SPECIAL: usize = 4;
/// Special elements but `address`, `div`, `p`, which `li`, `dd` and `dt`
/// look past for one to close.
const SPECIAL_FOR_ITEMS: usize = 5;
const HEADINGS: usize = 6;
/// `dd` and `dt`.
const ITEMS: usize = 7;
/// `svg`, `math`.
const FOREIGN: usize = 8;

/// In `Builder::member`: the bits of the position stacks, then whether
/// the element is on the stack of blocks and counted as an open link.
const STACKS: u16 = (1 << 9) - 1;
const BLOCK: u16 = 1 << 9;
const LINK: u16 = 1 << 10;

fn top(stack: &[u32]) -> Option<u32> {
    stack.last().copied()
}

/// Builds the tree of `html` (at most [`MAX_PAGE`] bytes). `structure`:
/// whether the recording has the elements' starts and ends (for
/// Markdown); `hrefs`: whether links keep their `href` (for Markdown
/// links).
pub(super) fn build(html: &str, structure: bool, hrefs: bool) -> Tree<'_> {
    assert!(html.len() <= MAX_PAGE);
    let mut b = Builder {
        elements: Vec::with_capacity(html.len() / 64 + 8),
        stack: Vec::with_capacity(64),
        member: Vec::with_capacity(64),
        by_name: vec![Vec::new(); Kind::Other as usize + 1],
        names: HashMap::new(),
        name_of: Vec::with_capacity(html.len() / 64 + 8),
        pos: Default::default(),
        blocks: Vec::with_capacity(64),
        links: 0,
        hrefs: hrefs && structure,
        structure,
        class_hints: words::ClassHints::new(),
        state: State::new(Recorder {
            ops: Vec::with_capacity(html.len() / 32 + 8),
            html,
            strings: String::new(),
            element: 0,
            chars: 0,
            commas: 0,
        }),
    };
    b.push_element(Kind::Root, Kind::Root as u32, 0);
    let mut tok = Tokenizer::with_config(html, Config::new());
    tok.for_each_token(|token| {
        b.token(token);
        Flow::Continue
    });
    while b.stack.len() > 1 {
        b.pop();
    }
    b.pop();
    let title = b.state.title();
    let rec = b.state.out;
    Tree {
        elements: b.elements,
        ops: rec.ops,
        html,
        strings: rec.strings,
        title,
    }
}

struct Builder<'a> {
    elements: Vec<Element>,
    /// The open elements, outermost first.
    stack: Vec<u32>,
    /// For each open element, the position stacks that hold it (bits in
    /// the order of `Positions::stacks`).
    member: Vec<u16>,
    /// For each element name, the stack positions where one is open.
    by_name: Vec<Vec<u32>>,
    /// Names beyond [`Kind`]'s, numbered from `Kind::Other as u32 + 1`.
    names: HashMap<Box<str>, u32>,
    /// Each element's name number.
    name_of: Vec<u32>,
    pos: Positions,
    /// The open block elements (ids), innermost last.
    blocks: Vec<u32>,
    /// Open links.
    links: u32,
    hrefs: bool,
    /// Whether the recording has the elements' starts and ends (for
    /// Markdown).
    structure: bool,
    class_hints: words::ClassHints,
    state: State<Recorder<'a>>,
}

impl Builder<'_> {
    fn token(&mut self, token: Token<'_>) {
        match token {
            Token::StartTag(tag) => {
                let k = kind(tag.name());
                let foreign = !self.pos[FOREIGN].is_empty();
                if k == Kind::Root || k == Kind::Head {
                    self.state.out.element = self.current();
                    self.state.start_tag(Role::Inline, tag.self_closing());
                    return;
                }
                let name = if k == Kind::Other || foreign {
                    self.name_number(k, tag.name())
                } else {
                    k as u32
                };
                if !foreign {
                    self.close_implied(k);
                }
                // What has no text of its own says nothing by its name.
                let hints = if !k.is_void() { self.hints(&tag, k) } else { 0 };
                let id = self.push_element(k, name, hints);
                if k == Kind::A && self.hrefs {
                    if let Some(href) = tag.attribute("href") {
                        let s = &mut self.state.out.strings;
                        let start = s.len() as u32;
                        s.push_str(href.trim());
                        self.elements[id as usize].href = (start, s.len() as u32);
                    }
                }
                self.state.out.element = id;
                if self.structure {
                    self.state.out.op(OpKind::Open);
                }
                let self_closing = tag.self_closing();
                self.state.start_tag(k.role(), self_closing);
                if k.is_void() || (foreign && self_closing) || (k == Kind::Svg && self_closing) {
                    self.close(id);
                } else {
                    self.open(id, k, name);
                }
                self.take_text();
            }
            Token::EndTag(tag) => {
                self.state.out.element = self.current();
                let k = kind(tag.name());
                self.state.end_tag(k.role());
                self.take_text();
                self.end_tag(k, tag.name());
            }
            Token::Text(text) => {
                self.state.out.element = self.current();
                self.state.text(text.as_str());
                self.take_text();
            }
            _ => {}
        }
    }

    fn current(&self) -> u32 {
        *self.stack.last().unwrap_or(&0)
    }

    fn name_number(&mut self, k: Kind, name: &str) -> u32 {
        if k != Kind::Other {
            return k as u32;
        }
        if let Some(&n) = self.names.get(name) {
            return n;
        }
        let n = Kind::Other as u32 + 1 + self.names.len() as u32;
        self.names.insert(name.into(), n);
        self.by_name.push(Vec::new());
        n
    }

    fn hints(&mut self, tag: &Tag<'_>, k: Kind) -> u16 {
        let mut hints = 0;
        for attr in tag.attributes() {
            let value = attr.value();
            hints |= match attr.name() {
                "class" | "id" => self.class_hints.of(value),
                "role" => words::role_hints(value),
                "itemprop" => words::itemprop_hints(value),
                "hidden" if !value.eq_ignore_ascii_case("until-found") => words::HIDDEN,
                "aria-hidden" if value.eq_ignore_ascii_case("true") => words::HIDDEN,
                "style" if words::style_hides(value) => words::HIDDEN,
                _ => 0,
            };
        }
        // A `<time>` or an `<address>` is metadata wherever it is.
        if k == Kind::Address {
            hints |= words::META;
        }
        hints
    }

    /// Takes the measure of text the last token recorded into the open
    /// elements' statistics.
    fn take_text(&mut self) {
        let rec = &mut self.state.out;
        if rec.chars == 0 && rec.commas == 0 {
            return;
        }
        let (chars, commas) = (rec.chars, rec.commas);
        rec.chars = 0;
        rec.commas = 0;
        let current = self.current() as usize;
        let link = if self.links > 0 { chars } else { 0 };
        let e = &mut self.elements[current];
        e.chars += chars;
        e.commas += commas;
        e.link_chars += link;
        let block = *self.blocks.last().unwrap_or(&0) as usize;
        let e = &mut self.elements[block];
        e.inline_chars += chars;
        e.inline_commas += commas;
        e.inline_link_chars += link;
    }

    fn push_element(&mut self, kind: Kind, name: u32, hints: u16) -> u32 {
        let id = self.elements.len() as u32;
        self.elements.push(Element {
            kind,
            hints,
            parent: if id == 0 { NONE } else { self.current() },
            end: id + 1,
            chars: 0,
            link_chars: 0,
            commas: 0,
            inline_chars: 0,
            inline_link_chars: 0,
            inline_commas: 0,
            href: (NONE, NONE),
        });
        self.name_of.push(name);
        if id == 0 {
            self.open(0, Kind::Root, Kind::Root as u32);
        }
        id
    }

    /// Puts element `id` on the stack of open elements.
    fn open(&mut self, id: u32, k: Kind, name: u32) {
        let at = self.stack.len() as u32;
        self.stack.push(id);
        self.by_name[name as usize].push(at);
        let p = &mut self.pos;
        let foreign = !p[FOREIGN].is_empty();
        // Which position stacks hold this element: bits in the order of
        // `Positions::stacks`.
        let mut member = 0u16;
        let bit = |i: usize| 1u16 << i;
        if k == Kind::Svg || k == Kind::Math {
            member |= bit(FOREIGN);
        }
        if !foreign {
            if k.bounds_scope() {
                member |= bit(SCOPE) | bit(BUTTON_SCOPE) | bit(LIST_SCOPE);
            } else if k == Kind::Button {
                member |= bit(BUTTON_SCOPE);
            } else if k == Kind::Ol || k == Kind::Ul {
                member |= bit(LIST_SCOPE);
            }
            if k.bounds_table_scope() {
                member |= bit(TABLE_SCOPE);
            }
            if k.is_special() {
                member |= bit(SPECIAL);
                if !matches!(k, Kind::Address | Kind::Div | Kind::P) {
                    member |= bit(SPECIAL_FOR_ITEMS);
                }
            }
            if k.is_heading() {
                member |= bit(HEADINGS);
            }
            if k == Kind::Dd || k == Kind::Dt {
                member |= bit(ITEMS);
            }
            if k.is_block() {
                self.blocks.push(id);
                member |= BLOCK;
            }
            if k == Kind::A {
                self.links += 1;
                member |= LINK;
            }
        }
        let mut bits = member & STACKS;
        while bits != 0 {
            p[bits.trailing_zeros() as usize].push(at);
            bits &= bits - 1;
        }
        self.member.push(member);
    }

    /// Closes the innermost open element.
    fn pop(&mut self) {
        let Some(id) = self.stack.pop() else { return };
        let member = self.member.pop().unwrap_or(0);
        let name = self.name_of[id as usize];
        self.by_name[name as usize].pop();
        let mut bits = member & STACKS;
        while bits != 0 {
            self.pos[bits.trailing_zeros() as usize].pop();
            bits &= bits - 1;
        }
        if member & BLOCK != 0 {
            self.blocks.pop();
        }
        if member & LINK != 0 {
            self.links -= 1;
        }
        self.close(id);
    }

    /// Ends element `id` (popped, or void): its subtree is complete and
    /// its statistics go to its parent.
    fn close(&mut self, id: u32) {
        let end = self.elements.len() as u32;
        let e = &mut self.elements[id as usize];
        e.end = end;
        let (chars, link_chars, commas, parent) = (e.chars, e.link_chars, e.commas, e.parent);
        self.state.out.element = id;
        if self.structure {
            self.state.out.op(OpKind::Close);
        }
        if parent == NONE {
            return;
        }
        let pe = &mut self.elements[parent as usize];
        pe.chars += chars;
        pe.link_chars += link_chars;
        pe.commas += commas;
    }

    /// Pops open elements down to stack position `at`, inclusive.
    fn pop_to(&mut self, at: u32) {
        while self.stack.len() as u32 > at {
            self.pop();
        }
    }

    /// The position of the innermost open element named `name`, if it is
    /// above the innermost bound in `bounds` (or is that bound).
    fn in_scope(&self, name: u32, bounds: &[u32]) -> Option<u32> {
        let at = top(&self.by_name[name as usize])?;
        (at >= top(bounds).unwrap_or(0)).then_some(at)
    }

    /// The end tags a start tag of kind `k` implies.
    fn close_implied(&mut self, k: Kind) {
        if k.closes_p() {
            if let Some(at) = self.in_scope(Kind::P as u32, &self.pos[BUTTON_SCOPE]) {
                self.pop_to(at);
            }
        }
        let current = self.elements[self.current() as usize].kind;
        match k {
            _ if k.is_heading() && current.is_heading() => self.pop(),
            Kind::Li => {
                if let Some(at) = top(&self.by_name[Kind::Li as usize]) {
                    // The first `li` or special element down the stack.
                    if top(&self.pos[SPECIAL_FOR_ITEMS]) == Some(at) {
                        self.pop_to(at);
                    }
                }
            }
            Kind::Dd | Kind::Dt => {
                if let Some(at) = top(&self.pos[ITEMS]) {
                    if top(&self.pos[SPECIAL_FOR_ITEMS]) == Some(at) {
                        self.pop_to(at);
                    }
                }
            }
            Kind::Tr | Kind::Thead | Kind::Tbody | Kind::Tfoot => {
                // A row ends the open row and cell of the innermost table;
                // a table section also the open section.
                let table = top(&self.pos[TABLE_SCOPE]).unwrap_or(0);
                let parts: &[Kind] = if k == Kind::Tr {
                    &[Kind::Tr, Kind::Td, Kind::Th]
                } else {
                    &[
                        Kind::Tr,
                        Kind::Td,
                        Kind::Th,
                        Kind::Thead,
                        Kind::Tbody,
                        Kind::Tfoot,
                    ]
                };
                let outermost = parts
                    .iter()
                    .filter_map(|&r| top(&self.by_name[r as usize]))
                    .filter(|&at| at > table)
                    .min();
                if let Some(at) = outermost {
                    self.pop_to(at);
                }
            }
            Kind::Td | Kind::Th => {
                let table = top(&self.pos[TABLE_SCOPE]).unwrap_or(0);
                let cell = [Kind::Td, Kind::Th]
                    .iter()
                    .filter_map(|&c| top(&self.by_name[c as usize]))
                    .filter(|&at| at > table)
                    .min();
                if let Some(at) = cell {
                    self.pop_to(at);
                }
            }
            Kind::Option if current == Kind::Option => self.pop(),
            Kind::Optgroup => {
                if current == Kind::Option {
                    self.pop();
                }
                if self.elements[self.current() as usize].kind == Kind::Optgroup {
                    self.pop();
                }
            }
            Kind::A => {
                // An open link with nothing special inside it ends here.
                if let Some(at) = top(&self.by_name[Kind::A as usize]) {
                    if at > top(&self.pos[SPECIAL]).unwrap_or(0) {
                        self.pop_to(at);
                    }
                }
            }
            _ => {}
        }
    }

    fn end_tag(&mut self, k: Kind, name: &str) {
        if let Some(&root) = self.pos[FOREIGN].last() {
            // Foreign content: an end tag closes its element inside the
            // innermost `svg` or `math`, or that element itself.
            let n = self.name_number(k, name);
            if let Some(at) = top(&self.by_name[n as usize]) {
                if at >= root {
                    self.pop_to(at);
                    return;
                }
            }
            if k == Kind::Other {
                return;
            }
        }
        let n = k as u32;
        match k {
            Kind::Root | Kind::Head | Kind::Br => {}
            Kind::P => {
                if let Some(at) = self.in_scope(n, &self.pos[BUTTON_SCOPE]) {
                    self.pop_to(at);
                }
            }
            Kind::Li => {
                if let Some(at) = self.in_scope(n, &self.pos[LIST_SCOPE]) {
                    self.pop_to(at);
                }
            }
            _ if k.is_heading() => {
                if let Some(at) = top(&self.pos[HEADINGS]) {
                    if at >= top(&self.pos[SCOPE]).unwrap_or(0) {
                        self.pop_to(at);
                    }
                }
            }
            Kind::Table
            | Kind::Caption
            | Kind::Thead
            | Kind::Tbody
            | Kind::Tfoot
            | Kind::Tr
            | Kind::Td
            | Kind::Th => {
                if let Some(at) = self.in_scope(n, &self.pos[TABLE_SCOPE]) {
                    self.pop_to(at);
                }
            }
            _ if k.is_void() => {}
            Kind::Other => {
                let n = self.name_number(k, name);
                if let Some(at) = top(&self.by_name[n as usize]) {
                    if at > top(&self.pos[SPECIAL]).unwrap_or(0) {
                        self.pop_to(at);
                    }
                }
            }
            _ if k.is_special() => {
                if let Some(at) = self.in_scope(n, &self.pos[SCOPE]) {
                    self.pop_to(at);
                }
            }
            _ => {
                if let Some(at) = top(&self.by_name[n as usize]) {
                    if at > top(&self.pos[SPECIAL]).unwrap_or(0) {
                        self.pop_to(at);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree as nested names, `(kind parent)` for each element.
    fn shape(html: &str) -> Vec<(Kind, u32)> {
        build(html, false, false)
            .elements
            .iter()
            .map(|e| (e.kind, e.parent))
            .collect()
    }

    #[test]
    fn implied_end_tags() {
        use Kind::*;
        assert_eq!(shape("<p>a<p>b"), [(Root, NONE), (P, 0), (P, 0)]);
        assert_eq!(shape("<p>a<div>b</div>"), [(Root, NONE), (P, 0), (Div, 0)]);
        assert_eq!(
            shape("<ul><li>a<li>b<ul><li>c</ul><li>d</ul>"),
            [
                (Root, NONE),
                (Ul, 0),
                (Li, 1),
                (Li, 1),
                (Ul, 3),
                (Li, 4),
                (Li, 1)
            ]
        );
        assert_eq!(
            shape("<table><tr><td>a<td>b<tr><td>c</table>"),
            [
                (Root, NONE),
                (Table, 0),
                (Tr, 1),
                (Td, 2),
                (Td, 2),
                (Tr, 1),
                (Td, 5)
            ]
        );
        // An end tag closes nothing past a special element.
        assert_eq!(
            shape("<b><div>x</b>y</div>z"),
            [(Root, NONE), (B, 0), (Div, 1)]
        );
        // A stray end tag closes nothing.
        assert_eq!(
            shape("<div></span>x</div><p>"),
            [(Root, NONE), (Div, 0), (P, 0)]
        );
    }

    #[test]
    fn statistics_add_up() {
        let tree = build(
            "<div><p>Hello, world.</p><a href=x>link</a></div>",
            false,
            false,
        );
        let div = &tree.elements[1];
        assert_eq!(div.kind, Kind::Div);
        assert_eq!(div.chars, 12 + 4);
        assert_eq!(div.link_chars, 4);
        assert_eq!(div.commas, 1);
        assert_eq!(div.inline_chars, 4);
        assert_eq!(tree.elements[2].inline_chars, 12);
    }

    #[test]
    fn words_at_a_time_measure_as_bytes_one_by_one() {
        let cases = [
            "",
            "a",
            "a, b,c",
            " \t\n,,,,,,,,,,,,x",
            "\x7f\x00\x20\x21,",
            "ab cd ef gh ij, kl mn op qr",
            "Grüße, ihr Lieben, aus Köln und Düsseldorf",
            "中文，好、一二三四五六七八九十, and ASCII after it",
            "a\u{60c}b ~~~~~~~\u{ff0c}",
        ];
        for s in cases {
            for start in (0..s.len()).filter(|&i| s.is_char_boundary(i)) {
                let t = &s[start..];
                assert_eq!(measure(t), measure_bytes(t.as_bytes(), 0, t.len()), "{t:?}");
            }
        }
    }

    /// A text the tokenizer rewrote can be longer than the whole page (a
    /// reference to two characters, NUL made U+FFFD): it is copied, never
    /// taken for a slice of the page.
    #[test]
    fn rewritten_texts_longer_than_the_page() {
        for page in ["&nGt;", "<plaintext>\0\0\0\0\0\0\0\0\0\0\0\0\0"] {
            let tree = build(page, true, true);
            let texts: String = tree
                .ops
                .iter()
                .filter(|op| matches!(op.kind, OpKind::Text { .. }))
                .map(|op| tree.text(op))
                .collect();
            assert_eq!(texts, crate::extract::text(page).text, "{page:?}");
        }
    }

    #[test]
    fn han_weighs_more_than_letters() {
        assert_eq!(measure("ab c"), (3, 0));
        assert_eq!(measure("中文，好"), (10, 1));
        assert_eq!(measure("한국"), (6, 0));
        assert_eq!(measure("ไทย"), (3, 0));
    }
}
