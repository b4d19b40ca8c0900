//! The `htmltok` binary as a user runs it: every subcommand's output and
//! exit status (`commands`), and pages at a browser's edges through the
//! page commands (`edges`), `text --main` over the repository's pages
//! made for it (`main_content`), and over archives GNU wget wrote
//! (`wget`) or warcprox and warcio did (`warcprox`), whose helpers are
//! here.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

mod commands;
mod edges;
mod main_content;
mod warcprox;
mod wget;

/// The path of a fixture under crates/warc/tests/data.
fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../warc/tests/data")
        .join(name);
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// Runs `htmltok ARGS` with `stdin` as standard input.
fn run_output(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_htmltok"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start htmltok");
    // Written beside the reading of the output: the command streams an
    // archive on its standard input, writing pages while it still reads.
    // A failing command may exit before reading its input; ignore EPIPE.
    let mut input = child.stdin.take().unwrap();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let _ = input.write_all(stdin);
        });
        child.wait_with_output().expect("wait for htmltok")
    })
}

/// Runs `htmltok ARGS` with `stdin`; returns (exit code, stdout, stderr).
fn run_text(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let out = run_output(args, stdin);
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Runs `htmltok ARGS` with nothing on standard input: exit code, stdout,
/// stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    run_text(args, b"")
}

/// The `total` object of `stats --total`'s last line.
fn total_of(stdout: &str) -> Value {
    let last = stdout.lines().last().expect("a line");
    let line: Value = serde_json::from_str(last).expect("JSON");
    line["total"].clone()
}
