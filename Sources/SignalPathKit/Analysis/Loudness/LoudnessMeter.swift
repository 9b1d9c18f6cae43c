/// Momentary and short-term loudness of audio fed as it comes (replay, record): K-weighting per
/// channel, the weighted energy of each 10 ms tick, and the last 3 s of ticks.
///
/// Ticks start at frame ⌊k · rate / 100⌋ of the stream, so at every 100 ms the windows are exactly
/// those of `LoudnessSeries` and ffmpeg's ebur128; between, they end at the last whole tick (at
/// most 10 ms before the newest frame). A live view asks 10–60 times a second, which a
/// per-100 ms value would show as steps. The filter starts from rest where feeding starts: at
/// frame 0 that is the stream's own start, elsewhere the first `settlingFrames` are left out of
/// the windows, as `SignalAnalyzer` settles its chunks.
public struct LoudnessMeter: Sendable {
    public let sampleRate: Int
    private let weighting: KWeighting
    private let weights: [Double]
    private var states: [KWeighting.State]
    /// The last `ticksKept` ticks' weighted energies and frame counts, in a ring.
    private var energies: [Double]
    private var frames: [Int]
    /// Ticks completed since the last reset that count (the filter had settled before them).
    private var validTicks = 0
    private var tick = 0
    private var tickEnergy = 0.0
    /// The next frame to be fed (absolute), and the first frame whose tick counts.
    public private(set) var position: Int64 = 0
    private var validFrom: Int64 = 0
    /// One channel's samples of a piece (at most a tick), deinterleaved.
    private var column: [Float]

    static let ticksPerSecond = 100
    static let momentaryTicks = 40
    static let shortTermTicks = 300

    public init(sampleRate: Int, layout: ChannelLayout) {
        self.sampleRate = sampleRate
        weighting = KWeighting(sampleRate: sampleRate)
        // Outside the rates the filter is made for, nothing is measured (nil), as in `analyze`.
        weights = Loudness.measurableSampleRates.contains(sampleRate) ? Loudness.channelWeights(layout: layout) : layout.positions.map { _ in 0 }
        states = [KWeighting.State](repeating: KWeighting.State(), count: weights.count)
        energies = [Double](repeating: 0, count: Self.shortTermTicks)
        frames = [Int](repeating: 0, count: Self.shortTermTicks)
        column = [Float](repeating: 0, count: max(sampleRate, Self.ticksPerSecond) / Self.ticksPerSecond + 1)
    }

    /// Frames the filter needs before its output counts, after a start other than frame 0.
    public var settlingFrames: Int { weighting.settlingFrames }

    private func tickStart(_ index: Int) -> Int64 { Int64(index) * Int64(max(sampleRate, Self.ticksPerSecond)) / Int64(Self.ticksPerSecond) }

    /// Starts again from rest: the next frame fed is absolute frame `frame`.
    public mutating func reset(at frame: Int64) {
        for index in states.indices { states[index] = KWeighting.State() }
        position = frame
        validFrom = frame == 0 ? 0 : frame + Int64(settlingFrames)
        validTicks = 0
        tick = Int(frame * Int64(Self.ticksPerSecond) / Int64(max(sampleRate, Self.ticksPerSecond)))
        while tickStart(tick + 1) <= frame { tick += 1 }
        tickEnergy = 0
    }

    /// Takes the frames that follow `position`, interleaved.
    public mutating func feed(_ samples: UnsafeBufferPointer<Float>) {
        let channels = weights.count
        guard channels > 0 else { return }
        let count = samples.count / channels
        var done = 0
        while done < count {
            let pieceEnd = min(count, done + Int(tickStart(tick + 1) - position))
            let length = pieceEnd - done
            for channel in 0..<channels where weights[channel] > 0 {
                for index in 0..<length {
                    let value = samples[(done + index) * channels + channel]
                    column[index] = value.isFinite ? value : 0
                }
                tickEnergy += column.withUnsafeBufferPointer { column in
                    weights[channel] * weighting.filter(UnsafeBufferPointer(rebasing: column[0..<length]), state: &states[channel])
                }
            }
            position += Int64(length)
            done = pieceEnd
            if position == tickStart(tick + 1) { finishTick() }
        }
    }

    private mutating func finishTick() {
        if tickStart(tick) >= validFrom {
            let slot = validTicks % Self.shortTermTicks
            energies[slot] = tickEnergy
            frames[slot] = Int(tickStart(tick + 1) - tickStart(tick))
            validTicks += 1
        }
        tick += 1
        tickEnergy = 0
    }

    /// The loudness of the last 400 ms of whole ticks; nil before there are that many since the
    /// filter settled, or at or below the absolute gate.
    public var momentary: Double? { loudness(ticks: Self.momentaryTicks) }
    /// The same over the last 3 s.
    public var shortTerm: Double? { loudness(ticks: Self.shortTermTicks) }

    private func loudness(ticks: Int) -> Double? {
        guard validTicks >= ticks, weights.contains(where: { $0 > 0 }) else { return nil }
        var sum = 0.0, count = 0
        for back in (1...ticks).reversed() {
            let slot = (validTicks - back) % Self.shortTermTicks
            sum += energies[slot]
            count += frames[slot]
        }
        let value = Loudness.loudness(meanSquare: sum / Double(count))
        return value.isFinite && value > Loudness.absoluteGate ? value : nil
    }
}
