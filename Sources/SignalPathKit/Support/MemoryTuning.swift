import CSystem

/// Process-wide allocator settings that the I/O design relies on.
public enum MemoryTuning {
    /// Makes glibc serve large buffers from its heap and keep freed ones for reuse.
    ///
    /// DispatchIO allocates a fresh buffer for every read. By default glibc gives buffers of
    /// 128 KiB and more their own `mmap`, so each read of a file in the page cache pays a page fault
    /// and a zeroed page for every 4 KiB, and `munmap` on release: measured, that made a whole-file
    /// pass 2–3× slower than with the buffers reused. A 32 MiB threshold keeps every read buffer
    /// (≤ 1 MiB) and cache block in the heap; freed memory above 64 MiB is still returned.
    /// Call once, early, from the executable.
    public static func reuseLargeBuffers() {
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
        mallopt(M_TRIM_THRESHOLD, 64 << 20)
    }
}
