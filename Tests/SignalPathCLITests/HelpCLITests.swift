import Foundation
import Testing
import SignalPathTestSupport

/// What `--help` says: each command's options in its own words, and the formats signalpath reads.
@Suite("Help")
struct HelpCLITests {
    let scratch = ScratchDirectory("help")

    /// Pictures, and the commands that draw them: an option's help may speak of one only in a
    /// command that draws it (a cross-reference in backticks, such as `spectrum --window`, aside).
    static let pictures = [
        "spectrogram": ["spectrogram", "replay"], "loudness chart": ["loudness"], "waveform": ["waveform"],
        "frequency axis": ["spectrum", "spectrogram"], "heat map": ["spectrogram"],
    ]

    @Test("each command's options speak of its own pictures, patterns and extensions only", arguments: try declaredCommands())
    func ownWords(command: String) throws {
        let options = try declaredOptions(command)
        var problems: [String] = []
        for option in options {
            let name = option.long.first ?? ""
            let prose = option.help.replacing(/`[^`]*`/, with: "").lowercased()
            for (picture, drawers) in Self.pictures where prose.contains(picture) && !drawers.contains(command) {
                problems.append("--\(name) speaks of a \(picture): \(option.help)")
            }
        }
        // A pattern's example has an extension the command writes; a command without patterns
        // does not speak of them.
        let output = options.first { $0.long.contains("output") }?.help ?? ""
        let written = Set(output.matches(of: /\s\.([a-z]+)/).map { String($0.output.1) })
        for example in output.matches(of: /'[^']*\{stem\}\.([a-z]+)'/) where !written.contains(String(example.output.1)) {
            problems.append("--output's example \(example.output.0) is not a file \(command) writes (\(written.sorted()))")
        }
        if let force = options.first(where: { $0.long.contains("force") }), force.help.contains("pattern"), !output.contains("pattern") {
            problems.append("--force speaks of a pattern; \(command) takes none: \(force.help)")
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Each format the top-level help names, made by ffmpeg: 0.5 s of 440 Hz (with a picture for
    /// the video soundtracks).
    static let formats: [(names: [String], file: String, codec: [String])] = [
        (["WAV"], "a.wav", []), (["RF64"], "a.rf64", ["-f", "wav", "-rf64", "always"]), (["Wave64"], "a.w64", []), (["AIFF"], "a.aiff", []),
        (["CAF"], "a.caf", []), (["AU"], "a.au", []), (["FLAC"], "a.flac", []), (["Ogg Vorbis"], "a.ogg", ["-c:a", "libvorbis"]),
        (["Opus"], "a.opus", ["-c:a", "libopus"]), (["MP3"], "a.mp3", ["-c:a", "libmp3lame"]), (["MP2"], "a.mp2", ["-c:a", "mp2"]),
        (["M4A", "AAC"], "aac.m4a", ["-c:a", "aac"]), (["M4A", "ALAC"], "alac.m4a", ["-c:a", "alac"]), (["MP4"], "a.mp4", ["-c:a", "aac"]),
        (["MOV"], "a.mov", ["-c:a", "aac"]), (["MKV"], "a.mkv", ["-c:a", "flac"]), (["MKA"], "a.mka", ["-c:a", "libopus"]),
        (["WebM"], "a.webm", ["-c:a", "libopus"]), (["AAC (ADTS)"], "a.aac", ["-c:a", "aac"]), (["AC-3"], "a.ac3", ["-c:a", "ac3"]),
        (["E-AC-3"], "a.eac3", ["-c:a", "eac3"]), (["DTS"], "a.dts", ["-c:a", "dca", "-strict", "-2"]), (["WMA"], "a.wma", ["-c:a", "wmav2"]),
        (["WavPack"], "a.wv", ["-c:a", "wavpack"]),
        (["soundtrack of a video", "MP4"], "video.mp4", ["-c:v", "mpeg4", "-c:a", "aac"]),
        (["soundtrack of a video", "MOV"], "video.mov", ["-c:v", "mpeg4", "-c:a", "aac"]),
        (["soundtrack of a video", "MKV"], "video.mkv", ["-c:v", "mpeg4", "-c:a", "ac3"]),
        (["soundtrack of a video", "WebM"], "video.webm", ["-c:v", "libvpx", "-c:a", "libopus"]),
    ]

    @Test("the top-level help names every format, and each, made by ffmpeg, is read: info describes it, analyze finds its 440 Hz")
    func formatsRead() throws {
        let help = try signalpath("--help").stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        var problems: [String] = []
        for (names, file, codec) in Self.formats {
            for name in names where !help.contains(name) { problems.append("the help does not name \(name)") }
            let path = scratch.file(file)
            let video = file.hasPrefix("video") ? ["-f", "lavfi", "-i", "color=c=gray:s=64x48:r=10:d=0.5"] : []
            let made = try run(
                ffmpeg, ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5:sample_rate=48000"] + video + codec + [path])
            try #require(made.status == 0, "ffmpeg \(file): \(made.stderr)")
            let info = try signalpath("info", path, "--format", "json")
            let described = (try? json(info))?["files"] as? [[String: Any]]
            let duration = described?.first?["duration_s"] as? Double ?? 0
            if info.status != 0 || !(0.45...0.6).contains(duration) { problems.append("info \(file): \(info.status) \(duration) s \(info.stderr)") }
            let analysis = try signalpath("analyze", path, "--format", "json")
            let tones = ((try? json(analysis))?["files"] as? [[String: Any]])?.first?["tones"] as? [[String: Any]]
            let tone = tones?.first?["frequency_hz"] as? Double ?? 0
            if analysis.status != 0 || abs(tone - 440) > 2 { problems.append("analyze \(file): \(analysis.status) \(tone) Hz \(analysis.stderr)") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
