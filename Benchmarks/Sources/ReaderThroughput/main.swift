// Whole-file read throughput of signalpath's I/O paths against a plain pread loop, in one run.
//
// Usage: ReaderThroughput FILE [RUNS [WAV]]
//   FILE  any large file; every path reads all of it and touches every byte (a checksum), so no
//         path can skip work. The first pass warms the page cache.
//   WAV   a 16-bit PCM WAV (44-byte header) for the decode pass: bytes to Float frames.
// Environment: COLD=1 empties the page cache before every pass (root only); ONLY=PREFIX runs the
// paths whose names start with PREFIX (and the baselines); VARIANTS=1 adds other block sizes and
// read-ahead depths to the decode pass.
// Paths run round robin, so a noisy moment of the machine hits them all alike; medians are reported.
import Dispatch
import Glibc
import SignalPathKit

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var sum: UInt64 = 0
    let words = bytes.count / 8
    for index in 0..<words { sum &+= bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
    for index in words * 8..<bytes.count { sum &+= UInt64(bytes[index]) }
    return sum
}

/// The baseline: pread into one reused 1 MiB buffer.
func preadLoop(_ path: String) -> UInt64 {
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var offset: off_t = 0
    var sum: UInt64 = 0
    while true {
        let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
        if got <= 0 { break }
        sum &+= buffer.withUnsafeBytes { checksum(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        offset += off_t(got)
    }
    return sum
}

/// `cat FILE > /dev/null`, for scale (no checksum; includes starting the process, ~1 ms).
func catToDevNull(_ path: String) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("cat"), strdup(path), nil]
    defer { arguments.forEach { free($0) } }
    var pid = pid_t()
    guard posix_spawnp(&pid, "cat", &actions, nil, arguments, environ) == 0 else {
        print("cannot run cat")
        exit(1)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}

/// FileReader's sequential pass: 1 MiB DispatchIO reads, two more in flight.
func fileReaderChunks(_ path: String) throws -> UInt64 {
    let chunks = try FileReader(path: path).chunks(chunkSize: 1 << 20, readAhead: 2)
    var sum: UInt64 = 0
    while let chunk = try chunks.next() { sum &+= chunk.withUnsafeBytes(checksum) }
    return sum
}

/// The decoders' path: a FileCursor over a CachedFile (default blocks, cache and read-ahead),
/// consumed in 64 KiB reads (each a memcpy out of the cache, which the other paths do not pay).
func cachedCursor(_ path: String) throws -> UInt64 {
    let cursor = FileCursor(file: try CachedFile(path: path))
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    var sum: UInt64 = 0
    while case let got = buffer.withUnsafeMutableBytes({ cursor.read(into: $0) }), got > 0 {
        sum &+= buffer.withUnsafeBytes { checksum(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
    }
    if let error = cursor.error { throw error }
    return sum
}

/// A random-access channel on `path` (which closes the descriptor), its queue, the descriptor and
/// the file's size: what the raw DispatchIO paths start from.
func randomChannel(_ path: String) -> (channel: DispatchIO, queue: DispatchQueue, descriptor: Int32, size: Int) {
    let fd = open(path, O_RDONLY)
    var status = stat()
    fstat(fd, &status)
    let queue = DispatchQueue(label: "ReaderThroughput", attributes: .concurrent)
    let channel = DispatchIO(type: .random, fileDescriptor: fd, queue: queue) { _ in close(fd) }
    return (channel, queue, fd, Int(status.st_size))
}

/// DispatchIO's own reads (`dispatch_io_read`) of `chunk` bytes with `ahead` more in flight,
/// consumed in place (no copy, no cache, no bookkeeping). Each read gets a freshly allocated
/// buffer, which is why FileReader does not use them for large reads.
func rawDispatch(_ path: String, chunk: Int = 1 << 20, ahead: Int = 3, lowWater: Int = Int.max) -> UInt64 {
    let (channel, queue, _, size) = randomChannel(path)
    channel.setLimit(lowWater: lowWater)
    final class Slot: @unchecked Sendable {
        // @unchecked: the read handler writes `data` before signalling; the reader reads it after waiting.
        var data = DispatchData.empty
        let sem = DispatchSemaphore(value: 0)
    }
    var slots: [Slot] = []
    var next = 0
    func request() {
        guard next < size else { return }
        let slot = Slot()
        slots.append(slot)
        channel.read(offset: off_t(next), length: chunk, queue: queue) { done, data, _ in
            if let data { slot.data.append(data) }
            if done { slot.sem.signal() }
        }
        next += chunk
    }
    for _ in 0...ahead { request() }
    var sum: UInt64 = 0
    var index = 0
    while index < slots.count {
        slots[index].sem.wait()
        slots[index].data.enumerateBytes { block, _, _ in sum &+= checksum(UnsafeRawBufferPointer(block)) }
        slots[index].data = .empty
        index += 1
        request()
    }
    channel.close()
    return sum
}

/// The floor of FileReader's large reads: channel barriers that `pread` into `ahead + 1` buffers
/// mapped once and reused, consumed in place.
func rawBarrier(_ path: String, chunk: Int = 1 << 20, ahead: Int = 2) -> UInt64 {
    let (channel, _, fd, size) = randomChannel(path)
    final class Slot: @unchecked Sendable {
        // @unchecked: the barrier fills `buffer` and `got` before signalling; the reader reads them after waiting.
        let buffer: UnsafeMutableRawBufferPointer
        var got = 0
        let filled = DispatchSemaphore(value: 0)
        init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }
    }
    var pool = (0...ahead).map { _ in
        UnsafeMutableRawBufferPointer(start: mmap(nil, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), count: chunk)
    }
    var slots: [Slot] = []
    var next = 0
    func request() {
        guard next < size, let buffer = pool.popLast() else { return }
        let slot = Slot(buffer)
        slots.append(slot)
        let offset = next
        channel.barrier {
            slot.got = pread(fd, slot.buffer.baseAddress, slot.buffer.count, off_t(offset))
            slot.filled.signal()
        }
        next += chunk
    }
    for _ in 0...ahead { request() }
    var sum: UInt64 = 0
    var index = 0
    while index < slots.count {
        slots[index].filled.wait()
        sum &+= checksum(UnsafeRawBufferPointer(rebasing: slots[index].buffer[0..<slots[index].got]))
        pool.append(slots[index].buffer)
        index += 1
        request()
    }
    channel.close()
    for buffer in pool { munmap(buffer.baseAddress, buffer.count) }
    return sum
}

/// The consumer of a decode pass: sums the samples with eight partial sums (cheap and
/// vectorisable, so the pass measures delivery of samples, not a serial chain of additions).
func consume(_ buffer: [Float], count: Int) -> Double {
    var partial = SIMD8<Float>()
    var index = 0
    buffer.withUnsafeBufferPointer { samples in
        while index + 8 <= count {
            partial += SIMD8<Float>(samples[index..<index + 8])
            index += 8
        }
    }
    var total = Double(partial.sum())
    while index < count {
        total += Double(buffer[index])
        index += 1
    }
    return total
}

/// A decode pass as analysis does it: 16-bit PCM to Float blocks of 65 536 frames. Baseline: a
/// pread loop converting into the block on the same thread.
func preadDecode(_ path: String, dataOffset: Int, channels: Int) -> Double {
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 65536 * channels * 2)
    var samples = [Float](repeating: 0, count: 65536 * channels)
    var offset = off_t(dataOffset)
    var total = 0.0
    while true {
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
        if got <= 0 { break }
        bytes.withUnsafeBytes { raw in
            samples.withUnsafeMutableBufferPointer { out in
                for index in 0..<got / 2 { out[index] = Float(raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self)) * 0x1p-15 }
            }
        }
        total += consume(samples, count: got / 2)
        offset += off_t(got)
    }
    return total
}

