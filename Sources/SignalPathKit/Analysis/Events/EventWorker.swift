/// A run of frames that a chunk saw, cut at the chunk's edges: whether it goes on past them is
/// decided from the frames read around the chunk, so the combiner joins pieces exactly.
struct RunPiece: Sendable, Equatable {
    /// Relative to the range.
    var start: Int64
    var end: Int64
    /// The run goes on before `start` (the chunk's first frame continues it) / after `end`.
    var continuesBefore: Bool
    var continuesAfter: Bool
    /// The largest magnitude in the piece (silence, clipping); the repeated value (dropouts).
    var value: Float
    /// Runs of one value: the RMS about the mean of the 10 ms before the run (nil at the range's
    /// start), and after it (nil at the end).
    var flankIn: Float? = nil
    var flankOut: Float? = nil
}

/// One chunk's findings.
struct EventChunk: Sendable {
    var index: Int
    /// Frames scanned, relative to the range.
    var frames: Range<Int64>
    var endOfInput: Int64?
    /// Runs of frames in which every channel is below the silence threshold.
    var silence: [RunPiece] = []
    /// Per channel: runs of full-scale samples, and of one repeated value; the edges of gaps.
    var clipping: [[RunPiece]] = []
    var repeats: [[RunPiece]] = []
    var gapEdges: [[GapEdge]] = []
    /// 1 ms blocks from `firstBlock`, channel fastest: Σ x².
    var firstBlock = 0
    var blockSquares: [Double] = []
    /// 100 ms sub-blocks from `firstSubBlock`: weighted K-energy, and per channel Σ x.
    var firstSubBlock = 0
    var weightedEnergy: [Double] = []
    var sums: [Double] = []
}

/// A worker's reader and scratch for `EventDetector`, reused from chunk to chunk.
///
/// Unchecked Sendable: handed to one child task at a time by `runChunks`.
final class EventWorker: ChunkWorking, @unchecked Sendable {
    private let detector: EventDetector
    private let window: FrameWindow
    private let channels: Int
    /// The loaded frames, one row of `rowLength` per channel.
    private var rows: [Float]
    private let rowLength: Int

    init(detector: EventDetector) throws(SignalPathError) {
        self.detector = detector
        let reader = try detector.file.makeReader()
        reader.limitReadAhead(toFrame: detector.frames.upperBound)
        rowLength = detector.chunkFrames + detector.preRoll + detector.postRoll
        window = FrameWindow(reader: reader, capacity: rowLength)
        channels = detector.file.format.channels
        rows = [Float](repeating: 0, count: rowLength * channels)
    }

    private func ownFrames(_ chunk: Int) -> Range<Int64> {
        let lower = Int64(chunk) * Int64(detector.chunkFrames)
        let upper = lower + Int64(detector.chunkFrames)
        return lower..<min(upper, detector.knownLength ?? upper)
    }

    private func loadedFrames(_ chunk: Int) -> Range<Int64> {
        let own = ownFrames(chunk)
        let upper = own.upperBound + Int64(detector.postRoll)
        return max(0, own.lowerBound - Int64(detector.preRoll))..<min(upper, detector.knownLength ?? upper)
    }

    func load(chunk: Int) async throws(SignalPathError) {
        let frames = loadedFrames(chunk)
        let start = detector.frames.lowerBound
        if let source = detector.file.source, let bytes = detector.file.byteRange(ofFrames: start + frames.lowerBound..<start + frames.upperBound) {
            try await source.load(bytes)
        }
    }

