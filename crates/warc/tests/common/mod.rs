//! What the archive tests written from real tools' output share: reading
//! an archive's events, and the few words in which they are compared.

#![allow(dead_code)] // each test crate uses its own part of this module

use std::path::Path;

use htmltok_warc::{Event, Reader, Skip, Source, Truncated};

/// Every event of the archive at `path`, read in order.
pub fn events_at(path: &Path) -> Vec<Event> {
    Reader::new(Source::from(path.to_path_buf()))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .collect()
}

/// One event, in the few words the assertions compare.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum Seen {
    Page {
        uri: String,
        status: Option<u16>,
        body: Vec<u8>,
        content_type: Option<String>,
        truncated: Option<Truncated>,
    },
    Skipped {
        kind: String,
        uri: Option<String>,
        reason: Skip,
    },
}

/// The events of an archive in the words of [`Seen`]; panics at a problem,
/// at a page whose coding failed, at a page not from a `response` record,
/// and at a record without an ID or a date (the tools whose output these
/// tests read write both on every record).
pub fn seen(name: &str, events: &[Event]) -> Vec<Seen> {
    events
        .iter()
        .map(|event| match event {
            Event::Page(page) => {
                assert_eq!(page.coding_failed, None, "{name}: {page:?}");
                assert_eq!(page.record.kind, "response", "{name}: {page:?}");
                assert!(page.record.record_id.is_some() && page.record.date.is_some());
                Seen::Page {
                    uri: page.record.target_uri.clone().expect("a target URI"),
                    status: page.status,
                    body: page.body.to_vec(),
                    content_type: page.content_type.clone(),
                    truncated: page.truncated.clone(),
                }
            }
            Event::Skipped(skipped) => {
                assert!(skipped.record.record_id.is_some() && skipped.record.date.is_some());
                Seen::Skipped {
                    kind: skipped.record.kind.clone(),
                    uri: skipped.record.target_uri.clone(),
                    reason: skipped.reason,
                }
            }
            Event::Problem(problem) => panic!("{name}: a problem: {problem}"),
        })
        .collect()
}

/// The target URIs of the pages among `seen`, in order.
pub fn pages(seen: &[Seen]) -> Vec<&str> {
    seen.iter()
        .filter_map(|s| match s {
            Seen::Page { uri, .. } => Some(uri.as_str()),
            _ => None,
        })
        .collect()
}
