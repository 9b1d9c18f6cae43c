extension SpectrogramAnalyzer {
    /// A frame's power as a `PowerSpectrum`, so that its values come out in any scale by the same
    /// rules as `spectrum`'s.
    public func spectrum(of frame: Frame) -> PowerSpectrum {
        PowerSpectrum(
            path: file.path, sampleRate: file.format.sampleRate, parameters: parameters, channelNames: channelNames,
            firstFrame: frame.span.lowerBound, segments: frame.segments, power: frame.power)
    }

    /// Bin frequencies, Hz.
    public var frequencies: [Double] {
        (0...parameters.fftSize / 2).map { Double($0) * Double(file.format.sampleRate) / Double(parameters.fftSize) }
    }

    /// The time a frame stands for: the middle of the frames its segments cover, in seconds.
    public func time(of frame: Frame) -> Double {
        Double(frame.span.lowerBound + frame.span.upperBound) / 2 / Double(file.format.sampleRate)
    }
}
