/// The frames of a spectrogram over a frame range: either one frame per segment (`columns` nil:
/// CSV and JSON; `parameters.averaging` does not apply), or `columns` frames, each combining the
/// segments that start in its slice of the range as `parameters.averaging` says — mean power,
/// max, min or bias-corrected median, as `spectrum` combines a range (a plot as wide as the
/// terminal, whatever the range's length).
///
/// Reads the range once, front to back, through one reader (so it serves streams too); keeps one
/// frame at a time, so memory does not grow with the range.
public struct SpectrogramAnalyzer: Sendable {
    public let file: AudioFile
    /// The frames asked for; for a stream of unknown length the upper bound is `Int64.max`.
    public let frames: Range<Int64>
    public let channels: ChannelSelection
    /// Per result channel, the file channel it shows (nil: the mix of all), and its name.
    let sourceChannels: [Int?]
    public let channelNames: [String]
    /// The parameters in use (the window shrinks to a range shorter than it).
    public let parameters: SpectrumParameters
    public let columns: Int?

    /// One column of the spectrogram.
    public struct Frame: Sendable {
        public var index: Int
        /// The frames its segments cover.
        public var span: Range<Int64>
        /// Combined |X|² per selected channel and bin.
        public var power: [[Double]]
        public var segments: Int
    }

    /// - Throws: `invalidRequest` for a channel the file lacks, or a plot (`columns`) of a stream
    ///   whose length is unknown.
    public init(
        file: AudioFile, frames: Range<Int64>, channels: ChannelSelection, parameters: SpectrumParameters,
        columns: Int?
    ) throws(SignalPathError) {
        precondition(!frames.isEmpty)
        sourceChannels = try channels.sourceChannels(in: file.format.channelLayout, path: file.path)
        channelNames = channels.names(in: file.format.channelLayout)
        if columns != nil && frames.upperBound == Int64.max {
            throw .invalidRequest(path: file.path, reason: "a spectrogram plot needs the stream's length; use --format csv, or a file")
        }
        let parameters = parameters.fitted(to: frames)
        if let columns, parameters.averaging == .median {
            // The median keeps a column's segments: bounded as `spectrum` bounds a range's.
            let segments = Int(frames.count) / columns / parameters.hop + 1
            let bytes = segments * (parameters.fftSize / 2 + 1) * sourceChannels.count * 4
            if bytes > SpectrumAnalyzer.medianMemoryLimit {
                throw .invalidRequest(
                    path: file.path,
                    reason: "median averaging over \(segments) segments per column would need \(UnitFormat.bytes(Int64(bytes))); use a shorter range or --average mean")
            }
        }
        self.file = file
        self.frames = frames
        self.channels = channels
        self.parameters = parameters
        self.columns = columns.map { max(1, $0) }
    }

    public var window: WindowTable { WindowTable.shared(parameters.window, size: parameters.windowSize) }

    /// Computes the frames in order and hands each to `emit`.
    public func run(_ emit: (Frame) throws(SignalPathError) -> Void) throws(SignalPathError) {
        let reader = try file.makeReader()
        reader.limitReadAhead(toFrame: frames.upperBound)
        let source = FrameWindow(reader: reader, capacity: parameters.windowSize)
        let transform = SegmentTransform(fftSize: parameters.fftSize, window: window)
        let fileChannels = file.format.channels
        let selected = sourceChannels.count
        let bins = transform.binCount
        let windowSize = Int64(parameters.windowSize), hop = Int64(parameters.hop)
        let averaging = columns == nil ? Averaging.mean : parameters.averaging
        var sums = [Double](repeating: averaging.identity, count: bins * selected)
        // For the median: per selected channel, the power of the column's segments, one after another.
        var kept = [[Float]](repeating: [], count: averaging == .median ? selected : 0)

        /// Adds the segment at `start` to `sums`; false when the input ends before it is whole.
        func add(_ start: Int64) throws(SignalPathError) -> Bool {
            guard try source.load(start..<start + windowSize) == Int(windowSize) else { return false }
            for output in 0..<selected {
                let channel = sourceChannels[output]
                transform.transform(source.samples, firstFrame: 0, channels: fileChannels, channel: channel)
                if averaging == .median {
                    kept[output] += transform.power[0..<bins]
                    continue
                }
                sums.withUnsafeMutableBufferPointer { all in
                    transform.combine(into: UnsafeMutableBufferPointer(rebasing: all[output * bins..<(output + 1) * bins]), averaging)
                }
            }
            return true
        }
        func frame(_ index: Int, span: Range<Int64>, segments: Int) -> Frame {
            let power = ChunkCombiner.combined(averaging, totals: sums, medianValues: kept, channels: selected, segments: segments)
            for index in sums.indices { sums[index] = averaging.identity }
            for output in kept.indices { kept[output].removeAll(keepingCapacity: true) }
            return Frame(index: index, span: span, power: power, segments: segments)
        }

        guard let columns else {
            var start = frames.lowerBound, index = 0
            while start + windowSize <= frames.upperBound, try add(start) {
                try emit(frame(index, span: start..<start + windowSize, segments: 1))
                start += hop
                index += 1
            }
            if index == 0 {
                throw .invalidRequest(path: file.path, reason: "the input holds fewer frames than one \(windowSize)-frame window; use a smaller --window-size")
            }
            return
        }
        let length = Int64(frames.count)
        for column in 0..<columns {
            let slice = frames.lowerBound + length * Int64(column) / Int64(columns)..<frames.lowerBound + length * Int64(column + 1) / Int64(columns)
            // Segments that start in the slice, every hop; at least one, the last that fits.
            var starts = Array(stride(from: slice.lowerBound, to: max(slice.upperBound, slice.lowerBound + 1), by: Int(hop)))
                .filter { $0 + windowSize <= frames.upperBound }
            if starts.isEmpty { starts = [max(frames.lowerBound, min(slice.lowerBound, frames.upperBound - windowSize))] }
            var count = 0
            for start in starts where try add(start) { count += 1 }
            guard count > 0 else {
                throw .malformed(path: file.path, reason: "the file ended before frame \(starts[0] + windowSize)")
            }
            try emit(frame(column, span: starts[0]..<starts[count - 1] + windowSize, segments: count))
        }
    }
}
