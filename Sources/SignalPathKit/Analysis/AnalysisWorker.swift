/// A worker's reader, frame window, FFT and scratch for `SignalAnalyzer`, reused from chunk to chunk.
///
/// Unchecked Sendable: a worker is handed to exactly one child task at a time and handed back with
/// its result; the task group's hand-off orders the accesses.
final class AnalysisWorker: ChunkWorking, @unchecked Sendable {
    private let analyzer: SignalAnalyzer
    private let window: FrameWindow
    private let transform: SegmentTransform
    private let meter = TruePeakMeter()
    private let rules: LevelStatistics.Rules
    /// The loaded frames, one row per channel, each with `padding` zeros before and after: the
    /// true-peak filter reads 11 samples back, and past the end of the input.
    private var planar: [Float]
    private static let padding = TruePeakMeter.taps - 1

    init(analyzer: SignalAnalyzer) throws(SignalPathError) {
        self.analyzer = analyzer
        let reader = try analyzer.file.makeReader()
        reader.limitReadAhead(toFrame: analyzer.frames.upperBound)
        let spectrum = analyzer.spectrum
        let capacity = analyzer.chunkFrames + analyzer.settlingFrames + spectrum.windowSize
        // Scratch at its largest, once: a buffer that is freed and grown again raises glibc's mmap
        // threshold above DispatchIO's 1 MiB read buffers, which then fragment the heap until
        // memory grows with the file.
        window = FrameWindow(reader: reader, capacity: capacity)
        planar = [Float](repeating: 0, count: (capacity + 2 * Self.padding) * analyzer.file.format.channels)
        transform = SegmentTransform(fftSize: spectrum.fftSize, window: WindowTable.shared(spectrum.window, size: spectrum.windowSize))
        rules = LevelStatistics.Rules(
            fullScale: Self.fullScale(analyzer.file.format.sampleFormat),
            minimumClipRun: analyzer.settings.minimumClipRun,
            silenceThreshold: Float(pow(10, analyzer.settings.silenceThreshold / 20)),
            finestBitExponent: Self.finestBitExponent(analyzer.file.format.sampleFormat))
    }

    /// The magnitude of the largest code: 1 − 2^−(bits−1) for integer PCM (which rounds to 1.0 in a
    /// Float for 32 bits), the largest decoded value for µ-law and A-law, 1.0 otherwise.
    static func fullScale(_ format: SampleFormat) -> Float {
        switch format {
        case .pcm(let bits, _), .lossless(_, let bits):
            return Float(1 - 1 / Double(Int64(1) << Int64(max(1, min(bits, 62)) - 1)))
        case .ulaw: return 32124 / 32768
        case .alaw: return 32256 / 32768
        case .float, .compressed: return 1
        }
    }

    /// The exponent of the finest bit the format holds: −(bits − 1) for integer PCM, −15 for µ-law
    /// and A-law (16-bit codes), −149 (the smallest Float) otherwise.
    static func finestBitExponent(_ format: SampleFormat) -> Int {
        switch format {
        case .pcm(let bits, _), .lossless(_, let bits): return -(max(1, min(bits, 32)) - 1)
        case .ulaw, .alaw: return -15
        case .float, .compressed: return -149
        }
    }

    /// Copies the `got` loaded frames into the channels' rows (after their front padding) and
    /// zeroes the padding around them. Stereo goes eight samples at a time.
    private func deinterleave(got: Int, rowLength: Int) {
        let channels = window.channels, padding = Self.padding
        window.samples.withUnsafeBufferPointer { interleaved in
            planar.withUnsafeMutableBufferPointer { planar in
                let base = planar.baseAddress!
                for channel in 0..<channels {
                    let row = base + channel * rowLength
                    for index in 0..<padding { row[index] = 0 }
                    for index in padding + got..<min(rowLength, got + 2 * padding) { row[index] = 0 }
                }
                var frame = 0
                if channels == 2 {
                    let left = base + padding, right = base + rowLength + padding
                    let source = UnsafeRawPointer(interleaved.baseAddress!)
                    while frame &+ 4 <= got {
                        let pairs = source.loadUnaligned(fromByteOffset: frame &* 8, as: SIMD8<Float>.self)
                        UnsafeMutableRawPointer(left + frame).storeBytes(of: pairs.evenHalf, as: SIMD4<Float>.self)
                        UnsafeMutableRawPointer(right + frame).storeBytes(of: pairs.oddHalf, as: SIMD4<Float>.self)
                        frame &+= 4
                    }
                }
                for channel in 0..<channels {
                    let row = base + channel * rowLength + padding
                    for index in frame..<got { row[index] = interleaved[index &* channels &+ channel] }
                }
            }
        }
    }

