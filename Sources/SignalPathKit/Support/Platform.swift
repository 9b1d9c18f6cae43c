/// The C library, for every file of the package: signalpath runs on Linux only (ALSA, `/proc`,
/// glibc's calls), so this is the one place that imports it, re-exported to the module's files
/// and to the executable.
@_exported import Glibc

/// Processors online, at least 1: the default number of workers.
public var onlineProcessorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

/// glibc's `copy_file_range` (declared under `_GNU_SOURCE`, so not in Swift's Glibc module): copies
/// between two files inside the kernel, or shares their blocks where the file system can (Btrfs,
/// XFS). -1 with errno ENOSYS where the C library lacks it.
public func copyFileRange(from input: Int32, to output: Int32, count: Int) -> Int {
    typealias CopyFileRange = @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int
    guard let symbol = dlsym(nil, "copy_file_range") else {
        errno = ENOSYS
        return -1
    }
    return unsafeBitCast(symbol, to: CopyFileRange.self)(input, nil, output, nil, count, 0)
}

/// Keeps freed memory of up to 32 MB a block in the process instead of handing it back to the
/// kernel: for a batch (`--output` patterns) that draws file after file with the same few megabytes
/// of buffers (the chart's surface, heat map, PNG rows). With glibc's defaults each file's buffers
/// were mapped, faulted in page by page, and returned (docs/DECISIONS.md#scan-buffers).
public func keepFreedMemoryForReuse() {
    // <malloc.h> is not in Swift's Glibc module: mallopt is looked up, with malloc.h's values of
    // M_TRIM_THRESHOLD (-1) and M_MMAP_THRESHOLD (-3). Without it (not glibc), nothing changes.
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(nil, "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    _ = mallopt(-3, 32 << 20)
    _ = mallopt(-1, 64 << 20)
}
