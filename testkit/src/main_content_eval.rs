//! Scoring a main-content extractor against trafilatura's evaluation
//! corpus, by that corpus's own rules, for `cargo xtask main-content-eval`
//! and the test that holds the vendored sample (`corpus/main-content/`)
//! to precision and recall floors.
//!
//! The corpus is a directory (trafilatura's `tests/`) holding
//! `evaldata.json`: an object from a page's URL to `{"file": NAME,
//! "with": [...], "without": [...]}`, where `with` lists snippets of text
//! the main content must contain and `without` snippets of boilerplate it
//! must not. A page's file is looked up in the directory's `cache/` first,
//! then its `eval/` ([`resolve`]).
//!
//! A page is scored as trafilatura's evaluation scores it ([`score`]):
//! both the extractor's text and each snippet have their whitespace runs
//! collapsed to one space and are trimmed ([`normalize`]); a `with`
//! snippet found in the text (as a substring) is a true positive, one not
//! found a false negative; a `without` snippet found is a false positive,
//! one not found a true negative. The counts are summed over the corpus
//! and precision, recall and F1 are computed from the sums ([`Counts`]).
//! An extractor that gives nothing for a page (`None`) misses every
//! `with` snippet and avoids every `without` one.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// One annotated page of the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The page's URL (the key of `evaldata.json`).
    pub url: String,
    /// The page's file name, looked up by [`resolve`].
    pub file: String,
    /// Snippets the main content contains.
    pub with: Vec<String>,
    /// Snippets of boilerplate the main content leaves out.
    pub without: Vec<String>,
}

/// Reads `DIR/evaldata.json` (or the file itself when `path` is a file)
/// into entries sorted by URL, so that every run visits the pages in the
/// same order.
pub fn load(path: &Path) -> Result<Vec<Entry>, String> {
    let file = if path.is_dir() {
        path.join("evaldata.json")
    } else {
        path.to_path_buf()
    };
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// Parses the text of an `evaldata.json`; a malformed entry is an error
/// naming its URL (a corpus edit gone wrong must not score silently).
pub fn parse(json: &str) -> Result<Vec<Entry>, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let Value::Object(map) = value else {
        return Err("expected an object from URL to annotation".into());
    };
    let strings = |url: &str, item: &Value, key: &str| -> Result<Vec<String>, String> {
        let list = item
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{url}: {key:?} is not a list"))?;
        list.iter()
            .map(|s| {
                s.as_str()
                    .filter(|s| !s.trim().is_empty())
                    .map(str::to_owned)
                    .ok_or_else(|| format!("{url}: {key:?} holds an empty or non-string item"))
            })
            .collect()
    };
    let mut entries = map
        .iter()
        .map(|(url, item)| {
            let file = item
                .get("file")
                .and_then(Value::as_str)
                .filter(|f| !f.is_empty())
                .ok_or_else(|| format!("{url}: missing or empty \"file\""))?;
            Ok(Entry {
                url: url.clone(),
                file: file.to_owned(),
                with: strings(url, item, "with")?,
                without: strings(url, item, "without")?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    entries.sort_by(|a, b| a.url.cmp(&b.url));
    Ok(entries)
}

/// Where the page `file` of the corpus in `dir` is: `dir/cache/file` if
/// that exists, else `dir/eval/file` if that exists.
pub fn resolve(dir: &Path, file: &str) -> Option<PathBuf> {
    ["cache", "eval"]
        .iter()
        .map(|sub| dir.join(sub).join(file))
        .find(|p| p.is_file())
}

/// A page of the corpus, read.
#[derive(Clone, Debug)]
pub struct Page<'e> {
    /// Its annotation.
    pub entry: &'e Entry,
    /// The file it was read from.
    pub path: PathBuf,
    /// Its bytes, as fetched.
    pub bytes: Vec<u8>,
}

/// Reads the page of every entry (found by [`resolve`]) of the corpus in
/// `dir`, in the entries' order; a missing page is an error naming it.
pub fn read_pages<'e>(dir: &Path, entries: &'e [Entry]) -> Result<Vec<Page<'e>>, String> {
    entries
        .iter()
        .map(|entry| {
            let path = resolve(dir, &entry.file)
                .ok_or_else(|| format!("{}: page not found: {}", entry.url, entry.file))?;
            let bytes =
                std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Ok(Page { entry, path, bytes })
        })
        .collect()
}

/// Whitespace as Python's `\s` and `str.strip()` read it in text: Unicode
/// white space, plus the four information separators (U+001C to U+001F)
/// that Python counts and Rust's `char::is_whitespace` does not.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `text` with every run of whitespace replaced by one space and the ends
/// trimmed: the form in which snippets and texts are compared.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The confusion counts of one page or of a whole corpus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `with` snippets found.
    pub tp: u64,
    /// `without` snippets found.
    pub fp: u64,
    /// `with` snippets missed.
    pub fn_: u64,
    /// `without` snippets avoided.
    pub tn: u64,
}

impl Counts {
    /// Adds another page's counts.
    pub fn add(&mut self, other: Counts) {
        self.tp += other.tp;
        self.fp += other.fp;
        self.fn_ += other.fn_;
        self.tn += other.tn;
    }

    /// `tp / (tp + fp)`, 0 when nothing was found.
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }

    /// `tp / (tp + fn)`, 0 when nothing was expected.
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }

    /// `(tp + tn) / all`.
    pub fn accuracy(&self) -> f64 {
        ratio(self.tp + self.tn, self.tp + self.tn + self.fp + self.fn_)
    }

    /// The harmonic mean of precision and recall, `2tp / (2tp + fp + fn)`.
    pub fn f1(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }
}

fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

/// One page scored: its counts and the snippets that went wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scored<'e> {
    /// The page's counts.
    pub counts: Counts,
    /// The `with` snippets the text misses.
    pub missed: Vec<&'e str>,
    /// The `without` snippets the text contains.
    pub found: Vec<&'e str>,
}

/// Scores the extractor's `text` for one page (`None`: the extractor gave
/// nothing, or failed).
pub fn score<'e>(entry: &'e Entry, text: Option<&str>) -> Scored<'e> {
    let text = text.map(normalize);
    let contains = |snippet: &str| {
        text.as_deref()
            .is_some_and(|t| t.contains(&normalize(snippet)))
    };
    let mut scored = Scored::default();
    for w in &entry.with {
        if contains(w) {
            scored.counts.tp += 1;
        } else {
            scored.counts.fn_ += 1;
            scored.missed.push(w);
        }
    }
    for w in &entry.without {
        if contains(w) {
            scored.counts.fp += 1;
            scored.found.push(w);
        } else {
            scored.counts.tn += 1;
        }
    }
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(with: &[&str], without: &[&str]) -> Entry {
        Entry {
            url: "https://example.com/a".into(),
            file: "a.html".into(),
            with: with.iter().map(|s| s.to_string()).collect(),
            without: without.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn counts_each_snippet_once() {
        let e = entry(
            &["first paragraph", "second one", "absent"],
            &["Home", "Imprint"],
        );
        let s = score(&e, Some("first paragraph and second one\nHome Home"));
        assert_eq!(
            s.counts,
            Counts {
                tp: 2,
                fp: 1,
                fn_: 1,
                tn: 1
            }
        );
        assert_eq!(s.missed, ["absent"]);
        assert_eq!(s.found, ["Home"]);
    }

    #[test]
    fn whitespace_is_collapsed_on_both_sides() {
        // Line breaks, tabs, no-break and ideographic spaces are all one
        // space; a snippet's own spacing does not matter either.
        let e = entry(&["a  b\tc", "下 雨"], &[]);
        let s = score(&e, Some("\n x a\nb\u{a0}c \u{3000}下\u{3000}\u{3000}雨  "));
        assert_eq!(s.counts.tp, 2);
        // Python's `\s` takes the information separators too.
        assert_eq!(normalize("a\u{1f}b\u{1c}"), "a b");
        // But a word boundary is not whitespace: no match across a join.
        let joined = entry(&["a b"], &[]);
        assert_eq!(score(&joined, Some("ab")).counts.fn_, 1);
    }

    #[test]
    fn matching_is_case_and_punctuation_exact() {
        let e = entry(&["The Story."], &["home"]);
        let s = score(&e, Some("the story. Home"));
        assert_eq!(
            s.counts,
            Counts {
                tp: 0,
                fp: 0,
                fn_: 1,
                tn: 1
            }
        );
    }

    #[test]
    fn nothing_misses_all_and_avoids_all() {
        let e = entry(&["x", "y"], &["z"]);
        let none = score(&e, None).counts;
        assert_eq!(
            none,
            Counts {
                tp: 0,
                fp: 0,
                fn_: 2,
                tn: 1
            }
        );
        // An empty text is the same as nothing.
        assert_eq!(score(&e, Some("")).counts, none);
    }

    #[test]
    fn scores_come_from_the_sums() {
        let mut total = Counts::default();
        total.add(Counts {
            tp: 3,
            fp: 1,
            fn_: 0,
            tn: 2,
        });
        total.add(Counts {
            tp: 1,
            fp: 0,
            fn_: 3,
            tn: 1,
        });
        assert_eq!(
            total,
            Counts {
                tp: 4,
                fp: 1,
                fn_: 3,
                tn: 3
            }
        );
        assert_eq!(total.precision(), 0.8);
        assert_eq!(total.recall(), 4.0 / 7.0);
        assert_eq!(total.f1(), 8.0 / 12.0);
        assert_eq!(total.accuracy(), 7.0 / 11.0);
        assert_eq!(Counts::default().f1(), 0.0);
    }

    #[test]
    fn parses_and_sorts_entries() {
        let json = r#"{
            "https://b.example/": {"file": "b.html", "with": ["x"], "without": ["y", "z"]},
            "https://a.example/": {"file": "a.html", "with": ["p"], "without": ["q"]}
        }"#;
        let entries = parse(json).unwrap();
        assert_eq!(entries[0].url, "https://a.example/");
        assert_eq!(entries[1].without, ["y", "z"]);
        let bad = r#"{"https://a.example/": {"file": "a.html", "with": [" "], "without": []}}"#;
        assert!(parse(bad).unwrap_err().contains("https://a.example/"));
        assert!(parse(r#"{"u": {"with": [], "without": []}}"#).is_err());
        assert!(parse("[]").is_err());
    }

    #[test]
    fn resolves_cache_before_eval() {
        let dir = std::env::temp_dir().join(format!("htmltok-mce-{}", std::process::id()));
        for sub in ["cache", "eval"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        std::fs::write(dir.join("eval/both.html"), "e").unwrap();
        std::fs::write(dir.join("cache/both.html"), "c").unwrap();
        std::fs::write(dir.join("eval/only.html"), "e").unwrap();
        assert_eq!(
            resolve(&dir, "both.html"),
            Some(dir.join("cache/both.html"))
        );
        assert_eq!(resolve(&dir, "only.html"), Some(dir.join("eval/only.html")));
        assert_eq!(resolve(&dir, "none.html"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
