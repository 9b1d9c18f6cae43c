import Dispatch
/// `compare`'s work: are A and B bit-identical over A's range (then nothing else runs); if not,
/// how B lines up with A (`AlignmentEstimator`), and, in one forward pass over both files, B
/// resampled to A's rate and corrected for drift by libsoxr, shifted by the remaining fraction of
/// a sample (`FractionalDelay`), scaled by 1/gain and subtracted from A. Both files are read in
/// pieces: memory stays bounded whatever their length.
public struct SignalComparator: Sendable {
    /// The largest delay searched, either way, in seconds.
    public var maximumDelaySeconds: Double
    /// Frames of A per piece of the pass.
    static let chunkFrames = 65536
    /// Points of the spectra's segments (Hann window).
    static let segmentFrames = 8192
    /// The spectra average at most about this many segments, spread evenly over a long overlap.
    static let maximumSegments = 2048

    public init(maximumDelaySeconds: Double = 1) {
        self.maximumDelaySeconds = maximumDelaySeconds
    }

    public func compare(
        _ a: AudioFile, frames range: Range<Int64>, with b: AudioFile, channels selection: ChannelSelection, progress: (Double) -> Void = { _ in }
    ) throws(SignalPathError) -> SignalComparison {
        let sourcesA = try selection.sourceChannels(in: a.format.channelLayout, path: a.path)
        let sourcesB = try selection.sourceChannels(in: b.format.channelLayout, path: b.path)
        guard sourcesA.count == sourcesB.count else {
            throw .invalidRequest(
                path: b.path,
                reason: "has \(b.format.channels) channel\(b.format.channels == 1 ? "" : "s") and \(a.path) \(a.format.channels): "
                    + "compare one channel (--channel 1, left, …) or their mix (--channel mix)")
        }
        var result = SignalComparison(
            pathA: a.path, pathB: b.path, sampleRateA: a.format.sampleRate, sampleRateB: b.format.sampleRate,
            channelNames: selection.names(in: a.format.channelLayout), startSeconds: Double(range.lowerBound) / Double(a.format.sampleRate),
            framesCompared: Int64(range.count), identical: false)
        guard range.count > 0 else { throw .invalidRequest(path: a.path, reason: "the range compared is empty") }
        if try Self.identicalSamples(a, sourcesA, b, sourcesB, range: range) {
            result.identical = true
            return result
        }
        let readerA = try SelectedFrames(file: a, sources: sourcesA)
        let readerB = try SelectedFrames(file: b, sources: sourcesB)
        let lag = max(1, Int(maximumDelaySeconds * Double(a.format.sampleRate)))
        let alignment = try AlignmentEstimator(a: readerA, b: readerB, range: range, maximumLag: lag).estimate()
        result.alignment = alignment
        result.residual = try residual(readerA, readerB, range: range, alignment: alignment, progress: progress)
        return result
    }

    /// True when both decode to the same bits over `range` and B ends where A's range does.
    static func identicalSamples(_ a: AudioFile, _ sourcesA: [Int?], _ b: AudioFile, _ sourcesB: [Int?], range: Range<Int64>) throws(SignalPathError) -> Bool {
        guard a.format.sampleRate == b.format.sampleRate else { return false }
        if let framesA = a.format.frames, let framesB = b.format.frames, framesA != framesB { return false }
        let first = try SelectedFrames(file: a, sources: sourcesA), second = try SelectedFrames(file: b, sources: sourcesB)
        try first.seek(toFrame: range.lowerBound)
        guard b.format.frames.map({ range.lowerBound <= $0 }) ?? true else { return false }
        try second.seek(toFrame: range.lowerBound)
        var next = range.lowerBound
        var samplesA: [Float] = [], samplesB: [Float] = []
        while next < range.upperBound {
            let frames = Int(min(Int64(chunkFrames), range.upperBound - next))
            samplesA.removeAll(keepingCapacity: true)
            samplesB.removeAll(keepingCapacity: true)
            let countA = try first.read(frames: frames, appendingTo: &samplesA)
            var countB = 0
            while countB < countA {
                let count = try second.read(frames: countA - countB, appendingTo: &samplesB)
                if count == 0 { break }
                countB += count
            }
            guard countA > 0, countA == countB else { return countA == 0 && countB == 0 && next == range.upperBound }
            let same = samplesA.withUnsafeBytes { bytesA in samplesB.withUnsafeBytes { bytesB in memcmp(bytesA.baseAddress!, bytesB.baseAddress!, bytesA.count) == 0 } }
            guard same else { return false }
            next += Int64(countA)
        }
        // B must end here too (when the range runs to A's end).
        guard range.upperBound == a.format.frames else { return true }
        samplesB.removeAll(keepingCapacity: true)
        return try second.read(frames: 1, appendingTo: &samplesB) == 0
    }

