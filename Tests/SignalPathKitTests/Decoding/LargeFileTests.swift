import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Files over 4 GB")
struct LargeFileTests {
    let scratch = ScratchDirectory("large")

    /// A sparse RF64 file of over 4 GB (a header written here, then `ftruncate`: no disk cost) with
    /// a known tone in its last second.
    func sparseRF64() throws -> (path: String, frames: Int64, tail: [Float]) {
        let builder = PCMFileBuilder(container: .rf64, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let frames: Int64 = 48_000 * 60 * 450  // 7 h 30 min of stereo 16-bit: 5.2 GB of data
        let dataBytes = UInt64(frames) * 4
        let header = builder.header(dataBytes: dataBytes)
        let path = scratch.write("huge.rf64", header)
        let tailSignal = Signals.sines(frequencies: [1000, 2500], amplitude: 0.5, sampleRate: 48_000, frames: 48_000)
        let descriptor = open(path, O_WRONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(ftruncate(descriptor, off_t(header.count) + off_t(dataBytes)) == 0)
        let tailBytes = builder.sampleBytes(tailSignal)
        let tailOffset = off_t(header.count) + off_t(frames - 48_000) * 4
        #expect(tailBytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, tailOffset) } == tailBytes.count)
        return (path, frames, tailSignal.map(builder.expectedSample(for:)))
    }

    @Test("the last second of a sparse RF64 over 4 GB decodes exactly, reading only bytes near it")
    func lastSecondOfHugeRF64() throws {
        let (path, frames, tail) = try sparseRF64()
        #expect(try FileReader(path: path).size > 4 << 30)
        for decoding in [AudioFile.Decoding.directPCM, .libsndfile] {
            let file = try AudioFile.open(path, decoding: decoding)
            #expect(file.format.container == .rf64)
            #expect(file.format.frames == frames)
            let samples = try file.readFrames(frames - 48_000..<frames)
            #expect(firstBitDifference(samples, tail) == nil, "\(decoding)")
            // Memory and I/O stay bounded: a few blocks at the start (header) and at the end, not gigabytes.
            let source = try #require(file.source)
            #expect(source.reader.statistics.bytesRead < 8 << 20, "\(decoding) read \(source.reader.statistics.bytesRead) bytes")
            #expect(source.cache.byteCount <= CachedFile.defaultCacheBytes)
        }
    }
}
