/// Merges `AnalysisChunk`s in chunk order, whatever order they finish in, and turns the totals
/// into a `SignalAnalysis`.
final class AnalysisCombiner {
    private let analyzer: SignalAnalyzer
    private let channels: Int
    private var levels: [LevelStatistics]
    private var truePeaks: [Float]
    /// Per channel: where the true peak lies (absolute frame, fractional).
    private var truePeakFrames: [Double?]
    private var nonFiniteSamples: [Int64]
    /// Per 100 ms sub-block: weighted K-energy; per sub-block and channel: Σ sample².
    private var weightedEnergy: [Double] = []
    private var squares: [Double] = []
    private var power: [Double]
    /// Per channel and bin: the in-band power of the segments whose strongest in-band bin it was.
    private var strongestBins: [Double]
    private var stereo: StereoImage.Sums?
    private var edges: SpectralEdgeStatistics?
    private var frameGrid: FrameGridStatistics?
    private var segments = 0
    private var framesDone: Int64 = 0
    /// Whole sub-blocks handed to `subBlocks` so far.
    private var subBlocksEmitted = 0
    private var endOfInput: Int64?
    private var merger = InOrderMerger<AnalysisChunk>()
    /// Fed each chunk's samples in chunk order, where the audio MD5 is computed.
    var audioMD5: AudioMD5?

    init(analyzer: SignalAnalyzer) {
        self.analyzer = analyzer
        channels = analyzer.file.format.channels
        levels = [LevelStatistics](repeating: LevelStatistics(), count: channels)
        truePeaks = [Float](repeating: 0, count: channels)
        truePeakFrames = [Double?](repeating: nil, count: channels)
        nonFiniteSamples = [Int64](repeating: 0, count: channels)
        power = [Double](repeating: 0, count: analyzer.scope == .everything ? channels * (analyzer.spectrum.fftSize / 2 + 1) : 0)
        strongestBins = power
        stereo = analyzer.stereoPair.map { _ in StereoImage.Sums(bins: analyzer.spectrum.fftSize / 2 + 1) }
        edges = analyzer.scope == .everything ? SpectralEdgeStatistics(bandCount: SpectralEdgeStatistics.bandCount(fftSize: analyzer.spectrum.fftSize)) : nil
        // Reserved once when the length is known: grown by doubling instead, the arrays would be
        // copied again and again and held twice while they are.
        if let length = analyzer.knownLength {
            let subBlocks = analyzer.subBlock(containing: length) + 1
            weightedEnergy.reserveCapacity(subBlocks)
            if keepsBlockLevels { squares.reserveCapacity(subBlocks * channels) }
        }
    }

    /// Whether each 100 ms block's Σ sample² per channel is kept (noise floor, silent fraction):
    /// not for a loudness pass, which reports neither, so that it keeps only the 8 bytes per 100 ms
    /// that gating needs (docs/DECISIONS.md#chunk-sizes).
    private var keepsBlockLevels: Bool { analyzer.scope == .everything }

    /// The fraction of a range of known length merged so far.
    var fractionDone: Double {
        guard let length = analyzer.knownLength, length > 0 else { return 0 }
        return Double(framesDone) / Double(length)
    }

    /// Merges `chunk` when its turn comes; then hands `subBlocks` every sub-block that the
    /// chunks merged so far complete (a sub-block split between two chunks waits for the second).
    func add(_ chunk: AnalysisChunk, subBlocks: (_ energy: Double, _ frames: Int) -> Void) {
        merger.add(chunk, index: chunk.index) { merge($0) }
        while subBlocksEmitted < weightedEnergy.count && analyzer.subBlockStart(subBlocksEmitted + 1) <= framesDone {
            let frames = Int(analyzer.subBlockStart(subBlocksEmitted + 1) - analyzer.subBlockStart(subBlocksEmitted))
            subBlocks(analyzer.measuresLoudness ? weightedEnergy[subBlocksEmitted] : 0, frames)
            subBlocksEmitted += 1
        }
    }

