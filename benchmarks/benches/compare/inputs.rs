//! The pages the engines run over: the corpus (`$HTMLTOK_CORPUS`, default
//! the repository's `corpus/`) with its manifest's categories, and two
//! synthetic 1 MB pages; and the groups they form.

use std::path::Path;

use testkit::data;
use testkit::rng::XorShift;

use crate::files;

/// One page, prepared before any timing.
pub struct Page {
    pub name: String,
    pub bytes: Vec<u8>,
    /// Lossy UTF-8 text for html5ever (shares its buffer when cloned).
    pub tendril: html5ever::tendril::StrTendril,
    pub category: Option<String>,
}

impl Page {
    pub fn new(name: String, bytes: Vec<u8>, category: Option<String>) -> Page {
        let text = String::from_utf8_lossy(&bytes);
        let tendril = html5ever::tendril::StrTendril::from_slice(&text);
        Page {
            name,
            bytes,
            tendril,
            category,
        }
    }
}

/// `file` → `category` from a corpus `MANIFEST.tsv` (columns named in its
/// first line), if there is one.
fn read_manifest(dir: &Path) -> Option<Vec<(String, String)>> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).ok()?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let file_col = header.iter().position(|&h| h == "file")?;
    let cat_col = header.iter().position(|&h| h == "category")?;
    Some(
        lines
            .filter_map(|line| {
                let cols: Vec<&str> = line.split('\t').collect();
                Some((
                    cols.get(file_col)?.to_string(),
                    cols.get(cat_col)?.to_string(),
                ))
            })
            .collect(),
    )
}

/// The real-page corpus and whether it came with a manifest.
pub fn load_corpus() -> (Vec<Page>, bool) {
    let configured = data::extra_corpus_dir();
    let dir = configured.clone().unwrap_or_else(data::repo_corpus_dir);
    let paths = files::html_pages(&dir);
    let (dir, paths) = if paths.is_empty() {
        let own = data::repo_corpus_dir();
        eprintln!(
            "note: no *.html pages under {} ({}); benchmarking the repository's own {} instead",
            dir.display(),
            if configured.is_some() {
                "from HTMLTOK_CORPUS"
            } else {
                "set HTMLTOK_CORPUS to use another directory"
            },
            own.display()
        );
        let own_paths = files::html_pages(&own);
        (own, own_paths)
    } else {
        (dir, paths)
    };
    let manifest = read_manifest(&dir);
    let mut paths = paths;
    paths.sort();
    let pages = paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            let name = path
                .strip_prefix(&dir)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned();
            let category = manifest.as_ref().and_then(|m| {
                m.iter()
                    .find(|(file, _)| *file == name)
                    .map(|(_, c)| c.clone())
            });
            Some(Page::new(name, bytes, category))
        })
        .collect();
    (pages, manifest.is_some())
}

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "river",
    "bridge", "council", "report", "market", "morning", "history", "language", "engineer",
    "village", "station", "question", "measure", "growth", "century", "browser", "document",
    "carefully", "recently", "important", "different", "traditional", "national", "public",
];

/// ~1 MB of paragraphs of plain text, no markup at all.
pub fn text_only() -> Vec<u8> {
    let mut rng = XorShift::new(0x7E47_0417);
    let mut s = String::new();
    while s.len() < 1_000_000 {
        for sentence in 0..3 + rng.below(6) {
            if sentence > 0 {
                s.push(' ');
            }
            for word in 0..6 + rng.below(16) {
                if word > 0 {
                    s.push(' ');
                }
                s.push_str(WORDS[rng.below(WORDS.len())]);
            }
            s.push('.');
        }
        s.push_str("\n\n");
    }
    s.into_bytes()
}

/// ~1 MB of nested divs, spans and links, each with several attributes.
pub fn tag_dense() -> Vec<u8> {
    let mut rng = XorShift::new(0x7A6D_E45E);
    let mut s = String::from("<!DOCTYPE html><html><head><title>grid</title></head><body>\n");
    let mut id = 0;
    while s.len() < 1_000_000 {
        id += 1;
        let w = WORDS[rng.below(WORDS.len())];
        s.push_str(&format!(
            "<div class=\"card col-{} row\" id=\"c{id}\" data-id=\"{id}\" data-kind=\"{w}\" \
             role=\"listitem\"><div class=\"media\"><a href=\"/p/{w}/{id}?ref=grid&amp;pos={id}\" \
             class=\"link link--{w}\" rel=\"noopener\" tabindex=\"0\"><img src=\"/i/{id}.webp\" \
             alt=\"{w}\" width=\"320\" height=\"240\" loading=\"lazy\"></a></div><div class=\"body\">\
             <span class=\"title\"><a href=\"/p/{id}\">{w}</a></span><span class=\"price\" \
             data-price=\"{}\">{}</span><ul class=\"tags\"><li><a href=\"/t/{w}\">{w}</a></li>\
             <li><a href=\"/t/x{id}\">x</a></li></ul></div></div>\n",
            rng.below(12),
            rng.below(1000),
            rng.below(1000),
        ));
    }
    s.push_str("</body></html>\n");
    s.into_bytes()
}

/// The groups: the corpus, its categories (with a manifest), the synthetic
/// pages.
pub fn groups<'p>(
    corpus: &'p [Page],
    has_manifest: bool,
    text: &'p Page,
    dense: &'p Page,
) -> Vec<(String, Vec<&'p Page>)> {
    let mut groups: Vec<(String, Vec<&Page>)> = vec![("corpus".into(), corpus.iter().collect())];
    if has_manifest {
        for category in [
            "article",
            "script-heavy",
            "cjk",
            "legacy-encoding",
            "large",
            "other",
        ] {
            let pages: Vec<&Page> = corpus
                .iter()
                .filter(|p| p.category.as_deref() == Some(category))
                .collect();
            groups.push((category.into(), pages));
        }
    }
    groups.push(("text-only".into(), vec![text]));
    groups.push(("tag-dense".into(), vec![dense]));
    groups
}
