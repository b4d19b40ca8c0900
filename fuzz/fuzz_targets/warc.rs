//! Archives: any bytes, read as an archive (of the format their content
//! says, or of one the first byte picks), never panic or hang, and reading
//! them in segments, as the command line's threads do, or as a stream, as
//! standard input is read, gives exactly the events of reading them in
//! order. The record layer under them gives the same records, errors and
//! block bytes whether a record's block is read through `Read` in small
//! pieces, taken whole, or left.
#![no_main]

use std::io::Read;

use htmltok_warc::segment::read_segmented;
use htmltok_warc::{
    detect, BlockEnd, Compression, Error, ErrorKind, Event, Format, Header, Kind, Options, Pages,
    Records, Source,
};
use libfuzzer_sys::fuzz_target;

/// How a record's block is read.
#[derive(Clone, Copy, Debug)]
enum Blocks {
    Left,
    Taken,
    InPieces,
}

/// Every item of the record layer over `source`, each record's block read
/// `how` (`None`: left, or lost in a broken unit).
fn records(
    source: &Source,
    format: Format,
    how: Blocks,
) -> Vec<Result<(Header, Option<Vec<u8>>, BlockEnd), Error>> {
    let mut records = Records::from_offset(source.clone(), format, 0, 0, Options::default())
        .expect("a memory source reads");
    let mut items = Vec::new();
    while let Some(item) = records.next_record() {
        items.push(item.map(|mut record| {
            let block = match how {
                Blocks::Left => None,
                Blocks::Taken => record.read_block(usize::MAX).map(|b| b.to_vec()),
                Blocks::InPieces => {
                    let mut block = Vec::new();
                    let mut piece = [0; 7];
                    loop {
                        match record.block().read(&mut piece) {
                            Ok(0) => break Some(block),
                            Ok(n) => block.extend_from_slice(&piece[..n]),
                            Err(_) => break None,
                        }
                    }
                }
            };
            let end = record.end();
            (record.header().clone(), block, end)
        }));
    }
    items
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, archive)) = data.split_first() else {
        return;
    };
    let source = Source::from(archive.to_vec());
    let format = detect(&source).ok().flatten().unwrap_or(Format {
        kind: if pick & 1 == 0 { Kind::Warc } else { Kind::Arc },
        compression: match (pick >> 1) & 3 {
            0 => Compression::None,
            1 => Compression::Gzip,
            2 => Compression::Lz4,
            _ => Compression::Zstd,
        },
    });
    let Ok(reader) = Pages::from_offset(source.clone(), format, 0, 0, Options::default()) else {
        return;
    };
    let in_order: Vec<Event> = reader.collect();
    let mut last = 0;
    // Every page that is not whole is said, by a problem right after it
    // that names its record.
    for pair in in_order.windows(2) {
        if let [Event::Page(page), next] = pair {
            if page.truncated.is_some() {
                assert!(
                    matches!(next, Event::Problem(p) if p.kind() == ErrorKind::Truncated
                        && p.record() == Some(page.record.number())),
                    "a cut page said: {pair:?}"
                );
            }
        }
    }
    if let Some(Event::Page(page)) = in_order.last() {
        assert!(
            page.truncated.is_none(),
            "the last page cut, not said: {page:?}"
        );
    }
    for event in &in_order {
        let record = match event {
            Event::Page(page) => Some(&page.record),
            Event::Skipped(skipped) => Some(&skipped.record),
            Event::Problem(_) => None,
        };
        if let Some(record) = record {
            assert!(record.number() > last, "record numbers go up: {event:?}");
            assert!(
                record.offset() <= archive.len() as u64,
                "offset inside: {event:?}"
            );
            last = record.number();
        }
    }
    // Segments of a few dozen bytes, so that small inputs make many.
    let every = u64::from(pick >> 3) * 8 + 1;
    let mut segmented = Vec::new();
    read_segmented(&source, format, &Options::default(), every, &mut |event| {
        segmented.push(event);
        true
    })
    .expect("a memory source reads");
    assert_eq!(segmented, in_order, "segments every {every} bytes");
    let stream = Source::from_reader(std::io::Cursor::new(archive.to_vec()));
    let streamed: Vec<Event> = Pages::from_offset(stream, format, 0, 0, Options::default())
        .expect("a stream opens")
        .collect();
    assert_eq!(streamed, in_order, "read as a stream");

    let taken = records(&source, format, Blocks::Taken);
    let in_pieces = records(&source, format, Blocks::InPieces);
    assert_eq!(taken, in_pieces, "blocks taken whole or read in pieces");
    let without_blocks = |items: &[Result<(Header, Option<Vec<u8>>, BlockEnd), Error>]| {
        items
            .iter()
            .map(|item| item.clone().map(|(header, _, end)| (header, end)))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        without_blocks(&records(&source, format, Blocks::Left)),
        without_blocks(&taken),
        "blocks left or read"
    );
});
