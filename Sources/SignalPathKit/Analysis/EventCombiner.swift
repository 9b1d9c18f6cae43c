/// Merges `EventChunk`s in chunk order and applies the rules: joins the runs that cross chunk
/// edges, then runs the block-level detectors (collapses, DC offset, loudness jumps) over the
/// millisecond and 100 ms sums in order. Decided events are held until no later one can end
/// before them, then handed out in the order they end.
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
    private var clusters: [Cluster?]
    private struct Cluster {
        var start: Int64, end: Int64, samples: Int64, runs: Int, peak: Float
    }

    // 1 ms blocks and 100 ms sub-blocks not yet complete (from `nextBlock` / `nextSubBlock`).
    private var nextBlock = 0
    private var blockSquares: [Double] = []
    private var blockAlive: [Bool] = []
    private var nextSubBlock = 0
    private var subEnergy: [Double] = []
    private var subSums: [Double] = []
    private var collapse: [CollapseState]
    /// The collapse rule's power ratios, and the 1 ms blocks in its 10 ms.
    private let collapseLevels: (sound: Double, depth: Double, hold: Double, window: Int)
    private var dc: [DCState]
    private var shortTerm = ShortTermLoudness()
    private var jump = JumpState()

    init(detector: EventDetector) {
        self.detector = detector
        settings = detector.settings
        channels = detector.file.format.channels
        rate = Double(detector.sampleRate)
        names = detector.file.format.channelLayout.names
        summary = EventSummary(sampleRate: detector.sampleRate)
        openClip = [RunPiece?](repeating: nil, count: channels)
        openRepeat = openClip
        clusters = [Cluster?](repeating: nil, count: channels)
        collapse = [CollapseState](repeating: CollapseState(), count: channels)
        dc = [DCState](repeating: DCState(), count: channels)
        collapseLevels = (
            sound: pow(10, (settings.silenceThreshold + EventSettings.soundAboveSilence) / 10), depth: pow(10, -EventSettings.collapseDepth / 10),
            hold: pow(10, -EventSettings.collapseHold / 10), window: Int((EventSettings.flankLength * 1000).rounded())
        )
    }

    var fractionDone: Double {
        guard let length = detector.knownLength, length > 0 else { return 0 }
        return Double(position) / Double(length)
    }

    func add(_ chunk: EventChunk, emit: (AudioEvent) -> Void) {
        merger.add(chunk, index: chunk.index) { merge($0) }
        release(upTo: position - Int64(2 * rate), emit: emit)
    }

    func finish(emit: (AudioEvent) -> Void) -> EventSummary {
        closeAll()
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
            if let cluster = clusters[channel], openClip[channel] == nil, cluster.end + clipGap <= position { closeCluster(channel) }
        }
        accumulate(&blockSquares, &nextBlock, chunk.blockSquares, first: chunk.firstBlock, width: channels)
        accumulateAlive(chunk)
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

    private func accumulateAlive(_ chunk: EventChunk) {
        for (slot, alive) in chunk.blockAlive.enumerated() {
            let index = (chunk.firstBlock - nextBlock) * channels + slot
            if index < blockAlive.count { blockAlive[index] = blockAlive[index] && alive } else { blockAlive.append(alive) }
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
        processSubBlocks(final: true)
        for channel in 0..<channels { closeDC(channel) }
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

    private func seconds(_ frames: Int64) -> String { UnitFormat.fixed(Double(frames) / rate, 3) + " s" }
    private func dBFS(_ amplitude: Double) -> Double? { amplitude > 0 ? 20 * log10(amplitude) : nil }

    // MARK: Rules on runs

    private func silenceRun(_ run: RunPiece) {
        let length = run.end - run.start
        guard Double(length) >= settings.minimumSilence * rate else { return }
        decide(
            .silence, nil, run.start..<run.end, level: dBFS(Double(run.value)),
            detail: "every channel below \(UnitFormat.fixed(settings.silenceThreshold, 1)) dBFS for \(seconds(length))")
    }

    private var clipGap: Int64 { Int64((EventSettings.clipMergeGap * rate).rounded()) }

    private func clipRun(_ run: RunPiece, _ channel: Int) {
        guard run.end - run.start >= Int64(settings.minimumClipRun) else { return }
        if var cluster = clusters[channel], run.start - cluster.end < clipGap {
            cluster.end = run.end
            cluster.samples += run.end - run.start
            cluster.runs += 1
            cluster.peak = max(cluster.peak, run.value)
            clusters[channel] = cluster
            return
        }
        closeCluster(channel)
        clusters[channel] = Cluster(start: run.start, end: run.end, samples: run.end - run.start, runs: 1, peak: run.value)
    }

    private func closeCluster(_ channel: Int) {
        guard let cluster = clusters[channel] else { return }
        clusters[channel] = nil
        let runs = cluster.runs == 1 ? "1 run" : "\(cluster.runs) runs"
        decide(
            .clipping, channel, cluster.start..<cluster.end, level: dBFS(Double(cluster.peak)), samples: cluster.samples,
            detail: "\(cluster.samples) full-scale samples in \(runs)")
    }

    private func repeatRun(_ run: RunPiece, _ channel: Int) {
        let length = run.end - run.start
        let sound = Float(pow(10, (settings.silenceThreshold + EventSettings.soundAboveSilence) / 20))
        let longest = min(settings.minimumSilence, EventSettings.maximumCollapse) * rate
        guard Double(length) >= (EventSettings.minimumDropout * rate).rounded(.up), Double(length) < longest,
            abs(run.value) < detector.fullScale, let before = run.flankIn, let after = run.flankOut, before >= sound, after >= sound
        else { return }
        let what = run.value == 0 ? "digital zero" : "one repeated value (\(UnitFormat.fixed(20 * log10(Double(abs(run.value))), 1)) dBFS)"
        decide(
            .dropout, channel, run.start..<run.end, level: dBFS(Double(abs(run.value))),
            detail: "\(UnitFormat.fixed(Double(length) / rate * 1000, 1)) ms of \(what) inside sound")
    }

    // MARK: Collapses, on 1 ms blocks

    private struct CollapseState {
        /// The last 10 blocks before now that were not part of a collapse: Σ x² and frames.
        var history: [(squares: Double, frames: Int64)] = []
        var start: Int64 = 0, end: Int64 = 0
        var reference = 0.0
        var squares = 0.0, frames: Int64 = 0, blocks = 0
        var alive = false
        var phase = Phase.idle
        /// Blocks seen after a collapse ended, and their Σ x² and frames.
        var after = 0, afterSquares = 0.0, afterFrames: Int64 = 0
        enum Phase { case idle, collapsed, checking }
    }

    private func processBlocks(final: Bool) {
        var processed = 0
        while (processed + 1) * channels <= blockSquares.count {
            let block = nextBlock + processed
            let frames = detector.blockStart(block)..<min(detector.blockStart(block + 1), position)
            guard final || detector.blockStart(block + 1) <= position else { break }
            for channel in 0..<channels {
                collapseStep(&collapse[channel], channel, frames, blockSquares[processed * channels + channel], blockAlive[processed * channels + channel])
            }
            processed += 1
        }
        blockSquares.removeFirst(processed * channels)
        blockAlive.removeFirst(processed * channels)
        nextBlock += processed
    }

    /// Runs once per 1 ms block and channel on the merging task: the state is changed in place and
    /// the levels are computed once (a copy of the state that copied its history, and `pow` on
    /// every block, were about 9 % of `events`' time in `perf` on the 60-minute file).
    private func collapseStep(_ state: inout CollapseState, _ channel: Int, _ frames: Range<Int64>, _ squares: Double, _ alive: Bool) {
        guard !frames.isEmpty else { return }
        let count = Int64(frames.count)
        let meanSquare = squares / Double(count)
        let sound = collapseLevels.sound, depth = collapseLevels.depth, holdDepth = collapseLevels.hold
        let windowBlocks = collapseLevels.window
        func remember() {
            state.history.append((squares, count))
            if state.history.count > windowBlocks { state.history.removeFirst() }
        }
        switch state.phase {
        case .idle:
            let reference = state.history.reduce(0) { $0 + $1.squares } / Double(max(1, state.history.reduce(0) { $0 + $1.frames }))
            if state.history.count == windowBlocks, reference >= sound, meanSquare <= reference * depth {
                state.phase = .collapsed
                state.start = frames.lowerBound
                state.reference = reference
                state.squares = squares
                state.frames = count
                state.blocks = 1
                state.alive = alive
            } else {
                remember()
            }
        case .collapsed:
            // Hysteresis: it starts 40 dB down but lasts while 20 dB down, so sound that swells
            // under a 50 dB fall does not end it early (it did, in falls put into recorded speech).
            if meanSquare <= state.reference * holdDepth {
                state.squares += squares
                state.frames += count
                state.blocks += 1
                state.alive = state.alive || alive
                if Double(state.frames) >= EventSettings.maximumCollapse * rate {
                    // Not back within 200 ms: a pause or an ending, not a dropout.
                    state.phase = .idle
                    state.history = []
                }
            } else {
                state.end = frames.lowerBound
                state.phase = .checking
                state.after = 1
                state.afterSquares = squares
                state.afterFrames = count
                state.history = []
                remember()
            }
        case .checking:
            state.after += 1
            state.afterSquares += squares
            state.afterFrames += count
            remember()
            if state.after == windowBlocks {
                state.phase = .idle
                // Sound after it too; a collapse made only of blocks of one repeated value is a
                // run of one value, which the run rule judges to the sample.
                let afterLevel = state.afterSquares / Double(state.afterFrames)
                let level = state.squares / Double(state.frames)
                if afterLevel >= sound, level <= afterLevel * depth, level <= state.reference * depth, state.alive {
                    decide(
                        .dropout, channel, state.start..<state.end, level: level > 0 ? 10 * log10(level) : nil,
                        detail:
                            "level fell \(UnitFormat.fixed(10 * log10(state.reference / max(level, 1e-30)), 1)) dB for \(UnitFormat.fixed(Double(state.end - state.start) / rate * 1000, 0)) ms"
                    )
                }
            }
        }
    }

    // MARK: DC offset and loudness jumps, on 100 ms sub-blocks

    private struct DCState {
        var window: [(sum: Double, frames: Int64, start: Int64)] = []
        var open = false
        var start: Int64 = 0, end: Int64 = 0
        /// Σ x and frames from the span's start to its last strong sub-block, and past it.
        var sum = 0.0, frames: Int64 = 0
        var pendingSum = 0.0, pendingFrames: Int64 = 0
    }

    private struct JumpState {
        var recent: [Double?] = []
        var open = false
        var start: Int64 = 0, end: Int64 = 0
        var from = 0.0, to = 0.0
    }

    private func processSubBlocks(final: Bool) {
        var processed = 0
        while processed < subEnergy.count, (processed + 1) * channels <= subSums.count {
            let index = nextSubBlock + processed
            let end = detector.subBlockStart(index + 1)
            guard final || end <= position else { break }
            let frames = detector.subBlockStart(index)..<min(end, position)
            guard !frames.isEmpty else { break }
            for channel in 0..<channels { dcStep(channel, frames, subSums[processed * channels + channel]) }
            // Loudness counts whole sub-blocks only.
            if end <= position { jumpStep(frames, energy: subEnergy[processed]) }
            processed += 1
        }
        subEnergy.removeFirst(processed)
        subSums.removeFirst(min(subSums.count, processed * channels))
        nextSubBlock += processed
    }

    private func dcStep(_ channel: Int, _ frames: Range<Int64>, _ sum: Double) {
        let windowBlocks = Int((EventSettings.dcWindow * 10).rounded())
        let limit = settings.maximumDC
        var state = dc[channel]
        state.window.append((sum, Int64(frames.count), frames.lowerBound))
        if state.window.count > windowBlocks { state.window.removeFirst() }
        let strong = abs(sum / Double(frames.count)) > limit
        let mean = state.window.reduce(0) { $0 + $1.sum } / Double(state.window.reduce(0) { $0 + $1.frames })
        // A DC offset is steady: sub-audio content (pink noise, rumble) moves a 1 s mean as far,
        // but not steadily (docs/EVENTS.md has the measurement behind the ±50 %).
        let steady = state.window.allSatisfy { abs($0.sum / Double($0.frames) - mean) <= EventSettings.dcSteadiness * abs(mean) }
        let flagged = state.window.count == windowBlocks && abs(mean) > limit && steady
        if state.open {
            state.pendingSum += sum
            state.pendingFrames += Int64(frames.count)
            if strong {
                state.end = frames.upperBound
                state.sum += state.pendingSum
                state.frames += state.pendingFrames
                state.pendingSum = 0
                state.pendingFrames = 0
            }
            dc[channel] = state
            if !flagged { closeDC(channel) }
            return
        }
        if flagged {
            // The span starts at the window's first sub-block whose own mean is above the limit.
            if let first = state.window.firstIndex(where: { abs($0.sum / Double($0.frames)) > limit }) {
                state.open = true
                state.start = state.window[first].start
                state.end = state.start
                state.sum = 0
                state.frames = 0
                state.pendingSum = 0
                state.pendingFrames = 0
                var last = first
                for index in first..<state.window.count where abs(state.window[index].sum / Double(state.window[index].frames)) > limit { last = index }
                for index in first..<state.window.count {
                    if index <= last {
                        state.sum += state.window[index].sum
                        state.frames += state.window[index].frames
                    } else {
                        state.pendingSum += state.window[index].sum
                        state.pendingFrames += state.window[index].frames
                    }
                }
                state.end = state.window[last].start + state.window[last].frames
            }
        }
        dc[channel] = state
    }

    private func closeDC(_ channel: Int) {
        var state = dc[channel]
        guard state.open else { return }
        state.open = false
        dc[channel] = state
        let mean = state.sum / Double(max(1, state.frames))
        decide(
            .dcOffset, channel, state.start..<state.end, level: dBFS(abs(mean)),
            detail: "mean \(mean < 0 ? "-" : "+")\(UnitFormat.fixed(abs(mean) * 100, 2)) % of full scale, over the \(UnitFormat.fixed(settings.maximumDC * 100, 2)) % limit")
    }

    private func jumpStep(_ frames: Range<Int64>, energy: Double) {
        guard detector.measuresLoudness else { return }
        let span = Int((EventSettings.jumpSpan * 10).rounded())
        let value = shortTerm.add(energy: energy, frames: frames.count)
        jump.recent.append(value)
        if jump.recent.count > span + 1 { jump.recent.removeFirst() }
        var triggered = false
        if jump.recent.count == span + 1, let before = jump.recent[0], let now = value,
            before > Loudness.absoluteGate, now > Loudness.absoluteGate, abs(now - before) > settings.maximumJump
        {
            triggered = true
            let start = detector.subBlockStart(nextSubBlockIndex(of: frames) - span + 1)
            if !jump.open {
                jump.open = true
                jump.start = start
                jump.from = before
            }
            jump.end = frames.upperBound
            jump.to = now
        }
        if !triggered { closeJump() }
    }

    /// The index of the sub-block that starts at `frames.lowerBound`.
    private func nextSubBlockIndex(of frames: Range<Int64>) -> Int { detector.subBlock(containing: frames.lowerBound) }

    private func closeJump() {
        guard jump.open else { return }
        jump.open = false
        let verb = jump.to > jump.from ? "rose" : "fell"
        decide(
            .loudnessJump, nil, jump.start..<jump.end, level: jump.to,
            detail: "short-term loudness \(verb) from \(UnitFormat.fixed(jump.from, 1)) to \(UnitFormat.fixed(jump.to, 1)) LUFS")
    }
}
