//! `htmltok text`: each page's title and text.

use htmltok::extract::Page;

use crate::jsonl::Object;
use crate::pipeline::{print, PageArgs};
use crate::CmdResult;

/// Print each page's title and text.
///
/// The text is what a reader sees (see htmltok::extract::PageText for
/// the rules): one JSON object per page, {"source", "encoding", "title",
/// "text"} ("title" null when the page has none; a page from an archive
/// also has "warc", "offset", "record_id", "status", "truncated",
/// "content_coding"), or with
/// --format plain
/// the text alone, for reading one page (pages after the first are each
/// preceded by a line holding a form feed).
#[derive(clap::Args)]
pub(crate) struct Args {
    /// jsonl: a JSON object per page; plain: the text
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    #[command(flatten)]
    pages: PageArgs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Jsonl,
    Plain,
}

pub(crate) fn run(args: Args) -> CmdResult {
    let mut first = true;
    let process = |page: &crate::read::PageIn| {
        let decoded = Page::decode(&page.bytes, args.pages.transport(page));
        let text = decoded.text();
        // Given back to the page buffers once written.
        let mut out = crate::read::page_buffer(text.text.len() + 64);
        match args.format {
            Format::Jsonl => Object::new(&mut out)
                .str("source", &page.source)
                .str("encoding", decoded.encoding_name())
                .opt_str("title", text.title.as_deref())
                .str("text", &text.text)
                .provenance(page, "offset")
                .end(),
            Format::Plain => {
                out.extend_from_slice(text.text.as_bytes());
                out.push(b'\n');
            }
        }
        out
    };
    let report = print(&args.pages, &process, &mut |out, bytes| {
        if !first && matches!(args.format, Format::Plain) {
            out.write_all(b"\x0c\n")?;
        }
        first = false;
        out.write_all(&bytes)?;
        crate::read::recycle(bytes);
        Ok(())
    })?;
    report.finish()
}
