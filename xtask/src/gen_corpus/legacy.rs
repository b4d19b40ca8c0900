//! The legacy-encoded pages of `corpus/legacy/`: news-site pages in nine
//! legacy encodings and UTF-16LE (with a byte order mark), made from the
//! word lists of `lang.rs` and encoded with `encoding_rs`, so that the
//! encoding tests run on a fresh clone.
//!
//! Each encoding has a directory named by its label (the tests read the
//! undeclared pages' encoding from it) holding three pages that differ in
//! how they declare it: `meta.html` in a `<meta charset>` at the top of the
//! head, `late-meta.html` only in a `<meta http-equiv=Content-Type>` after
//! more than 1024 bytes of ASCII head (scripts and styles: past the
//! standard's prescan), `none.html` not at all (for the guess). Two more:
//! `iso-8859-2/crlf.html` (Polish, CRLF line endings) and `gbk/large.html`
//! (~256 KB).

use std::fmt::Write as _;
use std::path::Path;

use encoding_rs::Encoding;

use super::lang::{self, Lang};
use super::{ManifestRow, Rng};

/// Target size of each page in bytes, encoded (each page stops at the first
/// block boundary past it).
const PAGE: usize = 20_000;
/// The large page's.
const LARGE: usize = 256_000;
/// How far into a page its late `<meta>` must come: past the prescan.
const PRESCAN_LEN: usize = 1024;

/// How a page declares its encoding.
#[derive(Clone, Copy, PartialEq)]
enum Declared {
    Meta,
    LateMeta,
    Nothing,
}

/// One page to write.
struct Spec {
    file: String,
    lang: &'static Lang,
    encoding: &'static Encoding,
    declared: Declared,
    crlf: bool,
    target: usize,
}

/// The encodings, each with the language its pages are in and the
/// directory (its label) they go in.
fn encodings() -> [(&'static str, &'static Encoding, &'static Lang); 10] {
    use encoding_rs::*;
    [
        ("shift_jis", SHIFT_JIS, &lang::JAPANESE),
        ("euc-jp", EUC_JP, &lang::JAPANESE),
        ("gbk", GBK, &lang::CHINESE_SIMPLIFIED),
        ("big5", BIG5, &lang::CHINESE_TRADITIONAL),
        ("euc-kr", EUC_KR, &lang::KOREAN),
        ("windows-1251", WINDOWS_1251, &lang::RUSSIAN),
        ("windows-1256", WINDOWS_1256, &lang::ARABIC),
        ("iso-8859-2", ISO_8859_2, &lang::CZECH),
        ("windows-1252", WINDOWS_1252, &lang::FRENCH),
        ("utf-16le", UTF_16LE, &lang::JAPANESE),
    ]
}

fn specs() -> Vec<Spec> {
    let mut specs = Vec::new();
    for (dir, encoding, lang) in encodings() {
        for (name, declared) in [
            ("meta", Declared::Meta),
            ("late-meta", Declared::LateMeta),
            ("none", Declared::Nothing),
        ] {
            specs.push(Spec {
                file: format!("legacy/{dir}/{name}.html"),
                lang,
                encoding,
                declared,
                crlf: false,
                target: PAGE,
            });
        }
    }
    specs.push(Spec {
        file: "legacy/iso-8859-2/crlf.html".to_owned(),
        lang: &lang::POLISH,
        encoding: encoding_rs::ISO_8859_2,
        declared: Declared::Meta,
        crlf: true,
        target: PAGE,
    });
    specs.push(Spec {
        file: "legacy/gbk/large.html".to_owned(),
        lang: &lang::CHINESE_SIMPLIFIED,
        encoding: encoding_rs::GBK,
        declared: Declared::Meta,
        crlf: false,
        target: LARGE,
    });
    specs
}

/// Writes every legacy page below `root` and returns their manifest rows.
pub fn write_all(root: &Path) -> Vec<ManifestRow> {
    let mut rows = Vec::new();
    for (i, spec) in specs().iter().enumerate() {
        let mut rng = Rng::new(0x1E6A_C700 + i as u64 * 0x9E37_79B9);
        let bytes = page(spec, &mut rng);
        let path = root.join(&spec.file);
        std::fs::create_dir_all(path.parent().expect("a file in a directory"))
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        std::fs::write(&path, &bytes)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        println!("wrote {} ({} bytes)", path.display(), bytes.len());
        let declared = if spec.encoding == encoding_rs::UTF_16LE {
            "utf-16le(BOM)".to_owned()
        } else if spec.declared == Declared::Nothing {
            "none".to_owned()
        } else {
            spec.encoding.name().to_ascii_lowercase()
        };
        rows.push(ManifestRow {
            file: spec.file.clone(),
            bytes: bytes.len(),
            declared,
            category: "legacy-encoding",
        });
    }
    rows
}

/// `text` in `encoding`; every character must have a byte sequence in it
/// (an unmappable one would become a numeric reference, not the text
/// meant).
fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    if encoding == encoding_rs::UTF_16LE {
        // encoding_rs encodes only into ASCII-compatible encodings.
        return text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    }
    let (bytes, used, unmappable) = encoding.encode(text);
    assert!(
        used == encoding && !unmappable,
        "not all of {text:?} is in {}",
        encoding.name()
    );
    bytes.into_owned()
}

