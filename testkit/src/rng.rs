//! A small deterministic random number generator for split points and
//! synthetic inputs: the same numbers on every run and every machine; and
//! the split points of a stream's chunks, fixed or drawn from it.

/// xorshift64*: small, deterministic, good enough for split points and
/// generated pages (not for anything that needs real randomness).
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (0 is taken as 1: xorshift stays at 0).
    pub fn new(seed: u64) -> Self {
        XorShift(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Split points for fixed-size chunks of `len` bytes.
pub fn fixed_splits(len: usize, size: usize) -> Vec<usize> {
    (size..len).step_by(size.max(1)).collect()
}

/// Random split sets for an input of `len` bytes: a few uniformly placed
/// points (duplicates allowed, so some chunks are empty), small random
/// chunk sizes, and random chunk sizes up to the whole input.
pub fn random_split_sets(len: usize, rng: &mut XorShift) -> Vec<Vec<usize>> {
    let mut sets = Vec::new();
    // A few uniformly placed points, including 0 and len (empty chunks).
    let k = 1 + rng.below(8);
    let mut points: Vec<usize> = (0..k).map(|_| rng.below(len + 1)).collect();
    points.sort_unstable();
    sets.push(points);
    // Chunks of 1..=16 bytes, sometimes empty.
    sets.push(random_sized(len, 17, rng));
    // Chunks of up to the whole input.
    sets.push(random_sized(len, len.max(1) + 1, rng));
    sets
}

/// Split points for chunks of random size in `0..max_size`.
pub fn random_sized(len: usize, max_size: usize, rng: &mut XorShift) -> Vec<usize> {
    let mut points = Vec::new();
    let mut at = 0;
    loop {
        at += rng.below(max_size.max(1));
        if at >= len {
            return points;
        }
        points.push(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_below_stays_below() {
        let (mut a, mut b) = (XorShift::new(7), XorShift::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
            assert!(a.below(10) < 10);
            b.below(10);
        }
        // Seed 0 would be stuck at 0.
        assert_ne!(XorShift::new(0).next_u64(), 0);
    }

    #[test]
    fn splits_stay_inside_the_input_in_order() {
        assert_eq!(fixed_splits(10, 4), [4, 8]);
        assert_eq!(fixed_splits(8, 4), [4]);
        assert!(fixed_splits(3, 4).is_empty());
        let mut rng = XorShift::new(11);
        for len in [0, 1, 5, 100] {
            for set in random_split_sets(len, &mut rng) {
                assert!(set.windows(2).all(|w| w[0] <= w[1]), "{set:?}");
                assert!(set.iter().all(|&p| p <= len), "{set:?} for {len}");
            }
            let sized = random_sized(len, 3, &mut rng);
            assert!(sized.iter().all(|&p| p < len), "{sized:?} for {len}");
        }
    }
}
