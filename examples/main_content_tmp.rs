use std::io::Write;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let comments = args.iter().any(|a| a == "--comments");
    let all = args.iter().any(|a| a == "--all-text");
    let mut out = std::io::stdout().lock();
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let page = htmltok::extract::Page::decode(&bytes, None);
        if args.iter().any(|a| a == "--noop") {
            let mut n = 0usize;
            let mut tok = htmltok::Tokenizer::new(&*page.html);
            tok.for_each_token(|t| {
                if let htmltok::Token::StartTag(tag) = t {
                    for a in tag.attributes() {
                        n += a.name().len() + a.value().len();
                    }
                }
                htmltok::Flow::Continue
            });
            writeln!(out, "{n}").unwrap();
            continue;
        }
        let t = if all {
            page.text()
        } else {
            page.main_content(
                htmltok::extract::MainOptions::new()
                    .comments(comments)
                    .markdown(args.iter().any(|a| a == "--md"))
                    .links(args.iter().any(|a| a == "--links")),
            )
        };
        writeln!(out, "{}\u{1}{}\u{2}", path, t.text).unwrap();
    }
}
