//! The binary's global allocator: a thin wrapper around `System` that
//! counts, per thread, the allocations, the bytes allocated, the bytes
//! held (allocated and not yet freed) and their peak. Per thread, so that
//! the test harness's own threads (output capture, other tests running in
//! parallel) cannot pollute a measured section's numbers; the counters are
//! const-initialised `Cell`s without destructors, so reading them never
//! allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated and not yet freed by this thread (memory it frees
    /// that another thread allocated takes it below zero).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The most `LIVE` has been since the last `Counter::start`.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// The counting allocator (installed in `main.rs`).
pub struct Counting;

/// One allocation of `size` bytes (a reallocation counts as one).
fn allocated(size: usize) {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|c| c.set(c.get() + size));
}

/// Bytes held change by `delta`.
fn held(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// A counting allocator must implement `GlobalAlloc`, an unsafe trait.
#[allow(unsafe_code)]
// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees (and the caller's obligations) carry
// over exactly; the only addition is updating this thread's counters,
// which neither allocates nor touches the memory being managed.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        allocated(layout.size());
        held(layout.size() as isize);
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        allocated(layout.size());
        held(layout.size() as isize);
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held(-(layout.size() as isize));
        // SAFETY: forwarded unchanged; `ptr` came from `System` via this wrapper.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation (a buffer growing) counts as an allocation.
        allocated(new_size);
        held(new_size as isize - layout.size() as isize);
        // SAFETY: forwarded unchanged; `ptr` came from `System` via this wrapper.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What the current thread allocated between [`Counter::start`] and
/// [`Counter::stop`].
#[derive(Clone, Copy, Debug)]
pub struct Counts {
    pub allocations: usize,
    pub bytes: usize,
    /// The most bytes held at once (allocated and not freed) since `start`,
    /// above what was held then.
    pub peak: usize,
}

/// Counts the current thread's allocations from `start` to `stop`.
pub struct Counter {
    allocations: usize,
    bytes: usize,
    live: isize,
}

impl Counter {
    pub fn start() -> Counter {
        let live = LIVE.with(Cell::get);
        PEAK.with(|p| p.set(live));
        Counter {
            allocations: ALLOCATIONS.with(Cell::get),
            bytes: BYTES.with(Cell::get),
            live,
        }
    }

    pub fn stop(self) -> Counts {
        Counts {
            allocations: ALLOCATIONS.with(Cell::get) - self.allocations,
            bytes: BYTES.with(Cell::get) - self.bytes,
            peak: (PEAK.with(Cell::get) - self.live).max(0) as usize,
        }
    }
}

/// The peak of bytes held by this thread while `f` ran, above what was held
/// when it started.
pub fn peak_during(f: impl FnOnce()) -> usize {
    let counter = Counter::start();
    f();
    counter.stop().peak
}

#[test]
fn counts_what_this_thread_allocates_and_holds() {
    let counter = Counter::start();
    let a = vec![0u8; 1000];
    let b = vec![0u8; 500];
    drop(a);
    let counts = counter.stop();
    drop(b);
    assert_eq!(counts.allocations, 2);
    assert_eq!(counts.bytes, 1500);
    assert_eq!(counts.peak, 1500);
    // Another thread's allocations are not this thread's.
    let counter = Counter::start();
    std::thread::spawn(|| drop(vec![0u8; 1 << 20]))
        .join()
        .unwrap();
    assert!(counter.stop().bytes < 1 << 20);
}
