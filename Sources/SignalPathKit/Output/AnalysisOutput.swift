/// A per-channel measurement as every output shows it: JSON key and CSV column (snake_case with
/// the unit), label and formatting for people.
struct ChannelMetric: Sendable {
    let key: String
    let label: String
    /// Decimals in CSV and JSON; nil for counts.
    let decimals: Int?
    let value: @Sendable (ChannelAnalysis) -> Double?
    let text: @Sendable (Double) -> String

    func json(_ channel: ChannelAnalysis) -> JSONValue {
        guard let value = value(channel), value.isFinite else { return .null }
        guard let decimals else { return .integer(Int64(value)) }
        return .number(Double(UnitFormat.fixed(value, decimals)) ?? value)
    }

    func field(_ channel: ChannelAnalysis) -> String {
        guard let value = value(channel), value.isFinite else { return "" }
        return decimals.map { UnitFormat.fixed(value, $0) } ?? String(Int64(value))
    }

    func display(_ channel: ChannelAnalysis) -> String {
        // Missing, or undefined (the crest factor of digital silence, 0/0): "-", as CSV leaves it
        // empty and JSON has null; an infinite level (the RMS of silence) reads -inf.
        guard let value = value(channel), !value.isNaN else { return "-" }
        guard value.isFinite else { return UnitFormat.fixed(value, 0) }
        return text(value)
    }
}

extension SignalAnalysis {
    public static let schema = "signalpath.analyze/1"

    static let decibelText: @Sendable (String) -> @Sendable (Double) -> String = { unit in { UnitFormat.fixed($0, 2) + " " + unit } }
    static let seconds: @Sendable (Double) -> String = { UnitFormat.time($0) }

    /// The per-channel levels, in the order every output lists them.
    static let channelMetrics: [ChannelMetric] = [
        ChannelMetric(key: "peak_dbfs", label: "Sample peak", decimals: 2, value: { $0.peak }, text: decibelText("dBFS")),
        ChannelMetric(key: "peak_time_s", label: "  at", decimals: 6, value: { $0.peakTime }, text: seconds),
        ChannelMetric(key: "true_peak_dbtp", label: "True peak", decimals: 2, value: { $0.truePeak }, text: decibelText("dBTP")),
        ChannelMetric(key: "rms_dbfs", label: "RMS", decimals: 2, value: { $0.rms }, text: decibelText("dBFS")),
        ChannelMetric(key: "crest_db", label: "Crest factor", decimals: 2, value: { $0.crest }, text: decibelText("dB")),
        ChannelMetric(key: "dc_offset", label: "DC offset", decimals: 7, value: { $0.dcOffset }, text: { UnitFormat.significant($0, 3) }),
        ChannelMetric(key: "min_sample", label: "Minimum", decimals: 7, value: { $0.minimum }, text: { UnitFormat.fixed($0, 6) }),
        ChannelMetric(key: "max_sample", label: "Maximum", decimals: 7, value: { $0.maximum }, text: { UnitFormat.fixed($0, 6) }),
        ChannelMetric(
            key: "clipped_samples", label: "Clipped samples", decimals: nil, value: { Double($0.clippedSamples) },
            text: { UnitFormat.grouped(Int64($0)) }),
        ChannelMetric(
            key: "clip_events", label: "Clipping events", decimals: nil, value: { Double($0.clipEvents) },
            text: { UnitFormat.grouped(Int64($0)) }),
        ChannelMetric(
            key: "zero_crossing_rate_hz", label: "Zero crossings", decimals: 2, value: { $0.zeroCrossingRate },
            text: { UnitFormat.fixed($0, 1) + " /s" }),
        ChannelMetric(key: "leading_silence_s", label: "Leading silence", decimals: 6, value: { $0.leadingSilence }, text: seconds),
        ChannelMetric(key: "trailing_silence_s", label: "Trailing silence", decimals: 6, value: { $0.trailingSilence }, text: seconds),
        ChannelMetric(
            key: "silent_fraction", label: "Silent", decimals: 4, value: { $0.silentFraction },
            text: { UnitFormat.fixed($0 * 100, 1) + " %" }),
        ChannelMetric(key: "noise_floor_dbfs", label: "Noise floor", decimals: 2, value: { $0.noiseFloor }, text: decibelText("dBFS")),
        ChannelMetric(key: "dynamic_range_db", label: "Dynamic range", decimals: 2, value: { $0.dynamicRange }, text: decibelText("dB")),
        ChannelMetric(
            key: "effective_bits", label: "Bits in use", decimals: nil, value: { $0.effectiveBits.map(Double.init) },
            text: { String(Int($0)) }),
        ChannelMetric(
            key: "non_finite_samples", label: "NaN/inf samples", decimals: nil,
            value: { Double($0.nonFiniteSamples) }, text: { UnitFormat.grouped(Int64($0)) }),
    ]