    /// The pass: B aligned to A frame by frame, the residual's sums, peak, seconds and spectra.
    private func residual(
        _ readerA: SelectedFrames, _ readerB: SelectedFrames, range: Range<Int64>, alignment: Alignment, progress: (Double) -> Void
    ) throws(SignalPathError) -> SignalComparison.Residual {
        let channels = readerA.channels
        let rateA = Double(readerA.file.format.sampleRate), rateB = Double(readerB.file.format.sampleRate)
        let perFrame = rateB / rateA, stretch = 1 + alignment.drift, step = stretch * perFrame
        let delay = alignment.delay
        // B's frame (fractional) that A's frame t meets.
        func frameOfB(_ t: Double) -> Double { (t * stretch + delay) * perFrame }
        func frameOfA(_ frameB: Double) -> Double { (frameB / perFrame - delay) / stretch }
        let half = FractionalDelay.halfLength
        // The overlap: A's frames whose B frame has the interpolator's reach inside B.
        let reach = Double(half + 1) * step
        var start = range.lowerBound, end = range.upperBound
        if frameOfB(Double(start)) < reach { start = max(start, Int64(frameOfA(reach).rounded(.up))) }
        if let framesB = readerB.file.format.frames, frameOfB(Double(end - 1)) > Double(framesB) - reach {
            end = min(end, Int64(frameOfA(Double(framesB) - reach).rounded(.down)) + 1)
        }
        guard end > start else {
            throw .invalidRequest(path: readerB.file.path, reason: "does not overlap \(readerA.file.path) once aligned (delay \(UnitFormat.fixed(delay / rateA, 3)) s)")
        }
        let resampler: Resampler? =
            perFrame == 1 && alignment.drift == 0 ? nil : try Resampler(inputRate: rateB, outputRate: rateA / stretch, channels: channels)
        // Where B's samples (resampled: their output) begin, and the fractional index of A's first frame in them.
        let lead = resampler == nil ? 0 : 4096
        let firstB = Int64((frameOfB(Double(start)) - Double(half) * step).rounded(.down)) - Int64(lead)
        let position = (frameOfB(Double(start)) - Double(firstB)) / step
        var offset = Int(position.rounded(.down))
        var fraction = position - Double(offset)
        if fraction > 1 - 1e-9 {
            offset += 1
            fraction = 0
        } else if fraction < 1e-9 {
            fraction = 0
        }
        let interpolator = fraction == 0 ? nil : FractionalDelay(fraction: fraction)

        var source = try AlignedSource(reader: readerB, resampler: resampler, firstFrame: firstB, channels: channels)
        defer { source.stop() }
        try readerA.seek(toFrame: start)
        var accumulator = ResidualAccumulator(
            channels: channels, sampleRate: Int(rateA), inverseGain: Float(1 / alignment.gain), totalFrames: Int(end - start),
            segmentFrames: Self.segmentFrames, maximumSegments: Self.maximumSegments)
        var samplesA: [Float] = [], aligned: [Float] = []
        let total = Int(end - start)
        var done = 0
        while done < total {
            var frames = min(Self.chunkFrames, total - done)
            samplesA.removeAll(keepingCapacity: true)
            var read = 0
            while read < frames {
                let count = try readerA.read(frames: frames - read, appendingTo: &samplesA)
                if count == 0 { break }
                read += count
            }
            frames = read
            let available = try source.fill(upTo: done + frames + offset + half)
            frames = min(frames, available - offset - half - done)
            if frames <= 0 { break }
            if aligned.count < frames * channels { aligned = [Float](repeating: 0, count: frames * channels) }
            source.withSamples(from: done + offset) { samples in
                aligned.withUnsafeMutableBufferPointer { output in
                    if let interpolator {
                        interpolator.apply(samples, channels: channels, frames: frames, into: output.baseAddress!)
                    } else {
                        output.baseAddress!.update(from: samples, count: frames * channels)
                    }
                }
            }
            accumulator.add(a: samplesA, b: aligned, frames: frames)
            done += frames
            source.discard(before: done + offset - half + 1)
            progress(Double(done) / Double(total))
        }
        guard done > 0 else { throw .invalidRequest(path: readerB.file.path, reason: "does not overlap \(readerA.file.path) once aligned") }
        return accumulator.result(startSeconds: Double(start) / rateA)
    }
}

