//! What an element's `class`, `id`, `role` and `itemprop` say about it.
//!
//! Page templates name their parts: `entry-content`, `articleBody`,
//! `site-footer`, `share-buttons`, `comment-list`. The names are split
//! into lower-case words (at punctuation and at camel-case humps), and
//! words, not substrings, are matched, so that `canvas` is no `nav` and
//! `badge` no `ad`.

/// The hints, as bits of a `u16`.
pub(super) const NAVIGATION: u16 = 1 << 0;
/// Footers, copyright lines, cookie banners.
pub(super) const FOOTER: u16 = 1 << 1;
/// Sidebars and widgets.
pub(super) const SIDEBAR: u16 = 1 << 2;
/// Share bars, social links, newsletter sign-ups.
pub(super) const SOCIAL: u16 = 1 << 3;
/// Related, recommended, popular, "read next".
pub(super) const RELATED: u16 = 1 << 4;
/// Advertising, sponsored and promoted blocks.
pub(super) const ADS: u16 = 1 << 5;
/// A post's metadata: date, author, tags, categories, byline.
pub(super) const META: u16 = 1 << 6;
/// A comment section.
pub(super) const COMMENTS: u16 = 1 << 7;
/// Pop-ups, modals, overlays, log-in boxes.
pub(super) const POPUP: u16 = 1 << 8;
/// Hidden (by a class that means it, by `hidden`, `aria-hidden` or a
/// `display: none` style).
pub(super) const HIDDEN: u16 = 1 << 9;
/// A word of content: `article`, `content`, `entry`, `post`, `story`.
pub(super) const CONTENT: u16 = 1 << 10;
/// The body of an article by name: `articleBody`, `entry-content`,
/// `post-body`, `story-text`.
pub(super) const BODY: u16 = 1 << 11;
/// The page's main area: `main-content`, `role=main`, `id=content`.
pub(super) const MAIN: u16 = 1 << 12;
/// A page header or masthead.
pub(super) const HEADER: u16 = 1 << 13;

/// The hints that mark boilerplate.
pub(super) const BOILERPLATE: u16 =
    NAVIGATION | FOOTER | SIDEBAR | SOCIAL | RELATED | ADS | META | POPUP | HEADER;

/// [`class_hints`] remembered by value: a page repeats its class names
/// (every teaser, every comment, every list item), and reading one by
/// words costs more than looking it up.
pub(super) struct ClassHints {
    /// A value's hash (never 0) and its hints, in the slot its hash's top
    /// byte chooses.
    slots: Box<[(u64, u16); 1024]>,
}

impl ClassHints {
    pub(super) fn new() -> Self {
        ClassHints {
            slots: Box::new([(0, 0); 1024]),
        }
    }

    /// The hints of `value`, a `class` or `id`. Two values of the same
    /// 64-bit hash in one page would share hints: a choice of wording,
    /// never of memory safety or of time.
    pub(super) fn of(&mut self, value: &str) -> u16 {
        let hash = hash(value.as_bytes()) | 1;
        let slot = &mut self.slots[(hash >> 54) as usize];
        if slot.0 == hash {
            return slot.1;
        }
        let hints = class_hints(value);
        *slot = (hash, hints);
        hints
    }
}

/// A fast 64-bit hash of `bytes`, eight at a time.
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// The hints of a `class` or `id` value.
pub(super) fn class_hints(value: &str) -> u16 {
    let mut hints = 0;
    for name in value.split_ascii_whitespace() {
        // Whole class names that hide an element.
        if name.len() <= 24 && hides(name) {
            hints |= HIDDEN;
        }
        if is_taxonomy(name) {
            continue;
        }
        let mut prev = Word::None;
        for_each_word(name, |word| {
            let w = word_of(word);
            hints |= w.hints() | pair_hints(prev, w);
            prev = w;
        });
    }
    hints
}

