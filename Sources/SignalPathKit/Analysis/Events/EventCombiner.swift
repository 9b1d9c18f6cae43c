/// Merges `EventChunk`s in chunk order and applies the rules: joins the runs that cross chunk
/// edges, pairs the edges of gaps, then runs the block-level rules (gaps staying down, DC offset,
/// loudness jumps) over the millisecond and 100 ms sums in order. Decided events are held until
/// no later one can end before them, then handed out in the order they end.
final class EventCombiner {
    private let detector: EventDetector
    private let settings: EventSettings
    private let channels: Int
    private let rate: Double
    private let names: [String]
    private var merger = InOrderMerger<EventChunk>()
    /// Frames merged so far, relative to the range.
    private var position: Int64 = 0
    private var endOfInput: Int64?
    private var summary: EventSummary
    private var decided: [AudioEvent] = []

    // Runs: the piece still open at the merged position.
    private var openSilence: RunPiece?
    private var openClip: [RunPiece?]
    private var openRepeat: [RunPiece?]
    /// Clipping runs that passed, gathered while they come within 10 ms of each other.
    private var clusters: [ClipClusters]

    // 1 ms blocks and 100 ms sub-blocks not yet complete (from `nextBlock` / `nextSubBlock`).
    private var nextBlock = 0
    private var blockSquares: [Double] = []
    private var nextSubBlock = 0
    private var subEnergy: [Double] = []
    private var subSums: [Double] = []
    private var gaps: GapPairing
    private var dropouts: DropoutSettler
    private var dc: [DCOffsetSpans]
    private var jumps: LoudnessJumps

    init(detector: EventDetector) {
        self.detector = detector
        settings = detector.settings
        channels = detector.file.format.channels
        rate = Double(detector.sampleRate)
        names = detector.file.format.channelLayout.names
        summary = EventSummary(sampleRate: detector.sampleRate)
        openClip = [RunPiece?](repeating: nil, count: channels)
        openRepeat = openClip
        clusters = [ClipClusters](repeating: ClipClusters(gap: Int64((EventSettings.clipMergeGap * rate).rounded())), count: channels)
        gaps = GapPairing(channels: channels)
        dropouts = DropoutSettler(channels: channels, tolerance: Int64(detector.gapFrames))
        dc = [DCOffsetSpans](repeating: DCOffsetSpans(limit: settings.maximumDC), count: channels)
        jumps = LoudnessJumps(limit: settings.maximumJump)
    }

    var fractionDone: Double {
        guard let length = detector.knownLength, length > 0 else { return 0 }
        return Double(position) / Double(length)
    }

    func add(_ chunk: EventChunk, emit: (AudioEvent) -> Void) {
        merger.add(chunk, index: chunk.index) { merge($0) }
        // Every channel's gaps ending 0.1 s back are decided (a gap is judged 1 ms after its end).
        settleDropouts(upTo: position - Int64(0.1 * rate), openSilence: openSilence?.start)
        // Nothing is written before a dropout or a DC span still held back that may end earlier.
        let held = ([dropouts.earliestEnd] + dc.map(\.heldEnd)).compactMap { $0 }.min() ?? .max
        release(upTo: min(position - Int64(2 * rate), held - 1), emit: emit)
    }

    func finish(emit: (AudioEvent) -> Void) -> EventSummary {
        closeAll()
        settleDropouts(upTo: .max, openSilence: nil, final: true)
        release(upTo: .max, emit: emit)
        return summary
    }

    // MARK: Merging

    private func merge(_ chunk: EventChunk) {
        endOfInput = chunk.endOfInput ?? endOfInput
        guard !chunk.frames.isEmpty else { return }
        position = max(position, chunk.frames.upperBound)
        for piece in chunk.silence { joined(piece, into: &openSilence) { silenceRun($0) } }
        for channel in 0..<channels {
            for piece in chunk.clipping[channel] { joined(piece, into: &openClip[channel]) { clipRun($0, channel) } }
            for piece in chunk.repeats[channel] { joined(piece, into: &openRepeat[channel]) { repeatRun($0, channel) } }
            // A cluster ends when no run can come within 10 ms of it any more.
            if openClip[channel] == nil, clusters[channel].canClose(at: position) { closeCluster(channel) }
        }
        gaps.add(chunk.gapEdges)
        accumulate(&blockSquares, &nextBlock, chunk.blockSquares, first: chunk.firstBlock, width: channels)
        accumulate(&subEnergy, &nextSubBlock, chunk.weightedEnergy, first: chunk.firstSubBlock, width: 1)
        var ignored = nextSubBlock
        accumulate(&subSums, &ignored, chunk.sums, first: chunk.firstSubBlock, width: channels)
        processBlocks(final: false)
        processSubBlocks(final: false)
    }

