//! `htmltok`: command-line front end to the tokenizer.
//!
//! ```text
//! htmltok tokens [--driven] [--errors] [--initial-state STATE] [--last-start-tag NAME] [FILE|-]
//! htmltok help
//! ```
//!
//! Arguments are parsed by hand. Usage errors (unknown subcommand or flag,
//! unknown state, missing value) and unreadable input exit with status 2.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use htmltok::{json, Config, State};

const USAGE: &str = "\
htmltok: a WHATWG HTML tokenizer

USAGE:
    htmltok <COMMAND> [OPTIONS]

COMMANDS:
    tokens    Print the tokens of an HTML document as html5lib-tests JSON
    help      Print this help

htmltok tokens [OPTIONS] [FILE|-]
    Reads FILE (or standard input when FILE is '-' or absent) as bytes
    (invalid UTF-8 becomes U+FFFD) and prints its tokens as one line of JSON.

    --driven                 No automatic tree-builder state switching: the
                             tokenizer stays driven by --initial-state and
                             --last-start-tag only (currently the only mode)
    --errors                 Print {\"output\": [...], \"errors\": [...]} with
                             each parse error's code, line and column
    --initial-state STATE    Start in STATE, named as in html5lib-tests, e.g.
                             \"RCDATA state\", \"RAWTEXT state\", \"Script data
                             state\", \"PLAINTEXT state\", \"CDATA section state\"
                             (default: \"Data state\")
    --last-start-tag NAME    The last start tag's name, for the appropriate
                             end tag rule (e.g. title after <title>)
    -h, --help               Print this help

EXIT STATUS:
    0 on success, 2 on a usage error or unreadable input, 1 if the output
    cannot be written.
";

/// Why the command failed.
enum Failure {
    /// Bad arguments or unreadable input: message, exit status 2.
    Usage(String),
    /// Output could not be written: exit status 1.
    Output(io::Error),
}

type CmdResult = Result<(), Failure>;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let result = match args.next() {
        None => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
        Some(cmd) => match cmd.to_str() {
            Some("tokens") => cmd_tokens(args.collect()),
            Some("help" | "--help" | "-h") => print_usage(),
            _ => Err(Failure::Usage(format!(
                "unknown command {:?} (try 'htmltok help')",
                cmd.to_string_lossy()
            ))),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("htmltok: {msg}");
            ExitCode::from(2)
        }
        // A closed pipe (e.g. `htmltok tokens x | head`) is not worth a message.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(1),
        Err(Failure::Output(e)) => {
            eprintln!("htmltok: cannot write output: {e}");
            ExitCode::from(1)
        }
    }
}

fn print_usage() -> CmdResult {
    io::stdout()
        .write_all(USAGE.as_bytes())
        .map_err(Failure::Output)
}

/// Where the input comes from.
enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    fn read(&self) -> Result<Vec<u8>, Failure> {
        match self {
            Source::Stdin => {
                let mut bytes = Vec::new();
                io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
                Ok(bytes)
            }
            Source::File(path) => std::fs::read(path)
                .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display()))),
        }
    }
}

/// Splits `--flag=value` into flag and value; other arguments come back whole.
fn split_flag(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
        _ => (arg, None),
    }
}

/// Takes the value of `flag`: the `=value` part, or else the next argument.
fn flag_value(
    flag: &str,
    inline: Option<&str>,
    rest: &mut impl Iterator<Item = OsString>,
) -> Result<String, Failure> {
    if let Some(v) = inline {
        return Ok(v.to_owned());
    }
    let v = rest
        .next()
        .ok_or_else(|| Failure::Usage(format!("{flag} needs a value")))?;
    v.into_string()
        .map_err(|v| Failure::Usage(format!("{flag}: value {v:?} is not valid UTF-8")))
}

fn cmd_tokens(args: Vec<OsString>) -> CmdResult {
    let mut with_errors = false;
    let mut config = Config::new();
    let mut source: Option<Source> = None;
    let mut set_source = |s: Source| -> CmdResult {
        if source.is_some() {
            return Err(Failure::Usage(
                "tokens: more than one input given (expected at most one FILE or '-')".into(),
            ));
        }
        source = Some(s);
        Ok(())
    };

    let mut args = args.into_iter();
    let mut options_done = false;
    while let Some(arg) = args.next() {
        if options_done {
            set_source(Source::File(arg.into()))?;
            continue;
        }
        let Some(text) = arg.to_str() else {
            // Not UTF-8, so not a flag: a file name.
            set_source(Source::File(arg.into()))?;
            continue;
        };
        let (flag, inline) = split_flag(text);
        match flag {
            "--" => options_done = true,
            "-" => set_source(Source::Stdin)?,
            "-h" | "--help" => return print_usage(),
            // Tree-builder-driven switching is not implemented yet, so the
            // tokenizer is always driven by its configuration alone.
            "--driven" | "--errors" if inline.is_some() => {
                return Err(Failure::Usage(format!("{flag} takes no value")));
            }
            "--driven" => {}
            "--errors" => with_errors = true,
            "--initial-state" => {
                let name = flag_value(flag, inline, &mut args)?;
                let state = State::from_name(&name).ok_or_else(|| {
                    Failure::Usage(format!(
                        "unknown state {name:?} for --initial-state (use html5lib-tests names, \
                         e.g. \"Data state\", \"RCDATA state\", \"RAWTEXT state\", \
                         \"Script data state\", \"PLAINTEXT state\", \"CDATA section state\")"
                    ))
                })?;
                // Starting inside a CDATA section means foreign content.
                config = config
                    .initial_state(state)
                    .cdata_allowed(state == State::CdataSection);
            }
            "--last-start-tag" => {
                let name = flag_value(flag, inline, &mut args)?;
                config = config.last_start_tag(&name);
            }
            _ if flag.starts_with('-') => {
                return Err(Failure::Usage(format!(
                    "tokens: unknown option {text:?} (try 'htmltok help')"
                )));
            }
            _ => set_source(Source::File(arg.into()))?,
        }
    }

    let input = source.unwrap_or(Source::Stdin).read()?;
    let mut out = json::tokens_json(&input, config, with_errors);
    out.push('\n');
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(Failure::Output)
}
