import ArgumentParser
import SignalPathKit

/// Runs a command over its input files and writes their results: the one place where `--output`
/// patterns, `--jobs` across files and the batch's progress line live, so that every command that
/// writes a file per input gets them by running its files through here.
///
/// Without a pattern, one `ResultWriter` takes every file in the order given (standard output, or
/// one --output file), one file after another. With a pattern, each input is handled as if it were
/// the only one named, with --output set to its expansion: its own file, written whole or not at
/// all, an existing one kept unless --force (that input then fails, exit 64, and the others are
/// still written); up to --jobs inputs at once, their failures reported in the order given, the
/// exit code that of the first.
struct FileBatch<Command: DataCommand> {
    /// One input and what its work may use.
    struct Item: Sendable {
        let path: String
        /// Worker threads for this input's own analysis.
        let workers: Int
        /// The path, for a table that holds several files (a `path` column); nil when the output
        /// holds this input alone.
        let pathColumn: String?
    }

    typealias Work = @Sendable (Item, inout ResultWriter) async throws(SignalPathError) -> Void

    let files: [String]
    let output: OutputOptions<Command>
    let schema: String
    /// --jobs: inputs at once with a pattern (each then gets a share of the threads), else the
    /// threads of each input's analysis.
    let jobs: Int

    func run(_ work: @escaping Work) async throws {
        guard let pattern = output.pattern else {
            var writer = try ResultWriter(output: output, schema: schema)
            for path in files {
                let item = Item(path: path, workers: jobs, pathColumn: files.count > 1 ? path : nil)
                do throws(SignalPathError) {
                    try await work(item, &writer)
                } catch {
                    writer.failed(error)
                }
            }
            try writer.finish()
            return
        }
        let files = self.files, format = output.resolvedFormat, schema = self.schema, overwrite = output.force
        if files.count > 1 { keepFreedMemoryForReuse() }
        let atOnce = max(1, min(jobs, files.count))
        let workers = max(1, jobs / atOnce)
        let progress = ProgressLine(label: "\(Command.name): \(files.count) file\(files.count == 1 ? "" : "s")")
        var failures = FailureTally()
        await withTaskGroup(of: (Int, [SignalPathError]).self) { group in
            var next = 0, done = 0
            var inOrder = InOrderMerger<[SignalPathError]>()
            func start() {
                let index = next
                next += 1
                group.addTask {
                    let path = files[index]
                    do throws(SignalPathError) {
                        var writer = try ResultWriter(file: pattern.path(for: path), format: format, schema: schema, overwrite: overwrite)
                        do throws(SignalPathError) {
                            try await work(Item(path: path, workers: workers, pathColumn: nil), &writer)
                        } catch {
                            writer.failed(error)
                        }
                        return (index, writer.finishInBatch())
                    } catch {
                        return (index, [error])
                    }
                }
            }
            while next < atOnce { start() }
            while let (index, errors) = await group.next() {
                done += 1
                progress.update(Double(done) / Double(files.count))
                inOrder.add(errors, index: index) { ready in
                    for error in ready { failures.record(error) }
                }
                if next < files.count { start() }
            }
        }
        progress.finish()
        try failures.finish()
    }

    /// Runs `analyse` on each file and writes the report it makes. Without a pattern the files run
    /// side by side, up to --jobs at once and each with every worker (analyze), their reports
    /// written in the order given; with one, as `run`.
    func runSideBySide<Result: Report & Sendable>(_ analyse: @escaping @Sendable (Item) async throws(SignalPathError) -> Result) async throws {
        guard output.pattern == nil else {
            return try await run { item, writer throws(SignalPathError) in try writer.write(await analyse(item), path: item.pathColumn) }
        }
        var writer = try ResultWriter(output: output, schema: schema)
        await writeSideBySide(analyse, to: &writer) { _ in }
        try writer.finish()
    }

    /// `runSideBySide` for verdicts (check): counts the files that pass, fail and cannot be read,
    /// and closes the output with the counts: the text report of several files with a closing
    /// line, JSON with a `summary` after `files`, NDJSON with a last line. Returns the counts once
    /// the output is finished, so that a file's error (64–74), thrown by then, wins over a failed
    /// verdict. The counts close one destination: a command with a tally writes no file per input.
    func runSideBySide<Result: VerdictReport & Sendable>(
        tallying analyse: @escaping @Sendable (Item) async throws(SignalPathError) -> Result
    ) async throws -> VerdictTally {
        precondition(!Command.writesFilePerInput, "a tally closes one destination")
        var writer = try ResultWriter(output: output, schema: schema)
        var tally = VerdictTally(files: files.count)
        await writeSideBySide(analyse, to: &writer) { verdict in
            if let verdict { tally.record(passed: verdict.passed) } else { tally.recordUnreadable() }
        }
        try writer.finish(summary: tally.json, closingLine: files.count > 1 ? tally.closingLine : nil)
        return tally
    }

    /// Runs the files side by side and writes their reports in the order given; `delivered` sees
    /// each file's report once written, or nil for a file that failed.
    private func writeSideBySide<Result: Report & Sendable>(
        _ analyse: @escaping @Sendable (Item) async throws(SignalPathError) -> Result, to writer: inout ResultWriter,
        delivered: (Result?) -> Void
    ) async {
        let items = files.map { Item(path: $0, workers: jobs, pathColumn: files.count > 1 ? $0 : nil) }
        await forEachFileInOrder(Array(items.indices), workers: jobs) { index throws(SignalPathError) in
            (index, try await analyse(items[index]))
        } deliver: { result in
            do throws(SignalPathError) {
                let (index, report) = try result.get()
                try writer.write(report, path: items[index].pathColumn)
                delivered(report)
            } catch {
                delivered(nil)
                writer.failed(error)
            }
        }
    }
}
