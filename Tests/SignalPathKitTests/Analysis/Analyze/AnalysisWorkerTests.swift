import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Analysis worker")
struct AnalysisWorkerTests {
    let scratch = ScratchDirectory("analysis-worker")

    @Test(
        "16-bit frames go into the rows as PCMDecoder converts them (x · 2^-15), bit for bit: 1 to 3 channels, 0 to 21 frames, full-scale codes, four and eight (AVX2) at a time"
    )
    func int16DeinterleaveAgreesWithDecoderModel() {
        var random = SeededGenerator(seed: 31)
        for channels in 1...3 {
            for frames in 0...21 {
                let codes = (0..<frames * channels).map { _ in Int16.random(in: Int16.min...Int16.max, using: &random) }
                let rowLength = frames + 2
                for wide in ProcessorFeatures.hasX86_64_v3 ? [false, true] : [false] {
                    var rows = [Float](repeating: .nan, count: rowLength * channels)
                    codes.withUnsafeBytes { piece in
                        rows.withUnsafeMutableBufferPointer { rows in
                            PCMDecoder.deinterleave(int16: piece, channels: channels, into: rows.baseAddress! + 1, rowLength: rowLength, wide: wide)
                        }
                    }
                    for channel in 0..<channels {
                        let row = Array(rows[channel * rowLength + 1..<channel * rowLength + 1 + frames])
                        let model = (0..<frames).map { Float(codes[$0 * channels + channel]) * 0x1p-15 }
                        #expect(row.map(\.bitPattern) == model.map(\.bitPattern), "\(channels) channels, \(frames) frames, channel \(channel), wide \(wide)")
                        // Nothing written outside the frames.
                        #expect(rows[channel * rowLength].isNaN && rows[channel * rowLength + 1 + frames].isNaN)
                    }
                }
            }
        }
    }

    @Test(
        "16-bit PCM read in place gives the analysis of libsndfile's decode, byte for byte in JSON: sox-made files of 1–3 channels over several chunks and 1 MiB blocks, ranges at the start, middle and end"
    )
    func int16InPlaceMatchesLibsndfile() async throws {
        for channels in 1...3 {
            // 14 s: several chunks, and 1.3 to 3.8 MiB, so chunks and frames straddle cache blocks.
            let (inPlace, decoded) = try soxInt16File(scratch, channels: channels, seconds: 14)
            let frames = try #require(inPlace.format.frames)
            for range in [0..<frames, 48_001..<480_000, frames - 48_000..<frames, 300_000..<348_000] {
                let ours = try await SignalAnalyzer(file: inPlace, frames: range, settings: AnalysisSettings()).run(workers: 2)
                let reference = try await SignalAnalyzer(file: decoded, frames: range, settings: AnalysisSettings()).run(workers: 2)
                #expect(JSONValue.object(ours.jsonMembers) == JSONValue.object(reference.jsonMembers), "\(channels) channels, \(range)")
            }
        }
    }
}
