//! `htmltok text`: each page's title and text, or its main content.

use htmltok::extract::{MainOptions, Page};

use crate::jsonl::Object;
use crate::pipeline::{print, PageArgs};
use crate::{CmdResult, Failure};

/// Print each page's title and text, or its main content.
///
/// The text is what a reader sees (see htmltok::extract::PageText for
/// the rules): one JSON object per page, {"source", "encoding", "title",
/// "text"} ("title" null when the page has none; a page from an archive
/// also has "warc", "offset", "record_id", "status", "truncated",
/// "content_coding"), or with
/// --format plain
/// the text alone, for reading one page (pages after the first are each
/// preceded by a line holding a form feed).
///
/// With --main, "text" is the page's main content instead: the article,
/// post or documentation body, without navigation, footers, link lists,
/// share bars and comment sections (see htmltok::extract::main_content);
/// the same keys, "title" as without it. --comments keeps the comment
/// section, --markdown renders the main content as Markdown, --links writes
/// its links in the Markdown; each is an option of the main content, a
/// usage error without it. --format markdown prints each page's main
/// content as Markdown alone, separated as --format plain separates pages:
/// it implies --main and --markdown.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// jsonl: a JSON object per page; plain: the text; markdown: the main
    /// content as Markdown (implies --main and --markdown)
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// The page's main content (the article, without navigation, footers,
    /// link lists and comments) instead of all its text
    #[arg(long)]
    main: bool,
    /// Keep the comment section (readers' comments under an article) in
    /// the main content; needs --main or --format markdown
    #[arg(long)]
    comments: bool,
    /// The main content as Markdown (headings as #, lists, pipe tables,
    /// fenced code); needs --main
    #[arg(long)]
    markdown: bool,
    /// In Markdown, links as [text](href), the href as the page wrote it;
    /// needs --markdown or --format markdown
    #[arg(long)]
    links: bool,
    #[command(flatten)]
    pages: PageArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Jsonl,
    Plain,
    Markdown,
}

impl Args {
    /// The main content's options, `None` for all the text; a usage error
    /// for an option of the main content without it. Those options are
    /// refused rather than taken to imply --main, so that `text` without
    /// --main always means all the text, whatever else is given.
    fn main_options(&self) -> Result<Option<MainOptions>, Failure> {
        let markdown_format = self.format == Format::Markdown;
        let main = self.main || markdown_format;
        let markdown = self.markdown || markdown_format;
        let usage = |msg: &str| {
            Err(Failure::Usage(format!(
                "text: {msg} (try 'htmltok text --help')"
            )))
        };
        if self.comments && !main {
            return usage("--comments keeps the comment section of the main content: add --main");
        }
        if self.markdown && !main {
            return usage(
                "--markdown renders the main content: add --main (or use --format markdown)",
            );
        }
        if self.links && !markdown {
            return usage(
                "--links writes links in Markdown: add --main --markdown (or use --format markdown)",
            );
        }
        Ok(main.then(|| {
            MainOptions::new()
                .comments(self.comments)
                .markdown(markdown)
                .links(self.links)
        }))
    }
}

pub(crate) fn run(args: Args) -> CmdResult {
    let main = args.main_options()?;
    let mut first = true;
    let process = |page: &crate::read::PageIn| {
        let decoded = Page::decode(&page.bytes, args.pages.transport(page));
        let text = match main {
            Some(options) => decoded.main_content(options),
            None => decoded.text(),
        };
        // Given back to the page buffers once written.
        let mut out = args.pages.pool().buffer(text.text.len() + 64);
        match args.format {
            Format::Jsonl => Object::new(&mut out)
                .str("source", &page.source)
                .str("encoding", decoded.encoding_name())
                .opt_str("title", text.title.as_deref())
                .str("text", &text.text)
                .provenance(page, "offset")
                .end(),
            Format::Plain | Format::Markdown => {
                out.extend_from_slice(text.text.as_bytes());
                out.push(b'\n');
            }
        }
        out
    };
    let report = print(&args.pages, &process, &mut |out, bytes| {
        if !first && args.format != Format::Jsonl {
            out.write_all(b"\x0c\n")?;
        }
        first = false;
        out.write_all(&bytes)?;
        args.pages.pool().recycle(bytes);
        Ok(())
    })?;
    report.finish()
}
