//! `cargo xtask doc-commands [--list] [--in CLONE]`: every shell command of
//! the repository's Markdown files runs, or is checked, or says why not.
//!
//! A fenced block is a shell block when its language is `sh`, `bash`,
//! `shell` or `console`, or when it is `text` (or has none) and its first
//! line starts with `$ ` (a transcript: commands, each followed by its
//! output). What happens to a block is said by an HTML comment right above
//! it (blank lines between allowed), unseen on a rendered page:
//!
//! - none: the block runs, in a clean clone of the repository, from its
//!   root, and must succeed. A `sh` block runs as one bash script (`-e`,
//!   `-o pipefail`). A transcript's commands run one by one (as typed at a
//!   prompt: `-o pipefail`, no `-e`), and each
//!   one's output (standard output and error together) must be the output
//!   the block shows, where a line `...` stands for any lines and `...`
//!   inside a line for any text; `$ cat FILE` with no FILE yet writes the
//!   lines shown into FILE (so the transcript's own input files exist).
//! - `<!-- doc-commands: setup ... -->`: its lines run as a bash script
//!   before the block (files the block reads, which the reader has).
//! - `<!-- doc-commands: ci -->`: every command of the block must be a line
//!   (or part of a line) of `.ci/run` that is no comment and no `echo`, so
//!   that CI runs it; checked here, not run twice.
//! - `<!-- doc-commands: not run: REASON -->`: not run; the reason is
//!   required and listed.
//!
//! The runs share one environment: the clone's root as working directory,
//! `htmltok` installed from the clone (`cargo install --path crates/cli
//! --locked`, into a directory of the run that comes first in `PATH`),
//! `HTMLTOK_CORPUS` unset, cargo quiet (`CARGO_TERM_QUIET`), standard
//! input empty; untracked files are removed (`git clean`) before each
//! file's blocks. The build directory is `CARGO_TARGET_DIR` if set, else the
//! repository's `target/`. A block has 10 minutes. At the end no tracked
//! file of the clone may have changed (the generators the docs run must
//! rewrite what is committed, byte for byte).
//!
//! `--in CLONE` runs in CLONE, a clean git checkout made for the purpose
//! (CI passes the fresh clone it tested), instead of a new clone in a
//! temporary directory; `--list` only lists the blocks and what happens to
//! each, checking the markers and the `ci` blocks.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The time a block may take.
const BLOCK_LIMIT: Duration = Duration::from_secs(600);

pub fn main(args: &[std::ffi::OsString]) -> ExitCode {
    let mut list = false;
    let mut clone_dir = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--list") => list = true,
            Some("--in") => match args.next() {
                Some(dir) => clone_dir = Some(PathBuf::from(dir)),
                None => return usage(),
            },
            _ => return usage(),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match run(&root, clone_dir, list) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask doc-commands: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: cargo xtask doc-commands [--list] [--in CLONE]");
    ExitCode::from(2)
}

/// What happens to a block.
#[derive(Debug, Clone, PartialEq)]
enum Fate {
    Run,
    Ci,
    NotRun(String),
}

/// A shell block of a Markdown file.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    file: String,
    /// The line of the opening fence, 1-based.
    line: usize,
    /// A transcript (`$ ` commands and their output), else a script.
    transcript: bool,
    body: String,
    setup: Option<String>,
    fate: Fate,
}

