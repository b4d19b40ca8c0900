//! What the fuzz targets check, shared by the cargo-fuzz targets in
//! `fuzz/fuzz_targets/`, the deterministic proptest versions in
//! `tests/robustness/fuzz_properties.rs` and the regression cases of
//! `tests/conformance/regressions.rs`.
//!
//! Every property is a function returning `Err(description)` on failure:
//!
//! - [`check_tokenize`]: any bytes, any options: no panic, and the output is
//!   proportional to the input (token count and total string bytes);
//! - [`check_chunked`]: a [`htmltok::StreamTokenizer`] fed the input split at
//!   any points gives what the whole-document tokenizer gives (tokens with
//!   adjacent text joined, spans, errors with their locations);
//! - [`check_simd`]: the landmark kernels agree with their scalar definition,
//!   and `Config::simd(false)` tokenizes exactly like `Config::simd(true)`,
//!   and `Config::fast_paths(false)` (the plain state machine) too;
//! - [`check_encoding`]: any bytes sniffed and decoded (with any of
//!   [`TRANSPORT_LABELS`] as the transport's charset) give the same tokens
//!   and errors through a decoding stream split at any points as through
//!   the whole decoded text, and the stream decides the same encoding
//!   (where a `<meta>` in the head changed the whole page's, the stream
//!   reports it, and its text is the page in the encoding it decided);
//! - [`check_charref`]: character references decode as a direct
//!   transcription of the standard's character reference states
//!   ([`reference_decode`]) says, in text and in attribute values;
//! - [`check_main_content`]: the main-content extractor never panics, and
//!   its words are a subsequence, in order, of the page's visible text's.

use htmltok::encoding::{Encoding, Sniffer, Source};
use htmltok::{Config, Flow, Input, State, StreamTokenizer, Token, Tokenizer};

use crate::drive::{self, drain_stream, Errors};
use crate::json::tokens_json;
use crate::record::{diff, err_rec, Normalizer, Output, Rec};

// ---------------------------------------------------------------------------
// Options.

/// Names offered as the last start tag: the ones the "appropriate end tag"
/// rule meets in practice, plus odd ones (empty, upper case, a prefix).
pub const LAST_START_TAGS: &[&str] = &[
    "script",
    "title",
    "textarea",
    "style",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "noscript",
    "plaintext",
    "a",
    "",
    "SCRIPT",
    "scrip",
    "scriptx",
    "svg",
];

/// Tokenizer options chosen by the fuzzer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub errors: bool,
    pub driven: bool,
    pub initial_state: State,
    pub last_start_tag: Option<&'static str>,
    pub cdata_allowed: bool,
    pub processing_instructions: bool,
    pub simd: bool,
    pub scripting: bool,
    /// Streams only (a whole document always joins text).
    pub join_text: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            errors: true,
            driven: false,
            initial_state: State::Data,
            last_start_tag: None,
            cdata_allowed: false,
            processing_instructions: false,
            simd: true,
            scripting: true,
            join_text: false,
        }
    }
}

/// Bytes of option header that [`Options::decode`] takes.
pub const HEADER_LEN: usize = 3;

impl Options {
    /// Reads the options from the first [`HEADER_LEN`] bytes of `data` (missing
    /// bytes read as zero) and returns them with the rest of the data.
    ///
    /// - byte 0, bits: 0 errors off, 1 driven, 2 CDATA allowed, 3 processing
    ///   instructions, 4 scalar scans (simd off), 5 scripting off, 6 join text;
    /// - byte 1: the initial state, `State::ALL[b % 84]` (0 is Data);
    /// - byte 2: the last start tag: none when below 128, otherwise
    ///   `LAST_START_TAGS[b % len]`.
    ///
    /// All zeros is the default: standalone, errors on, Data state. States
    /// named in `$HTMLTOK_FUZZ_SKIP_STATES` become Data (see [`unskipped`]).
    pub fn decode(data: &[u8]) -> (Options, &[u8]) {
        let at = |i: usize| data.get(i).copied().unwrap_or(0);
        let (b0, b1, b2) = (at(0), at(1), at(2));
        let options = Options {
            errors: b0 & 1 == 0,
            driven: b0 & 2 != 0,
            cdata_allowed: b0 & 4 != 0,
            processing_instructions: b0 & 8 != 0,
            simd: b0 & 16 == 0,
            scripting: b0 & 32 == 0,
            join_text: b0 & 64 != 0,
            initial_state: unskipped(State::ALL[b1 as usize % State::ALL.len()]),
            last_start_tag: (b2 >= 128)
                .then(|| LAST_START_TAGS[b2 as usize % LAST_START_TAGS.len()]),
        };
        (options, data.get(HEADER_LEN..).unwrap_or(&[]))
    }

