//! html5lib-tests' encoding suite: the encoding a browser ends up with for
//! each page of `tests/html5lib-tests/encoding/` (`*.dat` and
//! `scripted/*.dat`), by the sniffer over the whole page
//! ([`Sniffer::sniff`], [`Sniffer::decode`]) with and without the
//! statistical guess, and by a decoding stream fed in several chunk sizes,
//! whose decision plus the `<meta>` it reports as declared late
//! ([`Sniffed::declared_late`]) must name the same encoding.
//!
//! Prints passed/failed per file and fails unless every test passes,
//! except the ones listed in [`NOT_EXPRESSIBLE`] with the reason: those are
//! run too, and must give the answer of a parser that runs no scripts
//! (written by hand below), so that the list cannot hide a regression.
//! A missing directory or file is a failure.

use std::path::{Path, PathBuf};

use htmltok::encoding::{Encoding, Sniffed, Sniffer};
use htmltok::{Config, StreamTokenizer};

/// Tests that htmltok cannot run as written: (file, 1-based index in the
/// file, the encoding a parser that runs no scripts ends up with, why).
const NOT_EXPRESSIBLE: &[(&str, usize, &str, &str)] = &[(
    "scripted/tests1.dat",
    1,
    // The prescan reads `charset="ISO-8859-' + '2"`, whose value names no
    // encoding, and nothing else declares one: the page is ASCII, so the
    // default.
    "windows-1252",
    "the page's declaration exists only once its script runs \
     (document.write('<meta charset=\"ISO-8859-' + '2\">')); htmltok runs no scripts",
)];

/// The files of the suite, relative to its directory: all must be there.
const FILES: &[&str] = &[
    "tests1.dat",
    "tests2.dat",
    "test-yahoo-jp.dat",
    "scripted/tests1.dat",
];

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/html5lib-tests/encoding")
}

/// One test: the page's bytes and the expected encoding's label.
struct Case {
    data: Vec<u8>,
    label: String,
}

/// The tests of a `.dat` file: `#data` (bytes up to the line break before
/// `#encoding`) and `#encoding` (one line).
fn parse(bytes: &[u8], file: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let after = rest
            .strip_prefix(b"#data\n")
            .unwrap_or_else(|| panic!("{file}: a test does not start with #data"));
        let end = memchr::memmem::find(after, b"\n#encoding\n")
            .unwrap_or_else(|| panic!("{file}: #data without #encoding"));
        let data = after[..end].to_vec();
        let tail = &after[end + b"\n#encoding\n".len()..];
        let line_end = memchr::memchr(b'\n', tail).unwrap_or(tail.len());
        let label = String::from_utf8(tail[..line_end].to_vec()).expect("a label is ASCII");
        cases.push(Case { data, label });
        rest = tail.get(line_end + 1..).unwrap_or_default();
        // Tests are separated by an empty line.
        while let Some(r) = rest.strip_prefix(b"\n") {
            rest = r;
        }
    }
    cases
}

/// What a decoding stream fed `chunk`-byte chunks decided, tokens taken
/// after every chunk as the stream asks.
fn streamed(data: &[u8], sniffer: Sniffer, chunk: usize) -> Sniffed {
    let mut stream = StreamTokenizer::decoding(sniffer, Config::new());
    for piece in data.chunks(chunk) {
        stream.feed(piece);
        while stream.next_token().is_some() {}
    }
    stream.finish();
    while stream.next_token().is_some() {}
    assert!(stream.is_finished());
    stream.sniffed().expect("a finished stream has decided")
}

/// Every way of deciding `data`'s encoding, each with the encoding it
/// ends up with; all must agree for a test to pass.
fn answers(data: &[u8]) -> Vec<(String, &'static Encoding)> {
    let mut out = Vec::new();
    for (name, sniffer) in [
        ("guess", Sniffer::new()),
        ("no guess", Sniffer::new().statistical_guess(false)),
    ] {
        let sniffed = sniffer.sniff(data);
        assert_eq!(
            sniffed.declared_late, None,
            "a whole page follows its <meta>"
        );
        out.push((format!("sniff ({name})"), sniffed.encoding));
        let decoded = sniffer.decode(data);
        out.push((format!("decode ({name})"), decoded.sniffed.encoding));
        let (text, _, _) = decoded.sniffed.encoding.decode(data);
        assert_eq!(decoded.text, text, "decode's text is encoding_rs's");
        for chunk in [1, 7, 1000, data.len().max(1)] {
            let s = streamed(data, sniffer, chunk);
            let ends_in = s.declared_late.unwrap_or(s.encoding);
            out.push((format!("stream of {chunk}-byte chunks ({name})"), ends_in));
        }
    }
    out
}

#[test]
fn html5lib_encoding_suite() {
    let dir = suite_dir();
    assert!(dir.is_dir(), "the suite is missing: {}", dir.display());
    println!("html5lib-tests encoding: {}", dir.display());
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for &file in FILES {
        let path = dir.join(file);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let cases = parse(&bytes, file);
        assert!(!cases.is_empty(), "{file} has no tests");
        let (mut p, mut f, mut n) = (0, 0, 0);
        for (i, case) in cases.iter().enumerate() {
            let index = i + 1;
            let want = Encoding::for_label(case.label.trim().as_bytes())
                .unwrap_or_else(|| panic!("{file} #{index}: unknown label {:?}", case.label));
            let got = answers(&case.data);
            if let Some(&(_, _, no_script, why)) = NOT_EXPRESSIBLE
                .iter()
                .find(|(f, i, _, _)| *f == file && *i == index)
            {
                let without = Encoding::for_label(no_script.as_bytes()).expect("a label");
                for (how, encoding) in &got {
                    assert_eq!(
                        *encoding, without,
                        "{file} #{index} ({how}): not the answer without scripts"
                    );
                }
                println!(
                    "  {file} #{index}: not expressible, expected {}, without scripts {}: {why}",
                    want.name(),
                    without.name()
                );
                n += 1;
                continue;
            }
            let wrong: Vec<_> = got.iter().filter(|(_, e)| *e != want).collect();
            if wrong.is_empty() {
                p += 1;
            } else {
                f += 1;
                failures.push(format!(
                    "{file} #{index}: expected {}, got {}",
                    want.name(),
                    wrong
                        .iter()
                        .map(|(how, e)| format!("{} by {how}", e.name()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        println!("{file:>22}: {p:>3} passed, {f:>3} failed, {n} not expressible");
        passed += p;
        failed += f;
        skipped += n;
    }
    for failure in &failures {
        println!("FAILED {failure}");
    }
    println!("{passed} passed, {failed} failed, {skipped} not expressible");
    assert_eq!(
        skipped,
        NOT_EXPRESSIBLE.len(),
        "a test listed as not expressible is missing"
    );
    assert!(failures.is_empty(), "{failed} encoding test(s) failed");
}

#[test]
fn the_parser_reads_the_format() {
    let cases = parse(
        b"#data\n<meta charset=x>\n\n#encoding\nutf-8\n\n#data\n<\n#encoding\nwindows-1252\n",
        "made",
    );
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].data, b"<meta charset=x>\n");
    assert_eq!(
        (cases[1].data.as_slice(), cases[1].label.as_str()),
        (&b"<"[..], "windows-1252")
    );
}