    // MARK: JSON

    /// The JSON members for this file.
    public var jsonMembers: [JSONValue.Member] {
        let channelObjects: [JSONValue] = channels.map { channel in
            .object(
                [.init("index", .integer(Int64(channel.index))), .init("name", .string(channel.name))]
                    + Self.channelMetrics.map { .init($0.key, $0.json(channel)) }
                    + channel.spectral.jsonMembers)
        }
        return AudioStream.sourceMembers(path: path, stream: stream) + [
            .init(
                "format",
                .object([
                    "container": .string(format.container.rawValue), "sample_format": .string(format.sampleFormat.identifier),
                    "sample_rate": .integer(Int64(format.sampleRate)), "channels": .integer(Int64(format.channels)),
                    "frames": format.frames.map { .integer($0) } ?? .null,
                    "truncated": .bool(format.isTruncated), "frames_promised": format.framesPromised.map { .integer($0) } ?? .null,
                    "duration_s": .number(format.duration.map { Self.rounded($0) }),
                ])),
            .init(
                "range",
                .object([
                    "start_s": .number(Self.rounded(Double(frames.lowerBound) / Double(sampleRate))),
                    "end_s": .number(Self.rounded(Double(frames.upperBound) / Double(sampleRate))),
                    "start_frame": .integer(frames.lowerBound), "end_frame": .integer(frames.upperBound),
                ])),
            .init("channels", .array(channelObjects)),
            .init(
                "levels",
                .object([
                    "peak_dbfs": .number(Self.rounded(samplePeak, 2)), "true_peak_dbtp": .number(Self.rounded(truePeak, 2)),
                    "leading_silence_s": .number(Self.rounded(leadingSilence)), "trailing_silence_s": .number(Self.rounded(trailingSilence)),
                    "silent_fraction": .number(silentFraction.map { Self.rounded($0, 4) }),
                ])),
            .init(
                "loudness",
                .object([
                    "integrated_lufs": .number(loudness.integrated.map { Self.rounded($0, 2) }),
                    "range_lu": .number(loudness.range.map { Self.rounded($0, 2) }),
                    "momentary_max_lufs": .number(loudness.momentaryMax.map { Self.rounded($0, 2) }),
                    "short_term_max_lufs": .number(loudness.shortTermMax.map { Self.rounded($0, 2) }),
                    "true_peak_dbtp": .number(Self.rounded(truePeak, 2)),
                ])),
            .init("stereo", stereo.map { stereoJSON($0) } ?? .null),
            .init("authenticity", authenticity.map { authenticityJSON($0) } ?? .null),
        ] + identityJSONMembers + overall.jsonMembers + [.init("conventions", conventions)]
    }

    /// The `stereo` object: the pair's names and the image's figures (null where they do not exist).
    private func stereoJSON(_ image: StereoImage) -> JSONValue {
        let names = format.channelLayout.names
        return .object([
            .init("channels", .array([.string(names[image.left]), .string(names[image.right])])),
            .init("correlation", .number(image.correlation.map { Self.rounded($0, 4) })),
            .init("delay_samples", .number(image.delaySamples.map { Self.rounded($0, StereoImage.delayDecimals) })),
            .init("delay_ms", .number(image.delaySamples.map { Self.rounded($0 * 1000 / Double(sampleRate), StereoImage.delayMillisecondDecimals) })),
            .init("aligned_correlation", .number(image.alignedCorrelation.map { Self.rounded($0, 4) })),
            .init("polarity_inverted", image.polarityInverted.map { .bool($0) } ?? .null),
            .init("balance_db", .number(image.balance.map { Self.rounded($0, 2) })),
            .init("mono_loss_db", .number(image.monoLoss.map { Self.rounded($0, 2) })),
            .init("mono_as_stereo", image.monoAsStereo.map { .bool($0) } ?? .null),
        ])
    }

