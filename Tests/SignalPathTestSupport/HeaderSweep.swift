import Foundation

/// Files whose headers are well formed except for one numeric field set to a boundary value, for
/// every numeric field of WAV, WAVE_FORMAT_EXTENSIBLE, RF64, Wave64, AIFF and AIFF-C (as
/// `PCMFileBuilder` lays them out from the specifications); float data full of NaN, infinities,
/// 1e38 and denormals; and data chunks that promise more than the file holds.
public enum HeaderSweep {
    public struct Case: Sendable {
        /// A file name that says what was changed: `wav-fmt_sample_rate-4294967295.wav`.
        public var name: String
        public var bytes: [UInt8]
        /// The header field and value changed, or nil for the data and truncation cases.
        public var field: String?
        /// True when the file is shorter than its data chunk says (the truncation cases).
        public var truncated = false
    }

    /// Frames in each base file: small, so that even at 1 Hz `replay` has few frames to show.
    public static let frames = 240

    /// Every case; the values that give the base file back are left out.
    public static func cases() -> [Case] {
        var cases: [Case] = []
        var seen = Set<[UInt8]>()
        func add(_ name: String, _ bytes: [UInt8], field: String?, truncated: Bool = false) {
            guard seen.insert(bytes).inserted else { return }
            cases.append(Case(name: name, bytes: bytes, field: field, truncated: truncated))
        }
        let tone = (0..<frames * 2).map { 0.5 * sin(Double($0 / 2) * 2 * .pi * 1000 / 48_000) }
        for container in PCMFileBuilder.Container.allCases {
            let builder = PCMFileBuilder(
                container: container, encoding: .signed16, channels: 2, sampleRate: container == .aiff || container == .aifcSowt ? 44_100 : 48_000)
            let base = builder.file(samples: tone)
            add("\(container)-base.\(container.fileExtension)", base, field: nil)
            for field in builder.headerFields(dataBytes: UInt64(tone.count * 2)) {
                let slug = field.name.replacingOccurrences(of: " ", with: "_")
                if field.isExtended {
                    for value in ExtendedFloat.sampleRateBoundaries {
                        let label = value.label.replacingOccurrences(of: " ", with: "_")
                        add("\(container)-\(slug)-\(label).\(container.fileExtension)", field.setting(value, in: base), field: field.name)
                    }
                } else {
                    for value in field.boundaryValues(typical: field.value(in: base)) {
                        add("\(container)-\(slug)-\(value).\(container.fileExtension)", field.setting(value, in: base), field: field.name)
                    }
                }
            }
            // The header promises two seconds; the file holds 1000 bytes of them.
            let promised = builder.header(dataBytes: UInt64(2 * builder.sampleRate * builder.bytesPerFrame))
            add(
                "\(container)-truncated.\(container.fileExtension)", promised + builder.sampleBytes(Array(tone.prefix(500))), field: nil,
                truncated: true)
        }
        // Float data: NaN, ±∞, ±1e38 (whose squares overflow a Float), denormals, and a tone with
        // every kind sprinkled in; 64-bit floats beyond a Float's range.
        let single = PCMFileBuilder(container: .wav, encoding: .float32, channels: 2, sampleRate: 48_000)
        let double = PCMFileBuilder(container: .wav, encoding: .float64, channels: 1, sampleRate: 48_000)
        let count = frames * 2
        let specials: [(String, PCMFileBuilder, [Double])] = [
            ("float32-nan", single, [Double](repeating: .nan, count: count)),
            ("float32-inf", single, (0..<count).map { $0 % 2 == 0 ? .infinity : -.infinity }),
            ("float32-1e38", single, (0..<count).map { $0 % 2 == 0 ? 1e38 : -1e38 }),
            ("float32-max", single, [Double](repeating: Double(Float.greatestFiniteMagnitude), count: count)),
            ("float32-denormal", single, (0..<count).map { Double(Float.leastNonzeroMagnitude) * Double($0 % 7) }),
            ("float32-mixed", single, tone.enumerated().map { [.nan, .infinity, 1e38, 1e-42, -.infinity, $1][$0 % 6] }),
            ("float64-1e300", double, (0..<frames).map { $0 % 2 == 0 ? 1e300 : -1e300 }),
            ("float64-nan-denormal", double, (0..<frames).map { $0 % 2 == 0 ? .nan : 4 * Double.leastNonzeroMagnitude }),
        ]
        for (name, builder, samples) in specials { add(name + ".wav", builder.file(samples: samples), field: nil) }
        return cases
    }
}

extension PCMFileBuilder.Container {
    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .wav, .wavExtensible, .rf64: return "wav"
        case .w64: return "w64"
        case .aiff: return "aiff"
        case .aifcSowt: return "aifc"
        }
    }
}
