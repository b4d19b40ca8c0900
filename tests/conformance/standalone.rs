//! Standalone mode: the tokenizer applies the standard tree builder's
//! tokenizer switches itself (see `src/tokenizer/feedback.rs`).
//!
//! Every expectation here was written by hand from the WHATWG HTML standard,
//! chapter 13.2.6 (tree construction): which start tags run the "generic raw
//! text element parsing algorithm" (RAWTEXT) or the "generic RCDATA element
//! parsing algorithm" (RCDATA), the `script` start tag in "in head" (script
//! data), `plaintext` in "in body" (PLAINTEXT), `noscript` with scripting
//! enabled, the tree construction dispatcher (HTML integration points, MathML
//! text integration points), the rules for parsing tokens in foreign content
//! (including the list of start tags that break out of it), and the markup
//! declaration open state (a CDATA section only when there is an adjusted
//! current node that is not in the HTML namespace). None was derived by
//! running the tokenizer.
//!
//! Tokens are compared in html5lib-tests JSON (adjacent characters joined, the
//! end-of-file token omitted), parsed with serde_json.

use htmltok::{Config, OwnedToken, Tokenizer};
use serde_json::Value;
use testkit::json::{tokens_json, tokens_json_chunked};

/// The configuration a case runs under.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// `Config::new()`: standalone, scripting on.
    Standalone,
    /// `Config::new().scripting(false)`.
    NoScripting,
    /// `Config::new().driven(true)`: no automatic switching.
    Driven,
}

impl Mode {
    fn config(self) -> Config {
        match self {
            Mode::Standalone => Config::new(),
            Mode::NoScripting => Config::new().scripting(false),
            Mode::Driven => Config::new().driven(true),
        }
    }
}

use Mode::{Driven, NoScripting, Standalone};

/// (mode, input, expected tokens as html5lib-tests JSON).
type Case = (Mode, &'static str, &'static str);

