/// A file's chosen channels as interleaved Float frames (a channel each, or their mean), read
/// forwards in pieces: what `compare` reads both of its files through, so that neither is ever held
/// whole. Not Sendable: one thread owns it.
final class SelectedFrames {
    let file: AudioFile
    /// Per output channel, the file's channel, or nil for the mean of all of them.
    let sources: [Int?]
    var channels: Int { sources.count }
    private let reader: AudioReader
    private var decoded: [Float] = []

    init(file: AudioFile, sources: [Int?]) throws(SignalPathError) {
        self.file = file
        self.sources = sources
        reader = try file.makeReader()
    }

    /// The frame the next read starts at.
    var position: Int64 { reader.position }

    func seek(toFrame frame: Int64) throws(SignalPathError) {
        try reader.seek(toFrame: frame)
    }

    /// Up to `frames` frames from the position on, appended to `output`; returns how many (0 at
    /// the end of the file).
    @discardableResult
    func read(frames: Int, appendingTo output: inout [Float]) throws(SignalPathError) -> Int {
        let fileChannels = file.format.channels
        if decoded.count < frames * fileChannels { decoded = [Float](repeating: 0, count: frames * fileChannels) }
        let count = try reader.read(into: &decoded, frames: frames)
        guard count > 0 else { return 0 }
        if sources == [0] && fileChannels == 1 || sources == Array(0..<fileChannels).map(Optional.some) {
            output.append(contentsOf: decoded[0..<count * fileChannels])
            return count
        }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: count * channels))
        decoded.withUnsafeBufferPointer { decoded in
            output.withUnsafeMutableBufferPointer { output in
                for (index, source) in sources.enumerated() {
                    if let source {
                        for frame in 0..<count { output[start + frame * channels + index] = decoded[frame * fileChannels + source] }
                    } else {
                        let scale = 1 / Float(fileChannels)
                        for frame in 0..<count {
                            var sum: Float = 0
                            for channel in 0..<fileChannels { sum += decoded[frame * fileChannels + channel] }
                            output[start + frame * channels + index] = sum * scale
                        }
                    }
                }
            }
        }
        return count
    }

    /// The frames `range` (zeros where it lies before the file's start or past its end), `range.count` frames.
    func excerpt(_ range: Range<Int64>) throws(SignalPathError) -> [Float] {
        var output: [Float] = []
        output.reserveCapacity(range.count * channels)
        let before = Int(min(max(0, -range.lowerBound), Int64(range.count)))
        output.append(contentsOf: repeatElement(0, count: before * channels))
        var next = range.lowerBound + Int64(before)
        if next < range.upperBound, file.format.frames.map({ next < $0 }) ?? true {
            try seek(toFrame: next)
            reader.limitReadAhead(toFrame: range.upperBound)
            while next < range.upperBound {
                let count = try read(frames: Int(min(65536, range.upperBound - next)), appendingTo: &output)
                if count == 0 { break }
                next += Int64(count)
            }
        }
        output.append(contentsOf: repeatElement(0, count: range.count * channels - output.count))
        return output
    }
}