    private func merge(_ chunk: AnalysisChunk) {
        for channel in 0..<channels {
            levels[channel].merge(chunk.levels[channel])
            // Strictly larger: of equal peaks, the earliest keeps its place.
            if chunk.truePeaks[channel] > truePeaks[channel] {
                truePeaks[channel] = chunk.truePeaks[channel]
                let start = Double(analyzer.frames.lowerBound)
                truePeakFrames[channel] = chunk.truePeakFrames[channel].map { start + $0 } ?? chunk.levels[channel].peakFrame.map(Double.init)
            }
            nonFiniteSamples[channel] += chunk.nonFiniteSamples[channel]
        }
        // A sub-block split between two chunks gets both halves.
        for (slot, energy) in chunk.weightedEnergy.enumerated() {
            let index = chunk.firstSubBlock + slot
            if index < weightedEnergy.count { weightedEnergy[index] += energy } else { weightedEnergy.append(energy) }
        }
        for (slot, value) in chunk.squares.enumerated() where keepsBlockLevels {
            let index = chunk.firstSubBlock * channels + slot
            if index < squares.count { squares[index] += value } else { squares.append(value) }
        }
        for index in power.indices { power[index] += chunk.power[index] }
        let bins = analyzer.spectrum.fftSize / 2 + 1
        for (index, strongest) in chunk.strongestBins.enumerated() { strongestBins[index % channels * bins + strongest.bin] += strongest.power }
        if let sums = chunk.stereo { stereo?.merge(sums) }
        if let chunkEdges = chunk.edges { edges?.merge(chunkEdges) }
        if let chunkGrid = chunk.frameGrid {
            if frameGrid == nil { frameGrid = FrameGridStatistics() }
            frameGrid?.merge(chunkGrid)
        }
        segments += chunk.segments
        if chunk.audioMD5Refused { audioMD5?.abandon() } else { audioMD5?.add(chunk.audioMD5Bytes) }
        framesDone = max(framesDone, chunk.frames.upperBound)
        endOfInput = chunk.endOfInput ?? endOfInput
    }

    /// The totals turned into the file's analysis, one named step per measure.
    func finish() async -> SignalAnalysis {
        let file = analyzer.file
        let length = endOfInput ?? analyzer.knownLength ?? framesDone
        let frames = analyzer.frames.lowerBound..<analyzer.frames.lowerBound + length
        let blocks = wholeSubBlocks(length: length)
        let spectrum = makeSpectrum(frames: frames)
        let spectral = await spectralFindings(spectrum)
        var channels = channelLevels(frames: frames)
        for channel in channels.indices {
            addTruePeak(channel, to: &channels[channel])
            addBlockLevels(channel, blocks, to: &channels[channel])
            addBitsInUse(to: &channels[channel])
            channels[channel].nonFiniteSamples = nonFiniteSamples[channel]
            channels[channel].spectral = spectral.findings.isEmpty ? .none : spectral.findings[channel]
        }
        return SignalAnalysis(
            path: file.path, stream: file.namedStream, format: file.format, frames: frames, settings: analyzer.settings,
            spectrumParameters: analyzer.spectrum, channels: channels, loudness: loudness(blocks), stereo: spectral.image, spectrum: spectrum,
            overall: spectral.findings.last ?? .none,
            authenticity: authenticity(spectrum, mean: spectral.mean, channels: channels, image: spectral.image),
            leadingSilence: channels.map(\.leadingSilence).min() ?? 0,
            trailingSilence: channels.map(\.trailingSilence).min() ?? 0,
            silentFraction: silentFraction(blocks))
    }

    // MARK: Steps of `finish`

    /// The whole 100 ms sub-blocks of the range and their lengths in frames.
    private struct SubBlocks {
        var frames: [Int]
        var count: Int { frames.count }
    }

    /// The sub-blocks that lie whole in the `length` frames analysed.
    private func wholeSubBlocks(length: Int64) -> SubBlocks {
        var whole = 0
        while whole < weightedEnergy.count && analyzer.subBlockStart(whole + 1) <= length { whole += 1 }
        return SubBlocks(frames: (0..<whole).map { Int(analyzer.subBlockStart($0 + 1) - analyzer.subBlockStart($0)) })
    }