    func process(chunk: Int) throws(SignalPathError) -> EventChunk {
        let own = ownFrames(chunk)
        let wanted = loadedFrames(chunk)
        let placed = try loadInPlace(wanted)
        let load: FrameWindow.ChunkLoad
        if let placed {
            load = placed
        } else {
            load = try window.loadChunk(wanted, rangeStart: detector.frames.lowerBound, knownLength: detector.knownLength, path: detector.file.path)
        }
        let got = load.got, available = load.available, endOfInput = load.endOfInput
        let present = own.lowerBound..<max(own.lowerBound, min(own.upperBound, available))
        var result = EventChunk(index: chunk, frames: present, endOfInput: endOfInput)
        guard !present.isEmpty else { return result }
        if placed == nil { deinterleave(got) }
        let base = wanted.lowerBound
        rows.withUnsafeBufferPointer { rows in
            let context = Scan(
                rows: rows, rowLength: rowLength, channels: channels, base: base, present: present, available: available,
                detector: detector)
            result.silence = context.silence()
            for channel in 0..<channels {
                result.clipping.append(context.clipping(channel))
                result.repeats.append(context.repeats(channel))
                result.gapEdges.append(context.gapEdges(channel))
            }
            context.blocks(into: &result)
            context.subBlocks(into: &result)
        }
        return result
    }

    /// A file's 16-bit samples from the cache straight into the rows, as
    /// `AnalysisWorker.loadInPlace` places them, without the window of Floats
    /// (docs/DECISIONS.md#pcm16-in-place; the same JSON). Nil where the samples are not 16-bit in
    /// the host's order, or the file does not hold them (then the window reads them, and reports a
    /// cut file).
    private func loadInPlace(_ wanted: Range<Int64>) throws(SignalPathError) -> FrameWindow.ChunkLoad? {
        let reader = window.reader
        guard reader.holdsHostInt16, let fileFrames = detector.file.format.frames else { return nil }
        let first = detector.frames.lowerBound + wanted.lowerBound
        let got = Int(max(0, min(Int64(wanted.count), fileFrames - first)))
        let channels = self.channels, rowLength = self.rowLength
        let placed = rows.withUnsafeMutableBufferPointer { rows in
            reader.forEachInt16Piece(first..<first + Int64(got)) { piece, firstFrame in
                PCMDecoder.deinterleave(int16: piece, channels: channels, into: rows.baseAddress! + firstFrame, rowLength: rowLength)
            }
        }
        guard placed else { return nil }
        return try FrameWindow.ChunkLoad(
            got: got, of: wanted, rangeStart: detector.frames.lowerBound, knownLength: detector.knownLength, path: detector.file.path)
    }

    private func deinterleave(_ got: Int) {
        let channels = self.channels, rowLength = self.rowLength
        do {
            let interleaved = window.samples
            rows.withUnsafeMutableBufferPointer { rows in
                for channel in 0..<channels {
                    let row = channel * rowLength
                    for index in 0..<got {
                        let value = interleaved[index &* channels &+ channel]
                        // NaN and ±∞ (float files) are analysed as 0, as analyze does.
                        rows[row &+ index] = value.isFinite ? value : 0
                    }
                }
            }
        }
    }
}

/// The scans of one loaded chunk.
private struct Scan {
    let rows: UnsafeBufferPointer<Float>
    let rowLength: Int
    let channels: Int
    /// The relative frame of each row's first sample.
    let base: Int64
    /// The chunk's own frames that the input holds.
    let present: Range<Int64>
    /// The end of the loaded frames.
    let available: Int64
    let detector: EventDetector

    func sample(_ channel: Int, _ frame: Int64) -> Float { rows[channel * rowLength + Int(frame - base)] }

    /// Runs of frames that satisfy `test` among the present frames: those inside that are shorter
    /// than `minimum` are left out, those that touch an edge are kept whatever their length.
    private func runs(minimum: Int64, _ test: (Int64) -> Bool, value: (Range<Int64>) -> Float) -> [RunPiece] {
        var pieces: [RunPiece] = []
        var start: Int64? = nil
        func close(_ end: Int64) {
            guard let first = start else { return }
            let before = first == present.lowerBound && first > 0 && first - 1 >= base && test(first - 1)
            let after = end == present.upperBound && end < available && test(end)
            if end - first >= minimum || before || after {
                pieces.append(RunPiece(start: first, end: end, continuesBefore: before, continuesAfter: after, value: value(first..<end)))
            }
            start = nil
        }
        for frame in present {
            if test(frame) {
                if start == nil { start = frame }
            } else {
                close(frame)
            }
        }
        close(present.upperBound)
        return pieces
    }

