/// A segment's samples times the window, eight at a time: the one source of both its builds.
/// Compiled twice, as an internal type of each module: here, for x86-64-v3, inside `WindowAVX2`
/// (a SIMD8<Float> in one 256-bit register), and in SignalPathKit
/// (`Spectral/SegmentWindowing.swift` is a link to it) at the x86-64 baseline, where
/// `SegmentTransform.windowed` runs it on processors without AVX2 (two 128-bit halves). Each
/// output is one product, so the same bits at any width (docs/DECISIONS.md#avx2-kernels).
enum SegmentWindowing {
    /// `target[n] = window[n] · Float(sample n of channel `channel`)` over 16-bit samples in host
    /// byte order, `stride` (1 or 2) per frame, for n from 0 while eight more fit in `count`;
    /// returns the first n not done. Two channels' frames are split as `StereoInt16.channel(low:of:)`
    /// splits them (`channelIsLow`: the channel's sample is the frame's low half).
    @inline(__always)
    static func windowed(
        int16 frames: UnsafeRawPointer, channelIsLow: Bool, stride: Int, window: UnsafePointer<Float>, count: Int,
        into target: UnsafeMutablePointer<Float>
    ) -> Int {
        var n = 0
        if stride == 1 {
            while n &+ 8 <= count {
                let values = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: frames.loadUnaligned(fromByteOffset: 2 &* n, as: SIMD8<Int16>.self)))
                let weight = UnsafeRawPointer(window + n).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(target + n).storeBytes(of: weight * values, as: SIMD8<Float>.self)
                n &+= 8
            }
        } else if stride == 2 {
            while n &+ 8 <= count {
                let values = StereoInt16.channel(low: channelIsLow, of: frames.loadUnaligned(fromByteOffset: 4 &* n, as: SIMD8<Int32>.self))
                let weight = UnsafeRawPointer(window + n).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(target + n).storeBytes(of: weight * values, as: SIMD8<Float>.self)
                n &+= 8
            }
        }
        return n
    }

    /// `target[n] = window[n] · source[n · stride]` (`stride` 1 or 2: `source` points at the
    /// channel's first sample) for n from 0 while eight more fit in `count` (with two channels, and
    /// one frame more: the last frame's other sample may lie past the buffer); returns the first
    /// n not done.
    @inline(__always)
    static func windowed(
        _ source: UnsafePointer<Float>, stride: Int, window: UnsafePointer<Float>, count: Int, into target: UnsafeMutablePointer<Float>
    ) -> Int {
        var n = 0
        if stride == 1 {
            while n &+ 8 <= count {
                let values = UnsafeRawPointer(source + n).loadUnaligned(as: SIMD8<Float>.self)
                let weight = UnsafeRawPointer(window + n).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(target + n).storeBytes(of: weight * values, as: SIMD8<Float>.self)
                n &+= 8
            }
        } else if stride == 2 {
            while n &+ 9 <= count {
                let frames = UnsafeRawPointer(source + 2 &* n).loadUnaligned(as: SIMD16<Float>.self)
                let weight = UnsafeRawPointer(window + n).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(target + n).storeBytes(of: weight * frames.evenHalf, as: SIMD8<Float>.self)
                n &+= 8
            }
        }
        return n
    }
}
