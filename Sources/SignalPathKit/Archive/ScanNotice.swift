/// What a scan tells its user besides failures (which are `SignalPathError`s): each becomes one
/// line on standard error.
public enum ScanNotice: Sendable, Equatable {
    /// Where a truncated file's row comes from.
    public enum Origin: Sendable, Equatable {
        /// Analysed by this run.
        case analysed
        /// Kept from an earlier scan (the file is unchanged).
        case stored
        /// Copied from a stored file with the same content.
        case recognised
    }

    /// What becomes of the unchanged files whose rows were made with other settings.
    public enum Outcome: Sendable, Equatable {
        /// Kept: their rows hold all this scan asks for, and more (verdicts, events).
        case keptCovering
        /// Kept as they are, not analysed again (no `--rescan`).
        case kept
        /// Analysed again with this scan's settings (`--rescan`).
        case rescanned
    }

    /// A file that holds fewer frames than its header promises.
    case truncated(path: String, framesPromised: Int64, framesPresent: Int64, origin: Origin)
    /// `files` unchanged files have rows made with `storedKey` where this scan's is `currentKey`;
    /// said before any file is read.
    case otherSettings(files: Int, storedKey: String, currentKey: String, outcome: Outcome)
    /// The database's schema was brought up from version `from` to `ScanStore.schemaVersion` as it
    /// opened: older signalpaths refuse it from now on. Said first.
    case migrated(from: Int)
}
