/// Sample statistics of one channel over a run of frames: extremes, sums, zero crossings, clipping,
/// the frames above the silence threshold and the finest bit in use.
///
/// Built per chunk by `accumulate(_:firstFrame:rules:)` and merged in frame order with
/// `merge(_:)`; merging is associative, so chunks processed by any number of workers and merged in
/// order give the same result.
public struct LevelStatistics: Sendable, Equatable {
    /// The rules that decide what counts as clipped and as silent.
    public struct Rules: Sendable, Equatable {
        /// A sample is at full scale when its magnitude reaches this (1 − 1 LSB for integer formats,
        /// 1.0 for floating point).
        public var fullScale: Float
        /// Clipped samples are the samples of runs of at least this many consecutive full-scale samples.
        public var minimumClipRun: Int
        /// Runs that clip and start less than this many samples after the previous one ended are
        /// one clipping event, as `events` groups them (0: each run is an event of its own).
        public var clipEventGap: Int
        /// Samples whose magnitude reaches this are not silence.
        public var silenceThreshold: Float
        /// The exponent of the finest bit the format can hold (−15 for 16-bit PCM, −149 for float):
        /// once a sample uses it, the bits in use are known and no longer looked for (`Int.max`:
        /// not looked for at all).
        public var finestBitExponent: Int
        /// True when the caller guarantees no NaN or infinity (analyze zeroes them first): blocks
        /// then skip the check, and integer formats skip the zeroing pass
        /// (docs/DECISIONS.md#level-blocks).
        public var samplesAreFinite: Bool

        public init(
            fullScale: Float, minimumClipRun: Int = 3, clipEventGap: Int = 0, silenceThreshold: Float, finestBitExponent: Int = -149,
            samplesAreFinite: Bool = false
        ) {
            self.fullScale = fullScale
            self.minimumClipRun = minimumClipRun
            self.clipEventGap = clipEventGap
            self.silenceThreshold = silenceThreshold
            self.finestBitExponent = finestBitExponent
            self.samplesAreFinite = samplesAreFinite
        }
    }

    /// Frames seen (finite or not).
    public private(set) var frames: Int64 = 0
    /// NaN or infinite samples: skipped by every other statistic.
    public private(set) var nonFiniteSamples: Int64 = 0
    public private(set) var minimum: Float = .infinity
    public private(set) var maximum: Float = -.infinity
    /// The largest magnitude, and the first frame that reaches it.
    public private(set) var peak: Float = 0
    public private(set) var peakFrame: Int64?
    public private(set) var sum: Double = 0
    public private(set) var sumOfSquares: Double = 0
    /// Sign changes between consecutive samples (a sample of 0 counts as positive).
    public private(set) var zeroCrossings: Int64 = 0
    /// First and last frame whose magnitude reaches the silence threshold.
    public private(set) var firstAudibleFrame: Int64?
    public private(set) var lastAudibleFrame: Int64?
    /// The exponent of the lowest set bit over all non-zero samples: −15 for 16-bit PCM.
    public private(set) var lowestBitExponent: Int = .max
    var clipRuns = ClipRuns(minimumRun: 1)
    var firstSample: Float?
    var lastSample: Float?

    public init() {}

    /// Clipped samples: those in runs of at least `Rules.minimumClipRun` full-scale samples.
    public var clippedSamples: Int64 { clipRuns.clippedSamples }
    /// Clipping events: the runs long enough to count, those less than `Rules.clipEventGap`
    /// samples apart taken as one (as `events` lists them).
    public var clipEvents: Int64 { clipRuns.clippedEvents }

    /// Samples that counted (finite ones).
    public var finiteSamples: Int64 { frames - nonFiniteSamples }

    /// Adds the samples of `samples` (one channel, contiguous), which are frames `firstFrame…`;
    /// returns their sum of squares.
    ///
    /// Works in blocks of 64: a block of finite samples with no new peak, no full-scale sample and
    /// no first audible sample is summarised four samples at a time; the others (rare in real
    /// audio) sample by sample. Both give the same statistics (sums may differ in the last bits, as
    /// they are added in another order).
    @discardableResult
    public mutating func accumulate(_ samples: UnsafeBufferPointer<Float>, firstFrame: Int64, rules: Rules) -> Double {
        guard let base = samples.baseAddress, !samples.isEmpty else { return 0 }
        var pass = Pass(statistics: self, rules: rules, first: samples[0])
        var start = 0
        while start < samples.count {
            let end = min(start + Pass.blockSize, samples.count)
            if end - start == Pass.blockSize, rules.samplesAreFinite || Self.allFinite(UnsafeBufferPointer(start: base + start, count: Pass.blockSize)) {
                pass.block(base, start)
            } else {
                pass.sampleBySample(base, start..<end)
            }
            start = end
        }
        pass.findLastAudible(base)
        pass.clip.count = Int64(samples.count) - pass.nonFinite
        pass.clip.isUnbroken = !pass.seenBelowFullScale
        if pass.clip.isUnbroken { pass.clip.leading = pass.run } else { pass.clip.trailing = pass.run }
        clipRuns.merge(pass.clip)
        if pass.peakIndex >= 0 { peakFrame = firstFrame + Int64(pass.peakIndex) }
        if pass.firstAudible >= 0 {
            if firstAudibleFrame == nil { firstAudibleFrame = firstFrame + Int64(pass.firstAudible) }
            lastAudibleFrame = firstFrame + Int64(pass.lastAudible)
        }
        minimum = pass.minimum
        maximum = pass.maximum
        peak = pass.peak
        sum += pass.sum
        sumOfSquares += pass.squares
        zeroCrossings += pass.crossings
        lowestBitExponent = pass.lowestBit
        nonFiniteSamples += pass.nonFinite
        frames += Int64(samples.count)
        if firstSample == nil { firstSample = samples.first(where: { $0.isFinite }) }
        if let last = samples.last(where: { $0.isFinite }) { lastSample = last }
        return pass.squares
    }

