#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod arc;
#[cfg(test)]
mod archive_tests;
mod bytes;
mod error;
mod format;
mod frames;
mod gzip;
mod header;
pub mod http;
mod pages;
mod records;
pub mod segment;
mod source;
mod stream;
mod units;

pub use bytes::{Bytes, Pool};
pub use error::{Error, ErrorKind};
pub use format::{detect, detect_bytes, Format, Kind};
pub use gzip::{decompress as gunzip, is_gzip, GunzipError};
pub use header::{Fields, Header, RecordType, Version};
pub use pages::{Event, Page, Pages, Skip, Skipped, Truncated};
pub use records::{Block, BlockEnd, Options, Record, Records};
pub use source::{Source, LOOK_BACK};
pub use units::Compression;
