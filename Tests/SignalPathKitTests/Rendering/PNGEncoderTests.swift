import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

/// The PNGs signalpath writes itself, read back by an independent decoder (Pillow, through libpng
/// and zlib of its own) and by Cairo's.
@Suite("PNG encoder")
struct PNGEncoderTests {
    let scratch = ScratchDirectory("png-encoder")

    @Test("a raster of seeded random pixels (and flat runs) decodes to the same RGB, at its size, in Pillow and in Cairo")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 15)
        var raster = ChartRaster(width: 37, height: 23, fill: RGB(250, 250, 250))
        // Noise in the left half (nothing to compress), the right half flat (long matches).
        for y in 0..<raster.height {
            for x in 0..<raster.width / 2 { raster[x, y] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
        }
        let bytes = try PNGEncoder.encode(raster)
        let path = scratch.write("random.png", bytes)
        let script = """
            import sys; from PIL import Image
            image = Image.open(sys.argv[1]); image.load()
            print(image.size[0], image.size[1], image.mode)
            print(' '.join('%02x%02x%02x' % image.getpixel((x, y)) for y in range(image.size[1]) for x in range(image.size[0])))
            """
        let result = try run("/usr/bin/env", ["python3", "-c", script, path])
        try #require(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "37 23 RGB")
        let expected = raster.pixels.map { String(format: "%06x", $0 & 0xFF_FFFF) }
        #expect(lines.dropFirst().first.map { $0.split(separator: " ").map(String.init) } == expected)
        // Cairo reads it too (the golden-image tests decode through it).
        let decoded = try ChartRenderer.decodePNG(bytes)
        #expect(decoded.width == 37 && decoded.height == 23)
        #expect(decoded.pixels.map { $0 & 0xFF_FFFF } == raster.pixels.map { $0 & 0xFF_FFFF })
    }
}
