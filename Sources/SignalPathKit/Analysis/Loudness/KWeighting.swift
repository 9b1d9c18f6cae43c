import SignalPathAVX2

/// The K-weighting of ITU-R BS.1770-4: a high shelf (+4 dB above ~1.5 kHz, the head's effect)
/// followed by the RLB high-pass (~38 Hz), as two biquads.
///
/// The coefficients come from the analogue prototypes through the bilinear transform for any
/// sample rate (the formulas libebur128 uses); at 48 kHz they equal the table in BS.1770-4.
public struct KWeighting: Sendable, Equatable {
    /// b0, b1, b2, a1, a2 (a0 = 1) of each stage.
    public let shelf: [Double]
    public let highPass: [Double]

    public init(sampleRate: Int) {
        let rate = Double(sampleRate)
        var f0 = 1681.974450955533, q = 0.7071752369554196
        let gain = 3.999843853973347
        var k = tan(Double.pi * f0 / rate)
        let vh = pow(10, gain / 20), vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        shelf = [
            (vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0,
            2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0,
        ]
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * f0 / rate)
        a0 = 1 + k / q + k * k
        highPass = [1, -2, 1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0]
    }

    /// Frames after which the filter has forgotten its past: the slowest pole's response has fallen
    /// below 10⁻²⁰ of its start. Filtering a chunk from this many frames before it, from rest,
    /// gives what filtering the whole file would (to the last bit of a Double, in practice).
    public var settlingFrames: Int {
        // The poles of z² + a1·z + a2: complex pairs have radius √a2; real ones, the larger root.
        func slowestPole(_ a1: Double, _ a2: Double) -> Double {
            let discriminant = a1 * a1 - 4 * a2
            if discriminant < 0 { return a2.squareRoot() }
            return max(abs((-a1 + discriminant.squareRoot()) / 2), abs((-a1 - discriminant.squareRoot()) / 2))
        }
        let radius = max(slowestPole(shelf[3], shelf[4]), slowestPole(highPass[3], highPass[4]))
        guard radius < 1 else { return 0 }
        return Int((log(1e-20) / log(radius)).rounded(.up))
    }

    /// The multipliers of one filter step, as every loop here runs it. Each biquad is in transposed
    /// direct form II (y = b0·x + s1; s1 ← b1·x − a1·y + s2; s2 ← b2·x − a2·y). The shelf's output
    /// is written out in its state updates (s1 ← (b1 − a1·b0)·x + s2 − a1·s1, s2 ← (b2 − a2·b0)·x −
    /// a2·s1), so that its states wait on one multiply and one subtract of the last ones; the
    /// high-pass (b = 1, −2, 1) adds its old state before the product instead of after (h1 ← (h2 −
    /// 2y) − a1·z). The loops wait on that chain: 9 dependent operations a sample where the plain
    /// form has 12. Writing the high-pass's output out too (6) lost accuracy
    /// (docs/DECISIONS.md#k-weighting-chain).
    struct StepCoefficients {
        let sb0: Double, x1: Double, x2: Double, sa1: Double, sa2: Double, ha1: Double, ha2: Double
    }

    var stepCoefficients: StepCoefficients {
        let (sb0, sb1, sb2, sa1, sa2) = (shelf[0], shelf[1], shelf[2], shelf[3], shelf[4])
        return StepCoefficients(sb0: sb0, x1: sb1 - sa1 * sb0, x2: sb2 - sa2 * sb0, sa1: sa1, sa2: sa2, ha1: highPass[3], ha2: highPass[4])
    }

    /// Filter state of one channel: two biquads in transposed direct form II.
    public struct State: Sendable {
        var shelf1 = 0.0, shelf2 = 0.0, highPass1 = 0.0, highPass2 = 0.0
        public init() {}
    }

    /// Filters `samples` (one channel) on from `state`, and returns the sum of squares of the output.
    public func filter(_ samples: UnsafeBufferPointer<Float>, state: inout State) -> Double {
        let c = stepCoefficients
        var s1 = state.shelf1, s2 = state.shelf2, h1 = state.highPass1, h2 = state.highPass2
        var energy = 0.0
        for index in 0..<samples.count {
            let x = Double(samples[index])
            let y = c.sb0 * x + s1
            let z = y + h1
            energy += z * z
            (s1, s2) = ((c.x1 * x + s2) - c.sa1 * s1, c.x2 * x - c.sa2 * s1)
            (h1, h2) = ((h2 - 2 * y) - c.ha1 * z, y - c.ha2 * z)
        }
        state = State(shelf1: s1, shelf2: s2, highPass1: h1, highPass2: h2)
        return energy
    }
}

extension KWeighting {
    /// Filter state of two channels filtered together.
    public struct PairState: Sendable {
        var shelf1 = SIMD2<Double>(), shelf2 = SIMD2<Double>(), highPass1 = SIMD2<Double>(), highPass2 = SIMD2<Double>()
        public init() {}
    }

