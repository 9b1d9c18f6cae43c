import Dispatch

/// The audio MD5 as FLAC defines it (the STREAMINFO block's MD5): the MD5 of the decoded samples,
/// interleaved, each as a little-endian two's-complement integer of the file's own bit depth in
/// whole bytes (8-bit: 1 byte, signed even where WAV stores it unsigned; 24-bit: 3 bytes). So it
/// is the same for the same samples in WAV, AIFF, FLAC, Wave64 or RF64, whatever the tags.
///
/// Each analysis chunk hands its own frames' bytes (`Source`): where the file stores them as the
/// digest reads them, the file's own bytes as they lie in the cache; otherwise its decoded samples
/// packed again, by the workers, in parallel. The digest, which is sequential, takes them in chunk
/// order on a thread of its own, beside the analysis rather than between its chunks.
///
/// Unchecked Sendable: the digest is touched only on `queue`, a serial queue.
final class AudioMD5: @unchecked Sendable {
    private let digest: MessageDigest
    private let queue = DispatchQueue(label: "signalpath.AudioMD5")
    /// Chunks handed over and not yet digested, at most `backlogLimit`: a digest that falls behind
    /// holds up the merge rather than memory growing with the file.
    private let backlog = DispatchSemaphore(value: AudioMD5.backlogLimit)
    static let backlogLimit = 4

    init() throws(SignalPathError) {
        digest = try MessageDigest(.md5)
    }

    /// Adds a chunk's bytes; chunks come in order. Waits while `backlogLimit` chunks are pending:
    /// it blocks the merging thread, which cannot deadlock, as the queue's thread is not the pool's.
    func add(_ pieces: [FileBytes]) {
        guard !pieces.isEmpty else { return }
        backlog.wait()
        queue.async { [self] in
            for piece in pieces { piece.withUnsafeBytes { digest.update($0) } }
            backlog.signal()
        }
    }

    /// Drops the digest: a chunk's samples use bits below the valid bits the header states
    /// (`Packing.pack` gives nil), where flac refuses the file and so defines no MD5.
    func abandon() {
        queue.async { [self] in abandoned = true }
    }

    /// Only touched on `queue`.
    private var abandoned = false

    /// The digest of everything added, once the thread has taken it all; nil when abandoned.
    func finish() async -> String? {
        await withCheckedContinuation { continuation in
            queue.async { [self] in continuation.resume(returning: abandoned ? nil : digest.finish()) }
        }
    }

    /// Where a chunk's bytes for the digest come from.
    enum Source: Sendable {
        /// The file's own bytes (`storedBytes`): uncompressed PCM whose samples lie as the digest
        /// reads them (signed, little-endian, 8 to 24 bits: WAV, Wave64 and RF64 from 16 bits on,
        /// AIFF-C `sowt`, 8-bit AIFF). No copy and no conversion; the decoded samples are the
        /// same codes over a power of two, so the bytes are those `Packing` would make.
        case stored
        /// The decoded samples packed again (`Packing`); for WAVE_FORMAT_EXTENSIBLE with fewer
        /// valid bits than the container's, at the valid bits (`PCMLayout.validBits`).
        case packed(Packing)

        /// How `file`'s chunks hand their bytes; nil for formats without integer codes that a
        /// Float holds exactly (float, lossy codecs, µ-law and A-law, 32-bit integers).
        init?(_ file: AudioFile) {
            // Fewer valid bits than the word's: hashed at their own depth, as FLAC encodes them.
            if let layout = file.layout, let validBits = layout.validBits, let packing = Packing(validBits: validBits, wordBits: layout.encoding.bytesPerSample * 8) {
                self = .packed(packing)
            } else if file.source != nil, file.format.frames != nil, let layout = file.layout, layout.encoding == .signed8 || !layout.bigEndian,
                [.signed8, .signed16, .signed24].contains(layout.encoding)
            {
                self = .stored
            } else if let packing = Packing(file.format.sampleFormat) {
                self = .packed(packing)
            } else {
                return nil
            }
        }
    }

    /// The bytes of `frames` (absolute) as `file` stores them, one piece per cache block they lie
    /// in, sharing the cache's storage: the blocks a worker has just read, so no read and no copy.
    /// A file that holds fewer of them than its header promised is malformed (the analysis of the
    /// chunk says so first; this covers a file cut while it was read).
    static func storedBytes(_ file: AudioFile, frames: Range<Int64>) throws(SignalPathError) -> [FileBytes] {
        guard !frames.isEmpty else { return [] }
        guard let source = file.source, let bytes = file.byteRange(ofFrames: frames) else {
            throw .malformed(path: file.path, reason: "no stored samples for frames \(frames.lowerBound)..<\(frames.upperBound)")
        }
        var pieces: [FileBytes] = []
        var offset = bytes.lowerBound
        while offset < bytes.upperBound {
            let index = source.blockIndex(containing: offset)
            let block = try source.block(index)
            let start = Int(offset - source.blockRange(index).lowerBound)
            let end = min(block.count, start + Int(bytes.upperBound - offset))
            guard start < end else {
                throw .malformed(path: file.path, reason: "the file ended at byte \(offset), before the samples its header promises")
            }
            pieces.append(block[start..<end])
            offset += Int64(end - start)
        }
        return pieces
    }

    /// How a format's decoded samples become the digest's bytes; nil for formats without integer
    /// codes that a Float holds exactly (float, lossy codecs, µ-law and A-law, 32-bit integers).
    struct Packing: Sendable {
        let bytesPerSample: Int
        /// Full scale in codes: decoded samples are codes over 2^(bits−1) (`AudioReader`).
        let scale: Float
        /// Whether a sample may fail to be a whole code at this depth (fewer valid bits than the
        /// word's, the low bits in use), which `pack` then refuses.
        let checksWholeCodes: Bool

        init?(_ format: SampleFormat) {
            switch format {
            case .pcm(let bits, _) where (1...24).contains(bits), .lossless(_, let bits) where (1...24).contains(bits):
                bytesPerSample = (bits + 7) / 8
                scale = Float(1 << (bits - 1))
                checksWholeCodes = false
            default:
                return nil
            }
        }

        /// `validBits` of words of `wordBits`; nil for words of more than 24 bits, whose codes a
        /// Float does not hold exactly.
        init?(validBits: Int, wordBits: Int) {
            guard wordBits <= 24, (1..<wordBits).contains(validBits), let packing = Packing(.pcm(bits: validBits, signed: true)) else { return nil }
            bytesPerSample = packing.bytesPerSample
            scale = packing.scale
            checksWholeCodes = true
        }

        /// The frames of `rows` (one per channel, of equal length) interleaved as the digest reads
        /// them; nil when a sample is no whole code at this depth (`checksWholeCodes`).
        func pack(_ rows: [UnsafeBufferPointer<Float>]) -> [UInt8]? {
            let frames = rows.first?.count ?? 0, channels = rows.count, width = bytesPerSample, scale = self.scale
            if checksWholeCodes, rows.contains(where: { row in row.contains { ($0 * scale).rounded(.towardZero) != $0 * scale } }) { return nil }
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