    private func peak(_ frames: Range<Int64>, channels: Range<Int>) -> Float {
        var peak: Float = 0
        for channel in channels {
            let row = channel * rowLength - Int(base)
            for frame in frames { peak = max(peak, abs(rows[row + Int(frame)])) }
        }
        return peak
    }

    func silence() -> [RunPiece] {
        let threshold = detector.settings.silenceAmplitude
        let minimum = Int64((detector.settings.minimumSilence * Double(detector.sampleRate)).rounded(.up))
        return runs(
            minimum: minimum,
            { frame in
                for channel in 0..<channels where abs(sample(channel, frame)) >= threshold { return false }
                return true
            }, value: { peak($0, channels: 0..<channels) })
    }

    func clipping(_ channel: Int) -> [RunPiece] {
        let fullScale = detector.fullScale
        return runs(
            minimum: Int64(detector.settings.minimumClipRun), { abs(sample(channel, $0)) >= fullScale },
            value: { peak($0, channels: channel..<channel + 1) })
    }

    /// Runs of one value: a frame belongs to the run of its predecessor when it equals it. A run
    /// starts at a frame that differs from the one before (or at the range's start).
    func repeats(_ channel: Int) -> [RunPiece] {
        let minimum = Int64(detector.gapFrames)
        let flank = Int64(detector.flankFrames)
        var pieces: [RunPiece] = []
        var start = present.lowerBound
        func equalsPrevious(_ frame: Int64) -> Bool { frame > 0 && frame - 1 >= base && sample(channel, frame) == sample(channel, frame - 1) }
        // Sound is what varies: the RMS about the flank's own mean, so that a held value next to
        // quiet under a DC offset is not "inside sound".
        func variation(_ frames: Range<Int64>) -> Float? {
            guard frames.lowerBound >= 0, frames.lowerBound >= base, frames.upperBound <= available else { return nil }
            var sum = 0.0, squares = 0.0
            for frame in frames {
                let value = Double(sample(channel, frame))
                sum += value
                squares += value * value
            }
            let mean = sum / Double(frames.count)
            return Float(max(0, squares / Double(frames.count) - mean * mean).squareRoot())
        }
        func close(_ end: Int64) {
            let before = start == present.lowerBound && equalsPrevious(start)
            let after = end == present.upperBound && end < available && equalsPrevious(end)
            guard end - start >= minimum || before || after else { return }
            let value = sample(channel, start)
            var piece = RunPiece(start: start, end: end, continuesBefore: before, continuesAfter: after, value: value)
            if !before, start > 0, start - 1 >= base {
                piece.flankIn = variation(start - flank..<start)
            }
            if !after, end < available {
                piece.flankOut = variation(end..<end + flank)
            }
            pieces.append(piece)
        }
        var frame = present.lowerBound + 1
        let row = channel * rowLength - Int(base)
        let samples = rows.baseAddress! + row
        func load(_ frame: Int64) -> SIMD8<Float> { UnsafeRawPointer(samples + Int(frame)).loadUnaligned(as: SIMD8<Float>.self) }
        while frame < present.upperBound {
            // Eight frames each unlike its predecessor (most of any sound): the run before them
            // ends at the first, and each of them is a run of one frame, which `close` keeps only
            // at the chunk's edges (never here, as the eight lie inside) or when one frame is long
            // enough. The same pieces as frame by frame, eight times fewer steps
            // (docs/DECISIONS.md#events-loops).
            if minimum > 1 && frame + 8 <= present.upperBound && all(load(frame) .!= load(frame - 1)) {
                close(frame)
                start = frame + 7
                frame += 8
                continue
            }
            if rows[row + Int(frame)] != rows[row + Int(frame) - 1] {
                close(frame)
                start = frame
            }
            frame += 1
        }
        close(present.upperBound)
        return pieces
    }

