//! The URL strings inside attribute values that hold more than a URL:
//! `srcset`'s image candidates and `<meta http-equiv=refresh>`'s content.
//! Both parse as the HTML Standard does, and both only split: what comes
//! out is resolved (or not) by the caller.

fn is_space(b: u8) -> bool {
    // ASCII whitespace in the HTML Standard: tab, LF, FF, CR, space.
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Each image candidate's URL in a `srcset` value, in order: the standard's
/// "parse a srcset attribute" up to the descriptors (candidates with
/// descriptors it would reject are kept: they are still links). A comma
/// ends a candidate except inside a descriptor's parentheses; commas at a
/// URL's end are not part of it.
pub(crate) fn srcset_urls(value: &str) -> impl Iterator<Item = &str> {
    let bytes = value.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        // Splitting loop: whitespace and commas between candidates.
        while at < bytes.len() && (is_space(bytes[at]) || bytes[at] == b',') {
            at += 1;
        }
        if at == bytes.len() {
            return None;
        }
        let start = at;
        while at < bytes.len() && !is_space(bytes[at]) {
            at += 1;
        }
        let mut end = at;
        if bytes[end - 1] == b',' {
            while end > start && bytes[end - 1] == b',' {
                end -= 1;
            }
        } else {
            skip_descriptors(bytes, &mut at);
        }
        // Whitespace and commas are ASCII: both ends are char boundaries.
        Some(&value[start..end])
    })
}

/// Moves `at` past a candidate's descriptors: to just after the comma that
/// ends them (one inside parentheses does not), or to the end.
fn skip_descriptors(bytes: &[u8], at: &mut usize) {
    let mut in_parens = false;
    while *at < bytes.len() {
        let b = bytes[*at];
        *at += 1;
        match b {
            b'(' => in_parens = true,
            b')' => in_parens = false,
            b',' if !in_parens => return,
            _ => {}
        }
    }
}

/// The URL string of a refresh's `content` (`"5; url=/next"`), by the
/// standard's "shared declarative refresh steps"; `None` when it has none
/// (a refresh of the page itself) or the content is not a refresh.
pub(crate) fn refresh_url(content: &str) -> Option<&str> {
    let bytes = content.as_bytes();
    let mut at = 0;
    let skip_space = |at: &mut usize| {
        while *at < bytes.len() && is_space(bytes[*at]) {
            *at += 1;
        }
    };
    skip_space(&mut at);
    let digits = at;
    while at < bytes.len() && bytes[at].is_ascii_digit() {
        at += 1;
    }
    if at == digits && bytes.get(at) != Some(&b'.') {
        return None;
    }
    while at < bytes.len() && (bytes[at].is_ascii_digit() || bytes[at] == b'.') {
        at += 1;
    }
    if at < bytes.len() {
        if !(is_space(bytes[at]) || bytes[at] == b';' || bytes[at] == b',') {
            return None;
        }
        skip_space(&mut at);
        if at < bytes.len() && (bytes[at] == b';' || bytes[at] == b',') {
            at += 1;
        }
        skip_space(&mut at);
    }
    if at == bytes.len() {
        return None;
    }
    // "url=" is optional; where it stops matching, the URL starts back at
    // its first letter, unquoted ("jump to the step labeled parse").
    let rest = &content[at..];
    let has = |i: usize, c: u8| {
        rest.as_bytes()
            .get(i)
            .is_some_and(|b| b.eq_ignore_ascii_case(&c))
    };
    let url = if !has(0, b'u') {
        unquote(rest)
    } else if has(1, b'r') && has(2, b'l') {
        let mut p = at + 3;
        skip_space(&mut p);
        if bytes.get(p) == Some(&b'=') {
            p += 1;
            skip_space(&mut p);
            unquote(&content[p..])
        } else {
            rest
        }
    } else {
        rest
    };
    // An empty URL refreshes the page itself: no link.
    (!url.is_empty()).then_some(url)
}

/// A refresh URL's quotes: an opening `'` or `"` and everything from the
/// same quote on are dropped.
fn unquote(url: &str) -> &str {
    match url.as_bytes().first() {
        Some(&q @ (b'\'' | b'"')) => {
            let inner = &url[1..];
            inner.split(q as char).next().unwrap_or(inner)
        }
        _ => url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srcset_candidates() {
        let urls = |v| srcset_urls(v).collect::<Vec<_>>();
        assert_eq!(urls("a.png 1x, b.png 2x"), ["a.png", "b.png"]);
        // A URL runs to whitespace: commas without spaces do not split
        // (the standard's reading, which browsers share).
        assert_eq!(urls("  a.png,b.png,, c.png 100w"), ["a.png,b.png", "c.png"]);
        // A comma inside a URL stays; one at its end does not.
        assert_eq!(urls("i.png?a,b 1x,j.png"), ["i.png?a,b", "j.png"]);
        // Commas inside a descriptor's parentheses do not split.
        assert_eq!(urls("a.png (x, y) 1x, b.png"), ["a.png", "b.png"]);
        assert!(urls(" , ,").is_empty());
        assert_eq!(urls("é.png 1x"), ["é.png"]);
    }

    #[test]
    fn refresh_urls() {
        assert_eq!(refresh_url("5; url=/next"), Some("/next"));
        assert_eq!(refresh_url("0;URL='http://x/'  "), Some("http://x/"));
        assert_eq!(refresh_url("0, url = \"a b\"c"), Some("a b"));
        assert_eq!(refresh_url("3 /plain"), Some("/plain"));
        assert_eq!(refresh_url(".5;u/x"), Some("u/x"));
        assert_eq!(refresh_url("1;urn:x"), Some("urn:x"));
        assert_eq!(refresh_url("7"), None);
        assert_eq!(refresh_url("7;  "), None);
        assert_eq!(refresh_url("7; url=''"), None);
        assert_eq!(refresh_url("7; url /x"), Some("url /x"));
        assert_eq!(refresh_url("soon; url=/x"), None);
        assert_eq!(refresh_url("5x; url=/x"), None);
    }
}
