#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A worker's reader, frame window, FFT and scratch for `SignalAnalyzer`, reused from chunk to chunk.
///
/// Unchecked Sendable: a worker is handed to exactly one child task at a time and handed back with
/// its result; the task group's hand-off orders the accesses.
final class AnalysisWorker: @unchecked Sendable {
    private let analyzer: SignalAnalyzer
    private let window: FrameWindow
    private let transform: SegmentTransform
    private let meter = TruePeakMeter()
    private let rules: LevelStatistics.Rules
    /// One channel of the loaded frames, contiguous, with `padding` zeros before and after: the
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
        planar = [Float](repeating: 0, count: capacity + 2 * Self.padding)
        transform = SegmentTransform(fftSize: spectrum.fftSize, window: WindowTable.shared(spectrum.window, size: spectrum.windowSize))
        rules = LevelStatistics.Rules(fullScale: Self.fullScale(analyzer.file.format.sampleFormat),
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
           let bytes = analyzer.file.byteRange(ofFrames: start + frames.lowerBound..<start + frames.upperBound) {
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
                throw .malformed(path: analyzer.file.path, reason: "the file ended at frame \(rangeStart + available), before the \(rangeStart + wanted.upperBound) its header promises")
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
        let needed = got + 2 * padding
        precondition(planar.count >= needed)
        /// Index into `planar` of relative frame `frame`.
        func offset(_ frame: Int64) -> Int { Int(frame - wanted.lowerBound) + padding }
        for channel in 0..<channels {
            window.samples.withUnsafeBufferPointer { interleaved in
                planar.withUnsafeMutableBufferPointer { planar in
                    for index in 0..<padding { planar[index] = 0 }
                    // NaN and ±∞ (float files) become 0, counted: they would poison the filters and FFTs.
                    var nonFinite: Int64 = 0
                    for frame in 0..<got {
                        let value = interleaved[frame &* channels &+ channel]
                        if value.isFinite {
                            planar[padding &+ frame] = value
                        } else {
                            planar[padding &+ frame] = 0
                            if Int64(frame) + wanted.lowerBound >= own.lowerBound && Int64(frame) + wanted.lowerBound < ownEnd { nonFinite += 1 }
                        }
                    }
                    result.nonFiniteSamples.append(nonFinite)
                    for index in padding + got..<needed { planar[index] = 0 }
                }
            }
            planar.withUnsafeBufferPointer { planar in
                func samples(_ frames: Range<Int64>) -> UnsafeBufferPointer<Float> {
                    UnsafeBufferPointer(rebasing: planar[offset(frames.lowerBound)..<offset(frames.upperBound)])
                }
                var levels = LevelStatistics()
                var state = KWeighting.State()
                _ = analyzer.weighting.filter(samples(wanted.lowerBound..<own.lowerBound), state: &state)
                var frame = own.lowerBound
                var subBlock = firstSubBlock
                while frame < ownEnd {
                    let pieceEnd = min(ownEnd, analyzer.subBlockStart(subBlock + 1))
                    let piece = samples(frame..<pieceEnd)
                    let slot = subBlock - firstSubBlock
                    result.squares[slot * channels + channel] += levels.accumulate(piece, firstFrame: rangeStart + frame, rules: rules)
                    result.weightedEnergy[slot] += analyzer.channelWeights[channel] * analyzer.weighting.filter(piece, state: &state)
                    frame = pieceEnd
                    subBlock += 1
                }
                // The interpolation filter rings on for 11 samples past the last one.
                let peakEnd = isLast ? endOfInput! + Int64(padding) : ownEnd
                result.truePeaks.append(meter.peak(planar, range: offset(own.lowerBound)..<offset(peakEnd), above: levels.peak))
                result.levels.append(levels)
                result.power.withUnsafeMutableBufferPointer { power in
                    let channelPower = UnsafeMutableBufferPointer(rebasing: power[channel * bins..<(channel + 1) * bins])
                    for start in segmentStarts {
                        transform.transform(planar, firstFrame: offset(start), channels: 1, channel: 0)
                        transform.combine(into: channelPower, .mean)
                    }
                }
            }
        }
        return result
    }
}
