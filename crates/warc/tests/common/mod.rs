//! What the archive tests written from real tools' output share: reading
//! an archive's events, and the few words in which they are compared.

#![allow(dead_code)] // each test crate uses its own part of this module

use std::path::Path;

use htmltok_warc::{ErrorKind, Event, Pages, Skip, Source, Truncated};

/// Every event of the archive at `path`, read in order.
pub fn events_at(path: &Path) -> Vec<Event> {
    Pages::new(Source::from(path.to_path_buf()))
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

/// The events of an archive in the words of [`Seen`]; panics at a problem
/// (but the one that must follow each page that is not whole, once, naming
/// it and why, which is checked and left out), at a page whose coding
/// failed, at a page not from a `response` record, and at a record without
/// an ID or a date (the tools whose output these tests read write both on
/// every record).
pub fn seen(name: &str, events: &[Event]) -> Vec<Seen> {
    // A page not whole whose problem is still to come: its record number
    // and why it is cut.
    let mut unsaid: Option<(u64, Truncated)> = None;
    let seen = events
        .iter()
        .filter_map(|event| match event {
            Event::Page(page) => {
                assert_eq!(unsaid, None, "{name}: a cut page not said: {page:?}");
                assert_eq!(page.coding_failed, None, "{name}: {page:?}");
                assert_eq!(
                    page.record.record_type().as_str(),
                    "response",
                    "{name}: {page:?}"
                );
                assert!(page.record.record_id().is_some() && page.record.date().is_some());
                unsaid = page
                    .truncated
                    .clone()
                    .map(|cut| (page.record.number(), cut));
                Some(Seen::Page {
                    uri: page
                        .record
                        .target_uri()
                        .map(str::to_owned)
                        .expect("a target URI"),
                    status: page.status,
                    body: page.body.to_vec(),
                    content_type: page.content_type.clone(),
                    truncated: page.truncated.clone(),
                })
            }
            Event::Skipped(skipped) => {
                assert_eq!(unsaid, None, "{name}: a cut page not said: {skipped:?}");
                assert!(skipped.record.record_id().is_some() && skipped.record.date().is_some());
                Some(Seen::Skipped {
                    kind: skipped.record.record_type().to_string(),
                    uri: skipped.record.target_uri().map(str::to_owned),
                    reason: skipped.reason,
                })
            }
            Event::Problem(problem) => match unsaid.take() {
                Some((record, cut))
                    if problem.kind() == ErrorKind::Truncated
                        && problem.record() == Some(record)
                        && problem.message().starts_with(&cut.describe()) =>
                {
                    None
                }
                _ => panic!("{name}: a problem: {problem}"),
            },
        })
        .collect();
    assert_eq!(unsaid, None, "{name}: the last page is cut, not said");
    seen
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
