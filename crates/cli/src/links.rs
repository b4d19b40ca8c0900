//! `htmltok links`: every link of the pages, one per line.

use htmltok::extract::{links_with, Page};
use url::Url;

use crate::jsonl::Object;
use crate::pipeline::{print_bytes, tsv_field, PageArgs};
use crate::CmdResult;

/// Print every link of the pages, one per line.
///
/// Every URL-bearing attribute counts (see htmltok::extract::Link for
/// which). Prints one JSON object per link, {"source", "url", "raw", "tag",
/// "attr", "offset"} ("url" null when the value does not resolve, as for
/// javascript: and data: URLs; "offset" is the byte offset of the value in
/// the decoded page; a link of a page from an archive also has "warc",
/// "warc_offset", "record_id", "status", "truncated", "content_coding"), or
/// with --format
/// tsv SOURCE, URL (empty when it does not resolve), TAG, ATTR separated
/// by tabs. A URL's query is written in
/// the page's encoding, as a browser sends it.
///
/// Pages are read with scripting on, as a browser with JavaScript reads
/// them: the links are those of the page it shows, and the content of
/// <noscript> is text. --no-scripting reads <noscript> as markup, for a
/// crawler that wants every URL (lazy-loading pages often name an image's
/// real URL only there).
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The URL of pages read from files and standard input, to resolve
    /// their links against (default: a file's file: URL). Pages from WARC
    /// archives resolve against their WARC-Target-URI
    #[arg(long, value_name = "URL", value_parser = Url::parse)]
    base: Option<Url>,
    /// jsonl: a JSON object per link; tsv: SOURCE, URL, TAG, ATTR
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// Read pages with scripting off: the links inside <noscript> count
    /// (with scripting on, the default, its content is text, as in a
    /// browser with JavaScript)
    #[arg(long)]
    no_scripting: bool,
    #[command(flatten)]
    pages: PageArgs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Jsonl,
    Tsv,
}

pub(crate) fn run(args: Args) -> CmdResult {
    print_bytes(&args.pages, &|page| {
        let decoded = Page::decode(&page.bytes, args.pages.transport(page));
        let base = match page.archived {
            Some(_) => page.url.as_ref(),
            None => args.base.as_ref().or(page.url.as_ref()),
        };
        // Given back to the page buffers once written.
        let mut out = args.pages.pool().buffer(4096);
        let options = decoded.link_options().scripting(!args.no_scripting);
        for link in links_with(&decoded.html, base, options) {
            match args.format {
                Format::Jsonl => Object::new(&mut out)
                    .str("source", &page.source)
                    .opt_str("url", link.url.as_deref())
                    .str("raw", &link.raw)
                    .str("tag", link.tag)
                    .str("attr", link.attr)
                    .num("offset", link.offset as u64)
                    .provenance(page, "warc_offset")
                    .end(),
                Format::Tsv => {
                    tsv_field(&mut out, &page.source);
                    out.push(b'\t');
                    tsv_field(&mut out, link.url.as_deref().unwrap_or(""));
                    out.push(b'\t');
                    out.extend_from_slice(link.tag.as_bytes());
                    out.push(b'\t');
                    out.extend_from_slice(link.attr.as_bytes());
                    out.push(b'\n');
                }
            }
        }
        out
    })
}
