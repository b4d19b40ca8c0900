//! Which elements hold the main content.
//!
//! A page's reading is in its paragraphs: blocks with enough text of
//! their own, mostly not links. Every step is a pass over the elements in
//! document order (a parent before its children) or the reverse, so
//! linear in the page:
//!
//! 1. **Good text**: each paragraph's length less its links, summed up
//!    the tree, leaving out paragraphs inside boilerplate (navigation,
//!    asides, hidden elements, blocks named as footers, share bars,
//!    related links, comments).
//! 2. **The root**: the element whose good text most outweighs the rest
//!    of its text (links, short fragments, boilerplate), by
//!    `good - LAMBDA * other`: it holds most of the reading and little
//!    else. An element the page names as its article's body
//!    (`itemprop=articleBody`, `entry-content`) weighs a little more.
//! 3. **Pruning** inside the root what is no reading matter: boilerplate
//!    as above, forms, headers and footers, blocks that are mostly links;
//!    never a block that holds most of the root's good text, whatever its
//!    name.
//!
//! Comment sections are added where they are when asked for; nothing
//! chosen where the page has text gives the largest block of text.

use super::tags::Kind;
use super::tree::{measure, Element, OpKind, Tree, PARAGRAPH};
use super::words::{BODY, BOILERPLATE, COMMENTS, HIDDEN, MAIN};

/// What the other text of a root costs against its good text.
const LAMBDA: f32 = 0.25;

/// How much more an element named as an article's body weighs as a root.
const BODY_WEIGHT: f32 = 1.1;

/// A sibling of the root, or of the root's parent, is kept when it has
/// at least this share of the root's good text...
const SIBLING_SHARE: f32 = 0.02;

/// ... and its own text is mostly good text, by this share.
const SIBLING_PURITY: f32 = 0.7;

/// What [`choose`] keeps: the elements, and the recording's stretch
/// from the first good paragraph's text to the last one's, outside which
/// only headings (before), lists, tables and code are kept.
pub(super) struct Choice {
    /// By element.
    pub(super) kept: Vec<bool>,
    /// By element: kept outside the stretch too.
    pub(super) anywhere: Vec<bool>,
    /// The stretch, as indices of the recording.
    pub(super) first: usize,
    pub(super) last: usize,
}

impl Choice {
    /// Whether the `i`th op of the recording, of element `e`, is kept.
    pub(super) fn keeps(&self, i: usize, e: usize) -> bool {
        self.kept[e] && ((self.first..=self.last).contains(&i) || self.anywhere[e])
    }
}

