//! The committed named-reference table (`src/entities/table.rs`) is what
//! `examples/gen_entities.rs` makes of the repository's `spec/entities.json`:
//! a hand edit of the table, or a new copy of the JSON without a regenerated
//! table, fails here.

#[path = "../examples/gen_entities.rs"]
mod gen_entities;

#[test]
fn committed_table_is_generated_from_the_carried_json() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let json = std::fs::read_to_string(root.join("spec/entities.json"))
        .expect("spec/entities.json is carried by the repository");
    let generated =
        gen_entities::generate(&json, "spec/entities.json").expect("the JSON is the standard's");
    let committed =
        std::fs::read_to_string(root.join("src/entities/table.rs")).expect("src/entities/table.rs");
    assert!(
        generated == committed,
        "src/entities/table.rs differs from the generator's output; regenerate it with \
         `cargo run --example gen_entities > src/entities/table.rs`"
    );
}

#[test]
fn generator_rejects_a_wrong_file() {
    // Not the standard's table: the generator refuses rather than writing a
    // short table.
    let err = gen_entities::generate(r#"{"&amp;": {"codepoints": [38], "characters": "&"}}"#, "x")
        .unwrap_err();
    assert!(err.contains("expected 2231 entities"), "{err}");
}
