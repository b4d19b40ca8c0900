//! `htmltok tokens`: one document's tokens as html5lib-tests JSON.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::PathBuf;

use htmltok::encoding::{Encoding, Sniffer};
use htmltok::{Config, ErrorPolicy, State, StreamTokenizer};

use htmltok_readout::json;

use crate::{CmdResult, Failure};

/// Print the tokens of an HTML document as html5lib-tests JSON.
///
/// Reads FILE (or standard input when FILE is '-' or absent) as UTF-8 bytes
/// (invalid UTF-8 becomes U+FFFD; see --encoding for other encodings) and
/// prints its tokens as one line of JSON.
///
/// By default the tokenizer runs in standalone mode: it switches to RCDATA,
/// RAWTEXT, script data or PLAINTEXT after the start tags that make a
/// browser's tree builder do so, and allows CDATA inside `<svg>` and `<math>`.
/// Standard input is tokenized as a stream and printed as tokens complete,
/// in memory bounded by the chunk size plus the largest token.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 on success, 2 on a usage error or unreadable input, \
                        1 if the output cannot be written."
)]
pub(crate) struct Args {
    /// No automatic tree-builder state switching: the tokenizer stays driven
    /// by --initial-state and --last-start-tag only (as html5lib-tests expect)
    #[arg(long)]
    driven: bool,
    /// Print {"output": [...], "errors": [...]} with each parse error's code,
    /// line and column
    #[arg(long)]
    errors: bool,
    /// Feed the input through the streaming API in N-byte chunks (output is
    /// identical; for stdin it is the read size, default 65536)
    #[arg(long, value_name = "N", value_parser = chunk_size)]
    chunk_size: Option<usize>,
    /// Standalone mode with scripting off: `<noscript>` content is markup, not
    /// RAWTEXT
    #[arg(long)]
    no_scripting: bool,
    /// "sniff": decode the input as a browser would instead of as UTF-8 (a
    /// byte order mark, else a <meta> charset or XML declaration in the first
    /// 1024 bytes, else a <meta> before the first non-ASCII byte, else a
    /// guess from the bytes (chardetng), else (pure ASCII) windows-1252;
    /// spans, lines and columns are then those of the decoded text). A LABEL ("shift_jis", any WHATWG Encoding
    /// Standard label): the same, with LABEL as the charset the transport
    /// declared (it wins over <meta>, a byte order mark wins over it)
    #[arg(long, value_name = "sniff|LABEL", value_parser = encoding_choice)]
    encoding: Option<Sniffer>,
    /// Start in STATE, named as in html5lib-tests, e.g. "RCDATA state",
    /// "RAWTEXT state", "Script data state", "PLAINTEXT state", "CDATA
    /// section state" (default: "Data state")
    #[arg(long, value_name = "STATE", value_parser = state)]
    initial_state: Option<State>,
    /// The last start tag's name, for the appropriate end tag rule (e.g.
    /// title after `<title>`)
    #[arg(long, value_name = "NAME")]
    last_start_tag: Option<String>,
    /// The document: a file, or '-' (or nothing) for standard input
    #[arg(value_name = "FILE|-")]
    input: Vec<OsString>,
}

fn chunk_size(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a whole number of bytes above 0".into()),
    }
}

/// `sniff`, or a label of the Encoding Standard as the transport's charset.
pub(crate) fn encoding_choice(label: &str) -> Result<Sniffer, String> {
    if label == "sniff" {
        return Ok(Sniffer::new());
    }
    Ok(Sniffer::new().transport(encoding_label(label)?))
}

/// A label of the Encoding Standard, looked up.
pub(crate) fn encoding_label(label: &str) -> Result<&'static Encoding, String> {
    Encoding::for_label(label.as_bytes()).ok_or_else(|| {
        "not an encoding label (use a label of the WHATWG Encoding Standard such as \
         \"utf-8\", \"windows-1252\", \"shift_jis\", \"gbk\")"
            .into()
    })
}

fn state(name: &str) -> Result<State, String> {
    State::from_name(name).ok_or_else(|| {
        "unknown state (use html5lib-tests names, e.g. \"Data state\", \"RCDATA state\", \
         \"RAWTEXT state\", \"Script data state\", \"PLAINTEXT state\", \
         \"CDATA section state\")"
            .into()
    })
}

/// Where the input comes from.
enum Source {
    Stdin,
    File(PathBuf),
}

pub(crate) fn run(args: Args) -> CmdResult {
    let mut config = Config::new();
    if args.driven {
        config = config.driven(true);
    }
    if args.no_scripting {
        config = config.scripting(false);
    }
    if let Some(state) = args.initial_state {
        // Starting inside a CDATA section means foreign content.
        config = config
            .initial_state(state)
            .cdata_allowed(state == State::CdataSection);
    }
    if let Some(name) = &args.last_start_tag {
        config = config.last_start_tag(name);
    }
    let source = match args.input.as_slice() {
        [] => Source::Stdin,
        [one] if one == "-" => Source::Stdin,
        [one] => Source::File(one.into()),
        _ => {
            return Err(Failure::Usage(
                "tokens: more than one input given (expected at most one FILE or '-')".into(),
            ))
        }
    };
    let (with_errors, chunk_size, sniffer) = (args.errors, args.chunk_size, args.encoding);

    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout);
    match source {
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
        stream_tokens(
            new_stream(config.report_errors(), sniffer),
            input,
            size,
            out,
            true,
        )
    } else {
        stream_tokens(new_stream(config, sniffer), input, size, out, false)
    }
}

/// A stream of UTF-8, or decoding with `sniffer` when given.
fn new_stream<E: ErrorPolicy>(config: Config<E>, sniffer: Option<Sniffer>) -> StreamTokenizer<E> {
    match sniffer {
        Some(sniffer) => StreamTokenizer::decoding(sniffer, config),
        None => StreamTokenizer::with_config(config),
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