    /// Integrated loudness, LRA and gating from the whole sub-blocks' weighted energy.
    private func loudness(_ blocks: SubBlocks) -> Loudness {
        analyzer.measuresLoudness
            ? Loudness(subBlockEnergy: Array(weightedEnergy.prefix(blocks.count)), subBlockFrames: blocks.frames)
            : Loudness(subBlockEnergy: [], subBlockFrames: [])
    }

    /// Each channel's readings of its level statistics over `frames`.
    private func channelLevels(frames: Range<Int64>) -> [ChannelAnalysis] {
        let names = analyzer.file.format.channelLayout.names
        return (0..<channels).map { channel in
            ChannelAnalysis(
                index: channel + 1, name: names[channel], statistics: levels[channel], frames: frames,
                sampleRate: Double(analyzer.file.format.sampleRate), rmsReferenceOffset: analyzer.settings.rmsReference.offset)
        }
    }

    /// The channel's true peak and where it lies.
    private func addTruePeak(_ channel: Int, to analysis: inout ChannelAnalysis) {
        analysis.truePeak = decibels(amplitude: Double(truePeaks[channel]))
        analysis.truePeakTime = truePeakFrames[channel].map { $0 / Double(analyzer.file.format.sampleRate) }
    }

    /// The silence threshold as a mean square.
    private var silenceMeanSquare: Double { pow(10, analyzer.settings.silenceThreshold / 10) }

    private func blockMeanSquare(_ block: Int, _ channel: Int, _ blocks: SubBlocks) -> Double {
        squares[block * channels + channel] / Double(blocks.frames[block])
    }

    /// What the channel's 100 ms blocks show: the silent fraction, the noise floor and the dynamic
    /// range above it.
    private func addBlockLevels(_ channel: Int, _ blocks: SubBlocks, to analysis: inout ChannelAnalysis) {
        let meanSquares = keepsBlockLevels ? (0..<blocks.count).map { blockMeanSquare($0, channel, blocks) } : []
        let audible = meanSquares.filter { $0 > 0 }.sorted()
        let floorMeanSquare = audible.isEmpty ? nil : Loudness.percentile(audible, AnalysisSettings.noiseFloorPercentile)
        let threshold = silenceMeanSquare
        analysis.silentFraction = meanSquares.isEmpty ? nil : Double(meanSquares.filter { $0 < threshold }.count) / Double(meanSquares.count)
        analysis.noiseFloor = floorMeanSquare.map { 10 * log10($0) + analyzer.settings.rmsReference.offset }
        let peak = analysis.peak
        analysis.dynamicRange = floorMeanSquare.map { peak - 10 * log10($0) }
    }

    /// Bits in use say something about PCM (and float files holding PCM), not about lossy codecs.
    private func addBitsInUse(to analysis: inout ChannelAnalysis) {
        let lowest = analysis.statistics.lowestBitExponent
        var bits = lowest == .max ? nil : max(1, 1 - lowest)
        if case .compressed = analyzer.file.format.sampleFormat { bits = nil }
        if let used = bits, used > 32 { bits = nil }
        analysis.effectiveBits = bits
    }

    /// The fraction of whole blocks in which every channel is silent.
    private func silentFraction(_ blocks: SubBlocks) -> Double? {
        guard blocks.count > 0, keepsBlockLevels else { return nil }
        let threshold = silenceMeanSquare
        let allSilent = (0..<blocks.count).filter { block in (0..<channels).allSatisfy { blockMeanSquare(block, $0, blocks) < threshold } }
        return Double(allSilent.count) / Double(blocks.count)
    }

    /// What the spectrum shows, per channel and (last) for the channels' mean; the mean's power per
    /// bin; and the stereo image.
    private struct Spectral {
        var findings: [SpectralFindings]
        var mean: [Double]
        var image: StereoImage?
    }

