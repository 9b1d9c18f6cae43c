/// What replay shows.
public enum ReplayView: String, Sendable, CaseIterable {
    case spectrum, spectrogram, both

    var next: ReplayView {
        switch self {
        case .both: return .spectrum
        case .spectrum: return .spectrogram
        case .spectrogram: return .both
        }
    }
}

/// The state of a replay, moved by keys and by time: the play head, pause, speed and view. Pure:
/// tests drive it directly, and the full-screen loop feeds it keys and elapsed time.
public struct ReplaySession: Sendable, Equatable {
    /// Seconds from the start of the file.
    public private(set) var position: Double
    public private(set) var duration: Double
    public private(set) var paused = false
    public private(set) var speed: Double
    public var view: ReplayView
    public private(set) var quit = false
    /// Set when the play head jumped (the audio device drops what it had queued).
    public private(set) var seeked = false

    public static let speeds: [Double] = [0.25, 0.5, 1, 1.5, 2, 4, 8]

    public init(duration: Double, from start: Double = 0, speed: Double = 1, view: ReplayView = .both) {
        self.duration = max(0, duration)
        position = min(max(0, start), self.duration)
        self.speed = speed
        self.view = view
    }

    /// Lets `seconds` of wall time pass: the play head moves by `seconds × speed` unless paused,
    /// and stops at the end.
    public mutating func advance(by seconds: Double) {
        seeked = false
        guard !paused else { return }
        position = min(duration, position + seconds * speed)
    }

    /// The file grew (`--follow`).
    public mutating func extend(to duration: Double) {
        self.duration = max(self.duration, duration)
    }

    public mutating func handle(_ key: TerminalKey) {
        switch key {
        case .character(" "): paused.toggle()
        case .left: seek(by: -5)
        case .right: seek(by: 5)
        case .shiftLeft, .pageDown, .down: seek(by: -60)
        case .shiftRight, .pageUp, .up: seek(by: 60)
        case .home: seek(to: 0)
        case .end: seek(to: duration)
        case .character("+"), .character("="): speed = Self.speeds.first { $0 > speed } ?? speed
        case .character("-"), .character("_"): speed = Self.speeds.last { $0 < speed } ?? speed
        case .character("v"): view = view.next
        case .character("q"), .character("Q"), .escape, .interrupt: quit = true
        default: break
        }
    }

    public mutating func seek(to time: Double) {
        position = min(max(0, time), duration)
        seeked = true
    }

    public mutating func seek(by seconds: Double) { seek(to: position + seconds) }

    public mutating func stop() { quit = true }

    /// At the end and not following a growing file.
    public var atEnd: Bool { position >= duration }
}
