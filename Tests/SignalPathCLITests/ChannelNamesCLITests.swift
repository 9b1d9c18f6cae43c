import Foundation
import Testing
import SignalPathTestSupport

@Suite("signalpath channel names")
struct ChannelNamesCLITests {
    let scratch = ScratchDirectory("cli-channels")

    /// A 5.1(side) WAVE_FORMAT_EXTENSIBLE file (mask 0x60F: FL FR FC LFE SL SR) whose channel c
    /// carries a sine of 300 + 200·c Hz.
    func surround() -> String {
        let builder = PCMFileBuilder(container: .wavExtensible, encoding: .signed16, channels: 6, sampleRate: 48_000, channelMask: 0x60F)
        let frequencies = (0..<6).map { 300 + 200 * Double($0) }
        return scratch.write("surround.wav", builder.file(samples: Signals.sines(frequencies: frequencies, amplitude: 0.25, sampleRate: 48_000, frames: 48_000)))
    }

    @Test("analyze names the channels of a masked file in JSON, CSV and text, from a file and from standard input")
    func analyzeNames() throws {
        let path = surround()
        let expected = ["FL", "FR", "FC", "LFE", "SL", "SR"]
        for input in [path, "-"] {
            let data = input == "-" ? try Data(contentsOf: URL(fileURLWithPath: path)) : nil
            let result = try signalpath(["analyze", input, "--format", "json"], input: data)
            #expect(result.status == 0, "\(result.stderr)")
            let file = try #require((try json(result)["files"] as? [[String: Any]])?.first)
            let channels = try #require(file["channels"] as? [[String: Any]])
            #expect(channels.compactMap { $0["name"] as? String } == expected, "\(input)")
            let conventions = try #require(file["conventions"] as? [String: Any])
            #expect((conventions["channel_weights"] as? [Double]) == [1, 1, 1, 0, 1.41, 1.41])
            #expect((conventions["channel_layout"] as? [String: Any])?["name"] as? String == "5.1(side)")
        }
        let csv = try signalpath("analyze", path, "--format", "csv")
        let rows = csv.stdout.split(whereSeparator: \.isNewline).dropFirst()
        #expect(rows.map { $0.split(separator: ",")[2] } == expected.map { Substring($0) })
        let text = try signalpath("analyze", path, "--format", "text")
        let header = try #require(text.stdout.split(separator: "\n").first { $0.contains("Levels") })
        #expect(header.split(separator: " ").dropFirst().map(String.init) == expected)
    }

    @Test("--channel takes a position: LFE, sl; one the file lacks is a usage error that lists its channels")
    func channelByPosition() throws {
        let path = surround()
        for (selection, column, frequency) in [("LFE", "LFE_dbfs", 900.0), ("sl", "SL_dbfs", 1100.0)] {
            let result = try signalpath("spectrum", path, "--channel", selection, "--format", "csv", "--fft-size", "4800", "--window", "rectangular")
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(whereSeparator: \.isNewline)
            #expect(lines.first == "frequency_hz,\(column)")
            // 10 Hz bins: the strongest row is the channel's own tone.
            let rows: [(frequency: Double, level: Double)] = lines.dropFirst().map { line in
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                return (Double(fields[0]) ?? 0, Double(fields[1]) ?? -Double.infinity)
            }
            let strongest = rows.max { $0.level < $1.level }
            #expect(strongest?.frequency == frequency, "\(selection): \(String(describing: strongest))")
        }
        let missing = try signalpath("spectrum", path, "--channel", "TFL", "--format", "csv")
        #expect(missing.status == 64)
        #expect(missing.stderr == "signalpath: \(path): has no TFL channel (its channels: FL FR FC LFE SL SR)\n")
        let unknown = try signalpath("spectrum", path, "--channel", "XYZ")
        #expect(unknown.status == 64 && unknown.stderr.contains("position such as FL"))
    }
}
