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
use super::words::{BODY, BOILERPLATE, COMMENTS, HIDDEN, MAIN, POPUP};

/// What the other text of a root costs against its good text.
const LAMBDA: f32 = 0.25;

/// How much more an element named as an article's body weighs as a root.
const BODY_WEIGHT: f32 = 1.1;

/// A sibling of the root, or of the root's parent, is kept when it has
/// at least this share of the root's good text...
const SIBLING_SHARE: f32 = 0.02;

/// ... and its own text is mostly good text, by this share.
const SIBLING_PURITY: f32 = 0.7;

/// A root with less than this share of the page's good text (before names
/// are read) is weak: the page's reading may be in parts whose names say
/// boilerplate (a forum thread of comments).
const WEAK_ROOT: f32 = 0.1;

/// What [`choose`] keeps: the elements, and the end of the reading.
pub(super) struct Choice {
    /// By element.
    pub(super) kept: Vec<bool>,
    /// By element: kept after the reading's end too (lists, tables, code).
    pub(super) after_end: Vec<bool>,
    /// The index in the recording of the last good paragraph's last text:
    /// the reading ends there.
    pub(super) end: usize,
}

impl Choice {
    /// Whether the `i`th op of the recording, of element `e`, is kept.
    pub(super) fn keeps(&self, i: usize, e: usize) -> bool {
        self.kept[e] && (i <= self.end || self.after_end[e])
    }
}

/// Which elements of `tree` are kept, and where its reading ends: with
/// its last good paragraph. What follows that inside the kept elements
/// is the short text around an article's end (a date, "Share this", a
/// "Related" heading whose list was pruned, a byline), but for lists,
/// tables and code, which have no paragraphs of their own.
pub(super) fn choose(tree: &Tree, comments: bool) -> Choice {
    let kept = choose_elements(tree, comments);
    let elements = &tree.elements;
    let n = elements.len();
    // Each element's nearest block, itself or an ancestor; and whether it
    // is inside a list, table or code that is not mostly links.
    let mut block = vec![0u32; n];
    let mut after_end = vec![false; n];
    for id in 0..n {
        let e = &elements[id];
        let parent = if id == 0 { 0 } else { e.parent as usize };
        block[id] = if e.kind.is_block() {
            id as u32
        } else {
            block[parent]
        };
        after_end[id] = (id != 0 && after_end[parent])
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
    let end = tree
        .ops
        .iter()
        .rposition(paragraph)
        .unwrap_or(tree.ops.len());
    Choice {
        kept,
        after_end,
        end,
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
    let plain = good_text(elements, PARAGRAPH, |_, e| {
        e.hints & HIDDEN != 0 || e.kind.is_boilerplate()
    });
    let page_good = plain[0];
    let bad_name = BOILERPLATE | if comments { 0 } else { COMMENTS };
    let good_with = |bad_name: u16| {
        good_text(elements, PARAGRAPH, |id, e| {
            e.hints & HIDDEN != 0
                || e.kind.is_boilerplate()
                || (e.hints & bad_name != 0
                    && e.hints & (BODY | MAIN) == 0
                    && (e.hints & COMMENTS != 0 || plain[id] * 2.0 < page_good))
        })
    };
    let first = select(tree, &good_with(bad_name), bad_name, comments, false);
    let first_good = first.as_ref().map_or(0.0, |(_, g)| *g);
    if first_good > WEAK_ROOT * page_good {
        if let Some((kept, _)) = first {
            return kept;
        }
    }
    // A page whose paragraphs are all (or nearly all) in parts named as
    // boilerplate (a listing of teasers, a forum thread of comments): the
    // names that cover most of its reading are not believed.
    let covering = covering_hints(elements, &plain, page_good / 2.0);
    let fewer = bad_name & !covering;
    if fewer != bad_name {
        if let Some((kept, good)) = select(tree, &good_with(fewer), fewer, comments, true) {
            if good > first_good {
                return kept;
            }
        }
    }
    if let Some((kept, _)) = first {
        return kept;
    }
    if let Some((kept, _)) = select(tree, &plain, 0, comments, true) {
        return kept;
    }
    // A page too short for a paragraph: any text of a block, not links,
    // is reading, and boilerplate is pruned as usual.
    let short = good_text(elements, 1, |_, e| {
        e.hints & HIDDEN != 0 || e.kind.is_boilerplate()
    });
    if let Some((kept, _)) = select(tree, &short, bad_name, comments, true) {
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
) -> Option<(Vec<bool>, f32)> {
    let elements = &tree.elements;
    let n = elements.len();
    // Headings, and lists and tables that are not links, cost a root
    // nothing: they belong to the reading they head or lay out.
    let mut free = vec![0f32; n];
    for id in (1..n).rev() {
        let e = &elements[id];
        let structure = e.kind.is_heading()
            || (matches!(e.kind, Kind::Ul | Kind::Ol | Kind::Dl | Kind::Table)
                && e.link_chars * 4 < e.chars);
        if structure {
            free[id] = (e.chars as f32 - good[id]).max(0.0);
        }
        let f = free[id];
        free[e.parent as usize] += f;
    }
    let mass = |id: usize| -> f32 {
        let e = &elements[id];
        let other = e.chars as f32 - good[id] - free[id];
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
    // Comment sections, when asked for, wherever they are but inside
    // boilerplate: the outermost element of each, so that what is pruned
    // inside one (its reply form, whose parts are named for comments too)
    // stays pruned.
    if comments {
        let mut inside = vec![false; n];
        for (id, e) in elements.iter().enumerate() {
            let named = e.hints & COMMENTS != 0;
            let boilerplate = e.kind.is_boilerplate() || e.hints & (bad_name | HIDDEN) != 0;
            let above = id != 0 && inside[e.parent as usize];
            inside[id] = above || named || boilerplate;
            if named && !above && !boilerplate && e.hints & BODY == 0 && e.chars >= PARAGRAPH {
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
            kept[id] = prune(e, good[id], root_good, bad_name, listing).is_none();
        }
    }
    let kept_text = tree.ops.iter().any(|op| {
        matches!(op.kind, OpKind::Text { .. })
            && kept[op.element as usize]
            && measure(tree.text(op)).0 > 0
    });
    kept_text.then_some((kept, good[root]))
}

/// Each element's good text: the length less links of the paragraphs (of
/// at least `paragraph` own text) in its subtree, but those inside an
/// element `outside` holds.
fn good_text(
    elements: &[Element],
    paragraph: u32,
    outside: impl Fn(usize, &Element) -> bool,
) -> Vec<f32> {
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
        if !out[id] && e.kind.is_block() && e.inline_chars >= paragraph {
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
    // A comment, when comments are asked for, is one whatever else its
    // names say (`comment-author-tom`, `bypostauthor`); the form to write
    // one is not.
    let bad_name = if e.hints & COMMENTS != 0 && bad_name & COMMENTS == 0 {
        bad_name & POPUP
    } else {
        bad_name
    };
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
    // A heading is short, and its anchor or edit link weighs much in it.
    if !e.kind.is_heading()
        && ld > 0.25
        && e.commas == 0
        && e.chars < 200
        && !(listing && good * 2.0 >= e.chars as f32)
    {
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
