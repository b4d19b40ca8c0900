//! htmltok driving html5ever's tree builder (`htmltok::html5ever`, feature
//! `html5ever`) against html5ever's own parser.
//!
//! 1. html5lib's tree-construction suite (`tests/html5lib-tree/`, see its
//!    SOURCE): every test through both parsers, each tree written in the
//!    suite's format and compared with the expected one. A table per file
//!    is printed (`--nocapture`); the test asserts that htmltok-driven
//!    passes every test html5ever passes and that the two trees are the
//!    same on every test. It also holds the stream parser (fed a byte at a
//!    time) and the error-reporting parser to the same trees.
//! 2. Identical trees on every page of the repository's `corpus/`, plus the
//!    pages of `$HTMLTOK_CORPUS` when it is set.

use std::path::{Path, PathBuf};

use html5ever::tendril::TendrilSink;
use html5ever::{local_name, ns, LocalName, Namespace, QualName};
use htmltok::encoding::Sniffer;
use htmltok::html5ever::{parse_document, parse_fragment, ParseOpts, StreamParser};
use markup5ever_rcdom::RcDom;

use testkit::{data, dom, files};

// ---------------------------------------------------------------------------
// The suite's files.

/// One test of a `.dat` file.
#[derive(Debug)]
struct TreeTest {
    file: String,
    /// 1-based position in its file.
    index: usize,
    data: String,
    /// The context element of a fragment test: namespace and local name.
    fragment: Option<(Namespace, LocalName)>,
    /// The scripting flag, when the test sets it (else it runs both ways).
    scripting: Option<bool>,
    document: String,
}

const HEADINGS: [&str; 7] = [
    "#data",
    "#errors",
    "#new-errors",
    "#document-fragment",
    "#script-off",
    "#script-on",
    "#document",
];

