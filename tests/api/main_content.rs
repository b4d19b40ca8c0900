//! `htmltok::extract::main_content` on the hand-made pages of
//! `corpus/main/`: for each, the sentences a reader would call its main
//! content are there, in the page's order; the boilerplate around them
//! (navigation, banners, sidebars, share bars, related lists, footers,
//! comment sections, what is hidden) is not; Markdown has its structure.
//! The expectations were written from the pages, as a reader sees them.

use std::path::Path;

use htmltok::extract::{main_content, text, MainOptions, Page, PageText};

/// The page `corpus/main/NAME`, decoded as a browser decodes it, through
/// `Page::main_content` with `options`.
fn main_of(name: &str, options: MainOptions) -> PageText {
    let bytes = read(name);
    Page::decode(&bytes, None).main_content(options)
}

fn read(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/main")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn plain(name: &str) -> String {
    main_of(name, MainOptions::new()).text
}

fn markdown(name: &str) -> String {
    main_of(name, MainOptions::new().markdown(true)).text
}

/// Each of `wanted` is in `text`, each after the one before it.
#[track_caller]
fn assert_in_order(name: &str, text: &str, wanted: &[&str]) {
    let mut from = 0;
    for want in wanted {
        match text[from..].find(want) {
            Some(at) => from += at + want.len(),
            None if text.contains(want) => {
                panic!("{name}: {want:?} is out of order in the main content:\n{text}")
            }
            None => panic!("{name}: {want:?} is missing from the main content:\n{text}"),
        }
    }
}

/// None of `unwanted` is in `text`.
#[track_caller]
fn assert_absent(name: &str, text: &str, unwanted: &[&str]) {
    for bad in unwanted {
        assert!(
            !text.contains(bad),
            "{name}: {bad:?} is boilerplate, yet in the main content:\n{text}"
        );
    }
}

/// Each of `starts` begins a line of `text`, each on a later line than the
/// one before it.
#[track_caller]
fn assert_lines_start(name: &str, text: &str, starts: &[&str]) {
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    for start in starts {
        let Some(at) = lines[from..].iter().position(|l| l.starts_with(start)) else {
            panic!("{name}: no line starting with {start:?} (in order):\n{text}");
        };
        from += at + 1;
    }
}

/// A line of `text` that holds each of `cells` in order, for each row of
/// `rows`, the rows on successive lines in order.
#[track_caller]
fn assert_rows(name: &str, text: &str, rows: &[&[&str]]) {
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    for row in rows {
        let holds = |line: &str| {
            let mut at = 0;
            row.iter().all(|cell| match line[at..].find(cell) {
                Some(i) => {
                    at += i + cell.len();
                    true
                }
                None => false,
            })
        };
        let Some(at) = lines[from..].iter().position(|l| holds(l)) else {
            panic!("{name}: no line with the cells {row:?} (in order):\n{text}");
        };
        from += at + 1;
    }
}

/// `code` is in `markdown` as a fenced block: the line before it opens a
/// fence (three backticks and at most a language name), the line after it
/// closes it.
#[track_caller]
fn assert_fenced(name: &str, markdown: &str, code: &str) {
    let Some(at) = markdown.find(code) else {
        panic!("{name}: the code {code:?} is not kept as written:\n{markdown}");
    };
    let before = markdown[..at]
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("{name}: the code does not start a line:\n{markdown}"));
    let opening = before.rsplit('\n').next().unwrap_or(before);
    let language = opening.strip_prefix("```");
    assert!(
        language.is_some_and(|l| l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')),
        "{name}: the code is not opened by a fence (the line before it is {opening:?}):\n{markdown}"
    );
    let after = &markdown[at + code.len()..];
    let closing = after.strip_prefix('\n').and_then(|a| a.lines().next());
    assert_eq!(
        closing,
        Some("```"),
        "{name}: the code is not closed by a fence:\n{markdown}"
    );
}

/// The words of `main` are words of `all`, in order: main content is
/// chosen from the page's text, never made up.
#[track_caller]
fn assert_words_of(name: &str, main: &str, all: &str) {
    let mut words = all.split_whitespace();
    for word in main.split_whitespace() {
        assert!(
            words.any(|w| w == word),
            "{name}: the main content's word {word:?} is not next in the page's text"
        );
    }
}

const PAGES: [&str; 7] = [
    "article-sidebar.html",
    "main-no-article.html",
    "comments.html",
    "chinese-news.html",
    "japanese-blog.html",
    "table-code.html",
    "listing.html",
];

