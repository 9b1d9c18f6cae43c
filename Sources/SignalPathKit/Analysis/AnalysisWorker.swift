import SignalPathAVX2

/// A worker's reader, frame window, FFT and scratch for `SignalAnalyzer`, reused from chunk to chunk.
///
/// A chunk goes through named steps (`process(chunk:)`): load the window, deinterleave it into
/// rows and clean out non-finite samples, levels per 100 ms sub-block, true peak, the spectrum's
/// segments, K-weighting. Scratch is allocated once, at its largest, so no step allocates.
///
/// Unchecked Sendable: a worker is handed to exactly one child task at a time and handed back with
/// its result; the task group's hand-off orders the accesses.
final class AnalysisWorker: ChunkWorking, @unchecked Sendable {
    private let analyzer: SignalAnalyzer
    /// The worker's own reader's window; nil for a worker fed chunks a stream's one reader loaded
    /// (`process(_:)`).
    private let window: FrameWindow?
    private let transform: SegmentTransform
    /// Where each segment's content ends (authenticity's evidence); nil for a loudness pass.
    private let edgeProbe: SpectralEdgeProbe?
    /// Made when the worker's first chunk with an excerpt comes (`FrameGridProbe.searches`).
    private var gridProbe: FrameGridProbe?
    private let meter: TruePeakMeter
    private let rules: LevelStatistics.Rules
    /// True for formats of integer codes, which decode to finite samples only.
    private let integerSamples: Bool
    /// True when the worker reads 16-bit PCM where it lies (`loadInPlace`).
    private let int16InPlace: Bool
    private let channels: Int
    /// The loaded frames, one row of `rowLength` per channel, each with `padding` zeros before and
    /// after (written by `deinterleave`): the true-peak filter reads back and ahead, and rings on
    /// before and past the input.
    private let rows: SampleScratch
    private var planar: UnsafeMutableBufferPointer<Float> { rows.samples }
    private let rowLength: Int
    private let padding: Int
    /// The stereo pair's right channel's transform, so that the left's spectrum stays in
    /// `transform` for the cross-spectrum (copying it aside was 1.3 % of analyze's time, perf); the
    /// chunk's cross-spectrum, real and imaginary parts per bin.
    private let rightTransform: SegmentTransform?
    private var crossReal: [Float]
    private var crossImaginary: [Float]

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
        rules = LevelStatistics.Rules(
            fullScale: Self.fullScale(analyzer.file.format.sampleFormat),
            minimumClipRun: analyzer.settings.minimumClipRun,
            // Clipping events as `events` groups its runs (EventCombiner's gap, in frames).
            clipEventGap: Int((EventSettings.clipMergeGap * Double(analyzer.file.format.sampleRate)).rounded()),
            silenceThreshold: Float(pow(10, analyzer.settings.silenceThreshold / 20)),
            finestBitExponent: Self.finestBitExponent(analyzer.file.format.sampleFormat),
            samplesAreFinite: true)  // zeroNonFinite runs first
        integerSamples = Self.isInteger(analyzer.file.format.sampleFormat)
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

    /// True for integer PCM, lossless integer codecs, µ-law and A-law.
    static func isInteger(_ format: SampleFormat) -> Bool {
        switch format {
        case .pcm, .lossless, .ulaw, .alaw: return true
        case .float, .compressed: return false
        }
    }

    /// The exponent of the finest bit the format holds: −(bits − 1) for integer PCM, −15 for µ-law
    /// and A-law (16-bit codes), −149 (the smallest Float) for float. A lossy codec's decode has no
    /// bits in use to find (the combiner reports none), so `Int.max` stops the search before it
    /// starts: 5.3 % of analyze's CPU on the 10-minute AAC of `make bench` (perf).
    static func finestBitExponent(_ format: SampleFormat) -> Int {
        switch format {
        case .pcm(let bits, _), .lossless(_, let bits): return -(max(1, min(bits, 32)) - 1)
        case .ulaw, .alaw: return -15
        case .float: return -149
        case .compressed: return .max
        }
    }

    /// The chunk's own frames, relative to the range.
    private static func ownFrames(_ chunk: Int, _ analyzer: SignalAnalyzer) -> Range<Int64> {
        let lower = Int64(chunk) * Int64(analyzer.chunkFrames)
        let upper = lower + Int64(analyzer.chunkFrames)
        return lower..<min(upper, analyzer.knownLength ?? upper)
    }

