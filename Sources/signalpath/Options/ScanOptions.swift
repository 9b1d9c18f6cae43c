import ArgumentParser
import SignalPathKit

/// What `scan` reads: paths and lists, filtered by name and by shard.
struct ScanInputOptions: ParsableArguments {
    @Argument(help: "Files and directories (walked recursively, following symbolic links).")
    var paths: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Take files in directories whose name matches GLOB (repeatable; a GLOB with / matches the whole path). Default: the audio extensions signalpath reads.",
            valueName: "glob"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Leave out files and directories matching GLOB (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Option(name: .long, help: ArgumentHelp("Also scan the paths listed in LIST, one per line (`-`: standard input).", valueName: "list"))
    var filesFrom: String?

    @Flag(name: .long, help: "The --files-from list is NUL-separated (find -print0).")
    var null = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only the files of shard K of N, by a stable hash of the path (the same split on every machine and run).", valueName: "K/N"),
        transform: OptionValue.shard)
    var shard: ShardSelector?

    func validate() throws {
        if null && filesFrom == nil { throw ValidationError("--null describes a --files-from list; there is none.") }
    }

    /// The absolute paths to scan, in order, each once; `problem` hears what cannot be walked.
    func files(problem: (SignalPathError) -> Void) throws(SignalPathError) -> [String] {
        let tree = ScanTree(include: include, exclude: exclude, shard: shard)
        var files: [String] = []
        var seen = Set<String>()
        let add = { (path: String) in if seen.insert(path).inserted { files.append(path) } }
        tree.walk(paths, file: add, problem: problem)
        if let filesFrom {
            tree.listed(try PathList.read(filesFrom, separator: null ? 0 : UInt8(ascii: "\n")), file: add)
        }
        return files
    }
}

/// What each scanned file gets besides analyze's record.
struct ScanAnalysisOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also check each file against a delivery profile (\(OutputFormat.list(DeliveryProfile.all.map(\.name)))): the row's `passed`.",
            valueName: "name"),
        completion: .list(DeliveryProfile.all.map(\.name)), transform: OptionValue.profile)
    var profile: DeliveryProfile?

    @Flag(name: .long, help: "Also run the events pass: its summary goes into each record (`events`).")
    var events = false

    @Flag(name: .long, help: "Store each file's SHA-256 and recognise moved or renamed files by it, without analysing them again.")
    var contentHash = false
}