/// B's samples as the pass needs them: from its frame `firstFrame` on (zeros before its start),
/// through the resampler when there is one, kept from the earliest index still needed. They are
/// decoded and resampled a few pieces ahead on a thread of their own (`PieceProducer`), so that
/// decoding B and the rest of the pass run side by side.
private struct AlignedSource {
    let channels: Int
    private let producer: PieceProducer
    /// Index (in output frames) of `samples`' first frame.
    private var base = 0
    private var samples: [Float] = []
    private var ended = false

    init(reader: SelectedFrames, resampler: Resampler?, firstFrame: Int64, channels: Int) throws(SignalPathError) {
        self.channels = channels
        producer = try PieceProducer(reader: reader, resampler: resampler, firstFrame: firstFrame, channels: channels)
        producer.start()
    }

    /// Lets the producing thread end (the pass may stop before B does).
    func stop() { producer.stop() }

    /// Makes frames up to index `end` (exclusive) available where B has them; returns the index
    /// after the last frame available.
    mutating func fill(upTo end: Int) throws(SignalPathError) -> Int {
        while base + samples.count / channels < end && !ended {
            guard let piece = try producer.next() else {
                ended = true
                break
            }
            samples.append(contentsOf: piece)
        }
        return base + samples.count / channels
    }

    /// Hands `body` a pointer to frame `index` (frames before it, back to the kept ones, readable).
    func withSamples(from index: Int, _ body: (UnsafePointer<Float>) -> Void) {
        samples.withUnsafeBufferPointer { body($0.baseAddress! + (index - base) * channels) }
    }

    /// Forgets the frames before `index`.
    mutating func discard(before index: Int) {
        let count = min(samples.count / channels, index - base)
        guard count > 0 else { return }
        samples.removeFirst(count * channels)
        base += count
    }
}

/// Decodes B (and resamples it) piece by piece on its own thread, up to `ahead` pieces before the
/// pass takes them.
private final class PieceProducer: @unchecked Sendable {
    // @unchecked: the reader and the resampler are used only by the producing thread once it has
    // started; `pieces` and `stopped` only under `condition`.
    private let reader: SelectedFrames
    private let resampler: Resampler?
    private let channels: Int
    private var pendingZeros: Int
    private let condition = Condition()
    /// Decoded pieces in order; an empty piece is the end of B.
    private var pieces: [Result<[Float], SignalPathError>] = []
    private var stopped = false
    static let ahead = 4
    static let pieceFrames = 65536

    init(reader: SelectedFrames, resampler: Resampler?, firstFrame: Int64, channels: Int) throws(SignalPathError) {
        self.reader = reader
        self.resampler = resampler
        self.channels = channels
        pendingZeros = Int(max(0, -firstFrame))
        try reader.seek(toFrame: max(0, firstFrame))
    }

    func start() {
        // A queue of its own: the producer blocks while `ahead` pieces wait, which must not hold
        // up the cooperative pool.
        DispatchQueue(label: "signalpath.compare.B").async { [self] in produce() }
    }

    private func produce() {
        var raw: [Float] = []
        while true {
            var piece: [Float] = []
            var finished = false
            do throws(SignalPathError) {
                raw.removeAll(keepingCapacity: true)
                if pendingZeros > 0 {
                    let zeros = min(pendingZeros, Self.pieceFrames)
                    raw.append(contentsOf: repeatElement(0, count: zeros * channels))
                    pendingZeros -= zeros
                } else if try reader.read(frames: Self.pieceFrames, appendingTo: &raw) == 0 {
                    finished = true
                    resampler?.flush(appendingTo: &piece)
                }
                if !finished {
                    if let resampler { raw.withUnsafeBufferPointer { resampler.process($0, appendingTo: &piece) } } else { piece = raw }
                }
            } catch {
                _ = push(.failure(error))
                return
            }
            if !piece.isEmpty && !push(.success(piece)) { return }
            if finished {
                _ = push(.success([]))
                return
            }
        }
    }

    /// Queues `item`, waiting while `ahead` pieces are waiting; false once the pass has stopped.
    private func push(_ item: Result<[Float], SignalPathError>) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while pieces.count >= Self.ahead && !stopped { condition.wait() }
        guard !stopped else { return false }
        pieces.append(item)
        condition.broadcast()
        return true
    }

    /// The next piece; nil at the end of B.
    func next() throws(SignalPathError) -> [Float]? {
        condition.lock()
        while pieces.isEmpty { condition.wait() }
        let item = pieces.removeFirst()
        condition.broadcast()
        condition.unlock()
        switch item {
        case .success(let piece): return piece.isEmpty ? nil : piece
        case .failure(let error): throw error
        }
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
