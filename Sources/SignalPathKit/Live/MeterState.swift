/// Level meters' memory: peak hold that falls after a while, and a clip indicator held for a few
/// seconds, per channel.
public struct MeterState: Sendable {
    public private(set) var peakHold: [Double]
    public private(set) var clipUntil: [Double]
    private var heldAt: [Double]

    public static let holdSeconds = 1.5, fallPerSecond = 20.0, clipHoldSeconds = 3.0

    public init(channels: Int) {
        peakHold = [Double](repeating: -.infinity, count: channels)
        clipUntil = [Double](repeating: -.infinity, count: channels)
        heldAt = [Double](repeating: 0, count: channels)
    }

    /// Takes in a frame shown at wall time `now` (seconds).
    public mutating func update(_ frame: LiveFrame, now: Double) {
        for channel in peakHold.indices where channel < frame.peak.count {
            if frame.peak[channel] >= peakHold[channel] {
                peakHold[channel] = frame.peak[channel]
                heldAt[channel] = now
            } else if now - heldAt[channel] > Self.holdSeconds {
                peakHold[channel] = max(frame.peak[channel], peakHold[channel] - Self.fallPerSecond * (now - heldAt[channel] - Self.holdSeconds))
            }
            if frame.clipped[channel] { clipUntil[channel] = now + Self.clipHoldSeconds }
        }
    }

    public func isClipping(_ channel: Int, now: Double) -> Bool { clipUntil[channel] > now }
}
