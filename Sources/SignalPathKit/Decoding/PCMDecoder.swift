import SignalPathAVX2

/// Converts uncompressed PCM bytes to Float directly, without libsndfile.
///
/// The conversions repeat libsndfile's arithmetic exactly (integer → Float, then a multiply by
/// 2^-7, 2^-15 or 2^-31), so the samples are bit-identical to `sf_readf_float` with its default
/// normalisation; the tests check this on every encoding and byte order.
final class PCMDecoder: FrameDecoder {
    private let layout: PCMLayout
    private let cursor: ByteCursor
    private let path: String
    private var frame: Int64 = 0
    /// One frame's bytes, for the frame that straddles two cache blocks.
    private var frameBytes: [UInt8]

    /// Decodes the samples `layout` describes, reading them through `cursor` (a file's or a stream's).
    init(layout: PCMLayout, cursor: ByteCursor, path: String) {
        self.layout = layout
        self.cursor = cursor
        self.path = path
        frameBytes = [UInt8](repeating: 0, count: layout.bytesPerFrame)
    }

    func seek(toFrame frame: Int64) throws(SignalPathError) {
        guard frame >= 0 && frame <= layout.frames ?? Int64.max else {
            throw SignalPathError.invalidRequest(path: path, reason: "cannot seek to frame \(frame)")
        }
        self.frame = frame
    }

    func limitReadAhead(toFrame frame: Int64) {
        let (bytes, overflow) = frame.multipliedReportingOverflow(by: Int64(layout.bytesPerFrame))
        let (end, overflowAgain) = bytes.addingReportingOverflow(layout.dataOffset)
        cursor.limitReadAhead(to: overflow || overflowAgain ? Int64.max : end)  // "to the end of a stream"
    }

    func read(into out: UnsafeMutableBufferPointer<Float>, frames: Int) throws(SignalPathError) -> Int {
        let remaining = layout.frames.map { $0 - frame } ?? Int64.max  // a stream of unknown length: until it ends
        let wanted = Int(max(0, min(Int64(frames), remaining)))
        guard wanted > 0 else { return 0 }
        let channels = layout.channels
        precondition(out.count >= wanted * channels)
        let done = forEachPiece(from: frame, count: wanted) { piece, first in
            convert(piece, samples: piece.count / layout.bytesPerFrame * channels, into: UnsafeMutableBufferPointer(rebasing: out[(first * channels)...]))
        }
        // Short without an error: the end of a stream, or a file that shrank since it was opened.
        if done < wanted, let error = cursor.error { throw error }
        frame += Int64(done)
        return done
    }

    /// Hands `body` the bytes of `count` frames from frame `start` on, piece by piece, each piece
    /// whole frames as they lie in memory (a cache block, the stream's buffer) with the index of
    /// its first frame among them; only a frame that straddles two blocks is copied, and handed on
    /// its own. Returns how many frames were handed, fewer at the end of the data.
    private func forEachPiece(from start: Int64, count: Int, _ body: (UnsafeRawBufferPointer, Int) -> Void) -> Int {
        let bytesPerFrame = layout.bytesPerFrame
        cursor.seek(to: layout.dataOffset + start * Int64(bytesPerFrame))
        var done = 0
        while done < count {
            let first = done
            let used = cursor.peek(upTo: (count - done) * bytesPerFrame) { bytes in
                let whole = bytes.count / bytesPerFrame
                guard whole > 0 else { return 0 }
                body(UnsafeRawBufferPointer(rebasing: bytes[..<(whole * bytesPerFrame)]), first)
                return whole * bytesPerFrame
            }
            if used > 0 {
                done += used / bytesPerFrame
                continue
            }
            guard frameBytes.withUnsafeMutableBytes({ cursor.read(into: $0) }) == bytesPerFrame else { break }
            frameBytes.withUnsafeBytes { body($0, first) }
            done += 1
        }
        return done
    }

    /// True for 16-bit samples in the host's byte order, which `withInt16Frames` and
    /// `forEachInt16Piece` hand out as they lie.
    var holdsHostInt16: Bool {
        layout.encoding == .signed16 && layout.bigEndian == (1.littleEndian != 1)
    }

    /// True when `frames` of host-order 16-bit samples lie within what the header promises.
    private func handsOutInt16(_ frames: Range<Int64>) -> Bool {
        holdsHostInt16 && frames.lowerBound >= 0 && frames.upperBound <= layout.frames ?? Int64.max
    }

    /// Hands `body` the interleaved 16-bit samples of `frames` where they lie in memory in one piece
    /// (a cache block), unconverted; nil when the samples are not `holdsHostInt16`, or the frames
    /// straddle two blocks, or the file does not hold them all (then `read` decodes them, and
    /// reports a cut file). The decoder's position does not move.
    func withInt16Frames<Result>(_ frames: Range<Int64>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard handsOutInt16(frames) else { return nil }
        let bytesPerFrame = layout.bytesPerFrame
        let count = frames.count * bytesPerFrame
        var result: Result?
        cursor.seek(to: layout.dataOffset + frames.lowerBound * Int64(bytesPerFrame))
        _ = cursor.peek(upTo: count) { bytes in
            if bytes.count == count { result = body(bytes) }
            return 0
        }
        return result
    }

