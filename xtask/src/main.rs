//! htmltok's generators and measurement drivers: one program, a subcommand
//! each, run from anywhere in the repository through the `cargo xtask`
//! alias of `.cargo/config.toml` (`cargo run --package xtask --`):
//!
//! ```text
//! cargo xtask gen-entities                           # src/entities/table.rs
//! cargo xtask gen-corpus [OUT_DIR]                   # corpus/pages, corpus/legacy, MANIFEST.tsv
//! cargo xtask tokenize-file [--errors|--stream|--callback|--records] FILE...
//! cargo xtask make-warc DIR OUT.warc[.gz]            # a WARC archive of a directory of pages
//! cargo xtask inflate FILE.gz                        # gzip decompression alone
//! cargo xtask main-content-eval --data DIR [--misses] # main content scored on trafilatura's corpus
//! cargo xtask chart [REPORT [SVG]]                   # docs/compare.svg from the comparison bench's output
//! cargo xtask doc-commands [--in CLONE]              # the shell commands of the Markdown files, run or checked
//! ```
//!
//! The generators write committed files: rerunning one must leave
//! `git status` clean (the entity table is held to that by a test here).
//! The drivers are for measurements: build them with `--release`, or with
//! `--profile profiling` for callgrind and perf (`docs/BENCHMARKS.md`).

mod chart;
mod doc_commands;
mod gen_corpus;
mod gen_entities;
mod inflate;
mod main_content_eval;
mod make_warc;
// Its measured functions are `#[no_mangle]` (which the `unsafe_code` lint
// counts), so that callgrind's `--toggle-collect` can name them; each name
// is `htmltok_tokenize_file` and a suffix, defined nowhere else.
#[allow(unsafe_code)]
mod tokenize_file;

use std::ffi::OsString;
use std::process::ExitCode;

/// The subcommands, their arguments and what they do, for `--help`.
const USAGE: &str = "\
usage: cargo xtask COMMAND [ARGS]

commands:
  gen-entities [-]             write src/entities/table.rs (or print it: -) from spec/entities.json
  gen-corpus [OUT_DIR]         write the generated pages of corpus/ (or OUT_DIR) and their MANIFEST rows
  tokenize-file [--errors|--stream|--callback|--records] FILE...
                               tokenize each file once, for instruction counts under callgrind
  make-warc DIR OUT.warc[.gz]  write the pages below DIR as WARC response records
  inflate FILE.gz              decompress a gzip file and count its bytes
  main-content-eval --data DIR [--misses] [--only SUBSTRING] [--comments] [--all-text]
                               score the main content of trafilatura's evaluation corpus in DIR
  chart [REPORT [SVG]]         draw docs/compare.svg from the output of benchmarks/' compare bench
                               (default docs/compare.txt)
  doc-commands [--list] [--in CLONE]
                               run the shell commands of the repository's Markdown files in a
                               clean clone (or check those marked as run by .ci/run)";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let command = args.next();
    let rest: Vec<OsString> = args.collect();
    match command.as_ref().and_then(|c| c.to_str()) {
        Some("gen-entities") => gen_entities::main(&rest),
        Some("gen-corpus") => gen_corpus::main(&rest),
        Some("tokenize-file") => tokenize_file::main(&rest),
        Some("make-warc") => make_warc::main(&rest),
        Some("inflate") => inflate::main(&rest),
        Some("main-content-eval") => main_content_eval::main(&rest),
        Some("chart") => chart::main(&rest),
        Some("doc-commands") => doc_commands::main(&rest),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        other => {
            if let Some(other) = other {
                eprintln!("xtask: unknown command {other:?}");
            }
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
