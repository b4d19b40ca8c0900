//! `htmltok sniff`: each page's encoding and what decided it.

use htmltok::extract::sniff;

use crate::pipeline::{print_bytes, tsv_field, PageArgs};
use crate::CmdResult;

/// Print each page's encoding and what decided it.
///
/// One line per page: SOURCE, ENCODING (as encoding_rs names it:
/// UTF-8, windows-1252, Shift_JIS, GBK, ...) and RULE, separated by tabs.
/// RULE is what decided: bom (a byte order mark), transport (the HTTP
/// Content-Type charset, or --encoding), meta (a <meta> or XML declaration
/// in the first 1024 bytes), late-meta (a <meta> later, before any
/// non-ASCII byte), guess (a guess from the bytes, chardetng's, which
/// finds UTF-8 and the legacy encodings), default (windows-1252, for a
/// page that is pure ASCII), changed-by-meta (a <meta> in the head, after
/// non-ASCII bytes, declared another encoding than meta, guess or default
/// chose: a browser reads the page again in it, and so do links, text and
/// stats).
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pages: PageArgs,
}

pub(crate) fn run(args: Args) -> CmdResult {
    print_bytes(&args.pages, &|page| {
        let (encoding, rule) = sniff(&page.bytes, args.pages.transport(page));
        let mut out = Vec::with_capacity(page.source.len() + 32);
        tsv_field(&mut out, &page.source);
        out.push(b'\t');
        out.extend_from_slice(encoding.name().as_bytes());
        out.push(b'\t');
        out.extend_from_slice(rule.as_str().as_bytes());
        out.push(b'\n');
        out
    })
}