    /// The header bytes that decode to these options (the inverse of
    /// [`decode`](Self::decode)).
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let b0 = (!self.errors as u8)
            | (self.driven as u8) << 1
            | (self.cdata_allowed as u8) << 2
            | (self.processing_instructions as u8) << 3
            | (!self.simd as u8) << 4
            | (!self.scripting as u8) << 5
            | (self.join_text as u8) << 6;
        let b1 = State::ALL
            .iter()
            .position(|&s| s == self.initial_state)
            .unwrap_or(0) as u8;
        let b2 = match self.last_start_tag {
            None => 0,
            Some(name) => {
                let i = LAST_START_TAGS.iter().position(|&n| n == name).unwrap_or(0);
                // The smallest b >= 128 with b % len == i.
                let len = LAST_START_TAGS.len();
                (128 + (i + len - 128 % len) % len) as u8
            }
        };
        [b0, b1, b2]
    }

    /// The tokenizer configuration (without `join_text`, which only streams use).
    pub fn config(&self) -> Config {
        let mut config = Config::new()
            .driven(self.driven)
            .initial_state(self.initial_state)
            .cdata_allowed(self.cdata_allowed)
            .processing_instructions(self.processing_instructions)
            .simd(self.simd)
            .scripting(self.scripting);
        if let Some(name) = self.last_start_tag {
            config = config.last_start_tag(name);
        }
        config
    }
}

/// Triage aid: `HTMLTOK_FUZZ_SKIP_STATES` is a comma-separated list of
/// initial states (as `{:?}` prints them, e.g. `CommentEndDash`, or their
/// index in `State::ALL`) that [`Options::decode`] replaces by Data, so that
/// a known bug in starting there does not stop a fuzzing run from finding
/// others. Unset (the default), every state is used.
pub fn unskipped(state: State) -> State {
    static SKIP: std::sync::OnceLock<Vec<State>> = std::sync::OnceLock::new();
    let skip = SKIP.get_or_init(|| {
        let list = std::env::var("HTMLTOK_FUZZ_SKIP_STATES").unwrap_or_default();
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .filter_map(|name| {
                let found = State::ALL
                    .iter()
                    .enumerate()
                    .find(|(i, s)| format!("{s:?}") == name || i.to_string() == name)
                    .map(|(_, &s)| s);
                if found.is_none() {
                    eprintln!("HTMLTOK_FUZZ_SKIP_STATES: no state {name:?}");
                }
                found
            })
            .collect()
    });
    if skip.contains(&state) {
        State::Data
    } else {
        state
    }
}

// ---------------------------------------------------------------------------
// Property 1: no panic, output proportional to input.

/// Upper bound on the string bytes of all tokens of an input of `len` bytes:
/// a byte of input becomes at most 3 bytes of output (an invalid UTF-8 byte
/// or a NUL becomes U+FFFD; no named reference is longer in UTF-8 than
/// three times its source), plus what a state entered with nothing
/// behind it may emit (`</`, `<!`, an empty comment).
pub fn max_token_bytes(len: usize) -> usize {
    3 * len + 64
}

/// Upper bound on the number of tokens (Eof included) for `len` bytes: every
/// token but Eof consumes at least one byte, except the token a mid-token
/// initial state may flush at end of file.
pub fn max_tokens(len: usize) -> usize {
    len + 3
}

/// Bytes of all strings of a token.
pub fn token_bytes(token: &Token<'_>) -> usize {
    match token {
        Token::Doctype(d) => {
            d.name().map_or(0, str::len)
                + d.public_id().map_or(0, str::len)
                + d.system_id().map_or(0, str::len)
        }
        Token::StartTag(t) | Token::EndTag(t) => {
            t.name().len()
                + t.attributes()
                    .map(|a| a.name().len() + a.value().len())
                    .sum::<usize>()
        }
        Token::Comment(c) => c.as_str().len(),
        Token::Text(t) => t.as_str().len(),
        Token::ProcessingInstruction(p) => p.target().len() + p.data().len(),
        Token::Eof => 0,
        other => unimplemented!("a token kind this check does not know: {other:?}"),
    }
}

