import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

/// The audio MD5 of seeded random PCM against a naive model: FLAC's definition spelt out here
/// (each frame's codes, signed, little-endian, in the file's own bytes per sample), hashed by
/// Python's hashlib. Each file goes through both of `AudioMD5.Source`'s paths: its own bytes from
/// the cache, where the container stores them so, and the decoded samples packed again (the same
/// file through libsndfile).
@Suite("Audio MD5")
struct AudioMD5Tests {
    let scratch = ScratchDirectory("audio-md5-model")

    struct Case: CustomStringConvertible {
        var container: PCMFileBuilder.Container
        var encoding: PCMFileBuilder.Encoding
        var channels: Int
        /// Absolute frames analysed; nil for the whole file.
        var range: Range<Int64>?
        var workers: Int
        /// The cache's budget, of 64 KiB blocks: under a chunk's worth, a chunk's blocks may be
        /// gone when its bytes are taken, and are read again.
        var cacheBytes = CachedFile.defaultCacheBytes
        /// Whether the container stores the samples as the digest reads them.
        var stored: Bool

        var description: String { "\(container) \(encoding) \(channels) ch, range \(range.map { "\($0)" } ?? "whole"), \(workers) workers, cache \(cacheBytes)" }
    }

    /// 16- and 24-bit over several chunks, whose bytes straddle the cache's blocks; ranges that start
    /// and end inside chunks and blocks; big-endian AIFF and unsigned 8-bit WAV, which only the
    /// packing path can hash.
    static let cases: [Case] = [
        Case(container: .wav, encoding: .signed16, channels: 2, range: nil, workers: 3, stored: true),
        Case(container: .wav, encoding: .signed24, channels: 2, range: nil, workers: 2, stored: true),
        Case(container: .wav, encoding: .signed24, channels: 3, range: 12_345..<77_777, workers: 3, stored: true),
        Case(container: .wav, encoding: .signed16, channels: 1, range: 999..<99_001, workers: 1, cacheBytes: 100 << 10, stored: true),
        Case(container: .w64, encoding: .signed24, channels: 2, range: nil, workers: 2, stored: true),
        Case(container: .rf64, encoding: .signed16, channels: 2, range: 16_383..<65_537, workers: 2, stored: true),
        Case(container: .aifcSowt, encoding: .signed16, channels: 2, range: nil, workers: 2, stored: true),
        Case(container: .aiff, encoding: .signed8, channels: 2, range: nil, workers: 2, stored: true),
        Case(container: .aiff, encoding: .signed24, channels: 2, range: 100..<90_000, workers: 2, stored: false),
        Case(container: .wav, encoding: .unsigned8, channels: 2, range: nil, workers: 2, stored: false),
    ]
    static let frames = 100_000

    /// The seeded random codes of `test`'s file, interleaved: within ±1/8 of full scale (noise at
    /// full scale keeps the true-peak meter's interpolation busy for seconds), and every 1009th
    /// the lowest or highest code, so that every byte of the width and both signs are exercised.
    static func codes(_ test: Case, seed: UInt64) -> [Int64] {
        var random = SeededGenerator(seed: seed)
        let full = Int64(1) << (test.encoding.bytesPerSample * 8 - 1)
        let shift = UInt64(64 - (test.encoding.bytesPerSample * 8 - 3))
        return (0..<frames * test.channels).map { index in
            index % 1009 == 0 ? (index % 2 == 0 ? -full : full - 1) : Int64(bitPattern: random.next()) >> shift
        }
    }

    /// The bytes FLAC's MD5 reads for `frames` of `codes`: signed little-endian codes of the
    /// encoding's width, interleaved.
    static func modelBytes(_ codes: [Int64], _ test: Case, frames: Range<Int64>) -> [UInt8] {
        let width = test.encoding.bytesPerSample
        var bytes: [UInt8] = []
        for code in codes[Int(frames.lowerBound) * test.channels..<Int(frames.upperBound) * test.channels] {
            for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: code >> (8 * index))) }
        }
        return bytes
    }

    /// hashlib's MD5 of each file.
    static func hashlib(_ paths: [String]) throws -> [String] {
        let script = "import hashlib, sys\nfor path in sys.argv[1:]: print(hashlib.md5(open(path, 'rb').read()).hexdigest())"
        let result = try run("/usr/bin/env", ["python3", "-c", script] + paths)
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("seeded random PCM: the file's own bytes and the packed decode both give hashlib's MD5 of FLAC's bytes", arguments: 0..<cases.count)
    func againstModel(index: Int) async throws {
        let test = Self.cases[index]
        let builder = PCMFileBuilder(container: test.container, encoding: test.encoding, channels: test.channels, sampleRate: 48000)
        let codes = Self.codes(test, seed: UInt64(100 + index))
        var data: [UInt8] = []
        data.reserveCapacity(codes.count * test.encoding.bytesPerSample)
        // The raw patterns of the codes: unsigned 8-bit stores code + 128.
        for code in codes { builder.appendRaw(UInt64(bitPattern: test.encoding == .unsigned8 ? code + 128 : code), to: &data) }
        let path = scratch.write("case-\(index)", builder.file(encodedData: data))
        let frames = test.range ?? 0..<Int64(Self.frames)
        let modelPath = scratch.write("model-\(index)", Self.modelBytes(codes, test, frames: frames))
        let expected = try #require(try Self.hashlib([modelPath]).first)

        var settings = AnalysisSettings()
        settings.computesAudioMD5 = true
        // A short FFT: chunks of 16 384 stereo frames, so that two seconds make several.
        settings.spectrum = SpectrumParameters(fftSize: 256, window: .hann, overlap: 0.5)
        for decoding in [AudioFile.Decoding.automatic, .libsndfile] {
            let file = try AudioFile(file: CachedFile(path: path, cacheBytes: test.cacheBytes, blockSize: 64 << 10), decoding: decoding)
            let analyzer = SignalAnalyzer(file: file, frames: frames, settings: settings)
            switch analyzer.audioMD5Source {
            case .stored?: #expect(decoding == .automatic && test.stored, "\(test): the stored path")
            case .packed?: #expect(decoding == .libsndfile || !test.stored, "\(test): the packing path")
            case nil: Issue.record("\(test): no audio MD5")
            }
            let analysis = try await analyzer.run(workers: test.workers)
            #expect(analysis.audioMD5 == expected, "\(test), \(decoding)")
        }
    }
}