#[test]
fn every_page_has_main_content_drawn_from_its_text_with_its_title() {
    for name in PAGES {
        let bytes = read(name);
        let page = Page::decode(&bytes, None);
        let all = page.text();
        for options in [MainOptions::new(), MainOptions::new().comments(true)] {
            let main = page.main_content(options);
            // The title is the page's <title>, as text() gives it.
            assert_eq!(main.title, all.title, "{name}");
            assert!(!main.text.trim().is_empty(), "{name}: no main content");
            assert!(
                main.text.len() < all.text.len() * 3 / 4,
                "{name}: the main content is most of the page's text:\n{}",
                main.text
            );
            assert_words_of(name, &main.text, &all.text);
        }
    }
}

#[test]
fn an_article_with_a_sidebar_and_a_footer() {
    let name = "article-sidebar.html";
    let text = plain(name);
    assert_in_order(
        name,
        &text,
        &[
            "My grandmother\u{2019}s skillet spent eleven winters in a damp garden shed",
            "Two hours later it was frying eggs again.",
            "Rust on cast iron looks alarming, but it rarely goes deeper than the surface.",
            "What you will need",
            "Fine steel wool or a stiff brush",
            "Lint-free cloths or paper towels",
            "Step one: scrub it back to bare metal",
            "Scrub the whole pan with steel wool",
            "Rinse the skillet and dry it immediately with a towel",
            "Step two: oil thinly and bake",
            "While the pan is still warm, rub a teaspoon of oil over every surface",
            "for one hour, with a sheet of foil on the rack below to catch drips",
            "A skillet treated like this will outlive all of us.",
        ],
    );
    assert_absent(
        name,
        &text,
        &[
            // The cookie banner, the menu (and its hidden off-canvas copy).
            "We use cookies",
            "Privacy policy",
            "Skip to content",
            "Slow cooking for people with busy weeks",
            "Preserves and Pickles",
            "Dutch Ovens",
            "Gift Guides",
            "Meal Plans",
            // Hidden in the post: a print notice, an advertisement, a modal.
            "This article was printed from",
            "Ironworks spring sale",
            "Subscribe today to unlock every recipe",
            // The share bar and related posts inside the post's content.
            "Share this",
            "Pinterest",
            "Seven Seasoning Myths",
            "Flaxseed oil, salt scrubs",
            "No-Knead Bread in a Dutch Oven",
            // Post navigation, the sidebar, the footer.
            "Five Pantry Staples That Keep for a Year",
            "Three Green Soups",
            "I have cooked for a family of five",
            "Recent Posts",
            "A Batch-Cooking Sunday",
            "Join twelve thousand readers",
            "All rights reserved",
            "Proudly powered by",
        ],
    );
    // Paragraphs and list items on lines of their own.
    assert_lines_start(
        name,
        &text,
        &[
            "My grandmother",
            "Rust on cast iron",
            "Fine steel wool",
            "Mild dish soap",
        ],
    );

    let md = markdown(name);
    assert_lines_start(
        name,
        &md,
        &[
            "My grandmother",
            "## What you will need",
            "- Fine steel wool or a stiff brush",
            "- Mild dish soap and hot water",
            "## Step one: scrub it back to bare metal",
            "## Step two: oil thinly and bake",
        ],
    );
    assert_absent(name, &md, &["Share this", "Seven Seasoning Myths"]);
}

#[test]
fn a_page_whose_content_is_in_main_without_an_article() {
    let name = "main-no-article.html";
    let text = plain(name);
    assert_in_order(
        name,
        &text,
        &[
            "Book a bulky waste collection",
            "We collect large household items that will not fit in your bins",
            "You can book up to six items in one collection.",
            "What we can collect",
            "furniture, including beds, tables, chairs and sofas",
            "garden furniture and lawnmowers with the fuel drained",
            "What we cannot collect",
            "We cannot take building rubble",
            "Put your items out by 7am on the day of collection",
            "Before you book",
            "You will need your postcode",
            "You can cancel for a full refund until then.",
        ],
    );
    assert_absent(
        name,
        &text,
        &[
            "We use some essential cookies",
            "analytics cookies",
            "Skip to main content",
            "Council tax",
            "Planning and building control",
            "Jobs and careers",
            "This is a new service",
            // The feedback widget, and its hidden form and thanks.
            "Is this page useful?",
            "Report a problem with this page",
            "Do not include personal or financial information",
            "Thank you for your feedback",
            // The related links beside the content, inside <main>.
            "Related content",
            "Find your bin collection day",
            "Order a new or replacement bin",
            // The footer.
            "Births, deaths and marriages",
            "Our phone lines are open",
            "Open Government Licence",
            "Accessibility statement",
        ],
    );
    let md = markdown(name);
    assert_lines_start(
        name,
        &md,
        &[
            "# Book a bulky waste collection",
            "## What we can collect",
            "- furniture, including beds",
            "- fridges, freezers",
            "## What we cannot collect",
            "## Before you book",
        ],
    );
}

