/// A segment's samples times the window, compiled for x86-64-v3 (AVX2) from the one source it
/// shares with the baseline build (`SegmentWindowing`). `SegmentTransform.windowed` calls these
/// only where the processor has AVX2 (`ProcessorFeatures`), and finishes the last few samples.
public enum WindowAVX2 {
    /// `SegmentWindowing.windowed(int16:…)`, built for AVX2.
    public static func windowed(
        int16 frames: UnsafeRawPointer, channelIsLow: Bool, stride: Int, window: UnsafePointer<Float>, count: Int,
        into target: UnsafeMutablePointer<Float>
    ) -> Int {
        SegmentWindowing.windowed(int16: frames, channelIsLow: channelIsLow, stride: stride, window: window, count: count, into: target)
    }

    /// `SegmentWindowing.windowed(_:…)`, built for AVX2.
    public static func windowed(
        _ source: UnsafePointer<Float>, stride: Int, window: UnsafePointer<Float>, count: Int, into target: UnsafeMutablePointer<Float>
    ) -> Int {
        SegmentWindowing.windowed(source, stride: stride, window: window, count: count, into: target)
    }
}
