//! Inflates a gzip file as a stream and throws the output away, with the
//! flate2 build `htmltok` uses (zlib-rs): the time of decompressing a
//! `.warc.gz` alone, to hold `htmltok text` over it against.
//!
//! ```text
//! cargo build --release -p xtask -p htmltok-cli
//! target/release/xtask make-warc DIR /tmp/corpus.warc.gz
//! hyperfine -N 'target/release/xtask inflate /tmp/corpus.warc.gz' \
//!     'target/release/htmltok text /tmp/corpus.warc.gz'
//! ```

use std::ffi::OsString;
use std::io::Read;
use std::process::ExitCode;

/// `cargo xtask inflate FILE.gz`.
pub fn main(args: &[OsString]) -> ExitCode {
    let [path] = args else {
        eprintln!("usage: cargo xtask inflate FILE.gz");
        return ExitCode::from(2);
    };
    let file = std::fs::File::open(path).expect("open the file");
    let mut gz =
        flate2::read::MultiGzDecoder::new(std::io::BufReader::with_capacity(1 << 20, file));
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = gz.read(&mut buf).expect("inflate");
        if n == 0 {
            break;
        }
        total += n as u64;
    }
    println!("{total} bytes");
    ExitCode::SUCCESS
}