impl Block {
    fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// The shell blocks of one Markdown file, or the first marker that is
/// wrong.
fn blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    // Markers seen since the last block or paragraph: (kind, text).
    let mut pending: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("<!-- doc-commands:") {
            // The comment may span lines, up to `-->`.
            let mut comment = rest.to_owned();
            let start = i;
            while !comment.contains("-->") {
                i += 1;
                let Some(next) = lines.get(i) else {
                    return Err(format!(
                        "{file}:{}: a doc-commands comment never ends",
                        start + 1
                    ));
                };
                comment.push('\n');
                comment.push_str(next);
            }
            let inside = comment[..comment.find("-->").unwrap_or(comment.len())].to_owned();
            pending.push((start + 1, inside));
            i += 1;
            continue;
        }
        let fence_len = trimmed.len() - trimmed.trim_start_matches('`').len();
        if fence_len >= 3 {
            let indent = line.len() - trimmed.len();
            let info = trimmed[fence_len..].trim().to_owned();
            let fence = &trimmed[..fence_len];
            let mut body = Vec::new();
            let open = i;
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with(fence) {
                let l = lines[i];
                // Indented fences (inside a list item) hold indented lines.
                let cut = l.len() - l.trim_start().len();
                body.push(&l[cut.min(indent)..]);
                i += 1;
            }
            i += 1;
            let lang = info.split_whitespace().next().unwrap_or("");
            let first = body
                .iter()
                .find(|l| !l.trim().is_empty())
                .copied()
                .unwrap_or("");
            let transcript = matches!(lang, "" | "text" | "console") && first.starts_with("$ ");
            let script = matches!(lang, "sh" | "bash" | "shell");
            let markers = std::mem::take(&mut pending);
            if !(transcript || script) {
                if let Some((at, _)) = markers.first() {
                    return Err(format!(
                        "{file}:{at}: a doc-commands comment above a block that is no shell block"
                    ));
                }
                continue;
            }
            let mut block = Block {
                file: file.to_owned(),
                line: open + 1,
                transcript,
                body: body.join("\n") + "\n",
                setup: None,
                fate: Fate::Run,
            };
            for (at, marker) in markers {
                let marker = marker.trim();
                if let Some(script) = marker.strip_prefix("setup") {
                    block.setup = Some(script.trim().to_owned() + "\n");
                } else if marker == "ci" {
                    block.fate = Fate::Ci;
                } else if let Some(reason) = marker.strip_prefix("not run:") {
                    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
                    if reason.is_empty() {
                        return Err(format!("{file}:{at}: `not run` needs its reason"));
                    }
                    block.fate = Fate::NotRun(reason);
                } else {
                    return Err(format!(
                        "{file}:{at}: unknown doc-commands marker {marker:?} (setup, ci, not run: REASON)"
                    ));
                }
            }
            out.push(block);
            continue;
        }
        // A marker belongs to the block right below it: text between ends it.
        if !trimmed.is_empty() {
            if let Some((at, _)) = pending.first() {
                return Err(format!(
                    "{file}:{at}: a doc-commands comment with no block right below it"
                ));
            }
        }
        i += 1;
    }
    if let Some((at, _)) = pending.first() {
        return Err(format!(
            "{file}:{at}: a doc-commands comment with no block below it"
        ));
    }
    Ok(out)
}

/// One command of a transcript and the output it shows.
#[derive(Debug, PartialEq)]
struct Step {
    command: String,
    expected: Vec<String>,
}

fn steps(body: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut continued = false;
    for line in body.lines() {
        if continued {
            let step = steps.last_mut().expect("a continued command");
            step.command.push('\n');
            step.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step {
                command: command.to_owned(),
                expected: Vec::new(),
            });
            continued = command.ends_with('\\');
        } else if let Some(step) = steps.last_mut() {
            step.expected.push(line.to_owned());
        }
    }
    for step in &mut steps {
        while step.expected.last().is_some_and(|l| l.is_empty()) {
            step.expected.pop();
        }
    }
    steps
}

/// The commands of a script block: its lines less comments and blank
/// lines, continuation lines joined.
fn commands(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in body.lines() {
        let line = line.trim();
        if current.is_empty() && (line.is_empty() || line.starts_with('#')) {
            continue;
        }
        // A comment after a command (`cmd   # what it does`).
        let line = match line.find(" #") {
            Some(at) => line[..at].trim_end(),
            None => line,
        };
        if let Some(part) = line.strip_suffix('\\') {
            current.push_str(part.trim_end());
            current.push(' ');
        } else {
            current.push_str(line);
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Whether `actual` is what `expected` shows: `...` alone on a line stands
/// for any lines, inside a line for any text.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            actual.first().is_some_and(|line| line_matches(first, line))
                && matches(rest, &actual[1..])
        }
    }
}

fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("...").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    if !actual.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// What a run found wrong.
struct Outcome {
    failures: Vec<String>,
}

