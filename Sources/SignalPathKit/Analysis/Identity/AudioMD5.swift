/// The audio MD5 as FLAC defines it (the STREAMINFO block's MD5): the MD5 of the decoded samples,
/// interleaved, each as a little-endian two's-complement integer of the file's own bit depth in
/// whole bytes (8-bit: 1 byte, signed even where WAV stores it unsigned; 24-bit: 3 bytes). So it
/// is the same for the same samples in WAV, AIFF, FLAC, Wave64 or RF64, whatever the tags.
///
/// The analysis workers turn their chunk's own frames into those bytes (`Packing`), in parallel;
/// the digest, which is sequential, takes them as the chunks merge, in chunk order.
final class AudioMD5 {
    private let digest: MessageDigest

    init() throws(SignalPathError) {
        digest = try MessageDigest(.md5)
    }

    /// Adds a chunk's bytes; chunks come in order.
    func add(_ bytes: [UInt8]?) {
        bytes?.withUnsafeBytes { digest.update($0) }
    }

    func finish() -> String { digest.finish() }

    /// How a format's decoded samples become the digest's bytes; nil for formats without integer
    /// codes that a Float holds exactly (float, lossy codecs, µ-law and A-law, 32-bit integers).
    struct Packing: Sendable {
        let bytesPerSample: Int
        /// Full scale in codes: decoded samples are codes over 2^(bits−1) (`AudioReader`).
        let scale: Float

        init?(_ format: SampleFormat) {
            switch format {
            case .pcm(let bits, _) where (1...24).contains(bits), .lossless(_, let bits) where (1...24).contains(bits):
                bytesPerSample = (bits + 7) / 8
                scale = Float(1 << (bits - 1))
            default:
                return nil
            }
        }

        /// The frames of `rows` (one per channel, of equal length) interleaved as the digest reads them.
        func pack(_ rows: [UnsafeBufferPointer<Float>]) -> [UInt8] {
            let frames = rows.first?.count ?? 0, channels = rows.count, width = bytesPerSample, scale = self.scale
            return [UInt8](unsafeUninitializedCapacity: frames * channels * width) { bytes, count in
                let base = UnsafeMutableRawPointer(bytes.baseAddress!)
                for (channel, row) in rows.enumerated() {
                    var at = channel * width
                    let stride = channels * width
                    // Exact: every sample is a whole number of codes over a power of two.
                    switch width {
                    case 1:
                        for sample in row {
                            base.storeBytes(of: Int8(sample * scale), toByteOffset: at, as: Int8.self)
                            at += stride
                        }
                    case 2:
                        for sample in row {
                            base.storeBytes(of: Int16(sample * scale).littleEndian, toByteOffset: at, as: Int16.self)
                            at += stride
                        }
                    default:
                        for sample in row {
                            let code = Int32(sample * scale)
                            base.storeBytes(of: UInt8(truncatingIfNeeded: code), toByteOffset: at, as: UInt8.self)
                            base.storeBytes(of: UInt8(truncatingIfNeeded: code >> 8), toByteOffset: at + 1, as: UInt8.self)
                            base.storeBytes(of: UInt8(truncatingIfNeeded: code >> 16), toByteOffset: at + 2, as: UInt8.self)
                            at += stride
                        }
                    }
                }
                count = frames * channels * width
            }
        }
    }
}