/// Class names that a blog engine makes of a post's categories, tags and
/// states (`category-social-media`, `tag-share`, `format-standard`):
/// their words are the site's vocabulary, not the part's role.
fn is_taxonomy(name: &str) -> bool {
    let lower = |prefix: &str| {
        name.len() > prefix.len()
            && name.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
    };
    (lower("category-") || lower("tag-") || lower("format-") || lower("status-") || lower("type-"))
        && !["tag-list", "tag-cloud", "tag-links"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
}

/// The hints of a `role` value (ARIA landmarks and widgets).
pub(super) fn role_hints(value: &str) -> u16 {
    let mut hints = 0;
    for role in value.split_ascii_whitespace() {
        hints |= match role.to_ascii_lowercase().as_str() {
            "navigation" | "menu" | "menubar" | "tablist" | "toolbar" | "search" | "searchbox" => {
                NAVIGATION
            }
            "banner" => HEADER,
            "contentinfo" => FOOTER,
            "complementary" => SIDEBAR,
            "dialog" | "alertdialog" | "alert" | "tooltip" => POPUP,
            "main" => MAIN,
            "article" => CONTENT,
            "comment" => COMMENTS,
            _ => 0,
        };
    }
    hints
}

/// The hints of an `itemprop` value (schema.org).
pub(super) fn itemprop_hints(value: &str) -> u16 {
    let mut hints = 0;
    for prop in value.split_ascii_whitespace() {
        hints |= match prop {
            "articleBody" | "articlebody" | "reviewBody" | "mainContentOfPage" => BODY,
            "text" | "description" => 0,
            "comment" | "comments" => COMMENTS,
            "author" | "datePublished" | "dateModified" | "keywords" | "publisher" => META,
            _ => 0,
        };
    }
    hints
}

/// Whether a `style` value hides its element.
pub(super) fn style_hides(style: &str) -> bool {
    let bytes = style.as_bytes();
    let mut at = 0;
    while let Some(i) = memchr::memchr(b':', &bytes[at..]) {
        let colon = at + i;
        let name = style[..colon]
            .rsplit([';', '{'])
            .next()
            .unwrap_or("")
            .trim();
        let value = style[colon + 1..].split(';').next().unwrap_or("").trim();
        if (name.eq_ignore_ascii_case("display") && value.eq_ignore_ascii_case("none"))
            || (name.eq_ignore_ascii_case("visibility") && value.eq_ignore_ascii_case("hidden"))
        {
            return true;
        }
        at = colon + 1;
    }
    false
}

/// Class names that hide their element on every screen.
fn hides(name: &str) -> bool {
    let mut buf = [0u8; 24];
    let lower = &mut buf[..name.len()];
    lower.copy_from_slice(name.as_bytes());
    lower.make_ascii_lowercase();
    matches!(
        &*lower,
        b"hidden"
            | b"hide"
            | b"is-hidden"
            | b"d-none"
            | b"invisible"
            | b"visually-hidden"
            | b"visuallyhidden"
            | b"sr-only"
            | b"screen-reader-text"
            | b"screen-reader-only"
            | b"element-invisible"
            | b"display-none"
            | b"u-hidden"
            | b"hidden-print"
    )
}

/// Calls `f` with each word of the class name or id `name`: runs of
/// ASCII letters and digits, split where a lower-case letter is followed
/// by an upper-case one; other bytes split them.
fn for_each_word(name: &str, mut f: impl FnMut(&str)) {
    let bytes = name.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if !bytes[at].is_ascii_alphanumeric() {
            at += 1;
            continue;
        }
        let start = at;
        at += 1;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            if bytes[at].is_ascii_uppercase() && bytes[at - 1].is_ascii_lowercase() {
                break;
            }
            at += 1;
        }
        f(&name[start..at]);
    }
}

