/// `signalpath scan`: each listed file analysed once into the database, files already there
/// (same path, size, modification time and settings) skipped, the rest up to `jobs` at a time.
public struct Scanner: Sendable {
    public let database: String
    public let settings: ScanSettings
    /// The exit code and category name of a failure, for its row (the executable's `ExitStatus`).
    public let describe: @Sendable (SignalPathError) -> (code: Int32, category: String)

    public init(database: String, settings: ScanSettings, describe: @escaping @Sendable (SignalPathError) -> (code: Int32, category: String)) {
        self.database = database
        self.settings = settings
        self.describe = describe
    }

    /// A file to read, as found when the scan began.
    struct Candidate: Sendable {
        let path: String
        let size: Int64
        let modified: Int64
        /// A stored row that holds (the file is unchanged) but has no hash for `--content-hash`:
        /// the file is read for its hash alone, and the row kept with it.
        var kept: (record: ScanRecord, relation: ScanSettings.KeyRelation)? = nil
        /// Its row was made with other settings and `--rescan` asks for it again.
        var rescan = false
    }

    /// A file that could not be analysed; `framesPromised` when its header promises frames and
    /// none are there.
    private struct AnalysisFailure: Error {
        let error: SignalPathError
        var framesPromised: Int64? = nil
    }

    /// What a task hands back to the loop that starts them.
    private enum Outcome: Sendable {
        case hashed(Candidate, Result<String, SignalPathError>)
        case analysed(Candidate, hash: String?, Result<ScanRecord, AnalysisFailure>)
    }

    /// Scans `paths` (absolute, as `ScanTree` lists them). `problem` hears each file that failed or
    /// vanished, as it happens; `notice` each truncated file, and before any file is read, the
    /// unchanged files whose rows were made with other settings; `progress` is called after each file;
    /// `stopping`, on another thread, hears the signal and the files then in flight (to be
    /// finished and committed) when a stop is first requested (`StopSignals`).
    public func run(
        _ paths: [String], problem: (SignalPathError) -> Void, notice: (ScanNotice) -> Void, progress: (ScanProgress) -> Void,
        stopping: @escaping @Sendable (_ signal: Int32, _ inFlight: Int) -> Void = { _, _ in }
    ) async throws(SignalPathError) -> ScanSummary {
        let started = ContinuousClock.now
        let writerStore = try ScanStore.openForWriting(database)
        if let version = writerStore.migratedFrom { notice(.migrated(from: version)) }
        // Lookups go through their own connection: the write-ahead log lets them read while the
        // writer commits.
        let lookups = try ScanStore.openForWriting(database)
        let writer = ScanWriter(store: writerStore)
        let key = settings.key
        var summary = ScanSummary()
        var work: [Candidate] = []
        var bytesTotal: Int64 = 0
        // What the listing finds is said after the lines about settings, which come first.
        var found: [Result<ScanNotice, SignalPathError>] = []
        let listingProblem = { (error: SignalPathError) in found.append(.failure(error)) }
        let listingNotice = { (notice: ScanNotice) in found.append(.success(notice)) }
        // Unchanged files with rows of other settings, by stored key and outcome, in first-met order.
        var otherSettings: [(storedKey: String, outcome: ScanNotice.Outcome, files: Int)] = []
        func tally(_ storedKey: String, _ outcome: ScanNotice.Outcome) {
            if let index = otherSettings.firstIndex(where: { $0.storedKey == storedKey && $0.outcome == outcome }) {
                otherSettings[index].files += 1
            } else {
                otherSettings.append((storedKey, outcome, 1))
            }
        }
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                let error = SignalPathError.fromErrno(errno, path: path)
                failOrVanish(Candidate(path: path, size: 0, modified: 0), error, framesPromised: nil, writer: writer, summary: &summary, problem: listingProblem)
                continue
            }
            var candidate = Candidate(path: path, size: Int64(status.st_size), modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
            if let stored = try lookups.record(at: path), stored.sizeBytes == candidate.size, stored.modifiedNanoseconds == candidate.modified {
                let relation = ScanSettings.relation(ofStored: stored.settingsKey, to: key)
                switch (stored.status, relation) {
                case (.error, .same), (.error, .covers):
                    summary.failedBefore += 1
                    if stored.truncated == true { summary.truncatedBefore += 1 }
                    listingProblem(.unavailable(path: path, reason: "\(stored.errorMessage ?? "failed") (stored by an earlier scan; the file is unchanged, not read again)"))
                    continue
                case (.error, .differs):
                    break  // tried again: the row holds nothing to lose
                case (.ok, .differs) where settings.rescansOtherSettings:
                    tally(stored.settingsKey, .rescanned)
                    candidate.rescan = true
                case (.ok, _):
                    if relation != .same { tally(stored.settingsKey, relation == .covers ? .keptCovering : .kept) }
                    if settings.hashesContent && stored.contentSHA256 == nil {
                        candidate.kept = (stored, relation)
                    } else {
                        keep(stored, relation: relation, summary: &summary, notice: listingNotice)
                        continue
                    }
                }
            }
            work.append(candidate)
            bytesTotal += candidate.size
        }
        for group in otherSettings {
            notice(.otherSettings(files: group.files, storedKey: group.storedKey, currentKey: key, outcome: group.outcome))
        }
        for said in found {
            switch said {
            case .success(let listed): notice(listed)
            case .failure(let error): problem(error)
            }
        }
        let skipped = summary.total
        var bytesDone: Int64 = 0
        func report() {
            progress(
                ScanProgress(
                    done: summary.total - skipped, total: work.count, failed: summary.failed, bytesDone: bytesDone, bytesTotal: bytesTotal,
                    seconds: Self.seconds(since: started)))
        }

