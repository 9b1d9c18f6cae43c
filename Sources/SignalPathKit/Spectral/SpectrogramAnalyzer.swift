/// The frames of a spectrogram over a frame range: either one frame per segment (`columns` nil:
/// CSV and JSON), or `columns` frames, each the mean power of the segments that start in its
/// slice of the range (a plot as wide as the terminal, whatever the range's length).
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
        /// Mean |X|² per selected channel and bin.
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
        self.file = file
        self.frames = frames
        self.channels = channels
        self.parameters = parameters.fitted(to: frames)
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
        var sums = [Double](repeating: 0, count: bins * selected)

        /// Adds the segment at `start` to `sums`; false when the input ends before it is whole.
        func add(_ start: Int64) throws(SignalPathError) -> Bool {
            guard try source.load(start..<start + windowSize) == Int(windowSize) else { return false }
            for output in 0..<selected {
                let channel = sourceChannels[output]
                source.samples.withUnsafeBufferPointer { samples in
                    transform.transform(samples, firstFrame: 0, channels: fileChannels, channel: channel)
                }
                sums.withUnsafeMutableBufferPointer { all in
                    transform.combine(into: UnsafeMutableBufferPointer(rebasing: all[output * bins..<(output + 1) * bins]), .mean)
                }
            }
            return true
        }
        func frame(_ index: Int, span: Range<Int64>, segments: Int) -> Frame {
            let power = PowerSpectrum.meanPower(summed: sums, channels: selected, segments: segments)
            for index in sums.indices { sums[index] = 0 }
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