    /// The frames a chunk reads: its own, the filters' settling time before (for the first chunk,
    /// before the range, as far as the file goes back), and after them the rest of the spectrum
    /// segments that start in it and what the true-peak interpolator reads ahead — at the range's
    /// end, past it (`postRollFrames`) as far as the file is known to go or a stream goes.
    private static func loadedFrames(_ chunk: Int, _ analyzer: SignalAnalyzer) -> Range<Int64> {
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
        if int16InPlace, let frames = try loadInPlace(chunk, window.reader) { return measure(chunk, frames) }
        let frames = try loadWindow(chunk, window)
        deinterleave(frames, window.samples)
        return measure(chunk, frames)
    }

    /// Step 2 for a chunk that a stream's one reader loaded into `window` (`SignalAnalyzer.runStream`):
    /// the worker's rows take its frames, so the window can load the next chunk at once.
    func prepare(_ chunk: Int, _ load: FrameWindow.ChunkLoad, from window: FrameWindow) -> ChunkFrames {
        let frames = chunkFrames(chunk, load)
        deinterleave(frames, window.samples)
        return frames
    }

    /// Step 2 for a chunk of a stream of 16-bit PCM that the stream's one reader loads
    /// (`SignalAnalyzer.runStream`): its frames deinterleaved from the stream's buffer straight into
    /// the rows, as `loadInPlace` does from a file's blocks. Through a window of Floats, the
    /// conversion and the second pass took ~0.2 s of CPU of `cat F.wav | analyze -` on the
    /// 60-minute WAV, ~15 % of it, where memory was slow (perf). The stream keeps the frames the
    /// chunk before ended with (`streamOverlap`) for this one to start with.
    func loadStreamed(_ chunk: Int, from reader: AudioReader) throws(SignalPathError) -> ChunkFrames {
        let wanted = Self.loadedFrames(chunk, analyzer)
        let first = analyzer.frames.lowerBound + wanted.lowerBound
        let rows = planar.baseAddress! + padding, channels = self.channels, rowLength = self.rowLength
        let got = try reader.forEachStreamedInt16Piece(first..<first + Int64(wanted.count)) { piece, firstFrame in
            Self.deinterleave(int16: piece, channels: channels, into: rows + firstFrame, rowLength: rowLength)
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
        result.sampleBytes = analyzer.audioMD5Packing?.pack((0..<channels).map { samples($0, frames.present, frames) })
        return result
    }

    // MARK: Steps

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
    private func loadWindow(_ chunk: Int, _ window: FrameWindow) throws(SignalPathError) -> ChunkFrames {
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
    private func chunkFrames(_ chunk: Int, _ load: FrameWindow.ChunkLoad) -> ChunkFrames {
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

    /// The starts of the spectrum segments that begin in the chunk's own frames and fit the input.
    private func segmentStarts(_ frames: ChunkFrames) -> [Int64] {
        guard analyzer.scope == .everything else { return [] }
        let hop = Int64(analyzer.spectrum.hop), windowSize = Int64(analyzer.spectrum.windowSize)
        return stride(from: (frames.own.lowerBound + hop - 1) / hop * hop, to: frames.own.upperBound, by: Int(hop))
            .filter { $0 + windowSize <= frames.available }
    }

    /// Row `channel` of `planar`.
    private func row(_ channel: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(rebasing: planar[channel * rowLength..<(channel + 1) * rowLength])
    }

    /// The samples of channel `channel` for relative frames `range`.
    private func samples(_ channel: Int, _ range: Range<Int64>, _ frames: ChunkFrames) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(rebasing: row(channel)[frames.offset(range.lowerBound)..<frames.offset(range.upperBound)])
    }

    /// Steps 1 and 2 at once for 16-bit PCM: the chunk's samples go from where they lie in the
    /// file's cache straight into the rows, converted as `PCMDecoder` converts them (x · 2^-15),
    /// without the window's interleaved Float copy (decoding and deinterleaving were 4.9 % of
    /// `analyze`'s time on the 60-minute WAV, perf); nil where the file does not hold the frames
    /// (then `loadWindow` decodes them, and reports a cut file).
    private func loadInPlace(_ chunk: Int, _ reader: AudioReader) throws(SignalPathError) -> ChunkFrames? {
        guard let fileFrames = analyzer.file.format.frames else { return nil }
        let wanted = Self.loadedFrames(chunk, analyzer)
        let first = analyzer.frames.lowerBound + wanted.lowerBound
        let got = Int(max(0, min(Int64(wanted.count), fileFrames - first)))
        guard got + 2 * padding <= rowLength else { return nil }
        zeroPadding(got: got)
        let rows = planar.baseAddress! + padding, channels = self.channels, rowLength = self.rowLength
        let placed = reader.forEachInt16Piece(first..<first + Int64(got)) { piece, firstFrame in
            Self.deinterleave(int16: piece, channels: channels, into: rows + firstFrame, rowLength: rowLength)
        }
        guard placed else { return nil }
        let load = try FrameWindow.ChunkLoad(
            got: got, of: wanted, rangeStart: analyzer.frames.lowerBound, knownLength: analyzer.knownLength, path: analyzer.file.path)
        return chunkFrames(chunk, load)
    }

    /// Zeroes each row's padding before the loaded frames and after the `got` of them.
    private func zeroPadding(got: Int) {
        let base = planar.baseAddress!
        for channel in 0..<channels {
            let row = base + channel * rowLength
            for index in 0..<padding { row[index] = 0 }
            for index in padding + got..<min(rowLength, got + 2 * padding) { row[index] = 0 }
        }
    }

    /// Converts whole interleaved 16-bit frames (host byte order) into rows from `rows` on (row c
    /// at `rows + c · rowLength`), each sample x · 2^-15 as `PCMDecoder` converts it; stereo four
    /// frames at a time (`PCMDecoder.channel(_:of:)`).
    static func deinterleave(
        int16 piece: UnsafeRawBufferPointer, channels: Int, into rows: UnsafeMutablePointer<Float>, rowLength: Int,
        wide: Bool = ProcessorFeatures.hasX86_64_v3
    ) {
        let frames = piece.count / (2 * channels)
        guard frames > 0, let source = piece.baseAddress else { return }
        var frame = 0
        if channels == 2 {
            let left = rows, right = rows + rowLength
            if wide { frame = StereoAVX2.deinterleave(int16: source, count: frames, leftIsLow: 1.littleEndian == 1, left: left, right: right) }
            while frame &+ 4 <= frames {
                let pairs = source.loadUnaligned(fromByteOffset: frame &* 4, as: SIMD4<Int32>.self)
                UnsafeMutableRawPointer(left + frame).storeBytes(of: PCMDecoder.channel(true, of: pairs) * 0x1p-15, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(right + frame).storeBytes(of: PCMDecoder.channel(false, of: pairs) * 0x1p-15, as: SIMD4<Float>.self)
                frame &+= 4
            }
        }
        for channel in 0..<channels {
            let row = rows + channel &* rowLength
            for index in frame..<frames {
                row[index] = Float(source.loadUnaligned(fromByteOffset: (index &* channels &+ channel) &* 2, as: Int16.self)) * 0x1p-15
            }
        }
    }

    /// Step 2: copies the loaded frames into the channels' rows (after their front padding) and
    /// zeroes the padding around them. Stereo goes eight samples at a time.
    private func deinterleave(_ frames: ChunkFrames, _ interleaved: UnsafeBufferPointer<Float>) {
        let padding = self.padding, got = frames.got, channels = self.channels, rowLength = self.rowLength
        let base = planar.baseAddress!
        zeroPadding(got: got)
        do {
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

    /// Step 2, continued: NaN and ±∞ (float files) become 0, or they would poison the filters and
    /// FFTs; returns how many of them lay in the chunk's own frames.
    private func zeroNonFinite(_ channel: Int, _ frames: ChunkFrames) -> Int64 {
        guard !integerSamples else { return 0 }
        let row = row(channel)
        let range = padding..<padding + frames.got
        let counting = frames.offset(frames.present.lowerBound)..<frames.offset(frames.present.upperBound)
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

    /// Step 3: the channel's level statistics over its own frames, and each 100 ms sub-block's
    /// Σ sample² added to `squares` (per sub-block and channel, channel fastest).
    private func measureLevels(_ channel: Int, _ frames: ChunkFrames, squares: inout [Double]) -> LevelStatistics {
        var levels = LevelStatistics()
        let rangeStart = analyzer.frames.lowerBound
        for (piece, slot) in analyzer.subBlockPieces(frames.present) {
            squares[slot * channels + channel] += levels.accumulate(samples(channel, piece, frames), firstFrame: rangeStart + piece.lowerBound, rules: rules)
        }
        return levels
    }

    /// Step 4: the channel's true peak over the times of its own frames (outputs `delay` frames
    /// later), and where it lies (relative frame, nil when the sample peak is the true peak).
    /// Where the range meets the input's start or end, the interpolator also rings into the
    /// silence around the input, as it would for a meter fed the file; inside a file, it reads
    /// the frames around the range and reports only the range's times.
    private func measureTruePeak(_ channel: Int, _ frames: ChunkFrames, above samplePeak: Float) -> (peak: Float, frame: Double?) {
        let delay = Int64(meter.delay)
        let lower = frames.startsInput ? -Int64(meter.lookAhead) : frames.own.lowerBound + delay
        var upper = frames.own.upperBound + delay
        if frames.isLast, let end = frames.endOfInput { upper = frames.endsInput ? end + Int64(meter.lookBehind) : end + delay }
        let found = meter.locatePeak(UnsafeBufferPointer(row(channel)), range: frames.offset(lower)..<frames.offset(upper), above: samplePeak)
        return (found.peak, found.position.map { Double(frames.loaded.lowerBound) + $0 - Double(frames.padding) })
    }

    /// Step 5: the |X|² of the channel's segments that start in the chunk, summed into its bins of
    /// `power` (per channel and bin, bins fastest); each segment's strongest in-band bin and
    /// in-band power into `strongestBins` (per segment and channel, channel fastest); where its
    /// content ends into `edges`.
    private func addSegments(
        _ channel: Int, _ frames: ChunkFrames, starts: [Int64], power: inout [Double], strongestBins: inout [(bin: Int, power: Double)],
        edges: inout SpectralEdgeStatistics?
    ) {
        // A loudness pass has no segments, and no bins to sum them into.
        guard !starts.isEmpty else { return }
        let bins = transform.binCount
        let row = UnsafeBufferPointer(row(channel))
        power.withUnsafeMutableBufferPointer { power in
            let channelPower = UnsafeMutableBufferPointer(rebasing: power[channel * bins..<(channel + 1) * bins])
            for (segment, start) in starts.enumerated() {
                let accumulation = SegmentTransform.Accumulation(sums: channelPower, band: analyzer.distortionBins)
                let strongest = transform.transform(row, firstFrame: frames.offset(start), channels: 1, channel: 0, accumulating: accumulation)
                if let strongest { strongestBins[segment * channels + channel] = strongest }
                probeEdges(of: transform, into: &edges)
            }
        }
    }

    /// Step 5, for the stereo pair: the zero-lag sums over the chunk's own frames, and each segment
    /// of both channels transformed one after the other, so that besides each channel's power (as
    /// `addSegments` adds it) the segment's cross-spectrum conj(X_L)·X_R is summed.
    private func measurePair(
        _ pair: (left: Int, right: Int), _ frames: ChunkFrames, starts: [Int64], sums: inout StereoImage.Sums, power: inout [Double],
        strongestBins: inout [(bin: Int, power: Double)], edges: inout SpectralEdgeStatistics?
    ) {
        sums.add(samples(pair.left, frames.present, frames), samples(pair.right, frames.present, frames))
        let bins = transform.binCount
        let leftRow = UnsafeBufferPointer(row(pair.left)), rightRow = UnsafeBufferPointer(row(pair.right))
        guard let rightTransform else { preconditionFailure("a worker for a pair has its right channel's transform") }
        // The cross sums' arrays are the worker's properties: taken once for the chunk, since each
        // access to a class's stored array is checked for exclusivity at run time, and an element
        // store or a buffer taken per bin and per segment made those checks ~3 % of analyze (perf).
        crossReal.withUnsafeMutableBufferPointer { real in
            crossImaginary.withUnsafeMutableBufferPointer { imaginary in
                real.update(repeating: 0)
                imaginary.update(repeating: 0)
                power.withUnsafeMutableBufferPointer { power in
                    let leftPower = UnsafeMutableBufferPointer(rebasing: power[pair.left * bins..<(pair.left + 1) * bins])
                    let rightPower = UnsafeMutableBufferPointer(rebasing: power[pair.right * bins..<(pair.right + 1) * bins])
                    for (segment, start) in starts.enumerated() {
                        let leftAccumulation = SegmentTransform.Accumulation(sums: leftPower, band: analyzer.distortionBins)
                        let left = transform.transform(leftRow, firstFrame: frames.offset(start), channels: 1, channel: 0, accumulating: leftAccumulation)
                        if let left { strongestBins[segment * channels + pair.left] = left }
                        probeEdges(of: transform, into: &edges)
                        let rightAccumulation = SegmentTransform.Accumulation(sums: rightPower, band: analyzer.distortionBins)
                        let right = rightTransform.transform(
                            rightRow, firstFrame: frames.offset(start), channels: 1, channel: 0, accumulating: rightAccumulation)
                        if let right { strongestBins[segment * channels + pair.right] = right }
                        probeEdges(of: rightTransform, into: &edges)
                        transform.withSpectrum { left in
                            rightTransform.withSpectrum { StereoImage.Sums.accumulateCross(left, $0, real: real, imaginary: imaginary) }
                        }
                    }
                }
                sums.addCross(real: UnsafeBufferPointer(real), imaginary: UnsafeBufferPointer(imaginary))
            }
        }
    }

    /// Step 5, once for the chunks `FrameGridProbe.searches` picks: the first channel's excerpt in
    /// the middle of the chunk's own frames (on the range's 1024-frame grid) searched for a coder's
    /// frame grid. Only at rates up to 48 kHz, where the corpus shows what the search finds, not in
    /// a lossy file's own decode, which is `lossy_origin` by its format, and not in a range known to
    /// be shorter than `FrameGridProbe.shortestRange`.
    private func searchFrameGrid(_ chunk: Int, _ frames: ChunkFrames) -> FrameGridStatistics? {
        if case .compressed = analyzer.file.format.sampleFormat { return nil }
        guard analyzer.settings.searchesFrameGrid else { return nil }
        let rate = Int64(analyzer.file.format.sampleRate)
        if let length = analyzer.knownLength, length < Int64(FrameGridProbe.shortestRange) * rate { return nil }
        guard edgeProbe != nil, analyzer.file.format.sampleRate <= FrameGridProbe.highestRate, FrameGridProbe.searches(chunk: chunk) else { return nil }
        let hop = Int64(FrameGridProbe.hop), length = Int64(FrameGridProbe.excerptLength)
        let start = (frames.present.lowerBound + frames.present.upperBound - length) / 2 / hop * hop
        guard start >= frames.present.lowerBound, start + length <= frames.present.upperBound else { return nil }
        let probe = gridProbe ?? FrameGridProbe(sampleRate: analyzer.file.format.sampleRate)
        gridProbe = probe
        var statistics = FrameGridStatistics()
        let row = UnsafeBufferPointer(row(0))
        // Picking from both ends matters where one excerpt is all there is; later excerpts add
        // their own chances at half the cost (the 10-minute FLAC of `make bench`: 5 excerpts took
        // its analyze from 536 to 583 ms with both ends picked in each, then with three windows).
        probe.search(UnsafeBufferPointer(rebasing: row[frames.offset(start)..<frames.offset(start) + Int(length)]), bothEnds: chunk == 0, into: &statistics)
        return statistics
    }

    /// Step 5, for every segment: the edge and holes of `transform`'s last power into `edges`.
    private func probeEdges(of transform: SegmentTransform, into edges: inout SpectralEdgeStatistics?) {
        guard let edgeProbe, edges != nil else { return }
        transform.power.withUnsafeBufferPointer { edgeProbe.add($0, to: &edges!) }
    }

    /// Where a pair's K-weighting splits the chunk's frames in two, filtered side by side: the
    /// sub-block boundary nearest their middle, when each half is at least twice the filter's
    /// settling time (the second half settles from rest over the frames before it, as every chunk
    /// does). Fixed by the chunk's frames, so results do not depend on the number of workers.
    private func pairSplit(_ frames: ChunkFrames) -> Int64? {
        let settling = Int64(analyzer.weighting.settlingFrames)
        guard analyzer.measuresLoudness, frames.present.count >= 4 * settling else { return nil }
        let middle = analyzer.subBlockStart(analyzer.subBlock(containing: (frames.present.lowerBound + frames.present.upperBound) / 2))
        guard middle - settling >= frames.present.lowerBound, middle < frames.present.upperBound else { return nil }
        return middle
    }

    /// Step 6 for the pair of channels `first` and `first + 1`, split at `middle` or whole: the
    /// halves' filters run in step (`KWeighting`'s four lanes), each half's sub-blocks collected
    /// as it passes them; when one half ends, the other goes on alone. The first half (or the
    /// whole) is filtered exactly as without a split.
    private func addPairEnergy(_ first: Int, _ frames: ChunkFrames, splitAt middle: Int64?, energy: inout [Double]) {
        let weighting = analyzer.weighting, weights = analyzer.channelWeights
        typealias Segment = (frames: Range<Int64>, slot: Int?)
        // Slots count from the chunk's first sub-block; `subBlockPieces` counts from its range's.
        let firstSubBlock = analyzer.subBlock(containing: frames.present.lowerBound)
        func run(settling: Range<Int64>, _ own: Range<Int64>) -> [Segment] {
            let offset = analyzer.subBlock(containing: own.lowerBound) - firstSubBlock
            return ([(settling, nil)] + analyzer.subBlockPieces(own).map { ($0.frames, Optional($0.slot + offset)) }).filter { !$0.frames.isEmpty }
        }
        let chunkSettling = frames.loaded.lowerBound..<frames.own.lowerBound
        let runs =
            middle.map { middle in
                [
                    run(settling: chunkSettling, frames.present.lowerBound..<middle),
                    run(settling: (middle - Int64(weighting.settlingFrames))..<middle, middle..<frames.present.upperBound),
                ]
            } ?? [run(settling: chunkSettling, frames.present)]
        var next = [Int](repeating: 0, count: runs.count)
        var position = runs.map { $0.first?.frames.lowerBound ?? 0 }
        var state = KWeighting.QuadState(low: KWeighting.PairState(), high: KWeighting.PairState())
        var sums = SIMD4<Double>()
        // Closes segment `next[half]` of its run when the filter has passed its end.
        func passed(_ half: Int, pair: SIMD2<Double>) -> Bool {
            let segment = runs[half][next[half]]
            guard position[half] == segment.frames.upperBound else { return false }
            if let slot = segment.slot { energy[slot] += weights[first] * pair[0] + weights[first + 1] * pair[1] }
            next[half] += 1
            if next[half] < runs[half].count { position[half] = runs[half][next[half]].frames.lowerBound }
            return true
        }
        while runs.count == 2 && next[0] < runs[0].count && next[1] < runs[1].count {
            let count = min(runs[0][next[0]].frames.upperBound - position[0], runs[1][next[1]].frames.upperBound - position[1])
            let (a, b) = (position[0]..<position[0] + count, position[1]..<position[1] + count)
            weighting.filter(
                samples(first, a, frames), samples(first + 1, a, frames), samples(first, b, frames), samples(first + 1, b, frames),
                state: &state, adding: &sums)
            position[0] += count
            position[1] += count
            if passed(0, pair: sums.lowHalf) { sums.lowHalf = SIMD2() }
            if passed(1, pair: sums.highHalf) { sums.highHalf = SIMD2() }
        }
        for half in runs.indices where next[half] < runs[half].count {
            var pair = half == 0 ? state.low : state.high
            var pairSums = half == 0 ? sums.lowHalf : sums.highHalf
            while next[half] < runs[half].count {
                let piece = position[half]..<runs[half][next[half]].frames.upperBound
                weighting.filter(samples(first, piece, frames), samples(first + 1, piece, frames), state: &pair, adding: &pairSums)
                position[half] = piece.upperBound
                if passed(half, pair: pairSums) { pairSums = SIMD2() }
            }
        }
    }

    /// Step 6: K-weighted energy per sub-block, summed over channels with their BS.1770 weights.
    /// Each filter starts from rest at the start of the settling frames. Two channels per loop
    /// where there are two: their filter chains are independent, so one loop runs both in about
    /// the time of one.
    private func addWeightedEnergy(_ frames: ChunkFrames, energy: inout [Double]) {
        let weighting = analyzer.weighting, weights = analyzer.channelWeights
        let settling = frames.loaded.lowerBound..<frames.own.lowerBound
        let middle = pairSplit(frames)
        for first in stride(from: 0, to: channels, by: 2) {
            if first + 1 < channels {
                addPairEnergy(first, frames, splitAt: middle, energy: &energy)
            } else {
                var state = KWeighting.State()
                _ = weighting.filter(samples(first, settling, frames), state: &state)
                for (piece, slot) in analyzer.subBlockPieces(frames.present) {
                    energy[slot] += weights[first] * weighting.filter(samples(first, piece, frames), state: &state)
                }
            }
        }
    }
}
