/// The overview of a frame range: per column and channel the smallest and largest sample, the RMS
/// and the clipped samples — what a waveform picture draws, one column per pixel (or braille dot).
///
/// Column `c` of `C` covers the range's frames ⌊c·N/C⌋ ..< ⌊(c+1)·N/C⌋ exactly (N frames; C ≤ N,
/// so no column is empty): every frame is in one column, and columns differ by at most one frame.
public struct WaveformEnvelope: Sendable, Equatable {
    public let path: String
    /// The stream drawn, when reports name it (`AudioFile.namedStream`).
    public var stream: AudioStream?
    public let sampleRate: Int
    /// The frames of the file the waveform covers.
    public let frames: Range<Int64>
    /// The result channels' names (`left`, `FL`, `mix`, …).
    public let channelNames: [String]
    /// The magnitude counted as clipped: the largest code of the file's sample format.
    public let fullScale: Float
    public let columns: Int

    /// Per column and channel (channel fastest).
    public internal(set) var minimum: [Float]
    public internal(set) var maximum: [Float]
    /// Σ sample², in Double, summed in frame order within each fixed chunk and chunk by chunk.
    var sumOfSquares: [Double]
    public internal(set) var clipped: [Int64]

    init(path: String, sampleRate: Int, frames: Range<Int64>, channelNames: [String], fullScale: Float, columns: Int) {
        precondition(columns >= 1 && Int64(columns) <= Int64(frames.count))
        self.path = path
        self.sampleRate = sampleRate
        self.frames = frames
        self.channelNames = channelNames
        self.fullScale = fullScale
        self.columns = columns
        let count = columns * channelNames.count
        minimum = [Float](repeating: .infinity, count: count)
        maximum = [Float](repeating: -.infinity, count: count)
        sumOfSquares = [Double](repeating: 0, count: count)
        clipped = [Int64](repeating: 0, count: count)
    }

    public var channelCount: Int { channelNames.count }

    /// Where column `column` starts, relative to the range: ⌊column·N/C⌋.
    public func columnStart(_ column: Int) -> Int64 {
        Self.columnStart(column, columns: columns, frames: Int64(frames.count))
    }

    static func columnStart(_ column: Int, columns: Int, frames: Int64) -> Int64 {
        dividedFloor(frames, times: Int64(column), by: Int64(columns))
    }

    /// ⌊a·b/c⌋ for non-negative values, exact in 128 bits (a·b passes 2^63 at 2^47 frames and 65 536 columns).
    static func dividedFloor(_ a: Int64, times b: Int64, by c: Int64) -> Int64 {
        let product = a.multipliedFullWidth(by: b)
        return c.dividingFullWidth((product.high, product.low)).quotient
    }

    /// The frames of column `column`, relative to the range.
    public func columnFrames(_ column: Int) -> Range<Int64> { columnStart(column)..<columnStart(column + 1) }

    /// The frames of column `column` in the file.
    public func fileFrames(_ column: Int) -> Range<Int64> {
        let relative = columnFrames(column)
        return frames.lowerBound + relative.lowerBound..<frames.lowerBound + relative.upperBound
    }

    /// The RMS of column `column`, channel `channel`, relative to full scale (a full-scale square
    /// wave reads 1, a full-scale sine 0.707).
    public func rms(_ column: Int, _ channel: Int) -> Double {
        (sumOfSquares[column * channelCount + channel] / Double(columnFrames(column).count)).squareRoot()
    }

    public func minimum(_ column: Int, _ channel: Int) -> Float { minimum[column * channelCount + channel] }
    public func maximum(_ column: Int, _ channel: Int) -> Float { maximum[column * channelCount + channel] }
    public func clipped(_ column: Int, _ channel: Int) -> Int64 { clipped[column * channelCount + channel] }

    /// The range in seconds.
    public var seconds: ClosedRange<Double> {
        Double(frames.lowerBound) / Double(sampleRate)...Double(frames.upperBound) / Double(sampleRate)
    }

    /// Adds a chunk's partial columns (in chunk order: a column split between two chunks gets its
    /// first part first, so its sum is the same for any number of workers).
    mutating func merge(_ chunk: WaveformChunk) {
        let channels = channelCount
        for (offset, index) in (chunk.firstColumn * channels..<chunk.firstColumn * channels + chunk.minimum.count).enumerated() {
            minimum[index] = Swift.min(minimum[index], chunk.minimum[offset])
            maximum[index] = Swift.max(maximum[index], chunk.maximum[offset])
            sumOfSquares[index] += chunk.sumOfSquares[offset]
            clipped[index] += chunk.clipped[offset]
        }
    }
}

/// One chunk's part of a waveform: the columns it touches, from `firstColumn` on.
struct WaveformChunk: Sendable {
    var index: Int
    var firstColumn: Int
    var minimum: [Float]
    var maximum: [Float]
    var sumOfSquares: [Double]
    var clipped: [Int64]
    /// Where the input ended, relative to the range, when it ended early.
    var endOfInput: Int64?
}
