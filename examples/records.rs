//! A page's tokens saved to a file as records, with their strings, and
//! read back: what a crawler does to tokenize once and read many times
//! (here, or in Python: `htmltok.TokenTable.from_bytes`, numpy).
//!
//! ```text
//! cargo run --features records --example records -- page.html page.records
//! ```
//!
//! decodes `page.html` as a browser does, writes its records to
//! `page.records` (`htmltok::records::Records::write_to`), reads that
//! file back (`SavedRecords::read`, from the bytes wherever they lie: no
//! alignment, no cast) and prints each start tag with its attributes,
//! `NAME<TAB>ATTR=VALUE<TAB>...`, from the file alone. In your crate,
//! enable the `records` feature; nothing else is needed.

use std::io::{self, BufWriter, Write};

use htmltok::records::{Records, SavedRecords, TokenRecord};
use htmltok::{Input, Tokenizer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(page), Some(saved)) = (args.next(), args.next()) else {
        return Err("usage: records PAGE OUTPUT".into());
    };

    // Tokenize once, save the records with the page's text.
    let bytes = std::fs::read(&page)?;
    let mut tok = Tokenizer::new(Input::decode(&bytes));
    let mut records = Records::new();
    records.record(&mut tok)?;
    let mut file = BufWriter::new(std::fs::File::create(&saved)?);
    records.write_to(tok.input(), &mut file)?;
    file.into_inner().map_err(|e| e.into_error())?.sync_all()?;

    // Later, elsewhere: the file's bytes are all it takes.
    let bytes = std::fs::read(&saved)?;
    let saved = SavedRecords::read(&bytes)?;
    let mut out = BufWriter::new(io::stdout().lock());
    for token in saved.tokens().filter(|t| t.kind == TokenRecord::START_TAG) {
        write!(out, "{}", saved.string(token.s0_off, token.s0_len))?;
        for attr in saved.attributes_of(&token) {
            let name = saved.string(attr.name_off, attr.name_len);
            let value = saved.string(attr.value_off, attr.value_len);
            write!(out, "\t{name}={}", value.escape_debug())?;
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(())
}