/// A word that means something here.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    None,
    /// `article`, `post`, `entry`, `story`, `blog`, `news`.
    Article,
    /// `body`, `text`, `copy`, `inner`.
    Body,
    /// `content`, `contents`.
    Content,
    Main,
    Page,
    Hint(u16),
}

impl Word {
    fn hints(self) -> u16 {
        match self {
            Word::Article | Word::Content => CONTENT,
            Word::Hint(h) => h,
            _ => 0,
        }
    }
}

fn word_of(word: &str) -> Word {
    if word.len() > 16 {
        return Word::None;
    }
    let mut buf = [0u8; 16];
    let lower = &mut buf[..word.len()];
    lower.copy_from_slice(word.as_bytes());
    lower.make_ascii_lowercase();
    match &*lower {
        b"article" | b"post" | b"entry" | b"story" | b"blog" | b"news" => Word::Article,
        b"body" | b"text" | b"copy" | b"bodycopy" | b"inner" => Word::Body,
        b"content" | b"contents" => Word::Content,
        b"main" | b"primary" => Word::Main,
        b"page" | b"single" => Word::Page,
        b"articlebody" | b"articletext" | b"articlecontent" | b"postbody" | b"postcontent"
        | b"posttext" | b"entrycontent" | b"entrybody" | b"storybody" | b"storytext"
        | b"storycontent" | b"bodytext" | b"fulltext" | b"postentry" | b"blogpost" => {
            Word::Hint(BODY | CONTENT)
        }
        b"maincontent" | b"mainbody" | b"contentmain" | b"contentbody" | b"pagecontent" => {
            Word::Hint(MAIN)
        }
        b"nav" | b"navbar" | b"navi" | b"navigation" | b"menu" | b"menus" | b"menubar"
        | b"submenu" | b"topnav" | b"subnav" | b"sidenav" | b"mainmenu" | b"megamenu"
        | b"breadcrumb" | b"breadcrumbs" | b"crumbs" | b"pagination" | b"pager" | b"paging"
        | b"pagenav" | b"toolbar" | b"skip" | b"skiplink" | b"dropdown" | b"jump" => {
            Word::Hint(NAVIGATION)
        }
        b"footer" | b"foot" | b"copyright" | b"cookie" | b"cookies" | b"consent" | b"gdpr"
        | b"legal" | b"disclaimer" | b"colophon" | b"imprint" => Word::Hint(FOOTER),
        b"header" | b"masthead" | b"topbar" | b"logo" | b"branding" => Word::Hint(HEADER),
        b"sidebar" | b"sidebars" | b"aside" | b"rail" | b"sidecol" | b"sidebox" => {
            Word::Hint(SIDEBAR)
        }
        b"share" | b"shares" | b"sharing" | b"sharedaddy" | b"sharethis" | b"addthis"
        | b"social" | b"sociable" | b"socials" | b"newsletter" | b"subscribe" | b"subscription"
        | b"signup" | b"follow" | b"syndication" | b"facebook" | b"twitter" | b"whatsapp"
        | b"pinterest" | b"linkedin" | b"print" | b"email" | b"likes" | b"rss" => {
            Word::Hint(SOCIAL)
        }
        b"related" | b"recommended" | b"recommendations" | b"trending" | b"popular"
        | b"mostread" | b"teaser" | b"teasers" | b"promo" | b"promos" | b"outbrain"
        | b"taboola" | b"upnext" | b"readmore" | b"more" | b"suggested" | b"similar" => {
            Word::Hint(RELATED)
        }
        b"ad" | b"ads" | b"advert" | b"adverts" | b"advertisement" | b"advertising"
        | b"adsense" | b"adslot" | b"adsbygoogle" | b"sponsor" | b"sponsored" | b"sponsors"
        | b"banner" | b"banners" | b"commercial" | b"dfp" | b"gpt" => Word::Hint(ADS),
        b"meta" | b"metadata" | b"byline" | b"dateline" | b"timestamp" | b"tags" | b"tagged"
        | b"tagcloud" | b"categories" | b"author" | b"bio" | b"caption" | b"credit"
        | b"credits" => Word::Hint(META),
        b"feedback" | b"rating" | b"survey" | b"helpful" => Word::Hint(SOCIAL),
        b"comment" | b"comments" | b"commentlist" | b"disqus" | b"replies" | b"discussion"
        | b"talkback" => Word::Hint(COMMENTS),
        // The form a reader writes a comment in (`#respond`) is not a
        // comment: it goes with the other forms that ask for input.
        b"popup" | b"modal" | b"overlay" | b"lightbox" | b"login" | b"signin" | b"register"
        | b"tooltip" | b"respond" => Word::Hint(POPUP),
        _ => compound(lower),
    }
}

