/// Computes the averaged spectrum of a frame range (Welch's method): overlapping windowed
/// segments, one FFT per segment and channel, combined per bin.
///
/// Segments are grouped in chunks of `segmentsPerChunk`; chunks run in parallel in a task group,
/// each on a worker's own reader, FFT buffers and scratch, and their partial results are combined in
/// chunk order. Because the grouping and the order do not depend on the number of workers, the
/// result is bit-identical with one worker or many. A stream of unknown length is analysed by one
/// worker, chunk after chunk, until it ends.
public struct SpectrumAnalyzer: Sendable {
    public let file: AudioFile
    /// The frames asked for; for a stream of unknown length the upper bound is `Int64.max`.
    public let frames: Range<Int64>
    public let channels: ChannelSelection
    /// Per result channel, the file channel it shows (nil: the mix of all), and its name.
    let sourceChannels: [Int?]
    public let channelNames: [String]
    /// The parameters in use: the window shrinks to fit a range shorter than it.
    public let parameters: SpectrumParameters
    /// Segments in the range, or nil when a stream's length is unknown until it ends.
    public let segmentCount: Int?

    /// Segments per chunk of work: about 5 s of 48 kHz audio with the default hop.
    static let segmentsPerChunk = 128
    /// Median averaging keeps every segment's power; beyond this many bytes it is refused.
    static let medianMemoryLimit = 256 << 20

    /// Prepares the analysis of `frames` of `file`.
    /// - Throws: `SignalPathError.invalidRequest` for a channel the file lacks, or median averaging
    ///   over more segments than memory allows.
    public init(
        file: AudioFile, frames: Range<Int64>, channels: ChannelSelection,
        parameters: SpectrumParameters
    ) throws(SignalPathError) {
        precondition(SpectrumParameters.fftSizeRange.contains(parameters.fftSize) && parameters.fftSize % 2 == 0)
        precondition(parameters.windowSize >= 2 && parameters.windowSize <= parameters.fftSize)
        precondition(parameters.overlap >= 0 && parameters.overlap < 1)
        precondition(!frames.isEmpty)
        sourceChannels = try channels.sourceChannels(in: file.format.channelLayout, path: file.path)
        channelNames = channels.names(in: file.format.channelLayout)
        let parameters = parameters.fitted(to: frames)
        self.file = file
        self.frames = frames
        self.channels = channels
        self.parameters = parameters
        segmentCount =
            frames.upperBound == Int64.max
            ? nil
            : Int((Int64(frames.count) - Int64(parameters.windowSize)) / Int64(parameters.hop)) + 1
        if let segmentCount { try checkMedianMemory(segments: segmentCount) }
    }

    /// Median averaging keeps every segment's power: refuse what would not fit.
    func checkMedianMemory(segments: Int) throws(SignalPathError) {
        guard parameters.averaging == .median else { return }
        let bytes = segments * (parameters.fftSize / 2 + 1) * sourceChannels.count * 4
        if bytes > SpectrumAnalyzer.medianMemoryLimit {
            throw .invalidRequest(
                path: file.path, reason: "median averaging over \(segments) segments would need \(UnitFormat.bytes(Int64(bytes))); use a shorter range or --average mean")
        }
    }

    /// Runs the analysis on up to `workers` tasks (one for a stream, which reads front to back);
    /// `progress` hears the fraction done (0…1) as chunks merge (not for a stream of unknown length).
    public func run(workers: Int = 2, progress: (Double) -> Void = { _ in }) async throws(SignalPathError) -> PowerSpectrum {
        let window = WindowTable.shared(parameters.window, size: parameters.windowSize)
        let combiner = ChunkCombiner(
            averaging: parameters.averaging, channels: sourceChannels.count,
            bins: parameters.fftSize / 2 + 1)
        guard let segmentCount else {
            return finish(combiner, segments: try runToEnd(combiner, window: window))
        }
        let chunkCount = (segmentCount + Self.segmentsPerChunk - 1) / Self.segmentsPerChunk
        let workerCount = file.isSeekable ? max(1, min(workers, chunkCount)) : 1  // a stream has one reader
        var pool: [ChunkWorker] = []
        for _ in 0..<workerCount {
            pool.append(ChunkWorker(analyzer: self, reader: try file.makeReader(), window: window))
        }
        var merged = 0
        try await runChunks(chunkCount, on: pool, path: file.path) { result in
            combiner.add(result)
            merged += 1
            progress(Double(merged) / Double(chunkCount))
        }
        return finish(combiner, segments: segmentCount)
    }

    /// A stream of unknown length: one worker, chunk after chunk, until a chunk comes out short.
    private func runToEnd(_ combiner: ChunkCombiner, window: WindowTable) throws(SignalPathError) -> Int {
        let worker = ChunkWorker(analyzer: self, reader: try file.makeReader(), window: window)
        var segments = 0
        for chunk in 0... {
            let result = try worker.process(chunk: chunk)
            segments += result.segments
            try checkMedianMemory(segments: segments)
            combiner.add(result)
            if result.segments < Self.segmentsPerChunk { break }
        }
        guard segments > 0 else {
            throw .invalidRequest(path: file.path, reason: "the stream holds fewer frames than one \(parameters.windowSize)-frame window; use a smaller --window-size")
        }
        return segments
    }

