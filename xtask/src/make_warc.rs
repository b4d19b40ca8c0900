//! Builds a WARC archive from a directory of pages, one gzip member per
//! record as Common Crawl writes them, to measure `htmltok text` on WARC
//! input reproducibly:
//!
//! ```text
//! cargo run --release -p xtask -- make-warc DIR /tmp/corpus.warc.gz
//! ```
//!
//! Every `*.html` / `*.htm` file under the directory (in path order) becomes
//! a `response` record with `Content-Type: text/html` and the target URI
//! `http://corpus.example/<path>`. A name ending in `.gz` gzips each record;
//! any other name writes a plain `.warc`.

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use testkit::warc;

/// `cargo xtask make-warc DIR OUT.warc[.gz]`.
pub fn main(args: &[OsString]) -> ExitCode {
    let [dir, out] = args else {
        eprintln!("usage: cargo xtask make-warc DIR OUT.warc[.gz]");
        return ExitCode::from(2);
    };
    let (dir, out) = (Path::new(dir), Path::new(out));
    let paths = testkit::files::html_pages_required(dir);
    let gzip = out.extension().is_some_and(|e| e == "gz");
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).expect("create output"));
    for (n, path) in paths.iter().enumerate() {
        let body = std::fs::read(path).expect("read page");
        let name = path.strip_prefix(dir).unwrap_or(path).to_string_lossy();
        let uri = format!("http://corpus.example/{name}");
        let http = warc::Http::response(200, "OK")
            .header("Content-Type", "text/html")
            .body(&body);
        let record = warc::Record::response(&uri, &http).to_bytes_numbered(n);
        let bytes = if gzip {
            warc::gzip_member(&record)
        } else {
            record
        };
        file.write_all(&bytes).expect("write");
    }
    file.flush().expect("write");
    eprintln!(
        "{} pages from {} into {}",
        paths.len(),
        dir.display(),
        out.display()
    );
    ExitCode::SUCCESS
}
