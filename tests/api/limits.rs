//! The optional resource limits: truncated tokens and errors instead of
//! unbounded memory.

use htmltok::{Config, ErrorCode, StreamTokenizer, Token, Tokenizer};

fn codes(errors: &[htmltok::ParseError]) -> Vec<ErrorCode> {
    errors.iter().map(|e| e.code).collect()
}

#[test]
fn limits_are_off_by_default() {
    let value = "v".repeat(100_000);
    let attrs: String = (0..5000).map(|i| format!(" a{i}=1")).collect();
    let page = format!("<p title='{value}'{attrs}><!--{value}-->");
    let mut tok = Tokenizer::with_config(&page, Config::new().report_errors());
    let Some(Token::StartTag(tag)) = tok.next_token() else {
        panic!("start tag")
    };
    assert_eq!(tag.attribute("title").map(str::len), Some(100_000));
    assert_eq!(tag.attributes().count(), 5001);
    let Some(Token::Comment(c)) = tok.next_token() else {
        panic!("comment")
    };
    assert_eq!(c.as_str().len(), 100_000);
    while tok.next_token().is_some() {}
    assert!(tok.errors().is_empty());
}

#[test]
fn max_attributes_drops_the_rest_with_one_error() {
    let attrs: String = (0..100).map(|i| format!(" a{i}")).collect();
    let page = format!("<p{attrs}><br x y>");
    let mut tok = Tokenizer::with_config(&page, Config::new().max_attributes(10).report_errors());
    let Some(Token::StartTag(tag)) = tok.next_token() else {
        panic!("start tag")
    };
    let names: Vec<_> = tag.attributes().map(|a| a.name().to_owned()).collect();
    assert_eq!(names, (0..10).map(|i| format!("a{i}")).collect::<Vec<_>>());
    let Some(Token::StartTag(br)) = tok.next_token() else {
        panic!("br")
    };
    assert_eq!(br.attributes().count(), 2);
    while tok.next_token().is_some() {}
    assert_eq!(codes(tok.errors()), [ErrorCode::TooManyAttributes]);
    // Reported at the tag's `>`.
    assert_eq!(tok.errors()[0].span.start, page.find("><br").unwrap());
}

#[test]
fn max_token_len_cuts_at_a_character_boundary() {
    // "é" is two bytes: a cut at 5 bytes must not split the third one.
    let page = "<!--ééééé--><p title=\"ééé\">";
    let config = Config::new().max_token_len(5);
    let mut tok = Tokenizer::with_config(page, config.report_errors());
    assert!(matches!(tok.next_token(), Some(Token::Comment(c)) if c.as_str() == "éé"));
    let Some(Token::StartTag(tag)) = tok.next_token() else {
        panic!("start tag")
    };
    assert_eq!(tag.attribute("title"), Some("éé"));
    while tok.next_token().is_some() {}
    assert_eq!(
        codes(tok.errors()),
        [ErrorCode::TokenTooLong, ErrorCode::TokenTooLong]
    );
}

#[test]
fn max_token_len_bounds_a_stream_holding_a_huge_comment_and_value() {
    const MIB: usize = 1 << 20;
    let mut stream =
        StreamTokenizer::with_config(Config::new().max_token_len(64 * 1024).report_errors());
    let chunk = vec![b'x'; 64 * 1024];
    let mut peak = 0;
    let mut comments = Vec::new();
    let mut values = Vec::new();
    let mut feed = |stream: &mut StreamTokenizer<_>, bytes: &[u8], peak: &mut usize| {
        stream.feed(bytes);
        while let Some(token) = stream.next_token() {
            match token {
                Token::Comment(c) => comments.push(c.as_str().len()),
                Token::StartTag(t) => values.push(t.attribute("v").map_or(0, str::len)),
                _ => {}
            }
        }
        *peak = (*peak).max(stream.buffered_capacity());
    };
    feed(&mut stream, b"<!--", &mut peak);
    for _ in 0..(16 * MIB / chunk.len()) {
        feed(&mut stream, &chunk, &mut peak);
    }
    feed(&mut stream, b"--><p v='", &mut peak);
    for _ in 0..(16 * MIB / chunk.len()) {
        feed(&mut stream, &chunk, &mut peak);
    }
    feed(&mut stream, b"'>", &mut peak);
    stream.finish();
    while stream.next_token().is_some() {}
    assert_eq!(comments, [64 * 1024]);
    assert_eq!(values, [64 * 1024]);
    assert_eq!(
        codes(stream.errors()),
        [ErrorCode::TokenTooLong, ErrorCode::TokenTooLong]
    );
    println!("peak buffered: {peak} bytes");
    // Two chunks of window, the cut strings, and slack for growth.
    assert!(
        peak < MIB,
        "peak buffered {peak} bytes for 32 MiB of oversized tokens"
    );
}
