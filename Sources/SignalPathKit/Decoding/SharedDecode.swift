/// One front-to-back decode of an FFmpeg file, shared by the file's readers: the analysis workers
/// take chunks in order, so together they read the file front to back, and one decoder going
/// forward serves them all from the blocks it keeps.
///
/// Why: FFmpeg's seeks are not exact for every codec (AAC with noise substitution draws its noise
/// from a generator a seek resets), so each reader decoded forward over the chunks other workers
/// took — with two workers, the whole file twice; `analyze` of a 10-minute AAC M4A was 3.7× the
/// time of `ffmpeg -f null` (BENCHMARKS.md, the M4A rows, has the figures). Shared, the
/// file is decoded once, the samples are those of a decode from the start, and so identical for
/// any number of workers.
///
/// A read the kept blocks cannot serve (behind the oldest block, or further ahead than
/// `FFmpeg.forwardDecodeSeconds`, where FFmpeg seeks by the index) goes to the reader's own
/// decoder (`SharedDecodeReader`). Blocks are dropped once every reader has passed them, and
/// beyond `keptSamples` whatever a reader still needs (it then falls back): memory stays bounded.
///
/// Unchecked Sendable: every access to the decoder and the blocks happens inside `lock`.
final class SharedDecode: @unchecked Sendable {
    private let lock = Lock()
    private let decoder: FFmpeg
    let channels: Int
    /// How far ahead of the decoded end a read is still served by decoding forward.
    let forwardFrames: Int64
    /// Frames per block: 16 384 (0.34 s at 48 kHz; 16 AAC packets per lock taken). Blocks are
    /// dropped whole, so smaller ones keep less behind the slowest reader.
    static let blockFrames = 16384
    /// At most this many samples are kept (8 MiB of Float): two workers' chunks of 2¹⁹ samples with
    /// their settling and look-ahead need about 1.2 M. A worker that falls further behind (on a
    /// loaded machine, analyze's peak RSS on the 10-minute M4A grew by ~15 MB with 32 MiB allowed)
    /// reads on with its own decoder, which decodes forward from where it last was: at most one
    /// more pass over the file, never a wait for the others.
    static let keptSamples = 1 << 21

    private struct Block {
        var start: Int64
        var count: Int
        var samples: [Float]
        var end: Int64 { start + Int64(count) }
    }

    private var blocks: [Block] = []
    private var spare: [[Float]] = []
    /// The first frame not yet decoded.
    private var decodedEnd: Int64 = 0
    private var ended = false
    /// Each registered reader's position: blocks before all of them are no longer needed.
    private var positions: [Int: Int64] = [:]
    private var nextReader = 0

    /// `decoder` is at frame 0 and from now on used only here.
    init(decoder: FFmpeg) {
        self.decoder = decoder
        channels = decoder.format.channels
        forwardFrames = decoder.facts.seeksByIndex ? Int64(decoder.forwardDecodeSeconds * Double(decoder.format.sampleRate)) : Int64.max
    }

    /// A number for a new reader at frame 0.
    func register() -> Int {
        lock.withLock {
            nextReader += 1
            positions[nextReader] = 0
            return nextReader
        }
    }

    func unregister(_ reader: Int) {
        lock.withLock { _ = positions.removeValue(forKey: reader) }
    }

    /// Copies up to `frames` frames from frame `position` into the start of `buffer`, decoding
    /// forward as needed; 0 at the end of the stream; nil when the kept blocks cannot serve it.
    func read(
        reader: Int, position: Int64, into buffer: UnsafeMutableBufferPointer<Float>, frames: Int
    ) -> Result<Int, SignalPathError>? {
        lock.withLock { () -> Result<Int, SignalPathError>? in
            positions[reader] = position
            if let first = blocks.first, position < first.start { return nil }
            if blocks.isEmpty && position < decodedEnd { return nil }
            if position >= decodedEnd && position - decodedEnd > forwardFrames { return nil }
            while position >= decodedEnd {
                if ended { return .success(0) }
                do throws(SignalPathError) {
                    try decodeBlock()
                } catch {
                    return .failure(error)
                }
            }
            guard let index = blocks.lastIndex(where: { $0.start <= position }) else { return nil }
            let block = blocks[index]
            let from = Int(position - block.start)
            let count = min(frames, block.count - from)
            block.samples.withUnsafeBufferPointer { samples in
                buffer.baseAddress!.update(from: samples.baseAddress! + from * channels, count: count * channels)
            }
            positions[reader] = position + Int64(count)
            return .success(count)
        }
    }

    /// Decodes the next block, dropping blocks every reader has passed (and the oldest beyond
    /// `keptSamples`) and reusing their storage.
    private func decodeBlock() throws(SignalPathError) {
        let lowest = positions.values.min() ?? decodedEnd
        while let first = blocks.first, first.end <= lowest || (blocks.count + 1) * Self.blockFrames * channels > Self.keptSamples {
            spare.append(blocks.removeFirst().samples)
        }
        var samples = spare.popLast() ?? [Float](repeating: 0, count: Self.blockFrames * channels)
        var count = 0
        while count < Self.blockFrames {
            let got = try samples.withUnsafeMutableBufferPointer { (samples) throws(SignalPathError) in
                try decoder.read(into: UnsafeMutableBufferPointer(rebasing: samples[(count * channels)...]), frames: Self.blockFrames - count)
            }
            if got == 0 {
                ended = true
                break
            }
            count += got
        }
        guard count > 0 else {
            spare.append(samples)
            return
        }
        blocks.append(Block(start: decodedEnd, count: count, samples: samples))
        decodedEnd += Int64(count)
    }
}