    /// Joins `piece` to the open run when it continues it; a run that is complete goes to `closed`.
    private func joined(_ piece: RunPiece, into open: inout RunPiece?, closed: (RunPiece) -> Void) {
        var run = piece
        if let previous = open, previous.continuesAfter, piece.continuesBefore, previous.end == piece.start {
            run.start = previous.start
            run.value = max(previous.value, piece.value)
            run.flankIn = previous.flankIn
            run.continuesBefore = previous.continuesBefore
        } else if let previous = open {
            closed(previous)
        }
        open = nil
        if run.continuesAfter { open = run } else { closed(run) }
    }

    /// Adds a chunk's per-block values to the pending ones (a block split between chunks gets both
    /// parts, in chunk order).
    private func accumulate(_ pending: inout [Double], _ next: inout Int, _ values: [Double], first: Int, width: Int) {
        for (slot, value) in values.enumerated() {
            let index = (first - next) * width + slot
            if index < pending.count { pending[index] += value } else { pending.append(value) }
        }
    }

    private func closeAll() {
        if let run = openSilence { silenceRun(run) }
        openSilence = nil
        for channel in 0..<channels {
            if let run = openClip[channel] { clipRun(run, channel) }
            openClip[channel] = nil
            closeCluster(channel)
            if let run = openRepeat[channel] { repeatRun(run, channel) }
            openRepeat[channel] = nil
        }
        processBlocks(final: true)
        gaps.finish { gap($0) }
        processSubBlocks(final: true)
        for channel in 0..<channels { dc[channel].finish { dcSpan($0, channel) } }
        closeJump()
    }

    private func release(upTo horizon: Int64, emit: (AudioEvent) -> Void) {
        guard !decided.isEmpty else { return }
        let offset = detector.frames.lowerBound
        decided.sort { a, b in
            (a.frames.upperBound, a.frames.lowerBound, Self.order(a.kind), a.channel ?? -1)
                < (b.frames.upperBound, b.frames.lowerBound, Self.order(b.kind), b.channel ?? -1)
        }
        var count = 0
        while count < decided.count && (horizon == .max || decided[count].frames.upperBound - offset <= horizon) { count += 1 }
        for event in decided.prefix(count) { emit(event) }
        decided.removeFirst(count)
    }

    private static func order(_ kind: AudioEvent.Kind) -> Int { AudioEvent.Kind.allCases.firstIndex(of: kind)! }

    private func decide(_ kind: AudioEvent.Kind, _ channel: Int?, _ frames: Range<Int64>, level: Double?, samples: Int64 = 0, detail: String) {
        let offset = detector.frames.lowerBound
        let event = AudioEvent(
            kind: kind, channel: channel, frames: frames.lowerBound + offset..<frames.upperBound + offset, level: level, samples: samples, detail: detail)
        summary.add(event)
        decided.append(event)
    }

    /// A length in the detail, which people read (the table, a CSV's last column): as every time for people.
    private func seconds(_ frames: Int64) -> String { UnitFormat.time(Double(frames) / rate) }
    private func dBFS(_ amplitude: Double) -> Double? { amplitude > 0 ? 20 * log10(amplitude) : nil }

    // MARK: Rules on runs

    private func silenceRun(_ run: RunPiece) {
        let length = run.end - run.start
        guard Double(length) >= settings.minimumSilence * rate else { return }
        dropouts.addSilence(run.start..<run.end)
        decide(
            .silence, nil, run.start..<run.end, level: dBFS(Double(run.value)),
            detail: "every channel below \(UnitFormat.fixed(settings.silenceThreshold, 1)) dBFS for \(seconds(length))")
    }

    private func clipRun(_ run: RunPiece, _ channel: Int) {
        guard run.end - run.start >= Int64(settings.minimumClipRun) else { return }
        clusters[channel].add(run) { clipping($0, channel) }
    }

    private func closeCluster(_ channel: Int) {
        clusters[channel].close { clipping($0, channel) }
    }

    private func clipping(_ cluster: ClipClusters.Cluster, _ channel: Int) {
        // Grouped as every count for people is (analyze's "470 827"): the detail is read, not parsed.
        let runs = cluster.runs == 1 ? "1 run" : "\(UnitFormat.grouped(Int64(cluster.runs))) runs"
        decide(
            .clipping, channel, cluster.start..<cluster.end, level: dBFS(Double(cluster.peak)), samples: cluster.samples,
            detail: "\(UnitFormat.grouped(cluster.samples)) full-scale samples in \(runs)")
    }