    private func finish(_ combiner: ChunkCombiner, segments: Int) -> PowerSpectrum {
        var spectrum = PowerSpectrum(
            path: file.path, sampleRate: file.format.sampleRate, parameters: parameters, channelNames: channelNames, firstFrame: frames.lowerBound,
            segments: segments, power: combiner.power(segments: segments))
        spectrum.stream = file.namedStream
        return spectrum
    }
}

/// One chunk's contribution: per channel and bin, the sum (mean), extreme (max/min) or every
/// segment's value (median).
struct ChunkResult: Sendable {
    var index: Int
    /// Segments in the chunk: `segmentsPerChunk`, fewer for the last.
    var segments: Int
    /// Per channel and bin, channel after channel.
    var values: [Double]
    /// For median averaging: per channel, the chunk's segments' power, segment after segment.
    var segmentPower: [[Float]]
}

/// A worker's reader, FFT and scratch, reused from chunk to chunk.
///
/// Unchecked Sendable: a worker is handed to exactly one child task at a time and handed back with
/// its result; the task group's hand-off orders the accesses.
final class ChunkWorker: ChunkWorking, @unchecked Sendable {
    private let analyzer: SpectrumAnalyzer
    private let frames: FrameWindow
    private let transform: SegmentTransform
    /// The file channels shown, when the file's samples are 16-bit PCM read in place and no result
    /// is a mix: then `spectrum` neither decodes to Float nor moves each window's kept half
    /// (docs/DECISIONS.md#pcm16-in-place).
    private let int16Channels: [Int]?

    init(analyzer: SpectrumAnalyzer, reader: AudioReader, window: WindowTable) {
        self.analyzer = analyzer
        let parameters = analyzer.parameters
        let shown = analyzer.sourceChannels.compactMap { $0 }
        int16Channels = reader.holdsHostInt16 && shown.count == analyzer.sourceChannels.count ? shown : nil
        frames = FrameWindow(reader: reader, capacity: parameters.windowSize)
        reader.limitReadAhead(toFrame: analyzer.frames.upperBound)
        transform = SegmentTransform(fftSize: parameters.fftSize, window: window)
    }

    /// The segments of chunk `chunk` (open-ended for a stream of unknown length).
    private func segments(ofChunk chunk: Int) -> Range<Int> {
        let first = chunk * SpectrumAnalyzer.segmentsPerChunk
        return first..<min(first + SpectrumAnalyzer.segmentsPerChunk, analyzer.segmentCount ?? Int.max)
    }

    /// The frame where segment `segment` starts.
    private func start(ofSegment segment: Int) -> Int64 {
        analyzer.frames.lowerBound + Int64(segment) * Int64(analyzer.parameters.hop)
    }

    /// The frames chunk `chunk` reads.
    private func frames(ofChunk chunk: Int) -> Range<Int64> {
        let segments = segments(ofChunk: chunk)
        return start(ofSegment: segments.lowerBound)..<start(ofSegment: segments.upperBound - 1) + Int64(analyzer.parameters.windowSize)
    }

    /// Brings the chunk's bytes into the cache without blocking a thread, where the format lets us
    /// know which bytes those are; `process` then decodes from memory.
    func load(chunk: Int) async throws(SignalPathError) {
        if let source = analyzer.file.source, let bytes = analyzer.file.byteRange(ofFrames: frames(ofChunk: chunk)) {
            try await source.load(bytes)
        }
    }

    func process(chunk: Int) throws(SignalPathError) -> ChunkResult {
        let parameters = analyzer.parameters
        let bins = transform.binCount
        let fileChannels = frames.channels
        let selected = analyzer.sourceChannels.count
        let windowSize = parameters.windowSize
        var done = 0
        let averaging = parameters.averaging
        // Channel after channel in one flat array: the per-bin loops run on plain pointers.
        var values = [Double](repeating: averaging.identity, count: bins * selected)
        var segmentPower = [[Float]](repeating: [], count: averaging == .median ? selected : 0)
        func add(_ output: Int) {
            if averaging == .median {
                segmentPower[output] += transform.power[0..<bins]
                return
            }
            values.withUnsafeMutableBufferPointer { all in
                transform.combine(into: UnsafeMutableBufferPointer(rebasing: all[output * bins..<(output + 1) * bins]), averaging)
            }
        }
        // A mean sums each transform's power as it is made (one pass where the processor allows).
        func transformed(_ output: Int, _ run: (SegmentTransform.Accumulation?) -> Void) {
            guard averaging == .mean else {
                run(nil)
                return add(output)
            }
            values.withUnsafeMutableBufferPointer { all in
                run(SegmentTransform.Accumulation(sums: UnsafeMutableBufferPointer(rebasing: all[output * bins..<(output + 1) * bins]), band: nil))
            }
        }
        for segment in segments(ofChunk: chunk) {
            let start = start(ofSegment: segment)
            let segmentFrames = start..<start + Int64(windowSize)
            // 16-bit PCM is windowed where it lies; a segment across two cache blocks is decoded.
            var inPlace = false
            if let channels = int16Channels {
                inPlace =
                    frames.reader.withInt16Frames(segmentFrames) { (raw: UnsafeRawBufferPointer) -> Void in
                        for (output, channel) in channels.enumerated() {
                            transformed(output) { transform.transform(int16: raw, channels: fileChannels, channel: channel, accumulating: $0) }
                        }
                    } != nil
            }
            if !inPlace {
                guard try frames.load(segmentFrames) == windowSize else {
                    if analyzer.segmentCount == nil { break }  // the end of a stream
                    throw .malformed(path: analyzer.file.path, reason: "the file ended before frame \(segmentFrames.upperBound)")
                }
                for output in 0..<selected {
                    transformed(output) {
                        transform.transform(frames.samples, firstFrame: 0, channels: fileChannels, channel: analyzer.sourceChannels[output], accumulating: $0)
                    }
                }
            }
            done += 1
        }
        return ChunkResult(index: chunk, segments: done, values: values, segmentPower: segmentPower)
    }
}

