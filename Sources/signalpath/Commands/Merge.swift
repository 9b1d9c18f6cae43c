import ArgumentParser
import SignalPathKit

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        _superCommandName: "signalpath",
        abstract: "Combine scan databases (one per shard or machine) into one.",
        discussion: """
            The rows of each database are added to --into (created when missing). A path present \
            in more than one keeps the row analysed last (`analyzed_at`). Databases scanned with \
            different settings (the rows' `settings_key`: analysis options, profile, events) are \
            refused unless --force, since their numbers do not compare. Each source is merged in \
            one transaction: an interrupted merge leaves --into as it was before that source.

            Examples:
              signalpath merge shard-*.db --into all.db
              signalpath merge monday.db tuesday.db --into week.db --force
            """
    )

    @Argument(help: "Scan databases to merge.")
    var sources: [String]

    @Option(name: .long, help: ArgumentHelp("The database to merge into (created when missing).", valueName: "file"))
    var into: String

    @Flag(name: .long, help: "Merge databases whose settings keys differ.")
    var force = false

    func validate() throws {
        guard !sources.isEmpty else { throw ValidationError("Name at least one database to merge.") }
        let target = ScanPath.absolute(into)
        if sources.contains(where: { ScanPath.absolute($0) == target }) { throw ValidationError("--into \(into) is also a source.") }
    }

    func run() throws {
        do throws(SignalPathError) {
            let target = try ScanStore.openForWriting(into)
            if let version = target.migratedFrom { StandardError.writeLine(Scan.line(.migrated(from: version), database: into)) }
            var keys = Set(try target.settingsKeys())
            var rows = 0
            for source in sources {
                let sourceKeys = try ScanStore.openForReading(source).settingsKeys()
                let differing = sourceKeys.filter { !keys.isEmpty && !keys.contains($0) }
                if !differing.isEmpty && !force {
                    throw SignalPathError.database(
                        path: source,
                        reason:
                            "scanned with other settings (\(differing.joined(separator: " | "))) than \(into) (\(keys.sorted().joined(separator: " | "))); --force merges anyway",
                        kind: .unusable)
                }
                keys.formUnion(sourceKeys)
                rows += try target.merge(from: source)
            }
            StandardError.writeLine("signalpath: merged \(sources.count) database\(sources.count == 1 ? "" : "s") into \(TerminalText.sanitized(into)): \(rows) rows taken")
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
    }
}
