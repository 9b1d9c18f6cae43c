import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// Which sample rates and channel counts are usable (`AudioFormat.usableSampleRates`,
/// `usableChannelCounts`), and that the direct PCM and libsndfile paths agree on them.
@Suite("Decoding: usable sample rates and channel counts, the same on every path")
struct HeaderPolicyTests {
    let scratch = ScratchDirectory("header-policy")

    /// The whole part of an 80-bit float, worked out from its bits (not through a Double), when it
    /// lies in 1…2³¹ − 1; nil otherwise.
    static func usableWholePart(_ value: ExtendedFloat) -> Int? {
        guard value.exponent & 0x8000 == 0, value.exponent != 0x7FFF else { return nil }
        let shift = Int(value.exponent) - 16383 - 63
        guard shift < 0 else { return nil }  // ≥ 2⁶³: far past the limit
        let whole = -shift >= 64 ? 0 : value.mantissa >> UInt64(-shift)
        return whole >= 1 && whole <= UInt64(Int32.max) ? Int(whole) : nil
    }

    func aiff(rate: ExtendedFloat) -> String {
        let builder = PCMFileBuilder(container: .aiff, encoding: .signed16, channels: 1, sampleRate: 44_100)
        let base = builder.file(samples: [0.25, -0.25, 0.5, -0.5])
        let field = builder.headerFields(dataBytes: 8).first { $0.isExtended }!
        return scratch.write("rate-\(value: rate).aiff", field.setting(rate, in: base))
    }

    @Test(
        "AIFF's 80-bit rate counts by its whole part from 1 Hz to 2³¹ − 1 Hz (libsndfile reads 2³⁰ and more as 800 000 000, below 1 Hz as 1), else is refused",
        arguments: ExtendedFloat.sampleRateBoundaries)
    func aiffRate(rate: ExtendedFloat) throws {
        let path = aiff(rate: rate)
        let expected = Self.usableWholePart(rate)
        for decoding in [AudioFile.Decoding.automatic, .libsndfile] {
            do {
                let file = try AudioFile.open(path, decoding: decoding)
                #expect(file.format.sampleRate == expected, "\(rate) via \(decoding)")
            } catch {
                #expect(expected == nil, "\(rate) via \(decoding): \(error)")
                #expect(error.category == .badData && error.reason.contains("sample rate"), "\(error)")
            }
        }
    }

    @Test(
        "A WAV rate of 0 or 2³¹ Hz and more is refused with the same line by both decoders; 2³¹ − 1 is read",
        arguments: [0, 1, 2_147_483_647, 2_147_483_648, 4_294_967_295] as [UInt64])
    func wavRate(rate: UInt64) throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 48_000)
        let base = builder.file(samples: [0.25, -0.25, 0.5, -0.5])
        let field = builder.headerFields(dataBytes: 8).first { $0.name == "fmt sample rate" }!
        let path = scratch.write("rate-\(rate).wav", field.setting(rate, in: base))
        var outcomes: [String] = []
        for decoding in [AudioFile.Decoding.automatic, .libsndfile] {
            do {
                outcomes.append("\(try AudioFile.open(path, decoding: decoding).format.sampleRate) Hz")
            } catch {
                outcomes.append(error.description)
            }
        }
        let usable = rate >= 1 && rate <= 2_147_483_647
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[0] == (usable ? "\(rate) Hz" : "\(path): the header's sample rate (\(rate) Hz) is not usable: signalpath reads 1 to 2147483647 Hz"))
    }

    @Test("1024 channels are read; 1025 are refused in signalpath's words, not libsndfile's")
    func channels() throws {
        for channels in [1024, 1025] {
            let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: channels, sampleRate: 8000)
            let path = scratch.write("channels-\(channels).wav", builder.file(samples: [Double](repeating: 0.25, count: channels * 4)))
            do {
                let file = try AudioFile.open(path)
                #expect(channels == 1024 && file.format.channels == 1024 && file.usesDirectPCM)
            } catch {
                #expect(channels == 1025 && error == .malformed(path: path, reason: "1025 channels: signalpath reads 1 to 1024"))
            }
        }
    }

    @Test("An RF64 whose ds64 data size is 2⁶³ − 1 opens (libsndfile skips the chunk by that size: the seek overflowed and trapped)")
    func hugeDataSize() throws {
        let builder = PCMFileBuilder(container: .rf64, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let base = builder.file(samples: [Double](repeating: 0.25, count: 480))
        let field = builder.headerFields(dataBytes: 960).first { $0.name == "ds64 data size" }!
        let path = scratch.write("rf64-huge.wav", field.setting(UInt64(Int64.max), in: base))
        let file = try AudioFile.open(path)
        #expect(file.format.frames == 240)
        #expect(file.format.framesPromised == Int64.max / 4)
    }

    @Test("An RF64 whose ds64 data size is all ones (libsndfile's placeholder while it writes) reads to its end, as a pipe does")
    func placeholderDataSize() throws {
        let builder = PCMFileBuilder(container: .rf64, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let samples = (0..<960).map { Double($0 % 97) / 200 }
        let base = builder.file(samples: samples)
        let field = builder.headerFields(dataBytes: 1920).first { $0.name == "ds64 data size" }!
        let path = scratch.write("rf64-writing.wav", field.setting(UInt64.max, in: base))
        let file = try AudioFile.open(path)
        #expect(file.format.frames == 480 && file.format.framesPromised == nil)
        let read = try file.makeReader().readFrames(0..<480)
        #expect(read.count == 960 && zip(read, samples).allSatisfy { abs(Double($0) - $1) <= 1.0 / 32_768 })
        // The pipe reads it the same way (HeaderSweepTests compares every command's output).
    }
}

extension String.StringInterpolation {
    /// A label fit for a file name.
    fileprivate mutating func appendInterpolation(value: ExtendedFloat) {
        appendLiteral(value.label.replacingOccurrences(of: " ", with: "-"))
    }
}
