/// The size of the terminal on standard output, in cells.
public struct TerminalSize: Equatable, Sendable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// From the terminal (TIOCGWINSZ on standard output), else COLUMNS and LINES, else nil.
    public static func current(environment: [String: String]) -> TerminalSize? {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
        }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return TerminalSize(columns: columns, rows: environment["LINES"].flatMap(Int.init) ?? 24)
        }
        return nil
    }
}

/// The process's environment as a dictionary (no Foundation).
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
