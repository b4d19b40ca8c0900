//! ARC records' header lines (the Internet Archive's format before WARC),
//! read as the crawlers of the time wrote them.

use crate::header::{Fields, RecordType};

/// An ARC record's header line, read.
pub(crate) struct ArcHeader {
    /// Its fields, named as the ARC format names them.
    pub(crate) fields: Fields,
    /// 1 or 2.
    pub(crate) version: u8,
    pub(crate) length: u64,
}

/// The names of a version 1 header line's fields.
const V1: [&str; 5] = [
    "URL",
    "IP-address",
    "Archive-date",
    "Content-type",
    "Archive-length",
];

/// The names of a version 2 header line's fields.
const V2: [&str; 10] = [
    "URL",
    "IP-address",
    "Archive-date",
    "Content-type",
    "Result-code",
    "Checksum",
    "Location",
    "Offset",
    "Filename",
    "Archive-length",
];

/// Parses an ARC header line: `URL IP DATE TYPE LENGTH` (version 1), or
/// `URL IP DATE TYPE CODE CHECKSUM LOCATION OFFSET FILENAME LENGTH`
/// (version 2).
///
/// The URL comes as the crawler found it: it may hold spaces (the other
/// fields are then counted from the line's end) and bytes that are not
/// UTF-8 (read as U+FFFD, as a WARC header's are).
pub(crate) fn header(line: &[u8]) -> Option<ArcHeader> {
    let text = String::from_utf8_lossy(line);
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let n = fields.len();
    let digits = |f: &str| f.bytes().all(|b| b.is_ascii_digit());
    // The header if `after` fields follow the URL (4 in version 1, 9 in
    // version 2): its date is a number.
    let parse = |names: &[&str]| -> Option<ArcHeader> {
        let after = names.len() - 1;
        if n <= after {
            return None;
        }
        let length = fields[n - 1].parse().ok()?;
        if !digits(fields[n - after + 1]) {
            return None;
        }
        // The URL: the line from its first field to the end of the field
        // before the IP address, spaces and all.
        let offset = |f: &str| f.as_ptr() as usize - text.as_ptr() as usize;
        let last = fields[n - after - 1];
        let url = &text[offset(fields[0])..offset(last) + last.len()];
        let mut named = Fields::default();
        named.push(names[0].to_owned(), url.to_owned());
        for (name, value) in names[1..].iter().zip(&fields[n - after..]) {
            named.push((*name).to_owned(), (*value).to_owned());
        }
        Some(ArcHeader {
            fields: named,
            version: if after == 4 { 1 } else { 2 },
            length,
        })
    };
    // Ten fields are version 2 when its date is where it should be. A
    // longer line (a URL with spaces) is version 2 only when the fields
    // that must be numbers in it are: a date of twelve digits and more, a
    // result code, an offset; else version 1.
    let v2 = n == 10
        || n > 10
            && digits(fields[n - 3])
            && fields[n - 8].len() >= 12
            && digits(fields[n - 8])
            && (fields[n - 6] == "-" || fields[n - 6].len() == 3 && digits(fields[n - 6]));
    if v2 {
        if let Some(header) = parse(&V2) {
            return Some(header);
        }
    }
    parse(&V1)
}

/// What an ARC record of the URL `url` is: the version block
/// (`filedesc:`), a response (`http:`, `https:`), else a resource.
pub(crate) fn record_type(url: &str) -> RecordType {
    let url = url.to_ascii_lowercase();
    if url.starts_with("filedesc:") {
        RecordType::Warcinfo
    } else if url.starts_with("http:") || url.starts_with("https:") {
        RecordType::Response
    } else {
        RecordType::Resource
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_named_by_version() {
        let v1 = header(b"http://a.example/ 1.2.3.4 19961104142103 text/html 42").unwrap();
        assert_eq!((v1.version, v1.length), (1, 42));
        assert_eq!(
            v1.fields.iter().collect::<Vec<_>>(),
            [
                ("URL", "http://a.example/"),
                ("IP-address", "1.2.3.4"),
                ("Archive-date", "19961104142103"),
                ("Content-type", "text/html"),
                ("Archive-length", "42"),
            ]
        );
        let v2 =
            header(b"http://a b/ 1.2.3.4 19961104142103 text/html 200 abc - 7 x.arc 9").unwrap();
        assert_eq!((v2.version, v2.length), (2, 9));
        assert_eq!(v2.fields.get("url"), Some("http://a b/"));
        assert_eq!(v2.fields.get("Result-code"), Some("200"));
        assert_eq!(v2.fields.get("Filename"), Some("x.arc"));
        assert_eq!(v2.fields.len(), 10);
    }

    #[test]
    fn fields_that_are_no_header_from_either_end_are_none() {
        for line in [
            &b"http://a.example/ 127.0.0.1 1996110414210x text/html 5"[..],
            b"http://a.example/ 127.0.0.1 19961104142103 text/html",
            b"127.0.0.1 19961104142103 text/html 5",
        ] {
            assert!(
                header(line).is_none(),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
    }
}
