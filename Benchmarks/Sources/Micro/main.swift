// Micro benchmarks of signalpath's kernels, and the FFT-only loop the spectrum target is measured against.
//
// Usage:
//   Micro fft-rate                    FFT frames per second on one core (window, r2c FFT, |X|², mean), per size
//   Micro cache-lookup                FileMemoryCache with 10 000 chunks: hit, merged-hit and miss lookups
//   Micro true-peak                   ns per sample of each true-peak mode on one core: every block
//                                     interpolated (the meter's cost), and a running peak over noise
//                                     (blocks that cannot beat it are skipped, as in analyze)
//   Micro fft-only SEGMENTS CHANNELS FFTSIZE WORKERS
//                                     the transforms of a Welch spectrum (SEGMENTS per channel, Hann, mean)
//                                     on data already in memory, on WORKERS tasks: what `spectrum` would
//                                     cost with free I/O and decoding
import Dispatch
import Glibc
import SignalPathKit

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One second of interleaved noise, reused cyclically as input.
func noise(frames: Int, channels: Int) -> [Float] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<frames * channels).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(Int32(truncatingIfNeeded: state >> 32)) / Float(Int32.max)
    }
}

/// Transforms `segments` segments of every channel, hop = size / 2, accumulating the mean's sums
/// as `spectrum` does (in the transform's pass, where the processor has AVX2).
func transformSegments(_ segments: Range<Int>, input: [Float], channels: Int, size: Int) -> Double {
    let transform = SegmentTransform(fftSize: size, window: WindowTable(.hann, size: size))
    var sums = [Double](repeating: 0, count: transform.binCount * channels)
    let inputFrames = input.count / channels
    input.withUnsafeBufferPointer { samples in
        for segment in segments {
            let first = (segment * size / 2) % (inputFrames - size)
            for channel in 0..<channels {
                sums.withUnsafeMutableBufferPointer { all in
                    let bins = transform.binCount
                    let channelSums = UnsafeMutableBufferPointer(rebasing: all[channel * bins..<(channel + 1) * bins])
                    transform.transform(
                        samples, firstFrame: first, channels: channels, channel: channel, accumulating: .init(sums: channelSums, band: nil))
                }
            }
        }
    }
    return sums[1]
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "fft-rate":
    print("size     frames/s (one core)   µs/frame")
    let input = noise(frames: 48_000 * 4, channels: 1)
    for size in [1024, 4096, 8192, 16384, 65536] {
        let count = max(200, 40_000_000 / (size * 12))
        _ = transformSegments(0..<10, input: input, channels: 1, size: size)
        var best = Double.infinity
        for _ in 0..<5 {
            let start = now()
            _ = transformSegments(0..<count, input: input, channels: 1, size: size)
            best = min(best, now() - start)
        }
        let rate = Double(count) / best
        let sizeText = pad(String(size), 9), rateText = pad(String(Int(rate)), 22)
        print(sizeText + rateText + format1(1e6 / rate))
    }
case "cache-lookup":
    let chunks = 10_000, chunkSize = 4096
    let cache = FileMemoryCache(byteLimit: chunks * chunkSize * 2)
    let bytes = FileBytes([UInt8](repeating: 7, count: chunkSize))
    // Chunks with gaps between them: every other 4 KiB slot of 80 MB.
    for index in 0..<chunks { cache.store(bytes, at: Int64(index * 2 * chunkSize)) }
    var state: UInt64 = 1
    func random(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % bound
    }
    let lookups = 1_000_000
    let stride = 2 * chunkSize
    func hit() -> Range<Int64> {
        let start = Int64(random(chunks) * stride + random(2048))
        return start..<start + 1024
    }
    func miss() -> Range<Int64> {
        let start = Int64(random(chunks) * stride + chunkSize + 100)
        return start..<start + 1024
    }
    func partial() -> Range<Int64> {
        let start = Int64(random(chunks) * stride + 3000)
        return start..<start + 2048
    }
    let cases: [(String, () -> Range<Int64>)] = [("hit inside one chunk", hit), ("miss in a gap", miss), ("partial: chunk and gap", partial)]
    for (name, makeRange) in cases {
        var found = 0
        let start = now()
        for _ in 0..<lookups {
            if case .hit = cache.data(for: makeRange()) { found += 1 }
        }
        let elapsed = now() - start
        print("\(name): \(format1(elapsed / Double(lookups) * 1e9)) ns per lookup (10 000 chunks, \(found) hits)")
    }
case "fft-only":
    guard arguments.count == 6, let segments = Int(arguments[2]), let channels = Int(arguments[3]),
        let size = Int(arguments[4]), let workers = Int(arguments[5])
    else {
        print("usage: Micro fft-only SEGMENTS CHANNELS FFTSIZE WORKERS")
        exit(64)
    }
    let input = noise(frames: 48_000, channels: channels)
    let perWorker = (segments + workers - 1) / workers
    let result = await withTaskGroup(of: Double.self) { group in
        for worker in 0..<workers {
            let range = worker * perWorker..<min(segments, (worker + 1) * perWorker)
            group.addTask { transformSegments(range, input: input, channels: channels, size: size) }
        }
        var total = 0.0
        for await value in group { total += value }
        return total
    }
    if result.isNaN { print("nan") }
case "true-peak":
    // 10 s of 48 kHz noise with 64 samples of zeros around it (the meters read back and ahead).
    let frames = 480_000, margin = 64
    let samples = [Float](repeating: 0, count: margin) + noise(frames: frames, channels: 1).map { $0 * 0.5 } + [Float](repeating: 0, count: margin)
    var costs: [TruePeakMode: (every: Double, running: Double)] = [:]
    samples.withUnsafeBufferPointer { buffer in
        for mode in TruePeakMode.allCases {
            let meter = TruePeakMeter(mode: mode)
            var sink: Float = 0
            // Every block: the running peak starts at 0 for each block of 256, so none is skipped.
            func everyBlock() {
                for start in stride(from: margin, to: margin + frames, by: 256) { sink = max(sink, meter.peak(buffer, range: start..<start + 256, above: 0)) }
            }
            func running() { sink = max(sink, meter.peak(buffer, range: margin..<margin + frames, above: 0)) }
            var best = (every: Double.infinity, running: Double.infinity)
            for _ in 0..<5 {
                var start = now()
                everyBlock()
                best.every = min(best.every, now() - start)
                start = now()
                running()
                best.running = min(best.running, now() - start)
            }
            if sink.isNaN { print("nan") }
            let cost = (every: best.every / Double(frames) * 1e9, running: best.running / Double(frames) * 1e9)
            costs[mode] = cost
            print("\(pad(mode.rawValue, 10)) every block \(format1(cost.every)) ns/sample, running peak \(format1(cost.running)) ns/sample")
        }
    }
    let (bs1770, accurate) = (costs[.bs1770]!, costs[.accurate]!)
    print("accurate / bs1770, every block: \(format1(accurate.every / bs1770.every * 100))%; running peak: \(format1(accurate.running / bs1770.running * 100))%")
default:
    print("usage: Micro fft-rate | cache-lookup | true-peak | fft-only SEGMENTS CHANNELS FFTSIZE WORKERS")
    exit(64)
}

func format1(_ value: Double) -> String {
    let scaled = (value * 10).rounded()
    return "\(Int(scaled) / 10).\(abs(Int(scaled)) % 10)"
}

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
