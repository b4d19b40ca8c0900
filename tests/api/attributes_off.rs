//! A tokenizer that skips attributes (`SkipAttributes`, how
//! `extract::text` tokenizes) hands out the tokens one with errors off
//! hands out, less every tag's attributes: whole documents through
//! `next_token` and `for_each_token`, and streams (one byte at a time for
//! the html5lib inputs, 4 KiB and odd chunks for the pages). Its tag fast
//! path steps over attributes without building them, so this holds that
//! walk against the full one; standalone mode's feedback still reads the
//! attributes it needs.
//!
//! Inputs: every html5lib-tests tokenizer input (standalone, and driven in
//! each test's initial states), every page of the corpus (standalone and
//! driven), and hand-written pairs of pieces around the fast path's
//! hand-overs and the feedback's attributes.

use htmltok::{Config, Flow, Input, Tokenizer};
use testkit::drive::{streamed, whole, Errors};
use testkit::record::{diff, Normalizer, Output, Rec};
use testkit::{compare, data, rng};

/// `out` with every tag's attributes taken away.
fn stripped(mut out: Output) -> Output {
    for rec in &mut out.tokens {
        if let Rec::StartTag { attrs, .. } | Rec::EndTag { attrs, .. } = rec {
            attrs.clear();
        }
    }
    out
}

/// `for_each_token` over a whole document skipping attributes (standalone,
/// or driven without switches), adjacent text joined as `whole` joins it.
fn for_each(bytes: &[u8], config: &Config) -> Output {
    let mut norm = Normalizer::new(true);
    let mut tok = Tokenizer::with_config(
        Input::from_utf8_lossy(bytes),
        config.clone().skip_attributes(),
    );
    tok.for_each_token(|t| {
        norm.push(&t);
        Flow::Continue
    });
    Output {
        tokens: norm.tokens,
        errors: Vec::new(),
    }
}

/// The first difference between the run with attributes (errors off),
/// stripped, and the runs skipping them; `splits` cut a stream of `bytes`.
fn compare(bytes: &[u8], config: &Config, splits: &[usize]) -> Option<String> {
    let (with, anomalies) = whole(bytes, config, Errors::Off);
    if !anomalies.is_empty() {
        return Some(format!("anomalies with attributes: {anomalies:?}"));
    }
    let want = stripped(with);
    let (got, anomalies) = whole(bytes, config, Errors::SkipAttributes);
    if !anomalies.is_empty() {
        return Some(format!("anomalies skipping attributes: {anomalies:?}"));
    }
    let label = |how: &str, d: String| format!("a: attributes, stripped; b: skipped, {how}\n{d}");
    if let Some(d) = diff(&want, &got) {
        return Some(label("next_token", d));
    }
    if let Some(d) = diff(&want, &for_each(bytes, config)) {
        return Some(label("for_each_token", d));
    }
    let (got, anomalies) = streamed(bytes, config, Errors::SkipAttributes, splits, false);
    if !anomalies.is_empty() {
        return Some(format!("anomalies of the stream: {anomalies:?}"));
    }
    diff(&want, &got).map(|d| label("stream", d))
}

fn report(what: &str, runs: usize, failures: &[String]) {
    compare::report("attributes on (stripped) and off", what, runs, failures);
}