/// The tree builder's switches in HTML content, in foreign content, at
/// integration points and at breakout tags.
const CASES: &[Case] = &[
    // "in head": a script start tag switches the tokenizer to the script data state.
    (
        Standalone,
        r#"<script>if (a<b) x="</div>"</script>"#,
        r#"[["StartTag","script",{}],["Character","if (a<b) x=\"</div>\""],["EndTag","script"]]"#,
    ),
    // "in head": style follows the generic raw text element parsing algorithm (RAWTEXT: no references).
    (
        Standalone,
        "<style>a<b>c</b>&amp;</style>",
        r#"[["StartTag","style",{}],["Character","a<b>c</b>&amp;"],["EndTag","style"]]"#,
    ),
    // "in head": title follows the generic RCDATA element parsing algorithm; RCDATA decodes references.
    (
        Standalone,
        "<title>a &amp; <b></title>",
        r#"[["StartTag","title",{}],["Character","a & <b>"],["EndTag","title"]]"#,
    ),
    // "in body": a textarea start tag switches the tokenizer to the RCDATA state.
    (
        Standalone,
        "<textarea><p>a&lt;b</p></textarea>",
        r#"[["StartTag","textarea",{}],["Character","<p>a<b</p>"],["EndTag","textarea"]]"#,
    ),
    // RCDATA end tag name state: whitespace after an appropriate end tag name goes to before attribute name.
    (
        Standalone,
        r#"<textarea>a</textarea class="x" id=y>b"#,
        r#"[["StartTag","textarea",{}],["Character","a"],["EndTag","textarea"],["Character","b"]]"#,
    ),
    // "in body": plaintext switches to the PLAINTEXT state, which nothing leaves.
    (
        Standalone,
        "<plaintext>a</plaintext><b>&amp;",
        r#"[["StartTag","plaintext",{}],["Character","a</plaintext><b>&amp;"]]"#,
    ),
    // "in body": noscript with the scripting flag enabled follows the generic raw text algorithm.
    (
        Standalone,
        "<noscript><p>x</p></noscript>",
        r#"[["StartTag","noscript",{}],["Character","<p>x</p>"],["EndTag","noscript"]]"#,
    ),
    // "in body": noscript with the scripting flag disabled is an ordinary element.
    (
        NoScripting,
        "<noscript><p>x</p></noscript>",
        r#"[["StartTag","noscript",{}],["StartTag","p",{}],["Character","x"],["EndTag","p"],["EndTag","noscript"]]"#,
    ),
    // "in body": xmp follows the generic raw text element parsing algorithm.
    (
        Standalone,
        "<xmp><b>&amp;</b></xmp>",
        r#"[["StartTag","xmp",{}],["Character","<b>&amp;</b>"],["EndTag","xmp"]]"#,
    ),
    // "in body": iframe follows the generic raw text element parsing algorithm.
    (
        Standalone,
        "<iframe><p>x</p></iframe>",
        r#"[["StartTag","iframe",{}],["Character","<p>x</p>"],["EndTag","iframe"]]"#,
    ),
    // "in body": noembed follows the generic raw text element parsing algorithm.
    (
        Standalone,
        "<noembed><p>x</p></noembed>",
        r#"[["StartTag","noembed",{}],["Character","<p>x</p>"],["EndTag","noembed"]]"#,
    ),
    // "in body" defers noframes to "in head", which runs the generic raw text algorithm.
    (
        Standalone,
        "<noframes><p>x</p></noframes>",
        r#"[["StartTag","noframes",{}],["Character","<p>x</p>"],["EndTag","noframes"]]"#,
    ),
    // A self-closing flag on a non-void HTML element is ignored: "in head" script still switches.
    (
        Standalone,
        "<script/>a<b</script>",
        r#"[["StartTag","script",{},true],["Character","a<b"],["EndTag","script"]]"#,
    ),
    // Tag names are lowercased, so </SCRIPT> is an appropriate end tag for <SCRIPT>.
    (
        Standalone,
        "<SCRIPT>a<b</SCRIPT>",
        r#"[["StartTag","script",{}],["Character","a<b"],["EndTag","script"]]"#,
    ),
    // Script data escaped/double escaped states: after <!--<script> the first </script> ends nothing.
    (
        Standalone,
        "<script><!--<script>x</script>y</script>",
        r#"[["StartTag","script",{}],["Character","<!--<script>x</script>y"],["EndTag","script"]]"#,
    ),
    // Markup declaration open: adjusted current node svg is not HTML, so a CDATA section opens.
    (
        Standalone,
        "<svg><![CDATA[x<y]]></svg>",
        r#"[["StartTag","svg",{}],["Character","x<y"],["EndTag","svg"]]"#,
    ),
    // Markup declaration open: in HTML content [CDATA[ starts a bogus comment.
    (Standalone, "<![CDATA[x]]>", r#"[["Comment","[CDATA[x]]"]]"#),
    // Markup declaration open: adjusted current node math is MathML, so a CDATA section opens.
    (
        Standalone,
        "<math><![CDATA[a]]></math>",
        r#"[["StartTag","math",{}],["Character","a"],["EndTag","math"]]"#,
    ),
    // Foreign content, any other start tag: svg style switches nothing; <b> then breaks out.
    (
        Standalone,
        "<svg><style>a<b>c</b></style></svg>",
        r#"[["StartTag","svg",{}],["StartTag","style",{}],["Character","a"],["StartTag","b",{}],["Character","c"],["EndTag","b"],["EndTag","style"],["EndTag","svg"]]"#,
    ),
    // Foreign content, any other start tag: an SVG script is not script data.
    (
        Standalone,
        "<svg><script>a<b>c</b></script></svg>",
        r#"[["StartTag","svg",{}],["StartTag","script",{}],["Character","a"],["StartTag","b",{}],["Character","c"],["EndTag","b"],["EndTag","script"],["EndTag","svg"]]"#,
    ),
    // Foreign content: a self-closing svg title is popped at once, so style is SVG markup again.
    (
        Standalone,
        "<svg><title/><style>a<g/>b</style></svg>",
        r#"[["StartTag","svg",{}],["StartTag","title",{},true],["StartTag","style",{}],["Character","a"],["StartTag","g",{},true],["Character","b"],["EndTag","style"],["EndTag","svg"]]"#,
    ),
    // Foreign content, any other end tag: </title> and </svg> pop, then "in head" style is RAWTEXT.
    (
        Standalone,
        "<svg><title>t</title></svg><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","title",{}],["Character","t"],["EndTag","title"],["EndTag","svg"],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Dispatcher: foreignObject is an HTML integration point, so start tags follow HTML rules.
    (
        Standalone,
        "<svg><foreignObject><style>a<b</style></foreignObject></svg>",
        r#"[["StartTag","svg",{}],["StartTag","foreignobject",{}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"],["EndTag","foreignobject"],["EndTag","svg"]]"#,
    ),
    // Dispatcher: svg desc is an HTML integration point; textarea is RCDATA there.
    (
        Standalone,
        "<svg><desc><textarea>a<b</textarea></desc></svg>",
        r#"[["StartTag","svg",{}],["StartTag","desc",{}],["StartTag","textarea",{}],["Character","a<b"],["EndTag","textarea"],["EndTag","desc"],["EndTag","svg"]]"#,
    ),
    // Dispatcher: mi is a MathML text integration point; start tags other than mglyph/malignmark are HTML.
    (
        Standalone,
        "<math><mi><style>a<b</style></mi></math>",
        r#"[["StartTag","math",{}],["StartTag","mi",{}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"],["EndTag","mi"],["EndTag","math"]]"#,
    ),
    // HTML integration point: annotation-xml whose encoding is text/html.
    (
        Standalone,
        r#"<math><annotation-xml encoding="text/html"><style>a<b</style></annotation-xml></math>"#,
        r#"[["StartTag","math",{}],["StartTag","annotation-xml",{"encoding":"text/html"}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"],["EndTag","annotation-xml"],["EndTag","math"]]"#,
    ),
    // annotation-xml without an encoding is no integration point: style is MathML, "<b</style>" a tag.
    (
        Standalone,
        "<math><annotation-xml><style>a<b</style></annotation-xml></math>",
        r#"[["StartTag","math",{}],["StartTag","annotation-xml",{}],["StartTag","style",{}],["Character","a"],["StartTag","b<",{"style":""}],["EndTag","annotation-xml"],["EndTag","math"]]"#,
    ),
    // Foreign content: p is a breakout start tag; reprocessed in HTML content, style is RAWTEXT.
    (
        Standalone,
        "<svg><p><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","p",{}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Foreign content: font with a color attribute breaks out.
    (
        Standalone,
        "<svg><font color=red><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","font",{"color":"red"}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Foreign content: font without color/face/size does not break out; style stays SVG markup.
    (
        Standalone,
        "<svg><font><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","font",{}],["StartTag","style",{}],["Character","a"],["StartTag","b<",{"style":""}]]"#,
    ),
    // Foreign content: the inner svg's end tag pops only it; the outer svg still allows CDATA.
    (
        Standalone,
        "<svg><svg></svg><![CDATA[x]]></svg>",
        r#"[["StartTag","svg",{}],["StartTag","svg",{}],["EndTag","svg"],["Character","x"],["EndTag","svg"]]"#,
    ),
    // "in body": a self-closing svg is popped at once, so the adjusted current node is HTML again.
    (
        Standalone,
        "<svg/><![CDATA[x]]>",
        r#"[["StartTag","svg",{},true],["Comment","[CDATA[x]]"]]"#,
    ),
    // "in frameset": any start tag other than frameset/frame/noframes is ignored, so style switches nothing.
    (
        Standalone,
        "<frameset><style>a<b</style>",
        r#"[["StartTag","frameset",{}],["StartTag","style",{}],["Character","a"],["StartTag","b<",{"style":""}]]"#,
    ),
    // Driven mode: no tree builder switches; the tokenizer stays in the data state.
    (
        Driven,
        "<title><b></title>",
        r#"[["StartTag","title",{}],["StartTag","b",{}],["EndTag","title"]]"#,
    ),
    // Driven mode: CDATA sections are not allowed unless the caller says so.
    (
        Driven,
        "<svg><![CDATA[x]]></svg>",
        r#"[["StartTag","svg",{}],["Comment","[CDATA[x]]"],["EndTag","svg"]]"#,
    ),
    // HTML integration point: annotation-xml encoding is an ASCII case-insensitive match (application/xhtml+xml).
    (
        Standalone,
        r#"<math><annotation-xml encoding="Application/XHTML+XML"><style>a<b</style></annotation-xml></math>"#,
        r#"[["StartTag","math",{}],["StartTag","annotation-xml",{"encoding":"Application/XHTML+XML"}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"],["EndTag","annotation-xml"],["EndTag","math"]]"#,
    ),
    // Foreign content: font with a face attribute breaks out.
    (
        Standalone,
        "<svg><font face=x><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","font",{"face":"x"}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Foreign content: font with a size attribute breaks out.
    (
        Standalone,
        "<svg><font size=2><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","font",{"size":"2"}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Foreign content: an end tag p (or br) pops to HTML content and is reprocessed there.
    (
        Standalone,
        "<svg></p><style>a<b</style>",
        r#"[["StartTag","svg",{}],["EndTag","p"],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Foreign content, any other end tag: </svg> with g open walks up to svg and pops both.
    (
        Standalone,
        "<svg><g></svg><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","g",{}],["EndTag","svg"],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Dispatcher: in svg title (HTML integration point) an HTML title start tag is RCDATA.
    (
        Standalone,
        "<svg><title><title>a<b&amp;</title></title></svg>",
        r#"[["StartTag","svg",{}],["StartTag","title",{}],["StartTag","title",{}],["Character","a<b&"],["EndTag","title"],["EndTag","title"],["EndTag","svg"]]"#,
    ),
    // Foreign content: plaintext is not a breakout tag, so it is ordinary SVG markup.
    (
        Standalone,
        "<svg><plaintext>a<g/></plaintext></svg>",
        r#"[["StartTag","svg",{}],["StartTag","plaintext",{}],["Character","a"],["StartTag","g",{},true],["EndTag","plaintext"],["EndTag","svg"]]"#,
    ),
    // Dispatcher: in mi (MathML text integration point) plaintext is HTML and switches to PLAINTEXT.
    (
        Standalone,
        "<math><mi><plaintext>a</mi></math>",
        r#"[["StartTag","math",{}],["StartTag","mi",{}],["StartTag","plaintext",{}],["Character","a</mi></math>"]]"#,
    ),
    // Foreign content, any other end tag: </foreignObject> pops it, and style is SVG markup again.
    (
        Standalone,
        "<svg><foreignObject></foreignObject><style>a<g/>b</style></svg>",
        r#"[["StartTag","svg",{}],["StartTag","foreignobject",{}],["EndTag","foreignobject"],["StartTag","style",{}],["Character","a"],["StartTag","g",{},true],["Character","b"],["EndTag","style"],["EndTag","svg"]]"#,
    ),
    // Foreign content: </script> pops the SVG script; the adjusted current node svg allows CDATA.
    (
        Standalone,
        "<svg><script>a<g>c</g></script><![CDATA[x]]></svg>",
        r#"[["StartTag","svg",{}],["StartTag","script",{}],["Character","a"],["StartTag","g",{}],["Character","c"],["EndTag","g"],["EndTag","script"],["Character","x"],["EndTag","svg"]]"#,
    ),
    // CDATA section state: only ]]> ends it, so </svg> inside is text.
    (
        Standalone,
        "<svg><![CDATA[</svg>]]></svg>",
        r#"[["StartTag","svg",{}],["Character","</svg>"],["EndTag","svg"]]"#,
    ),
    // A self-closing flag on textarea is ignored: "in body" textarea still switches to RCDATA.
    (
        Standalone,
        "<textarea/>a<b></textarea>",
        r#"[["StartTag","textarea",{},true],["Character","a<b>"],["EndTag","textarea"]]"#,
    ),
    // RCDATA end tag name state: </titlex> is not an appropriate end tag, so it is text.
    (
        Standalone,
        "<title></titlex>&lt;</title>",
        r#"[["StartTag","title",{}],["Character","</titlex><"],["EndTag","title"]]"#,
    ),
    // Scripting disabled: noscript is ordinary, but style inside it is still RAWTEXT.
    (
        NoScripting,
        "<noscript><style>a<b</style></noscript>",
        r#"[["StartTag","noscript",{}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"],["EndTag","noscript"]]"#,
    ),
    // Tag names are lowercased; <SVG> opens foreign content all the same.
    (
        Standalone,
        "<SVG><![CDATA[x]]></SVG>",
        r#"[["StartTag","svg",{}],["Character","x"],["EndTag","svg"]]"#,
    ),
    // Markup declaration open: inside foreignObject a div is the adjusted current node, HTML: bogus comment.
    (
        Standalone,
        "<svg><foreignObject><div><![CDATA[x]]></div></foreignObject></svg>",
        r#"[["StartTag","svg",{}],["StartTag","foreignobject",{}],["StartTag","div",{}],["Comment","[CDATA[x]]"],["EndTag","div"],["EndTag","foreignobject"],["EndTag","svg"]]"#,
    ),
    // "in body" frameset: with frameset-ok still "ok" after <p>, frameset replaces body; style is ignored.
    (
        Standalone,
        "<p><frameset><style>a<b</style>",
        r#"[["StartTag","p",{}],["StartTag","frameset",{}],["StartTag","style",{}],["Character","a"],["StartTag","b<",{"style":""}]]"#,
    ),
    // Dispatcher: in mi a start tag svg is HTML ("in body" svg), which opens foreign content again.
    (
        Standalone,
        "<math><mi><svg><style>a<g/>b</style></svg></mi></math>",
        r#"[["StartTag","math",{}],["StartTag","mi",{}],["StartTag","svg",{}],["StartTag","style",{}],["Character","a"],["StartTag","g",{},true],["Character","b"],["EndTag","style"],["EndTag","svg"],["EndTag","mi"],["EndTag","math"]]"#,
    ),
    // Dispatcher: svg in annotation-xml (no encoding) goes through "in body", opening SVG content.
    (
        Standalone,
        "<math><annotation-xml><svg><style>a<g/>b</style></svg></annotation-xml></math>",
        r#"[["StartTag","math",{}],["StartTag","annotation-xml",{}],["StartTag","svg",{}],["StartTag","style",{}],["Character","a"],["StartTag","g",{},true],["Character","b"],["EndTag","style"],["EndTag","svg"],["EndTag","annotation-xml"],["EndTag","math"]]"#,
    ),
    // Dispatcher: in foreignObject, script is HTML ("in head" script): script data.
    (
        Standalone,
        "<svg><foreignObject><script>a<b</script></foreignObject></svg>",
        r#"[["StartTag","svg",{}],["StartTag","foreignobject",{}],["StartTag","script",{}],["Character","a<b"],["EndTag","script"],["EndTag","foreignobject"],["EndTag","svg"]]"#,
    ),
    // Dispatcher: ms is a MathML text integration point; title there is RCDATA.
    (
        Standalone,
        "<math><ms><title>a<b</title></ms></math>",
        r#"[["StartTag","math",{}],["StartTag","ms",{}],["StartTag","title",{}],["Character","a<b"],["EndTag","title"],["EndTag","ms"],["EndTag","math"]]"#,
    ),
    // Foreign content: math inside svg is a MathML element; adjusted current node not HTML: CDATA.
    (
        Standalone,
        "<svg><math><![CDATA[x]]></math></svg>",
        r#"[["StartTag","svg",{}],["StartTag","math",{}],["Character","x"],["EndTag","math"],["EndTag","svg"]]"#,
    ),
];

/// Further rules of the standard, at the edges of the tree builder's
/// behaviour: frameset handling, CDATA at integration points, `mglyph`, and
/// end tags at integration points.
const EDGE_CASES: &[Case] = &[
    // "in frameset": a noframes start tag is processed using the "in head" rules: RAWTEXT.
    (
        Standalone,
        "<frameset><noframes><b></noframes>",
        r#"[["StartTag","frameset",{}],["StartTag","noframes",{}],["Character","<b>"],["EndTag","noframes"]]"#,
    ),
    // "after frameset": a noframes start tag is processed using the "in head" rules: RAWTEXT.
    (
        Standalone,
        "<frameset></frameset><noframes><b></noframes>",
        r#"[["StartTag","frameset",{}],["EndTag","frameset"],["StartTag","noframes",{}],["Character","<b>"],["EndTag","noframes"]]"#,
    ),
    // "after head" body sets frameset-ok to "not ok"; "in body" then ignores frameset, so style is RAWTEXT.
    (
        Standalone,
        "<body><frameset><style>a<b</style>",
        r#"[["StartTag","body",{}],["StartTag","frameset",{}],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // Markup declaration open: the adjusted current node foreignObject is in the SVG namespace: CDATA.
    (
        Standalone,
        "<svg><foreignObject><![CDATA[x]]></foreignObject></svg>",
        r#"[["StartTag","svg",{}],["StartTag","foreignobject",{}],["Character","x"],["EndTag","foreignobject"],["EndTag","svg"]]"#,
    ),
    // Markup declaration open: the adjusted current node mtext is in the MathML namespace: CDATA.
    (
        Standalone,
        "<math><mtext><![CDATA[x]]></mtext></math>",
        r#"[["StartTag","math",{}],["StartTag","mtext",{}],["Character","x"],["EndTag","mtext"],["EndTag","math"]]"#,
    ),
    // Dispatcher: mglyph in mi goes to foreign content, so the style inside mglyph is MathML markup.
    (
        Standalone,
        "<math><mi><mglyph><style>a<g/>b</style>",
        r#"[["StartTag","math",{}],["StartTag","mi",{}],["StartTag","mglyph",{}],["StartTag","style",{}],["Character","a"],["StartTag","g",{},true],["Character","b"],["EndTag","style"]]"#,
    ),
    // Dispatcher: end tags in an integration point use foreign content rules; </svg> closes desc and svg.
    (
        Standalone,
        "<svg><desc></svg></desc><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","desc",{}],["EndTag","svg"],["EndTag","desc"],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
    // "in body" any other end tag: p is special, so </foreignObject> is ignored and style is RAWTEXT.
    (
        Standalone,
        "<svg><foreignObject><p>x</foreignObject><style>a<b</style>",
        r#"[["StartTag","svg",{}],["StartTag","foreignobject",{}],["StartTag","p",{}],["Character","x"],["EndTag","foreignobject"],["StartTag","style",{}],["Character","a<b"],["EndTag","style"]]"#,
    ),
];

fn parse(json: &str, what: &str) -> Value {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{what} is not JSON ({e}): {json}"))
}

/// Runs every case; panics listing all mismatches.
fn check(cases: &[Case]) {
    let mut failures = Vec::new();
    for &(mode, input, expected) in cases {
        let expected = parse(expected, &format!("expectation for {input:?}"));
        let actual_json = tokens_json(input.as_bytes(), mode.config(), false);
        let actual = parse(&actual_json, &format!("output for {input:?}"));
        if actual != expected {
            failures.push(format!(
                "{mode:?} {input:?}\n  expected {expected}\n  actual   {actual}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn standalone_switches() {
    assert!(CASES.len() >= 35);
    check(CASES);
}

#[test]
fn standalone_edge_cases() {
    check(EDGE_CASES);
}

/// The streaming API applies the same switches, wherever chunk boundaries
/// fall (here even inside `<![CDATA[`, `</script` and attribute values).
#[test]
fn standalone_streaming_matches_whole_input() {
    let mut failures = Vec::new();
    for &(mode, input, _) in CASES.iter().chain(EDGE_CASES) {
        let whole = tokens_json(input.as_bytes(), mode.config(), false);
        for n in [1, 3, 64] {
            let chunked = tokens_json_chunked(input.as_bytes(), mode.config(), false, n);
            if chunked != whole {
                failures.push(format!(
                    "{mode:?} {input:?} in chunks of {n}\n  whole   {whole}\n  chunked {chunked}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `Tokenizer::new` is standalone by default and `.owned()` yields the same
/// tokens: "in head" script switches to script data.
#[test]
fn tokenizer_new_is_standalone() {
    let input = r#"<script>if (a<b) x="</div>"</script>"#;
    let mut tokens: Vec<OwnedToken> = Vec::new();
    for token in Tokenizer::new(input).owned() {
        match (token, tokens.last_mut()) {
            (OwnedToken::Eof, _) => {}
            (OwnedToken::Text(s), Some(OwnedToken::Text(prev))) => prev.push_str(&s),
            (token, _) => tokens.push(token),
        }
    }
    assert_eq!(
        tokens,
        vec![
            OwnedToken::StartTag {
                name: "script".into(),
                attributes: vec![],
                self_closing: false,
            },
            OwnedToken::Text(r#"if (a<b) x="</div>""#.into()),
            OwnedToken::EndTag {
                name: "script".into()
            },
        ]
    );
}
