//! Writes the generated pages of `corpus/`: realistic but synthetic HTML
//! documents made from a fixed seed so every run writes the same bytes.
//! `pages/` holds four UTF-8 pages for benchmarks (this file);
//! `legacy/` holds pages in legacy encodings for the encoding tests
//! (`gen_corpus/legacy.rs`, with the languages' word lists in
//! `gen_corpus/lang.rs`). Their rows of `MANIFEST.tsv` are rewritten too.
//!
//! Regenerate (from the repository root):
//!
//! ```text
//! cargo xtask gen-corpus            # writes corpus/{pages,legacy}/
//! cargo xtask gen-corpus OUT_DIR    # writes OUT_DIR/{pages,legacy}/
//! ```
//!
//! The output is committed; rerunning must leave `git status` clean. Change
//! the generator and its output together. A xorshift PRNG and hand-made
//! word lists; `encoding_rs` (the crate's own dependency) encodes the
//! legacy pages.

mod lang;
mod legacy;

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Target size of each page, in bytes (each page stops at the first block
/// boundary past it).
const TARGET: usize = 150_000;

/// xorshift64* — small, fast, deterministic on every platform.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0; the tiny modulo bias does not matter here).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
    "there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "city",
    "council", "river", "bridge", "report", "analysis", "government", "market", "research",
    "people", "system", "between", "during", "without", "however", "although", "community",
    "development", "education", "economy", "history", "language", "library", "network",
    "morning", "evening", "weather", "harbour", "mountain", "village", "station", "railway",
    "engineer", "teacher", "student", "festival", "museum", "garden", "kitchen", "journey",
    "question", "answer", "problem", "solution", "example", "measure", "average", "percent",
    "growth", "decline", "summer", "winter", "spring", "autumn", "century", "decade",
    "tokenizer", "browser", "standard", "document", "element", "attribute", "character",
    "quickly", "slowly", "carefully", "recently", "finally", "certainly", "probably",
    "important", "different", "possible", "available", "significant", "traditional",
    "national", "regional", "local", "public", "private", "early", "late", "modern", "ancient",
];

#[rustfmt::skip]
const NAMES: &[&str] = &[
    "Ada", "Grace", "Alan", "Barbara", "Edsger", "Frances", "Niklaus", "Radia", "Ken", "Margaret",
    "Tim", "Håkon", "Søren", "José", "Zoë", "Łukasz", "Chloé", "Björn", "Noémie", "Ángel",
];

/// Common Chinese characters (a spread of frequent ones).
const HANZI: &str = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严";

const HIRAGANA: &str = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげござじずぜぞだでどばびぶべぼぱぴぷぺぽ";
const KATAKANA: &str = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲンガギグゲゴザジズゼゾダデドバビブベボパピプペポー";

/// Between `lo` and `hi` words, space-separated.
fn words(rng: &mut Rng, lo: usize, hi: usize) -> String {
    let n = rng.range(lo, hi);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s
}

fn capitalized(mut s: String) -> String {
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s
}

/// One English-like sentence, sometimes with inline markup and references.
fn sentence(rng: &mut Rng) -> String {
    let n = rng.range(6, 22);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        let w = rng.pick(WORDS);
        match rng.below(100) {
            0..=2 => {
                let _ = write!(
                    s,
                    "<a href=\"/wiki/{w}_{}\" title=\"{w}\">{w}</a>",
                    rng.below(999)
                );
            }
            3 => {
                let _ = write!(s, "<em>{w}</em>");
            }
            4 => {
                let _ = write!(s, "<strong>{w}</strong>");
            }
            5 => s.push_str(rng.pick(NAMES)),
            6 => {
                let _ = write!(s, "{w}&nbsp;{}", rng.below(2100));
            }
            7 => {
                let _ = write!(s, "{w} &amp;");
            }
            8 => {
                let _ = write!(s, "{w}&#8217;s");
            }
            9 => {
                let _ = write!(s, "{w}&mdash;");
            }
            _ => s.push_str(w),
        }
    }
    let end = rng.pick(&[".", ".", ".", ".", "?", "!", ";", "…"]);
    capitalized(s) + end
}

fn paragraph(rng: &mut Rng) -> String {
    let n = rng.range(3, 8);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&sentence(rng));
    }
    s
}

