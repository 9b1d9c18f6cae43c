/// How a scan went: what `--format json` prints (`signalpath.scan/1`) and the exit code follows.
public struct ScanSummary: Sendable, Equatable {
    /// Files read and analysed by this run (successfully).
    public var analysed = 0
    /// Files read again because their rows were made with other settings (`--rescan`): each is
    /// also in `analysed` or `failed`.
    public var rescanned = 0
    /// Files whose stored row (path, size, mtime) still holds, made with this scan's settings or
    /// with more (`ScanSettings.KeyRelation.covers`): not analysed.
    public var unchanged = 0
    /// Unchanged files whose rows were made with other settings, kept as they are (no `--rescan`).
    public var keptOtherSettings = 0
    /// Files recognised by their content under another stored path: not analysed again.
    public var recognised = 0
    /// Files that could not be analysed by this run (rows with status `error`).
    public var failed = 0
    /// Unchanged files whose stored row is an error (not read again).
    public var failedBefore = 0
    /// Paths that could not be walked (unreadable directories, link loops): reported, no row.
    public var unreachable = 0
    /// Files that disappeared between the listing and their turn: reported, no row.
    public var vanished = 0
    /// Rows written by this run for files shorter than their headers promise (analysed or
    /// recognised, and failures that hold no frames at all).
    public var truncated = 0
    /// Such rows kept from earlier scans (unchanged files, or kept with other settings).
    public var truncatedBefore = 0
    /// With a profile: this run's files whose rows hold its verdict, passed or not, and those whose
    /// rows (kept with other settings) do not hold it. Failures have no verdict and are not counted.
    public var passed = 0
    public var notPassed = 0
    public var withoutVerdict = 0
    /// Bytes of the files analysed (or hashed) by this run.
    public var bytesRead: Int64 = 0
    /// Transactions committed and rows written.
    public var commits = 0
    public var rowsWritten = 0
    public var seconds = 0.0
    /// The signal that stopped the scan early (its files in flight were finished and committed).
    public var interruptedBy: Int32?

    public init() {}

    public var total: Int { analysed + unchanged + keptOtherSettings + recognised + failed + failedBefore + vanished }
}

/// A scan in progress, for the progress line.
public struct ScanProgress: Sendable {
    public var done: Int
    public var total: Int
    public var failed: Int
    public var bytesDone: Int64
    public var bytesTotal: Int64
    public var seconds: Double
}