    /// The `authenticity` object: the verdict, its flags and the evidence it rests on.
    private func authenticityJSON(_ found: Authenticity) -> JSONValue {
        // Built apart: as one literal with the rest, it is more than the type checker takes.
        let evidence: [JSONValue.Member] = [
            .init("cutoff_hz", .number(found.cutoff.map { Self.rounded($0, 1) })),
            .init("shelf_db_per_third_octave", .number(found.steepness.map { Self.rounded($0, 2) })),
            .init("above_cutoff_vs_floor_db", .number(found.levelAboveCutoff.map { Self.rounded($0, 2) })),
            .init("above_cutoff_vs_rounding_db", .number(found.levelAboveRounding.map { Self.rounded($0, 2) })),
            .init("cutoff_constancy", .number(found.cutoffConstancy.map { Self.rounded($0, 4) })),
            .init("edge_fraction", .number(Self.rounded(found.edgeFraction, 4))),
            .init("edges_at_cutoff", .number(found.edgesAtCutoff.map { Self.rounded($0, 4) })),
            .init("edge_mode_hz", .number(found.edgeMode.map { Self.rounded($0, 1) })),
            .init("edge_mode_share", .number(found.edgeModeShare.map { Self.rounded($0, 4) })),
            .init("reaching_cutoff", .number(found.reachingCutoff.map { Self.rounded($0, 4) })),
            .init("reaching_source_nyquist", .number(found.reachingSourceNyquist.map { Self.rounded($0, 4) })),
            .init("content_top_hz", .number(found.contentTop.map { Self.rounded($0, 1) })),
            .init("noise_floor_top_hz", .number(found.noiseFloorTop.map { Self.rounded($0, 1) })),
            .init("noise_floor_top_share", .number(found.noiseFloorTopShare.map { Self.rounded($0, 4) })),
            .init("frame_grid_window", found.frameGridWindow.map { .string($0.rawValue) } ?? .null),
            .init("frame_grid_excess", .number(found.frameGridExcess.map { Self.rounded($0, 4) })),
            .init("hole_fraction", .number(found.holeFraction.map { Self.rounded($0, 5) })),
        ]
        return .object([
            .init("verdict", .string(found.verdict.rawValue)),
            .init("confidence", .number(Self.rounded(found.confidence, 2))),
            .init("bit_depth_padded", found.bitDepthPadded.map { .bool($0) } ?? .null),
            .init("bits_in_use", found.bitsInUse.map { .integer(Int64($0)) } ?? .null),
            .init("mono_as_stereo", found.monoAsStereo.map { .bool($0) } ?? .null),
            .init("source_rate_hz", found.sourceRate.map { .integer(Int64($0)) } ?? .null),
            .init("codec_hint", found.codecHint.map { .string($0) } ?? .null),
            .init("evidence", .object(evidence)),
        ])
    }

    /// How the stereo image is measured, for `conventions`.
    static func stereoRule(searchedLag: Int?) -> String {
        "the pair: both channels of a two-channel file, else front left and right (FL, FR); correlation: zero-lag Pearson over all frames; "
            + "delay: lag of the largest |cross-correlation| within +-\(searchedLag.map(String.init) ?? "-") samples (10 ms, less when the spectrum segment is too short), "
            + "from the averaged cross-spectrum of the spectrum's segments (DC removed, divided by the window's own overlap at each lag, refined between samples by band-limited interpolation), "
            + "positive when the right channel lags the left, null when |correlation| stays below \(UnitFormat.shortest(StereoImage.alignmentThreshold)) at every lag; "
            + "polarity inverted: that best-aligned correlation <= \(UnitFormat.shortest(StereoImage.polarityThreshold)); balance: left RMS over right RMS, dB; "
            + "mono loss: mean power of the channels over the power of (L+R)/2, dB (0 identical, 3.01 independent; null when the sum is digital silence); "
            + "mono as stereo: every |L-R| <= the format's precision (0 for PCM and float, 2^-16 for lossy codecs)"
    }

    /// A value rounded to `decimals` places (6 by default), so JSON shows no binary noise.
    static func rounded(_ value: Double, _ decimals: Int = 6) -> Double {
        guard value.isFinite else { return value }
        return Double(UnitFormat.fixed(value, decimals)) ?? value
    }

