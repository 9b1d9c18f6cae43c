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
        var fed = try feedInt16InPlace(reader, to: printer, frames: limit)
        if fed == nil { fed = try feedConverted(reader, to: printer, frames: limit) }
        guard let result = printer.finish(), !result.raw.isEmpty else { return nil }
        return AudioFingerprint(compressed: result.compressed, raw: result.raw, seconds: Double(fed ?? 0) / Double(format.sampleRate))
    }

    /// Feeds 16-bit PCM to the fingerprinter as it lies in the file's cache: the samples FFmpeg's
    /// conversion would give, without decoding them to Floats and back. Returns the frames fed, or
    /// nil, having fed nothing, where the file's samples are not 16-bit in the host's byte order.
    private static func feedInt16InPlace(_ reader: AudioReader, to printer: Chromaprint, frames limit: Int64) throws(SignalPathError) -> Int64? {
        guard reader.holdsHostInt16, let length = reader.file.format.frames else { return nil }
        let frames = 0..<min(limit, length)
        // Whole frames lie 2-byte aligned in every container (their offsets are even); a piece that
        // does not is copied.
        var copy: [Int16] = []
        let placed = reader.forEachInt16Piece(frames) { piece, _ in
            guard let base = piece.baseAddress else { return }
            if Int(bitPattern: base) % MemoryLayout<Int16>.alignment == 0 {
                printer.feed(piece.assumingMemoryBound(to: Int16.self))
            } else {
                copy = [Int16](repeating: 0, count: piece.count / 2)
                copy.withUnsafeMutableBytes { $0.copyMemory(from: piece) }
                copy.withUnsafeBufferPointer { printer.feed($0) }
            }
        }
        // The file's length is what it held when opened: short now, it was cut since.
        guard placed else { throw .malformed(path: reader.file.path, reason: "the file ended before the \(frames.count) frames it held when opened") }
        return Int64(frames.count)
    }

    /// Feeds any other format decoded, converted to 16 bits; returns the frames fed.
    private static func feedConverted(_ reader: AudioReader, to printer: Chromaprint, frames limit: Int64) throws(SignalPathError) -> Int64 {
        let format = reader.file.format, channels = format.channels
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
        return fed
    }
}