fn head(out: &mut String, title: &str, extra: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n\
         <meta name=\"description\" content=\"Synthetic page generated for htmltok benchmarks\">\n\
         <link rel=\"stylesheet\" href=\"/static/css/site.css?v=3\">\n\
         <link rel=\"icon\" href=\"/favicon.ico\">\n{extra}</head>\n"
    );
}

/// A long article: mostly text, light markup (like a news or wiki page).
fn article(rng: &mut Rng) -> String {
    let mut out = String::new();
    head(
        &mut out,
        "The River Bridge Report &mdash; A Synthetic Article",
        "<style>\n  body { font: 16px/1.5 Georgia, serif; max-width: 42em; margin: auto; }\n  \
         .byline > a { color: #555; }\n</style>\n",
    );
    out.push_str(
        "<body class=\"article\">\n<header><nav><ul>\
         <li><a href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li>\
         <li><a href=\"/about\">About</a></li></ul></nav></header>\n<main>\n<article>\n\
         <h1>The River Bridge Report</h1>\n\
         <p class=\"byline\">By <a href=\"/authors/ada\">Ada</a> &middot; 3&nbsp;min read</p>\n",
    );
    let mut section = 0;
    while out.len() < TARGET {
        if rng.chance(12) {
            section += 1;
            let _ = writeln!(
                out,
                "<h2 id=\"section-{section}\">{}</h2>",
                capitalized(words(rng, 2, 6))
            );
        }
        match rng.below(20) {
            0 => {
                let _ = writeln!(out, "<blockquote><p>{}</p></blockquote>", sentence(rng));
            }
            1 => {
                out.push_str("<ul>\n");
                for _ in 0..rng.range(3, 7) {
                    let _ = writeln!(out, "  <li>{}</li>", sentence(rng));
                }
                out.push_str("</ul>\n");
            }
            2 => {
                let n = rng.below(10_000);
                let _ = writeln!(
                    out,
                    "<figure><img src=\"/img/photo-{n}.jpg\" alt=\"{}\" width=\"640\" height=\"{}\" \
                     loading=\"lazy\"><figcaption>{}</figcaption></figure>",
                    words(rng, 4, 4),
                    rng.range(300, 480),
                    sentence(rng)
                );
            }
            _ => {
                let _ = writeln!(out, "<p>{}</p>", paragraph(rng));
            }
        }
    }
    out.push_str(
        "</article>\n</main>\n<footer><p>&copy; 2024 Example Press. \
         <a href=\"/terms\">Terms</a> | <a href=\"/privacy\">Privacy</a></p></footer>\n\
         </body>\n</html>\n",
    );
    out
}

#[rustfmt::skip]
const CLASSES: &[&str] = &[
    "flex", "items-center", "justify-between", "px-4", "py-2", "mt-3", "text-sm", "font-medium",
    "rounded-lg", "shadow", "hover:underline", "md:grid-cols-3", "card", "card__body",
    "card__title", "btn", "btn--primary", "is-active", "visually-hidden", "col-6", "row",
];

fn class_list(rng: &mut Rng) -> String {
    let n = rng.range(1, 6);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(CLASSES));
    }
    s
}

/// One card of a product/listing grid: deep nesting, many attributes.
fn card(rng: &mut Rng, out: &mut String, id: usize) {
    let price = rng.range(1, 999);
    let cents = rng.below(100);
    let w = rng.pick(WORDS);
    let _ = write!(
        out,
        "<div class=\"{}\" id=\"item-{id}\" data-id=\"{id}\" data-category=\"{w}\" \
         data-price=\"{price}.{cents:02}\" data-track='{{\"event\":\"view\",\"pos\":{id}}}' \
         role=\"listitem\" aria-labelledby=\"t-{id}\">",
        class_list(rng)
    );
    let _ = write!(
        out,
        "<div class=\"{}\"><a href=\"/p/{w}-{id}?ref=grid&amp;pos={id}\" class=\"{}\" \
         tabindex=\"0\" rel=\"noopener\"><img src=\"https://cdn.example.com/i/{id}/{}.webp\" \
         srcset=\"https://cdn.example.com/i/{id}/s.webp 1x, https://cdn.example.com/i/{id}/l.webp 2x\" \
         alt=\"{w}\" width=\"320\" height=\"240\" decoding=\"async\"></a></div>",
        class_list(rng),
        class_list(rng),
        rng.below(100_000)
    );
    let _ = write!(
        out,
        "<div class=\"{}\"><h3 class=\"card__title\" id=\"t-{id}\"><a href=\"/p/{w}-{id}\">\
         <span class=\"{}\">{}</span></a></h3>",
        class_list(rng),
        class_list(rng),
        capitalized(words(rng, 2, 4))
    );
    let _ = write!(
        out,
        "<div class=\"price\"><span class=\"currency\" aria-hidden=\"true\">$</span>\
         <span class=\"amount\" itemprop=\"price\" content=\"{price}.{cents:02}\">{price}</span>\
         <sup>.{cents:02}</sup></div>",
    );
    out.push_str("<ul class=\"tags\">");
    for _ in 0..rng.range(1, 4) {
        let t = rng.pick(WORDS);
        let _ = write!(
            out,
            "<li><a class=\"tag\" href=\"/t/{t}\" data-tag=\"{t}\">{t}</a></li>"
        );
    }
    out.push_str("</ul>");
    let _ = writeln!(
        out,
        "<button type=\"button\" class=\"btn btn--primary\" data-action=\"add\" data-id=\"{id}\" \
         aria-label=\"Add to cart\" disabled><svg width=\"16\" height=\"16\" viewBox=\"0 0 16 16\" \
         aria-hidden=\"true\"><path d=\"M0 1h2l2 9h9l2-7H4\" fill=\"none\" stroke=\"currentColor\"/>\
         </svg></button></div></div>"
    );
}