fn run(root: &Path, clone_dir: Option<PathBuf>, list: bool) -> Result<bool, String> {
    let scratch = std::env::temp_dir().join(format!("htmltok-doc-commands-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let result = run_in(root, &scratch, clone_dir, list);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn run_in(
    root: &Path,
    scratch: &Path,
    clone_dir: Option<PathBuf>,
    list: bool,
) -> Result<bool, String> {
    let clone = match clone_dir {
        Some(dir) => {
            let status = git(&dir, &["status", "--porcelain"])?;
            if !status.is_empty() {
                return Err(format!(
                    "{} is not a clean checkout (its commands write into it):\n{status}",
                    dir.display()
                ));
            }
            dir
        }
        None if list => root.to_path_buf(),
        None => {
            let dir = scratch.join("htmltok");
            let status = Command::new("git")
                .args(["clone", "-q"])
                .arg(root)
                .arg(&dir)
                .status()
                .map_err(|e| format!("git: {e}"))?;
            if !status.success() {
                return Err("git clone failed".into());
            }
            dir
        }
    };

    let mut all = Vec::new();
    for file in git(&clone, &["ls-files", "*.md"])?.lines() {
        let text = std::fs::read_to_string(clone.join(file)).map_err(|e| format!("{file}: {e}"))?;
        all.extend(blocks(file, &text)?);
    }
    let ci = std::fs::read_to_string(clone.join(".ci/run")).map_err(|e| format!(".ci/run: {e}"))?;
    let mut outcome = Outcome {
        failures: Vec::new(),
    };
    for block in all.iter().filter(|b| b.fate == Fate::Ci) {
        for command in block_commands(block) {
            if !runs(&ci, &command) {
                outcome.failures.push(format!(
                    "{}: marked as run by .ci/run, which has no line with `{command}`",
                    block.place()
                ));
            }
        }
    }
    if list {
        for block in &all {
            let fate = match &block.fate {
                Fate::Run => "run".to_owned(),
                Fate::Ci => "run by .ci/run".to_owned(),
                Fate::NotRun(reason) => format!("not run: {reason}"),
            };
            println!("{}: {fate}", block.place());
        }
        return report(&outcome, &all);
    }

    // htmltok on PATH, from the clone, as its README installs it.
    let bin = scratch.join("bin");
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .map_err(|e| e.to_string())?;
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    // A script stops at its first failing command; a transcript's command
    // is one line typed at a prompt (`cmd; echo "exit $?"` shows a status).
    let shell_with = |flags: &[&str], script: &str| {
        let mut cmd = Command::new("bash");
        cmd.args(flags)
            .args(["-o", "pipefail", "-c", script])
            .current_dir(&clone)
            .env("PATH", &path)
            .env("CARGO_INSTALL_ROOT", scratch)
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_TERM_QUIET", "true")
            .env_remove("HTMLTOK_CORPUS")
            .stdin(Stdio::null());
        cmd
    };
    let shell = |script: &str| shell_with(&["-e"], script);
    let install = "cargo install --path crates/cli --locked";
    println!("-- {install} (htmltok for the commands below)");
    let (ok, output) = execute(shell(install), &scratch.join("install.log"))?;
    if !ok {
        return Err(format!("{install} failed:\n{output}"));
    }

    let mut last_file = "";
    for block in all.iter().filter(|b| b.fate == Fate::Run) {
        // Each file's blocks start from the clone as committed: the files
        // one file's transcripts made are not another's.
        if block.file != last_file {
            git(&clone, &["clean", "-fdq"])?;
            last_file = &block.file;
        }
        let started = Instant::now();
        if let Some(setup) = &block.setup {
            let (ok, output) = execute(shell(setup), &scratch.join("out.log"))?;
            if !ok {
                outcome.failures.push(format!(
                    "{}: its setup failed:\n{}",
                    block.place(),
                    tail(&output)
                ));
                continue;
            }
        }
        let mut failed = None;
        if block.transcript {
            for step in steps(&block.body) {
                if let Some(file) = fixture(&step, &clone) {
                    let mut text = step.expected.join("\n");
                    text.push('\n');
                    std::fs::write(clone.join(&file), text).map_err(|e| format!("{file}: {e}"))?;
                    continue;
                }
                let (ok, output) =
                    execute(shell_with(&[], &step.command), &scratch.join("out.log"))?;
                let actual: Vec<String> = output.lines().map(str::to_owned).collect();
                if !ok {
                    failed = Some(format!("`{}` failed:\n{}", step.command, tail(&output)));
                    break;
                }
                if !matches(&step.expected, &actual) {
                    failed = Some(format!(
                        "`{}` printed\n{}\nwhere the block shows\n{}",
                        step.command,
                        output.trim_end(),
                        step.expected.join("\n")
                    ));
                    break;
                }
            }
        } else {
            let (ok, output) = execute(shell(&block.body), &scratch.join("out.log"))?;
            if !ok {
                failed = Some(format!("failed:\n{}", tail(&output)));
            }
        }
        let secs = started.elapsed().as_secs_f64();
        match failed {
            None => println!("-- {}: ran ({secs:.1} s)", block.place()),
            Some(why) => {
                println!("-- {}: FAILED ({secs:.1} s)", block.place());
                outcome.failures.push(format!("{}: {why}", block.place()));
            }
        }
    }
    let changed = git(&clone, &["status", "--porcelain", "--untracked-files=no"])?;
    if !changed.is_empty() {
        outcome.failures.push(format!(
            "the commands changed tracked files of the clone:\n{changed}"
        ));
    }
    report(&outcome, &all)
}

/// Whether `.ci/run` (its text `ci`) runs `command`: a line that is no
/// comment and no `echo` holds it.
fn runs(ci: &str, command: &str) -> bool {
    ci.lines().any(|l| {
        let l = l.trim_start();
        !l.starts_with('#') && !l.starts_with("echo ") && l.contains(command)
    })
}

/// `cat FILE` whose FILE the clone does not have: the transcript shows
/// the file.
fn fixture(step: &Step, clone: &Path) -> Option<String> {
    let file = step.command.strip_prefix("cat ")?.trim();
    let plain = !file.is_empty() && !file.contains(char::is_whitespace) && !file.starts_with('-');
    (plain && !clone.join(file).exists()).then(|| file.to_owned())
}

/// The commands a `ci` block holds (a transcript's `$` lines).
fn block_commands(block: &Block) -> Vec<String> {
    if block.transcript {
        steps(&block.body).into_iter().map(|s| s.command).collect()
    } else {
        commands(&block.body)
    }
}

fn report(outcome: &Outcome, all: &[Block]) -> Result<bool, String> {
    let count = |f: fn(&Fate) -> bool| all.iter().filter(|b| f(&b.fate)).count();
    println!(
        "{} shell blocks: {} run here, {} run by .ci/run, {} not run:",
        all.len(),
        count(|f| *f == Fate::Run),
        count(|f| *f == Fate::Ci),
        count(|f| matches!(f, Fate::NotRun(_)))
    );
    for block in all {
        if let Fate::NotRun(reason) = &block.fate {
            println!("   {}: {reason}", block.place());
        }
    }
    for failure in &outcome.failures {
        eprintln!("FAILED {failure}");
    }
    Ok(outcome.failures.is_empty())
}

/// Runs `cmd` with its standard output and error in `log` (both in the
/// order written), within the block's time; its success and output.
fn execute(mut cmd: Command, log: &Path) -> Result<(bool, String), String> {
    let out = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut child = cmd
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("bash: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() > BLOCK_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = String::from_utf8_lossy(&std::fs::read(log).unwrap_or_default()).into_owned();
    match status {
        Some(status) => Ok((status.success(), output)),
        None => Ok((
            false,
            format!("{output}\n(stopped after {} s)", BLOCK_LIMIT.as_secs()),
        )),
    }
}

fn tail(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {} in {}: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn blocks_and_their_markers() {
        let md = "\
# Title

```sh
cargo test
```

<!-- doc-commands: not run: needs a cluster -->
```sh
spark-submit job.py
```

<!-- doc-commands: setup
printf x > page.html
-->

```text
$ cat page.html
x
```

```rust
let x = 1;
```

```text
not a transcript
```

<!-- doc-commands: ci -->
```bash
cargo run --release --bin htmltok -- bench
```
";
        let b = blocks("README.md", md).unwrap();
        assert_eq!(b.len(), 4);
        assert_eq!(
            (b[0].line, &b[0].fate, b[0].transcript),
            (3, &Fate::Run, false)
        );
        assert_eq!(b[1].fate, Fate::NotRun("needs a cluster".into()));
        assert_eq!(b[2].setup.as_deref(), Some("printf x > page.html\n"));
        assert!(b[2].transcript);
        assert_eq!(b[3].fate, Fate::Ci);
    }

    #[test]
    fn a_marker_must_sit_right_above_a_shell_block() {
        let stray = "<!-- doc-commands: ci -->\nSome text.\n\n```sh\nls\n```\n";
        assert!(blocks("a.md", stray).is_err());
        let on_rust = "<!-- doc-commands: ci -->\n```rust\nfn main() {}\n```\n";
        assert!(blocks("a.md", on_rust).is_err());
        let no_reason = "<!-- doc-commands: not run: -->\n```sh\nls\n```\n";
        assert!(blocks("a.md", no_reason).is_err());
        let unknown = "<!-- doc-commands: maybe -->\n```sh\nls\n```\n";
        assert!(blocks("a.md", unknown).is_err());
        let unended = "<!-- doc-commands: setup\nls\n";
        assert!(blocks("a.md", unended).is_err());
    }

    #[test]
    fn indented_blocks_lose_their_indent() {
        let md = "- Step:\n\n  ```sh\n  cargo build \\\n      --release\n  ```\n";
        let b = blocks("a.md", md).unwrap();
        assert_eq!(b[0].body, "cargo build \\\n    --release\n");
        assert_eq!(commands(&b[0].body), ["cargo build --release"]);
    }

    #[test]
    fn a_transcript_is_commands_and_their_output() {
        let s = steps("$ cat a.html\n<p>x\n$ htmltok links \\\n  a.html\n{\"url\":null}\n\n");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].command, "cat a.html");
        assert_eq!(s[0].expected, ["<p>x"]);
        assert_eq!(s[1].command, "htmltok links \\\n  a.html");
        assert_eq!(s[1].expected, ["{\"url\":null}"]);
    }

    #[test]
    fn commands_of_a_script_less_comments() {
        let body = "# The tests.\ncargo test\n\ncargo run -- bench   # MB/s\n";
        assert_eq!(commands(body), ["cargo test", "cargo run -- bench"]);
    }

    #[test]
    fn output_is_matched_with_ellipses() {
        let expected = strings(&["rep 1: ... MB/s", "...", "median: ... MB/s (... bytes)"]);
        let actual = strings(&[
            "rep 1: 10.5 MB/s",
            "rep 2: 11.0 MB/s",
            "median: 10.7 MB/s (99 bytes)",
        ]);
        assert!(matches(&expected, &actual));
        assert!(matches(
            &expected,
            &actual[..1]
                .iter()
                .chain(&actual[2..])
                .cloned()
                .collect::<Vec<_>>()
        ));
        assert!(!matches(&expected, &actual[..2]));
        assert!(!matches(&strings(&["a"]), &strings(&["a", "b"])));
        assert!(!matches(&strings(&["x..."]), &strings(&["yx"])));
        assert!(matches(&strings(&["a\tb"]), &strings(&["a\tb"])));
        assert!(!matches(&strings(&["a b"]), &strings(&["a\tb"])));
        // A part must not be found twice over the same text.
        assert!(!line_matches("ab...ba", "aba"));
    }

    #[test]
    fn a_command_in_a_comment_or_an_echo_is_not_run() {
        let ci = "# cargo test\necho \"-- cargo test\"\n";
        assert!(!runs(ci, "cargo test"));
        assert!(runs(
            &format!("{ci}    cargo test --workspace\n"),
            "cargo test"
        ));
    }

    /// Every Markdown file of the repository has well-formed markers, and
    /// every block marked as run by CI is in `.ci/run`.
    #[test]
    fn the_repository_s_blocks_are_marked_and_ci_runs_its_own() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
        let files = git(&root, &["ls-files", "*.md"]).unwrap();
        let mut shell = 0;
        for file in files.lines() {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            for block in blocks(file, &text).unwrap() {
                shell += 1;
                if block.fate == Fate::Ci {
                    for command in block_commands(&block) {
                        assert!(
                            runs(&ci, &command),
                            "{}: .ci/run has no `{command}`",
                            block.place()
                        );
                    }
                }
            }
        }
        assert!(shell > 0, "no shell block found: the parser is wrong");
    }
}
