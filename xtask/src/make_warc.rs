//! Builds a WARC archive from a directory of pages, one gzip member per
//! record as Common Crawl writes them, to measure `htmltok text` on WARC
//! input reproducibly:
//!
//! ```text
//! cargo run --release -p xtask --bin make_warc -- ../shared/corpus /tmp/corpus.warc.gz
//! ```
//!
//! Every `*.html` / `*.htm` file under the directory (in path order) becomes
//! a `response` record with `Content-Type: text/html` and the target URI
//! `http://corpus.example/<path>`. A name ending in `.gz` gzips each record;
//! any other name writes a plain `.warc`.

use std::io::Write;
use std::path::Path;

use testkit::warc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, out] = args.as_slice() else {
        eprintln!("usage: make_warc DIR OUT.warc[.gz]");
        std::process::exit(2);
    };
    let dir = Path::new(dir);
    let paths = testkit::files::html_pages_required(dir);
    let gzip = out.ends_with(".gz");
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).expect("create output"));
    for (n, path) in paths.iter().enumerate() {
        let body = std::fs::read(path).expect("read page");
        let name = path.strip_prefix(dir).unwrap_or(path).to_string_lossy();
        let uri = format!("http://corpus.example/{name}");
        let record = warc::record_bytes(
            n,
            &warc::Record {
                kind: "response",
                uri: Some(&uri),
                http_content_type: Some("text/html"),
                body: &body,
            },
        );
        let bytes = if gzip {
            warc::gzip_member(&record)
        } else {
            record
        };
        file.write_all(&bytes).expect("write");
    }
    file.flush().expect("write");
    eprintln!("{} pages from {} into {out}", paths.len(), dir.display());
}
