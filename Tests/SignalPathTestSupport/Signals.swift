import Foundation

/// Test signals with known answers.
public enum Signals {
    /// `frames × channels` interleaved samples of a sine per channel: amplitude `amplitude`
    /// (0.5 is −6.02 dBFS), frequency `frequencies[channel]` in Hz.
    public static func sines(frequencies: [Double], amplitude: Double, sampleRate: Int, frames: Int) -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(frames * frequencies.count)
        for frame in 0..<frames {
            for frequency in frequencies {
                samples.append(amplitude * sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate)))
            }
        }
        return samples
    }

    /// Uniform white noise in [-amplitude, amplitude), seeded.
    public static func noise(count: Int, amplitude: Double, seed: UInt64) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Double.random(in: -amplitude..<amplitude, using: &generator) }
    }
}

/// A sine of `seconds` at `dbfs` (peak level), one value per frame.
public func sine(_ frequency: Double, dbfs: Double, seconds: Double, sampleRate: Int = 48_000, phase: Double = 0) -> [Double] {
    let amplitude = pow(10, dbfs / 20)
    return (0..<Int(seconds * Double(sampleRate))).map { amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(sampleRate) + phase) }
}

/// The same mono signal on both channels, interleaved.
public func stereo(_ mono: [Double]) -> [Double] { mono.flatMap { [$0, $0] } }