#[test]
fn html5lib_inputs() {
    let (cases, _) = data::html5lib_cases();
    let mut runs = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let bytes = case.input.as_bytes();
        let one_byte: Vec<usize> = (1..bytes.len()).collect();
        let mut configs = vec![("standalone".to_owned(), Config::new())];
        for &state in &case.states {
            configs.push((format!("{state:?}, driven"), case.driven_config(state)));
        }
        for (label, config) in &configs {
            runs += 1;
            if let Some(d) = compare(bytes, config, &one_byte) {
                failures.push(format!("{} [{label}]: {d}", case.label));
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
        ("standalone, scalar", Config::new().simd(false)),
    ];
    let mut rng = rng::XorShift::new(0x5eed_a77e);
    for (name, bytes) in &pages {
        for (label, config) in &configs {
            runs += 1;
            for splits in [
                rng::fixed_splits(bytes.len(), 4096),
                rng::random_sized(bytes.len(), 300, &mut rng),
            ] {
                if let Some(d) = compare(bytes, config, &splits) {
                    failures.push(format!("{name} [{label}]: {d}"));
                }
            }
        }
    }
    report("corpus pages", runs, &failures);
}

/// Each piece next to each other: the fast path's hand-overs inside
/// attributes (references, CR, NUL, stray quotes, upper case, the window's
/// end), and the tags whose attributes standalone mode's feedback reads.
#[test]
fn pieces() {
    let pieces: &[&str] = &[
        "<a href=\"x&amp;y\">",
        "<a href='x&amp=y'>",
        "<a href=x&ampz>",
        "<a b=\"1\r\n2\">",
        "<a B=1 c=2 C=3 b=4>",
        "<a b c d=e f='g' h=\"i\"/>",
        "<a b=\"x\"c>",
        "<a b==c>",
        "<a =b>",
        "<a b=\"\0\">",
        "<a b=x\0\"'<=`y>",
        "<a \"b\"='c'>",
        "<a b=/>",
        "<a b/>",
        "<a b='>'>",
        "</a b=c>",
        "<a",
        "<a b=\"",
        "<a b=\"&am",
        "<svg>",
        "<math>",
        "<font color=red>",
        "<FONT Face=x>",
        "<font class=x size=1/>",
        "<font>",
        "<annotation-xml encoding=\"text/html\">",
        "<annotation-xml ENCODING='Application/XHTML+XML'>",
        "<annotation-xml encoding=other>",
        "<input type=hidden>",
        "<input TYPE=HIDDEN>",
        "<input type=text>",
        "<frameset>",
        "<p>",
        "<title>x</title>",
        "<script a='</script>'>x</script>",
        "</svg>",
        "text &amp; more",
    ];
    let mut failures = Vec::new();
    let mut runs = 0;
    for a in pieces {
        for b in pieces {
            for c in ["", "<svg><p>", "<math><mi>"] {
                let input = format!("{c}{a}{b}x<title><b></title><style><i></style>");
                let bytes = input.as_bytes();
                let one_byte: Vec<usize> = (1..bytes.len()).collect();
                runs += 1;
                if let Some(d) = compare(bytes, &Config::new(), &one_byte) {
                    failures.push(format!("{input:?}: {d}"));
                }
            }
        }
    }
    report("pieces", runs, &failures);
}

/// What the feedback reads changes the tokens: these pages tokenize
/// differently with and without the attribute, so a mode that dropped it
/// before the feedback saw it would fail here (not only in `compare`).
#[test]
fn feedback_reads_attributes() {
    let text_after = |page: &str| -> Vec<String> {
        Tokenizer::with_config(
            Input::from_utf8_lossy(page.as_bytes()),
            Config::new().skip_attributes(),
        )
        .owned()
        .filter_map(|t| match t {
            htmltok::OwnedToken::Text(s) => Some(s),
            _ => None,
        })
        .collect()
    };
    // `<font color>` ends the `<svg>`, so `<title>` is the HTML one: RCDATA.
    assert_eq!(
        text_after("<svg><font color=red><title><b></title>"),
        ["<b>"]
    );
    assert_eq!(
        text_after("<svg><font><title><b></title>"),
        Vec::<String>::new()
    );
    // An HTML integration point: `<style>` in it is RAWTEXT.
    assert_eq!(
        text_after("<math><annotation-xml encoding=text/html><style><b></style>"),
        ["<b>"]
    );
    assert_eq!(
        text_after("<math><annotation-xml><style><b></style>"),
        Vec::<String>::new()
    );
}