/// The same pass through AudioFile's direct PCM decoder (CachedFile, read-ahead on a second thread).
func audioFileDecode(
    _ path: String, blockSize: Int = CachedFile.defaultBlockSize,
    readAhead: Int = CachedFile.defaultReadAheadBlocks
) throws -> Double {
    let reader = try AudioFile(file: CachedFile(path: path, blockSize: blockSize, readAheadBlocks: readAhead)).makeReader()
    let channels = reader.format.channels
    var buffer = [Float](repeating: 0, count: 65536 * channels)
    var total = 0.0
    while case let count = try reader.read(into: &buffer, frames: 65536), count > 0 {
        total += consume(buffer, count: count * channels)
    }
    return total
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: ReaderThroughput FILE [RUNS]")
    exit(64)
}
let path = arguments[1]
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 7 : 7
var status = stat()
stat(path, &status)
let size = Double(status.st_size)

/// Stops the run when a path delivered different data (`precondition` would vanish under -Ounchecked).
func check(_ condition: Bool) {
    if !condition {
        print("a path read different data")
        exit(1)
    }
}

let reference = preadLoop(path)  // also warms the page cache
var passes: [(name: String, group: String, run: () -> Void)] = [
    ("pread loop (1 MiB)", "bytes", { check(preadLoop(path) == reference) }),
    ("cat FILE > /dev/null", "bytes", { catToDevNull(path) }),
    ("FileReader.chunks (1 MiB, 2 ahead)", "bytes", { check(try! fileReaderChunks(path) == reference) }),
    ("CachedFile + FileCursor (64 KiB reads)", "bytes", { check(try! cachedCursor(path) == reference) }),
    ("dispatch_io_read alone, 1 MiB, 3 ahead", "bytes", { check(rawDispatch(path) == reference) }),
    ("channel barrier + pread alone (floor)", "bytes", { check(rawBarrier(path) == reference) }),
]
if arguments.count > 3 {
    // A WAV (16-bit PCM) for the decode pass.
    let wav = arguments[3]
    let channels = try AudioFile.open(wav).format.channels
    let expected = preadDecode(wav, dataOffset: 44, channels: channels)
    passes.append(
        (
            "decode pass: pread + convert", "decode",
            {
                check(preadDecode(wav, dataOffset: 44, channels: channels) == expected)
            }
        ))
    passes.append(
        (
            "decode pass: AudioFile direct PCM", "decode",
            {
                check(abs(try! audioFileDecode(wav) - expected) <= abs(expected) * 1e-9 + 1e-6)
            }
        ))
    // Other block sizes and read-ahead depths, to choose the defaults on a measurement (VARIANTS=1).
    if getenv("VARIANTS") != nil {
        for (block, ahead) in [(512, 2), (1024, 1), (1024, 2), (256, 4), (2048, 1)] {
            passes.append(
                (
                    "decode pass: \(block) KiB blocks, \(ahead) ahead", "decode",
                    {
                        check(abs(try! audioFileDecode(wav, blockSize: block << 10, readAhead: ahead) - expected) <= abs(expected) * 1e-9 + 1e-6)
                    }
                ))
        }
    }
}
if let only = getenv("ONLY") {
    passes = passes.filter { $0.name.hasPrefix(String(cString: only)) || $0.name.hasPrefix("pread") || $0.name.hasSuffix("pread + convert") }
}
/// COLD=1: every pass reads from the disk (needs root to empty the page cache).
let cold = getenv("COLD") != nil
func dropPageCache() {
    sync()
    let fd = open("/proc/sys/vm/drop_caches", O_WRONLY)
    guard fd >= 0 else {
        print("COLD needs root: cannot write /proc/sys/vm/drop_caches")
        exit(1)
    }
    _ = write(fd, "3\n", 2)
    close(fd)
}
// Round robin, so that a noisy moment of the machine hits every path alike.
var times = [[Double]](repeating: [], count: passes.count)
for _ in 0..<runs {
    for (index, pass) in passes.enumerated() {
        if cold { dropPageCache() }
        let start = now()
        pass.run()
        times[index].append(now() - start)
    }
}
var baselineMedians: [String: Double] = [:]
for (index, pass) in passes.enumerated() where baselineMedians[pass.group] == nil {
    baselineMedians[pass.group] = times[index].sorted()[runs / 2]
}
print("File: \(path), \(Int(size) >> 20) MiB, \(runs) runs of each path (round robin), \(cold ? "cold (page cache emptied before each pass)" : "warm page cache").")
print("")
print("| path | median | min–max | ratio to baseline |")
print("|---|---|---|---|")
for (index, pass) in passes.enumerated() {
    let sorted = times[index].sorted()
    let median = sorted[runs / 2]
    print(
        "| \(pass.name) | \(format3(median * 1000)) ms | \(format3(sorted.first! * 1000))–\(format3(sorted.last! * 1000)) ms | \(format3(median / baselineMedians[pass.group]!))× |"
    )
}

func format3(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return String(scaled)
}
