//! `htmltok`: command-line front end to the tokenizer.
//!
//! ```text
//! htmltok tokens [--driven] [--errors] [--chunk-size N] [--no-scripting]
//!                [--encoding sniff|LABEL] [--initial-state STATE]
//!                [--last-start-tag NAME] [FILE|-]
//! htmltok help
//! ```
//!
//! Arguments are parsed by hand. Usage errors (unknown subcommand or flag,
//! unknown state, missing value) and unreadable input exit with status 2.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use htmltok::encoding::{Encoding, Sniffer};
use htmltok::{json, Config, ErrorPolicy, State, StreamTokenizer};

mod bench;

const USAGE: &str = "\
htmltok: a WHATWG HTML tokenizer

USAGE:
    htmltok <COMMAND> [OPTIONS]

COMMANDS:
    tokens    Print the tokens of an HTML document as html5lib-tests JSON
    bench     Measure throughput: htmltok bench [DIR] [--reps N] (see bench --help)
    help      Print this help

htmltok tokens [OPTIONS] [FILE|-]
    Reads FILE (or standard input when FILE is '-' or absent) as UTF-8 bytes
    (invalid UTF-8 becomes U+FFFD; see --encoding for other encodings) and
    prints its tokens as one line of JSON.
    By default the tokenizer runs in standalone mode: it switches to RCDATA,
    RAWTEXT, script data or PLAINTEXT after the start tags that make a
    browser's tree builder do so, and allows CDATA inside <svg> and <math>.
    Standard input is tokenized as a stream and printed as tokens complete,
    in memory bounded by the chunk size plus the largest token.

    --driven                 No automatic tree-builder state switching: the
                             tokenizer stays driven by --initial-state and
                             --last-start-tag only (as html5lib-tests expect)
    --chunk-size N           Feed the input through the streaming API in
                             N-byte chunks (output is identical; for stdin it
                             is the read size, default 65536)
    --no-scripting           Standalone mode with scripting off: <noscript>
                             content is markup, not RAWTEXT
    --encoding sniff         Decode the input as a browser would instead of
                             as UTF-8: a byte order mark, else a <meta>
                             charset (or XML declaration) in the first 1024
                             bytes, else a <meta> before the first non-ASCII
                             byte, else a guess from the bytes (chardetng),
                             else (pure ASCII) windows-1252. Spans, lines and
                             columns are then those of the decoded text
    --encoding LABEL         The same, with LABEL (e.g. \"shift_jis\", any
                             WHATWG Encoding Standard label) as the charset
                             the transport declared: it wins over <meta>, a
                             byte order mark wins over it
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
            Some("bench") => bench::cmd_bench(args.collect()),
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
    let mut chunk_size: Option<usize> = None;
    let mut sniffer: Option<Sniffer> = None;
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
            "--driven" | "--errors" | "--no-scripting" if inline.is_some() => {
                return Err(Failure::Usage(format!("{flag} takes no value")));
            }
            "--driven" => config = config.driven(true),
            "--no-scripting" => config = config.scripting(false),
            "--chunk-size" => {
                let value = flag_value(flag, inline, &mut args)?;
                match value.parse::<usize>() {
                    Ok(n) if n > 0 => chunk_size = Some(n),
                    _ => {
                        return Err(Failure::Usage(format!(
                            "--chunk-size needs a whole number of bytes above 0, not {value:?}"
                        )))
                    }
                }
            }
            "--errors" => with_errors = true,
            "--encoding" => {
                let label = flag_value(flag, inline, &mut args)?;
                sniffer = Some(if label == "sniff" {
                    Sniffer::new()
                } else {
                    let encoding = Encoding::for_label(label.as_bytes()).ok_or_else(|| {
                        Failure::Usage(format!(
                            "--encoding: {label:?} is not an encoding label (use \"sniff\", or a \
                             label of the WHATWG Encoding Standard such as \"utf-8\", \
                             \"windows-1252\", \"shift_jis\", \"gbk\")"
                        ))
                    })?;
                    Sniffer::new().transport(encoding)
                });
            }
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

    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout);
    match source.unwrap_or(Source::Stdin) {
        Source::Stdin => {
            let mut stdin = io::stdin().lock();
            let size = chunk_size.unwrap_or(64 * 1024);
            stream_with(config, sniffer, &mut stdin, size, &mut out, with_errors)?;
        }
        Source::File(path) => {
            let input = std::fs::read(&path)
                .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
            match (chunk_size, sniffer) {
                (None, None) => {
                    let json = json::tokens_json(&input, config, with_errors);
                    out.write_all(json.as_bytes()).map_err(Failure::Output)?;
                }
                (Some(n), None) => {
                    let json = json::tokens_json_chunked(&input, config, with_errors, n);
                    out.write_all(json.as_bytes()).map_err(Failure::Output)?;
                }
                (None, Some(sniffer)) => {
                    let decoded = sniffer.decode(&input);
                    let json = json::tokens_json(decoded.text.as_bytes(), config, with_errors);
                    out.write_all(json.as_bytes()).map_err(Failure::Output)?;
                }
                (Some(n), Some(sniffer)) => {
                    let mut reader = &input[..];
                    stream_with(config, Some(sniffer), &mut reader, n, &mut out, with_errors)?;
                }
            }
        }
    }
    out.write_all(b"\n")
        .and_then(|()| out.flush())
        .map_err(Failure::Output)
}

/// A stream with errors on or off, decoding with `sniffer` if given, run
/// over `input` by [`stream_tokens`].
fn stream_with(
    config: Config,
    sniffer: Option<Sniffer>,
    input: &mut impl Read,
    size: usize,
    out: &mut impl Write,
    with_errors: bool,
) -> CmdResult {
    if with_errors {
        let mut stream = StreamTokenizer::with_errors(config);
        if let Some(sniffer) = sniffer {
            stream = stream.decoding(sniffer);
        }
        stream_tokens(stream, input, size, out, true)
    } else {
        let mut stream = StreamTokenizer::with_config(config);
        if let Some(sniffer) = sniffer {
            stream = stream.decoding(sniffer);
        }
        stream_tokens(stream, input, size, out, false)
    }
}

/// Tokenizes `input` as a stream, `size` bytes per read, writing tokens as
/// they complete.
fn stream_tokens<E: ErrorPolicy>(
    mut stream: StreamTokenizer<E>,
    input: &mut impl Read,
    size: usize,
    out: &mut impl Write,
    with_errors: bool,
) -> CmdResult {
    let mut writer = json::Writer::new(out, with_errors);
    let mut chunk = vec![0u8; size];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Usage(format!("cannot read standard input: {e}"))),
        };
        if n == 0 {
            stream.finish();
        } else {
            stream.feed(&chunk[..n]);
        }
        while let Some(token) = stream.next_token() {
            writer.token(&token).map_err(Failure::Output)?;
        }
        writer.errors(&stream.take_errors());
        if n == 0 {
            break;
        }
    }
    writer.finish().map_err(Failure::Output)?;
    Ok(())
}
