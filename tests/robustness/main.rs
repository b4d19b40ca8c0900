//! Robustness: any split of a stream gives the whole document's tokens,
//! memory stays bounded by what the input justifies, the tokenizer does
//! not allocate per token, and the fuzz targets' properties hold on
//! generated inputs (the worst cases' time is the bench's:
//! `benches/adversarial.rs`).
//!
//! The allocation and memory tests read one counting allocator, this
//! binary's global allocator ([`counting`]).

mod adversarial;
mod alloc;
mod chunking;
mod counting;
mod fuzz_properties;
mod memory_bound;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;