    /// The references and rules behind every number.
    public var conventions: JSONValue {
        let parameters = spectrumParameters
        let window = WindowTable.shared(parameters.window, size: parameters.windowSize)
        let band = Distortion.band(sampleRate: sampleRate)
        return .object([
            .init("rms_reference", .string(settings.rmsReference.rawValue)),
            .init("rms", .string("20·log10(RMS) over all samples; " + settings.rmsReference.description)),
            .init("peak", .string("largest |sample|, dBFS (full scale = 1.0); time of its first occurrence")),
            .init("true_peak_mode", .string(settings.truePeakMode.rawValue)),
            .init("true_peak", .string(settings.truePeakMode.description)),
            .init(
                "range_filters",
                .string("with a range, the K-weighting and true-peak filters start from the frames before it (from the file's start at most), not from silence")),
            .init(
                "clipping",
                .string(
                    "samples in runs of >= \(settings.minimumClipRun) consecutive samples at full scale (|x| >= the largest code: 1 - 2^-(bits-1) for integer PCM, 1.0 for float); events are such runs"
                )),
            .init("silence_threshold_dbfs", .number(settings.silenceThreshold)),
            .init(
                "silence",
                .string(
                    "leading/trailing: time before the first and after the last sample with |x| >= the threshold; silent fraction: 100 ms blocks (one frame each below 10 Hz) whose RMS is below it (overall: in every channel)"
                )),
            .init("noise_floor", .string("10th percentile of the RMS of whole 100 ms blocks, blocks of digital silence left out; dynamic range = sample peak over that RMS")),
            .init(
                "effective_bits",
                .string(
                    "1 + the position of the lowest set bit used by any sample (16 for 16-bit audio in any container); null for lossy codecs and for floating-point data finer than 32 bits"
                )),
            .init("zero_crossing_rate", .string("sign changes per second (0 counts as positive)")),
            .init(
                "loudness",
                .string(
                    "ITU-R BS.1770-4 / EBU R128: K-weighting; 400 ms blocks every 100 ms; gates -70 LUFS absolute and -10 LU relative; LRA per EBU Tech 3342 (3 s blocks every 100 ms, -20 LU relative gate, 10th to 95th percentile); null at sample rates outside \(Loudness.measurableSampleRates.lowerBound) to \(Loudness.measurableSampleRates.upperBound) Hz"
                )),
            .init(
                "channel_layout",
                .object([
                    "name": format.channelLayout.name.map { .string($0) } ?? .null, "source": .string(format.channelLayout.source.rawValue),
                    "names": .string(ChannelLayout.rule),
                ])),
            .init("channel_weights", .array(Loudness.channelWeights(layout: format.channelLayout).map { .number($0) })),
            .init(
                "spectrum",
                .object([
                    "window": .string(parameters.window.name), "fft_size": .integer(Int64(parameters.fftSize)),
                    "window_size": .integer(Int64(parameters.windowSize)),
                    "bin_width_hz": .number(Self.rounded(Double(sampleRate) / Double(parameters.fftSize))),
                    "enbw_hz": .number(Self.rounded(window.enbwHertz(sampleRate: sampleRate))),
                    "overlap": .number(parameters.overlap), "averaging": .string("mean of power (Welch)"),
                    "segments": .integer(Int64(spectrum?.segments ?? 0)),
                    "reference": .string(SpectrumScale.dbfs.reference),
                ])),
            .init("stereo", .string(Self.stereoRule(searchedLag: stereo?.searchedLag))),
            .init("authenticity", .string(Authenticity.rule)),
            .init(
                "tones",
                .string(
                    "the strongest spectral peaks from 20 Hz up that stand \(UnitFormat.shortest(AnalysisSettings.toneProminence)) dB or more above the median of the spectrum within a sixth of an octave (at least four main lobes) either side; frequency and level interpolated from the window's spectrum; overall = the mean power of the channels; A4 = \(UnitFormat.shortest(settings.a4)) Hz"
                )),
            .init(
                "distortion",
                .object([
                    "band_hz": .array([.number(band.lowerBound), .number(band.upperBound)]),
                    "harmonics": .string("2nd to \(settings.highestHarmonic)th, those inside the band"),
                    "rule": .string(
                        Distortion.rule
                            + "; each tone owns the bins of its window's main lobe + 1; THD+N and SINAD count everything else in the band; SNR leaves out the harmonics; ENOB = (SINAD - 1.76) / 6.02"
                    ),
                ])),
            .init(
                "spectral",
                .string(
                    "DC excluded; roll-off at \(Int(SpectralSummary.rolloffFraction * 100)) % of the power; flatness = geometric / arithmetic mean of power; bandwidth = the highest frequency within \(Int(SpectralSummary.bandwidthRange)) dB of the strongest bin"
                )),
        ])
    }

    // MARK: CSV

    /// CSV columns: one row per channel; the identity columns last, where `settings` ask for them.
    public static func csvHeader(_ settings: AnalysisSettings) -> [String] {
        csvColumns + identityCSVColumns(settings)
    }