/// Tokenizes `data` (the bytes after the option header) with the
/// whole-document API and checks that the output stays proportional to the
/// input and that every span lies inside the (repaired) input, on character
/// boundaries; and that the
/// callback API (`for_each_token`, stopping now and then and resumed with
/// `next_token`) gives the same tokens and errors as `next_token`.
///
/// And that a tokenizer that skips attributes (`SkipAttributes`, errors
/// off) gives the same tokens without attributes.
pub fn check_tokenize(data: &[u8], options: &Options) -> Result<(), String> {
    check_tokenize_bounds(data, options)?;
    let want = whole(data, options);
    let got = whole_for_each(data, options, 1 + data.len() % 5);
    if let Some(d) = diff(&want, &got) {
        return Err(format!(
            "for_each_token differs from next_token (a: next_token, b: for_each_token)\n{d}"
        ));
    }
    check_attributes_off(data, options)
}

/// A tokenizer that skips attributes (`SkipAttributes`) gives the output
/// of one with errors off less every tag's attributes: through
/// `next_token` and through `for_each_token` (stopping every few tokens and
/// resumed by `next_token`).
pub fn check_attributes_off(data: &[u8], options: &Options) -> Result<(), String> {
    let config = options.config();
    let want = without_attributes(drive::whole(data, &config, Errors::Off).0);
    let got = drive::whole(data, &config, Errors::SkipAttributes).0;
    if let Some(d) = diff(&want, &got) {
        return Err(format!(
            "skipping attributes differs (a: with attributes, stripped; b: skipping them)\n{d}"
        ));
    }
    let got = for_each_with(data, &config, Errors::SkipAttributes, 1 + data.len() % 3);
    if let Some(d) = diff(&want, &got) {
        return Err(format!(
            "skipping attributes differs (a: with attributes, stripped; b: skipping them, for_each_token)\n{d}"
        ));
    }
    Ok(())
}

/// `out` with every tag's attributes taken away.
pub fn without_attributes(mut out: Output) -> Output {
    for rec in &mut out.tokens {
        if let Rec::StartTag { attrs, .. } | Rec::EndTag { attrs, .. } = rec {
            attrs.clear();
        }
    }
    out
}

fn check_tokenize_bounds(data: &[u8], options: &Options) -> Result<(), String> {
    // The text the tokenizer reads (its repair is `from_utf8_lossy`'s),
    // which the spans are checked against.
    let text = String::from_utf8_lossy(data);
    if options.errors {
        let mut tok = Tokenizer::with_config(
            Input::from_utf8_lossy(data),
            options.config().report_errors(),
        );
        let input_len = tok.input().len();
        let (tokens, bytes) = drain_whole(&mut tok, &text, data.len())?;
        check_bounds(data.len(), input_len, tokens, bytes)?;
        for e in tok.errors() {
            if e.span.start > e.span.end || e.span.end > input_len {
                return Err(format!("error {e:?} outside the input ({input_len} bytes)"));
            }
        }
        Ok(())
    } else {
        let mut tok = Tokenizer::with_config(Input::from_utf8_lossy(data), options.config());
        let input_len = tok.input().len();
        let (tokens, bytes) = drain_whole(&mut tok, &text, data.len())?;
        check_bounds(data.len(), input_len, tokens, bytes)
    }
}

/// Takes every token of `tok`, whose input is `text`, checking each
/// token's spans against it.
fn drain_whole<E: htmltok::ErrorPolicy>(
    tok: &mut Tokenizer<'_, E>,
    text: &str,
    len: usize,
) -> Result<(usize, usize), String> {
    if tok.input() != text {
        return Err("the tokenizer's input is not the repaired bytes".into());
    }
    let (mut tokens, mut bytes, mut eof) = (0usize, 0usize, false);
    while let Some(token) = tok.next_token() {
        if eof {
            return Err("a token after Eof".into());
        }
        tokens += 1;
        bytes += token_bytes(&token);
        eof = matches!(token, Token::Eof);
        spans_inside(&token, text)?;
        // Stop early on a runaway tokenizer instead of running out of memory.
        if tokens > max_tokens(len) {
            return Err(format!(
                "more than {} tokens from {len} bytes",
                max_tokens(len)
            ));
        }
    }
    if !eof {
        return Err("no Eof token".into());
    }
    Ok((tokens, bytes))
}

fn check_bounds(len: usize, input_len: usize, tokens: usize, bytes: usize) -> Result<(), String> {
    // Repair can triple the input (each invalid byte becomes U+FFFD); the
    // bounds are on the original length, which is what a caller controls.
    let _ = input_len;
    if tokens > max_tokens(len) {
        return Err(format!("{tokens} tokens from {len} bytes"));
    }
    if bytes > max_token_bytes(len) {
        return Err(format!(
            "{bytes} bytes of token strings from {len} bytes of input (bound {})",
            max_token_bytes(len)
        ));
    }
    Ok(())
}