/// A word run together from a boilerplate word and another:
/// `relatedposts`, `sharebar`, `topnav`, `sitefooter`.
fn compound(word: &[u8]) -> Word {
    // Every boilerplate word here is three letters or more, so a compound
    // is six or more; most words are none.
    if word.len() < 6 {
        return Word::None;
    }
    const STARTS: [(&[u8], u16); 10] = [
        (b"related", RELATED),
        (b"sidebar", SIDEBAR),
        (b"footer", FOOTER),
        (b"share", SOCIAL),
        (b"social", SOCIAL),
        (b"newsletter", SOCIAL),
        (b"breadcrumb", NAVIGATION),
        (b"cookie", FOOTER),
        (b"advert", ADS),
        (b"sponsor", ADS),
    ];
    const ENDS: [(&[u8], u16); 5] = [
        (b"nav", NAVIGATION),
        (b"menu", NAVIGATION),
        (b"footer", FOOTER),
        (b"sidebar", SIDEBAR),
        (b"share", SOCIAL),
    ];
    for (start, hint) in STARTS {
        if word.len() > start.len() && word.starts_with(start) {
            return Word::Hint(hint);
        }
    }
    for (end, hint) in ENDS {
        if word.len() > end.len() && word.ends_with(end) {
            return Word::Hint(hint);
        }
    }
    Word::None
}

/// Two words in a row that name an article's body or a page's main area.
fn pair_hints(first: Word, second: Word) -> u16 {
    match (first, second) {
        (Word::Article, Word::Body | Word::Content) | (Word::Body, Word::Content) => BODY,
        (Word::Page, Word::Content | Word::Body) => MAIN | CONTENT,
        (Word::Main, Word::Content | Word::Body) | (Word::Content, Word::Main | Word::Body) => MAIN,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_by_words() {
        assert_eq!(class_hints("entry-content") & BODY, BODY);
        assert_eq!(class_hints("articleBody") & BODY, BODY);
        assert_eq!(class_hints("td-post-content clearfix") & BODY, BODY);
        assert_eq!(class_hints("main-content") & MAIN, MAIN);
        assert_eq!(class_hints("site-footer") & FOOTER, FOOTER);
        assert_eq!(class_hints("shareButtons") & SOCIAL, SOCIAL);
        assert_eq!(class_hints("comment-list") & COMMENTS, COMMENTS);
        // Substrings are not words.
        assert_eq!(class_hints("canvas badge headline"), 0);
        // Pairs are read within one name: `post` ends one, `content`
        // starts the next.
        assert_eq!(class_hints("post content") & BODY, 0);
    }

    #[test]
    fn hidden_by_class_role_and_style() {
        assert_eq!(class_hints("x hidden") & HIDDEN, HIDDEN);
        assert_eq!(class_hints("hidden-xs") & HIDDEN, 0);
        assert!(style_hides("color: red; display : none"));
        assert!(style_hides("VISIBILITY:hidden"));
        assert!(!style_hides("display: block; font: none"));
        assert_eq!(role_hints("navigation"), NAVIGATION);
        assert_eq!(role_hints("main"), MAIN);
    }
}
