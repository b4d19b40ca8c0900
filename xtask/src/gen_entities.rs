//! Generates `src/entities/table.rs`, the named character reference table.
//!
//! Reads the WHATWG `entities.json` (the file behind
//! <https://html.spec.whatwg.org/entities.json>) and writes the Rust
//! source file. Regenerate the table with:
//!
//! ```text
//! cargo xtask gen-entities      # writes src/entities/table.rs
//! cargo xtask gen-entities -    # prints it instead
//! ```
//!
//! It writes the file itself rather than through a shell redirect: the
//! redirect would empty the table before cargo builds xtask, which compiles
//! the library, which includes the table.
//!
//! The input path comes from the `HTMLTOK_ENTITIES_JSON` environment
//! variable; by default it is the copy the repository carries,
//! `spec/entities.json` (see `spec/SOURCE.md`). The test below fails when
//! the committed table differs from what [`generate`] makes of that copy.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Default input, relative to the repository root.
const DEFAULT_PATH: &str = "spec/entities.json";
/// Environment variable overriding the input path.
const ENV_VAR: &str = "HTMLTOK_ENTITIES_JSON";
/// Number of entries the standard defines (checked, to catch a wrong file).
const EXPECTED_ENTRIES: usize = 2231;

/// The generated file, relative to the repository root.
const TABLE_PATH: &str = "src/entities/table.rs";

/// `cargo xtask gen-entities [-]`: writes the table, or prints it (`-`).
pub fn main(args: &[OsString]) -> ExitCode {
    let to_stdout = match args {
        [] => false,
        [dash] if dash == "-" => true,
        _ => {
            eprintln!("usage: cargo xtask gen-entities [-]");
            return ExitCode::from(2);
        }
    };
    match run() {
        Ok(source) if to_stdout => {
            print!("{source}");
            ExitCode::SUCCESS
        }
        Ok(source) => {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(TABLE_PATH);
            match std::fs::write(&path, source) {
                Ok(()) => {
                    eprintln!("wrote {TABLE_PATH}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("gen-entities: cannot write {}: {e}", path.display());
                    ExitCode::FAILURE
                }
            }
        }
        Err(message) => {
            eprintln!("gen-entities: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads and checks the JSON, then renders the Rust table.
fn run() -> Result<String, String> {
    let (path, shown) = match std::env::var_os(ENV_VAR) {
        Some(p) => {
            let p = PathBuf::from(p);
            let shown = p.display().to_string();
            (p, shown)
        }
        None => (
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(DEFAULT_PATH),
            DEFAULT_PATH.to_string(),
        ),
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read entities file {} ({e}); set {ENV_VAR} to the path of \
             the WHATWG entities.json (https://html.spec.whatwg.org/entities.json)",
            path.display()
        )
    })?;
    generate(&text, &shown)
}

/// Checks the text of an `entities.json` and renders the Rust table;
/// `shown` is the path the table's header names as its source.
pub fn generate(text: &str, shown: &str) -> Result<String, String> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("{shown} is not valid JSON: {e}"))?;
    let object = json
        .as_object()
        .ok_or_else(|| format!("{shown}: top level is not a JSON object"))?;

    // BTreeMap<String, _> orders keys by their bytes, which is the order the
    // matcher's tests (and any binary search) rely on.
    let mut entries: BTreeMap<String, String> = BTreeMap::new();
    for (key, value) in object {
        let name = key
            .strip_prefix('&')
            .ok_or_else(|| format!("entity name {key:?} does not start with '&'"))?;
        let body = name.strip_suffix(';').unwrap_or(name);
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(format!("unexpected entity name {key:?}"));
        }
        let characters = value
            .get("characters")
            .and_then(|c| c.as_str())
            .ok_or_else(|| format!("{key:?}: missing string \"characters\""))?;
        let codepoints = value
            .get("codepoints")
            .and_then(|c| c.as_array())
            .ok_or_else(|| format!("{key:?}: missing array \"codepoints\""))?;
        let from_codepoints: Option<String> = codepoints
            .iter()
            .map(|c| {
                c.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .and_then(char::from_u32)
            })
            .collect();
        if from_codepoints.as_deref() != Some(characters) {
            return Err(format!(
                "{key:?}: \"characters\" does not match \"codepoints\""
            ));
        }
        entries.insert(name.to_string(), characters.to_string());
    }
    if entries.len() != EXPECTED_ENTRIES {
        return Err(format!(
            "expected {EXPECTED_ENTRIES} entities, found {} in {shown}",
            entries.len()
        ));
    }

    let mut out = String::new();
    out.push_str("// @generated by xtask/src/gen_entities.rs -- do not edit by hand.\n");
    let _ = writeln!(
        out,
        "// Source: WHATWG entities.json (https://html.spec.whatwg.org/entities.json), read from {shown}."
    );
    out.push_str("// Regenerate with: cargo xtask gen-entities\n");
    out.push('\n');
    out.push_str("/// Named character references: (name without the leading `&`, replacement),\n");
    out.push_str("/// sorted by the bytes of the name. Names with and without the final `;` are\n");
    let _ = writeln!(out, "/// separate entries. {} entries.", entries.len());
    out.push_str("pub(crate) static ENTITIES: &[(&str, &str)] = &[\n");
    for (name, characters) in &entries {
        let _ = writeln!(out, "    (\"{name}\", \"{}\"),", escape(characters));
    }
    out.push_str("];\n");
    Ok(out)
}

/// Renders `s` as the inside of a Rust string literal using only printable
/// ASCII: other characters become `\u{..}` escapes.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    out
}

/// The committed named-reference table (`src/entities/table.rs`) is what
/// this generator makes of the repository's `spec/entities.json`: a hand
/// edit of the table, or a new copy of the JSON without a regenerated
/// table, fails here.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_table_is_generated_from_the_carried_json() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let json = std::fs::read_to_string(root.join("spec/entities.json"))
            .expect("spec/entities.json is carried by the repository");
        let generated = generate(&json, "spec/entities.json").expect("the JSON is the standard's");
        let committed = std::fs::read_to_string(root.join(TABLE_PATH)).expect(TABLE_PATH);
        assert!(
            generated == committed,
            "src/entities/table.rs differs from the generator's output; regenerate it with \
             `cargo xtask gen-entities`"
        );
    }

    #[test]
    fn generator_rejects_a_wrong_file() {
        // Not the standard's table: the generator refuses rather than writing a
        // short table.
        let err =
            generate(r#"{"&amp;": {"codepoints": [38], "characters": "&"}}"#, "x").unwrap_err();
        assert!(err.contains("expected 2231 entities"), "{err}");
    }
}