/// Every span of `token` lies in `text` with both ends on character
/// boundaries: the tokenizer slices its strings at these positions without
/// checking them (`token::unchecked`), so this is the property that keeps
/// that sound.
fn spans_inside(token: &Token<'_>, text: &str) -> Result<(), String> {
    let len = text.len();
    let ok = |s: htmltok::Span| {
        s.start <= s.end
            && s.end <= len
            && text.is_char_boundary(s.start)
            && text.is_char_boundary(s.end)
    };
    let good = match token {
        Token::Doctype(d) => ok(d.span()),
        Token::StartTag(t) | Token::EndTag(t) => {
            ok(t.span())
                && ok(t.name_span())
                && t.attributes()
                    .all(|a| ok(a.name_span()) && ok(a.value_span()))
        }
        Token::Comment(c) => ok(c.span()),
        Token::Text(t) => ok(t.span()),
        Token::ProcessingInstruction(p) => ok(p.span()),
        Token::Eof => true,
        other => unimplemented!("a token kind this check does not know: {other:?}"),
    };
    if good {
        Ok(())
    } else {
        Err(format!(
            "span outside the input ({len} bytes) or not on character boundaries: {token:?}"
        ))
    }
}

// ---------------------------------------------------------------------------
// Property 2: chunk invariance.

impl Options {
    /// Whether parse errors are collected, as a driver takes it.
    fn errors(&self) -> Errors {
        self.errors.into()
    }
}

/// The whole-document tokenizer's output for `data` (`next_token`,
/// adjacent text joined).
pub fn whole(data: &[u8], options: &Options) -> Output {
    drive::whole(data, &options.config(), options.errors()).0
}

/// [`whole`] through `for_each_token`, the callback stopping after every
/// `stop_every`th token and the caller resuming with one `next_token`.
pub fn whole_for_each(data: &[u8], options: &Options, stop_every: usize) -> Output {
    for_each_with(data, &options.config(), options.errors(), stop_every)
}

/// [`whole_for_each`] with a configuration and an error policy.
fn for_each_with(data: &[u8], config: &Config, errors: Errors, stop_every: usize) -> Output {
    let mut norm = Normalizer::new(true);
    let mut out = Output::default();
    macro_rules! run {
        ($tok:expr) => {{
            let mut tok = $tok;
            let mut seen = 0usize;
            loop {
                let mut stopped = false;
                tok.for_each_token(|token| {
                    norm.push(&token);
                    seen += 1;
                    if seen % stop_every == 0 {
                        stopped = true;
                        return Flow::Stop;
                    }
                    Flow::Continue
                });
                if !stopped {
                    break;
                }
                match tok.next_token() {
                    Some(token) => norm.push(&token),
                    None => break,
                }
            }
            tok
        }};
    }
    match errors {
        Errors::On => {
            let tok = run!(Tokenizer::with_config(
                Input::from_utf8_lossy(data),
                config.clone().report_errors()
            ));
            out.errors = tok.errors().iter().map(err_rec).collect();
        }
        Errors::Off => {
            run!(Tokenizer::with_config(
                Input::from_utf8_lossy(data),
                config.clone()
            ));
        }
        Errors::SkipAttributes => {
            run!(Tokenizer::with_config(
                Input::from_utf8_lossy(data),
                config.clone().skip_attributes()
            ));
        }
    }
    out.tokens = norm.tokens;
    out
}

/// Split points for `data.len()` bytes from arbitrary numbers: each taken
/// modulo `len + 1`, then sorted.
pub fn split_points(len: usize, raw: &[u16]) -> Vec<usize> {
    let mut points: Vec<usize> = raw.iter().map(|&r| r as usize % (len + 1)).collect();
    points.sort_unstable();
    points
}

/// Streamed output (fed in chunks ending at `splits`, errors taken after
/// every chunk as a long-running stream would, `options.join_text` as the
/// stream's) equals whole-document output, and neither run breaks the
/// token protocol (see [`drive`]).
pub fn check_chunked(data: &[u8], options: &Options, splits: &[usize]) -> Result<(), String> {
    let config = options.config();
    let (want, whole_anomalies) = drive::whole(data, &config, options.errors());
    let stream_config = config.join_text(options.join_text);
    let (got, stream_anomalies) =
        drive::streamed(data, &stream_config, options.errors(), splits, true);
    if !whole_anomalies.is_empty() || !stream_anomalies.is_empty() {
        return Err(format!(
            "anomalies: whole {whole_anomalies:?}, stream {stream_anomalies:?}"
        ));
    }
    match diff(&want, &got) {
        None => Ok(()),
        Some(d) => Err(format!(
            "stream differs from whole document (a: whole, b: stream)\n{d}"
        )),
    }
}

