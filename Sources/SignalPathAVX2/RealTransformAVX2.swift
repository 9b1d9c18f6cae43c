/// A real transform of N points from a complex one of N/2, in the module compiled for x86-64-v3
/// (AVX2 and FMA): `RealFFT` packs the even samples as real parts and the odd as imaginary ones,
/// has FFTW transform that (Z), and unpacks Z into the real signal's bins here, four pairs of bins
/// at a time. On the bench machine FFTW's own real transform of 8192 points took 7.2 µs and its
/// complex one of 4096 points 4.0 µs (patient plans, a C loop over one buffer); this pass adds
/// 1.0 µs (a standalone loop), so `analyze`'s segments cost 5 µs per channel instead of 7.
///
/// With M = N/2, W = e^(−2πi/N) and Z[M] = Z[0], the even samples' spectrum is
/// E[k] = (Z[k] + conj Z[M−k])/2 and the odd ones' O[k] = (Z[k] − conj Z[M−k])/(2i), so
/// X[k] = E[k] + W^k·O[k] and X[M−k] = conj(E[k] − W^k·O[k]): each pair (k, M−k) from the same
/// two bins of Z, in place. Written out, with a = Z[k] and b = Z[M−k]:
///     q = (a.re + b.re, a.im − b.im),  p = (a.re − b.re, a.im + b.im)
///     r = (cos/2 · p.im + sin/2 · p.re,  −cos/2 · p.re + sin/2 · p.im)   (cos, sin of −2πk/N)
///     X[k] = q/2 + r,  X[M−k] = conj(q/2 − r)
public enum RealTransformAVX2 {
    /// Unpacks Z (`half` = M complex bins, interleaved re and im, in `spectrum`, which has room for
    /// M + 1) into bins 0...M of the real transform, in place. `cosines` and `sines` hold, for each
    /// k < M/2, the lanes (cos/2, −cos/2) and (sin/2, sin/2) of the angle −2πk/N (`RealFFT`'s tables).
    /// M even.
    public static func unpack(_ spectrum: UnsafeMutablePointer<Float>, half m: Int, cosines: UnsafePointer<Float>, sines: UnsafePointer<Float>) {
        let (re0, im0) = (spectrum[0], spectrum[1])
        spectrum[0] = re0 + im0
        spectrum[1] = 0
        spectrum[2 &* m] = re0 - im0
        spectrum[2 &* m &+ 1] = 0
        // k = M/2 is its own mirror: X[M/2] = conj Z[M/2].
        spectrum[m &+ 1] = -spectrum[m &+ 1]
        func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> { UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self) }
        let conjugate = SIMD8<Float>(1, -1, 1, -1, 1, -1, 1, -1)
        let realLanes: SIMDMask<SIMD8<Int32>> = [true, false, true, false, true, false, true, false]
        var k = 1
        let middle = m / 2
        // Four bins from k up and their mirrors from M−k down; the groups meet below M/2.
        while k &+ 4 <= middle {
            let a = load(spectrum + 2 &* k)
            let b = reversedPairs(load(spectrum + 2 &* (m &- k &- 3)))
            let sum = a + b, difference = a - b
            let q = difference.replacing(with: sum, where: realLanes)
            let p = sum.replacing(with: difference, where: realLanes)
            let r = load(cosines + 2 &* k) * swappedPairs(p) + load(sines + 2 &* k) * p
            let low = q * 0.5 + r
            let high = (q * 0.5 - r) * conjugate
            UnsafeMutableRawPointer(spectrum + 2 &* k).storeBytes(of: low, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(spectrum + 2 &* (m &- k &- 3)).storeBytes(of: reversedPairs(high), as: SIMD8<Float>.self)
            k &+= 4
        }
        while k < middle {
            unpackPair(spectrum, k, half: m, cosines: cosines, sines: sines)
            k &+= 1
        }
    }

    /// One pair of bins (k, M−k), with the arithmetic of `unpack`'s eight lanes.
    @inline(__always)
    static func unpackPair(_ spectrum: UnsafeMutablePointer<Float>, _ k: Int, half m: Int, cosines: UnsafePointer<Float>, sines: UnsafePointer<Float>) {
        let (low, high) = (2 &* k, 2 &* (m &- k))
        let (aRe, aIm, bRe, bIm) = (spectrum[low], spectrum[low &+ 1], spectrum[high], spectrum[high &+ 1])
        let (qRe, qIm) = (aRe + bRe, aIm - bIm)
        let (pRe, pIm) = (aRe - bRe, aIm + bIm)
        let rRe = cosines[low] * pIm + sines[low] * pRe
        let rIm = cosines[low &+ 1] * pRe + sines[low &+ 1] * pIm
        spectrum[low] = qRe * 0.5 + rRe
        spectrum[low &+ 1] = qIm * 0.5 + rIm
        spectrum[high] = qRe * 0.5 - rRe
        spectrum[high &+ 1] = -(qIm * 0.5 - rIm)
    }

    @inline(__always)
    static func reversedPairs(_ v: SIMD8<Float>) -> SIMD8<Float> { SIMD8(v[6], v[7], v[4], v[5], v[2], v[3], v[0], v[1]) }

    @inline(__always)
    static func swappedPairs(_ v: SIMD8<Float>) -> SIMD8<Float> { SIMD8(v[1], v[0], v[3], v[2], v[5], v[4], v[7], v[6]) }
}
