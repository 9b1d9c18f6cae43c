import ArgumentParser
import SignalPathKit
import Testing

@testable import signalpath

/// The option types: text in, typed value out, or one line that says what the option takes.
@Suite("option parsing")
struct OptionParsingTests {
    /// The message a parser throws, or nil when it parses.
    func refusal<T>(_ parse: (String) throws -> T, _ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("windows: names and parameters become Window values; anything else is refused with the list")
    func windows() throws {
        #expect(try OptionValue.window("hann") == .hann)
        #expect(try OptionValue.window("Kaiser:8.6") == .kaiser(beta: 8.6))
        #expect(try OptionValue.window("kaiser") == .kaiser(beta: 8.6))
        #expect(try OptionValue.window("gaussian:3") == .gaussian(alpha: 3))
        #expect(try OptionValue.window("flat-top") == .flatTop)
        for bad in ["", ":", "kaiser:", "kaiser:x", "kaiser:-1", "kaiser:101", "gaussian:0", "hanning:2:3", "nonsense"] {
            let message = try #require(refusal(OptionValue.window, bad), "'\(bad)' is refused")
            #expect(message.contains("kaiser[:BETA]") && !message.contains("\n"), "\(bad): \(message)")
        }
    }

    @Test("events: --max-dc takes a percentage above 0 up to 100, --max-jump LU above 0 up to 100")
    func eventThresholds() throws {
        #expect(try OptionValue.percentAsFraction("1") == 0.01 && OptionValue.percentAsFraction("0.5%") == 0.005 && OptionValue.percentAsFraction("100") == 1)
        for bad in ["0", "-1", "101", "x", "%", "1%%"] { #expect(refusal(OptionValue.percentAsFraction, bad) != nil, "\(bad)") }
        #expect(try OptionValue.loudnessUnits("10") == 10 && OptionValue.loudnessUnits("6LU") == 6 && OptionValue.loudnessUnits("0.5") == 0.5)
        for bad in ["0", "-3", "101", "ten", "lu"] { #expect(refusal(OptionValue.loudnessUnits, bad) != nil, "\(bad)") }
    }

    @Test("compare: --max-residual takes a level from -200 to 0 dBFS, with or without the unit")
    func residualLevel() throws {
        #expect(try OptionValue.residualLevel("-50") == -50 && OptionValue.residualLevel("-60dBFS") == -60 && OptionValue.residualLevel("0") == 0)
        #expect(try OptionValue.residualLevel("-200") == -200 && OptionValue.residualLevel("-72.5dbfs") == -72.5)
        for bad in ["5", "-201", "x", "dBFS", "-50 dB"] { #expect(refusal(OptionValue.residualLevel, bad) != nil, "\(bad)") }
    }

    @Test("FFT and window sizes, overlap: ranges stated, numbers checked")
    func sizes() throws {
        #expect(try OptionValue.fftSize("16") == 16 && OptionValue.fftSize("4194304") == 4_194_304)
        for bad in ["0", "15", "17", "4194306", "-4096", "1e3", "x", "1099511627776"] {
            #expect(refusal(OptionValue.fftSize, bad) != nil, "\(bad)")
        }
        #expect(try OptionValue.windowSize("2") == 2)
        #expect(refusal(OptionValue.windowSize, "1") != nil)
        #expect(try OptionValue.overlap("50") == 0.5 && OptionValue.overlap("75%") == 0.75 && OptionValue.overlap("0") == 0)
        for bad in ["96", "-1", "150", "fifty", "%"] { #expect(refusal(OptionValue.overlap, bad) != nil, "\(bad)") }
    }

    @Test("octave fractions: one type; bands take the IEC 61260 list, smoothing 1/1 to 1/48")
    func fractions() throws {
        #expect(OctaveFraction.bandDenominators == [1, 2, 3, 6, 12, 24])
        for n in OctaveFraction.bandDenominators { #expect(try OptionValue.bandFraction("1/\(n)").denominator == n) }
        #expect(try OptionValue.bandFraction("1").denominator == 1)
        for bad in ["1/4", "1/5", "1/48", "2/3", "1/", "/3", "1/3/2", "1/+3", "1/٣", "third"] {
            let message = try #require(refusal(OptionValue.bandFraction, bad), "'\(bad)'")
            #expect(message.contains("1/1, 1/2, 1/3, 1/6, 1/12 or 1/24"), "\(message)")
        }
        #expect(try OptionValue.smoothingFraction("1/48").denominator == 48)
        #expect(try OptionValue.smoothingFraction("1/5").description == "1/5")
        for bad in ["1/49", "1/0", "0", "1/-3"] { #expect(refusal(OptionValue.smoothingFraction, bad) != nil, "\(bad)") }
    }

    @Test("stream numbers: 0 and up, as ffmpeg's -map 0:a:N counts")
    func streamNumbers() throws {
        #expect(try OptionValue.streamNumber("0") == 0 && OptionValue.streamNumber("1") == 1 && OptionValue.streamNumber("9999") == 9999)
        for bad in ["-1", "a", "", "1.5", "10000"] { #expect(refusal(OptionValue.streamNumber, bad) != nil, "\(bad)") }
    }

    @Test("channels, times and ranges")
    func selections() throws {
        #expect(try OptionValue.channel("2") == .single(1) && OptionValue.channel("left") == .single(0) && OptionValue.channel("MIX") == .mix)
        #expect(refusal(OptionValue.channel, "all") != nil, "spectrum has no `all`: every channel is its default")
        #expect(try OptionValue.channelOrAll("all") == .all)
        for bad in ["0", "-1", "centre", ""] { #expect(refusal(OptionValue.channel, bad) != nil, "\(bad)") }
        #expect(try OptionValue.decibelScale("PSD") == .psd && OptionValue.decibelScale("dbfs") == .dbfs)
        #expect(refusal(OptionValue.decibelScale, "linear") != nil, "a spectrogram's levels are in dB")
        #expect(try OptionValue.time("1:30") == 90 && OptionValue.time("250ms") == 0.25)
        #expect(refusal(OptionValue.duration, "0") != nil && refusal(OptionValue.time, "-1") != nil)
        #expect(try OptionValue.timeRange("1.5s..3s") == TimeRange(start: 1.5, end: 3))
        #expect(try OptionValue.timeRange("90s..") == TimeRange(start: 90, end: nil))
        for bad in ["", "..", "3", "a..b"] { #expect(refusal(OptionValue.timeRange, bad) != nil, "\(bad)") }
    }

    @Test("loudness: --interval in whole 100 ms steps, --target in LUFS, --tolerance in LU")
    func loudnessValues() throws {
        #expect(try OptionValue.loudnessInterval("100ms") == 1 && OptionValue.loudnessInterval("0.5") == 5 && OptionValue.loudnessInterval("1:00") == 600)
        for bad in ["0", "50ms", "150ms", "0.25", "-1", "2:00:00", "x"] {
            let message = try #require(refusal(OptionValue.loudnessInterval, bad), "'\(bad)' is refused")
            #expect(message.contains("multiple of 100 ms"), "\(message)")
        }
        #expect(try OptionValue.loudnessLevel("-23") == -23 && OptionValue.loudnessLevel("-14.5LUFS") == -14.5)
        for bad in ["-71", "1", "nan", "inf", "loud"] { #expect(refusal(OptionValue.loudnessLevel, bad) != nil, "\(bad)") }
        #expect(try OptionValue.loudnessTolerance("0.5") == 0.5 && OptionValue.loudnessTolerance("2LU") == 2)
        for bad in ["0", "-1", "21", "nan"] { #expect(refusal(OptionValue.loudnessTolerance, bad) != nil, "\(bad)") }
        let command = try LoudnessCommand.parse(["a.wav", "--format", "plot", "--interval", "1s", "--target", "-16", "--tolerance", "1"])
        #expect(command.interval == 10 && command.target == -16 && command.tolerance == 1)
        #expect(throws: (any Error).self) { try LoudnessCommand.parse(["a.wav", "--format", "csv", "--target", "-23"]) }
        #expect(throws: (any Error).self) { try LoudnessCommand.parse(["a.wav", "--format", "plot", "--tolerance", "1"]) }
    }

    @Test("a command's options are typed once parsed: spectrum and analyze")
    func commandsParseIntoTypes() throws {
        let spectrum = try Spectrum.parse([
            "a.wav", "--window", "kaiser:9", "--overlap", "75%", "--bands", "1/3", "--weighting", "a", "--channel", "right", "--range", "1..2",
            "--format", "json",
        ])
        #expect(spectrum.engine.window == .kaiser(beta: 9) && spectrum.engine.overlap == 0.75)
        #expect(spectrum.show.bands == OctaveFraction(denominator: 3) && spectrum.show.weighting == .a && spectrum.show.channel == .single(1))
        #expect(spectrum.range.timeRange == TimeRange(start: 1, end: 2))
        #expect(spectrum.output.resolvedFormat == .json)
        let analyze = try Analyze.parse(["a.wav"])
        #expect(analyze.analysis.settings == AnalysisSettings(), "the defaults are the library's")
        #expect(try Analyze.parse(["a.wav", "--window", "hann"]).analysis.settings.spectrum.window == .hann)
        #expect(try Analyze.parse(["a.wav"]).settings == AnalysisSettings(), "the true-peak default is the library's")
        #expect(try Analyze.parse(["a.wav", "--true-peak", "accurate"]).settings.truePeakMode == .accurate)
        #expect(try Analyze.parse(["a.wav", "--true-peak", "bs1770"]).settings.truePeakMode == .bs1770)
        for bad in ["", "BS1770", "exact", "4x"] {
            #expect(throws: (any Error).self, "\(bad)") { try Analyze.parse(["a.wav", "--true-peak", bad]) }
        }
    }

    @Test("check's rules: profiles by name, loudness, tolerance, true peak, counts and percentages in range; typed rules once parsed")
    func checkRules() throws {
        #expect(try OptionValue.profile("EBU-R128") == .ebuR128 && OptionValue.profile("atsc-a85") == .atscA85)
        #expect(
            refusal(OptionValue.profile, "r128")?.contains("ebu-r128, ebu-r128-production, ebu-r128-live, ebu-r128-v3, atsc-a85, podcast or streaming") == true)
        #expect(try OptionValue.loudnessLevel("-23") == -23 && OptionValue.loudnessLevel("0") == 0)
        for bad in ["-71", "1", "x", ""] { #expect(refusal(OptionValue.loudnessLevel, bad) != nil, "\(bad)") }
        #expect(try OptionValue.loudnessUnits("0.5") == 0.5)
        for bad in ["0", "-1", "101", "nan"] { #expect(refusal(OptionValue.loudnessUnits, bad) != nil, "\(bad)") }
        #expect(try OptionValue.truePeakLimit("-1") == -1 && OptionValue.truePeakLimit("0.5") == 0.5)
        for bad in ["-61", "21", "inf"] { #expect(refusal(OptionValue.truePeakLimit, bad) != nil, "\(bad)") }
        #expect(try OptionValue.sampleCount("0") == 0 && OptionValue.sampleCount("12") == 12)
        for bad in ["-1", "1.5", "x"] { #expect(refusal(OptionValue.sampleCount, bad) != nil, "\(bad)") }
        #expect(try OptionValue.percent("1") == 1 && OptionValue.percent("0.5%") == 0.5)
        for bad in ["101", "-1", "%", "one"] { #expect(refusal(OptionValue.percent, bad) != nil, "\(bad)") }

        let check = try Check.parse(["a.wav", "--profile", "podcast", "--target-lufs", "-18", "--max-lra", "8", "--max-clipped", "0", "--clip-run", "2"])
        let rules = check.rules.rules
        #expect(rules.profile == .podcast && rules.target == -18 && rules.tolerance == 1 && rules.maximumTruePeak == -1)
        #expect(rules.maximumLoudnessRange == 8 && rules.maximumClippedSamples == 0 && rules.maximumDCOffsetPercent == nil)
        #expect(rules.rules == [.integratedLoudness, .truePeak, .loudnessRange, .clippedSamples])
        #expect(check.rules.settings(truePeak: .bs1770).minimumClipRun == 2)
        // An explicit target is the target of mono files too; an explicit maximum has no tolerance.
        #expect(rules.monoTarget == nil && rules.target(channels: 1) == -18 && DeliveryRules(profile: .podcast).target(channels: 1) == -19)
        let peak = try Check.parse(["a.wav", "--profile", "ebu-r128", "--max-true-peak", "-2"]).rules.rules
        #expect(peak.truePeakLimit == -2 && DeliveryRules(profile: .ebuR128).truePeakLimit == -1 + 0.3)
        for refused in [["a.wav"], ["a.wav", "--tolerance", "1", "--max-dc", "1"], ["a.wav", "--profile", "podcast", "--clip-run", "2"]] {
            #expect(throws: (any Error).self, "\(refused)") { try Check.parse(refused) }
        }
    }

    @Test("charts: --size WIDTHxHEIGHT within limits, --dpi 24 to 1200, --theme light or dark; --dpi scales a PNG's pixels per point")
    func chartOptions() throws {
        #expect(try OptionValue.chartSize("1600x900") == ChartSize(width: 1600, height: 900))
        #expect(try OptionValue.chartSize("320X180") == ChartSize(width: 320, height: 180))
        #expect(try OptionValue.chartSize("640×360") == ChartSize(width: 640, height: 360))
        for bad in ["", "1600", "1600x", "x900", "1600x900x2", "-1600x900", "159x900", "1600x89", "16001x900", "1.5x900", "wide"] {
            let message = try #require(refusal(OptionValue.chartSize, bad), "'\(bad)' is refused")
            #expect(message.contains("--size") && !message.contains("\n"), "\(bad): \(message)")
        }
        #expect(try OptionValue.dpi("192") == 192 && OptionValue.dpi("72.5") == 72.5)
        for bad in ["0", "23", "1201", "nan", "inf", "high"] { #expect(refusal(OptionValue.dpi, bad)?.contains("--dpi") == true, "\(bad)") }
        let chart = try Spectrum.parse(["a.wav", "--output", "x.png", "--size", "800x450", "--dpi", "192", "--theme", "dark"])
        let style = chart.plotting.chartStyle
        #expect(style.width == 800 && style.height == 450 && style.pixelScale == 2 && style.theme == .dark)
        let defaults = try Spectrogram.parse(["a.wav", "--output", "x.pdf"]).plotting.chartStyle
        #expect(defaults.width == 1200 && defaults.height == 675 && defaults.pixelScale == 1 && defaults.theme == .light)
        #expect(throws: (any Error).self) { try Spectrum.parse(["a.wav", "--output", "x.svg", "--dpi", "192"]) }
        #expect(throws: (any Error).self) { try Spectrum.parse(["a.wav", "--output", "x.png", "--width", "100"]) }
        #expect(throws: (any Error).self) { try Spectrum.parse(["a.wav", "--format", "plot", "--size", "800x450"]) }
        #expect(throws: (any Error).self) { try Spectrum.parse(["a.wav", "--format", "csv", "--theme", "dark"]) }
        #expect(throws: (any Error).self) { try Spectrum.parse(["a.wav", "--output", "x.png", "--theme", "sepia"]) }
    }

    @Test("--output: the extension picks the format; disagreements and unknown extensions are refused")
    func outputResolution() throws {
        #expect(try Spectrum.parse(["a.wav", "--output", "x.csv"]).output.resolvedFormat == .csv)
        #expect(try Spectrum.parse(["a.wav", "--output", "dir.v2/x.SVG"]).output.resolvedFormat == .svg)
        #expect(try Spectrum.parse(["a.wav", "--output", "x.png"]).output.resolvedFormat == .png)
        #expect(try Spectrogram.parse(["a.wav", "--output", "x.PDF"]).output.resolvedFormat == .pdf)
        #expect(try LoudnessCommand.parse(["a.wav", "--output", "x.png"]).output.resolvedFormat == .png)
        #expect(try Spectrum.parse(["a.wav", "--output", "x.jsonl"]).output.resolvedFormat == .ndjson)
        #expect(try Analyze.parse(["a.wav", "--output", "x.txt", "--format", "text"]).output.resolvedFormat == .text)
        let refused: [[String]] = [
            ["a.wav", "--output", "x.csv", "--format", "json"], ["a.wav", "--output", "x.dat"], ["a.wav", "--output", "x"],
            ["a.wav", "--output", "x.png", "--format", "svg"], ["a.wav", "b.wav", "--output", "x.pdf"], ["a.wav", "--format", "yaml"],
        ]
        for arguments in refused { #expect(throws: (any Error).self, "\(arguments)") { try Spectrum.parse(arguments) } }
        #expect(throws: (any Error).self) { try Info.parse(["a.wav", "--output", "x.svg"]) }
        #expect(throws: (any Error).self) { try Analyze.parse(["a.wav", "--output", "x.png"]) }
        #expect(throws: (any Error).self) { try Info.parse(["a.wav", "--format", "plot"]) }
        #expect(throws: (any Error).self) { try Spectrogram.parse(["a.wav", "--format", "text"]) }
    }

    @Test("--columns: 1 to 1 000 000 columns; --scale: linear or dbfs")
    func waveformValues() throws {
        #expect(try OptionValue.columns("1") == 1 && OptionValue.columns("1000000") == 1_000_000)
        for bad in ["0", "-5", "1000001", "1e3", "x", ""] {
            let message = try #require(refusal(OptionValue.columns, bad), "'\(bad)'")
            #expect(message.contains("1 to 1000000"), "\(message)")
        }
        #expect(try Waveform.parse(["a.wav", "--format", "plot", "--scale", "dbfs"]).scale == .dbfs)
        #expect(try Waveform.parse(["a.wav", "--format", "csv", "--columns", "12"]).columns == 12)
        #expect(throws: (any Error).self) { try Waveform.parse(["a.wav", "--format", "plot", "--scale", "log"]) }
    }

    @Test("--output patterns: {stem}, {name} and {dir} of each input; other braces refused; a plain name is no pattern")
    func outputPatterns() throws {
        let pattern = try #require(try OutputPattern("out/{dir}/{stem}-{name}.png"))
        #expect(pattern.path(for: "takes/a.b.wav") == "out/takes/a.b-a.b.wav.png")
        #expect(pattern.path(for: "x.flac") == "out/./x-x.flac.png")
        #expect(pattern.path(for: "/abs/.hidden") == "out//abs/.hidden-.hidden.png")
        #expect(pattern.path(for: "/y.wav") == "out///y-y.wav.png")
        #expect(pattern.path(for: "-") == "out/./stdin-stdin.png")
        #expect(pattern.path(for: "noext") == "out/./noext-noext.png")
        #expect(try OutputPattern("plain.png") == nil)
        for bad in ["{stem", "stem}.png", "{}.png", "{Stem}.png", "{stem}{x}.png", "{{stem}}.png"] {
            #expect(throws: ValidationError.self, "\(bad)") { try OutputPattern(bad) }
        }
        // Through the option group: a pattern with a command that writes one result for all files.
        #expect(try Waveform.parse(["a.wav", "b.wav", "--output", "p/{stem}.svg"]).output.pattern != nil)
        #expect(throws: (any Error).self) { try Analyze.parse(["a.wav", "--output", "{stem}.txt"]) }
        #expect(throws: (any Error).self) { try Info.parse(["a.wav", "--output", "{stem}.json"]) }
    }

    @Test("scan's shard: K/N with 1 <= K <= N; the split is FNV-1a of the path, the published test vectors")
    func shards() throws {
        #expect(try OptionValue.shard("3/8") == ShardSelector(index: 3, count: 8) && OptionValue.shard("1/1") == ShardSelector(index: 1, count: 1))
        for bad in ["0/4", "5/4", "4", "1/0", "-1/4", "a/b", "1/4/2", "", "1/100001"] { #expect(refusal(OptionValue.shard, bad) != nil, "\(bad)") }
        // FNV-1a 64-bit of "" and "a" (the algorithm's published vectors).
        #expect(ShardSelector.stableHash("") == 0xcbf2_9ce4_8422_2325 && ShardSelector.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        // Every path falls in exactly one shard, and shards are near equal for 4 000 paths.
        var sizes = [Int](repeating: 0, count: 4)
        for index in 0..<4000 {
            let path = "/archive/disk \(index % 7)/take \(index).wav"
            let owners = (1...4).filter { ShardSelector(index: $0, count: 4)!.contains(path) }
            #expect(owners.count == 1)
            sizes[owners[0] - 1] += 1
        }
        #expect(sizes.allSatisfy { abs($0 - 1000) < 100 }, "\(sizes)")
        #expect(throws: (any Error).self) { try Scan.parse(["--db", "r.db"]) }
        #expect(throws: (any Error).self) { try Scan.parse(["x", "--db", "r.db", "--null"]) }
        #expect(throws: (any Error).self) { try Scan.parse(["x", "--db", "r.db", "--duplicates"]) }
        #expect(try Scan.parse(["--db", "r.db", "--duplicates"]).duplicates)
    }
}