/// Transport charsets an encoding input can name ([`sniffer_for`]): none,
/// then encodings of every kind (single-byte, multi-byte, stateful,
/// UTF-16, and labels that mean `replacement` and `x-user-defined`).
pub const TRANSPORT_LABELS: &[&str] = &[
    "",
    "utf-8",
    "windows-1252",
    "koi8-r",
    "shift_jis",
    "euc-jp",
    "iso-2022-jp",
    "gb18030",
    "big5",
    "euc-kr",
    "utf-16le",
    "utf-16be",
    "x-user-defined",
    "iso-2022-kr",
];

/// The sniffer an encoding input's header byte picks: the transport charset
/// `TRANSPORT_LABELS[b % len]` (none for the empty label).
pub fn sniffer_for(b: u8) -> Sniffer {
    let label = TRANSPORT_LABELS[b as usize % TRANSPORT_LABELS.len()];
    match Encoding::for_label(label.as_bytes()) {
        Some(encoding) => Sniffer::new().transport(encoding),
        None => Sniffer::new(),
    }
}

/// A decoding stream, fed `data` in chunks ending at `splits`, equals the
/// whole decoded text's tokens and errors (standalone, errors on), and
/// decides the encoding `Sniffer::sniff` decides. Where a `<meta>` in the
/// head changed the whole page's encoding (`Source::ChangedByMeta`), the
/// stream, which decided before it, names that encoding as declared late,
/// and its tokens are those of the page decoded in the encoding it decided.
pub fn check_encoding(data: &[u8], sniffer: Sniffer, splits: &[usize]) -> Result<(), String> {
    let decoded = sniffer.decode(data);
    let sniffed = sniffer.sniff(data);
    if decoded.sniffed != sniffed {
        return Err(format!(
            "decode used {:?}, sniff says {sniffed:?}",
            decoded.sniffed
        ));
    }
    let options = Options::default();
    let mut stream = StreamTokenizer::decoding(sniffer, options.config().report_errors());
    let mut norm = Normalizer::new(true);
    let errors = drain_stream(&mut stream, data, splits, true, &mut norm);
    if !norm.anomalies.is_empty() {
        return Err(format!("decoding stream anomalies: {:?}", norm.anomalies));
    }
    let got = Output {
        tokens: norm.tokens,
        errors,
    };
    let want = if sniffed.source == Source::ChangedByMeta {
        let streamed = stream.sniffed();
        let Some(decided) = streamed.filter(|s| s.declared_late == Some(sniffed.encoding)) else {
            return Err(format!(
                "stream decided {streamed:?}, sniff says {sniffed:?}: not declared late"
            ));
        };
        // No byte order mark (a rule a `<meta>` can change decided): the
        // bytes whole in the stream's encoding.
        let text = sniffer.transport(decided.encoding).decode(data).text;
        whole(text.as_bytes(), &options)
    } else {
        if stream.sniffed() != Some(sniffed) {
            return Err(format!(
                "stream decided {:?}, sniff says {sniffed:?}",
                stream.sniffed()
            ));
        }
        whole(decoded.text.as_bytes(), &options)
    };
    if let Some(d) = diff(&want, &got) {
        return Err(format!(
            "decoding stream differs from the whole decoded text ({sniffed:?}; a: whole, b: stream)\n{d}"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Property 3: SIMD and scalar scans agree.

/// How much of the input the kernel check looks at: it scans from every
/// start offset with every landmark set and every kernel, so its cost is
/// quadratic. 128 bytes reach the 64-byte block loops and every tail; the
/// tokenizer comparison that follows uses the whole input.
pub const KERNEL_CHECK_LEN: usize = 128;

/// The kernels agree on (a prefix of) `data`, and the tokenizer gives the
/// same tokens and errors with scalar scans as with SIMD scans, and with
/// its fast paths as the plain state machine (`Config::fast_paths(false)`).
pub fn check_simd(data: &[u8], options: &Options) -> Result<(), String> {
    htmltok::__fuzz::kernels_agree(&data[..data.len().min(KERNEL_CHECK_LEN)])?;
    let config = options.config();
    let simd = tokens_json(data, config.clone().simd(true), true);
    let scalar = tokens_json(data, config.clone().simd(false), true);
    // The plain state machine (no fast paths) is the third opinion.
    let plain = tokens_json(data, config.fast_paths(false), true);
    if plain != simd {
        return Err(json_difference(
            "fast paths",
            &simd,
            "plain machine",
            &plain,
        ));
    }
    if simd != scalar {
        return Err(json_difference("simd", &simd, "scalar", &scalar));
    }
    Ok(())
}

/// Where two JSON outputs part, with the 80 bytes around it from each.
fn json_difference(a_name: &str, a: &str, b_name: &str, b: &str) -> String {
    let i = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let from = i.saturating_sub(80);
    let around = |s: &'_ str| s.get(from..(i + 80).min(s.len())).unwrap_or(s).to_owned();
    format!(
        "{a_name} and {b_name} differ at output byte {i}:\n  {a_name} …{}\n  {b_name} …{}",
        around(a),
        around(b),
    )
}

// ---------------------------------------------------------------------------
// Property 4: character references against a reference implementation.

/// Builds a string of character-reference material from a byte program:
/// each step takes one opcode byte and, for some opcodes, operand bytes.
/// The alphabet has no `<`, quotes, whitespace, CR or NUL, so the string
/// stays one text run or one attribute value (quoted or not).
pub fn charref_string(program: &[u8]) -> String {
    let table = htmltok::__fuzz::entity_table();
    let mut out = String::new();
    let mut bytes = program.iter().copied();
    while let Some(op) = bytes.next() {
        match op % 16 {
            // An entity name, cut at some point (or whole, `;` included).
            0..=4 => {
                let hi = bytes.next().unwrap_or(0) as usize;
                let lo = bytes.next().unwrap_or(0) as usize;
                let cut = bytes.next().unwrap_or(255) as usize;
                let name = table[(hi << 8 | lo) % table.len()].0;
                let end = if cut >= 128 {
                    name.len()
                } else {
                    cut % (name.len() + 1)
                };
                if op % 16 < 3 {
                    out.push('&');
                }
                out.push_str(&name[..end]);
            }
            5 | 6 => out.push('&'),
            7 => out.push(';'),
            8 => out.push('#'),
            9 => {
                let d = bytes.next().unwrap_or(0);
                // Mostly short runs; sometimes long ones (saturation).
                let n = if d >= 250 {
                    20 + d as usize
                } else {
                    1 + d as usize % 7
                };
                let seed = bytes.next().unwrap_or(0) as usize;
                for i in 0..n {
                    out.push(char::from(b'0' + ((seed + i * 7) % 10) as u8));
                }
            }
            10 => out.push(if bytes.next().unwrap_or(0) & 1 == 0 {
                'x'
            } else {
                'X'
            }),
            11 => out.push('='),
            12 => {
                const LETTERS: &[u8] = b"abcdefABCDEFxXglmnqtuvzZ";
                out.push(char::from(
                    LETTERS[bytes.next().unwrap_or(0) as usize % LETTERS.len()],
                ));
            }
            13 => {
                // Hex digits.
                let d = bytes.next().unwrap_or(0) as usize;
                const HEX: &[u8] = b"0123456789abcdefABCDEF";
                for i in 0..1 + d % 6 {
                    out.push(char::from(HEX[(d / 7 + i * 5) % HEX.len()]));
                }
            }
            14 => {
                // Other characters a reference may stop at.
                const OTHER: &[char] = &['-', '.', '/', '!', '?', 'é', '€', '😀', '_', ':'];
                out.push(OTHER[bytes.next().unwrap_or(0) as usize % OTHER.len()]);
            }
            _ => {
                // A well-known numeric reference, with or without `;`.
                const NUMERIC: &[&str] = &[
                    "&#0",
                    "&#x0",
                    "&#128",
                    "&#x80",
                    "&#x9F",
                    "&#x81",
                    "&#13",
                    "&#xD",
                    "&#x10FFFF",
                    "&#x110000",
                    "&#xD800",
                    "&#xDFFF",
                    "&#xFDD0",
                    "&#xFFFE",
                    "&#1",
                    "&#x7F",
                    "&#9",
                    "&#x20",
                    "&#65",
                    "&#x",
                    "&#",
                    "&#X41",
                    "&#99999999999999",
                ];
                let v = bytes.next().unwrap_or(0) as usize;
                out.push_str(NUMERIC[v % NUMERIC.len()]);
                if v & 128 != 0 {
                    out.push(';');
                }
            }
        }
    }
    out
}

/// The standard's replacement table for numeric references to C1 controls
/// (section 13.2.5.80), written out as pairs.
const NUMERIC_REPLACEMENTS: &[(u32, u32)] = &[
    (0x80, 0x20AC),
    (0x82, 0x201A),
    (0x83, 0x0192),
    (0x84, 0x201E),
    (0x85, 0x2026),
    (0x86, 0x2020),
    (0x87, 0x2021),
    (0x88, 0x02C6),
    (0x89, 0x2030),
    (0x8A, 0x0160),
    (0x8B, 0x2039),
    (0x8C, 0x0152),
    (0x8E, 0x017D),
    (0x91, 0x2018),
    (0x92, 0x2019),
    (0x93, 0x201C),
    (0x94, 0x201D),
    (0x95, 0x2022),
    (0x96, 0x2013),
    (0x97, 0x2014),
    (0x98, 0x02DC),
    (0x99, 0x2122),
    (0x9A, 0x0161),
    (0x9B, 0x203A),
    (0x9C, 0x0153),
    (0x9E, 0x017E),
    (0x9F, 0x0178),
];

/// The numeric character reference end state: the character a code becomes.
fn numeric_end(code: u64) -> char {
    if code == 0 || code > 0x10FFFF || (0xD800..=0xDFFF).contains(&code) {
        return '\u{FFFD}';
    }
    let code = code as u32;
    if let Some(&(_, to)) = NUMERIC_REPLACEMENTS.iter().find(|&&(from, _)| from == code) {
        return char::from_u32(to).unwrap();
    }
    char::from_u32(code).unwrap()
}

/// Decodes the character references of `s` as the standard's character
/// reference states do, for a return state that is a text state
/// (`in_attribute` false) or an attribute value state (true). `s` must
/// contain nothing else the return state would treat specially (no `<`,
/// quotes, CR, NUL): only references are decoded.
///
/// A transcription of sections 13.2.5.72 to 13.2.5.80, slow and direct:
/// named references by a linear scan of the table (the names with the same
/// first byte) for the longest name that is a prefix of the rest of the
/// input, independent of the tokenizer's automaton.
pub fn reference_decode(s: &str, in_attribute: bool) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'&' {
            // Copy one character.
            let len = s[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&s[i..i + len]);
            i += len;
            continue;
        }
        // Character reference state: the `&` is consumed.
        let start = i;
        i += 1;
        match b.get(i) {
            Some(c) if c.is_ascii_alphanumeric() => {
                // Named character reference state.
                let rest = &b[i..];
                // The table is sorted by name: scanning only the names with
                // the right first byte finds the same longest prefix, faster.
                let table = htmltok::__fuzz::entity_table();
                let lo = table.partition_point(|(name, _)| name.as_bytes()[0] < rest[0]);
                let hi = table.partition_point(|(name, _)| name.as_bytes()[0] <= rest[0]);
                let found = table[lo..hi]
                    .iter()
                    .filter(|(name, _)| rest.starts_with(name.as_bytes()))
                    .max_by_key(|(name, _)| name.len());
                match found {
                    Some(&(name, value)) => {
                        let after = i + name.len();
                        let next = b.get(after).copied();
                        let historical = in_attribute
                            && !name.ends_with(';')
                            && next.is_some_and(|n| n == b'=' || n.is_ascii_alphanumeric());
                        if historical {
                            // Flush the consumed code points as they are.
                            out.push_str(&s[start..after]);
                        } else {
                            out.push_str(value);
                        }
                        i = after;
                    }
                    None => {
                        // Flush `&`; the ambiguous ampersand state then emits
                        // the alphanumerics as they are (and `;` is just a
                        // parse error), which is what copying them does.
                        out.push('&');
                    }
                }
            }
            Some(b'#') => {
                // Numeric character reference state.
                i += 1;
                let hex = matches!(b.get(i), Some(b'x' | b'X'));
                if hex {
                    i += 1;
                }
                let is_digit = |c: u8| {
                    if hex {
                        c.is_ascii_hexdigit()
                    } else {
                        c.is_ascii_digit()
                    }
                };
                if !b.get(i).copied().is_some_and(is_digit) {
                    // Absence of digits: flush `&#` (and the `x`), reconsume.
                    out.push_str(&s[start..i]);
                    continue;
                }
                let mut code: u64 = 0;
                while let Some(&c) = b.get(i) {
                    if !is_digit(c) {
                        break;
                    }
                    let digit = (c as char).to_digit(16).unwrap() as u64;
                    code = (code * if hex { 16 } else { 10 } + digit).min(0x11_0000);
                    i += 1;
                }
                if b.get(i) == Some(&b';') {
                    i += 1;
                }
                out.push(numeric_end(code));
            }
            _ => {
                // Anything else: flush `&`, reconsume in the return state.
                out.push('&');
            }
        }
    }
    out
}

/// The text of a text-only input, tokenized in `state` (driven mode).
fn text_in_state(input: &str, state: State, simd: bool) -> Result<String, String> {
    let config = Config::new().driven(true).initial_state(state).simd(simd);
    let mut tok = Tokenizer::with_config(input, config);
    let mut text = String::new();
    while let Some(token) = tok.next_token() {
        match token {
            Token::Text(t) => text.push_str(t.as_str()),
            Token::Eof => {}
            other => return Err(format!("unexpected token {other:?}")),
        }
    }
    Ok(text)
}

/// The value of attribute `x` of the one tag of `input`.
fn attribute_value(input: &str, simd: bool) -> Result<String, String> {
    let mut tok = Tokenizer::with_config(input, Config::new().driven(true).simd(simd));
    let mut value = None;
    while let Some(token) = tok.next_token() {
        match token {
            Token::StartTag(t) if value.is_none() => {
                value = Some(t.attribute("x").unwrap_or("<none>").to_owned())
            }
            Token::Eof => {}
            other => return Err(format!("unexpected token {other:?}")),
        }
    }
    value.ok_or_else(|| "no start tag".to_owned())
}

/// Character references in `s` decode as [`reference_decode`] says: as text
/// in the Data and RCDATA states, and as a double-quoted, single-quoted and
/// unquoted attribute value.
pub fn check_charref(s: &str, simd: bool) -> Result<(), String> {
    let want_text = reference_decode(s, false);
    for state in [State::Data, State::Rcdata] {
        let got = text_in_state(s, state, simd)?;
        if got != want_text {
            return Err(format!(
                "{state:?} text of {s:?}:\n  tokenizer {got:?}\n  reference {want_text:?}"
            ));
        }
    }
    let want_attr = reference_decode(s, true);
    let unquoted_ok = !s.is_empty();
    for (open, close) in [("\"", "\""), ("'", "'"), ("", "")] {
        if open.is_empty() && !unquoted_ok {
            continue;
        }
        let input = format!("<a x={open}{s}{close}>");
        let got = attribute_value(&input, simd)?;
        if got != want_attr {
            return Err(format!(
                "attribute value in {input:?}:\n  tokenizer {got:?}\n  reference {want_attr:?}"
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Main content.

/// The main-content extractor on any page: it never panics (plain text
/// with comment sections left out and kept; Markdown, with links when
/// the page's length is odd), and the words of its plain text (split on
/// ASCII whitespace) are a subsequence, in order, of the words of
/// [`text()`](htmltok::extract::text()): it chooses among the text a
/// reader sees and never invents, repeats or reorders any.
pub fn check_main_content(html: &str) -> Result<(), String> {
    use htmltok::extract::{main_content_with, text, MainOptions};

    let all = text(html).text;
    let all_words: Vec<&str> = all.split_ascii_whitespace().collect();
    for comments in [false, true] {
        let main = main_content_with(html, MainOptions::new().comments(comments)).text;
        if let Some((n, word)) = not_in_order(main.split_ascii_whitespace(), &all_words) {
            return Err(format!(
                "main content (comments {comments}): word {n}, {word:?}, is not among text()'s \
                 words after the ones before it\nmain content: {main:?}\ntext: {all:?}"
            ));
        }
    }
    let links = html.len() % 2 == 1;
    std::hint::black_box(main_content_with(
        html,
        MainOptions::new().markdown(true).links(links),
    ));
    Ok(())
}

/// The first of `words` (its index and itself) that cannot be matched in
/// `within` after the matches of the words before it; `None` when `words`
/// is a subsequence of `within`. One pass over both.
fn not_in_order<'a>(
    words: impl Iterator<Item = &'a str>,
    within: &[&str],
) -> Option<(usize, &'a str)> {
    let mut rest = within.iter();
    for (n, word) in words.enumerate() {
        if !rest.any(|w| *w == word) {
            return Some((n, word));
        }
    }
    None
}

#[cfg(test)]
mod main_content_tests {
    use super::not_in_order;

    #[test]
    fn words_in_order_are_a_subsequence() {
        let within = ["a", "b", "c", "b", "d"];
        assert_eq!(not_in_order("a c d".split(' '), &within), None);
        assert_eq!(not_in_order("b b".split(' '), &within), None);
        assert_eq!(not_in_order("".split_whitespace(), &within), None);
        // Reordered, repeated beyond what is there, or new.
        assert_eq!(not_in_order("c a".split(' '), &within), Some((1, "a")));
        assert_eq!(not_in_order("d d".split(' '), &within), Some((1, "d")));
        assert_eq!(not_in_order("a x".split(' '), &within), Some((1, "x")));
    }
}
