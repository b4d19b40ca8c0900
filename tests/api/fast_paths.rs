//! The fast paths change speed, never output: with `Config::fast_paths`
//! off, every byte goes through the plain state machine (one step per state
//! of the standard), and the tokens, spans and errors must be the same as
//! with the fast paths on (the data lane, the tag fast path, decoding a
//! whole character reference at once).
//!
//! Inputs: every html5lib-tests tokenizer input, driven in each test's
//! initial states with its last start tag, and standalone; every page of
//! the corpus, standalone and driven; both with parse errors on and off.
//! (Random inputs: the `scalar_vs_simd` fuzz target and its proptest
//! version in `tests/fuzz_properties.rs` compare the plain machine too.)

use htmltok::Config;
use testkit::drive::{whole, Errors};
use testkit::record::{diff, Output};
use testkit::{compare, data};

/// The first difference between the fast and the plain run of `bytes`.
fn compare(bytes: &[u8], config: &Config, errors: Errors) -> Option<String> {
    let (fast, fast_anomalies) = whole(bytes, config, errors);
    let (plain, plain_anomalies) = whole(bytes, &config.clone().fast_paths(false), errors);
    if !fast_anomalies.is_empty() || !plain_anomalies.is_empty() {
        return Some(format!(
            "anomalies: fast {fast_anomalies:?}, plain {plain_anomalies:?}"
        ));
    }
    same(&plain, &fast)
}

/// `diff` labels its sides whole/streamed; here they are plain/fast.
fn same(plain: &Output, fast: &Output) -> Option<String> {
    diff(plain, fast).map(|d| {
        d.replace("whole:", "plain:")
            .replace("streamed:", "fast: ")
            .replace("whole has", "plain has")
            .replace("streamed has", "fast has")
    })
}

fn report(what: &str, runs: usize, failures: &[String]) {
    compare::report(
        "the fast paths and the plain state machine",
        what,
        runs,
        failures,
    );
}

#[test]
fn html5lib_inputs() {
    let (cases, _) = data::html5lib_cases();
    let mut runs = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let bytes = case.input.as_bytes();
        let mut configs = vec![("standalone".to_owned(), Config::new())];
        for &state in &case.states {
            let config = case.driven_config(state);
            configs.push((format!("{state:?}, driven"), config));
        }
        for (label, config) in &configs {
            for errors in [Errors::On, Errors::Off] {
                runs += 1;
                if let Some(d) = compare(bytes, config, errors) {
                    failures.push(format!("{} [{label}, errors {errors:?}]: {d}", case.label));
                }
            }
        }
    }
    report("html5lib inputs", runs, &failures);
}

#[test]
fn corpus_pages() {
    let pages = data::corpus_pages();
    let mut runs = 0;
    let mut failures = Vec::new();
    let configs = [
        ("standalone", Config::new()),
        ("driven", Config::new().driven(true)),
    ];
    for (name, bytes) in &pages {
        for (label, config) in &configs {
            for errors in [Errors::On, Errors::Off] {
                runs += 1;
                if let Some(d) = compare(bytes, config, errors) {
                    failures.push(format!("{name} [{label}, errors {errors:?}]: {d}"));
                }
            }
        }
    }
    report("corpus pages", runs, &failures);
}

/// Shapes the fast paths take apart, each next to the byte that makes them
/// hand over to the plain machine, so that both sides of every hand-over
/// are compared (with and without errors).
#[test]
fn hand_overs() {
    let pieces: &[&str] = &[
        "<a href=\"x&amp;y\">",
        "<a href='x&amp=y'>",
        "<a href=x&ampz>",
        "<a href=\"&#x41;&#65&#0;&#x110000;&#xD800;&#128;\">",
        "<a b=\"&notit; &notin; &bogus; &;\">",
        "<a b=\"1\r\n2\">",
        "<a B=1 c=2 C=3>",
        "<a b c d=e f='g' h=\"i\"/>",
        "<a b=\"x\"c>",
        "<a b==c>",
        "<a b=\"\0\">",
        "<a\r\nb>",
        "</a b>",
        "</a/>",
        "<a/b>",
        "x &amp; y &lt z &#x26; &#38 &unknown; &",
        "&&&&&",
        "&#",
        "&#x",
        "&#xzz",
        "&am",
        "<",
        "</",
        "<a",
        "<a b",
        "<a b=",
        "<a b=\"",
        "<a b=\"&",
        "<a b=\"&am",
        "<!---->",
        "<!-- a --!> b",
        "<!--->",
        "<!-->",
        "<!-- <!-- -->",
        "<!-- a -- b --->",
        "<!-- a\r\nb -->",
        "<!--",
        "<!-- a -",
        "<!-- a --",
        "<!-- a --!",
        "<script>",
        "</script>",
        "</script x>",
        "</SCRIPT>",
        "</scr",
        "<!--<script>",
        "<title>",
        "</title>",
        "</TITLE >",
        "<style>",
        "</style/>",
        "a<b",
        "<DIV CLASS=x>",
        "</DIV>",
        "<A HREF='x' hRef=y Href>",
        "<Img SRC=a\u{e9}B>",
        "<p \u{e9}\u{e9}\u{e9}=\u{e9}>",
        "<\u{1F600}>",
    ];
    let mut failures = Vec::new();
    let mut runs = 0;
    for a in pieces {
        for b in pieces {
            let input = format!("{a}{b}");
            for errors in [Errors::On, Errors::Off] {
                // A length limit makes the fast path stop early, inside
                // names and values (and inside characters, which it must
                // not).
                for config in [Config::new(), Config::new().max_token_len(7)] {
                    runs += 1;
                    if let Some(d) = compare(input.as_bytes(), &config, errors) {
                        failures.push(format!("{input:?} [errors {errors:?}, {config:?}]: {d}"));
                    }
                }
            }
        }
    }
    report("hand-overs", runs, &failures);
}
