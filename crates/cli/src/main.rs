//! `htmltok`: the command line. Arguments are parsed by clap (derive);
//! each subcommand lives in its own module:
//!
//! - `tokens`, `bench`: one document's tokens; the tokenizer's throughput;
//! - `links`, `text`, `stats`, `sniff`: pages for crawlers, from files,
//!   directories, standard input and WARC archives, on every core. They
//!   share the input side (`inputs` walks the arguments, `read` turns each
//!   into pages, with `gz` and `warc`), the parallel run in input order
//!   (`pipeline`), the progress bar (`progress`), the account of what was
//!   skipped and the exit status (`report`), and JSON lines (`jsonl`).

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod inputs;
mod jsonl;
mod links;
mod pipeline;
mod progress;
mod read;
mod report;
mod sniff;
mod stats;
mod text;
mod tokens;

const SYNOPSIS: &str = "\
Synopsis:
  htmltok tokens [--driven] [--errors] [--chunk-size N] [--no-scripting]
                 [--encoding sniff|LABEL] [--initial-state STATE]
                 [--last-start-tag NAME] [FILE|-]
  htmltok bench [DIR] [--reps N]
  htmltok links [--base URL] [--format jsonl|tsv] [--no-scripting] INPUT...
  htmltok text [--format jsonl|plain|markdown] [--main] [--comments]
               [--markdown] [--links] INPUT...
  htmltok stats [--errors] [--total] INPUT...
  htmltok sniff INPUT...

INPUT is a file, a directory (walked recursively for *.html, *.htm,
*.xhtml, their .gz, and archives), '-' for standard input, a .gz file,
or a web archive: WARC 0.17 to 1.1 or ARC, plain, gzip-compressed (per
record or whole), LZ4 (.warc.lz4) or Zstandard (.warc.zst, with its
dictionary), recognised by content. An archive's HTML responses and
resources are the pages, their HTTP payload decoded (chunked, gzip,
deflate, br, zstd); other records are counted, broken ones reported and
skipped. links, text, stats and sniff also take --encoding LABEL and
--jobs N. text --main gives each page's main content (the article,
without navigation, footers and comments) instead of all its text;
--comments, --markdown and --links need it, --format markdown implies it.

Exit status: 0 when every input was read (with or without pages); 1 when
something was skipped or is not whole (a broken, truncated or undecodable
record, a page not whole, an unreadable input, or output that could not
be written); 2 on a usage error or when no input
could be read. A closed standard output ends the run quietly with 0.";

/// A WHATWG HTML tokenizer, and what a crawler wants from pages: links,
/// text, statistics and encodings.
#[derive(Parser)]
#[command(name = "htmltok", version, after_help = SYNOPSIS, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// The variants carry no doc comments: each command's help is its
// arguments' doc comment (first paragraph the summary listed here).
#[derive(Subcommand)]
enum Command {
    Tokens(tokens::Args),
    Bench(bench::Args),
    Links(links::Args),
    Text(text::Args),
    Stats(stats::Args),
    Sniff(sniff::Args),
}

/// Why a command failed.
pub(crate) enum Failure {
    /// Bad arguments or an unreadable single input: exit status 2.
    Usage(String),
    /// Output could not be written: exit status 1.
    Output(io::Error),
    /// A page command finished with this status (1: something skipped,
    /// 2: nothing processed); its messages are already printed.
    Status(u8),
}

pub(crate) type CmdResult = Result<(), Failure>;

fn main() -> ExitCode {
    // A panic anywhere is a bug; the page commands catch the ones in a
    // page's processing and report the page as skipped, without a trace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("htmltok: internal error: {info}");
    }));
    let result = match Cli::parse().command {
        Command::Tokens(args) => tokens::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Links(args) => links::run(args),
        Command::Text(args) => text::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Sniff(args) => sniff::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("htmltok: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Status(code)) => ExitCode::from(code),
        // A closed pipe (`htmltok links x | head`) is the reader saying it
        // has read enough: not an error.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("htmltok: cannot write output: {e}");
            ExitCode::from(1)
        }
    }
}
