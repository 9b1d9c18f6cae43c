import Foundation
import Testing
import SignalPathTestSupport

/// `--output` patterns: a file per input, each as if the input were the only one named.
@Suite("batch output: --output patterns")
struct BatchOutputCLITests {
    let scratch = ScratchDirectory("batch")

    /// Three inputs in two folders, two of them named alike: `a/x.wav`, `b/x.wav`, `a/y.wav`.
    func inputs() throws -> [String] {
        for folder in ["a", "b", "out"] { try FileManager.default.createDirectory(atPath: scratch.file(folder), withIntermediateDirectories: true) }
        let files = [("a/x.wav", "sine-1k-48k-s16-mono.wav"), ("b/x.wav", "stereo-440L-880R-44k1-s16.wav"), ("a/y.wav", "tone-step-500-1k-48k-s16.wav")]
        for (name, source) in files { try FileManager.default.copyItem(atPath: sample(source), toPath: scratch.file(name)) }
        return files.map { scratch.file($0.0) }
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The fraction of pixels that differ between two PNGs of the same size (Pillow).
    func differingPixels(_ a: String, _ b: String) throws -> Double {
        let script = """
            import sys; from PIL import Image, ImageChops
            a, b = (Image.open(p).convert('RGB') for p in sys.argv[1:3])
            assert a.size == b.size, (a.size, b.size)
            d = ImageChops.difference(a, b).convert('L').point(lambda v: 255 if v else 0)
            print(d.histogram()[255] / (a.size[0] * a.size[1]))
            """
        let result = try run("/usr/bin/env", ["python3", "-c", script, a, b])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Pictures: the same pixels but for glyph anti-aliasing (Cairo caches glyphs per process, so
    /// a chart's bold title and names can differ after other charts were drawn: measured 1.9 % of the pixels
    /// of a 320 × 180 chart, all in bold text; a trace or axis drawn elsewhere changes far more).
    @Test("each input's file holds what a call with that input alone and --output writes", arguments: ["waveform", "spectrogram", "spectrum", "loudness"])
    func sameAsAlone(command: String) throws {
        let files = try inputs()
        let options = ["--size", "320x180"] + (command == "spectrogram" ? ["--fft-size", "512"] : [])
        let result = try signalpath([command] + files + ["--output", "{dir}/{stem}.png"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        for input in files {
            let target = String(input.dropLast(".wav".count)) + ".png"
            let alone = try signalpath([command, input, "--output", scratch.file("alone.png"), "--force"] + options)
            #expect(alone.status == 0)
            let differing = try differingPixels(target, scratch.file("alone.png"))
            #expect(differing < 0.03, "\(target): \(differing * 100) % of pixels differ")
        }
        // Data byte for byte.
        let csv = try signalpath([command] + files + ["--output", "{dir}/{stem}.json"] + (command == "spectrogram" ? ["--fft-size", "512"] : []))
        #expect(csv.status == 0)
        for input in files {
            let alone = try signalpath([command, input, "--format", "json"] + (command == "spectrogram" ? ["--fft-size", "512"] : []))
            #expect(contents(String(input.dropLast(".wav".count)) + ".json") == alone.stdoutData, "\(input)")
        }
    }

    @Test("{dir} keeps inputs of the same name apart; a pattern that would not is refused before any work")
    func collisions() throws {
        let files = try inputs()
        let refused = try signalpath(["waveform"] + files + ["--output", scratch.file("out/{stem}.csv")])
        #expect(refused.status == 64 && refused.stderr.contains("would both write"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out")).isEmpty)
        let result = try signalpath(["waveform"] + files + ["--output", "{dir}/{stem}.csv", "--columns", "5"])
        #expect(result.status == 0, "\(result.stderr)")
        for (input, target) in zip(files, ["a/x.csv", "b/x.csv", "a/y.csv"]) {
            let text = try #require(String(data: contents(scratch.file(target)) ?? Data(), encoding: .utf8), "\(target)")
            // Each file is a table of its own input: a header without a path column.
            #expect(text.hasPrefix("column,") && !text.contains(input), "\(target)")
        }
    }

    @Test("a picture file cannot take several inputs; data can (one table), and a plain name with one input is as before")
    func plainNames() throws {
        let files = try inputs()
        let piped = try signalpath(["waveform"] + files + ["--format", "png"])
        #expect(piped.status == 64 && piped.stdoutData.isEmpty && piped.stderr.contains("Standard output holds one chart"), "\(piped.stderr)")
        for name in ["all.svg", "all.png", "all.pdf"] {
            let refused = try signalpath(["waveform"] + files + ["--output", scratch.file(name)])
            #expect(refused.status == 64 && refused.stderr.contains("{stem}"), "\(refused.stderr)")
            #expect(contents(scratch.file(name)) == nil)
        }
        let table = try signalpath(["waveform"] + files + ["--output", scratch.file("all.csv"), "--columns", "2"])
        #expect(table.status == 0)
        let text = String(data: contents(scratch.file("all.csv")) ?? Data(), encoding: .utf8) ?? ""
        #expect(text.hasPrefix("path,column,") && files.allSatisfy(text.contains))
    }

    @Test("an existing file is kept without --force (that input fails, exit 64, the others are written) and replaced with it")
    func existingFiles() throws {
        let files = try inputs()
        let kept = scratch.write("out/x.json", Array("keep me".utf8))
        let pattern = scratch.file("out/{stem}.json")
        let result = try signalpath(["waveform", files[0], files[2], "--output", pattern, "--columns", "3"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("out/x.json: the file exists; use --force") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(contents(kept) == Data("keep me".utf8))
        #expect(contents(scratch.file("out/y.json")) != nil)
        let forced = try signalpath(["waveform", files[0], files[2], "--output", pattern, "--columns", "3", "--force"])
        #expect(forced.status == 0 && contents(kept) != Data("keep me".utf8))
    }

    @Test("a failing input is reported in the order given and writes nothing; the others are written; the exit code is the first failure's")
    func failures() throws {
        var files = try inputs()
        files.insert(scratch.write("a/bad.wav", Array("not audio at all".utf8)), at: 1)
        files.append(scratch.file("a/missing.wav"))
        var outputs: [[String]] = []
        for jobs in ["1", "4"] {
            let result = try signalpath(["waveform"] + files + ["--output", "{dir}/{stem}.csv", "--jobs", jobs, "--force", "--columns", "3"])
            #expect(result.status == 65, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines[0].contains("a/bad.wav") && lines[1].contains("a/missing.wav: no such file"), "\(lines)")
            let written = try FileManager.default.contentsOfDirectory(atPath: scratch.file("a")).sorted()
            #expect(written == ["bad.wav", "x.csv", "x.wav", "y.csv", "y.wav"], "\(written)")
            outputs.append(["a/x.csv", "b/x.csv", "a/y.csv"].map { String(data: contents(scratch.file($0)) ?? Data(), encoding: .utf8) ?? "" })
        }
        #expect(outputs[0] == outputs[1] && outputs[0].allSatisfy { $0.hasPrefix("column,") })
    }

    @Test("a pattern creates the folders it names (the README's 'pictures/{stem}.png'); one that cannot be made fails its inputs (exit 73); the others are written")
    func missingFolder() throws {
        let files = try inputs()
        // a/x.wav → x.wav/x.csv and a/y.wav → y.wav/y.csv: neither folder exists.
        let result = try signalpath(["waveform", files[0], files[2], "--output", scratch.file("{name}/{stem}.csv"), "--columns", "3"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let alone = try signalpath(["waveform", files[0], "--format", "csv", "--columns", "3"]).stdoutData
        #expect(contents(scratch.file("x.wav/x.csv")) == alone && contents(scratch.file("y.wav/y.csv")) != nil)
        let pictures = try signalpath(["spectrogram", files[0], files[2], "--output", scratch.file("pictures/{stem}.png"), "--range", "0..0.5"])
        #expect(pictures.status == 0 && contents(scratch.file("pictures/x.png"))?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "\(pictures.stderr)")
        #expect(contents(scratch.file("pictures/y.png")) != nil)
        // x is a plain file, so x/w.csv cannot be made; y/w.csv can.
        scratch.write("x", [])
        let mixed = try signalpath(["waveform", files[0], files[2], "--output", scratch.file("{stem}/w.csv")])
        #expect(mixed.status == 73 && mixed.stderr == "signalpath: \(scratch.file("x/w.csv")): cannot create: Not a directory\n", "\(mixed.stderr)")
        #expect(contents(scratch.file("y/w.csv")) != nil)
    }
}