/// The tests of one `.dat` file: sections start at heading lines; a
/// `#data` line after a blank line (or first) starts the next test, so
/// that data and trees may themselves hold blank lines.
fn parse_dat(file: &str, text: &str) -> Vec<TreeTest> {
    let mut tests = Vec::new();
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut prev_blank = true;
    let lines: Vec<&str> = text.split('\n').collect();
    let finish = |sections: &mut Vec<(&str, Vec<&str>)>, tests: &mut Vec<TreeTest>| {
        if sections.is_empty() {
            return;
        }
        let get = |name: &str| sections.iter().find(|(h, _)| *h == name).map(|(_, l)| l);
        let data = get("#data").expect("a test has #data").join("\n");
        let mut doc_lines = get("#document").expect("a test has #document").clone();
        while doc_lines.last() == Some(&"") {
            doc_lines.pop();
        }
        let fragment = get("#document-fragment").map(|l| {
            let ctx = l[0];
            if let Some(local) = ctx.strip_prefix("svg ") {
                (ns!(svg), LocalName::from(local))
            } else if let Some(local) = ctx.strip_prefix("math ") {
                (ns!(mathml), LocalName::from(local))
            } else {
                (ns!(html), LocalName::from(ctx))
            }
        });
        let scripting = if get("#script-on").is_some() {
            Some(true)
        } else if get("#script-off").is_some() {
            Some(false)
        } else {
            None
        };
        let mut document = doc_lines.join("\n");
        document.push('\n');
        tests.push(TreeTest {
            file: file.to_string(),
            index: tests.len() + 1,
            data,
            fragment,
            scripting,
            document,
        });
        sections.clear();
    };
    for (i, line) in lines.iter().enumerate() {
        let in_data = sections.last().is_some_and(|(h, _)| *h == "#data");
        let in_document = sections.last().is_some_and(|(h, _)| *h == "#document");
        let heading = HEADINGS.contains(line)
            && if *line == "#data" {
                prev_blank || i == 0
            } else if in_data {
                *line == "#errors"
            } else {
                !in_document
            };
        if heading {
            if *line == "#data" {
                finish(&mut sections, &mut tests);
            }
            sections.push((line, Vec::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push(line);
        }
        prev_blank = line.is_empty();
    }
    finish(&mut sections, &mut tests);
    tests
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/html5lib-tree")
}

/// Every test of every `.dat` file under the suite directory, by file name.
fn suite() -> Vec<TreeTest> {
    let mut tests = Vec::new();
    for path in files::with_extension(&suite_dir(), &["dat"]) {
        let name = path
            .strip_prefix(suite_dir())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        tests.extend(parse_dat(&name, &text));
    }
    tests
}

// ---------------------------------------------------------------------------
// The parsers.

fn opts(scripting: bool) -> ParseOpts {
    let mut opts = ParseOpts::default();
    opts.tree_builder.scripting_enabled = scripting;
    opts
}

fn html5ever_opts(scripting: bool) -> html5ever::ParseOpts {
    let mut opts = html5ever::ParseOpts::default();
    opts.tree_builder.scripting_enabled = scripting;
    opts
}

fn context_name(context: &(Namespace, LocalName)) -> QualName {
    QualName::new(None, context.0.clone(), context.1.clone())
}

/// html5ever's own parser, the tree in the suite's format.
fn by_html5ever(test: &TreeTest, scripting: bool) -> String {
    match &test.fragment {
        None => dom::document(
            &html5ever::parse_document(RcDom::default(), html5ever_opts(scripting))
                .one(test.data.as_str()),
        ),
        Some(context) => dom::fragment(
            &html5ever::parse_fragment(
                RcDom::default(),
                html5ever_opts(scripting),
                context_name(context),
                vec![],
                scripting,
            )
            .one(test.data.as_str()),
        ),
    }
}

/// htmltok driving html5ever's tree builder.
fn by_htmltok(test: &TreeTest, opts: ParseOpts, scripting: bool) -> String {
    match &test.fragment {
        None => dom::document(&parse_document(RcDom::default(), opts, &test.data)),
        Some(context) => dom::fragment(&parse_fragment(
            RcDom::default(),
            opts,
            context_name(context),
            vec![],
            scripting,
            &test.data,
        )),
    }
}

/// The stream parser, fed `chunk` bytes at a time.
fn by_stream(bytes: &[u8], opts: ParseOpts, chunk: usize, sniffer: Option<Sniffer>) -> String {
    let mut parser = match sniffer {
        Some(sniffer) => StreamParser::decoding(RcDom::default(), opts, sniffer),
        None => StreamParser::new(RcDom::default(), opts),
    };
    for piece in bytes.chunks(chunk) {
        parser.feed(piece);
    }
    dom::document(&parser.finish())
}

// ---------------------------------------------------------------------------
// 1. The tree-construction suite.

#[derive(Default)]
struct Row {
    tests: usize,
    html5ever_pass: usize,
    htmltok_pass: usize,
    differences: usize,
}

#[test]
fn tree_construction_suite() {
    let tests = suite();
    assert_eq!(tests.len(), 1796, "the suite at its commit has 1,796 tests");
    let mut rows: Vec<(String, Row)> = Vec::new();
    let mut both_fail = Vec::new();
    let mut failures = Vec::new();
    for test in &tests {
        if rows.last().is_none_or(|(f, _)| *f != test.file) {
            rows.push((test.file.clone(), Row::default()));
        }
        let row = &mut rows.last_mut().unwrap().1;
        row.tests += 1;
        let modes: &[bool] = match test.scripting {
            Some(true) => &[true],
            Some(false) => &[false],
            None => &[false, true],
        };
        let (mut h5_ok, mut tok_ok, mut differs) = (true, true, false);
        for &scripting in modes {
            let expected = by_html5ever(test, scripting);
            let ours = by_htmltok(test, opts(scripting), scripting);
            h5_ok &= expected == test.document;
            tok_ok &= ours == test.document;
            if ours != expected {
                differs = true;
                failures.push(format!(
                    "{}#{} (scripting {scripting}): trees differ\ninput: {:?}\nhtml5ever:\n{expected}htmltok:\n{ours}",
                    test.file, test.index, test.data
                ));
            }
            // Errors on and line numbers change nothing in the tree.
            let reporting = ParseOpts {
                errors: true,
                line_numbers: true,
                ..opts(scripting)
            };
            let with_errors = by_htmltok(test, reporting, scripting);
            if with_errors != ours {
                failures.push(format!(
                    "{}#{} (scripting {scripting}): errors on changed the tree\ninput: {:?}\n{with_errors}",
                    test.file, test.index, test.data
                ));
            }
            // The stream, a byte at a time (the parse may stop anywhere).
            if test.fragment.is_none() {
                for (chunk, opts) in [(1, opts(scripting)), (3, reporting)] {
                    let streamed = by_stream(test.data.as_bytes(), opts, chunk, None);
                    if streamed != ours {
                        failures.push(format!(
                            "{}#{} (scripting {scripting}): stream in {chunk}-byte chunks differs\ninput: {:?}\n{streamed}",
                            test.file, test.index, test.data
                        ));
                    }
                }
            }
        }
        row.html5ever_pass += usize::from(h5_ok);
        row.htmltok_pass += usize::from(tok_ok);
        row.differences += usize::from(differs);
        if h5_ok && !tok_ok {
            failures.push(format!(
                "{}#{}: html5ever passes, htmltok-driven fails\ninput: {:?}",
                test.file, test.index, test.data
            ));
        }
        if !h5_ok && !tok_ok {
            both_fail.push(test);
        }
    }

    println!(
        "{:<44} {:>5} {:>15} {:>15} {:>11}",
        "file", "tests", "html5ever p/f", "htmltok p/f", "differences"
    );
    let mut total = Row::default();
    for (file, row) in &rows {
        println!(
            "{:<44} {:>5} {:>15} {:>15} {:>11}",
            file,
            row.tests,
            format!("{}/{}", row.html5ever_pass, row.tests - row.html5ever_pass),
            format!("{}/{}", row.htmltok_pass, row.tests - row.htmltok_pass),
            row.differences
        );
        total.tests += row.tests;
        total.html5ever_pass += row.html5ever_pass;
        total.htmltok_pass += row.htmltok_pass;
        total.differences += row.differences;
    }
    println!(
        "{:<44} {:>5} {:>15} {:>15} {:>11}",
        "total",
        total.tests,
        format!(
            "{}/{}",
            total.html5ever_pass,
            total.tests - total.html5ever_pass
        ),
        format!(
            "{}/{}",
            total.htmltok_pass,
            total.tests - total.htmltok_pass
        ),
        total.differences
    );
    println!("\n{} tests both parsers fail:", both_fail.len());
    for test in &both_fail {
        let context = test
            .fragment
            .as_ref()
            .map(|(ns, local)| format!(" fragment {ns:?} {local}"));
        println!(
            "  {}#{}{} scripting {:?}: {:?}",
            test.file,
            test.index,
            context.unwrap_or_default(),
            test.scripting,
            test.data
        );
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
    // A guard on the comparison itself: html5ever passes most of the suite.
    assert!(
        total.html5ever_pass > 1500,
        "html5ever passed only {}",
        total.html5ever_pass
    );
}

#[test]
fn the_dat_reader_reads_sections() {
    let text = "#data\n<p>One\n\n#errors\n(1,3): x\n#document-fragment\nsvg path\n#script-off\n#document\n| \"One\n\n\"\n\n#data\nx\n#errors\n#document\n| <html>\n";
    let tests = parse_dat("t.dat", text);
    assert_eq!(tests.len(), 2);
    assert_eq!(tests[0].data, "<p>One\n");
    assert_eq!(tests[0].fragment, Some((ns!(svg), local_name!("path"))));
    assert_eq!(tests[0].scripting, Some(false));
    assert_eq!(tests[0].document, "| \"One\n\n\"\n");
    assert_eq!(
        (tests[1].data.as_str(), tests[1].document.as_str()),
        ("x", "| <html>\n")
    );
}

// ---------------------------------------------------------------------------
// 2. Identical trees on the corpus.

#[test]
fn identical_trees_on_the_corpus() {
    let pages = data::corpus_pages();
    let mut failures = Vec::new();
    for (name, bytes) in &pages {
        // Both parsers read the text the sniffer decodes.
        let text = Sniffer::new().decode(bytes).text;
        let expected = dom::document(
            &html5ever::parse_document(RcDom::default(), html5ever::ParseOpts::default())
                .one(&*text),
        );
        let ours = dom::document(&parse_document(
            RcDom::default(),
            ParseOpts::default(),
            &text,
        ));
        if ours != expected {
            let at = ours
                .lines()
                .zip(expected.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            failures.push(format!(
                "{name}: trees differ at line {at}:\n  html5ever: {:?}\n  htmltok:   {:?}",
                expected.lines().nth(at),
                ours.lines().nth(at)
            ));
            continue;
        }
        // The stream, decoding as it goes, in 4 KiB chunks and with errors.
        let streamed = by_stream(
            bytes,
            ParseOpts {
                errors: true,
                ..ParseOpts::default()
            },
            4096,
            Some(Sniffer::new()),
        );
        if streamed != ours {
            failures.push(format!("{name}: the stream's tree differs"));
        }
        // Line numbers: the stream's (which drops bytes as it goes) are the
        // whole page's; tags' are html5ever's.
        let opts = ParseOpts {
            line_numbers: true,
            ..ParseOpts::default()
        };
        let whole = parse_document(LineNotingDom::default(), opts, &text);
        let mut parser = StreamParser::decoding(LineNotingDom::default(), opts, Sniffer::new());
        for piece in bytes.chunks(4096) {
            parser.feed(piece);
        }
        if parser.finish() != whole {
            failures.push(format!("{name}: the stream's line numbers differ"));
        }
        let html5ever_lines =
            html5ever::parse_document(LineNotingDom::default(), html5ever::ParseOpts::default())
                .one(&*text);
        if let Some(((tag, ours), (_, theirs))) =
            whole.iter().zip(&html5ever_lines).find(|(a, b)| a != b)
        {
            eprintln!("{name}: <{tag}> on line {ours}, html5ever says {theirs}");
        }
    }
    println!(
        "{} pages, {} with different trees",
        pages.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Parse errors reach the sink, and change no tree: an error token between
/// `<pre>` and its text would end the tree builder's wait for the line
/// feed to drop, so the errors found in a text run go after it.
#[test]
fn errors_reach_the_sink_and_change_no_tree() {
    let cases = [
        ("<pre>\n\0x", "unexpected-null-character"),
        (
            "<textarea>\n\u{1}x</textarea>",
            "control-character-in-input-stream",
        ),
        ("<listing>\n&#0;", "null-character-reference"),
        ("<pre x x>\nfoo", "duplicate-attribute"),
        (
            "<pre>\nfoo &notit; bar",
            "missing-semicolon-after-character-reference",
        ),
    ];
    for (page, code) in cases {
        let expected = dom::document(
            &html5ever::parse_document(RcDom::default(), html5ever::ParseOpts::default()).one(page),
        );
        for line_numbers in [false, true] {
            let opts = ParseOpts {
                errors: true,
                line_numbers,
                ..ParseOpts::default()
            };
            let parsed = parse_document(RcDom::default(), opts, page);
            assert_eq!(dom::document(&parsed), expected, "{page:?}");
            let errors = parsed.errors.borrow();
            assert!(
                errors.iter().any(|e| e == code),
                "{page:?}: {code} not among {errors:?}"
            );
            for chunk in [1, 2] {
                assert_eq!(
                    by_stream(page.as_bytes(), opts, chunk, None),
                    expected,
                    "{page:?} in {chunk}-byte chunks"
                );
            }
        }
    }
}

/// An `RcDom` that notes the line the tree builder was told when it
/// created each element.
#[derive(Default)]
struct LineNotingDom {
    dom: RcDom,
    line: std::cell::Cell<u64>,
    created: std::cell::RefCell<Vec<(String, u64)>>,
}

impl html5ever::tree_builder::TreeSink for LineNotingDom {
    type Handle = markup5ever_rcdom::Handle;
    type Output = Vec<(String, u64)>;
    type ElemName<'a> = <RcDom as html5ever::tree_builder::TreeSink>::ElemName<'a>;

    fn finish(self) -> Self::Output {
        self.created.into_inner()
    }
    fn set_current_line(&self, line: u64) {
        self.line.set(line);
    }
    fn create_element(
        &self,
        name: QualName,
        attrs: Vec<html5ever::Attribute>,
        flags: html5ever::tree_builder::ElementFlags,
    ) -> Self::Handle {
        self.created
            .borrow_mut()
            .push((name.local.to_string(), self.line.get()));
        self.dom.create_element(name, attrs, flags)
    }
    fn parse_error(&self, msg: std::borrow::Cow<'static, str>) {
        self.dom.parse_error(msg)
    }
    fn get_document(&self) -> Self::Handle {
        self.dom.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a Self::Handle) -> Self::ElemName<'a> {
        self.dom.elem_name(target)
    }
    fn create_comment(&self, text: html5ever::tendril::StrTendril) -> Self::Handle {
        self.dom.create_comment(text)
    }
    fn create_pi(
        &self,
        target: html5ever::tendril::StrTendril,
        data: html5ever::tendril::StrTendril,
    ) -> Self::Handle {
        self.dom.create_pi(target, data)
    }
    fn append(
        &self,
        parent: &Self::Handle,
        child: html5ever::tree_builder::NodeOrText<Self::Handle>,
    ) {
        self.dom.append(parent, child)
    }
    fn append_based_on_parent_node(
        &self,
        element: &Self::Handle,
        prev: &Self::Handle,
        child: html5ever::tree_builder::NodeOrText<Self::Handle>,
    ) {
        self.dom.append_based_on_parent_node(element, prev, child)
    }
    fn append_doctype_to_document(
        &self,
        name: html5ever::tendril::StrTendril,
        public_id: html5ever::tendril::StrTendril,
        system_id: html5ever::tendril::StrTendril,
    ) {
        self.dom
            .append_doctype_to_document(name, public_id, system_id)
    }
    fn get_template_contents(&self, target: &Self::Handle) -> Self::Handle {
        self.dom.get_template_contents(target)
    }
    fn same_node(&self, x: &Self::Handle, y: &Self::Handle) -> bool {
        self.dom.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: html5ever::tree_builder::QuirksMode) {
        self.dom.set_quirks_mode(mode)
    }
    fn append_before_sibling(
        &self,
        sibling: &Self::Handle,
        child: html5ever::tree_builder::NodeOrText<Self::Handle>,
    ) {
        self.dom.append_before_sibling(sibling, child)
    }
    fn add_attrs_if_missing(&self, target: &Self::Handle, attrs: Vec<html5ever::Attribute>) {
        self.dom.add_attrs_if_missing(target, attrs)
    }
    fn remove_from_parent(&self, target: &Self::Handle) {
        self.dom.remove_from_parent(target)
    }
    fn reparent_children(&self, node: &Self::Handle, new_parent: &Self::Handle) {
        self.dom.reparent_children(node, new_parent)
    }
    fn is_mathml_annotation_xml_integration_point(&self, handle: &Self::Handle) -> bool {
        self.dom.is_mathml_annotation_xml_integration_point(handle)
    }
}

/// With `line_numbers`, the sink is told each tag's line as html5ever's
/// tokenizer tells it (the line of the tag's `>`; CR, LF and CRLF one
/// break each), whole and streamed a byte at a time.
#[test]
fn line_numbers_are_html5evers_for_tags() {
    let page = "<!DOCTYPE html>\n<html>\r\n<head\n>\r<title>t</title></head>\n\n<body\r\n class=x>\
                <p\nid=1>one\r\n<b>two</b>\n<!-- a\ncomment -->\n\n\r\n<svg><path/></svg><table><tr\n>";
    let html5ever_lines =
        html5ever::parse_document(LineNotingDom::default(), html5ever::ParseOpts::default())
            .one(page);
    assert!(html5ever_lines.len() > 8 && html5ever_lines.last().unwrap().1 > 10);
    for errors in [false, true] {
        let opts = ParseOpts {
            line_numbers: true,
            errors,
            ..ParseOpts::default()
        };
        assert_eq!(
            parse_document(LineNotingDom::default(), opts, page),
            html5ever_lines
        );
        for chunk in [1, 5] {
            let mut parser = StreamParser::new(LineNotingDom::default(), opts);
            for piece in page.as_bytes().chunks(chunk) {
                parser.feed(piece);
            }
            assert_eq!(parser.finish(), html5ever_lines, "{chunk}-byte chunks");
        }
    }
    // Off, the sink is never told a line.
    let lines = parse_document(LineNotingDom::default(), ParseOpts::default(), page);
    assert!(lines.iter().all(|&(_, line)| line == 0));
}
