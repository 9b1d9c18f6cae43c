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