/// Combines chunk results in chunk order, whatever order they finish in.
final class ChunkCombiner {
    private let averaging: Averaging
    private let channels: Int
    private let bins: Int
    /// Per channel and bin, channel after channel: the sum (mean), maximum or minimum so far.
    private var total: [Double]
    private var medianValues: [[Float]]
    private var merger = InOrderMerger<ChunkResult>()

    init(averaging: Averaging, channels: Int, bins: Int) {
        self.averaging = averaging
        self.channels = channels
        self.bins = bins
        total = [Double](repeating: averaging.identity, count: channels * bins)
        medianValues = [[Float]](repeating: [], count: averaging == .median ? channels : 0)
    }

    func add(_ result: ChunkResult) {
        merger.add(result, index: result.index) { merge($0) }
    }

    private func merge(_ next: ChunkResult) {
        if averaging == .median {
            for channel in medianValues.indices { medianValues[channel] += next.segmentPower[channel] }
            return
        }
        for index in total.indices { total[index] = averaging.combine(total[index], next.values[index]) }
    }

    /// Per channel and bin, the power of the `segments` segments merged so far, combined.
    func power(segments: Int) -> [[Double]] {
        Self.combined(averaging, totals: total, medianValues: medianValues, channels: channels, segments: segments)
    }

    /// Per channel and bin, `segments` segments' power combined as `averaging` says, from what was
    /// kept of them: `totals` (channel after channel, the same number of bins each) holds the sum
    /// (mean), maximum or minimum; `medianValues` every segment's power per channel (median). The
    /// one place where kept segments become a spectrum, for `spectrum`'s range and for each column
    /// of a spectrogram.
    static func combined(_ averaging: Averaging, totals: [Double], medianValues: [[Float]], channels: Int, segments: Int) -> [[Double]] {
        let bins = totals.count / channels
        switch averaging {
        case .mean: return PowerSpectrum.meanPower(summed: totals, channels: channels, segments: segments)
        case .max, .min: return (0..<channels).map { Array(totals[$0 * bins..<($0 + 1) * bins]) }
        case .median: return medianValues.map { median(of: $0, segments: segments, bins: bins) }
        }
    }

    /// Per bin, the median of `segments` segments' power (`values`: segment after segment, `bins`
    /// each), divided by the median's bias for noise (`medianBias`) so that on noise it estimates
    /// the mean.
    static func median(of values: [Float], segments: Int, bins: Int) -> [Double] {
        let bias = medianBias(segments)
        var column = [Float](repeating: 0, count: segments)
        return (0..<bins).map { bin in
            for segment in 0..<segments { column[segment] = values[segment * bins + bin] }
            column.sort()
            let middle = segments / 2
            let median = segments % 2 == 1 ? Double(column[middle]) : (Double(column[middle - 1]) + Double(column[middle])) / 2
            return median / bias
        }
    }

    /// The expected ratio of the median to the mean of `n` χ²₂ values (power of noise in one bin),
    /// as scipy's `_median_bias` computes it: 1 + Σ_{k=1}^{(n−1)/2} (1/(2k+1) − 1/(2k)).
    static func medianBias(_ n: Int) -> Double {
        var bias = 1.0
        if n >= 3 {
            for k in 1...(n - 1) / 2 { bias += 1 / Double(2 * k + 1) - 1 / Double(2 * k) }
        }
        return bias
    }
}

extension Averaging {
    /// The value a combination starts from: 0 for a sum, ∓∞ for a maximum or minimum.
    var identity: Double {
        switch self {
        case .mean, .median: return 0
        case .max: return -.infinity
        case .min: return .infinity
        }
    }

    /// Two partial results combined: summed (mean), the larger (max) or the smaller (min).
    /// Median keeps every value instead and does not combine.
    func combine(_ a: Double, _ b: Double) -> Double {
        switch self {
        case .mean: return a + b
        case .max: return Swift.max(a, b)
        case .min: return Swift.min(a, b)
        case .median: preconditionFailure("median keeps every segment's value")
        }
    }
}