    /// Replaces NaN and ±∞ in `range` of `row` with 0; returns how many of them lay in `counting`.
    private static func zeroNonFinite(_ row: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>, counting: Range<Int>) -> Int64 {
        var count: Int64 = 0
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + 256, range.upperBound)
            if !LevelStatistics.allFinite(UnsafeBufferPointer(rebasing: row[start..<end])) {
                for index in start..<end where !row[index].isFinite {
                    row[index] = 0
                    if counting.contains(index) { count += 1 }
                }
            }
            start = end
        }
        return count
    }

    /// The chunk's own frames, relative to the range.
    private func ownFrames(_ chunk: Int) -> Range<Int64> {
        let lower = Int64(chunk) * Int64(analyzer.chunkFrames)
        let upper = lower + Int64(analyzer.chunkFrames)
        return lower..<min(upper, analyzer.knownLength ?? upper)
    }

    /// The frames a chunk reads: its own, the filter's settling time before, and after them the
    /// rest of the spectrum segments that start in it.
    private func loadedFrames(_ chunk: Int) -> Range<Int64> {
        let own = ownFrames(chunk)
        let upper = own.upperBound + Int64(analyzer.spectrum.windowSize)
        return max(0, own.lowerBound - Int64(analyzer.settlingFrames))..<min(upper, analyzer.knownLength ?? upper)
    }

    /// Brings the chunk's bytes into the cache without blocking a thread, where the format lets us
    /// know which bytes those are.
    func load(chunk: Int) async throws(SignalPathError) {
        let frames = loadedFrames(chunk)
        let start = analyzer.frames.lowerBound
        if let source = analyzer.file.source,
            let bytes = analyzer.file.byteRange(ofFrames: start + frames.lowerBound..<start + frames.upperBound)
        {
            try await source.load(bytes)
        }
    }

    func process(chunk: Int) throws(SignalPathError) -> AnalysisChunk {
        let channels = window.channels
        let own = ownFrames(chunk)
        let wanted = loadedFrames(chunk)
        let rangeStart = analyzer.frames.lowerBound
        let got = try window.load(rangeStart + wanted.lowerBound..<rangeStart + wanted.upperBound)
        let available = wanted.lowerBound + Int64(got)
        var endOfInput: Int64? = nil
        if got < wanted.count {
            if analyzer.knownLength != nil {
                throw .malformed(
                    path: analyzer.file.path, reason: "the file ended at frame \(rangeStart + available), before the \(rangeStart + wanted.upperBound) its header promises")
            }
            endOfInput = available
        } else if let length = analyzer.knownLength, wanted.upperBound == length {
            endOfInput = length
        }
        let ownEnd = max(own.lowerBound, min(own.upperBound, available))
        let isLast = endOfInput.map { $0 <= own.upperBound } ?? false

        let hop = Int64(analyzer.spectrum.hop), windowSize = Int64(analyzer.spectrum.windowSize)
        let segmentStarts = stride(from: (own.lowerBound + hop - 1) / hop * hop, to: own.upperBound, by: Int(hop))
            .filter { $0 + windowSize <= available }
        let firstSubBlock = analyzer.subBlock(containing: own.lowerBound)
        let subBlocks = ownEnd > own.lowerBound ? analyzer.subBlock(containing: ownEnd - 1) - firstSubBlock + 1 : 0
        let bins = transform.binCount
        var result = AnalysisChunk(
            index: chunk, levels: [], truePeaks: [], nonFiniteSamples: [], firstSubBlock: firstSubBlock,
            weightedEnergy: [Double](repeating: 0, count: subBlocks), squares: [Double](repeating: 0, count: subBlocks * channels),
            power: [Double](repeating: 0, count: bins * channels), segments: segmentStarts.count,
            frames: own.lowerBound..<ownEnd, endOfInput: endOfInput)

        let padding = Self.padding
        let rowLength = planar.count / channels
        precondition(got + 2 * padding <= rowLength)
        /// Index into a channel's row of `planar` of relative frame `frame`.
        func offset(_ frame: Int64) -> Int { Int(frame - wanted.lowerBound) + padding }
        /// Calls `body` with each piece of the chunk's own frames that lies in one 100 ms sub-block,
        /// and that sub-block's slot in the chunk's arrays.
        func forEachSubBlockPiece(_ body: (Range<Int64>, Int) -> Void) {
            var frame = own.lowerBound
            var subBlock = firstSubBlock
            while frame < ownEnd {
                let pieceEnd = min(ownEnd, analyzer.subBlockStart(subBlock + 1))
                body(frame..<pieceEnd, subBlock - firstSubBlock)
                frame = pieceEnd
                subBlock += 1
            }
        }
        deinterleave(got: got, rowLength: rowLength)
        planar.withUnsafeMutableBufferPointer { planar in
            for channel in 0..<channels {
                let row = UnsafeMutableBufferPointer(rebasing: planar[channel * rowLength..<(channel + 1) * rowLength])
                // NaN and ±∞ (float files) become 0, counted: they would poison the filters and FFTs.
                result.nonFiniteSamples.append(Self.zeroNonFinite(row, padding..<padding + got, counting: offset(own.lowerBound)..<offset(ownEnd)))
            }
        }
        planar.withUnsafeBufferPointer { planar in
            func row(_ channel: Int) -> UnsafeBufferPointer<Float> {
                UnsafeBufferPointer(rebasing: planar[channel * rowLength..<(channel + 1) * rowLength])
            }
            func samples(_ channel: Int, _ frames: Range<Int64>) -> UnsafeBufferPointer<Float> {
                UnsafeBufferPointer(rebasing: row(channel)[offset(frames.lowerBound)..<offset(frames.upperBound)])
            }
            for channel in 0..<channels {
                var levels = LevelStatistics()
                forEachSubBlockPiece { piece, slot in
                    result.squares[slot * channels + channel] += levels.accumulate(samples(channel, piece), firstFrame: rangeStart + piece.lowerBound, rules: rules)
                }
                // The interpolation filter rings on for 11 samples past the last one.
                let peakEnd = isLast ? endOfInput! + Int64(padding) : ownEnd
                result.truePeaks.append(meter.peak(row(channel), range: offset(own.lowerBound)..<offset(peakEnd), above: levels.peak))
                result.levels.append(levels)
                result.power.withUnsafeMutableBufferPointer { power in
                    let channelPower = UnsafeMutableBufferPointer(rebasing: power[channel * bins..<(channel + 1) * bins])
                    for start in segmentStarts {
                        transform.transform(row(channel), firstFrame: offset(start), channels: 1, channel: 0)
                        transform.combine(into: channelPower, .mean)
                    }
                }
            }
            // K-weighting, two channels per loop where there are two: their filter chains are
            // independent, so one loop runs both in about the time of one. Each starts from rest
            // at the start of the settling frames.
            let weighting = analyzer.weighting, weights = analyzer.channelWeights
            for first in stride(from: 0, to: channels, by: 2) {
                if first + 1 < channels {
                    var state = KWeighting.PairState()
                    _ = weighting.filter(
                        samples(first, wanted.lowerBound..<own.lowerBound), samples(first + 1, wanted.lowerBound..<own.lowerBound),
                        state: &state)
                    forEachSubBlockPiece { piece, slot in
                        let energy = weighting.filter(samples(first, piece), samples(first + 1, piece), state: &state)
                        result.weightedEnergy[slot] += weights[first] * energy[0] + weights[first + 1] * energy[1]
                    }
                } else {
                    var state = KWeighting.State()
                    _ = weighting.filter(samples(first, wanted.lowerBound..<own.lowerBound), state: &state)
                    forEachSubBlockPiece { piece, slot in
                        result.weightedEnergy[slot] += weights[first] * weighting.filter(samples(first, piece), state: &state)
                    }
                }
            }
        }
        return result
    }
}