/// Which elements of `tree` are kept.
pub(super) fn choose(tree: &Tree, comments: bool) -> Choice {
    let kept = choose_elements(tree, comments);
    let elements = &tree.elements;
    let n = elements.len();
    let mode: u32 = std::env::var("MC_TRIM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    // Each element's nearest block, itself or an ancestor; and whether it
    // is inside a list, table or code.
    let mut block = vec![0u32; n];
    let mut anywhere = vec![false; n];
    for id in 0..n {
        let e = &elements[id];
        let parent = if id == 0 { 0 } else { e.parent as usize };
        block[id] = if e.kind.is_block() {
            id as u32
        } else {
            block[parent]
        };
        anywhere[id] = (id != 0 && anywhere[parent])
            || (matches!(
                e.kind,
                Kind::Ul | Kind::Ol | Kind::Dl | Kind::Table | Kind::Pre
            ) && link_density(e) < 0.3);
    }
    let paragraph = |op: &super::tree::Op| {
        let b = &elements[block[op.element as usize] as usize];
        matches!(op.kind, OpKind::Text { .. })
            && kept[op.element as usize]
            && b.inline_chars >= PARAGRAPH
            && b.inline_link_chars * 2 < b.inline_chars
    };
    let mut first = 0;
    let mut last = tree.ops.len();
    if mode & 1 != 0 {
        if let Some(i) = tree.ops.iter().rposition(paragraph) {
            last = i;
        }
    }
    if mode & 2 != 0 {
        if let Some(i) = tree.ops.iter().position(paragraph) {
            first = i;
        }
        for id in 0..n {
            if elements[id].kind.is_heading() {
                for a in &mut anywhere[id..elements[id].end as usize] {
                    *a = true;
                }
            }
        }
    }
    if mode == 0 {
        anywhere.iter_mut().for_each(|a| *a = true);
    }
    Choice {
        kept,
        anywhere,
        first,
        last,
    }
}

fn choose_elements(tree: &Tree, comments: bool) -> Vec<bool> {
    let elements = &tree.elements;
    let n = elements.len();
    if n == 0 {
        return Vec::new();
    }
    // The good text before names are read, which decides whether a name
    // is believed: a block that holds half the page's reading is not a
    // share bar, whatever it is called.
    let plain = good_text(elements, |_, e| {
        e.hints & HIDDEN != 0 || e.kind.is_boilerplate()
    });
    let page_good = plain[0];
    let bad_name = BOILERPLATE | if comments { 0 } else { COMMENTS };
    let good_with = |bad_name: u16| {
        good_text(elements, |id, e| {
            e.hints & HIDDEN != 0
                || e.kind.is_boilerplate()
                || (e.hints & bad_name != 0
                    && e.hints & (BODY | MAIN) == 0
                    && (e.hints & COMMENTS != 0 || plain[id] * 2.0 < page_good))
        })
    };
    if let Some(kept) = select(tree, &good_with(bad_name), bad_name, comments, false) {
        return kept;
    }
    // A page whose paragraphs are all in parts named as boilerplate (a
    // listing of teasers): the names that cover most of its reading are
    // not believed.
    let covering = covering_hints(elements, &plain, page_good / 2.0);
    let fewer = bad_name & !covering;
    if fewer != bad_name {
        if let Some(kept) = select(tree, &good_with(fewer), fewer, comments, true) {
            return kept;
        }
    }
    if let Some(kept) = select(tree, &plain, 0, comments, true) {
        return kept;
    }
    largest_block(tree)
}

/// The root with the most `good` text against the rest, its siblings that
/// are reading too, and what is pruned inside them (`bad_name`: the hints
/// that mark boilerplate); `None` if no element has more good text than
/// other, or nothing kept has text.
fn select(
    tree: &Tree,
    good: &[f32],
    bad_name: u16,
    comments: bool,
    listing: bool,
) -> Option<Vec<bool>> {
    let elements = &tree.elements;
    let n = elements.len();
    let debug = std::env::var_os("MC_DEBUG").is_some();
    let mass = |id: usize| -> f32 {
        let e = &elements[id];
        let other = e.chars as f32 - good[id];
        let name = if e.hints & BODY != 0 {
            BODY_WEIGHT
        } else {
            1.0
        };
        (good[id] - LAMBDA * other) * name
    };
    let mut root = 0;
    let mut best = 0.0;
    for id in 0..n {
        let m = mass(id);
        if m > best {
            root = id;
            best = m;
        }
    }
    if best <= 0.0 {
        return None;
    }
    if debug {
        eprintln!(
            "root {root} {:?} hints {:#x} chars {} good {}",
            elements[root].kind, elements[root].hints, elements[root].chars, good[root]
        );
    }

    let mut roots = vec![false; n];
    roots[root] = true;
    // Siblings of the root that are reading too: a lead paragraph, the
    // rest of a body split in two.
    if root != 0 {
        let p = elements[root].parent as usize;
        let mut child = p + 1;
        while child < elements[p].end as usize {
            let c = &elements[child];
            if child != root
                && good[child] >= PARAGRAPH as f32
                && good[child] >= SIBLING_SHARE * good[root]
                && good[child] >= SIBLING_PURITY * c.chars as f32
            {
                roots[child] = true;
            }
            child = c.end as usize;
        }
    }
    // Comment sections, when asked for, wherever they are.
    if comments {
        for (id, e) in elements.iter().enumerate() {
            if e.hints & COMMENTS != 0 && e.hints & (HIDDEN | BODY) == 0 && e.chars >= PARAGRAPH {
                roots[id] = true;
            }
        }
    }

    let root_good = good[root];
    let mut kept = vec![false; n];
    for id in 0..n {
        let e = &elements[id];
        let inherited = id != 0 && kept[e.parent as usize];
        if roots[id] {
            kept[id] = true;
        } else if inherited {
            let why = prune(e, good[id], root_good, bad_name, listing);
            kept[id] = why.is_none();
            if let (Some(why), true) = (why, debug) {
                eprintln!(
                    "pruned {id} {:?} ({why}) hints {:#x} chars {} good {}: {:?}",
                    e.kind,
                    e.hints,
                    e.chars,
                    good[id],
                    debug_text(tree, id)
                );
            }
        }
    }
    if let Ok(find) = std::env::var("MC_FIND") {
        for op in &tree.ops {
            if matches!(op.kind, OpKind::Text { .. }) && tree.text(op).contains(find.as_str()) {
                let mut id = op.element as usize;
                eprintln!("found in {id} (root {root}, mass {best})");
                loop {
                    let e = &elements[id];
                    eprintln!("  {id} {:?} hints {:#x} chars {} link {} inline {} good {} mass {} kept {} root {}", e.kind, e.hints, e.chars, e.link_chars, e.inline_chars, good[id], mass(id), kept[id], roots[id]);
                    if id == 0 {
                        break;
                    }
                    id = e.parent as usize;
                }
            }
        }
    }
    let kept_text = tree.ops.iter().any(|op| {
        matches!(op.kind, OpKind::Text { .. })
            && kept[op.element as usize]
            && measure(tree.text(op)).0 > 0
    });
    kept_text.then_some(kept)
}

/// Each element's good text: the length less links of the paragraphs in
/// its subtree, but those inside an element `outside` holds.
fn good_text(elements: &[Element], outside: impl Fn(usize, &Element) -> bool) -> Vec<f32> {
    let n = elements.len();
    // Whether each element is outside, inherited from its parent (the
    // parent's index is smaller: one pass in order).
    let mut out = vec![false; n];
    for id in 1..n {
        let e = &elements[id];
        out[id] = out[e.parent as usize] || outside(id, e);
    }
    let mut good = vec![0f32; n];
    for id in (0..n).rev() {
        let e = &elements[id];
        if !out[id] && e.kind.is_block() && e.inline_chars >= PARAGRAPH {
            let own = e.inline_chars as f32;
            let links = e.inline_link_chars as f32;
            if links * 2.0 < own {
                good[id] += own - links;
            }
        }
        if id > 0 {
            let g = good[id];
            good[e.parent as usize] += g;
        }
    }
    good
}

fn link_density(e: &Element) -> f32 {
    if e.chars == 0 {
        0.0
    } else {
        e.link_chars as f32 / e.chars as f32
    }
}

/// Why `e`, inside the chosen content, is left out with its subtree, if
/// it is: `good` is its good text, `root_good` the root's.
fn prune(
    e: &Element,
    good: f32,
    root_good: f32,
    bad_name: u16,
    listing: bool,
) -> Option<&'static str> {
    if e.hints & HIDDEN != 0 {
        return Some("hidden");
    }
    if e.kind.is_boilerplate() {
        return Some("kind");
    }
    // Most of the reading is the reading, whatever its name.
    if good * 2.0 >= root_good && good > 0.0 {
        return None;
    }
    if e.hints & bad_name != 0 && e.hints & BODY == 0 {
        return Some("name");
    }
    if e.kind == Kind::Figcaption {
        return Some("figcaption");
    }
    let kinds: &[Kind] = &[Kind::Footer, Kind::Form];
    if kinds.contains(&e.kind) {
        return Some("header, footer or form");
    }
    if !e.kind.is_block() || e.chars == 0 {
        return None;
    }
    let ld = link_density(e);
    if ld > 0.5 {
        return Some("links");
    }
    if ld > 0.25 && e.commas == 0 && e.chars < 200 && !(listing && good * 2.0 >= e.chars as f32) {
        return Some("some links");
    }
    None
}

