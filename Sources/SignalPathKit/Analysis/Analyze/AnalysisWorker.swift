/// A worker's reader, frame window, FFT and scratch for `SignalAnalyzer`, reused from chunk to chunk.
///
/// A chunk goes through named steps (`process(chunk:)`): load the window, deinterleave it into
/// rows and clean out non-finite samples, levels per 100 ms sub-block, true peak, the spectrum's
/// segments, K-weighting. Scratch is allocated once, at its largest, so no step allocates.
///
/// Unchecked Sendable: a worker is handed to exactly one child task at a time and handed back with
/// its result; the task group's hand-off orders the accesses.
final class AnalysisWorker: ChunkWorking, @unchecked Sendable {
    let analyzer: SignalAnalyzer
    /// The worker's own reader's window; nil for a worker fed chunks a stream's one reader loaded
    /// (`process(_:)`).
    let window: FrameWindow?
    let transform: SegmentTransform
    /// Where each segment's content ends (authenticity's evidence); nil for a loudness pass.
    let edgeProbe: SpectralEdgeProbe?
    /// Made when the worker's first chunk with an excerpt comes (`FrameGridProbe.searches`).
    var gridProbe: FrameGridProbe?
    let meter: TruePeakMeter
    let rules: LevelStatistics.Rules
    /// True for formats of integer codes, which decode to finite samples only.
    let integerSamples: Bool
    /// True when the worker reads 16-bit PCM where it lies (`loadInPlace`).
    let int16InPlace: Bool
    let channels: Int
    /// The loaded frames, one row of `rowLength` per channel, each with `padding` zeros before and
    /// after (written by `deinterleave`): the true-peak filter reads back and ahead, and rings on
    /// before and past the input.
    let rows: SampleScratch
    var planar: UnsafeMutableBufferPointer<Float> { rows.samples }
    let rowLength: Int
    let padding: Int
    /// The stereo pair's right channel's transform, so that the left's spectrum stays in
    /// `transform` for the cross-spectrum rather than being copied aside
    /// (docs/DECISIONS.md#stereo-sums); the chunk's cross-spectrum, real and imaginary parts per
    /// bin.
    let rightTransform: SegmentTransform?
    var crossReal: [Float]
    var crossImaginary: [Float]

    /// A worker with its own reader, or, with `reading` false, one that is handed loaded chunks.
    init(analyzer: SignalAnalyzer, reading: Bool = true) throws(SignalPathError) {
        self.analyzer = analyzer
        let spectrum = analyzer.spectrum
        meter = analyzer.truePeak
        padding = meter.lookBehind + meter.lookAhead
        let capacity = Self.windowCapacity(analyzer)
        channels = analyzer.file.format.channels
        window = reading ? try Self.makeWindow(analyzer) : nil
        int16InPlace = window?.reader.holdsHostInt16 ?? false
        rowLength = capacity + 2 * padding
        rows = SampleScratch(count: rowLength * channels)
        let windowTable = WindowTable.shared(spectrum.window, size: spectrum.windowSize)
        transform = SegmentTransform(fftSize: spectrum.fftSize, window: windowTable)
        edgeProbe =
            analyzer.scope == .everything
            ? SpectralEdgeProbe(fftSize: spectrum.fftSize, windowSum: windowTable.sum, sampleRate: analyzer.file.format.sampleRate) : nil
        rightTransform = analyzer.stereoPair == nil ? nil : SegmentTransform(fftSize: spectrum.fftSize, window: windowTable)
        crossReal = [Float](repeating: 0, count: analyzer.stereoPair == nil ? 0 : transform.binCount)
        crossImaginary = crossReal
        rules = Self.levelRules(analyzer)
        integerSamples = analyzer.file.format.sampleFormat.holdsIntegers
    }

    /// Frames a chunk's window holds at most.
    static func windowCapacity(_ analyzer: SignalAnalyzer) -> Int {
        // A loudness pass has no spectrum segments to read past a chunk's end.
        let segmentReach = analyzer.scope == .everything ? analyzer.spectrum.windowSize : 0
        return analyzer.chunkFrames + analyzer.settlingFrames + max(segmentReach, analyzer.postRollFrames) + analyzer.postRollFrames
    }