const ARTICLE_SENTENCES: [&str; 5] = [
    "Every March I sow too many tomatoes on the kitchen windowsill",
    "Leggy seedlings are stretching towards light.",
    "I moved half of the trays to the cold greenhouse on the allotment",
    "When you pot them on, bury the stem right up to the first true leaves.",
    "The movement makes the stems thicken, and it costs nothing but a minute of attention.",
];

const COMMENT_SENTENCES: [&str; 3] = [
    "Burying the stem saved my whole crop last year.",
    "Good point about watering from below, Priya.",
    "An old trick from my father: a sheet of kitchen foil behind the tray",
];

/// Boilerplate of the comments page, with comments or without.
const COMMENTS_PAGE_BOILERPLATE: [&str; 10] = [
    "Twenty square metres of clay",
    "Fruit and soft fruit",
    "Sowing calendar",
    // The reply form under the comments.
    "Leave a comment",
    "Your email address will not be published",
    "Save my name, email, and website",
    // Post navigation, the recent-comments widget, the footer.
    "Chitting Potatoes on an Egg Box Budget",
    "Night Patrol",
    "Recent comments",
    "Words and photographs by Tom Okafor",
];

#[test]
fn comments_are_left_out_by_default() {
    let name = "comments.html";
    let text = plain(name);
    assert_in_order(name, &text, &ARTICLE_SENTENCES);
    assert_absent(name, &text, &COMMENT_SENTENCES);
    assert_absent(name, &text, &COMMENTS_PAGE_BOILERPLATE);
    assert_absent(name, &text, &["3 comments on"]);
}

#[test]
fn comments_are_kept_after_the_article_when_asked_for() {
    let name = "comments.html";
    let with = main_of(name, MainOptions::new().comments(true)).text;
    let in_order: Vec<&str> = ARTICLE_SENTENCES
        .iter()
        .chain(&COMMENT_SENTENCES)
        .copied()
        .collect();
    assert_in_order(name, &with, &in_order);
    assert_absent(name, &with, &COMMENTS_PAGE_BOILERPLATE);
    // The comments are what was added.
    let without = plain(name);
    assert!(with.len() > without.len(), "{name}: {with}");
}

#[test]
fn a_chinese_news_page_of_short_paragraphs() {
    let name = "chinese-news.html";
    let paragraphs = [
        "本报讯（记者 李明）5月18日上午，滨江地铁5号线一期工程正式开通运营，全长26.4公里，共设车站19座。",
        "5号线自北向南贯穿老城区和高新区，与既有的1号线、3号线形成换乘，市民从城北到高铁站的通勤时间将缩短约25分钟。",
        "据滨江轨道交通集团介绍，开通初期，5号线工作日行车间隔为4分30秒，早晚高峰时段将根据客流情况适时加开列车。",
        "记者在首班车上看到，不少市民专程前来体验。家住城北的王女士说：“以前上班要换两趟公交，现在坐地铁二十分钟就到了。”",
        "按照规划，5号线二期工程将继续向南延伸至滨江新区，预计2026年底建成通车。",
        "截至目前，滨江地铁运营里程已达到168公里，日均客运量超过150万人次。",
    ];
    let text = plain(name);
    assert_in_order(name, &text, &paragraphs);
    // Each paragraph a line of its own (after the page's U+3000 indent).
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_start_matches('\u{3000}'))
        .collect();
    for p in paragraphs {
        assert!(lines.contains(&p), "{name}: {p:?} is not a line:\n{text}");
    }
    assert_absent(
        name,
        &text,
        &[
            "体育",
            "财经",
            "登录",
            "国际",
            "新闻中心",
            "分享到",
            "扫描二维码",
            "相关阅读",
            "地铁5号线完成空载试运行",
            "配合地铁开通 滨江将调整12条公交线路",
            "热门新闻排行",
            "高考倒计时20天",
            "跨江大桥夜间封闭施工",
            "品质楼盘火热认购中",
            "我要评论",
            "关于我们",
            "版权所有",
            "滨ICP备",
        ],
    );
}

