/// What a full-screen loop needs of a terminal: its size, a way to write, and the keys typed.
/// `RawTerminal` is the real one; tests give the loops an in-memory screen with scripted keys.
public protocol Terminal: AnyObject {
    /// The size in cells now (it changes when the window is resized).
    var size: TerminalSize { get }
    /// Writes `text` at once; false when the output has gone.
    func write(_ text: String) -> Bool
    /// The keys typed within `timeout` seconds: returns as soon as there are some, or empty when
    /// the time is up.
    func readKeys(timeout: Double) -> [TerminalKey]
}