/// Scripts and styles: the ASCII head a late `<meta>` comes after.
const ASSETS: &str = r#"<link rel="stylesheet" href="/static/css/site.css?v=20240517">
<link rel="alternate" type="application/rss+xml" title="RSS" href="/rss.xml">
<style type="text/css">
body { margin: 0; font: 15px/1.6 sans-serif; color: #222; background: #fff; }
.site-header { display: flex; align-items: center; padding: 8px 16px; border-bottom: 3px solid #036; }
.site-header .logo { font-size: 24px; font-weight: bold; color: #036; text-decoration: none; }
nav ul { list-style: none; margin: 0 0 0 24px; padding: 0; display: flex; gap: 16px; }
main { max-width: 960px; margin: 0 auto; padding: 16px; }
.news-list li { padding: 4px 0; border-bottom: 1px dotted #ccc; }
.news-list .date { color: #888; font-size: 12px; margin-left: 8px; }
.teaser { margin: 16px 0; padding: 12px; background: #f6f6f2; }
.teaser .more { font-size: 13px; }
footer { padding: 16px; font-size: 12px; color: #666; border-top: 1px solid #ddd; }
</style>
<script type="text/javascript">
var _gaq = _gaq || [];
_gaq.push(['_setAccount', 'UA-0000000-1']);
_gaq.push(['_trackPageview']);
function toggleMenu(id) {
  var el = document.getElementById(id);
  if (el && el.style.display != 'none') { el.style.display = 'none'; }
  else if (el) { el.style.display = 'block'; }
  return false;
}
</script>
"#;

/// The bytes of the page `spec`: the head, then blocks of news until
/// `spec.target` bytes, then the footer.
fn page(spec: &Spec, rng: &mut Rng) -> Vec<u8> {
    let lang = spec.lang;
    let label = spec.encoding.name();
    let title = format!("{} - {}", lang.headline(rng), lang.site);
    let mut head = String::new();
    let _ = write!(
        head,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n",
        lang.tag
    );
    if spec.declared == Declared::Meta {
        let _ = writeln!(head, "<meta charset=\"{label}\">");
    }
    head.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    if spec.declared != Declared::LateMeta {
        let _ = writeln!(head, "<title>{title}</title>");
    }
    head.push_str(ASSETS);
    if spec.declared == Declared::LateMeta {
        // The case this page is for: no declaration in the prescan's
        // bytes, and only ASCII before this one.
        assert!(head.len() > PRESCAN_LEN && head.is_ascii());
        let _ = write!(
            head,
            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset={label}\">\n\
             <title>{title}</title>\n"
        );
    }
    head.push_str("</head>\n<body>\n<header class=\"site-header\">");
    let _ = write!(
        head,
        "<a class=\"logo\" href=\"/\">{}</a><nav><ul>",
        lang.site
    );
    for (i, item) in lang.nav.iter().enumerate() {
        let _ = write!(head, "<li><a href=\"/section/{i}/\">{item}</a></li>");
    }
    let _ = write!(
        head,
        "</ul></nav></header>\n<main>\n<h1>{}</h1>\n\
         <p class=\"byline\"><time datetime=\"2024-05-17\">2024-05-17 09:{:02}</time></p>\n",
        lang.headline(rng),
        rng.below(60)
    );

    let newlines = |text: String| {
        if spec.crlf {
            text.replace('\n', "\r\n")
        } else {
            text
        }
    };
    let mut out = Vec::new();
    if spec.encoding == encoding_rs::UTF_16LE {
        out.extend_from_slice(&[0xFF, 0xFE]);
    }
    out.extend(encode(&newlines(head), spec.encoding));
    while out.len() < spec.target {
        let block = newlines(block(lang, rng));
        out.extend(encode(&block, spec.encoding));
    }
    let footer = format!(
        "</main>\n<footer><p>&copy; 2024 {} | <a href=\"/about/\">{}</a></p></footer>\n\
         </body>\n</html>\n",
        lang.site, lang.nav[0]
    );
    out.extend(encode(&newlines(footer), spec.encoding));
    out
}

/// One block of a news page's main column.
fn block(lang: &Lang, rng: &mut Rng) -> String {
    let mut s = String::new();
    let date = |rng: &mut Rng| format!("2024-{:02}-{:02}", rng.range(1, 12), rng.range(1, 28));
    match rng.below(6) {
        0 => {
            s.push_str("<ul class=\"news-list\">\n");
            for _ in 0..rng.range(4, 8) {
                let _ = writeln!(
                    s,
                    "<li><a href=\"/news/{}.html\">{}</a><span class=\"date\">{}</span></li>",
                    rng.below(1_000_000),
                    lang.headline(rng),
                    date(rng)
                );
            }
            s.push_str("</ul>\n");
        }
        1 => {
            let _ = writeln!(s, "<h2>{}</h2>", lang.headline(rng));
        }
        2 => {
            let id = rng.below(1_000_000);
            let _ = writeln!(
                s,
                "<div class=\"teaser\"><h3><a href=\"/news/{id}.html\">{}</a></h3>\
                 <p>{}</p><a class=\"more\" href=\"/news/{id}.html\">{}</a></div>",
                lang.headline(rng),
                lang.sentence(rng),
                lang.more
            );
        }
        _ => {
            let _ = writeln!(s, "<p>{}</p>", lang.paragraph(rng));
        }
    }
    s
}
