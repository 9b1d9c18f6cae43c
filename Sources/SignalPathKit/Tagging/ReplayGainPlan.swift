/// Which files `replaygain` tags together: files named on the command line are one album with
/// `--album` (else each a track of its own); a directory is walked (as `scan` walks one) and each
/// folder in it is an album, as rsgain's easy mode has it.
public struct ReplayGainPlan: Sendable {
    public struct Album: Sendable, Equatable {
        /// The files, in the order named or, in a folder, by name.
        public var tracks: [String]
        /// Whether album fields are written (false: each track is tagged alone, and the group is
        /// only files measured side by side).
        public var isAlbum: Bool
    }

    public var albums: [Album] = []
    /// Paths that could not be walked.
    public var problems: [SignalPathError] = []

    /// The extensions taken from directories: the containers whose tags signalpath writes.
    public static let taggedExtensions = ["flac", "ogg", "oga", "opus", "mp3", "m4a", "m4b", "mp4"]

    public init(inputs: [String], album: Bool) {
        var named: [String] = []
        var folders: [String: [String]] = [:], folderOrder: [String] = []
        let tree = ScanTree(include: Self.taggedExtensions.flatMap { ["*." + $0, "*." + $0.uppercased()] })
        for input in inputs {
            var status = stat()
            guard stat(input, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                named.append(input)
                continue
            }
            var problems: [SignalPathError] = []
            tree.walk(
                [input],
                file: { path in
                    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
                    if folders[folder] == nil { folderOrder.append(folder) }
                    folders[folder, default: []].append(path)
                }, problem: { problems.append($0) })
            self.problems += problems
        }
        if !named.isEmpty { albums.append(Album(tracks: named, isAlbum: album)) }
        albums += folderOrder.map { Album(tracks: folders[$0]!, isAlbum: true) }
    }
}
