/// The files a scan covers: named files, directories walked recursively (following symbolic links,
/// as `find -L` does, with loops reported), and lists of paths; filtered by name and by shard.
public struct ScanTree: Sendable {
    /// Extensions taken from directories when no `--include` is given: what libsndfile reads, and
    /// the containers the FFmpeg backend is tried on.
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "bwf", "rf64", "w64", "aif", "aiff", "aifc", "caf", "flac", "ogg", "oga", "opus", "mp3", "m4a", "m4b", "mp4", "mov",
        "aac", "adts", "mka", "mkv", "webm", "ac3", "eac3", "wma", "wv", "ape", "au", "snd", "voc", "mpc",
    ]

    /// Glob patterns (`fnmatch`): a pattern with a `/` is matched against the whole path (where `*`
    /// also matches `/`), one without against the name. Files in directories are taken when they
    /// match an include pattern (default: an audio extension) and no exclude pattern; a directory
    /// matching an exclude pattern is not entered. Files named directly are always taken.
    public var include: [String] = []
    public var exclude: [String] = []
    /// Only paths of this shard (`ShardSelector`), when set.
    public var shard: ShardSelector?

    public init(include: [String] = [], exclude: [String] = [], shard: ShardSelector? = nil) {
        self.include = include
        self.exclude = exclude
        self.shard = shard
    }

    /// Calls `file` with the absolute path of each file under `roots`, in a stable order (roots in
    /// the order given, directory entries sorted by name), and `problem` with each path that cannot
    /// be walked: an unreadable directory, a symbolic link loop, a dangling link, a missing root.
    public func walk(_ roots: [String], file: (String) -> Void, problem: (SignalPathError) -> Void) {
        for root in roots {
            let path = ScanPath.absolute(root)
            var status = stat()
            guard stat(path, &status) == 0 else {
                problem(SignalPathError.fromErrno(errno, path: root))
                continue
            }
            if status.st_mode & S_IFMT == S_IFDIR {
                guard !excluded(path) else { continue }
                var ancestors: [DirectoryIdentity] = []
                var seen = Set<DirectoryIdentity>()
                walkDirectory(path, shown: root, identity: DirectoryIdentity(status), ancestors: &ancestors, seen: &seen, file: file, problem: problem)
            } else if inShard(path) {
                file(path)
            }
        }
    }

    /// The paths of a list (`--files-from`): one per line, or NUL-separated (`find -print0`);
    /// empty entries are ignored. Relative paths are taken from the working directory.
    public func listed(_ entries: [String], file: (String) -> Void) {
        for entry in entries where !entry.isEmpty {
            let path = ScanPath.absolute(entry)
            if inShard(path) { file(path) }
        }
    }

    private struct DirectoryIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private func walkDirectory(
        _ path: String, shown: String, identity: DirectoryIdentity, ancestors: inout [DirectoryIdentity], seen: inout Set<DirectoryIdentity>,
        file: (String) -> Void, problem: (SignalPathError) -> Void
    ) {
        if ancestors.contains(identity) {
            problem(.unavailable(path: shown, reason: "symbolic link loop (leads back to a directory above it); skipped"))
            return
        }
        // A directory reached a second time through another link is walked once.
        guard seen.insert(identity).inserted else { return }
        guard let directory = opendir(path) else {
            problem(SignalPathError.fromErrno(errno, path: shown))
            return
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        names.sort()
        ancestors.append(identity)
        defer { ancestors.removeLast() }
        for name in names {
            let child = path == "/" ? "/" + name : path + "/" + name
            var status = stat()
            guard stat(child, &status) == 0 else {
                let code = errno
                var link = stat()
                if lstat(child, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                    problem(.unavailable(path: child, reason: code == ELOOP ? "symbolic link loop; skipped" : "dangling symbolic link; skipped"))
                } else if code != ENOENT {
                    // Gone between the listing and now: nothing to report.
                    problem(SignalPathError.fromErrno(code, path: child))
                }
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                if !excluded(child) {
                    walkDirectory(child, shown: child, identity: DirectoryIdentity(status), ancestors: &ancestors, seen: &seen, file: file, problem: problem)
                }
            case S_IFREG:
                if included(child, name: name), inShard(child) { file(child) }
            default:
                continue
            }
        }
    }

    private func included(_ path: String, name: String) -> Bool {
        if excluded(path) { return false }
        guard !include.isEmpty else {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
            return Self.audioExtensions.contains(name[name.index(after: dot)...].lowercased())
        }
        return include.contains { Self.matches($0, path) }
    }

    private func excluded(_ path: String) -> Bool {
        exclude.contains { Self.matches($0, path) }
    }

    private func inShard(_ path: String) -> Bool {
        shard?.contains(path) ?? true
    }

    /// `pattern` against the path (when it has a `/`) or the name.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let subject = pattern.contains("/") ? path : String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
        return fnmatch(pattern, subject, 0) == 0
    }
}

/// Paths as scan stores them.
public enum ScanPath {
    /// `path` made absolute from the working directory and normalised by its text (`.`, `..` and
    /// repeated slashes removed; symbolic links kept as named, so a link's own path is the row).
    public static func absolute(_ path: String) -> String {
        // Already absolute and normal (lists from `find /archive`): the same string, whose storage
        // is shared rather than copied — a 100 000-entry list otherwise held every path twice.
        if path.hasPrefix("/") && !path.hasSuffix("/") && !path.hasSuffix("/.") && !path.hasSuffix("/..") && !path.contains("//")
            && !path.contains("/./") && !path.contains("/../")
        {
            return path
        }
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let directory = getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
            full = directory + "/" + path
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
