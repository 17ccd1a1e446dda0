//! A counting heap allocator for the `binade` binary: the peak of live heap bytes, so
//! `binade sum` can report what a file costs in memory (a memory-mapped file's pages are not
//! heap and are not counted).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The system allocator, counting live and peak bytes.
///
/// Guarantee: every allocation is the system allocator's; `peak()` is at least the largest
/// number of bytes live at once since the process started (counted with relaxed atomics, so
/// exact up to allocations racing on other threads).
pub struct CountingAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static USED: AtomicBool = AtomicBool::new(false);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed to the system allocator unchanged; the counters only observe.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for alloc.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for alloc.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for alloc.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

/// Marks the counting allocator as the process's global allocator (the binary calls this).
pub fn installed() {
    USED.store(true, Ordering::Relaxed);
}

/// The peak of live heap bytes so far, or `None` where the counting allocator is not the
/// global one (the library used from another program, or the tests).
pub fn peak() -> Option<usize> {
    USED.load(Ordering::Relaxed)
        .then(|| PEAK.load(Ordering::Relaxed))
}

/// Forgets the peak: the next [`peak`] is the largest live total from now on.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
}
