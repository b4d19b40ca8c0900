//! A page's bytes, and the pool of buffers they are read into.
//!
//! A page is a part of a buffer: its own, or a gzip member's inflated
//! bytes shared by every page of the member (the parallel reader inflates
//! a member once and hands its pages on without copying them out).
//! Buffers come from a [`Pool`] and go back to it once their page is
//! processed: a fresh buffer costs a page fault per 4 KiB touched, and the
//! allocator hands large freed blocks back to the system.

use std::ops::Range;
use std::sync::{Arc, Mutex};

/// Bytes of a page: a range of a buffer of its own or of a shared one,
/// which goes back to the [`Pool`] it came from when
/// [recycled](Bytes::recycle).
///
/// ```
/// use htmltok_warc::Bytes;
/// let bytes = Bytes::from(b"HTTP/1.1 200 OK\r\n\r\n<p>hi".to_vec()).narrow(19..25);
/// assert_eq!(&*bytes, b"<p>hi");
/// ```
#[derive(Clone)]
pub struct Bytes {
    storage: Storage,
    range: Range<usize>,
    /// Where the buffer goes back to.
    pool: Option<Pool>,
}

#[derive(Clone)]
enum Storage {
    Own(Vec<u8>),
    Shared(Arc<Vec<u8>>),
}

impl Bytes {
    /// `range` of a buffer shared with other pages.
    ///
    /// A range outside the buffer is clipped to it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use htmltok_warc::Bytes;
    /// let shared = Arc::new(b"<p>a<p>b".to_vec());
    /// assert_eq!(&*Bytes::shared(Arc::clone(&shared), 4..99), b"<p>b");
    /// ```
    pub fn shared(buffer: Arc<Vec<u8>>, range: Range<usize>) -> Bytes {
        let end = range.end.min(buffer.len());
        Bytes {
            range: range.start.min(end)..end,
            storage: Storage::Shared(buffer),
            pool: None,
        }
    }

    /// These bytes, whose buffer goes back to `pool` when
    /// [recycled](Bytes::recycle).
    ///
    /// ```
    /// use htmltok_warc::{Bytes, Pool};
    /// let pool = Pool::new();
    /// let buffer = pool.buffer(5000);
    /// let capacity = buffer.capacity();
    /// Bytes::from(buffer).pooled(&pool).recycle();
    /// assert_eq!(pool.buffer(5000).capacity(), capacity);
    /// ```
    pub fn pooled(self, pool: &Pool) -> Bytes {
        Bytes {
            pool: Some(pool.clone()),
            ..self
        }
    }

    /// The part `range` of these bytes (relative to them), clipped to them.
    pub fn narrow(self, range: Range<usize>) -> Bytes {
        let len = self.range.len();
        let end = range.end.min(len);
        let start = range.start.min(end);
        Bytes {
            range: self.range.start + start..self.range.start + end,
            ..self
        }
    }

    /// Gives the buffer back to the pool it came from, if any and if no
    /// other page shares it; else drops it.
    ///
    /// ```
    /// use htmltok_warc::Bytes;
    /// let bytes = Bytes::from(b"<p>hi".to_vec());
    /// bytes.recycle(); // from no pool: dropped
    /// ```
    pub fn recycle(self) {
        let Some(pool) = self.pool else { return };
        match self.storage {
            Storage::Own(buffer) => pool.recycle(buffer),
            Storage::Shared(buffer) => {
                if let Ok(buffer) = Arc::try_unwrap(buffer) {
                    pool.recycle(buffer)
                }
            }
        }
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(buffer: Vec<u8>) -> Bytes {
        Bytes {
            range: 0..buffer.len(),
            storage: Storage::Own(buffer),
            pool: None,
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        let buffer = match &self.storage {
            Storage::Own(buffer) => buffer,
            Storage::Shared(buffer) => &**buffer,
        };
        // The range was clipped to the buffer when made, and a buffer no
        // longer changes once its bytes are a page's.
        buffer.get(self.range.clone()).unwrap_or_default()
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Bytes) -> bool {
        **self == **other
    }
}

impl Eq for Bytes {}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({:?})", String::from_utf8_lossy(self))
    }
}