    /// Filters two channels of equal length at once, on from `state`; returns the sum of squares of
    /// each one's output. The same arithmetic as `filter(_:state:)`, lane by lane.
    public func filter(_ first: UnsafeBufferPointer<Float>, _ second: UnsafeBufferPointer<Float>, state: inout PairState) -> SIMD2<Double> {
        var energy = SIMD2<Double>()
        filter(first, second, state: &state, adding: &energy)
        return energy
    }

    /// As `filter(_:_:state:)`, adding the squares to `energy` one by one: a run split into pieces
    /// sums exactly as the whole run would. Run through the four-lane loop with the pair in both
    /// halves: the loop waits on its chain of dependent operations, not on its width, so the copy
    /// costs nothing measurable, and there is one loop to keep.
    func filter(_ first: UnsafeBufferPointer<Float>, _ second: UnsafeBufferPointer<Float>, state: inout PairState, adding energy: inout SIMD2<Double>) {
        var both = QuadState(low: state, high: state)
        var sums = SIMD4(lowHalf: energy, highHalf: energy)
        filter(first, second, first, second, state: &both, adding: &sums)
        state = both.low
        energy = sums.lowHalf
    }

    /// Whether the four-lane loop runs in `KWeightingAVX2`: on processors with AVX2, where it
    /// gives the same bits with half the vector instructions.
    static let wide = ProcessorFeatures.hasX86_64_v3

    /// Filter state of two pairs filtered together: lanes 0 and 1 one pair, 2 and 3 the other.
    struct QuadState {
        var shelf1: SIMD4<Double>, shelf2: SIMD4<Double>, highPass1: SIMD4<Double>, highPass2: SIMD4<Double>

        init(low: PairState, high: PairState) {
            shelf1 = SIMD4(lowHalf: low.shelf1, highHalf: high.shelf1)
            shelf2 = SIMD4(lowHalf: low.shelf2, highHalf: high.shelf2)
            highPass1 = SIMD4(lowHalf: low.highPass1, highHalf: high.highPass1)
            highPass2 = SIMD4(lowHalf: low.highPass2, highHalf: high.highPass2)
        }

        var low: PairState { PairState(shelf1: shelf1.lowHalf, shelf2: shelf2.lowHalf, highPass1: highPass1.lowHalf, highPass2: highPass2.lowHalf) }
        var high: PairState { PairState(shelf1: shelf1.highHalf, shelf2: shelf2.highHalf, highPass1: highPass1.highHalf, highPass2: highPass2.highHalf) }
    }

    /// Filters two pairs of channels in step, `count` samples each, adding each lane's squares to
    /// `energy`: lanes 0 and 1 are `first` and `second`, 2 and 3 `third` and `fourth`. A pair's
    /// filter is a chain of dependent multiplies and adds, so one pair leaves the processor waiting
    /// on each result; two independent pairs interleave in about the time of one
    /// (docs/DECISIONS.md#k-weighting-chain). Each lane does `filter(_:state:)`'s arithmetic, in
    /// `KWeightingQuad`: one source, compiled here and in `KWeightingAVX2`.
    func filter(
        _ first: UnsafeBufferPointer<Float>, _ second: UnsafeBufferPointer<Float>, _ third: UnsafeBufferPointer<Float>,
        _ fourth: UnsafeBufferPointer<Float>, state: inout QuadState, adding energy: inout SIMD4<Double>, wide: Bool = KWeighting.wide
    ) {
        precondition(first.count == second.count && third.count == first.count && fourth.count == first.count)
        guard first.count > 0 else { return }
        var quad = (state.shelf1, state.shelf2, state.highPass1, state.highPass2)
        let c = stepCoefficients
        let shelf = (c.sb0, c.x1, c.x2, c.sa1, c.sa2), highPass = (c.ha1, c.ha2), count = first.count
        let channels = (first.baseAddress!, second.baseAddress!, third.baseAddress!, fourth.baseAddress!)
        if wide {
            KWeightingAVX2.filter(
                channels.0, channels.1, channels.2, channels.3, count: count, shelf: shelf, highPass: highPass, state: &quad, adding: &energy)
        } else {
            KWeightingQuad.filter(
                channels.0, channels.1, channels.2, channels.3, count: count, shelf: shelf, highPass: highPass, state: &quad, adding: &energy)
        }
        (state.shelf1, state.shelf2, state.highPass1, state.highPass2) = quad
    }
}

extension KWeighting.PairState {
    init(shelf1: SIMD2<Double>, shelf2: SIMD2<Double>, highPass1: SIMD2<Double>, highPass2: SIMD2<Double>) {
        self.shelf1 = shelf1
        self.shelf2 = shelf2
        self.highPass1 = highPass1
        self.highPass2 = highPass2
    }
}

extension KWeighting.State {
    init(shelf1: Double, shelf2: Double, highPass1: Double, highPass2: Double) {
        self.shelf1 = shelf1
        self.shelf2 = shelf2
        self.highPass1 = highPass1
        self.highPass2 = highPass2
    }
}