    private func repeatRun(_ run: RunPiece, _ channel: Int) {
        let length = run.end - run.start
        let sound = Float(pow(10, (settings.silenceThreshold + EventSettings.soundAboveSilence) / 20))
        guard length >= Int64(detector.gapFrames), abs(run.value) < detector.fullScale, let before = run.flankIn, let after = run.flankOut,
            before >= sound, after >= sound
        else { return }
        dropouts.add(
            .init(
                channel: channel, frames: run.start..<run.end, content: dBFS(Double(abs(run.value))).map { .held(level: $0) } ?? .zero, exactStart: true,
                exactEnd: true))
    }

    private func milliseconds(_ frames: Int64) -> String { UnitFormat.fixed(Double(frames) / rate * 1000, 1) + " ms" }

    // MARK: Gaps, on 1 ms blocks

    private func processBlocks(final: Bool) {
        var processed = 0
        while (processed + 1) * channels <= blockSquares.count {
            let block = nextBlock + processed
            let frames = detector.blockStart(block)..<min(detector.blockStart(block + 1), position)
            guard final || detector.blockStart(block + 1) <= position else { break }
            if !frames.isEmpty {
                for channel in 0..<channels {
                    gaps.block(frames, channel: channel, squares: blockSquares[processed * channels + channel]) { gap($0) }
                }
            }
            processed += 1
        }
        blockSquares.removeFirst(processed * channels)
        nextBlock += processed
    }

    private func gap(_ gap: GapPairing.Gap) {
        let level = gap.meanSquare > 0 ? 10 * log10(gap.meanSquare) : nil
        dropouts.add(.init(channel: gap.channel, frames: gap.frames, content: .fall(depth: gap.depth, level: level), exactStart: false, exactEnd: false))
    }

    private func settleDropouts(upTo horizon: Int64, openSilence: Int64?, final: Bool = false) {
        let openRuns = openRepeat.map { $0?.start }, gaps = self.gaps
        dropouts.settle(
            upTo: horizon, openSilence: openSilence,
            growing: { channel, frame in !final && ((openRuns[channel] ?? .max) <= frame || (gaps.openStart(channel) ?? .max) <= frame) }
        ) { dropout in
            let channels = dropout.channel == nil ? ", in every channel" : ""
            decide(
                .dropout, dropout.channel, dropout.frames, level: dropout.content.level,
                detail: "\(milliseconds(Int64(dropout.frames.count))) \(dropout.content.words)\(channels)")
        }
    }

    // MARK: DC offset and loudness jumps, on 100 ms sub-blocks

    private func processSubBlocks(final: Bool) {
        var processed = 0
        while processed < subEnergy.count, (processed + 1) * channels <= subSums.count {
            let index = nextSubBlock + processed
            let end = detector.subBlockStart(index + 1)
            guard final || end <= position else { break }
            let frames = detector.subBlockStart(index)..<min(end, position)
            guard !frames.isEmpty else { break }
            for channel in 0..<channels { dc[channel].step(frames, sum: subSums[processed * channels + channel]) { dcSpan($0, channel) } }
            // Loudness counts whole sub-blocks only.
            if end <= position { jumpStep(frames, energy: subEnergy[processed]) }
            processed += 1
        }
        subEnergy.removeFirst(processed)
        subSums.removeFirst(min(subSums.count, processed * channels))
        nextSubBlock += processed
    }

    private func dcSpan(_ span: DCOffsetSpans.Span, _ channel: Int) {
        let mean = span.mean
        decide(
            .dcOffset, channel, span.start..<span.end, level: dBFS(abs(mean)),
            detail: "mean \(mean < 0 ? "-" : "+")\(UnitFormat.fixed(abs(mean) * 100, 2)) % of full scale, over the \(UnitFormat.fixed(settings.maximumDC * 100, 2)) % limit")
    }

    private func jumpStep(_ frames: Range<Int64>, energy: Double) {
        guard detector.measuresLoudness else { return }
        let detector = self.detector
        jumps.add(energy: energy, frames: frames, windowStart: { detector.subBlockStart(detector.subBlock(containing: frames.lowerBound) - $0 + 1) }) {
            loudnessJump($0)
        }
    }

    private func closeJump() {
        jumps.close { loudnessJump($0) }
    }

    private func loudnessJump(_ jump: LoudnessJumps.Jump) {
        let verb = jump.to > jump.from ? "rose" : "fell"
        decide(
            .loudnessJump, nil, jump.start..<jump.end, level: jump.to,
            detail: "short-term loudness \(verb) from \(UnitFormat.fixed(jump.from, 1)) to \(UnitFormat.fixed(jump.to, 1)) LUFS")
    }
}