/// The hints whose elements (the outermost of each) hold at least `share`
/// of `good` text together.
fn covering_hints(elements: &[Element], good: &[f32], share: f32) -> u16 {
    let n = elements.len();
    // The hints of each element's ancestors.
    let mut above = vec![0u16; n];
    let mut held = [0f32; 16];
    for id in 1..n {
        let e = &elements[id];
        let p = e.parent as usize;
        above[id] = above[p] | elements[p].hints;
        let new = e.hints & !above[id];
        for (bit, h) in held.iter_mut().enumerate() {
            if new & (1 << bit) != 0 {
                *h += good[id];
            }
        }
    }
    (0..16)
        .filter(|&bit| held[bit] > 0.0 && held[bit] >= share)
        .fold(0, |hints, bit| hints | 1 << bit)
}

/// The largest block of text, or all of it: for pages without a
/// paragraph anywhere.
fn largest_block(tree: &Tree) -> Vec<bool> {
    let elements = &tree.elements;
    let n = elements.len();
    let largest = (1..n)
        .filter(|&id| elements[id].hints & HIDDEN == 0)
        .max_by_key(|&id| elements[id].inline_chars)
        .unwrap_or(0);
    let mut kept = vec![false; n];
    if largest == 0 || elements[largest].inline_chars < PARAGRAPH {
        kept.iter_mut().for_each(|k| *k = true);
    } else {
        kept[largest..elements[largest].end as usize]
            .iter_mut()
            .for_each(|k| *k = true);
    }
    kept
}

/// The start of an element's text, for debugging.
fn debug_text(tree: &Tree, id: usize) -> String {
    let end = tree.elements[id].end as usize;
    let mut s = String::new();
    for op in &tree.ops {
        if (id..end).contains(&(op.element as usize)) {
            if let OpKind::Text { .. } = op.kind {
                s.push_str(tree.text(op));
                s.push(' ');
                if s.len() > 150 {
                    break;
                }
            }
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
