//! Landmark scanning kernels (`src/scan/`), in MB/s of input (criterion,
//! `Throughput::BytesDecimal`, MB = 10^6 bytes).
//!
//! ```text
//! cargo bench --bench scan                  # everything (about 3 minutes)
//! cargo bench --bench scan -- tag-like      # one input type
//! cargo bench --bench scan -- TAG_NAME      # one set
//! ```
//!
//! Each benchmark visits every landmark of a 64 KiB input the way the
//! tokenizer does: find the next one, step over it, search again from the
//! byte after it (so the restart cost of a kernel counts).
//!
//! Inputs (synthetic, per set; filler is lower-case letters, digits and
//! two-byte UTF-8 sequences, none of which are landmarks of any set):
//! - `text-like`: a landmark of the set every 0..120 bytes (mean ~60), as
//!   data-state text on real pages;
//! - `tag-like`: a landmark every 0..6 bytes (mean ~3), as inside tags.
//!
//! Kernels (`Kernel` in `src/scan/mod.rs`): `find` (what the tokenizer
//! calls: an inline start — one 16-byte vector for small sets, eight table
//! lookups for large ones — then the best vector kernel of the machine),
//! `scalar` (the 256-entry table, `Config::simd(false)`), `memchr`
//! (memchr/memchr2/memchr3, sets of up to three bytes only: the reference),
//! and the vector kernels on their own, from the first byte, without the
//! inline start: `swar`, `sse2`, `avx2`, `neon`, where the machine has them.
//!
//! The scan module is internal to the crate: the bench reaches its sets and
//! kernels through `htmltok::__fuzz::scan` (the `fuzzing` feature, which
//! the dev-dependency `testkit` turns on).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use htmltok::__fuzz::scan::{Kernel, Set};

const INPUT_LEN: usize = 64 * 1024;

/// A small deterministic generator (xorshift64*), so inputs are the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }
}

/// `INPUT_LEN` bytes with a landmark of `set` after every gap of 0 to
/// `max_gap` ordinary bytes.
fn input(set: Set, max_gap: usize, seed: u64) -> Vec<u8> {
    let landmarks: Vec<u8> = (0..=255u8)
        .filter(|&b| set.find_scalar(&[b]) == 0)
        .collect();
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(INPUT_LEN + 256);
    while out.len() < INPUT_LEN {
        let gap = rng.below(max_gap + 1);
        let start = out.len();
        while out.len() - start < gap {
            match rng.below(16) {
                0 => out.extend_from_slice("é".as_bytes()),
                1 => out.push(b'0' + rng.below(10) as u8),
                _ => out.push(b'a' + rng.below(26) as u8),
            }
        }
        out.push(landmarks[rng.below(landmarks.len())]);
    }
    out.truncate(INPUT_LEN);
    out
}

/// Visits every landmark of `hay` with `find`; returns how many there were.
#[inline(always)]
fn visit(hay: &[u8], find: impl Fn(&[u8]) -> usize) -> usize {
    let mut pos = 0;
    let mut count = 0;
    while pos < hay.len() {
        pos += find(&hay[pos..]) + 1;
        count += 1;
    }
    count
}

fn kernel_name(kernel: Kernel) -> &'static str {
    match kernel {
        Kernel::Find => "find",
        Kernel::Scalar => "scalar",
        Kernel::Memchr => "memchr",
        Kernel::Swar => "swar",
        Kernel::Sse2 => "sse2",
        Kernel::Avx2 => "avx2",
        Kernel::Neon => "neon",
    }
}

fn bench_scan(c: &mut Criterion) {
    let sets = [
        "DATA",
        "DATA_WITH_NUL",
        "ATTR_VALUE_DOUBLE",
        "TAG_NAME",
        "ATTR_NAME",
        "ATTR_VALUE_UNQUOTED",
    ]
    .map(|name| (name, Set::named(name).expect("a set of src/scan/mod.rs")));
    for (input_name, max_gap) in [("text-like", 120), ("tag-like", 6)] {
        for (set_name, set) in sets {
            let hay = input(set, max_gap, 0x9E37_79B9_7F4A_7C15 ^ max_gap as u64);
            let mut group = c.benchmark_group(format!("{input_name}/{set_name}"));
            group
                .throughput(Throughput::BytesDecimal(hay.len() as u64))
                .sample_size(20)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_millis(1500));
            for kernel in Kernel::ALL {
                if !kernel.available() || set.find_with(kernel, b"").is_none() {
                    continue;
                }
                let hay = hay.as_slice();
                group.bench_function(kernel_name(kernel), |b| match kernel {
                    Kernel::Find => b.iter(|| visit(black_box(hay), |h| set.find(h))),
                    Kernel::Scalar => b.iter(|| visit(black_box(hay), |h| set.find_scalar(h))),
                    _ => b.iter(|| {
                        visit(black_box(hay), |h| {
                            set.find_with(kernel, h).unwrap_or(h.len())
                        })
                    }),
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, bench_scan);
criterion_main!(benches);