    /// A new reader's window, reading no further than the range needs.
    static func makeWindow(_ analyzer: SignalAnalyzer) throws(SignalPathError) -> FrameWindow {
        let reader = try analyzer.file.makeReader()
        let (rangeEnd, overflow) = analyzer.frames.upperBound.addingReportingOverflow(Int64(analyzer.postRollFrames))
        reader.limitReadAhead(toFrame: overflow ? Int64.max : rangeEnd)
        return FrameWindow(reader: reader, capacity: windowCapacity(analyzer))
    }

    /// The chunk's own frames, relative to the range.
    static func ownFrames(_ chunk: Int, _ analyzer: SignalAnalyzer) -> Range<Int64> {
        let lower = Int64(chunk) * Int64(analyzer.chunkFrames)
        let upper = lower + Int64(analyzer.chunkFrames)
        return lower..<min(upper, analyzer.knownLength ?? upper)
    }

    /// The frames a chunk reads: its own, the filters' settling time before (for the first chunk,
    /// before the range, as far as the file goes back), and after them the rest of the spectrum
    /// segments that start in it and what the true-peak interpolator reads ahead — at the range's
    /// end, past it (`postRollFrames`) as far as the file is known to go or a stream goes.
    static func loadedFrames(_ chunk: Int, _ analyzer: SignalAnalyzer) -> Range<Int64> {
        let own = ownFrames(chunk, analyzer)
        let lower = max(-analyzer.frames.lowerBound, own.lowerBound - Int64(analyzer.settlingFrames))
        let segmentReach = analyzer.scope == .everything ? analyzer.spectrum.windowSize : 0
        let after = Int64(max(segmentReach, analyzer.postRollFrames))
        var upper = min(own.upperBound + after, analyzer.knownLength ?? Int64.max)
        if let length = analyzer.knownLength, upper == length {
            var postRoll = Int64(analyzer.postRollFrames)
            if let fileFrames = analyzer.file.format.frames { postRoll = max(0, min(postRoll, fileFrames - analyzer.frames.upperBound)) }
            upper += postRoll
        }
        return lower..<upper
    }

    /// Brings the chunk's bytes into the cache without blocking a thread, where the format lets us
    /// know which bytes those are.
    func load(chunk: Int) async throws(SignalPathError) {
        let frames = Self.loadedFrames(chunk, analyzer)
        let start = analyzer.frames.lowerBound
        if let source = analyzer.file.source,
            let bytes = analyzer.file.byteRange(ofFrames: start + frames.lowerBound..<start + frames.upperBound)
        {
            try await source.load(bytes)
        }
    }

    func process(chunk: Int) throws(SignalPathError) -> AnalysisChunk {
        guard let window else { preconditionFailure("a worker without a reader is handed its chunks") }
        let frames: ChunkFrames
        if int16InPlace, let inPlace = try loadInPlace(chunk, window.reader) {
            frames = inPlace
        } else {
            frames = try loadWindow(chunk, window)
            deinterleave(frames, window.samples)
        }
        var result = measure(chunk, frames)
        if case .stored = analyzer.audioMD5Source {
            let start = analyzer.frames.lowerBound
            result.audioMD5Bytes = try AudioMD5.storedBytes(analyzer.file, frames: start + frames.present.lowerBound..<start + frames.present.upperBound)
        }
        return result
    }

    /// Step 2 for a chunk that a stream's one reader loaded into `window` (`SignalAnalyzer.runStream`):
    /// the worker's rows take its frames, so the window can load the next chunk at once.
    func prepare(_ chunk: Int, _ load: FrameWindow.ChunkLoad, from window: FrameWindow) -> ChunkFrames {
        let frames = chunkFrames(chunk, load)
        deinterleave(frames, window.samples)
        return frames
    }