    private static var csvColumns: [String] {
        ["path", "channel", "name", "sample_rate", "duration_s"] + channelMetrics.map(\.key)
            + [
                "integrated_lufs", "range_lu", "momentary_max_lufs", "short_term_max_lufs",
                "tone_hz", "tone_dbfs", "tone_note", "tone_cents",
                "thd_percent", "thd_n_percent", "snr_db", "sinad_db", "enob_bits",
                "centroid_hz", "rolloff_hz", "flatness", "bandwidth_hz",
                "stereo_correlation", "stereo_delay_samples", "stereo_polarity_inverted", "stereo_balance_db", "stereo_mono_loss_db",
                "mono_as_stereo",
                "authenticity", "authenticity_confidence", "cutoff_hz", "source_rate_hz", "codec_hint", "bit_depth_padded",
            ]
    }

    /// One record per channel; file-wide loudness and stereo image repeat on each; tones and distortion are the
    /// channel's own (the strongest tone).
    public func appendRows(to table: inout DelimitedText) {
        func field(_ value: Double?, _ decimals: Int) -> String {
            guard let value, value.isFinite else { return "" }
            return UnitFormat.fixed(value, decimals)
        }
        for channel in channels {
            let tone = channel.spectral.tones.first
            let distortion = channel.spectral.distortion, summary = channel.spectral.summary
            table.append(
                [path, String(channel.index), channel.name, String(sampleRate), field(duration, 6)]
                    + Self.channelMetrics.map { $0.field(channel) }
                    + [
                        field(loudness.integrated, 2), field(loudness.range, 2), field(loudness.momentaryMax, 2), field(loudness.shortTermMax, 2),
                        field(tone?.frequency, 3), field(tone?.level, 2), tone?.note?.name ?? "", field(tone?.note?.cents, 1),
                        field(distortion.map { $0.thd * 100 }, 4), field(distortion.map { $0.thdPlusNoise * 100 }, 4),
                        field(distortion?.snr, 2), field(distortion?.sinad, 2), field(distortion?.enob, 2),
                        field(summary?.centroid, 1), field(summary?.rolloff, 1), field(summary?.flatness, 6), field(summary?.bandwidth, 1),
                        field(stereo?.correlation, 4), field(stereo?.delaySamples, StereoImage.delayDecimals), stereo?.polarityInverted.map { String($0) } ?? "",
                        field(stereo?.balance, 2), field(stereo?.monoLoss, 2), stereo?.monoAsStereo.map { String($0) } ?? "",
                        authenticity?.verdict.rawValue ?? "", field(authenticity?.confidence, 2), field(authenticity?.cutoff, 1),
                        authenticity?.sourceRate.map { String($0) } ?? "", authenticity?.codecHint ?? "",
                        authenticity?.bitDepthPadded.map { String($0) } ?? "",
                    ] + identityCSVFields)
        }
    }
}

extension SpectralFindings {
    /// `tones`, `distortion`, `spectral` members (null where absent).
    var jsonMembers: [JSONValue.Member] {
        let rounded = SignalAnalysis.rounded
        return [
            .init("tones", .array(tones.map { $0.jsonValue() })),
            .init(
                "distortion",
                distortion.map { distortion in
                    .object([
                        "fundamental_hz": .number(rounded(distortion.fundamental, 3)),
                        "fundamental_dbfs": .number(rounded(distortion.fundamentalLevel, 2)),
                        "thd_percent": .number(rounded(distortion.thd * 100, 5)),
                        "thd_db": .number(rounded(20 * log10(distortion.thd), 2)),
                        "thd_n_percent": .number(rounded(distortion.thdPlusNoise * 100, 5)),
                        "thd_n_db": .number(rounded(20 * log10(distortion.thdPlusNoise), 2)),
                        "snr_db": .number(rounded(distortion.snr, 2)), "sinad_db": .number(rounded(distortion.sinad, 2)),
                        "enob_bits": .number(rounded(distortion.enob, 2)),
                        "harmonics": .integer(Int64(distortion.harmonicsCounted)),
                    ])
                } ?? .null),
            .init(
                "spectral",
                summary.map { summary in
                    .object([
                        "centroid_hz": .number(rounded(summary.centroid, 2)), "rolloff_hz": .number(rounded(summary.rolloff, 2)),
                        "flatness": .number(rounded(summary.flatness, 6)), "bandwidth_hz": .number(rounded(summary.bandwidth, 2)),
                    ])
                } ?? .null),
        ]
    }
}
