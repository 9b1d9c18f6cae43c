#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Data goes to standard output.
public enum StandardOutput {
    /// True when standard output is a terminal (then results are drawn for people).
    public static var isTerminal: Bool { isatty(1) == 1 }
}