/// A tag-dense listing page: nested divs and spans, links with many attributes.
fn tag_dense(rng: &mut Rng) -> String {
    let mut out = String::new();
    head(&mut out, "Catalogue &ndash; page 1", "");
    out.push_str(
        "<body class=\"listing\" data-page=\"1\">\n<div id=\"app\" class=\"container\">\
         <nav class=\"breadcrumbs\" aria-label=\"Breadcrumb\"><ol>\
         <li><a href=\"/\">Home</a></li><li><a href=\"/c\">Catalogue</a></li>\
         <li aria-current=\"page\">All</li></ol></nav>\n<div class=\"grid\" role=\"list\">\n",
    );
    let mut id = 0;
    while out.len() < TARGET {
        id += 1;
        card(rng, &mut out, id);
        if id % 24 == 0 {
            let _ = writeln!(
                out,
                "</div>\n<div class=\"pager\"><a href=\"?page={}\" rel=\"next\">Next &raquo;</a>\
                 </div>\n<div class=\"grid\" role=\"list\">",
                id / 24 + 1
            );
        }
    }
    out.push_str("</div>\n</div>\n</body>\n</html>\n");
    out
}

fn ident(rng: &mut Rng) -> String {
    let a = rng.pick(WORDS);
    let b = capitalized(rng.pick(WORDS).to_owned());
    format!("{a}{b}")
}

/// A chunk of JavaScript with the things that trip naive tokenizers: `<`
/// comparisons, strings holding end tags, regexes, template literals.
fn js_function(rng: &mut Rng, out: &mut String) {
    let f = ident(rng);
    let a = ident(rng);
    let b = ident(rng);
    let n = rng.range(2, 500);
    let _ = write!(
        out,
        "function {f}({a}, {b}) {{\n  \
           for (var i = 0; i < {a}.length && i<{n}; i++) {{\n    \
             if ({a}[i] <{b} || {b}<= {a}[i]) {{ continue; }}\n    \
             var html = \"<div class=\\\"{f}\\\">\" + {a}[i] + \"</div>\";\n    \
             el.insertAdjacentHTML('beforeend', html + '</span><\\/script>');\n  \
           }}\n  \
           var re = /<\\/?[a-z]+[^>]*>/gi;\n  \
           return `<li data-i=\"${{{b}}}\">${{{a}.join(\"</li><li>\")}}</li>`.replace(re, '') \
           + ({n} >> 2) + (x<!y);\n}}\n"
    );
}

/// A JSON blob, as pages embed state for client-side rendering.
fn json_blob(rng: &mut Rng, lo: usize, hi: usize) -> String {
    let items = rng.range(lo, hi);
    let mut s = String::from("{\"props\":{\"pageProps\":{\"items\":[");
    for i in 0..items {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"id\":{},\"title\":\"{}\",\"html\":\"<p>{}<\\/p>\",\"score\":{}.{},\"tags\":[\"{}\",\"{}\"],\"url\":\"https://example.com/{}?a=1&b=2\"}}",
            rng.below(1_000_000),
            capitalized(words(rng, 3, 3)),
            words(rng, 6, 6),
            rng.below(100),
            rng.below(10),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS)
        );
    }
    s.push_str("]},\"__N_SSP\":true},\"page\":\"/\",\"buildId\":\"a1b2c3\"}");
    s
}

