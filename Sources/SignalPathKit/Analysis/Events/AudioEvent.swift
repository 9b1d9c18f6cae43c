/// One thing that happens at a time in a file: a silence, a clipped stretch, a dropout, a span of
/// DC offset or a jump in loudness.
public struct AudioEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case silence, clipping, dropout
        case dcOffset = "dc_offset"
        case loudnessJump = "loudness_jump"
    }

    public var kind: Kind
    /// The channel (0-based), or nil for events of all channels together (silence, loudness jumps).
    public var channel: Int?
    /// The event's frames, relative to the file (not to a range).
    public var frames: Range<Int64>
    /// The level that characterises it: the peak of a silence or clipping, the level during a
    /// dropout, the DC offset (all dBFS; nil for −∞), the short-term loudness after a jump (LUFS).
    public var level: Double?
    /// Clipping: full-scale samples in the event's runs; dropouts: the repeated value.
    public var samples: Int64
    /// Words for people.
    public var detail: String

    /// The level in dBFS (nil for a loudness jump, whose level is a loudness).
    public var levelDBFS: Double? { kind == .loudnessJump ? nil : level }
    /// The short-term loudness after a loudness jump, LUFS (nil for every other kind).
    public var loudnessLUFS: Double? { kind == .loudnessJump ? level : nil }

    public init(kind: Kind, channel: Int?, frames: Range<Int64>, level: Double?, samples: Int64 = 0, detail: String) {
        self.kind = kind
        self.channel = channel
        self.frames = frames
        self.level = level
        self.samples = samples
        self.detail = detail
    }
}

/// What a file's events add up to, for rules over them (`check --max-clipped`, `--max-silence`,
/// `--max-dc`): built by `EventDetector.run`, or from a list of events with `add`.
public struct EventSummary: Sendable, Equatable {
    /// Events of each kind.
    public var counts: [AudioEvent.Kind: Int] = [:]
    /// The longest silence, in frames (0 without one).
    public var longestSilenceFrames: Int64 = 0
    /// Full-scale samples in clipping events, over all channels.
    public var clippedSamples: Int64 = 0
    /// The longest span of DC offset above the limit, in frames.
    public var longestDCFrames: Int64 = 0
    /// The largest DC offset of those spans (fraction of full scale, by magnitude); 0 without one.
    public var largestDC = 0.0
    /// Frames of dropouts, over all channels.
    public var dropoutFrames: Int64 = 0
    public let sampleRate: Int

    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    public var longestSilence: Double { Double(longestSilenceFrames) / Double(sampleRate) }
    public var longestDC: Double { Double(longestDCFrames) / Double(sampleRate) }

    public mutating func add(_ event: AudioEvent) {
        counts[event.kind, default: 0] += 1
        let length = Int64(event.frames.count)
        switch event.kind {
        case .silence: longestSilenceFrames = max(longestSilenceFrames, length)
        case .clipping: clippedSamples += event.samples
        case .dcOffset:
            longestDCFrames = max(longestDCFrames, length)
            if let level = event.level { largestDC = max(largestDC, pow(10, level / 20)) }
        case .dropout: dropoutFrames += length
        case .loudnessJump: break
        }
    }
}
