//! The main-content extractor on the sample of trafilatura's evaluation
//! corpus that the repository carries (`corpus/main-content/`), scored by
//! that corpus's rules (`testkit::main_content_eval`): a regression in
//! what it keeps or drops fails here.

use htmltok::extract::{MainOptions, Page};
use testkit::data::repo_corpus_dir;
use testkit::main_content_eval::{self as eval, Counts};

/// Floors set below the values measured on the sample, so that a
/// regression fails and the noise of a few snippets (the sample has under
/// two hundred) does not.
const PRECISION_FLOOR: f64 = 0.9;
const RECALL_FLOOR: f64 = 0.94;

/// The sample's pages scored with `extract`, with the snippets that went
/// wrong named per page (for the failure message).
fn score_sample(extract: impl Fn(&Page<'_>) -> String) -> (Counts, usize, String) {
    let dir = repo_corpus_dir().join("main-content");
    let entries = eval::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let pages = eval::read_pages(&dir, &entries).unwrap_or_else(|e| panic!("{e}"));
    let mut total = Counts::default();
    let mut report = String::new();
    for page in &pages {
        let text = extract(&Page::decode(&page.bytes, None));
        let scored = eval::score(page.entry, Some(&text));
        total.add(scored.counts);
        for s in &scored.missed {
            report += &format!("{}: missed {s:?}\n", page.entry.file);
        }
        for s in &scored.found {
            report += &format!("{}: kept {s:?}\n", page.entry.file);
        }
    }
    (total, pages.len(), report)
}

#[test]
fn main_content_holds_its_floors_on_the_sample() {
    let (total, pages, report) = score_sample(|page| page.main_content(MainOptions::new()).text);
    assert!(pages >= 30, "the sample has {pages} pages");
    let (precision, recall) = (total.precision(), total.recall());
    assert!(
        precision >= PRECISION_FLOOR && recall >= RECALL_FLOOR,
        "main content on {pages} pages: precision {precision:.3} (floor {PRECISION_FLOOR}), \
         recall {recall:.3} (floor {RECALL_FLOOR}), {total:?}\n{report}"
    );
}

/// The sample and the scorer can tell: all visible text keeps nearly every
/// wanted snippet and most of the boilerplate, so it fails the precision
/// floor a main-content extractor must hold.
#[test]
fn all_text_keeps_the_boilerplate_of_the_sample() {
    let (total, _, report) = score_sample(|page| page.text().text);
    assert!(total.recall() >= 0.95, "{total:?}\n{report}");
    assert!(total.precision() < 0.6, "{total:?}");
    assert!(total.fp > total.tn, "{total:?}");
}
