//! Web archives as real crawlers write them.

pub mod http;