    /// Step 2 for a chunk of a stream of 16-bit PCM that the stream's one reader loads
    /// (`SignalAnalyzer.runStream`): its frames deinterleaved from the stream's buffer straight
    /// into the rows, as `loadInPlace` does from a file's blocks, without a window of Floats and a
    /// second pass (docs/DECISIONS.md#stream-into-rows). The stream keeps the frames the chunk
    /// before ended with (`streamOverlap`) for this one to start with.
    func loadStreamed(_ chunk: Int, from reader: AudioReader) throws(SignalPathError) -> ChunkFrames {
        let wanted = Self.loadedFrames(chunk, analyzer)
        let first = analyzer.frames.lowerBound + wanted.lowerBound
        let rows = planar.baseAddress! + padding, channels = self.channels, rowLength = self.rowLength
        let got = try reader.forEachStreamedInt16Piece(first..<first + Int64(wanted.count)) { piece, firstFrame in
            PCMDecoder.deinterleave(int16: piece, channels: channels, into: rows + firstFrame, rowLength: rowLength)
        }
        zeroPadding(got: got)
        let load = try FrameWindow.ChunkLoad(
            got: got, of: wanted, rangeStart: analyzer.frames.lowerBound, knownLength: analyzer.knownLength, path: analyzer.file.path)
        return chunkFrames(chunk, load)
    }

    /// The frames a chunk's load shares with the next one's (the settling before the next chunk,
    /// the segments' and true peak's reach past this one): what a stream keeps behind its reader.
    static func streamOverlap(_ analyzer: SignalAnalyzer) -> Int {
        Int(max(0, loadedFrames(0, analyzer).upperBound - loadedFrames(1, analyzer).lowerBound))
    }

    /// Steps 3 to 6 on a chunk whose frames are in the rows.
    func measure(_ chunk: Int, _ frames: ChunkFrames) -> AnalysisChunk {
        let segmentStarts = segmentStarts(frames)
        let firstSubBlock = analyzer.subBlock(containing: frames.own.lowerBound)
        let subBlocks = frames.present.isEmpty ? 0 : analyzer.subBlock(containing: frames.present.upperBound - 1) - firstSubBlock + 1
        var result = AnalysisChunk(
            index: chunk, levels: [], truePeaks: [], truePeakFrames: [], nonFiniteSamples: [], firstSubBlock: firstSubBlock,
            weightedEnergy: [Double](repeating: 0, count: subBlocks), squares: [Double](repeating: 0, count: subBlocks * channels),
            power: [Double](repeating: 0, count: analyzer.scope == .everything ? transform.binCount * channels : 0),
            strongestBins: [(bin: Int, power: Double)](
                repeating: (0, 0), count: analyzer.distortionBins == nil ? 0 : segmentStarts.count * channels),
            stereo: analyzer.stereoPair.map { _ in StereoImage.Sums(bins: transform.binCount) },
            edges: edgeProbe.map { SpectralEdgeStatistics(bandCount: $0.bandCount) }, segments: segmentStarts.count,
            frames: frames.present, endOfInput: frames.endOfInput)
        result.frameGrid = searchFrameGrid(chunk, frames)
        for channel in 0..<channels {
            result.nonFiniteSamples.append(zeroNonFinite(channel, frames))
        }
        for channel in 0..<channels {
            let levels = measureLevels(channel, frames, squares: &result.squares)
            result.levels.append(levels)
            let truePeak = measureTruePeak(channel, frames, above: levels.peak)
            result.truePeaks.append(truePeak.peak)
            result.truePeakFrames.append(truePeak.frame)
            if let pair = analyzer.stereoPair, channel == pair.left || channel == pair.right { continue }
            addSegments(channel, frames, starts: segmentStarts, power: &result.power, strongestBins: &result.strongestBins, edges: &result.edges)
        }
        if let pair = analyzer.stereoPair {
            measurePair(
                pair, frames, starts: segmentStarts, sums: &result.stereo!, power: &result.power, strongestBins: &result.strongestBins,
                edges: &result.edges)
        }
        addWeightedEnergy(frames, energy: &result.weightedEnergy)
        if case .packed(let packing) = analyzer.audioMD5Source {
            if let bytes = packing.pack((0..<channels).map { samples($0, frames.present, frames) }) {
                result.audioMD5Bytes = [FileBytes(bytes)]
            } else {
                result.audioMD5Refused = true
            }
        }
        return result
    }