/// Buffers given back once their page is processed, for the pages read
/// next: shared by the readers and page threads of one program (a clone
/// is the same pool), given to readers in their
/// [`Options`](crate::Options).
///
/// ```
/// use htmltok_warc::Pool;
/// let pool = Pool::new();
/// let mut buffer = pool.buffer(100);
/// assert!(buffer.is_empty() && buffer.capacity() >= 100);
/// buffer.extend_from_slice(b"<p>a page");
/// let capacity = buffer.capacity();
/// pool.recycle(buffer);
/// assert_eq!(pool.buffer(10).capacity(), capacity);
/// ```
#[derive(Clone, Default)]
pub struct Pool(Arc<Mutex<Spare>>);

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let spare = self.lock();
        f.debug_struct("Pool")
            .field("buffers", &spare.buffers.len())
            .field("bytes", &spare.bytes)
            .finish()
    }
}

/// At most this many bytes of spare buffers are kept (on top of the pages
/// in flight, which the reader's consumer bounds).
const SPARE_BYTES: usize = 64 << 20;

/// At most this many spare buffers: finding one scans them all, so their
/// number, not only their bytes, must stay small (a crawl of tiny pages
/// would otherwise keep hundreds of thousands and scan them per page).
const SPARE_COUNT: usize = 256;

#[derive(Default)]
struct Spare {
    buffers: Vec<Vec<u8>>,
    /// Their capacities' sum.
    bytes: usize,
}

impl Pool {
    /// An empty pool.
    pub fn new() -> Pool {
        Pool::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Spare> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An empty buffer for about `size` bytes: the smallest spare one that
    /// holds it, else a new one.
    pub fn buffer(&self, size: usize) -> Vec<u8> {
        let mut spare = self.lock();
        let best = (spare.buffers.iter().enumerate())
            .filter(|(_, b)| b.capacity() >= size)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, _)| i);
        match best {
            Some(i) => {
                let buffer = spare.buffers.swap_remove(i);
                spare.bytes -= buffer.capacity();
                buffer
            }
            None => {
                drop(spare);
                // A power of two, so that a spare fits the many pages a
                // little smaller than it, not only the ones smaller than
                // the page it was made for; room never touched costs
                // nothing.
                Vec::with_capacity(size.max(4096).checked_next_power_of_two().unwrap_or(size))
            }
        }
    }

    /// Gives a buffer back for [`Pool::buffer`]; when the spares are full,
    /// the smallest of them (or this one) is freed.
    pub fn recycle(&self, mut buffer: Vec<u8>) {
        if buffer.capacity() < 4096 || buffer.capacity() > SPARE_BYTES / 4 {
            return;
        }
        buffer.clear();
        let mut spare = self.lock();
        spare.bytes += buffer.capacity();
        spare.buffers.push(buffer);
        while spare.bytes > SPARE_BYTES || spare.buffers.len() > SPARE_COUNT {
            let smallest = (spare.buffers.iter().enumerate())
                .min_by_key(|(_, b)| b.capacity())
                .map(|(i, _)| i);
            let Some(i) = smallest else { break };
            let freed = spare.buffers.swap_remove(i);
            spare.bytes -= freed.capacity();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_clipped_and_narrowed() {
        let shared = Arc::new(b"0123456789".to_vec());
        let bytes = Bytes::shared(Arc::clone(&shared), 2..8);
        assert_eq!(&*bytes, b"234567");
        let bytes = bytes.narrow(1..3);
        assert_eq!(&*bytes, b"34");
        assert_eq!(&*Bytes::shared(Arc::clone(&shared), 8..99), b"89");
        assert_eq!(&*Bytes::shared(shared, 20..30), b"");
        assert_eq!(&*Bytes::from(b"abc".to_vec()).narrow(2..9), b"c");
        assert_eq!(&*Bytes::from(b"abc".to_vec()).narrow(5..9), b"");
    }
}
