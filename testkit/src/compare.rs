//! What a test that holds one way of tokenizing against another does with
//! a difference: shrink the failing case ([`minimize`]), show its bytes
//! ([`show`]), and report how many runs differed ([`report`]).

/// Shrinks a failing case: removes byte ranges (ddmin-style, then single
/// bytes) and split points while the case still fails. Returns the
/// shortest failing input and its split points.
pub fn minimize(
    bytes: &[u8],
    splits: &[usize],
    fails: &dyn Fn(&[u8], &[usize]) -> bool,
) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = bytes.to_vec();
    let mut splits = splits.to_vec();
    assert!(
        fails(&bytes, &splits),
        "minimize: the case does not fail to begin with"
    );
    let remove = |bytes: &[u8], splits: &[usize], a: usize, b: usize| -> (Vec<u8>, Vec<usize>) {
        let mut nb = bytes[..a].to_vec();
        nb.extend_from_slice(&bytes[b..]);
        let ns: Vec<usize> = splits
            .iter()
            .map(|&p| {
                if p <= a {
                    p
                } else if p >= b {
                    p - (b - a)
                } else {
                    a
                }
            })
            .collect();
        (nb, ns)
    };
    // Byte ranges, halving the size.
    let mut size = bytes.len() / 2;
    while size >= 1 {
        let mut at = 0;
        let mut progressed = false;
        while at + size <= bytes.len() {
            let (nb, ns) = remove(&bytes, &splits, at, at + size);
            if fails(&nb, &ns) {
                bytes = nb;
                splits = ns;
                progressed = true;
            } else {
                at += size;
            }
        }
        if !progressed {
            size /= 2;
        }
    }
    // Split points, one at a time.
    let mut i = 0;
    while i < splits.len() {
        let mut ns = splits.clone();
        ns.remove(i);
        if fails(&bytes, &ns) {
            splits = ns;
        } else {
            i += 1;
        }
    }
    // Single bytes again, now that splits are fewer.
    let mut at = 0;
    while at < bytes.len() {
        let (nb, ns) = remove(&bytes, &splits, at, at + 1);
        if fails(&nb, &ns) {
            bytes = nb;
            splits = ns;
        } else {
            at += 1;
        }
    }
    (bytes, splits)
}

/// Shows bytes as a Rust byte-string literal body.
pub fn show(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}

/// Prints how many of `runs` differ (and the first few differences), and
/// fails if any did: a comparison `between` two ways of tokenizing.
pub fn report(between: &str, what: &str, runs: usize, failures: &[String]) {
    println!("{what}: {runs} runs compared, {} differ", failures.len());
    for f in failures.iter().take(10) {
        println!("{f}\n");
    }
    assert!(
        failures.is_empty(),
        "{what}: {} of {runs} runs differ between {between}",
        failures.len()
    );
}