    /// The channels' findings and the mean's, on tasks of their own while this one aligns the
    /// stereo pair (the tones' search: a log10 per bin, prominence tests, a sort; and the
    /// summary), rather than one after another (docs/DECISIONS.md#off-critical-path).
    private func spectralFindings(_ spectrum: PowerSpectrum?) async -> Spectral {
        let settings = analyzer.settings
        let meanSquare = spectrum?.meanSquare() ?? []
        var mean: [Double] = []
        var sources: [(spectrum: PowerSpectrum, meanSquare: [Double], strongestBins: [Double])] = []
        if let spectrum, channels > 0 {
            sources = (0..<channels).map { (spectrum, meanSquare[$0], channelStrongestBins($0)) }
            mean = (0..<spectrum.binCount).map { bin in meanSquare.reduce(0) { $0 + $1[bin] } / Double(channels) }
            var combined = spectrum
            combined.channelNames = ["overall"]
            combined.power = [(0..<spectrum.binCount).map { bin in spectrum.power.reduce(0) { $0 + $1[bin] } / Double(channels) }]
            // Each channel's segments count with the power they hold.
            let strongest = (0..<spectrum.binCount).map { bin in (0..<channels).reduce(0) { $0 + strongestBins[$1 * spectrum.binCount + bin] } }
            sources.append((combined, mean, strongest))
        }
        let channelCount = channels
        let (findings, image) = await withTaskGroup(of: (Int, SpectralFindings).self) { group in
            for (index, source) in sources.enumerated() {
                group.addTask {
                    // The mean's tones are marked channel 0, as a spectrum of one channel.
                    let channel = index < channelCount ? index : 0
                    return (
                        index,
                        SpectralFindings(
                            spectrum: source.spectrum, channel: channel, meanSquare: source.meanSquare, strongestBins: source.strongestBins, settings: settings)
                    )
                }
            }
            let image = stereoImage()
            var findings = [SpectralFindings](repeating: .none, count: sources.count)
            for await (index, found) in group { findings[index] = found }
            return (findings, image)
        }
        return Spectral(findings: findings, mean: mean, image: image)
    }

    /// Whether the file is what it claims, from the mean spectrum, its segments' edges and frame
    /// grid, and the channels' bits in use; nil without a spectrum.
    private func authenticity(_ spectrum: PowerSpectrum?, mean: [Double], channels: [ChannelAnalysis], image: StereoImage?) -> Authenticity? {
        guard let spectrum, let edges, !mean.isEmpty else { return nil }
        return Authenticity(
            meanSquare: mean, binWidth: spectrum.binWidth, noiseBandwidth: spectrum.windowSumOfSquares / (spectrum.windowSum * spectrum.windowSum),
            edges: edges, frameGrid: frameGrid, format: analyzer.file.format,
            bitsInUse: channels.compactMap(\.effectiveBits).max(), monoAsStereo: image?.monoAsStereo)
    }

    /// The stereo pair's image, when there is a pair.
    private func stereoImage() -> StereoImage? {
        guard let pair = analyzer.stereoPair, let stereo else { return nil }
        let bins = analyzer.spectrum.fftSize / 2 + 1
        let format = analyzer.file.format
        return StereoImage(
            left: pair.left, right: pair.right, sums: stereo, leftPower: power[pair.left * bins..<(pair.left + 1) * bins],
            rightPower: power[pair.right * bins..<(pair.right + 1) * bins],
            window: WindowTable.shared(analyzer.spectrum.window, size: analyzer.spectrum.windowSize),
            fftSize: analyzer.spectrum.fftSize, sampleRate: format.sampleRate, identityTolerance: StereoImage.identityTolerance(format.sampleFormat))
    }

    /// Channel `channel`'s part of `strongestBins`.
    private func channelStrongestBins(_ channel: Int) -> [Double] {
        let bins = analyzer.spectrum.fftSize / 2 + 1
        return Array(strongestBins[channel * bins..<(channel + 1) * bins])
    }

    /// The mean power of the segments as a `PowerSpectrum`, nil without a segment.
    private func makeSpectrum(frames: Range<Int64>) -> PowerSpectrum? {
        guard segments > 0 else { return nil }
        return PowerSpectrum(
            path: analyzer.file.path, sampleRate: analyzer.file.format.sampleRate, parameters: analyzer.spectrum,
            channelNames: analyzer.file.format.channelLayout.names, firstFrame: frames.lowerBound, segments: segments, summedPower: power)
    }
}