    /// `forEachPiece` over the interleaved 16-bit samples of `frames`; false, perhaps after some
    /// pieces, when the samples are not `holdsHostInt16` or the file does not hold them all (then
    /// `read` decodes them, and reports a cut file). The decoder's position does not move.
    func forEachInt16Piece(_ frames: Range<Int64>, _ body: (UnsafeRawBufferPointer, Int) -> Void) -> Bool {
        handsOutInt16(frames) && forEachPiece(from: frames.lowerBound, count: frames.count, body) == frames.count
    }

    /// Asks the cursor (a stream's) to keep in memory the `frames` frames before the furthest one read.
    func keepBehind(frames: Int) {
        cursor.keepBehind(frames * layout.bytesPerFrame)
    }

    /// `forEachPiece` over the interleaved 16-bit samples of `frames` of a stream, as they arrive,
    /// until the stream ends or reaches the frames its header promises; returns how many frames
    /// were handed. A stream's read error is thrown; so is a start further back than the stream
    /// still holds (`keepBehind`). The decoder's position does not move.
    func forEachStreamedInt16Piece(_ frames: Range<Int64>, _ body: (UnsafeRawBufferPointer, Int) -> Void) throws(SignalPathError) -> Int {
        precondition(holdsHostInt16 && frames.lowerBound >= 0)
        let count = Int(max(0, min(Int64(frames.count), (layout.frames ?? Int64.max) - frames.lowerBound)))
        let done = forEachPiece(from: frames.lowerBound, count: count, body)
        if done < count, let error = cursor.error { throw error }
        return done
    }

    /// Converts `count` samples from `raw` into the start of `out`.
    private func convert(_ raw: UnsafeRawBufferPointer, samples count: Int, into out: UnsafeMutableBufferPointer<Float>) {
        let swap = layout.bigEndian == (1.littleEndian == 1)  // bytes differ from the host's order
        switch layout.encoding {
        case .unsigned8:
            for index in 0..<count { out[index] = Float(Int32(raw[index]) - 128) * 0x1p-7 }
        case .signed8:
            for index in 0..<count { out[index] = Float(Int8(bitPattern: raw[index])) * 0x1p-7 }
        case .signed16:
            // `PCMInt16` converts what it can (built for AVX2 in `PCMAVX2`: the same values), this
            // loop the rest and the other byte order.
            let done =
                swap || count < 16
                ? 0
                : ProcessorFeatures.hasX86_64_v3
                    ? PCMAVX2.int16ToFloat(raw.baseAddress!, count: count, into: out.baseAddress!)
                    : PCMInt16.toFloat(raw.baseAddress!, count: count, into: out.baseAddress!)
            Self.convertIntegers(
                UnsafeRawBufferPointer(rebasing: raw[(done &* 2)...]), UnsafeMutableBufferPointer(rebasing: out[done...]), count: count - done,
                as: Int16.self, swap: swap, scale: 0x1p-15)
        case .signed24:
            for index in 0..<count {
                let offset = index &* 3
                let (high, middle, low) =
                    layout.bigEndian
                    ? (raw[offset], raw[offset + 1], raw[offset + 2])
                    : (raw[offset + 2], raw[offset + 1], raw[offset])
                // Placed in the top 24 bits of an Int32, as libsndfile does, then scaled by 2^-31.
                let value = Int32(bitPattern: UInt32(high) << 24 | UInt32(middle) << 16 | UInt32(low) << 8)
                out[index] = Float(value) * 0x1p-31
            }
        case .signed32:
            Self.convertIntegers(raw, out, count: count, as: Int32.self, swap: swap, scale: 0x1p-31)
        case .float32:
            for index in 0..<count {
                let bits = raw.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self)
                out[index] = Float(bitPattern: swap ? bits.byteSwapped : bits)
            }
        case .float64:
            for index in 0..<count {
                let bits = raw.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)
                out[index] = Float(Double(bitPattern: swap ? bits.byteSwapped : bits))
            }
        }
    }

    /// Integer samples to Float, with the byte-order test outside the loop and wrapping offset
    /// arithmetic (`&*`, no overflow trap), so the common case (file order = host order)
    /// vectorises. LLVM makes an SSE loop of it (four at a time); sixteen at a time with AVX2 was
    /// no faster: it waits on memory (docs/DECISIONS.md#pcm-decode-loop).
    @inline(__always)
    private static func convertIntegers<Sample: FixedWidthInteger & SignedInteger>(
        _ raw: UnsafeRawBufferPointer, _ out: UnsafeMutableBufferPointer<Float>, count: Int,
        as type: Sample.Type, swap: Bool, scale: Float
    ) {
        let width = MemoryLayout<Sample>.size
        if swap {
            for index in 0..<count {
                out[index] = Float(raw.loadUnaligned(fromByteOffset: index &* width, as: Sample.self).byteSwapped) * scale
            }
        } else {
            for index in 0..<count {
                out[index] = Float(raw.loadUnaligned(fromByteOffset: index &* width, as: Sample.self)) * scale
            }
        }
    }
}