/// A page whose bytes are mostly inline script and JSON.
fn script_heavy(rng: &mut Rng) -> String {
    let mut out = String::new();
    head(
        &mut out,
        "Dashboard",
        "<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}\
         gtag('js',new Date());if(document.cookie.indexOf('consent=1')<0){gtag('consent','default',\
         {'ad_storage':'denied'})}</script>\n",
    );
    out.push_str(
        "<body>\n<div id=\"root\"><noscript>You need to enable JavaScript.</noscript></div>\n",
    );
    while out.len() < TARGET {
        match rng.below(6) {
            0 => {
                let _ = writeln!(
                    out,
                    "<script type=\"application/json\" id=\"state-{}\">{}</script>",
                    rng.below(1000),
                    json_blob(rng, 5, 30)
                );
            }
            1 => {
                let _ = writeln!(
                    out,
                    "<script type=\"application/ld+json\">{{\"@context\":\"https://schema.org\",\
                     \"@type\":\"Article\",\"headline\":\"{}\",\"author\":{{\"@type\":\"Person\",\
                     \"name\":\"{}\"}}}}</script>",
                    capitalized(words(rng, 5, 5)),
                    rng.pick(NAMES)
                );
            }
            2 => {
                // The legacy comment wrapper, with a double-escaped section.
                out.push_str("<script><!--\n");
                js_function(rng, &mut out);
                out.push_str(
                    "document.write('<script src=\"/legacy.js\"><\\/script>');\n\
                     if (a --> 0) { b(); }\n//--></script>\n",
                );
            }
            3 => {
                let _ = writeln!(
                    out,
                    "<div class=\"widget\" data-widget=\"{}\"><p>{}</p></div>",
                    ident(rng),
                    sentence(rng)
                );
            }
            _ => {
                out.push_str("<script>\n(function () {\n\"use strict\";\n");
                for _ in 0..rng.range(3, 10) {
                    js_function(rng, &mut out);
                }
                out.push_str("})();\n</script>\n");
            }
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// Between `lo` and `hi` CJK characters with commas, ending in a full stop.
fn cjk_run(rng: &mut Rng, japanese: bool, lo: usize, hi: usize) -> String {
    let chars = rng.range(lo, hi);
    let hanzi: Vec<char> = HANZI.chars().collect();
    let hira: Vec<char> = HIRAGANA.chars().collect();
    let kata: Vec<char> = KATAKANA.chars().collect();
    let mut s = String::new();
    let mut since_punct = 0;
    for _ in 0..chars {
        let c = if japanese {
            match rng.below(10) {
                0..=4 => hira[rng.below(hira.len())],
                5 => kata[rng.below(kata.len())],
                _ => hanzi[rng.below(hanzi.len())],
            }
        } else {
            hanzi[rng.below(hanzi.len())]
        };
        s.push(c);
        since_punct += 1;
        if since_punct > 6 && rng.chance(12) {
            s.push(if rng.chance(70) { '、' } else { '，' });
            since_punct = 0;
        }
    }
    s.push('。');
    s
}

/// A CJK news portal page: dense UTF-8 text in lists and paragraphs.
fn cjk(rng: &mut Rng) -> String {
    let mut out = String::new();
    out.push_str(
        "<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>新闻中心 &ndash; 综合资讯</title>\n\
         <meta name=\"keywords\" content=\"新闻,资讯,ニュース,技術\">\n\
         <link rel=\"stylesheet\" href=\"/css/main.css\">\n</head>\n<body>\n\
         <div class=\"top\"><a href=\"/\">首页</a> | <a href=\"/ja/\">日本語</a> | \
         <a href=\"/en/\">English</a></div>\n",
    );
    let mut block = 0;
    while out.len() < TARGET {
        block += 1;
        let japanese = block % 3 == 0;
        let lang = if japanese { "ja" } else { "zh" };
        match rng.below(4) {
            0 => {
                let _ = writeln!(out, "<ul class=\"news-list\" lang=\"{lang}\">");
                for _ in 0..rng.range(5, 12) {
                    let id = rng.below(1_000_000);
                    let _ = writeln!(
                        out,
                        "  <li><span class=\"date\">2024-{:02}-{:02}</span>\
                         <a href=\"/news/{id}.html\" target=\"_blank\" title=\"{}\">{}</a></li>",
                        rng.range(1, 12),
                        rng.range(1, 28),
                        cjk_run(rng, japanese, 8, 8),
                        cjk_run(rng, japanese, 10, 24)
                    );
                }
                out.push_str("</ul>\n");
            }
            1 => {
                let _ = writeln!(
                    out,
                    "<h2 lang=\"{lang}\">{}</h2>",
                    cjk_run(rng, japanese, 6, 14)
                );
            }
            _ => {
                let _ = write!(out, "<p lang=\"{lang}\">");
                for _ in 0..rng.range(2, 6) {
                    out.push_str(&cjk_run(rng, japanese, 20, 70));
                    if rng.chance(20) {
                        let _ = write!(
                            out,
                            "<a href=\"/tag/{}\">「{}」</a>",
                            rng.below(5000),
                            cjk_run(rng, japanese, 4, 4)
                        );
                    }
                    if rng.chance(10) {
                        out.push_str("&nbsp;");
                    }
                }
                out.push_str("</p>\n");
            }
        }
    }
    out.push_str(
        "<div class=\"footer\">版权所有 &copy; 2024 示例新闻网 &middot; \
         <a href=\"/about\">关于我们</a></div>\n</body>\n</html>\n",
    );
    out
}

/// One row of `MANIFEST.tsv` for a generated page.
pub struct ManifestRow {
    /// Path below the corpus directory.
    pub file: String,
    pub bytes: usize,
    /// The label declared, `none`, or `utf-16le(BOM)`.
    pub declared: String,
    pub category: &'static str,
}

/// Puts `rows` into `root`'s MANIFEST.tsv (replacing the rows of the same
/// files, keeping the others), sorted by file name.
fn update_manifest(root: &Path, rows: &[ManifestRow]) {
    const HEADER: &str = "file\tbytes\tsource_repo\tsource_commit\tsource_path\t\
                          license_if_known\tdeclared_charset\tcategory";
    let path = root.join("MANIFEST.tsv");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let mut lines: Vec<String> = old
        .lines()
        .skip(1)
        .filter(|line| {
            let file = line.split('\t').next().unwrap_or_default();
            !rows.iter().any(|row| row.file == file)
        })
        .map(str::to_owned)
        .collect();
    for row in rows {
        lines.push(format!(
            "{}\t{}\thtmltok\t-\txtask/src/gen_corpus\tMIT OR Apache-2.0 (this crate)\t{}\t{}",
            row.file, row.bytes, row.declared, row.category
        ));
    }
    lines.sort();
    let mut text = String::from(HEADER);
    for line in lines {
        text.push('\n');
        text.push_str(&line);
    }
    text.push('\n');
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    println!("wrote {}", path.display());
}

/// `cargo xtask gen-corpus [OUT_DIR]`.
pub fn main(args: &[OsString]) -> ExitCode {
    let root = match args {
        [] => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus"),
        [dir] => PathBuf::from(dir),
        _ => {
            eprintln!("usage: cargo xtask gen-corpus [OUT_DIR]");
            return ExitCode::from(2);
        }
    };
    let out_dir = root.join("pages");
    std::fs::create_dir_all(&out_dir).expect("cannot create the output directory");

    type Gen = fn(&mut Rng) -> String;
    let pages: [(&str, u64, Gen); 4] = [
        ("article.html", 0x0A27_1C1E, article),
        ("tag-dense.html", 0x7A6D_E45E, tag_dense),
        ("script-heavy.html", 0x5C21_97E5, script_heavy),
        ("cjk.html", 0xC7C7_C7C7, cjk),
    ];
    let mut rows = Vec::new();
    for (name, seed, generate) in pages {
        let mut rng = Rng::new(seed);
        let html = generate(&mut rng);
        let path = out_dir.join(name);
        std::fs::write(&path, &html)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        println!("wrote {} ({} bytes)", path.display(), html.len());
        rows.push(ManifestRow {
            file: format!("pages/{name}"),
            bytes: html.len(),
            declared: "utf-8".to_owned(),
            category: name.trim_end_matches(".html"),
        });
    }
    rows.extend(legacy::write_all(&root));
    update_manifest(&root, &rows);
    ExitCode::SUCCESS
}
