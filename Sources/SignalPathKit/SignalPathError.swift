/// What went wrong with an input, always naming the file and the cause.
///
/// `description` is one line for people (`FILE: reason`); `category` tells the executable which exit
/// code to use, so the mapping to numbers lives in one place there.
public enum SignalPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path does not exist.
    case notFound(path: String)
    /// The path exists but may not be read.
    case permissionDenied(path: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// The path names something that is neither a regular file nor a stream we can read (a socket, a device).
    case notRegularFile(path: String, kind: String)
    /// The operating system failed a read (`errno`), at `offset` when known.
    case io(path: String, errno: Int32, offset: Int64?)
    /// The bytes are not an audio format we can decode.
    case unrecognizedFormat(path: String, reason: String)
    /// The file claims to be a known format but its contents are inconsistent or truncated.
    case malformed(path: String, reason: String)
    /// The operation needs random access but the input is a stream (stdin, a pipe).
    case notSeekable(path: String)
    /// A request that cannot be satisfied for this file (a frame range outside it, say).
    case invalidRequest(path: String, reason: String)
    /// The input cannot be used now (a named pipe nobody writes to).
    case unavailable(path: String, reason: String)
    /// An audio device (ALSA) cannot be opened or used.
    case device(name: String, reason: String)
    /// Writing an output file failed (`errno`): a full disk, a file size limit.
    case write(path: String, errno: Int32)
    /// An output file cannot be created (`errno`): its directory is missing or not writable.
    case cannotCreate(path: String, errno: Int32)
    /// A file's tags could not be rewritten (replaygain): the file itself is unchanged.
    case tagsNotWritten(path: String, reason: String)
    /// A results database (scan, export, merge) failed: `kind` says how, for the exit code.
    case database(path: String, reason: String, kind: DatabaseFailure)

    /// How a results database failed.
    public enum DatabaseFailure: Sendable, Equatable {
        /// It could not be created or opened for writing (exit 73).
        case cannotCreate
        /// Reading or writing it failed: a full disk, an I/O error, a lock held too long (exit 74).
        case io
        /// It is not a signalpath database, is damaged, or was written by a newer signalpath (exit 65).
        case unusable
        /// A query the user wrote (`export --where`) is not valid SQL over the columns (exit 64).
        case badQuery
    }

    /// Broad kinds of failure; the executable maps each to one exit code.
    public enum Category: Sendable, Equatable {
        /// The input could not be opened: missing, unreadable, a directory.
        case cannotOpen
        /// The input was opened but its contents are not usable audio.
        case badData
        /// Reading failed at the operating-system level.
        case io
        /// The request itself was wrong for this input.
        case usage
        /// An output file could not be created at the operating-system level.
        case cannotCreate
    }

    /// The file this error is about, as the user named it (for a device: `ALSA device 'default'`,
    /// since a bare `default:` reads like a file name).
    public var path: String {
        switch self {
        case .notFound(let path), .permissionDenied(let path), .isDirectory(let path),
            .notRegularFile(let path, _), .io(let path, _, _), .unrecognizedFormat(let path, _),
            .malformed(let path, _), .notSeekable(let path), .invalidRequest(let path, _), .unavailable(let path, _),
            .write(let path, _), .cannotCreate(let path, _), .database(let path, _, _), .tagsNotWritten(let path, _):
            return path
        case .device(let name, _): return "ALSA device '\(name)'"
        }
    }

    /// The cause in a few words, without the path.
    public var reason: String {
        switch self {
        case .notFound: return "no such file"
        case .permissionDenied: return "permission denied"
        case .isDirectory: return "is a directory"
        case .notRegularFile(_, let kind): return "is a \(kind), not a regular file"
        case .io(_, let code, let offset):
            let cause = String(cString: strerror(code))
            if let offset { return "read error at byte \(offset): \(cause)" }
            return "read error: \(cause)"
        case .unrecognizedFormat(_, let reason), .malformed(_, let reason), .invalidRequest(_, let reason):
            return reason
        case .notSeekable: return "input is a stream and cannot seek backwards"
        case .device(_, let reason), .unavailable(_, let reason), .database(_, let reason, _), .tagsNotWritten(_, let reason): return reason
        case .write(_, let code): return "write failed: \(String(cString: strerror(code)))"
        case .cannotCreate(_, let code): return "cannot create: \(String(cString: strerror(code)))"
        }
    }

    public var category: Category {
        switch self {
        case .notFound, .permissionDenied, .isDirectory, .notRegularFile: return .cannotOpen
        case .io, .write: return .io
        case .device, .unavailable: return .cannotOpen
        case .unrecognizedFormat, .malformed: return .badData
        case .notSeekable, .invalidRequest: return .usage
        case .cannotCreate, .tagsNotWritten: return .cannotCreate
        case .database(_, _, let kind):
            switch kind {
            case .cannotCreate: return .cannotCreate
            case .io: return .io
            case .unusable: return .badData
            case .badQuery: return .usage
            }
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// Maps an `errno` from opening or reading `path` to the most specific case.
    static func fromErrno(_ code: Int32, path: String, offset: Int64? = nil) -> SignalPathError {
        switch code {
        case ENOENT, ENOTDIR: return .notFound(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case EISDIR: return .isDirectory(path: path)
        default: return .io(path: path, errno: code, offset: offset)
        }
    }
}