    /// Where a chunk's frames lie, relative to the range.
    struct ChunkFrames {
        /// The chunk's own frames, as the range's length allows.
        var own: Range<Int64>
        /// Those of them the input holds.
        var present: Range<Int64>
        /// The frames asked for: the own frames with the settling frames before and the segments'
        /// tail after (and at the range's ends, frames outside it). Frame `loaded.lowerBound` is
        /// the first of each row (after its padding).
        var loaded: Range<Int64>
        /// Frames actually loaded, from `loaded.lowerBound` on.
        var got: Int
        /// Loaded frames up to here lie in the range.
        var available: Int64
        /// Where the input ended, relative to the range, when this chunk found its end.
        var endOfInput: Int64?
        /// True when the range starts at the file's first frame: the true-peak filter then rings
        /// from silence into it, as a meter fed the file would.
        var startsInput: Bool
        /// True when no frame follows the range's end (the file or stream ends there): the filter
        /// rings on past it.
        var endsInput: Bool
        /// Zeros before and after each row.
        var padding: Int

        /// True when the input ends within the chunk's own frames.
        var isLast: Bool { endOfInput.map { $0 <= own.upperBound } ?? false }

        /// The index into a channel's row of relative frame `frame`.
        func offset(_ frame: Int64) -> Int { Int(frame - loaded.lowerBound) + padding }
    }

    /// Step 1: loads the chunk's frames into the window; a file that ends before its header
    /// promised is malformed, a stream has simply ended.
    func loadWindow(_ chunk: Int, _ window: FrameWindow) throws(SignalPathError) -> ChunkFrames {
        chunkFrames(chunk, try Self.load(chunk, into: window, analyzer: analyzer))
    }

    /// Loads chunk `chunk`'s frames (`loadedFrames`) into `window`.
    static func load(_ chunk: Int, into window: FrameWindow, analyzer: SignalAnalyzer) throws(SignalPathError) -> FrameWindow.ChunkLoad {
        // The frames past the range's end are only the true peak's look-ahead: fewer of them is
        // not an error, just the end of the input.
        try window.loadChunk(
            loadedFrames(chunk, analyzer), rangeStart: analyzer.frames.lowerBound, knownLength: analyzer.knownLength, path: analyzer.file.path)
    }

    /// Where chunk `chunk`'s frames lie, given what its load found.
    func chunkFrames(_ chunk: Int, _ load: FrameWindow.ChunkLoad) -> ChunkFrames {
        let own = Self.ownFrames(chunk, analyzer)
        let wanted = Self.loadedFrames(chunk, analyzer)
        let got = load.got, available = load.available, endOfInput = load.endOfInput
        precondition(got + 2 * padding <= rowLength)
        let presentEnd = max(own.lowerBound, min(own.upperBound, available))
        return ChunkFrames(
            own: own, present: own.lowerBound..<presentEnd, loaded: wanted, got: got, available: available, endOfInput: endOfInput,
            startsInput: own.lowerBound == 0 && analyzer.frames.lowerBound == 0, endsInput: wanted.lowerBound + Int64(got) == available,
            padding: padding)
    }

    /// Row `channel` of `planar`.
    func row(_ channel: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(rebasing: planar[channel * rowLength..<(channel + 1) * rowLength])
    }

    /// The samples of channel `channel` for relative frames `range`.
    func samples(_ channel: Int, _ range: Range<Int64>, _ frames: ChunkFrames) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(rebasing: row(channel)[frames.offset(range.lowerBound)..<frames.offset(range.upperBound)])
    }
}
