@testable import SignalPathKit

/// A terminal in memory for the live loops: a fixed (or scripted) size, keys and resizes at
/// scripted moments of a `ManualClock`, and a screen that interprets what the loop writes — the
/// sequences `ANSIRenderer.frame` uses (cursor position, clear, SGR, synchronized output) — so
/// tests read it as a person would see it.
final class FakeTerminal: Terminal {
    enum Event {
        case keys(String)
        case resize(TerminalSize)
        /// Saves, under a label, the first frame written at or after that moment.
        case snapshot(String)
    }

    let clock: ManualClock
    private(set) var size: TerminalSize
    private var script: [(time: Double, event: Event)]
    private var snapshotScript: [(time: Double, label: String)]
    /// Each write moves the clock on by this much (drawing takes time; record's loop, whose
    /// reads do not wait here, uses it as the time between frames).
    var timePerWrite = 0.0
    /// Past this time on the clock, reading keys returns Ctrl-C: a loop the script forgot to stop
    /// ends instead of running for ever.
    var giveUpAt = 600.0
    private(set) var screen: [[Character]]
    private(set) var snapshots: [String: [String]] = [:]
    private(set) var writes = 0
    /// What was written, all of it (for checks on the escape sequences).
    private(set) var output = ""
    /// False makes writes fail (the terminal has gone).
    var accepting = true
    private var cursor = (row: 0, column: 0)

    init(columns: Int = 100, rows: Int = 30, clock: ManualClock, script: [(Double, Event)] = []) {
        self.clock = clock
        size = TerminalSize(columns: columns, rows: rows)
        let sorted = script.sorted { $0.0 < $1.0 }.map { (time: $0.0, event: $0.1) }
        self.script = sorted.filter { if case .snapshot = $0.event { false } else { true } }
        snapshotScript = sorted.compactMap { if case .snapshot(let label) = $0.event { (time: $0.time, label: label) } else { nil } }
        screen = Self.blank(size)
    }

    static func blank(_ size: TerminalSize) -> [[Character]] {
        [[Character]](repeating: [Character](repeating: " ", count: size.columns), count: size.rows)
    }

    /// The rows of the screen, trailing spaces removed.
    var lines: [String] {
        screen.map { row in
            var line = String(row)
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    func write(_ text: String) -> Bool {
        guard accepting else { return false }
        writes += 1
        output += text
        interpret(text)
        while let next = snapshotScript.first, next.time <= clock.now {
            snapshotScript.removeFirst()
            snapshots[next.label] = lines
        }
        clock.advance(to: clock.now + timePerWrite)
        return true
    }

    func readKeys(timeout: Double) -> [TerminalKey] {
        if clock.now >= giveUpAt { return [.interrupt] }
        let until = clock.now + max(0, timeout)
        guard let next = script.first, next.time <= until else {
            clock.advance(to: until)
            return []
        }
        clock.advance(to: next.time)
        var keys: [TerminalKey] = []
        while let event = script.first, event.time <= clock.now {
            script.removeFirst()
            switch event.event {
            case .keys(let text): keys += TerminalKey.decode(Array(text.utf8))
            case .resize(let newSize):
                size = newSize
                screen = Self.blank(newSize)
            case .snapshot: break
            }
        }
        return keys
    }

    /// Cursor moves (`ESC [ row ; column H`), clears (`ESC [ 2 J`); other CSI sequences (colours,
    /// modes) change nothing on a text screen.
    private func interpret(_ text: String) {
        // By Unicode scalar: what is drawn is one scalar per cell, and grapheme breaking is slow.
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                if cursor.row < size.rows && cursor.column < size.columns { screen[cursor.row][cursor.column] = Character(scalar) }
                cursor.column += 1
                continue
            }
            guard scalars.next() == "[" else { continue }
            var parameters = ""
            while let next = scalars.next() {
                if (0x40...0x7E).contains(next.value) {
                    if next == "H" {
                        let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
                        cursor = (max(0, (numbers.first ?? 1) - 1), max(0, (numbers.count > 1 ? numbers[1] : 1) - 1))
                    } else if next == "J" && parameters == "2" {
                        screen = Self.blank(size)
                    }
                    break
                }
                parameters.unicodeScalars.append(next)
            }
        }
    }
}
