import Foundation

/// A sum of sinusoids with raised-cosine ends, whose continuous-time peak is computed from the
/// closed form, independently of any interpolator: the reference for true-peak meters.
///
/// The ends are tapered so that the file's own start and end are not onsets (an abrupt start
/// rings through any interpolation filter, and its true peak is then the filter's, not the signal's).
public struct BandLimitedSignal: Sendable, CustomStringConvertible {
    public struct Component: Sendable {
        public var frequency: Double
        public var amplitude: Double
        public var phase: Double

        public init(frequency: Double, amplitude: Double, phase: Double) {
            self.frequency = frequency
            self.amplitude = amplitude
            self.phase = phase
        }
    }

    public var components: [Component]
    public var sampleRate: Int
    public var frames: Int
    /// Length of each raised-cosine end, in frames.
    public var taperFrames: Int
    /// What the signal is, for messages.
    public var name: String
    /// The factor that brings the largest sample to `samplePeak`.
    private var scale = 1.0

    /// Scaled so that its largest sample is `samplePeak`.
    public init(_ name: String, components: [Component], sampleRate: Int, seconds: Double, taperSeconds: Double = 0.02, samplePeak: Double = 0.5) {
        self.name = name
        self.components = components
        self.sampleRate = sampleRate
        frames = Int(seconds * Double(sampleRate))
        taperFrames = Int(taperSeconds * Double(sampleRate))
        let largest = samples().reduce(0) { max($0, abs($1)) }
        scale = samplePeak / largest
    }

    public var description: String {
        "\(name) at \(sampleRate) Hz: " + components.map { "\(UnitFormatting.hertz($0.frequency))·\(String(format: "%.2f", $0.amplitude))" }.joined(separator: " + ")
    }

    /// The raised-cosine taper at time `t` (in frames; continuous).
    func taper(_ t: Double) -> Double {
        let length = Double(taperFrames)
        if t < length { return 0.5 - 0.5 * cos(Double.pi * max(0, t) / length) }
        let fromEnd = Double(frames - 1) - t
        if fromEnd < length { return 0.5 - 0.5 * cos(Double.pi * max(0, fromEnd) / length) }
        return 1
    }

    /// The signal at time `t` in frames.
    public func value(at t: Double) -> Double {
        var sum = 0.0
        for component in components {
            sum += component.amplitude * sin(2 * Double.pi * component.frequency * t / Double(sampleRate) + component.phase)
        }
        return sum * taper(t) * scale
    }

    /// One value per frame.
    public func samples() -> [Double] { (0..<frames).map { value(at: Double($0)) } }

    /// The largest |value| over continuous time: the closed form evaluated 16× per frame, then
    /// every local maximum within 0.5 % of the largest refined by golden-section search to 10⁻⁹
    /// of a frame. 16× is dense enough to find every candidate: by Bernstein's inequality a
    /// signal band-limited to 0.45·fs is within ω²δ²/2 = 0.4 % of its peak at the grid point
    /// nearest to it (δ ≤ 1/32 frame).
    public func analyticPeak() -> Double {
        let step = 1.0 / 16
        let count = (frames - 1) * 16 + 1
        var grid = [Double](repeating: 0, count: count)
        for index in 0..<count { grid[index] = abs(value(at: Double(index) * step)) }
        let largest = grid.max() ?? 0
        var peak = largest
        for index in 1..<count - 1 where grid[index] >= grid[index - 1] && grid[index] >= grid[index + 1] && grid[index] >= largest * 0.995 {
            peak = max(peak, refine(around: Double(index) * step, halfWidth: step))
        }
        return peak
    }

    /// Golden-section search for the largest |value| within ±`halfWidth` of `center`.
    private func refine(around center: Double, halfWidth: Double) -> Double {
        let ratio = (5.0.squareRoot() - 1) / 2
        var low = center - halfWidth, high = center + halfWidth
        var left = high - ratio * (high - low), right = low + ratio * (high - low)
        var leftValue = abs(value(at: left)), rightValue = abs(value(at: right))
        while high - low > 1e-9 {
            if leftValue < rightValue {
                low = left
                left = right
                leftValue = rightValue
                right = low + ratio * (high - low)
                rightValue = abs(value(at: right))
            } else {
                high = right
                right = left
                rightValue = leftValue
                left = high - ratio * (high - low)
                leftValue = abs(value(at: left))
            }
        }
        return max(leftValue, rightValue)
    }

    // MARK: The test signals of issue 14

    /// fs/4 at 45°: samples at ±0.707 of the amplitude, peaks halfway between them.
    public static func quarterRate(sampleRate: Int, seconds: Double) -> BandLimitedSignal {
        BandLimitedSignal(
            "fs/4 at 45°", components: [Component(frequency: Double(sampleRate) / 4, amplitude: 1, phase: Double.pi / 4)], sampleRate: sampleRate,
            seconds: seconds)
    }

    /// Equal sines at `frequencies` (fractions of fs) all at their crest at once, half a frame
    /// after the middle frame: a peak halfway between two samples, where a 4× grid is furthest
    /// from it (⅛ of a frame), whose curvature is that of the sines' mean frequency.
    public static func alignedBurst(sampleRate: Int, seconds: Double, frequencies: [Double]) -> BandLimitedSignal {
        let crest = Double(Int(seconds * Double(sampleRate)) / 2) + 0.5
        let components = frequencies.map { fraction in
            let frequency = fraction * Double(sampleRate)
            return Component(frequency: frequency, amplitude: 1, phase: Double.pi / 2 - 2 * Double.pi * frequency * crest / Double(sampleRate))
        }
        return BandLimitedSignal("\(frequencies.count) sines in phase between two samples", components: components, sampleRate: sampleRate, seconds: seconds)
    }

    /// 1–8 sinusoids with random frequencies from 20 Hz to `highest`·fs, amplitudes 0.1–1, phases.
    public static func randomSum(sampleRate: Int, seconds: Double, highest: Double = 0.45, lowest: Double = 20, using generator: inout SeededGenerator)
        -> BandLimitedSignal
    {
        let count = Int.random(in: 1...8, using: &generator)
        let components = (0..<count).map { _ in
            Component(
                frequency: Double.random(in: lowest...highest * Double(sampleRate), using: &generator), amplitude: Double.random(in: 0.1...1, using: &generator),
                phase: Double.random(in: 0..<2 * Double.pi, using: &generator))
        }
        return BandLimitedSignal("\(count) sines", components: components, sampleRate: sampleRate, seconds: seconds)
    }

    /// A square-like wave: the odd harmonics 1/k of a random fundamental (from 0.45·fs / 29, 15
    /// harmonics, to 0.45·fs / 3, 2 harmonics), all below 0.45·fs, shifted together in time (so
    /// they pile up at the edges, as a square's Gibbs overshoot).
    public static func squareLike(sampleRate: Int, seconds: Double, using generator: inout SeededGenerator) -> BandLimitedSignal {
        let top = 0.45 * Double(sampleRate)
        let fundamental = Double.random(in: top / 29...top / 3, using: &generator)
        let phase = Double.random(in: 0..<2 * Double.pi, using: &generator)
        let components = stride(from: 1, through: Int(top / fundamental), by: 2).map { k in
            Component(frequency: fundamental * Double(k), amplitude: 1 / Double(k), phase: phase * Double(k))
        }
        return BandLimitedSignal("square-like, \(components.count) odd harmonics", components: components, sampleRate: sampleRate, seconds: seconds)
    }
}

private enum UnitFormatting {
    static func hertz(_ value: Double) -> String { String(format: "%.0f Hz", value) }
}