#[test]
fn a_japanese_blog_entry_of_very_short_paragraphs() {
    let name = "japanese-blog.html";
    let text = plain(name);
    assert_in_order(
        name,
        &text,
        &[
            "ぬか床を始めてちょうど一年になりました。",
            "最初の一か月は毎日のように失敗しました。",
            "いちばん大事なのは、朝と夜に底から大きくかき混ぜることでした。",
            "夏は冷蔵庫の野菜室に移すと、漬かりすぎを防げます。",
            "これからも無理のない範囲で続けていきます。",
        ],
    );
    assert_absent(
        name,
        &text,
        &[
            "発酵と保存食の記録",
            "このブログについて",
            "お問い合わせ",
            "ブックマーク",
            "シェアする",
            "関連記事",
            "手前味噌を仕込んだ冬の週末の記録",
            "コメントを書く",
            "プロフィール",
            "会社員をしながら",
            "最新記事",
            "紅茶きのこを三週間育ててみた結果",
            "月別アーカイブ",
            "らっきょう漬けの季節がやってきた",
            "無断転載を禁じます",
        ],
    );
}

const TOML: &str = "[crawl]\nseeds = [\"https://example.org/\"]\nmax_depth = 2\n\n\
                    [politeness]\ndelay_ms = 500\nrespect_robots = true";

const PYTHON: &str = "def keep(url: str, depth: int) -> bool:\n    \
                      if depth > 2 and \"/tag/\" in url:\n        return False\n\n    \
                      return not url.endswith((\".pdf\", \".zip\"))";

/// The documentation page's boilerplate: the banner, search, tabs, the
/// navigation sidebar, the table of contents, the feedback form, the
/// footer.
const DOCS_BOILERPLATE: [&str; 14] = [
    "Version 2.0 is out",
    "Initializing search",
    "rakecrawl/rakecrawl",
    "User guide",
    "API reference",
    "Seed lists and scopes",
    "Storing pages as WARC",
    "Monitoring and metrics",
    "Table of contents",
    "Was this page helpful?",
    "Thanks for your feedback!",
    "Back to top",
    "Made with a static site generator",
    "released under the Apache licence",
];

#[test]
fn a_page_with_a_table_and_code_as_plain_text() {
    let name = "table-code.html";
    let text = plain(name);
    assert_in_order(
        name,
        &text,
        &[
            "Configuring the crawler",
            "Settings live in a file named crawler.toml at the root of your project.",
            "Installation",
            "Install the rake binary with your package manager.",
            "Create crawler.toml next to your seed list.",
            "Run rake check to validate the file before the first crawl.",
            "This file crawls one site, two links deep, with a pause between requests:",
            TOML,
            "The options of the [crawl] and [politeness] tables:",
            "Changes to the file take effect at the next run",
            "Filtering URLs",
            "A filter is a Python function that receives each URL before it is queued:",
            PYTHON,
            "Filters run in the order they are listed.",
            "A filter that raises an exception drops the URL and logs a warning.",
        ],
    );
    // A table row on a line, its cells in order.
    assert_rows(
        name,
        &text,
        &[
            &["Option", "Default", "Description"],
            &[
                "max_depth",
                "3",
                "How many links away from a seed the crawler may go.",
            ],
            &[
                "delay_ms",
                "1000",
                "The pause between two requests to one host, in milliseconds.",
            ],
            &[
                "respect_robots",
                "true",
                "Whether the rules of a host\u{2019}s robots.txt are obeyed.",
            ],
            &[
                "user_agent",
                "rakecrawl/2.0",
                "The User-Agent header sent with every request.",
            ],
        ],
    );
    assert_absent(name, &text, &DOCS_BOILERPLATE);
    // The table of contents repeats the headings: they are there once.
    for heading in ["Installation", "A minimal configuration", "Filtering URLs"] {
        assert_eq!(
            text.matches(heading).count(),
            1,
            "{name}: {heading}:\n{text}"
        );
    }
}