        let settings = self.settings
        // Counted for `stopping`, which runs on a dispatch queue: the loop below may wait minutes
        // for a file (a pipe, a slow disk) while the signal's line must come at once.
        let inFlight = Protected(0)
        let watch = StopSignals.onRequest { signal in stopping(signal, inFlight.withLock { $0 }) }
        defer { watch.cancel() }
        await withTaskGroup(of: Outcome.self) { group in
            var next = 0
            func startNext() {
                guard next < work.count, !StopSignals.stopRequested, writer.failure == nil else { return }
                let candidate = work[next]
                next += 1
                inFlight.withLock { $0 += 1 }
                if settings.hashesContent {
                    group.addTask { .hashed(candidate, await Self.hash(candidate.path)) }
                } else {
                    group.addTask { .analysed(candidate, hash: nil, await Self.analyse(candidate, hash: nil, key: key, settings: settings)) }
                }
            }
            for _ in 0..<settings.jobs { startNext() }
            while let outcome = await group.next() {
                inFlight.withLock { $0 -= 1 }
                switch outcome {
                case .hashed(let candidate, .success(let hash)):
                    bytesDone += candidate.size
                    if let kept = candidate.kept {
                        var record = kept.record
                        record.contentSHA256 = hash
                        writer.submit(.store(record))
                        keep(record, relation: kept.relation, summary: &summary, notice: notice)
                    } else if let known = try? lookups.record(withContent: hash, settingsKey: key), known.path != candidate.path {
                        var record = known
                        record.path = candidate.path
                        record.sizeBytes = candidate.size
                        record.modifiedNanoseconds = candidate.modified
                        record.resultJSON = known.resultJSON.map { Self.replacingPath(in: $0, from: known.path, to: candidate.path) }
                        // The old path keeps its row when its file is still there (a copy).
                        if access(known.path, F_OK) == 0 {
                            writer.submit(.store(record))
                        } else {
                            writer.submit(.move(record, from: known.path))
                        }
                        summary.recognised += 1
                        count(record, candidate: candidate, origin: .recognised, summary: &summary, notice: notice)
                    } else {
                        inFlight.withLock { $0 += 1 }
                        group.addTask { .analysed(candidate, hash: hash, await Self.analyse(candidate, hash: hash, key: key, settings: settings)) }
                        continue
                    }
                case .hashed(let candidate, .failure(let error)):
                    failOrVanish(candidate, error, framesPromised: nil, writer: writer, summary: &summary, problem: problem)
                case .analysed(let candidate, _, .failure(let failure)):
                    failOrVanish(candidate, failure.error, framesPromised: failure.framesPromised, writer: writer, summary: &summary, problem: problem)
                case .analysed(let candidate, _, .success(let record)):
                    writer.submit(.store(record))
                    summary.analysed += 1
                    count(record, candidate: candidate, origin: .analysed, summary: &summary, notice: notice)
                    if !settings.hashesContent { bytesDone += candidate.size }
                }
                report()
                startNext()
            }
        }
        let written = try writer.finish()
        summary.bytesRead = bytesDone
        summary.commits = written.commits
        summary.rowsWritten = written.rows
        summary.interruptedBy = StopSignals.received
        summary.seconds = Self.seconds(since: started)
        return summary
    }

    /// An unchanged file's stored row, kept: counted, and said when it is truncated.
    private func keep(_ stored: ScanRecord, relation: ScanSettings.KeyRelation, summary: inout ScanSummary, notice: (ScanNotice) -> Void) {
        if relation == .differs {
            summary.keptOtherSettings += 1
        } else {
            summary.unchanged += 1
        }
        if stored.truncated == true {
            summary.truncatedBefore += 1
            if let promised = stored.framesPromised, let present = stored.framesPresent {
                notice(.truncated(path: stored.path, framesPromised: promised, framesPresent: present, origin: .stored))
            }
        }
        // A row of other settings may hold another profile's verdict, or none: not this scan's.
        guard settings.rules != nil else { return }
        switch relation == .differs ? nil : stored.passed {
        case true?: summary.passed += 1
        case false?: summary.notPassed += 1
        case nil: summary.withoutVerdict += 1
        }
    }

    /// A row this run wrote for `candidate` (analysed or recognised): counted, and said when truncated.
    private func count(_ record: ScanRecord, candidate: Candidate, origin: ScanNotice.Origin, summary: inout ScanSummary, notice: (ScanNotice) -> Void) {
        if candidate.rescan { summary.rescanned += 1 }
        if record.truncated == true, let promised = record.framesPromised, let present = record.framesPresent {
            summary.truncated += 1
            notice(.truncated(path: record.path, framesPromised: promised, framesPresent: present, origin: origin))
        }
        guard settings.rules != nil else { return }
        switch record.passed {
        case true?: summary.passed += 1
        case false?: summary.notPassed += 1
        case nil: summary.withoutVerdict += 1
        }
    }

    private func failOrVanish(
        _ candidate: Candidate, _ error: SignalPathError, framesPromised: Int64?, writer: ScanWriter, summary: inout ScanSummary,
        problem: (SignalPathError) -> Void
    ) {
        if case .notFound = error {
            summary.vanished += 1
            problem(.unavailable(path: candidate.path, reason: "vanished before it was read; skipped"))
        } else {
            fail(candidate, error, framesPromised: framesPromised, writer: writer, summary: &summary, problem: problem)
        }
    }

    /// A file that could not be analysed: reported, and stored as an `error` row. One whose header
    /// promises frames of which none are there is a truncated file too (its message says so).
    private func fail(
        _ candidate: Candidate, _ error: SignalPathError, framesPromised: Int64? = nil, writer: ScanWriter, summary: inout ScanSummary,
        problem: (SignalPathError) -> Void
    ) {
        let (code, category) = describe(error)
        summary.failed += 1
        if candidate.rescan { summary.rescanned += 1 }
        if framesPromised != nil { summary.truncated += 1 }
        problem(error)
        writer.submit(
            .store(
                ScanRecord(
                    path: candidate.path, sizeBytes: candidate.size, modifiedNanoseconds: candidate.modified, contentSHA256: nil, status: .error,
                    errorCode: Int(code), errorCategory: category, errorMessage: error.reason, analyzedAt: Self.timestamp(),
                    toolVersion: signalPathVersion, settingsKey: settings.key, truncated: framesPromised.map { _ in true },
                    framesPromised: framesPromised, framesPresent: framesPromised.map { _ in 0 })))
    }

    private static func hash(_ path: String) async -> Result<String, SignalPathError> {
        do throws(SignalPathError) {
            return .success(try await ContentHash.sha256(of: FileReader(path: path)))
        } catch {
            return .failure(error)
        }
    }

    /// One file: its delivery check (the analyze pass, then the events pass and the verdict when asked for).
    private static func analyse(_ candidate: Candidate, hash: String?, key: String, settings: ScanSettings) async -> Result<ScanRecord, AnalysisFailure> {
        let file: AudioFile
        do throws(SignalPathError) {
            file = try await AudioFile.load(candidate.path)
        } catch {
            return .failure(AnalysisFailure(error: error))
        }
        // A named pipe is a stream: read once, to its end.
        if file.format.frames == 0 {
            guard let promised = file.format.framesPromised else {
                return .failure(AnalysisFailure(error: .malformed(path: candidate.path, reason: "no audio: the file holds no frames")))
            }
            let reason = AudioFormat.truncationNote(framesPromised: promised, framesPresent: 0, sayingNone: true)
            return .failure(AnalysisFailure(error: .malformed(path: candidate.path, reason: reason), framesPromised: promised))
        }
        do throws(SignalPathError) {
            let range: Range<Int64> = 0..<(file.format.frames ?? Int64.max)
            let check = try await DeliveryCheck.run(
                file: file, frames: range, settings: settings.analysis, rules: settings.rules, findingEvents: settings.findsEvents, workers: settings.jobs)
            let analysis = check.analysis, passed = check.verdict?.passed
            var members = ScanRecord.storedMembers(analysis.jsonMembers)
            if settings.findsEvents, let summary = check.events {
                members.append(.init("events", EventOutput(path: file.path, format: file.format, frames: range, settings: check.eventSettings).summaryJSON(summary)))
            }
            if let verdict = check.verdict {
                members.append(.init("check", .object(verdict.jsonMembers.filter { $0.key != "path" && $0.key != "stream" })))
            }
            var record = ScanRecord(
                path: candidate.path, sizeBytes: candidate.size, modifiedNanoseconds: candidate.modified, contentSHA256: hash, status: .ok,
                analyzedAt: timestamp(), toolVersion: signalPathVersion, settingsKey: key, durationSeconds: analysis.duration,
                integratedLUFS: analysis.loudness.integrated, truePeakDBTP: analysis.truePeak.isFinite ? analysis.truePeak : nil, passed: passed,
                truncated: file.format.isTruncated, framesPromised: file.format.framesPromised,
                framesPresent: analysis.format.frames ?? Int64(analysis.frames.count), resultJSON: JSONValue.object(members).serialized())
            record.setIdentity(from: analysis)
            return .success(record)
        } catch {
            return .failure(AnalysisFailure(error: error))
        }
    }

    /// A stored record's JSON with its `path` member naming the file it now describes: the record
    /// is analyze's object, which `path` opens (`{"path":…`).
    private static func replacingPath(in json: String, from old: String, to new: String) -> String {
        let oldOpening = JSONValue.object([.init("path", .string(old))]).serialized().dropLast()
        let newOpening = JSONValue.object([.init("path", .string(new))]).serialized().dropLast()
        guard json.hasPrefix(oldOpening) else { return json }
        return String(newOpening + json.dropFirst(oldOpening.count))
    }

    /// Now, as ISO 8601 UTC with microseconds: sorts as text, which `merge` relies on.
    public static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(now.tv_nsec / 1000), 6))Z"
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
