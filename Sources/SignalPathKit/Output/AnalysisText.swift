extension SignalAnalysis {
    /// The report for people: sections of aligned rows, one column per channel.
    public var text: String {
        var lines = [AudioStream.heading(path: path, stream: stream)]
        let rate = UnitFormat.grouped(Int64(sampleRate)) + " Hz"
        lines.append(
            "  \(rate) · \(format.channels) channel\(format.channels == 1 ? "" : "s") · \(format.sampleFormat.displayName) · "
                + "\(UnitFormat.time(duration)) (\(UnitFormat.times(Double(frames.lowerBound) / Double(sampleRate), Double(frames.upperBound) / Double(sampleRate))))")
        if let promised = format.framesPromised, let present = format.frames {
            lines.append("  truncated: the header promises \(UnitFormat.grouped(promised)) frames, \(UnitFormat.grouped(present)) are present")
        }
        let labelWidth = 20
        let columnWidth = max(15, channels.map { TerminalText.sanitized($0.name).count + 2 }.max() ?? 0)
        func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
            let space = String(repeating: " ", count: max(0, width - text.count))
            return right ? space + text : text + space
        }
        func row(_ label: String, _ values: [String]) {
            lines.append(pad("  " + label, labelWidth, right: false) + values.map { pad($0, columnWidth) }.joined())
        }
        lines.append("")
        row("Levels", channels.map { TerminalText.sanitized($0.name) })
        for metric in Self.channelMetrics {
            if metric.key == "non_finite_samples" && channels.allSatisfy({ $0.nonFiniteSamples == 0 }) { continue }
            row("  " + metric.label, channels.map(metric.display))
        }

        lines.append("")
        lines.append("  Loudness (EBU R128)")
        func loudness(_ label: String, _ value: Double?, _ unit: String) {
            row("    " + label, [value.map { UnitFormat.fixed($0, 1) + " " + unit } ?? "-"])
        }
        loudness("Integrated", self.loudness.integrated, "LUFS")
        loudness("Loudness range", self.loudness.range, "LU")
        loudness("Momentary max", self.loudness.momentaryMax, "LUFS")
        loudness("Short-term max", self.loudness.shortTermMax, "LUFS")
        loudness("True peak", truePeak.isFinite ? truePeak : nil, "dBTP")

        if let stereo {
            let names = format.channelLayout.names
            lines.append("")
            lines.append("  Stereo image (\(TerminalText.sanitized(names[stereo.left])) / \(TerminalText.sanitized(names[stereo.right])))")
            func stereoRow(_ label: String, _ value: String?) { row("    " + label, [value ?? "-"]) }
            stereoRow("Correlation", stereo.correlation.map { UnitFormat.fixed($0, 3) })
            stereoRow("Delay", stereo.delaySamples.map { UnitFormat.fixed($0, StereoImage.delayDecimals) + " samples" })
            stereoRow("  in time", stereo.delaySamples.map { UnitFormat.fixed($0 * 1000 / Double(sampleRate), StereoImage.delayMillisecondDecimals) + " ms" })
            stereoRow("Aligned corr.", stereo.alignedCorrelation.map { UnitFormat.fixed($0, 3) })
            stereoRow("Polarity", stereo.polarityInverted.map { $0 ? "inverted" : "normal" })
            stereoRow("Balance (L/R)", stereo.balance.map { UnitFormat.fixed($0, 2) + " dB" })
            stereoRow("Mono loss", stereo.monoLoss.map { UnitFormat.fixed($0, 2) + " dB" })
            stereoRow("Mono as stereo", stereo.monoAsStereo.map { $0 ? "yes" : "no" })
        }

        if let authenticity {
            lines.append("")
            lines.append("  Authenticity")
            // Rows without a value are left out: a lossy file or one without a shelf has few.
            func authenticityRow(_ label: String, _ value: String?) { if let value { row("    " + label, [value]) } }
            var verdict = String(authenticity.verdict.rawValue.map { $0 == "_" ? " " : $0 })
            if let source = authenticity.sourceRate { verdict += " from \(UnitFormat.frequency(Double(source)))" }
            authenticityRow("Verdict", verdict + " (confidence \(UnitFormat.fixed(authenticity.confidence, 2)))")
            if case .compressed = format.sampleFormat {
                authenticityRow("Codec", authenticity.codecHint.map { TerminalText.sanitized($0) + " (the file's own)" })
            } else {
                authenticityRow("Codec hint", authenticity.codecHint.map { TerminalText.sanitized($0) + " (a hint)" })
            }
            authenticityRow("Cut-off", authenticity.cutoff.map { UnitFormat.frequency($0.rounded(toPlaces: 0)) })
            authenticityRow("  shelf", authenticity.steepness.map { UnitFormat.fixed($0, 1) + " dB per 1/3 octave" })
            authenticityRow("  above it", authenticity.levelAboveCutoff.map { UnitFormat.fixed($0, 1) + " dB vs the floor below" })
            authenticityRow("  reached by", authenticity.reachingCutoff.map { UnitFormat.fixed($0 * 100, 1) + " % of segments" })
            // Where the noise floor ends says something only below the file's own band edge.
            if let top = authenticity.noiseFloorTop, let share = authenticity.noiseFloorTopShare,
                top < Authenticity.ownBandEdge * Double(format.sampleRate) / 2
            {
                authenticityRow("Noise floor", "ends at " + UnitFormat.frequency(top.rounded(toPlaces: 0)) + " in \(UnitFormat.fixed(share * 100, 1)) % of segments")
            }
            // The grid says something only where it stands out.
            if let window = authenticity.frameGridWindow, let excess = authenticity.frameGridExcess, excess >= Authenticity.frameGridExcessShown {
                authenticityRow("Frame grid", "\(window.label), 1024-sample hop: \(UnitFormat.fixed(excess * 100, 1)) % more zero coefficients than chance")
            }
            authenticityRow(
                "Bits padded",
                authenticity.bitDepthPadded.map { padded in
                    padded ? "yes (\(authenticity.bitsInUse ?? 0) of \(format.sampleFormat.bitDepth ?? 0) bits in use)" : "no"
                })
        }

        if !identityRows.isEmpty {
            lines.append("")
            lines.append("  Identity")
            for (label, value) in identityRows { row("    " + label, [value]) }
        }

        if !overall.tones.isEmpty {
            lines.append("")
            lines.append("  Tones" + (channels.count > 1 ? " (mean of the channels)" : ""))
            for (rank, tone) in overall.tones.enumerated() { lines.append("    \(rank + 1).  " + tone.text) }
        }
        let distorted = channels.filter { $0.spectral.distortion != nil }
        if !distorted.isEmpty {
            lines.append("")
            let band = Distortion.band(sampleRate: sampleRate)
            lines.append("  Distortion (harmonics 2 to \(settings.highestHarmonic), \(UnitFormat.frequency(band.lowerBound)) to \(UnitFormat.frequency(band.upperBound)))")
            func distortionRow(_ label: String, _ value: (Distortion) -> String) {
                row("    " + label, channels.map { $0.spectral.distortion.map(value) ?? "-" })
            }
            distortionRow("Fundamental") { UnitFormat.frequency($0.fundamental.rounded(toPlaces: 1)) }
            distortionRow("THD") { UnitFormat.significant($0.thd * 100, 4) + " %" }
            distortionRow("THD") { UnitFormat.fixed(20 * log10($0.thd), 1) + " dB" }
            distortionRow("THD+N") { UnitFormat.significant($0.thdPlusNoise * 100, 4) + " %" }
            distortionRow("SNR") { UnitFormat.fixed($0.snr, 1) + " dB" }
            distortionRow("SINAD") { UnitFormat.fixed($0.sinad, 1) + " dB" }
            distortionRow("ENOB") { UnitFormat.fixed($0.enob, 1) + " bits" }
        }
        if channels.contains(where: { $0.spectral.summary != nil }) {
            lines.append("")
            lines.append("  Spectrum")
            func summaryRow(_ label: String, _ value: (SpectralSummary) -> String) {
                row("    " + label, channels.map { $0.spectral.summary.map(value) ?? "-" })
            }
            summaryRow("Centroid") { UnitFormat.frequency($0.centroid.rounded()) }
            summaryRow("Roll-off (85 %)") { UnitFormat.frequency($0.rolloff.rounded()) }
            summaryRow("Flatness") { $0.flatness < 0.001 ? "< 0.001" : UnitFormat.fixed($0.flatness, 3) }
            summaryRow("Bandwidth") { UnitFormat.frequency($0.bandwidth.rounded()) }
        }
        lines.append("")
        lines.append("  " + conventionsLine)
        return lines.joined(separator: "\n")
    }

    /// One line stating the conventions.
    public var conventionsLine: String {
        let parameters = spectrumParameters
        return "RMS: \(settings.rmsReference.description); spectrum: \(parameters.window.name) window, \(parameters.fftSize)-point FFT, "
            + "\(UnitFormat.fixed(Double(sampleRate) / Double(parameters.fftSize), 2)) Hz bins, \(UnitFormat.fixed(parameters.overlap * 100, 0)) % overlap, "
            + "mean of \(spectrum?.segments ?? 0) segments, dB re full scale; silence below \(UnitFormat.fixed(settings.silenceThreshold, 0)) dBFS; "
            + "clipping: runs of >= \(settings.minimumClipRun) full-scale samples; true peak: "
            + (settings.truePeakMode == .bs1770 ? "BS.1770 4x FIR" : "accurate (8x, flat to 0.45 fs)")
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        (Double(UnitFormat.fixed(self, places)) ?? self)
    }
}