#[test]
fn a_page_with_a_table_and_code_as_markdown() {
    let name = "table-code.html";
    let md = markdown(name);
    assert_lines_start(
        name,
        &md,
        &[
            "# Configuring the crawler",
            "## Installation",
            "1. Install the",
            "2. Create",
            "3. Run",
            "## A minimal configuration",
            "## Options",
            "### Filtering URLs",
            "- Filters run in the order they are listed.",
            "- A filter that raises an exception drops the URL and logs a warning.",
        ],
    );
    assert_fenced(name, &md, TOML);
    assert_fenced(name, &md, PYTHON);

    // A pipe table: the header, the delimiter row, a row per row, in order.
    let lines: Vec<&str> = md.lines().map(str::trim).collect();
    let cells = |line: &str| -> Vec<String> {
        let inner = line.strip_prefix('|').and_then(|l| l.strip_suffix('|'));
        inner
            .map(|l| l.split('|').map(|c| c.trim().to_owned()).collect())
            .unwrap_or_default()
    };
    let header = lines
        .iter()
        .position(|l| cells(l) == ["Option", "Default", "Description"])
        .unwrap_or_else(|| panic!("{name}: no pipe-table header row:\n{md}"));
    let delimiter = cells(lines[header + 1]);
    assert!(
        delimiter.len() == 3
            && delimiter.iter().all(|c| {
                let dashes = c.trim_start_matches(':').trim_end_matches(':');
                dashes.len() >= 3 && dashes.bytes().all(|b| b == b'-')
            }),
        "{name}: no delimiter row under the table's header:\n{md}"
    );
    let rows = [
        [
            "max_depth",
            "3",
            "How many links away from a seed the crawler may go.",
        ],
        [
            "delay_ms",
            "1000",
            "The pause between two requests to one host, in milliseconds.",
        ],
        [
            "respect_robots",
            "true",
            "Whether the rules of a host\u{2019}s robots.txt are obeyed.",
        ],
        [
            "user_agent",
            "rakecrawl/2.0",
            "The User-Agent header sent with every request.",
        ],
    ];
    for (i, want) in rows.iter().enumerate() {
        let got = cells(lines[header + 2 + i]);
        assert_eq!(got.len(), 3, "{name}: row {i} of the table:\n{md}");
        // The option names are code: with or without backticks.
        assert_eq!(got[0].trim_matches('`'), want[0], "{name}:\n{md}");
        assert_eq!(got[1..], want[1..], "{name}:\n{md}");
    }
    assert_absent(name, &md, &DOCS_BOILERPLATE);
    // Links are their text unless asked for.
    assert_in_order(name, &md, &["see the politeness guide for how"]);
    assert_absent(name, &md, &["](../robots/)"]);
}

#[test]
fn markdown_links_when_asked_for() {
    let name = "table-code.html";
    let md = main_of(name, MainOptions::new().markdown(true).links(true)).text;
    assert_in_order(
        name,
        &md,
        &["see [the politeness guide](../robots/) for how"],
    );
    assert_absent(name, &md, &["](../seeds/)", "](../getting-started/)"]);
    // Links in plain text are the links' text: the option is Markdown's.
    let plain_links = main_of(name, MainOptions::new().links(true)).text;
    assert_eq!(plain_links, plain(name));
}

#[test]
fn a_listing_page_without_an_article_gives_its_largest_text_block() {
    let name = "listing.html";
    let text = plain(name);
    // The list of teasers, all of it, in order.
    assert_in_order(
        name,
        &text,
        &[
            "Astronomers say the best view will come just before dawn",
            "Divers counted new growth on two thirds of the colonies",
            "The effect held even when total hours of sleep were the same",
            "Five years of measurements downstream of a release site",
            "Samples brought back by a robotic mission suggest the beads",
            "Volunteers recorded twice as many bee species in city allotments",
        ],
    );
    assert_absent(
        name,
        &text,
        &[
            "Your privacy choices",
            "We and our partners store",
            "Subscribe from",
            "Food and drink",
            "Most read",
            "Harbour bridge to close",
            "Five small islands",
            "Sign up to First Light",
            "Our free science newsletter",
            "Older stories",
            "Complaints and corrections",
            "Registered in England",
        ],
    );
}

#[test]
fn text_is_never_lost_where_there_is_some() {
    // Pages with no article, no paragraph, nothing but a little text: it
    // is their main content.
    for (page, want) in [
        ("<p>Only this.</p>", "Only this."),
        ("just words, no markup", "just words, no markup"),
        ("<div>A short line</div>", "A short line"),
        (
            "<title>T</title><body><span>Hello</span> <b>there</b>",
            "Hello there",
        ),
    ] {
        assert_eq!(main_content(page).text, want, "{page}");
    }
    // A page of links alone: not nothing.
    let links = "<ul><li><a href=/a>Alpha</a><li><a href=/b>Beta</a><li><a href=/c>Gamma</a></ul>";
    assert!(!main_content(links).text.is_empty());
    // Nothing where there is no text.
    for page in [
        "",
        "<html><head><title>T</title></head><body></body>",
        "<script>x()</script>",
    ] {
        let got = main_content(page);
        assert_eq!(got.text, "", "{page}");
        assert_eq!(got.title, text(page).title, "{page}");
    }
}