    func gapEdges(_ channel: Int) -> [GapEdge] {
        let settings = detector.settings, detector = self.detector
        return GapEdgeSearch(
            samples: rows.baseAddress! + channel * rowLength, base: base, available: available, present: present,
            flankFrames: detector.flankFrames, gapFrames: detector.gapFrames,
            sound: pow(10, (settings.silenceThreshold + EventSettings.soundAboveSilence) / 10), depth: pow(10, -EventSettings.gapDepth / 10),
            step: pow(10, -EventSettings.gapHold / 10),
            blockStart: { detector.blockStart($0) }, block: { detector.block(containing: $0) }
        ).edges()
    }

    /// Σ x² per 1 ms block and channel.
    func blocks(into result: inout EventChunk) {
        let first = detector.block(containing: present.lowerBound)
        let last = detector.block(containing: present.upperBound - 1)
        result.firstBlock = first
        result.blockSquares = [Double](repeating: 0, count: (last - first + 1) * channels)
        for block in first...last {
            let frames = max(present.lowerBound, detector.blockStart(block))..<min(present.upperBound, detector.blockStart(block + 1))
            guard !frames.isEmpty else { continue }
            for channel in 0..<channels {
                let start = rows.baseAddress! + (channel * rowLength + Int(frames.lowerBound - base))
                result.blockSquares[(block - first) * channels + channel] = EventWorker.sumOfSquares(start, count: frames.count)
            }
        }
    }

    /// Per 100 ms sub-block: the weighted K-energy (each filter from rest at the start of the
    /// pre-roll, as `AnalysisWorker` does) and Σ x per channel.
    func subBlocks(into result: inout EventChunk) {
        let first = detector.subBlock(containing: present.lowerBound)
        let last = detector.subBlock(containing: present.upperBound - 1)
        let count = last - first + 1
        result.firstSubBlock = first
        result.weightedEnergy = [Double](repeating: 0, count: count)
        result.sums = [Double](repeating: 0, count: count * channels)
        let pieces = (first...last).map { max(present.lowerBound, detector.subBlockStart($0))..<min(present.upperBound, detector.subBlockStart($0 + 1)) }
        for channel in 0..<channels {
            for (slot, frames) in pieces.enumerated() where !frames.isEmpty {
                let start = rows.baseAddress! + (channel * rowLength + Int(frames.lowerBound - base))
                result.sums[slot * channels + channel] = EventWorker.sum(start, count: frames.count)
            }
        }
        guard detector.measuresLoudness else { return }
        func buffer(_ channel: Int, _ frames: Range<Int64>) -> UnsafeBufferPointer<Float> {
            let offset = channel * rowLength
            return UnsafeBufferPointer(rebasing: rows[offset + Int(frames.lowerBound - base)..<offset + Int(frames.upperBound - base)])
        }
        // The weighted channels two at a time: a pair's filter runs both in one loop, each lane the
        // single channel's arithmetic (a chain of dependent operations, so one channel alone leaves
        // the processor waiting; docs/DECISIONS.md#k-weighting-chain). Each sub-block's energy
        // still adds the channels in order, so the sums are the same bits.
        let weighted = (0..<channels).filter { detector.channelWeights[$0] > 0 }
        var next = 0
        while next < weighted.count {
            if next + 1 < weighted.count {
                let (left, right) = (weighted[next], weighted[next + 1])
                var state = KWeighting.PairState()
                _ = detector.weighting.filter(buffer(left, base..<present.lowerBound), buffer(right, base..<present.lowerBound), state: &state)
                for (slot, frames) in pieces.enumerated() {
                    let energy = detector.weighting.filter(buffer(left, frames), buffer(right, frames), state: &state)
                    result.weightedEnergy[slot] += detector.channelWeights[left] * energy[0]
                    result.weightedEnergy[slot] += detector.channelWeights[right] * energy[1]
                }
                next += 2
            } else {
                let channel = weighted[next]
                var state = KWeighting.State()
                _ = detector.weighting.filter(buffer(channel, base..<present.lowerBound), state: &state)
                for (slot, frames) in pieces.enumerated() {
                    result.weightedEnergy[slot] += detector.channelWeights[channel] * detector.weighting.filter(buffer(channel, frames), state: &state)
                }
                next += 1
            }
        }
    }
}
