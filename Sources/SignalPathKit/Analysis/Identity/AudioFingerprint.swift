/// A file's Chromaprint fingerprint, as `fpcalc` computes it: the first `seconds` of the decoded
/// audio (120 by default, as AcoustID takes them) at the file's own rate and channels, as 16-bit
/// samples converted as FFmpeg converts them for fpcalc.
public struct AudioFingerprint: Sendable, Equatable {
    /// Compressed and base64-encoded (URL-safe, unpadded): `fpcalc`'s FINGERPRINT.
    public var compressed: String
    /// The 32-bit sub-fingerprints, about 8 a second: `fpcalc -raw`'s.
    public var raw: [UInt32]
    /// The audio fingerprinted, seconds.
    public var seconds: Double

    /// Chromaprint's algorithm number (fpcalc's default, AcoustID's).
    public static var algorithm: Int { Int(Chromaprint.algorithm) }

    /// fpcalc's default length, seconds.
    public static let defaultSeconds = 120.0

    /// Reads and fingerprints the first `seconds` of `file` on a reader of its own; nil for a
    /// stream, whose samples the analysis takes, or where Chromaprint finds too little audio.
    public static func compute(_ file: AudioFile, seconds: Double) throws(SignalPathError) -> AudioFingerprint? {
        guard file.isSeekable else { return nil }
        let format = file.format, channels = format.channels
        let limit = Int64((seconds * Double(format.sampleRate)).rounded(.down))
        let printer = try Chromaprint(sampleRate: format.sampleRate, channels: channels)
        let reader = try file.makeReader()
        reader.limitReadAhead(toFrame: limit)
        // FFmpeg's conversion to 16 bits, which fpcalc asks for: integers are shifted down
        // (truncated: 24-bit codes lose their low byte), floats rounded to nearest and clipped.
        let truncates = format.sampleFormat.holdsIntegers
        let blockFrames = 16_384
        var samples = [Float](repeating: 0, count: blockFrames * channels)
        var codes = [Int16](repeating: 0, count: blockFrames * channels)
        var fed: Int64 = 0
        while fed < limit {
            let got = try reader.read(into: &samples, frames: Int(min(Int64(blockFrames), limit - fed)))
            if got == 0 { break }
            let count = got * channels
            for index in 0..<count {
                let scaled = samples[index] * 32768
                let code = truncates ? scaled.rounded(.down) : scaled.rounded(.toNearestOrEven)
                codes[index] = Int16(max(-32768, min(32767, code.isNaN ? 0 : code)))
            }
            codes.withUnsafeBufferPointer { printer.feed(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            fed += Int64(got)
        }
        guard let result = printer.finish(), !result.raw.isEmpty else { return nil }
        return AudioFingerprint(compressed: result.compressed, raw: result.raw, seconds: Double(fed) / Double(format.sampleRate))
    }
}
