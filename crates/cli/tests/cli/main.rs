//! The `htmltok` binary as a user runs it: every subcommand's output and
//! exit status (`commands`), and pages at a browser's edges through the
//! page commands (`edges`), and over archives GNU wget wrote (`wget`).

mod commands;
mod edges;
mod warcprox;
mod wget;