    /// Appends the statistics of the frames that follow these.
    public mutating func merge(_ next: LevelStatistics) {
        if let last = lastSample, let first = next.firstSample, (last < 0) != (first < 0) { zeroCrossings += 1 }
        zeroCrossings += next.zeroCrossings
        if next.peak > peak {
            peak = next.peak
            peakFrame = next.peakFrame
        }
        minimum = min(minimum, next.minimum)
        maximum = max(maximum, next.maximum)
        sum += next.sum
        sumOfSquares += next.sumOfSquares
        firstAudibleFrame = firstAudibleFrame ?? next.firstAudibleFrame
        lastAudibleFrame = next.lastAudibleFrame ?? lastAudibleFrame
        lowestBitExponent = min(lowestBitExponent, next.lowestBitExponent)
        clipRuns.merge(next.clipRuns)
        frames += next.frames
        nonFiniteSamples += next.nonFiniteSamples
        firstSample = firstSample ?? next.firstSample
        lastSample = next.lastSample ?? lastSample
    }
}

/// Runs of full-scale samples over a stretch of samples, kept so that stretches can be joined:
/// the runs touching either end stay open until the neighbours are known. The closed runs that
/// count are also kept as clipping events (runs less than `eventGap` apart are one), with where
/// the first starts and the last ends, so that events meeting across a join become one.
struct ClipRuns: Sendable, Equatable {
    /// Runs shorter than this are not clipping.
    var minimumRun: Int64
    /// Counted runs that start less than this many samples after the previous one ended belong to its event.
    var eventGap: Int64
    /// Finite samples covered.
    var count: Int64 = 0
    /// True when every sample is at full scale (then `leading` is `count`).
    var isUnbroken = true
    /// The run that starts the stretch, and the one that ends it (0 when there is none).
    var leading: Int64 = 0
    var trailing: Int64 = 0
    /// Samples and runs of the closed runs long enough to count, touching neither end.
    var closedSamples: Int64 = 0
    var closedRuns: Int64 = 0
    /// The events those runs make, the first run's start and the last run's end (offsets in the
    /// stretch; 0 while there is no closed run).
    var closedEvents: Int64 = 0
    var firstClosedStart: Int64 = 0
    var lastClosedEnd: Int64 = 0

    init(minimumRun: Int, eventGap: Int = 0) {
        self.minimumRun = Int64(minimumRun)
        self.eventGap = Int64(eventGap)
    }

    /// Records a run that touches neither end and stops before the sample at offset `end`.
    mutating func close(_ run: Int64, endingAt end: Int64) {
        guard run >= minimumRun else { return }
        appendClosed(start: end - run, end: end, events: 1)
        closedSamples += run
        closedRuns += 1
    }

    /// Appends closed runs from `start` to `end` that make `events` events among themselves: the
    /// first of them joins the last event so far when it starts within the gap.
    private mutating func appendClosed(start: Int64, end: Int64, events: Int64) {
        if closedEvents == 0 {
            firstClosedStart = start
            closedEvents = events
        } else {
            closedEvents += start - lastClosedEnd < eventGap ? events - 1 : events
        }
        lastClosedEnd = end
    }

    /// Appends the stretch that follows this one.
    mutating func merge(_ next: ClipRuns) {
        minimumRun = max(minimumRun, next.minimumRun)
        eventGap = max(eventGap, next.eventGap)
        guard next.count > 0 else { return }
        guard count > 0 else {
            self = next
            return
        }
        switch (isUnbroken, next.isUnbroken) {
        case (true, true):
            leading += next.leading
        case (true, false):
            let offset = count
            let joined = count + next.leading
            self = next
            count += offset
            leading = joined
            if closedRuns > 0 {
                firstClosedStart += offset
                lastClosedEnd += offset
            }
            return
        case (false, true):
            trailing += next.count
        case (false, false):
            close(trailing + next.leading, endingAt: count + next.leading)
            if next.closedRuns > 0 {
                appendClosed(start: count + next.firstClosedStart, end: count + next.lastClosedEnd, events: next.closedEvents)
            }
            closedSamples += next.closedSamples
            closedRuns += next.closedRuns
            trailing = next.trailing
        }
        count += next.count
    }

    private func counted(_ run: Int64) -> Int64 { run >= minimumRun ? run : 0 }

    var clippedSamples: Int64 {
        isUnbroken ? counted(leading) : closedSamples + counted(leading) + counted(trailing)
    }

    /// The clipping events of the whole stretch, its end runs counted as closed (they touch the
    /// start or the end of what was read).
    var clippedEvents: Int64 {
        if isUnbroken { return counted(leading) > 0 ? 1 : 0 }
        var whole = ClipRuns(minimumRun: Int(minimumRun), eventGap: Int(eventGap))
        if counted(leading) > 0 { whole.appendClosed(start: 0, end: leading, events: 1) }
        if closedRuns > 0 { whole.appendClosed(start: firstClosedStart, end: lastClosedEnd, events: closedEvents) }
        if counted(trailing) > 0 { whole.appendClosed(start: count - trailing, end: count, events: 1) }
        return whole.closedEvents
    }
}
